/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Supervised evaluation of induced senses: the object the splits
 * (tageval-supervised-splits.c) fill and the mapping
 * (tageval-supervised-map.c) reads; not installed.
 */
#ifndef TAGEVAL_SUPERVISED_H
#define TAGEVAL_SUPERVISED_H

#include <stddef.h>
#include <stdint.h>

#include "tageval-intern.h"
#include "tageval-wsi.h"

/* The role of a gold instance in one split. */
enum { ROLE_NONE = 0, ROLE_MAPPING = 1, ROLE_TEST = 2 };

/* Position p of the grouped order: instance order[p] (tv_sup_inst()), its
 * gold labels in gpool (tv_sup_gold()), its clusters here and in gkind[p]
 * (5 bytes): read them with tv_sup_sys_n() and sys_of(). */
struct grouped {
	uint32_t v; /* TV_G_POOLED: where its clusters are in gsys; otherwise its
		     * single cluster, weight 1 (TV_G_NONE: the unanswered one) */
};

/* gkind[p]: position p's clusters; TV_G_NONE and TV_G_ONE are their number. */
enum { TV_G_NONE = 0, TV_G_ONE = 1, TV_G_POOLED = 2 };

/* Role @i of a split's roles, packed four to a byte (tv_roles_size()):
 * 5 splits 1.25 B an instance, not 5. */
static inline int tv_role(const uint8_t *role, size_t i)
{
	return role[i >> 2] >> ((i & 3) * 2) & 3;
}

static inline void tv_role_set(uint8_t *role, size_t i, int v)
{
	unsigned shift = (unsigned)(i & 3) * 2;
	role[i >> 2] = (uint8_t)((role[i >> 2] & ~(3u << shift)) | (unsigned)v << shift);
}

/* The bytes of the roles of @n instances (at least one). */
static inline size_t tv_roles_size(size_t n)
{
	return n ? (n + 3) / 4 : 1;
}

struct split {
	uint8_t *role;        /* per gold instance (tv_role()); once grouped, in the
			       * grouped order (role p that of instance order[p]) */
	int grouped;          /* set at the split's first evaluation, or when
			       * drawn (folds, random splits: made so) */
	uint32_t *lab_first;  /* labels from the split's files, or NULL: the gold ones */
	uint32_t *lab_n;
	uint32_t *pool;
	size_t npool, poolcap;
};

/* A split's figures as evaluate_all() (tageval-supervised-map.c) takes
 * them for every split in one pass over the words. */
struct fused {
	size_t mapping, test, answered;
	size_t ncorrect; /* test instances answered with one of their labels */
	int too_many;    /* a test instance has more labels than the key takes */
};

struct tageval_supervised {
	const struct tageval_wsi *w;
	char *pos;
	struct tv_intern senses;  /* sense names (no kind prefix) */
	uint32_t *gpool;          /* gold labels as sense ids, in grouped order, or
				   * NULL and in gpool16 instead: 16-bit when the
				   * gold key has at most 65,536 labels (so many
				   * senses at most): 2 MB less at a million */
	uint16_t *gpool16;
	uint32_t *gfirst;         /* position p's in gpool[gfirst[p] .. gfirst[p + 1]),
				   * or NULL: one each, gpool[p] */
	uint8_t *selected;        /* per word */
	uint32_t *start, *order;  /* instances grouped by word (tv_wsi_group()) */
	int borrowed;             /* start and order are the caller's */
	/* copies in the grouped order, so that a word's instances are read
	 * front to back: position p holds instance order[p] */
	struct grouped *g;
	uint8_t *gkind;           /* TV_G_* of each position */
	const struct tv_wlabel *gsys; /* the wsi object's sys_pool (each line's first
				   * label's nline their number), set at each reload */
	uint32_t *label_sense;    /* wsi label id -> sense id + 1 (0: not yet) */
	struct split *splits;
	size_t nsplits, splitcap;
	/* every split's figures, taken at the first evaluation without the
	 * mapped answers; NULL until then, and again when the clusters are
	 * reloaded or a split is added */
	struct fused *fused;
};

/* The instance at grouped position @g. */
static inline uint32_t tv_sup_inst(const struct tageval_supervised *s, const struct grouped *g)
{
	return s->order[g - s->g];
}

/* Its number of clusters. */
static inline uint32_t tv_sup_sys_n(const struct tageval_supervised *s, const struct grouped *g)
{
	uint8_t kind = s->gkind[g - s->g];
	return kind == TV_G_POOLED ? s->gsys[g->v].nline : kind;
}

/* @n sense ids: 16-bit (h, the gold key's when gpool16 holds them) or
 * 32-bit (w: a split file's, or a larger gold key's).  Read with tv_sense_at(). */
struct tv_senses {
	const uint16_t *h; /* NULL: w */
	const uint32_t *w;
	uint32_t n;
};

static inline uint32_t tv_sense_at(struct tv_senses l, uint32_t j)
{
	return l.h != NULL ? l.h[j] : l.w[j];
}

/* Its gold labels (sense ids). */
static inline struct tv_senses tv_sup_gold(const struct tageval_supervised *s,
					   const struct grouped *g)
{
	size_t p = (size_t)(g - s->g);
	size_t first = s->gfirst == NULL ? p : s->gfirst[p];
	uint32_t n = s->gfirst == NULL ? 1 : s->gfirst[p + 1] - s->gfirst[p];
	if (s->gpool16 != NULL)
		return (struct tv_senses){ s->gpool16 + first, NULL, n };
	return (struct tv_senses){ NULL, s->gpool + first, n };
}

/* Takes the clusters the wsi object now holds (tv_wsi_clear_clusters(),
 * then another clustering read), keeping the splits: they depend on the
 * gold key alone. */
int tv_supervised_reload(struct tageval_supervised *sup);

/* Frees the copies of the clusters (5 bytes an instance) until
 * tv_supervised_reload(): a report reads the next clustering without them.  Nothing but tv_supervised_reload() and
 * tageval_supervised_free() may be called until then. */
void tv_supervised_unload(struct tageval_supervised *sup);

/* tageval_supervised_new() with the instances grouped by word as
 * tv_wsi_group() gives them (@start and @order, borrowed: they must outlive
 * the object), or grouped here when @start is NULL. */
int tv_supervised_new_grouped(const struct tageval_wsi *w, const char *pos,
			      const uint32_t *start, const uint32_t *order,
			      struct tageval_supervised **out, struct tageval_error *err);

#endif
