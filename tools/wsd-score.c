/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsd-score - all-words disambiguation scored as the unified evaluation
 * framework's Scorer.java does (reference-wsd-framework.md): its three lines
 * byte for byte, or JSON with the breakdowns per dataset and part of speech.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "wsd-score";

static void usage(FILE *fp, const void *ctx)
{
	(void)ctx;
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] GOLD SYSTEM\n"
		"Score an all-words WSD system against a gold key of the unified evaluation\n"
		"framework (Raganato et al. 2017): lines 'id key [key ...]'.  Prints the\n"
		"reference scorer's three lines (P=, R=, F1= in percent, one decimal, rounded\n"
		"as Java does), or with --format json the figures per dataset and part of\n"
		"speech as fractions.\n"
		"\n"
		"  -f, --format=FORMAT  text (default) or json\n"
		"  -b, --breakdown      text: a table of P, R and F1 (as the three lines) for\n"
		"                       ALL, each dataset and each part of speech\n"
		"      --subset         system ids the gold key lacks are counted, not errors\n"
		"                       (a gold key that covers part of the answers)\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsd-score(1).\n",
		prog);
}

struct options {
	int json, breakdown;
	unsigned flags;
	const char *gold, *system;
};

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	if (c == 'f')
		return tools_parse_format(prog, arg, &o->json);
	if (c == 'b') {
		o->breakdown = 1;
		return 0;
	}
	o->flags |= TAGEVAL_WSD_SUBSET; /* 'S' */
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "subset", no_argument, NULL, 'S' },
		{ "breakdown", no_argument, NULL, 'b' },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":f:bhV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (tools_two_operands(prog, argc, argv, "missing operand: GOLD and SYSTEM are required",
			       &o->gold, &o->system))
		return EXIT_INVALID_USAGE;
	return -1;
}

/*
 * 100 x as Java's String.format("%.1f") prints it: half-up rounding of the
 * shortest decimal that reads back as the double (the digits of
 * Double.toString), not of its binary value: 81.25 gives "81.3", where
 * printf("%.1f") gives "81.2".  @v is finite and at least 0.
 */
static void java_one_decimal(char *out, size_t size, double v)
{
	char e[40];
	int p;
	for (p = 1; p <= 17; p++) {
		snprintf(e, sizeof e, "%.*e", p - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	/* e: "d.ddd...e[+-]XX": the digits, and the power of ten of the first */
	char dig[24];
	size_t nd = 0;
	const char *q = e;
	for (; *q && *q != 'e'; q++)
		if (*q >= '0' && *q <= '9')
			dig[nd++] = *q;
	int exp10 = atoi(q + 1);
	/* the digits as an integer part and a fraction part, in a buffer with
	 * room for a carry in front */
	char ip[340], fr[360];
	size_t ni = 0, nf = 0;
	if (exp10 >= 0) {
		for (int i = 0; i <= exp10; i++)
			ip[ni++] = (size_t)i < nd ? dig[i] : '0';
		for (size_t i = (size_t)exp10 + 1; i < nd; i++)
			fr[nf++] = dig[i];
	} else {
		ip[ni++] = '0';
		for (int i = 0; i < -exp10 - 1; i++)
			fr[nf++] = '0';
		for (size_t i = 0; i < nd; i++)
			fr[nf++] = dig[i];
	}
	while (nf < 2)
		fr[nf++] = '0';
	char first = fr[0];
	if (fr[1] >= '5') { /* half up: the next digit alone decides */
		if (first < '9') {
			first++;
		} else {
			first = '0';
			size_t i = ni;
			while (i > 0 && ip[i - 1] == '9')
				ip[--i] = '0';
			if (i > 0) {
				ip[i - 1]++;
			} else {
				memmove(ip + 1, ip, ni);
				ip[0] = '1';
				ni++;
			}
		}
	}
	snprintf(out, size, "%.*s.%c", (int)ni, ip, first);
}

/* A percentage as the reference prints it, or "undefined". */
static void percent(char *buf, size_t size, double x)
{
	if (isnan(x)) {
		snprintf(buf, size, "undefined");
		return;
	}
	java_one_decimal(buf, size - 1, 100.0 * x);
	strcat(buf, "%");
}

static void text_line(const char *label, double x)
{
	char buf[400];
	percent(buf, sizeof buf, x);
	tools_printf("%s\t%s\n", label, buf);
}

static void table_row(const char *group, const struct tageval_wsd_figures *f, int width)
{
	char p[400], r[400], f1[400];
	percent(p, sizeof p, f->precision);
	percent(r, sizeof r, f->recall);
	percent(f1, sizeof f1, f->f1);
	tools_pad(stdout, group, width);
	tools_printf("  %9s  %9s  %9s  %8zu  %9zu\n", p, r, f1, f->answered, f->instances);
}

/* --breakdown: ALL, the datasets (bytewise order), the parts of speech. */
static int print_table(const struct tageval_wsd *w, struct tageval_error *err)
{
	struct tageval_wsd_figures f;
	const char *name;
	int width = 5; /* "group" */
	for (size_t i = 0; i < tageval_wsd_datasets(w); i++) {
		if (tageval_wsd_dataset(w, i, &name, &f, err))
			return -1;
		int dw = tools_display_width(name);
		width = dw > width ? dw : width;
	}
	tools_pad(stdout, "group", width);
	tools_printf("  %9s  %9s  %9s  %8s  %9s\n", "P", "R", "F1", "answered", "instances");
	if (tageval_wsd_total(w, &f, err))
		return -1;
	table_row("ALL", &f, width);
	for (size_t i = 0; i < tageval_wsd_datasets(w); i++) {
		if (tageval_wsd_dataset(w, i, &name, &f, err))
			return -1;
		table_row(name, &f, width);
	}
	static const char *const pos_name[] = { "n", "v", "a", "r" };
	for (int p = TAGEVAL_WSD_NOUN; p <= TAGEVAL_WSD_ADV; p++) {
		if (tageval_wsd_pos(w, (enum tageval_wsd_pos)p, &f, err))
			return -1;
		if (f.instances > 0)
			table_row(pos_name[p], &f, width);
	}
	return 0;
}

static void json_group(const struct tageval_wsd_figures *f)
{
	struct tools_undefined u;
	tools_undefined_init(&u);
	tools_printf("{");
	tools_json_figure(stdout, &u, "precision", f->precision,
			  "no instance of the group is answered");
	tools_printf(",");
	tools_json_figure(stdout, &u, "recall", f->recall, "the group has no gold instance");
	tools_printf(",");
	tools_json_figure(stdout, &u, "f1", f->f1,
			  isnan(f->precision) ? "the precision is undefined"
					      : "the recall is undefined");
	tools_printf(",\"answered\":%zu,\"instances\":%zu,\"correct\":", f->answered,
		     f->instances);
	tools_json_number(stdout, f->correct);
	tools_json_undefined(stdout, &u);
	tools_printf("}");
}

static int print_json(const struct tageval_wsd *w, struct tageval_error *err)
{
	struct tageval_wsd_figures f;
	if (tageval_wsd_total(w, &f, err))
		return -1;
	tools_printf("{\"total\":");
	json_group(&f);
	tools_printf(",\"per_dataset\":{");
	for (size_t i = 0; i < tageval_wsd_datasets(w); i++) {
		const char *name;
		if (tageval_wsd_dataset(w, i, &name, &f, err))
			return -1;
		tools_printf("%s", i ? "," : "");
		tools_json_string(stdout, name);
		tools_printf(":");
		json_group(&f);
	}
	tools_printf("},\"per_pos\":{");
	static const char pos_name[] = "nvar";
	int n = 0;
	for (int p = TAGEVAL_WSD_NOUN; p <= TAGEVAL_WSD_ADV; p++) {
		if (tageval_wsd_pos(w, (enum tageval_wsd_pos)p, &f, err))
			return -1;
		if (f.instances == 0)
			continue; /* a group is listed when it has a gold instance */
		tools_printf("%s\"%c\":", n++ ? "," : "", pos_name[p]);
		json_group(&f);
	}
	tools_printf("},\"unknown\":%zu}\n", tageval_wsd_unknown(w));
	return 0;
}

static int run(const struct options *o)
{
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsd *w = tageval_wsd_new();
	if (w == NULL)
		return tools_out_of_memory(prog);
	if (tageval_wsd_read_gold(w, o->gold, &err) ||
	    tageval_wsd_read_system(w, o->system, o->flags, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	size_t n = tageval_wsd_instances(w), a = tageval_wsd_answered(w);
	if (a == 0)
		fprintf(stderr, "%s: note: %s: no answer line\n", prog,
			tools_file_name(o->system));
	else if (a < n)
		fprintf(stderr, "%s: note: %zu of %zu gold instances have no answer (recall "
			"counts them as wrong)\n", prog, n - a, n);
	if (tageval_wsd_unknown(w) > 0)
		fprintf(stderr, "%s: note: %zu system line%s for ids the gold key lacks "
			"(ignored: --subset)\n", prog, tageval_wsd_unknown(w),
			tageval_wsd_unknown(w) == 1 ? "" : "s");
	if (o->json || o->breakdown) {
		if (o->json ? print_json(w, &err) : print_table(w, &err)) {
			tools_print_error(prog, &err);
			goto out;
		}
	} else {
		struct tageval_wsd_figures f;
		if (tageval_wsd_total(w, &f, &err)) {
			tools_print_error(prog, &err);
			goto out;
		}
		text_line("P=", f.precision);
		text_line("R=", f.recall);
		text_line("F1=", f.f1);
	}
	status = tools_exit_status(prog);
out:
	tageval_wsd_free(w);
	return status;
}

int tool_wsd_score_main(int argc, char **argv)
{
	struct options o = { 0 };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
