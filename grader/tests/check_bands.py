#!/usr/bin/env python3
"""Checks graded submissions against asserted score bands.

usage: check_bands.py BANDS RESULTS_DIR

BANDS lines: `submission lab component min max`, percentages of the component's
points (component `total` is the lab's total; lab `*` is every lab). Each
submission's scores are read from RESULTS_DIR/<submission>/results.json, the
Gradescope file, whose per-test tags are [lab, component]. Prints one line
per band and `N passed, N failed`; exits 1 on any miss.
"""
import json
import sys
from collections import defaultdict


def lab_scores(results):
    """{lab: {component: [score, max]}} from a Gradescope results.json."""
    scores = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))
    for test in results["tests"]:
        lab, component = test["tags"]
        for key in (component, "total"):
            scores[lab][key][0] += test["score"]
            scores[lab][key][1] += test["max_score"]
    return scores


def main():
    bands_path, results_dir = sys.argv[1:3]
    passed = failed = 0
    for number, line in enumerate(open(bands_path), 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        submission, lab, component, low, high = fields
        try:
            scores = lab_scores(json.load(open(f"{results_dir}/{submission}/results.json")))
        except (OSError, ValueError, KeyError) as e:
            print(f"FAIL  {submission}: no readable results.json ({e})")
            failed += 1
            continue
        labs = [l for l in scores if lab == "*" or l.startswith(lab)]
        if not labs:
            print(f"FAIL  {bands_path}:{number}: no lab {lab} in {submission}'s results")
            failed += 1
        for name in labs:
            score, most = scores[name][component]
            percent = 100.0 * score / most if most else 0.0
            ok = float(low) - 0.01 <= percent <= float(high) + 0.01
            print(f"{'ok  ' if ok else 'FAIL'}  {submission:28} {name:16} {component:12} {percent:6.1f}%  band {low}-{high}")
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
