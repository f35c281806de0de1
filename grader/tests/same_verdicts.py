#!/usr/bin/env python3
"""same_verdicts.py BEFORE AFTER: whether two graders' results folders (the
--out of one batch each, e.g. grade-corpus's corpus-results before and
after a change) hold the same verdicts: every gradebook row, and of each
submission every component (score, gradable, note), finding, test (score,
status, output) and feedback.txt, with phase times, work-folder paths and
addresses (which differ from run to run) left out. Prints each difference
and a count; exit 1 when any."""
import json, os, re, sys
a, b = sys.argv[1:3]
norm = lambda s: re.sub(r'0x[0-9a-f]{6,}', '0xX', re.sub(r'graded in [0-9.]+ s.*|[0-9]+\.[0-9]+ s\b|/[^ ]*/work/[^ ]*', 'X', s))
def load(root):
    out = {}
    for e in sorted(os.listdir(root)):
        d = os.path.join(root, e)
        if not os.path.isdir(d) or e == 'work': continue
        g = os.path.join(d, 'grade.json')
        if os.path.exists(g):
            j = json.load(open(g))
            for lab in j.get('labs', []):
                for c in lab.get('components', []):
                    out[(e, lab['lab'], 'comp', c['name'])] = (round(c['score'], 4), c['gradable'], norm(c['note']))
                out[(e, lab['lab'], 'findings')] = json.dumps(lab.get('findings'), sort_keys=True)
                for t in lab.get('tests', []):
                    out[(e, lab['lab'], 'test', t.get('name'))] = (t.get('score'), t.get('status'), norm(t.get('output', '')))
        f = os.path.join(d, 'feedback.txt')
        if os.path.exists(f):
            out[(e, 'feedback')] = norm(open(f, errors='replace').read())
    for line in open(os.path.join(root, 'gradebook.csv')):
        out[('gradebook', line.split(',')[0])] = line.strip()
    return out
A, B = load(a), load(b)
diff = [k for k in sorted(set(A) | set(B), key=str) if A.get(k) != B.get(k)]
for k in diff[:40]:
    print('DIFF', k); print('  before:', str(A.get(k))[:600]); print('  after: ', str(B.get(k))[:600])
print(f'{len(A)} keys before, {len(B)} after, {len(diff)} differ')
sys.exit(1 if diff else 0)
