#!/usr/bin/env python3
"""buildlog.py NINJA_LOG: what `./scan-labs` shows of a build's output.

The whole of it goes to build/scan-labs-ninja.log; the terminal gets
- every failed command's output whole (its FAILED line and everything the
  compiler or linker printed, without the long command line): a link error's
  `undefined reference to ...` comes before `collect2: error: ...`, and a
  line-by-line filter for "error" dropped it;
- the compiler's warnings about the student's own labs/NN-name/scan.cu (gcc's
  and nvcc's, each with its source line and caret), since one of them often
  points at the bug (`for increment expression has no effect` on an endless
  loop); warnings about the kit's files are left in the log.
Exit status 0; prints nothing where there is nothing to show.
"""
import re
import sys

STATUS = re.compile(r"^\[\d+/\d+\] ")
# gcc `FILE:LINE:COL: warning: ...`, nvcc `FILE(LINE): warning #174-D: ...`
DIAG = re.compile(r"^(?P<file>[^\s:(][^:(]*?)(?::\d+(?::\d+)?|\(\d+\)): (?P<kind>fatal error|error|warning|note)\b",
                  re.IGNORECASE)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # gcc's colours (meson asks for them)
STUDENT = re.compile(r"(^|/)labs/[0-9]{2}-[^/]+/scan\.cu$")


def commands(lines):
    """[(status line, output lines, failed)] per command, as ninja prints
    them when a command ends: its status line, for a failure `FAILED: ...`
    and the command line, then what it printed."""
    out = []
    for line in lines:
        if STATUS.match(line):
            out.append([line, [], False])
        elif line.startswith("ninja: "):
            continue
        elif out and line.startswith("FAILED: ") and not out[-1][1] and not out[-1][2]:
            out[-1][1].append(line)
            out[-1][2] = True
        elif out:
            out[-1][1].append(line)
        elif line.strip():  # output before any status line (ninja's own errors)
            out.append(["", [line], True])
    return out


def student_warnings(output):
    """The diagnostic groups of one command's output whose warning is about a
    labs/NN-name/scan.cu: the lines that set its context (`In function ...`),
    the warning, its notes and its indented source and caret lines."""
    groups, current, context = [], None, []
    for line in output:
        m = DIAG.match(line)
        if m and m.group("kind").lower() == "note" and current is not None:
            current[1].extend(context + [line])
            context = []
        elif m:
            current = [m, context + [line]]
            groups.append(current)
            context = []
        elif not line.strip() or line[0].isspace():
            if current is not None:
                current[1].append(line)
        elif line.startswith("Remark: "):  # nvcc's hint on -diag-suppress, after its warnings
            current = None
        else:  # `FILE: In function ...`, `In file included from ...`
            context.append(line)
            current = None
    shown = []
    for m, text in groups:
        if m.group("kind").lower() == "warning" and STUDENT.search(m.group("file")):
            while text and not text[-1].strip():
                text.pop()
            if "\n".join(text) not in shown:  # nvcc repeats a warning for each of its passes
                shown.append("\n".join(text))
    return shown


def main():
    lines = ANSI.sub("", open(sys.argv[1], errors="replace").read()).split("\n")
    warnings, failures = [], []
    for status, output, failed in commands(lines):
        if failed:
            body = [l for i, l in enumerate(output) if not (i == 1 and output[0].startswith("FAILED: "))]
            while body and not body[-1].strip():
                body.pop()
            failures.append("\n".join(([status] if status else []) + body))
        else:
            warnings += [w for w in student_warnings(output) if w not in warnings]
    if warnings:
        print("scan-labs: the compiler's warnings about your scan.cu:")
        print("\n".join(warnings))
    if failures:
        print("\n\n".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
