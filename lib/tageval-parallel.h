/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parts of one job run on the machine's cores (tageval-parallel.c); not installed. */
#ifndef TAGEVAL_PARALLEL_H
#define TAGEVAL_PARALLEL_H

#include <stddef.h>

/* Part @part of a job: it writes only what belongs to that part (its own
 * slot of an array of results), so that the parts need no lock. */
typedef void (*tv_part_fn)(void *ctx, size_t part);

/* At most this many threads for one job (the calling one included). */
#define TV_PARALLEL_MAX 8

/*
 * Runs @fn(@ctx, i) once for every part i in [0, @nparts), the parts shared
 * out to the calling thread and up to min(@nparts, online CPUs,
 * TV_PARALLEL_MAX) - 1 more, each taking the next part not yet taken;
 * returns when all are done.  A thread that cannot be created leaves its
 * parts to the others (on one CPU, or without threads, all run here in
 * order).  Which thread runs which part, and when, must not change a
 * result: the caller combines the parts' results in part order after.
 * Returns the number of threads used.
 */
size_t tv_parallel(size_t nparts, tv_part_fn fn, void *ctx);

#endif
