# SPDX-License-Identifier: GPL-3.0-or-later
"""tageval: scoring of sense taggers, annotators and word sense induction.

Two layers over libtageval:

* files, mirroring the tools: wsi() returns what ``vmeasure --format json``
  prints and score() what ``scorer2 --format json`` prints, as plain Python
  objects (a JSON null is None);
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

__all__ = ["FormatError", "wsi", "score", "metrics", "__version__"]

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


from . import metrics  # noqa: E402  (after the names it uses)
