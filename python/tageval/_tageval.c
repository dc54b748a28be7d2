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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	PyObject *ts = NULL, *ps = NULL, *result = NULL;
	size_t *ids = NULL;
	ts = items_tuple(true_obj, "labels_true must be a sequence");
	if (ts == NULL)
		goto out;
	ps = items_tuple(pred_obj, "labels_pred must be a sequence");
	if (ps == NULL)
		goto out;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
	if (PySequence_Fast_GET_SIZE(ps) != n) {
		PyErr_Format(PyExc_ValueError,
			     "labels_true and labels_pred differ in length: %zd and %zd", n,
			     PySequence_Fast_GET_SIZE(ps));
		goto out;
	}
	if (n == 0) {
		PyErr_SetString(PyExc_ValueError, "no labels");
		goto out;
	}
	ids = PyMem_RawMalloc(2 * (size_t)n * sizeof *ids);
	if (ids == NULL) {
		PyErr_NoMemory();
		goto out;
	}
	w.n = (size_t)n;
	w.t = ids;
	w.p = ids + n;
	if (intern_labels(PySequence_Fast_ITEMS(ts), n, ids, &w.nt) ||
	    intern_labels(PySequence_Fast_ITEMS(ps), n, ids + n, &w.np))
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
	Py_XDECREF(ts);
	Py_XDECREF(ps);
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

/*
 * agreement(annotations) -> (pr_a, pr_e, kappa, pr_e_separate, kappa_separate,
 * d_o, d_e, alpha, items): the pooled figures of annotators' flat labels.
 * @annotations: a sequence (annotators) of sequences (items) of labels, None
 * for an item the annotator left out; labels are any hashable values, each
 * its own top-level tag.
 */
static PyObject *py_agreement(PyObject *module, PyObject *args)
{
	PyObject *ann_obj, *outer = NULL, *dict = NULL, *result = NULL;
	struct buf *bufs = NULL;
	Py_ssize_t na = 0;
	if (!PyArg_ParseTuple(args, "O:agreement", &ann_obj))
		return NULL;
	outer = items_tuple(ann_obj, "annotations must be a sequence of sequences");
	if (outer == NULL)
		return NULL;
	na = PySequence_Fast_GET_SIZE(outer);
	if (na < 2) {
		PyErr_SetString(PyExc_ValueError, "at least two annotators are needed");
		goto out;
	}
	bufs = calloc((size_t)na, sizeof *bufs);
	dict = PyDict_New();
	if (bufs == NULL || dict == NULL) {
		if (bufs == NULL)
			PyErr_NoMemory();
		goto out;
	}
	Py_ssize_t nitems = -1;
	for (Py_ssize_t a = 0; a < na; a++) {
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
		for (Py_ssize_t i = 0; i < n && !bad; i++) {
			if (items[i] == Py_None)
				continue;
			PyObject *id = PyDict_GetItemWithError(dict, items[i]);
			size_t v;
			if (id == NULL) {
				if (PyErr_Occurred()) {
					bad = 1;
					break;
				}
				v = (size_t)PyDict_GET_SIZE(dict);
				PyObject *nid = PyLong_FromSize_t(v);
				bad = nid == NULL || PyDict_SetItem(dict, items[i], nid);
				Py_XDECREF(nid);
			} else {
				v = PyLong_AsSize_t(id);
			}
			if (!bad && buf_reserve(&bufs[a], 2 + 2 * 21 + 3)) {
				PyErr_NoMemory();
				bad = 1;
			}
			if (bad)
				break;
			/* "x i t<id>": every label a tag of its own */
			struct buf *b = &bufs[a];
			b->p[b->n++] = 'x';
			b->p[b->n++] = ' ';
			put_size(b, (size_t)i);
			b->p[b->n++] = ' ';
			b->p[b->n++] = 't';
			put_size(b, v);
			b->p[b->n++] = '\n';
		}
		Py_DECREF(seq);
		if (bad)
			goto out;
	}
	struct tageval_error err = { 0 };
	struct tageval_agreement_figures f = { 0 };
	int rc;
	Py_BEGIN_ALLOW_THREADS
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_annotations *ann = NULL;
	struct tageval_agreement *ag = NULL;
	rc = inv ? tageval_annotations_new(inv, &ann) : TAGEVAL_ENOMEM;
	for (Py_ssize_t a = 0; rc == 0 && a < na; a++) {
		char name[32];
		snprintf(name, sizeof name, "annotator %zd", a + 1);
		rc = tageval_annotations_read_buffer(ann, bufs[a].p, bufs[a].n, name, &err);
	}
	if (rc == 0)
		rc = tageval_agreement_compute(ann, NULL, &ag, &err);
	if (rc == 0)
		f = *tageval_agreement_pooled(ag);
	tageval_agreement_free(ag);
	tageval_annotations_free(ann);
	tageval_inventory_free(inv);
	Py_END_ALLOW_THREADS
	if (rc) {
		raise_error(module, rc, &err);
		goto out;
	}
	result = Py_BuildValue("(ddddddddn)", f.pr_a, f.pr_e, f.kappa, f.pr_e_separate,
			       f.kappa_separate, f.d_o, f.d_e, f.alpha, (Py_ssize_t)f.items);
out:
	for (Py_ssize_t a = 0; bufs && a < na; a++)
		free(bufs[a].p);
	free(bufs);
	Py_XDECREF(dict);
	Py_DECREF(outer);
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
	  "agreement(annotations) -> (pr_a, pr_e, kappa, pr_e_separate, kappa_separate, d_o,"
	  " d_e, alpha, items) (see tageval.metrics.cohen_kappa)" },
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
