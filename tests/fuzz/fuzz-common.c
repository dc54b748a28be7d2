/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* memmem */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz-common.h"

void fuzz_split(const uint8_t *data, size_t size, size_t max, struct fuzz_input *in)
{
	const size_t seplen = sizeof FUZZ_SEPARATOR - 1;
	memset(in, 0, sizeof *in);
	if (size > 0) {
		in->flags = data[0];
		data++;
		size--;
	}
	const char *p = (const char *)data, *end = p + size;
	in->n = 0;
	while (in->n + 1 < max) {
		const char *sep = memmem(p, (size_t)(end - p), FUZZ_SEPARATOR, seplen);
		if (sep == NULL)
			break;
		in->part[in->n].data = p;
		in->part[in->n].size = (size_t)(sep - p);
		in->n++;
		p = sep + seplen;
	}
	in->part[in->n].data = p;
	in->part[in->n].size = (size_t)(end - p);
	in->n++;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	fputs("fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static size_t count_lines(const struct fuzz_part *part);

void fuzz_check_error(int rc, unsigned allowed, const struct tageval_error *err,
		      const struct fuzz_part *part, const char *name)
{
	if (rc == TAGEVAL_OK)
		return;
	if (rc < 0 || rc > 31 || !(allowed & FUZZ_BIT(rc)))
		fuzz_fail("%s: unexpected status %d (%s)", name, rc, err->message);
	if (err->code != rc)
		fuzz_fail("%s: status %d but err->code %d", name, rc, err->code);
	if (memchr(err->message, '\0', sizeof err->message) == NULL || err->message[0] == '\0')
		fuzz_fail("%s: status %d without a message", name, rc);
	if (strchr(err->message, '\n') != NULL)
		fuzz_fail("%s: message with a line feed: %s", name, err->message);
	if (part == NULL || strcmp(err->file, name) != 0)
		return;
	size_t lines = count_lines(part);
	if (err->line > lines)
		fuzz_fail("%s: error on line %" PRIu64 " of a file of %zu lines: %s", name, err->line,
			  lines, err->message);
}

/* The lines of the text of gzip data (as far as it decompresses). */
static size_t gzip_lines(const struct fuzz_part *p)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		abort();
	z.next_in = (unsigned char *)(uintptr_t)p->data;
	z.avail_in = (unsigned)p->size;
	unsigned char out[65536], last = '\n';
	size_t lines = 0;
	for (;;) {
		z.next_out = out;
		z.avail_out = sizeof out;
		int zr = inflate(&z, Z_NO_FLUSH);
		size_t made = sizeof out - z.avail_out;
		for (size_t i = 0; i < made; i++)
			lines += out[i] == '\n';
		if (made > 0)
			last = out[made - 1];
		if (zr == Z_STREAM_END && z.avail_in > 0) {
			inflateReset(&z); /* another member */
			continue;
		}
		if (zr != Z_OK || (made == 0 && z.avail_in == 0))
			break;
	}
	inflateEnd(&z);
	return lines + (last != '\n');
}

static size_t count_lines(const struct fuzz_part *part)
{
	if (part->size >= 2 && (unsigned char)part->data[0] == 0x1f &&
	    (unsigned char)part->data[1] == 0x8b)
		return gzip_lines(part);
	size_t lines = 0;
	for (size_t i = 0; i < part->size; i++)
		lines += part->data[i] == '\n';
	if (part->size > 0 && part->data[part->size - 1] != '\n')
		lines++;
	return lines;
}

/* The lines of @data[0..size) in reverse order into @buf (room for
 * size + 2): the length written. */
static size_t reverse_plain(const char *data, size_t size, char *buf)
{
	size_t o = 0, end = size;
	while (end > 0) {
		size_t start = end;
		if (data[end - 1] == '\n' && end == size)
			start = --end; /* the file's last line feed */
		while (start > 0 && data[start - 1] != '\n')
			start--;
		memcpy(buf + o, data + start, end - start);
		o += end - start;
		buf[o++] = '\n';
		end = start > 0 ? start - 1 : 0;
	}
	if ((o >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b) ||
	    (o >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)) {
		/* a line that starts with the gzip magic or a byte-order mark came
		 * first: a blank line keeps it from being read as the file's start,
		 * as it was not forwards (buf has room: o <= size + 1) */
		memmove(buf + 1, buf, o);
		buf[0] = '\n';
		o++;
	}
	return o;
}

char *fuzz_reverse_lines(const struct fuzz_part *p, struct fuzz_part *out)
{
	char *buf = malloc(p->size + 2);
	if (buf == NULL)
		abort();
	out->data = buf;
	if (p->size >= 2 && (unsigned char)p->data[0] == 0x1f &&
	    (unsigned char)p->data[1] == 0x8b) {
		/* gzip: its text is read as a whole, its bytes are no lines */
		memcpy(buf, p->data, p->size);
		out->size = p->size;
	} else if (p->size >= 3 && memcmp(p->data, "\xef\xbb\xbf", 3) == 0) {
		/* the byte-order mark stays at the start of the text; only that
		 * one: a second mark belongs to the first line, and moves with it */
		memcpy(buf, p->data, 3);
		out->size = 3 + reverse_plain(p->data + 3, p->size - 3, buf + 3);
	} else {
		out->size = reverse_plain(p->data, p->size, buf);
	}
	return buf;
}

int fuzz_same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

int fuzz_in_range(double x, double lo, double hi)
{
	return isfinite(x) && x >= lo - 1e-9 && x <= hi + 1e-9;
}

/* ------------------------------------------------------------ JSON check */

struct json {
	const unsigned char *p, *end;
	int depth;
};

static void json_blank(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int json_literal(struct json *j, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static int json_digits(struct json *j)
{
	const unsigned char *start = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static int json_number(struct json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return 0;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return 0;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!json_digits(j))
			return 0;
	}
	return 1;
}

/* The length of the UTF-8 sequence at p (1 to 4), 0 if invalid. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
	size_t n;
	unsigned min;
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, c &= 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

static int json_string(struct json *j)
{
	if (j->p >= j->end || *j->p != '"')
		return 0;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p < 0x20)
			return 0;
		if (*j->p == '\\') {
			j->p++;
			if (j->p >= j->end)
				return 0;
			if (*j->p == 'u') {
				if (j->end - j->p < 5)
					return 0;
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
						return 0;
				j->p += 5;
			} else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
				j->p++;
			} else {
				return 0;
			}
			continue;
		}
		size_t n = utf8_length(j->p, j->end);
		if (n == 0)
			return 0;
		j->p += n;
	}
	if (j->p >= j->end)
		return 0;
	j->p++;
	return 1;
}

static int json_value(struct json *j)
{
	json_blank(j);
	if (j->p >= j->end || ++j->depth > 64)
		return 0;
	int ok;
	switch (*j->p) {
	case '{':
	case '[': {
		unsigned char close = *j->p == '{' ? '}' : ']';
		int object = close == '}';
		j->p++;
		json_blank(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			ok = 1;
			break;
		}
		for (;;) {
			if (object) {
				json_blank(j);
				if (!json_string(j))
					return 0;
				json_blank(j);
				if (j->p >= j->end || *j->p != ':')
					return 0;
				j->p++;
			}
			if (!json_value(j))
				return 0;
			json_blank(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				break;
			}
			return 0;
		}
		ok = 1;
		break;
	}
	case '"':
		ok = json_string(j);
		break;
	case 't':
		ok = json_literal(j, "true");
		break;
	case 'f':
		ok = json_literal(j, "false");
		break;
	case 'n':
		ok = json_literal(j, "null");
		break;
	default:
		ok = json_number(j);
		break;
	}
	j->depth--;
	return ok;
}

int fuzz_json_valid(const char *s, size_t n)
{
	struct json j = { (const unsigned char *)s, (const unsigned char *)s + n, 0 };
	if (!json_value(&j))
		return 0;
	return j.p + 1 == j.end && *j.p == '\n';
}
