#!/usr/bin/env bash
# test-slurm.sh SCAN_GRADE KIT OUT [CORPUS_RESULTS]: `scan-grade --batch
# --slurm` on a one-node Slurm cluster started here (course/slurm/
# one-node-cluster.sh), on the emulator: four corpus submissions of lab 02
# (one lab each, so a task's cold start builds one lab) as a job array of two
# tasks, the merged gradebook compared with --batch's rows for
# them (grade-corpus's, in CORPUS_RESULTS, where it graded on the emulator;
# else a --batch run here), then a rerun that submits nothing, one that
# would submit only a student whose result went missing, and merge's report
# of a missing one. TAP on standard output (grader/tests/tap.sh); skipped
# where the cluster cannot start.
set -u
grade=$1 kit=$2 out=$3 corpus_results=${4:-}
rm -rf "$out" && mkdir -p "$out"
. "$kit/grader/tests/tap.sh"
students=(lab02-blockdim-start lab02-harris-indices lab02-missing-barrier lab02-modulo-mapping)
mkdir -p "$out/class"
for s in "${students[@]}"; do cp -r "$kit/grader/tests/corpus/$s" "$out/class/"; done

# Without Slurm: bad options, and the scripts --no-submit writes.
"$grade" --slurm --out "$out/r" >"$out/last.log" 2>&1
[ $? -eq 2 ] && grep -q 'goes with --batch' "$out/last.log" && expect yes "--slurm without --batch: exit 2, said why" \
    || { note "$out/last.log"; expect no "--slurm without --batch: exit 2, said why"; }
"$grade" --batch "$out/class" --slurm --chunk 0 >"$out/last.log" 2>&1
[ $? -eq 2 ] && expect yes "--chunk 0: exit 2" || { note "$out/last.log"; expect no "--chunk 0: exit 2"; }
"$grade" --batch "$out/class" --slurm --no-submit --chunk 3 --partition gpu --account course --time 00:20:00 \
    --sbatch-arg=--qos=short --out "$out/dry" --work "$out/dry-work" >"$out/last.log" 2>&1
[ $? -eq 0 ] && [ "$(wc -l <"$out/dry/slurm/todo.txt")" -eq 2 ] && grep -q 'sbatch --parsable --array=0-1' "$out/last.log" \
    && grep -q '^#SBATCH --gres=gpu:1$' "$out/dry/slurm/grade-array.sh" && grep -q '^#SBATCH --partition=gpu$' "$out/dry/slurm/grade-array.sh" \
    && grep -q '^#SBATCH --qos=short$' "$out/dry/slurm/merge.sh" && grep -q '^#SBATCH --time=00:20:00$' "$out/dry/slurm/grade-array.sh" \
    && expect yes "--no-submit: 4 submissions in 2 tasks of up to 3, the options in the scripts" \
    || { note "$out/last.log" "$out/dry/slurm/grade-array.sh"; expect no "--no-submit: 4 submissions in 2 tasks of up to 3, the options in the scripts"; }

cluster=$out/cluster
if ! setup=$("$kit/course/slurm/one-node-cluster.sh" start "$cluster" 2>"$out/cluster.log"); then
    note "$out/cluster.log"
    "$kit/course/slurm/one-node-cluster.sh" stop "$cluster" | note
    tap_skip "the checks on a cluster" "no Slurm cluster could start here: $(tail -n 1 "$out/cluster.log")"
    tap_end; exit
fi
eval "$setup"
trap '"$kit/course/slurm/one-node-cluster.sh" stop "$cluster" | note' EXIT
# The nodes' local scratch: TMPDIR reaches the jobs through sbatch's environment.
export TMPDIR=$out/scratch
mkdir -p "$TMPDIR"

wait_queue() {  # until the queue is empty; 20 minutes at most
    for _ in $(seq 600); do [ -z "$(squeue -h 2>/dev/null)" ] && return 0; sleep 2; done
    return 1
}
submit=("$grade" --batch "$out/class" --slurm --backend emu --chunk 2 --cpus-per-task 1 --out "$out/results" --work "$out/submit-work")
start=$SECONDS
"${submit[@]}" >"$out/submit.log" 2>&1
rc=$?
note "$out/submit.log"
[ $rc -eq 0 ] && grep -q '4 submissions to grade in 2 array tasks' "$out/submit.log" && grep -q '^submitted: array job' "$out/submit.log" \
    && expect yes "submitted: an array of 2 tasks and the merge job" || expect no "submitted: an array of 2 tasks and the merge job (exit $rc)"
wait_queue && expect yes "the jobs ended" || { squeue | note; expect no "the jobs ended within 20 minutes"; }
slurm_s=$((SECONDS - start))
note "$out/results/slurm/logs/merge.log" 2>/dev/null
grep -q '^4 submissions in the gradebook' "$out/results/slurm/logs/merge.log" 2>/dev/null \
    && expect yes "the merge job wrote the gradebook of 4" || { tail -n 20 "$out"/results/slurm/logs/*.log | note; expect no "the merge job wrote the gradebook of 4"; }
[ -z "$(ls -A "$TMPDIR")" ] && expect yes "each task removed its work folder from the local scratch" \
    || { ls "$TMPDIR" | note; expect no "a task left its work folder in the local scratch"; }

# --batch's rows for the same students: grade-corpus's where it graded them on
# the emulator, else a batch here.
reference=$out/batch.csv
if [ -n "$corpus_results" ] && [ -f "$corpus_results/gradebook.csv" ] \
    && grep -q '"backend": "emu"' "$corpus_results/${students[0]}/grade.json" 2>/dev/null; then
    cp "$corpus_results/gradebook.csv" "$reference"
    echo "# (the --batch rows are grade-corpus's)"
else
    start=$SECONDS
    "$grade" --batch "$out/class" --backend emu --out "$out/batch" --work "$out/batch-work" --no-colour >"$out/batch.log" 2>&1
    echo "# (--batch here: $((SECONDS - start)) s)"
    cp "$out/batch/gradebook.csv" "$reference"
fi
rows() { for s in "${students[@]}"; do grep "^$s," "$1" || echo "$s: no row"; done; }
rows "$reference" >"$out/rows-batch.txt"
rows "$out/results/gradebook.csv" >"$out/rows-slurm.txt"
diff "$out/rows-batch.txt" "$out/rows-slurm.txt" | note; [ "${PIPESTATUS[0]}" -eq 0 ] && expect yes "the Slurm gradebook's rows are --batch's" \
    || expect no "the Slurm gradebook's rows differ from --batch's"
head -n 1 "$reference" | cmp -s - <(head -n 1 "$out/results/gradebook.csv") && expect yes "the same gradebook columns" \
    || expect no "the gradebook columns differ"

# A rerun submits nothing; with a result gone, only that student.
"${submit[@]}" >"$out/rerun.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'nothing to submit' "$out/rerun.log" && grep -q '^4 submissions in the gradebook' "$out/rerun.log" \
    && expect yes "a rerun submits nothing and merges at once" || { note "$out/rerun.log"; expect no "a rerun submits nothing (exit $rc)"; }
# With a result gone, a rerun picks that student alone (written, not
# submitted: the array's grading is the one checked above).
rm "$out/results/lab02-blockdim-start/grade.json"
"${submit[@]}" --no-submit >"$out/rerun.log" 2>&1
[ $? -eq 0 ] && grep -q '^1 submissions to grade in 1 array tasks' "$out/rerun.log" && [ "$(cat "$out/results/slurm/todo.txt")" = lab02-blockdim-start ] \
    && expect yes "with one result gone, a rerun submits that student alone" || { note "$out/rerun.log"; expect no "a rerun submits the missing student alone"; }

# merge names what is missing: the student the rerun above would submit (its
# task's log) and one whose folder is gone.
rm -r "$out/results/lab02-harris-indices"
"$grade" merge "$out/results" --batch "$out/class" >"$out/merge.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^2 submissions missing' "$out/merge.log" && grep -q 'lab02-harris-indices: not in this results folder' "$out/merge.log" \
    && grep -q 'lab02-blockdim-start: Slurm task 0, its log .*/task-0.log' "$out/merge.log" \
    && expect yes "merge: exit 1 and the two missing students named, one with its task's log" \
    || { note "$out/merge.log"; expect no "merge names the missing students (exit $rc)"; }
"$grade" merge "$out/nowhere" >"$out/merge.log" 2>&1
[ $? -eq 2 ] && expect yes "merge of a missing folder: exit 2" || expect no "merge of a missing folder: exit 2"

echo "# the array of 2 tasks (4 submissions, $(nproc) CPUs) took $slurm_s s from submission to gradebook"
tap_end
