/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Krippendorff's alpha at the nominal, ordinal, interval and ratio levels,
 * from the coincidence matrix of the values (hkappa(1), "Krippendorff's alpha
 * at four levels").
 *
 * The values are the leaves of the annotations (with --flat, the tags); an
 * annotation is a distribution P over them, a single value when it has one
 * tag.  On a unit u with m_u >= 2 annotations and S_u(c) = sum over its
 * annotations of P(c), the coincidences are
 *
 *   o_ck = sum over u of (S_u(c) S_u(k) - sum over i on u of P_i(c) P_i(k)) / (m_u - 1)
 *
 * (Krippendorff's o_ck when every annotation is one value), n_c = sum over k
 * of o_ck = sum over u of S_u(c), n = sum of n_c, and
 *
 *   D_o = 1/n sum over c, k of o_ck d(c, k),
 *   D_e = 1/(n (n - 1)) (sum over c, k of n_c n_k d(c, k) - W),  alpha = 1 - D_o / D_e,
 *
 * W = sum over annotations i of sum over c, k of P_i(c) P_i(k) d(c, k), the
 * pairs of an annotation with itself, 0 when every annotation is one value:
 * as D_o, D_e then pairs distinct annotations only, and the nominal level is
 * hkappa's alpha with the distance 1 - <P, Q>.
 *
 * The matrix is never stored.  Nominal, interval and ordinal distances are
 * squared differences (of indicator vectors, of the values, of the values'
 * mid-ranks), so that both sums reduce to means and variances: linear in the
 * ratings plus a sort of the distinct values.  The ratio distance
 * ((c - k) / (c + k))^2 does not reduce: D_e is a sum over the pairs of
 * distinct values, and a unit's term a sum over the pairs of distinct values
 * on it.
 *
 * Sums over units, over values and over the entries of an annotation (whose
 * leaf ids follow the order of the lines) are exact (tv_fsum), so that any
 * order of the lines gives the same bits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "tageval-agreement.h"
#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-util.h"

/* A denominator below this counts as zero (as in tageval-agreement.c). */
#define TV_ALPHA_EPS 1e-12

enum { NUM_UNKNOWN = 0, NUM_YES = 1, NUM_NO = 2 };

/* An entry of a unit's annotation: leaf, annotator, mass. */
struct unit_ent {
	uint32_t leaf, ann;
	double p;
};

static int by_leaf_ann(const void *x, const void *y)
{
	const struct unit_ent *a = x, *b = y;
	if (a->leaf != b->leaf)
		return (a->leaf > b->leaf) - (a->leaf < b->leaf);
	return (a->ann > b->ann) - (a->ann < b->ann);
}

struct alpha_ws {
	size_t ntags;
	double *x;          /* [leaf] its numeric value */
	double *rank;       /* [leaf] the mid-rank of its value */
	unsigned char *num; /* [leaf] NUM_* */
	uint32_t *pos;      /* [leaf] its index in used[], TV_NONE before first use */
	uint32_t *used;     /* the leaves used, in order of first use */
	size_t nused;
	struct tv_lsum *nc; /* [pos] n_c (lazy sums: 24 bytes while exact) */
	struct tv_fsum_pool ncbig;
	/* one unit */
	double *s;          /* [leaf] S_u(c) */
	uint32_t *stamp, gen;
	uint32_t *touched;
	size_t ntouched;
	double *mu;           /* [annotator] */
	struct unit_ent *ue;  /* a unit's entries, sorted by leaf */
	size_t nue, uecap;
};

static const struct tv_rec *rec_at(const struct tageval_annotations *a, size_t c, size_t item)
{
	if (item >= a->nrec[c])
		return NULL;
	const struct tv_rec *r = &a->rec[c][item];
	return r->ref ? r : NULL;
}

static const struct tv_leafp *rec_entries(const struct tageval_annotations *a,
					  const struct tv_rec *r, struct tv_leafp *one, size_t *n)
{
	if (tv_rec_inline(r)) {
		one->leaf = tv_rec_leaf(r);
		one->key = 0;
		one->p = 1.0;
		*n = 1;
		return one;
	}
	return tv_rec_pool(a, r, n);
}

/* The entries of the annotations of item @t by annotators 0 and 1 (*e1, *n1
 * and *e2, *n2; @one1, @one2 hold an inline record's entry): 1, or 0 when
 * one of the two did not annotate it. */
static int both_entries(const struct tageval_annotations *a, size_t t, struct tv_leafp *one1,
			const struct tv_leafp **e1, size_t *n1, struct tv_leafp *one2,
			const struct tv_leafp **e2, size_t *n2)
{
	const struct tv_rec *r1 = rec_at(a, 0, t), *r2 = rec_at(a, 1, t);
	if (r1 == NULL || r2 == NULL)
		return 0;
	*e1 = rec_entries(a, r1, one1, n1);
	*e2 = rec_entries(a, r2, one2, n2);
	return 1;
}

/* Whether tag @t of a tree-shaped map has tags below it. */
static int inner_tag(const struct tageval_annotations *a, uint32_t t)
{
	return t < a->npre && a->pre_end[t] > a->pre[t] + 1;
}

/* A label as a number: an optional sign, then a decimal number as
 * tv_parse_weight reads it (finite). */
static int parse_label(const char *s, double *out)
{
	int neg = 0;
	if (*s == '-') {
		neg = 1;
		s++;
	} else if (*s == '+') {
		s++;
	}
	if (*s == '+' || *s == '-' || tv_parse_weight(s, out))
		return -1;
	if (neg)
		*out = -*out;
	return 0;
}

static double ratio_d(double c, double k)
{
	double s = c + k;
	if (s == 0.0)
		return 0.0; /* c = k = 0 */
	double r = (c - k) / s;
	return r * r;
}

/*
 * S_u(c) of the unit's @m annotations @r into w->s, its leaves into
 * w->touched: in the order of the annotators when every annotation is one
 * leaf (*multi = 0: integer masses), else (*multi = 1) in leaf-id order when
 * @sorted, in the order of the annotators and their entries when not (a
 * caller whose sums over them are exact); each S summed in the order of the
 * annotators either way.  -1: out of memory.
 */
static int unit_masses_in(const struct tageval_annotations *a, struct alpha_ws *w,
			  const struct tv_rec *const *r, size_t m, int *multi, int sorted)
{
	if (++w->gen == 0) {
		memset(w->stamp, 0, w->ntags * sizeof *w->stamp);
		w->gen = 1;
	}
	w->ntouched = 0;
	w->nue = 0;
	*multi = 0;
	for (size_t i = 0; i < m; i++) {
		struct tv_leafp one;
		size_t n;
		const struct tv_leafp *e = rec_entries(a, r[i], &one, &n);
		if (n > 1)
			*multi = 1;
		if (tv_grow((void **)&w->ue, &w->uecap, w->nue + n, sizeof *w->ue))
			return -1;
		for (size_t j = 0; j < n; j++)
			w->ue[w->nue++] = (struct unit_ent){ e[j].leaf, (uint32_t)i, e[j].p };
	}
	if (!sorted) {
		/* the entries in the order of the annotators already */
	} else if (*multi && w->nue > 16) {
		qsort(w->ue, w->nue, sizeof *w->ue, by_leaf_ann);
	} else if (*multi) {
		/* a few entries: insertion sort (the pairs are distinct, so the
		 * order is the same) */
		for (size_t i = 1; i < w->nue; i++) {
			struct unit_ent x = w->ue[i];
			size_t j = i;
			while (j > 0 && by_leaf_ann(&w->ue[j - 1], &x) > 0) {
				w->ue[j] = w->ue[j - 1];
				j--;
			}
			w->ue[j] = x;
		}
	}
	for (size_t i = 0; i < w->nue; i++) {
		uint32_t l = w->ue[i].leaf;
		if (w->stamp[l] != w->gen) {
			w->stamp[l] = w->gen;
			w->s[l] = 0.0;
			w->touched[w->ntouched++] = l;
		}
		w->s[l] += w->ue[i].p;
	}
	return 0;
}

static int unit_masses(const struct tageval_annotations *a, struct alpha_ws *w,
		       const struct tv_rec *const *r, size_t m, int *multi)
{
	return unit_masses_in(a, w, r, m, multi, 1);
}

/*
 * The observed-disagreement term of a unit, sum over c, k of
 * (S(c) S(k) - sum over i of P_i(c) P_i(k)) d(c, k), for a squared
 * difference of @x: 2 (m - 1) sum of v_i + 2 m sum of (mu_i - mu)^2, with
 * mu_i and v_i the mean and variance of x under P_i and mu their mean.
 */
static double unit_squared(const struct tageval_annotations *a, struct alpha_ws *w,
			   const struct tv_rec *const *r, size_t m, const double *x, double *self)
{
	double *mu = w->mu, var = 0.0;
	int exact = 0;
	struct tv_fsum fv;
	for (size_t i = 0; i < m; i++) {
		struct tv_leafp one;
		size_t n;
		const struct tv_leafp *e = rec_entries(a, r[i], &one, &n);
		if (n == 1) {
			mu[i] = x[e[0].leaf];
			continue;
		}
		if (!exact)
			tv_fsum_init(&fv);
		exact = 1;
		struct tv_fsum f;
		tv_fsum_init(&f);
		for (size_t j = 0; j < n; j++)
			tv_fsum_add(&f, e[j].p * x[e[j].leaf]);
		mu[i] = tv_fsum_result(&f);
		tv_fsum_init(&f);
		for (size_t j = 0; j < n; j++) {
			double d = x[e[j].leaf] - mu[i];
			tv_fsum_add(&f, e[j].p * d * d);
		}
		tv_fsum_add(&fv, tv_fsum_result(&f));
	}
	if (exact)
		var = tv_fsum_result(&fv);
	double mean = 0.0;
	for (size_t i = 0; i < m; i++)
		mean += mu[i];
	mean /= (double)m;
	double ss = 0.0;
	for (size_t i = 0; i < m; i++)
		ss += (mu[i] - mean) * (mu[i] - mean);
	*self = 2.0 * var; /* sum over i of the pairs within P_i: 2 v_i */
	return 2.0 * (double)(m - 1) * var + 2.0 * (double)m * ss;
}

/* The same term for the ratio distance: the pairs of distinct values of the
 * unit, less the pairs within each annotation (quadratic in the distinct
 * values of the unit: the distance does not reduce).  The pairs are taken
 * from *@budget first; 1 when it would go below 0 (nothing computed), -1:
 * out of memory. */
static int unit_ratio(const struct tageval_annotations *a, struct alpha_ws *w,
		      const struct tv_rec *const *r, size_t m, double *out, double *self,
		      double *budget)
{
	*self = 0.0;
	int multi;
	if (unit_masses(a, w, r, m, &multi))
		return -1;
	/* the pairs of distinct values below, and of entries of each annotation */
	double pairs = (double)w->ntouched * (double)(w->ntouched - 1) / 2.0;
	for (size_t i = 0; multi && i < m; i++) {
		struct tv_leafp one;
		size_t n;
		(void)rec_entries(a, r[i], &one, &n);
		pairs += (double)n * (double)(n - 1) / 2.0;
	}
	*budget -= pairs;
	if (*budget < 0.0)
		return 1;
	if (!multi) {
		/* integer masses, values met in the order of the annotators */
		double sum = 0.0;
		for (size_t i = 0; i < w->ntouched; i++)
			for (size_t k = 0; k < i; k++)
				sum += 2.0 * w->s[w->touched[i]] * w->s[w->touched[k]] *
				       ratio_d(w->x[w->touched[i]], w->x[w->touched[k]]);
		*out = sum;
		return 0;
	}
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < w->ntouched; i++)
		for (size_t k = 0; k < i; k++)
			tv_fsum_add(&f, 2.0 * w->s[w->touched[i]] * w->s[w->touched[k]] *
						ratio_d(w->x[w->touched[i]], w->x[w->touched[k]]));
	struct tv_fsum g;
	tv_fsum_init(&g);
	for (size_t i = 0; i < m; i++) {
		struct tv_leafp one;
		size_t n;
		const struct tv_leafp *e = rec_entries(a, r[i], &one, &n);
		for (size_t j = 0; j < n; j++)
			for (size_t k = 0; k < j; k++) {
				double t = 2.0 * e[j].p * e[k].p *
					   ratio_d(w->x[e[j].leaf], w->x[e[k].leaf]);
				tv_fsum_add(&f, -t);
				tv_fsum_add(&g, t);
			}
	}
	*out = tv_fsum_result(&f);
	*self = tv_fsum_result(&g);
	return 0;
}

/* The nominal term: m^2 - sum of S(c)^2 - (m - sum of |P_i|^2).  -1: out
 * of memory. */
static int unit_nominal(const struct tageval_annotations *a, struct alpha_ws *w,
			const struct tv_rec *const *r, size_t m, double *out, double *self)
{
	int multi;
	*self = 0.0;
	/* every sum over the masses below is exact or over integers: their
	 * order does not matter */
	if (unit_masses_in(a, w, r, m, &multi, 0))
		return -1;
	double md = (double)m;
	if (!multi) {
		double sq = 0.0; /* integers: exact in any order */
		for (size_t i = 0; i < w->ntouched; i++)
			sq += w->s[w->touched[i]] * w->s[w->touched[i]];
		*out = md * md - sq;
		return 0;
	}
	struct tv_fsum f;
	tv_fsum_init(&f);
	struct tv_fsum g; /* m - sum of |P_i|^2: the pairs within each P_i */
	tv_fsum_init(&g);
	tv_fsum_add(&g, md);
	for (size_t i = 0; i < w->nue; i++)
		tv_fsum_add(&g, -w->ue[i].p * w->ue[i].p);
	*self = tv_fsum_result(&g);
	tv_fsum_add(&f, md * md);
	for (size_t i = 0; i < w->ntouched; i++)
		tv_fsum_add(&f, -w->s[w->touched[i]] * w->s[w->touched[i]]);
	tv_fsum_add(&f, -md);
	for (size_t i = 0; i < w->nue; i++)
		tv_fsum_add(&f, w->ue[i].p * w->ue[i].p);
	*out = tv_fsum_result(&f);
	return 0;
}

/* Whether each of the @m annotations @r is one leaf of mass 1: the unit's
 * nominal term is then an integer, of a few values over all units (a term
 * worth counting: tv_csum). */
static int all_inline(const struct tv_rec *const *r, size_t m)
{
	for (size_t i = 0; i < m; i++)
		if (!tv_rec_inline(r[i]))
			return 0;
	return 1;
}

/* unit_nominal for a caller that needs only its two numbers (not the
 * unit's masses in w->s and w->touched): when every annotation is one leaf
 * of mass 1, the sum of S(c)^2 is the number of ordered pairs of
 * annotations (each with itself too) of the same leaf, the integer
 * unit_masses would give. */
static int unit_nominal_term(const struct tageval_annotations *a, struct alpha_ws *w,
			     const struct tv_rec *const *r, size_t m, double *out, double *self)
{
	size_t one = 0;
	while (one < m && tv_rec_inline(r[one]))
		one++;
	if (one < m || m > 16)
		return unit_nominal(a, w, r, m, out, self);
	size_t same = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < m; j++)
			same += r[i]->ref == r[j]->ref;
	double md = (double)m;
	*self = 0.0;
	*out = md * md - (double)same;
	return 0;
}

static int ws_init(struct alpha_ws *w, size_t ntags, size_t nann)
{
	size_t n = ntags ? ntags : 1;
	w->ntags = ntags;
	w->x = calloc(n, sizeof *w->x);
	w->rank = calloc(n, sizeof *w->rank);
	w->num = calloc(n, sizeof *w->num);
	w->pos = malloc(n * sizeof *w->pos);
	w->used = malloc(n * sizeof *w->used);
	w->s = calloc(n, sizeof *w->s);
	w->stamp = calloc(n, sizeof *w->stamp);
	w->touched = malloc(n * sizeof *w->touched);
	w->mu = malloc((nann ? nann : 1) * sizeof *w->mu);
	if (!w->mu || !w->x || !w->rank || !w->num || !w->pos || !w->used || !w->s || !w->stamp ||
	    !w->touched)
		return TAGEVAL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		w->pos[i] = TV_NONE;
	return TAGEVAL_OK;
}

static void ws_done(struct alpha_ws *w)
{
	free(w->x);
	free(w->rank);
	free(w->num);
	free(w->pos);
	free(w->used);
	free(w->nc);
	tv_fsum_pool_free(&w->ncbig);
	free(w->s);
	free(w->stamp);
	free(w->touched);
	free(w->mu);
	free(w->ue);
}

/* The distinct numeric values, for the mid-ranks and the ratio D_e. */
struct valmass {
	double x, n, rank;
};

static int by_value(const void *p, const void *q)
{
	double a = ((const struct valmass *)p)->x, b = ((const struct valmass *)q)->x;
	return (a > b) - (a < b);
}

/* sum of n_c (x_c - mean)^2 over the used leaves, x from @x: D_e n (n - 1) / 2n. */
static double spread(const struct alpha_ws *w, const double *ncv, const double *x, double n)
{
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < w->nused; i++)
		tv_fsum_add(&f, ncv[i] * x[w->used[i]]);
	double mean = tv_fsum_result(&f) / n;
	tv_fsum_init(&f);
	for (size_t i = 0; i < w->nused; i++) {
		double d = x[w->used[i]] - mean;
		tv_fsum_add(&f, ncv[i] * d * d);
	}
	return tv_fsum_result(&f);
}

static void set_alpha(struct tageval_alpha_figures *out, int level, double d_o, double d_e)
{
	out->d_o[level] = d_o;
	out->d_e[level] = d_e;
	if (!(d_e >= TV_ALPHA_EPS))
		out->undefined[level] = TAGEVAL_UNDEFINED_NO_SPREAD;
	else
		out->alpha[level] = 1.0 - d_o / d_e;
}

/* The sums of pass 1 over the units: the nominal D_o, the pairs within
 * the annotations, n and the units; the terms taking a few values counted. */
struct alpha_one {
	struct tv_fsum d_o, self;
	struct tv_csum cd, cs;
	double n;
	size_t units;
	size_t cap; /* of w->nc */
};

static void one_init(struct alpha_one *p)
{
	memset(p, 0, sizeof *p);
	tv_fsum_init(&p->d_o);
	tv_fsum_init(&p->self);
}

/* One unit of pass 1: its @m >= 2 annotations @r, of nominal term @term
 * and pairs within @within (unit_nominal_term); 0, 1 (an inner tag) or -1
 * (out of memory). */
static int one_unit(const struct tageval_annotations *a, struct alpha_ws *w,
		    struct alpha_one *p, const struct tv_rec *const *r, size_t m, double term,
		    double within)
{
	p->units++;
	p->n += (double)m;
	for (size_t i = 0; i < m; i++) {
		struct tv_leafp one;
		size_t ne;
		const struct tv_leafp *e = rec_entries(a, r[i], &one, &ne);
		for (size_t j = 0; j < ne; j++) {
			uint32_t l = e[j].leaf;
			if (!a->inv->dag && inner_tag(a, l))
				return 1;
			if (w->pos[l] == TV_NONE) {
				if (tv_grow((void **)&w->nc, &p->cap, w->nused + 1, sizeof *w->nc))
					return -1;
				memset(&w->nc[w->nused], 0, sizeof *w->nc);
				w->pos[l] = (uint32_t)w->nused;
				w->used[w->nused++] = l;
			}
			if (tv_lsum_add_counted(&w->nc[w->pos[l]], &w->ncbig, e[j].p))
				return -1;
		}
	}
	if (all_inline(r, m)) {
		tv_csum_add(&p->cd, &p->d_o, term / (double)(m - 1));
		tv_csum_add(&p->cs, &p->self, within);
	} else {
		tv_fsum_add(&p->d_o, term / (double)(m - 1));
		tv_fsum_add(&p->self, within);
	}
	return 0;
}

static void one_flush(struct alpha_one *p)
{
	tv_csum_flush(&p->cd, &p->d_o);
	tv_csum_flush(&p->cs, &p->self);
}

/* Pass 1: the units' annotations, n_c, the nominal D_o; 0, 1 (an inner tag)
 * or -1 (out of memory). */
static int pass_one(const struct tageval_annotations *a, struct alpha_ws *w,
		    const struct tv_rec **r, struct alpha_one *p)
{
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = 0;
		for (size_t c = 0; c < a->nann; c++) {
			const struct tv_rec *rc = rec_at(a, c, t);
			if (rc)
				r[m++] = rc;
		}
		if (m < 2)
			continue;
		double term, within;
		if (unit_nominal_term(a, w, r, m, &term, &within))
			return -1;
		int rc = one_unit(a, w, p, r, m, term, within);
		if (rc)
			return rc;
	}
	one_flush(p);
	return 0;
}

/* Reads the labels as numbers: TAGEVAL_DEFINED, or why the numeric levels
 * are undefined (the ratio level also needs values >= 0: *negative). */
static int numbers(const struct tageval_annotations *a, struct alpha_ws *w, int *negative)
{
	*negative = 0;
	for (size_t i = 0; i < w->nused; i++) {
		uint32_t l = w->used[i];
		if (parse_label(tv_inventory_name(a->inv, l), &w->x[l]))
			return TAGEVAL_UNDEFINED_NOT_NUMBERS;
		if (w->x[l] < 0.0)
			*negative = 1;
	}
	return TAGEVAL_DEFINED;
}

static int alpha_levels(const struct tageval_annotations *a, int ratio,
			struct tageval_alpha_figures *out, struct tageval_error *err);

/* The levels not in @levels (not 0) marked as not asked for. */
static void not_asked(struct tageval_alpha_figures *out, unsigned levels)
{
	for (int l = 0; l < TAGEVAL_LEVELS; l++)
		if (!(levels & 1u << l)) {
			out->alpha[l] = out->d_o[l] = out->d_e[l] = NAN;
			out->undefined[l] = TAGEVAL_UNDEFINED_NOT_ASKED;
		}
}

int tageval_agreement_alpha_levels(const struct tageval_annotations *a, unsigned levels,
				   struct tageval_alpha_figures *out, struct tageval_error *err)
{
	if (levels == 0)
		levels = (1u << TAGEVAL_LEVELS) - 1;
	int rc = alpha_levels(a, (levels >> TAGEVAL_RATIO) & 1u, out, err);
	if (rc == TAGEVAL_OK)
		not_asked(out, levels);
	return rc;
}

/* The state of one computation of alpha at the four levels. */
struct alpha_run {
	struct alpha_ws w;
	const struct tv_rec **r; /* [annotator] a unit's annotations */
	struct alpha_one p1;
	int inner; /* pass 1 met an inner tag: stopped there */
};

static void alpha_figures_init(struct tageval_alpha_figures *out)
{
	memset(out, 0, sizeof *out);
	for (int l = 0; l < TAGEVAL_LEVELS; l++)
		out->alpha[l] = out->d_o[l] = out->d_e[l] = NAN;
}

/* -1 out of memory; alpha_done() after it either way. */
static int alpha_start(const struct tageval_annotations *a, struct alpha_run *ar)
{
	memset(ar, 0, sizeof *ar);
	one_init(&ar->p1);
	ar->r = malloc((a->nann ? a->nann : 1) * sizeof *ar->r);
	return ar->r == NULL || ws_init(&ar->w, a->inv->tags.n, a->nann) ? -1 : 0;
}

static void alpha_done(struct alpha_run *ar)
{
	free(ar->r);
	ws_done(&ar->w);
}

/* Everything after pass 1 (@ar holds its sums): the nominal level, the
 * values' ranks, pass 2 over the units at the numeric levels. */
static int alpha_rest(const struct tageval_annotations *a, int ratio, struct alpha_run *ar,
		      struct tageval_alpha_figures *out, struct tageval_error *err)
{
	struct alpha_ws *w = &ar->w;
	const struct tv_rec **r = ar->r;
	const struct alpha_one *p = &ar->p1;
	int inner = ar->inner;
	double n = p->n;
	struct valmass *vals = NULL;
	double *ncv = NULL;
	int rc = TAGEVAL_OK;
	/* the disagreements within each annotation: left out of D_e, as the
	 * pairs of an annotation with itself are (hkappa's alpha) */
	struct tv_fsum w_ord, w_int, w_rat;
	tv_fsum_init(&w_ord);
	tv_fsum_init(&w_int);
	tv_fsum_init(&w_rat);
	out->items = p->units;
	out->annotations = (size_t)n;
	if (p->units == 0 || inner) {
		int why = inner ? TAGEVAL_UNDEFINED_INNER_TAG : TAGEVAL_UNDEFINED_NO_ITEMS;
		for (int l = 0; l < TAGEVAL_LEVELS; l++)
			out->undefined[l] = why;
		goto out;
	}
	ncv = malloc(w->nused * sizeof *ncv);
	vals = malloc(w->nused * sizeof *vals);
	if (ncv == NULL || vals == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < w->nused; i++) {
		ncv[i] = tv_lsum_result(&w->nc[i], &w->ncbig);
		tv_fsum_add(&f, -ncv[i] * ncv[i]);
	}
	tv_fsum_add(&f, n * n);
	tv_fsum_add(&f, -tv_fsum_result(&p->self));
	set_alpha(out, TAGEVAL_NOMINAL, tv_fsum_result(&p->d_o) / n,
		  tv_fsum_result(&f) / (n * (n - 1.0)));
	int negative;
	int why = numbers(a, w, &negative);
	if (why) {
		for (int l = TAGEVAL_ORDINAL; l < TAGEVAL_LEVELS; l++)
			out->undefined[l] = why;
		goto out;
	}
	/* mid-ranks: a value's rank is the mass below it plus half its own */
	for (size_t i = 0; i < w->nused; i++)
		vals[i] = (struct valmass){ w->x[w->used[i]], ncv[i], 0.0 };
	qsort(vals, w->nused, sizeof *vals, by_value);
	size_t ng = 0;
	for (size_t i = 0; i < w->nused; i++) {
		if (ng > 0 && vals[ng - 1].x == vals[i].x)
			continue; /* masses summed exactly below */
		vals[ng++] = (struct valmass){ vals[i].x, 0.0, 0.0 };
	}
	{
		/* the mass of each distinct value, exact whatever the order of the leaves */
		struct tv_fsum *gm = calloc(ng, sizeof *gm);
		if (gm == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
		for (size_t i = 0; i < w->nused; i++) {
			struct valmass key = { w->x[w->used[i]], 0.0, 0.0 };
			const struct valmass *g = bsearch(&key, vals, ng, sizeof *vals, by_value);
			tv_fsum_add(&gm[g - vals], ncv[i]);
		}
		for (size_t g = 0; g < ng; g++)
			vals[g].n = tv_fsum_result(&gm[g]);
		free(gm);
	}
	double below = 0.0;
	for (size_t g = 0; g < ng; g++) {
		vals[g].rank = below + vals[g].n / 2.0;
		below += vals[g].n;
	}
	for (size_t i = 0; i < w->nused; i++) {
		struct valmass key = { w->x[w->used[i]], 0.0, 0.0 };
		const struct valmass *g = bsearch(&key, vals, ng, sizeof *vals, by_value);
		w->rank[w->used[i]] = g->rank;
	}
	/* the ratio level compares every pair of distinct values: refused
	 * before any of that work beyond its limit */
	if (ratio && !negative && ng > TAGEVAL_RATIO_VALUES_MAX) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
			      "alpha at the ratio level: %zu distinct values, more than the limit "
			      "of %d (the ratio distance compares every pair; see hkappa(1), "
			      "LIMITS)",
			      ng, TAGEVAL_RATIO_VALUES_MAX);
		goto out;
	}
	double budget = TAGEVAL_RATIO_PAIRS_MAX;
	/* pass 2: the units' terms at the numeric levels */
	struct tv_fsum d_ord, d_int, d_rat;
	tv_fsum_init(&d_ord);
	tv_fsum_init(&d_int);
	tv_fsum_init(&d_rat);
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = 0;
		for (size_t c = 0; c < a->nann; c++) {
			const struct tv_rec *rc2 = rec_at(a, c, t);
			if (rc2)
				r[m++] = rc2;
		}
		if (m < 2)
			continue;
		double den = (double)(m - 1);
		double within;
		tv_fsum_add(&d_ord, unit_squared(a, w, r, m, w->rank, &within) / den);
		tv_fsum_add(&w_ord, within);
		tv_fsum_add(&d_int, unit_squared(a, w, r, m, w->x, &within) / den);
		tv_fsum_add(&w_int, within);
		double term;
		if (negative || !ratio)
			continue;
		int urc = unit_ratio(a, w, r, m, &term, &within, &budget);
		if (urc > 0) {
			rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
				      "alpha at the ratio level: more than %d pairs of values within "
				      "the items (the limit: the ratio distance compares every pair; "
				      "see hkappa(1), LIMITS)",
				      TAGEVAL_RATIO_PAIRS_MAX);
			goto out;
		}
		if (urc < 0) {
			rc = tv_nomem(err);
			goto out;
		}
		tv_fsum_add(&d_rat, term / den);
		tv_fsum_add(&w_rat, within);
	}
	double nn = n * (n - 1.0);
	set_alpha(out, TAGEVAL_ORDINAL, tv_fsum_result(&d_ord) / n,
		  (2.0 * n * spread(w, ncv, w->rank, n) - tv_fsum_result(&w_ord)) / nn);
	set_alpha(out, TAGEVAL_INTERVAL, tv_fsum_result(&d_int) / n,
		  (2.0 * n * spread(w, ncv, w->x, n) - tv_fsum_result(&w_int)) / nn);
	if (negative) {
		out->undefined[TAGEVAL_RATIO] = TAGEVAL_UNDEFINED_NEGATIVE;
		goto out;
	}
	if (!ratio)
		goto out; /* the caller marks it as not asked for */
	/* ratio D_e over the pairs of distinct values */
	tv_fsum_init(&f);
	for (size_t g = 0; g < ng; g++)
		for (size_t h = 0; h < g; h++)
			tv_fsum_add(&f, 2.0 * vals[g].n * vals[h].n * ratio_d(vals[g].x, vals[h].x));
	tv_fsum_add(&f, -tv_fsum_result(&w_rat));
	set_alpha(out, TAGEVAL_RATIO, tv_fsum_result(&d_rat) / n, tv_fsum_result(&f) / nn);
out:
	free(vals);
	free(ncv);
	return rc;
}

/* The four levels; the ratio level (quadratic in the distinct values) only
 * when @ratio. */
static int alpha_levels(const struct tageval_annotations *a, int ratio,
			struct tageval_alpha_figures *out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	alpha_figures_init(out);
	TV_NEED(err, a, "ann");
	struct alpha_run ar;
	int rc;
	if (alpha_start(a, &ar)) {
		rc = tv_nomem(err);
	} else {
		ar.inner = pass_one(a, &ar.w, ar.r, &ar.p1);
		rc = ar.inner < 0 ? tv_nomem(err) : alpha_rest(a, ratio, &ar, out, err);
	}
	alpha_done(&ar);
	return rc;
}

/* ------------------------------------------- chance-corrected coefficients */

/*
 * Gwet's AC1 and AC2, Brennan-Prediger, Conger's kappa (irrCAC's
 * conventions for missing data) and Cohen's kappa with linear and quadratic
 * weights (hkappa(1), "Chance-corrected coefficients").  With r_t the
 * annotations of item t (P_g each), a the mean over the items with r_t >= 2
 * of the mean over ordered pairs g != h of their weighted agreement
 * sum over k, l of w(k, l) P_g(k) P_h(l), pi_k the mean over the items with
 * r_t >= 1 of (1/r_t) sum over g of P_g(k):
 *
 *   AC1: w = identity, p_e = sum over k of pi_k (1 - pi_k) / (q - 1)
 *   AC2: w = 1 - (x_k - x_l)^2 / (x_max - x_min)^2 over the q' distinct
 *        values, p_e = T_w sum over k of pi_k (1 - pi_k) / (q' (q' - 1)),
 *        T_w = sum over k, l of w(k, l)
 *   Brennan-Prediger: w = identity, p_e = 1/q
 *   Conger: w = identity, p_gk = the mean of P_g(k) over the items g
 *        annotated, p_k their mean over the R annotators,
 *        p_e = sum over k of (p_k^2 - s_k^2 / R),
 *        s_k^2 = (sum over g of p_gk^2 - R p_k^2) / (R - 1)
 *
 * and (p_a - p_e) / (1 - p_e).  The weighted agreement of AC2 is 1 - the
 * squared difference over the range squared, whose sum over pairs is the
 * interval term of alpha (unit_squared).  Cohen's weighted kappa, two
 * annotators, items both annotated: 1 - D_o / D_e, D_o the mean of
 * sum over k, l of P_1(k) P_2(l) d(k, l), D_e = sum over k, l of
 * p_1(k) p_2(l) d(k, l) with the marginals p_1, p_2, d = |x_k - x_l| or
 * (x_k - x_l)^2: moments for the squares, a sweep over the values sorted for
 * the absolute differences.
 */

/* sum over i, j of a_i b_j |x_i - y_j| for two lists sorted by value: each
 * pair counted when its later element is met. */
static double abs_cross(const struct valmass *a, size_t na, const struct valmass *b, size_t nb)
{
	struct tv_fsum t;
	tv_fsum_init(&t);
	double ma = 0.0, mva = 0.0, mb = 0.0, mvb = 0.0;
	size_t i = 0, j = 0;
	while (i < na || j < nb) {
		if (j == nb || (i < na && a[i].x <= b[j].x)) {
			tv_fsum_add(&t, a[i].n * (a[i].x * mb - mvb));
			ma += a[i].n;
			mva += a[i].n * a[i].x;
			i++;
		} else {
			tv_fsum_add(&t, b[j].n * (b[j].x * ma - mva));
			mb += b[j].n;
			mvb += b[j].n * b[j].x;
			j++;
		}
	}
	return tv_fsum_result(&t);
}

/* The entries of an annotation as (value, mass), sorted by value, into @out
 * (room for @n). */
static void sorted_values(const struct alpha_ws *w, const struct tv_leafp *e, size_t n,
			  struct valmass *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (struct valmass){ w->x[e[i].leaf], e[i].p, 0.0 };
	if (n > 1)
		qsort(out, n, sizeof *out, by_value);
}

/* The sums of one pass over the items. */
struct chance_sums {
	size_t rated, items, both;      /* r_t >= 1, r_t >= 2, both of two annotators */
	struct tv_fsum pa, pa_sq;       /* sum of a_t; sum of the squared-difference term */
	struct tv_csum pa_c;            /* the terms of pa, counted (chance_compute) */
	/* with at most CHANCE_COUNTED annotators, the terms 1/m of pi (marg
	 * column 0) of single-leaf annotations, counted: [pos * nann + m - 1],
	 * added by chance_counts (NULL: not counted) */
	uint64_t *inv;
	size_t invcap;
	struct tv_fsum lin, quad;       /* Cohen: sums of the item disagreements */
	size_t *ng;                     /* [annotator] items annotated */
	struct tv_lsum *marg;           /* [pos * stride + j]: pi, classif[g], p_1, p_2 */
	struct tv_fsum_pool big;        /* the sums of marg that were rounded */
	size_t stride, cap;
	int pool;                       /* column stride - 1: S_t over items with r_t >= 2 */
	int numeric;                    /* every label so far a number */
	struct valmass *va, *vb;        /* scratch for abs_cross */
	size_t vcap, vbcap;
};

static void set_chance(struct tageval_chance_figures *out, int c, double pa, double pe,
		       int undefined_if_one)
{
	out->observed[c] = pa;
	out->chance[c] = pe;
	if (undefined_if_one && !(1.0 - pe >= TV_ALPHA_EPS))
		out->undefined[c] = TAGEVAL_UNDEFINED_CHANCE;
	else
		out->value[c] = (pa - pe) / (1.0 - pe);
}

#define CHANCE_COUNTED 16

/* A new leaf @l: its row of marginals, its value; -1 out of memory. */
static int chance_leaf(const struct tageval_annotations *a, struct alpha_ws *w,
		       struct chance_sums *cs, uint32_t l)
{
	if (tv_grow((void **)&cs->marg, &cs->cap, (w->nused + 1) * cs->stride, sizeof *cs->marg))
		return -1;
	memset(&cs->marg[w->nused * cs->stride], 0, cs->stride * sizeof *cs->marg);
	if (a->nann <= CHANCE_COUNTED) {
		if (tv_grow((void **)&cs->inv, &cs->invcap, (w->nused + 1) * a->nann,
			    sizeof *cs->inv))
			return -1;
		memset(&cs->inv[w->nused * a->nann], 0, a->nann * sizeof *cs->inv);
	}
	w->pos[l] = (uint32_t)w->nused;
	w->used[w->nused++] = l;
	if (parse_label(tv_inventory_name(a->inv, l), &w->x[l]))
		cs->numeric = 0;
	return 0;
}

/* Cohen's weighted disagreements of one item annotated by both; -1: out of memory. */
static int cohen_item(const struct tageval_annotations *a, struct alpha_ws *w,
		      struct chance_sums *cs, const struct tv_rec *const *r)
{
	double ignored;
	tv_fsum_add(&cs->quad, unit_squared(a, w, r, 2, w->x, &ignored) / 2.0);
	struct tv_leafp one1, one2;
	size_t n1, n2;
	const struct tv_leafp *e1 = rec_entries(a, r[0], &one1, &n1);
	const struct tv_leafp *e2 = rec_entries(a, r[1], &one2, &n2);
	if (n1 == 1 && n2 == 1) {
		tv_fsum_add(&cs->lin, fabs(w->x[e1[0].leaf] - w->x[e2[0].leaf]));
		return 0;
	}
	if (tv_grow((void **)&cs->va, &cs->vcap, n1, sizeof *cs->va) ||
	    tv_grow((void **)&cs->vb, &cs->vbcap, n2, sizeof *cs->vb))
		return -1;
	sorted_values(w, e1, n1, cs->va);
	sorted_values(w, e2, n2, cs->vb);
	tv_fsum_add(&cs->lin, abs_cross(cs->va, n1, cs->vb, n2));
	return 0;
}

/* One item's annotations @r (annotators @who) into @cs, @term the nominal
 * term of unit_nominal_term() when m >= 2: 1 when a tag has tags below it,
 * -1 out of memory. */
static int chance_item(const struct tageval_annotations *a, struct alpha_ws *w,
		       struct chance_sums *cs, const struct tv_rec *const *r, const size_t *who,
		       size_t m, double term)
{
	cs->rated++;
	for (size_t i = 0; i < m; i++) {
		struct tv_leafp one;
		size_t ne;
		const struct tv_leafp *e = rec_entries(a, r[i], &one, &ne);
		cs->ng[who[i]]++;
		for (size_t j = 0; j < ne; j++) {
			uint32_t l = e[j].leaf;
			if (!a->inv->dag && inner_tag(a, l))
				return 1;
			if (w->pos[l] == TV_NONE && chance_leaf(a, w, cs, l))
				return -1;
			struct tv_lsum *row = cs->marg + (size_t)w->pos[l] * cs->stride;
			if (a->nann <= CHANCE_COUNTED && tv_rec_inline(r[i]))
				cs->inv[(size_t)w->pos[l] * a->nann + m - 1]++; /* 1 / m */
			else if (tv_lsum_add(&row[0], &cs->big, e[j].p / (double)m))
				return -1;
			if (tv_lsum_add_counted(&row[1 + who[i]], &cs->big, e[j].p) ||
			    (m == 2 && a->nann == 2 &&
			     tv_lsum_add_counted(&row[1 + a->nann + who[i]], &cs->big, e[j].p)) ||
			    (cs->pool && m >= 2 &&
			     tv_lsum_add_counted(&row[cs->stride - 1], &cs->big, e[j].p)))
				return -1;
		}
	}
	if (m < 2)
		return 0;
	cs->items++;
	double pairs = (double)m * (double)(m - 1), ignored;
	if (all_inline(r, m))
		tv_csum_add(&cs->pa_c, &cs->pa, 1.0 - term / pairs);
	else
		tv_fsum_add(&cs->pa, 1.0 - term / pairs);
	if (cs->numeric)
		tv_fsum_add(&cs->pa_sq, unit_squared(a, w, r, m, w->x, &ignored) / pairs);
	if (m == 2 && a->nann == 2) {
		cs->both++;
		if (cs->numeric && cohen_item(a, w, cs, r))
			return -1;
	}
	return 0;
}

/* The counted terms 1/m into column 0 of the marginals, exactly: count x
 * fl(1/m) as the rounded product and its error (fma); -1 out of memory. */
static int chance_counts(const struct tageval_annotations *a, const struct alpha_ws *w,
			 struct chance_sums *cs)
{
	if (a->nann > CHANCE_COUNTED)
		return 0;
	for (size_t i = 0; i < w->nused; i++)
		for (size_t m = 1; m <= a->nann; m++) {
			uint64_t *n = &cs->inv[i * a->nann + m - 1];
			if (*n == 0)
				continue;
			double q = 1.0 / (double)m, hi = (double)*n * q;
			struct tv_lsum *s = &cs->marg[i * cs->stride];
			if (tv_lsum_add(s, &cs->big, hi) ||
			    tv_lsum_add(s, &cs->big, fma((double)*n, q, -hi)))
				return -1;
			*n = 0;
		}
	return 0;
}

/* Column @col of the marginals of the @i-th used leaf. */
static double marg_at(const struct chance_sums *cs, size_t i, size_t col)
{
	return tv_lsum_result(&cs->marg[i * cs->stride + col], &cs->big);
}

/* The distinct values of the used leaves with the mass of column @col of
 * the marginals (exact sums per value): into @vals, sorted; returns their
 * number. */
static size_t value_masses(const struct alpha_ws *w, const struct chance_sums *cs, size_t col,
			   struct valmass *vals, struct tv_fsum *scratch)
{
	for (size_t i = 0; i < w->nused; i++)
		vals[i] = (struct valmass){ w->x[w->used[i]], 0.0, 0.0 };
	qsort(vals, w->nused, sizeof *vals, by_value);
	size_t ng = 0;
	for (size_t i = 0; i < w->nused; i++)
		if (ng == 0 || vals[ng - 1].x != vals[i].x)
			vals[ng++] = vals[i];
	for (size_t g = 0; g < ng; g++)
		tv_fsum_init(&scratch[g]);
	for (size_t i = 0; i < w->nused; i++) {
		struct valmass key = { w->x[w->used[i]], 0.0, 0.0 };
		const struct valmass *g = bsearch(&key, vals, ng, sizeof *vals, by_value);
		tv_fsum_add(&scratch[g - vals], marg_at(cs, i, col));
	}
	for (size_t g = 0; g < ng; g++)
		vals[g].n = tv_fsum_result(&scratch[g]);
	return ng;
}

/* AC2 and the weighted kappas, from the sums; -1: out of memory. */
static int numeric_coefficients(const struct tageval_annotations *a, const struct alpha_ws *w,
				const struct chance_sums *cs, struct tageval_chance_figures *out)
{
	struct valmass *vals = malloc((w->nused ? w->nused : 1) * sizeof *vals);
	struct valmass *v2 = malloc((w->nused ? w->nused : 1) * sizeof *v2);
	struct tv_fsum *scratch = malloc((w->nused ? w->nused : 1) * sizeof *scratch);
	if (vals == NULL || v2 == NULL || scratch == NULL) {
		free(vals);
		free(v2);
		free(scratch);
		return -1;
	}
	double n = (double)cs->rated;
	/* AC2 over the distinct values, pi of each */
	size_t q = value_masses(w, cs, 0, vals, scratch);
	if (q < 2) {
		out->undefined[TAGEVAL_GWET_AC2] = TAGEVAL_UNDEFINED_ONE_CATEGORY;
	} else {
		double range = vals[q - 1].x - vals[0].x, mean = 0.0;
		for (size_t g = 0; g < q; g++)
			mean += vals[g].x;
		mean /= (double)q;
		struct tv_fsum ss, pp;
		tv_fsum_init(&ss);
		tv_fsum_init(&pp);
		for (size_t g = 0; g < q; g++) {
			double d = (vals[g].x - mean) / range, pi = vals[g].n / n;
			tv_fsum_add(&ss, d * d);
			tv_fsum_add(&pp, pi * (1.0 - pi));
		}
		double qd = (double)q;
		double tw = qd * qd - 2.0 * qd * tv_fsum_result(&ss);
		double pe = tw * tv_fsum_result(&pp) / (qd * (qd - 1.0));
		double pa = 1.0 - tv_fsum_result(&cs->pa_sq) / (double)cs->items / (range * range);
		set_chance(out, TAGEVAL_GWET_AC2, pa, pe, 1);
	}
	if (a->nann != 2 || cs->both == 0) {
		int why = a->nann != 2 ? TAGEVAL_UNDEFINED_TWO_ANNOTATORS : TAGEVAL_UNDEFINED_NO_ITEMS;
		out->undefined[TAGEVAL_KAPPA_LINEAR] = out->undefined[TAGEVAL_KAPPA_QUADRATIC] = why;
		goto done;
	}
	double both = (double)cs->both;
	size_t n1 = value_masses(w, cs, 3, vals, scratch);
	size_t n2 = value_masses(w, cs, 4, v2, scratch);
	/* moments of the two marginals */
	double mu[2], var[2];
	for (int s = 0; s < 2; s++) {
		const struct valmass *v = s ? v2 : vals;
		size_t nv = s ? n2 : n1;
		struct tv_fsum f;
		tv_fsum_init(&f);
		for (size_t g = 0; g < nv; g++)
			tv_fsum_add(&f, v[g].n / both * v[g].x);
		mu[s] = tv_fsum_result(&f);
		tv_fsum_init(&f);
		for (size_t g = 0; g < nv; g++)
			tv_fsum_add(&f, v[g].n / both * (v[g].x - mu[s]) * (v[g].x - mu[s]));
		var[s] = tv_fsum_result(&f);
	}
	double de[2] = { abs_cross(vals, n1, v2, n2) / (both * both),
			 var[0] + var[1] + (mu[0] - mu[1]) * (mu[0] - mu[1]) };
	double dobs[2] = { tv_fsum_result(&cs->lin) / both, tv_fsum_result(&cs->quad) / both };
	for (int s = 0; s < 2; s++) {
		int c = s ? TAGEVAL_KAPPA_QUADRATIC : TAGEVAL_KAPPA_LINEAR;
		out->observed[c] = dobs[s];
		out->chance[c] = de[s];
		if (!(de[s] >= TV_ALPHA_EPS))
			out->undefined[c] = TAGEVAL_UNDEFINED_NO_SPREAD;
		else
			out->value[c] = 1.0 - dobs[s] / de[s];
	}
done:
	free(vals);
	free(v2);
	free(scratch);
	return 0;
}

/* AC1, Brennan-Prediger and Conger's kappa from the sums. */
static void nominal_coefficients(const struct tageval_annotations *a, const struct alpha_ws *w,
				 const struct chance_sums *cs, size_t q,
				 struct tageval_chance_figures *out)
{
	double pa = tv_fsum_result(&cs->pa) / (double)cs->items, n = (double)cs->rated;
	double R = (double)a->nann;
	struct tv_fsum pp, pc;
	tv_fsum_init(&pp);
	tv_fsum_init(&pc);
	for (size_t i = 0; i < w->nused; i++) {
		double pi = marg_at(cs, i, 0) / n;
		tv_fsum_add(&pp, pi * (1.0 - pi));
		/* Conger: the annotators' classification probabilities */
		double sum = 0.0, sumsq = 0.0;
		for (size_t g = 0; g < a->nann; g++) {
			double p = marg_at(cs, i, 1 + g) / (double)cs->ng[g];
			sum += p;
			sumsq += p * p;
		}
		double mean = sum / R;
		tv_fsum_add(&pc, mean * mean - (sumsq - R * mean * mean) / (R * (R - 1.0)));
	}
	if (q < 2) {
		out->undefined[TAGEVAL_GWET_AC1] = TAGEVAL_UNDEFINED_ONE_CATEGORY;
		out->undefined[TAGEVAL_BRENNAN_PREDIGER] = TAGEVAL_UNDEFINED_ONE_CATEGORY;
	} else {
		double qd = (double)q;
		set_chance(out, TAGEVAL_GWET_AC1, pa, tv_fsum_result(&pp) / (qd - 1.0), 1);
		set_chance(out, TAGEVAL_BRENNAN_PREDIGER, pa, 1.0 / qd, 1);
	}
	set_chance(out, TAGEVAL_CONGER_KAPPA, pa, tv_fsum_result(&pc), 1);
}

/* The state of one computation of the chance-corrected coefficients. */
struct chance_run {
	struct alpha_ws w;
	struct chance_sums cs;
	const struct tv_rec **r;
	size_t *who;
	int inner; /* an annotation names a tag with tags below it */
};

static void chance_done(struct chance_run *cr)
{
	free(cr->r);
	free(cr->who);
	free(cr->cs.ng);
	free(cr->cs.marg);
	free(cr->cs.inv);
	tv_fsum_pool_free(&cr->cs.big);
	free(cr->cs.va);
	free(cr->cs.vb);
	ws_done(&cr->w);
}

/* The annotations of item @t into cr->r and cr->who: their number. */
static size_t item_records(const struct tageval_annotations *a, struct chance_run *cr, size_t t)
{
	size_t m = 0;
	for (size_t c = 0; c < a->nann; c++) {
		const struct tv_rec *rc = rec_at(a, c, t);
		if (rc) {
			cr->who[m] = c;
			cr->r[m++] = rc;
		}
	}
	return m;
}

static int chance_start(const struct tageval_annotations *a, int pool, struct chance_run *cr,
			struct tageval_chance_figures *out);
static int chance_rest(const struct tageval_annotations *a, size_t categories,
		       struct chance_run *cr, struct tageval_chance_figures *out,
		       struct tageval_error *err);

/* The pass of tageval_agreement_chance() into @out, leaving @cr for a
 * second pass (@pool: the pooled marginals too); chance_done() after it,
 * whatever it returns. */
static int chance_compute(const struct tageval_annotations *a, size_t categories, int pool,
			  struct chance_run *cr, struct tageval_chance_figures *out,
			  struct tageval_error *err)
{
	if (chance_start(a, pool, cr, out))
		return tv_nomem(err);
	for (size_t t = 0; t < a->nitems && !cr->inner; t++) {
		size_t m = item_records(a, cr, t);
		if (m == 0)
			continue;
		double term = 0.0, ignored;
		if (m >= 2 && unit_nominal_term(a, &cr->w, cr->r, m, &term, &ignored))
			return tv_nomem(err);
		cr->inner = chance_item(a, &cr->w, &cr->cs, cr->r, cr->who, m, term);
		if (cr->inner < 0)
			return tv_nomem(err);
	}
	return chance_rest(a, categories, cr, out, err);
}

/* The figures NaN and @cr ready for the pass over the items; -1 out of
 * memory (chance_done() after it either way). */
static int chance_start(const struct tageval_annotations *a, int pool, struct chance_run *cr,
			struct tageval_chance_figures *out)
{
	memset(out, 0, sizeof *out);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		out->observed[c] = out->chance[c] = out->value[c] = NAN;
	struct alpha_ws *w = &cr->w;
	struct chance_sums *cs = &cr->cs;
	cs->numeric = 1;
	cs->pool = pool;
	cs->stride = 1 + a->nann + (a->nann == 2 ? 2 : 0) + (pool ? 1 : 0);
	cr->r = malloc((a->nann ? a->nann : 1) * sizeof *cr->r);
	cr->who = malloc((a->nann ? a->nann : 1) * sizeof *cr->who);
	cs->ng = calloc(a->nann ? a->nann : 1, sizeof *cs->ng);
	tv_fsum_init(&cs->pa);
	memset(&cs->pa_c, 0, sizeof cs->pa_c);
	tv_fsum_init(&cs->pa_sq);
	tv_fsum_init(&cs->lin);
	tv_fsum_init(&cs->quad);
	if (cr->r == NULL || cr->who == NULL || cs->ng == NULL ||
	    ws_init(w, a->inv->tags.n, a->nann))
		return -1;
	return 0;
}

/* After the pass over the items (chance_compute, chance_alpha): the
 * coefficients from the sums. */
static int chance_rest(const struct tageval_annotations *a, size_t categories,
		       struct chance_run *cr, struct tageval_chance_figures *out,
		       struct tageval_error *err)
{
	struct alpha_ws *w = &cr->w;
	struct chance_sums *cs = &cr->cs;
	tv_csum_flush(&cs->pa_c, &cs->pa);
	if (chance_counts(a, w, cs))
		return tv_nomem(err);
	out->items = cs->items;
	out->rated = cs->rated;
	out->categories = categories ? categories : w->nused;
	if (categories && categories < w->nused)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"%zu categories given, but the annotations have %zu distinct labels",
				categories, w->nused);
	if (cs->items == 0 || cr->inner) {
		int why = cr->inner ? TAGEVAL_UNDEFINED_INNER_TAG : TAGEVAL_UNDEFINED_NO_ITEMS;
		for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
			out->undefined[c] = why;
		return TAGEVAL_OK;
	}
	nominal_coefficients(a, w, cs, out->categories, out);
	if (!cs->numeric) {
		out->undefined[TAGEVAL_GWET_AC2] = TAGEVAL_UNDEFINED_NOT_NUMBERS;
		out->undefined[TAGEVAL_KAPPA_LINEAR] = TAGEVAL_UNDEFINED_NOT_NUMBERS;
		out->undefined[TAGEVAL_KAPPA_QUADRATIC] = TAGEVAL_UNDEFINED_NOT_NUMBERS;
	} else if (numeric_coefficients(a, w, cs, out)) {
		return tv_nomem(err);
	}
	return TAGEVAL_OK;
}

int tageval_agreement_chance(const struct tageval_annotations *a, size_t categories,
			     struct tageval_chance_figures *out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		out->observed[c] = out->chance[c] = out->value[c] = NAN;
	TV_NEED(err, a, "ann");
	struct chance_run cr;
	memset(&cr, 0, sizeof cr);
	int rc = chance_compute(a, categories, 0, &cr, out, err);
	chance_done(&cr);
	return rc;
}

/*
 * The one pass over the items of tageval_agreement_chance_alpha(): each
 * item's annotations gathered once, its nominal term computed once, for
 * the chance-corrected coefficients (@cr) and pass 1 of alpha (@ar); each
 * stops where the separate pass would (an inner tag).  -1 out of memory.
 */
static int chance_alpha_pass(const struct tageval_annotations *a, struct chance_run *cr,
			     struct alpha_run *ar)
{
	for (size_t t = 0; t < a->nitems && !(cr->inner && ar->inner); t++) {
		size_t m = item_records(a, cr, t);
		if (m == 0)
			continue;
		double term = 0.0, within = 0.0;
		if (m >= 2 && unit_nominal_term(a, &cr->w, cr->r, m, &term, &within))
			return -1;
		if (!cr->inner && (cr->inner = chance_item(a, &cr->w, &cr->cs, cr->r, cr->who,
							   m, term)) < 0)
			return -1;
		if (m >= 2 && !ar->inner &&
		    (ar->inner = one_unit(a, &ar->w, &ar->p1, cr->r, m, term, within)) < 0)
			return -1;
	}
	if (!ar->inner)
		one_flush(&ar->p1);
	return 0;
}

int tageval_agreement_chance_alpha(const struct tageval_annotations *a, size_t categories,
				   unsigned levels, struct tageval_chance_figures *chance,
				   struct tageval_alpha_figures *alpha, struct tageval_error *err)
{
	TV_NEED(err, chance, "chance");
	TV_NEED(err, alpha, "alpha");
	alpha_figures_init(alpha);
	memset(chance, 0, sizeof *chance);
	for (int c = 0; c < TAGEVAL_CHANCE_COEFFICIENTS; c++)
		chance->observed[c] = chance->chance[c] = chance->value[c] = NAN;
	TV_NEED(err, a, "ann");
	if (levels == 0)
		levels = (1u << TAGEVAL_LEVELS) - 1;
	struct chance_run cr;
	struct alpha_run ar;
	memset(&cr, 0, sizeof cr);
	int rc;
	if (alpha_start(a, &ar) || chance_start(a, 0, &cr, chance) ||
	    chance_alpha_pass(a, &cr, &ar))
		rc = tv_nomem(err);
	else
		rc = alpha_rest(a, (levels >> TAGEVAL_RATIO) & 1u, &ar, alpha, err);
	/* in the order of the two calls it stands for: alpha's errors first,
	 * and alpha's figures complete (the levels not asked marked) whatever
	 * chance's part gives */
	if (rc == TAGEVAL_OK) {
		not_asked(alpha, levels);
		rc = chance_rest(a, categories, &cr, chance, err);
	}
	alpha_done(&ar);
	chance_done(&cr);
	return rc;
}

/* ------------------------------------------------------ standard errors */

/*
 * Analytic standard errors (hkappa(1), "Standard errors").  Cohen's kappa,
 * unweighted and weighted, two annotators: the large-sample variance of
 * Fleiss, Cohen & Everitt (1969) over the table p_kl = the mean over the
 * items both annotated of P_1(k) P_2(l), with agreement weights w = 1 - v,
 * v = d / d_max (identity for the unweighted kappa):
 *
 *   var = (sum over k, l of p_kl (w_kl - (wr_k + wc_l) (1 - kappa))^2
 *          - (kappa - p_e (1 - kappa))^2) / ((1 - p_e)^2 n),
 *
 * wr_k = sum over l of c_l w_kl, wc_l = sum over k of r_k w_kl with the
 * marginals r (first annotator) and c (second); for the identity the terms
 * off the diagonal reduce to p_kl (c_k + r_l)^2 (1 - kappa)^2.  The sum is
 * taken item by item, each a few sums over the item's entries (sorted by
 * value for |x - y|), never over pairs of labels.
 *
 * The others: Gwet's linearization (Gwet 2008; irrCAC): with n the items
 * in the variance, each item's term c_t and the coefficient c,
 * var = sum over t of (c_t - c)^2 / (n (n - 1)).  AC1, AC2 and
 * Brennan-Prediger over the n items annotated once or more (n_2 of them
 * twice or more; a_t their agreement, 0 for the others):
 *   c_t = (n / n_2) (a_t - p_e [r_t >= 2]) / (1 - p_e)
 *         - 2 (1 - c) (p_e,t - p_e) / (1 - p_e),
 * p_e,t = (T_w / (q (q - 1))) sum over k of (S_t(k) / r_t) (1 - pi_k) for
 * AC1 and AC2 (T_w = q for AC1), the second term absent for
 * Brennan-Prediger.  The pooled kappa over the n_2 items annotated twice
 * or more, N annotations on them, pi_k their pooled marginals:
 *   c_t - c = ((a_t - p_a) - 2 (1 - c) (n_2 / N) (sum over k of
 *             S_t(k) pi_k - p_e r_t)) / (1 - p_e),
 * irrCAC's Fleiss' kappa variance when every annotator annotated every item.
 */

/* A distribution over values, sorted, with prefix sums for the sums of
 * distances from any point. */
struct vdist {
	const struct valmass *v;
	size_t n;
	double *cm, *cmv;      /* [j]: sum of the masses, of mass x value, of v[0..j) */
	double mu, m2, m3, m4; /* the mean and the central moments */
};

static int vdist_init(struct vdist *d, const struct valmass *v, size_t n, double **buf,
		      size_t *cap)
{
	if (tv_grow((void **)buf, cap, 2 * (n + 1), sizeof **buf))
		return -1;
	d->v = v;
	d->n = n;
	d->cm = *buf;
	d->cmv = *buf + n + 1;
	d->cm[0] = d->cmv[0] = 0.0;
	for (size_t j = 0; j < n; j++) {
		d->cm[j + 1] = d->cm[j] + v[j].n;
		d->cmv[j + 1] = d->cmv[j] + v[j].n * v[j].x;
	}
	double tm = d->cm[n];
	d->mu = d->cmv[n] / tm;
	d->m2 = d->m3 = d->m4 = 0.0;
	for (size_t j = 0; j < n; j++) {
		double u = v[j].x - d->mu;
		d->m2 += v[j].n * u * u / tm;
		d->m3 += v[j].n * u * u * u / tm;
		d->m4 += v[j].n * u * u * u * u / tm;
	}
	return 0;
}

/* sum over j of mass_j |x - x_j|^p, p = 1 or 2, the masses summing to 1. */
static double vdist_at(const struct vdist *d, double x, int p)
{
	if (p == 2)
		return (x - d->mu) * (x - d->mu) + d->m2;
	size_t lo = 0, hi = d->n; /* the values <= x: v[0..lo) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->v[mid].x <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	double below = x * d->cm[lo] - d->cmv[lo];
	double above = (d->cmv[d->n] - d->cmv[lo]) - x * (d->cm[d->n] - d->cm[lo]);
	return below + above;
}

/* sum over j of mass_j |x - x_j|^(2p). */
static double vdist_sq_at(const struct vdist *d, double x, int p)
{
	double u = x - d->mu;
	if (p == 1)
		return u * u + d->m2;
	return u * u * u * u + 6.0 * u * u * d->m2 - 4.0 * u * d->m3 + d->m4;
}

struct se_ws {
	double *buf_a, *buf_b;
	size_t cap_a, cap_b;
	double *dense;      /* [leaf] the second annotation's mass, by stamp */
	uint32_t *stamp, gen;
};

/* E_t of the weighted kappa's variance for one item: the sum over its
 * pairs of values of P_1(k) P_2(l) (w_kl - (wr_k + wc_l) K)^2, K = 1 -
 * kappa, with v = |x - y|^p / dmax, wr = 1 - V1, wc = 1 - V2 (V1 from the
 * second annotator's marginal @col, V2 from the first's @row).  -1: out of
 * memory. */
static int weighted_item(struct chance_sums *cs, struct se_ws *sw, const struct alpha_ws *w,
			 const struct tageval_annotations *a, const struct tv_rec *const *r,
			 const struct vdist *row, const struct vdist *col, int p, double dmax,
			 double kappa, double *out)
{
	struct tv_leafp one1, one2;
	size_t n1, n2;
	const struct tv_leafp *e1 = rec_entries(a, r[0], &one1, &n1);
	const struct tv_leafp *e2 = rec_entries(a, r[1], &one2, &n2);
	if (tv_grow((void **)&cs->va, &cs->vcap, n1, sizeof *cs->va) ||
	    tv_grow((void **)&cs->vb, &cs->vbcap, n2, sizeof *cs->vb))
		return -1;
	sorted_values(w, e1, n1, cs->va);
	sorted_values(w, e2, n2, cs->vb);
	struct vdist da, db;
	if (vdist_init(&da, cs->va, n1, &sw->buf_a, &sw->cap_a) ||
	    vdist_init(&db, cs->vb, n2, &sw->buf_b, &sw->cap_b))
		return -1;
	double K = 1.0 - kappa;
	double D = 0.0, X1 = 0.0, X2 = 0.0, Q1 = 0.0, Q2 = 0.0, C1 = 0.0, C2 = 0.0, S = 0.0;
	for (size_t i = 0; i < n1; i++) {
		double x = cs->va[i].x, m = cs->va[i].n;
		double g = vdist_at(&db, x, p) / dmax;
		double v1 = vdist_at(col, x, p) / dmax;
		D += m * g;
		X1 += m * v1;
		Q1 += m * v1 * v1;
		C1 += m * v1 * g;
		S += m * vdist_sq_at(&db, x, p) / (dmax * dmax);
	}
	for (size_t j = 0; j < n2; j++) {
		double y = cs->vb[j].x, m = cs->vb[j].n;
		double h = vdist_at(&da, y, p) / dmax;
		double v2 = vdist_at(row, y, p) / dmax;
		X2 += m * v2;
		Q2 += m * v2 * v2;
		C2 += m * v2 * h;
	}
	double b = 2.0 * kappa - 1.0;
	*out = b * b - 2.0 * b * (D - K * (X1 + X2)) + S - 2.0 * K * (C1 + C2) +
	       K * K * (Q1 + 2.0 * X1 * X2 + Q2);
	return 0;
}

/* The variance terms of Cohen's unweighted kappa for one item (see above):
 * the diagonal sum and the full sum of p_kl (c_k + r_l)^2 K^2. */
static double cohen_item_se(struct se_ws *sw, const struct tageval_annotations *a,
			    const struct tv_rec *const *r, const struct alpha_ws *w,
			    const double *rm, const double *cmg, double kappa)
{
	struct tv_leafp one1, one2;
	size_t n1, n2;
	const struct tv_leafp *e1 = rec_entries(a, r[0], &one1, &n1);
	const struct tv_leafp *e2 = rec_entries(a, r[1], &one2, &n2);
	double K = 1.0 - kappa;
	if (++sw->gen == 0) {
		memset(sw->stamp, 0, w->ntags * sizeof *sw->stamp);
		sw->gen = 1;
	}
	for (size_t j = 0; j < n2; j++) {
		uint32_t l = e2[j].leaf;
		if (sw->stamp[l] != sw->gen) {
			sw->stamp[l] = sw->gen;
			sw->dense[l] = 0.0;
		}
		sw->dense[l] += e2[j].p;
	}
	struct tv_fsum f;
	tv_fsum_init(&f);
	double pc = 0.0, pr = 0.0;
	for (size_t i = 0; i < n1; i++) {
		uint32_t l = e1[i].leaf, k = w->pos[l];
		double sum = rm[k] + cmg[k];
		if (sw->stamp[l] == sw->gen) {
			double t = 1.0 - sum * K;
			tv_fsum_add(&f, e1[i].p * sw->dense[l] * (t * t - K * K * sum * sum));
		}
		tv_fsum_add(&f, K * K * e1[i].p * cmg[k] * cmg[k]);
		pc += e1[i].p * cmg[k];
	}
	for (size_t j = 0; j < n2; j++) {
		uint32_t k = w->pos[e2[j].leaf];
		tv_fsum_add(&f, K * K * e2[j].p * rm[k] * rm[k]);
		pr += e2[j].p * rm[k];
	}
	tv_fsum_add(&f, 2.0 * K * K * pc * pr);
	return tv_fsum_result(&f);
}

/* se[c] and the interval from the variance @var over @n items. */
static void set_se(struct tageval_standard_errors *out, int c, double value, double var,
		   size_t n, int method, double confidence)
{
	out->value[c] = value;
	out->items[c] = n;
	out->method[c] = method;
	/* a variance a rounding error took below 0 is 0; NaN stays NaN */
	double se = isnan(var) ? var : sqrt(var > 0.0 ? var : 0.0);
	out->se[c] = se;
	double tail = 1.0 - (1.0 - confidence) / 2.0;
	if (method == TAGEVAL_SE_FLEISS_COHEN_EVERITT) {
		double z = gsl_cdf_ugaussian_Pinv(tail);
		out->low[c] = value - z * se;
		out->high[c] = value + z * se;
	} else {
		double t = gsl_cdf_tdist_Pinv(tail, (double)(n - 1));
		out->low[c] = value - t * se;
		out->high[c] = fmin(1.0, value + t * se);
	}
}

/* The sorted value masses of marginal column @col divided by @total, into
 * a new *@vals; their number, 0 out of memory. */
static size_t marginal_values(const struct alpha_ws *w, const struct chance_sums *cs, size_t col,
			      double total, struct valmass **vals)
{
	*vals = malloc((w->nused ? w->nused : 1) * sizeof **vals);
	struct tv_fsum *scratch = malloc((w->nused ? w->nused : 1) * sizeof *scratch);
	if (*vals == NULL || scratch == NULL) {
		free(*vals);
		free(scratch);
		*vals = NULL;
		return 0;
	}
	size_t n = value_masses(w, cs, col, *vals, scratch);
	for (size_t g = 0; g < n; g++)
		(*vals)[g].n /= total;
	free(scratch);
	return n;
}

/* The second pass: every coefficient's sum over the items. */
struct se_sums {
	struct tv_fsum kappa, ac1, ac2, bp, cohen, lin, quad;
};

int tageval_agreement_standard_errors(const struct tageval_annotations *a, size_t categories,
				      double confidence, struct tageval_standard_errors *out,
				      struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	for (int c = 0; c < TAGEVAL_SE_COEFFICIENTS; c++)
		out->value[c] = out->se[c] = out->low[c] = out->high[c] = NAN;
	TV_NEED(err, a, "ann");
	if (!(confidence > 0.0 && confidence < 1.0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "confidence must be between 0 and 1");
	struct chance_run cr;
	memset(&cr, 0, sizeof cr);
	struct se_ws sw;
	memset(&sw, 0, sizeof sw);
	struct tageval_chance_figures ch;
	double *pi = NULL, *piv = NULL, *pool = NULL, *rm = NULL, *cmg = NULL;
	struct valmass *vr = NULL, *vc = NULL, *vq = NULL;
	double *buf_r = NULL, *buf_c = NULL;
	size_t cap_r = 0, cap_c = 0;
	int rc = chance_compute(a, categories, 1, &cr, &ch, err);
	if (rc)
		goto out;
	struct alpha_ws *w = &cr.w;
	struct chance_sums *cs = &cr.cs;
	/* the coefficients the chance figures give */
	static const struct {
		int se, ch;
	} from[] = { { TAGEVAL_SE_GWET_AC1, TAGEVAL_GWET_AC1 },
		     { TAGEVAL_SE_GWET_AC2, TAGEVAL_GWET_AC2 },
		     { TAGEVAL_SE_BRENNAN_PREDIGER, TAGEVAL_BRENNAN_PREDIGER },
		     { TAGEVAL_SE_KAPPA_LINEAR, TAGEVAL_KAPPA_LINEAR },
		     { TAGEVAL_SE_KAPPA_QUADRATIC, TAGEVAL_KAPPA_QUADRATIC } };
	for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
		out->undefined[from[i].se] = ch.undefined[from[i].ch];
	if (cs->items == 0 || cr.inner) {
		out->undefined[TAGEVAL_SE_KAPPA] = out->undefined[TAGEVAL_SE_KAPPA_COHEN] =
			cr.inner ? TAGEVAL_UNDEFINED_INNER_TAG : TAGEVAL_UNDEFINED_NO_ITEMS;
		goto out;
	}
	size_t nu = w->nused ? w->nused : 1;
	pi = malloc(nu * sizeof *pi);
	piv = malloc(nu * sizeof *piv);
	pool = malloc(nu * sizeof *pool);
	rm = malloc(nu * sizeof *rm);
	cmg = malloc(nu * sizeof *cmg);
	sw.dense = malloc((w->ntags ? w->ntags : 1) * sizeof *sw.dense);
	sw.stamp = calloc(w->ntags ? w->ntags : 1, sizeof *sw.stamp);
	if (!pi || !piv || !pool || !rm || !cmg || !sw.dense || !sw.stamp) {
		rc = tv_nomem(err);
		goto out;
	}
	double n = (double)cs->rated, n2 = (double)cs->items;
	int two = a->nann == 2;
	struct tv_fsum fa, fpe, fpc;
	tv_fsum_init(&fa);
	tv_fsum_init(&fpe);
	tv_fsum_init(&fpc);
	for (size_t i = 0; i < w->nused; i++) {
		pi[i] = marg_at(cs, i, 0) / n;
		tv_fsum_add(&fa, marg_at(cs, i, cs->stride - 1));
		if (two) {
			rm[i] = marg_at(cs, i, 3) / (double)cs->both;
			cmg[i] = marg_at(cs, i, 4) / (double)cs->both;
			tv_fsum_add(&fpc, rm[i] * cmg[i]);
		}
	}
	double N = tv_fsum_result(&fa);
	for (size_t i = 0; i < w->nused; i++) {
		pool[i] = marg_at(cs, i, cs->stride - 1) / N;
		tv_fsum_add(&fpe, pool[i] * pool[i]);
	}
	double pa = tv_fsum_result(&cs->pa) / n2, pe = tv_fsum_result(&fpe);
	double kappa = NAN, cohen = NAN, pec = tv_fsum_result(&fpc);
	if (!(1.0 - pe >= TV_ALPHA_EPS))
		out->undefined[TAGEVAL_SE_KAPPA] = TAGEVAL_UNDEFINED_CHANCE;
	else
		kappa = (pa - pe) / (1.0 - pe);
	if (!two)
		out->undefined[TAGEVAL_SE_KAPPA_COHEN] = TAGEVAL_UNDEFINED_TWO_ANNOTATORS;
	else if (!(1.0 - pec >= TV_ALPHA_EPS))
		out->undefined[TAGEVAL_SE_KAPPA_COHEN] = TAGEVAL_UNDEFINED_CHANCE;
	else
		cohen = (pa - pec) / (1.0 - pec);
	/* AC2: pi of each leaf's value, T_w / (q' (q' - 1)), the range */
	double ac2_factor = 0.0, range = 0.0;
	int numeric = !ch.undefined[TAGEVAL_GWET_AC2];
	if (numeric) {
		size_t q2 = marginal_values(w, cs, 0, n, &vq);
		if (vq == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
		range = vq[q2 - 1].x - vq[0].x;
		for (size_t i = 0; i < w->nused; i++) {
			struct valmass key = { w->x[w->used[i]], 0.0, 0.0 };
			const struct valmass *g = bsearch(&key, vq, q2, sizeof *vq, by_value);
			piv[i] = g->n;
		}
		/* T_w from p_e = T_w sum pi (1 - pi) / (q' (q' - 1)) of pass one */
		struct tv_fsum pp;
		tv_fsum_init(&pp);
		for (size_t g = 0; g < q2; g++)
			tv_fsum_add(&pp, vq[g].n * (1.0 - vq[g].n));
		double spp = tv_fsum_result(&pp);
		ac2_factor = spp > 0.0 ? ch.chance[TAGEVAL_GWET_AC2] / spp : 0.0;
	}
	/* weighted kappas: the marginals as value distributions */
	struct vdist drow, dcol;
	int weighted = two && (!ch.undefined[TAGEVAL_KAPPA_LINEAR] ||
			       !ch.undefined[TAGEVAL_KAPPA_QUADRATIC]);
	double wrange = 0.0;
	if (weighted) {
		size_t nr = marginal_values(w, cs, 3, (double)cs->both, &vr);
		size_t nc = vr ? marginal_values(w, cs, 4, (double)cs->both, &vc) : 0;
		if (vr == NULL || vc == NULL || vdist_init(&drow, vr, nr, &buf_r, &cap_r) ||
		    vdist_init(&dcol, vc, nc, &buf_c, &cap_c)) {
			rc = tv_nomem(err);
			goto out;
		}
		wrange = fmax(vr[nr - 1].x, vc[nc - 1].x) - fmin(vr[0].x, vc[0].x);
	}
	double q = (double)ch.categories;
	double ac1 = ch.value[TAGEVAL_GWET_AC1], pe1 = ch.chance[TAGEVAL_GWET_AC1];
	double ac2 = ch.value[TAGEVAL_GWET_AC2], pe2 = ch.chance[TAGEVAL_GWET_AC2];
	double bp = ch.value[TAGEVAL_BRENNAN_PREDIGER], pe3 = ch.chance[TAGEVAL_BRENNAN_PREDIGER];
	struct se_sums ss;
	tv_fsum_init(&ss.kappa);
	tv_fsum_init(&ss.ac1);
	tv_fsum_init(&ss.ac2);
	tv_fsum_init(&ss.bp);
	tv_fsum_init(&ss.cohen);
	tv_fsum_init(&ss.lin);
	tv_fsum_init(&ss.quad);
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = item_records(a, &cr, t);
		if (m == 0)
			continue;
		double md = (double)m, at = 0.0, at2 = 0.0, ignored;
		if (m >= 2) {
			double term;
			if (unit_nominal(a, w, cr.r, m, &term, &ignored)) {
				rc = tv_nomem(err);
				goto out;
			}
			at = 1.0 - term / (md * (md - 1.0));
			if (numeric)
				at2 = 1.0 - unit_squared(a, w, cr.r, m, w->x, &ignored) /
						    (md * (md - 1.0)) / (range * range);
		} else {
			int multi;
			if (unit_masses(a, w, cr.r, m, &multi)) {
				rc = tv_nomem(err);
				goto out;
			}
		}
		/* sums over the item's leaves: S_t(k) (1 - pi_k), S_t(k) pool_k */
		struct tv_fsum f1, f2, f3;
		tv_fsum_init(&f1);
		tv_fsum_init(&f2);
		tv_fsum_init(&f3);
		for (size_t i = 0; i < w->ntouched; i++) {
			uint32_t l = w->touched[i], k = w->pos[l];
			tv_fsum_add(&f1, w->s[l] * (1.0 - pi[k]));
			if (numeric)
				tv_fsum_add(&f2, w->s[l] * (1.0 - piv[k]));
			tv_fsum_add(&f3, w->s[l] * pool[k]);
		}
		double two_plus = m >= 2 ? 1.0 : 0.0;
		if (!out->undefined[TAGEVAL_SE_GWET_AC1]) {
			double pet = tv_fsum_result(&f1) / md / (q - 1.0);
			double c = (n / n2) * (at - pe1 * two_plus) / (1.0 - pe1) -
				   2.0 * (1.0 - ac1) * (pet - pe1) / (1.0 - pe1) - ac1;
			tv_fsum_add(&ss.ac1, c * c);
		}
		if (!out->undefined[TAGEVAL_SE_BRENNAN_PREDIGER]) {
			double c = (n / n2) * (at - pe3 * two_plus) / (1.0 - pe3) - bp;
			tv_fsum_add(&ss.bp, c * c);
		}
		if (!out->undefined[TAGEVAL_SE_GWET_AC2]) {
			double pet = ac2_factor * tv_fsum_result(&f2) / md;
			double c = (n / n2) * (at2 - pe2 * two_plus) / (1.0 - pe2) -
				   2.0 * (1.0 - ac2) * (pet - pe2) / (1.0 - pe2) - ac2;
			tv_fsum_add(&ss.ac2, c * c);
		}
		if (m < 2)
			continue;
		if (!out->undefined[TAGEVAL_SE_KAPPA]) {
			double c = ((at - pa) - 2.0 * (1.0 - kappa) * (n2 / N) *
							(tv_fsum_result(&f3) - pe * md)) /
				   (1.0 - pe);
			tv_fsum_add(&ss.kappa, c * c);
		}
		if (!two)
			continue;
		if (!out->undefined[TAGEVAL_SE_KAPPA_COHEN])
			tv_fsum_add(&ss.cohen, cohen_item_se(&sw, a, cr.r, w, rm, cmg, cohen));
		for (int p = 1; p <= 2 && weighted; p++) {
			int c = p == 1 ? TAGEVAL_SE_KAPPA_LINEAR : TAGEVAL_SE_KAPPA_QUADRATIC;
			if (out->undefined[c])
				continue;
			double e, dmax = p == 1 ? wrange : wrange * wrange;
			if (weighted_item(cs, &sw, w, a, cr.r, &drow, &dcol, p, dmax,
					  ch.value[p == 1 ? TAGEVAL_KAPPA_LINEAR
							  : TAGEVAL_KAPPA_QUADRATIC],
					  &e)) {
				rc = tv_nomem(err);
				goto out;
			}
			tv_fsum_add(p == 1 ? &ss.lin : &ss.quad, e);
		}
	}
	/* the variances */
	static const int gwet[] = { TAGEVAL_SE_GWET_AC1, TAGEVAL_SE_GWET_AC2,
				    TAGEVAL_SE_BRENNAN_PREDIGER };
	const struct tv_fsum *gs[] = { &ss.ac1, &ss.ac2, &ss.bp };
	const double gv[] = { ac1, ac2, bp };
	for (int i = 0; i < 3; i++) {
		if (out->undefined[gwet[i]])
			continue;
		if (cs->rated < 2) {
			out->undefined[gwet[i]] = TAGEVAL_UNDEFINED_ONE_ITEM;
			continue;
		}
		set_se(out, gwet[i], gv[i], tv_fsum_result(gs[i]) / (n * (n - 1.0)), cs->rated,
		       TAGEVAL_SE_GWET, confidence);
	}
	if (!out->undefined[TAGEVAL_SE_KAPPA]) {
		if (cs->items < 2)
			out->undefined[TAGEVAL_SE_KAPPA] = TAGEVAL_UNDEFINED_ONE_ITEM;
		else
			set_se(out, TAGEVAL_SE_KAPPA, kappa,
			       tv_fsum_result(&ss.kappa) / (n2 * (n2 - 1.0)), cs->items,
			       TAGEVAL_SE_GWET, confidence);
	}
	double nb = (double)cs->both;
	/* Fleiss, Cohen & Everitt's variance, like the others, needs two items */
	static const int fce[] = { TAGEVAL_SE_KAPPA_COHEN, TAGEVAL_SE_KAPPA_LINEAR,
				   TAGEVAL_SE_KAPPA_QUADRATIC };
	for (int i = 0; i < 3 && cs->both < 2; i++)
		if (!out->undefined[fce[i]] && (i == 0 || weighted))
			out->undefined[fce[i]] = TAGEVAL_UNDEFINED_ONE_ITEM;
	if (!out->undefined[TAGEVAL_SE_KAPPA_COHEN]) {
		double tc = cohen - pec * (1.0 - cohen);
		double var = (tv_fsum_result(&ss.cohen) / nb - tc * tc) /
			     ((1.0 - pec) * (1.0 - pec) * nb);
		set_se(out, TAGEVAL_SE_KAPPA_COHEN, cohen, var, cs->both,
		       TAGEVAL_SE_FLEISS_COHEN_EVERITT, confidence);
	}
	for (int p = 1; p <= 2 && weighted; p++) {
		int c = p == 1 ? TAGEVAL_SE_KAPPA_LINEAR : TAGEVAL_SE_KAPPA_QUADRATIC;
		int cc = p == 1 ? TAGEVAL_KAPPA_LINEAR : TAGEVAL_KAPPA_QUADRATIC;
		if (out->undefined[c])
			continue;
		double dmax = p == 1 ? wrange : wrange * wrange;
		double k = ch.value[cc], pew = 1.0 - ch.chance[cc] / dmax;
		double tc = k - pew * (1.0 - k);
		double var = (tv_fsum_result(p == 1 ? &ss.lin : &ss.quad) / nb - tc * tc) /
			     ((1.0 - pew) * (1.0 - pew) * nb);
		set_se(out, c, k, var, cs->both, TAGEVAL_SE_FLEISS_COHEN_EVERITT, confidence);
	}
out:
	free(pi);
	free(piv);
	free(pool);
	free(rm);
	free(cmg);
	free(vr);
	free(vc);
	free(vq);
	free(buf_r);
	free(buf_c);
	free(sw.buf_a);
	free(sw.buf_b);
	free(sw.dense);
	free(sw.stamp);
	chance_done(&cr);
	return rc;
}

/* ------------------------------------------------- agreement per category */

/*
 * The proportion of specific agreement of each leaf k (hkappa(1),
 * "Agreement per category"): over the items with r_t >= 2 annotations,
 * sum of (S_t(k)^2 - sum over g of P_g(k)^2) / sum of (r_t - 1) S_t(k),
 * the ordered pairs of annotations that both give k over those where the
 * first gives it.  Exact sums per leaf.
 */

static int by_label(const void *p, const void *q)
{
	const struct tageval_category_figure *a = p, *b = q;
	return strcmp(a->label, b->label);
}

void tageval_category_agreement_free(struct tageval_category_agreement *ca)
{
	if (ca == NULL)
		return;
	free(ca->cat);
	free(ca);
}

int tageval_agreement_per_category(const struct tageval_annotations *a,
				   struct tageval_category_agreement **out,
				   struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, a, "ann");
	struct alpha_ws w;
	memset(&w, 0, sizeof w);
	struct tv_lsum *sums = NULL; /* [pos * 3]: annotations, agreeing, pairs */
	struct tv_fsum_pool big;     /* the sums of sums that were rounded */
	memset(&big, 0, sizeof big);
	size_t cap = 0;
	const struct tv_rec **r = malloc((a->nann ? a->nann : 1) * sizeof *r);
	struct tageval_category_agreement *ca = calloc(1, sizeof *ca);
	int rc = TAGEVAL_OK;
	size_t items = 0;
	if (r == NULL || ca == NULL || ws_init(&w, a->inv->tags.n, a->nann)) {
		rc = tv_nomem(err);
		goto out;
	}
	for (size_t t = 0; t < a->nitems && !ca->undefined; t++) {
		size_t m = 0;
		for (size_t c = 0; c < a->nann; c++) {
			const struct tv_rec *rc2 = rec_at(a, c, t);
			if (rc2)
				r[m++] = rc2;
		}
		if (m < 2)
			continue;
		items++;
		int multi;
		if (unit_masses(a, &w, r, m, &multi)) {
			rc = tv_nomem(err);
			goto out;
		}
		for (size_t i = 0; i < w.ntouched; i++) {
			uint32_t l = w.touched[i];
			if (!a->inv->dag && inner_tag(a, l)) {
				ca->undefined = TAGEVAL_UNDEFINED_INNER_TAG;
				break;
			}
			if (w.pos[l] == TV_NONE) {
				if (tv_grow((void **)&sums, &cap, (w.nused + 1) * 3, sizeof *sums)) {
					rc = tv_nomem(err);
					goto out;
				}
				memset(&sums[w.nused * 3], 0, 3 * sizeof *sums);
				w.pos[l] = (uint32_t)w.nused;
				w.used[w.nused++] = l;
			}
			struct tv_lsum *f = sums + (size_t)w.pos[l] * 3;
			double sk = w.s[l];
			if (tv_lsum_add(&f[0], &big, sk) || tv_lsum_add(&f[1], &big, sk * sk) ||
			    tv_lsum_add(&f[2], &big, (double)(m - 1) * sk)) {
				rc = tv_nomem(err);
				goto out;
			}
		}
		if (ca->undefined)
			break;
		for (size_t i = 0; i < w.nue; i++)
			if (tv_lsum_add(&sums[(size_t)w.pos[w.ue[i].leaf] * 3 + 1], &big,
					-w.ue[i].p * w.ue[i].p)) {
				rc = tv_nomem(err);
				goto out;
			}
	}
	if (items == 0 && !ca->undefined)
		ca->undefined = TAGEVAL_UNDEFINED_NO_ITEMS;
	if (ca->undefined)
		goto out;
	ca->cat = malloc((w.nused ? w.nused : 1) * sizeof *ca->cat);
	if (ca->cat == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	for (size_t i = 0; i < w.nused; i++) {
		const struct tv_lsum *f = sums + i * 3;
		double pairs = tv_lsum_result(&f[2], &big);
		if (!(pairs > 0.0))
			continue; /* a label of weight 0 only */
		struct tageval_category_figure *c = &ca->cat[ca->n++];
		c->label = tv_inventory_name(a->inv, w.used[i]);
		c->annotations = tv_lsum_result(&f[0], &big);
		c->agreeing = tv_lsum_result(&f[1], &big);
		c->pairs = pairs;
		c->agreement = c->agreeing / pairs;
	}
	if (ca->n > 1)
		qsort(ca->cat, ca->n, sizeof *ca->cat, by_label);
out:
	free(r);
	free(sums);
	tv_fsum_pool_free(&big);
	ws_done(&w);
	if (rc) {
		tageval_category_agreement_free(ca);
		return rc;
	}
	*out = ca;
	return TAGEVAL_OK;
}

/* ---------------------------------------------------- alpha over tag sets */

/*
 * Alpha with a distance between the sets of leaves of two annotations
 * (hkappa(1), "Alpha over sets of tags"): exact (0 for equal sets, else 1),
 * Jaccard (1 - |A and B| / |A or B|) and MASI (1 - J M, M = 1, 2/3, 1/3, 0
 * for equal sets, one inside the other, sets that meet, disjoint sets).
 * The values are the distinct sets; D_o pairs the annotations of each item,
 * D_e = (n^2 - sum of n_c^2 - sum over ordered pairs of distinct sets c, k
 * that meet of n_c n_k (1 - d(c, k))) / (n (n - 1)): disjoint sets are at
 * distance 1, so only the pairs of sets with a leaf in common are visited
 * (through the sets of each leaf).
 */

struct set_table {
	struct tv_intern ids;    /* the bytes of the sorted leaf ids -> set */
	uint32_t *off, *len;     /* [set] its leaves in leaves[] */
	double *count;           /* [set] n_c */
	size_t nsets, offcap, lencap, countcap;
	uint32_t *leaves;
	size_t nleaves, leafcap;
	uint32_t *key;           /* scratch: one annotation's leaves */
	size_t keycap;
	uint32_t *single;        /* [leaf] the set {leaf}, TV_NONE before it is made */
};

/* The distance @d of two sets of @na and @nb leaves, @inter of them in both. */
static double inter_distance(int d, size_t inter, size_t na, size_t nb)
{
	if (inter == na && inter == nb)
		return 0.0;
	if (d == TAGEVAL_DISTANCE_EXACT)
		return 1.0;
	double jac = (double)inter / (double)(na + nb - inter);
	if (d == TAGEVAL_DISTANCE_JACCARD)
		return 1.0 - jac;
	double m = inter == na || inter == nb ? 2.0 / 3.0 : inter > 0 ? 1.0 / 3.0 : 0.0;
	return 1.0 - jac * m;
}

/* The leaves two sets given as sorted leaf ids have in common. */
static size_t set_common(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0, inter = 0;
	while (i < na && j < nb) {
		if (a[i] < b[j]) {
			i++;
		} else if (a[i] > b[j]) {
			j++;
		} else {
			inter++;
			i++;
			j++;
		}
	}
	return inter;
}

/* The set of annotation @r: its id in @st (new ones added); 1 when it has a
 * tag with tags below it, -1 out of memory. */
static int set_of(const struct tageval_annotations *a, struct set_table *st,
		  const struct tv_rec *r, uint32_t *id)
{
	struct tv_leafp one;
	size_t n, k = 0;
	const struct tv_leafp *e = rec_entries(a, r, &one, &n);
	if (tv_grow((void **)&st->key, &st->keycap, n ? n : 1, sizeof *st->key))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!a->inv->dag && inner_tag(a, e[i].leaf))
			return 1;
		if (e[i].p > 0.0)
			st->key[k++] = e[i].leaf; /* entries are in id order */
	}
	int added;
	if (k == 1 && st->single[st->key[0]] != TV_NONE) {
		*id = st->single[st->key[0]]; /* the common case, without hashing */
		return 0;
	}
	if (tv_intern_put(&st->ids, (const char *)st->key, k * sizeof *st->key, id, &added))
		return -1;
	if (k == 1)
		st->single[st->key[0]] = *id;
	if (!added)
		return 0;
	if (tv_grow((void **)&st->off, &st->offcap, st->nsets + 1, sizeof *st->off) ||
	    tv_grow((void **)&st->len, &st->lencap, st->nsets + 1, sizeof *st->len) ||
	    tv_grow((void **)&st->count, &st->countcap, st->nsets + 1, sizeof *st->count) ||
	    tv_grow((void **)&st->leaves, &st->leafcap, st->nleaves + k, sizeof *st->leaves))
		return -1;
	st->off[st->nsets] = (uint32_t)st->nleaves;
	st->len[st->nsets] = (uint32_t)k;
	st->count[st->nsets] = 0.0;
	memcpy(st->leaves + st->nleaves, st->key, k * sizeof *st->key);
	st->nleaves += k;
	st->nsets++;
	return 0;
}

/* sum over ordered pairs of distinct sets that meet of n_c n_k (1 - d(c, k)),
 * for each distance.  For each set c, the sets of each of its leaves are
 * walked and each set k > c met counts its leaves in common with c, so
 * that a pair costs nothing beyond the walk: the cost is the sum over the
 * leaves of the square of their sets, refused (1, before any of it) beyond
 * TAGEVAL_SET_PAIRS_MAX pairs.  -1: out of memory. */
static int meeting_pairs(const struct set_table *st, size_t ntags, struct tv_fsum *sim,
			 double *walk)
{
	/* the sets of each leaf (counting sort) */
	uint32_t *start = calloc(ntags + 1, sizeof *start);
	uint32_t *sets = malloc((st->nleaves ? st->nleaves : 1) * sizeof *sets);
	uint32_t *inter = calloc(st->nsets ? st->nsets : 1, sizeof *inter);
	uint32_t *met = malloc((st->nsets ? st->nsets : 1) * sizeof *met);
	int rc = 0;
	if (start == NULL || sets == NULL || inter == NULL || met == NULL) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < st->nleaves; i++)
		start[st->leaves[i] + 1]++;
	*walk = 0.0;
	for (size_t l = 0; l < ntags; l++) {
		double deg = start[l + 1];
		*walk += deg * (deg - 1.0) / 2.0;
	}
	if (*walk > TAGEVAL_SET_PAIRS_MAX) {
		rc = 1;
		goto out;
	}
	for (size_t l = 0; l < ntags; l++)
		start[l + 1] += start[l];
	for (size_t c = 0; c < st->nsets; c++)
		for (uint32_t i = 0; i < st->len[c]; i++)
			sets[start[st->leaves[st->off[c] + i]]++] = (uint32_t)c;
	for (size_t l = ntags; l > 0; l--)
		start[l] = start[l - 1];
	start[0] = 0;
	for (size_t c = 0; c < st->nsets; c++) {
		const uint32_t *a = st->leaves + st->off[c];
		size_t nmet = 0;
		for (uint32_t i = 0; i < st->len[c]; i++) {
			uint32_t l = a[i];
			for (uint32_t s = start[l]; s < start[l + 1]; s++) {
				uint32_t k = sets[s];
				if (k <= c)
					continue;
				if (inter[k]++ == 0)
					met[nmet++] = k;
			}
		}
		for (size_t j = 0; j < nmet; j++) {
			uint32_t k = met[j];
			double w = 2.0 * st->count[c] * st->count[k];
			for (int d = TAGEVAL_DISTANCE_JACCARD; d < TAGEVAL_DISTANCES; d++)
				tv_fsum_add(&sim[d],
					    w * (1.0 - inter_distance(d, inter[k], st->len[c], st->len[k])));
			inter[k] = 0;
		}
	}
out:
	free(start);
	free(sets);
	free(inter);
	free(met);
	return rc;
}

int tageval_agreement_alpha_sets(const struct tageval_annotations *a,
				 struct tageval_set_alpha *out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		out->alpha[d] = out->d_o[d] = out->d_e[d] = NAN;
	TV_NEED(err, a, "ann");
	struct set_table st;
	memset(&st, 0, sizeof st);
	tv_intern_init(&st.ids);
	uint32_t *sid = malloc((a->nann ? a->nann : 1) * sizeof *sid);
	size_t ntags = a->inv->tags.n;
	st.single = malloc((ntags ? ntags : 1) * sizeof *st.single);
	for (size_t l = 0; st.single && l < ntags; l++)
		st.single[l] = TV_NONE;
	struct tv_fsum d_o[TAGEVAL_DISTANCES], sim[TAGEVAL_DISTANCES];
	struct tv_csum cd[TAGEVAL_DISTANCES]; /* d_o's terms counted */
	memset(cd, 0, sizeof cd);
	for (int d = 0; d < TAGEVAL_DISTANCES; d++) {
		tv_fsum_init(&d_o[d]);
		tv_fsum_init(&sim[d]);
	}
	int rc = TAGEVAL_OK, inner = 0;
	double n = 0.0;
	size_t units = 0;
	if (sid == NULL || st.single == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	for (size_t t = 0; t < a->nitems && !inner; t++) {
		size_t m = 0;
		for (size_t c = 0; c < a->nann && !inner; c++) {
			const struct tv_rec *r = rec_at(a, c, t);
			if (r == NULL)
				continue;
			inner = set_of(a, &st, r, &sid[m]);
			m++;
		}
		if (inner < 0) {
			rc = tv_nomem(err);
			goto out;
		}
		if (inner || m < 2)
			continue;
		units++;
		n += (double)m;
		for (size_t i = 0; i < m; i++)
			st.count[sid[i]] += 1.0;
		double sum[TAGEVAL_DISTANCES] = { 0.0 }; /* pairs in the order of the annotators */
		int singles = 1; /* every set one tag: distances 0 or 1, a few sums */
		for (size_t i = 0; i < m; i++)
			singles &= st.len[sid[i]] == 1;
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < i; j++) {
				if (sid[i] == sid[j])
					continue;
				if (singles) {
					/* two distinct tags: nothing in common, every
					 * distance 1 (inter_distance) */
					for (int d = 0; d < TAGEVAL_DISTANCES; d++)
						sum[d] += 2.0;
					continue;
				}
				size_t na = st.len[sid[i]], nb = st.len[sid[j]];
				size_t inter = set_common(st.leaves + st.off[sid[i]], na,
							  st.leaves + st.off[sid[j]], nb);
				for (int d = 0; d < TAGEVAL_DISTANCES; d++)
					sum[d] += 2.0 * inter_distance(d, inter, na, nb);
			}
		for (int d = 0; d < TAGEVAL_DISTANCES; d++) {
			if (singles)
				tv_csum_add(&cd[d], &d_o[d], sum[d] / (double)(m - 1));
			else
				tv_fsum_add(&d_o[d], sum[d] / (double)(m - 1));
		}
	}
	for (int d = 0; d < TAGEVAL_DISTANCES; d++)
		tv_csum_flush(&cd[d], &d_o[d]);
	out->items = units;
	out->annotations = (size_t)n;
	if (inner || units == 0) {
		int why = inner ? TAGEVAL_UNDEFINED_INNER_TAG : TAGEVAL_UNDEFINED_NO_ITEMS;
		for (int d = 0; d < TAGEVAL_DISTANCES; d++)
			out->undefined[d] = why;
		goto out;
	}
	/* sets that appear only on items of one annotation have count 0 */
	double walk;
	int mrc = meeting_pairs(&st, a->inv->tags.n, sim, &walk);
	if (mrc > 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
			      "alpha over sets of tags: %.0f pairs of distinct sets that share a "
			      "tag (counted once per tag they share), more than the limit of %d "
			      "(see hkappa(1), LIMITS)",
			      walk, TAGEVAL_SET_PAIRS_MAX);
		goto out;
	}
	if (mrc < 0) {
		rc = tv_nomem(err);
		goto out;
	}
	double sq = 0.0; /* integers */
	for (size_t c = 0; c < st.nsets; c++)
		sq += st.count[c] * st.count[c];
	for (int d = 0; d < TAGEVAL_DISTANCES; d++) {
		tv_fsum_add(&sim[d], sq - n * n);
		double de = -tv_fsum_result(&sim[d]) / (n * (n - 1.0));
		out->d_o[d] = tv_fsum_result(&d_o[d]) / n;
		out->d_e[d] = de;
		if (!(de >= TV_ALPHA_EPS))
			out->undefined[d] = TAGEVAL_UNDEFINED_NO_SPREAD;
		else
			out->alpha[d] = 1.0 - out->d_o[d] / de;
	}
out:
	free(sid);
	tv_intern_clear(&st.ids);
	free(st.off);
	free(st.len);
	free(st.count);
	free(st.leaves);
	free(st.key);
	free(st.single);
	return rc;
}

/* ------------------------------------------- Cohen's kappa, given distances */

/*
 * Cohen's weighted kappa with a distance D given for each pair of labels
 * (hkappa(1), --weights): over the items both annotators annotated, with
 * P_1, P_2 their annotations' distributions over the leaves,
 *   d_o = mean over the items of sum over k, l of P_1(k) P_2(l) D(k, l),
 *   d_e = sum over k, l of r_k c_l D(k, l)  (r, c: the mean P_1, P_2),
 *   kappa = 1 - d_o / d_e.
 * The pairs are checked first (every one, whether its labels occur or not);
 * the labels that occur are then numbered, and the pairs between them,
 * complete, stored in the order (i, j), i < j, so that D(i, j) is found by
 * its rank.  Time: a sort of the pairs and of the labels, then linear in the
 * pairs and in the products of the entries of the two annotations of each
 * item (one product per item when each annotation has one tag).
 */

struct wk_pair {
	const char *lo, *hi; /* the names, lo <= hi by bytes */
	size_t index;        /* in the caller's array */
};

static int by_names(const void *p, const void *q)
{
	const struct wk_pair *x = p, *y = q;
	int c = strcmp(x->lo, y->lo);
	if (c == 0)
		c = strcmp(x->hi, y->hi);
	if (c == 0)
		c = (x->index > y->index) - (x->index < y->index);
	return c;
}

struct wk_label {
	const char *name;
	uint32_t used; /* its number among the labels that occur */
};

static int by_label_name(const void *p, const void *q)
{
	return strcmp(((const struct wk_label *)p)->name, ((const struct wk_label *)q)->name);
}

/* Checks the pairs: a distance in [0, 1], 0 from a label to itself, each
 * unordered pair once; the error of the first entry at fault in the order
 * of @pairs (a pair listed again: its second entry).  Sorts them into @s. */
static int wk_check(const struct tageval_label_distance *pairs, size_t npairs,
		    struct wk_pair *s, struct tageval_error *err)
{
	size_t bad = npairs; /* the first entry with a distance at fault */
	for (size_t i = 0; i < npairs; i++) {
		const struct tageval_label_distance *d = &pairs[i];
		if (d->first == NULL || d->second == NULL)
			return tv_error(err, TAGEVAL_EINVAL, "", i + 1, "a label is NULL");
		int c = strcmp(d->first, d->second);
		if (bad == npairs && (!(d->distance >= 0.0 && d->distance <= 1.0) ||
				      (c == 0 && d->distance != 0.0)))
			bad = i;
		s[i] = (struct wk_pair){ c < 0 ? d->first : d->second,
					 c < 0 ? d->second : d->first, i };
	}
	if (npairs > 1)
		qsort(s, npairs, sizeof *s, by_names);
	/* the repeated entry first in the order of @pairs: in each run of
	 * equal pairs the entries are in that order, so the second of a run */
	size_t dup = npairs, first = 0;
	for (size_t i = 1; i < npairs; i++)
		if (strcmp(s[i].lo, s[i - 1].lo) == 0 && strcmp(s[i].hi, s[i - 1].hi) == 0 &&
		    s[i].index < dup) {
			dup = s[i].index;
			first = s[i - 1].index;
		}
	/* the labels quoted as every message quotes a token (control bytes
	 * escaped, long ones cut) */
	char q1[80], q2[80];
	if (bad < dup) {
		const struct tageval_label_distance *d = &pairs[bad];
		tv_quote(q1, sizeof q1, d->first, strlen(d->first));
		tv_quote(q2, sizeof q2, d->second, strlen(d->second));
		if (!(d->distance >= 0.0 && d->distance <= 1.0))
			return tv_error(err, TAGEVAL_EINVAL, "", bad + 1,
					"the distance of \"%s\" and \"%s\" is not in [0, 1]", q1,
					q2);
		return tv_error(err, TAGEVAL_EINVAL, "", bad + 1,
				"the distance of \"%s\" to itself is not 0", q1);
	}
	if (dup < npairs) {
		const struct tageval_label_distance *a = &pairs[first], *b = &pairs[dup];
		tv_quote(q1, sizeof q1, b->first, strlen(b->first));
		tv_quote(q2, sizeof q2, b->second, strlen(b->second));
		if (a->distance != b->distance) {
			/* %g, or all the digits when %g shows the two the same */
			char d1[32], d2[32];
			snprintf(d1, sizeof d1, "%g", b->distance);
			snprintf(d2, sizeof d2, "%g", a->distance);
			if (strcmp(d1, d2) == 0) {
				snprintf(d1, sizeof d1, "%.17g", b->distance);
				snprintf(d2, sizeof d2, "%.17g", a->distance);
			}
			return tv_error(err, TAGEVAL_EINVAL, "", dup + 1,
					"\"%s\" and \"%s\" have distance %s here, but %s "
					"before: not symmetric", q1, q2, d1, d2);
		}
		return tv_error(err, TAGEVAL_EINVAL, "", dup + 1,
				"\"%s\" and \"%s\" are listed twice", q1, q2);
	}
	return TAGEVAL_OK;
}

/* A pair of labels used: their ranks in the order of the names, x < y. */
struct wk_xy {
	size_t x, y;
	double d;
};

/* The rank of the pair (i, j), i < j, among the pairs of @n labels. */
static size_t wk_rank(size_t i, size_t j, size_t n)
{
	return i * n - i * (i + 1) / 2 + (j - i - 1);
}

/* The distance of the labels numbered @i and @j among @n (0 for i = j). */
static double wk_d(const double *dist, size_t n, size_t i, size_t j)
{
	if (i == j)
		return 0.0;
	return dist[i < j ? wk_rank(i, j, n) : wk_rank(j, i, n)];
}

/* A standard error from the variance @var over @n items and its interval at
 * @confidence: the normal quantile (Fleiss, Cohen & Everitt) or Student's t
 * with n - 1 degrees of freedom, the upper end at most 1 (Gwet). */
static void se_interval(double value, double var, size_t n, int method, double confidence,
			double *se_out, double *low, double *high)
{
	/* a variance a rounding error took below 0 is 0; NaN stays NaN */
	double se = isnan(var) ? var : sqrt(var > 0.0 ? var : 0.0);
	*se_out = se;
	double tail = 1.0 - (1.0 - confidence) / 2.0;
	if (method == TAGEVAL_SE_FLEISS_COHEN_EVERITT) {
		double z = gsl_cdf_ugaussian_Pinv(tail);
		*low = value - z * se;
		*high = value + z * se;
	} else {
		double t = gsl_cdf_tdist_Pinv(tail, (double)(n - 1));
		*low = value - t * se;
		*high = fmin(1.0, value + t * se);
	}
}

/* The scratch of the weighted figures: the labels used (pos[leaf], used[k]),
 * the distances between them by rank, one item's masses per label. */
struct wk_run {
	size_t nused;
	uint32_t *pos, *used;
	double *dist;
	const struct tv_rec **r;
	double *s;           /* [k] S_t(k) of the item */
	uint32_t *touched;   /* the labels of the item */
	size_t ntouched;
	uint32_t *stamp, gen;
};

/* The annotations of item @t into wr->r: their number. */
static size_t wk_records(const struct tageval_annotations *a, struct wk_run *wr, size_t t)
{
	size_t m = 0;
	for (size_t c = 0; c < a->nann; c++) {
		const struct tv_rec *rc = rec_at(a, c, t);
		if (rc)
			wr->r[m++] = rc;
	}
	return m;
}

/* S_t(k) of the item's @m annotations (wr->r) into wr->s at wr->touched. */
static void wk_masses(const struct tageval_annotations *a, struct wk_run *wr, size_t m)
{
	if (++wr->gen == 0) {
		memset(wr->stamp, 0, (wr->nused ? wr->nused : 1) * sizeof *wr->stamp);
		wr->gen = 1;
	}
	wr->ntouched = 0;
	for (size_t g = 0; g < m; g++) {
		struct tv_leafp one;
		size_t ne;
		const struct tv_leafp *e = rec_entries(a, wr->r[g], &one, &ne);
		for (size_t x = 0; x < ne; x++) {
			uint32_t k = wr->pos[e[x].leaf];
			if (wr->stamp[k] != wr->gen) {
				wr->stamp[k] = wr->gen;
				wr->s[k] = 0.0;
				wr->touched[wr->ntouched++] = k;
			}
			wr->s[k] += e[x].p;
		}
	}
}

/* Gwet's weighted agreement of an item of @m >= 2 annotations, after
 * wk_masses(): the mean over the ordered pairs of annotations g != h of
 * sum over k, l of w(k,l) P_g(k) P_h(l), w = 1 - D, as
 * (sum over k, l of w S(k) S(l) - sum over g of sum w P_g(k) P_g(l)) / (m (m - 1)). */
static double wk_item_agreement(const struct tageval_annotations *a, const struct wk_run *wr,
				size_t m)
{
	/* an exact sum: the order of the touched labels and of a record's
	 * entries follows the tag ids, which follow the order of the lines, so
	 * a plain sum would round differently when the lines are reordered;
	 * each term is symmetric in its two labels for the same reason */
	struct tv_fsum f;
	tv_fsum_init(&f);
	for (size_t i = 0; i < wr->ntouched; i++) {
		uint32_t k = wr->touched[i];
		tv_fsum_add(&f, wr->s[k] * wr->s[k]);
		for (size_t j = i + 1; j < wr->ntouched; j++) {
			uint32_t l = wr->touched[j];
			tv_fsum_add(&f, 2.0 * (1.0 - wk_d(wr->dist, wr->nused, k, l)) *
						(wr->s[k] * wr->s[l]));
		}
	}
	for (size_t g = 0; g < m; g++) {
		struct tv_leafp one;
		size_t ne;
		const struct tv_leafp *e = rec_entries(a, wr->r[g], &one, &ne);
		for (size_t x = 0; x < ne; x++)
			for (size_t y = 0; y < ne; y++) {
				size_t k = wr->pos[e[x].leaf], l = wr->pos[e[y].leaf];
				tv_fsum_add(&f, -(1.0 - wk_d(wr->dist, wr->nused, k, l)) *
							(e[x].p * e[y].p));
			}
	}
	double sum = tv_fsum_result(&f);
	return sum / ((double)m * (double)(m - 1));
}

/* Gwet's AC2 with w = 1 - D and its standard error (hkappa(1)): pi, p_a,
 * p_e = T_w / (q (q - 1)) sum pi_k (1 - pi_k), then the linearization over
 * the items annotated once or more.  -1: out of memory. */
static int wk_ac2(const struct tageval_annotations *a, struct wk_run *wr, double confidence,
		  struct tageval_weighted_figures *out)
{
	size_t q = wr->nused;
	out->categories = q;
	if (out->items == 0) {
		out->ac2_undefined = out->ac2_se_undefined = TAGEVAL_UNDEFINED_NO_ITEMS;
		return 0;
	}
	if (q < 2) {
		out->ac2_undefined = out->ac2_se_undefined = TAGEVAL_UNDEFINED_ONE_CATEGORY;
		return 0;
	}
	struct tv_fsum *fpi = malloc(q * sizeof *fpi);
	double *pi = malloc(q * sizeof *pi);
	if (fpi == NULL || pi == NULL) {
		free(fpi);
		free(pi);
		return -1;
	}
	for (size_t k = 0; k < q; k++)
		tv_fsum_init(&fpi[k]);
	struct tv_fsum fpa, ftw, fpp;
	tv_fsum_init(&fpa);
	tv_fsum_init(&ftw);
	tv_fsum_init(&fpp);
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = wk_records(a, wr, t);
		if (m == 0)
			continue;
		wk_masses(a, wr, m);
		for (size_t i = 0; i < wr->ntouched; i++) {
			uint32_t k = wr->touched[i];
			tv_fsum_add(&fpi[k], wr->s[k] / (double)m);
		}
		if (m >= 2)
			tv_fsum_add(&fpa, wk_item_agreement(a, wr, m));
	}
	double n = (double)out->rated, n2 = (double)out->items;
	for (size_t k = 0; k < q; k++) {
		pi[k] = tv_fsum_result(&fpi[k]) / n;
		tv_fsum_add(&fpp, pi[k] * (1.0 - pi[k]));
		tv_fsum_add(&ftw, 1.0);
		for (size_t l = k + 1; l < q; l++)
			tv_fsum_add(&ftw, 2.0 * (1.0 - wr->dist[wk_rank(k, l, q)]));
	}
	double qd = (double)q, factor = tv_fsum_result(&ftw) / (qd * (qd - 1.0));
	double pa = tv_fsum_result(&fpa) / n2, pe = factor * tv_fsum_result(&fpp);
	out->ac2_observed = pa;
	out->ac2_chance = pe;
	if (!(1.0 - pe >= TV_ALPHA_EPS)) {
		out->ac2_undefined = out->ac2_se_undefined = TAGEVAL_UNDEFINED_CHANCE;
		goto done;
	}
	double c = (pa - pe) / (1.0 - pe);
	out->ac2 = c;
	if (confidence == 0.0) {
		out->ac2_se_undefined = TAGEVAL_UNDEFINED_NOT_ASKED;
		goto done;
	}
	if (out->rated < 2) {
		out->ac2_se_undefined = TAGEVAL_UNDEFINED_ONE_ITEM;
		goto done;
	}
	struct tv_fsum fv;
	tv_fsum_init(&fv);
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = wk_records(a, wr, t);
		if (m == 0)
			continue;
		wk_masses(a, wr, m);
		struct tv_fsum ffe; /* exact: the touched labels' order follows the lines' */
		tv_fsum_init(&ffe);
		for (size_t i = 0; i < wr->ntouched; i++) {
			uint32_t k = wr->touched[i];
			tv_fsum_add(&ffe, wr->s[k] * (1.0 - pi[k]));
		}
		double fe = tv_fsum_result(&ffe);
		double at = m >= 2 ? wk_item_agreement(a, wr, m) : 0.0;
		double pet = factor * fe / (double)m;
		double ct = (n / n2) * (at - (m >= 2 ? pe : 0.0)) / (1.0 - pe) -
			    2.0 * (1.0 - c) * (pet - pe) / (1.0 - pe) - c;
		tv_fsum_add(&fv, ct * ct);
	}
	se_interval(c, tv_fsum_result(&fv) / (n * (n - 1.0)), out->rated, TAGEVAL_SE_GWET,
		    confidence, &out->ac2_se, &out->ac2_low, &out->ac2_high);
done:
	free(fpi);
	free(pi);
	return 0;
}

/* The variance of Fleiss, Cohen & Everitt (1969) of the weighted kappa with
 * w = 1 - D (hkappa(1), "Standard errors"), from the marginals @mv (r then
 * c, nused each): wr_k = sum over l of c_l w(k,l), wc_l = sum over k of
 * r_k w(k,l), E = the mean over the items both annotated of sum over their
 * entries of P_1(k) P_2(l) (w(k,l) - (wr_k + wc_l)(1 - kappa))^2, and
 * var = (E - (kappa - p_e (1 - kappa))^2) / ((1 - p_e)^2 n), p_e = 1 - D_e.
 * -1: out of memory. */
static int wk_kappa_se(const struct tageval_annotations *a, const struct wk_run *wr,
		       const double *mv, double confidence, struct tageval_weighted_figures *out)
{
	size_t nu = wr->nused;
	struct tageval_weighted_kappa *wk = &out->kappa;
	if (wk->undefined) {
		out->kappa_se_undefined = wk->undefined;
		return 0;
	}
	if (confidence == 0.0) {
		out->kappa_se_undefined = TAGEVAL_UNDEFINED_NOT_ASKED;
		return 0;
	}
	if (wk->items < 2) {
		out->kappa_se_undefined = TAGEVAL_UNDEFINED_ONE_ITEM;
		return 0;
	}
	double *wrow = malloc(2 * nu * sizeof *wrow);
	if (wrow == NULL)
		return -1;
	double *wcol = wrow + nu;
	for (size_t k = 0; k < nu; k++) {
		struct tv_fsum fr, fc;
		tv_fsum_init(&fr);
		tv_fsum_init(&fc);
		for (size_t l = 0; l < nu; l++) {
			double w = 1.0 - wk_d(wr->dist, nu, k, l);
			tv_fsum_add(&fr, mv[nu + l] * w);
			tv_fsum_add(&fc, mv[l] * w);
		}
		wrow[k] = tv_fsum_result(&fr);
		wcol[k] = tv_fsum_result(&fc);
	}
	double K = 1.0 - wk->value;
	struct tv_fsum fe;
	tv_fsum_init(&fe);
	for (size_t t = 0; t < a->nitems; t++) {
		struct tv_leafp one1, one2;
		const struct tv_leafp *e1, *e2;
		size_t n1, n2;
		if (!both_entries(a, t, &one1, &e1, &n1, &one2, &e2, &n2))
			continue;
		for (size_t x = 0; x < n1; x++)
			for (size_t y = 0; y < n2; y++) {
				size_t k = wr->pos[e1[x].leaf], l = wr->pos[e2[y].leaf];
				double u = 1.0 - wk_d(wr->dist, nu, k, l) - (wrow[k] + wcol[l]) * K;
				tv_fsum_add(&fe, e1[x].p * e2[y].p * u * u);
			}
	}
	free(wrow);
	double nb = (double)wk->items, de = wk->chance, pe = 1.0 - de;
	double tc = wk->value - pe * K;
	double var = (tv_fsum_result(&fe) / nb - tc * tc) / (de * de * nb);
	se_interval(wk->value, var, wk->items, TAGEVAL_SE_FLEISS_COHEN_EVERITT, confidence,
		    &out->kappa_se, &out->kappa_low, &out->kappa_high);
	return 0;
}

/*
 * The computation of tageval_agreement_kappa_distances() (@all 0: the
 * labels of the items both of two annotators annotated only, the kappa
 * only) and of tageval_agreement_weighted() (@all 1: the labels of every
 * annotation, the kappa with its standard error and AC2 with its).
 */
static int wk_compute(const struct tageval_annotations *a,
		      const struct tageval_label_distance *pairs, size_t npairs, int all,
		      double confidence, struct tageval_weighted_figures *out,
		      struct tageval_error *err)
{
	struct tageval_weighted_kappa *wk = &out->kappa;
	int rc = TAGEVAL_OK;
	size_t ntags = a->inv->tags.n;
	struct wk_run wr;
	memset(&wr, 0, sizeof wr);
	struct wk_pair *s = malloc((npairs ? npairs : 1) * sizeof *s);
	wr.pos = malloc((ntags ? ntags : 1) * sizeof *wr.pos);
	wr.used = malloc((ntags ? ntags : 1) * sizeof *wr.used);
	wr.r = malloc((a->nann ? a->nann : 1) * sizeof *wr.r);
	struct wk_label *names = NULL;
	struct tv_fsum *marg = NULL;
	struct wk_xy *xy = NULL;
	double *mv = NULL;
	if (s == NULL || wr.pos == NULL || wr.used == NULL || wr.r == NULL) {
		rc = tv_nomem(err);
		goto done;
	}
	if ((rc = wk_check(pairs, npairs, s, err)) != TAGEVAL_OK)
		goto done;
	if (a->nann != 2) {
		wk->undefined = out->kappa_se_undefined = TAGEVAL_UNDEFINED_TWO_ANNOTATORS;
		if (!all)
			goto done;
	}
	/* the labels (of the items both annotated, or of every annotation),
	 * and the products of numbers of leaves the sums take: for the
	 * kappa, those of the two annotations of each item; for AC2, on each
	 * item of two or more annotations, the pairs of its distinct labels
	 * plus the square of each annotation's number of leaves */
	size_t *seen = all ? calloc(ntags ? ntags : 1, sizeof *seen) : NULL; /* [leaf] item + 1 */
	if (all && seen == NULL) {
		rc = tv_nomem(err);
		goto done;
	}
	for (size_t t = 0; t < ntags; t++)
		wr.pos[t] = TV_NONE;
	double products = 0.0;
	for (size_t t = 0; t < a->nitems; t++) {
		size_t m = wk_records(a, &wr, t);
		int both = a->nann == 2 && m == 2;
		if (m == 0 || (!all && !both))
			continue;
		wk->items += both;
		out->rated++;
		out->items += m >= 2;
		double nleaves[2] = { 0.0, 0.0 }, own = 0.0, distinct = 0.0;
		for (size_t g = 0; g < m; g++) {
			struct tv_leafp one;
			size_t ne;
			const struct tv_leafp *e = rec_entries(a, wr.r[g], &one, &ne);
			if (g < 2)
				nleaves[g] = (double)ne;
			own += (double)ne * (double)ne;
			for (size_t j = 0; j < ne; j++) {
				uint32_t l = e[j].leaf;
				if (seen && seen[l] != t + 1) {
					seen[l] = t + 1;
					distinct += 1.0;
				}
				if (!a->inv->dag && inner_tag(a, l)) {
					free(seen);
					/* no figure: no count half made */
					wk->items = out->rated = out->items = 0;
					wk->undefined = out->kappa_se_undefined =
						TAGEVAL_UNDEFINED_INNER_TAG;
					out->ac2_undefined = out->ac2_se_undefined =
						TAGEVAL_UNDEFINED_INNER_TAG;
					goto done;
				}
				if (wr.pos[l] == TV_NONE) {
					wr.pos[l] = (uint32_t)wr.nused;
					wr.used[wr.nused++] = l;
				}
			}
		}
		if (both)
			products += nleaves[0] * nleaves[1];
		if (all && m >= 2)
			products += distinct * (distinct - 1.0) / 2.0 + own;
	}
	free(seen);
	if (products > TAGEVAL_WEIGHTED_PAIRS_MAX) {
		/* lines of many tags (or inner tags of a DAG spread over many
		 * leaves) would make d_o quadratic in the input */
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
			      "the weighted figures of --weights: %.0f pairs of tags within the items, "
			      "more than the limit of %d (see hkappa(1), LIMITS)",
			      products, TAGEVAL_WEIGHTED_PAIRS_MAX);
		goto done;
	}
	size_t nused = wr.nused;
	if (nused > 1 && nused - 1 > SIZE_MAX / 2 / nused) {
		rc = tv_nomem(err);
		goto done;
	}
	if (!all && wk->items == 0) {
		wk->undefined = TAGEVAL_UNDEFINED_NO_ITEMS;
		goto done;
	}
	if (wk->items == 0 && !wk->undefined)
		wk->undefined = out->kappa_se_undefined = TAGEVAL_UNDEFINED_NO_ITEMS;
	/* the distances between them, every pair present: the pairs of labels
	 * used, by their ranks x < y in the order of the names, counted first
	 * (the table of all pairs is allocated only when they are all there) */
	size_t npd = nused * (nused - 1) / 2, m = 0;
	names = malloc((nused ? nused : 1) * sizeof *names);
	marg = malloc((nused ? 2 * nused : 1) * sizeof *marg);
	xy = malloc((npairs ? npairs : 1) * sizeof *xy);
	if (names == NULL || marg == NULL || xy == NULL) {
		rc = tv_nomem(err);
		goto done;
	}
	for (size_t i = 0; i < nused; i++)
		names[i] = (struct wk_label){ tv_inventory_name(a->inv, wr.used[i]), (uint32_t)i };
	if (nused > 1)
		qsort(names, nused, sizeof *names, by_label_name);
	for (size_t p = 0; p < npairs && nused; p++) {
		struct wk_label k1 = { s[p].lo, 0 }, k2 = { s[p].hi, 0 };
		const struct wk_label *x = bsearch(&k1, names, nused, sizeof *names, by_label_name);
		const struct wk_label *y = bsearch(&k2, names, nused, sizeof *names, by_label_name);
		if (x != NULL && y != NULL && x != y) /* lo < hi: x before y */
			xy[m++] = (struct wk_xy){ (size_t)(x - names), (size_t)(y - names),
						  pairs[s[p].index].distance };
	}
	if (m < npd) {
		/* s is sorted by names, so xy is sorted by (x, y): the first
		 * pair of ranks missing from it */
		size_t k = 0;
		for (size_t x = 0; x < nused; x++)
			for (size_t y = x + 1; y < nused; y++, k++)
				if (k >= m || xy[k].x != x || xy[k].y != y) {
					char q1[80], q2[80];
					tv_quote(q1, sizeof q1, names[x].name,
						 strlen(names[x].name));
					tv_quote(q2, sizeof q2, names[y].name,
						 strlen(names[y].name));
					rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
						      "no distance for the labels \"%s\" and \"%s\"",
						      q1, q2);
					goto done;
				}
	}
	wr.dist = malloc((npd ? npd : 1) * sizeof *wr.dist);
	mv = malloc((nused ? 2 * nused : 1) * sizeof *mv);
	if (wr.dist == NULL || mv == NULL) {
		rc = tv_nomem(err);
		goto done;
	}
	for (size_t k = 0; k < m; k++) {
		size_t i = names[xy[k].x].used, j = names[xy[k].y].used;
		wr.dist[i < j ? wk_rank(i, j, nused) : wk_rank(j, i, nused)] = xy[k].d;
	}
	if (all) {
		wr.s = malloc((nused ? nused : 1) * sizeof *wr.s);
		wr.touched = malloc((nused ? nused : 1) * sizeof *wr.touched);
		wr.stamp = calloc(nused ? nused : 1, sizeof *wr.stamp);
		if (wr.s == NULL || wr.touched == NULL || wr.stamp == NULL ||
		    wk_ac2(a, &wr, confidence, out)) {
			rc = tv_nomem(err);
			goto done;
		}
	}
	if (wk->undefined)
		goto done;
	/* d_o and the marginals */
	struct tv_fsum obs;
	tv_fsum_init(&obs);
	for (size_t i = 0; i < 2 * nused; i++)
		tv_fsum_init(&marg[i]);
	for (size_t t = 0; t < a->nitems; t++) {
		struct tv_leafp one1, one2;
		const struct tv_leafp *e1, *e2;
		size_t n1, n2;
		if (!both_entries(a, t, &one1, &e1, &n1, &one2, &e2, &n2))
			continue;
		for (size_t x = 0; x < n1; x++)
			tv_fsum_add(&marg[wr.pos[e1[x].leaf]], e1[x].p);
		for (size_t y = 0; y < n2; y++)
			tv_fsum_add(&marg[nused + wr.pos[e2[y].leaf]], e2[y].p);
		for (size_t x = 0; x < n1; x++)
			for (size_t y = 0; y < n2; y++) {
				size_t i = wr.pos[e1[x].leaf], j = wr.pos[e2[y].leaf];
				if (i != j)
					tv_fsum_add(&obs, e1[x].p * e2[y].p *
							  wk_d(wr.dist, nused, i, j));
			}
	}
	double both = (double)wk->items;
	for (size_t i = 0; i < 2 * nused; i++)
		mv[i] = tv_fsum_result(&marg[i]) / both;
	struct tv_fsum ch;
	tv_fsum_init(&ch);
	for (size_t i = 0; i < nused; i++)
		for (size_t j = i + 1; j < nused; j++) {
			double d = wr.dist[wk_rank(i, j, nused)];
			tv_fsum_add(&ch, d * mv[i] * mv[nused + j]);
			tv_fsum_add(&ch, d * mv[j] * mv[nused + i]);
		}
	wk->observed = tv_fsum_result(&obs) / both;
	wk->chance = tv_fsum_result(&ch);
	if (!(wk->chance >= TV_ALPHA_EPS))
		wk->undefined = out->kappa_se_undefined = TAGEVAL_UNDEFINED_NO_SPREAD;
	else
		wk->value = 1.0 - wk->observed / wk->chance;
	if (all && wk_kappa_se(a, &wr, mv, confidence, out))
		rc = tv_nomem(err);
done:
	free(s);
	free(wr.pos);
	free(wr.used);
	free(wr.r);
	free(wr.dist);
	free(wr.s);
	free(wr.touched);
	free(wr.stamp);
	free(names);
	free(marg);
	free(xy);
	free(mv);
	return rc;
}

void tv_weighted_figures_clear(struct tageval_weighted_figures *out)
{
	memset(out, 0, sizeof *out);
	out->kappa.observed = out->kappa.chance = out->kappa.value = NAN;
	out->kappa_se = out->kappa_low = out->kappa_high = NAN;
	out->ac2_observed = out->ac2_chance = out->ac2 = NAN;
	out->ac2_se = out->ac2_low = out->ac2_high = NAN;
}

int tageval_agreement_kappa_distances(const struct tageval_annotations *a,
				      const struct tageval_label_distance *pairs, size_t npairs,
				      struct tageval_weighted_kappa *out,
				      struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	struct tageval_weighted_figures f;
	tv_weighted_figures_clear(&f);
	*out = f.kappa;
	TV_NEED(err, a, "ann");
	if (npairs)
		TV_NEED(err, pairs, "pairs");
	int rc = wk_compute(a, pairs, npairs, 0, 0.5, &f, err);
	*out = f.kappa;
	return rc;
}

int tageval_agreement_weighted(const struct tageval_annotations *a,
			       const struct tageval_label_distance *pairs, size_t npairs,
			       double confidence, struct tageval_weighted_figures *out,
			       struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	tv_weighted_figures_clear(out);
	TV_NEED(err, a, "ann");
	if (npairs)
		TV_NEED(err, pairs, "pairs");
	if (!(confidence == 0.0 || (confidence > 0.0 && confidence < 1.0)))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"confidence must be between 0 and 1 (0: no standard errors)");
	return wk_compute(a, pairs, npairs, 1, confidence, out, err);
}
