/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * wsi-report - a word-sense-induction task's results table in one command:
 * every system's clustering and the baselines against one gold key, the
 * unsupervised metrics and the supervised evaluation, per part of speech,
 * runs of one system as mean and standard deviation.
 *
 * The gold file is read once (into memory); each system file is read once
 * and evaluated for every part of speech and every column before the next
 * one is read, so only one system is held at a time.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<malloc.h>)
#include <malloc.h> /* mallopt(), M_MMAP_THRESHOLD: glibc */
#endif
#endif

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "tageval.h"
#include "svg-common.h"
#include "tools-common.h"
#include "tools-main.h"

/* The columns @s takes (tools_display_width), as a size. */
static size_t dwidth(const char *s)
{
	int w = tools_display_width(s);
	return w > 0 ? (size_t)w : 0;
}

static const char prog[] = "wsi-report";

/* ------------------------------------------------------------- the metrics */

enum source { SRC_WSI, SRC_CLU, SRC_SUP_RECALL, SRC_SUP_VAR };

struct metric {
	const char *key;  /* the JSON key, as the metric's own tool names it */
	const char *head; /* the text table's heading */
	enum source src;
	size_t offset;    /* of a double in the figures of @src */
	unsigned family;  /* TAGEVAL_CLUSTERING_* of SRC_CLU */
	const char *reason; /* why a null figure is null */
};

#define WSI(k, h, f) { k, h, SRC_WSI, offsetof(struct tageval_wsi_figures, f), 0, \
		       "not defined on this clustering (see vmeasure(1), fscore(1))" }
#define CLU(k, h, f, fam) { k, h, SRC_CLU, offsetof(struct tageval_clustering_figures, f), fam, \
			    "not defined on this clustering or key (see bcubed(1), nmi(1), ari(1))" }

static const struct metric metrics[] = {
	WSI("v_measure", "V-measure", v_measure),
	WSI("homogeneity", "homogeneity", homogeneity),
	WSI("completeness", "completeness", completeness),
	WSI("paired_fscore", "paired F", paired_fscore),
	WSI("paired_precision", "paired P", paired_precision),
	WSI("paired_recall", "paired R", paired_recall),
	WSI("fscore", "F-score", fscore),
	WSI("purity", "purity", purity),
	WSI("entropy", "entropy", entropy),
	CLU("bcubed_fscore", "B-cubed F", bcubed_fscore, TAGEVAL_CLUSTERING_BCUBED),
	CLU("bcubed_precision", "B-cubed P", bcubed_precision, TAGEVAL_CLUSTERING_BCUBED),
	CLU("bcubed_recall", "B-cubed R", bcubed_recall, TAGEVAL_CLUSTERING_BCUBED),
	CLU("nmi", "NMI", nmi, TAGEVAL_CLUSTERING_NMI),
	CLU("ami", "AMI", ami, TAGEVAL_CLUSTERING_NMI),
	CLU("ari", "ARI", ari, TAGEVAL_CLUSTERING_PAIRS),
	CLU("rand", "Rand", rand, TAGEVAL_CLUSTERING_PAIRS),
	CLU("fowlkes_mallows", "FM", fowlkes_mallows, TAGEVAL_CLUSTERING_PAIRS),
	CLU("avg", "AVG", avg, TAGEVAL_CLUSTERING_BCUBED | TAGEVAL_CLUSTERING_NMI),
	{ "supervised_recall", "sup. recall", SRC_SUP_RECALL, 0, 0, "no split" },
	{ "supervised_variance", "variance", SRC_SUP_VAR, 0, 0,
	  "a single split (the sample variance needs two or more)" },
};

#define NMETRICS (sizeof metrics / sizeof metrics[0])

static const char *const default_crisp[] = { "v_measure", "paired_fscore", "supervised_recall",
					     "supervised_variance" };
static const char *const default_graded[] = { "bcubed_fscore", "nmi", "avg" };

/* ---------------------------------------------------- supervised protocols */

enum proto_kind { PROTO_FOLDS, PROTO_RANDOM, PROTO_DIR };

struct proto {
	enum proto_kind kind;
	unsigned long long n; /* folds or random splits */
	const char *dir;
	const char *label;    /* the column suffix when there are several */
};

/* A column: a metric, for supervised ones with its protocol. */
struct column {
	const struct metric *m;
	size_t proto;
	char key[96], head[96];
};

struct named {
	const char *name, *file;
};

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

struct options {
	enum format format;
	int no_baselines, digits;
	unsigned long long seed, random_k;
	double fraction;
	int fraction_given;
	const char *metrics, *sort, *pos_list;
	int pos_columns; /* --pos-layout=columns */
	const char *plot, *plot_metrics; /* --plot FILE, its one or two columns */
	struct proto *protos; /* argc entries */
	size_t nprotos;
	const char *gold;
	struct named *systems; /* argc entries */
	size_t nsystems;
};

static void usage(FILE *fp, const void *ctx)
{
	(void)ctx;
	tools_fprintf(fp,
		"Usage: %s [OPTIONS] GOLD [NAME=]CLUSTERS...\n"
		"A word-sense-induction results table: every CLUSTERS file and the baselines\n"
		"(one cluster per word, one cluster per instance, random) scored against GOLD,\n"
		"one row per system and part of speech. Files NAME=FILE with the same NAME are\n"
		"runs of one system, given as mean and standard deviation. A system is named\n"
		"NAME, or after its file name without directories.\n"
		"\n"
		"      --metrics=LIST        the columns, comma-separated JSON keys (default:\n"
		"                            v_measure,paired_fscore,supervised_recall,\n"
		"                            supervised_variance; for a graded gold key\n"
		"                            bcubed_fscore,nmi,avg); see wsi-report(1)\n"
		"      --pos=LIST            parts of speech, comma-separated (all, n, v, ...;\n"
		"                            default all)\n"
		"      --pos-layout=L        text and CSV: the parts of speech as groups of\n"
		"                            rows (default) or of columns\n"
		"      --sort=METRIC         rows by METRIC, largest first (within each part of\n"
		"                            speech)\n"
		"  -k, --folds=K             supervised: K folds (default 5 folds)\n"
		"      --splits=N|DIR        supervised: N random splits, or the official split\n"
		"                            files of DIR (mapping.N.key, test.N.key; DIR/all,\n"
		"                            DIR/nouns, DIR/verbs when there); repeatable\n"
		"      --test-fraction=F     test share of the random splits (default 0.2)\n"
		"  -s, --seed=S              seed of the folds, random splits and random\n"
		"                            baseline (GSL mt19937, default 1)\n"
		"      --random-clusters=K   clusters per word of the random baseline (default 4)\n"
		"      --no-baselines        leave the baselines out\n"
		"      --digits=N            decimals of the fractions in the text (default 3)\n"
		"      --format=FORMAT       text (default), json or csv\n"
		"      --plot=FILE           write an SVG bar chart of the first part of speech\n"
		"      --plot-metrics=LIST   its one or two columns (default: the first column)\n"
		"  -h, --help                show this help and exit\n"
		"  -V, --version             show the version and exit\n"
		"\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 usage error.\n"
		"See wsi-report(1) and tageval-formats(5).\n",
		prog);
}

enum { OPT_METRICS = 256, OPT_POS, OPT_SORT, OPT_SPLITS, OPT_FRACTION, OPT_RANDOM_K,
       OPT_NO_BASELINES, OPT_DIGITS, OPT_PLOT, OPT_PLOT_METRICS, OPT_POS_LAYOUT, OPT_FORMAT };

static int option(void *ctx, int c, char *arg)
{
	struct options *o = ctx;
	unsigned long long n;
	switch (c) {
	case 'k':
		if (tools_parse_count(arg, 1000000, &n) || n < 2) {
			tools_usage_error(prog, "invalid number of folds \"%s\" (2 or more)", arg);
			return -1;
		}
		o->protos[o->nprotos++] = (struct proto){ PROTO_FOLDS, n, NULL, NULL };
		return 0;
	case OPT_SPLITS: {
		int kind = tools_parse_splits(prog, arg, &n);
		if (kind < 0)
			return -1;
		o->protos[o->nprotos++] = kind == TOOLS_SPLITS_NUMBER
			? (struct proto){ PROTO_RANDOM, n, NULL, NULL }
			: (struct proto){ PROTO_DIR, 0, arg, NULL };
		return 0;
	}
	case OPT_FRACTION: {
		char *end;
		errno = 0;
		o->fraction = strtod(arg, &end);
		if (errno || *end || end == arg || !(o->fraction > 0.0 && o->fraction < 1.0)) {
			tools_usage_error(prog, "invalid test fraction \"%s\" (between 0 and 1)", arg);
			return -1;
		}
		o->fraction_given = 1;
		return 0;
	}
	case 's':
		if (tools_parse_count(arg, 0xffffffffull, &o->seed)) {
			tools_usage_error(prog, "invalid seed \"%s\" (0 to 4294967295)", arg);
			return -1;
		}
		return 0;
	case OPT_RANDOM_K:
		if (tools_parse_count(arg, 1000000000ull, &o->random_k) || o->random_k == 0) {
			tools_usage_error(prog, "invalid number of clusters \"%s\"", arg);
			return -1;
		}
		return 0;
	case OPT_METRICS:
		o->metrics = arg;
		return 0;
	case OPT_POS:
		o->pos_list = arg;
		return 0;
	case OPT_POS_LAYOUT:
		if (strcmp(arg, "rows") != 0 && strcmp(arg, "columns") != 0) {
			tools_usage_error(prog, "invalid --pos-layout \"%s\" (rows or columns)", arg);
			return -1;
		}
		o->pos_columns = strcmp(arg, "columns") == 0;
		return 0;
	case OPT_SORT:
		o->sort = arg;
		return 0;
	case OPT_NO_BASELINES:
		o->no_baselines = 1;
		return 0;
	case OPT_DIGITS:
		return tools_parse_digits(prog, arg, &o->digits);
	case OPT_PLOT:
		if (arg[0] == '\0' || strcmp(arg, "-") == 0) {
			tools_usage_error(prog, "--plot needs a file name, not '%s'", arg);
			return -1;
		}
		o->plot = arg;
		return 0;
	case OPT_PLOT_METRICS:
		o->plot_metrics = arg;
		return 0;
	default: /* OPT_FORMAT */
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else if (strcmp(arg, "csv") == 0)
			o->format = FORMAT_CSV;
		else {
			tools_usage_error(prog, "invalid format \"%s\" (text, json or csv)", arg);
			return -1;
		}
		return 0;
	}
}

/* "NAME=FILE" (split at the first '=') or "FILE" named after its base name. */
static int split_named(char *arg, struct named *out)
{
	char *eq = strchr(arg, '=');
	if (eq == NULL) {
		const char *slash = strrchr(arg, '/');
		out->name = slash ? slash + 1 : arg;
		out->file = arg;
		if (out->name[0] == '\0') {
			tools_usage_error(prog, "system \"%s\" has no file name", arg);
			return -1;
		}
		return 0;
	}
	if (eq == arg || eq[1] == '\0') {
		tools_usage_error(prog, "system \"%s\" has an empty %s", arg,
				  eq == arg ? "name" : "file");
		return -1;
	}
	*eq = '\0';
	out->name = arg;
	out->file = eq + 1;
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "pos", required_argument, NULL, OPT_POS },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "folds", required_argument, NULL, 'k' },
		{ "splits", required_argument, NULL, OPT_SPLITS },
		{ "test-fraction", required_argument, NULL, OPT_FRACTION },
		{ "seed", required_argument, NULL, 's' },
		{ "random-clusters", required_argument, NULL, OPT_RANDOM_K },
		{ "no-baselines", no_argument, NULL, OPT_NO_BASELINES },
		{ "digits", required_argument, NULL, OPT_DIGITS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "pos-layout", required_argument, NULL, OPT_POS_LAYOUT },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "plot-metrics", required_argument, NULL, OPT_PLOT_METRICS },
		TOOLS_OPTIONS_HELP_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const struct tools_cli cli = { prog, ":k:s:hV", longopts, option, usage, o };
	int status = tools_getopt(&cli, argc, argv);
	if (status >= 0)
		return status;
	if (o->fraction_given) {
		int random = 0;
		for (size_t i = 0; i < o->nprotos; i++)
			random |= o->protos[i].kind == PROTO_RANDOM;
		if (!random) {
			tools_usage_error(prog, "--test-fraction goes with --splits N");
			return EXIT_INVALID_USAGE;
		}
	}
	if (o->plot_metrics && !o->plot) {
		tools_usage_error(prog, "--plot-metrics needs --plot");
		return EXIT_INVALID_USAGE;
	}
	if (tools_check_operands(prog, argc - optind, 2, -1,
				 "missing operand: GOLD and at least one CLUSTERS are required"))
		return EXIT_INVALID_USAGE;
	o->gold = argv[optind];
	size_t users = (size_t)tools_is_stdin(o->gold);
	for (int i = optind + 1; i < argc; i++) {
		if (split_named(argv[i], &o->systems[o->nsystems]))
			return EXIT_INVALID_USAGE;
		users += (size_t)tools_is_stdin(o->systems[o->nsystems++].file);
	}
	if (tools_stdin_check(prog, users))
		return EXIT_INVALID_USAGE;
	return -1;
}

/* ------------------------------------------------------------- the columns */

static const struct metric *find_metric(const char *key, size_t len)
{
	for (size_t i = 0; i < NMETRICS; i++)
		if (strlen(metrics[i].key) == len && strncmp(metrics[i].key, key, len) == 0)
			return &metrics[i];
	return NULL;
}

/* The label of a protocol in column names: the directory's last component
 * ("80_20"), "folds5", "random5". */
static void proto_labels(struct options *o, char (*buf)[64])
{
	for (size_t i = 0; i < o->nprotos; i++) {
		struct proto *p = &o->protos[i];
		if (p->kind == PROTO_DIR) {
			size_t len = strlen(p->dir);
			while (len > 1 && p->dir[len - 1] == '/')
				len--;
			size_t start = len;
			while (start > 0 && p->dir[start - 1] != '/')
				start--;
			snprintf(buf[i], 64, "%.*s", (int)(len - start), p->dir + start);
		} else {
			snprintf(buf[i], 64, "%s%llu", p->kind == PROTO_FOLDS ? "folds" : "random",
				 p->n);
		}
		p->label = buf[i];
	}
}

/* Builds the columns from --metrics or the default; -1 after a usage error. */
static int make_columns(const struct options *o, int graded, struct column **out, size_t *n)
{
	const char *const *def = graded ? default_graded : default_crisp;
	size_t ndef = graded ? sizeof default_graded / sizeof default_graded[0]
			     : sizeof default_crisp / sizeof default_crisp[0];
	const struct metric *chosen[NMETRICS];
	size_t nchosen = 0;
	if (o->metrics) {
		const char *p = o->metrics;
		for (;;) {
			size_t len = strcspn(p, ",");
			const struct metric *m = find_metric(p, len);
			if (m == NULL) {
				tools_usage_error(prog, "--metrics: unknown metric \"%.*s\"", (int)len, p);
				return -1;
			}
			int dup = 0;
			for (size_t i = 0; i < nchosen; i++)
				dup |= chosen[i] == m;
			if (!dup)
				chosen[nchosen++] = m;
			if (p[len] == '\0')
				break;
			p += len + 1;
		}
	} else {
		for (size_t i = 0; i < ndef; i++)
			chosen[nchosen++] = find_metric(def[i], strlen(def[i]));
	}
	size_t np = o->nprotos ? o->nprotos : 1;
	struct column *cols = calloc(nchosen * np, sizeof *cols);
	if (cols == NULL)
		return -2;
	/* the supervised columns together, protocol by protocol, where the
	 * first of them was chosen */
	size_t k = 0;
	int sup_done = 0;
	for (size_t i = 0; i < nchosen; i++) {
		const struct metric *m = chosen[i];
		int sup = m->src == SRC_SUP_RECALL || m->src == SRC_SUP_VAR;
		if (!sup) {
			cols[k].m = m;
			snprintf(cols[k].key, sizeof cols[k].key, "%s", m->key);
			snprintf(cols[k].head, sizeof cols[k].head, "%s", m->head);
			k++;
			continue;
		}
		if (sup_done)
			continue;
		sup_done = 1;
		for (size_t j = 0; j < np; j++) {
			for (size_t l = i; l < nchosen; l++) {
				const struct metric *ms = chosen[l];
				if (ms->src != SRC_SUP_RECALL && ms->src != SRC_SUP_VAR)
					continue;
				struct column *c = &cols[k++];
				c->m = ms;
				c->proto = j;
				if (o->nprotos > 1) {
					snprintf(c->key, sizeof c->key, "%s_%s", ms->key,
						 o->protos[j].label);
					snprintf(c->head, sizeof c->head, "%s %s", ms->head,
						 o->protos[j].label);
				} else {
					snprintf(c->key, sizeof c->key, "%s", ms->key);
					snprintf(c->head, sizeof c->head, "%s", ms->head);
				}
			}
		}
	}
	*out = cols;
	*n = k;
	return 0;
}

/* -------------------------------------------------------------- evaluating */

struct ctx {
	const struct options *o;
	const char **pos;          /* NULL: all */
	size_t npos;
	struct column *cols;
	size_t ncols;
	int graded, need_wsi_only, need_sup;
	unsigned families;
	int need_2007;             /* a SemEval-2007 column (F-score, purity, entropy) */
	struct tageval_wsi_report *rep; /* the gold key, read once */
	const char *gold_name;
	size_t gold_repeated; /* lines of GOLD that give a label twice (fuzzy) */
};

/* The supervised mean recall (percent) and sample variance of protocol
 * @proto on part of speech @p; 0, or EXIT_DATA after the message. */
static int supervised(const struct ctx *c, size_t proto, size_t p, double *mean, double *var)
{
	struct tageval_error err = { 0 };
	struct tageval_supervised_result *res = NULL;
	size_t n = 0;
	if (tageval_wsi_report_supervised(c->rep, proto * c->npos + p, &res, &n, &err)) {
		tools_print_error(prog, &err);
		return EXIT_DATA;
	}
	double *recalls = calloc(n ? n : 1, sizeof *recalls);
	if (recalls == NULL) {
		free(res);
		return tools_out_of_memory(prog);
	}
	for (size_t i = 0; i < n; i++)
		recalls[i] = 100.0 * res[i].recall;
	*mean = n ? gsl_stats_mean(recalls, 1, n) : NAN;
	*var = n > 1 ? gsl_stats_variance_m(recalls, 1, n, *mean) : NAN;
	free(recalls);
	free(res);
	return 0;
}

/* The supervised protocols of every part of speech, protocol j's on part
 * of speech p numbered j * npos + p; 0, or the exit status. */
static int add_protocols(const struct ctx *c)
{
	struct tageval_error err = { 0 };
	for (size_t j = 0; j < c->o->nprotos; j++) {
		const struct proto *pr = &c->o->protos[j];
		for (size_t p = 0; p < c->npos; p++) {
			int rc;
			if (pr->kind == PROTO_FOLDS) {
				rc = tageval_wsi_report_add_folds(c->rep, c->pos[p], (size_t)pr->n,
								  (unsigned long)c->o->seed, NULL, &err);
			} else if (pr->kind == PROTO_RANDOM) {
				rc = tageval_wsi_report_add_random(c->rep, c->pos[p], (size_t)pr->n,
								   c->o->fraction,
								   (unsigned long)c->o->seed, NULL, &err);
			} else {
				struct tools_split_file *files = NULL;
				long nfiles = tools_split_files(prog, pr->dir, c->pos[p], &files);
				if (nfiles < 0)
					return EXIT_DATA;
				const char **names = calloc(2 * (size_t)nfiles, sizeof *names);
				if (names == NULL) {
					tools_split_files_free(files, nfiles);
					return tools_out_of_memory(prog);
				}
				for (long i = 0; i < nfiles; i++) {
					names[i] = files[i].mapping;
					names[nfiles + i] = files[i].test;
				}
				rc = tageval_wsi_report_add_files(c->rep, c->pos[p], (size_t)nfiles, names,
								  names + nfiles, NULL, &err);
				free(names);
				tools_split_files_free(files, nfiles);
			}
			if (rc) {
				tools_print_error(prog, &err);
				return EXIT_DATA;
			}
		}
	}
	return 0;
}

/* Evaluates the clustering read for every part of speech:
 * vals[pos * (ncols + 1)], the clusters first.  0, or the exit status. */
static int evaluate(const struct ctx *c, const char *name, double *vals)
{
	struct tageval_error err = { 0 };
	for (size_t p = 0; p < c->npos; p++) {
		double *v = vals + p * (c->ncols + 1);
		struct tageval_wsi_figures wf;
		struct tageval_clustering_figures cf;
		size_t repeated = 0;
		/* the SemEval-2007 table only when one of its columns is shown */
		unsigned fam = c->families | (c->need_2007 ? 0 : TAGEVAL_WSI_REPORT_NO_2007);
		if (tageval_wsi_report_figures(c->rep, c->pos[p], fam, &wf, &cf, &repeated, &err)) {
			tools_print_error(prog, &err);
			return EXIT_DATA;
		}
		v[0] = wf.clusters;
		if (c->families) {
			/* the lines of GOLD were noted once, in run() */
			repeated -= repeated >= c->gold_repeated ? c->gold_repeated : repeated;
			if (p == 0 && repeated && name)
				fprintf(stderr, "%s: note: %zu line%s of %s give%s a label twice; read "
						"as the SemEval-2013 scorers do (the label once, every "
						"membership of the line 1)\n",
					prog, repeated, repeated == 1 ? "" : "s", tools_file_name(name),
					repeated == 1 ? "s" : "");
		}
		double sup_mean = NAN, sup_var = NAN;
		size_t sup_proto = (size_t)-1;
		int status = 0;
		for (size_t i = 0; i < c->ncols && status == 0; i++) {
			const struct column *col = &c->cols[i];
			switch (col->m->src) {
			case SRC_WSI:
				memcpy(&v[i + 1], (const char *)&wf + col->m->offset, sizeof(double));
				break;
			case SRC_CLU:
				memcpy(&v[i + 1], (const char *)&cf + col->m->offset, sizeof(double));
				break;
			default:
				if (sup_proto != col->proto) {
					status = supervised(c, col->proto, p, &sup_mean, &sup_var);
					sup_proto = col->proto;
				}
				v[i + 1] = col->m->src == SRC_SUP_RECALL ? sup_mean : sup_var;
			}
		}
		if (status)
			return status;
	}
	return 0;
}

/* ------------------------------------------------------------------ rows */

struct row {
	const char *name;
	size_t pos;
	int baseline;
	size_t runs;
	size_t order;      /* the row's place without --sort */
	double *mean, *sd; /* ncols + 1: the clusters first */
};

/* The mean and sample standard deviation of @n values @x[i * stride]. */
static void mean_sd(const double *x, size_t stride, size_t n, double *mean, double *sd)
{
	*mean = gsl_stats_mean(x, stride, n);
	*sd = n > 1 ? gsl_stats_sd_m(x, stride, n, *mean) : NAN;
}

/* The notes of one system file: nothing answered, lines ignored and (in
 * the fuzzy metrics) the extra instances counted, as bcubed and nmi say. */
static void notes(const struct ctx *c, const struct tageval_wsi *wsi, const char *file)
{
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(wsi, &counts);
	int fuzzy = c->graded && c->families;
	size_t ignored = tageval_wsi_ignored(wsi) - (fuzzy ? counts.extra : 0);
	if (tageval_wsi_ignored(wsi) + tageval_wsi_answered(wsi) == 0)
		tools_note_no_answers(prog, file);
	tools_note_ignored(prog, ignored, file, c->o->gold);
	if (fuzzy && counts.extra)
		fprintf(stderr, "%s: note: %zu line%s of %s name%s instance%s of a gold word that "
				"%s lacks; counted in the fuzzy metrics as in the SemEval-2013 "
				"scorers\n",
			prog, counts.extra, counts.extra == 1 ? "" : "s", tools_file_name(file),
			counts.extra == 1 ? "s an" : "", counts.extra == 1 ? "" : "s", c->gold_name);
}

/* Evaluates one run: @file, or baseline @base (0 to 2) when @file is NULL. */
static int run_one(const struct ctx *c, const char *file, int base, double *vals)
{
	struct tageval_error err = { 0 };
	if (file ? tageval_wsi_report_read_clusters(c->rep, file, &err)
		 : tageval_wsi_report_baseline(c->rep, (enum tageval_wsi_baseline)base,
					       (unsigned long)c->o->seed,
					       (unsigned long)c->o->random_k, &err)) {
		tools_print_error(prog, &err);
		return EXIT_DATA;
	}
	if (file)
		notes(c, tageval_wsi_report_wsi(c->rep), file);
	return evaluate(c, file, vals);
}

/* ------------------------------------------------------------------ output */

static const char *pos_name(const struct ctx *c, size_t p)
{
	return c->pos[p] ? c->pos[p] : "all";
}

static int is_supervised(const struct column *col)
{
	return col->m->src == SRC_SUP_RECALL || col->m->src == SRC_SUP_VAR;
}

static int is_2007(const struct column *col)
{
	size_t off = col->m->offset;
	return col->m->src == SRC_WSI && (off == offsetof(struct tageval_wsi_figures, fscore) ||
					  off == offsetof(struct tageval_wsi_figures, purity) ||
					  off == offsetof(struct tageval_wsi_figures, entropy));
}

/* A text cell: fractions with --digits decimals, the supervised figures in
 * percent (and percent squared) with two, as wsi-supervised prints them. */
static void cell(char *buf, size_t size, const struct ctx *c, size_t i, const struct row *r)
{
	int clusters = i == 0;
	int prec = clusters || is_supervised(&c->cols[i - 1]) ? 2 : c->o->digits;
	double m = r->mean[i], s = r->sd[i];
	int n;
	if (isfinite(m))
		n = snprintf(buf, size, "%.*f", prec, m);
	else
		n = snprintf(buf, size, "-");
	if (r->runs > 1 && n >= 0 && (size_t)n < size) {
		if (isfinite(s))
			snprintf(buf + n, size - (size_t)n, " ±%.*f", prec, s);
	}
}

static void print_text(const struct ctx *c, const struct row *rows, size_t nrows)
{
	size_t ncells = c->ncols + 1;
	size_t wname = strlen("system"), wpos = 3;
	size_t *w = calloc(ncells, sizeof *w);
	char buf[128];
	if (w == NULL)
		return;
	for (size_t i = 0; i < ncells; i++)
		w[i] = i ? dwidth(c->cols[i - 1].head) : strlen("clusters");
	for (size_t r = 0; r < nrows; r++) {
		size_t nw = dwidth(rows[r].name) + (rows[r].baseline ? 2 : 0);
		if (nw > wname)
			wname = nw;
		if (strlen(pos_name(c, rows[r].pos)) > wpos)
			wpos = strlen(pos_name(c, rows[r].pos));
		for (size_t i = 0; i < ncells; i++) {
			cell(buf, sizeof buf, c, i, &rows[r]);
			if (dwidth(buf) > w[i])
				w[i] = dwidth(buf);
		}
	}
	tools_printf("%-*s  %-*s  %4s", (int)wname, "system", (int)wpos, "pos", "runs");
	for (size_t i = 0; i < ncells; i++) {
		const char *h = i ? c->cols[i - 1].head : "clusters";
		tools_printf("  %*s%s", (int)(w[i] - dwidth(h)), "", h);
	}
	tools_printf("\n");
	for (size_t r = 0; r < nrows; r++) {
		if (r && rows[r].pos != rows[r - 1].pos)
			tools_printf("\n");
		snprintf(buf, sizeof buf, "%s", rows[r].baseline ? "(" : "");
		tools_printf("%s%s%s%*s  %-*s  %4zu", buf, rows[r].name, rows[r].baseline ? ")" : "",
			     (int)(wname - dwidth(rows[r].name) -
				   (rows[r].baseline ? 2 : 0)), "",
			     (int)wpos, pos_name(c, rows[r].pos), rows[r].runs);
		for (size_t i = 0; i < ncells; i++) {
			cell(buf, sizeof buf, c, i, &rows[r]);
			tools_printf("  %*s%s", (int)(w[i] - dwidth(buf)), "", buf);
		}
		tools_printf("\n");
	}
	if (c->need_sup)
		tools_printf("\nsupervised recall in percent (mean over the splits), its variance in "
			     "percent squared (n - 1)\n");
	free(w);
}

/* --pos-layout=columns: one line per system, the cells of each part of
 * speech side by side (headings "HEAD POS"); @rows are the sorted rows,
 * @all the rows in their first order (a system's parts of speech one after
 * the other, from rows[i].order on). */
static void print_text_columns(const struct ctx *c, const struct row *rows, size_t nrows,
			       const struct row *all)
{
	size_t ncells = c->ncols + 1, n = ncells * c->npos;
	size_t wname = strlen("system");
	size_t *w = calloc(n, sizeof *w);
	char buf[128], head[160];
	if (w == NULL)
		return;
	for (size_t k = 0; k < n; k++) {
		size_t i = k % ncells;
		snprintf(head, sizeof head, "%s %s", i ? c->cols[i - 1].head : "clusters",
			 pos_name(c, k / ncells));
		w[k] = dwidth(head);
	}
	for (size_t r = 0; r < nrows; r++) {
		if (rows[r].pos != 0)
			continue;
		size_t nw = dwidth(rows[r].name) + (rows[r].baseline ? 2 : 0);
		if (nw > wname)
			wname = nw;
		for (size_t k = 0; k < n; k++) {
			cell(buf, sizeof buf, c, k % ncells, &all[rows[r].order + k / ncells]);
			if (dwidth(buf) > w[k])
				w[k] = dwidth(buf);
		}
	}
	tools_printf("%-*s  %4s", (int)wname, "system", "runs");
	for (size_t k = 0; k < n; k++) {
		size_t i = k % ncells;
		snprintf(head, sizeof head, "%s %s", i ? c->cols[i - 1].head : "clusters",
			 pos_name(c, k / ncells));
		tools_printf("  %*s%s", (int)(w[k] - dwidth(head)), "", head);
	}
	tools_printf("\n");
	for (size_t r = 0; r < nrows; r++) {
		if (rows[r].pos != 0)
			continue;
		tools_printf("%s%s%s%*s  %4zu", rows[r].baseline ? "(" : "", rows[r].name,
			     rows[r].baseline ? ")" : "",
			     (int)(wname - dwidth(rows[r].name) - (rows[r].baseline ? 2 : 0)), "",
			     rows[r].runs);
		for (size_t k = 0; k < n; k++) {
			cell(buf, sizeof buf, c, k % ncells, &all[rows[r].order + k / ncells]);
			tools_printf("  %*s%s", (int)(w[k] - dwidth(buf)), "", buf);
		}
		tools_printf("\n");
	}
	if (c->need_sup)
		tools_printf("\nsupervised recall in percent (mean over the splits), its variance in "
			     "percent squared (n - 1)\n");
	free(w);
}

/* A column's JSON value: supervised figures as fractions. */
static double json_value(const struct column *col, double v)
{
	if (col->m->src == SRC_SUP_RECALL)
		return v / 100.0;
	if (col->m->src == SRC_SUP_VAR)
		return v / 10000.0;
	return v;
}

/* Writes ,"member":v (or the first member without the comma), null when v
 * is not finite: then the member is counted in @nulls, to be named in the
 * row's "undefined" member. */
static void json_member(int comma, const char *member, const char *suffix, double v,
			size_t *nulls)
{
	tools_printf("%s\"%s%s\":", comma ? "," : "", member, suffix);
	tools_json_number(stdout, v);
	*nulls += !isfinite(v);
}

/* The reasons of a row's null figures (issue 17's "undefined" member), as
 * tools_json_undefined() writes them, for any number of columns. */
static void json_undefined(const struct ctx *c, const struct row *row)
{
	int first = 1;
	tools_printf(",\"undefined\":{");
	for (size_t i = 0; i <= c->ncols; i++) {
		const struct column *col = i ? &c->cols[i - 1] : NULL;
		const char *key = col ? col->key : "clusters";
		if (!isfinite(row->mean[i])) {
			tools_printf("%s\"%s\":", first ? "" : ",", key);
			int crisp_only = col && c->graded && col->m->src == SRC_CLU &&
					 (col->m->family == TAGEVAL_CLUSTERING_PAIRS ||
					  strcmp(col->m->key, "ami") == 0);
			tools_json_string(stdout, !col ? "no word"
					  : crisp_only ? "a crisp metric, and the gold key is graded "
							 "(the fuzzy metrics are computed)"
						       : col->m->reason);
			first = 0;
		}
		if (row->runs > 1 && !isfinite(row->sd[i])) {
			tools_printf("%s\"%s_stddev\":", first ? "" : ",", key);
			tools_json_string(stdout, isfinite(row->mean[i])
					  ? "not defined over these runs"
					  : "the figure is not defined in every run");
			first = 0;
		}
	}
	tools_printf("}");
}

static void print_json(const struct ctx *c, const struct row *rows, size_t nrows)
{
	tools_printf("{\"gold\":");
	tools_json_string(stdout, tools_file_name(c->o->gold));
	tools_printf(",\"mode\":\"%s\",\"rows\":[", c->graded ? "fuzzy" : "crisp");
	for (size_t r = 0; r < nrows; r++) {
		const struct row *row = &rows[r];
		size_t nulls = 0;
		tools_printf("%s{\"system\":", r ? "," : "");
		tools_json_string(stdout, row->name);
		tools_printf(",\"pos\":");
		tools_json_string(stdout, pos_name(c, row->pos));
		tools_printf(",\"baseline\":%s,\"runs\":%zu", row->baseline ? "true" : "false",
			     row->runs);
		json_member(1, "clusters", "", row->mean[0], &nulls);
		for (size_t i = 0; i < c->ncols; i++)
			json_member(1, c->cols[i].key, "", json_value(&c->cols[i], row->mean[i + 1]),
				    &nulls);
		/* the standard deviations over two or more runs, in the same units */
		for (size_t i = 0; row->runs > 1 && i <= c->ncols; i++) {
			const struct column *col = i ? &c->cols[i - 1] : NULL;
			double sd = row->sd[i];
			if (col && col->m->src == SRC_SUP_RECALL)
				sd /= 100.0;
			else if (col && col->m->src == SRC_SUP_VAR)
				sd /= 10000.0;
			json_member(1, col ? col->key : "clusters", "_stddev", sd, &nulls);
		}
		if (nulls)
			json_undefined(c, row);
		tools_printf("}");
	}
	tools_printf("]}\n");
}

static void csv_string(const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		tools_printf("%s", s);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* A CSV number as the JSON ones (the shortest decimal that reads back as
 * the same double), empty when the figure is not defined. */
static void csv_number(double v)
{
	if (isfinite(v)) {
		char buf[32];
		tools_format_shortest(buf, sizeof buf, v);
		tools_printf("%s", buf);
	}
}

static double json_value(const struct column *col, double v);
static void csv_string(const char *s);
static void csv_number(double v);

/* A standard deviation in the units of the JSON and CSV figures. */
static double sd_value(const struct ctx *c, size_t i, double sd)
{
	if (i && c->cols[i - 1].m->src == SRC_SUP_RECALL)
		return sd / 100.0;
	if (i && c->cols[i - 1].m->src == SRC_SUP_VAR)
		return sd / 10000.0;
	return sd;
}

/* --pos-layout=columns: as print_text_columns(), the columns named
 * KEY_POS (and KEY_POS_stddev). */
static void print_csv_columns(const struct ctx *c, const struct row *rows, size_t nrows,
			      const struct row *all)
{
	int runs = 0;
	for (size_t r = 0; r < nrows; r++)
		runs |= rows[r].runs > 1;
	tools_printf("system,baseline,runs");
	for (int sd = 0; sd <= runs; sd++)
		for (size_t p = 0; p < c->npos; p++)
			for (size_t i = 0; i <= c->ncols; i++) {
				tools_printf(",");
				csv_string(i ? c->cols[i - 1].key : "clusters");
				tools_printf("_");
				csv_string(pos_name(c, p));
				tools_printf("%s", sd ? "_stddev" : "");
			}
	tools_printf("\n");
	for (size_t r = 0; r < nrows; r++) {
		if (rows[r].pos != 0)
			continue;
		csv_string(rows[r].name);
		tools_printf(",%s,%zu", rows[r].baseline ? "true" : "false", rows[r].runs);
		for (size_t p = 0; p < c->npos; p++)
			for (size_t i = 0; i <= c->ncols; i++) {
				const struct row *x = &all[rows[r].order + p];
				putchar(',');
				csv_number(i ? json_value(&c->cols[i - 1], x->mean[i]) : x->mean[0]);
			}
		for (size_t p = 0; runs && p < c->npos; p++)
			for (size_t i = 0; i <= c->ncols; i++) {
				const struct row *x = &all[rows[r].order + p];
				putchar(',');
				if (x->runs > 1)
					csv_number(sd_value(c, i, x->sd[i]));
			}
		tools_printf("\n");
	}
}

static void print_csv(const struct ctx *c, const struct row *rows, size_t nrows)
{
	int runs = 0;
	for (size_t r = 0; r < nrows; r++)
		runs |= rows[r].runs > 1;
	tools_printf("system,pos,baseline,runs,clusters");
	for (size_t i = 0; i < c->ncols; i++)
		tools_printf(",%s", c->cols[i].key);
	if (runs) {
		tools_printf(",clusters_stddev");
		for (size_t i = 0; i < c->ncols; i++)
			tools_printf(",%s_stddev", c->cols[i].key);
	}
	tools_printf("\n");
	for (size_t r = 0; r < nrows; r++) {
		const struct row *row = &rows[r];
		csv_string(row->name);
		putchar(',');
		csv_string(pos_name(c, row->pos));
		tools_printf(",%s,%zu,", row->baseline ? "true" : "false", row->runs);
		csv_number(row->mean[0]);
		for (size_t i = 0; i < c->ncols; i++) {
			putchar(',');
			csv_number(json_value(&c->cols[i], row->mean[i + 1]));
		}
		if (runs) {
			for (size_t i = 0; i <= c->ncols; i++) {
				putchar(',');
				if (row->runs < 2)
					continue;
				double sd = row->sd[i];
				if (i && c->cols[i - 1].m->src == SRC_SUP_RECALL)
					sd /= 100.0;
				else if (i && c->cols[i - 1].m->src == SRC_SUP_VAR)
					sd /= 10000.0;
				csv_number(sd);
			}
		}
		tools_printf("\n");
	}
}

/* --sort: rows by the column's mean, largest first, undefined last, stable
 * (by the row's index), within each part of speech. */
static size_t sort_col;

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->pos != y->pos)
		return (x->pos > y->pos) - (x->pos < y->pos);
	double u = x->mean[sort_col], v = y->mean[sort_col];
	int du = !isnan(u), dv = !isnan(v);
	if (du != dv)
		return dv - du;
	if (du && u != v)
		return u < v ? 1 : -1;
	return (x->order > y->order) - (x->order < y->order);
}

/* ------------------------------------------------------------ --plot */

#define SVG_NAME_MIN 160
#define SVG_NAME_MAX 360
#define SVG_BAR_W 420
#define SVG_RIGHT_W 150
#define SVG_TOP 80

/* The length of a panel's axis: 1 for fractions, 100 for the supervised
 * recall (percent), else the largest value (mean + stddev) rounded up. */
static double axis_max(const struct ctx *c, size_t col, const struct row *rows, size_t n)
{
	if (col > 0) {
		enum source src = c->cols[col - 1].m->src;
		if (src == SRC_SUP_RECALL)
			return 100.0;
		if (src != SRC_SUP_VAR && strcmp(c->cols[col - 1].m->key, "entropy") != 0)
			return 1.0;
	}
	double m = 0.0;
	for (size_t i = 0; i < n; i++) {
		double v = rows[i].mean[col] + (isfinite(rows[i].sd[col]) ? rows[i].sd[col] : 0.0);
		if (isfinite(v) && v > m)
			m = v;
	}
	return m > 0.0 ? ceil(m) : 1.0;
}

/* One panel: a horizontal bar per row (baselines grey), a whisker of one
 * standard deviation either side for rows of several runs. */
static void svg_panel(FILE *fp, const struct ctx *c, size_t col, const struct row *rows,
		      size_t n, int y0, int name_w)
{
	const char *head = col ? c->cols[col - 1].head : "clusters";
	const char *key = col ? c->cols[col - 1].key : "clusters";
	double max = axis_max(c, col, rows, n);
	int x0 = name_w + 10;
	char buf[128];
	tools_fprintf(fp, "<g class=\"panel\" data-metric=\"%s\">\n", key);
	fprintf(fp, "<text x=\"10\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", y0 + 18);
	svg_xml_text(fp, head);
	fputs("</text>\n", fp);
	for (int t = 0; t <= 5; t++) {
		int x = x0 + t * SVG_BAR_W / 5;
		tools_fprintf(fp, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#cccccc\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%g</text>\n", x, y0 + SVG_PANEL_HEAD - 6, x,
			y0 + SVG_PANEL_HEAD + (int)n * SVG_ROW_H, x, y0 + SVG_PANEL_HEAD - 10,
			max * t / 5.0);
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		int y = y0 + SVG_PANEL_HEAD + (int)i * SVG_ROW_H;
		double v = r->mean[col];
		double len = isfinite(v) && v > 0.0 ? v / max * SVG_BAR_W : 0.0;
		tools_fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">",
			      name_w, y + SVG_BAR_H - 2);
		svg_xml_text(fp, r->name);
		fputs(r->baseline ? " (baseline)" : "", fp);
		fputs("</text>\n", fp);
		tools_fprintf(fp, "<rect class=\"bar %s\" data-system=\"",
			      r->baseline ? "baseline" : "system");
		svg_xml_text(fp, r->name);
		tools_fprintf(fp, "\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
			      "<title>", x0, y + 2, len, SVG_BAR_H,
			      r->baseline ? "#a0a0a0" : "#4878b0");
		svg_xml_text(fp, r->name);
		cell(buf, sizeof buf, c, col, r);
		fputs(": ", fp);
		svg_xml_text(fp, buf);
		fputs("</title></rect>\n", fp);
		if (r->runs > 1 && isfinite(v) && isfinite(r->sd[col])) {
			double lo = (v - r->sd[col]) / max * SVG_BAR_W;
			double hi = (v + r->sd[col]) / max * SVG_BAR_W;
			tools_fprintf(fp, "<line class=\"stddev\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				      "y2=\"%d\" stroke=\"black\" stroke-width=\"1.5\"/>\n",
				      x0 + (lo > 0 ? lo : 0), y + 2 + SVG_BAR_H / 2, x0 + hi,
				      y + 2 + SVG_BAR_H / 2);
		}
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x0 + SVG_BAR_W + 8,
			y + SVG_BAR_H - 2);
		svg_xml_text(fp, buf);
		fputs("</text>\n", fp);
	}
	fputs("</g>\n", fp);
}

/* --plot: the rows of the first part of speech, sorted by the first chosen
 * column (largest first), one panel per chosen column. */
static int write_plot(const struct ctx *c, const struct row *all, size_t nall,
		      const size_t *pcols, size_t npcols)
{
	size_t n = 0;
	struct row *rows = malloc((nall ? nall : 1) * sizeof *rows);
	if (rows == NULL)
		return tools_out_of_memory(prog);
	for (size_t i = 0; i < nall; i++)
		if (all[i].pos == 0)
			rows[n++] = all[i];
	sort_col = pcols[0];
	qsort(rows, n, sizeof *rows, row_cmp);
	size_t longest = 0;
	for (size_t i = 0; i < n; i++) {
		size_t w = dwidth(rows[i].name) + (rows[i].baseline ? 11 : 0);
		if (w > longest)
			longest = w;
	}
	double nw = (double)longest * SVG_CHAR_W + 12;
	int name_w = nw < SVG_NAME_MIN ? SVG_NAME_MIN : nw > SVG_NAME_MAX ? SVG_NAME_MAX : (int)nw;
	int panel_h = SVG_PANEL_HEAD + (int)n * SVG_ROW_H + 16;
	int width = name_w + 10 + SVG_BAR_W + SVG_RIGHT_W;
	int height = SVG_TOP + (int)npcols * panel_h + 10;
	FILE *fp = fopen(c->o->plot, "w");
	if (fp == NULL) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, c->o->plot, strerror(errno));
		free(rows);
		return EXIT_DATA;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	tools_fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		      "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", width, height, width,
		      height);
	fputs("<title>wsi-report: ", fp);
	svg_xml_text(fp, c->gold_name);
	fputs("</title>\n", fp);
	tools_fprintf(fp, "<rect class=\"background\" width=\"%d\" height=\"%d\" "
		      "fill=\"white\"/>\n", width, height);
	fputs("<text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">", fp);
	svg_xml_text(fp, c->gold_name);
	fputs(", part of speech ", fp);
	svg_xml_text(fp, pos_name(c, 0));
	fputs("</text>\n", fp);
	tools_fprintf(fp, "<rect x=\"10\" y=\"40\" width=\"14\" height=\"%d\" fill=\"#4878b0\"/>\n"
		      "<text x=\"30\" y=\"52\" font-size=\"12\">system</text>\n"
		      "<rect x=\"100\" y=\"40\" width=\"14\" height=\"%d\" fill=\"#a0a0a0\"/>\n"
		      "<text x=\"120\" y=\"52\" font-size=\"12\">baseline</text>\n"
		      "<text x=\"200\" y=\"52\" font-size=\"12\">line: mean \xc2\xb1 one standard "
		      "deviation over a system's runs</text>\n", SVG_BAR_H, SVG_BAR_H);
	for (size_t k = 0; k < npcols; k++)
		svg_panel(fp, c, pcols[k], rows, n, SVG_TOP + (int)k * panel_h, name_w);
	fputs("</svg>\n", fp);
	free(rows);
	int e = tools_close_file(fp);
	if (e) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, c->o->plot, strerror(e));
		return EXIT_DATA;
	}
	return 0;
}

/* ------------------------------------------------------------------- main */

static int run(struct options *o)
{
	int status = EXIT_DATA;
	struct ctx c = { .o = o };
	struct tageval_error err = { 0 };
	struct row *rows = NULL, *sorted = NULL;
	double *store = NULL, *tmp = NULL;
	size_t nrows = 0;
	char (*labels)[64] = calloc(o->nprotos + 1, sizeof *labels);
	char *pl = strdup(o->pos_list ? o->pos_list : "all");
	c.pos = calloc(strlen(o->pos_list ? o->pos_list : "all") + 1, sizeof *c.pos);
	if (labels == NULL || pl == NULL || c.pos == NULL)
		goto oom;
	proto_labels(o, labels);
	for (size_t i = 0; i < o->nprotos; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(o->protos[i].label, o->protos[j].label) == 0) {
				tools_usage_error(prog, "two supervised protocols named \"%s\"",
						  o->protos[i].label);
				status = EXIT_INVALID_USAGE;
				goto out;
			}

	/* the parts of speech */
	for (char *p = pl;;) {
		size_t len = strcspn(p, ",");
		int last = p[len] == '\0';
		p[len] = '\0';
		if (strcmp(p, "all") == 0)
			c.pos[c.npos++] = NULL;
		else if (tools_parse_pos(prog, p, &c.pos[c.npos]) == 0)
			c.npos++;
		else {
			status = EXIT_INVALID_USAGE;
			goto out;
		}
		if (last)
			break;
		p += len + 1;
	}

	/* the gold key, read once */
	c.gold_name = tools_file_name(o->gold);
	if (tageval_wsi_report_new(o->gold, &c.rep, &err)) {
		tools_print_error(prog, &err);
		goto out;
	}
	struct tageval_wsi_counts counts;
	tageval_wsi_counts(tageval_wsi_report_wsi(c.rep), &counts);
	c.graded = counts.gold_multi + counts.gold_weighted > 0;

	int cs = make_columns(o, c.graded, &c.cols, &c.ncols);
	if (cs == -2)
		goto oom;
	if (cs) {
		status = EXIT_INVALID_USAGE;
		goto out;
	}
	sort_col = 0;
	if (o->sort) {
		size_t i = 0;
		if (strcmp(o->sort, "clusters") != 0) {
			for (i = 0; i < c.ncols && strcmp(c.cols[i].key, o->sort) != 0; i++)
				;
			if (i == c.ncols) {
				tools_usage_error(prog, "--sort: \"%s\" is not a column", o->sort);
				status = EXIT_INVALID_USAGE;
				goto out;
			}
			i++;
		}
		sort_col = i;
	}
	size_t pcols[2] = { 1, 0 }, npcols = c.ncols ? 1 : 0;
	if (c.ncols == 0)
		pcols[0] = 0;
	if (o->plot_metrics) {
		npcols = 0;
		for (const char *p = o->plot_metrics;;) {
			size_t len = strcspn(p, ","), i = 0;
			if (npcols == 2) {
				tools_usage_error(prog, "--plot-metrics: one or two columns");
				status = EXIT_INVALID_USAGE;
				goto out;
			}
			if (!(len == 8 && strncmp(p, "clusters", 8) == 0)) {
				for (i = 0; i < c.ncols && (strlen(c.cols[i].key) != len ||
							    strncmp(c.cols[i].key, p, len) != 0); i++)
					;
				if (i == c.ncols) {
					tools_usage_error(prog, "--plot-metrics: \"%.*s\" is not a column",
							  (int)len, p);
					status = EXIT_INVALID_USAGE;
					goto out;
				}
				i++;
			}
			pcols[npcols++] = i;
			if (p[len] == '\0')
				break;
			p += len + 1;
		}
	}
	for (size_t i = 0; i < c.ncols; i++) {
		c.families |= c.cols[i].m->family;
		c.need_sup |= is_supervised(&c.cols[i]);
		c.need_2007 |= is_2007(&c.cols[i]);
	}
	if (c.graded && c.families) {
		/* the gold key's lines that give a label twice, noted once */
		struct tageval_clustering_options co;
		struct tageval_clustering_result *cr = NULL;
		tageval_clustering_options_init(&co);
		co.mode = TAGEVAL_CLUSTERING_FUZZY;
		co.metrics = TAGEVAL_CLUSTERING_BCUBED;
		if (tageval_clustering_evaluate(tageval_wsi_report_wsi(c.rep), &co, &cr, &err) == 0)
			c.gold_repeated = tageval_clustering_result_repeated(cr);
		tageval_clustering_result_free(cr);
		if (c.gold_repeated)
			fprintf(stderr, "%s: note: %zu line%s of %s give%s a label twice; read as "
					"the SemEval-2013 scorers do (the label once, every membership "
					"of the line 1)\n",
				prog, c.gold_repeated, c.gold_repeated == 1 ? "" : "s", c.gold_name,
				c.gold_repeated == 1 ? "s" : "");
	}
	if (c.need_sup && o->nprotos == 0)
		o->protos[o->nprotos++] = (struct proto){ PROTO_FOLDS, 5, NULL, "folds5" };
	if (c.need_sup && (status = add_protocols(&c)) != 0)
		goto out;
	status = EXIT_DATA;

	/* the systems, grouped by name in order of first appearance */
	size_t *group = calloc(o->nsystems + 3, sizeof *group);
	size_t ngroups = 0;
	if (group == NULL)
		goto oom;
	for (size_t i = 0; i < o->nsystems; i++) {
		size_t g;
		for (g = 0; g < i && strcmp(o->systems[g].name, o->systems[i].name) != 0; g++)
			;
		group[i] = g; /* the first file of the name */
		ngroups += g == i;
	}
	size_t nbase = o->no_baselines ? 0 : 3;
	size_t stride = c.ncols + 1;
	nrows = (ngroups + nbase) * c.npos;
	rows = calloc(nrows, sizeof *rows);
	store = calloc(2 * nrows * stride, sizeof *store);
	tmp = calloc((o->nsystems ? o->nsystems : 1) * c.npos * stride, sizeof *tmp);
	if (rows == NULL || store == NULL || tmp == NULL) {
		free(group);
		goto oom;
	}
	/* the baselines first (as before: the same notes and errors in the same
	 * order); their rows come after the systems' */
	static const char *const base_names[] = { "1c1w", "1c1inst", "random" };
	size_t gi = 0;
	for (size_t t = 0; t < o->nsystems + nbase; t++) {
		size_t s = t < nbase ? o->nsystems + t : t - nbase;
		int base = s >= o->nsystems;
		if (!base && group[s] != s)
			continue;
		size_t runs = 0, r;
		if (base) {
			status = run_one(&c, NULL, (int)(s - o->nsystems), tmp);
			if (status)
				break;
			runs = 1;
			r = (ngroups + (s - o->nsystems)) * c.npos;
		} else {
			for (size_t f = s; f < o->nsystems; f++) {
				if (group[f] != s)
					continue;
				status = run_one(&c, o->systems[f].file, 0,
						 tmp + runs * c.npos * stride);
				if (status)
					break;
				runs++;
			}
			if (status)
				break;
			r = gi++ * c.npos;
		}
		for (size_t p = 0; p < c.npos; p++, r++) {
			rows[r].name = base ? base_names[s - o->nsystems] : o->systems[s].name;
			rows[r].pos = p;
			rows[r].baseline = base;
			rows[r].runs = runs;
			rows[r].order = r;
			rows[r].mean = store + 2 * r * stride;
			rows[r].sd = rows[r].mean + stride;
			for (size_t i = 0; i < stride; i++)
				mean_sd(tmp + p * stride + i, c.npos * stride, runs, &rows[r].mean[i],
					&rows[r].sd[i]);
		}
	}
	free(group);
	if (status)
		goto out;

	/* rows grouped by part of speech, in system order or --sort's */
	sorted = malloc(nrows * sizeof *sorted);
	if (sorted == NULL)
		goto oom;
	memcpy(sorted, rows, nrows * sizeof *rows);
	if (o->sort) {
		qsort(sorted, nrows, sizeof *sorted, row_cmp);
	} else {
		/* stable: by pos, then the original order */
		size_t k = 0;
		for (size_t p = 0; p < c.npos; p++)
			for (size_t i = 0; i < nrows; i++)
				if (rows[i].pos == p)
					sorted[k++] = rows[i];
	}
	if (o->plot && (status = write_plot(&c, rows, nrows, pcols, npcols)) != 0)
		goto out;
	if (o->format == FORMAT_JSON)
		print_json(&c, sorted, nrows);
	else if (o->format == FORMAT_CSV && o->pos_columns)
		print_csv_columns(&c, sorted, nrows, rows);
	else if (o->format == FORMAT_CSV)
		print_csv(&c, sorted, nrows);
	else if (o->pos_columns)
		print_text_columns(&c, sorted, nrows, rows);
	else
		print_text(&c, sorted, nrows);
	status = tools_exit_status(prog);
	goto out;
oom:
	status = tools_out_of_memory(prog);
out:
	free(sorted);
	free(rows);
	free(store);
	free(tmp);
	free(c.cols);
	tageval_wsi_report_free(c.rep);
	free(c.pos);
	free(pl);
	free(labels);
	return status;
}

int tool_wsi_report_main(int argc, char **argv)
{
	struct options o = { .digits = 3, .seed = 1, .random_k = 4, .fraction = 0.2 };
	o.protos = calloc((size_t)argc + 2, sizeof *o.protos);
	o.systems = calloc((size_t)argc + 1, sizeof *o.systems);
	if (o.protos == NULL || o.systems == NULL) {
		free(o.protos);
		free(o.systems);
		return tools_out_of_memory(prog);
	}
	gsl_set_error_handler_off();
#if defined(M_MMAP_THRESHOLD)
	/*
	 * glibc raises its mmap threshold to the size of each mmapped block
	 * freed (up to 32 MiB): after the first large array is freed (the
	 * instance ids' slots, 10-16 MB at a million instances), the arrays
	 * of a few MB made and freed per clustering come from the heap, and
	 * the holes they leave are not given back.  A fixed threshold (the
	 * default, 128 KiB) keeps them mmapped: 20 systems x 1M instances,
	 * peak RSS 85.3 -> 76.7 MB.  A hint only: nothing to do if refused.
	 */
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	int status = parse(argc, argv, &o);
	if (status < 0)
		status = run(&o);
	free(o.protos);
	free(o.systems);
	return status;
}
