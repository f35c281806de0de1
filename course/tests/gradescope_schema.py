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
"""
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
    return found


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


def broken_examples():
    """(what is wrong, JSON text) pairs the checker must refuse."""
    def changed(top=None, test=None, drop=()):
        doc = json.loads(json.dumps(GOOD))
        doc.update(top or {})
        doc["tests"][0].update(test or {})
        for key in drop:
            doc.pop(key)
        return json.dumps(doc)
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
    ]


if __name__ == "__main__":
    schema_cli.run(__doc__, check_text,
                   [("the valid example", json.dumps(GOOD)),
                    ("scores on every test, none at the top", json.dumps({"tests": [{"name": "a", "score": 0, "max_score": 0}]}))],
                   broken_examples())
