/* SPDX-License-Identifier: GPL-3.0-or-later */
/* String interning with a keyed hash (tageval-intern.c); not installed. */
#ifndef TAGEVAL_INTERN_H
#define TAGEVAL_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "tageval-util.h"

/* ------------------------------------------------------------ string interner */

struct tv_arena_block;

/*
 * A slot is 8 bytes, the hash and the id + 1 (0 = empty): a table of a
 * million instance ids is 16 MiB at load 1/2.  A look-up of a string that
 * is there costs three memory accesses (slot, str[id], string); callers
 * with many look-ups overlap them with the prefetch stages below.
 */
struct tv_slot {
	uint32_t hash;
	uint32_t id1;
};

struct tv_intern {
	struct tv_arena_block *blocks; /* newest first */
	char **str;                    /* id -> NUL-terminated string */
	size_t n, cap;
	struct tv_slot *slots;         /* open addressing, linear probing */
	size_t mask;                   /* nslots - 1 (0 before the first insert) */
	uint64_t hashkey[2];           /* the SipHash key, random per table */
	uint32_t *front;               /* tv_intern_put / _find on a small table:
					* the last id (+ 1) seen per cheap hash */
};

/* An empty table with a new random hash key (see tageval-intern.c). */
void tv_intern_init(struct tv_intern *in);
void tv_intern_clear(struct tv_intern *in);
/* Interns s[0..len); *id receives its id; *added (if not NULL) 1 when new. */
int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added);
/* 1 and *id when found, 0 otherwise. */
int tv_intern_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id);

/*
 * The same with the hash computed beforehand, and prefetches: a caller with
 * many look-ups to do (a batch of lines) hashes them all, prefetches their
 * slots, then their strings, and only then looks them up, so that the cache
 * misses of a batch overlap instead of following one another.  @h is
 * tv_intern_hash(in, s, len), the hash under the table's own key (a test may
 * choose any value, as long as a string keeps the same one).
 */
uint32_t tv_intern_hash(const struct tv_intern *in, const char *s, size_t len);
int tv_intern_find_hashed(const struct tv_intern *in, const char *s, size_t len, uint32_t h,
			  uint32_t *id);
int tv_intern_put_hashed(struct tv_intern *in, const char *s, size_t len, uint32_t h,
			 uint32_t *id, int *added);
/* The stages: the slot, then the string's pointer, then the string; each
 * reads only what the previous one fetched (the first slot probed). */
void tv_intern_prefetch(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_entry(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_string(const struct tv_intern *in, uint32_t h);

static inline const char *tv_intern_str(const struct tv_intern *in, uint32_t id)
{
	return in->str[id];
}
/* Prefetches string @id of a table too large for the cache: its pointer
 * first, the bytes (reading the pointer) some look-ups later. */
static inline void tv_intern_prefetch_ptr(const struct tv_intern *in, uint32_t id)
{
	__builtin_prefetch(&in->str[id]);
}
static inline void tv_intern_prefetch_bytes(const struct tv_intern *in, uint32_t id)
{
	__builtin_prefetch(in->str[id]);
}
/* The length of string @id. */
size_t tv_intern_len(const struct tv_intern *in, uint32_t id);

/*
 * Sorts @ids[0..n) by the bytes of their strings (strcmp's order), the
 * first 16 bytes compared as two integers (a merge sort: O(n log n)).
 */
struct tv_sort_name {
	uint64_t k0, k1;  /* bytes 0-7 and 8-15, big-endian, zero-padded */
	uint32_t id, len; /* len: the string's, at most UINT32_MAX */
};
/* @tmp has room for 2n. */
void tv_intern_sort_ids(const struct tv_intern *in, uint32_t *ids, size_t n,
			struct tv_sort_name *tmp);

/* SipHash-1-3 (the table's hash) and SipHash-2-4 (for the test vectors of
 * the SipHash paper) of @len bytes under the 128-bit key k0 = key[0], k1 = key[1]. */
uint64_t tv_siphash13(const uint64_t key[2], const void *data, size_t len);
uint64_t tv_siphash24(const uint64_t key[2], const void *data, size_t len);

#endif
