/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ari - adjusted Rand index, Rand index and Fowlkes-Mallows index of
 * induced word senses. */
#include "clustering-common.h"
#include "tools-main.h"

int tool_ari_main(int argc, char **argv)
{
	static const struct clustering_tool tool = {
		.name = "ari",
		.kind = CLUSTERING_ARI,
		.summary = "Adjusted Rand index, Rand index and Fowlkes-Mallows index of a\n"
			   "clustering of each target word's instances against the gold senses\n"
			   "(each line read as its label of largest weight), per word,\n"
			   "instance-weighted over all words, and pooled over all instances.",
	};
	return clustering_tool_main(&tool, argc, argv);
}
