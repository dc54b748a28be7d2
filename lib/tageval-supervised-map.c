/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Supervised evaluation of induced senses: the mapping P(sense | cluster)
 * learnt on the mapping part of a split, the mapped answers of the test
 * part, and their scoring with the Senseval scorer.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tageval-fsum.h"
#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-key.h"
#include "tageval-parallel.h"
#include "tageval-score.h"
#include "tageval-supervised.h"
#include "tageval-util.h"
#include "tageval-wsi.h"

/* ------------------------------------------------------------ mapping and scoring */

struct triple {
	uint32_t cluster; /* local index */
	uint32_t sense;   /* local index */
	double v;
};

/* A triple of a word's instance at grouped position p (map_word_shared()). */
struct wtriple {
	uint32_t cluster, sense;
	double v;
	uint32_t p;
};

/* A cell of the sorted word triples: its key and where its run starts. */
struct wcell {
	uint32_t cluster, sense;
	size_t first;
};

/* Sorts @n triples by value, stably (a bottom-up merge sort through @tmp,
 * room for n): equal values keep their order. */
static void sort_by_value(struct triple *tr, size_t n, struct triple *tmp)
{
	struct triple *a = tr, *b = tmp;
#define VALUE_LESS(x, y) ((x)->v < (y)->v)
	TV_MERGE_SORT(struct triple, a, b, n, VALUE_LESS);
#undef VALUE_LESS
	if (a != tr)
		memcpy(tr, a, n * sizeof *tr);
}

/*
 * Sorts a run @r of @n triples of one cluster and one sense (they differ in
 * their values alone) by value, as sort_by_value does (@tmp: room for n).
 * Most values are 1, those of crisp lines: the others are moved to the
 * front in their order, sorted, and the ones put back in their place, after
 * the smaller values.  Equal values are equal triples, so the run comes out
 * as a stable sort of the whole run leaves it, with fewer comparisons.
 */
static void sort_run(struct triple *r, size_t n, struct triple *tmp)
{
	const struct triple one = { r[0].cluster, r[0].sense, 1.0 };
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].v != 1.0)
			r[m++] = r[i];
	size_t ones = n - m;
	if (m <= 48) {
		for (size_t a = 1; a < m; a++) {
			struct triple t = r[a];
			size_t b = a;
			for (; b > 0 && t.v < r[b - 1].v; b--)
				r[b] = r[b - 1];
			r[b] = t;
		}
	} else {
		sort_by_value(r, m, tmp);
	}
	if (ones == 0)
		return;
	size_t q = m;
	while (q > 0 && r[q - 1].v > 1.0)
		q--;
	memmove(r + q + ones, r + q, (m - q) * sizeof *r);
	for (size_t i = q; i < q + ones; i++)
		r[i] = one;
}

/*
 * The counting sorts of sort_triples() and sort_wtriples(): @tr's @ntr
 * elements (of either type: fields cluster and sense) by sense (TV_NONE as
 * @ns, last) into @tmp, then stably by cluster back into @tr.  @cnt: max(nk,
 * ns + 1) + 1 counts.
 */
#define SORT_BY_CLUSTER_SENSE(tr, ntr, tmp, cnt, nk, ns)                                          \
	do {                                                                                      \
		memset((cnt), 0, ((ns) + 2) * sizeof *(cnt));                                     \
		for (size_t i_ = 0; i_ < (ntr); i_++)                                             \
			(cnt)[((tr)[i_].sense == TV_NONE ? (ns) : (tr)[i_].sense) + 1]++;         \
		for (size_t j_ = 1; j_ <= (ns) + 1; j_++)                                         \
			(cnt)[j_] += (cnt)[j_ - 1];                                               \
		for (size_t i_ = 0; i_ < (ntr); i_++)                                             \
			(tmp)[(cnt)[(tr)[i_].sense == TV_NONE ? (ns) : (tr)[i_].sense]++] = (tr)[i_]; \
		memset((cnt), 0, ((nk) + 1) * sizeof *(cnt));                                     \
		for (size_t i_ = 0; i_ < (ntr); i_++)                                             \
			(cnt)[(tmp)[i_].cluster + 1]++;                                           \
		for (size_t k_ = 1; k_ <= (nk); k_++)                                             \
			(cnt)[k_] += (cnt)[k_ - 1];                                               \
		for (size_t i_ = 0; i_ < (ntr); i_++)                                             \
			(tr)[(cnt)[(tmp)[i_].cluster]++] = (tmp)[i_];                             \
	} while (0)

/*
 * The triples sorted by cluster, then sense (TV_NONE, the row sums, last),
 * then value -- summed in that order, equal cells give the same bits
 * whatever the order of the lines -- in linear time but for the values: a counting sort by sense
 * (TV_NONE as @ns), then a stable one by cluster (@nk clusters), then each
 * run of one (cluster, sense) sorted by value.  Runs of equal keys hold
 * equal values in some order, so the sums taken in this order have the
 * same bits as after one qsort by (cluster, sense, value).  @tmp and @cnt are
 * scratch of ntr triples and max(nk, ns + 1) + 1 counts.
 */
static void sort_triples(struct triple *tr, size_t ntr, struct triple *tmp, size_t *cnt,
			 size_t nk, size_t ns)
{
	SORT_BY_CLUSTER_SENSE(tr, ntr, tmp, cnt, nk, ns);
	for (size_t i = 0; i < ntr;) {
		size_t j = i + 1;
		int sorted = 1;
		while (j < ntr && tr[j].cluster == tr[i].cluster && tr[j].sense == tr[i].sense) {
			sorted &= !(tr[j].v < tr[j - 1].v);
			j++;
		}
		/* a run already in order (all weights 1, as crisp lines give) is left */
		if (!sorted)
			sort_run(tr + i, j - i, tmp);
		i = j;
	}
}

struct sense_name {
	uint32_t id;
	const char *name;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sense_name *)a)->name, ((const struct sense_name *)b)->name);
}

/* A growable text buffer. */
struct text {
	char *s;
	size_t len, cap;
};

static int text_put(struct text *t, const char *a)
{
	size_t la = strlen(a);
	if (tv_grow((void **)&t->s, &t->cap, t->len + la + 1, 1))
		return TAGEVAL_ENOMEM;
	memcpy(t->s + t->len, a, la + 1);
	t->len += la;
	return TAGEVAL_OK;
}

static int text_char(struct text *t, char ch)
{
	if (tv_grow((void **)&t->s, &t->cap, t->len + 2, 1))
		return TAGEVAL_ENOMEM;
	t->s[t->len++] = ch;
	t->s[t->len] = '\0';
	return TAGEVAL_OK;
}

struct answer {
	uint32_t word, inst;     /* ids in the wsi object */
	uint32_t index;          /* of the instance in the split's key */
	uint32_t sense;
	double score;
};

/* A distinct value of a mapping row and the first sense (local index) holding it. */
struct group {
	double v;
	uint32_t sense;
};

/* A cluster of a test instance: its row and its factor w / rowsum. */
struct wcl {
	uint32_t row;
	double f;
};

/* A sense two rows share: its values in the lower and the higher row. */
struct pt {
	double a, b;
	uint32_t sense;
};

/* The senses rows r0 < r1 share, pts[first .. first + n), peeled lazily
 * into layers: layer i is pts[first + lay[i] .. first + lay[i + 1]),
 * i < nlay; the rest, pts[first + lay[nlay] .. first + n), is not peeled
 * yet and stays sorted by (a, b, sense). */
struct pairset {
	uint32_t r0, r1;
	uint32_t first, n;
	int safe; /* every value within [2^-300, 2^300] */
	uint32_t *lay;
	size_t nlay, laycap;
};

/* A vector of several clusters already scored: key mkey[first .. first + n). */
struct memo {
	uint64_t h;
	uint32_t first, n; /* n == 0: an empty slot */
	uint32_t best;
	double score;
};

/* Per-evaluation scratch, indexed by sense id or cluster label id. */
struct scratch {
	struct tageval_inventory *inv; /* the split key's */
	/* without a key (see tageval_supervised_evaluate()): the test instances
	 * whose answer is one of their labels, and whether one has more labels
	 * than the key allows */
	size_t ncorrect;
	int too_many;
	uint32_t *tagof;            /* sense id -> 1 + its tag in inv, 0 not yet, TV_NONE
				     * a name with '/' (see tag_of) */
	uint32_t *sstamp, *slocal;  /* sense id -> local index */
	uint32_t *crow;             /* cluster label -> its row; TV_NONE but for the
				     * word's clusters, listed in clab to be reset at
				     * the next word (4 bytes a label: a million of
				     * them at the one cluster per instance baseline) */
	uint32_t *clab;
	size_t nclab, clabcap;
	uint32_t gen;
	struct sense_name *names;
	size_t namecap;
	struct triple *tr;
	size_t ntr, trcap;
	struct triple *tr2;   /* the counting sort's other buffer */
	size_t tr2cap;
	size_t *cnt;          /* its counts, max(clusters, senses + 1) + 1 */
	size_t cntcap;
	double *score;
	size_t scorecap;
	double *rowsum;
	size_t rowcap;
	uint32_t *ones;       /* fill_ones(): the values 1 of each cell, then of each row */
	size_t onescap;
	size_t *rowstart;
	size_t rowstartcap;
	const char **labname;
	size_t labcap;
	uint32_t *labtag;
	size_t labtagcap;
	struct answer *ans;
	size_t nans, anscap;
	/* step 3: the senses a test instance touches, each row's values in
	 * decreasing order (built when first needed), the vectors seen */
	uint32_t *tstamp, *touched;
	size_t tcap, tlcap;
	uint32_t tgen;
	struct group *grp;
	size_t ngrp, grpcap;
	uint32_t *grpstart;   /* per cluster row: into grp, or TV_NONE */
	uint32_t *grpn;
	size_t grprowcap;
	struct memo *memo;    /* open addressing, nmemo slots (a power of 2) */
	size_t nmemo, memoused;
	struct wcl *mkey;     /* the vectors of the memo, one after the other */
	size_t nmkey, mkeycap;
	struct wcl *vec;      /* the current instance's vector */
	size_t veccap;
	/* two-cluster vectors: the senses two rows share, per pair of rows
	 * met (see best_of_pair) */
	struct pairset *pairs;
	size_t npairs, paircap;
	uint32_t *phash;      /* open addressing: pair index + 1, 0 empty */
	size_t nphash;
	struct pt *pts;       /* the pairs' points, one pair after the other */
	size_t npts, ptscap;
	struct pt *ptmp;      /* peeling: a pair's remaining points */
	size_t ptmpcap;
	uint32_t *hull;       /* peeling: the chain being built */
	size_t hullcap;
	/* map_word_shared(): the triples of all the word's instances, sorted
	 * once for every split */
	struct wtriple *wtr, *wtr2;
	size_t nwtr, wtrcap, wtr2cap;
	/* ... and summed for up to WALK_SPLITS splits in one walk: the cells
	 * (runs of one cluster and sense) of the sorted triples, where each
	 * starts, each split's sums and whether it has begun them, and the
	 * splits each of the word's positions maps in (a bit per split) */
	struct wcell *cell;
	size_t cellcap;
	double *csum;
	size_t csumcap;
	uint8_t *cbegun;
	size_t cbeguncap;
	uint8_t *mbits;
	size_t mbitscap;
	/* map_test_one(): per cluster row of the split, its best sense and
	 * score for an instance of that cluster alone, once known */
	uint32_t *rbest;
	double *rtop;
	uint8_t *rknown;
	size_t rbestcap, rtopcap, rknowncap;
};

static void scratch_free(struct scratch *x)
{
	free(x->cell);
	free(x->csum);
	free(x->cbegun);
	free(x->mbits);
	free(x->rbest);
	free(x->rtop);
	free(x->rknown);
	free(x->wtr);
	free(x->wtr2);
	free(x->sstamp);
	free(x->slocal);
	free(x->clab);
	free(x->crow);
	free(x->names);
	free(x->tr);
	free(x->tr2);
	free(x->cnt);
	free(x->score);
	free(x->rowsum);
	free(x->ones);
	free(x->rowstart);
	free(x->labname);
	free(x->labtag);
	free(x->tagof);
	free(x->ans);
	free(x->tstamp);
	free(x->touched);
	free(x->grp);
	free(x->grpstart);
	free(x->grpn);
	free(x->memo);
	free(x->mkey);
	free(x->vec);
	for (size_t i = 0; i < x->npairs; i++)
		free(x->pairs[i].lay);
	free(x->pairs);
	free(x->phash);
	free(x->pts);
	free(x->ptmp);
	free(x->hull);
}

static const struct tv_wlabel *sys_of(const struct tageval_supervised *s, const struct grouped *g,
				      struct tv_wlabel *one)
{
	if (s->gkind[g - s->g] == TV_G_POOLED)
		return s->gsys + g->v;
	one->label = g->v;
	one->w = 1.0;
	return one;
}

static struct tv_senses labels_of(const struct tageval_supervised *s, const struct split *sp,
				  const struct grouped *g)
{
	if (sp->lab_first) {
		uint32_t inst = tv_sup_inst(s, g);
		return (struct tv_senses){ NULL, sp->pool + sp->lab_first[inst], sp->lab_n[inst] };
	}
	return tv_sup_gold(s, g);
}

/* Scratch of step 3 for a word of @ns senses and @nk cluster rows. */
static int step3_fit(struct scratch *x, size_t ns, size_t nk)
{
	if (ns > x->tcap) {
		free(x->tstamp);
		x->tcap = 0; /* a failure leaves the scratch whole: it may be reused */
		x->tstamp = calloc(ns, sizeof *x->tstamp);
		if (x->tstamp == NULL)
			return TAGEVAL_ENOMEM;
		x->tcap = ns;
		x->tgen = 0;
	}
	if (tv_grow((void **)&x->touched, &x->tlcap, ns + 1, sizeof *x->touched) ||
	    tv_grow((void **)&x->score, &x->scorecap, ns + 1, sizeof *x->score))
		return TAGEVAL_ENOMEM;
	if (nk > x->grprowcap) {
		free(x->grpstart);
		free(x->grpn);
		x->grprowcap = 0;
		x->grpstart = malloc(nk * sizeof *x->grpstart);
		x->grpn = malloc(nk * sizeof *x->grpn);
		if (x->grpstart == NULL || x->grpn == NULL)
			return TAGEVAL_ENOMEM;
		x->grprowcap = nk;
	}
	for (size_t k = 0; k < nk; k++)
		x->grpstart[k] = TV_NONE;
	x->ngrp = 0;
	/* the memo is the word's: its rows and factors are */
	if (x->memo)
		memset(x->memo, 0, x->nmemo * sizeof *x->memo);
	x->memoused = 0;
	x->nmkey = 0;
	/* and so are the pairs of rows */
	for (size_t i = 0; i < x->npairs; i++)
		free(x->pairs[i].lay);
	x->npairs = 0;
	x->npts = 0;
	if (x->phash)
		memset(x->phash, 0, x->nphash * sizeof *x->phash);
	return TAGEVAL_OK;
}

static int by_value_down(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return (x->sense > y->sense) - (x->sense < y->sense);
}

/*
 * One cluster: the scores are f * v over the row's values v (every other
 * sense 0), so the best is the first sense of the largest value -- or of a
 * smaller value whose product rounds to the same score.  The row's distinct
 * values, largest first, each with its first sense, are sorted once; an
 * instance then costs the few values whose product ties with the largest.
 */
static int best_of_row(struct scratch *x, const size_t *rowstart, struct wcl c, uint32_t *best,
		       double *top)
{
	size_t k = c.row, a = rowstart[k], b = rowstart[k + 1];
	if (a == b) {
		*top = 0.0;
		return TAGEVAL_OK;
	}
	if (x->grpstart[k] == TV_NONE) {
		if (tv_grow((void **)&x->grp, &x->grpcap, x->ngrp + (b - a), sizeof *x->grp))
			return TAGEVAL_ENOMEM;
		struct group *gr = x->grp + x->ngrp;
		for (size_t i = a; i < b; i++)
			gr[i - a] = (struct group){ x->tr[i].v, x->tr[i].sense };
		/* a strict order (a row's senses are distinct): any sort gives
		 * the same; short rows, the usual, by insertion */
		if (b - a <= 64) {
			for (size_t i = 1; i < b - a; i++) {
				struct group t = gr[i];
				size_t j = i;
				for (; j > 0 && by_value_down(&t, &gr[j - 1]) < 0; j--)
					gr[j] = gr[j - 1];
				gr[j] = t;
			}
		} else {
			qsort(gr, b - a, sizeof *gr, by_value_down);
		}
		size_t n = 0;
		for (size_t i = 0; i < b - a; i++)
			if (n == 0 || gr[i].v != gr[n - 1].v)
				gr[n++] = gr[i];
		x->grpstart[k] = (uint32_t)x->ngrp;
		x->grpn[k] = (uint32_t)n;
		x->ngrp += n;
	}
	const struct group *gr = x->grp + x->grpstart[k];
	double m = c.f * gr[0].v;
	uint32_t j = gr[0].sense;
	for (size_t i = 1; i < x->grpn[k] && c.f * gr[i].v == m; i++)
		if (gr[i].sense < j)
			j = gr[i].sense;
	*best = j;
	*top = m;
	return TAGEVAL_OK;
}

static uint64_t vector_hash(const struct wcl *v, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < n; i++) {
		uint64_t bits;
		memcpy(&bits, &v[i].f, sizeof bits);
		h = (h ^ v[i].row) * 0xff51afd7ed558ccdu;
		h = (h ^ bits) * 0xc4ceb9fe1a85ec53u;
		h ^= h >> 29;
	}
	return h;
}

static int same_vector(const struct wcl *a, const struct wcl *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].row != b[i].row || memcmp(&a[i].f, &b[i].f, sizeof a[i].f) != 0)
			return 0;
	return 1;
}

/*
 * Two clusters (issue 17).  A test line "c0/w c1/(1 - w)" scores the senses
 * the two rows share with F(s) = fl(fl(f0 a_s) + fl(f1 b_s)), a_s and b_s
 * their values in the two rows, f0 and f1 the line's factors; every other
 * sense of a row gets fl(f v) (one term: 0 + x is x).  Instances that give
 * a big row a different weight each defeat the memo, and summing the two
 * rows for each cost rows x instances.  Here, exactly, with the same bits:
 *
 * 1. The best single-row score of each row is best_of_row's (m_c, j_c): a
 *    sense in both rows only scores more (the terms are >= 0 and rounding is
 *    monotone), so the maximum is max(m_0, m_1, the best shared F), and the
 *    winner the smallest sense among j_c of m_c equal to it and the shared
 *    senses of F equal to it (if j_c is shared, F(j_c) lies between m_c and
 *    the maximum).
 * 2. The shared senses are points (a, b) of the plane, once per pair of
 *    rows: the senses of the shorter row looked up in the longer one.  The
 *    real score S = f0 a + f1 b (f0, f1 > 0) is largest on the upper-right
 *    convex chain of the points; the points are peeled, lazily, into such
 *    chains ("layers": layer i is the chain of what layers 0 .. i - 1 left),
 *    so the maximum over layer i bounds every later layer.  On a chain S is
 *    unimodal, and its maximum is found by a binary search.  Every predicate
 *    is exact: each product is split into two doubles (fma) and the sign of
 *    their sum is that of its exactly rounded value (tv_fsum_array); the
 *    values are kept within [2^-300, 2^300] so that no product underflows
 *    (otherwise, and for lines of one cluster twice, the general sum).
 * 3. Rounding: F = S (1 + e), |e| <= 2u + u^2 (u = 2^-53, all terms
 *    >= 0).  The winner has F >= F* = F(v*), v* the real maximum (layer 0),
 *    so S >= F* (1 - 4u) roughly; thr = F* (1 - 2^-48) lies far enough
 *    below that any point of F < thr has S < F* / (1 + 4u), and every point
 *    past it on its chain (S only decreases away from the maximum), or in a
 *    later layer if it is that layer's maximum, has F < F*.  So each layer
 *    is walked from its maximum both ways while F >= thr, and the layers
 *    until one's maximum is below thr; every point walked has its F
 *    computed as the general sum does, and ties are resolved by sense.
 *
 * Cost, for a word: a pair of rows of lengths p <= q costs O(p log q) to
 * find its m shared senses and O(m log m) to sort them, once; peeling a
 * layer costs O(m) exact orientation tests.  A line then costs two
 * best_of_row calls and, per layer visited, O(log m) plus one F per point
 * walked.  Normally layer 0 alone is visited, and only its maximum and its
 * neighbours are walked: O(log m) per line, O(n log n) in all.  The walk
 * is longer only for points whose real scores agree with the maximum to
 * within 2^-48 (near-ties); which of k such points rounds highest does not
 * follow the real order, and we know no way to find it without their k
 * evaluations, so k near-tied senses and n distinct scalings of one
 * direction cost n k.  A line that would visit more than PAIR_LAYERS layers
 * is left to the general sum: no line costs more than before plus
 * O(PAIR_LAYERS log m), no pair more than PAIR_LAYERS peelings.  Lines of
 * two short rows (PAIR_MIN_TERMS values in all) and of three clusters or
 * more keep the general sum (tests/bench/README: for many
 * clusters no exact subquadratic method exists under SETH).
 */
/* The layers a line may visit before it is left to the general sum. */
#define PAIR_LAYERS 8
/* Lines whose two rows hold this many (cluster, sense) values or fewer take
 * the general sum: it costs those few products, less than finding, sorting
 * and peeling the rows' shared senses once per pair of rows (a word of 10
 * senses and 50 clusters meets most of its 1,225 pairs once per split), and
 * gives the same bits (see above). */
#define PAIR_MIN_TERMS 24

static void two_prod(double p, double q, double *t)
{
	t[0] = p * q;
	t[1] = fma(p, q, -t[0]);
}

static int sign_of(const double *t, size_t n)
{
	return tv_fsum_sign(t, n);
}

/*
 * The sign of S(p) - S(q) = d0 (p.a - q.a) + d1 (p.b - q.b), exactly.  The
 * four products are > 0 and within [2^-600, 2^600] (in_range(): no
 * underflow), so the rounded s = fl(fl(x0 + x1) - fl(y0 + y1)) is off the
 * exact x0 + x1 - y0 - y1 by at most ((1 + u)^2 - 1)(x0 + x1 + y0 + y1),
 * about 2u of their sum (u = 2^-53: a product, then one addition, on each
 * side), and the subtraction keeps the sign: when |s| passes 8u of the sum
 * (a margin of 4), s has the exact sign.  Otherwise, near a tie, the exact
 * sum of the products and their errors decides, as it did for all.
 */
static int cmp_dir(double d0, double d1, const struct pt *p, const struct pt *q)
{
	double x = d0 * p->a + d1 * p->b, y = d0 * q->a + d1 * q->b;
	double diff = x - y;
	if (fabs(diff) > 0x1p-50 * (x + y))
		return diff > 0.0 ? 1 : -1;
	double t[8];
	two_prod(d0, p->a, t);
	two_prod(d1, p->b, t + 2);
	two_prod(-d0, q->a, t + 4);
	two_prod(-d1, q->b, t + 6);
	return sign_of(t, 8);
}

/* > 0 if p, q, r turn counterclockwise, 0 if collinear, exactly:
 * (q.a - p.a)(r.b - p.b) - (q.b - p.b)(r.a - p.a), expanded (p.a p.b
 * cancels). */
static int orient(const struct pt *p, const struct pt *q, const struct pt *r)
{
	/* as cmp_dir(): the six products > 0 and in range, each side's sum of
	 * three off by at most ((1 + u)^3 - 1) of it, about 3u; past 8u of
	 * the sum the rounded difference has the exact sign */
	double pos = q->a * r->b + q->b * p->a + p->b * r->a;
	double neg = q->a * p->b + p->a * r->b + q->b * r->a;
	double diff = pos - neg;
	if (fabs(diff) > 0x1p-50 * (pos + neg))
		return diff > 0.0 ? 1 : -1;
	double t[12];
	two_prod(q->a, r->b, t);
	two_prod(-q->a, p->b, t + 2);
	two_prod(-p->a, r->b, t + 4);
	two_prod(-q->b, r->a, t + 6);
	two_prod(q->b, p->a, t + 8);
	two_prod(p->b, r->a, t + 10);
	return sign_of(t, 12);
}

static int in_range(double v)
{
	return v >= 0x1p-300 && v <= 0x1p300;
}

static int by_point(const void *x, const void *y)
{
	const struct pt *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return (p->sense > q->sense) - (p->sense < q->sense);
}

/* The value of @sense in row @k, or 0. */
static double row_value(const struct scratch *x, const size_t *rowstart, size_t k, uint32_t sense)
{
	size_t lo = rowstart[k], hi = rowstart[k + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->tr[mid].sense < sense)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rowstart[k + 1] && x->tr[lo].sense == sense ? x->tr[lo].v : 0.0;
}

static uint64_t pair_hash(uint32_t r0, uint32_t r1)
{
	uint64_t h = ((uint64_t)r0 << 32 | r1) * 0x9e3779b97f4a7c15u;
	return h ^ h >> 31;
}

/* The shared senses of rows r0 < r1, found or made. */
static int get_pair(struct scratch *x, const size_t *rowstart, uint32_t r0, uint32_t r1,
		    struct pairset **out)
{
	uint64_t h = pair_hash(r0, r1);
	if (x->nphash) {
		for (size_t i = h & (x->nphash - 1);; i = (i + 1) & (x->nphash - 1)) {
			uint32_t e = x->phash[i];
			if (e == 0)
				break;
			if (x->pairs[e - 1].r0 == r0 && x->pairs[e - 1].r1 == r1) {
				*out = &x->pairs[e - 1];
				return TAGEVAL_OK;
			}
		}
	}
	if (2 * (x->npairs + 1) > x->nphash) {
		size_t n = x->nphash ? 2 * x->nphash : 64;
		uint32_t *t = calloc(n, sizeof *t);
		if (t == NULL)
			return TAGEVAL_ENOMEM;
		for (size_t i = 0; i < x->npairs; i++) {
			size_t k = pair_hash(x->pairs[i].r0, x->pairs[i].r1) & (n - 1);
			while (t[k] != 0)
				k = (k + 1) & (n - 1);
			t[k] = (uint32_t)i + 1;
		}
		free(x->phash);
		x->phash = t;
		x->nphash = n;
	}
	if (tv_grow((void **)&x->pairs, &x->paircap, x->npairs + 1, sizeof *x->pairs))
		return TAGEVAL_ENOMEM;
	size_t n0 = rowstart[r0 + 1] - rowstart[r0], n1 = rowstart[r1 + 1] - rowstart[r1];
	uint32_t shortr = n0 <= n1 ? r0 : r1, longr = n0 <= n1 ? r1 : r0;
	size_t ns = n0 <= n1 ? n0 : n1;
	if (x->npts + ns > UINT32_MAX ||
	    tv_grow((void **)&x->pts, &x->ptscap, x->npts + ns + 1, sizeof *x->pts))
		return TAGEVAL_ENOMEM;
	struct pairset *ps = &x->pairs[x->npairs];
	*ps = (struct pairset){ r0, r1, (uint32_t)x->npts, 0, 1, NULL, 0, 0 };
	struct pt *pt = x->pts + x->npts;
	for (size_t i = rowstart[shortr]; i < rowstart[shortr + 1]; i++) {
		double o = row_value(x, rowstart, longr, x->tr[i].sense);
		if (o == 0.0)
			continue;
		double v = x->tr[i].v;
		pt[ps->n] = (struct pt){ shortr == r0 ? v : o, shortr == r0 ? o : v, x->tr[i].sense };
		if (!in_range(v) || !in_range(o))
			ps->safe = 0;
		ps->n++;
	}
	if (ps->n > 1)
		qsort(pt, ps->n, sizeof *pt, by_point);
	/* equal points score the same bits: the first sense of each suffices */
	size_t m = 0;
	for (size_t i = 0; i < ps->n; i++)
		if (m == 0 || pt[i].a != pt[m - 1].a || pt[i].b != pt[m - 1].b)
			pt[m++] = pt[i];
	ps->n = (uint32_t)m;
	if (tv_grow((void **)&ps->lay, &ps->laycap, 8, sizeof *ps->lay))
		return TAGEVAL_ENOMEM;
	ps->lay[0] = 0;
	x->npts += ps->n;
	size_t k = h & (x->nphash - 1);
	while (x->phash[k] != 0)
		k = (k + 1) & (x->nphash - 1);
	x->phash[k] = (uint32_t)++x->npairs;
	*out = ps;
	return TAGEVAL_OK;
}

/* Peels the next layer of @ps: the upper-right convex chain (a rising, b
 * falling; the points on its edges included) of the points not peeled yet.
 * *got = 0 if none is left. */
static int peel(struct scratch *x, struct pairset *ps, int *got)
{
	size_t done = ps->lay[ps->nlay], m = ps->n - done;
	*got = 0;
	if (m == 0)
		return TAGEVAL_OK;
	if (tv_grow((void **)&x->hull, &x->hullcap, m, sizeof *x->hull) ||
	    tv_grow((void **)&x->ptmp, &x->ptmpcap, m, sizeof *x->ptmp) ||
	    tv_grow((void **)&ps->lay, &ps->laycap, ps->nlay + 2, sizeof *ps->lay))
		return TAGEVAL_ENOMEM;
	struct pt *r = x->pts + ps->first + done;
	size_t h = 0;
	/* the upper hull, left to right, by the monotone chain */
	for (size_t i = 0; i < m; i++) {
		while (h >= 2 && orient(&r[x->hull[h - 2]], &r[x->hull[h - 1]], &r[i]) > 0)
			h--;
		x->hull[h++] = (uint32_t)i;
	}
	/* from its (last) highest point on */
	size_t k = 0;
	for (size_t t = 1; t < h; t++)
		if (r[x->hull[t]].b >= r[x->hull[k]].b)
			k = t;
	/* the chain first, the rest after it in its order */
	size_t nc = h - k, c = k, o = nc;
	for (size_t i = 0; i < m; i++) {
		if (c < h && x->hull[c] == i)
			x->ptmp[c++ - k] = r[i];
		else
			x->ptmp[o++] = r[i];
	}
	memcpy(r, x->ptmp, m * sizeof *r);
	ps->lay[ps->nlay + 1] = (uint32_t)(done + nc);
	ps->nlay++;
	*got = 1;
	return TAGEVAL_OK;
}

/* F(p) as the general sum computes it: the rows in the line's order. */
static double pair_score(const struct pt *p, double fa, double fb, int a_first)
{
	double t = 0.0;
	if (a_first) {
		t += fa * p->a;
		t += fb * p->b;
	} else {
		t += fb * p->b;
		t += fa * p->a;
	}
	return t;
}

/* Two clusters (see above); *handled = 0 leaves the line to the general sum. */
static int best_of_pair(struct scratch *x, const size_t *rowstart, uint32_t *best, double *top,
			int *handled)
{
	const struct wcl *v = x->vec;
	*handled = 0;
	if (v[0].row == v[1].row || !in_range(v[0].f) || !in_range(v[1].f))
		return TAGEVAL_OK;
	int a_first = v[0].row < v[1].row;
	uint32_t r0 = a_first ? v[0].row : v[1].row, r1 = a_first ? v[1].row : v[0].row;
	double fa = a_first ? v[0].f : v[1].f, fb = a_first ? v[1].f : v[0].f;
	struct pairset *ps;
	if (get_pair(x, rowstart, r0, r1, &ps))
		return TAGEVAL_ENOMEM;
	if (!ps->safe)
		return TAGEVAL_OK;
	uint32_t cand[3] = { 0, 0, 0 };
	double val[3] = { 0.0, 0.0, -1.0 };
	if (best_of_row(x, rowstart, v[0], &cand[0], &val[0]) ||
	    best_of_row(x, rowstart, v[1], &cand[1], &val[1]))
		return TAGEVAL_ENOMEM;
	double thr = 0.0;
	for (size_t li = 0;; li++) {
		if (li == PAIR_LAYERS)
			return TAGEVAL_OK; /* near-ties in layer after layer */
		if (li == ps->nlay) {
			int got;
			if (peel(x, ps, &got))
				return TAGEVAL_ENOMEM;
			if (!got)
				break;
		}
		const struct pt *V = x->pts + ps->first + ps->lay[li];
		size_t L = ps->lay[li + 1] - ps->lay[li], lo = 0, hi = L - 1;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp_dir(fa, fb, &V[mid + 1], &V[mid]) > 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		double fm = pair_score(&V[lo], fa, fb, a_first);
		if (li == 0)
			thr = fm * (1.0 - 0x1p-48);
		else if (fm < thr)
			break;
		for (size_t i = lo + 1; i-- > 0;) {
			double f = pair_score(&V[i], fa, fb, a_first);
			if (f < thr)
				break;
			if (f > val[2] || (f == val[2] && V[i].sense < cand[2])) {
				val[2] = f;
				cand[2] = V[i].sense;
			}
		}
		for (size_t i = lo + 1; i < L; i++) {
			double f = pair_score(&V[i], fa, fb, a_first);
			if (f < thr)
				break;
			if (f > val[2] || (f == val[2] && V[i].sense < cand[2])) {
				val[2] = f;
				cand[2] = V[i].sense;
			}
		}
	}
	*best = 0;
	*top = 0.0;
	for (size_t i = 0; i < 3; i++)
		if (val[i] > *top || (val[i] == *top && *top > 0.0 && cand[i] < *best)) {
			*best = cand[i];
			*top = val[i];
		}
	*handled = 1;
	return TAGEVAL_OK;
}

/*
 * Several clusters: the scores summed sense by sense over the rows, in the
 * instance's order (each sense from 0, as the dense vector was), visiting
 * only the rows' senses.  The result is kept for the next instance of the
 * same vector (same clusters, same weights).
 */
static int best_of_vector(struct scratch *x, const size_t *rowstart, size_t nv, uint32_t *best,
			  double *top)
{
	const struct wcl *v = x->vec;
	uint64_t h = vector_hash(v, nv);
	if (x->nmemo) {
		for (size_t i = h & (x->nmemo - 1);; i = (i + 1) & (x->nmemo - 1)) {
			const struct memo *mo = &x->memo[i];
			if (mo->n == 0)
				break;
			if (mo->h == h && mo->n == nv && same_vector(x->mkey + mo->first, v, nv)) {
				*best = mo->best;
				*top = mo->score;
				return TAGEVAL_OK;
			}
		}
	}
	if (nv == 2 && rowstart[v[0].row + 1] - rowstart[v[0].row] +
			       rowstart[v[1].row + 1] - rowstart[v[1].row] > PAIR_MIN_TERMS) {
		int handled;
		if (best_of_pair(x, rowstart, best, top, &handled))
			return TAGEVAL_ENOMEM;
		if (handled)
			goto remember;
	}
	if (++x->tgen == 0) {
		memset(x->tstamp, 0, x->tcap * sizeof *x->tstamp);
		x->tgen = 1;
	}
	size_t nt = 0;
	for (size_t c = 0; c < nv; c++)
		for (size_t i = rowstart[v[c].row]; i < rowstart[v[c].row + 1]; i++) {
			uint32_t j = x->tr[i].sense;
			if (x->tstamp[j] != x->tgen) {
				x->tstamp[j] = x->tgen;
				x->score[j] = 0.0;
				x->touched[nt++] = j;
			}
			x->score[j] += v[c].f * x->tr[i].v;
		}
	*best = 0;
	*top = 0.0;
	for (size_t i = 0; i < nt; i++) {
		uint32_t j = x->touched[i];
		if (x->score[j] > *top || (x->score[j] == *top && *top > 0.0 && j < *best)) {
			*best = j;
			*top = x->score[j];
		}
	}
remember:
	/* remember it (the table at most half full) */
	if (2 * (x->memoused + 1) > x->nmemo) {
		size_t n = x->nmemo ? 2 * x->nmemo : 64;
		struct memo *m = calloc(n, sizeof *m);
		if (m == NULL)
			return TAGEVAL_ENOMEM;
		for (size_t i = 0; i < x->nmemo; i++) {
			if (x->memo[i].n == 0)
				continue;
			size_t k = x->memo[i].h & (n - 1);
			while (m[k].n != 0)
				k = (k + 1) & (n - 1);
			m[k] = x->memo[i];
		}
		free(x->memo);
		x->memo = m;
		x->nmemo = n;
	}
	if (x->nmkey + nv > UINT32_MAX ||
	    tv_grow((void **)&x->mkey, &x->mkeycap, x->nmkey + nv, sizeof *x->mkey))
		return TAGEVAL_ENOMEM;
	memcpy(x->mkey + x->nmkey, v, nv * sizeof *v);
	size_t k = h & (x->nmemo - 1);
	while (x->memo[k].n != 0)
		k = (k + 1) & (x->nmemo - 1);
	x->memo[k] = (struct memo){ h, (uint32_t)x->nmkey, (uint32_t)nv, *best, *top };
	x->nmkey += nv;
	x->memoused++;
	return TAGEVAL_OK;
}

/* One word being mapped: its instances s->g[first .. last), and what the
 * steps of map_word learn of its mapping part. */
struct wordmap {
	uint32_t word;
	uint32_t first, last;
	size_t wlen;         /* the length of the word's name */
	size_t ns, nk;       /* its senses (x->names) and cluster rows */
	size_t nmap;         /* its mapping instances */
	int frac;            /* a fractional contribution: the sums depend on their order */
	int dense;           /* S is the dense nk x ns table */
	int ones;            /* frac, but a small table: the values 1 counted in x->ones */
	double *rowsum, *S;  /* in x->rowsum */
	size_t *rowstart;    /* the rows as lists: x->tr[rowstart[k] .. rowstart[k + 1]) */
};

/* The senses of the word's mapping instances (x->names, unsorted) and the
 * cluster rows they use (x->crow), counted into @m. */
static int mapping_senses(const struct tageval_supervised *s, const struct split *sp,
			  struct scratch *x, struct wordmap *m)
{
	size_t ns = 0, nk = 0, nmap = 0;
	int frac = 0;
	double whole = 0; /* the whole weights so far (exact below 2^53) */
	for (uint32_t p = m->first; p < m->last; p++) {
		const struct grouped *g = &s->g[p];
		const uint32_t sys_n = tv_sup_sys_n(s, g);
		if (tv_role(sp->role, p) != ROLE_MAPPING)
			continue;
		nmap++;
		struct tv_senses lab = labels_of(s, sp, g);
		uint32_t nl = lab.n;
		for (uint32_t j = 0; j < nl; j++) {
			if (x->sstamp[tv_sense_at(lab, j)] == x->gen)
				continue;
			x->sstamp[tv_sense_at(lab, j)] = x->gen;
			if (tv_grow((void **)&x->names, &x->namecap, ns + 1, sizeof *x->names))
				return TAGEVAL_ENOMEM;
			x->names[ns].id = tv_sense_at(lab, j);
			x->names[ns].name = tv_intern_str(&s->senses, tv_sense_at(lab, j));
			ns++;
		}
		struct tv_wlabel one;
		const struct tv_wlabel *sys = sys_of(s, g, &one);
		if (nl > 1 && sys_n > 0)
			frac = 1;
		/* a single cluster of the instance itself has weight 1; one
		 * fraction is enough, or whole weights whose total passes 2^53
		 * (their sums would round, in the order they are added) */
		for (uint32_t c = 0; !frac && s->gkind[p] == TV_G_POOLED && c < sys_n; c++) {
			whole += sys[c].w;
			if (sys[c].w != floor(sys[c].w) || sys[c].w > 0x1p52 || whole > 0x1p53)
				frac = 1;
		}
		for (uint32_t c = 0; c < sys_n; c++) {
			uint32_t cl = sys[c].label;
			if (x->crow[cl] == TV_NONE) {
				if (tv_grow((void **)&x->clab, &x->clabcap, x->nclab + 1,
					    sizeof *x->clab))
					return TAGEVAL_ENOMEM;
				x->clab[x->nclab++] = cl;
				x->crow[cl] = (uint32_t)nk++;
			}
		}
	}
	m->ns = ns;
	m->nk = nk;
	m->nmap = nmap;
	m->frac = frac;
	return TAGEVAL_OK;
}

/* 2. S[c][s] of the mapping instances: into the dense table m->S with the
 *    row sums in m->rowsum, or as triples into x->tr (the row sums as
 *    triples of sense TV_NONE). */
static int fill_table(const struct tageval_supervised *s, const struct split *sp,
		      struct scratch *x, const struct wordmap *m)
{
	size_t ns = m->ns;
	int dense = m->dense, count_ones = m->ones;
	double *rowsum = m->rowsum, *S = m->S;
	/* x->ones is NULL unless some word counts its 1s: no offset from NULL */
	uint32_t *ones = x->ones, *rowones = ones ? ones + m->nk * ns : NULL;
	x->ntr = 0;
	for (uint32_t p = m->first; p < m->last; p++) {
		const struct grouped *g = &s->g[p];
		const uint32_t sys_n = tv_sup_sys_n(s, g);
		if (tv_role(sp->role, p) != ROLE_MAPPING || sys_n == 0)
			continue;
		struct tv_senses lab = labels_of(s, sp, g);
		uint32_t nl = lab.n;
		struct tv_wlabel one;
		const struct tv_wlabel *sys = sys_of(s, g, &one);
		for (uint32_t c = 0; c < sys_n; c++) {
			const struct tv_wlabel *e = &sys[c];
			uint32_t k = x->crow[e->label];
			double v = nl == 1 ? e->w : e->w / (double)nl; /* x / 1 is x */
			if (dense) {
				rowsum[k] += e->w;
			} else if (count_ones && e->w == 1.0) {
				rowones[k]++;
			} else {
				if (tv_grow((void **)&x->tr, &x->trcap, x->ntr + 1, sizeof *x->tr))
					return TAGEVAL_ENOMEM;
				x->tr[x->ntr++] = (struct triple){ k, TV_NONE, e->w };
			}
			for (uint32_t j = 0; j < nl; j++) {
				uint32_t sense = x->slocal[tv_sense_at(lab, j)];
				if (dense) {
					S[(size_t)k * ns + sense] += v;
					continue;
				}
				if (count_ones && v == 1.0) {
					ones[(size_t)k * ns + sense]++;
					continue;
				}
				if (tv_grow((void **)&x->tr, &x->trcap, x->ntr + 1, sizeof *x->tr))
					return TAGEVAL_ENOMEM;
				x->tr[x->ntr++] = (struct triple){ k, sense, v };
			}
		}
	}
	return TAGEVAL_OK;
}

/* The triples of a sparse table sorted and summed per (cluster, sense), the
 * row sums into m->rowsum, and each row's start into m->rowstart. */
static int sum_triples(struct scratch *x, struct wordmap *m)
{
	size_t nk = m->nk, ns = m->ns;
	double *rowsum = m->rowsum;
	if (x->ntr > 1) {
		size_t nc = (nk > ns + 1 ? nk : ns + 1) + 1;
		if (tv_grow((void **)&x->tr2, &x->tr2cap, x->ntr, sizeof *x->tr2) ||
		    tv_grow((void **)&x->cnt, &x->cntcap, nc, sizeof *x->cnt))
			return TAGEVAL_ENOMEM;
		sort_triples(x->tr, x->ntr, x->tr2, x->cnt, nk, ns);
	}
	size_t n = 0;
	for (size_t i = 0; i < x->ntr; i++) {
		if (x->tr[i].sense == TV_NONE)
			rowsum[x->tr[i].cluster] += x->tr[i].v; /* last in their row */
		else if (n > 0 && x->tr[n - 1].cluster == x->tr[i].cluster &&
			 x->tr[n - 1].sense == x->tr[i].sense)
			x->tr[n - 1].v += x->tr[i].v;
		else
			x->tr[n++] = x->tr[i];
	}
	x->ntr = n;
	if (tv_grow((void **)&x->rowstart, &x->rowstartcap, nk + 1, sizeof *x->rowstart))
		return TAGEVAL_ENOMEM;
	size_t *rowstart = m->rowstart = x->rowstart;
	for (size_t k = 0, i = 0; k <= nk; k++) {
		while (i < n && x->tr[i].cluster < k)
			i++;
		rowstart[k] = i;
	}
	return TAGEVAL_OK;
}

/* The sum of a run of values sorted ascending, none of them 1, with @ones
 * values 1 among them: in ascending order, from the first value (@first)
 * or from 0 -- as sum_triples() adds them. */
static double sum_with_ones(const struct triple *t, size_t n, uint32_t ones, int first)
{
	double v = 0.0;
	size_t a = 0;
	for (; a < n && t[a].v < 1.0; a++) {
		v = first ? t[a].v : v + t[a].v;
		first = 0;
	}
	if (ones > 0 && first) {
		v = 1.0;
		ones--;
		first = 0;
	}
	if (v == floor(v) && v + (double)ones <= 0x1p53) {
		v += (double)ones; /* whole numbers: each step exact, and so the sum */
	} else {
		for (uint32_t i = 0; i < ones; i++)
			v += 1.0;
	}
	for (; a < n; a++) {
		v = first ? t[a].v : v + t[a].v;
		first = 0;
	}
	return v;
}

/* The cells and row sums of a small table with fractional values, as
 * sum_triples() makes them from all the triples, from the triples of the
 * values other than 1 and the counts of the values 1 (x->ones): the same
 * sums in the same order, without sorting the (many) values 1. */
static int sum_ones(struct scratch *x, struct wordmap *m)
{
	size_t nk = m->nk, ns = m->ns, ntr = x->ntr;
	double *rowsum = m->rowsum;
	const uint32_t *ones = x->ones, *rowones = ones ? ones + nk * ns : NULL;
	size_t nc = (nk > ns + 1 ? nk : ns + 1) + 1;
	if (tv_grow((void **)&x->tr2, &x->tr2cap, ntr > nk * ns ? ntr : nk * ns,
		    sizeof *x->tr2) ||
	    tv_grow((void **)&x->cnt, &x->cntcap, nc, sizeof *x->cnt) ||
	    tv_grow((void **)&x->rowstart, &x->rowstartcap, nk + 1, sizeof *x->rowstart))
		return TAGEVAL_ENOMEM;
	if (ntr > 1)
		sort_triples(x->tr, ntr, x->tr2, x->cnt, nk, ns);
	/* the cells into tr2, then swapped with tr */
	const struct triple *t = x->tr;
	struct triple *out = x->tr2;
	size_t *rowstart = m->rowstart = x->rowstart;
	size_t i = 0, n = 0;
	for (size_t k = 0; k < nk; k++) {
		rowstart[k] = n;
		for (size_t j = 0; j < ns; j++) {
			size_t b = i;
			while (i < ntr && t[i].cluster == k && t[i].sense == j)
				i++;
			uint32_t c1 = ones[k * ns + j];
			if (c1 == 0 && b == i)
				continue;
			out[n++] = (struct triple){ (uint32_t)k, (uint32_t)j,
						    sum_with_ones(t + b, i - b, c1, 1) };
		}
		size_t b = i;
		while (i < ntr && t[i].cluster == k)
			i++; /* sense TV_NONE: the row sums, last in their row */
		rowsum[k] = sum_with_ones(t + b, i - b, rowones[k], 0);
	}
	rowstart[nk] = n;
	struct triple *tmp = x->tr;
	size_t cap = x->trcap;
	x->tr = x->tr2;
	x->trcap = x->tr2cap;
	x->tr2 = tmp;
	x->tr2cap = cap;
	x->ntr = n;
	return TAGEVAL_OK;
}

/* The rows of a dense table as lists too, in the same (cluster, sense)
 * order as the sparse ones. */
static int dense_rows(struct scratch *x, struct wordmap *m)
{
	size_t nk = m->nk, ns = m->ns;
	const double *S = m->S;
	size_t nz = 0;
	for (size_t i = 0; i < nk * ns; i++)
		nz += S[i] != 0.0;
	if (tv_grow((void **)&x->tr, &x->trcap, nz + 1, sizeof *x->tr) ||
	    tv_grow((void **)&x->rowstart, &x->rowstartcap, nk + 1, sizeof *x->rowstart))
		return TAGEVAL_ENOMEM;
	size_t *rowstart = m->rowstart = x->rowstart;
	x->ntr = 0;
	for (size_t k = 0; k < nk; k++) {
		rowstart[k] = x->ntr;
		for (size_t j = 0; j < ns; j++)
			if (S[k * ns + j] != 0.0)
				x->tr[x->ntr++] = (struct triple){ (uint32_t)k, (uint32_t)j,
								   S[k * ns + j] };
	}
	rowstart[nk] = x->ntr;
	return TAGEVAL_OK;
}

/* The tag of sense @id in the split key's inventory, interned at its first
 * use, or TV_NONE for a name holding '/': the key refuses such a tag and the
 * scorer reads the part after the '/' as a weight, so those senses keep
 * going by name, for the same messages and figures. */
static int tag_of(const struct tageval_supervised *s, struct scratch *x, uint32_t id,
		  uint32_t *tag)
{
	uint32_t t = x->tagof[id];
	if (t != 0) {
		*tag = t == TV_NONE ? TV_NONE : t - 1;
		return TAGEVAL_OK;
	}
	const char *name = tv_intern_str(&s->senses, id);
	size_t len = strlen(name);
	if (memchr(name, '/', len) != NULL) {
		x->tagof[id] = TV_NONE;
		*tag = TV_NONE;
		return TAGEVAL_OK;
	}
	if (tv_inventory_intern(x->inv, name, len, tag) || *tag >= TV_NONE - 1)
		return TAGEVAL_ENOMEM;
	x->tagof[id] = *tag + 1;
	return TAGEVAL_OK;
}

/* Test instance @g of the word of @m into @key, by its labels' tags, or by
 * their names when one holds '/'. */
static int key_test(const struct tageval_supervised *s, const struct split *sp,
		    const struct grouped *g, struct scratch *x, const struct wordmap *m,
		    struct tageval_key *key, struct tageval_error *err)
{
	struct tv_senses lab = labels_of(s, sp, g);
	uint32_t nl = lab.n;
	if (tv_grow((void **)&x->labtag, &x->labtagcap, nl, sizeof *x->labtag))
		return TAGEVAL_ENOMEM;
	int named = 0;
	for (uint32_t j = 0; j < nl; j++) {
		if (tag_of(s, x, tv_sense_at(lab, j), &x->labtag[j]))
			return TAGEVAL_ENOMEM;
		named |= x->labtag[j] == TV_NONE;
	}
	if (!named)
		return tv_key_append_ids(key, m->wlen, x->labtag, nl, err);
	if (tv_grow((void **)&x->labname, &x->labcap, nl, sizeof *x->labname))
		return TAGEVAL_ENOMEM;
	for (uint32_t j = 0; j < nl; j++)
		x->labname[j] = tv_intern_str(&s->senses, tv_sense_at(lab, j));
	return tv_key_append(key, tv_intern_str(&s->w->words, m->word),
			     tv_intern_str(&s->w->ids, tv_sup_inst(s, g)), x->labname, nl, err);
}

/* Maps test instance @g of the word of @m: its gold labels go to @key, its
 * answer (if the first sense of highest score scores above 0) to x->ans. */
static int map_test(const struct tageval_supervised *s, const struct split *sp,
		    const struct grouped *g, struct scratch *x, const struct wordmap *m,
		    struct tageval_key *key, struct tageval_supervised_result *res,
		    struct tageval_error *err)
{
	const double *rowsum = m->rowsum;
	const uint32_t sys_n = tv_sup_sys_n(s, g);
	uint32_t index = 0;
	int rc = TAGEVAL_OK;
	struct tv_senses lab = { NULL, NULL, 0 };
	uint32_t nl = 0;
	if (key != NULL) {
		index = (uint32_t)tageval_key_size(key);
		if ((rc = key_test(s, sp, g, x, m, key, err)) != TAGEVAL_OK)
			return rc;
	} else {
		lab = labels_of(s, sp, g);
		nl = lab.n;
		x->too_many |= nl > UINT16_MAX; /* the scorer's limit: its message */
	}
	if (sys_n == 0 || m->ns == 0)
		return TAGEVAL_OK;
	/* the clusters that count: known to the mapping, of weight above 0 */
	if (tv_grow((void **)&x->vec, &x->veccap, sys_n, sizeof *x->vec))
		return TAGEVAL_ENOMEM;
	size_t nv = 0;
	struct tv_wlabel one;
	const struct tv_wlabel *sys = sys_of(s, g, &one);
	for (uint32_t c = 0; c < sys_n; c++) {
		const struct tv_wlabel *e = &sys[c];
		if (x->crow[e->label] == TV_NONE)
			continue; /* a cluster no mapping instance has */
		uint32_t k = x->crow[e->label];
		if (!(rowsum[k] > 0.0))
			continue; /* its mapping instances gave it weight 0 */
		x->vec[nv++] = (struct wcl){ k, e->w / rowsum[k] };
	}
	uint32_t best = 0;
	double top = 0.0;
	if (nv == 1)
		rc = best_of_row(x, m->rowstart, x->vec[0], &best, &top);
	else if (nv > 1)
		rc = best_of_vector(x, m->rowstart, nv, &best, &top);
	if (rc)
		return rc;
	if (!(top > 0.0))
		return TAGEVAL_OK;
	res->answered++;
	if (key == NULL) {
		/* the scorer's fine-grained credit of one answer of weight 1: 1
		 * when it is one of the instance's labels (once), else 0 */
		for (uint32_t j = 0; j < nl; j++)
			if (tv_sense_at(lab, j) == x->names[best].id) {
				x->ncorrect++;
				break;
			}
		return TAGEVAL_OK;
	}
	if (tv_grow((void **)&x->ans, &x->anscap, x->nans + 1, sizeof *x->ans))
		return TAGEVAL_ENOMEM;
	x->ans[x->nans++] = (struct answer){ m->word, tv_sup_inst(s, g), index,
					     x->names[best].id, top };
	return TAGEVAL_OK;
}

/* Maps the test instances of one word: their gold labels go to @key, their
 * answers to x->ans. */
static int map_word(struct tageval_supervised *s, const struct split *sp, size_t word,
		    struct scratch *x, struct tageval_key *key,
		    struct tageval_supervised_result *res, struct tageval_error *err)
{
	const struct tageval_wsi *w = s->w;
	struct wordmap m = { .word = (uint32_t)word,
			     .first = s->start[word],
			     .last = s->start[word + 1],
			     .wlen = strlen(tv_intern_str(&w->words, (uint32_t)word)) };
	if (++x->gen == 0) {
		memset(x->sstamp, 0, s->senses.n * sizeof *x->sstamp);
		x->gen = 1;
	}
	for (size_t j = 0; j < x->nclab; j++) /* the word before's clusters */
		x->crow[x->clab[j]] = TV_NONE;
	x->nclab = 0;
	/* 1. the senses of the mapping instances, in bytewise order, and the
	 *    clusters they use */
	if (mapping_senses(s, sp, x, &m))
		return TAGEVAL_ENOMEM;
	size_t ns = m.ns, nk = m.nk;
	res->mapping += m.nmap;
	if (ns > 1)
		qsort(x->names, ns, sizeof *x->names, by_name);
	for (size_t i = 0; i < ns; i++)
		x->slocal[x->names[i].id] = (uint32_t)i;
	/* 2. S[c][s]: dense, clusters x senses; the table is never larger than
	 *    the mapping data itself (otherwise a sorted list of triples).
	 *    Sums of integers are exact in any order; with fractional weights
	 *    the triples are sorted, values included, and summed in that order
	 *    (the row sums too, as triples of sense TV_NONE), so that the
	 *    order of the lines does not change a bit of the result. */
	m.dense = !m.frac && nk * ns <= 4 * m.nmap + 64;
	m.ones = m.frac && nk * ns <= 4 * m.nmap + 64;
	size_t cells = m.dense ? nk * ns : 0;
	if (m.ones) {
		if (tv_grow((void **)&x->ones, &x->onescap, nk * ns + nk, sizeof *x->ones))
			return TAGEVAL_ENOMEM;
		memset(x->ones, 0, (nk * ns + nk) * sizeof *x->ones);
	}
	if (tv_grow((void **)&x->rowsum, &x->rowcap, nk + cells + 1, sizeof *x->rowsum))
		return TAGEVAL_ENOMEM;
	m.rowsum = x->rowsum;
	m.S = x->rowsum + nk;
	memset(x->rowsum, 0, (nk + cells) * sizeof *x->rowsum);
	if (fill_table(s, sp, x, &m))
		return TAGEVAL_ENOMEM;
	if (m.dense ? dense_rows(x, &m) : m.ones ? sum_ones(x, &m) : sum_triples(x, &m))
		return TAGEVAL_ENOMEM;
	/* 3. the test instances: vector x M, M[c][s] = S[c][s] / rowsum[c]; the
	 *    first sense of highest score wins, if that score is above 0 */
	if (step3_fit(x, ns, nk))
		return TAGEVAL_ENOMEM;
	for (uint32_t p = m.first; p < m.last; p++) {
		const struct grouped *g = &s->g[p];
		if (tv_role(sp->role, p) != ROLE_TEST)
			continue;
		res->test++;
		int rc = map_test(s, sp, g, x, &m, key, res, err);
		if (rc)
			return rc;
	}
	return TAGEVAL_OK;
}

/* The answers x->ans given to scorer @sc by their tags, and written to
 * @txt (unless NULL) as the lines of the mapped answer file: only then are
 * the names looked up. */
static int score_answers(const struct tageval_supervised *s, struct scratch *x,
			 struct tageval_scorer *sc, struct text *txt, struct tageval_error *err)
{
	const struct tageval_wsi *w = s->w;
	for (size_t a = 0; a < x->nans; a++) {
		const struct answer *an = &x->ans[a];
		uint32_t tag;
		if (tag_of(s, x, an->sense, &tag))
			return tv_nomem(err);
		const char *wname = NULL, *iname = NULL, *sense = NULL;
		if (txt || tag == TV_NONE) {
			/* the answers are in word order, their ids scattered: the
			 * names are fetched ahead */
			if (a + 64 < x->nans)
				tv_intern_prefetch_ptr(&w->ids, x->ans[a + 64].inst);
			if (a + 32 < x->nans)
				tv_intern_prefetch_bytes(&w->ids, x->ans[a + 32].inst);
			wname = tv_intern_str(&w->words, an->word);
			iname = tv_intern_str(&w->ids, an->inst);
			sense = tv_intern_str(&s->senses, an->sense);
		}
		int rc = tag == TV_NONE
				 ? tv_scorer_add_at(sc, an->index, wname, iname, &sense, NULL, 1, err)
				 : tv_scorer_add_ids(sc, an->index, wname, iname, &tag, 1, err);
		if (rc)
			return rc;
		if (txt) {
			char num[64];
			snprintf(num, sizeof num, " !! score %.17g\n", an->score);
			if (text_put(txt, wname) || text_char(txt, ' ') || text_put(txt, iname) ||
			    text_char(txt, ' ') || text_put(txt, sense) || text_put(txt, num))
				return tv_nomem(err);
		}
	}
	return TAGEVAL_OK;
}

/* Whether some sense name holds a '/' (see tag_of()). */
static int senses_with_slash(const struct tageval_supervised *s)
{
	for (uint32_t id = 0; id < s->senses.n; id++) {
		const char *name = tv_intern_str(&s->senses, id);
		if (memchr(name, '/', strlen(name)) != NULL)
			return 1;
	}
	return 0;
}

static int evaluate(struct tageval_supervised *s, size_t i, struct tageval_supervised_result *res,
		    char **mapped, int keyless, struct tageval_error *err);

/* The roles of split @sp in the grouped order, so that the passes over a
 * word's instances read them in sequence (the split is final). */
static int group_roles(const struct tageval_supervised *s, struct split *sp)
{
	if (sp->grouped)
		return TAGEVAL_OK;
	const struct tageval_wsi *w = s->w;
	uint8_t *r = calloc(tv_roles_size(w->n), 1);
	if (r == NULL)
		return TAGEVAL_ENOMEM;
	for (size_t p = 0; p < w->n; p++)
		tv_role_set(r, p, tv_role(sp->role, s->order[p]));
	free(sp->role);
	sp->role = r;
	sp->grouped = 1;
	return TAGEVAL_OK;
}

/* The figures of a split scored without the key, from its counts: as the
 * scorer sums them, exact. */
static void keyless_figures(struct tageval_supervised_result *res, size_t ncorrect)
{
	res->correct = (double)ncorrect;
	res->precision = res->answered > 0 ? res->correct / (double)res->answered : NAN;
	res->recall = res->correct / (double)res->test;
	res->attempted = (double)res->answered / (double)res->test;
}

/* Sorts @n word triples by value: insertion for a short run, a bottom-up
 * merge sort through @tmp (room for n) otherwise. */
static void sort_wvalues(struct wtriple *r, size_t n, struct wtriple *tmp)
{
	if (n <= 32) {
		for (size_t a = 1; a < n; a++) {
			struct wtriple t = r[a];
			size_t b = a;
			for (; b > 0 && t.v < r[b - 1].v; b--)
				r[b] = r[b - 1];
			r[b] = t;
		}
		return;
	}
	struct wtriple *a = r, *b = tmp;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				b[k++] = a[j].v < a[i].v ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		struct wtriple *t = a;
		a = b;
		b = t;
	}
	if (a != r)
		memcpy(r, a, n * sizeof *r);
}

/*
 * Sorts a run of word triples of one cell (or row sum) by value.  Equal
 * values may come in any order (the sums are the same), so the run is cut
 * in three, the values below 1, the 1s (most values: those of crisp
 * lines) and those above, and only the first and last parts are sorted.
 */
static void sort_wrun(struct wtriple *r, size_t n, struct wtriple *tmp)
{
	size_t lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].v < 1.0)
			tmp[lo++] = r[i];
	for (size_t i = 0; i < n; i++)
		if (r[i].v == 1.0)
			tmp[lo + hi++] = r[i];
	size_t mid = lo + hi;
	for (size_t i = 0; i < n; i++)
		if (!(r[i].v <= 1.0))
			tmp[mid++] = r[i];
	memcpy(r, tmp, n * sizeof *r);
	sort_wvalues(r, lo, tmp);
	sort_wvalues(r + lo + hi, n - lo - hi, tmp);
}

/*
 * The word triples sorted as sort_triples() sorts triples: by cluster, then
 * sense (TV_NONE last), then value, stably (equal keys keep the order of
 * their instances).  @cnt: max(nk, ns + 1) + 1 counts, or nk x (ns + 1) + 1
 * when @one_pass: then one counting sort by (cluster, sense) -- stable, so
 * the same order as the sort by sense, then by cluster -- and the triples
 * end in @tmp, not in @tr.  Returns the array that holds them.
 */
static struct wtriple *sort_wtriples(struct wtriple *tr, size_t ntr, struct wtriple *tmp,
				     size_t *cnt, size_t nk, size_t ns, int one_pass)
{
	if (one_pass) {
		size_t nkey = nk * (ns + 1);
		memset(cnt, 0, (nkey + 1) * sizeof *cnt);
		for (size_t i = 0; i < ntr; i++)
			cnt[tr[i].cluster * (ns + 1) + (tr[i].sense == TV_NONE ? ns : tr[i].sense) +
			    1]++;
		for (size_t j = 1; j <= nkey; j++)
			cnt[j] += cnt[j - 1];
		for (size_t i = 0; i < ntr; i++)
			tmp[cnt[tr[i].cluster * (ns + 1) +
				(tr[i].sense == TV_NONE ? ns : tr[i].sense)]++] = tr[i];
		struct wtriple *t = tr;
		tr = tmp;
		tmp = t;
	} else {
		SORT_BY_CLUSTER_SENSE(tr, ntr, tmp, cnt, nk, ns);
	}
	for (size_t i = 0; i < ntr;) {
		size_t j = i + 1;
		int sorted = 1;
		while (j < ntr && tr[j].cluster == tr[i].cluster && tr[j].sense == tr[i].sense) {
			sorted &= !(tr[j].v < tr[j - 1].v);
			j++;
		}
		if (!sorted)
			sort_wrun(tr + i, j - i, tmp);
		i = j;
	}
	return tr;
}

/* The splits walk_cells() sums at once: a 12-bit lane each in 64 bits. */
enum { WALK_SPLITS = 5, LANE_BITS = 12, LANE_FULL = (1 << LANE_BITS) - 1 };

/* Adds @ones values 1 to a sum (@begun: it has its first value), as the
 * values are added one by one: at once when the sum is a whole number --
 * every step exact, so the same -- otherwise one by one. */
static void add_ones(double *sum, uint8_t *begun, uint32_t ones)
{
	if (ones == 0)
		return;
	if (!*begun) {
		*sum = 1.0; /* the first value starts the sum */
		*begun = 1;
		if (--ones == 0)
			return;
	}
	if (*sum == floor(*sum) && *sum + (double)ones <= 0x1p53) {
		*sum += (double)ones;
	} else {
		for (uint32_t q = 0; q < ones; q++)
			*sum += 1.0;
	}
}

/*
 * The sums of the cells x->cell[0 .. ncell) of the sorted word triples for
 * @nsp splits (at most WALK_SPLITS) in one walk: split j's into
 * x->csum[j * ncell + c], with x->cbegun[j * ncell + c] set when it has a
 * value (a row sum, sense TV_NONE, counts as begun, from 0).  Split j adds
 * the values of the positions p whose bit j is set in x->mbits[p - @first]
 * (the word's first position), in the sorted
 * order, as map_word() adds its mapping instances' values: a cell's first
 * value starts its sum; a run of values 1 is counted (in 12-bit lanes, one
 * per split) and added by add_ones().
 */
static void walk_cells(struct scratch *x, size_t ncell, size_t nsp, uint32_t first)
{
	uint64_t spread[1u << WALK_SPLITS];
	for (unsigned b = 0; b < (1u << WALK_SPLITS); b++) {
		spread[b] = 0;
		for (unsigned j = 0; j < WALK_SPLITS; j++)
			spread[b] |= (uint64_t)(b >> j & 1u) << (j * LANE_BITS);
	}
	const struct wtriple *wtr = x->wtr;
	const uint8_t *mbits = x->mbits;
	for (size_t c = 0; c < ncell; c++) {
		double sum[WALK_SPLITS];
		uint8_t begun[WALK_SPLITS];
		uint8_t row = x->cell[c].sense == TV_NONE;
		for (size_t j = 0; j < nsp; j++) {
			sum[j] = 0.0;
			begun[j] = row;
		}
		size_t t = x->cell[c].first, end = x->cell[c + 1].first;
		while (t < end) {
			double v = wtr[t].v;
			if (v == 1.0) {
				uint32_t ones[WALK_SPLITS] = { 0 };
				uint64_t acc = 0;
				unsigned in_lane = 0;
				for (; t < end && wtr[t].v == 1.0; t++) {
					acc += spread[mbits[wtr[t].p - first]];
					if (++in_lane == LANE_FULL) {
						for (size_t j = 0; j < nsp; j++)
							ones[j] += (uint32_t)(acc >> (j * LANE_BITS) &
									      LANE_FULL);
						acc = 0;
						in_lane = 0;
					}
				}
				for (size_t j = 0; j < nsp; j++) {
					ones[j] += (uint32_t)(acc >> (j * LANE_BITS) & LANE_FULL);
					add_ones(&sum[j], &begun[j], ones[j]);
				}
				continue;
			}
			for (unsigned b = mbits[wtr[t].p - first]; b != 0; b &= b - 1) {
				unsigned j = (unsigned)__builtin_ctz(b);
				sum[j] = begun[j] ? sum[j] + v : v;
				begun[j] = 1;
			}
			t++;
		}
		for (size_t j = 0; j < nsp; j++) {
			x->csum[j * ncell + c] = sum[j];
			x->cbegun[j * ncell + c] = begun[j];
		}
	}
}

/*
 * Test position @p of the word of @m mapped as map_test() maps it without a
 * key, when its labels are the gold ones and it has one cluster of weight 1
 * (TV_G_ONE): its vector is that row's alone with the factor 1 / rowsum, the
 * same for every such instance of the row, so the row's best sense and
 * score are worked out once (x->rknown, cleared for each split).
 */
static int map_test_one(const struct tageval_supervised *s, struct scratch *x,
			const struct wordmap *m, uint32_t p, struct tageval_supervised_result *res)
{
	struct tv_senses lab = tv_sup_gold(s, &s->g[p]);
	x->too_many |= lab.n > UINT16_MAX; /* the scorer's limit: its message */
	if (m->ns == 0)
		return TAGEVAL_OK;
	uint32_t k = x->crow[s->g[p].v];
	if (k == TV_NONE || !(m->rowsum[k] > 0.0))
		return TAGEVAL_OK; /* no mapping instance, or weight 0: no answer */
	if (!x->rknown[k]) {
		x->rbest[k] = 0;
		int rc = best_of_row(x, m->rowstart, (struct wcl){ k, 1.0 / m->rowsum[k] },
				     &x->rbest[k], &x->rtop[k]);
		if (rc)
			return rc;
		x->rknown[k] = 1;
	}
	if (!(x->rtop[k] > 0.0))
		return TAGEVAL_OK;
	res->answered++;
	for (uint32_t j = 0; j < lab.n; j++)
		if (tv_sense_at(lab, j) == x->names[x->rbest[k]].id) {
			x->ncorrect++;
			break;
		}
	return TAGEVAL_OK;
}

/* How many positions ahead the clusters are prefetched (sys_ahead()). */
enum { SYS_AHEAD = 16 };

/* Where position @p's clusters are if it is pooled (and before @last), to
 * be prefetched ahead of their use: gsys is in the order of the lines, so a
 * word's pooled instances are read from all over it, each a cache miss
 * otherwise; NULL otherwise.  (The prefetch is written in the loops: with
 * it in a helper of its own, objdump showed no prefetch left there, GCC 12.) */
static inline const void *sys_ahead(const struct tageval_supervised *s, size_t p, size_t last)
{
	return p < last && s->gkind[p] == TV_G_POOLED ? (const void *)&s->gsys[s->g[p].v] : NULL;
}

/*
 * A word mapped for every split @sp[0 .. k) at once, when the splits take
 * the gold labels (drawn splits: folds, random splits), figures into @r;
 * evaluate_all()'s path.  map_word() learns each split's table from its
 * mapping instances; here the table's triples are made once for all the
 * word's instances, with the senses and cluster rows numbered over the
 * whole word, and sorted once; each split then sums, in that order, the
 * triples of its mapping instances.  The result is what map_word() gives:
 *  - a cell's (and a row sum's) values are added in ascending order, equal
 *    values in any order (they are equal), starting from the first, as
 *    sum_triples() and sum_ones() add them; dense_rows() adds whole
 *    numbers, exact in any order (below 2^53);
 *  - the senses are numbered in bytewise order of their names, as map_word()
 *    numbers a split's mapping senses: a sense no mapping instance of the
 *    split has holds no cell, so the first sense of highest score is the
 *    same one;
 *  - a cluster no mapping instance of the split has gets a row sum of 0,
 *    which map_test() skips as it skips a cluster the mapping lacks; the
 *    rows' numbering does not enter the scores (a vector's terms are summed
 *    in the order of its line).
 */
static int map_word_shared(struct tageval_supervised *s, struct split *sp, size_t k,
			   size_t word, struct scratch *x, struct tageval_supervised_result *r,
			   struct fused *f)
{
	const struct tageval_wsi *w = s->w;
	struct wordmap m = { .word = (uint32_t)word,
			     .first = s->start[word],
			     .last = s->start[word + 1],
			     .wlen = strlen(tv_intern_str(&w->words, (uint32_t)word)) };
	if (++x->gen == 0) {
		memset(x->sstamp, 0, s->senses.n * sizeof *x->sstamp);
		x->gen = 1;
	}
	for (size_t j = 0; j < x->nclab; j++) /* the word before's clusters */
		x->crow[x->clab[j]] = TV_NONE;
	x->nclab = 0;
	/* the senses and clusters of all the word's instances */
	size_t ns = 0, nk = 0, ntr = 0;
	for (uint32_t p = m.first; p < m.last; p++) {
		const struct grouped *g = &s->g[p];
		const void *ahead = sys_ahead(s, (size_t)p + SYS_AHEAD, m.last);
		if (ahead != NULL)
			__builtin_prefetch(ahead);
		const uint32_t sys_n = tv_sup_sys_n(s, g);
		struct tv_senses lab = tv_sup_gold(s, g);
		uint32_t nl = lab.n;
		for (uint32_t j = 0; j < nl; j++) {
			if (x->sstamp[tv_sense_at(lab, j)] == x->gen)
				continue;
			x->sstamp[tv_sense_at(lab, j)] = x->gen;
			if (tv_grow((void **)&x->names, &x->namecap, ns + 1, sizeof *x->names))
				return TAGEVAL_ENOMEM;
			x->names[ns].id = tv_sense_at(lab, j);
			x->names[ns].name = tv_intern_str(&s->senses, tv_sense_at(lab, j));
			ns++;
		}
		struct tv_wlabel one;
		const struct tv_wlabel *sys = sys_of(s, g, &one);
		for (uint32_t c = 0; c < sys_n; c++) {
			uint32_t cl = sys[c].label;
			if (x->crow[cl] == TV_NONE) {
				if (tv_grow((void **)&x->clab, &x->clabcap, x->nclab + 1,
					    sizeof *x->clab))
					return TAGEVAL_ENOMEM;
				x->clab[x->nclab++] = cl;
				x->crow[cl] = (uint32_t)nk++;
			}
		}
		ntr += (size_t)sys_n * (nl + 1);
	}
	if (ns > 1)
		qsort(x->names, ns, sizeof *x->names, by_name);
	for (size_t i = 0; i < ns; i++)
		x->slocal[x->names[i].id] = (uint32_t)i;
	/* their triples, as fill_table() makes them, sorted: in one counting
	 * sort when there are not many more (cluster, sense) keys than triples */
	size_t nc = (nk > ns + 1 ? nk : ns + 1) + 1;
	int one_pass = nk == 0 || ns + 1 <= (2 * ntr + 64) / nk; /* no product to wrap */
	if (one_pass)
		nc = nk * (ns + 1) + 1;
	if (tv_grow((void **)&x->wtr, &x->wtrcap, ntr + 1, sizeof *x->wtr) ||
	    tv_grow((void **)&x->wtr2, &x->wtr2cap, ntr + 1, sizeof *x->wtr2) ||
	    tv_grow((void **)&x->cnt, &x->cntcap, nc, sizeof *x->cnt) ||
	    tv_grow((void **)&x->tr, &x->trcap, ntr + 1, sizeof *x->tr) ||
	    tv_grow((void **)&x->rowsum, &x->rowcap, nk + 1, sizeof *x->rowsum) ||
	    tv_grow((void **)&x->rowstart, &x->rowstartcap, nk + 1, sizeof *x->rowstart))
		return TAGEVAL_ENOMEM;
	ntr = 0;
	for (uint32_t p = m.first; p < m.last; p++) {
		const struct grouped *g = &s->g[p];
		const uint32_t sys_n = tv_sup_sys_n(s, g);
		if (sys_n == 0)
			continue;
		struct tv_senses lab = tv_sup_gold(s, g);
		uint32_t nl = lab.n;
		struct tv_wlabel one;
		const struct tv_wlabel *sys = sys_of(s, g, &one);
		for (uint32_t c = 0; c < sys_n; c++) {
			const struct tv_wlabel *e = &sys[c];
			uint32_t row = x->crow[e->label];
			double v = nl == 1 ? e->w : e->w / (double)nl; /* x / 1 is x */
			x->wtr[ntr++] = (struct wtriple){ row, TV_NONE, e->w, p };
			for (uint32_t j = 0; j < nl; j++)
				x->wtr[ntr++] = (struct wtriple){ row, x->slocal[tv_sense_at(lab, j)], v, p };
		}
	}
	if (ntr > 1 && sort_wtriples(x->wtr, ntr, x->wtr2, x->cnt, nk, ns, one_pass) != x->wtr) {
		struct wtriple *t = x->wtr; /* sorted into wtr2: the two swapped */
		size_t cap = x->wtrcap;
		x->wtr = x->wtr2;
		x->wtrcap = x->wtr2cap;
		x->wtr2 = t;
		x->wtr2cap = cap;
	}
	m.nk = nk;
	m.rowsum = x->rowsum;
	m.rowstart = x->rowstart;
	/* the cells: runs of one (cluster, sense) */
	size_t ncell = 0;
	for (size_t t = 0; t < ntr; t++)
		if (t == 0 || x->wtr[t].cluster != x->wtr[t - 1].cluster ||
		    x->wtr[t].sense != x->wtr[t - 1].sense) {
			if (tv_grow((void **)&x->cell, &x->cellcap, ncell + 2, sizeof *x->cell))
				return TAGEVAL_ENOMEM;
			x->cell[ncell++] = (struct wcell){ x->wtr[t].cluster, x->wtr[t].sense, t };
		}
	size_t npos = m.last - m.first;
	if (tv_grow((void **)&x->cell, &x->cellcap, ncell + 1, sizeof *x->cell) ||
	    tv_grow((void **)&x->csum, &x->csumcap, WALK_SPLITS * ncell + 1, sizeof *x->csum) ||
	    tv_grow((void **)&x->cbegun, &x->cbeguncap, WALK_SPLITS * ncell + 1,
		    sizeof *x->cbegun) ||
	    tv_grow((void **)&x->mbits, &x->mbitscap, npos + 1, sizeof *x->mbits) ||
	    tv_grow((void **)&x->rbest, &x->rbestcap, nk + 1, sizeof *x->rbest) ||
	    tv_grow((void **)&x->rtop, &x->rtopcap, nk + 1, sizeof *x->rtop) ||
	    tv_grow((void **)&x->rknown, &x->rknowncap, nk + 1, sizeof *x->rknown))
		return TAGEVAL_ENOMEM;
	x->cell[ncell].first = ntr;
	for (size_t i0 = 0; i0 < k; i0 += WALK_SPLITS) {
		size_t nsp = k - i0 < WALK_SPLITS ? k - i0 : WALK_SPLITS;
		/* each split's mapping instances; a sense when one has a label */
		size_t nmap[WALK_SPLITS] = { 0 };
		int anysense[WALK_SPLITS] = { 0 };
		for (uint32_t p = m.first; p < m.last; p++) {
			int labelled = tv_sup_gold(s, &s->g[p]).n > 0;
			unsigned b = 0;
			for (size_t j = 0; j < nsp; j++) {
				int in = tv_role(sp[i0 + j].role, p) == ROLE_MAPPING;
				b |= (unsigned)in << j;
				nmap[j] += (size_t)in;
				anysense[j] |= in & labelled;
			}
			x->mbits[p - m.first] = (uint8_t)b;
		}
		walk_cells(x, ncell, nsp, m.first);
		for (size_t j = 0; j < nsp; j++) {
			size_t i = i0 + j;
			struct tageval_supervised_result *res = &r[i];
			res->mapping += nmap[j];
			m.nmap = nmap[j];
			m.ns = anysense[j] ? ns : 0;
			/* its cells and row sums */
			const double *sum = x->csum + j * ncell;
			const uint8_t *begun = x->cbegun + j * ncell;
			memset(x->rowsum, 0, nk * sizeof *x->rowsum);
			size_t n = 0;
			for (size_t c = 0; c < ncell; c++) {
				const struct wcell *e = &x->cell[c];
				if (e->sense == TV_NONE)
					x->rowsum[e->cluster] = sum[c];
				else if (begun[c])
					x->tr[n++] = (struct triple){ e->cluster, e->sense, sum[c] };
			}
			x->ntr = n;
			for (size_t row = 0, t = 0; row <= nk; row++) {
				while (t < n && x->tr[t].cluster < row)
					t++;
				x->rowstart[row] = t;
			}
			/* 3. its test instances, as map_word() maps them */
			if (step3_fit(x, ns, nk))
				return TAGEVAL_ENOMEM;
			const uint8_t *role = sp[i].role;
			x->ncorrect = f[i].ncorrect;
			x->too_many = f[i].too_many;
			memset(x->rknown, 0, nk * sizeof *x->rknown);
			for (uint32_t p = m.first; p < m.last; p++) {
				const void *ahead = sys_ahead(s, (size_t)p + SYS_AHEAD, m.last);
				if (ahead != NULL)
					__builtin_prefetch(ahead);
				if (tv_role(role, p) != ROLE_TEST)
					continue;
				res->test++;
				if (s->gkind[p] == TV_G_ONE ? map_test_one(s, x, &m, p, res)
							    : map_test(s, &sp[i], &s->g[p], x, &m,
								       NULL, res, NULL))
					return TAGEVAL_ENOMEM;
			}
			f[i].ncorrect = x->ncorrect;
			f[i].too_many = x->too_many;
		}
	}
	return TAGEVAL_OK;
}

/* evaluate_all()'s parts: at most EVAL_PARTS, of about EVAL_PART_MIN selected
 * instances or more each: fixed numbers, not the machine's CPUs, so that the
 * parts are the same on every machine (their figures, counts, would be the
 * same for any parts).  A part costs little (the scratches are shared). */
enum { EVAL_PARTS = 16, EVAL_PART_MIN = 1024 };

/* A part of evaluate_all(): the selected words of [lo, hi), its figures for
 * each of the k splits (its own rows of the job's arrays). */
struct eval_part {
	size_t lo, hi;
	struct tageval_supervised_result *r;
	struct fused *f;
	int rc;
};

/*
 * The parts share TV_PARALLEL_MAX scratches (at most so many parts run at
 * once): a part takes a free one and leaves it for the next.  A scratch
 * carries nothing from one word to the next (map_word() and
 * map_word_shared() reset what they use), so which one a part takes does
 * not matter; one each would cost every part the per-label arrays again
 * (4 bytes a cluster label: 4 MB at a million labels).
 */
struct eval_job {
	struct tageval_supervised *s;
	int shared; /* map_word_shared() for all the splits */
	atomic_int failed; /* a part failed (no memory): the others stop */
	size_t nsense, nlab;
	struct eval_part part[EVAL_PARTS];
	struct scratch x[TV_PARALLEL_MAX];
	atomic_flag busy[TV_PARALLEL_MAX];
};

/* The per-sense and per-label arrays of a scratch, if not made yet. */
static int eval_scratch_fit(struct scratch *x, size_t nsense, size_t nlab)
{
	if (x->sstamp == NULL && (x->sstamp = calloc(nsense, sizeof *x->sstamp)) == NULL)
		return TAGEVAL_ENOMEM;
	if (x->slocal == NULL && (x->slocal = malloc(nsense * sizeof *x->slocal)) == NULL)
		return TAGEVAL_ENOMEM;
	if (x->crow == NULL) {
		if ((x->crow = malloc(nlab * sizeof *x->crow)) == NULL)
			return TAGEVAL_ENOMEM;
		memset(x->crow, 0xff, nlab * sizeof *x->crow); /* TV_NONE */
	}
	return TAGEVAL_OK;
}

/* The words of one part mapped for every split (a tv_part_fn). */
static void eval_part_run(void *ctx, size_t i)
{
	struct eval_job *job = ctx;
	struct tageval_supervised *s = job->s;
	struct eval_part *pt = &job->part[i];
	size_t k = s->nsplits, slot = 0;
	while (atomic_flag_test_and_set(&job->busy[slot])) /* one is free */
		slot = (slot + 1) % TV_PARALLEL_MAX;
	struct scratch *x = &job->x[slot];
	struct tageval_error err = { 0 };
	pt->rc = eval_scratch_fit(x, job->nsense, job->nlab);
	for (size_t word = pt->lo; word < pt->hi && pt->rc == TAGEVAL_OK; word++) {
		if (atomic_load_explicit(&job->failed, memory_order_relaxed)) {
			pt->rc = TAGEVAL_ENOMEM; /* no figures wanted: all are dropped */
			break;
		}
		if (!s->selected[word])
			continue;
		if (job->shared) {
			pt->rc = map_word_shared(s, s->splits, k, word, x, pt->r, pt->f);
			continue;
		}
		for (size_t j = 0; j < k && pt->rc == TAGEVAL_OK; j++) {
			x->ncorrect = pt->f[j].ncorrect;
			x->too_many = pt->f[j].too_many;
			pt->rc = map_word(s, &s->splits[j], word, x, NULL, &pt->r[j], &err);
			pt->f[j].ncorrect = x->ncorrect;
			pt->f[j].too_many = x->too_many;
		}
	}
	if (pt->rc != TAGEVAL_OK) {
		/* a scratch a failed allocation left half made is not handed on:
		 * the next part makes its own */
		scratch_free(x);
		memset(x, 0, sizeof *x);
		atomic_store(&job->failed, 1);
	}
	atomic_flag_clear(&job->busy[slot]);
}

/* The parts' words: contiguous ranges of about equal numbers of selected
 * instances; returns their number. */
static size_t eval_parts(const struct tageval_supervised *s, struct eval_part *part)
{
	size_t nw = s->w->words.n, total = 0;
	for (size_t word = 0; word < nw; word++)
		if (s->selected[word])
			total += s->start[word + 1] - s->start[word];
	size_t n = total / EVAL_PART_MIN;
	n = n < 1 ? 1 : n > EVAL_PARTS ? EVAL_PARTS : n;
	/* part i from the first word at or past i / n of the instances */
	size_t word = 0, before = 0;
	for (size_t i = 0; i < n; i++) {
		part[i].lo = word;
		size_t end = i + 1 == n ? total : total / n * (i + 1) + total % n * (i + 1) / n;
		while (word < nw && (before < end || i + 1 == n)) {
			if (s->selected[word])
				before += s->start[word + 1] - s->start[word];
			word++;
		}
		part[i].hi = word;
	}
	return n;
}

/*
 * Every split evaluated without the key (see tageval_supervised_evaluate()),
 * in one pass over the words: a word's instances are mapped for each split
 * in turn while they are in the cache, instead of the whole data being read
 * again for each split.  Each (word, split) is mapped exactly as evaluate()
 * maps it (the scratch is reset per word), and the figures are counts, so
 * they are the same whatever the order: the words are shared out in parts
 * (tv_parallel()), each with its own figures, added up in part order.  Into
 * s->fused; on failure (memory only, in any part) s->fused stays NULL and
 * the splits are evaluated one by one.
 */
static int evaluate_all(struct tageval_supervised *s)
{
	const struct tageval_wsi *w = s->w;
	size_t k = s->nsplits, kk = k ? k : 1;
	struct eval_job *job = calloc(1, sizeof *job);
	struct fused *f = calloc(kk, sizeof *f), *pf = NULL;
	struct tageval_supervised_result *pr = NULL;
	int rc = TAGEVAL_ENOMEM;
	if (!job || !f)
		goto out;
	/* each part's rows: as many parts as the data makes */
	size_t nparts = eval_parts(s, job->part);
	pf = calloc(nparts * kk, sizeof *pf);
	pr = calloc(nparts * kk, sizeof *pr);
	if (!pf || !pr)
		goto out;
	for (size_t i = 0; i < TV_PARALLEL_MAX; i++)
		atomic_flag_clear(&job->busy[i]);
	atomic_init(&job->failed, 0);
	for (size_t i = 0; i < k; i++)
		if (group_roles(s, &s->splits[i]))
			goto out;
	job->s = s;
	job->nsense = s->senses.n ? s->senses.n : 1;
	job->nlab = tv_wsi_nlabels(w) ? tv_wsi_nlabels(w) : 1;
	/* splits of the gold labels share each word's sorted triples */
	job->shared = 1;
	for (size_t i = 0; i < k; i++)
		job->shared &= s->splits[i].lab_first == NULL;
	for (size_t i = 0; i < nparts; i++) {
		job->part[i].r = pr + i * kk;
		job->part[i].f = pf + i * kk;
	}
	tv_parallel(nparts, eval_part_run, job);
	for (size_t i = 0; i < nparts; i++)
		if (job->part[i].rc)
			goto out;
	for (size_t i = 0; i < nparts; i++)
		for (size_t j = 0; j < k; j++) {
			f[j].mapping += job->part[i].r[j].mapping;
			f[j].test += job->part[i].r[j].test;
			f[j].answered += job->part[i].r[j].answered;
			f[j].ncorrect += job->part[i].f[j].ncorrect;
			f[j].too_many |= job->part[i].f[j].too_many;
		}
	free(s->fused);
	s->fused = f;
	f = NULL;
	rc = TAGEVAL_OK;
out:
	if (job != NULL)
		for (size_t i = 0; i < TV_PARALLEL_MAX; i++)
			scratch_free(&job->x[i]);
	free(job);
	free(f);
	free(pf);
	free(pr);
	return rc;
}

/*
 * A split's mapped answers are scored by the Senseval scorer (fine-grained)
 * against a key of its test instances.  Each answer is one sense of weight
 * 1, so the scorer's sums are counts: an answer earns 1 when it is one of
 * the instance's labels.  Unless the mapped answers are wanted, or a sense
 * name holds a '/' (the scorer reads a weight there), or an instance has
 * more labels than the key takes (its message), those counts are taken
 * directly (@keyless), without the key and the scorer: the same figures,
 * bit for bit.
 */
int tageval_supervised_evaluate(struct tageval_supervised *s, size_t i,
				struct tageval_supervised_result *res, char **mapped,
				struct tageval_error *err)
{
	/* the arguments' checks here, for their messages */
	TV_NEED(err, res, "res");
	memset(res, 0, sizeof *res);
	if (mapped)
		*mapped = NULL;
	TV_NEED(err, s, "sup");
	int keyless = mapped == NULL && !senses_with_slash(s);
	if (keyless && i < s->nsplits && (s->fused != NULL || evaluate_all(s) == TAGEVAL_OK)) {
		/* as evaluate() gives them */
		const struct fused *f = &s->fused[i];
		res->mapping = f->mapping;
		res->test = f->test;
		res->answered = f->answered;
		if (f->test == 0)
			return tv_error(err, TAGEVAL_EFORMAT, "", 0,
					"split %zu has no test instance", i + 1);
		if (f->too_many) /* with the key, for the scorer's message */
			return evaluate(s, i, res, mapped, 0, err);
		keyless_figures(res, f->ncorrect);
		return TAGEVAL_OK;
	}
	return evaluate(s, i, res, mapped, keyless, err);
}

static int evaluate(struct tageval_supervised *s, size_t i, struct tageval_supervised_result *res,
		    char **mapped, int keyless, struct tageval_error *err)
{
	memset(res, 0, sizeof *res);
	if (i >= s->nsplits)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "no split %zu", i + 1);
	const struct tageval_wsi *w = s->w;
	if (group_roles(s, &s->splits[i]))
		return tv_nomem(err);
	const struct split *sp = &s->splits[i];
	struct scratch x = { 0 };
	struct text txt = { 0 };
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *k = NULL;
	struct tageval_scorer *sc = NULL;
	int rc = TAGEVAL_OK;
	char name[64];
	snprintf(name, sizeof name, "split %zu", i + 1);
	size_t nsense = s->senses.n ? s->senses.n : 1;
	size_t nlab = tv_wsi_nlabels(w) ? tv_wsi_nlabels(w) : 1;
	x.inv = inv;
	x.tagof = calloc(nsense, sizeof *x.tagof);
	x.sstamp = calloc(nsense, sizeof *x.sstamp);
	x.slocal = malloc(nsense * sizeof *x.slocal);
	x.crow = malloc(nlab * sizeof *x.crow);
	if (x.crow != NULL)
		memset(x.crow, 0xff, nlab * sizeof *x.crow); /* TV_NONE */
	if (!x.tagof || !x.sstamp || !x.slocal || !x.crow || !inv ||
	    (!keyless && tageval_key_new(inv, name, &k))) {
		rc = tv_nomem(err);
		goto out;
	}
	/* 1. map every selected word; the test instances form the key */
	for (size_t word = 0; word < w->words.n; word++) {
		if (!s->selected[word])
			continue;
		if ((rc = map_word(s, sp, word, &x, k, res, err)) != TAGEVAL_OK) {
			if (rc == TAGEVAL_ENOMEM)
				tv_nomem(err);
			goto out;
		}
	}
	if (res->test == 0) {
		rc = tv_error(err, TAGEVAL_EFORMAT, "", 0, "split %zu has no test instance", i + 1);
		goto out;
	}
	if (keyless && x.too_many) {
		/* with the key, for the scorer's message */
		tageval_inventory_free(inv);
		scratch_free(&x);
		return evaluate(s, i, res, mapped, 0, err);
	}
	if (keyless) {
		keyless_figures(res, x.ncorrect);
		goto out;
	}
	/* 2. the answers, scored by the Senseval scorer (fine-grained) */
	if ((rc = tageval_scorer_new(inv, k, NULL, &sc, err)))
		goto out;
	if (mapped && text_put(&txt, "")) {
		rc = tv_nomem(err);
		goto out;
	}
	if ((rc = score_answers(s, &x, sc, mapped ? &txt : NULL, err)))
		goto out;
	struct tageval_score total;
	tageval_scorer_result(sc, &total);
	res->correct = total.correct;
	res->precision = total.attempted > 0.0 ? total.correct / total.attempted : NAN;
	res->recall = total.correct / total.total;
	res->attempted = total.attempted / total.total;
	if (mapped) {
		*mapped = txt.s;
		txt.s = NULL;
	}
out:
	tageval_scorer_free(sc);
	tageval_key_free(k);
	tageval_inventory_free(inv);
	scratch_free(&x);
	free(txt.s);
	return rc;
}
