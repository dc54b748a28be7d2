/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The results report's layout, shared by its source files. */
#ifndef TAGEVAL_REPORT_H
#define TAGEVAL_REPORT_H

#include "tageval-fsum.h"

#define TV_MAX_GRAN 3

struct tv_lexelt {
	struct tageval_report_lexelt pub;
	char *name;
	uint32_t *senses;  /* the lexelt's senses (tag ids) */
	size_t nsenses;
	uint32_t *main;    /* their top-level tags */
	size_t nmain;
	uint32_t *common;  /* the commonest baseline's tags */
	size_t ncommon;
};

struct tv_subset {
	struct tageval_report_subset pub;
	char *name;
	uint32_t *member;  /* test instance indices, ascending */
	size_t n;
	double total[TV_MAX_GRAN][2]; /* items counted, [granularity][minimal] */
};

/* A system's sums: cell[((subset * ngran + g) * 2 + minimal) * 2 + {0 correct, 1 attempted}],
 * exact (tv_fsum), so that the order of the answers does not change a bit */
struct tv_system {
	char *name;
	int baseline;
	struct tv_fsum *cell;
	double *credit;    /* tageval_report_keep_credits: [(instance * ngran + g) * 2 + {0 credit, 1 attempted}] */
	struct tageval_score score[TV_MAX_GRAN];
};

struct tageval_report {
	struct tageval_inventory *inv;
	const struct tageval_key *key;
	const struct tageval_key *train;
	size_t ngran;
	enum tageval_granularity gran[TV_MAX_GRAN];
	struct tv_lexelt *lex;
	size_t nlex;
	uint32_t *inst_lexelt;  /* test instance -> lexelt */
	uint8_t *single;        /* test instance -> bit g: one key tag at granularity g */
	struct tv_subset *sub;
	size_t nsub, subcap;
	size_t nfixed;          /* subsets before the lexelt ones */
	double median_polysemy, median_entropy;
	uint32_t *lexmark;      /* lexelt -> generation, to count a subset's lexelts */
	uint32_t lexgen;
	/* filled when the first system is added: instance -> its subsets */
	int frozen;
	uint32_t *inst_off;     /* ninst + 1 offsets into inst_sub */
	uint32_t *inst_sub;
	struct tv_system *sys;
	size_t nsys, syscap;
	/* scratch of the scoring callback: the system, and for each granularity
	 * the callback's user data (the scorers of a system run side by side) */
	struct tv_system *cur;
	struct tv_gctx {
		struct tageval_report *r;
		size_t g;
	} gctx[TV_MAX_GRAN];
	int oom;                /* the callback ran out of memory */
	int keep_credits;       /* tageval_report_keep_credits() */
	uint32_t *credit_order; /* its instances in bytewise order of "lexelt instance" */
	char *idbuf;
	size_t idcap;
};

/* tageval-report-lexelts.c: the lexelts, their senses, entropies and baselines' tags */
int tv_report_lexelts(struct tageval_report *r, struct tageval_error *err);
/* tageval-report-subsets.c: the built-in subsets */
int tv_report_subsets(struct tageval_report *r, struct tageval_error *err);
/* Appends a subset over @member (@n ascending indices; taken over on success). */
int tv_report_push_subset(struct tageval_report *r, const char *name,
			  enum tageval_subset_kind kind, uint32_t *member, size_t n);
/* The median of @v[0..n) (sorted in place); NaN when n is 0. */
double tv_median(double *v, size_t n);

#endif
