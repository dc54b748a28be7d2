/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fscore - the SemEval-2007 F-score with purity and entropy, or the
 * SemEval-2010 paired F-score, of induced word senses. */
#include "tools-main.h"
#include "wsi-common.h"

int tool_fscore_main(int argc, char **argv)
{
	static const struct wsi_tool tool = {
		.name = "fscore",
		.kind = WSI_FSCORE,
		.summary = "F-score of a clustering of each target word's instances against the gold\n"
			   "senses: by default the SemEval-2007 F-score with purity and entropy;\n"
			   "with --paired the SemEval-2010 paired F-score, precision and recall.",
		.options_help = "      --paired              the SemEval-2010 paired F-score\n",
	};
	return wsi_tool_main(&tool, argc, argv);
}
