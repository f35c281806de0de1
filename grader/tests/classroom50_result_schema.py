#!/usr/bin/env python3
"""classroom50_result_schema.py KIT [RESULT.json...]: result.json against
Classroom 50's published schema, classroom50-result-v1.schema.json, read from
the course checkout's shared/schemas folder beside the kit (KIT/../shared/
schemas; never copied into the kit). Default file: the golden result.json
(grader/tests/golden/), which test-outputs checks scan-grade writes byte for
byte. Also: datetime is the submission's instant and graded_at the grading
time, not one value twice. Exit 77 (skipped), saying why, where the folder or
python3-jsonschema is absent."""
import json
import os
import sys

kit = os.path.abspath(sys.argv[1])
files = sys.argv[2:] or [os.path.join(kit, "grader", "tests", "golden", "result.json")]
schemas = os.path.join(os.path.dirname(kit), "shared", "schemas")
schema_file = os.path.join(schemas, "classroom50-result-v1.schema.json")
if not os.path.isfile(schema_file):
    print("SKIP: no ../shared/schemas/classroom50-result-v1.schema.json beside the kit (a course checkout has it)")
    sys.exit(77)
try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

with open(schema_file) as f:
    schema = json.load(f)
validator = jsonschema.validators.validator_for(schema)(schema)
failed = 0
for path in files:
    with open(path) as f:
        doc = json.load(f)
    problems = ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(top)", e.message)
                for e in validator.iter_errors(doc)]
    if "graded_at" not in doc or doc.get("graded_at") == doc.get("datetime"):
        problems.append("graded_at (the grading time) missing or equal to datetime (the submission's instant)")
    failed += bool(problems)
    print("%s: %s" % (os.path.basename(path), "ok" if not problems else "\n  ".join(["invalid"] + problems)))
sys.exit(1 if failed else 0)
