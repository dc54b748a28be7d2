/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Line numbers beyond 2^32 (a file of more than 4G lines).  Reading that
 * many lines would take minutes, so this white-box test (linked with the
 * library's objects) starts the reader at a line number just below 2^32
 * and checks every place a line number is kept: the reader's error line,
 * the key's stored lines (16-byte instances: their low 32 bits, the high
 * bits where they change), the scorer's events and its errors, and the
 * annotations' records (32-bit lines, those of 2^32 - 1 on in a side list).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "test-common.h"
#include "tageval-agreement.h"
#include "tageval-intern.h"
#include "tageval-key.h"
#include "tageval-parallel.h"
#include "tageval-reader.h"
#include "tageval-score.h"
#include "tageval-util.h"

#define TWO32 4294967296ull /* 2^32 */

/* A reader of @text whose first line is number @first. */
static void open_at(struct tv_reader *r, const char *text, uint64_t first)
{
	struct tageval_error err;
	ck_assert_int_eq(tv_reader_open_buffer(r, text, strlen(text), "f", &err), TAGEVAL_OK);
	r->lineno = first - 1; /* the number of the line last returned */
}

START_TEST(key_lines_beyond_2_32)
{
	/* lines 2^32 - 1, 2^32, (blank) 2^32 + 1, 2^32 + 2, then at 2^32 + 3 a
	 * duplicate of the instance of line 2^32 = 4294967296 */
	static const char text[] = "w 1 a\nw 2 b\n\nw 3 c\nw 2 d\n";
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_error err;
	struct tv_reader r;
	open_at(&r, text, TWO32 - 1);
	ck_assert_int_eq(tv_key_read_reader(inv, &r, &key, &err), TAGEVAL_EFORMAT);
	tv_reader_close(&r);
	ck_assert_ptr_null(key);
	ck_assert_uint_eq(err.line, TWO32 + 3);
	ck_assert_str_eq(err.message, "duplicate instance \"w 2\" (first at line 4294967296)");

	/* without the duplicate: the stored lines of the three instances */
	static const char good[] = "w 1 a\nw 2 b\n\nw 3 c\n";
	open_at(&r, good, TWO32 - 1);
	ck_assert_int_eq(tv_key_read_reader(inv, &r, &key, &err), TAGEVAL_OK);
	tv_reader_close(&r);
	ck_assert_uint_eq(tageval_key_size(key), 3);
	ck_assert_uint_eq(tv_key_line(key, 0), TWO32 - 1);
	ck_assert_uint_eq(tv_key_line(key, 1), TWO32);
	ck_assert_uint_eq(tv_key_line(key, 2), TWO32 + 2);
	/* tageval_key_add() numbers its instances 1, 2, ... by the key's size:
	 * the 4th instance is "line" 4, below the lines read before it */
	const char *tags[] = { "e" };
	ck_assert_int_eq(tageval_key_add(key, "w", "4", tags, 1, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tv_key_line(key, 3), 4);
	ck_assert_uint_eq(tv_key_line(key, 2), TWO32 + 2);
	ck_assert_int_eq(tageval_key_add(key, "w", "1", tags, 1, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "duplicate instance \"w 1\" (first at line 4294967295)");
	ck_assert_int_eq(tageval_key_add(key, "w", "4", tags, 1, &err), TAGEVAL_EFORMAT);
	ck_assert_str_eq(err.message, "duplicate instance \"w 4\" (first at line 4)");
	tageval_key_free(key);
	tageval_inventory_free(inv);
}
END_TEST

/* Annotator @c of @text, first line @first, into @a: its status. */
static int read_ann_at(struct tageval_annotations *a, const char *text, uint64_t first,
		       struct tageval_error *err)
{
	struct tv_reader r;
	open_at(&r, text, first);
	int rc = tv_annotations_read_reader(a, &r, err);
	tv_reader_close(&r);
	return rc;
}

START_TEST(annotation_lines_beyond_2_32)
{
	/* a record's line is 32 bits, TV_REC_FAR (2^32 - 1) meaning "in the
	 * side list": lines 2^32 - 3 and 2^32 - 2 kept in the record, 2^32 - 1
	 * (the marker's own value) and 2^32 + 1 (after a blank line) in the
	 * list; each duplicate after them names the first line in full */
	static const char text[] = "w 1 a\nw 2 b\nw 3 c\n\nw 4 d\n";
	static const struct {
		const char *dup;
		const char *message;
	} cases[] = {
		{ "w 1 e\n", "duplicate instance \"w 1\" (first at line 4294967293)" },
		{ "w 2 e\n", "duplicate instance \"w 2\" (first at line 4294967294)" },
		{ "w 3 e\n", "duplicate instance \"w 3\" (first at line 4294967295)" },
		{ "w 4 e\n", "duplicate instance \"w 4\" (first at line 4294967297)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[64];
		snprintf(buf, sizeof buf, "%s%s", text, cases[i].dup);
		struct tageval_inventory *inv = tageval_inventory_new();
		struct tageval_annotations *a = NULL;
		struct tageval_error err;
		ck_assert_ptr_nonnull(inv);
		ck_assert_int_eq(tageval_annotations_new(inv, &a), TAGEVAL_OK);
		/* a first annotator of the same items read from line 1: its
		 * records are not the second one's */
		ck_assert_int_eq(read_ann_at(a, text, 1, &err), TAGEVAL_OK);
		ck_assert_int_eq(read_ann_at(a, buf, TWO32 - 3, &err), TAGEVAL_EFORMAT);
		/* the duplicate: line 2^32 - 3 + 5 = 2^32 + 2 */
		ck_assert_uint_eq(err.line, TWO32 + 2);
		ck_assert_str_eq(err.message, cases[i].message);
		tageval_annotations_free(a);
		tageval_inventory_free(inv);
	}
}
END_TEST

/*
 * The pool's record starts (a->pstart, a bit an entry and one for the end,
 * bit npool): 256 items of two tags each fill 2 x 256 = 512 entries, so the
 * end bit is bit 512 = 8 x 64, the first bit of a ninth word; 8 words would
 * leave it past the array.  Every record starts at an even entry.
 */
START_TEST(pool_end_on_word)
{
	size_t size = 256 * 16;
	char *text = malloc(size);
	ck_assert_ptr_nonnull(text);
	size_t n = 0;
	for (int i = 0; i < 256; i++)
		n += (size_t)snprintf(text + n, size - n, "w %d a b\n", i);
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_annotations *a = NULL;
	struct tageval_error err;
	ck_assert_ptr_nonnull(inv);
	ck_assert_int_eq(tageval_annotations_new(inv, &a), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(a, text, n, "f", &err), TAGEVAL_OK);
	ck_assert_uint_eq(a->npool, 512);
	ck_assert_uint_ge(a->pstartcap, 9);
	ck_assert(a->pstart[8] & 1u);
	for (size_t k = 0; k < 512; k++)
		ck_assert_uint_eq((a->pstart[k >> 6] >> (k & 63)) & 1u, k % 2 == 0);
	tageval_annotations_free(a);
	tageval_inventory_free(inv);
	free(text);
}
END_TEST

/*
 * The items' lexelts kept as runs until there would be more runs than half
 * the items (+ 64): items "p 0" .. "p 99" (one run), then "q 100", "r 101",
 * "q 102", ... (a run each).  At item i >= 100 the runs so far number
 * 1 + (i - 100); a new run makes i - 98, and the switch comes when
 * 2 (i - 98) > i + 1 + 64, i.e. i > 261: a file of items 0..261 keeps
 * 1 + 162 = 163 runs, one of items 0..262 holds one lexelt per item.
 */
static struct tageval_annotations *lexelt_items(struct tageval_inventory *inv, int items)
{
	size_t size = (size_t)items * 16;
	char *text = malloc(size);
	ck_assert_ptr_nonnull(text);
	size_t n = 0;
	for (int i = 0; i < items; i++)
		n += (size_t)snprintf(text + n, size - n, "%s %d x\n",
				      i < 100 ? "p" : i % 2 == 0 ? "q" : "r", i);
	struct tageval_annotations *a = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_annotations_new(inv, &a), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(a, text, n, "f", &err), TAGEVAL_OK);
	free(text);
	return a;
}

START_TEST(lexelt_runs_switch)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(inv);
	struct tageval_annotations *a = lexelt_items(inv, 262);
	ck_assert_ptr_null(a->item_lexelt);
	ck_assert_uint_eq(a->nruns, 163);
	tageval_annotations_free(a);
	a = lexelt_items(inv, 263);
	ck_assert_ptr_nonnull(a->item_lexelt);
	ck_assert_ptr_null(a->runs);
	ck_assert_uint_eq(a->nitems, 263);
	/* p for 0..99, then q, r by parity: lexelt ids 0, 1, 2 in order met */
	ck_assert_uint_eq(a->item_lexelt[99], 0);
	ck_assert_uint_eq(a->item_lexelt[262], 1);
	ck_assert_uint_eq(a->item_lexelt[261], 2);
	tageval_annotations_free(a);
	tageval_inventory_free(inv);
}
END_TEST

struct lines_seen {
	size_t n;
	uint64_t line[8];
};

static void on_answer(const struct tageval_answer_event *ev, void *userdata)
{
	struct lines_seen *s = userdata;
	if (s->n < 8)
		s->line[s->n++] = ev->line;
}

START_TEST(answer_lines_beyond_2_32)
{
	static const char keytext[] = "w 1 a\nw 2 b\n";
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_scorer *sc = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_key_read_buffer(inv, keytext, strlen(keytext), "k", &key, &err),
			 TAGEVAL_OK);
	struct lines_seen seen = { 0 };
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.on_answer = on_answer;
	o.userdata = &seen;
	ck_assert_int_eq(tageval_scorer_new(inv, key, &o, &sc, &err), TAGEVAL_OK);
	/* lines 3 * 2^32 + 10 and + 11 (a comment line between them counts),
	 * then an invalid weight at 3 * 2^32 + 12 and a NUL byte at + 13 */
	struct tv_reader r;
	open_at(&r, "w 1 a\n!! note\nw 2 b\nw 9 a/x\n", 3 * TWO32 + 9);
	ck_assert_int_eq(tv_scorer_read_reader(sc, &r, &err), TAGEVAL_EFORMAT);
	tv_reader_close(&r);
	ck_assert_uint_eq(seen.n, 2);
	ck_assert_uint_eq(seen.line[0], 3 * TWO32 + 9);
	ck_assert_uint_eq(seen.line[1], 3 * TWO32 + 11);
	ck_assert_uint_eq(err.line, 3 * TWO32 + 12);
	static const char nul[] = "w 1 a\nw 2\0b\n";
	ck_assert_int_eq(tv_reader_open_buffer(&r, nul, sizeof nul - 1, "f", &err), TAGEVAL_OK);
	r.lineno = UINT64_MAX - 3;
	ck_assert_int_eq(tv_scorer_read_reader(sc, &r, &err), TAGEVAL_EFORMAT);
	tv_reader_close(&r);
	ck_assert_uint_eq(err.line, UINT64_MAX - 1);
	ck_assert_str_eq(err.message, "NUL byte");
	tageval_scorer_free(sc);
	tageval_key_free(key);
	tageval_inventory_free(inv);
}
END_TEST

/* A weight read by tv_parse_weight is strtod's double, bit for bit. */
static void same_as_strtod(const char *text)
{
	double v, w = strtod(text[0] == '+' ? text + 1 : text, NULL);
	ck_assert_msg(tv_parse_weight(text, &v) == 0, "\"%s\" refused", text);
	ck_assert_msg(memcmp(&v, &w, sizeof v) == 0, "\"%s\": %a, strtod %a", text, v, w);
}

static uint64_t next_random(uint64_t *x)
{
	/* xorshift64*: any fixed sequence will do, for the same run every time */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1Du;
}

/*
 * The plain decimals of up to 15 digits (one division, tageval-util.c) and
 * the others (strtod): the same double as strtod.  By hand: 0.1 is the
 * double nearest 1/10, 0x1.999999999999ap-4 (1/10 = 0x0.1999...p0,
 * rounded up at its 53rd bit); 0.3 is 0x1.3333333333333p-2 (rounded down);
 * 123.456 = 123456 / 1000; 999999999999999 (15 nines) and its decimals are
 * below 2^53.  Then random decimals: 1 to 20 digits with the point
 * anywhere (or none, or in front or behind), some with an exponent.
 */
START_TEST(weight_as_strtod)
{
	double v;
	ck_assert_int_eq(tv_parse_weight("0.1", &v), 0);
	ck_assert(v == 0x1.999999999999ap-4);
	ck_assert_int_eq(tv_parse_weight("0.3", &v), 0);
	ck_assert(v == 0x1.3333333333333p-2);
	ck_assert_int_eq(tv_parse_weight("+.5", &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(tv_parse_weight("5.", &v), 0);
	ck_assert(v == 5.0);
	static const char *const edge[] = {
		"0.1", "0.3", "0.0", "0.", ".0", "+0.25", "123.456", "9007199254740.993",
		"99999999999999.9", "9.99999999999999", ".999999999999999",
		"0.000000000000001", "000000000000000.1", "0.2000000000000000", "1e-3",
		"2.5E+2", "12345678901234567890.5", "0.1000000000000000055511151231257827",
		"8.98846567431158e307", "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
	};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		same_as_strtod(edge[i]);
	uint64_t x = 88172645463325252u;
	for (int n = 0; n < 300000; n++) {
		char text[48];
		size_t len = 0, digits = 1 + next_random(&x) % 20;
		size_t point = next_random(&x) % (digits + 2); /* digits + 1: none */
		if (next_random(&x) % 8 == 0)
			text[len++] = '+';
		for (size_t d = 0; d <= digits; d++) {
			if (d == point)
				text[len++] = '.';
			if (d < digits)
				text[len++] = (char)('0' + next_random(&x) % 10);
		}
		if (next_random(&x) % 16 == 0)
			len += (size_t)snprintf(text + len, sizeof text - len, "e%d",
						(int)(next_random(&x) % 41) - 20);
		text[len] = '\0';
		same_as_strtod(text);
	}
}
END_TEST

/*
 * The key's table of ids told what to expect from the size of its source
 * after the first chunk (tv_each's expect).  100,000 lines "w %06u t\n" of
 * 11 bytes each: 1,100,000 bytes.  The first chunk splits whole lines only,
 * so lines / bytes = 1 / 11 whatever its size: 1,100,000 / 11 = 100,000, +
 * 100,000 / 16 + 16 = 106,266 ids expected.  The table grows toward them
 * at most 4 x its ids at a time, or by 1.5 when that is more (64, 271,
 * 1,141, 4,795, 20,143, 84,607 slots: test-intern's expect_grows_toward),
 * then at 59,225 ids (592,250 >
 * 84,607 x 7) to 106,266 + 106,266 / 2 + 1 = 159,400 slots, and no more
 * (100,000 x 10 <= 159,400 x 7).  Without it the slots would grow from 64
 * by 1.5 to 212,577 (141,718 x 0.7 = 99,202 < 100,000).  The same from a
 * file (its size from fstat).  A source of one chunk (the whole key in the
 * first unit) expects nothing: one line, 64 slots.  (The key must be longer
 * than a chunk: TV_READER_CHUNK, 256 KiB or the test build's 4 KiB.)
 */
static void check_reserved(const struct tageval_key *key)
{
	ck_assert_uint_eq(tageval_key_size(key), 100000);
	ck_assert_uint_eq(key->ids.n, 100000);
	ck_assert_uint_eq(key->ids.nslots, 159400);
	uint32_t id;
	ck_assert_int_eq(tv_intern_find(&key->ids, "w 000000", 8, &id), 1);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(tv_intern_find(&key->ids, "w 099999", 8, &id), 1);
	ck_assert_uint_eq(id, 99999);
}

START_TEST(key_ids_reserved)
{
	size_t n = 100000, size = 11 * n;
	ck_assert_uint_gt(size, TV_READER_CHUNK);
	char *text = malloc(size + 1);
	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < n; i++)
		snprintf(text + 11 * i, 12, "w %06zu t\n", i);
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_error err;
	ck_assert_int_eq(tageval_key_read_buffer(inv, text, size, "k", &key, &err), TAGEVAL_OK);
	check_reserved(key);
	tageval_key_free(key);

	char path[] = "/tmp/test-lines-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, size), (ssize_t)size);
	close(fd);
	int rc = tageval_key_read(inv, path, &key, &err);
	unlink(path);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	check_reserved(key);
	tageval_key_free(key);

	ck_assert_int_eq(tageval_key_read_buffer(inv, text, 11, "k", &key, &err), TAGEVAL_OK);
	ck_assert_uint_eq(tageval_key_size(key), 1);
	ck_assert_uint_eq(key->ids.nslots, 64);
	tageval_key_free(key);
	tageval_inventory_free(inv);
	free(text);
}
END_TEST

/*
 * tv_ldexp (the scorer's scaling of its weights) against ldexp: the same
 * bits for every e from -1,100 to 1,100 (ldexp itself outside -1,022 ..
 * 1,023) on values whose products are normal, subnormal (rounded: 0x1.8p-1073
 * = 3 x 2^-1074, times 2^-1 is 1.5 x 2^-1074, a tie between 2^-1074 and
 * 2 x 2^-1074, to the even 2 x 2^-1074 = 2^-1073; times 2^-2 it is 0.75 x
 * 2^-1074, not a tie, rounded to the nearer 2^-1074;
 * 2^-1074 x 2^-1 is a tie to 0), overflowing (2^1023 x 2 = infinity) or
 * zero, and random doubles.
 */
static void same_as_ldexp(double x, int e)
{
	double a = tv_ldexp(x, e), b = ldexp(x, e);
	ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "tv_ldexp(%a, %d) = %a, ldexp %a", x, e, a, b);
}

START_TEST(ldexp_by_multiplication)
{
	ck_assert(tv_ldexp(0x1.8p-1073, -1) == 0x1p-1073);
	ck_assert(tv_ldexp(0x1.8p-1073, -2) == 0x1p-1074);
	ck_assert(tv_ldexp(0x1p-1074, -1) == 0.0);
	ck_assert(tv_ldexp(0x1p1023, 1) == INFINITY);
	ck_assert(tv_ldexp(0.75, 1) == 1.5);
	ck_assert(tv_ldexp(1.0, -1022) == 0x1p-1022);
	ck_assert(tv_ldexp(1.0, 1023) == 0x1p1023);
	ck_assert(tv_ldexp(0x1p-1074, 1100) == 0x1p26);
	static const double edge[] = {
		0.0, -0.0, 1.0, 0.5, 0.99, 0.01, 0x1.fffffffffffffp-1, 0x1p-1022,
		0x0.fffffffffffffp-1022, 0x1p-1074, 0x1.8p-1073, 0x1.0000000000001p0,
		0x1.fffffffffffffp1023, 1e308, 4.9e-324, 0x1.3333333333333p-2,
		0x1.999999999999ap-4, 123.456, 3.0, 7.0, 0x1.0000000000003p-1000,
	};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (int e = -1100; e <= 1100; e++)
			same_as_ldexp(edge[i], e);
	uint64_t x = 88172645463325252u;
	for (int n = 0; n < 300000; n++) {
		uint64_t bits = next_random(&x) & 0x7fffffffffffffffu;
		double v;
		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v))
			continue;
		same_as_ldexp(v, (int)(next_random(&x) % 2201) - 1100);
	}
}
END_TEST

/* The next line of @r: its fields joined by '|', its TV_SEP_* and number. */
static void expect_line(struct tv_reader *r, const char *fields, unsigned seps, uint64_t lineno)
{
	struct tageval_error err;
	char got[2048] = "";
	int have;
	ck_assert_int_eq(tv_reader_next(r, &have, &err), TAGEVAL_OK);
	ck_assert_int_eq(have, 1);
	for (size_t i = 0; i < r->nfield; i++) {
		if (i > 0)
			strcat(got, "|");
		ck_assert_uint_lt(strlen(got) + strlen(r->field[i]), sizeof got - 2);
		strcat(got, r->field[i]);
	}
	ck_assert_str_eq(got, fields);
	ck_assert_uint_eq(r->seps, seps);
	ck_assert_uint_eq(r->lineno, lineno);
}

/*
 * The reader's one-pass split (every line but the first, of text and blanks
 * ending within 512 bytes) against what split() makes of the same lines:
 * the fields, the blanks' TV_SEP_* (a tab anywhere; a run between fields,
 * not at the end; a lead before the first field), CRLF, and the lines it
 * leaves to split(): a lone '!' (text), a "!!" comment, a line longer than
 * 512 bytes, the last line without its newline.
 */
START_TEST(reader_one_pass)
{
	struct sbuf t = { 0 };
	sb_printf(&t, "first\n");                /* 1: split() (the byte-order mark) */
	sb_printf(&t, "a b c\n");                /* 2 */
	sb_printf(&t, "  a\tb  \n");             /* 3: TV_SEP_LEAD 4 | TV_SEP_TAB 1 = 5 */
	sb_printf(&t, "a  b\r\n");               /* 4: TV_SEP_RUN 2, CRLF */
	sb_printf(&t, "\t\n");                   /* 5: no field, a tab: 1 */
	sb_printf(&t, "\r\n");                   /* 6: an empty CRLF line */
	sb_printf(&t, "x!y z!!c d\n");           /* 7: '!' text, then a comment */
	sb_printf(&t, "\x0b\x01 q \t\n");        /* 8: control bytes are text; trailing: 1 */
	for (int i = 0; i < 300; i++)            /* 9: 600 bytes, 300 fields */
		sb_printf(&t, i < 299 ? "f " : "f\n");
	sb_printf(&t, "%s b\n", "0123456789012345678901234567890123456789"); /* 10 */
	sb_printf(&t, "last  one");              /* 11: no newline, RUN 2 */
	struct tv_reader r;
	struct tageval_error err;
	ck_assert_int_eq(tv_reader_open_buffer(&r, t.s, t.len, "f", &err), TAGEVAL_OK);
	expect_line(&r, "first", 0, 1);
	expect_line(&r, "a|b|c", 0, 2);
	expect_line(&r, "a|b", 5, 3);
	expect_line(&r, "a|b", 2, 4);
	expect_line(&r, "", 1, 5);
	expect_line(&r, "", 0, 6);
	expect_line(&r, "x!y|z", 0, 7);
	expect_line(&r, "\x0b\x01|q", 1, 8);
	struct tageval_error e2;
	int have;
	ck_assert_int_eq(tv_reader_next(&r, &have, &e2), TAGEVAL_OK);
	ck_assert_uint_eq(r.nfield, 300);
	ck_assert_uint_eq(r.lineno, 9);
	ck_assert_str_eq(r.field[299], "f");
	expect_line(&r, "0123456789012345678901234567890123456789|b", 0, 10);
	expect_line(&r, "last|one", 2, 11);
	ck_assert_int_eq(tv_reader_next(&r, &have, &err), TAGEVAL_OK);
	ck_assert_int_eq(have, 0);
	tv_reader_close(&r);

	/* a NUL or a stray carriage return after a good line: split()'s errors */
	static const struct {
		const char *text;
		size_t len;
		const char *message;
	} bad[] = { { "ok\nok\na\0b\n", 10, "NUL byte" },
		    { "ok\nok\na\rb c\n", 12, "stray carriage return" } };
	for (size_t i = 0; i < 2; i++) {
		ck_assert_int_eq(tv_reader_open_buffer(&r, bad[i].text, bad[i].len, "f", &err),
				 TAGEVAL_OK);
		expect_line(&r, "ok", 0, 1);
		expect_line(&r, "ok", 0, 2);
		ck_assert_int_eq(tv_reader_next(&r, &have, &err), TAGEVAL_EFORMAT);
		ck_assert_uint_eq(err.line, 3);
		ck_assert_str_eq(err.message, bad[i].message);
		tv_reader_close(&r);
	}
	free(t.s);
}
END_TEST

/*
 * A batch's joined ids ("field0 field1"): copied in one 32-byte copy when
 * the fields are one blank apart and the id and its NUL fit in 32 bytes,
 * else field by field; the ids of the second field alone.
 */
START_TEST(batch_joined_ids)
{
	/* ids of 30 bytes (10 + 1 + 19: with its NUL 31, the 32-byte copy),
	 * 31 (32), 32 (33: field by field), two blanks apart, two fields only,
	 * a leading blank and a tab between (a space in the id) */
	static const char text[] = "head line\n"
				   "aaaaaaaaaa bbbbbbbbbbbbbbbbbbb t\n"
				   "aaaaaaaaaa bbbbbbbbbbbbbbbbbbbb t\n"
				   "aaaaaaaaaa bbbbbbbbbbbbbbbbbbbbb t\n"
				   "w  i t\n"
				   "w2 i2\n"
				   " lw\tli t\n";
	static const char *const want[] = {
		"head line", "aaaaaaaaaa bbbbbbbbbbbbbbbbbbb", "aaaaaaaaaa bbbbbbbbbbbbbbbbbbbb",
		"aaaaaaaaaa bbbbbbbbbbbbbbbbbbbbb", "w i", "w2 i2", "lw li",
	};
	struct tv_reader r;
	struct tageval_error err;
	struct tv_batch b = { .id = TV_ID_JOINED };
	ck_assert_int_eq(tv_reader_open_buffer(&r, text, sizeof text - 1, "f", &err), TAGEVAL_OK);
	ck_assert_int_eq(tv_reader_batch(&r, &b, &err), TAGEVAL_OK);
	ck_assert_uint_eq(b.n, 7);
	for (size_t k = 0; k < 7; k++) {
		ck_assert_str_eq(b.line[k].id, want[k]);
		ck_assert_uint_eq(b.line[k].idlen, strlen(want[k]));
		ck_assert_str_eq(b.line[k].field[1], strchr(want[k], ' ') + 1);
	}
	tv_reader_close(&r);
	tv_batch_clear(&b);

	/* 100,000 lines (1.9 MB: lines cut by the ends of chunks, and read
	 * again once the chunk is refilled; with 256 KiB chunks the first read
	 * is of 64 KiB, the bytes after it not read yet): every id "w<k> i<k>".
	 * The text is made in one allocation (no freed block of it holds the
	 * same bytes where the reader's chunk may come to be). */
	size_t size = 2000000, used = 0;
	char *t = malloc(size);
	ck_assert_ptr_nonnull(t);
	for (int k = 0; k < 100000; k++)
		used += (size_t)snprintf(t + used, size - used, "w%d i%d t%d\n", k, k, k % 7);
	ck_assert_uint_lt(used, size);
	ck_assert_int_eq(tv_reader_open_buffer(&r, t, used, "f", &err), TAGEVAL_OK);
	b = (struct tv_batch){ .id = TV_ID_JOINED };
	int seen = 0;
	do {
		ck_assert_int_eq(tv_reader_batch(&r, &b, &err), TAGEVAL_OK);
		for (size_t j = 0; j < b.n; j++, seen++) {
			char id[40];
			snprintf(id, sizeof id, "w%d i%d", seen, seen);
			ck_assert_str_eq(b.line[j].id, id);
		}
	} while (b.n > 0);
	ck_assert_int_eq(seen, 100000);
	tv_reader_close(&r);
	tv_batch_clear(&b);
	free(t);

	b = (struct tv_batch){ .id = TV_ID_FIELD1 };
	ck_assert_int_eq(tv_reader_open_buffer(&r, text, sizeof text - 1, "f", &err), TAGEVAL_OK);
	ck_assert_int_eq(tv_reader_batch(&r, &b, &err), TAGEVAL_OK);
	ck_assert_uint_eq(b.n, 7);
	for (size_t k = 0; k < 7; k++) {
		ck_assert_str_eq(b.line[k].id, strchr(want[k], ' ') + 1);
		ck_assert_uint_eq(b.line[k].idlen, strlen(strchr(want[k], ' ') + 1));
	}
	tv_reader_close(&r);
	tv_batch_clear(&b);
}
END_TEST

/*
 * The puts of tv_each's put mode shared between the two sides
 * (put_units()): every line's id interned once, in file order, whichever
 * side puts it.  200,000 lines "w iK" (K = the line's number, but every
 * 1000th line repeats the id of the line 500 before it): a new id is the
 * count of new ids before it, a repeated one the id of its first line
 * (line n - 500 has id (n - 500) - (number of repeats before it)).  Read
 * with a line function that returns at once (the reading side is the
 * slower: the calling side puts) and one that spins (the calling side is
 * the slower: the reading side puts while its units wait).
 */
struct put_check {
	struct tv_intern *ids;
	uint64_t lines, repeats, bad;
	unsigned spin;
};

static int check_put_line(void *ctx, struct tv_line *l, struct tageval_error *err)
{
	(void)err;
	struct put_check *c = ctx;
	uint64_t n = ++c->lines; /* the line's number: no blank line */
	int repeat = n % 1000 == 0;
	/* repeats before line n: n / 1000, this one included when it is one */
	uint64_t want;
	if (repeat) {
		uint64_t first = n - 500; /* never a repeat: 500 mod 1000 */
		want = first - 1 - (first / 1000);
	} else {
		want = n - 1 - n / 1000;
	}
	c->bad += l->put != (repeat ? TV_PUT_OLD : TV_PUT_NEW) || l->inst != want;
	c->repeats += repeat;
	for (volatile unsigned i = 0; i < c->spin; i++)
		;
	return TAGEVAL_OK;
}

START_TEST(puts_shared)
{
	struct sbuf t = { 0 };
	for (uint64_t n = 1; n <= 200000; n++)
		sb_printf(&t, "w i%" PRIu64 "\n", n % 1000 == 0 ? n - 500 : n);
	for (unsigned spin = 0; spin <= 2000; spin += 2000) {
		struct tv_intern ids;
		tv_intern_init(&ids);
		struct put_check c = { .ids = &ids, .spin = spin };
		struct tv_each e = { .id = TV_ID_JOINED, .ids = &ids, .lookup = TV_LOOKUP_SLOT,
				     .put = &ids, .expect = &ids, .line = check_put_line,
				     .ctx = &c };
		struct tv_reader r;
		struct tageval_error err;
		size_t lines;
		ck_assert_int_eq(tv_reader_open_buffer(&r, t.s, t.len, "f", &err), TAGEVAL_OK);
		ck_assert_int_eq(tv_each_line(&r, &e, &lines, &err), TAGEVAL_OK);
		tv_reader_close(&r);
		ck_assert_uint_eq(lines, 200000);
		ck_assert_uint_eq(c.repeats, 200);
		ck_assert_uint_eq(c.bad, 0);
		/* 200,000 lines less 200 repeats */
		ck_assert_uint_eq(ids.n, 199800);
		/* the last line repeats line 199,500: the last new id is line 199,999 */
		ck_assert_str_eq(tv_intern_str(&ids, 199799), "w i199999");
		tv_intern_clear(&ids);
	}
	free(t.s);
}
END_TEST

/* tv_parallel(): every part run once, whatever the threads (each part
 * counts its own runs and writes its square: 0, 1, 4, ..., (n-1)^2). */
struct parts_seen {
	unsigned runs[100];
	size_t square[100];
};

static void part_square(void *ctx, size_t i)
{
	struct parts_seen *p = ctx;
	p->runs[i]++;
	p->square[i] = i * i;
}

START_TEST(parallel_parts_once)
{
	static const size_t counts[] = { 0, 1, 2, 3, 100 };
	for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
		struct parts_seen p;
		memset(&p, 0, sizeof p);
		size_t threads = tv_parallel(counts[c], part_square, &p);
		ck_assert_uint_ge(threads, 1);
		ck_assert_uint_le(threads, counts[c] > 1 ? counts[c] : 1);
		ck_assert_uint_le(threads, TV_PARALLEL_MAX);
		for (size_t i = 0; i < 100; i++) {
			ck_assert_uint_eq(p.runs[i], i < counts[c] ? 1u : 0u);
			ck_assert_uint_eq(p.square[i], i < counts[c] ? i * i : 0u);
		}
	}
}
END_TEST

static Suite *lines_suite(void)
{
	Suite *s = suite_create("lines");
	TCase *tc = tcase_create("64-bit");
	tcase_add_test(tc, key_lines_beyond_2_32);
	tcase_add_test(tc, answer_lines_beyond_2_32);
	tcase_add_test(tc, annotation_lines_beyond_2_32);
	suite_add_tcase(s, tc);
	tc = tcase_create("weights");
	tcase_add_test(tc, weight_as_strtod);
	tcase_add_test(tc, ldexp_by_multiplication);
	tcase_add_test(tc, key_ids_reserved);
	suite_add_tcase(s, tc);
	tc = tcase_create("records");
	tcase_add_test(tc, pool_end_on_word);
	tcase_add_test(tc, lexelt_runs_switch);
	suite_add_tcase(s, tc);
	tc = tcase_create("reader");
	tcase_add_test(tc, reader_one_pass);
	tcase_add_test(tc, batch_joined_ids);
	tcase_add_test(tc, puts_shared);
	suite_add_tcase(s, tc);
	tc = tcase_create("parallel");
	tcase_add_test(tc, parallel_parts_once);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(lines_suite());
}
