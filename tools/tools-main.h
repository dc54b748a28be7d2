/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The entry points of the tools: each one is a tool's whole run from its
 * command line, and returns its exit status.  tool-main.c is the main() of
 * each executable; tests/fuzz/fuzz-tool.c calls them in process.  getopt's
 * optind must be 1 (or 0) on entry.
 */
#ifndef TOOLS_MAIN_H
#define TOOLS_MAIN_H

int tool_scorer2_main(int argc, char **argv);
int tool_hkappa_main(int argc, char **argv);
int tool_vmeasure_main(int argc, char **argv);
int tool_fscore_main(int argc, char **argv);
int tool_wsi_baseline_main(int argc, char **argv);
int tool_wsi_supervised_main(int argc, char **argv);
int tool_wsi_report_main(int argc, char **argv);
int tool_wsd_report_main(int argc, char **argv);
int tool_wsd_graded_main(int argc, char **argv);
int tool_wsd_score_main(int argc, char **argv);
int tool_bcubed_main(int argc, char **argv);
int tool_nmi_main(int argc, char **argv);
int tool_ari_main(int argc, char **argv);

#endif
