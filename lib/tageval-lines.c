/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lines in batches, their ids, and the loop every file reader runs: the
 * input layer above the byte reader (tageval-reader.c).  A reader gives
 * tv_each_line() its table of ids and a function for one line; the loop
 * reads a batch of lines, hashes their ids, looks them up in stages so that
 * the cache misses of a batch overlap, and then hands the lines over in file
 * order.  Nothing here calls up into a format module.
 */
#include <stdlib.h>
#include <string.h>

#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"

size_t tv_join_id(char **buf, size_t *cap, const char *lexelt, const char *instance)
{
	size_t a = strlen(lexelt), b = strlen(instance);
	if (tv_grow((void **)buf, cap, a + b + 2, 1))
		return (size_t)-1;
	memcpy(*buf, lexelt, a);
	(*buf)[a] = ' ';
	memcpy(*buf + a + 1, instance, b + 1);
	return a + b + 1;
}

void tv_batch_clear(struct tv_batch *b)
{
	free(b->text);
	free(b->field);
	memset(b, 0, sizeof *b);
}

/* Appends "field0 field1" to the batch's text; its offset in *off. */
static int join_into(struct tv_batch *b, const char *f0, const char *f1, size_t *off,
		     size_t *len)
{
	size_t a = strlen(f0), c = strlen(f1);
	if (tv_grow((void **)&b->text, &b->cap, b->used + a + c + 2, 1))
		return TAGEVAL_ENOMEM;
	char *p = b->text + b->used;
	memcpy(p, f0, a);
	p[a] = ' ';
	memcpy(p + a + 1, f1, c);
	p[a + 1 + c] = '\0';
	*off = b->used;
	b->used += a + c + 2;
	*len = a + c + 1;
	return TAGEVAL_OK;
}

int tv_reader_batch(struct tv_reader *r, struct tv_batch *b, struct tageval_error *err)
{
	b->n = 0;
	b->used = 0;
	b->nfield = 0;
	size_t idoff[TV_BATCH];
	int rc = TAGEVAL_OK, got, more;
	while (b->n < TV_BATCH) {
		/* refilling would move the lines already in the batch */
		rc = tv_reader_line(r, b->n == 0, &got, &more, err);
		if (rc != TAGEVAL_OK || !got)
			break;
		if (r->nfield == 0)
			continue;
		struct tv_line *l = &b->line[b->n];
		l->name = r->name;
		l->lineno = r->lineno;
		l->nfield = r->nfield;
		l->id = NULL;
		l->idlen = 0;
		if (tv_grow((void **)&b->field, &b->fieldcap, b->nfield + r->nfield,
			    sizeof *b->field)) {
			rc = tv_nomem(err);
			break;
		}
		l->field = (char **)(uintptr_t)b->nfield; /* an index until the array is final */
		memcpy(b->field + b->nfield, r->field, r->nfield * sizeof *r->field);
		b->nfield += r->nfield;
		if (r->nfield >= 2 && b->id == TV_ID_JOINED) {
			if (join_into(b, r->field[0], r->field[1], &idoff[b->n], &l->idlen)) {
				rc = tv_nomem(err);
				break;
			}
		} else if (r->nfield >= 2 && b->id == TV_ID_FIELD1) {
			l->id = r->field[1]; /* in the chunk, which the batch keeps */
			l->idlen = strlen(l->id);
		}
		b->n++;
	}
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		l->field = b->field + (size_t)(uintptr_t)l->field;
		if (l->idlen > 0 && b->id == TV_ID_JOINED)
			l->id = b->text + idoff[k];
		if (l->idlen > 0 && b->ids)
			l->hash = tv_intern_hash(b->ids, l->id, l->idlen);
	}
	return rc;
}

int tv_line_make(struct tv_line *l, const char *name, uint64_t lineno, char **field,
		 size_t nfield, char **buf, size_t *cap, const struct tv_intern *ids)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->lineno = lineno;
	l->field = field;
	l->nfield = nfield;
	if (nfield >= 2) {
		size_t len = tv_join_id(buf, cap, field[0], field[1]);
		if (len == (size_t)-1)
			return TAGEVAL_ENOMEM;
		l->id = *buf;
		l->idlen = len;
		l->hash = tv_intern_hash(ids, *buf, len);
	}
	return TAGEVAL_OK;
}

/*
 * The look-ups of a batch, in stages: every slot, then (to find the ids)
 * every string pointer, every string, and only then the comparisons; each
 * stage reads only what the one before fetched.
 */
static void look_up(const struct tv_each *e, struct tv_batch *b)
{
	const struct tv_intern *ids = e->ids;
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch(ids, b->line[k].hash);
	if (e->lookup != TV_LOOKUP_FIND)
		return;
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch_entry(ids, b->line[k].hash);
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch_string(ids, b->line[k].hash);
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		l->inst = TV_NONE;
		if (l->id && tv_intern_find_hashed(ids, l->id, l->idlen, l->hash, &l->inst) &&
		    e->found)
			e->found(e->ctx, l->inst);
	}
}

int tv_each_line(struct tv_reader *r, const struct tv_each *e, size_t *lines,
		 struct tageval_error *err)
{
	struct tv_batch b = { .id = e->id, .ids = e->id != TV_ID_NONE ? e->ids : NULL };
	size_t n = 0;
	int rc;
	do {
		/* a read or format error comes after the lines before it */
		rc = tv_reader_batch(r, &b, err);
		if (b.ids)
			look_up(e, &b);
		for (size_t k = 0; k < b.n; k++) {
			int lrc = e->line(e->ctx, &b.line[k], err);
			if (lrc) {
				rc = lrc;
				break;
			}
			n++;
		}
	} while (rc == TAGEVAL_OK && b.n > 0);
	tv_batch_clear(&b);
	if (lines)
		*lines = n;
	return rc;
}

int tv_read_path(const char *func, const char *path, tv_read_fn run, void *ctx,
		 struct tageval_error *err)
{
	if (path == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL path", func);
	struct tv_reader r;
	int rc = tv_reader_open(&r, path, err);
	if (rc)
		return rc;
	rc = run(ctx, &r, err);
	tv_reader_close(&r);
	return rc;
}

int tv_read_buffer(const char *func, const char *data, size_t size, const char *name,
		   tv_read_fn run, void *ctx, struct tageval_error *err)
{
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", func);
	if (name == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL name", func);
	struct tv_reader r;
	int rc = tv_reader_open_buffer(&r, data, size, name, err);
	if (rc)
		return rc;
	rc = run(ctx, &r, err);
	tv_reader_close(&r);
	return rc;
}
