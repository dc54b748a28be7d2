/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sense-map reader (scorer2 form and parent form) and the downward
 * probabilities: every tag's leaf distribution must be a distribution, and
 * its coarse tag an ancestor.  Input: flags, the map, then optionally a
 * tagged corpus for tageval_inventory_estimate_downward_buffer().
 * Flags: bits 0-1 the smoothing (1, 0, 0.5, 1e12).
 */
#include <stdlib.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Tags checked per input: a distribution costs up to the size of the map. */
#define CHECKED_TAGS 256

static void check_distributions(const struct tageval_inventory *inv, struct tageval_dist *d,
				int uniform, const char *what)
{
	size_t n = tageval_inventory_size(inv);
	for (size_t id = 0; id < n && id < CHECKED_TAGS; id++) {
		if (tageval_inventory_distribute(inv, id, d))
			fuzz_fail("%s: tag %zu has no distribution", what, id);
		double sum = 0.0;
		size_t prev = 0;
		for (size_t i = 0; i < tageval_dist_size(d); i++) {
			size_t leaf = tageval_dist_leaf(d, i);
			double p = tageval_dist_prob(d, i);
			if (leaf >= n || (i > 0 && leaf <= prev))
				fuzz_fail("%s: tag %zu: leaf %zu out of order", what, id, leaf);
			if (!fuzz_in_range(p, 0.0, 1.0))
				fuzz_fail("%s: tag %zu: probability %g", what, id, p);
			if (!fuzz_in_range(tageval_inventory_subsumes(inv, id, leaf), 0.0, 1.0))
				fuzz_fail("%s: tag %zu: subsumes %g", what, id,
					  tageval_inventory_subsumes(inv, id, leaf));
			sum += p;
			prev = leaf;
		}
		if (!(sum > 1.0 - 1e-9 && sum < 1.0 + 1e-9))
			fuzz_fail("%s: the distribution of tag %zu sums to %.17g", what, id, sum);
		size_t coarse;
		struct tageval_error err;
		int rc = tageval_inventory_coarse(inv, id, &coarse, &err);
		fuzz_check_error(rc, FUZZ_BIT(TAGEVAL_EFORMAT), &err, NULL, "coarse");
		/* estimated probabilities may be 0 on the way down */
		if (rc == TAGEVAL_OK && uniform && tageval_inventory_subsumes(inv, coarse, id) <= 0.0)
			fuzz_fail("%s: coarse tag %zu of %zu is not above it", what, coarse, id);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double smoothing[] = { 1.0, 0.0, 0.5, 1e12 };
	struct fuzz_input in;
	fuzz_split(data, size, 2, &in);
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_dist *d = tageval_dist_new();
	if (inv == NULL || d == NULL)
		abort();
	int rc = tageval_inventory_read_map_buffer(inv, in.part[0].data, in.part[0].size, "map",
						   &err);
	fuzz_check_error(rc, FUZZ_BIT(TAGEVAL_EFORMAT), &err, &in.part[0], "map");
	if (rc == TAGEVAL_OK) {
		check_distributions(inv, d, 1, "map");
		if (in.n > 1) {
			rc = tageval_inventory_estimate_downward_buffer(
				inv, in.part[1].data, in.part[1].size, "corpus",
				smoothing[in.flags & 3], &err);
			fuzz_check_error(rc, FUZZ_BIT(TAGEVAL_EFORMAT), &err, &in.part[1],
					 "corpus");
			if (rc == TAGEVAL_OK)
				check_distributions(inv, d, 0, "estimated");
		}
	}
	tageval_dist_free(d);
	tageval_inventory_free(inv);
	return 0;
}
