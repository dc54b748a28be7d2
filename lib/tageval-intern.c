/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * String interning: strings are copied once into an arena (addressed by
 * 32-bit offsets, see tageval-intern.h) and get dense 32-bit ids; look-up is an open-addressing hash table, so no input needs
 * to be sorted.  The hash is keyed with a random key per table, so that no
 * input can be made in advance to collide (see tv_intern_init).
 */
#define _DEFAULT_SOURCE 1 /* madvise(), MADV_HUGEPAGE and getrandom(), where Linux has them */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define TV_HAVE_GETRANDOM 1
#endif
#endif

#include "tageval-intern.h"
#include "tageval-util.h"

/* A chunk of the arena: its header, then whole pieces. */
struct tv_arena_chunk {
	struct tv_arena_chunk *next;
	max_align_t align[]; /* the pieces */
};

/* At most 32 pieces (2 MiB) per chunk, unless a string needs more. */
#define CHUNK_MAX_PIECES 32
#define ARENA_LIMIT ((uint64_t)1 << 32)

/*
 * Starts a chunk for @need bytes at the next piece boundary; *at receives
 * the offset where they go.  The chunks double with the arena up to 2 MiB,
 * so a table of tags stays at 64 KiB.  A string larger than the chunk that
 * would be made gets a chunk of its own and the current chunk stays
 * current; otherwise the new chunk becomes current and the rest of the old
 * one is left unused (less than @need bytes: at most as many bytes are
 * lost as the strings hold).
 */
static int arena_chunk(struct tv_intern *in, size_t need, size_t *at)
{
	size_t np = (need + TV_INTERN_PIECE - 1) / TV_INTERN_PIECE;
	size_t want = in->npieces == 0 ? 1 :
		      in->npieces < CHUNK_MAX_PIECES ? in->npieces : CHUNK_MAX_PIECES;
	uint64_t room = ARENA_LIMIT / TV_INTERN_PIECE - in->npieces; /* pieces left */
	if (np > room)
		return TAGEVAL_ENOMEM; /* past 4 GiB of strings: offsets are 32-bit */
	int alone = np > want;
	if (np < want)
		np = want < room ? want : (size_t)room;
	if (tv_grow((void **)&in->piece, &in->piece_cap, in->npieces + np, sizeof *in->piece))
		return TAGEVAL_ENOMEM;
	struct tv_arena_chunk *c = malloc(sizeof *c + np * TV_INTERN_PIECE);
	if (c == NULL)
		return TAGEVAL_ENOMEM;
	c->next = in->chunks;
	in->chunks = c;
	char *base = (char *)c->align;
	for (size_t k = 0; k < np; k++)
		in->piece[in->npieces + k] = base + k * TV_INTERN_PIECE;
	*at = in->npieces * TV_INTERN_PIECE;
	in->npieces += np;
	if (!alone) {
		in->used = *at;
		in->end = in->npieces * TV_INTERN_PIECE;
	}
	return TAGEVAL_OK;
}

/* The header before a string: its length, and its id. */
static uint32_t stored_len(const char *str)
{
	unsigned char b = (unsigned char)str[-1];
	return b < 0xff ? b : tv_load_u32(str - 5);
}

static uint32_t stored_id(const char *str)
{
	return tv_load_u32(str - ((unsigned char)str[-1] < 0xff ? 5 : 10));
}

/* A jump record: the id no string has, then the offset of the next string's
 * header (see tageval-intern.h). */
#define JUMP_ID UINT32_MAX
#define JUMP_SIZE 8

/*
 * Copies s[0..len) with @id into the arena; *off receives its offset.
 * Every string is placed with JUMP_SIZE bytes free after it, in its chunk:
 * when the next string does not go there (a new chunk, or a chunk of its
 * own), a jump record to it is written there.  A record written in the
 * current chunk is kept out of the next strings' way (used moves past it).
 */
static int arena_copy(struct tv_intern *in, const char *s, size_t len, uint32_t id,
		      uint32_t *off)
{
	size_t head = len < 0xff ? 5 : 10;
	size_t need = head + len + 1;
	size_t at = in->used;
	if (in->end - in->used < need + JUMP_SIZE &&
	    arena_chunk(in, need + JUMP_SIZE, &at) != TAGEVAL_OK)
		return TAGEVAL_ENOMEM;
	if (id > 0 && at != in->last) {
		char *j = in->piece[in->last / TV_INTERN_PIECE] + in->last % TV_INTERN_PIECE;
		uint32_t word[2] = { JUMP_ID, (uint32_t)at };
		memcpy(j, word, JUMP_SIZE);
		if (in->last == in->used && at != in->used)
			in->used += JUMP_SIZE; /* a chunk of its own: the current one stays */
	}
	in->last = at + need;
	char *p = in->piece[at / TV_INTERN_PIECE] + at % TV_INTERN_PIECE;
	memcpy(p, &id, 4);
	if (len >= 0xff) {
		uint32_t len32 = (uint32_t)len; /* the caller checked len <= UINT32_MAX */
		p[4] = (char)0xff; /* read from the header's start (tv_intern_next) */
		memcpy(p + 5, &len32, 4);
	}
	p[head - 1] = (char)(len < 0xff ? len : 0xff);
	memcpy(p + head, s, len);
	p[head + len] = '\0';
	*off = (uint32_t)(at + head); /* at least 5: never 0 */
	if (at == in->used && in->used + need <= in->end)
		in->used += need; /* in the current chunk, not one of its own */
	return TAGEVAL_OK;
}

size_t tv_intern_len(const struct tv_intern *in, uint32_t id)
{
	return stored_len(tv_intern_str(in, id));
}

const char *tv_intern_walk(const struct tv_intern *in, uint32_t id)
{
	const char *str = tv_intern_at(in, in->samp[id / TV_INTERN_SAMPLE]);
	for (uint32_t k = id % TV_INTERN_SAMPLE; k > 0; k--)
		str = tv_intern_next(in, str);
	return str;
}

/*
 * SipHash (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012),
 * written from the paper's description: a 128-bit key k0 k1 initialises four
 * 64-bit words; each 8-byte little-endian word m of the message is absorbed
 * as v3 ^= m, C rounds, v0 ^= m; the last word holds the remaining bytes
 * and, in its top byte, the length mod 256; then v2 ^= 0xff, D rounds, and
 * the result is v0 ^ v1 ^ v2 ^ v3.  SipHash-1-3 (C = 1, D = 3) is the
 * variant hash tables use (Python, Rust): a table needs only that nobody
 * who does not know the key can predict collisions.
 */
static inline uint64_t rotl64(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t x = tv_load_u64(p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x); /* p[i] to bits 8i .. 8i + 7 */
#endif
	return x;
}

#define SIPROUND                                                                  \
	do {                                                                      \
		v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);    \
		v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;                          \
		v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;                          \
		v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);    \
	} while (0)

static inline uint64_t siphash(const uint64_t key[2], const void *data, size_t len,
			       int crounds, int drounds)
{
	const unsigned char *p = data;
	uint64_t v0 = key[0] ^ 0x736f6d6570736575u; /* "somepseudorandomlygeneratedbytes" */
	uint64_t v1 = key[1] ^ 0x646f72616e646f6du;
	uint64_t v2 = key[0] ^ 0x6c7967656e657261u;
	uint64_t v3 = key[1] ^ 0x7465646279746573u;
	size_t left = len;
	for (; left >= 8; left -= 8, p += 8) {
		uint64_t m = load_le64(p);
		v3 ^= m;
		for (int r = 0; r < crounds; r++)
			SIPROUND;
		v0 ^= m;
	}
	/* the last 0-7 bytes: with 8 or more in all, the word that ends with
	 * them shifted down (no call to memcpy for a variable length) */
	uint64_t m = 0;
	if (left > 0 && len >= 8)
		m = load_le64(p + left - 8) >> (8 * (8 - left));
	else
		for (size_t i = 0; i < left; i++)
			m |= (uint64_t)p[i] << (8 * i);
	m |= (uint64_t)(len & 0xff) << 56;
	v3 ^= m;
	for (int r = 0; r < crounds; r++)
		SIPROUND;
	v0 ^= m;
	v2 ^= 0xff;
	for (int r = 0; r < drounds; r++)
		SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t tv_siphash13(const uint64_t key[2], const void *data, size_t len)
{
	return siphash(key, data, len, 1, 3);
}

uint64_t tv_siphash24(const uint64_t key[2], const void *data, size_t len)
{
	return siphash(key, data, len, 2, 4);
}

/* The slot hash is the low half of SipHash-1-3 under the table's key. */
uint32_t tv_intern_hash(const struct tv_intern *in, const char *s, size_t len)
{
	return (uint32_t)siphash(in->hashkey, s, len, 1, 3);
}

/*
 * The table's key: 16 random bytes from getrandom(2), else /dev/urandom.
 * When neither gives any (a seccomp filter that denies getrandom and no
 * /dev mounted, say), the key is SipHash of what the process can see that
 * differs from run to run: both clocks to the nanosecond, the process id,
 * and the addresses of the table, of a stack variable and of this function
 * (address-space layout randomisation).  That is weaker than the kernel's
 * randomness - someone who knows the start time to the microsecond and the
 * layout could still aim at it - but never one fixed key that every run
 * shares, and interning must not fail for want of entropy.
 *
 * The fuzz build (-Dfuzz=enabled defines TV_HASH_FIXED_KEY) uses a fixed
 * key: libFuzzer needs a run to follow the same paths each time it replays
 * an input, for its coverage feedback and to reproduce a crash; with a
 * random key the probe sequences, and so the edges taken, would change
 * from run to run.
 */
static void random_key(struct tv_intern *in)
{
#if defined(TV_HASH_FIXED_KEY)
	in->hashkey[0] = 0x0706050403020100u;
	in->hashkey[1] = 0x0f0e0d0c0b0a0908u;
	return;
#else
	unsigned char buf[16];
	size_t got = 0;
#if defined(TV_HAVE_GETRANDOM)
	while (got < sizeof buf) {
		ssize_t r = getrandom(buf + got, sizeof buf - got, GRND_NONBLOCK);
		if (r > 0)
			got += (size_t)r;
		else if (r < 0 && errno != EINTR)
			break;
	}
#endif
	if (got < sizeof buf) {
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		got = 0;
		while (fd >= 0 && got < sizeof buf) {
			ssize_t r = read(fd, buf + got, sizeof buf - got);
			if (r > 0)
				got += (size_t)r;
			else if (r == 0 || errno != EINTR)
				break;
		}
		if (fd >= 0)
			close(fd);
	}
	if (got == sizeof buf) {
		in->hashkey[0] = load_le64(buf);
		in->hashkey[1] = load_le64(buf + 8);
		return;
	}
	struct timespec rt = { 0 }, mt = { 0 };
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mt);
	int local = 0;
	uint64_t seen[7] = {
		(uint64_t)rt.tv_sec, (uint64_t)rt.tv_nsec, (uint64_t)mt.tv_sec,
		(uint64_t)mt.tv_nsec, (uint64_t)getpid(), (uint64_t)(uintptr_t)in,
		(uint64_t)(uintptr_t)&local ^ (uint64_t)(uintptr_t)&random_key,
	};
	static const uint64_t k[2] = { 0x0706050403020100u, 0x0f0e0d0c0b0a0908u };
	in->hashkey[0] = siphash(k, seen, sizeof seen, 2, 4);
	seen[6] ^= in->hashkey[0];
	in->hashkey[1] = siphash(k, seen, sizeof seen, 2, 4);
#endif
}

void tv_intern_init(struct tv_intern *in)
{
	memset(in, 0, sizeof *in);
	random_key(in);
}

/* Frees everything; the table stays usable, with the same key. */
void tv_intern_clear(struct tv_intern *in)
{
	struct tv_arena_chunk *c = in->chunks;
	while (c) {
		struct tv_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	free(in->piece);
	free(in->off);
	free(in->samp);
	free(in->slots);
	free(in->front);
	uint64_t k0 = in->hashkey[0], k1 = in->hashkey[1];
	memset(in, 0, sizeof *in);
	in->hashkey[0] = k0;
	in->hashkey[1] = k1;
}

/*
 * Large tables are probed at random, one slot per look-up: with 4 KiB pages
 * nearly every probe also misses the TLB.  Tables of 4 MiB and more are
 * aligned to 2 MiB and offered to the kernel as huge pages (a hint only).
 */
static struct tv_slot *alloc_slots(size_t nslots)
{
	if (nslots > SIZE_MAX / sizeof(struct tv_slot))
		return NULL; /* a 32-bit size_t */
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

/* The first slot probed for @h among @nslots (< 2^32): a multiply-shift,
 * so that the count need not be a power of two. */
static inline size_t home_slot(uint32_t h, size_t nslots)
{
	return (size_t)(((uint64_t)h * (uint64_t)nslots) >> 32);
}

static int rehash(struct tv_intern *in, size_t nslots)
{
	if (nslots > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	struct tv_slot *slots = alloc_slots(nslots);
	if (slots == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t j = 0; j < in->nslots; j++) {
		const struct tv_slot *old = &in->slots[j];
		if (old->off == 0)
			continue;
		size_t i = home_slot(old->hash, nslots);
		while (slots[i].off != 0)
			i = i + 1 < nslots ? i + 1 : 0;
		slots[i] = *old;
	}
	free(in->slots);
	in->slots = slots;
	in->nslots = nslots;
	return TAGEVAL_OK;
}

void tv_intern_expect(struct tv_intern *in, size_t n)
{
	if (n > TV_INTERN_EXPECT_MAX)
		n = TV_INTERN_EXPECT_MAX;
	if (n > in->expect)
		in->expect = n;
}

/* The slots of a growth: 1.5 times as many, or (with in->expect) room at a
 * load of 2/3 for the ids expected, but never for more than 4 times the ids
 * held then: a file's first lines cannot make the table larger than its
 * ids need by more than that. */
static size_t grown_slots(const struct tv_intern *in)
{
	size_t nslots = in->slots ? in->nslots + in->nslots / 2 : 64;
	size_t held = in->n + 1;
	if (in->expect > held) {
		size_t want = in->expect < 4 * held ? in->expect : 4 * held;
		if (want + want / 2 + 1 > nslots)
			nslots = want + want / 2 + 1;
	}
	return nslots;
}

int tv_intern_cut(struct tv_intern *in, size_t n)
{
	if (n >= in->n)
		return TAGEVAL_OK;
	struct tv_intern ids;
	tv_intern_init(&ids);
	tv_intern_expect(&ids, n);
	for (size_t i = 0; i < n; i++) {
		uint32_t id;
		const char *s = tv_intern_str(in, (uint32_t)i);
		size_t len = tv_intern_len(in, (uint32_t)i);
		if (tv_intern_put_hashed(&ids, s, len, tv_intern_hash(&ids, s, len), &id, NULL)) {
			tv_intern_clear(&ids);
			return TAGEVAL_ENOMEM;
		}
	}
	tv_intern_clear(in);
	*in = ids;
	return TAGEVAL_OK;
}

void tv_intern_compact(struct tv_intern *in)
{
	if (in->n == 0)
		return; /* one slot would not grow (1 + 1/2 = 1): later puts would loop */
	/* 0.8: probes of a present string 3 on average (linear probing); only
	 * from a load below 0.6 (n / nslots < 3 / 5: a quarter of the slots
	 * saved or more) */
	size_t nslots = in->n + in->n / 4 + 1;
	if (in->slots != NULL && nslots < in->nslots && in->n * 5 < in->nslots * 3)
		(void)rehash(in, nslots); /* on failure the old slots stay */
	if (in->samp == NULL) {
		size_t ns = (in->n + TV_INTERN_SAMPLE - 1) / TV_INTERN_SAMPLE;
		uint32_t *samp = malloc(ns * sizeof *samp);
		if (samp != NULL) {
			for (size_t k = 0; k < ns; k++)
				samp[k] = in->off[k * TV_INTERN_SAMPLE];
			free(in->off);
			in->off = NULL;
			in->cap = 0;
			in->samp = samp;
			in->samp_cap = ns;
		}
	}
}

/* The slot of s[0..len), or the empty slot where it would go. */
static struct tv_slot *probe(const struct tv_intern *in, const char *s, size_t len, uint32_t h)
{
	size_t i = home_slot(h, in->nslots);
	for (;;) {
		struct tv_slot *sl = &in->slots[i];
		if (sl->off == 0)
			return sl;
		/* the hash, then the length, and only then the bytes */
		if (sl->hash == h) {
			const char *str = tv_intern_at(in, sl->off);
			if (stored_len(str) == len && memcmp(str, s, len) == 0)
				return sl;
		}
		i = i + 1 < in->nslots ? i + 1 : 0;
	}
}

int tv_intern_find_hashed(const struct tv_intern *in, const char *s, size_t len, uint32_t h,
			  uint32_t *id)
{
	if (in->slots == NULL)
		return 0;
	const struct tv_slot *sl = probe(in, s, len, h);
	if (sl->off == 0)
		return 0;
	*id = stored_id(tv_intern_at(in, sl->off));
	return 1;
}

/*
 * The front cache of a small table (tags, words, labels: looked up once or
 * more per line): twice as many entries as strings (1024 to 8192, 16 bytes
 * each), each the string last looked up among the strings of one cheap,
 * unkeyed hash (the length and the first and last 8 bytes), with its
 * length, id and first 8 bytes, so that a hit on a string of 8 bytes or less
 * reads no more than its entry (not the string, which the misses of a large
 * table's look-ups evict from the cache: a stall per tag), and a few
 * thousand tags mostly hit.  A hit is confirmed by comparing the bytes, so
 * strings that collide in it (by chance or by design) only miss it and
 * take the keyed path: no input can make it cost more than a comparison.
 */
#define FRONT_MIN_BITS 10
#define FRONT_MAX_BITS 13
#define FRONT_MAX_STRINGS 65536

/* The first 8 bytes of s[0..len) as a little-endian word, zero-padded. */
static uint64_t front_head(const char *s, size_t len)
{
	if (len >= 8)
		return load_le64((const unsigned char *)s);
	uint64_t x = 0;
	for (size_t i = 0; i < len; i++)
		x |= (uint64_t)(unsigned char)s[i] << (8 * i);
	return x;
}

static unsigned front_slot(const char *s, size_t len, uint64_t head, unsigned bits)
{
	uint64_t x = len ^ head;
	if (len > 8)
		x ^= rotl64(load_le64((const unsigned char *)s + len - 8), 29);
	x *= 0x9e3779b97f4a7c15u;
	return (unsigned)(x >> (64 - bits));
}

/* The id of s[0..len) from the front cache (1), or 0; *slot its entry, or
 * -1 when the table does not use the cache.  Only a string longer than 8
 * bytes is read (its bytes past the first 8). */
static int front_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id,
		      int *slot)
{
	*slot = -1;
	if (in->front == NULL || in->n > FRONT_MAX_STRINGS)
		return 0;
	uint64_t head = front_head(s, len);
	*slot = (int)front_slot(s, len, head, in->front_bits);
	const struct tv_front *f = &in->front[*slot];
	if (f->id1 == 0 || f->len != len || f->head != head ||
	    (len > 8 && memcmp(tv_intern_str(in, f->id1 - 1) + 8, s + 8, len - 8) != 0))
		return 0;
	*id = f->id1 - 1;
	return 1;
}

/* Remembers string @id in entry @slot of the front cache. */
static void front_keep(const struct tv_intern *in, int slot, uint32_t id)
{
	const char *str = tv_intern_str(in, id);
	size_t len = stored_len(str);
	in->front[slot] = (struct tv_front){ front_head(str, len), (uint32_t)len, id + 1 };
}

/*
 * The front cache sized for the strings held: twice as many entries (so
 * that most strings keep theirs), from FRONT_MIN_BITS to FRONT_MAX_BITS;
 * a new size starts empty.  Without the memory, the old cache stays.
 */
static void front_fit(struct tv_intern *in)
{
	unsigned bits = in->front ? in->front_bits : FRONT_MIN_BITS;
	while (bits < FRONT_MAX_BITS && ((size_t)1 << bits) < 2 * in->n)
		bits++;
	if (in->front != NULL && bits == in->front_bits)
		return;
	struct tv_front *f = calloc((size_t)1 << bits, sizeof *f);
	if (f == NULL)
		return;
	free(in->front);
	in->front = f;
	in->front_bits = bits;
}

int tv_intern_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id)
{
	int slot;
	if (front_find(in, s, len, id, &slot))
		return 1;
	if (!tv_intern_find_hashed(in, s, len, tv_intern_hash(in, s, len), id))
		return 0;
	if (slot >= 0)
		front_keep(in, slot, *id);
	return 1;
}

/*
 * The prefetch stages.  At load 0.5-0.7 a string is often not in its home
 * slot but a few after it (1.8 slots probed on average at 0.62), so the
 * stages after the first look for the first slot with the string's hash
 * among the next few (in the line the first stage fetched, or the next)
 * rather than taking the home slot's string.
 */
#define PREFETCH_SCAN 8

void tv_intern_prefetch(const struct tv_intern *in, uint32_t h)
{
	if (in->slots != NULL) {
		size_t i = home_slot(h, in->nslots);
		__builtin_prefetch(&in->slots[i]);
		/* the last slot prefetch_match() may read (8 slots: 2 lines) */
		__builtin_prefetch(&in->slots[i + PREFETCH_SCAN - 1 < in->nslots ?
						      i + PREFETCH_SCAN - 1 : in->nslots - 1]);
	}
}

/* The string in the first slot with hash @h near its home, or NULL. */
static const char *prefetch_match(const struct tv_intern *in, uint32_t h)
{
	if (in->slots == NULL)
		return NULL;
	size_t i = home_slot(h, in->nslots);
	for (int k = 0; k < PREFETCH_SCAN; k++) {
		const struct tv_slot *sl = &in->slots[i];
		if (sl->off == 0)
			return NULL;
		if (sl->hash == h)
			return tv_intern_at(in, sl->off);
		i = i + 1 < in->nslots ? i + 1 : 0;
	}
	return NULL;
}

/* The string's header and its first 16 bytes (the line or two they are on). */
void tv_intern_prefetch_entry(const struct tv_intern *in, uint32_t h)
{
	const char *str = prefetch_match(in, h);
	if (str != NULL) {
		__builtin_prefetch(str - 5);
		/* an address, not a pointer: str + 15 may pass the chunk's end */
		__builtin_prefetch((const void *)((uintptr_t)str + 15));
	}
}

/* The end of a string longer than 16 bytes (its header now in cache). */
void tv_intern_prefetch_string(const struct tv_intern *in, uint32_t h)
{
	const char *str = prefetch_match(in, h);
	if (str != NULL && (unsigned char)str[-1] > 15)
		__builtin_prefetch(str + stored_len(str));
}

int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added)
{
	if (in->n <= FRONT_MAX_STRINGS &&
	    (in->front == NULL ||
	     (in->front_bits < FRONT_MAX_BITS && ((size_t)1 << in->front_bits) < 2 * in->n)))
		front_fit(in); /* no memory: no cache, or the one there was */
	int slot;
	if (front_find(in, s, len, id, &slot)) {
		if (added)
			*added = 0;
		return TAGEVAL_OK;
	}
	int rc = tv_intern_put_hashed(in, s, len, tv_intern_hash(in, s, len), id, added);
	if (rc == TAGEVAL_OK && slot >= 0)
		front_keep(in, slot, *id);
	return rc;
}

int tv_intern_put_hashed(struct tv_intern *in, const char *s, size_t len, uint32_t h,
			 uint32_t *id, int *added)
{
	/* keep the load factor at most 0.7, growing by 1.5 or toward in->expect */
	if (in->slots == NULL || (in->n + 1) * 10 > in->nslots * 7) {
		if (rehash(in, grown_slots(in)) != TAGEVAL_OK)
			return TAGEVAL_ENOMEM;
	}
	struct tv_slot *sl = probe(in, s, len, h);
	if (sl->off != 0) {
		*id = stored_id(tv_intern_at(in, sl->off));
		if (added)
			*added = 0;
		return TAGEVAL_OK;
	}
	if (in->n >= UINT32_MAX - 1 || len > UINT32_MAX)
		return TAGEVAL_ENOMEM;
	uint32_t nid = (uint32_t)in->n, off;
	if (in->samp == NULL) {
		if (tv_grow((void **)&in->off, &in->cap, in->n + 1, sizeof *in->off))
			return TAGEVAL_ENOMEM;
	} else if (nid % TV_INTERN_SAMPLE == 0 &&
		   tv_grow((void **)&in->samp, &in->samp_cap, nid / TV_INTERN_SAMPLE + 1,
			   sizeof *in->samp))
		return TAGEVAL_ENOMEM;
	if (arena_copy(in, s, len, nid, &off) != TAGEVAL_OK)
		return TAGEVAL_ENOMEM;
	in->n++;
	if (in->samp == NULL)
		in->off[nid] = off;
	else if (nid % TV_INTERN_SAMPLE == 0)
		in->samp[nid / TV_INTERN_SAMPLE] = off;
	sl->hash = h;
	sl->off = off;
	*id = nid;
	if (added)
		*added = 1;
	return TAGEVAL_OK;
}

/* The first 8 bytes from @p on (of @len), big-endian, zeros past the end:
 * integer order is bytewise order. */
static uint64_t be_prefix(const char *p, size_t len)
{
	uint64_t k = 0;
	for (size_t i = 0; i < 8; i++)
		k = k << 8 | (i < len ? (unsigned char)p[i] : 0u);
	return k;
}

/* The order of two sort records of @in: the 16-byte prefixes, then the rest. */
static int sort_name_cmp(const struct tv_intern *in, const struct tv_sort_name *a,
			 const struct tv_sort_name *b)
{
	if (a->k0 != b->k0)
		return a->k0 < b->k0 ? -1 : 1;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	/* the first 16 bytes are equal, and (no string holds a NUL) so are the
	 * lengths when either is 16 or less */
	if (a->len <= 16 || b->len <= 16)
		return (a->len > b->len) - (a->len < b->len);
	size_t la = a->len - 16, lb = b->len - 16;
	int c = memcmp(tv_intern_str(in, a->id) + 16, tv_intern_str(in, b->id) + 16, la < lb ? la : lb);
	return c != 0 ? c : (la > lb) - (la < lb);
}

void tv_intern_sort_ids(const struct tv_intern *in, uint32_t *ids, size_t n,
			struct tv_sort_name *tmp)
{
	struct tv_sort_name *a = tmp, *b = tmp + n;
	for (size_t i = 0; i < n; i++) {
		/* the ids are scattered: their pointers and bytes fetched ahead */
		if (i + 16 < n)
			tv_intern_prefetch_ptr(in, ids[i + 16]);
		if (i + 8 < n && in->samp == NULL)
			__builtin_prefetch(tv_intern_str(in, ids[i + 8]) - 1);
		else if (i + 8 < n)
			tv_intern_prefetch_bytes(in, ids[i + 8]);
		const char *str = tv_intern_str(in, ids[i]);
		size_t len = stored_len(str);
		a[i] = (struct tv_sort_name){ be_prefix(str, len),
					      len > 8 ? be_prefix(str + 8, len - 8) : 0, ids[i],
					      (uint32_t)len };
	}
#define NAME_LESS(x, y) (sort_name_cmp(in, (x), (y)) < 0)
	TV_MERGE_SORT(struct tv_sort_name, a, b, n, NAME_LESS);
#undef NAME_LESS
	for (size_t i = 0; i < n; i++)
		ids[i] = a[i].id;
}
