/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The subset filters: the instances and the tags a score is restricted to. */
#include <stdlib.h>
#include <string.h>

#include "tageval-filter.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-reader.h"
#include "tageval-util.h"

struct tageval_filter *tageval_filter_new(void)
{
	struct tageval_filter *f = calloc(1, sizeof *f);
	if (f)
		tv_intern_init(&f->instances);
	return f;
}

void tageval_filter_free(struct tageval_filter *f)
{
	if (f == NULL)
		return;
	tv_intern_clear(&f->instances);
	free(f->tags);
	free(f);
}

static int read_instances(struct tageval_filter *f, struct tv_reader *r,
			  struct tageval_error *err)
{
	char *idbuf = NULL;
	size_t idcap = 0;
	int rc, got;
	while ((rc = tv_reader_next(r, &got, err)) == TAGEVAL_OK && got) {
		if (r->nfield == 0)
			continue;
		if (r->nfield == 1) {
			rc = tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
				      "missing instance id");
			break;
		}
		size_t len = tv_join_id(&idbuf, &idcap, r->field[0], r->field[1]);
		uint32_t id;
		if (len == (size_t)-1 || tv_intern_put(&f->instances, idbuf, len, &id, NULL)) {
			rc = tv_nomem(err);
			break;
		}
	}
	free(idbuf);
	f->have_instances = 1;
	return rc;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int read_tags(struct tageval_filter *f, struct tageval_inventory *inv,
		     struct tv_reader *r, struct tageval_error *err)
{
	if (f->inv != NULL && f->inv != inv)
		return tv_error(err, TAGEVAL_EINVAL, r->name, 0,
				"the tag filter belongs to another inventory");
	f->inv = inv;
	int rc, got;
	while ((rc = tv_reader_next(r, &got, err)) == TAGEVAL_OK && got) {
		for (size_t i = 0; i < r->nfield; i++) {
			uint32_t id;
			if (tv_inventory_intern(inv, r->field[i], strlen(r->field[i]), &id) ||
			    tv_grow((void **)&f->tags, &f->tagcap, f->ntags + 1, sizeof *f->tags))
				return tv_nomem(err);
			f->tags[f->ntags++] = id;
		}
	}
	if (rc)
		return rc;
	if (f->ntags > 1) /* an empty list has no array: qsort(NULL, 0) is undefined */
		qsort(f->tags, f->ntags, sizeof *f->tags, by_id);
	size_t k = 0;
	for (size_t i = 0; i < f->ntags; i++)
		if (k == 0 || f->tags[k - 1] != f->tags[i])
			f->tags[k++] = f->tags[i];
	f->ntags = k;
	f->have_tags = 1;
	return TAGEVAL_OK;
}

int tv_filter_has_tag(const struct tageval_filter *f, uint32_t tag)
{
	return f->ntags > 0 && bsearch(&tag, f->tags, f->ntags, sizeof *f->tags, by_id) != NULL;
}

static int run_instances(void *f, struct tv_reader *r, struct tageval_error *err)
{
	return read_instances(f, r, err);
}

/* A tag filter being read with its inventory. */
struct tags_reading {
	struct tageval_filter *f;
	struct tageval_inventory *inv;
};

static int run_tags(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct tags_reading *t = ctx;
	return read_tags(t->f, t->inv, r, err);
}

int tageval_filter_read_instances(struct tageval_filter *f, const char *path,
				  struct tageval_error *err)
{
	TV_NEED(err, f, "filter");
	return tv_read_path(__func__, path, run_instances, f, err);
}

int tageval_filter_read_instances_buffer(struct tageval_filter *f, const char *data,
					 size_t size, const char *name,
					 struct tageval_error *err)
{
	TV_NEED(err, f, "filter");
	return tv_read_buffer(__func__, data, size, name, run_instances, f, err);
}

int tageval_filter_read_tags(struct tageval_filter *f, struct tageval_inventory *inv,
			     const char *path, struct tageval_error *err)
{
	TV_NEED(err, f, "filter");
	TV_NEED(err, inv, "inv");
	struct tags_reading t = { f, inv };
	return tv_read_path(__func__, path, run_tags, &t, err);
}

int tageval_filter_read_tags_buffer(struct tageval_filter *f, struct tageval_inventory *inv,
				    const char *data, size_t size, const char *name,
				    struct tageval_error *err)
{
	TV_NEED(err, f, "filter");
	TV_NEED(err, inv, "inv");
	struct tags_reading t = { f, inv };
	return tv_read_buffer(__func__, data, size, name, run_tags, &t, err);
}
