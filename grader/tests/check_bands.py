#!/usr/bin/env python3
"""Checks graded submissions against asserted score bands.

usage: check_bands.py BANDS RESULTS_DIR

BANDS lines: `submission lab component min max [on]`, percentages of the
component's points (lab `*` is every lab); `on` is `gpu` for a band that holds
only where the grader had a GPU (the hardware can expose a race that the
emulator's in-order threads never do), `emu` for one that holds only without
it, and `any` (the default) for both. Component `total` is the lab's total without
timing, so one band holds on every backend; a `timing` band is checked only
where timing was gradable (a GPU) and is reported as skipped elsewhere. Each
submission's scores are read from RESULTS_DIR/<submission>/results.json, the
Gradescope file, whose per-test tags are [lab, component]. Prints one line
per band and `N passed, N failed, N skipped`; exits 1 on any miss.
"""
import json
import re
import sys
from collections import defaultdict


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


def main():
    bands_path, results_dir = sys.argv[1:3]
    passed = failed = skipped = 0
    for number, line in enumerate(open(bands_path), 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        submission, lab, component, low, high = fields[:5]
        on = fields[5] if len(fields) > 5 else "any"
        try:
            results = json.load(open(f"{results_dir}/{submission}/results.json"))
            scores = lab_scores(results)
        except (OSError, ValueError, KeyError) as e:
            print(f"FAIL  {submission}: no readable results.json ({e})")
            failed += 1
            continue
        if on != "any" and (on == "gpu") != graded_on_gpu(results):
            continue  # a band for the other kind of machine
        labs = [l for l in scores if lab == "*" or l.startswith(lab)]
        if not labs:
            print(f"FAIL  {bands_path}:{number}: no lab {lab} in {submission}'s results")
            failed += 1
        for name in labs:
            score, most = scores[name][component]
            if component == "timing" and not most:
                print(f"skip  {submission:28} {name:16} {component:12}  not gradable here (no GPU)")
                skipped += 1
                continue
            percent = 100.0 * score / most if most else 0.0
            ok = float(low) - 0.01 <= percent <= float(high) + 0.01
            print(f"{'ok  ' if ok else 'FAIL'}  {submission:28} {name:16} {component:12} {percent:6.1f}%  band {low}-{high}")
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
