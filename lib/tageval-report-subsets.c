/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The subsets of a report (spec 002, "Task summaries"): all items, parts of
 * speech, trainable and untrainable, low and high polysemy and entropy
 * (split at the median over the lexelts), the user's instance lists, and
 * one subset per lexelt.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-key.h"
#include "tageval-report.h"
#include "tageval-util.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double tv_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, by_value);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

int tv_report_push_subset(struct tageval_report *r, const char *name,
			  enum tageval_subset_kind kind, uint32_t *member, size_t n)
{
	if (tv_grow((void **)&r->sub, &r->subcap, r->nsub + 1, sizeof *r->sub))
		return TAGEVAL_ENOMEM;
	struct tv_subset *s = &r->sub[r->nsub];
	memset(s, 0, sizeof *s);
	s->name = strdup(name);
	if (s->name == NULL)
		return TAGEVAL_ENOMEM;
	s->member = member;
	s->n = n;
	s->pub.name = s->name;
	s->pub.kind = kind;
	s->pub.items = n;
	/* lexelts, and their entropies weighted by the subset's items */
	struct tv_fsum hf, hc; /* exact: the members' order does not matter */
	tv_fsum_init(&hf);
	tv_fsum_init(&hc);
	if (++r->lexgen == 0) {
		memset(r->lexmark, 0, r->nlex * sizeof *r->lexmark);
		r->lexgen = 1;
	}
	for (size_t k = 0; k < n; k++) {
		uint32_t i = member[k], l = r->inst_lexelt[i];
		tv_fsum_add(&hf, r->lex[l].pub.fine_entropy);
		tv_fsum_add(&hc, r->lex[l].pub.coarse_entropy);
		if (r->lexmark[l] != r->lexgen) {
			r->lexmark[l] = r->lexgen;
			s->pub.lexelts++;
		}
		for (size_t g = 0; g < r->ngran; g++) {
			s->total[g][0] += 1.0;
			if (r->single[i] & (1u << g))
				s->total[g][1] += 1.0;
		}
	}
	s->pub.fine_entropy = n ? tv_fsum_result(&hf) / (double)n : NAN;
	s->pub.coarse_entropy = n ? tv_fsum_result(&hc) / (double)n : NAN;
	r->nsub++;
	return TAGEVAL_OK;
}

/* Pushes the subset of the instances whose lexelt @keep accepts (not if empty, unless @always). */
static int push_if(struct tageval_report *r, const char *name, enum tageval_subset_kind kind,
		   int (*keep)(const struct tageval_report *, const struct tv_lexelt *, const void *),
		   const void *arg, int always)
{
	size_t ninst = r->key->ninst, n = 0;
	uint32_t *m = malloc((ninst ? ninst : 1) * sizeof *m);
	if (m == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t i = 0; i < ninst; i++)
		if (keep(r, &r->lex[r->inst_lexelt[i]], arg))
			m[n++] = (uint32_t)i;
	if (n == 0 && !always) {
		free(m);
		return TAGEVAL_OK;
	}
	int rc = tv_report_push_subset(r, name, kind, m, n);
	if (rc)
		free(m);
	return rc;
}

static int keep_all(const struct tageval_report *r, const struct tv_lexelt *l, const void *a)
{
	return 1;
}

static int keep_pos(const struct tageval_report *r, const struct tv_lexelt *l, const void *a)
{
	return l->pub.pos == *(const char *)a;
}

static int keep_trainable(const struct tageval_report *r, const struct tv_lexelt *l,
			  const void *a)
{
	return (l->pub.train_items > 0) == *(const int *)a;
}

/* a: {0 low, 1 high} for polysemy */
static int keep_polysemy(const struct tageval_report *r, const struct tv_lexelt *l,
			 const void *a)
{
	int high = (double)l->pub.polysemy >= r->median_polysemy;
	return high == *(const int *)a;
}

static int keep_entropy(const struct tageval_report *r, const struct tv_lexelt *l,
			const void *a)
{
	int high = l->pub.fine_entropy >= r->median_entropy;
	return high == *(const int *)a;
}

/* One subset per lexelt, from one pass over the instances. */
static int push_lexelts(struct tageval_report *r)
{
	size_t ninst = r->key->ninst, nlex = r->nlex;
	size_t *fill = calloc(nlex + 1, sizeof *fill);
	uint32_t **m = calloc(nlex ? nlex : 1, sizeof *m);
	int rc = fill && m ? TAGEVAL_OK : TAGEVAL_ENOMEM;
	for (size_t l = 0; l < nlex && rc == TAGEVAL_OK; l++)
		if ((m[l] = malloc(r->lex[l].pub.items * sizeof **m)) == NULL)
			rc = TAGEVAL_ENOMEM;
	for (size_t i = 0; i < ninst && rc == TAGEVAL_OK; i++) {
		uint32_t l = r->inst_lexelt[i];
		m[l][fill[l]++] = (uint32_t)i;
	}
	size_t taken = 0;
	for (; rc == TAGEVAL_OK && taken < nlex; taken++)
		if ((rc = tv_report_push_subset(r, r->lex[taken].name, TAGEVAL_SUBSET_LEXELT,
						m[taken], fill[taken])))
			break;
	/* the lists not taken over */
	for (size_t k = taken; m && k < nlex; k++)
		free(m[k]);
	free(m);
	free(fill);
	return rc;
}

int tv_report_subsets(struct tageval_report *r, struct tageval_error *err)
{
	static const char pos[] = { 'n', 'v', 'a', 'p' };
	static const char *const pos_name[] = { "nouns", "verbs", "adjectives",
						"indeterminates" };
	static const int low = 0, high = 1;
	double *v = malloc((r->nlex ? r->nlex : 1) * sizeof *v);
	r->lexmark = calloc(r->nlex ? r->nlex : 1, sizeof *r->lexmark);
	if (v == NULL || r->lexmark == NULL) {
		free(v);
		return tv_nomem(err);
	}
	for (size_t l = 0; l < r->nlex; l++)
		v[l] = (double)r->lex[l].pub.polysemy;
	r->median_polysemy = tv_median(v, r->nlex);
	for (size_t l = 0; l < r->nlex; l++)
		v[l] = r->lex[l].pub.fine_entropy;
	r->median_entropy = tv_median(v, r->nlex);
	free(v);

	int rc = push_if(r, "all", TAGEVAL_SUBSET_ALL, keep_all, NULL, 1);
	for (size_t k = 0; k < 4 && rc == TAGEVAL_OK; k++)
		rc = push_if(r, pos_name[k], TAGEVAL_SUBSET_POS, keep_pos, &pos[k], 0);
	if (rc == TAGEVAL_OK && r->train) {
		rc = push_if(r, "trainable", TAGEVAL_SUBSET_TRAINABLE, keep_trainable, &high, 0);
		if (rc == TAGEVAL_OK)
			rc = push_if(r, "untrainable", TAGEVAL_SUBSET_UNTRAINABLE, keep_trainable,
				     &low, 0);
	}
	if (rc == TAGEVAL_OK)
		rc = push_if(r, "low-polysemy", TAGEVAL_SUBSET_LOW_POLYSEMY, keep_polysemy, &low,
			     0);
	if (rc == TAGEVAL_OK)
		rc = push_if(r, "high-polysemy", TAGEVAL_SUBSET_HIGH_POLYSEMY, keep_polysemy,
			     &high, 0);
	if (rc == TAGEVAL_OK)
		rc = push_if(r, "low-entropy", TAGEVAL_SUBSET_LOW_ENTROPY, keep_entropy, &low, 0);
	if (rc == TAGEVAL_OK)
		rc = push_if(r, "high-entropy", TAGEVAL_SUBSET_HIGH_ENTROPY, keep_entropy, &high,
			     0);
	r->nfixed = r->nsub;
	if (rc == TAGEVAL_OK)
		rc = push_lexelts(r);
	return rc ? tv_nomem(err) : TAGEVAL_OK;
}
