/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Declarations shared by the library's source files; not installed. */
#ifndef TAGEVAL_PRIVATE_H
#define TAGEVAL_PRIVATE_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "tageval.h"

#if defined(__GNUC__)
#define TV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TV_PRINTF(f, a)
#endif

/* ------------------------------------------------------------ errors */

/* Fills @err (if not NULL) and returns @code. @line 0 = no line. */
int tv_error(struct tageval_error *err, int code, const char *file, uint64_t line,
	     const char *fmt, ...) TV_PRINTF(5, 6);
int tv_nomem(struct tageval_error *err);

/*
 * Argument checks of the public functions: @p NULL returns TAGEVAL_EINVAL
 * with the message "function: NULL name" (@name as tageval.h calls it).
 * TV_NULL_RET(p, v) is for functions without an error argument.
 */
#define TV_NEED(err, p, name)                                                        \
	do {                                                                         \
		if ((p) == NULL)                                                     \
			return tv_error((err), TAGEVAL_EINVAL, "", 0, "%s: NULL %s", \
					__func__, (name));                           \
	} while (0)
#define TV_NULL_RET(p, v)         \
	do {                      \
		if ((p) == NULL)  \
			return v; \
	} while (0)

/* Quotes at most a readable prefix of a token for a message. */
void tv_quote(char *out, size_t outsize, const char *s, size_t len);

/* ------------------------------------------------------------ growable arrays */

/* Ensures room for @need elements of @size bytes; returns 0 or TAGEVAL_ENOMEM. */
int tv_grow(void **buf, size_t *cap, size_t need, size_t size);

/* ------------------------------------------------------------ string interner */

struct tv_arena_block;

/*
 * A slot is 8 bytes, the hash and the id + 1 (0 = empty): a table of a
 * million instance ids is 16 MiB at load 1/2.  A look-up of a string that
 * is there costs three memory accesses (slot, str[id], string); callers
 * with many look-ups overlap them with the prefetch stages below.
 */
struct tv_slot {
	uint32_t hash;
	uint32_t id1;
};

struct tv_intern {
	struct tv_arena_block *blocks; /* newest first */
	char **str;                    /* id -> NUL-terminated string */
	size_t n, cap;
	struct tv_slot *slots;         /* open addressing, linear probing */
	size_t mask;                   /* nslots - 1 (0 before the first insert) */
	uint64_t hashkey[2];           /* the SipHash key, random per table */
};

/* An empty table with a new random hash key (see tageval-intern.c). */
void tv_intern_init(struct tv_intern *in);
void tv_intern_clear(struct tv_intern *in);
/* Interns s[0..len); *id receives its id; *added (if not NULL) 1 when new. */
int tv_intern_put(struct tv_intern *in, const char *s, size_t len, uint32_t *id, int *added);
/* 1 and *id when found, 0 otherwise. */
int tv_intern_find(const struct tv_intern *in, const char *s, size_t len, uint32_t *id);

/*
 * The same with the hash computed beforehand, and prefetches: a caller with
 * many look-ups to do (a batch of lines) hashes them all, prefetches their
 * slots, then their strings, and only then looks them up, so that the cache
 * misses of a batch overlap instead of following one another.  @h is
 * tv_intern_hash(in, s, len), the hash under the table's own key (a test may
 * choose any value, as long as a string keeps the same one).
 */
uint32_t tv_intern_hash(const struct tv_intern *in, const char *s, size_t len);
int tv_intern_find_hashed(const struct tv_intern *in, const char *s, size_t len, uint32_t h,
			  uint32_t *id);
int tv_intern_put_hashed(struct tv_intern *in, const char *s, size_t len, uint32_t h,
			 uint32_t *id, int *added);
/* The stages: the slot, then the string's pointer, then the string; each
 * reads only what the previous one fetched (the first slot probed). */
void tv_intern_prefetch(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_entry(const struct tv_intern *in, uint32_t h);
void tv_intern_prefetch_string(const struct tv_intern *in, uint32_t h);

static inline const char *tv_intern_str(const struct tv_intern *in, uint32_t id)
{
	return in->str[id];
}
/* The length of string @id. */
size_t tv_intern_len(const struct tv_intern *in, uint32_t id);

/* SipHash-1-3 (the table's hash) and SipHash-2-4 (for the test vectors of
 * the SipHash paper) of @len bytes under the 128-bit key k0 = key[0], k1 = key[1]. */
uint64_t tv_siphash13(const uint64_t key[2], const void *data, size_t len);
uint64_t tv_siphash24(const uint64_t key[2], const void *data, size_t len);

/* ------------------------------------------------------------ line reader */

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
	/* the fields of the current line (pointers into buf, NUL-terminated) */
	char **field;
	size_t nfield, fieldcap;
};

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

/* One line of a batch: its fields, and its id ("lexelt instance") when it has two. */
struct tv_line {
	const char *name; /* the file's name */
	uint64_t lineno;
	size_t nfield;
	char **field;
	const char *id;   /* NULL when the line has fewer than two fields */
	size_t idlen;
	uint32_t hash;    /* of id */
	uint32_t inst;    /* for the caller */
	const double *weights; /* answers given through the API: the tags' weights
				* (the fields hold bare tags), or NULL */
};

/* Fills @l for a line given through the API rather than read from a file:
 * @field holds lexelt, instance and the tags; the id is joined into *buf
 * and hashed with the key of @ids. */
int tv_line_make(struct tv_line *l, const char *name, uint64_t lineno, char **field,
		 size_t nfield, char **buf, size_t *cap, const struct tv_intern *ids);

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
	int no_ids;       /* set by the caller: no "lexelt instance" ids needed */
	const struct tv_intern *ids; /* set by the caller: the table whose key hashes
				      * the ids (NULL: l->hash is not set) */
};

void tv_batch_clear(struct tv_batch *b);

/*
 * Fills @b with the next lines that have fields (blank and comment-only
 * lines are skipped).  b->n == 0 at the end of the file.  On a read or
 * format error the lines before it are in @b and the error is returned:
 * the caller handles those lines first, then returns the error.
 */
int tv_reader_batch(struct tv_reader *r, struct tv_batch *b, struct tageval_error *err);

/*
 * The fields of a line given through the API (lexelt, instance, tags), in
 * @small when @nsmall is enough, else in a new array (the caller frees it
 * when it is not @small); NULL when out of memory.  The strings are only
 * read: the casts drop const for struct tv_line.
 */
char **tv_api_fields(char **small, size_t nsmall, const char *lexelt, const char *instance,
		     const char *const *tags, size_t ntags);

/* Parses a weight: a finite decimal number >= 0; returns 0 on success, -1 if invalid. */
int tv_parse_weight(const char *s, double *out);

/*
 * Scales the weights @w[0..n) of one line by the power of two of the
 * largest (exact: the ratios do not change), so that their sum cannot
 * overflow; returns the exponent e to multiply back (ldexp(sum, e)), 0
 * when every weight is 0.
 */
int tv_scale_weights(double *w, size_t n);

/* ------------------------------------------------------------ exact sums */

/*
 * An exactly rounded sum (as Python's math.fsum), whatever the order of
 * the terms: see tageval-fsum.c.  536 bytes; zeroed by tv_fsum_init (or
 * by calloc / memset).  A NaN or infinite term makes the result NaN.
 */
#define TV_FSUM_CHUNKS 67
#define TV_FSUM_LAZY (1u << 29)

struct tv_fsum {
	int64_t c[TV_FSUM_CHUNKS];
	int64_t ints;       /* the integer terms of magnitude <= 2^31, apart: cheap */
	uint32_t pending;
	uint32_t nonfinite;
};

void tv_fsum_init(struct tv_fsum *f);
void tv_fsum_add(struct tv_fsum *f, double x);
/* Adds the terms of @g to @f. */
void tv_fsum_add_fsum(struct tv_fsum *f, const struct tv_fsum *g);
/* Propagates the pending carries (done by tv_fsum_add when needed). */
void tv_fsum_carry(struct tv_fsum *f);
/* The sum rounded to nearest, ties to even. */
double tv_fsum_result(const struct tv_fsum *f);
/* The exactly rounded sum of @x[0..n). */
double tv_fsum_array(const double *x, size_t n);

/* ------------------------------------------------------------ random numbers */

/*
 * GSL's MT19937 seeded with @seed (tageval-rng.c), allocated without
 * gsl_rng_alloc so that no failure reaches GSL's error handler; NULL when
 * out of memory.  Freed by tv_rng_free (NULL is fine), not gsl_rng_free.
 * Declared where <gsl/gsl_rng.h> was included before this header.
 * With it the library calls gsl_rng_uniform_int(r, n) only with
 * 0 < n <= 2^32 - 1 and gsl_ran_shuffle(r, base, n, size) only with n >= 2
 * (n = 0 reaches the handler): both would otherwise report an error.
 */
#ifdef __GSL_RNG_H__
gsl_rng *tv_rng_new(unsigned long seed);
void tv_rng_free(gsl_rng *r);
#endif

/* ------------------------------------------------------------ inventory internals */

#define TV_NONE UINT32_MAX

/* The coarse tag, or TV_NONE when ambiguous. */
uint32_t tv_coarse(const struct tageval_inventory *inv, uint32_t id);
/* Interns a tag of a key or answer line (freezes the hierarchy). */
int tv_inventory_intern(struct tageval_inventory *inv, const char *s, size_t len, uint32_t *id);
const char *tv_inventory_name(const struct tageval_inventory *inv, uint32_t id);

/* ------------------------------------------------------------ key internals */

struct tv_instance {
	uint32_t tags;  /* offset into key->tags */
	uint32_t ntags;
	uint32_t line;  /* the low 32 bits of the 1-based line in the key file
			 * (the high bits: tv_key_line()) */
	uint32_t lexelt_len;
};

/* Where the high 32 bits of the instances' line numbers change: from
 * instance @inst on (until the next change) they are @hi.  A key file's
 * lines only grow, so a file of more than 4G lines adds one change per 4G
 * lines, and the instances keep 16 bytes each. */
struct tv_linehi {
	size_t inst;
	uint32_t hi;
};

struct tageval_key {
	struct tageval_inventory *inv;
	struct tv_intern ids;       /* "lexelt instance" -> instance index */
	struct tv_instance *inst;
	size_t ninst, instcap;
	uint32_t *tags;
	size_t ntags, tagcap;
	char *name;
	char *idbuf;                /* for tageval_key_add */
	size_t idcap;
	struct tv_linehi *linehi;   /* sorted by inst */
	size_t nlinehi, linehicap;
};

/* The 1-based line of instance @i (0 for an instance of tageval_key_add()
 * numbered so), all 64 bits. */
uint64_t tv_key_line(const struct tageval_key *key, size_t i);

/*
 * Appends an instance without interning its id: the caller knows the ids
 * are distinct, and scores the instance by its index (the number of
 * instances before it) with tv_scorer_add_at(); look-ups by name, and
 * instance filters, do not see it.
 */
int tv_key_append(struct tageval_key *key, const char *lexelt, const char *instance,
		  const char *const *tags, size_t ntags, struct tageval_error *err);

/* tageval_key_read() and tageval_scorer_read() from an open reader (tests
 * use them to start a reader at a line number beyond 2^32). */
int tv_key_read_reader(struct tageval_inventory *inv, struct tv_reader *r,
		       struct tageval_key **key, struct tageval_error *err);
struct tageval_scorer;
int tv_scorer_read_reader(struct tageval_scorer *s, struct tv_reader *r, struct tageval_error *err);
/* Reads the answers of @r once and scores every line with each of the @n
 * scorers in turn (all on the same key), so that a pipe can feed several
 * granularities. */
int tv_scorers_read(struct tageval_scorer *const *sc, size_t n, struct tv_reader *r,
		    struct tageval_error *err);

/* tageval_scorer_add() for the key's instance of index @inst. */
int tv_scorer_add_at(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
		     const char *instance, const char *const *tags, const double *weights,
		     size_t ntags, struct tageval_error *err);

/* An unweighted answer of many tags (a random baseline's) prepared for a
 * scorer once, then scored on each item in time that does not grow with its
 * tags, to the same figures as tv_scorer_add_at (see tageval-score.c). */
struct tv_spread_tag {
	uint32_t tag;
	uint32_t pos;  /* place in the answer (after the coarse merge) */
	uint32_t ext;  /* mixed: this tag and the answer's tags below it */
	double w;      /* weight after the normalisation */
};
struct tv_spread {
	struct tv_spread_tag *e; /* sorted by tag */
	size_t n;
	int general;   /* scored tag by tag: what the shortcut does not cover */
};
int tv_spread_prepare(struct tageval_scorer *s, const uint32_t *tags, size_t n,
		      struct tv_spread *sp, struct tageval_error *err);
void tv_spread_clear(struct tv_spread *sp);
/* Scores @sp, prepared from @tags (@n), on the key's instance @inst. */
int tv_scorer_add_spread(struct tageval_scorer *s, uint32_t inst, const char *lexelt,
			 const char *instance, const struct tv_spread *sp, const uint32_t *tags,
			 size_t n, struct tageval_error *err);

/* Builds "lexelt instance" in *buf; returns its length, or (size_t)-1 on ENOMEM. */
size_t tv_join_id(char **buf, size_t *cap, const char *lexelt, const char *instance);

struct tageval_filter {
	struct tv_intern instances;
	uint32_t *tags;       /* sorted ids */
	size_t ntags, tagcap;
	int have_instances, have_tags;
	const struct tageval_inventory *inv;
};

int tv_filter_has_tag(const struct tageval_filter *f, uint32_t tag);

#endif
