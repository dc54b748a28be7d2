/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The results report: systems scored once per granularity, every answer's
 * credit added to all the subsets of its instance from the scorer's
 * per-answer events; the user's subsets; the queries and summaries.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-key.h"
#include "tageval-reader.h"
#include "tageval-report.h"
#include "tageval-score.h"
#include "tageval-util.h"

static void system_clear(struct tv_system *s)
{
	free(s->name);
	free(s->cell);
	free(s->credit);
}

void tageval_report_free(struct tageval_report *r)
{
	if (r == NULL)
		return;
	for (size_t l = 0; l < r->nlex; l++) {
		free(r->lex[l].name);
		free(r->lex[l].senses);
		free(r->lex[l].main);
		free(r->lex[l].common);
	}
	free(r->lex);
	for (size_t k = 0; k < r->nsub; k++) {
		free(r->sub[k].name);
		free(r->sub[k].member);
	}
	free(r->sub);
	for (size_t k = 0; k < r->nsys; k++)
		system_clear(&r->sys[k]);
	free(r->sys);
	free(r->inst_lexelt);
	free(r->single);
	free(r->lexmark);
	free(r->inst_off);
	free(r->inst_sub);
	free(r->idbuf);
	free(r->credit_order);
	free(r);
}

/* The map line that first gives a tag a second parent (the map's name is the caller's). */
static int dag_error(const struct tageval_inventory *inv, struct tageval_error *err)
{
	uint64_t line = 0;
	uint32_t tag = 0, parent = 0;
	for (size_t t = 0; t < inv->nnode; t++) {
		const struct tv_node *n = &inv->node[t];
		if (n->parents.n < 2)
			continue;
		uint64_t l = inv->edge_line.v[n->pseq.v[1]];
		if (line == 0 || l < line) {
			line = l;
			tag = (uint32_t)t;
			parent = n->parents.v[1];
		}
	}
	char qt[80], qp[80];
	const char *st = tv_inventory_name(inv, tag), *sp = tv_inventory_name(inv, parent);
	tv_quote(qt, sizeof qt, st, strlen(st));
	tv_quote(qp, sizeof qp, sp, strlen(sp));
	return tv_error(err, TAGEVAL_EFORMAT, "", line,
			"tag \"%s\" has a second parent \"%s\": the report needs a "
			"tree-shaped sense map", qt, qp);
}

int tageval_report_new(struct tageval_inventory *inv, const struct tageval_key *key,
		       const struct tageval_key *train, struct tageval_report **out,
		       struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, inv, "inv");
	TV_NEED(err, key, "key");
	if (key->inv != inv || (train && train->inv != inv))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the keys must be read with the report's inventory");
	if (inv->dag)
		return dag_error(inv, err);
	if (key->ninst > UINT32_MAX - 1)
		return tv_nomem(err);
	struct tageval_report *r = calloc(1, sizeof *r);
	if (r == NULL)
		return tv_nomem(err);
	r->inv = inv;
	r->key = key;
	r->train = train;
	r->gran[r->ngran++] = TAGEVAL_FINE;
	if (inv->have_map) {
		r->gran[r->ngran++] = TAGEVAL_MIXED;
		r->gran[r->ngran++] = TAGEVAL_COARSE;
	}
	int rc = tv_report_lexelts(r, err);
	if (rc == TAGEVAL_OK)
		rc = tv_report_subsets(r, err);
	if (rc) {
		tageval_report_free(r);
		return rc;
	}
	*out = r;
	return TAGEVAL_OK;
}

/* ------------------------------------------------------------ user subsets */

static int name_taken(const struct tageval_report *r, const char *name)
{
	for (size_t k = 0; k < r->nsub; k++)
		if (strcmp(r->sub[k].name, name) == 0)
			return 1;
	return 0;
}

static int by_index(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int read_subset(struct tageval_report *r, const char *name, struct tv_reader *rd,
		       struct tageval_error *err)
{
	uint32_t *m = NULL;
	size_t n = 0, cap = 0;
	int rc, got;
	while ((rc = tv_reader_next(rd, &got, err)) == TAGEVAL_OK && got) {
		if (rd->nfield == 0)
			continue;
		if (rd->nfield == 1) {
			rc = tv_error(err, TAGEVAL_EFORMAT, rd->name, rd->lineno,
				      "missing instance id");
			break;
		}
		size_t len = tv_join_id(&r->idbuf, &r->idcap, rd->field[0], rd->field[1]);
		uint32_t i;
		if (len == (size_t)-1 || tv_grow((void **)&m, &cap, n + 1, sizeof *m)) {
			rc = tv_nomem(err);
			break;
		}
		if (!tv_intern_find(&r->key->ids, r->idbuf, len, &i)) {
			char a[80], b[80];
			tv_quote(a, sizeof a, rd->field[0], strlen(rd->field[0]));
			tv_quote(b, sizeof b, rd->field[1], strlen(rd->field[1]));
			rc = tv_error(err, TAGEVAL_EFORMAT, rd->name, rd->lineno,
				      "instance \"%s %s\" is not in the key", a, b);
			break;
		}
		m[n++] = i;
	}
	if (rc == TAGEVAL_OK && n == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, rd->name, 0, "no instances");
	if (rc == TAGEVAL_OK) {
		qsort(m, n, sizeof *m, by_index);
		size_t k = 0;
		for (size_t j = 0; j < n; j++)
			if (k == 0 || m[k - 1] != m[j])
				m[k++] = m[j];
		if (tv_report_push_subset(r, name, TAGEVAL_SUBSET_USER, m, k))
			rc = tv_nomem(err);
	}
	if (rc) {
		free(m);
		return rc;
	}
	/* user subsets come before the lexelts' */
	struct tv_subset s = r->sub[r->nsub - 1];
	memmove(&r->sub[r->nfixed + 1], &r->sub[r->nfixed],
		(r->nsub - 1 - r->nfixed) * sizeof *r->sub);
	r->sub[r->nfixed++] = s;
	return TAGEVAL_OK;
}

static int subset_allowed(const struct tageval_report *r, const char *name, const char *source,
			  struct tageval_error *err)
{
	if (r->frozen)
		return tv_error(err, TAGEVAL_EINVAL, source, 0,
				"subsets must be added before any system");
	if (name == NULL || name[0] == '\0')
		return tv_error(err, TAGEVAL_EINVAL, source, 0, "a subset needs a name");
	if (name_taken(r, name))
		return tv_error(err, TAGEVAL_EINVAL, source, 0, "there is already a subset \"%s\"",
				name);
	return TAGEVAL_OK;
}

int tageval_report_add_subset(struct tageval_report *r, const char *name, const char *path,
			      struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	TV_NEED(err, name, "name");
	TV_NEED(err, path, "path");
	int rc = subset_allowed(r, name, path, err);
	if (rc)
		return rc;
	struct tv_reader rd;
	if ((rc = tv_reader_open(&rd, path, err)))
		return rc;
	rc = read_subset(r, name, &rd, err);
	tv_reader_close(&rd);
	return rc;
}

int tageval_report_add_subset_buffer(struct tageval_report *r, const char *name,
				     const char *data, size_t size, const char *source,
				     struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	TV_NEED(err, name, "name");
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", __func__);
	TV_NEED(err, source, "name");
	int rc = subset_allowed(r, name, source, err);
	if (rc)
		return rc;
	struct tv_reader rd;
	if ((rc = tv_reader_open_buffer(&rd, data, size, source, err)))
		return rc;
	rc = read_subset(r, name, &rd, err);
	tv_reader_close(&rd);
	return rc;
}

/* ------------------------------------------------------------ scoring */

/* Lists the subsets of every instance (done once, before the first system). */
static int freeze(struct tageval_report *r)
{
	if (r->frozen)
		return TAGEVAL_OK;
	size_t ninst = r->key->ninst, total = 0;
	r->inst_off = calloc(ninst + 2, sizeof *r->inst_off);
	if (r->inst_off == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t k = 0; k < r->nsub; k++) {
		total += r->sub[k].n;
		for (size_t j = 0; j < r->sub[k].n; j++)
			r->inst_off[r->sub[k].member[j] + 2]++;
	}
	if (total > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	for (size_t i = 0; i < ninst; i++)
		r->inst_off[i + 2] += r->inst_off[i + 1];
	r->inst_sub = malloc((total ? total : 1) * sizeof *r->inst_sub);
	if (r->inst_sub == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t k = 0; k < r->nsub; k++)
		for (size_t j = 0; j < r->sub[k].n; j++)
			r->inst_sub[r->inst_off[r->sub[k].member[j] + 1]++] = (uint32_t)k;
	r->frozen = 1;
	return TAGEVAL_OK;
}

static struct tv_fsum *cell_at(const struct tageval_report *r, const struct tv_system *s, size_t sub,
		       size_t g, int minimal)
{
	return s->cell + ((sub * r->ngran + g) * 2 + (minimal ? 1 : 0)) * 2;
}

/* The scorer's event: the answer's credit and mass go to every subset of its instance. */
static void on_answer(const struct tageval_answer_event *ev, void *userdata)
{
	const struct tv_gctx *ctx = userdata;
	struct tageval_report *r = ctx->r;
	size_t g = ctx->g;
	if (ev->status != TAGEVAL_ANSWER_SCORED || r->oom)
		return;
	size_t i = ev->index; /* a scored answer is in the key */
	int single = (r->single[i] >> g) & 1u;
	if (r->cur->credit != NULL) {
		r->cur->credit[(i * r->ngran + g) * 2] = ev->score;
		r->cur->credit[(i * r->ngran + g) * 2 + 1] = ev->attempted;
	}
	for (uint32_t k = r->inst_off[i]; k < r->inst_off[i + 1]; k++) {
		struct tv_fsum *c = cell_at(r, r->cur, r->inst_sub[k], g, 0);
		tv_fsum_add(&c[0], ev->score);
		tv_fsum_add(&c[1], ev->attempted);
		if (single) {
			tv_fsum_add(&c[2], ev->score);
			tv_fsum_add(&c[3], ev->attempted);
		}
	}
}

static int system_allowed(const struct tageval_report *r, const char *name,
			  struct tageval_error *err)
{
	if (name == NULL || name[0] == '\0')
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "a system needs a name");
	for (size_t k = 0; k < r->nsys; k++)
		if (strcmp(r->sys[k].name, name) == 0)
			return tv_error(err, TAGEVAL_EINVAL, "", 0,
					"two systems are called \"%s\"", name);
	return TAGEVAL_OK;
}

/* Starts a new system (not counted until tv_system_commit). */
static int system_begin(struct tageval_report *r, const char *name, int baseline,
			struct tageval_error *err)
{
	int rc = system_allowed(r, name, err);
	if (rc)
		return rc;
	if (freeze(r) ||
	    tv_grow((void **)&r->sys, &r->syscap, r->nsys + 1, sizeof *r->sys))
		return tv_nomem(err);
	struct tv_system *s = &r->sys[r->nsys];
	memset(s, 0, sizeof *s);
	s->baseline = baseline;
	s->name = strdup(name);
	s->cell = calloc(r->nsub * r->ngran * 4 + 1, sizeof *s->cell);
	if (r->keep_credits)
		s->credit = calloc(r->key->ninst * r->ngran * 2 + 1, sizeof *s->credit);
	if (s->name == NULL || s->cell == NULL || (r->keep_credits && s->credit == NULL)) {
		system_clear(s);
		return tv_nomem(err);
	}
	return TAGEVAL_OK;
}

/* One scorer per granularity, side by side; @feed gives them the answers,
 * each answer to every scorer, so that a file is read once. */
typedef int (*feed_fn)(struct tageval_report *r, struct tageval_scorer *const *sc,
		       const void *arg, struct tageval_error *err);

static int score_system(struct tageval_report *r, const char *name, int baseline, feed_fn feed,
			const void *arg, struct tageval_error *err)
{
	int rc = system_begin(r, name, baseline, err);
	if (rc)
		return rc;
	struct tv_system *s = &r->sys[r->nsys];
	struct tageval_scorer *sc[TV_MAX_GRAN] = { NULL };
	r->cur = s;
	r->oom = 0;
	for (size_t g = 0; g < r->ngran && rc == TAGEVAL_OK; g++) {
		struct tageval_score_options o;
		tageval_score_options_init(&o);
		o.granularity = r->gran[g];
		o.on_answer = on_answer;
		r->gctx[g].r = r;
		r->gctx[g].g = g;
		o.userdata = &r->gctx[g];
		rc = tageval_scorer_new(r->inv, r->key, &o, &sc[g], err);
	}
	if (rc == TAGEVAL_OK)
		rc = feed(r, sc, arg, err);
	if (rc == TAGEVAL_OK && r->oom)
		rc = tv_nomem(err);
	for (size_t g = 0; g < r->ngran; g++) {
		if (rc == TAGEVAL_OK)
			tageval_scorer_result(sc[g], &s->score[g]);
		tageval_scorer_free(sc[g]);
	}
	r->cur = NULL;
	if (rc) {
		system_clear(s);
		return rc;
	}
	r->nsys++;
	return TAGEVAL_OK;
}

static int feed_file(struct tageval_report *r, struct tageval_scorer *const *sc, const void *arg,
		     struct tageval_error *err)
{
	struct tv_reader rd;
	int rc = tv_reader_open(&rd, arg, err);
	if (rc)
		return rc;
	rc = tv_scorers_read(sc, r->ngran, &rd, err);
	tv_reader_close(&rd);
	return rc;
}

struct buffer {
	const char *data;
	size_t size;
	const char *source;
};

static int feed_buffer(struct tageval_report *r, struct tageval_scorer *const *sc,
		       const void *arg, struct tageval_error *err)
{
	const struct buffer *b = arg;
	struct tv_reader rd;
	int rc = tv_reader_open_buffer(&rd, b->data, b->size, b->source, err);
	if (rc)
		return rc;
	rc = tv_scorers_read(sc, r->ngran, &rd, err);
	tv_reader_close(&rd);
	return rc;
}

int tageval_report_add_system(struct tageval_report *r, const char *name, const char *path,
			      struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	TV_NEED(err, name, "name");
	TV_NEED(err, path, "path");
	return score_system(r, name, 0, feed_file, path, err);
}

int tageval_report_add_system_buffer(struct tageval_report *r, const char *name,
				     const char *data, size_t size, const char *source,
				     struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	TV_NEED(err, name, "name");
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", __func__);
	struct buffer b = { data, size, source ? source : name };
	return score_system(r, name, 0, feed_buffer, &b, err);
}

const char *tageval_baseline_name(enum tageval_baseline which)
{
	switch (which) {
	case TAGEVAL_BASELINE_RANDOM:
		return "random";
	case TAGEVAL_BASELINE_RANDOM_MAIN:
		return "random-main";
	case TAGEVAL_BASELINE_COMMONEST:
		return "commonest";
	}
	return NULL;
}

/* The baseline's answer for every test instance, in key order, to the
 * scorer of every granularity.  Each lexelt's answer is prepared once per
 * scorer (tv_spread), so that an item costs its key tags rather than the
 * lexelt's senses. */
static int feed_baseline(struct tageval_report *r, struct tageval_scorer *const *sc,
			 const void *arg, struct tageval_error *err)
{
	enum tageval_baseline which = *(const enum tageval_baseline *)arg;
	size_t nl = r->nlex ? r->nlex : 1, ng = r->ngran ? r->ngran : 1;
	struct tv_spread *sp = calloc(nl * ng, sizeof *sp);
	uint8_t *ready = calloc(nl, 1);
	int rc = sp && ready ? TAGEVAL_OK : tv_nomem(err);
	for (size_t i = 0; i < r->key->ninst && rc == TAGEVAL_OK; i++) {
		uint32_t l = r->inst_lexelt[i];
		const struct tv_lexelt *lx = &r->lex[l];
		const uint32_t *tags = which == TAGEVAL_BASELINE_RANDOM ? lx->senses
				       : which == TAGEVAL_BASELINE_RANDOM_MAIN ? lx->main
									       : lx->common;
		size_t n = which == TAGEVAL_BASELINE_RANDOM ? lx->nsenses
			   : which == TAGEVAL_BASELINE_RANDOM_MAIN ? lx->nmain
								   : lx->ncommon;
		if (n == 0)
			continue; /* abstains */
		if (!ready[l]) {
			for (size_t g = 0; g < r->ngran && rc == TAGEVAL_OK; g++)
				rc = tv_spread_prepare(sc[g], tags, n, &sp[l * ng + g], err);
			if (rc)
				break;
			ready[l] = 1;
		}
		const char *id = tv_intern_str(&r->key->ids, (uint32_t)i);
		const char *instance = id + r->key->inst[i].lexelt_len + 1;
		/* unweighted: the scorer spreads the answer uniformly; the key's
		 * instance i, by its index rather than its name */
		for (size_t g = 0; g < r->ngran && rc == TAGEVAL_OK; g++)
			rc = tv_scorer_add_spread(sc[g], (uint32_t)i, lx->name, instance,
						  &sp[l * ng + g], tags, n, err);
	}
	for (size_t k = 0; sp && k < nl * ng; k++)
		tv_spread_clear(&sp[k]);
	free(sp);
	free(ready);
	return rc;
}

int tageval_report_add_baseline(struct tageval_report *r, enum tageval_baseline which,
				struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	const char *name = tageval_baseline_name(which);
	if (name == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "unknown baseline %d", (int)which);
	if (which == TAGEVAL_BASELINE_COMMONEST && r->train == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the commonest baseline needs a training key");
	return score_system(r, name, 1, feed_baseline, &which, err);
}

/* ------------------------------------------------------------ queries */

size_t tageval_report_granularities(const struct tageval_report *r)
{
	TV_NULL_RET(r, 0);
	return r->ngran;
}

enum tageval_granularity tageval_report_granularity(const struct tageval_report *r, size_t i)
{
	TV_NULL_RET(r, TAGEVAL_FINE);
	return i < r->ngran ? r->gran[i] : TAGEVAL_FINE;
}

size_t tageval_report_systems(const struct tageval_report *r)
{
	TV_NULL_RET(r, 0);
	return r->nsys;
}

const char *tageval_report_system_name(const struct tageval_report *r, size_t i)
{
	TV_NULL_RET(r, NULL);
	return i < r->nsys ? r->sys[i].name : NULL;
}

int tageval_report_system_is_baseline(const struct tageval_report *r, size_t i)
{
	TV_NULL_RET(r, 0);
	return i < r->nsys && r->sys[i].baseline;
}

int tageval_report_system_score(const struct tageval_report *r, size_t i, size_t g,
				struct tageval_score *out)
{
	TV_NULL_RET(r, TAGEVAL_EINVAL);
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	if (i >= r->nsys || g >= r->ngran)
		return TAGEVAL_EINVAL;
	*out = r->sys[i].score[g];
	return TAGEVAL_OK;
}

size_t tageval_report_subsets(const struct tageval_report *r)
{
	TV_NULL_RET(r, 0);
	return r->nsub;
}

const struct tageval_report_subset *tageval_report_subset(const struct tageval_report *r,
							  size_t i)
{
	TV_NULL_RET(r, NULL);
	return i < r->nsub ? &r->sub[i].pub : NULL;
}

int tageval_report_find_subset(const struct tageval_report *r, const char *name, size_t *i)
{
	TV_NULL_RET(r, TAGEVAL_EINVAL);
	TV_NULL_RET(name, TAGEVAL_EINVAL);
	TV_NULL_RET(i, TAGEVAL_EINVAL);
	for (size_t k = 0; k < r->nsub; k++)
		if (strcmp(r->sub[k].name, name) == 0) {
			*i = k;
			return TAGEVAL_OK;
		}
	return TAGEVAL_ENOTFOUND;
}

size_t tageval_report_lexelts(const struct tageval_report *r)
{
	TV_NULL_RET(r, 0);
	return r->nlex;
}

const struct tageval_report_lexelt *tageval_report_lexelt(const struct tageval_report *r,
							  size_t i)
{
	TV_NULL_RET(r, NULL);
	return i < r->nlex ? &r->lex[i].pub : NULL;
}

void tageval_report_medians(const struct tageval_report *r, double *polysemy, double *entropy)
{
	TV_NULL_RET(r, );
	if (polysemy)
		*polysemy = r->median_polysemy;
	if (entropy)
		*entropy = r->median_entropy;
}

static double ratio(double num, double den)
{
	return den == 0.0 ? NAN : num / den;
}

int tageval_report_cell(const struct tageval_report *r, size_t subset, size_t system, size_t g,
			int minimal, struct tageval_report_cell *out)
{
	TV_NULL_RET(r, TAGEVAL_EINVAL);
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	if (subset >= r->nsub || system >= r->nsys || g >= r->ngran)
		return TAGEVAL_EINVAL;
	const struct tv_fsum *c = cell_at(r, &r->sys[system], subset, g, minimal);
	out->correct = tv_fsum_result(&c[0]);
	out->attempted = tv_fsum_result(&c[1]);
	out->total = r->sub[subset].total[g][minimal ? 1 : 0];
	out->precision = ratio(out->correct, out->attempted);
	out->recall = ratio(out->correct, out->total);
	return TAGEVAL_OK;
}

/* 1 when cell @a ranks above cell @b: higher precision, then higher recall. */
static int above(const struct tageval_report_cell *a, const struct tageval_report_cell *b)
{
	if (a->precision != b->precision)
		return a->precision > b->precision;
	return a->recall > b->recall;
}

int tageval_report_summarize(const struct tageval_report *r, size_t subset, size_t g,
			     int minimal, struct tageval_report_summary *out)
{
	TV_NULL_RET(r, TAGEVAL_EINVAL);
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	if (subset >= r->nsub || g >= r->ngran)
		return TAGEVAL_EINVAL;
	memset(out, 0, sizeof *out);
	out->best = out->worst = TAGEVAL_REPORT_NONE;
	double p = 0.0, rec = 0.0, att = 0.0;
	struct tageval_report_cell best = { 0 }, worst = { 0 };
	for (size_t k = 0; k < r->nsys; k++) {
		if (r->sys[k].baseline)
			continue;
		struct tageval_report_cell c;
		tageval_report_cell(r, subset, k, g, minimal, &c);
		out->systems++;
		rec += c.recall;
		att += c.attempted;
		if (isnan(c.precision))
			continue;
		out->ranked++;
		p += c.precision;
		/* strictly better or worse: ties keep the earlier system */
		if (out->best == TAGEVAL_REPORT_NONE || above(&c, &best)) {
			out->best = k;
			best = c;
		}
		if (out->worst == TAGEVAL_REPORT_NONE || above(&worst, &c)) {
			out->worst = k;
			worst = c;
		}
	}
	out->precision = out->ranked ? p / (double)out->ranked : NAN;
	out->recall = out->systems ? rec / (double)out->systems : NAN;
	out->attempted = out->systems ? att / (double)out->systems : NAN;
	return TAGEVAL_OK;
}

int tageval_report_keep_credits(struct tageval_report *r, struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	if (r->nsys > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"%s: after a system or baseline was added", __func__);
	size_t n = r->key->ninst;
	if (n > SIZE_MAX / 2 / TV_MAX_GRAN / sizeof(double) || n >= UINT32_MAX)
		return tv_nomem(err);
	if (r->credit_order == NULL) {
		/* the order of the ids, not of the lines: the same draws, whatever
		 * the order of the key's lines */
		r->credit_order = malloc((n + 1) * sizeof *r->credit_order);
		if (r->credit_order == NULL)
			return tv_nomem(err);
		for (size_t i = 0; i < n; i++)
			r->credit_order[i] = (uint32_t)i;
		if (r->key->ids.n == n) { /* instance i has id i (interned in order) */
			struct tv_sort_name *tmp = malloc((2 * n + 1) * sizeof *tmp);
			if (tmp == NULL) {
				free(r->credit_order);
				r->credit_order = NULL;
				return tv_nomem(err);
			}
			tv_intern_sort_ids(&r->key->ids, r->credit_order, n, tmp);
			free(tmp);
		}
	}
	r->keep_credits = 1;
	return TAGEVAL_OK;
}

int tageval_report_credits(const struct tageval_report *r, size_t system, size_t g,
			   double *credit, double *attempted, struct tageval_error *err)
{
	TV_NEED(err, r, "report");
	TV_NEED(err, credit, "credit");
	TV_NEED(err, attempted, "attempted");
	if (system >= r->nsys || g >= r->ngran)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: no system %zu or granularity %zu",
				__func__, system, g);
	const double *c = r->sys[system].credit;
	if (c == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"%s: the credits were not kept (tageval_report_keep_credits)",
				__func__);
	for (size_t j = 0; j < r->key->ninst; j++) {
		size_t i = r->credit_order[j];
		credit[j] = c[(i * r->ngran + g) * 2];
		attempted[j] = c[(i * r->ngran + g) * 2 + 1];
	}
	return TAGEVAL_OK;
}
