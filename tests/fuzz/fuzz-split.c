/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The supervised evaluation: split files read against a gold key, or folds
 * and random splits, mapped and scored.  Input: flags, then GOLD, CLUSTERS,
 * MAPPING, TEST.  Flags: bits 0-1 the splits (the MAPPING and TEST files; 2
 * folds; 3 folds; 2 random splits of 0.3), bit 2 pos "n".
 */
#include <stdlib.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	struct fuzz_input in;
	fuzz_split(data, size, 4, &in);
	struct tageval_error err;
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_supervised *sup = NULL;
	if (wsi == NULL)
		abort();
	int rc = tageval_wsi_read_gold_buffer(wsi, in.part[0].data, in.part[0].size, "gold", &err);
	fuzz_check_error(rc, format, &err, &in.part[0], "gold");
	if (rc || in.n < 2)
		goto out;
	rc = tageval_wsi_read_clusters_buffer(wsi, in.part[1].data, in.part[1].size, "clusters",
					      &err);
	fuzz_check_error(rc, format, &err, &in.part[1], "clusters");
	if (rc)
		goto out;
	rc = tageval_supervised_new(wsi, in.flags & 4 ? "n" : NULL, &sup, &err);
	fuzz_check_error(rc, format, &err, NULL, "supervised");
	if (rc)
		goto out;
	switch (in.flags & 3) {
	case 0:
		if (in.n < 4)
			goto out;
		rc = tageval_supervised_add_buffers(sup, in.part[2].data, in.part[2].size,
						    in.part[3].data, in.part[3].size, &err);
		/* the buffers are named "mapping" and "test" */
		fuzz_check_error(rc, format, &err,
				 err.file[0] == 't' ? &in.part[3] : &in.part[2], err.file);
		break;
	case 1:
	case 2:
		rc = tageval_supervised_add_folds(sup, (in.flags & 3) + 1, 7, &err);
		fuzz_check_error(rc, format, &err, NULL, "folds");
		break;
	case 3:
		rc = tageval_supervised_add_random(sup, 2, 0.3, 7, &err);
		fuzz_check_error(rc, format, &err, NULL, "random");
		break;
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < tageval_supervised_splits(sup); i++) {
		struct tageval_supervised_result r;
		char *mapped = NULL;
		rc = tageval_supervised_evaluate(sup, i, &r, &mapped, &err);
		fuzz_check_error(rc, format, &err, NULL, "evaluate");
		if (rc)
			break;
		if (r.answered > r.test || !fuzz_in_range(r.correct, 0.0, (double)r.answered) ||
		    !fuzz_in_range(r.recall, 0.0, 1.0) || !fuzz_in_range(r.attempted, 0.0, 1.0) ||
		    (r.answered > 0 && !fuzz_in_range(r.precision, 0.0, 1.0)))
			fuzz_fail("split %zu: %zu mapping, %zu test, %zu answered, correct %g, "
				  "P %g R %g A %g", i, r.mapping, r.test, r.answered, r.correct,
				  r.precision, r.recall, r.attempted);
		if (mapped == NULL)
			fuzz_fail("split %zu: no mapped answers", i);
		free(mapped);
	}
out:
	tageval_supervised_free(sup);
	tageval_wsi_free(wsi);
	return 0;
}
