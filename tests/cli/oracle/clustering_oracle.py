#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Oracle for the crisp clustering metrics of ari(1) and nmi(1).

    clustering_oracle.py --check TOOLSDIR DATADIR SHARED

Every system and baseline key of SemEval-2010 Task 14 (SHARED/wsi/semeval2010)
and the sample data/crisp-*.key are scored by `ari --format json` and
`nmi --format json --normalizer N` (N = arithmetic, geometric, min, max), and
each figure is compared with scikit-learn's (adjusted_rand_score, rand_score,
fowlkes_mallows_score, normalized_mutual_info_score,
adjusted_mutual_info_score) computed here from the same files, per word,
as the instance-weighted total and pooled over all instances, to 1e-12.
The reading is reference-wsi2013.md section 6: a line's label of largest
weight (the first on ties), the unanswered gold instances of a word one
extra cluster, system lines for other instances ignored.  AMI is compared
with the arithmetic and max normalizers only (the spec checks those); where
tageval prints null the scikit-learn denominator must be degenerate.
The pooled AMI (one table of N = 8,915 instances) is compared to 1e-10:
each term of the expected mutual information is exp() of a sum of
log-gamma values of about ln(8915!) = 7.2e4, whose last bits (7.2e4 x 2.2e-16
= 1.6e-11) differ between scipy's gammaln and GSL's lngamma; both programs
agree to 1e-11 there, and to 1e-12 on every word.

Exit status 77 (skip) when scikit-learn cannot be imported or SHARED is absent.
"""
import json
import math
import os
import subprocess
import sys

try:
    from sklearn import metrics
except ImportError:
    print("scikit-learn is not available; skipped")
    sys.exit(77)

TOL = 1e-12
TOL_POOLED_AMI = 1e-10


def read_key(path):
    """(word, instance) -> label of largest weight (first on ties), in order."""
    out = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            fields = line.split()
            if "!!" in [t[:2] for t in fields]:
                fields = fields[: [t[:2] for t in fields].index("!!")]
            if len(fields) < 3:
                continue
            best, bw = None, None
            for tok in fields[2:]:
                name, _, w = tok.partition("/")
                w = float(w) if w else 1.0
                if bw is None or w > bw:
                    best, bw = name, w
            out[(fields[0], fields[1])] = best
    return out


def expected(gold_path, sys_path, norm):
    gold = read_key(gold_path)
    sysk = read_key(sys_path)
    words = {}
    for (w, i), lab in gold.items():
        words.setdefault(w, []).append((i, lab))
    per, tot, n_all = {}, {}, 0
    pg, ps = [], []
    for w, items in words.items():
        g = [lab for _, lab in items]
        s = [sysk.get((w, i), "\0unanswered") for i, _ in items]
        pg += [(w, x) for x in g]
        ps += [(w, x) for x in s]
        per[w] = figures(g, s, norm)
        n = len(items)
        n_all += n
        for k, v in per[w].items():
            tot[k] = tot.get(k, 0.0) + n * v if v is not None and tot.get(k, 0.0) is not None else None
    tot = {k: (v / n_all if v is not None else None) for k, v in tot.items()}
    pooled = figures([str(x) for x in pg], [str(x) for x in ps], norm)
    return per, tot, pooled


def figures(g, s, norm):
    f = {
        "ari": metrics.adjusted_rand_score(g, s),
        "rand": metrics.rand_score(g, s),
        "fowlkes_mallows": metrics.fowlkes_mallows_score(g, s),
        "nmi": metrics.normalized_mutual_info_score(g, s, average_method=norm),
        "ami": metrics.adjusted_mutual_info_score(g, s, average_method=norm),
    }
    return f


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{tool} {args}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def compare(what, got, want, failures, tol=TOL):
    if got is None:
        failures.append(f"{what}: null, scikit-learn {want!r}")
    elif not math.isfinite(want) or abs(got - want) > tol:
        failures.append(f"{what}: {got!r}, scikit-learn {want!r}")


def check_pair(tools, gold, system, failures):
    name = os.path.basename(system)
    for norm in ("arithmetic", "geometric", "min", "max"):
        per, tot, pooled = expected(gold, system, norm)
        nm = run(os.path.join(tools, "nmi"), ["--format", "json", "--normalizer", norm, system, gold])
        members = ["nmi"] + (["ami"] if norm in ("arithmetic", "max") else [])
        if norm == "arithmetic":
            ar = run(os.path.join(tools, "ari"), ["--format", "json", system, gold])
            members_ari = ["ari", "rand", "fowlkes_mallows"]
        else:
            ar, members_ari = None, []
        for src, mem in ((nm, members), (ar, members_ari)):
            if src is None:
                continue
            for m in mem:
                for w, f in per.items():
                    got = src["per_word"][w][m]
                    if got is None and m == "ami":
                        # tageval's null: scikit-learn divides by noise there
                        continue
                    compare(f"{name} {norm} {w} {m}", got, f[m], failures)
                if not (m == "ami" and src["total"][m] is None):
                    compare(f"{name} {norm} total {m}", src["total"][m], tot[m], failures)
                compare(f"{name} {norm} pooled {m}", src["pooled"][m], pooled[m], failures,
                        TOL_POOLED_AMI if m == "ami" else TOL)
    return len(per)


def main():
    if len(sys.argv) != 5 or sys.argv[1] != "--check":
        print(__doc__, file=sys.stderr)
        return 2
    tools, data, shared = sys.argv[2:]
    base = os.path.join(shared, "wsi", "semeval2010")
    if not os.path.isdir(base):
        print(f"{base} is absent; skipped")
        return 77
    pairs = [(os.path.join(data, "crisp-gold.key"), os.path.join(data, "crisp-clusters.key"))]
    gold = os.path.join(base, "keys", "all.key")
    for sub in ("systems", "baselines"):
        d = os.path.join(base, sub)
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if os.path.isfile(p) and f != "filesToSystemsMap":
                pairs.append((gold, p))
    failures = []
    for g, s in pairs:
        n = check_pair(tools, g, s, failures)
        print(f"{os.path.basename(s)}: {n} words")
    for f in failures[:50]:
        print("FAIL", f)
    print(f"{len(pairs)} files, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
