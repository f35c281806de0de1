#!/usr/bin/env python3
"""Checks files against Gradescope's results.json format.

usage: gradescope_schema.py RESULTS.json...   prints `FILE: ok` or each problem; exits 1 on any
       gradescope_schema.py --self-test       checks that broken examples are refused

The format is Gradescope's "Autograder Specifications", section "Output
format" (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
top-level score, execution_time, output, output_format, test_output_format,
test_name_format, visibility, stdout_visibility, extra_data, tests and
leaderboard, all optional, but a score is "required if not on each test
case"; each test's score, max_score, status ("passed" or "failed"), name,
name_format, number, output, output_format, tags, visibility and extra_data.
Formats are text, html, simple_format, md and ansi; visibilities hidden,
after_due_date, after_published and visible. Stricter than Gradescope where
its page says nothing: unknown keys, NaN and infinity, and a test scoring
more than its max_score are refused.

What students see, by the same page (its source: gradescope/autograder_samples
docs/specs.md): the top-level output is rendered "simple_format" unless
output_format says otherwise, HTML with newlines made <br />, so a run of
spaces shows as one and columns aligned with spaces collapse (so too in
"html", and in "md" outside a code block); a test's visibility, or the
top-level one, decides when it is shown ("after_published": once grades are
published; "hidden": never), and "If test cases are hidden, students will not
be able to see their total score". So a file with tests withheld until
publication (after_published or hidden) is refused where what students see
before it (the top-level output, the names and outputs of visible and
after_due_date tests, a visible stdout) could give them away: the total
score, a lab's or a component's points that include a withheld test's (as
"S/M", tests grouped by their tags), a withheld test's name, a hidden dataset
("hidden dataset N", as the grader names one), or, the kit's own rule, a
safety, divergence or timing test of a lab with withheld tests: the grader
scales those by correctness on every dataset, hidden ones included
(grader/grading/scorers.hpp).
"""
import re
import json
import math

import schema_cli  # beside this file (in the Gradescope bundle too)

FORMATS = {"text", "html", "simple_format", "md", "ansi"}
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def is_text(v):
    return isinstance(v, str)


def one_of(values):
    return lambda v: isinstance(v, str) and v in values


def is_object(v):
    return isinstance(v, dict)


def list_of(check):
    return lambda v: isinstance(v, list) and all(check(x) for x in v)


TEST_FIELDS = {
    "score": (is_number, "a finite number"),
    "max_score": (is_number, "a finite number"),
    "status": (one_of({"passed", "failed"}), "passed or failed"),
    "name": (is_text, "a string"),
    "name_format": (one_of(FORMATS), " or ".join(sorted(FORMATS))),
    "number": (is_text, "a string such as \"1.1\""),
    "output": (is_text, "a string"),
    "output_format": (one_of(FORMATS), " or ".join(sorted(FORMATS))),
    "tags": (list_of(is_text), "a list of strings"),
    "visibility": (one_of(VISIBILITIES), " or ".join(sorted(VISIBILITIES))),
    "extra_data": (is_object, "an object"),
}

LEADER_FIELDS = {
    "name": (is_text, "a string"),
    "value": (lambda v: is_number(v) or is_text(v), "a finite number or a string"),
    "order": (one_of({"asc", "desc"}), "asc or desc"),
}

TOP_FIELDS = {
    "score": (is_number, "a finite number"),
    "execution_time": (lambda v: is_number(v) and v >= 0, "a finite number of seconds, not negative"),
    "output": (is_text, "a string"),
    "output_format": (one_of(FORMATS), " or ".join(sorted(FORMATS))),
    "test_output_format": (one_of(FORMATS), " or ".join(sorted(FORMATS))),
    "test_name_format": (one_of(FORMATS), " or ".join(sorted(FORMATS))),
    "visibility": (one_of(VISIBILITIES), " or ".join(sorted(VISIBILITIES))),
    "stdout_visibility": (one_of(VISIBILITIES), " or ".join(sorted(VISIBILITIES))),
    "extra_data": (is_object, "an object"),
    "tests": (lambda v: isinstance(v, list), "a list"),
    "leaderboard": (lambda v: isinstance(v, list), "a list"),
}


def check_fields(obj, fields, where):
    if not isinstance(obj, dict):
        return [f"{where}: not an object"]
    problems = []
    for key, value in obj.items():
        if key not in fields:
            problems.append(f"{where}: unknown key \"{key}\" (allowed: {', '.join(fields)})")
        elif not fields[key][0](value):
            problems.append(f"{where}.{key}: {json.dumps(value)[:80]} is not {fields[key][1]}")
    return problems


ALIGNED = re.compile(r"\S {2,}\S")  # columns aligned with spaces
FRACTION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)(?![\w.])")
EARLY = {"visible", "after_due_date"}  # shown before grades are published
SCALED = {"safety", "divergence", "timing"}  # scaled by correctness on every dataset (grader/grading/scorers.hpp)


def collapsed_lines(text, fmt):
    """The lines of `text` whose spaces align columns that `fmt` renders as HTML, collapsing them."""
    if fmt not in ("simple_format", "html", "md"):
        return []
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(`{3,}|~{3,})", line) if fmt == "md" else None
        if m and (fence is None or m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)):
            fence = None if fence else m.group(1)
        elif fence is None and not (fmt == "md" and line.startswith("    ")) and ALIGNED.search(line):
            out.append(line)
    return out


def format_problems(doc, tests):
    found = []
    fmt = doc.get("output_format", "simple_format")
    for line in collapsed_lines(doc.get("output", "") if is_text(doc.get("output")) else "", fmt)[:1]:
        found.append(f"results.output: columns aligned with spaces collapse as output_format \"{fmt}\" renders them: "
                     f"\"{line.strip()[:60]}\"")
    for i, t in enumerate(tests):
        tfmt = t.get("output_format", doc.get("test_output_format", "text"))
        for line in collapsed_lines(t.get("output", "") if is_text(t.get("output")) else "", tfmt)[:1]:
            found.append(f"tests[{i}].output: columns aligned with spaces collapse as output_format \"{tfmt}\" "
                         f"renders them: \"{line.strip()[:60]}\"")
    return found


def same_points(a, b):
    return abs(a - b) < 0.006  # points are written with two decimals at most


def hidden_leaks(doc, tests):
    """How what students see before grades are published gives away what is withheld until then."""
    default = doc.get("visibility", "visible")
    seen = lambda t: t.get("visibility", default)
    withheld = [t for t in tests if seen(t) not in EARLY]
    if not withheld:
        return []
    early = [("results.output", doc.get("output", ""))]
    for i, t in enumerate(tests):
        if seen(t) in EARLY:
            early += [(f"tests[{i}].name", t.get("name", "")), (f"tests[{i}].output", t.get("output", ""))]
    early = [(where, text) for where, text in early if is_text(text)]
    found = []
    if doc.get("stdout_visibility") in EARLY:
        found.append("results.stdout_visibility: stdout is shown before grades are published, and the tests "
                     "withheld until then are not")
    score = lambda ts: sum(t.get("score", 0) for t in ts if is_number(t.get("score", 0)))
    top = lambda ts: sum(t.get("max_score", 0) for t in ts if is_number(t.get("max_score", 0)))
    # (what, points, out of): sums that include a withheld test's points
    sums = [("the total score", doc["score"] if is_number(doc.get("score")) else score(tests), top(tests))]
    for depth, what in ((1, "lab"), (2, "component")):
        groups = {}
        for t in tests:
            tags = t.get("tags", [])
            if isinstance(tags, list) and len(tags) >= depth:
                groups.setdefault(tuple(tags[:depth]), []).append(t)
        for key, group in groups.items():
            if top([t for t in group if seen(t) not in EARLY]) > 0:
                sums.append((f"{what} {' '.join(map(str, key))}'s points, withheld tests' included", score(group), top(group)))
    for where, text in early:
        for m in FRACTION.finditer(text):
            for what, s, mx in sums:
                if same_points(float(m.group(1)), s) and same_points(float(m.group(2)), mx):
                    # Not quoted: run_autograder shows these lines to the student.
                    found.append(f"{where}: gives {what}, withheld until grades are published")
        for t in withheld:
            if t.get("name") and re.search(r"(?<!\w)" + re.escape(t["name"]) + r"(?!\w)", text):
                found.append(f"{where}: names a test withheld until grades are published")
        if re.search(r"hidden dataset \d+", text):
            found.append(f"{where}: names a hidden dataset before grades are published")
    withheld_labs = {t["tags"][0] for t in withheld if isinstance(t.get("tags"), list) and t["tags"]}
    for i, t in enumerate(tests):
        tags = t.get("tags") if isinstance(t.get("tags"), list) else []
        if seen(t) in EARLY and len(tags) >= 2 and tags[0] in withheld_labs and tags[1] in SCALED \
                and is_number(t.get("max_score", 0)) and t.get("max_score", 0) > 0:
            found.append(f"tests[{i}]: {tags[1]} of {tags[0]}, scaled by correctness on its hidden datasets too, "
                         "is shown before grades are published")
    return found


def problems(doc):
    """Every way `doc` (parsed JSON) breaks the format; empty when it is valid."""
    found = check_fields(doc, TOP_FIELDS, "results")
    if not isinstance(doc, dict):
        return found
    tests = doc.get("tests", [])
    if not isinstance(tests, list):
        tests = []
    for i, test in enumerate(tests):
        where = f"tests[{i}]"
        found += check_fields(test, TEST_FIELDS, where)
        if isinstance(test, dict) and is_number(test.get("score")) and is_number(test.get("max_score")) \
                and test["score"] > test["max_score"]:
            found.append(f"{where}: score {test['score']} is more than max_score {test['max_score']}")
    for i, entry in enumerate(doc.get("leaderboard", []) if isinstance(doc.get("leaderboard"), list) else []):
        found += check_fields(entry, LEADER_FIELDS, f"leaderboard[{i}]")
        if isinstance(entry, dict) and not {"name", "value"} <= entry.keys():
            found.append(f"leaderboard[{i}]: needs name and value")
    if "score" not in doc and (not tests or not all(isinstance(t, dict) and "score" in t for t in tests)):
        found.append("results: no top-level score, and not every test has one")
    tests = [t for t in tests if isinstance(t, dict)]
    return found + format_problems(doc, tests) + hidden_leaks(doc, tests)


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def check_text(text):
    try:
        doc = json.loads(text, parse_constant=refuse_constant)
    except ValueError as e:
        return [f"not valid JSON: {e}"]
    return problems(doc)


GOOD = {"score": 3.5, "execution_time": 12, "output": "x", "output_format": "text", "visibility": "visible",
        "stdout_visibility": "hidden", "extra_data": {}, "leaderboard": [{"name": "t", "value": 1.5, "order": "asc"}],
        "tests": [{"name": "a", "score": 1, "max_score": 2, "status": "failed", "number": "1.1", "tags": ["lab"],
                   "visibility": "after_published", "output": "o", "output_format": "md", "extra_data": {}}]}


# A lab's public test (visible) and its hidden one (after_published), then the lab's points in the open.
WITHHELD_LAB = {"score": 1, "tests": [
    {"name": "01 public", "score": 1, "max_score": 1, "tags": ["01", "correctness"], "visibility": "visible",
     "output": "lab 01: 1/3"},
    {"name": "01 hidden", "score": 0, "max_score": 2, "tags": ["01", "correctness"], "visibility": "after_published"}]}
WITHHELD_SAFETY = {"score": 1, "tests": [
    dict(WITHHELD_LAB["tests"][1]), {"name": "01 safety", "score": 1, "max_score": 2, "tags": ["01", "safety"]}]}
SHOWN_TABLE = dict(GOOD, output="```\nlab  points\n01    1/1\n```\n", output_format="md")


def broken_examples():
    """(what is wrong, JSON text) pairs the checker must refuse."""
    def changed(top=None, test=None, drop=()):
        return schema_cli.changed(GOOD, top, test, drop)
    return [
        ("not JSON", "{\"score\": 1,"),
        ("not an object", "[]"),
        ("an unknown top-level key", changed(top={"points": 3})),
        ("an unknown test key", changed(test={"max_points": 2})),
        ("a test scoring above its max_score", changed(test={"score": 3})),
        ("a status other than passed/failed", changed(test={"status": "skipped"})),
        ("a visibility Gradescope does not know", changed(test={"visibility": "public"})),
        ("a score that is a string", changed(top={"score": "3.5"})),
        ("a score that is a boolean", changed(test={"score": True})),
        ("NaN", changed(top={"score": float("nan")})),  # json.dumps writes NaN and Infinity
        ("infinity", changed(test={"max_score": float("inf")})),
        ("tags that are not strings", changed(test={"tags": ["lab", 2]})),
        ("a number that is not a string", changed(test={"number": 1.1})),
        ("an output format Gradescope does not know", changed(top={"output_format": "markdown"})),
        ("no score at the top or on a test", json.dumps({"tests": [{"name": "a", "max_score": 1}]})),
        ("no score at all", json.dumps({"output": "x"})),
        ("a leaderboard entry without a value", changed(top={"leaderboard": [{"name": "t"}]})),
        ("a negative execution time", changed(top={"execution_time": -1})),
        ("a table aligned with spaces, rendered as simple_format", changed(top={"output": "lab  points\n01    1/2"}, drop=["output_format"])),
        ("a table aligned with spaces outside a markdown code block", changed(top={"output": "lab  points", "output_format": "md"})),
        ("the total score shown while a test is withheld", changed(top={"output": "total 3.5 / 2"})),
        ("a lab's points, a withheld test's included, in a visible test", json.dumps(WITHHELD_LAB)),
        ("a withheld test's name in the top-level output", changed(top={"output": "see a's output"}, test={"name": "a's output"})),
        ("a hidden dataset named in the top-level output", changed(top={"output": "FAIL  hidden dataset 2 of lab 01"})),
        ("stdout shown while tests are withheld", changed(top={"stdout_visibility": "visible"})),
        ("a visible safety test of a lab with withheld tests", json.dumps(WITHHELD_SAFETY)),
    ]


if __name__ == "__main__":
    schema_cli.run(__doc__, check_text,
                   [("the valid example", json.dumps(GOOD)),
                    ("a table in a markdown code block", json.dumps(SHOWN_TABLE)),
                    ("a withheld test's points apart from the others'", json.dumps(dict(WITHHELD_LAB, tests=[
                        dict(WITHHELD_LAB["tests"][0], output="public: 1/1"), WITHHELD_LAB["tests"][1]]))),
                    ("scores on every test, none at the top", json.dumps({"tests": [{"name": "a", "score": 0, "max_score": 0}]}))],
                   broken_examples())
