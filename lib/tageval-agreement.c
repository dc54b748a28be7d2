/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Agreement over leaf distributions (Melamed & Resnik, section 5, and the
 * conventions of reference-agreement.md): kappa with pooled marginals,
 * Cohen / Davies-Fleiss with separate marginals, Krippendorff's alpha with
 * the distance 1 - <P, Q>, per lexelt and pooled, bootstrap intervals.
 *
 * Every item is reduced once to a few numbers (its agreement a_t, its
 * observed-disagreement term, the sum of its annotations' squared norms);
 * the marginals are summed into dense vectors over the tags, of which only
 * the touched entries are read and reset.  Memory grows with the items and
 * the tags, never with their product.
 *
 * Inner products without spreading tags over leaves.  In a tree, the leaf
 * distributions D(s) and D(t) of two tags overlap only when one is below the
 * other, and then, for s above t, D(s) restricted to t's leaves is
 * Pr(t | s) D(t), so
 *
 *   <D(s), D(t)> = Pr(t | s) S(t),   S(t) = |D(t)|^2
 *                = pself(t)^2 + sum over children c of Pr(c | t)^2 S(c)
 *
 * and Pr(t | s) = R(t) / R(s), with R(x) the product of the downward
 * probabilities from x's root (or from the last edge of probability 0
 * above x: a "segment"; a tag above that edge reaches x with probability 0).
 * R is kept as a mantissa and a 64-bit exponent: a chain of 2,000 tags of
 * factor 2 is far below the smallest double.  The inner product of two
 * mixtures sum_i w_i D(s_i) and sum_j v_j D(t_j) is then one walk over their
 * tags in preorder (sweep), keeping for the tags on the current root path the
 * sums of w_i / R(s_i): linear in the tags after their sort.  With a DAG the
 * entries are leaves, each its own tree of one, and the walk is a dot
 * product.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "tageval-agreement.h"
#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-parallel.h"
#include "tageval-rng.h"
#include "tageval-util.h"

/* m 2^e, m in [0.5, 1) or 0: numbers far outside a double's range */
struct xd {
	double m;
	int64_t e;
};

static struct xd xd_of(double v)
{
	int e;
	double m = frexp(v, &e);
	return (struct xd){ m, m == 0.0 ? 0 : e };
}

static struct xd xd_mul(struct xd a, double v)
{
	struct xd b = xd_of(a.m * v);
	b.e += b.m == 0.0 ? 0 : a.e;
	return b;
}

/* w / x */
static struct xd xd_div(double w, struct xd x)
{
	struct xd b = xd_of(w / x.m);
	b.e = b.m == 0.0 ? 0 : b.e - x.e;
	return b;
}

static struct xd xd_add(struct xd a, struct xd b)
{
	if (a.m == 0.0)
		return b;
	if (b.m == 0.0)
		return a;
	if (a.e < b.e) {
		struct xd t = a;
		a = b;
		b = t;
	}
	int64_t d = a.e - b.e;
	if (d > 1100)
		return a;
	struct xd r = xd_of(a.m + ldexp(b.m, (int)-d));
	r.e += r.m == 0.0 ? 0 : a.e;
	return r;
}

/* a x c as a double (0 below the smallest, never above 1 here) */
static double xd_prod(struct xd a, struct xd c)
{
	int64_t e = a.e + c.e;
	if (a.m == 0.0 || c.m == 0.0 || e < -1200)
		return 0.0;
	if (e > 1100)
		e = 1100;
	return ldexp(a.m * c.m, (int)e);
}

/* The map's shape as the sweep needs it, by tag id (tags from tv_geom.n on,
 * and every tag with a DAG, are trees of one: key t, end t + 1, R 1, S 1). */
struct tv_geom {
	size_t n;
	const uint32_t *pre, *end;
	uint32_t *seg;
	struct xd *r;
	double *s;
};

static int geom_init(const struct tageval_annotations *a, struct tv_geom *g)
{
	const struct tageval_inventory *inv = a->inv;
	memset(g, 0, sizeof *g);
	if (a->pre == NULL || inv->dag)
		return TAGEVAL_OK;
	size_t n = a->npre;
	uint32_t *order = malloc(n * sizeof *order);
	g->seg = malloc(n * sizeof *g->seg);
	g->r = malloc(n * sizeof *g->r);
	g->s = malloc(n * sizeof *g->s);
	if (order == NULL || g->seg == NULL || g->r == NULL || g->s == NULL) {
		free(order);
		return TAGEVAL_ENOMEM;
	}
	g->n = n;
	g->pre = a->pre;
	g->end = a->pre_end;
	for (size_t x = 0; x < n; x++)
		order[a->pre[x]] = (uint32_t)x;
	/* R and the segments downwards: parents come first in preorder */
	for (size_t k = 0; k < n; k++) {
		uint32_t x = order[k];
		const struct tv_node *nd = &inv->node[x];
		if (nd->parents.n == 0) {
			g->seg[x] = x;
			g->r[x] = xd_of(1.0);
		}
		for (size_t i = 0; i < nd->children.n; i++) {
			uint32_t c = nd->children.v[i];
			if (nd->pdown[i] > 0.0) {
				g->seg[c] = g->seg[x];
				g->r[c] = xd_mul(g->r[x], nd->pdown[i]);
			} else {
				g->seg[c] = c;
				g->r[c] = xd_of(1.0);
			}
		}
	}
	/* S upwards */
	for (size_t k = n; k-- > 0;) {
		uint32_t x = order[k];
		const struct tv_node *nd = &inv->node[x];
		if (nd->children.n == 0) {
			g->s[x] = 1.0;
			continue;
		}
		double v = nd->pself * nd->pself;
		for (size_t i = 0; i < nd->children.n; i++)
			v += nd->pdown[i] * nd->pdown[i] * g->s[nd->children.v[i]];
		g->s[x] = v;
	}
	free(order);
	return TAGEVAL_OK;
}

static void geom_free(struct tv_geom *g)
{
	free(g->seg);
	free(g->r);
	free(g->s);
}

/* A tag of a sweep, with the weights it has in the two mixtures. */
struct mixent {
	uint32_t tag, key;
	double wa, wb;
};

struct frame {
	uint32_t end, seg;
	struct xd ca, cb;
};

/* Scratch for the sweeps, room for every tag. */
struct sweep_ws {
	struct mixent *e;
	struct frame *st;
	struct tv_leafp *x, *y;
};

/* Whether tag @t has tags below it (entries of a DAG are leaves). */
static int inner(const struct tv_geom *g, uint32_t t)
{
	return t < g->n && g->end[t] > g->pre[t] + 1;
}

static int any_inner(const struct tv_geom *g, const struct tv_leafp *x, size_t n)
{
	for (size_t i = 0; i < n && g->n > 0; i++)
		if (inner(g, x[i].leaf))
			return 1;
	return 0;
}

static int by_leafkey(const void *x, const void *y)
{
	uint32_t a = ((const struct tv_leafp *)x)->key, b = ((const struct tv_leafp *)y)->key;
	return (a > b) - (a < b);
}

/* The term of a tag t below the tags on the stack, whose sum of w / R(s)
 * is @c: sum of w Pr(t | s) S(t). */
static double below(const struct tv_geom *g, uint32_t t, struct xd c)
{
	return g->s[t] * xd_prod(g->r[t], c);
}

/*
 * sum over i, j of wa_i wb_j <D(tag_i), D(tag_j)>, for @n distinct tags in
 * increasing key order.
 */
static double sweep(const struct tv_geom *g, const struct mixent *e, size_t n, struct frame *st)
{
	/* the terms are exactly summed: the keys of tags outside the map, and the
	 * preorder itself, follow the order of the lines */
	struct tv_fsum sum;
	tv_fsum_init(&sum);
	size_t sp = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t t = e[i].tag;
		if (t >= g->n) {
			tv_fsum_add(&sum, e[i].wa * e[i].wb); /* a tree of one */
			continue;
		}
		while (sp > 0 && e[i].key >= st[sp - 1].end)
			sp--;
		struct xd ca = { 0.0, 0 }, cb = { 0.0, 0 };
		if (sp > 0 && st[sp - 1].seg == g->seg[t]) {
			ca = st[sp - 1].ca;
			cb = st[sp - 1].cb;
		}
		tv_fsum_add(&sum, e[i].wa * e[i].wb * g->s[t]);
		if (e[i].wb != 0.0 && ca.m != 0.0)
			tv_fsum_add(&sum, e[i].wb * below(g, t, ca));
		if (e[i].wa != 0.0 && cb.m != 0.0)
			tv_fsum_add(&sum, e[i].wa * below(g, t, cb));
		if (g->end[t] > e[i].key + 1) {
			st[sp].end = g->end[t];
			st[sp].seg = g->seg[t];
			st[sp].ca = e[i].wa != 0.0 ? xd_add(ca, xd_div(e[i].wa, g->r[t])) : ca;
			st[sp].cb = e[i].wb != 0.0 ? xd_add(cb, xd_div(e[i].wb, g->r[t])) : cb;
			sp++;
		}
	}
	return tv_fsum_result(&sum);
}

/* What one used item contributes. */
struct item_sum {
	uint32_t item;
	uint32_t m;      /* annotations */
	double a;        /* mean inner product over the unordered pairs */
	double dobs;     /* 2/(m-1) * sum over unordered pairs of (1 - <P_c, P_d>) */
	double selfsq;   /* sum over the annotations of |P_c|^2 */
};

/*
 * Running sums over a set of items (with integer weights for the bootstrap).
 * The fractional ones are exact (tv_fsum), so that the order of the items
 * does not change a bit: sum_a, sum_do, selfsq, and the marginals of each
 * touched leaf (msum[pos * m + c], one per annotator c; lazy sums, two
 * doubles while they hold the sum exactly, as counts are), which finish()
 * copies into margc, and their exact sum into marg.
 */
struct acc {
	size_t m, ntags;
	double items, annotations, complete;
	struct tv_fsum sum_a, sum_do, selfsq;
	/* their terms counted (acc_flush adds them): per item, a few values */
	struct tv_csum ca, cdo, csq;
	double *marg;    /* [tag] */
	double *margc;   /* [annotator * ntags + tag] */
	uint32_t *stamp, *touched;
	uint32_t *pos;   /* [tag]: its place in touched */
	struct tv_lsum *msum; /* 24 bytes each while exact */
	size_t msumcap;
	struct tv_fsum_pool big; /* the sums of msum that were rounded */
	int oom;
	size_t ntouched;
	uint32_t gen;
};

struct tageval_agreement {
	size_t m;
	struct tageval_agreement_figures pooled;
	struct tageval_agreement_figures *lex;
	char **lexname;
	size_t nlex;
	size_t *single;
	double *boot[3];  /* sorted defined replicate values */
	size_t nboot[3];
	size_t replicates;
	double confidence;
};

void tageval_agreement_options_init(struct tageval_agreement_options *o)
{
	TV_NULL_RET(o, );
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->confidence = 0.95;
}

const char *tageval_undefined_reason(int why)
{
	switch (why) {
	case TAGEVAL_DEFINED:
		return "defined";
	case TAGEVAL_UNDEFINED_CHANCE:
		return "chance agreement is 1 (every annotation puts all its mass on one leaf)";
	case TAGEVAL_UNDEFINED_INCOMPLETE:
		return "needs every annotator on every item";
	case TAGEVAL_UNDEFINED_NO_ITEMS:
		return "no item annotated by two or more annotators";
	case TAGEVAL_UNDEFINED_NO_SPREAD:
		return "expected disagreement is 0 (all annotations identical leaves)";
	case TAGEVAL_UNDEFINED_NOT_NUMBERS:
		return "the labels are not numbers";
	case TAGEVAL_UNDEFINED_INNER_TAG:
		return "an annotation has a tag with tags below it (give --flat)";
	case TAGEVAL_UNDEFINED_NEGATIVE:
		return "a label is negative (the ratio level needs values >= 0)";
	case TAGEVAL_UNDEFINED_ONE_CATEGORY:
		return "fewer than two categories";
	case TAGEVAL_UNDEFINED_TWO_ANNOTATORS:
		return "needs exactly two annotators";
	case TAGEVAL_UNDEFINED_NOT_ASKED:
		return "not asked for";
	case TAGEVAL_UNDEFINED_ONE_ITEM:
		return "a standard error needs two or more items";
	default:
		return "unknown";
	}
}

static int acc_init(struct acc *ac, size_t m, size_t ntags)
{
	memset(ac, 0, sizeof *ac);
	ac->m = m;
	ac->ntags = ntags;
	size_t n = ntags ? ntags : 1;
	ac->marg = calloc(n, sizeof *ac->marg);
	ac->margc = calloc(n * m, sizeof *ac->margc);
	ac->stamp = calloc(n, sizeof *ac->stamp);
	ac->touched = malloc(n * sizeof *ac->touched);
	ac->pos = malloc(n * sizeof *ac->pos);
	ac->gen = 1;
	return ac->marg && ac->margc && ac->stamp && ac->touched && ac->pos ? TAGEVAL_OK
									 : TAGEVAL_ENOMEM;
}

static void acc_free(struct acc *ac)
{
	free(ac->marg);
	free(ac->margc);
	free(ac->stamp);
	free(ac->touched);
	free(ac->pos);
	free(ac->msum);
	tv_fsum_pool_free(&ac->big);
}

/* Clears the sums; the dense vectors are reset where they were touched. */
static void acc_reset(struct acc *ac)
{
	for (size_t i = 0; i < ac->ntouched; i++) {
		uint32_t l = ac->touched[i];
		ac->marg[l] = 0.0;
		for (size_t c = 0; c < ac->m; c++)
			ac->margc[c * ac->ntags + l] = 0.0;
	}
	ac->ntouched = 0;
	tv_fsum_pool_clear(&ac->big);
	if (++ac->gen == 0) {
		memset(ac->stamp, 0, ac->ntags * sizeof *ac->stamp);
		ac->gen = 1;
	}
	ac->items = ac->annotations = ac->complete = 0.0;
	tv_fsum_init(&ac->sum_a);
	tv_fsum_init(&ac->sum_do);
	tv_fsum_init(&ac->selfsq);
	memset(&ac->ca, 0, sizeof ac->ca);
	memset(&ac->cdo, 0, sizeof ac->cdo);
	memset(&ac->csq, 0, sizeof ac->csq);
}

/* The counted terms into the sums, before these are read. */
static void acc_flush(struct acc *ac)
{
	tv_csum_flush(&ac->ca, &ac->sum_a);
	tv_csum_flush(&ac->cdo, &ac->sum_do);
	tv_csum_flush(&ac->csq, &ac->selfsq);
}

/* The entries of annotation @r as a (leaf, p) array. */
static const struct tv_leafp *entries(const struct tageval_annotations *a, const struct tv_rec *r,
				      struct tv_leafp *one, size_t *n)
{
	if (tv_rec_inline(r)) {
		uint32_t t = tv_rec_leaf(r);
		one->leaf = t;
		one->key = t < a->npre ? a->pre[t] : t;
		one->p = 1.0;
		*n = 1;
		return one;
	}
	return tv_rec_pool(a, r, n);
}

/*
 * <X, Y> for two annotations (entries in id order).  Between leaves, the
 * sum over the common leaves in id order; with tags above others, a sweep
 * in preorder.
 */
static double dot(const struct tv_geom *g, struct sweep_ws *ws, const struct tv_leafp *x,
		  size_t nx, const struct tv_leafp *y, size_t ny)
{
	size_t i = 0, j = 0, n = 0;
	if (!any_inner(g, x, nx) && !any_inner(g, y, ny)) {
		/* leaf ids follow the order of the lines: two terms commute (a + b is
		 * b + a), more are summed exactly so that the order does not matter */
		double t0 = 0.0, t1 = 0.0;
		size_t terms = 0;
		struct tv_fsum f;
		while (i < nx && j < ny) {
			if (x[i].leaf < y[j].leaf) {
				i++;
			} else if (x[i].leaf > y[j].leaf) {
				j++;
			} else {
				double t = x[i++].p * y[j++].p;
				if (terms == 0) {
					t0 = t;
				} else if (terms == 1) {
					t1 = t;
				} else {
					if (terms == 2) {
						tv_fsum_init(&f);
						tv_fsum_add(&f, t0);
						tv_fsum_add(&f, t1);
					}
					tv_fsum_add(&f, t);
				}
				terms++;
			}
		}
		return terms > 2 ? tv_fsum_result(&f) : t0 + t1;
	}
	if (nx > 1) {
		memcpy(ws->x, x, nx * sizeof *x);
		qsort(ws->x, nx, sizeof *x, by_leafkey);
		x = ws->x;
	}
	if (ny > 1) {
		memcpy(ws->y, y, ny * sizeof *y);
		qsort(ws->y, ny, sizeof *y, by_leafkey);
		y = ws->y;
	}
	struct mixent *e = ws->e;
	while (i < nx || j < ny) {
		if (j == ny || (i < nx && x[i].key < y[j].key)) {
			e[n++] = (struct mixent){ x[i].leaf, x[i].key, x[i].p, 0.0 };
			i++;
		} else if (i == nx || x[i].key > y[j].key) {
			e[n++] = (struct mixent){ y[j].leaf, y[j].key, 0.0, y[j].p };
			j++;
		} else {
			e[n++] = (struct mixent){ x[i].leaf, x[i].key, x[i].p, y[j].p };
			i++;
			j++;
		}
	}
	return sweep(g, e, n, ws->st);
}

static const struct tv_rec *rec_of(const struct tageval_annotations *a, size_t c, uint32_t item)
{
	if (item >= a->nrec[c])
		return NULL;
	const struct tv_rec *r = &a->rec[c][item];
	return r->ref ? r : NULL;
}

/* The per-item numbers of @item, which has @m >= 2 annotations. */
static void summarise(const struct tageval_annotations *a, const struct tv_geom *g,
		      struct sweep_ws *ws, uint32_t item, struct item_sum *s)
{
	size_t m = a->nann;
	double sum_ip = 0.0;
	size_t pairs = 0, present = 0;
	s->item = item;
	s->selfsq = 0.0;
	/* every annotation one leaf of mass 1 (most items): each |P|^2 is 1
	 * and each inner product 1 or 0, so the sums below are integers,
	 * computed here without the entries */
	uint32_t leaf[16];
	int ones = m <= 16;
	for (size_t c = 0; c < m && ones; c++) {
		const struct tv_rec *rc = rec_of(a, c, item);
		if (rc == NULL)
			continue;
		if (!tv_rec_inline(rc) || inner(g, tv_rec_leaf(rc)))
			ones = 0;
		else
			leaf[present++] = tv_rec_leaf(rc);
	}
	if (ones) {
		size_t same = 0;
		for (size_t i = 0; i < present; i++)
			for (size_t j = i + 1; j < present; j++)
				same += leaf[i] == leaf[j];
		pairs = present * (present - 1) / 2;
		sum_ip = (double)same;
		s->m = (uint32_t)present;
		s->selfsq = (double)present;
		s->a = sum_ip / (double)pairs;
		s->dobs = 2.0 / (double)(present - 1) * ((double)pairs - sum_ip);
		return;
	}
	present = 0;
	for (size_t c = 0; c < m; c++) {
		const struct tv_rec *rc = rec_of(a, c, item);
		if (rc == NULL)
			continue;
		present++;
		struct tv_leafp one_c;
		size_t nc;
		const struct tv_leafp *ec = entries(a, rc, &one_c, &nc);
		s->selfsq += dot(g, ws, ec, nc, ec, nc);
		for (size_t d = c + 1; d < m; d++) {
			const struct tv_rec *rd = rec_of(a, d, item);
			if (rd == NULL)
				continue;
			struct tv_leafp one_d;
			size_t nd;
			const struct tv_leafp *ed = entries(a, rd, &one_d, &nd);
			sum_ip += dot(g, ws, ec, nc, ed, nd);
			pairs++;
		}
	}
	s->m = (uint32_t)present;
	s->a = sum_ip / (double)pairs;
	s->dobs = 2.0 / (double)(present - 1) * ((double)pairs - sum_ip);
}

static void accumulate(const struct tageval_annotations *a, struct acc *ac,
		       const struct item_sum *s, double w)
{
	ac->items += w;
	ac->annotations += w * s->m;
	ac->complete += s->m == ac->m ? w : 0.0;
	if (s->selfsq == (double)s->m) {
		/* every annotation one leaf of mass 1: inner products 0 or 1,
		 * a few values over all items, counted */
		tv_csum_add(&ac->ca, &ac->sum_a, w * s->a);
		tv_csum_add(&ac->cdo, &ac->sum_do, w * s->dobs);
		tv_csum_add(&ac->csq, &ac->selfsq, w * s->selfsq);
	} else {
		tv_fsum_add(&ac->sum_a, w * s->a);
		tv_fsum_add(&ac->sum_do, w * s->dobs);
		tv_fsum_add(&ac->selfsq, w * s->selfsq);
	}
	size_t stride = ac->m;
	for (size_t c = 0; c < ac->m; c++) {
		const struct tv_rec *r = rec_of(a, c, s->item);
		if (r == NULL)
			continue;
		struct tv_leafp one;
		size_t n;
		const struct tv_leafp *e = entries(a, r, &one, &n);
		for (size_t i = 0; i < n; i++) {
			uint32_t l = e[i].leaf;
			if (ac->stamp[l] != ac->gen) {
				if (tv_grow((void **)&ac->msum, &ac->msumcap,
					    (ac->ntouched + 1) * stride, sizeof *ac->msum)) {
					ac->oom = 1;
					return;
				}
				memset(ac->msum + ac->ntouched * stride, 0, stride * sizeof *ac->msum);
				ac->stamp[l] = ac->gen;
				ac->pos[l] = (uint32_t)ac->ntouched;
				ac->touched[ac->ntouched++] = l;
			}
			struct tv_lsum *ms = ac->msum + (size_t)ac->pos[l] * stride;
			if (tv_lsum_add_counted(&ms[c], &ac->big, w * e[i].p)) {
				ac->oom = 1;
				return;
			}
		}
	}
}

/* Adds the sums of @from to @to (exact sums: the same bits as accumulating
 * @from's items into @to).  -1: out of memory. */
static int acc_merge(struct acc *to, struct acc *from)
{
	acc_flush(from);
	to->items += from->items;
	to->annotations += from->annotations;
	to->complete += from->complete;
	tv_fsum_add_fsum(&to->sum_a, &from->sum_a);
	tv_fsum_add_fsum(&to->sum_do, &from->sum_do);
	tv_fsum_add_fsum(&to->selfsq, &from->selfsq);
	size_t stride = to->m;
	for (size_t i = 0; i < from->ntouched; i++) {
		uint32_t l = from->touched[i];
		if (to->stamp[l] != to->gen) {
			if (tv_grow((void **)&to->msum, &to->msumcap, (to->ntouched + 1) * stride,
				    sizeof *to->msum))
				return -1;
			memset(to->msum + to->ntouched * stride, 0, stride * sizeof *to->msum);
			to->stamp[l] = to->gen;
			to->pos[l] = (uint32_t)to->ntouched;
			to->touched[to->ntouched++] = l;
		}
		struct tv_lsum *d = to->msum + (size_t)to->pos[l] * stride;
		const struct tv_lsum *e = from->msum + i * stride;
		for (size_t j = 0; j < stride; j++)
			if (tv_lsum_add_lsum(&d[j], &to->big, &e[j], &from->big))
				return -1;
	}
	return 0;
}

/* 1 - x is treated as 0 below this: sums of probabilities carry rounding. */
#define TV_EPS 1e-12

static int by_mixkey(const void *x, const void *y)
{
	uint32_t a = ((const struct mixent *)x)->key, b = ((const struct mixent *)y)->key;
	return (a > b) - (a < b);
}

/* The marginals of the touched tags from their exact sums: each annotator
 * (ac->margc), all of them (ac->marg, the exact sum of those sums). */
static void set_marginals(struct acc *ac)
{
	size_t stride = ac->m;
	for (size_t i = 0; i < ac->ntouched; i++) {
		uint32_t l = ac->touched[i];
		struct tv_lsum all;
		memset(&all, 0, sizeof all);
		for (size_t c = 0; c < ac->m; c++) {
			const struct tv_lsum *ms = &ac->msum[i * stride + c];
			ac->margc[c * ac->ntags + l] = tv_lsum_result(ms, &ac->big);
			if (tv_lsum_add_lsum(&all, &ac->big, ms, &ac->big)) {
				ac->oom = 1;
				return;
			}
		}
		ac->marg[l] = tv_lsum_result(&all, &ac->big);
	}
}

/*
 * The chance terms of the pooled marginals, of @n annotations: *sumsq, the
 * sum of their squares, and *pr_e, that of the squared proportions; over
 * the leaves exactly (tv_fsum), or by sweeps when a touched tag is inner
 * (*tree), the touched tags then left in ws->e in key order (*nt of them,
 * else 0).
 */
static void pooled_chance(const struct tageval_annotations *a, const struct tv_geom *g,
			  struct sweep_ws *ws, const struct acc *ac, double n, double *sumsq_out,
			  double *pr_e_out, int *tree_out, size_t *nt_out)
{
	double sumsq = 0.0, pr_e = 0.0;
	struct mixent *e = ws->e;
	size_t nt = ac->ntouched;
	int tree = 0;
	for (size_t i = 0; i < nt && !tree; i++)
		tree = inner(g, ac->touched[i]);
	if (!tree) {
		/* leaves only: sums over them, exact (tv_fsum) */
		struct tv_fsum fsq, fpe;
		tv_fsum_init(&fsq);
		tv_fsum_init(&fpe);
		for (size_t i = 0; i < nt; i++) {
			double v = ac->marg[ac->touched[i]];
			tv_fsum_add(&fsq, v * v);
			tv_fsum_add(&fpe, (v / n) * (v / n));
		}
		sumsq = tv_fsum_result(&fsq);
		pr_e = tv_fsum_result(&fpe);
		nt = 0;
	}
	/* the touched tags in key order, for the sweeps */
	for (size_t i = 0; i < nt; i++) {
		uint32_t l = ac->touched[i];
		e[i].tag = l;
		e[i].key = l < a->npre ? a->pre[l] : l;
	}
	qsort(e, nt, sizeof *e, by_mixkey);
	if (tree) {
		for (size_t i = 0; i < nt; i++)
			e[i].wa = e[i].wb = ac->marg[e[i].tag];
		sumsq = sweep(g, e, nt, ws->st);
		for (size_t i = 0; i < nt; i++)
			e[i].wa = e[i].wb = ac->marg[e[i].tag] / n;
		pr_e = sweep(g, e, nt, ws->st);
	}
	*sumsq_out = sumsq;
	*pr_e_out = pr_e;
	*tree_out = tree;
	*nt_out = nt;
}

/* Kappa with separate marginals: Cohen (2 annotators), Davies-Fleiss
 * (complete data); @tree, @nt: as pooled_chance left them. */
static void separate_kappa(const struct tv_geom *g, struct sweep_ws *ws, const struct acc *ac,
			   int tree, size_t nt, struct tageval_agreement_figures *f)
{
	struct mixent *e = ws->e;
	if (ac->m == 2 || ac->complete == ac->items) {
		double sep = 0.0;
		size_t pairs = 0;
		for (size_t c = 0; c < ac->m; c++)
			for (size_t d = c + 1; d < ac->m; d++) {
				const double *x = ac->margc + c * ac->ntags;
				const double *y = ac->margc + d * ac->ntags;
				struct tv_fsum s;
				tv_fsum_init(&s);
				for (size_t i = 0; !tree && i < ac->ntouched; i++) {
					uint32_t l = ac->touched[i];
					tv_fsum_add(&s, (x[l] / ac->items) * (y[l] / ac->items));
				}
				for (size_t i = 0; tree && i < nt; i++) {
					uint32_t l = e[i].tag;
					e[i].wa = x[l] / ac->items;
					e[i].wb = y[l] / ac->items;
				}
				if (tree)
					sep += sweep(g, e, nt, ws->st);
				else
					sep += tv_fsum_result(&s);
				pairs++;
			}
		f->pr_e_separate = sep / (double)pairs;
		if (1.0 - f->pr_e_separate < TV_EPS)
			f->separate_undefined = TAGEVAL_UNDEFINED_CHANCE;
		else
			f->kappa_separate = (f->pr_a - f->pr_e_separate) / (1.0 - f->pr_e_separate);
	} else {
		f->separate_undefined = TAGEVAL_UNDEFINED_INCOMPLETE;
	}
}

/* The figures of the items accumulated in @ac. */
static void finish(const struct tageval_annotations *a, const struct tv_geom *g,
		   struct sweep_ws *ws, struct acc *ac, struct tageval_agreement_figures *f)
{
	memset(f, 0, sizeof *f);
	acc_flush(ac);
	set_marginals(ac);
	f->items = (size_t)ac->items;
	f->annotations = (size_t)ac->annotations;
	f->complete = (size_t)ac->complete;
	f->kappa = f->kappa_separate = f->alpha = NAN;
	f->pr_a = f->pr_e = f->pr_e_separate = f->d_o = f->d_e = NAN;
	if (ac->items == 0.0) {
		f->kappa_undefined = f->separate_undefined = f->alpha_undefined =
			TAGEVAL_UNDEFINED_NO_ITEMS;
		return;
	}
	double n = ac->annotations, sumsq = 0.0, pr_e = 0.0;
	int tree = 0;
	size_t nt = 0;
	pooled_chance(a, g, ws, ac, n, &sumsq, &pr_e, &tree, &nt);
	f->pr_a = tv_fsum_result(&ac->sum_a) / ac->items;
	f->pr_e = pr_e;
	if (1.0 - pr_e < TV_EPS)
		f->kappa_undefined = TAGEVAL_UNDEFINED_CHANCE;
	else
		f->kappa = (f->pr_a - pr_e) / (1.0 - pr_e);
	/* separate marginals: Cohen (2 annotators), Davies-Fleiss (complete data) */
	separate_kappa(g, ws, ac, tree, nt, f);
	/* alpha: D_e from |sum P|^2 - sum |P|^2, the inner products of all
	 * ordered pairs of distinct annotations */
	f->d_o = tv_fsum_result(&ac->sum_do) / n;
	f->d_e = 1.0 - (sumsq - tv_fsum_result(&ac->selfsq)) / (n * (n - 1.0));
	if (f->d_e < TV_EPS)
		f->alpha_undefined = TAGEVAL_UNDEFINED_NO_SPREAD;
	else
		f->alpha = 1.0 - f->d_o / f->d_e;
}

void tageval_agreement_free(struct tageval_agreement *ag)
{
	if (ag == NULL)
		return;
	free(ag->lex);
	for (size_t i = 0; ag->lexname && i < ag->nlex; i++)
		free(ag->lexname[i]);
	free(ag->lexname);
	free(ag->single);
	for (int i = 0; i < 3; i++)
		free(ag->boot[i]);
	free(ag);
}

static double pick(const struct tageval_agreement_figures *f, enum tageval_coefficient which,
		   int *undefined)
{
	switch (which) {
	case TAGEVAL_KAPPA_SEPARATE:
		*undefined = f->separate_undefined;
		return f->kappa_separate;
	case TAGEVAL_ALPHA:
		*undefined = f->alpha_undefined;
		return f->alpha;
	default:
		*undefined = f->kappa_undefined;
		return f->kappa;
	}
}

/* An item's "lexelt instance" key, for the bootstrap's order. */
struct keyed_item {
	const char *key;
	struct item_sum sum;
};

/*
 * By lexelt, then by instance id, bytewise (unsigned): a lexelt holds no
 * space, so it is the key up to the first one.  Keys are unique, so the
 * order is total and does not depend on the order of the lines.
 */
static int by_item_key(const void *x, const void *y)
{
	const char *a = ((const struct keyed_item *)x)->key;
	const char *b = ((const struct keyed_item *)y)->key;
	size_t la = strcspn(a, " "), lb = strcspn(b, " ");
	int c = memcmp(a, b, la < lb ? la : lb);
	if (c == 0 && la != lb)
		return la < lb ? -1 : 1;
	return c ? c : strcmp(a + la, b + lb);
}

/*
 * Accumulates the items order[from .. to) (@order NULL: from .. to) of one lexelt into @lex, their
 * sums into used[*nused ...] for the bootstrap (or, without it, @one), and
 * counts in @single the items only one annotator annotated.
 */
static void lexelt_items(const struct tageval_annotations *a, const struct tv_geom *g,
			 struct sweep_ws *ws, const uint32_t *order, uint32_t from, uint32_t to,
			 size_t *single, struct acc *lex, struct item_sum *used,
			 struct item_sum *one, size_t *nused)
{
	size_t m = a->nann;
	for (uint32_t k = from; k < to; k++) {
		uint32_t t = order ? order[k] : k;
		size_t present = 0, who = 0;
		for (size_t c = 0; c < m; c++)
			if (rec_of(a, c, t)) {
				present++;
				who = c;
			}
		if (present == 1)
			single[who]++;
		if (present < 2)
			continue;
		struct item_sum *sum = used ? &used[*nused] : one;
		summarise(a, g, ws, t, sum);
		accumulate(a, lex, sum, 1.0);
		(*nused)++;
	}
}

/* The items of each lexelt counted from the runs into start[lex + 1], then
 * summed: start[l] is the first of lexelt l's when they are in order. */
static void count_runs(const struct tageval_annotations *a, size_t nlex, uint32_t *start)
{
	memset(start, 0, (nlex + 1) * sizeof *start);
	for (size_t r = 0; r < a->nruns; r++) {
		size_t end = r + 1 < a->nruns ? a->runs[r + 1].item : a->nitems;
		start[a->runs[r].lex + 1] += (uint32_t)(end - a->runs[r].item);
	}
	for (size_t l = 0; l < nlex; l++)
		start[l + 1] += start[l];
}

/* Each item's lexelt, from the runs (NULL: out of memory). */
static uint32_t *expand_runs(const struct tageval_annotations *a)
{
	uint32_t *key = malloc((a->nitems ? a->nitems : 1) * sizeof *key);
	if (key == NULL)
		return NULL;
	for (size_t r = 0; r < a->nruns; r++) {
		size_t end = r + 1 < a->nruns ? a->runs[r + 1].item : a->nitems;
		for (size_t t = a->runs[r].item; t < end; t++)
			key[t] = a->runs[r].lex;
	}
	return key;
}

/*
 * The items grouped by lexelt as tv_group_by groups them: *order NULL when
 * they are in lexelt order already (the lexelts are numbered in the order
 * of their first item: a file read in lexelt order gives runs of
 * increasing lexelts, or a nondecreasing item_lexelt), and then only
 * @start is filled: the grouping is the identity, and its array of a
 * million items (4 MB) is not made.  -1: out of memory.
 */
static int group_items(const struct tageval_annotations *a, size_t nlex, uint32_t *start,
		       uint32_t **order)
{
	size_t n = a->nitems;
	const uint32_t *key = a->item_lexelt;
	int sorted = 1;
	*order = NULL;
	if (key == NULL) {
		for (size_t r = 1; r < a->nruns && sorted; r++)
			sorted = a->runs[r].lex > a->runs[r - 1].lex;
		if (sorted) {
			count_runs(a, nlex, start);
			return 0;
		}
	} else {
		for (size_t i = 0; i < n && sorted; i++)
			sorted = key[i] < nlex && (i == 0 || key[i] >= key[i - 1]);
		if (sorted) {
			memset(start, 0, (nlex + 1) * sizeof *start);
			for (size_t i = 0; i < n; i++)
				start[key[i] + 1]++;
			for (size_t l = 0; l < nlex; l++)
				start[l + 1] += start[l];
			return 0;
		}
	}
	uint32_t *made = key ? NULL : expand_runs(a);
	*order = malloc((n ? n : 1) * sizeof **order);
	if (*order == NULL || (key == NULL && made == NULL)) {
		free(made);
		return -1;
	}
	tv_group_by(key ? key : made, sizeof *key, n, nlex, start, *order);
	free(made);
	return 0;
}

/* The scratch of the sweeps, for @ntags tags; 0: out of memory. */
static int ws_alloc(struct sweep_ws *ws, size_t ntags)
{
	ws->e = malloc((ntags ? ntags : 1) * sizeof *ws->e);
	ws->st = malloc((ntags ? ntags : 1) * sizeof *ws->st);
	ws->x = malloc((ntags ? ntags : 1) * sizeof *ws->x);
	ws->y = malloc((ntags ? ntags : 1) * sizeof *ws->y);
	return ws->e && ws->st && ws->x && ws->y;
}

/* Frees the scratch of the sweeps. */
static void ws_free(struct sweep_ws *ws)
{
	free(ws->e);
	free(ws->st);
	free(ws->x);
	free(ws->y);
}

/*
 * The lexelts are shared out in at most this many parts, each a run of
 * lexelts with its own sums (tv_parallel): a constant, never the number of
 * cores, so that the parts, hence every sum, are the same on any machine.
 */
#define TV_AGREE_PARTS 8
/* The bootstrap's replicates summed in parts from this many items on. */
#define TV_BOOT_PARALLEL_MIN 65536

/* One part: lexelts [lex0, lex1), their items' sums from used + start[lex0]. */
struct lex_part {
	uint32_t lex0, lex1;
	struct acc lex, sum; /* one lexelt's sums, then all of the part's */
	struct sweep_ws ws;
	size_t *single;      /* [annotator] */
	size_t nused;
	int oom;
};

struct lex_job {
	const struct tageval_annotations *a;
	const struct tv_geom *g;
	const uint32_t *start, *order;
	struct tageval_agreement *ag;
	struct item_sum *used; /* NULL without the bootstrap */
	struct lex_part *part;
};

/* The figures of each lexelt of part @i into ag->lex (its name into
 * ag->lexname), its sums then added to the part's (see lexelt_items).
 * Each lexelt's sums are the same whatever the part (one acc, reset). */
static void lexelt_part(void *ctx, size_t i)
{
	struct lex_job *j = ctx;
	struct lex_part *p = &j->part[i];
	struct item_sum one;
	struct item_sum *used = j->used ? j->used + j->start[p->lex0] : NULL;
	for (uint32_t l = p->lex0; l < p->lex1; l++) {
		j->ag->lexname[l] = strdup(tv_intern_str(&j->a->lexelts, l));
		if (j->ag->lexname[l] == NULL) {
			p->oom = 1;
			return;
		}
		acc_reset(&p->lex);
		lexelt_items(j->a, j->g, &p->ws, j->order, j->start[l], j->start[l + 1], p->single,
			     &p->lex, used, &one, &p->nused);
		finish(j->a, j->g, &p->ws, &p->lex, &j->ag->lex[l]);
		if (p->lex.oom || acc_merge(&p->sum, &p->lex)) {
			p->oom = 1;
			return;
		}
	}
}

/*
 * How many parts for @nlex lexelts, @nitems items, @ntags tags, @m
 * annotators: none above one per lexelt, and no more than make the parts'
 * dense vectors (two accs of @ntags tags, 8 m + 20 bytes a tag each, and a
 * sweep scratch of 96 bytes a tag: ntags (16 m + 136) bytes a part) come to
 * 16 bytes an item: they grow with the items, not with their product with
 * the tags and the annotators (600 annotators of 240 tags: one part below
 * some 145,000 items).
 */
static size_t lex_parts(size_t nlex, size_t nitems, size_t ntags, size_t m)
{
	double cost = (double)ntags * (16.0 * (double)m + 136.0);
	double most = 1.0 + 16.0 * (double)nitems / (cost > 1.0 ? cost : 1.0);
	size_t n = most < (double)TV_AGREE_PARTS ? (size_t)most : TV_AGREE_PARTS;
	if (n > TV_AGREE_PARTS)
		n = TV_AGREE_PARTS;
	return n < nlex ? n : nlex;
}

/* The lexelts cut into @np runs of about equal items (start[] cumulative). */
static void cut_parts(const uint32_t *start, size_t nlex, struct lex_part *part, size_t np)
{
	uint64_t total = start[nlex];
	uint32_t l = 0;
	for (size_t i = 0; i < np; i++) {
		uint64_t want = total * (i + 1) / np;
		part[i].lex0 = l;
		while (l < nlex && (i + 1 == np || start[l + 1] <= want))
			l++;
		if (l == part[i].lex0 && l < nlex && nlex - l > np - i - 1)
			l++; /* never empty while lexelts are left for the rest */
		part[i].lex1 = l;
	}
}

static void parts_free(struct lex_part *part, size_t np)
{
	for (size_t i = 0; part && i < np; i++) {
		acc_free(&part[i].lex);
		acc_free(&part[i].sum);
		ws_free(&part[i].ws);
		free(part[i].single);
	}
	free(part);
}

/* The parts' scratch and sums, for @m annotators and @ntags tags; NULL:
 * out of memory. */
static struct lex_part *parts_alloc(size_t np, size_t m, size_t ntags)
{
	struct lex_part *part = calloc(np ? np : 1, sizeof *part);
	int ok = part != NULL;
	for (size_t i = 0; ok && i < np; i++) {
		int ws_ok = ws_alloc(&part[i].ws, ntags);
		part[i].single = calloc(m, sizeof *part[i].single);
		ok = ws_ok && part[i].single && !acc_init(&part[i].lex, m, ntags) &&
		     !acc_init(&part[i].sum, m, ntags);
	}
	if (!ok) {
		parts_free(part, np);
		return NULL;
	}
	return part;
}

/*
 * Every lexelt's figures (lexelt_part), the parts on the cores; then, in
 * part order, each part's sums added to @pooled (exact sums: the same bits
 * as adding the lexelts one by one), its counts of single annotations to
 * ag->single, its items' sums moved down to follow the part before in
 * @used (the lexelts' order, as one pass gives them).  -1: out of memory.
 */
static int each_lexelt(const struct tageval_annotations *a, const struct tv_geom *g,
		       const uint32_t *start, const uint32_t *order, struct tageval_agreement *ag,
		       struct acc *pooled, struct item_sum *used, size_t *nused)
{
	size_t np = lex_parts(ag->nlex, start[ag->nlex], a->inv->tags.n, a->nann);
	struct lex_part *part = parts_alloc(np, a->nann, a->inv->tags.n);
	if (part == NULL)
		return -1;
	cut_parts(start, ag->nlex, part, np);
	struct lex_job job = { a, g, start, order, ag, used, part };
	tv_parallel(np, lexelt_part, &job);
	int rc = 0;
	for (size_t i = 0; i < np && rc == 0; i++) {
		struct lex_part *p = &part[i];
		if (p->oom || acc_merge(pooled, &p->sum)) {
			rc = -1;
			break;
		}
		for (size_t c = 0; c < a->nann; c++)
			ag->single[c] += p->single[c];
		if (used && p->nused)
			memmove(used + *nused, used + start[p->lex0], p->nused * sizeof *used);
		*nused += p->nused;
	}
	parts_free(part, np);
	return rc;
}

/* One replicate's draws: @count[i] times item[i] (by item key); the next
 * one's drawn meanwhile into @next (NULL: none). */
struct boot_job {
	const struct tageval_annotations *a;
	const struct keyed_item *item;
	const uint32_t *count;
	uint32_t *next;
	gsl_rng *rng;
	size_t n, np;
	struct lex_part *part; /* their sums only */
};

/* A replicate's @n draws of the items into @count, from @rng. */
static void boot_draw(gsl_rng *rng, uint32_t *count, size_t n)
{
	memset(count, 0, n * sizeof *count);
	for (size_t i = 0; i < n; i++)
		count[gsl_rng_uniform_int(rng, n)]++;
}

/* Part 0: the next replicate's draws (the generator's numbers in the
 * replicates' order: one replicate's draws in one part, each after the
 * replicate before's).  Part i > 0: the drawn items of the (i - 1)-th of
 * np runs of about equal length. */
static void boot_part(void *ctx, size_t i)
{
	const struct boot_job *j = ctx;
	if (i == 0) {
		if (j->next)
			boot_draw(j->rng, j->next, j->n);
		return;
	}
	struct acc *ac = &j->part[--i].sum;
	acc_reset(ac);
	for (size_t k = j->n * i / j->np; k < j->n * (i + 1) / j->np; k++)
		if (j->count[k])
			accumulate(j->a, ac, &j->item[k].sum, (double)j->count[k]);
}

/* One replicate's sums into @ac: the parts on the cores (boot_part), then
 * added in part order (exact sums: the same bits as one pass); -1: out of
 * memory (ac->oom set).  Without parts (a small replicate: threads started
 * and joined for each would cost more than its sums), the draws summed into
 * @ac here and the next replicate's drawn after: the same sums, the same
 * draws in the same order. */
static int boot_replicate(struct boot_job *j, struct acc *ac)
{
	if (j->np == 0) {
		acc_reset(ac);
		for (size_t k = 0; k < j->n; k++)
			if (j->count[k])
				accumulate(j->a, ac, &j->item[k].sum, (double)j->count[k]);
		boot_part(j, 0);
		return ac->oom ? -1 : 0;
	}
	tv_parallel(j->np + 1, boot_part, j);
	acc_reset(ac);
	for (size_t i = 0; i < j->np; i++)
		if (j->part[i].sum.oom || acc_merge(ac, &j->part[i].sum)) {
			ac->oom = 1;
			return -1;
		}
	return 0;
}

/*
 * Percentile bootstrap over the used items, with GSL's MT19937.  The draws
 * index the items sorted by lexelt and instance id (not by the order of the
 * lines), and every sum over a replicate is exact (struct acc), so that the
 * interval does not depend on the order of the lines.
 */
static int bootstrap(const struct tageval_annotations *a, const struct tv_geom *g,
		     struct sweep_ws *ws, const struct item_sum *used, size_t nused,
		     const struct tageval_agreement_options *o, struct tageval_agreement *ag,
		     struct acc *ac, struct tageval_error *err)
{
	size_t b = o->bootstrap;
	uint32_t *count = malloc(2 * nused * sizeof *count); /* this replicate's, the next's */
	struct keyed_item *item = malloc(nused * sizeof *item);
	gsl_rng *rng = tv_rng_new(o->seed);
	/* parts (started for each replicate) only for replicates of many items */
	size_t np = nused >= TV_BOOT_PARALLEL_MIN ? lex_parts(nused, nused, a->inv->tags.n, a->nann)
						  : 0;
	struct lex_part *part = parts_alloc(np, a->nann, a->inv->tags.n);
	for (int i = 0; i < 3; i++)
		ag->boot[i] = malloc(b * sizeof *ag->boot[i]);
	if (count == NULL || item == NULL || rng == NULL || part == NULL || !ag->boot[0] ||
	    !ag->boot[1] || !ag->boot[2]) {
		free(count);
		free(item);
		tv_rng_free(rng);
		parts_free(part, np);
		return tv_nomem(err);
	}
	for (size_t i = 0; i < nused; i++) {
		item[i].key = tv_intern_str(&a->items, used[i].item);
		item[i].sum = used[i];
	}
	qsort(item, nused, sizeof *item, by_item_key);
	struct boot_job job = { a, item, NULL, NULL, rng, nused, np, part };
	boot_draw(rng, count, nused);
	for (size_t r = 0; r < b; r++) {
		job.count = count + (r & 1) * nused;
		job.next = r + 1 < b ? count + ((r + 1) & 1) * nused : NULL;
		if (boot_replicate(&job, ac))
			break;
		struct tageval_agreement_figures f;
		finish(a, g, ws, ac, &f);
		if (ac->oom)
			break;
		for (int which = 0; which < 3; which++) {
			int undefined;
			double v = pick(&f, (enum tageval_coefficient)which, &undefined);
			if (!undefined)
				ag->boot[which][ag->nboot[which]++] = v;
		}
	}
	for (int which = 0; which < 3; which++)
		gsl_sort(ag->boot[which], 1, ag->nboot[which]);
	ag->replicates = b;
	ag->confidence = o->confidence;
	free(count);
	free(item);
	tv_rng_free(rng);
	parts_free(part, np);
	return ac->oom ? tv_nomem(err) : TAGEVAL_OK;
}

int tageval_agreement_compute(const struct tageval_annotations *a,
			      const struct tageval_agreement_options *opts,
			      struct tageval_agreement **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, a, "ann");
	struct tageval_agreement_options o;
	if (opts)
		o = *opts;
	else
		tageval_agreement_options_init(&o);
	if (a->nann < 2)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "at least two annotators are needed");
	if (o.bootstrap > 0 && !(o.confidence > 0.0 && o.confidence < 1.0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the confidence level must lie between 0 and 1");
	size_t m = a->nann, ntags = a->inv->tags.n, nlex = a->lexelts.n, nitems = a->nitems;
	struct tageval_agreement *ag = calloc(1, sizeof *ag);
	uint32_t *start = calloc(nlex + 1, sizeof *start);
	uint32_t *order = NULL;
	/* the items' sums are kept only for the bootstrap to resample */
	struct item_sum *used = NULL;
	if (o.bootstrap > 0)
		used = malloc((nitems ? nitems : 1) * sizeof *used);
	struct acc pooled, lex;
	struct tv_geom g;
	struct sweep_ws ws;
	int rc = TAGEVAL_OK;
	memset(&pooled, 0, sizeof pooled);
	memset(&lex, 0, sizeof lex);
	memset(&g, 0, sizeof g);
	int ws_ok = ws_alloc(&ws, ntags);
	if (ag == NULL || start == NULL || (o.bootstrap > 0 && used == NULL) ||
	    !ws_ok || geom_init(a, &g) ||
	    acc_init(&pooled, m, ntags) || acc_init(&lex, m, ntags)) {
		rc = tv_nomem(err);
		goto out;
	}
	ag->m = m;
	ag->nlex = nlex;
	ag->lex = calloc(nlex ? nlex : 1, sizeof *ag->lex);
	ag->lexname = calloc(nlex ? nlex : 1, sizeof *ag->lexname);
	ag->single = calloc(m, sizeof *ag->single);
	if (!ag->lex || !ag->lexname || !ag->single) {
		rc = tv_nomem(err);
		goto out;
	}
	/* items grouped by lexelt (counting sort, order of first appearance
	 * kept), then the lexelts in parts (each_lexelt) */
	size_t nused = 0;
	if (group_items(a, nlex, start, &order) ||
	    each_lexelt(a, &g, start, order, ag, &pooled, used, &nused)) {
		rc = tv_nomem(err);
		goto out;
	}
	finish(a, &g, &ws, &pooled, &ag->pooled);
	if (pooled.oom) {
		rc = tv_nomem(err);
		goto out;
	}
	if (nused == 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0,
			      "no item annotated by two or more annotators");
		goto out;
	}
	if (o.bootstrap > 0)
		rc = bootstrap(a, &g, &ws, used, nused, &o, ag, &lex, err);
out:
	geom_free(&g);
	ws_free(&ws);
	acc_free(&pooled);
	acc_free(&lex);
	free(start);
	free(order);
	free(used);
	if (rc) {
		tageval_agreement_free(ag);
		return rc;
	}
	*out = ag;
	return TAGEVAL_OK;
}

const struct tageval_agreement_figures *tageval_agreement_pooled(const struct tageval_agreement *ag)
{
	TV_NULL_RET(ag, NULL);
	return &ag->pooled;
}

size_t tageval_agreement_lexelts(const struct tageval_agreement *ag)
{
	TV_NULL_RET(ag, 0);
	return ag->nlex;
}

const char *tageval_agreement_lexelt_name(const struct tageval_agreement *ag, size_t i)
{
	TV_NULL_RET(ag, NULL);
	return i < ag->nlex ? ag->lexname[i] : NULL;
}

const struct tageval_agreement_figures *tageval_agreement_lexelt(const struct tageval_agreement *ag,
								  size_t i)
{
	TV_NULL_RET(ag, NULL);
	return i < ag->nlex ? &ag->lex[i] : NULL;
}

double tageval_agreement_macro(const struct tageval_agreement *ag, enum tageval_coefficient which,
			       size_t *used, size_t *left_out)
{
	TV_NULL_RET(ag, NAN);
	struct tv_fsum sum; /* exact: the lexelts' order does not matter */
	tv_fsum_init(&sum);
	size_t n = 0, out = 0;
	for (size_t i = 0; i < ag->nlex; i++) {
		int undefined;
		double v = pick(&ag->lex[i], which, &undefined);
		if (undefined)
			out++;
		else {
			tv_fsum_add(&sum, v);
			n++;
		}
	}
	if (used)
		*used = n;
	if (left_out)
		*left_out = out;
	return n ? tv_fsum_result(&sum) / (double)n : NAN;
}

size_t tageval_agreement_single(const struct tageval_agreement *ag, size_t annotator)
{
	TV_NULL_RET(ag, 0);
	return annotator < ag->m ? ag->single[annotator] : 0;
}

int tageval_agreement_interval(const struct tageval_agreement *ag, enum tageval_coefficient which,
			       double *low, double *high, size_t *replicates)
{
	TV_NULL_RET(ag, TAGEVAL_EINVAL);
	TV_NULL_RET(low, TAGEVAL_EINVAL);
	TV_NULL_RET(high, TAGEVAL_EINVAL);
	int w = (int)which;
	if (w < 0 || w > 2 || ag->replicates == 0 || ag->nboot[w] * 2 < ag->replicates ||
	    ag->nboot[w] == 0)
		return TAGEVAL_ENOTFOUND;
	double tail = (1.0 - ag->confidence) / 2.0;
	*low = gsl_stats_quantile_from_sorted_data(ag->boot[w], 1, ag->nboot[w], tail);
	*high = gsl_stats_quantile_from_sorted_data(ag->boot[w], 1, ag->nboot[w], 1.0 - tail);
	/* the interpolation between replicates that agree can round the two
	 * ends one ulp the wrong way round */
	if (*low > *high)
		*low = *high;
	if (replicates)
		*replicates = ag->nboot[w];
	return TAGEVAL_OK;
}

/*
 * The agreement of some of the annotators alone: a view of @a with their
 * rows of records (the records, the pool and the caches shared, never
 * written: tageval_agreement_compute reads its annotations only).
 */
int tageval_agreement_subset(const struct tageval_annotations *a, const size_t *which, size_t n,
			     const struct tageval_agreement_options *opts,
			     struct tageval_agreement **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, a, "ann");
	TV_NEED(err, which, "which");
	if (n < 2 || n > a->nann)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"tageval_agreement_subset: %zu annotators of %zu (2 or more needed)", n,
				a->nann);
	struct tv_rec **rec = malloc(n * sizeof *rec);
	size_t *nrec = malloc(n * sizeof *nrec);
	unsigned char *seen = calloc(a->nann, 1);
	int rc = TAGEVAL_OK;
	if (rec == NULL || nrec == NULL || seen == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	size_t longest = 0;
	for (size_t k = 0; k < n; k++) {
		if (which[k] >= a->nann || seen[which[k]]) {
			rc = tv_error(err, TAGEVAL_EINVAL, "", 0,
				      "tageval_agreement_subset: annotator %zu %s", which[k],
				      which[k] >= a->nann ? "out of range" : "given twice");
			goto out;
		}
		seen[which[k]] = 1;
		rec[k] = a->rec[which[k]];
		nrec[k] = a->nrec[which[k]];
		if (nrec[k] > longest)
			longest = nrec[k];
	}
	/* an item annotated by two of them, or TAGEVAL_ENOTFOUND */
	int common = 0;
	for (size_t t = 0; t < longest && !common; t++) {
		size_t m = 0;
		for (size_t k = 0; k < n && m < 2; k++)
			m += t < nrec[k] && rec[k][t].ref != 0;
		common = m >= 2;
	}
	if (!common) {
		rc = tv_error(err, TAGEVAL_ENOTFOUND, "", 0,
			      "no item annotated by two or more of the annotators");
		goto out;
	}
	struct tageval_annotations view = *a;
	view.nann = n;
	view.rec = rec;
	view.nrec = nrec;
	rc = tageval_agreement_compute(&view, opts, out, err);
out:
	free(rec);
	free(nrec);
	free(seen);
	return rc;
}

/* ------------------------------------------------ items of least agreement */

static int by_agreement(const void *x, const void *y)
{
	const struct keyed_item *a = x, *b = y;
	if (a->sum.a != b->sum.a)
		return a->sum.a < b->sum.a ? -1 : 1;
	return by_item_key(x, y);
}

int tageval_agreement_least(const struct tageval_annotations *a, size_t n,
			    struct tageval_item_agreement *out, size_t *count,
			    struct tageval_error *err)
{
	TV_NEED(err, count, "count");
	*count = 0;
	TV_NEED(err, a, "ann");
	if (n > 0)
		TV_NEED(err, out, "out");
	size_t nitems = a->nitems;
	struct keyed_item *k = malloc((nitems ? nitems : 1) * sizeof *k);
	struct tv_geom g;
	struct sweep_ws ws;
	memset(&g, 0, sizeof g);
	int ws_ok = ws_alloc(&ws, a->inv->tags.n);
	int rc = TAGEVAL_OK;
	if (k == NULL || !ws_ok || geom_init(a, &g)) {
		rc = tv_nomem(err);
		goto out;
	}
	size_t nk = 0;
	for (size_t t = 0; t < nitems; t++) {
		size_t present = 0;
		for (size_t c = 0; c < a->nann && present < 2; c++)
			if (rec_of(a, c, (uint32_t)t))
				present++;
		if (present < 2)
			continue;
		k[nk].key = tv_intern_str(&a->items, (uint32_t)t);
		summarise(a, &g, &ws, (uint32_t)t, &k[nk].sum);
		nk++;
	}
	qsort(k, nk, sizeof *k, by_agreement);
	*count = n < nk ? n : nk;
	for (size_t i = 0; i < *count; i++)
		out[i] = (struct tageval_item_agreement){ k[i].key, k[i].sum.item, k[i].sum.m,
							   k[i].sum.a };
out:
	geom_free(&g);
	ws_free(&ws);
	free(k);
	return rc;
}

size_t tageval_annotations_entries(const struct tageval_annotations *a, size_t annotator,
				   size_t item, const char **tags, double *shares, size_t cap)
{
	if (a == NULL || annotator >= a->nann || item > UINT32_MAX)
		return 0;
	const struct tv_rec *r = rec_of(a, annotator, (uint32_t)item);
	if (r == NULL)
		return 0;
	struct tv_leafp one;
	size_t ne;
	const struct tv_leafp *e = entries(a, r, &one, &ne);
	for (size_t j = 0; j < ne && j < cap; j++) {
		if (tags)
			tags[j] = tv_inventory_name(a->inv, e[j].leaf);
		if (shares)
			shares[j] = e[j].p;
	}
	return ne;
}
