#!/usr/bin/env bash
# grade-sample.sh SCAN_GRADE KIT OUT [WORK]: the quick test run's taste of
# the grader: three corpus entries graded as a batch on the machine's backends
# (a race, a modulo-mapping Brent-Kung's divergence, inline PTX the emulator
# cannot run), each checked against its expect.txt, and the class's LMS files
# from a roster that names two of them and a student with no submission
# (and, given to merge, a malformed one). grade-corpus.sh grades
# the whole corpus (./scan-labs test --full). Where WORK exists (grade-corpus's
# work folder, left by an earlier --full run) its builds are reused, as a
# grader's work folder is between runs, and --no-cache grades the entries
# again; otherwise a work folder of its own is built. One slot (--jobs 1):
# its runs still use every core, and a second slot's workspace was a kit
# build more. TAP on standard output.
set -u
grade=$1 kit=$2 out=$3 reuse=${4:-}
unset SCAN_GRADE_CACHE
rm -rf "$out" && mkdir -p "$out/batch"
work=$out/work again=()
if [ -n "$reuse" ] && [ -d "$reuse" ]; then work=$reuse again=(--no-cache); fi
. "$kit/grader/tests/tap.sh"
entries=(lab01-single-buffer lab02-modulo-mapping lab05-inline-ptx)
for entry in "${entries[@]}"; do cp -R "$kit/grader/tests/corpus/$entry" "$out/batch/"; done
[ "$work" = "$out/work" ] && echo "# grading ${entries[*]} (builds the kit's emulator workspaces first: a minute or two)" \
    || echo "# grading ${entries[*]} in $work, whose builds an earlier run made"
# The roster as a spreadsheet saves it: a byte-order mark, CRLF, quoted names.
printf '\xef\xbb\xbfsubmission,lms_id,name\r\nlab01-single-buffer,ada,"Lovelace, Ada"\r\nlab02-modulo-mapping,bo,"O""Neil, Bo"\r\ncarol,cchen,"Chen, Carol"\r\n' >"$out/roster.csv"
"$grade" --batch "$out/batch" --lab 01 --lab 02 --lab 05 --jobs 1 --work "$work" --out "$out" "${again[@]}" \
    --roster "$out/roster.csv" --lms-assignment "Lab sample (123)" >"$out/batch.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && expect yes "three entries graded as a batch: exit 0" || { note "$out/batch.log"; expect no "the batch: exit $rc"; }
for entry in "${entries[@]}"; do
    tap_take < <(python3 "$kit/grader/tests/check_corpus.py" "$out" --expect "$kit/grader/tests/corpus/$entry/expect.txt" "$entry")
done
crlf=$'\r'
bom=$'\xef\xbb\xbf'
[ "$(head -n 1 "$out/canvas.csv")" = "${bom}Student,ID,SIS User ID,SIS Login ID,Section,Lab sample (123)$crlf" ] \
    && [ "$(sed -n 2p "$out/canvas.csv")" = "Points Possible,,,,,100$crlf" ] \
    && [ "$(wc -l <"$out/canvas.csv")" -eq 5 ] && grep -q "^\"Chen, Carol\",,,cchen,,0$crlf\$" "$out/canvas.csv" \
    && expect yes "canvas.csv: a BOM, Canvas's columns, Points Possible 100, a row per roster student, the missing one 0" \
    || { note "$out/canvas.csv"; expect no "canvas.csv"; }
[ "$(head -n 1 "$out/moodle.csv")" = "Username,Full name,Lab sample (123),Lab sample (123) (feedback)$crlf" ] \
    && grep -q "^cchen,\"Chen, Carol\",0,no submission$crlf\$" "$out/moodle.csv" && ! grep -q 'sandbox' "$out/moodle.csv" \
    && expect yes "moodle.csv: the identifier, the grade item and its feedback; the missing one 0, no submission" \
    || { note "$out/moodle.csv"; expect no "moodle.csv"; }
[ "$(cat "$out/not-in-roster.txt")" = lab05-inline-ptx ] \
    && grep -q '^scan-grade: warning: 1 submission(s) not in the roster' "$out/batch.log" \
    && ! grep -q lab05-inline-ptx "$out/canvas.csv" "$out/moodle.csv" \
    && expect yes "the submission not in the roster: a warning, not-in-roster.txt, out of the LMS files" \
    || { note "$out/batch.log"; expect no "the submission not in the roster"; }
# A header one submission handed in is gone for the next, whichever run
# graded it: a scan.cu that includes it without handing it in does not compile.
mkdir -p "$out/with-header/labs/01-kogge-stone" "$out/without-header/labs/01-kogge-stone"
printf '#pragma once\nconstexpr int kHelper = 1;\n' >"$out/with-header/labs/01-kogge-stone/helper.cuh"
{ printf '#include "helper.cuh"\n'; cat "$kit/grader/tests/corpus/lab01-single-buffer/labs/01-kogge-stone/scan.cu"; } \
    >"$out/without-header/labs/01-kogge-stone/scan.cu"
{ cat "$out/without-header/labs/01-kogge-stone/scan.cu"; printf 'static_assert(kHelper == 2, "fails to build");\n'; } \
    >"$out/with-header/labs/01-kogge-stone/scan.cu"
"$grade" "$out/with-header" --lab 01 --work "$work" --out "$out/with-header-results" --no-cache >"$out/with-header.log" 2>&1
"$grade" "$out/without-header" --lab 01 --work "$work" --out "$out/without-header-results" --no-cache >"$out/without-header.log" 2>&1
grep -q 'fails to build' "$out/with-header-results/feedback.txt" \
    && grep -q 'helper.cuh: No such file' "$out/without-header-results/feedback.txt" \
    && expect yes "a header left by an earlier run's submission is not taken for a later one's" \
    || { note "$out/without-header-results/feedback.txt"; expect no "a header left by an earlier run's submission"; }
# merge writes the same files from the results' grade.json; a malformed roster stops it, its line named.
cp "$out/canvas.csv" "$out/canvas-batch.csv"
"$grade" merge "$out" --roster "$out/roster.csv" --lms-assignment "Lab sample (123)" >"$out/merge.log" 2>&1 \
    && cmp -s "$out/canvas.csv" "$out/canvas-batch.csv" \
    && [ "$(grep '^every student: ' "$out/merge.log")" = "$(grep '^every student: ' "$out/batch.log")" ] \
    && expect yes "merge --roster writes the batch's canvas.csv and says the run as the batch did" \
    || { note "$out/merge.log"; expect no "merge --roster"; }
printf 'submission,lms_id,name\nann,a1,Ann\nbob,a1,Bob\n' >"$out/bad-roster.csv"
"$grade" merge "$out" --roster "$out/bad-roster.csv" >"$out/bad-merge.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "bad-roster.csv line 3: lms_id a1 is also on line 2" "$out/bad-merge.log" \
    && expect yes "a malformed roster: exit 2, its line named" || { note "$out/bad-merge.log"; expect no "a malformed roster: exit $rc"; }
tap_end
