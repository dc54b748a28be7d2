/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared body of the clustering tools bcubed, nmi and ari. */
#ifndef CLUSTERING_COMMON_H
#define CLUSTERING_COMMON_H

enum clustering_kind { CLUSTERING_BCUBED, CLUSTERING_NMI, CLUSTERING_ARI };

struct clustering_tool {
	const char *name;
	enum clustering_kind kind;
	const char *summary; /* lines after "Usage:" in --help */
};

int clustering_tool_main(const struct clustering_tool *tool, int argc, char **argv);

#endif
