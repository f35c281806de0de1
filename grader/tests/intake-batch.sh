#!/usr/bin/env bash
# intake-batch.sh SCAN_GRADE KIT OUT WORK: a --batch folder holding every kind
# of upload students make (archives of any format and case, loose and
# misnamed lab files, two uploads of one student, an empty archive, a
# repository with its build folder, one too large, a UTF-8 byte-order mark and
# UTF-16, a header of their own, a stray file), each lab 02's reference,
# graded on the emulator (lab 02 only) in WORK, grade-corpus.sh's work folder
# where it ran first: every entry is graded or refused with its message, and
# the rubric's intake switches do what they say. TAP on standard output (tap.sh).
set -u
grade=$1 kit=$2 out=$3 work=$4
rm -rf "$out" && mkdir -p "$out"
. "$kit/grader/tests/tap.sh"
ref=$kit/reference/02-brent-kung/scan.cu
batch=$out/batch mk=$out/make
mkdir -p "$batch" "$mk"
zipped() {  # zipped ARCHIVE PATH=FILE...: a zip of FILEs, each stored as PATH
    python3 - "$@" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for spec in sys.argv[2:]:
        path, source = spec.split("=", 1)
        z.write(source, path)
PY
}
mkdir -p "$mk/std/labs/02-brent-kung" && cp "$ref" "$mk/std/labs/02-brent-kung/scan.cu"
zipped "$batch/uma.ZIP" "labs/02-brent-kung/scan.cu=$ref"
tar -C "$mk/std" -cf "$batch/walt.tar" labs
zipped "$batch/alice.zip" "labs/02-brent-kung/scan.cu=$ref"
tar -C "$mk/std" -czf "$batch/alice.tar.gz" labs
zipped "$batch/bob-Scan.zip" "labs/02-brent-kung/Scan.cu=$ref"
zipped "$batch/carol-copy.zip" "labs/02-brent-kung/scan (1).cu=$ref"
mkdir -p "$batch/dan-bare" && cp "$ref" "$batch/dan-bare/scan.cu"
zipped "$batch/erin-lab02.zip" "lab02/scan.cu=$ref"
zipped "$batch/fay-two.zip" "labs/02-brent-kung/Scan.cu=$ref" "labs/02-brent-kung/scan (1).cu=$ref"
cp "$ref" "$batch/gus.cu"
{ printf '\xEF\xBB\xBF'; cat "$ref"; } >"$batch/hal-bom.cu"
iconv -f UTF-8 -t UTF-16 "$ref" >"$batch/ivy-utf16.cu"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").close()' "$batch/jon-empty.zip"
# A repository with its build folder (sparse files: 300 MiB read by nothing).
mkdir -p "$batch/kim-repo/labs/02-brent-kung" "$batch/kim-repo/build" && cp "$ref" "$batch/kim-repo/labs/02-brent-kung/scan.cu"
truncate -s 200M "$batch/kim-repo/build/big.o" && truncate -s 100M "$batch/kim-repo/build/lab02-tests"
mkdir -p "$batch/lee-data/labs/02-brent-kung" "$batch/lee-data/data" && cp "$ref" "$batch/lee-data/labs/02-brent-kung/scan.cu"
truncate -s 70M "$batch/lee-data/data/input.raw"
sed 's|#include "scan.hpp"|#include "scan.hpp"\n#include "helpers.cuh"|' "$ref" >"$mk/with-header.cu"
printf '#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n' >"$mk/helpers.cuh"
zipped "$batch/max-header.zip" "labs/02-brent-kung/scan.cu=$mk/with-header.cu" "labs/02-brent-kung/helpers.cuh=$mk/helpers.cuh"
echo "my notes" >"$batch/notes.pdf"
touch "$batch/.DS_Store"

run() {  # run NAME [OPTIONS...]: grades the batch into $out/NAME; exit code in $rc
    local name=$1; shift
    "$grade" --batch "$batch" --lab 02 --backend emu --work "$work" --out "$out/$name" "$@" >"$out/$name.log" 2>&1
    rc=$?
}
flag() { python3 -c 'import csv, sys; print({r["student"]: r[sys.argv[2]] for r in csv.DictReader(open(sys.argv[1]))}.get(sys.argv[3], "(no row)"))' "$@"; }
shows() { grep -qF -- "$2" "$1" && expect yes "$3" || { echo "# not found in $1: $2"; expect no "$3"; }; }

run default
log=$out/default.log book=$out/default/gradebook.csv
[ "$rc" -eq 0 ] && expect yes "the batch: exit 0" || { note "$log"; expect no "the batch: exit $rc"; }
shows "$log" "17 entries: 14 graded (0 taken from an earlier run), 3 refused (1 empty, 1 not a submission, 1 too large)" \
    "the summary counts every entry: 14 graded, 3 refused, by kind"
[ "$(($(wc -l <"$book") - 1))" -eq 17 ] && expect yes "gradebook.csv: a row per entry (17)" || expect no "gradebook.csv: $(wc -l <"$book") lines"
for student in uma walt alice.zip alice.tar.gz bob-Scan carol-copy dan-bare erin-lab02 gus hal-bom kim-repo max-header; do
    [ "$(flag "$book" 02-brent-kung "$student")" = 90 ] && expect yes "$student: lab 02 graded, 90/90" \
        || expect no "$student: lab 02 scored $(flag "$book" 02-brent-kung "$student")"
done
shows "$log" "scan-grade: warning: 2 uploads for alice: alice.tar.gz, alice.zip; each graded, as alice.tar.gz, alice.zip" \
    "two uploads of alice: both graded apart, a warning naming both"
shows "$log" "scan-grade: hidden entries left out: .DS_Store" "a hidden file is named, left out"
shows "$log" "scan-grade: not graded (not a submission), 0 points: notes.pdf is not a folder, an archive (zip, tar, tar.gz, 7z, rar, ...) or a .cu file" \
    "a stray file: refused with the reason, on stderr"
shows "$log" "scan-grade: not graded (empty), 0 points: jon-empty.zip is empty: it holds no files" "an empty zip: empty, not 'not submitted'"
shows "$log" "the largest folders: data/ 70.0 MiB, labs/02-brent-kung/" "too large: the message names the largest folder"
[ "$(flag "$book" flags lee-data)" = "not graded: too large" ] && expect yes "too large: flagged in gradebook.csv" \
    || expect no "too large: flags '$(flag "$book" flags lee-data)'"
shows "$out/default/kim-repo/feedback.txt" "left out unread: build/ (2 entries: a build, version-control or cache folder)" \
    "a repository with its build folder: graded, build/ left out and named"
for pair in "bob-Scan=labs/02-brent-kung/Scan.cu" "carol-copy=labs/02-brent-kung/scan (1).cu" "dan-bare=scan.cu" \
            "erin-lab02=lab02/scan.cu" "gus=gus.cu"; do
    student=${pair%%=*} file=${pair#*=}
    [ "$(flag "$book" flags "$student")" = "02-brent-kung: taken from $file (misnamed)" ] \
        && shows "$out/default/$student/feedback.txt" "02-brent-kung: $file taken as lab 02's scan.cu (it defines brent_kung_scan); name it labs/02-brent-kung/scan.cu" \
            "$student: $file graded by its function, noted in the feedback and flagged" \
        || expect no "$student: flags '$(flag "$book" flags "$student")'"
done
# The class at a glance (class_report.hpp): the flagged entries, each linked to its report.html.
flagged() { python3 -c 'import json, sys; print("; ".join(next((f["why"] for f in json.load(open(sys.argv[1]))["flagged"] if f["student"] == sys.argv[2]), ["(not flagged)"])))' "$@"; }
[ "$(flagged "$out/default/class.json" alice.zip)" = "one of 2 uploads of one student, each graded: alice.tar.gz, alice.zip" ] \
    && expect yes "class.json: alice's two uploads flagged" || expect no "class.json: alice.zip '$(flagged "$out/default/class.json" alice.zip)'"
[ "$(flagged "$out/default/class.json" bob-Scan)" = "02-brent-kung: taken from labs/02-brent-kung/Scan.cu (misnamed)" ] \
    && expect yes "class.json: the misnamed file flagged" || expect no "class.json: bob-Scan '$(flagged "$out/default/class.json" bob-Scan)'"
shows "$out/default/class.html" '<a href="notes.pdf/report.html">notes.pdf</a>' "class.html: the refused upload linked to its report.html"
[ -f "$out/default/notes.pdf/report.html" ] && expect yes "class.html's link leads to a file" || expect no "no notes.pdf/report.html"
shows "$out/default/fay-two/feedback.txt" "2 files define brent_kung_scan (labs/02-brent-kung/Scan.cu, labs/02-brent-kung/scan (1).cu): neither was graded; keep one, named labs/02-brent-kung/scan.cu" \
    "two candidates: both named, neither guessed"
shows "$out/default/hal-bom/feedback.txt" "hal-bom.cu began with a UTF-8 byte-order mark, which was removed" "a byte-order mark: removed, graded"
shows "$out/default/ivy-utf16/feedback.txt" "Not built: ivy-utf16.cu is UTF-16 text, which nvcc and g++ do not read: save it as UTF-8" \
    "UTF-16: a message saying so, not a compiler cascade"
# Run again: every entry the same, nothing graded twice.
cp "$book" "$out/default-first.csv"
run default
shows "$out/default.log" "17 entries: 14 graded (14 taken from an earlier run), 3 refused" "a rerun takes the 14 from their records"
cmp -s "$book" "$out/default-first.csv" && expect yes "a rerun writes the same gradebook" || expect no "a rerun changed the gradebook"

# The rubric's switches.
rubric() {  # rubric NAME JSON: the kit's rubric with "intake" set to JSON
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["intake"] = json.loads(sys.argv[3]); json.dump(r, open(sys.argv[2], "w"))' \
        "$kit/grader/rubric.json" "$out/$1.json" "$2"
}
rubric refuse-duplicates '{"duplicates": "refuse"}'
run refuse-duplicates --rubric "$out/refuse-duplicates.json"
[ "$(flag "$out/refuse-duplicates/gradebook.csv" flags alice.zip)" = "not graded: duplicate upload" ] \
    && [ "$(flag "$out/refuse-duplicates/gradebook.csv" flags alice.tar.gz)" = "not graded: duplicate upload" ] \
    && shows "$out/refuse-duplicates.log" "2 uploads for alice (alice.tar.gz, alice.zip): the rubric's intake.duplicates is \"refuse\", so none is graded; keep one" \
        "intake.duplicates refuse: both refused, with a row each and the reason" \
    || expect no "intake.duplicates refuse: alice.zip flags '$(flag "$out/refuse-duplicates/gradebook.csv" flags alice.zip)'"
rubric strict '{"misnamed": "refuse"}'
run strict --rubric "$out/strict.json"
[ "$(flag "$out/strict/gradebook.csv" 02-brent-kung bob-Scan)" = 0 ] \
    && shows "$out/strict/bob-Scan/feedback.txt" "labs/02-brent-kung/Scan.cu defines brent_kung_scan but is not named labs/02-brent-kung/scan.cu: the rubric grades only the accepted names, so rename it" \
        "intake.misnamed refuse: not graded, the file it would have taken named" \
    || expect no "intake.misnamed refuse: bob-Scan scored $(flag "$out/strict/gradebook.csv" 02-brent-kung bob-Scan)"
rubric no-headers '{"headers": []}'
run no-headers --rubric "$out/no-headers.json"
[ "$(flag "$out/no-headers/gradebook.csv" 02-brent-kung max-header)" = 0 ] \
    && shows "$out/no-headers/max-header/feedback.txt" "labs/02-brent-kung/scan.cu includes \"helpers.cuh\", a file of yours: only scan.cu is graded (the rubric takes no headers), so put what helpers.cuh holds into scan.cu" \
        "intake.headers []: the header named, only scan.cu graded" \
    || expect no "intake.headers []: max-header scored $(flag "$out/no-headers/gradebook.csv" 02-brent-kung max-header)"
run fail-under --fail-under 50
[ "$rc" -eq 3 ] && shows "$out/fail-under.log" "scan-grade: exit 3: 5 submission(s) under --fail-under" "--fail-under 50: exit 3, the five under it named" \
    || expect no "--fail-under 50: exit $rc, wanted 3"
tap_end
