/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A tool's whole run on fuzzed files, in process: its entry point
 * tool_<name>_main() (tools/tools-main.h), from the tools' static library
 * that its executable links too (see meson.build).  This file builds the
 * command line, gives each file of the input to the tool as a memfd named
 * /proc/self/fd/N, and swaps stdout and stderr for memory streams for the
 * run, so that it can check what the tool printed:
 *
 *   - the exit status is 0 or 1 (the command lines are all valid);
 *   - status 1: the last line of standard error is "TOOL: ...", and
 *     nothing was printed on standard output (but scorer2 -v's trace);
 *   - status 0: something on standard output, valid JSON with
 *     --format=json, and no "TOOL: " line on standard error but notes.
 *
 * FUZZ_TOOL selects the tool (FUZZ_SCORER2, ...); the flags byte of the
 * input selects options (see each build_argv()).  No option names a file
 * outside the input, so no run reads or writes anything else (but
 * wsi-supervised's --write-mapped, into a private temporary directory).
 */
#define _GNU_SOURCE /* fopencookie, memfd_create */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-common.h"
#include "tools-main.h"

#define FUZZ_SCORER2 1
#define FUZZ_HKAPPA 2
#define FUZZ_VMEASURE 3
#define FUZZ_FSCORE 4
#define FUZZ_WSI_BASELINE 5
#define FUZZ_WSI_SUPERVISED 6
#define FUZZ_WSD_REPORT 7
#define FUZZ_BCUBED 8
#define FUZZ_NMI 9
#define FUZZ_ARI 10
#define FUZZ_WSD_GRADED 16 /* apart from the numbers other targets may take */
#define FUZZ_WSD_SCORE 17

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24

struct cmdline {
	int argc;
	char *argv[MAX_ARGS + 1];
	char text[MAX_ARGS][4200];
	int json;      /* --format=json given */
	int streaming; /* output may precede an error (scorer2 -v) */
};

static void add(struct cmdline *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct cmdline *c, const char *fmt, ...)
{
	if (c->argc >= MAX_ARGS)
		abort();
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->text[c->argc], sizeof c->text[c->argc], fmt, ap);
	va_end(ap);
	c->argv[c->argc] = c->text[c->argc];
	c->argv[++c->argc] = NULL;
}

/* --------------------------------------------------------------- files */

static int fds[FUZZ_MAX_PARTS];

/* Puts the files of @in into memfds; path[i] names file i (empty beyond in->n). */
static void put_files(const struct fuzz_input *in, char path[][32])
{
	for (size_t i = 0; i < FUZZ_MAX_PARTS; i++) {
		if (fds[i] == 0 && (fds[i] = memfd_create("fuzz", 0)) < 0)
			abort();
		const char *p = i < in->n ? in->part[i].data : "";
		size_t left = i < in->n ? in->part[i].size : 0;
		if (ftruncate(fds[i], 0) != 0)
			abort();
		for (off_t off = 0; left > 0;) {
			ssize_t w = pwrite(fds[i], p, left, off);
			if (w <= 0)
				abort();
			p += w;
			off += w;
			left -= (size_t)w;
		}
		snprintf(path[i], 32, "/proc/self/fd/%d", fds[i]);
	}
}

/* ------------------------------------------------------- command lines */

#if FUZZ_TOOL == FUZZ_SCORER2
#define TOOL "scorer2"
#define TOOL_MAIN tool_scorer2_main
/* ANSWERS KEY [MAP [INSTANCES [TAGS]]]; bits 0-1 -g fine/coarse/mixed/none,
 * 2 -m, 3 -v, 4 --conjunctive, 5 --format=json (not with -v) */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	static const char *const gran[] = { "fine", "coarse", "mixed" };
	if ((flags & 3) != 3)
		add(c, "-g%s", gran[flags & 3]);
	if (flags & 4)
		add(c, "-m");
	if (flags & 8) {
		add(c, "-v");
		c->streaming = 1;
	} else if (flags & 32) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (flags & 16)
		add(c, "--conjunctive");
	if (n > 3)
		add(c, "--instances=%s", path[3]);
	if (n > 4)
		add(c, "--tags=%s", path[4]);
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
	if (n > 2)
		add(c, "%s", path[2]);
}
#elif FUZZ_TOOL == FUZZ_HKAPPA
#define TOOL "hkappa"
#define TOOL_MAIN tool_hkappa_main
/* MAP ANN1 ANN2 [ANN3 [CORPUS]]; bit 0 --flat (no MAP), 1 --per-lexelt,
 * 2 --bootstrap=8, 3 --format=json, 4 --downward=the last file (with a map,
 * from 4 files on) */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	int flat = flags & 1, downward = !flat && (flags & 16) && n >= 4;
	size_t first = flat ? 0 : 1, last = n - (downward ? 1 : 0);
	if (last < first + 2)
		last = first + 2;
	if (flat)
		add(c, "--flat");
	if (flags & 2)
		add(c, "--per-lexelt");
	if (flags & 4)
		add(c, "--bootstrap=8");
	if (flags & 8) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (downward)
		add(c, "--downward=%s", path[n - 1]);
	for (size_t i = first; i < last; i++)
		add(c, "%s", path[i]);
	if (!flat)
		add(c, "%s", path[0]);
}
#elif FUZZ_TOOL == FUZZ_VMEASURE || FUZZ_TOOL == FUZZ_FSCORE
#if FUZZ_TOOL == FUZZ_VMEASURE
#define TOOL "vmeasure"
#define TOOL_MAIN tool_vmeasure_main
#define OWN_OPTION "--beta=0.5"
#else
#define TOOL "fscore"
#define TOOL_MAIN tool_fscore_main
#define OWN_OPTION "--paired"
#endif
/* CLUSTERS GOLD; bit 0 --per-word, 1 --format=json, 2-3 --pos=none/n/v/all,
 * 4 --beta=0.5 or --paired, 5 --digits=6 */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	static const char *const pos[] = { NULL, "n", "v", "all" };
	if (flags & 1)
		add(c, "--per-word");
	if (flags & 2) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (pos[(flags >> 2) & 3])
		add(c, "--pos=%s", pos[(flags >> 2) & 3]);
	if (flags & 16)
		add(c, OWN_OPTION);
	if (flags & 32)
		add(c, "--digits=6");
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
}
#elif FUZZ_TOOL == FUZZ_WSI_BASELINE
#define TOOL "wsi-baseline"
#define TOOL_MAIN tool_wsi_baseline_main
/* GOLD; bits 0-1 -m 1c1w/1c1inst/random/random -k 1, 2 -s 5 */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	static const char *const method[] = { "1c1w", "1c1inst", "random", "random" };
	add(c, "-m%s", method[flags & 3]);
	if ((flags & 3) == 3)
		add(c, "-k1");
	if (flags & 4)
		add(c, "-s5");
	add(c, "%s", path[0]);
}
#elif FUZZ_TOOL == FUZZ_WSI_SUPERVISED
#define TOOL "wsi-supervised"
#define TOOL_MAIN tool_wsi_supervised_main
static char outdir[64];
/* CLUSTERS GOLD [MAPPING TEST]; bits 0-1 default folds, -k 2,
 * --splits=2 --test-fraction=0.5, --split=MAPPING:TEST; 2 --pos=n,
 * 3 --format=json, 4 --write-mapped=a temporary directory */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	switch (flags & 3) {
	case 1:
		add(c, "-k2");
		break;
	case 2:
		add(c, "--splits=2");
		add(c, "--test-fraction=0.5");
		break;
	case 3:
		add(c, "--split=%s:%s", path[2], path[3]);
		break;
	}
	if (flags & 4)
		add(c, "--pos=n");
	if (flags & 8) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (flags & 16) {
		if (outdir[0] == '\0') {
			snprintf(outdir, sizeof outdir, "/tmp/fuzz-wsi-supervised.XXXXXX");
			if (mkdtemp(outdir) == NULL)
				abort();
		}
		add(c, "--write-mapped=%s", outdir);
	}
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
}
#elif FUZZ_TOOL == FUZZ_WSD_REPORT
#define TOOL "wsd-report"
#define TOOL_MAIN tool_wsd_report_main
/* KEY SYSTEM [MAP [TRAIN [SUBSET [SYSTEM2]]]]; bit 0 --senses=MAP, 1
 * --train=TRAIN, 2 --subset=mine=SUBSET, 3-4 --format text/json/csv/text,
 * 5 --no-baselines, 6 --plot into the last (otherwise unused) memfd, with
 * --plot-subset=mine when bit 2 gives that subset, 7 a second system */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	int subset = (flags & 4) && n > 4;
	if ((flags & 1) && n > 2)
		add(c, "--senses=%s", path[2]);
	if ((flags & 2) && n > 3)
		add(c, "--train=%s", path[3]);
	if (subset)
		add(c, "--subset=mine=%s", path[4]);
	switch ((flags >> 3) & 3) {
	case 1:
		add(c, "--format=json");
		c->json = 1;
		break;
	case 2:
		add(c, "--format=csv");
		break;
	}
	if (flags & 32)
		add(c, "--no-baselines");
	if (flags & 64) {
		add(c, "--plot=%s", path[FUZZ_MAX_PARTS - 1]);
		if (subset)
			add(c, "--plot-subset=mine");
	}
	add(c, "%s", path[0]);
	add(c, "S1=%s", path[1]);
	if ((flags & 128) && n > 5)
		add(c, "S2=%s", path[5]);
}
#elif FUZZ_TOOL == FUZZ_WSD_GRADED
#define TOOL "wsd-graded"
#define TOOL_MAIN tool_wsd_graded_main
/* SYSTEM GOLD; bit 0 --no-remapping, 1 --format=json, 2 --per-word,
 * 3 --seed=(flags >> 4), 4-5 --pos none/n/v/none (with 3 off),
 * 6 --digits=17 */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	(void)n;
	if (flags & 1)
		add(c, "--no-remapping");
	if (flags & 2) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (flags & 4)
		add(c, "--per-word");
	if (flags & 8)
		add(c, "--seed=%u", flags >> 4);
	else if (((flags >> 4) & 3) == 1)
		add(c, "--pos=n");
	else if (((flags >> 4) & 3) == 2)
		add(c, "--pos=v");
	if (flags & 64)
		add(c, "--digits=17");
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
}
#elif FUZZ_TOOL == FUZZ_WSD_SCORE
#define TOOL "wsd-score"
#define TOOL_MAIN tool_wsd_score_main
/* GOLD SYSTEM; bit 0 --format=json, 1 --breakdown, 2 --subset */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	(void)n;
	if (flags & 1) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (flags & 2)
		add(c, "--breakdown");
	if (flags & 4)
		add(c, "--subset");
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
}
#elif FUZZ_TOOL == FUZZ_BCUBED || FUZZ_TOOL == FUZZ_NMI || FUZZ_TOOL == FUZZ_ARI
#if FUZZ_TOOL == FUZZ_BCUBED
#define TOOL "bcubed"
#define TOOL_MAIN tool_bcubed_main
#define OWN_OPTION "--digits=6"
#elif FUZZ_TOOL == FUZZ_NMI
#define TOOL "nmi"
#define TOOL_MAIN tool_nmi_main
#define OWN_OPTION "--normalizer=min"
#else
#define TOOL "ari"
#define TOOL_MAIN tool_ari_main
#define OWN_OPTION "--digits=0"
#endif
/* CLUSTERS GOLD; bit 0 --per-word, 1 --format=json, 2-3 --pos=none/n/v/all,
 * 4 --digits=6 (bcubed), --normalizer=min (nmi), --digits=0 (ari) */
static void build_argv(unsigned flags, size_t n, char path[][32], struct cmdline *c)
{
	static const char *const pos[] = { NULL, "n", "v", "all" };
	(void)n;
	if (flags & 1)
		add(c, "--per-word");
	if (flags & 2) {
		add(c, "--format=json");
		c->json = 1;
	}
	if (pos[(flags >> 2) & 3])
		add(c, "--pos=%s", pos[(flags >> 2) & 3]);
	if (flags & 16)
		add(c, OWN_OPTION);
	add(c, "%s", path[0]);
	add(c, "%s", path[1]);
}
#else
#error "FUZZ_TOOL names no tool"
#endif

/* ------------------------------------------------------- output capture */

struct capture {
	char *buf;
	size_t len, cap;
	int closed;
};

static ssize_t capture_write(void *cookie, const char *data, size_t size)
{
	struct capture *c = cookie;
	if (c->len + size + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		while (cap < c->len + size + 1)
			cap *= 2;
		char *p = realloc(c->buf, cap);
		if (p == NULL)
			abort();
		c->buf = p;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, data, size);
	c->len += size;
	c->buf[c->len] = '\0';
	return (ssize_t)size;
}

static int capture_close(void *cookie)
{
	struct capture *c = cookie;
	c->closed = 1;
	return 0;
}

static FILE *capture_open(struct capture *c)
{
	static const cookie_io_functions_t io = { .write = capture_write, .close = capture_close };
	FILE *fp = fopencookie(c, "w", io);
	if (fp == NULL)
		abort();
	return fp;
}

/* The last line of @s[0..len) (without its line feed), or "". */
static const char *last_line(char *s, size_t len)
{
	if (len == 0)
		return "";
	if (s[len - 1] == '\n')
		s[--len] = '\0';
	char *nl = memrchr(s, '\n', len);
	return nl ? nl + 1 : s;
}

/* 1 when a line of @s starts with "TOOL: " but not "TOOL: note: ". */
static int has_error_line(const char *s)
{
	const char *prefix = TOOL ": ";
	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, prefix, strlen(prefix)) == 0 &&
		    strncmp(p + strlen(prefix), "note: ", 6) != 0)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[FUZZ_MAX_PARTS][32];
	static struct cmdline cmd;
	struct fuzz_input in;
	fuzz_split(data, size, FUZZ_MAX_PARTS, &in);
	put_files(&in, path);
	memset(&cmd, 0, sizeof cmd);
	add(&cmd, TOOL);
	build_argv(in.flags, in.n, path, &cmd);

	struct capture out = { 0 }, err = { 0 };
	FILE *real_out = stdout, *real_err = stderr;
	stdout = capture_open(&out);
	stderr = capture_open(&err);
	optind = 0; /* getopt starts again from scratch */
	int status = TOOL_MAIN(cmd.argc, cmd.argv);
	if (!out.closed)
		fclose(stdout);
	fclose(stderr);
	stdout = real_out;
	stderr = real_err;

	const char *o = out.buf ? out.buf : "", *e = err.buf ? err.buf : "";
	size_t olen = out.len;
	if (status == 1) {
		if (olen > 0 && !cmd.streaming)
			fuzz_fail(TOOL ": exit status 1 after printing %zu bytes:\n%s\n--\n%s", olen,
				  o, e);
		const char *line = last_line(err.buf ? err.buf : (char *)"", err.len);
		if (strncmp(line, TOOL ": ", strlen(TOOL ": ")) != 0)
			fuzz_fail(TOOL ": exit status 1, last line on stderr \"%s\"", line);
	} else if (status == 0) {
		if (olen == 0)
			fuzz_fail(TOOL ": exit status 0 and nothing printed");
		if (cmd.json && !fuzz_json_valid(o, olen))
			fuzz_fail(TOOL ": invalid JSON:\n%s", o);
		if (has_error_line(e))
			fuzz_fail(TOOL ": exit status 0 after an error message:\n%s", e);
	} else {
		fuzz_fail(TOOL ": exit status %d:\n%s", status, e);
	}
	free(out.buf);
	free(err.buf);
	return 0;
}
