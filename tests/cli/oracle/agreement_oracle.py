#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent computation of hkappa's figures, used as a test oracle.

Written from ../shared/spec/reference-agreement.md (sections 1-9) and the
formula of hkappa(1) for --downward, not from tageval's C code.  It works in
exact rational arithmetic (fractions.Fraction): every distribution, Pr(A),
Pr(E), kappa, Cohen's / Davies-Fleiss kappa and alpha is an exact fraction,
rounded only when printed.  Alpha's expected disagreement is computed by
enumerating the pairs of distinct annotations (grouped by identical
distribution), not from the |sum P|^2 - sum |P|^2 identity that hkappa uses.
The bootstrap re-implements GSL's MT19937 generator, gsl_rng_uniform_int and
gsl_stats_quantile_from_sorted_data, draws the resamples as hkappa's
documentation describes, and recomputes every replicate from scratch on the
resampled list of items (in floating point: the intervals are printed with
six decimals).

It reads good input only: malformed files make it stop with a Python error
rather than with hkappa's messages.

Usage:
  agreement_oracle.py [OPTIONS] ANN1 ANN2 [ANN3 ...] SENSES
  agreement_oracle.py --flat [OPTIONS] ANN1 ANN2 [ANN3 ...]
      prints the report hkappa should print (its default text format).
      OPTIONS: --per-lexelt, --downward=CORPUS, --smoothing=A,
      --bootstrap=N, --seed=S, --confidence=C, and --exact, which prints
      the pooled figures as fractions after the report.
  agreement_oracle.py --check HKAPPA [OPTIONS] OPERANDS...
      runs HKAPPA (after the words of $TAGEVAL_TEST_WRAPPER, if set) with
      the same options and operands, compares its text report with the
      oracle's byte for byte, then runs it again with --format=json and
      compares every number of the JSON object with the oracle's exact
      value (relative tolerance 1e-9).  Exit status 0 if all agree, 1
      otherwise.
  agreement_oracle.py --check-cases CASESDIR DATADIR SHAREDDIR
      recomputes the expected output of every case under CASESDIR (the
      hkappa cases of tests/cli, see tests/cli/README) that expects exit
      status 0 and a report or a JSON object: it runs the case's setup
      script in a scratch directory, substitutes @DATA@, @CASE@ and
      @SHARED@, reads the case's standard input, and compares the oracle's
      report with expected-stdout byte for byte, or, for --format=json,
      every number of expected-stdout with the oracle's value.  Cases that
      need SHAREDDIR are skipped when it is absent.  Exit status 0 if all
      agree, 1 otherwise.
"""

import getopt
import json
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from fractions import Fraction


def columns(name):
    """Terminal columns of a name, as hkappa pads its lexelt column (issue
    19): combining marks (Mn, Me) and zero-width format characters 0, East
    Asian wide or fullwidth 2, anything else (a byte that is not UTF-8,
    here a surrogate escape) 1."""
    n = 0
    for ch in name:
        c = ord(ch)
        if unicodedata.category(ch) in ('Mn', 'Me') or 0x200B <= c <= 0x200F \
                or 0x2060 <= c <= 0x2064 or c == 0xFEFF:
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ('W', 'F') and \
            not 0xDC80 <= c <= 0xDCFF else 1
    return n

BLANKS_RE = re.compile(rb'[ \t]+')
# a weight: optional '+', digits with an optional fraction or a fraction
# alone, optional exponent; finite and >= 0 (tageval-formats(5))
WEIGHT_RE = re.compile(rb'\+?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z')

ONE = Fraction(1)
ZERO = Fraction(0)


# ------------------------------------------------------------------ reading

def records(path, stdin_data):
    """The non-empty lines of a file as (line number from 1, fields)."""
    if path == '-':
        data = stdin_data
    else:
        with open(path, 'rb') as f:
            data = f.read()
    # tageval-formats(5): gzip data (its magic bytes) is read decompressed,
    # a UTF-8 byte-order mark at the start is skipped
    if data.startswith(b'\x1f\x8b'):
        import gzip
        data = gzip.decompress(data)
    if data.startswith(b'\xef\xbb\xbf'):
        data = data[3:]
    if data.endswith(b'\r'):
        data = data[:-1]
    out = []
    for number, line in enumerate(data.split(b'\n'), 1):
        if line.endswith(b'\r'):
            line = line[:-1]
        if b'\r' in line or b'\0' in line:
            raise ValueError('%s:%d: CR or NUL' % (path, number))
        cut = line.find(b'!!')
        if cut >= 0:
            line = line[:cut]
        fields = [f for f in BLANKS_RE.split(line) if f]
        if fields:
            out.append((number, fields))
    return out


class Hierarchy:
    """A sense map: children and branching factors, and the downward
    probabilities P(child | parent) and P(parent itself | parent)."""

    def __init__(self):
        self.children = {}   # tag -> list of children, in the order listed
        self.factor = {}     # tag -> declared branching factor (scorer2 form)
        self.pdown = {}      # (parent, child) -> probability
        self.pself = {}      # parent -> probability kept by the parent
        self._dist = {}

    @classmethod
    def read(cls, path, stdin_data):
        h = cls()
        lines = records(path, stdin_data)
        scorer2_form = any(len(f) >= 3 for _, f in lines)
        for _, f in lines:
            if scorer2_form:
                assert len(f) % 2 == 1, f
                child = f[0]
                for i in range(1, len(f), 2):
                    b, parent = int(f[i]), f[i + 1]
                    assert h.factor.setdefault(parent, b) == b
                    h.add_edge(child, parent)
                    child = parent
            else:
                assert len(f) <= 2, f
                if len(f) == 2:
                    h.add_edge(f[0], f[1])
        for p, cs in h.children.items():
            assert len(cs) <= h.branching(p)
        h.uniform()
        return h

    def add_edge(self, child, parent):
        assert child != parent
        cs = self.children.setdefault(parent, [])
        if child not in cs:
            cs.append(child)

    def branching(self, tag):
        return self.factor.get(tag, len(self.children.get(tag, [])))

    def uniform(self):
        """Section 2: each child 1/b, the parent keeps 1 - k/b."""
        for p, cs in self.children.items():
            b = self.branching(p)
            for c in cs:
                self.pdown[(p, c)] = Fraction(1, b)
            self.pself[p] = Fraction(b - len(cs), b)
        self._dist = {}

    def estimate(self, path, alpha, stdin_data):
        """--downward: the estimates of hkappa(1), from a tagged corpus.

        c(t): every corpus line weighs 1, shared evenly by its distinct tags
        (weights, if any, ignored); only tags of the map are kept.
        n(t) = c(t) + the sum of n over t's children.
          P(child | p) = (n(child) + alpha) / D
          P(p itself | p) = (c(p) + alpha (b - k)) / D   when b > k
          D = sum n(children) + [b > k] c(p) + alpha b
        A parent with D = 0 stays uniform."""
        known = set(self.children)
        for cs in self.children.values():
            known.update(cs)
        count = {}
        for _, f in records(path, stdin_data):
            assert len(f) >= 3
            distinct = []
            for field in f[2:]:
                tag = field.split(b'/', 1)[0]
                if tag not in distinct:
                    distinct.append(tag)
            for tag in distinct:
                if tag in known:
                    count[tag] = count.get(tag, ZERO) + Fraction(1, len(distinct))
        below = {}

        def n(tag):
            if tag not in below:
                below[tag] = count.get(tag, ZERO) + sum(
                    (n(c) for c in self.children.get(tag, [])), ZERO)
            return below[tag]

        self.uniform()
        for p, cs in self.children.items():
            b, k = self.branching(p), len(cs)
            own = count.get(p, ZERO) if b > k else ZERO
            d = sum((n(c) for c in cs), ZERO) + own + alpha * b
            if d == 0:
                continue
            for c in cs:
                self.pdown[(p, c)] = (n(c) + alpha) / d
            self.pself[p] = (own + alpha * (b - k)) / d if b > k else ZERO
        self._dist = {}

    def dist(self, tag):
        """The leaf distribution of a tag, as a dict leaf -> probability."""
        if tag in self._dist:
            return self._dist[tag]
        cs = self.children.get(tag)
        if not cs:
            d = {tag: ONE}
        else:
            d = {}
            if self.pself[tag]:
                d[tag] = self.pself[tag]
            for c in cs:
                pc = self.pdown[(tag, c)]
                for leaf, p in self.dist(c).items():
                    d[leaf] = d.get(leaf, ZERO) + pc * p
        self._dist[tag] = d
        return d


def annotation(h, tokens):
    """Section 2: the mixture of a line's tags' distributions."""
    tags, weights = [], []
    weighted = True
    for tok in tokens:
        if b'/' in tok:
            tag, w = tok.split(b'/', 1)
            assert tag and WEIGHT_RE.match(w), tok
            weights.append(Fraction(w.decode()))
        else:
            tag = tok
            weighted = False
            weights.append(ONE)
        tags.append(tag)
    if weighted:
        assert len(set(tags)) == len(tags), tokens
        shares = list(zip(tags, weights))
    else:
        distinct = []
        for t in tags:
            if t not in distinct:
                distinct.append(t)
        shares = [(t, ONE) for t in distinct]
    total = sum((w for _, w in shares), ZERO)
    assert total > 0
    mix = {}
    for t, w in shares:
        for leaf, p in h.dist(t).items():
            mix[leaf] = mix.get(leaf, ZERO) + w / total * p
    return {leaf: p for leaf, p in mix.items() if p}


def read_annotations(paths, h, stdin_data):
    """items: (lexelt, instance) -> {annotator: distribution}; also the
    lexelts in order of first appearance and each item's lexelt."""
    items = {}
    order = []
    for c, path in enumerate(paths):
        seen = set()
        for _, f in records(path, stdin_data):
            assert len(f) >= 3, f
            item = (f[0], f[1])
            assert item not in seen, item
            seen.add(item)
            if item not in items:
                items[item] = {}
                order.append(item)
            items[item][c] = annotation(h, f[2:])
        assert seen, path
    return items, order


# ----------------------------------------------------------------- figures

def dot(p, q):
    if len(p) > len(q):
        p, q = q, p
    return sum((v * q[k] for k, v in p.items() if k in q), ZERO)


class Figures:
    pass


def figures(annots, m, exact=True):
    """The figures of a list of items, each a list of (annotator,
    distribution) with at least two annotations (sections 3-6, 9)."""
    f = Figures()
    f.items = len(annots)
    f.kappa = f.sep = f.alpha = None
    f.kappa_why = f.sep_why = f.alpha_why = None
    f.pr_a = f.pr_e = f.pr_e_sep = f.d_o = f.d_e = None
    if not annots:
        f.kappa_why = f.sep_why = f.alpha_why = 'no items'
        return f
    zero = ZERO if exact else 0.0
    # Pr(A): the mean over items of the mean over unordered pairs
    sum_a = zero
    for anns in annots:
        pairs = [dot(anns[i][1], anns[j][1])
                 for i in range(len(anns)) for j in range(i + 1, len(anns))]
        sum_a += sum(pairs, zero) / len(pairs)
    f.pr_a = sum_a / len(annots)
    # pooled marginals over all annotations
    n = sum(len(anns) for anns in annots)
    marg = {}
    for anns in annots:
        for _, d in anns:
            for leaf, p in d.items():
                marg[leaf] = marg.get(leaf, zero) + p
    f.pr_e = sum(((v / n) * (v / n) for v in marg.values()), zero)
    if f.pr_e == 1:
        f.kappa_why = 'chance'
    else:
        f.kappa = (f.pr_a - f.pr_e) / (1 - f.pr_e)
    # separate marginals: Cohen for two annotators, Davies-Fleiss for
    # complete data
    complete = all(len(anns) == m for anns in annots)
    if complete:
        margc = [dict() for _ in range(m)]
        for anns in annots:
            for c, d in anns:
                for leaf, p in d.items():
                    margc[c][leaf] = margc[c].get(leaf, zero) + p / len(annots)
        pairs = [dot(margc[c], margc[d]) for c in range(m) for d in range(c + 1, m)]
        f.pr_e_sep = sum(pairs, zero) / len(pairs)
        if f.pr_e_sep == 1:
            f.sep_why = 'chance'
        else:
            f.sep = (f.pr_a - f.pr_e_sep) / (1 - f.pr_e_sep)
    else:
        f.sep_why = 'incomplete'
    # alpha: D_o over the ordered pairs within items, D_e over all ordered
    # pairs of distinct annotations, enumerated by classes of identical
    # distributions
    d_o = zero
    for anns in annots:
        mt = len(anns)
        s = sum((1 - dot(anns[i][1], anns[j][1])
                 for i in range(mt) for j in range(mt) if i != j), zero)
        d_o += s / (mt - 1)
    f.d_o = d_o / n
    classes = {}
    for anns in annots:
        for _, d in anns:
            key = tuple(sorted(d.items()))
            classes[key] = classes.get(key, 0) + 1
    keys = list(classes)
    dists = [dict(k) for k in keys]
    by_leaf = {}
    for u, d in enumerate(dists):
        for leaf in d:
            by_leaf.setdefault(leaf, []).append(u)
    inner = zero  # sum over ordered pairs i != j of <P_i, P_j>
    for u, du in enumerate(dists):
        nu = classes[keys[u]]
        partners = set()
        for leaf in du:
            partners.update(by_leaf[leaf])
        for v in partners:
            nv = classes[keys[v]]
            pairs = nu * (nu - 1) if u == v else nu * nv
            if pairs:
                inner += pairs * dot(du, dists[v])
    f.d_e = 1 - inner / (n * (n - 1))
    if f.d_e == 0:
        f.alpha_why = 'no spread'
    else:
        f.alpha = 1 - f.d_o / f.d_e
    return f


REASONS = {
    'chance': 'chance agreement is 1 (every annotation puts all its mass on one leaf)',
    'incomplete': 'needs every annotator on every item',
    'no items': 'no item annotated by two or more annotators',
    'no spread': 'expected disagreement is 0 (all annotations identical leaves)',
}


# --------------------------------------------------------------- bootstrap

class MT19937:
    """The Mersenne Twister as GSL seeds it (gsl_rng_mt19937)."""

    def __init__(self, seed):
        if seed == 0:
            seed = 4357
        self.mt = [seed & 0xffffffff]
        for i in range(1, 624):
            prev = self.mt[-1]
            self.mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xffffffff)
        self.index = 624

    def next(self):
        if self.index >= 624:
            mt = self.mt
            for i in range(624):
                y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff)
                v = mt[(i + 397) % 624] ^ (y >> 1)
                if y & 1:
                    v ^= 0x9908b0df
                mt[i] = v
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9d2c5680
        y ^= (y << 15) & 0xefc60000
        y ^= y >> 18
        return y

    def uniform_int(self, n):
        """gsl_rng_uniform_int: rejection with scale = range / n."""
        scale = 0xffffffff // n
        while True:
            k = self.next() // scale
            if k < n:
                return k


def quantile_sorted(data, q):
    """gsl_stats_quantile_from_sorted_data: linear interpolation."""
    index = q * (len(data) - 1)
    lhs = int(index)
    delta = index - lhs
    if lhs == len(data) - 1:
        return data[lhs]
    return (1 - delta) * data[lhs] + delta * data[lhs + 1]


def to_float_annots(annots):
    return [[(c, {k: float(v) for k, v in d.items()}) for c, d in anns] for anns in annots]


def bootstrap(annots, m, replicates, seed, confidence):
    """Percentile intervals of kappa, Cohen / Davies-Fleiss and alpha: each
    replicate draws len(annots) items with replacement (the i-th draw is
    uniform_int(len(annots)) ), and its figures are computed afresh on the
    resampled list.  A coefficient gets an interval when it is defined in
    at least half of the replicates."""
    fl = to_float_annots(annots)
    rng = MT19937(seed)
    values = {'kappa': [], 'sep': [], 'alpha': []}
    n = len(fl)
    for _ in range(replicates):
        sample = [fl[rng.uniform_int(n)] for _ in range(n)]
        f = figures_float(sample, m)
        for name in values:
            v = getattr(f, name)
            if v is not None:
                values[name].append(v)
    tail = (1.0 - confidence) / 2.0
    out = {}
    for name, vs in values.items():
        if not vs or 2 * len(vs) < replicates:
            out[name] = None
        else:
            vs.sort()
            out[name] = (quantile_sorted(vs, tail), quantile_sorted(vs, 1.0 - tail))
    return out


EPS = 1e-12


def figures_float(annots, m):
    """figures() in floating point, with hkappa's rounding allowance: a
    denominator below 1e-12 counts as zero."""
    f = figures(annots, m, exact=False)
    if f.kappa is not None and 1 - f.pr_e < EPS:
        f.kappa = None
    if f.sep is not None and 1 - f.pr_e_sep < EPS:
        f.sep = None
    if f.alpha is not None and f.d_e < EPS:
        f.alpha = None
    return f


# ------------------------------------------------------------------ report

def fmt(v):
    return '%9.6f' % float(v)


def report(opts, files, m, pooled, lexelts, single, boot):
    out = []
    nsingle = sum(single)
    out.append('%-28s %9d' % ('annotators', m))
    out.append('%-28s %9d' % ('items used', pooled.items))
    line = '%-28s %9d' % ('items of one annotator only', nsingle)
    if nsingle:
        line += '  (' + ', '.join('%s: %d' % (files[c], single[c]) for c in range(m)) + ')'
    out.append(line)
    out.append('%-28s %s' % ('observed agreement Pr(A)', fmt(pooled.pr_a)))
    out.append('%-28s %s' % ('chance agreement Pr(E)', fmt(pooled.pr_e)))
    sep_label = "Cohen's kappa" if m == 2 else 'Davies-Fleiss kappa'
    for name, label, why in (('kappa', 'pooled kappa (Scott/Fleiss)', pooled.kappa_why),
                             ('sep', sep_label, pooled.sep_why),
                             ('alpha', "Krippendorff's alpha", pooled.alpha_why)):
        v = getattr(pooled, name)
        if v is None:
            out.append('%-28s undefined: %s' % (label, REASONS[why]))
            continue
        extra = ''
        if name == 'sep':
            extra += '   (Pr(E) %.6f)' % float(pooled.pr_e_sep)
        if boot is not None:
            if boot[name] is None:
                extra += '   no interval'
            else:
                extra += '   %g%% CI [%.6f, %.6f]' % ((100.0 * opts['confidence'],) + boot[name])
        out.append('%-28s %s%s' % (label, fmt(v), extra))
    if len(lexelts) > 1:
        defined = [f.kappa for _, f in lexelts if f.kappa is not None]
        label = 'macro kappa (%d lexelt%s)' % (len(defined), '' if len(defined) == 1 else 's')
        left = len(lexelts) - len(defined)
        if defined:
            extra = '   (%d left out: undefined)' % left if left else ''
            out.append('%-28s %s%s' % (label, fmt(sum(defined) / len(defined)), extra))
        else:
            # section 8: no lexelt has kappa defined (hkappa 0.1.0 gives the
            # reason "no item annotated by two or more annotators" here)
            out.append('%-28s undefined: kappa is undefined in every lexelt (%d left out)'
                       % (label, left))
    if boot is not None:
        out.append('bootstrap: %d replicates, seed %d' % (opts['bootstrap'], opts['seed']))
    if opts['per_lexelt']:
        w = max([6] + [columns(name) for name, _ in lexelts])
        out.append('')
        out.append('%-*s %7s %9s %9s %9s %9s %9s' % (
            w, 'lexelt', 'items', 'Pr(A)', 'Pr(E)', 'pooled',
            'Cohen' if m == 2 else 'D-F', 'alpha'))
        for name, f in lexelts:
            line = name + ' ' * (w - columns(name)) + ' %7d' % f.items
            if f.items == 0:
                line += ' %9s %9s %9s %9s %9s' % ('-', '-', '-', '-', '-')
            else:
                line += ' %s %s' % (fmt(f.pr_a), fmt(f.pr_e))
                for v in (f.kappa, f.sep, f.alpha):
                    line += ' %9s' % 'undef' if v is None else ' ' + fmt(v)
            out.append(line)
    return '\n'.join(out) + '\n'


def compute(opts, operands, stdin_data):
    if opts['flat']:
        files, senses = operands, None
    else:
        files, senses = operands[:-1], operands[-1]
    h = Hierarchy.read(senses, stdin_data) if senses is not None else Hierarchy()
    if opts['downward'] is not None:
        h.estimate(opts['downward'], Fraction(opts['smoothing']), stdin_data)
    m = len(files)
    items, order = read_annotations(files, h, stdin_data)
    single = [0] * m
    used = []
    by_lexelt = {}
    for item in order:
        anns = sorted(items[item].items())
        lex = item[0].decode('utf-8', 'surrogateescape')
        by_lexelt.setdefault(lex, [])
        if len(anns) == 1:
            single[anns[0][0]] += 1
            continue
        used.append(anns)
        by_lexelt[lex].append(anns)
    assert used, 'no item annotated by two or more annotators'
    pooled = figures(used, m)
    lexelts = [(name, figures(anns, m)) for name, anns in by_lexelt.items()]
    boot = None
    if opts['bootstrap']:
        boot = bootstrap(used, m, opts['bootstrap'], opts['seed'], opts['confidence'])
    return files, m, pooled, lexelts, single, boot


# ------------------------------------------------------------------- check

def numbers_of(f, prefix=''):
    """The JSON figures of a Figures object, as the oracle has them."""
    def val(v):
        return None if v is None else float(v)
    return {
        prefix + 'items': f.items,
        prefix + 'pr_a': val(f.pr_a), prefix + 'pr_e': val(f.pr_e),
        prefix + 'kappa': val(f.kappa), prefix + 'kappa_cohen': val(f.sep),
        prefix + 'pr_e_cohen': val(f.pr_e_sep),
        prefix + 'd_o': val(f.d_o), prefix + 'd_e': val(f.d_e),
        prefix + 'alpha': val(f.alpha),
    }


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def compare_json(j, pooled, lexelts, single, boot, label='hkappa'):
    """Differences between hkappa's JSON object @j and the oracle's figures,
    as a list of lines."""
    want_n = numbers_of(pooled, 'pooled.')
    got_n = {'pooled.' + k: j['pooled'].get(k) for k in
             ('items', 'pr_a', 'pr_e', 'kappa', 'kappa_cohen', 'pr_e_cohen',
              'd_o', 'd_e', 'alpha')}
    for k in ('pr_a', 'pr_e', 'kappa', 'kappa_cohen', 'alpha'):
        want_n[k] = want_n['pooled.' + k]
        got_n[k] = j.get(k)
    if j.get('per_lexelt') is not None:
        for name, f in lexelts:
            want_n.update(numbers_of(f, name + '.'))
            got_n.update({name + '.' + k: v for k, v in j['per_lexelt'][name].items()
                          if k != 'undefined'})
    want_n['single'] = single
    got_n['single'] = j['single']
    if boot is not None:
        for name, key in (('kappa', 'kappa'), ('sep', 'kappa_cohen'), ('alpha', 'alpha')):
            want_n['bootstrap.' + key] = boot[name]
            got_n['bootstrap.' + key] = j['bootstrap'][key]
    diffs = []
    for k, v in want_n.items():
        g = got_n.get(k)
        if isinstance(v, list) or isinstance(v, int):
            same = v == g
        elif isinstance(v, tuple):
            same = g is not None and close(v[0], g[0]) and close(v[1], g[1])
        else:
            same = close(v, g)
        if not same:
            diffs.append('%s: %s %r, oracle %r' % (k, label, g, v))
    return diffs


def check(tool, argv):
    opts, operands = command_line(argv)
    stdin_data = b''
    wrapper = shlex.split(os.environ.get('TAGEVAL_TEST_WRAPPER', ''))
    files, m, pooled, lexelts, single, boot = compute(opts, operands, stdin_data)
    want = report(opts, files, m, pooled, lexelts, single, boot)
    ok = True
    run = subprocess.run(wrapper + [tool] + argv, stdin=subprocess.DEVNULL,
                         capture_output=True)
    got = run.stdout.decode('utf-8', 'surrogateescape')
    if run.returncode != 0 or got != want:
        ok = False
        print('text report differs (status %d):' % run.returncode)
        print('--- oracle\n' + want + '--- hkappa\n' + got + run.stderr.decode())
    run = subprocess.run(wrapper + [tool, '--format=json', '--per-lexelt'] + argv,
                         stdin=subprocess.DEVNULL, capture_output=True)
    diffs = compare_json(json.loads(run.stdout), pooled, lexelts, single, boot)
    for d in diffs:
        print(d)
    ok = ok and not diffs
    print('%s: %s' % ('agree' if ok else 'DIFFER', ' '.join(argv)))
    return ok


def check_cases(cases_dir, data_dir, shared_dir):
    """Compares the oracle with the expected outputs of the hkappa cases."""
    import tempfile
    data_dir = os.path.abspath(data_dir)
    shared_dir = os.path.abspath(shared_dir)
    ok = True
    counts = {'agree': 0, 'skip': 0, 'differ': 0}
    for name in sorted(os.listdir(cases_dir)):
        case = os.path.abspath(os.path.join(cases_dir, name))
        if not os.path.isfile(os.path.join(case, 'args')):
            continue
        if name.startswith('bad-'):
            # the bad-input catalogue: the oracle reads good input only
            counts['skip'] += 1
            continue
        if os.path.isfile(os.path.join(case, 'no-oracle')):
            # inputs whose leaf distributions the oracle, spreading every
            # tag over its leaves, cannot hold (the file says why)
            counts['skip'] += 1
            continue
        with open(os.path.join(case, 'expected-status')) as f:
            if f.read().strip() != '0':
                continue
        if not os.path.isfile(os.path.join(case, 'expected-stdout')):
            continue

        def subst(text):
            return (text.replace('@DATA@', data_dir).replace('@CASE@', case)
                    .replace('@SHARED@', shared_dir))
        with open(os.path.join(case, 'args')) as f:
            argv = [subst(a) for a in f.read().split('\n')[:-1]]
        if argv[:1] in (['--help'], ['-h'], ['--version'], ['-V']):
            continue
        if os.path.exists(os.path.join(case, 'needs-shared')) and not os.path.isdir(shared_dir):
            counts['skip'] += 1
            continue
        # --format=json / --format json, as hkappa reads them (the last wins)
        fmt_json = False
        rest = []
        i = 0
        while i < len(argv):
            a = argv[i]
            if a.startswith('--form') and '=' in a:
                fmt_json = a.split('=', 1)[1] == 'json'
            elif a.startswith('--form') and '--format'.startswith(a):
                fmt_json = argv[i + 1] == 'json'
                i += 1
            elif a.startswith('--per') and '--per-lexelt'.startswith(a):
                rest.append('--per-lexelt')
            else:
                rest.append(a)
            i += 1
        with open(os.path.join(case, 'expected-stdout')) as f:
            want = subst(f.read())
        scratch = tempfile.mkdtemp(prefix='tageval-oracle.')
        try:
            env = dict(os.environ, TAGEVAL_CLI_DATA=data_dir, TAGEVAL_CLI_CASE=case,
                       TAGEVAL_CLI_SHARED=shared_dir)
            if os.path.isfile(os.path.join(case, 'setup')):
                subprocess.run(['sh', os.path.join(case, 'setup')], cwd=scratch, env=env,
                               check=True)
            stdin_data = b''
            if os.path.isfile(os.path.join(case, 'stdin')):
                with open(os.path.join(case, 'stdin'), 'rb') as f:
                    stdin_data = f.read()
            elif os.path.isfile(os.path.join(case, 'stdin-file')):
                with open(os.path.join(case, 'stdin-file')) as f:
                    path = subst(f.read().split('\n')[0])
                with open(os.path.join(scratch, path), 'rb') as f:
                    stdin_data = f.read()
            cwd = os.getcwd()
            os.chdir(scratch)
            try:
                opts, operands = command_line(rest)
                files, m, pooled, lexelts, single, boot = compute(opts, operands, stdin_data)
            finally:
                os.chdir(cwd)
        finally:
            subprocess.run(['rm', '-rf', scratch])
        if fmt_json:
            diffs = compare_json(json.loads(want), pooled, lexelts, single, boot,
                                 'expected')
        else:
            got = report(opts, files, m, pooled, lexelts, single, boot)
            diffs = [] if got == want else ['--- expected-stdout', want, '--- oracle', got]
        if diffs:
            ok = False
            counts['differ'] += 1
            print('DIFFER %s' % name)
            for d in diffs:
                print('    ' + d.rstrip('\n').replace('\n', '\n    '))
        else:
            counts['agree'] += 1
            print('agree  %s' % name)
    print('%(agree)d cases agree, %(differ)d differ, %(skip)d skipped' % counts)
    return ok


# -------------------------------------------------------------------- main

def command_line(argv):
    opts = {'flat': False, 'per_lexelt': False, 'downward': None,
            'smoothing': '1', 'bootstrap': 0, 'seed': 1, 'confidence': 0.95,
            'exact': False}
    pairs, operands = getopt.gnu_getopt(argv, '', [
        'flat', 'per-lexelt', 'downward=', 'smoothing=', 'bootstrap=',
        'seed=', 'confidence=', 'exact'])
    for name, value in pairs:
        if name == '--flat':
            opts['flat'] = True
        elif name == '--per-lexelt':
            opts['per_lexelt'] = True
        elif name == '--downward':
            opts['downward'] = value
        elif name == '--smoothing':
            opts['smoothing'] = value
        elif name == '--bootstrap':
            opts['bootstrap'] = int(value)
        elif name == '--seed':
            opts['seed'] = int(value)
        elif name == '--confidence':
            opts['confidence'] = float(value)
        elif name == '--exact':
            opts['exact'] = True
    return opts, operands


def main():
    argv = sys.argv[1:]
    if argv[:1] == ['--check-cases']:
        if len(argv) != 4:
            sys.exit(__doc__)
        sys.exit(0 if check_cases(argv[1], argv[2], argv[3]) else 1)
    if argv[:1] == ['--check']:
        if len(argv) < 3:
            sys.exit(__doc__)
        sys.exit(0 if check(argv[1], argv[2:]) else 1)
    opts, operands = command_line(argv)
    stdin_data = sys.stdin.buffer.read() if '-' in operands or opts['downward'] == '-' else b''
    files, m, pooled, lexelts, single, boot = compute(opts, operands, stdin_data)
    sys.stdout.write(report(opts, files, m, pooled, lexelts, single, boot))
    if opts['exact']:
        for name in ('pr_a', 'pr_e', 'kappa', 'pr_e_sep', 'sep', 'd_o', 'd_e', 'alpha'):
            v = getattr(pooled, name)
            print('%-8s %s' % (name, 'undefined' if v is None else v))


if __name__ == '__main__':
    main()
