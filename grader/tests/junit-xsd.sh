#!/usr/bin/env bash
# junit-xsd.sh SCAN_GRADE KIT OUT [WORK]: junit.xml as Jenkins' xunit plugin
# reads it. One corpus entry (lab01-single-buffer: a failed test among passed
# ones) is graded for real on the machine's backends, and its junit.xml is
# validated with xmllint against the plugin's junit-10.xsd, read where the
# published schemas sit beside the kit (../shared/schemas/, never copied
# into it; SCAN_SCHEMAS names that folder where the kit is checked out
# elsewhere, a git worktree say); and its times must be measured ones, not
# all zero. Exit 77 (Meson's SKIP, not a pass) where the schema or xmllint
# is missing. Where WORK exists (grade-corpus's work folder) its builds are
# reused.
set -u
grade=$1 kit=$2 out=$3 reuse=${4:-}
schemas=${SCAN_SCHEMAS:-$kit/../shared/schemas}
xsd=$schemas/jenkins-xunit-junit-10.xsd
if [ ! -f "$xsd" ]; then
    echo "SKIP: no jenkins-xunit-junit-10.xsd in $schemas (the published schemas beside the kit, ../shared/schemas/, or SCAN_SCHEMAS): junit.xml not validated"
    exit 77
fi
if ! command -v xmllint >/dev/null; then
    echo "SKIP: no xmllint (Debian's libxml2-utils): junit.xml not validated"
    exit 77
fi
unset SCAN_GRADE_CACHE
rm -rf "$out" && mkdir -p "$out"
work=$out/work again=()
if [ -n "$reuse" ] && [ -d "$reuse" ]; then work=$reuse again=(--no-cache); fi
entry=lab01-single-buffer
"$grade" "$kit/grader/tests/corpus/$entry" --lab 01 --work "$work" --out "$out/results" "${again[@]}" >"$out/grade.log" 2>&1
rc=$?
junit=$out/results/junit.xml
if [ ! -f "$junit" ]; then
    echo "FAIL: scan-grade $entry (exit $rc) wrote no junit.xml"; tail -n 20 "$out/grade.log"; exit 1
fi
status=0
if xmllint --noout --schema "$xsd" "$junit"; then
    echo "ok: $entry's junit.xml validates against junit-10.xsd"
else
    echo "FAIL: $entry's junit.xml does not validate against junit-10.xsd"; status=1
fi
# Some testcase's time above zero: measured, not "0.000" everywhere.
if grep -Eq '<testcase [^>]*time="[0-9]*\.?[0-9]*[1-9]' "$junit"; then
    echo "ok: $entry's junit.xml has measured times"
else
    echo "FAIL: every time in $entry's junit.xml is zero (or none is given)"; grep -o 'time="[^"]*"' "$junit" | sort | uniq -c; status=1
fi
exit $status
