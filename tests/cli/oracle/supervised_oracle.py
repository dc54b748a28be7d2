#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent implementation of the supervised WSI evaluation, a test oracle.

Written from ../shared/spec/reference-wsi.md, section 6 (the mapping script
create_supervised_keyfile.pl followed by fine-grained scorer2) and section 7
(means and sample variance of the per-split recalls), not from tageval's C
code.  It follows the official pipeline literally:

  * per word of the CLUSTERS file, the senses are the labels the word's
    instances carry in the MAPPING key, sorted bytewise;
  * an instance's cluster vector adds the raw weight (default 1) of each
    label; a mapping instance with n labels adds vector / n to each label's
    row S[s];
  * M[c][s] = S[s][c] / (sum over s' of S[s'][c]);
  * every clusters-file instance of the word that the MAPPING key lacks gets
    the sense of strictly largest score (vector x M), scanning senses in
    order, and no answer when all scores are 0;
  * scorer2 keeps the answers whose instance is in the TEST key: correct
    when the sense is one of the instance's TEST labels; precision =
    correct / answered, recall = correct / test instances, attempted =
    answered / test instances.

Arithmetic is exact (fractions.Fraction), so ties are real ties.  --pos P
keeps the words whose name ends in '.P' (in every file).  The output is the
text table wsi-supervised prints.  Bad input stops the oracle with a Python
error: it checks numbers on good data, not diagnostics.

Usage:
  supervised_oracle.py [--pos P] --split MAPPING:TEST [--split ...] CLUSTERS GOLD
      prints what `wsi-supervised --split ... CLUSTERS GOLD` should print.
      GOLD is read only to check that every split instance is a gold one.
  supervised_oracle.py --check TOOL SHAREDDIR
      runs TOOL (after the words of $TAGEVAL_TEST_WRAPPER, if set) on every
      system and baseline of SHAREDDIR/wsi/semeval2010 with the official
      80/20 and 60/40 splits (all words; nouns and verbs with their split
      files and --pos), and compares its standard output with the oracle's.
      Exit status 0 if all agree, 1 if one differs, 77 if the data is absent.
  supervised_oracle.py --write-cases CASESDIR SHAREDDIR
      writes the needs-shared CLI cases semeval2010-* of wsi-supervised
      (tests/cli/wsi-supervised/): a few baselines and systems under both
      protocols, all words and nouns and verbs, with the oracle's output as
      expected standard output; prints the names of the cases written.
"""

import difflib
import math
import os
import shlex
import subprocess
import sys
from fractions import Fraction


def fields_of(path):
    """Yields the fields of each non-blank line; a field '!!' ends the line."""
    with open(path, 'rb') as f:
        for raw in f:
            toks = raw.split()
            if '!!'.encode() in toks:
                toks = toks[:toks.index(b'!!')]
            if toks:
                yield toks


def pos_ok(word, pos):
    return pos is None or pos == b'all' or word.rsplit(b'.', 1)[-1] == pos and b'.' in word


def read_key(path, pos):
    """instance -> (word, [labels]) for the words of the selection."""
    out = {}
    for toks in fields_of(path):
        assert len(toks) >= 3, f'{path}: short line {toks!r}'
        word, inst = toks[0], toks[1]
        assert inst not in out, f'{path}: duplicate {inst!r}'
        if pos_ok(word, pos):
            out[inst] = (word, toks[2:])
    return out


def read_clusters(path, pos):
    """word -> list of (instance, {cluster: weight}), in file order."""
    words = {}
    for toks in fields_of(path):
        word, inst = toks[0], toks[1]
        if not pos_ok(word, pos):
            continue
        vec = {}
        for tok in toks[2:]:
            label, slash, w = tok.partition(b'/')
            weight = Fraction(w.decode()) if slash else Fraction(1)
            vec[label] = vec.get(label, Fraction(0)) + weight
        words.setdefault(word, []).append((inst, vec))
    return words


def map_and_score(clusters, mapping, test):
    """Returns (test instances, answered, correct) of one split."""
    answered = correct = 0
    for word, items in clusters.items():
        senses = sorted({s for inst, (w, labs) in mapping.items() if w == word
                         for s in labs})
        # S[s][c]
        S = {s: {} for s in senses}
        for inst, vec in items:
            if inst not in mapping:
                continue
            labs = mapping[inst][1]
            for s in labs:
                for c, v in vec.items():
                    S[s][c] = S[s].get(c, Fraction(0)) + v / len(labs)
        colsum = {}
        for s in senses:
            for c, v in S[s].items():
                colsum[c] = colsum.get(c, Fraction(0)) + v
        for inst, vec in items:
            if inst in mapping:
                continue
            best, best_score = None, Fraction(0)
            for s in senses:
                score = sum((v * S[s].get(c, Fraction(0)) / colsum[c]
                             for c, v in vec.items() if colsum.get(c, 0) != 0),
                            Fraction(0))
                if score > best_score:
                    best, best_score = s, score
            if best is None or inst not in test:
                continue  # no answer, or scorer2 rejects it
            answered += 1
            if best in test[inst][1]:
                correct += 1
    return len(test), answered, correct


def evaluate(splits, clusters_path, gold_path, pos):
    gold = read_key(gold_path, None)
    clusters = read_clusters(clusters_path, pos)
    # only gold instances take part (the tool ignores the others)
    clusters = {w: [(i, v) for i, v in items if i in gold] for w, items in clusters.items()}
    rows = []
    for mpath, tpath in splits:
        mapping, test = read_key(mpath, pos), read_key(tpath, pos)
        assert all(i in gold for i in mapping) and all(i in gold for i in test)
        assert not set(mapping) & set(test)
        ntest, answered, correct = map_and_score(clusters, mapping, test)
        rows.append((len(mapping), ntest, answered, correct))
    return rows


def pct(x):
    return 'nan' if x is None else x


def render(rows):
    out = ['%5s %9s %9s %9s %10s %8s %10s' % ('split', 'mapping', 'test', 'answered',
                                              'precision', 'recall', 'attempted')]
    recalls = []
    for i, (nmap, ntest, answered, correct) in enumerate(rows):
        prec = '%9.2f%%' % (100.0 * (correct / answered)) if answered else '%9s%%' % 'nan'
        recall = 100.0 * (correct / ntest)
        recalls.append(Fraction(correct * 100, ntest))
        out.append('%5d %9d %9d %9d %s %7.2f%% %9.2f%%' % (
            i + 1, nmap, ntest, answered, prec, recall, 100.0 * (answered / ntest)))
    n = len(recalls)
    mean = sum(recalls, Fraction(0)) / n
    out.append('')
    out.append('mean recall: %.2f %%' % float(mean))
    if n > 1:
        var = sum(((r - mean) ** 2 for r in recalls), Fraction(0)) / (n - 1)
        out.append('variance: %.2f (percent squared, n - 1)' % float(var))
        out.append('standard deviation: %.2f %%' % math.sqrt(float(var)))
    return '\n'.join(out) + '\n'


def protocol_splits(sup, ratio, part):
    """The five (mapping, test) paths of a shipped protocol and part of speech."""
    if part == 'all':
        return [(f'{sup}/{ratio}/all/mapping.{k}.key', f'{sup}/{ratio}/all/test.{k}.key')
                for k in range(1, 6)]
    return [(f'{sup}/{ratio}/{part}/mapping.{part}.{k}.key',
             f'{sup}/{ratio}/{part}/test.{part}.{k}.key') for k in range(1, 6)]


def check(tool, shared):
    root = os.path.join(shared, 'wsi', 'semeval2010')
    if not os.path.isdir(root):
        print(f'SKIP: {root} is absent')
        return 77
    gold = os.path.join(root, 'keys', 'all.key')
    sup = os.path.join(root, 'sup_eval')
    inputs = sorted(os.path.join(root, 'baselines', f)
                    for f in os.listdir(os.path.join(root, 'baselines')))
    inputs += sorted(os.path.join(root, 'systems', f)
                     for f in os.listdir(os.path.join(root, 'systems'))
                     if f != 'filesToSystemsMap')
    wrapper = shlex.split(os.environ.get('TAGEVAL_TEST_WRAPPER', ''))
    failed = checked = 0
    for path in inputs:
        for ratio in ('80_20', '60_40'):
            for part, pos in (('all', None), ('nouns', 'n'), ('verbs', 'v')):
                splits = protocol_splits(sup, ratio, part)
                want = render(evaluate(splits, path, gold, pos.encode() if pos else None))
                cmd = wrapper + [tool]
                for m, t in splits:
                    cmd += ['--split', f'{m}:{t}']
                if pos:
                    cmd += ['--pos', pos]
                cmd += [path, gold]
                got = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                checked += 1
                name = f'{os.path.basename(path)} {ratio} {part}'
                if got.returncode != 0 or got.stdout.decode() != want:
                    failed += 1
                    print(f'FAIL {name}: exit {got.returncode}')
                    sys.stdout.writelines(difflib.unified_diff(
                        want.splitlines(True), got.stdout.decode().splitlines(True),
                        'oracle', 'tool'))
                    sys.stdout.write(got.stderr.decode())
                else:
                    print(f'ok   {name}')
    print(f'{checked - failed} agreed, {failed} differed')
    return 1 if failed else 0


# The inputs of the written cases: (case name part, directory, file).
CASE_INPUTS = [
    ('mfs', 'baselines', 'mfs_all.key'),
    ('random1', 'baselines', 'random1.key'),
    ('1cl1inst', 'baselines', '1cl1inst.key'),
    ('302-108', 'systems', '302-108_senseval-gap'),
    ('380-408', 'systems', '380-408_duluth-wsi-testdata-pk2-new.txt'),
    ('380-624', 'systems', '380-624_duluth-mix-uni-pk2.txt'),
    ('402-186', 'systems', '402-186_task14_ksu'),
]


def write_cases(cases_dir, shared):
    root = os.path.join(shared, 'wsi', 'semeval2010')
    gold = os.path.join(root, 'keys', 'all.key')
    sup = os.path.join(root, 'sup_eval')
    token = '@SHARED@/wsi/semeval2010'
    for short, sub, name in CASE_INPUTS:
        for ratio in ('80_20', '60_40'):
            for part, pos in (('all', None), ('nouns', 'n'), ('verbs', 'v')):
                splits = protocol_splits(sup, ratio, part)
                want = render(evaluate(splits, os.path.join(root, sub, name), gold,
                                       pos.encode() if pos else None))
                case = 'semeval2010-%s-%s-%s' % (short, ratio.replace('_', '-'),
                                                 pos or 'all')
                d = os.path.join(cases_dir, case)
                os.makedirs(d, exist_ok=True)
                args = ['--split=%s:%s' % (m.replace(root, token), t.replace(root, token))
                        for m, t in splits]
                if pos:
                    args.append('--pos=' + pos)
                args += ['%s/%s/%s' % (token, sub, name), token + '/keys/all.key']
                with open(os.path.join(d, 'args'), 'w') as f:
                    f.write('\n'.join(args) + '\n')
                with open(os.path.join(d, 'expected-status'), 'w') as f:
                    f.write('0\n')
                with open(os.path.join(d, 'expected-stdout'), 'w') as f:
                    f.write(want)
                open(os.path.join(d, 'needs-shared'), 'w').close()
                print(case)
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == '--check':
        return check(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == '--write-cases':
        return write_cases(argv[2], argv[3])
    pos, splits, operands = None, [], []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ('--pos', '--split') and i + 1 < len(argv):
            i += 1
            if a == '--pos':
                pos = argv[i].encode()
            else:
                m, _, t = argv[i].partition(':')
                splits.append((m, t))
        elif a.startswith('--pos='):
            pos = a[len('--pos='):].encode()
        elif a.startswith('--split='):
            m, _, t = a[len('--split='):].partition(':')
            splits.append((m, t))
        else:
            operands.append(a)
        i += 1
    if len(operands) != 2 or not splits:
        sys.stderr.write(__doc__)
        return 2
    sys.stdout.write(render(evaluate(splits, operands[0], operands[1], pos)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
