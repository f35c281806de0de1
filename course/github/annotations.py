#!/usr/bin/env python3
"""annotations.py RESULTS.SARIF: the grader's findings as GitHub Actions
annotations on the student's lines, printed as workflow commands:

    ::error file=labs/02-brent-kung/scan.cu,line=25,col=13,title=data race on shared memory::data race on ...

(col= where the SARIF region has a startColumn), one a result of the file
written by scan-grade (grader/outputs/sarif.cpp), in its
order, which is the worst first (errors before warnings, undefined
behaviour first). The grader writes each bug once, however many datasets
showed it (grader/outputs/distinct_findings.hpp), so each is one annotation; a
result whose location has no region (a leak: it names no line) annotates
the file, with no line= (a file-level annotation). GitHub shows at most 10 error, 10 warning and 10 notice annotations
a step and 50 a job (actions/toolkit, docs/problem-matchers.md,
"Limitations"): the first 10 of each level are printed, then a notice
counting the rest, which feedback.txt and results.sarif hold. The file is
named relative to the repository's root, as the SARIF's artifactLocation is
and as the runner passes on a relative path (actions/runner,
ActionCommandManager.cs). Messages and properties are escaped as
@actions/core's command.ts does: % CR LF in both, and : , in properties.

Reads only the SARIF file's data (its results, rules and locations); exits
2 on a file it cannot read, printing why on stderr.
"""
import json
import sys
import urllib.parse

PER_STEP = 10  # annotations of one level a step
COMMAND = {"error": "error", "warning": "warning", "note": "notice", "none": "notice"}


def escape_data(text):
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text):
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name, message, **properties):
    props = ",".join("%s=%s" % (k, escape_property(str(v))) for k, v in properties.items() if v not in (None, ""))
    return "::%s%s::%s" % (name, " " + props if props else "", escape_data(message))


def annotations(doc):
    """The workflow command lines for a SARIF log, the limit applied."""
    lines, shown, left = [], {}, 0
    for run in doc.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        by_id = {r.get("id"): r for r in rules}
        for result in run.get("results", []):
            rule = by_id.get(result.get("ruleId"), {})
            level = result.get("level") or rule.get("defaultConfiguration", {}).get("level") or "warning"
            name = COMMAND.get(level, "warning")
            # One notice is kept for the count of what is left out.
            if shown.get(name, 0) >= PER_STEP - (name == "notice"):
                left += 1
                continue
            shown[name] = shown.get(name, 0) + 1
            location = (result.get("locations") or [{}])[0]
            where = location.get("physicalLocation", {})
            uri = where.get("artifactLocation", {}).get("uri")
            region = where.get("region", {})  # none: the file as a whole, no line=
            lines.append(command(name, result.get("message", {}).get("text", ""),
                                 file=urllib.parse.unquote(uri) if uri else None,
                                 line=region.get("startLine"), col=region.get("startColumn"),
                                 title=rule.get("shortDescription", {}).get("text") or result.get("ruleId")))
    if left:
        lines.append(command("notice", "%d more finding%s than GitHub annotates in a step (%d of each level): "
                             "feedback.txt and results.sarif in the grading-results artifact list them all"
                             % (left, "" if left == 1 else "s", PER_STEP), title="more findings"))
    return lines


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("annotations.py: cannot read %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    lines = annotations(doc)
    errors = sum(l.startswith("::error ") for l in lines)
    warnings = sum(l.startswith("::warning ") for l in lines)
    print("scan-grade's findings: %d error and %d warning annotation(s) from %s" % (errors, warnings, argv[1]))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
