/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The line reader shared by every file format: any line length, LF or CRLF,
 * a last line without a newline, NUL bytes and stray carriage returns
 * reported with their line, "!!" comments cut, fields split on blanks; a
 * UTF-8 byte-order mark at the start skipped, gzip-compressed input
 * (detected by its magic bytes, whatever the source) decompressed on the
 * way through zlib.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tageval-reader.h"
#include "tageval-util.h"

#define CHUNK ((size_t)(TV_READER_CHUNK))

static const char stdin_name[] = "<stdin>";

int tv_reader_open(struct tv_reader *r, const char *path, struct tageval_error *err)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	if (strcmp(path, "-") == 0) {
		r->fd = STDIN_FILENO;
		r->name = stdin_name;
		return TAGEVAL_OK;
	}
	r->name = path;
	r->fd = open(path, O_RDONLY);
	if (r->fd < 0)
		return tv_error(err, TAGEVAL_EIO, path, 0, "cannot open: %s", strerror(errno));
	r->own = 1;
	struct stat st;
	if (fstat(r->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		tv_reader_close(r);
		return tv_error(err, TAGEVAL_EIO, path, 0, "cannot open: %s", strerror(EISDIR));
	}
	return TAGEVAL_OK;
}

int tv_reader_open_buffer(struct tv_reader *r, const char *data, size_t size,
			  const char *name, struct tageval_error *err)
{
	(void)err;
	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->name = name;
	r->mem = data;
	r->memleft = size;
	return TAGEVAL_OK;
}

/* The inflater of a gzip-compressed input: the compressed bytes are read
 * into @in, the text comes out into the reader's chunk. */
#define GZ_IN ((size_t)64 * 1024)
struct tv_gunzip {
	z_stream z;
	int raw_eof;          /* no more compressed bytes */
	int member_done;      /* the last inflate() ended a member */
	unsigned char in[GZ_IN];
};

static void gunzip_free(struct tv_reader *r)
{
	if (r->gz) {
		inflateEnd(&r->gz->z);
		free(r->gz);
		r->gz = NULL;
	}
}

void tv_reader_close(struct tv_reader *r)
{
	gunzip_free(r);
	if (r->own && r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r->field);
	memset(r, 0, sizeof *r);
	r->fd = -1;
}

/* Reads up to @room bytes of the source (file or memory) into @dst; *got = 0
 * at its end. */
static int raw_read(struct tv_reader *r, void *dst, size_t room, size_t *got,
		    struct tageval_error *err)
{
	*got = 0;
	if (r->fd < 0) {
		size_t n = r->memleft < room ? r->memleft : room;
		memcpy(dst, r->mem, n);
		r->mem += n;
		r->memleft -= n;
		r->taken += n;
		*got = n;
		return TAGEVAL_OK;
	}
	for (;;) {
		ssize_t n = read(r->fd, dst, room);
		if (n >= 0) {
			*got = (size_t)n;
			r->taken += (uint64_t)n;
			return TAGEVAL_OK;
		}
		if (errno != EINTR)
			return tv_error(err, TAGEVAL_EIO, r->name, 0, "read error: %s",
					strerror(errno));
	}
}

static int gz_error(struct tv_reader *r, const char *what, struct tageval_error *err)
{
	return tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "%s", what);
}

/* Inflates into the chunk after r->end, at most @room bytes, reading
 * compressed bytes as needed; a new member may follow the end of one. */
static int inflate_some(struct tv_reader *r, size_t room, struct tageval_error *err)
{
	struct tv_gunzip *g = r->gz;
	z_stream *z = &g->z;
	z->next_out = (unsigned char *)r->buf + r->end;
	z->avail_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
	for (;;) {
		if (z->avail_in == 0 && !g->raw_eof) {
			size_t n;
			int rc = raw_read(r, g->in, GZ_IN, &n, err);
			if (rc)
				return rc;
			z->next_in = g->in;
			z->avail_in = (unsigned)n;
			if (n == 0)
				g->raw_eof = 1;
		}
		if (g->member_done) {
			if (z->avail_in == 0) { /* the end of the last member */
				r->eof = 1;
				return TAGEVAL_OK;
			}
			/* another member follows, as zcat reads them */
			if (inflateReset(z) != Z_OK)
				return gz_error(r, "corrupt gzip data", err);
			g->member_done = 0;
		}
		unsigned before = z->avail_out;
		int zr = inflate(z, Z_NO_FLUSH);
		size_t made = before - z->avail_out;
		r->end += made;
		if (zr == Z_STREAM_END)
			g->member_done = 1;
		else if (zr == Z_MEM_ERROR)
			return tv_nomem(err);
		else if (zr == Z_NEED_DICT || zr == Z_DATA_ERROR || zr == Z_STREAM_ERROR) {
			char msg[160];
			snprintf(msg, sizeof msg, "corrupt gzip data (%s)",
				 z->msg ? z->msg : "invalid data");
			return gz_error(r, msg, err);
		} else if (zr == Z_BUF_ERROR && z->avail_in == 0 && g->raw_eof)
			return gz_error(r, "truncated gzip data (the file ends inside a member)",
					err);
		if (made > 0)
			return TAGEVAL_OK;
		if (z->avail_in == 0 && g->raw_eof && !g->member_done)
			return gz_error(r, "truncated gzip data (the file ends inside a member)",
					err);
	}
}

/* The first read (at most GZ_IN bytes; two at least, or the end; the chunk
 * always has room for them): either the gzip magic 1f 8b, whose bytes go to
 * a new inflater, or text. */
static int sniff(struct tv_reader *r, size_t room, struct tageval_error *err)
{
	r->sniffed = 1;
	size_t limit = room < GZ_IN ? room : GZ_IN, have = 0;
	while (have < 2) {
		size_t n;
		int rc = raw_read(r, r->buf + r->end + have, limit - have, &n, err);
		if (rc)
			return rc;
		if (n == 0)
			break;
		have += n;
	}
	const unsigned char *p = (const unsigned char *)r->buf + r->end;
	if (have < 2 || p[0] != 0x1f || p[1] != 0x8b) {
		r->end += have;
		if (have == 0)
			r->eof = 1;
		return TAGEVAL_OK;
	}
	struct tv_gunzip *g = calloc(1, sizeof *g);
	if (g == NULL)
		return tv_nomem(err);
	/* 16 + MAX_WBITS: the gzip format only */
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
		free(g);
		return tv_nomem(err);
	}
	r->gz = g;
	memcpy(g->in, p, have);
	g->z.next_in = g->in;
	g->z.avail_in = (unsigned)have;
	return inflate_some(r, room, err);
}

/*
 * Moves the unread bytes to the front of the buffer and reads more after
 * them; the buffer doubles when the unread bytes (a long line) fill most of
 * it.  One byte is always left free for the NUL after a last line that has
 * no newline.  Sets r->eof when there is nothing more to read.
 */
static int refill(struct tv_reader *r, struct tageval_error *err)
{
	size_t keep = r->end - r->start;
	if (keep > 0 && r->start > 0)
		memmove(r->buf, r->buf + r->start, keep);
	r->start = 0;
	r->end = keep;
	if (r->cap - keep < CHUNK / 4 + 1) {
		size_t cap = r->cap ? r->cap * 2 : CHUNK;
		if (cap < r->cap) /* overflow */
			return tv_nomem(err);
		char *buf = realloc(r->buf, cap);
		if (buf == NULL)
			return tv_nomem(err);
		r->buf = buf;
		r->cap = cap;
	}
	size_t room = r->cap - r->end - 1;
	if (!r->sniffed)
		return sniff(r, room, err);
	if (r->gz)
		return inflate_some(r, room, err);
	size_t n;
	int rc = raw_read(r, r->buf + r->end, room, &n, err);
	if (rc)
		return rc;
	r->end += n;
	if (n == 0)
		r->eof = 1;
	return TAGEVAL_OK;
}

/* The bytes the splitter stops at: blanks separate fields; a NUL, a
 * carriage return or a '!' (the start of a "!!" comment) needs a look. */
enum { BYTE_TEXT, BYTE_BLANK, BYTE_SPECIAL };
static const unsigned char byte_class[256] = {
	[' '] = BYTE_BLANK, ['\t'] = BYTE_BLANK,
	['\0'] = BYTE_SPECIAL, ['\r'] = BYTE_SPECIAL, ['!'] = BYTE_SPECIAL,
};

static int byte_is(const char *p, int cls)
{
	return byte_class[(unsigned char)*p] == cls;
}

/*
 * The first byte at or after @p (before @end) that is not text, or @end;
 * eight bytes at a time while the buffer (up to @limit) holds eight bytes
 * from @p on.  Every byte that is not text is below 0x22 (NUL, tab,
 * carriage return, blank, '!'), so a word without a byte below 0x22 is
 * skipped whole: in (v - 0x22..) & ~v & 0x80.., the lowest flagged byte is
 * the first byte below 0x22 (no borrow comes into the bytes before it; a
 * byte of 0x80 or more is not flagged), the flags above it may be false.
 * The bytes of a word past @end (the next line, or bytes not read yet) are
 * taken as NULs: the scan stops at @end.  Each byte is looked at once.
 */
static char *skip_text(char *p, const char *end, const char *limit)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	while (p < end) {
		if ((size_t)(limit - p) < 8) {
			while (p < end && byte_is(p, BYTE_TEXT))
				p++;
			return p;
		}
		uint64_t v;
		memcpy(&v, p, 8);
#if !defined(__BYTE_ORDER__)
#error "the word scan needs __BYTE_ORDER__ (GCC or clang)"
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v); /* the first byte lowest */
#endif
		size_t left = (size_t)(end - p);
		if (left < 8)
			v &= ((uint64_t)1 << (8 * left)) - 1;
		uint64_t low = (v - ones * 0x22u) & ~v & highs;
		if (low == 0) {
			p += 8;
			continue;
		}
		p += (unsigned)__builtin_ctzll(low) >> 3;
		if (p >= end || !byte_is(p, BYTE_TEXT))
			return p;
		p++; /* a control byte other than tab, CR and NUL: text */
	}
	return p;
}

/*
 * The next line of the chunk into *line (NUL-terminated in place, without
 * its "\n").  When the chunk holds no whole line and @may_refill is 0,
 * returns with *line NULL and *more 1; at the end, *line NULL and *more 0.
 */
static int next_line(struct tv_reader *r, int may_refill, char **line, size_t *len, int *more,
		     struct tageval_error *err)
{
	size_t scanned = r->start;
	*line = NULL;
	*more = 0;
	for (;;) {
		char *nl = r->end > scanned ? memchr(r->buf + scanned, '\n', r->end - scanned)
					    : NULL;
		if (nl != NULL) {
			*line = r->buf + r->start;
			*len = (size_t)(nl - *line);
			*nl = '\0';
			r->start = (size_t)(nl - r->buf) + 1;
			return TAGEVAL_OK;
		}
		if (r->eof) {
			if (r->end == r->start) {
				r->eof = 1;
				return TAGEVAL_OK;
			}
			*line = r->buf + r->start;
			*len = r->end - r->start;
			(*line)[*len] = '\0';
			r->start = r->end;
			return TAGEVAL_OK;
		}
		if (!may_refill) {
			*more = 1;
			return TAGEVAL_OK;
		}
		/* the bytes searched are not searched again after the refill:
		 * a long line arriving in small reads (a pipe) stays linear */
		scanned = r->end;
		size_t offset = scanned - r->start;
		int rc = refill(r, err);
		if (rc)
			return rc;
		scanned = r->start + offset;
	}
}

/* The error of a line that holds a NUL byte or a stray carriage return
 * (a NUL first, wherever they are, comment or not): @p is the first such
 * byte or the start of the comment, the bytes before it (split already,
 * their blanks now NULs) held neither. */
static int bad_byte(struct tv_reader *r, const char *p, const char *end,
		    struct tageval_error *err)
{
	if (memchr(p, '\0', (size_t)(end - p)) != NULL)
		return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "NUL byte");
	return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "stray carriage return");
}

static int add_field(struct tv_reader *r, char *p, struct tageval_error *err)
{
	if (r->nfield == r->fieldcap &&
	    tv_grow((void **)&r->field, &r->fieldcap, r->nfield + 1, sizeof *r->field))
		return tv_nomem(err);
	r->field[r->nfield++] = p;
	return TAGEVAL_OK;
}

/*
 * Checks and splits a line (in place) into r->field, looking at each byte
 * once: blanks end fields; a NUL byte or a carriage return (but the one of
 * a CRLF line end) is an error; "!!" starts a comment, cut off (its bytes
 * are still checked for NUL and carriage returns).
 */
static int split(struct tv_reader *r, char *s, size_t len, struct tageval_error *err)
{
	r->lineno++;
	if (!r->bom_done) {
		/* a UTF-8 byte-order mark, as some editors write, is not text */
		r->bom_done = 1;
		if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
			s += 3;
			len -= 3;
		}
	}
	if (len > 0 && s[len - 1] == '\r')
		s[--len] = '\0';
	char *p = s, *end = s + len, *cut = NULL;
	r->seps = 0;
	for (;;) {
		char *gap = p;
		while (p < end && byte_is(p, BYTE_BLANK))
			r->seps |= *p++ == '\t' ? TV_SEP_TAB : 0;
		if (p >= end)
			break;
		if (gap == s && p > s)
			r->seps |= TV_SEP_LEAD;
		else if (p > gap) /* the first blank after a field is gone already */
			r->seps |= TV_SEP_RUN;
		char *field = p;
		for (;;) {
			p = skip_text(p, end, r->buf + r->cap);
			if (p >= end || byte_is(p, BYTE_BLANK))
				break;
			if (*p != '!')
				return bad_byte(r, p, end, err);
			if (p + 1 < end && p[1] == '!') {
				cut = p;
				break;
			}
			p++; /* a lone '!' is text */
		}
		if (cut != NULL) {
			/* the comment is not split, but holds no NUL or carriage return either */
			size_t rest = (size_t)(end - cut);
			if (memchr(cut, '\0', rest) != NULL || memchr(cut, '\r', rest) != NULL)
				return bad_byte(r, cut, end, err);
			*cut = '\0';
			if (cut > field && add_field(r, field, err))
				return TAGEVAL_ENOMEM;
			break;
		}
		if (add_field(r, field, err))
			return TAGEVAL_ENOMEM;
		if (*p == '\t')
			r->seps |= TV_SEP_TAB;
		*p++ = '\0';
	}
	return TAGEVAL_OK;
}

#if defined(__SSE2__)
/*
 * The common line in one pass (x86-64 has SSE2): a line of text and blanks
 * that ends with LF or CRLF within FAST_MAX bytes of the chunk, the first
 * line (a byte-order mark) not.  Each 32 bytes give a mask of their bytes
 * below 0x22 (LF, blanks and the bytes split() looks at: NUL, CR, '!'; the
 * other control bytes are text), and only those are looked at, in order.
 * Nothing is written before the line end is found: at a NUL, a stray CR, a
 * '!', or no line end in reach (a long line, the end of the chunk), 0 and
 * the line is left to next_line() and split(), which scan again at most
 * FAST_MAX bytes of it (so does a reader without the memory for
 * FAST_FIELDS field pointers).  Returns 1 with the line split, as split()
 * does.
 */
#define FAST_MAX 512
#define FAST_BLOCK 32
/* the most fields such a line has: one byte and a blank each */
#define FAST_FIELDS ((FAST_MAX + FAST_BLOCK) / 2 + 1)

/* Bit i: byte p[i] (i < 32) is below 0x22. */
static uint32_t low_bytes(const char *p)
{
	const __m128i top = _mm_set1_epi8(0x21);
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	uint32_t ma = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, top), a));
	uint32_t mb = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(b, top), b));
	return ma | mb << 16;
}

/* The line end at @q (its LF, or the CR of its CRLF): NULs written at the
 * blanks that end the @n fields before it and at the line end; the line taken. */
static void fast_end(struct tv_reader *r, char *s, char *q, const uint16_t *ends, size_t n)
{
	for (size_t i = 0; i < n; i++)
		s[ends[i]] = '\0';
	char *nl = *q == '\n' ? q : q + 1;
	*q = '\0';
	*nl = '\0';
	r->start = (size_t)(nl - r->buf) + 1;
	r->lineno++;
}

static int fast_line(struct tv_reader *r)
{
	/* room for every field the line may have (once per reader); before
	 * the first line r->buf may be NULL (no arithmetic on it) */
	if (!r->bom_done ||
	    (r->fieldcap < FAST_FIELDS &&
	     tv_grow((void **)&r->field, &r->fieldcap, FAST_FIELDS, sizeof *r->field)))
		return 0;
	char *s = r->buf + r->start, *stop = r->buf + r->end, *limit = r->buf + r->cap;
	char *prev = s; /* where the next field may start */
	uint16_t ends[FAST_FIELDS]; /* the blank after each field */
	size_t n = 0;
	unsigned seps = 0, pend = 0; /* pend: the TV_SEP_* of the blanks before the next field */
	char **field = r->field;
	for (char *block = s; block < stop; block += FAST_BLOCK) {
		if (block - s >= FAST_MAX || limit - block < FAST_BLOCK)
			return 0;
		uint32_t m = low_bytes(block);
		if (stop - block < FAST_BLOCK)
			m &= ((uint32_t)1 << (stop - block)) - 1;
		for (; m != 0; m &= m - 1) {
			char *q = block + __builtin_ctz(m);
			if (*q == ' ' || *q == '\t') {
				seps |= *q == '\t' ? TV_SEP_TAB : 0;
				if (q == prev) { /* leading, or a blank after a blank */
					pend |= n == 0 ? TV_SEP_LEAD : TV_SEP_RUN;
				} else {
					field[n] = prev;
					ends[n++] = (uint16_t)(q - s);
					seps |= pend;
					pend = 0;
				}
				prev = q + 1;
			} else if (*q == '\n' || (*q == '\r' && q + 1 < stop && q[1] == '\n')) {
				fast_end(r, s, q, ends, n); /* the fields' blanks */
				if (q > prev) {
					field[n++] = prev;
					seps |= pend; /* trailing blanks are no run */
				}
				r->nfield = n;
				r->seps = seps;
				return 1;
			} else if (*q == '\0' || *q == '\r' || *q == '!') {
				return 0; /* split() tells */
			}
		}
	}
	return 0;
}
#endif

int tv_reader_line(struct tv_reader *r, int may_refill, int *got, int *more,
		   struct tageval_error *err)
{
	*got = 0;
	r->nfield = 0;
#if defined(__SSE2__)
	if (fast_line(r)) {
		*got = 1;
		*more = 0;
		return TAGEVAL_OK;
	}
#endif
	char *line;
	size_t len;
	int rc = next_line(r, may_refill, &line, &len, more, err);
	if (rc || line == NULL)
		return rc;
	*got = 1;
	return split(r, line, len, err);
}

int tv_reader_next(struct tv_reader *r, int *got, struct tageval_error *err)
{
	int more;
	return tv_reader_line(r, 1, got, &more, err);
}

