/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-common.h"

static void record(const struct tageval_answer_event *ev, void *userdata)
{
	struct scored *s = userdata;
	if (s->n >= 64)
		return;
	s->status[s->n] = ev->status;
	s->score[s->n] = ev->score;
	s->attempted[s->n] = ev->attempted;
	s->index[s->n] = ev->index;
	s->n++;
}

void score_strings(const char *map, const char *key, const char *answers,
		   enum tageval_granularity g, int minimal, int conjunctive,
		   struct scored *out)
{
	memset(out, 0, sizeof *out);
	struct tageval_inventory *inv = tageval_inventory_new();
	ck_assert_ptr_nonnull(inv);
	struct tageval_key *k = NULL;
	struct tageval_scorer *sc = NULL;
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.granularity = g;
	o.minimal = minimal;
	o.conjunctive = conjunctive;
	o.on_answer = record;
	o.userdata = out;
	out->rc = TAGEVAL_OK;
	if (map)
		out->rc = tageval_inventory_read_map_buffer(inv, map, strlen(map), "map", &out->err);
	if (out->rc == TAGEVAL_OK)
		out->rc = tageval_key_read_buffer(inv, key, strlen(key), "key", &k, &out->err);
	if (out->rc == TAGEVAL_OK)
		out->rc = tageval_scorer_new(inv, k, &o, &sc, &out->err);
	if (out->rc == TAGEVAL_OK)
		out->rc = tageval_scorer_read_buffer(sc, answers, strlen(answers), "answers",
						     &out->err);
	if (out->rc == TAGEVAL_OK)
		tageval_scorer_result(sc, &out->total);
	tageval_scorer_free(sc);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->s = realloc(b->s, cap);
		ck_assert_ptr_nonnull(b->s);
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}
