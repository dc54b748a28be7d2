# SPDX-License-Identifier: GPL-3.0-or-later
"""tageval: scoring of sense taggers, annotators and word sense induction.

Two layers over libtageval:

* files, mirroring the tools: wsi() returns what ``vmeasure --format json``
  prints, clustering() what ``bcubed``, ``nmi`` and ``ari`` print,
  supervised() what ``wsi-supervised --format json`` prints, agreement()
  what ``hkappa --format json`` prints and score() what ``scorer2 --format
  json`` prints, as plain Python objects (a JSON null is None);
* in memory, in scikit-learn's shape: tageval.metrics (V-measure,
  homogeneity, completeness, ARI, NMI, AMI, Fowlkes-Mallows, B-cubed, ...)
  of two labellings whose labels are any hashable values, and the
  agreement of annotators (Cohen's, Fleiss', hierarchical kappa,
  Krippendorff's alpha).

Malformed files raise FormatError (a ValueError) with the attributes file,
line and message; files that cannot be read raise OSError.  The library
works with the GIL released.
"""

import warnings as _warnings

from . import _tageval
from ._tageval import FormatError

__all__ = ["FormatError", "agreement_coefficients", "wsi", "clustering", "supervised", "agreement", "score", "metrics",
           "__version__"]

import os as _os

#: the version of the libtageval the module runs on
__version__ = _tageval.library_version

_GRANULARITY = {"fine": 0, "coarse": 1, "mixed": 2}


def wsi(clusters, gold, pos=None, beta=1.0, per_word=False):
    """The word-sense-induction figures of a system's clusters against a gold key.

    clusters, gold: paths (str, bytes or os.PathLike) of files of lines
    "word instance label[/weight] ...", the system's clusters first, as
    vmeasure(1) and fscore(1) take them.  pos: only the words whose name
    ends in ".pos" (None or "all": every word).  beta: the weight of
    completeness in the V-measure.  per_word: also the figures of every
    word.

    Returns the dict that ``vmeasure --format json [--per-word]`` prints:
    {"pos", "words", "ignored_lines", "total": {...}, "per_word": {...} or
    None}, each figures dict holding instances, clusters, clusters_2007,
    classes, v_measure, homogeneity, completeness, fscore, purity, entropy,
    paired_precision, paired_recall and paired_fscore (None where the
    figure is not defined).
    """
    if pos == "all":
        pos = None
    return _tageval.wsi(clusters, gold, pos, float(beta), bool(per_word))


def score(answers, key, sensemap=None, granularity="fine", minimal=False,
          conjunctive=False, instances=None, tags=None):
    """Scores a system's sense-tagged answers against a gold key, as scorer2 does.

    answers, key, sensemap: paths of the answer file, the key and the
    optional sense map.  granularity: "fine", "coarse" or "mixed" (the last
    two need a sense map: without one scoring is fine-grained, with a
    warning, as scorer2 does).  minimal: leave out the instances with
    several key tags.  conjunctive: read key tags conjunctively and answer
    weights as probabilities of appearance.  instances, tags: paths of the
    filters (score only the instances listed, keep only the key tags
    listed).

    Returns the dict that ``scorer2 --format json`` prints: granularity,
    minimal, conjunctive, answers, key, correct, attempted, total,
    precision, recall, attempted_percent, instances, scored, not_in_key,
    invalid, excluded, filtered, and "undefined" (a figure's name -> why it
    is None) when a figure is not defined.
    """
    try:
        g = _GRANULARITY[granularity]
    except (KeyError, TypeError):
        raise ValueError("invalid granularity %r (fine, coarse or mixed)"
                         % (granularity,)) from None
    if g != 0 and sensemap is None:
        _warnings.warn("fine-grained scoring will be used since no sense map was given",
                       stacklevel=2)
        g = 0
    return _tageval.score(answers, key, sensemap, g, bool(minimal), bool(conjunctive),
                          instances, tags)


_MODES = {"auto": 0, "crisp": 1, "fuzzy": 2}
_NORMALIZERS = {None: 0, "default": 0, "arithmetic": 1, "geometric": 2, "min": 3, "max": 4}
# the families of the clustering tools' --metrics, in the order of their
# columns, with the library's bits
_FAMILIES = (("bcubed", 1, ("bcubed_fscore", "bcubed_precision", "bcubed_recall")),
             ("nmi", 2, ("nmi", "ami")),
             ("ari", 4, ("ari", "rand", "fowlkes_mallows")))


def _why_undefined(member, fuzzy, norm, undef_words, nw):
    """Why a clustering figure is null: the reasons bcubed(1), nmi(1) and ari(1) give."""
    if member == "avg":
        return "the geometric mean of the B-cubed F-score and NMI, one of which is undefined"
    if fuzzy and member == "ami":
        return "no adjusted mutual information for graded memberships (fuzzy mode)"
    if undef_words:
        return "the mean over the words of a figure undefined for %d word%s of %d" % (
            undef_words, "" if undef_words == 1 else "s", nw)
    if fuzzy and member == "nmi":
        return ("the normalizer (%s) of the entropies of the gold senses and of the clusters "
                "is 0" % norm)
    if not fuzzy and member == "ami":
        return ("the normalizer (%s) equals the expected mutual information and the two "
                "partitions differ" % norm)
    return "not computed"


def _none(v):
    return None if v != v or v in (float("inf"), float("-inf")) else v


def clustering(clusters, gold, metrics="all", pos=None, normalizer=None, mode="auto"):
    """The clustering metrics of a system's clusters against a gold key, per word.

    clusters, gold: paths of "word instance label[/weight] ..." files, the
    system's first.  metrics: "all", or a comma-separated string or a
    sequence of "bcubed" (B-cubed precision, recall, F), "nmi" (NMI and AMI)
    and "ari" (ARI, Rand, Fowlkes-Mallows).  normalizer: the mean of the
    entropies that divides the mutual information, "arithmetic",
    "geometric", "min" or "max" (None: arithmetic when crisp, max when
    fuzzy).  mode: "auto" (fuzzy when either file has a line with several
    labels or a weight), "crisp" or "fuzzy"; ARI, Rand and Fowlkes-Mallows
    are crisp only (ValueError when the input is read as fuzzy).

    Returns the dict that ``bcubed --format json --metrics=...`` (or nmi, or
    ari: the three print the same) prints: pos, words, ignored_lines,
    total (with mode, averaging and, with NMI, normalizer), pooled (crisp,
    with NMI or ARI), per_word; a null figure (None) is explained in its
    object's "undefined".  The ari tool reads every file as crisp: pass
    mode="crisp" for its figures.
    """
    if metrics == "all":
        names = [f[0] for f in _FAMILIES]
    else:
        names = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    known = {f[0] for f in _FAMILIES}
    if not names or any(n not in known for n in names):
        raise ValueError("invalid metrics %r (bcubed, nmi, ari or all)" % (metrics,))
    bits = 0
    for name, bit, _ in _FAMILIES:
        if name in names:
            bits |= bit
    try:
        m = _MODES[mode]
        nz = _NORMALIZERS[normalizer]
    except (KeyError, TypeError):
        raise ValueError("invalid mode %r or normalizer %r" % (mode, normalizer)) from None
    if pos == "all":
        pos = None
    r = _tageval.clustering(clusters, gold, pos, m, nz, bits)
    fuzzy = r["fuzzy"]
    if fuzzy and bits & 4:
        raise ValueError("the input is graded (fuzzy) and ARI, Rand and Fowlkes-Mallows are "
                         "crisp only")
    cols = []
    for name, bit, members in _FAMILIES:
        if bits & bit:
            cols += members
        if name == "nmi" and bits & 1 and bits & 2:
            cols.append("avg")
    with_nmi = bool(bits & 2)
    norm = [k for k, v in _NORMALIZERS.items() if v == nz and k not in (None, "default")]
    norm = norm[0] if nz else ("max" if fuzzy else "arithmetic")
    words = r["per_word"]
    nw = len(words)

    def figures(f, extra=None, undef=None):
        out = {"instances": f["instances"]}
        for c in cols:
            out[c] = _none(f[c])
        if extra:
            out.update(extra)
        nulls = {c: _why_undefined(c, fuzzy, norm, undef[c] if undef else 0, nw)
                 for c in cols if out[c] is None}
        if nulls:
            out["undefined"] = nulls
        return out

    extra = {"mode": "fuzzy" if fuzzy else "crisp",
             "averaging": "word-mean" if fuzzy else "instance-weighted"}
    if with_nmi:
        extra["normalizer"] = norm
    undef = {c: sum(1 for _, f in words if _none(f[c]) is None) for c in cols}
    out = {"pos": pos if pos else "all", "words": nw, "ignored_lines": r["ignored_lines"],
           "total": figures(r["total"], extra, undef)}
    if not fuzzy and bits & (2 | 4):
        out["pooled"] = figures(r["pooled"])
    out["per_word"] = {w: figures(f) for w, f in words}
    return out


def _split_files(folder, pos):
    """The given splits of a folder, as wsi-supervised --splits=DIR finds them:
    the pairs mapping.[TAG.]N.key and test.[TAG.]N.key of folder/all,
    folder/nouns, folder/verbs or folder/adjectives (as pos) when it has
    that subfolder, else of folder, in the order of N (then of name)."""
    sub = {None: "all", "n": "nouns", "v": "verbs", "j": "adjectives",
           "a": "adjectives"}.get(pos)
    where = _os.fsdecode(folder)
    if sub and _os.path.isdir(_os.path.join(where, sub)):
        where = _os.path.join(where, sub)
    found = []
    for name in _os.listdir(where):
        if not (name.startswith("mapping.") and name.endswith(".key") and len(name) >= 13):
            continue
        stem = name[8:-4]
        digits = len(stem) - len(stem.rstrip("0123456789"))
        if digits == 0 or (digits < len(stem) and stem[-digits - 1] != ".") or digits > 31:
            continue
        n = int(stem[-digits:])
        if n > 10 ** 9:
            continue
        test = _os.path.join(where, "test." + name[8:])
        if not _os.path.exists(test):
            raise FileNotFoundError(2, "cannot open", test)
        found.append((n, _os.path.join(where, name), test))
    if not found:
        raise FileNotFoundError(2, "no split files (mapping.N.key and test.N.key)", where)
    # by N, then by name byte for byte (as the tool's strcmp), not in the
    # order the folder lists them
    found.sort(key=lambda f: (f[0], _os.fsencode(f[1])))
    return [(m, t) for _, m, t in found]


def supervised(clusters, gold, folds=None, seed=1, splits=None, test_fraction=None, pos=None):
    """The supervised evaluation of induced senses, as wsi-supervised does.

    clusters, gold: paths of "word instance label[/weight] ..." files, the
    system's first.  The splits of the gold instances into a mapping and a
    test part are, as wsi-supervised's options:

    * folds=K: K-fold cross-validation stratified by word (the default:
      5 folds when splits is None);
    * splits=N (an int): N random splits with round(test_fraction * n)
      test instances per word (test_fraction: default 0.2);
    * splits=[(mapping, test), ...]: given splits, pairs of key files
      (--split=MAPPING:TEST);
    * splits=DIR (a path naming a folder): every mapping.[TAG.]N.key with
      its test.[TAG.]N.key there, of DIR/all, DIR/nouns or DIR/verbs as pos
      when DIR has them (--splits=DIR).

    seed: of GSL's mt19937 (0 to 4294967295) for folds and random splits.
    pos: only the words whose name ends in ".pos" (None or "all": all).

    Returns the dict that ``wsi-supervised --format json`` prints: method
    ("folds", "random" or "given"), seed (folds, random), test_fraction
    (random), pos, splits (per split: mapping, test, answered, correct,
    precision, recall, attempted), mean_recall, variance (the sample
    variance of the recalls, n - 1) and stddev, with None and an
    "undefined" member where a figure is not defined.
    """
    if pos == "all":
        pos = None
    seed = _index(seed, "seed")
    given, nsplits, out = [], 0, {}
    if splits is not None and folds is not None:
        raise ValueError("choose one of folds and splits")
    if test_fraction is not None and not (isinstance(splits, int) and
                                          not isinstance(splits, bool)):
        raise ValueError("test_fraction goes with splits=N (random splits)")
    if splits is None:
        folds = 5 if folds is None else _index(folds, "folds")
        if folds < 2:
            raise ValueError("invalid number of folds %d (2 or more)" % folds)
        out = {"method": "folds", "seed": seed}
    elif isinstance(splits, int) and not isinstance(splits, bool):
        if splits < 1:
            raise ValueError("invalid number of splits %d" % splits)
        nsplits = splits
        fraction = 0.2 if test_fraction is None else float(test_fraction)
        if not 0.0 < fraction < 1.0:
            raise ValueError("invalid test fraction %r (between 0 and 1)" % test_fraction)
        out = {"method": "random", "seed": seed, "test_fraction": fraction}
    elif isinstance(splits, (str, bytes, _os.PathLike)):
        given = _split_files(splits, pos)
        out = {"method": "given"}
    else:
        given = [tuple(s) for s in splits]
        if any(len(s) != 2 for s in given):
            raise ValueError("given splits are (mapping, test) pairs")
        if not given:
            raise ValueError("no given split")
        out = {"method": "given"}
    flat = [p for s in given for p in s]
    out["pos"] = pos if pos else "all"
    out.update(_tageval.supervised(clusters, gold, pos, flat, folds or 0, nsplits,
                                   out.get("test_fraction", 0.2), seed))
    return out


def _index(v, what):
    try:
        return int(v.__index__())
    except AttributeError:
        raise TypeError("%s must be an integer, not %s" % (what, type(v).__name__)) from None


#: the coefficients of agreement()'s coefficients beyond kappa, kappa_cohen and alpha
agreement_coefficients = _tageval.AGREEMENT_COEFFICIENTS
_DISTANCES = ("inner", "exact", "jaccard", "masi")


def agreement(files, senses=None, per_lexelt=False, bootstrap=0, seed=1, confidence=0.95,
              downward=None, smoothing=1.0, coefficients=(), distance="inner",
              categories=None, pairs=False, leave_one_out=False):
    """The agreement of annotators over a hierarchical tag set, as hkappa does.

    files: the paths of two or more annotation files ("lexelt instance
    tag[/weight] ...").  senses: the path of the sense map (hkappa's SENSES),
    or None for flat tags (hkappa --flat).  The other arguments are
    hkappa's options: per_lexelt (--per-lexelt), bootstrap (--bootstrap,
    replicates; 0 none), seed, confidence, downward (--downward, the path
    of a tagged corpus) with smoothing, coefficients (--coefficients: a
    comma-separated str or a sequence of names of agreement_coefficients,
    "all", or the default "kappa", "kappa_cohen", "alpha"), distance
    (--distance: "inner", or "exact", "jaccard", "masi" for their alpha),
    categories (--categories, q of AC1 and Brennan-Prediger; None: the
    labels), pairs (--pairs), leave_one_out (--leave-one-out).

    Returns the dict that ``hkappa --format json`` prints: annotators,
    files (the paths as given, as str), items, single, pr_a, pr_e, kappa,
    kappa_cohen, alpha, the coefficients asked for, pooled, macro,
    bootstrap (with bootstrap > 0), pairs, leave_one_out, per_lexelt (None
    without per_lexelt), with None and an "undefined" member where a
    figure is not defined.
    """
    paths = [_os.fspath(f) for f in files]
    if isinstance(coefficients, str):
        coefficients = coefficients.split(",") if coefficients else []
    extra = 0
    for c in coefficients:
        if c == "all":
            extra |= (1 << len(agreement_coefficients)) - 1
        elif c in agreement_coefficients:
            extra |= 1 << agreement_coefficients.index(c)
        elif c not in ("kappa", "kappa_cohen", "alpha", "default"):
            raise ValueError("invalid coefficient %r (see tageval.agreement_coefficients)"
                             % (c,))
    if distance not in _DISTANCES:
        raise ValueError("invalid distance %r (inner, exact, jaccard or masi)" % (distance,))
    if distance != "inner":
        extra |= 1 << agreement_coefficients.index("alpha_" + distance)
    if categories is not None:
        categories = _index(categories, "categories")
        if categories < 2:
            raise ValueError("invalid number of categories %d (2 or more)" % categories)
    if downward is not None and senses is None:
        raise ValueError("downward needs a sense map (senses)")
    bootstrap = _index(bootstrap, "bootstrap")
    if bootstrap < 0:
        raise ValueError("invalid number of replicates %d" % bootstrap)
    out = {"annotators": len(paths),
           "files": [_os.fsdecode(p) for p in paths]}
    out.update(_tageval.hkappa(paths, senses, downward, float(smoothing), bootstrap,
                               _index(seed, "seed"), float(confidence), extra,
                               categories or 0, bool(pairs), bool(leave_one_out),
                               bool(per_lexelt)))
    return out


from . import metrics  # noqa: E402  (after the names it uses)
