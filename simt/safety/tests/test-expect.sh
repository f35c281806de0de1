#!/usr/bin/env bash
# The safety test can fail: the emulator's build of the suite against copies
# of expected.txt with one thing changed must exit 1, naming it.
#   test-expect.sh SIMT_SAFETY_PROGRAM EXPECTED_TXT
set -u
program=$1 expected=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check WHAT SED_SCRIPT MESSAGE: with the edit, exit 1 and MESSAGE printed
    sed "$2" "$expected" >"$tmp/expected.txt"
    if cmp -s "$tmp/expected.txt" "$expected"; then echo "FAILED: $1: the edit changed nothing"; failures=$((failures + 1)); return; fi
    "$program" --expect "$tmp/expected.txt" >"$tmp/out" 2>&1
    local rc=$?
    if [ $rc -eq 1 ] && grep -qF -- "$3" "$tmp/out"; then echo "ok: $1"
    else echo "FAILED: $1 (exit $rc, no \"$3\")"; failures=$((failures + 1)); fi
}
if "$program" --expect "$expected" >"$tmp/out" 2>&1; then echo "ok: the committed record"
else echo "FAILED: the committed record"; failures=$((failures + 1)); fi
check "a bug variant recorded as finding another check" 's/^leaks\/leak bug: .*/leaks\/leak bug: data race on global memory/' \
    "differs: leaks/leak bug"
check "a clean twin recorded with a finding it does not give" \
    's/^races\/memcpy_race clean: none/races\/memcpy_race clean: data race on shared memory/' "differs: races/memcpy_race clean"
check "a variant left out" '/^bounds\/oob_global clean:/d' "not in $tmp/expected.txt: bounds/oob_global clean"
check "a variant the suite does not have" '$a races/no_such_case bug: none  # missed: test' "but not in the suite: races/no_such_case bug"
# No bug variant is missed and no clean twin flagged today, so a miss or a
# false positive recorded where the emulator is right must differ (a stale
# record cannot stay).
check "a miss recorded for a bug the emulator finds" \
    's/^races\/shared_race_function bug: .*/races\/shared_race_function bug: none  # missed: stale/' \
    "differs: races/shared_race_function bug"
check "a false positive recorded for a clean twin the emulator passes" \
    's/^ordering\/missing_fence clean: .*/ordering\/missing_fence clean: data race on global memory  # false positive: stale/' \
    "differs: ordering/missing_fence clean"
check "a line that is not KEY: VALUE" '$a just words' "not KEY: VALUE"
exit $((failures > 0))
