#!/usr/bin/env python3
"""digest.py TESTLOG.json: what `./scan-labs test` shows of the failed tests.
digest.py --passed-labs TESTLOG.json: the labs (01 ...) whose tests all passed.
digest.py --skipped TESTLOG.json: why each lab's tests were skipped, once per
lab (no GPU for the cuda backend, or a scan.cu the emulator cannot run), and
why each other skipped test or TAP check was (TAP's reason, else its output's
last line).

Meson's --print-errorlogs prints every failed test's whole output, and a lab's
classes fail for the same problems: a stub's lab 01 printed its two findings
in full five times. Here, per lab suite, the first failed test's output is
shown whole (each problem once, at its first dataset, and what to fix first)
and each later one by its lines per failing dataset (`  FAIL  ...`) and
its summary of what to fix first;
a failed test of any other suite is shown whole. Everything stays in
meson-logs/testlog.txt and the details files the summaries name.
"""
import json
import re
import sys

BAD = ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS")


def lab_of(test):
    """The lab ("01") whose suite program the test ran, or None: by the
    program, since Meson versions name tests differently in testlog.json."""
    m = re.search(r"lab([0-9]{2})-tests$", (test.get("command") or [""])[0])
    return m.group(1) if m else None


def passed_labs(tests):
    verdicts = {}
    for test in tests:
        lab = lab_of(test)
        if lab is not None:
            verdicts.setdefault(lab, []).append(test.get("result") == "OK")
    print(" ".join(lab for lab, ok in sorted(verdicts.items()) if all(ok)))
    return 0


# TAP's skips: the whole test's ("1..0 # SKIP why") and a check's ("ok 3 - what # SKIP why").
TAP_SKIP = re.compile(r"^1\.\.0 # SKIP (.*)$", re.M)
TAP_SKIPPED_CHECK = re.compile(r"^ok [0-9]+ - (.*?) # SKIP (.*)$", re.M)


def skipped(tests):
    shown = set()
    for test in tests:
        lab = lab_of(test)
        text = (test.get("stdout") or "").strip()
        if lab is None and test.get("result") != "SKIP":  # a TAP test that ran with checks skipped: a line per reason
            checks = {}
            for what, why in TAP_SKIPPED_CHECK.findall(text):
                checks.setdefault(why, []).append(what)
            for why, whats in checks.items():
                print("skipped: %s: %s: %s" % (test.get("name", "?"), whats[0] if len(whats) == 1 else
                                               "%d checks" % len(whats), why))
            continue
        if test.get("result") != "SKIP" or lab in shown:
            continue
        if lab is None:  # TAP's reason, else its line that says SKIP, else its last
            lines = text.splitlines() or ["(it printed no reason)"]
            tap = TAP_SKIP.search(text)
            reason = tap.group(1) if tap else next((l for l in lines if l.startswith("SKIP")), lines[-1])
            print("skipped: %s: %s" % (test.get("name", "?"), reason[len("SKIP: "):] if reason.startswith("SKIP: ") else reason))
            continue
        shown.add(lab)
        reason = text[len("SKIP: "):] if text.startswith("SKIP: ") else text
        print("lab %s: its tests were skipped: %s" % (lab, reason))
    return 0


def main():
    args = sys.argv[1:]
    tests = [json.loads(line) for line in open(args[-1]) if line.strip()]
    if args[0] == "--passed-labs":
        return passed_labs(tests)
    if args[0] == "--skipped":
        return skipped(tests)
    seen = set()
    for test in tests:
        if test.get("result") not in BAD:
            continue
        name = test.get("name", "?")
        out = (test.get("stdout") or "").rstrip("\n")
        lab = lab_of(test)
        print("=== %s: %s" % (name, test["result"]))
        if lab is None or lab not in seen:
            print(out)
            if lab is not None:
                seen.add(lab)
        else:
            lines = out.split("\n")
            fails = [l for l in lines if l.startswith("  FAIL  ")]
            start = next((i for i, l in enumerate(lines) if l.startswith("What to fix first")), None)
            summary = [] if start is None else [l for l in lines[start:] if not l.startswith(("[doctest]", "====="))]
            summary = [l.replace("shown in full above at its first dataset", "shown in full in this lab's first failed test")
                       for l in summary]
            print("\n".join(fails + summary) if fails else out)
            print("(all of its output: build/meson-logs/testlog.txt)")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
