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
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_EXPAT
#include <expat.h>
#endif

#include "tageval.h"
#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-rng.h"
#include "tageval-util.h"

#define NO_POS 0xff

struct winst {
	uint32_t nkeys;       /* its distinct keys: pool[keys .. keys + nkeys), sorted */
	size_t keys;
	uint32_t dataset;     /* TV_NONE: an id of fewer than four parts */
	uint8_t pos;          /* enum tageval_wsd_pos, or NO_POS */
	uint8_t answered;
	uint64_t gold_line, sys_line; /* sys_line 0: no system line */
	double credit;
};

struct tageval_wsd {
	struct tv_intern ids, datasets;
	struct winst *in;
	size_t n, cap;
	/* the gold keys: offsets into text (NUL-terminated copies, in file
	 * order: written in sequence, never looked up by hash, so that a key
	 * costs no random access to a table) */
	size_t *pool;
	size_t npool, poolcap;
	char *text;
	size_t ntext, textcap;
	const char **scratch; /* a system line's keys */
	size_t scratchcap;
	uint32_t *dsorder;  /* dataset ids in strcmp order of their names */
	uint32_t *dsstart;  /* dataset d's instances: dsinst[dsstart[d] .. dsstart[d + 1]) */
	uint32_t *dsinst;
	uint32_t *idorder;  /* instances in bytewise order of their ids (tageval_wsd_credits) */
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
	tv_intern_init(&w->datasets);
	return w;
}

void tageval_wsd_free(struct tageval_wsd *w)
{
	if (w == NULL)
		return;
	tv_intern_clear(&w->ids);
	tv_intern_clear(&w->datasets);
	free(w->in);
	free(w->pool);
	free(w->text);
	free(w->scratch);
	free(w->dsorder);
	free(w->dsstart);
	free(w->dsinst);
	free(w->idorder);
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

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts the strings @k[0..n) (strcmp order) and drops repeats (a key
 * repeated on a line counts once, as in the reference); returns the new
 * count.  Lines have a key or two: insertion sort below 16, qsort above. */
static size_t sort_unique(const char **k, size_t n)
{
	if (n < 16) {
		for (size_t i = 1; i < n; i++) {
			const char *x = k[i];
			size_t j = i;
			for (; j > 0 && strcmp(k[j - 1], x) > 0; j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
	} else {
		qsort(k, n, sizeof *k, by_string);
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || strcmp(k[m - 1], k[i]) != 0)
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
	    tv_grow((void **)&w->scratch, &w->scratchcap, nk, sizeof *w->scratch))
		return tv_nomem(err);
	struct winst *in = &w->in[w->n++];
	*in = (struct winst){ .keys = w->npool, .dataset = TV_NONE, .gold_line = l->lineno };
	/* the WordNet keys of a line must agree, wherever they stand; a key
	 * of another form leaves the instance without a part of speech */
	int pos = NO_POS, other = 0;
	for (size_t i = 0; i < nk; i++) {
		const char *k = l->field[i + 1];
		w->scratch[i] = k;
		int p = key_pos(k);
		if (p == NO_POS) {
			other = 1;
		} else if (pos != NO_POS && p != pos) {
			tv_quote(q, sizeof q, l->id, l->idlen);
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"the sense keys of instance \"%s\" are of different parts of speech",
					q);
		} else {
			pos = p;
		}
	}
	if (other)
		pos = NO_POS;
	in->pos = (uint8_t)pos;
	size_t m = sort_unique(w->scratch, nk);
	if (tv_grow((void **)&w->pool, &w->poolcap, w->npool + m, sizeof *w->pool))
		return tv_nomem(err);
	for (size_t i = 0; i < m; i++) {
		size_t len = strlen(w->scratch[i]) + 1;
		if (tv_grow((void **)&w->text, &w->textcap, w->ntext + len, 1))
			return tv_nomem(err);
		memcpy(w->text + w->ntext, w->scratch[i], len);
		w->pool[w->npool++] = w->ntext;
		w->ntext += len;
	}
	in->nkeys = (uint32_t)m;
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

/* The number of the sorted distinct strings @a[0..na) that are among the
 * gold keys @b[0..nb) (sorted distinct offsets into @text): a merge. */
static size_t common(const char *const *a, size_t na, const size_t *b, size_t nb,
		     const char *text)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb) {
		int c = strcmp(a[i], text + b[j]);
		if (c < 0)
			i++;
		else if (c > 0)
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
	for (size_t i = 0; i < nk; i++)
		w->scratch[i] = l->field[i + 1];
	size_t n = sort_unique(w->scratch, nk);
	size_t k = common(w->scratch, n, w->pool + in->keys, in->nkeys, w->text);
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

/* ------------------------------------------------------------ data.xml */

int tageval_wsd_data_supported(void)
{
	return HAVE_EXPAT;
}

#if HAVE_EXPAT
struct dataread {
	struct tageval_wsd *w;
	XML_Parser p;
	const char *name;
	uint8_t *pos; /* per gold instance: its part of speech, NO_POS unseen */
	uint64_t *line;
	int rc;
	struct tageval_error *err;
};

static void data_start(void *ctx, const XML_Char *el, const XML_Char **attr)
{
	struct dataread *d = ctx;
	if (d->rc || strcmp(el, "instance") != 0)
		return;
	const char *id = NULL, *pos = NULL;
	for (size_t i = 0; attr[i] != NULL; i += 2) {
		if (strcmp(attr[i], "id") == 0)
			id = attr[i + 1];
		else if (strcmp(attr[i], "pos") == 0)
			pos = attr[i + 1];
	}
	uint64_t line = XML_GetCurrentLineNumber(d->p);
	char q[80];
	if (id == NULL || pos == NULL) {
		d->rc = tv_error(d->err, TAGEVAL_EFORMAT, d->name, line,
				 "an <instance> without %s attribute", id == NULL ? "an id" : "a pos");
		goto stop;
	}
	uint32_t idx;
	if (!tv_intern_find(&d->w->ids, id, strlen(id), &idx))
		return; /* not in the gold key: ignored */
	static const char *const names[] = { "NOUN", "VERB", "ADJ", "ADV" };
	int p = -1;
	for (int k = 0; k < 4; k++)
		if (strcmp(pos, names[k]) == 0)
			p = k;
	tv_quote(q, sizeof q, id, strlen(id));
	if (p < 0) {
		d->rc = tv_error(d->err, TAGEVAL_EFORMAT, d->name, line,
				 "instance \"%s\": part of speech \"%.20s\" (NOUN, VERB, ADJ or ADV)",
				 q, pos);
		goto stop;
	}
	if (d->pos[idx] != NO_POS) {
		d->rc = tv_error(d->err, TAGEVAL_EFORMAT, d->name, line,
				 "duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				 d->line[idx]);
		goto stop;
	}
	d->pos[idx] = (uint8_t)p;
	d->line[idx] = line;
	return;
stop:
	XML_StopParser(d->p, XML_FALSE);
}

/* Parses @size bytes (the whole file when @final); 0 or an error. */
static int data_chunk(struct dataread *d, const char *buf, size_t size, int final)
{
	while (size > 0 || final) {
		int len = size > (1u << 30) ? 1 << 30 : (int)size;
		int last = final && (size_t)len == size;
		if (XML_Parse(d->p, buf, len, last) == XML_STATUS_ERROR) {
			if (d->rc)
				return d->rc;
			if (XML_GetErrorCode(d->p) == XML_ERROR_NO_MEMORY)
				return tv_nomem(d->err);
			return tv_error(d->err, TAGEVAL_EFORMAT, d->name,
					XML_GetCurrentLineNumber(d->p), "XML: %s",
					XML_ErrorString(XML_GetErrorCode(d->p)));
		}
		buf += len;
		size -= (size_t)len;
		if (last)
			break;
	}
	return TAGEVAL_OK;
}

static int read_data(struct tageval_wsd *w, const char *path, const char *data, size_t size,
		     const char *name, struct tageval_error *err)
{
	if (w->have_gold != 2)
		return tv_error(err, TAGEVAL_EINVAL, name, 0,
				"a gold key is read (without error) before the data file");
	struct dataread d = { .w = w, .name = name, .err = err };
	d.pos = malloc(w->n + 1);
	d.line = malloc((w->n + 1) * sizeof *d.line);
	d.p = XML_ParserCreate(NULL);
	FILE *fp = NULL;
	char *buf = NULL;
	int rc = TAGEVAL_OK;
	if (d.pos == NULL || d.line == NULL || d.p == NULL) {
		rc = tv_nomem(err);
		goto out;
	}
	memset(d.pos, NO_POS, w->n + 1);
	XML_SetUserData(d.p, &d);
	XML_SetStartElementHandler(d.p, data_start);
	if (path == NULL) {
		rc = data_chunk(&d, data, size, 1);
	} else {
		fp = fopen(path, "rb");
		buf = malloc(1 << 16);
		if (fp == NULL) {
			rc = tv_error(err, TAGEVAL_EIO, name, 0, "cannot open: %s", strerror(errno));
			goto out;
		}
		if (buf == NULL) {
			rc = tv_nomem(err);
			goto out;
		}
		for (;;) {
			size_t got = fread(buf, 1, 1 << 16, fp);
			if (got < (1 << 16) && ferror(fp)) {
				rc = tv_error(err, TAGEVAL_EIO, name, 0, "read error: %s",
					      strerror(errno));
				goto out;
			}
			int end = got < (1 << 16);
			if ((rc = data_chunk(&d, buf, got, end)) != 0 || end)
				break;
		}
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < w->n; i++)
		if (d.pos[i] == NO_POS) {
			char q[80];
			const char *id = tv_intern_str(&w->ids, (uint32_t)i);
			tv_quote(q, sizeof q, id, strlen(id));
			rc = tv_error(err, TAGEVAL_EFORMAT, name, 0,
				      "gold instance \"%s\" (gold line %" PRIu64 ") has no <instance>",
				      q, w->in[i].gold_line);
			goto out;
		}
	for (size_t i = 0; i < w->n; i++)
		w->in[i].pos = d.pos[i];
out:
	if (fp != NULL)
		fclose(fp);
	free(buf);
	free(d.pos);
	free(d.line);
	if (d.p != NULL)
		XML_ParserFree(d.p);
	return rc;
}
#endif

int tageval_wsd_read_data(struct tageval_wsd *w, const char *path, struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	TV_NEED(err, path, "path");
#if HAVE_EXPAT
	return read_data(w, path, NULL, 0, path, err);
#else
	return tv_error(err, TAGEVAL_EINVAL, path, 0,
			"data files are not supported (tageval built without expat)");
#endif
}

int tageval_wsd_read_data_buffer(struct tageval_wsd *w, const char *data, size_t size,
				 const char *name, struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	TV_NEED(err, name, "name");
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", __func__);
#if HAVE_EXPAT
	return read_data(w, NULL, data ? data : "", size, name, err);
#else
	return tv_error(err, TAGEVAL_EINVAL, name, 0,
			"data files are not supported (tageval built without expat)");
#endif
}

/* ------------------------------------------------------------ significance */

int tageval_wsd_credits(struct tageval_wsd *w, double *credit, unsigned char *answered,
			struct tageval_error *err)
{
	TV_NEED(err, w, "wsd");
	TV_NEED(err, credit, "credit");
	TV_NEED(err, answered, "answered");
	if (w->have_gold != 2)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: no gold key read", __func__);
	if (w->idorder == NULL) {
		struct tv_sort_name *tmp = malloc((2 * w->n + 1) * sizeof *tmp);
		w->idorder = malloc((w->n + 1) * sizeof *w->idorder);
		if (tmp == NULL || w->idorder == NULL) {
			free(tmp);
			free(w->idorder);
			w->idorder = NULL;
			return tv_nomem(err);
		}
		/* the gold key's instance i has id number i (interned in order) */
		for (size_t i = 0; i < w->n; i++)
			w->idorder[i] = (uint32_t)i;
		tv_intern_sort_ids(&w->ids, w->idorder, w->n, tmp);
		free(tmp);
	}
	for (size_t j = 0; j < w->n; j++) {
		const struct winst *in = &w->in[w->idorder[j]];
		credit[j] = in->answered ? in->credit : 0.0;
		answered[j] = in->answered;
	}
	return TAGEVAL_OK;
}

#define TIE 1e-12

/* F1 = 2PR / (P + R) with P = C/A and R = C/I is 2C / (A + I) (0 when C = 0). */
static double f1_of(double c, double a, double n)
{
	return a + n > 0.0 ? 2.0 * c / (a + n) : 0.0;
}

/* The statistic of a system with summed credit @c and attempted @a over @n
 * instances: F1, precision (0 when nothing is attempted) or recall. */
static double stat_of(enum tageval_statistic st, double c, double a, double n)
{
	switch (st) {
	case TAGEVAL_STATISTIC_PRECISION:
		return a > 0.0 ? c / a : 0.0;
	case TAGEVAL_STATISTIC_RECALL:
		return n > 0.0 ? c / n : 0.0;
	default:
		return f1_of(c, a, n);
	}
}

/* McNemar's exact two-sided p-value for b and c discordant pairs:
 * min(1, 2 P(X <= min(b, c))), X binomial (b + c, 1/2).  1 exactly when
 * min(b, c) >= (m - 1) / 2 (by symmetry P(X <= k) >= 1/2 there); else the
 * terms C(m, j) / 2^m, from 2^-m up by the ratio (m - j) / (j + 1) for m
 * up to 1000 (exact for small m), in logs relative to the largest above. */
static double mcnemar(size_t b, size_t c)
{
	size_t m = b + c, k = b < c ? b : c;
	if (2 * k + 1 >= m)
		return 1.0;
	double sum = 0.0;
	if (m <= 1000) {
		double t = ldexp(1.0, -(int)m);
		for (size_t j = 0; j <= k; j++) {
			sum += t;
			t = t * (double)(m - j) / (double)(j + 1);
		}
		return 2.0 * sum < 1.0 ? 2.0 * sum : 1.0;
	}
	/* the terms relative to the largest, j = k, downwards */
	double r = 1.0;
	for (size_t j = k + 1; j-- > 0;) {
		sum += r;
		r = r * (double)j / (double)(m - j + 1);
		if (r < 1e-20 * sum)
			break;
	}
	double lck = 0.0; /* log C(m, k) */
	for (size_t j = 0; j < k; j++)
		lck += log((double)(m - j)) - log((double)(j + 1));
	double p = 2.0 * exp(log(sum) + lck - (double)m * log(2.0));
	return p < 1.0 ? p : 1.0;
}

/* qsort contexts are not reentrant in C11: the rows are compared through
 * a header in front of each index. */
struct rowkey {
	const double *credit;        /* system-major, n per system */
	const double *answered;
	size_t nsys, n;
};

struct rowref {
	const struct rowkey *k;
	uint32_t i;
};

static int by_row(const void *a, const void *b)
{
	const struct rowref *x = a, *y = b;
	const struct rowkey *k = x->k;
	for (size_t s = 0; s < k->nsys; s++) {
		double u = k->credit[s * k->n + x->i], v = k->credit[s * k->n + y->i];
		if (u != v)
			return u < v ? -1 : 1;
		double p = k->answered[s * k->n + x->i], q = k->answered[s * k->n + y->i];
		if (p != q)
			return p < q ? -1 : 1;
	}
	return (x->i > y->i) - (x->i < y->i);
}

/* An instance where system s and the reference differ: the differences of
 * credit and answered (reference minus s) and the index. */
struct wdiff {
	double dc, da;
	uint32_t i;
};

static int by_diff(const void *a, const void *b)
{
	const struct wdiff *x = a, *y = b;
	if (x->dc != y->dc)
		return x->dc < y->dc ? -1 : 1;
	if (x->da != y->da)
		return x->da < y->da ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A class of the instances where s and the reference differ by the same
 * (dc, da): its members as bits of 32-instance words. */
struct wclass {
	double dc, da;
	size_t first, end; /* its words in wword[first .. end) */
};

struct wword {
	uint32_t word, bits;
};

/* A draw from 0 .. n-1 (0 < n < 2^32) out of 32-bit words x of the
 * generator: the high half of x n, unless its low half is below
 * 2^32 mod n (then x is drawn again): unbiased (Lemire 2019). */
static uint32_t draw_below(gsl_rng *r, uint32_t n)
{
	uint32_t t = (uint32_t)(-n) % n;
	for (;;) {
		uint64_t m = (uint64_t)(uint32_t)gsl_rng_get(r) * n;
		if ((uint32_t)m >= t)
			return (uint32_t)(m >> 32);
	}
}

int tageval_compare(size_t nsys, size_t n, const double *credit, const double *answered,
		    enum tageval_statistic stat, const size_t *refs, size_t nref, size_t samples,
		    unsigned long seed, struct tageval_wsd_comparison *out,
		    struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	TV_NEED(err, credit, "credit");
	TV_NEED(err, answered, "attempted");
	TV_NEED(err, refs, "refs");
	if (stat != TAGEVAL_STATISTIC_F1 && stat != TAGEVAL_STATISTIC_PRECISION &&
	    stat != TAGEVAL_STATISTIC_RECALL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: no such statistic", __func__);
	int badref = nref == 0;
	for (size_t r = 0; r < nref; r++)
		badref |= refs[r] >= nsys;
	if (nsys == 0 || badref || n == 0 || n >= UINT32_MAX)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"%s: no system, no instance, too many, or no reference", __func__);
	if (nsys > SIZE_MAX / n / sizeof(double) || nref > SIZE_MAX / 2 / nsys / n)
		return tv_nomem(err);
	/* a NaN would make the sorts' orders intransitive: only finite,
	 * non-negative credits and attempted masses */
	for (size_t i = 0; i < nsys * n; i++)
		if (!(credit[i] >= 0.0) || !(answered[i] >= 0.0) || !isfinite(credit[i]) ||
		    !isfinite(answered[i]))
			return tv_error(err, TAGEVAL_EINVAL, "", 0,
					"%s: credit %g, attempted %g of entry %zu: not a finite "
					"number >= 0",
					__func__, credit[i], answered[i], i);
	size_t npair = nref * nsys; /* pair q = r * nsys + s: system s against refs[r] */
	int rc = TAGEVAL_OK;
	double *C = calloc(3 * nsys, sizeof *C), *A = C ? C + nsys : NULL, *st = C ? C + 2 * nsys : NULL;
	double *cs = calloc(2 * nsys, sizeof *cs), *as = cs ? cs + nsys : NULL;
	size_t *rb = calloc(2 * npair, sizeof *rb), *ra = rb ? rb + npair : NULL;
	size_t *cstart = calloc(npair + 1, sizeof *cstart);
	struct rowref *rows = NULL;
	uint32_t *pat = NULL, *cnt = NULL, *mask = NULL;
	double *pc = NULL, *pa = NULL;
	struct wdiff *dv = NULL;
	struct wclass *cl = NULL;
	struct wword *ww = NULL;
	gsl_rng *rng = NULL;
	if (C == NULL || cs == NULL || rb == NULL || cstart == NULL)
		goto nomem;
	/* the observed figures, McNemar, and the differing instances */
	for (size_t s = 0; s < nsys; s++)
		for (size_t i = 0; i < n; i++) {
			C[s] += credit[s * n + i];
			A[s] += answered[s * n + i];
		}
	size_t ndiff = 0;
	for (size_t r = 0; r < nref; r++) {
		size_t ref = refs[r];
		struct tageval_wsd_comparison *o = out + r * nsys;
		for (size_t s = 0; s < nsys; s++) {
			const double *cv = credit + s * n, *cr = credit + ref * n;
			const double *av = answered + s * n, *ar = answered + ref * n;
			int binary = 1;
			size_t b = 0, c = 0;
			for (size_t i = 0; i < n; i++) {
				binary &= (cv[i] == 0.0 || cv[i] == 1.0) &&
					  (cr[i] == 0.0 || cr[i] == 1.0);
				b += cr[i] == 1.0 && cv[i] == 0.0;
				c += cr[i] == 0.0 && cv[i] == 1.0;
				ndiff += s != ref && (cv[i] != cr[i] || av[i] != ar[i]);
			}
			o[s] = (struct tageval_wsd_comparison){
				.f1 = stat_of(stat, C[s], A[s], (double)n), .bootstrap_p = NAN,
				.randomization_p = NAN, .mcnemar_p = NAN, .ref_only = b,
				.other_only = c };
			if (s != ref && binary)
				o[s].mcnemar_p = mcnemar(b, c);
		}
		for (size_t s = 0; s < nsys; s++)
			o[s].delta = o[ref].f1 - o[s].f1;
	}
	if (samples == 0)
		goto done;

	/*
	 * Paired bootstrap.  Instances whose systems' (credit, answered) are
	 * all equal form one pattern; a sample counts its draws of each
	 * pattern, and a system's sums are those counts times its values.
	 * The samples are shared by all references.
	 */
	struct rowkey key = { credit, answered, nsys, n };
	rows = malloc(n * sizeof *rows);
	pat = malloc(n * sizeof *pat);
	if (rows == NULL || pat == NULL)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		rows[i] = (struct rowref){ &key, (uint32_t)i };
	qsort(rows, n, sizeof *rows, by_row);
	size_t np = 0;
	for (size_t j = 0; j < n; j++) {
		int same = j > 0;
		for (size_t s = 0; same && s < nsys; s++)
			same = credit[s * n + rows[j].i] == credit[s * n + rows[j - 1].i] &&
			       answered[s * n + rows[j].i] == answered[s * n + rows[j - 1].i];
		if (!same)
			np++;
		pat[rows[j].i] = (uint32_t)(np - 1);
	}
	pc = malloc(np * nsys * sizeof *pc);
	pa = malloc(np * nsys * sizeof *pa);
	cnt = malloc(np * sizeof *cnt);
	rng = tv_rng_new(seed);
	if (pc == NULL || pa == NULL || cnt == NULL || rng == NULL)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < nsys; s++) {
			pc[pat[i] * nsys + s] = credit[s * n + i];
			pa[pat[i] * nsys + s] = answered[s * n + i];
		}
	free(rows);
	rows = NULL;
	for (size_t b = 0; b < samples; b++) {
		memset(cnt, 0, np * sizeof *cnt);
		for (size_t d = 0; d < n; d++)
			cnt[pat[draw_below(rng, (uint32_t)n)]]++;
		memset(cs, 0, 2 * nsys * sizeof *cs);
		for (size_t q = 0; q < np; q++) {
			if (cnt[q] == 0)
				continue;
			double k = (double)cnt[q];
			for (size_t s = 0; s < nsys; s++) {
				cs[s] += k * pc[q * nsys + s];
				as[s] += k * pa[q * nsys + s];
			}
		}
		for (size_t s = 0; s < nsys; s++)
			st[s] = stat_of(stat, cs[s], as[s], (double)n);
		for (size_t r = 0; r < nref; r++)
			for (size_t s = 0; s < nsys; s++) {
				double ts = st[refs[r]] - st[s], t = out[r * nsys + s].delta;
				rb[r * nsys + s] += fabs(ts - t) >= fabs(t) - TIE;
			}
	}
	for (size_t r = 0; r < nref; r++)
		for (size_t s = 0; s < nsys; s++)
			if (s != refs[r])
				out[r * nsys + s].bootstrap_p =
					(double)(rb[r * nsys + s] + 1) / (double)(samples + 1);
	tv_rng_free(rng);
	rng = NULL;

	/*
	 * Approximate randomization: only the instances where the two differ
	 * can change anything; those of one difference (dc, da) form a class,
	 * and the exchanged members of a class are counted 32 at a time.  The
	 * exchanges of a sample are shared by all pairs.
	 */
	dv = malloc((n + 1) * sizeof *dv);
	cl = malloc((ndiff + 1) * sizeof *cl);
	ww = malloc((ndiff + 1) * sizeof *ww);
	size_t nw = (n + 31) / 32;
	mask = malloc(nw * sizeof *mask);
	rng = tv_rng_new(seed);
	if (dv == NULL || cl == NULL || ww == NULL || mask == NULL || rng == NULL)
		goto nomem;
	size_t ncl = 0, nww = 0;
	for (size_t q = 0; q < npair; q++) {
		size_t ref = refs[q / nsys], s = q % nsys;
		cstart[q] = ncl;
		if (s == ref)
			continue;
		const double *cv = credit + s * n, *cr = credit + ref * n;
		const double *av = answered + s * n, *ar = answered + ref * n;
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (cv[i] != cr[i] || av[i] != ar[i])
				dv[k++] = (struct wdiff){ cr[i] - cv[i], ar[i] - av[i], (uint32_t)i };
		qsort(dv, k, sizeof *dv, by_diff);
		for (size_t j = 0; j < k; j++) {
			if (j == 0 || dv[j].dc != dv[j - 1].dc || dv[j].da != dv[j - 1].da) {
				if (ncl > cstart[q])
					cl[ncl - 1].end = nww;
				cl[ncl++] = (struct wclass){ dv[j].dc, dv[j].da, nww, nww };
			}
			uint32_t w = dv[j].i >> 5, bit = 1u << (dv[j].i & 31);
			if (nww > cl[ncl - 1].first && ww[nww - 1].word == w)
				ww[nww - 1].bits |= bit;
			else
				ww[nww++] = (struct wword){ w, bit };
		}
		if (ncl > cstart[q])
			cl[ncl - 1].end = nww;
	}
	cstart[npair] = ncl;
	for (size_t b = 0; b < samples; b++) {
		for (size_t j = 0; j < nw; j++)
			mask[j] = (uint32_t)gsl_rng_get(rng);
		for (size_t q = 0; q < npair; q++) {
			size_t ref = refs[q / nsys], s = q % nsys;
			if (s == ref)
				continue;
			double dc = 0.0, da = 0.0; /* moved from the reference to s */
			for (size_t c = cstart[q]; c < cstart[q + 1]; c++) {
				uint64_t k = 0;
				for (size_t j = cl[c].first; j < cl[c].end; j++)
					k += (uint64_t)__builtin_popcount(mask[ww[j].word] & ww[j].bits);
				dc += (double)k * cl[c].dc;
				da += (double)k * cl[c].da;
			}
			double ts = stat_of(stat, C[ref] - dc, A[ref] - da, (double)n) -
				    stat_of(stat, C[s] + dc, A[s] + da, (double)n);
			ra[q] += fabs(ts) >= fabs(out[q].delta) - TIE;
		}
	}
	for (size_t q = 0; q < npair; q++)
		if (q % nsys != refs[q / nsys])
			out[q].randomization_p = (double)(ra[q] + 1) / (double)(samples + 1);
	goto done;
nomem:
	rc = tv_nomem(err);
done:
	free(C);
	free(cs);
	free(rb);
	free(cstart);
	free(rows);
	free(pat);
	free(cnt);
	free(pc);
	free(pa);
	free(dv);
	free(cl);
	free(ww);
	free(mask);
	tv_rng_free(rng);
	return rc;
}

int tageval_wsd_compare(size_t nsys, size_t n, const double *credit,
			const unsigned char *answered, size_t ref, size_t samples,
			unsigned long seed, struct tageval_wsd_comparison *out,
			struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	TV_NEED(err, credit, "credit");
	TV_NEED(err, answered, "answered");
	if (n > 0 && nsys > SIZE_MAX / n / sizeof(double))
		return tv_nomem(err);
	double *a = malloc((nsys * n + 1) * sizeof *a);
	if (a == NULL)
		return tv_nomem(err);
	for (size_t i = 0; i < nsys * n; i++)
		a[i] = answered[i];
	int rc = tageval_compare(nsys, n, credit, a, TAGEVAL_STATISTIC_F1, &ref, 1, samples, seed,
				 out, err);
	free(a);
	return rc;
}
