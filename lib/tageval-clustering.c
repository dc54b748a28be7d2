/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Clustering metrics of word sense induction (reference-wsi2013.md): the
 * crisp ones of scikit-learn (ARI, Rand, Fowlkes-Mallows, NMI, AMI) and
 * item-averaged B-cubed, each from a word's contingency table in time
 * linear in its cells (AMI: plus the expected mutual information, summed
 * once per pair of distinct marginal values); the fuzzy B-cubed and fuzzy
 * NMI of SemEval-2013 Task 13 from the graded memberships.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-util.h"
#include "tageval-wsi.h"

__extension__ typedef __int128 i128;

struct tageval_clustering_result {
	int fuzzy;
	size_t repeated; /* lines with a label twice (fuzzy) */
	size_t nwords;
	char **name;
	struct tageval_clustering_figures *fig;
	struct tageval_clustering_figures total, pooled;
};

void tageval_clustering_options_init(struct tageval_clustering_options *o)
{
	o->pos = NULL;
	o->mode = TAGEVAL_CLUSTERING_AUTO;
	o->normalizer = TAGEVAL_NORMALIZER_DEFAULT;
	o->metrics = 0;
}

void tageval_clustering_result_free(struct tageval_clustering_result *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nwords; i++)
		free(r->name[i]);
	free(r->name);
	free(r->fig);
	free(r);
}

int tageval_clustering_result_fuzzy(const struct tageval_clustering_result *r)
{
	return r->fuzzy;
}

size_t tageval_clustering_result_repeated(const struct tageval_clustering_result *r)
{
	return r->repeated;
}

size_t tageval_clustering_result_words(const struct tageval_clustering_result *r)
{
	return r->nwords;
}

const char *tageval_clustering_result_word(const struct tageval_clustering_result *r, size_t i)
{
	return i < r->nwords ? r->name[i] : NULL;
}

const struct tageval_clustering_figures *
tageval_clustering_result_figures(const struct tageval_clustering_result *r, size_t i)
{
	return i < r->nwords ? &r->fig[i] : NULL;
}

const struct tageval_clustering_figures *
tageval_clustering_result_total(const struct tageval_clustering_result *r)
{
	return &r->total;
}

const struct tageval_clustering_figures *
tageval_clustering_result_pooled(const struct tageval_clustering_result *r)
{
	return r->fuzzy ? NULL : &r->pooled;
}

static double normalize(enum tageval_normalizer which, double u, double v)
{
	switch (which) {
	case TAGEVAL_NORMALIZER_GEOMETRIC:
		return sqrt(u * v);
	case TAGEVAL_NORMALIZER_MIN:
		return u < v ? u : v;
	case TAGEVAL_NORMALIZER_MAX:
		return u > v ? u : v;
	default:
		return (u + v) / 2.0;
	}
}

/* ------------------------------------------------------------ crisp */

/* A contingency table as its non-zero cells (cluster k, class c, count n). */
struct ctab {
	size_t ncell;
	const uint32_t *k, *c;
	const uint64_t *n;
	size_t nk, nc;
	const uint64_t *kn, *cn; /* cluster and class sizes */
	uint64_t N;
};

/* log(k!) computed on demand with GSL's log-gamma; NaN marks "not yet".
 * The sums of one table only ask for k <= w and k >= N - w (w twice the
 * largest class or cluster), so only those two windows are kept: a
 * table of a million instances in small clusters needs a few KiB, not 8 MiB. */
struct lfact {
	double *v;  /* the log-factorial windows, then lg */
	double *lg; /* log(k) for k <= w (in the same block as v) */
	size_t cap;
	uint64_t N, w;
	int whole; /* one window [0, N] */
};

static double lf(struct lfact *t, uint64_t k)
{
	double *p = &t->v[t->whole || k <= t->w ? k : t->w + 1 + (k - (t->N - t->w))];
	if (isnan(*p))
		*p = gsl_sf_lngamma((double)k + 1.0);
	return *p;
}

/* log(k) for 1 <= k <= w, computed on demand as lf() does. */
static double lg(struct lfact *t, uint64_t k)
{
	double *p = &t->lg[k];
	if (isnan(*p))
		*p = log((double)k);
	return *p;
}

static int lfact_reserve(struct lfact *t, uint64_t N, uint64_t maxsize)
{
	uint64_t w = 2 * maxsize;
	t->whole = N <= 2 * w + 1;
	size_t nlf = t->whole ? N + 1 : 2 * w + 2;
	size_t need = nlf + w + 1;
	if (need > t->cap) {
		double *v = realloc(t->v, need * sizeof *v);
		if (v == NULL)
			return -1;
		t->v = v;
		t->cap = need;
	}
	for (size_t i = 0; i < need; i++)
		t->v[i] = NAN;
	t->lg = t->v + nlf;
	t->N = N;
	t->w = w;
	return 0;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Distinct values of @v (sorted in place) and their multiplicities. */
static size_t distinct(uint64_t *v, size_t n, uint64_t *mult)
{
	qsort(v, n, sizeof *v, by_u64);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && v[m - 1] == v[i]) {
			mult[m - 1]++;
			continue;
		}
		v[m] = v[i];
		mult[m++] = 1;
	}
	return m;
}

/* The terms of the hypergeometric sum that are below this probability are
 * left out: each term is at most ln(N^2) times its probability, and the
 * probabilities fall off geometrically beyond the mode. */
#define EMI_TINY 1e-24

/* Sum over n of (n/N) ln(N n / (a b)) P(n), P hypergeometric (a, b, N), walking
 * out from the mode while the probabilities matter. */
static double emi_pair(struct lfact *t, uint64_t a, uint64_t b, uint64_t N)
{
	uint64_t lo = a + b > N ? a + b - N : 0;
	if (lo < 1)
		lo = 1;
	uint64_t hi = a < b ? a : b;
	if (lo > hi)
		return 0.0;
	double dN = (double)N;
	double base = lf(t, a) + lf(t, b) + lf(t, N - a) + lf(t, N - b) - lf(t, N);
	double la = lg(t, a), lb = lg(t, b), lN = log(dN);
	double mode = floor(((double)a + 1.0) * ((double)b + 1.0) / (dN + 2.0));
	uint64_t m = mode < (double)lo ? lo : mode > (double)hi ? hi : (uint64_t)mode;
	double sum = 0.0;
	for (uint64_t n = m; n <= hi; n++) {
		double lp = base - lf(t, n) - lf(t, a - n) - lf(t, b - n) - lf(t, N - a - b + n);
		double p = exp(lp);
		sum += (double)n / dN * (lN + lg(t, n) - la - lb) * p;
		if (p < EMI_TINY && n > m)
			break;
	}
	for (uint64_t n = m; n-- > lo;) {
		double lp = base - lf(t, n) - lf(t, a - n) - lf(t, b - n) - lf(t, N - a - b + n);
		double p = exp(lp);
		sum += (double)n / dN * (lN + lg(t, n) - la - lb) * p;
		if (p < EMI_TINY)
			break;
	}
	return sum;
}

/* Expected mutual information under the permutation model: the sum over
 * every pair (class, cluster), done once per pair of distinct sizes. */
static int emi(const struct ctab *t, struct lfact *lft, double *out)
{
	*out = 0.0;
	if (t->nk <= 1 || t->nc <= 1)
		return 0;
	uint64_t *a = malloc(t->nc * sizeof *a), *am = malloc(t->nc * sizeof *am);
	uint64_t *b = malloc(t->nk * sizeof *b), *bm = malloc(t->nk * sizeof *bm);
	int rc = -1;
	if (!a || !am || !b || !bm)
		goto out;
	memcpy(a, t->cn, t->nc * sizeof *a);
	memcpy(b, t->kn, t->nk * sizeof *b);
	size_t na = distinct(a, t->nc, am), nb = distinct(b, t->nk, bm);
	if (lfact_reserve(lft, t->N, a[na - 1] > b[nb - 1] ? a[na - 1] : b[nb - 1]))
		goto out;
	double sum = 0.0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			sum += (double)(am[i] * bm[j]) * emi_pair(lft, a[i], b[j], t->N);
	*out = sum;
	rc = 0;
out:
	free(a);
	free(am);
	free(b);
	free(bm);
	return rc;
}

/* Entropy (natural log) of the sizes @v of a partition of N, as scikit-learn. */
static double entropy(const uint64_t *v, size_t n, uint64_t N)
{
	if (n <= 1)
		return 0.0;
	double lN = log((double)N);
	struct tv_fsum h;
	tv_fsum_init(&h);
	for (size_t i = 0; i < n; i++)
		tv_fsum_add(&h, -((double)v[i] / (double)N * (log((double)v[i]) - lN)));
	return tv_fsum_result(&h);
}

static int crisp_metrics(const struct ctab *t, enum tageval_normalizer norm, struct lfact *lft,
			 unsigned metrics, struct tageval_clustering_figures *f)
{
	uint64_t N = t->N;
	i128 S = 0, A2 = 0, B2 = 0;
	/* exact sums: the order of the cells (of first appearance) does not matter */
	struct tv_fsum smi, spP, spR;
	tv_fsum_init(&smi);
	tv_fsum_init(&spP);
	tv_fsum_init(&spR);
	double dN = (double)N, lN = log(dN);
	for (size_t i = 0; i < t->nc; i++)
		A2 += (i128)t->cn[i] * t->cn[i];
	for (size_t i = 0; i < t->nk; i++)
		B2 += (i128)t->kn[i] * t->kn[i];
	for (size_t i = 0; i < t->ncell; i++) {
		uint64_t n = t->n[i], a = t->cn[t->c[i]], b = t->kn[t->k[i]];
		S += (i128)n * n;
		double dn = (double)n;
		tv_fsum_add(&spP, dn * dn / (double)b);
		tv_fsum_add(&spR, dn * dn / (double)a);
		/* scikit-learn's form of each term */
		double cnm = dn / dN;
		double term = cnm * (log(dn) - lN) + cnm * ((-log((double)a * (double)b) + lN) + lN);
		if (fabs(term) >= DBL_EPSILON)
			tv_fsum_add(&smi, term);
	}
	double mi = tv_fsum_result(&smi), pP = tv_fsum_result(&spP), pR = tv_fsum_result(&spR);
	if (t->nk <= 1 || t->nc <= 1 || mi < 0.0)
		mi = 0.0;
	f->instances = (size_t)N;
	/* pair counts over ordered pairs */
	i128 tp = S - (i128)N, fn = A2 - S, fp = B2 - S;
	i128 tn = (i128)N * (i128)N - (i128)N - tp - fn - fp;
	if (fn == 0 && fp == 0)
		f->ari = 1.0;
	else
		f->ari = 2.0 * (double)(tp * tn - fn * fp) /
			 (double)((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
	i128 rnum = tp + tn, rden = (i128)N * (i128)N - (i128)N;
	f->rand = (rnum == rden || rden == 0) ? 1.0 : (double)rnum / (double)rden;
	i128 pk = B2 - (i128)N, qk = A2 - (i128)N;
	f->fowlkes_mallows = tp != 0 ? sqrt((double)tp / (double)pk) * sqrt((double)tp / (double)qk)
				     : 0.0;
	double hc = entropy(t->cn, t->nc, N), hk = entropy(t->kn, t->nk, N);
	double den = normalize(norm, hc, hk);
	if ((t->nk == 1 && t->nc == 1) || N == 0) {
		f->nmi = f->ami = 1.0;
	} else if (!(metrics & TAGEVAL_CLUSTERING_NMI)) {
		f->nmi = mi < DBL_EPSILON ? 0.0 : mi / den;
		f->ami = NAN;
	} else {
		f->nmi = mi < DBL_EPSILON ? 0.0 : mi / den;
		double e;
		if (emi(t, lft, &e))
			return TAGEVAL_ENOMEM;
		double d = den - e;
		if (fabs(d) <= 1e-12 * (den > 1.0 ? den : 1.0))
			f->ami = (fn == 0 && fp == 0) ? 1.0 : NAN;
		else
			f->ami = (mi - e) / d;
	}
	f->bcubed_precision = N ? pP / dN : 0.0;
	f->bcubed_recall = N ? pR / dN : 0.0;
	double p = f->bcubed_precision, r = f->bcubed_recall;
	f->bcubed_fscore = p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
	return TAGEVAL_OK;
}

int tageval_clustering_table(const double *n, size_t nclusters, size_t nclasses,
			     enum tageval_normalizer norm, struct tageval_clustering_figures *out)
{
	memset(out, 0, sizeof *out);
	if (nclusters == 0 || nclasses == 0)
		return TAGEVAL_EINVAL;
	size_t cells = nclusters * nclasses;
	for (size_t i = 0; i < cells; i++)
		if (!(n[i] >= 0.0) || n[i] > 9007199254740992.0 || n[i] != floor(n[i]))
			return TAGEVAL_EINVAL;
	uint32_t *k = malloc(cells * sizeof *k), *c = malloc(cells * sizeof *c);
	uint64_t *v = malloc(cells * sizeof *v);
	uint64_t *kn = calloc(nclusters, sizeof *kn), *cn = calloc(nclasses, sizeof *cn);
	uint32_t *kmap = malloc(nclusters * sizeof *kmap), *cmap = malloc(nclasses * sizeof *cmap);
	struct lfact lft = { 0 };
	int rc = TAGEVAL_ENOMEM;
	if (!k || !c || !v || !kn || !cn || !kmap || !cmap)
		goto out;
	uint64_t N = 0;
	for (size_t i = 0; i < nclusters; i++)
		for (size_t j = 0; j < nclasses; j++) {
			uint64_t x = (uint64_t)n[i * nclasses + j];
			kn[i] += x;
			cn[j] += x;
			N += x;
		}
	/* empty rows and columns are no clusters or classes */
	size_t nk = 0, nc = 0, ncell = 0;
	for (size_t i = 0; i < nclusters; i++) {
		kmap[i] = (uint32_t)nk;
		if (kn[i] > 0)
			kn[nk++] = kn[i];
	}
	for (size_t j = 0; j < nclasses; j++) {
		cmap[j] = (uint32_t)nc;
		if (cn[j] > 0)
			cn[nc++] = cn[j];
	}
	for (size_t i = 0; i < nclusters; i++)
		for (size_t j = 0; j < nclasses; j++)
			if (n[i * nclasses + j] > 0.0) {
				k[ncell] = kmap[i];
				c[ncell] = cmap[j];
				v[ncell++] = (uint64_t)n[i * nclasses + j];
			}
	struct ctab t = { .ncell = ncell, .k = k, .c = c, .n = v, .nk = nk, .nc = nc,
			  .kn = kn, .cn = cn, .N = N };
	if (norm == TAGEVAL_NORMALIZER_DEFAULT)
		norm = TAGEVAL_NORMALIZER_ARITHMETIC;
	rc = crisp_metrics(&t, norm, &lft, ~0u, out);
	out->bcubed_precision = N ? out->bcubed_precision : 0.0;
	out->avg = sqrt(out->bcubed_fscore * out->nmi);
out:
	free(k);
	free(c);
	free(v);
	free(kn);
	free(cn);
	free(kmap);
	free(cmap);
	free(lft.v);
	return rc;
}

/* ------------------------------------------------------------ fuzzy */

/* One word's memberships: instance i's gold labels glab[goff[i] .. goff[i+1])
 * with memberships gval (local label ids, sorted), likewise the system's;
 * instances 0 .. ngold-1 are the gold ones. */
struct fword {
	size_t ni, ngold;
	const size_t *goff, *soff;
	const uint32_t *glab, *slab;
	const double *gval, *sval;
	size_t ngl, nsl; /* local labels */
};

/* Agreement of two sorted label lists; *shared: do they share a label. */
static double agree(const uint32_t *l1, const double *v1, size_t n1, const uint32_t *l2,
		    const double *v2, size_t n2, int *shared)
{
	double a = 0.0;
	size_t i = 0, j = 0;
	*shared = 0;
	while (i < n1 && j < n2) {
		if (l1[i] < l2[j]) {
			i++;
		} else if (l1[i] > l2[j]) {
			j++;
		} else {
			*shared = 1;
			a += 1.0 - fabs(v1[i] - v2[j]);
			i++;
			j++;
		}
	}
	return a;
}

static uint64_t mask_of(const uint32_t *l, size_t n)
{
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		m |= (uint64_t)1 << (l[i] & 63);
	return m;
}

/* Agreement from exact label masks (at most 64 labels) and dense rows. */
static double agree_dense(uint64_t shared, const double *x, const double *y)
{
	double a = 0.0;
	while (shared) {
		int k = __builtin_ctzll(shared);
		a += 1.0 - fabs(x[k] - y[k]);
		shared &= shared - 1;
	}
	return a;
}

/* A sum in twice the precision of a double (a high and a low part): the
 * product c x and the sum are each split into their rounded value and its
 * exact error (fma; Knuth's two-sum), so that grouping the instances does
 * not add rounding to what the pairwise definition sums. */
struct dd {
	double hi, lo;
};

static inline void dd_add(struct dd *s, double c, double x)
{
	double p = c * x, pe = fma(c, x, -p);
	double t = s->hi + p, z = t - s->hi;
	s->lo += (s->hi - (t - z)) + (p - z) + pe;
	s->hi = t;
}

static inline double dd_value(const struct dd *s)
{
	return s->hi + s->lo;
}

/* Adds the contributions of the pairs between groups a and b (ca and cb
 * instances, every pair alike) given their agreements and whether they
 * share a gold sense (gs) or a system cluster (ss). */
static inline void bcubed_pair(size_t a, size_t b, double ca, double cb, int gs, int ss,
			       double ag, double at, struct dd *rnum, double *rden, struct dd *pnum,
			       double *pden)
{
	double lo = ag < at ? ag : at;
	if (gs) {
		rden[a] += cb;
		rden[b] += ca;
		if (ag > 0.0) {
			dd_add(&rnum[a], cb, lo / ag);
			dd_add(&rnum[b], ca, lo / ag);
		}
	}
	if (ss) {
		pden[a] += cb;
		pden[b] += ca;
		if (at > 0.0) {
			dd_add(&pnum[a], cb, lo / at);
			dd_add(&pnum[b], ca, lo / at);
		}
	}
}

/* An instance's profile: gold or extra, its gold and system maps. */
static uint64_t profile_hash(const struct fword *w, size_t i)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ (i < w->ngold);
	for (size_t e = w->goff[i]; e < w->goff[i + 1]; e++) {
		uint64_t v;
		memcpy(&v, &w->gval[e], sizeof v);
		h = (h ^ w->glab[e]) * 0x100000001b3u;
		h = (h ^ v) * 0xff51afd7ed558ccdu;
		h ^= h >> 29;
	}
	h = (h ^ 0x5555u) * 0xc4ceb9fe1a85ec53u;
	for (size_t e = w->soff[i]; e < w->soff[i + 1]; e++) {
		uint64_t v;
		memcpy(&v, &w->sval[e], sizeof v);
		h = (h ^ w->slab[e]) * 0x100000001b3u;
		h = (h ^ v) * 0xff51afd7ed558ccdu;
		h ^= h >> 29;
	}
	return h;
}

static int same_list(const uint32_t *l1, const double *v1, size_t n1, const uint32_t *l2,
		     const double *v2, size_t n2)
{
	if (n1 != n2)
		return 0;
	for (size_t e = 0; e < n1; e++)
		if (l1[e] != l2[e] || memcmp(&v1[e], &v2[e], sizeof v1[e]) != 0)
			return 0;
	return 1;
}

static int same_profile(const struct fword *w, size_t i, size_t j)
{
	return (i < w->ngold) == (j < w->ngold) &&
	       same_list(w->glab + w->goff[i], w->gval + w->goff[i], w->goff[i + 1] - w->goff[i],
			 w->glab + w->goff[j], w->gval + w->goff[j], w->goff[j + 1] - w->goff[j]) &&
	       same_list(w->slab + w->soff[i], w->sval + w->soff[i], w->soff[i + 1] - w->soff[i],
			 w->slab + w->soff[j], w->sval + w->soff[j], w->soff[j + 1] - w->soff[j]);
}

struct hidx {
	uint64_t h;
	uint32_t i;
};

static int by_hidx(const void *a, const void *b)
{
	const struct hidx *x = a, *y = b;
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* fuzzy_bcubed's groups of instances of one profile, and what each
 * receives. */
struct bgroups {
	size_t ng;
	uint32_t *rep;      /* an instance of each group */
	double *cnt;        /* the group's size */
	uint64_t *gm, *sm;  /* the masks of its gold and system labels */
	struct dd *rnum, *pnum;
	double *rden, *pden;
};

/* The instances grouped by profile (@hs: scratch of ni); returns the number
 * of groups, each with an instance in @rep and its size in @cnt. */
static size_t group_profiles(const struct fword *w, struct hidx *hs, uint32_t *rep, double *cnt)
{
	size_t ni = w->ni;
	for (size_t i = 0; i < ni; i++)
		hs[i] = (struct hidx){ profile_hash(w, i), (uint32_t)i };
	qsort(hs, ni, sizeof *hs, by_hidx);
	/* the groups: within a run of equal hashes, each instance joins the
	 * first group of that run with its profile */
	size_t ng = 0;
	for (size_t k = 0, run = 0; k < ni; k++) {
		if (k > 0 && hs[k].h != hs[k - 1].h)
			run = ng;
		size_t g = run;
		while (g < ng && !same_profile(w, rep[g], hs[k].i))
			g++;
		if (g == ng) {
			rep[ng] = hs[k].i;
			cnt[ng++] = 0.0;
		}
		cnt[g] += 1.0;
	}
	return ng;
}

/* Each group's masks, and the pairs within it. */
static void within_groups(const struct fword *w, struct bgroups *b)
{
	for (size_t a = 0; a < b->ng; a++) {
		size_t i = b->rep[a];
		b->gm[a] = mask_of(w->glab + w->goff[i], w->goff[i + 1] - w->goff[i]);
		b->sm[a] = mask_of(w->slab + w->soff[i], w->soff[i + 1] - w->soff[i]);
		/* the pairs within the group: A(x, x) is the number of labels */
		double ca = b->cnt[a] - 1.0;
		size_t gn = w->goff[i + 1] - w->goff[i], sn = w->soff[i + 1] - w->soff[i];
		if (ca > 0.0)
			bcubed_pair(a, a, 0.0, ca, gn > 0, sn > 0, (double)gn, (double)sn, b->rnum,
				    b->rden, b->pnum, b->pden);
	}
}

/* The pairs between groups, from dense membership rows @gd and @sd (the
 * masks exact: at most 64 labels a side). */
static void pairs_dense(const struct fword *w, const struct bgroups *b, double *gd, double *sd)
{
	size_t ng = b->ng;
	const uint32_t *rep = b->rep;
	const uint64_t *gm = b->gm, *sm = b->sm;
	for (size_t a = 0; a < ng; a++) {
		size_t i = rep[a];
		for (size_t e = w->goff[i]; e < w->goff[i + 1]; e++)
			gd[a * w->ngl + w->glab[e]] = w->gval[e];
		for (size_t e = w->soff[i]; e < w->soff[i + 1]; e++)
			sd[a * w->nsl + w->slab[e]] = w->sval[e];
	}
	for (size_t a = 0; a < ng; a++)
		for (size_t c = a + 1; c < ng; c++) {
			uint64_t g = gm[a] & gm[c], t = sm[a] & sm[c];
			if (!(g | t))
				continue;
			double ag = g ? agree_dense(g, gd + a * w->ngl, gd + c * w->ngl) : 0.0;
			double at = t ? agree_dense(t, sd + a * w->nsl, sd + c * w->nsl) : 0.0;
			bcubed_pair(a, c, b->cnt[a], b->cnt[c], g != 0, t != 0, ag, at, b->rnum,
				    b->rden, b->pnum, b->pden);
		}
}

/* The pairs between groups, from their sorted label lists (the masks a
 * filter only). */
static void pairs_sparse(const struct fword *w, const struct bgroups *b)
{
	size_t ng = b->ng;
	const uint32_t *rep = b->rep;
	const uint64_t *gm = b->gm, *sm = b->sm;
	for (size_t a = 0; a < ng; a++) {
		size_t i = rep[a];
		const uint32_t *gl = w->glab + w->goff[i], *sl = w->slab + w->soff[i];
		const double *gv = w->gval + w->goff[i], *sv = w->sval + w->soff[i];
		size_t gn = w->goff[i + 1] - w->goff[i], sn = w->soff[i + 1] - w->soff[i];
		for (size_t c = a + 1; c < ng; c++) {
			size_t j = rep[c];
			if (!(gm[a] & gm[c]) && !(sm[a] & sm[c]))
				continue;
			int gs = 0, ss = 0;
			double ag = 0.0, at = 0.0;
			if (gm[a] & gm[c])
				ag = agree(gl, gv, gn, w->glab + w->goff[j], w->gval + w->goff[j],
					   w->goff[j + 1] - w->goff[j], &gs);
			if (sm[a] & sm[c])
				at = agree(sl, sv, sn, w->slab + w->soff[j], w->sval + w->soff[j],
					   w->soff[j + 1] - w->soff[j], &ss);
			bcubed_pair(a, c, b->cnt[a], b->cnt[c], gs, ss, ag, at, b->rnum, b->rden,
				    b->pnum, b->pden);
		}
	}
}

/*
 * Fuzzy B-cubed of one word (reference-wsi2013.md section 3).  By definition
 * every pair of the word's instances takes part, but two instances with the
 * same profile (the same gold map and the same system map) contribute alike
 * to every other instance and receive alike: the instances are grouped by
 * profile (a sort of n hashes, exact comparison within equal hashes) and
 * the pairs are taken between the D distinct profiles, each weighted by the
 * two group sizes, plus once within each group (agreement there: the number
 * of labels).  Cost per word: n log n + D(D-1)/2 mask tests and one or two
 * agreements per pair of profiles that share a label; D = n (every
 * instance a profile of its own) is the quadratic worst case of the
 * definition, few distinct memberships (crisp-like words) make it linear.
 */
static int fuzzy_bcubed(const struct fword *w, double *P, double *R)
{
	size_t ni = w->ni, one = ni ? ni : 1;
	struct hidx *hs = malloc(one * sizeof *hs);
	struct bgroups b = { 0 };
	b.rep = malloc(one * sizeof *b.rep);
	b.cnt = malloc(one * sizeof *b.cnt);
	b.rnum = calloc(one, sizeof *b.rnum), b.pnum = calloc(one, sizeof *b.pnum);
	b.rden = calloc(one, sizeof *b.rden), b.pden = calloc(one, sizeof *b.pden);
	b.gm = malloc(one * sizeof *b.gm), b.sm = malloc(one * sizeof *b.sm);
	double *gd = NULL, *sd = NULL;
	int rc = -1;
	if (!hs || !b.rep || !b.cnt || !b.rnum || !b.pnum || !b.rden || !b.pden || !b.gm || !b.sm)
		goto out;
	size_t ng = b.ng = group_profiles(w, hs, b.rep, b.cnt);
	within_groups(w, &b);
	if (w->ngl <= 64 && w->nsl <= 64 && ng <= 65536) {
		/* the masks are exact: dense membership rows */
		gd = calloc(ng * w->ngl + 1, sizeof *gd);
		sd = calloc(ng * w->nsl + 1, sizeof *sd);
	}
	if (gd && sd)
		pairs_dense(w, &b, gd, sd);
	else
		pairs_sparse(w, &b);
	struct dd rs = { 0.0, 0.0 }, ps = { 0.0, 0.0 };
	for (size_t a = 0; a < ng; a++) {
		if (b.rep[a] < w->ngold && b.rden[a] > 0.0)
			dd_add(&rs, b.cnt[a], dd_value(&b.rnum[a]) / b.rden[a]);
		if (b.pden[a] > 0.0)
			dd_add(&ps, b.cnt[a], dd_value(&b.pnum[a]) / b.pden[a]);
	}
	*R = w->ngold ? dd_value(&rs) / (double)w->ngold : 0.0;
	*P = w->ngold ? dd_value(&ps) / (double)w->ngold : 0.0;
	rc = 0;
out:
	free(hs), free(b.rep), free(b.cnt), free(b.rnum), free(b.pnum), free(b.rden), free(b.pden);
	free(b.gm), free(b.sm), free(gd), free(sd);
	return rc;
}

/* The jar's bins: the smallest k in 1..10 with v <= k/10, minus 1. */
static int fbin(double v)
{
	for (int k = 1; k <= 10; k++)
		if (v <= k / 10.0)
			return k - 1;
	return 9;
}

static double hlog2(const size_t *count, size_t n, double N)
{
	double h = 0.0;
	for (size_t i = 0; i < n; i++)
		if (count[i] > 0) {
			double p = (double)count[i] / N;
			h -= p * log(p) / log(2.0);
		}
	return h;
}

static double xlnx(double p)
{
	return p > 0.0 ? -p * log(p) : 0.0;
}

/* Vectors per label: the instances and memberships of each local label. */
struct fvec {
	size_t *off;   /* nl + 1 */
	uint32_t *inst;
	double *val;
	double *h;     /* entropy of each */
	double *cond;  /* H(x | other side), the minimum over candidates */
	int *cand;
};

static void fvec_free(struct fvec *v)
{
	free(v->off), free(v->inst), free(v->val), free(v->h), free(v->cond), free(v->cand);
}

static int fvec_build(struct fvec *v, size_t nl, size_t ni, const size_t *off,
		      const uint32_t *lab, const double *val)
{
	size_t ne = off[ni];
	v->off = calloc(nl + 1, sizeof *v->off);
	v->inst = malloc((ne ? ne : 1) * sizeof *v->inst);
	v->val = malloc((ne ? ne : 1) * sizeof *v->val);
	v->h = calloc(nl ? nl : 1, sizeof *v->h);
	v->cond = calloc(nl ? nl : 1, sizeof *v->cond);
	v->cand = calloc(nl ? nl : 1, sizeof *v->cand);
	if (!v->off || !v->inst || !v->val || !v->h || !v->cond || !v->cand)
		return -1;
	for (size_t e = 0; e < ne; e++)
		v->off[lab[e] + 1]++;
	for (size_t l = 0; l < nl; l++)
		v->off[l + 1] += v->off[l];
	size_t *pos = malloc((nl ? nl : 1) * sizeof *pos);
	if (pos == NULL)
		return -1;
	memcpy(pos, v->off, nl * sizeof *pos);
	for (size_t i = 0; i < ni; i++)
		for (size_t e = off[i]; e < off[i + 1]; e++) {
			size_t p = pos[lab[e]]++;
			v->inst[p] = (uint32_t)i;
			v->val[p] = val[e];
		}
	free(pos);
	double N = (double)ni;
	for (size_t l = 0; l < nl; l++) {
		size_t count[10] = { 0 };
		size_t n = v->off[l + 1] - v->off[l];
		count[0] = ni - n;
		for (size_t e = v->off[l]; e < v->off[l + 1]; e++)
			count[fbin(v->val[e])]++;
		v->h[l] = hlog2(count, 10, N);
	}
	return 0;
}

/* Fuzzy NMI of one word (reference-wsi2013.md section 4); NaN when the
 * normalizer is 0. */
static int fuzzy_nmi(const struct fword *w, enum tageval_normalizer norm, double *out)
{
	struct fvec g = { 0 }, s = { 0 };
	size_t ni = w->ni;
	double *dense = calloc(ni ? ni : 1, sizeof *dense);
	int *has = calloc(ni ? ni : 1, sizeof *has);
	size_t *mark = calloc(ni ? ni : 1, sizeof *mark);
	int rc = -1;
	if (!dense || !has || !mark || fvec_build(&g, w->ngl, ni, w->goff, w->glab, w->gval) ||
	    fvec_build(&s, w->nsl, ni, w->soff, w->slab, w->sval))
		goto out;
	double N = (double)ni;
	size_t stamp = 0;
	for (size_t a = 0; a < w->ngl; a++) {
		for (size_t e = g.off[a]; e < g.off[a + 1]; e++) {
			dense[g.inst[e]] = g.val[e];
			has[g.inst[e]] = 1;
		}
		for (size_t b = 0; b < w->nsl; b++) {
			size_t count[100] = { 0 };
			size_t seen = 0, pp = 0, pm = 0, mp = 0;
			stamp++;
			for (size_t e = s.off[b]; e < s.off[b + 1]; e++) {
				uint32_t i = s.inst[e];
				double x = has[i] ? dense[i] : 0.0, y = s.val[e];
				count[fbin(x) * 10 + fbin(y)]++;
				mark[i] = stamp;
				seen++;
				pp += x > 0.0 && y > 0.0;
				pm += x > 0.0 && !(y > 0.0);
				mp += !(x > 0.0) && y > 0.0;
			}
			for (size_t e = g.off[a]; e < g.off[a + 1]; e++) {
				if (mark[g.inst[e]] == stamp)
					continue;
				count[fbin(g.val[e]) * 10]++;
				seen++;
				pm += g.val[e] > 0.0;
			}
			count[0] += ni - seen;
			size_t mm = ni - pp - pm - mp;
			if (xlnx((double)pp / N) + xlnx((double)mm / N) <
			    xlnx((double)pm / N) + xlnx((double)mp / N))
				continue; /* the complement rule: no candidate */
			double hj = hlog2(count, 100, N);
			double hgs = hj - s.h[b], hsg = hj - g.h[a];
			if (!g.cand[a] || hgs < g.cond[a])
				g.cond[a] = hgs;
			if (!s.cand[b] || hsg < s.cond[b])
				s.cond[b] = hsg;
			g.cand[a] = s.cand[b] = 1;
		}
		for (size_t e = g.off[a]; e < g.off[a + 1]; e++)
			has[g.inst[e]] = 0;
	}
	double HG = 0.0, HT = 0.0, HGT = 0.0, HTG = 0.0;
	for (size_t a = 0; a < w->ngl; a++) {
		HG += g.h[a];
		HGT += g.cand[a] ? g.cond[a] : g.h[a];
	}
	for (size_t b = 0; b < w->nsl; b++) {
		HT += s.h[b];
		HTG += s.cand[b] ? s.cond[b] : s.h[b];
	}
	double mi = 0.5 * (HG - HGT + HT - HTG);
	double den = normalize(norm, HG, HT);
	*out = den > 0.0 ? mi / den : NAN;
	rc = 0;
out:
	fvec_free(&g);
	fvec_free(&s);
	free(dense);
	free(has);
	free(mark);
	return rc;
}

/* SemEval-2013's AVG: the geometric mean of B-cubed F and NMI of one set of
 * figures (NaN when either is, or is not computed). */
static void set_average(struct tageval_clustering_figures *f, unsigned metrics)
{
	f->avg = (metrics & TAGEVAL_CLUSTERING_BCUBED) && (metrics & TAGEVAL_CLUSTERING_NMI)
			 ? sqrt(f->bcubed_fscore * f->nmi)
			 : NAN;
}

static int fuzzy_word(const struct fword *w, enum tageval_normalizer norm, unsigned metrics,
		      struct tageval_clustering_figures *f)
{
	f->instances = w->ngold;
	f->ari = f->rand = f->fowlkes_mallows = f->ami = NAN;
	if (w->soff[w->ni] == 0) {
		/* a word missing from the system key */
		f->bcubed_precision = f->bcubed_recall = f->bcubed_fscore = f->nmi = 0.0;
		return 0;
	}
	f->nmi = f->bcubed_precision = f->bcubed_recall = NAN;
	if ((metrics & TAGEVAL_CLUSTERING_BCUBED) &&
	    fuzzy_bcubed(w, &f->bcubed_precision, &f->bcubed_recall))
		return -1;
	if ((metrics & TAGEVAL_CLUSTERING_NMI) && fuzzy_nmi(w, norm, &f->nmi))
		return -1;
	double p = f->bcubed_precision, r = f->bcubed_recall;
	f->bcubed_fscore = isnan(p) ? NAN : p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
	return 0;
}

/* Sorts each instance's labels.  A label repeated within a line is kept
 * once and, as in the SemEval-2013 jars (reference-wsi2013.md 2.2), every
 * membership of that line becomes 1; the offsets are rewritten and the
 * number of such lines returned. */
struct lv {
	uint32_t l;
	double v;
};

static int by_lv(const void *a, const void *b)
{
	uint32_t x = ((const struct lv *)a)->l, y = ((const struct lv *)b)->l;
	return (x > y) - (x < y);
}

static size_t sort_lists(size_t ni, size_t *off, uint32_t *lab, double *val, struct lv *tmp)
{
	size_t out = 0, repeated = 0, from = off[0];
	for (size_t i = 0; i < ni; i++) {
		size_t n = off[i + 1] - from;
		for (size_t e = 0; e < n; e++)
			tmp[e] = (struct lv){ lab[from + e], val[from + e] };
		from = off[i + 1];
		qsort(tmp, n, sizeof *tmp, by_lv);
		size_t first = out;
		int dup = 0;
		for (size_t e = 0; e < n; e++) {
			if (e > 0 && tmp[e].l == tmp[e - 1].l) {
				dup = 1;
				continue;
			}
			lab[out] = tmp[e].l;
			val[out++] = tmp[e].v;
		}
		if (dup) {
			repeated++;
			for (size_t e = first; e < out; e++)
				val[e] = 1.0;
		}
		off[i + 1] = out;
	}
	return repeated;
}

/* A membership's label and place, sorted to give labels their local ids. */
struct label_at {
	size_t label, e;
};

static int by_label_at(const void *a, const void *b)
{
	const struct label_at *x = a, *y = b;
	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

static int by_e(const void *a, const void *b)
{
	const struct label_at *x = a, *y = b;
	return (x->e > y->e) - (x->e < y->e);
}

/*
 * The local id of each of one side's @n memberships @m (its label's rank in
 * order of first appearance) into @local, returning the number of distinct
 * labels, and the number of each instance's memberships into
 * off[instance + 1].  Sorted, not searched: O(n log n) whatever the labels.
 * @tmp and @first have room for n.
 */
static size_t side_ids(const struct tageval_membership *m, size_t n, uint32_t *local,
		       size_t *off, struct label_at *tmp, struct label_at *first)
{
	for (size_t e = 0; e < n; e++) {
		tmp[e] = (struct label_at){ m[e].label, e };
		off[m[e].instance + 1]++;
	}
	/* each label's memberships together, its first one leading */
	qsort(tmp, n, sizeof *tmp, by_label_at);
	size_t nl = 0;
	for (size_t k = 0; k < n; k++)
		if (k == 0 || tmp[k].label != tmp[k - 1].label)
			first[nl++] = (struct label_at){ k, tmp[k].e }; /* where its run starts */
	/* the labels in order of first appearance: the rank is the local id */
	qsort(first, nl, sizeof *first, by_e);
	for (size_t r = 0; r < nl; r++) {
		size_t k0 = first[r].label;
		for (size_t k = k0; k < n && tmp[k].label == tmp[k0].label; k++)
			local[tmp[k].e] = (uint32_t)r;
	}
	return nl;
}

/* One side's memberships as local label ids (@lab) and weights (@val), each
 * instance's at pos[instance] onwards. */
static void side_fill(const struct tageval_membership *m, size_t n, const uint32_t *local,
		      size_t *pos, uint32_t *lab, double *val)
{
	for (size_t e = 0; e < n; e++) {
		size_t p = pos[m[e].instance]++;
		lab[p] = local[e];
		val[p] = m[e].weight;
	}
}

int tageval_clustering_fuzzy_table(const struct tageval_membership *gold, size_t ngold,
				   const struct tageval_membership *sys, size_t nsys,
				   size_t instances, size_t gold_instances,
				   enum tageval_normalizer norm,
				   struct tageval_clustering_figures *out)
{
	memset(out, 0, sizeof *out);
	if (gold_instances > instances || instances > UINT32_MAX)
		return TAGEVAL_EINVAL;
	for (size_t e = 0; e < ngold; e++)
		if (gold[e].instance >= gold_instances || !(gold[e].weight >= 0.0) ||
		    gold[e].weight > 1.0)
			return TAGEVAL_EINVAL;
	for (size_t e = 0; e < nsys; e++)
		if (sys[e].instance >= instances || !(sys[e].weight >= 0.0) || sys[e].weight > 1.0)
			return TAGEVAL_EINVAL;
	size_t ni = instances;
	size_t *goff = calloc(ni + 1, sizeof *goff), *soff = calloc(ni + 1, sizeof *soff);
	uint32_t *glab = malloc((ngold ? ngold : 1) * sizeof *glab);
	uint32_t *slab = malloc((nsys ? nsys : 1) * sizeof *slab);
	double *gval = malloc((ngold ? ngold : 1) * sizeof *gval);
	double *sval = malloc((nsys ? nsys : 1) * sizeof *sval);
	struct lv *tmp = malloc((ngold + nsys + 1) * sizeof *tmp);
	uint32_t *gids = malloc((ngold ? ngold : 1) * sizeof *gids);
	uint32_t *sids = malloc((nsys ? nsys : 1) * sizeof *sids);
	size_t most = (ngold > nsys ? ngold : nsys) + 1;
	struct label_at *at = malloc(most * sizeof *at), *first = malloc(most * sizeof *first);
	int rc = TAGEVAL_ENOMEM;
	if (!goff || !soff || !glab || !slab || !gval || !sval || !tmp || !gids || !sids || !at ||
	    !first)
		goto out;
	/* local label ids: the distinct label numbers of each side, in order */
	size_t ngl = side_ids(gold, ngold, gids, goff, at, first);
	size_t nsl = side_ids(sys, nsys, sids, soff, at, first);
	for (size_t i = 0; i < ni; i++) {
		goff[i + 1] += goff[i];
		soff[i + 1] += soff[i];
	}
	size_t *gpos = calloc(ni + 1, sizeof *gpos), *spos = calloc(ni + 1, sizeof *spos);
	if (!gpos || !spos) {
		free(gpos), free(spos);
		goto out;
	}
	memcpy(gpos, goff, ni * sizeof *gpos);
	memcpy(spos, soff, ni * sizeof *spos);
	side_fill(gold, ngold, gids, gpos, glab, gval);
	side_fill(sys, nsys, sids, spos, slab, sval);
	free(gpos), free(spos);
	sort_lists(ni, goff, glab, gval, tmp);
	sort_lists(ni, soff, slab, sval, tmp);
	struct fword w = { .ni = ni, .ngold = gold_instances, .goff = goff, .soff = soff,
			   .glab = glab, .slab = slab, .gval = gval, .sval = sval,
			   .ngl = ngl, .nsl = nsl };
	if (norm == TAGEVAL_NORMALIZER_DEFAULT)
		norm = TAGEVAL_NORMALIZER_MAX;
	rc = fuzzy_word(&w, norm, ~0u, out) ? TAGEVAL_ENOMEM : TAGEVAL_OK;
out:
	free(goff), free(soff), free(glab), free(slab), free(gval), free(sval), free(tmp);
	free(gids), free(sids), free(at), free(first);
	return rc;
}

/* ------------------------------------------------------------ evaluation */

/* Growable arrays of the evaluation. */
struct scratch {
	uint32_t *kstamp, *klocal, *cstamp, *clocal;
	uint32_t gen;
	uint64_t *keys, *keys2;
	size_t keycap, key2cap;
	size_t *pos;
	size_t poscap;
	uint32_t *ck, *cc;
	uint64_t *cv, *kn, *cn;
	size_t cellcap, kcap, ccap;
	/* pooled table */
	uint32_t *pk, *pc;
	uint64_t *pv, *pkn, *pcn;
	size_t npcell, npk, npc, pcellcap, pkcap, pccap;
	/* fuzzy */
	size_t *goff, *soff;
	uint32_t *glab, *slab;
	double *gval, *sval;
	struct lv *tmp;
	size_t offcap, gcap, scap, gvcap, svcap, tmpcap;
	struct lfact lft;
};

static void scratch_free(struct scratch *t)
{
	free(t->kstamp), free(t->klocal), free(t->cstamp), free(t->clocal);
	free(t->keys), free(t->keys2), free(t->pos), free(t->ck), free(t->cc), free(t->cv), free(t->kn), free(t->cn);
	free(t->pk), free(t->pc), free(t->pv), free(t->pkn), free(t->pcn);
	free(t->goff), free(t->soff), free(t->glab), free(t->slab), free(t->gval), free(t->sval);
	free(t->tmp);
	free(t->lft.v);
}

static void next_gen(struct scratch *t, size_t nl)
{
	if (++t->gen == 0) {
		memset(t->kstamp, 0, nl * sizeof *t->kstamp);
		memset(t->cstamp, 0, nl * sizeof *t->cstamp);
		t->gen = 1;
	}
}

/* Room for @n items' keys (both buffers) and cells. */
static int crisp_grow(struct scratch *t, size_t n)
{
	if (tv_grow((void **)&t->keys, &t->keycap, n + 1, sizeof *t->keys) ||
	    tv_grow((void **)&t->keys2, &t->key2cap, n + 1, sizeof *t->keys2) ||
	    tv_grow((void **)&t->ck, &t->cellcap, n + 1, sizeof *t->ck))
		return -1;
	uint32_t *cc = realloc(t->cc, (t->cellcap) * sizeof *cc);
	if (cc == NULL)
		return -1;
	t->cc = cc;
	uint64_t *cv = realloc(t->cv, (t->cellcap) * sizeof *cv);
	if (cv == NULL)
		return -1;
	t->cv = cv;
	return 0;
}

/* Each item's (class, cluster) key, by local indices (counted into *nk and
 * *nc), and the sizes of the clusters and classes. */
static int crisp_keys(struct scratch *t, const struct tageval_wsi *w, const uint32_t *items,
		      size_t n, size_t *nk_out, size_t *nc_out)
{
	size_t nk = 0, nc = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 16 < n)
			__builtin_prefetch(&w->in[items[i + 16]]);
		const struct tv_winst *in = &w->in[items[i]];
		uint32_t k = tv_wsi_crisp_sys(w, items[i]), c = tv_wsi_crisp_gold(w, in);
		if (t->kstamp[k] != t->gen) {
			t->kstamp[k] = t->gen;
			t->klocal[k] = (uint32_t)nk++;
			if (tv_grow((void **)&t->kn, &t->kcap, nk, sizeof *t->kn))
				return -1;
			t->kn[nk - 1] = 0;
		}
		if (t->cstamp[c] != t->gen) {
			t->cstamp[c] = t->gen;
			t->clocal[c] = (uint32_t)nc++;
			if (tv_grow((void **)&t->cn, &t->ccap, nc, sizeof *t->cn))
				return -1;
			t->cn[nc - 1] = 0;
		}
		uint64_t kl = t->klocal[k], cl = t->clocal[c];
		t->kn[kl]++;
		t->cn[cl]++;
		t->keys[i] = cl << 32 | kl; /* class-major, the order scikit-learn sums in */
	}
	*nk_out = nk;
	*nc_out = nc;
	return 0;
}

/* The keys sorted by a counting sort on the cluster, then a stable one on
 * the class (linear in n + clusters + classes), and counted into cells (their
 * number into *ncell). */
static int crisp_cells(struct scratch *t, size_t n, size_t nk, size_t nc, size_t *ncell)
{
	if (tv_grow((void **)&t->pos, &t->poscap, (nk > nc ? nk : nc) + 1, sizeof *t->pos))
		return -1;
	size_t acc = 0;
	for (size_t k = 0; k < nk; k++) {
		t->pos[k] = acc;
		acc += t->kn[k];
	}
	for (size_t i = 0; i < n; i++)
		t->keys2[t->pos[t->keys[i] & 0xffffffffu]++] = t->keys[i];
	acc = 0;
	for (size_t c = 0; c < nc; c++) {
		t->pos[c] = acc;
		acc += t->cn[c];
	}
	for (size_t i = 0; i < n; i++)
		t->keys[t->pos[t->keys2[i] >> 32]++] = t->keys2[i];
	size_t cells = 0;
	for (size_t i = 0; i < n; i++) {
		if (cells > 0 && t->keys[i] == t->keys[i - 1]) {
			t->cv[cells - 1]++;
			continue;
		}
		t->cc[cells] = (uint32_t)(t->keys[i] >> 32);
		t->ck[cells] = (uint32_t)(t->keys[i] & 0xffffffffu);
		t->cv[cells++] = 1;
	}
	*ncell = cells;
	return 0;
}

/* Appends word table @ct to the pooled table: its clusters and classes are
 * new ones. */
static int crisp_pool(struct scratch *t, const struct ctab *ct)
{
	size_t cells = ct->ncell, nk = ct->nk, nc = ct->nc;
	if (tv_grow((void **)&t->pk, &t->pcellcap, t->npcell + cells, sizeof *t->pk))
		return -1;
	uint32_t *pc = realloc(t->pc, t->pcellcap * sizeof *pc);
	if (pc == NULL)
		return -1;
	t->pc = pc;
	uint64_t *pv = realloc(t->pv, t->pcellcap * sizeof *pv);
	if (pv == NULL)
		return -1;
	t->pv = pv;
	if (tv_grow((void **)&t->pkn, &t->pkcap, t->npk + nk, sizeof *t->pkn) ||
	    tv_grow((void **)&t->pcn, &t->pccap, t->npc + nc, sizeof *t->pcn))
		return -1;
	for (size_t i = 0; i < cells; i++) {
		t->pk[t->npcell + i] = (uint32_t)(t->npk + t->ck[i]);
		t->pc[t->npcell + i] = (uint32_t)(t->npc + t->cc[i]);
		t->pv[t->npcell + i] = t->cv[i];
	}
	memcpy(t->pkn + t->npk, t->kn, nk * sizeof *t->kn);
	memcpy(t->pcn + t->npc, t->cn, nc * sizeof *t->cn);
	t->npcell += cells;
	t->npk += nk;
	t->npc += nc;
	return 0;
}

/* One word's crisp table, appended to the pooled one. */
static int crisp_table(struct scratch *t, const struct tageval_wsi *w, const uint32_t *items,
		       size_t n, struct ctab *out)
{
	next_gen(t, tv_wsi_nlabels(w));
	size_t nk = 0, nc = 0, cells = 0;
	if (crisp_grow(t, n) || crisp_keys(t, w, items, n, &nk, &nc) ||
	    crisp_cells(t, n, nk, nc, &cells))
		return -1;
	*out = (struct ctab){ .ncell = cells, .k = t->ck, .c = t->cc, .n = t->cv, .nk = nk,
			      .nc = nc, .kn = t->kn, .cn = t->cn, .N = n };
	/* the pooled table: this word's clusters and classes are new ones */
	return crisp_pool(t, out);
}

/* Appends a line's labels with their memberships (reference-wsi2013.md 2.2):
 * every label 1 unless every label has a weight, then weight / largest. */
static int add_labels(struct scratch *t, int gold, const struct tageval_wsi *w,
		      const uint32_t *lab, const double *wt, const struct tv_wlabel *wl, size_t n,
		      unsigned flags, size_t *pos, size_t *nl)
{
	uint32_t **labp = gold ? &t->glab : &t->slab;
	double **valp = gold ? &t->gval : &t->sval;
	size_t *lcap = gold ? &t->gcap : &t->scap, *vcap = gold ? &t->gvcap : &t->svcap;
	uint32_t *stamp = gold ? t->cstamp : t->kstamp, *local = gold ? t->clocal : t->klocal;
	if (tv_grow((void **)labp, lcap, *pos + n, sizeof **labp) ||
	    tv_grow((void **)valp, vcap, *pos + n, sizeof **valp))
		return -1;
	double max = 0.0;
	for (size_t i = 0; i < n; i++) {
		double x = wt ? wt[i] : wl ? wl[i].w : 1.0;
		if (x > max)
			max = x;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t l = lab ? lab[i] : wl[i].label;
		double x = wt ? wt[i] : wl ? wl[i].w : 1.0;
		if (stamp[l] != t->gen) {
			stamp[l] = t->gen;
			local[l] = (uint32_t)(*nl)++;
		}
		(*labp)[*pos] = local[l];
		(*valp)[*pos] = (flags & TV_WF_WEIGHTED) ? x / max : 1.0;
		(*pos)++;
	}
	(void)w;
	return 0;
}

static int line_error(struct tageval_error *err, const char *file, size_t line, const char *id,
		      const char *what)
{
	char q[80];
	tv_quote(q, sizeof q, id, strlen(id));
	return tv_error(err, TAGEVAL_EFORMAT, file ? file : "", line, "instance \"%s\" %s", q,
			what);
}

/* One word's memberships: its gold instances, then its extra instances. */
static int fuzzy_data(struct scratch *t, const struct tageval_wsi *w, const uint32_t *items,
		      size_t n, const uint32_t *xitems, size_t nx, struct fword *out,
		      size_t *repeated, struct tageval_error *err)
{
	size_t ni = n + nx;
	next_gen(t, tv_wsi_nlabels(w));
	if (tv_grow((void **)&t->goff, &t->offcap, ni + 1, sizeof *t->goff))
		return tv_nomem(err);
	size_t *soff = realloc(t->soff, t->offcap * sizeof *soff);
	if (soff == NULL)
		return tv_nomem(err);
	t->soff = soff;
	size_t gp = 0, sp = 0, ngl = 0, nsl = 0;
	t->goff[0] = t->soff[0] = 0;
	for (size_t i = 0; i < ni; i++) {
		if (i < n) {
			const struct tv_winst *in = &w->in[items[i]];
			if (w->gflags[items[i]] & TV_WF_ZERO)
				return line_error(err, w->gold_name, tv_wsi_gold_line(w, items[i]),
						  tv_intern_str(&w->ids, items[i]),
						  "has only weights of 0");
			const uint32_t *gl = tv_wsi_gold(w->gold_pool, in);
			const double *gw = in->gold_first == TV_NONE ? NULL
					   : w->gold_wpool + in->gold_first;
			if (add_labels(t, 1, w, gl, gw, NULL, tv_wsi_gold_n(w->gold_pool, in),
				       w->gflags[items[i]], &gp, &ngl))
				return tv_nomem(err);
			uint32_t nsys = tv_wsi_sys_n(w, items[i]);
			if (nsys) {
				if (w->sflags[items[i]] & TV_WF_ZERO)
					return line_error(err, w->sys_name,
							  tv_wsi_sys_line(w, items[i]),
							  tv_intern_str(&w->ids, items[i]),
							  "has only weights of 0");
				struct tv_wlabel one;
				const struct tv_wlabel *sl = tv_wsi_sys(w, items[i], &one);
				if (add_labels(t, 0, w, NULL, NULL, sl, nsys, w->sflags[items[i]], &sp,
					       &nsl))
					return tv_nomem(err);
			}
		} else {
			const struct tv_wextra *x = &w->extra[xitems[i - n]];
			if (x->flags & TV_WF_ZERO)
				return line_error(err, w->sys_name, x->line,
						  tv_intern_str(&w->xids, xitems[i - n]),
						  "has only weights of 0");
			if (add_labels(t, 0, w, NULL, NULL, w->sys_pool + x->sys_first, x->sys_n,
				       x->flags, &sp, &nsl))
				return tv_nomem(err);
		}
		t->goff[i + 1] = gp;
		t->soff[i + 1] = sp;
	}
	if (tv_grow((void **)&t->tmp, &t->tmpcap, (gp > sp ? gp : sp) + 1, sizeof *t->tmp))
		return tv_nomem(err);
	*repeated += sort_lists(ni, t->goff, t->glab, t->gval, t->tmp);
	*repeated += sort_lists(ni, t->soff, t->slab, t->sval, t->tmp);
	*out = (struct fword){ .ni = ni, .ngold = n, .goff = t->goff, .soff = t->soff,
			       .glab = t->glab, .slab = t->slab, .gval = t->gval,
			       .sval = t->sval, .ngl = ngl, .nsl = nsl };
	return TAGEVAL_OK;
}

/* An instance and its id, to put a word's instances in the order of their
 * ids (strcmp): then every per-word sum of the fuzzy metrics (the pairwise
 * B-cubed sums of each instance, the entropies over the labels, numbered
 * in order of first appearance) is done in an order that does not depend
 * on the order of the lines. */
struct idref {
	const char *id;
	uint32_t item;
};

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct idref *)a)->id, ((const struct idref *)b)->id);
}

/* @items[0..n) sorted by the ids of @in into @out (of n), using @ref. */
static void sort_by_id(const struct tv_intern *in, const uint32_t *items, size_t n,
		       struct idref *ref, uint32_t *out)
{
	for (size_t i = 0; i < n; i++)
		ref[i] = (struct idref){ tv_intern_str(in, items[i]), items[i] };
	qsort(ref, n, sizeof *ref, by_id);
	for (size_t i = 0; i < n; i++)
		out[i] = ref[i].item;
}

/* The weighted sums of the per-word figures, exact: the order of the words
 * does not matter. */
enum { S_ARI, S_RAND, S_FM, S_NMI, S_AMI, S_BP, S_BR, S_N };

/* Adds word figures @f, of weight @wn, to the sums. */
static void add_word(struct tv_fsum sum[S_N], const struct tageval_clustering_figures *f,
		     double wn)
{
	tv_fsum_add(&sum[S_ARI], wn * f->ari);
	tv_fsum_add(&sum[S_RAND], wn * f->rand);
	tv_fsum_add(&sum[S_FM], wn * f->fowlkes_mallows);
	tv_fsum_add(&sum[S_NMI], wn * f->nmi);
	tv_fsum_add(&sum[S_AMI], wn * f->ami);
	tv_fsum_add(&sum[S_BP], wn * f->bcubed_precision);
	tv_fsum_add(&sum[S_BR], wn * f->bcubed_recall);
}

/* The averages over the words, of total weight @N, from the sums. */
static void average_words(struct tageval_clustering_figures *tot, const struct tv_fsum sum[S_N],
			  double N, unsigned metrics)
{
	tot->ari = tv_fsum_result(&sum[S_ARI]) / N;
	tot->rand = tv_fsum_result(&sum[S_RAND]) / N;
	tot->fowlkes_mallows = tv_fsum_result(&sum[S_FM]) / N;
	tot->nmi = tv_fsum_result(&sum[S_NMI]) / N;
	tot->ami = tv_fsum_result(&sum[S_AMI]) / N;
	tot->bcubed_precision = tv_fsum_result(&sum[S_BP]) / N;
	tot->bcubed_recall = tv_fsum_result(&sum[S_BR]) / N;
	double p = tot->bcubed_precision, rr = tot->bcubed_recall;
	tot->bcubed_fscore = isnan(p) ? NAN : p + rr > 0.0 ? 2.0 * p * rr / (p + rr) : 0.0;
	set_average(tot, metrics);
}

/* What the evaluation of every word shares: the options resolved, the
 * instances and the extra ones grouped by word, the scratch. */
struct ceval {
	const struct tageval_wsi *w;
	int fuzzy;
	enum tageval_normalizer norm;
	unsigned metrics;
	uint32_t *start, *order, *xstart, *xorder;
	uint32_t *sorted;  /* fuzzy: a word's instances, then its extras, by id */
	struct idref *ref; /* fuzzy: scratch of sort_by_id */
	struct scratch t;
};

/* The figures of word @word, fuzzy (its gold instances and its extra ones,
 * each list taken in byte order of the ids) or crisp. */
static int word_figures(struct ceval *ce, size_t word, struct tageval_clustering_figures *f,
			size_t *repeated, struct tageval_error *err)
{
	const struct tageval_wsi *w = ce->w;
	size_t n = ce->start[word + 1] - ce->start[word];
	if (ce->fuzzy) {
		struct fword fw;
		size_t nx = ce->xstart[word + 1] - ce->xstart[word];
		sort_by_id(&w->ids, ce->order + ce->start[word], n, ce->ref, ce->sorted);
		sort_by_id(&w->xids, ce->xorder + ce->xstart[word], nx, ce->ref, ce->sorted + n);
		int rc = fuzzy_data(&ce->t, w, ce->sorted, n, ce->sorted + n, nx, &fw, repeated,
				    err);
		if (rc)
			return rc;
		if (fuzzy_word(&fw, ce->norm, ce->metrics, f))
			return tv_nomem(err);
	} else {
		struct ctab ct;
		if (crisp_table(&ce->t, w, ce->order + ce->start[word], n, &ct) ||
		    crisp_metrics(&ct, ce->norm, &ce->t.lft, ce->metrics, f))
			return tv_nomem(err);
	}
	set_average(f, ce->metrics);
	return TAGEVAL_OK;
}

/* The scratch of the evaluation (its grouping by word done by the caller). */
static int ceval_alloc(struct ceval *ce, struct tageval_clustering_result *r)
{
	const struct tageval_wsi *w = ce->w;
	size_t nw = w->words.n, nl = tv_wsi_nlabels(w) ? tv_wsi_nlabels(w) : 1;
	struct scratch *t = &ce->t;
	r->name = calloc(nw ? nw : 1, sizeof *r->name);
	r->fig = calloc(nw ? nw : 1, sizeof *r->fig);
	t->kstamp = calloc(nl, sizeof *t->kstamp);
	t->cstamp = calloc(nl, sizeof *t->cstamp);
	t->klocal = malloc(nl * sizeof *t->klocal);
	t->clocal = malloc(nl * sizeof *t->clocal);
	ce->xstart = calloc(nw + 1, sizeof *ce->xstart);
	ce->xorder = malloc((w->nextra ? w->nextra : 1) * sizeof *ce->xorder);
	if (ce->fuzzy) {
		size_t most = (w->n > w->nextra ? w->n : w->nextra) + 1;
		ce->sorted = malloc((w->n + w->nextra + 1) * sizeof *ce->sorted);
		ce->ref = malloc(most * sizeof *ce->ref);
	}
	if (!r->name || !r->fig || !t->kstamp || !t->cstamp || !t->klocal || !t->clocal ||
	    !ce->xstart || !ce->xorder || (ce->fuzzy && (!ce->sorted || !ce->ref)))
		return TAGEVAL_ENOMEM;
	return TAGEVAL_OK;
}

/* The figures of every word of part of speech @pos into r->fig, their
 * weighted sums into @sum (the total weight into *N). */
static int eval_words(struct ceval *ce, const char *pos, struct tageval_clustering_result *r,
		      struct tv_fsum sum[S_N], double *N, struct tageval_error *err)
{
	const struct tageval_wsi *w = ce->w;
	struct tageval_clustering_figures *tot = &r->total;
	for (size_t word = 0; word < w->words.n; word++) {
		const char *name = tv_intern_str(&w->words, (uint32_t)word);
		if (!tv_wsi_pos_match(name, pos))
			continue;
		size_t n = ce->start[word + 1] - ce->start[word];
		struct tageval_clustering_figures *f = &r->fig[r->nwords];
		int rc = word_figures(ce, word, f, &r->repeated, err);
		if (rc)
			return rc;
		r->name[r->nwords] = strdup(name);
		if (r->name[r->nwords] == NULL)
			return tv_nomem(err);
		r->nwords++;
		double wn = ce->fuzzy ? 1.0 : (double)n;
		*N += wn;
		tot->instances += n;
		add_word(sum, f, wn);
	}
	return TAGEVAL_OK;
}

int tageval_clustering_evaluate(const struct tageval_wsi *w,
				const struct tageval_clustering_options *opts,
				struct tageval_clustering_result **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, w, "wsi");
	struct tageval_clustering_options o;
	if (opts)
		o = *opts;
	else
		tageval_clustering_options_init(&o);
	if ((unsigned)o.normalizer > TAGEVAL_NORMALIZER_MAX ||
	    (unsigned)o.mode > TAGEVAL_CLUSTERING_FUZZY)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "invalid clustering options");
	struct ceval ce = { .w = w };
	ce.fuzzy = o.mode == TAGEVAL_CLUSTERING_FUZZY ||
		   (o.mode == TAGEVAL_CLUSTERING_AUTO && tageval_wsi_graded(w));
	ce.norm = o.normalizer;
	if (ce.norm == TAGEVAL_NORMALIZER_DEFAULT)
		ce.norm = ce.fuzzy ? TAGEVAL_NORMALIZER_MAX : TAGEVAL_NORMALIZER_ARITHMETIC;
	ce.metrics = o.metrics ? o.metrics : ~0u;
	struct tageval_clustering_result *r = calloc(1, sizeof *r);
	int rc = TAGEVAL_OK;
	size_t nw = w->words.n;
	if (r == NULL || tv_wsi_group(w, &ce.start, &ce.order)) {
		rc = tv_nomem(err);
		goto out;
	}
	r->fuzzy = ce.fuzzy;
	if (ceval_alloc(&ce, r)) {
		rc = tv_nomem(err);
		goto out;
	}
	/* the extra instances of each word, in file order */
	tv_group_by(w->extra ? &w->extra[0].word : NULL, sizeof *w->extra, w->nextra, nw, ce.xstart,
		    ce.xorder);
	struct tageval_clustering_figures *tot = &r->total;
	double N = 0.0;
	struct tv_fsum sum[S_N];
	for (int i = 0; i < S_N; i++)
		tv_fsum_init(&sum[i]);
	if ((rc = eval_words(&ce, o.pos, r, sum, &N, err)))
		goto out;
	if (r->nwords == 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0, "no target word selected");
		goto out;
	}
	average_words(tot, sum, N, ce.metrics);
	r->pooled.avg = NAN;
	if (!ce.fuzzy) {
		struct scratch *t = &ce.t;
		struct ctab pt = { .ncell = t->npcell, .k = t->pk, .c = t->pc, .n = t->pv,
				   .nk = t->npk, .nc = t->npc, .kn = t->pkn, .cn = t->pcn,
				   .N = tot->instances };
		if (crisp_metrics(&pt, ce.norm, &t->lft, ce.metrics, &r->pooled)) {
			rc = tv_nomem(err);
			goto out;
		}
		set_average(&r->pooled, ce.metrics);
	}
out:
	scratch_free(&ce.t);
	free(ce.start);
	free(ce.order);
	free(ce.xstart);
	free(ce.xorder);
	free(ce.sorted);
	free(ce.ref);
	if (rc) {
		tageval_clustering_result_free(r);
		return rc;
	}
	*out = r;
	return TAGEVAL_OK;
}
