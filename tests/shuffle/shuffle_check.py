#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Line order must not change a bit of any output (issue 17).

For every tool and every file of the real data in ../shared/data that the
tool reads (the Senseval-3 system answers, key, sense map and training key;
the SemEval-2010 gold key, systems, baselines and supervised-evaluation
splits; the WSbest annotations and Senseval-3 agreement files, with and
without hkappa --bootstrap; the SemEval-2013 gold key, systems and
baselines; the WSD framework's ALL key with the LMMS and BEM answers), the
lines
of every input file are shuffled with five fixed seeds, the tool is run on
the shuffled copies (same file names, in another directory) and its
standard output, standard error and exit status must be byte-identical to
those of the run on the files as they are.  Standard error is compared as
a sorted list of lines without line numbers: scorer2's notes on answer lines
it could not score come in the order of the file, with their line numbers.

Two shuffles are used.  "full": a random permutation of all the lines.
"grouped": the lines of each word (lexelt) are permuted among themselves,
the words keeping the order of their first lines; it is used where a tool documents rows in the order of first
appearance (vmeasure/fscore --per-word, hkappa --per-lexelt, the JSON of
bcubed/nmi/ari), the only
output order that depends on the order of the lines by design.

Usage: shuffle_check.py TOOLDIR SHAREDDATA [--quick] [--only=SECTION]
(SECTION: senseval, wsi, clustering, agreement, wsd-graded or wsd-framework;
default all)
Exit status 0 (all identical), 1 (a difference), 77 (no shared data).
"""

import os
import re
import random
import shutil
import subprocess
import sys
import tempfile
import zlib

SEEDS = (1, 2, 3, 4, 5)


def read_lines(path):
    with open(path, 'rb') as f:
        data = f.read()
    lines = data.splitlines(keepends=True)
    if lines and not lines[-1].endswith(b'\n'):
        lines[-1] += b'\r\n' if lines[0].endswith(b'\r\n') else b'\n'
    return lines


def first_field(line):
    parts = line.split()
    return parts[0] if parts else b''


def shuffled(lines, seed, mode):
    rng = random.Random(seed)
    out = list(lines)
    rng.shuffle(out)
    if mode == 'full':
        return out
    # grouped: each word's lines in a shuffled order, the words in the
    # order of their first lines in the original file
    order = []
    by_word = {}
    for line in lines:
        w = first_field(line)
        if w not in by_word:
            by_word[w] = []
            order.append(w)
    for line in out:
        by_word[first_field(line)].append(line)
    return [line for w in order for line in by_word[w]]


LINE_NOTE = re.compile(rb' \(line [0-9]+\)|:[0-9]+:')


def notes(result):
    """The exit status, standard output, and standard error with its notes
    about single lines (scorer2's "Unable to score answer ... (line N)")
    sorted and without their line numbers: they follow the file's order."""
    status, out, err = result
    lines = sorted(LINE_NOTE.sub(b'', line) for line in err.splitlines())
    return status, out, lines


class Checker:
    def __init__(self, tooldir, quick):
        self.tooldir = os.path.abspath(tooldir)
        self.quick = quick
        self.failures = 0
        self.runs = 0
        self.tmp = tempfile.mkdtemp(prefix='tageval-shuffle.')

    def run(self, cwd, tool, args):
        r = subprocess.run([os.path.join(self.tooldir, tool)] + args, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, LC_ALL='C'))
        self.runs += 1
        return r.returncode, r.stdout, r.stderr

    def check(self, name, tool, args, files, mode='full', seeds=SEEDS):
        """files: {name in the command line: real path}; args use those names."""
        base = os.path.join(self.tmp, 'orig')
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        for short, path in files.items():
            os.makedirs(os.path.dirname(os.path.join(base, short)) or base, exist_ok=True)
            shutil.copyfile(path, os.path.join(base, short))
        want = self.run(base, tool, args)
        if want[0] != 0:
            print('FAIL %s: exit status %d on the files as they are: %s' %
                  (name, want[0], want[2].decode(errors='replace')))
            self.failures += 1
            return
        for seed in (seeds[:1] if self.quick else seeds):
            d = os.path.join(self.tmp, 'shuf')
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            for i, (short, path) in enumerate(sorted(files.items())):
                dest = os.path.join(d, short)
                os.makedirs(os.path.dirname(dest) or d, exist_ok=True)
                m = mode(short) if callable(mode) else mode
                lines = shuffled(read_lines(path), seed * 1000 + i, m)
                with open(dest, 'wb') as f:
                    f.writelines(lines)
            got = self.run(d, tool, args)
            if notes(got) != notes(want):
                self.failures += 1
                print('FAIL %s (seed %d): output differs' % (name, seed))
                w, g = notes(want), notes(got)
                for label, al, bl in (('stdout', w[1].splitlines(), g[1].splitlines()),
                                      ('stderr', w[2], g[2])):
                    for x, y in zip(al, bl):
                        if x != y:
                            print('  %s: %r\n  %s  %r' % (label, x[:300], ' ' * len(label), y[:300]))
                            break
                    if len(al) != len(bl):
                        print('  %s: %d lines instead of %d' % (label, len(bl), len(al)))
                if got[0] != want[0]:
                    print('  exit status %d instead of %d' % (got[0], want[0]))
                return

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def senseval(c, shared):
    root = os.path.join(shared, 'senseval', 'senseval3_englishls')
    key = os.path.join(root, 'EnglishLS.test.key')
    smap = os.path.join(root, 'EnglishLS.sensemap')
    train = os.path.join(root, 'EnglishLS.train.key')
    sysdir = os.path.join(root, 'systems_cs4740')
    systems = sorted(f for f in os.listdir(sysdir) if os.path.isfile(os.path.join(sysdir, f)))
    policies = [[], ['-g', 'coarse'], ['-g', 'mixed'], ['-m'], ['-g', 'mixed', '-m'],
                ['--conjunctive'], ['-g', 'coarse', '--conjunctive']]
    for s in systems:
        files = {'answers': os.path.join(sysdir, s), 'key': key, 'map': smap}
        for p in policies:
            extra = ['map'] if '-g' in p else []
            c.check('scorer2 %s %s' % (' '.join(p) or 'fine', s), 'scorer2',
                    p + ['--format=json', 'answers', 'key'] + extra, files)
    files = {'key': key, 'map': smap, 'train': train}
    names = []
    for i, s in enumerate(systems):
        files['sys%d' % i] = os.path.join(sysdir, s)
        names.append('%s=sys%d' % (s, i))
    for fmt in ('json', 'csv'):
        c.check('wsd-report --format=%s' % fmt, 'wsd-report',
                ['--format=' + fmt, '-s', 'map', '-t', 'train', 'key'] + names, files)
    # the significance tests draw over the items in the order of their ids
    c.check('wsd-report --significance', 'wsd-report',
            ['--format=json', '--significance', '--baseline=commonest', '--samples=300',
             '-s', 'map', '-t', 'train', 'key'] + names, files)


def wsd_framework(c, shared):
    """wsd-score on the unified framework's ALL and the LMMS and BEM answers:
    the figures, and --compare with its p-values (the draws follow the
    instances in the order of their ids)."""
    root = os.path.join(shared, 'wsd-framework')
    files = {'gold': os.path.join(root, 'Evaluation_Datasets', 'ALL', 'ALL.gold.key.txt'),
             'lmms': os.path.join(root, 'systems', 'lmms.ALL.key'),
             'bem': os.path.join(root, 'systems', 'bem.ALL.key')}
    c.check('wsd-score --format=json bem', 'wsd-score',
            ['--format=json', 'gold', 'bem'], files)
    c.check('wsd-score --compare --baseline', 'wsd-score',
            ['--compare', '--format=json', '--samples=300', '--baseline=LMMS', 'gold',
             'LMMS=lmms', 'BEM=bem'], files)


def wsi(c, shared):
    root = os.path.join(shared, 'wsi', 'semeval2010')
    gold = os.path.join(root, 'keys', 'all.key')
    outputs = []
    for sub in ('systems', 'baselines'):
        d = os.path.join(root, sub)
        outputs += [os.path.join(d, f) for f in sorted(os.listdir(d))
                    if f != 'filesToSystemsMap']
    for path in outputs:
        name = os.path.basename(path)
        files = {'clusters': path, 'gold': gold}
        for tool in ('vmeasure', 'fscore'):
            c.check('%s %s' % (tool, name), tool,
                    ['--format=json', 'clusters', 'gold'], files)
            # per-word rows follow the gold key's first lines: grouped shuffle
            c.check('%s --per-word %s' % (tool, name), tool,
                    ['--format=json', '--per-word', 'clusters', 'gold'], files,
                    mode=lambda short: 'grouped' if short == 'gold' else 'full')
        c.check('wsi-supervised --folds=5 %s' % name, 'wsi-supervised',
                ['--format=json', '--folds=5', 'clusters', 'gold'], files)
        c.check('wsi-supervised --splits=3 %s' % name, 'wsi-supervised',
                ['--format=json', '--splits=3', '--seed=7', 'clusters', 'gold'], files)
    # the official splits, with one system and one baseline
    sup = os.path.join(root, 'sup_eval')
    for path in (outputs[0], os.path.join(root, 'baselines', 'random1.key')):
        for ratio in ('80_20', '60_40'):
            files = {'clusters': path, 'gold': gold}
            args = ['--format=json']
            for i in range(1, 6):
                files['m%d' % i] = os.path.join(sup, ratio, 'all', 'mapping.%d.key' % i)
                files['t%d' % i] = os.path.join(sup, ratio, 'all', 'test.%d.key' % i)
                args.append('--split=m%d:t%d' % (i, i))
            c.check('wsi-supervised %s %s' % (ratio, os.path.basename(path)),
                    'wsi-supervised', args + ['clusters', 'gold'], files)


def clustering(c, name, files):
    """bcubed, nmi (its default normalizer: arithmetic on crisp input, max on
    graded) and ari on one system output.  Text without --per-word shows the
    totals only: a full shuffle of both files.  JSON has the per-word
    figures, in the order of the words' first gold lines: grouped gold."""
    for tool in ('bcubed', 'nmi', 'ari'):
        c.check('%s %s' % (tool, name), tool, ['clusters', 'gold'], files)
        c.check('%s --format=json %s' % (tool, name), tool,
                ['--format=json', 'clusters', 'gold'], files,
                mode=lambda short: 'grouped' if short == 'gold' else 'full')


def wsi_clustering(c, shared):
    # SemEval-2010 (crisp: one bare label per line)
    root = os.path.join(shared, 'wsi', 'semeval2010')
    gold = os.path.join(root, 'keys', 'all.key')
    for sub in ('systems', 'baselines'):
        d = os.path.join(root, sub)
        for f in sorted(os.listdir(d)):
            if f != 'filesToSystemsMap':
                clustering(c, 'semeval2010 ' + f, {'clusters': os.path.join(d, f), 'gold': gold})
    # SemEval-2013 (graded: the fuzzy B-cubed and NMI; ari reads the label
    # of largest weight).  Left out, being errors for every tageval reader:
    # the two UoS keys (lines without a label, "win.v win.v.82") and the two
    # Sapienza system-2 keys (14 repeated instance lines each).
    root = os.path.join(shared, 'wsi', 'semeval2013')
    gold = os.path.join(root, 'gold', 'all.key')
    outputs = []
    for sub in ('systems', 'baselines'):
        for d, dirs, fs in os.walk(os.path.join(root, sub)):
            dirs.sort()
            rel = os.path.relpath(d, root).split(os.sep)
            if rel[:2] == ['systems', 'UoS'] or rel[:3] == ['systems', 'Sapienza', 'system-2']:
                continue
            outputs += [os.path.join(d, f) for f in sorted(fs) if f.endswith('.key')]
    for path in outputs:
        clustering(c, 'semeval2013 ' + os.path.relpath(path, root),
                   {'clusters': path, 'gold': gold})


def agreement(c, shared):
    root = os.path.join(shared, 'agreement', 'wsbest', 'senseval_format')
    anns = sorted(f for f in os.listdir(root) if f.startswith('ann_'))
    files = {a: os.path.join(root, a) for a in anns}
    files['senses_lexfile'] = os.path.join(root, 'senses_lexfile')
    c.check('hkappa wsbest', 'hkappa', ['--format=json'] + anns + ['senses_lexfile'], files)
    c.check('hkappa --flat wsbest', 'hkappa', ['--format=json', '--flat'] + anns,
            {a: files[a] for a in anns})
    # the bootstrap draws index the items sorted by lexelt and instance id
    c.check('hkappa --bootstrap wsbest', 'hkappa',
            ['--format=json', '--bootstrap=200', '--seed=3'] + anns + ['senses_lexfile'], files)
    # every coefficient of --coefficients (sets of tags: several per line)
    c.check('hkappa --coefficients=all --flat wsbest', 'hkappa',
            ['--format=json', '--flat', '--coefficients=all'] + anns,
            {a: files[a] for a in anns})
    # analytic standard errors, specific agreement per label, the items of
    # least agreement (ties by lexelt and instance id, tags by name)
    c.check('hkappa --ci=analytic --per-category --items --flat wsbest', 'hkappa',
            ['--format=json', '--flat', '--coefficients=all', '--ci=analytic',
             '--per-category', '--items=40'] + anns,
            {a: files[a] for a in anns})
    # the figures of --weights (AC2 of all eight; the kappa of two) with
    # their analytic SEs: a distance for every pair of the tags used, from
    # a hash of the two names; the weights file's lines shuffled too
    tags = set()
    for a in anns:
        for line in read_lines(files[a]):
            for f in line.split(b'!!')[0].split()[2:]:
                tags.add(f.rsplit(b'/', 1)[0] if b'/' in f else f)
    tags = sorted(tags)
    weights_path = os.path.join(c.tmp, 'wsbest.weights')
    with open(weights_path, 'wb') as out:
        for i, x in enumerate(tags):
            for y in tags[i + 1:]:
                d = zlib.crc32(x + b' ' + y) % 1000 / 1000.0
                out.write(b'%s %s %.3f\n' % (x, y, d))
    wfiles = {a: files[a] for a in anns}
    wfiles['weights'] = weights_path
    c.check('hkappa --weights --ci=analytic --flat wsbest', 'hkappa',
            ['--format=json', '--flat', '--ci=analytic', '--weights=weights'] + anns, wfiles)
    c.check('hkappa --weights --ci=analytic --flat wsbest, two annotators', 'hkappa',
            ['--format=json', '--flat', '--ci=analytic', '--weights=weights'] + anns[:2],
            {a: wfiles[a] for a in anns[:2] + ['weights']})
    # the long form (--long): the eight files in one, the annotators' lines
    # interleaved by the shuffle; the annotators are numbered in the order
    # of their names, whatever the order of the lines
    long_path = os.path.join(c.tmp, 'wsbest.long')
    with open(long_path, 'wb') as out:
        for a in anns:
            for line in read_lines(files[a]):
                f = line.split()
                if len(f) >= 3:
                    out.write(b' '.join([f[0] + b':' + f[1], a.encode()] + f[2:]) + b'\n')
    c.check('hkappa --long wsbest', 'hkappa',
            ['--format=json', '--flat', '--coefficients=all', '--ci=analytic',
             '--per-category', '--items=40', '--pairs', '--leave-one-out',
             '--long=wsbest.long'],
            {'wsbest.long': long_path})
    c.check('hkappa --per-lexelt wsbest', 'hkappa',
            ['--format=json', '--per-lexelt'] + anns + ['senses_lexfile'], files,
            mode=lambda short: 'grouped' if short.startswith('ann_') else 'full')
    s3 = os.path.join(shared, 'agreement', 'senseval3_englishls')
    files = {'gold': os.path.join(s3, 'EnglishLS.test.key'),
             'sys': os.path.join(s3, 'system_baseline_responses.txt'),
             'map': os.path.join(s3, 'EnglishLS.sensemap')}
    c.check('hkappa senseval3', 'hkappa', ['--format=json', 'gold', 'sys', 'map'], files)
    c.check('hkappa --bootstrap senseval3', 'hkappa',
            ['--format=json', '--bootstrap=200', '--seed=11', 'gold', 'sys', 'map'], files)
    c.check('hkappa --coefficients=all --flat senseval3', 'hkappa',
            ['--format=json', '--flat', '--coefficients=all', 'gold', 'sys'],
            {'gold': files['gold'], 'sys': files['sys']})
    c.check('hkappa --level-of-hierarchy=coarse --ci=analytic senseval3', 'hkappa',
            ['--format=json', '--level-of-hierarchy=coarse', '--coefficients=all',
             '--ci=analytic', '--per-category', '--items=40', 'gold', 'sys', 'map'], files)
    c.check('hkappa --bootstrap --flat senseval3', 'hkappa',
            ['--bootstrap=100', '--seed=0', '--confidence=0.9', '--flat', 'gold', 'sys'],
            {'gold': files['gold'], 'sys': files['sys']})


def wsd_graded(c, shared):
    """wsd-graded on the SemEval-2013 Task 13 data (wsd-graded(1), ORDER).
    With remapping the official folds follow the gold key's instance order
    by definition: only the system file is shuffled (the gold key is named
    by its absolute path, so it is not copied).  With --no-remapping, and
    with --seed (folds from the ids in byte order), both files are
    shuffled; --per-word rows follow the gold key's words (grouped)."""
    root = os.path.join(shared, 'wsi', 'semeval2013')
    gold = os.path.join(root, 'gold', 'all.key')
    outputs = []
    d = os.path.join(root, 'baselines')
    outputs += [os.path.join(d, f) for f in sorted(os.listdir(d))]
    sysroot = os.path.join(root, 'systems')
    for team in sorted(os.listdir(sysroot)):
        if team == 'UoS':
            continue  # lines without a label: an error, nothing to compare
        for dirpath, _, names in sorted(os.walk(os.path.join(sysroot, team))):
            if dirpath.endswith(os.path.join('Sapienza', 'system-2')):
                continue  # an instance answered twice: an error too
            outputs += [os.path.join(dirpath, f) for f in sorted(names)]
    for path in outputs:
        name = os.path.relpath(path, root)
        c.check('wsd-graded %s' % name, 'wsd-graded',
                ['--format=json', 'system', gold], {'system': path})
        files = {'system': path, 'gold': gold}
        c.check('wsd-graded --no-remapping %s' % name, 'wsd-graded',
                ['--format=json', '--no-remapping', 'system', 'gold'], files)
        c.check('wsd-graded --no-remapping --per-word %s' % name, 'wsd-graded',
                ['--format=json', '--no-remapping', '--per-word', 'system', 'gold'], files,
                mode=lambda short: 'grouped' if short == 'gold' else 'full')
        c.check('wsd-graded --seed=7 %s' % name, 'wsd-graded',
                ['--format=json', '--seed=7', 'system', 'gold'], files)


def main():
    args = [a for a in sys.argv[1:] if a != '--quick' and not a.startswith('--only=')]
    quick = '--quick' in sys.argv[1:]
    only = ([a[7:] for a in sys.argv[1:] if a.startswith('--only=')] or [None])[-1]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    tooldir, shared = args
    if not os.path.isdir(os.path.join(shared, 'senseval')):
        print('SKIP: no shared data at %s' % shared)
        return 77
    c = Checker(tooldir, quick)
    try:
        if not only or only == 'senseval':
            senseval(c, shared)
        if not only or only == 'wsi':
            wsi(c, shared)
        if not only or only == 'clustering':
            wsi_clustering(c, shared)
        if not only or only == 'agreement':
            agreement(c, shared)
        if not only or only == 'wsd-graded':
            wsd_graded(c, shared)
        if not only or only == 'wsd-framework':
            wsd_framework(c, shared)
    finally:
        c.close()
    print('%d runs, %d differences' % (c.runs, c.failures))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
