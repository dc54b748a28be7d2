/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Word sense induction data: reading the gold key and the system's
 * clusters (the instances, their lines and their label pools), and the
 * instances grouped by target word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-rng.h"
#include "tageval-util.h"
#include "tageval-wsi.h"

/* Labels are interned with a kind prefix, so that a tie set or the extra
 * cluster can never be confused with a label spelled the same way. */
#define KIND_LABEL 'L'
#define KIND_TIE 'T'
#define KIND_UNANSWERED 'U'

struct tageval_wsi *tageval_wsi_new(void)
{
	struct tageval_wsi *w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	tv_intern_init(&w->ids);
	tv_intern_init(&w->words);
	tv_intern_init(&w->labels);
	tv_intern_init(&w->xids);
	static const char u[] = { KIND_UNANSWERED };
	if (tv_intern_put(&w->labels, u, 1, &w->unanswered, NULL)) {
		tageval_wsi_free(w);
		return NULL;
	}
	return w;
}

void tageval_wsi_free(struct tageval_wsi *w)
{
	if (w == NULL)
		return;
	tv_intern_clear(&w->ids);
	tv_intern_clear(&w->words);
	tv_intern_clear(&w->labels);
	tv_intern_clear(&w->xids);
	free(w->in);
	free(w->gflags);
	free(w->cl_j);
	free(w->sys_line);
	free(w->sflags);
	free(w->gold_pool);
	free(w->gold_wpool);
	free(w->extra);
	free(w->sys_pool);
	free(w->class_l);
	free(w->cl_p);
	free(w->cl_p_spare);
	free(w->big);
	free(w->gap);
	free(w->bgap);
	free(w->gold_name);
	free(w->sys_name);
	free(w->buf);
	free(w->tok);
	free(w);
}

size_t tageval_wsi_instances(const struct tageval_wsi *w)
{
	TV_NULL_RET(w, 0);
	return w->n;
}

int tageval_wsi_instance(const struct tageval_wsi *w, size_t i, const char **word,
			 const char **instance)
{
	TV_NULL_RET(w, TAGEVAL_EINVAL);
	TV_NULL_RET(word, TAGEVAL_EINVAL);
	TV_NULL_RET(instance, TAGEVAL_EINVAL);
	if (i >= w->n)
		return TAGEVAL_EINVAL;
	*word = tv_intern_str(&w->words, w->in[i].word);
	*instance = tv_intern_str(&w->ids, (uint32_t)i);
	return TAGEVAL_OK;
}

size_t tageval_wsi_answered(const struct tageval_wsi *w)
{
	TV_NULL_RET(w, 0);
	return w->answered;
}

size_t tageval_wsi_ignored(const struct tageval_wsi *w)
{
	TV_NULL_RET(w, 0);
	return w->ignored;
}

void tageval_wsi_counts(const struct tageval_wsi *w, struct tageval_wsi_counts *out)
{
	*out = w->counts;
}

int tageval_wsi_graded(const struct tageval_wsi *w)
{
	const struct tageval_wsi_counts *c = &w->counts;
	return c->gold_multi || c->gold_weighted || c->system_multi || c->system_weighted ||
	       c->extra_graded;
}

/* The flags of a line from its weights (@given: the label had a /weight). */
static unsigned weight_flags(size_t nweighted, size_t nlab, double max)
{
	unsigned f = 0;
	if (nweighted == nlab) {
		f |= TV_WF_WEIGHTED;
		if (max == 0.0)
			f |= TV_WF_ZERO;
	}
	if (nweighted > 0)
		f |= TV_WF_SOMEW;
	return f;
}

uint32_t tv_wsi_crisp_gold(const struct tageval_wsi *w, const struct tv_winst *in)
{
	if (in->gold_first == TV_NONE)
		return in->class_j;
	const uint32_t *lab = w->gold_pool + in->gold_first;
	const double *wt = w->gold_wpool + in->gold_first;
	size_t best = 0;
	for (size_t i = 1; i < tv_wsi_gold_n(w->gold_pool, in); i++)
		if (wt[i] > wt[best])
			best = i;
	return lab[best];
}

uint32_t tv_wsi_crisp_sys(const struct tageval_wsi *w, uint32_t idx)
{
	uint32_t n = tv_wsi_sys_n(w, idx), first = tv_wsi_sys_first(w, idx);
	if (n == 0)
		return w->unanswered;
	if (first == TV_NONE)
		return w->cl_j[idx];
	const struct tv_wlabel *lab = w->sys_pool + first;
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (lab[i].w > lab[best].w)
			best = i;
	return lab[best].label;
}

/* The gold line of instance @i, the last one made: a gap kept when it does
 * not follow the instance before's. */
static int set_gold_line(struct tageval_wsi *w, uint32_t i, uint64_t line)
{
	/* the skips grow with the instances: the last gap's is the largest */
	uint64_t skip = w->nbgap ? w->bgap[w->nbgap - 1].skip
		      : w->ngap ? w->gap[w->ngap - 1].skip : 0;
	if (line == (uint64_t)i + 1 + skip)
		return TAGEVAL_OK;
	skip = line - i - 1;
	if (skip <= UINT32_MAX) {
		if (tv_grow((void **)&w->gap, &w->gapcap, w->ngap + 1, sizeof *w->gap))
			return TAGEVAL_ENOMEM;
		w->gap[w->ngap++] = (struct tv_wgap){ i, (uint32_t)skip };
	} else {
		if (tv_grow((void **)&w->bgap, &w->bgapcap, w->nbgap + 1, sizeof *w->bgap))
			return TAGEVAL_ENOMEM;
		w->bgap[w->nbgap++] = (struct tv_wgap_big){ i, skip };
	}
	return TAGEVAL_OK;
}

/* The gaps of @gap (n of @size bytes, each starting with its uint32_t
 * inst, ascending) at or before instance @i: [0, result). */
_Static_assert(offsetof(struct tv_wgap, inst) == 0 && offsetof(struct tv_wgap_big, inst) == 0,
	       "gaps_upto reads inst at the start of a gap");
static size_t gaps_upto(const void *gap, size_t n, size_t size, uint32_t i)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t inst;
		memcpy(&inst, (const char *)gap + mid * size, sizeof inst);
		if (inst <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t tv_wsi_gold_line(const struct tageval_wsi *w, uint32_t i)
{
	if (w->nbgap && w->bgap[0].inst <= i) /* lo >= 1 */
		return (uint64_t)i + 1 +
		       w->bgap[gaps_upto(w->bgap, w->nbgap, sizeof *w->bgap, i) - 1].skip;
	size_t lo = gaps_upto(w->gap, w->ngap, sizeof *w->gap, i);
	return (uint64_t)i + 1 + (lo ? w->gap[lo - 1].skip : 0);
}

static int set_line(struct tageval_wsi *w, uint32_t i, int sys, uint64_t line)
{
	if (!sys)
		return set_gold_line(w, i, line);
	if (w->sys_line == NULL)
		return TAGEVAL_OK; /* a baseline's: no message names its lines */
	uint32_t *p = &w->sys_line[i];
	if (line < TV_LINE_BIG) {
		*p = (uint32_t)line;
		return TAGEVAL_OK;
	}
	if (tv_grow((void **)&w->big, &w->bigcap, w->nbig + 1, sizeof *w->big))
		return TAGEVAL_ENOMEM;
	w->big[w->nbig++] = (struct tv_wbigline){ i, sys, line };
	*p = TV_LINE_BIG;
	return TAGEVAL_OK;
}

uint64_t tv_wsi_sys_line(const struct tageval_wsi *w, uint32_t i)
{
	uint32_t v = w->sys_line ? w->sys_line[i] : TV_LINE_BIG;
	for (size_t k = w->nbig; v == TV_LINE_BIG && k-- > 0;)
		if (w->big[k].inst == i && w->big[k].sys)
			return w->big[k].line;
	return v == TV_LINE_BIG ? 0 : v;
}

/* Instance i's SemEval-2007 class; the array exists once one differs from
 * class_j (gold lines come in instance order, so it grows with in[]). */
static int set_class_l(struct tageval_wsi *w, uint32_t i, uint32_t c)
{
	if (w->class_l == NULL && c == w->in[i].class_j)
		return TAGEVAL_OK;
	int fill = w->class_l == NULL;
	if (tv_grow((void **)&w->class_l, &w->class_lcap, (size_t)i + 1, sizeof *w->class_l))
		return TAGEVAL_ENOMEM;
	for (uint32_t k = 0; fill && k < i; k++)
		w->class_l[k] = w->in[k].class_j;
	w->class_l[i] = c;
	return TAGEVAL_OK;
}

/* Instance i's SemEval-2007 cluster; the array (every gold instance) exists
 * once one differs from cl_j. */
static int set_cl_p(struct tageval_wsi *w, uint32_t i, uint32_t c)
{
	if (w->cl_p == NULL) {
		if (c == tv_wsi_cl_j(w, i))
			return TAGEVAL_OK;
		/* a line of two labels or more: in its second label's nline (the
		 * padding), no array of 4 bytes an instance */
		if ((w->sflags[i] & TV_WF_POOLED) && w->sys_pool[w->cl_j[i]].nline >= 2) {
			w->sys_pool[w->cl_j[i] + 1].nline = c + 1;
			w->cl_pooled = 1;
			return TAGEVAL_OK;
		}
		/* the array of the clusters before, if they had one */
		uint32_t *a = w->cl_p_spare ? w->cl_p_spare
					    : malloc((w->n ? w->n : 1) * sizeof *a);
		w->cl_p_spare = NULL;
		if (a == NULL)
			return TAGEVAL_ENOMEM;
		for (uint32_t k = 0; k < w->n; k++)
			a[k] = tv_wsi_cl_p(w, k);
		w->cl_p = a;
	}
	w->cl_p[i] = c;
	return TAGEVAL_OK;
}

/* The label cache's entry for label @s[0..len) of @kind: a cheap, unkeyed
 * hash of the kind, the length and the first and last 8 bytes (read 8 or 4
 * at a time, overlapping when fewer than 16 or 8). */
static unsigned label_slot(char kind, const char *s, size_t len)
{
	uint64_t head, tail;
	if (len >= 8) {
		head = tv_load_u64(s);
		tail = tv_load_u64(s + len - 8);
	} else if (len >= 4) {
		head = tv_load_u32(s);
		tail = tv_load_u32(s + len - 4);
	} else {
		head = 0;
		for (size_t i = 0; i < len; i++)
			head = head << 8 | (unsigned char)s[i];
		tail = 0;
	}
	uint64_t x = ((uint64_t)len << 8 | (unsigned char)kind) ^ head * 0x9e3779b97f4a7c15u;
	x = (x ^ x >> 29 ^ tail) * 0xbf58476d1ce4e5b9u;
	x ^= x >> 32;
	x *= 0x94d049bb133111ebu;
	return (unsigned)(x >> (64 - TV_WSI_LCACHE_BITS));
}

/* s[0..len) and t[0..len) hold the same bytes: compared 8 (or 4) at a
 * time, the last word overlapping the one before. */
static inline int same_bytes(const char *s, const char *t, size_t len)
{
	if (len >= 8) {
		for (size_t i = 0; i + 8 < len; i += 8)
			if (tv_load_u64(s + i) != tv_load_u64(t + i))
				return 0;
		return tv_load_u64(s + len - 8) == tv_load_u64(t + len - 8);
	}
	if (len >= 4)
		return tv_load_u32(s) == tv_load_u32(t) &&
		       tv_load_u32(s + len - 4) == tv_load_u32(t + len - 4);
	for (size_t i = 0; i < len; i++)
		if (s[i] != t[i])
			return 0;
	return 1;
}

/*
 * A label's id, interned as the kind followed by its bytes.  Most lines
 * name a label seen just before: the label cache (w->lcache) gives its id
 * after a comparison of the bytes in place, one at a time -- no copy into
 * w->buf, no keyed hash, and no wide (masked) load of bytes just stored,
 * which the processor cannot forward and which cost the memcmp() of the
 * interning table's front cache a stall per line.  A miss, or strings that
 * collide in the cache (by chance or by design), take the table's path:
 * no input can make a look-up cost more than one comparison more.
 */
static int intern_kind(struct tageval_wsi *w, char kind, const char *s, size_t len, uint32_t *id)
{
	unsigned slot = label_slot(kind, s, len);
	uint32_t id1 = w->lcache[slot];
	if (id1 != 0 && id1 - 1 < w->labels.n) {
		/* the lengths first (no byte read past the string's), then the
		 * kind and the bytes */
		const char *str = tv_intern_str(&w->labels, id1 - 1);
		if (tv_intern_len(&w->labels, id1 - 1) == len + 1 && str[0] == kind &&
		    same_bytes(str + 1, s, len)) {
			*id = id1 - 1;
			return TAGEVAL_OK;
		}
	}
	if (tv_grow((void **)&w->buf, &w->bufcap, len + 2, 1))
		return TAGEVAL_ENOMEM;
	w->buf[0] = kind;
	memcpy(w->buf + 1, s, len);
	w->buf[len + 1] = '\0';
	int rc = tv_intern_put(&w->labels, w->buf, len + 1, id, NULL);
	if (rc == TAGEVAL_OK)
		w->lcache[slot] = *id + 1;
	return rc;
}

/*
 * A gold line's word's id, interned.  The lines of a word need not come
 * together: the word cache (w->wcache, as the label cache) gives the id of
 * a word seen before after a comparison of the bytes in place, the table
 * is asked on a miss or a collision.
 */
static int word_id(struct tageval_wsi *w, const char *s, uint32_t *id)
{
	size_t len = strlen(s);
	unsigned slot = label_slot('\0', s, len);
	uint32_t id1 = w->wcache[slot];
	if (id1 != 0 && id1 - 1 < w->words.n) {
		const char *str = tv_intern_str(&w->words, id1 - 1);
		if (tv_intern_len(&w->words, id1 - 1) == len && same_bytes(str, s, len)) {
			*id = id1 - 1;
			return TAGEVAL_OK;
		}
	}
	int rc = tv_intern_put(&w->words, s, len, id, NULL);
	if (rc == TAGEVAL_OK)
		w->wcache[slot] = *id + 1;
	return rc;
}

/* Splits "label[/weight]"; the weight must be valid when present. */
static int split_label(const struct tv_line *l, const char *tok, size_t *len, double *weight,
		       struct tageval_error *err)
{
	if (tv_split_weight(tok, len, weight) < 0) {
		char q[80];
		tv_quote(q, sizeof q, tok, strlen(tok));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "invalid weight \"%s\"", q);
	}
	return TAGEVAL_OK;
}

static int short_line(const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield == 1)
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "missing instance id");
	char q[80];
	tv_quote(q, sizeof q, l->field[1], strlen(l->field[1]));
	return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno, "instance \"%s\" has no label", q);
}

static int gold_line(struct tageval_wsi *w, const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield < 3)
		return short_line(l, err);
	const char *inst = l->field[1];
	size_t ilen = strlen(inst);
	uint32_t idx = l->inst;
	int added = l->put == TV_PUT_NEW;
	if (l->put == TV_PUT_NO && tv_intern_put_hashed(&w->ids, inst, ilen, l->hash, &idx, &added))
		return tv_nomem(err);
	if (!added) {
		char q[80];
		tv_quote(q, sizeof q, inst, ilen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				tv_wsi_gold_line(w, idx));
	}
	size_t nlab = l->nfield - 2;
	/* gold_first and the count are 32 bits, TV_NONE kept apart */
	if (nlab >= (size_t)TV_NONE - 1 - w->ngold)
		return tv_nomem(err);
	if (tv_grow((void **)&w->in, &w->cap, w->n + 1, sizeof *w->in) ||
	    tv_grow((void **)&w->gflags, &w->gfcap, w->n + 1, sizeof *w->gflags) ||
	    tv_grow((void **)&w->gold_pool, &w->goldcap, w->ngold + nlab + 1,
		    sizeof *w->gold_pool) ||
	    tv_grow((void **)&w->gold_wpool, &w->gwcap, w->ngold + nlab + 1,
		    sizeof *w->gold_wpool))
		return tv_nomem(err);
	/* the word before the instance counts: every instance counted has a
	 * word (grouping by word indexes by it, unchecked) */
	uint32_t word;
	if (word_id(w, l->field[0], &word))
		return tv_nomem(err);
	struct tv_winst *in = &w->in[idx];
	memset(in, 0, sizeof *in);
	in->gold_first = TV_NONE; /* one label (class_j) until its labels are all
				   * read: a read failing before leaves no index to
				   * labels not written */
	in->word = word;
	w->gflags[idx] = 0;
	w->n++;
	if (set_line(w, idx, 0, l->lineno))
		return tv_nomem(err);
	/* the number of labels, then the labels */
	w->gold_wpool[w->ngold] = 0.0;
	w->gold_pool[w->ngold++] = (uint32_t)nlab;
	uint32_t first = (uint32_t)w->ngold;
	size_t nweighted = 0;
	double max = 0.0;
	for (size_t i = 0; i < nlab; i++) {
		const char *tok = l->field[i + 2];
		size_t len;
		double weight;
		/* 1: a '/' and a weight, len < strlen(tok) */
		int given = tv_split_weight(tok, &len, &weight);
		if (given < 0)
			return split_label(l, tok, &len, &weight, err);
		nweighted += given > 0;
		if (weight > max)
			max = weight;
		uint32_t lab;
		if (intern_kind(w, KIND_LABEL, tok, len, &lab))
			return tv_nomem(err);
		w->gold_wpool[w->ngold] = weight;
		w->gold_pool[w->ngold++] = lab;
		if (i == 0) {
			in->class_j = lab;
			/* SemEval-2007: the first token as written, weight and all */
			uint32_t cl = lab;
			if (given > 0 && intern_kind(w, KIND_LABEL, tok, strlen(tok), &cl))
				return tv_nomem(err);
			if (set_class_l(w, idx, cl))
				return tv_nomem(err);
		}
	}
	w->gflags[idx] = (uint8_t)weight_flags(nweighted, nlab, max);
	w->counts.gold_multi += nlab > 1;
	w->counts.gold_weighted += nweighted > 0;
	if (nlab == 1)
		w->ngold = first - 1; /* the usual case: the label stays in the instance */
	else
		in->gold_first = first;
	return TAGEVAL_OK;
}

/* Tied labels by label id, then by position on the line: the first of each
 * label's run is its first occurrence. */
struct tied {
	uint32_t label;
	uint32_t pos;
};

static int by_label_pos(const void *a, const void *b)
{
	const struct tied *x = a, *y = b;
	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int by_pos(const void *a, const void *b)
{
	const struct tied *x = a, *y = b;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The SemEval-2007 cluster: the label of largest weight, or the set of tied ones. */
static int cluster_2007(struct tageval_wsi *w, const struct tv_line *l, uint32_t idx,
			struct tageval_error *err)
{
	struct tv_wlabel one;
	const struct tv_wlabel *lab = tv_wsi_sys(w, idx, &one);
	uint32_t nlab = tv_wsi_sys_n(w, idx);
	double best = lab[0].w;
	size_t ntied = 0, first = 0;
	for (size_t i = 0; i < nlab; i++)
		if (lab[i].w > best)
			best = lab[i].w;
	for (size_t i = 0; i < nlab; i++)
		if (lab[i].w == best && ntied++ == 0)
			first = i;
	if (ntied == 1)
		return set_cl_p(w, idx, lab[first].label) ? tv_nomem(err) : TAGEVAL_OK;
	/* a label tied with an earlier one of the same name counts once: sorting
	 * the tied labels finds the repeats in n log n (a pairwise search was
	 * quadratic in the length of the line) */
	struct tied *t = malloc(ntied * sizeof *t);
	if (t == NULL)
		return tv_nomem(err);
	size_t k = 0;
	for (size_t i = 0; i < nlab; i++)
		if (lab[i].w == best)
			t[k++] = (struct tied){ lab[i].label, (uint32_t)i };
	qsort(t, ntied, sizeof *t, by_label_pos);
	size_t nbest = 0;
	for (size_t i = 0; i < ntied; i++)
		if (i == 0 || t[i].label != t[i - 1].label)
			t[nbest++] = t[i];
	if (nbest == 1) {
		uint32_t c = t[0].label;
		free(t);
		return set_cl_p(w, idx, c) ? tv_nomem(err) : TAGEVAL_OK;
	}
	/* a tie: the labels in line order, separated by a byte no field contains */
	qsort(t, nbest, sizeof *t, by_pos);
	size_t len = 0;
	for (size_t i = 0; i < nbest; i++)
		len += strlen(tv_intern_str(&w->labels, t[i].label)) + 1;
	char *tmp = malloc(len + 1);
	if (tmp == NULL) {
		free(t);
		return tv_nomem(err);
	}
	size_t off = 0;
	for (size_t i = 0; i < nbest; i++) {
		const char *s = tv_intern_str(&w->labels, t[i].label) + 1;
		size_t sl = strlen(s);
		memcpy(tmp + off, s, sl);
		off += sl;
		tmp[off++] = ' ';
	}
	free(t);
	uint32_t c;
	int rc = intern_kind(w, KIND_TIE, tmp, off, &c);
	free(tmp);
	(void)l;
	return rc || set_cl_p(w, idx, c) ? tv_nomem(err) : TAGEVAL_OK;
}

/* The system side of the gold instances (w->n of each), none answered. */
static int sys_arrays(struct tageval_wsi *w)
{
	size_t m = w->n ? w->n : 1;
	w->cl_j = malloc(m * sizeof *w->cl_j);
	w->sflags = calloc(m, sizeof *w->sflags);
	if (w->cl_j == NULL || w->sflags == NULL) {
		free(w->cl_j);
		free(w->sflags);
		w->cl_j = NULL;
		w->sflags = NULL;
		return TAGEVAL_ENOMEM;
	}
	for (size_t i = 0; i < w->n; i++)
		w->cl_j[i] = w->unanswered;
	return TAGEVAL_OK;
}

/* A system line's labels and weights appended to sys_pool (split into
 * w->tok by system_line()). */
static int pool_labels(struct tageval_wsi *w, const struct tv_line *l, size_t nlab,
		       struct tageval_error *err)
{
	/* positions in the pool and counts are 32 bits, TV_NONE kept apart */
	if (nlab >= (size_t)TV_NONE - w->nsys ||
	    tv_grow((void **)&w->sys_pool, &w->syscap, w->nsys + nlab, sizeof *w->sys_pool))
		return tv_nomem(err);
	for (size_t i = 0; i < nlab; i++) {
		uint32_t lab;
		if (intern_kind(w, KIND_LABEL, l->field[i + 2], w->tok[i].len, &lab))
			return tv_nomem(err);
		w->sys_pool[w->nsys].label = lab;
		w->sys_pool[w->nsys].nline = i == 0 ? (uint32_t)nlab : 0;
		w->sys_pool[w->nsys].w = w->tok[i].w;
		w->nsys++;
	}
	return TAGEVAL_OK;
}

/* A system line for an instance the gold key lacks: kept when its word is a
 * gold word (an "extra" instance), for the fuzzy metrics; still counted as
 * ignored, since the SemEval-2010 metrics ignore it. */
static int extra_line(struct tageval_wsi *w, const struct tv_line *l, size_t nlab,
		      unsigned flags, struct tageval_error *err)
{
	uint32_t word, idx;
	int added;
	if (!tv_intern_find(&w->words, l->field[0], strlen(l->field[0]), &word))
		return TAGEVAL_OK;
	const char *inst = l->field[1];
	size_t ilen = strlen(inst);
	if (tv_intern_put(&w->xids, inst, ilen, &idx, &added) ||
	    tv_grow((void **)&w->extra, &w->extracap, w->nextra + 1, sizeof *w->extra))
		return tv_nomem(err);
	if (!added) {
		char q[80];
		tv_quote(q, sizeof q, inst, ilen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q, w->extra[idx].line);
	}
	struct tv_wextra *x = &w->extra[w->nextra++];
	*x = (struct tv_wextra){ .word = word, .line = l->lineno,
				 .sys_first = (uint32_t)w->nsys, .sys_n = (uint32_t)nlab,
				 .flags = (uint8_t)flags };
	w->counts.extra++;
	w->counts.extra_graded += nlab > 1 || (flags & TV_WF_SOMEW);
	return pool_labels(w, l, nlab, err);
}

static int system_line(struct tageval_wsi *w, const struct tv_line *l, struct tageval_error *err)
{
	if (l->nfield < 3)
		return short_line(l, err);
	const char *inst = l->field[1];
	size_t ilen = strlen(inst);
	uint32_t idx;
	char q[80], q2[80];
	size_t nlab = l->nfield - 2;
	/* the labels are checked on every line, also on lines that are ignored */
	size_t nweighted = 0, len0 = 0;
	double max = 0.0, weight0 = 0.0;
	if (tv_grow((void **)&w->tok, &w->tokcap, nlab, sizeof *w->tok))
		return tv_nomem(err);
	for (size_t i = 0; i < nlab; i++) {
		size_t len;
		double weight;
		int given = tv_split_weight(l->field[i + 2], &len, &weight);
		if (given < 0)
			return split_label(l, l->field[i + 2], &len, &weight, err);
		nweighted += given > 0; /* a '/' and a weight: len < strlen */
		if (weight > max)
			max = weight;
		if (i == 0) {
			len0 = len;
			weight0 = weight;
		}
		w->tok[i] = (struct tv_wtok){ len, weight };
	}
	unsigned flags = weight_flags(nweighted, nlab, max);
	idx = l->inst; /* looked up with the batch */
	if (idx == TV_NONE) {
		w->ignored++;
		return extra_line(w, l, nlab, flags, err);
	}
	const char *gw = tv_intern_str(&w->words, w->in[idx].word);
	if (strcmp(gw, l->field[0]) != 0) {
		tv_quote(q, sizeof q, inst, ilen);
		tv_quote(q2, sizeof q2, gw, strlen(gw));
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"instance \"%s\" belongs to word \"%s\" in the gold key", q, q2);
	}
	if (tv_wsi_sys_n(w, idx) != 0) {
		tv_quote(q, sizeof q, inst, ilen);
		return tv_error(err, TAGEVAL_EFORMAT, l->name, l->lineno,
				"duplicate instance \"%s\" (first at line %" PRIu64 ")", q,
				tv_wsi_sys_line(w, idx));
	}
	if (set_line(w, idx, 1, l->lineno))
		return tv_nomem(err);
	w->sflags[idx] = (uint8_t)(flags | TV_WF_ANSWERED);
	w->answered++;
	w->counts.system_multi += nlab > 1;
	w->counts.system_weighted += nweighted > 0;
	if (nlab == 1 && weight0 == 1.0) {
		/* the usual case: the cluster is cl_j alone */
		if (intern_kind(w, KIND_LABEL, l->field[2], len0, &w->cl_j[idx]))
			return tv_nomem(err);
	} else {
		/* several labels or a weight: in sys_pool, cl_j saying where
		 * (marked once they are there) */
		uint32_t first = (uint32_t)w->nsys;
		if (pool_labels(w, l, nlab, err))
			return TAGEVAL_ENOMEM;
		w->cl_j[idx] = first;
		w->sflags[idx] |= TV_WF_POOLED;
	}
	return cluster_2007(w, l, idx, err);
}

static void prefetch_instance(void *w, uint32_t idx)
{
	const struct tageval_wsi *x = w;
	__builtin_prefetch(&x->in[idx]);
	if (x->cl_j != NULL) { /* a system line: its side too */
		__builtin_prefetch(&x->cl_j[idx]);
		__builtin_prefetch(&x->sflags[idx]);
		__builtin_prefetch(&x->sys_line[idx]);
		if (x->cl_p != NULL)
			__builtin_prefetch(&x->cl_p[idx]);
	}
}

static int each_gold_line(void *w, struct tv_line *l, struct tageval_error *err)
{
	return gold_line(w, l, err);
}

static int each_system_line(void *w, struct tv_line *l, struct tageval_error *err)
{
	return system_line(w, l, err);
}

static int read_lines(struct tageval_wsi *w, struct tv_reader *r, int gold,
		      struct tageval_error *err)
{
	/* instances are named by their id alone; the clusters' look-ups are done
	 * in stages (slots, strings, instances) */
	struct tv_each e = { .id = TV_ID_FIELD1, .ids = &w->ids,
			     .lookup = gold ? TV_LOOKUP_SLOT : TV_LOOKUP_FIND,
			     .put = gold ? &w->ids : NULL, .find_ahead = !gold,
			     .expect = gold ? &w->ids : NULL, .found = prefetch_instance,
			     .line = gold ? each_gold_line : each_system_line, .ctx = w };
	size_t lines;
	int rc = tv_each_line(r, &e, &lines, err);
	if (rc == TAGEVAL_OK && gold && lines == 0)
		rc = tv_error(err, TAGEVAL_EFORMAT, r->name, 0, "no instances");
	return rc;
}

/*
 * A clusters file read: the line numbers of its lines, needed by the
 * messages about instances listed twice while it was read, are freed (4
 * bytes an instance) but those of the lines of weights all 0, that the
 * fuzzy metrics refuse (kept with the large ones); the pool of labels no
 * larger than it.
 */
static int sys_read(struct tageval_wsi *w, struct tageval_error *err)
{
	for (size_t i = 0; i < w->n; i++) {
		if (!(w->sflags[i] & TV_WF_ZERO) || w->sys_line[i] == TV_LINE_BIG)
			continue;
		if (tv_grow((void **)&w->big, &w->bigcap, w->nbig + 1, sizeof *w->big))
			return tv_nomem(err);
		w->big[w->nbig++] = (struct tv_wbigline){ (uint32_t)i, 1, w->sys_line[i] };
	}
	free(w->sys_line);
	w->sys_line = NULL;
	if (w->nsys > 0 && w->nsys < w->syscap) {
		struct tv_wlabel *p = realloc(w->sys_pool, w->nsys * sizeof *p);
		if (p != NULL) {
			w->sys_pool = p;
			w->syscap = w->nsys;
		}
	}
	return TAGEVAL_OK;
}

static int read_file(struct tageval_wsi *w, struct tv_reader *r, int gold,
		     struct tageval_error *err)
{
	if (gold ? w->have_gold : (!w->have_gold || w->have_system))
		return tv_error(err, TAGEVAL_EINVAL, r->name, 0,
				"the gold key is read once, then the clusters once");
	if (!gold && w->cl_j == NULL)
		return tv_nomem(err); /* sys_arrays() failed after the gold key */
	if (!gold && w->sys_line == NULL &&
	    (w->sys_line = calloc(w->n ? w->n : 1, sizeof *w->sys_line)) == NULL)
		return tv_nomem(err);
	int rc = read_lines(w, r, gold, err);
	/* no id without an instance: the ids of the lines read ahead of the
	 * one that failed may have been interned (tv_each's put), so a
	 * clusters file read after a gold key that failed finds only the gold
	 * key's instances (the ids cut back to w->n) or is refused for want of
	 * memory (no system side made, as when sys_arrays() fails) */
	int cut_failed = gold && rc != TAGEVAL_OK && tv_intern_cut(&w->ids, w->n);
	if (!gold && rc == TAGEVAL_OK)
		rc = sys_read(w, err);
	char **name = gold ? &w->gold_name : &w->sys_name;
	free(*name);
	*name = strdup(r->name);
	if (*name == NULL && rc == TAGEVAL_OK)
		rc = tv_nomem(err);
	if (gold) {
		w->have_gold = 1;
		w->gold_labels = w->labels.n;
		/* the instances are all there: their array no larger than they
		 * (it grew by doubling; 12 bytes each, and 1 of flags), then the
		 * system side's */
		struct tv_winst *in = NULL;
		if (w->n > 0 && w->n < w->cap)
			in = realloc(w->in, w->n * sizeof *in);
		if (in != NULL) {
			w->in = in;
			w->cap = w->n;
		}
		tv_intern_compact(&w->ids); /* no instance added past the gold key */
		uint8_t *gf = NULL;
		if (w->n > 0 && w->n < w->gfcap)
			gf = realloc(w->gflags, w->n * sizeof *gf);
		if (gf != NULL) {
			w->gflags = gf;
			w->gfcap = w->n;
		}
		if (!cut_failed && sys_arrays(w) && rc == TAGEVAL_OK)
			rc = tv_nomem(err);
	} else
		w->have_system = 1;
	return rc;
}

static int run_gold(void *w, struct tv_reader *r, struct tageval_error *err)
{
	return read_file(w, r, 1, err);
}

static int run_clusters(void *w, struct tv_reader *r, struct tageval_error *err)
{
	return read_file(w, r, 0, err);
}

int tageval_wsi_read_gold(struct tageval_wsi *w, const char *path, struct tageval_error *err)
{
	TV_NEED(err, w, "wsi");
	return tv_read_path(__func__, path, run_gold, w, err);
}

int tageval_wsi_read_gold_buffer(struct tageval_wsi *w, const char *data, size_t size,
				 const char *name, struct tageval_error *err)
{
	TV_NEED(err, w, "wsi");
	return tv_read_buffer(__func__, data, size, name, run_gold, w, err);
}

int tageval_wsi_read_clusters(struct tageval_wsi *w, const char *path, struct tageval_error *err)
{
	TV_NEED(err, w, "wsi");
	return tv_read_path(__func__, path, run_clusters, w, err);
}

int tageval_wsi_read_clusters_buffer(struct tageval_wsi *w, const char *data, size_t size,
				     const char *name, struct tageval_error *err)
{
	TV_NEED(err, w, "wsi");
	return tv_read_buffer(__func__, data, size, name, run_clusters, w, err);
}

/* ------------------------------------------------- another clustering, baselines */

int tv_wsi_clear_clusters(struct tageval_wsi *w)
{
	if (!w->have_system)
		return TAGEVAL_OK;
	/* the gold key's labels keep their ids, in a table of their own */
	struct tv_intern labels;
	tv_intern_init(&labels);
	for (uint32_t id = 0; id < w->gold_labels; id++) {
		uint32_t same;
		if (tv_intern_put(&labels, tv_intern_str(&w->labels, id),
				  tv_intern_len(&w->labels, id), &same, NULL)) {
			tv_intern_clear(&labels);
			return TAGEVAL_ENOMEM;
		}
	}
	tv_intern_clear(&w->labels);
	w->labels = labels;
	memset(w->lcache, 0, sizeof w->lcache); /* the ids of the clusters' labels */
	/* the system side's arrays kept for the next clusters */
	for (size_t i = 0; i < w->n; i++)
		w->cl_j[i] = w->unanswered;
	free(w->sys_line); /* a clusters file's not read to its end */
	w->sys_line = NULL;
	memset(w->sflags, 0, w->n * sizeof *w->sflags);
	w->cl_pooled = 0;
	if (w->cl_p != NULL) { /* kept for the next clusters */
		free(w->cl_p_spare);
		w->cl_p_spare = w->cl_p;
		w->cl_p = NULL;
	}
	w->nsys = 0;
	w->vlabels = 0;
	w->ignored = 0;
	w->answered = 0;
	tv_intern_clear(&w->xids);
	tv_intern_init(&w->xids);
	w->nextra = 0;
	w->counts.system_multi = w->counts.system_weighted = 0;
	w->counts.extra = w->counts.extra_graded = 0;
	size_t k = 0;
	for (size_t i = 0; i < w->nbig; i++)
		if (!w->big[i].sys)
			w->big[k++] = w->big[i];
	w->nbig = k;
	free(w->sys_name);
	w->sys_name = NULL;
	w->have_system = 0;
	return TAGEVAL_OK;
}

/* Instance i's baseline cluster, as system_line() reads "word id label":
 * one label of weight 1. */
static void set_baseline(struct tageval_wsi *w, uint32_t i, uint32_t lab)
{
	w->cl_j[i] = lab;
	w->sflags[i] = TV_WF_ANSWERED;
	w->answered++;
}

/* "cl" or "rand" and the decimal digits of @v into @buf (room for 48), as
 * snprintf's "%lu" writes them; returns the length. */
static size_t baseline_label(char *buf, const char *prefix, unsigned long long v)
{
	size_t len = strlen(prefix);
	memcpy(buf, prefix, len);
	char digits[24];
	size_t nd = 0;
	do {
		digits[nd++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (nd > 0)
		buf[len++] = digits[--nd];
	buf[len] = '\0';
	return len;
}

/* The labels already interned that read "cl<k>" (k in decimal, as
 * baseline_label() writes it), sorted by k: the labels of the baseline of
 * one cluster per instance that keep the ids they have. */
struct cl_label {
	unsigned long long k;
	uint32_t id;
};

static int by_k(const void *a, const void *b)
{
	const struct cl_label *x = a, *y = b;
	return (x->k > y->k) - (x->k < y->k);
}

static int interned_cl(const struct tageval_wsi *w, struct cl_label **out, size_t *n)
{
	size_t cap = 0, m = 0;
	struct cl_label *v = NULL;
	for (uint32_t id = 0; id < w->labels.n; id++) {
		const char *s = tv_intern_str(&w->labels, id);
		if (s[0] != KIND_LABEL || s[1] != 'c' || s[2] != 'l' || s[3] < '1' || s[3] > '9')
			continue;
		unsigned long long k = 0;
		size_t i = 3;
		for (; s[i] >= '0' && s[i] <= '9' && i < 3 + 19; i++)
			k = 10 * k + (unsigned long long)(s[i] - '0');
		if (s[i] != '\0')
			continue;
		if (tv_grow((void **)&v, &cap, m + 1, sizeof *v)) {
			free(v);
			return TAGEVAL_ENOMEM;
		}
		v[m++] = (struct cl_label){ k, id };
	}
	if (m > 1)
		qsort(v, m, sizeof *v, by_k);
	*out = v;
	*n = m;
	return TAGEVAL_OK;
}

/* One cluster per instance: label "cl<i + 1>" for the i-th instance of
 * @order.  The labels get the ids interning them would give (an interned
 * label keeps its own, each new one the next id) without being interned:
 * a million of them cost a table of a million strings, and they are never
 * printed (tv_wsi_nlabels() counts them). */
static int baseline_instance(struct tageval_wsi *w, const uint32_t *order)
{
	struct cl_label *old = NULL;
	size_t nold = 0, j = 0;
	if (interned_cl(w, &old, &nold))
		return TAGEVAL_ENOMEM;
	size_t next = w->labels.n;
	int rc = TAGEVAL_OK;
	for (size_t i = 0; i < w->n; i++) {
		unsigned long long k = (unsigned long long)i + 1;
		while (j < nold && old[j].k < k)
			j++;
		uint32_t lab;
		if (j < nold && old[j].k == k) {
			lab = old[j].id;
		} else if (next >= TV_NONE) {
			rc = TAGEVAL_ENOMEM; /* as tv_intern_put() refuses more ids */
			break;
		} else {
			lab = (uint32_t)next++;
		}
		if (set_line(w, order[i], 1, (uint64_t)i + 1)) {
			rc = TAGEVAL_ENOMEM;
			break;
		}
		set_baseline(w, order[i], lab);
	}
	w->vlabels = next;
	free(old);
	return rc;
}

/* The system read is the baseline called @name: @rc, or TAGEVAL_ENOMEM. */
static int baseline_named(struct tageval_wsi *w, int rc, const char *name)
{
	free(w->sys_name);
	w->sys_name = strdup(name);
	if (w->sys_name == NULL)
		rc = TAGEVAL_ENOMEM;
	w->have_system = 1;
	return rc;
}

int tv_wsi_baseline(struct tageval_wsi *w, const uint32_t *order, int method,
		    unsigned long seed, unsigned long k, const char *name)
{
	/* a baseline has no SemEval-2007 array: none kept through it (the one
	 * cluster per instance is where a report's memory peaks) */
	free(w->cl_p_spare);
	w->cl_p_spare = NULL;
	if (method == 1)
		return baseline_named(w, baseline_instance(w, order), name);
	gsl_rng *rng = method == 2 ? tv_rng_new(seed) : NULL;
	if (method == 2 && rng == NULL)
		return TAGEVAL_ENOMEM;
	/* the label ids of the random clusters drawn so far (+ 1; 0: not yet),
	 * when there are no more of them than instances: each is interned once,
	 * at its first draw, as interning it at every draw would number it */
	uint32_t *rand_id = method == 2 && k <= w->n ? calloc(k ? k : 1, sizeof *rand_id) : NULL;
	int rc = TAGEVAL_OK;
	if (method == 2 && k <= w->n && rand_id == NULL)
		rc = TAGEVAL_ENOMEM;
	char label[48];
	uint32_t one = TV_NONE; /* the label of method 0, interned at the first instance */
	for (size_t i = 0; i < w->n && rc == TAGEVAL_OK; i++) {
		uint32_t lab = TV_NONE;
		size_t len = 0;
		if (method == 0) {
			lab = one;
			len = baseline_label(label, "cl", 1);
		} else if (method == 1) {
			len = baseline_label(label, "cl", (unsigned long long)i + 1);
		} else {
			unsigned long r = gsl_rng_uniform_int(rng, k);
			if (rand_id != NULL && rand_id[r] != 0)
				lab = rand_id[r] - 1;
			else
				len = baseline_label(label, "rand", r);
			if (rand_id != NULL && lab == TV_NONE) {
				if (intern_kind(w, KIND_LABEL, label, len, &lab)) {
					rc = TAGEVAL_ENOMEM;
					break;
				}
				rand_id[r] = lab + 1;
			}
		}
		if ((lab == TV_NONE && intern_kind(w, KIND_LABEL, label, len, &lab)) ||
		    set_line(w, order[i], 1, (uint64_t)i + 1)) {
			rc = TAGEVAL_ENOMEM;
			break;
		}
		if (method == 0)
			one = lab;
		set_baseline(w, order[i], lab);
	}
	free(rand_id);
	tv_rng_free(rng);
	return baseline_named(w, rc, name);
}

/* ------------------------------------------------------------ instances by word */

int tv_wsi_group(const struct tageval_wsi *w, uint32_t **startp, uint32_t **orderp)
{
	size_t nw = w->words.n;
	uint32_t *start = calloc(nw + 1, sizeof *start);
	uint32_t *order = malloc((w->n ? w->n : 1) * sizeof *order);
	if (start == NULL || order == NULL) {
		free(start);
		free(order);
		return TAGEVAL_ENOMEM;
	}
	tv_group_by(w->in ? &w->in[0].word : NULL, sizeof *w->in, w->n, nw, start, order);
	*startp = start;
	*orderp = order;
	return TAGEVAL_OK;
}

int tv_wsi_pos_match(const char *word, const char *pos)
{
	if (pos == NULL || strcmp(pos, "all") == 0)
		return 1;
	const char *dot = strrchr(word, '.');
	return dot != NULL && strcmp(dot + 1, pos) == 0;
}
