/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The sense inventory: interned tags and the is-a hierarchy of a sense map,
 * in scorer2 form ("s0 b1 s1 b2 s2 ...") or parent form ("tag [parent]").
 */
#include <stdlib.h>
#include <string.h>

#include "tageval-intern.h"
#include "tageval-inventory.h"
#include "tageval-reader.h"
#include "tageval-util.h"

struct tageval_inventory *tageval_inventory_new(void)
{
	struct tageval_inventory *inv = calloc(1, sizeof *inv);
	if (inv == NULL)
		return NULL;
	tv_intern_init(&inv->tags);
	return inv;
}

void tageval_inventory_free(struct tageval_inventory *inv)
{
	if (inv == NULL)
		return;
	for (size_t i = 0; i < inv->nnode; i++)
		tv_node_clear(&inv->node[i]);
	free(inv->node);
	free(inv->root);
	free(inv->edge_line.v);
	tv_intern_clear(&inv->tags);
	free(inv);
}

size_t tageval_inventory_size(const struct tageval_inventory *inv)
{
	TV_NULL_RET(inv, 0);
	return inv->tags.n;
}

size_t tageval_inventory_leaves(const struct tageval_inventory *inv)
{
	TV_NULL_RET(inv, 0);
	size_t n = 0;
	for (size_t t = 0; inv->have_map && t < inv->nnode; t++)
		if (inv->node[t].children.n == 0)
			n++;
	return n;
}

int tageval_inventory_find(const struct tageval_inventory *inv, const char *tag, size_t *id)
{
	TV_NULL_RET(inv, TAGEVAL_EINVAL);
	TV_NULL_RET(tag, TAGEVAL_EINVAL);
	TV_NULL_RET(id, TAGEVAL_EINVAL);
	uint32_t v;
	if (!tv_intern_find(&inv->tags, tag, strlen(tag), &v))
		return TAGEVAL_ENOTFOUND;
	*id = v;
	return TAGEVAL_OK;
}

int tv_inventory_intern(struct tageval_inventory *inv, const char *s, size_t len, uint32_t *id)
{
	inv->frozen = 1;
	return tv_intern_put(&inv->tags, s, len, id, NULL);
}

int tageval_inventory_intern(struct tageval_inventory *inv, const char *tag, size_t *id)
{
	TV_NULL_RET(inv, TAGEVAL_EINVAL);
	TV_NULL_RET(tag, TAGEVAL_EINVAL);
	TV_NULL_RET(id, TAGEVAL_EINVAL);
	uint32_t v;
	int rc = tv_inventory_intern(inv, tag, strlen(tag), &v);
	if (rc == TAGEVAL_OK)
		*id = v;
	return rc;
}

const char *tv_inventory_name(const struct tageval_inventory *inv, uint32_t id)
{
	return tv_intern_str(&inv->tags, id);
}

const char *tageval_inventory_name(const struct tageval_inventory *inv, size_t id)
{
	TV_NULL_RET(inv, NULL);
	if (id >= inv->tags.n)
		return NULL;
	return tv_intern_str(&inv->tags, (uint32_t)id);
}

void tv_node_clear(struct tv_node *n)
{
	free(n->parents.v);
	free(n->pseq.v);
	free(n->children.v);
	free(n->pdown);
	free(n->pup);
	memset(n, 0, sizeof *n);
}

static int vec_push(struct tv_vec *v, uint32_t x)
{
	if (v->n == v->cap && tv_grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v))
		return TAGEVAL_ENOMEM;
	v->v[v->n++] = x;
	return TAGEVAL_OK;
}

static int vec_has(const struct tv_vec *v, uint32_t x)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return 1;
	return 0;
}

/* ------------------------------------------------------------ reading */

/* A map line kept until the form of the whole file is known. */
struct map_line {
	uint64_t line;
	size_t first; /* index of its first field in the field list */
	size_t n;
};

struct map_reader {
	struct tageval_inventory *inv;
	const char *name;
	struct tageval_error *err;
	char **fields;         /* copies (arena of the pool below) */
	size_t nfields, fieldcap;
	struct map_line *lines;
	size_t nlines, linecap;
	struct tv_intern pool; /* owns the copies */
};

static int node_of(struct map_reader *m, const char *s, uint32_t *id)
{
	struct tageval_inventory *inv = m->inv;
	if (tv_intern_put(&inv->tags, s, strlen(s), id, NULL))
		return tv_nomem(m->err);
	if (*id >= inv->nnode) {
		size_t need = (size_t)*id + 1;
		size_t cap = inv->nodecap;
		if (tv_grow((void **)&inv->node, &cap, need, sizeof *inv->node))
			return tv_nomem(m->err);
		/* new slots are zeroed once, when the array grows */
		memset(inv->node + inv->nodecap, 0, (cap - inv->nodecap) * sizeof *inv->node);
		inv->nodecap = cap;
		inv->nnode = need;
	}
	return TAGEVAL_OK;
}

static int set_factor(struct map_reader *m, uint32_t parent, const char *text, uint64_t line)
{
	struct tageval_inventory *inv = m->inv;
	unsigned long long v = 0;
	const char *p = text;
	int ok = *p != '\0';
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > 1000000000ull) {
			ok = 0;
			break;
		}
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (!ok || v == 0 || v > 1000000000ull) {
		char q[80];
		tv_quote(q, sizeof q, text, strlen(text));
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
				"invalid branching factor \"%s\" (a positive integer is required)", q);
	}
	struct tv_node *n = &inv->node[parent];
	if (n->factor != 0 && n->factor != v) {
		char q[80];
		const char *s = tv_inventory_name(inv, parent);
		tv_quote(q, sizeof q, s, strlen(s));
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
				"tag \"%s\" has branching factor %llu here but %u at line %" PRIu64 "",
				q, v, n->factor, n->factor_line);
	}
	if (n->factor == 0) {
		if (n->children.n > v) {
			char q[80];
			const char *s = tv_inventory_name(inv, parent);
			tv_quote(q, sizeof q, s, strlen(s));
			return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
					"tag \"%s\" has %zu children, more than its branching factor %llu",
					q, n->children.n, v);
		}
		n->factor = (uint32_t)v;
		n->factor_line = line;
	}
	return TAGEVAL_OK;
}

static int add_edge(struct map_reader *m, uint32_t child, uint32_t parent, uint64_t line,
		    int single_parent)
{
	struct tageval_inventory *inv = m->inv;
	struct tv_node *c = &inv->node[child];
	char qc[80], qp[80];
	const char *sc = tv_inventory_name(inv, child), *sp = tv_inventory_name(inv, parent);
	tv_quote(qc, sizeof qc, sc, strlen(sc));
	tv_quote(qp, sizeof qp, sp, strlen(sp));
	/* an edge said before is kept once: checked here for scorer2 form (one
	 * parent at most), by dedup_edges once the whole map is read for the
	 * parent form, where a tag may have any number of parents */
	if (single_parent && vec_has(&c->parents, parent))
		return TAGEVAL_OK;
	if (single_parent && c->parents.n > 0) {
		const char *so = tv_inventory_name(inv, c->parents.v[0]);
		char qo[80];
		tv_quote(qo, sizeof qo, so, strlen(so));
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
				"two chains for tag \"%s\": parent \"%s\" here, \"%s\" at line %" PRIu64 "",
				qc, qp, qo, c->parent_line);
	}
	/* longer cycles are found once the whole map is read (find_cycle) */
	if (child == parent)
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
				"cycle: tag \"%s\" would be its own ancestor (through \"%s\")",
				qc, qp);
	struct tv_node *p = &inv->node[parent];
	if (p->factor != 0 && p->children.n + 1 > p->factor)
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, line,
				"tag \"%s\" has more children than its branching factor %u (line %" PRIu64 ")",
				qp, p->factor, p->factor_line);
	uint32_t seq = (uint32_t)inv->edge_line.n;
	if (vec_push(&c->parents, parent) || vec_push(&c->pseq, seq) ||
	    vec_push(&p->children, child) ||
	    tv_grow((void **)&inv->edge_line.v, &inv->edge_line.cap, inv->edge_line.n + 1,
		    sizeof *inv->edge_line.v))
		return tv_nomem(m->err);
	inv->edge_line.v[inv->edge_line.n++] = line;
	if (c->parents.n == 1)
		c->parent_line = line;
	else
		inv->dag = 1; /* perhaps: dedup_edges decides */
	return TAGEVAL_OK;
}

/* A tag's parent entry: its parent and the edge's number. */
struct parent_entry {
	uint32_t parent, seq;
};

static int by_parent_seq(const void *a, const void *b)
{
	const struct parent_entry *x = a, *y = b;
	if (x->parent != y->parent)
		return (x->parent > y->parent) - (x->parent < y->parent);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_seq(const void *a, const void *b)
{
	uint32_t x = ((const struct parent_entry *)a)->seq, y = ((const struct parent_entry *)b)->seq;
	return (x > y) - (x < y);
}

/*
 * Parent form: an edge written on several lines is kept once, at its first
 * line.  Each tag's parent entries are sorted by parent (n log n, where a
 * look-up per edge would cost the square of a tag's parents), then the
 * children lists are rebuilt in edge order, which is the order add_edge
 * gave them.  Sets inv->dag when some tag keeps several parents.
 */
static int dedup_edges(struct map_reader *m)
{
	struct tageval_inventory *inv = m->inv;
	size_t ne = inv->edge_line.n;
	struct parent_entry *e = NULL;
	size_t ecap = 0;
	uint32_t *child_of = malloc((ne ? ne : 1) * sizeof *child_of);
	uint32_t *parent_of = malloc((ne ? ne : 1) * sizeof *parent_of);
	if (child_of == NULL || parent_of == NULL) {
		free(child_of);
		free(parent_of);
		return tv_nomem(m->err);
	}
	for (size_t s = 0; s < ne; s++)
		child_of[s] = TV_NONE;
	inv->dag = 0;
	for (size_t x = 0; x < inv->nnode; x++) {
		struct tv_node *c = &inv->node[x];
		size_t n = c->parents.n;
		if (n > 1) {
			if (tv_grow((void **)&e, &ecap, n, sizeof *e)) {
				free(child_of);
				free(parent_of);
				return tv_nomem(m->err);
			}
			for (size_t i = 0; i < n; i++)
				e[i] = (struct parent_entry){ c->parents.v[i], c->pseq.v[i] };
			qsort(e, n, sizeof *e, by_parent_seq);
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				if (k == 0 || e[i].parent != e[k - 1].parent)
					e[k++] = e[i];
			qsort(e, k, sizeof *e, by_seq);
			for (size_t i = 0; i < k; i++) {
				c->parents.v[i] = e[i].parent;
				c->pseq.v[i] = e[i].seq;
			}
			c->parents.n = c->pseq.n = k;
			if (k > 1)
				inv->dag = 1;
		}
		for (size_t i = 0; i < c->parents.n; i++) {
			child_of[c->pseq.v[i]] = (uint32_t)x;
			parent_of[c->pseq.v[i]] = c->parents.v[i];
		}
	}
	for (size_t x = 0; x < inv->nnode; x++)
		inv->node[x].children.n = 0;
	/* the capacity holds every child pushed before, duplicates included */
	for (size_t s = 0; s < ne; s++)
		if (child_of[s] != TV_NONE) {
			struct tv_vec *cs = &inv->node[parent_of[s]].children;
			cs->v[cs->n++] = child_of[s];
		}
	free(e);
	free(child_of);
	free(parent_of);
	return TAGEVAL_OK;
}

static int apply_scorer2_line(struct map_reader *m, const struct map_line *ml)
{
	char **f = m->fields + ml->first;
	if (ml->n % 2 == 0)
		return tv_error(m->err, TAGEVAL_EFORMAT, m->name, ml->line,
				"%zu fields: a sense-map line is a tag followed by "
				"factor-parent pairs (an odd number of fields)", ml->n);
	uint32_t child;
	int rc = node_of(m, f[0], &child);
	if (rc)
		return rc;
	for (size_t i = 1; i + 1 < ml->n; i += 2) {
		uint32_t parent;
		if ((rc = node_of(m, f[i + 1], &parent)))
			return rc;
		if ((rc = set_factor(m, parent, f[i], ml->line)))
			return rc;
		if ((rc = add_edge(m, child, parent, ml->line, 1)))
			return rc;
		child = parent;
	}
	return TAGEVAL_OK;
}

static int apply_parent_line(struct map_reader *m, const struct map_line *ml)
{
	char **f = m->fields + ml->first;
	uint32_t child, parent;
	int rc = node_of(m, f[0], &child);
	if (rc || ml->n == 1)
		return rc;
	if ((rc = node_of(m, f[1], &parent)))
		return rc;
	return add_edge(m, child, parent, ml->line, 0);
}

/*
 * Called when a topological pass could not reach every tag: some tags lie
 * on or below a cycle.  Walks up through unreached parents until a tag
 * repeats, and reports the cycle's edge that came last in the file, the
 * one that closed it.
 */
static int find_cycle(struct map_reader *m, const uint32_t *pending)
{
	struct tageval_inventory *inv = m->inv;
	size_t n = inv->nnode;
	uint32_t *onpath = calloc(n, sizeof *onpath); /* 1 + position on the path */
	uint32_t *path = malloc(n * sizeof *path);
	uint32_t *via = malloc(n * sizeof *via);      /* index of the parent taken */
	if (onpath == NULL || path == NULL || via == NULL) {
		free(onpath);
		free(path);
		free(via);
		return tv_nomem(m->err);
	}
	uint32_t x = 0;
	while (pending[x] == 0)
		x++;
	size_t len = 0;
	while (onpath[x] == 0) {
		onpath[x] = (uint32_t)len + 1;
		path[len] = x;
		const struct tv_vec *ps = &inv->node[x].parents;
		size_t i = 0;
		while (pending[ps->v[i]] == 0)
			i++;
		via[len++] = (uint32_t)i;
		x = ps->v[i];
	}
	/* the cycle is path[onpath[x] - 1 .. len) */
	uint32_t best_child = x, best_parent = x, best_seq = 0;
	int found = 0;
	for (size_t k = onpath[x] - 1; k < len; k++) {
		const struct tv_node *c = &inv->node[path[k]];
		uint32_t seq = c->pseq.v[via[k]];
		if (!found || seq > best_seq) {
			found = 1;
			best_seq = seq;
			best_child = path[k];
			best_parent = c->parents.v[via[k]];
		}
	}
	free(onpath);
	free(path);
	free(via);
	char qc[80], qp[80];
	const char *sc = tv_inventory_name(inv, best_child);
	const char *sp = tv_inventory_name(inv, best_parent);
	tv_quote(qc, sizeof qc, sc, strlen(sc));
	tv_quote(qp, sizeof qp, sp, strlen(sp));
	return tv_error(m->err, TAGEVAL_EFORMAT, m->name, inv->edge_line.v[best_seq],
			"cycle: tag \"%s\" would be its own ancestor (through \"%s\")", qc, qp);
}

/* Top-level ancestors, computed downwards in topological order (Kahn);
 * tags that cannot be reached that way lie on or below a cycle. */
static int compute_roots(struct map_reader *m)
{
	struct tageval_inventory *inv = m->inv;
	size_t n = inv->nnode;
	free(inv->root);
	inv->root = malloc((n ? n : 1) * sizeof *inv->root);
	uint32_t *pending = malloc((n ? n : 1) * sizeof *pending);
	uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
	uint8_t *seen = calloc(n ? n : 1, sizeof *seen);
	if (inv->root == NULL || pending == NULL || queue == NULL || seen == NULL) {
		free(pending);
		free(queue);
		free(seen);
		return tv_nomem(m->err);
	}
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++) {
		pending[i] = (uint32_t)inv->node[i].parents.n;
		inv->root[i] = (uint32_t)i;
		if (pending[i] == 0)
			queue[tail++] = (uint32_t)i;
	}
	while (head < tail) {
		uint32_t x = queue[head++];
		const struct tv_vec *cs = &inv->node[x].children;
		for (size_t i = 0; i < cs->n; i++) {
			uint32_t c = cs->v[i];
			if (!seen[c]) {
				seen[c] = 1;
				inv->root[c] = inv->root[x];
			} else if (inv->root[c] != inv->root[x]) {
				inv->root[c] = TV_AMBIGUOUS;
			}
			if (--pending[c] == 0)
				queue[tail++] = c;
		}
	}
	int rc = TAGEVAL_OK;
	if (tail < n)
		rc = find_cycle(m, pending);
	free(seen);
	free(pending);
	free(queue);
	return rc;
}

static int read_map(struct tageval_inventory *inv, struct tv_reader *r, struct tageval_error *err)
{
	struct map_reader m = { .inv = inv, .name = r->name, .err = err };
	tv_intern_init(&m.pool);
	int rc = TAGEVAL_OK, got, scorer2_form = 0;
	while ((rc = tv_reader_next(r, &got, err)) == TAGEVAL_OK && got) {
		if (r->nfield == 0)
			continue;
		if (r->nfield >= 3)
			scorer2_form = 1;
		if (m.nlines == m.linecap &&
		    tv_grow((void **)&m.lines, &m.linecap, m.nlines + 1, sizeof *m.lines)) {
			rc = tv_nomem(err);
			break;
		}
		if (tv_grow((void **)&m.fields, &m.fieldcap, m.nfields + r->nfield,
			    sizeof *m.fields)) {
			rc = tv_nomem(err);
			break;
		}
		m.lines[m.nlines++] = (struct map_line){ r->lineno, m.nfields, r->nfield };
		for (size_t i = 0; i < r->nfield; i++) {
			uint32_t id;
			if (tv_intern_put(&m.pool, r->field[i], strlen(r->field[i]), &id, NULL)) {
				rc = tv_nomem(err);
				break;
			}
			m.fields[m.nfields++] = (char *)tv_intern_str(&m.pool, id);
		}
		if (rc)
			break;
	}
	for (size_t i = 0; rc == TAGEVAL_OK && i < m.nlines; i++)
		rc = scorer2_form ? apply_scorer2_line(&m, &m.lines[i])
				  : apply_parent_line(&m, &m.lines[i]);
	if (rc == TAGEVAL_OK && !scorer2_form && inv->dag)
		rc = dedup_edges(&m);
	if (rc == TAGEVAL_OK)
		rc = compute_roots(&m);
	if (rc == TAGEVAL_OK && tv_set_uniform(inv))
		rc = tv_nomem(err);
	free(m.lines);
	free(m.fields);
	tv_intern_clear(&m.pool);
	return rc;
}

static int map_allowed(struct tageval_inventory *inv, struct tageval_error *err)
{
	if (inv->have_map || inv->frozen || inv->tags.n > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"a sense map must be read once, before any key or answers");
	inv->have_map = 1;
	return TAGEVAL_OK;
}

static int read_and_close(struct tageval_inventory *inv, struct tv_reader *r,
			  struct tageval_error *err)
{
	int rc = read_map(inv, r, err);
	tv_reader_close(r);
	if (rc != TAGEVAL_OK) {
		/* leave no half-built hierarchy behind */
		for (size_t i = 0; i < inv->nnode; i++)
			tv_node_clear(&inv->node[i]);
		free(inv->node);
		free(inv->root);
		free(inv->edge_line.v);
		memset(&inv->edge_line, 0, sizeof inv->edge_line);
		inv->node = NULL;
		inv->root = NULL;
		inv->nnode = inv->nodecap = 0;
		inv->dag = 0;
		tv_intern_clear(&inv->tags);
		tv_intern_init(&inv->tags);
		inv->have_map = 0;
	}
	return rc;
}

int tageval_inventory_read_map(struct tageval_inventory *inv, const char *path,
			       struct tageval_error *err)
{
	TV_NEED(err, inv, "inv");
	TV_NEED(err, path, "path");
	int rc = map_allowed(inv, err);
	if (rc)
		return rc;
	struct tv_reader r;
	if ((rc = tv_reader_open(&r, path, err))) {
		inv->have_map = 0;
		return rc;
	}
	return read_and_close(inv, &r, err);
}

int tageval_inventory_read_map_buffer(struct tageval_inventory *inv, const char *data,
				      size_t size, const char *name, struct tageval_error *err)
{
	TV_NEED(err, inv, "inv");
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", __func__);
	TV_NEED(err, name, "name");
	int rc = map_allowed(inv, err);
	if (rc)
		return rc;
	struct tv_reader r;
	if ((rc = tv_reader_open_buffer(&r, data, size, name, err))) {
		inv->have_map = 0;
		return rc;
	}
	return read_and_close(inv, &r, err);
}

/* ------------------------------------------------------------ queries */

uint32_t tv_coarse(const struct tageval_inventory *inv, uint32_t id)
{
	if (id >= inv->nnode || inv->root == NULL)
		return id;
	return inv->root[id] == TV_AMBIGUOUS ? TV_NONE : inv->root[id];
}

int tageval_inventory_coarse(const struct tageval_inventory *inv, size_t id, size_t *coarse,
			     struct tageval_error *err)
{
	TV_NEED(err, inv, "inv");
	TV_NEED(err, coarse, "coarse");
	if (id >= inv->tags.n)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "no tag with id %zu", id);
	uint32_t c = tv_coarse(inv, (uint32_t)id);
	if (c == TV_NONE) {
		const char *s = tv_inventory_name(inv, (uint32_t)id);
		char q[80];
		tv_quote(q, sizeof q, s, strlen(s));
		return tv_error(err, TAGEVAL_EFORMAT, "", 0,
				"tag \"%s\" has several top-level ancestors: coarse scoring "
				"needs a tree", q);
	}
	*coarse = c;
	return TAGEVAL_OK;
}

uint32_t tv_factor(const struct tageval_inventory *inv, uint32_t id)
{
	const struct tv_node *n = &inv->node[id];
	return n->factor ? n->factor : (uint32_t)n->children.n;
}

/* ------------------------------------------------------------ downward probabilities */

/*
 * P(child | parent) for every edge, from pdown: fills each child's pup.
 * Every children list is in edge order, so walking the edges in that order
 * and counting each parent's children so far finds an edge's place in its
 * parent's list without a search (a search costs the square of a tag's
 * parents or children).
 */
static int fill_up(struct tageval_inventory *inv)
{
	size_t ne = inv->edge_line.n, nn = inv->nnode;
	uint32_t *child_of = malloc((ne ? ne : 1) * sizeof *child_of);
	uint32_t *index_of = malloc((ne ? ne : 1) * sizeof *index_of);
	uint32_t *seen = calloc(nn ? nn : 1, sizeof *seen);
	if (child_of == NULL || index_of == NULL || seen == NULL) {
		free(child_of);
		free(index_of);
		free(seen);
		return TAGEVAL_ENOMEM;
	}
	for (size_t s = 0; s < ne; s++)
		child_of[s] = TV_NONE;
	for (size_t x = 0; x < nn; x++) {
		const struct tv_node *c = &inv->node[x];
		for (size_t j = 0; j < c->parents.n; j++) {
			child_of[c->pseq.v[j]] = (uint32_t)x;
			index_of[c->pseq.v[j]] = (uint32_t)j;
		}
	}
	for (size_t s = 0; s < ne; s++) {
		if (child_of[s] == TV_NONE)
			continue;
		struct tv_node *c = &inv->node[child_of[s]];
		uint32_t j = index_of[s], p = c->parents.v[j];
		c->pup[j] = inv->node[p].pdown[seen[p]++];
	}
	free(child_of);
	free(index_of);
	free(seen);
	return TAGEVAL_OK;
}

int tv_set_uniform(struct tageval_inventory *inv)
{
	for (size_t x = 0; x < inv->nnode; x++) {
		struct tv_node *n = &inv->node[x];
		size_t k = n->children.n;
		free(n->pdown);
		free(n->pup);
		n->pdown = malloc((k ? k : 1) * sizeof *n->pdown);
		n->pup = malloc((n->parents.n ? n->parents.n : 1) * sizeof *n->pup);
		if (n->pdown == NULL || n->pup == NULL)
			return TAGEVAL_ENOMEM;
		double b = (double)tv_factor(inv, (uint32_t)x);
		for (size_t i = 0; i < k; i++)
			n->pdown[i] = 1.0 / b;
		n->pself = k > 0 ? (b - (double)k) / b : 0.0;
	}
	if (fill_up(inv))
		return TAGEVAL_ENOMEM;
	inv->estimated = 0;
	return TAGEVAL_OK;
}

/* The distinct tags of the reader's line (distinct by spelling: unknown
 * tags, TV_NONE, are distinct from each other) into @seen; returns their
 * number. */
static size_t line_distinct(const struct tageval_inventory *inv, const struct tv_reader *r,
			    uint32_t *seen)
{
	size_t k = 0;
	for (size_t i = 2; i < r->nfield; i++) {
		char *t = r->field[i];
		char *slash = strchr(t, '/');
		size_t len = slash ? (size_t)(slash - t) : strlen(t);
		uint32_t id;
		int dup = 0;
		if (!tv_intern_find(&inv->tags, t, len, &id))
			id = TV_NONE;
		/* distinct by spelling: unknown tags are distinct from each other */
		for (size_t j = 2; j < i; j++) {
			const char *u = r->field[j];
			const char *us = strchr(u, '/');
			size_t ul = us ? (size_t)(us - u) : strlen(u);
			dup |= ul == len && memcmp(u, t, len) == 0;
		}
		if (!dup)
			seen[k++] = id;
	}
	return k;
}

/* c(t) of every tag from the corpus: each line weighs 1, shared evenly by
 * its distinct tags. */
static int count_corpus(const struct tageval_inventory *inv, struct tv_reader *r, double *c,
			struct tageval_error *err)
{
	size_t n = inv->nnode;
	uint32_t *seen = NULL;
	size_t seencap = 0;
	int rc, got;
	while ((rc = tv_reader_next(r, &got, err)) == TAGEVAL_OK && got) {
		if (r->nfield == 0)
			continue;
		if (r->nfield < 3) {
			rc = tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
				      r->nfield == 1 ? "missing instance id" : "no sense tag");
			break;
		}
		/* distinct tags of the line that the map knows */
		size_t ntag = r->nfield - 2;
		if (tv_grow((void **)&seen, &seencap, ntag, sizeof *seen)) {
			rc = tv_nomem(err);
			break;
		}
		size_t k = line_distinct(inv, r, seen);
		for (size_t j = 0; j < k; j++)
			if (seen[j] != TV_NONE && seen[j] < n)
				c[seen[j]] += 1.0 / (double)k;
	}
	free(seen);
	return rc;
}

/* n(t) = c(t) + the sum of n over t's children, into @sub, bottom-up: a tag
 * is done when all its children are (@pending, @queue: scratch of nnode). */
static void subtree_counts(const struct tageval_inventory *inv, const double *c, double *sub,
			   uint32_t *pending, uint32_t *queue)
{
	size_t n = inv->nnode;
	size_t head = 0, tail = 0;
	for (size_t x = 0; x < n; x++) {
		sub[x] = c[x];
		pending[x] = (uint32_t)inv->node[x].children.n;
		if (pending[x] == 0)
			queue[tail++] = (uint32_t)x;
	}
	while (head < tail) {
		uint32_t x = queue[head++];
		const struct tv_node *nd = &inv->node[x];
		for (size_t i = 0; i < nd->parents.n; i++) {
			uint32_t p = nd->parents.v[i];
			sub[p] += sub[x];
			if (--pending[p] == 0)
				queue[tail++] = p;
		}
	}
}

/* Every parent's P(child i | p) and P(p itself | p) from c and n (@sub). */
static void set_pdown(struct tageval_inventory *inv, const double *c, const double *sub,
		      double alpha)
{
	size_t n = inv->nnode;
	for (size_t x = 0; x < n; x++) {
		struct tv_node *nd = &inv->node[x];
		size_t k = nd->children.n;
		if (k == 0)
			continue;
		double b = (double)tv_factor(inv, (uint32_t)x);
		double self = b > (double)k ? c[x] : 0.0;
		double d = self + alpha * b;
		for (size_t i = 0; i < k; i++)
			d += sub[nd->children.v[i]];
		if (d <= 0.0)
			continue; /* stays uniform */
		for (size_t i = 0; i < k; i++)
			nd->pdown[i] = (sub[nd->children.v[i]] + alpha) / d;
		nd->pself = b > (double)k ? (self + alpha * (b - (double)k)) / d : 0.0;
	}
}

/*
 * Estimated downward probabilities.  Every line of the corpus weighs 1,
 * shared evenly by its distinct tags; c(t) is the weight tag t received and
 * n(t) = c(t) + the sum of n over t's children (a tag below several parents
 * counts under each).  A parent p with k listed children and factor b >= k
 * gives, with the smoothing constant alpha (add-alpha, Laplace for 1),
 *
 *   P(child i | p) = (n(child i) + alpha) / D
 *   P(p itself | p) = (c(p) + alpha (b - k)) / D        when b > k
 *   D = sum_i n(child i) + [b > k] c(p) + alpha b
 *
 * so that without data the estimates are the uniform 1/b; when b = k a tag
 * p written in the corpus says nothing about its children and only counts
 * for p's own parents.  A parent with D = 0 (alpha 0, no data) stays uniform.
 */
static int estimate(struct tageval_inventory *inv, struct tv_reader *r, double alpha,
		    struct tageval_error *err)
{
	size_t n = inv->nnode;
	double *c = calloc(n ? n : 1, sizeof *c);
	double *sub = calloc(n ? n : 1, sizeof *sub);
	uint32_t *pending = malloc((n ? n : 1) * sizeof *pending);
	uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
	int rc = TAGEVAL_OK;
	if (!c || !sub || !pending || !queue) {
		rc = tv_nomem(err);
		goto out;
	}
	if ((rc = count_corpus(inv, r, c, err)))
		goto out;
	/* n(t), bottom-up: a tag is done when all its children are */
	subtree_counts(inv, c, sub, pending, queue);
	set_pdown(inv, c, sub, alpha);
	if (fill_up(inv)) {
		rc = tv_nomem(err);
		goto out;
	}
	inv->estimated = 1;
out:
	free(c);
	free(sub);
	free(pending);
	free(queue);
	return rc;
}

static int estimate_checked(struct tageval_inventory *inv, struct tv_reader *r, double alpha,
			    struct tageval_error *err)
{
	if (!(alpha >= 0.0) || alpha > 1e12)
		return tv_error(err, TAGEVAL_EINVAL, "", 0,
				"the smoothing constant must be a number >= 0");
	if (tv_set_uniform(inv))
		return tv_nomem(err);
	int rc = estimate(inv, r, alpha, err);
	if (rc && tv_set_uniform(inv))
		return tv_nomem(err);
	return rc;
}

/* A corpus being read to estimate the downward probabilities. */
struct estimate_reading {
	struct tageval_inventory *inv;
	double alpha;
};

static int run_estimate(void *ctx, struct tv_reader *r, struct tageval_error *err)
{
	struct estimate_reading *e = ctx;
	return estimate_checked(e->inv, r, e->alpha, err);
}

int tageval_inventory_estimate_downward(struct tageval_inventory *inv, const char *path,
					double alpha, struct tageval_error *err)
{
	TV_NEED(err, inv, "inv");
	struct estimate_reading e = { inv, alpha };
	return tv_read_path(__func__, path, run_estimate, &e, err);
}

int tageval_inventory_estimate_downward_buffer(struct tageval_inventory *inv, const char *data,
					       size_t size, const char *name, double alpha,
					       struct tageval_error *err)
{
	TV_NEED(err, inv, "inv");
	struct estimate_reading e = { inv, alpha };
	return tv_read_buffer(__func__, data, size, name, run_estimate, &e, err);
}
