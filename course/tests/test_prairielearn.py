#!/usr/bin/env python3
"""test_prairielearn.py SCAN_GRADE KIT SCRATCH: PrairieLearn's external grader.

Runs course/prairielearn/entrypoint on a mock of PrairieLearn's /grade
(docs/externalGrading.md, "The Grading Process": student/, data/data.json,
serverFilesCourse/scan-labs, results/ made by the entrypoint) for lab 02 on
the emulator, with SCAN_GRADE (the build folder's) in place of a build: the
reference (score 1), the stub (score 0), code that does not compile (score
0, the compiler's error shown), an empty upload (not gradable, saying so), a
question that names no lab and a grader that crashes (not gradable, the
cause named). Each results.json must pass prairielearn_results.py (a replica
of PrairieLearn's own checks) and name no hidden dataset
(grader/tests/check_hidden_withheld.py), nor promise one "after grades are
published", a step PrairieLearn does not have. The question's info.json is
checked against PrairieLearn's externalGradingOptions. The cases share one
work folder (SCRATCH/work): the reference's build is made once.
TAP on standard output (grader/tests/tap.py); exit 1 on any failure."""
import json
import os
import shutil
import subprocess
import sys

scan_grade, kit, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(1, os.path.join(kit, "grader", "tests"))
import prairielearn_results  # noqa: E402
from tap import expect, finish, note  # noqa: E402

entrypoint = os.path.join(kit, "course", "prairielearn", "entrypoint")
LAB = "02-brent-kung"
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)

# info.json's externalGradingOptions as PrairieLearn's schema has them
# (apps/prairielearn/src/schemas/schemas/infoQuestion.json, commit 88fb855:
# image required, no other keys; timeout an integer; docs: at most 600 s).
with open(os.path.join(kit, "course", "prairielearn", "question", "info.json")) as f:
    info = json.load(f)
options = info.get("externalGradingOptions", {})
known = {"comment", "enabled", "image", "entrypoint", "serverFilesCourse", "timeout", "enableNetworking", "environment"}
expect(info.get("gradingMethod") == "External" and isinstance(options.get("image"), str) and set(options) <= known
       and isinstance(options.get("timeout"), int) and 0 < options["timeout"] <= 600,
       "info.json: gradingMethod External, an image, externalGradingOptions' keys, a timeout within 600 s", options)
expect(options.get("serverFilesCourse") == ["scan-labs/"] and options.get("entrypoint") ==
       "/grade/serverFilesCourse/scan-labs/course/prairielearn/entrypoint",
       "info.json: the kit from serverFilesCourse/scan-labs, its entrypoint run from there", options)


def mock_grade(name, files, lab="02"):
    """SCRATCH/NAME, a /grade as PrairieLearn lays it out; `files` {name: text} the upload."""
    root = os.path.join(scratch, name)
    for d in ("student", "data", "serverFilesCourse", "tests"):
        os.makedirs(os.path.join(root, d))
    os.symlink(kit, os.path.join(root, "serverFilesCourse", "scan-labs"))
    for path, text in files.items():
        with open(os.path.join(root, "student", path), "w") as f:
            f.write(text)
    params = {} if lab is None else {"lab": lab}
    with open(os.path.join(root, "data", "data.json"), "w") as f:
        json.dump({"params": params, "correct_answers": {}, "submitted_answers": {}, "gradable": True}, f)
    return root


def grade(name, files, lab="02", grader=scan_grade):
    """The entrypoint on a mock /grade: its results.json, parsed, once it passed the common checks."""
    root = mock_grade(name, files, lab)
    env = dict(os.environ, SCAN_GRADE=grader, SCAN_PL_WORK=os.path.join(scratch, "work"))
    run = subprocess.run([entrypoint, root], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log = os.path.join(scratch, name + ".log")
    with open(log, "w") as f:
        f.write(run.stdout)
    results = os.path.join(root, "results", "results.json")
    expect(run.returncode == 0 and os.path.isfile(results), f"{name}: exit 0 and a results.json",
           f"exit {run.returncode}\n" + run.stdout[-3000:])
    if not os.path.isfile(results):
        return {}
    with open(results, encoding="utf-8") as f:
        text = f.read()
    problems = prairielearn_results.check_text(text)
    expect(not problems, f"{name}: results.json passes PrairieLearn's checks", "\n".join(problems))
    leak = subprocess.run([sys.executable, os.path.join(kit, "grader", "tests", "check_hidden_withheld.py"),
                           os.path.join(kit, "grader", "rubric.json"), results, log],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    expect(leak.returncode == 0 and "published" not in text,
           f"{name}: names no hidden dataset and promises nothing after publication", leak.stdout + text[:2000])
    return json.loads(text) if not problems else {}


def read(path):
    with open(os.path.join(kit, path)) as f:
        return f.read()


r = grade("reference", {"scan.cu": read(f"reference/{LAB}/scan.cu")})
expect(r.get("gradable") is True and r.get("score") == 1, f"reference: gradable, score 1 (got {r.get('score')})")
hidden = [t for t in r.get("tests", []) if "hidden" in t.get("description", "")]
expect(len(hidden) == 1 and hidden[0]["points"] == hidden[0]["max_points"] > 0,
       "reference: the hidden datasets' test gives its points", hidden)

r = grade("stub", {"scan.cu": read(f"labs/{LAB}/scan.cu")})
expect(r.get("gradable") is True and r.get("score") == 0, f"stub: gradable, score 0 (got {r.get('score')})")

r = grade("no-compile", {"scan.cu": read(f"reference/{LAB}/scan.cu").replace(";", "", 3)})
outputs = "\n".join(t.get("output", "") for t in r.get("tests", []))
expect(r.get("gradable") is True and r.get("score") == 0 and "error" in outputs,
       "no-compile: gradable, score 0, the compiler's error in a test's output", r.get("output"))

r = grade("empty", {})
expect(r.get("gradable") is False and any("empty folder" in e for e in r.get("format_errors", [])),
       "empty: not gradable, format_errors says the upload is empty", r.get("format_errors"))

r = grade("no-lab", {"scan.cu": "x"}, lab=None)
expect(r.get("gradable") is False and "params.lab" in r.get("message", ""),
       "no-lab: not gradable, the message names data.json's params.lab", r.get("message"))

crash = os.path.join(scratch, "crashing-scan-grade")
with open(crash, "w") as f:
    f.write("#!/bin/sh\necho 'scan-grade: about to crash'\nkill -SEGV $$\n")
os.chmod(crash, 0o755)
r = grade("crash", {"scan.cu": "x"}, grader=crash)
expect(r.get("gradable") is False and "the grader crashed (signal 11)" in r.get("message", "")
       and "scan-grade: about to crash" in r.get("output", ""),
       "crash: not gradable, the message names the signal, the output the grader's last words", r)
note("the cases' logs and mock /grade folders: " + scratch)
finish()
