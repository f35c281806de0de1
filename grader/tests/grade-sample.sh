#!/usr/bin/env bash
# grade-sample.sh SCAN_GRADE KIT OUT [WORK]: the quick test run's taste of
# the grader: three corpus entries graded as a batch on the machine's backends
# (a race, a modulo-mapping Brent-Kung's divergence, inline PTX the emulator
# cannot run), each checked against its expect.txt. grade-corpus.sh grades
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
"$grade" --batch "$out/batch" --lab 01 --lab 02 --lab 05 --jobs 1 --work "$work" --out "$out" "${again[@]}" >"$out/batch.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && expect yes "three entries graded as a batch: exit 0" || { note "$out/batch.log"; expect no "the batch: exit $rc"; }
for entry in "${entries[@]}"; do
    tap_take < <(python3 "$kit/grader/tests/check_corpus.py" "$out" --expect "$kit/grader/tests/corpus/$entry/expect.txt" "$entry")
done
tap_end
