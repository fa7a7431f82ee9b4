/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* pagephase: see pagephase.h. */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/pagephase.h"

/* The page's phases, in the order of its graphs and tables. */
const char *const pagephase_names[PAGEPHASE_N] = {
	"create", "open", "list", "liststat", "delete", "rmrf", "mkdir",
	"deliver", "move", "flag", "scan", "read", "expunge"
};

enum { P_CREATE, P_DELIVER = 7, P_READ = 11 };

/*
 * What each graph shows, in English and German; create's and the
 * mailbox's have the size and the fsync of the files put in by
 * put_work().
 */
static const char *const text[PAGEPHASE_N][2] = {
	{ "create: empty files created per second in a fresh directory, in "
	  "the order of their numbers, until it held n files.",
	  "create: leere Dateien, die pro Sekunde in einem neuen "
	  "Verzeichnis angelegt wurden, bis es n Dateien enthielt." },
	{ "open: files opened and closed again per second, each of the n "
	  "files once, in a random order.",
	  "open: Dateien, die pro Sekunde geöffnet und wieder geschlossen "
	  "wurden, jede der n Dateien einmal, in zufälliger Reihenfolge." },
	{ "list: entries read per second when the directory of n files was "
	  "listed without stat, like ls -f.",
	  "list: Einträge, die pro Sekunde gelesen wurden, als das "
	  "Verzeichnis mit n Dateien ohne stat aufgelistet wurde (ls -f)." },
	{ "liststat: entries read and stat-ed per second when the directory "
	  "of n files was listed, like ls -lU.",
	  "liststat: Einträge, die pro Sekunde gelesen und mit stat "
	  "abgefragt wurden, als das Verzeichnis aufgelistet wurde (ls -lU)." },
	{ "delete: files unlinked per second, in the order they were "
	  "created, until the directory of n files was empty.",
	  "delete: Dateien, die pro Sekunde gelöscht wurden, in der "
	  "Reihenfolge ihres Anlegens, bis das Verzeichnis leer war." },
	{ "rmrf: files unlinked per second in the order the directory lists "
	  "them, like rm -rf.",
	  "rmrf: Dateien, die pro Sekunde in der Reihenfolge gelöscht "
	  "wurden, in der das Verzeichnis sie auflistet (rm -rf)." },
	{ "mkdir: directories made per second, in order, for a tree of n "
	  "files (--layout tree).",
	  "mkdir: Verzeichnisse, die pro Sekunde der Reihe nach angelegt "
	  "wurden, für einen Baum aus n Dateien (--layout tree)." },
	{ "deliver: mails delivered per second into a mailbox (tmp/, new/, "
	  "cur/) until it held n, as Postfix or Dovecot deliver one: ",
	  "deliver: Mails, die pro Sekunde in ein Postfach (tmp/, new/, "
	  "cur/) zugestellt wurden, bis es n enthielt, so wie Postfix oder "
	  "Dovecot zustellen: " },
	{ "move: mails moved per second from new/ to cur/ (a rename that "
	  "adds :2,), as an IMAP server does with mail it has seen, each of "
	  "the n once.",
	  "move: Mails, die pro Sekunde von new/ nach cur/ verschoben wurden "
	  "(eine Umbenennung, die :2, anhängt), wie ein IMAP-Server es mit "
	  "gesehenen Mails tut, jede der n einmal." },
	{ "flag: flag changes per second, a rename within cur/ to :2,S, each "
	  "of the n mails once, in a random order.",
	  "flag: geänderte Markierungen pro Sekunde, eine Umbenennung in cur/ "
	  "auf :2,S, jede der n Mails einmal, in zufälliger Reihenfolge." },
	{ "scan: entries read and stat-ed per second when new/ and cur/ of "
	  "a mailbox of n mails were listed, as an IMAP server resyncs it.",
	  "scan: Einträge, die pro Sekunde gelesen und mit stat abgefragt "
	  "wurden, als new/ und cur/ eines Postfachs mit n Mails aufgelistet "
	  "wurden, so wie ein IMAP-Server es abgleicht." },
	{ " opened, read whole and closed per second, each of the n once, "
	  "in a random order.",
	  ", die pro Sekunde geöffnet, ganz gelesen und wieder geschlossen "
	  "wurden, jede der n einmal, in zufälliger Reihenfolge." },
	{ "expunge: mails unlinked per second, in the order they were "
	  "delivered, until the mailbox of n was empty.",
	  "expunge: Mails, die pro Sekunde gelöscht wurden, in der "
	  "Reihenfolge ihrer Zustellung, bis das Postfach mit n leer war." },
};

static const char	*agreed(const struct results *, const char *);
static void		 put_size(FILE *, const char *, enum html_lang);
static void		 put_create(FILE *, const char *, const char *,
			    enum html_lang);
static void		 put_deliver(FILE *, const char *, const char *,
			    enum html_lang);

/*
 * Print the paragraph on the graph of phase 'p' (of pagephase_names) of
 * the targets 'rs' in 'lang'.
 */
void
pagephase_put(FILE *fp, const struct results *rs, size_t p,
    enum html_lang lang)
{
	const char	*size = agreed(rs, "config.file-size");
	const char	*fsync = agreed(rs, "config.fsync");

	html_put(fp, "<p>");
	if (p == P_CREATE)
		put_create(fp, size, fsync, lang);
	else if (p == P_DELIVER)
		put_deliver(fp, size, fsync, lang);
	else if (p == P_READ) {
		html_put(fp, "%s", html_tr(lang, "read: mails", "read: Mails"));
		if (size != NULL) {
			html_put(fp, "%s", html_tr(lang, " of ", " zu "));
			put_size(fp, size, lang);
		}
		html_put(fp, "%s", text[p][lang]);
	} else
		html_put(fp, "%s", text[p][lang]);
	html_put(fp, "</p>\n");
}

/* What every target of 'rs' recorded as 'key', or NULL if they differ. */
static const char *
agreed(const struct results *rs, const char *key)
{
	const char	*v = NULL, *w;
	size_t		 i;

	for (i = 0; i < rs->nt; i++) {
		if ((w = results_meta(&rs->t[i], key)) == NULL ||
		    (v != NULL && strcmp(v, w) != 0))
			return NULL;
		v = w;
	}
	return v;
}

/* A recorded --file-size, "4096" or "1024-65536", in words. */
static void
put_size(FILE *fp, const char *size, enum html_lang lang)
{
	char		*end;
	uint64_t	 lo, hi;

	lo = strtoull(size, &end, 10);
	if (*end == '-') {
		hi = strtoull(end + 1, NULL, 10);
		html_put(fp, "%s", html_tr(lang, "between ", "zwischen "));
		html_num(fp, (double)lo, 0, lang);
		html_put(fp, "%s", html_tr(lang, " and ", " und "));
		html_num(fp, (double)hi, 0, lang);
		html_put(fp, "%s", html_tr(lang, " bytes, each its own",
		    " Bytes, jede mit eigener Größe"));
		return;
	}
	html_num(fp, (double)lo, 0, lang);
	html_put(fp, "%s", html_tr(lang, " bytes", " Bytes"));
}

/*
 * create: the classic sentence for empty files without fsync, else the
 * size and the fsync of the files ('size', 'fsync' NULL: not the same
 * for every target).
 */
static void
put_create(FILE *fp, const char *size, const char *fsync,
    enum html_lang lang)
{
	bool	sync = fsync == NULL || strcmp(fsync, "none") != 0;

	if (size != NULL && strcmp(size, "0") == 0 && !sync) {
		html_put(fp, "%s", text[P_CREATE][lang]);
		return;
	}
	if (size != NULL && strcmp(size, "0") == 0)
		html_put(fp, "%s", html_tr(lang, "create: empty files",
		    "create: leere Dateien"));
	else
		html_put(fp, "%s", html_tr(lang, "create: files", "create: "
		    "Dateien"));
	if (size != NULL && strcmp(size, "0") != 0) {
		html_put(fp, "%s", html_tr(lang, " of ", " zu "));
		put_size(fp, size, lang);
	}
	if (fsync == NULL)
		html_put(fp, "%s", html_tr(lang, " (with the fsync each "
		    "target's set-up names)", " (mit dem fsync, das der "
		    "Aufbau des Targets nennt)"));
	else if (sync)
		html_put(fp, " (fsync: %s)", fsync);
	html_put(fp, "%s", html_tr(lang, " created per second in a fresh "
	    "directory, in the order of their numbers, until it held n "
	    "files.", ", die pro Sekunde in einem neuen Verzeichnis angelegt "
	    "wurden, bis es n Dateien enthielt."));
}

/* deliver: what a delivery wrote and synced. */
static void
put_deliver(FILE *fp, const char *size, const char *fsync,
    enum html_lang lang)
{
	html_put(fp, "%s", text[P_DELIVER][lang]);
	html_put(fp, "%s", html_tr(lang, "written into tmp/", "in tmp/ "
	    "geschrieben"));
	if (size != NULL) {
		html_put(fp, " (");
		put_size(fp, size, lang);
		html_put(fp, ")");
	}
	if (fsync == NULL)
		html_put(fp, "%s", html_tr(lang, ", synced as each target's "
		    "set-up says", ", gesichert, wie der Aufbau des Targets "
		    "sagt"));
	else if (strcmp(fsync, "file") == 0 || strcmp(fsync, "both") == 0)
		html_put(fp, "%s", html_tr(lang, ", fsync'd", ", mit fsync "
		    "gesichert"));
	html_put(fp, "%s", html_tr(lang, ", renamed into new/", ", nach new/ "
	    "umbenannt"));
	if (fsync != NULL && (strcmp(fsync, "dir") == 0 ||
	    strcmp(fsync, "both") == 0))
		html_put(fp, "%s", html_tr(lang, ", and new/ fsync'd",
		    ", und new/ wurde mit fsync gesichert"));
	html_put(fp, ".");
}
