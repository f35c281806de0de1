"""What of the kit must never reach students, as values to search for: the
rubric's seed, the seeds of the hidden datasets drawn from it, and the hidden
datasets' specs. Shared by test_export.py (the export must hold none) and
test_workflows.py (the grader graded with the secret the workflow gave it)."""
import json
import re

MASK = (1 << 64) - 1


def mix(x):
    """SplitMix64's finaliser, as grader/core/rubric.cpp's mix()."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


# SplitMix64's first output from state 0: the constants above are the real ones.
assert mix(0) == 0xE220A8397B1DCDAF


def parse_secret(text):
    """SCAN_GRADE_SECRET as the grader reads it (strtoull, base 0)."""
    text = text.strip()
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
        return int(text, 16)
    if re.fullmatch(r"0[0-7]*", text):
        return int(text, 8)
    return int(text)


def hidden_datasets(rubric_path, secret=None):
    """[(lab id, dist, n, seed)] for the rubric's hidden datasets, their seeds
    drawn as grader/core/rubric.cpp draws them from hidden_seed, or from `secret`
    (SCAN_GRADE_SECRET's value) when given."""
    with open(rubric_path) as f:
        rubric = json.load(f)
    base = parse_secret(secret) if secret else rubric.get("hidden_seed", 0)
    out = []
    for lab_id, entry in rubric.get("labs", {}).items():
        for place, h in enumerate(entry.get("hidden", [])):
            seed = mix(base ^ mix((ord(lab_id[1]) << 32) + place))
            out.append((lab_id, h["dist"], h["n"], seed))
    return out


def hidden_seed(rubric_path):
    with open(rubric_path) as f:
        return json.load(f).get("hidden_seed", 0)
