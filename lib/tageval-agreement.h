/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The annotations' layout, shared by reading and the agreement computation. */
#ifndef TAGEVAL_AGREEMENT_H
#define TAGEVAL_AGREEMENT_H

#include "tageval-intern.h"
#include "tageval-inventory.h"

struct tv_reader;

/* An entry of an annotation: with a tree-shaped map (or none), a tag of the
 * line and its share of the line's weight; with a DAG, a leaf and its
 * probability.  Entries are in id order; @key is the tag's place in a
 * preorder walk of the map (tags outside it come after), or the leaf's id. */
struct tv_leafp {
	uint32_t leaf;
	uint32_t key;
	double p;
};

#define TV_REC_INLINE 0x80000000u

#define TV_REC_FAR 0xffffffffu

/* One annotation, 8 bytes (a million items and three annotators: three
 * arrays of them): @ref 0 absent; TV_REC_INLINE | t: all mass on leaf t
 * (t < 2^31); otherwise the entries of the pool from @ref - 1, as many as
 * up to the next record's start (the annotations' @pstart).  @line: its
 * line, kept for the message of a duplicate; TV_REC_FAR for a line of
 * 2^32 - 1 or beyond (a file may have more than 4G lines), whose number is
 * in the annotations' @far. */
struct tv_rec {
	uint32_t ref;
	uint32_t line;
};

/* The pool's entries at most: a record's @ref, its first entry + 1, stays
 * below TV_REC_INLINE. */
#define TV_POOL_MAX ((size_t)TV_REC_INLINE - 2)

static inline int tv_rec_inline(const struct tv_rec *r)
{
	return (r->ref & TV_REC_INLINE) != 0;
}

/* The leaf of an inline record. */
static inline uint32_t tv_rec_leaf(const struct tv_rec *r)
{
	return r->ref & ~TV_REC_INLINE;
}

struct tageval_annotations {
	struct tageval_inventory *inv;
	struct tv_intern items;     /* "lexelt instance" -> item */
	struct tv_intern lexelts;   /* numbered in the order of their first item */
	size_t nitems;
	/* each item's lexelt: while the new items' lexelts come in runs (a
	 * file in lexelt order: a few hundred), a run's first item and its
	 * lexelt, 8 bytes a run (@runs); once there would be more runs than
	 * half the items, one lexelt per item instead (@item_lexelt: 4 bytes
	 * an item, never more than the runs would take) */
	struct tv_lexrun {
		uint32_t item, lex;
	} *runs;
	size_t nruns, runcap;
	uint32_t *item_lexelt; /* NULL while the runs are kept */
	size_t itemcap;
	size_t nann;
	struct tv_rec **rec;        /* [annotator][item] */
	size_t *nrec;               /* allocated records per annotator */
	struct tv_leafp *pool;
	size_t npool, poolcap;
	/* bit k: entry k of the pool starts a record, or k == npool (so the
	 * entries of the record at k end at the next bit set) */
	uint64_t *pstart;
	size_t pstartcap; /* words */
	/* the lines of the records whose line is TV_REC_FAR, in reading order */
	struct tv_farline {
		uint64_t line;
		size_t c;
		uint32_t item;
	} *far;
	size_t nfar, farcap;
	/* tree-shaped map: tag -> preorder number, and one past its subtree's */
	uint32_t *pre, *pre_end;
	size_t npre;
	int pre_done;
	/* DAG: tag -> leaf distribution cache */
	uint32_t *cache_off, *cache_n;
	size_t cachecap;
	struct tv_leafp *cpool;
	size_t ncpool, cpoolcap;
	struct tageval_dist *dist;
	/* scratch for mixing a line's tags */
	double *scratch;
	uint32_t *stamp, *touched;
	size_t scratchcap;
	uint32_t gen;
	uint32_t *tags;
	size_t tagcap;
	/* the ids of tags of up to 16 bytes already interned, by their bytes
	 * (line_tags): a line's tags without hashing them (tag_id) */
	struct tv_tagslot {
		uint64_t w0, w1; /* the bytes, zero-padded */
		uint32_t len1;   /* length + 1, 0: empty */
		uint32_t id;
	} *tagcache;
	double *weights;
	size_t weightcap;
	/* tageval_annotations_set_level(): every tag replaced by its ancestor
	 * at depth @level (1: the top level) in the sense map @map, 0: none */
	size_t level;
	const struct tageval_inventory *map;
	uint32_t *depth, *anc; /* [map tag] memo, TV_NONE before computed */
	size_t memocap;
	uint32_t *mapped;      /* [tag] its level tag, TV_NONE before computed */
	size_t mappedcap;
	uint32_t *chain, *where;
	size_t chaincap, wherecap;
	/* tageval_annotations_read_long(): each annotator's name, NULL for an
	 * annotator read from a file of its own */
	char **names;
	size_t namecap;
	/* tageval_annotations_read(): the file each annotator was read from
	 * (known 0: none, or not a regular file), so that the same unchanged
	 * file given again is not read again: its records are copied */
	struct tv_fileid {
		uint64_t dev, ino, size, mtime_s, mtime_ns, ctime_s, ctime_ns;
		int known;
	} *fileid;
	size_t fileidcap;
};

/* The entries of the pool record @r (not inline): its first, *n of them. */
static inline const struct tv_leafp *tv_rec_pool(const struct tageval_annotations *a,
						 const struct tv_rec *r, size_t *n)
{
	size_t first = (size_t)r->ref - 1, k = first + 1;
	uint64_t w = a->pstart[k >> 6] >> (k & 63);
	while (w == 0) {
		k = (k | 63) + 1;
		w = a->pstart[k >> 6];
	}
	*n = k + (size_t)__builtin_ctzll(w) - first;
	return a->pool + first;
}

/* Reads annotator a->nann's annotations from @r (white-box tests: a reader
 * started at a line number beyond 2^32). */
int tv_annotations_read_reader(struct tageval_annotations *a, struct tv_reader *r,
			       struct tageval_error *err);

/* Every figure of @out NaN, no reason yet (tageval-alpha.c): the figures
 * of tageval_agreement_weighted() and its readers on an error. */
void tv_weighted_figures_clear(struct tageval_weighted_figures *out);

#endif
