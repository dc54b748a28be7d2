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

and alpha_exact, alpha_jaccard, alpha_masi (hkappa --flat
--coefficients=alpha_exact,alpha_jaccard,alpha_masi) against AnnotationTask
with frozensets of tags and binary_distance, jaccard_distance and a MASI
distance with Passonneau's weights 2/3 and 1/3, on

  wsbest       SHARED/agreement/wsbest/senseval_format/ann_* (8 annotators,
               some choosing several senses)
  senseval3    the Senseval-3 English lexical-sample key and the two system
               answers of SHARED/agreement/senseval3_englishls as three
               annotators (the key has lines of several tags)

NLTK's own masi_distance rounds the weights to 0.67 and 0.33: alpha_masi is
compared with it within 1e-3 only (on WSbest, 0.539629 against NLTK's
0.539875).  Values agree within 1e-12 otherwise.  Exit status 0 if all agree, 1 if one differs,
77 (skip) when NLTK cannot be imported or SHARED is absent.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import (binary_distance, interval_distance, jaccard_distance,
                                       masi_distance)
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


def masi_exact(a, b):
    """MASI with the weights 1, 2/3, 1/3, 0 (Passonneau 2006)."""
    inter = len(a & b)
    if a == b:
        m = 1.0
    elif inter in (len(a), len(b)):
        m = 2.0 / 3.0
    elif inter:
        m = 1.0 / 3.0
    else:
        m = 0.0
    return 1.0 - inter / float(len(a | b)) * m


def set_checks(tool, files, name):
    triples = []
    for k, path in enumerate(files):
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) >= 3:
                    tags = frozenset(t.split('/')[0] for t in w[2:])
                    triples.append((k, w[0] + ' ' + w[1], tags))
    run = subprocess.run([tool, '--flat', '--format=json',
                          '--coefficients=alpha_exact,alpha_jaccard,alpha_masi'] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    got = json.loads(run.stdout.decode()) if run.returncode == 0 else {}
    ok = True
    for key, dist, tol in (('alpha_exact', binary_distance, TOL),
                           ('alpha_jaccard', jaccard_distance, TOL),
                           ('alpha_masi', masi_exact, TOL),
                           ('alpha_masi', masi_distance, 1e-3)):
        want = AnnotationTask(data=triples, distance=dist).alpha()
        g = got.get(key)
        agree = g is not None and abs(g - want) <= tol
        ok = ok and agree
        print('%s %-12s %-15s hkappa %s nltk %.17g (%s, tolerance %g)' %
              ('agree ' if agree else 'DIFFER', name, key, g, want, dist.__name__, tol))
    return ok


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
        ws = os.path.join(shared, 'agreement', 'wsbest', 'senseval_format')
        ok = set_checks(tool, [os.path.join(ws, 'ann_' + a) for a in 'ACDFGHIJ'],
                        'wsbest') and ok
        s3 = os.path.join(shared, 'agreement', 'senseval3_englishls')
        ok = set_checks(tool, [os.path.join(s3, f) for f in (
            'EnglishLS.test.key', 'system_baseline_responses.txt',
            'system_common_words_run.txt')], 'senseval3') and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
