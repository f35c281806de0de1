#!/usr/bin/env bash
# grade-corpus.sh SCAN_GRADE KIT OUT: grades, as an instructor would, the
# kit's reference, its untouched stubs, the corpus of typical mistakes (one
# batch, two at a time), and one corpus entry as .zip and as .tar.gz; checks
# bad input gets its exit code; then that every corpus entry gets what its
# expect.txt says (check_corpus.py), and the reference and stubs theirs
# (tests/expect/). TAP on standard output (tap.sh).
set -u
grade=$1 kit=$2 out=$3
unset SCAN_GRADE_CACHE  # each run grades from nothing: the work folder's own result cache, made here
work=$out/work
rm -rf "$out" && mkdir -p "$out"
. "$kit/grader/tests/tap.sh"
exit_code() {  # exit_code WANT DESCRIPTION COMMAND...
    local want=$1 what=$2; shift 2
    "$@" >"$out/last.log" 2>&1; local rc=$?
    [ "$rc" -eq "$want" ] && expect yes "$what: exit $rc" || { note "$out/last.log"; expect no "$what: exit $rc, wanted $want"; }
}

exit_code 0 "the reference" "$grade" --work "$work" --out "$out/reference" --no-colour
note "$out/last.log"
exit_code 0 "the untouched stubs" "$grade" "$kit/labs" --work "$work" --out "$out/stub" --no-colour
# The corpus as a batch, stopped part-way by SIGTERM (an instructor's Ctrl-C,
# a CI cancellation), then run again into the same --out: the rerun grades
# only what the stop left incomplete, and a third run nothing at all.
batch=("$grade" --batch "$kit/grader/tests/corpus" --jobs "${SCAN_GRADE_JOBS:-2}" --work "$work" --out "$out")
"${batch[@]}" >"$out/stopped.log" 2>&1 &
pid=$!
for _ in $(seq 1200); do compgen -G "$out/*/grade.json" >/dev/null && break; sleep 0.5; done
kill -TERM "$pid"
wait "$pid"
rc=$?
before=$(compgen -G "$out/*/grade.json" | wc -l)
[ "$rc" -eq 143 ] && grep -q 'submissions incomplete (stopped by Terminated): .*; run the same command again' "$out/stopped.log" \
    && expect yes "SIGTERM stops the batch: exit 143, $before graded, the rest named" \
    || { note "$out/stopped.log"; expect no "SIGTERM stops the batch: exit $rc, wanted 143 and the incomplete ones named"; }
sleep 1
left=$(pgrep -f -- "$work/" | wc -l)
[ "$left" -eq 0 ] && expect yes "no process of the stopped batch is left" || { pgrep -af -- "$work/" | note; expect no "$left processes of the stopped batch are left"; }
exit_code 0 "the corpus, as a batch, resumed" "${batch[@]}"
note "$out/last.log"
grep -q "[0-9]* entries: [0-9]* graded ($before taken from an earlier run), 0 refused" "$out/last.log" \
    && expect yes "the rerun took the $before graded before the stop from their records" \
    || expect no "the rerun took the $before graded before the stop from their records"
cp "$out/gradebook.csv" "$out/gradebook-first.csv"
exit_code 0 "the corpus, as a batch, a third time" "${batch[@]}"
grep -q ' entries: [0-9]* graded ([0-9]* taken from an earlier run)' "$out/last.log" \
    && [ "$(sed -n 's/^[0-9]* entries: \([0-9]*\) graded (\([0-9]*\) taken.*/\1 \2/p' "$out/last.log" | awk '{ print ($1 == $2) }')" = 1 ] \
    && cmp -s "$out/gradebook.csv" "$out/gradebook-first.csv" \
    && expect yes "a third run grades nothing again and writes the same gradebook" \
    || { note "$out/last.log"; expect no "a third run grades nothing again and writes the same gradebook"; }
grep -q '^graded in [0-9.]* s: build emu' "$out/lab02-modulo-mapping/feedback.txt" && [ -s "$out/lab02-modulo-mapping/phases.json" ] \
    && expect yes "phase times in feedback.txt and phases.json" || expect no "phase times in feedback.txt and phases.json"
grep -q '^student,' "$out/gradebook.csv" && [ "$(wc -l <"$out/gradebook.csv")" -gt 15 ] \
    && expect yes "gradebook.csv has a row per student" || expect no "gradebook.csv has a row per student"

# Archives: the same submission as .zip and .tar.gz grades the same (bands).
# The batch graded its lab 02 in this work folder, so the .tar.gz takes that
# result from the result cache; --no-cache grades the .zip again. (Their
# feedback differs in its first line only, which names the submission.)
entry=lab02-missing-barrier
(cd "$kit/grader/tests/corpus/$entry" && zip -qr "$out/$entry-zip.zip" . && tar -czf "$out/$entry-tgz.tar.gz" .)
exit_code 0 "$entry-zip.zip, --no-cache" "$grade" "$out/$entry-zip.zip" --lab 02 --work "$work" --out "$out/$entry-zip" --no-cache
grep -q '^graded in [0-9.]* s: build emu' "$out/$entry-zip/feedback.txt" && ! grep -q 'from the result cache' "$out/$entry-zip/feedback.txt" \
    && expect yes "--no-cache built and ran the lab" || { tail -n 2 "$out/$entry-zip/feedback.txt" | note; expect no "--no-cache built and ran the lab"; }
exit_code 0 "$entry-tgz.tar.gz" "$grade" "$out/$entry-tgz.tar.gz" --lab 02 --work "$work" --out "$out/$entry-tgz"
grep -q '^graded in [0-9.]* s; from the result cache: 02-brent-kung$' "$out/$entry-tgz/feedback.txt" \
    && cmp -s <(sed 1d "$out/$entry-zip/feedback.txt" | grep -v '^graded in') <(sed 1d "$out/$entry-tgz/feedback.txt" | grep -v '^graded in') \
    && expect yes "the .tar.gz came from the result cache, its feedback the same as the .zip's, graded again" \
    || { tail -n 2 "$out/$entry-tgz/feedback.txt" | note; expect no "the .tar.gz came from the result cache, its feedback the same as the .zip's"; }
printf 'not an archive' >"$out/corrupt.zip"
exit_code 0 "a corrupt archive is graded zero with a reason" "$grade" "$out/corrupt.zip" --lab 01 --work "$work" --out "$out/corrupt"
grep -q 'not graded: cannot open .*corrupt.zip' "$out/corrupt/feedback.txt" && expect yes "the corrupt archive's reason" \
    || expect no "the corrupt archive's reason"
grep -q '^scan-grade: not graded (unreadable), 0 points: cannot open corrupt.zip as an archive' "$out/last.log" \
    && expect yes "a line on stderr says the submission was unreadable" \
    || expect no "a line on stderr says the submission was unreadable"

# Bad usage: exit 2 and a message naming the problem.
exit_code 2 "a missing submission" "$grade" "$out/no-such-folder"
exit_code 2 "an unknown lab" "$grade" --lab 7
exit_code 2 "an unknown option" "$grade" --frobnicate
echo '{"weights": {"safety": "lots"}}' >"$out/bad-rubric.json"
exit_code 2 "a rubric with a wrong type" "$grade" --rubric "$out/bad-rubric.json"
grep -q 'weights.safety has the wrong type' "$out/last.log" && expect yes "the rubric error names the field" \
    || expect no "the rubric error names the field"
echo '{"timing": {"rounds": 5}}' >"$out/old-rubric.json"
exit_code 2 "a rubric with the old timing fields" "$grade" --rubric "$out/old-rubric.json"
grep -q 'timing.rounds is gone' "$out/last.log" && expect yes "the old field is named, with what replaced it" \
    || expect no "the old field is named, with what replaced it"
# A misspelt field is an error, not a default: "lab" for "labs" graded full
# marks without the hidden datasets before.
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["lab"] = r.pop("labs"); json.dump(r, open(sys.argv[2], "w"))' \
    "$kit/grader/rubric.json" "$out/typo-rubric.json"
exit_code 2 "a rubric with a misspelt field (lab for labs)" "$grade" --rubric "$out/typo-rubric.json"
grep -q 'typo-rubric.json.lab is not a rubric field; did you mean "labs"?' "$out/last.log" \
    && expect yes "the misspelt field is named, with the closest known one" \
    || expect no "the misspelt field is named, with the closest known one"

# The escape attempt wrote nothing outside its scratch folder (a promise
# only the sandbox keeps: without one it is reported, not checked).
if grep -q '^no sandbox was used' "$out/adv-write-outside/feedback.txt"; then
    echo "# not checked: adv-write-outside ran without a sandbox ($(grep '^no sandbox' "$out/adv-write-outside/feedback.txt"))"
else
    for escape in /tmp/scan-labs-corpus-escape.txt /dev/shm/scan-labs-corpus-escape.txt; do
        if [ ! -e "$escape" ]; then
            expect yes "adv-write-outside left no file in $(dirname "$escape")"
        else
            rm -f "$escape"
            expect no "adv-write-outside wrote $escape"
        fi
    done
fi

# Hidden datasets: no output a student reads (every results folder above, the
# batch's logs) names one by its seed or size; the instructor's copy
# (--show-hidden) does, which shows the check can fail.
python3 "$kit/grader/tests/check_hidden_withheld.py" "$kit/grader/rubric.json" "$out"/*/ "$out"/*.log >"$work/hidden.log" 2>&1 \
    && expect yes "no output names a hidden dataset: $(tail -n 1 "$work/hidden.log")" \
    || { head -n 20 "$work/hidden.log" | note; expect no "outputs name hidden datasets: $(tail -n 1 "$work/hidden.log")"; }
exit_code 0 "the instructor's copy (--show-hidden)" "$grade" "$kit/grader/tests/corpus/lab01-single-buffer" --lab 01 --work "$work" \
    --out "$work/instructor-copy" --show-hidden
python3 "$kit/grader/tests/check_hidden_withheld.py" "$kit/grader/rubric.json" "$work/instructor-copy" >"$work/hidden-shown.log" 2>&1
[ $? -eq 1 ] && grep -q 'FAIL  hidden walk4 n=3001 seed=' "$work/instructor-copy/feedback.txt" \
    && expect yes "the instructor's copy names them: $(tail -n 1 "$work/hidden-shown.log")" \
    || expect no "the instructor's copy names the hidden datasets"

# What each corpus entry must get (its expect.txt), and the reference and
# stubs theirs; the archives' copies of lab02-missing-barrier what it gets.
tap_take < <(python3 "$kit/grader/tests/check_corpus.py" "$out" "$kit/grader/tests/corpus")
for name in reference stub; do
    tap_take < <(python3 "$kit/grader/tests/check_corpus.py" "$out" --expect "$kit/grader/tests/expect/$name.txt" "$name")
done
entry=lab02-missing-barrier
for copy in zip tgz; do
    tap_take < <(python3 "$kit/grader/tests/check_corpus.py" "$out" --expect "$kit/grader/tests/corpus/$entry/expect.txt" \
                 "$entry-$copy" --bands-only)
done
tap_end
