/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagesense: see pagesense.h.
 *
 * Every sentence comes from columns and metadata any run records: the
 * rates at fixed n (results_rate_at()), knee_PHASE and its rates, the
 * sectors read and the system time of the rows, the warnings, and the
 * repetitions of each round.  A target or a phase that does not have
 * them is left out of the sentence; a page without anything to say has
 * no section.
 */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "page/pagesense.h"
#include "report/knee.h"

/* Which targets put_fastest() compares. */
enum kind { KIND_ALL, KIND_HOST, KIND_UML };

static bool	put_fastest(FILE *, const struct results *,
		    const char *const *, const bool *, size_t, const double *,
		    size_t, enum kind, enum html_lang, bool);
static bool	put_falls(FILE *, const struct results_target *,
		    const char *const *, const bool *, size_t,
		    enum html_lang, bool);
static bool	put_noise(FILE *, const struct results_target *,
		    const char *const *, const bool *, size_t,
		    enum html_lang, bool);
static void	item(FILE *, bool *, enum html_lang);
static void	put_latency(FILE *, const struct results_target *, double,
		    enum html_lang);
static const char	*shape(const struct results_target *, const char *,
		    double *, double *);
static void	put_knee(FILE *, const struct results_target *, const char *,
		    double, double, enum html_lang);
static double	inodes_at(const struct results_target *, const char *,
		    double);
static void	put_decline(FILE *, const struct results_target *,
		    const char *, enum html_lang);
static double	at(const struct results_target *, size_t, const char *,
		    const char *);
static double	per_file(const struct results_target *, const char *,
		    const char *, double, bool);
static size_t	collapses(const struct results_target *, double *, bool *);
static double	spread(const struct results_target *, const char *const *,
		    const bool *, size_t);

/*
 * Print the section for the targets 'rs', whose phases are the 'np'
 * names 'phases' with has[i] true where some target rates phase i; the
 * fastest are named at the 'nfixed' n of 'fixed' (the page's table's).
 */
void
pagesense_put(FILE *fp, const struct results *rs, const char *const *phases,
    const bool *has, size_t np, const double *fixed, size_t nfixed,
    enum html_lang lang)
{
	bool	open = false;
	size_t	i;

	/* Rates in User-Mode Linux and on the host do not compare. */
	if (!results_mixed_kernels(rs))
		open |= put_fastest(fp, rs, phases, has, np, fixed, nfixed,
		    KIND_ALL, lang, open);
	else {
		open |= put_fastest(fp, rs, phases, has, np, fixed, nfixed,
		    KIND_HOST, lang, open);
		open |= put_fastest(fp, rs, phases, has, np, fixed, nfixed,
		    KIND_UML, lang, open);
	}
	for (i = 0; i < rs->nt; i++)
		open |= put_falls(fp, &rs->t[i], phases, has, np, lang, open);
	for (i = 0; i < rs->nt; i++)
		open |= put_noise(fp, &rs->t[i], phases, has, np, lang, open);
	if (open)
		html_put(fp, "</ul>\n");
}

/*
 * Start an item of the list, and the section before the first: 'open'
 * says whether it has begun, and becomes true.
 */
static void
item(FILE *fp, bool *open, enum html_lang lang)
{
	if (!*open)
		html_put(fp, "<h2>%s</h2>\n<ul>\n", html_tr(lang,
		    "What this means", "Was das bedeutet"));
	*open = true;
	html_put(fp, "<li>");
}

/*
 * For each fixed n, the fastest target of each phase that two targets
 * or more reached, and how many times the next one's rate it had: among
 * the targets of 'kind' (those on this machine's kernel, or those inside
 * User-Mode Linux, whose rates compare only with each other).  Return
 * whether it printed an item.
 */
static bool
put_fastest(FILE *fp, const struct results *rs, const char *const *phases,
    const bool *has, size_t np, const double *fixed, size_t nfixed,
    enum kind kind, enum html_lang lang, bool open)
{
	double	rate, first, second, n, bestn = NAN;
	size_t	f, p, i, best, next;
	bool	any, printed = false;

	for (f = 0; f < nfixed; f++) {
		any = false;
		for (p = 0; p < np; p++) {
			if (!has[p])
				continue;
			first = second = -1;
			best = next = rs->nt;
			for (i = 0; i < rs->nt; i++) {
				rate = results_rate_at(&rs->t[i], phases[p],
				    fixed[f], &n);
				/* Not durable: shown, never the fastest. */
				if (!isfinite(rate) ||
				    results_not_durable(&rs->t[i]) ||
				    (kind != KIND_ALL && results_in_uml(
				    &rs->t[i]) != (kind == KIND_UML)))
					continue;
				if (rate > first) {
					second = first;
					next = best;
					first = rate;
					best = i;
					bestn = n;
				} else if (rate > second) {
					second = rate;
					next = i;
				}
			}
			if (next == rs->nt || second <= 0)
				continue;
			if (!any) {
				item(fp, &open, lang);
				html_put(fp, "%s", html_tr(lang, "At n = ",
				    "Bei n = "));
				html_num(fp, fixed[f], 0, lang);
				if (kind == KIND_HOST)
					html_put(fp, "%s", html_tr(lang,
					    " on this machine's kernel",
					    " auf dem Kernel dieser Maschine"));
				else if (kind == KIND_UML)
					html_put(fp, "%s", html_tr(lang,
					    " inside User-Mode Linux",
					    " in User-Mode Linux"));
				html_put(fp, "%s ", html_tr(lang,
				    ", the fastest were:",
				    " waren am schnellsten:"));
			} else
				html_put(fp, "; ");
			any = printed = true;
			html_esc(fp, "", phases[p], " ");
			html_esc(fp, "<strong>", rs->t[best].label,
			    "</strong> (");
			html_num(fp, first, first < 100 ? 1 : 0, lang);
			html_put(fp, "/s, ");
			if (strcmp(phases[p], "deliver") == 0)
				put_latency(fp, &rs->t[best], bestn, lang);
			/* Within half a per cent: a tie, not "1 times". */
			if (first / second < 1.005)
				html_esc(fp, html_tr(lang, "as fast as ",
				    "so schnell wie "), rs->t[next].label, ")");
			else {
				html_num(fp, first / second, 2, lang);
				html_esc(fp, html_tr(lang, " times ",
				    "-mal so schnell wie "), rs->t[next].label,
				    ")");
			}
		}
		if (any)
			html_put(fp, ".</li>\n");
	}
	return printed;
}

/*
 * A delivery's latency in 't' at the 'n' of its round: "p50 1.3 ms, p99
 * 3.6 ms, ", or nothing where the run did not record it.
 */
static void
put_latency(FILE *fp, const struct results_target *t, double n,
    enum html_lang lang)
{
	double	p50, p99, at;

	p50 = results_value_at(t, "deliver_p50_ns", n, &at);
	p99 = results_value_at(t, "deliver_p99_ns", n, &at);
	if (!isfinite(p50) || !isfinite(p99))
		return;
	html_put(fp, "p50 ");
	html_num(fp, p50 / 1e6, p50 < 1e7 ? 2 : 1, lang);
	html_put(fp, " ms, p99 ");
	html_num(fp, p99 / 1e6, p99 < 1e7 ? 2 : 1, lang);
	html_put(fp, " ms, ");
}

/*
 * The item on the knee of phase 'phase' of 't', between the rounds of
 * 'above' (0: not known) and 'knee' files, and whether the disk reads
 * more per file from there on.
 */
static void
put_knee(FILE *fp, const struct results_target *t, const char *phase,
    double knee, double above, enum html_lang lang)
{
	double	before, after;

	html_esc(fp, "<strong>", t->label, "</strong>: ");
	if (above > 0) {
		html_esc(fp, "", phase, html_tr(lang, " falls "
		    "below half its plateau between n = ", " fällt "
		    "zwischen n = "));
		html_num(fp, above, 0, lang);
		html_put(fp, "%s", html_tr(lang, " and n = ", " und "
		    "n = "));
	} else
		html_esc(fp, "", phase, html_tr(lang, " falls "
		    "below half its plateau from n = ", " fällt ab "
		    "n = "));
	html_num(fp, knee, 0, lang);
	html_put(fp, "%s", html_tr(lang, "", " unter die Hälfte seines "
	    "Plateaus"));
	before = per_file(t, phase, "sectors_read", knee, false);
	after = per_file(t, phase, "sectors_read", knee, true);
	if (isfinite(before) && isfinite(after) && after >= 1 &&
	    after > 2 * before) {
		html_put(fp, "%s", html_tr(lang, "; from there on it "
		    "reads ", "; von dort an liest es "));
		html_num(fp, after, after < 10 ? 1 : 0, lang);
		html_put(fp, "%s", html_tr(lang, " sectors per file "
		    "from the disk, ", " Sektoren je Datei von der "
		    "Platte, vorher "));
		html_num(fp, before, before < 10 ? 1 : 0, lang);
		/*
		 * The cause only where the caches held fewer inodes than
		 * the directory has files: with room for all, the disk's
		 * reads have another cause.
		 */
		if (!(inodes_at(t, phase, knee) >= knee))
			html_put(fp, "%s", html_tr(lang, " before: the "
			    "directory and its inodes no longer fit in the "
			    "caches", ": Verzeichnis und Inodes passen nicht "
			    "mehr in die Caches"));
		else
			html_put(fp, "%s", html_tr(lang, " before", ""));
	}
	html_put(fp, ".</li>\n");
}

/*
 * The caches' inodes at the start of phase 'phase' of 't' in the round
 * of 'n' files (the machine's count), or NAN where it was not counted.
 */
static double
inodes_at(const struct results_target *t, const char *phase, double n)
{
	char	col[64];
	double	found, v;

	(void)snprintf(col, sizeof(col), "%s_inodes", phase);
	v = results_value_at(t, col, n, &found);
	return found == n ? v : NAN;
}

/*
 * The item on phase 'phase' of 't' falling from the start; the cause
 * named only where the target's directories are searched linearly (its
 * mkfs turned dir_index off).
 */
static void
put_decline(FILE *fp, const struct results_target *t, const char *phase,
    enum html_lang lang)
{
	const char	*mkfs = results_meta(t, "mkfs");

	html_esc(fp, "<strong>", t->label, "</strong>: ");
	html_esc(fp, "", phase, html_tr(lang, " falls from the start",
	    " fällt von Anfang an"));
	if (mkfs != NULL && strstr(mkfs, "^dir_index") != NULL)
		html_put(fp, "%s", html_tr(lang, ", as it does where every "
		    "name is looked for through the whole directory (a "
		    "directory searched linearly, with no index)", ", typisch "
		    "für ein linear durchsuchtes Verzeichnis ohne Index, in "
		    "dem jeder Name im ganzen Verzeichnis gesucht wird"));
	html_put(fp, ".</li>\n");
}

/*
 * Where the curves of target 't' fall: a knee (and whether the disk
 * reads more per file from there on, as when the directory no longer
 * fits in the caches), a decline from the start, a collapse of create
 * with the CPU busy in the kernel and the disk idle.  Return whether it
 * printed an item.
 */
static bool
put_falls(FILE *fp, const struct results_target *t, const char *const *phases,
    const bool *has, size_t np, enum html_lang lang, bool open)
{
	const char	*k;
	double		 knee, above, sys;
	size_t		 p, nc;
	bool		 printed = false, idle;

	for (p = 0; p < np; p++) {
		if (!has[p] || (k = shape(t, phases[p], &knee, &above)) ==
		    NULL)
			continue;
		if (strcmp(k, "decline") == 0) {
			item(fp, &open, lang);
			put_decline(fp, t, phases[p], lang);
			printed = true;
			continue;
		}
		if (strcmp(k, "knee") != 0)
			continue;
		item(fp, &open, lang);
		printed = true;
		put_knee(fp, t, phases[p], knee, above, lang);
	}
	k = shape(t, "create", &knee, &above);
	nc = k != NULL && strcmp(k, "decline") == 0 ? 0 : collapses(t, &sys,
	    &idle);
	if (nc > 0) {
		item(fp, &open, lang);
		printed = true;
		html_esc(fp, "<strong>", t->label, "</strong>: ");
		html_put(fp, html_tr(lang, "create fell below a quarter of its "
		    "best rate in %zu round%s, with the CPU in the kernel for ",
		    "create fiel in %zu Runde%s unter ein Viertel seiner "
		    "besten Rate, wobei die CPU "), nc, nc == 1 ? "" :
		    html_tr(lang, "s", "n"));
		html_num(fp, 100 * sys, 0, lang);
		html_put(fp, "%s%s%s", html_tr(lang, "% of the time",
		    " % der Zeit im Kernel war"), !idle ? "" : html_tr(lang,
		    " and the disk reading nothing", " und die Platte nichts "
		    "las"), html_tr(lang, ": the kernel searched, as ext4 "
		    "without a journal does while it skips the inodes freed in "
		    "the last minute or so.</li>\n", ": Der Kernel war mit "
		    "Suchen beschäftigt \u2013 so verhält sich ext4 ohne "
		    "Journal, wenn es die etwa in der letzten Minute frei "
		    "gewordenen Inodes überspringt.</li>\n"));
	}
	return printed;
}

/*
 * Whether target 't' was noisy: the warnings its run recorded, and
 * repetitions that differ by more than PAGESENSE_NOISY.  Return whether
 * it printed an item.
 */
static bool
put_noise(FILE *fp, const struct results_target *t, const char *const *phases,
    const bool *has, size_t np, enum html_lang lang, bool open)
{
	size_t	i, nw = 0;
	double	s;

	for (i = 0; i < t->nmeta; i++)
		if (strncmp(t->meta[i].key, "warning_", 8) == 0)
			nw++;
	s = spread(t, phases, has, np);
	if (nw == 0 && !(s > PAGESENSE_NOISY))
		return false;
	item(fp, &open, lang);
	html_esc(fp, "<strong>", t->label, "</strong>: ");
	if (nw > 0)
		html_put(fp, html_tr(lang, "its run recorded %zu warning%s of "
		    "noise (a busy machine, outliers, lost time; see its "
		    "section)", "sein Lauf verzeichnete %zu "
		    "Störungswarnung%s (Systemlast, Ausreißer, verlorene Zeit; "
		    "siehe seinen Abschnitt)"), nw, nw == 1 ? "" :
		    html_tr(lang, "s", "en"));
	if (nw > 0 && s > PAGESENSE_NOISY)
		html_put(fp, "%s", html_tr(lang, ", and ", ", und "));
	if (s > PAGESENSE_NOISY) {
		html_put(fp, "%s", html_tr(lang, "its repetitions of a round "
		    "differ by ", "seine Wiederholungen einer Runde liegen "
		    "um "));
		html_num(fp, 100 * s, 0, lang);
		html_put(fp, "%s", html_tr(lang, "% (the median over rounds "
		    "and phases)", " % auseinander (Median über Runden und "
		    "Phasen)"));
	}
	html_put(fp, "%s", html_tr(lang, ": compare its rates with care."
	    "</li>\n", ": seine Raten mit Vorsicht vergleichen.</li>\n"));
	return true;
}

/*
 * The shape of phase 'phase' of 't': "knee" (its n in '*knee', the
 * round before it in '*above': results_knee_above(); NAN if none),
 * "decline", "none", or NULL when it cannot be told: what the run
 * recorded (knee_PHASE, knee_PHASE_above), else what
 * stats_knee() finds in its rows (older results recorded none), as
 * record_knee() does.
 */
static const char *
shape(const struct results_target *t, const char *phase, double *knee,
    double *above)
{
	struct stats_knee	 k;
	const char		*m;
	char			 key[64];
	double			*n, *rate, x, y;
	size_t			 r, j, cnt = 0;
	int			 rc;

	*above = 0;
	(void)snprintf(key, sizeof(key), "knee_%s", phase);
	if ((m = results_meta(t, key)) != NULL) {
		if (strcmp(m, "decline") == 0 || strcmp(m, "none") == 0)
			return m;
		*knee = strtod(m, NULL);
		*above = results_knee_above(t, phase, *knee);
		return *knee > 0 ? "knee" : NULL;
	}
	n = xreallocarray(NULL, t->nrows + 1, sizeof(*n));
	rate = xreallocarray(NULL, t->nrows + 1, sizeof(*rate));
	for (r = 0; r < t->nrows; r++) {
		x = at(t, r, NULL, "n");
		y = at(t, r, phase, "per_s");
		if (at(t, r, NULL, "warmup") > 0 || !isfinite(x) ||
		    !isfinite(y))
			continue;
		for (j = cnt; j > 0 && n[j - 1] > x; j--) {
			n[j] = n[j - 1];
			rate[j] = rate[j - 1];
		}
		n[j] = x;
		rate[j] = y;
		cnt++;
	}
	rc = cnt > 0 ? stats_knee(n, rate, cnt, KNEE_FRACTION, &k) : -1;
	free(n);
	free(rate);
	if (rc == -1 || k.shape == STATS_TOO_FEW)
		return NULL;
	*knee = k.n;
	*above = k.shape == STATS_KNEE ? k.n_above : 0;
	return k.shape == STATS_KNEE ? "knee" : k.shape == STATS_DECLINE ?
	    "decline" : "none";
}

/* The value of column 'name' ("PHASE_SUFFIX" when 'phase') in row 'r'. */
static double
at(const struct results_target *t, size_t r, const char *phase,
    const char *name)
{
	char	col[64];
	int	c;

	if (phase != NULL)
		(void)snprintf(col, sizeof(col), "%s_%s", phase, name);
	else
		(void)snprintf(col, sizeof(col), "%s", name);
	if ((c = results_col(t, col)) == -1 || r >= t->nrows)
		return NAN;
	return t->cell[r * t->ncols + (size_t)c];
}

/*
 * Column PHASE_'name' per file of the rows (warm-up rows left out) below
 * n = 'knee', or with 'after' from it on: their sum over the files.
 */
static double
per_file(const struct results_target *t, const char *phase, const char *name,
    double knee, bool after)
{
	double	sum = 0, files = 0, n, v;
	size_t	r;

	for (r = 0; r < t->nrows; r++) {
		n = at(t, r, NULL, "n");
		v = at(t, r, phase, name);
		if (at(t, r, NULL, "warmup") > 0 || !isfinite(n) ||
		    !isfinite(v) || (after ? n < knee : n >= knee))
			continue;
		sum += v;
		files += n;
	}
	return files > 0 ? sum / files : NAN;
}

/*
 * If the create rate of 't' fell below PAGESENSE_COLLAPSE of the round
 * before's somewhere (suddenly, not declining), the rows whose create
 * fell below PAGESENSE_COLLAPSE of its best rate with at least
 * PAGESENSE_KERNEL of the time in the kernel and no sector read: how
 * many, their share of kernel time in '*sys', and in '*idle' whether all
 * of them recorded that the disk read nothing (older results have no
 * sector counts).
 */
static size_t
collapses(const struct results_target *t, double *sys, bool *idle)
{
	double	best = 0, rate, ns, s, rd, sum = 0;
	size_t	r, k = 0;
	bool	sudden = false;

	*idle = true;
	for (r = 0; r < t->nrows; r++) {
		if ((rate = at(t, r, "create", "per_s")) > best)
			best = rate;
		/* A fall from one round to the next, not a decline. */
		if (r > 0 && rate < PAGESENSE_COLLAPSE * at(t, r - 1,
		    "create", "per_s") && at(t, r, NULL, "n") > at(t, r - 1,
		    NULL, "n"))
			sudden = true;
	}
	for (r = 0; r < t->nrows && best > 0 && sudden; r++) {
		rate = at(t, r, "create", "per_s");
		ns = at(t, r, "create", "ns");
		s = at(t, r, "create", "sys_ns");
		rd = at(t, r, "create", "sectors_read");
		if (!(rate < PAGESENSE_COLLAPSE * best) || !(ns > 0) ||
		    !(s >= PAGESENSE_KERNEL * ns) || rd > 0)
			continue;
		*idle = *idle && rd == 0;	/* NAN: not recorded */
		sum += s / ns;
		k++;
	}
	*sys = k > 0 ? sum / (double)k : NAN;
	return k;
}

/*
 * How much the repetitions of a round differ: for every round with more
 * than one and every phase, (max - min) / median of their rates; the
 * median of those.  NAN without repetitions.
 */
static double
spread(const struct results_target *t, const char *const *phases,
    const bool *has, size_t np)
{
	double	*v, *rates, lo, hi, med, round, rate, out;
	size_t	 r, end, k, p, nv = 0, nr;

	v = xreallocarray(NULL, t->nrows * np + 1, sizeof(*v));
	rates = xreallocarray(NULL, t->nrows + 1, sizeof(*rates));
	for (p = 0; p < np; p++) {
		if (!has[p])
			continue;
		for (r = 0; r < t->nrows; r = end) {
			round = at(t, r, NULL, "round");
			for (end = r, nr = 0; end < t->nrows && at(t, end,
			    NULL, "round") == round; end++) {
				rate = at(t, end, phases[p], "per_s");
				if (isfinite(rate) && !(at(t, end, NULL,
				    "warmup") > 0))
					rates[nr++] = rate;
			}
			if (end == r)
				end++;		/* no round number */
			if (nr < 2)
				continue;
			lo = hi = rates[0];
			for (k = 1; k < nr; k++) {
				lo = fmin(lo, rates[k]);
				hi = fmax(hi, rates[k]);
			}
			if ((med = stats_median(rates, nr)) > 0)
				v[nv++] = (hi - lo) / med;
		}
	}
	out = nv > 0 ? stats_median(v, nv) : NAN;
	free(v);
	free(rates);
	return out;
}
