"""The command line both results-file checkers share (gradescope_schema.py,
classroom50_schema.py): check files, or --self-test that the valid examples
pass and every broken one is refused. Shipped beside gradescope_schema.py in
the Gradescope bundle."""
import json
import sys


def changed(good, top=None, test=None, drop=(), test_index=0, drop_test=()):
    """A broken example: `good` (a result) as JSON text, `test` merged into
    its tests[test_index] and `drop_test` taken from that test, then `top`
    merged in and `drop` taken out at the top."""
    doc = json.loads(json.dumps(good))
    doc["tests"][test_index].update(test or {})
    for key in drop_test:
        doc["tests"][test_index].pop(key)
    doc.update(top or {})
    for key in drop:
        doc.pop(key)
    return json.dumps(doc)


def self_test(check_text, valid, broken):
    """valid: [(what, text)] that must pass; broken: [(what, text)] that must be refused."""
    failures = 0
    for what, text in valid:
        found = check_text(text)
        if found:
            print(f"FAIL  {what} is refused: {found}")
            failures += 1
    for what, text in broken:
        found = check_text(text)
        print(f"{'ok  ' if found else 'FAIL'}  refused: {what}" + (f" ({found[0]})" if found else " -- accepted"))
        failures += not found
    print(f"self-test: {failures} failed")
    return 1 if failures else 0


def main(argv, doc, check_text, valid, broken):
    """`doc`'s second paragraph is the usage printed for a wrong call (exit 2)."""
    if argv == ["--self-test"]:
        return self_test(check_text, valid, broken)
    if not argv or argv[0].startswith("-"):
        print(doc.split("\n\n")[1], file=sys.stderr)
        return 2
    bad = 0
    for path in argv:
        try:
            with open(path, encoding="utf-8") as f:
                found = check_text(f.read())
        except (OSError, UnicodeDecodeError) as e:
            found = [f"cannot read: {e}"]
        for p in found:
            print(f"{path}: {p}")
        if not found:
            print(f"{path}: ok")
        bad += bool(found)
    return 1 if bad else 0


def run(doc, check_text, valid, broken):
    sys.exit(main(sys.argv[1:], doc, check_text, valid, broken))

