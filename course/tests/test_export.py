#!/usr/bin/env python3
"""test_export.py SCAN_GRADE KIT WORK: `scan-grade export` end to end.

Exports KIT into WORK/student and checks, as a student would meet it:
  - the command's refusals (bad usage exit 2, an unwritable DIR exit 1, a
    kit file that is a copy of a reference/ file refused);
  - exactly the parts of the handout, and none of reference/, grader/,
    course/, .ci/, build folders or .git; every relative link of its
    Markdown files leads to a file of the export;
  - no leak: no function body of any reference/NN-name/scan.cu, no
    distinctive statement of one, no hidden seed (the rubric's, the
    SCAN_GRADE_SECRET in the environment, the hidden datasets' seeds) as a
    whole token, no hidden dataset spec, no byte copy of a reference/ or
    grader/ file; and that this scan catches each of those planted in a copy;
  - from scratch in the export: `meson setup build`, `ninja -C build`,
    `meson test -C build`: every lab suite fails on the stubs with a
    verdict (not a missing file), every other test passes; `./scan-labs`
    works there, `./scan-labs grade` and solution=reference say they are
    not part of the handout; build/ stays out of git.
TAP on standard output (grader/tests/tap.py); exit 1 on any failure."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

grade, kit, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(kit, "grader", "tests"))
import hidden  # noqa: E402
import catalog  # noqa: E402
from tap import expect, finish, note  # noqa: E402
import proc  # noqa: E402
from proc import tail  # noqa: E402

LABS = catalog.labs(kit)
CODE = (".cu", ".cpp", ".hpp", ".h", ".cuh")


def run(cmd, cwd=None, log=None):
    """(exit status, output); the output also goes to WORK/LOG when given."""
    return proc.run(cmd, cwd, os.path.join(work, log) if log else None)


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("latin-1")


def files_under(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        out += sorted(os.path.relpath(os.path.join(d, n), root) for n in names)
    return out


# ---------------------------------------------------------------- the scan --

def strip_comments(src, code=True):
    """Comments (and preprocessor lines, in code) to spaces; string and
    character literals kept whole in code, so a // inside one stays."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif code and src[i] in "\"'":
            j = i + 1
            while j < n and src[j] != src[i]:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif code and src[i] == "#" and not src[src.rfind("\n", 0, i) + 1:i].strip():
            j = i
            while True:  # a directive, with its continuation lines
                j = src.find("\n", j)
                if j < 0 or src[j - 1] != "\\":
                    break
                j += 1
            i = n if j < 0 else j
            out.append(" ")
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


def squeeze(text):
    return re.sub(r"\s+", "", text)


def matching(code, i, open_ch, close_ch, step):
    """Index of the bracket matching code[i], scanning by step (+1 or -1)."""
    depth = 0
    while 0 <= i < len(code):
        if code[i] == open_ch:
            depth += 1
        elif code[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += step
    raise ValueError("unbalanced " + open_ch + close_ch)


def functions(src):
    """[(name, device, body)] of every function defined in a C++/CUDA
    source, outside other functions: a `{` after a parameter list. device:
    __global__ or __device__ (the student's work in every lab); body:
    comment-free, between the braces."""
    code = strip_comments(src)
    out, i = [], 0
    while i < len(code):
        if code[i] != "{":
            i += 1
            continue
        head = code[:i].rstrip()
        while re.search(r"\b(const|noexcept|override|final|mutable)$", head):
            head = re.sub(r"\s*\b\w+$", "", head)
        if not head.endswith(")"):
            i += 1  # a namespace, struct or initialiser: its functions are found inside
            continue
        paren = matching(code, len(head) - 1, ")", "(", -1)
        name = re.search(r"(\w*)\s*$", code[max(0, paren - 200):paren]).group(1)
        start = max(code.rfind(c, 0, paren) for c in ";}{") + 1
        device = bool(re.search(r"__global__|__device__", code[start:paren]))
        end = matching(code, i, "{", "}", 1)
        out.append((name, device, code[i + 1:end]))
        i = end + 1
    return out


def leak_patterns(kit):
    """What the scan searches for, from the kit's reference/ and rubric."""
    stubs = {lab: {name: squeeze(body) for name, _, body in functions(read(os.path.join(kit, "labs", lab, "scan.cu")))}
             for lab in LABS}
    every_stub = "".join(squeeze(strip_comments(read(os.path.join(kit, "labs", lab, "scan.cu")))) for lab in LABS)
    bodies, lines, published = [], [], []
    for lab in LABS:
        for name, device, body in functions(read(os.path.join(kit, "reference", lab, "scan.cu"))):
            where = "reference/%s/scan.cu: %s()" % (lab, name)
            # Host wrappers the stub hands out unchanged (the launch) are
            # published by design; a kernel or device function never is.
            if not device and stubs[lab].get(name) == squeeze(body):
                published.append(where)
                continue
            bodies.append((where, squeeze(body)))
            for line in body.split("\n"):
                s = squeeze(line)
                if len(s) >= 30 and s not in every_stub:
                    lines.append((where + ": " + line.strip(), s))
    seeds = {hidden.hidden_seed(os.path.join(kit, "grader", "rubric.json"))}
    secret = os.environ.get("SCAN_GRADE_SECRET", "")
    datasets = hidden.hidden_datasets(os.path.join(kit, "grader", "rubric.json"))
    if secret:
        seeds.add(hidden.parse_secret(secret))
        datasets += hidden.hidden_datasets(os.path.join(kit, "grader", "rubric.json"), secret)
    seeds |= {seed for _, _, _, seed in datasets}
    tokens = []
    for seed in seeds:
        # Whole tokens: not inside a longer number, word or decimal.
        tokens += [("seed %d" % seed, re.compile(r"(?<!\w)(?<!\d\.)%d(?!\w|\.\d)" % seed)),
                   ("seed %#x" % seed, re.compile(r"(?<!\w)0[xX]0*%x(?!\w|\.\d)" % seed, re.I))]
    specs = [("hidden dataset %s %s n=%d" % (lab, dist, n),
              re.compile(r"\b%s\W{1,20}(?:n\W{1,4})?%d(?!\w|\.\d)" % (re.escape(dist), n)))
             for lab, dist, n, _ in datasets]
    digests = {}
    for top in ("reference", "grader"):
        for rel in files_under(os.path.join(kit, top)):
            path = os.path.join(kit, top, rel)
            if os.path.getsize(path) > 0:
                digests.setdefault(hashlib.sha256(open(path, "rb").read()).hexdigest(), os.path.join(top, rel))
    return {"bodies": bodies, "lines": lines, "published": published, "tokens": tokens, "specs": specs,
            "digests": digests}


def scan(root, patterns):
    """[(file, kind, what)] for every leak found in the tree at root."""
    found = []
    for rel in files_under(root):
        raw = open(os.path.join(root, rel), "rb").read()
        text = raw.decode("latin-1")
        copy = patterns["digests"].get(hashlib.sha256(raw).hexdigest())
        if copy:
            found.append((rel, "copy", "a copy of " + copy))
        flat = (squeeze(text), squeeze(strip_comments(text, code=rel.endswith(CODE))))
        for where, body in patterns["bodies"]:
            if any(body in f for f in flat):
                found.append((rel, "body", "the body of " + where))
        for where, line in patterns["lines"]:
            if any(line in f for f in flat):
                found.append((rel, "line", where))
        for kind, group in (("seed", patterns["tokens"]), ("spec", patterns["specs"])):
            for what, pattern in group:
                if pattern.search(text):
                    found.append((rel, kind, what))
    return found


# ------------------------------------------------------------------ checks --

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
student = os.path.join(work, "student")

# The command line.
rc, out = run([grade, "export", "--kit", kit, student])
expect(rc == 0, "export: exit %d" % rc, tail(out))
rc, out = run([grade, "export", "--kit", kit, student])
expect(rc == 2 and "not empty" in out and "--force" in out, "a second export into it is refused without --force: exit %d" % rc, out)
open(os.path.join(student, "labs", "stale.txt"), "w").write("kept\n")
os.makedirs(os.path.join(student, "simt", "stale"))
open(os.path.join(student, "simt", "stale", "old.cpp"), "w").write("gone\n")
rc, out = run([grade, "export", "--kit", kit, "--force", student])
expect(rc == 0 and os.path.exists(os.path.join(student, "labs", "stale.txt"))
       and not os.path.exists(os.path.join(student, "simt", "stale")),
       "--force: exit %d, a folder part is replaced whole, a file that is no part stays" % rc, out)
os.remove(os.path.join(student, "labs", "stale.txt"))
for args, want, says, what in [
        ([], 2, "no DIR given", "no DIR"),
        (["--frobnicate", "x"], 2, "unknown option", "an unknown option"),
        (["a", "b"], 2, "more than one DIR", "two DIRs"),
        (["--kit", work, os.path.join(work, "x")], 2, "has no meson.build", "a --kit that is no kit"),
        (["--kit", kit, kit], 2, "the kit itself", "DIR = the kit"),
        (["--kit", kit, os.path.join(kit, "simt", "x")], 2, "inside the kit's simt/", "DIR inside a copied folder"),
        (["--kit", kit, os.path.join(student, "README.md", "x")], 1, "cannot write", "DIR under a file")]:
    rc, out = run([grade, "export"] + args)
    expect(rc == want and says in out, "%s: exit %d (%d wanted), says '%s'" % (what, rc, want, says), out)
rc, out = run([grade, "export", "--help"])
expect(rc == 0 and "usage: scan-grade export" in out, "export --help: exit %d" % rc, out)
rc, out = run([grade, "--help"])
expect(rc == 0 and "scan-grade export DIR" in out, "scan-grade --help names export", out)

# The exporter's own guard: a stub replaced by the reference is not exported.
fake = os.path.join(work, "kit-with-a-leak")
os.makedirs(fake)
for part in ("meson.build", "meson_options.txt", "scan-labs", "labs", "datasets", "simt", "bench", "course", "reference"):
    src = os.path.join(kit, part)
    (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, os.path.join(fake, part))
shutil.copy2(os.path.join(kit, "reference", "02-brent-kung", "scan.cu"), os.path.join(fake, "labs", "02-brent-kung", "scan.cu"))
rc, out = run([grade, "export", "--kit", fake, os.path.join(work, "leaked")])
expect(rc == 1 and "labs/02-brent-kung/scan.cu is a copy of reference/02-brent-kung/scan.cu" in out
       and not os.path.exists(os.path.join(work, "leaked")),
       "a stub that is the reference: refused, nothing written: exit %d" % rc, out)

# What is there.
files = files_under(student)
tops = sorted({f.split(os.sep)[0] for f in files})
want_tops = sorted([".github", ".gitignore", ".vscode", "README.md", "bench", "datasets", "labs", "meson.build",
                    "meson_options.txt", "scan-labs", "simt"])
expect(tops == want_tops, "the top of the export is exactly %s" % " ".join(want_tops), "got: %s" % " ".join(tops))
need = [".github/workflows/grade.yml", ".vscode/tasks.json", "labs/meson.build", "labs/README.md", "labs/targets.json", "labs/common/meson.build",
        "datasets/meson.build", "simt/meson.build", "bench/meson.build"]
for lab in LABS:
    need += ["labs/%s/%s" % (lab, f) for f in ("scan.cu", "scan.hpp", "README.md", "lab.cpp")]
    need.append("datasets/manifest/lab%s.txt" % lab[:2])
missing = [f for f in need if f not in files]
expect(not missing, "every lab's stub, header, handout and binding, the manifests and build files", " ".join(missing))
lab_files = sorted(f for f in files if re.match(r"labs/\d\d-", f))
expect(lab_files == sorted("labs/%s/%s" % (lab, f) for lab in LABS for f in ("scan.cu", "scan.hpp", "README.md", "lab.cpp")),
       "labs/NN-name/ holds those four files and nothing else", " ".join(lab_files))
expect(os.access(os.path.join(student, "scan-labs"), os.X_OK), "scan-labs is executable")
expect(read(os.path.join(student, "README.md")) == read(os.path.join(kit, "course", "student", "README.md"))
       and read(os.path.join(student, ".github", "workflows", "grade.yml")) == read(os.path.join(kit, "course", "github", "grade.yml")),
       "README.md and the workflow are course/student/README.md and course/github/grade.yml")
for lab in LABS:
    expect(read(os.path.join(student, "labs", lab, "scan.cu")) == read(os.path.join(kit, "labs", lab, "scan.cu")),
           "labs/%s/scan.cu is the kit's stub" % lab)
broken = []
for f in files:
    if f.endswith(".md"):
        for target in re.findall(r"\]\(([^)\s]+)\)", read(os.path.join(student, f))):
            path = target.split("#")[0]
            if path and not re.match(r"[a-z]+:", path) and \
                    not os.path.exists(os.path.normpath(os.path.join(student, os.path.dirname(f), path))):
                broken.append("%s -> %s" % (f, target))
expect(not broken, "every relative link of the export's Markdown files leads into the export", "\n".join(broken))

# No leak, and the scan can see one.
patterns = leak_patterns(kit)
note("scan: %d reference function bodies (%d host wrappers the stubs publish: %s), %d distinctive lines, "
      "%d seed forms, %d hidden dataset specs, %d reference/ and grader/ files"
      % (len(patterns["bodies"]), len(patterns["published"]), ", ".join(patterns["published"]),
         len(patterns["lines"]), len(patterns["tokens"]), len(patterns["specs"]), len(patterns["digests"])))
expect(len(patterns["bodies"]) >= len(LABS) and patterns["lines"] and patterns["specs"] and patterns["digests"],
       "the scan has something to look for in every category")
leaks = scan(student, patterns)
expect(not leaks, "no leak in the %d exported files" % len(files), "\n".join("%s: %s: %s" % l for l in leaks))

planted = os.path.join(work, "planted")
shutil.copytree(student, planted)


def append(rel, text):
    with open(os.path.join(planted, rel), "a") as f:
        f.write(text)


body_where, body = next((w, b) for w, b in patterns["bodies"] if "brent_kung_kernel" in w)
kernel = next(b for n, d, b in functions(read(os.path.join(kit, "reference", "02-brent-kung", "scan.cu")))
              if n == "brent_kung_kernel")
# Re-indented and without its comments: the scan ignores layout.
append("labs/02-brent-kung/scan.cu", "\n__global__ void copied() {\n" +
       "\n".join("\t\t" + re.sub(r" +", "  ", l.strip()) for l in kernel.split("\n")) + "\n}\n")
line_where, line = patterns["lines"][-1]
append("labs/04-hierarchical/README.md", "\n    " + line_where.split(": ", 2)[2] + "\n")
seed = hidden.hidden_seed(os.path.join(kit, "grader", "rubric.json"))
append("datasets/manifest/lab03.txt", "# seed %d\n" % seed)
lab, dist, n, derived = hidden.hidden_datasets(os.path.join(kit, "grader", "rubric.json"))[0]
append("simt/README.md", "\nseed=%d\n" % derived)
append("datasets/README.md", "\nThe grader also runs %s n=%d.\n" % (dist, n))
shutil.copy2(os.path.join(kit, "grader", "rubric.json"), os.path.join(planted, "bench", "notes.json"))
append("labs/03-exclusive/README.md", "\n%d and %d.5 are other numbers.\n" % (seed * 10 + 7, seed))  # not the seed
found = scan(planted, patterns)
kinds = {}
for rel, kind, _ in found:
    kinds.setdefault(rel, set()).add(kind)
for rel, kind in [("labs/02-brent-kung/scan.cu", "body"), ("labs/04-hierarchical/README.md", "line"),
                  ("datasets/manifest/lab03.txt", "seed"), ("simt/README.md", "seed"),
                  ("datasets/README.md", "spec"), ("bench/notes.json", "copy")]:
    expect(kind in kinds.get(rel, set()), "the scan catches a planted %s in %s" % (kind, rel),
           "found: %s" % kinds.get(rel))
expect(set(kinds) == {"labs/02-brent-kung/scan.cu", "labs/04-hierarchical/README.md", "datasets/manifest/lab03.txt",
                      "simt/README.md", "datasets/README.md", "bench/notes.json"},
       "and nothing else (the seed inside a longer number is not the seed)", "\n".join("%s: %s: %s" % f for f in found))

# The student's build, from scratch.
rc, out = run(["meson", "setup", "build"], cwd=student, log="setup.log")
if expect(rc == 0, "meson setup build in the export: exit %d" % rc, tail(out)):
    rc, out = run(["ninja", "-C", "build"], cwd=student, log="ninja.log")
    expect(rc == 0, "ninja -C build (the stubs): exit %d" % rc, tail(out))
    rc, out = run(["meson", "test", "-C", "build", "--print-errorlogs"], cwd=student, log="test.log")
    with open(os.path.join(student, "build", "meson-logs", "testlog.json")) as f:
        tests = [json.loads(l) for l in f if l.strip()]
    by_suite = {}
    for t in tests:  # name: "scan-labs:SUITE / TEST"
        t["suite"], t["name"] = t["name"].split(" / ", 1)
        t["suite"] = t["suite"].split(":")[-1]
        by_suite.setdefault(t["suite"], []).append(t)
    note("meson test in the export: exit %d; %s" % (rc, "; ".join(
        "%s %s" % (s, " ".join("%s=%s" % (t["name"], t["result"]) for t in ts)) for s, ts in sorted(by_suite.items()))))
    rules = re.compile(r"outputs_match|input_unchanged|nothing_written_past_n|temporaries_freed|"
                       r"backend_checks_clean|no_device_error")
    for lab in LABS:
        suite = by_suite.get("lab" + lab[:2], [])
        failing = [t for t in suite if t["result"] == "FAIL"]
        odd = [t["name"] + "=" + t["result"] for t in suite if t["result"] not in ("OK", "FAIL")]
        no_verdict = [t["name"] for t in failing if not rules.search(t.get("stdout", ""))]
        expect(failing and not odd and not no_verdict,
               "suite lab%s fails on the stub, %d of %d tests, each with a verdict (no setup error)"
               % (lab[:2], len(failing), len(suite)),
               "not FAIL/OK: %s; failed without a rule's name: %s" % (odd, no_verdict))
    others = [t for t in tests if not t["suite"].startswith("lab")]
    bad = [t["name"] + "=" + t["result"] for t in others if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL")]
    expect(by_suite.get("host") and not bad, "every other test passes: %d (host: %d)"
           % (len(others), len(by_suite.get("host", []))), " ".join(bad))

    rc, out = run(["./scan-labs", "test", "--suite", "host"], cwd=student, log="scan-labs-test.log")
    expect(rc == 0, "./scan-labs test --suite host in the export: exit %d" % rc, tail(out))

    # The student's preview of the grader's table: the stub scores nothing and
    # names its findings; a right Brent-Kung with the modulo mapping gets every
    # correctness and safety point and part of the divergence points (its
    # grader band: 50-90% of them).
    def row(text, name):
        m = re.search(r"^  %s +([0-9.]+|-) / ([0-9]+)" % name, text, re.M)
        return (float(m.group(1)) if m.group(1) != "-" else None, float(m.group(2))) if m else (None, None)

    rc, out = run(["./scan-labs", "check", "--lab", "01"], cwd=student, log="check-stub01.log")
    expect(rc == 1 and row(out, "correctness") == (0.0, 60.0) and row(out, "total")[0] == 0.0
           and re.search(r"^    barrier:\n      labs/01-kogge-stone/scan\.cu:23: error: barrier divergence in kernel "
                         r"kogge_stone_kernel", out, re.M)
           and re.search(r"^    race:\n      labs/01-kogge-stone/scan\.cu:24:20: error: data race on shared memory", out, re.M)
           and row(out, "timing") == (None, 10.0),
           "./scan-labs check --lab 01 on the stub: 0 points, the barrier and race findings at their lines, timing not measured "
           "without a GPU: exit %d" % rc, tail(out, 40))
    # copyfile, not copy2: the file must look newer than the build, or Ninja keeps the stub's objects.
    shutil.copyfile(os.path.join(kit, "grader", "tests", "corpus", "lab02-modulo-mapping", "labs", "02-brent-kung", "scan.cu"),
                    os.path.join(student, "labs", "02-brent-kung", "scan.cu"))
    rc, out = run(["./scan-labs", "check", "--lab", "02"], cwd=student, log="check-modulo02.log")
    divergence = row(out, "divergence")[0]
    expect(rc == 1 and row(out, "correctness") == (60.0, 60.0) and row(out, "safety") == (20.0, 20.0)
           and divergence is not None and 5.0 <= divergence <= 9.0,
           "./scan-labs check --lab 02 on a modulo-mapping Brent-Kung: 60/60, 20/20, divergence %s/10: exit %d"
           % (divergence, rc), tail(out, 40))
    shutil.copyfile(os.path.join(kit, "labs", "02-brent-kung", "scan.cu"), os.path.join(student, "labs", "02-brent-kung", "scan.cu"))
    rc, out = run(["./scan-labs", "check", "--lab", "7"], cwd=student)
    expect(rc == 2 and "no lab '7'; the labs: 01 02 03 04 05" in out, "./scan-labs check --lab 7: exit %d, the labs listed"
           % rc, out)
rc, out = run(["./scan-labs", "grade"], cwd=student)
expect(rc == 2 and "not part of the student handout" in out, "./scan-labs grade says the grader is not there: exit %d" % rc, out)
rc, out = run(["meson", "setup", "build-reference", "-Dsolution=reference"], cwd=student)
expect(rc != 0 and "needs the reference/ folder" in out, "solution=reference is refused with a reason", tail(out))
shutil.rmtree(os.path.join(student, "build-reference"), ignore_errors=True)
rc, out = run(["git", "init", "-q"], cwd=student)
rc, out = run(["git", "add", "--all", "--dry-run"], cwd=student)
added = [l.split("'")[1] for l in out.splitlines() if l.startswith("add '")]
expect(rc == 0 and added and not [a for a in added if a.startswith("build")],
       "git add in the export takes %d files, none of build/" % len(added), tail(out))

finish()
