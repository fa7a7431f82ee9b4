/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * html: the small pieces every writer of an HTML page needs, in English
 * and German: text escaped for HTML, file names percent-encoded for href
 * and src, numbers with thousands separators as each language writes
 * them, and the choice between an English and a German text.  page.c
 * and pagecalls.c print with them.
 *
 * All of them print to a stdio stream and leave its errors to
 * ferror(3), so a caller checks a whole page once, at the end (as
 * output_write_file() does), instead of after every piece.
 */

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "page/html.h"

/* The style sheet of largedir's pages. */
static const char html_style[] =
    "body{font-family:sans-serif;max-width:60em;margin:1em auto;"
    "padding:0 1em;line-height:1.45;color:#222;background:#fff}"
    "p{overflow-wrap:anywhere}"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "img{max-width:100%;height:auto;border:0}"
    "div.wide{overflow-x:auto}table{border-collapse:collapse;font-size:90%}"
    "th,td{border:1px solid #bbb;padding:.2em .45em;vertical-align:top}"
    "th{background:#eee}td.num{text-align:right;white-space:nowrap;"
    "font-variant-numeric:tabular-nums}p.lang{text-align:right}";

/*
 * fprintf(3) to 'fp' with the format 'fmt', whose errors show in
 * ferror(3) and are checked once at the end.
 */
void
html_put(FILE *fp, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	(void)vfprintf(fp, fmt, ap);
	va_end(ap);
}

/*
 * Print 'pre', then 's' HTML-escaped ("?" if it is NULL), then 'post';
 * 'pre' and 'post' are HTML and printed as they are.  Control characters
 * other than tab and newline are not allowed in HTML and print as
 * U+FFFD, and so does every byte that is not part of well-formed UTF-8
 * (the page says it is UTF-8), as in the JSON (out_json.c).
 */
void
html_esc(FILE *fp, const char *pre, const char *s, const char *post)
{
	unsigned char	c;
	size_t		len;

	html_put(fp, "%s", pre);
	for (s = s != NULL ? s : "?"; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'')
			html_put(fp, "%s", c == '&' ? "&amp;" : c == '<' ?
			    "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" :
			    "&#39;");
		else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ||
		    (len = util_utf8_len((const unsigned char *)s)) == 0)
			html_put(fp, "&#xfffd;");
		else {
			(void)fwrite(s, 1, len, fp);
			s += len - 1;
		}
	}
	html_put(fp, "%s", post);
}

/*
 * Print the file name 's' followed by 'ext' (printed as it is), with
 * every byte of 's' outside the unreserved characters of RFC 3986
 * percent-encoded, for href and src.
 */
void
html_url(FILE *fp, const char *s, const char *ext)
{
	for (; *s != '\0'; s++)
		if (isalnum((unsigned char)*s) || strchr("-._~", *s) != NULL)
			(void)putc(*s, fp);
		else
			html_put(fp, "%%%02X", (unsigned char)*s);
	html_put(fp, "%s", ext);
}

/*
 * Print 'v' with at most 'prec' decimals (trailing zeros dropped) and
 * thousands separators: 1,234.5 in English, 1.234,5 in German, as 'lang'
 * asks; an en dash if 'v' is not finite.  A value that rounds to zero
 * prints without a minus sign.
 */
void
html_num(FILE *fp, double v, int prec, enum html_lang lang)
{
	char	 buf[400], *dot, *p;
	size_t	 nint, i;

	if (!isfinite(v)) {
		html_put(fp, HTML_DASH);
		return;
	}
	(void)snprintf(buf, sizeof(buf), "%.*f", prec, fabs(v));
	nint = strlen(buf);
	if ((dot = strchr(buf, '.')) != NULL) {
		for (p = buf + nint - 1; *p == '0'; p--)
			*p = '\0';
		if (p == dot)
			*dot = '\0';
		nint = (size_t)(dot - buf);
	}
	if (v < 0.0 && strspn(buf, "0.") != strlen(buf))
		html_put(fp, "-");
	for (i = 0; i < nint; i++) {
		if (i > 0 && (nint - i) % 3 == 0)
			html_put(fp, "%s", html_tr(lang, ",", "."));
		(void)putc(buf[i], fp);
	}
	if (dot != NULL && dot[1] != '\0')
		html_put(fp, "%s%s", html_tr(lang, ".", ","), dot + 1);
}

/*
 * The English text 'en' or the German 'de', as 'lang' asks.  The string
 * returned is one of the two arguments.
 */
const char *
html_tr(enum html_lang lang, const char *en, const char *de)
{
	return lang == HTML_DE ? de : en;
}

/*
 * The start of a page in 'lang' up to its heading 'title': the head with
 * the style sheet, and a link to the same page in the other language
 * (index.html and index.de.html side by side).
 */
void
html_head(FILE *fp, enum html_lang lang, const char *title)
{
	html_put(fp, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n"
	    "<p class=\"lang\"><a href=\"%s\" hreflang=\"%s\" lang=\"%s\">"
	    "%s</a></p>\n<h1>%s</h1>\n", html_tr(lang, "en", "de"), title,
	    html_style, html_tr(lang, "index.de.html", "index.html"),
	    html_tr(lang, "de", "en"), html_tr(lang, "de", "en"),
	    html_tr(lang, "Deutsch", "English"), title);
}
