/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Lines in batches, their ids, and the loop every file reader runs: the
 * input layer above the byte reader (tageval-reader.c).  A reader gives
 * tv_each_line() its table of ids and a function for one line; the loop
 * reads a batch of lines, hashes their ids, looks them up in stages so that
 * the cache misses of a batch overlap, and then hands the lines over in file
 * order.  Nothing here calls up into a format module.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tageval-intern.h"
#include "tageval-reader.h"
#include "tageval-util.h"

size_t tv_join_id(char **buf, size_t *cap, const char *lexelt, const char *instance)
{
	size_t a = strlen(lexelt), b = strlen(instance);
	if (tv_grow((void **)buf, cap, a + b + 2, 1))
		return (size_t)-1;
	memcpy(*buf, lexelt, a);
	(*buf)[a] = ' ';
	memcpy(*buf + a + 1, instance, b + 1);
	return a + b + 1;
}

void tv_batch_clear(struct tv_batch *b)
{
	free(b->text);
	free(b->field);
	memset(b, 0, sizeof *b);
}

/* The length of field @i of the reader's line: without a run of blanks,
 * one blank (its NUL now) is between a field and the next. */
static size_t field_len(const struct tv_reader *r, size_t i)
{
	if (i + 1 < r->nfield && !(r->seps & TV_SEP_RUN))
		return (size_t)(r->field[i + 1] - r->field[i]) - 1;
	return strlen(r->field[i]);
}

/* Room past the joined ids of a batch for the copy of a short id in whole
 * 32-byte words. */
#define JOIN_SLACK 32

/*
 * Appends "field0 field1" of the reader's line to the batch's text; its
 * offset in *off.  The two fields one blank apart (the common line) and
 * short: one copy of 32 bytes from the chunk (which holds them, and may
 * hold 32 from field0 on), the blank put back.
 */
static int join_into(struct tv_batch *b, const struct tv_reader *r, size_t *off, size_t *len)
{
	const char *f0 = r->field[0], *f1 = r->field[1];
	size_t a = field_len(r, 0), c = field_len(r, 1);
	if (tv_grow((void **)&b->text, &b->cap, b->used + a + c + 2 + JOIN_SLACK, 1))
		return TAGEVAL_ENOMEM;
	char *p = b->text + b->used;
	if (f1 == f0 + a + 1 && a + c + 2 <= JOIN_SLACK &&
	    (size_t)(r->buf + r->cap - f0) >= JOIN_SLACK) {
		memcpy(p, f0, JOIN_SLACK);
	} else {
		memcpy(p, f0, a);
		memcpy(p + a + 1, f1, c);
	}
	p[a] = ' ';
	p[a + 1 + c] = '\0';
	*off = b->used;
	b->used += a + c + 2;
	*len = a + c + 1;
	return TAGEVAL_OK;
}

int tv_reader_batch(struct tv_reader *r, struct tv_batch *b, struct tageval_error *err)
{
	b->n = 0;
	b->used = 0;
	b->nfield = 0;
	size_t idoff[TV_BATCH];
	int rc = TAGEVAL_OK, got, more;
	while (b->n < TV_BATCH) {
		/* refilling would move the lines already in the batch */
		rc = tv_reader_line(r, b->n == 0 && !b->no_refill, &got, &more, err);
		if (rc != TAGEVAL_OK || !got)
			break;
		if (r->nfield == 0 && !b->keep_blank)
			continue;
		struct tv_line *l = &b->line[b->n];
		l->name = r->name;
		l->lineno = r->lineno;
		l->nfield = r->nfield;
		l->id = NULL;
		l->idlen = 0;
		l->seps = r->seps;
		l->put = TV_PUT_NO;
		l->field = (char **)(uintptr_t)b->nfield; /* an index until the array is final */
		if (r->nfield > 0) { /* a blank line (keep_blank) has none */
			if (tv_grow((void **)&b->field, &b->fieldcap, b->nfield + r->nfield,
				    sizeof *b->field)) {
				rc = tv_nomem(err);
				break;
			}
			/* a few pointers: no call to memcpy */
			for (size_t i = 0; i < r->nfield; i++)
				b->field[b->nfield + i] = r->field[i];
			b->nfield += r->nfield;
		}
		if (r->nfield >= 2 && b->id == TV_ID_JOINED) {
			if (join_into(b, r, &idoff[b->n], &l->idlen)) {
				rc = tv_nomem(err);
				break;
			}
		} else if (r->nfield >= 2 && b->id == TV_ID_FIELD1) {
			l->id = r->field[1]; /* in the chunk, which the batch keeps */
			l->idlen = field_len(r, 1);
		} else if (r->nfield >= 1 && b->id == TV_ID_FIELD0) {
			l->id = r->field[0];
			l->idlen = field_len(r, 0);
		}
		b->n++;
	}
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		l->field = b->field ? b->field + (size_t)(uintptr_t)l->field : NULL;
		if (l->idlen > 0 && b->id == TV_ID_JOINED)
			l->id = b->text + idoff[k];
		if (l->idlen > 0 && b->ids)
			l->hash = tv_intern_hash(b->ids, l->id, l->idlen);
	}
	return rc;
}

int tv_line_make(struct tv_line *l, const char *name, uint64_t lineno, char **field,
		 size_t nfield, char **buf, size_t *cap, const struct tv_intern *ids)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->lineno = lineno;
	l->field = field;
	l->nfield = nfield;
	if (nfield >= 2) {
		size_t len = tv_join_id(buf, cap, field[0], field[1]);
		if (len == (size_t)-1)
			return TAGEVAL_ENOMEM;
		l->id = *buf;
		l->idlen = len;
		l->hash = tv_intern_hash(ids, *buf, len);
	}
	return TAGEVAL_OK;
}

/*
 * The look-ups of a batch, in stages: every slot, then (to find the ids)
 * every string's header and first bytes, the end of every long string, and
 * only then the comparisons; each stage reads only what the one before
 * fetched.
 */
static void look_up(const struct tv_each *e, struct tv_batch *b, int found)
{
	const struct tv_intern *ids = e->ids;
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id) {
			tv_intern_prefetch(ids, b->line[k].hash);
			/* the id's bytes too: the reading thread split them
			 * (writing its NUL), so they are in another core's cache */
			__builtin_prefetch(b->line[k].id);
		}
	if (e->lookup != TV_LOOKUP_FIND)
		return;
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch_entry(ids, b->line[k].hash);
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch_string(ids, b->line[k].hash);
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		l->inst = TV_NONE;
		if (l->id && tv_intern_find_hashed(ids, l->id, l->idlen, l->hash, &l->inst) &&
		    found && e->found)
			e->found(e->ctx, l->inst);
	}
}

/*
 * The units of the reading thread.  A unit is one chunk of the file and the
 * batches of lines split in it; its lines point into its chunk, which stays
 * as it is until the unit is handed back.  The next unit starts with a
 * buffer of its own, the unread end of the chunk before (a line cut by the
 * chunk's end) copied to its front: the reader's buffer moves from unit to
 * unit, and the unit made last holds it (r->buf) at the end.
 */
#define NUNIT 4

/* Half the reader's chunk (tageval-reader.h). */
#define CHUNK_HALF ((size_t)(TV_READER_CHUNK) / 2)

struct unit {
	char *buf; /* its chunk (r->buf while it is being made) */
	size_t cap;
	struct tv_batch *b;
	size_t nb, bcap;
	int rc;   /* the error after its lines */
	int last; /* the end of the file, or an error: no unit after it */
	int look; /* with find_ahead: its batches are looked up where it is made */
	struct tageval_error err;
};

struct pipe {
	struct tv_reader *r;
	const struct tv_each *e;
	struct unit u[NUNIT];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t made, used; /* units made, units handed back */
	/* With e->put: the ids of a unit are put by either side, one unit at a
	 * time and in file order (put_units()): units before put_next are
	 * taken, those before put_done put.  put_off: a put failed, no more. */
	uint64_t put_next, put_done;
	int put_off;
	int stop;            /* the calling thread wants no more units */
	/* e->find_until_new: no more look-ups where the units are made (set for
	 * good by the calling thread before a line may add an id; 1 without a
	 * reading thread), and a unit being made with them */
	int stopped, finding;
};

static void unit_fail(struct unit *u, int rc)
{
	u->rc = rc;
	u->last = 1;
}

/*
 * With e->put: interns the ids of batch @b in file order, their slots
 * fetched first (their cache misses overlap); 1 when a put fails (no
 * memory): that line and the lines after stay TV_PUT_NO, and the puts
 * stop for good (the lines intern their ids themselves, from the table as
 * it is, and fail there as they would have).
 */
static int put_ids(const struct tv_each *e, struct tv_batch *b)
{
	struct tv_intern *ids = e->put;
	for (size_t k = 0; k < b->n; k++)
		if (b->line[k].id)
			tv_intern_prefetch(ids, b->line[k].hash);
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		if (l->id == NULL)
			continue;
		int added;
		if (tv_intern_put_hashed(ids, l->id, l->idlen, l->hash, &l->inst, &added))
			return 1;
		l->put = added ? TV_PUT_NEW : TV_PUT_OLD;
	}
	return 0;
}

/* The ids of every batch of @u put (put_ids()); 1 when a put failed. */
static int put_unit(const struct tv_each *e, struct unit *u)
{
	for (size_t i = 0; i < u->nb; i++)
		if (put_ids(e, &u->b[i]))
			return 1;
	return 0;
}

/*
 * With a reading thread and e->put, the puts of a unit are done by
 * whichever side is free first: the calling thread before it uses a unit
 * not yet put, the reading thread when it may not make another unit (the
 * calling thread is the slower side).  A side takes the next unit to put
 * only when no put is under way, so that the puts stay one at a time and in
 * file order (the ids are numbered as the lines come), and the table is
 * only ever touched by one side.  Called with p->mu held; takes the puts up
 * to unit @upto (exclusive), the ones it may, and returns with p->mu held
 * (at once once the calling thread stops: a line failed, or the end);
 * @wait: wait for a put under way by the other side (the calling thread,
 * which needs them done) rather than return.
 */
static void put_units(struct pipe *p, uint64_t upto, int wait)
{
	while (!p->put_off && !p->stop && p->put_done < upto) {
		if (p->put_next != p->put_done) { /* the other side is putting */
			if (!wait)
				return;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		struct unit *u = &p->u[p->put_next % NUNIT];
		p->put_next++;
		pthread_mutex_unlock(&p->mu);
		int failed = put_unit(p->e, u);
		pthread_mutex_lock(&p->mu);
		p->put_off |= failed;
		p->put_done++;
		pthread_cond_broadcast(&p->cv);
	}
}

/* The look-ups are done where the lines are read. */
static int ahead(const struct tv_each *e)
{
	return e->lookup == TV_LOOKUP_FIND && (e->find_ahead || e->find_until_new) &&
	       e->put == NULL;
}

/* Makes unit @u from the next chunk of the file; @first: the reader's own
 * buffer (the unit's already), nothing to move; @put_here: with e->put,
 * its ids put as its batches are made (no reading thread). */
static void make_unit(struct pipe *p, struct unit *u, int first, int put_here)
{
	struct tv_reader *r = p->r;
	u->nb = 0;
	u->rc = TAGEVAL_OK;
	u->last = 0;
	if (!first) {
		size_t keep = r->end - r->start;
		if (u->cap < r->cap) {
			char *buf = realloc(u->buf, r->cap);
			if (buf == NULL) {
				unit_fail(u, tv_nomem(&u->err));
				return;
			}
			u->buf = buf;
			u->cap = r->cap;
		}
		memcpy(u->buf, r->buf + r->start, keep);
		r->buf = u->buf;
		r->cap = u->cap;
		r->start = 0;
		r->end = keep;
	}
	for (;;) {
		if (u->nb == u->bcap) {
			size_t cap = u->bcap;
			if (tv_grow((void **)&u->b, &cap, u->nb + 1, sizeof *u->b)) {
				unit_fail(u, tv_nomem(&u->err));
				return;
			}
			for (size_t i = u->bcap; i < cap; i++)
				u->b[i] = (struct tv_batch){
					.id = p->e->id,
					.ids = p->e->id != TV_ID_NONE ? p->e->ids : NULL,
					.keep_blank = p->e->keep_blank,
				};
			u->bcap = cap;
		}
		struct tv_batch *b = &u->b[u->nb];
		b->no_refill = u->nb > 0; /* only the first batch may fill the chunk */
		int rc = tv_reader_batch(r, b, &u->err);
		u->buf = r->buf; /* a refill may have moved or grown it */
		u->cap = r->cap;
		if (b->n > 0 && p->e->put != NULL) {
			/* made here, without a reading thread: put here */
			if (put_here && !p->put_off && put_ids(p->e, b))
				p->put_off = 1;
		} else if (b->n > 0 && b->ids && u->look)
			look_up(p->e, b, 0); /* @found on the calling thread */
		if (b->n > 0)
			u->nb++;
		if (rc) {
			unit_fail(u, rc);
			return;
		}
		if (b->n == 0) {
			u->last = tv_reader_at_end(r);
			return;
		}
	}
}

static void *reading_thread(void *arg)
{
	struct pipe *p = arg;
	for (uint64_t seq = p->made;; seq++) {
		pthread_mutex_lock(&p->mu);
		while (!p->stop && p->used + NUNIT <= seq) {
			/* no room for another unit: the puts of those made */
			if (p->e->put != NULL && !p->put_off && p->put_done < seq &&
			    p->put_next == p->put_done) {
				put_units(p, seq, 0);
				continue;
			}
			pthread_cond_wait(&p->cv, &p->mu);
		}
		int stop = p->stop;
		/* the look-ups done here while the calling thread has a unit
		 * waiting besides the one it is on (it is the slower side), left
		 * to it when it waits or is about to (this side is the slower) */
		int look = !stop && ahead(p->e) && !p->stopped && seq >= p->used + 2;
		p->finding = look;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		struct unit *u = &p->u[seq % NUNIT];
		u->look = look;
		make_unit(p, u, 0, 0);
		pthread_mutex_lock(&p->mu);
		p->finding = 0;
		p->made = seq + 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (u->last)
			break;
	}
	return NULL;
}

/*
 * A second thread only for memory and regular files: on a pipe or a
 * terminal its read() may block for as long as the writer likes, and a
 * line that fails would have to wait for that read before the error is
 * returned (the thread is joined).
 */
static int may_thread(const struct tv_reader *r)
{
	struct stat st;
	return r->fd < 0 || (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode));
}

/*
 * e->expect: the lines of the whole source at the bytes per line of the
 * first unit @u (the bytes taken from the source less those not yet split),
 * 1/16 more for the lines of other lengths, expected in the table (it then
 * grows toward them, never past 4 times its ids: tv_intern_expect).  Only
 * for a source of known size: a regular file or memory, not compressed.
 */
static void expect_ids(const struct tv_each *e, struct tv_reader *r, const struct unit *u)
{
	uint64_t total;
	struct stat st;
	if (e->expect == NULL || r->gz != NULL || u->last)
		return;
	if (r->fd < 0)
		total = r->taken + r->memleft;
	else if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		total = (uint64_t)st.st_size;
	else
		return;
	uint64_t lines = 0, split = r->taken - (r->end - r->start);
	for (size_t i = 0; i < u->nb; i++)
		lines += u->b[i].n;
	if (lines == 0 || split == 0 || total <= split || total > UINT64_MAX / lines)
		return;
	uint64_t want = lines * total / split;
	want += want / 16 + 16;
	tv_intern_expect(e->expect, want < TV_INTERN_EXPECT_MAX ? (size_t)want : TV_INTERN_EXPECT_MAX);
}

/* e->find_until_new: stops the look-ups of the reading thread for good and
 * waits for the unit it is making with them: the caller's @line may then add
 * to the table. */
static void stop_finding(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->stopped = 1;
	while (p->finding)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

/* Looks up and hands over the lines of @u; its error (after them) last. */
static int use_unit(struct pipe *p, struct unit *u, size_t *n, struct tageval_error *err)
{
	const struct tv_each *e = p->e;
	for (size_t i = 0; i < u->nb; i++) {
		struct tv_batch *b = &u->b[i];
		if (b->ids && u->look) {
			if (e->found)
				for (size_t k = 0; k < b->n; k++)
					if (b->line[k].id && b->line[k].inst != TV_NONE)
						e->found(e->ctx, b->line[k].inst);
		} else if (b->ids && e->put == NULL) /* a table being put in is the other side's */
			look_up(e, b, 1);
		/* an id not found: @line may add it, once the reading thread
		 * no longer looks up */
		if (e->find_until_new && b->ids)
			for (size_t k = 0; !p->stopped && k < b->n; k++)
				if (b->line[k].id && b->line[k].inst == TV_NONE)
					stop_finding(p);
		for (size_t k = 0; k < b->n; k++) {
			int rc = e->line(e->ctx, &b->line[k], err);
			if (rc)
				return rc;
			(*n)++;
		}
	}
	if (u->rc && err)
		*err = u->err;
	return u->rc;
}

int tv_each_line(struct tv_reader *r, const struct tv_each *e, size_t *lines,
		 struct tageval_error *err)
{
	struct pipe p = { .r = r, .e = e, .stopped = 1 };
	p.u[0].buf = r->buf;
	p.u[0].cap = r->cap;
	int threaded = 0, tried = 0, have_sync = 0;
	pthread_t tid;
	size_t n = 0;
	int rc;
	for (uint64_t seq = 0;; seq++) {
		struct unit *u = &p.u[seq % NUNIT];
		if (threaded) {
			pthread_mutex_lock(&p.mu);
			while (p.made <= seq)
				pthread_cond_wait(&p.cv, &p.mu);
			if (e->put != NULL) /* the unit's ids put before its lines are used */
				put_units(&p, seq + 1, 1);
			pthread_mutex_unlock(&p.mu);
		} else {
			u->look = 0; /* made here: looked up here */
			make_unit(&p, u, seq == 0, seq > 0);
			p.made = seq + 1;
			if (seq == 0) {
				/* the table told what to expect before the first
				 * chunk's ids go in (it grows toward them at once) */
				expect_ids(e, r, u);
				if (e->put != NULL && put_unit(e, u))
					p.put_off = 1;
			}
			p.put_next = p.put_done = p.made; /* put as they were made */
			/* a second thread once the file proves longer than half a
			 * chunk (not for small files); made here when it cannot start */
			if (!u->last && !tried && r->end >= CHUNK_HALF && may_thread(r)) {
				tried = 1;
				if (pthread_mutex_init(&p.mu, NULL) == 0) {
					if (pthread_cond_init(&p.cv, NULL) == 0)
						have_sync = 1;
					else
						pthread_mutex_destroy(&p.mu);
				}
				p.stopped = 0; /* read by the thread */
				threaded = have_sync &&
					   pthread_create(&tid, NULL, reading_thread, &p) == 0;
				if (!threaded)
					p.stopped = 1;
			}
		}
		rc = use_unit(&p, u, &n, err);
		int last = u->last;
		if (threaded) {
			pthread_mutex_lock(&p.mu);
			p.used = seq + 1;
			p.stop = rc != TAGEVAL_OK || last;
			pthread_cond_broadcast(&p.cv);
			pthread_mutex_unlock(&p.mu);
		}
		if (rc || last)
			break;
	}
	if (threaded)
		pthread_join(tid, NULL);
	if (have_sync) {
		pthread_cond_destroy(&p.cv);
		pthread_mutex_destroy(&p.mu);
	}
	/* the reader keeps the buffer of the unit made last */
	for (size_t i = 0; i < NUNIT; i++) {
		if (p.u[i].buf != r->buf)
			free(p.u[i].buf);
		for (size_t k = 0; k < p.u[i].bcap; k++)
			tv_batch_clear(&p.u[i].b[k]);
		free(p.u[i].b);
	}
	if (lines)
		*lines = n;
	return rc;
}

int tv_read_path(const char *func, const char *path, tv_read_fn run, void *ctx,
		 struct tageval_error *err)
{
	if (path == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL path", func);
	struct tv_reader r;
	int rc = tv_reader_open(&r, path, err);
	if (rc)
		return rc;
	rc = run(ctx, &r, err);
	tv_reader_close(&r);
	return rc;
}

int tv_read_buffer(const char *func, const char *data, size_t size, const char *name,
		   tv_read_fn run, void *ctx, struct tageval_error *err)
{
	if (data == NULL && size > 0)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL data", func);
	if (name == NULL)
		return tv_error(err, TAGEVAL_EINVAL, "", 0, "%s: NULL name", func);
	struct tv_reader r;
	int rc = tv_reader_open_buffer(&r, data, size, name, err);
	if (rc)
		return rc;
	rc = run(ctx, &r, err);
	tv_reader_close(&r);
	return rc;
}
