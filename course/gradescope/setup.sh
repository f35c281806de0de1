#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image:
# the bundle (course/gradescope/make-bundle) is unzipped in /autograder/source
# and this script is its top. It installs the kit's packages, builds the
# grader, and grades the reference once as a smoke test (the emulator backend:
# Gradescope has no GPU), which also leaves the student build configured and
# built in /autograder/work, so that each submission only recompiles its own
# scan.cu. The kit's own tests and benchmark are not built: grading needs none.
# AUTOGRADER_ROOT replaces /autograder (course/tests/test-gradescope.sh).
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
cd "$(dirname "$0")"

# Not every unzip keeps file modes: the scripts get their x bit back.
find . -path ./build -prune -o -type f -print | while IFS= read -r f; do
    if [ "$(head -c 2 "$f")" = '#!' ]; then chmod +x "$f"; fi
done

./scan-labs deps

# The kit needs meson 1.0 or newer: Ubuntu 24.04 has it, 22.04 has 0.61.
meson_version=$(meson --version)
if [ "$(printf '%s\n' 1.0.0 "$meson_version" | sort -V | head -n 1)" != 1.0.0 ]; then
    {
        echo "############################################################################"
        echo "setup.sh: this image's meson is $meson_version; the kit needs meson 1.0 or newer."
        echo "setup.sh: choose the base image Ubuntu 24.04 in Gradescope's autograder settings"
        echo "setup.sh: (Ubuntu 22.04 ships meson 0.61) and rebuild the autograder."
        echo "############################################################################"
    } >&2
    exit 1
fi

# The smoke test: the reference must build and score every gradable point
# under the bundled rubric (which a bad rubric fails here, not per student).
check=$root/setup-check
rm -rf "$check"
# An assignment of some labs (make-bundle --lab) grades those alone, here and in run_autograder.
lab_args=()
[ -f assignment-labs ] && while read -r lab; do lab_args+=(--lab "$lab"); done <assignment-labs
./scan-labs grade --backend emu --work "$root/work" --out "$check" --no-colour "${lab_args[@]}"
python3 - "$check/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
score = sum(t["score"] for t in results["tests"])
possible = sum(t["max_score"] for t in results["tests"])
if possible <= 0 or abs(score - possible) > 1e-6:
    sys.exit(f"setup.sh: the reference scored {score}/{possible}, not every point: the kit or the rubric is broken")
print(f"setup.sh: the reference scored {score:g}/{possible:g}: ready; set the assignment's points to {possible:g}")
PY
