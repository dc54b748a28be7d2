/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Allocation failures, in the style of expat's tests: every public reader
 * and evaluator is run on a small input with allocation number N failing
 * (one_allocation_fails), or N and every later one
 * (every_allocation_from_n_fails), for N = 1, 2, ... until a run completes
 * without reaching allocation N.
 * Every run in which an allocation failed must end with TAGEVAL_ENOMEM
 * (tageval.h: "a failed allocation comes back as TAGEVAL_ENOMEM") without
 * a crash, or, where the library has a slower path that needs no memory,
 * succeed with the same figures; and once its objects are freed, as many
 * heap blocks must be live as before it started (no leak).  A run that
 * succeeds must give the figures computed by hand in the comments.
 *
 * How: this executable defines malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc, memalign and strdup (the allocation
 * functions libtageval imports: `nm -D libtageval.so | grep ' U '`) over
 * glibc's __libc_* entry points.  libtageval is a shared object that
 * resolves these symbols at run time, and the dynamic linker looks them up
 * in the executable first, so every allocation of the library (and of libz,
 * and of glibc itself, which calls the interposed malloc) goes through the
 * wrappers: the count of live blocks they keep is exact, and that is the
 * leak check.  Allocations made by glibc on the library's behalf (qsort's
 * scratch buffer, which it does without when malloc fails) are counted but
 * never failed: only calls from outside libc are numbered.
 *
 * AddressSanitizer, ThreadSanitizer and valgrind replace malloc themselves, and this
 * interposition does not work under them: the test then exits 77 (skipped).
 * The plain build runs it (.ci/run: the valgrind build's plain run of the
 * unit test 'nomem').
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NOMEM_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NOMEM_UNDER_SANITIZER 1
#endif
#endif

#ifdef NOMEM_UNDER_SANITIZER

int main(void)
{
	puts("nomem: skipped under AddressSanitizer and ThreadSanitizer (they replace malloc)");
	return 77;
}

#else

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND_H 1
#endif
#endif

#include "test-common.h"

/* ------------------------------------------------------------ the wrappers */

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t size);

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
int posix_memalign(void **out, size_t align, size_t size);
void *aligned_alloc(size_t align, size_t size);
void *memalign(size_t align, size_t size);
char *strdup(const char *s);

static long live;              /* blocks allocated and not freed */
static unsigned long counted;  /* numbered allocations since arm() */
static unsigned long fail_at;  /* 0: none fails */
static int sticky;             /* every allocation from fail_at on fails, not only it */
static int injected;           /* allocation fail_at was reached */
static const void *failed_caller; /* the return address of the failed call */
static uintptr_t libc_lo, libc_hi; /* libc's mapped text: its calls never fail */

/* Whether the allocation called from @caller fails. */
static int should_fail(const void *caller)
{
	if (fail_at == 0)
		return 0;
	uintptr_t c = (uintptr_t)caller;
	if (c >= libc_lo && c < libc_hi)
		return 0;
	/* atomically: the library shares some work out to threads (tv_parallel),
	 * whose allocations are numbered in whatever order they come */
	unsigned long k = __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
	if (k < fail_at || (k > fail_at && !sticky))
		return 0;
	if (!__atomic_exchange_n(&injected, 1, __ATOMIC_RELAXED))
		__atomic_store_n(&failed_caller, caller, __ATOMIC_RELAXED);
	return 1;
}

static void *counted_malloc(size_t size, const void *caller)
{
	if (should_fail(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = __libc_malloc(size);
	if (p)
		__atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
	return p;
}

void *malloc(size_t size)
{
	return counted_malloc(size, __builtin_return_address(0));
}

void *calloc(size_t n, size_t size)
{
	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = __libc_calloc(n, size);
	if (p)
		__atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
	return p;
}

void *realloc(void *p, size_t size)
{
	if (p == NULL)
		return counted_malloc(size, __builtin_return_address(0));
	if (size == 0) { /* glibc frees the block */
		__libc_free(p);
		__atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, size);
}

void free(void *p)
{
	if (p == NULL)
		return;
	__atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
	__libc_free(p);
}

static void *counted_memalign(size_t align, size_t size, const void *caller)
{
	if (should_fail(caller)) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = __libc_memalign(align, size);
	if (p)
		__atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
	return p;
}

int posix_memalign(void **out, size_t align, size_t size)
{
	if (align % sizeof(void *) != 0 || (align & (align - 1)) != 0)
		return EINVAL;
	void *p = counted_memalign(align, size, __builtin_return_address(0));
	if (p == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t size)
{
	return counted_memalign(align, size, __builtin_return_address(0));
}

void *memalign(size_t align, size_t size)
{
	return counted_memalign(align, size, __builtin_return_address(0));
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = counted_malloc(n, __builtin_return_address(0));
	if (d)
		memcpy(d, s, n);
	return d;
}

/*
 * The library reads a file longer than half a chunk with a second thread
 * (tageval-lines.c), whose allocations would race with the counters above.
 * Thread creation fails here, as it may anywhere (EAGAIN), and the library
 * reads in one thread: the path with allocation failures tested is that
 * one.  (The reading thread runs in every other test of the sanitizer build,
 * whose chunks are 4 KiB.)
 */
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
		   void *arg)
{
	(void)thread;
	(void)attr;
	(void)start;
	(void)arg;
	return EAGAIN;
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	const char *slash = strrchr(info->dlpi_name, '/');
	const char *base = slash ? slash + 1 : info->dlpi_name;
	if (strncmp(base, "libc.so", 7) != 0)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		if (libc_lo == 0 || lo < libc_lo)
			libc_lo = lo;
		if (hi > libc_hi)
			libc_hi = hi;
	}
	return 1;
}

/* The failed call's site, "object+0xoffset" (for addr2line -e object). */
static const char *failed_where(void)
{
	static char buf[512];
	Dl_info info;
	if (failed_caller && dladdr(failed_caller, &info) && info.dli_fname)
		snprintf(buf, sizeof buf, "%s+%#lx", info.dli_fname,
			 (unsigned long)((uintptr_t)failed_caller - (uintptr_t)info.dli_fbase));
	else
		snprintf(buf, sizeof buf, "%p", failed_caller);
	return buf;
}

/* ------------------------------------------------------------ the scenarios */

/* What one run gave: its status and the figures its comment computes. */
struct run {
	int rc;
	struct tageval_error err;
	double fig[4];
};

/* A call that may fail: its status ends the scenario (cleanup follows "out"). */
#define TRY(call)                                    \
	do {                                         \
		if ((r->rc = (call)) != TAGEVAL_OK)  \
			goto out;                    \
	} while (0)
/* An allocating constructor without status: NULL is out of memory. */
#define NEED(p)                                      \
	do {                                         \
		if ((p) == NULL) {                   \
			r->rc = TAGEVAL_ENOMEM;      \
			goto out;                    \
		}                                    \
	} while (0)
#define LEN(s) (sizeof(s) - 1)

/*
 * Key and scorer, fine-grained: key w.n 1 a, 2 b, 3 "a b"; answers 1 a (1),
 * 2 a/1 b/1 (b has half the weight: 0.5), x.v 9 (not in the key), and 3 b
 * through tageval_scorer_add (key "a b": 1).  correct 2.5, attempted 3,
 * not_in_key 1.  A second key built with tageval_key_new/_add: 2 instances.
 */
static void scen_key_scorer(struct run *r)
{
	static const char key[] = "w.n 1 a\nw.n 2 b\nw.n 3 a b\n";
	static const char ans[] = "w.n 1 a\nw.n 2 a/1 b/1\nx.v 9 a\n";
	static const char *const tags3[] = { "b" };
	static const char *const tags_k2[] = { "a", "c" };
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL, *k2 = NULL;
	struct tageval_scorer *sc = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_key_read_buffer(inv, key, LEN(key), "key", &k, &r->err));
	TRY(tageval_scorer_new(inv, k, NULL, &sc, &r->err));
	TRY(tageval_scorer_read_buffer(sc, ans, LEN(ans), "answers", &r->err));
	TRY(tageval_scorer_add(sc, "w.n", "3", tags3, NULL, 1, &r->err));
	struct tageval_score s;
	tageval_scorer_result(sc, &s);
	r->fig[0] = s.correct;
	r->fig[1] = s.attempted;
	r->fig[2] = (double)s.not_in_key;
	TRY(tageval_key_new(inv, "built", &k2));
	TRY(tageval_key_add(k2, "v.v", "1", tags_k2, 2, &r->err));
	TRY(tageval_key_add(k2, "v.v", "2", tags_k2, 1, &r->err));
	r->fig[3] = (double)tageval_key_size(k2);
out:
	tageval_scorer_free(sc);
	tageval_key_free(k2);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/* A temporary directory for the readers that take a path (made in main()). */
static char tmpdir[64];
static char gz_path[128], map_path[128], key_path[128], ans_path[128], gold_path[128],
	sys_path[128], map2_path[128], test2_path[128];

/*
 * The same key read from a gzip-compressed file (path reader, zlib): its
 * 3 instances.
 */
static const unsigned char key_gz[] = {
	/* gzip of "w.n 1 a\nw.n 2 b\nw.n 3 a b\n" (python3 gzip.compress, mtime 0) */
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x2b, 0xd7, 0xcb, 0x53,
	0x30, 0x54, 0x48, 0xe4, 0x2a, 0x07, 0xd2, 0x46, 0x0a, 0x49, 0x60, 0xda, 0x58, 0x21,
	0x11, 0xc8, 0x02, 0x00, 0x4d, 0x87, 0xf6, 0x5d, 0x1a, 0x00, 0x00, 0x00,
};

static void scen_key_gzip_file(struct run *r)
{
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_key_read(inv, gz_path, &k, &r->err));
	r->fig[0] = (double)tageval_key_size(k);
out:
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/* The files of scen_files (the map of scen_map_filter_coarse). */
static const char f_map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
static const char f_key[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1x\n";
static const char f_ans[] = "w.n 1 a1x\nw.n 2 a1y\n";
static const char f_gold[] = "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s1\nw.n w.n.4 s2\n";
static const char f_sys[] = "w.n w.n.1 c1\nw.n w.n.2 c2\nw.n w.n.3 c1\nw.n w.n.4 c2\n";
static const char f_mapping[] = "w.n w.n.1 s1\nw.n w.n.2 s2\n";
static const char f_test[] = "w.n w.n.3 s1\nw.n w.n.4 s2\n";

/*
 * Every reader that takes a path, on files: map, key, filter, answers
 * (1 right of 2: correct 1), estimates, annotations (the key and the
 * answers as two annotators), WSI gold and clusters, a supervised split
 * from files (c1 -> s1, c2 -> s2: both test instances right, recall 1),
 * graded gold and system, the report's subset and system.
 */
static void scen_files(struct run *r)
{
	struct tageval_inventory *inv = NULL, *inv2 = NULL;
	struct tageval_key *k = NULL;
	struct tageval_filter *f = NULL;
	struct tageval_scorer *sc = NULL;
	struct tageval_annotations *ann = NULL;
	struct tageval_wsi *w = NULL;
	struct tageval_supervised *sup = NULL;
	struct tageval_graded *g = NULL;
	struct tageval_report *rep = NULL;
	struct tageval_key *k2 = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_inventory_read_map(inv, map_path, &r->err));
	TRY(tageval_key_read(inv, key_path, &k, &r->err));
	NEED(f = tageval_filter_new());
	TRY(tageval_filter_read_instances(f, key_path, &r->err));
	TRY(tageval_filter_read_tags(f, inv, map_path, &r->err));
	TRY(tageval_scorer_new(inv, k, NULL, &sc, &r->err));
	TRY(tageval_scorer_read(sc, ans_path, &r->err));
	struct tageval_score s;
	tageval_scorer_result(sc, &s);
	r->fig[0] = s.correct;
	TRY(tageval_inventory_estimate_downward(inv, key_path, 1.0, &r->err));
	TRY(tageval_annotations_new(inv, &ann));
	TRY(tageval_annotations_read(ann, key_path, &r->err));
	TRY(tageval_annotations_read(ann, ans_path, &r->err));
	NEED(w = tageval_wsi_new());
	TRY(tageval_wsi_read_gold(w, gold_path, &r->err));
	TRY(tageval_wsi_read_clusters(w, sys_path, &r->err));
	TRY(tageval_supervised_new(w, NULL, &sup, &r->err));
	TRY(tageval_supervised_add_files(sup, map2_path, test2_path, &r->err));
	struct tageval_supervised_result sr;
	TRY(tageval_supervised_evaluate(sup, 0, &sr, NULL, &r->err));
	r->fig[1] = sr.recall;
	NEED(g = tageval_graded_new());
	TRY(tageval_graded_read_gold(g, gold_path, &r->err));
	TRY(tageval_graded_read_system(g, sys_path, &r->err));
	r->fig[2] = (double)tageval_graded_instances(g);
	NEED(inv2 = tageval_inventory_new());
	TRY(tageval_key_read(inv2, key_path, &k2, &r->err));
	TRY(tageval_report_new(inv2, k2, NULL, &rep, &r->err));
	TRY(tageval_report_add_subset(rep, "mine", key_path, &r->err));
	TRY(tageval_report_add_system(rep, "S", ans_path, &r->err));
	r->fig[3] = (double)tageval_report_systems(rep);
out:
	tageval_report_free(rep);
	tageval_key_free(k2);
	tageval_inventory_free(inv2);
	tageval_graded_free(g);
	tageval_supervised_free(sup);
	tageval_wsi_free(w);
	tageval_annotations_free(ann);
	tageval_scorer_free(sc);
	tageval_filter_free(f);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/*
 * A sense map (a1x and a1y under a1, factor 2; a2), a filter (instances
 * w.n 1 and w.n 2; tags a1x and a2) and coarse scoring: key w.n 1 a1x,
 * 2 a2, 3 a1x; answers 1 a1y (coarse a1 = a1: 1), 2 a1x (a1 vs a2: 0),
 * 3 a1x (filtered out).  correct 1, total 2, filtered 1.
 */
static void scen_map_filter_coarse(struct run *r)
{
	static const char map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
	static const char key[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1x\n";
	static const char inst[] = "w.n 1\nw.n 2\n";
	static const char tags[] = "a1x a2\n";
	static const char ans[] = "w.n 1 a1y\nw.n 2 a1x\nw.n 3 a1x\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL;
	struct tageval_filter *f = NULL;
	struct tageval_scorer *sc = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_inventory_read_map_buffer(inv, map, LEN(map), "map", &r->err));
	TRY(tageval_key_read_buffer(inv, key, LEN(key), "key", &k, &r->err));
	NEED(f = tageval_filter_new());
	TRY(tageval_filter_read_instances_buffer(f, inst, LEN(inst), "inst", &r->err));
	TRY(tageval_filter_read_tags_buffer(f, inv, tags, LEN(tags), "tags", &r->err));
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.granularity = TAGEVAL_COARSE;
	o.filter = f;
	TRY(tageval_scorer_new(inv, k, &o, &sc, &r->err));
	TRY(tageval_scorer_read_buffer(sc, ans, LEN(ans), "answers", &r->err));
	struct tageval_score s;
	tageval_scorer_result(sc, &s);
	r->fig[0] = s.correct;
	r->fig[1] = s.total;
	r->fig[2] = (double)s.filtered;
out:
	tageval_scorer_free(sc);
	tageval_filter_free(f);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

static void count_event(const struct tageval_answer_event *ev, void *data)
{
	(void)ev;
	++*(size_t *)data;
}

/*
 * Mixed granularity, conjunctive and minimal policies, with an event per
 * answer line: key w.n 1 a1x, 2 a2, 3 "a1x a2" (left out: minimal); the
 * answers name the key tags of 1 and 2: credit 1 for each of the 2 key
 * tags, total 2; 3 events (instance 3's answer is reported too).
 */
static void scen_mixed_conjunctive(struct run *r)
{
	static const char map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
	static const char key[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1x a2\n";
	static const char ans[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL;
	struct tageval_scorer *sc = NULL;
	size_t events = 0;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_inventory_read_map_buffer(inv, map, LEN(map), "map", &r->err));
	TRY(tageval_key_read_buffer(inv, key, LEN(key), "key", &k, &r->err));
	struct tageval_score_options o;
	tageval_score_options_init(&o);
	o.granularity = TAGEVAL_MIXED;
	o.conjunctive = 1;
	o.minimal = 1;
	o.on_answer = count_event;
	o.userdata = &events;
	TRY(tageval_scorer_new(inv, k, &o, &sc, &r->err));
	TRY(tageval_scorer_read_buffer(sc, ans, LEN(ans), "answers", &r->err));
	struct tageval_score s;
	tageval_scorer_result(sc, &s);
	r->fig[0] = s.correct;
	r->fig[1] = s.total;
	r->fig[2] = (double)events;
out:
	tageval_scorer_free(sc);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/*
 * The hierarchy: map as above, downward probabilities estimated (alpha 1)
 * from a1x twice, a1y once: n(a1x) 2, n(a1y) 1, c(a1) 0, k = b = 2, so
 * D = 3 + 2 = 5 and P(a1x | a1) = (2 + 1) / 5 = 0.6; the distribution of
 * a1 gives a1x 0.6 over 2 leaves; the coarse tag of a1x is a1.  A tag
 * interned afterwards makes 5 with the map's 4.
 */
static void scen_hierarchy(struct run *r)
{
	static const char map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
	static const char corpus[] = "w.n 1 a1x\nw.n 2 a1x\nw.n 3 a1y\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_dist *d = NULL;
	size_t a1, a1x, coarse;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_inventory_read_map_buffer(inv, map, LEN(map), "map", &r->err));
	TRY(tageval_inventory_estimate_downward_buffer(inv, corpus, LEN(corpus), "corpus", 1.0,
						       &r->err));
	NEED(d = tageval_dist_new());
	TRY(tageval_inventory_find(inv, "a1", &a1));
	TRY(tageval_inventory_find(inv, "a1x", &a1x));
	TRY(tageval_inventory_distribute(inv, a1, d));
	r->fig[0] = tageval_dist_get(d, a1x);
	r->fig[1] = (double)tageval_dist_size(d);
	TRY(tageval_inventory_coarse(inv, a1x, &coarse, &r->err));
	r->fig[2] = coarse == a1;
	size_t zz;
	TRY(tageval_inventory_intern(inv, "zz", &zz));
	r->fig[3] = (double)tageval_inventory_size(inv);
out:
	tageval_dist_free(d);
	tageval_inventory_free(inv);
}

/*
 * Two annotators' files, a1 and a2, read into a new set of annotations over
 * a new inventory (*inv and *ann, for the caller to free, NULL until made).
 */
static int read_two(struct run *r, const char *a1, size_t n1, const char *a2, size_t n2,
		    struct tageval_inventory **inv, struct tageval_annotations **ann)
{
	if ((*inv = tageval_inventory_new()) == NULL)
		return TAGEVAL_ENOMEM;
	int rc = tageval_annotations_new(*inv, ann);
	if (rc == TAGEVAL_OK)
		rc = tageval_annotations_read_buffer(*ann, a1, n1, "a1", &r->err);
	if (rc == TAGEVAL_OK)
		rc = tageval_annotations_read_buffer(*ann, a2, n2, "a2", &r->err);
	return rc;
}

/*
 * Two annotators on 4 items, agreeing on 3: pr_a = 3/4; pooled marginals
 * a 3/8, b 5/8: pr_e = 9/64 + 25/64 = 34/64, kappa = (48/64 - 34/64) /
 * (30/64) = 14/30 = 7/15.  With 50 bootstrap replicates (seed 1).
 */
static void scen_agreement(struct run *r)
{
	static const char a1[] = "w.n 1 a\nw.n 2 b\nw.n 3 a\nw.n 4 b\n";
	static const char a2[] = "w.n 1 a\nw.n 2 b\nw.n 3 b\nw.n 4 b\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_annotations_new(inv, &ann));
	TRY(tageval_annotations_read_buffer(ann, a1, LEN(a1), "a1", &r->err));
	TRY(tageval_annotations_read_buffer(ann, a2, LEN(a2), "a2", &r->err));
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = 50;
	o.seed = 1;
	o.confidence = 0.95;
	TRY(tageval_agreement_compute(ann, &o, &ag, &r->err));
	r->fig[0] = tageval_agreement_pooled(ag)->pr_a;
	r->fig[1] = tageval_agreement_pooled(ag)->kappa;
	double lo, hi;
	size_t used = 0;
	int rc = tageval_agreement_interval(ag, TAGEVAL_KAPPA, &lo, &hi, &used);
	r->fig[2] = rc == TAGEVAL_OK || rc == TAGEVAL_ENOTFOUND;
out:
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
}

/*
 * The annotations of scen_agreement with --weights' distances, D(a, b) = 1:
 * Cohen's kappa, p_o 3/4, p_e 1/2 * 1/4 + 1/2 * 3/4 = 1/2, kappa 1/2 (its
 * standard error asked at 95 %); Gwet's AC2 with w the identity: pi a 3/8,
 * b 5/8, T_w = 2, p_e = 2/2 * 2 * 3/8 * 5/8 = 15/32, AC2 = (3/4 - 15/32) /
 * (17/32) = 9/17; then tageval_agreement_kappa_distances(): 1/2 again.
 */
static void scen_agreement_weighted(struct run *r)
{
	static const char a1[] = "w.n 1 a\nw.n 2 b\nw.n 3 a\nw.n 4 b\n";
	static const char a2[] = "w.n 1 a\nw.n 2 b\nw.n 3 b\nw.n 4 b\n";
	static const struct tageval_label_distance pairs[] = { { "b", "a", 1.0 } };
	struct tageval_inventory *inv = NULL;
	struct tageval_annotations *ann = NULL;
	TRY(read_two(r, a1, LEN(a1), a2, LEN(a2), &inv, &ann));
	struct tageval_weighted_figures wf;
	TRY(tageval_agreement_weighted(ann, pairs, 1, 0.95, &wf, &r->err));
	r->fig[0] = wf.kappa.value;
	r->fig[1] = wf.ac2;
	struct tageval_weighted_kappa wk;
	TRY(tageval_agreement_kappa_distances(ann, pairs, 1, &wk, &r->err));
	r->fig[2] = wk.value;
out:
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
}

/*
 * The annotations of scen_agreement_weighted, the chance-corrected
 * coefficients and alpha in one pass (tageval_agreement_chance_alpha):
 * alpha nominal, units of 2: item 3 (a, b) the only term, 2 / 1, n = 8,
 * D_o = 2/8; n_a 3, n_b 5, D_e = (64 - 9 - 25) / 56 = 15/28, alpha = 1 -
 * (1/4) (28/15) = 8/15.  AC1: p_a 3/4, pi a 3/8, b 5/8, p_e = 2 (3/8)(5/8)
 * = 15/32, AC1 = (9/32) / (17/32) = 9/17; Brennan-Prediger (3/4 - 1/2) /
 * (1/2) = 1/2.
 */
static void scen_chance_alpha(struct run *r)
{
	static const char a1[] = "w.n 1 a\nw.n 2 b\nw.n 3 a\nw.n 4 b\n";
	static const char a2[] = "w.n 1 a\nw.n 2 b\nw.n 3 b\nw.n 4 b\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_annotations *ann = NULL;
	TRY(read_two(r, a1, LEN(a1), a2, LEN(a2), &inv, &ann));
	struct tageval_chance_figures ch;
	struct tageval_alpha_figures lv;
	TRY(tageval_agreement_chance_alpha(ann, 0, 0, &ch, &lv, &r->err));
	r->fig[0] = lv.alpha[TAGEVAL_NOMINAL];
	r->fig[1] = ch.value[TAGEVAL_GWET_AC1];
	r->fig[2] = ch.value[TAGEVAL_BRENNAN_PREDIGER];
out:
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
}

/*
 * The file of --weights read by the library (tageval_agreement_weighted_read_buffer),
 * with a byte-order mark, CR LF, comments of both kinds: the annotations of
 * test-weights.c, (a,a) (a,b) (a,c) (b,b) (c,b), D(a,b) 0.5, D(a,c) 1,
 * D(b,c) 0.25: kappa 1/8, AC2 19/124 (the arithmetic is in test-weights.c),
 * 3 categories; standard errors asked at 95 %.
 */
static void scen_weights_file(struct run *r)
{
	static const char a1[] = "w 1 a\nw 2 a\nw 3 a\nw 4 b\nw 5 c\n";
	static const char a2[] = "w 1 a\nw 2 b\nw 3 c\nw 4 b\nw 5 b\n";
	static const char wf_text[] = "\xef\xbb\xbf# letters\r\na b 0.5 !! half\r\n"
				      "\nc a 1\nb c 0.25\na z 0.3\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_annotations *ann = NULL;
	TRY(read_two(r, a1, LEN(a1), a2, LEN(a2), &inv, &ann));
	struct tageval_weighted_figures wf;
	TRY(tageval_agreement_weighted_read_buffer(ann, wf_text, LEN(wf_text), "w", 0.95, &wf,
						   &r->err));
	r->fig[0] = wf.kappa.value;
	r->fig[1] = wf.ac2;
	r->fig[2] = (double)wf.categories;
out:
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
}

/* Gold and clusters in one-to-one correspondence (s1 = c1, s2 = c2). */
static const char wsi_gold[] = "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s1\nw.n w.n.4 s2\n"
			       "w.n w.n.5 s1\nw.n w.n.6 s2\n";
static const char wsi_sys[] = "w.n w.n.1 c1\nw.n w.n.2 c2\nw.n w.n.3 c1\nw.n w.n.4 c2\n"
			      "w.n w.n.5 c1\nw.n w.n.6 c2\n";

static int wsi_load(struct tageval_wsi **w, const char *gold, size_t ng, const char *sys,
		    size_t ns, struct tageval_error *err)
{
	*w = tageval_wsi_new();
	if (*w == NULL)
		return TAGEVAL_ENOMEM;
	int rc = tageval_wsi_read_gold_buffer(*w, gold, ng, "gold", err);
	if (rc == TAGEVAL_OK)
		rc = tageval_wsi_read_clusters_buffer(*w, sys, ns, "clusters", err);
	return rc;
}

/*
 * WSI, SemEval-2010/2007 figures: a perfect clustering has homogeneity,
 * completeness and V-measure 1, paired F-score 1; 6 instances.
 */
static void scen_wsi(struct run *r)
{
	struct tageval_wsi *w = NULL;
	struct tageval_wsi_result *res = NULL;
	TRY(wsi_load(&w, wsi_gold, LEN(wsi_gold), wsi_sys, LEN(wsi_sys), &r->err));
	TRY(tageval_wsi_evaluate(w, NULL, &res, &r->err));
	r->fig[0] = tageval_wsi_result_total(res)->v_measure;
	r->fig[1] = tageval_wsi_result_total(res)->paired_fscore;
	r->fig[2] = (double)tageval_wsi_result_total(res)->instances;
out:
	tageval_wsi_result_free(res);
	tageval_wsi_free(w);
}

/* Crisp clustering metrics of the perfect clustering: ARI 1, B-cubed F 1, NMI 1. */
static void scen_clustering_crisp(struct run *r)
{
	struct tageval_wsi *w = NULL;
	struct tageval_clustering_result *res = NULL;
	TRY(wsi_load(&w, wsi_gold, LEN(wsi_gold), wsi_sys, LEN(wsi_sys), &r->err));
	TRY(tageval_clustering_evaluate(w, NULL, &res, &r->err));
	r->fig[0] = tageval_clustering_result_total(res)->ari;
	r->fig[1] = tageval_clustering_result_total(res)->bcubed_fscore;
	r->fig[2] = tageval_clustering_result_pooled(res)->nmi;
	r->fig[3] = tageval_clustering_result_fuzzy(res);
out:
	tageval_clustering_result_free(res);
	tageval_wsi_free(w);
}

/*
 * Graded (fuzzy) clustering metrics: the worked example of
 * reference-wsi2013.md section 3, fuzzy B-cubed R = (1/2 + 1 + 1/3 + 0) / 4
 * = 11/24 and P = (1 + 1 + 1 + 0) / 4 = 3/4; one word.
 */
static void scen_clustering_fuzzy(struct run *r)
{
	static const char gold[] = "w.n w.n.1 s1/4\nw.n w.n.2 s1/5\nw.n w.n.3 s1/2 s2/4\n"
				   "w.n w.n.4 s2/3\n";
	static const char sys[] = "w.n w.n.1 c1\nw.n w.n.2 c1/2 c2/1\nw.n w.n.3 c2/1\n"
				  "w.n w.n.4 c3\n";
	struct tageval_wsi *w = NULL;
	struct tageval_clustering_result *res = NULL;
	TRY(wsi_load(&w, gold, LEN(gold), sys, LEN(sys), &r->err));
	TRY(tageval_clustering_evaluate(w, NULL, &res, &r->err));
	r->fig[0] = tageval_clustering_result_fuzzy(res);
	r->fig[1] = tageval_clustering_result_figures(res, 0)->bcubed_precision;
	r->fig[2] = tageval_clustering_result_figures(res, 0)->bcubed_recall;
	r->fig[3] = (double)tageval_clustering_result_words(res);
out:
	tageval_clustering_result_free(res);
	tageval_wsi_free(w);
}

/*
 * The table entry points: the 2 x 2 table diag(2, 2) has V-measure 1 and
 * ARI 1; the fuzzy table of two instances, both in gold label 0 and in
 * system label 5 with membership 1, has B-cubed F 1 (each instance has the
 * other as its one neighbour, agreements 1 on both sides).
 */
static void scen_tables(struct run *r)
{
	static const double n[] = { 2, 0, 0, 2 };
	static const struct tageval_membership gold[] = { { 0, 0, 1.0 }, { 1, 0, 1.0 } };
	static const struct tageval_membership sys[] = { { 0, 5, 1.0 }, { 1, 5, 1.0 } };
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf, ff;
	TRY(tageval_wsi_table_figures(n, 2, 2, 1.0, &wf));
	TRY(tageval_clustering_table(n, 2, 2, TAGEVAL_NORMALIZER_DEFAULT, &cf));
	TRY(tageval_clustering_fuzzy_table(gold, 2, sys, 2, 2, 2, TAGEVAL_NORMALIZER_DEFAULT,
					   &ff));
	r->fig[0] = wf.v_measure;
	r->fig[1] = cf.ari;
	r->fig[2] = ff.bcubed_fscore;
out:
	return;
}

/*
 * Supervised evaluation: split 0 from a mapping key (w.n.1-4) and a test
 * key (w.n.5 s1, w.n.6 s2): c1 maps to s1 and c2 to s2, both test
 * instances answered right: recall 1 of 2.  Then 2 folds and 2 random
 * splits (5 in all), each evaluated with its mapped answers.
 */
static void scen_supervised(struct run *r)
{
	static const char mapping[] = "w.n w.n.1 s1\nw.n w.n.2 s2\nw.n w.n.3 s1\nw.n w.n.4 s2\n";
	static const char test[] = "w.n w.n.5 s1\nw.n w.n.6 s2\n";
	struct tageval_wsi *w = NULL;
	struct tageval_supervised *s = NULL;
	char *mapped = NULL;
	TRY(wsi_load(&w, wsi_gold, LEN(wsi_gold), wsi_sys, LEN(wsi_sys), &r->err));
	TRY(tageval_supervised_new(w, NULL, &s, &r->err));
	TRY(tageval_supervised_add_buffers(s, mapping, LEN(mapping), test, LEN(test), &r->err));
	TRY(tageval_supervised_add_folds(s, 2, 1, &r->err));
	TRY(tageval_supervised_add_random(s, 2, 0.5, 1, &r->err));
	r->fig[0] = (double)tageval_supervised_splits(s);
	for (size_t i = 0; i < tageval_supervised_splits(s); i++) {
		struct tageval_supervised_result res;
		TRY(tageval_supervised_evaluate(s, i, &res, &mapped, &r->err));
		free(mapped);
		mapped = NULL;
		if (i == 0) {
			r->fig[1] = res.recall;
			r->fig[2] = (double)res.answered;
		}
	}
out:
	free(mapped);
	tageval_supervised_free(s);
	tageval_wsi_free(w);
}

/*
 * Graded WSD (SemEval-2013 WSD setting): a system identical to the gold
 * key, scored without remapping: every answered instance has Jaccard 1
 * (the same label sets), and all 6 are answered.  Then with remapping over
 * shuffled folds (seed 3), and the per-instance entry point: gold a (1),
 * system a (1), k = 1: Jaccard 1.
 */
static void scen_graded(struct run *r)
{
	static const char gold[] = "w.n 1 s1/1 s2/0.5\nw.n 2 s2\nw.n 3 s1\nw.n 4 s2\n"
				   "w.n 5 s1/0.3 s2/1\nw.n 6 s1\n";
	static const char *const gl[] = { "a" };
	static const double gm[] = { 1.0 };
	struct tageval_graded *g = NULL;
	struct tageval_graded_result *res = NULL, *res2 = NULL;
	NEED(g = tageval_graded_new());
	TRY(tageval_graded_read_gold_buffer(g, gold, LEN(gold), "gold", &r->err));
	TRY(tageval_graded_read_system_buffer(g, gold, LEN(gold), "system", &r->err));
	struct tageval_graded_options o;
	tageval_graded_options_init(&o);
	o.no_remapping = 1;
	TRY(tageval_graded_evaluate(g, &o, &res, &r->err));
	r->fig[0] = tageval_graded_result_total(res)->jaccard;
	r->fig[1] = (double)tageval_graded_result_total(res)->answered;
	o.no_remapping = 0;
	o.shuffle = 1;
	o.seed = 3;
	TRY(tageval_graded_evaluate(g, &o, &res2, &r->err));
	double j, t, n;
	TRY(tageval_graded_instance_scores(gl, gm, 1, gl, gm, 1, 1, &j, &t, &n));
	r->fig[2] = j;
out:
	tageval_graded_result_free(res2);
	tageval_graded_result_free(res);
	tageval_graded_free(g);
}

/*
 * The Senseval report (the fixture of test-report.c): map, test key of 10
 * items, training key; a user subset; system S1 (4 answers, 3 right:
 * correct 3, attempted 4 on "all", fine, full); the three baselines.
 * 4 systems in all.
 */
static void scen_report(struct run *r)
{
	static const char map[] = "a1\na1x 2 a1\na1y 2 a1\na2\n";
	static const char key[] = "w.n 1 a1x\nw.n 2 a2\nw.n 3 a1x a2\nw.n 4 U\n"
				  "x.v 1 b1\nx.v 2 b2\ny-a 1 c1\nz-p 1 d1\nv-n 1 e1\nv-n 2 e2\n";
	static const char train[] = "w.n t1 a1x\nw.n t2 a1x\nw.n t3 a2\nw.n t4 a1y a2\n"
				    "x.v t1 b2\nx.v t2 b1\n";
	static const char s1[] = "w.n 1 a1x\nw.n 2 a2\nw.n 4 U\nx.v 1 b2\n";
	static const char sub[] = "w.n 1\nx.v 2\n";
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL, *t = NULL;
	struct tageval_report *rep = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_inventory_read_map_buffer(inv, map, LEN(map), "map", &r->err));
	TRY(tageval_key_read_buffer(inv, key, LEN(key), "key", &k, &r->err));
	TRY(tageval_key_read_buffer(inv, train, LEN(train), "train", &t, &r->err));
	TRY(tageval_report_new(inv, k, t, &rep, &r->err));
	TRY(tageval_report_add_subset_buffer(rep, "mine", sub, LEN(sub), "sub", &r->err));
	TRY(tageval_report_add_system_buffer(rep, "S1", s1, LEN(s1), "s1", &r->err));
	TRY(tageval_report_add_baseline(rep, TAGEVAL_BASELINE_RANDOM, &r->err));
	TRY(tageval_report_add_baseline(rep, TAGEVAL_BASELINE_RANDOM_MAIN, &r->err));
	TRY(tageval_report_add_baseline(rep, TAGEVAL_BASELINE_COMMONEST, &r->err));
	size_t all;
	TRY(tageval_report_find_subset(rep, "all", &all));
	struct tageval_report_cell c;
	TRY(tageval_report_cell(rep, all, 0, 0, 0, &c));
	struct tageval_report_summary sum;
	TRY(tageval_report_summarize(rep, all, 0, 0, &sum));
	r->fig[0] = c.correct;
	r->fig[1] = c.attempted;
	r->fig[2] = (double)tageval_report_systems(rep);
out:
	tageval_report_free(rep);
	tageval_key_free(t);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/*
 * A sense-induction report (tageval_wsi_report): two protocols (2 folds,
 * random splits), the three baselines, two clusterings, the supervised
 * copies dropped and made again between them.  The gold key has a comment
 * and a blank line (the gaps of its line numbers): w.n s1 s1 s2 s2, v.v t1
 * t1.  The one-cluster-per-word baseline: w.n one cluster of 4, F(s1) =
 * F(s2) = 2 * (2/4 * 2/2) / (2/4 + 2/2) = 2/3; v.v F = 1; the F-score over
 * the instances (4 * 2/3 + 2 * 1) / 6 = 7/9.  The clustering "p" puts
 * each sense in a cluster of its own (v.v's lines both read as d1, their
 * first label, in the SemEval-2007 reading): F-score 1.  2 folds: 2 splits.
 */
static void scen_wsi_report(struct run *r)
{
	static const char gold[] = "!! c\nw.n w.n.1 s1\n\nw.n w.n.2 s1\nw.n w.n.3 s2\n"
				   "w.n w.n.4 s2\nv.v v.v.1 t1\nv.v v.v.2 t1\n";
	static const char p[] = "w.n w.n.4 c2\nw.n w.n.1 c1\nw.n w.n.2 c1\nw.n w.n.3 c2\n"
				"v.v v.v.1 d1/0.5 d2/0.5\nv.v v.v.2 d1/0.5 d2/0.5\n";
	static const char q[] = "w.n w.n.1 c1\nv.v v.v.2 d1\n";
	struct tageval_wsi_report *rep = NULL;
	struct tageval_supervised_result *res = NULL;
	size_t n = 0, pf, pr;
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	TRY(tageval_wsi_report_new_buffer(gold, LEN(gold), "gold", &rep, &r->err));
	TRY(tageval_wsi_report_add_folds(rep, NULL, 2, 1, &pf, &r->err));
	TRY(tageval_wsi_report_add_random(rep, "n", 2, 0.5, 1, &pr, &r->err));
	TRY(tageval_wsi_report_baseline(rep, TAGEVAL_WSI_1C1W, 1, 0, &r->err));
	TRY(tageval_wsi_report_figures(rep, NULL, 7, &wf, &cf, NULL, &r->err));
	r->fig[0] = wf.fscore;
	TRY(tageval_wsi_report_supervised(rep, pf, &res, &n, &r->err));
	free(res);
	res = NULL;
	TRY(tageval_wsi_report_baseline(rep, TAGEVAL_WSI_1C1INST, 1, 0, &r->err));
	TRY(tageval_wsi_report_supervised(rep, pr, &res, &n, &r->err));
	free(res);
	res = NULL;
	TRY(tageval_wsi_report_baseline(rep, TAGEVAL_WSI_RANDOM, 1, 3, &r->err));
	TRY(tageval_wsi_report_supervised(rep, pf, &res, &n, &r->err));
	free(res);
	res = NULL;
	TRY(tageval_wsi_report_read_clusters_buffer(rep, q, LEN(q), "q", &r->err));
	TRY(tageval_wsi_report_supervised(rep, pr, &res, &n, &r->err));
	free(res);
	res = NULL;
	TRY(tageval_wsi_report_read_clusters_buffer(rep, p, LEN(p), "p", &r->err));
	TRY(tageval_wsi_report_figures(rep, NULL, 7, &wf, &cf, NULL, &r->err));
	r->fig[1] = wf.fscore;
	TRY(tageval_wsi_report_supervised(rep, pf, &res, &n, &r->err));
	r->fig[2] = (double)n;
out:
	free(res);
	tageval_wsi_report_free(rep);
}

/*
 * Larger inputs, made in main() before any test (so that their allocations
 * are not counted): enough lines that the interning tables rehash and the
 * arrays grow, and one line longer than the reader's first buffer.
 * BIG_WORDS words x BIG_PER instances.
 */
#define BIG_WORDS 40
#define BIG_PER 12
#define BIG_N (BIG_WORDS * BIG_PER)
static char *big_key, *big_ans, *big_gold, *big_sys;
static size_t big_key_len, big_ans_len, big_gold_len, big_sys_len;

static int make_big(void)
{
	size_t cap = (size_t)BIG_N * 64 + 400000;
	big_key = malloc(cap);
	big_ans = malloc(cap);
	big_gold = malloc(cap);
	big_sys = malloc(cap);
	if (!big_key || !big_ans || !big_gold || !big_sys)
		return -1;
	char *k = big_key, *a = big_ans, *g = big_gold, *y = big_sys;
	for (unsigned w = 0; w < BIG_WORDS; w++)
		for (unsigned i = 0; i < BIG_PER; i++) {
			/* sense i % 3 of word w; the answer names it (and, every
			 * fourth line, a second tag of weight 0) */
			unsigned tag = w * 3 + i % 3;
			k += sprintf(k, "w%u.n %u s%u\n", w, i, tag);
			if (i % 4 == 0)
				a += sprintf(a, "w%u.n %u s%u/1 zz/0\n", w, i, tag);
			else
				a += sprintf(a, "w%u.n %u s%u\n", w, i, tag);
			g += sprintf(g, "w%u.n w%u.n.%u s%u\n", w, w, i, i % 3);
			y += sprintf(y, "w%u.n w%u.n.%u c%u\n", w, w, i, i % 3);
		}
	/* a comment of 300,000 bytes: a line longer than the reader's chunk */
	memcpy(a, "w0.n 0 s0 !! ", 13);
	a += 13;
	memset(a, 'x', 300000);
	a += 300000;
	*a++ = '\n';
	big_key_len = (size_t)(k - big_key);
	big_ans_len = (size_t)(a - big_ans);
	big_gold_len = (size_t)(g - big_gold);
	big_sys_len = (size_t)(y - big_sys);
	return 0;
}

/*
 * The large key scored against answers naming every key tag (zz/0 adds
 * nothing): correct = attempted = total = 480; the long last line repeats
 * w0.n 0: excluded.
 */
static void scen_big_scorer(struct run *r)
{
	struct tageval_inventory *inv = NULL;
	struct tageval_key *k = NULL;
	struct tageval_scorer *sc = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_key_read_buffer(inv, big_key, big_key_len, "key", &k, &r->err));
	TRY(tageval_scorer_new(inv, k, NULL, &sc, &r->err));
	TRY(tageval_scorer_read_buffer(sc, big_ans, big_ans_len, "answers", &r->err));
	struct tageval_score s;
	tageval_scorer_result(sc, &s);
	r->fig[0] = s.correct;
	r->fig[1] = s.attempted;
	r->fig[2] = s.total;
	r->fig[3] = (double)s.excluded;
out:
	tageval_scorer_free(sc);
	tageval_key_free(k);
	tageval_inventory_free(inv);
}

/*
 * The large key as two identical annotators (the answers, weights and all,
 * against the key): pr_a = 1 on all 480 items; 20 bootstrap replicates.
 */
static void scen_big_agreement(struct run *r)
{
	struct tageval_inventory *inv = NULL;
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	NEED(inv = tageval_inventory_new());
	TRY(tageval_annotations_new(inv, &ann));
	TRY(tageval_annotations_read_buffer(ann, big_key, big_key_len, "a1", &r->err));
	TRY(tageval_annotations_read_buffer(ann, big_key, big_key_len, "a2", &r->err));
	struct tageval_agreement_options o;
	tageval_agreement_options_init(&o);
	o.bootstrap = 20;
	TRY(tageval_agreement_compute(ann, &o, &ag, &r->err));
	r->fig[0] = tageval_agreement_pooled(ag)->pr_a;
	r->fig[1] = (double)tageval_agreement_pooled(ag)->items;
	r->fig[2] = (double)tageval_agreement_lexelts(ag);
out:
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
}

/*
 * Large WSI data, cluster c<k> = sense s<k> in every word: V-measure 1,
 * crisp ARI 1; supervised with 3 folds (3 splits), each mapped and scored.
 */
static void scen_big_wsi(struct run *r)
{
	struct tageval_wsi *w = NULL;
	struct tageval_wsi_result *res = NULL;
	struct tageval_clustering_result *cres = NULL;
	struct tageval_supervised *s = NULL;
	char *mapped = NULL;
	TRY(wsi_load(&w, big_gold, big_gold_len, big_sys, big_sys_len, &r->err));
	TRY(tageval_wsi_evaluate(w, NULL, &res, &r->err));
	r->fig[0] = tageval_wsi_result_total(res)->v_measure;
	TRY(tageval_clustering_evaluate(w, NULL, &cres, &r->err));
	r->fig[1] = tageval_clustering_result_total(cres)->ari;
	TRY(tageval_supervised_new(w, NULL, &s, &r->err));
	TRY(tageval_supervised_add_folds(s, 3, 7, &r->err));
	r->fig[2] = (double)tageval_supervised_splits(s);
	for (size_t i = 0; i < tageval_supervised_splits(s); i++) {
		struct tageval_supervised_result sr;
		TRY(tageval_supervised_evaluate(s, i, &sr, &mapped, &r->err));
		free(mapped);
		mapped = NULL;
	}
out:
	free(mapped);
	tageval_supervised_free(s);
	tageval_clustering_result_free(cres);
	tageval_wsi_result_free(res);
	tageval_wsi_free(w);
}

/*
 * Supervised evaluation in parts (evaluate_all() shares the words out to
 * the cores, parts of 1,024 instances or more): words of 1,100, 60, 1,100
 * and 1,100 instances (3,360: 3 parts, cut at 1,120 and 2,240 instances:
 * {w0, w1}, {w2}, {w3}), gold s0-s2 by instance number mod 3, clusters c0-c2
 * the same, but c0-c29 (mod 30) in w1, so that part 0's scratch grows
 * for w1 after w0 (a failure there once left it half made for the next
 * part to take: a crash); 3 folds evaluated without the mapped answers.
 * Cluster ck holds only instances of sense s(k mod 3) (30 is a multiple of
 * 3): every answered test instance is right, precision 1 in each fold (a
 * w1 cluster no mapping instance has leaves its test instances
 * unanswered: recall may fall short); the folds test 3,360 in all.  A
 * part that fails stops the others (the splits are then evaluated one by
 * one: the same figures).
 */
#define PARTS_WORDS 4
#define PARTS_N (1100 + 60 + 1100 + 1100)
static char *parts_gold, *parts_sys;
static size_t parts_gold_len, parts_sys_len;

static int make_parts(void)
{
	static const unsigned per[PARTS_WORDS] = { 1100, 60, 1100, 1100 };
	size_t cap = (size_t)PARTS_N * 32;
	parts_gold = malloc(cap);
	parts_sys = malloc(cap);
	if (!parts_gold || !parts_sys)
		return -1;
	char *g = parts_gold, *y = parts_sys;
	for (unsigned w = 0; w < PARTS_WORDS; w++)
		for (unsigned i = 0; i < per[w]; i++) {
			g += sprintf(g, "w%u.n w%u.n.%u s%u\n", w, w, i, i % 3);
			y += sprintf(y, "w%u.n w%u.n.%u c%u\n", w, w, i, i % (w == 1 ? 30 : 3));
		}
	parts_gold_len = (size_t)(g - parts_gold);
	parts_sys_len = (size_t)(y - parts_sys);
	return 0;
}

static void scen_supervised_parts(struct run *r)
{
	struct tageval_wsi *w = NULL;
	struct tageval_supervised *s = NULL;
	TRY(wsi_load(&w, parts_gold, parts_gold_len, parts_sys, parts_sys_len, &r->err));
	TRY(tageval_supervised_new(w, NULL, &s, &r->err));
	TRY(tageval_supervised_add_folds(s, 3, 7, &r->err));
	r->fig[0] = 1.0;
	for (size_t i = 0; i < tageval_supervised_splits(s); i++) {
		struct tageval_supervised_result sr;
		TRY(tageval_supervised_evaluate(s, i, &sr, NULL, &r->err));
		r->fig[0] = sr.precision < r->fig[0] ? sr.precision : r->fig[0];
		r->fig[1] += (double)sr.test;
	}
out:
	tageval_supervised_free(s);
	tageval_wsi_free(w);
}

/* ------------------------------------------------------------ the driver */

struct scenario {
	const char *name;
	void (*run)(struct run *r);
	size_t nfig;
	double fig[4];
};

static const struct scenario scenarios[] = {
	{ "key and scorer", scen_key_scorer, 4, { 2.5, 3.0, 1.0, 2.0 } },
	{ "gzip key file", scen_key_gzip_file, 1, { 3.0 } },
	{ "every path reader", scen_files, 4, { 1.0, 1.0, 4.0, 1.0 } },
	{ "map, filter, coarse", scen_map_filter_coarse, 3, { 1.0, 2.0, 1.0 } },
	{ "mixed, conjunctive, minimal", scen_mixed_conjunctive, 3, { 2.0, 2.0, 3.0 } },
	{ "hierarchy", scen_hierarchy, 4, { 0.6, 2.0, 1.0, 5.0 } },
	{ "agreement", scen_agreement, 3, { 0.75, 7.0 / 15.0, 1.0 } },
	{ "agreement weighted", scen_agreement_weighted, 3, { 0.5, 9.0 / 17.0, 0.5 } },
	{ "chance and alpha in one pass", scen_chance_alpha, 3, { 8.0 / 15.0, 9.0 / 17.0, 0.5 } },
	{ "weights file", scen_weights_file, 3, { 1.0 / 8.0, 19.0 / 124.0, 3.0 } },
	{ "wsi", scen_wsi, 3, { 1.0, 1.0, 6.0 } },
	{ "clustering crisp", scen_clustering_crisp, 4, { 1.0, 1.0, 1.0, 0.0 } },
	{ "clustering fuzzy", scen_clustering_fuzzy, 4, { 1.0, 0.75, 11.0 / 24.0, 1.0 } },
	{ "tables", scen_tables, 3, { 1.0, 1.0, 1.0 } },
	{ "supervised", scen_supervised, 3, { 5.0, 1.0, 2.0 } },
	{ "graded", scen_graded, 3, { 1.0, 6.0, 1.0 } },
	{ "report", scen_report, 3, { 3.0, 4.0, 4.0 } },
	{ "wsi report", scen_wsi_report, 3, { 7.0 / 9.0, 1.0, 2.0 } },
	{ "large key and scorer", scen_big_scorer, 4, { BIG_N, BIG_N, BIG_N, 1.0 } },
	{ "large agreement", scen_big_agreement, 3, { 1.0, BIG_N, BIG_WORDS } },
	{ "large wsi, clustering, supervised", scen_big_wsi, 3, { 1.0, 1.0, 3.0 } },
	{ "supervised in parts", scen_supervised_parts, 2, { 1.0, PARTS_N } },
};

#define NSCEN (sizeof scenarios / sizeof *scenarios)

/*
 * Runs scenario @sc with allocation 1, 2, ... failing (and with @all, every
 * allocation after it too) until a run reaches no failure.
 */
static const struct scenario *current; /* for on_crash */
static unsigned long fail_at_run;

static void fail_in_turn(const struct scenario *sc, int all)
{
	current = sc;
	unsigned long fallbacks = 0;
	ck_assert_msg(libc_lo < libc_hi, "libc's text was not found");
	for (unsigned long n = 1;; n++) {
		struct run r;
		memset(&r, 0, sizeof r);
		failed_caller = NULL;
		long before = live;
		counted = 0;
		injected = 0;
		sticky = all;
		fail_at_run = n;
		fail_at = n;
		sc->run(&r);
		fail_at = 0;
		long leaked = live - before;
		/* the assertions may allocate: only after fail_at is cleared */
		ck_assert_msg(leaked == 0,
			      "%s: allocation %lu failing (called at %s): %ld blocks leaked (rc %d)",
			      sc->name, n, failed_where(), leaked, r.rc);
		if (r.rc == TAGEVAL_OK) {
			/* where the library has a path that needs no memory
			 * (fuzzy B-cubed without its dense rows, mixed scoring
			 * without its shortcut), it takes it: same figures */
			for (size_t i = 0; i < sc->nfig; i++)
				ck_assert_msg(fabs(r.fig[i] - sc->fig[i]) <= TOL,
					      "%s: allocation %lu failing (called at %s): "
					      "figure %zu is %.17g, not %.17g",
					      sc->name, n, injected ? failed_where() : "none", i,
					      r.fig[i], sc->fig[i]);
			if (!injected) {
				printf("%s%s: %lu allocations, each failing in turn: ENOMEM, "
				       "or the same figures %lu times\n",
				       sc->name, all ? " (and every one after)" : "", n - 1,
				       fallbacks);
				break;
			}
			fallbacks++;
			continue;
		}
		ck_assert_msg(injected, "%s: no failure injected (%lu allocations): rc %d: %s",
			      sc->name, counted, r.rc, r.err.message);
		ck_assert_msg(r.rc == TAGEVAL_ENOMEM,
			      "%s: allocation %lu of %lu failing (called at %s): rc %d, "
			      "not TAGEVAL_ENOMEM (%s)",
			      sc->name, n, counted, failed_where(), r.rc, r.err.message);
		ck_assert_msg(r.err.code == 0 || r.err.code == TAGEVAL_ENOMEM,
			      "%s: allocation %lu failing: err.code %d", sc->name, n, r.err.code);
		ck_assert_msg(n < 1000000, "%s: no end in sight", sc->name);
	}
}

START_TEST(one_allocation_fails)
{
	fail_in_turn(&scenarios[_i], 0);
}
END_TEST

START_TEST(every_allocation_from_n_fails)
{
	fail_in_turn(&scenarios[_i], 1);
}
END_TEST

static Suite *nomem_suite(void)
{
	Suite *s = suite_create("nomem");
	TCase *tc = tcase_create("allocation N fails");
	tcase_add_loop_test(tc, one_allocation_fails, 0, (int)NSCEN);
	tcase_add_loop_test(tc, every_allocation_from_n_fails, 0, (int)NSCEN);
	suite_add_tcase(s, tc);
	return s;
}

/* Writes @data to a new file @name of the temporary directory; its path into @path. */
static int write_file(char *path, const char *name, const void *data, size_t size)
{
	snprintf(path, 128, "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "wb");
	if (fp == NULL)
		return -1;
	size_t n = fwrite(data, 1, size, fp);
	return (fclose(fp) != 0 || n != size) ? -1 : 0;
}

/* A crash names the scenario and the failing allocation before Check
 * reports the signal. */
static void on_crash(int sig)
{
	if (current != NULL) {
		char msg[700];
		int n = snprintf(msg, sizeof msg,
				 "nomem: %s: signal %d with allocation %lu failing%s (called at %s)\n",
				 current->name, sig, fail_at_run, sticky ? " (and every one after)" : "",
				 failed_where());
		if (n > 0)
			(void)!write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static int under_valgrind(void)
{
#ifdef HAVE_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		return 1;
#endif
	const char *pre = getenv("LD_PRELOAD");
	return pre != NULL && strstr(pre, "vgpreload") != NULL;
}

int main(void)
{
	if (under_valgrind()) {
		puts("nomem: skipped under valgrind (it replaces malloc)");
		return 77;
	}
	dl_iterate_phdr(find_libc, NULL);
	signal(SIGSEGV, on_crash);
	signal(SIGABRT, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	if (make_big() != 0 || make_parts() != 0) {
		perror("nomem: inputs");
		return 99;
	}
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/tageval-nomem-XXXXXX", t && *t && strlen(t) < 40 ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL || write_file(gz_path, "key.gz", key_gz, sizeof key_gz) ||
	    write_file(map_path, "map", f_map, LEN(f_map)) ||
	    write_file(key_path, "key", f_key, LEN(f_key)) ||
	    write_file(ans_path, "answers", f_ans, LEN(f_ans)) ||
	    write_file(gold_path, "gold", f_gold, LEN(f_gold)) ||
	    write_file(sys_path, "clusters", f_sys, LEN(f_sys)) ||
	    write_file(map2_path, "mapping", f_mapping, LEN(f_mapping)) ||
	    write_file(test2_path, "test", f_test, LEN(f_test))) {
		perror("nomem: temporary files");
		return 99;
	}
	int status = run_suite(nomem_suite());
	const char *const all[] = { gz_path, map_path, key_path, ans_path, gold_path, sys_path,
				    map2_path, test2_path };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		unlink(all[i]);
	rmdir(tmpdir);
	return status;
}

#endif /* NOMEM_UNDER_SANITIZER */
