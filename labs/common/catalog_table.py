#!/usr/bin/env python3
"""catalog_table.py CATALOG OUT: labs/catalog.txt as the C++ catalog's table
(an initializer list of catalog::Lab, included by catalog.cpp)."""
import sys

KINDS = {"inclusive": "ScanKind::Inclusive", "exclusive": "ScanKind::Exclusive"}
rows = []
for number, line in enumerate(open(sys.argv[1]), 1):
    words = line.split("#")[0].split()
    if not words:
        continue
    if len(words) < 4:
        sys.exit(f"{sys.argv[1]}:{number}: a lab needs an id, a suite, a watchdog budget and a function")
    lab_id, suite, budget, functions = words[0], words[1], int(words[2]), words[3:]
    fns = []
    for fn in functions:
        name, kind, section, block = fn.split(":")
        fns.append(f'{{"{name}", {{{KINDS[kind]}, {int(section)}, {int(block)}}}}}')
    rows.append(f'{{"{lab_id}", "{suite}", {{{", ".join(fns)}}}, {budget}ull}},')
with open(sys.argv[2], "w") as out:
    out.write("// Made from labs/catalog.txt by labs/common/catalog_table.py: edit that file.\n")
    out.write("\n".join(rows) + "\n")
