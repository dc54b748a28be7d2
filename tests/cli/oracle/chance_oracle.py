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
  kappa_weighted, kappa_weighted_se  (--weights with the distances
      D(k, l) = sqrt(|k - l| / 4) over the values 1-5, each pair, and the
      pair A, C with gaps) with cohens_kappa(table, weights=D), the matrix
      of disagreement weights (its variance uses w = 1 - D);
  gwet_ac2_weighted, gwet_ac2_weighted_se  (the same distances; all 8, each
      pair, the pair A, C with gaps) with Gwet's AC2 computed here from its
      definition with the weights matrix w = 1 - D over the values present
      (Gwet, Handbook of Inter-Rater Reliability, 4th ed., ch. 3 and 5: p_a
      over the items rated twice or more, pi over those rated once or
      more, p_e = sum(w) sum pi_k (1 - pi_k) / (q (q - 1)), the variance of
      the linearized item terms over n (n - 1)).

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


# the distances of --weights: not proportional to any power of |k - l|
VALUES = range(1, 6)


def distance(k, l):
    return (abs(k - l) / 4.0) ** 0.5


def weights_file(scratch):
    path = os.path.join(scratch, 'weights')
    with open(path, 'w') as f:
        for k in VALUES:
            for l in VALUES:
                if k < l:
                    f.write('%d %d %.17g\n' % (k, l, distance(k, l)))
    return path


def gwet_ac2(data, names):
    """Gwet's AC2 and its standard error with w = 1 - D, missing data as
    irrCAC: the items x values table of counts."""
    items = sorted({t for ann in names for t in data[ann]})
    values = sorted({data[ann][t] for ann in names for t in data[ann]})
    q = len(values)
    w = np.array([[1.0 - distance(k, l) for l in values] for k in values])
    counts = np.array([[sum(1 for ann in names if data[ann].get(t) == v) for v in values]
                       for t in items], dtype=float)
    r = counts.sum(1)
    rated = r >= 1
    counts, r = counts[rated], r[rated]
    n = len(r)
    two = r >= 2
    # sum over ordered pairs of ratings of w: sum_k n_k (sum_l w_kl n_l - 1)
    pairs = (counts * (counts @ w.T - 1.0)).sum(1)
    a = np.where(two, pairs / np.where(two, r * (r - 1.0), 1.0), 0.0)
    pa = a[two].sum() / two.sum()
    pi = (counts / r[:, None]).mean(0)
    factor = w.sum() / (q * (q - 1.0))
    pe = factor * (pi * (1.0 - pi)).sum()
    c = (pa - pe) / (1.0 - pe)
    e = factor * (counts @ (1.0 - pi)) / r
    ct = (n / two.sum()) * (a - pe * two) / (1.0 - pe) - 2.0 * (1.0 - c) * (e - pe) / (1.0 - pe)
    var = ((ct - c) ** 2).sum() / (n * (n - 1.0))
    return c, var ** 0.5


def run_hkappa(tool, scratch, data, names, weights=None):
    files = []
    for ann in names:
        path = os.path.join(scratch, ann)
        with open(path, 'w') as f:
            for item in sorted(data[ann]):
                f.write('w %s %d\n' % (item, data[ann][item]))
        files.append(path)
    extra = ['--weights=' + weights] if weights else []
    run = subprocess.run([tool, '--flat', '--format=json', '--coefficients=all',
                          '--ci=analytic'] + extra + files,
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
    got = run_hkappa(tool, scratch, data, [a, b], weights_file(scratch))
    ok = True
    dmat = np.array([[distance(u, v) for v in labels] for u in labels])
    res = cohens_kappa(table, weights=dmat)
    ok &= compare('%s kappa_weighted statsmodels' % tag, got.get('kappa_weighted'), res.kappa)
    ok &= compare('%s kappa_weighted_se statsmodels' % tag, got.get('kappa_weighted_se'),
                  res.std_kappa)
    ac2, ac2_se = gwet_ac2(data, [a, b])
    ok &= compare('%s gwet_ac2_weighted' % tag, got.get('gwet_ac2_weighted'), ac2)
    ok &= compare('%s gwet_ac2_weighted_se' % tag, got.get('gwet_ac2_weighted_se'), ac2_se)
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
        got = run_hkappa(tool, scratch, data, names, weights_file(scratch))
        ac2, ac2_se = gwet_ac2(data, names)
        ok &= compare('all gwet_ac2_weighted', got.get('gwet_ac2_weighted'), ac2)
        ok &= compare('all gwet_ac2_weighted_se', got.get('gwet_ac2_weighted_se'), ac2_se)
        ok &= compare('all brennan_prediger statsmodels randolph',
                      got.get('brennan_prediger'), fleiss_kappa(table, method='randolph'))
        ok &= compare('all kappa statsmodels fleiss', got.get('kappa'),
                      fleiss_kappa(table, method='fleiss'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
