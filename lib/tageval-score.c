/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Scoring of answer files against a key, the Senseval scorer2 way
 * (disjunctive key tags, probabilistic answers, fine / coarse / mixed,
 * minimal), and the conjunctive policy proposed at the end of its
 * documentation.  Answers are scored line by line as they are read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-score.h"
#include "tageval-filter.h"
#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-key.h"
#include "tageval-reader.h"
#include "tageval-util.h"

enum inst_state {
	ST_ACTIVE = 0,  /* can be scored */
	ST_USED = 1,    /* scored already */
	ST_EXCLUDED = 2, /* minimal scoring left it out */
	ST_FILTERED = 3  /* outside the subset */
};

/* The effective key entry of an instance, packed so that scoring an answer
 * touches one small record: a single key tag is kept in place of the offset. */
struct einst {
	uint32_t tags;  /* offset into ktags, or the tag itself when cnt == 1 */
	uint16_t state;
	uint16_t cnt;   /* key tags, capped: see build_key */
};

struct guess {
	uint32_t tag;
	double w;
	const char *name;
};

struct tageval_scorer {
	struct tageval_inventory *inv;
	const struct tageval_key *key;
	struct tageval_score_options opts;
	struct tageval_score totals;
	/* totals.correct and totals.attempted, exactly: any line order gives the same bits;
	 * their terms equal to 1 (most answers') are counted apart, an
	 * increment each, and added to a copy when the result is read */
	struct tv_fsum correct, attempted;
	uint64_t correct_ones, attempted_ones;
	/* the effective key: tags after the filter, coarse and dedup steps */
	struct einst *inst;
	size_t ninst;       /* the key's instances when the scorer was made */
	uint32_t *pool;
	size_t npool;
	const uint32_t *ktags; /* the effective key's tags: pool, or the key's own */
	struct tv_walk walk;
	struct tv_lift lift; /* tree-shaped maps: ancestors by depth */
	/* per-line scratch */
	struct guess *g;
	size_t ng, gcap;
	int gscale;         /* the line's weights are scaled by 2^-gscale */
	uint32_t *mark;     /* tag id -> 1 + position in g, valid when markgen matches */
	uint32_t *markgen;
	size_t markcap;
	uint32_t gen;
	const char **names;
	size_t namecap;
	double *weights;
	size_t weightcap;
	size_t added;       /* answers given through tageval_scorer_add */
	char *idbuf;
	size_t idcap;
};

void tageval_score_options_init(struct tageval_score_options *o)
{
	TV_NULL_RET(o, );
	memset(o, 0, sizeof *o);
	o->granularity = TAGEVAL_FINE;
}

void tageval_scorer_free(struct tageval_scorer *s)
{
	if (s == NULL)
		return;
	free(s->inst);
	free(s->pool);
	tv_walk_clear(&s->walk);
	tv_lift_clear(&s->lift);
	free(s->g);
	free(s->mark);
	free(s->markgen);
	free(s->names);
	free(s->weights);
	free(s->idbuf);
	free(s);
}

/* The exact sum of @f and @ones terms equal to 1, rounded once: the same
 * bits as every term added to @f (an exact sum does not depend on the order
 * of its terms; @ones, at most one an instance (< 2^32), is a double exactly). */
static double sum_with_ones(const struct tv_fsum *f, uint64_t ones)
{
	struct tv_fsum all = *f;
	tv_fsum_add(&all, (double)ones);
	return tv_fsum_result(&all);
}

void tageval_scorer_result(const struct tageval_scorer *s, struct tageval_score *out)
{
	TV_NULL_RET(out, );
	if (s == NULL) {
		memset(out, 0, sizeof *out);
		return;
	}
	*out = s->totals;
	out->correct = sum_with_ones(&s->correct, s->correct_ones);
	out->attempted = sum_with_ones(&s->attempted, s->attempted_ones);
}

/* Adds @x to the exact sum @f and its count of ones @ones. */
static inline void add_term(struct tv_fsum *f, uint64_t *ones, double x)
{
	if (x == 1.0)
		(*ones)++;
	else
		tv_fsum_add(f, x);
}

/* Marks tag ids seen on the current line; grows with the inventory. */
static int mark_fit(struct tageval_scorer *s)
{
	size_t n = s->inv->tags.n;
	if (n <= s->markcap)
		return TAGEVAL_OK;
	size_t cap = n * 2;
	uint32_t *m = realloc(s->mark, cap * sizeof *m);
	if (m == NULL)
		return TAGEVAL_ENOMEM;
	s->mark = m;
	uint32_t *g = realloc(s->markgen, cap * sizeof *g);
	if (g == NULL)
		return TAGEVAL_ENOMEM;
	memset(g + s->markcap, 0, (cap - s->markcap) * sizeof *g);
	s->markgen = g;
	s->markcap = cap;
	return TAGEVAL_OK;
}

static void mark_start(struct tageval_scorer *s)
{
	if (++s->gen == 0) {
		memset(s->markgen, 0, s->markcap * sizeof *s->markgen);
		s->gen = 1;
	}
}

static int ambiguous(const struct tageval_scorer *s, const char *file, uint64_t line, uint32_t tag,
		     struct tageval_error *err)
{
	const char *name = tv_inventory_name(s->inv, tag);
	char q[80];
	tv_quote(q, sizeof q, name, strlen(name));
	return tv_error(err, TAGEVAL_EFORMAT, file, line,
			"tag \"%s\" has several top-level ancestors: coarse scoring needs a tree",
			q);
}

static const uint32_t *key_tags(const struct tageval_scorer *s, const struct einst *e)
{
	return e->cnt == 1 ? &e->tags : s->ktags + e->tags;
}

static int too_many_tags(const struct tageval_key *key, size_t i, struct tageval_error *err)
{
	return tv_error(err, TAGEVAL_EFORMAT, key->name, tv_key_line(key, i),
			"more than %u sense tags for one instance", UINT16_MAX);
}

/* The effective key when it is the key as read (no filter, no coarse
 * mapping, no merging of repeated tags): an instance of several tags reads
 * them in the key itself, nothing is copied. */
static int build_key_plain(struct tageval_scorer *s, struct tageval_error *err)
{
	const struct tageval_key *key = s->key;
	size_t n = key->ninst, kept = 0;
	s->ktags = key->tags;
	for (size_t i = 0; i < n; i++) {
		const struct tv_instance *in = &key->inst[i];
		struct einst *e = &s->inst[i];
		uint32_t cnt = in->ntags;
		if (cnt > UINT16_MAX)
			return too_many_tags(key, i, err);
		e->cnt = (uint16_t)cnt;
		e->tags = cnt == 1 ? key->tags[in->tags] : in->tags;
		if (cnt == 0)
			e->state = ST_FILTERED;
		else if (s->opts.minimal && cnt >= 2)
			e->state = ST_EXCLUDED;
		else
			kept++;
	}
	s->totals.instances = kept;
	s->totals.total = (double)kept; /* 1 an instance, every partial sum exact */
	return TAGEVAL_OK;
}

static int build_key(struct tageval_scorer *s, struct tageval_error *err)
{
	const struct tageval_key *key = s->key;
	const struct tageval_filter *f = s->opts.filter;
	size_t n = key->ninst;
	int coarse = s->opts.granularity == TAGEVAL_COARSE;
	int dedup = coarse || s->opts.conjunctive;
	s->inst = calloc(n ? n : 1, sizeof *s->inst);
	if (s->inst == NULL)
		return tv_nomem(err);
	s->ninst = n;
	if (!dedup && (f == NULL || (!f->have_instances && !f->have_tags)))
		return build_key_plain(s, err);
	s->pool = malloc((key->ntags ? key->ntags : 1) * sizeof *s->pool);
	if (!s->pool || mark_fit(s))
		return tv_nomem(err);
	s->ktags = s->pool;
	for (size_t i = 0; i < n; i++) {
		const struct tv_instance *in = &key->inst[i];
		struct einst *e = &s->inst[i];
		if (f && f->have_instances) {
			const char *id = tv_intern_str(&key->ids, (uint32_t)i);
			uint32_t dummy;
			if (!tv_intern_find(&f->instances, id, strlen(id), &dummy)) {
				e->state = ST_FILTERED;
				continue;
			}
		}
		size_t first = s->npool, cnt = 0;
		mark_start(s);
		for (uint32_t j = 0; j < in->ntags; j++) {
			uint32_t t = key->tags[in->tags + j];
			if (f && f->have_tags && !tv_filter_has_tag(f, t))
				continue;
			if (coarse) {
				t = tv_coarse(s->inv, t);
				if (t == TV_NONE)
					return ambiguous(s, key->name, tv_key_line(key, i),
							 key->tags[in->tags + j], err);
			}
			if (dedup) {
				if (s->markgen[t] == s->gen)
					continue;
				s->markgen[t] = s->gen;
			}
			s->pool[s->npool++] = t;
			cnt++;
		}
		if (cnt > UINT16_MAX)
			return too_many_tags(key, i, err);
		e->cnt = (uint16_t)cnt;
		if (cnt == 1) {
			e->tags = s->pool[first];
			s->npool = first;
		} else {
			e->tags = (uint32_t)first;
		}
		if (cnt == 0) {
			e->state = ST_FILTERED;
			continue;
		}
		if (s->opts.minimal && cnt >= 2) {
			e->state = ST_EXCLUDED;
			continue;
		}
		s->totals.instances++;
		s->totals.total += s->opts.conjunctive ? (double)cnt : 1.0;
	}
	return TAGEVAL_OK;
}

int tageval_scorer_new(struct tageval_inventory *inv, const struct tageval_key *key,
		       const struct tageval_score_options *opts, struct tageval_scorer **out,
		       struct tageval_error *err)
{
	TV_NEED(err, out, "scorer");
	*out = NULL;
	TV_NEED(err, inv, "inv");
	TV_NEED(err, key, "key");
	if (key->inv != inv)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the key was read with another inventory");
	if (opts && opts->filter && opts->filter->inv && opts->filter->inv != inv)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the tag filter was read with another inventory");
	struct tageval_scorer *s = calloc(1, sizeof *s);
	if (s == NULL)
		return tv_nomem(err);
	s->inv = inv;
	s->key = key;
	if (opts)
		s->opts = *opts;
	else
		tageval_score_options_init(&s->opts);
	if (s->opts.granularity != TAGEVAL_FINE && s->opts.granularity != TAGEVAL_COARSE &&
	    s->opts.granularity != TAGEVAL_MIXED) {
		int g = (int)s->opts.granularity; /* read before s is freed */
		tageval_scorer_free(s);
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "unknown granularity %d", g);
	}
	int rc = build_key(s, err);
	if (rc) {
		tageval_scorer_free(s);
		return rc;
	}
	*out = s;
	return TAGEVAL_OK;
}

/* The credit answer tag @a earns for key tag @k; -1 when out of memory. */
static double credit(struct tageval_scorer *s, uint32_t a, uint32_t k)
{
	if (a == k)
		return 1.0;
	if (s->opts.granularity != TAGEVAL_MIXED)
		return 0.0;
	const struct tageval_inventory *inv = s->inv;
	if (a >= inv->nnode || k >= inv->nnode)
		return 0.0; /* a tag outside the map has no relatives */
	if (!inv->dag && inv->root[a] != inv->root[k])
		return 0.0; /* different trees */
	if (!inv->dag) {
		/* by depth: a chain's length is not paid once per answer */
		if (!s->lift.built && tv_lift_build(inv, &s->lift))
			return -1.0;
		if (tv_lift_subsumes(inv, &s->lift, k, a) != 0.0)
			return 1.0;
		return tv_lift_subsumes(inv, &s->lift, a, k);
	}
	/* an answer below a key tag is as good as the key tag */
	double up = tv_walk_subsumes(s->inv, &s->walk, k, a);
	if (up != 0.0)
		return up < 0.0 ? -1.0 : 1.0;
	/* an answer above a key tag earns Pr(key tag | answer) */
	return tv_walk_subsumes(s->inv, &s->walk, a, k);
}

static int report(struct tageval_scorer *s, const struct tv_line *r,
		  enum tageval_answer_status st, double score, double attempted, size_t inst)
{
	if (s->opts.on_answer == NULL)
		return TAGEVAL_OK;
	struct tageval_answer_event ev = {
		.status = st,
		.line = r->lineno,
		.lexelt = r->field[0],
		.instance = r->field[1],
		.score = score,
		.attempted = attempted,
		.index = r->inst == TV_NONE ? (size_t)-1 : (size_t)r->inst,
	};
	if (st == TAGEVAL_ANSWER_SCORED) {
		const struct einst *e = &s->inst[inst];
		const uint32_t *kt = key_tags(s, e);
		size_t nk = e->cnt;
		if (tv_grow((void **)&s->names, &s->namecap, nk + s->ng + 1, sizeof *s->names) ||
		    tv_grow((void **)&s->weights, &s->weightcap, s->ng + 1, sizeof *s->weights))
			return TAGEVAL_ENOMEM;
		for (size_t j = 0; j < nk; j++)
			s->names[j] = tv_inventory_name(s->inv, kt[j]);
		for (size_t j = 0; j < s->ng; j++) {
			s->names[nk + j] = tv_inventory_name(s->inv, s->g[j].tag);
			s->weights[j] = s->g[j].w;
		}
		ev.n_key = nk;
		ev.key_tags = s->names;
		ev.n_guess = s->ng;
		ev.guess_tags = s->names + nk;
		ev.guess_weights = s->weights;
	}
	s->opts.on_answer(&ev, s->opts.userdata);
	return TAGEVAL_OK;
}

static int bad_weight(const struct tv_line *r, const char *tok, struct tageval_error *err)
{
	char q[80];
	tv_quote(q, sizeof q, tok, strlen(tok));
	return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "invalid weight \"%s\"", q);
}

/* The weights of s->g scaled by the power of two of the largest. */
static void scale_guesses(struct tageval_scorer *s)
{
	/* scaled by the power of two of the largest, so that no sum of them
	 * overflows (a/1e308 b/1e308 is a/0.5 b/0.5) */
	double max = 0.0;
	for (size_t i = 0; i < s->ng; i++)
		if (s->g[i].w > max)
			max = s->g[i].w;
	s->gscale = 0;
	if (max > 0.0) {
		frexp(max, &s->gscale);
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w = tv_ldexp(s->g[i].w, -s->gscale);
	}
}

/* The guesses of s->g all of weight 1, scaled as scale_guesses() scales
 * them: 1 = 0.5 x 2^1 (frexp), so 0.5 each at a scale of 2^-1. */
static void unit_guesses(struct tageval_scorer *s)
{
	for (size_t i = 0; i < s->ng; i++)
		s->g[i].w = 0.5;
	s->gscale = s->ng > 0 ? 1 : 0;
}

/* Parses the tags of an answer line into s->g (weights as written). */
static int parse_guesses(struct tageval_scorer *s, const struct tv_line *r, struct tageval_error *err)
{
	size_t n = r->nfield - 2;
	s->ng = 0;
	if (tv_grow((void **)&s->g, &s->gcap, n + 1, sizeof *s->g))
		return tv_nomem(err);
	int all_weighted = 1;
	for (size_t i = 0; i < n; i++) {
		char *tok = r->field[i + 2];
		double w;
		size_t tlen;
		if (r->weights) {
			w = r->weights[i];
			tlen = strlen(tok);
			if (!(w >= 0.0) || !isfinite(w) || (s->opts.conjunctive && w > 1.0))
				return tv_error(err, TAGEVAL_EINVAL, r->name, r->lineno,
						"invalid weight %g for tag \"%s\"", w, tok);
		} else {
			int kind = tv_split_weight(tok, &tlen, &w);
			if (kind < 0)
				return bad_weight(r, tok, err);
			if (kind == 0)
				all_weighted = 0;
			if (kind > 0 && s->opts.conjunctive && w > 1.0) {
				char q[80];
				tv_quote(q, sizeof q, tok, strlen(tok));
				return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
						"weight \"%s\" above 1: a probability of "
						"appearance is at most 1", q);
			}
		}
		uint32_t tag;
		if (tv_inventory_intern(s->inv, tok, tlen, &tag))
			return tv_nomem(err);
		s->g[s->ng++] = (struct guess){ tag, w, NULL };
	}
	if (!all_weighted) {
		unit_guesses(s);
		return TAGEVAL_OK;
	}
	scale_guesses(s);
	return TAGEVAL_OK;
}

/* Coarse mapping and merging of repeated tags, in place, first place kept. */
static int merge_guesses(struct tageval_scorer *s, const struct tv_line *r, struct tageval_error *err)
{
	int coarse = s->opts.granularity == TAGEVAL_COARSE;
	int conj = s->opts.conjunctive;
	if (!coarse && !conj)
		return TAGEVAL_OK;
	if (mark_fit(s))
		return tv_nomem(err);
	mark_start(s);
	size_t k = 0;
	for (size_t i = 0; i < s->ng; i++) {
		uint32_t t = s->g[i].tag;
		if (coarse) {
			uint32_t c = tv_coarse(s->inv, t);
			if (c == TV_NONE)
				return ambiguous(s, r->name, r->lineno, t, err);
			t = c;
		}
		if (s->markgen[t] == s->gen) {
			struct guess *first = &s->g[s->mark[t]];
			if (conj)
				first->w = first->w > s->g[i].w ? first->w : s->g[i].w;
			else
				first->w += s->g[i].w;
			continue;
		}
		s->markgen[t] = s->gen;
		s->mark[t] = (uint32_t)k;
		s->g[k].tag = t;
		s->g[k].w = s->g[i].w;
		k++;
	}
	s->ng = k;
	return TAGEVAL_OK;
}

/* Scores the answer s->g (scaled by 2^-gscale) on the instance r->inst of
 * line @r (whose fields past the first two are not read). */
static int score_guesses(struct tageval_scorer *s, const struct tv_line *r,
			 struct tageval_error *err)
{
	int rc;
	uint32_t inst = r->inst;
	enum tageval_answer_status st = TAGEVAL_ANSWER_SCORED;
	if (inst == TV_NONE || inst >= s->ninst) /* an instance added to the key since */
		st = TAGEVAL_ANSWER_NOT_IN_KEY;
	else if (s->inst[inst].state == ST_FILTERED)
		st = TAGEVAL_ANSWER_FILTERED;
	else if (s->ng == 0)
		st = TAGEVAL_ANSWER_INVALID;
	else if (s->inst[inst].state != ST_ACTIVE)
		st = TAGEVAL_ANSWER_EXCLUDED;
	if (st != TAGEVAL_ANSWER_SCORED) {
		switch (st) {
		case TAGEVAL_ANSWER_NOT_IN_KEY:
			s->totals.not_in_key++;
			break;
		case TAGEVAL_ANSWER_FILTERED:
			s->totals.filtered++;
			break;
		case TAGEVAL_ANSWER_INVALID:
			s->totals.invalid++;
			break;
		default:
			s->totals.excluded++;
			break;
		}
		return report(s, r, st, 0.0, 0.0, 0) ? tv_nomem(err) : TAGEVAL_OK;
	}
	if ((rc = merge_guesses(s, r, err)))
		return rc;
	/* the weights are scaled by 2^-gscale: their sum cannot overflow */
	double total = 0.0;
	for (size_t i = 0; i < s->ng; i++)
		total += s->g[i].w;
	if (!s->opts.conjunctive && tv_ldexp(total, s->gscale) > 1.0) {
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w /= total;
		total = 1.0;
	} else {
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w = tv_ldexp(s->g[i].w, s->gscale);
		total = tv_ldexp(total, s->gscale);
	}
	struct einst *e = &s->inst[inst];
	const uint32_t *keytags = key_tags(s, e);
	size_t nk = e->cnt;
	double score = 0.0;
	if (s->opts.conjunctive) {
		/* each key tag is an item: the expected credit, at most 1 */
		for (size_t j = 0; j < nk; j++) {
			double c = 0.0;
			for (size_t i = 0; i < s->ng; i++) {
				double cr = credit(s, s->g[i].tag, keytags[j]);
				if (cr < 0.0)
					return tv_nomem(err);
				c += s->g[i].w * cr;
			}
			score += c < 1.0 ? c : 1.0;
		}
	} else {
		for (size_t i = 0; i < s->ng; i++) {
			double c = 0.0;
			for (size_t j = 0; j < nk; j++) {
				double cr = credit(s, s->g[i].tag, keytags[j]);
				if (cr < 0.0)
					return tv_nomem(err);
				c += cr;
			}
			score += s->g[i].w * (c < 1.0 ? c : 1.0);
		}
		if (score > 1.0)
			score = 1.0;
	}
	e->state = ST_USED;
	s->totals.scored++;
	add_term(&s->correct, &s->correct_ones, score);
	add_term(&s->attempted, &s->attempted_ones, total);
	return report(s, r, st, score, total, inst) ? tv_nomem(err) : TAGEVAL_OK;
}

static int score_line(struct tageval_scorer *s, const struct tv_line *r, struct tageval_error *err)
{
	if (r->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "missing instance id");
	/* weights are checked on every line, also where they will not be used */
	int rc = parse_guesses(s, r, err);
	if (rc)
		return rc;
	return score_guesses(s, r, err);
}

/* The scorers of one reading of an answer file (they share their key). */
struct scorers {
	struct tageval_scorer *const *sc;
	size_t n;
};

static void prefetch_instance(void *ctx, uint32_t inst)
{
	const struct scorers *all = ctx;
	__builtin_prefetch(&all->sc[0]->inst[inst]);
}

static int score_lines(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	const struct scorers *all = ctx;
	for (size_t j = 0; j < all->n; j++) {
		int rc = score_line(all->sc[j], l, err);
		if (rc)
			return rc;
	}
	return TAGEVAL_OK;
}

/*
 * Answers come in batches: the instance look-ups of a batch are done in
 * stages (slots, strings, then the instance records) so that their
 * cache misses overlap; the lines are then scored in file order.
 */
int tv_scorers_read(struct tageval_scorer *const *sc, size_t n, struct tv_reader *r,
		    struct tageval_error *err)
{
	/* the scorers share their key: the look-ups are done once */
	struct scorers all = { sc, n };
	struct tv_each e = { .id = TV_ID_JOINED, .ids = &sc[0]->key->ids,
			     .lookup = TV_LOOKUP_FIND, .find_ahead = 1,
			     .found = prefetch_instance, .line = score_lines, .ctx = &all };
	return tv_each_line(r, &e, NULL, err);
}

static int run_answers(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct tageval_scorer *s = ctx;
	return tv_scorers_read(&s, 1, r, err);
}

int tageval_scorer_read(struct tageval_scorer *s, const char *path, struct tageval_error *err)
{
	TV_NEED(err, s, "scorer");
	return tv_read_path(__func__, path, run_answers, s, err);
}

int tageval_scorer_read_buffer(struct tageval_scorer *s, const char *data, size_t size,
			       const char *name, struct tageval_error *err)
{
	TV_NEED(err, s, "scorer");
	return tv_read_buffer(__func__, data, size, name, run_answers, s, err);
}

int tageval_scorer_add(struct tageval_scorer *s, const char *lexelt, const char *instance,
		       const char *const *tags, const double *weights, size_t ntags,
		       struct tageval_error *err)
{
	TV_NEED(err, s, "scorer");
	TV_NEED(err, lexelt, "lexelt");
	TV_NEED(err, instance, "instance");
	if (tags == NULL && ntags > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL tags", __func__);
	for (size_t i = 0; i < ntags; i++)
		TV_NEED(err, tags[i], "tag");
	size_t len = tv_join_id(&s->idbuf, &s->idcap, lexelt, instance);
	if (len == (size_t)-1)
		return tv_nomem(err);
	uint32_t inst;
	if (!tv_intern_find(&s->key->ids, s->idbuf, len, &inst))
		inst = TV_NONE;
	return tv_scorer_add_at(s, inst, lexelt, instance, tags, weights, ntags, err);
}

int tv_scorer_add_at(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
		     const char *instance, const char *const *tags, const double *weights,
		     size_t ntags, struct tageval_error *err)
{
	char *small[16];
	char **field = tv_api_fields(small, 16, lexelt, instance, tags, ntags);
	if (field == NULL)
		return tv_nomem(err);
	struct tv_line l = { .name = "answers", .lineno = ++s->added, .field = field,
			     .nfield = ntags + 2, .weights = weights,
			     .inst = inst < s->ninst ? inst : TV_NONE };
	int rc = score_line(s, &l, err);
	if (field != small)
		free(field);
	return rc;
}

int tv_scorer_add_ids(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
		      const char *instance, const uint32_t *tags, size_t ntags,
		      struct tageval_error *err)
{
	/* what parse_guesses makes of bare tags: weight 1 each */
	if (tv_grow((void **)&s->g, &s->gcap, ntags + 1, sizeof *s->g))
		return tv_nomem(err);
	for (size_t i = 0; i < ntags; i++)
		s->g[i] = (struct guess){ tags[i], 1.0, NULL };
	s->ng = ntags;
	unit_guesses(s);
	char *field[2] = { (char *)(uintptr_t)lexelt, (char *)(uintptr_t)instance };
	struct tv_line l = { .name = "answers", .lineno = ++s->added, .field = field,
			     .nfield = 2, .inst = inst < s->ninst ? inst : TV_NONE };
	return score_guesses(s, &l, err);
}

/* ------------------------------------------------------------ spread answers */

/*
 * The random baselines answer every sense of a lexelt, unweighted, on each of
 * its items: scored tag by tag, that costs items x senses.  A tv_spread is
 * such an answer prepared once per scorer (its tags as score_line sees them
 * after the coarse merge and the normalisation, sorted by tag id, with their
 * place in the answer), so that an item costs only its key tags (mixed: and
 * their ancestors), and gives the same sums, added in the same order, as
 * score_line: the figures do not change by a bit.
 */

static int by_spread_tag(const void *a, const void *b)
{
	uint32_t x = ((const struct tv_spread_tag *)a)->tag;
	uint32_t y = ((const struct tv_spread_tag *)b)->tag;
	return (x > y) - (x < y);
}

static int by_spread_pos(const void *a, const void *b)
{
	uint32_t x = ((const struct tv_spread_tag *)a)->pos;
	uint32_t y = ((const struct tv_spread_tag *)b)->pos;
	return (x > y) - (x < y);
}

static const struct tv_spread_tag *spread_find(const struct tv_spread *sp, uint32_t tag)
{
	size_t lo = 0, hi = sp->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sp->e[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sp->n && sp->e[lo].tag == tag ? &sp->e[lo] : NULL;
}

void tv_spread_clear(struct tv_spread *sp)
{
	free(sp->e);
	memset(sp, 0, sizeof *sp);
}

/*
 * Mixed scoring counts on the answer's tags below a key tag earning 1 each:
 * they must be the contiguous run that follows the key tag in the answer (a
 * tree listed depth first, every parent listed), and Pr(tag | ancestor) must
 * not round to 0 on the way up (credit() would then give 0).  Sets ext.
 */
static int spread_mixed_ok(const struct tageval_scorer *s, struct tv_spread *sp)
{
	const struct tageval_inventory *inv = s->inv;
	if (inv->dag || inv->estimated)
		return 0;
	struct tv_spread_tag *byp = malloc((sp->n ? sp->n : 1) * sizeof *byp);
	uint32_t *last = malloc((sp->n ? sp->n : 1) * sizeof *last);
	double *down = malloc((sp->n ? sp->n : 1) * sizeof *down);
	int ok = byp && last && down;
	if (ok) {
		memcpy(byp, sp->e, sp->n * sizeof *byp);
		qsort(byp, sp->n, sizeof *byp, by_spread_pos);
	}
	/* parents first: the product of the probabilities down from the root */
	for (size_t i = 0; ok && i < sp->n; i++) {
		uint32_t t = byp[i].tag;
		byp[i].ext = 1;
		last[i] = (uint32_t)i;
		down[i] = 1.0;
		if (t >= inv->nnode || inv->node[t].parents.n == 0)
			continue;
		const struct tv_spread_tag *p = spread_find(sp, inv->node[t].parents.v[0]);
		double pup = inv->node[t].pup[0];
		if (p == NULL || p->pos >= i || !(pup > 0.0 && pup <= 1.0)) {
			ok = 0;
			break;
		}
		down[i] = down[p->pos] * pup;
		if (!(down[i] >= 0x1p-900))
			ok = 0;
	}
	/* children first: the size and the last place of each subtree */
	for (size_t i = sp->n; ok && i-- > 0;) {
		uint32_t t = byp[i].tag;
		if (last[i] != i + byp[i].ext - 1) {
			ok = 0; /* not contiguous */
			break;
		}
		if (t >= inv->nnode || inv->node[t].parents.n == 0)
			continue;
		uint32_t p = spread_find(sp, inv->node[t].parents.v[0])->pos;
		byp[p].ext += byp[i].ext;
		if (last[i] > last[p])
			last[p] = last[i];
	}
	if (ok) {
		memcpy(sp->e, byp, sp->n * sizeof *byp);
		qsort(sp->e, sp->n, sizeof *sp->e, by_spread_tag);
	}
	free(byp);
	free(last);
	free(down);
	return ok;
}

int tv_spread_prepare(struct tageval_scorer *s, const uint32_t *tags, size_t n,
		      struct tv_spread *sp, struct tageval_error *err)
{
	memset(sp, 0, sizeof *sp);
	sp->general = 1;
	int coarse = s->opts.granularity == TAGEVAL_COARSE;
	if (n == 0 || n > UINT32_MAX || s->opts.conjunctive)
		return TAGEVAL_OK;
	sp->e = malloc(n * sizeof *sp->e);
	if (sp->e == NULL || mark_fit(s))
		return tv_nomem(err);
	/* merge_guesses: coarse tags, repeats merged into the first place */
	mark_start(s);
	for (size_t i = 0; i < n; i++) {
		uint32_t t = tags[i];
		if (coarse && (t = tv_coarse(s->inv, t)) == TV_NONE) {
			tv_spread_clear(sp); /* the general path gives the error */
			sp->general = 1;
			return TAGEVAL_OK;
		}
		if (s->markgen[t] == s->gen) {
			if (!coarse) {
				tv_spread_clear(sp); /* repeated tags: scored one by one */
				sp->general = 1;
				return TAGEVAL_OK;
			}
			sp->e[s->mark[t]].w += 1.0;
			continue;
		}
		s->markgen[t] = s->gen;
		s->mark[t] = (uint32_t)sp->n;
		sp->e[sp->n] = (struct tv_spread_tag){ t, (uint32_t)sp->n, 1, 1.0 };
		sp->n++;
	}
	/* score_line: the weights summed in order, then normalised */
	double total = 0.0;
	for (size_t i = 0; i < sp->n; i++)
		total += sp->e[i].w;
	if (total > 1.0)
		for (size_t i = 0; i < sp->n; i++)
			sp->e[i].w /= total;
	qsort(sp->e, sp->n, sizeof *sp->e, by_spread_tag);
	sp->general = s->opts.granularity == TAGEVAL_MIXED && !spread_mixed_ok(s, sp);
	return TAGEVAL_OK;
}

/*
 * x + w + w + ... (m additions, each rounded as a loop rounds it), in a few
 * steps per binade: while the sum stays in one binade, every addition adds
 * the same multiple of its unit in the last place (after at most one step,
 * when w lies half-way between two multiples: ties go to even, and from an
 * even multiple they always go the same way).  x >= 0, w > 0.
 */
static double add_repeat(double x, double w, size_t m)
{
	while (m > 0) {
		if (x < w || x < 0x1p-900) {
			x += w;
			m--;
			continue;
		}
		int e;
		(void)frexp(x, &e); /* x in [2^(e-1), 2^e), unit 2^(e-53) */
		uint64_t xi = (uint64_t)ldexp(x, 53 - e);
		double wu = ldexp(w, 53 - e);
		double y = x + w;
		m--;
		if (wu - floor(wu) == 0.5 && (xi & 1u)) {
			x = y; /* a tie from an odd multiple: the next one starts even */
			continue;
		}
		/* y - x is exact (x >= w): the step in units */
		uint64_t d = (uint64_t)ldexp(y - x, 53 - e), yi = xi + d;
		if (d == 0)
			return y; /* w is lost in x's rounding: every addition gives x */
		if (yi >= (uint64_t)1 << 53) {
			x = y; /* the next binade */
			continue;
		}
		uint64_t room = (((uint64_t)1 << 53) - 1 - yi) / d;
		uint64_t k = m < room ? (uint64_t)m : room;
		x = ldexp((double)(yi + k * d), e - 53);
		m -= (size_t)k;
		if (k == room && m > 0) {
			x += w; /* leaves the binade */
			m--;
		}
	}
	return x;
}

struct spread_point {
	uint32_t pos;
	uint32_t ext; /* mixed: the run of tags below a key tag, 0 for an ancestor */
	double w;
	uint32_t tag;
};

static int by_point(const void *a, const void *b)
{
	const struct spread_point *x = a, *y = b;
	if (x->pos != y->pos)
		return (x->pos > y->pos) - (x->pos < y->pos);
	return (x->ext < y->ext) - (x->ext > y->ext); /* the run first */
}

/* The answer @tags (@n) one by one, as tv_scorer_add_at scores it. */
static int spread_general(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
			  const char *instance, const uint32_t *tags, size_t n,
			  struct tageval_error *err)
{
	const char **names = malloc((n ? n : 1) * sizeof *names);
	if (names == NULL)
		return tv_nomem(err);
	for (size_t k = 0; k < n; k++)
		names[k] = tv_inventory_name(s->inv, tags[k]);
	int rc = tv_scorer_add_at(s, inst, lexelt, instance, names, NULL, n, err);
	free(names);
	return rc;
}

int tv_scorer_add_spread(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
			 const char *instance, const struct tv_spread *sp, const uint32_t *tags,
			 size_t n, struct tageval_error *err)
{
	if (sp->general || inst >= s->ninst || s->inst[inst].state != ST_ACTIVE)
		return spread_general(s, inst, lexelt, instance, tags, n, err);
	int mixed = s->opts.granularity == TAGEVAL_MIXED;
	struct einst *e = &s->inst[inst];
	const uint32_t *keytags = key_tags(s, e);
	size_t nk = e->cnt;
	/* the answer's tags that can earn credit: the key tags, and (mixed)
	 * their ancestors and the runs below them */
	size_t np = 0, cap = 0;
	struct spread_point *pt = NULL;
	for (size_t j = 0; j < nk; j++) {
		uint32_t t = keytags[j];
		for (int up = 0;; up = 1) {
			const struct tv_spread_tag *f = spread_find(sp, t);
			if (f != NULL) {
				if (tv_grow((void **)&pt, &cap, np + 1, sizeof *pt)) {
					free(pt);
					return tv_nomem(err);
				}
				pt[np++] = (struct spread_point){ f->pos, mixed && !up ? f->ext : 0,
								  f->w, t };
			}
			if (!mixed || t >= s->inv->nnode || s->inv->node[t].parents.n == 0)
				break;
			t = s->inv->node[t].parents.v[0];
		}
	}
	if (np > 1)
		qsort(pt, np, sizeof *pt, by_point);
	/* the sum in the answer's order, as score_line adds it */
	double score = 0.0;
	size_t end = 0; /* the run covers the places before end */
	for (size_t i = 0; i < np; i++) {
		if (i > 0 && pt[i].pos == pt[i - 1].pos)
			continue;
		if (pt[i].pos < end)
			continue; /* below a key tag: counted in its run */
		if (pt[i].ext > 0) {
			/* a key tag and the tags below it: credit 1 each */
			score = add_repeat(score, pt[i].w, pt[i].ext);
			end = (size_t)pt[i].pos + pt[i].ext;
			continue;
		}
		double c = 1.0;
		if (mixed) {
			c = 0.0;
			for (size_t j = 0; j < nk; j++) {
				double cr = credit(s, pt[i].tag, keytags[j]);
				if (cr < 0.0) {
					free(pt);
					return tv_nomem(err);
				}
				c += cr;
			}
		}
		score += pt[i].w * (c < 1.0 ? c : 1.0);
	}
	free(pt);
	if (score > 1.0)
		score = 1.0;
	e->state = ST_USED;
	s->totals.scored++;
	add_term(&s->correct, &s->correct_ones, score);
	s->attempted_ones++;
	s->added++;
	if (s->opts.on_answer) {
		struct tageval_answer_event ev = {
			.status = TAGEVAL_ANSWER_SCORED,
			.line = s->added,
			.lexelt = lexelt,
			.instance = instance,
			.score = score,
			.attempted = 1.0,
			.index = inst,
		};
		s->opts.on_answer(&ev, s->opts.userdata);
	}
	return TAGEVAL_OK;
}

int tv_scorer_read_reader(struct tageval_scorer *s, struct tv_reader *r, struct tageval_error *err)
{
	return tv_scorers_read(&s, 1, r, err);
}
