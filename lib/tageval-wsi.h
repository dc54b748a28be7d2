/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Word sense induction data, shared by the readers and the evaluations. */
#ifndef TAGEVAL_WSI_H
#define TAGEVAL_WSI_H

#include "tageval-intern.h"
#include "tageval-util.h"

/* One gold instance: 12 bytes (and 1 of flags in gflags[]), the bulk of
 * what a large key costs (with its id in the interning table).  What a
 * system said of it is in arrays of their own in struct tageval_wsi (cl_j, sflags: 5 bytes; sys_line, 4 more,
 * while a clusters file is read), sized for the gold key's instances and
 * reused by each clusters file.  The
 * SemEval-2007 readings (class_l, cl_p), rarely different from the
 * SemEval-2010 ones, live in arrays of their own that exist only once some
 * line makes them differ; line numbers of 2^32 - 1 and more in a list. */
struct tv_winst {
	uint32_t word;
	uint32_t class_j;    /* first gold label, weight cut off */
	uint32_t gold_first; /* gold labels in gold_pool, their weights in gold_wpool
			      * (TV_NONE: one, class_j); their number
			      * (tv_wsi_gold_n()) in the pool just before */
};	/* 12 bytes; the gold line's TV_WF_* in gflags[], its number:
	 * tv_wsi_gold_line() */

/* The gold lines of the instances from @inst on are numbered inst + 1 +
 * @skip (the gold key's lines make the instances in turn), until the next
 * such gap. */
struct tv_wgap {
	uint32_t inst;
	uint32_t skip;
};
/* The same once the skip passes UINT32_MAX (more than 4G lines that make
 * no instance): every gap after that one is in this list too. */
struct tv_wgap_big {
	uint32_t inst;
	uint64_t skip;
};

#define TV_LINE_BIG UINT32_MAX

/* The label cache of struct tageval_wsi: 2^TV_WSI_LCACHE_BITS entries. */
#define TV_WSI_LCACHE_BITS 12

/* A line number too large for 32 bits, of instance inst's gold or system line. */
struct tv_wbigline {
	uint32_t inst;
	int sys;
	uint64_t line;
};

/* How a line gave its labels' weights (graded keys, SemEval-2013). */
#define TV_WF_WEIGHTED 1u /* every label has an explicit /weight */
#define TV_WF_SOMEW 2u    /* some label has one */
#define TV_WF_ZERO 4u     /* every label weighted, all weights 0 */
#define TV_WF_ANSWERED 8u /* in sflags: the instance has a system line */
#define TV_WF_POOLED 16u  /* in sflags: its labels are in sys_pool from cl_j on */

/* A system line for an instance the gold key lacks, under one of its words:
 * its labels are in sys_pool (the fuzzy metrics count such instances). */
struct tv_wextra {
	uint32_t word;
	uint64_t line;
	uint32_t sys_first, sys_n;
	uint8_t flags;
};

/* A label token split from its weight: its length and the weight (1 when none). */
struct tv_wtok {
	size_t len;
	double w;
};

struct tv_wlabel {
	uint32_t label;
	uint32_t nline; /* in sys_pool, a system line's first label: the line's
			 * number of labels (the padding otherwise) */
	double w;
};

/* A single gold label or a single unweighted cluster label is kept in the
 * instance itself (class_j) or in cl_j rather than in a pool: the first
 * index is then TV_NONE.  tv_wsi_gold() and tv_wsi_sys() (below) give the
 * labels either way.  Graded reading
 * (reference-wsi2013.md 2.2): a line's memberships are its weights divided
 * by the largest when gflags/sflags has TV_WF_WEIGHTED, else all 1; so a
 * single label's membership is 1 whatever its weight (TV_WF_ZERO: all 0). */
static inline const uint32_t *tv_wsi_gold(const uint32_t *pool, const struct tv_winst *in)
{
	return in->gold_first == TV_NONE ? &in->class_j : pool + in->gold_first;
}

/* The number of its gold labels (1 or more). */
static inline uint32_t tv_wsi_gold_n(const uint32_t *pool, const struct tv_winst *in)
{
	return in->gold_first == TV_NONE ? 1 : pool[in->gold_first - 1];
}

struct tageval_wsi {
	struct tv_intern ids;     /* instance id -> index */
	struct tv_intern words;
	struct tv_intern labels;  /* labels, tie sets, the "unanswered" cluster */
	struct tv_winst *in;
	size_t n, cap;
	uint8_t *gflags;          /* TV_WF_* of instance i's gold line (1 B, not 4 in
				   * struct tv_winst's padding) */
	size_t gfcap;
	/* the system side of the gold instances, n of each, allocated once the
	 * gold key is read; read them with tv_wsi_cl_j(), tv_wsi_sys_n(),
	 * tv_wsi_sys(): */
	uint32_t *cl_j;           /* a single label of weight 1 (SemEval-2010's
				   * cluster); the unanswered cluster when no line;
				   * TV_WF_POOLED: where the line's labels are in
				   * sys_pool (the first is the cluster) */
	uint32_t *sys_line;       /* TV_LINE_BIG: see tv_wsi_sys_line(); NULL but while
				   * a clusters file is read (then in big[], those
				   * of lines with weights all 0) */
	uint8_t *sflags;          /* TV_WF_* of the system line, TV_WF_ANSWERED,
				   * TV_WF_POOLED */
	uint32_t *gold_pool;
	double *gold_wpool;       /* the weights of gold_pool's labels (1 when none given) */
	size_t ngold, goldcap, gwcap;
	struct tv_wlabel *sys_pool;
	size_t nsys, syscap;
	size_t ignored;
	size_t answered;          /* gold instances given a system line */
	struct tv_intern xids;    /* extra instances' ids */
	struct tv_wextra *extra;
	size_t nextra, extracap;
	struct tageval_wsi_counts counts;
	int have_gold, have_system;
	uint32_t unanswered;      /* label id of the extra cluster */
	char *gold_name, *sys_name;
	size_t gold_labels;       /* labels.n once the gold key is read */
	size_t vlabels;           /* label ids below this are in use, some of them not
				   * interned (the baseline of one cluster per instance:
				   * its labels are never printed); see tv_wsi_nlabels() */
	uint32_t *class_l;        /* first gold token as written (SemEval-2007); NULL: class_j */
	uint32_t *cl_p;           /* label(s) of largest weight (SemEval-2007); NULL: cl_j,
				   * or where cl_pooled says */
	int cl_pooled;            /* some line's cl_p differs from its cl_j: kept + 1 in
				   * the nline of its second label in sys_pool (only a
				   * line of two labels or more can differ), 0 there
				   * when the same */
	uint32_t *cl_p_spare;     /* the cl_p of the clusters before, reused */
	size_t class_lcap;
	struct tv_wgap *gap;      /* the gold lines, when any is not the line after
				   * the instance before's (blank lines, comments) */
	size_t ngap, gapcap;
	struct tv_wgap_big *bgap; /* the gaps of a skip past UINT32_MAX */
	size_t nbgap, bgapcap;
	struct tv_wbigline *big;  /* system line numbers >= TV_LINE_BIG */
	size_t nbig, bigcap;
	/* the ids (+ 1, 0: none) of labels looked up lately, by a cheap hash of
	 * their bytes (intern_kind() in tageval-wsi-read.c) */
	uint32_t lcache[1u << TV_WSI_LCACHE_BITS];
	/* the same for the gold key's words (word_id()) */
	uint32_t wcache[1u << TV_WSI_LCACHE_BITS];
	/* scratch */
	char *buf;
	size_t bufcap;
	struct tv_wtok *tok;      /* a system line's labels as split, for pool_labels() */
	size_t tokcap;
};

/* The number of label ids (arrays indexed by label id have this size):
 * labels.n, or more after a baseline of one cluster per instance, whose
 * labels have ids but no strings (tv_intern_str() must not be asked). */
static inline size_t tv_wsi_nlabels(const struct tageval_wsi *w)
{
	return w->vlabels > w->labels.n ? w->vlabels : w->labels.n;
}

/* Instance i's SemEval-2010 cluster: its first system label (the
 * unanswered cluster when none). */
static inline uint32_t tv_wsi_cl_j(const struct tageval_wsi *w, uint32_t i)
{
	if (w->sflags[i] & TV_WF_POOLED)
		return w->sys_pool[w->cl_j[i]].label;
	return w->cl_j[i];
}

static inline uint32_t tv_wsi_class_l(const struct tageval_wsi *w, uint32_t i)
{
	return w->class_l ? w->class_l[i] : w->in[i].class_j;
}

static inline uint32_t tv_wsi_cl_p(const struct tageval_wsi *w, uint32_t i)
{
	if (w->cl_p)
		return w->cl_p[i];
	if (w->cl_pooled && (w->sflags[i] & TV_WF_POOLED)) {
		const struct tv_wlabel *lab = w->sys_pool + w->cl_j[i];
		if (lab[0].nline >= 2 && lab[1].nline != 0)
			return lab[1].nline - 1;
		return lab[0].label;
	}
	return tv_wsi_cl_j(w, i);
}

/* Where instance i's system labels are in sys_pool (TV_NONE: its single
 * label is cl_j[i], or it is unanswered). */
static inline uint32_t tv_wsi_sys_first(const struct tageval_wsi *w, uint32_t i)
{
	return (w->sflags[i] & TV_WF_POOLED) ? w->cl_j[i] : TV_NONE;
}

/* The number of instance i's system labels (0: unanswered). */
static inline uint32_t tv_wsi_sys_n(const struct tageval_wsi *w, uint32_t i)
{
	if (w->sflags[i] & TV_WF_POOLED)
		return w->sys_pool[w->cl_j[i]].nline;
	return (w->sflags[i] & TV_WF_ANSWERED) != 0;
}

/* Instance i's system labels (tv_wsi_sys_n() of them), in sys_pool or,
 * a single label of weight 1, in *one. */
static inline const struct tv_wlabel *tv_wsi_sys(const struct tageval_wsi *w, uint32_t i,
						 struct tv_wlabel *one)
{
	uint32_t first = tv_wsi_sys_first(w, i);
	if (first != TV_NONE)
		return w->sys_pool + first;
	one->label = w->cl_j[i];
	one->w = 1.0;
	return one;
}

/* tageval_wsi_evaluate() (@opts checked, not NULL) with the instances
 * grouped by word as tv_wsi_group() gives them, borrowed (@start only is
 * read: each word's instances are taken in increasing order, as @order
 * has them, NULL allowed); @no2007: the
 * SemEval-2007 figures (clusters_2007, fscore, purity, entropy) not
 * computed but NaN, the others the same bit for bit. */
struct tageval_wsi_options;
struct tageval_wsi_result;
int tv_wsi_evaluate_grouped(const struct tageval_wsi *w, const struct tageval_wsi_options *opts,
			    const uint32_t *start, const uint32_t *order, int no2007,
			    struct tageval_wsi_result **out, struct tageval_error *err);
/* The line numbers of instance i's gold and system lines (the system's:
 * after a read, only those of lines whose weights are all 0; 0 otherwise). */
uint64_t tv_wsi_gold_line(const struct tageval_wsi *w, uint32_t i);
uint64_t tv_wsi_sys_line(const struct tageval_wsi *w, uint32_t i);

/* A line's label of largest weight, the first on ties (the crisp reading). */
uint32_t tv_wsi_crisp_gold(const struct tageval_wsi *wsi, const struct tv_winst *in);
uint32_t tv_wsi_crisp_sys(const struct tageval_wsi *wsi, uint32_t i);

/* Forgets the clusters read, keeping the gold key, so that another
 * clustering can be read: the labels get the ids a fresh object would give
 * them (those of the gold key kept, the rest interned anew). */
int tv_wsi_clear_clusters(struct tageval_wsi *wsi);
/* Reads a baseline clustering as if from a clusters file of one line per
 * gold instance, the instances taken in @order (every one of them): label
 * "cl1" for method 0 (one cluster per word), "cl<k>" for the k-th instance
 * for method 1 (one per instance), "rand<r>" for method 2, r drawn
 * uniformly below @k with GSL's mt19937 seeded with @seed. */
int tv_wsi_baseline(struct tageval_wsi *wsi, const uint32_t *order, int method,
		    unsigned long seed, unsigned long k, const char *name);

/* Instances of each word: order[start[w] .. start[w+1]), in increasing
 * order (a stable counting sort, tv_group_by(); the drawn splits' roles
 * count on it). */
int tv_wsi_group(const struct tageval_wsi *wsi, uint32_t **start, uint32_t **order);
/* Does the word's name end in ".pos" (pos NULL or "all": every word)? */
int tv_wsi_pos_match(const char *word, const char *pos);

#endif
