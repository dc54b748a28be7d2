/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The input layer: the byte reader (tageval-reader.c) and the lines, their
 * ids and the loop of every file reader (tageval-lines.c); not installed.
 * It includes no header of a module above it. */
#ifndef TAGEVAL_READER_H
#define TAGEVAL_READER_H

#include <stddef.h>
#include <stdint.h>

#include "tageval-intern.h"
#include "tageval-util.h"

/* ------------------------------------------------------------ line reader */

/* The chunk read at a time; a longer line grows the buffer.  (The fuzz
 * build makes it small, so that lines cross chunk ends; meson's option
 * reader_chunk sets it.) */
#ifndef TV_READER_CHUNK
#define TV_READER_CHUNK (256 * 1024)
#endif

struct tv_reader {
	int fd;           /* -1: reading from memory, or closed */
	int own;          /* close(fd) at the end */
	const char *name; /* borrowed */
	const char *mem;  /* tv_reader_open_buffer: the data not yet copied */
	size_t memleft;
	/* a chunk of the file: bytes [start, end) of buf are not read yet;
	 * lines are split and tokenized in place */
	char *buf;
	size_t cap, start, end;
	uint64_t lineno;  /* 1-based number of the line last returned */
	int eof;          /* no more bytes to read into buf */
	int sniffed;      /* the first bytes were looked at (gzip magic) */
	int bom_done;     /* the first line was looked at (UTF-8 byte-order mark) */
	struct tv_gunzip *gz; /* the input is gzip-compressed: its inflater */
	uint64_t taken;   /* bytes taken from the source (a file, memory) so far */
	/* the fields of the current line (pointers into buf, NUL-terminated) */
	char **field;
	size_t nfield, fieldcap;
	unsigned seps;    /* TV_SEP_* of the current line */
};

/* How the fields of a line were separated, for formats stricter than
 * "blanks separate fields" (the WSD framework's single spaces). */
#define TV_SEP_TAB 1u  /* a tab among the blanks (anywhere, trailing too) */
#define TV_SEP_RUN 2u  /* two blanks or more between two fields */
#define TV_SEP_LEAD 4u /* a blank before the first field */

/* Opens @path ("-" = stdin, named "<stdin>").  Whatever the source (a file,
 * a pipe, memory), input that starts with the gzip magic bytes 1f 8b is
 * decompressed (concatenated members as zcat does), and a UTF-8 byte-order
 * mark at the start of the text is skipped. */
int tv_reader_open(struct tv_reader *r, const char *path, struct tageval_error *err);
/* Reads from memory; @name is used in messages. */
int tv_reader_open_buffer(struct tv_reader *r, const char *data, size_t size,
			  const char *name, struct tageval_error *err);
void tv_reader_close(struct tv_reader *r);

/*
 * Reads the next line (its fields stay valid until the next call), strips "\n" / "\r\n", rejects NUL bytes and stray
 * carriage returns, cuts the line at the first "!!" and splits it into
 * blank-separated fields (r->field, r->nfield).  Returns TAGEVAL_OK with
 * *got = 1 for a line (possibly with no field), *got = 0 at the end.
 */
int tv_reader_next(struct tv_reader *r, int *got, struct tageval_error *err);
/* The same; when the chunk holds no whole line and @may_refill is 0,
 * returns with *got = 0 and *more = 1 instead of reading more. */
int tv_reader_line(struct tv_reader *r, int may_refill, int *got, int *more,
		   struct tageval_error *err);

/* What names the line of a file, in lines of two fields or more. */
enum tv_id_kind {
	TV_ID_JOINED, /* "lexelt instance": the first two fields joined by a space */
	TV_ID_FIELD1, /* the second field alone (the instance ids of WSI files) */
	TV_ID_FIELD0, /* the first field alone (the WSD framework's ids) */
	TV_ID_NONE,   /* nothing: the reader looks up what it needs itself */
};

/* One line of a batch: its fields, and its id when it has two. */
struct tv_line {
	const char *name; /* the file's name */
	uint64_t lineno;
	size_t nfield;
	char **field;
	const char *id;   /* NULL when the line has fewer than two fields (one
			   * with TV_ID_FIELD0) */
	size_t idlen;
	uint32_t hash;    /* of id */
	uint32_t inst;    /* for the caller (with tv_each's put: the id interned) */
	unsigned put;     /* tv_each's put: TV_PUT_NEW or TV_PUT_OLD when the
			   * id was interned before the line was handed over
			   * (by either thread), TV_PUT_NO when it was not (the
			   * line interns it itself) */
	unsigned seps;    /* TV_SEP_* */
	const double *weights; /* answers given through the API: the tags' weights
				* (the fields hold bare tags), or NULL */
};

/* Fills @l for a line given through the API rather than read from a file:
 * @field holds lexelt, instance and the tags; the id is joined into *buf
 * and hashed with the key of @ids. */
int tv_line_make(struct tv_line *l, const char *name, uint64_t lineno, char **field,
		 size_t nfield, char **buf, size_t *cap, const struct tv_intern *ids);

/* tv_line.put */
#define TV_PUT_NO 0u  /* not interned (no id, no table to put it in, or a
		       * put failed at this line or before) */
#define TV_PUT_NEW 1u /* interned, new: l->inst is its id */
#define TV_PUT_OLD 2u /* interned before (a duplicate): l->inst is its id */

#define TV_BATCH 64

/*
 * Up to TV_BATCH non-empty lines.  Their fields point into the reader's
 * chunk (a batch ends where the chunk does, so no line is copied); only the
 * "lexelt instance" ids are joined into the batch's text.  A batch is valid
 * until the next tv_reader_batch() or tv_reader_next() on its reader.
 */
struct tv_batch {
	struct tv_line line[TV_BATCH];
	size_t n;
	char *text;       /* the joined ids */
	size_t used, cap;
	char **field;     /* the lines' field pointers */
	size_t nfield, fieldcap;
	enum tv_id_kind id; /* set by the caller: what names a line */
	int keep_blank;     /* set by the caller: lines without fields are lines too */
	int no_refill;      /* set by the caller: the chunk may not move (lines
			     * read from it before this batch are still in use) */
	const struct tv_intern *ids; /* set by the caller: the table whose key hashes
				      * the ids (NULL: l->hash is not set) */
};

void tv_batch_clear(struct tv_batch *b);

/*
 * Fills @b with the next lines that have fields (blank and comment-only
 * lines are skipped).  b->n == 0 at the end of the file, or, with
 * b->no_refill, at the end of the chunk (tv_reader_at_end() tells which).  On a read or
 * format error the lines before it are in @b and the error is returned:
 * the caller handles those lines first, then returns the error.
 */
int tv_reader_batch(struct tv_reader *r, struct tv_batch *b, struct tageval_error *err);

/* 1 when @r has no byte left to read (every line was returned). */
static inline int tv_reader_at_end(const struct tv_reader *r)
{
	return r->eof && r->start == r->end;
}

/* Builds "lexelt instance" in *buf; returns its length, or (size_t)-1 on ENOMEM. */
size_t tv_join_id(char **buf, size_t *cap, const char *lexelt, const char *instance);

/*
 * The loop of every file reader (tageval-lines.c): reads the lines of @r in
 * batches, names each line as @id says and hashes its id with the key of
 * @ids, looks the batch's ids up in stages (their cache misses overlap), and
 * calls @line on each line with fields, in file order, until the end, an
 * error of the file or an error @line returns (the first in file order is
 * returned).  *lines (when not NULL) receives the number of lines @line
 * accepted.
 *
 * A regular file (or memory) longer than half a chunk is read by a second
 * thread: it reads, splits and hashes the next chunks (a few ahead) while
 * the calling thread looks
 * the lines up and calls @line, always on the calling thread and in file
 * order, so that results and errors are the same as read in one thread.
 * Reading may run ahead of a line that fails (by at most a few chunks).
 */
enum tv_lookup {
	TV_LOOKUP_SLOT, /* prefetch each id's slot only (the line interns it) */
	TV_LOOKUP_FIND, /* find each id: l->inst is its id, or TV_NONE */
};

struct tv_each {
	enum tv_id_kind id;
	const struct tv_intern *ids;   /* the table of ids (with id != TV_ID_NONE) */
	enum tv_lookup lookup;
	/* TV_LOOKUP_FIND: called with each id found, before any line of the batch
	 * (to prefetch the caller's record of it); may be NULL */
	void (*found)(void *ctx, uint32_t id);
	int keep_blank; /* blank and comment-only lines are handed over too */
	/* not NULL (the table @ids, given again not const): the ids are
	 * interned before @line sees them, in file order, a chunk at a time
	 * by whichever thread is free (the reading thread when the calling
	 * one is the slower, else the calling one; never both at once), each
	 * line's l->put and l->inst say how; the lines before the one where
	 * a put fails are interned, none after (the line interns its id
	 * itself: once a put failed, neither side puts again).  @line may not
	 * use the table until tv_each_line returns, but to put the id of a
	 * TV_PUT_NO line; the ids of a few chunks past a line that fails may
	 * have been interned. */
	struct tv_intern *put;
	/* with TV_LOOKUP_FIND: the table does not change while the file is
	 * read (the line function interns nothing in it), so the look-ups are
	 * done where the lines are read (the reading thread); @found is still
	 * called on the calling thread, before the lines of each batch */
	int find_ahead;
	/* with TV_LOOKUP_FIND, the table changing: as find_ahead as long as
	 * every id is found.  @line may add to @ids (the only change made to it
	 * while the file is read) only for a line whose l->inst is TV_NONE; it
	 * is handed no such line before the reading thread has stopped looking
	 * up (for good, and the unit it was making finished) */
	int find_until_new;
	/* not NULL (the table each line's id is interned in: by @line, or
	 * with @put): once the first chunk is read (before its ids are
	 * interned with @put), the table is told to expect as
	 * many ids as the whole file is expected to have lines at the first
	 * chunk's bytes per line (tv_intern_expect: it grows toward them, a
	 * few times instead of some twenty, never past 4 times the ids it
	 * holds), when the size is known (a regular file or memory, not
	 * compressed) */
	struct tv_intern *expect;
	int (*line)(void *ctx, struct tv_line *l, struct tageval_error *err);
	void *ctx;
};

int tv_each_line(struct tv_reader *r, const struct tv_each *e, size_t *lines,
		 struct tageval_error *err);

/*
 * The sources of every public reader: tv_read_path opens @path ("-": standard
 * input), tv_read_buffer the @size bytes of @data named @name; each runs @run
 * on the reader and closes it.  A NULL path, NULL data of a size above 0 or
 * a NULL name is EINVAL with the message "func: NULL path" (data, name), as
 * TV_NEED gives it.
 */
typedef int (*tv_read_fn)(void *ctx, struct tv_reader *r, struct tageval_error *err);
int tv_read_path(const char *func, const char *path, tv_read_fn run, void *ctx,
		 struct tageval_error *err);
int tv_read_buffer(const char *func, const char *data, size_t size, const char *name,
		   tv_read_fn run, void *ctx, struct tageval_error *err);

#endif
