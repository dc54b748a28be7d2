#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent re-implementation of the unsupervised WSI metrics, used as a
test oracle for vmeasure(1) and fscore(1).

Written from ../shared/spec/reference-wsi.md, sections 2-4 (the SemEval-2010
V-measure and paired F-score, the SemEval-2007 F-score, purity and entropy)
with the tageval reading rules of section 9 and tageval-formats(5), not from
tageval's C code.  It is deliberately literal rather than fast:

* V-measure from the entropies H(C), H(K), H(C|K), H(K|C) of each word's
  table of counts, with the conventions of section 2 (h = 1 when H(C) = 0,
  c = 1 when H(K) = 0, V = 0 when h + c = 0);
* the paired F-score by walking every pair of instances of every cluster
  and of every class, a singleton contributing its self pair (a, a), as
  fscore.jar does -- not from the contingency-table formula;
* the 2007 F-score, purity and entropy from the formulas of section 4, with
  the cluster of an instance = its label(s) of largest weight (a tie is a
  cluster of its own, named by the tied labels in line order, never the
  same as a label) and the gold class = the first token as written;
* every unanswered gold instance of a word goes to one extra cluster of
  that word, in both readings;
* totals: instance-weighted means over the selected words; clusters and
  senses: mean numbers per word.

Only the text output of the tools is reproduced (the table layout is the
one printed by vmeasure and fscore; numbers rounded by '%.*f', as C's
printf rounds them).  Bad input makes the oracle stop with a Python error
rather than with tageval's messages: its job is to check numbers on good
data.

Usage:
  wsi_oracle.py [--vmeasure | --fscore | --paired] [--pos POS] [--per-word]
                [--digits N] [--beta B] CLUSTERS GOLD
      prints what 'vmeasure' (default), 'fscore' or 'fscore --paired'
      should print on standard output.
  wsi_oracle.py --check TOOLDIR DATADIR SHAREDDIR
      runs TOOLDIR/vmeasure and TOOLDIR/fscore (after the words of
      $TAGEVAL_TEST_WRAPPER, if set) with --per-word and --pos all, n and v
      on data/wsi-clusters.key and on every baseline and system file of
      SHAREDDIR/wsi/semeval2010 (if present), and compares their standard
      output with the oracle's.  Exit status 0 if all agree, 1 otherwise.
  wsi_oracle.py --write-cases SHAREDDIR CLIDIR
      writes the case directories CLIDIR/vmeasure/semeval2010-* and
      CLIDIR/fscore/semeval2010-* (see tests/cli/README): every baseline and
      system file of SHAREDDIR/wsi/semeval2010 scored with vmeasure,
      fscore and fscore --paired, with --per-word for all words and as
      totals for --pos n and --pos v, the expected standard output being
      the oracle's.  It prints the names of the cases it wrote.

How the expected files of the real-data cases were produced: the case
directories tests/cli/vmeasure/semeval2010-* and tests/cli/fscore/semeval2010-*
were written by

  python3 tests/cli/oracle/wsi_oracle.py --write-cases ../shared/data tests/cli

and nothing in them was edited by hand.  Each holds the arguments (the files
as @SHARED@/wsi/semeval2010/...), the status 0, the oracle's output as
expected-stdout (with 3 decimals, so that the tools' printed digits are
compared with the oracle's figures rounded to 3 decimals), an empty
expected-stderr and a needs-shared marker.
"""

import getopt
import math
import os
import re
import shlex
import subprocess
import sys

BLANKS_RE = re.compile(rb'[ \t]+')
# a weight: an optional '+', digits with an optional point and fraction, or a
# point and a fraction, then an optional exponent; finite and >= 0
WEIGHT_RE = re.compile(rb'\+?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z')


def read_fields(path):
    """The non-empty lines of a file as lists of fields (bytes)."""
    with open(path, 'rb') as f:
        data = f.read()
    out = []
    for line in data.split(b'\n'):
        if line.endswith(b'\r'):
            line = line[:-1]
        cut = line.find(b'!!')
        if cut >= 0:
            line = line[:cut]
        fields = [x for x in BLANKS_RE.split(line) if x]
        if fields:
            out.append(fields)
    return out


def split_weight(token):
    """(label, weight) of 'label[/weight]'; the weight defaults to 1."""
    if b'/' not in token:
        return token, 1.0
    label, weight = token.split(b'/', 1)
    if not label or not WEIGHT_RE.match(weight):
        raise ValueError('invalid weight %r' % token)
    w = float(weight)
    if math.isinf(w):
        raise ValueError('invalid weight %r' % token)
    return label, w


class Data:
    def __init__(self, clusters_path, gold_path):
        self.words = []              # in order of first appearance
        self.instances = {}          # word -> [instance id, ...]
        self.word_of = {}            # instance id -> word
        self.class2010 = {}          # first gold label, weight cut off
        self.class2007 = {}          # first gold token as written
        for f in read_fields(gold_path):
            if len(f) < 3:
                raise ValueError('gold line without label: %r' % f)
            word, inst = f[0], f[1]
            if inst in self.word_of:
                raise ValueError('duplicate gold instance %r' % inst)
            for tok in f[2:]:
                split_weight(tok)
            if word not in self.instances:
                self.words.append(word)
                self.instances[word] = []
            self.instances[word].append(inst)
            self.word_of[inst] = word
            self.class2010[inst] = ('label', split_weight(f[2])[0])
            self.class2007[inst] = ('label', f[2])
        if not self.words:
            raise ValueError('empty gold key')
        self.cluster2010 = {}
        self.cluster2007 = {}
        for f in read_fields(clusters_path):
            if len(f) < 3:
                raise ValueError('clusters line without label: %r' % f)
            word, inst = f[0], f[1]
            labels = [split_weight(tok) for tok in f[2:]]
            if inst not in self.word_of:
                continue                          # ignored line
            if self.word_of[inst] != word:
                raise ValueError('instance %r under another word' % inst)
            if inst in self.cluster2010:
                raise ValueError('duplicate clusters instance %r' % inst)
            self.cluster2010[inst] = ('label', labels[0][0])
            best = max(w for _, w in labels)
            tied = []
            for label, w in labels:
                if w == best and label not in tied:
                    tied.append(label)
            if len(tied) == 1:
                self.cluster2007[inst] = ('label', tied[0])
            else:
                self.cluster2007[inst] = ('tie',) + tuple(tied)

    def selected(self, pos):
        if pos is None or pos == 'all':
            return list(self.words)
        suffix = b'.' + pos.encode()
        return [w for w in self.words
                if b'.' in w and w[w.rindex(b'.'):] == suffix]

    def groups(self, word, clusters, classes):
        """The members of each cluster and each class of a word."""
        kmem, cmem = {}, {}
        for inst in self.instances[word]:
            k = clusters.get(inst, ('unanswered',))
            kmem.setdefault(k, []).append(inst)
            cmem.setdefault(classes[inst], []).append(inst)
        return kmem, cmem


def entropy(sizes, n):
    return -sum(s / n * math.log(s / n) for s in sizes if s > 0)


def vmeasure(kmem, cmem, cls, beta):
    n = sum(len(m) for m in kmem.values())
    h_c = entropy([len(m) for m in cmem.values()], n)
    h_k = entropy([len(m) for m in kmem.values()], n)
    # H(C|K) = - sum_k sum_c n_ck/N log(n_ck/n_k); H(K|C) likewise
    h_c_k = 0.0
    cell = {}
    for k, members in kmem.items():
        counts = {}
        for inst in members:
            counts[cls[inst]] = counts.get(cls[inst], 0) + 1
        for c, nck in counts.items():
            h_c_k -= nck / n * math.log(nck / len(members))
            cell[(k, c)] = nck
    h_k_c = 0.0
    for (k, c), nck in cell.items():
        h_k_c -= nck / n * math.log(nck / len(cmem[c]))
    h = 1.0 if h_c == 0 else 1.0 - h_c_k / h_c
    c = 1.0 if h_k == 0 else 1.0 - h_k_c / h_k
    v = 0.0 if beta * h + c == 0 else (1 + beta) * h * c / (beta * h + c)
    return v, h, c


def paired(kmem, cmem, cls):
    def count_pairs(groups):
        total = 0
        for members in groups.values():
            m = len(members)
            total += 1 if m == 1 else m * (m - 1) // 2
        return total
    common = 0
    for members in kmem.values():
        if len(members) == 1:
            # the self pair (a, a) is a class pair iff a's class is a singleton
            if len(cmem[cls[members[0]]]) == 1:
                common += 1
            continue
        for i in range(len(members)):
            ci = cls[members[i]]
            for j in range(i + 1, len(members)):
                if cls[members[j]] == ci:
                    common += 1
    kp, cp = count_pairs(kmem), count_pairs(cmem)
    p = common / kp if kp else 0.0
    r = common / cp if cp else 0.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return f, p, r


def semeval2007(kmem, cmem, cls):
    n = sum(len(m) for m in kmem.values())
    q = len(cmem)
    overlap = {}
    for k, members in kmem.items():
        for inst in members:
            key = (k, cls[inst])
            overlap[key] = overlap.get(key, 0) + 1
    fscore = 0.0
    for c, cm in cmem.items():
        ni = len(cm)
        best = 0.0
        for k, km in kmem.items():
            nij = overlap.get((k, c), 0)
            if nij == 0:
                continue
            p, r = nij / len(km), nij / ni
            best = max(best, 2 * p * r / (p + r))
        fscore += ni / n * best
    purity = sum(max(overlap.get((k, c), 0) for c in cmem) for k in kmem) / n
    ent = 0.0
    for k, km in kmem.items():
        nj = len(km)
        e = 0.0
        if q > 1:
            for c in cmem:
                nij = overlap.get((k, c), 0)
                if nij:
                    e -= nij / nj * math.log(nij / nj)
            e /= math.log(q)
        ent += nj / n * e
    return fscore, purity, ent


COLUMNS = {
    'vmeasure': ['V-measure', 'homogeneity', 'completeness'],
    'fscore': ['F-score', 'purity', 'entropy'],
    'paired': ['paired F-score', 'paired precision', 'paired recall'],
}


def evaluate(data, metric, pos, beta):
    """[(word, instances, clusters, senses, (m1, m2, m3))], total row."""
    rows = []
    for word in data.selected(pos):
        senses = len(data.groups(word, data.cluster2010, data.class2010)[1])
        if metric == 'fscore':
            kmem, cmem = data.groups(word, data.cluster2007, data.class2007)
            values = semeval2007(kmem, cmem, data.class2007)
        else:
            kmem, cmem = data.groups(word, data.cluster2010, data.class2010)
            if metric == 'vmeasure':
                values = vmeasure(kmem, cmem, data.class2010, beta)
            else:
                values = paired(kmem, cmem, data.class2010)
        n = len(data.instances[word])
        rows.append((word.decode(), n, len(kmem), senses, values))
    if not rows:
        raise ValueError('no target word selected')
    n = sum(r[1] for r in rows)
    total = ('total', n, sum(r[2] for r in rows) / len(rows),
             sum(r[3] for r in rows) / len(rows),
             tuple(sum(r[1] * r[4][i] for r in rows) / n for i in range(3)))
    return rows, total


def render(metric, rows, total, per_word, digits):
    heads = COLUMNS[metric]
    wname = 5
    if per_word:
        wname = max([wname] + [len(r[0]) for r in rows])
    widths = [max(len(h), digits + 2) for h in heads]
    # the unit line of tageval-formats(5), UNITS, then the column titles
    out = ['scores are fractions (1 = 100 %)',
           '%-*s %9s %8s %7s' % (wname, 'word', 'instances', 'clusters', 'senses') +
           ''.join('  %*s' % (w, h) for w, h in zip(widths, heads))]

    def row(r, is_total):
        if is_total:
            s = '%-*s %9d %8.2f %7.2f' % (wname, r[0], r[1], r[2], r[3])
        else:
            s = '%-*s %9d %8.0f %7.0f' % (wname, r[0], r[1], r[2], r[3])
        return s + ''.join('  %*.*f' % (w, digits, v) for w, v in zip(widths, r[4]))
    if per_word:
        out += [row(r, False) for r in rows]
    out.append(row(total, True))
    out.append('')
    out += ['%s: %.*f' % (h, digits, v) for h, v in zip(heads, total[4])]
    return '\n'.join(out) + '\n'


def oracle_output(clusters, gold, metric, pos, per_word, digits=3, beta=1.0):
    data = Data(clusters, gold)
    rows, total = evaluate(data, metric, pos, beta)
    return render(metric, rows, total, per_word, digits)


TOOL_ARGS = {'vmeasure': ('vmeasure', []), 'fscore': ('fscore', []),
             'paired': ('fscore', ['--paired'])}


def check(tooldir, datadir, shareddir):
    inputs = [(os.path.join(datadir, 'wsi-clusters.key'),
               os.path.join(datadir, 'wsi-gold.key'))]
    base = os.path.join(shareddir, 'wsi', 'semeval2010')
    if os.path.isdir(base):
        gold = os.path.join(base, 'keys', 'all.key')
        for sub in ('baselines', 'systems'):
            d = os.path.join(base, sub)
            for name in sorted(os.listdir(d)):
                if name != 'filesToSystemsMap':
                    inputs.append((os.path.join(d, name), gold))
    else:
        print('SKIP the SemEval-2010 files: %s is absent' % base)
    wrapper = shlex.split(os.environ.get('TAGEVAL_TEST_WRAPPER', ''))
    failed = runs = 0
    for clusters, gold in inputs:
        for metric, (tool, extra) in sorted(TOOL_ARGS.items()):
            for pos in ('all', 'n', 'v'):
                want = oracle_output(clusters, gold, metric, pos, True)
                cmd = wrapper + [os.path.join(tooldir, tool)] + extra + \
                    ['--per-word', '--pos', pos, clusters, gold]
                got = subprocess.run(cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
                runs += 1
                if got.returncode != 0 or got.stdout.decode() != want:
                    failed += 1
                    print('FAIL %s' % ' '.join(cmd))
                    print(got.stderr.decode(), end='')
                    for a, b in zip(want.splitlines(), got.stdout.decode().splitlines()):
                        if a != b:
                            print('  oracle: %s\n  tool:   %s' % (a, b))
    print('%d of %d runs agree' % (runs - failed, runs))
    return 1 if failed else 0


def case_id(path):
    """A short name for a SemEval-2010 file: random1, 302-108, ..."""
    name = os.path.basename(path)
    if name.endswith('.key'):
        return name[:-4]
    return name.split('_', 1)[0]


def write_cases(shareddir, clidir):
    base = os.path.join(shareddir, 'wsi', 'semeval2010')
    gold = os.path.join(base, 'keys', 'all.key')
    files = []
    for sub in ('baselines', 'systems'):
        for name in sorted(os.listdir(os.path.join(base, sub))):
            if name != 'filesToSystemsMap':
                files.append((sub, name))
    for sub, name in files:
        clusters = os.path.join(base, sub, name)
        for metric in ('vmeasure', 'fscore', 'paired'):
            tool, extra = TOOL_ARGS[metric]
            for pos in ('all', 'n', 'v'):
                case = 'semeval2010-' + case_id(name)
                if metric == 'paired':
                    case += '-paired'
                case += '-' + pos
                if pos == 'all':
                    opts = ['--per-word']
                elif pos == 'n':
                    opts = ['--pos', 'n']
                else:
                    opts = ['--pos=v']
                d = os.path.join(clidir, tool, case)
                os.makedirs(d, exist_ok=True)
                args = extra + opts + ['@SHARED@/wsi/semeval2010/%s/%s' % (sub, name),
                                       '@SHARED@/wsi/semeval2010/keys/all.key']
                with open(os.path.join(d, 'args'), 'w') as f:
                    f.write(''.join(a + '\n' for a in args))
                with open(os.path.join(d, 'expected-status'), 'w') as f:
                    f.write('0\n')
                with open(os.path.join(d, 'expected-stdout'), 'w') as f:
                    f.write(oracle_output(clusters, gold, metric, pos, pos == 'all'))
                open(os.path.join(d, 'expected-stderr'), 'w').close()
                open(os.path.join(d, 'needs-shared'), 'w').close()
                print('%s/%s' % (tool, case))
    return 0


def main(argv):
    try:
        opts, args = getopt.gnu_getopt(argv, '', ['vmeasure', 'fscore', 'paired', 'pos=',
                                                  'per-word', 'digits=', 'beta=', 'check',
                                                  'write-cases'])
    except getopt.GetoptError as e:
        sys.exit('wsi_oracle.py: %s' % e)
    metric, pos, per_word, digits, beta = 'vmeasure', None, False, 3, 1.0
    do_check = do_write = False
    for o, a in opts:
        if o in ('--vmeasure', '--fscore', '--paired'):
            metric = o[2:]
        elif o == '--pos':
            pos = a
        elif o == '--per-word':
            per_word = True
        elif o == '--digits':
            digits = int(a)
        elif o == '--beta':
            beta = float(a)
        elif o == '--check':
            do_check = True
        elif o == '--write-cases':
            do_write = True
    if do_write:
        if len(args) != 2:
            sys.exit('usage: wsi_oracle.py --write-cases SHAREDDIR CLIDIR')
        return write_cases(*args)
    if do_check:
        if len(args) != 3:
            sys.exit('usage: wsi_oracle.py --check TOOLDIR DATADIR SHAREDDIR')
        return check(*args)
    if len(args) != 2:
        sys.exit('usage: wsi_oracle.py [options] CLUSTERS GOLD')
    sys.stdout.write(oracle_output(args[0], args[1], metric, pos, per_word, digits, beta))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
