/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsd-score - all-words disambiguation scored as the unified evaluation
 * framework's Scorer.java does (reference-wsd-framework.md): its three lines
 * byte for byte, or JSON with the breakdowns per dataset and part of speech.
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg-common.h"
#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "wsd-score";

static void usage(FILE *fp, const void *ctx)
{
	(void)ctx;
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] GOLD SYSTEM\n"
		"       %s --compare [OPTIONS] GOLD [NAME=]SYSTEM...\n"
		"Score an all-words WSD system against a gold key of the unified evaluation\n"
		"framework (Raganato et al. 2017): lines 'id key [key ...]'.  Prints the\n"
		"reference scorer's three lines (P=, R=, F1= in percent, one decimal, rounded\n"
		"as Java does), or with --format json the figures per dataset and part of\n"
		"speech as fractions.\n"
		"\n"
		"  -f, --format=FORMAT  text (default) or json; csv and svg (a bar chart)\n"
		"                       with --compare\n"
		"  -b, --breakdown      text: a table of P, R and F1 (as the three lines) for\n"
		"                       ALL, each dataset and each part of speech\n"
		"  -d, --data=DATA.xml  parts of speech from the framework's data file\n"
		"                       (<instance id pos>), not from the gold keys\n"
		"      --subset         system ids the gold key lacks are counted, not errors\n"
		"                       (a gold key that covers part of the answers)\n"
		"  -c, --compare        the standard table of several systems: F1 for each\n"
		"                       dataset, ALL and each part of speech, each system\n"
		"                       compared with the best on ALL (paired bootstrap,\n"
		"                       approximate randomization, McNemar's exact test)\n"
		"      --samples=N      samples of the bootstrap and the randomization\n"
		"                       (default 10000; 0: McNemar's test only)\n"
		"      --seed=S         their random numbers' seed (GSL mt19937; default 1)\n"
		"      --alpha=A        the text marks systems whose randomization p-value\n"
		"                       against the best is at least A (default 0.05)\n"
		"      --baseline=NAME  each system also compared with the system NAME\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsd-score(1).\n",
		prog, prog);
}

struct options {
	int json, csv, svg, breakdown, compare;
	unsigned flags;
	const char *gold, *system, *data, *baseline;
	unsigned long long samples, seed;
	double alpha;
	int compare_opt; /* --samples, --seed or --alpha given */
	const char **names, **paths; /* --compare: the systems, NAME=SYSTEM split */
	const char **alloc[2];       /* the arrays names and paths point into */
	size_t nsystems;
	size_t base; /* --baseline: its index in names, else SIZE_MAX */
};

enum { OPT_SUBSET = 'S', OPT_SAMPLES = 256, OPT_SEED, OPT_ALPHA, OPT_BASELINE };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	if (c == 'f') {
		if (strcmp(arg, "csv") == 0 || strcmp(arg, "svg") == 0) {
			/* --compare only (parse checks) */
			o->csv = arg[1] == 's';
			o->svg = !o->csv;
			o->json = 0;
			return 0;
		}
		o->csv = o->svg = 0;
		return tools_parse_format(prog, arg, &o->json);
	}
	if (c == 'b') {
		o->breakdown = 1;
		return 0;
	}
	if (c == 'd') {
		if (!tageval_wsd_data_supported()) {
			tools_usage_error(prog, "--data: this tageval is built without expat, the "
					  "XML reader it needs");
			return -1;
		}
		o->data = arg;
		return 0;
	}
	if (c == 'c') {
		o->compare = 1;
		return 0;
	}
	if (c == OPT_SAMPLES) {
		o->compare_opt = 1;
		return tools_parse_samples(prog, arg, &o->samples);
	}
	if (c == OPT_SEED) {
		o->compare_opt = 1;
		return tools_parse_seed(prog, arg, &o->seed);
	}
	if (c == OPT_ALPHA) {
		o->compare_opt = 1;
		return tools_parse_alpha(prog, arg, &o->alpha);
	}
	if (c == OPT_BASELINE) {
		o->compare_opt = 1;
		o->baseline = arg;
		return 0;
	}
	o->flags |= TAGEVAL_WSD_SUBSET; /* OPT_SUBSET */
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "subset", no_argument, NULL, OPT_SUBSET },
		{ "breakdown", no_argument, NULL, 'b' },
		{ "compare", no_argument, NULL, 'c' },
		{ "data", required_argument, NULL, 'd' },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":f:bcd:hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (o->compare) {
		if (o->breakdown) {
			tools_usage_error(prog, "--breakdown and --compare exclude each other");
			return EXIT_INVALID_USAGE;
		}
		if (tools_check_operands(prog, argc - optind, 2, -1,
					 "missing operand: GOLD and a SYSTEM are required"))
			return EXIT_INVALID_USAGE;
		size_t n = (size_t)(argc - optind);
		o->names = o->alloc[0] = malloc(n * sizeof *o->names);
		o->paths = o->alloc[1] = malloc(n * sizeof *o->paths);
		if (o->names == NULL || o->paths == NULL)
			return tools_out_of_memory(prog);
		/* paths[0] the gold key, then the systems: NAME=FILE, or FILE
		 * named by its file name */
		o->paths[0] = argv[optind];
		for (size_t i = 1; i < n; i++) {
			char *a = argv[optind + (int)i], *eq = strchr(a, '=');
			if (eq != NULL && eq > a) {
				*eq = '\0';
				o->names[i] = a;
				o->paths[i] = eq + 1;
			} else {
				o->names[i] = tools_file_name(a);
				o->paths[i] = a;
			}
			for (size_t j = 1; j < i; j++)
				if (strcmp(o->names[j], o->names[i]) == 0) {
					tools_usage_error(prog, "two systems named \"%s\"", o->names[i]);
					return EXIT_INVALID_USAGE;
				}
		}
		if (tools_check_stdin(prog, o->paths, n))
			return EXIT_INVALID_USAGE;
		o->gold = o->paths[0];
		o->names++;
		o->paths++;
		o->nsystems = n - 1;
		if (o->baseline != NULL) {
			for (o->base = 0; o->base < o->nsystems; o->base++)
				if (strcmp(o->names[o->base], o->baseline) == 0)
					break;
			if (o->base == o->nsystems) {
				tools_usage_error(prog, "--baseline: no system is named \"%s\"",
						  o->baseline);
				return EXIT_INVALID_USAGE;
			}
		}
		return -1;
	}
	if (o->csv || o->svg) {
		tools_usage_error(prog, "--format=%s goes with --compare", o->csv ? "csv" : "svg");
		return EXIT_INVALID_USAGE;
	}
	if (o->compare_opt) {
		tools_usage_error(prog, "--samples, --seed, --alpha and --baseline go with "
				  "--compare");
		return EXIT_INVALID_USAGE;
	}
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
	    (o->data != NULL && tageval_wsd_read_data(w, o->data, &err)) ||
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

/* ------------------------------------------------------------ --compare */

static const char pos_names[] = "nvar";

/* One system's figures: total, the datasets (in the library's order), the
 * parts of speech (instances 0: absent). */
struct sysfig {
	struct tageval_wsd_figures total, pos[4], *ds;
};

static void text_f1(char *buf, size_t size, double f1)
{
	if (isnan(f1))
		snprintf(buf, size, "-");
	else
		java_one_decimal(buf, size, 100.0 * f1);
}

/* --baseline: 1 when system @s is not significantly above the baseline (the
 * text's mark ~): its randomization p-value at least alpha, or its F1 not
 * above the baseline's. */
static int base_mark(const struct options *o, const struct tageval_wsd_comparison *cmpb, size_t s)
{
	return o->base != SIZE_MAX && s != o->base && o->samples > 0 &&
	       !(cmpb[s].delta < 0.0 && cmpb[s].randomization_p < o->alpha);
}

static void print_p(size_t s, size_t ref, const struct tageval_wsd_comparison *c)
{
	if (s == ref || isnan(c[s].randomization_p))
		tools_printf("  %8s", "-");
	else
		tools_printf("  %8.4f", c[s].randomization_p);
}

static void print_compare_text(const struct options *o, const struct tageval_wsd *w,
			       const struct sysfig *sf, const struct tageval_wsd_comparison *cmp,
			       const struct tageval_wsd_comparison *cmpb, size_t best,
			       const int *haspos)
{
	size_t nd = tageval_wsd_datasets(w);
	int width = 6; /* "system" */
	for (size_t s = 0; s < o->nsystems; s++) {
		int dw = tools_display_width(o->names[s]) + (o->base != SIZE_MAX ? 3 : 2);
		width = dw > width ? dw : width; /* " *", or " *~" */
	}
	tools_pad(stdout, "system", width);
	struct tageval_error err = { 0 };
	for (size_t d = 0; d < nd; d++) {
		const char *name;
		struct tageval_wsd_figures f;
		if (tageval_wsd_dataset(w, d, &name, &f, &err) == 0) {
			tools_printf("  ");
			tools_pad_left(stdout, name, tools_display_width(name) > 5 ? tools_display_width(name) : 5);
		}
	}
	tools_printf("  %5s", "ALL");
	for (int p = 0; p < 4; p++)
		if (haspos[p])
			tools_printf("  %5c", pos_names[p]);
	if (o->base != SIZE_MAX)
		tools_printf("  %8s  %8s\n", "p best", "p base");
	else
		tools_printf("  %8s\n", "p");
	for (size_t s = 0; s < o->nsystems; s++) {
		char buf[400], name[400];
		int mark = s != best && !(cmp[s].randomization_p < o->alpha) &&
			   o->samples > 0;
		int bmark = base_mark(o, cmpb, s);
		snprintf(name, sizeof name, "%s%s%s%s", o->names[s], mark || bmark ? " " : "",
			 mark ? "*" : "", bmark ? "~" : "");
		tools_pad(stdout, name, width);
		for (size_t d = 0; d < nd; d++) {
			const char *dname;
			struct tageval_wsd_figures f;
			if (tageval_wsd_dataset(w, d, &dname, &f, &err) == 0) {
				int dw = tools_display_width(dname);
				text_f1(buf, sizeof buf, sf[s].ds[d].f1);
				tools_printf("  %*s", dw > 5 ? dw : 5, buf);
			}
		}
		text_f1(buf, sizeof buf, sf[s].total.f1);
		tools_printf("  %5s", buf);
		for (int p = 0; p < 4; p++)
			if (haspos[p]) {
				text_f1(buf, sizeof buf, sf[s].pos[p].f1);
				tools_printf("  %5s", buf);
			}
		print_p(s, best, cmp);
		if (o->base != SIZE_MAX)
			print_p(s, o->base, cmpb);
		tools_printf("\n");
	}
	if (o->samples > 0 && o->base != SIZE_MAX)
		tools_printf("p best: approximate randomization against %s (the best F1 on ALL), "
			     "%llu samples, seed %llu; *: p >= %g, not significantly below it\n"
			     "p base: the same against %s (the baseline); ~: p >= %g or F1 not "
			     "above it, not significantly above it\n",
			     o->names[best], o->samples, o->seed, o->alpha, o->names[o->base],
			     o->alpha);
	else if (o->samples > 0)
		tools_printf("p: approximate randomization against %s (the best F1 on ALL), %llu "
			     "samples, seed %llu; *: p >= %g, not significantly below it\n",
			     o->names[best], o->samples, o->seed, o->alpha);
	else
		tools_printf("no significance test (--samples=0; McNemar's test in --format json)\n");
}

static void json_p(struct tools_undefined *u, const char *member, double v, const char *reason)
{
	tools_printf(",");
	tools_json_figure(stdout, u, member, v, reason);
}

/* "vs_best" or "vs_baseline": system @s against the reference of @c. */
static void json_versus(const char *member, const char *ref_only,
			const struct tageval_wsd_comparison *c, size_t s)
{
	struct tools_undefined u;
	tools_undefined_init(&u);
	tools_printf(",\"%s\":{\"delta\":", member);
	tools_json_number(stdout, c[s].delta);
	const char *none = "no samples (--samples=0)";
	json_p(&u, "bootstrap_p", c[s].bootstrap_p, none);
	json_p(&u, "randomization_p", c[s].randomization_p, none);
	json_p(&u, "mcnemar_p", c[s].mcnemar_p,
	       "an answer of one of the two systems earns a credit other than 0 or 1");
	tools_printf(",\"%s\":%zu,\"other_only\":%zu", ref_only, c[s].ref_only, c[s].other_only);
	tools_json_undefined(stdout, &u);
	tools_printf("}");
}

static void print_compare_json(const struct options *o, const struct tageval_wsd *w,
			       const struct sysfig *sf, const struct tageval_wsd_comparison *cmp,
			       const struct tageval_wsd_comparison *cmpb, size_t best,
			       const int *haspos)
{
	struct tageval_error err = { 0 };
	tools_printf("{\"samples\":%llu,\"seed\":%llu,\"best\":", o->samples, o->seed);
	tools_json_string(stdout, o->names[best]);
	if (o->base != SIZE_MAX) {
		tools_printf(",\"baseline\":");
		tools_json_string(stdout, o->names[o->base]);
	}
	tools_printf(",\"systems\":[");
	for (size_t s = 0; s < o->nsystems; s++) {
		tools_printf("%s{\"name\":", s ? "," : "");
		tools_json_string(stdout, o->names[s]);
		tools_printf(",\"total\":");
		json_group(&sf[s].total);
		tools_printf(",\"per_dataset\":{");
		for (size_t d = 0; d < tageval_wsd_datasets(w); d++) {
			const char *name;
			struct tageval_wsd_figures f;
			if (tageval_wsd_dataset(w, d, &name, &f, &err))
				continue;
			tools_printf("%s", d ? "," : "");
			tools_json_string(stdout, name);
			tools_printf(":");
			json_group(&sf[s].ds[d]);
		}
		tools_printf("},\"per_pos\":{");
		int n = 0;
		for (int p = 0; p < 4; p++)
			if (haspos[p]) {
				tools_printf("%s\"%c\":", n++ ? "," : "", pos_names[p]);
				json_group(&sf[s].pos[p]);
			}
		tools_printf("}");
		if (s != best)
			json_versus("vs_best", "best_only", cmp, s);
		if (o->base != SIZE_MAX && s != o->base)
			json_versus("vs_baseline", "baseline_only", cmpb, s);
		tools_printf("}");
	}
	tools_printf("]}\n");
}

/* A CSV field: the shortest digits of @v, empty when undefined. */
static void csv_number(double v)
{
	char buf[40];
	if (isnan(v))
		return;
	tools_format_shortest(buf, sizeof buf, v);
	tools_printf("%s", buf);
}

/* A CSV field quoted when it holds a comma, a quote or a line end. */
static void csv_string(const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		tools_printf("%s", s);
		return;
	}
	tools_printf("\"");
	for (; *s; s++)
		tools_printf(*s == '"' ? "\"\"" : "%c", *s);
	tools_printf("\"");
}

static void csv_versus(const struct tageval_wsd_comparison *c, size_t s)
{
	tools_printf(",");
	csv_number(c[s].delta);
	tools_printf(",");
	csv_number(c[s].bootstrap_p);
	tools_printf(",");
	csv_number(c[s].randomization_p);
	tools_printf(",");
	csv_number(c[s].mcnemar_p);
}

static void print_compare_csv(const struct options *o, const struct tageval_wsd *w,
			      const struct sysfig *sf, const struct tageval_wsd_comparison *cmp,
			      const struct tageval_wsd_comparison *cmpb, size_t best,
			      const int *haspos)
{
	struct tageval_error err = { 0 };
	size_t nd = tageval_wsd_datasets(w);
	tools_printf("system");
	for (size_t d = 0; d < nd; d++) {
		const char *name;
		struct tageval_wsd_figures f;
		if (tageval_wsd_dataset(w, d, &name, &f, &err) == 0) {
			tools_printf(",");
			csv_string(name);
		}
	}
	tools_printf(",ALL");
	for (int p = 0; p < 4; p++)
		if (haspos[p])
			tools_printf(",%c", pos_names[p]);
	tools_printf(",best,delta,bootstrap_p,randomization_p,mcnemar_p");
	if (o->base != SIZE_MAX)
		tools_printf(",baseline,baseline_delta,baseline_bootstrap_p,"
			     "baseline_randomization_p,baseline_mcnemar_p");
	tools_printf("\n");
	for (size_t s = 0; s < o->nsystems; s++) {
		csv_string(o->names[s]);
		for (size_t d = 0; d < nd; d++) {
			tools_printf(",");
			csv_number(sf[s].ds[d].f1);
		}
		tools_printf(",");
		csv_number(sf[s].total.f1);
		for (int p = 0; p < 4; p++)
			if (haspos[p]) {
				tools_printf(",");
				csv_number(sf[s].pos[p].f1);
			}
		tools_printf(",%d", s == best);
		csv_versus(cmp, s);
		if (o->base != SIZE_MAX) {
			tools_printf(",%d", s == o->base);
			csv_versus(cmpb, s);
		}
		tools_printf("\n");
	}
}

/* --format=svg: one panel per group (the datasets, ALL, the parts of
 * speech), one bar per system, its length the F1, the marks of the text. */
#define SVG_BAR_W 460
#define SVG_RIGHT_W 70
#define SVG_TOP 92

static void svg_panel(const struct options *o, const char *group, size_t instances,
		      const struct tageval_wsd_figures *const *fig, char (*marks)[3],
		      size_t best, int y0, int name_w)
{
	int x0 = name_w + 10, h = (int)o->nsystems * SVG_ROW_H;
	tools_printf("<g class=\"panel\" data-group=\"");
	svg_xml_text(stdout, group);
	tools_printf("\">\n<text x=\"10\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", y0 + 18);
	svg_text_cut(stdout, group, 40);
	tools_printf(" (%zu instance%s)</text>\n", instances, instances == 1 ? "" : "s");
	svg_axis(stdout, x0, SVG_BAR_W, y0 + SVG_PANEL_HEAD - 6, y0 + SVG_PANEL_HEAD + h);
	size_t fit = (size_t)((name_w - 12) / SVG_CHAR_W) - 3; /* " *~" */
	for (size_t s = 0; s < o->nsystems; s++) {
		int y = y0 + SVG_PANEL_HEAD + (int)s * SVG_ROW_H;
		double f1 = fig[s]->f1;
		char buf[400];
		text_f1(buf, sizeof buf, f1);
		tools_printf("<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">", name_w,
			     y + SVG_BAR_H - 2);
		if (svg_chars(o->names[s]) > fit) {
			tools_printf("<title>");
			svg_xml_text(stdout, o->names[s]);
			tools_printf("</title>");
		}
		svg_text_cut(stdout, o->names[s], fit);
		tools_printf("%s%s</text>\n", marks[s][0] ? " " : "", marks[s]);
		tools_printf("<rect class=\"bar%s\" data-system=\"", s == best ? " best" : "");
		svg_xml_text(stdout, o->names[s]);
		tools_printf("\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
			     x0, y + 2, isnan(f1) ? 0.0 : f1 * SVG_BAR_W, SVG_BAR_H,
			     s == best ? "#1f4e8c" : "#4878b0");
		svg_xml_text(stdout, o->names[s]);
		tools_printf(": F1 %s, %zu of %zu answered</title></rect>\n", buf, fig[s]->answered,
			     fig[s]->instances);
		tools_printf("<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
			     x0 + SVG_BAR_W + 8, y + SVG_BAR_H - 2, buf);
	}
	tools_printf("</g>\n");
}

static void print_compare_svg(const struct options *o, const struct tageval_wsd *w,
			      const struct sysfig *sf, const struct tageval_wsd_comparison *cmp,
			      const struct tageval_wsd_comparison *cmpb, size_t best,
			      const int *haspos, const struct tageval_wsd_figures **fig,
			      char (*marks)[3])
{
	size_t nd = tageval_wsd_datasets(w), ngroups = nd + 1;
	for (int p = 0; p < 4; p++)
		ngroups += haspos[p] != 0;
	size_t longest = 0;
	for (size_t s = 0; s < o->nsystems; s++) {
		size_t m = 0;
		if (s != best && !(cmp[s].randomization_p < o->alpha) && o->samples > 0)
			marks[s][m++] = '*';
		if (base_mark(o, cmpb, s))
			marks[s][m++] = '~';
		marks[s][m] = '\0';
		size_t n = svg_chars(o->names[s]) + 3;
		longest = n > longest ? n : longest;
	}
	double nw = (double)longest * SVG_CHAR_W + 12;
	int name_w = nw < 120 ? 120 : nw > 370 ? 370 : (int)nw;
	int panel_h = SVG_PANEL_HEAD + (int)o->nsystems * SVG_ROW_H + 16;
	int width = name_w + 10 + SVG_BAR_W + SVG_RIGHT_W;
	int height = SVG_TOP + (int)ngroups * panel_h + 10;
	tools_printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		     "<title>wsd-score: F1 of each system</title>\n"
		     "<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
		     "<text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">F1 by dataset, "
		     "on ALL and by part of speech</text>\n"
		     "<rect x=\"10\" y=\"40\" width=\"14\" height=\"%d\" fill=\"#4878b0\"/>\n"
		     "<text x=\"30\" y=\"52\" font-size=\"12\">bar length = F1 (percent on the right; "
		     "the darker bar is the best on ALL)</text>\n"
		     "<text x=\"10\" y=\"74\" font-size=\"11\">", width, height, width, height,
		     width, height, SVG_BAR_H);
	if (o->samples > 0) {
		tools_printf("*: the best on ALL, ");
		svg_text_cut(stdout, o->names[best], 40);
		tools_printf(", does not significantly beat it (approximate randomization on ALL, p "
			     "&gt;= %g, %llu samples, seed %llu)", o->alpha, o->samples, o->seed);
		if (o->base != SIZE_MAX) {
			tools_printf("; ~: not significantly above ");
			svg_text_cut(stdout, o->names[o->base], 40);
		}
		tools_printf(".</text>\n");
	} else {
		tools_printf("No significance test (--samples=0).</text>\n");
	}
	int y0 = SVG_TOP;
	struct tageval_error err = { 0 };
	for (size_t d = 0; d <= nd; d++) {
		const char *name = "ALL";
		struct tageval_wsd_figures f;
		if (d < nd && tageval_wsd_dataset(w, d, &name, &f, &err))
			continue;
		for (size_t s = 0; s < o->nsystems; s++)
			fig[s] = d < nd ? &sf[s].ds[d] : &sf[s].total;
		svg_panel(o, name, fig[0]->instances, fig, marks, best, y0, name_w);
		y0 += panel_h;
	}
	static const char *const pos_title[] = { "n (nouns)", "v (verbs)", "a (adjectives)",
						 "r (adverbs)" };
	for (int p = 0; p < 4; p++) {
		if (!haspos[p])
			continue;
		for (size_t s = 0; s < o->nsystems; s++)
			fig[s] = &sf[s].pos[p];
		svg_panel(o, pos_title[p], fig[0]->instances, fig, marks, best, y0, name_w);
		y0 += panel_h;
	}
	tools_printf("</svg>\n");
}

static int run_compare(const struct options *o)
{
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_wsd *w = tageval_wsd_new();
	struct sysfig *sf = calloc(o->nsystems, sizeof *sf);
	struct tageval_wsd_comparison *cmp = calloc(2 * o->nsystems, sizeof *cmp);
	double *credit = NULL;
	unsigned char *answered = NULL;
	if (w == NULL || sf == NULL || cmp == NULL) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if (tageval_wsd_read_gold(w, o->gold, &err) ||
	    (o->data != NULL && tageval_wsd_read_data(w, o->data, &err))) {
		tools_print_error(prog, &err);
		goto out;
	}
	size_t n = tageval_wsd_instances(w), nd = tageval_wsd_datasets(w);
	if (o->nsystems > SIZE_MAX / n / sizeof *credit)
		goto nomem;
	credit = malloc(o->nsystems * n * sizeof *credit);
	answered = malloc(o->nsystems * n);
	if (credit == NULL || answered == NULL)
		goto nomem;
	int haspos[4] = { 0 };
	size_t best = 0;
	for (size_t s = 0; s < o->nsystems; s++) {
		sf[s].ds = calloc(nd + 1, sizeof *sf[s].ds);
		if (sf[s].ds == NULL)
			goto nomem;
		if (tageval_wsd_read_system(w, o->paths[s], o->flags, &err) ||
		    tageval_wsd_total(w, &sf[s].total, &err) ||
		    tageval_wsd_credits(w, credit + s * n, answered + s * n, &err)) {
			tools_print_error(prog, &err);
			goto out;
		}
		for (size_t d = 0; d < nd; d++) {
			const char *name;
			if (tageval_wsd_dataset(w, d, &name, &sf[s].ds[d], &err)) {
				tools_print_error(prog, &err);
				goto out;
			}
		}
		for (int p = 0; p < 4; p++) {
			if (tageval_wsd_pos(w, (enum tageval_wsd_pos)p, &sf[s].pos[p], &err)) {
				tools_print_error(prog, &err);
				goto out;
			}
			haspos[p] = sf[s].pos[p].instances > 0;
		}
		size_t a = tageval_wsd_answered(w);
		if (a < n)
			fprintf(stderr, "%s: note: %s: %zu of %zu gold instances have no answer\n",
				prog, o->names[s], n - a, n);
		if (tageval_wsd_unknown(w) > 0)
			fprintf(stderr, "%s: note: %s: %zu system line%s for ids the gold key lacks "
				"(ignored: --subset)\n", prog, o->names[s], tageval_wsd_unknown(w),
				tageval_wsd_unknown(w) == 1 ? "" : "s");
		/* the best: the highest F1 on ALL, the first of equals */
		double fb = sf[best].total.f1, fs = sf[s].total.f1;
		if (!isnan(fs) && (isnan(fb) || fs > fb))
			best = s;
	}
	/* against the best, and the baseline: one pass over shared samples */
	double *att = malloc(o->nsystems * n * sizeof *att);
	if (att == NULL)
		goto nomem;
	for (size_t i = 0; i < o->nsystems * n; i++)
		att[i] = answered[i];
	const size_t refs[2] = { best, o->base };
	int rc = tageval_compare(o->nsystems, n, credit, att, TAGEVAL_STATISTIC_F1, refs,
				 o->base != SIZE_MAX ? 2 : 1, (size_t)o->samples,
				 (unsigned long)o->seed, cmp, &err);
	free(att);
	if (rc) {
		tools_print_error(prog, &err);
		goto out;
	}
	const struct tageval_wsd_comparison *cmpb = cmp + o->nsystems;
	if (o->json)
		print_compare_json(o, w, sf, cmp, cmpb, best, haspos);
	else if (o->csv)
		print_compare_csv(o, w, sf, cmp, cmpb, best, haspos);
	else if (o->svg) {
		const struct tageval_wsd_figures **fig = malloc(o->nsystems * sizeof *fig);
		char (*marks)[3] = malloc(o->nsystems * sizeof *marks);
		if (fig == NULL || marks == NULL) {
			free(fig);
			free(marks);
			goto nomem;
		}
		print_compare_svg(o, w, sf, cmp, cmpb, best, haspos, fig, marks);
		free(fig);
		free(marks);
	}
	else
		print_compare_text(o, w, sf, cmp, cmpb, best, haspos);
	status = tools_exit_status(prog);
	goto out;
nomem:
	status = tools_out_of_memory(prog);
out:
	if (sf != NULL)
		for (size_t s = 0; s < o->nsystems; s++)
			free(sf[s].ds);
	free(sf);
	free(cmp);
	free(credit);
	free(answered);
	tageval_wsd_free(w);
	return status;
}

int tool_wsd_score_main(int argc, char **argv)
{
	struct options o = { .samples = 10000, .seed = 1, .alpha = 0.05, .base = SIZE_MAX };
	int status = parse(argc, argv, &o);
	if (status < 0)
		status = o.compare ? run_compare(&o) : run(&o);
	free(o.alloc[0]);
	free(o.alloc[1]);
	return status;
}
