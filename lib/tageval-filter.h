/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The subset filters: the layout the scorer reads (tageval-filter.c); not
 * installed. */
#ifndef TAGEVAL_FILTER_H
#define TAGEVAL_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "tageval-intern.h"

struct tageval_filter {
	struct tv_intern instances;
	uint32_t *tags;       /* sorted ids */
	size_t ntags, tagcap;
	int have_instances, have_tags;
	const struct tageval_inventory *inv;
};

/* Is @tag (an inventory id) in the tag list of @f? */
int tv_filter_has_tag(const struct tageval_filter *f, uint32_t tag);

#endif
