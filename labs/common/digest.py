#!/usr/bin/env python3
"""digest.py TESTLOG.json: what `./scan-labs test` shows of the failed tests.
digest.py --passed-labs TESTLOG.json: the labs (01 ...) whose tests all passed.
digest.py --skipped TESTLOG.json: why each lab's tests were skipped, once per
lab (no GPU for the cuda backend, or a scan.cu the emulator cannot run), and
why each other skipped test or TAP check was (TAP's reason, else its output's
last line).
digest.py --divergence TESTLOG.json: each lab's divergence target as its
suites measured it, once per lab.

Meson's --print-errorlogs prints every failed test's whole output, and a lab's
classes fail for the same problems: a stub's lab 01 printed its two findings
in full five times. Here, per lab suite, the first failed test's output is
shown whole (each problem once, at its first dataset, and what to fix first)
and each later one by its lines per failing dataset (`  FAIL  ...`) and
its summary of what to fix first;
a failed test of any other suite is shown whole. Everything stays in
meson-logs/testlog.txt and the details files the summaries name.

What a lab suite's test found comes from its results file (the suite's
--results-file, which Meson's command line for the test names:
labs/common/results.hpp has the schema), never from its printed text: a
test whose results file is missing (it crashed, or timed out, before writing
it) or unreadable is shown whole, with a line that says so.
"""
import json
import os
import re
import sys

BAD = ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS")
FORMAT = 1  # the results files' format this reads (results.hpp's kFormat)


def lab_of(test):
    """The lab ("01") whose suite program the test ran, or None: by the
    program, since Meson versions name tests differently in testlog.json."""
    m = re.search(r"lab([0-9]{2})-tests$", (test.get("command") or [""])[0])
    return m.group(1) if m else None


def results_path(test):
    """The results file the test's command names (--results-file), or None."""
    command = test.get("command") or []
    for i, arg in enumerate(command[:-1]):
        if arg == "--results-file":
            return command[i + 1]
    return None


def read_results(test):
    """(results, None), or (None, why there are none) for a test that names a
    results file; (None, None) for one that names none."""
    path = results_path(test)
    if path is None:
        return None, None
    try:
        # One left from an earlier run (the program died before it removed it)
        # is not this run's. Kernels stamp files with a coarse clock: a second's slack.
        if "starttime" in test and os.path.getmtime(path) < test["starttime"] - 1:
            return None, "its results file %s is from an earlier run" % path
        with open(path, encoding="utf-8", errors="replace") as f:
            results = json.load(f)
    except FileNotFoundError:
        return None, "its results file %s is missing: the test ended before writing it" % path
    except (OSError, ValueError) as e:
        return None, "its results file %s cannot be read: %s" % (path, e)
    if not isinstance(results, dict) or results.get("format") != FORMAT:
        return None, "its results file %s is not of format %d" % (path, FORMAT)
    return results, None


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def fail_lines(results):
    """The failing datasets' lines, as the suite prints them."""
    lines = []
    for d in results["datasets"]:
        if d["verdict"] != "fail":
            continue
        briefs = []
        for p in d["problems"]:
            if p["brief"] not in briefs:
                briefs.append(p["brief"])
        lines.append("  FAIL  %s on %s: %s" % (d["function"], d["dataset"], "; ".join(briefs)))
    return lines


def fix_first_lines(results):
    """What to fix first, as the suite prints it (triage.cpp), except that
    its problems are shown in full in the lab's first failed test."""
    fix = results.get("fix_first") or {"runs": [], "items": []}
    runs = fix["runs"]
    if not any(r["failed"] for r in runs):
        return []
    problems = [i for i in fix["items"] if i["kind"] == "problem"]
    failing = ", ".join(("%s on " % r["function"] if len(runs) > 1 else "on ") + "%d of %s"
                        % (r["failed"], plural(r["datasets"], "dataset")) for r in runs)
    lines = ["What to fix first: %s (%s)%s in full in this lab's first failed test"
             % (plural(len(problems), "distinct problem"), failing, ", shown" if len(problems) == 1 else ", each shown")]
    for number, item in enumerate(fix["items"], 1):
        lines.append("  %d. %s: %s" % (number, item["severity"], item["title"]))
        if item["kind"] == "problem":
            lines.append("     " + ("first seen: %s; same finding on %s" % (item["first"], plural(item["datasets"] - 1, "more dataset"))
                                    if item["datasets"] > 1 else "seen once: " + item["first"]))
    severities = {i["severity"] for i in fix["items"]}
    if {"undefined behaviour", "wrong result"} <= severities:
        lines.append("Undefined behaviour first: while it is there the values are a matter of chance, and fixing it may "
                     "fix them.")
    details, printed = results["details_file"], results["details_printed"]
    if details:
        lines.append("Every finding of every dataset: " + details + ("" if printed else " (or run again with --details)"))
    elif not printed:
        lines.append("Every finding of every dataset: run again with --details")
    return lines


def later_failure(results):
    """A later failed test of a lab: its failing datasets' lines and what to
    fix first, or None where no dataset failed (it is shown whole)."""
    try:
        fails = fail_lines(results)
        return "\n".join(fails + fix_first_lines(results)) if fails else None
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError("a field is missing or of another type (%s: %s)" % (type(e).__name__, e))


def failed(tests):
    seen = set()
    for test in tests:
        if test.get("result") not in BAD:
            continue
        name = test.get("name", "?")
        out = (test.get("stdout") or "").rstrip("\n")
        lab = lab_of(test)
        results, missing = read_results(test) if lab is not None else (None, None)
        print("=== %s: %s" % (name, test["result"]))
        if missing:
            print("(no results from this test: %s; its whole output follows)" % missing)
        if lab is None or lab not in seen or missing:
            print(out)
            if lab is not None:
                seen.add(lab)
        else:
            short = None
            if results is not None:
                try:
                    short = later_failure(results)
                except ValueError as e:
                    print("(no results from this test: its results file %s cannot be read: %s; its whole output follows)"
                          % (results_path(test), e))
            print(short if short is not None else out)
            print("(all of its output: build/meson-logs/testlog.txt)")
        print()
    return 0


def passed_labs(tests):
    """A lab passed where Meson says each of its tests did and each results file agrees."""
    verdicts = {}
    for test in tests:
        lab = lab_of(test)
        if lab is not None:
            ok = test.get("result") == "OK"
            if ok and results_path(test) is not None:
                results, _ = read_results(test)
                ok = results is not None and results.get("result") == "pass"
            verdicts.setdefault(lab, []).append(ok)
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
        results, _ = read_results(test)
        if results is not None and results.get("result") == "skip" and isinstance(results.get("why"), str):
            reason = results["why"].rstrip()
        else:  # no results file: what it printed
            reason = text[len("SKIP: "):] if text.startswith("SKIP: ") else text
        print("lab %s: its tests were skipped: %s" % (lab, reason))
    return 0


def divergence(tests):
    """Each lab's divergence target, once: its suites' tests each measured it."""
    shown = set()
    for test in tests:
        if lab_of(test) is None:
            continue
        results, _ = read_results(test)
        target = results.get("divergence_target") if results else None
        text = target.get("text") if isinstance(target, dict) else None
        if isinstance(text, str) and text and text not in shown:
            shown.add(text)
            print(text, end="" if text.endswith("\n") else "\n")
    return 0


def main():
    args = sys.argv[1:]
    tests = [json.loads(line) for line in open(args[-1]) if line.strip()]
    mode = {"--passed-labs": passed_labs, "--skipped": skipped, "--divergence": divergence}.get(args[0], failed)
    return mode(tests)


if __name__ == "__main__":
    sys.exit(main())
