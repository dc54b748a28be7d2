/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The API's promises (tageval.h, "Conventions"): every public function
 * answers a NULL argument that the header does not allow with
 * TAGEVAL_EINVAL (and a message when it has an error argument), or with the
 * documented empty value when it returns no status; and the invalid
 * granularity path of tageval_scorer_new() reads nothing it has freed
 * (the ASan build catches that).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

START_TEST(scorer_bad_granularity)
{
	/* the scorer is freed before the message is built: the granularity
	 * must be read first (it was read from the freed scorer) */
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_key *key = NULL;
	struct tageval_scorer *sc = (struct tageval_scorer *)inv; /* must become NULL */
	struct tageval_error err;
	static const char text[] = "w 1 a\n";
	ck_assert_int_eq(tageval_key_read_buffer(inv, text, strlen(text), "key", &key, &err),
			 TAGEVAL_OK);
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.granularity = (enum tageval_granularity)7;
	ck_assert_int_eq(tageval_scorer_new(inv, key, &o, &sc, &err), TAGEVAL_EINVAL);
	ck_assert_ptr_null(sc);
	ck_assert_int_eq(err.code, TAGEVAL_EINVAL);
	ck_assert_str_eq(err.message, "unknown granularity 7");
	o.granularity = (enum tageval_granularity)-1;
	ck_assert_int_eq(tageval_scorer_new(inv, key, &o, &sc, &err), TAGEVAL_EINVAL);
	ck_assert_str_eq(err.message, "unknown granularity -1");
	tageval_key_free(key);
	tageval_inventory_free(inv);
}
END_TEST

/* The objects the calls below need, all valid. */
struct objs {
	struct tageval_inventory *inv;
	struct tageval_key *key;
	struct tageval_scorer *sc;
	struct tageval_filter *filter;
	struct tageval_dist *dist;
	struct tageval_annotations *ann;
	struct tageval_agreement *ag;
	struct tageval_wsi *wsi;
	struct tageval_wsi_result *wres;
	struct tageval_supervised *sup;
	struct tageval_report *report;
};

static void objs_make(struct objs *o)
{
	static const char key[] = "w.n 1 a\nw.n 2 b\n";
	static const char ann1[] = "w.n 1 a\nw.n 2 b\n";
	static const char ann2[] = "w.n 1 a\nw.n 2 a\n";
	static const char gold[] = "w.n w.n.1 a\nw.n w.n.2 b\nw.n w.n.3 a\nw.n w.n.4 b\n";
	static const char clusters[] = "w.n w.n.1 c1\nw.n w.n.2 c2\nw.n w.n.3 c1\nw.n w.n.4 c2\n";
	struct tageval_error err;
	memset(o, 0, sizeof *o);
	o->inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(o->inv);
	ck_assert_int_eq(tageval_key_read_buffer(o->inv, key, strlen(key), "key", &o->key, &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_scorer_new(o->inv, o->key, NULL, &o->sc, &err), TAGEVAL_OK);
	o->filter = tageval_filter_new();
	o->dist = tageval_dist_new();
	ck_assert_ptr_nonnull(o->filter);
	ck_assert_ptr_nonnull(o->dist);
	ck_assert_int_eq(tageval_annotations_new(o->inv, &o->ann), TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(o->ann, ann1, strlen(ann1), "1", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_annotations_read_buffer(o->ann, ann2, strlen(ann2), "2", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_agreement_compute(o->ann, NULL, &o->ag, &err), TAGEVAL_OK);
	o->wsi = tageval_wsi_new();
	ck_assert_ptr_nonnull(o->wsi);
	ck_assert_int_eq(tageval_wsi_read_gold_buffer(o->wsi, gold, strlen(gold), "g", &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_wsi_read_clusters_buffer(o->wsi, clusters, strlen(clusters), "c",
							  &err),
			 TAGEVAL_OK);
	ck_assert_int_eq(tageval_wsi_evaluate(o->wsi, NULL, &o->wres, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_supervised_new(o->wsi, NULL, &o->sup, &err), TAGEVAL_OK);
	ck_assert_int_eq(tageval_report_new(o->inv, o->key, NULL, &o->report, &err), TAGEVAL_OK);
}

static void objs_free(struct objs *o)
{
	tageval_report_free(o->report);
	tageval_supervised_free(o->sup);
	tageval_wsi_result_free(o->wres);
	tageval_wsi_free(o->wsi);
	tageval_agreement_free(o->ag);
	tageval_annotations_free(o->ann);
	tageval_dist_free(o->dist);
	tageval_filter_free(o->filter);
	tageval_scorer_free(o->sc);
	tageval_key_free(o->key);
	tageval_inventory_free(o->inv);
}

/* A call with an error argument: EINVAL, and the message names the
 * function and the argument. */
#define EXPECT_NULL_ERR(call, func, arg)                                              \
	do {                                                                          \
		memset(&err, 0, sizeof err);                                          \
		ck_assert_int_eq((call), TAGEVAL_EINVAL);                             \
		ck_assert_int_eq(err.code, TAGEVAL_EINVAL);                           \
		ck_assert_str_eq(err.message, func ": NULL " arg);                    \
		ck_assert_uint_eq(err.line, 0);                                       \
	} while (0)

START_TEST(null_with_error)
{
	struct objs o;
	objs_make(&o);
	struct tageval_error err;
	static const char d[] = "w.n 1 a\n";
	size_t n = sizeof d - 1;
	const char *tags[] = { "a", NULL };

	/* inventory */
	EXPECT_NULL_ERR(tageval_inventory_read_map(NULL, "x", &err),
			"tageval_inventory_read_map", "inv");
	EXPECT_NULL_ERR(tageval_inventory_read_map(o.inv, NULL, &err),
			"tageval_inventory_read_map", "path");
	EXPECT_NULL_ERR(tageval_inventory_read_map_buffer(NULL, d, n, "m", &err),
			"tageval_inventory_read_map_buffer", "inv");
	EXPECT_NULL_ERR(tageval_inventory_read_map_buffer(o.inv, NULL, n, "m", &err),
			"tageval_inventory_read_map_buffer", "data");
	EXPECT_NULL_ERR(tageval_inventory_read_map_buffer(o.inv, d, n, NULL, &err),
			"tageval_inventory_read_map_buffer", "name");
	size_t c;
	EXPECT_NULL_ERR(tageval_inventory_coarse(NULL, 0, &c, &err), "tageval_inventory_coarse",
			"inv");
	EXPECT_NULL_ERR(tageval_inventory_coarse(o.inv, 0, NULL, &err),
			"tageval_inventory_coarse", "coarse");
	EXPECT_NULL_ERR(tageval_inventory_estimate_downward(NULL, "x", 1.0, &err),
			"tageval_inventory_estimate_downward", "inv");
	EXPECT_NULL_ERR(tageval_inventory_estimate_downward(o.inv, NULL, 1.0, &err),
			"tageval_inventory_estimate_downward", "path");
	EXPECT_NULL_ERR(tageval_inventory_estimate_downward_buffer(NULL, d, n, "c", 1.0, &err),
			"tageval_inventory_estimate_downward_buffer", "inv");
	EXPECT_NULL_ERR(tageval_inventory_estimate_downward_buffer(o.inv, NULL, n, "c", 1.0, &err),
			"tageval_inventory_estimate_downward_buffer", "data");
	EXPECT_NULL_ERR(tageval_inventory_estimate_downward_buffer(o.inv, d, n, NULL, 1.0, &err),
			"tageval_inventory_estimate_downward_buffer", "name");

	/* key */
	struct tageval_key *k = (struct tageval_key *)o.inv; /* must become NULL */
	EXPECT_NULL_ERR(tageval_key_read(NULL, "x", &k, &err), "tageval_key_read", "inv");
	ck_assert_ptr_null(k);
	EXPECT_NULL_ERR(tageval_key_read(o.inv, NULL, &k, &err), "tageval_key_read", "path");
	EXPECT_NULL_ERR(tageval_key_read(o.inv, "x", NULL, &err), "tageval_key_read", "key");
	EXPECT_NULL_ERR(tageval_key_read_buffer(NULL, d, n, "k", &k, &err),
			"tageval_key_read_buffer", "inv");
	EXPECT_NULL_ERR(tageval_key_read_buffer(o.inv, NULL, n, "k", &k, &err),
			"tageval_key_read_buffer", "data");
	EXPECT_NULL_ERR(tageval_key_read_buffer(o.inv, d, n, NULL, &k, &err),
			"tageval_key_read_buffer", "name");
	EXPECT_NULL_ERR(tageval_key_read_buffer(o.inv, d, n, "k", NULL, &err),
			"tageval_key_read_buffer", "key");
	EXPECT_NULL_ERR(tageval_key_add(NULL, "w.n", "3", tags, 1, &err), "tageval_key_add",
			"key");
	EXPECT_NULL_ERR(tageval_key_add(o.key, NULL, "3", tags, 1, &err), "tageval_key_add",
			"lexelt");
	EXPECT_NULL_ERR(tageval_key_add(o.key, "w.n", NULL, tags, 1, &err), "tageval_key_add",
			"instance");
	EXPECT_NULL_ERR(tageval_key_add(o.key, "w.n", "3", NULL, 1, &err), "tageval_key_add",
			"tags");
	EXPECT_NULL_ERR(tageval_key_add(o.key, "w.n", "3", tags, 2, &err), "tageval_key_add",
			"tag");
	ck_assert_uint_eq(tageval_key_size(o.key), 2); /* nothing was added */

	/* filter */
	EXPECT_NULL_ERR(tageval_filter_read_instances(NULL, "x", &err),
			"tageval_filter_read_instances", "filter");
	EXPECT_NULL_ERR(tageval_filter_read_instances(o.filter, NULL, &err),
			"tageval_filter_read_instances", "path");
	EXPECT_NULL_ERR(tageval_filter_read_instances_buffer(NULL, d, n, "f", &err),
			"tageval_filter_read_instances_buffer", "filter");
	EXPECT_NULL_ERR(tageval_filter_read_instances_buffer(o.filter, NULL, n, "f", &err),
			"tageval_filter_read_instances_buffer", "data");
	EXPECT_NULL_ERR(tageval_filter_read_instances_buffer(o.filter, d, n, NULL, &err),
			"tageval_filter_read_instances_buffer", "name");
	EXPECT_NULL_ERR(tageval_filter_read_tags(NULL, o.inv, "x", &err),
			"tageval_filter_read_tags", "filter");
	EXPECT_NULL_ERR(tageval_filter_read_tags(o.filter, NULL, "x", &err),
			"tageval_filter_read_tags", "inv");
	EXPECT_NULL_ERR(tageval_filter_read_tags(o.filter, o.inv, NULL, &err),
			"tageval_filter_read_tags", "path");
	EXPECT_NULL_ERR(tageval_filter_read_tags_buffer(NULL, o.inv, d, n, "f", &err),
			"tageval_filter_read_tags_buffer", "filter");
	EXPECT_NULL_ERR(tageval_filter_read_tags_buffer(o.filter, NULL, d, n, "f", &err),
			"tageval_filter_read_tags_buffer", "inv");
	EXPECT_NULL_ERR(tageval_filter_read_tags_buffer(o.filter, o.inv, NULL, n, "f", &err),
			"tageval_filter_read_tags_buffer", "data");
	EXPECT_NULL_ERR(tageval_filter_read_tags_buffer(o.filter, o.inv, d, n, NULL, &err),
			"tageval_filter_read_tags_buffer", "name");

	/* scorer */
	struct tageval_scorer *sc = (struct tageval_scorer *)o.inv;
	EXPECT_NULL_ERR(tageval_scorer_new(NULL, o.key, NULL, &sc, &err), "tageval_scorer_new",
			"inv");
	ck_assert_ptr_null(sc);
	EXPECT_NULL_ERR(tageval_scorer_new(o.inv, NULL, NULL, &sc, &err), "tageval_scorer_new",
			"key");
	EXPECT_NULL_ERR(tageval_scorer_new(o.inv, o.key, NULL, NULL, &err), "tageval_scorer_new",
			"scorer");
	EXPECT_NULL_ERR(tageval_scorer_read(NULL, "x", &err), "tageval_scorer_read", "scorer");
	EXPECT_NULL_ERR(tageval_scorer_read(o.sc, NULL, &err), "tageval_scorer_read", "path");
	EXPECT_NULL_ERR(tageval_scorer_read_buffer(NULL, d, n, "a", &err),
			"tageval_scorer_read_buffer", "scorer");
	EXPECT_NULL_ERR(tageval_scorer_read_buffer(o.sc, NULL, n, "a", &err),
			"tageval_scorer_read_buffer", "data");
	EXPECT_NULL_ERR(tageval_scorer_read_buffer(o.sc, d, n, NULL, &err),
			"tageval_scorer_read_buffer", "name");
	EXPECT_NULL_ERR(tageval_scorer_add(NULL, "w.n", "1", tags, NULL, 1, &err),
			"tageval_scorer_add", "scorer");
	EXPECT_NULL_ERR(tageval_scorer_add(o.sc, NULL, "1", tags, NULL, 1, &err),
			"tageval_scorer_add", "lexelt");
	EXPECT_NULL_ERR(tageval_scorer_add(o.sc, "w.n", NULL, tags, NULL, 1, &err),
			"tageval_scorer_add", "instance");
	EXPECT_NULL_ERR(tageval_scorer_add(o.sc, "w.n", "1", NULL, NULL, 1, &err),
			"tageval_scorer_add", "tags");
	EXPECT_NULL_ERR(tageval_scorer_add(o.sc, "w.n", "1", tags, NULL, 2, &err),
			"tageval_scorer_add", "tag");
	struct tageval_score total;
	tageval_scorer_result(o.sc, &total);
	ck_assert_uint_eq(total.scored, 0); /* nothing was scored */

	/* annotations and agreement */
	EXPECT_NULL_ERR(tageval_annotations_read(NULL, "x", &err), "tageval_annotations_read",
			"ann");
	EXPECT_NULL_ERR(tageval_annotations_read(o.ann, NULL, &err), "tageval_annotations_read",
			"path");
	EXPECT_NULL_ERR(tageval_annotations_read_buffer(NULL, d, n, "a", &err),
			"tageval_annotations_read_buffer", "ann");
	EXPECT_NULL_ERR(tageval_annotations_read_buffer(o.ann, NULL, n, "a", &err),
			"tageval_annotations_read_buffer", "data");
	EXPECT_NULL_ERR(tageval_annotations_read_buffer(o.ann, d, n, NULL, &err),
			"tageval_annotations_read_buffer", "name");
	ck_assert_uint_eq(tageval_annotations_annotators(o.ann), 2);
	struct tageval_agreement *ag = (struct tageval_agreement *)o.inv;
	EXPECT_NULL_ERR(tageval_agreement_compute(NULL, NULL, &ag, &err),
			"tageval_agreement_compute", "ann");
	ck_assert_ptr_null(ag);
	EXPECT_NULL_ERR(tageval_agreement_compute(o.ann, NULL, NULL, &err),
			"tageval_agreement_compute", "out");

	/* word sense induction */
	EXPECT_NULL_ERR(tageval_wsi_read_gold(NULL, "x", &err), "tageval_wsi_read_gold", "wsi");
	EXPECT_NULL_ERR(tageval_wsi_read_gold(o.wsi, NULL, &err), "tageval_wsi_read_gold", "path");
	EXPECT_NULL_ERR(tageval_wsi_read_gold_buffer(NULL, d, n, "g", &err),
			"tageval_wsi_read_gold_buffer", "wsi");
	EXPECT_NULL_ERR(tageval_wsi_read_gold_buffer(o.wsi, NULL, n, "g", &err),
			"tageval_wsi_read_gold_buffer", "data");
	EXPECT_NULL_ERR(tageval_wsi_read_gold_buffer(o.wsi, d, n, NULL, &err),
			"tageval_wsi_read_gold_buffer", "name");
	EXPECT_NULL_ERR(tageval_wsi_read_clusters(NULL, "x", &err), "tageval_wsi_read_clusters",
			"wsi");
	EXPECT_NULL_ERR(tageval_wsi_read_clusters(o.wsi, NULL, &err), "tageval_wsi_read_clusters",
			"path");
	EXPECT_NULL_ERR(tageval_wsi_read_clusters_buffer(NULL, d, n, "c", &err),
			"tageval_wsi_read_clusters_buffer", "wsi");
	EXPECT_NULL_ERR(tageval_wsi_read_clusters_buffer(o.wsi, NULL, n, "c", &err),
			"tageval_wsi_read_clusters_buffer", "data");
	EXPECT_NULL_ERR(tageval_wsi_read_clusters_buffer(o.wsi, d, n, NULL, &err),
			"tageval_wsi_read_clusters_buffer", "name");
	struct tageval_wsi_result *wr = (struct tageval_wsi_result *)o.inv;
	EXPECT_NULL_ERR(tageval_wsi_evaluate(NULL, NULL, &wr, &err), "tageval_wsi_evaluate", "wsi");
	ck_assert_ptr_null(wr);
	EXPECT_NULL_ERR(tageval_wsi_evaluate(o.wsi, NULL, NULL, &err), "tageval_wsi_evaluate",
			"out");
	struct tageval_supervised *sup = (struct tageval_supervised *)o.inv;
	EXPECT_NULL_ERR(tageval_supervised_new(NULL, NULL, &sup, &err), "tageval_supervised_new",
			"wsi");
	ck_assert_ptr_null(sup);
	EXPECT_NULL_ERR(tageval_supervised_new(o.wsi, NULL, NULL, &err), "tageval_supervised_new",
			"out");
	EXPECT_NULL_ERR(tageval_supervised_add_files(NULL, "m", "t", &err),
			"tageval_supervised_add_files", "sup");
	EXPECT_NULL_ERR(tageval_supervised_add_files(o.sup, NULL, "t", &err),
			"tageval_supervised_add_files", "mapping");
	EXPECT_NULL_ERR(tageval_supervised_add_files(o.sup, "m", NULL, &err),
			"tageval_supervised_add_files", "test");
	EXPECT_NULL_ERR(tageval_supervised_add_buffers(NULL, d, n, d, n, &err),
			"tageval_supervised_add_buffers", "sup");
	EXPECT_NULL_ERR(tageval_supervised_add_buffers(o.sup, NULL, n, d, n, &err),
			"tageval_supervised_add_buffers", "data");
	EXPECT_NULL_ERR(tageval_supervised_add_buffers(o.sup, d, n, NULL, n, &err),
			"tageval_supervised_add_buffers", "data");
	EXPECT_NULL_ERR(tageval_supervised_add_folds(NULL, 2, 1, &err),
			"tageval_supervised_add_folds", "sup");
	EXPECT_NULL_ERR(tageval_supervised_add_random(NULL, 1, 0.5, 1, &err),
			"tageval_supervised_add_random", "sup");
	struct tageval_supervised_result sres;
	char *mapped = (char *)o.inv; /* must become NULL */
	EXPECT_NULL_ERR(tageval_supervised_evaluate(NULL, 0, &sres, &mapped, &err),
			"tageval_supervised_evaluate", "sup");
	ck_assert_ptr_null(mapped);
	EXPECT_NULL_ERR(tageval_supervised_evaluate(o.sup, 0, NULL, NULL, &err),
			"tageval_supervised_evaluate", "res");
	ck_assert_uint_eq(tageval_supervised_splits(o.sup), 0);

	/* clustering metrics and graded WSD: the out pointer set to NULL first */
	struct tageval_clustering_result *cres = (struct tageval_clustering_result *)o.inv;
	EXPECT_NULL_ERR(tageval_clustering_evaluate(NULL, NULL, &cres, &err),
			"tageval_clustering_evaluate", "wsi");
	ck_assert_ptr_null(cres);
	EXPECT_NULL_ERR(tageval_clustering_evaluate(o.wsi, NULL, NULL, &err),
			"tageval_clustering_evaluate", "out");
	struct tageval_graded *gr = tageval_graded_new();
	ck_assert_ptr_nonnull(gr);
	EXPECT_NULL_ERR(tageval_graded_read_gold(NULL, "x", &err), "tageval_graded_read_gold",
			"graded");
	EXPECT_NULL_ERR(tageval_graded_read_gold(gr, NULL, &err), "tageval_graded_read_gold",
			"path");
	EXPECT_NULL_ERR(tageval_graded_read_gold_buffer(NULL, d, n, "g", &err),
			"tageval_graded_read_gold_buffer", "graded");
	EXPECT_NULL_ERR(tageval_graded_read_gold_buffer(gr, NULL, n, "g", &err),
			"tageval_graded_read_gold_buffer", "data");
	EXPECT_NULL_ERR(tageval_graded_read_gold_buffer(gr, d, n, NULL, &err),
			"tageval_graded_read_gold_buffer", "name");
	EXPECT_NULL_ERR(tageval_graded_read_system(NULL, "x", &err), "tageval_graded_read_system",
			"graded");
	EXPECT_NULL_ERR(tageval_graded_read_system(gr, NULL, &err), "tageval_graded_read_system",
			"path");
	EXPECT_NULL_ERR(tageval_graded_read_system_buffer(NULL, d, n, "s", &err),
			"tageval_graded_read_system_buffer", "graded");
	EXPECT_NULL_ERR(tageval_graded_read_system_buffer(gr, NULL, n, "s", &err),
			"tageval_graded_read_system_buffer", "data");
	tageval_graded_free(gr);
	struct tageval_graded_result *gres = (struct tageval_graded_result *)o.inv;
	EXPECT_NULL_ERR(tageval_graded_evaluate(NULL, NULL, &gres, &err), "tageval_graded_evaluate",
			"graded");
	ck_assert_ptr_null(gres);
	EXPECT_NULL_ERR(tageval_graded_evaluate(NULL, NULL, NULL, &err), "tageval_graded_evaluate",
			"out");

	/* report */
	struct tageval_report *rep = (struct tageval_report *)o.inv;
	EXPECT_NULL_ERR(tageval_report_new(NULL, o.key, NULL, &rep, &err), "tageval_report_new",
			"inv");
	ck_assert_ptr_null(rep);
	EXPECT_NULL_ERR(tageval_report_new(o.inv, NULL, NULL, &rep, &err), "tageval_report_new",
			"key");
	EXPECT_NULL_ERR(tageval_report_new(o.inv, o.key, NULL, NULL, &err), "tageval_report_new",
			"out");
	EXPECT_NULL_ERR(tageval_report_add_subset(NULL, "s", "x", &err),
			"tageval_report_add_subset", "report");
	EXPECT_NULL_ERR(tageval_report_add_subset(o.report, NULL, "x", &err),
			"tageval_report_add_subset", "name");
	EXPECT_NULL_ERR(tageval_report_add_subset(o.report, "s", NULL, &err),
			"tageval_report_add_subset", "path");
	EXPECT_NULL_ERR(tageval_report_add_subset_buffer(NULL, "s", d, n, "x", &err),
			"tageval_report_add_subset_buffer", "report");
	EXPECT_NULL_ERR(tageval_report_add_subset_buffer(o.report, NULL, d, n, "x", &err),
			"tageval_report_add_subset_buffer", "name");
	EXPECT_NULL_ERR(tageval_report_add_subset_buffer(o.report, "s", NULL, n, "x", &err),
			"tageval_report_add_subset_buffer", "data");
	EXPECT_NULL_ERR(tageval_report_add_subset_buffer(o.report, "s", d, n, NULL, &err),
			"tageval_report_add_subset_buffer", "name");
	EXPECT_NULL_ERR(tageval_report_keep_credits(NULL, &err), "tageval_report_keep_credits",
			"report");
	{
		double c1[1], a1[1];
		EXPECT_NULL_ERR(tageval_report_credits(NULL, 0, 0, c1, a1, &err),
				"tageval_report_credits", "report");
		EXPECT_NULL_ERR(tageval_report_credits(o.report, 0, 0, NULL, a1, &err),
				"tageval_report_credits", "credit");
		EXPECT_NULL_ERR(tageval_report_credits(o.report, 0, 0, c1, NULL, &err),
				"tageval_report_credits", "attempted");
		struct tageval_wsd_comparison out[1];
		const size_t r0[1] = { 0 };
		EXPECT_NULL_ERR(tageval_compare(1, 1, NULL, a1, TAGEVAL_STATISTIC_F1, r0, 1, 0, 1,
						out, &err), "tageval_compare", "credit");
		EXPECT_NULL_ERR(tageval_compare(1, 1, c1, NULL, TAGEVAL_STATISTIC_F1, r0, 1, 0, 1,
						out, &err), "tageval_compare", "attempted");
		EXPECT_NULL_ERR(tageval_compare(1, 1, c1, a1, TAGEVAL_STATISTIC_F1, r0, 1, 0, 1,
						NULL, &err), "tageval_compare", "out");
		EXPECT_NULL_ERR(tageval_compare(1, 1, c1, a1, TAGEVAL_STATISTIC_F1, NULL, 1, 0, 1,
						out, &err), "tageval_compare", "refs");
	}
	EXPECT_NULL_ERR(tageval_report_add_system(NULL, "s", "x", &err),
			"tageval_report_add_system", "report");
	EXPECT_NULL_ERR(tageval_report_add_system(o.report, NULL, "x", &err),
			"tageval_report_add_system", "name");
	EXPECT_NULL_ERR(tageval_report_add_system(o.report, "s", NULL, &err),
			"tageval_report_add_system", "path");
	EXPECT_NULL_ERR(tageval_report_add_system_buffer(NULL, "s", d, n, "x", &err),
			"tageval_report_add_system_buffer", "report");
	EXPECT_NULL_ERR(tageval_report_add_system_buffer(o.report, NULL, d, n, "x", &err),
			"tageval_report_add_system_buffer", "name");
	EXPECT_NULL_ERR(tageval_report_add_system_buffer(o.report, "s", NULL, n, "x", &err),
			"tageval_report_add_system_buffer", "data");
	EXPECT_NULL_ERR(tageval_report_add_baseline(NULL, TAGEVAL_BASELINE_RANDOM, &err),
			"tageval_report_add_baseline", "report");
	ck_assert_uint_eq(tageval_report_systems(o.report), 0);
	objs_free(&o);
}
END_TEST

START_TEST(null_without_error)
{
	struct objs o;
	objs_make(&o);
	size_t id = 7;
	const char *word = NULL, *inst = NULL;
	double lo, hi;

	/* status codes: TAGEVAL_EINVAL, out-parameters untouched */
	ck_assert_int_eq(tageval_inventory_find(NULL, "a", &id), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_find(o.inv, NULL, &id), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_find(o.inv, "a", NULL), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_intern(NULL, "z", &id), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_intern(o.inv, NULL, &id), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_intern(o.inv, "z", NULL), TAGEVAL_EINVAL);
	ck_assert_uint_eq(id, 7);
	ck_assert_uint_eq(tageval_inventory_size(o.inv), 2); /* "z" was not added */
	ck_assert_int_eq(tageval_inventory_distribute(NULL, 0, o.dist), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_inventory_distribute(o.inv, 0, NULL), TAGEVAL_EINVAL);
	struct tageval_key *k = (struct tageval_key *)o.inv;
	ck_assert_int_eq(tageval_key_new(NULL, "k", &k), TAGEVAL_EINVAL);
	ck_assert_ptr_null(k);
	ck_assert_int_eq(tageval_key_new(o.inv, "k", NULL), TAGEVAL_EINVAL);
	struct tageval_annotations *a = (struct tageval_annotations *)o.inv;
	ck_assert_int_eq(tageval_annotations_new(NULL, &a), TAGEVAL_EINVAL);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(tageval_annotations_new(o.inv, NULL), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_interval(NULL, TAGEVAL_KAPPA, &lo, &hi, NULL),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_interval(o.ag, TAGEVAL_KAPPA, NULL, &hi, NULL),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_agreement_interval(o.ag, TAGEVAL_KAPPA, &lo, NULL, NULL),
			 TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_instance(NULL, 0, &word, &inst), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_instance(o.wsi, 0, NULL, &inst), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_instance(o.wsi, 0, &word, NULL), TAGEVAL_EINVAL);
	ck_assert_ptr_null(word);
	ck_assert_ptr_null(inst);
	struct tageval_wsi_figures fig;
	static const double table[] = { 1.0, 0.0, 0.0, 1.0 };
	ck_assert_int_eq(tageval_wsi_table_figures(NULL, 2, 2, 1.0, &fig), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_wsi_table_figures(table, 2, 2, 1.0, NULL), TAGEVAL_EINVAL);
	struct tageval_score sc;
	struct tageval_report_cell cell;
	struct tageval_report_summary sum;
	size_t i;
	ck_assert_int_eq(tageval_report_system_score(NULL, 0, 0, &sc), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_system_score(o.report, 0, 0, NULL), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_find_subset(NULL, "all", &i), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_find_subset(o.report, NULL, &i), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_find_subset(o.report, "all", NULL), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_cell(NULL, 0, 0, 0, 0, &cell), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_cell(o.report, 0, 0, 0, 0, NULL), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_summarize(NULL, 0, 0, 0, &sum), TAGEVAL_EINVAL);
	ck_assert_int_eq(tageval_report_summarize(o.report, 0, 0, 0, NULL), TAGEVAL_EINVAL);

	/* counts: 0; borrowed pointers: NULL; numbers: 0 or NaN as documented */
	ck_assert_uint_eq(tageval_inventory_size(NULL), 0);
	ck_assert_ptr_null(tageval_inventory_name(NULL, 0));
	ck_assert(tageval_inventory_subsumes(NULL, 0, 0) == 0.0);
	ck_assert_uint_eq(tageval_dist_size(NULL), 0);
	ck_assert_uint_eq(tageval_dist_leaf(NULL, 0), (size_t)-1);
	ck_assert(tageval_dist_prob(NULL, 0) == 0.0);
	ck_assert(tageval_dist_get(NULL, 0) == 0.0);
	ck_assert_uint_eq(tageval_key_size(NULL), 0);
	ck_assert_uint_eq(tageval_annotations_annotators(NULL), 0);
	ck_assert_uint_eq(tageval_annotations_items(NULL), 0);
	ck_assert_ptr_null(tageval_agreement_pooled(NULL));
	ck_assert_uint_eq(tageval_agreement_lexelts(NULL), 0);
	ck_assert_ptr_null(tageval_agreement_lexelt_name(NULL, 0));
	ck_assert_ptr_null(tageval_agreement_lexelt(NULL, 0));
	ck_assert(isnan(tageval_agreement_macro(NULL, TAGEVAL_KAPPA, NULL, NULL)));
	ck_assert_uint_eq(tageval_agreement_single(NULL, 0), 0);
	ck_assert_uint_eq(tageval_wsi_instances(NULL), 0);
	ck_assert_uint_eq(tageval_wsi_ignored(NULL), 0);
	ck_assert_uint_eq(tageval_wsi_result_words(NULL), 0);
	ck_assert_ptr_null(tageval_wsi_result_word(NULL, 0));
	ck_assert_ptr_null(tageval_wsi_result_figures(NULL, 0));
	ck_assert_ptr_null(tageval_wsi_result_total(NULL));
	ck_assert_uint_eq(tageval_supervised_splits(NULL), 0);
	ck_assert(isnan(tageval_entropy(NULL, 3)));
	ck_assert(tageval_entropy(NULL, 0) == 0.0);
	ck_assert_uint_eq(tageval_report_granularities(NULL), 0);
	ck_assert_int_eq(tageval_report_granularity(NULL, 0), TAGEVAL_FINE);
	ck_assert_uint_eq(tageval_report_systems(NULL), 0);
	ck_assert_ptr_null(tageval_report_system_name(NULL, 0));
	ck_assert_int_eq(tageval_report_system_is_baseline(NULL, 0), 0);
	ck_assert_uint_eq(tageval_report_subsets(NULL), 0);
	ck_assert_ptr_null(tageval_report_subset(NULL, 0));
	ck_assert_uint_eq(tageval_report_lexelts(NULL), 0);
	ck_assert_ptr_null(tageval_report_lexelt(NULL, 0));

	/* void functions: nothing happens; a NULL scorer gives zero totals */
	tageval_score_options_init(NULL);
	tageval_agreement_options_init(NULL);
	tageval_wsi_options_init(NULL);
	tageval_report_medians(NULL, &lo, &hi);
	tageval_scorer_result(o.sc, NULL);
	memset(&sc, 0xff, sizeof sc);
	tageval_scorer_result(NULL, &sc);
	ck_assert_uint_eq(sc.scored, 0);
	ck_assert(sc.total == 0.0);
	objs_free(&o);
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("promises");
	tcase_add_test(tc, scorer_bad_granularity);
	tcase_add_test(tc, null_with_error);
	tcase_add_test(tc, null_without_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(api_suite());
}
