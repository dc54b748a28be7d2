/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Parts of one job on several threads (tageval-parallel.h): the parts are
 * taken in turn from a shared counter, so that a slow part holds up only
 * its own thread.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "tageval-parallel.h"

struct job {
	tv_part_fn fn;
	void *ctx;
	size_t nparts;
	atomic_size_t next; /* the next part not yet taken */
};

static void run_parts(struct job *j)
{
	for (;;) {
		size_t i = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
		if (i >= j->nparts)
			break;
		j->fn(j->ctx, i);
	}
}

static void *worker(void *arg)
{
	run_parts(arg);
	return NULL;
}

static size_t online_cpus(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 1 ? (size_t)n : 1;
#else
	return 1;
#endif
}

size_t tv_parallel(size_t nparts, tv_part_fn fn, void *ctx)
{
	struct job j = { .fn = fn, .ctx = ctx, .nparts = nparts };
	atomic_init(&j.next, 0);
	size_t want = online_cpus();
	if (want > nparts)
		want = nparts;
	if (want > TV_PARALLEL_MAX)
		want = TV_PARALLEL_MAX;
	pthread_t tid[TV_PARALLEL_MAX];
	size_t started = 0;
	/* the threads' joins below are the parts' only synchronisation: a
	 * part's writes are seen by the caller once its thread is joined */
	while (started + 1 < want && pthread_create(&tid[started], NULL, worker, &j) == 0)
		started++;
	run_parts(&j);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return started + 1;
}
