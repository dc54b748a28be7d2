/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Error reporting, status strings and the version. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tageval-private.h"

TAGEVAL_EXPORT const char *tageval_strerror(int code)
{
	switch (code) {
	case TAGEVAL_OK:
		return "success";
	case TAGEVAL_ENOMEM:
		return "out of memory";
	case TAGEVAL_EIO:
		return "input/output error";
	case TAGEVAL_EFORMAT:
		return "malformed data";
	case TAGEVAL_EINVAL:
		return "invalid argument";
	case TAGEVAL_ENOTFOUND:
		return "not found";
	default:
		return "unknown error";
	}
}

TAGEVAL_EXPORT const char *tageval_version(void)
{
	return TAGEVAL_VERSION;
}

int tv_error(struct tageval_error *err, int code, const char *file, size_t line,
	     const char *fmt, ...)
{
	if (err == NULL)
		return code;
	err->code = code;
	err->line = line;
	snprintf(err->file, sizeof err->file, "%s", file ? file : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return code;
}

int tv_nomem(struct tageval_error *err)
{
	return tv_error(err, TAGEVAL_ENOMEM, "", 0, "out of memory");
}

void tv_quote(char *out, size_t outsize, const char *s, size_t len)
{
	/* Long tokens are shortened so that a message stays readable. */
	const size_t keep = 64;
	if (len > keep && outsize > keep + 4)
		snprintf(out, outsize, "%.*s...", (int)keep, s);
	else
		snprintf(out, outsize, "%.*s", (int)len, s);
}
