/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Word sense induction: the unsupervised evaluation of every target word
 * from its sparse contingency table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-parallel.h"
#include "tageval-util.h"
#include "tageval-wsi-metrics.h"
#include "tageval-wsi.h"

struct tageval_wsi_result {
	size_t nwords;
	char **name;
	struct tageval_wsi_figures *fig;
	struct tageval_wsi_figures total;
};

void tageval_wsi_options_init(struct tageval_wsi_options *o)
{
	TV_NULL_RET(o, );
	o->pos = NULL;
	o->beta = 1.0;
}

void tageval_wsi_result_free(struct tageval_wsi_result *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nwords; i++)
		free(r->name[i]);
	free(r->name);
	free(r->fig);
	free(r);
}

size_t tageval_wsi_result_words(const struct tageval_wsi_result *r)
{
	TV_NULL_RET(r, 0);
	return r->nwords;
}

const char *tageval_wsi_result_word(const struct tageval_wsi_result *r, size_t i)
{
	TV_NULL_RET(r, NULL);
	return i < r->nwords ? r->name[i] : NULL;
}

const struct tageval_wsi_figures *tageval_wsi_result_figures(const struct tageval_wsi_result *r,
							     size_t i)
{
	TV_NULL_RET(r, NULL);
	return i < r->nwords ? &r->fig[i] : NULL;
}

const struct tageval_wsi_figures *tageval_wsi_result_total(const struct tageval_wsi_result *r)
{
	TV_NULL_RET(r, NULL);
	return &r->total;
}

/* Scratch for building one word's table.  The classes' array, indexed by
 * gold label id, is stamped per word, so nothing is cleared between words;
 * the clusters' one, indexed by any label id (a million for the one
 * cluster per instance baseline: 4 bytes each, no stamps), is TV_NONE but
 * for the word's clusters, listed in kid to be reset at the next word. */
struct table {
	uint32_t *klocal, *cstamp, *clocal;
	size_t labcap, clabcap;
	uint32_t gen;
	uint32_t *kid;          /* the word's cluster label ids, kn's order */
	size_t nkid, kidcap;
	double *kn, *cn;        /* marginals */
	size_t kcap, ccap;
	uint64_t *keys;         /* the word's (cluster, class) label ids, then
				 * (sparse path) the cell keys: borrowed, or wk */
	uint64_t *wk;           /* a word's keys unpacked (packed_keys()) */
	size_t wkcap;
	double *dense;          /* dense path: k * nclass + c */
	size_t densecap;
	uint32_t *ck, *cc;      /* the cells */
	double *cv;
	size_t cellcap;
	double *scratch;
	size_t scratchcap;
};

static void table_free(struct table *t)
{
	free(t->klocal);
	free(t->kid);
	free(t->wk);
	free(t->cstamp);
	free(t->clocal);
	free(t->kn);
	free(t->cn);
	free(t->dense);
	free(t->ck);
	free(t->cc);
	free(t->cv);
	free(t->scratch);
}

/* The arrays of @t indexed by label id, for @nl labels of which the first
 * @ngold are the gold key's (the classes are among them); 0: out of
 * memory. */
static int table_alloc(struct table *t, size_t nl, size_t ngold)
{
	t->labcap = nl ? nl : 1;
	t->clabcap = ngold ? ngold : 1;
	t->cstamp = calloc(t->clabcap, sizeof *t->cstamp);
	t->klocal = malloc(t->labcap * sizeof *t->klocal);
	t->clocal = malloc(t->clabcap * sizeof *t->clocal);
	if (t->klocal != NULL)
		memset(t->klocal, 0xff, t->labcap * sizeof *t->klocal); /* TV_NONE */
	return t->cstamp && t->klocal && t->clocal;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The local indices of the word's clusters and classes (t->klocal,
 * t->clocal), counted into *nk and *nc, and their sizes (t->kn, t->cn),
 * from the word's (cluster, class) @keys, read in order. */
static int table_marginals(struct table *t, const uint64_t *keys, size_t n, size_t *nk_out,
			   size_t *nc_out)
{
	size_t nk = 0, nc = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t k = (uint32_t)(keys[i] >> 32), c = (uint32_t)keys[i];
		if (t->klocal[k] == TV_NONE) {
			if (tv_grow((void **)&t->kn, &t->kcap, nk + 1, sizeof *t->kn) ||
			    tv_grow((void **)&t->kid, &t->kidcap, nk + 1, sizeof *t->kid))
				return TAGEVAL_ENOMEM;
			t->kid[nk] = k;
			t->nkid = nk + 1;
			t->klocal[k] = (uint32_t)nk++;
			t->kn[nk - 1] = 0.0;
		}
		if (t->cstamp[c] != t->gen) {
			t->cstamp[c] = t->gen;
			t->clocal[c] = (uint32_t)nc++;
			if (tv_grow((void **)&t->cn, &t->ccap, nc, sizeof *t->cn))
				return TAGEVAL_ENOMEM;
			t->cn[nc - 1] = 0.0;
		}
		t->kn[t->klocal[k]] += 1.0;
		t->cn[t->clocal[c]] += 1.0;
	}
	*nk_out = nk;
	*nc_out = nc;
	return TAGEVAL_OK;
}

/* Room for @n cells: the three cell arrays grow together. */
static int grow_cells(struct table *t, size_t n)
{
	if (n <= t->cellcap)
		return TAGEVAL_OK;
	uint32_t *ck = realloc(t->ck, n * sizeof *ck);
	if (ck == NULL)
		return TAGEVAL_ENOMEM;
	t->ck = ck;
	uint32_t *cc = realloc(t->cc, n * sizeof *cc);
	if (cc == NULL)
		return TAGEVAL_ENOMEM;
	t->cc = cc;
	double *cv = realloc(t->cv, n * sizeof *cv);
	if (cv == NULL)
		return TAGEVAL_ENOMEM;
	t->cv = cv;
	t->cellcap = n;
	return TAGEVAL_OK;
}

/* The cells of a small table, counted in a dense array (never larger than
 * O(n)), in (cluster, class) order; their number into *ncell. */
static int dense_cells(struct table *t, size_t n, size_t nk, size_t nc, size_t *ncell)
{
	size_t cells = 0;
	if (tv_grow((void **)&t->dense, &t->densecap, nk * nc, sizeof *t->dense))
		return TAGEVAL_ENOMEM;
	memset(t->dense, 0, nk * nc * sizeof *t->dense);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = t->klocal[t->keys[i] >> 32];
		uint32_t c = t->clocal[t->keys[i] & 0xffffffffu];
		t->dense[(size_t)k * nc + c] += 1.0;
	}
	for (size_t k = 0; k < nk; k++)
		for (size_t c = 0; c < nc; c++)
			if (t->dense[k * nc + c] > 0.0) {
				t->ck[cells] = (uint32_t)k;
				t->cc[cells] = (uint32_t)c;
				t->cv[cells] = t->dense[k * nc + c];
				cells++;
			}
	*ncell = cells;
	return TAGEVAL_OK;
}

/* The cells of a large and sparse table, from the sorted (cluster, class)
 * keys; returns their number. */
static size_t sparse_cells(struct table *t, size_t n)
{
	size_t cells = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = t->klocal[t->keys[i] >> 32];
		uint64_t c = t->clocal[t->keys[i] & 0xffffffffu];
		t->keys[i] = k << 32 | c;
	}
	qsort(t->keys, n, sizeof *t->keys, by_key);
	for (size_t i = 0; i < n; i++) {
		if (cells > 0 && t->keys[i] == t->keys[i - 1]) {
			t->cv[cells - 1] += 1.0;
			continue;
		}
		t->ck[cells] = (uint32_t)(t->keys[i] >> 32);
		t->cc[cells] = (uint32_t)(t->keys[i] & 0xffffffffu);
		t->cv[cells] = 1.0;
		cells++;
	}
	return cells;
}

/* The cells of one word's table from its @n (cluster, class) @keys, as
 * word_keys() made them (the sparse path rewrites them). */
static int build_table(struct table *t, uint64_t *keys, size_t n, struct tv_cells *out)
{
	if (++t->gen == 0) {
		memset(t->cstamp, 0, t->clabcap * sizeof *t->cstamp);
		t->gen = 1;
	}
	for (size_t i = 0; i < t->nkid; i++) /* the word before's clusters */
		t->klocal[t->kid[i]] = TV_NONE;
	t->nkid = 0;
	t->keys = keys;
	size_t nk = 0, nc = 0;
	/* local indices of the word's clusters and classes, and their sizes */
	if (table_marginals(t, keys, n, &nk, &nc))
		return TAGEVAL_ENOMEM;
	size_t cells = 0;
	if (grow_cells(t, n))
		return TAGEVAL_ENOMEM;
	if (nk * nc <= 4 * n + 64) {
		/* small table: count in a dense array (never larger than O(n)) */
		if (dense_cells(t, n, nk, nc, &cells))
			return TAGEVAL_ENOMEM;
	} else {
		/* large and sparse: sort the (cluster, class) keys */
		cells = sparse_cells(t, n);
	}
	if (tv_grow((void **)&t->scratch, &t->scratchcap, nc + 2 * nk, sizeof *t->scratch))
		return TAGEVAL_ENOMEM;
	*out = (struct tv_cells){ .ncell = cells, .k = t->ck, .c = t->cc, .n = t->cv,
				  .ncluster = nk, .nclass = nc, .cluster_n = t->kn,
				  .class_n = t->cn, .total = (double)n };
	return TAGEVAL_OK;
}

/*
 * The bits of a class id in a packed key of 4 bytes, (cluster << bits |
 * class), when every class (a gold label) and every cluster (any label)
 * fits; 0 when they do not (8 bytes a key: cluster << 32 | class).  Four
 * bytes an instance, as the order of the instances took before.
 */
static unsigned packed_keys(const struct tageval_wsi *w)
{
	unsigned b = 1;
	while (b < 32 && ((size_t)1 << b) < w->gold_labels)
		b++;
	return b < 32 && tv_wsi_nlabels(w) <= ((size_t)1 << (32 - b)) ? b : 0;
}

/* The keys of every instance, packed (@k32, @shift bits a class) or not
 * (@k64). */
struct allkeys {
	uint64_t *k64;
	uint32_t *k32;
	unsigned shift;
};

/*
 * Every instance's (cluster, class) label ids, as SemEval-2010 reads them
 * (@jar) or as SemEval-2007 does, into @keys grouped by word: word v's from
 * start[v] on, in increasing instance order (the order of tv_wsi_group(),
 * whose cells and sums these must be, bit for bit).  The instances are cut
 * into runs (key_run), each a pass over its instances in their order, its
 * words' keys written from where the runs before leave them (@cur, one
 * position a word), so that every word's keys are in instance order
 * whatever the runs.  The pass by word it replaces read the instances'
 * arrays at random.
 */
static void word_keys(const struct tageval_wsi *w, uint32_t from, uint32_t to, int jar,
		      const struct allkeys *keys, uint32_t *cur)
{
	for (uint32_t i = from; i < to; i++) {
		/* a line of several labels or a weight has them in sys_pool, in
		 * the clusters file's order, not the gold key's: fetched ahead */
		uint32_t ahead = i + 16;
		if (ahead < w->n && (w->sflags[ahead] & TV_WF_POOLED)) {
			const struct tv_wlabel *lab = w->sys_pool + w->cl_j[ahead];
			__builtin_prefetch(lab);
			__builtin_prefetch(lab + 1);
		}
		const struct tv_winst *in = &w->in[i];
		uint32_t k = jar ? tv_wsi_cl_j(w, i) : tv_wsi_cl_p(w, i);
		uint32_t c = jar ? in->class_j : tv_wsi_class_l(w, i);
		if (keys->shift)
			keys->k32[cur[in->word]++] = k << keys->shift | c;
		else
			keys->k64[cur[in->word]++] = (uint64_t)k << 32 | c;
	}
}

/* The instances are cut into at most this many runs of equal length for
 * word_keys(): a constant, never the number of cores. */
#define TV_KEY_RUNS 8

struct key_job {
	const struct tageval_wsi *w;
	const struct allkeys *keys;
	int jar;
	size_t nw, nrun;
	uint32_t *first; /* [run * nw + word]: its count in the run, then its
			  * first place in the keys (prefix_runs) */
	uint32_t *cur;   /* a copy of first, advanced by key_run */
};

/* The first instance of run @i (run nrun: the end). */
static uint32_t run_first(const struct key_job *j, size_t i)
{
	return (uint32_t)((uint64_t)j->w->n * i / j->nrun);
}

/* How many instances of each word run @i has (first[] zeroed before). */
static void count_run(void *ctx, size_t i)
{
	const struct key_job *j = ctx;
	uint32_t *n = j->first + i * j->nw;
	for (uint32_t t = run_first(j, i); t < run_first(j, i + 1); t++)
		n[j->w->in[t].word]++;
}

/* The keys of run @i's instances (word_keys). */
static void key_run(void *ctx, size_t i)
{
	const struct key_job *j = ctx;
	word_keys(j->w, run_first(j, i), run_first(j, i + 1), j->jar, j->keys,
		  j->cur + i * j->nw);
}

/* The counts of count_run() made places: word v's keys of run i follow
 * those of the runs before, from start[v] on. */
static void prefix_runs(struct key_job *j, const uint32_t *start)
{
	for (size_t v = 0; v < j->nw; v++) {
		uint32_t at = start[v];
		for (size_t i = 0; i < j->nrun; i++) {
			uint32_t n = j->first[i * j->nw + v];
			j->first[i * j->nw + v] = at;
			at += n;
		}
	}
}

/* Runs for @n instances of @nw words: one per nw + 64 instances at most,
 * so that the runs' places (8 bytes a word a run) grow with the instances,
 * not with their product with the words. */
static size_t key_runs(size_t n, size_t nw)
{
	size_t nrun = 1 + n / (nw + 64);
	return nrun < TV_KEY_RUNS ? nrun : TV_KEY_RUNS;
}

/* Word @word's @n keys, as build_table() takes them: in place, or
 * unpacked into t->wk; NULL: out of memory. */
static uint64_t *word_slice(struct table *t, const struct allkeys *keys, const uint32_t *start,
			    size_t word, size_t n)
{
	if (!keys->shift)
		return keys->k64 + start[word];
	if (tv_grow((void **)&t->wk, &t->wkcap, n ? n : 1, sizeof *t->wk))
		return NULL;
	const uint32_t *p = keys->k32 + start[word];
	uint32_t mask = ((uint32_t)1 << keys->shift) - 1;
	for (size_t i = 0; i < n; i++)
		t->wk[i] = (uint64_t)(p[i] >> keys->shift) << 32 | (p[i] & mask);
	return t->wk;
}

/* The weighted sums of the per-word figures, exact: the order of the words
 * does not matter. */
enum { S_H, S_C, S_V, S_PP, S_PR, S_PF, S_F, S_PUR, S_ENT, S_N };

/* Adds word figures @f, of weight @wn (its instances), to the totals. */
static void add_word(struct tageval_wsi_figures *tot, struct tv_fsum sum[S_N],
		     const struct tageval_wsi_figures *f, double wn)
{
	tot->clusters += f->clusters;
	tot->clusters_2007 += f->clusters_2007;
	tot->classes += f->classes;
	tv_fsum_add(&sum[S_H], wn * f->homogeneity);
	tv_fsum_add(&sum[S_C], wn * f->completeness);
	tv_fsum_add(&sum[S_V], wn * f->v_measure);
	tv_fsum_add(&sum[S_PP], wn * f->paired_precision);
	tv_fsum_add(&sum[S_PR], wn * f->paired_recall);
	tv_fsum_add(&sum[S_PF], wn * f->paired_fscore);
	tv_fsum_add(&sum[S_F], wn * f->fscore);
	tv_fsum_add(&sum[S_PUR], wn * f->purity);
	tv_fsum_add(&sum[S_ENT], wn * f->entropy);
}

/* The totals: the sums' values, then each divided by the @N instances (the
 * counts of clusters and classes by the @nwords words). */
static void average_words(struct tageval_wsi_figures *tot, const struct tv_fsum sum[S_N],
			  double N, size_t nwords)
{
	tot->homogeneity = tv_fsum_result(&sum[S_H]);
	tot->completeness = tv_fsum_result(&sum[S_C]);
	tot->v_measure = tv_fsum_result(&sum[S_V]);
	tot->paired_precision = tv_fsum_result(&sum[S_PP]);
	tot->paired_recall = tv_fsum_result(&sum[S_PR]);
	tot->paired_fscore = tv_fsum_result(&sum[S_PF]);
	tot->fscore = tv_fsum_result(&sum[S_F]);
	tot->purity = tv_fsum_result(&sum[S_PUR]);
	tot->entropy = tv_fsum_result(&sum[S_ENT]);
	double nwd = (double)nwords;
	tot->instances = (size_t)N;
	tot->clusters /= nwd;
	tot->clusters_2007 /= nwd;
	tot->classes /= nwd;
	tot->homogeneity /= N;
	tot->completeness /= N;
	tot->v_measure /= N;
	tot->paired_precision /= N;
	tot->paired_recall /= N;
	tot->paired_fscore /= N;
	tot->fscore /= N;
	tot->purity /= N;
	tot->entropy /= N;
}

int tageval_wsi_evaluate(const struct tageval_wsi *w, const struct tageval_wsi_options *opts,
			 struct tageval_wsi_result **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	TV_NEED(err, w, "wsi");
	struct tageval_wsi_options o;
	if (opts)
		o = *opts;
	else
		tageval_wsi_options_init(&o);
	if (!(o.beta >= 0.0) || o.beta > 1e12)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "beta must be a number >= 0");
	/* where each word's instances start, as tv_wsi_group() gives it (no
	 * order: word_keys() needs none) */
	size_t nw = w->words.n;
	uint32_t *start = calloc(nw + 1, sizeof *start);
	if (start == NULL)
		return tv_nomem(err);
	for (size_t i = 0; i < w->n; i++)
		start[w->in[i].word + 1]++;
	for (size_t v = 0; v < nw; v++)
		start[v + 1] += start[v];
	int rc = tv_wsi_evaluate_grouped(w, &o, start, NULL, 0, out, err);
	free(start);
	return rc;
}

/*
 * The words are shared out in at most this many parts, runs of words with
 * their own tables (tv_parallel): a constant, never the number of cores.
 * Each word's figures are its table's alone, written to its own place:
 * the parts change no bit; the totals are summed after, in word order.
 */
#define TV_WSI_PARTS 8

/* One part: words [word0, word1), their figures from fig[fig0] on. */
struct word_part {
	uint32_t word0, word1;
	size_t fig0;
	struct table t;
	int oom;
};

struct word_job {
	const struct tageval_wsi *w;
	const struct tageval_wsi_options *o;
	const uint32_t *start;
	const struct allkeys *keys;
	int pass, two, no2007;
	struct tageval_wsi_figures *fig;
	struct word_part *part;
};

/* The tables of part @i's words selected, from the @keys of word_keys():
 * on pass 0 the SemEval-2010 figures, and the SemEval-2007 ones on the
 * pass that made their keys (1 when they differ, two; none with no2007). */
static void word_tables(void *ctx, size_t i)
{
	const struct word_job *j = ctx;
	struct word_part *p = &j->part[i];
	struct tageval_wsi_figures *fig = j->fig + p->fig0;
	for (uint32_t word = p->word0; word < p->word1; word++) {
		if (!tv_wsi_pos_match(tv_intern_str(&j->w->words, word), j->o->pos))
			continue;
		struct tv_cells cells;
		size_t n = j->start[word + 1] - j->start[word];
		uint64_t *wk = word_slice(&p->t, j->keys, j->start, word, n);
		if (wk == NULL || build_table(&p->t, wk, n, &cells)) {
			p->oom = 1;
			return;
		}
		if (j->pass == 0)
			tv_wsi_metrics_2010(&cells, j->o->beta, fig);
		if (!j->no2007 && j->pass == j->two)
			tv_wsi_metrics_2007(&cells, p->t.scratch, fig);
		fig++;
	}
}

/*
 * How many parts: one per word at most, and 1 + n / (nl + 64) at most for
 * @n instances and @nl labels, so that the parts' arrays by label id (4
 * bytes each) come to 4 bytes an instance at most: they grow with the
 * instances, not with their product with the labels (one cluster per
 * instance: one part).
 */
static size_t word_parts(size_t nw, size_t n, size_t nl)
{
	size_t np = 1 + n / (nl + 64);
	if (np > TV_WSI_PARTS)
		np = TV_WSI_PARTS;
	return np < nw ? np : nw;
}

/* The words cut into @np runs of about equal instances (start[]
 * cumulative), and the figures' place of each run's first (the words
 * before it that @o selects). */
static void cut_words(const struct tageval_wsi *w, const struct tageval_wsi_options *o,
		      const uint32_t *start, struct word_part *part, size_t np)
{
	size_t nw = w->words.n, nsel = 0;
	uint64_t total = start[nw];
	uint32_t v = 0;
	for (size_t i = 0; i < np; i++) {
		uint64_t want = total * (i + 1) / np;
		part[i].word0 = v;
		part[i].fig0 = nsel;
		while (v < nw && (i + 1 == np || start[v + 1] <= want))
			v++;
		if (v == part[i].word0 && v < nw && nw - v > np - i - 1)
			v++; /* never empty while words are left for the rest */
		part[i].word1 = v;
		for (uint32_t x = part[i].word0; x < v; x++)
			nsel += tv_wsi_pos_match(tv_intern_str(&w->words, x), o->pos) != 0;
	}
}

static void word_parts_free(struct word_part *part, size_t np)
{
	for (size_t i = 0; part && i < np; i++)
		table_free(&part[i].t);
	free(part);
}

/* @np parts with their tables (table_alloc); NULL: out of memory. */
static struct word_part *word_parts_alloc(size_t np, size_t nl, size_t ngold)
{
	struct word_part *part = calloc(np ? np : 1, sizeof *part);
	int ok = part != NULL;
	for (size_t i = 0; ok && i < np; i++)
		ok = table_alloc(&part[i].t, nl, ngold);
	if (!ok) {
		word_parts_free(part, np);
		return NULL;
	}
	return part;
}

/* The words' names and the totals of their figures (r->fig, made). */
static int word_totals(const struct tageval_wsi *w, const struct tageval_wsi_options *o,
		       const uint32_t *start, int no2007, struct tageval_wsi_result *r,
		       struct tageval_error *err)
{
	struct tageval_wsi_figures *tot = &r->total;
	double N = 0.0;
	struct tv_fsum sum[S_N];
	for (int i = 0; i < S_N; i++)
		tv_fsum_init(&sum[i]);
	for (size_t word = 0; word < w->words.n; word++) {
		const char *name = tv_intern_str(&w->words, (uint32_t)word);
		if (!tv_wsi_pos_match(name, o->pos))
			continue;
		struct tageval_wsi_figures *f = &r->fig[r->nwords];
		if (no2007) /* 0 in the sums, NaN once they are taken */
			f->clusters_2007 = f->fscore = f->purity = f->entropy = 0.0;
		r->name[r->nwords] = strdup(name);
		if (r->name[r->nwords] == NULL)
			return tv_nomem(err);
		r->nwords++;
		double wn = (double)(start[word + 1] - start[word]);
		N += wn;
		add_word(tot, sum, f, wn);
	}
	if (r->nwords == 0)
		return tv_error(err, TAGEVAL_EFORMAT, "", 0, "no target word selected");
	average_words(tot, sum, N, r->nwords);
	for (size_t i = 0; no2007 && i <= r->nwords; i++) {
		struct tageval_wsi_figures *f = i < r->nwords ? &r->fig[i] : tot;
		f->clusters_2007 = f->fscore = f->purity = f->entropy = NAN;
	}
	return TAGEVAL_OK;
}

int tv_wsi_evaluate_grouped(const struct tageval_wsi *w, const struct tageval_wsi_options *opts,
			    const uint32_t *start, const uint32_t *order, int no2007,
			    struct tageval_wsi_result **out, struct tageval_error *err)
{
	struct tageval_wsi_options o = *opts;
	(void)order; /* each word's instances ascending: word_keys() finds them so */
	*out = NULL;
	struct tageval_wsi_result *r = calloc(1, sizeof *r);
	size_t nw = w->words.n, nl = tv_wsi_nlabels(w);
	struct allkeys keys = { .shift = packed_keys(w) };
	size_t nk = w->n ? w->n : 1;
	if (keys.shift)
		keys.k32 = malloc(nk * sizeof *keys.k32);
	else
		keys.k64 = malloc(nk * sizeof *keys.k64);
	struct key_job kj = { w, &keys, 0, nw, key_runs(w->n, nw), NULL, NULL };
	kj.first = calloc(kj.nrun * nw + 1, sizeof *kj.first);
	kj.cur = malloc((kj.nrun * nw + 1) * sizeof *kj.cur);
	int rc = TAGEVAL_OK;
	if (r != NULL) {
		r->name = calloc(nw ? nw : 1, sizeof *r->name);
		r->fig = calloc(nw ? nw : 1, sizeof *r->fig);
	}
	size_t np = word_parts(nw, w->n, nl);
	struct word_part *part = word_parts_alloc(np, nl, w->gold_labels);
	if (r == NULL || !r->name || !r->fig || !(keys.k32 || keys.k64) || !kj.first || !kj.cur ||
	    !part) {
		rc = tv_nomem(err);
		goto out;
	}
	/* the SemEval-2007 table is the same one unless some line reads
	 * differently (class_l, cl_p or cl_pooled only then) */
	int two = !no2007 && (w->class_l != NULL || w->cl_p != NULL || w->cl_pooled);
	cut_words(w, &o, start, part, np);
	struct word_job job = { w, &o, start, &keys, 0, two, no2007, r->fig, part };
	tv_parallel(kj.nrun, count_run, &kj);
	prefix_runs(&kj, start);
	for (int pass = 0; pass <= two; pass++) {
		memcpy(kj.cur, kj.first, kj.nrun * nw * sizeof *kj.cur);
		kj.jar = pass == 0;
		tv_parallel(kj.nrun, key_run, &kj);
		job.pass = pass;
		tv_parallel(np, word_tables, &job);
		for (size_t i = 0; i < np; i++)
			if (part[i].oom) {
				rc = tv_nomem(err);
				goto out;
			}
	}
	rc = word_totals(w, &o, start, no2007, r, err);
out:
	word_parts_free(part, np);
	free(keys.k32);
	free(keys.k64);
	free(kj.first);
	free(kj.cur);
	if (rc) {
		tageval_wsi_result_free(r);
		return rc;
	}
	*out = r;
	return TAGEVAL_OK;
}
