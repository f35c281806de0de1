#!/usr/bin/env python3
"""test_problem_matcher.py SCAN_GRADE KIT WORK: the VS Code problem matcher
of the student repository (.vscode/tasks.json, from
course/student/vscode-tasks.json) on real output.

`scan-grade export` writes the repository into WORK/student; its tasks.json's
matchers (the same for every task, on ./scan-labs test and ./scan-labs check)
are read, and their output turned into markers, by vscode_matcher.py, a
replica of VS Code's problemMatcher.ts: a marker's file must resolve inside
the workspace, and a line without a line number makes one only under a
pattern of kind "file". A lab 01 scan.cu with an undeclared name and an
unused variable is built: g++'s error and warning, as ./scan-labs shows a
failed build (labs/common/buildlog.py), and nvcc's where it is installed,
run from build/ as the CUDA build runs it, must be marked at their lines of
labs/01-kogge-stone/scan.cu. Corpus entries
(a race, a barrier, memory errors, a leak) are then built over the stubs and
their lab's suite program run on a few datasets (as `meson test` runs it, with
a results file) and with --check (./scan-labs check's table), and the entries
graded as a batch (feedback.txt). Every finding the results file holds, as
data, must be matched: the lab folder's file, its first line (none for the
harness's leak), error or warning (a leak), and a note at its launch; each
problem once in the suite's output, at most twice in feedback.txt (its
correctness and safety tests); none in a hidden dataset's test. "note" is
read as info, and a leak, which names no line, as a problem of the whole
file (line 0). TAP on standard output (grader/tests/tap.py); exit 1 on any
failure."""
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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vscode_matcher  # noqa: E402

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


def matched(text):
    """The markers VS Code makes of `text`: (file, line, severity, message, column), the file relative to the
    workspace (absolute where it resolves outside it); line 0 for the whole file; severity error, warning or info."""
    out = []
    for m in vscode_matcher.markers(task_matchers, text):
        inside = m.path.startswith(student + os.sep)
        out.append((os.path.relpath(m.path, student) if inside else m.path, m.line, m.severity, m.message, m.column))
    return out


def place(at):
    """("scan.cu", 24) of "scan.cu:24", or None: what finding_place.hpp calls a place."""
    m = re.fullmatch(r"([^/\s:]+):([1-9][0-9]*)", at or "")
    return (m.group(1), int(m.group(2))) if m else None


def wanted(lab, finding):
    """Where the matcher must take the student for a finding record of a
    results file: its first place (none: the lab's scan.cu, the whole file),
    error or warning; and the note (info) at its launch, where that is another place."""
    places = [p for p in (place(at) for at in finding["lines"] + [finding.get("launch", "")]) if p]
    severity = "warning" if finding["kind"] == "leak" else "error"
    head = ("labs/%s/%s" % (lab, places[0][0]), places[0][1], severity) if places else ("labs/%s/scan.cu" % lab, 0, severity)
    launch = place(finding.get("launch", ""))
    notes = [("labs/%s/%s" % (lab, launch[0]), launch[1], "info")] if launch and launch not in places[:1] else []
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
expect(matchers and all(m == matchers[0] for m in matchers), "every task has the same problem matchers")
expect(all(t.get("options", {}).get("cwd") == "${workspaceFolder}" for t in tasks.get("tasks", [])),
       "the tasks run in the workspace folder")
try:
    task_matchers = vscode_matcher.matchers(matchers[0] if matchers else None, {"workspaceFolder": student})
    expect(True, "VS Code accepts its %d matchers: %s" % (len(task_matchers), ", ".join(
        "%s (%s)" % (m["source"], m["pattern"]["kind"]) for m in task_matchers)))
except vscode_matcher.Invalid as e:
    expect(False, "VS Code accepts its matchers", str(e))
    finish()
expect(matched("  labs/04-hierarchical/scan.cu: warning: 8 bytes leaked\n")
       == [("labs/04-hierarchical/scan.cu", 0, "warning", "8 bytes leaked", 0)]
       and matched("labs/02-brent-kung/scan.cu:25:13: error: a race\n")
       == [("labs/02-brent-kung/scan.cu", 25, "error", "a race", 13)]
       and not matched("  FAIL  f on tiny dataset walk1 n=1 seed=102: data race on shared memory at scan.cu:25\n"
                       "f on tiny: ERROR: temporaries_freed: device memory leaked: 8 bytes\n"
                       "collect2: error: ld returned 1 exit status\nninja: error: loading 'build.ninja'\n"),
       "a leak is a problem of the whole file, a race one at its line and column; the suites' other lines, the "
       "linker's and ninja's make none")

# The suites' output and ./scan-labs check's, on the emulator.
build = os.path.join(student, "build")
rc, out = run(["meson", "setup", build, "-Dscan_backend=emu"], cwd=student, log="setup.log")
if not expect(rc == 0, "meson setup build -Dscan_backend=emu in the export: exit %d" % rc, tail(out)):
    finish()

# The compiler's diagnostics on a broken scan.cu: an unused variable (a
# warning) and an undeclared name (an error), in a kernel added at its end.
lab01 = os.path.join(student, "labs", "01-kogge-stone", "scan.cu")
stub = open(lab01, "rb").read()
lines = stub.decode().splitlines()
broken = lines + ["__global__ void broken_kernel(float* out) {", "    int unused_here = 0;",
                  "    out[0] = undeclared_value;", "}"]
warn_at, error_at = len(lines) + 2, len(lines) + 3
warn_col, error_col = broken[warn_at - 1].index("unused_here") + 1, broken[error_at - 1].index("undeclared_value") + 1
folder = "labs/01-kogge-stone/scan.cu"
try:
    with open(lab01, "w") as f:
        f.write("\n".join(broken) + "\n")
    rc, out = run(["ninja", "-C", build, "labs/lab01-tests"], log="ninja-broken.log")
    rc2, shown = run([sys.executable, os.path.join(student, "labs", "common", "buildlog.py"), os.path.join(work, "ninja-broken.log")])
    got = {g[:3] + (g[4],) for g in matched(shown)}
    want = {(folder, error_at, "error", error_col), (folder, warn_at, "warning", warn_col)}
    expect(rc != 0 and want <= got, "g++'s error and warning, as ./scan-labs shows a failed build (../%s from build/), "
           "marked at their lines and columns: %s" % (folder, sorted(want)),
           "markers: %s\n--- shown:\n%s" % (sorted(got, key=str), tail(shown, 20)))
    nvcc = shutil.which("nvcc")
    if nvcc:
        cmd = [nvcc, "-std=c++17", "-I../labs/01-kogge-stone", "-I../labs", "-c", "../" + folder, "-o",
               os.path.join(work, "nvcc.o")]
        rc, out = run(cmd, cwd=build, log="nvcc-broken.log")
        with open(lab01, "w") as f:  # nvcc's front end shows no warning once it found an error
            f.write("\n".join(broken[:error_at - 1] + broken[error_at:]) + "\n")
        rc2, out2 = run(cmd, cwd=build, log="nvcc-warning.log")
        got = {g[:3] + (g[4],) for g in matched(out + out2)}
        want = {(folder, error_at, "error", None), (folder, warn_at, "warning", None)}
        expect(rc != 0 and want <= got, "nvcc's error and warning (FILE(LINE): ...) from build/, marked at their "
               "lines: %s" % sorted(want, key=str), "markers: %s\n--- output:\n%s" % (sorted(got, key=str), tail(out + out2, 20)))
    else:
        note("nvcc not installed: its diagnostics not checked")
finally:
    with open(lab01, "wb") as f:
        f.write(stub)

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
        got = matched(out)
        heads = {g[:3] for g in got if g[2] != "info"}
        notes = {g[:3] for g in got if g[2] == "info"}
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
        expect(with_column <= {(g[0], g[1], g[4]) for g in got if g[2] != "info"},
               "%s: the suite's lines carry the columns of its findings: %s" % (entry, sorted(with_column)),
               "matched: %s" % sorted({(g[0], g[1], g[4]) for g in got}, key=str))
        expect(rc == 1 and found and want_heads <= heads and want_notes <= notes,
               "%s: its suite fails with %s findings, each matched at its file, line and severity, a note at its "
               "launch: %s" % (entry, "/".join(kinds), sorted(want_heads, key=str)),
               "matched: %s\n--- output:\n%s" % (sorted({g[:3] for g in got}, key=str), tail(out, 40)))
        # Each problem once: as many errors and warnings as the suite's distinct problems of findings and leaks.
        problems = {p["key"] for d in data["datasets"] for p in d["problems"]
                    if p["rule"] in ("backend_checks_clean", "temporaries_freed")}
        shown = [g for g in got if g[2] != "info"]
        expect(len(shown) == len(problems), "%s: each of its %d problems shown once (%d datasets with findings)"
               % (entry, len(problems), sum(1 for d in data["datasets"] if d["findings"])),
               "\n".join(map(str, shown)))
        # ./scan-labs check: the first finding of each kind in the safety row.
        rc, out = run([os.path.join(build, program), "--check", "--manifest", manifest], cwd=student,
                      log="check-%s.log" % entry)
        got = {g[:3] for g in matched(out) if g[2] != "info"}
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
    got = matched(text)
    heads = {g[:3] for g in got if g[2] != "info"}
    expect(entry in suite_heads and suite_heads[entry] <= heads,
           "%s: feedback.txt takes the student to the suite's findings: %s" % (entry, sorted(suite_heads.get(entry, []), key=str)),
           "matched: %s" % sorted(heads, key=str))
    # Each problem in full once over the datasets (the correctness tests), once more in the safety test's list.
    lines = [g for g in got if g[2] != "info"]
    repeated = {g for g in lines if lines.count(g) > 2}
    expect(lines and not repeated, "%s: %d findings in feedback.txt, none shown in full more than twice"
           % (entry, len(lines)), "\n".join(map(str, repeated)))
    # A hidden dataset's test ("  [failed] lab01 correctness: hidden: 0/30 (hidden)"): its failures named, no finding.
    tests = re.split(r"^  \[[a-z ]+\] ", text, flags=re.M)
    hidden = [t for t in tests if re.match(r"\S+ correctness: hidden: .*\(hidden\)$", t.split("\n")[0])]
    hidden_failed += sum(t.count("FAIL  hidden dataset ") for t in hidden)
    expect(hidden and not any(matched(t) for t in hidden), "%s: its hidden datasets' test shows no finding" % entry,
           "\n".join(hidden))
expect(hidden_failed > 0, "and those of %d hidden datasets failed: withheld, not missing" % hidden_failed)
note("a line each, as the matcher reads them (feedback.txt):")
for entry in ENTRIES:
    path = os.path.join(work, "graded", entry, "feedback.txt")
    shown = set()
    for line in (open(path).read().splitlines() if os.path.isfile(path) else []):
        g = matched(line)
        if g and g[0][2] != "info" and g[0][:3] not in shown:
            shown.add(g[0][:3])
            note("  " + line.strip())
finish()
