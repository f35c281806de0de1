#!/usr/bin/env python3
"""test_results.py STUB REFERENCE SKIPPED DIGEST: a lab suite's results file
(labs/common/results.hpp), written by real runs of lab 01's suite program on
the emulator: STUB built from the stub (labs/01-kogge-stone/scan.cu, a
barrier in a divergent loop and a race on its one buffer, by design),
REFERENCE from the reference, SKIPPED from a scan.cu the emulator cannot run
(simt/tests/planted/lab01-inline-ptx.cu); DIGEST is labs/common/digest.py,
whose reading of the file must give the lines the suite printed."""
import atexit
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

STUB, REFERENCE, SKIPPED, DIGEST = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("digest", DIGEST)
digest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(digest)

tmp = tempfile.mkdtemp(prefix="results-test-")
atexit.register(shutil.rmtree, tmp, True)


def run(program, name, *args):
    """(exit status, stdout, the results file's JSON or None, its path)."""
    path = os.path.join(tmp, name + ".results.json")
    p = subprocess.run([program, *args, "--details-file", os.path.join(tmp, name + ".details.txt"),
                        "--results-file", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    results = None
    if os.path.exists(path):
        with open(path) as f:
            results = json.load(f)
    return p.returncode, p.stdout, results, path


class Stub(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rc, cls.out, cls.results, cls.path = run(STUB, "stub-tiny", "--class", "tiny")

    def test_the_run(self):
        r = self.results
        self.assertEqual(self.rc, 1, self.out)
        self.assertIsNotNone(r, "no results file")
        self.assertFalse(os.path.exists(self.path + ".partial"), "the file aside is left")
        self.assertEqual((r["format"], r["lab"], r["class"], r["backend"], r["result"], r["why"]),
                         (1, "01-kogge-stone", "tiny", "emu", "fail", ""))
        self.assertEqual(r["device"], "the CPU emulator (scan_backend=emu)")
        self.assertIn("seed 1", r["block_order"])
        self.assertEqual(r["details_file"], os.path.join(tmp, "stub-tiny.details.txt"))
        self.assertFalse(r["details_printed"])
        self.assertIsNone(r["divergence_target"], "a failing run shows no divergence target")

    def test_datasets_as_printed(self):
        # Each dataset's printed line, "  ok    FUNCTION on DATASET (...)" or "  FAIL  FUNCTION on DATASET: ...".
        printed = re.findall(r"^  (ok  |FAIL)  kogge_stone_scan on (tiny dataset \S+ n=[0-9]+ seed=[0-9]+)", self.out, re.M)
        records = self.results["datasets"]
        self.assertEqual(len(printed), 6)
        self.assertEqual([(d["verdict"], d["dataset"]) for d in records],
                         [("pass" if ok == "ok  " else "fail", name) for ok, name in printed])
        for d in records:
            self.assertEqual(d["function"], "kogge_stone_scan")
            self.assertEqual(d["dataset"], "tiny dataset %s n=%d seed=%d" % (d["distribution"], d["n"], d["seed"]))
            self.assertEqual(d["class"], "tiny")
        self.assertEqual([d["verdict"] for d in records if d["n"] == 0], ["pass"])

    def test_failing_facts(self):
        for d in self.results["datasets"]:
            if d["verdict"] != "fail":
                continue
            findings = {f["check"]: f for f in d["findings"]}
            barrier, race = findings["barrier divergence"], findings["data race on shared memory"]
            self.assertEqual((barrier["source"], barrier["kind"], barrier["undefined"], barrier["kernel"], barrier["lines"]),
                             ("emulator", "barrier", True, "kogge_stone_kernel", ["scan.cu:23"]), d["dataset"])
            self.assertEqual((race["source"], race["kind"], race["kernel"], race["lines"]),
                             ("emulator", "race", "kogge_stone_kernel", ["scan.cu:24"]), d["dataset"])
            self.assertEqual(race["block"], "(0,0,0)")
            rules = {f["rule"]: f for f in d["failed"]}
            self.assertIn("backend_checks_clean", rules)
            # "values: first wrong output at index 2 (28 of 31 wrong)" on its printed line
            line = re.search(r"^  FAIL  kogge_stone_scan on %s: (.*)$" % re.escape(d["dataset"]), self.out, re.M).group(1)
            wrong = re.search(r"first wrong output at index ([0-9]+) \(([0-9]+) of", line)
            if wrong:
                self.assertEqual((rules["outputs_match"]["first_wrong"], rules["outputs_match"]["wrong"]),
                                 (int(wrong.group(1)), int(wrong.group(2))))
            else:
                self.assertNotIn("outputs_match", rules)
            self.assertEqual({p["key"] for p in d["problems"] if p["rule"] == "backend_checks_clean"},
                             {"finding|barrier divergence|kogge_stone_kernel|scan.cu:23|launched at " + barrier["launch"],
                              "finding|data race on shared memory|kogge_stone_kernel|scan.cu:24|launched at " + race["launch"]})

    def test_fix_first(self):
        fix = self.results["fix_first"]
        self.assertEqual(fix["runs"], [{"function": "kogge_stone_scan", "datasets": 6, "failed": 5}])
        self.assertEqual([(i["kind"], i["severity"]) for i in fix["items"]],
                         [("problem", "undefined behaviour"), ("problem", "undefined behaviour"), ("problem", "wrong result")])
        keys = {p["key"] for d in self.results["datasets"] for p in d["problems"]}
        self.assertEqual({i["key"] for i in fix["items"]}, keys)
        self.assertEqual([i["datasets"] for i in fix["items"]], [5, 5, 3])

    def test_digest_shows_what_was_printed(self):
        lines = self.out.split("\n")
        fails = [l for l in lines if l.startswith("  FAIL  ")]
        start = next(i for i, l in enumerate(lines) if l.startswith("What to fix first"))
        end = next(i for i in range(start, len(lines)) if lines[i].startswith("====="))
        summary = [l.replace("shown in full above at its first dataset", "shown in full in this lab's first failed test")
                   for l in lines[start:end]]
        self.assertEqual(digest.fail_lines(self.results), fails)
        self.assertEqual(digest.fix_first_lines(self.results), summary)


class Reference(unittest.TestCase):
    def test_divergence_target(self):
        rc, out, r, _ = run(REFERENCE, "reference-tiny", "--class", "tiny")
        self.assertEqual((rc, r["result"]), (0, "pass"), out)
        self.assertTrue(all(d["verdict"] == "pass" and not d["findings"] and not d["failed"] for d in r["datasets"]))
        self.assertEqual(digest.fail_lines(r) + digest.fix_first_lines(r), [])
        target = r["divergence_target"]
        self.assertTrue(target["text"].startswith("lab 01-kogge-stone: the grader's divergence target"))
        self.assertIn(target["text"], out)
        fields = target["fields"]
        self.assertEqual((fields["score"], fields["points"], fields["level"]), (10, 10, 1))
        self.assertEqual((fields["full_within"], fields["zero_below"], fields["dataset"]), (0.02, 0.25, "walk4 n=8192 seed=4343"))
        [fn] = fields["functions"]
        self.assertEqual((fn["function"], fn["part"], fn["cause"]), ("kogge_stone_scan", 1, ""))
        self.assertAlmostEqual(fn["efficiency"], fn["reference"], places=3)
        self.assertIn("SIMT efficiency %.1f%%" % (100 * fn["efficiency"]), target["text"])

    def test_input_values(self):
        rc, out, r, _ = run(REFERENCE, "reference-input", "--input", "4 6 7 1")
        self.assertEqual((rc, r["class"]), (0, ""), out)
        [d] = r["datasets"]
        self.assertEqual((d["dataset"], d["class"], d["distribution"], d["n"], d["seed"], d["verdict"]),
                         ("the --input values n=4", "", "", 4, None, "pass"))
        self.assertIsNone(r["divergence_target"])

    def test_an_earlier_file_goes(self):
        path = os.path.join(tmp, "error.results.json")
        with open(path, "w") as f:
            f.write('{"format": 1, "result": "pass"}')
        p = subprocess.run([REFERENCE, "--class", "nosuch", "--results-file", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertFalse(os.path.exists(path), "a run that ends in an error leaves an earlier run's results file")


class Skipped(unittest.TestCase):
    def test_skip_and_why(self):
        rc, out, r, _ = run(SKIPPED, "skipped-tiny", "--class", "tiny")
        self.assertEqual(rc, 77, out)
        self.assertEqual((r["result"], r["datasets"], r["device"]), ("skip", [], ""))
        self.assertIn("`asm` (inline PTX) is beyond the CPU emulator", r["why"])
        self.assertEqual(("SKIP: " + r["why"]).strip(), out.strip())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
