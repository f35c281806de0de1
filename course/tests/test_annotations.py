#!/usr/bin/env python3
"""test_annotations.py: course/github/annotations.py, the workflows' step that
turns results.sarif into GitHub annotations, on the grader's golden
results.sarif (grader/tests/golden/: the sample report's findings, 11 errors
and a warning, a leak among them found on three datasets) and on small SARIF logs made here.

Each line is read back as GitHub's runner reads a workflow command
(actions/runner, src/Runner.Common/ActionCommand.cs: TryParseV2, the
registered commands only, the properties split on `,` and at the first `=`,
empty pieces dropped, keys case-insensitive, UnescapeProperty and
UnescapeData), so what a student would see is checked: the file, line,
title and message of each annotation; at most 10 of a level a step, then a
notice counting the rest; the file's order, the worst first; and escaping
that survives the round trip. TAP on standard output
(grader/tests/tap.py)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(KIT, "course", "github"))
sys.path.insert(1, os.path.join(KIT, "grader", "tests"))
import annotations  # noqa: E402
from tap import expect, finish, note  # noqa: E402

SCRIPT = os.path.join(KIT, "course", "github", "annotations.py")
GOLDEN = os.path.join(KIT, "grader", "tests", "golden", "results.sarif")


def unescape(text, mappings):
    for token, replacement in mappings:
        text = text.replace(replacement, token)
    return text


DATA = [("\r", "%0D"), ("\n", "%0A"), ("%", "%25")]
PROPERTY = [("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C"), ("%", "%25")]


# The issue commands (IssueCommandExtension in Runner.Worker/ActionCommandManager.cs);
# TryParseV2 reads no other command as one.
REGISTERED = {"error", "warning", "notice"}


def parse(line):
    """(command, {property: value}, message) as the runner reads the line; None if it reads none."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    space = info.find(" ")
    name = info if space < 0 else info[:space]
    if name not in REGISTERED:
        return None
    properties = {}
    if space > 0:
        # Split(',', RemoveEmptyEntries), then Split('=', count: 2, RemoveEmptyEntries): a pair or nothing.
        for item in (i for i in info[space + 1:].strip().split(",") if i):
            pair = [p for p in item.split("=", 1) if p]
            if len(pair) == 2:
                properties[pair[0].lower()] = unescape(pair[1], PROPERTY)  # an OrdinalIgnoreCase dictionary
    return name, properties, unescape(line[end + 2:], DATA)


def sarif(results, rules=()):
    return {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "scan-grade", "rules": list(rules)}},
                                          "results": results}]}


def result(level, text, uri="labs/01-kogge-stone/scan.cu", line=3, rule=None, column=None):
    region = {"startLine": line}
    if column:
        region["startColumn"] = column
    r = {"level": level, "message": {"text": text},
         "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                             "region": region}}]}
    if rule:
        r["ruleId"] = rule
    return r


# ---------------------------------------------------------- the golden file --
with open(GOLDEN, encoding="utf-8") as f:
    golden = json.load(f)
results = golden["runs"][0]["results"]
rules = {r["id"]: r for r in golden["runs"][0]["tool"]["driver"]["rules"]}
p = subprocess.run([sys.executable, SCRIPT, GOLDEN], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
note(p.stdout)
expect(p.returncode == 0, "annotations.py on the golden results.sarif: exit %d" % p.returncode)
lines = [l for l in p.stdout.splitlines() if l.startswith("::")]
commands = [parse(l) for l in lines]
expect(all(commands), "every workflow command line is one the runner reads", lines)
names = [c[0] for c in commands if c]
levels = [r["level"] for r in results]
expect(levels.count("error") == 11 and levels.count("warning") == 1,
       "the golden file holds 11 errors and 1 warning: %s" % levels)
expect(names == ["error"] * 10 + ["warning", "notice"],
       "GitHub's limit of 10 annotations a level a step: 10 errors, the warning, then a notice: %s" % names)
expect(commands[-1] and "1 more finding " in commands[-1][2] and commands[-1][1].get("title") == "more findings",
       "the notice counts the finding left out", commands[-1])
# In the file's order, which is the worst first: the undefined behaviour's errors lead.
shown = [r for r in results if r["level"] == "error"][:10] + [r for r in results if r["level"] == "warning"]
ok = len(commands) == 12
for (name, props, message), r in zip(commands, shown):
    where = r["locations"][0]["physicalLocation"]
    ok = ok and (name, props.get("file"), props.get("line"), props.get("title"), message) == (
        r["level"], where["artifactLocation"]["uri"],
        str(where["region"]["startLine"]) if "region" in where else None,
        rules[r["ruleId"]]["shortDescription"]["text"], r["message"]["text"])
expect(ok, "each annotation is its result's file, line, check and message, in the file's order (undefined "
       "behaviour first, errors before the warning)")
# The sample's one leak, found on three datasets (4096, 8192 and 16384 bytes):
# one SARIF result, one annotation, of the file as a whole.
leak_results = [r for r in results if r["ruleId"].startswith("leak/")]
leak = [c for c in commands if c and c[1].get("title") == "device memory leaked"]
expect(len(leak_results) == 1 and "region" not in leak_results[0]["locations"][0]["physicalLocation"],
       "one leak on three datasets is one SARIF result, of the file alone (no region)",
       [r["message"]["text"] for r in leak_results])
expect(len(leak) == 1 and leak[0][0] == "warning" and "line" not in leak[0][1]
       and leak[0][1].get("file") == "labs/02-brent-kung/scan.cu"
       and leak[0][2].endswith("seen at: 4096 bytes, 8192 bytes, 16384 bytes"),
       "the leak is one annotation of labs/02-brent-kung/scan.cu as a whole (no line=), with its sizes", leak)
expect([r["properties"]["undefinedBehavior"] for r in shown[:6]] == [True] * 6,
       "the first six annotated are the undefined behaviour's")
race = ("::error file=labs/02-brent-kung/scan.cu,line=25,title=data race on shared memory::data race on shared "
        "memory in kernel brent_kung_kernel: block (0,0,0): section[1535] written by thread 0 at scan.cu:25 and "
        "read by thread 2 at scan.cu:25 between the same two barriers; launched at scan.cu:35")
expect(race in lines, "lab 02's race (lab02-missing-barrier's) annotates labs/02-brent-kung/scan.cu line 25", race)
escaped = [l for l in lines if "100%25 of%0D%0Athe reads" in l]
expect(len(escaped) == 1 and parse(escaped[0])[2].endswith("100% of\r\nthe reads unset (3 reports printed) "
                                                           "(compute-sanitizer memcheck)"),
       "a message's % and line break are escaped (%25, %0D%0A) and read back as written", escaped)

# ------------------------------------------------------- logs made here --
tricky = "bad: a, b % c\r\nnext"
made = annotations.annotations(sarif([result("error", tricky, uri="labs/01-kogge-stone/my%2C%20file.cu", rule="r")],
                                     [{"id": "r", "shortDescription": {"text": "check: one, two"}}]))
expect(len(made) == 1 and made[0].startswith("::error file=labs/01-kogge-stone/my%2C file.cu,line=3,"
                                             "title=check%3A one%2C two::bad: a, b %25 c%0D%0Anext"),
       "properties escape : and , (a title, a file name with a comma, percent-decoded from its URI); the message "
       "% CR LF only", made)
expect(parse(made[0]) == ("error", {"file": "labs/01-kogge-stone/my, file.cu", "line": "3",
                                    "title": "check: one, two"}, tricky),
       "the runner reads back the file, the title and the message as written", parse(made[0]))
many = [result("warning", "w%d" % i) for i in range(12)] + [result("error", "e%d" % i) for i in range(3)]
made = annotations.annotations(sarif(many))
names = [parse(l)[0] for l in made]
expect(names == ["warning"] * 10 + ["error"] * 3 + ["notice"] and "2 more findings" in parse(made[-1])[2],
       "the limit is per level: 12 warnings give 10, all 3 errors still shown, the 2 left counted", names)
made = annotations.annotations(sarif([result("note", "n%d" % i) for i in range(10)]))
expect([parse(l)[0] for l in made] == ["notice"] * 10 and "1 more finding " in parse(made[-1])[2],
       "notes are notices, 9 of them, the tenth notice counting the rest", made)
expect(annotations.annotations(sarif([])) == [], "no findings, no annotations")
made = annotations.annotations(sarif([result("error", "a race", line=25, column=71, rule="r")], [{"id": "r"}]))
expect(len(made) == 1 and parse(made[0])[1] == {"file": "labs/01-kogge-stone/scan.cu", "line": "25", "col": "71",
                                                  "title": "r"},
       "a region's startColumn is the annotation's col=", made)
p = subprocess.run([sys.executable, SCRIPT, os.path.join(HERE, "no-such.sarif")], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True)
expect(p.returncode == 2 and "cannot read" in p.stderr, "a missing file: exit 2 and why", p.stderr)
finish()
