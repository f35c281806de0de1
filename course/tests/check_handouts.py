#!/usr/bin/env python3
"""check_handouts.py KIT REFERENCE_BUILD STUDENT_REPO: the outputs the lab
handouts quote are what the kit prints.

A handout marks a quoted output with a comment on the line before its
indented block:

    <!-- output of: SOURCE COMMAND -->

SOURCE is `reference` (COMMAND runs in REFERENCE_BUILD, the kit's build of
the reference), `stub` (in STUDENT_REPO/build, the export test's build of the
stubs) or `corpus/ENTRY` (in STUDENT_REPO/build after the grader corpus
entry ENTRY's labs/NN-name/scan.cu files are copied over the stubs; the stubs
are put back at the end). COMMAND is a lab suite program and its options,
e.g. `build/labs/lab01-tests --class tiny`.

Every line of the block must appear in the command's output, in order, other
lines may come between; `...` in a line matches anything, and a line that
starts with `...` only marks a gap. Leading and trailing spaces are ignored.
TAP on standard output (grader/tests/tap.py): a check per block.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grader", "tests"))
from tap import end, expect  # noqa: E402

MARK = re.compile(r"<!-- output of: (\S+) (build/labs/lab[0-9]{2}-tests(?: [^>]*)?) -->")


def blocks(path):
    """[(source, command, [quoted lines])] of one handout."""
    lines = open(path).read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = MARK.search(line)
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        quoted = []
        while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
            if lines[j].strip():
                quoted.append(lines[j][4:])
            j += 1
        out.append((m.group(1), m.group(2).strip(), quoted))
    return out


def pattern(line):
    return re.compile(".*".join(re.escape(part) for part in line.strip().split("...")) + r"\Z")


def missing(quoted, output):
    """The first quoted line not found in order, or None."""
    got = [l.strip() for l in output.split("\n")]
    at = 0
    for q in quoted:
        if q.strip().startswith("..."):
            continue
        p = pattern(q)
        while at < len(got) and not p.match(got[at]):
            at += 1
        if at == len(got):
            return q
        at += 1
    return None


def run(command, cwd, limit=120):
    """The command's output; a command that runs past `limit` seconds (a hung
    run the emulator did not stop) is killed and says so."""
    try:
        p = subprocess.run(shlex.split(command), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=limit)
        return p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return out + "\n(killed after %d s)\n" % limit


def main():
    kit, reference, student = (os.path.abspath(a) for a in sys.argv[1:4])
    handouts = sorted(os.path.join(kit, "labs", d, "README.md") for d in os.listdir(os.path.join(kit, "labs"))
                      if re.match(r"[0-9]{2}-", d) and os.path.isfile(os.path.join(kit, "labs", d, "README.md")))
    todo = [(os.path.relpath(h, kit), src, cmd, quoted) for h in handouts for src, cmd, quoted in blocks(h)]
    expect(len(todo) > 0, "the handouts mark %d quoted outputs" % len(todo))
    for source in sorted({t[1] for t in todo}, key=lambda s: (s != "reference", s != "stub", s)):
        swapped = []
        if source == "reference":
            cwd = os.path.dirname(reference)
            root = reference
        elif source == "stub" or source.startswith("corpus/"):
            cwd, root = student, os.path.join(student, "build")
        else:
            expect(False, "unknown source '%s' (reference, stub or corpus/ENTRY)" % source)
            continue
        if source.startswith("corpus/"):
            entry = os.path.join(kit, "grader", "tests", source)
            for lab in sorted(os.listdir(os.path.join(entry, "labs"))):
                target = os.path.join(student, "labs", lab, "scan.cu")
                swapped.append((target, open(target, "rb").read()))
                shutil.copyfile(os.path.join(entry, "labs", lab, "scan.cu"), target)
        try:
            targets = sorted({cmd.split()[0][len("build/"):] for _, src, cmd, _ in todo if src == source})
            p = subprocess.run(["ninja", "-C", root] + targets, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if not expect(p.returncode == 0, "%s: ninja %s" % (source, " ".join(targets)), p.stdout[-3000:]):
                continue
            for handout, src, cmd, quoted in todo:
                if src != source:
                    continue
                out = run(cmd.replace("build/", root + "/", 1), cwd)
                gone = missing(quoted, out)
                expect(gone is None, "%s: %s %s: %d quoted lines in order" % (handout, source, cmd, len(quoted)),
                       "not found in order: %s\n--- output (last 40 lines):\n%s"
                       % (gone, "\n".join(out.rstrip().split("\n")[-40:])))
        finally:
            for target, text in swapped:  # the student's own file back
                with open(target, "wb") as f:
                    f.write(text)
    return end()


if __name__ == "__main__":
    sys.exit(main())
