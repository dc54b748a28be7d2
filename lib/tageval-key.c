/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gold keys ("lexelt instance tag ..."). */
#include <stdlib.h>
#include <string.h>

#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-key.h"
#include "tageval-reader.h"
#include "tageval-util.h"

static int quote_id(char *out, size_t size, const char *lexelt, const char *instance)
{
	char a[80], b[80];
	tv_quote(a, sizeof a, lexelt, strlen(lexelt));
	tv_quote(b, sizeof b, instance, strlen(instance));
	return snprintf(out, size, "%s %s", a, b);
}

void tageval_key_free(struct tageval_key *key)
{
	if (key == NULL)
		return;
	tv_intern_clear(&key->ids);
	free(key->name);
	free(key->idbuf);
	free(key->inst);
	free(key->tags);
	free(key->linehi);
	free(key);
}

uint64_t tv_key_line(const struct tageval_key *key, size_t i)
{
	/* the last change at or before instance i */
	size_t lo = 0, hi = key->nlinehi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key->linehi[mid].inst <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t high = lo > 0 ? key->linehi[lo - 1].hi : 0;
	return high << 32 | key->inst[i].line;
}

size_t tageval_key_size(const struct tageval_key *key)
{
	TV_NULL_RET(key, 0);
	return key->ninst;
}

static int append(struct tageval_key *key, const struct tv_line *l, struct tageval_error *err);

static int key_line(struct tageval_key *key, const struct tv_line *l, struct tageval_error *err)
{
	char q[200];
	if (l->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "missing instance id");
	if (l->nfield == 2) {
		quote_id(q, sizeof q, l->field[0], l->field[1]);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" has no sense tag", q);
	}
	/* interned where the line was read (tv_each's put), or here */
	uint32_t idx = l->inst;
	int added = l->put == TV_PUT_NEW;
	if (l->put == TV_PUT_NO &&
	    tv_intern_put_hashed(&key->ids, l->id, l->idlen, l->hash, &idx, &added))
		return tv_nomem(err);
	if (!added) {
		quote_id(q, sizeof q, l->field[0], l->field[1]);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				tv_key_line(key, idx));
	}
	return append(key, l, err);
}

/* A new instance of @ntags tags at line @lineno, with room for its tags
 * at key->tags + key->ntags (the caller fills them and counts them). */
static int add_instance(struct tageval_key *key, uint64_t lineno, size_t lexelt_len,
			size_t ntags)
{
	if (tv_grow((void **)&key->inst, &key->instcap, key->ninst + 1, sizeof *key->inst) ||
	    tv_grow((void **)&key->tags, &key->tagcap, key->ntags + ntags, sizeof *key->tags))
		return TAGEVAL_ENOMEM;
	if (key->ntags + ntags > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	uint32_t high = (uint32_t)(lineno >> 32);
	uint32_t cur = key->nlinehi > 0 ? key->linehi[key->nlinehi - 1].hi : 0;
	if (high != cur) {
		if (tv_grow((void **)&key->linehi, &key->linehicap, key->nlinehi + 1,
			    sizeof *key->linehi))
			return TAGEVAL_ENOMEM;
		key->linehi[key->nlinehi].inst = key->ninst;
		key->linehi[key->nlinehi].hi = high;
		key->nlinehi++;
	}
	struct tv_instance *in = &key->inst[key->ninst];
	in->tags = (uint32_t)key->ntags;
	in->ntags = (uint32_t)ntags;
	in->line = (uint32_t)lineno;
	in->lexelt_len = (uint32_t)lexelt_len;
	key->ninst++;
	return TAGEVAL_OK;
}

static int slash_tag(const struct tv_line *l, const char *t, struct tageval_error *err)
{
	char q[200];
	tv_quote(q, sizeof q, t, strlen(t));
	return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "key tag \"%s\" contains '/'", q);
}

/* Appends the instance of line @l (its id already interned, or not at all). */
static int append(struct tageval_key *key, const struct tv_line *l, struct tageval_error *err)
{
	if (add_instance(key, l->lineno, strlen(l->field[0]), l->nfield - 2))
		return tv_nomem(err);
	for (size_t i = 2; i < l->nfield; i++) {
		const char *t = l->field[i];
		size_t tlen = strlen(t);
		if (memchr(t, '/', tlen) != NULL)
			return slash_tag(l, t, err);
		uint32_t tag;
		if (tv_inventory_intern(key->inv, t, tlen, &tag))
			return tv_nomem(err);
		key->tags[key->ntags++] = tag;
	}
	return TAGEVAL_OK;
}

int tageval_key_new(struct tageval_inventory *inv, const char *name, struct tageval_key **out)
{
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	*out = NULL;
	TV_NULL_RET(inv, TAGEVAL_EINVAL);
	struct tageval_key *key = calloc(1, sizeof *key);
	if (key == NULL)
		return TAGEVAL_ENOMEM;
	key->inv = inv;
	tv_intern_init(&key->ids);
	key->name = strdup(name ? name : "key");
	if (key->name == NULL) {
		free(key);
		return TAGEVAL_ENOMEM;
	}
	*out = key;
	return TAGEVAL_OK;
}

/* An instance given through the API; @named: its id is interned and checked. */
static int add_fields(struct tageval_key *key, const char *lexelt, const char *instance,
		      const char *const *tags, size_t ntags, int named, struct tageval_error *err)
{
	char *small[16];
	char **field = tv_api_fields(small, 16, lexelt, instance, tags, ntags);
	if (field == NULL)
		return tv_nomem(err);
	struct tv_line l = { .name = key->name, .lineno = key->ninst + 1, .field = field,
			     .nfield = ntags + 2 };
	int rc = TAGEVAL_OK;
	size_t ninst = key->ninst, ntag = key->ntags, nlinehi = key->nlinehi;
	if (named) {
		for (size_t i = 0; rc == TAGEVAL_OK && i < ntags + 2; i++)
			if (field[i][0] == '\0' || strpbrk(field[i], " \t\r\n"))
				rc = tv_error(err, TAGEVAL_EINVAL, key->name, 0,
					      "a field is empty or contains a blank");
		/* a tag with '/' fails before the id is interned (see below) */
		for (size_t i = 2; rc == TAGEVAL_OK && i < ntags + 2; i++)
			if (strchr(field[i], '/'))
				rc = slash_tag(&l, field[i], err);
		if (rc == TAGEVAL_OK) {
			if (tv_line_make(&l, key->name, key->ninst + 1, field, ntags + 2,
					 &key->idbuf, &key->idcap, &key->ids))
				rc = tv_nomem(err);
			else
				rc = key_line(key, &l, err);
		}
	} else {
		rc = ntags > 0 ? append(key, &l, err)
			       : tv_error(err, TAGEVAL_EINVAL, key->name, 0, "no sense tag");
	}
	if (field != small)
		free(field);
	if (rc != TAGEVAL_OK && key->ninst > ninst) {
		/* out of memory or a bad tag half-way: the key as it was, not an
		 * instance with tags it never got (the id's string cut too: only
		 * out of memory gets here with it interned) */
		key->ninst = ninst;
		key->ntags = ntag;
		key->nlinehi = nlinehi;
	}
	if (rc != TAGEVAL_OK && key->ids.n > key->ninst)
		(void)tv_intern_cut(&key->ids, key->ninst);
	return rc;
}

int tageval_key_add(struct tageval_key *key, const char *lexelt, const char *instance,
		    const char *const *tags, size_t ntags, struct tageval_error *err)
{
	TV_NEED(err, key, "key");
	TV_NEED(err, lexelt, "lexelt");
	TV_NEED(err, instance, "instance");
	if (tags == NULL && ntags > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL tags", __func__);
	for (size_t i = 0; i < ntags; i++)
		TV_NEED(err, tags[i], "tag");
	return add_fields(key, lexelt, instance, tags, ntags, 1, err);
}

int tv_key_append(struct tageval_key *key, const char *lexelt, const char *instance,
		  const char *const *tags, size_t ntags, struct tageval_error *err)
{
	return add_fields(key, lexelt, instance, tags, ntags, 0, err);
}

int tv_key_append_ids(struct tageval_key *key, size_t lexelt_len, const uint32_t *tags,
		      size_t ntags, struct tageval_error *err)
{
	if (ntags == 0)
		return tv_error(err, TAGEVAL_EINVAL, key->name, 0, "no sense tag");
	if (add_instance(key, key->ninst + 1, lexelt_len, ntags))
		return tv_nomem(err);
	memcpy(key->tags + key->ntags, tags, ntags * sizeof *tags);
	key->ntags += ntags;
	return TAGEVAL_OK;
}

static int each_key_line(void *key, struct tv_line *l, struct tageval_error *err)
{
	return key_line(key, l, err);
}

static int read_key(struct tageval_inventory *inv, struct tv_reader *r, struct tageval_key **out,
		    struct tageval_error *err)
{
	*out = NULL;
	struct tageval_key *key;
	if (tageval_key_new(inv, r->name, &key))
		return tv_nomem(err);
	/* the ids interned by whichever side is free (tv_each's put), in file
	 * order: the ids of a key read to the end are its instances' indices
	 * (a line with an id that key_line() refuses fails the whole key) */
	struct tv_each e = { .id = TV_ID_JOINED, .ids = &key->ids, .lookup = TV_LOOKUP_SLOT,
			     .put = &key->ids, .expect = &key->ids, .line = each_key_line,
			     .ctx = key };
	int rc = tv_each_line(r, &e, NULL, err);
	if (rc == TAGEVAL_OK && key->ninst == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no instances");
	if (rc != TAGEVAL_OK) {
		tageval_key_free(key);
		return rc;
	}
	*out = key;
	return TAGEVAL_OK;
}

/* A key being read into *out with its inventory. */
struct key_reading {
	struct tageval_inventory *inv;
	struct tageval_key **out;
};

static int run_key(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct key_reading *k = ctx;
	return read_key(k->inv, r, k->out, err);
}

int tageval_key_read(struct tageval_inventory *inv, const char *path, struct tageval_key **key,
		     struct tageval_error *err)
{
	TV_NEED(err, key, "key");
	*key = NULL;
	TV_NEED(err, inv, "inv");
	struct key_reading k = { inv, key };
	return tv_read_path(__func__, path, run_key, &k, err);
}

int tageval_key_read_buffer(struct tageval_inventory *inv, const char *data, size_t size,
			    const char *name, struct tageval_key **key, struct tageval_error *err)
{
	TV_NEED(err, key, "key");
	*key = NULL;
	TV_NEED(err, inv, "inv");
	struct key_reading k = { inv, key };
	return tv_read_buffer(__func__, data, size, name, run_key, &k, err);
}

int tv_key_read_reader(struct tageval_inventory *inv, struct tv_reader *r,
		       struct tageval_key **key, struct tageval_error *err)
{
	*key = NULL;
	return read_key(inv, r, key, err);
}
