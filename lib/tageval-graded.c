/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Graded sense keys read as the SemEval-2013 Task 13 scorers read them, and
 * the task's WSD setting: five folds, the remapping of induced senses to
 * gold senses, the Jaccard index, positionally weighted Kendall's tau and
 * weighted NDCG (../shared/spec/reference-wsi2013.md sections 2 and 5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-rng.h"
#include "tageval-util.h"

#define NFOLDS 5

struct tv_glabel {
	uint32_t label;
	double m; /* membership (reading) or rating (remapped answer) */
};

/* A gold instance and the system's answer for it. */
struct tv_ginst {
	uint32_t word;
	uint64_t gold_line;
	uint32_t gold_first, gold_n; /* in gpool */
	uint32_t gold_tokens;        /* label fields of the line (a repeated label twice) */
	uint32_t sys_first, sys_n;   /* in spool; sys_n == 0: unanswered */
	uint64_t sys_line;
};

/* A label field of a line: its name (up to the '/') and position. */
struct tv_gtok {
	const char *s;
	size_t len, pos;
};

/* A system line for an instance of a gold word that the gold key lacks. */
struct tv_gextra {
	uint32_t word;
	uint32_t sys_first, sys_n;
	uint64_t line;
};

struct tageval_graded {
	struct tv_intern ids;    /* "word instance" of the gold key -> gold instance */
	struct tv_intern extras; /* "word instance" of extra instances -> index in ex */
	struct tv_intern words;  /* ids in order of first appearance in the gold key */
	struct tv_intern labels; /* gold senses and system labels */
	struct tv_ginst *in;
	size_t n, cap;
	struct tv_gextra *ex;
	size_t nex, excap;
	struct tv_glabel *gpool, *spool;
	size_t ngpool, gpoolcap, nspool, spoolcap;
	size_t ignored;
	size_t repeated;         /* lines naming a label twice */
	size_t syslines;         /* lines of the system file */
	int have_gold, have_system;
	/* scratch of a line's labels */
	double *w;
	const char **tok;
	uint32_t *lab;
	size_t linecap;
	struct tv_gtok *dup;     /* a long line's labels sorted by name */
	uint8_t *isdup;          /* 1: a later mention of an earlier label */
	size_t dupcap;
};

struct tageval_graded *tageval_graded_new(void)
{
	struct tageval_graded *g = calloc(1, sizeof *g);
	if (g == NULL)
		return NULL;
	tv_intern_init(&g->ids);
	tv_intern_init(&g->extras);
	tv_intern_init(&g->words);
	tv_intern_init(&g->labels);
	return g;
}

void tageval_graded_free(struct tageval_graded *g)
{
	if (g == NULL)
		return;
	tv_intern_clear(&g->ids);
	tv_intern_clear(&g->extras);
	tv_intern_clear(&g->words);
	tv_intern_clear(&g->labels);
	free(g->in);
	free(g->ex);
	free(g->gpool);
	free(g->spool);
	free(g->w);
	free(g->tok);
	free(g->lab);
	free(g->dup);
	free(g->isdup);
	free(g);
}

size_t tageval_graded_instances(const struct tageval_graded *g)
{
	return g->n;
}

size_t tageval_graded_ignored(const struct tageval_graded *g)
{
	return g->ignored;
}

size_t tageval_graded_extra(const struct tageval_graded *g)
{
	return g->nex;
}

size_t tageval_graded_repeated(const struct tageval_graded *g)
{
	return g->repeated;
}

size_t tageval_graded_system_lines(const struct tageval_graded *g)
{
	return g->syslines;
}

/* ------------------------------------------------------------ reading */

static int line_error(const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "missing instance id");
	char q[80];
	tv_quote(q, sizeof q, l->field[1], strlen(l->field[1]));
	return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "instance \"%s\" has no label", q);
}

/* Byte order of two strings given with their lengths (a prefix first). */
static int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int by_token(const void *a, const void *b)
{
	const struct tv_gtok *x = a, *y = b;
	int c = bytes_cmp(x->s, x->len, y->s, y->len);
	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Lines with more labels than this find repeated labels by sorting. */
#define DUP_SCAN 16

/*
 * Marks in g->isdup[i] the label fields of the line that repeat an earlier
 * field's label: O(L log L) for a line of L labels (issue 17: a crafted
 * line of 10^5 labels must not cost 10^10 comparisons).
 */
static int mark_repeats(struct tageval_graded *g, const struct tv_line *l, size_t nlab)
{
	size_t cap = g->dupcap;
	if (tv_grow((void **)&g->dup, &cap, nlab, sizeof *g->dup))
		return -1;
	cap = g->dupcap;
	if (tv_grow((void **)&g->isdup, &cap, nlab, sizeof *g->isdup))
		return -1;
	g->dupcap = cap;
	for (size_t i = 0; i < nlab; i++) {
		const char *tok = l->field[i + 2];
		g->dup[i].s = tok;
		g->dup[i].len = strcspn(tok, "/");
		g->dup[i].pos = i;
		g->isdup[i] = 0;
	}
	qsort(g->dup, nlab, sizeof *g->dup, by_token);
	for (size_t i = 1; i < nlab; i++)
		if (g->dup[i].len == g->dup[i - 1].len &&
		    memcmp(g->dup[i].s, g->dup[i - 1].s, g->dup[i].len) == 0)
			g->isdup[g->dup[i].pos] = 1;
	return 0;
}

/*
 * Reads the labels of a line into g->lab (interned) and g->w (memberships):
 * the weight over the line's largest weight, or 1 for every label when some
 * label has no weight (section 2.2); *nout labels.  A label named twice in
 * the line is kept once and, as in the jars, every membership of the line is
 * then 1 (17 lines of the task's own gold key do this); such lines are
 * counted in g->repeated.  Labels are interned only when @intern.
 */
static int read_labels(struct tageval_graded *g, const struct tv_line *l, int intern,
		       size_t *nout, struct tageval_error *err)
{
	size_t nlab = l->nfield - 2, n = 0;
	char q[80];
	if (nlab > g->linecap) {
		size_t cap = g->linecap;
		if (tv_grow((void **)&g->w, &cap, nlab, sizeof *g->w))
			return tv_nomem(err);
		cap = g->linecap;
		if (tv_grow((void **)&g->tok, &cap, nlab, sizeof *g->tok))
			return tv_nomem(err);
		cap = g->linecap;
		if (tv_grow((void **)&g->lab, &cap, nlab, sizeof *g->lab))
			return tv_nomem(err);
		g->linecap = cap;
	}
	int all_weighted = 1, repeated = 0, sorted = nlab > DUP_SCAN;
	double max = 0.0;
	if (sorted && mark_repeats(g, l, nlab))
		return tv_nomem(err);
	for (size_t i = 0; i < nlab; i++) {
		const char *tok = l->field[i + 2];
		size_t len;
		double w;
		int kind = tv_split_weight(tok, &len, &w);
		if (kind < 0) {
			tv_quote(q, sizeof q, tok, strlen(tok));
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"invalid weight \"%s\" (a number >= 0)", q);
		}
		if (kind == 0)
			all_weighted = 0;
		else if (w > max)
			max = w;
		/* a label named twice in the line: a short line compares, a
		 * long one was sorted (mark_repeats) */
		int again;
		if (sorted) {
			again = g->isdup[i];
		} else {
			size_t j = 0;
			while (j < n && !(strcspn(g->tok[j], "/") == len &&
					  memcmp(g->tok[j], tok, len) == 0))
				j++;
			again = j < n;
		}
		if (again) {
			repeated = 1; /* its rating is irrelevant: all become 1 */
			continue;
		}
		g->tok[n] = tok;
		g->w[n] = w;
		if (intern && tv_intern_put(&g->labels, tok, len, &g->lab[n], NULL))
			return tv_nomem(err);
		n++;
	}
	if (all_weighted && max == 0.0)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"every weight of the line is 0");
	for (size_t i = 0; i < n; i++)
		g->w[i] = all_weighted && !repeated ? g->w[i] / max : 1.0;
	g->repeated += (size_t)repeated;
	*nout = n;
	return TAGEVAL_OK;
}

static int push_labels(struct tageval_graded *g, struct tv_glabel **pool, size_t *npool,
		       size_t *cap, size_t nlab, uint32_t *first, struct tageval_error *err)
{
	if (*npool + nlab > UINT32_MAX)
		return tv_error(err, TAGEVAL_ENOMEM, "", 0, "too many labels");
	if (tv_grow((void **)pool, cap, *npool + nlab, sizeof **pool))
		return tv_nomem(err);
	*first = (uint32_t)*npool;
	for (size_t i = 0; i < nlab; i++) {
		(*pool)[*npool].label = g->lab[i];
		(*pool)[*npool].m = g->w[i];
		(*npool)++;
	}
	return TAGEVAL_OK;
}

static int duplicate(const struct tv_line *l, uint64_t first, struct tageval_error *err)
{
	char q[80];
	tv_quote(q, sizeof q, l->id, l->idlen);
	return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
			"duplicate instance \"%s\" (first at line %" PRIu64 ")", q, first);
}

static int gold_line(struct tageval_graded *g, const struct tv_line *l,
		     struct tageval_error *err)
{
	if (l->nfield < 3)
		return line_error(l, err);
	size_t nlab;
	int rc = read_labels(g, l, 1, &nlab, err);
	if (rc)
		return rc;
	uint32_t idx;
	int added;
	if (tv_intern_put_hashed(&g->ids, l->id, l->idlen, l->hash, &idx, &added))
		return tv_nomem(err);
	if (!added)
		return duplicate(l, g->in[idx].gold_line, err);
	if (tv_grow((void **)&g->in, &g->cap, g->n + 1, sizeof *g->in))
		return tv_nomem(err);
	struct tv_ginst *in = &g->in[g->n++];
	memset(in, 0, sizeof *in);
	if (tv_intern_put(&g->words, l->field[0], strlen(l->field[0]), &in->word, NULL))
		return tv_nomem(err);
	in->gold_line = l->lineno;
	in->gold_n = (uint32_t)nlab;
	in->gold_tokens = (uint32_t)(l->nfield - 2);
	return push_labels(g, &g->gpool, &g->ngpool, &g->gpoolcap, in->gold_n, &in->gold_first,
			   err);
}

static int system_line(struct tageval_graded *g, const struct tv_line *l,
		       struct tageval_error *err)
{
	g->syslines++;
	if (l->nfield < 3)
		return line_error(l, err);
	uint32_t word, idx;
	int known = tv_intern_find(&g->words, l->field[0], strlen(l->field[0]), &word);
	/* the labels are checked on every line, also on lines that are ignored */
	size_t n;
	int rc = read_labels(g, l, known, &n, err);
	if (rc)
		return rc;
	if (!known) {
		g->ignored++;
		return TAGEVAL_OK;
	}
	uint32_t nlab = (uint32_t)n;
	if (tv_intern_find_hashed(&g->ids, l->id, l->idlen, l->hash, &idx)) {
		struct tv_ginst *in = &g->in[idx];
		if (in->sys_n != 0)
			return duplicate(l, in->sys_line, err);
		in->sys_n = nlab;
		in->sys_line = l->lineno;
		return push_labels(g, &g->spool, &g->nspool, &g->spoolcap, nlab, &in->sys_first,
				   err);
	}
	int added;
	if (tv_intern_put(&g->extras, l->id, l->idlen, &idx, &added))
		return tv_nomem(err);
	if (!added)
		return duplicate(l, g->ex[idx].line, err);
	if (tv_grow((void **)&g->ex, &g->excap, g->nex + 1, sizeof *g->ex))
		return tv_nomem(err);
	struct tv_gextra *e = &g->ex[g->nex++];
	e->word = word;
	e->sys_n = nlab;
	e->line = l->lineno;
	return push_labels(g, &g->spool, &g->nspool, &g->spoolcap, nlab, &e->sys_first, err);
}

static int each_gold_line(void *g, struct tv_line *l, struct tageval_error *err)
{
	return gold_line(g, l, err);
}

static int each_system_line(void *g, struct tv_line *l, struct tageval_error *err)
{
	return system_line(g, l, err);
}

static int read_lines(struct tageval_graded *g, struct tv_reader *r, int gold,
		      struct tageval_error *err)
{
	/* the ids are hashed with the key of g->ids (each table has its own) */
	struct tv_each e = { .id = TV_ID_JOINED, .ids = &g->ids, .lookup = TV_LOOKUP_SLOT,
			     .line = gold ? each_gold_line : each_system_line, .ctx = g };
	size_t lines;
	int rc = tv_each_line(r, &e, &lines, err);
	if (rc == TAGEVAL_OK && gold && lines == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no instances");
	if (rc == TAGEVAL_OK && g->n > UINT32_MAX - 1)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "too many instances");
	return rc;
}

static int read_file(struct tageval_graded *g, struct tv_reader *r, int gold,
		     struct tageval_error *err)
{
	if (gold ? g->have_gold : (!g->have_gold || g->have_system)) {
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				gold ? "the gold key was already read"
				     : "read the gold key once, then the system once");
	}
	int rc = read_lines(g, r, gold, err);
	if (gold)
		g->have_gold = 1;
	else
		g->have_system = 1;
	return rc;
}

static int run_gold(void *g, struct tv_reader *r, struct tageval_error *err)
{
	return read_file(g, r, 1, err);
}

static int run_system(void *g, struct tv_reader *r, struct tageval_error *err)
{
	return read_file(g, r, 0, err);
}

int tageval_graded_read_gold(struct tageval_graded *g, const char *path,
			     struct tageval_error *err)
{
	TV_NEED(err, g, "graded");
	return tv_read_path(__func__, path, run_gold, g, err);
}

int tageval_graded_read_gold_buffer(struct tageval_graded *g, const char *data, size_t size,
				    const char *name, struct tageval_error *err)
{
	TV_NEED(err, g, "graded");
	return tv_read_buffer(__func__, data, size, name, run_gold, g, err);
}

int tageval_graded_read_system(struct tageval_graded *g, const char *path,
			       struct tageval_error *err)
{
	TV_NEED(err, g, "graded");
	return tv_read_path(__func__, path, run_system, g, err);
}

int tageval_graded_read_system_buffer(struct tageval_graded *g, const char *data, size_t size,
				      const char *name, struct tageval_error *err)
{
	TV_NEED(err, g, "graded");
	return tv_read_buffer(__func__, data, size, name, run_system, g, err);
}

/* ------------------------------------------------------- per-instance scores */

/* A sense of U = gold senses u system senses. */
struct usense {
	uint32_t rank; /* of its name in byte order */
	double g, t;   /* gold and system ratings, 0 when absent */
	int in_g, in_t;
	size_t sys_pos;
};

static int by_gold(const void *a, const void *b)
{
	const struct usense *x = a, *y = b;
	if (x->g != y->g)
		return x->g > y->g ? -1 : 1;
	return x->rank > y->rank ? -1 : x->rank < y->rank; /* descending names */
}

static int by_system_desc(const void *a, const void *b)
{
	const struct usense *x = *(const struct usense *const *)a,
			    *y = *(const struct usense *const *)b;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->rank > y->rank ? -1 : x->rank < y->rank;
}

static int by_system_asc(const void *a, const void *b)
{
	const struct usense *x = *(const struct usense *const *)a,
			    *y = *(const struct usense *const *)b;
	if (x->t != y->t)
		return x->t > y->t ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank; /* ascending names */
}

#define DISCOUNTS 16

struct scratch {
	struct usense *u;
	struct usense **p;
	double *pos;  /* P_m */
	double *ca, *cr; /* costs */
	double *gsort;
	double *bit;  /* Fenwick tree of the tau sums of a long union */
	size_t cap;
	double disc[DISCOUNTS]; /* log2(m + 2) */
};

static int scratch_reserve(struct scratch *s, size_t n)
{
	n++; /* the Fenwick tree counts from 1 */
	if (n <= s->cap)
		return 0;
	if (s->cap == 0)
		for (size_t m = 0; m < DISCOUNTS; m++)
			s->disc[m] = log2((double)m + 2.0);
	size_t cap = s->cap;
	if (tv_grow((void **)&s->u, &cap, n, sizeof *s->u))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->p, &cap, n, sizeof *s->p))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->pos, &cap, n, sizeof *s->pos))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->gsort, &cap, n, sizeof *s->gsort))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->ca, &cap, n, sizeof *s->ca))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->cr, &cap, n, sizeof *s->cr))
		return -1;
	cap = s->cap;
	if (tv_grow((void **)&s->bit, &cap, n, sizeof *s->bit))
		return -1;
	s->cap = cap;
	return 0;
}

static void scratch_free(struct scratch *s)
{
	free(s->u);
	free(s->p);
	free(s->pos);
	free(s->gsort);
	free(s->ca);
	free(s->cr);
	free(s->bit);
}

static double cost(const double *P, size_t i, size_t r)
{
	if (i == r)
		return 1.0;
	return (P[i] - P[r]) / ((double)i - (double)r);
}

/* Insertion sorts for the usual lists of a few senses, where qsort's set-up
 * costs more than the sorting; qsort for long ones (the orders are total,
 * so both give the same order). */
#define SHORT_SORT 16

static int by_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x > y ? -1 : x < y;
}

static void sort_union(struct usense *u, size_t n)
{
	if (n > SHORT_SORT) {
		qsort(u, n, sizeof *u, by_gold);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct usense x = u[i];
		size_t j = i;
		while (j > 0 && by_gold(&x, &u[j - 1]) < 0) {
			u[j] = u[j - 1];
			j--;
		}
		u[j] = x;
	}
}

static void sort_ptrs(struct usense **p, size_t n, int (*cmp)(const void *, const void *))
{
	if (n > SHORT_SORT) {
		qsort(p, n, sizeof *p, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct usense *x = p[i];
		size_t j = i;
		while (j > 0 && cmp(&x, &p[j - 1]) < 0) {
			p[j] = p[j - 1];
			j--;
		}
		p[j] = x;
	}
}

static void sort_desc(double *v, size_t n)
{
	if (n > SHORT_SORT) {
		qsort(v, n, sizeof *v, by_double_desc);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		while (j > 0 && x > v[j - 1]) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* log2(m + 2), the discount of 0-based position m, the first ones kept */
static double discount(const struct scratch *s, size_t m)
{
	return m < DISCOUNTS ? s->disc[m] : log2((double)m + 2.0);
}

/* Unions longer than this sum tau's pairs in O(n log n) (tau_sums_long). */
#define PAIR_SCAN 32

/*
 * D and D_max of tau (5.4) for a long union, in O(n log n) rather than over
 * the n(n-1)/2 pairs: D = sum over gold positions j of ca[j] times the sum of
 * ca[i] over the earlier positions i placed after j in the system order (a
 * Fenwick tree indexed by the reversed system position holds those ca[i]);
 * D_max = sum over j of cr[j] times the sum of cr[i], i < j.  All terms are
 * >= 0, so the regrouping moves the sums by a few ulps at most.
 */
static void tau_sums_long(struct scratch *s, size_t n, double *d, double *dmax)
{
	const struct usense *u = s->u;
	double *bit = s->bit, before = 0.0, dd = 0.0, dm = 0.0;
	for (size_t i = 0; i <= n; i++)
		bit[i] = 0.0;
	for (size_t j = 0; j < n; j++) {
		size_t rev = n - 1 - u[j].sys_pos; /* 0-based; later system positions first */
		double q = 0.0;
		for (size_t x = rev; x > 0; x -= x & (~x + 1))
			q += bit[x];
		dd += s->ca[j] * q;
		for (size_t x = rev + 1; x <= n; x += x & (~x + 1))
			bit[x] += s->ca[j];
		dm += s->cr[j] * before;
		before += s->cr[j];
	}
	*d = dd;
	*dmax = dm;
}

/*
 * Scores s->u[0..n) (gold and system ratings filled, ngold of them gold
 * senses): Jaccard (5.3), positionally weighted tau (5.4), WNDCG (5.5).
 */
static void score_union(struct scratch *s, size_t n, size_t k, double *ji, double *tau,
			double *ndcg)
{
	struct usense *u = s->u;
	size_t both = 0;
	for (size_t i = 0; i < n; i++)
		both += u[i].in_g && u[i].in_t;
	*ji = (double)both / (double)n;

	/* tau: U in gold order; r(u) its position in the system order */
	sort_union(u, n);
	if (n == 1) {
		*tau = 1.0;
	} else {
		for (size_t i = 0; i < n; i++)
			s->p[i] = &u[i];
		sort_ptrs(s->p, n, by_system_desc);
		for (size_t i = 0; i < n; i++)
			s->p[i]->sys_pos = i;
		double *P = s->pos;
		P[0] = 1.0;
		for (size_t m = 1; m < n; m++)
			P[m] = P[m - 1] + (1.0 - (double)(m - 1) / (double)k);
		/* the costs of each gold position in the system order and in
		 * the reversed order, computed once (reused in the pair sums) */
		double *ca = s->ca, *cr = s->cr;
		for (size_t i = 0; i < n; i++) {
			ca[i] = cost(P, i, u[i].sys_pos);
			cr[i] = cost(P, i, n - 1 - i);
		}
		double d = 0.0, dmax = 0.0;
		if (n <= PAIR_SCAN) {
			for (size_t i = 0; i < n; i++) {
				for (size_t j = i + 1; j < n; j++) {
					if (u[i].sys_pos > u[j].sys_pos)
						d += ca[i] * ca[j];
					dmax += cr[i] * cr[j];
				}
			}
		} else {
			tau_sums_long(s, n, &d, &dmax);
		}
		*tau = dmax == 0.0 ? 0.0 : 1.0 - d / dmax;
	}

	/* WNDCG: U ranked by system rating, ties in ascending name order */
	for (size_t i = 0; i < n; i++)
		s->p[i] = &u[i];
	sort_ptrs(s->p, n, by_system_asc);
	double dcg = 0.0, idcg = 0.0;
	size_t ng = 0;
	for (size_t m = 0; m < n; m++) {
		double g = s->p[m]->g, t = s->p[m]->t, gain;
		if (g == 0.0 && t == 0.0)
			gain = 1.0;
		else if (g == 0.0 || t == 0.0)
			gain = 0.0; /* min(g, t) = 0: no need for the power */
		else
			gain = (fmin(g, t) / fmax(g, t)) * (pow(2.0, 1.0 + g) - 1.0);
		dcg += gain / discount(s, m);
		if (u[m].in_g)
			s->gsort[ng++] = u[m].g;
	}
	sort_desc(s->gsort, ng);
	for (size_t m = 0; m < ng; m++)
		idcg += pow(2.0, 1.0 + s->gsort[m]) / discount(s, m);
	*ndcg = dcg / idcg;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int tageval_graded_instance_scores(const char *const *gl, const double *gm, size_t ng,
				   const char *const *sl, const double *sr, size_t ns, size_t k,
				   double *jaccard, double *kendall_tau, double *wndcg)
{
	if (ng == 0 || ns == 0)
		return TAGEVAL_EINVAL;
	struct scratch s = { 0 };
	const char **names = malloc((ng + ns) * sizeof *names);
	if (names == NULL || scratch_reserve(&s, ng + ns)) {
		free(names);
		scratch_free(&s);
		return TAGEVAL_ENOMEM;
	}
	size_t n = 0;
	for (size_t i = 0; i < ng + ns; i++) {
		const char *name = i < ng ? gl[i] : sl[i - ng];
		size_t j = 0;
		while (j < n && strcmp(names[j], name) != 0)
			j++;
		if (j == n) {
			names[n] = name;
			memset(&s.u[n], 0, sizeof s.u[n]);
			n++;
		}
		if (i < ng) {
			s.u[j].g = gm[i];
			s.u[j].in_g = 1;
		} else {
			s.u[j].t = sr[i - ng];
			s.u[j].in_t = 1;
		}
	}
	/* rank = position in byte order */
	const char **sorted = malloc(n * sizeof *sorted);
	if (sorted == NULL) {
		free(names);
		scratch_free(&s);
		return TAGEVAL_ENOMEM;
	}
	memcpy(sorted, names, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, by_name);
	for (size_t i = 0; i < n; i++) {
		size_t r = 0;
		while (strcmp(sorted[r], names[i]) != 0)
			r++;
		s.u[i].rank = (uint32_t)r;
	}
	int rc = TAGEVAL_OK;
	if (k < n)
		rc = TAGEVAL_EINVAL;
	else
		score_union(&s, n, k, jaccard, kendall_tau, wndcg);
	free(sorted);
	free(names);
	scratch_free(&s);
	return rc;
}

/* ------------------------------------------------------------ evaluation */

struct tageval_graded_result {
	size_t nwords;
	const char **name;
	struct tageval_graded_figures *fig;
	struct tageval_graded_figures total;
};

void tageval_graded_options_init(struct tageval_graded_options *o)
{
	memset(o, 0, sizeof *o);
	o->subset = TAGEVAL_GRADED_ALL;
}

void tageval_graded_result_free(struct tageval_graded_result *r)
{
	if (r == NULL)
		return;
	free(r->name);
	free(r->fig);
	free(r);
}

size_t tageval_graded_result_words(const struct tageval_graded_result *r)
{
	return r->nwords;
}

const char *tageval_graded_result_word(const struct tageval_graded_result *r, size_t i)
{
	return i < r->nwords ? r->name[i] : NULL;
}

const struct tageval_graded_figures *
tageval_graded_result_figures(const struct tageval_graded_result *r, size_t i)
{
	return i < r->nwords ? &r->fig[i] : NULL;
}

const struct tageval_graded_figures *
tageval_graded_result_total(const struct tageval_graded_result *r)
{
	return &r->total;
}

static int pos_match(const char *word, const char *pos)
{
	if (pos == NULL || strcmp(pos, "all") == 0)
		return 1;
	const char *dot = strrchr(word, '.');
	return dot != NULL && strcmp(dot + 1, pos) == 0;
}

/* The working state of one evaluation. */
struct eval {
	const struct tageval_graded *g;
	uint32_t *rank;      /* label id -> position of its name in byte order */
	uint32_t *cidx;      /* label id -> local cluster index, or TV_NONE */
	uint32_t *sidx;      /* label id -> local sense index, or TV_NONE */
	uint32_t *upos;      /* label id -> position in the union, or TV_NONE */
	uint32_t *clist, *slist;
	size_t ccap, scap;
	size_t nc, ns;       /* local clusters and senses of the current fold */
	/*
	 * M, sparse: the learning pairs (cluster, sense, t * g) in the order
	 * they are met (pc, ps, pv; tc, ts, tv the counting sort's other
	 * buffers), then the nonzero cells of row c at rowstart[c] ..
	 * rowstart[c + 1] (cs their senses in ascending order, cv the values).
	 */
	uint32_t *pc, *ps, *tc, *ts;
	double *pv, *tv;
	size_t pcap;
	uint32_t *cnt;       /* counting sort: max(nc, ns) + 1 */
	size_t cntcap;
	uint32_t *rowstart;  /* nc + 1 */
	size_t rowcap;
	uint32_t *cs;
	double *cv;
	size_t cellcap;
	int dense;           /* this fold's M is the dense nc x ns matrix M */
	double *M;
	size_t mcap;
	double *v;           /* ns: v(s) of a test instance */
	uint8_t *vset;       /* ns: v(s) touched */
	uint32_t *touched;   /* the touched senses */
	size_t vcap;
	struct tv_glabel *ans; /* a remapped answer */
	size_t anscap;
	struct scratch sc;
};

/* Fills e->sc.u with U of gold @gl and answer @tl; returns n.  Each label's
 * place in U is looked up in e->upos (reset before returning): linear in the
 * two lines' lengths. */
static size_t make_union(struct eval *e, const struct tv_glabel *gl, size_t ng,
			 const struct tv_glabel *tl, size_t nt)
{
	struct usense *u = e->sc.u;
	for (size_t i = 0; i < ng; i++) {
		u[i].rank = e->rank[gl[i].label];
		u[i].g = gl[i].m;
		u[i].t = 0.0;
		u[i].in_g = 1;
		u[i].in_t = 0;
		e->upos[gl[i].label] = (uint32_t)i;
	}
	size_t n = ng;
	for (size_t i = 0; i < nt; i++) {
		size_t j = e->upos[tl[i].label];
		if (j == TV_NONE) {
			j = n++;
			u[j].rank = e->rank[tl[i].label];
			u[j].g = 0.0;
			u[j].in_g = 0;
		}
		u[j].t = tl[i].m;
		u[j].in_t = 1;
	}
	for (size_t i = 0; i < ng; i++)
		e->upos[gl[i].label] = TV_NONE;
	return n;
}

static void finish(struct tageval_graded_figures *f, const struct tv_fsum sum[3])
{
	double cov = f->instances ? (double)f->answered / (double)f->instances : 0.0;
	double *mean[3] = { &f->jaccard, &f->kendall_tau, &f->wndcg };
	double *rec[3] = { &f->jaccard_recall, &f->kendall_tau_recall, &f->wndcg_recall };
	double *f1[3] = { &f->jaccard_f1, &f->kendall_tau_f1, &f->wndcg_f1 };
	f->coverage = cov;
	for (int x = 0; x < 3; x++) {
		*mean[x] = f->answered ? tv_fsum_result(&sum[x]) / (double)f->answered : 0.0;
		*rec[x] = *mean[x] * cov;
		double s = *mean[x] + *rec[x];
		*f1[x] = s > 0.0 ? 2.0 * *mean[x] * *rec[x] / s : 0.0;
	}
}

static int local_index(uint32_t *idx, uint32_t **list, size_t *n, size_t *cap, uint32_t label)
{
	if (idx[label] != TV_NONE)
		return 0;
	if (tv_grow((void **)list, cap, *n + 1, sizeof **list))
		return -1;
	idx[label] = (uint32_t)*n;
	(*list)[(*n)++] = label;
	return 0;
}

/* Stable counting sort of the pairs by @key (pc or ps, values < @range)
 * from (pc, ps, pv) into (tc, ts, tv); then swaps the two sets. */
static void sort_pairs(struct eval *e, size_t np, int by_cluster, size_t range)
{
	uint32_t *cnt = e->cnt;
	const uint32_t *key = by_cluster ? e->pc : e->ps;
	memset(cnt, 0, (range + 1) * sizeof *cnt);
	for (size_t i = 0; i < np; i++)
		cnt[key[i] + 1]++;
	for (size_t k = 0; k < range; k++)
		cnt[k + 1] += cnt[k];
	for (size_t i = 0; i < np; i++) {
		size_t to = cnt[key[i]]++;
		e->tc[to] = e->pc[i];
		e->ts[to] = e->ps[i];
		e->tv[to] = e->pv[i];
	}
	uint32_t *x = e->pc;
	e->pc = e->tc;
	e->tc = x;
	x = e->ps;
	e->ps = e->ts;
	e->ts = x;
	double *y = e->pv;
	e->pv = e->tv;
	e->tv = y;
}

/* The local indices of the clusters and senses of the learning instances
 * (those not in fold @fo), and the number of their (cluster, sense) pairs
 * into *np. */
static int learning_labels(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
			   int fo, size_t *np_out)
{
	const struct tageval_graded *g = e->g;
	size_t np = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tv_ginst *in = &g->in[items[i]];
		if (fold[i] == fo || in->sys_n == 0)
			continue;
		for (size_t a = 0; a < in->sys_n; a++)
			if (local_index(e->cidx, &e->clist, &e->nc, &e->ccap,
					g->spool[in->sys_first + a].label))
				return -1;
		for (size_t b = 0; b < in->gold_n; b++)
			if (local_index(e->sidx, &e->slist, &e->ns, &e->scap,
					g->gpool[in->gold_first + b].label))
				return -1;
		if ((size_t)in->sys_n > (UINT32_MAX - np) / in->gold_n)
			return -1;
		np += (size_t)in->sys_n * in->gold_n;
	}
	*np_out = np;
	return 0;
}

/* The dense matrix M of the learning instances, each row divided by its sum. */
static int fill_dense(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
		      int fo)
{
	const struct tageval_graded *g = e->g;
	size_t cells = e->nc * e->ns;
	if (tv_grow((void **)&e->M, &e->mcap, cells ? cells : 1, sizeof *e->M))
		return -1;
	if (cells > 0)
		memset(e->M, 0, cells * sizeof *e->M);
	for (size_t i = 0; i < n; i++) {
		const struct tv_ginst *in = &g->in[items[i]];
		if (fold[i] == fo || in->sys_n == 0)
			continue;
		for (size_t a = 0; a < in->sys_n; a++) {
			const struct tv_glabel *t = &g->spool[in->sys_first + a];
			double *row = e->M + (size_t)e->cidx[t->label] * e->ns;
			for (size_t b = 0; b < in->gold_n; b++) {
				const struct tv_glabel *gs = &g->gpool[in->gold_first + b];
				row[e->sidx[gs->label]] += t->m * gs->m;
			}
		}
	}
	for (size_t c = 0; c < e->nc; c++) {
		double *row = e->M + c * e->ns, rs = 0.0;
		for (size_t x = 0; x < e->ns; x++)
			rs += row[x];
		for (size_t x = 0; x < e->ns; x++)
			row[x] = rs > 0.0 ? row[x] / rs : 0.0;
	}
	return 0;
}

/* Room for @np pairs (both buffers of the counting sort), their counts, the
 * rows and the cells of the sparse matrix. */
static int grow_sparse(struct eval *e, size_t np)
{
	size_t cap;
	cap = e->pcap;
	if (tv_grow((void **)&e->pc, &cap, np, sizeof *e->pc))
		return -1;
	cap = e->pcap;
	if (tv_grow((void **)&e->ps, &cap, np, sizeof *e->ps))
		return -1;
	cap = e->pcap;
	if (tv_grow((void **)&e->tc, &cap, np, sizeof *e->tc))
		return -1;
	cap = e->pcap;
	if (tv_grow((void **)&e->ts, &cap, np, sizeof *e->ts))
		return -1;
	cap = e->pcap;
	if (tv_grow((void **)&e->pv, &cap, np, sizeof *e->pv))
		return -1;
	cap = e->pcap;
	if (tv_grow((void **)&e->tv, &cap, np, sizeof *e->tv))
		return -1;
	e->pcap = cap;
	size_t range = e->nc > e->ns ? e->nc : e->ns;
	cap = e->cntcap;
	if (tv_grow((void **)&e->cnt, &cap, range + 1, sizeof *e->cnt))
		return -1;
	e->cntcap = cap;
	cap = e->rowcap;
	if (tv_grow((void **)&e->rowstart, &cap, e->nc + 1, sizeof *e->rowstart))
		return -1;
	e->rowcap = cap;
	cap = e->cellcap;
	if (tv_grow((void **)&e->cs, &cap, np, sizeof *e->cs))
		return -1;
	cap = e->cellcap;
	if (tv_grow((void **)&e->cv, &cap, np, sizeof *e->cv))
		return -1;
	e->cellcap = cap;
	return 0;
}

/* The sparse matrix M of the learning instances' @np pairs (room made by
 * grow_sparse), each row divided by its sum. */
static void fill_sparse(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
			int fo, size_t np)
{
	const struct tageval_graded *g = e->g;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tv_ginst *in = &g->in[items[i]];
		if (fold[i] == fo || in->sys_n == 0)
			continue;
		for (size_t a = 0; a < in->sys_n; a++) {
			const struct tv_glabel *t = &g->spool[in->sys_first + a];
			for (size_t b = 0; b < in->gold_n; b++) {
				const struct tv_glabel *s = &g->gpool[in->gold_first + b];
				e->pc[k] = e->cidx[t->label];
				e->ps[k] = e->sidx[s->label];
				e->pv[k++] = t->m * s->m;
			}
		}
	}
	/* by (cluster, sense), the terms of a cell in the order met */
	sort_pairs(e, np, 0, e->ns);
	sort_pairs(e, np, 1, e->nc);
	size_t ncell = 0, p = 0;
	for (size_t c = 0; c < e->nc; c++) {
		e->rowstart[c] = (uint32_t)ncell;
		double rs = 0.0;
		while (p < np && e->pc[p] == c) {
			uint32_t s = e->ps[p];
			double x = e->pv[p++];
			while (p < np && e->pc[p] == c && e->ps[p] == s)
				x += e->pv[p++];
			e->cs[ncell] = s;
			e->cv[ncell++] = x;
			rs += x;
		}
		for (size_t q = e->rowstart[c]; q < ncell; q++)
			e->cv[q] = rs > 0.0 ? e->cv[q] / rs : 0.0;
	}
	e->rowstart[e->nc] = (uint32_t)ncell;
}

/*
 * The remapping matrix of one fold (5.2), sparse: M[c][s] sums its terms in
 * the order of the learning instances (the word's instances in gold order,
 * or in byte order of their ids with --seed) and, within an instance, of
 * its labels; each row is divided by its sum, the cells added in ascending
 * sense index.  These are the dense matrix's sums term for term (its zero
 * cells add nothing), without its clusters x senses cells: the cost is the
 * number of (system label, gold label) pairs of the learning instances,
 * sorted in linear time.
 */
#define DENSE_CELLS 1024

static int build_matrix(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
			int fo)
{
	size_t np = 0;
	if (learning_labels(e, items, fold, n, fo, &np))
		return -1;
	size_t cap;
	cap = e->vcap;
	if (tv_grow((void **)&e->v, &cap, e->ns, sizeof *e->v))
		return -1;
	cap = e->vcap;
	if (tv_grow((void **)&e->vset, &cap, e->ns, sizeof *e->vset))
		return -1;
	cap = e->vcap;
	if (tv_grow((void **)&e->touched, &cap, e->ns, sizeof *e->touched))
		return -1;
	e->vcap = cap;
	/*
	 * A small matrix (the usual word: a dozen clusters, a few senses) is
	 * filled densely, as the pairs alone cost about as much; the sums are
	 * the same, term for term, as the sparse matrix's.  The bound is a
	 * constant: a test instance then costs at most DENSE_CELLS per label,
	 * whatever the shape of the rows (a dense matrix of one long row and
	 * one short one would cost a long row for each instance of the short
	 * one).
	 */
	e->dense = e->ns == 0 || e->nc <= DENSE_CELLS / e->ns;
	if (e->dense)
		return fill_dense(e, items, fold, n, fo);
	if (grow_sparse(e, np))
		return -1;
	if (e->ns > 0)
		memset(e->vset, 0, e->ns);
	fill_sparse(e, items, fold, n, fo, np);
	return 0;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * The remapped answer of a test instance (5.2 step 3) into e->ans: v(s) =
 * sum over the instance's clusters c seen in learning, in the line's order,
 * of t(c) * M[c][s], over the nonzero cells only; the senses with v(s) > 0
 * in ascending local index.  Returns the number of senses, or -1.
 */
static long remap_answer(struct eval *e, const struct tv_ginst *in)
{
	const struct tageval_graded *g = e->g;
	size_t nt = 0;
	if (e->dense) {
		if (e->ns > 0)
			memset(e->v, 0, e->ns * sizeof *e->v);
		for (size_t a = 0; a < in->sys_n; a++) {
			const struct tv_glabel *t = &g->spool[in->sys_first + a];
			uint32_t c = e->cidx[t->label];
			if (c == TV_NONE)
				continue;
			const double *row = e->M + (size_t)c * e->ns;
			for (size_t x = 0; x < e->ns; x++)
				e->v[x] += t->m * row[x];
		}
		if (tv_grow((void **)&e->ans, &e->anscap, e->ns ? e->ns : 1, sizeof *e->ans))
			return -1;
		size_t nans = 0;
		for (size_t x = 0; x < e->ns; x++)
			if (e->v[x] > 0.0) {
				e->ans[nans].label = e->slist[x];
				e->ans[nans++].m = e->v[x];
			}
		return (long)nans;
	}
	for (size_t a = 0; a < in->sys_n; a++) {
		const struct tv_glabel *t = &g->spool[in->sys_first + a];
		uint32_t c = e->cidx[t->label];
		if (c == TV_NONE)
			continue;
		for (size_t q = e->rowstart[c]; q < e->rowstart[c + 1]; q++) {
			uint32_t s = e->cs[q];
			if (!e->vset[s]) {
				e->vset[s] = 1;
				e->v[s] = 0.0;
				e->touched[nt++] = s;
			}
			e->v[s] += t->m * e->cv[q];
		}
	}
	if (nt > SHORT_SORT) {
		qsort(e->touched, nt, sizeof *e->touched, by_u32);
	} else {
		for (size_t i = 1; i < nt; i++) {
			uint32_t x = e->touched[i];
			size_t j = i;
			for (; j > 0 && e->touched[j - 1] > x; j--)
				e->touched[j] = e->touched[j - 1];
			e->touched[j] = x;
		}
	}
	if (tv_grow((void **)&e->ans, &e->anscap, nt ? nt : 1, sizeof *e->ans))
		return -1;
	size_t nans = 0;
	for (size_t i = 0; i < nt; i++) {
		uint32_t s = e->touched[i];
		e->vset[s] = 0;
		if (e->v[s] > 0.0) {
			e->ans[nans].label = e->slist[s];
			e->ans[nans++].m = e->v[s];
		}
	}
	return (long)nans;
}

/*
 * One word: @items its selected gold instances in order, @fold their folds;
 * adds the answered scores to @sum (exact sums: the order of the words and
 * of the folds changes no bit of the totals) and sets @f.
 */
static int eval_word(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
		     size_t k, int no_remap, struct tageval_graded_figures *f,
		     struct tv_fsum sum[3])
{
	const struct tageval_graded *g = e->g;
	f->instances = n;
	f->senses = k;
	struct tv_fsum wsum[3];
	for (int m = 0; m < 3; m++)
		tv_fsum_init(&wsum[m]);
	int rc = 0;
	/*
	 * Each fold indexes the clusters and senses of its own learning
	 * instances, in order of first appearance: the row sums of M then add
	 * their terms in that order.  The order matters beyond the last bit
	 * where two senses of an answer get mathematically equal ratings: the
	 * tie-breaking of tau and WNDCG (by label) applies only when the two
	 * doubles are equal, so a last-bit difference reorders them.  This
	 * order is the one checked against the independent implementation on
	 * the task's data (indexing the whole word at once changed one word's
	 * WNDCG there by 2e-3).  It is the order of the gold key (or, with
	 * --seed, of the instance ids), never that of the system file.
	 */
	for (int fo = 0; fo < NFOLDS && rc == 0; fo++) {
		e->nc = e->ns = 0;
		if (!no_remap && build_matrix(e, items, fold, n, fo)) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			const struct tv_ginst *in = &g->in[items[i]];
			if (fold[i] != fo || in->sys_n == 0)
				continue;
			const struct tv_glabel *ans = g->spool + in->sys_first;
			size_t nans = in->sys_n;
			if (!no_remap) {
				long na = remap_answer(e, in);
				if (na < 0) {
					rc = -1;
					break;
				}
				nans = (size_t)na;
				ans = e->ans;
				if (nans == 0)
					continue; /* unanswered in this fold */
			}
			if (scratch_reserve(&e->sc, in->gold_n + nans)) {
				rc = -1;
				break;
			}
			size_t nu = make_union(e, g->gpool + in->gold_first, in->gold_n, ans, nans);
			double x[3];
			score_union(&e->sc, nu, k, &x[0], &x[1], &x[2]);
			for (int m = 0; m < 3; m++)
				tv_fsum_add(&wsum[m], x[m]);
			f->answered++;
		}
		for (size_t c = 0; c < e->nc; c++)
			e->cidx[e->clist[c]] = TV_NONE;
		for (size_t s = 0; s < e->ns; s++)
			e->sidx[e->slist[s]] = TV_NONE;
	}
	finish(f, wsum);
	for (int m = 0; m < 3; m++)
		tv_fsum_add_fsum(&sum[m], &wsum[m]);
	return rc;
}


static int selected(const struct tv_ginst *in, const struct tageval_graded_options *o)
{
	switch (o->subset) {
	case TAGEVAL_GRADED_SINGLE_SENSE:
		return in->gold_tokens == 1;
	case TAGEVAL_GRADED_MULTI_SENSE:
		return in->gold_tokens > 1;
	default:
		return 1;
	}
}

/* Counts the distinct labels of a line into the word's sense count. */
static int count_labels(struct eval *e, const struct tv_glabel *l, size_t n, size_t *k,
			uint32_t **seen, size_t *nseen, size_t *cap)
{
	for (size_t i = 0; i < n; i++) {
		size_t before = *nseen;
		if (local_index(e->sidx, seen, nseen, cap, l[i].label))
			return -1;
		*k += *nseen > before;
	}
	return 0;
}

struct idkey {
	const char *s;
	size_t len;
	uint32_t pos; /* in the selection */
};

static int by_id(const void *a, const void *b)
{
	const struct idkey *x = a, *y = b;
	return bytes_cmp(x->s, x->len, y->s, y->len); /* ids are distinct */
}

/*
 * --seed: puts each word's instances of @order (the selection, grouped by
 * word at @wsel) in byte order of their ids, and gives out the folds from a
 * GSL mt19937 shuffle (seed @seed) of the whole selection in byte order of
 * the ids: position k of the shuffled list is tested in fold k mod 5.
 */
static int seed_folds(const struct tageval_graded *g, uint32_t *order, const uint32_t *wsel,
		      size_t nw, size_t nsel, unsigned long seed, uint8_t *fold)
{
	struct idkey *key = malloc(nsel * sizeof *key);
	uint32_t *fill = malloc((nw ? nw : 1) * sizeof *fill);
	uint32_t *items = malloc(nsel * sizeof *items);
	uint32_t *newpos = malloc(nsel * sizeof *newpos);
	size_t *perm = malloc(nsel * sizeof *perm);
	gsl_rng *rng = tv_rng_new(seed);
	int rc = -1;
	if (key == NULL || fill == NULL || items == NULL || newpos == NULL || perm == NULL ||
	    rng == NULL)
		goto out;
	for (size_t p = 0; p < nsel; p++) {
		key[p].s = tv_intern_str(&g->ids, order[p]);
		key[p].len = tv_intern_len(&g->ids, order[p]);
		key[p].pos = (uint32_t)p;
		items[p] = order[p];
	}
	qsort(key, nsel, sizeof *key, by_id);
	memcpy(fill, wsel, nw * sizeof *fill);
	for (size_t j = 0; j < nsel; j++) {
		uint32_t item = items[key[j].pos];
		uint32_t to = fill[g->in[item].word]++;
		order[to] = item;
		newpos[j] = to;
	}
	for (size_t k = 0; k < nsel; k++)
		perm[k] = k;
	if (nsel > 1) /* n = 0 would reach GSL's error handler */
		gsl_ran_shuffle(rng, perm, nsel, sizeof *perm);
	for (size_t k = 0; k < nsel; k++)
		fold[newpos[perm[k]]] = (uint8_t)(k % NFOLDS);
	rc = 0;
out:
	free(key);
	free(fill);
	free(items);
	free(newpos);
	free(perm);
	tv_rng_free(rng);
	return rc;
}

/* Ranks every label id by the byte order of its name, into e->rank; no
 * label has a local index yet (e->cidx, e->sidx, e->upos). */
static int rank_labels(struct eval *e, const struct tageval_graded *g)
{
	size_t nl = g->labels.n;
	for (size_t i = 0; i < nl; i++)
		e->cidx[i] = e->sidx[i] = e->upos[i] = TV_NONE;
	const char **nm = malloc((nl ? nl : 1) * sizeof *nm);
	if (nm == NULL)
		return -1;
	for (size_t i = 0; i < nl; i++)
		nm[i] = tv_intern_str(&g->labels, (uint32_t)i);
	qsort(nm, nl, sizeof *nm, by_name);
	/* the interner's strings are distinct; find each one's id back */
	for (size_t i = 0; i < nl; i++) {
		uint32_t id;
		tv_intern_find(&g->labels, nm[i], strlen(nm[i]), &id);
		e->rank[id] = (uint32_t)i;
	}
	free(nm);
	return 0;
}

/*
 * The instances grouped by word (word ids follow first appearance): word
 * w's selected instances are order[wsel[w] .. wsel[w + 1]), all its gold
 * instances aorder[wall[w] .. wall[w + 1]), its extras eorder[wex[w] ..
 * wex[w + 1]).
 */
struct bywords {
	uint32_t *wsel, *wall, *wex;   /* nw + 1 each */
	uint32_t *order, *aorder, *eorder;
};

/* Fills @bw (its counts zeroed) with the instances of @g grouped by word. */
static int group_by_word(const struct tageval_graded *g, const struct tageval_graded_options *o,
			 struct bywords *bw)
{
	size_t nw = g->words.n;
	uint32_t *wsel = bw->wsel, *wall = bw->wall, *wex = bw->wex;
	int *wok = calloc(nw ? nw : 1, sizeof *wok);
	if (wok == NULL)
		return -1;
	for (size_t w = 0; w < nw; w++)
		wok[w] = pos_match(tv_intern_str(&g->words, (uint32_t)w), o->pos);
	for (size_t i = 0; i < g->n; i++) {
		const struct tv_ginst *in = &g->in[i];
		wall[in->word + 1]++;
		if (wok[in->word] && selected(in, o))
			wsel[in->word + 1]++;
	}
	for (size_t i = 0; i < g->nex; i++)
		wex[g->ex[i].word + 1]++;
	for (size_t w = 0; w < nw; w++) {
		wsel[w + 1] += wsel[w];
		wall[w + 1] += wall[w];
		wex[w + 1] += wex[w];
	}
	uint32_t *fill = malloc((nw ? nw : 1) * sizeof *fill);
	if (fill == NULL) {
		free(wok);
		return -1;
	}
	memcpy(fill, wsel, nw * sizeof *fill);
	for (size_t i = 0; i < g->n; i++)
		if (wok[g->in[i].word] && selected(&g->in[i], o))
			bw->order[fill[g->in[i].word]++] = (uint32_t)i;
	memcpy(fill, wall, nw * sizeof *fill);
	for (size_t i = 0; i < g->n; i++)
		bw->aorder[fill[g->in[i].word]++] = (uint32_t)i;
	memcpy(fill, wex, nw * sizeof *fill);
	for (size_t i = 0; i < g->nex; i++)
		bw->eorder[fill[g->ex[i].word]++] = (uint32_t)i;
	free(fill);
	free(wok);
	return 0;
}

/*
 * K of word @w, into *k: the word's distinct gold senses (and, without
 * remapping, every label the system uses under the word); @seen is the
 * scratch list of the labels met, e->sidx is left all TV_NONE.
 */
static int word_senses(struct eval *e, const struct bywords *bw, size_t w, int no_remapping,
		       size_t *k, uint32_t **seen, size_t *seencap)
{
	const struct tageval_graded *g = e->g;
	const uint32_t *items = bw->order + bw->wsel[w];
	size_t n = bw->wsel[w + 1] - bw->wsel[w];
	size_t nseen = 0;
	int crc = 0;
	for (size_t i = 0; i < n && !crc; i++) {
		const struct tv_ginst *in = &g->in[items[i]];
		crc = count_labels(e, g->gpool + in->gold_first, in->gold_n, k, seen, &nseen,
				   seencap);
	}
	if (no_remapping) {
		for (size_t i = bw->wall[w]; i < bw->wall[w + 1] && !crc; i++) {
			const struct tv_ginst *in = &g->in[bw->aorder[i]];
			if (in->sys_n == 0)
				continue; /* unanswered (g->spool may be NULL) */
			crc = count_labels(e, g->spool + in->sys_first, in->sys_n, k, seen, &nseen,
					   seencap);
		}
		for (size_t i = bw->wex[w]; i < bw->wex[w + 1] && !crc; i++) {
			const struct tv_gextra *x = &g->ex[bw->eorder[i]];
			crc = count_labels(e, g->spool + x->sys_first, x->sys_n, k, seen, &nseen,
					   seencap);
		}
	}
	for (size_t i = 0; i < nseen; i++)
		e->sidx[(*seen)[i]] = TV_NONE;
	return crc;
}

/*
 * Folds: position k of the selection is tested in fold k mod 5.  The
 * official folds (5.1) take the selection in gold-key order.  With
 * --seed the selection is first put in byte order of the instance ids
 * ("word instance"), then shuffled: the folds, and the order in which
 * each word's instances are summed into M, are then those of the ids,
 * not of the file's lines.
 */
static int make_folds(const struct tageval_graded *g, struct bywords *bw, size_t nsel,
		      const struct tageval_graded_options *o, uint8_t *fold)
{
	if (o->shuffle)
		return seed_folds(g, bw->order, bw->wsel, g->words.n, nsel, o->seed, fold);
	for (size_t k = 0; k < nsel; k++)
		fold[k] = (uint8_t)(k % NFOLDS);
	return 0;
}

/* Evaluates every word with a selected instance into r->fig (their totals
 * into r->total and @sum); @fold: the fold of each position of bw->order. */
static int eval_words(struct eval *e, const struct bywords *bw, const uint8_t *fold,
		      const struct tageval_graded_options *o, struct tageval_graded_result *r,
		      struct tv_fsum sum[3])
{
	const struct tageval_graded *g = e->g;
	size_t nw = g->words.n;
	size_t nsw = 0;
	for (size_t w = 0; w < nw; w++)
		nsw += bw->wsel[w + 1] > bw->wsel[w];
	r->name = malloc(nsw * sizeof *r->name);
	r->fig = calloc(nsw, sizeof *r->fig);
	if (r->name == NULL || r->fig == NULL)
		return -1;
	uint32_t *seen = NULL;
	size_t seencap = 0;
	int rc = 0;
	for (size_t w = 0; w < nw; w++) {
		size_t n = bw->wsel[w + 1] - bw->wsel[w];
		if (n == 0)
			continue;
		const uint32_t *items = bw->order + bw->wsel[w];
		size_t k = 0;
		int crc = word_senses(e, bw, w, o->no_remapping, &k, &seen, &seencap);
		struct tageval_graded_figures *f = &r->fig[r->nwords];
		r->name[r->nwords++] = tv_intern_str(&g->words, (uint32_t)w);
		if (crc || eval_word(e, items, fold + bw->wsel[w], n, k, o->no_remapping, f, sum)) {
			rc = -1;
			break;
		}
		r->total.instances += f->instances;
		r->total.answered += f->answered;
	}
	free(seen);
	return rc;
}

/* Frees the scratch of an evaluation. */
static void eval_free(struct eval *e)
{
	free(e->rank);
	free(e->cidx);
	free(e->sidx);
	free(e->clist);
	free(e->slist);
	free(e->upos);
	free(e->M);
	free(e->pc);
	free(e->ps);
	free(e->tc);
	free(e->ts);
	free(e->pv);
	free(e->tv);
	free(e->cnt);
	free(e->rowstart);
	free(e->cs);
	free(e->cv);
	free(e->v);
	free(e->vset);
	free(e->touched);
	free(e->ans);
	scratch_free(&e->sc);
}

int tageval_graded_evaluate(const struct tageval_graded *g,
			    const struct tageval_graded_options *opts,
			    struct tageval_graded_result **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, g, "graded");
	if (!g->have_gold || !g->have_system)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"read the gold key and the system first");
	struct tageval_graded_options o;
	if (opts)
		o = *opts;
	else
		tageval_graded_options_init(&o);
	size_t nw = g->words.n, nl = g->labels.n;
	struct eval e = { .g = g };
	struct tageval_graded_result *r = calloc(1, sizeof *r);
	struct bywords bw;
	bw.wsel = calloc(nw + 1, sizeof *bw.wsel);   /* selected instances per word */
	bw.wall = calloc(nw + 1, sizeof *bw.wall);   /* all gold instances per word */
	bw.wex = calloc(nw + 1, sizeof *bw.wex);     /* extras per word */
	bw.order = malloc((g->n ? g->n : 1) * sizeof *bw.order);
	bw.aorder = malloc((g->n ? g->n : 1) * sizeof *bw.aorder);
	bw.eorder = malloc((g->nex ? g->nex : 1) * sizeof *bw.eorder);
	uint8_t *fold = malloc(g->n ? g->n : 1);
	e.rank = malloc((nl ? nl : 1) * sizeof *e.rank);
	e.cidx = malloc((nl ? nl : 1) * sizeof *e.cidx);
	e.sidx = malloc((nl ? nl : 1) * sizeof *e.sidx);
	e.upos = malloc((nl ? nl : 1) * sizeof *e.upos);
	int rc = TAGEVAL_OK;
	if (!r || !bw.wsel || !bw.wall || !bw.wex || !bw.order || !bw.aorder || !bw.eorder ||
	    !fold || !e.rank || !e.cidx || !e.sidx || !e.upos) {
		rc = tv_nomem(err);
		goto out;
	}
	/* label ranks in byte order of the names */
	if (rank_labels(&e, g)) {
		rc = tv_nomem(err);
		goto out;
	}
	/* group the instances by word (word ids follow first appearance) */
	if (group_by_word(g, &o, &bw)) {
		rc = tv_nomem(err);
		goto out;
	}
	size_t nsel = bw.wsel[nw];
	if (nsel == 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0, "no target word selected");
		goto out;
	}
	if (make_folds(g, &bw, nsel, &o, fold)) {
		rc = tv_nomem(err);
		goto out;
	}
	struct tv_fsum sum[3];
	for (int m = 0; m < 3; m++)
		tv_fsum_init(&sum[m]);
	if (eval_words(&e, &bw, fold, &o, r, sum)) {
		rc = tv_nomem(err);
		goto out;
	}
	finish(&r->total, sum);
out:
	free(bw.wsel);
	free(bw.wall);
	free(bw.wex);
	free(bw.order);
	free(bw.aorder);
	free(bw.eorder);
	free(fold);
	eval_free(&e);
	if (rc != TAGEVAL_OK) {
		tageval_graded_result_free(r);
		return rc;
	}
	*out = r;
	return TAGEVAL_OK;
}
