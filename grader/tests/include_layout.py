#!/usr/bin/env python3
"""Checks that the grader's includes keep its folders layered.

usage: include_layout.py KIT

Reads every #include "..." line of KIT/grader/**/*.cpp and *.hpp and fails on:
- a grader header not named by its path from the kit's root
  ("report.hpp", "../core/report.hpp" instead of "grader/core/report.hpp");
- a cycle between files: a file is a source with its header (x.cpp and
  x.hpp are one), and A -> B when A includes B's header;
- a cycle between grader's folders (grader/core, grader/outputs, ...):
  folder F -> G when a file of F includes a header of G;
- a folder that includes one its row of grader/README.md's Layout table
  does not list under "may include" (a folder with no row: any).
A name that is no grader header (simt/, labs/common/, bench/, datasets/,
the system's) is not read further. Prints each problem; last line
`N files, N includes of grader headers, N problems`; exits 1 on a problem,
2 when no grader source is found.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(kit):
    for root, dirs, names in os.walk(os.path.join(kit, "grader")):
        dirs.sort()
        for name in sorted(names):
            if name.endswith((".cpp", ".hpp")):
                yield os.path.relpath(os.path.join(root, name), kit).replace(os.sep, "/")


def resolve(kit, includer, name, by_basename):
    """The grader header that `name` means in `includer`, or None."""
    for candidate in (name, os.path.join(os.path.dirname(includer), name)):
        path = os.path.normpath(candidate).replace(os.sep, "/")
        if path.startswith("grader/") and os.path.isfile(os.path.join(kit, path)):
            return path
    # Found through an include folder (grader/ was one): the header of that name.
    matches = by_basename.get(os.path.basename(name), [])
    return matches[0] if len(matches) == 1 and "/" not in name else None


def layout(kit):
    """grader/README.md's Layout table: {"grader/core": {"grader/..."}, ...}; None for "any"."""
    try:
        with open(os.path.join(kit, "grader", "README.md"), encoding="utf-8") as readme:
            text = readme.read()
    except OSError:
        return {}
    section = re.search(r"^## Layout\n(.*?)(?=^#|\Z)", text, re.M | re.S)
    allowed = {}
    for row in re.findall(r"^\|(.*)\|\s*$", section.group(1) if section else "", re.M):
        cells = [c.strip() for c in row.split("|")]
        folder = re.fullmatch(r"`([a-z_]+)/`", cells[0])
        if folder:
            may = cells[-1]
            allowed["grader/" + folder.group(1)] = None if may == "any" else {
                "grader/" + f for f in re.findall(r"`([a-z_]+)/`", may)}
    return allowed


def unit(path):  # x.cpp and x.hpp are one file
    return os.path.splitext(path)[0]


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan), sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def within(component, graph, suffix):
    """A cycle's arrows: "a.* -> b.*, b.* -> a.*"."""
    return ", ".join(f"{a}{suffix} -> {b}{suffix}" for a in component for b in sorted(graph[a]) if b in component)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    kit = argv[1]
    files = list(sources(kit))
    if not files:
        print(f"include_layout: no grader sources under {os.path.join(kit, 'grader')}", file=sys.stderr)
        return 2
    by_basename = {}
    for f in files:
        if f.endswith(".hpp"):
            by_basename.setdefault(os.path.basename(f), []).append(f)
    problems, edges, count = [], [], 0
    for f in files:
        with open(os.path.join(kit, f), encoding="utf-8") as source:
            text = source.read()
        for match in INCLUDE.finditer(text):
            name = match.group(1)
            header = resolve(kit, f, name, by_basename)
            if header is None:
                continue
            count += 1
            line = text.count("\n", 0, match.start()) + 1
            if name != header:
                problems.append(f'{f}:{line}: #include "{name}": write "{header}"')
            edges.append((f, header))
    file_graph, folder_graph = {}, {}
    for f, header in edges:
        if unit(f) != unit(header):
            file_graph.setdefault(unit(f), set()).add(unit(header))
        if os.path.dirname(f) != os.path.dirname(header):
            folder_graph.setdefault(os.path.dirname(f), set()).add(os.path.dirname(header))
    for component in cycles(file_graph):
        problems.append("files include each other: " + within(component, file_graph, ".*"))
    for component in cycles(folder_graph):
        problems.append("folders include each other: " + within(component, folder_graph, "/"))
    allowed = layout(kit)
    if not allowed:
        problems.append("grader/README.md has no Layout table (folder, library, what it holds, may include)")
    for folder in sorted(folder_graph):
        may = allowed.get(folder)
        for other in sorted(folder_graph[folder]):
            if folder in allowed and may is not None and other not in may:
                problems.append(f"{folder}/ includes {other}/, which grader/README.md's Layout does not let it")
    for p in problems:
        print(p)
    print(f"{len(files)} files, {count} includes of grader headers, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
