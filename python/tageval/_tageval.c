/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * _tageval: the CPython extension under the tageval package (python/tageval/
 * __init__.py and metrics.py are its public face).  It only turns Python
 * objects into the library's inputs and the library's results into plain
 * Python objects; every figure is computed by libtageval, with the GIL
 * released while the library works.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "tageval.h"

/* the module's state: the FormatError type */
struct module_state {
	PyObject *format_error;
};

static struct module_state *state_of(PyObject *module)
{
	return PyModule_GetState(module);
}

/*
 * Raises the Python exception for a library error: FormatError (a
 * ValueError) with .file, .line, .message for TAGEVAL_EFORMAT, OSError for
 * TAGEVAL_EIO, MemoryError for TAGEVAL_ENOMEM, ValueError otherwise.
 * Returns NULL.
 */
static PyObject *raise_error(PyObject *module, int code, const struct tageval_error *err)
{
	const char *msg = err->message[0] ? err->message : tageval_strerror(code);
	PyObject *text;
	if (err->file[0] && err->line)
		text = PyUnicode_FromFormat("%s:%llu: %s", err->file,
					    (unsigned long long)err->line, msg);
	else if (err->file[0])
		text = PyUnicode_FromFormat("%s: %s", err->file, msg);
	else
		text = PyUnicode_FromString(msg);
	if (text == NULL)
		return NULL;
	if (code == TAGEVAL_ENOMEM) {
		Py_DECREF(text);
		return PyErr_NoMemory();
	}
	PyObject *type = code == TAGEVAL_EFORMAT ? state_of(module)->format_error
			 : code == TAGEVAL_EIO	 ? PyExc_OSError
						 : PyExc_ValueError;
	PyObject *exc = PyObject_CallOneArg(type, text);
	Py_DECREF(text);
	if (exc == NULL)
		return NULL;
	if (code == TAGEVAL_EFORMAT) {
		PyObject *file = err->file[0] ? PyUnicode_DecodeFSDefault(err->file) : Py_NewRef(Py_None);
		PyObject *line = err->line ? PyLong_FromUnsignedLongLong(err->line) : Py_NewRef(Py_None);
		PyObject *message = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
		int bad = file == NULL || line == NULL || message == NULL ||
			  PyObject_SetAttrString(exc, "file", file) ||
			  PyObject_SetAttrString(exc, "line", line) ||
			  PyObject_SetAttrString(exc, "message", message);
		Py_XDECREF(file);
		Py_XDECREF(line);
		Py_XDECREF(message);
		if (bad) {
			Py_DECREF(exc);
			return NULL;
		}
	}
	PyErr_SetObject(type, exc);
	Py_DECREF(exc);
	return NULL;
}

/* ------------------------------------------------------------ dict helpers */

/* A figure as a Python number: NaN and infinities become None (as null in
 * the tools' JSON) when @json, else a float. */
static PyObject *number(double v, int json)
{
	if (json && !isfinite(v))
		return Py_NewRef(Py_None);
	return PyFloat_FromDouble(v);
}

/* d[key] = value, stealing @value; -1 on error. */
static int set_steal(PyObject *d, const char *key, PyObject *value)
{
	if (value == NULL)
		return -1;
	int rc = PyDict_SetItemString(d, key, value);
	Py_DECREF(value);
	return rc;
}

/* An optional path argument: None or a path. */
static int opt_path(PyObject *obj, void *out)
{
	if (obj == Py_None) {
		*(PyObject **)out = NULL;
		return 1;
	}
	return PyUnicode_FSConverter(obj, out);
}

#define PATH(o) ((o) ? PyBytes_AS_STRING(o) : NULL)

/* ------------------------------------------------------ in-memory labels */

/* A growable byte buffer (malloc'd: filled with the GIL held, read without). */
struct buf {
	char *p;
	size_t n, cap;
};

static int buf_reserve(struct buf *b, size_t more)
{
	if (b->cap - b->n >= more)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->n < more)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (p == NULL)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Writes @v in decimal; the room is reserved by the caller. */
static void put_size(struct buf *b, size_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		b->p[b->n++] = tmp[--n];
}

/*
 * Numbers the labels of a labelling in order of first appearance (any
 * hashable label; two labels are one when equal as dict keys): @ids[i] the
 * number of item i, *@count the labels.  @items: PySequence_Fast items.
 */
/*
 * The items of @o as a tuple, or NULL with @msg as the TypeError: a list is
 * copied, so that a label's __hash__ or __eq__ that changes the list cannot
 * free an item under our feet.
 */
static PyObject *items_tuple(PyObject *o, const char *msg)
{
	PyObject *f = PySequence_Fast(o, msg);
	if (f == NULL || PyTuple_Check(f))
		return f;
	PyObject *t = PyList_AsTuple(f);
	Py_DECREF(f);
	return t;
}

static int intern_labels(PyObject **items, Py_ssize_t n, size_t *ids, size_t *count)
{
	PyObject *dict = PyDict_New();
	if (dict == NULL)
		return -1;
	int rc = -1;
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *id = PyDict_GetItemWithError(dict, items[i]);
		if (id == NULL) {
			if (PyErr_Occurred())
				goto out;
			ids[i] = (size_t)PyDict_GET_SIZE(dict);
			PyObject *nid = PyLong_FromSize_t(ids[i]);
			if (nid == NULL)
				goto out;
			int bad = PyDict_SetItem(dict, items[i], nid);
			Py_DECREF(nid);
			if (bad)
				goto out;
		} else {
			ids[i] = PyLong_AsSize_t(id);
		}
	}
	*count = (size_t)PyDict_GET_SIZE(dict);
	rc = 0;
out:
	Py_DECREF(dict);
	return rc;
}

/*
 * The fast path of integer arrays (NumPy arrays, array.array, memoryview,
 * bytes: anything exposing a one-dimensional buffer of integers): the
 * labels are numbered from the buffer's bytes without a Python object per
 * item.  Two items have the same label when their bytes are equal, which
 * within one buffer (one format) is when their values are.
 */

/* One item of a buffer: its value's bytes and its position. */
struct raw_item {
	uint64_t key;
	size_t index;
};

/*
 * Numbers the @n items of @itemsize bytes at @base (every @stride bytes)
 * in order of first appearance, as intern_labels() does: a stable LSD radix
 * sort by the key's 8 bytes (the passes over bytes equal in every item
 * skipped), then the groups of equal keys numbered by their first item.
 * Time O(n) whatever the values; no Python API (runs without the
 * GIL).  -1 when out of memory.
 */
static int intern_raw(const char *base, Py_ssize_t stride, size_t itemsize, size_t n,
		      size_t *ids, size_t *count)
{
	if (n > SIZE_MAX / sizeof(struct raw_item))
		return -1; /* n * sizeof would wrap (a broadcast view of 2^60 items) */
	struct raw_item *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	size_t *group = malloc(n * sizeof *group), *first_id = malloc(n * sizeof *first_id);
	int rc = -1;
	if (a == NULL || b == NULL || group == NULL || first_id == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		a[i].key = 0;
		memcpy(&a[i].key, base + (Py_ssize_t)i * stride, itemsize);
		a[i].index = i;
	}
	/* every byte of the key (the value's bytes are its low ones on a
	 * little-endian machine, its high ones on a big-endian one) */
	for (size_t byte = 0; byte < sizeof a[0].key; byte++) {
		size_t cnt[256] = { 0 };
		unsigned shift = (unsigned)(8 * byte);
		for (size_t i = 0; i < n; i++)
			cnt[(a[i].key >> shift) & 0xff]++;
		if (cnt[(a[0].key >> shift) & 0xff] == n)
			continue; /* every item has this byte */
		size_t pos = 0;
		for (size_t v = 0; v < 256; v++) {
			size_t c = cnt[v];
			cnt[v] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			b[cnt[(a[i].key >> shift) & 0xff]++] = a[i];
		struct raw_item *t = a;
		a = b;
		b = t;
	}
	/* group[index] = the group of its key, in the order of the keys */
	size_t g = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && a[i].key != a[i - 1].key)
			g++;
		group[a[i].index] = g;
	}
	/* the groups numbered by their first item */
	for (size_t i = 0; i <= g; i++)
		first_id[i] = SIZE_MAX;
	size_t next = 0;
	for (size_t i = 0; i < n; i++) {
		if (first_id[group[i]] == SIZE_MAX)
			first_id[group[i]] = next++;
		ids[i] = first_id[group[i]];
	}
	*count = next;
	rc = 0;
out:
	free(a);
	free(b);
	free(group);
	free(first_id);
	return rc;
}

/* A labelling given to py_labels(): an integer buffer or a tuple of objects. */
struct labelling {
	Py_buffer view;
	int has_view;
	PyObject *tuple;
	Py_ssize_t n;
};

/* Opens @obj as a labelling: its buffer when it exposes a one-dimensional
 * buffer of integers (format b, B, h, H, i, I, l, L, q, Q, n, N or ?, any
 * byte order), else its items as a tuple (TypeError @msg when it is not a
 * sequence).  -1 with a Python exception. */
static int labelling_open(PyObject *obj, struct labelling *l, const char *msg)
{
	l->has_view = 0;
	l->tuple = NULL;
	if (PyObject_CheckBuffer(obj) && PyObject_GetBuffer(obj, &l->view, PyBUF_RECORDS_RO) == 0) {
		const char *f = l->view.format ? l->view.format : "B";
		if (*f && strchr("@=<>!", *f))
			f++;
		if (l->view.ndim == 1 && f[0] && f[1] == '\0' && strchr("bBhHiIlLqQnN?", f[0]) &&
		    l->view.itemsize >= 1 && l->view.itemsize <= 8) {
			l->has_view = 1;
			l->n = l->view.shape[0];
			return 0;
		}
		PyBuffer_Release(&l->view);
	}
	PyErr_Clear(); /* a buffer refused: read it as a sequence */
	l->tuple = items_tuple(obj, msg);
	if (l->tuple == NULL)
		return -1;
	l->n = PySequence_Fast_GET_SIZE(l->tuple);
	return 0;
}

static void labelling_close(struct labelling *l)
{
	if (l->has_view)
		PyBuffer_Release(&l->view);
	l->has_view = 0;
	Py_CLEAR(l->tuple);
}

/* The labels of @l numbered into @ids (l->n of them), *@count distinct. */
static int labelling_ids(struct labelling *l, size_t *ids, size_t *count)
{
	if (!l->has_view)
		return intern_labels(PySequence_Fast_ITEMS(l->tuple), l->n, ids, count);
	int rc;
	const char *base = l->view.buf;
	Py_ssize_t stride = l->view.strides ? l->view.strides[0] : l->view.itemsize;
	Py_BEGIN_ALLOW_THREADS
	rc = intern_raw(base, stride, (size_t)l->view.itemsize, (size_t)l->n, ids, count);
	Py_END_ALLOW_THREADS
	if (rc)
		PyErr_NoMemory();
	return rc;
}

/* The lines "w i id\n" of a labelling: the library's WSI format, one word. */
static int label_lines(const size_t *ids, size_t n, struct buf *b)
{
	for (size_t i = 0; i < n; i++) {
		if (buf_reserve(b, 2 + 2 * 21 + 2))
			return -1;
		b->p[b->n++] = 'w';
		b->p[b->n++] = ' ';
		put_size(b, i);
		b->p[b->n++] = ' ';
		put_size(b, ids[i]);
		b->p[b->n++] = '\n';
	}
	return 0;
}

static PyObject *wsi_figures_dict(const struct tageval_wsi_figures *f, int json)
{
	PyObject *d = PyDict_New();
	if (d == NULL)
		return NULL;
	const struct {
		const char *name;
		double v;
	} fig[] = { { "clusters", f->clusters },
		    { "clusters_2007", f->clusters_2007 },
		    { "classes", f->classes },
		    { "v_measure", f->v_measure },
		    { "homogeneity", f->homogeneity },
		    { "completeness", f->completeness },
		    { "fscore", f->fscore },
		    { "purity", f->purity },
		    { "entropy", f->entropy },
		    { "paired_precision", f->paired_precision },
		    { "paired_recall", f->paired_recall },
		    { "paired_fscore", f->paired_fscore } };
	if (set_steal(d, "instances", PyLong_FromSize_t(f->instances)))
		goto fail;
	for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
		if (set_steal(d, fig[i].name, number(fig[i].v, json)))
			goto fail;
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

static PyObject *clustering_figures_dict(const struct tageval_clustering_figures *f)
{
	PyObject *d = PyDict_New();
	if (d == NULL)
		return NULL;
	const struct {
		const char *name;
		double v;
	} fig[] = { { "ari", f->ari },
		    { "rand", f->rand },
		    { "fowlkes_mallows", f->fowlkes_mallows },
		    { "nmi", f->nmi },
		    { "ami", f->ami },
		    { "bcubed_precision", f->bcubed_precision },
		    { "bcubed_recall", f->bcubed_recall },
		    { "bcubed_fscore", f->bcubed_fscore } };
	if (set_steal(d, "instances", PyLong_FromSize_t(f->instances)))
		goto fail;
	for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
		if (set_steal(d, fig[i].name, number(fig[i].v, 0)))
			goto fail;
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

#define FAMILY_WSI 0x100u
#define FAMILY_ALL (FAMILY_WSI | TAGEVAL_CLUSTERING_BCUBED | TAGEVAL_CLUSTERING_NMI | \
		    TAGEVAL_CLUSTERING_PAIRS)

/* The figures of two labellings, computed without the GIL. */
struct labels_work {
	const size_t *t, *p;     /* the items' class and cluster numbers */
	size_t n, nt, np;        /* items, classes, clusters */
	double beta;
	int normalizer;
	unsigned families;
	struct tageval_wsi_figures wf;
	struct tageval_clustering_figures cf;
	struct tageval_error err;
};

/*
 * The library's dense tables when they are small (at most 2n + 65536
 * cells: time and memory linear in n), else the two labellings as WSI
 * files in memory (sparse: linear whatever the labels).  The dense
 * clustering table computes every family, NMI and AMI included (the
 * expected mutual information is the costly part), so it serves only the
 * calls that ask for NMI.
 */
static int labels_compute(struct labels_work *w)
{
	const size_t limit = 2 * w->n + 65536;
	int dense = w->np <= limit / w->nt;
	int dense_clustering = dense && (w->families & TAGEVAL_CLUSTERING_NMI);
	unsigned clustering = w->families & ~FAMILY_WSI;
	int rc = TAGEVAL_OK;
	if (dense && ((w->families & FAMILY_WSI) || dense_clustering)) {
		/* n[k * nclasses + c]: clusters k, classes c */
		double *table = calloc(w->np * w->nt, sizeof *table);
		if (table == NULL)
			return TAGEVAL_ENOMEM;
		for (size_t i = 0; i < w->n; i++)
			table[w->p[i] * w->nt + w->t[i]] += 1.0;
		if (w->families & FAMILY_WSI)
			rc = tageval_wsi_table_figures(table, w->np, w->nt, w->beta, &w->wf);
		if (rc == TAGEVAL_OK && dense_clustering)
			rc = tageval_clustering_table(table, w->np, w->nt,
						      (enum tageval_normalizer)w->normalizer,
						      &w->cf);
		free(table);
		w->wf.instances = w->cf.instances = w->n;
		if (rc || !clustering || dense_clustering)
			return rc;
	}
	struct buf gold = { 0 }, sys = { 0 };
	struct tageval_wsi *wsi = NULL;
	struct tageval_wsi_result *wr = NULL;
	struct tageval_clustering_result *cr = NULL;
	rc = TAGEVAL_ENOMEM;
	if (label_lines(w->t, w->n, &gold) || label_lines(w->p, w->n, &sys) ||
	    (wsi = tageval_wsi_new()) == NULL)
		goto out;
	rc = tageval_wsi_read_gold_buffer(wsi, gold.p, gold.n, "labels_true", &w->err);
	if (rc == 0)
		rc = tageval_wsi_read_clusters_buffer(wsi, sys.p, sys.n, "labels_pred", &w->err);
	if (rc == 0 && !dense && (w->families & FAMILY_WSI)) {
		struct tageval_wsi_options o;
		tageval_wsi_options_init(&o);
		o.beta = w->beta;
		rc = tageval_wsi_evaluate(wsi, &o, &wr, &w->err);
		if (rc == 0)
			w->wf = *tageval_wsi_result_figures(wr, 0);
	}
	if (rc == 0 && clustering) {
		struct tageval_clustering_options o;
		tageval_clustering_options_init(&o);
		o.mode = TAGEVAL_CLUSTERING_CRISP;
		o.normalizer = (enum tageval_normalizer)w->normalizer;
		o.metrics = clustering;
		rc = tageval_clustering_evaluate(wsi, &o, &cr, &w->err);
		if (rc == 0)
			w->cf = *tageval_clustering_result_figures(cr, 0);
	}
out:
	tageval_clustering_result_free(cr);
	tageval_wsi_result_free(wr);
	tageval_wsi_free(wsi);
	free(gold.p);
	free(sys.p);
	return rc;
}

/*
 * labels(labels_true, labels_pred, beta, normalizer, families) ->
 * (wsi figures dict or None, clustering figures dict or None)
 */
static PyObject *py_labels(PyObject *module, PyObject *args)
{
	PyObject *true_obj, *pred_obj;
	struct labels_work w = { .beta = 1.0 };
	if (!PyArg_ParseTuple(args, "OOdiI:labels", &true_obj, &pred_obj, &w.beta, &w.normalizer,
			      &w.families))
		return NULL;
	if (w.normalizer < TAGEVAL_NORMALIZER_DEFAULT || w.normalizer > TAGEVAL_NORMALIZER_MAX ||
	    w.families == 0 || (w.families & ~(unsigned)FAMILY_ALL)) {
		PyErr_SetString(PyExc_ValueError, "invalid normalizer or families");
		return NULL;
	}
	if (!(w.beta >= 0.0) || !isfinite(w.beta)) {
		PyErr_SetString(PyExc_ValueError, "beta must be a finite number >= 0");
		return NULL;
	}
	PyObject *result = NULL;
	size_t *ids = NULL;
	struct labelling lt = { .has_view = 0 }, lp = { .has_view = 0 };
	if (labelling_open(true_obj, &lt, "labels_true must be a sequence"))
		return NULL;
	if (labelling_open(pred_obj, &lp, "labels_pred must be a sequence"))
		goto out;
	Py_ssize_t n = lt.n;
	if (lp.n != n) {
		PyErr_Format(PyExc_ValueError,
			     "labels_true and labels_pred differ in length: %zd and %zd", n, lp.n);
		goto out;
	}
	if (n == 0) {
		PyErr_SetString(PyExc_ValueError,
				"no labels: every figure is a ratio over the items, undefined for "
				"none (see tageval.metrics)");
		goto out;
	}
	ids = (size_t)n > SIZE_MAX / 2 / sizeof *ids ? NULL
						     : PyMem_RawMalloc(2 * (size_t)n * sizeof *ids);
	if (ids == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	w.n = (size_t)n;
	w.t = ids;
	w.p = ids + n;
	if (labelling_ids(&lt, ids, &w.nt) || labelling_ids(&lp, ids + n, &w.np))
		goto out;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = labels_compute(&w);
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &w.err);
		goto out;
	}
	PyObject *wd = (w.families & FAMILY_WSI) ? wsi_figures_dict(&w.wf, 0) : Py_NewRef(Py_None);
	if (wd == NULL)
		goto out;
	PyObject *cd = (w.families & ~FAMILY_WSI) ? clustering_figures_dict(&w.cf)
						  : Py_NewRef(Py_None);
	if (cd == NULL) {
		Py_DECREF(wd);
		goto out;
	}
	result = PyTuple_Pack(2, wd, cd);
	Py_DECREF(wd);
	Py_DECREF(cd);
out:
	PyMem_RawFree(ids);
	labelling_close(&lt);
	labelling_close(&lp);
	return result;
}

/* ------------------------------------------------------------ file level */

/* wsi(clusters, gold, pos, beta, per_word) -> the dict of vmeasure --format json */
static PyObject *py_wsi(PyObject *module, PyObject *args)
{
	PyObject *cpath = NULL, *gpath = NULL, *result = NULL;
	const char *pos;
	double beta;
	int per_word;
	if (!PyArg_ParseTuple(args, "O&O&zdp:wsi", PyUnicode_FSConverter, &cpath,
			      PyUnicode_FSConverter, &gpath, &pos, &beta, &per_word))
		goto out;
	if (!(beta >= 0.0) || !isfinite(beta)) {
		PyErr_SetString(PyExc_ValueError, "beta must be a finite number >= 0");
		goto out;
	}
	struct tageval_error err = { 0 };
	struct tageval_wsi_result *r = NULL;
	struct tageval_wsi *wsi = NULL;
	const char *cp = PyBytes_AS_STRING(cpath), *gp = PyBytes_AS_STRING(gpath);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = TAGEVAL_ENOMEM;
	wsi = tageval_wsi_new();
	if (wsi) {
		struct tageval_wsi_options o;
		tageval_wsi_options_init(&o);
		o.pos = pos;
		o.beta = beta;
		rc = tageval_wsi_read_gold(wsi, gp, &err);
		if (rc == 0)
			rc = tageval_wsi_read_clusters(wsi, cp, &err);
		if (rc == 0)
			rc = tageval_wsi_evaluate(wsi, &o, &r, &err);
	}
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &err);
		goto done;
	}
	PyObject *d = PyDict_New(), *words = NULL;
	if (d == NULL)
		goto done;
	size_t nw = tageval_wsi_result_words(r);
	if (set_steal(d, "pos", PyUnicode_FromString(pos ? pos : "all")) ||
	    set_steal(d, "words", PyLong_FromSize_t(nw)) ||
	    set_steal(d, "ignored_lines", PyLong_FromSize_t(tageval_wsi_ignored(wsi))) ||
	    set_steal(d, "total", wsi_figures_dict(tageval_wsi_result_total(r), 1)))
		goto fail;
	if (per_word) {
		words = PyDict_New();
		if (words == NULL)
			goto fail;
		for (size_t i = 0; i < nw; i++) {
			PyObject *f = wsi_figures_dict(tageval_wsi_result_figures(r, i), 1);
			const char *name = tageval_wsi_result_word(r, i);
			PyObject *key = f ? PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name),
								 "surrogateescape")
					  : NULL;
			int bad = key == NULL || PyDict_SetItem(words, key, f);
			Py_XDECREF(key);
			Py_XDECREF(f);
			if (bad) {
				Py_DECREF(words); /* not in d yet */
				goto fail;
			}
		}
		if (set_steal(d, "per_word", words))
			goto fail;
	} else if (PyDict_SetItemString(d, "per_word", Py_None)) {
		goto fail;
	}
	result = d;
	goto done;
fail:
	Py_DECREF(d);
done:
	tageval_wsi_result_free(r);
	tageval_wsi_free(wsi);
out:
	Py_XDECREF(cpath);
	Py_XDECREF(gpath);
	return result;
}

static PyObject *clustering_all_dict(const struct tageval_clustering_figures *f)
{
	PyObject *d = clustering_figures_dict(f);
	if (d && set_steal(d, "avg", PyFloat_FromDouble(f->avg))) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}

/*
 * clustering(clusters, gold, pos, mode, normalizer, metrics) -> dict of the
 * raw figures (NaN kept): fuzzy, repeated, ignored_lines, total, pooled (None
 * when fuzzy), per_word (a list of (word, figures) pairs in the result's order)
 */
static PyObject *py_clustering(PyObject *module, PyObject *args)
{
	PyObject *cpath = NULL, *gpath = NULL, *result = NULL;
	const char *pos;
	int mode, normalizer;
	unsigned metrics;
	if (!PyArg_ParseTuple(args, "O&O&ziiI:clustering", PyUnicode_FSConverter, &cpath,
			      PyUnicode_FSConverter, &gpath, &pos, &mode, &normalizer, &metrics))
		goto out;
	if (mode < TAGEVAL_CLUSTERING_AUTO || mode > TAGEVAL_CLUSTERING_FUZZY ||
	    normalizer < TAGEVAL_NORMALIZER_DEFAULT || normalizer > TAGEVAL_NORMALIZER_MAX ||
	    metrics == 0 || (metrics & ~(unsigned)(FAMILY_ALL & ~FAMILY_WSI))) {
		PyErr_SetString(PyExc_ValueError, "invalid mode, normalizer or metrics");
		goto out;
	}
	struct tageval_error err = { 0 };
	struct tageval_clustering_result *r = NULL;
	struct tageval_wsi *wsi = NULL;
	const char *cp = PyBytes_AS_STRING(cpath), *gp = PyBytes_AS_STRING(gpath);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = TAGEVAL_ENOMEM;
	wsi = tageval_wsi_new();
	if (wsi) {
		struct tageval_clustering_options o;
		tageval_clustering_options_init(&o);
		o.pos = pos;
		o.mode = (enum tageval_clustering_mode)mode;
		o.normalizer = (enum tageval_normalizer)normalizer;
		o.metrics = metrics;
		rc = tageval_wsi_read_gold(wsi, gp, &err);
		if (rc == 0)
			rc = tageval_wsi_read_clusters(wsi, cp, &err);
		if (rc == 0)
			rc = tageval_clustering_evaluate(wsi, &o, &r, &err);
	}
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &err);
		goto done;
	}
	PyObject *d = PyDict_New(), *words = NULL;
	if (d == NULL)
		goto done;
	const struct tageval_clustering_figures *pooled = tageval_clustering_result_pooled(r);
	size_t nw = tageval_clustering_result_words(r);
	if (PyDict_SetItemString(d, "fuzzy",
				 tageval_clustering_result_fuzzy(r) ? Py_True : Py_False) ||
	    set_steal(d, "repeated", PyLong_FromSize_t(tageval_clustering_result_repeated(r))) ||
	    set_steal(d, "ignored_lines", PyLong_FromSize_t(tageval_wsi_ignored(wsi))) ||
	    set_steal(d, "total", clustering_all_dict(tageval_clustering_result_total(r))) ||
	    set_steal(d, "pooled", pooled ? clustering_all_dict(pooled) : Py_NewRef(Py_None)))
		goto fail;
	words = PyList_New((Py_ssize_t)nw);
	if (words == NULL)
		goto fail;
	for (size_t i = 0; i < nw; i++) {
		const char *name = tageval_clustering_result_word(r, i);
		PyObject *key = PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name),
						     "surrogateescape");
		PyObject *f = key ? clustering_all_dict(tageval_clustering_result_figures(r, i))
				  : NULL;
		PyObject *pair = f ? PyTuple_Pack(2, key, f) : NULL;
		Py_XDECREF(key);
		Py_XDECREF(f);
		if (pair == NULL) {
			Py_DECREF(words);
			goto fail;
		}
		PyList_SET_ITEM(words, (Py_ssize_t)i, pair);
	}
	if (set_steal(d, "per_word", words))
		goto fail;
	result = d;
	goto done;
fail:
	Py_DECREF(d);
done:
	tageval_clustering_result_free(r);
	tageval_wsi_free(wsi);
out:
	Py_XDECREF(cpath);
	Py_XDECREF(gpath);
	return result;
}

/* Why recall is undefined (as scorer2's JSON says). */
static const char *no_instance(int minimal, int filtered)
{
	if (minimal && filtered)
		return "no instance evaluated (minimal scoring and the filters left out every "
		       "instance of the key)";
	if (minimal)
		return "no instance evaluated (every instance of the key has several tags: "
		       "minimal scoring leaves it out)";
	if (filtered)
		return "no instance evaluated (the filters left out every instance of the key)";
	return "no instance in the key";
}

/* d[member] = num / den, or None with undefined[member] = reason. */
static int ratio(PyObject *d, PyObject *undefined, const char *member, double num, double den,
		 const char *reason)
{
	double v = den == 0.0 ? NAN : num / den;
	if (!isfinite(v) && set_steal(undefined, member, PyUnicode_FromString(reason)))
		return -1;
	return set_steal(d, member, number(v, 1));
}

/*
 * score(answers, key, sensemap, granularity, minimal, conjunctive,
 *       instances, tags) -> the dict of scorer2 --format json
 */
static PyObject *py_score(PyObject *module, PyObject *args)
{
	PyObject *apath = NULL, *kpath = NULL, *mpath = NULL, *ipath = NULL, *tpath = NULL;
	PyObject *result = NULL;
	int granularity, minimal, conjunctive;
	if (!PyArg_ParseTuple(args, "O&O&O&ippO&O&:score", PyUnicode_FSConverter, &apath,
			      PyUnicode_FSConverter, &kpath, opt_path, &mpath, &granularity,
			      &minimal, &conjunctive, opt_path, &ipath, opt_path, &tpath))
		goto out;
	if (granularity < TAGEVAL_FINE || granularity > TAGEVAL_MIXED) {
		PyErr_SetString(PyExc_ValueError, "invalid granularity");
		goto out;
	}
	struct tageval_error err = { 0 };
	struct tageval_inventory *inv = NULL;
	struct tageval_key *key = NULL;
	struct tageval_filter *filter = NULL;
	struct tageval_scorer *scorer = NULL;
	struct tageval_score s;
	struct tageval_score_options opts;
	tageval_score_options_init(&opts);
	opts.granularity = (enum tageval_granularity)granularity;
	opts.minimal = minimal;
	opts.conjunctive = conjunctive;
	const char *ap = PATH(apath), *kp = PATH(kpath), *mp = PATH(mpath), *ip = PATH(ipath),
		   *tp = PATH(tpath);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = TAGEVAL_ENOMEM;
	inv = tageval_inventory_new();
	if (inv) {
		rc = mp ? tageval_inventory_read_map(inv, mp, &err) : 0;
		if (rc == 0)
			rc = tageval_key_read(inv, kp, &key, &err);
		if (rc == 0 && (ip || tp)) {
			filter = tageval_filter_new();
			rc = filter ? 0 : TAGEVAL_ENOMEM;
			if (rc == 0 && ip)
				rc = tageval_filter_read_instances(filter, ip, &err);
			if (rc == 0 && tp)
				rc = tageval_filter_read_tags(filter, inv, tp, &err);
		}
		opts.filter = filter;
		if (rc == 0)
			rc = tageval_scorer_new(inv, key, &opts, &scorer, &err);
		if (rc == 0)
			rc = tageval_scorer_read(scorer, ap, &err);
		if (rc == 0)
			tageval_scorer_result(scorer, &s);
	}
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &err);
		goto done;
	}
	static const char *const gran[] = { "fine", "coarse", "mixed" };
	PyObject *d = PyDict_New(), *u = PyDict_New();
	if (d == NULL || u == NULL)
		goto fail;
	const char *none = no_instance(minimal, filter != NULL);
	if (set_steal(d, "granularity", PyUnicode_FromString(gran[granularity])) ||
	    PyDict_SetItemString(d, "minimal", minimal ? Py_True : Py_False) ||
	    PyDict_SetItemString(d, "conjunctive", conjunctive ? Py_True : Py_False) ||
	    set_steal(d, "answers", PyUnicode_DecodeFSDefault(ap)) ||
	    set_steal(d, "key", PyUnicode_DecodeFSDefault(kp)) ||
	    set_steal(d, "correct", number(s.correct, 1)) ||
	    set_steal(d, "attempted", number(s.attempted, 1)) ||
	    set_steal(d, "total", number(s.total, 1)) ||
	    ratio(d, u, "precision", s.correct, s.attempted,
		  "nothing attempted (no answer scored)") ||
	    ratio(d, u, "recall", s.correct, s.total, none) ||
	    ratio(d, u, "attempted_percent", 100.0 * s.attempted, s.total, none) ||
	    set_steal(d, "instances", PyLong_FromSize_t(s.instances)) ||
	    set_steal(d, "scored", PyLong_FromSize_t(s.scored)) ||
	    set_steal(d, "not_in_key", PyLong_FromSize_t(s.not_in_key)) ||
	    set_steal(d, "invalid", PyLong_FromSize_t(s.invalid)) ||
	    set_steal(d, "excluded", PyLong_FromSize_t(s.excluded)) ||
	    set_steal(d, "filtered", PyLong_FromSize_t(s.filtered)))
		goto fail;
	if (PyDict_GET_SIZE(u) && PyDict_SetItemString(d, "undefined", u))
		goto fail;
	Py_DECREF(u);
	result = d;
	goto done;
fail:
	Py_XDECREF(d);
	Py_XDECREF(u);
done:
	tageval_scorer_free(scorer);
	tageval_key_free(key);
	tageval_filter_free(filter);
	tageval_inventory_free(inv);
out:
	Py_XDECREF(apath);
	Py_XDECREF(kpath);
	Py_XDECREF(mpath);
	Py_XDECREF(ipath);
	Py_XDECREF(tpath);
	return result;
}

/* ------------------------------------------------------- supervised WSI */

/*
 * The paths of a sequence of paths (each through PyUnicode_FSConverter)
 * into @out[] (new references, @n of them: free with free_paths()).
 */
static PyObject **fs_paths(PyObject *seq_obj, Py_ssize_t *n, const char *msg)
{
	PyObject *seq = items_tuple(seq_obj, msg);
	if (seq == NULL)
		return NULL;
	*n = PySequence_Fast_GET_SIZE(seq);
	PyObject **out = PyMem_Calloc((size_t)*n + 1, sizeof *out);
	if (out == NULL) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return NULL;
	}
	for (Py_ssize_t i = 0; i < *n; i++)
		if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &out[i])) {
			for (Py_ssize_t j = 0; j < i; j++)
				Py_DECREF(out[j]);
			PyMem_Free(out);
			out = NULL;
			break;
		}
	Py_DECREF(seq);
	return out;
}

static void free_paths(PyObject **p, Py_ssize_t n)
{
	for (Py_ssize_t i = 0; p && i < n; i++)
		Py_XDECREF(p[i]);
	PyMem_Free(p);
}

/* d[member] = v, or None with undefined[member] = reason when v is not finite. */
static int figure(PyObject *d, PyObject *undefined, const char *member, double v,
		  const char *reason)
{
	if (!isfinite(v) && set_steal(undefined, member, PyUnicode_FromString(reason)))
		return -1;
	return set_steal(d, member, number(v, 1));
}

/* d["undefined"] = @u when it is not empty; steals @u. */
static int put_undefined(PyObject *d, PyObject *u)
{
	int rc = PyDict_GET_SIZE(u) ? PyDict_SetItemString(d, "undefined", u) : 0;
	Py_DECREF(u);
	return rc;
}

static PyObject *split_dict(const struct tageval_supervised_result *r)
{
	PyObject *d = PyDict_New(), *u = PyDict_New();
	if (d == NULL || u == NULL)
		goto fail;
	if (set_steal(d, "mapping", PyLong_FromSize_t(r->mapping)) ||
	    set_steal(d, "test", PyLong_FromSize_t(r->test)) ||
	    set_steal(d, "answered", PyLong_FromSize_t(r->answered)) ||
	    set_steal(d, "correct", number(r->correct, 1)) ||
	    figure(d, u, "precision", r->precision,
		   "no test instance answered (the mapped answers give no sense to any)") ||
	    figure(d, u, "recall", r->recall, "no test instance") ||
	    figure(d, u, "attempted", r->attempted, "no test instance"))
		goto fail;
	if (put_undefined(d, u)) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(u);
	return NULL;
}

/* The work of supervised(), without the GIL. */
struct supervised_work {
	const char *clusters, *gold, *pos;
	const char **given; /* mapping, test, mapping, test, ... */
	size_t ngiven, folds, nsplits;
	double fraction;
	unsigned long seed;
	size_t n;
	struct tageval_supervised_result *res;
	double mean, var, sd;
	struct tageval_error err;
};

static int supervised_compute(struct supervised_work *w)
{
	struct tageval_wsi *wsi = tageval_wsi_new();
	struct tageval_supervised *sup = NULL;
	double *recalls = NULL;
	int rc = TAGEVAL_ENOMEM;
	if (wsi == NULL)
		goto out;
	rc = tageval_wsi_read_gold(wsi, w->gold, &w->err);
	if (rc == 0)
		rc = tageval_wsi_read_clusters(wsi, w->clusters, &w->err);
	if (rc == 0)
		rc = tageval_supervised_new(wsi, w->pos, &sup, &w->err);
	for (size_t i = 0; rc == 0 && i < w->ngiven; i++)
		rc = tageval_supervised_add_files(sup, w->given[2 * i], w->given[2 * i + 1],
						  &w->err);
	if (rc == 0 && w->folds)
		rc = tageval_supervised_add_folds(sup, w->folds, w->seed, &w->err);
	if (rc == 0 && w->nsplits)
		rc = tageval_supervised_add_random(sup, w->nsplits, w->fraction, w->seed, &w->err);
	if (rc)
		goto out;
	w->n = tageval_supervised_splits(sup);
	w->res = calloc(w->n ? w->n : 1, sizeof *w->res);
	recalls = calloc(w->n ? w->n : 1, sizeof *recalls);
	rc = TAGEVAL_ENOMEM;
	if (w->res == NULL || recalls == NULL)
		goto out;
	rc = 0;
	for (size_t i = 0; rc == 0 && i < w->n; i++) {
		rc = tageval_supervised_evaluate(sup, i, &w->res[i], NULL, &w->err);
		recalls[i] = 100.0 * w->res[i].recall;
	}
	if (rc == 0) {
		/* as wsi-supervised: percent, GSL's mean and sample variance */
		w->mean = gsl_stats_mean(recalls, 1, w->n);
		w->var = w->n > 1 ? gsl_stats_variance_m(recalls, 1, w->n, w->mean) : NAN;
		w->sd = sqrt(w->var);
	}
out:
	free(recalls);
	tageval_supervised_free(sup);
	tageval_wsi_free(wsi);
	return rc;
}

/*
 * supervised(clusters, gold, pos, given, folds, nsplits, fraction, seed) ->
 * {"splits": [...], "mean_recall", "variance", "stddev"[, "undefined"]}:
 * the figures of wsi-supervised --format json (given: a sequence of
 * mapping, test paths, flattened).
 */
static PyObject *py_supervised(PyObject *module, PyObject *args)
{
	PyObject *cpath = NULL, *gpath = NULL, *given_obj, *result = NULL;
	PyObject **given = NULL;
	Py_ssize_t ngiven = 0;
	struct supervised_work w = { 0 };
	unsigned long long seed;
	if (!PyArg_ParseTuple(args, "O&O&zOnndK:supervised", PyUnicode_FSConverter, &cpath,
			      PyUnicode_FSConverter, &gpath, &w.pos, &given_obj, &w.folds,
			      &w.nsplits, &w.fraction, &seed))
		goto out;
	if (seed > 0xffffffffull || (w.nsplits && !(w.fraction > 0.0 && w.fraction < 1.0)) ||
	    (w.folds == 1)) {
		PyErr_SetString(PyExc_ValueError, "invalid seed, folds or test fraction");
		goto out;
	}
	w.seed = (unsigned long)seed;
	given = fs_paths(given_obj, &ngiven, "given splits must be a sequence of paths");
	if (given == NULL)
		goto out;
	if (ngiven % 2) {
		PyErr_SetString(PyExc_ValueError, "given splits: mapping and test paths in pairs");
		goto out;
	}
	w.given = PyMem_Calloc((size_t)ngiven + 1, sizeof *w.given);
	if (w.given == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < ngiven; i++)
		w.given[i] = PyBytes_AS_STRING(given[i]);
	w.ngiven = (size_t)ngiven / 2;
	w.clusters = PyBytes_AS_STRING(cpath);
	w.gold = PyBytes_AS_STRING(gpath);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = supervised_compute(&w);
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &w.err);
		goto out;
	}
	PyObject *d = PyDict_New(), *u = PyDict_New(), *splits = PyList_New((Py_ssize_t)w.n);
	if (d == NULL || u == NULL || splits == NULL)
		goto fail;
	for (size_t i = 0; i < w.n; i++) {
		PyObject *s = split_dict(&w.res[i]);
		if (s == NULL)
			goto fail;
		PyList_SET_ITEM(splits, (Py_ssize_t)i, s);
	}
	int bad = PyDict_SetItemString(d, "splits", splits);
	Py_CLEAR(splits);
	/* fractions, as the tool's JSON: percent / 100, percent squared / 10^4 */
	if (bad || figure(d, u, "mean_recall", w.mean / 100.0, "no split") ||
	    figure(d, u, "variance", w.var / 10000.0,
		   "a single split (the sample variance needs two or more)") ||
	    figure(d, u, "stddev", w.sd / 100.0,
		   "a single split (the sample variance needs two or more)"))
		goto fail;
	bad = put_undefined(d, u);
	u = NULL;
	if (bad)
		goto fail;
	result = d;
	goto out;
fail:
	Py_XDECREF(d);
	Py_XDECREF(u);
	Py_XDECREF(splits);
out:
	free(w.res);
	PyMem_Free(w.given);
	free_paths(given, ngiven);
	Py_XDECREF(cpath);
	Py_XDECREF(gpath);
	return result;
}

/* --------------------------------------------------------------- agreement */

/* d[member] = v, or None with undefined[member] = the reason when @why says
 * the figure is undefined or it is not finite (hkappa's JSON). */
static int agreement_member(PyObject *d, PyObject *u, const char *member, double v, int why)
{
	if (why || !isfinite(v)) {
		const char *reason = why ? tageval_undefined_reason(why) : "not a finite number";
		if (set_steal(u, member, PyUnicode_FromString(reason)))
			return -1;
		return PyDict_SetItemString(d, member, Py_None);
	}
	return set_steal(d, member, PyFloat_FromDouble(v));
}

/* The figures object of hkappa --format json (its "pooled", a lexelt's):
 * "undefined" is always there, {} when every figure is defined. */
static PyObject *agreement_dict(const struct tageval_agreement_figures *f)
{
	PyObject *d = PyDict_New(), *u = PyDict_New();
	int none = f->items == 0 ? TAGEVAL_UNDEFINED_NO_ITEMS : TAGEVAL_DEFINED;
	int sep = none ? none
		       : (f->separate_undefined == TAGEVAL_UNDEFINED_INCOMPLETE
				  ? TAGEVAL_UNDEFINED_INCOMPLETE
				  : TAGEVAL_DEFINED);
	if (d == NULL || u == NULL || set_steal(d, "items", PyLong_FromSize_t(f->items)) ||
	    set_steal(d, "annotations", PyLong_FromSize_t(f->annotations)) ||
	    set_steal(d, "complete", PyLong_FromSize_t(f->complete)) ||
	    agreement_member(d, u, "pr_a", f->pr_a, none) ||
	    agreement_member(d, u, "pr_e", f->pr_e, none) ||
	    agreement_member(d, u, "kappa", f->kappa, f->kappa_undefined) ||
	    agreement_member(d, u, "pr_e_cohen", f->pr_e_separate, sep) ||
	    agreement_member(d, u, "kappa_cohen", f->kappa_separate, f->separate_undefined) ||
	    agreement_member(d, u, "d_o", f->d_o, none) ||
	    agreement_member(d, u, "d_e", f->d_e, none) ||
	    agreement_member(d, u, "alpha", f->alpha, f->alpha_undefined) ||
	    PyDict_SetItemString(d, "undefined", u)) {
		Py_XDECREF(d);
		Py_XDECREF(u);
		return NULL;
	}
	Py_DECREF(u);
	return d;
}

/* The coefficients of hkappa --coefficients beyond the default three, in
 * its order: JSON name, family (0 alpha levels, 1 chance, 2 set alphas),
 * index in the family's arrays. */
static const struct {
	const char *key;
	int family, index;
} extra_coefs[] = {
	{ "gwet_ac1", 1, TAGEVAL_GWET_AC1 },
	{ "gwet_ac2", 1, TAGEVAL_GWET_AC2 },
	{ "brennan_prediger", 1, TAGEVAL_BRENNAN_PREDIGER },
	{ "conger_kappa", 1, TAGEVAL_CONGER_KAPPA },
	{ "kappa_linear", 1, TAGEVAL_KAPPA_LINEAR },
	{ "kappa_quadratic", 1, TAGEVAL_KAPPA_QUADRATIC },
	{ "alpha_nominal", 0, TAGEVAL_NOMINAL },
	{ "alpha_ordinal", 0, TAGEVAL_ORDINAL },
	{ "alpha_interval", 0, TAGEVAL_INTERVAL },
	{ "alpha_ratio", 0, TAGEVAL_RATIO },
	{ "alpha_exact", 2, TAGEVAL_DISTANCE_EXACT },
	{ "alpha_jaccard", 2, TAGEVAL_DISTANCE_JACCARD },
	{ "alpha_masi", 2, TAGEVAL_DISTANCE_MASI },
};
#define N_EXTRA (sizeof extra_coefs / sizeof extra_coefs[0])

/* The three coefficients of "macro" and "bootstrap", in hkappa's order. */
static const struct {
	const char *key;
	enum tageval_coefficient which;
} main_coefs[] = { { "kappa", TAGEVAL_KAPPA },
		   { "kappa_cohen", TAGEVAL_KAPPA_SEPARATE },
		   { "alpha", TAGEVAL_ALPHA } };

/* The work of hkappa(), without the GIL: the library's objects, kept until
 * the dict is built. */
struct hkappa_work {
	const char **files;
	size_t nann;
	const char *senses, *downward;
	double smoothing;
	struct tageval_agreement_options opts;
	unsigned extra;
	size_t categories;
	int pairs, leave_one_out;
	struct tageval_inventory *inv;
	struct tageval_annotations *ann;
	struct tageval_agreement *ag;
	struct tageval_alpha_figures lv;
	struct tageval_chance_figures ch;
	struct tageval_set_alpha sets;
	struct tageval_agreement_figures *pairs_f; /* [i * nann + j], i < j */
	struct tageval_agreement_figures *without;  /* [k] */
	struct tageval_error err;
};

static void figures_none(struct tageval_agreement_figures *f)
{
	*f = (struct tageval_agreement_figures){ 0 };
	f->pr_a = f->pr_e = f->pr_e_separate = f->d_o = f->d_e = NAN;
	f->kappa = f->kappa_separate = f->alpha = NAN;
	f->kappa_undefined = f->separate_undefined = f->alpha_undefined =
		TAGEVAL_UNDEFINED_NO_ITEMS;
}

/* The figures of the annotators @which[] (@n) into @f: those of no item
 * when they share none (as hkappa --pairs and --leave-one-out). */
static int subset_figures(struct hkappa_work *w, const size_t *which, size_t n,
			  struct tageval_agreement_figures *f)
{
	struct tageval_agreement_options po = w->opts;
	po.bootstrap = 0;
	struct tageval_agreement *ag = NULL;
	int rc = tageval_agreement_subset(w->ann, which, n, &po, &ag, &w->err);
	if (rc == TAGEVAL_ENOTFOUND) {
		figures_none(f);
		return 0;
	}
	if (rc == 0)
		*f = *tageval_agreement_pooled(ag);
	tageval_agreement_free(ag);
	return rc;
}

static int hkappa_compute(struct hkappa_work *w)
{
	int rc = TAGEVAL_ENOMEM;
	w->inv = tageval_inventory_new();
	if (w->inv == NULL || tageval_annotations_new(w->inv, &w->ann))
		return TAGEVAL_ENOMEM;
	if (w->senses && (rc = tageval_inventory_read_map(w->inv, w->senses, &w->err)))
		return rc;
	if (w->downward && (rc = tageval_inventory_estimate_downward(w->inv, w->downward,
								       w->smoothing, &w->err)))
		return rc;
	for (size_t i = 0; i < w->nann; i++)
		if ((rc = tageval_annotations_read(w->ann, w->files[i], &w->err)))
			return rc;
	if ((rc = tageval_agreement_compute(w->ann, &w->opts, &w->ag, &w->err)))
		return rc;
	unsigned want = 0, levels = 0;
	for (size_t i = 0; i < N_EXTRA; i++)
		if (w->extra & 1u << i) {
			want |= 1u << extra_coefs[i].family;
			if (extra_coefs[i].family == 0)
				levels |= 1u << extra_coefs[i].index;
		}
	if ((want & 1u) && (rc = tageval_agreement_alpha_levels(w->ann, levels, &w->lv, &w->err)))
		return rc;
	if ((want & 2u) &&
	    (rc = tageval_agreement_chance(w->ann, w->categories, &w->ch, &w->err)))
		return rc;
	if ((want & 4u) && (rc = tageval_agreement_alpha_sets(w->ann, &w->sets, &w->err)))
		return rc;
	size_t n = w->nann;
	if (w->pairs) {
		w->pairs_f = calloc(n * n, sizeof *w->pairs_f);
		if (w->pairs_f == NULL)
			return TAGEVAL_ENOMEM;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				const size_t two[2] = { i, j };
				if ((rc = subset_figures(w, two, 2, &w->pairs_f[i * n + j])))
					return rc;
			}
	}
	if (w->leave_one_out) {
		w->without = calloc(n, sizeof *w->without);
		size_t *which = malloc(n * sizeof *which);
		if (w->without == NULL || which == NULL) {
			free(which);
			return TAGEVAL_ENOMEM;
		}
		for (size_t k = 0; k < n && rc == 0; k++) {
			size_t m = 0;
			for (size_t c = 0; c < n; c++)
				if (c != k)
					which[m++] = c;
			rc = subset_figures(w, which, m, &w->without[k]);
		}
		free(which);
	}
	return rc;
}

static void hkappa_free(struct hkappa_work *w)
{
	free(w->pairs_f);
	free(w->without);
	tageval_agreement_free(w->ag);
	tageval_annotations_free(w->ann);
	tageval_inventory_free(w->inv);
}

static double extra_value(const struct hkappa_work *w, size_t i, int *why)
{
	int k = extra_coefs[i].index;
	switch (extra_coefs[i].family) {
	case 0:
		*why = w->lv.undefined[k];
		return w->lv.alpha[k];
	case 1:
		*why = w->ch.undefined[k];
		return w->ch.value[k];
	default:
		*why = w->sets.undefined[k];
		return w->sets.alpha[k];
	}
}

/* d[member] = *@o, which it steals (*@o NULL after); -1 on error. */
static int steal_member(PyObject *d, const char *member, PyObject **o)
{
	int rc = PyDict_SetItemString(d, member, *o);
	Py_CLEAR(*o);
	return rc;
}

/* put_undefined(*@o, *@u), *@u NULL after (and *@o on an error). */
static int steal_undefined(PyObject **o, PyObject **u)
{
	int rc = put_undefined(*o, *u);
	*u = NULL;
	if (rc)
		Py_CLEAR(*o);
	return rc;
}

/* The members of hkappa's JSON after "files" (which Python adds). */
static int hkappa_dict(PyObject *d, const struct hkappa_work *w, int per_lexelt)
{
	const struct tageval_agreement_figures *f = tageval_agreement_pooled(w->ag);
	PyObject *top = PyDict_New(), *o = NULL, *u = NULL;
	if (top == NULL)
		return -1;
	int none = f->items == 0 ? TAGEVAL_UNDEFINED_NO_ITEMS : TAGEVAL_DEFINED;
	if (set_steal(d, "items", PyLong_FromSize_t(f->items)))
		goto fail;
	PyObject *single = PyList_New((Py_ssize_t)w->nann);
	if (single == NULL)
		goto fail;
	for (size_t c = 0; c < w->nann; c++) {
		PyObject *v = PyLong_FromSize_t(tageval_agreement_single(w->ag, c));
		if (v == NULL) {
			Py_DECREF(single);
			goto fail;
		}
		PyList_SET_ITEM(single, (Py_ssize_t)c, v);
	}
	if (set_steal(d, "single", single) ||
	    agreement_member(d, top, "pr_a", f->pr_a, none) ||
	    agreement_member(d, top, "pr_e", f->pr_e, none) ||
	    agreement_member(d, top, "kappa", f->kappa, f->kappa_undefined) ||
	    agreement_member(d, top, "kappa_cohen", f->kappa_separate, f->separate_undefined) ||
	    agreement_member(d, top, "alpha", f->alpha, f->alpha_undefined))
		goto fail;
	for (size_t i = 0; i < N_EXTRA; i++)
		if (w->extra & 1u << i) {
			int why;
			double v = extra_value(w, i, &why);
			if (agreement_member(d, top, extra_coefs[i].key, v, why))
				goto fail;
		}
	if (set_steal(d, "pooled", agreement_dict(f)))
		goto fail;
	/* macro: each coefficient's mean over the lexelts where it is defined */
	if ((o = PyDict_New()) == NULL || (u = PyDict_New()) == NULL)
		goto fail;
	for (size_t i = 0; i < 3; i++) {
		size_t used, out;
		char key[64];
		double v = tageval_agreement_macro(w->ag, main_coefs[i].which, &used, &out);
		if (used == 0 || !isfinite(v)) {
			if (PyDict_SetItemString(o, main_coefs[i].key, Py_None) ||
			    set_steal(u, main_coefs[i].key,
				      PyUnicode_FromString("defined in no lexelt (see per_lexelt)")))
				goto fail;
		} else if (set_steal(o, main_coefs[i].key, PyFloat_FromDouble(v))) {
			goto fail;
		}
		snprintf(key, sizeof key, "%s_lexelts", main_coefs[i].key);
		if (set_steal(o, key, PyLong_FromSize_t(used)))
			goto fail;
		snprintf(key, sizeof key, "%s_left_out", main_coefs[i].key);
		if (set_steal(o, key, PyLong_FromSize_t(out)))
			goto fail;
	}
	if (steal_undefined(&o, &u) || steal_member(d, "macro", &o))
		goto fail;
	if (w->opts.bootstrap > 0) {
		if ((o = PyDict_New()) == NULL || (u = PyDict_New()) == NULL ||
		    set_steal(o, "replicates", PyLong_FromSize_t(w->opts.bootstrap)) ||
		    set_steal(o, "seed", PyLong_FromUnsignedLong(w->opts.seed)) ||
		    set_steal(o, "confidence", PyFloat_FromDouble(w->opts.confidence)))
			goto fail;
		for (size_t i = 0; i < 3; i++) {
			double lo, hi;
			size_t reps;
			if (tageval_agreement_interval(w->ag, main_coefs[i].which, &lo, &hi, &reps) ==
			    TAGEVAL_OK) {
				if (set_steal(o, main_coefs[i].key,
					      Py_BuildValue("[NN]", number(lo, 1), number(hi, 1))))
					goto fail;
			} else if (PyDict_SetItemString(o, main_coefs[i].key, Py_None) ||
				   set_steal(u, main_coefs[i].key,
					     PyUnicode_FromString("defined in fewer than half the "
								  "replicates"))) {
				goto fail;
			}
		}
		if (steal_undefined(&o, &u) || steal_member(d, "bootstrap", &o))
			goto fail;
	}
	size_t n = w->nann;
	if (w->pairs) {
		if ((o = PyList_New(0)) == NULL)
			goto fail;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				const struct tageval_agreement_figures *p = &w->pairs_f[i * n + j];
				PyObject *pd = PyDict_New(), *pu = PyDict_New();
				int bad = pd == NULL || pu == NULL ||
					  set_steal(pd, "annotators", Py_BuildValue("[nn]", (Py_ssize_t)i,
										     (Py_ssize_t)j)) ||
					  set_steal(pd, "items", PyLong_FromSize_t(p->items)) ||
					  agreement_member(pd, pu, "kappa_cohen", p->kappa_separate,
							   p->separate_undefined) ||
					  PyDict_SetItemString(pd, "undefined", pu) || PyList_Append(o, pd);
				Py_XDECREF(pd);
				Py_XDECREF(pu);
				if (bad)
					goto fail;
			}
		if (steal_member(d, "pairs", &o))
			goto fail;
	}
	if (w->leave_one_out) {
		if ((o = PyList_New((Py_ssize_t)n)) == NULL)
			goto fail;
		for (size_t k = 0; k < n; k++) {
			PyObject *e = Py_BuildValue("{s:n,s:N}", "without", (Py_ssize_t)k, "figures",
						    agreement_dict(&w->without[k]));
			if (e == NULL)
				goto fail;
			PyList_SET_ITEM(o, (Py_ssize_t)k, e);
		}
		if (steal_member(d, "leave_one_out", &o))
			goto fail;
	}
	if (per_lexelt) {
		if ((o = PyDict_New()) == NULL)
			goto fail;
		for (size_t i = 0; i < tageval_agreement_lexelts(w->ag); i++) {
			const char *name = tageval_agreement_lexelt_name(w->ag, i);
			PyObject *key = PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name),
							     "surrogateescape");
			PyObject *fd = key ? agreement_dict(tageval_agreement_lexelt(w->ag, i)) : NULL;
			int bad = fd == NULL || PyDict_SetItem(o, key, fd);
			Py_XDECREF(key);
			Py_XDECREF(fd);
			if (bad)
				goto fail;
		}
		if (steal_member(d, "per_lexelt", &o))
			goto fail;
	} else if (PyDict_SetItemString(d, "per_lexelt", Py_None)) {
		goto fail;
	}
	if (put_undefined(d, top))
		return -1;
	return 0;
fail:
	Py_XDECREF(o);
	Py_XDECREF(u);
	Py_DECREF(top);
	return -1;
}

/*
 * hkappa(files, senses, downward, smoothing, bootstrap, seed, confidence,
 *        extra, categories, pairs, leave_one_out, per_lexelt) -> the dict of
 * hkappa --format json without "annotators" and "files"
 */
static PyObject *py_hkappa(PyObject *module, PyObject *args)
{
	PyObject *files_obj, *spath = NULL, *dpath = NULL, *result = NULL;
	PyObject **files = NULL;
	Py_ssize_t nfiles = 0;
	struct hkappa_work w = { 0 };
	unsigned long long seed;
	int per_lexelt;
	tageval_agreement_options_init(&w.opts);
	if (!PyArg_ParseTuple(args, "OO&O&dnKdInppp:hkappa", &files_obj, opt_path, &spath,
			      opt_path, &dpath, &w.smoothing, &w.opts.bootstrap, &seed,
			      &w.opts.confidence, &w.extra, &w.categories, &w.pairs,
			      &w.leave_one_out, &per_lexelt))
		goto out;
	if (seed > 0xffffffffull || !(w.opts.confidence > 0.0 && w.opts.confidence < 1.0) ||
	    !(w.smoothing >= 0.0 && w.smoothing <= 1e12) || (w.extra >> N_EXTRA) ||
	    w.categories == 1) {
		PyErr_SetString(PyExc_ValueError,
				"invalid seed, confidence, smoothing, coefficients or categories");
		goto out;
	}
	w.opts.seed = (unsigned long)seed;
	files = fs_paths(files_obj, &nfiles, "files must be a sequence of paths");
	if (files == NULL)
		goto out;
	if (nfiles < 2 || (w.leave_one_out && nfiles < 3)) {
		PyErr_SetString(PyExc_ValueError,
				nfiles < 2 ? "two annotation files are needed"
					   : "leave_one_out needs three or more annotation files");
		goto out;
	}
	w.files = PyMem_Calloc((size_t)nfiles, sizeof *w.files);
	if (w.files == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < nfiles; i++)
		w.files[i] = PyBytes_AS_STRING(files[i]);
	w.nann = (size_t)nfiles;
	w.senses = PATH(spath);
	w.downward = PATH(dpath);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = hkappa_compute(&w);
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &w.err);
		goto out;
	}
	PyObject *d = PyDict_New();
	if (d && hkappa_dict(d, &w, per_lexelt))
		Py_CLEAR(d);
	result = d;
out:
	hkappa_free(&w);
	PyMem_Free(w.files);
	free_paths(files, nfiles);
	Py_XDECREF(spath);
	Py_XDECREF(dpath);
	return result;
}

/*
 * A tag name of hierarchical_kappa(): a non-empty str without blanks, '/'
 * or "!!" (they would change how the line reads), appended to @b after a
 * space.  -1 with a Python exception.
 */
static int put_tag(struct buf *b, PyObject *label)
{
	Py_ssize_t len;
	const char *s = PyUnicode_Check(label) ? PyUnicode_AsUTF8AndSize(label, &len) : NULL;
	if (s == NULL) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_TypeError,
				     "a tag must be a str (or a sequence of str), not %.100s",
				     Py_TYPE(label)->tp_name);
		return -1;
	}
	if (len == 0 || strpbrk(s, " \t\n\r\v\f/") || strstr(s, "!!") ||
	    strlen(s) != (size_t)len) {
		PyErr_Format(PyExc_ValueError,
			     "invalid tag %R (empty, or with a blank, a '/', a NUL or \"!!\")", label);
		return -1;
	}
	if (buf_reserve(b, (size_t)len + 1)) {
		PyErr_NoMemory();
		return -1;
	}
	b->p[b->n++] = ' ';
	memcpy(b->p + b->n, s, (size_t)len);
	b->n += (size_t)len;
	return 0;
}

/*
 * One annotation of py_agreement() after "x i" on its line: by @mode 0 any
 * hashable label, numbered through @dict ("t<number>", every label a tag of
 * its own); 1 a tag name or a sequence of them (put_tag()); 2 an int >= 0,
 * written as it is.  -1 with a Python exception.
 */
static int put_annotation(struct buf *b, PyObject *label, int mode, PyObject *dict)
{
	if (mode == 1) {
		if (PyUnicode_Check(label))
			return put_tag(b, label);
		PyObject *tags = items_tuple(label, "a label must be a tag (str) or a sequence "
						    "of tags");
		if (tags == NULL)
			return -1;
		Py_ssize_t n = PySequence_Fast_GET_SIZE(tags);
		int rc = n == 0 ? -1 : 0;
		if (n == 0)
			PyErr_SetString(PyExc_ValueError, "an empty sequence of tags");
		for (Py_ssize_t i = 0; i < n && rc == 0; i++)
			rc = put_tag(b, PySequence_Fast_GET_ITEM(tags, i));
		Py_DECREF(tags);
		return rc;
	}
	size_t v;
	if (mode == 2) {
		v = PyLong_AsSize_t(label);
		if (v == (size_t)-1 && PyErr_Occurred())
			return -1;
	} else {
		PyObject *id = PyDict_GetItemWithError(dict, label);
		if (id == NULL) {
			if (PyErr_Occurred())
				return -1;
			v = (size_t)PyDict_GET_SIZE(dict);
			PyObject *nid = PyLong_FromSize_t(v);
			int bad = nid == NULL || PyDict_SetItem(dict, label, nid);
			Py_XDECREF(nid);
			if (bad)
				return -1;
		} else {
			v = PyLong_AsSize_t(id);
		}
	}
	if (buf_reserve(b, 24)) {
		PyErr_NoMemory();
		return -1;
	}
	b->p[b->n++] = ' ';
	if (mode == 0)
		b->p[b->n++] = 't';
	put_size(b, v);
	return 0;
}

/* The work of py_agreement() without the GIL. */
struct agreement_work {
	struct buf *bufs, map;
	Py_ssize_t na;
	const char *map_path; /* or the map in @map when map.p is not NULL */
	int chance;
	struct tageval_agreement_figures f;
	struct tageval_chance_figures ch;
	struct tageval_error err;
};

static int agreement_compute(struct agreement_work *w)
{
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	int rc = inv ? tageval_annotations_new(inv, &ann) : TAGEVAL_ENOMEM;
	if (rc == 0 && w->map_path)
		rc = tageval_inventory_read_map(inv, w->map_path, &w->err);
	else if (rc == 0 && w->map.p)
		rc = tageval_inventory_read_map_buffer(inv, w->map.p, w->map.n, "senses", &w->err);
	for (Py_ssize_t a = 0; rc == 0 && a < w->na; a++) {
		char name[32];
		snprintf(name, sizeof name, "annotator %zd", a + 1);
		rc = tageval_annotations_read_buffer(ann, w->bufs[a].p, w->bufs[a].n, name,
						     &w->err);
	}
	if (rc == 0)
		rc = tageval_agreement_compute(ann, NULL, &ag, &w->err);
	if (rc == 0)
		w->f = *tageval_agreement_pooled(ag);
	if (rc == 0 && w->chance)
		rc = tageval_agreement_chance(ann, 0, &w->ch, &w->err);
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
	return rc;
}

/*
 * agreement(annotations, mode, map_path, map_text) -> the pooled figures
 * dict of hkappa's JSON (None and "undefined" for a figure not defined),
 * with mode 2 also "kappa_linear" and "kappa_quadratic" (floats, NaN when
 * undefined).  @annotations: a sequence (annotators) of sequences (items)
 * of labels, None for an item the annotator left out; @mode: see
 * put_annotation(); map_path (a path) or map_text (bytes, "tag parent"
 * lines): the sense map of mode 1, or None.
 */
static PyObject *py_agreement(PyObject *module, PyObject *args)
{
	PyObject *ann_obj, *mpath = NULL, *mtext, *outer = NULL, *dict = NULL, *result = NULL;
	struct agreement_work w = { 0 };
	int mode;
	if (!PyArg_ParseTuple(args, "OiO&O:agreement", &ann_obj, &mode, opt_path, &mpath, &mtext))
		return NULL;
	if (mode < 0 || mode > 2 || (mtext != Py_None && !PyBytes_Check(mtext))) {
		PyErr_SetString(PyExc_ValueError, "invalid mode or map");
		goto out;
	}
	outer = items_tuple(ann_obj, "annotations must be a sequence of sequences");
	if (outer == NULL)
		goto out;
	w.na = PySequence_Fast_GET_SIZE(outer);
	if (w.na < 2) {
		PyErr_SetString(PyExc_ValueError, "at least two annotators are needed");
		goto out;
	}
	w.bufs = calloc((size_t)w.na, sizeof *w.bufs);
	dict = PyDict_New();
	if (w.bufs == NULL || dict == NULL) {
		if (w.bufs == NULL)
			PyErr_NoMemory();
		goto out;
	}
	Py_ssize_t nitems = -1;
	for (Py_ssize_t a = 0; a < w.na; a++) {
		PyObject *seq = items_tuple(PySequence_Fast_GET_ITEM(outer, a),
					    "each annotator's labels must be a sequence");
		if (seq == NULL)
			goto out;
		Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
		if (nitems >= 0 && n != nitems) {
			PyErr_Format(PyExc_ValueError,
				     "annotators label different numbers of items: %zd and %zd",
				     nitems, n);
			Py_DECREF(seq);
			goto out;
		}
		nitems = n;
		PyObject **items = PySequence_Fast_ITEMS(seq);
		int bad = 0;
		struct buf *b = &w.bufs[a];
		for (Py_ssize_t i = 0; i < n && !bad; i++) {
			if (items[i] == Py_None)
				continue;
			/* "x i tags\n" */
			if (buf_reserve(b, 2 + 21)) {
				PyErr_NoMemory();
				bad = 1;
				break;
			}
			b->p[b->n++] = 'x';
			b->p[b->n++] = ' ';
			put_size(b, (size_t)i);
			bad = put_annotation(b, items[i], mode, dict) || buf_reserve(b, 1);
			if (!bad)
				b->p[b->n++] = '\n';
			else if (!PyErr_Occurred())
				PyErr_NoMemory();
		}
		Py_DECREF(seq);
		if (bad)
			goto out;
	}
	if (mtext != Py_None) {
		Py_ssize_t len = PyBytes_GET_SIZE(mtext);
		if (buf_reserve(&w.map, (size_t)len + 1)) {
			PyErr_NoMemory();
			goto out;
		}
		memcpy(w.map.p, PyBytes_AS_STRING(mtext), (size_t)len);
		w.map.n = (size_t)len;
	}
	w.map_path = PATH(mpath);
	w.chance = mode == 2;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = agreement_compute(&w);
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &w.err);
		goto out;
	}
	result = agreement_dict(&w.f);
	if (result && w.chance &&
	    (set_steal(result, "kappa_linear",
		       PyFloat_FromDouble(w.ch.value[TAGEVAL_KAPPA_LINEAR])) ||
	     set_steal(result, "kappa_quadratic",
		       PyFloat_FromDouble(w.ch.value[TAGEVAL_KAPPA_QUADRATIC]))))
		Py_CLEAR(result);
out:
	for (Py_ssize_t a = 0; w.bufs && a < w.na; a++)
		free(w.bufs[a].p);
	free(w.bufs);
	free(w.map.p);
	Py_XDECREF(dict);
	Py_XDECREF(outer);
	Py_XDECREF(mpath);
	return result;
}


/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
	{ "labels", py_labels, METH_VARARGS,
	  "labels(labels_true, labels_pred, beta, normalizer, families) -> (wsi, clustering)\n\n"
	  "The library's figures of two labellings of the same items (the engine of\n"
	  "tageval.metrics): a dict of the WSI figures when families has bit 0x100, a\n"
	  "dict of the clustering figures when it has any of the bits 1 (B-cubed), 2\n"
	  "(NMI, AMI), 4 (ARI, Rand, Fowlkes-Mallows); None otherwise." },
	{ "wsi", py_wsi, METH_VARARGS,
	  "wsi(clusters, gold, pos, beta, per_word) -> dict (see tageval.wsi)" },
	{ "clustering", py_clustering, METH_VARARGS,
	  "clustering(clusters, gold, pos, mode, normalizer, metrics) -> dict (see"
	  " tageval.clustering)" },
	{ "agreement", py_agreement, METH_VARARGS,
	  "agreement(annotations, mode, map_path, map_text) -> dict of the pooled figures\n\n"
	  "The agreement of annotators' labels in memory (the engine of\n"
	  "tageval.metrics.cohen_kappa, fleiss_kappa, krippendorff_alpha and\n"
	  "hierarchical_kappa): mode 0 any hashable labels, 1 tag names (str or\n"
	  "sequences of str) under the sense map map_path or map_text, 2 ints >= 0\n"
	  "(with the weighted kappas kappa_linear and kappa_quadratic)." },
	{ "hkappa", py_hkappa, METH_VARARGS,
	  "hkappa(files, senses, downward, smoothing, bootstrap, seed, confidence, extra,"
	  " categories, pairs, leave_one_out, per_lexelt) -> dict (see tageval.agreement)" },
	{ "supervised", py_supervised, METH_VARARGS,
	  "supervised(clusters, gold, pos, given, folds, nsplits, fraction, seed) -> dict"
	  " (see tageval.supervised)" },
	{ "score", py_score, METH_VARARGS,
	  "score(answers, key, sensemap, granularity, minimal, conjunctive, instances, tags)"
	  " -> dict (see tageval.score)" },
	{ NULL, NULL, 0, NULL },
};

static int traverse(PyObject *module, visitproc visit, void *arg)
{
	Py_VISIT(state_of(module)->format_error);
	return 0;
}

static int clear(PyObject *module)
{
	Py_CLEAR(state_of(module)->format_error);
	return 0;
}

static void free_module(void *module)
{
	clear(module);
}

static int exec_module(PyObject *module)
{
	struct module_state *st = state_of(module);
	st->format_error = PyErr_NewExceptionWithDoc(
		"tageval.FormatError",
		"Malformed or inconsistent data in a file: a ValueError with the\n"
		"attributes file (the file's name, or None), line (1-based, or None)\n"
		"and message (what is wrong, without the file and line).",
		PyExc_ValueError, NULL);
	if (st->format_error == NULL)
		return -1;
	if (PyModule_AddObjectRef(module, "FormatError", st->format_error) ||
	    PyModule_AddStringConstant(module, "library_version", tageval_version()) ||
	    PyModule_AddIntConstant(module, "FAMILY_WSI", FAMILY_WSI) ||
	    PyModule_AddIntConstant(module, "FAMILY_BCUBED", TAGEVAL_CLUSTERING_BCUBED) ||
	    PyModule_AddIntConstant(module, "FAMILY_NMI", TAGEVAL_CLUSTERING_NMI) ||
	    PyModule_AddIntConstant(module, "FAMILY_PAIRS", TAGEVAL_CLUSTERING_PAIRS))
		return -1;
	/* hkappa's --coefficients beyond the default three, bit i of hkappa()'s extra */
	PyObject *names = PyTuple_New((Py_ssize_t)N_EXTRA);
	if (names == NULL)
		return -1;
	for (size_t i = 0; i < N_EXTRA; i++) {
		PyObject *v = PyUnicode_FromString(extra_coefs[i].key);
		if (v == NULL) {
			Py_DECREF(names);
			return -1;
		}
		PyTuple_SET_ITEM(names, (Py_ssize_t)i, v);
	}
	if (PyModule_AddObjectRef(module, "AGREEMENT_COEFFICIENTS", names)) {
		Py_DECREF(names);
		return -1;
	}
	Py_DECREF(names);
	return 0;
}

static struct PyModuleDef moduledef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "tageval._tageval",
	.m_doc = "The C part of the tageval package: use tageval and tageval.metrics.",
	.m_size = sizeof(struct module_state),
	.m_methods = methods,
	.m_traverse = traverse,
	.m_clear = clear,
	.m_free = free_module,
};

PyMODINIT_FUNC PyInit__tageval(void);

PyMODINIT_FUNC PyInit__tageval(void)
{
	PyObject *module = PyModule_Create(&moduledef);
	if (module && exec_module(module)) {
		Py_DECREF(module);
		return NULL;
	}
	return module;
}
