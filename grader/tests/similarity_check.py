#!/usr/bin/env python3
"""The class report's similarity check (grader/similarity.py) on classes whose answers are known.

usage: similarity_check.py KIT

1. tests/similarity/: six honest submissions and two disguised copies
   (README.md there): the check flags exactly the planted pairs, in labs 03
   and 04, and no honest pair.
2. Comparing every pair finds what the check finds where it compares only
   the pairs its fingerprint containment leaves possible: on that class and
   on every lab's files of the grader's corpus.
3. A job the script cannot read is refused with exit 2.
Exits 77 (a skip, with a message) where copydetect is not installed.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

PLANTED = {("cai", "gil"), ("eun", "hal")}


def job(kit, classes, exhaustive=False):
    labs = []
    for lab, files in classes.items():
        labs.append({"lab": lab, "base": [str(kit / "labs" / lab / "scan.cu"), str(kit / "reference" / lab / "scan.cu")],
                     "files": {name: str(path) for name, path in files.items()}})
    return {"threshold": 0.6, "min_tokens": 60, "pairs": 10, "labs": labs, "exhaustive": exhaustive}


def run(kit, spec, scratch):
    path, out = Path(scratch) / "job.json", Path(scratch) / "out.json"
    path.write_text(json.dumps(spec))
    done = subprocess.run([sys.executable, str(kit / "grader" / "similarity.py"), str(path), str(out)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"not ok: similarity.py exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(out.read_text())


def main():
    kit = Path(sys.argv[1]).resolve()
    try:
        import copydetect  # noqa: F401
    except ImportError:
        print("skipped: copydetect is not installed for this python3 (python3 -m pip install copydetect)")
        return 77
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok: " if ok else "not ok: ") + what)
        failures += not ok

    fixture = kit / "grader" / "tests" / "similarity" / "class"
    students = sorted(p.name for p in fixture.iterdir() if p.is_dir())
    classes = {lab: {s: fixture / s / "labs" / lab / "scan.cu" for s in students} for lab in ("03-exclusive", "04-hierarchical")}
    with tempfile.TemporaryDirectory() as scratch:
        result = run(kit, job(kit, classes), scratch)
        for lab in result["labs"]:
            flagged = {tuple(sorted(p["a"] + p["b"])) for p in lab["pairs"] if p["flagged"]}
            honest = [p for p in lab["pairs"] if tuple(sorted(p["a"] + p["b"])) not in PLANTED]
            check(flagged == PLANTED, f"lab {lab['lab']}: flagged {sorted(flagged)}, the planted copies {sorted(PLANTED)}")
            check(lab["flagged"] == len(PLANTED), f"lab {lab['lab']}: {lab['flagged']} flagged in all")
            top = [tuple(sorted(p["a"] + p["b"])) for p in lab["pairs"][:2]]
            check(set(top) == PLANTED, f"lab {lab['lab']}: the two most alike pairs are the copies: {top}")
            for p in lab["pairs"]:
                if tuple(sorted(p["a"] + p["b"])) in PLANTED:
                    print(f"   {p['a'][0]}-{p['b'][0]}: {p['similarity']:.3f} ({p['tokens']} tokens), "
                          f"{len(p['lines_a'])} and {len(p['lines_b'])} runs of lines marked")
                    check(p["lines_a"] and p["lines_b"], f"lab {lab['lab']}: the copy's shared lines are given on both sides")
            print(f"   the most alike pair besides the copies: {honest[0]['a'][0]}-{honest[0]['b'][0]} {honest[0]['similarity']:.3f}")

        # The pruned comparison against every pair, on the fixture and the corpus.
        corpus = {}
        for path in sorted((kit / "grader" / "tests" / "corpus").glob("*/labs/*/scan.cu")):
            corpus.setdefault(path.parent.name, {})[path.parents[2].name] = path
        for name, spec in (("the planted class", classes), ("the corpus", corpus)):
            pruned, full = run(kit, job(kit, spec), scratch), run(kit, job(kit, spec, exhaustive=True), scratch)
            for a, b in zip(pruned["labs"], full["labs"]):
                same = [(p["a"], p["b"], p["similarity"]) for p in a["pairs"]] == [(p["a"], p["b"], p["similarity"]) for p in b["pairs"]]
                check(same and a["flagged"] == b["flagged"],
                      f"{name}, lab {a['lab']}: the pairs shown and {a['flagged']} flagged as comparing all "
                      f"{b['pairs_compared']} pairs finds ({a['pairs_compared']} compared)")

        # A job it cannot read.
        bad = Path(scratch) / "bad.json"
        bad.write_text("{\"labs\": 3")
        done = subprocess.run([sys.executable, str(kit / "grader" / "similarity.py"), str(bad), str(Path(scratch) / "o.json")],
                              capture_output=True, text=True)
        check(done.returncode == 2 and "cannot read the job" in done.stderr, f"a bad job: exit {done.returncode}, {done.stderr.strip()}")
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
