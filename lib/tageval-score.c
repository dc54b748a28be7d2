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

#include "tageval-inventory.h"

enum inst_state {
	ST_ACTIVE = 0,  /* can be scored */
	ST_USED = 1,    /* scored already */
	ST_EXCLUDED = 2, /* minimal scoring left it out */
	ST_FILTERED = 3  /* outside the subset */
};

/* The effective key entry of an instance, packed so that scoring an answer
 * touches one small record: a single key tag is kept in place of the offset. */
struct einst {
	uint32_t tags;  /* offset into pool, or the tag itself when cnt == 1 */
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
	/* totals.correct and totals.attempted, exactly: any line order gives the same bits */
	struct tv_fsum correct, attempted;
	/* the effective key: tags after the filter, coarse and dedup steps */
	struct einst *inst;
	uint32_t *pool;
	size_t npool;
	struct tv_walk walk;
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
	free(s->g);
	free(s->mark);
	free(s->markgen);
	free(s->names);
	free(s->weights);
	free(s->idbuf);
	free(s);
}

void tageval_scorer_result(const struct tageval_scorer *s, struct tageval_score *out)
{
	*out = s->totals;
	out->correct = tv_fsum_result(&s->correct);
	out->attempted = tv_fsum_result(&s->attempted);
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

static int ambiguous(const struct tageval_scorer *s, const char *file, size_t line, uint32_t tag,
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
	return e->cnt == 1 ? &e->tags : s->pool + e->tags;
}

static int build_key(struct tageval_scorer *s, struct tageval_error *err)
{
	const struct tageval_key *key = s->key;
	const struct tageval_filter *f = s->opts.filter;
	size_t n = key->ninst;
	s->inst = calloc(n ? n : 1, sizeof *s->inst);
	s->pool = malloc((key->ntags ? key->ntags : 1) * sizeof *s->pool);
	if (!s->inst || !s->pool || mark_fit(s))
		return tv_nomem(err);
	int coarse = s->opts.granularity == TAGEVAL_COARSE;
	int dedup = coarse || s->opts.conjunctive;
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
					return ambiguous(s, key->name, in->line,
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
			return tv_error(err, TAGEVAL_EFORMAT, key->name, in->line,
					"more than %u sense tags for one instance", UINT16_MAX);
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
	*out = NULL;
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
		tageval_scorer_free(s);
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "unknown granularity %d",
				(int)s->opts.granularity);
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
		char *slash = r->weights ? NULL : strchr(tok, '/');
		double w = 1.0;
		size_t tlen = strlen(tok);
		if (r->weights) {
			w = r->weights[i];
			if (!(w >= 0.0) || !isfinite(w) || (s->opts.conjunctive && w > 1.0))
				return tv_error(err, TAGEVAL_EINVAL, r->name, r->lineno,
						"invalid weight %g for tag \"%s\"", w, tok);
		} else if (slash != NULL) {
			tlen = (size_t)(slash - tok);
			if (tlen == 0 || tv_parse_weight(slash + 1, &w) != 0)
				return bad_weight(r, tok, err);
			if (s->opts.conjunctive && w > 1.0) {
				char q[80];
				tv_quote(q, sizeof q, tok, strlen(tok));
				return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
						"weight \"%s\" above 1: a probability of "
						"appearance is at most 1", q);
			}
		} else {
			all_weighted = 0;
		}
		uint32_t tag;
		if (tv_inventory_intern(s->inv, tok, tlen, &tag))
			return tv_nomem(err);
		s->g[s->ng++] = (struct guess){ tag, w, NULL };
	}
	if (!all_weighted)
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w = 1.0;
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
			s->g[i].w = ldexp(s->g[i].w, -s->gscale);
	}
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

static int score_line(struct tageval_scorer *s, const struct tv_line *r, struct tageval_error *err)
{
	if (r->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "missing instance id");
	/* weights are checked on every line, also where they will not be used */
	int rc = parse_guesses(s, r, err);
	if (rc)
		return rc;
	uint32_t inst = r->inst;
	enum tageval_answer_status st = TAGEVAL_ANSWER_SCORED;
	if (inst == TV_NONE)
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
	if (!s->opts.conjunctive && ldexp(total, s->gscale) > 1.0) {
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w /= total;
		total = 1.0;
	} else {
		for (size_t i = 0; i < s->ng; i++)
			s->g[i].w = ldexp(s->g[i].w, s->gscale);
		total = ldexp(total, s->gscale);
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
	tv_fsum_add(&s->correct, score);
	tv_fsum_add(&s->attempted, total);
	return report(s, r, st, score, total, inst) ? tv_nomem(err) : TAGEVAL_OK;
}

/*
 * Answers come in batches: the instance look-ups of a batch are done in
 * stages (slots, string pointers, strings, then the instance records) so that their
 * cache misses overlap; the lines are then scored in file order.
 */
static int read_answers(struct tageval_scorer *s, struct tv_reader *r, struct tageval_error *err)
{
	const struct tv_intern *ids = &s->key->ids;
	struct tv_batch b = { 0 };
	int rc;
	do {
		rc = tv_reader_batch(r, &b, err);
		for (size_t k = 0; k < b.n; k++)
			if (b.line[k].id)
				tv_intern_prefetch(ids, b.line[k].hash);
		for (size_t k = 0; k < b.n; k++)
			if (b.line[k].id)
				tv_intern_prefetch_entry(ids, b.line[k].hash);
		for (size_t k = 0; k < b.n; k++)
			if (b.line[k].id)
				tv_intern_prefetch_string(ids, b.line[k].hash);
		for (size_t k = 0; k < b.n; k++) {
			struct tv_line *l = &b.line[k];
			uint32_t inst;
			l->inst = TV_NONE;
			if (l->id && tv_intern_find_hashed(ids, l->id, l->idlen, l->hash, &inst)) {
				l->inst = inst;
				__builtin_prefetch(&s->inst[inst]);
			}
		}
		for (size_t k = 0; k < b.n; k++) {
			int lrc = score_line(s, &b.line[k], err);
			if (lrc) {
				rc = lrc;
				break;
			}
		}
	} while (rc == TAGEVAL_OK && b.n > 0);
	tv_batch_clear(&b);
	return rc;
}

int tageval_scorer_read(struct tageval_scorer *s, const char *path, struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open(&r, path, err);
	if (rc)
		return rc;
	rc = read_answers(s, &r, err);
	tv_reader_close(&r);
	return rc;
}

int tageval_scorer_read_buffer(struct tageval_scorer *s, const char *data, size_t size,
			       const char *name, struct tageval_error *err)
{
	struct tv_reader r;
	int rc = tv_reader_open_buffer(&r, data, size, name, err);
	if (rc)
		return rc;
	rc = read_answers(s, &r, err);
	tv_reader_close(&r);
	return rc;
}

int tageval_scorer_add(struct tageval_scorer *s, const char *lexelt, const char *instance,
		       const char *const *tags, const double *weights, size_t ntags,
		       struct tageval_error *err)
{
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
			     .inst = inst < s->key->ninst ? inst : TV_NONE };
	int rc = score_line(s, &l, err);
	if (field != small)
		free(field);
	return rc;
}
