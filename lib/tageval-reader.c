/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The line reader shared by every file format: any line length, LF or CRLF,
 * a last line without a newline, NUL bytes and stray carriage returns
 * reported with their line, "!!" comments cut, fields split on blanks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tageval-private.h"

static const char stdin_name[] = "<stdin>";

int tv_reader_open(struct tv_reader *r, const char *path, struct tageval_error *err)
{
	memset(r, 0, sizeof *r);
	if (strcmp(path, "-") == 0) {
		r->fp = stdin;
		r->name = stdin_name;
		return TAGEVAL_OK;
	}
	r->name = path;
	r->fp = fopen(path, "r");
	if (r->fp == NULL)
		return tv_error(err, TAGEVAL_EIO, path, 0, "cannot open: %s", strerror(errno));
	r->own = 1;
	struct stat st;
	if (fstat(fileno(r->fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		tv_reader_close(r);
		return tv_error(err, TAGEVAL_EIO, path, 0, "cannot open: %s", strerror(EISDIR));
	}
	/* a large buffer: the files are read once, front to back */
	setvbuf(r->fp, NULL, _IOFBF, 1u << 18);
	return TAGEVAL_OK;
}

int tv_reader_open_buffer(struct tv_reader *r, const char *data, size_t size,
			  const char *name, struct tageval_error *err)
{
	memset(r, 0, sizeof *r);
	r->name = name;
	if (size == 0) {
		r->eof = 1;
		return TAGEVAL_OK;
	}
	r->fp = fmemopen((void *)(uintptr_t)data, size, "r");
	if (r->fp == NULL)
		return tv_error(err, TAGEVAL_EIO, name, 0, "cannot open: %s", strerror(errno));
	r->own = 1;
	return TAGEVAL_OK;
}

void tv_reader_close(struct tv_reader *r)
{
	if (r->own && r->fp)
		fclose(r->fp);
	free(r->buf);
	free(r->field);
	memset(r, 0, sizeof *r);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int tv_reader_next(struct tv_reader *r, int *got, struct tageval_error *err)
{
	*got = 0;
	r->nfield = 0;
	if (r->eof || r->fp == NULL)
		return TAGEVAL_OK;
	errno = 0;
	ssize_t n = getline(&r->buf, &r->cap, r->fp);
	if (n < 0) {
		if (ferror(r->fp))
			return tv_error(err, TAGEVAL_EIO, r->name, 0, "read error: %s",
					strerror(errno ? errno : EIO));
		if (errno == ENOMEM)
			return tv_nomem(err);
		r->eof = 1;
		return TAGEVAL_OK;
	}
	r->lineno++;
	size_t len = (size_t)n;
	char *s = r->buf;
	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	if (memchr(s, '\0', len) != NULL)
		return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno, "NUL byte");
	if (memchr(s, '\r', len) != NULL)
		return tv_error(err, TAGEVAL_EFORMAT, r->name, r->lineno,
				"stray carriage return");
	char *comment = strstr(s, "!!");
	if (comment != NULL) {
		*comment = '\0';
		len = (size_t)(comment - s);
	}
	char *p = s, *end = s + len;
	for (;;) {
		while (p < end && is_blank(*p))
			p++;
		if (p >= end)
			break;
		if (r->nfield == r->fieldcap &&
		    tv_grow((void **)&r->field, &r->fieldcap, r->nfield + 1, sizeof *r->field))
			return tv_nomem(err);
		r->field[r->nfield++] = p;
		while (p < end && !is_blank(*p))
			p++;
		*p++ = '\0';
	}
	*got = 1;
	return TAGEVAL_OK;
}

void tv_batch_clear(struct tv_batch *b)
{
	free(b->text);
	free(b->off);
	free(b->field);
	memset(b, 0, sizeof *b);
}

static int batch_copy(struct tv_batch *b, const char *s, size_t len)
{
	if (tv_grow((void **)&b->text, &b->cap, b->used + len + 1, 1))
		return TAGEVAL_ENOMEM;
	memcpy(b->text + b->used, s, len);
	b->text[b->used + len] = '\0';
	b->used += len + 1;
	return TAGEVAL_OK;
}

int tv_reader_batch(struct tv_reader *r, struct tv_batch *b, struct tageval_error *err)
{
	b->n = 0;
	b->used = 0;
	b->noff = 0;
	size_t idoff[TV_BATCH];
	int rc = TAGEVAL_OK, got;
	while (b->n < TV_BATCH) {
		if ((rc = tv_reader_next(r, &got, err)) != TAGEVAL_OK || !got)
			break;
		if (r->nfield == 0)
			continue;
		struct tv_line *l = &b->line[b->n];
		l->name = r->name;
		l->lineno = r->lineno;
		l->nfield = r->nfield;
		l->id = NULL;
		l->idlen = 0;
		if (tv_grow((void **)&b->off, &b->offcap, b->noff + r->nfield, sizeof *b->off)) {
			rc = tv_nomem(err);
			break;
		}
		l->field = (char **)(uintptr_t)b->noff; /* an index until the pointers are set */
		for (size_t i = 0; i < r->nfield && rc == TAGEVAL_OK; i++) {
			b->off[b->noff++] = b->used;
			rc = batch_copy(b, r->field[i], strlen(r->field[i]));
		}
		idoff[b->n] = b->used;
		if (rc == TAGEVAL_OK && r->nfield >= 2 && !b->no_ids) {
			size_t a = strlen(r->field[0]), c = strlen(r->field[1]);
			if (tv_grow((void **)&b->text, &b->cap, b->used + a + c + 2, 1)) {
				rc = TAGEVAL_ENOMEM;
			} else {
				char *p = b->text + b->used;
				memcpy(p, r->field[0], a);
				p[a] = ' ';
				memcpy(p + a + 1, r->field[1], c);
				p[a + 1 + c] = '\0';
				b->used += a + c + 2;
				l->idlen = a + c + 1;
			}
		}
		if (rc != TAGEVAL_OK) {
			rc = tv_nomem(err);
			break;
		}
		b->n++;
	}
	/* the text is complete: turn offsets into pointers */
	if (tv_grow((void **)&b->field, &b->fieldcap, b->noff + 1, sizeof *b->field)) {
		b->n = 0;
		return tv_nomem(err);
	}
	for (size_t i = 0; i < b->noff; i++)
		b->field[i] = b->text + b->off[i];
	for (size_t k = 0; k < b->n; k++) {
		struct tv_line *l = &b->line[k];
		l->field = b->field + (size_t)(uintptr_t)l->field;
		if (l->idlen > 0) {
			l->id = b->text + idoff[k];
			l->hash = tv_hash(l->id, l->idlen);
		}
	}
	return rc;
}

int tv_line_make(struct tv_line *l, const char *name, size_t lineno, char **field,
		 size_t nfield, char **buf, size_t *cap)
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
		l->hash = tv_hash(*buf, len);
	}
	return TAGEVAL_OK;
}
