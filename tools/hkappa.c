/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hkappa - agreement between annotators over a hierarchical tag set:
 * Melamed & Resnik's kappa over leaf distributions, Cohen's (or
 * Davies-Fleiss') kappa, Krippendorff's alpha, per lexelt, with bootstrap
 * confidence intervals.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "tageval.h"
#include "tools-common.h"
#include "tools-main.h"

static const char prog[] = "hkappa";

static void usage(FILE *fp, const void *ctx)
{
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] ANN1 ANN2 [ANN3 ...] SENSES\n"
		"       %s --flat [OPTIONS] ANN1 ANN2 [ANN3 ...]\n"
		"       %s --long=FILE [OPTIONS] SENSES | --long=FILE --flat [OPTIONS]\n"
		"Agreement between annotators whose tags form a hierarchy (Melamed & Resnik):\n"
		"every tag is spread over the leaves below it, then kappa, Cohen's kappa and\n"
		"Krippendorff's alpha are computed over the leaves.\n"
		"Annotation files: 'lexelt instance tag[/weight] ...', any order.\n"
		"Long form: 'item annotator tag[/weight] ...' or 'item,annotator,tag'.\n"
		"SENSES: a sense map, 'tag parent' or scorer2's 's0 b1 s1 ...' form.\n"
		"\n"
		"      --flat                no sense map: every tag is a leaf\n"
		"      --long=FILE           every annotator's annotations from FILE, one\n"
		"                            'item annotator tag ...' line per annotation\n"
		"      --per-lexelt          a table of the figures of every lexelt\n"
		"      --bootstrap=N         N bootstrap replicates for confidence intervals\n"
		"      --seed=S              seed of the random number generator (default 1)\n"
		"      --confidence=C        level of the intervals (default 0.95)\n"
		"      --ci=METHOD           standard errors and intervals of every figure:\n"
		"                            analytic or bootstrap\n"
		"      --downward=CORPUS     estimate downward probabilities from a tagged corpus\n"
		"      --smoothing=A         add-A smoothing of those estimates (default 1)\n"
		"      --coefficients=LIST   also report these, comma-separated: gwet_ac1,\n"
		"                            gwet_ac2, brennan_prediger, conger_kappa,\n"
		"                            kappa_linear, kappa_quadratic, alpha_nominal,\n"
		"                            alpha_ordinal, alpha_interval, alpha_ratio,\n"
		"                            alpha_exact, alpha_jaccard, alpha_masi, or all\n"
		"      --distance=D          also alpha between sets of tags: exact, jaccard,\n"
		"                            masi (inner: the default alpha only)\n"
		"      --categories=N|map    q of AC1 and Brennan-Prediger (default: the labels;\n"
		"                            map: the leaves of the sense map)\n"
		"      --pairs               Cohen's kappa of every pair of annotators\n"
		"      --leave-one-out       the figures without each annotator in turn\n"
		"      --per-category        the specific agreement on each label\n"
		"      --items=N             the N items of least agreement\n"
		"      --level-of-hierarchy=L  every tag replaced by its ancestor at depth L\n"
		"                            (1 = coarse: the top-level tags)\n"
		"      --weights=FILE        Cohen's kappa and Gwet's AC2 with the distances\n"
		"                            of FILE (lines \"label1 label2 distance\")\n"
		"      --format=FORMAT       text (default) or json\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See hkappa(1) and tageval-formats(5).\n",
		prog, prog, prog);
}

/* The coefficients of --coefficients beyond the default three: the name
 * (JSON key), the label of the text report, the level of alpha. */
static const struct {
	const char *key, *label;
	int level; /* enum tageval_level, -1 - enum tageval_chance_coefficient,
		    * or 100 + enum tageval_set_distance */
} extra_coefs[] = {
	{ "gwet_ac1", "Gwet's AC1", -1 - TAGEVAL_GWET_AC1 },
	{ "gwet_ac2", "Gwet's AC2 (quadratic)", -1 - TAGEVAL_GWET_AC2 },
	{ "brennan_prediger", "Brennan-Prediger", -1 - TAGEVAL_BRENNAN_PREDIGER },
	{ "conger_kappa", "Conger's kappa", -1 - TAGEVAL_CONGER_KAPPA },
	{ "kappa_linear", "kappa, linear weights", -1 - TAGEVAL_KAPPA_LINEAR },
	{ "kappa_quadratic", "kappa, quadratic weights", -1 - TAGEVAL_KAPPA_QUADRATIC },
	{ "alpha_nominal", "alpha, nominal level", TAGEVAL_NOMINAL },
	{ "alpha_ordinal", "alpha, ordinal level", TAGEVAL_ORDINAL },
	{ "alpha_interval", "alpha, interval level", TAGEVAL_INTERVAL },
	{ "alpha_ratio", "alpha, ratio level", TAGEVAL_RATIO },
	{ "alpha_exact", "alpha, exact set distance", 100 + TAGEVAL_DISTANCE_EXACT },
	{ "alpha_jaccard", "alpha, Jaccard distance", 100 + TAGEVAL_DISTANCE_JACCARD },
	{ "alpha_masi", "alpha, MASI distance", 100 + TAGEVAL_DISTANCE_MASI },
};

/* The text report's labels of the figures of --weights. */
#define WEIGHTED_KAPPA_LABEL "kappa, weights of --weights"
#define WEIGHTED_AC2_LABEL "Gwet's AC2 (--weights)"

/* Cohen's kappa of a pair of annotators (--pairs). */
struct pair_figure {
	size_t items;
	double kappa;
	int why; /* enum tageval_undefined */
};

/* The extra coefficients' values, from either computation, and the pairs
 * ([first * nann + second], first < second; NULL without --pairs). */
struct extra_values {
	struct tageval_alpha_figures lv;
	struct tageval_chance_figures ch;
	struct tageval_set_alpha sets;
	struct pair_figure *pairs;
	struct tageval_agreement_figures *without; /* [k] (--leave-one-out) */
	struct tageval_standard_errors se;         /* --ci=analytic */
	struct tageval_category_agreement *cats;   /* --per-category */
	struct tageval_item_agreement *least;      /* --items */
	size_t nleast;
	int analytic;
	int weighted;                              /* --weights: wf computed */
	struct tageval_weighted_figures wf;
};

/* The analytic standard error of each JSON key that has one (--ci=analytic). */
static const struct {
	const char *key;
	int which; /* enum tageval_se_coefficient */
} se_keys[] = {
	{ "kappa", TAGEVAL_SE_KAPPA },
	{ "kappa_cohen", TAGEVAL_SE_KAPPA_COHEN },
	{ "gwet_ac1", TAGEVAL_SE_GWET_AC1 },
	{ "gwet_ac2", TAGEVAL_SE_GWET_AC2 },
	{ "brennan_prediger", TAGEVAL_SE_BRENNAN_PREDIGER },
	{ "kappa_linear", TAGEVAL_SE_KAPPA_LINEAR },
	{ "kappa_quadratic", TAGEVAL_SE_KAPPA_QUADRATIC },
};
#define N_SE_KEYS (sizeof se_keys / sizeof se_keys[0])

/* The index into se_keys of @key, or -1. */
static int se_index(const char *key)
{
	for (size_t i = 0; i < N_SE_KEYS; i++)
		if (strcmp(se_keys[i].key, key) == 0)
			return (int)i;
	return -1;
}

static const char *const se_method_name[] = { "fleiss-cohen-everitt", "gwet" };

/* The analytic standard error of the figure @key (the keys of se_keys and
 * those of --weights) into @se, @lo, @hi, @method, @why (its reason when
 * undefined); -1 when the figure has none. */
static int analytic_se(const struct extra_values *ev, const char *key, double *se, double *lo,
		       double *hi, int *method, int *why)
{
	const struct tageval_weighted_figures *wf = &ev->wf;
	if (ev->weighted && strcmp(key, "kappa_weighted") == 0) {
		*se = wf->kappa_se;
		*lo = wf->kappa_low;
		*hi = wf->kappa_high;
		*method = TAGEVAL_SE_FLEISS_COHEN_EVERITT;
		*why = wf->kappa_se_undefined;
		return 0;
	}
	if (ev->weighted && strcmp(key, "gwet_ac2_weighted") == 0) {
		*se = wf->ac2_se;
		*lo = wf->ac2_low;
		*hi = wf->ac2_high;
		*method = TAGEVAL_SE_GWET;
		*why = wf->ac2_se_undefined;
		return 0;
	}
	int i = se_index(key);
	if (i < 0)
		return -1;
	int c = se_keys[i].which;
	*se = ev->se.se[c];
	*lo = ev->se.low[c];
	*hi = ev->se.high[c];
	*method = ev->se.method[c];
	*why = ev->se.undefined[c];
	return 0;
}

static double extra_value(const struct extra_values *ev, size_t i, int *why)
{
	int l = extra_coefs[i].level;
	if (l >= 100) {
		*why = ev->sets.undefined[l - 100];
		return ev->sets.alpha[l - 100];
	}
	if (l >= 0) {
		*why = ev->lv.undefined[l];
		return ev->lv.alpha[l];
	}
	*why = ev->ch.undefined[-1 - l];
	return ev->ch.value[-1 - l];
}
#define N_EXTRA (sizeof extra_coefs / sizeof extra_coefs[0])

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
		tools_json_number(stdout, v);
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

/* The JSON name of the three coefficients, in the order they are printed. */
static const struct {
	const char *key;
	enum tageval_coefficient which;
} json_coefs[] = { { "kappa", TAGEVAL_KAPPA },
		   { "kappa_cohen", TAGEVAL_KAPPA_SEPARATE },
		   { "alpha", TAGEVAL_ALPHA } };

/* ,"macro":{...}: each coefficient's mean over the lexelts where it is defined. */
static void json_macro(const struct tageval_agreement *ag)
{
	tools_printf(",\"macro\":{");
	struct tools_undefined mu;
	tools_undefined_init(&mu);
	for (size_t i = 0; i < 3; i++) {
		size_t used, out;
		double v = tageval_agreement_macro(ag, json_coefs[i].which, &used, &out);
		tools_printf("%s\"%s\":", i ? "," : "", json_coefs[i].key);
		if (used == 0 || !isfinite(v)) {
			fputs("null", stdout);
			tools_undefined_add(&mu, json_coefs[i].key,
					    "defined in no lexelt (see per_lexelt)");
		} else {
			tools_json_number(stdout, v);
		}
		tools_printf(",\"%s_lexelts\":%zu,\"%s_left_out\":%zu", json_coefs[i].key, used,
			     json_coefs[i].key, out);
	}
	tools_json_undefined(stdout, &mu);
	tools_printf("}");
}

/* ,"bootstrap":{...}: the replicates and each coefficient's interval. */
static void json_bootstrap(const struct tageval_agreement *ag,
			   const struct tageval_agreement_options *o)
{
	tools_printf(",\"bootstrap\":{\"replicates\":%zu,\"seed\":%lu,\"confidence\":",
		     o->bootstrap, o->seed);
	tools_json_number(stdout, o->confidence);
	struct tools_undefined bu;
	tools_undefined_init(&bu);
	for (size_t i = 0; i < 3; i++) {
		double lo, hi;
		size_t reps;
		tools_printf(",\"%s\":", json_coefs[i].key);
		if (tageval_agreement_interval(ag, json_coefs[i].which, &lo, &hi, &reps) ==
		    TAGEVAL_OK) {
			putchar('[');
			tools_json_number(stdout, lo);
			putchar(',');
			tools_json_number(stdout, hi);
			putchar(']');
		} else {
			tools_printf("null");
			tools_undefined_add(&bu, json_coefs[i].key,
					    "defined in fewer than half the replicates");
		}
	}
	tools_json_undefined(stdout, &bu);
	tools_printf("}");
}

/* ,"leave_one_out":[...]: the figures without each annotator. */
static void json_leave_one_out(const struct tageval_agreement_figures *w, size_t nann)
{
	tools_printf(",\"leave_one_out\":[");
	for (size_t k = 0; k < nann; k++) {
		tools_printf("%s{\"without\":%zu,\"figures\":", k ? "," : "", k);
		json_figures(&w[k]);
		tools_printf("}");
	}
	tools_printf("]");
}

/* ,"per_category":{...}: the specific agreement of each label, or null
 * with the reason in @top. */
static void json_per_category(const struct tageval_category_agreement *ca,
			      struct tools_undefined *top)
{
	tools_printf(",\"per_category\":");
	if (ca->undefined) {
		tools_printf("null");
		tools_undefined_add(top, "per_category", tageval_undefined_reason(ca->undefined));
		return;
	}
	tools_printf("{");
	for (size_t i = 0; i < ca->n; i++) {
		const struct tageval_category_figure *c = &ca->cat[i];
		if (i)
			putchar(',');
		tools_json_string(stdout, c->label);
		tools_printf(":{\"annotations\":");
		tools_json_number(stdout, c->annotations);
		tools_printf(",\"pairs\":");
		tools_json_number(stdout, c->pairs);
		tools_printf(",\"agreeing\":");
		tools_json_number(stdout, c->agreeing);
		tools_printf(",\"agreement\":");
		tools_json_number(stdout, c->agreement);
		tools_printf("}");
	}
	tools_printf("}");
}

/* One annotation's entries sorted by tag (the library gives them in an
 * order that follows the lines), into new arrays; their number, or
 * (size_t)-1 out of memory. */
struct entry {
	const char *tag;
	double share;
};

static int by_tag(const void *x, const void *y)
{
	return strcmp(((const struct entry *)x)->tag, ((const struct entry *)y)->tag);
}

static size_t sorted_entries(const struct tageval_annotations *ann, size_t c, size_t item,
			     struct entry **out)
{
	size_t n = tageval_annotations_entries(ann, c, item, NULL, NULL, 0);
	*out = NULL;
	if (n == 0)
		return 0;
	const char **tags = malloc(n * sizeof *tags);
	double *shares = malloc(n * sizeof *shares);
	*out = malloc(n * sizeof **out);
	if (tags == NULL || shares == NULL || *out == NULL) {
		free(tags);
		free(shares);
		free(*out);
		*out = NULL;
		return (size_t)-1;
	}
	tageval_annotations_entries(ann, c, item, tags, shares, n);
	for (size_t j = 0; j < n; j++)
		(*out)[j] = (struct entry){ tags[j], shares[j] };
	qsort(*out, n, sizeof **out, by_tag);
	free(tags);
	free(shares);
	return n;
}

/* ,"least_agreement":[...]: the items of least agreement (--items), each
 * with its annotations, null where an annotator has none.  Nonzero: out of
 * memory. */
static int json_least(const struct tageval_annotations *ann, const struct extra_values *ev,
		      size_t nann)
{
	tools_printf(",\"least_agreement\":[");
	for (size_t i = 0; i < ev->nleast; i++) {
		const struct tageval_item_agreement *it = &ev->least[i];
		tools_printf("%s{\"item\":", i ? "," : "");
		tools_json_string(stdout, it->item);
		tools_printf(",\"agreement\":");
		tools_json_number(stdout, it->agreement);
		tools_printf(",\"annotations\":[");
		for (size_t c = 0; c < nann; c++) {
			struct entry *e;
			size_t n = sorted_entries(ann, c, it->index, &e);
			if (n == (size_t)-1)
				return -1;
			tools_printf("%s", c ? "," : "");
			if (n == 0) {
				tools_printf("null");
				continue;
			}
			tools_printf("{");
			for (size_t j = 0; j < n; j++) {
				if (j)
					putchar(',');
				tools_json_string(stdout, e[j].tag);
				putchar(':');
				tools_json_number(stdout, e[j].share);
			}
			tools_printf("}");
			free(e);
		}
		tools_printf("]}");
	}
	tools_printf("]");
	return 0;
}

/* ,"pairs":[...]: each pair of annotators (indices into "files"), the
 * items both annotated and their Cohen's kappa. */
static void json_pairs(const struct pair_figure *pf, size_t nann)
{
	tools_printf(",\"pairs\":[");
	int first = 1;
	for (size_t i = 0; i < nann; i++)
		for (size_t j = i + 1; j < nann; j++) {
			const struct pair_figure *p = &pf[i * nann + j];
			struct tools_undefined u;
			tools_undefined_init(&u);
			tools_printf("%s{\"annotators\":[%zu,%zu],\"items\":%zu", first ? "" : ",", i,
				     j, p->items);
			json_member(&u, ",", "kappa_cohen", p->kappa, p->why);
			json_reasons(&u);
			tools_printf("}");
			first = 0;
		}
	tools_printf("]");
}

/* With --ci: the members <key>_se, <key>_ci_low, <key>_ci_high and
 * <key>_ci_method of the figure @key (@which: its bootstrap coefficient, or
 * -1), null with the reason where there is none. */
/* The member names of the intervals of one object, kept until its
 * "undefined" object is written: one row per figure (kappa, kappa_cohen,
 * alpha and the extra coefficients), so never more rows than that. */
struct interval_names {
	char row[3 + N_EXTRA + 2][3][48]; /* + the two of --weights */
	size_t used;
};

static void json_interval(struct tools_undefined *u, struct interval_names *names,
			  const struct tageval_agreement *ag, const struct extra_values *ev,
			  const char *key, int which, int why)
{
	char member[64];
	double se = NAN, lo = NAN, hi = NAN;
	const char *method = NULL;
	int no = why;
	const char *reason = NULL;
	if (ev->analytic) {
		int m, sw;
		if (analytic_se(ev, key, &se, &lo, &hi, &m, &sw)) {
			reason = "no analytic standard error for this coefficient (see hkappa(1))";
		} else {
			if (!no)
				no = sw;
			method = se_method_name[m];
		}
	} else if (which < 0) {
		reason = "no bootstrap interval for this coefficient (see hkappa(1))";
	} else if (!no && tageval_agreement_interval(ag, (enum tageval_coefficient)which, &lo, &hi,
						     NULL) == TAGEVAL_OK) {
		method = "bootstrap";
	} else if (!no) {
		reason = "defined in fewer than half the replicates";
	}
	const char *suffix[] = { "_se", "_ci_low", "_ci_high" };
	const double v[] = { se, lo, hi };
	if (names->used == 3 + N_EXTRA + 2)
		abort(); /* a figure more than print_json() has */
	char (*name)[48] = names->row[names->used++];
	for (int k = 0; k < 3; k++) {
		snprintf(name[k], sizeof name[k], "%s%s", key, suffix[k]);
		const char *nm = name[k];
		if (k == 0 && !ev->analytic) {
			tools_printf(",\"%s\":null", nm);
			tools_undefined_add(u, nm, "the bootstrap gives no standard error");
			continue;
		}
		if (reason || no || method == NULL) {
			tools_printf(",\"%s\":null", nm);
			tools_undefined_add(u, nm,
					    reason ? reason : tageval_undefined_reason(no));
		} else {
			json_member(u, ",", nm, v[k], 0);
		}
	}
	snprintf(member, sizeof member, "%s_ci_method", key); /* a string: not in "undefined" */
	tools_printf(",\"%s\":", member);
	if (method && !reason && !no)
		tools_json_string(stdout, method);
	else
		tools_printf("null");
}

static int print_json(const struct tageval_agreement *ag, const struct tageval_annotations *ann,
		      char **files, size_t nann, int per_lexelt,
		      const struct tageval_agreement_options *o, unsigned more,
		      const struct extra_values *ev, int ci)
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
	struct interval_names names = { .used = 0 };
	int none = f->items == 0 ? TAGEVAL_UNDEFINED_NO_ITEMS : TAGEVAL_DEFINED;
	json_member(&top, ",", "pr_a", f->pr_a, none);
	json_member(&top, ",", "pr_e", f->pr_e, none);
	json_member(&top, ",", "kappa", f->kappa, f->kappa_undefined);
	if (ci)
		json_interval(&top, &names, ag, ev, "kappa", TAGEVAL_KAPPA, f->kappa_undefined);
	json_member(&top, ",", "kappa_cohen", f->kappa_separate, f->separate_undefined);
	if (ci)
		json_interval(&top, &names, ag, ev, "kappa_cohen", TAGEVAL_KAPPA_SEPARATE,
			      f->separate_undefined);
	json_member(&top, ",", "alpha", f->alpha, f->alpha_undefined);
	if (ci)
		json_interval(&top, &names, ag, ev, "alpha", TAGEVAL_ALPHA, f->alpha_undefined);
	for (size_t i = 0; i < N_EXTRA; i++)
		if (more & 1u << i) {
			int why;
			double v = extra_value(ev, i, &why);
			json_member(&top, ",", extra_coefs[i].key, v, why);
			if (ci)
				json_interval(&top, &names, ag, ev, extra_coefs[i].key, -1, why);
		}
	if (ev->weighted) {
		json_member(&top, ",", "kappa_weighted", ev->wf.kappa.value, ev->wf.kappa.undefined);
		if (ci)
			json_interval(&top, &names, ag, ev, "kappa_weighted", -1,
				      ev->wf.kappa.undefined);
		json_member(&top, ",", "gwet_ac2_weighted", ev->wf.ac2, ev->wf.ac2_undefined);
		if (ci)
			json_interval(&top, &names, ag, ev, "gwet_ac2_weighted", -1,
				      ev->wf.ac2_undefined);
	}
	if (ci) {
		tools_printf(",\"ci_confidence\":");
		tools_json_number(stdout, o->confidence);
	}
	tools_printf(",\"pooled\":");
	json_figures(f);
	json_macro(ag);
	if (o->bootstrap > 0)
		json_bootstrap(ag, o);
	if (ev->pairs)
		json_pairs(ev->pairs, nann);
	if (ev->without)
		json_leave_one_out(ev->without, nann);
	if (ev->cats)
		json_per_category(ev->cats, &top);
	if (ev->least && json_least(ann, ev, nann))
		return -1;
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
	return 0;
}

static void text_value(const char *label, double v, int undefined, const char *extra)
{
	if (undefined)
		tools_printf("%-28s undefined: %s\n", label, tageval_undefined_reason(undefined));
	else
		tools_printf("%-28s %9.6f%s\n", label, v, extra ? extra : "");
}

/* The table of the figures of every lexelt (--per-lexelt). */
static void print_lexelt_table(const struct tageval_agreement *ag, size_t nann,
			       const struct coef coefs[3])
{
	size_t nlex = tageval_agreement_lexelts(ag);
	size_t w = 6;
	for (size_t i = 0; i < nlex; i++) {
		size_t len = (size_t)tools_display_width(tageval_agreement_lexelt_name(ag, i));
		if (len > w)
			w = len;
	}
	tools_printf("\n%-*s %7s %9s %9s %9s %9s %9s\n", (int)w, "lexelt", "items", "Pr(A)", "Pr(E)",
	       "pooled", nann == 2 ? "Cohen" : "D-F", "alpha");
	for (size_t i = 0; i < nlex; i++) {
		const struct tageval_agreement_figures *g = tageval_agreement_lexelt(ag, i);
		tools_pad(stdout, tageval_agreement_lexelt_name(ag, i), (int)w);
		tools_printf(" %7zu", g->items);
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

/* The matrix of Cohen's kappa of every pair of annotators (--pairs),
 * annotators numbered from 1 in the order of the operands. */
static void print_pairs(const struct pair_figure *pf, char **files, size_t nann)
{
	tools_printf("\nCohen's kappa of each pair of annotators:\n");
	for (size_t i = 0; i < nann; i++)
		tools_printf("%7zu  %s\n", i + 1, files[i]);
	tools_printf("%7s", "");
	for (size_t j = 0; j < nann; j++)
		tools_printf(" %9zu", j + 1);
	tools_printf("\n");
	for (size_t i = 0; i < nann; i++) {
		tools_printf("%7zu", i + 1);
		for (size_t j = 0; j < nann; j++) {
			if (i == j) {
				tools_printf(" %9s", "-");
				continue;
			}
			const struct pair_figure *p = &pf[i < j ? i * nann + j : j * nann + i];
			if (p->why)
				tools_printf(" %9s", "undef");
			else
				tools_printf(" %9.6f", p->kappa);
		}
		tools_printf("\n");
	}
}

/* The specific agreement of each label (--per-category). */
static void print_per_category(const struct tageval_category_agreement *ca)
{
	if (ca->undefined) {
		tools_printf("\nagreement per category undefined: %s\n",
			     tageval_undefined_reason(ca->undefined));
		return;
	}
	size_t width = 8;
	for (size_t i = 0; i < ca->n; i++) {
		size_t len = (size_t)tools_display_width(ca->cat[i].label);
		if (len > width)
			width = len;
	}
	tools_printf("\nspecific agreement per category:\n%-*s %11s %11s %9s\n", (int)width,
		     "category", "annotations", "pairs", "agreement");
	for (size_t i = 0; i < ca->n; i++) {
		const struct tageval_category_figure *c = &ca->cat[i];
		tools_pad(stdout, c->label, (int)width);
		tools_printf(" %11g %11g %9.6f\n", c->annotations, c->pairs, c->agreement);
	}
}

/* The items of least agreement (--items), with the annotation of each
 * annotator (numbered from 1 as the operands; "-" for none).  Nonzero: out
 * of memory. */
static int print_least(const struct tageval_annotations *ann, const struct extra_values *ev,
		       size_t nann)
{
	tools_printf("\nitems of least agreement:\n%9s  %s\n", "agreement",
		     "item  annotator: tag[/share] ...");
	for (size_t i = 0; i < ev->nleast; i++) {
		const struct tageval_item_agreement *it = &ev->least[i];
		tools_printf("%9.6f  %s ", it->agreement, it->item);
		for (size_t c = 0; c < nann; c++) {
			struct entry *e;
			size_t n = sorted_entries(ann, c, it->index, &e);
			if (n == (size_t)-1)
				return -1;
			tools_printf(" %zu:", c + 1);
			if (n == 0)
				tools_printf(" -");
			for (size_t j = 0; j < n; j++) {
				tools_printf(" %s", e[j].tag);
				if (n > 1)
					tools_printf("/%g", e[j].share);
			}
			free(e);
		}
		tools_printf("\n");
	}
	return 0;
}

/* The table of the figures without each annotator (--leave-one-out). */
static void print_leave_one_out(const struct tageval_agreement_figures *w, char **files,
				size_t nann)
{
	size_t width = 7;
	for (size_t k = 0; k < nann; k++) {
		size_t len = (size_t)tools_display_width(files[k]);
		if (len > width)
			width = len;
	}
	tools_printf("\n%-*s %7s %9s %9s %9s\n", (int)width, "without", "items", "kappa",
		     nann - 1 == 2 ? "Cohen" : "D-F", "alpha");
	for (size_t k = 0; k < nann; k++) {
		const struct tageval_agreement_figures *g = &w[k];
		tools_pad(stdout, files[k], (int)width);
		tools_printf(" %7zu", g->items);
		const enum tageval_coefficient which[] = { TAGEVAL_KAPPA, TAGEVAL_KAPPA_SEPARATE,
							   TAGEVAL_ALPHA };
		for (size_t i = 0; i < 3; i++) {
			int undefined;
			double v = value(g, which[i], &undefined);
			if (undefined)
				tools_printf(" %9s", "undef");
			else
				tools_printf(" %9.6f", v);
		}
		tools_printf("\n");
	}
}

/* One line of the table of analytic standard errors: the figure @key. */
static void analytic_line(const struct extra_values *ev, const char *label, const char *key,
			  int why)
{
	double se, lo, hi;
	int method, sw;
	if (analytic_se(ev, key, &se, &lo, &hi, &method, &sw)) {
		tools_printf("%-28s no analytic standard error\n", label);
		return;
	}
	if (!why)
		why = sw;
	if (why)
		tools_printf("%-28s undefined: %s\n", label, tageval_undefined_reason(why));
	else
		tools_printf("%-28s SE %.6f   [%.6f, %.6f]   %s\n", label, se, lo, hi,
			     method == TAGEVAL_SE_GWET ? "Gwet" : "Fleiss-Cohen-Everitt");
}

/* The analytic standard errors and intervals of the figures reported, in
 * their order (--ci=analytic). */
static void print_analytic(const struct tageval_agreement_figures *f, size_t nann, unsigned more,
			   const struct tageval_agreement_options *o,
			   const struct extra_values *ev)
{
	tools_printf("\nanalytic standard errors, %g%% intervals:\n", 100.0 * o->confidence);
	analytic_line(ev, "pooled kappa (Scott/Fleiss)", "kappa", f->kappa_undefined);
	analytic_line(ev, nann == 2 ? "Cohen's kappa" : "Davies-Fleiss kappa", "kappa_cohen",
		      f->separate_undefined);
	analytic_line(ev, "Krippendorff's alpha", "alpha", f->alpha_undefined);
	for (size_t k = 0; k < N_EXTRA; k++)
		if (more & 1u << k) {
			int why;
			(void)extra_value(ev, k, &why);
			analytic_line(ev, extra_coefs[k].label, extra_coefs[k].key, why);
		}
	if (ev->weighted) {
		analytic_line(ev, WEIGHTED_KAPPA_LABEL, "kappa_weighted", ev->wf.kappa.undefined);
		analytic_line(ev, WEIGHTED_AC2_LABEL, "gwet_ac2_weighted", ev->wf.ac2_undefined);
	}
}

static int print_text(const struct tageval_agreement *ag, const struct tageval_annotations *ann,
		      char **files, size_t nann, int per_lexelt,
		      const struct tageval_agreement_options *o, unsigned more,
		      const struct extra_values *ev)
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
	const struct coef coefs[] = { { "pooled kappa (Scott/Fleiss)", TAGEVAL_KAPPA },
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
	for (size_t i = 0; i < N_EXTRA; i++)
		if (more & 1u << i) {
			int why;
			double v = extra_value(ev, i, &why);
			text_value(extra_coefs[i].label, v, why, NULL);
		}
	if (ev->weighted) {
		text_value(WEIGHTED_KAPPA_LABEL, ev->wf.kappa.value, ev->wf.kappa.undefined, NULL);
		text_value(WEIGHTED_AC2_LABEL, ev->wf.ac2, ev->wf.ac2_undefined, NULL);
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
	if (ev->analytic)
		print_analytic(f, nann, more, o, ev);
	if (ev->pairs)
		print_pairs(ev->pairs, files, nann);
	if (ev->without)
		print_leave_one_out(ev->without, files, nann);
	if (ev->cats)
		print_per_category(ev->cats);
	if (ev->least && print_least(ann, ev, nann))
		return -1;
	if (per_lexelt)
		print_lexelt_table(ag, nann, coefs);
	return 0;
}

struct options {
	struct tageval_agreement_options agreement;
	int flat, per_lexelt, json, pairs, leave_one_out;
	int ci;               /* --ci: 0 none, 1 analytic, 2 bootstrap */
	int per_category;
	size_t items;         /* --items, 0: none */
	size_t level;         /* --level-of-hierarchy, 0: none */
	const char *downward; /* NULL: none */
	double smoothing;
	char **files;         /* the annotation files (--long: the annotators' names) */
	const char *long_file; /* --long, NULL: none */
	size_t nann;
	const char *senses;   /* the sense map, NULL with --flat */
	unsigned extra;       /* --coefficients: bit i = extra_coefs[i] */
	size_t categories;    /* --categories, 0: the distinct labels */
	int categories_map;   /* --categories=map: the leaves of the sense map */
	const char *weights;  /* --weights, NULL: none */
};

enum { OPT_FLAT = 256, OPT_PER_LEXELT, OPT_BOOTSTRAP, OPT_SEED, OPT_CONFIDENCE,
       OPT_DOWNWARD, OPT_SMOOTHING, OPT_FORMAT, OPT_COEFFICIENTS, OPT_CATEGORIES, OPT_DISTANCE,
       OPT_PAIRS, OPT_LEAVE_ONE_OUT, OPT_CI, OPT_PER_CATEGORY, OPT_ITEMS, OPT_LEVEL,
       OPT_LONG, OPT_WEIGHTS };

/* --coefficients=LIST: names separated by commas; the default three are
 * always reported (naming them changes nothing), "all" names every one. */
static int parse_coefficients(const char *arg, unsigned *extra)
{
	static const char *const always[] = { "kappa", "kappa_cohen", "alpha", "default" };
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		int found = 0;
		if (len == 3 && strncmp(p, "all", 3) == 0) {
			*extra |= (1u << N_EXTRA) - 1;
			found = 1;
		}
		for (size_t i = 0; !found && i < N_EXTRA; i++)
			if (strlen(extra_coefs[i].key) == len &&
			    strncmp(p, extra_coefs[i].key, len) == 0) {
				*extra |= 1u << i;
				found = 1;
			}
		for (size_t i = 0; !found && i < sizeof always / sizeof always[0]; i++)
			if (strlen(always[i]) == len && strncmp(p, always[i], len) == 0)
				found = 1;
		if (!found) {
			tools_usage_error(prog, "invalid coefficient \"%.*s\" in \"%s\" (see hkappa(1))",
					  (int)len, p, arg);
			return -1;
		}
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* --smoothing=A: a number from 0 to 1e12; 0 or -1 after the usage error. */
static int parse_smoothing(const char *arg, double *smoothing)
{
	if (!tools_parse_real(arg, smoothing) && *smoothing > 1e12) {
		tools_usage_error(prog, "invalid smoothing \"%s\" (a number from 0 to 1e12)", arg);
		return -1;
	}
	if (tools_parse_real(arg, smoothing) || *smoothing < 0.0) {
		tools_usage_error(prog, "invalid smoothing \"%s\" (a number >= 0)", arg);
		return -1;
	}
	return 0;
}

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	unsigned long long v;
	switch (c) {
	case OPT_FLAT:
		o->flat = 1;
		return 0;
	case OPT_PER_LEXELT:
		o->per_lexelt = 1;
		return 0;
	case OPT_PAIRS:
		o->pairs = 1;
		return 0;
	case OPT_LONG:
		o->long_file = arg;
		return 0;
	case OPT_WEIGHTS:
		o->weights = arg;
		return 0;
	case OPT_LEAVE_ONE_OUT:
		o->leave_one_out = 1;
		return 0;
	case OPT_ITEMS:
		if (tools_parse_count(arg, 0xffffffffull, &v) || v < 1) {
			tools_usage_error(prog, "invalid number of items \"%s\" (1 to 4294967295)",
					  arg);
			return -1;
		}
		o->items = (size_t)v;
		return 0;
	case OPT_LEVEL:
		if (strcmp(arg, "coarse") == 0) {
			o->level = 1;
			return 0;
		}
		if (tools_parse_count(arg, 0xffffffffull, &v) || v < 1) {
			tools_usage_error(prog, "invalid level \"%s\" (coarse or a depth from 1 to "
					  "4294967295)", arg);
			return -1;
		}
		o->level = (size_t)v;
		return 0;
	case OPT_PER_CATEGORY:
		o->per_category = 1;
		return 0;
	case OPT_CI:
		if (strcmp(arg, "analytic") == 0) {
			o->ci = 1;
			return 0;
		}
		if (strcmp(arg, "bootstrap") == 0) {
			o->ci = 2;
			return 0;
		}
		tools_usage_error(prog, "invalid interval method \"%s\" (analytic or bootstrap)",
				  arg);
		return -1;
	case OPT_BOOTSTRAP:
		if (tools_parse_count(arg, 100000000ull, &v)) {
			tools_usage_error(prog, "invalid number of replicates \"%s\"", arg);
			return -1;
		}
		o->agreement.bootstrap = (size_t)v;
		return 0;
	case OPT_SEED:
		if (tools_parse_count(arg, 0xffffffffull, &v)) {
			tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", arg);
			return -1;
		}
		o->agreement.seed = (unsigned long)v;
		return 0;
	case OPT_CONFIDENCE:
		if (tools_parse_real(arg, &o->agreement.confidence) ||
		    !(o->agreement.confidence > 0.0) || !(o->agreement.confidence < 1.0)) {
			tools_usage_error(prog, "invalid confidence \"%s\" (between 0 and 1)", arg);
			return -1;
		}
		return 0;
	case OPT_DOWNWARD:
		o->downward = arg;
		return 0;
	case OPT_SMOOTHING:
		return parse_smoothing(arg, &o->smoothing);
	case OPT_COEFFICIENTS:
		return parse_coefficients(arg, &o->extra);
	case OPT_DISTANCE:
		/* inner: the alpha of the report; the others add their alpha */
		if (strcmp(arg, "inner") == 0)
			return 0;
		for (size_t i = 0; i < N_EXTRA; i++)
			if (extra_coefs[i].level >= 100 && strcmp(arg, extra_coefs[i].key + 6) == 0) {
				o->extra |= 1u << i;
				return 0;
			}
		tools_usage_error(prog, "invalid distance \"%s\" (inner, exact, jaccard or masi)",
				  arg);
		return -1;
	case OPT_CATEGORIES:
		if (strcmp(arg, "map") == 0) {
			o->categories_map = 1;
			return 0;
		}
		o->categories_map = 0;
		if (tools_parse_count(arg, 0xffffffffull, &v) || v < 2) {
			tools_usage_error(prog, "invalid number of categories \"%s\" (2 to 4294967295)",
					  arg);
			return -1;
		}
		o->categories = (size_t)v;
		return 0;
	default: /* OPT_FORMAT */
		return tools_parse_format(prog, arg, &o->json);
	}
}

/* Parses the command line; returns -1 to go on, or the exit status. */
static int parse(int argc, char **argv, struct options *o)
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
		{ "coefficients", required_argument, NULL, OPT_COEFFICIENTS },
		{ "categories", required_argument, NULL, OPT_CATEGORIES },
		{ "distance", required_argument, NULL, OPT_DISTANCE },
		{ "pairs", no_argument, NULL, OPT_PAIRS },
		{ "leave-one-out", no_argument, NULL, OPT_LEAVE_ONE_OUT },
		{ "ci", required_argument, NULL, OPT_CI },
		{ "per-category", no_argument, NULL, OPT_PER_CATEGORY },
		{ "items", required_argument, NULL, OPT_ITEMS },
		{ "level-of-hierarchy", required_argument, NULL, OPT_LEVEL },
		{ "long", required_argument, NULL, OPT_LONG },
		{ "weights", required_argument, NULL, OPT_WEIGHTS },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	int nargs = argc - optind;
	if (o->long_file && (o->flat ? nargs > 0 : nargs != 1)) {
		tools_usage_error(prog, o->flat ? "--long with --flat takes no operand (the "
						  "annotations are all in the --long file)"
						: nargs == 0 ? "--long needs a sense map (or --flat)"
							     : "--long takes one operand, the sense map "
							       "(the annotations are all in the --long "
							       "file)");
		return EXIT_INVALID_USAGE;
	}
	if (!o->long_file &&
	    tools_check_operands(prog, nargs, o->flat ? 2 : 3, -1,
				 o->flat ? "two annotation files are needed"
					 : "two annotation files and a sense map are needed"))
		return EXIT_INVALID_USAGE;
	if (o->categories_map && (o->flat || o->level)) {
		tools_usage_error(prog, "--categories=map needs a sense map, without --flat or "
				  "--level-of-hierarchy");
		return EXIT_INVALID_USAGE;
	}
	if (o->level && (o->flat || o->downward)) {
		tools_usage_error(prog, "--level-of-hierarchy needs a sense map, without --flat "
				  "or --downward");
		return EXIT_INVALID_USAGE;
	}
	if (o->downward && o->flat) {
		tools_usage_error(prog, "--downward needs a sense map, not --flat");
		return EXIT_INVALID_USAGE;
	}
	if (o->ci == 2 && o->agreement.bootstrap == 0)
		o->agreement.bootstrap = 1000; /* --ci=bootstrap: 1000 replicates unless told */
	o->files = argv + optind;
	o->nann = (size_t)nargs - (o->flat ? 0 : 1);
	if (o->leave_one_out && o->nann < 3 && !o->long_file) {
		tools_usage_error(prog, "--leave-one-out needs three or more annotation files");
		return EXIT_INVALID_USAGE;
	}
	o->senses = o->flat ? NULL : argv[argc - 1];
	const char *const others[] = { o->senses, o->downward, o->long_file, o->weights };
	size_t users = tools_stdin_count(others, 4) +
		       tools_stdin_count((const char *const *)o->files, o->nann);
	if (tools_stdin_check(prog, users))
		return EXIT_INVALID_USAGE;
	return -1;
}

/* Cohen's kappa of every pair of annotators into a new *@out (see struct
 * extra_values), without bootstrap; a pair without a common item is
 * undefined.  Nonzero on error, with @err set. */
static int pair_figures(const struct tageval_annotations *ann, const struct options *o,
			struct pair_figure **out, struct tageval_error *err)
{
	size_t n = o->nann;
	struct pair_figure *pf = calloc(n * n, sizeof *pf);
	if (pf == NULL) {
		err->code = TAGEVAL_ENOMEM;
		snprintf(err->message, sizeof err->message, "out of memory");
		return -1;
	}
	struct tageval_agreement_options po = o->agreement;
	po.bootstrap = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			struct pair_figure *p = &pf[i * n + j];
			struct tageval_agreement *ag = NULL;
			const size_t two[2] = { i, j };
			int rc = tageval_agreement_subset(ann, two, 2, &po, &ag, err);
			if (rc == TAGEVAL_ENOTFOUND) {
				*p = (struct pair_figure){ 0, NAN, TAGEVAL_UNDEFINED_NO_ITEMS };
				continue;
			}
			if (rc) {
				free(pf);
				return -1;
			}
			const struct tageval_agreement_figures *f = tageval_agreement_pooled(ag);
			*p = (struct pair_figure){ f->items, f->kappa_separate, f->separate_undefined };
			tageval_agreement_free(ag);
		}
	*out = pf;
	return 0;
}

/* The pooled figures without each annotator in turn into a new *@out
 * ([k]: without annotator k), without bootstrap; where the others share
 * no item, the figures of no item.  Nonzero on error, with @err set. */
static int without_figures(const struct tageval_annotations *ann, const struct options *o,
			   struct tageval_agreement_figures **out, struct tageval_error *err)
{
	size_t n = o->nann;
	struct tageval_agreement_figures *w = calloc(n, sizeof *w);
	size_t *which = malloc(n * sizeof *which);
	if (w == NULL || which == NULL) {
		free(w);
		free(which);
		err->code = TAGEVAL_ENOMEM;
		snprintf(err->message, sizeof err->message, "out of memory");
		return -1;
	}
	struct tageval_agreement_options po = o->agreement;
	po.bootstrap = 0;
	for (size_t k = 0; k < n; k++) {
		size_t m = 0;
		for (size_t c = 0; c < n; c++)
			if (c != k)
				which[m++] = c;
		struct tageval_agreement *ag = NULL;
		int rc = tageval_agreement_subset(ann, which, m, &po, &ag, err);
		if (rc == TAGEVAL_ENOTFOUND) {
			w[k] = (struct tageval_agreement_figures){ 0 };
			w[k].pr_a = w[k].pr_e = w[k].pr_e_separate = w[k].d_o = w[k].d_e = NAN;
			w[k].kappa = w[k].kappa_separate = w[k].alpha = NAN;
			w[k].kappa_undefined = w[k].separate_undefined = w[k].alpha_undefined =
				TAGEVAL_UNDEFINED_NO_ITEMS;
			continue;
		}
		if (rc) {
			free(w);
			free(which);
			return -1;
		}
		w[k] = *tageval_agreement_pooled(ag);
		tageval_agreement_free(ag);
	}
	free(which);
	*out = w;
	return 0;
}

/*
 * The passes over the items after reading, each on its own (they only read
 * @ann): the main figures (tageval_agreement_compute()), the chance and
 * alpha family (@want & 3) and the set alpha (@want & 4).  With a second
 * core and two or more passes, the main figures (and the set alpha when the
 * chance family runs too) on a second thread, the rest here: every figure
 * is computed as it would be alone, so its bits do not change.  Without a
 * second core, or when the thread cannot start, all of them here, in turn.
 * An error: the first in the order main figures, chance family, set alpha
 * (the one the passes in turn stop at).
 */
struct side_pass {
	const struct tageval_annotations *ann;
	const struct tageval_agreement_options *opts;
	int sets;                          /* the set alpha too */
	struct tageval_agreement *ag;
	struct tageval_set_alpha *out;
	int rc, sets_rc;
	struct tageval_error err, sets_err;
};

/* The processors online, or 1 where the system does not say (the passes
 * then run in turn). */
static long online_cpus(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	return sysconf(_SC_NPROCESSORS_ONLN);
#else
	return 1;
#endif
}

static void *side_run(void *arg)
{
	struct side_pass *p = arg;
	p->rc = tageval_agreement_compute(p->ann, p->opts, &p->ag, &p->err);
	if (p->rc == TAGEVAL_OK && p->sets)
		p->sets_rc = tageval_agreement_alpha_sets(p->ann, p->out, &p->sets_err);
	return NULL;
}

static int chance_family(const struct tageval_annotations *ann, unsigned want, unsigned levels,
			 size_t categories, struct extra_values *ev, struct tageval_error *err)
{
	if ((want & 3u) == 3u) /* both families in one pass over the items */
		return tageval_agreement_chance_alpha(ann, categories, levels, &ev->ch, &ev->lv,
						      err);
	if (want & 1u)
		return tageval_agreement_alpha_levels(ann, levels, &ev->lv, err);
	if (want & 2u)
		return tageval_agreement_chance(ann, categories, &ev->ch, err);
	return TAGEVAL_OK;
}

static int compute_families(const struct tageval_annotations *ann,
			    const struct tageval_agreement_options *opts, unsigned want,
			    unsigned levels, size_t categories, struct tageval_agreement **ag,
			    struct extra_values *ev, struct tageval_error *err)
{
	int rc;
	struct side_pass p = { .ann = ann, .opts = opts, .out = &ev->sets,
			       .sets = (want & 3u) && (want & 4u) };
	pthread_t tid;
	if ((want & 7u) == 0 || online_cpus() < 2 ||
	    pthread_create(&tid, NULL, side_run, &p) != 0) {
		/* in turn */
		if ((rc = tageval_agreement_compute(ann, opts, ag, err)) ||
		    (rc = chance_family(ann, want, levels, categories, ev, err)))
			return rc;
		return (want & 4u) ? tageval_agreement_alpha_sets(ann, &ev->sets, err) : TAGEVAL_OK;
	}
	/* here: the chance family, or else the set alpha */
	int here = 0;
	struct tageval_error here_err = { 0 };
	if (want & 3u)
		here = chance_family(ann, want, levels, categories, ev, &here_err);
	else
		here = tageval_agreement_alpha_sets(ann, &ev->sets, &here_err);
	pthread_join(tid, NULL);
	*ag = p.ag;
	if (p.rc) {
		*err = p.err;
		return p.rc;
	}
	if (here) {
		*err = here_err;
		return here;
	}
	if (p.sets_rc)
		*err = p.sets_err;
	return p.sets_rc;
}

/* Reads the files, computes the agreement and prints it; returns the exit
 * status. */
static int run(const struct options *opt)
{
	struct options oo = *opt;
	struct options *o = &oo; /* --long: o->files and o->nann once read */
	char **names = NULL;
	int status = EXIT_DATA;
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	/* with --level-of-hierarchy the annotations' tags are flat, in their own inventory */
	struct tageval_inventory *ainv = o->level ? tageval_inventory_new() : inv;
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	struct extra_values ev;
	memset(&ev, 0, sizeof ev);
	if (inv == NULL || ainv == NULL || tageval_annotations_new(ainv, &ann)) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	if (o->senses && tageval_inventory_read_map(inv, o->senses, &err)) {
		/* the last operand is read as the map: an annotation file given
		 * there, without --flat, fails with a message about sense maps */
		tools_print_error(prog, &err);
		fprintf(stderr, "%s: note: %s was read as the sense map (SENSES, the last operand); "
			"without a sense map, give --flat\n", prog, tools_file_name(o->senses));
		goto out;
	}
	if (o->downward &&
	    tageval_inventory_estimate_downward(inv, o->downward, o->smoothing, &err))
		goto fail;
	size_t categories = o->categories;
	if (o->categories_map) {
		categories = tageval_inventory_leaves(inv);
		if (categories < 2) {
			fprintf(stderr, "%s: %s: --categories=map: the sense map has %zu leaf tag%s, "
				"2 or more are needed\n", prog, tools_file_name(o->senses),
				categories, categories == 1 ? "" : "s");
			goto out;
		}
	}
	if (o->level && tageval_annotations_set_level(ann, inv, o->level, &err)) {
		if (err.file[0] == '\0') /* the map is at fault */
			snprintf(err.file, sizeof err.file, "%s", tools_file_name(o->senses));
		goto fail;
	}
	for (size_t i = 0; i < o->nann; i++)
		if (tageval_annotations_read(ann, o->files[i], &err))
			goto fail;
	if (o->long_file) {
		if (tageval_annotations_read_long(ann, o->long_file, &err))
			goto fail;
		o->nann = tageval_annotations_annotators(ann);
		if (o->nann < 2) {
			fprintf(stderr, "%s: %s: one annotator only, two or more are needed\n",
				prog, tools_file_name(o->long_file));
			goto out;
		}
		names = malloc(o->nann * sizeof *names);
		if (names == NULL) {
			status = tools_out_of_memory(prog);
			goto out;
		}
		for (size_t c = 0; c < o->nann; c++)
			names[c] = (char *)tageval_annotations_annotator_name(ann, c);
		o->files = names;
		if (o->leave_one_out && o->nann < 3) {
			fprintf(stderr, "%s: %s: --leave-one-out needs three or more annotators, "
				"the file has %zu\n", prog, tools_file_name(o->long_file), o->nann);
			goto out;
		}
	}
	/* each family computed only when one of its coefficients is asked for */
	unsigned want = 0, levels = 0;
	for (size_t i = 0; i < N_EXTRA; i++) {
		if (!(o->extra & 1u << i))
			continue;
		int l = extra_coefs[i].level;
		want |= l >= 100 ? 4u : l >= 0 ? 1u : 2u;
		if (l >= 0 && l < 100)
			levels |= 1u << l; /* the ratio level costs the distinct values squared */
	}
	if (compute_families(ann, &o->agreement, want, levels, categories, &ag, &ev, &err))
		goto fail;
	if (o->weights) {
		/* the file of distances ("-": standard input), read and checked
		 * by the library; the standard errors only for --ci=analytic */
		if (tageval_agreement_weighted_read(ann, o->weights,
						    o->ci == 1 ? o->agreement.confidence : 0.0,
						    &ev.wf, &err))
			goto fail;
		ev.weighted = 1;
	}
	if (o->pairs && pair_figures(ann, o, &ev.pairs, &err))
		goto fail;
	if (o->leave_one_out && without_figures(ann, o, &ev.without, &err))
		goto fail;
	if (o->per_category && tageval_agreement_per_category(ann, &ev.cats, &err))
		goto fail;
	if (o->items) {
		size_t n = tageval_annotations_items(ann);
		if (o->items < n)
			n = o->items;
		ev.least = malloc((n ? n : 1) * sizeof *ev.least);
		if (ev.least == NULL) {
			status = tools_out_of_memory(prog);
			goto out;
		}
		if (tageval_agreement_least(ann, n, ev.least, &ev.nleast, &err))
			goto fail;
	}
	if (o->ci == 1) {
		if (tageval_agreement_standard_errors(ann, categories, o->agreement.confidence,
						      &ev.se, &err))
			goto fail;
		ev.analytic = 1;
	}
	int printed = o->json ? print_json(ag, ann, o->files, o->nann, o->per_lexelt,
					   &o->agreement, o->extra, &ev, o->ci)
			      : print_text(ag, ann, o->files, o->nann, o->per_lexelt, &o->agreement,
					   o->extra, &ev);
	if (printed) {
		status = tools_out_of_memory(prog);
		goto out;
	}
	status = tools_exit_status(prog);
	goto out;
fail:
	tools_print_error(prog, &err);
out:
	free(names);
	free(ev.pairs);
	free(ev.without);
	tageval_category_agreement_free(ev.cats);
	free(ev.least);
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	if (ainv != inv)
		tageval_inventory_free(ainv);
	tageval_inventory_free(inv);
	return status;
}

int tool_hkappa_main(int argc, char **argv)
{
	struct options o = { .smoothing = 1.0 };
	tageval_agreement_options_init(&o.agreement);
	gsl_set_error_handler_off();
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
