#!/usr/bin/env python3
"""Checks SARIF files as scan-grade writes them (results.sarif) for GitHub code scanning.

usage: sarif_schema.py RESULTS.sarif...     prints `FILE: ok` or each problem; exits 1 on any
       sarif_schema.py --self-test          the golden file passes and every broken copy of it is refused

Four checks, with python3-jsonschema (Debian's; exit 77, a skipped test,
where it is missing): sarif-2.1.0.schema.json, the SARIF 2.1.0 objects the
file uses as the OASIS specification defines them; sarif-github.schema.json,
what GitHub code scanning requires on top; the schema codeql-action's
upload-sarif validates a file against before it uploads it
(codeql-action-sarif-2.1.0.schema.json in the published schemas beside the
kit, ../shared/schemas/ or SCAN_SCHEMAS; not checked, and said so, where it
is absent); and what a JSON schema cannot
say: each result's ruleIndex is the index of its ruleId's rule (SARIF
3.27.6), rule ids are distinct, a result's location ids are distinct (3.28.2),
and, stricter than SARIF (3.4.4, 3.14.14), every uri names a base that the
run's originalUriBaseIds describes. problems(doc, root) also checks
that each location's file exists under ROOT with that many lines, as
upload-sarif needs it in the repository it uploads from.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "..", "grader", "tests", "golden", "results.sarif")
SCHEMAS = os.environ.get("SCAN_SCHEMAS") or os.path.join(HERE, "..", "..", "..", "shared", "schemas")
CODEQL = os.path.normpath(os.path.join(SCHEMAS, "codeql-action-sarif-2.1.0.schema.json"))
sys.path.insert(0, HERE)
import schema_cli  # noqa: E402

try:
    import jsonschema
except ImportError:
    jsonschema = None


def _validator(path, check=True):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    if check:
        cls.check_schema(schema)
    return cls(schema)


def _where(error):
    return "/".join(str(p) for p in error.absolute_path) or "(top)"


def _locations(result):
    return list(result.get("locations", [])) + list(result.get("relatedLocations", []))


def problems(doc, root=None):
    """Every way `doc` (parsed JSON) breaks SARIF 2.1.0 or GitHub's rules; empty when it is valid."""
    if jsonschema is None:
        return ["python3-jsonschema is not installed: the schemas cannot be checked"]
    found = []
    schemas = [(_validator(os.path.join(HERE, "sarif-2.1.0.schema.json")), "SARIF 2.1.0"),
               (_validator(os.path.join(HERE, "sarif-github.schema.json")), "GitHub")]
    if os.path.isfile(CODEQL):
        # Taken as upload-lib.ts takes it, unchecked: its region's anyOf sits
        # under "properties", which a 2020-12 metaschema check refuses.
        schemas.append((_validator(CODEQL, check=False), "codeql-action"))
    for validator, label in schemas:
        for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            message = e.message if len(e.message) <= 200 else e.message[:200] + "..."  # it may quote the whole log
            found.append("%s: %s: %s" % (label, _where(e), message))
    if found or not isinstance(doc, dict):
        return found
    for r, run in enumerate(doc["runs"]):
        rules = run["tool"]["driver"].get("rules", [])
        ids = [rule["id"] for rule in rules]
        if len(set(ids)) != len(ids):
            found.append("runs/%d: rule ids repeat: %s" % (r, ids))
        bases = run.get("originalUriBaseIds", {})
        for i, result in enumerate(run.get("results", [])):
            at = "runs/%d/results/%d" % (r, i)
            if "ruleIndex" in result and (result["ruleIndex"] >= len(ids) or ids[result["ruleIndex"]] != result.get("ruleId")):
                found.append("%s: ruleIndex %d is not the rule %r" % (at, result["ruleIndex"], result.get("ruleId")))
            if "ruleId" in result and result["ruleId"] not in ids:
                found.append("%s: no rule %r in the driver's rules" % (at, result["ruleId"]))
            location_ids = [loc["id"] for loc in _locations(result) if "id" in loc]
            if len(set(location_ids)) != len(location_ids):
                found.append("%s: location ids repeat: %s" % (at, location_ids))
            for loc in _locations(result):
                artifact = loc["physicalLocation"]["artifactLocation"]
                base = artifact.get("uriBaseId")
                if base is None or base not in bases:
                    found.append("%s: %s names no base of originalUriBaseIds (uriBaseId %r)" % (at, artifact["uri"], base))
                if root is not None:
                    line = loc["physicalLocation"].get("region", {}).get("startLine", 1)  # none: the file alone
                    found += _file_problems(at, root, artifact["uri"], line)
    return found


def _file_problems(at, root, uri, line):
    from urllib.parse import unquote
    path = os.path.join(root, unquote(uri))
    if not os.path.isfile(path):
        return ["%s: %s is not a file of %s" % (at, uri, root)]
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().count("\n") + 1
    return [] if line <= lines else ["%s: %s has %d lines, not %d" % (at, uri, lines, line)]


def check_text(data):
    try:
        doc = json.loads(data)
    except ValueError as e:
        return ["not valid JSON: %s" % e]
    return problems(doc)


def broken_examples():
    """(what is wrong, JSON text) pairs the checker must refuse: the golden file, broken one way each."""
    def changed(edit):
        with open(GOLDEN, encoding="utf-8") as f:
            doc = json.load(f)
        edit(doc, doc["runs"][0], doc["runs"][0]["results"][0], doc["runs"][0]["tool"]["driver"]["rules"][0])
        return json.dumps(doc)

    def put(obj, key, value):
        obj[key] = value

    def region(result):
        return result["locations"][0]["physicalLocation"]["region"]
    return [
        # The specification's
        ("another SARIF version", changed(lambda d, run, res, rule: put(d, "version", "2.0.0"))),
        ("a run without a tool", changed(lambda d, run, res, rule: run.pop("tool"))),
        ("a driver without a name", changed(lambda d, run, res, rule: run["tool"]["driver"].pop("name"))),
        ("a level SARIF does not know", changed(lambda d, run, res, rule: put(res, "level", "fatal"))),
        ("line 0", changed(lambda d, run, res, rule: put(region(res), "startLine", 0))),
        ("a misspelt property", changed(lambda d, run, res, rule: put(region(res), "startline", 3))),
        ("a result without a message", changed(lambda d, run, res, rule: res.pop("message"))),
        ("a rule without an id", changed(lambda d, run, res, rule: rule.pop("id"))),
        ("a ruleIndex that is another rule's", changed(lambda d, run, res, rule: put(res, "ruleIndex", res["ruleIndex"] + 1))),
        ("two locations of a result with one id",
         changed(lambda d, run, res, rule: res["relatedLocations"].append(dict(res["relatedLocations"][0], message={"text": "x"})))),
        ("a uriBaseId the run does not name", changed(lambda d, run, res, rule: run.pop("originalUriBaseIds"))),
        # GitHub's
        ("no $schema", changed(lambda d, run, res, rule: d.pop("$schema"))),
        ("a result without a location", changed(lambda d, run, res, rule: put(res, "locations", []))),
        ("a region without a line", changed(lambda d, run, res, rule: region(res).pop("startLine"))),
        ("a location without a file",
         changed(lambda d, run, res, rule: res["locations"][0]["physicalLocation"].pop("artifactLocation"))),
        ("an empty message", changed(lambda d, run, res, rule: put(res["message"], "text", ""))),
        ("a rule without help", changed(lambda d, run, res, rule: rule.pop("help"))),
        ("a rule without a full description", changed(lambda d, run, res, rule: rule.pop("fullDescription"))),
        ("an absolute uri", changed(lambda d, run, res, rule: put(res["locations"][0]["physicalLocation"]["artifactLocation"],
                                                                  "uri", "file:///home/runner/work/labs/01/scan.cu"))),
        ("a uri out of the repository",
         changed(lambda d, run, res, rule: put(res["locations"][0]["physicalLocation"]["artifactLocation"], "uri", "../scan.cu"))),
        ("21 runs", changed(lambda d, run, res, rule: put(d, "runs", [run] * 21))),
    ]


if __name__ == "__main__":
    if jsonschema is None:
        print("sarif_schema.py: python3-jsonschema is not installed (apt-get install python3-jsonschema): skipped")
        sys.exit(77)
    print("codeql-action's upload schema: " + ("checked too (%s)" % CODEQL if os.path.isfile(CODEQL) else
          "SKIP, not found at %s (the published schemas beside the kit, or SCAN_SCHEMAS)" % CODEQL))
    with open(GOLDEN, encoding="utf-8") as f:
        golden = f.read()
    schema_cli.run(__doc__, check_text, [("grader/tests/golden/results.sarif", golden)], broken_examples())
