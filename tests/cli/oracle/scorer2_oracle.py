#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent re-implementation of scorer2's scoring, used as a test oracle.

This program was written from the behaviour described in
../shared/spec/reference-scorer2.md (sections 4-8, with the tageval changes
of section 10), not from tageval's C code.  It is deliberately simple:
dictionaries instead of a hierarchy library, Python floats (IEEE double, as
tageval uses) summed in file order, and printf-style formatting, which rounds
exact binary ties to even as glibc does.  It covers fine, coarse and mixed
scoring, -m and -v; not the tageval extensions (--conjunctive, filters,
JSON), nor the parent form of sense maps.  Bad input makes it stop with a
Python error rather than with tageval's messages: its job is to check
numbers and traces on good data.

Usage:
  scorer2_oracle.py ANSWERS KEY [SENSEMAP] [-g fine|coarse|mixed] [-m] [-v]
      prints what scorer2 should print (stdout and stderr), exit status 0.
  scorer2_oracle.py --check SCORER2 DATADIR SHAREDDIR
      runs SCORER2 (after the words of $TAGEVAL_TEST_WRAPPER, if set) on the
      documentation table, the Melamed-Resnik examples and the Senseval-3
      sample task in DATADIR, and on the Senseval-3 English lexical sample in
      SHAREDDIR/senseval if it exists, under every policy with and without
      -m (and -v for the small files), and compares its stdout, stderr and
      status with the oracle's.  Exit status 0 if all agree, 1 otherwise.
"""

import difflib
import getopt
import math
import os
import re
import shlex
import subprocess
import sys

# reference-scorer2.md 10.7: an optional '+', digits with an optional point
# and fraction, or a point and a fraction alone, then an optional exponent;
# the value must be finite.
WEIGHT_RE = re.compile(rb'\+?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z')
BLANKS_RE = re.compile(rb'[ \t]+')


class InputError(Exception):
    pass


def read_lines(path):
    """The lines of a file as lists of fields (10.3-10.5, 10.8, 10.12).

    Returns (fields, number of the line from 0); empty, blank and
    comment-only lines are returned too, with no fields, so that callers
    can count lines."""
    if path == '-':
        data = sys.stdin.buffer.read()
    else:
        with open(path, 'rb') as f:
            data = f.read()
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()			# the file ended with a line feed
    out = []
    for number, line in enumerate(lines):
        if line.endswith(b'\r'):
            line = line[:-1]		# CR LF, or a CR as the last byte
        if b'\r' in line:
            raise InputError('%s:%d: stray carriage return' % (path, number + 1))
        if b'\0' in line:
            raise InputError('%s:%d: NUL byte' % (path, number + 1))
        cut = line.find(b'!!')
        if cut >= 0:
            line = line[:cut]
        line = line.strip(b' \t')
        out.append((BLANKS_RE.split(line) if line else [], number))
    return out


class SenseMap:
    """The scorer2 form: 's0 b1 s1 b2 s2 ...'; s1 is the parent of s0 and
    has b1 children.  All lines together give one tree (10.11)."""

    def __init__(self, path=None):
        self.parent = {}
        self.factor = {}
        if path is None:
            return
        for fields, number in read_lines(path):
            if not fields:
                continue
            if len(fields) % 2 == 0:
                raise InputError('%s:%d: even number of fields' % (path, number + 1))
            for i in range(0, len(fields) - 1, 2):
                child, b, par = fields[i], int(fields[i + 1]), fields[i + 2]
                if b <= 0:
                    raise InputError('%s:%d: bad factor' % (path, number + 1))
                if self.parent.get(child, par) != par:
                    raise InputError('%s:%d: two chains' % (path, number + 1))
                if self.factor.get(par, b) != b:
                    raise InputError('%s:%d: two factors' % (path, number + 1))
                self.parent[child] = par
                self.factor[par] = b

    def coarse(self, tag):
        """The root of the tag's chain, or the tag itself (section 6)."""
        seen = 0
        while tag in self.parent:
            tag = self.parent[tag]
            seen += 1
            if seen > len(self.parent):
                raise InputError('cycle in the sense map')
        return tag

    def down(self, ancestor, tag):
        """The product b1*...*bj of the factors passed going up from tag to
        ancestor, or None if ancestor is not above tag."""
        product = 1
        node = tag
        seen = 0
        while node in self.parent:
            node = self.parent[node]
            product *= self.factor[node]
            if node == ancestor:
                return product
            seen += 1
            if seen > len(self.parent):
                raise InputError('cycle in the sense map')
        return None


def credit(policy, smap, a, k):
    """credit(a, k) of section 6 (coarse tags are mapped by the caller)."""
    if a == k:
        return 1.0
    if policy != 'mixed':
        return 0.0
    if smap.down(k, a) is not None:	# k is an ancestor of a
        return 1.0
    product = smap.down(a, k)		# a is an ancestor of k
    if product is not None:
        return 1.0 / product
    return 0.0


def read_key(path, policy, smap, minimal):
    """{(lexelt, instance): [tags]} after the coarse step; the set of
    instances excluded by -m; N."""
    key = {}
    first = {}
    excluded = set()
    for fields, number in read_lines(path):
        if not fields:
            continue
        if len(fields) < 2:
            raise InputError('%s:%d: missing instance id' % (path, number + 1))
        if len(fields) < 3:
            raise InputError('%s:%d: no sense tag' % (path, number + 1))
        ident = (fields[0], fields[1])
        if ident in key:
            raise InputError('%s:%d: duplicate instance (first at line %d)'
                             % (path, number + 1, first[ident]))
        tags = fields[2:]
        if any(b'/' in t for t in tags):
            raise InputError('%s:%d: key tag with a slash' % (path, number + 1))
        if policy == 'coarse':
            merged = []
            for t in tags:
                c = smap.coarse(t)
                if c not in merged:
                    merged.append(c)
            tags = merged
        key[ident] = tags
        first[ident] = number + 1
        if minimal and len(tags) >= 2:
            excluded.add(ident)
    if not key:
        raise InputError('%s: no instances' % path)
    return key, excluded, len(key) - len(excluded)


def parse_answer(path, number, tokens):
    """[(tag, weight)] of section 5 steps 3 (weights as written, or all 1)."""
    guess = []
    all_weighted = True
    for token in tokens:
        slash = token.find(b'/')
        if slash < 0:
            all_weighted = False
            guess.append((token, 1.0))
            continue
        tag, weight = token[:slash], token[slash + 1:]
        if not tag or not WEIGHT_RE.match(weight) or not math.isfinite(float(weight)):
            raise InputError('%s:%d: invalid weight "%s"'
                             % (path, number + 1, token.decode('latin-1')))
        guess.append((tag, float(weight)))
    if not all_weighted:
        guess = [(tag, 1.0) for tag, _ in guess]
    return guess


def fmt(value, decimals):
    return b'%.*f' % (decimals, value)


def ratio(num, den, decimals):
    """num/den as printf prints it; 0/0 is the x86 default NaN, '-nan'."""
    if den == 0:
        if num == 0 or math.isnan(num):
            return b'-nan'
        return b'inf' if num > 0 else b'-inf'
    return fmt(num / den, decimals)


def score(answers_path, key_path, map_path=None, policy='fine', minimal=False,
          verbose=False):
    """Returns (stdout, stderr) as bytes; raises InputError on bad input."""
    out = []
    err = []
    if policy != 'fine' and map_path is None:
        err.append(b'Fine-grained scoring will be used since no sense map was given\n')
        policy = 'fine'
    smap = SenseMap(map_path)
    key, excluded, n = read_key(key_path, policy, smap, minimal)
    used = set()
    correct = 0.0
    attempted = 0.0
    for fields, number in read_lines(answers_path):
        if not fields:
            continue			# blank or comment line: no message
        if len(fields) < 2:
            raise InputError('%s:%d: missing instance id' % (answers_path, number + 1))
        ident = (fields[0], fields[1])
        name = ident[0] + b'_' + ident[1]
        guess = parse_answer(answers_path, number, fields[2:])
        if ident not in key:
            reason = b'Does not exist.'
        elif not guess:
            reason = b'Invalid answer.'
        elif ident in excluded or ident in used:
            reason = b'Excluded or already scored.'
        else:
            reason = None
        if reason is not None:
            # the reference's 0-based count in the -v trace on stdout;
            # scorer2's own standard error counts from 1 (issue 19)
            line = b'Unable to score answer for "%s" (line %d): %s\n' % (name, number, reason)
            err.append(b'Unable to score answer for "%s" (line %d): %s\n'
                       % (name, number + 1, reason))
            if verbose:
                out.append(line + b'\n')
            continue
        # step 4: coarse tags, merged into their first occurrence
        if policy == 'coarse':
            merged = []
            for tag, weight in guess:
                tag = smap.coarse(tag)
                for i, (t, w) in enumerate(merged):
                    if t == tag:
                        merged[i] = (t, w + weight)
                        break
                else:
                    merged.append((tag, weight))
            guess = merged
        # step 5: normalise only a total above 1
        total = 0.0
        for _, weight in guess:
            total += weight
        if total > 1.0:
            guess = [(tag, weight / total) for tag, weight in guess]
            total = 1.0
        # section 6
        tags = key[ident]
        s = 0.0
        for tag, weight in guess:
            c = 0.0
            for k in tags:
                c += credit(policy, smap, tag, k)
            s += weight * min(1.0, c)
        s = min(1.0, s)
        correct += s
        attempted += total
        used.add(ident)
        if verbose:
            out.append(b'score for "%s": %s\n' % (name, fmt(s, 3)))
            out.append(b' key   = ' + b' '.join(tags) + b'\n')
            out.append(b' guess = ' + b' '.join(t + b'/' + fmt(w, 3) for t, w in guess)
                       + b'\n\n')
    title = {'fine': b'Fine', 'coarse': b'Coarse', 'mixed': b'Mixed'}[policy]
    if minimal:
        title += b'-grained minimal'
    else:
        title += b'-grained'
    out.append(b'\n%s score for "%s" using key "%s":\n'
               % (title, os.fsencode(answers_path), os.fsencode(key_path)))
    out.append(b' precision: %s (%s correct of %s attempted)\n'
               % (ratio(correct, attempted, 3), fmt(correct, 2), fmt(attempted, 2)))
    out.append(b' recall: %s (%s correct of %s in total)\n'
               % (ratio(correct, n, 3), fmt(correct, 2), fmt(float(n), 2)))
    out.append(b' attempted: %s %% (%s attempted of %s in total)\n\n'
               % (ratio(100.0 * attempted, n, 2), fmt(attempted, 2), fmt(float(n), 2)))
    return b''.join(out), b''.join(err)


def command_line(argv):
    try:
        opts, operands = getopt.gnu_getopt(argv, 'g:mv')
    except getopt.GetoptError as e:
        sys.exit('scorer2_oracle: %s' % e)
    policy, minimal, verbose = 'fine', False, False
    for opt, value in opts:
        if opt == '-g':
            if value not in ('fine', 'coarse', 'mixed'):
                sys.exit('scorer2_oracle: bad granularity %r' % value)
            policy = value
        elif opt == '-m':
            minimal = True
        elif opt == '-v':
            verbose = True
    if len(operands) not in (2, 3):
        sys.exit(__doc__)
    out, err = score(operands[0], operands[1],
                     operands[2] if len(operands) == 3 else None,
                     policy, minimal, verbose)
    sys.stdout.flush()
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)


def check(scorer2, data_dir, shared_dir):
    """Compares scorer2 with the oracle on every data set at hand."""
    wrapper = shlex.split(os.environ.get('TAGEVAL_TEST_WRAPPER', ''))
    small = []	# (answers, key, map): also traced with -v
    large = []
    d = data_dir
    small.append((d + '/doc-table.answers', d + '/doc-table.key', d + '/doc-table.sensemap'))
    small.append((d + '/doc-table-shuffled.answers', d + '/doc-table-shuffled.key',
                  d + '/doc-table-shuffled.sensemap'))
    small.append((d + '/melamed-resnik.answers', d + '/melamed-resnik.key',
                  d + '/melamed-resnik.sensemap'))
    small.append((d + '/sampletask.answers', d + '/sampletask.key', d + '/sampletask.sensemap'))
    senseval = shared_dir + '/senseval'
    have_shared = os.path.isdir(senseval)
    if have_shared:
        s3 = senseval + '/senseval3_englishls'
        key = s3 + '/EnglishLS.test.key'
        systems = sorted(os.listdir(s3 + '/systems_cs4740'))
        for name in systems:
            for smap in (s3 + '/EnglishLS.sensemap',
                         senseval + '/derived/EnglishLS.sensemap.Csorted'):
                large.append((s3 + '/systems_cs4740/' + name, key, smap))
        st = senseval + '/scorer2_sampletask'
        small.append((st + '/sampletask.system.answers', st + '/sampletask.key',
                      st + '/sampletask.sensemap'))
        hw = senseval + '/columbia_hw3'
        for lang in ('English', 'Spanish', 'Catalan'):
            for system in ('Best', 'KNN', 'SVM'):
                large.append((hw + '/%s-%s.answer' % (system, lang),
                              hw + '/%s-dev.key' % lang, hw + '/English.sensemap'))
            large.append((hw + '/%s.baseline' % lang, hw + '/%s-dev.key' % lang,
                          hw + '/English.sensemap'))
        for system in ('KNN', 'SVM'):
            large.append((hw + '/biksboro13-%s-English.answer' % system,
                          hw + '/English-dev.key', hw + '/English.sensemap'))
    runs = []
    for files, verbose_too in [(f, True) for f in small] + [(f, False) for f in large]:
        for policy in ('fine', 'coarse', 'mixed'):
            for minimal in (False, True):
                for verbose in ((False, True) if verbose_too else (False,)):
                    runs.append((files, policy, minimal, verbose))
    # the trace of one large file, to compare every score
    if have_shared:
        runs.append((large[0], 'mixed', False, True))
    failures = 0
    for (answers, key, smap), policy, minimal, verbose in runs:
        args = [answers, key, smap, '-g', policy]
        if minimal:
            args.append('-m')
        if verbose:
            args.append('-v')
        want_out, want_err = score(answers, key, smap, policy, minimal, verbose)
        proc = subprocess.run(wrapper + [scorer2] + args, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        problems = []
        if proc.returncode != 0:
            problems.append('exit status %d, expected 0' % proc.returncode)
        for what, want, got in (('stdout', want_out, proc.stdout),
                                ('stderr', want_err, proc.stderr)):
            if want != got:
                diff = difflib.unified_diff(
                    want.decode('latin-1').splitlines(True),
                    got.decode('latin-1').splitlines(True),
                    'oracle ' + what, 'scorer2 ' + what, n=1)
                problems.append(''.join(list(diff)[:60]))
        command = ' '.join(shlex.quote(a) for a in ['scorer2'] + args)
        if problems:
            failures += 1
            print('FAIL %s' % command)
            for p in problems:
                print(p.rstrip('\n'))
        else:
            print('ok   %s' % command)
    print('%d of %d runs agree with the oracle' % (len(runs) - failures, len(runs)))
    if not have_shared:
        print('SKIP the Senseval-3 data: %s is absent' % senseval)
    return 1 if failures else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--check':
        if len(sys.argv) != 5:
            sys.exit(__doc__)
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
    try:
        command_line(sys.argv[1:])
    except InputError as e:
        sys.exit('scorer2_oracle: %s' % e)


if __name__ == '__main__':
    main()
