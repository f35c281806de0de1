#!/usr/bin/env bash
# grade-corpus.sh SCAN_GRADE KIT OUT: grades, as an instructor would, the
# kit's reference, its untouched stubs, the corpus of typical mistakes (one
# batch, two at a time), and one corpus entry as .zip and as .tar.gz; checks
# bad input gets its exit code; then asserts every score band of bands.txt.
# Last line: `N passed, N failed`.
set -u
grade=$1 kit=$2 out=$3
unset SCAN_GRADE_CACHE  # each run grades from nothing: the work folder's own result cache, made here
work=$out/work
rm -rf "$out" && mkdir -p "$out"
passed=0 failed=0
expect() {  # expect OK DESCRIPTION
    if [ "$1" = yes ]; then passed=$((passed + 1)); echo "ok    $2"; else failed=$((failed + 1)); echo "FAIL  $2"; fi
}
exit_code() {  # exit_code WANT DESCRIPTION COMMAND...
    local want=$1 what=$2; shift 2
    "$@" >"$out/last.log" 2>&1; local rc=$?
    [ "$rc" -eq "$want" ] && expect yes "$what: exit $rc" || { cat "$out/last.log"; expect no "$what: exit $rc, wanted $want"; }
}

exit_code 0 "the reference" "$grade" --work "$work" --out "$out/reference" --no-colour
cat "$out/last.log"
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
    || { cat "$out/stopped.log"; expect no "SIGTERM stops the batch: exit $rc, wanted 143 and the incomplete ones named"; }
sleep 1
left=$(pgrep -f -- "$work/" | wc -l)
[ "$left" -eq 0 ] && expect yes "no process of the stopped batch is left" || { pgrep -af -- "$work/"; expect no "$left processes of the stopped batch are left"; }
exit_code 0 "the corpus, as a batch, resumed" "${batch[@]}"
cat "$out/last.log"
grep -q "[0-9]* entries: [0-9]* graded ($before taken from an earlier run), 0 refused" "$out/last.log" \
    && expect yes "the rerun took the $before graded before the stop from their records" \
    || expect no "the rerun took the $before graded before the stop from their records"
cp "$out/gradebook.csv" "$out/gradebook-first.csv"
exit_code 0 "the corpus, as a batch, a third time" "${batch[@]}"
grep -q ' entries: [0-9]* graded ([0-9]* taken from an earlier run)' "$out/last.log" \
    && [ "$(sed -n 's/^[0-9]* entries: \([0-9]*\) graded (\([0-9]*\) taken.*/\1 \2/p' "$out/last.log" | awk '{ print ($1 == $2) }')" = 1 ] \
    && cmp -s "$out/gradebook.csv" "$out/gradebook-first.csv" \
    && expect yes "a third run grades nothing again and writes the same gradebook" \
    || { cat "$out/last.log"; expect no "a third run grades nothing again and writes the same gradebook"; }
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
    && expect yes "--no-cache built and ran the lab" || { tail -n 2 "$out/$entry-zip/feedback.txt"; expect no "--no-cache built and ran the lab"; }
exit_code 0 "$entry-tgz.tar.gz" "$grade" "$out/$entry-tgz.tar.gz" --lab 02 --work "$work" --out "$out/$entry-tgz"
grep -q '^graded in [0-9.]* s; from the result cache: 02-brent-kung$' "$out/$entry-tgz/feedback.txt" \
    && cmp -s <(sed 1d "$out/$entry-zip/feedback.txt" | grep -v '^graded in') <(sed 1d "$out/$entry-tgz/feedback.txt" | grep -v '^graded in') \
    && expect yes "the .tar.gz came from the result cache, its feedback the same as the .zip's, graded again" \
    || { tail -n 2 "$out/$entry-tgz/feedback.txt"; expect no "the .tar.gz came from the result cache, its feedback the same as the .zip's"; }
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
    echo "not checked: adv-write-outside ran without a sandbox ($(grep '^no sandbox' "$out/adv-write-outside/feedback.txt"))"
elif [ ! -e /tmp/scan-labs-corpus-escape.txt ]; then
    expect yes "adv-write-outside left no file in /tmp"
else
    rm -f /tmp/scan-labs-corpus-escape.txt
    expect no "adv-write-outside wrote /tmp/scan-labs-corpus-escape.txt"
fi

# What the student reads for a link error, an answer computed on the host,
# a chain that waits on a block that may never run and a loop that never ends.
grep -q "undefined reference to .scan_in_shared" "$out/lab04-undefined-device-function/feedback.txt" \
    && expect yes "a link error names the undefined reference" || expect no "a link error names the undefined reference"
grep -q "hierarchical_scan launched no kernel: the scan must run on the GPU" "$out/lab04-host-answer/feedback.txt" \
    && expect yes "a host answer is named" || expect no "a host answer is named"
grep -q "possible deadlock in kernel scan_and_chain" "$out/lab04-wait-for-lower-block/feedback.txt" \
    && expect yes "waiting for a lower block is a possible deadlock" || expect no "waiting for a lower block is a possible deadlock"
grep -q "possible endless loop in kernel kogge_stone_kernel: block (0,0,0): threads 0-1023 have run 20000000 basic blocks in the loop at scan.cu:16-19 without one finishing, through [0-9]* barriers (the last at scan.cu:16); now threads 0-1023 wait at the __syncthreads() at scan.cu:16" \
    "$out/lab01-endless-loop/feedback.txt" \
    && expect yes "an endless loop is a possible endless loop, with its lines" || expect no "an endless loop is a possible endless loop, with its lines"
# Issue 18: a store or load far past n, or through an uninitialised pointer,
# is an out-of-bounds finding with its line that stops the launch, never a
# crash of the test program (exit 139 or 134 and the output lost before).
for entry in lab01-unguarded-store lab01-unguarded-load lab01-uninitialised-pointer lab01-store-one-past lab01-far-index \
             lab03-load-before-zero; do
    ! grep -q "the test program exited with code\|was killed by signal" "$out/$entry/feedback.txt" \
        && expect yes "$entry: no test program crashed" || expect no "$entry: a test program crashed"
done
grep -q "out-of-bounds access in kernel kogge_stone_kernel: block (0,0,0): thread 65 wrote 4 bytes at offset 260 of a 260-byte device allocation (past its end) at scan.cu:27; then block (0,0,0): thread 960 wrote 4 bytes at offset 3840 of a 260-byte device allocation (past its end) at scan.cu:27: the launch stopped there, before the access" \
    "$out/lab01-unguarded-store/feedback.txt" \
    && expect yes "stores past n: the out-of-bounds finding and its line, the far one stopped" \
    || expect no "stores past n: the out-of-bounds finding and its line, the far one stopped"
grep -q "then block (0,0,0): thread 960 read 4 bytes at offset 3840 of a 260-byte device allocation (past its end) at scan.cu:17: the launch stopped there" \
    "$out/lab01-unguarded-load/feedback.txt" \
    && expect yes "loads past n: the far one stopped, with its line" || expect no "loads past n: the far one stopped, with its line"
grep -q "out-of-bounds access in kernel kogge_stone_kernel: block (0,0,0): thread 0 read 4 bytes at address [0-9a-fx]* at scan.cu:13, in no device allocation or shared array, where nothing is mapped" \
    "$out/lab01-uninitialised-pointer/feedback.txt" \
    && expect yes "an uninitialised pointer: the finding and its line" || expect no "an uninitialised pointer: the finding and its line"
grep -q "out-of-bounds access in kernel kogge_stone_kernel: block (0,0,0): thread 1 read 4 bytes at offset 4 of a device buffer of 4 bytes (past its end: the 1 elements the lab function was given) at scan.cu:11" \
    "$out/lab01-store-one-past/feedback.txt" \
    && expect yes "one past n (i <= n): the finding and its line" || expect no "one past n (i <= n): the finding and its line"
grep -Eq "read 4 bytes at offset [0-9]{7,} of a [0-9]+-byte device allocation \(past its end\) at scan.cu:8: the launch stopped there" \
    "$out/lab01-far-index/results.json" \
    && expect yes "a million elements past n (blockIdx.x * n): the finding and its line, the launch stopped" \
    || expect no "a million elements past n (blockIdx.x * n): the finding and its line, the launch stopped"
grep -q "out-of-bounds access in kernel ks_exclusive: block (0,0,0): thread 0 read 4 bytes at offset -4 of a [0-9]*-byte device allocation (before its start) at scan.cu:9" \
    "$out/lab03-load-before-zero/feedback.txt" \
    && expect yes "before 0 (in[i - 1] at i = 0): the finding and its line" || expect no "before 0 (in[i - 1] at i = 0): the finding and its line"

# Issue 30: inline PTX is the emulator's limit, not the student's error:
# graded on the GPU alone, or "needs a GPU to grade" without one, and flagged
# in the gradebook either way, as is Thrust's pair; CUB's scan is refused by
# the rubric.
grep -q '^lab05-inline-ptx,.*,05-decoupled-lookback: \(needs a GPU to grade\|graded on the GPU only\) (emulator limit),' "$out/gradebook.csv" \
    && grep -q '`asm` (inline PTX) at scan.cu:41' "$out/lab05-inline-ptx/feedback.txt" \
    && expect yes "inline PTX: graded on a GPU or needs one, flagged in gradebook.csv, its line named" \
    || expect no "inline PTX: graded on a GPU or needs one, flagged in gradebook.csv, its line named"
grep -q '^lab05-thrust-pair-lookback,.*,05-decoupled-lookback: \(needs a GPU to grade\|graded on the GPU only\) (emulator limit),' "$out/gradebook.csv" \
    && grep -q '`#include <thrust/pair.h>` (Thrust) at scan.cu:12' "$out/lab05-thrust-pair-lookback/feedback.txt" \
    && expect yes "thrust::pair: not refused, graded on a GPU or needs one, flagged in gradebook.csv" \
    || expect no "thrust::pair: not refused, graded on a GPU or needs one, flagged in gradebook.csv"
grep -q "scan.cu:14 calls CUB's scan (\`cub::DeviceScan\`), which lab 04 does not allow" "$out/lab04-cub-device-scan/feedback.txt" \
    && expect yes "CUB's scan refused by the rubric, its line named" || expect no "CUB's scan refused by the rubric, its line named"

# The divergence feedback names the likely cause: the modulo mapping, in the tree(s) where it is.
grep -q '^      80% of the reference.s level; likely the modulo mapping in the reduction tree$' "$out/lab02-modulo-mapping/feedback.txt" \
    && grep -q '^      5[01]% of the reference.s level; likely the modulo mapping in both trees$' "$out/lab02-modulo-both/feedback.txt" \
    && grep -q '^      81% of the reference.s level; likely the modulo mapping in the distribution tree$' "$out/lab02-modulo-distribution/feedback.txt" \
    && grep -q '^ *likely the modulo mapping in both trees: a test like (t + 1) % (2 \* stride) == 0 spreads' "$out/lab02-modulo-both/feedback.txt" \
    && expect yes "divergence feedback names the modulo mapping and its trees" \
    || expect no "divergence feedback names the modulo mapping and its trees"

# Hidden datasets: no output a student reads (every results folder above, the
# batch's logs) names one by its seed or size; the instructor's copy
# (--show-hidden) does, which shows the check can fail.
python3 "$kit/grader/tests/check_hidden_withheld.py" "$kit/grader/rubric.json" "$out"/*/ "$out"/*.log >"$work/hidden.log" 2>&1 \
    && expect yes "no output names a hidden dataset: $(tail -n 1 "$work/hidden.log")" \
    || { head -n 20 "$work/hidden.log"; expect no "outputs name hidden datasets: $(tail -n 1 "$work/hidden.log")"; }
grep -q '^ *FAIL  hidden dataset 1 of lab 01$' "$out/lab01-single-buffer/feedback.txt" \
    && grep -q '^lab01-single-buffer (.*; 3 hidden datasets a lab, named by number until grades are published)$' "$out/lab01-single-buffer/feedback.txt" \
    && expect yes "a hidden dataset is named by number, the header says how many" \
    || expect no "a hidden dataset is named by number, the header says how many"
exit_code 0 "the instructor's copy (--show-hidden)" "$grade" "$kit/grader/tests/corpus/lab01-single-buffer" --lab 01 --work "$work" \
    --out "$work/instructor-copy" --show-hidden
python3 "$kit/grader/tests/check_hidden_withheld.py" "$kit/grader/rubric.json" "$work/instructor-copy" >"$work/hidden-shown.log" 2>&1
[ $? -eq 1 ] && grep -q 'FAIL  hidden walk4 n=3001 seed=' "$work/instructor-copy/feedback.txt" \
    && expect yes "the instructor's copy names them: $(tail -n 1 "$work/hidden-shown.log")" \
    || expect no "the instructor's copy names the hidden datasets"

python3 "$kit/grader/tests/check_bands.py" "$kit/grader/tests/bands.txt" "$out" | tee "$out/bands.log" | grep -v '^[0-9]* passed'
bands=$(tail -n 1 "$out/bands.log")
passed=$((passed + ${bands%% passed*}))
failed=$((failed + $(echo "$bands" | sed 's/.*, \([0-9]*\) failed.*/\1/')))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
