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

#include "tageval-private.h"

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
	int have_gold, have_system;
	/* scratch of a line's labels */
	double *w;
	const char **tok;
	uint32_t *lab;
	size_t linecap;
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

/* ------------------------------------------------------------ reading */

static int line_error(const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "missing instance id");
	char q[80];
	tv_quote(q, sizeof q, l->field[1], strlen(l->field[1]));
	return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "instance \"%s\" has no label", q);
}

/* A weight of 1 to 15 digits, the common case ("/4", "/96"): its value is
 * an integer below 2^53, so the double is exact, as strtod would give it. */
static int fast_integer(const char *s, double *out)
{
	uint64_t v = 0;
	size_t i = 0;
	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		if (i == 15)
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0 || s[i] != '\0')
		return 0;
	*out = (double)v;
	return 1;
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
	int all_weighted = 1, repeated = 0;
	double max = 0.0;
	for (size_t i = 0; i < nlab; i++) {
		const char *tok = l->field[i + 2];
		const char *slash = strchr(tok, '/');
		size_t len = slash ? (size_t)(slash - tok) : strlen(tok);
		double w = 1.0;
		if (slash != NULL && len > 0 && fast_integer(slash + 1, &w))
			; /* digits only: read without strtod */
		else if (slash != NULL && (len == 0 || tv_parse_weight(slash + 1, &w) != 0)) {
			tv_quote(q, sizeof q, tok, strlen(tok));
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"invalid weight \"%s\" (a number >= 0)", q);
		}
		if (slash == NULL)
			all_weighted = 0;
		else if (w > max)
			max = w;
		/* a label named twice in the line (the lines are short: compare) */
		size_t j = 0;
		while (j < n && !(strcspn(g->tok[j], "/") == len && memcmp(g->tok[j], tok, len) == 0))
			j++;
		if (j < n) {
			repeated = 1;
			g->w[j] = w; /* the last rating (irrelevant: all become 1) */
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

static int read_lines(struct tageval_graded *g, struct tv_reader *r, int gold,
		      struct tageval_error *err)
{
	/* the ids are hashed with the key of g->ids (each table has its own) */
	struct tv_batch b = { .ids = &g->ids };
	int rc;
	size_t lines = 0;
	do {
		rc = tv_reader_batch(r, &b, err);
		for (size_t k = 0; k < b.n; k++) {
			if (b.line[k].idlen > 0)
				tv_intern_prefetch(&g->ids, b.line[k].hash);
		}
		for (size_t k = 0; k < b.n; k++) {
			int lrc = gold ? gold_line(g, &b.line[k], err)
				       : system_line(g, &b.line[k], err);
			if (lrc) {
				rc = lrc;
				break;
			}
			lines++;
		}
	} while (rc == TAGEVAL_OK && b.n > 0);
	tv_batch_clear(&b);
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
		tv_reader_close(r);
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				gold ? "the gold key was already read"
				     : "read the gold key once, then the system once");
	}
	int rc = read_lines(g, r, gold, err);
	tv_reader_close(r);
	if (gold)
		g->have_gold = 1;
	else
		g->have_system = 1;
	return rc;
}

int tageval_graded_read_gold(struct tageval_graded *g, const char *path,
			     struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open(&r, path, err);
	return rc ? rc : read_file(g, &r, 1, err);
}

int tageval_graded_read_gold_buffer(struct tageval_graded *g, const char *data, size_t size,
				    const char *name, struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open_buffer(&r, data, size, name, err);
	return rc ? rc : read_file(g, &r, 1, err);
}

int tageval_graded_read_system(struct tageval_graded *g, const char *path,
			       struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open(&r, path, err);
	return rc ? rc : read_file(g, &r, 0, err);
}

int tageval_graded_read_system_buffer(struct tageval_graded *g, const char *data, size_t size,
				      const char *name, struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open_buffer(&r, data, size, name, err);
	return rc ? rc : read_file(g, &r, 0, err);
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
	size_t cap;
	double disc[DISCOUNTS]; /* log2(m + 2) */
};

static int scratch_reserve(struct scratch *s, size_t n)
{
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
}

static double cost(const double *P, size_t i, size_t r)
{
	if (i == r)
		return 1.0;
	return (P[i] - P[r]) / ((double)i - (double)r);
}

/* Insertion sorts: the lists are a few senses long, where qsort's set-up
 * costs more than the sorting. */
static void sort_union(struct usense *u, size_t n)
{
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
		for (size_t i = 0; i < n; i++) {
			for (size_t j = i + 1; j < n; j++) {
				if (u[i].sys_pos > u[j].sys_pos)
					d += ca[i] * ca[j];
				dmax += cr[i] * cr[j];
			}
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
	uint32_t *clist, *slist;
	size_t ccap, scap;
	size_t nc, ns;       /* local clusters and senses of the current fold */
	double *M;           /* nc x ns */
	size_t mcap;
	double *v;           /* ns */
	size_t vcap;
	struct tv_glabel *ans; /* a remapped answer */
	size_t anscap;
	struct scratch sc;
};

/* Fills e->sc.u with U of gold @gl and answer @tl; returns n. */
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
	}
	size_t n = ng;
	for (size_t i = 0; i < nt; i++) {
		uint32_t r = e->rank[tl[i].label];
		size_t j = 0;
		while (j < ng && u[j].rank != r)
			j++;
		if (j == ng) {
			j = n++;
			u[j].rank = r;
			u[j].g = 0.0;
			u[j].in_g = 0;
		}
		u[j].t = tl[i].m;
		u[j].in_t = 1;
	}
	return n;
}

static void finish(struct tageval_graded_figures *f, const double sum[3])
{
	double cov = f->instances ? (double)f->answered / (double)f->instances : 0.0;
	double *mean[3] = { &f->jaccard, &f->kendall_tau, &f->wndcg };
	double *rec[3] = { &f->jaccard_recall, &f->kendall_tau_recall, &f->wndcg_recall };
	double *f1[3] = { &f->jaccard_f1, &f->kendall_tau_f1, &f->wndcg_f1 };
	f->coverage = cov;
	for (int x = 0; x < 3; x++) {
		*mean[x] = f->answered ? sum[x] / (double)f->answered : 0.0;
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

/*
 * One word: @items its selected gold instances in order, @fold their folds;
 * adds the answered scores to @sum and sets @f.
 */
static int eval_word(struct eval *e, const uint32_t *items, const uint8_t *fold, size_t n,
		     size_t k, int no_remap, struct tageval_graded_figures *f, double sum[3])
{
	const struct tageval_graded *g = e->g;
	f->instances = n;
	f->senses = k;
	double wsum[3] = { 0.0, 0.0, 0.0 };
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
	 * WNDCG there by 2e-3).
	 */
	for (int fo = 0; fo < NFOLDS && rc == 0; fo++) {
		e->nc = e->ns = 0;
		if (!no_remap) {
			for (size_t i = 0; i < n && rc == 0; i++) {
				const struct tv_ginst *in = &g->in[items[i]];
				if (fold[i] == fo || in->sys_n == 0)
					continue;
				for (size_t a = 0; a < in->sys_n && rc == 0; a++)
					rc = local_index(e->cidx, &e->clist, &e->nc, &e->ccap,
							 g->spool[in->sys_first + a].label);
				for (size_t b = 0; b < in->gold_n && rc == 0; b++)
					rc = local_index(e->sidx, &e->slist, &e->ns, &e->scap,
							 g->gpool[in->gold_first + b].label);
			}
			if (rc)
				break;
			if (e->ns && e->nc > SIZE_MAX / sizeof(double) / e->ns) {
				rc = -1;
				break;
			}
			size_t cells = e->nc * e->ns;
			if (tv_grow((void **)&e->M, &e->mcap, cells, sizeof *e->M) ||
			    tv_grow((void **)&e->v, &e->vcap, e->ns, sizeof *e->v)) {
				rc = -1;
				break;
			}
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
						const struct tv_glabel *s =
							&g->gpool[in->gold_first + b];
						row[e->sidx[s->label]] += t->m * s->m;
					}
				}
			}
			for (size_t c = 0; c < e->nc; c++) {
				double *row = e->M + c * e->ns, rs = 0.0;
				for (size_t s = 0; s < e->ns; s++)
					rs += row[s];
				for (size_t s = 0; s < e->ns; s++)
					row[s] = rs > 0.0 ? row[s] / rs : 0.0;
			}
		}
		for (size_t i = 0; i < n; i++) {
			const struct tv_ginst *in = &g->in[items[i]];
			if (fold[i] != fo || in->sys_n == 0)
				continue;
			const struct tv_glabel *ans = g->spool + in->sys_first;
			size_t nans = in->sys_n;
			if (!no_remap) {
				if (e->ns > 0)
					memset(e->v, 0, e->ns * sizeof *e->v);
				for (size_t a = 0; a < in->sys_n; a++) {
					const struct tv_glabel *t = &g->spool[in->sys_first + a];
					uint32_t c = e->cidx[t->label];
					if (c == TV_NONE)
						continue;
					const double *row = e->M + (size_t)c * e->ns;
					for (size_t s = 0; s < e->ns; s++)
						e->v[s] += t->m * row[s];
				}
				if (tv_grow((void **)&e->ans, &e->anscap, e->ns, sizeof *e->ans)) {
					rc = -1;
					break;
				}
				nans = 0;
				for (size_t s = 0; s < e->ns; s++)
					if (e->v[s] > 0.0) {
						e->ans[nans].label = e->slist[s];
						e->ans[nans++].m = e->v[s];
					}
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
			for (int m = 0; m < 3; m++) {
				wsum[m] += x[m];
				sum[m] += x[m];
			}
			f->answered++;
		}
		for (size_t c = 0; c < e->nc; c++)
			e->cidx[e->clist[c]] = TV_NONE;
		for (size_t s = 0; s < e->ns; s++)
			e->sidx[e->slist[s]] = TV_NONE;
	}
	finish(f, wsum);
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

int tageval_graded_evaluate(const struct tageval_graded *g,
			    const struct tageval_graded_options *opts,
			    struct tageval_graded_result **out, struct tageval_error *err)
{
	*out = NULL;
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
	uint32_t *wsel = calloc(nw + 1, sizeof *wsel);   /* selected instances per word */
	uint32_t *wall = calloc(nw + 1, sizeof *wall);   /* all gold instances per word */
	uint32_t *wex = calloc(nw + 1, sizeof *wex);     /* extras per word */
	uint32_t *order = malloc((g->n ? g->n : 1) * sizeof *order);
	uint32_t *aorder = malloc((g->n ? g->n : 1) * sizeof *aorder);
	uint32_t *eorder = malloc((g->nex ? g->nex : 1) * sizeof *eorder);
	uint8_t *fold = malloc(g->n ? g->n : 1);
	e.rank = malloc((nl ? nl : 1) * sizeof *e.rank);
	e.cidx = malloc((nl ? nl : 1) * sizeof *e.cidx);
	e.sidx = malloc((nl ? nl : 1) * sizeof *e.sidx);
	uint32_t *seen = NULL;
	size_t seencap = 0;
	int rc = TAGEVAL_OK;
	if (!r || !wsel || !wall || !wex || !order || !aorder || !eorder || !fold ||
	    !e.rank || !e.cidx || !e.sidx) {
		rc = tv_nomem(err);
		goto out;
	}
	/* label ranks in byte order of the names */
	for (size_t i = 0; i < nl; i++)
		e.cidx[i] = e.sidx[i] = TV_NONE;
	{
		const char **nm = malloc((nl ? nl : 1) * sizeof *nm);
		if (nm == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
		for (size_t i = 0; i < nl; i++)
			nm[i] = tv_intern_str(&g->labels, (uint32_t)i);
		qsort(nm, nl, sizeof *nm, by_name);
		/* the interner's strings are distinct; find each one's id back */
		for (size_t i = 0; i < nl; i++) {
			uint32_t id;
			tv_intern_find(&g->labels, nm[i], strlen(nm[i]), &id);
			e.rank[id] = (uint32_t)i;
		}
		free(nm);
	}
	/* group the instances by word (word ids follow first appearance) */
	int *wok = calloc(nw ? nw : 1, sizeof *wok);
	if (wok == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	for (size_t w = 0; w < nw; w++)
		wok[w] = pos_match(tv_intern_str(&g->words, (uint32_t)w), o.pos);
	for (size_t i = 0; i < g->n; i++) {
		const struct tv_ginst *in = &g->in[i];
		wall[in->word + 1]++;
		if (wok[in->word] && selected(in, &o))
			wsel[in->word + 1]++;
	}
	for (size_t i = 0; i < g->nex; i++)
		wex[g->ex[i].word + 1]++;
	for (size_t w = 0; w < nw; w++) {
		wsel[w + 1] += wsel[w];
		wall[w + 1] += wall[w];
		wex[w + 1] += wex[w];
	}
	size_t nsel = wsel[nw];
	{
		uint32_t *fill = malloc((nw ? nw : 1) * sizeof *fill);
		if (fill == NULL) {
			free(wok);
			rc = tv_nomem(err);
			goto out;
		}
		memcpy(fill, wsel, nw * sizeof *fill);
		for (size_t i = 0; i < g->n; i++)
			if (wok[g->in[i].word] && selected(&g->in[i], &o))
				order[fill[g->in[i].word]++] = (uint32_t)i;
		memcpy(fill, wall, nw * sizeof *fill);
		for (size_t i = 0; i < g->n; i++)
			aorder[fill[g->in[i].word]++] = (uint32_t)i;
		memcpy(fill, wex, nw * sizeof *fill);
		for (size_t i = 0; i < g->nex; i++)
			eorder[fill[g->ex[i].word]++] = (uint32_t)i;
		free(fill);
	}
	free(wok);
	if (nsel == 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0, "no target word selected");
		goto out;
	}
	/* folds: position k of the (shuffled) selection is tested in fold k mod 5 */
	if (o.shuffle) {
		size_t *perm = malloc(nsel * sizeof *perm);
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (perm == NULL || rng == NULL) {
			free(perm);
			gsl_rng_free(rng);
			rc = tv_nomem(err);
			goto out;
		}
		gsl_rng_set(rng, o.seed);
		for (size_t k = 0; k < nsel; k++)
			perm[k] = k;
		gsl_ran_shuffle(rng, perm, nsel, sizeof *perm);
		for (size_t k = 0; k < nsel; k++)
			fold[perm[k]] = (uint8_t)(k % NFOLDS);
		free(perm);
		gsl_rng_free(rng);
	} else {
		for (size_t k = 0; k < nsel; k++)
			fold[k] = (uint8_t)(k % NFOLDS);
	}
	size_t nsw = 0;
	for (size_t w = 0; w < nw; w++)
		nsw += wsel[w + 1] > wsel[w];
	r->name = malloc(nsw * sizeof *r->name);
	r->fig = calloc(nsw, sizeof *r->fig);
	if (r->name == NULL || r->fig == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	double sum[3] = { 0.0, 0.0, 0.0 };
	for (size_t w = 0; w < nw; w++) {
		size_t n = wsel[w + 1] - wsel[w];
		if (n == 0)
			continue;
		const uint32_t *items = order + wsel[w];
		/* K: the word's distinct gold senses (and, without remapping,
		 * every label the system uses under the word) */
		size_t k = 0, nseen = 0;
		int crc = 0;
		for (size_t i = 0; i < n && !crc; i++) {
			const struct tv_ginst *in = &g->in[items[i]];
			crc = count_labels(&e, g->gpool + in->gold_first, in->gold_n, &k, &seen,
					   &nseen, &seencap);
		}
		if (o.no_remapping) {
			for (size_t i = wall[w]; i < wall[w + 1] && !crc; i++) {
				const struct tv_ginst *in = &g->in[aorder[i]];
				crc = count_labels(&e, g->spool + in->sys_first, in->sys_n, &k,
						   &seen, &nseen, &seencap);
			}
			for (size_t i = wex[w]; i < wex[w + 1] && !crc; i++) {
				const struct tv_gextra *x = &g->ex[eorder[i]];
				crc = count_labels(&e, g->spool + x->sys_first, x->sys_n, &k,
						   &seen, &nseen, &seencap);
			}
		}
		for (size_t i = 0; i < nseen; i++)
			e.sidx[seen[i]] = TV_NONE;
		struct tageval_graded_figures *f = &r->fig[r->nwords];
		r->name[r->nwords++] = tv_intern_str(&g->words, (uint32_t)w);
		if (crc || eval_word(&e, items, fold + wsel[w], n, k, o.no_remapping, f, sum)) {
			rc = tv_nomem(err);
			goto out;
		}
		r->total.instances += f->instances;
		r->total.answered += f->answered;
	}
	finish(&r->total, sum);
out:
	free(wsel);
	free(wall);
	free(wex);
	free(order);
	free(aorder);
	free(eorder);
	free(fold);
	free(seen);
	free(e.rank);
	free(e.cidx);
	free(e.sidx);
	free(e.clist);
	free(e.slist);
	free(e.M);
	free(e.v);
	free(e.ans);
	scratch_free(&e.sc);
	if (rc != TAGEVAL_OK) {
		tageval_graded_result_free(r);
		return rc;
	}
	*out = r;
	return TAGEVAL_OK;
}
