/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Error reporting, status strings and the version. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tageval-util.h"

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

int tv_error(struct tageval_error *err, int code, const char *file, uint64_t line,
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
	/* Long tokens are shortened so that a message stays readable, and
	 * control characters are written as \xHH, so that a message quoting
	 * binary garbage cannot drive the terminal it is printed on. */
	const size_t keep = 64;
	size_t o = 0, i = 0;
	if (outsize == 0)
		return;
	for (; i < len && i < keep; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t need = c < 0x20 || c == 0x7f ? 4 : 1;
		if (o + need + 4 > outsize) /* keep room for "..." and the NUL */
			break;
		if (need == 4)
			snprintf(out + o, outsize - o, "\\x%02x", c);
		else
			out[o] = (char)c;
		o += need;
	}
	if (i < len && o + 4 <= outsize) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}
