# Sourced by the CI scripts: the counts behind their last line,
# `N passed, N failed, N skipped` (with those of the TAP logs they tally),
# and the stage times.
passed=0 failed=0 skipped=0
stage_name='' stage_start=0

expect() {  # expect yes|no DESCRIPTION: one check
    if [ "$1" = yes ]; then passed=$((passed + 1)); echo "CHECK ok    $2"
    else failed=$((failed + 1)); echo "CHECK FAIL  $2"; fi
}

tally() {  # tally LOG: adds the counts of another CI script's last line, or of a TAP log's checks
    local last plan ok bad skip
    last=$(tail -n 1 "$1" 2>/dev/null)
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
        passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2])) skipped=$((skipped + BASH_REMATCH[3]))
    elif plan=$(grep -m 1 -oE '^1\.\.[0-9]+' "$1" 2>/dev/null); then  # TAP (grader/tests/tap.sh, tap.py)
        ok=$(grep -cE '^ok [0-9]+ ' "$1") bad=$(grep -cE '^not ok [0-9]+ ' "$1") skip=$(grep -cE '^ok [0-9]+ .*# SKIP' "$1")
        passed=$((passed + ok - skip)) failed=$((failed + bad)) skipped=$((skipped + skip))
        [ "$((ok + bad))" -eq "${plan#1..}" ] || expect no "$1: $((ok + bad)) checks of its plan's ${plan#1..} (it crashed?)"
    else
        expect no "$1 ends without its counts line or TAP plan (it crashed?)"
    fi
}

summary() {  # the last line; the exit status says whether anything failed
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}

stage() {  # stage [NAME]: ends the stage running, printing `stage NAME: N s` (its wall
    # time; also appended to $STAGES, where .ci/run collects them), and starts NAME
    if [ -n "$stage_name" ]; then
        echo "stage $stage_name: $((SECONDS - stage_start)) s" | tee -a "${STAGES:-/dev/null}"
    fi
    stage_name=${1:-} stage_start=$SECONDS
}
