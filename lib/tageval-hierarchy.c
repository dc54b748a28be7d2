/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Uniform downward probabilities: Pr(descendant | ancestor) and a tag's
 * distribution over the leaves below it, for trees and DAGs.  Each walk
 * visits only the tags above (or below) the start, in topological order
 * (Kahn), so a leaf reached by several paths collects all their mass.
 */
#include <stdlib.h>
#include <string.h>

#include "tageval-inventory.h"
#include "tageval-util.h"

void tv_walk_clear(struct tv_walk *w)
{
	free(w->stamp);
	free(w->pending);
	free(w->stack);
	free(w->mass);
	memset(w, 0, sizeof *w);
}

static int walk_fit(struct tv_walk *w, size_t n)
{
	if (w->cap >= n && w->cap > 0)
		return TAGEVAL_OK;
	size_t cap = n ? n : 1;
	tv_walk_clear(w);
	w->stamp = calloc(cap, sizeof *w->stamp);
	w->pending = malloc(cap * sizeof *w->pending);
	w->stack = malloc(cap * sizeof *w->stack);
	w->mass = malloc(cap * sizeof *w->mass);
	if (!w->stamp || !w->pending || !w->stack || !w->mass) {
		tv_walk_clear(w);
		return TAGEVAL_ENOMEM;
	}
	w->cap = cap;
	return TAGEVAL_OK;
}

static void walk_start(struct tv_walk *w)
{
	if (++w->gen == 0) {
		memset(w->stamp, 0, w->cap * sizeof *w->stamp);
		w->gen = 1;
	}
}

/* Single-parent chains: walk straight up. */
static double chain_subsumes(const struct tageval_inventory *inv, uint32_t anc, uint32_t desc)
{
	double m = 1.0;
	uint32_t x = desc;
	while (inv->node[x].parents.n > 0) {
		uint32_t p = inv->node[x].parents.v[0];
		m *= inv->node[x].pup[0];
		if (p == anc)
			return m;
		x = p;
	}
	return 0.0;
}

double tv_walk_subsumes(const struct tageval_inventory *inv, struct tv_walk *w,
			uint32_t anc, uint32_t desc)
{
	if (anc == desc)
		return 1.0;
	if (anc >= inv->nnode || desc >= inv->nnode)
		return 0.0;
	if (!inv->dag)
		return chain_subsumes(inv, anc, desc);
	if (walk_fit(w, inv->nnode))
		return -1.0;
	/* 1. the tags above desc; pending[x] = children of x on the way up */
	walk_start(w);
	size_t sp = 0;
	w->stack[sp++] = desc;
	w->stamp[desc] = w->gen;
	w->pending[desc] = 0;
	int reached = 0;
	while (sp > 0) {
		uint32_t x = w->stack[--sp];
		const struct tv_vec *ps = &inv->node[x].parents;
		for (size_t i = 0; i < ps->n; i++) {
			uint32_t p = ps->v[i];
			if (w->stamp[p] != w->gen) {
				w->stamp[p] = w->gen;
				w->pending[p] = 0;
				w->stack[sp++] = p;
			}
			w->pending[p]++;
			if (p == anc)
				reached = 1;
		}
	}
	if (!reached)
		return 0.0;
	/* 2. push the mass up: mass[p] = sum over children c of mass[c] / b(p) */
	sp = 0;
	w->mass[desc] = 1.0;
	w->stack[sp++] = desc;
	walk_start(w); /* second stamp: mass initialised */
	w->stamp[desc] = w->gen;
	while (sp > 0) {
		uint32_t x = w->stack[--sp];
		const struct tv_vec *ps = &inv->node[x].parents;
		for (size_t i = 0; i < ps->n; i++) {
			uint32_t p = ps->v[i];
			if (w->stamp[p] != w->gen) {
				w->stamp[p] = w->gen;
				w->mass[p] = 0.0;
			}
			w->mass[p] += w->mass[x] * inv->node[x].pup[i];
			if (--w->pending[p] == 0) {
				if (p == anc)
					return w->mass[p];
				w->stack[sp++] = p;
			}
		}
	}
	return 0.0;
}

void tv_lift_clear(struct tv_lift *l)
{
	for (size_t j = 0; j < l->nlev; j++) {
		free(l->up[j]);
		free(l->prod[j]);
	}
	free(l->up);
	free(l->prod);
	free(l->depth);
	memset(l, 0, sizeof *l);
}

int tv_lift_build(const struct tageval_inventory *inv, struct tv_lift *l)
{
	size_t n = inv->nnode;
	tv_lift_clear(l);
	l->depth = malloc((n ? n : 1) * sizeof *l->depth);
	uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
	uint8_t *done = calloc(n ? n : 1, 1);
	if (l->depth == NULL || stack == NULL || done == NULL) {
		free(stack);
		free(done);
		tv_lift_clear(l);
		return TAGEVAL_ENOMEM;
	}
	/* depths: up to a tag whose depth is known, then back down */
	uint32_t maxdepth = 0;
	for (size_t x = 0; x < n; x++) {
		size_t sp = 0;
		uint32_t y = (uint32_t)x;
		while (!done[y] && inv->node[y].parents.n > 0) {
			stack[sp++] = y;
			y = inv->node[y].parents.v[0];
		}
		if (!done[y]) {
			done[y] = 1;
			l->depth[y] = 0;
		}
		while (sp > 0) {
			uint32_t c = stack[--sp];
			l->depth[c] = l->depth[inv->node[c].parents.v[0]] + 1;
			done[c] = 1;
		}
		if (l->depth[x] > maxdepth)
			maxdepth = l->depth[x];
	}
	free(stack);
	free(done);
	l->built = 1;
	if (maxdepth <= TV_LIFT_WALK)
		return TAGEVAL_OK;
	size_t nlev = 0;
	while (nlev < 32 && (maxdepth >> nlev) != 0)
		nlev++;
	l->up = calloc(nlev, sizeof *l->up);
	l->prod = calloc(nlev, sizeof *l->prod);
	if (l->up == NULL || l->prod == NULL) {
		tv_lift_clear(l);
		return TAGEVAL_ENOMEM;
	}
	l->nlev = nlev;
	for (size_t j = 0; j < nlev; j++) {
		l->up[j] = malloc(n * sizeof *l->up[j]);
		l->prod[j] = malloc(n * sizeof *l->prod[j]);
		if (l->up[j] == NULL || l->prod[j] == NULL) {
			tv_lift_clear(l);
			return TAGEVAL_ENOMEM;
		}
	}
	for (size_t x = 0; x < n; x++) {
		const struct tv_node *nd = &inv->node[x];
		l->up[0][x] = nd->parents.n > 0 ? nd->parents.v[0] : (uint32_t)x;
		l->prod[0][x] = nd->parents.n > 0 ? nd->pup[0] : 1.0;
	}
	for (size_t j = 1; j < nlev; j++)
		for (size_t x = 0; x < n; x++) {
			uint32_t h = l->up[j - 1][x];
			l->up[j][x] = l->up[j - 1][h];
			l->prod[j][x] = l->prod[j - 1][x] * l->prod[j - 1][h];
		}
	return TAGEVAL_OK;
}

double tv_lift_subsumes(const struct tageval_inventory *inv, const struct tv_lift *l,
			uint32_t anc, uint32_t desc)
{
	if (anc == desc)
		return 1.0;
	if (l->depth[desc] <= l->depth[anc])
		return 0.0;
	uint32_t d = l->depth[desc] - l->depth[anc], x = desc;
	double m = 1.0;
	if (d <= TV_LIFT_WALK) {
		for (uint32_t i = 0; i < d; i++) {
			m *= inv->node[x].pup[0];
			x = inv->node[x].parents.v[0];
		}
	} else {
		for (size_t j = 0; j < l->nlev; j++)
			if (d >> j & 1u) {
				m *= l->prod[j][x];
				x = l->up[j][x];
			}
	}
	return x == anc ? m : 0.0;
}

double tageval_inventory_subsumes(const struct tageval_inventory *inv, size_t ancestor,
				  size_t descendant)
{
	TV_NULL_RET(inv, 0.0);
	if (ancestor >= inv->tags.n || descendant >= inv->tags.n)
		return 0.0;
	struct tv_walk w = { 0 };
	double m = tv_walk_subsumes(inv, &w, (uint32_t)ancestor, (uint32_t)descendant);
	tv_walk_clear(&w);
	return m;
}

/* ------------------------------------------------------------ distributions */

struct tv_leafmass {
	uint32_t leaf;
	double prob;
};

struct tageval_dist {
	struct tv_walk walk;
	struct tv_leafmass *e;
	size_t n, cap;
};

struct tageval_dist *tageval_dist_new(void)
{
	return calloc(1, sizeof(struct tageval_dist));
}

void tageval_dist_free(struct tageval_dist *d)
{
	if (d == NULL)
		return;
	tv_walk_clear(&d->walk);
	free(d->e);
	free(d);
}

size_t tageval_dist_size(const struct tageval_dist *d)
{
	TV_NULL_RET(d, 0);
	return d->n;
}

size_t tageval_dist_leaf(const struct tageval_dist *d, size_t i)
{
	TV_NULL_RET(d, (size_t)-1);
	return i < d->n ? d->e[i].leaf : (size_t)-1;
}

double tageval_dist_prob(const struct tageval_dist *d, size_t i)
{
	TV_NULL_RET(d, 0.0);
	return i < d->n ? d->e[i].prob : 0.0;
}

double tageval_dist_get(const struct tageval_dist *d, size_t leaf)
{
	TV_NULL_RET(d, 0.0);
	size_t lo = 0, hi = d->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->e[mid].leaf < leaf)
			lo = mid + 1;
		else if (d->e[mid].leaf > leaf)
			hi = mid;
		else
			return d->e[mid].prob;
	}
	return 0.0;
}

static int dist_add(struct tageval_dist *d, uint32_t leaf, double p)
{
	if (tv_grow((void **)&d->e, &d->cap, d->n + 1, sizeof *d->e))
		return TAGEVAL_ENOMEM;
	d->e[d->n].leaf = leaf;
	d->e[d->n].prob = p;
	d->n++;
	return TAGEVAL_OK;
}

static int by_leaf(const void *a, const void *b)
{
	uint32_t x = ((const struct tv_leafmass *)a)->leaf;
	uint32_t y = ((const struct tv_leafmass *)b)->leaf;
	return (x > y) - (x < y);
}

int tageval_inventory_distribute(const struct tageval_inventory *inv, size_t id,
				 struct tageval_dist *d)
{
	TV_NULL_RET(d, TAGEVAL_EINVAL);
	d->n = 0;
	TV_NULL_RET(inv, TAGEVAL_EINVAL);
	if (id >= inv->tags.n)
		return TAGEVAL_EINVAL;
	uint32_t t = (uint32_t)id;
	if (t >= inv->nnode || inv->node[t].children.n == 0)
		return dist_add(d, t, 1.0);
	struct tv_walk *w = &d->walk;
	if (walk_fit(w, inv->nnode))
		return TAGEVAL_ENOMEM;
	/* 1. the tags below t; pending[x] = parents of x inside the set */
	walk_start(w);
	size_t sp = 0;
	w->stack[sp++] = t;
	w->stamp[t] = w->gen;
	w->pending[t] = 0;
	while (sp > 0) {
		uint32_t x = w->stack[--sp];
		const struct tv_vec *cs = &inv->node[x].children;
		for (size_t i = 0; i < cs->n; i++) {
			uint32_t c = cs->v[i];
			if (w->stamp[c] != w->gen) {
				w->stamp[c] = w->gen;
				w->pending[c] = 0;
				w->mass[c] = 0.0;
				w->stack[sp++] = c;
			}
			w->pending[c]++;
		}
	}
	/* 2. push the mass down in topological order */
	w->mass[t] = 1.0;
	sp = 0;
	w->stack[sp++] = t;
	while (sp > 0) {
		uint32_t x = w->stack[--sp];
		const struct tv_node *n = &inv->node[x];
		double m = w->mass[x];
		size_t k = n->children.n;
		if (k == 0) {
			if (dist_add(d, x, m))
				return TAGEVAL_ENOMEM;
			continue;
		}
		if (n->pself > 0.0 && dist_add(d, x, m * n->pself))
			return TAGEVAL_ENOMEM;
		for (size_t i = 0; i < k; i++) {
			uint32_t c = n->children.v[i];
			w->mass[c] += m * n->pdown[i];
			if (--w->pending[c] == 0)
				w->stack[sp++] = c;
		}
	}
	qsort(d->e, d->n, sizeof *d->e, by_leaf);
	return TAGEVAL_OK;
}
