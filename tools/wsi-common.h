/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared body of the unsupervised WSI tools vmeasure and fscore. */
#ifndef WSI_COMMON_H
#define WSI_COMMON_H

#include <stddef.h>

#include "tageval.h"

enum wsi_kind { WSI_VMEASURE, WSI_FSCORE };

struct wsi_tool {
	const char *name;
	enum wsi_kind kind;
	const char *summary;      /* lines after "Usage:" in --help */
	const char *options_help; /* the tool's own option lines */
};

int wsi_tool_main(const struct wsi_tool *tool, int argc, char **argv);

#endif
