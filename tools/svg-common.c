/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the SVG charts share (svg-common.h). */
#include "svg-common.h"

void svg_xml_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 && *s != '\t' ? '?' : *s, fp);
		}
	}
}
