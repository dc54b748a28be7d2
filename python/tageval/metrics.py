# SPDX-License-Identifier: GPL-3.0-or-later
"""Clustering metrics of two labellings, in scikit-learn's shape.

Every function takes labels_true (the gold classes) and labels_pred (the
clusters) of the same items: sequences of equal length (lists, tuples,
NumPy arrays, ...) whose labels are any hashable values (two labels are
the same when they are equal as dict keys).  An integer array (one
exposing a one-dimensional buffer of integers: NumPy integer arrays,
array.array, memoryview, bytes) is read from its buffer, without a Python
object per label.  The figures are libtageval's,
computed exactly as scikit-learn 1.2 defines them (natural logarithms)
where scikit-learn has the metric.

Empty labellings raise ValueError: every figure is a ratio over the items
(0/0 for none).  scikit-learn 1.2 returns conventional values there, and
not consistent ones (1.0 for V-measure, homogeneity, completeness, ARI,
Rand, NMI and AMI, 0.0 for Fowlkes-Mallows, NaN for Cohen's kappa): the
error says so rather than picking one.  The agreement functions raise
ValueError too (FormatError, no item with two labels).
"""

from . import _tageval

__all__ = [
    "v_measure", "v_measure_score", "homogeneity_score", "completeness_score",
    "homogeneity_completeness_v_measure", "paired_fscore", "fscore_2007",
    "wsi_figures", "adjusted_rand_score", "rand_score", "fowlkes_mallows_score",
    "normalized_mutual_info_score", "mutual_info_normalizers",
    "adjusted_mutual_info_score", "bcubed", "clustering_figures",
    "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "hierarchical_kappa",
]

_NORMALIZER = {"arithmetic": 1, "geometric": 2, "min": 3, "max": 4}

#: the average_method values of normalized_mutual_info_score
mutual_info_normalizers = tuple(_NORMALIZER)


def _normalizer(average_method):
    try:
        return _NORMALIZER[average_method]
    except (KeyError, TypeError):
        raise ValueError("invalid average_method %r (one of %s)"
                         % (average_method, ", ".join(_NORMALIZER))) from None


def wsi_figures(labels_true, labels_pred, beta=1.0):
    """All the word-sense-induction figures of one word's labellings, as a dict.

    The keys are those of tageval.wsi()'s figures: instances, clusters,
    clusters_2007, classes, homogeneity, completeness, v_measure (with
    beta), paired_precision, paired_recall, paired_fscore (SemEval-2010),
    fscore, purity, entropy (SemEval-2007).  A figure not defined is NaN.
    """
    beta = float(beta)
    if not beta >= 0.0:
        raise ValueError("beta must be >= 0")
    return _tageval.labels(labels_true, labels_pred, beta, 0, _tageval.FAMILY_WSI)[0]


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta=1.0):
    """(homogeneity, completeness, V-measure) of labels_pred against labels_true.

    As sklearn.metrics.homogeneity_completeness_v_measure: homogeneity is
    1 - H(C|K) / H(C) (1 when H(C) = 0), completeness 1 - H(K|C) / H(K) (1
    when H(K) = 0), V = (1 + beta) h c / (beta h + c) (0 when that is 0/0).
    """
    f = wsi_figures(labels_true, labels_pred, beta)
    return f["homogeneity"], f["completeness"], f["v_measure"]


def v_measure(labels_true, labels_pred, beta=1.0):
    """The V-measure of labels_pred against labels_true (see
    homogeneity_completeness_v_measure); beta weighs completeness."""
    return wsi_figures(labels_true, labels_pred, beta)["v_measure"]


def v_measure_score(labels_true, labels_pred, *, beta=1.0):
    """sklearn.metrics.v_measure_score's name for v_measure()."""
    return v_measure(labels_true, labels_pred, beta)


def homogeneity_score(labels_true, labels_pred):
    """Homogeneity: 1 - H(C|K) / H(C), 1 when H(C) = 0."""
    return wsi_figures(labels_true, labels_pred)["homogeneity"]


def completeness_score(labels_true, labels_pred):
    """Completeness: 1 - H(K|C) / H(K), 1 when H(K) = 0."""
    return wsi_figures(labels_true, labels_pred)["completeness"]


def paired_fscore(labels_true, labels_pred):
    """SemEval-2010's paired F-score (the harmonic mean of the paired
    precision and recall over the pairs of items of one cluster or class,
    a singleton counting its self pair)."""
    return wsi_figures(labels_true, labels_pred)["paired_fscore"]


def fscore_2007(labels_true, labels_pred):
    """SemEval-2007's F-score (each class's best F over the clusters,
    weighted by the class's size)."""
    return wsi_figures(labels_true, labels_pred)["fscore"]


def clustering_figures(labels_true, labels_pred, average_method="arithmetic"):
    """All the clustering figures as a dict: instances, ari, rand,
    fowlkes_mallows, nmi, ami (NMI and AMI normalised by average_method),
    bcubed_precision, bcubed_recall, bcubed_fscore.  NaN where not defined."""
    return _tageval.labels(labels_true, labels_pred, 1.0, _normalizer(average_method),
                           _tageval.FAMILY_BCUBED | _tageval.FAMILY_NMI
                           | _tageval.FAMILY_PAIRS)[1]


def _pairs(labels_true, labels_pred):
    return _tageval.labels(labels_true, labels_pred, 1.0, 1, _tageval.FAMILY_PAIRS)[1]


def adjusted_rand_score(labels_true, labels_pred):
    """The adjusted Rand index (Hubert & Arabie), as sklearn's."""
    return _pairs(labels_true, labels_pred)["ari"]


def rand_score(labels_true, labels_pred):
    """The Rand index, as sklearn's."""
    return _pairs(labels_true, labels_pred)["rand"]


def fowlkes_mallows_score(labels_true, labels_pred):
    """The Fowlkes-Mallows index TP / sqrt((TP + FP)(TP + FN)), as sklearn's."""
    return _pairs(labels_true, labels_pred)["fowlkes_mallows"]


def _mi(labels_true, labels_pred, average_method):
    return _tageval.labels(labels_true, labels_pred, 1.0, _normalizer(average_method),
                           _tageval.FAMILY_NMI)[1]


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information normalised by the arithmetic, geometric, min or max
    mean of the two entropies (average_method), as sklearn's."""
    return _mi(labels_true, labels_pred, average_method)["nmi"]


def adjusted_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information adjusted for chance (expected mutual information
    under the permutation model), as sklearn's; NaN where undefined."""
    return _mi(labels_true, labels_pred, average_method)["ami"]


def bcubed(labels_true, labels_pred):
    """Item-averaged B-cubed (Bagga & Baldwin): (precision, recall, F)."""
    f = _tageval.labels(labels_true, labels_pred, 1.0, 1, _tageval.FAMILY_BCUBED)[1]
    return f["bcubed_precision"], f["bcubed_recall"], f["bcubed_fscore"]


def _annotators(annotations):
    seqs = [list(a) for a in annotations]
    n = {len(s) for s in seqs}
    if len(n) > 1:
        raise ValueError("annotators label different numbers of items: %s" % sorted(n))
    return seqs


def _agreement(annotations, mode=0, map_path=None, map_text=None):
    seqs = _annotators(annotations)
    # an annotator without a label takes no part
    seqs = [s for s in seqs if any(x is not None for x in s)]
    if len(seqs) < 2:
        raise ValueError("fewer than two annotators with a label")
    return _tageval.agreement(seqs, mode, map_path, map_text)


def _nan(v):
    return float("nan") if v is None else v


def cohen_kappa(y1, y2, weights=None):
    """Cohen's kappa of two annotators' labels of the same items (as
    sklearn.metrics.cohen_kappa_score): 1 - sum(w * O) / sum(w * E), O the
    observed and E the expected (product of each annotator's own label
    frequencies) confusion matrices.  weights: None (w = 0 on the diagonal,
    1 elsewhere), "linear" (w = |i - j|) or "quadratic" (w = (i - j)^2),
    i and j the ranks of the labels in the sorted union of both annotators'
    labels (which must then be orderable), as scikit-learn's.  NaN where
    the chance term is 0 (every item given one label)."""
    y1, y2 = list(y1), list(y2)
    if len(y1) != len(y2):
        raise ValueError("y1 and y2 differ in length: %d and %d" % (len(y1), len(y2)))
    if weights is None:
        return _nan(_agreement([y1, y2])["kappa_cohen"])
    if weights not in ("linear", "quadratic"):
        raise ValueError("invalid weights %r (None, 'linear' or 'quadratic')" % (weights,))
    if any(x is None for x in y1 + y2):
        raise ValueError("a weighted kappa needs every item labelled by both annotators")
    rank = {x: i for i, x in enumerate(sorted(set(y1) | set(y2)))}
    r = _agreement([[rank[x] for x in y1], [rank[x] for x in y2]], 2)
    return r["kappa_" + weights]


def fleiss_kappa(annotations):
    """Fleiss' kappa: annotations is a sequence of annotators, each a sequence
    of labels of the same items (every annotator labels every item).  The
    mean pairwise agreement per item against the chance agreement of the
    pooled label frequencies; NaN when that is 1."""
    seqs = _annotators(annotations)
    if any(x is None for s in seqs for x in s):
        raise ValueError("fleiss_kappa needs every item labelled by every annotator")
    return _nan(_agreement(seqs)["kappa"])


def krippendorff_alpha(annotations):
    """Krippendorff's alpha at the nominal level: annotations is a sequence
    of annotators, each a sequence of labels of the same items, None where
    an annotator left an item out (items with fewer than two labels take no
    part).  1 - D_o / D_e; NaN when D_e = 0."""
    return _nan(_agreement(annotations)["alpha"])


def _map_text(senses):
    lines = []
    for child, parents in senses.items():
        if parents is None:
            parents = ()
        elif isinstance(parents, str):
            parents = (parents,)
        for t in (child,) + tuple(parents):
            if not isinstance(t, str) or not t or any(c in t for c in " \t\n\r\v\f/\0") \
                    or "!!" in t:
                raise ValueError("invalid tag %r in senses (a str without blanks, '/' or '!!')"
                                 % (t,))
        lines += ["%s %s" % (child, p) for p in parents] or [child]
    return ("\n".join(lines) + "\n").encode()


def hierarchical_kappa(annotations, senses=None):
    """The agreement of annotators whose tags form a hierarchy (Melamed &
    Resnik, as hkappa): every tag is spread over the leaves below it and the
    figures are computed over the leaves.

    annotations: one sequence per annotator of the labels of the same items:
    a tag (str), a sequence of tags (the annotation is the uniform mixture
    of their leaves), or None where the annotator left the item out.  Tags
    are str without blanks, '/' or "!!".  senses: the sense map, as a path
    (str, bytes or os.PathLike: a file as hkappa's SENSES) or as a dict
    child -> parent (a str, a sequence of parents, or None for a top-level
    tag); None: every tag is a leaf (hkappa --flat).  Tags the map does not
    list are top-level leaves.

    Returns the dict of hkappa --format json's "pooled": items, annotations,
    complete, pr_a, pr_e, kappa (Melamed & Resnik's, pooled marginals),
    pr_e_cohen, kappa_cohen (Cohen's, or Davies-Fleiss' for three or more
    annotators), d_o, d_e, alpha (Krippendorff's, distance 1 - <P, Q>), and
    "undefined": a figure's name -> why it is None.
    """
    if isinstance(senses, dict):
        return _agreement(annotations, 1, None, _map_text(senses))
    return _agreement(annotations, 1, senses, None)
