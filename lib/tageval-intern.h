/* SPDX-License-Identifier: GPL-3.0-or-later */
/* String interning with a keyed hash (tageval-intern.c); not installed. */
#ifndef TAGEVAL_INTERN_H
#define TAGEVAL_INTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tageval-util.h"

/* ------------------------------------------------------------ string interner */

struct tv_arena_chunk;

/*
 * The strings are in one arena addressed by 32-bit offsets (at most 4 GiB
 * of strings in a table: past that, tv_intern_put fails with
 * TAGEVAL_ENOMEM).  The arena is a list of chunks that never move, cut into
 * pieces of TV_INTERN_PIECE bytes: offset o is byte o % TV_INTERN_PIECE of
 * piece o / TV_INTERN_PIECE, and piece[] (a few hundred pointers, in
 * cache) holds where each piece is.  A string's pointer stays valid until
 * the table is cleared, whatever is interned after it.
 *
 * Each string is stored after its header: its id (4 bytes) and its length
 * (1 byte below 255, else 0xff, the 4-byte length and 0xff again: either
 * end of the header tells its size), and ends with a
 * NUL.  The strings are in the arena in id order: string id + 1's header
 * follows string id's NUL, or, where it does not (it opened a chunk, or
 * has a chunk of its own), a jump record there gives its offset (8 bytes:
 * the id UINT32_MAX, no string's, then the offset), so that the strings
 * can be walked in id order (tv_intern_next).  A slot is 8 bytes, the hash and the string's offset (0 = empty):
 * a look-up of a string that is there reads the slot, then the string's
 * header and bytes (the id is next to them): two cache misses.  The slot
 * count need not be a power of two (a slot is found by a multiply-shift of
 * the hash), and grows by 1.5 (or toward the strings expected:
 * tv_intern_expect) to keep the load at most 0.7.
 */
#define TV_INTERN_PIECE_SHIFT 16
#define TV_INTERN_PIECE ((size_t)1 << TV_INTERN_PIECE_SHIFT)

struct tv_slot {
	uint32_t hash;
	uint32_t off; /* the string's offset in the arena; 0 = empty */
};

struct tv_intern {
	struct tv_arena_chunk *chunks; /* newest first */
	char **piece;                  /* piece k of the arena -> its first byte */
	size_t npieces, piece_cap;
	size_t used, end;              /* arena offsets: the next free byte, the chunk's end */
	uint32_t *off;                 /* id -> the string's offset (NULL once sampled) */
	size_t n, cap;
	uint32_t *samp;                /* once compacted, instead of off: the offset of
					* every TV_INTERN_SAMPLE-th id (k -> id k * 16) */
	size_t samp_cap;
	size_t last;                   /* the arena offset just past the last string
					* (its NUL): 8 bytes there are kept for a jump */
	struct tv_slot *slots;         /* open addressing, linear probing */
	size_t nslots;                 /* 0 before the first insert */
	uint64_t hashkey[2];           /* the SipHash key, random per table */
	size_t expect;                 /* the strings expected in all (tv_intern_expect) */
	struct tv_front *front;        /* tv_intern_put / _find on a small table:
					* the string last seen per cheap hash */
	unsigned front_bits;           /* 2^front_bits entries */
};

/* An entry of the front cache (tageval-intern.c): a string's first 8 bytes
 * (zero-padded, as a little-endian word), its length and 1 + its id (0: an
 * empty entry); a string of 8 bytes or less is matched without reading it. */
struct tv_front {
	uint64_t head;
	uint32_t len, id1;
};

/* An empty table with a new random hash key (see tageval-intern.c). */
void tv_intern_init(struct tv_intern *in);
void tv_intern_clear(struct tv_intern *in);
/* Interns s[0..len); *id receives its id; *added (if not NULL) 1 when new. */
int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added);
/*
 * A table that is done growing (the instance ids once the gold key is
 * read): its slots rehashed to a load of about 0.8 when they are at a load
 * below 0.6 (grown by 1.5 to at most 0.7, they are at 0.47-0.7, lower when
 * grown toward more strings than came: the rehash, some 12 ms at a million
 * strings, then saves a quarter of the slots or more; 2 MB at a million ids
 * for a table at 0.67, not worth it), and its id -> offset array (4 bytes
 * an id) replaced by the offset of every 16th id (a quarter byte an id):
 * string id is then found by walking at most 15 strings on from id - id %
 * 16 (tv_intern_str stays O(1), a few cache lines read in order).  About
 * 3.8 MB less at a million ids.  The new arrays are made before the old are
 * freed.  When the memory is not there the table stays as it was (still
 * whole: nothing to report).  A later insert grows it as usual.
 */
void tv_intern_compact(struct tv_intern *in);
/*
 * The table cut back to its first @n strings (ids 0 .. n - 1, the same
 * numbers; a new hash key): the ids interned ahead of a line that failed
 * (tv_each's put).  Nothing to do when it holds no more.  TAGEVAL_ENOMEM leaves
 * it as it was.
 */
int tv_intern_cut(struct tv_intern *in, size_t n);
/*
 * The table expects @n strings in all (the ids a file is expected to hold):
 * each growth from then on sizes the slots for a load of 2/3 at @n (1.5 n + 1),
 * but never for more than 4 times the strings held at the time, so that a
 * wrong guess costs at most that (a file whose first lines are short and the
 * rest one long line).  A table read to @n that way grows two or three times
 * from 64 slots instead of some twenty.  Only ever raised; capped at
 * TV_INTERN_EXPECT_MAX.  A hint: nothing is allocated here.
 */
#define TV_INTERN_EXPECT_MAX ((size_t)1 << 30)
void tv_intern_expect(struct tv_intern *in, size_t n);
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
/* The stages: the slot, then the string's header (its id and length, just
 * before its bytes), then its bytes; each reads only what the previous one
 * fetched (the first slot probed). */
void tv_intern_prefetch(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_entry(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_string(const struct tv_intern *in, uint32_t h);

/* The string at arena offset @off. */
static inline const char *tv_intern_at(const struct tv_intern *in, uint32_t off)
{
	return in->piece[off >> TV_INTERN_PIECE_SHIFT] + (off & (TV_INTERN_PIECE - 1));
}
#define TV_INTERN_SAMPLE 16
/* The string after @str (string id + 1 when @str is string id; there must
 * be one): past its NUL, or where the jump record there says. */
static inline const char *tv_intern_next(const struct tv_intern *in, const char *str)
{
	unsigned char b = (unsigned char)str[-1];
	uint32_t len;
	if (b < 0xff)
		len = b;
	else
		memcpy(&len, str - 5, 4);
	const char *p = str + len + 1;
	uint32_t word;
	memcpy(&word, p, 4);
	if (word == UINT32_MAX) {
		memcpy(&word, p + 4, 4);
		p = tv_intern_at(in, word);
	}
	return p + ((unsigned char)p[4] < 0xff ? 5 : 10);
}
/* String @id of a sampled table (tageval-intern.c). */
const char *tv_intern_walk(const struct tv_intern *in, uint32_t id);
/* String @id, NUL-terminated; valid until the table is cleared. */
static inline const char *tv_intern_str(const struct tv_intern *in, uint32_t id)
{
	return in->samp ? tv_intern_walk(in, id) : tv_intern_at(in, in->off[id]);
}
/* Prefetches string @id of a table too large for the cache: its offset
 * first, the bytes (reading the offset) some look-ups later (of a sampled
 * table, the first lines of the walk). */
static inline void tv_intern_prefetch_ptr(const struct tv_intern *in, uint32_t id)
{
	if (in->samp)
		__builtin_prefetch(&in->samp[id / TV_INTERN_SAMPLE]);
	else
		__builtin_prefetch(&in->off[id]);
}
static inline void tv_intern_prefetch_bytes(const struct tv_intern *in, uint32_t id)
{
	if (in->samp) {
		/* addresses, not pointers: the lines may pass the chunk's end */
		uintptr_t p = (uintptr_t)tv_intern_at(in, in->samp[id / TV_INTERN_SAMPLE]);
		__builtin_prefetch((const void *)p);
		__builtin_prefetch((const void *)(p + 64));
		__builtin_prefetch((const void *)(p + 128));
	} else
		__builtin_prefetch(tv_intern_str(in, id));
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
