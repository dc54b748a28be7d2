#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Krippendorff's alpha at four levels: hkappa --coefficients=all against NLTK.

usage: alpha_nltk_oracle.py HKAPPA SHARED

Runs hkappa --flat --format=json --coefficients=all on numeric annotations
and compares alpha_nominal, alpha_ordinal, alpha_interval and alpha_ratio
with nltk.metrics.agreement.AnnotationTask.alpha() given the distance of
each level (hkappa(1)); NLTK has no ordinal or ratio distance, so they are
written here from Krippendorff's definitions (the ordinal one as the sum
of the value counts between c and k, not through mid-ranks as hkappa
computes it).  Data sets:

  kripp        Krippendorff's published example (4 observers, 12 units,
               missing values), from tests/test-alpha.c
  senses       WSbest (SHARED/agreement/wsbest/judgments.tsv): for each
               annotator and occurrence, the number of senses selected
               (1-5); 8 annotators, 260 items
  senses-gaps  the same with every annotator's rating left out on every
               third occurrence (a different third for each): missing data
  binary       WSbest: the 0/1 judgment of each (occurrence, sense)

Values agree within 1e-12.  Exit status 0 if all agree, 1 if one differs,
77 (skip) when NLTK cannot be imported or SHARED is absent.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import binary_distance, interval_distance
except ImportError:
    print('NLTK is not available: skipped')
    sys.exit(77)

TOL = 1e-12

KRIPP = {  # observer -> {unit: value}
    'A': dict(zip(range(1, 10), [1, 2, 3, 3, 2, 1, 4, 1, 2])),
    'B': {**dict(zip(range(1, 11), [1, 2, 3, 3, 2, 2, 4, 1, 2, 5])), 12: 3},
    'C': dict(zip(range(2, 12), [3, 3, 3, 2, 3, 4, 2, 2, 5, 1])),
    'D': dict(zip(range(1, 12), [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1])),
}


def wsbest(shared):
    """(counts, binary): annotator -> {item: value}."""
    counts, binary = {}, {}
    with open(os.path.join(shared, 'agreement', 'wsbest', 'judgments.tsv')) as f:
        next(f)
        for line in f:
            inst, label, _comment, ann = line.rstrip('\n').split('\t')
            occ = inst.split('-', 1)[0]
            binary.setdefault(ann, {})[inst] = int(label)
            c = counts.setdefault(ann, {})
            c[occ] = c.get(occ, 0) + int(label)
    return counts, binary


def with_gaps(data):
    out = {}
    for k, ann in enumerate(sorted(data)):
        items = sorted(data[ann])
        out[ann] = {t: v for i, (t, v) in enumerate((t, data[ann][t]) for t in items)
                    if (i + k) % 3 != 0}
    return out


def nltk_alphas(data):
    triples = [(ann, str(item), v) for ann in sorted(data) for item, v in data[ann].items()]
    # the counts n_c of the pairable values, for the ordinal distance
    per_item = {}
    for ann, item, v in triples:
        per_item.setdefault(item, []).append(v)
    n = {}
    for vs in per_item.values():
        if len(vs) >= 2:
            for v in vs:
                n[v] = n.get(v, 0) + 1
    values = sorted(n)

    def ordinal(c, k):
        lo, hi = min(c, k), max(c, k)
        s = sum(n[g] for g in values if lo <= g <= hi) - (n[c] + n[k]) / 2.0
        return s * s

    def ratio(c, k):
        return 0.0 if c + k == 0 else ((c - k) / float(c + k)) ** 2

    out = {}
    for name, dist in (('alpha_nominal', binary_distance), ('alpha_ordinal', ordinal),
                       ('alpha_interval', interval_distance), ('alpha_ratio', ratio)):
        out[name] = AnnotationTask(data=triples, distance=dist).alpha()
    return out


def hkappa_alphas(tool, data, scratch, name):
    files = []
    for ann in sorted(data):
        path = os.path.join(scratch, '%s-%s' % (name, ann))
        with open(path, 'w') as f:
            for item, v in sorted(data[ann].items(), key=lambda x: str(x[0])):
                f.write('w %s %s\n' % (item, v))
        files.append(path)
    run = subprocess.run([tool, '--flat', '--format=json', '--coefficients=all'] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if run.returncode != 0:
        sys.stderr.write(run.stderr.decode())
        return None
    return json.loads(run.stdout.decode())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    tool, shared = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(shared, 'agreement', 'wsbest')):
        print('%s: no WSbest data: skipped' % shared)
        return 77
    counts, binary = wsbest(shared)
    sets = [('kripp', KRIPP), ('senses', counts), ('senses-gaps', with_gaps(counts)),
            ('binary', binary)]
    ok = True
    with tempfile.TemporaryDirectory(prefix='tageval-alpha.') as scratch:
        for name, data in sets:
            want = nltk_alphas(data)
            got = hkappa_alphas(tool, data, scratch, name)
            for key in sorted(want):
                g = None if got is None else got.get(key)
                agree = g is not None and abs(g - want[key]) <= TOL
                ok = ok and agree
                print('%s %-12s %-15s hkappa %s nltk %.17g' %
                      ('agree ' if agree else 'DIFFER', name, key, g, want[key]))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
