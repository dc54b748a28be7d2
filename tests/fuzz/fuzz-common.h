/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Helpers shared by the libFuzzer targets: one fuzz input holds several
 * files, and what a reader returns is checked, not only that it returns.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tageval.h"

/*
 * An input is a flags byte, then files separated by FUZZ_SEPARATOR (a line
 * "=====").  With no byte at all the flags are 0 and there is one empty file.
 */
#define FUZZ_SEPARATOR "\n=====\n"
#define FUZZ_MAX_PARTS 8

struct fuzz_part {
	const char *data;
	size_t size;
};

struct fuzz_input {
	unsigned flags;
	size_t n; /* >= 1 */
	struct fuzz_part part[FUZZ_MAX_PARTS];
};

/* Splits @data into at most @max (<= FUZZ_MAX_PARTS) files; the last takes the rest. */
void fuzz_split(const uint8_t *data, size_t size, size_t max, struct fuzz_input *in);

/* Prints "fuzz: what" on standard error and aborts: a finding. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Checks what a reader of @part returned: TAGEVAL_OK, or @allowed (a bit
 * per status code) with @err filled to match, a message, and a line number
 * that exists in @part (0 for errors that concern no line).
 */
void fuzz_check_error(int rc, unsigned allowed, const struct tageval_error *err,
		      const struct fuzz_part *part, const char *name);

/* 1 when s[0..n) is one JSON value (RFC 8259, UTF-8) and a final line feed. */
int fuzz_json_valid(const char *s, size_t n);

/* The lines of @p in reverse order, each ending in a line feed, in *out (a
 * byte-order mark stays first; gzip data is copied as it is);
 * returns the buffer to free(). */
char *fuzz_reverse_lines(const struct fuzz_part *p, struct fuzz_part *out);

/* 1 when a and b are equal up to a relative 1e-9 (rounding). */
int fuzz_same(double a, double b);

/* 1 when x is finite and lo - 1e-9 <= x <= hi + 1e-9. */
int fuzz_in_range(double x, double lo, double hi);

#define FUZZ_BIT(code) (1u << (code))

#endif
