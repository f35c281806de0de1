#!/usr/bin/env python3
"""Checks that no output a student can read names a hidden dataset.

usage: check_hidden_withheld.py RUBRIC PATH... [--secret S]

Every file under each PATH (a results folder, a log) is searched for each
hidden dataset of RUBRIC (its seeds drawn as the grader draws them, from S
where given, as SCAN_GRADE_SECRET): its seed, as a number standing alone,
and its size as `n=SIZE` (a size alone may be an index in a table). Folders named `work` (the grader's scratch, not
an output) are skipped. Prints each leak with its file and line; last line
`N files read, N leaks`; exits 1 on any leak, 2 when nothing was read.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "course", "tests"))
import hidden  # noqa: E402


def files_under(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
        if os.path.basename(os.path.normpath(path)) == "work":
            continue
        for root, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if d != "work"]
            for name in names:
                yield os.path.join(root, name)


def main(argv):
    secret = None
    if "--secret" in argv:
        i = argv.index("--secret")
        secret = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rubric, paths = argv[0], argv[1:]
    datasets = hidden.hidden_datasets(rubric, secret)
    patterns = []
    for lab, dist, n, seed in datasets:
        patterns.append((re.compile(r"(?<![\d.])%d(?![\d.])" % seed), "the seed of %s's hidden %s n=%d" % (lab, dist, n)))
        # A size alone may be any index of a public dataset's table: only "n=SIZE" names a dataset.
        patterns.append((re.compile(r"\bn ?= ?%d(?![\d.])" % n), "the size of %s's hidden %s n=%d" % (lab, dist, n)))
    read = leaks = 0
    for path in files_under(paths):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as e:
            print("cannot read %s: %s" % (path, e))
            continue
        read += 1
        for number, line in enumerate(lines, 1):
            for pattern, what in patterns:
                if pattern.search(line):
                    leaks += 1
                    print("LEAK  %s:%d: %s: %s" % (path, number, what, line.strip()[:160]))
    print("%d files read, %d leaks" % (read, leaks))
    return 2 if read == 0 else 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
