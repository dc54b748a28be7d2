/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the SVG charts share (svg-common.h). */
#include "svg-common.h"
#include "tools-common.h"

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

size_t svg_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void svg_text_cut(FILE *fp, const char *s, size_t max)
{
	if (svg_chars(s) <= max) {
		svg_xml_text(fp, s);
		return;
	}
	char buf[256];
	size_t n = 0, b = 0;
	for (; s[b] && b + 4 < sizeof buf; b++) {
		if (((unsigned char)s[b] & 0xC0) != 0x80 && ++n == max)
			break;
		buf[b] = s[b];
	}
	buf[b] = '\0';
	svg_xml_text(fp, buf);
	fputs("\xe2\x80\xa6", fp); /* ... */
}

void svg_axis(FILE *fp, int x0, int width, int y_top, int y_bottom)
{
	for (int t = 0; t <= 5; t++) {
		int x = x0 + t * width / 5;
		tools_fprintf(fp, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#cccccc\"/>\n", x, y_top, x, y_bottom);
		tools_fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">"
			"%.1f</text>\n", x, y_top - 4, t / 5.0);
	}
}
