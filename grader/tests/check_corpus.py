#!/usr/bin/env python3
"""Checks graded submissions against the expectations each carries.

usage: check_corpus.py RESULTS_DIR CORPUS_DIR
       check_corpus.py RESULTS_DIR --expect FILE NAME [--bands-only]

The first form checks every entry of CORPUS_DIR against its results folder
RESULTS_DIR/<entry>/, by the entry's expect.txt (an entry without one is a
failure: every entry says what it must get); the second checks
RESULTS_DIR/NAME by FILE (the kit's reference and stubs, an entry graded
again as an archive, a results.json alone with --bands-only).

An expect file's lines (`#` starts a comment):
  band LAB COMPONENT MIN MAX [gpu|emu]   the component's score in percent of
        its points, for lab LAB ("02"; "*" every lab); COMPONENT correctness,
        safety, divergence, timing or total (total leaves timing out, so it
        holds with and without a GPU); `gpu` or `emu` for a band that holds
        only where the grader had a GPU, or only where it had none; a timing
        band is skipped where timing was not gradable
  shows FILE TEXT      FILE (in the results folder) holds TEXT
  lacks FILE TEXT      FILE does not hold TEXT
  matches FILE REGEX   a line of FILE matches REGEX (Python's re.search)
FILE `gradebook.csv` means this submission's row of RESULTS_DIR/gradebook.csv.
Bands read the Gradescope file, results.json, whose per-test tags are
[lab, component].

Output: TAP lines (`ok - ...`, `not ok - ...`, `# SKIP` for a timing band
not gradable here), then `# N passed, N failed, N skipped`; no plan line, so
a caller may add its own checks to the stream. Exits 1 on any failure.
"""
import json
import os
import re
import sys
from collections import defaultdict

passed = failed = skipped = 0


def tap(ok, what, skip=""):
    global passed, failed, skipped
    if skip:
        skipped += 1
        print(f"ok - {what} # SKIP {skip}")
    elif ok:
        passed += 1
        print(f"ok - {what}")
    else:
        failed += 1
        print(f"not ok - {what}")


def lab_scores(results):
    """{lab: {component: [score, max]}} from a Gradescope results.json."""
    scores = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))
    for test in results["tests"]:
        lab, component = test["tags"]
        for key in (component, "total") if component != "timing" else (component,):
            scores[lab][key][0] += test["score"]
            scores[lab][key][1] += test["max_score"]
    return scores


def graded_on_gpu(results):
    """The report's first line names its backends: "name (emu+cuda on ...)"."""
    m = re.search(r"\(([a-z+]+) on ", results.get("output", ""))
    return bool(m) and "cuda" in m.group(1).split("+")


def text_of(results_dir, name, file):
    """A results file's text, or the submission's gradebook row; None if absent."""
    if file == "gradebook.csv":
        try:
            rows = open(os.path.join(results_dir, "gradebook.csv"), encoding="utf-8").read().splitlines()
        except OSError:
            return None
        return "\n".join(r for r in rows if r.startswith(name + ","))
    try:
        return open(os.path.join(results_dir, name, file), encoding="utf-8", errors="replace").read()
    except OSError:
        return None


def check(results_dir, name, expect_path, bands_only=False):
    try:
        lines = open(expect_path, encoding="utf-8").read().splitlines()
    except OSError:
        tap(False, f"{name}: no expectations ({expect_path})")
        return
    results = None
    for number, line in enumerate(lines, 1):
        where = f"{os.path.basename(os.path.dirname(expect_path))}/{os.path.basename(expect_path)}:{number}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keyword, _, rest = line.strip().partition(" ")
        if keyword == "band":
            fields = rest.split()
            if len(fields) not in (4, 5) or (len(fields) == 5 and fields[4] not in ("gpu", "emu")):
                tap(False, f"{where}: not a band: {line.strip()}")
                continue
            lab, component, low, high = fields[:4]
            on = fields[4] if len(fields) == 5 else "any"
            if results is None:
                try:
                    results = json.load(open(os.path.join(results_dir, name, "results.json")))
                    scores = lab_scores(results)
                except (OSError, ValueError, KeyError) as e:
                    tap(False, f"{name}: no readable results.json ({e})")
                    return
            if on != "any" and (on == "gpu") != graded_on_gpu(results):
                continue  # a band for the other kind of machine
            labs = [l for l in scores if lab == "*" or l.startswith(lab)]
            if not labs:
                tap(False, f"{where}: no lab {lab} in {name}'s results")
            for lab_id in labs:
                score, most = scores[lab_id][component]
                what = f"{name} {lab_id} {component}"
                if component == "timing" and not most:
                    tap(True, what, "timing not gradable here (no GPU)")
                    continue
                percent = 100.0 * score / most if most else 0.0
                tap(float(low) - 0.01 <= percent <= float(high) + 0.01, f"{what} {percent:.1f}% in band {low}-{high}")
        elif keyword in ("shows", "lacks", "matches"):
            if bands_only:
                continue
            file, _, wanted = rest.strip().partition(" ")
            text = text_of(results_dir, name, file)
            what = f"{name}: {file} {keyword} {wanted[:90]}"
            if text is None:
                tap(False, f"{what} (no {file})")
            elif keyword == "shows":
                tap(wanted in text, what)
            elif keyword == "lacks":
                tap(wanted not in text, what)
            else:
                tap(re.search(wanted, text, re.M) is not None, what)
        else:
            tap(False, f"{where}: unknown keyword {keyword!r}")


def main(argv):
    if len(argv) == 3 and argv[2] != "--expect":
        results_dir, corpus = argv[1:3]
        for entry in sorted(os.listdir(corpus)):
            if os.path.isdir(os.path.join(corpus, entry)):
                check(results_dir, entry, os.path.join(corpus, entry, "expect.txt"))
    elif len(argv) in (5, 6) and argv[2] == "--expect" and argv[5:] in ([], ["--bands-only"]):
        check(argv[1], argv[4], argv[3], bands_only=len(argv) == 6)
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    print(f"# {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
