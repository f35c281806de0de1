#!/usr/bin/env bash
# run-sanitizer.sh with the stand-in compute-sanitizer (fake/: it runs the
# emulator's build and reports its findings in the tool's format), on a few
# cases: the table's rows and cells, the logs, a run that never ends
# recorded as a timeout, the dry run, and bad usage.
#   test-run-sanitizer.sh RUN_SANITIZER_SH SIMT_SAFETY_PROGRAM TESTS_DIR
set -u
script=$1 program=$2 tests=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() {  # expect WHAT COMMAND...: the command must succeed
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
has() { grep -qF -- "$1" "$2"; }

cases=oob_global,leak,shared_race_function,missing_fence,shared_race_namespace,block_order
# The emulator's column from a copy of the record with one miss and one
# false positive in it (the committed record has neither today).
sed -e 's/^races\/shared_race_namespace bug: .*/races\/shared_race_namespace bug: none  # missed: a test of the column/' \
    -e 's/^ordering\/missing_fence clean: .*/ordering\/missing_fence clean: data race on global memory  # false positive: a test of the column/' \
    "$(dirname "$script")/expected.txt" >"$tmp/expected.txt"
PATH=$tests/fake:$PATH FAKE_SANITIZER_HANG=synccheck:ordering/block_order SAFETY_EXPECTED=$tmp/expected.txt \
    "$script" --timeout 2 --program "$program" --cases "$cases" "$tmp" "$tmp/out" >"$tmp/log" 2>&1
expect "run-sanitizer.sh exits 0 ($(tail -n 1 "$tmp/log"))" [ $? -eq 0 ]
table=$tmp/out/table.md
expect "a row per variant: 12" [ "$(grep -c '^| `' "$table")" -eq 12 ]
expect "memcheck finds the bound's bug" \
    has '| `oob_global` | bug | out-of-bounds access | ran | [found](logs/oob_global.bug.memcheck.log) | — | — | — |' "$table"
expect "its clean twin: nothing anywhere" has '| `oob_global` | clean | — | ran | — | — | — | — |' "$table"
expect "memcheck is given --leak-check full" \
    has '| `leak` | bug | device memory leak | ran | [found](logs/leak.bug.memcheck.log) | — | — | — |' "$table"
expect "a run that never ends is a timeout" \
    has '| `block_order` | bug | possible deadlock | ran | — | — | — | timeout |' "$table"
expect "the emulator's recorded miss" has '| `shared_race_namespace` | bug | — (missed) |' "$table"
expect "the emulator's recorded false positive" \
    has '| `missing_fence` | clean | data race on global memory (false positive) |' "$table"
expect "a warning alone is not found" \
    has '| `missing_fence` | bug | data race on global memory | ran | — | — ([warning](logs/missing_fence.bug.racecheck.log)) |' "$table"
expect "the first report kept" has 'Invalid __global__ write of size 4 bytes' "$tmp/out/logs/oob_global.bug.memcheck.first"
expect "and listed" has '- `oob_global` bug, memcheck: Invalid `__global__` write of size 4 bytes' "$table"
expect "a summary per class" \
    has '- out of bounds: global memory (1 case): emulator 1/1; memcheck 1/1; racecheck 0/1; initcheck 0/1; synccheck 0/1' "$table"
expect "a class's clean twins flagged are counted" \
    has '- missing fence between blocks (1 case): emulator 1/1 (clean flagged 1); memcheck 0/1;' "$table"
logs=("$tmp"/out/logs/*.log)
expect "every run logged: 12 variants, plainly and under 4 tools" [ ${#logs[@]} -eq 60 ]

# A dry run prints each command and writes nothing.
"$script" --dry-run --program "$program" --cases leak "$tmp" "$tmp/dry" >"$tmp/dry.log" 2>&1
expect "dry run exits 0" [ $? -eq 0 ]
expect "dry run: memcheck with its leak check" \
    has "compute-sanitizer --tool memcheck --error-exitcode 9 --leak-check full $program --case leaks/leak --variant bug" "$tmp/dry.log"
expect "dry run: 10 commands" [ "$(grep -c '^timeout ' "$tmp/dry.log")" -eq 10 ]
expect "dry run: no table" [ ! -e "$tmp/dry/table.md" ]

PATH=$tests/fake:$PATH "$script" --tools "memcheck helgrind" --program "$program" "$tmp" "$tmp/bad" >"$tmp/bad.log" 2>&1
expect "an unknown tool is bad usage" [ $? -eq 2 ]
expect "and says which" has "unknown tool helgrind" "$tmp/bad.log"
PATH=$tests/fake:$PATH "$script" --program "$program" --cases no_such_case "$tmp" "$tmp/bad" >"$tmp/bad.log" 2>&1
expect "an unknown case is bad usage" [ $? -eq 2 ]
expect "and says which" has "no case no_such_case" "$tmp/bad.log"
PATH=$tests/fake:$PATH "$script" "$tmp/no-build" "$tmp/bad" >"$tmp/bad.log" 2>&1
expect "no program is bad usage" [ $? -eq 2 ]
expect "and says which" has "no program $tmp/no-build/simt/safety/simt-safety-cuda" "$tmp/bad.log"
if ! command -v compute-sanitizer >/dev/null; then
    "$script" --program "$program" "$tmp" "$tmp/bad" >"$tmp/bad.log" 2>&1
    expect "no compute-sanitizer on PATH is bad usage" [ $? -eq 2 ]
    expect "and says so" has "compute-sanitizer is not on PATH" "$tmp/bad.log"
fi

[ $failures -eq 0 ] || { cat "$tmp/log"; exit 1; }
