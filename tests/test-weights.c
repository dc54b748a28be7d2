/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The file of distances of hkappa --weights read by the library
 * (tageval_agreement_weighted_read, _read_buffer): the figures of a small
 * file by hand, the input rules every file follows (comments, a byte-order
 * mark, CR LF, gzip, a NUL byte), and the file and line of each error.
 *
 * The annotations of every test: labels a, b, c; five items (first,
 * second) (a,a) (a,b) (a,c) (b,b) (c,b); the distances D(a,b) = 0.5,
 * D(a,c) = 1, D(b,c) = 0.25.
 * Kappa: d_o = (0 + 0.5 + 1 + 0 + 0.25) / 5 = 0.35; marginals r = (3, 1,
 * 1)/5, c = (1, 3, 1)/5; 25 d_e = 3 3 0.5 + 3 1 1 + 1 1 0.5 + 1 1 0.25 +
 * 1 1 1 + 1 3 0.25 = 10, d_e = 0.4; kappa = 1 - 0.35 / 0.4 = 1/8.
 * AC2 (w = 1 - D): p_a = (1 + 0.5 + 0 + 1 + 0.75) / 5 = 13/20; pi = (4, 4,
 * 2)/10, sum pi (1 - pi) = 0.24 + 0.24 + 0.16 = 0.64 = 16/25; q = 3, T_w =
 * 3 + 2 (0.5 + 0 + 0.75) = 11/2; p_e = (11/2) / 6 16/25 = 44/75;
 * AC2 = (13/20 - 44/75) / (1 - 44/75) = (19/300) / (124/300) = 19/124.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "test-common.h"

static const char ann1[] = "w 1 a\nw 2 a\nw 3 a\nw 4 b\nw 5 c\n";
static const char ann2[] = "w 1 a\nw 2 b\nw 3 c\nw 4 b\nw 5 b\n";

struct run {
	struct tageval_inventory *inv;
	struct tageval_annotations *ann;
	struct tageval_error err;
	struct tageval_weighted_figures wf;
};

static void setup_run(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(r->inv);
	ck_assert_int_eq(tageval_annotations_new(r->inv, &r->ann), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(r->ann, ann1, strlen(ann1), "ann1",
							 &r->err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(r->ann, ann2, strlen(ann2), "ann2",
							 &r->err), TAGEVAL_OK);
}

static void done(struct run *r)
{
	tageval_annotations_free(r->ann);
	tageval_inventory_free(r->inv);
}

/* Reads the @size bytes of @text, named "w", with no standard errors. */
static int read_text(struct run *r, const char *text, size_t size)
{
	return tageval_agreement_weighted_read_buffer(r->ann, text, size, "w", 0.0, &r->wf,
						      &r->err);
}

/* The figures of the header's arithmetic. */
static void check_hand(const struct tageval_weighted_figures *wf)
{
	ck_assert_int_eq(wf->kappa.undefined, TAGEVAL_DEFINED);
	ck_assert_uint_eq(wf->kappa.items, 5);
	ck_assert_double_eq_tol(wf->kappa.observed, 0.35, TOL);
	ck_assert_double_eq_tol(wf->kappa.chance, 0.4, TOL);
	ck_assert_double_eq_tol(wf->kappa.value, 1.0 / 8, TOL);
	ck_assert_int_eq(wf->ac2_undefined, TAGEVAL_DEFINED);
	ck_assert_uint_eq(wf->categories, 3);
	ck_assert_double_eq_tol(wf->ac2_observed, 13.0 / 20, TOL);
	ck_assert_double_eq_tol(wf->ac2_chance, 44.0 / 75, TOL);
	ck_assert_double_eq_tol(wf->ac2, 19.0 / 124, TOL);
}

/* Comments of both kinds, a blank line, a tab, a self pair, a pair in the
 * other order and a pair of a label no item uses: the header's figures. */
START_TEST(read_hand)
{
	static const char text[] = "# the letters\n"
				   "!! a comment line\n"
				   "a b 0.5 !! half\n"
				   "\n"
				   "  # indented: a comment too\n"
				   "c a 1\n"
				   "b\tc 0.25\n"
				   "b b 0\n"
				   "a z 0.3\n";
	struct run r;
	setup_run(&r);
	ck_assert_int_eq(read_text(&r, text, strlen(text)), TAGEVAL_OK);
	check_hand(&r.wf);
	/* confidence 0: no standard error asked */
	ck_assert(isnan(r.wf.kappa_se));
	ck_assert_int_eq(r.wf.kappa_se_undefined, TAGEVAL_UNDEFINED_NOT_ASKED);
	/* with standard errors: those of tageval_agreement_weighted() on the
	 * same pairs, bit for bit */
	static const struct tageval_label_distance d[] = {
		{ "a", "b", 0.5 }, { "c", "a", 1.0 }, { "b", "c", 0.25 } };
	struct tageval_weighted_figures direct;
	ck_assert_int_eq(tageval_agreement_weighted(r.ann, d, 3, 0.95, &direct, &r.err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_agreement_weighted_read_buffer(r.ann, text, strlen(text), "w",
								0.95, &r.wf, &r.err),
			 TAGEVAL_OK);
	check_hand(&r.wf);
	ck_assert(r.wf.kappa_se == direct.kappa_se && r.wf.ac2_se == direct.ac2_se);
	ck_assert(r.wf.kappa_se > 0.0 && r.wf.ac2_se > 0.0);
	done(&r);
}
END_TEST

/* The rules of every file: a byte-order mark before the first label, CR LF
 * line ends (the last line without one), a file compressed with gzip read
 * from a path. */
START_TEST(read_input_layer)
{
	static const char bom_crlf[] = "\xef\xbb\xbf"
				       "a b 0.5\r\nc a 1\r\n\r\nb c 0.25";
	struct run r;
	setup_run(&r);
	ck_assert_int_eq(read_text(&r, bom_crlf, strlen(bom_crlf)), TAGEVAL_OK);
	check_hand(&r.wf);

	char path[] = "/tmp/test-weights-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	gzFile gz = gzopen(path, "wb");
	ck_assert_ptr_nonnull(gz);
	ck_assert_int_gt(gzputs(gz, "a b 0.5\nc a 1\nb c 0.25\n"), 0);
	ck_assert_int_eq(gzclose(gz), Z_OK);
	int rc = tageval_agreement_weighted_read(r.ann, path, 0.0, &r.wf, &r.err);
	unlink(path);
	ck_assert_int_eq(rc, TAGEVAL_OK);
	check_hand(&r.wf);
	done(&r);
}
END_TEST

struct bad {
	const char *text;
	size_t size;   /* 0: strlen(text) */
	int code;
	uint64_t line; /* of the file */
	const char *message;
};

/* Each error names the file "w" and the line of the file at fault (after
 * blank and comment lines, so that a line is not a pair's index). */
START_TEST(read_errors)
{
	static const struct bad bad[] = {
		{ "a b\n", 0, TAGEVAL_EFORMAT, 1,
		  "too few fields, \"label1 label2 distance\" expected" },
		{ "# x\na b 0.5 1\n", 0, TAGEVAL_EFORMAT, 2,
		  "too many fields, \"label1 label2 distance\" expected" },
		{ "a b 0.5\nc a 1\n\nb c 0.2x5\n", 0, TAGEVAL_EFORMAT, 4,
		  "invalid distance \"0.2x5\" (a number from 0 to 1)" },
		{ "a b 0x1p-1\n", 0, TAGEVAL_EFORMAT, 1,
		  "invalid distance \"0x1p-1\" (a number from 0 to 1)" },
		{ "a b nan\n", 0, TAGEVAL_EFORMAT, 1,
		  "invalid distance \"nan\" (a number from 0 to 1)" },
		{ "a b --1\n", 0, TAGEVAL_EFORMAT, 1,
		  "invalid distance \"--1\" (a number from 0 to 1)" },
		{ "a b 0.5\nc a\0 1\n", 15, TAGEVAL_EFORMAT, 2, "NUL byte" },
		{ "a b 0.5\rc a 1\n", 0, TAGEVAL_EFORMAT, 1, "stray carriage return" },
		/* the errors of the pairs (tageval_agreement_weighted()), at the
		 * pair's line */
		{ "# x\n\na b 0.5\nc a 1.5\nb c 0.25\n", 0, TAGEVAL_EINVAL, 4,
		  "the distance of \"c\" and \"a\" is not in [0, 1]" },
		{ "a b 0.5\nc a -0.5\nb c 0.25\n", 0, TAGEVAL_EINVAL, 2,
		  "the distance of \"c\" and \"a\" is not in [0, 1]" },
		{ "a b 0.5\nc a 1\nb c 0.25\n\nb a 0.5\n", 0, TAGEVAL_EINVAL, 5,
		  "\"b\" and \"a\" are listed twice" },
		{ "a b 0.5\n!!\nb b 0.1\n", 0, TAGEVAL_EINVAL, 3,
		  "the distance of \"b\" to itself is not 0" },
		/* missing pairs: the file, no line */
		{ "a b 0.5\n", 0, TAGEVAL_EFORMAT, 0,
		  "no distance for the labels \"a\" and \"c\"" },
		{ "", 0, TAGEVAL_EFORMAT, 0, "no distance for the labels \"a\" and \"b\"" },
	};
	struct run r;
	setup_run(&r);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const struct bad *b = &bad[i];
		size_t size = b->size ? b->size : strlen(b->text);
		r.wf.kappa.value = r.wf.ac2 = 0.5; /* the call must set them */
		ck_assert_int_eq(read_text(&r, b->text, size), b->code);
		ck_assert_str_eq(r.err.file, "w");
		ck_assert_uint_eq(r.err.line, b->line);
		ck_assert_str_eq(r.err.message, b->message);
		/* no figure from a file in error */
		ck_assert(isnan(r.wf.kappa.value) && isnan(r.wf.ac2));
	}
	/* "-0" is 0 (a distance of a label to itself) */
	static const char zero[] = "a b 0.5\nc a 1\nb c 0.25\na a -0\n";
	ck_assert_int_eq(read_text(&r, zero, strlen(zero)), TAGEVAL_OK);
	check_hand(&r.wf);
	done(&r);
}
END_TEST

/* The arguments: checked before anything is read. */
START_TEST(read_arguments)
{
	struct run r;
	setup_run(&r);
	static const char text[] = "a b 0.5\nc a 1\nb c 0.25\n";
	ck_assert_int_eq(tageval_agreement_weighted_read(r.ann, NULL, 0.0, &r.wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_str_eq(r.err.message, "tageval_agreement_weighted_read: NULL path");
	ck_assert_int_eq(tageval_agreement_weighted_read_buffer(NULL, text, strlen(text), "w",
								0.0, &r.wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_str_eq(r.err.message, "tageval_agreement_weighted_read_buffer: NULL ann");
	ck_assert_int_eq(tageval_agreement_weighted_read_buffer(r.ann, text, strlen(text), NULL,
								0.0, &r.wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_str_eq(r.err.message, "tageval_agreement_weighted_read_buffer: NULL name");
	r.wf.kappa.value = 0.5; /* the call must clear it */
	ck_assert_int_eq(tageval_agreement_weighted_read_buffer(r.ann, text, strlen(text), "w",
								1.0, &r.wf, &r.err),
			 TAGEVAL_EINVAL);
	ck_assert_str_eq(r.err.message,
			 "confidence must be between 0 and 1 (0: no standard errors)");
	ck_assert(isnan(r.wf.kappa.value));
	ck_assert_int_eq(tageval_agreement_weighted_read(r.ann, "/nonexistent/w", 0.0, &r.wf,
							 &r.err),
			 TAGEVAL_EIO);
	ck_assert_str_eq(r.err.file, "/nonexistent/w");
	ck_assert_str_eq(r.err.message, "cannot open: No such file or directory");
	done(&r);
}
END_TEST

static Suite *weights_suite(void)
{
	Suite *s = suite_create("weights");
	TCase *tc = tcase_create("read");
	tcase_add_test(tc, read_hand);
	tcase_add_test(tc, read_input_layer);
	tcase_add_test(tc, read_errors);
	tcase_add_test(tc, read_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(weights_suite());
}
