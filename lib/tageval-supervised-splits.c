/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Supervised evaluation of induced senses: the gold instances grouped by
 * word, and their splits into a mapping and a test part, read from files
 * or drawn (folds, random splits).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "tageval-intern.h"
#include "tageval-parallel.h"
#include "tageval-reader.h"
#include "tageval-rng.h"
#include "tageval-supervised.h"
#include "tageval-util.h"
#include "tageval-wsi.h"

void tageval_supervised_free(struct tageval_supervised *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nsplits; i++) {
		free(s->splits[i].role);
		free(s->splits[i].lab_first);
		free(s->splits[i].lab_n);
		free(s->splits[i].pool);
	}
	free(s->splits);
	free(s->fused);
	tv_intern_clear(&s->senses);
	free(s->gpool);
	free(s->gpool16);
	free(s->gfirst);
	free(s->selected);
	free(s->g);
	free(s->gkind);
	free(s->label_sense);
	if (!s->borrowed) {
		free(s->start);
		free(s->order);
	}
	free(s->pos);
	free(s);
}

size_t tageval_supervised_splits(const struct tageval_supervised *s)
{
	TV_NULL_RET(s, 0);
	return s->nsplits;
}

/* A sense name as the supervised evaluation knows it. */
/* The sense id of a gold label (the labels of the wsi object carry a kind prefix). */
static int sense_of(struct tageval_supervised *s, uint32_t wsi_label, uint32_t *id)
{
	if (s->label_sense[wsi_label] != 0) {
		*id = s->label_sense[wsi_label] - 1;
		return TAGEVAL_OK;
	}
	const char *name = tv_intern_str(&s->w->labels, wsi_label) + 1;
	if (tv_intern_put(&s->senses, name, strlen(name), id, NULL))
		return TAGEVAL_ENOMEM;
	s->label_sense[wsi_label] = *id + 1;
	return TAGEVAL_OK;
}

/* The clusters of instance @inst, at grouped position @p, from the wsi
 * object, its pooled labels where they are in the wsi object's sys_pool. */
static void copy_sys(struct tageval_supervised *s, size_t p, uint32_t inst)
{
	const struct tageval_wsi *w = s->w;
	uint32_t sys_n = tv_wsi_sys_n(w, inst), sys_first = tv_wsi_sys_first(w, inst);
	if (sys_first == TV_NONE || sys_n == 0) {
		s->g[p].v = w->cl_j[inst]; /* a single cluster of weight 1, or none */
		s->gkind[p] = sys_n == 0 ? TV_G_NONE : TV_G_ONE;
	} else {
		s->g[p].v = sys_first;
		s->gkind[p] = TV_G_POOLED;
	}
}

/* How many instances ahead copy_sys_ahead() prefetches. */
enum { COPY_AHEAD = 16 };

/* The pooled labels of instance @inst, if any, to be prefetched: copy_sys()
 * reads their number, in sys_pool in the order of the lines, not the
 * instances' (a cache miss each: 7 in 10 of copy_grouped()'s time without
 * the prefetch); NULL otherwise.  (The prefetch is written in the loops, as
 * sys_ahead()'s in tageval-supervised-map.c: GCC 12 dropped it from a helper.) */
static inline const void *copy_sys_ahead(const struct tageval_wsi *w, size_t inst)
{
	return inst < w->n && (w->sflags[inst] & TV_WF_POOLED) ? &w->sys_pool[w->cl_j[inst]]
							       : NULL;
}

/*
 * The copies in the grouped order are made in parts, ranges of instances
 * in their own order (tv_parallel()): each instance goes to the next
 * position of its word, which is where s->order has it (tv_wsi_group(), a
 * stable counting sort: word v's instances in increasing order from
 * start[v] on), so that a part's first position for word v is found in
 * s->order by a binary search.  A copy in the grouped order read the wsi
 * object's arrays at random (a word's instances some 100 apart in
 * 1,000,000 of 100 words).  At most COPY_PARTS parts of COPY_PART_MIN
 * instances or more, fixed numbers (not the CPUs'), and few enough that
 * their searches (one a word) cost little beside the copy.  Each position
 * is written by the part of its instance alone: the copies are the same
 * bytes whatever the parts.
 */
enum { COPY_PARTS = 8, COPY_PART_MIN = 8192 };

/* The passes of copy_part(). */
enum { COPY_SYS, COPY_FIRST, COPY_GOLD };

struct copy_job {
	struct tageval_supervised *s;
	int pass;      /* COPY_SYS: the clusters alone (tv_supervised_reload());
			* COPY_FIRST: and the gold label or, with gfirst, the
			* count of each; COPY_GOLD: the labels at gfirst */
	int narrow;
	size_t nparts;
	int rc[COPY_PARTS];
};

static size_t copy_parts(const struct tageval_wsi *w)
{
	size_t n = w->n / COPY_PART_MIN;
	if (n > COPY_PARTS)
		n = COPY_PARTS;
	while (n > 1 && n * w->words.n > w->n / 8)
		n--;
	return n ? n : 1;
}

/* Each word's first grouped position of an instance @lo or later, into @cur
 * (room for a word each). */
static void part_cursor(const struct tageval_supervised *s, uint32_t lo, uint32_t *cur)
{
	if (lo == 0) {
		memcpy(cur, s->start, s->w->words.n * sizeof *cur);
		return;
	}
	for (size_t v = 0; v < s->w->words.n; v++) {
		uint32_t a = s->start[v], b = s->start[v + 1];
		while (a < b) {
			uint32_t mid = a + (b - a) / 2;
			if (s->order[mid] < lo)
				a = mid + 1;
			else
				b = mid;
		}
		cur[v] = a;
	}
}

/* A gold label (a wsi label id, then its sense id) at @at in the pool
 * (@narrow: of 16 bits). */
static void put_gold(struct tageval_supervised *s, int narrow, size_t at, uint32_t label)
{
	if (narrow)
		s->gpool16[at] = (uint16_t)label; /* a gold label: below gold_labels */
	else
		s->gpool[at] = label;
}

/* Instances [lo, hi) of pass @pass (COPY_*), from cursors @cur. */
static void copy_range(struct tageval_supervised *s, int pass, int narrow, uint32_t lo,
		       uint32_t hi, uint32_t *cur)
{
	const struct tageval_wsi *w = s->w;
	for (uint32_t inst = lo; inst < hi; inst++) {
		const struct tv_winst *in = &w->in[inst];
		uint32_t p = cur[in->word]++;
		if (pass == COPY_GOLD) {
			const uint32_t *gold = tv_wsi_gold(w->gold_pool, in);
			for (uint32_t j = 0, nl = tv_wsi_gold_n(w->gold_pool, in); j < nl; j++)
				put_gold(s, narrow, (size_t)s->gfirst[p] + j, gold[j]);
			continue;
		}
		const void *ahead = copy_sys_ahead(w, (size_t)inst + COPY_AHEAD);
		if (ahead != NULL)
			__builtin_prefetch(ahead);
		copy_sys(s, p, inst);
		if (pass == COPY_SYS)
			continue;
		if (s->gfirst != NULL) /* the count for now, the first after */
			s->gfirst[p] = tv_wsi_gold_n(w->gold_pool, in);
		else
			put_gold(s, narrow, p, tv_wsi_gold(w->gold_pool, in)[0]);
	}
}

static void copy_part(void *ctx, size_t i)
{
	struct copy_job *job = ctx;
	struct tageval_supervised *s = job->s;
	size_t n = s->w->n;
	uint32_t *cur = malloc((s->w->words.n ? s->w->words.n : 1) * sizeof *cur);
	job->rc[i] = cur == NULL ? TAGEVAL_ENOMEM : TAGEVAL_OK;
	if (cur != NULL) {
		uint32_t lo = (uint32_t)(n * i / job->nparts);
		part_cursor(s, lo, cur);
		copy_range(s, job->pass, job->narrow, lo, (uint32_t)(n * (i + 1) / job->nparts),
			   cur);
	}
	free(cur);
}

/* One pass (COPY_*) over all the instances, in parts. */
static int copy_pass(struct tageval_supervised *s, int pass, int narrow)
{
	struct copy_job job = { s, pass, narrow, copy_parts(s->w), { 0 } };
	tv_parallel(job.nparts, copy_part, &job);
	for (size_t i = 0; i < job.nparts; i++)
		if (job.rc[i])
			return TAGEVAL_ENOMEM;
	return TAGEVAL_OK;
}

/*
 * The instances' clusters and gold labels in the grouped order, the labels
 * as sense ids, interned in the grouped order (as a copy in that order
 * interned them: the senses' ids are the same).  @nlab gold labels in all;
 * s->gfirst made when some instance has more than one.
 */
static int copy_grouped(struct tageval_supervised *s, int narrow, size_t nlab)
{
	const struct tageval_wsi *w = s->w;
	if (copy_pass(s, COPY_FIRST, narrow))
		return TAGEVAL_ENOMEM;
	if (s->gfirst != NULL) {
		size_t ngold = 0;
		for (size_t p = 0; p < w->n; p++) {
			uint32_t c = s->gfirst[p];
			s->gfirst[p] = (uint32_t)ngold;
			ngold += c;
		}
		s->gfirst[w->n] = (uint32_t)ngold;
		if (copy_pass(s, COPY_GOLD, narrow))
			return TAGEVAL_ENOMEM;
	}
	for (size_t i = 0; i < nlab; i++) {
		uint32_t id;
		if (sense_of(s, narrow ? s->gpool16[i] : s->gpool[i], &id))
			return TAGEVAL_ENOMEM;
		put_gold(s, narrow, i, id); /* below 65,536 when narrow */
	}
	return TAGEVAL_OK;
}

int tageval_supervised_new(const struct tageval_wsi *w, const char *pos,
			   struct tageval_supervised **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, w, "wsi");
	return tv_supervised_new_grouped(w, pos, NULL, NULL, out, err);
}

int tv_supervised_new_grouped(const struct tageval_wsi *w, const char *pos,
			      const uint32_t *start, const uint32_t *order,
			      struct tageval_supervised **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, w, "wsi");
	if (!w->have_gold || !w->have_system)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"read the gold key and the clusters first");
	struct tageval_supervised *s = calloc(1, sizeof *s);
	if (s == NULL)
		return tv_nomem(err);
	s->w = w;
	tv_intern_init(&s->senses);
	size_t n = w->n ? w->n : 1;
	size_t nlab = 0;
	for (size_t i = 0; i < w->n; i++)
		nlab += tv_wsi_gold_n(w->gold_pool, &w->in[i]);
	/* the senses come from the gold labels, at most one each */
	int narrow = w->gold_labels <= (size_t)UINT16_MAX + 1;
	if (narrow)
		s->gpool16 = malloc((nlab ? nlab : 1) * sizeof *s->gpool16);
	else
		s->gpool = malloc((nlab ? nlab : 1) * sizeof *s->gpool);
	if (nlab != w->n && (s->gfirst = malloc((w->n + 1) * sizeof *s->gfirst)) == NULL)
		goto nomem;
	s->selected = calloc(w->words.n ? w->words.n : 1, 1);
	s->g = malloc(n * sizeof *s->g);
	s->gkind = malloc(n);
	s->label_sense = calloc(w->labels.n ? w->labels.n : 1, sizeof *s->label_sense);
	if (pos)
		s->pos = strdup(pos);
	if (start != NULL) { /* borrowed: never written */
		s->borrowed = 1;
		s->start = (uint32_t *)start;
		s->order = (uint32_t *)order;
	}
	if ((narrow ? !s->gpool16 : !s->gpool) || !s->selected || !s->g || !s->gkind || !s->label_sense || (pos && !s->pos) ||
	    (start == NULL && tv_wsi_group(w, &s->start, &s->order)))
		goto nomem;
	/* copies in the grouped order; gold labels as sense ids */
	s->gsys = w->sys_pool;
	if (copy_grouped(s, narrow, nlab))
		goto nomem;
	size_t nsel = 0;
	for (size_t word = 0; word < w->words.n; word++) {
		s->selected[word] = (uint8_t)tv_wsi_pos_match(tv_intern_str(&w->words, (uint32_t)word),
							      s->pos);
		nsel += s->selected[word];
	}
	if (nsel == 0) {
		tageval_supervised_free(s);
		return tv_error(err, TAGEVAL_EFORMAT, "", 0, "no target word selected");
	}
	*out = s;
	return TAGEVAL_OK;
nomem:
	tageval_supervised_free(s);
	return tv_nomem(err);
}

void tv_supervised_unload(struct tageval_supervised *s)
{
	free(s->fused);
	s->fused = NULL;
	free(s->g);
	free(s->gkind);
	s->g = NULL;
	s->gkind = NULL;
}

int tv_supervised_reload(struct tageval_supervised *s)
{
	const struct tageval_wsi *w = s->w;
	free(s->fused); /* the figures of the clusters before */
	s->fused = NULL;
	if (s->g == NULL && (s->g = malloc((w->n ? w->n : 1) * sizeof *s->g)) == NULL)
		return TAGEVAL_ENOMEM;
	if (s->gkind == NULL && (s->gkind = malloc(w->n ? w->n : 1)) == NULL)
		return TAGEVAL_ENOMEM;
	s->gsys = w->sys_pool;
	return copy_pass(s, COPY_SYS, 0);
}

static struct split *new_split(struct tageval_supervised *s)
{
	if (tv_grow((void **)&s->splits, &s->splitcap, s->nsplits + 1, sizeof *s->splits))
		return NULL;
	free(s->fused); /* taken without this split */
	s->fused = NULL;
	struct split *sp = &s->splits[s->nsplits];
	memset(sp, 0, sizeof *sp);
	sp->role = calloc(tv_roles_size(s->w->n), 1);
	if (sp->role == NULL)
		return NULL;
	s->nsplits++;
	return sp;
}

/* ------------------------------------------------------------ splits from files */

/* One split file being read: @line[idx] receives the line of each instance
 * (for the messages about an instance listed twice). */
struct split_reading {
	struct tageval_supervised *s;
	struct split *sp;
	int role;
	uint64_t *line;
	const char *mapping_name;
};

static int split_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	const struct split_reading *rd = ctx;
	struct tageval_supervised *s = rd->s;
	struct split *sp = rd->sp;
	const struct tageval_wsi *w = s->w;
	char q[80];
	if (l->nfield < 3) {
		if (l->nfield == 1)
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"missing instance id");
		tv_quote(q, sizeof q, l->field[1], strlen(l->field[1]));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" has no label", q);
	}
	const char *inst = l->field[1];
	uint32_t idx = l->inst; /* looked up with the batch */
	tv_quote(q, sizeof q, inst, strlen(inst));
	if (idx == TV_NONE)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" is not in the gold key", q);
	if (tv_role(sp->role, idx) == rd->role)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				rd->line[idx]);
	if (tv_role(sp->role, idx) != ROLE_NONE)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" is also in the mapping key (%s:%" PRIu64 ")", q,
				rd->mapping_name, rd->line[idx]);
	const char *gw = tv_intern_str(&w->words, w->in[idx].word);
	if (strcmp(gw, l->field[0]) != 0) {
		char q2[80];
		tv_quote(q2, sizeof q2, gw, strlen(gw));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" belongs to word \"%s\" in the gold key", q, q2);
	}
	tv_role_set(sp->role, idx, rd->role);
	rd->line[idx] = l->lineno;
	size_t nlab = l->nfield - 2;
	if (tv_grow((void **)&sp->pool, &sp->poolcap, sp->npool + nlab, sizeof *sp->pool))
		return tv_nomem(err);
	sp->lab_first[idx] = (uint32_t)sp->npool;
	sp->lab_n[idx] = (uint32_t)nlab;
	for (size_t i = 0; i < nlab; i++) {
		const char *tok = l->field[i + 2];
		size_t len;
		double weight;
		if (tv_split_weight(tok, &len, &weight) < 0) {
			tv_quote(q, sizeof q, tok, strlen(tok));
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"invalid weight \"%s\"", q);
		}
		uint32_t id;
		if (tv_intern_put(&s->senses, tok, len, &id, NULL))
			return tv_nomem(err);
		sp->pool[sp->npool++] = id;
	}
	return TAGEVAL_OK;
}

static int split_lines(struct tageval_supervised *s, struct split *sp, struct tv_reader *r,
		       int role, uint64_t *line, const char *mapping_name,
		       struct tageval_error *err)
{
	struct split_reading rd = { s, sp, role, line, mapping_name };
	struct tv_each e = { .id = TV_ID_FIELD1, .ids = &s->w->ids, .lookup = TV_LOOKUP_FIND,
			     .line = split_line, .ctx = &rd };
	return tv_each_line(r, &e, NULL, err);
}

static int add_split_readers(struct tageval_supervised *s, struct tv_reader *m, struct tv_reader *t,
			     struct tageval_error *err)
{
	struct split *sp = new_split(s);
	if (sp == NULL)
		return tv_nomem(err);
	size_t n = s->w->n ? s->w->n : 1;
	uint64_t *line = malloc(n * sizeof *line);
	int rc = TAGEVAL_OK;
	if (!(sp->lab_first = calloc(n, sizeof *sp->lab_first)) ||
	    !(sp->lab_n = calloc(n, sizeof *sp->lab_n)) || line == NULL)
		rc = tv_nomem(err);
	if (rc == TAGEVAL_OK)
		rc = split_lines(s, sp, m, ROLE_MAPPING, line, m->name, err);
	if (rc == TAGEVAL_OK)
		rc = split_lines(s, sp, t, ROLE_TEST, line, m->name, err);
	free(line);
	if (rc != TAGEVAL_OK) {
		/* leave no half-read split behind */
		s->nsplits--;
		free(sp->role);
		free(sp->lab_first);
		free(sp->lab_n);
		free(sp->pool);
	}
	return rc;
}

int tageval_supervised_add_files(struct tageval_supervised *s, const char *mapping,
				 const char *test, struct tageval_error *err)
{
	TV_NEED(err, s, "sup");
	TV_NEED(err, mapping, "mapping");
	TV_NEED(err, test, "test");
	struct tv_reader m, t;
	int rc = tv_reader_open(&m, mapping, err);
	if (rc)
		return rc;
	if ((rc = tv_reader_open(&t, test, err))) {
		tv_reader_close(&m);
		return rc;
	}
	rc = add_split_readers(s, &m, &t, err);
	tv_reader_close(&m);
	tv_reader_close(&t);
	return rc;
}

int tageval_supervised_add_buffers(struct tageval_supervised *s, const char *mapping,
				   size_t mapping_size, const char *test, size_t test_size,
				   struct tageval_error *err)
{
	TV_NEED(err, s, "sup");
	if ((mapping == NULL && mapping_size > 0) || (test == NULL && test_size > 0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", __func__);
	struct tv_reader m, t;
	int rc = tv_reader_open_buffer(&m, mapping, mapping_size, "mapping", err);
	if (rc)
		return rc;
	if ((rc = tv_reader_open_buffer(&t, test, test_size, "test", err))) {
		tv_reader_close(&m);
		return rc;
	}
	rc = add_split_readers(s, &m, &t, err);
	tv_reader_close(&m);
	tv_reader_close(&t);
	return rc;
}

/* ------------------------------------------------------------ drawn splits */

/*
 * The draws must not depend on the order of the lines: the words are drawn
 * for in bytewise order of their names, and each word's instances are
 * shuffled from the bytewise order of their ids.
 */
/* canon_make() reads the ids in about this many groups of words, sorted
 * on the cores at once: each group's records are 20 bytes an instance of
 * the group (5 MB at a million with 4 groups; 4 with 5, 10 with 2), its
 * positions 4 bytes an instance.  Each group less saves a pass over the
 * ids (some 5 ms at a million) and costs memory; 4 groups make two each
 * for two cores (5 left one of them three): wsi-supervised's peak went
 * from 75.9 MB (5 groups one after the other) to 78.7 MB for 52 MB of
 * input (1,000,000 instances; 88.4 MB with 2 groups) */
#define TV_CANON_GROUPS 4

struct canon {
	uint32_t *words; /* word ids, by name */
	uint32_t *pos;   /* each word's positions (of s->order), by id */
};

/*
 * The sort record of an instance id: its first 16 bytes as four big-endian
 * 32-bit integers, zero-padded (integer order is then bytewise order, as no
 * id holds a NUL), and the instance's position in s->order: 20 bytes.
 */
struct idrec {
	uint32_t k[4];
	uint32_t pos;
};

static struct idrec idrec_of(const char *str, uint32_t pos)
{
	struct idrec r = { { 0, 0, 0, 0 }, pos };
	for (size_t i = 0; i < 16 && str[i] != '\0'; i++)
		r.k[i / 4] |= (uint32_t)(unsigned char)str[i] << (24 - 8 * (i % 4));
	return r;
}

static int same_prefix(const struct idrec *a, const struct idrec *b)
{
	return a->k[0] == b->k[0] && a->k[1] == b->k[1] && a->k[2] == b->k[2] &&
	       a->k[3] == b->k[3];
}

/*
 * The bytewise order of two ids' records: the 16-byte prefixes, then the
 * rest.  Equal prefixes are those of two ids of 16 bytes or more (a
 * shorter id's padding would be a NUL of the other), so both strings go on
 * past byte 16.
 */
static int idrec_cmp(const struct tageval_supervised *s, const struct idrec *a,
		     const struct idrec *b)
{
	for (size_t i = 0; i < 4; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	const struct tv_intern *in = &s->w->ids;
	return strcmp(tv_intern_str(in, s->order[a->pos]) + 16,
		      tv_intern_str(in, s->order[b->pos]) + 16);
}

/* Sorts r[0..n) by idrec_cmp(), with @tmp (room for n): a bottom-up merge
 * sort, O(n log n) whatever the ids. */
static void idrec_merge(const struct tageval_supervised *s, struct idrec *r, size_t n,
			struct idrec *tmp)
{
	struct idrec *a = r, *b = tmp;
#define IDREC_LESS(x, y) (idrec_cmp(s, (x), (y)) < 0)
	TV_MERGE_SORT(struct idrec, a, b, n, IDREC_LESS);
#undef IDREC_LESS
	if (a != r)
		memcpy(r, a, n * sizeof *r);
}

/* Byte @b (0: the first) of a record's 16-byte prefix. */
static unsigned idrec_byte(const struct idrec *r, unsigned b)
{
	return (unsigned)(r->k[b / 4] >> (24 - 8 * (b % 4))) & 0xffu;
}

/* One stable counting pass of r[0..n) by prefix byte @b into @to. */
static void idrec_pass(const struct idrec *r, size_t n, unsigned b, struct idrec *to)
{
	size_t at[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		at[idrec_byte(&r[i], b)]++;
	size_t sum = 0;
	for (unsigned v = 0; v < 256; v++) {
		size_t c = at[v];
		at[v] = sum;
		sum += c;
	}
	for (size_t i = 0; i < n; i++)
		to[at[idrec_byte(&r[i], b)]++] = r[i];
}

/*
 * Sorts r[0..n) by idrec_cmp(), with @tmp (room for n): by the 16-byte
 * prefixes first, a least-significant-byte-first radix sort over the
 * bytes in which the records differ (the ids of a word share most of
 * theirs: "w082.n.523" differs from its word's others in 4 at most), then
 * each run of equal prefixes (ids past 16 bytes) by idrec_merge().  At
 * most 16 passes, O(n + 256) each: a word of fewer than IDREC_RADIX_MIN
 * instances is merge-sorted instead (400,000 words of 2 ids took 3 times
 * the base's time in the passes' tables of 256).
 */
#define IDREC_RADIX_MIN 64
static void idrec_sort(const struct tageval_supervised *s, struct idrec *r, size_t n,
		       struct idrec *tmp)
{
	if (n < 2)
		return;
	if (n < IDREC_RADIX_MIN) {
		idrec_merge(s, r, n, tmp);
		return;
	}
	/* the bits in which some records differ */
	uint32_t diff[4];
	for (size_t q = 0; q < 4; q++) {
		uint32_t or = 0, and = UINT32_MAX;
		for (size_t i = 0; i < n; i++) {
			or |= r[i].k[q];
			and &= r[i].k[q];
		}
		diff[q] = or ^ and;
	}
	struct idrec *a = r, *t = tmp;
	for (unsigned b = 16; b-- > 0;) {
		if ((diff[b / 4] >> (24 - 8 * (b % 4)) & 0xffu) == 0)
			continue;
		idrec_pass(a, n, b, t);
		struct idrec *x = a;
		a = t;
		t = x;
	}
	if (a != r)
		memcpy(r, a, n * sizeof *r);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && same_prefix(&r[j], &r[i]); j++)
			;
		if (j - i > 1)
			idrec_merge(s, r + i, j - i, tmp);
	}
}

/*
 * The records of the instances of words [lo, hi) into @rec, by word from
 * position start[lo] on (as in s->order), each word's in id order: one pass over the ids'
 * strings in the order they are stored (a table compacted by
 * tv_intern_compact() finds a string by walking up to 15 others, so that
 * asking for each id in turn cost some 8 steps an instance, in no order).
 * @fill has room for hi - lo.
 */
static void idrec_fill(const struct tageval_supervised *s, size_t lo, size_t hi,
		       struct idrec *rec, uint32_t *fill)
{
	const struct tageval_wsi *w = s->w;
	for (size_t word = lo; word < hi; word++)
		fill[word - lo] = s->start[word] - s->start[lo];
	const char *str = NULL;
	for (size_t id = 0; id < w->n; id++) {
		str = id == 0 ? tv_intern_str(&w->ids, 0) : tv_intern_next(&w->ids, str);
		uint32_t word = w->in[id].word;
		if (word >= lo && word < hi) {
			/* a word's instances are in increasing order in s->order
			 * (tv_wsi_group()): the k-th one met here is at start + k */
			uint32_t at = fill[word - lo]++;
			rec[at] = idrec_of(str, s->start[lo] + at);
		}
	}
}

/* The last word + 1 of the group of words from @lo on: as many words as
 * make at most @most instances, and at least one. */
static size_t group_end(const struct tageval_supervised *s, size_t lo, size_t nw, size_t most)
{
	size_t hi = lo + 1;
	while (hi < nw && s->start[hi + 1] - s->start[lo] <= most)
		hi++;
	return hi;
}

/* canon_make()'s groups of words, one part each (tv_parallel()): the
 * records of words [lo, hi) sorted into c->pos, with scratch of their own. */
struct canon_job {
	const struct tageval_supervised *s;
	struct canon *c;
	size_t *lo;       /* group i: words [lo[i], lo[i + 1]) */
	int *rc;          /* per group */
};

static void canon_group(void *ctx, size_t i)
{
	const struct canon_job *job = ctx;
	const struct tageval_supervised *s = job->s;
	size_t lo = job->lo[i], hi = job->lo[i + 1];
	/* its records, and its largest word's again for the sort: sized for the
	 * group itself (the groups running at once hold no more than their
	 * instances, whatever the cores) */
	size_t gn = s->start[hi] - s->start[lo], gbig = 0;
	for (size_t word = lo; word < hi; word++)
		if (s->start[word + 1] - s->start[word] > gbig)
			gbig = s->start[word + 1] - s->start[word];
	struct idrec *rec = malloc((gn + gbig ? gn + gbig : 1) * sizeof *rec);
	uint32_t *fill = malloc((hi - lo) * sizeof *fill);
	job->rc[i] = rec == NULL || fill == NULL ? TAGEVAL_ENOMEM : TAGEVAL_OK;
	if (job->rc[i] == TAGEVAL_OK) {
		idrec_fill(s, lo, hi, rec, fill);
		for (size_t word = lo; word < hi; word++) {
			struct idrec *r = rec + (s->start[word] - s->start[lo]);
			size_t n = s->start[word + 1] - s->start[word];
			idrec_sort(s, r, n, rec + gn);
			for (size_t j = 0; j < n; j++)
				job->c->pos[s->start[word] + j] = r[j].pos;
		}
	}
	free(rec);
	free(fill);
}

/*
 * Each word's positions in the bytewise order of their ids (c->pos), and
 * the words in the bytewise order of their names (c->words).  The records
 * are made a group of words at a time, at most the largest word's or a
 * 1 / TV_CANON_GROUPS of the instances (20 bytes each: 4 bytes an
 * instance, and the group's largest word's again for the sort), in at most
 * 2 TV_CANON_GROUPS + 1 passes over the ids (two groups in turn hold more
 * than that).  The groups are independent (each writes its words'
 * positions): they are shared out to the cores, each with its records
 * (sized for its own instances: all the groups at once, on a machine of as
 * many cores, hold 20 bytes an instance and their largest words' again).
 */
static int canon_make(const struct tageval_supervised *s, struct canon *c)
{
	const struct tageval_wsi *w = s->w;
	size_t nw = w->words.n, big = 0;
	for (size_t word = 0; word < nw; word++)
		if (s->start[word + 1] - s->start[word] > big)
			big = s->start[word + 1] - s->start[word];
	size_t most = w->n / TV_CANON_GROUPS > big ? w->n / TV_CANON_GROUPS : big;
	c->words = malloc((nw ? nw : 1) * sizeof *c->words);
	c->pos = malloc((w->n ? w->n : 1) * sizeof *c->pos);
	struct tv_sort_name *tmp = malloc((nw ? 2 * nw : 1) * sizeof *tmp);
	/* the groups: at most one a word */
	struct canon_job job = { s, c, malloc((nw + 1) * sizeof *job.lo),
				 malloc((nw ? nw : 1) * sizeof *job.rc) };
	int rc = TAGEVAL_OK;
	if (c->words == NULL || c->pos == NULL || tmp == NULL || job.lo == NULL ||
	    job.rc == NULL) {
		rc = TAGEVAL_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nw; i++)
		c->words[i] = (uint32_t)i;
	tv_intern_sort_ids(&w->words, c->words, nw, tmp);
	free(tmp); /* the words' names are sorted: not needed for the ids */
	tmp = NULL;
	size_t ngroup = 0;
	job.lo[0] = 0;
	for (size_t lo = 0; lo < nw; lo = job.lo[++ngroup])
		job.lo[ngroup + 1] = group_end(s, lo, nw, most);
	tv_parallel(ngroup, canon_group, &job);
	for (size_t i = 0; i < ngroup; i++)
		if (job.rc[i])
			rc = TAGEVAL_ENOMEM;
out:
	free(tmp);
	free(job.lo);
	free(job.rc);
	return rc;
}

static void canon_free(struct canon *c)
{
	free(c->words);
	free(c->pos);
}

/* The positions of @word in a random order, into @tmp; returns their number. */
static size_t shuffled(const struct tageval_supervised *s, const struct canon *c, size_t word,
		       gsl_rng *rng, uint32_t *tmp)
{
	size_t n = s->start[word + 1] - s->start[word];
	memcpy(tmp, c->pos + s->start[word], n * sizeof *tmp);
	if (n > 1) /* n = 0 would reach GSL's error handler */
		gsl_ran_shuffle(rng, tmp, n, sizeof *tmp);
	return n;
}

/* Fold f of the draws (a word's positions shuffled in c->pos, the i-th of
 * them in fold i % k) as split @sp's roles, in the grouped order. */
static void fold_roles(const struct tageval_supervised *s, const struct canon *c, size_t k,
		       size_t f, struct split *sp)
{
	for (size_t word = 0; word < s->w->words.n; word++) {
		if (!s->selected[word])
			continue;
		const uint32_t *pos = c->pos + s->start[word];
		size_t n = s->start[word + 1] - s->start[word];
		/* i % k counted along, not divided for */
		for (size_t i = 0, fold = 0; i < n; i++) {
			tv_role_set(sp->role, pos[i], fold == f ? ROLE_TEST : ROLE_MAPPING);
			fold = fold + 1 == k ? 0 : fold + 1;
		}
	}
	sp->grouped = 1;
}

/* tageval_supervised_add_folds()'s parts: fold f's roles (fold_roles()). */
struct folds_job {
	const struct tageval_supervised *s;
	const struct canon *c;
	size_t k;
	struct split *sp; /* the k new splits */
};

static void folds_part(void *ctx, size_t f)
{
	const struct folds_job *job = ctx;
	fold_roles(job->s, job->c, job->k, f, &job->sp[f]);
}

int tageval_supervised_add_folds(struct tageval_supervised *s, size_t k, unsigned long seed,
				 struct tageval_error *err)
{
	TV_NEED(err, s, "sup");
	if (k < 2 || k > 1000000)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "the number of folds must be 2 or more");
	const struct tageval_wsi *w = s->w;
	/* a fold beyond the largest word's instances would test nothing:
	 * refused before the k splits are allocated (k x the instances) */
	size_t most = 0;
	for (size_t word = 0; word < w->words.n; word++)
		if (s->selected[word] && s->start[word + 1] - s->start[word] > most)
			most = s->start[word + 1] - s->start[word];
	if (k > most)
		return tv_error(err, TAGEVAL_EFORMAT, "", 0,
				"%zu folds, but no selected target word has more than %zu "
				"instances: split %zu would have no test instance",
				k, most, most + 1);
	gsl_rng *rng = tv_rng_new(seed);
	size_t first = s->nsplits;
	int rc = TAGEVAL_OK;
	struct canon c = { 0 };
	if (rng == NULL || canon_make(s, &c)) {
		rc = tv_nomem(err);
		goto out;
	}
	/* each selected word's positions shuffled in place, in the words'
	 * bytewise order (the same draws as of its instances' ids: a shuffle
	 * moves the elements whatever they hold), kept in c.pos, 4 bytes an
	 * instance */
	for (size_t wi = 0; wi < w->words.n; wi++) {
		size_t word = c.words[wi];
		size_t n = s->start[word + 1] - s->start[word];
		if (s->selected[word] && n > 1) /* n = 0 would reach GSL's error handler */
			gsl_ran_shuffle(rng, c.pos + s->start[word], n, sizeof *c.pos);
	}
	for (size_t f = 0; f < k; f++)
		if (new_split(s) == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
	/* each fold's roles into its own split: one part each */
	struct folds_job job = { s, &c, k, s->splits + first };
	tv_parallel(k, folds_part, &job);
out:
	if (rc)
		while (s->nsplits > first)
			free(s->splits[--s->nsplits].role);
	tv_rng_free(rng);
	canon_free(&c);
	return rc;
}

int tageval_supervised_add_random(struct tageval_supervised *s, size_t nsplit, double fraction,
				  unsigned long seed, struct tageval_error *err)
{
	TV_NEED(err, s, "sup");
	if (nsplit < 1 || nsplit > 1000000)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "the number of splits must be 1 or more");
	if (!(fraction > 0.0 && fraction < 1.0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the test fraction must lie between 0 and 1");
	const struct tageval_wsi *w = s->w;
	gsl_rng *rng = tv_rng_new(seed);
	uint32_t *tmp = malloc((w->n ? w->n : 1) * sizeof *tmp);
	size_t first = s->nsplits;
	int rc = TAGEVAL_OK;
	struct canon c = { 0 };
	if (rng == NULL || tmp == NULL || canon_make(s, &c)) {
		rc = tv_nomem(err);
		goto out;
	}
	for (size_t r = 0; r < nsplit; r++) {
		struct split *sp = new_split(s);
		if (sp == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
		for (size_t wi = 0; wi < w->words.n; wi++) {
			size_t word = c.words[wi];
			if (!s->selected[word])
				continue;
			size_t n = shuffled(s, &c, word, rng, tmp);
			size_t ntest = (size_t)floor(fraction * (double)n + 0.5);
			for (size_t i = 0; i < n; i++)
				tv_role_set(sp->role, tmp[i], i < ntest ? ROLE_TEST : ROLE_MAPPING);
		}
		sp->grouped = 1; /* the roles of positions */
	}
out:
	if (rc)
		while (s->nsplits > first)
			free(s->splits[--s->nsplits].role);
	tv_rng_free(rng);
	free(tmp);
	canon_free(&c);
	return rc;
}
