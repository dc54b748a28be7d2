/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The line reader through the key reader: line ends, comments, blanks,
 * long lines, every malformed key line, and the subset filters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test-common.h"

static int read_key(const char *text, size_t len, struct tageval_key **key,
		    struct tageval_error *err)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(inv);
	int rc = tageval_key_read_buffer(inv, text, len, "key", key, err);
	tageval_key_free(*key);
	*key = NULL;
	tageval_inventory_free(inv);
	return rc;
}

static size_t key_size(const char *text, size_t len)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_key_read_buffer(inv, text, len, "key", &key, &err), TAGEVAL_OK);
	size_t n = tageval_key_size(key);
	tageval_key_free(key);
	tageval_inventory_free(inv);
	return n;
}

START_TEST(line_ends)
{
	/* LF, CRLF, a last line without newline, blank and comment lines,
	 * runs of blanks, tabs, leading blanks: 4 instances */
	static const char text[] = "w 01 1\r\n"
				   "\r\n"
				   "!! a comment\n"
				   "  w\t02   2 \t\n"
				   "w 03 3 !! comment\n"
				   "w 04 4";
	ck_assert_uint_eq(key_size(text, sizeof text - 1), 4);
	/* a CRLF key and an LF answer file agree: the \r is not part of the tag */
	struct scored s;
	score_strings(NULL, "w 01 1\r\nw 02 2\r\n", "w 01 1\nw 02 2", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_double_eq_tol(s.total.correct, 2.0, TOL);
}
END_TEST

START_TEST(long_line)
{
	/* one key line with 200 000 tags (about 1.3 MB) */
	size_t n = 200000;
	char *text = malloc(n * 8 + 16);
	ck_assert_ptr_nonnull(text);
	size_t l = (size_t)sprintf(text, "w 01");
	for (size_t i = 0; i < n; i++)
		l += (size_t)sprintf(text + l, " t%zu", i);
	text[l++] = '\n';
	ck_assert_uint_eq(key_size(text, l), 1);
	free(text);
}
END_TEST

/* The reader works on chunks of 256 KiB: lines that straddle chunk ends,
 * CRLF pairs split between chunks, and line numbers after a refill. */
START_TEST(chunk_boundaries)
{
	/* 60 000 key lines of 17 to 23 bytes with CRLF (about 1.2 MB, so
	 * every offset of a chunk end falls inside some line or its CRLF),
	 * and the same answers in reverse order with LF and no last newline:
	 * every answer is its key's one tag, so correct = 60 000. */
	size_t n = 60000;
	char *key = malloc(n * 32 + 1), *ans = malloc(n * 32 + 1);
	ck_assert_ptr_nonnull(key);
	ck_assert_ptr_nonnull(ans);
	size_t k = 0, a = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = n - 1 - i;
		k += (size_t)sprintf(key + k, "w i%06zu t%zu%*s\r\n", i, i % 10, (int)(i % 7), "");
		a += (size_t)sprintf(ans + a, "w i%06zu t%zu%s", j, j % 10, i + 1 < n ? "\n" : "");
	}
	struct scored s;
	score_strings(NULL, key, ans, TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_double_eq(s.total.correct, 60000.0);
	ck_assert_double_eq(s.total.total, 60000.0);
	/* a NUL byte on line 50 000 (well past the first chunk) */
	size_t off = 0;
	for (size_t line = 1; line < 50000; line++)
		off = (size_t)((char *)memchr(key + off, '\n', k - off) - key) + 1;
	key[off + 2] = '\0';
	struct tageval_key *kk = NULL;
	struct tageval_error err;
	ck_assert_int_eq(read_key(key, k, &kk, &err), TAGEVAL_EFORMAT);
	ck_assert_uint_eq(err.line, 50000);
	ck_assert_str_eq(err.message, "NUL byte");
	free(key);
	free(ans);
}
END_TEST

static const struct {
	const char *text;
	size_t len; /* 0 = strlen */
	size_t line;
	const char *message;
} bad_keys[] = {
	{ "w 01 1\nw\n", 0, 2, "missing instance id" },
	{ "w 01 1\n\nw 02\n", 0, 3, "instance \"w 02\" has no sense tag" },
	{ "w 01 1 !! only a comment follows\nw 02 !! 1\n", 0, 2,
	  "instance \"w 02\" has no sense tag" },
	{ "w 01 1/0.5\n", 0, 1, "key tag \"1/0.5\" contains '/'" },
	{ "w 01 1\nx 01 1\n\nw 01 2\n", 0, 4, "duplicate instance \"w 01\" (first at line 1)" },
	{ "w 01 1\nw 02 2\x00\n", 14, 2, "NUL byte" },
	{ "w 01 1\r2\n", 0, 1, "stray carriage return" },
	{ "w 01 1\r\r\n", 0, 1, "stray carriage return" },
	{ "", 0, 0, "no instances" },
	{ "\n!! nothing\n  \n", 0, 0, "no instances" },
};

START_TEST(key_errors)
{
	struct tageval_key *key = NULL;
	struct tageval_error err;
	size_t len = bad_keys[_i].len ? bad_keys[_i].len : strlen(bad_keys[_i].text);
	ck_assert_int_eq(read_key(bad_keys[_i].text, len, &key, &err), TAGEVAL_EFORMAT);
	ck_assert_ptr_null(key);
	ck_assert_str_eq(err.file, "key");
	ck_assert_uint_eq(err.line, bad_keys[_i].line);
	ck_assert_str_eq(err.message, bad_keys[_i].message);
}
END_TEST

START_TEST(id_is_a_pair)
{
	/* scorer2 joined the fields with '_': "a b_c" and "a_b c" collided */
	ck_assert_uint_eq(key_size("a b_c 1\na_b c 1\n", 16), 2);
	/* an unreadable key */
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = (struct tageval_key *)inv; /* must be reset to NULL */
	struct tageval_error err;
	ck_assert_int_eq(tageval_key_read(inv, "/nonexistent/key", &key, &err), TAGEVAL_EIO);
	ck_assert_ptr_null(key);
	ck_assert_str_eq(err.message, "cannot open: No such file or directory");
	ck_assert_int_eq(tageval_key_read(inv, "/", &key, &err), TAGEVAL_EIO);
	ck_assert_str_eq(err.message, "cannot open: Is a directory");
	tageval_inventory_free(inv);
}
END_TEST

/* Scores @answers against a 4-instance key through a filter. */
static void filtered(const char *instances, const char *tags, const char *answers,
		     struct tageval_score *total, size_t *n_events)
{
	static const char map[] = "1\n1.1 2 1\n1.2 2 1\n2\n2.1 5 2\n2.2 5 2\n"
				   "2.3 5 2\n2.4 5 2\n2.5 5 2\n";
	static const char keytext[] = "w 01 1\nw 02 2.1 2.2\nw 03 1.1 1.2\nw 04 2.3\n";
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_error err;
	ck_assert_int_eq(tageval_inventory_read_map_buffer(inv, map, strlen(map), "map", &err),
			 TAGEVAL_OK);
	struct tageval_key *key;
	ck_assert_int_eq(tageval_key_read_buffer(inv, keytext, strlen(keytext), "key", &key, &err),
			 TAGEVAL_OK);
	struct tageval_filter *f = tageval_filter_new();
	if (instances)
		ck_assert_int_eq(tageval_filter_read_instances_buffer(f, instances,
								      strlen(instances), "inst",
								      &err),
				 TAGEVAL_OK);
	if (tags)
		ck_assert_int_eq(tageval_filter_read_tags_buffer(f, inv, tags, strlen(tags),
								 "tags", &err),
				 TAGEVAL_OK);
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.granularity = TAGEVAL_MIXED;
	o.filter = f;
	struct tageval_scorer *s;
	ck_assert_int_eq(tageval_scorer_new(inv, key, &o, &s, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_scorer_read_buffer(s, answers, strlen(answers), "ans", &err),
			 TAGEVAL_OK);
	tageval_scorer_result(s, total);
	*n_events = total->scored;
	tageval_scorer_free(s);
	tageval_filter_free(f);
	tageval_key_free(key);
	tageval_inventory_free(inv);
}

START_TEST(filters)
{
	static const char answers[] = "w 01 1\nw 02 2\nw 03 1\nw 04 2.3\n";
	struct tageval_score t;
	size_t n;
	/* no filter, mixed: 1 + (1/5 + 1/5) + (1/2 + 1/2) + 1 = 3.4 of 4 */
	filtered(NULL, NULL, answers, &t, &n);
	ck_assert_double_eq_tol(t.correct, 3.4, TOL);
	ck_assert_double_eq_tol(t.total, 4.0, TOL);
	/* instance list {w 02, w 04} (a key file serves: extra fields ignored):
	 * 0.4 + 1 = 1.4 of 2; the other answers are ignored, not counted */
	filtered("w 02 whatever\nw 04\t2.3\nw 99 1\n", NULL, answers, &t, &n);
	ck_assert_double_eq_tol(t.correct, 1.4, TOL);
	ck_assert_double_eq_tol(t.total, 2.0, TOL);
	ck_assert_double_eq_tol(t.attempted, 2.0, TOL);
	ck_assert_uint_eq(t.filtered, 2);
	/* spec 001: tag list {1.1, 2.2}: w 02 is scored as key 2.2 (answer 2
	 * earns 1/5), w 03 as key 1.1 (answer 1 earns 1/2); w 01 and w 04 lose
	 * all their tags and drop out: 0.7 of 2 */
	filtered(NULL, "1.1\n2.2\n", answers, &t, &n);
	ck_assert_double_eq_tol(t.correct, 0.7, TOL);
	ck_assert_double_eq_tol(t.total, 2.0, TOL);
	ck_assert_uint_eq(t.instances, 2);
	/* both filters together: only w 02 remains: 0.2 of 1 */
	filtered("w 02\nw 04\n", "1.1 2.2", answers, &t, &n);
	ck_assert_double_eq_tol(t.correct, 0.2, TOL);
	ck_assert_double_eq_tol(t.total, 1.0, TOL);
	ck_assert_uint_eq(n, 1);
}
END_TEST

/* @n bytes of @text as one gzip member appended to @out at *len. */
static void gzip_member(const char *text, size_t n, unsigned char *out, size_t *len, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
			 Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)text;
	z.avail_in = (unsigned)n;
	z.next_out = out + *len;
	z.avail_out = (unsigned)(cap - *len);
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	*len = cap - z.avail_out;
	deflateEnd(&z);
}

/* Compressed input through the buffer readers (the CLI cases do files and
 * pipes): larger than a chunk, in two members, cut short; and byte-order
 * marks, skipped at the start of the text only. */
START_TEST(gzip_and_bom)
{
	/* 60 000 key lines "w iNNNNNN tD" (D = i mod 10): 1.1 MB of text, more
	 * than the 256 KiB chunk of the reader */
	size_t n = 60000, k = 0;
	char *key = malloc(n * 20);
	ck_assert_ptr_nonnull(key);
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(key + k, "w i%06zu t%zu\n", i, (i * 7919) % 10);
	size_t cap = k + 4096, zlen = 0;
	unsigned char *z = malloc(cap);
	ck_assert_ptr_nonnull(z);
	/* two members, cut inside a line */
	gzip_member(key, k / 3, z, &zlen, cap);
	gzip_member(key + k / 3, k - k / 3, z, &zlen, cap);
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *kk = NULL;
	struct tageval_scorer *sc = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_key_read_buffer(inv, (const char *)z, zlen, "key.gz", &kk, &err),
			 TAGEVAL_OK);
	ck_assert_uint_eq(tageval_key_size(kk), n);
	/* the same lines as answers: every one its key's tag, correct = 60 000 */
	ck_assert_int_eq(tageval_scorer_new(inv, kk, NULL, &sc, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_scorer_read_buffer(sc, (const char *)z, zlen, "a.gz", &err),
			 TAGEVAL_OK);
	struct tageval_score t;
	tageval_scorer_result(sc, &t);
	ck_assert_double_eq(t.correct, 60000.0);
	tageval_scorer_free(sc);
	tageval_key_free(kk);
	/* cut short: an error of the file, without a line */
	ck_assert_int_eq(tageval_key_read_buffer(inv, (const char *)z, zlen / 2, "key.gz", &kk,
						 &err),
			 TAGEVAL_EFORMAT);
	ck_assert_ptr_null(kk);
	ck_assert_str_eq(err.file, "key.gz");
	ck_assert_uint_eq(err.line, 0);
	ck_assert_str_eq(err.message, "truncated gzip data (the file ends inside a member)");
	/* a wrong CRC-32 (the trailer's first 4 bytes): the text is all there,
	 * the check at the end fails */
	z[zlen - 8] ^= 0xff;
	ck_assert_int_eq(tageval_key_read_buffer(inv, (const char *)z, zlen, "key.gz", &kk, &err),
			 TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "corrupt gzip data (incorrect data check)");
	tageval_inventory_free(inv);
	free(z);
	free(key);

	/* a byte-order mark before the first line is not part of the lexelt:
	 * the answer "w 01 a" is the key's, correct 1 of 1 */
	struct scored s;
	score_strings(NULL, "\xef\xbb\xbfw 01 a\n", "\xef\xbb\xbfw 01 a", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_double_eq(s.total.correct, 1.0);
	/* elsewhere the three bytes are text: the second key line's lexelt is
	 * "\xef\xbb\xbfw", so the answer for "w 02" is not in the key */
	score_strings(NULL, "w 01 a\n\xef\xbb\xbfw 02 b\n", "w 02 b", TAGEVAL_FINE, 0, 0, &s);
	ck_assert_int_eq(s.rc, TAGEVAL_OK);
	ck_assert_uint_eq(s.total.not_in_key, 1);
	ck_assert_double_eq(s.total.total, 2.0);
}
END_TEST

static Suite *key_suite(void)
{
	Suite *s = suite_create("key");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, line_ends);
	tcase_add_test(tc, long_line);
	tcase_add_test(tc, chunk_boundaries);
	tcase_add_loop_test(tc, key_errors, 0, (int)(sizeof bad_keys / sizeof bad_keys[0]));
	tcase_add_test(tc, id_is_a_pair);
	tcase_add_test(tc, gzip_and_bom);
	suite_add_tcase(s, tc);
	tc = tcase_create("filters");
	tcase_add_test(tc, filters);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(key_suite());
}
