/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the SVG bar charts of wsd-report --plot (report-svg.c) and
 * wsi-report --plot share: XML text escaping and the geometry of a panel's
 * rows. */
#ifndef SVG_COMMON_H
#define SVG_COMMON_H

#include <stdio.h>

#define SVG_CHAR_W 7.5   /* a generous width of one character at font-size 12 */
#define SVG_ROW_H 22     /* one bar's row */
#define SVG_BAR_H 14     /* the bar in it */
#define SVG_PANEL_HEAD 44 /* a panel's title and axis above its rows */

/* Writes @s as XML character data or attribute text: <, >, & and " as
 * entities, control characters (not allowed in XML 1.0) but tab as '?'. */
void svg_xml_text(FILE *fp, const char *s);

/* The number of characters (not bytes) of the UTF-8 string @s. */
size_t svg_chars(const char *s);

/* svg_xml_text() of @s cut to @max characters, with an ellipsis when longer. */
void svg_text_cut(FILE *fp, const char *s, size_t max);

/* A panel's horizontal axis from 0 to 1 over @width pixels from @x0:
 * gridlines from @y_top to @y_bottom and labels every 0.2 above them. */
void svg_axis(FILE *fp, int x0, int width, int y_top, int y_bottom);

#endif
