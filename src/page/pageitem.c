/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pageitem: see pageitem.h.
 */

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "page/pageitem.h"

#define GIB	(1024.0 * 1024.0 * 1024.0)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void	put_value(FILE *, const char *, enum pageitem_kind,
		    enum html_lang);
static void	put_words(FILE *, const char *, enum html_lang);
static void	put_seconds(FILE *, double);

/* The settings that make up a workload, as the first paragraph shows them. */
const struct pageitem pageitem_workload[] = {
	{ "config.phases", { "phases", "Phasen" }, PAGEITEM_TEXT },
	{ "config.clients", { "clients sharing each round (--clients)",
	  "Clients, die sich jede Runde teilen (--clients)" },
	  PAGEITEM_COUNT },
	{ "config.split", { "names split (--split)", "Aufteilung der Namen "
	  "(--split)" }, PAGEITEM_TEXT },
	{ "config.names", { "names", "Namen" }, PAGEITEM_TEXT },
	{ "config.name-len", { "name length", "Namenslänge" },
	  PAGEITEM_COUNT },
	{ "config.file-size", { "bytes per file", "Byte je Datei" },
	  PAGEITEM_COUNT },
	{ "config.fsync", { "fsync", "fsync" }, PAGEITEM_WORDS },
	{ "config.sync", { "sync", "sync" }, PAGEITEM_WORDS },
	{ "config.budget", { "time budget", "Zeitbudget" },
	  PAGEITEM_SECONDS },
	{ "config.budget-policy", { "budget policy", "Budget-Regel" },
	  PAGEITEM_TEXT },
	{ "config.start", { "first n", "erstes n" }, PAGEITEM_COUNT },
	{ "config.growth", { "growth of n per round",
	  "Wachstum von n je Runde" }, PAGEITEM_NUM },
	{ "config.max-files", { "largest n allowed", "größtes erlaubtes n" },
	  PAGEITEM_COUNT },
	{ "config.repeat", { "repetitions of each n", "Wiederholungen je n" },
	  PAGEITEM_COUNT },
	{ "config.warmup", { "warm-up rounds", "Aufwärmrunden" },
	  PAGEITEM_COUNT },
	{ "config.cold", { "caches emptied before each phase after create "
	  "(--cold)", "Caches vor jeder Phase nach create geleert (--cold)" },
	  PAGEITEM_WORDS },
	{ "config.memory-limit", { "memory limit of the reading phases",
	  "Speicherlimit der lesenden Phasen" }, PAGEITEM_BYTES },
	{ NULL, { NULL, NULL }, PAGEITEM_TEXT }
};

/* The machine a target ran on. */
const struct pageitem pageitem_machine[] = {
	{ "host", { "host", "Hostname" }, PAGEITEM_TEXT },
	{ "cpu_model", { "CPU", "CPU" }, PAGEITEM_TEXT },
	{ "cpus_online", { "CPUs online", "aktive CPUs" },
	  PAGEITEM_COUNT },
	{ "mem_total_kib", { "memory", "Arbeitsspeicher" },
	  PAGEITEM_KIB },
	{ "kernel", { "kernel", "Kernel" }, PAGEITEM_TEXT },
	{ "machine", { "architecture", "Architektur" }, PAGEITEM_TEXT },
	{ "damon", { "memory the kernel reclaims on its own (DAMON)",
	  "Speicher, den der Kernel selbst zurückholt (DAMON)" },
	  PAGEITEM_WORDS },
	{ NULL, { NULL, NULL }, PAGEITEM_TEXT }
};

/* The target: its filesystem and how it was made and mounted. */
const struct pageitem pageitem_target[] = {
	{ "fstype", { "filesystem", "Dateisystem" }, PAGEITEM_TEXT },
	{ "driver", { "driver", "Treiber" }, PAGEITEM_TEXT },
	{ "source", { "source", "Quelle" }, PAGEITEM_TEXT },
	{ "mkfs", { "made with", "angelegt mit" }, PAGEITEM_TEXT },
	{ "image_size", { "image size", "Image-Größe" },
	  PAGEITEM_BYTES },
	{ "image_on", { "image on", "Image liegt auf" },
	  PAGEITEM_WORDS },
	{ "image_on_disk", { "its disk", "dessen Platte" },
	  PAGEITEM_WORDS },
	{ "loop_direct_io", { "loop direct I/O", "Loop mit Direct I/O" },
	  PAGEITEM_YESNO },
	{ "mount_options", { "mount options", "Mount-Optionen" },
	  PAGEITEM_TEXT },
	{ "super_options", { "superblock options", "Superblock-Optionen" },
	  PAGEITEM_TEXT },
	{ "target_server", { "served by", "bereitgestellt von" },
	  PAGEITEM_TEXT },
	{ "nfs_opts", { "NFS options in effect", "wirksame NFS-Optionen" },
	  PAGEITEM_TEXT },
	{ "nfs_caps", { "NFS capabilities (dtsize: READDIR size)",
	  "NFS-Fähigkeiten (dtsize: READDIR-Größe)" }, PAGEITEM_TEXT },
	{ "nfs_connections", { "connections to the server",
	  "Verbindungen zum Server" }, PAGEITEM_COUNT },
	{ "nfs_xprt", { "transport (first connection)",
	  "Transport (erste Verbindung)" }, PAGEITEM_TEXT },
	{ "scheduler", { "I/O scheduler", "I/O-Scheduler" },
	  PAGEITEM_TEXT },
	{ "rotational", { "rotational", "rotierend" },
	  PAGEITEM_YESNO },
	{ "command", { "command", "Aufruf" }, PAGEITEM_TEXT },
	{ NULL, { NULL, NULL }, PAGEITEM_TEXT }
};

_Static_assert(NELEM(pageitem_workload) <= PAGEITEM_MAX &&
    NELEM(pageitem_machine) <= PAGEITEM_MAX &&
    NELEM(pageitem_target) <= PAGEITEM_MAX, "PAGEITEM_MAX is too small");

/*
 * Metadata that means nothing where a target has some other: a loop
 * device is "rotational" whatever lies below it (image_on says what
 * does).  pageitem_put() leaves the first out.
 */
static const char *const meaningless[][2] = {
	{ "rotational", "loop_device" },
	{ NULL, NULL }
};

/*
 * Print the metadata value 's' as 'kind' asks; a value that should be a
 * number and is none prints as text.
 */
static void
put_value(FILE *fp, const char *s, enum pageitem_kind kind,
    enum html_lang lang)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (kind == PAGEITEM_WORDS) {
		put_words(fp, s, lang);
		return;
	}
	if (kind == PAGEITEM_SECONDS && end != s && (*end == '\0' ||
	    strcmp(end, "s") == 0)) {
		put_seconds(fp, v);
		return;
	}
	if (kind == PAGEITEM_TEXT || kind == PAGEITEM_YESNO || end == s ||
	    (*end != '\0' && !(kind == PAGEITEM_SECONDS &&
	    strcmp(end, "s") == 0))) {
		if (kind == PAGEITEM_YESNO && (strcmp(s, "yes") == 0 ||
		    strcmp(s, "1") == 0))
			s = html_tr(lang, "yes", "ja");
		else if (kind == PAGEITEM_YESNO && (strcmp(s, "no") == 0 ||
		    strcmp(s, "0") == 0))
			s = html_tr(lang, "no", "nein");
		else if ((kind == PAGEITEM_COUNT || kind == PAGEITEM_BYTES) &&
		    strcmp(s, "none") == 0)
			s = html_tr(lang, "no limit", "unbegrenzt");
		html_esc(fp, "", s, "");
	} else if (kind == PAGEITEM_KIB || kind == PAGEITEM_BYTES) {
		v *= kind == PAGEITEM_KIB ? 1024.0 : 1.0;
		html_num(fp, v >= GIB ? v / GIB : v / 1024.0 / 1024.0, 1, lang);
		html_put(fp, v >= GIB ? " GiB" : " MiB");
	} else {
		html_num(fp, v, kind == PAGEITEM_COUNT ? 0 : 3, lang);
		html_put(fp, kind == PAGEITEM_SECONDS ? " s" : "");
	}
}

/*
 * A value in largedir's own words ("none", "ext4 on /dev/vda
 * (rotational: 1)", a disk's write cache), in 'lang': each phrase it
 * knows replaced, the rest (names, paths) as it is.
 */
static void
put_words(FILE *fp, const char *s, enum html_lang lang)
{
	/* Whole values first, then phrases within a value. */
	static const char *const whole[][3] = {
		{ "none", "none", "keine" },
		{ "drop", "drop (dentries and inodes)",
		    "verwerfen (Dentries und Inodes)" },
		{ "all", "all (dentries, inodes and page cache)",
		    "alle (Dentries, Inodes und Page-Cache)" },
		{ "remount", "remount", "neu einhängen" },
		{ "file", "file", "Datei" },
		{ "dir", "dir", "Verzeichnis" },
		{ "both", "both", "beide" },
		{ "phase", "phase", "je Phase" },
		{ "round", "round", "je Runde" },
	};
	static const char *const part[][3] = {
		{ " on ", " on ", " auf " },
		{ "(rotational: 1)", "(rotational: yes)", "(rotierend: ja)" },
		{ "(rotational: 0)", "(rotational: no)", "(rotierend: nein)" },
		{ "(a virtual machine's disk)", "(a virtual machine's disk)",
		    "(die Platte einer virtuellen Maschine)" },
		{ "write cache: ", "write cache: ", "Schreibcache: " },
		{ "pageout of memory idle for ", "pageout of memory idle for ",
		    "Auslagern von Speicher, der " },
		{ " s or more (kdamond ", " s or more (kdamond ",
		    " s oder länger unbenutzt war (kdamond " },
	};
	char	buf[1024];
	size_t	k, n = 0, len;

	for (k = 0; k < NELEM(whole); k++)
		if (strcmp(s, whole[k][0]) == 0) {
			html_esc(fp, "", whole[k][1 + lang], "");
			return;
		}
	while (*s != '\0' && n + 1 < sizeof(buf)) {
		for (k = 0; k < NELEM(part); k++)
			if (strncmp(s, part[k][0], strlen(part[k][0])) == 0)
				break;
		if (k == NELEM(part)) {
			buf[n++] = *s++;
			continue;
		}
		len = strlen(part[k][1 + lang]);
		if (n + len + 1 >= sizeof(buf))
			break;
		memcpy(buf + n, part[k][1 + lang], len);
		n += len;
		s += strlen(part[k][0]);
	}
	buf[n] = '\0';
	html_esc(fp, "", buf, "");
}

/* A duration of 'v' seconds as people say it: "40 s", "27 min". */
static void
put_seconds(FILE *fp, double v)
{
	long	s = lround(v);

	if (s < 60)
		html_put(fp, "%ld s", s);
	else if (s < 3600 && s % 60 == 0)
		html_put(fp, "%ld min", s / 60);
	else if (s < 3600)
		html_put(fp, "%ld:%02ld min", s / 60, s % 60);
	else if (s % 3600 == 0)
		html_put(fp, "%ld h", s / 3600);
	else
		html_put(fp, "%ld h %ld min", s / 3600, s % 3600 / 60);
}

/*
 * Print "'title' — name: value; name: value." for the items of 'list'
 * (ended by one whose key is NULL) that target 't' has, between 'pre'
 * and 'post' (HTML), in 'lang', or nothing if it has none.
 */
void
pageitem_put(FILE *fp, const struct results_target *t,
    const struct pageitem *list, const char *pre, const char *title,
    const char *post, enum html_lang lang)
{
	const struct pageitem	*it;
	const char		*s;
	size_t			 k;
	bool			 first = true;

	for (it = list; it->key != NULL; it++) {
		if ((s = results_meta(t, it->key)) == NULL)
			continue;
		for (k = 0; meaningless[k][0] != NULL; k++)
			if (strcmp(it->key, meaningless[k][0]) == 0 &&
			    results_meta(t, meaningless[k][1]) != NULL)
				break;
		if (meaningless[k][0] != NULL)
			continue;
		if (first)
			html_esc(fp, pre, title, "");
		html_put(fp, "%s%s: ", first ? " \u2014 " : "; ",
		    it->name[lang]);
		put_value(fp, s, it->kind, lang);
		first = false;
	}
	if (!first)
		html_put(fp, ".%s", post);
}
