/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A word-sense-induction report's evaluations (wsi-report(1)): the gold key
 * read once, clusterings and baselines evaluated against it one after the
 * other in the same object, the supervised splits built once per protocol.
 */
#include <stdlib.h>
#include <string.h>

#include "tageval-intern.h"
#include "tageval-supervised.h"
#include "tageval-util.h"
#include "tageval-wsi.h"

enum proto_kind { PROTO_FOLDS, PROTO_RANDOM, PROTO_FILES };

struct proto {
	enum proto_kind kind;
	char *pos;
	size_t n;
	double fraction;
	unsigned long seed;
	char **mapping, **test; /* n of each (PROTO_FILES) */
	struct tageval_supervised *sup; /* built at the first evaluation */
	unsigned long generation;       /* of the clustering sup holds */
};

struct tageval_wsi_report {
	struct tageval_wsi *w;
	unsigned long generation; /* counts the clusterings read */
	uint32_t *by_id;          /* the gold instances in bytewise order of their ids */
	uint32_t *start, *order;  /* the gold instances grouped by word (tv_wsi_group()),
				   * shared by every evaluation and protocol */
	struct proto *protos;
	size_t nprotos, protocap;
};

static int make(struct tageval_wsi_report **out, struct tageval_error *err)
{
	TV_NEED(err, out, "out");
	*out = NULL;
	struct tageval_wsi_report *r = calloc(1, sizeof *r);
	if (r == NULL || (r->w = tageval_wsi_new()) == NULL) {
		free(r);
		return tv_nomem(err);
	}
	*out = r;
	return TAGEVAL_OK;
}

/* The gold instances grouped by word, once the gold key is read. */
static int group(struct tageval_wsi_report *r, struct tageval_error *err)
{
	return tv_wsi_group(r->w, &r->start, &r->order) ? tv_nomem(err) : TAGEVAL_OK;
}

int tageval_wsi_report_new(const char *gold, struct tageval_wsi_report **out,
			   struct tageval_error *err)
{
	int rc = make(out, err);
	if (rc == TAGEVAL_OK && ((rc = tageval_wsi_read_gold((*out)->w, gold, err)) != TAGEVAL_OK ||
				 (rc = group(*out, err)) != TAGEVAL_OK)) {
		tageval_wsi_report_free(*out);
		*out = NULL;
	}
	return rc;
}

int tageval_wsi_report_new_buffer(const char *data, size_t size, const char *name,
				  struct tageval_wsi_report **out, struct tageval_error *err)
{
	int rc = make(out, err);
	if (rc == TAGEVAL_OK &&
	    ((rc = tageval_wsi_read_gold_buffer((*out)->w, data, size, name, err)) != TAGEVAL_OK ||
	     (rc = group(*out, err)) != TAGEVAL_OK)) {
		tageval_wsi_report_free(*out);
		*out = NULL;
	}
	return rc;
}

static void free_strings(char **s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

void tageval_wsi_report_free(struct tageval_wsi_report *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nprotos; i++) {
		struct proto *p = &r->protos[i];
		tageval_supervised_free(p->sup);
		free(p->pos);
		if (p->kind == PROTO_FILES) {
			free_strings(p->mapping, p->n);
			free_strings(p->test, p->n);
		}
	}
	free(r->protos);
	free(r->by_id);
	free(r->start);
	free(r->order);
	tageval_wsi_free(r->w);
	free(r);
}

const struct tageval_wsi *tageval_wsi_report_wsi(const struct tageval_wsi_report *r)
{
	return r ? r->w : NULL;
}

/* ------------------------------------------------------------ clusterings */

/* Forgets the clustering before, for the next one. */
static int next_clustering(struct tageval_wsi_report *r, struct tageval_error *err)
{
	TV_NEED(err, r, "rep");
	r->generation++;
	/* the protocols' copies of the clusters before: made again at their
	 * next evaluation, not kept while the next clusters are read */
	for (size_t i = 0; i < r->nprotos; i++)
		if (r->protos[i].sup != NULL)
			tv_supervised_unload(r->protos[i].sup);
	return tv_wsi_clear_clusters(r->w) ? tv_nomem(err) : TAGEVAL_OK;
}

int tageval_wsi_report_read_clusters(struct tageval_wsi_report *r, const char *path,
				     struct tageval_error *err)
{
	int rc = next_clustering(r, err);
	return rc ? rc : tageval_wsi_read_clusters(r->w, path, err);
}

int tageval_wsi_report_read_clusters_buffer(struct tageval_wsi_report *r, const char *data,
					    size_t size, const char *name,
					    struct tageval_error *err)
{
	int rc = next_clustering(r, err);
	return rc ? rc : tageval_wsi_read_clusters_buffer(r->w, data, size, name, err);
}

/* The first 8 bytes of @s (NUL-terminated) as a big-endian number,
 * zero-padded: numbers in the order of strcmp() on those bytes. */
static uint64_t prefix8(const char *s)
{
	uint64_t v = 0;
	size_t i = 0;
	for (; i < 8 && s[i] != '\0'; i++)
		v = v << 8 | (unsigned char)s[i];
	for (; i < 8; i++)
		v <<= 8;
	return v;
}

/* Is instance a's id before instance b's (bytewise; ids are unique)? */
static int id_before(const struct tageval_wsi *w, const uint64_t *pre, uint32_t a, uint32_t b)
{
	if (pre[a] != pre[b])
		return pre[a] < pre[b];
	return strcmp(tv_intern_str(&w->ids, a), tv_intern_str(&w->ids, b)) < 0;
}

/*
 * The gold instances in bytewise order of their ids (unique), so that the
 * random draws do not depend on the gold key's line order; NULL when out
 * of memory.  Each word's instances are sorted on their own (a scratch of
 * 48 bytes for each of the largest word's), then the words' runs merged
 * two by two with the ids' first 8 bytes at hand: 16 bytes of scratch per
 * instance, not the 48 a sort of them all would take.  O(n log n).
 */
static uint32_t *sorted_ids(const struct tageval_wsi *w)
{
	size_t n = w->n, nw = w->words.n;
	uint32_t *start = NULL, *order = NULL;
	if (tv_wsi_group(w, &start, &order))
		return NULL;
	size_t big = 1;
	for (size_t word = 0; word < nw; word++)
		if (start[word + 1] - start[word] > big)
			big = start[word + 1] - start[word];
	struct tv_sort_name *tmp = malloc(2 * big * sizeof *tmp);
	uint64_t *pre = malloc((n ? n : 1) * sizeof *pre);
	uint32_t *b = malloc((n ? n : 1) * sizeof *b);
	if (tmp == NULL || pre == NULL || b == NULL) {
		free(tmp);
		free(pre);
		free(b);
		free(start);
		free(order);
		return NULL;
	}
	for (size_t word = 0; word < nw; word++)
		tv_intern_sort_ids(&w->ids, order + start[word], start[word + 1] - start[word],
				   tmp);
	free(tmp);
	/* the ids in id order: each string the one after the previous */
	const char *str = n > 0 ? tv_intern_str(&w->ids, 0) : NULL;
	for (size_t i = 0; i < n; i++) {
		pre[i] = prefix8(str);
		if (i + 1 < n)
			str = tv_intern_next(&w->ids, str);
	}
	/* runs: the words' (start[] holds their bounds); merged pairwise, the
	 * bounds of the merged runs kept in start[] */
	uint32_t *a = order;
	size_t nrun = nw;
	while (nrun > 1) {
		size_t m = 0;
		for (size_t r = 0; r < nrun; r += 2) {
			size_t lo = start[r], mid = start[r + 1 < nrun ? r + 1 : nrun];
			size_t hi = start[r + 2 < nrun ? r + 2 : nrun];
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				b[k++] = id_before(w, pre, a[j], a[i]) ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
			start[m++] = (uint32_t)lo;
		}
		start[m] = (uint32_t)n;
		nrun = m;
		uint32_t *t = a;
		a = b;
		b = t;
	}
	free(pre);
	free(b); /* the other buffer: order or the scratch */
	free(start);
	return a;
}

int tageval_wsi_report_baseline(struct tageval_wsi_report *r, enum tageval_wsi_baseline b,
				unsigned long seed, unsigned long k, struct tageval_error *err)
{
	static const char *const names[] = { "1c1w", "1c1inst", "random" };
	int rc = next_clustering(r, err);
	if (rc)
		return rc;
	if ((unsigned)b > TAGEVAL_WSI_RANDOM || (b == TAGEVAL_WSI_RANDOM && k == 0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "no such baseline");
	struct tageval_wsi *w = r->w;
	if (r->by_id == NULL && (r->by_id = sorted_ids(w)) == NULL)
		return tv_nomem(err);
	rc = tv_wsi_baseline(w, r->by_id, (int)b, seed, k, names[b]) ? tv_nomem(err) : TAGEVAL_OK;
	if (b == TAGEVAL_WSI_RANDOM) {
		/* the last baseline a report draws (wsi-report(1): 1c1w, 1c1inst,
		 * random, then the systems): its 4 bytes an instance not kept
		 * through the systems; made again if another baseline comes */
		free(r->by_id);
		r->by_id = NULL;
	}
	return rc;
}

int tageval_wsi_report_figures(const struct tageval_wsi_report *r, const char *pos,
			       unsigned families, struct tageval_wsi_figures *wsi,
			       struct tageval_clustering_figures *clu, size_t *repeated,
			       struct tageval_error *err)
{
	TV_NEED(err, r, "rep");
	TV_NEED(err, wsi, "wsi");
	struct tageval_wsi_options wo;
	struct tageval_wsi_result *wr = NULL;
	tageval_wsi_options_init(&wo);
	wo.pos = pos;
	int rc = tv_wsi_evaluate_grouped(r->w, &wo, r->start, r->order,
					 (families & TAGEVAL_WSI_REPORT_NO_2007) != 0, &wr, err);
	if (rc)
		return rc;
	*wsi = *tageval_wsi_result_total(wr);
	tageval_wsi_result_free(wr);
	families &= ~TAGEVAL_WSI_REPORT_NO_2007;
	if (families == 0)
		return TAGEVAL_OK;
	TV_NEED(err, clu, "clu");
	struct tageval_clustering_options co;
	struct tageval_clustering_result *cr = NULL;
	tageval_clustering_options_init(&co);
	co.pos = pos;
	co.mode = r->w->counts.gold_multi + r->w->counts.gold_weighted > 0
			  ? TAGEVAL_CLUSTERING_FUZZY : TAGEVAL_CLUSTERING_CRISP;
	co.metrics = families;
	rc = tageval_clustering_evaluate(r->w, &co, &cr, err);
	if (rc)
		return rc;
	*clu = *tageval_clustering_result_total(cr);
	if (repeated)
		*repeated = tageval_clustering_result_repeated(cr);
	tageval_clustering_result_free(cr);
	return TAGEVAL_OK;
}

/* ---------------------------------------------------------------- supervised */

static int new_proto(struct tageval_wsi_report *r, enum proto_kind kind, const char *pos,
		     size_t *index, struct proto **out, struct tageval_error *err)
{
	TV_NEED(err, r, "rep");
	if (tv_grow((void **)&r->protos, &r->protocap, r->nprotos + 1, sizeof *r->protos))
		return tv_nomem(err);
	struct proto *p = &r->protos[r->nprotos];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	if (pos && (p->pos = strdup(pos)) == NULL)
		return tv_nomem(err);
	if (index)
		*index = r->nprotos;
	r->nprotos++;
	*out = p;
	return TAGEVAL_OK;
}

int tageval_wsi_report_add_folds(struct tageval_wsi_report *r, const char *pos, size_t k,
				 unsigned long seed, size_t *proto, struct tageval_error *err)
{
	if (k < 2)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "the number of folds must be 2 or more");
	struct proto *p = NULL;
	int rc = new_proto(r, PROTO_FOLDS, pos, proto, &p, err);
	if (rc)
		return rc;
	p->n = k;
	p->seed = seed;
	return TAGEVAL_OK;
}

int tageval_wsi_report_add_random(struct tageval_wsi_report *r, const char *pos, size_t n,
				  double fraction, unsigned long seed, size_t *proto,
				  struct tageval_error *err)
{
	if (n < 1 || !(fraction > 0.0 && fraction < 1.0))
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"one split or more, a test fraction between 0 and 1");
	struct proto *p = NULL;
	int rc = new_proto(r, PROTO_RANDOM, pos, proto, &p, err);
	if (rc)
		return rc;
	p->n = n;
	p->fraction = fraction;
	p->seed = seed;
	return TAGEVAL_OK;
}

int tageval_wsi_report_add_files(struct tageval_wsi_report *r, const char *pos, size_t n,
				 const char *const *mapping, const char *const *test,
				 size_t *proto, struct tageval_error *err)
{
	if (n > 0 && (mapping == NULL || test == NULL))
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "NULL file names");
	struct proto *p = NULL;
	int rc = new_proto(r, PROTO_FILES, pos, proto, &p, err);
	if (rc)
		return rc;
	p->mapping = calloc(n ? n : 1, sizeof *p->mapping);
	p->test = calloc(n ? n : 1, sizeof *p->test);
	if (p->mapping == NULL || p->test == NULL)
		return tv_nomem(err); /* freed with the object */
	p->n = n;
	for (size_t i = 0; i < n; i++)
		if ((p->mapping[i] = strdup(mapping[i])) == NULL ||
		    (p->test[i] = strdup(test[i])) == NULL)
			return tv_nomem(err);
	return TAGEVAL_OK;
}

/* The protocol's splits on the gold key (once), with the clustering now held. */
static int ready(struct tageval_wsi_report *r, struct proto *p, struct tageval_error *err)
{
	if (p->sup != NULL) {
		if (p->generation != r->generation && tv_supervised_reload(p->sup))
			return tv_nomem(err);
		p->generation = r->generation;
		return TAGEVAL_OK;
	}
	struct tageval_supervised *sup = NULL;
	int rc = tv_supervised_new_grouped(r->w, p->pos, r->start, r->order, &sup, err);
	if (rc == TAGEVAL_OK) {
		if (p->kind == PROTO_FOLDS)
			rc = tageval_supervised_add_folds(sup, p->n, p->seed, err);
		else if (p->kind == PROTO_RANDOM)
			rc = tageval_supervised_add_random(sup, p->n, p->fraction, p->seed, err);
		for (size_t i = 0; p->kind == PROTO_FILES && i < p->n && rc == TAGEVAL_OK; i++)
			rc = tageval_supervised_add_files(sup, p->mapping[i], p->test[i], err);
	}
	if (rc) {
		tageval_supervised_free(sup);
		return rc;
	}
	p->sup = sup;
	p->generation = r->generation;
	return TAGEVAL_OK;
}

int tageval_wsi_report_supervised(struct tageval_wsi_report *r, size_t proto,
				  struct tageval_supervised_result **out, size_t *n,
				  struct tageval_error *err)
{
	TV_NEED(err, r, "rep");
	TV_NEED(err, out, "out");
	TV_NEED(err, n, "n");
	*out = NULL;
	*n = 0;
	if (proto >= r->nprotos)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "no protocol %zu", proto);
	struct proto *p = &r->protos[proto];
	int rc = ready(r, p, err);
	if (rc)
		return rc;
	size_t ns = tageval_supervised_splits(p->sup);
	struct tageval_supervised_result *res = calloc(ns ? ns : 1, sizeof *res);
	if (res == NULL)
		return tv_nomem(err);
	for (size_t i = 0; i < ns; i++)
		if ((rc = tageval_supervised_evaluate(p->sup, i, &res[i], NULL, err)) != TAGEVAL_OK) {
			free(res);
			return rc;
		}
	*out = res;
	*n = ns;
	return TAGEVAL_OK;
}
