/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Annotations of several annotators.  With a tree-shaped map (or none), each
 * (annotator, item) annotation is kept as the line's tags and their shares
 * of its weight, the mixture of the tags' leaf distributions, which the
 * agreement computation never spreads over the leaves: a tag high in a deep
 * map has as many leaves as the map has levels, and a distribution kept per
 * tag would cost the square of the map's size.  With a DAG, each annotation
 * is kept as its distribution over the leaves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tageval-agreement.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-reader.h"
#include "tageval-util.h"

int tageval_annotations_new(struct tageval_inventory *inv, struct tageval_annotations **out)
{
	TV_NULL_RET(out, TAGEVAL_EINVAL);
	*out = NULL;
	TV_NULL_RET(inv, TAGEVAL_EINVAL);
	struct tageval_annotations *a = calloc(1, sizeof *a);
	if (a == NULL)
		return TAGEVAL_ENOMEM;
	a->inv = inv;
	a->dist = tageval_dist_new();
	if (a->dist == NULL) {
		free(a);
		return TAGEVAL_ENOMEM;
	}
	tv_intern_init(&a->items);
	tv_intern_init(&a->lexelts);
	*out = a;
	return TAGEVAL_OK;
}

void tageval_annotations_free(struct tageval_annotations *a)
{
	if (a == NULL)
		return;
	tv_intern_clear(&a->items);
	tv_intern_clear(&a->lexelts);
	free(a->item_lexelt);
	free(a->runs);
	for (size_t c = 0; c < a->nann; c++) {
		int shared = 0; /* the records of a file given twice (copy_annotator) */
		for (size_t k = 0; k < c && !shared; k++)
			shared = a->rec[k] == a->rec[c];
		if (!shared)
			free(a->rec[c]);
	}
	free(a->rec);
	free(a->nrec);
	free(a->pool);
	free(a->pstart);
	free(a->far);
	free(a->pre);
	free(a->pre_end);
	free(a->cache_off);
	free(a->cache_n);
	free(a->cpool);
	free(a->scratch);
	free(a->stamp);
	free(a->touched);
	free(a->tags);
	free(a->tagcache);
	free(a->weights);
	free(a->depth);
	free(a->anc);
	free(a->chain);
	free(a->where);
	free(a->mapped);
	for (size_t c = 0; c < a->namecap; c++)
		free(a->names[c]);
	free(a->names);
	free(a->fileid);
	tageval_dist_free(a->dist);
	free(a);
}

size_t tageval_annotations_annotators(const struct tageval_annotations *a)
{
	TV_NULL_RET(a, 0);
	return a->nann;
}

size_t tageval_annotations_items(const struct tageval_annotations *a)
{
	TV_NULL_RET(a, 0);
	return a->nitems;
}

/* The leaf distribution of tag @t, computed once and cached. */
static int tag_dist(struct tageval_annotations *a, uint32_t t, const struct tv_leafp **d,
		    uint32_t *n)
{
	size_t ntags = a->inv->tags.n;
	if (t >= a->cachecap) {
		size_t old = a->cachecap, cap = old, cap2 = old;
		if (tv_grow((void **)&a->cache_off, &cap, ntags, sizeof *a->cache_off) ||
		    tv_grow((void **)&a->cache_n, &cap2, ntags, sizeof *a->cache_n))
			return TAGEVAL_ENOMEM;
		a->cachecap = cap < cap2 ? cap : cap2;
		memset(a->cache_n + old, 0, (a->cachecap - old) * sizeof *a->cache_n);
	}
	if (a->cache_n[t] == 0) {
		int rc = tageval_inventory_distribute(a->inv, t, a->dist);
		if (rc)
			return rc;
		size_t k = tageval_dist_size(a->dist);
		if (tv_grow((void **)&a->cpool, &a->cpoolcap, a->ncpool + k, sizeof *a->cpool))
			return TAGEVAL_ENOMEM;
		a->cache_off[t] = (uint32_t)a->ncpool;
		a->cache_n[t] = (uint32_t)k;
		for (size_t i = 0; i < k; i++) {
			a->cpool[a->ncpool].leaf = (uint32_t)tageval_dist_leaf(a->dist, i);
			a->cpool[a->ncpool].p = tageval_dist_prob(a->dist, i);
			a->ncpool++;
		}
	}
	*d = a->cpool + a->cache_off[t];
	*n = a->cache_n[t];
	return TAGEVAL_OK;
}

/*
 * A tree-shaped map's preorder: pre[x] numbers the tags of the map so that
 * the tags below x are those numbered pre[x] .. pre_end[x] - 1 (roots and
 * children in id order).  Computed once, at the first annotation: the map
 * is read before any.
 */
static int preorder(struct tageval_annotations *a)
{
	const struct tageval_inventory *inv = a->inv;
	size_t n = inv->nnode;
	a->pre_done = 1;
	if (inv->dag || n == 0)
		return TAGEVAL_OK;
	a->pre = malloc(n * sizeof *a->pre);
	a->pre_end = malloc(n * sizeof *a->pre_end);
	uint32_t *stack = malloc(n * sizeof *stack);
	uint32_t *next = malloc(n * sizeof *next); /* next child to visit */
	if (a->pre == NULL || a->pre_end == NULL || stack == NULL || next == NULL) {
		free(stack);
		free(next);
		return TAGEVAL_ENOMEM;
	}
	uint32_t count = 0;
	for (size_t r = 0; r < n; r++) {
		if (inv->node[r].parents.n > 0)
			continue;
		size_t sp = 0;
		stack[sp++] = (uint32_t)r;
		next[r] = 0;
		a->pre[r] = count++;
		while (sp > 0) {
			uint32_t x = stack[sp - 1];
			const struct tv_vec *cs = &inv->node[x].children;
			if (next[x] < cs->n) {
				uint32_t c = cs->v[next[x]++];
				next[c] = 0;
				a->pre[c] = count++;
				stack[sp++] = c;
			} else {
				a->pre_end[x] = count;
				sp--;
			}
		}
	}
	a->npre = n;
	free(stack);
	free(next);
	return TAGEVAL_OK;
}

static uint32_t tag_key(const struct tageval_annotations *a, uint32_t t)
{
	return t < a->npre ? a->pre[t] : t;
}

static int by_tag(const void *x, const void *y)
{
	uint32_t a = ((const struct tv_leafp *)x)->leaf, b = ((const struct tv_leafp *)y)->leaf;
	return (a > b) - (a < b);
}

static int scratch_fit(struct tageval_annotations *a)
{
	size_t n = a->inv->tags.n;
	if (n <= a->scratchcap)
		return TAGEVAL_OK;
	size_t cap = n * 2;
	double *s = realloc(a->scratch, cap * sizeof *s);
	if (s == NULL)
		return TAGEVAL_ENOMEM;
	a->scratch = s;
	uint32_t *st = realloc(a->stamp, cap * sizeof *st);
	if (st == NULL)
		return TAGEVAL_ENOMEM;
	memset(st + a->scratchcap, 0, (cap - a->scratchcap) * sizeof *st);
	a->stamp = st;
	uint32_t *t = realloc(a->touched, cap * sizeof *t);
	if (t == NULL)
		return TAGEVAL_ENOMEM;
	a->touched = t;
	a->scratchcap = cap;
	return TAGEVAL_OK;
}

static int by_leaf(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static int quote_id(char *out, size_t size, const struct tv_line *l)
{
	char a[80], b[80];
	tv_quote(a, sizeof a, l->field[0], strlen(l->field[0]));
	tv_quote(b, sizeof b, l->field[1], strlen(l->field[1]));
	if (a[0] == '\0') /* an item of the long form, as written */
		return snprintf(out, size, "%s", b);
	return snprintf(out, size, "%s %s", a, b);
}

#define TAGCACHE_BITS 10

/* The id of tag @s (@len bytes, at most 16, which are @w0 and @w1 in
 * little-endian order, zero-padded) of the annotations' inventory: from
 * a->tagcache when it is there, else interned (and put there).  The bytes
 * themselves are the cache's key, so a hit needs no comparison with the
 * stored string; a tag that collides with another only takes the slower
 * path.  Nonzero: out of memory. */
static int tag_id_words(struct tageval_annotations *a, const char *s, size_t len, uint64_t w0,
			uint64_t w1, uint32_t *id)
{
	uint64_t w[2] = { w0, w1 };
	uint64_t h = w[0] ^ (w[1] * UINT64_C(0xff51afd7ed558ccd)) ^ len;
	h ^= h >> 29; /* tags differ in a few bytes: mixed before the multiply */
	h *= UINT64_C(0x9e3779b97f4a7c15);
	h ^= h >> 32;
	if (a->tagcache == NULL) {
		a->tagcache = calloc((size_t)1 << TAGCACHE_BITS, sizeof *a->tagcache);
		if (a->tagcache == NULL)
			return tv_inventory_intern(a->inv, s, len, id);
	}
	struct tv_tagslot *e = &a->tagcache[h >> (64 - TAGCACHE_BITS)];
	if (e->len1 == len + 1 && e->w0 == w[0] && e->w1 == w[1]) {
		*id = e->id;
		return 0;
	}
	if (tv_inventory_intern(a->inv, s, len, id))
		return -1;
	*e = (struct tv_tagslot){ w[0], w[1], (uint32_t)len + 1, *id };
	return 0;
}

/* tag_id_words for any tag: @len bytes at @s. */
static int tag_id(struct tageval_annotations *a, const char *s, size_t len, uint32_t *id)
{
	if (len > 16)
		return tv_inventory_intern(a->inv, s, len, id);
	uint64_t w[2] = { 0, 0 };
	memcpy(w, s, len); /* in memory order, as annotate() makes them */
	return tag_id_words(a, s, len, w[0], w[1], id);
}

/* The tags of line @l into a->tags, their weights into a->weights; *k_out:
 * how many, *weighted_out: every tag has an explicit weight. */
static int line_tags(struct tageval_annotations *a, const struct tv_line *l, size_t *k_out,
		     int *weighted_out, struct tageval_error *err)
{
	size_t n = l->nfield - 2;
	char q[200];
	if (tv_grow((void **)&a->tags, &a->tagcap, n, sizeof *a->tags) ||
	    tv_grow((void **)&a->weights, &a->weightcap, n, sizeof *a->weights))
		return tv_nomem(err);
	int weighted = 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *tok = l->field[i + 2];
		size_t len;
		double w;
		int kind = tv_split_weight(tok, &len, &w);
		if (kind < 0) {
			tv_quote(q, sizeof q, tok, strlen(tok));
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"invalid weight \"%s\"", q);
		}
		if (kind == 0)
			weighted = 0;
		uint32_t t;
		if (tag_id(a, tok, len, &t))
			return tv_nomem(err);
		a->tags[k] = t;
		a->weights[k] = w;
		k++;
	}
	*k_out = k;
	*weighted_out = weighted;
	return TAGEVAL_OK;
}

/* The @k tags of line @l made distinct, in place (*d_out: how many are left);
 * a repeat on a weighted line is an error. */
static int distinct_tags(struct tageval_annotations *a, const struct tv_line *l, size_t k,
			 int weighted, size_t *d_out, struct tageval_error *err)
{
	char q[200];
	if (scratch_fit(a))
		return tv_nomem(err);
	if (++a->gen == 0) {
		memset(a->stamp, 0, a->scratchcap * sizeof *a->stamp);
		a->gen = 1;
	}
	size_t d = 0;
	for (size_t i = 0; i < k; i++) {
		if (a->stamp[a->tags[i]] == a->gen) {
			if (weighted) {
				const char *name = tv_inventory_name(a->inv, a->tags[i]);
				tv_quote(q, sizeof q, name, strlen(name));
				return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
						"tag \"%s\" repeated on a weighted line", q);
			}
			continue;
		}
		a->stamp[a->tags[i]] = a->gen;
		a->tags[d] = a->tags[i];
		a->weights[d] = a->weights[i];
		d++;
	}
	*d_out = d;
	return TAGEVAL_OK;
}

/* Room for a record of @d entries at the end of the pool, whose start and
 * end are marked in a->pstart (the entries are then written at a->npool,
 * which the caller advances by @d).  Nonzero: out of memory. */
static int pool_append(struct tageval_annotations *a, size_t d)
{
	size_t end = a->npool + d, words = end / 64 + 1, old = a->pstartcap;
	if (end > TV_POOL_MAX || tv_grow((void **)&a->pool, &a->poolcap, end, sizeof *a->pool))
		return -1;
	if (words > old) {
		if (tv_grow((void **)&a->pstart, &a->pstartcap, words, sizeof *a->pstart))
			return -1;
		memset(a->pstart + old, 0, (a->pstartcap - old) * sizeof *a->pstart);
	}
	a->pstart[a->npool >> 6] |= UINT64_C(1) << (a->npool & 63);
	a->pstart[end >> 6] |= UINT64_C(1) << (end & 63);
	return 0;
}

/* Record @rec all on tag @t (below 2^31, as any tag of a table whose
 * strings have 32-bit offsets).  Nonzero: out of memory. */
static int rec_inline(struct tv_rec *rec, uint32_t t)
{
	if (t & TV_REC_INLINE)
		return -1;
	rec->ref = TV_REC_INLINE | t;
	return 0;
}

/* The record of @d distinct tags of a flat inventory: the tags themselves,
 * in id order, each of probability w / @total. */
static int flat_record(struct tageval_annotations *a, size_t d, int weighted, double total,
		       struct tv_rec *rec, struct tageval_error *err)
{
	if (d == 1)
		return rec_inline(rec, a->tags[0]) ? tv_nomem(err) : TAGEVAL_OK;
	if (pool_append(a, d))
		return tv_nomem(err);
	struct tv_leafp *e = a->pool + a->npool;
	for (size_t i = 0; i < d; i++) {
		e[i].leaf = a->tags[i];
		e[i].key = tag_key(a, a->tags[i]);
		e[i].p = (weighted ? a->weights[i] : 1.0) / total;
	}
	if (d > 8) {
		qsort(e, d, sizeof *e, by_tag);
	} else {
		/* a few tags (most multi-tag lines): insertion sort, the same
		 * order (the tags are distinct) */
		for (size_t i = 1; i < d; i++) {
			struct tv_leafp x = e[i];
			size_t j = i;
			for (; j > 0 && e[j - 1].leaf > x.leaf; j--)
				e[j] = e[j - 1];
			e[j] = x;
		}
	}
	rec->ref = (uint32_t)a->npool + 1;
	a->npool += d;
	return TAGEVAL_OK;
}

/* The record of @d distinct tags of a hierarchy: each tag's distribution
 * over the leaves, of weight w / @total, summed per leaf. */
static int dag_record(struct tageval_annotations *a, size_t d, int weighted, double total,
		      struct tv_rec *rec, struct tageval_error *err)
{
	if (scratch_fit(a))
		return tv_nomem(err);
	if (++a->gen == 0) {
		memset(a->stamp, 0, a->scratchcap * sizeof *a->stamp);
		a->gen = 1;
	}
	size_t nt = 0;
	for (size_t i = 0; i < d; i++) {
		double w = (weighted ? a->weights[i] : 1.0) / total;
		const struct tv_leafp *dist;
		uint32_t dn;
		int rc = tag_dist(a, a->tags[i], &dist, &dn);
		if (rc)
			return tv_nomem(err);
		if (scratch_fit(a))
			return tv_nomem(err);
		for (uint32_t j = 0; j < dn; j++) {
			uint32_t leaf = dist[j].leaf;
			if (a->stamp[leaf] != a->gen) {
				a->stamp[leaf] = a->gen;
				a->scratch[leaf] = 0.0;
				a->touched[nt++] = leaf;
			}
			a->scratch[leaf] += w * dist[j].p;
		}
	}
	if (nt == 1 && a->scratch[a->touched[0]] == 1.0)
		return rec_inline(rec, a->touched[0]) ? tv_nomem(err) : TAGEVAL_OK;
	qsort(a->touched, nt, sizeof *a->touched, by_leaf);
	if (pool_append(a, nt))
		return tv_nomem(err);
	rec->ref = (uint32_t)a->npool + 1;
	for (size_t i = 0; i < nt; i++) {
		a->pool[a->npool].leaf = a->touched[i];
		a->pool[a->npool].key = a->touched[i];
		a->pool[a->npool].p = a->scratch[a->touched[i]];
		a->npool++;
	}
	return TAGEVAL_OK;
}

/* The mixture of the line's tags' distributions, into a->pool (or inline). */
int tageval_annotations_set_level(struct tageval_annotations *a,
				  const struct tageval_inventory *map, size_t level,
				  struct tageval_error *err)
{
	TV_NEED(err, a, "ann");
	if (level > 0)
		TV_NEED(err, map, "map");
	if (a->nann > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the level of the hierarchy is set before reading annotations");
	if (level > 0 && (a->inv->have_map || a->inv == map))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"with a level of the hierarchy the annotations' inventory has no map");
	for (size_t t = 0; level > 0 && map->dag && t < map->nnode; t++)
		if (map->node[t].parents.n > 1) {
			char q[80];
			const char *name = tv_inventory_name(map, (uint32_t)t);
			tv_quote(q, sizeof q, name, strlen(name));
			return tv_error(err, TAGEVAL_EFORMAT, "", 0,
					"tag \"%s\" has several parents: a level of the hierarchy "
					"needs a tree-shaped sense map", q);
		}
	a->level = level;
	a->map = level ? map : NULL;
	return TAGEVAL_OK;
}

/* The ancestor of the map's tag @t at depth a->level (the tag itself when
 * it is not deeper), each tag's depth and ancestor computed once: linear in
 * the map's tags over all calls.  TV_NONE out of memory. */
static uint32_t level_ancestor(struct tageval_annotations *a, uint32_t t)
{
	const struct tageval_inventory *inv = a->map;
	size_t nn = inv->nnode, old = a->memocap;
	if (nn > old) {
		size_t cap1 = old, cap2 = old;
		if (tv_grow((void **)&a->depth, &cap1, nn, sizeof *a->depth) ||
		    tv_grow((void **)&a->anc, &cap2, nn, sizeof *a->anc))
			return TV_NONE;
		size_t cap = cap1 < cap2 ? cap1 : cap2;
		for (size_t i = old; i < cap; i++)
			a->depth[i] = a->anc[i] = TV_NONE;
		a->memocap = cap;
	}
	size_t n = 0;
	/* the depths: up to a tag whose depth is known, or a root */
	for (uint32_t x = t; x != TV_NONE && a->depth[x] == TV_NONE;
	     x = inv->node[x].parents.n ? inv->node[x].parents.v[0] : TV_NONE) {
		if (tv_grow((void **)&a->chain, &a->chaincap, n + 1, sizeof *a->chain))
			return TV_NONE;
		a->chain[n++] = x;
	}
	while (n > 0) {
		uint32_t x = a->chain[--n];
		const struct tv_node *nd = &inv->node[x];
		a->depth[x] = nd->parents.n ? a->depth[nd->parents.v[0]] + 1 : 1;
	}
	/* the ancestors: up to a tag whose ancestor is known or that is not
	 * deeper than the level (a root has depth 1) */
	for (uint32_t x = t; a->anc[x] == TV_NONE; x = inv->node[x].parents.v[0]) {
		if (tv_grow((void **)&a->chain, &a->chaincap, n + 1, sizeof *a->chain))
			return TV_NONE;
		a->chain[n++] = x;
		if (a->depth[x] <= a->level)
			break;
	}
	while (n > 0) {
		uint32_t x = a->chain[--n];
		a->anc[x] = a->depth[x] <= a->level ? x : a->anc[inv->node[x].parents.v[0]];
	}
	return a->anc[t];
}

/* The tag of the annotations' inventory that tag @t stands for at the
 * level: its ancestor's name in the map (a tag outside the map stays).
 * TV_NONE out of memory. */
static uint32_t level_tag(struct tageval_annotations *a, uint32_t t)
{
	size_t old = a->mappedcap;
	if (t >= old) {
		if (tv_grow((void **)&a->mapped, &a->mappedcap, (size_t)t + 1, sizeof *a->mapped))
			return TV_NONE;
		for (size_t i = old; i < a->mappedcap; i++)
			a->mapped[i] = TV_NONE;
	}
	if (a->mapped[t] != TV_NONE)
		return a->mapped[t];
	const char *name = tv_inventory_name(a->inv, t);
	size_t id;
	uint32_t m = t;
	if (tageval_inventory_find(a->map, name, &id) == TAGEVAL_OK && id < a->map->nnode) {
		uint32_t anc = level_ancestor(a, (uint32_t)id);
		if (anc == TV_NONE)
			return TV_NONE;
		const char *an = tv_inventory_name(a->map, anc);
		if (tv_inventory_intern(a->inv, an, strlen(an), &m))
			return TV_NONE;
	}
	a->mapped[t] = m;
	return m;
}

/* The @d distinct tags of a line replaced by their tags at a->level, the
 * weights (1 each on an unweighted line) of tags with the same one added
 * up; the line is weighted from then on.  -1 out of memory. */
static int level_tags(struct tageval_annotations *a, size_t *d, int *weighted)
{
	for (size_t i = 0; i < *d; i++) {
		uint32_t t = level_tag(a, a->tags[i]);
		if (t == TV_NONE)
			return -1;
		a->tags[i] = t;
	}
	if (scratch_fit(a) ||
	    tv_grow((void **)&a->where, &a->wherecap, a->scratchcap, sizeof *a->where))
		return -1;
	if (++a->gen == 0) {
		memset(a->stamp, 0, a->scratchcap * sizeof *a->stamp);
		a->gen = 1;
	}
	size_t nd = 0;
	for (size_t i = 0; i < *d; i++) {
		uint32_t t = a->tags[i];
		double w = *weighted ? a->weights[i] : 1.0;
		if (a->stamp[t] == a->gen) {
			a->weights[a->where[t]] += w;
			continue;
		}
		a->stamp[t] = a->gen;
		a->where[t] = (uint32_t)nd;
		a->tags[nd] = t;
		a->weights[nd] = w;
		nd++;
	}
	*d = nd;
	*weighted = 1;
	return 0;
}

static int annotate(struct tageval_annotations *a, const struct tv_line *l, struct tv_rec *rec,
		    struct tageval_error *err)
{
	char q[200];
	if (l->nfield == 3 && a->level == 0 && a->pre_done && !a->inv->dag) {
		/* one tag without a weight (most lines): all its mass on it, as
		 * below; its length, then its bytes (up to 16) as the cache key */
		const char *s = l->field[2];
		size_t len = 0;
		while (s[len] != '\0' && s[len] != '/')
			len++;
		if (s[len] == '\0') {
			uint64_t w[2] = { 0, 0 };
			memcpy(w, s, len > 16 ? 16 : len);
			uint32_t t;
			if (len > 16 ? tv_inventory_intern(a->inv, l->field[2], len, &t)
				     : tag_id_words(a, l->field[2], len, w[0], w[1], &t))
				return tv_nomem(err);
			return rec_inline(rec, t) ? tv_nomem(err) : TAGEVAL_OK;
		}
	}
	int weighted = 0;
	size_t k = 0, d = 0;
	int rc = line_tags(a, l, &k, &weighted, err);
	if (rc)
		return rc;
	/* distinct tags; a repeat on a weighted line is an error */
	if ((rc = distinct_tags(a, l, k, weighted, &d, err)))
		return rc;
	if (a->level && level_tags(a, &d, &weighted))
		return tv_nomem(err);
	/* scaled by the power of two of the largest weight: the sum cannot
	 * overflow, and the ratios w / total do not change */
	if (weighted)
		tv_scale_weights(a->weights, d);
	double total = 0.0;
	for (size_t i = 0; i < d; i++)
		total += weighted ? a->weights[i] : 1.0;
	if (!(total > 0.0) || !isfinite(total)) {
		quote_id(q, sizeof q, l);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"the weights of \"%s\" do not have a positive finite sum", q);
	}
	if (!a->pre_done && preorder(a))
		return tv_nomem(err);
	if (!a->inv->dag)
		return flat_record(a, d, weighted, total, rec, err);
	return dag_record(a, d, weighted, total, rec, err);
}

static int add_record(struct tageval_annotations *a, size_t c, uint32_t item,
		      const struct tv_line *l, struct tageval_error *err);

/* Each item's lexelt as runs no more: one per item (the runs' items
 * expanded), @item more to come.  Nonzero: out of memory. */
static int lexelt_per_item(struct tageval_annotations *a, uint32_t item)
{
	if (tv_grow((void **)&a->item_lexelt, &a->itemcap, (size_t)item + 1,
		    sizeof *a->item_lexelt))
		return -1;
	for (size_t r = 0; r < a->nruns; r++) {
		size_t end = r + 1 < a->nruns ? a->runs[r + 1].item : a->nitems;
		for (size_t t = a->runs[r].item; t < end; t++)
			a->item_lexelt[t] = a->runs[r].lex;
	}
	free(a->runs);
	a->runs = NULL;
	a->nruns = a->runcap = 0;
	return 0;
}

/* New item @item (a->nitems: the items come in order) of lexelt @lexelt
 * (the same as the item before's most often).  Nonzero: out of memory,
 * nothing changed but the lexelts. */
static int new_item(struct tageval_annotations *a, uint32_t item, const char *lexelt)
{
	uint32_t lex = TV_NONE;
	if (item > 0)
		lex = a->item_lexelt ? a->item_lexelt[item - 1] : a->runs[a->nruns - 1].lex;
	if ((lex == TV_NONE || strcmp(tv_intern_str(&a->lexelts, lex), lexelt) != 0) &&
	    tv_intern_put(&a->lexelts, lexelt, strlen(lexelt), &lex, NULL))
		return -1;
	if (a->item_lexelt == NULL && (item == 0 || lex != a->runs[a->nruns - 1].lex)) {
		/* a new run, or one lexelt per item from here on */
		if (2 * (a->nruns + 1) > (size_t)item + 1 + 64) {
			if (lexelt_per_item(a, item))
				return -1;
		} else {
			if (tv_grow((void **)&a->runs, &a->runcap, a->nruns + 1, sizeof *a->runs))
				return -1;
			a->runs[a->nruns++] = (struct tv_lexrun){ item, lex };
		}
	}
	if (a->item_lexelt != NULL) {
		if (tv_grow((void **)&a->item_lexelt, &a->itemcap, (size_t)item + 1,
			    sizeof *a->item_lexelt))
			return -1;
		a->item_lexelt[item] = lex;
	}
	a->nitems = (size_t)item + 1;
	return 0;
}

static int add_line(struct tageval_annotations *a, size_t c, const struct tv_line *l,
		    struct tageval_error *err)
{
	char q[200];
	if (l->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "missing instance id");
	if (l->nfield == 2) {
		quote_id(q, sizeof q, l);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" has no sense tag", q);
	}
	/* the item id, found or interned where the line was read, or here */
	uint32_t item = l->inst;
	int added = l->put == TV_PUT_NEW;
	if (item == TV_NONE &&
	    tv_intern_put_hashed(&a->items, l->id, l->idlen, l->hash, &item, &added))
		return tv_nomem(err);
	if (added && new_item(a, item, l->field[0]))
		return tv_nomem(err);
	return add_record(a, c, item, l, err);
}

/* The line of annotator @c's record of @item: the last one kept for it in
 * a->far when beyond 32 bits (a failed line may have left one before it). */
static uint64_t rec_line(const struct tageval_annotations *a, size_t c, uint32_t item)
{
	uint32_t line = a->rec[c][item].line;
	if (line != TV_REC_FAR)
		return line;
	for (size_t i = a->nfar; i-- > 0;)
		if (a->far[i].c == c && a->far[i].item == item)
			return a->far[i].line;
	return line; /* not reached: every TV_REC_FAR line is kept */
}

/* The annotation of line @l by annotator @c of item @item. */
static int add_record(struct tageval_annotations *a, size_t c, uint32_t item,
		      const struct tv_line *l, struct tageval_error *err)
{
	char q[200];
	size_t need = (size_t)item + 1;
	if (need > a->nrec[c]) {
		size_t cap = a->nrec[c];
		/* grow to the number of items known, zeroing the new records */
		size_t newcap = cap ? cap : 1024;
		while (newcap < need)
			newcap *= 2;
		struct tv_rec *r = realloc(a->rec[c], newcap * sizeof *r);
		if (r == NULL)
			return tv_nomem(err);
		tv_advise_huge(r + cap, (newcap - cap) * sizeof *r);
		memset(r + cap, 0, (newcap - cap) * sizeof *r);
		a->rec[c] = r;
		a->nrec[c] = newcap;
	}
	struct tv_rec *rec = &a->rec[c][item];
	if (rec->ref != 0 && c < a->namecap && a->names[c] != NULL) {
		char n[80];
		quote_id(q, sizeof q, l);
		tv_quote(n, sizeof n, a->names[c], strlen(a->names[c]));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"annotator \"%s\" annotates item \"%s\" twice (first at line %"
				PRIu64 ")", n, q, rec_line(a, c, item));
	}
	if (rec->ref != 0) {
		quote_id(q, sizeof q, l);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				rec_line(a, c, item));
	}
	if (l->lineno < TV_REC_FAR) {
		rec->line = (uint32_t)l->lineno;
	} else {
		if (tv_grow((void **)&a->far, &a->farcap, a->nfar + 1, sizeof *a->far))
			return tv_nomem(err);
		a->far[a->nfar++] = (struct tv_farline){ l->lineno, c, item };
		rec->line = TV_REC_FAR;
	}
	return annotate(a, l, rec, err);
}

/* One annotator's file being read: its number. */
struct reading {
	struct tageval_annotations *a;
	size_t c;
	int put; /* the item ids are interned before the lines come (tv_each's put) */
};

static void prefetch_record(void *ctx, uint32_t item)
{
	const struct reading *rd = ctx;
	if (item < rd->a->nrec[rd->c])
		__builtin_prefetch(&rd->a->rec[rd->c][item]);
}

static int each_add_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	const struct reading *rd = ctx;
	if (rd->put && l->put == TV_PUT_NO)
		l->inst = TV_NONE; /* not interned there: here */
	return add_line(rd->a, rd->c, l, err);
}

/*
 * The entries annotator @c added to the pool from @start on, laid out again
 * in the order of its items (they came in the order of its lines): every
 * pass over the items then reads the pool in order, where a shuffled file
 * made each read a cache miss.  Only the layout changes; without the
 * memory for it, nothing does.
 */
static void pool_in_item_order(struct tageval_annotations *a, size_t c, size_t start)
{
	size_t n = a->npool - start, k = 0;
	if (n == 0)
		return;
	struct tv_leafp *tmp = malloc(n * sizeof *tmp);
	if (tmp == NULL)
		return;
	/* the records' extents read from a->pstart before it changes */
	for (size_t t = 0; t < a->nrec[c]; t++) {
		struct tv_rec *r = &a->rec[c][t];
		if (r->ref == 0 || tv_rec_inline(r))
			continue;
		size_t m;
		const struct tv_leafp *e = tv_rec_pool(a, r, &m);
		memcpy(tmp + k, e, m * sizeof *tmp);
		r->ref = (uint32_t)(start + k) + 1;
		k += m;
	}
	memcpy(a->pool + start, tmp, k * sizeof *tmp);
	free(tmp);
	/* the starts again: the record at start, and the end (npool), stay */
	for (size_t i = start + 1; i < a->npool; i++)
		a->pstart[i >> 6] &= ~(UINT64_C(1) << (i & 63));
	for (size_t t = 0; t < a->nrec[c]; t++) {
		const struct tv_rec *r = &a->rec[c][t];
		if (r->ref != 0 && !tv_rec_inline(r))
			a->pstart[(r->ref - 1) >> 6] |= UINT64_C(1) << ((r->ref - 1) & 63);
	}
}

static int read_annotator(struct tageval_annotations *a, struct tv_reader *r,
			  struct tageval_error *err)
{
	/* ids past the items of the lines accepted (a read or a cut that
	 * failed before) are cut first */
	if (tv_intern_cut(&a->items, a->nitems))
		return tv_nomem(err);
	size_t c = a->nann, start = a->npool;
	size_t cap = a->nann, cap2 = a->nann;
	if (tv_grow((void **)&a->rec, &cap, c + 1, sizeof *a->rec) ||
	    tv_grow((void **)&a->nrec, &cap2, c + 1, sizeof *a->nrec))
		return tv_nomem(err);
	a->rec[c] = NULL;
	a->nrec[c] = 0;
	a->nann++;
	/* the records of the items known, allocated zeroed at once (most
	 * files annotate the same items): neither grown nor zeroed line by line */
	if (a->nitems > 1024) {
		a->rec[c] = calloc(a->nitems, sizeof *a->rec[c]);
		if (a->rec[c] == NULL)
			return tv_nomem(err);
		tv_advise_huge(a->rec[c], a->nitems * sizeof *a->rec[c]);
		a->nrec[c] = a->nitems;
	}
	/* The first file (no item known): its item ids interned before the
	 * lines are handed over, in file order, a chunk at a time by whichever
	 * thread is free (tv_each's put), add_line() only filing the records.
	 * The next (most items known):
	 * the ids looked up in stages (their cache misses overlap) where the
	 * lines are read, until one is new. */
	struct reading rd = { a, c, a->items.n == 0 };
	struct tv_each e = { .id = TV_ID_JOINED, .ids = &a->items, .lookup = TV_LOOKUP_FIND,
			     .found = prefetch_record, .find_until_new = 1, .line = each_add_line,
			     .ctx = &rd };
	if (rd.put) {
		/* the table grows toward the items the file's size suggests */
		e.expect = &a->items;
		e.lookup = TV_LOOKUP_SLOT;
		e.put = &a->items;
		e.find_until_new = 0;
	}
	size_t lines;
	int rc = tv_each_line(r, &e, &lines, err);
	/* the ids interned past the line that failed (a few chunks ahead) are cut
	 * back: the items are those of the lines accepted, as when this thread
	 * interned them (an item is new at its first line, and new items are
	 * numbered in file order) */
	if (rc != TAGEVAL_OK)
		(void)tv_intern_cut(&a->items, a->nitems); /* the error stays the file's;
							    * out of memory: the next read cuts */
	if (rc == TAGEVAL_OK && lines == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no annotations");
	if (rc == TAGEVAL_OK)
		pool_in_item_order(a, c, start);
	return rc;
}

static int run_annotator(void *a, struct tv_reader *r, struct tageval_error *err)
{
	return read_annotator(a, r, err);
}

int tv_annotations_read_reader(struct tageval_annotations *a, struct tv_reader *r,
			       struct tageval_error *err)
{
	return read_annotator(a, r, err);
}

/* The identity of the regular file @path: 1, or 0 (standard input, not a
 * regular file, or stat failed). */
static int file_id(const char *path, struct tv_fileid *id)
{
	struct stat st;
	memset(id, 0, sizeof *id);
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	id->size = (uint64_t)st.st_size;
	id->mtime_s = (uint64_t)st.st_mtim.tv_sec;
	id->mtime_ns = (uint64_t)st.st_mtim.tv_nsec;
	id->ctime_s = (uint64_t)st.st_ctim.tv_sec;
	id->ctime_ns = (uint64_t)st.st_ctim.tv_nsec;
	id->known = 1;
	return 1;
}

static int same_file(const struct tv_fileid *x, const struct tv_fileid *y)
{
	return x->known && y->known && x->dev == y->dev && x->ino == y->ino && x->size == y->size &&
	       x->mtime_s == y->mtime_s && x->mtime_ns == y->mtime_ns &&
	       x->ctime_s == y->ctime_s && x->ctime_ns == y->ctime_ns;
}

/* A file changed within the last two seconds could be changed again
 * within the same tick of the file system's clock and keep its times and
 * size (git's "racy" files): such a file is read again when given again. */
static int racy(const struct tv_fileid *id)
{
	struct timespec now;
	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		return 1;
	uint64_t t = (uint64_t)now.tv_sec;
	return id->mtime_s + 2 >= t || id->ctime_s + 2 >= t;
}

/* A new annotator whose records are those of annotator @k (the same file,
 * unchanged, read again would give them: its items and tags are known).
 * The two share the array of records, which nothing writes once its file is
 * read (tageval_annotations_free frees it once). */
static int copy_annotator(struct tageval_annotations *a, size_t k, struct tageval_error *err)
{
	size_t c = a->nann;
	size_t cap = a->nann, cap2 = a->nann;
	if (tv_grow((void **)&a->rec, &cap, c + 1, sizeof *a->rec) ||
	    tv_grow((void **)&a->nrec, &cap2, c + 1, sizeof *a->nrec))
		return tv_nomem(err);
	a->rec[c] = a->rec[k];
	a->nrec[c] = a->nrec[k];
	a->nann++;
	return TAGEVAL_OK;
}

int tageval_annotations_read(struct tageval_annotations *a, const char *path,
			     struct tageval_error *err)
{
	TV_NEED(err, a, "ann");
	struct tv_fileid id, after;
	int known = path != NULL && file_id(path, &id);
	for (size_t k = 0; known && k < a->nann && k < a->fileidcap; k++)
		if (same_file(&a->fileid[k], &id))
			return copy_annotator(a, k, err);
	int rc = tv_read_path(__func__, path, run_annotator, a, err);
	if (rc != TAGEVAL_OK || !known)
		return rc;
	/* remembered when the file did not change while it was read */
	size_t c = a->nann - 1, cap = a->fileidcap;
	if (tv_grow((void **)&a->fileid, &a->fileidcap, c + 1, sizeof *a->fileid))
		return tv_nomem(err);
	memset(a->fileid + cap, 0, (a->fileidcap - cap) * sizeof *a->fileid);
	if (file_id(path, &after) && same_file(&id, &after) && !racy(&id))
		a->fileid[c] = id;
	return TAGEVAL_OK;
}

int tageval_annotations_read_buffer(struct tageval_annotations *a, const char *data,
				    size_t size, const char *name, struct tageval_error *err)
{
	TV_NEED(err, a, "ann");
	return tv_read_buffer(__func__, data, size, name, run_annotator, a, err);
}

/* ------------------------------------------------------------ long form */

/* The file of the long form being read: its annotators, numbered from
 * a->nann in the order of their first line until the end, then sorted. */
struct long_reading {
	struct tageval_annotations *a;
	size_t first;             /* a->nann before the file */
	struct tv_intern names;   /* annotator name -> number - first */
	char *key;                /* the item's id "lexelt instance" */
	size_t keycap;
	char **field;             /* lexelt, instance and the tags of a line */
	size_t fieldcap;
	char empty[1];            /* the lexelt of an item without a colon */
	/* The table of annotators x items grows line by line while it has at
	 * most 16 cells per annotation read plus 4M; from the first line that
	 * would make it larger, the lines are kept (copied) instead, until the
	 * whole file says whether the table is allowed, so that refusing a file
	 * as too sparse does not depend on the order of its lines. */
	size_t nread;  /* annotation lines so far */
	int keeping;   /* the lines from here on are kept */
	struct long_ann *ln;
	size_t nln, lncap;
	char *text; /* each line's item as written, then its tags, NUL after each */
	size_t used, textcap;
};

struct long_ann {
	uint64_t lineno;
	size_t off;     /* of its strings in text */
	uint32_t c;     /* the annotator (before the sort) */
	uint32_t item;
	uint32_t nfield; /* item, annotator and tags: 3 and more */
};

/* One more annotator named @name (@len bytes) into a (its records empty). */
static int long_annotator(struct tageval_annotations *a, const char *name, size_t len)
{
	size_t c = a->nann, cap = c, cap2 = c, cap3 = a->namecap;
	if (tv_grow((void **)&a->rec, &cap, c + 1, sizeof *a->rec) ||
	    tv_grow((void **)&a->nrec, &cap2, c + 1, sizeof *a->nrec))
		return TAGEVAL_ENOMEM;
	if (cap3 < c + 1) {
		size_t old = a->namecap;
		if (tv_grow((void **)&a->names, &a->namecap, c + 1, sizeof *a->names))
			return TAGEVAL_ENOMEM;
		memset(a->names + old, 0, (a->namecap - old) * sizeof *a->names);
	}
	char *n = malloc(len + 1);
	if (n == NULL)
		return TAGEVAL_ENOMEM;
	memcpy(n, name, len);
	n[len] = '\0';
	a->names[c] = n;
	a->rec[c] = NULL;
	a->nrec[c] = 0;
	a->nann++;
	return TAGEVAL_OK;
}

static int long_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	struct long_reading *rd = ctx;
	struct tageval_annotations *a = rd->a;
	char *csv[3];
	char **f = l->field;
	size_t nf = l->nfield;
	if (nf == 1 && strchr(f[0], ',') != NULL) {
		/* item,annotator,tag: three fields, none empty */
		char *p = f[0];
		size_t n = 0;
		for (;;) {
			char *comma = strchr(p, ',');
			if (n == 3)
				return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
						"a CSV line has three fields (item,annotator,tag), "
						"this one has more");
			csv[n++] = p;
			if (comma == NULL)
				break;
			*comma = '\0';
			p = comma + 1;
		}
		static const char *const what[] = { "item", "annotator", "tag" };
		for (size_t i = 0; i < n; i++)
			if (csv[i][0] == '\0')
				return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
						"empty %s in a CSV line", what[i]);
		if (n < 3)
			return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
					"a CSV line has three fields (item,annotator,tag), "
					"this one has %zu", n);
		f = csv;
		nf = 3;
	}
	char q[200];
	if (nf == 1) {
		tv_quote(q, sizeof q, f[0], strlen(f[0]));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"item \"%s\" has no annotator", q);
	}
	if (nf == 2) {
		char n[80];
		tv_quote(q, sizeof q, f[0], strlen(f[0]));
		tv_quote(n, sizeof n, f[1], strlen(f[1]));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"item \"%s\" of annotator \"%s\" has no tag", q, n);
	}
	/* the annotator */
	uint32_t k;
	int added = 0;
	if (tv_intern_put(&rd->names, f[1], strlen(f[1]), &k, &added))
		return tv_nomem(err);
	if (added && long_annotator(a, f[1], strlen(f[1])))
		return tv_nomem(err);
	size_t c = rd->first + k;
	/* the item: lexelt and instance; the line handed on names the item as
	 * written (an empty lexelt and the whole item as its instance) */
	char *colon = strchr(f[0], ':');
	const char *key = f[0], *lexelt = rd->empty;
	size_t keylen = strlen(f[0]);
	if (colon != NULL) {
		*colon = '\0';
		keylen = tv_join_id(&rd->key, &rd->keycap, f[0], colon + 1);
		if (keylen == (size_t)-1) {
			*colon = ':';
			return tv_nomem(err);
		}
		key = rd->key;
		lexelt = f[0];
	}
	uint32_t item;
	added = 0;
	int rc = tv_intern_put(&a->items, key, keylen, &item, &added);
	if (rc == 0 && added)
		rc = new_item(a, item, lexelt);
	if (colon != NULL)
		*colon = ':';
	if (rc)
		return tv_nomem(err);
	rd->nread++;
	size_t m = a->nann - rd->first, width = a->nitems > 1024 ? a->nitems : 1024;
	if (!rd->keeping && (uint64_t)m * width > 16 * (uint64_t)rd->nread + (UINT64_C(1) << 22))
		rd->keeping = 1;
	if (!rd->keeping) {
		if (tv_grow((void **)&rd->field, &rd->fieldcap, nf, sizeof *rd->field))
			return tv_nomem(err);
		rd->field[0] = rd->empty;
		rd->field[1] = f[0];
		for (size_t i = 2; i < nf; i++)
			rd->field[i] = f[i];
		struct tv_line ml = *l;
		ml.field = rd->field;
		ml.nfield = nf;
		return add_record(a, c, item, &ml, err);
	}
	/* kept: the item as written and the tags */
	size_t len = strlen(f[0]) + 1;
	for (size_t i = 2; i < nf; i++)
		len += strlen(f[i]) + 1;
	if (nf > UINT32_MAX || c > UINT32_MAX ||
	    tv_grow((void **)&rd->ln, &rd->lncap, rd->nln + 1, sizeof *rd->ln) ||
	    tv_grow((void **)&rd->text, &rd->textcap, rd->used + len, 1))
		return tv_nomem(err);
	rd->ln[rd->nln++] = (struct long_ann){ .lineno = l->lineno, .off = rd->used,
					       .c = (uint32_t)c, .item = item,
					       .nfield = (uint32_t)nf };
	for (size_t i = 0; i < nf; i++) {
		if (i == 1)
			continue;
		size_t n = strlen(f[i]) + 1;
		memcpy(rd->text + rd->used, f[i], n);
		rd->used += n;
	}
	return TAGEVAL_OK;
}

/* The annotators x items table (a record per cell, 1024 items at least per
 * annotator) is refused when it would have more than 16 cells per
 * annotation line, plus 4M: whatever the order of the lines, since it
 * counts the whole file. */
static int long_too_sparse(const struct long_reading *rd, const char *name,
			   struct tageval_error *err)
{
	const struct tageval_annotations *a = rd->a;
	size_t m = a->nann - rd->first, width = a->nitems > 1024 ? a->nitems : 1024;
	uint64_t room = 16 * (uint64_t)rd->nread + (UINT64_C(1) << 22);
	if ((uint64_t)m * width > room)
		return tv_error(err, TAGEVAL_EFORMAT, name, 0,
				"%zu annotators over %zu items in %zu annotations: too sparse "
				"(the annotators x items table would exceed 16 cells per "
				"annotation plus 4M)",
				m, a->nitems, rd->nread);
	return TAGEVAL_OK;
}

/* The lines kept, into the table, in the order of the file (they come after
 * every line added as it was read). */
static int long_records(struct long_reading *rd, const char *name, struct tageval_error *err)
{
	for (size_t k = 0; k < rd->nln; k++) {
		const struct long_ann *x = &rd->ln[k];
		if (tv_grow((void **)&rd->field, &rd->fieldcap, x->nfield, sizeof *rd->field))
			return tv_nomem(err);
		char *p = rd->text + x->off;
		rd->field[0] = rd->empty;
		for (size_t i = 1; i < x->nfield; i++) {
			rd->field[i] = p;
			p += strlen(p) + 1;
		}
		struct tv_line ml;
		memset(&ml, 0, sizeof ml);
		ml.name = name;
		ml.lineno = x->lineno;
		ml.field = rd->field;
		ml.nfield = x->nfield;
		int rc = add_record(rd->a, x->c, x->item, &ml, err);
		if (rc)
			return rc;
	}
	return TAGEVAL_OK;
}

struct named {
	char *name;
	struct tv_rec *rec;
	size_t nrec;
};

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

/* The annotators of the file, a->names[first ..], in byte order of names
 * (distinct: they were interned). */
static int sort_annotators(struct tageval_annotations *a, size_t first)
{
	size_t n = a->nann - first;
	if (n < 2)
		return TAGEVAL_OK;
	struct named *v = malloc(n * sizeof *v);
	if (v == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = (struct named){ a->names[first + i], a->rec[first + i], a->nrec[first + i] };
	qsort(v, n, sizeof *v, by_name);
	for (size_t i = 0; i < n; i++) {
		a->names[first + i] = v[i].name;
		a->rec[first + i] = v[i].rec;
		a->nrec[first + i] = v[i].nrec;
	}
	free(v);
	return TAGEVAL_OK;
}

static int run_long(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct tageval_annotations *a = ctx;
	if (tv_intern_cut(&a->items, a->nitems))
		return tv_nomem(err);
	struct long_reading rd = { .a = a, .first = a->nann };
	tv_intern_init(&rd.names);
	struct tv_each e = { .id = TV_ID_NONE, .line = long_line, .ctx = &rd };
	size_t lines;
	int rc = tv_each_line(r, &e, &lines, err);
	if (rc == TAGEVAL_OK && lines == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no annotations");
	if (rc == TAGEVAL_OK) {
		rc = long_too_sparse(&rd, r->name, err);
		if (rc == TAGEVAL_OK)
			rc = long_records(&rd, r->name, err);
	} else if (rc == TAGEVAL_EFORMAT && long_too_sparse(&rd, r->name, NULL) == TAGEVAL_OK) {
		/* a line before the bad one may hold an earlier error (a tag
		 * annotated twice, a bad weight): that one is reported */
		struct tageval_error first;
		int rc2 = long_records(&rd, r->name, &first);
		if (rc2 != TAGEVAL_OK) {
			rc = rc2;
			if (err)
				*err = first;
		}
	}
	if (rc == TAGEVAL_OK && sort_annotators(a, rd.first))
		rc = tv_nomem(err);
	tv_intern_clear(&rd.names);
	free(rd.key);
	free(rd.field);
	free(rd.ln);
	free(rd.text);
	return rc;
}

int tageval_annotations_read_long(struct tageval_annotations *a, const char *path,
				  struct tageval_error *err)
{
	TV_NEED(err, a, "ann");
	return tv_read_path(__func__, path, run_long, a, err);
}

int tageval_annotations_read_long_buffer(struct tageval_annotations *a, const char *data,
					 size_t size, const char *name, struct tageval_error *err)
{
	TV_NEED(err, a, "ann");
	return tv_read_buffer(__func__, data, size, name, run_long, a, err);
}

const char *tageval_annotations_annotator_name(const struct tageval_annotations *a, size_t c)
{
	TV_NULL_RET(a, NULL);
	if (c >= a->nann || a->names == NULL || c >= a->namecap)
		return NULL;
	return a->names[c];
}
