/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagewords: see pagewords.h.
 */

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "page/pagewords.h"

/* The run states of output_status_name() in German. */
static const char *const status_de[][2] = {
	{ "complete", "vollständig" }, { "stopped", "abgebrochen" },
	{ "interrupted", "unterbrochen" }, { "failed", "fehlgeschlagen" },
	{ "running", "läuft noch" }, { "killed", "abgeschossen" },
	{ NULL, NULL }
};

/*
 * A stop reason in German: the words largedir's reasons are made of
 * (outcome_of(), stop_run(), the phases' "what"), each replaced
 * wherever it comes; anything else, such as a backend's own words, stays.
 */
static const char *const reason_de[][2] = {
	{ "No space left on device", "Kein Platz mehr auf dem Gerät" },
	{ "Disk quota exceeded", "Kontingent überschritten" },
	{ "Read-only file system", "Dateisystem nur lesbar" },
	{ "Permission denied", "Keine Berechtigung" },
	{ "Input/output error", "Ein-/Ausgabefehler" },
	{ "No such file or directory", "Datei oder Verzeichnis nicht "
	  "gefunden" },
	{ "Too many open files", "Zu viele offene Dateien" },
	{ "Stale file handle", "Veraltetes Datei-Handle" },
	{ "out of memory", "kein Speicher mehr" },
	{ "interrupted by", "unterbrochen durch" },
	{ "readdir loop", "Readdir-Schleife" },
	{ "a measuring process died", "ein messender Prozess starb" },
	{ " died of ", " starb an " },
	{ "client ", "Client " },
	{ "entries lost in a listing", "Einträge beim Auflisten verloren" },
	{ "the work directory vanished", "das Arbeitsverzeichnis ist "
	  "verschwunden" },
	{ " in round ", " in Runde " },
	{ ", after ", ", nach " },
	{ ": after ", ": nach " },
	{ " files and directories", " Dateien und Verzeichnissen" },
	{ " directories", " Verzeichnissen" },
	{ " files", " Dateien" },
	{ " of its ", " von seinen " },
	{ " of ", " von " },
	{ "before the phase", "vor der Phase" },
	{ "creating the round directory", "beim Anlegen des "
	  "Rundenverzeichnisses" },
	{ "removing the round directory", "beim Entfernen des "
	  "Rundenverzeichnisses" },
	{ NULL, NULL }
};

/*
 * The run state 's' (as output_status_name() and results_status() give
 * it, or NULL) as a page in 'lang' says it: as it is in English, in
 * status_de[]'s words in German.  The string is static or 's'.
 */
const char *
pagewords_status(const char *s, enum html_lang lang)
{
	size_t	k;

	for (k = 0; lang == HTML_DE && s != NULL && status_de[k][0] != NULL;
	    k++)
		if (strcmp(s, status_de[k][0]) == 0)
			return status_de[k][1];
	return s;
}

/*
 * Print stop reason 's' (escaped) to 'fp': as it is in English, with the
 * words of reason_de[] in German.
 */
void
pagewords_put_reason(FILE *fp, const char *s, enum html_lang lang)
{
	char	*buf, *out, *hit;
	size_t	 k, len;

	if (lang != HTML_DE) {
		html_esc(fp, "", s, "");
		return;
	}
	buf = xstrdup(s);
	for (k = 0; reason_de[k][0] != NULL; k++) {
		len = strlen(reason_de[k][0]);
		while ((hit = strstr(buf, reason_de[k][0])) != NULL) {
			out = xasprintf("%.*s%s%s", (int)(hit - buf), buf,
			    reason_de[k][1], hit + len);
			free(buf);
			buf = out;
		}
	}
	/* German numbers: 3,375 is 3.375. */
	for (out = buf; *out != '\0'; out++)
		if (*out == ',' && out > buf && isdigit((unsigned char)
		    out[-1]) && strspn(out + 1, "0123456789") == 3)
			*out = '.';
	html_esc(fp, "", buf, "");
	free(buf);
}
