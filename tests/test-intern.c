/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The string interner (lib/tageval-intern.c), through its private entry
 * points: SipHash against published vectors, look-ups when hashes collide,
 * above all between strings of different lengths, and the per-table keys.
 * Linked with the library's own objects, not through the public API.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-intern.h"
#include "test-common.h"

/* the key 00 01 .. 0f of the SipHash paper, as two little-endian words */
static const uint64_t paper_key[2] = { 0x0706050403020100u, 0x0f0e0d0c0b0a0908u };

START_TEST(siphash24_paper_vectors)
{
	/*
	 * SipHash-2-4 of the messages 00 01 .. (n-1) under the key 00 .. 0f:
	 * the 15-byte one is the example worked through in Appendix A of the
	 * paper (a129ca6149be45e5); the others are from the authors' table of
	 * 64 vectors (vectors.h of the reference code), chosen for the empty
	 * message, a lone tail byte, a full tail, exactly one word, one word
	 * and a full tail, exactly two words, and seven words and a full tail.
	 */
	static const struct {
		size_t n;
		uint64_t h;
	} v[] = {
		{ 0, 0x726fdb47dd0e0e31u },  { 1, 0x74f839c593dc67fdu },
		{ 7, 0xab0200f58b01d137u },  { 8, 0x93f5f5799a932462u },
		{ 15, 0xa129ca6149be45e5u }, { 16, 0x3f2acc7f57c29bdbu },
		{ 63, 0x958a324ceb064572u },
	};
	unsigned char msg[64];
	for (int i = 0; i < 64; i++)
		msg[i] = (unsigned char)i;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		ck_assert_uint_eq(tv_siphash24(paper_key, msg, v[i].n), v[i].h);
}
END_TEST

START_TEST(siphash13_vectors)
{
	/*
	 * SipHash-1-3 (the tables' hash: the same code with 1 and 3 rounds)
	 * under the all-zero key, as published in the tests of the Rust crate
	 * digest-sip_hash (printed there as the big-endian hex of the value),
	 * and checked against a separate Python transcription of the paper.
	 */
	static const uint64_t zero[2] = { 0, 0 };
	ck_assert_uint_eq(tv_siphash13(zero, "", 0), 0xd1fba762150c532cu);
	ck_assert_uint_eq(tv_siphash13(zero, "siphash", 7), 0x8264ceeccb16bcbeu);
	ck_assert_uint_eq(tv_siphash13(zero, "digest-sip_hash", 15), 0xce31007e34130c0au);
}
END_TEST

/* Puts s (its length by strlen) with the hash h; returns its id. */
static uint32_t put(struct tv_intern *in, const char *s, uint32_t h, int want_added)
{
	uint32_t id = UINT32_MAX;
	int added = -1;
	ck_assert_int_eq(tv_intern_put_hashed(in, s, strlen(s), h, &id, &added), TAGEVAL_OK);
	ck_assert_int_eq(added, want_added);
	return id;
}

static int find(const struct tv_intern *in, const char *s, size_t len, uint32_t h,
		uint32_t *id)
{
	*id = UINT32_MAX;
	return tv_intern_find_hashed(in, s, len, h, id);
}

START_TEST(collision_prefixes)
{
	/*
	 * 200 strings with one hash, each a prefix of the next ("", "a", "aa",
	 * ...): one probe chain where every stored string is compared with
	 * every query that passes it.  Each gets the next id, a second put finds
	 * it, and a string one longer than the longest is not there.
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	char s[202];
	memset(s, 'a', sizeof s);
	for (uint32_t n = 0; n < 200; n++) {
		char save = s[n];
		s[n] = '\0';
		ck_assert_uint_eq(put(&in, s, 42, 1), n);
		s[n] = save;
	}
	for (uint32_t n = 0; n < 200; n++) {
		uint32_t id;
		ck_assert_int_eq(find(&in, s, n, 42, &id), 1);
		ck_assert_uint_eq(id, n);
		ck_assert_uint_eq(tv_intern_len(&in, id), n);
		char save = s[n];
		s[n] = '\0';
		ck_assert_uint_eq(put(&in, s, 42, 0), n);
		s[n] = save;
	}
	uint32_t id;
	ck_assert_int_eq(find(&in, s, 200, 42, &id), 0);
	ck_assert_uint_eq(id, UINT32_MAX); /* untouched */
	/* the same bytes under another hash are another look-up */
	ck_assert_int_eq(find(&in, s, 3, 43, &id), 0);
	ck_assert_uint_eq(in.n, 200);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(collision_past_the_block)
{
	/*
	 * The case of issue 17: a stored string and a longer query with one
	 * hash.  A string larger than the arena's first chunk (one 64 KiB
	 * piece) gets a chunk of its own, of whole pieces: with n = 16 * 65536
	 * - 10 its record (a 9-byte header, n bytes, the NUL: 16 * 65536 bytes)
	 * ends exactly at the chunk's end.  A query 2 bytes longer that shares
	 * its first n bytes and its hash would make a memcmp() of n + 2 bytes
	 * read one past the chunk (AddressSanitizer: heap-buffer-overflow) if
	 * probe() compared bytes before lengths; the lengths differ and no
	 * byte is read.
	 */
	const size_t n = 16 * ((size_t)1 << 16) - 10;
	char *s = malloc(n + 3);
	ck_assert_ptr_nonnull(s);
	memset(s, 'x', n + 2);
	s[n + 2] = '\0';
	struct tv_intern in;
	tv_intern_init(&in);
	uint32_t id, added_id;
	int added;
	ck_assert_int_eq(tv_intern_put_hashed(&in, s, n, 7, &id, &added), TAGEVAL_OK);
	ck_assert_int_eq(added, 1);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(find(&in, s, n + 2, 7, &id), 0);
	ck_assert_int_eq(find(&in, s, n + 1, 7, &id), 0);
	/* and the other way round: the long one stored, the short one looked up */
	ck_assert_int_eq(tv_intern_put_hashed(&in, s, n + 2, 7, &added_id, &added), TAGEVAL_OK);
	ck_assert_int_eq(added, 1);
	ck_assert_uint_eq(added_id, 1);
	ck_assert_int_eq(find(&in, s, n, 7, &id), 1);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(find(&in, s, n + 2, 7, &id), 1);
	ck_assert_uint_eq(id, 1);
	ck_assert_uint_eq(tv_intern_len(&in, 1), n + 2);
	ck_assert_int_eq(memcmp(tv_intern_str(&in, 1), s, n + 3), 0);
	tv_intern_clear(&in);
	free(s);
}
END_TEST

START_TEST(collision_same_length)
{
	/* one hash, one length, different bytes: the bytes decide */
	struct tv_intern in;
	tv_intern_init(&in);
	ck_assert_uint_eq(put(&in, "w 01", 5, 1), 0);
	ck_assert_uint_eq(put(&in, "w 02", 5, 1), 1);
	ck_assert_uint_eq(put(&in, "w 01", 5, 0), 0);
	uint32_t id;
	ck_assert_int_eq(find(&in, "w 02", 4, 5, &id), 1);
	ck_assert_uint_eq(id, 1);
	ck_assert_int_eq(find(&in, "w 03", 4, 5, &id), 0);
	/* bytes after the length do not count: "w 01x" cut to 4 is "w 01" */
	ck_assert_int_eq(find(&in, "w 01x", 4, 5, &id), 1);
	ck_assert_uint_eq(id, 0);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(keyed_many)
{
	/*
	 * 20,000 ids through the keyed entry points (the table grows from 64
	 * slots by 1.5 at a time to 41,991): dense ids in order of insertion, each found again,
	 * and the hashed entry points agree with tv_intern_hash().
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	char s[32];
	for (uint32_t i = 0; i < 20000; i++) {
		int len = snprintf(s, sizeof s, "w%u.n %06u", i % 97, i);
		uint32_t id;
		int added;
		ck_assert_int_eq(tv_intern_put(&in, s, (size_t)len, &id, &added), TAGEVAL_OK);
		ck_assert_int_eq(added, 1);
		ck_assert_uint_eq(id, i);
	}
	/*
	 * the slot counts, each n + n / 2 of the last, and the ids each holds
	 * at load 0.7 (n x 7 / 10, rounded down): 64 (44), 96 (67), 144 (100),
	 * 216 (151), 324 (226), 486 (340), 729 (510), 1093 (765), 1639 (1147),
	 * 2458 (1720), 3687 (2580), 5530 (3871), 8295 (5806), 12442 (8709),
	 * 18663 (13064), 27994 (19595), 41991 (29393): 20,000 ids need 41,991
	 */
	ck_assert_uint_eq(in.nslots, 41991);
	for (uint32_t i = 0; i < 20000; i++) {
		int len = snprintf(s, sizeof s, "w%u.n %06u", i % 97, i);
		uint32_t id = UINT32_MAX;
		ck_assert_int_eq(tv_intern_find(&in, s, (size_t)len, &id), 1);
		ck_assert_uint_eq(id, i);
		uint32_t h = tv_intern_hash(&in, s, (size_t)len);
		ck_assert_int_eq(find(&in, s, (size_t)len, h, &id), 1);
		ck_assert_uint_eq(id, i);
		ck_assert_str_eq(tv_intern_str(&in, id), s);
	}
	ck_assert_int_eq(tv_intern_find(&in, "w0.n 020000", 11, &(uint32_t){ 0 }), 0);
	tv_intern_clear(&in);
	/* cleared, the table is empty, keeps its key and is usable again */
	uint64_t k0 = in.hashkey[0], k1 = in.hashkey[1];
	tv_intern_clear(&in);
	ck_assert_uint_eq(in.hashkey[0], k0);
	ck_assert_uint_eq(in.hashkey[1], k1);
	ck_assert_uint_eq(in.n, 0);
	uint32_t id;
	ck_assert_int_eq(tv_intern_find(&in, "w0.n 000000", 11, &id), 0);
	ck_assert_int_eq(tv_intern_put(&in, "w0.n 000000", 11, &id, NULL), TAGEVAL_OK);
	ck_assert_uint_eq(id, 0);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(pointers_stay_valid)
{
	/*
	 * A string's pointer is kept by callers while more are interned: it
	 * must not move.  300,000 strings of 13 bytes ("p%012u"; 19 with the
	 * 5-byte header and the NUL, 5.7 MB) fill many chunks of the arena
	 * (64 KiB, then doubling to 2 MiB) and make the slots grow from 64 to
	 * 478,297; the pointers of ids 0, 1 and 4,999 taken after their inserts
	 * still read their bytes at the end (AddressSanitizer would report a
	 * read of freed memory if the arena were reallocated), and one string
	 * of 300 bytes (a 9-byte header) in the middle keeps its length.
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	char s[320];
	const char *held[3] = { NULL, NULL, NULL };
	uint32_t id;
	for (uint32_t i = 0; i < 300000; i++) {
		int len = snprintf(s, sizeof s, "p%012u", i);
		ck_assert_int_eq(tv_intern_put(&in, s, (size_t)len, &id, NULL), TAGEVAL_OK);
		ck_assert_uint_eq(id, i + (i > 150000));
		if (i == 0 || i == 1 || i == 4999)
			held[i == 0 ? 0 : i == 1 ? 1 : 2] = tv_intern_str(&in, id);
		if (i == 150000) {
			memset(s, 'L', 300);
			ck_assert_int_eq(tv_intern_put(&in, s, 300, &id, NULL), TAGEVAL_OK);
			ck_assert_uint_eq(id, 150001);
		}
	}
	ck_assert_str_eq(held[0], "p000000000000");
	ck_assert_str_eq(held[1], "p000000000001");
	ck_assert_str_eq(held[2], "p000000004999");
	ck_assert_ptr_eq(held[2], tv_intern_str(&in, 4999));
	ck_assert_uint_eq(tv_intern_len(&in, 150001), 300);
	ck_assert_uint_eq(strlen(tv_intern_str(&in, 150001)), 300);
	ck_assert_int_eq(tv_intern_find(&in, "p000000299999", 13, &id), 1);
	ck_assert_uint_eq(id, 300000); /* one after the long string */
	ck_assert_uint_eq(in.n, 300001);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(keys_per_table)
{
	/*
	 * Each table draws its own 128-bit key (getrandom): two tables have the
	 * same key with probability 2^-128, and the hash of a string is the
	 * low half of SipHash-1-3 under the table's key.  (Not built with the
	 * fixed key of the fuzz build, where the tests are disabled.)
	 */
	struct tv_intern a, b;
	tv_intern_init(&a);
	tv_intern_init(&b);
	ck_assert(a.hashkey[0] != b.hashkey[0] || a.hashkey[1] != b.hashkey[1]);
	ck_assert(a.hashkey[0] != 0 || a.hashkey[1] != 0);
	const char *s = "w0042.n 000123";
	ck_assert_uint_eq(tv_intern_hash(&a, s, 14), (uint32_t)tv_siphash13(a.hashkey, s, 14));
	ck_assert_uint_eq(tv_intern_hash(&b, s, 14), (uint32_t)tv_siphash13(b.hashkey, s, 14));
	tv_intern_clear(&a);
	tv_intern_clear(&b);
}
END_TEST

/*
 * The front cache of small tables: strings that collide in its unkeyed
 * hash (the same length and the same first and last 8 bytes: 500 strings
 * "abcdefgh" + 3 digits + "stuvwxyz") each keep their own id through
 * put and find, in both orders, and a string absent from the table is not
 * found through the cache.
 */
START_TEST(front_cache_collisions)
{
	struct tv_intern in;
	tv_intern_init(&in);
	char s[32];
	uint32_t id, id2;
	int added;
	for (int k = 0; k < 500; k++) {
		snprintf(s, sizeof s, "abcdefgh%03dstuvwxyz", k);
		ck_assert_int_eq(tv_intern_put(&in, s, strlen(s), &id, &added), TAGEVAL_OK);
		ck_assert_int_eq(added, 1);
		ck_assert_uint_eq(id, (uint32_t)k);
	}
	for (int round = 0; round < 2; round++)
		for (int k = 0; k < 500; k++) {
			int j = round ? 499 - k : k;
			snprintf(s, sizeof s, "abcdefgh%03dstuvwxyz", j);
			ck_assert_int_eq(tv_intern_put(&in, s, strlen(s), &id, &added), TAGEVAL_OK);
			ck_assert_int_eq(added, 0);
			ck_assert_uint_eq(id, (uint32_t)j);
			ck_assert_int_eq(tv_intern_find(&in, s, strlen(s), &id2), 1);
			ck_assert_uint_eq(id2, (uint32_t)j);
		}
	ck_assert_int_eq(tv_intern_find(&in, "abcdefgh500stuvwxyz", 19, &id), 0);
	ck_assert_uint_eq(in.n, 500);
	tv_intern_clear(&in);
}
END_TEST

/* String k of front_cache_entries: 1 + k % 19 bytes of 'a', the last one
 * replaced by the byte k / 19 (0 to 157: a NUL for k < 19). */
static size_t front_string(char *s, int k)
{
	size_t len = 1 + (size_t)(k % 19);
	memset(s, 'a', len);
	s[len - 1] = (char)(unsigned char)(k / 19);
	return len;
}

/*
 * The front cache's entries (a string's first 8 bytes, its length and its
 * id): 3000 distinct strings of 1 to 19 bytes (front_string), those of 9
 * bytes or more all equal in their first 8 bytes, short ones equal but for
 * their last byte (a NUL too), put in turn (the cache grows from 1024 to
 * 8192 entries on the way: new when 513, 1025 and 2049 strings are held), then put and
 * found again, in both orders: string k keeps id k (its rank), and strings
 * of the same first bytes but another last byte (200) or length (20 bytes)
 * are not found.
 */
START_TEST(front_cache_entries)
{
	struct tv_intern in;
	tv_intern_init(&in);
	char s[32];
	uint32_t id, id2;
	int added;
	for (int k = 0; k < 3000; k++) {
		size_t len = front_string(s, k);
		ck_assert_int_eq(tv_intern_put(&in, s, len, &id, &added), TAGEVAL_OK);
		ck_assert_int_eq(added, 1);
		ck_assert_uint_eq(id, (uint32_t)k);
	}
	ck_assert_uint_eq(in.front_bits, 13); /* 2 * 3000 > 4096 */
	for (int round = 0; round < 2; round++)
		for (int k = 0; k < 3000; k++) {
			int j = round ? 2999 - k : k;
			size_t len = front_string(s, j);
			ck_assert_int_eq(tv_intern_put(&in, s, len, &id, &added), TAGEVAL_OK);
			ck_assert_int_eq(added, 0);
			ck_assert_uint_eq(id, (uint32_t)j);
			ck_assert_int_eq(tv_intern_find(&in, s, len, &id2), 1);
			ck_assert_uint_eq(id2, (uint32_t)j);
		}
	for (size_t len = 1; len <= 19; len++) {
		memset(s, 'a', len);
		s[len - 1] = (char)200;
		ck_assert_int_eq(tv_intern_find(&in, s, len, &id), 0);
	}
	memset(s, 'a', 20);
	ck_assert_int_eq(tv_intern_find(&in, s, 20, &id), 0);
	ck_assert_uint_eq(in.n, 3000);
	tv_intern_clear(&in);
}
END_TEST

/*
 * Two strings in one entry of the front cache (1024 entries while the table
 * holds 512 strings or fewer): "0040" and "0095" (4 bytes: the same length,
 * other first bytes), "abcdefgh00094z" and "abcdefgh00105z" (14 bytes: the
 * same length and first 8 bytes, another tail) share an entry by the
 * cache's hash (worked out beside it: entry 46 and entry 444 of 1024).  The
 * second of each pair, put after the first, must be a new string (id 1, 3),
 * and each found again under its own id, in both orders: a hit taken on the
 * length alone, or on the length and first 8 bytes, would give the first's.
 * (Strings of 9 bytes with the same first 8 cannot share an entry: their
 * hashes differ in the last byte's 8 bits, which the multiplication keeps
 * apart at 10 to 13 bits.)
 */
START_TEST(front_cache_pairs)
{
	static const char *const pair[] = { "0040", "0095", "abcdefgh00094z", "abcdefgh00105z" };
	struct tv_intern in;
	tv_intern_init(&in);
	uint32_t id;
	int added;
	for (uint32_t k = 0; k < 4; k++) {
		ck_assert_int_eq(tv_intern_put(&in, pair[k], strlen(pair[k]), &id, &added),
				 TAGEVAL_OK);
		ck_assert_int_eq(added, 1);
		ck_assert_uint_eq(id, k);
	}
	ck_assert_uint_eq(in.front_bits, 10);
	for (int round = 0; round < 2; round++)
		for (uint32_t k = 0; k < 4; k++) {
			uint32_t j = round ? 3 - k : k;
			ck_assert_int_eq(tv_intern_find(&in, pair[j], strlen(pair[j]), &id), 1);
			ck_assert_uint_eq(id, j);
			ck_assert_int_eq(tv_intern_put(&in, pair[j], strlen(pair[j]), &id, &added),
					 TAGEVAL_OK);
			ck_assert_int_eq(added, 0);
			ck_assert_uint_eq(id, j);
		}
	tv_intern_clear(&in);
}
END_TEST

static int by_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * tv_intern_sort_ids orders ids as strcmp orders their strings: random
 * strings over "ab\xff" (a byte above 0x7f, which strcmp compares as
 * unsigned) of lengths 0-40 sharing prefixes of 7-17 bytes, so that the
 * 8- and 16-byte keys tie and the lengths straddle them; checked against
 * qsort with strcmp on the strings themselves.
 */
START_TEST(sort_ids_bytewise)
{
	struct tv_intern in;
	tv_intern_init(&in);
	enum { N = 3000 };
	static char buf[N][48];
	uint32_t *ids = malloc(N * sizeof *ids);
	const char **want = malloc(N * sizeof *want);
	struct tv_sort_name *tmp = malloc(2 * N * sizeof *tmp);
	ck_assert_ptr_nonnull(ids);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(tmp);
	uint64_t x = 2463534242u;
	size_t n = 0;
	for (int k = 0; k < N; k++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t len = (size_t)(x % 41);
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* the first 7 to 17 bytes "a", then random */
			buf[k][i] = i < 7 + (size_t)(k % 11) ? 'a' : "ab\xff"[x % 3];
		}
		buf[k][len] = '\0';
		uint32_t id;
		int added;
		ck_assert_int_eq(tv_intern_put(&in, buf[k], len, &id, &added), TAGEVAL_OK);
		if (added) {
			ids[n] = id;
			want[n++] = buf[k];
		}
	}
	/* the ids in reverse, sorted back */
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t t = ids[i];
		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = t;
	}
	tv_intern_sort_ids(&in, ids, n, tmp);
	qsort(want, n, sizeof *want, by_strcmp);
	ck_assert_uint_gt(n, 1000);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(tv_intern_str(&in, ids[i]), want[i]);
	free(ids);
	free(want);
	free(tmp);
	tv_intern_clear(&in);
}
END_TEST

/* The strings "c0" .. "c<n - 1>" in a new table. */
static void put_c_strings(struct tv_intern *in, uint32_t n)
{
	char s[16];
	uint32_t id;
	tv_intern_init(in);
	for (uint32_t i = 0; i < n; i++) {
		int len = snprintf(s, sizeof s, "c%u", i);
		ck_assert_int_eq(tv_intern_put(in, s, (size_t)len, &id, NULL), TAGEVAL_OK);
	}
}

START_TEST(compact_keeps_ids)
{
	/*
	 * 800 strings "c0" .. "c799": the slots grow from 64 by 1.5 (96,
	 * 144, 216, 324, 486, 729, 1,093, 1,639: 1,093 holds at most 765 at
	 * load 0.7) and the id array doubles from 8 to 1,024.  At a load of
	 * 800 / 1,639 = 0.49 (below 0.6: 800 x 5 = 4,000 < 1,639 x 3 = 4,917)
	 * compacting makes 800 + 800 / 4 + 1 = 1,001 slots and replaces the id
	 * array by every 16th id's offset (800 / 16 = 50); every string is
	 * still found with its id.  Compacting again changes nothing; a new
	 * string then grows the slots by 1.5 (801 x 10 > 1,001 x 7 = 7,007):
	 * 1,001 + 500 = 1,501, its id 800.
	 */
	struct tv_intern in;
	char s[16];
	uint32_t id;
	put_c_strings(&in, 800);
	ck_assert_uint_eq(in.nslots, 1639);
	ck_assert_uint_eq(in.cap, 1024);
	tv_intern_compact(&in);
	ck_assert_uint_eq(in.nslots, 1001);
	ck_assert_ptr_null(in.off);
	ck_assert_ptr_nonnull(in.samp);
	ck_assert_uint_eq(in.samp_cap, 50);
	tv_intern_compact(&in);
	ck_assert_uint_eq(in.nslots, 1001);
	for (uint32_t i = 0; i < 800; i++) {
		int len = snprintf(s, sizeof s, "c%u", i);
		ck_assert_int_eq(tv_intern_find(&in, s, (size_t)len, &id), 1);
		ck_assert_uint_eq(id, i);
		ck_assert_str_eq(tv_intern_str(&in, i), s);
	}
	ck_assert_int_eq(tv_intern_find(&in, "c800", 4, &id), 0);
	int added = 0;
	ck_assert_int_eq(tv_intern_put(&in, "c800", 4, &id, &added), TAGEVAL_OK);
	ck_assert_int_eq(added, 1);
	ck_assert_uint_eq(id, 800);
	ck_assert_uint_eq(in.nslots, 1501);
	tv_intern_clear(&in);

	/*
	 * 1,000 strings: 1,639 slots at a load of 0.61 (1,000 x 5 = 5,000 is
	 * not below 1,639 x 3 = 4,917): the slots stay (a rehash would save
	 * less than a third of them), the id array is sampled all the same
	 * (63 offsets); a new string does not grow them (1,001 x 10 = 10,010
	 * <= 1,639 x 7 = 11,473).
	 */
	put_c_strings(&in, 1000);
	ck_assert_uint_eq(in.nslots, 1639);
	tv_intern_compact(&in);
	ck_assert_uint_eq(in.nslots, 1639);
	ck_assert_ptr_null(in.off);
	ck_assert_uint_eq(in.samp_cap, 63);
	for (uint32_t i = 0; i < 1000; i++) {
		int len = snprintf(s, sizeof s, "c%u", i);
		ck_assert_int_eq(tv_intern_find(&in, s, (size_t)len, &id), 1);
		ck_assert_uint_eq(id, i);
	}
	ck_assert_int_eq(tv_intern_put(&in, "c1000", 5, &id, &added), TAGEVAL_OK);
	ck_assert_uint_eq(id, 1000);
	ck_assert_uint_eq(in.nslots, 1639);
	tv_intern_clear(&in);
}
END_TEST


/*
 * tv_intern_cut: "k0" .. "k9" cut back to their first 4: k0 .. k3 keep ids
 * 0 .. 3, k4 .. k9 are gone, and the next string put is id 4.  Cutting to
 * 4 again, or to more than the table holds, changes nothing.
 */
START_TEST(cut_keeps_first)
{
	struct tv_intern in;
	tv_intern_init(&in);
	char s[8];
	uint32_t id;
	for (uint32_t i = 0; i < 10; i++) {
		int len = snprintf(s, sizeof s, "k%u", i);
		ck_assert_int_eq(tv_intern_put(&in, s, (size_t)len, &id, NULL), TAGEVAL_OK);
	}
	ck_assert_int_eq(tv_intern_cut(&in, 4), TAGEVAL_OK);
	ck_assert_int_eq(tv_intern_cut(&in, 4), TAGEVAL_OK);
	ck_assert_int_eq(tv_intern_cut(&in, 99), TAGEVAL_OK);
	ck_assert_uint_eq(in.n, 4);
	for (uint32_t i = 0; i < 10; i++) {
		int len = snprintf(s, sizeof s, "k%u", i);
		int found = tv_intern_find(&in, s, (size_t)len, &id);
		ck_assert_int_eq(found, i < 4);
		if (found)
			ck_assert_uint_eq(id, i);
	}
	int added = 0;
	ck_assert_int_eq(tv_intern_put(&in, "k9", 2, &id, &added), TAGEVAL_OK);
	ck_assert_int_eq(added, 1);
	ck_assert_uint_eq(id, 4);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(expect_grows_toward)
{
	/*
	 * tv_intern_expect(1,000) on an empty table, then "r0" .. "r999".  A
	 * table grows when the string to add would take the load past 0.7
	 * ((held) x 10 > slots x 7, held = the strings with it), to room at a
	 * load of 2/3 (want + want / 2 + 1 slots) for want = the 1,000 expected
	 * but at most 4 x held, when that is more than the 1.5 x growth:
	 *   the first string:  64 slots (4 x 1 = 4: 7 slots is less);
	 *   held 45 (450 > 448):    want 180 -> 271 slots (not 96);
	 *   held 190 (1,900 > 1,897): want 760 -> 1,141 (not 406);
	 *   held 799 (7,990 > 7,987): want 1,000 -> 1,501 (not 1,711);
	 * and the 1,000 strings fit (10,000 <= 1,501 x 7 = 10,507), ids 0 ..
	 * 999 in order as without it.  Without it: 64 -> 96 -> 144 -> 216 ->
	 * 324 -> 486 -> 729 -> 1,093 -> 1,639 slots.  Expecting less than
	 * before changes nothing; one string more (1,001 x 10 = 10,010 <=
	 * 10,507) no growth; past the strings expected the growth is 1.5 x
	 * again: at held 1,051 (10,510 > 10,507), 1,501 + 750 = 2,251 slots.
	 * A count past TV_INTERN_EXPECT_MAX is taken as that.
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	tv_intern_expect(&in, 1000);
	ck_assert_uint_eq(in.nslots, 0); /* a hint: nothing allocated */
	char s[16];
	uint32_t id;
	int added;
	static const struct {
		uint32_t held;
		size_t nslots;
	} step[] = { { 1, 64 }, { 44, 64 }, { 45, 271 }, { 189, 271 }, { 190, 1141 },
		     { 798, 1141 }, { 799, 1711 }, { 1000, 1711 } };
	uint32_t i = 0;
	for (size_t k = 0; k < sizeof step / sizeof step[0]; k++) {
		for (; i < step[k].held; i++) {
			int len = snprintf(s, sizeof s, "r%u", i);
			ck_assert_int_eq(tv_intern_put(&in, s, (size_t)len, &id, &added), TAGEVAL_OK);
			ck_assert_int_eq(added, 1);
			ck_assert_uint_eq(id, i);
		}
		ck_assert_uint_eq(in.nslots, step[k].nslots);
	}
	tv_intern_expect(&in, 10);
	ck_assert_uint_eq(in.expect, 1000);
	for (i = 0; i < 1000; i++) {
		int len = snprintf(s, sizeof s, "r%u", i);
		ck_assert_int_eq(tv_intern_find(&in, s, (size_t)len, &id), 1);
		ck_assert_uint_eq(id, i);
	}
	for (i = 1000; i < 1197; i++) {
		int len = snprintf(s, sizeof s, "r%u", i);
		ck_assert_int_eq(tv_intern_put(&in, s, (size_t)len, &id, &added), TAGEVAL_OK);
		ck_assert_uint_eq(in.nslots, 1711);
	}
	ck_assert_int_eq(tv_intern_put(&in, "r1197", 5, &id, &added), TAGEVAL_OK);
	ck_assert_uint_eq(id, 1197);
	ck_assert_uint_eq(in.nslots, 2566);
	tv_intern_expect(&in, SIZE_MAX);
	ck_assert_uint_eq(in.expect, TV_INTERN_EXPECT_MAX);
	tv_intern_clear(&in);
}
END_TEST


/* String i of sampled_walk_chunks: 200,000, 400,000 and 2,000,000 bytes for
 * ids 300, 301 and 700, else 250; "%06u" of the id, then 'a' + id % 26.  *len receives its length. */
static char *walk_string(uint32_t i, size_t *len)
{
	*len = i == 300 ? 200000 : i == 301 ? 400000 : i == 700 ? 2000000 : 250;
	char *s = malloc(*len + 1);
	ck_assert_ptr_nonnull(s);
	memset(s, 'a' + (int)(i % 26), *len);
	char head[8];
	snprintf(head, sizeof head, "%06u", i);
	memcpy(s, head, 6);
	s[*len] = '\0';
	return s;
}

/* Checks strings 0 .. n - 1 (by tv_intern_str, tv_intern_len, tv_intern_find
 * and, from string 0 on, tv_intern_next); returns the ids whose header does
 * not follow the previous string's NUL, as a bitmap over 0 .. n - 1. */
static void walk_check(struct tv_intern *in, uint32_t n, unsigned char *jumped)
{
	const char *next = tv_intern_str(in, 0);
	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		char *want = walk_string(i, &len);
		const char *got = tv_intern_str(in, i);
		ck_assert_ptr_eq(got, next);
		ck_assert_uint_eq(tv_intern_len(in, i), len);
		ck_assert_int_eq(memcmp(got, want, len + 1), 0);
		uint32_t id = UINT32_MAX;
		ck_assert_int_eq(tv_intern_find(in, want, len, &id), 1);
		ck_assert_uint_eq(id, i);
		tv_intern_prefetch_ptr(in, i);
		tv_intern_prefetch_bytes(in, i);
		jumped[i] = 0;
		if (i > 0) {
			const char *prev = tv_intern_str(in, i - 1);
			size_t plen = tv_intern_len(in, i - 1);
			jumped[i] = got != prev + plen + 1 + (len < 0xff ? 5 : 10);
		}
		if (i + 1 < n)
			next = tv_intern_next(in, got);
		free(want);
	}
}

START_TEST(sampled_walk_chunks)
{
	/*
	 * Strings of 250 bytes take 5 + 250 + 1 = 256 bytes each, and each is
	 * placed with 8 bytes free after it (a jump record's room).  The first
	 * chunk is one piece, 65,536 bytes: string k (from 0) fits while
	 * 65,536 - 256k >= 264, k <= 254: ids 0..254, and id 255 opens the
	 * second chunk (one piece: a new chunk has as many pieces as the arena
	 * so far, up to 32).  Id 300 (200,000 bytes: 4 pieces > 2) gets a chunk
	 * of its own and the second chunk stays current, its next 8 bytes
	 * (after id 299) kept for the jump record to id 300; id 301 (400,000
	 * bytes: 7 pieces > 1 + 1 + 4) too.  The second chunk then holds ids
	 * 255..299 (45 x 256 = 11,520 bytes), the record, and from 11,528 on
	 * ids 302.. while 54,008 - 256k >= 264, k <= 209: ids 302..511; id 512
	 * opens the third ordinary chunk, 1 + 1 + 4 + 7 = 13 pieces, room for
	 * all the rest.  Id 700 (2,000,000 bytes: 31 pieces > 26) has its own.
	 * So the ids not right after the
	 * previous string: 255, 300, 301, 302, 512; and after the compacting,
	 * 700 and 701 (back in the third chunk).  Every one of the 721 strings
	 * is found by its id through the samples (ids 0, 16, ...) and the walk,
	 * before and after compacting and after more puts (the
	 * samples grow past ceil(600 / 16) = 38 at id 608).
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	unsigned char jumped[721];
	uint32_t id;
	for (uint32_t i = 0; i < 600; i++) {
		size_t len;
		char *s = walk_string(i, &len);
		ck_assert_int_eq(tv_intern_put(&in, s, len, &id, NULL), TAGEVAL_OK);
		ck_assert_uint_eq(id, i);
		free(s);
	}
	walk_check(&in, 600, jumped);
	for (uint32_t i = 1; i < 600; i++)
		ck_assert_int_eq(jumped[i], i == 255 || i == 300 || i == 301 || i == 302 || i == 512);
	tv_intern_compact(&in);
	ck_assert_ptr_null(in.off);
	ck_assert_uint_eq(in.samp_cap, 38);
	walk_check(&in, 600, jumped);
	for (uint32_t i = 600; i < 721; i++) {
		size_t len;
		char *s = walk_string(i, &len);
		int added = 0;
		ck_assert_int_eq(tv_intern_put(&in, s, len, &id, &added), TAGEVAL_OK);
		ck_assert_int_eq(added, 1);
		ck_assert_uint_eq(id, i);
		free(s);
	}
	ck_assert_ptr_null(in.off);
	ck_assert_uint_ge(in.samp_cap, 46); /* ceil(721 / 16) */
	walk_check(&in, 721, jumped);
	for (uint32_t i = 1; i < 721; i++)
		ck_assert_int_eq(jumped[i], i == 255 || i == 300 || i == 301 || i == 302 ||
						    i == 512 || i == 700 || i == 701);
	/* the sort reads the strings through the walk: in order "000000..",
	 * "000001.." .. (the ids' digits first), given in reverse */
	uint32_t ids[721];
	struct tv_sort_name tmp[2 * 721];
	for (uint32_t i = 0; i < 721; i++)
		ids[i] = 720 - i;
	tv_intern_sort_ids(&in, ids, 721, tmp);
	for (uint32_t i = 0; i < 721; i++)
		ck_assert_uint_eq(ids[i], i);
	tv_intern_clear(&in);
}
END_TEST

START_TEST(sampled_first_alone)
{
	/*
	 * A first string of its own chunk (200,000 bytes > the first chunk's
	 * one piece), then strings of 250: the record after the first string
	 * (in its chunk's 8 spare bytes) leads to id 1 at the start of the
	 * first ordinary chunk.  The table compacted at 3 strings (1 sample).
	 */
	struct tv_intern in;
	tv_intern_init(&in);
	char big[200001], s[251];
	memset(big, 'b', 200000);
	big[200000] = '\0';
	uint32_t id;
	ck_assert_int_eq(tv_intern_put(&in, big, 200000, &id, NULL), TAGEVAL_OK);
	for (uint32_t i = 1; i < 40; i++) {
		memset(s, 'a', 250);
		snprintf(s, sizeof s, "%06u", i);
		s[6] = 'a';
		ck_assert_int_eq(tv_intern_put(&in, s, 250, &id, NULL), TAGEVAL_OK);
		ck_assert_uint_eq(id, i);
		if (i == 2)
			tv_intern_compact(&in);
	}
	ck_assert_uint_ge(in.samp_cap, 3); /* ids 0, 16, 32 */
	ck_assert_str_eq(tv_intern_str(&in, 0), big);
	for (uint32_t i = 1; i < 40; i++) {
		char want[8];
		snprintf(want, sizeof want, "%06u", i);
		ck_assert_int_eq(memcmp(tv_intern_str(&in, i), want, 6), 0);
		ck_assert_uint_eq(tv_intern_len(&in, i), 250);
	}
	ck_assert_ptr_eq(tv_intern_next(&in, tv_intern_str(&in, 0)), tv_intern_str(&in, 1));
	tv_intern_clear(&in);
}
END_TEST

static Suite *intern_suite(void)
{
	Suite *s = suite_create("intern");
	TCase *tc = tcase_create("siphash");
	tcase_add_test(tc, siphash24_paper_vectors);
	tcase_add_test(tc, siphash13_vectors);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_add_test(tc, collision_prefixes);
	tcase_add_test(tc, collision_past_the_block);
	tcase_add_test(tc, collision_same_length);
	tcase_add_test(tc, keyed_many);
	tcase_add_test(tc, keys_per_table);
	tcase_add_test(tc, pointers_stay_valid);
	tcase_add_test(tc, sort_ids_bytewise);
	tcase_add_test(tc, front_cache_collisions);
	tcase_add_test(tc, front_cache_entries);
	tcase_add_test(tc, front_cache_pairs);
	tcase_add_test(tc, compact_keeps_ids);
	tcase_add_test(tc, cut_keeps_first);
	tcase_add_test(tc, expect_grows_toward);
	tcase_add_test(tc, sampled_walk_chunks);
	tcase_add_test(tc, sampled_first_alone);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(intern_suite());
}
