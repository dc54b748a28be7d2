/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lexelts of a report: their items, part of speech, senses (for the
 * random baselines and the polysemy), sense entropies and commonest
 * training tags.  See tageval.h, "results report", for the definitions.
 */
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-key.h"
#include "tageval-report.h"
#include "tageval-util.h"

/* The part of speech a lexelt's name ends with: -n .n -v .v -a .a -p. */
static char pos_of(const char *name)
{
	size_t n = strlen(name);
	if (n < 3)
		return 0;
	char sep = name[n - 2], c = name[n - 1];
	if (sep == '-' && (c == 'n' || c == 'v' || c == 'a' || c == 'p'))
		return c;
	if (sep == '.' && (c == 'n' || c == 'v' || c == 'a'))
		return c;
	return 0;
}

/* "U" (unassignable) and "P" (proper name) are not senses of the word. */
static int non_sense(const struct tageval_inventory *inv, uint32_t tag)
{
	const char *s = tv_inventory_name(inv, tag);
	return (s[0] == 'U' || s[0] == 'P') && s[1] == '\0';
}

/* Scratch space sized to the inventory's tags. */
struct scratch {
	uint32_t *slot;    /* tag -> 1 + its place in touched, 0 = no weight */
	struct tv_fsum *acc; /* the weights of the touched tags, exact (any order of the instances gives the same bits) */
	size_t acccap;
	int oom;
	uint32_t *stamp;   /* tag -> generation */
	uint32_t gen;
	uint32_t *touched; /* tags with a weight */
	size_t ntouched;
	uint32_t *stack;
	size_t stackcap;
	size_t ntags;
};

/* Adds @v to the weight of tag @t. */
static void acc_add(struct scratch *s, uint32_t t, double v)
{
	if (s->slot[t] == 0) {
		if (tv_grow((void **)&s->acc, &s->acccap, s->ntouched + 1, sizeof *s->acc)) {
			s->oom = 1;
			return;
		}
		tv_fsum_init(&s->acc[s->ntouched]);
		s->touched[s->ntouched++] = t;
		s->slot[t] = (uint32_t)s->ntouched;
	}
	tv_fsum_add(&s->acc[s->slot[t] - 1], v);
}

/* The weights of the touched tags into @buf (in the order of touched); clears them. */
static void acc_take(struct scratch *s, double *buf)
{
	for (size_t k = 0; k < s->ntouched; k++) {
		buf[k] = tv_fsum_result(&s->acc[k]);
		s->slot[s->touched[k]] = 0;
	}
}

static void next_gen(struct scratch *s)
{
	if (++s->gen == 0) {
		memset(s->stamp, 0, s->ntags * sizeof *s->stamp);
		s->gen = 1;
	}
}

/* Instances grouped by lexelt (counting sort): off[nlex + 1], idx[ninst]. */
struct groups {
	uint32_t *off;
	uint32_t *idx;
};

static int group(const uint32_t *lexof, size_t ninst, size_t nlex, struct groups *g)
{
	g->off = malloc((nlex + 1) * sizeof *g->off);
	g->idx = malloc((ninst ? ninst : 1) * sizeof *g->idx);
	if (!g->off || !g->idx)
		return TAGEVAL_ENOMEM;
	tv_group_by(lexof, sizeof *lexof, ninst, nlex, g->off, g->idx);
	return TAGEVAL_OK;
}

/* Tag @j of instance @in of @key, mapped to its top-level tag when @coarse. */
static uint32_t tag_at(const struct tageval_inventory *inv, const struct tageval_key *key,
		       const struct tv_instance *in, uint32_t j, int coarse)
{
	uint32_t t = key->tags[in->tags + j];
	return coarse ? tv_coarse(inv, t) : t;
}

/*
 * The number of distinct tags of instance @i of @key (coarse: distinct
 * top-level tags); with @accumulate, adds weight 1 shared evenly by them to
 * s->acc.
 */
static size_t add_instance(const struct tageval_inventory *inv, const struct tageval_key *key,
			   uint32_t i, int coarse, struct scratch *s, int accumulate)
{
	const struct tv_instance *in = &key->inst[i];
	size_t d = 0;
	next_gen(s);
	for (uint32_t j = 0; j < in->ntags; j++) {
		uint32_t t = tag_at(inv, key, in, j, coarse);
		if (s->stamp[t] != s->gen) {
			s->stamp[t] = s->gen;
			d++;
		}
	}
	if (!accumulate)
		return d;
	next_gen(s);
	for (uint32_t j = 0; j < in->ntags; j++) {
		uint32_t t = tag_at(inv, key, in, j, coarse);
		if (s->stamp[t] == s->gen)
			continue;
		s->stamp[t] = s->gen;
		acc_add(s, t, 1.0 / (double)d);
	}
	return d;
}

static int by_weight(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * Entropy of the touched weights; clears them.  The weights are summed in
 * sorted order, not in the order the tags were met: two lexelts with the
 * same distribution then get the same bits, so that a tie with the median
 * entropy is a tie (high), not one unit in the last place below it.
 */
static double take_entropy(struct scratch *s, double *buf)
{
	acc_take(s, buf);
	qsort(buf, s->ntouched, sizeof *buf, by_weight);
	double h = tageval_entropy(buf, s->ntouched);
	s->ntouched = 0;
	return h;
}

/* Adds every tag of the tree of @root not yet stamped to @out. */
static int add_tree(const struct tageval_inventory *inv, uint32_t root, struct scratch *s,
		    uint32_t **out, size_t *n, size_t *cap)
{
	size_t top = 0;
	if (tv_grow((void **)&s->stack, &s->stackcap, 1, sizeof *s->stack))
		return TAGEVAL_ENOMEM;
	s->stack[top++] = root;
	s->stamp[root] = s->gen;
	while (top > 0) {
		uint32_t t = s->stack[--top];
		if (!non_sense(inv, t)) {
			if (tv_grow((void **)out, cap, *n + 1, sizeof **out))
				return TAGEVAL_ENOMEM;
			(*out)[(*n)++] = t;
		}
		if (t >= inv->nnode)
			continue;
		const struct tv_vec *c = &inv->node[t].children;
		for (size_t k = 0; k < c->n; k++) {
			uint32_t ch = c->v[k];
			if (s->stamp[ch] == s->gen)
				continue;
			s->stamp[ch] = s->gen;
			if (tv_grow((void **)&s->stack, &s->stackcap, top + 1, sizeof *s->stack))
				return TAGEVAL_ENOMEM;
			s->stack[top++] = ch;
		}
	}
	return TAGEVAL_OK;
}

/* Senses, main senses, entropies and commonest tags of lexelt @l. */
static int analyse(struct tageval_report *r, size_t l, const struct groups *test,
		   const struct groups *train, struct scratch *s, double *buf)
{
	const struct tageval_inventory *inv = r->inv;
	struct tv_lexelt *lx = &r->lex[l];
	/* fine tag weights over the test and training instances */
	for (int coarse = 0; coarse <= 1; coarse++) {
		for (uint32_t k = test->off[l]; k < test->off[l + 1]; k++)
			add_instance(inv, r->key, test->idx[k], coarse, s, 1);
		if (train)
			for (uint32_t k = train->off[l]; k < train->off[l + 1]; k++)
				add_instance(inv, r->train, train->idx[k], coarse, s, 1);
		if (s->oom)
			return TAGEVAL_ENOMEM;
		if (!coarse) {
			/* the tags seen: their trees are the lexelt's senses */
			size_t cap = 0, mcap = 0;
			next_gen(s);
			for (size_t k = 0; k < s->ntouched; k++) {
				uint32_t t = s->touched[k];
				if (non_sense(inv, t))
					continue;
				uint32_t root = tv_coarse(inv, t);
				if (s->stamp[root] == s->gen)
					continue;
				if (tv_grow((void **)&lx->main, &mcap, lx->nmain + 1,
					    sizeof *lx->main))
					return TAGEVAL_ENOMEM;
				lx->main[lx->nmain++] = root;
				if (add_tree(inv, root, s, &lx->senses, &lx->nsenses, &cap))
					return TAGEVAL_ENOMEM;
			}
			lx->pub.fine_entropy = take_entropy(s, buf);
		} else {
			lx->pub.coarse_entropy = take_entropy(s, buf);
		}
	}
	lx->pub.polysemy = lx->nsenses;
	if (train == NULL)
		return TAGEVAL_OK;
	/* commonest: counts of the training instances with one distinct tag */
	size_t ncommon_cap = 0;
	for (uint32_t k = train->off[l]; k < train->off[l + 1]; k++) {
		const struct tv_instance *in = &r->train->inst[train->idx[k]];
		if (add_instance(inv, r->train, train->idx[k], 0, s, 0) != 1)
			continue;
		uint32_t t = r->train->tags[in->tags];
		acc_add(s, t, 1.0);
	}
	if (s->oom)
		return TAGEVAL_ENOMEM;
	acc_take(s, buf);
	double best = 0.0;
	for (size_t k = 0; k < s->ntouched; k++)
		if (buf[k] > best)
			best = buf[k];
	for (size_t k = 0; k < s->ntouched; k++) {
		uint32_t t = s->touched[k];
		if (buf[k] == best) {
			if (tv_grow((void **)&lx->common, &ncommon_cap, lx->ncommon + 1,
				    sizeof *lx->common))
				return TAGEVAL_ENOMEM;
			lx->common[lx->ncommon++] = t;
		}
	}
	s->ntouched = 0;
	lx->pub.commonest = lx->ncommon;
	return TAGEVAL_OK;
}

struct named {
	const char *name;
	uint32_t id;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

/* The lexelt of each instance of @key, as an index into @names (TV_NONE if absent). */
static int lexelts_of(const struct tageval_key *key, struct tv_intern *names, int add,
		      uint32_t *out)
{
	for (size_t i = 0; i < key->ninst; i++) {
		const char *id = tv_intern_str(&key->ids, (uint32_t)i);
		size_t len = key->inst[i].lexelt_len;
		uint32_t l;
		if (add) {
			if (tv_intern_put(names, id, len, &l, NULL))
				return TAGEVAL_ENOMEM;
		} else if (!tv_intern_find(names, id, len, &l)) {
			l = TV_NONE;
		}
		out[i] = l;
	}
	return TAGEVAL_OK;
}

static int build(struct tageval_report *r, struct tv_intern *names, uint32_t **trainlex,
		 struct groups *gt, struct groups *gtr, struct scratch *s, double **buf)
{
	const struct tageval_key *key = r->key;
	size_t ninst = key->ninst;
	r->inst_lexelt = malloc((ninst ? ninst : 1) * sizeof *r->inst_lexelt);
	r->single = calloc(ninst ? ninst : 1, 1);
	if (!r->inst_lexelt || !r->single ||
	    lexelts_of(key, names, 1, r->inst_lexelt))
		return TAGEVAL_ENOMEM;
	size_t nlex = names->n;
	/* bytewise order of the names: rank[local id] */
	struct named *order = malloc((nlex ? nlex : 1) * sizeof *order);
	uint32_t *rank = malloc((nlex ? nlex : 1) * sizeof *rank);
	r->lex = calloc(nlex ? nlex : 1, sizeof *r->lex);
	if (!order || !rank || !r->lex) {
		free(order);
		free(rank);
		return TAGEVAL_ENOMEM;
	}
	for (size_t l = 0; l < nlex; l++)
		order[l] = (struct named){ tv_intern_str(names, (uint32_t)l), (uint32_t)l };
	qsort(order, nlex, sizeof *order, by_name);
	for (size_t k = 0; k < nlex; k++)
		rank[order[k].id] = (uint32_t)k;
	int rc = TAGEVAL_OK;
	r->nlex = nlex;
	for (size_t k = 0; k < nlex && rc == TAGEVAL_OK; k++) {
		r->lex[k].name = strdup(order[k].name);
		if (r->lex[k].name == NULL)
			rc = TAGEVAL_ENOMEM;
		else {
			r->lex[k].pub.name = r->lex[k].name;
			r->lex[k].pub.pos = pos_of(r->lex[k].name);
		}
	}
	for (size_t i = 0; i < ninst; i++) {
		r->inst_lexelt[i] = rank[r->inst_lexelt[i]];
		r->lex[r->inst_lexelt[i]].pub.items++;
	}
	if (rc == TAGEVAL_OK && r->train) {
		size_t nt = r->train->ninst;
		*trainlex = malloc((nt ? nt : 1) * sizeof **trainlex);
		if (*trainlex == NULL || lexelts_of(r->train, names, 0, *trainlex))
			rc = TAGEVAL_ENOMEM;
		for (size_t i = 0; rc == TAGEVAL_OK && i < nt; i++)
			if ((*trainlex)[i] != TV_NONE) {
				(*trainlex)[i] = rank[(*trainlex)[i]];
				r->lex[(*trainlex)[i]].pub.train_items++;
			}
	}
	free(order);
	free(rank);
	if (rc)
		return rc;
	if (group(r->inst_lexelt, ninst, nlex, gt) ||
	    (r->train && group(*trainlex, r->train->ninst, nlex, gtr)))
		return TAGEVAL_ENOMEM;
	/* scratch sized to the tags of both keys */
	s->ntags = r->inv->tags.n;
	s->slot = calloc(s->ntags ? s->ntags : 1, sizeof *s->slot);
	s->stamp = calloc(s->ntags ? s->ntags : 1, sizeof *s->stamp);
	s->touched = malloc((s->ntags ? s->ntags : 1) * sizeof *s->touched);
	*buf = malloc((s->ntags ? s->ntags : 1) * sizeof **buf);
	if (!s->slot || !s->stamp || !s->touched || !*buf)
		return TAGEVAL_ENOMEM;
	for (size_t l = 0; l < nlex; l++)
		if ((rc = analyse(r, l, gt, r->train ? gtr : NULL, s, *buf)))
			return rc;
	/* minimal scoring: instances with one key tag, per granularity */
	for (size_t i = 0; i < ninst; i++)
		for (size_t g = 0; g < r->ngran; g++) {
			int coarse = r->gran[g] == TAGEVAL_COARSE;
			size_t n = coarse ? add_instance(r->inv, key, (uint32_t)i, 1, s, 0)
					  : key->inst[i].ntags;
			if (n == 1)
				r->single[i] |= (uint8_t)(1u << g);
		}
	return TAGEVAL_OK;
}

int tv_report_lexelts(struct tageval_report *r, struct tageval_error *err)
{
	struct tv_intern names;
	tv_intern_init(&names);
	uint32_t *trainlex = NULL;
	struct groups gt = { 0 }, gtr = { 0 };
	struct scratch s = { 0 };
	double *buf = NULL;
	int rc = build(r, &names, &trainlex, &gt, &gtr, &s, &buf);
	tv_intern_clear(&names);
	free(trainlex);
	free(gt.off);
	free(gt.idx);
	free(gtr.off);
	free(gtr.idx);
	free(s.slot);
	free(s.acc);
	free(s.stamp);
	free(s.touched);
	free(s.stack);
	free(buf);
	return rc ? tv_nomem(err) : TAGEVAL_OK;
}
