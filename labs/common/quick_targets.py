#!/usr/bin/env python3
"""quick_targets.py BUILD_DIR: the Ninja targets that the tests outside the
suite 'full' need (./scan-labs test builds only those), and the labs' CUDA
libraries where nvcc exists (its verdict on each scan.cu, on any backend), a
path each, relative to BUILD_DIR, from Meson's introspection."""
import json
import os
import subprocess
import sys

build = sys.argv[1]


def introspect(what):
    return json.loads(subprocess.run(["meson", "introspect", build, what], check=True, stdout=subprocess.PIPE).stdout)


targets = introspect("--targets")
files = {t["id"]: t["filename"] for t in targets}
needed = {os.path.relpath(path, build) for t in targets if t["name"].endswith("-cuda")
          and t["defined_in"].endswith(os.path.join("labs", "meson.build")) for path in t["filename"]}
for test in introspect("--tests"):
    if any(suite.split(":")[-1] == "full" for suite in test["suite"]):
        continue
    for dep in test["depends"]:
        for path in files.get(dep, []):
            needed.add(os.path.relpath(path, build))
print("\n".join(sorted(needed)))
