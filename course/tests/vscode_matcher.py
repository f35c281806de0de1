"""A replica of how VS Code turns a task's output into Problems-panel markers,
from the problem matchers its tasks.json declares.

Source: microsoft/vscode src/vs/workbench/contrib/tasks/common/problemMatcher.ts
(read at commit 06b876c0a5cc987b14fee65ef048fd4668eea3af):
- ProblemMatcherParser.createProblemMatcher: fileLocation "absolute",
  "relative" or "autoDetect" (a string: the prefix is ${workspaceFolder}),
  ["absolute"], or ["relative" | "autoDetect", PREFIX]; anything else leaves
  the matcher without a file location, and checkProblemMatcherValid drops it.
- ProblemPatternParser: the regexp is JavaScript's RegExp; a single pattern's
  groups default to file 1, line 2, column 3, message 0 (file 1, message 0
  where kind is "file" or a location group is given); validateProblemPattern
  wants a file and a message, and, unless kind is "file", a line or a location.
- AbstractLineMatcher.fillProblemData: file, message, code, severity and
  location trimmed; a group that did not take part is left unset.
  getMarkerMatch: no marker without a file, a location and a message;
  numbers are read with parseInt (NaN where a group holds no number);
  getLocation: kind "file" is the location (0, 0, 0, 0), else the location
  group, else the line group; no line, no location, no marker.
  getSeverity: vs/base/common/severity.ts fromValue ("error", "warning",
  "warn", "info", any case), then "E", "W", "I", "hint" and "note" (info), else
  the matcher's severity, else error.
- getResource: absolute as given; relative joined to the prefix; autoDetect the
  relative one where that file exists, else absolute; then normalised.
Each line of the output goes to every matcher of the task.
"""
import posixpath
import re
from collections import namedtuple

Marker = namedtuple("Marker", "path line column severity message code source")


class Invalid(Exception):
    """A matcher VS Code refuses (its parser's message)."""


def js_regexp(text):
    """The pattern as Python reads it, where it means the same as JavaScript's RegExp."""
    if re.search(r"\(\?<|\\[pPkuxc]|\(\?[a-z]", text):
        raise Invalid("the regexp %r uses what Python's re and JavaScript read differently" % text)
    try:
        return re.compile(text)
    except re.error as e:
        raise Invalid("Error: The string %s is not a valid regular expression. (%s)" % (text, e))


def substitute(value, variables):
    return re.sub(r"\$\{(\w+)\}", lambda m: variables.get(m.group(1), m.group(0)), value)


def file_location(value, variables):
    """(kind, prefix) as createProblemMatcher reads fileLocation."""
    if value is None:
        return "relative", substitute("${workspaceFolder}", variables)
    if isinstance(value, str):
        kind = value.lower()
        if kind in ("relative", "autodetect"):
            return kind, substitute("${workspaceFolder}", variables)
        if kind == "absolute":
            return kind, None
    elif isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
        kind = value[0].lower()
        if len(value) == 1 and kind == "absolute":
            return kind, None
        if len(value) == 2 and kind in ("relative", "autodetect") and value[1]:
            return kind, substitute(value[1], variables)
    raise Invalid("Error: the description doesn't define a file location: %r" % (value,))


def pattern(config):
    """A single-line pattern as ProblemPatternParser builds and validates it."""
    if isinstance(config, list):
        raise Invalid("multi-line patterns are not replicated here")
    if not isinstance(config, dict) or not isinstance(config.get("regexp"), str):
        raise Invalid("The problem pattern is missing a regular expression.")
    kind = config.get("kind", "location").lower()
    if kind not in ("file", "location"):
        kind = "location"  # ProblemLocationKind.fromString: undefined, then the default
    p = {"regexp": js_regexp(config["regexp"]), "kind": kind}
    for key, source in (("file", "file"), ("location", "location"), ("line", "line"), ("character", "column"),
                        ("endLine", "endLine"), ("endCharacter", "endColumn"), ("severity", "severity"),
                        ("code", "code"), ("message", "message")):
        if isinstance(config.get(source), int) and not isinstance(config.get(source), bool):
            p[key] = config[source]
    defaults = {"file": 1, "message": 0} if "location" in p or kind == "file" else \
        {"file": 1, "line": 2, "character": 3, "message": 0}
    for key, value in defaults.items():
        p.setdefault(key, value)
    if kind == "location" and "line" not in p and "location" not in p:
        raise Invalid('The problem pattern is invalid. It must either have kind: "file" or have a line or location '
                      'match group.')
    return p


def matcher(config, variables):
    """One problem matcher of a task, as VS Code parses it; Invalid where it drops it."""
    if not isinstance(config, dict):
        raise Invalid("named matchers ($gcc, ...) are not replicated here")
    kind, prefix = file_location(config.get("fileLocation"), variables)
    if "pattern" not in config:
        raise Invalid("Error: the description doesn't define a valid problem pattern")
    severity = str(config.get("severity", "error")).lower()
    return {"owner": config.get("owner"), "source": config.get("source"), "kind": kind, "prefix": prefix,
            "pattern": pattern(config["pattern"]),
            "severity": severity if severity in ("error", "warning", "info") else "error"}


def matchers(value, variables):
    """A task's problemMatcher: one matcher or a list of them."""
    return [matcher(m, variables) for m in (value if isinstance(value, list) else [value])]


def parse_int(text):
    """JavaScript's parseInt: the leading digits, else NaN."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else float("nan")


def severity_of(value, default):
    if value:
        v = value.lower()
        if v in ("error", "warning", "info"):
            return v
        if v == "warn":
            return "warning"
        if value in ("E", "W", "I"):
            return {"E": "error", "W": "warning", "I": "info"}[value]
        if v in ("hint", "note"):
            return "info"
    return default


def resource(m, filename, exists):
    if m["kind"] == "absolute":
        full = filename
    elif m["kind"] == "relative":
        full = posixpath.join(m["prefix"], filename)
    else:
        relative = posixpath.normpath(posixpath.join(m["prefix"], filename))
        full = relative if exists(relative) else filename
    full = posixpath.normpath(full)
    return full if full.startswith("/") else "/" + full


def marker(m, line, exists):
    """The marker `line` makes under matcher `m`, or None."""
    p = m["pattern"]
    match = p["regexp"].search(line)
    if not match:
        return None
    group = lambda key, trim=False: (None if key not in p or p[key] > (match.re.groups or 0) or match.group(p[key]) is None
                                     else match.group(p[key]).strip() if trim else match.group(p[key]))
    data = {key: group(key, trim=key in ("file", "message", "code", "severity", "location"))
            for key in ("file", "message", "code", "severity", "location", "line", "character")}
    if p["kind"] == "file":
        start, column = 0, 0
    elif data["location"]:
        parts = data["location"].split(",")
        start, column = parse_int(parts[0]), parse_int(parts[1]) if len(parts) > 1 else None
    elif data["line"]:
        start, column = parse_int(data["line"]), parse_int(data["character"]) if data["character"] else None
    else:
        return None
    if not data["file"] or not data["message"]:
        return None
    return Marker(resource(m, data["file"], exists), start, column, severity_of(data["severity"], m["severity"]),
                  data["message"], data["code"], m["source"])


def markers(task_matchers, text, exists=posixpath.exists):
    """Every marker the task's matchers make of its output, in the output's order."""
    out = []
    for line in text.splitlines():
        for m in task_matchers:
            found = marker(m, line, exists)
            if found:
                out.append(found)
    return out
