/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The main() of every tool's executable: TOOL_MAIN names the tool's entry
 * point (tools-main.h; set by meson.build), whose code is in the tools'
 * static library.
 */
#include "tools-main.h"

int main(int argc, char **argv)
{
	return TOOL_MAIN(argc, argv);
}
