#!/usr/bin/env python3
"""Pairs of students' lab files whose code is unusually alike, by copydetect.

usage: similarity.py JOB.json OUT.json

JOB.json (written by scan-grade, grader/intake/similarity.cpp):
  {"threshold": 0.6, "min_tokens": 60, "pairs": 10,
   "labs": [{"lab": "04-hierarchical", "base": [stub, reference, ...],
             "files": {"alice": "OUT/alice/code/04-hierarchical/scan.cu", ...}}]}
OUT.json: per lab the files compared, those with too little code of their
own to compare, and the `pairs` most alike pairs, each with both shares,
the tokens they share and the line ranges of the shared code in each file.

copydetect (PyPI) tokenizes each file with Pygments' CUDA lexer, replaces
every name by a placeholder (so renamed variables and functions match) and
fingerprints it by winnowing (so reordered functions match too); the base
code's fingerprints (the lab's stub and the kit's reference, the textbook's
kernels) are dropped from every file, so the skeleton all students share
does not count. A pair's similarity is the larger of its two shares: the
part of one file's own fingerprinted code found in the other. A pair is
flagged at `threshold` where it also shares at least `min_tokens` tokens,
so two near-empty files are not flagged for sharing what little they hold.

Exit status: 0 written; 3 copydetect is not installed; 2 bad usage or job.
"""
import bisect
import itertools
import json
import multiprocessing
import os
import sys
import time

NOISE = 25  # copydetect's default noise and guarantee thresholds: k-grams of 25 filtered characters
SHOWN = 50  # pairs listed a lab at most


def usage(message):
    print(f"similarity.py: {message}", file=sys.stderr)
    sys.exit(2)


def line_ranges(code, slices):
    """[[first, last], ...] (1-based, merged) lines of `code` that copied character slices cover."""
    starts = [0] + [k + 1 for k, c in enumerate(code) if c == "\n"]

    def line_of(offset):
        return bisect.bisect_right(starts, offset)

    ranges = []
    for begin, end in sorted(zip(slices[0], slices[1])):
        first, last = line_of(int(begin)), line_of(max(int(begin), int(end) - 1))
        if ranges and first <= ranges[-1][1] + 1:
            ranges[-1][1] = max(ranges[-1][1], last)
        else:
            ranges.append([first, last])
    return ranges


def fingerprint(args):
    """copydetect's fingerprint of one file, less the base code's; None where it cannot be read."""
    from copydetect import CodeFingerprint
    path, base = args
    try:
        return CodeFingerprint(path, NOISE, 1, base, language="cuda")
    except (OSError, UnicodeDecodeError):
        return None


def containment(prints):
    """[i, j]: the share of i's distinct fingerprints that j has too, for
    every pair in one product of matrices. compare_files (0.3 ms a pair)
    runs only on the pairs it leaves possible (see compare_lab)."""
    import numpy as np

    keys = [np.fromiter(fp.hash_idx.keys(), dtype=np.int64, count=len(fp.hash_idx)) for fp in prints]
    hashes = np.unique(np.concatenate(keys))
    has = np.zeros((len(prints), len(hashes)), dtype=np.float32)
    for row, k in enumerate(keys):
        has[row, np.searchsorted(hashes, k)] = 1
    shared = has @ has.T
    return shared / np.maximum(has.sum(axis=1), 1)[:, None]


_PRINTS = []  # the lab's fingerprints, for overlap() in forked workers


def overlap(pair):
    """compare_files' tokens shared and both shares for a pair of _PRINTS."""
    from copydetect import compare_files
    tokens, (share_a, share_b), _ = compare_files(_PRINTS[pair[0]], _PRINTS[pair[1]])
    return int(tokens), float(share_a), float(share_b)


def compare_lab(lab, threshold, min_tokens, keep, pool, workers=1, exhaustive=False):
    """The lab's comparison: identical files as one text with their students,
    then each pair of texts."""
    import numpy as np
    from copydetect import compare_files

    base = [h for fp in map(fingerprint, [(p, []) for p in lab.get("base", [])]) if fp for h in fp.hashes]
    base = np.unique(np.array(base, dtype=np.int64)) if base else []  # a base file the kit lacks: less is discounted
    texts, unread = {}, []  # the file's bytes -> [(student, path)]
    for student, path in sorted(lab["files"].items()):
        try:
            with open(path, "rb") as f:
                texts.setdefault(f.read(), []).append((student, path))
        except OSError:
            unread.append(student)
    units = list(texts.values())
    found = list((pool.map if pool else map)(fingerprint, [(u[0][1], base) for u in units]))
    identical, too_little, prints, owners = [], [], [], []
    for unit, fp in zip(units, found):
        students = [s for s, _ in unit]
        if fp is None:
            unread += students
        elif fp.token_coverage < min_tokens:
            too_little += students  # its own code, beyond the base, is too short to compare
        else:
            if len(students) > 1:
                identical.append({"students": students, "tokens": int(fp.token_coverage)})
            prints.append(fp)
            owners.append(students)
    pairs, compared = [], 0
    if len(prints) > 1:
        # A copy shares long runs of fingerprints, so its texts contain much
        # of each other: over the kit's corpus and an honest class, no pair of
        # similarity 0.5 or more shares under 0.28 of its distinct
        # fingerprints as much. Pairs under a fifth of the threshold are
        # compared only to fill the `keep` shown (the test similarity checks
        # that this finds what comparing every pair finds).
        share = containment(prints)
        likeness = np.maximum(share, share.T)
        candidates = sorted(((likeness[i, j], i, j) for i, j in itertools.combinations(range(len(prints)), 2)), reverse=True)
        if not exhaustive:
            candidates = [c for k, c in enumerate(candidates) if c[0] >= threshold / 5 or k < 3 * keep]
        compared = len(candidates)
        global _PRINTS
        _PRINTS = prints  # the workers forked below inherit them
        todo = [(i, j) for _, i, j in candidates]
        if len(todo) >= 1000 and workers > 1:
            with multiprocessing.get_context("fork").Pool(workers) as forked:
                shares = forked.map(overlap, todo, chunksize=256)
        else:
            shares = list(map(overlap, todo))
        for (i, j), (tokens, share_a, share_b) in zip(todo, shares):
            if tokens == 0:
                continue
            similarity = max(share_a, share_b)
            pairs.append(({"a": owners[i], "b": owners[j], "similarity": similarity, "share_a": share_a,
                           "share_b": share_b, "tokens": tokens,
                           "flagged": bool(similarity >= threshold and tokens >= min_tokens)}, i, j))
    pairs.sort(key=lambda p: (-p[0]["similarity"], -p[0]["tokens"], p[0]["a"], p[0]["b"]))
    flagged = [p for p in pairs if p[0]["flagged"]]
    shown = []
    # The flagged pairs and the most alike up to `keep`, at most SHOWN: a
    # class whose every pair is flagged has code in common that the base lacks.
    for p, i, j in pairs[:min(max(keep, len(flagged)), SHOWN)]:
        _, _, (slices_a, slices_b) = compare_files(prints[i], prints[j])
        p["lines_a"] = line_ranges(prints[i].raw_code, slices_a)
        p["lines_b"] = line_ranges(prints[j].raw_code, slices_b)
        shown.append(p)
    return {"lab": lab["lab"], "files": len(lab["files"]), "texts": len(units),
            "compared": sum(map(len, owners)), "pairs_compared": compared,
            "flagged": len(flagged) + len(identical), "identical": identical,
            "too_little": too_little, "unread": unread, "pairs": shown}


def main(argv):
    if len(argv) != 3:
        usage("usage: similarity.py JOB.json OUT.json")
    try:
        import copydetect
    except ImportError:
        print("similarity.py: copydetect is not installed for this python3 "
              "(python3 -m pip install copydetect)", file=sys.stderr)
        return 3
    try:
        with open(argv[1]) as f:
            job = json.load(f)
        threshold, min_tokens, keep = float(job["threshold"]), int(job["min_tokens"]), int(job["pairs"])
        labs = job["labs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        usage(f"cannot read the job {argv[1]}: {e}")
    start = time.monotonic()
    # Fingerprinting (Pygments' lexer) and comparing take the time: a process a core.
    workers = min(len(os.sched_getaffinity(0)), 8)
    with multiprocessing.Pool(workers) as pool:
        results = [compare_lab(lab, threshold, min_tokens, keep, pool, workers, job.get("exhaustive", False)) for lab in labs]
    version = getattr(copydetect, "__version__", "")
    if not version:
        from importlib.metadata import version as installed
        version = installed("copydetect")
    out = {"tool": "copydetect " + version, "threshold": threshold, "min_tokens": min_tokens,
           "seconds": round(time.monotonic() - start, 3), "labs": results}
    with open(argv[2], "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
