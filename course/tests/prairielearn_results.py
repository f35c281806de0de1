#!/usr/bin/env python3
"""Checks files against PrairieLearn's external grader results.json.

usage: prairielearn_results.py RESULTS.json...   prints `FILE: ok` or each problem; exits 1 on any
       prairielearn_results.py --self-test       checks that broken examples are refused

A replica of what PrairieLearn does with /grade/results/results.json, read
from PrairieLearn/PrairieLearn (commit 88fb855, docs/externalGrading.md,
"Grading results"):
- apps/grader-host/src/index.ts: a file over 1024 * 1024 bytes, or one that
  JSON.parse refuses (NaN, Infinity), fails the job;
- apps/prairielearn/src/lib/externalGraderCommon.ts, makeGradingResult: a
  score that is present must be a number; format_errors a string or a list;
- apps/prairielearn/src/lib/externalGrader.ts, processGradingResult: the
  submission is gradable unless `gradable` is false, and then the score must
  be finite and within [0, 1], or PrairieLearn marks it not gradable;
- apps/prairielearn/elements/pl-external-grader-results/*.py and .mustache:
  message and output are text (ANSI turned to HTML); images are objects with
  a url and an optional label, or url strings; each test's points and
  max_points are numbers, and where any test lacks them the per-test points
  display is off for every test (the docs' "all-or-nothing").
Stricter than PrairieLearn where its docs ask more than its code: a gradable
result must carry its score ("the result only has one mandatory field"),
`gradable` must be a boolean, and every test must have points and
max_points. The kit's own rule, not PrairieLearn's: the score the element
shows beside the tests' points (points/max_points (score%)) must agree with
them.
"""
import json
import math

import schema_cli  # beside this file

LIMIT = 1024 * 1024  # grader-host: "Cap output at 1MB"


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def image_problems(images, where):
    if not isinstance(images, list):
        return [f"{where}: not a list"]
    found = []
    for i, image in enumerate(images):
        if isinstance(image, str):  # "for compatibility with older versions of external graders"
            continue
        if not isinstance(image, dict) or not isinstance(image.get("url"), str):
            found.append(f"{where}[{i}]: neither a url string nor an object with a url string")
        elif "label" in image and not isinstance(image["label"], str):
            found.append(f"{where}[{i}].label: not a string")
    return found


def text_problems(obj, keys, where):
    return [f"{where}.{k}: {json.dumps(obj[k])[:60]} is not a string"
            for k in keys if obj.get(k) is not None and not isinstance(obj[k], str)]


def test_problems(test, where):
    if not isinstance(test, dict):
        return [f"{where}: not an object"]
    found = text_problems(test, ("name", "description", "message", "output"), where)
    for key in ("points", "max_points"):
        if not is_number(test.get(key)):
            found.append(f"{where}.{key}: {json.dumps(test.get(key))} is not a finite number "
                         "(PrairieLearn then shows no test's points)")
    if "images" in test:
        found += image_problems(test["images"], where + ".images")
    return found


def problems(doc):
    """Every way `doc` (parsed JSON) breaks PrairieLearn's results; empty when it is valid."""
    if not isinstance(doc, dict):
        return ["results: not an object"]
    found = []
    gradable = doc.get("gradable", True)
    if not isinstance(gradable, bool):
        found.append(f"results.gradable: {json.dumps(gradable)} is not true or false")
    score = doc.get("score")
    if score is not None and not is_number(score):
        found.append(f"results.score: {json.dumps(score)} is not a finite number")
    elif gradable is not False:
        if score is None:
            found.append("results: gradable, but no score")
        elif not 0 <= score <= 1:
            found.append(f"results.score: {score} is out of range [0, 1]")
    errors = doc.get("format_errors")
    if errors is not None and not (isinstance(errors, str) or
                                   (isinstance(errors, list) and all(isinstance(e, str) for e in errors))):
        found.append("results.format_errors: neither a string nor a list of strings")
    found += text_problems(doc, ("message", "output"), "results")
    if "images" in doc:
        found += image_problems(doc["images"], "results.images")
    tests = doc.get("tests")
    if tests is not None and not isinstance(tests, list):
        return found + ["results.tests: not a list"]
    test_found = [p for i, t in enumerate(tests or []) for p in test_problems(t, f"tests[{i}]")]
    found += test_found
    if tests and not test_found and gradable is not False and is_number(score):
        points = sum(t["points"] for t in tests)
        possible = sum(t["max_points"] for t in tests)
        if possible > 0 and abs(points / possible - score) > 1e-6:
            found.append(f"results.score {score} disagrees with the tests' points {points:g}/{possible:g}")
    return found


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def check_text(text):
    if len(text.encode("utf-8")) > LIMIT:
        return [f"larger than PrairieLearn's 1 MB ({LIMIT} bytes)"]
    try:
        doc = json.loads(text, parse_constant=refuse_constant)
    except ValueError as e:
        return [f"not valid JSON: {e}"]
    return problems(doc)


GOOD = {"gradable": True, "score": 0.25, "message": "m", "output": "o",
        "images": [{"label": "a", "url": "data:image/svg+xml;base64,AA=="}, "data:image/png;base64,AA=="],
        "tests": [{"name": "t1", "description": "d", "points": 1, "max_points": 1, "message": "ok", "output": "o",
                   "images": [{"url": "data:image/png;base64,AA=="}]},
                  {"name": "t2", "points": 0, "max_points": 3}]}


def broken_examples():
    """(what is wrong, JSON text) pairs the checker must refuse."""
    def changed(top=None, test=None, drop=(), drop_test=()):
        return schema_cli.changed(GOOD, top, test, drop, drop_test=drop_test)
    return [
        ("not JSON", "{\"score\": 1,"),
        ("not an object", "[]"),
        ("NaN", changed(top={"score": float("nan")})),  # json.dumps writes NaN and Infinity
        ("a score above 1", changed(top={"score": 1.5}, drop=("tests",))),
        ("a negative score", changed(top={"score": -0.1}, drop=("tests",))),
        ("a score that is a string", changed(top={"score": "0.25"})),
        ("a gradable result without a score", changed(drop=("score",))),
        ("gradable that is a string", changed(top={"gradable": "false"})),
        ("format_errors that is a number", changed(top={"format_errors": 3})),
        ("an output that is a list", changed(top={"output": ["o"]})),
        ("a test without points", changed(drop_test=("points",))),
        ("a test whose max_points is null", changed(test={"max_points": None})),
        ("a test whose points are a string", changed(test={"points": "1"})),
        ("a test whose message is a number", changed(test={"message": 1})),
        ("tests that are an object", changed(top={"tests": {"t1": GOOD["tests"][0]}})),
        ("an image without a url", changed(top={"images": [{"label": "a"}]})),
        ("a test image that is a number", changed(test={"images": [3]})),
        ("a score that disagrees with the tests' points", changed(top={"score": 0.5})),
        ("over 1 MB", changed(top={"output": "x" * LIMIT})),
    ]


if __name__ == "__main__":
    schema_cli.run(__doc__, check_text,
                   [("the valid example", json.dumps(GOOD)),
                    ("not gradable, no score", json.dumps({"gradable": False, "format_errors": ["no file"]})),
                    ("the docs' minimal result", json.dumps({"score": 1}))],
                   broken_examples())
