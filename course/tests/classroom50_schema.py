#!/usr/bin/env python3
"""Checks files against Classroom 50's result.json format (classroom50/result/v1).

usage: classroom50_schema.py RESULT.json...   prints `FILE: ok` or each problem; exits 1 on any
       classroom50_schema.py --self-test      checks that broken examples are refused

The format is foundation50/classroom50's: schemas/result-v1.schema.json (the
structure) and the validate_result of
cli/gh-teacher/skeleton/dotgithub/scripts/runner.py and collect_scores.py (the
rules a JSON schema cannot say). At the top exactly schema
("classroom50/result/v1"), classroom, assignment, assignment_type
("individual" or "group"), owner, submission ("submit/..."), commit, release,
review, datetime (YYYY-MM-DDTHH:MM:SSZ), score, max-score and tests, with
graded_at and submitted_by optional (Classroom 50's runner stamps them);
strings not empty; score and max-score non-negative integers, score <=
max-score; each test an object with a non-empty test-name, a boolean passed
and non-negative integer score <= max-score, further keys allowed. Stricter
than Classroom 50 (its validators do not add up the tests): the top-level
score and max-score must be the tests' sums.
"""
import json
import re

import schema_cli  # beside this file (in the Gradescope bundle too)

STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$")
REQUIRED = ["schema", "classroom", "assignment", "assignment_type", "owner", "submission", "commit", "release",
            "review", "datetime", "score", "max-score", "tests"]
OPTIONAL = ["graded_at", "submitted_by"]


def whole(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def text(v):
    return isinstance(v, str) and v != ""


def problems(doc):
    """Every way `doc` (parsed JSON) breaks the format; empty when it is valid."""
    if not isinstance(doc, dict):
        return ["result: not an object"]
    found = [f"result: no \"{k}\"" for k in REQUIRED if k not in doc]
    found += [f"result: unknown key \"{k}\"" for k in doc if k not in REQUIRED + OPTIONAL]
    if "schema" in doc and doc["schema"] != "classroom50/result/v1":
        found.append(f"result.schema: {doc['schema']!r} is not \"classroom50/result/v1\"")
    for key in ("classroom", "assignment", "owner", "commit", "release", "review"):
        if key in doc and not text(doc[key]):
            found.append(f"result.{key}: not a non-empty string")
    if "assignment_type" in doc and doc["assignment_type"] not in ("individual", "group"):
        found.append(f"result.assignment_type: {doc['assignment_type']!r} is not individual or group")
    if "submission" in doc and not (isinstance(doc["submission"], str) and doc["submission"].startswith("submit/")):
        found.append("result.submission: not a string starting submit/")
    for key in ("datetime", "graded_at"):
        if key in doc and not (isinstance(doc[key], str) and STAMP.match(doc[key])):
            found.append(f"result.{key}: {doc[key]!r} is not YYYY-MM-DDTHH:MM:SSZ")
    if "submitted_by" in doc:
        by = doc["submitted_by"]
        if not (isinstance(by, dict) and text(by.get("username")) and set(by) <= {"username", "id"}
                and (by.get("id") is None or whole(by["id"]))):
            found.append("result.submitted_by: not {username, id}")
    for key in ("score", "max-score"):
        if key in doc and not whole(doc[key]):
            found.append(f"result.{key}: {json.dumps(doc[key])} is not a non-negative integer")
    if whole(doc.get("score")) and whole(doc.get("max-score")) and doc["score"] > doc["max-score"]:
        found.append(f"result: score {doc['score']} is more than max-score {doc['max-score']}")
    tests = doc.get("tests")
    if "tests" in doc and not isinstance(tests, list):
        found.append("result.tests: not a list")
        tests = []
    sums = [0, 0]
    for i, t in enumerate(tests or []):
        where = f"tests[{i}]"
        if not isinstance(t, dict):
            found.append(f"{where}: not an object")
            continue
        if not text(t.get("test-name")):
            found.append(f"{where}.test-name: not a non-empty string")
        if not isinstance(t.get("passed"), bool):
            found.append(f"{where}.passed: not a boolean")
        for key in ("score", "max-score"):
            if not whole(t.get(key)):
                found.append(f"{where}.{key}: {json.dumps(t.get(key))} is not a non-negative integer")
        if whole(t.get("score")) and whole(t.get("max-score")):
            if t["score"] > t["max-score"]:
                found.append(f"{where}: score {t['score']} is more than max-score {t['max-score']}")
            sums[0] += t["score"]
            sums[1] += t["max-score"]
    for key, total in (("score", sums[0]), ("max-score", sums[1])):
        if whole(doc.get(key)) and isinstance(tests, list) and doc[key] != total:
            found.append(f"result.{key}: {doc[key]}, but the tests sum to {total}")
    return found


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def check_text(data):
    try:
        doc = json.loads(data, parse_constant=refuse_constant)
    except ValueError as e:
        return [f"not valid JSON: {e}"]
    return problems(doc)


GOOD = {"schema": "classroom50/result/v1", "classroom": "cuda-fall", "assignment": "scan-labs",
        "assignment_type": "individual", "owner": "jdoe", "submission": "submit/2026-09-01T12-00-00Z-abc1234",
        "commit": "https://github.com/o/r/commit/abc", "release": "https://github.com/o/r/releases/tag/x",
        "review": "https://github.com/o/r/commit/abc", "datetime": "2026-09-01T12:00:05Z",
        "graded_at": "2026-09-01T12:03:00Z", "submitted_by": {"username": "jdoe", "id": 7},
        "score": 65, "max-score": 70,
        "tests": [{"test-name": "02-brent-kung correctness", "passed": True, "score": 60, "max-score": 60},
                  {"test-name": "02-brent-kung divergence", "passed": False, "score": 5, "max-score": 10,
                   "message": "extra keys are kept"}]}


def broken_examples():
    """(what is wrong, JSON text) pairs the checker must refuse."""
    def changed(top=None, test=None, drop=()):
        return schema_cli.changed(GOOD, top, test, drop, test_index=1)
    return [
        ("not JSON", "{\"score\": 1,"),
        ("not an object", "[]"),
        ("another schema", changed(top={"schema": "classroom50/result/v2"})),
        ("no owner", changed(drop=["owner"])),
        ("no tests", changed(drop=["tests"])),
        ("an unknown top-level key", changed(top={"points": 3})),
        ("an empty classroom", changed(top={"classroom": ""})),
        ("an assignment type Classroom 50 does not know", changed(top={"assignment_type": "pair"})),
        ("a submission that is not a submit/ tag", changed(top={"submission": "v1"})),
        ("a datetime with an offset", changed(top={"datetime": "2026-09-01T12:00:05+02:00"})),
        ("a fractional score", changed(top={"score": 64.5}, test={"score": 4.5})),
        ("a score that is a boolean", changed(test={"passed": True, "score": True})),
        ("a negative max-score", changed(top={"max-score": -70})),
        ("a test scoring above its max-score", changed(top={"score": 71}, test={"score": 11})),
        ("passed that is not a boolean", changed(test={"passed": "no"})),
        ("a test without a name", changed(test={"test-name": ""})),
        ("a score that is not the tests' sum", changed(top={"score": 60})),
        ("a max-score that is not the tests' sum", changed(top={"max-score": 80})),
        ("a score above max-score", changed(top={"score": 75, "max-score": 70}, test={"score": 15, "max-score": 10})),
        ("submitted_by without a username", changed(top={"submitted_by": {"id": 7}})),
    ]


if __name__ == "__main__":
    schema_cli.run(__doc__, check_text, [("the valid example", json.dumps(GOOD))], broken_examples())
