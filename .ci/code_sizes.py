#!/usr/bin/env python3
"""code_sizes.py KIT [--write]: the kit's source files over 500 lines and functions over 80.

Reads every .cpp, .hpp, .cu, .cuh and .h under datasets/, simt/, labs/,
bench/, grader/ and reference/, tests and their data aside (folders named
tests, the corpus, simt's conformance and safety suites). A function is a brace
block opened at the end of a line that closes a parameter list at namespace
depth (a free function, a member defined out of its class, a lambda
assigned at namespace scope is not one); its length runs from that line to
its closing brace. Strings, characters and comments are blanked first, so
their braces do not count.

The limits are the issue's (500 and 80); code_sizes.txt beside this script
lists what was over them when it was written, each with its size then: a
listed one may shrink but not grow, and nothing new may cross a limit.
Prints the table, largest first; exits 1 where something grew or is new.
--write rewrites code_sizes.txt from the tree as it is.
"""
import re
import sys
from pathlib import Path

FILE_LIMIT, FUNCTION_LIMIT = 500, 80
ROOTS = ("datasets", "simt", "labs", "bench", "grader", "reference")
SKIP = ("/tests/", "/corpus/", "/simt/conformance/", "/simt/safety/", "/planted/")
SIGNATURE = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>,\s*&]+)?\{\s*$")


def blank(text):
    """The text with comments, strings and character literals turned to spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text[i] in "\"'":
            if text[i] == '"' and i > 0 and text[i - 1] == "R":  # a raw string: R"delim( ... )delim"
                k = text.find("(", i)
                end = ")" + text[i + 1:k] + '"'
                j = text.find(end, k)
                j = n if j < 0 else j + len(end)
            else:
                j, q = i + 1, text[i]
                while j < n and text[j] != q:
                    j += 2 if text[j] == "\\" else 1
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def name_of(lines, at):
    """The function's name: the word before the parameter list that ends on line `at` (1-based)."""
    text, k = "", at
    while k >= 1 and k > at - 8:
        text = lines[k - 1] + " " + text
        if text.count("(") >= text.count(")"):
            break
        k -= 1
    depth, i = 0, len(text) - 1
    while i >= 0:  # back to the "(" that opens the list closed last
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0 and text[i] == "(":
            break
        i -= 1
    words = re.findall(r"[\w:~<>]+", text[:max(i, 0)])
    return words[-1] if words else "?"


def functions(text):
    """[(first line, length in lines, name)] of the functions of a blanked file."""
    lines = text.split("\n")
    found, depth, namespaces, start = [], 0, [], None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        at_namespace = depth == len(namespaces)
        if at_namespace and start is None and SIGNATURE.search(line) and not re.match(r"(namespace|struct|class|enum|union)\b", stripped):
            start, open_depth = number, depth
        elif at_namespace and re.match(r"(inline\s+)?namespace\b[^;]*\{\s*$", stripped):
            namespaces.append(depth)
        depth += line.count("{") - line.count("}")
        if namespaces and depth == namespaces[-1] and start is None:
            namespaces.pop()
        if start is not None and depth == open_depth:
            found.append((start, number - start + 1, name_of(lines, start)))
            start = None
    return found


def measure(kit):
    over = {}
    for root in ROOTS:
        for path in sorted((kit / root).rglob("*")):
            rel = path.relative_to(kit).as_posix()
            if path.suffix not in (".cpp", ".hpp", ".cu", ".cuh", ".h") or any(s in "/" + rel for s in SKIP):
                continue
            text = path.read_text(errors="replace")
            count = text.count("\n")
            if count > FILE_LIMIT:
                over[rel] = count
            for first, length, signature in functions(blank(text)):
                if length > FUNCTION_LIMIT:
                    over[f"{rel}:{signature}"] = length
    return over


def main():
    kit = Path(sys.argv[1]).resolve()
    record = Path(__file__).with_name("code_sizes.txt")
    over = measure(kit)
    if "--write" in sys.argv:
        record.write_text("# what was over the limits (500 lines a file, 80 a function) when written: may shrink, not grow\n" +
                          "".join(f"{size} {what}\n" for what, size in sorted(over.items(), key=lambda x: -x[1])))
    allowed = {}
    for line in record.read_text().splitlines():
        if line and not line.startswith("#"):
            size, what = line.split(" ", 1)
            allowed[what] = int(size)
    failed = 0
    for what, size in sorted(over.items(), key=lambda x: -x[1]):
        limit = FUNCTION_LIMIT if ":" in what else FILE_LIMIT
        was = allowed.get(what)
        verdict = "new" if was is None else "grew from %d" % was if size > was else "listed"
        failed += verdict != "listed"
        print(f"{'not ok' if verdict != 'listed' else 'over  '} {size:5d} lines (limit {limit}) {what}: {verdict}")
    gone = sorted(set(allowed) - set(over))
    for what in gone:
        print(f"ok           now within its limit: {what} (was {allowed[what]}; code_sizes.py --write drops it)")
    files = sum(":" not in w for w in over)
    print(f"{files} files over {FILE_LIMIT} lines, {len(over) - files} functions over {FUNCTION_LIMIT}; {failed} grew or new")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
