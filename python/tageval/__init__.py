# SPDX-License-Identifier: GPL-3.0-or-later
"""tageval: scoring of sense taggers, annotators and word sense induction.

Two layers over libtageval:

* files, mirroring the tools: wsi() returns what ``vmeasure --format json``
  prints, clustering() what ``bcubed``, ``nmi`` and ``ari`` print and
  score() what ``scorer2 --format json`` prints, as plain Python objects (a
  JSON null is None);
* in memory, in scikit-learn's shape: tageval.metrics (V-measure,
  homogeneity, completeness, ARI, NMI, AMI, Fowlkes-Mallows, B-cubed, ...)
  of two labellings whose labels are any hashable values.

Malformed files raise FormatError (a ValueError) with the attributes file,
line and message; files that cannot be read raise OSError.  The library
works with the GIL released.
"""

import warnings as _warnings

from . import _tageval
from ._tageval import FormatError

__all__ = ["FormatError", "wsi", "clustering", "score", "metrics", "__version__"]

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


from . import metrics  # noqa: E402  (after the names it uses)
