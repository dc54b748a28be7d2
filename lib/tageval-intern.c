/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * String interning: strings are copied once into an arena and get dense
 * 32-bit ids; look-up is an open-addressing hash table, so no input needs
 * to be sorted.
 */
#define _DEFAULT_SOURCE 1 /* madvise() and MADV_HUGEPAGE, where Linux has them */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tageval-private.h"

#define ARENA_BLOCK (256u * 1024u)

struct tv_arena_block {
	struct tv_arena_block *next;
	size_t used, size;
	char data[];
};

static char *arena_copy(struct tv_intern *in, const char *s, size_t len)
{
	struct tv_arena_block *b = in->blocks;
	if (b == NULL || b->size - b->used < len + 1) {
		size_t size = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;
		b = malloc(sizeof *b + size);
		if (b == NULL)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = in->blocks;
		in->blocks = b;
	}
	char *p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

/*
 * FNV-1a over the bytes, then a final avalanche (MurmurHash3's fmix32): the
 * multiplications of FNV carry changes only upwards, so without the final
 * step the low bits, which pick the slot, would see only the low bits of
 * each byte, and ids that differ in their last digits would cluster.
 */
uint32_t tv_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

void tv_intern_init(struct tv_intern *in)
{
	memset(in, 0, sizeof *in);
}

void tv_intern_clear(struct tv_intern *in)
{
	struct tv_arena_block *b = in->blocks;
	while (b) {
		struct tv_arena_block *next = b->next;
		free(b);
		b = next;
	}
	free(in->str);
	free(in->slots);
	memset(in, 0, sizeof *in);
}

/*
 * Large tables are probed at random, one slot per look-up: with 4 KiB pages
 * nearly every probe also misses the TLB.  Tables of 4 MiB and more are
 * aligned to 2 MiB and offered to the kernel as huge pages (a hint only).
 */
static struct tv_slot *alloc_slots(size_t nslots)
{
	size_t bytes = nslots * sizeof(struct tv_slot);
#if defined(MADV_HUGEPAGE)
	const size_t huge = (size_t)2 << 20;
	if (bytes >= 2 * huge) {
		void *p = NULL;
		if (posix_memalign(&p, huge, bytes) != 0)
			return NULL;
		madvise(p, bytes, MADV_HUGEPAGE);
		memset(p, 0, bytes);
		return p;
	}
#endif
	return calloc(nslots, sizeof(struct tv_slot));
}

static int rehash(struct tv_intern *in, size_t nslots)
{
	struct tv_slot *slots = alloc_slots(nslots);
	if (slots == NULL)
		return TAGEVAL_ENOMEM;
	size_t mask = nslots - 1;
	for (size_t j = 0; in->slots && j <= in->mask; j++) {
		const struct tv_slot *old = &in->slots[j];
		if (old->id1 == 0)
			continue;
		size_t i = old->hash & mask;
		while (slots[i].id1 != 0)
			i = (i + 1) & mask;
		slots[i] = *old;
	}
	free(in->slots);
	in->slots = slots;
	in->mask = mask;
	return TAGEVAL_OK;
}

/* The slot of s[0..len), or the empty slot where it would go. */
static struct tv_slot *probe(const struct tv_intern *in, const char *s, size_t len, uint32_t h)
{
	size_t i = h & in->mask;
	for (;;) {
		struct tv_slot *sl = &in->slots[i];
		if (sl->id1 == 0)
			return sl;
		if (sl->hash == h) {
			const char *str = in->str[sl->id1 - 1];
			if (memcmp(str, s, len) == 0 && str[len] == '\0')
				return sl;
		}
		i = (i + 1) & in->mask;
	}
}

int tv_intern_find_hashed(const struct tv_intern *in, const char *s, size_t len, uint32_t h,
			  uint32_t *id)
{
	if (in->slots == NULL)
		return 0;
	const struct tv_slot *sl = probe(in, s, len, h);
	if (sl->id1 == 0)
		return 0;
	*id = sl->id1 - 1;
	return 1;
}

int tv_intern_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id)
{
	return tv_intern_find_hashed(in, s, len, tv_hash(s, len), id);
}

void tv_intern_prefetch(const struct tv_intern *in, uint32_t h)
{
	if (in->slots != NULL)
		__builtin_prefetch(&in->slots[h & in->mask]);
}

void tv_intern_prefetch_entry(const struct tv_intern *in, uint32_t h)
{
	if (in->slots != NULL) {
		const struct tv_slot *sl = &in->slots[h & in->mask];
		if (sl->id1 != 0)
			__builtin_prefetch(&in->str[sl->id1 - 1]);
	}
}

void tv_intern_prefetch_string(const struct tv_intern *in, uint32_t h)
{
	if (in->slots != NULL) {
		const struct tv_slot *sl = &in->slots[h & in->mask];
		if (sl->id1 != 0)
			__builtin_prefetch(in->str[sl->id1 - 1]);
	}
}

int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added)
{
	return tv_intern_put_hashed(in, s, len, tv_hash(s, len), id, added);
}

int tv_intern_put_hashed(struct tv_intern *in, const char *s, size_t len, uint32_t h,
			 uint32_t *id, int *added)
{
	/* keep the load factor at most 1/2 */
	if (in->slots == NULL || (in->n + 1) * 2 > in->mask + 1) {
		size_t nslots = in->slots ? (in->mask + 1) * 2 : 64;
		if (rehash(in, nslots) != TAGEVAL_OK)
			return TAGEVAL_ENOMEM;
	}
	struct tv_slot *sl = probe(in, s, len, h);
	if (sl->id1 != 0) {
		*id = sl->id1 - 1;
		if (added)
			*added = 0;
		return TAGEVAL_OK;
	}
	if (in->n >= UINT32_MAX - 1 || len > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	if (tv_grow((void **)&in->str, &in->cap, in->n + 1, sizeof *in->str))
		return TAGEVAL_ENOMEM;
	char *copy = arena_copy(in, s, len);
	if (copy == NULL)
		return TAGEVAL_ENOMEM;
	uint32_t nid = (uint32_t)in->n++;
	in->str[nid] = copy;
	sl->hash = h;
	sl->id1 = nid + 1;
	*id = nid;
	if (added)
		*added = 1;
	return TAGEVAL_OK;
}
