/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scorer: a sense map, a key, the answers and the two filter lists, all
 * fuzzed together.  The totals must be finite and consistent whatever the
 * answers say.  Input: flags, then the files ANSWERS, KEY, MAP, INSTANCES,
 * TAGS (the missing ones are not read).  Flags: bits 0-1 the granularity
 * (fine, coarse, mixed, fine), bit 2 minimal, bit 3 conjunctive.  When the
 * files are read and scored, the key and the map are read again with their
 * lines in reverse order: the totals must not change.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	int conjunctive;
	size_t events;
	uint64_t last_line;
};

static void on_answer(const struct tageval_answer_event *ev, void *userdata)
{
	struct seen *seen = userdata;
	if (ev->line <= seen->last_line)
		fuzz_fail("answers: event of line %" PRIu64 " after line %" PRIu64, ev->line,
			  seen->last_line);
	seen->last_line = ev->line;
	seen->events++;
	if (ev->status != TAGEVAL_ANSWER_SCORED)
		return;
	if (!fuzz_in_range(ev->attempted, 0.0, seen->conjunctive ? 1e300 : 1.0))
		fuzz_fail("answers: line %" PRIu64 " attempts %g", ev->line, ev->attempted);
	/* conjunctive: each key tag earns at most 1, and in mixed scoring one
	 * general answer tag can earn credit on several of them */
	if (!fuzz_in_range(ev->score, 0.0, seen->conjunctive ? (double)ev->n_key : ev->attempted))
		fuzz_fail("answers: line %" PRIu64 " scores %g of %g attempted, %zu key tags", ev->line,
			  ev->score, ev->attempted, ev->n_key);
	double sum = 0.0;
	for (size_t i = 0; i < ev->n_guess; i++) {
		if (!fuzz_in_range(ev->guess_weights[i], 0.0, 1e300))
			fuzz_fail("answers: line %" PRIu64 ": weight %g", ev->line, ev->guess_weights[i]);
		sum += ev->guess_weights[i];
		if (ev->guess_tags[i] == NULL || ev->guess_tags[i][0] == '\0')
			fuzz_fail("answers: line %" PRIu64 ": empty tag", ev->line);
	}
	if (!seen->conjunctive && ev->n_guess > 0 && !fuzz_in_range(sum, 0.0, 1.0))
		fuzz_fail("answers: line %" PRIu64 ": weights sum to %g", ev->line, sum);
}

/*
 * Reads the map (if any), the key and the filters, then scores the answers;
 * returns the status of the first step that failed, and fills @s.
 */
static int score(const struct fuzz_input *in, const struct fuzz_part *key_part,
		 const struct fuzz_part *map_part, struct tageval_score *s)
{
	static const enum tageval_granularity gran[] = { TAGEVAL_FINE, TAGEVAL_COARSE,
							  TAGEVAL_MIXED, TAGEVAL_FINE };
	static const char *const names[] = { "answers", "key", "map", "instances", "tags" };
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	const struct fuzz_part *f = in->part;
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_filter *filter = NULL;
	struct tageval_key *key = NULL;
	struct tageval_scorer *scorer = NULL;
	struct seen seen = { .conjunctive = (in->flags & 8) != 0 };
	struct tageval_score_options opts;
	int rc = TAGEVAL_EINVAL;
	if (inv == NULL)
		abort();
	tageval_score_options_init(&opts);
	opts.granularity = gran[in->flags & 3];
	opts.minimal = (in->flags & 4) != 0;
	opts.conjunctive = seen.conjunctive;
	opts.on_answer = on_answer;
	opts.userdata = &seen;

	if (map_part) {
		rc = tageval_inventory_read_map_buffer(inv, map_part->data, map_part->size,
						       names[2], &err);
		fuzz_check_error(rc, format, &err, map_part, names[2]);
		if (rc)
			goto out;
	}
	rc = tageval_key_read_buffer(inv, key_part->data, key_part->size, names[1], &key, &err);
	fuzz_check_error(rc, format, &err, key_part, names[1]);
	if (rc)
		goto out;
	if (in->n > 3) {
		if ((filter = tageval_filter_new()) == NULL)
			abort();
		rc = tageval_filter_read_instances_buffer(filter, f[3].data, f[3].size, names[3],
							  &err);
		fuzz_check_error(rc, format, &err, &f[3], names[3]);
		if (rc == TAGEVAL_OK && in->n > 4) {
			rc = tageval_filter_read_tags_buffer(filter, inv, f[4].data, f[4].size,
							     names[4], &err);
			fuzz_check_error(rc, format, &err, &f[4], names[4]);
		}
		if (rc)
			goto out;
		opts.filter = filter;
	}
	rc = tageval_scorer_new(inv, key, &opts, &scorer, &err);
	fuzz_check_error(rc, format, &err, NULL, "scorer");
	if (rc)
		goto out;
	rc = tageval_scorer_read_buffer(scorer, f[0].data, f[0].size, names[0], &err);
	fuzz_check_error(rc, format, &err, &f[0], names[0]);
	if (rc)
		goto out;

	tageval_scorer_result(scorer, s);
	if (!fuzz_in_range(s->total, 0.0, 1e300) || !fuzz_in_range(s->attempted, 0.0, 1e300) ||
	    !fuzz_in_range(s->correct, 0.0, opts.conjunctive ? s->total : s->attempted))
		fuzz_fail("totals: correct %g, attempted %g, total %g", s->correct, s->attempted,
			  s->total);
	if (!opts.conjunctive && (s->correct > s->total + 1e-9 || s->attempted > s->total + 1e-9))
		fuzz_fail("totals: correct %g, attempted %g of %g instances", s->correct,
			  s->attempted, s->total);
	if (s->scored + s->not_in_key + s->invalid + s->excluded + s->filtered != seen.events)
		fuzz_fail("totals: %zu events, counts %zu %zu %zu %zu %zu", seen.events, s->scored,
			  s->not_in_key, s->invalid, s->excluded, s->filtered);
	if (filter == NULL && !opts.minimal && s->instances != tageval_key_size(key))
		fuzz_fail("totals: %zu instances of %zu", s->instances, tageval_key_size(key));
out:
	tageval_scorer_free(scorer);
	tageval_filter_free(filter);
	tageval_key_free(key);
	tageval_inventory_free(inv);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in;
	fuzz_split(data, size, 5, &in);
	if (in.n < 2)
		return 0;
	struct tageval_score a, b;
	const struct fuzz_part *map = in.n > 2 ? &in.part[2] : NULL;
	if (score(&in, &in.part[1], map, &a) != TAGEVAL_OK)
		return 0;
	/* Files in any order: the key and the map read backwards score the
	 * same (up to rounding: tag ids, so summation orders, change). */
	struct fuzz_part rkey, rmap;
	char *k = fuzz_reverse_lines(&in.part[1], &rkey), *m = NULL;
	if (map)
		m = fuzz_reverse_lines(map, &rmap);
	int rc = score(&in, &rkey, map ? &rmap : NULL, &b);
	if (rc != TAGEVAL_OK)
		fuzz_fail("the key or map read backwards fails (%d)", rc);
	if (!fuzz_same(a.correct, b.correct) || !fuzz_same(a.attempted, b.attempted) ||
	    !fuzz_same(a.total, b.total) || a.instances != b.instances || a.scored != b.scored ||
	    a.not_in_key != b.not_in_key || a.invalid != b.invalid ||
	    a.excluded != b.excluded || a.filtered != b.filtered)
		fuzz_fail("backwards: correct %.17g / %.17g, attempted %.17g / %.17g, total "
			  "%.17g / %.17g, scored %zu / %zu, excluded %zu / %zu",
			  a.correct, b.correct, a.attempted, b.attempted, a.total, b.total,
			  a.scored, b.scored, a.excluded, b.excluded);
	free(k);
	free(m);
	return 0;
}
