#!/usr/bin/env bash
# test-gradescope.sh KIT SCRATCH: makes the Gradescope bundle
# (course/gradescope/make-bundle), unzips it into a fake /autograder under
# SCRATCH, runs its setup.sh as Gradescope does (as root: it installs packages
# with apt; skipped otherwise), and runs its run_autograder on a
# corpus submission, on broken ones and with a failing grader: each leaves a
# results.json in Gradescope's format (gradescope_schema.py). The bundle is an
# assignment of lab 02 (make-bundle --lab 02), as a course gives one lab at a
# time. About 2 minutes on 2 cores where ccache already holds the kit's
# objects (as in CI); most of it setup.sh building the grader and the
# reference's lab 02. TAP on standard output (grader/tests/tap.sh).
set -u
kit=$(cd "$1" && pwd) scratch=$2
. "$kit/grader/tests/tap.sh"
if [ "$(id -u)" -ne 0 ]; then
    tap_skip_all "needs root: the bundle's setup.sh installs the kit's packages with apt-get, as Gradescope runs it"
fi
rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
schema=$kit/course/tests/gradescope_schema.py
check() {  # check DESCRIPTION COMMAND...: passes when COMMAND exits 0
    local what=$1; shift
    if "$@" >"$scratch/check.log" 2>&1; then expect yes "$what"; else note "$scratch/check.log"; expect no "$what"; fi
}
json() {  # json FILE EXPRESSION: EXPRESSION of the parsed FILE, `d`, printed
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

check "the schema checker refuses every broken example" python3 "$schema" --self-test

# make-bundle: a bad rubric path is refused, naming it; an instructor's rubric goes in.
bundle=$kit/course/gradescope/make-bundle
"$bundle" "$scratch/bad.zip" --rubric "$scratch/no-such-rubric.json" >"$scratch/bad.log" 2>&1
[ $? -eq 2 ] && grep -q 'no-such-rubric.json: no such file' "$scratch/bad.log" && [ ! -e "$scratch/bad.zip" ] \
    && expect yes "make-bundle refuses a missing rubric: $(cat "$scratch/bad.log")" \
    || { note "$scratch/bad.log"; expect no "make-bundle refuses a missing rubric"; }
echo 'not json' >"$scratch/not-json.json"
"$bundle" "$scratch/bad.zip" --rubric "$scratch/not-json.json" >"$scratch/bad.log" 2>&1
[ $? -eq 2 ] && grep -q 'not-json.json: not a JSON object' "$scratch/bad.log" \
    && expect yes "make-bundle refuses a rubric that is not JSON" || { note "$scratch/bad.log"; expect no "make-bundle refuses a rubric that is not JSON"; }
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["hidden_seed"] = 4242; json.dump(r, open(sys.argv[2], "w"))' \
    "$kit/grader/rubric.json" "$scratch/my-rubric.json"
"$bundle" "$scratch/bad.zip" --lab 7 >"$scratch/bad.log" 2>&1
[ $? -eq 2 ] && grep -q -- '--lab 7: no such lab (the kit.s labs: 01-kogge-stone' "$scratch/bad.log" \
    && expect yes "make-bundle refuses an unknown lab, listing the labs" || { note "$scratch/bad.log"; expect no "make-bundle refuses --lab 7"; }
check "make-bundle with --rubric and --lab 02" "$bundle" "$scratch/autograder.zip" --rubric "$scratch/my-rubric.json" --lab 02
check "the bundle's assignment-labs names lab 02 alone" \
    test "$(unzip -p "$scratch/autograder.zip" assignment-labs)" = 02
unzip -Z1 "$scratch/autograder.zip" >"$scratch/bundle.txt"
missing=
for f in setup.sh run_autograder gradescope_schema.py schema_cli.py scan-labs meson.build reference/02-brent-kung/scan.cu grader/cli/main.cpp; do
    grep -qx "$f" "$scratch/bundle.txt" || missing+=" $f"
done
[ -z "$missing" ] && expect yes "the bundle holds setup.sh and run_autograder at its top, the kit, its reference and grader" \
    || expect no "missing from the bundle:$missing"
grep -q '^grader/tests/corpus/' "$scratch/bundle.txt" && expect no "the bundle leaves out grader/tests/corpus" \
    || expect yes "the bundle leaves out grader/tests/corpus"
check "the bundle's grader/rubric.json is the --rubric file" \
    cmp <(unzip -p "$scratch/autograder.zip" grader/rubric.json) "$scratch/my-rubric.json"

# A fake /autograder. Gradescope unzips into source/ and runs setup.sh there
# once; some unzips drop file modes, so these are dropped here.
ag=$scratch/autograder
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
unzip -q "$scratch/autograder.zip" -d "$ag/source"
find "$ag/source" -type f -exec chmod a-x {} +
echo "# setup.sh: installing packages, building the grader, grading the reference (minutes) ..."
start=$SECONDS
(cd "$ag/source" && AUTOGRADER_ROOT=$ag bash ./setup.sh) >"$scratch/setup.log" 2>&1
status=$?
grep '^setup.sh: ' "$scratch/setup.log" | note
[ $status -eq 0 ] && expect yes "setup.sh: exit 0 in $((SECONDS - start)) s" \
    || { tail -n 40 "$scratch/setup.log" | note; expect no "setup.sh: exit $status"; }
grep -q '^setup.sh: the reference scored 90/90: ready; set the assignment.s points to 90$' "$scratch/setup.log" \
    && expect yes "setup.sh graded the reference's lab 02 alone: 90 points" || expect no "setup.sh: the lab 02 assignment's 90 points"
cp "$ag/source/run_autograder" "$ag/run_autograder" && chmod +x "$ag/run_autograder"

grade() {  # grade NAME: run_autograder on what submission/ holds; its results.json kept as NAME.json
    rm -rf "$ag/results" && mkdir -p "$ag/results"
    (cd "$ag" && AUTOGRADER_ROOT=$ag ./run_autograder) >"$scratch/$1.log" 2>&1
    local status=$?
    [ $status -eq 0 ] && expect yes "$1: run_autograder exit 0" || { tail -n 30 "$scratch/$1.log" | note; expect no "$1: run_autograder exit $status"; }
    cp "$ag/results/results.json" "$scratch/$1.json" 2>/dev/null
    check "$1: results.json in Gradescope's format" python3 "$schema" "$ag/results/results.json"
}

# (a) A real submission: lab 02's modulo mapping, scored in the bands of
# its expect.txt, and exactly as the bundle's grader scores it itself.
entry=lab02-modulo-mapping
cp -R "$kit/grader/tests/corpus/$entry/." "$ag/submission/"
grade "$entry"
mkdir -p "$scratch/bands/$entry" && cp "$scratch/$entry.json" "$scratch/bands/$entry/results.json"
check "$entry: in the bands of its expect.txt" python3 "$kit/grader/tests/check_corpus.py" "$scratch/bands" \
    --expect "$kit/grader/tests/corpus/$entry/expect.txt" "$entry" --bands-only
note "$scratch/check.log"
for f in feedback.txt junit.xml summary.md; do
    [ -s "$ag/results/$f" ] && expect yes "$entry: results/ holds $f too" || expect no "$entry: results/ holds $f too"
done
lab02() { json "$1" 'round(sum(t["score"] for t in d["tests"] if t["tags"][0].startswith("02")), 6)'; }
"$ag/source/build/grader/scan-grade" "$ag/submission" --lab 02 --backend emu --work "$ag/work" --out "$scratch/direct" \
    --no-colour >"$scratch/direct.log" 2>&1
got=$(lab02 "$scratch/$entry.json") want=$(lab02 "$scratch/direct/results.json")
[ -n "$got" ] && [ "$got" = "$want" ] && [ "$(json "$scratch/$entry.json" 'abs(d["score"] - '"$got"') < 1e-6')" = True ] \
    && [ "$(json "$scratch/$entry.json" 'all(t["tags"][0].startswith("02") for t in d["tests"])')" = True ] \
    && expect yes "$entry: lab 02 scores $got, as scan-grade gives it, and is the whole score (no other lab's test)" \
    || expect no "$entry: lab 02 scores '$got', scan-grade gives '$want'"

zero_with() {  # zero_with NAME TEXT: NAME.json scores 0 and its output says TEXT
    if [ "$(json "$scratch/$1.json" 'd["score"] == 0')" = True ]; then
        local output
        output=$(json "$scratch/$1.json" 'd["output"]')
        case "$output" in
            *"$2"*) expect yes "$1: score 0, output says \"$2\"" ;;
            *) echo "$output" | note; expect no "$1: the output says \"$2\"" ;;
        esac
    else
        expect no "$1: score 0 (got $(json "$scratch/$1.json" 'd.get("score")' 2>&1))"
    fi
}

# (b) Broken submissions: an empty folder, and an upload Gradescope could not unzip.
rm -rf "$ag/submission" && mkdir "$ag/submission"
grade empty
zero_with empty "submission is an empty folder: it holds no files"
printf 'PK\003\004 truncated' >"$ag/submission/labs.zip"
grade corrupt-zip
zero_with corrupt-zip "no labs/02-brent-kung/scan.cu"

# (c) The grader fails: a bad rubric (exit 2), then a crash (a signal).
rubric=$ag/source/grader/rubric.json
cp "$rubric" "$scratch/rubric.saved"
echo '{"weights": {"safety": "lots"}}' >"$rubric"
grade bad-rubric
zero_with bad-rubric "refused its command line or its rubric"
zero_with bad-rubric "weights.safety has the wrong type"
cp "$scratch/rubric.saved" "$rubric"
grader=$ag/source/build/grader/scan-grade
mv "$grader" "$grader.saved"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$grader" && chmod +x "$grader"
grade crash
zero_with crash "the grader crashed (signal 11)"
mv "$grader.saved" "$grader"

tap_end
