#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent re-implementation of the SemEval-2013 Task 13 WSD setting,
used as a test oracle for wsd-graded(1).

Written from ../shared/spec/reference-wsi2013.md, sections 2 and 5, not from
tageval's C code, and deliberately literal:

* a key is read as the jars read it: the word and the instance id, words in
  order of first appearance, instances in order of first appearance within
  their word; memberships = rating / largest rating of the line, or 1 for
  every label when a label has no rating or a label is named twice (the
  label kept once);
* the single-sense and multi-sense subsets are separate gold keys: the gold
  lines with one label field, and with several (as gold/all.singlesense.key
  and gold/all.multisense.key of the task);
* folds: gold instance k (counting across words) is tested in fold k mod 5;
* remapping per fold and word from the other folds' answered gold
  instances, M[c][s] = sum t_i(c) g_i(s), rows divided by their sums; a test
  answer v(s) = sum_c t(c) M[c][s] over the clusters seen in learning,
  senses with v(s) > 0 kept; none: unanswered;
* Jaccard, positionally weighted tau (K = the word's gold senses, without
  remapping also every system label under the word, extra instances
  included) and WNDCG by the formulas of 5.3-5.5, sorting with Python's
  sort on explicit keys;
* per word the mean over answered instances and coverage; total the mean
  over all answered instances, recall = mean x answered / instances, F1.

Usage:
  wsd_graded_oracle.py --check-examples PAGE CASEDIR
      checks that the commands of the EXAMPLES of the man page PAGE are
      cases of CASEDIR showing the same output.
  wsd_graded_oracle.py [--no-remapping] SYSTEM GOLD
      prints the figures as JSON (total and per word, all and the subsets).
  wsd_graded_oracle.py --check TOOL DATADIR SHAREDDIR
      runs TOOL --format json --per-word (after $TAGEVAL_TEST_WRAPPER) on the
      samples of DATADIR and, when SHAREDDIR/wsi/semeval2013 exists, on every
      baseline and system key of the task against gold/all.key (with
      --no-remapping for the .wn. keys, as the task README asks, and both
      ways for the others; lines without a label and repeated identical
      lines dropped first), and compares every figure with the oracle's to
      within 1e-12.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

TOL = 1e-12


def read_key(path, keep=None):
    """{word: {inst: {label: membership}}} in file order, plus the number of
    label fields of each line.  keep(nfields) filters lines (gold subsets)."""
    words = {}
    nfields = {}
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.split('!!')[0]
            fields = line.split()
            if not fields:
                continue
            word, inst, labels = fields[0], fields[1], fields[2:]
            if keep is not None and not keep(len(labels)):
                continue
            ratings = {}
            unrated = False
            repeated = False
            for tok in labels:
                if '/' in tok:
                    name, r = tok.split('/', 1)
                    r = float(r)
                else:
                    name, r = tok, None
                    unrated = True
                if name in ratings:
                    repeated = True
                ratings[name] = r
            if unrated or repeated:
                memb = {k: 1.0 for k in ratings}
            else:
                mx = max(ratings.values())
                memb = {k: v / mx for k, v in ratings.items()}
            words.setdefault(word, {})
            assert inst not in words[word], 'duplicate ' + inst
            words[word][inst] = memb
            nfields[(word, inst)] = len(labels)
    return words, nfields


def tau(gold, sys, k):
    u = sorted(set(gold) | set(sys))
    n = len(u)
    if n == 1:
        return 1.0
    # descending rating, equal ratings in descending name order
    gorder = sorted(u, key=lambda x: (gold.get(x, 0.0), x.encode()), reverse=True)
    sorder = sorted(u, key=lambda x: (sys.get(x, 0.0), x.encode()), reverse=True)
    r = {x: i for i, x in enumerate(sorder)}
    p = [1.0]
    for m in range(1, n):
        p.append(p[-1] + (1.0 - (m - 1) / k))

    def cost(i, j):
        return 1.0 if i == j else (p[i] - p[j]) / (i - j)
    d = dmax = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            if r[gorder[i]] > r[gorder[j]]:
                d += cost(i, r[gorder[i]]) * cost(j, r[gorder[j]])
            dmax += cost(i, n - 1 - i) * cost(j, n - 1 - j)
    return 0.0 if dmax == 0.0 else 1.0 - d / dmax


def wndcg(gold, sys):
    u = set(gold) | set(sys)
    # descending system rating, equal ratings in ascending name order
    ranked = sorted(u, key=lambda x: (-sys.get(x, 0.0), x.encode()))
    dcg = 0.0
    for m, x in enumerate(ranked, start=1):
        g, t = gold.get(x, 0.0), sys.get(x, 0.0)
        gain = 1.0 if g == 0.0 and t == 0.0 else \
            min(g, t) / max(g, t) * (2.0 ** (1.0 + g) - 1.0)
        dcg += gain / math.log2(m + 1)
    idcg = 0.0
    for m, g in enumerate(sorted(gold.values(), reverse=True), start=1):
        idcg += 2.0 ** (1.0 + g) / math.log2(m + 1)
    return dcg / idcg


def jaccard(gold, sys):
    return len(set(gold) & set(sys)) / len(set(gold) | set(sys))


def evaluate(gold, system, remap):
    """gold, system: read_key() maps.  Returns (total, {word: figures})."""
    k_all = 0
    fold = {}
    for w, insts in gold.items():
        for i in insts:
            fold[(w, i)] = k_all % 5
            k_all += 1
    per_word = {}
    tot_sum = [0.0, 0.0, 0.0]
    tot_ans = tot_n = 0
    for w, insts in gold.items():
        sysw = system.get(w, {})
        senses = set()
        for m in insts.values():
            senses |= set(m)
        if not remap:
            for m in sysw.values():
                senses |= set(m)
        k = len(senses)
        s = [0.0, 0.0, 0.0]
        ans = 0
        for f in range(5):
            if remap:
                M = {}
                for i, g in insts.items():
                    if fold[(w, i)] == f or i not in sysw:
                        continue
                    for c, t in sysw[i].items():
                        row = M.setdefault(c, {})
                        for sense, gm in g.items():
                            row[sense] = row.get(sense, 0.0) + t * gm
                for c, row in M.items():
                    rs = sum(row.values())
                    M[c] = {x: (v / rs if rs > 0 else 0.0) for x, v in row.items()}
            for i, g in insts.items():
                if fold[(w, i)] != f or i not in sysw:
                    continue
                if remap:
                    v = {}
                    for c, t in sysw[i].items():
                        for sense, p in M.get(c, {}).items():
                            v[sense] = v.get(sense, 0.0) + t * p
                    answer = {x: y for x, y in v.items() if y > 0.0}
                    if not answer:
                        continue
                else:
                    answer = sysw[i]
                x = (jaccard(g, answer), tau(g, answer, k), wndcg(g, answer))
                for j in range(3):
                    s[j] += x[j]
                    tot_sum[j] += x[j]
                ans += 1
        per_word[w] = figures(s, ans, len(insts))
        per_word[w]['senses'] = k
        tot_ans += ans
        tot_n += len(insts)
    return figures(tot_sum, tot_ans, tot_n), per_word


def figures(s, ans, n):
    out = {'instances': n, 'answered': ans, 'coverage': ans / n if n else 0.0}
    for j, name in enumerate(('jaccard', 'kendall_tau', 'wndcg')):
        if not ans:
            # no mean over 0 answered instances (wsd-graded(1)): null with
            # a reason in "undefined"; recall (no score) 0
            out[name] = out[name + '_f1'] = None
            out[name + '_recall'] = 0.0
            continue
        mean = s[j] / ans
        rec = mean * out['coverage']
        out[name] = mean
        out[name + '_recall'] = rec
        out[name + '_f1'] = 2 * mean * rec / (mean + rec) if mean + rec > 0 else 0.0
    return out


def run_oracle(system_path, gold_path, remap):
    system, _ = read_key(system_path)
    res = {}
    for name, keep in (('all', None), ('single_sense', lambda n: n == 1),
                       ('multi_sense', lambda n: n > 1)):
        gold, _ = read_key(gold_path, keep)
        # system lines for words the gold (subset) lacks are ignored
        res[name] = evaluate(gold, {w: v for w, v in system.items() if w in gold},
                             remap) if gold else None
    return res


def compare(label, got, want, errors):
    for key, v in want.items():
        g = got.get(key)
        if v is None:
            if g is not None or key not in got.get('undefined', {}):
                errors.append('%s %s: %r, expected null and a reason' % (label, key, g))
        elif isinstance(v, int):
            if g != v:
                errors.append('%s %s: %r, expected %r' % (label, key, g, v))
        elif g is None or abs(g - v) > TOL:
            errors.append('%s %s: %r, expected %.17g' % (label, key, g, v))


def check_one(tool, system, gold, remap, errors):
    wrapper = os.environ.get('TAGEVAL_TEST_WRAPPER', '').split()
    cmd = wrapper + [tool, '--format', 'json', '--per-word'] + \
        ([] if remap else ['--no-remapping']) + [system, gold]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    got = json.loads(out.stdout)
    want = run_oracle(system, gold, remap)
    label = '%s%s' % (os.path.basename(system), '' if remap else ' -n')
    for name in ('all', 'single_sense', 'multi_sense'):
        part = got if name == 'all' else got[name]
        if want[name] is None:
            if part is not None:
                errors.append('%s %s: expected null' % (label, name))
            continue
        total, per_word = want[name]
        compare(label + ' ' + name + ' total', part['total'], total, errors)
        if list(part['per_word']) != list(per_word):
            errors.append('%s %s: words %s' % (label, name, list(part['per_word'])))
            continue
        for w, fig in per_word.items():
            compare(label + ' ' + name + ' ' + w, part['per_word'][w], fig, errors)


def cleaned(path, tmpdir):
    """The task's keys as tageval reads them: two UoS keys have lines
    without a label ('win.v win.v.82') and the Sapienza system-2 keys 14
    repeated identical lines, errors for tageval (spec 2.1); the checks use
    copies without those lines, which is what the WSD jars do anyway."""
    with open(path, 'rb') as f:
        lines = f.read().split(b'\n')
    seen = set()
    keep = []
    for line in lines:
        fields = line.split()
        if 0 < len(fields) < 3 or (fields and line in seen):
            continue
        seen.add(line)
        keep.append(line)
    if len(keep) == len(lines):
        return path
    out = os.path.join(tmpdir, os.path.basename(path))
    with open(out, 'wb') as f:
        f.write(b'\n'.join(keep))
    return out


def check_examples(page, cases):
    """Every '$ wsd-graded ...' command of the man page's EXAMPLES is the
    args of a case under CASES, and the output shown is the case's
    expected-stdout (JSON shown on several lines is joined first)."""
    text = open(page, encoding='utf-8').read()
    text = text[text.index('\n# EXAMPLES\n'):text.index('\n# SEE ALSO\n')]
    blocks = text.split('```\n')[1::2]
    want = {}
    for name in sorted(os.listdir(cases)):
        args = os.path.join(cases, name, 'args')
        if os.path.isfile(args):
            want.setdefault(tuple(open(args).read().splitlines()), name)
    errors = found = 0
    for block in blocks:
        lines = block.rstrip('\n').split('\n')
        if not lines[0].startswith('$ wsd-graded '):
            continue
        found += 1
        case = want.get(tuple(lines[0].split()[2:]))
        if case is None:
            print('no case runs %r' % lines[0])
            errors += 1
            continue
        shown = lines[1:]
        if shown and shown[0].startswith('{'):
            shown = [''.join(x.lstrip(' ') for x in shown)]
        path = os.path.join(cases, case, 'expected-stdout')
        got = open(path).read().rstrip('\n').split('\n') if os.path.exists(path) else []
        if got != shown:
            print('%s: the man page shows other output than case %s' % (lines[0], case))
            errors += 1
    print('%d examples, %d differences' % (found, errors))
    return 1 if errors or not found else 0


def main(argv):
    if len(argv) == 3 and argv[0] == '--check-examples':
        return check_examples(argv[1], argv[2])
    if len(argv) == 4 and argv[0] == '--check':
        tool, data, shared = argv[1:]
        errors = []
        runs = [(os.path.join(data, 'graded-induced.key'), True),
                (os.path.join(data, 'graded-induced.key'), False),
                (os.path.join(data, 'graded-wn.key'), False),
                (os.path.join(data, 'graded-wn.key'), True)]
        golds = [os.path.join(data, 'graded-gold.key')] * len(runs)
        task = os.path.join(shared, 'wsi', 'semeval2013')
        if os.path.isdir(task):
            keys = []
            for top in ('baselines', 'systems'):
                for root, _, files in os.walk(os.path.join(task, top)):
                    keys += [os.path.join(root, f) for f in files if f.endswith('.key')]
            for k in sorted(keys):
                if '.wn.' in os.path.basename(k):
                    runs.append((k, False))
                else:
                    runs += [(k, True), (k, False)]
            golds += [os.path.join(task, 'gold', 'all.key')] * (len(runs) - len(golds))
        tmpdir = tempfile.mkdtemp()
        for (system, remap), gold in zip(runs, golds):
            try:
                check_one(tool, cleaned(system, tmpdir), gold, remap, errors)
            except subprocess.CalledProcessError as e:
                errors.append('%s: exit %d: %s' % (system, e.returncode, e.stderr.decode()))
        shutil.rmtree(tmpdir)
        for e in errors[:40]:
            print(e)
        print('%d runs, %d differences' % (len(runs), len(errors)))
        return 1 if errors else 0
    remap = True
    if argv and argv[0] == '--no-remapping':
        remap = False
        argv = argv[1:]
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    json.dump(run_oracle(argv[0], argv[1], remap), sys.stdout, indent=1)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
