/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nmi - normalized and adjusted mutual information of induced word senses:
 * fuzzy NMI (SemEval-2013 Task 13) on graded keys, NMI and AMI otherwise. */
#include "clustering-common.h"
#include "tools-main.h"

int tool_nmi_main(int argc, char **argv)
{
	static const struct clustering_tool tool = {
		.name = "nmi",
		.kind = CLUSTERING_NMI,
		.summary = "Normalized mutual information of a clustering of each target word's\n"
			   "instances against the gold senses: fuzzy NMI (SemEval-2013 Task 13,\n"
			   "mean over words) when either file is graded or multi-label, NMI and\n"
			   "adjusted mutual information (AMI, instance-weighted) otherwise.",
	};
	return clustering_tool_main(&tool, argc, argv);
}
