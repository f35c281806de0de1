# tap.sh, sourced by the test scripts that run many checks (tap.py is its
# twin for Python): each check one TAP line, which Meson's test runner counts
# (protocol: 'tap'); other output as TAP comments; tap_end prints the plan
# and returns the scripts' status.
tap_n=0 tap_failed=0
expect() {  # expect yes|no DESCRIPTION (on one line)
    tap_n=$((tap_n + 1))
    local what=${2//$'\n'/ }
    if [ "$1" = yes ]; then echo "ok $tap_n - $what"; else tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $what"; fi
}
note() { sed 's/^/# /' "$@"; }  # files (or standard input) as comments
tap_take() {  # another checker's TAP lines on standard input (check_corpus.py's), counted as ours
    local line
    while IFS= read -r line; do
        case "$line" in
            "ok - "*) tap_n=$((tap_n + 1)); echo "ok $tap_n - ${line#ok - }" ;;
            "not ok - "*) tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - ${line#not ok - }" ;;
            *) echo "# ${line#\# }" ;;
        esac
    done
}
tap_skip() {  # tap_skip WHAT REASON: a check that cannot run here
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1 # SKIP ${2//$'\n'/ }"
}
tap_skip_all() {  # tap_skip_all REASON: the whole script skipped (a plan of none, which Meson reports as SKIP)
    echo "1..0 # SKIP $1"
    exit 0
}
tap_end() {
    echo "1..$tap_n"
    echo "# $((tap_n - tap_failed)) passed, $tap_failed failed"
    [ "$tap_failed" -eq 0 ]
}
