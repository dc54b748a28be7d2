/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * String interning: strings are copied once into an arena and get dense
 * 32-bit ids; look-up is an open-addressing hash table, so no input needs
 * to be sorted.
 */
#include <stdlib.h>
#include <string.h>

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

/* FNV-1a, 32 bits: fast enough for short tags and ids, and well spread. */
static uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
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
	free(in->len);
	free(in->hash);
	free(in->slots);
	memset(in, 0, sizeof *in);
}

static int rehash(struct tv_intern *in, size_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (slots == NULL)
		return TAGEVAL_ENOMEM;
	size_t mask = nslots - 1;
	for (size_t id = 0; id < in->n; id++) {
		size_t i = in->hash[id] & mask;
		while (slots[i] != 0)
			i = (i + 1) & mask;
		slots[i] = (uint32_t)id + 1;
	}
	free(in->slots);
	in->slots = slots;
	in->mask = mask;
	return TAGEVAL_OK;
}

int tv_intern_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id)
{
	if (in->slots == NULL)
		return 0;
	uint32_t h = hash_bytes(s, len);
	size_t i = h & in->mask;
	for (;;) {
		uint32_t v = in->slots[i];
		if (v == 0)
			return 0;
		v--;
		if (in->hash[v] == h && in->len[v] == len && memcmp(in->str[v], s, len) == 0) {
			*id = v;
			return 1;
		}
		i = (i + 1) & in->mask;
	}
}

int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added)
{
	if (tv_intern_find(in, s, len, id)) {
		if (added)
			*added = 0;
		return TAGEVAL_OK;
	}
	if (in->n >= UINT32_MAX - 1 || len > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	/* keep the load factor at most 1/2 */
	if (in->slots == NULL || (in->n + 1) * 2 > in->mask + 1) {
		size_t nslots = in->slots ? (in->mask + 1) * 2 : 64;
		if (rehash(in, nslots) != TAGEVAL_OK)
			return TAGEVAL_ENOMEM;
	}
	if (in->n == in->cap) {
		size_t cap = in->cap;
		size_t c1 = cap, c2 = cap;
		if (tv_grow((void **)&in->str, &c1, in->n + 1, sizeof *in->str) ||
		    tv_grow((void **)&in->len, &c2, in->n + 1, sizeof *in->len) ||
		    tv_grow((void **)&in->hash, &cap, in->n + 1, sizeof *in->hash))
			return TAGEVAL_ENOMEM;
		/* all three grew to the same capacity (same growth rule) */
		in->cap = cap < c1 ? cap : c1;
		if (c2 < in->cap)
			in->cap = c2;
	}
	char *copy = arena_copy(in, s, len);
	if (copy == NULL)
		return TAGEVAL_ENOMEM;
	uint32_t h = hash_bytes(s, len);
	uint32_t nid = (uint32_t)in->n;
	in->str[nid] = copy;
	in->len[nid] = (uint32_t)len;
	in->hash[nid] = h;
	in->n++;
	size_t i = h & in->mask;
	while (in->slots[i] != 0)
		i = (i + 1) & in->mask;
	in->slots[i] = nid + 1;
	*id = nid;
	if (added)
		*added = 1;
	return TAGEVAL_OK;
}
