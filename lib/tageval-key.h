/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gold keys: the layout shared with the scorer and the report
 * (tageval-key.c); not installed. */
#ifndef TAGEVAL_KEY_H
#define TAGEVAL_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"

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

/* tv_key_append() of an instance given by the length of its lexelt's name
 * and its tags' ids in the key's inventory (ids of names without '/'). */
int tv_key_append_ids(struct tageval_key *key, size_t lexelt_len, const uint32_t *tags,
		      size_t ntags, struct tageval_error *err);

/* tageval_key_read() and tageval_scorer_read() from an open reader (tests
 * use them to start a reader at a line number beyond 2^32). */
int tv_key_read_reader(struct tageval_inventory *inv, struct tv_reader *r,
		       struct tageval_key **key, struct tageval_error *err);

#endif
