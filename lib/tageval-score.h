/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scorer's entry points for the other modules (tageval-score.c); not
 * installed. */
#ifndef TAGEVAL_SCORE_H
#define TAGEVAL_SCORE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tageval-reader.h"
#include "tageval-util.h"

/*
 * ldexp(x, e) by one multiplication where 2^e is a normal double (-1022 <=
 * e <= 1023; ldexp itself elsewhere): the product of @x and a power of two
 * is the exact x * 2^e rounded once (exact but for a subnormal result, or
 * an overflow to infinity), which is what ldexp returns.  The scorer scales
 * every weight of every answer twice (scalbn was ~2.4 % of scorer2).
 */
static inline double tv_ldexp(double x, int e)
{
	if (e < -1022 || e > 1023)
		return ldexp(x, e);
	uint64_t bits = (uint64_t)(e + 1023) << 52;
	double p;
	memcpy(&p, &bits, sizeof p);
	return x * p;
}

struct tageval_scorer;
int tv_scorer_read_reader(struct tageval_scorer *s, struct tv_reader *r, struct tageval_error *err);
/* Reads the answers of @r once and scores every line with each of the @n
 * scorers in turn (all on the same key), so that a pipe can feed several
 * granularities. */
int tv_scorers_read(struct tageval_scorer *const *sc, size_t n, struct tv_reader *r,
		    struct tageval_error *err);

/* tageval_scorer_add() for the key's instance of index @inst. */
int tv_scorer_add_at(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
		     const char *instance, const char *const *tags, const double *weights,
		     size_t ntags, struct tageval_error *err);

/* tv_scorer_add_at() for an answer of bare tags given by their ids in the
 * scorer's inventory (each of weight 1, as a bare name is): the same
 * figures, without the names.  @lexelt and @instance are only passed to an
 * on_answer callback, and may be NULL when the scorer has none. */
int tv_scorer_add_ids(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
		      const char *instance, const uint32_t *tags, size_t ntags,
		      struct tageval_error *err);

/* An unweighted answer of many tags (a random baseline's) prepared for a
 * scorer once, then scored on each item in time that does not grow with its
 * tags, to the same figures as tv_scorer_add_at (see tageval-score.c). */
struct tv_spread_tag {
	uint32_t tag;
	uint32_t pos;  /* place in the answer (after the coarse merge) */
	uint32_t ext;  /* mixed: this tag and the answer's tags below it */
	double w;      /* weight after the normalisation */
};
struct tv_spread {
	struct tv_spread_tag *e; /* sorted by tag */
	size_t n;
	int general;   /* scored tag by tag: what the shortcut does not cover */
};
int tv_spread_prepare(struct tageval_scorer *s, const uint32_t *tags, size_t n,
		      struct tv_spread *sp, struct tageval_error *err);
void tv_spread_clear(struct tv_spread *sp);
/* Scores @sp, prepared from @tags (@n), on the key's instance @inst. */
int tv_scorer_add_spread(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
			 const char *instance, const struct tv_spread *sp, const uint32_t *tags,
			 size_t n, struct tageval_error *err);

#endif
