#!/usr/bin/env python3
"""What ./scan-labs shows of a build (labs/common/buildlog.py), on ninja
logs of real builds of a student's lab 01 (paths made a student's):
warnings.log  `stride * 2` for `stride *= 2` (gcc and nvcc warn; nvcc
              repeats it per pass), plus a kit file's and a reference's warning;
link-error.log  kogge_stone_scan defined with `int n` (scan.hpp: unsigned);
compile-error.log  a misspelt array name.
TAP on standard output, which Meson counts (protocol: 'tap')."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "buildlog.py")
count = failed = 0


def shown(log):
    return subprocess.run([sys.executable, script, os.path.join(here, "buildlog", log)], check=True,
                          stdout=subprocess.PIPE, text=True).stdout


def expect(ok, what, out):
    global count, failed
    count += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", count, what))
    if not ok:
        failed += 1
        print("# " + out.replace("\n", "\n# "))


out = shown("warnings.log")
expect("../labs/01-kogge-stone/scan.cu:15:64: warning: for increment expression has no effect [-Wunused-value]\n"
       "   15 |     for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride * 2) {\n" in out,
       "gcc's warning on the student's scan.cu, with its source line", out)
expect("In function ‘void kogge_stone_kernel(const float*, float*, unsigned int)’:" in out, "gcc's context line", out)
expect(out.count("../labs/01-kogge-stone/scan.cu(15): warning #174-D: expression has no effect") == 1,
       "nvcc's warning on the student's scan.cu, once", out)
expect("harness.cpp" not in out and "reference/" not in out and "Remark" not in out and "[5/6]" not in out,
       "no warning about the kit's files, no nvcc remark, no build step", out)

out = shown("link-error.log")
expect("FAILED: labs/lab01-tests" in out and
       "undefined reference to `kogge_stone_scan(float const*, float*, unsigned int)'\n"
       "collect2: error: ld returned 1 exit status" in out, "a link error with the line that explains it", out)
expect("-Wl,--start-group" not in out, "without the link command", out)

out = shown("compile-error.log")
expect("error: ‘partail’ was not declared in this scope; did you mean ‘partial’?\n"
       "   24 |         partial[t] += partail[t - stride];" in out
       and "../labs/01-kogge-stone/scan.cu(24): error: identifier \"partail\" is undefined" in out
       and "1 error detected in the compilation" in out, "every failed command's errors, whole", out)

print("1..%d" % count)
sys.exit(1 if failed else 0)
