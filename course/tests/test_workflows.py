#!/usr/bin/env python3
"""test_workflows.py SCAN_GRADE KIT WORK: the GitHub Actions workflows of
course/github, read with PyYAML and run.

Checks both files' structure (triggers, the two checkouts, the grade step's
secret, the upload), that grade-gpu.yml's steps are grade.yml's with only
the differences its header documents (printed), then runs grade.yml's steps
in order, as written, in WORK/workspace: `run:` steps with GitHub's
`bash --noprofile --norc -eo pipefail`, `uses:` steps emulated (the kit
checkout is a copy of KIT's files, the submission checkout a fresh
`scan-grade export` of that copy, the upload checks that its path exists),
`if:` evaluated as on a self-hosted machine, `$GITHUB_ENV` carried from step
to step, `gh` a stand-in that records what it was asked, the upload to code
scanning a check of the SARIF file it would send (sarif_schema.py, and its
paths against the checkout). The submission is a Classroom 50 repository
(its .classroom50.yaml, its name <classroom>-<assignment>-<owner>) whose
lab 02 is the corpus entry lab02-missing-barrier (a race at scan.cu:25), the
other labs the stubs. The results must hold the labs, graded with the secret
the workflow passed (the hidden datasets' seeds say which), at 0 points in
labs 01, 03 and 04 (the stubs), lab 02 losing its safety's race quarter, the
step summary the points per lab, the annotation step the race as an error
annotation on labs/02-brent-kung/scan.cu line 25 among the stubs' findings,
the worst first (shown in the log with results.sarif), result.json Classroom
50's format (classroom50_schema.py, its self-test first) with the
submission's identity, and the release step must have published it on the
submit/* tag. The install step runs `sudo kit/scan-labs deps`: without root
the run is a skipped check after the static checks. TAP on standard output
(grader/tests/tap.py)."""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

grade, kit, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(kit, "grader", "tests"))
import classroom50_schema  # noqa: E402
import sarif_schema  # noqa: E402
import hidden  # noqa: E402
import catalog  # noqa: E402
from tap import expect, finish, note, skip  # noqa: E402

LABS = catalog.labs(kit)
KIT_VAR, KIT_TOKEN = "${{ vars.SCAN_LABS_KIT }}", "${{ secrets.SCAN_LABS_KIT_TOKEN }}"
SECRET = "${{ secrets.SCAN_GRADE_SECRET }}"
# What the workflows are given in the test: a secret the rubric does not hold.
CONTEXT = {"vars.SCAN_LABS_KIT": "my-course/scan-labs-kit", "secrets.SCAN_LABS_KIT_TOKEN": "not-a-real-token",
           "secrets.SCAN_GRADE_SECRET": "424242", "github.ref": "refs/heads/main", "github.token": "not-a-real-token",
           "github.workspace": os.path.join(work, "workspace")}
# The student's lab 02: a corpus entry whose race the emulator finds at line 25, column 71 (its +=).
FAILING_LAB02 = os.path.join(kit, "grader", "tests", "corpus", "lab02-missing-barrier", "labs", "02-brent-kung", "scan.cu")
# Once, with the block counts it showed at (the distinct findings of results.sarif).
RACE = (r"::error file=labs/02-brent-kung/scan\.cu,line=25,col=71,title=data race on shared memory::data race on shared "
        r"memory in kernel brent_kung_kernel: .*; launched at scan\.cu:35; seen at: 1 block, 2 blocks, 3 blocks")
# The student repository, as Classroom 50 names it: <classroom>-<assignment>-<owner>.
CLASSROOM, ASSIGNMENT, OWNER = "cuda-fall", "scan-labs", "jdoe"
REPOSITORY, SHA = "my-course/%s-%s-%s" % (CLASSROOM, ASSIGNMENT, OWNER), "0123456789abcdef0123456789abcdef01234567"
# grade-gpu.yml against grade.yml, as its header lists them.
GPU_DIFFERENCES = [
    "runs-on: ubuntu-24.04 -> ['self-hosted', 'gpu']",
    "timeout-minutes: 60 -> 90",
    "name: grade -> grade on a GPU",
    "step left out: Install the kit's packages",
    "step left out: Allow the grader's sandbox",
    "step Grade the submission: kit/scan-labs grade submission --backend emu --out results --submitted-at"
    ' "$submitted_at" -> kit/scan-labs grade submission --backend auto --out results --submitted-at "$submitted_at"',
    "step Findings to code scanning: with.category: scan-grade-emu -> scan-grade-gpu",
]
PERMISSIONS = {"contents": "write", "security-events": "write", "actions": "read"}



def load(name):
    with open(os.path.join(kit, "course", "github", name)) as f:
        doc = yaml.safe_load(f)
    if True in doc:  # YAML 1.1 reads the key `on` as true
        doc["on"] = doc.pop(True)
    return doc


def substitute(value):
    """${{ expr }} in a string, from CONTEXT; an unknown expression is an error."""
    def one(m):
        expr = m.group(1).strip()
        if expr not in CONTEXT:
            raise ValueError("the test does not know ${{ %s }}" % expr)
        return CONTEXT[expr]
    return re.sub(r"\$\{\{(.*?)\}\}", one, value) if isinstance(value, str) else value


def condition(expr, failed_so_far):
    """A step's if:, as GitHub evaluates it on a self-hosted runner."""
    if expr is None:
        return not failed_so_far
    expr = re.sub(r"^\$\{\{(.*)\}\}$", r"\1", str(expr).strip()).strip()
    status = {"always()": True, "success()": not failed_so_far, "failure()": failed_so_far}
    if expr in status:
        return status[expr]
    # hashFiles(PATH) is empty where the workspace holds no such file.
    m = re.fullmatch(r"always\(\) && hashFiles\('([^']+)'\) != ''", expr)
    if m:
        return os.path.isfile(os.path.join(CONTEXT["github.workspace"], m.group(1)))
    # Without a status function GitHub reads `success() && (expr)`.
    values = {"runner.environment == 'github-hosted'": False}  # this machine is not GitHub's
    if expr not in values:
        raise ValueError("the test does not know if: " + expr)
    return not failed_so_far and values[expr]


# ----------------------------------------------------------- static checks --

cpu, gpu = load("grade.yml"), load("grade-gpu.yml")
for name, doc in (("grade.yml", cpu), ("grade-gpu.yml", gpu)):
    expect(isinstance(doc.get("on"), dict) and {"push", "workflow_dispatch"} <= set(doc["on"]),
           "%s: runs on push and workflow_dispatch" % name, doc.get("on"))
    expect((doc.get("on") or {}).get("push") == {"branches": ["main"], "tags": ["submit/*"]},
           "%s: as Classroom 50's workflow, on a push to main or of a submit/* tag" % name, doc.get("on"))
    expect(doc.get("permissions") == PERMISSIONS,
           "%s: writes the repository's contents (the submit/* tag and its release) and security events (code "
           "scanning), reads actions (upload-sarif in a private repository), nothing else" % name, doc.get("permissions"))
    jobs = doc.get("jobs", {})
    expect(len(jobs) == 1, "%s: one job" % name, list(jobs))
    steps = next(iter(jobs.values()))["steps"]
    checkouts = [s for s in steps if str(s.get("uses", "")).startswith("actions/checkout@")]
    kit_co = [s for s in checkouts if s.get("with", {}).get("path") == "kit"]
    sub_co = [s for s in checkouts if s.get("with", {}).get("path") == "submission"]
    expect(len(checkouts) == 2 and len(kit_co) == 1 and len(sub_co) == 1, "%s: two checkouts, kit/ and submission/" % name)
    if kit_co and sub_co:
        w = kit_co[0]["with"]
        expect(w.get("repository") == KIT_VAR and w.get("token") == KIT_TOKEN and w.get("persist-credentials") is False,
               "%s: the kit from vars.SCAN_LABS_KIT with secrets.SCAN_LABS_KIT_TOKEN, the token not left in kit/.git" % name, w)
        w = sub_co[0]["with"]
        expect("repository" not in w and "token" not in w, "%s: the submission is the repository itself" % name, w)
    grade_steps = [s for s in steps if "scan-labs grade" in s.get("run", "")]
    expect(len(grade_steps) == 1 and grade_steps[0].get("env", {}).get("SCAN_GRADE_SECRET") == SECRET,
           "%s: the grade step gets SCAN_GRADE_SECRET from secrets.SCAN_GRADE_SECRET" % name)
    uploads = [s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
    expect(len(uploads) == 1 and uploads[0].get("if") == "always()" and uploads[0]["with"].get("path") == "results/",
           "%s: uploads results/ always" % name)
    names = [s.get("name") for s in steps]
    naming = [s for s in steps if "GITHUB_ENV" in s.get("run", "")]
    expect(len(naming) == 1 and len(grade_steps) == 1 and names.index(naming[0].get("name")) < names.index(grade_steps[0].get("name"))
           and all(v in naming[0]["run"] for v in ("CLASSROOM=", "ASSIGNMENT=", "OWNER=", "SUBMISSION_TAG=", "COMMIT_URL=",
                                                   "RELEASE_URL=", "REVIEW_URL=", ".classroom50.yaml")),
           "%s: names the submission for Classroom 50 (.classroom50.yaml, the variables its runner sets) before grading" % name)
    publish = [s for s in steps if "gh release create" in s.get("run", "")]
    expect(len(publish) == 1 and publish[0] is steps[-1] and publish[0].get("if") == "success()"
           and "results/result.json" in publish[0]["run"] and publish[0].get("env", {}).get("GH_TOKEN") == "${{ github.token }}",
           "%s: last, after a successful grading, publishes results/result.json as a release with the job's token" % name)
    annotate = [s for s in steps if "annotations.py" in s.get("run", "")]
    expect(len(annotate) == 1 and annotate[0].get("if") == "always()"
           and "python3 kit/course/github/annotations.py results/results.sarif" in annotate[0]["run"]
           and names.index(annotate[0].get("name")) > names.index(grade_steps[0].get("name")),
           "%s: after grading, always, annotates the findings from results/results.sarif" % name)
    scanning = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    w = scanning[0].get("with", {}) if len(scanning) == 1 else {}
    expect(len(scanning) == 1 and scanning[0]["uses"].endswith("@v4") and scanning[0].get("continue-on-error") is True
           and scanning[0].get("if") == "always() && hashFiles('results/results.sarif') != ''"
           and w.get("sarif_file") == "results/results.sarif" and w.get("checkout_path") == "${{ github.workspace }}/submission"
           and str(w.get("category", "")).startswith("scan-grade-") and publish and names.index(scanning[0].get("name")) < len(names) - 1,
           "%s: uploads results/results.sarif to code scanning (upload-sarif@v4, the submission its checkout, a category "
           "of its own), always, its failure not the job's, before the release" % name, scanning)
    summary = [s for s in steps if "GITHUB_STEP_SUMMARY" in s.get("run", "")]
    expect(len(summary) == 1 and "results/summary.md" in summary[0]["run"] and summary[0].get("if") == "always()",
           "%s: appends results/summary.md to the step summary, always" % name)
cpu_job, gpu_job = next(iter(cpu["jobs"].values())), next(iter(gpu["jobs"].values()))
expect(cpu_job.get("runs-on") == "ubuntu-24.04", "grade.yml: runs-on ubuntu-24.04", cpu_job.get("runs-on"))
expect(gpu_job.get("runs-on") == ["self-hosted", "gpu"], "grade-gpu.yml: runs-on [self-hosted, gpu]", gpu_job.get("runs-on"))
expect("sudo kit/scan-labs deps" in [s.get("run", "").strip() for s in cpu_job["steps"]],
       "grade.yml: installs with `sudo kit/scan-labs deps`")

# grade-gpu.yml is grade.yml but for the documented differences.
differences = []
for key in sorted(set(cpu) | set(gpu)):
    if key != "jobs" and cpu.get(key) != gpu.get(key):
        differences.append("%s: %s -> %s" % (key, cpu.get(key), gpu.get(key)))
for key in sorted(set(cpu_job) | set(gpu_job)):
    if key != "steps" and cpu_job.get(key) != gpu_job.get(key):
        differences.append("%s: %s -> %s" % (key, cpu_job.get(key), gpu_job.get(key)))
gpu_steps = {s.get("name"): s for s in gpu_job["steps"]}
for s in cpu_job["steps"]:
    g = gpu_steps.pop(s.get("name"), None)
    if g is None:
        differences.append("step left out: %s" % s.get("name"))
        continue
    for key in sorted(set(s) | set(g)):
        if s.get(key) == g.get(key):
            continue
        if key == "with" and set(s[key]) == set(g[key]):
            differences += ["step %s: with.%s: %s -> %s" % (s.get("name"), k, s[key][k], g[key][k])
                            for k in sorted(s[key]) if s[key][k] != g[key][k]]
            continue
        if key == "run":
            a, b = s["run"].splitlines(), g["run"].splitlines()
            changed = [(x.strip(), y.strip()) for x, y in zip(a, b) if x != y]
            if len(a) == len(b):
                differences += ["step %s: %s -> %s" % (s.get("name"), x, y) for x, y in changed]
                continue
        differences.append("step %s: %s: %r -> %r" % (s.get("name"), key, s.get(key), g.get(key)))
differences += ["step added: %s" % name for name in gpu_steps]
note("grade-gpu.yml against grade.yml:\n  " + "\n  ".join(differences))
expect(sorted(differences) == sorted(GPU_DIFFERENCES), "grade-gpu.yml differs from grade.yml in the documented ways only",
       "documented:\n  " + "\n  ".join(GPU_DIFFERENCES))
header = open(os.path.join(kit, "course", "github", "grade-gpu.yml")).read().split("\nname:")[0]
expect(all(w in header for w in ("runs-on: [self-hosted, gpu]", "Install the kit's packages",
                                 "Allow the grader's sandbox", "`--backend auto` for `--backend emu`",
                                 "scan-grade-gpu for scan-grade-emu")),
       "grade-gpu.yml's header documents them")

p = subprocess.run([sys.executable, classroom50_schema.__file__, "--self-test"], stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, text=True)
expect(p.returncode == 0, "classroom50_schema.py refuses every broken example", p.stdout)

if os.geteuid() != 0:
    skip("running grade.yml", "needs root: its install step is `sudo kit/scan-labs deps` (static checks done)")
    finish()

# ------------------------------------------------------------- run grade.yml --

shutil.rmtree(work, ignore_errors=True)
workspace = os.path.join(work, "workspace")
os.makedirs(workspace)
# kit/: what the kit repository holds (tracked and not-ignored files where KIT
# is a git checkout, else the tree without build folders).
if os.path.isdir(os.path.join(kit, ".git")):
    listed = subprocess.run(["git", "-C", kit, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            check=True, stdout=subprocess.PIPE, text=True).stdout.split("\0")
    kit_files = sorted({f for f in listed if f and os.path.isfile(os.path.join(kit, f))})
else:
    kit_files = []
    for d, dirs, names in os.walk(kit):
        if d == kit:
            dirs[:] = [x for x in dirs if not x.startswith("build")]
        kit_files += [os.path.relpath(os.path.join(d, n), kit) for n in names]
for f in kit_files:
    os.makedirs(os.path.dirname(os.path.join(workspace, "kit", f)), exist_ok=True)
    shutil.copy2(os.path.join(kit, f), os.path.join(workspace, "kit", f))
note("kit/: %d files of %s" % (len(kit_files), "git ls-files" if os.path.isdir(os.path.join(kit, ".git")) else "the tree"))
p = subprocess.run([grade, "export", "--kit", os.path.join(workspace, "kit"), os.path.join(workspace, "submission")],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
if not expect(p.returncode == 0, "submission/: scan-grade export of kit/: exit %d" % p.returncode, p.stdout):
    finish()

# The student's lab 02, pushed: a race the grader reports at its line 25.
shutil.copyfile(FAILING_LAB02, os.path.join(workspace, "submission", "labs", "02-brent-kung", "scan.cu"))
note("submission/labs/02-brent-kung/scan.cu: grader/tests/corpus/lab02-missing-barrier's")

# What `gh student accept` commits into a Classroom 50 repository.
with open(os.path.join(workspace, "submission", ".classroom50.yaml"), "w") as f:
    f.write("classroom: %s\nassignment: %s\n" % (CLASSROOM, ASSIGNMENT))
# The pushed commit, as actions/checkout leaves it: its committer date, in
# another zone, is the submission's instant (result.json's datetime).
COMMITTED, COMMITTED_UTC = "2026-09-01T14:00:05+02:00", "2026-09-01T12:00:05Z"
git_env = dict(os.environ, GIT_AUTHOR_NAME="jdoe", GIT_AUTHOR_EMAIL="jdoe@example.edu", GIT_COMMITTER_NAME="jdoe",
               GIT_COMMITTER_EMAIL="jdoe@example.edu", GIT_AUTHOR_DATE=COMMITTED, GIT_COMMITTER_DATE=COMMITTED)
for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "lab 02"]):
    subprocess.run(["git", "-C", os.path.join(workspace, "submission")] + args, env=git_env, check=True)

env = dict(os.environ)
shim = os.path.join(work, "shim")
os.makedirs(shim)
if not shutil.which("sudo"):  # root without sudo (a container): sudo is the command itself
    with open(os.path.join(shim, "sudo"), "w") as f:
        f.write('#!/bin/sh\nexec "$@"\n')
    os.chmod(os.path.join(shim, "sudo"), 0o755)
# GitHub's CLI, standing in: `gh release view` finds no release, every call is
# recorded, one argument a line, and the files it would upload must exist.
gh_log = os.path.join(work, "gh-calls.txt")
with open(os.path.join(shim, "gh"), "w") as f:
    f.write('#!/bin/sh\nprintf "%%s\\n" "$@" "--" >> "%s"\n[ "$2" = view ] && exit 1\n'
            'for a in "$@"; do case "$a" in results/*) [ -f "$a" ] || { echo "gh: no $a" >&2; exit 1; } ;; esac; done\n'
            % gh_log)
os.chmod(os.path.join(shim, "gh"), 0o755)
env["PATH"] = shim + os.pathsep + env["PATH"]
summary_file = os.path.join(work, "step-summary.md")
env_file = os.path.join(work, "github-env")
open(summary_file, "w").close()
env.update({"GITHUB_WORKSPACE": workspace, "GITHUB_STEP_SUMMARY": summary_file, "CI": "true",
            "RUNNER_TEMP": os.path.join(work, "runner-temp"), "GITHUB_ENV": env_file,
            "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_SHA": SHA, "GITHUB_REF": CONTEXT["github.ref"],
            "GITHUB_SERVER_URL": "https://github.com", "GITHUB_ACTOR": "someone-else"})
for name in ("CLASSROOM", "ASSIGNMENT", "OWNER", "ASSIGNMENT_TYPE", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL", "REVIEW_URL"):
    env.pop(name, None)  # only what the workflow sets
os.makedirs(env["RUNNER_TEMP"])
shell = (cpu.get("defaults", {}).get("run", {}).get("shell"))
expect(shell == "bash", "grade.yml's run steps use bash (GitHub: bash --noprofile --norc -eo pipefail)", shell)


def run_step(step, extra_env=None):
    """Runs one run: step as GitHub does; returns (exit status, output)."""
    script = os.path.join(env["RUNNER_TEMP"], "step.sh")
    with open(script, "w") as f:
        f.write(substitute(step["run"]))
    step_env = dict(env)
    step_env.update({k: substitute(str(v)) for k, v in step.get("env", {}).items()})
    step_env.update(extra_env or {})
    open(env_file, "w").close()
    p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                       cwd=os.path.join(workspace, step.get("working-directory", ".")), env=step_env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # As the runner does: NAME=value lines in $GITHUB_ENV reach the later steps.
    with open(env_file) as f:
        env.update(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    return p.returncode, p.stdout


job_failed = False
outputs = {}  # a run step's output by its name
for step in cpu_job["steps"]:
    name = step.get("name", step.get("uses", step.get("run", "")))
    if not condition(step.get("if"), job_failed):
        note("----  %s: skipped (if: %s)" % (name, step.get("if", "success()")))
        continue
    uses = step.get("uses", "")
    with_ = step.get("with", {})
    if uses.startswith("actions/checkout@"):
        path = os.path.join(workspace, with_["path"])
        what = "the copy of the kit" if with_.get("repository") else "the export"
        ok = os.path.isfile(os.path.join(path, "scan-labs"))
        note("----  %s: emulated: %s/ is %s" % (name, with_["path"], what))
    elif uses.startswith("actions/upload-artifact@"):
        path = os.path.join(workspace, with_["path"])
        ok = os.path.isdir(path) and bool(os.listdir(path))
        note("----  %s: emulated: %s holds %s" % (name, with_["path"], sorted(os.listdir(path)) if ok else "nothing"))
    elif uses.startswith("github/codeql-action/upload-sarif@"):
        # What code scanning would be sent: SARIF it accepts, each path a file
        # of the checkout with the line it names.
        sarif = os.path.join(workspace, with_["sarif_file"])
        root = substitute(with_["checkout_path"])
        found = sarif_schema.problems(json.load(open(sarif)), root) if os.path.isfile(sarif) else ["no " + sarif]
        ok = not found
        note("----  %s: emulated: %s for category %s, paths relative to %s: %s" % (
            name, with_["sarif_file"], with_.get("category"), os.path.relpath(root, workspace),
            "valid SARIF 2.1.0, as GitHub requires it" if ok else "\n".join(found)))
        if os.path.isfile(sarif):
            text = open(sarif).read().splitlines()
            note("results.sarif%s:\n" % (", its first 200 lines" if len(text) > 200 else "") + "\n".join(text[:200]))
    elif "run" in step:
        note("----  %s: run: %s" % (name, step["run"].strip().replace("\n", "\n           ")))
        rc, out = run_step(step)
        outputs[name] = out
        note(out.rstrip())
        ok = rc == 0
        note("----  %s: exit %d" % (name, rc))
    else:
        raise ValueError("the test cannot run step %r" % step)
    expect(ok, "step: " + name)
    job_failed = job_failed or not ok

# What the run produced.
results = os.path.join(workspace, "results", "results.json")
if expect(os.path.isfile(results), "results/results.json exists"):
    with open(results) as f:
        doc = json.load(f)
    labs = sorted({t["tags"][0] for t in doc.get("tests", []) if t.get("tags")})
    expect(labs == LABS, "results.json holds every lab", labs)
    # The stubs score 0, but lab 05's, which gives the tile scan: its one-tile
    # datasets come out right; lab 02's race costs its safety's race quarter
    # (the values come out right on the emulator). So submission/ was graded,
    # not the reference.
    points = {lab: sum(t.get("score", 0) for t in doc.get("tests", []) if t.get("tags", [""])[0] == lab) for lab in LABS}
    safety = {lab: [sum(t.get(k, 0) for t in doc.get("tests", []) if t.get("tags") == [lab, "safety"])
                    for k in ("score", "max_score")] for lab in LABS}
    expect(all(points[LABS[i]] == 0 for i in (0, 2, 3)) and 0 < points[LABS[4]] < 45
           and safety[LABS[1]][1] > 0 and safety[LABS[1]][0] == 0.75 * safety[LABS[1]][1],
           "the stubs of the export score 0 in labs 01, 03 and 04 and part of lab 05, lab 02 (the missing barrier) "
           "3/4 of its safety points (so submission/ was graded, not the reference): %s, lab 02 safety %s"
           % (points, safety[LABS[1]]))
    # The hidden datasets are named by number in everything the student can
    # read (the results the workflow uploads, its log), never by seed; the
    # header says the workflow's secret drew them.
    text = open(os.path.join(workspace, "results", "feedback.txt")).read()
    expect(re.search(r"hidden datasets a lab drawn from SCAN_GRADE_SECRET, named by number until grades are published",
                     text.splitlines()[0] if text else ""),
           "the hidden datasets were drawn from the SCAN_GRADE_SECRET the workflow passed", text[:300])
    leaks = []
    for secret in (CONTEXT["secrets.SCAN_GRADE_SECRET"], None):
        seeds = {str(seed) for *_, seed in hidden.hidden_datasets(os.path.join(kit, "grader", "rubric.json"), secret)}
        for root, _, names in os.walk(os.path.join(workspace, "results")):
            for name in names:
                body = open(os.path.join(root, name), errors="replace").read()
                leaks += ["%s: %s" % (name, seed) for seed in seeds if seed in body]
    expect(not leaks, "no results file names a hidden dataset's seed", leaks)
result = os.path.join(workspace, "results", "result.json")
if expect(os.path.isfile(result), "results/result.json exists"):
    found = classroom50_schema.check_text(open(result).read())
    expect(not found, "results/result.json is in Classroom 50's format", "\n".join(found))
    with open(result) as f:
        doc = json.load(f)
    tag = doc.get("submission", "")
    expect((doc.get("classroom"), doc.get("assignment"), doc.get("owner")) == (CLASSROOM, ASSIGNMENT, OWNER)
           and re.fullmatch(r"submit/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-" + SHA[:7], tag)
           and doc.get("commit") == "https://github.com/%s/commit/%s" % (REPOSITORY, SHA)
           and doc.get("release") == "https://github.com/%s/releases/tag/%s" % (REPOSITORY, tag.replace("/", "%2F")),
           "result.json names the submission: classroom and assignment from .classroom50.yaml, the owner from the "
           "repository's name, the submit/ tag, the commit and the release",
           {k: doc.get(k) for k in ("classroom", "assignment", "owner", "submission", "commit", "release")})
    expect(sorted({t.get("lab") for t in doc.get("tests", [])}) == LABS, "result.json holds every lab")
    expect(doc.get("datetime") == COMMITTED_UTC and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc.get("graded_at", ""))
           and doc.get("graded_at") != COMMITTED_UTC,
           "result.json's datetime is the commit's committer date in UTC, graded_at the grading time",
           {k: doc.get(k) for k in ("datetime", "graded_at")})
    calls = open(gh_log).read().split("--\n") if os.path.isfile(gh_log) else []
    create = [c.splitlines() for c in calls if c.startswith("release\ncreate\n")]
    expect(len(create) == 1 and create[0][2] == tag and "results/result.json" in create[0]
           and create[0][create[0].index("--target") + 1] == SHA and "results/summary.md" in create[0],
           "the release step published result.json on the submission's tag, at the graded commit, the points per lab as "
           "its notes", calls)
# The annotation step: lab 02's race on its line, the worst first, within the limit.
annotate_out = outputs.get(next(s.get("name") for s in cpu_job["steps"] if "annotations.py" in s.get("run", "")), "")
commands = [l for l in annotate_out.splitlines() if l.startswith("::")]
levels = [l[2:].split(" ", 1)[0] for l in commands]
expect(any(re.fullmatch(RACE, l) for l in commands),
       "the annotation step annotates labs/02-brent-kung/scan.cu line 25 with lab 02's race", annotate_out or "no output")
# The stubs' findings too (lab 01's stub races and skips a barrier), in
# results.sarif's order: the worst first, undefined behaviour leading.
sarif_path = os.path.join(workspace, "results", "results.sarif")
found = json.load(open(sarif_path))["runs"][0]["results"] if os.path.isfile(sarif_path) else []
ranks = [2 if r["level"] == "warning" else 1 - r["properties"]["undefinedBehavior"] for r in found]
# A finding that names no line (marked wholeFile) annotates the file alone.
where = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
          None if r["locations"][0].get("properties", {}).get("wholeFile") is True
          else r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in found]
shown = [re.match(r"::\w+ file=([^,:]*)(?:,line=(\d+))?[,:]", l).groups() for l in commands if " file=" in l]
expect(found and ranks == sorted(ranks) and [(f, int(n) if n else None) for f, n in shown] == where[:len(shown)]
       and levels.count("error") <= 10 and levels.count("warning") <= 10,
       "annotations in results.sarif's order, the worst first (undefined behaviour, other errors, warnings), at most "
       "10 of a level: %s" % list(zip(levels, shown)), annotate_out)

summary = open(summary_file).read()
rows = [l for l in summary.splitlines() if l.startswith("|")]
lab_rows = [lab for lab in LABS if any(re.match(r"\|\s*%s\s*\|" % re.escape(lab), r) for r in rows)]
expect(len(rows) >= 2 + len(LABS) and re.match(r"\|[:\- |]+\|$", rows[1] if len(rows) > 1 else "") and lab_rows == LABS,
       "the step summary has the points table, a row per lab", "\n".join(rows) or summary[:2000])

ignored = [l for l in summary.splitlines() if "ignored (only" in l]
expect(not ignored, "the grader finds nothing of the untouched export to ignore (its README.md and .gitignore are "
       "the kit's student ones)", "\n".join(ignored))

# The first step stops a repository whose variable is not set, saying what to set.
check = next(s for s in cpu_job["steps"] if "SCAN_LABS_KIT" in str(s.get("env", {})) and "run" in s)
rc, out = run_step(check, {"SCAN_LABS_KIT": ""})
expect(rc != 0 and "::error::" in out and "SCAN_LABS_KIT" in out,
       "'%s' fails without the variable, naming it: exit %d" % (check["name"], rc), out)
finish()
