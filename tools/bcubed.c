/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bcubed - B-cubed precision, recall and F of induced word senses: fuzzy
 * (SemEval-2013 Task 13) on graded keys, item-averaged otherwise. */
#include "clustering-common.h"
#include "tools-main.h"

int tool_bcubed_main(int argc, char **argv)
{
	static const struct clustering_tool tool = {
		.name = "bcubed",
		.kind = CLUSTERING_BCUBED,
		.summary = "B-cubed precision, recall and F-score of a clustering of each target\n"
			   "word's instances against the gold senses: fuzzy B-cubed (SemEval-2013\n"
			   "Task 13, mean over words) when either file is graded or multi-label,\n"
			   "item-averaged B-cubed (Bagga & Baldwin, instance-weighted) otherwise.",
	};
	return clustering_tool_main(&tool, argc, argv);
}
