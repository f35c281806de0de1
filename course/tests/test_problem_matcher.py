#!/usr/bin/env python3
"""test_problem_matcher.py SCAN_GRADE KIT WORK: the VS Code problem matcher
of the student repository (.vscode/tasks.json, from
course/student/vscode-tasks.json) on real output.

`scan-grade export` writes the repository into WORK/student; the matcher's
regexp is taken from its tasks.json (one for every task, on ./scan-labs test
and ./scan-labs check, file relative to the workspace folder). Corpus entries
(a race, a barrier, memory errors, a leak) are then built over the stubs and
their lab's suite program run on a few datasets (as `meson test` runs it, with
a results file) and with --check (./scan-labs check's table), and the entries
graded as a batch (feedback.txt). Every finding the results file holds, as
data, must be matched: the lab folder's file, its first line (none for the
harness's leak), error or warning (a leak), and a note at its launch; each
problem once in the suite's output, at most twice in feedback.txt (its
correctness and safety tests); none in a hidden dataset's test. VS Code's schema: the tasks appendix of its documentation
(ProblemMatcher, ProblemPattern); "note" is read as info and a pattern that
captured no line as a problem of the whole file (its problemMatcher.ts).
TAP on standard output (grader/tests/tap.py); exit 1 on any failure."""
import json
import os
import re
import shutil
import subprocess
import sys

grade, kit, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(kit, "grader", "tests"))
from tap import expect, finish, note  # noqa: E402
import proc  # noqa: E402
from proc import tail  # noqa: E402

# entry -> (lab, the datasets its suite runs here: class, distribution, n, seed)
ENTRIES = {
    "lab02-missing-barrier": ("02-brent-kung", [("tiny", "walk4", 33, 206), ("section", "walk4", 2047, 213)]),
    "lab01-barrier-in-loop": ("01-kogge-stone", [("tiny", "walk1", 1, 102), ("tiny", "walk4", 33, 106)]),
    "lab01-store-one-past": ("01-kogge-stone", [("tiny", "walk1", 1, 102), ("tiny", "walk4", 33, 106)]),
    "lab04-leak": ("04-hierarchical", [("two-level", "walk4", 2049, 421), ("two-level", "walk4", 7919, 423)]),
}
KINDS = ("race", "barrier", "memory", "leak")


def run(cmd, cwd=None, log=None):
    """(exit status, output); the output also goes to WORK/LOG when given."""
    return proc.run(cmd, cwd, os.path.join(work, log) if log else None)


def matched(regexp, text):
    """What the matcher reads in `text`: (file, line or None, severity, message, column or None), a tuple a line."""
    out = []
    number = lambda g: int(g) if g else None
    for line in text.splitlines():
        m = regexp.search(line)
        if m:
            out.append((m.group(pattern["file"]), number(m.group(pattern["line"])), m.group(pattern["severity"]),
                        m.group(pattern["message"]), number(m.group(pattern["column"]))))
    return out


def place(at):
    """("scan.cu", 24) of "scan.cu:24", or None: what finding_place.hpp calls a place."""
    m = re.fullmatch(r"([^/\s:]+):([1-9][0-9]*)", at or "")
    return (m.group(1), int(m.group(2))) if m else None


def wanted(lab, finding):
    """Where the matcher must take the student for a finding record of a
    results file: its first place (none: the lab's scan.cu, no line), error or
    warning; and the note at its launch, where that is another place."""
    places = [p for p in (place(at) for at in finding["lines"] + [finding.get("launch", "")]) if p]
    severity = "warning" if finding["kind"] == "leak" else "error"
    head = ("labs/%s/%s" % (lab, places[0][0]), places[0][1], severity) if places else ("labs/%s/scan.cu" % lab, None, severity)
    launch = place(finding.get("launch", ""))
    notes = [("labs/%s/%s" % (lab, launch[0]), launch[1], "note")] if launch and launch not in places[:1] else []
    return head, notes


for sub in ("student", "batch", "graded"):
    shutil.rmtree(os.path.join(work, sub), ignore_errors=True)
os.makedirs(work, exist_ok=True)
student = os.path.join(work, "student")
rc, out = run([grade, "export", "--kit", kit, student])
if not expect(rc == 0, "scan-grade export: exit %d" % rc, out):
    finish()

# The tasks and their matcher.
with open(os.path.join(student, ".vscode", "tasks.json")) as f:
    tasks = json.load(f)
expect(tasks.get("version") == "2.0.0", "tasks.json is of version 2.0.0")
commands = {t.get("command"): t for t in tasks.get("tasks", [])}
expect(sorted(commands) == ["./scan-labs check", "./scan-labs test"], "a task runs ./scan-labs test, one ./scan-labs check",
       sorted(commands))
matchers = [t.get("problemMatcher") for t in tasks.get("tasks", [])]
expect(matchers and all(m == matchers[0] for m in matchers), "every task has the same problem matcher")
matcher = matchers[0] if matchers else {}
pattern = matcher.get("pattern", {})
expect(matcher.get("fileLocation") == ["relative", "${workspaceFolder}"]
       and all(t.get("options", {}).get("cwd") == "${workspaceFolder}" for t in tasks.get("tasks", [])),
       "its files are relative to the workspace folder, where the tasks run")
expect(sorted(pattern) == ["column", "file", "line", "message", "regexp", "severity"], "its pattern names the file, line, "
       "column, severity and message groups", pattern)
# The pattern is JavaScript's RegExp; it uses nothing that Python's re reads otherwise.
expect(not re.search(r"\(\?<|\\[pPkuxc]|\(\?[a-z]", pattern.get("regexp", "")), "the regexp means the same to Python's re")
regexp = re.compile(pattern.get("regexp", "$^"))
# The form without a line is a problem of the whole file; anything else is not read.
expect(matched(regexp, "  labs/04-hierarchical/scan.cu: warning: 8 bytes leaked\n")
       == [("labs/04-hierarchical/scan.cu", None, "warning", "8 bytes leaked", None)]
       and matched(regexp, "labs/02-brent-kung/scan.cu:25:13: error: a race\n")
       == [("labs/02-brent-kung/scan.cu", 25, "error", "a race", 13)]
       and not matched(regexp, "  FAIL  f on tiny dataset walk1 n=1 seed=102: data race on shared memory at scan.cu:25\n"
                               "f on tiny: ERROR: temporaries_freed: device memory leaked: 8 bytes\n"
                               "../labs/01-kogge-stone/scan.cu:12:5: warning: unused variable 'x'\n"),
       "it reads the file-level form and a column, and not the suites' other lines (nor the compiler's, named from "
       "the build folder)")

# The suites' output and ./scan-labs check's, on the emulator.
build = os.path.join(student, "build")
rc, out = run(["meson", "setup", build, "-Dscan_backend=emu"], cwd=student, log="setup.log")
if not expect(rc == 0, "meson setup build -Dscan_backend=emu in the export: exit %d" % rc, tail(out)):
    finish()
stubs = {}
columns_seen = set()  # (file, line, column) of the findings that have one
suite_heads = {}  # entry -> the (file, line, severity) its suite's findings must be matched at
seen_kinds = set()
try:
    for entry, (lab, datasets) in ENTRIES.items():
        target = os.path.join(student, "labs", lab, "scan.cu")
        stubs.setdefault(target, open(target, "rb").read())
        # copyfile, not copy2: the file must look newer than the build, or Ninja keeps the stub's objects.
        shutil.copyfile(os.path.join(kit, "grader", "tests", "corpus", entry, "labs", lab, "scan.cu"), target)
        program = "labs/lab%s-tests" % lab[:2]
        rc, out = run(["ninja", "-C", build, program], log="ninja-%s.log" % entry)
        if not expect(rc == 0, "%s: ninja %s: exit %d" % (entry, program, rc), tail(out)):
            continue
        manifest = os.path.join(work, entry + ".manifest")
        with open(manifest, "w") as f:
            f.write("".join("%s %s %d %d\n" % d for d in datasets))
        results = os.path.join(work, entry + ".results.json")
        rc, out = run([os.path.join(build, program), "--manifest", manifest, "--results-file", results], cwd=student,
                      log="suite-%s.log" % entry)
        with open(results) as f:
            data = json.load(f)
        found = [f for d in data["datasets"] for f in d["findings"]]
        kinds = sorted({f["kind"] for f in found})
        seen_kinds.update(kinds)
        got = matched(regexp, out)
        heads = {g[:3] for g in got if g[2] != "note"}
        notes = {g[:3] for g in got if g[2] == "note"}
        want_heads, want_notes = set(), set()
        for f in found:
            head, launch = wanted(lab, f)
            want_heads.add(head)
            want_notes.update(launch)
        suite_heads[entry] = want_heads
        # The column the emulator read (libdw), on the finding's first line.
        with_column = {(("labs/%s/%s" % (lab, place(f["lines"][0])[0])), place(f["lines"][0])[1], f["columns"][0])
                       for f in found if f.get("columns") and f["columns"][0] and place(f["lines"][0])}
        columns_seen.update(with_column)
        expect(with_column <= {(g[0], g[1], g[4]) for g in got if g[2] != "note"},
               "%s: the suite's lines carry the columns of its findings: %s" % (entry, sorted(with_column)),
               "matched: %s" % sorted({(g[0], g[1], g[4]) for g in got}, key=str))
        expect(rc == 1 and found and want_heads <= heads and want_notes <= notes,
               "%s: its suite fails with %s findings, each matched at its file, line and severity, a note at its "
               "launch: %s" % (entry, "/".join(kinds), sorted(want_heads, key=str)),
               "matched: %s\n--- output:\n%s" % (sorted({g[:3] for g in got}, key=str), tail(out, 40)))
        # Each problem once: as many errors and warnings as the suite's distinct problems of findings and leaks.
        problems = {p["key"] for d in data["datasets"] for p in d["problems"]
                    if p["rule"] in ("backend_checks_clean", "temporaries_freed")}
        shown = [g for g in got if g[2] != "note"]
        expect(len(shown) == len(problems), "%s: each of its %d problems shown once (%d datasets with findings)"
               % (entry, len(problems), sum(1 for d in data["datasets"] if d["findings"])),
               "\n".join(map(str, shown)))
        # ./scan-labs check: the first finding of each kind in the safety row.
        rc, out = run([os.path.join(build, program), "--check", "--manifest", manifest], cwd=student,
                      log="check-%s.log" % entry)
        got = {g[:3] for g in matched(regexp, out) if g[2] != "note"}
        expect(rc == 1 and len(got) == len(kinds) and got <= want_heads,
               "%s: ./scan-labs check names a finding of each of its %d kinds at its line" % (entry, len(kinds)),
               "matched: %s\n--- output:\n%s" % (sorted(got, key=str), tail(out, 40)))
finally:
    for target, text in stubs.items():  # the stubs back
        with open(target, "wb") as f:
            f.write(text)
expect(set(KINDS) <= seen_kinds, "the entries show every kind of finding: %s" % " ".join(sorted(seen_kinds)))
expect(columns_seen, "some findings name a column: %s" % sorted(columns_seen))

# The grader's feedback.txt, the same entries graded as a batch on the emulator.
batch = os.path.join(work, "batch")
for entry in ENTRIES:
    shutil.copytree(os.path.join(kit, "grader", "tests", "corpus", entry), os.path.join(batch, entry))
labs = sorted({lab[:2] for lab, _ in ENTRIES.values()})
rc, out = run([grade, "--batch", batch, "--backend", "emu", "--jobs", "1", "--no-cache", "--work",
               os.path.join(work, "grade-work"), "--out", os.path.join(work, "graded")] +
              [a for lab in labs for a in ("--lab", lab)], log="grade.log")
expect(rc == 0, "the entries graded as a batch: exit %d" % rc, tail(out))
hidden_failed = 0
for entry, (lab, _) in ENTRIES.items():
    path = os.path.join(work, "graded", entry, "feedback.txt")
    text = open(path).read() if os.path.isfile(path) else ""
    got = matched(regexp, text)
    heads = {g[:3] for g in got if g[2] != "note"}
    expect(entry in suite_heads and suite_heads[entry] <= heads,
           "%s: feedback.txt takes the student to the suite's findings: %s" % (entry, sorted(suite_heads.get(entry, []), key=str)),
           "matched: %s" % sorted(heads, key=str))
    # Each problem in full once over the datasets (the correctness tests), once more in the safety test's list.
    lines = [g for g in got if g[2] != "note"]
    repeated = {g for g in lines if lines.count(g) > 2}
    expect(lines and not repeated, "%s: %d findings in feedback.txt, none shown in full more than twice"
           % (entry, len(lines)), "\n".join(map(str, repeated)))
    # A hidden dataset's test ("  [failed] lab01 correctness: hidden: 0/30 (hidden)"): its failures named, no finding.
    tests = re.split(r"^  \[[a-z ]+\] ", text, flags=re.M)
    hidden = [t for t in tests if re.match(r"\S+ correctness: hidden: .*\(hidden\)$", t.split("\n")[0])]
    hidden_failed += sum(t.count("FAIL  hidden dataset ") for t in hidden)
    expect(hidden and not any(matched(regexp, t) for t in hidden), "%s: its hidden datasets' test shows no finding" % entry,
           "\n".join(hidden))
expect(hidden_failed > 0, "and those of %d hidden datasets failed: withheld, not missing" % hidden_failed)
note("a line each, as the matcher reads them (feedback.txt):")
for entry in ENTRIES:
    path = os.path.join(work, "graded", entry, "feedback.txt")
    shown = set()
    for line in (open(path).read().splitlines() if os.path.isfile(path) else []):
        g = matched(regexp, line)
        if g and g[0][2] != "note" and g[0][:3] not in shown:
            shown.add(g[0][:3])
            note("  " + line.strip())
finish()
