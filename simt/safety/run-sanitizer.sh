#!/usr/bin/env bash
# The safety suite under compute-sanitizer, on a machine with an NVIDIA GPU:
# every case variant alone, plainly and under each of the four tools, then
# OUT_DIR/table.md, a row per variant beside what the emulator finds
# (expected.txt, committed), and OUT_DIR/logs/ with each run's output.
#
#   run-sanitizer.sh [OPTIONS] BUILD_DIR OUT_DIR
#
# BUILD_DIR is a build with simt-safety-cuda in it (nvcc on PATH):
#   meson setup build-gpu -Dsolution=reference -Dscan_backend=cuda -Dgpu_arch=90
#   ninja -C build-gpu simt/safety/simt-safety-cuda
# Options:
#   --timeout S     seconds each run may take (default 60; then killed and
#                   recorded as a timeout: a kernel may spin for ever)
#   --cases A,B     only these cases (names as --list gives them, or GROUP/NAME)
#   --tools "T ..." only these tools (default: memcheck racecheck initcheck synccheck)
#   --program P     the suite's program (default BUILD_DIR/simt/safety/simt-safety-cuda)
#   --dry-run       print the commands and write no table
# A tool "found" a variant when it ended with --error-exitcode's code (9):
# it reported an error. Exit: 0 when the table is written, 2 on bad usage.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
timeout_s=60 cases="" tools="memcheck racecheck initcheck synccheck" program="" dry=0
usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    [ -n "${1:-}" ] && echo "run-sanitizer.sh: $1" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) [ $# -ge 2 ] || usage "--timeout needs a value"; timeout_s=$2; shift 2 ;;
        --cases) [ $# -ge 2 ] || usage "--cases needs a value"; cases=$2; shift 2 ;;
        --tools) [ $# -ge 2 ] || usage "--tools needs a value"; tools=$2; shift 2 ;;
        --program) [ $# -ge 2 ] || usage "--program needs a value"; program=$2; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage ;;
        -*) usage "unknown option $1" ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || usage "give BUILD_DIR and OUT_DIR"
build=$1 out=$2
program=${program:-$build/simt/safety/simt-safety-cuda}
expected=${SAFETY_EXPECTED:-$here/expected.txt}  # the tests give a copy
for t in $tools; do
    case $t in memcheck|racecheck|initcheck|synccheck) ;; *) usage "unknown tool $t" ;; esac
done
case $timeout_s in ''|*[!0-9]*) usage "--timeout takes whole seconds" ;; esac
[ "$dry" = 1 ] || command -v compute-sanitizer >/dev/null || usage "compute-sanitizer is not on PATH (it comes with the CUDA toolkit)"

# The cases, "GROUP/NAME<TAB>CLASS" a line: the program's list, or in a dry
# run without the program, expected.txt's.
if [ -x "$program" ]; then
    list=$(timeout "$timeout_s" "$program" --list) || { echo "run-sanitizer.sh: $program --list failed" >&2; exit 2; }
elif [ "$dry" = 1 ]; then
    list=$(sed -n 's/^\([a-z_]*\/[a-z_]*\) bug:.*/\1\t?/p' "$expected")
else
    usage "no program $program (build it: ninja -C $build simt/safety/simt-safety-cuda)"
fi
if [ -n "$cases" ]; then
    chosen=""
    for c in ${cases//,/ }; do
        line=$(printf '%s\n' "$list" | awk -F'\t' -v c="$c" '$1 == c || substr($1, index($1, "/") + 1) == c')
        [ -n "$line" ] || usage "no case $c"
        chosen+="$line"$'\n'
    done
    list=${chosen%$'\n'}
fi

# What the emulator finds (expected.txt): "GROUP/NAME VARIANT: CHECKS  # why".
emulator_cell() {  # emulator_cell KEY
    local line value why
    line=$(grep -m1 "^$1: " "$expected") || { echo "not recorded"; return; }
    value=${line#*: } why=""
    case $value in *'#'*) why=${value#*#}; value=${value%%#*} ;; esac
    value=$(echo "$value" | sed 's/ *$//')
    why=$(echo "$why" | sed 's/^ *//')
    if [ "$value" = none ]; then
        case $why in missed:*) echo "— (missed)" ;; *) echo "—" ;; esac
    else
        case $why in "false positive:"*) echo "$value (false positive)" ;; *) echo "$value" ;; esac
    fi
}

# The first line of a tool's report (not its banner, summaries or frames).
first_report() {  # first_report LOG
    sed -n 's/^========= //p' "$1" | grep -v -E '^( |COMPUTE-SANITIZER|ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|Target application returned|$)' | head -n 1
}

run() {  # run LOG COMMAND...: the command's exit code, its output in LOG
    local log=$1
    shift
    if [ "$dry" = 1 ]; then
        echo "timeout -k 10 $timeout_s $*"
        return 0
    fi
    timeout -k 10 "$timeout_s" "$@" >"$log" 2>&1 </dev/null
}

# Markdown: a table cell's text with its bars escaped and CUDA's __names__
# as code (bare, they would be bold).
cell_text() { printf '%s' "$1" | sed 's/|/\\|/g; s/\(__[A-Za-z_]*__\)/`\1`/g'; }

[ "$dry" = 1 ] || mkdir -p "$out/logs" || exit 2
started=$(date +%s)
rows="" firsts=""
declare -A bug_found clean_found cases_of
classes=()
count() {  # count VARIANT CLASS.COLUMN: one more bug variant found, or clean twin flagged
    if [ "$1" = bug ]; then bug_found[$2]=$(( ${bug_found[$2]:-0} + 1 ))
    else clean_found[$2]=$(( ${clean_found[$2]:-0} + 1 ))
    fi
}
while IFS=$'\t' read -r name class; do
    [ -n "$name" ] || continue
    short=${name#*/}
    [ -n "${cases_of[$class]:-}" ] || classes+=("$class")
    cases_of[$class]=$(( ${cases_of[$class]:-0} + 1 ))
    for variant in bug clean; do
        key="$name $variant"
        stem=$out/logs/$short.$variant
        emu=$(emulator_cell "$key")
        # Plainly: whether it runs, and the clean twin computes its results.
        run "$stem.run.log" "$program" --case "$name" --variant "$variant"
        rc=$?
        if [ "$dry" = 1 ]; then plain="(dry run)"
        elif [ $rc -eq 0 ]; then plain="ran"
        elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then plain="timeout"
        else plain="rc $rc: $(sed -n "s|^$name $variant: ||p" "$stem.run.log" | head -n 1)"
        fi
        row="| \`$short\` | $variant | $(cell_text "$emu") | $(cell_text "$plain") |"
        case $emu in "—"|"— (missed)"|"not recorded") ;; *) count "$variant" "$class.emulator" ;; esac
        for tool in $tools; do
            log=$stem.$tool.log
            extra=()
            [ "$tool" = memcheck ] && extra=(--leak-check full)
            run "$log" compute-sanitizer --tool "$tool" --error-exitcode 9 ${extra[@]+"${extra[@]}"} \
                "$program" --case "$name" --variant "$variant"
            rc=$?
            if [ "$dry" = 1 ]; then cell="(dry run)"
            elif [ $rc -eq 9 ]; then
                cell="[found](logs/$short.$variant.$tool.log)"
                first=$(first_report "$log")
                echo "$first" >"$stem.$tool.first"
                firsts+="- \`$short\` $variant, $tool: $(cell_text "$first")"$'\n'
                count "$variant" "$class.$tool"
            elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then cell="timeout"
            elif [ $rc -eq 0 ]; then cell="—"
                grep -q '^========= Warning' "$log" && cell="— ([warning](logs/$short.$variant.$tool.log))"
            else cell="— ([rc $rc](logs/$short.$variant.$tool.log))"
            fi
            row+=" $cell |"
        done
        rows+="$row"$'\n'
    done
done <<<"$list"

[ "$dry" = 1 ] && exit 0

{
    echo "# The safety suite under compute-sanitizer"
    echo
    echo "Each case variant of simt/safety/ run alone: plainly, then under"
    echo "\`compute-sanitizer --tool T --error-exitcode 9\` (memcheck with"
    echo "\`--leak-check full\`), each run at most ${timeout_s} s. *found*: the tool"
    echo "reported an error (its log; the first report is listed below); the"
    echo "emulator column is simt/safety/expected.txt, what the CPU emulator finds."
    echo
    echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "- compute-sanitizer: $(compute-sanitizer --version 2>/dev/null | grep -m1 -i version || echo unknown)"
    echo "- nvcc: $(nvcc --version 2>/dev/null | grep -m1 release || echo unknown)"
    echo "- $(date -u +%Y-%m-%d), $(( $(date +%s) - started )) s in all"
    echo
    header="| case | variant | emulator | GPU run |" rule="| --- | --- | --- | --- |"
    for tool in $tools; do header+=" $tool |"; rule+=" --- |"; done
    echo "$header"
    echo "$rule"
    printf '%s' "$rows"
    echo
    echo "## By class (bug variants found; clean twins flagged)"
    echo
    for class in "${classes[@]}"; do
        n=${cases_of[$class]}
        line="- $(cell_text "$class") ($n case$([ "$n" -gt 1 ] && echo s)): emulator ${bug_found[$class.emulator]:-0}/$n"
        [ "${clean_found[$class.emulator]:-0}" -gt 0 ] && line+=" (clean flagged ${clean_found[$class.emulator]})"
        for tool in $tools; do
            line+="; $tool ${bug_found[$class.$tool]:-0}/$n"
            [ "${clean_found[$class.$tool]:-0}" -gt 0 ] && line+=" (clean flagged ${clean_found[$class.$tool]})"
        done
        echo "$line"
    done
    echo
    echo "## First reports"
    echo
    if [ -n "$firsts" ]; then printf '%s' "$firsts"; else echo "none"; fi
} >"$out/table.md"
echo "run-sanitizer.sh: wrote $out/table.md ($(printf '%s' "$rows" | grep -c '^|') variants)"
