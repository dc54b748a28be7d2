#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""hkappa --coefficients against scikit-learn and statsmodels.

usage: chance_oracle.py HKAPPA SHARED

On numeric ratings derived from WSbest (SHARED/agreement/wsbest/
judgments.tsv: for each annotator and occurrence, the number of senses
selected, 1-5; the 8 annotators rate all 260 occurrences), runs
hkappa --flat --format=json --coefficients=all and compares

  kappa_linear, kappa_quadratic  (each pair of annotators, and the pair
      A, C with every third item of each left out: the items both rated)
      with sklearn.metrics.cohen_kappa_score(weights='linear' /
      'quadratic', labels=every integer from the least to the greatest
      value, so that the weights of the label indices are those of the
      values) and statsmodels.stats.inter_rater.cohens_kappa(table,
      wt='linear' / 'quadratic'), the table over the same labels;
  conger_kappa  (each pair) with cohen_kappa_score without weights: two
      annotators with complete data;
  brennan_prediger  (all 8) with statsmodels fleiss_kappa(table,
      method='randolph'), the items x categories table (Randolph's
      free-marginal kappa, p_e = 1/q);
  kappa  (all 8; the default figure) with fleiss_kappa(method='fleiss');
  kappa_cohen_se, kappa_linear_se, kappa_quadratic_se  (--ci=analytic, each
      pair, and the pair A, C with gaps) with statsmodels' cohens_kappa(
      table[, wt]).std_kappa, the square root of var_kappa (Fleiss, Cohen &
      Everitt 1969).  statsmodels gives no variance of Fleiss' kappa.

Values agree within 1e-12.  Exit status 0 if all agree, 1 if one differs,
77 (skip) when scikit-learn or statsmodels cannot be imported or SHARED is
absent.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
except ImportError:
    print('scikit-learn or statsmodels is not available: skipped')
    sys.exit(77)

TOL = 1e-12


def senses(shared):
    """annotator -> {occurrence: number of senses selected}"""
    counts = {}
    with open(os.path.join(shared, 'agreement', 'wsbest', 'judgments.tsv')) as f:
        next(f)
        for line in f:
            inst, label, _comment, ann = line.rstrip('\n').split('\t')
            c = counts.setdefault(ann, {})
            occ = inst.split('-', 1)[0]
            c[occ] = c.get(occ, 0) + int(label)
    return counts


def run_hkappa(tool, scratch, data, names):
    files = []
    for ann in names:
        path = os.path.join(scratch, ann)
        with open(path, 'w') as f:
            for item in sorted(data[ann]):
                f.write('w %s %d\n' % (item, data[ann][item]))
        files.append(path)
    run = subprocess.run([tool, '--flat', '--format=json', '--coefficients=all',
                          '--ci=analytic'] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if run.returncode != 0:
        sys.stderr.write(run.stderr.decode())
        return {}
    return json.loads(run.stdout.decode())


def compare(what, got, want):
    ok = got is not None and abs(got - want) <= TOL
    print('%s %-40s hkappa %s oracle %.17g' % ('agree ' if ok else 'DIFFER', what, got, want))
    return ok


def pair_checks(tool, scratch, data, a, b, tag):
    common = sorted(set(data[a]) & set(data[b]))
    y1 = [data[a][t] for t in common]
    y2 = [data[b][t] for t in common]
    labels = list(range(min(y1 + y2), max(y1 + y2) + 1))
    table = np.zeros((len(labels), len(labels)))
    for u, v in zip(y1, y2):
        table[u - labels[0], v - labels[0]] += 1
    got = run_hkappa(tool, scratch, data, [a, b])
    ok = True
    for wt, key in (('linear', 'kappa_linear'), ('quadratic', 'kappa_quadratic')):
        ok &= compare('%s %s sklearn %s' % (tag, key, wt), got.get(key),
                      cohen_kappa_score(y1, y2, weights=wt, labels=labels))
        ok &= compare('%s %s statsmodels %s' % (tag, key, wt), got.get(key),
                      cohens_kappa(table, wt=wt).kappa)
        ok &= compare('%s %s_se statsmodels %s' % (tag, key, wt), got.get(key + '_se'),
                      cohens_kappa(table, wt=wt).std_kappa)
    ok &= compare('%s kappa_cohen_se statsmodels' % tag, got.get('kappa_cohen_se'),
                  cohens_kappa(table).std_kappa)
    if len(common) == len(data[a]) == len(data[b]):
        ok &= compare('%s conger_kappa sklearn' % tag, got.get('conger_kappa'),
                      cohen_kappa_score(y1, y2))
    return ok


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    tool, shared = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(shared, 'agreement', 'wsbest')):
        print('%s: no WSbest data: skipped' % shared)
        return 77
    data = senses(shared)
    names = sorted(data)
    ok = True
    with tempfile.TemporaryDirectory(prefix='tageval-chance.') as scratch:
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ok &= pair_checks(tool, scratch, data, a, b, '%s-%s' % (a, b))
        # missing data: every third item of each of A and C left out, apart
        gaps = {'A': {t: v for k, (t, v) in enumerate(sorted(data['A'].items())) if k % 3},
                'C': {t: v for k, (t, v) in enumerate(sorted(data['C'].items()))
                      if (k + 1) % 3}}
        ok &= pair_checks(tool, scratch, gaps, 'A', 'C', 'A-C gaps')
        # all annotators: the items x categories table
        items = sorted(data[names[0]])
        values = sorted({v for ann in names for v in data[ann].values()})
        table = np.array([[sum(1 for ann in names if data[ann][t] == v) for v in values]
                          for t in items])
        got = run_hkappa(tool, scratch, data, names)
        ok &= compare('all brennan_prediger statsmodels randolph',
                      got.get('brennan_prediger'), fleiss_kappa(table, method='randolph'))
        ok &= compare('all kappa statsmodels fleiss', got.get('kappa'),
                      fleiss_kappa(table, method='fleiss'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
