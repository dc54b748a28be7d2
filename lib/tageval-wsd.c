/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * All-words disambiguation scored as the unified evaluation framework of
 * Raganato, Camacho-Collados & Navigli (2017) does (reference-wsd-framework.md):
 * key files of "id key [key ...]" lines, gold and system alike.  An answer of
 * n distinct keys of which k are gold keys of its instance earns k/n; the
 * precision is the credit over the answered gold instances, the recall over
 * all of them.  Unlike the reference program, a malformed line, a repeated
 * id or a system id that the gold key lacks is an error with the file and
 * line (section 6 of the spec); the credit rule and the figures are its own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval.h"
#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"

#define NO_POS 0xff

struct winst {
	uint32_t keys, nkeys; /* sorted distinct key ids in pool */
	uint32_t dataset;     /* TV_NONE: an id of fewer than four parts */
	uint8_t pos;          /* enum tageval_wsd_pos, or NO_POS */
	uint8_t answered;
	uint64_t gold_line, sys_line; /* sys_line 0: no system line */
	double credit;
};

struct tageval_wsd {
	struct tv_intern ids, keys, datasets;
	struct winst *in;
	size_t n, cap;
	uint32_t *pool;
	size_t npool, poolcap;
	uint32_t *scratch; /* a system line's key ids */
	size_t scratchcap;
	uint32_t *dsorder;  /* dataset ids in strcmp order of their names */
	uint32_t *dsstart;  /* dataset d's instances: dsinst[dsstart[d] .. dsstart[d + 1]) */
	uint32_t *dsinst;
	int have_gold;      /* a gold key was read (1), without error (2) */
	unsigned flags;    /* of the last system read */
	size_t unknown;    /* its lines for ids the gold key lacks (TAGEVAL_WSD_SUBSET) */
	size_t answered;
};

struct tageval_wsd *tageval_wsd_new(void)
{
	struct tageval_wsd *w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	tv_intern_init(&w->ids);
	tv_intern_init(&w->keys);
	tv_intern_init(&w->datasets);
	return w;
}

void tageval_wsd_free(struct tageval_wsd *w)
{
	if (w == NULL)
		return;
	tv_intern_clear(&w->ids);
	tv_intern_clear(&w->keys);
	tv_intern_clear(&w->datasets);
	free(w->in);
	free(w->pool);
	free(w->scratch);
	free(w->dsorder);
	free(w->dsstart);
	free(w->dsinst);
	free(w);
}

/* ------------------------------------------------------------ line checks */

/* A byte sequence that is not UTF-8 (overlong forms, surrogates and values
 * above U+10FFFF included): the offset of its first byte, or -1. */
static long bad_utf8(const unsigned char *s)
{
	const unsigned char *p = s;
	while (*p) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		unsigned c = *p;
		int n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2
						   : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
		if (n < 0)
			return (long)(p - s);
		for (int i = 1; i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return (long)(p - s);
		if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
		    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
			return (long)(p - s);
		p += n + 1;
	}
	return -1;
}

/* The checks of section 6 of the spec, for gold and system lines alike. */
static int check_line(const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield == 0)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "blank line");
	if (l->seps & TV_SEP_LEAD)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"the line starts with a blank (an empty instance id)");
	if (l->seps & TV_SEP_TAB)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"a tab in the line (the fields are separated by single spaces)");
	if (l->seps & TV_SEP_RUN)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"two blanks in a row (an empty field)");
	char q[80];
	if (l->nfield == 1) {
		tv_quote(q, sizeof q, l->field[0], strlen(l->field[0]));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" has no sense key", q);
	}
	for (size_t i = 0; i < l->nfield; i++) {
		const unsigned char *f = (const unsigned char *)l->field[i];
		for (const unsigned char *p = f; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
						"control character 0x%02x in field %zu", *p, i + 1);
		if (bad_utf8(f) >= 0)
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"field %zu is not UTF-8", i + 1);
	}
	return TAGEVAL_OK;
}

/* The part of speech a WordNet sense key "lemma%T:FF:LL:HEAD:HH" encodes in
 * its synset type T, or NO_POS for a key of another form. */
static int key_pos(const char *key)
{
	const char *pct = strrchr(key, '%');
	if (pct == NULL || pct == key || pct[1] < '1' || pct[1] > '5' || pct[2] != ':')
		return NO_POS;
	static const uint8_t pos[] = { TAGEVAL_WSD_NOUN, TAGEVAL_WSD_VERB, TAGEVAL_WSD_ADJ,
				       TAGEVAL_WSD_ADV, TAGEVAL_WSD_ADJ };
	return pos[pct[1] - '1'];
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Sorts @k[0..n) and drops repeats (a key repeated on a line counts once,
 * as in the reference); returns the new count. */
static size_t sort_unique(uint32_t *k, size_t n)
{
	qsort(k, n, sizeof *k, by_u32);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || k[m - 1] != k[i])
			k[m++] = k[i];
	return m;
}

/* ------------------------------------------------------------ the gold key */

static int gold_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	struct tageval_wsd *w = ctx;
	int rc = check_line(l, err);
	if (rc)
		return rc;
	char q[80];
	uint32_t idx;
	int added;
	if (tv_intern_put_hashed(&w->ids, l->id, l->idlen, l->hash, &idx, &added))
		return tv_nomem(err);
	if (!added) {
		tv_quote(q, sizeof q, l->id, l->idlen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				w->in[idx].gold_line);
	}
	size_t nk = l->nfield - 1;
	if (tv_grow((void **)&w->in, &w->cap, w->n + 1, sizeof *w->in) ||
	    tv_grow((void **)&w->pool, &w->poolcap, w->npool + nk, sizeof *w->pool))
		return tv_nomem(err);
	struct winst *in = &w->in[w->n++];
	*in = (struct winst){ .keys = (uint32_t)w->npool, .dataset = TV_NONE,
			      .gold_line = l->lineno };
	int pos = key_pos(l->field[1]);
	for (size_t i = 0; i < nk; i++) {
		const char *k = l->field[i + 1];
		if (tv_intern_put(&w->keys, k, strlen(k), &w->pool[w->npool + i], NULL))
			return tv_nomem(err);
		int p = key_pos(k);
		if (p != pos && p != NO_POS && pos != NO_POS) {
			tv_quote(q, sizeof q, l->id, l->idlen);
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"the sense keys of instance \"%s\" are of different parts of speech",
					q);
		}
		if (p == NO_POS)
			pos = NO_POS; /* not all WordNet sense keys: no part of speech */
	}
	in->pos = (uint8_t)pos;
	in->nkeys = (uint32_t)sort_unique(w->pool + w->npool, nk);
	w->npool += in->nkeys;
	/* ALL-style ids, "dataset.d000.s000.t000": four parts or more */
	const char *dot = strchr(l->id, '.');
	size_t ndots = 0;
	for (const char *p = l->id; *p; p++)
		ndots += *p == '.';
	if (dot != NULL && ndots >= 3 && dot > l->id) {
		uint32_t ds;
		if (tv_intern_put(&w->datasets, l->id, (size_t)(dot - l->id), &ds, NULL))
			return tv_nomem(err);
		in->dataset = ds;
	}
	return TAGEVAL_OK;
}

/* The instances of each dataset together (a counting sort), and the
 * datasets in the order of their names. */
static int group_datasets(struct tageval_wsd *w, struct tageval_error *err)
{
	size_t nd = w->datasets.n;
	struct tv_sort_name *tmp = malloc((2 * nd + 1) * sizeof *tmp);
	w->dsorder = malloc((nd + 1) * sizeof *w->dsorder);
	w->dsstart = calloc(nd + 2, sizeof *w->dsstart);
	w->dsinst = malloc((w->n + 1) * sizeof *w->dsinst);
	if (tmp == NULL || w->dsorder == NULL || w->dsstart == NULL || w->dsinst == NULL) {
		free(tmp);
		return tv_nomem(err);
	}
	for (uint32_t d = 0; d < nd; d++)
		w->dsorder[d] = d;
	tv_intern_sort_ids(&w->datasets, w->dsorder, nd, tmp);
	free(tmp);
	for (size_t i = 0; i < w->n; i++)
		if (w->in[i].dataset != TV_NONE)
			w->dsstart[w->in[i].dataset + 2]++;
	for (size_t d = 0; d < nd; d++)
		w->dsstart[d + 2] += w->dsstart[d + 1];
	for (size_t i = 0; i < w->n; i++)
		if (w->in[i].dataset != TV_NONE)
			w->dsinst[w->dsstart[w->in[i].dataset + 1]++] = (uint32_t)i;
	return TAGEVAL_OK;
}

static int read_gold(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct tageval_wsd *w = ctx;
	if (w->have_gold)
		return tv_error(err, TAGEVAL_EINVAL, r->name, 0, "the gold key is read once");
	struct tv_each e = { .id = TV_ID_FIELD0, .ids = &w->ids, .lookup = TV_LOOKUP_SLOT,
			     .line = gold_line, .ctx = w, .keep_blank = 1 };
	int rc = tv_each_line(r, &e, NULL, err);
	if (rc == TAGEVAL_OK && w->n == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no instances");
	w->have_gold = 1; /* even after an error: the object holds part of a key */
	if (rc == TAGEVAL_OK)
		rc = group_datasets(w, err);
	if (rc == TAGEVAL_OK)
		w->have_gold = 2;
	return rc;
}

int tageval_wsd_read_gold(struct tageval_wsd *w, const char *path, struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	return tv_read_path(__func__, path, read_gold, w, err);
}

int tageval_wsd_read_gold_buffer(struct tageval_wsd *w, const char *data, size_t size,
				 const char *name, struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	return tv_read_buffer(__func__, data, size, name, read_gold, w, err);
}

/* ------------------------------------------------------------ a system */

/* The number of the sorted distinct @a[0..na) that are in the sorted @b[0..nb). */
static size_t common(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb) {
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else {
			k++;
			i++;
			j++;
		}
	}
	return k;
}

static int system_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	struct tageval_wsd *w = ctx;
	int rc = check_line(l, err);
	if (rc)
		return rc;
	char q[80];
	if (l->inst == TV_NONE) {
		if (w->flags & TAGEVAL_WSD_SUBSET) {
			w->unknown++;
			return TAGEVAL_OK;
		}
		tv_quote(q, sizeof q, l->id, l->idlen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" is not in the gold key", q);
	}
	struct winst *in = &w->in[l->inst];
	if (in->answered) {
		tv_quote(q, sizeof q, l->id, l->idlen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				in->sys_line);
	}
	size_t nk = l->nfield - 1;
	if (tv_grow((void **)&w->scratch, &w->scratchcap, nk, sizeof *w->scratch))
		return tv_nomem(err);
	/* a key no gold line has gets an id too: it cannot be right, and
	 * counts in n once however often it is repeated */
	for (size_t i = 0; i < nk; i++) {
		const char *k = l->field[i + 1];
		if (tv_intern_put(&w->keys, k, strlen(k), &w->scratch[i], NULL))
			return tv_nomem(err);
	}
	size_t n = sort_unique(w->scratch, nk);
	size_t k = common(w->scratch, n, w->pool + in->keys, in->nkeys);
	in->answered = 1;
	in->sys_line = l->lineno;
	in->credit = (double)k / (double)n;
	w->answered++;
	return TAGEVAL_OK;
}

static void prefetch_instance(void *ctx, uint32_t idx)
{
	__builtin_prefetch(&((struct tageval_wsd *)ctx)->in[idx]);
}

struct sysread {
	struct tageval_wsd *w;
	unsigned flags;
};

static int read_system(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct sysread *s = ctx;
	struct tageval_wsd *w = s->w;
	if (w->have_gold != 2)
		return tv_error(err, TAGEVAL_EINVAL, r->name, 0,
				"a gold key is read (without error) before a system");
	/* a new system replaces the one before */
	for (size_t i = 0; i < w->n; i++) {
		w->in[i].answered = 0;
		w->in[i].sys_line = 0;
		w->in[i].credit = 0.0;
	}
	w->unknown = w->answered = 0;
	w->flags = s->flags;
	struct tv_each e = { .id = TV_ID_FIELD0, .ids = &w->ids, .lookup = TV_LOOKUP_FIND,
			     .found = prefetch_instance, .line = system_line, .ctx = w,
			     .keep_blank = 1 };
	return tv_each_line(r, &e, NULL, err);
}

int tageval_wsd_read_system(struct tageval_wsd *w, const char *path, unsigned flags,
			    struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	struct sysread s = { w, flags };
	return tv_read_path(__func__, path, read_system, &s, err);
}

int tageval_wsd_read_system_buffer(struct tageval_wsd *w, const char *data, size_t size,
				   const char *name, unsigned flags, struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	struct sysread s = { w, flags };
	return tv_read_buffer(__func__, data, size, name, read_system, &s, err);
}

/* ------------------------------------------------------------ figures */

size_t tageval_wsd_instances(const struct tageval_wsd *w)
{
	return w ? w->n : 0;
}

size_t tageval_wsd_answered(const struct tageval_wsd *w)
{
	return w ? w->answered : 0;
}

size_t tageval_wsd_unknown(const struct tageval_wsd *w)
{
	return w ? w->unknown : 0;
}

/* The figures of the instances @idx[0..n) (all of them when @idx is NULL)
 * whose part of speech is @pos (any with NO_POS). */
static void figures(const struct tageval_wsd *w, const uint32_t *idx, size_t n, unsigned pos,
		    struct tageval_wsd_figures *f)
{
	struct tv_fsum c;
	tv_fsum_init(&c);
	size_t inst = 0, ans = 0;
	for (size_t j = 0; j < n; j++) {
		const struct winst *in = &w->in[idx ? idx[j] : j];
		if (pos != NO_POS && in->pos != pos)
			continue;
		inst++;
		if (in->answered) {
			ans++;
			tv_fsum_add(&c, in->credit);
		}
	}
	double C = tv_fsum_result(&c);
	f->instances = inst;
	f->answered = ans;
	f->correct = C;
	f->precision = ans > 0 ? C / (double)ans : NAN;
	f->recall = inst > 0 ? C / (double)inst : NAN;
	double p = f->precision, r = f->recall;
	f->f1 = isnan(p) || isnan(r) ? NAN : p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

int tageval_wsd_total(const struct tageval_wsd *w, struct tageval_wsd_figures *out,
		      struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	TV_NEED(err, w, "wsd");
	figures(w, NULL, w->n, NO_POS, out);
	return TAGEVAL_OK;
}

size_t tageval_wsd_datasets(const struct tageval_wsd *w)
{
	return w ? w->datasets.n : 0;
}

/* The dataset names in bytewise order, so that the order of the gold
 * lines changes nothing. */
int tageval_wsd_dataset(const struct tageval_wsd *w, size_t i, const char **name,
			struct tageval_wsd_figures *out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	TV_NEED(err, w, "wsd");
	TV_NEED(err, name, "name");
	if (w->have_gold != 2 || i >= w->datasets.n)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: no dataset %zu", __func__, i);
	uint32_t d = w->dsorder[i];
	*name = tv_intern_str(&w->datasets, d);
	figures(w, w->dsinst + w->dsstart[d], w->dsstart[d + 1] - w->dsstart[d], NO_POS, out);
	return TAGEVAL_OK;
}

int tageval_wsd_pos(const struct tageval_wsd *w, enum tageval_wsd_pos pos,
		    struct tageval_wsd_figures *out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	memset(out, 0, sizeof *out);
	TV_NEED(err, w, "wsd");
	if ((unsigned)pos > TAGEVAL_WSD_ADV)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: invalid part of speech", __func__);
	figures(w, NULL, w->n, (unsigned)pos, out);
	return TAGEVAL_OK;
}
