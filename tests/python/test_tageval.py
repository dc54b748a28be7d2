#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python module's tests (Meson suite python).

Usage: test_tageval.py BUILD_TOOLS_DIR SOURCE_ROOT

Run with the built package on PYTHONPATH (python/tageval's meson.build sets
it).  Exit 77 (skipped) when the module cannot be imported.  Checks:
- tageval.wsi(), clustering(), supervised(), agreement() and score() equal
  what vmeasure, bcubed/nmi/ari, wsi-supervised, hkappa and scorer2 print
  with --format json, on data/ samples and, when ../shared/data exists, on
  real SemEval-2010, WSbest and Senseval-3 files;
- FormatError carries the file, line and message the tools print;
- tageval.metrics equal scikit-learn's to 1e-12 (skipped without sklearn),
  the agreement metrics NLTK's on the WSbest data (skipped without nltk
  or ../shared/data), hierarchical_kappa hkappa's pooled figures;
- no reference-count or memory growth over 10,000 calls.
"""

import gc
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import tracemalloc

try:
    import tageval
    import tageval.metrics as tm
except ImportError as e:
    print("skip: the tageval module cannot be imported: %s" % e)
    sys.exit(77)

try:
    import sklearn.metrics as skm
except ImportError:
    skm = None
try:
    import numpy
except ImportError:
    numpy = None

TOOLS, SRC = sys.argv[1], sys.argv[2]
DATA = os.path.join(SRC, "data")
SHARED = os.path.join(SRC, "..", "shared", "data")
failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL: %s" % what)


def tool_json(tool, *args):
    out = subprocess.run([os.path.join(TOOLS, tool), "--format", "json"] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    return json.loads(out.stdout)


def tool_error(tool, *args):
    """The tool's error line "tool: file:line: message" and its status."""
    out = subprocess.run([os.path.join(TOOLS, tool), "--format", "json"] + list(args),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return out.stderr.decode().strip().splitlines()[-1], out.returncode


def same_wsi(clusters, gold, per_word=False, pos=None, beta=None):
    args = []
    kw = {}
    if per_word:
        args.append("--per-word")
        kw["per_word"] = True
    if pos:
        args.append("--pos=" + pos)
        kw["pos"] = pos
    if beta is not None:
        args.append("--beta=%r" % beta)
        kw["beta"] = beta
    want = tool_json("vmeasure", *(args + [clusters, gold]))
    got = tageval.wsi(clusters, gold, **kw)
    # equal as Python values: every float read back from the tool's shortest
    # digits is the library's double (3 == 3.0 for a whole number)
    check(got == want, "wsi(%s, %s, %s) == vmeasure: %s != %s" % (clusters, gold, kw, got, want))


def same_clustering(tool, clusters, gold, args=(), **kw):
    want = tool_json(tool, *(list(args) + [clusters, gold]))
    got = tageval.clustering(clusters, gold, **kw)
    check(got == want, "clustering(%s, %s, %s) == %s %s: %s != %s"
          % (clusters, gold, kw, tool, args, got, want))


def same_score(answers, key, sensemap=None, granularity="fine", **kw):
    args = ["--granularity=" + granularity]
    if kw.get("minimal"):
        args.append("--minimal")
    if kw.get("conjunctive"):
        args.append("--conjunctive")
    if kw.get("instances"):
        args.append("--instances=" + kw["instances"])
    if kw.get("tags"):
        args.append("--tags=" + kw["tags"])
    want = tool_json("scorer2", *(args + [answers, key] + ([sensemap] if sensemap else [])))
    got = tageval.score(answers, key, sensemap, granularity, **kw)
    check(got == want, "score(%s, %s, %s, %s, %s) == scorer2: %s != %s"
          % (answers, key, sensemap, granularity, kw, got, want))


def d(name):
    return os.path.join(DATA, name)


# ---------------------------------------------------- file level = the tools

for c, g in [("wsi-clusters.key", "wsi-gold.key"), ("crisp-clusters.key", "crisp-gold.key"),
             ("fuzzy-clusters.key", "fuzzy-gold.key"), ("sup-clusters.key", "sup-gold.key")]:
    same_wsi(d(c), d(g))
    same_wsi(d(c), d(g), per_word=True)
    same_wsi(d(c), d(g), per_word=True, beta=0.5)
same_wsi(d("wsi-clusters.key"), d("wsi-gold.key"), per_word=True, pos="n")

# the clustering tools: bcubed, nmi and ari print the same JSON for the same
# --metrics; ari reads every file as crisp
for c, g in [("crisp-clusters.key", "crisp-gold.key"), ("wsi-clusters.key", "wsi-gold.key"),
             ("fuzzy-clusters.key", "fuzzy-gold.key"), ("sup-clusters.key", "sup-gold.key")]:
    same_clustering("bcubed", d(c), d(g), metrics="bcubed")
    same_clustering("nmi", d(c), d(g), metrics="nmi")
    same_clustering("nmi", d(c), d(g), ["--normalizer=geometric"], metrics="nmi",
                    normalizer="geometric")
    same_clustering("bcubed", d(c), d(g), ["--metrics=bcubed,nmi", "--pos=n"],
                    metrics=["bcubed", "nmi"], pos="n")
    same_clustering("ari", d(c), d(g), metrics="ari", mode="crisp")
    same_clustering("ari", d(c), d(g), ["--metrics=all"], mode="crisp")
try:
    tageval.clustering(d("fuzzy-clusters.key"), d("fuzzy-gold.key"))
    check(False, "ARI of fuzzy input raises")
except ValueError:
    pass

for a, k, m in [("sampletask.answers", "sampletask.key", "sampletask.sensemap"),
                ("doc-table.answers", "doc-table.key", "doc-table.sensemap"),
                ("melamed-resnik.answers", "melamed-resnik.key", "melamed-resnik.sensemap"),
                ("report-s1.answers", "report.key", "report.sensemap")]:
    for gran in ("fine", "coarse", "mixed"):
        same_score(d(a), d(k), d(m), gran)
    same_score(d(a), d(k), minimal=True)
same_score(d("conjunctive-table.answers"), d("conjunctive-table.key"), conjunctive=True)
same_score(d("unscorable.answers"), d("unscorable.key"))
same_score(d("report-s2.answers"), d("report.key"), instances=d("report-subset.list"))

# a path-like object and bytes name the same file
import pathlib  # noqa: E402
check(tageval.wsi(pathlib.Path(d("wsi-clusters.key")), os.fsencode(d("wsi-gold.key")))
      == tageval.wsi(d("wsi-clusters.key"), d("wsi-gold.key")), "wsi() takes path-likes")

# the real data, when it is there
semeval = os.path.join(SHARED, "wsi", "semeval2010")
if os.path.isdir(semeval):
    gold = os.path.join(semeval, "keys", "all.key")
    systems = sorted(os.path.join(semeval, "systems", f)
                     for f in os.listdir(os.path.join(semeval, "systems"))
                     if f != "filesToSystemsMap")[:3]
    for s in systems + [os.path.join(semeval, "baselines", "random1.key"),
                        os.path.join(semeval, "baselines", "mfs_all.key")]:
        same_wsi(s, gold, per_word=True)
    same_wsi(systems[0], gold, pos="v")
    for s in systems[:2]:
        same_clustering("ari", s, gold, ["--metrics=all"], mode="crisp")
sem13 = os.path.join(SHARED, "wsi", "semeval2013")
if os.path.isdir(sem13):
    same_clustering("bcubed", os.path.join(sem13, "baselines", "random.3-senses.induced.key"),
                    os.path.join(sem13, "gold", "all.key"), ["--metrics=bcubed,nmi"],
                    metrics="bcubed,nmi")
else:
    print("note: no ../shared/data: the real-data comparisons are skipped")
senseval = os.path.join(SHARED, "senseval", "senseval3_englishls")
if os.path.isdir(senseval):
    key = os.path.join(senseval, "EnglishLS.test.key")
    smap = os.path.join(senseval, "EnglishLS.sensemap")
    answers = os.path.join(senseval, "systems_cs4740", "answers.txt")
    if os.path.exists(answers):
        for gran in ("fine", "coarse", "mixed"):
            same_score(answers, key, smap, gran)

# ------------------------------------------------------------------ errors

with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "bad.key")
    with open(bad, "w") as f:
        f.write("w.n w.n.1 s1\nw.n w.n.2\n")  # line 2: no label
    line, status = tool_error("vmeasure", bad, d("wsi-gold.key"))
    try:
        tageval.wsi(d("wsi-clusters.key"), bad)
        check(False, "wsi() on a bad gold key raises")
    except tageval.FormatError as e:
        check(isinstance(e, ValueError), "FormatError is a ValueError")
        check(e.file == bad and e.line == 2, "FormatError file, line: %r %r" % (e.file, e.line))
        # the tool prints "vmeasure: FILE:LINE: MESSAGE", status 1
        check(status == 1 and line == "vmeasure: %s:2: %s" % (bad, e.message),
              "FormatError message %r as the tool's %r" % (e.message, line))
        check(str(e) == "%s:2: %s" % (bad, e.message), "str(FormatError): %s" % e)
    try:
        tageval.score(os.path.join(tmp, "missing"), d("sampletask.key"))
        check(False, "score() on a missing file raises")
    except OSError as e:
        check(os.path.join(tmp, "missing") in str(e), "OSError names the file: %s" % e)
    # scorer2's errors too: a weight that is not a number, on line 3
    badans = os.path.join(tmp, "bad.answers")
    with open(badans, "w") as f:
        f.write("art art.1 art%1:06:00::\nart art.2 art%1:06:00::\nart art.3 art%1:04:00::/x\n")
    line, status = tool_error("scorer2", badans, d("sampletask.key"))
    try:
        tageval.score(badans, d("sampletask.key"))
        check(False, "score() on a bad weight raises")
    except tageval.FormatError as e:
        check(status == 1 and e.file == badans and e.line == 3
              and line == "scorer2: %s:3: %s" % (badans, e.message),
              "score()'s FormatError %r %r %r as the tool's %r" % (e.file, e.line, e.message, line))
# coarse without a sense map: fine-grained with a warning, as scorer2 (which
# says so on standard error and prints "granularity":"fine")
import warnings  # noqa: E402
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = tageval.score(d("sampletask.answers"), d("sampletask.key"), granularity="coarse")
check(len(caught) == 1 and got == tool_json("scorer2", "--granularity=coarse",
                                            d("sampletask.answers"), d("sampletask.key")),
      "coarse without a sense map: %r" % got)
try:
    tageval.score(d("sampletask.answers"), d("sampletask.key"), granularity="medium")
    check(False, "an invalid granularity raises")
except ValueError:
    pass
try:
    tm.v_measure([1, 2], [1])
    check(False, "labellings of different lengths raise")
except ValueError:
    pass

# ------------------------------------------------ metrics: hand computations

# classes {0,1} x {2,3}; clusters {0,1} {2} {3}: H(C|K) = 0 so h = 1;
# H(K) = -(1/2 ln 1/2 + 2 * 1/4 ln 1/4) = 1.5 ln 2, H(K|C) = 1/2 ln 2,
# c = 1 - 1/3 = 2/3, V = 2 * 1 * 2/3 / (1 + 2/3) = 0.8
h, c, v = tm.homogeneity_completeness_v_measure([0, 0, 1, 1], [0, 0, 1, 2])
check(h == 1.0 and abs(c - 2 / 3) < 1e-15 and abs(v - 0.8) < 1e-15, "h, c, v = %r" % ((h, c, v),))
# beta = 2: (1 + 2) * 1 * 2/3 / (2 * 1 + 2/3) = 2 / (8/3) = 0.75
check(abs(tm.v_measure([0, 0, 1, 1], [0, 0, 1, 2], beta=2) - 0.75) < 1e-15, "V with beta 2")
# B-cubed: items 0, 1 have P = R = 1; items 2, 3: P = 1, R = 1/2:
# P = 1, R = 3/4, F = 2 * 3/4 / (7/4) = 6/7
p, r, f = tm.bcubed(["a", "a", "b", "b"], [(1,), (1,), None, 2.5])
check((p, r) == (1.0, 0.75) and abs(f - 6 / 7) < 1e-15, "bcubed %r" % ((p, r, f),))
# any hashable labels: the same figures as small integers
check(tm.clustering_figures(["x", "x", "y", "y"], [None, None, "q", (1, 2)])
      == tm.clustering_figures([0, 0, 1, 1], [0, 0, 1, 2]), "labels of any hashable type")

# agreement of flat labels.  Two annotators, 6 items, agreeing on 4:
# p_o = 2/3; Cohen: p_e = (3*2 + 2*2 + 1*2) / 36 = 1/3, kappa = 1/2; pooled
# (Fleiss = Scott): x 5, y 4, z 3 of 12, p_e = 50/144, kappa = 46/94 = 23/47;
# Krippendorff nominal: 4 ordered mismatching pairs, expected
# 12^2 - 50 = 94, alpha = 1 - 11 * 4 / 94 = 25/47
a = ["x", "y", "x", "x", "z", "y"]
b = ["x", "y", "y", "x", "z", "z"]
check(abs(tm.cohen_kappa(a, b) - 0.5) < 1e-15, "Cohen's kappa %r" % tm.cohen_kappa(a, b))
check(abs(tm.fleiss_kappa([a, b]) - 23 / 47) < 1e-15, "Fleiss %r" % tm.fleiss_kappa([a, b]))
check(abs(tm.krippendorff_alpha([a, b]) - 25 / 47) < 1e-15, "alpha %r" % tm.krippendorff_alpha([a, b]))
# Three annotators, 4 items (x,x,x) (x,x,y) (y,y,y) (x,y,z): item agreement
# 1, 1/3, 1, 0, mean 7/12; pooled x 6, y 5, z 1 of 12: p_e = 62/144 = 31/72;
# Fleiss' kappa (7/12 - 31/72) / (41/72) = 11/41
k = tm.fleiss_kappa([["x", "x", "y", "x"], ["x", "x", "y", "y"], ["x", "y", "y", "z"]])
check(abs(k - 11 / 41) < 1e-15, "Fleiss, 3 annotators: %r" % k)
# Missing values: units {x,x}, {x,y,y}, {y,y}: coincidences o_xx 2, o_xy = o_yx
# 2 / (3 - 1) = 1, o_yy 1 + 2; n_x 3, n_y 4, n 7: alpha = 1 - 6 * 2 / (2 * 3 * 4) = 1/2
k = tm.krippendorff_alpha([["x", "x", None], ["x", "y", "y"], [None, "y", "y"]])
check(abs(k - 0.5) < 1e-15, "alpha with missing values: %r" % k)
try:
    tm.fleiss_kappa([["x", None], ["x", "y"]])
    check(False, "fleiss_kappa with a missing label raises")
except ValueError:
    pass

# -------------------------------------------- metrics = scikit-learn's

def close(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12


def compare_sklearn(t, p, what, ami=True):
    ours = tm.homogeneity_completeness_v_measure(t, p)
    theirs = skm.homogeneity_completeness_v_measure(t, p)
    check(all(close(a, b) for a, b in zip(ours, theirs)), "%s: h, c, v %r != sklearn's %r"
          % (what, ours, theirs))
    check(close(tm.v_measure(t, p, beta=0.5), skm.v_measure_score(t, p, beta=0.5)),
          "%s: V beta 0.5" % what)
    for name in ("adjusted_rand_score", "rand_score", "fowlkes_mallows_score"):
        a, b = getattr(tm, name)(t, p), getattr(skm, name)(t, p)
        check(close(a, b), "%s: %s %r != sklearn's %r" % (what, name, a, b))
    one_side = len(set(t)) == 1 or len(set(p)) == 1
    for m in tm.mutual_info_normalizers:
        a = tm.normalized_mutual_info_score(t, p, average_method=m)
        b = skm.normalized_mutual_info_score(t, p, average_method=m)
        check(close(a, b), "%s: NMI(%s) %r != sklearn's %r" % (what, m, a, b))
        if not ami:
            continue
        a = tm.adjusted_mutual_info_score(t, p, average_method=m)
        b = skm.adjusted_mutual_info_score(t, p, average_method=m)
        if math.isnan(a):
            # the library's one departure (tageval.h): AMI is NaN where its
            # denominator mean(H(C), H(K)) - EMI is 0 (one side a single
            # label, the geometric or min mean 0) and the labellings differ,
            # where sklearn divides 0 by its epsilon and returns 0
            check(one_side and m in ("geometric", "min") and b == 0.0,
                  "%s: AMI(%s) NaN, sklearn's %r" % (what, m, b))
        else:
            # AMI = (MI - EMI) / (mean - EMI) cancels: on random labellings
            # both sides' rounding reaches 1e-12 (see the exact case below)
            check(abs(a - b) <= 1e-11, "%s: AMI(%s) %r != sklearn's %r" % (what, m, a, b))


if skm is not None:
    rng = random.Random(16)
    for n, kt, kp in [(1, 1, 1), (2, 1, 2), (10, 3, 4), (100, 5, 20), (1000, 10, 10),
                      (5000, 40, 300), (300, 300, 1), (600, 10 ** 6, 10 ** 6),
                      (3000, 10 ** 6, 30)]:
        # The last two take the sparse route: their dense tables would have
        # more than 2n + 65536 cells (about 600 x 600 = 360000 > 66736, about
        # 2996 x 30 = 89880 > 71536); the others the dense one.  Their AMI is
        # ill-conditioned (MI and EMI close, mean - EMI small): checked with
        # mpmath at 40 digits, sklearn's is 5.5e-9 off at (3000, ..., 30)
        # with average_method="min" and 1.6e-6 off with 2000 distinct
        # labels a side (the exact AMI -1.7e-33), the library's 9.2e-10 and
        # 5.7e-9 off: no common tolerance, AMI is left out there.
        t = [rng.randrange(kt) for _ in range(n)]
        p = ["c%d" % rng.randrange(kp) for _ in range(n)]
        compare_sklearn(t, p, "random n=%d" % n, ami=kt < 10 ** 6)
        if kp > 1 and n > 1 and kt < 10 ** 6:
            # Cohen's kappa of the two labellings as two annotators' labels
            tt = ["c%d" % x for x in t]
            a, b = tm.cohen_kappa(tt, p), skm.cohen_kappa_score(tt, p)
            check(close(a, b), "random n=%d: Cohen's kappa %r != sklearn's %r" % (n, a, b))
        if numpy is not None:
            compare_sklearn(numpy.array(t), numpy.array(p), "numpy n=%d" % n, ami=kt < 10 ** 6)
    # The case above where the two differ most: n = 5000, 40 classes, 300
    # clusters (the 6th draw of Random(16)).  Its AMI computed with mpmath at
    # 40 digits (the EMI summed over every pair of sizes and every n_ij, log
    # factorials by loggamma): -1.6489130409864290774e-4; the library's is
    # within 1e-12 of it (5.6e-13 off), sklearn 1.2's 1.7e-12 off.
    rng = random.Random(16)
    for n, kt, kp in [(1, 1, 1), (2, 1, 2), (10, 3, 4), (100, 5, 20), (1000, 10, 10),
                      (5000, 40, 300)]:
        t = [rng.randrange(kt) for _ in range(n)]
        p = ["c%d" % rng.randrange(kp) for _ in range(n)]
    a = tm.adjusted_mutual_info_score(t, p)
    check(abs(a - -1.6489130409864290774e-4) <= 1e-12, "AMI %r, exactly -1.64891304098643e-4" % a)

    # every word of SemEval-2010: the gold key's and a system's first labels
    if os.path.isdir(semeval):
        def first_labels(path):
            lab = {}
            with open(path) as f:
                for line in f:
                    w = line.split()
                    if len(w) >= 3:
                        lab[(w[0], w[1])] = w[2].split("/")[0]
            return lab
        g = first_labels(gold)
        s = first_labels(systems[0])
        words = {}
        for (w, i), lab in g.items():
            # unanswered instances form one extra cluster (SemEval-2010)
            words.setdefault(w, ([], []))
            words[w][0].append(lab)
            words[w][1].append(s.get((w, i), "\0unanswered"))
        per_word = tageval.wsi(systems[0], gold, per_word=True)["per_word"]
        for w, (t, p) in sorted(words.items())[:40]:
            compare_sklearn(t, p, "SemEval-2010 %s" % w)
            check(close(tm.v_measure(t, p), per_word[w]["v_measure"]),
                  "SemEval-2010 %s: metrics.v_measure = wsi()'s" % w)
else:
    print("note: no sklearn: the comparisons with scikit-learn are skipped")

# ------------------------------------- supervised() = wsi-supervised

def same_supervised(clusters, gold, args=(), **kw):
    want = tool_json("wsi-supervised", *(list(args) + [clusters, gold]))
    got = tageval.supervised(clusters, gold, **kw)
    check(got == want, "supervised(%s, %s, %s) == wsi-supervised %s: %s != %s"
          % (clusters, gold, kw, args, got, want))
    return got


sup = same_supervised(d("sup-clusters.key"), d("sup-gold.key"))
check(sup["method"] == "folds" and sup["seed"] == 1 and len(sup["splits"]) == 5,
      "supervised(): 5 folds, seed 1 by default: %r" % sup)
same_supervised(d("sup-clusters.key"), d("sup-gold.key"), ["--folds=3", "--seed=7"],
                folds=3, seed=7)
same_supervised(d("sup-clusters.key"), d("sup-gold.key"), ["--splits=4", "--test-fraction=0.3",
                                                            "--seed=2"],
                splits=4, test_fraction=0.3, seed=2)
same_supervised(d("sup-clusters.key"), d("sup-gold.key"), ["--splits=1"], splits=1)
one = same_supervised(d("sup-clusters.key"), d("sup-gold.key"),
                      ["--split=%s:%s" % (d("sup-mapping.key"), d("sup-test.key"))],
                      splits=[(d("sup-mapping.key"), d("sup-test.key"))])
# a single split: no sample variance, explained as the tool does
check(one["variance"] is None and one["stddev"] is None
      and set(one["undefined"]) == {"variance", "stddev"}, "one split: %r" % one)
same_supervised(d("wsi-clusters.key"), d("wsi-gold.key"), ["--pos=n", "--folds=2"],
                pos="n", folds=2)
for bad in [dict(folds=1), dict(folds=3, splits=2), dict(splits=0),
            dict(splits=3, test_fraction=1.0), dict(test_fraction=0.5), dict(seed=2 ** 32),
            dict(splits=[(d("sup-mapping.key"),)])]:
    try:
        tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), **bad)
        check(False, "supervised(%r) raises" % bad)
    except ValueError:
        pass
# the library's errors as the tool's: more folds than instances
line, status = tool_error("wsi-supervised", "--folds=1000", d("sup-clusters.key"),
                          d("sup-gold.key"))
try:
    tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), folds=1000)
    check(False, "supervised(folds=1000) raises")
except tageval.FormatError as e:
    check(status == 1 and line == "wsi-supervised: " + str(e),
          "supervised()'s FormatError %r as the tool's %r" % (str(e), line))
if os.path.isdir(semeval):
    s = systems[0]
    same_supervised(s, gold)
    same_supervised(s, gold, ["--splits=3", "--seed=5"], splits=3, seed=5)
    for split in ("80_20", "60_40"):
        folder = os.path.join(semeval, "sup_eval", split)
        same_supervised(s, gold, ["--splits=" + folder], splits=folder)
        same_supervised(s, gold, ["--splits=" + folder, "--pos=v"], splits=folder, pos="v")
    folder = os.path.join(semeval, "sup_eval", "80_20", "all")
    same_supervised(s, gold, ["--split=%s:%s" % (os.path.join(folder, "mapping.%d.key" % i),
                                                  os.path.join(folder, "test.%d.key" % i))
                              for i in (2, 1)],
                    splits=[(os.path.join(folder, "mapping.%d.key" % i),
                             os.path.join(folder, "test.%d.key" % i)) for i in (2, 1)])

# ------------------------------------------ agreement() = hkappa

def same_agreement(files, senses=None, args=(), **kw):
    cmd = list(args) + list(files) + ([senses] if senses else ["--flat"])
    want = tool_json("hkappa", *cmd)
    got = tageval.agreement(files, senses, **kw)
    check(got == want, "agreement(%s, %s, %s) == hkappa %s: %s != %s"
          % (files, senses, kw, args, got, want))
    return got


ann3 = [d("agreement-ann1"), d("agreement-ann2"), d("agreement-ann3")]
same_agreement(ann3[:2], d("agreement.senses"))
same_agreement(ann3, d("agreement.senses"), ["--per-lexelt"], per_lexelt=True)
same_agreement(ann3, d("agreement.sensemap"), ["--coefficients=all", "--pairs",
                                               "--leave-one-out"],
               coefficients="all", pairs=True, leave_one_out=True)
same_agreement(ann3, None, ["--coefficients=gwet_ac1,alpha_masi", "--categories=9"],
               coefficients=["gwet_ac1", "alpha_masi"], categories=9)
same_agreement(ann3[:2], d("agreement.senses"), ["--distance=jaccard"], distance="jaccard")
same_agreement(ann3, d("agreement.senses"), ["--bootstrap=200", "--seed=3",
                                             "--confidence=0.9"],
               bootstrap=200, seed=3, confidence=0.9)
same_agreement([d("agreement-lex-ann1"), d("agreement-lex-ann2")], d("agreement-lex.senses"),
               ["--per-lexelt", "--downward=" + d("agreement-ann3"), "--smoothing=0.5"],
               per_lexelt=True, downward=d("agreement-ann3"), smoothing=0.5)
for bad in [dict(coefficients="gwet"), dict(distance="cosine"), dict(categories=1),
            dict(leave_one_out=True), dict(confidence=1.0)]:
    try:
        tageval.agreement(ann3[:2], d("agreement.senses"), **bad)
        check(False, "agreement(%r) raises" % bad)
    except ValueError:
        pass
with tempfile.TemporaryDirectory() as tmp:
    # hkappa's errors: a line without a tag (line 2)
    bad = os.path.join(tmp, "bad.ann")
    with open(bad, "w") as f:
        f.write("x 1 a\nx 2\n")
    line, status = tool_error("hkappa", "--flat", ann3[0], bad)
    try:
        tageval.agreement([ann3[0], bad])
        check(False, "agreement() on a bad file raises")
    except tageval.FormatError as e:
        check(status == 1 and e.file == bad and e.line == 2 and line == "hkappa: " + str(e),
              "agreement()'s FormatError %r as the tool's %r" % (str(e), line))
    # a folder of splits: a mapping file without its test file is an error
    # (OSError naming it, as wsi-supervised's "cannot open"), no split files too
    with open(os.path.join(tmp, "mapping.1.key"), "w") as f:
        f.write(open(d("sup-mapping.key")).read())
    line, status = tool_error("wsi-supervised", "--splits=" + tmp, d("sup-clusters.key"),
                              d("sup-gold.key"))
    try:
        tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), splits=tmp)
        check(False, "supervised(splits=DIR) without test.1.key raises")
    except OSError as e:
        want = os.path.join(tmp, "test.1.key")
        check(status == 1 and e.filename == want and want in line,
              "missing test file: %r, the tool's %r" % (e, line))
    # with the test file: the folder's one split, as --splits=DIR
    with open(os.path.join(tmp, "test.1.key"), "w") as f:
        f.write(open(d("sup-test.key")).read())
    same_supervised(d("sup-clusters.key"), d("sup-gold.key"), ["--splits=" + tmp], splits=tmp)
    os.mkdir(os.path.join(tmp, "empty"))
    try:
        tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"),
                           splits=os.path.join(tmp, "empty"))
        check(False, "supervised(splits=DIR) without split files raises")
    except OSError:
        pass
wsb = os.path.join(SHARED, "agreement", "wsbest", "senseval_format")
if os.path.isdir(wsb):
    wsb_files = [os.path.join(wsb, "ann_" + a) for a in "ACDFGHIJ"]
    same_agreement(wsb_files, None, ["--per-lexelt", "--coefficients=all", "--pairs"],
                   per_lexelt=True, coefficients="all", pairs=True)
    same_agreement(wsb_files[:3], os.path.join(wsb, "senses_lexfile"),
                   ["--leave-one-out", "--bootstrap=50"], leave_one_out=True, bootstrap=50)

# ------------------------------------------- hierarchical_kappa in memory


def read_annotations(paths):
    """The annotators' tags per item of annotation files: the annotations
    argument of hierarchical_kappa (None where an annotator has no line)."""
    per = []
    for p in paths:
        lab = {}
        with open(p) as f:
            for line in f:
                w = line.split("!!")[0].split()
                if len(w) >= 3:
                    lab[(w[0], w[1])] = [t.split("/")[0] for t in w[2:]]
        per.append(lab)
    items = sorted(set().union(*per))
    return [[lab.get(i) for i in items] for lab in per]


for files, senses in [(ann3[:2], d("agreement.senses")), (ann3, d("agreement.sensemap")),
                      (ann3, None)]:
    want = tool_json("hkappa", *(files + ([senses] if senses else ["--flat"])))["pooled"]
    got = tm.hierarchical_kappa(read_annotations(files), senses)
    check(got == want, "hierarchical_kappa(%s, %s) = hkappa's pooled: %r != %r"
          % (files, senses, got, want))
# the map as a dict child -> parent: the Melamed-Resnik example of
# agreement.senses as "tag parent" lines
with open(d("agreement.senses")) as f:
    smap = {}
    for line in f:
        w = line.split("!!")[0].split()
        if len(w) == 2:
            smap.setdefault(w[0], []).append(w[1])
        elif len(w) == 1:
            smap.setdefault(w[0], None)
got = tm.hierarchical_kappa(read_annotations(ann3[:2]), smap)
check(got == tool_json("hkappa", ann3[0], ann3[1], d("agreement.senses"))["pooled"],
      "hierarchical_kappa with the map as a dict: %r" % got)
# Hand computation, map {a1, a2} under A, b a leaf: annotator 1 (A, b, a1),
# annotator 2 (a1, b, a2).  Leaf distributions: A = (1/2 a1, 1/2 a2):
# item agreements <A, a1> = 1/2, <b, b> = 1, <a1, a2> = 0: Pr(A) = 1/2;
# pooled marginals a1 (1/2 + 1 + 1) / 6 = 5/12, a2 (1/2 + 1) / 6 = 3/12,
# b 2/6 = 4/12: Pr(E) = (25 + 9 + 16) / 144 = 50/144 = 25/72,
# kappa = (1/2 - 25/72) / (47/72) = 11/47
hk = tm.hierarchical_kappa([["A", "b", "a1"], ["a1", "b", "a2"]],
                           {"a1": "A", "a2": "A", "b": None})
check(abs(hk["kappa"] - 11 / 47) < 1e-15 and hk["items"] == 3 and hk["undefined"] == {},
      "hierarchical_kappa, hand example: %r" % hk)
# several tags in one annotation: ["a1", "a2"] is the distribution of A
check(tm.hierarchical_kappa([[["a1", "a2"], "b", "a1"], ["a1", "b", "a2"]],
                            {"a1": "A", "a2": "A", "b": None}) == hk,
      "a sequence of tags is the mixture of their leaves")
for bad in [[["a b"], ["a"]], [["a/1"], ["a"]], [[""], ["a"]], [[1], [2]], [[[]], ["a"]]]:
    try:
        tm.hierarchical_kappa(bad)
        check(False, "hierarchical_kappa(%r) raises" % (bad,))
    except (ValueError, TypeError):
        pass
try:
    tm.hierarchical_kappa([["a"], ["a"]], {"a": "b", "b": "a"})
    check(False, "a cyclic map raises FormatError")
except tageval.FormatError as e:
    check(e.file == "senses", "the dict map's errors name 'senses': %r" % e.file)

# ------------------------------------------------ weighted Cohen's kappa

# Hand computation, labels 1 < 2 < 3 (ranks 0, 1, 2), annotator 1 (1, 2, 3),
# annotator 2 (1, 3, 3): observed linear disagreement sum w O = (0 + 1 + 0)
# / 3 = 1/3; marginals (1/3, 1/3, 1/3) and (1/3, 0, 2/3): expected sum over
# i, j of p_i q_j |i - j| = 1/3 * (1/3 * 0 + 2/3 * 2) + 1/3 * (1/3 * 1 + 2/3 * 1)
# + 1/3 * (1/3 * 2 + 2/3 * 0) = 4/9 + 3/9 + 2/9 = 1; kappa = 1 - (1/3) / 1 = 2/3.
# Quadratic: observed 1/3, expected 1/3 (1/3 0 + 2/3 4) + 1/3 (1/3 + 2/3)
# + 1/3 (4/3) = 8/9 + 3/9 + 4/9 = 15/9: kappa = 1 - (1/3) / (15/9) = 4/5
k = tm.cohen_kappa([1, 2, 3], [1, 3, 3], weights="linear")
check(abs(k - 2 / 3) < 1e-15, "linear kappa %r, 2/3" % k)
k = tm.cohen_kappa(["x1", "x2", "x3"], ["x1", "x3", "x3"], weights="quadratic")
check(abs(k - 4 / 5) < 1e-15, "quadratic kappa %r, 4/5" % k)
try:
    tm.cohen_kappa([1, 2], [1, 2], weights="cubic")
    check(False, "invalid weights raise")
except ValueError:
    pass
if skm is not None:
    rng = random.Random(161)
    for n, k in [(2, 2), (10, 3), (100, 5), (1000, 12)]:
        a = [rng.randrange(k) * 10 for _ in range(n)]
        b = [rng.randrange(k) * 10 for _ in range(n)]
        for wt in (None, "linear", "quadratic"):
            ours, theirs = tm.cohen_kappa(a, b, wt), skm.cohen_kappa_score(a, b, weights=wt)
            check(close(ours, theirs), "random n=%d: kappa weights=%s %r != sklearn's %r"
                  % (n, wt, ours, theirs))

# --------------------------------------- empty labellings: ValueError

for f in (tm.v_measure, tm.adjusted_rand_score, tm.fowlkes_mallows_score,
          tm.normalized_mutual_info_score):
    try:
        f([], [])
        check(False, "%s of empty labellings raises" % f.__name__)
    except ValueError as e:
        check("no labels" in str(e), "%s([], []): %s" % (f.__name__, e))
for f in (tm.cohen_kappa, lambda a, b: tm.krippendorff_alpha([a, b])):
    try:
        f([], [])
        check(False, "agreement of empty labellings raises")
    except ValueError:
        pass

# ---------------------------- agreement metrics = NLTK's on WSbest data

try:
    from nltk.metrics.agreement import AnnotationTask
except ImportError:
    AnnotationTask = None
if AnnotationTask is None:
    print("note: no nltk: the comparisons with NLTK are skipped")
elif not os.path.isdir(os.path.join(SHARED, "agreement", "wsbest")):
    print("note: no ../shared/data: the comparisons with NLTK are skipped")
else:
    sys.path.insert(0, os.path.join(SRC, "tests", "cli", "oracle"))
    from alpha_nltk_oracle import wsbest, with_gaps  # the oracle's reading of WSbest
    counts, binary = wsbest(SHARED)
    for name, data in (("senses", counts), ("binary", binary), ("senses-gaps", with_gaps(counts))):
        anns = sorted(data)
        items = sorted(set().union(*(data[a] for a in anns)))
        seqs = [[data[a].get(i) for i in items] for a in anns]
        task = AnnotationTask(data=[(a, str(i), v) for a in anns for i, v in data[a].items()])
        a, b = tm.krippendorff_alpha(seqs), task.alpha()
        check(close(a, b), "WSbest %s: alpha %r != NLTK's %r" % (name, a, b))
        if name == "senses-gaps":
            continue
        a, b = tm.fleiss_kappa(seqs), task.pi()
        check(close(a, b), "WSbest %s: Fleiss %r != NLTK's pi %r" % (name, a, b))
        # Davies-Fleiss: hkappa's kappa_cohen of three or more annotators
        a = tm.hierarchical_kappa([[str(x) for x in s] for s in seqs])["kappa_cohen"]
        b = task.multi_kappa()
        check(close(a, b), "WSbest %s: Davies-Fleiss %r != NLTK's multi_kappa %r" % (name, a, b))
        # NLTK's kappa: the mean of the pairwise Cohen's kappas
        pairs = [tm.cohen_kappa(seqs[i], seqs[j]) for i in range(len(seqs))
                 for j in range(i + 1, len(seqs))]
        a, b = math.fsum(pairs) / len(pairs), task.kappa()
        check(close(a, b), "WSbest %s: mean pairwise Cohen %r != NLTK's kappa %r" % (name, a, b))
        two = AnnotationTask(data=[(x, str(i), v) for x in anns[:2] for i, v in data[x].items()])
        a, b = tm.cohen_kappa(seqs[0], seqs[1]), two.kappa()
        check(close(a, b), "WSbest %s: Cohen %r != NLTK's %r" % (name, a, b))
        if skm is not None and name == "senses":
            # the number of senses chosen, 1 to 5, as ordinal labels
            for wt in ("linear", "quadratic"):
                a = tm.cohen_kappa(seqs[0], seqs[1], weights=wt)
                b = skm.cohen_kappa_score(seqs[0], seqs[1], weights=wt)
                check(close(a, b), "WSbest: %s kappa %r != sklearn's %r" % (wt, a, b))


# ------------------------------- integer buffers (NumPy, array.array): the fast path

import array  # noqa: E402

# the same figures from an integer buffer as from the list of its values
rng = random.Random(1616)
for n, k in [(1, 1), (7, 3), (500, 20), (3000, 2000)]:
    t = [rng.randrange(k) for _ in range(n)]
    p = [rng.randrange(-k, k) for _ in range(n)]
    want = (tm.wsi_figures(t, p), tm.clustering_figures(t, p))
    for code in ("b", "h", "i", "l", "q") if k < 100 else ("h", "i", "l", "q"):
        for a, b in [(array.array(code, t), array.array(code, p)),
                     (memoryview(array.array(code, t)), p)]:
            got = (tm.wsi_figures(a, b), tm.clustering_figures(a, b))
            check(got == want, "array.array(%r), n=%d: %r != %r" % (code, n, got, want))
    # unsigned codes: the values shifted to be >= 0
    got = tm.clustering_figures(array.array("Q", t), array.array("L", [x + k for x in p]))
    check(got == want[1], "array.array('Q'), n=%d" % n)
    if numpy is not None:
        for dt in ("int8", "int16", ">i4", "<i8", "uint64", "intp"):
            if dt == "int8" and k > 100:
                continue
            nt = numpy.array(t, dtype=dt)
            np_ = numpy.array([x + k for x in p], dtype="uint64" if dt == "uint64" else "int64")
            got = (tm.wsi_figures(nt, np_), tm.clustering_figures(nt, np_))
            check(got == want, "numpy %s, n=%d: %r != %r" % (dt, n, got, want))
        # strided and reversed views read through their strides
        big = numpy.array([[x, -1] for x in t], dtype="int64")[:, 0]
        rev = numpy.array(p[::-1], dtype="int32")[::-1]
        got = tm.clustering_figures(big, rev)
        check(got == want[1], "numpy strided views, n=%d: %r != %r" % (n, got, want[1]))
# bytes are a buffer of 'B': the same as the list of their values
check(tm.clustering_figures(b"aabbc", bytearray(b"xxyzz"))
      == tm.clustering_figures([1, 1, 2, 2, 3], [5, 5, 6, 7, 7]), "bytes labels")
# a buffer that is not of integers (floats, a 2-D array) is read as a sequence
check(tm.v_measure(array.array("d", [0.5, 0.5, 1.5, 1.5]), [0, 0, 1, 2]) == tm.v_measure(
    [0, 0, 1, 1], [0, 0, 1, 2]), "array.array('d') read as a sequence")
try:
    tm.v_measure(array.array("q", [1, 2]), array.array("q", [1]))
    check(False, "arrays of different lengths raise")
except ValueError:
    pass
try:
    tm.v_measure(array.array("q"), array.array("q"))
    check(False, "empty arrays raise")
except ValueError as e:
    check("no labels" in str(e), "empty arrays: %s" % e)
if numpy is not None and skm is not None:
    t = numpy.random.default_rng(16).integers(0, 50, 100000)
    p = numpy.random.default_rng(17).integers(0, 80, 100000)
    a, b = tm.v_measure(t, p), skm.v_measure_score(t, p)
    check(close(a, b), "numpy int64 n=100000: V %r != sklearn's %r" % (a, b))


# ------------------------------------------- reference counts and memory

# labels made at run time (not interned, not shared with other code)
lt = ["lab%d" % i for i in range(3)]
lp = [("c", i) for i in range(3)]
labels_t = [lt[0], lt[1], lt[0], lt[2], lt[1], lt[0]]
labels_p = [lp[0], lp[0], lp[1], lp[1], lp[2], lp[2]]
# integer buffers: their exports released (a numpy array still exported
# cannot be resized; array.array raises BufferError)
arr_t = array.array("q", [0, 1, 0, 2, 1, 0])
arr_p = numpy.array([5, 5, 6, 6, 7, 7]) if numpy is not None else array.array("b", [5, 5, 6, 6, 7, 7])
objs = [labels_t, labels_p, arr_t, arr_p] + lt + lp
before = [sys.getrefcount(o) for o in objs]
gc.collect()
tracemalloc.start()
# a traced warm-up: with Python 3.11.7 one block of some 400 KB, attributed
# to the first calls and not growing with their number, appears after the
# first 200 calls; the check is on what the next 10,000 calls add
for _ in range(1000):
    tm.v_measure(labels_t, labels_p)
    tm.clustering_figures(labels_t, labels_p)
    tm.hierarchical_kappa([labels_t, [[x] for x in reversed(labels_t)]], {lt[0]: lt[1]})
    tm.cohen_kappa(labels_t, labels_t[::-1], weights="linear")
    if _ % 100 == 0:
        tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), splits=3)
        tageval.agreement(ann3, d("agreement.senses"), per_lexelt=True, coefficients="all",
                          pairs=True, leave_one_out=True, bootstrap=20)
gc.collect()
snap = tracemalloc.take_snapshot()


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# the C side's allocations (malloc, unseen by tracemalloc): the resident
# size, except under ASan whose quarantine holds freed memory
measure_rss = "asan" not in os.environ.get("LD_PRELOAD", "") and os.path.exists("/proc/self/statm")
rss_before = rss() if measure_rss else 0
for _ in range(10000):
    tm.v_measure(labels_t, labels_p)
    tm.clustering_figures(labels_t, labels_p)
    tm.hierarchical_kappa([labels_t, [[x] for x in reversed(labels_t)]], {lt[0]: lt[1]})
    tm.cohen_kappa(labels_t, labels_p)
    tm.cohen_kappa(labels_t, labels_t[::-1], weights="linear")
    tm.clustering_figures(arr_t, arr_p)
    if _ % 100 == 0:
        tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), splits=3)
        tageval.agreement(ann3, d("agreement.senses"), per_lexelt=True, coefficients="all",
                          pairs=True, leave_one_out=True, bootstrap=20)
        try:
            tageval.supervised(d("sup-clusters.key"), d("sup-gold.key"), folds=1000)
        except tageval.FormatError:
            pass
        try:
            tm.hierarchical_kappa([labels_t, labels_t], {lt[0]: lt[1], lt[1]: lt[0]})
        except tageval.FormatError:
            pass
        tageval.wsi(d("wsi-clusters.key"), d("wsi-gold.key"), per_word=True)
        tageval.clustering(d("crisp-clusters.key"), d("crisp-gold.key"))
        tm.krippendorff_alpha([labels_t, labels_p, [None] * 6])
        tm.fleiss_kappa([labels_t, labels_p, labels_t])
        tageval.score(d("sampletask.answers"), d("sampletask.key"), d("sampletask.sensemap"),
                      "mixed")
        try:
            tageval.wsi(d("wsi-clusters.key"), d("sampletask.sensemap"))
        except tageval.FormatError:
            pass
    try:
        tm.v_measure(labels_t, labels_p[:1])
    except ValueError:
        pass
gc.collect()
if measure_rss:
    # one library object left behind per call (a tageval_wsi and its tables:
    # kilobytes) would be tens of megabytes over these 20,000 calls
    check(rss() - rss_before < 4 << 20, "resident size grew by %d bytes over 10,000 calls"
          % (rss() - rss_before))
grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap, "filename"))
tracemalloc.stop()
after = [sys.getrefcount(o) for o in objs]
arr_t.append(3)  # BufferError if an export were left

check(before == after, "reference counts %r -> %r over 10,000 calls" % (before, after))
# Python's own allocations over 10,000 calls: a leak of one object per call
# would be over 10,000 x 16 bytes
check(grown < 16000, "memory grew by %d bytes over 10,000 calls" % grown)

print("%d checks, %d failed" % (checks, failures))
sys.exit(1 if failures else 0)
