/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The inventory's layout, shared by the reading and the hierarchy code. */
#ifndef TAGEVAL_INVENTORY_H
#define TAGEVAL_INVENTORY_H

#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"

#define TV_AMBIGUOUS (UINT32_MAX - 1)

/* The coarse tag, or TV_NONE when ambiguous. */
uint32_t tv_coarse(const struct tageval_inventory *inv, uint32_t id);
/* Interns a tag of a key or answer line (freezes the hierarchy). */
int tv_inventory_intern(struct tageval_inventory *inv, const char *s, size_t len, uint32_t *id);
const char *tv_inventory_name(const struct tageval_inventory *inv, uint32_t id);

struct tv_vec {
	uint32_t *v;
	size_t n, cap;
};

/* Hierarchy data of a tag listed in the sense map. */
struct tv_node {
	struct tv_vec parents;
	struct tv_vec pseq;   /* for each parent, the edge's number (see edge_line) */
	struct tv_vec children;
	double *pdown;        /* P(children[i] | this tag) */
	double *pup;          /* P(this tag | parents[i]) */
	double pself;         /* the mass a parent keeps as itself (b > k) */
	uint32_t factor;      /* declared branching factor, 0 = number of children */
	uint64_t factor_line; /* 64 bits: a file may have more than 4G lines */
	uint64_t parent_line; /* line that gave the first parent */
};

struct tageval_inventory {
	struct tv_intern tags;
	struct tv_node *node;  /* ids below nnode: the tags of the map */
	size_t nnode, nodecap;
	uint32_t *root;        /* top-level ancestor, TV_AMBIGUOUS in a DAG */
	int have_map;
	int frozen;            /* key or answers have added tags */
	int dag;               /* some tag has several parents */
	struct {
		uint64_t *v;
		size_t n, cap;
	} edge_line;             /* edge number -> line of the map */
	int estimated;         /* downward probabilities estimated from a corpus */
};

/* Sets every downward probability to the uniform 1/b (after reading a map). */
int tv_set_uniform(struct tageval_inventory *inv);
/* Frees a tag's hierarchy data. */
void tv_node_clear(struct tv_node *n);

/* The branching factor used for @id's children (declared or counted). */
uint32_t tv_factor(const struct tageval_inventory *inv, uint32_t id);

/* Scratch space for walks over the hierarchy, sized to the map's tags. */
struct tv_walk {
	uint32_t *stamp;
	uint32_t *pending;
	uint32_t *stack;
	double *mass;
	size_t cap;
	uint32_t gen;
};

void tv_walk_clear(struct tv_walk *w);
/* Pr(desc | anc) with the scratch @w (grown as needed); -1 when out of memory. */
double tv_walk_subsumes(const struct tageval_inventory *inv, struct tv_walk *w,
			uint32_t anc, uint32_t desc);

/*
 * Ancestors in a tree-shaped map, in time logarithmic in the depth: each
 * tag's depth and, when the map is deeper than TV_LIFT_WALK, its 2^j-th
 * ancestors and the products of the probabilities up to them (binary
 * lifting; memory: the tags times the logarithm of the depth).
 */
#define TV_LIFT_WALK 64

struct tv_lift {
	uint32_t *depth;
	uint32_t **up;   /* [level][tag] */
	double **prod;   /* [level][tag] */
	size_t nlev;
	int built;
};

int tv_lift_build(const struct tageval_inventory *inv, struct tv_lift *l);
void tv_lift_clear(struct tv_lift *l);
/* Pr(desc | anc) in a tree (0 when anc is not above desc): the product of
 * the probabilities on the way up, walked step by step when the two are at
 * most TV_LIFT_WALK levels apart (the order of chain_subsumes), else
 * through the 2^j-th ancestors. */
double tv_lift_subsumes(const struct tageval_inventory *inv, const struct tv_lift *l,
			uint32_t anc, uint32_t desc);

#endif
