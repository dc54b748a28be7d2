/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hkappa - agreement between annotators over a hierarchical tag set:
 * Melamed & Resnik's kappa over leaf distributions, Cohen's (or
 * Davies-Fleiss') kappa, Krippendorff's alpha, per lexelt, with bootstrap
 * confidence intervals.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "hkappa";

static void usage(FILE *fp)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] ANN1 ANN2 [ANN3 ...] SENSES\n"
		"       %s --flat [OPTIONS] ANN1 ANN2 [ANN3 ...]\n"
		"Agreement between annotators whose tags form a hierarchy (Melamed & Resnik):\n"
		"every tag is spread over the leaves below it, then kappa, Cohen's kappa and\n"
		"Krippendorff's alpha are computed over the leaves.\n"
		"Annotation files: 'lexelt instance tag[/weight] ...', any order.\n"
		"SENSES: a sense map, 'tag parent' or scorer2's 's0 b1 s1 ...' form.\n"
		"\n"
		"      --flat                no sense map: every tag is a leaf\n"
		"      --per-lexelt          a table of the figures of every lexelt\n"
		"      --bootstrap=N         N bootstrap replicates for confidence intervals\n"
		"      --seed=S              seed of the random number generator (default 1)\n"
		"      --confidence=C        level of the intervals (default 0.95)\n"
		"      --downward=CORPUS     estimate downward probabilities from a tagged corpus\n"
		"      --smoothing=A         add-A smoothing of those estimates (default 1)\n"
		"      --format=FORMAT       text (default) or json\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See hkappa(1) and tageval-formats(5).\n",
		prog, prog);
}

struct coef {
	const char *label;
	enum tageval_coefficient which;
};

static double value(const struct tageval_agreement_figures *f, enum tageval_coefficient w,
		    int *undefined)
{
	switch (w) {
	case TAGEVAL_KAPPA_SEPARATE:
		*undefined = f->separate_undefined;
		return f->kappa_separate;
	case TAGEVAL_ALPHA:
		*undefined = f->alpha_undefined;
		return f->alpha;
	default:
		*undefined = f->kappa_undefined;
		return f->kappa;
	}
}

/* Writes "member":v, null when @why says the figure is undefined or it is
 * not finite; a null is recorded in @u with its reason. */
static void json_member(struct tools_undefined *u, const char *sep, const char *member, double v,
			int why)
{
	tools_printf("%s\"%s\":", sep, member);
	if (why || !isfinite(v)) {
		fputs("null", stdout);
		tools_undefined_add(u, member, why ? tageval_undefined_reason(why) : "not a finite number");
	} else {
		tools_printf("%.17g", v);
	}
}

/* The "undefined" member of a figures object: always written, {} when
 * every figure is defined (hkappa's JSON since it had one). */
static void json_reasons(const struct tools_undefined *u)
{
	tools_printf(",\"undefined\":{");
	for (size_t i = 0; i < u->n; i++) {
		tools_printf("%s\"%s\":", i ? "," : "", u->member[i]);
		tools_json_string(stdout, u->reason[i]);
	}
	tools_printf("}");
}

static void json_figures(const struct tageval_agreement_figures *f)
{
	struct tools_undefined u;
	tools_undefined_init(&u);
	int none = f->items == 0 ? TAGEVAL_UNDEFINED_NO_ITEMS : TAGEVAL_DEFINED;
	tools_printf("{\"items\":%zu,\"annotations\":%zu,\"complete\":%zu", f->items,
		     f->annotations, f->complete);
	json_member(&u, ",", "pr_a", f->pr_a, none);
	json_member(&u, ",", "pr_e", f->pr_e, none);
	json_member(&u, ",", "kappa", f->kappa, f->kappa_undefined);
	json_member(&u, ",", "pr_e_cohen", f->pr_e_separate,
		    none ? none
			 : (f->separate_undefined == TAGEVAL_UNDEFINED_INCOMPLETE
				    ? TAGEVAL_UNDEFINED_INCOMPLETE
				    : TAGEVAL_DEFINED));
	json_member(&u, ",", "kappa_cohen", f->kappa_separate, f->separate_undefined);
	json_member(&u, ",", "d_o", f->d_o, none);
	json_member(&u, ",", "d_e", f->d_e, none);
	json_member(&u, ",", "alpha", f->alpha, f->alpha_undefined);
	json_reasons(&u);
	tools_printf("}");
}

static void print_json(const struct tageval_agreement *ag, char **files, size_t nann,
		       int per_lexelt, const struct tageval_agreement_options *o)
{
	const struct tageval_agreement_figures *f = tageval_agreement_pooled(ag);
	tools_printf("{\"annotators\":%zu,\"files\":[", nann);
	for (size_t c = 0; c < nann; c++) {
		if (c)
			putchar(',');
		tools_json_string(stdout, files[c]);
	}
	tools_printf("],\"items\":%zu,\"single\":[", f->items);
	for (size_t c = 0; c < nann; c++)
		tools_printf("%s%zu", c ? "," : "", tageval_agreement_single(ag, c));
	tools_printf("]");
	struct tools_undefined top;
	tools_undefined_init(&top);
	int none = f->items == 0 ? TAGEVAL_UNDEFINED_NO_ITEMS : TAGEVAL_DEFINED;
	json_member(&top, ",", "pr_a", f->pr_a, none);
	json_member(&top, ",", "pr_e", f->pr_e, none);
	json_member(&top, ",", "kappa", f->kappa, f->kappa_undefined);
	json_member(&top, ",", "kappa_cohen", f->kappa_separate, f->separate_undefined);
	json_member(&top, ",", "alpha", f->alpha, f->alpha_undefined);
	tools_printf(",\"pooled\":");
	json_figures(f);
	static const struct {
		const char *key;
		enum tageval_coefficient which;
	} coefs[] = { { "kappa", TAGEVAL_KAPPA },
		      { "kappa_cohen", TAGEVAL_KAPPA_SEPARATE },
		      { "alpha", TAGEVAL_ALPHA } };
	tools_printf(",\"macro\":{");
	struct tools_undefined mu;
	tools_undefined_init(&mu);
	for (size_t i = 0; i < 3; i++) {
		size_t used, out;
		double v = tageval_agreement_macro(ag, coefs[i].which, &used, &out);
		tools_printf("%s\"%s\":", i ? "," : "", coefs[i].key);
		if (used == 0 || !isfinite(v)) {
			fputs("null", stdout);
			tools_undefined_add(&mu, coefs[i].key,
					    "defined in no lexelt (see per_lexelt)");
		} else {
			tools_printf("%.17g", v);
		}
		tools_printf(",\"%s_lexelts\":%zu,\"%s_left_out\":%zu", coefs[i].key, used, coefs[i].key,
		       out);
	}
	tools_json_undefined(stdout, &mu);
	tools_printf("}");
	if (o->bootstrap > 0) {
		tools_printf(",\"bootstrap\":{\"replicates\":%zu,\"seed\":%lu,\"confidence\":%.17g",
		       o->bootstrap, o->seed, o->confidence);
		struct tools_undefined bu;
		tools_undefined_init(&bu);
		for (size_t i = 0; i < 3; i++) {
			double lo, hi;
			size_t reps;
			tools_printf(",\"%s\":", coefs[i].key);
			if (tageval_agreement_interval(ag, coefs[i].which, &lo, &hi, &reps) ==
			    TAGEVAL_OK) {
				tools_printf("[%.17g,%.17g]", lo, hi);
			} else {
				tools_printf("null");
				tools_undefined_add(&bu, coefs[i].key,
						    "defined in fewer than half the replicates");
			}
		}
		tools_json_undefined(stdout, &bu);
		tools_printf("}");
	}
	tools_printf(",\"per_lexelt\":");
	if (per_lexelt) {
		tools_printf("{");
		for (size_t i = 0; i < tageval_agreement_lexelts(ag); i++) {
			if (i)
				putchar(',');
			tools_json_string(stdout, tageval_agreement_lexelt_name(ag, i));
			putchar(':');
			json_figures(tageval_agreement_lexelt(ag, i));
		}
		tools_printf("}");
	} else {
		tools_printf("null");
	}
	tools_json_undefined(stdout, &top);
	tools_printf("}\n");
}

static void text_value(const char *label, double v, int undefined, const char *extra)
{
	if (undefined)
		tools_printf("%-28s undefined: %s\n", label, tageval_undefined_reason(undefined));
	else
		tools_printf("%-28s %9.6f%s\n", label, v, extra ? extra : "");
}

static void print_text(const struct tageval_agreement *ag, char **files, size_t nann,
		       int per_lexelt, const struct tageval_agreement_options *o)
{
	const struct tageval_agreement_figures *f = tageval_agreement_pooled(ag);
	const char *sep_label = nann == 2 ? "Cohen's kappa" : "Davies-Fleiss kappa";
	size_t single = 0;
	for (size_t c = 0; c < nann; c++)
		single += tageval_agreement_single(ag, c);
	tools_printf("%-28s %9zu\n", "annotators", nann);
	tools_printf("%-28s %9zu\n", "items used", f->items);
	tools_printf("%-28s %9zu", "items of one annotator only", single);
	if (single) {
		tools_printf("  (");
		for (size_t c = 0; c < nann; c++)
			tools_printf("%s%s: %zu", c ? ", " : "", files[c], tageval_agreement_single(ag, c));
		tools_printf(")");
	}
	tools_printf("\n");
	tools_printf("%-28s %9.6f\n", "observed agreement Pr(A)", f->pr_a);
	tools_printf("%-28s %9.6f\n", "chance agreement Pr(E)", f->pr_e);
	const struct coef coefs[] = { { "kappa", TAGEVAL_KAPPA },
				      { sep_label, TAGEVAL_KAPPA_SEPARATE },
				      { "Krippendorff's alpha", TAGEVAL_ALPHA } };
	for (size_t i = 0; i < 3; i++) {
		int undefined;
		double v = value(f, coefs[i].which, &undefined);
		char extra[128] = "";
		double lo, hi;
		if (i == 1 && !undefined)
			snprintf(extra, sizeof extra, "   (Pr(E) %.6f)", f->pr_e_separate);
		if (o->bootstrap > 0 && !undefined) {
			size_t n = strlen(extra);
			if (tageval_agreement_interval(ag, coefs[i].which, &lo, &hi, NULL) ==
			    TAGEVAL_OK)
				snprintf(extra + n, sizeof extra - n, "   %g%% CI [%.6f, %.6f]",
					 100.0 * o->confidence, lo, hi);
			else
				snprintf(extra + n, sizeof extra - n, "   no interval");
		}
		text_value(coefs[i].label, v, undefined, extra);
	}
	size_t nlex = tageval_agreement_lexelts(ag);
	if (nlex > 1) {
		size_t used, out;
		double v = tageval_agreement_macro(ag, TAGEVAL_KAPPA, &used, &out);
		char label[64];
		snprintf(label, sizeof label, "macro kappa (%zu lexelt%s)", used, used == 1 ? "" : "s");
		char extra[64] = "";
		if (used == 0)
			tools_printf("%-28s undefined: kappa is undefined in every lexelt (%zu left out)\n",
			       label, out);
		else {
			if (out)
				snprintf(extra, sizeof extra, "   (%zu left out: undefined)", out);
			text_value(label, v, 0, extra);
		}
	}
	if (o->bootstrap > 0)
		tools_printf("bootstrap: %zu replicates, seed %lu\n", o->bootstrap, o->seed);
	if (!per_lexelt)
		return;
	size_t w = 6;
	for (size_t i = 0; i < nlex; i++) {
		size_t len = strlen(tageval_agreement_lexelt_name(ag, i));
		if (len > w)
			w = len;
	}
	tools_printf("\n%-*s %7s %9s %9s %9s %9s %9s\n", (int)w, "lexelt", "items", "Pr(A)", "Pr(E)",
	       "kappa", nann == 2 ? "Cohen" : "D-F", "alpha");
	for (size_t i = 0; i < nlex; i++) {
		const struct tageval_agreement_figures *g = tageval_agreement_lexelt(ag, i);
		tools_printf("%-*s %7zu", (int)w, tageval_agreement_lexelt_name(ag, i), g->items);
		if (g->items == 0) {
			tools_printf(" %9s %9s %9s %9s %9s\n", "-", "-", "-", "-", "-");
			continue;
		}
		tools_printf(" %9.6f %9.6f", g->pr_a, g->pr_e);
		for (size_t k = 0; k < 3; k++) {
			int undefined;
			double v = value(g, coefs[k].which, &undefined);
			if (undefined)
				tools_printf(" %9s", "undef");
			else
				tools_printf(" %9.6f", v);
		}
		tools_printf("\n");
	}
}

enum { OPT_FLAT = 256, OPT_PER_LEXELT, OPT_BOOTSTRAP, OPT_SEED, OPT_CONFIDENCE,
       OPT_DOWNWARD, OPT_SMOOTHING, OPT_FORMAT };

int tool_hkappa_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "flat", no_argument, NULL, OPT_FLAT },
		{ "per-lexelt", no_argument, NULL, OPT_PER_LEXELT },
		{ "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "downward", required_argument, NULL, OPT_DOWNWARD },
		{ "smoothing", required_argument, NULL, OPT_SMOOTHING },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	int flat = 0, per_lexelt = 0, json = 0, c;
	const char *downward = NULL;
	double smoothing = 1.0;
	unsigned long long v;

	gsl_set_error_handler_off();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FLAT:
			flat = 1;
			break;
		case OPT_PER_LEXELT:
			per_lexelt = 1;
			break;
		case OPT_BOOTSTRAP:
			if (tools_parse_count(optarg, 100000000ull, &v)) {
				tools_usage_error(prog, "invalid number of replicates \"%s\"", optarg);
				return EXIT_INVALID_USAGE;
			}
			o.bootstrap = (size_t)v;
			break;
		case OPT_SEED:
			if (tools_parse_count(optarg, 0xffffffffull, &v)) {
				tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			o.seed = (unsigned long)v;
			break;
		case OPT_CONFIDENCE:
			if (tools_parse_real(optarg, &o.confidence) || !(o.confidence > 0.0) ||
			    !(o.confidence < 1.0)) {
				tools_usage_error(prog, "invalid confidence \"%s\" (between 0 and 1)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case OPT_DOWNWARD:
			downward = optarg;
			break;
		case OPT_SMOOTHING:
			if (!tools_parse_real(optarg, &smoothing) && smoothing > 1e12) {
				tools_usage_error(prog, "invalid smoothing \"%s\" (a number from 0 "
					     "to 1e12)", optarg);
				return EXIT_INVALID_USAGE;
			}
			if (tools_parse_real(optarg, &smoothing) || smoothing < 0.0) {
				tools_usage_error(prog, "invalid smoothing \"%s\" (a number >= 0)",
						  optarg);
				return EXIT_INVALID_USAGE;
			}
			break;
		case OPT_FORMAT:
			if (tools_parse_format(prog, optarg, &json))
				return EXIT_INVALID_USAGE;
			break;
		case 'h':
			usage(stdout);
			return tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
		case 'V':
			return tools_version(prog);
		default:
			return tools_option_error(prog, c, argv);
		}
	}
	int nargs = argc - optind;
	size_t nann = (size_t)nargs - (flat ? 0 : 1);
	if (nargs < (flat ? 2 : 3)) {
		tools_usage_error(prog, flat ? "two annotation files are needed"
					     : "two annotation files and a sense map are needed");
		return EXIT_INVALID_USAGE;
	}
	if (downward && flat) {
		tools_usage_error(prog, "--downward needs a sense map, not --flat");
		return EXIT_INVALID_USAGE;
	}
	char **files = argv + optind;
	const char *senses = flat ? NULL : argv[argc - 1];
	const char **inputs = malloc((nann + 2) * sizeof *inputs);
	if (inputs == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_DATA;
	}
	inputs[0] = senses;
	inputs[1] = downward;
	for (size_t i = 0; i < nann; i++)
		inputs[i + 2] = files[i];
	int bad_stdin = tools_check_stdin(prog, inputs, nann + 2);
	free(inputs);
	if (bad_stdin)
		return EXIT_INVALID_USAGE;

	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	if (inv == NULL || tageval_annotations_new(inv, &ann)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (senses && tageval_inventory_read_map(inv, senses, &err))
		goto fail;
	if (downward && tageval_inventory_estimate_downward(inv, downward, smoothing, &err))
		goto fail;
	for (size_t i = 0; i < nann; i++)
		if (tageval_annotations_read(ann, files[i], &err))
			goto fail;
	if (tageval_agreement_compute(ann, &o, &ag, &err))
		goto fail;
	if (json)
		print_json(ag, files, nann, per_lexelt, &o);
	else
		print_text(ag, files, nann, per_lexelt, &o);
	status = tools_close_stdout(prog) ? EXIT_DATA : EXIT_SUCCESS;
	goto out;
fail:
	tools_print_error(prog, &err);
out:
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
	return status;
}
