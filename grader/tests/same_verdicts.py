#!/usr/bin/env python3
"""same_verdicts.py BEFORE AFTER: whether two graders' results folders (the
--out of one batch each, e.g. grade-corpus's corpus-results before and
after a change) hold the same verdicts: every gradebook row, and of each
submission every component (score, gradable, note), test (score, status,
output: results.json's, which holds the findings) and feedback.txt, with
phase times, work-folder paths and addresses (which differ from run to run)
left out. With --not-timing (for
GPU runs, whose times differ from run to run) the timing component and its
test are left out, and with them feedback.txt and the gradebook, which add
it in. Prints each difference and a count; exit 1 when any."""
import json, os, re, sys
args = [a for a in sys.argv[1:] if a != '--not-timing']
not_timing = len(args) < len(sys.argv) - 1
a, b = args[:2]
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
                    if not_timing and c['name'] == 'timing': continue
                    out[(e, lab['lab'], 'comp', c['name'])] = (round(c['score'], 4), c['gradable'], norm(c['note']))
        r = os.path.join(d, 'results.json')  # Gradescope's: every test's score, status and output
        if os.path.exists(r):
            for t in json.load(open(r)).get('tests', []):
                if not (not_timing and t['name'].endswith(' timing')):
                    out[(e, 'test', t['name'])] = (t.get('score'), t.get('status'), norm(t.get('output', '')))
        f = os.path.join(d, 'feedback.txt')
        if os.path.exists(f) and not not_timing:
            out[(e, 'feedback')] = norm(open(f, errors='replace').read())
    for line in [] if not_timing else open(os.path.join(root, 'gradebook.csv')):
        out[('gradebook', line.split(',')[0])] = line.strip()
    return out
A, B = load(a), load(b)
diff = [k for k in sorted(set(A) | set(B), key=str) if A.get(k) != B.get(k)]
for k in diff[:40]:
    print('DIFF', k); print('  before:', str(A.get(k))[:600]); print('  after: ', str(B.get(k))[:600])
print(f'{len(A)} keys before, {len(B)} after, {len(diff)} differ')
sys.exit(1 if diff else 0)
