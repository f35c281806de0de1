#!/usr/bin/env python3
"""What ./scan-labs test shows after the tests (labs/common/digest.py), on a
captured Meson log and results files (digest/): lab 02's stub failing its
five classes, lab 05's stub passing its tiny class (its divergence target),
lab 01 skipped (a scan.cu with inline PTX, which the emulator cannot run), a
lab 04 test that passed but left no results file, and two tests of other
suites (TAP). Captured from the stubs' suites on the emulator, with the
paths made relative; testlog.json's @DIR@ is the folder the results files
are in here, and so are the expected outputs' (digest/expected-*.txt).

The results files the digest must do without: lab 02's large class has
none (its test crashed, say), its floats class a cut one; more cases (a
file of another format, one from an earlier run, one that lacks a field)
each on a log of its own. Run with --write-expected to write the expected
outputs anew from this digest.py, to be read before they are committed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "digest")
digest = os.path.join(here, "..", "digest.py")
MODES = {"failed": [], "skipped": ["--skipped"], "passed": ["--passed-labs"], "divergence": ["--divergence"]}


class Digest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="digest-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        for name in os.listdir(fixtures):
            if name.endswith(".results.json"):
                shutil.copy(os.path.join(fixtures, name), self.dir)
        with open(os.path.join(fixtures, "lab02-primes.results.json")) as f:
            whole = f.read()
        with open(os.path.join(self.dir, "lab02-floats.results.json"), "w") as f:
            f.write(whole[:len(whole) // 2])  # cut short: not JSON
        with open(os.path.join(fixtures, "testlog.json")) as f:
            self.tests = [json.loads(l.replace("@DIR@", self.dir)) for l in f if l.strip()]

    def digest(self, mode, tests=None):
        log = os.path.join(self.dir, "testlog.json")
        with open(log, "w") as f:
            for t in self.tests if tests is None else tests:
                f.write(json.dumps(t) + "\n")
        p = subprocess.run([sys.executable, digest, *MODES[mode], log], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""), "digest.py %s failed" % mode)
        return p.stdout.replace(self.dir, "@DIR@")

    def test_expected_outputs(self):
        for mode in MODES:
            with self.subTest(mode):
                path = os.path.join(fixtures, "expected-%s.txt" % mode)
                got = self.digest(mode)
                if "--write-expected" in sys.argv:
                    with open(path, "w") as f:
                        f.write(got)
                with open(path) as f:
                    self.assertEqual(got, f.read())

    def test_later_failures_from_the_results(self):
        # The later failed tests' lines come from their results files, not
        # from what they printed: without that text the digest is the same.
        out = self.digest("failed")
        for t in self.tests:
            if t["name"] in ("scan-labs:lab02 / section", "scan-labs:lab02 / primes"):
                t["stdout"] = "(what it printed)\n"
        self.assertEqual(self.digest("failed"), out)
        self.assertIn("=== scan-labs:lab02 / primes: FAIL\n  FAIL  brent_kung_scan on primes dataset", out)

    def test_missing_or_cut(self):
        out = self.digest("failed")
        self.assertIn("=== scan-labs:lab02 / large: FAIL\n(no results from this test: its results file "
                      "@DIR@/lab02-large.results.json is missing: the test ended before writing it; its whole output "
                      "follows)\n", out)
        self.assertIn("(no results from this test: its results file @DIR@/lab02-floats.results.json cannot be read: ", out)
        large = next(t for t in self.tests if t["name"] == "scan-labs:lab02 / large")
        self.assertIn(large["stdout"].rstrip("\n") + "\n\n", out)

    def one(self, name, results):
        """The digest of lab 02's primes test alone, as the second failed
        test of its lab (after tiny), its results file `results`."""
        tests = [t for t in self.tests if t["name"] in ("scan-labs:lab02 / tiny", "scan-labs:lab02 / primes")]
        path = os.path.join(self.dir, name + ".results.json")
        with open(path, "w") as f:
            f.write(json.dumps(results))
        tests[1]["command"][-1] = path
        return self.digest("failed", tests)

    def primes(self):
        with open(os.path.join(fixtures, "lab02-primes.results.json")) as f:
            return json.load(f)

    def test_another_format(self):
        r = self.primes()
        r["format"] = 2
        self.assertIn("its results file @DIR@/format.results.json is not of format 1; its whole output follows",
                      self.one("format", r))

    def test_a_field_missing(self):
        r = self.primes()
        del r["fix_first"]["runs"]
        out = self.one("field", r)
        self.assertIn("its results file @DIR@/field.results.json cannot be read: a field is missing or of another "
                      "type (KeyError: 'runs'); its whole output follows", out)
        self.assertIn("[doctest] Status: FAILURE!", out.split("=== scan-labs:lab02 / primes")[1])

    def test_an_earlier_runs_file(self):
        tests = [t for t in self.tests if t["name"] in ("scan-labs:lab02 / tiny", "scan-labs:lab02 / primes")]
        path = tests[1]["command"][-1]
        os.utime(path, (1000, 1000))
        tests[1]["starttime"] = 2000.0
        self.assertIn("its results file @DIR@/lab02-primes.results.json is from an earlier run", self.digest("failed", tests))
        tests[1]["starttime"] = 1000.5  # a file stamped a moment before the start, by a coarse clock: this run's
        self.assertNotIn("earlier run", self.digest("failed", tests))

    def test_skip_reason_from_the_results(self):
        for t in self.tests:
            if t["name"] == "scan-labs:lab01 / tiny":
                t["stdout"] = "SKIP: (what it printed)\n"
        out = self.digest("skipped")
        self.assertIn("lab 01: its tests were skipped: lab01-inline-ptx.cu:32: `asm` (inline PTX) is beyond the CPU "
                      "emulator\nThis is the kit's limit", out)
        os.remove(os.path.join(self.dir, "lab01-tiny.results.json"))  # none: what it printed
        self.assertIn("lab 01: its tests were skipped: (what it printed)\n", self.digest("skipped"))

    def test_passed_labs(self):
        self.assertEqual(self.digest("passed"), "05\n")  # not 04: it left no results file
        for t in self.tests:
            if t["name"] == "scan-labs:lab05 / tiny":
                t["result"] = "FAIL"
        self.assertEqual(self.digest("passed"), "\n")


if __name__ == "__main__":
    unittest.main(argv=[a for a in sys.argv if a != "--write-expected"], verbosity=2)
