/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmeasure - V-measure, homogeneity and completeness of induced word senses. */
#include "tools-main.h"
#include "wsi-common.h"

int tool_vmeasure_main(int argc, char **argv)
{
	static const struct wsi_tool tool = {
		.name = "vmeasure",
		.kind = WSI_VMEASURE,
		.summary = "V-measure, homogeneity and completeness of a clustering of each target\n"
			   "word's instances against the gold senses (SemEval-2010 Task 14), per\n"
			   "word and weighted by instances over all words.",
		.options_help = "      --beta=B              weight of completeness (default 1)\n",
	};
	return wsi_tool_main(&tool, argc, argv);
}
