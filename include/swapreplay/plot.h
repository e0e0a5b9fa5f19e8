/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/plot.h - charts of a replay's result, of a trace's timeline
 * and of a sweep's rows, drawn with cairo as SVG, PNG or PDF
 * (docs/REPORT.md, "Plots").  Like the reports, a chart depends only on
 * its inputs: no dates, hosts or addresses in it.  Each function writes a
 * whole image to a stream; the caller makes the file (sr_outfile).
 */
#ifndef SWAPREPLAY_PLOT_H
#define SWAPREPLAY_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/result.h"
#include "swapreplay/stat.h"

enum sr_plot_fmt {
	SR_PLOT_SVG = 0,
	SR_PLOT_PNG = 1,
	SR_PLOT_PDF = 2,
};

/*
 * The format a file name asks for, by its extension: .svg, .png or .pdf
 * (any case).  SR_ERR_INVAL with a message naming the three otherwise
 * (standard output, "-", has no extension and is refused too).
 */
enum sr_err sr_plot_fmt_from_name(const char *path, enum sr_plot_fmt *fmt,
				  struct sr_diag *diag);

/* What a replay's chart says it is of (both as the report names them). */
struct sr_plot_replay_info {
	const char *trace;
	const char *machine;
};

/*
 * A replay's result: above, each policy's swap-in latency as a cumulative
 * distribution on a log time axis, one curve per policy with swap-ins;
 * below, each device's utilisation, one bar per policy and device.
 * SR_ERR_IO if the stream fails, SR_ERR_NOMEM, SR_ERR_LIMIT if cairo
 * cannot draw it (its status in the message).
 */
enum sr_err sr_plot_replay(FILE *f, enum sr_plot_fmt fmt, const struct sr_result *res,
			   const struct sr_plot_replay_info *info, struct sr_diag *diag);

/*
 * Timelines (sr_timeline) of n traces, named names[i]: swap-out KiB/s
 * over time above, swap-in below, one curve per trace, each from its own
 * first bucket.  Errors as sr_plot_replay().
 */
enum sr_err sr_plot_timeline(FILE *f, enum sr_plot_fmt fmt, const char *const *names,
			     const struct sr_timeline *const *tl, size_t n,
			     struct sr_diag *diag);

/*
 * Free what cairo keeps between charts (its font caches, and through them
 * fontconfig's), so that a leak checker sees none; the next chart loads
 * them again.  Only when nothing else in the process draws with cairo.
 */
void sr_plot_release(void);

/* ---- a sweep's rows (docs/SWEEP.md, "Rows") --------------------------- */

struct sr_plot_rows;

enum sr_err sr_plot_rows_new(struct sr_plot_rows **out, struct sr_diag *diag);
void sr_plot_rows_free(struct sr_plot_rows *r);

/*
 * Add the rows of a sweep's result file, JSON lines or CSV (path, "-" for
 * standard input; zstd-compressed or not), read as a sweep's --resume and
 * merge read them (docs/SWEEP.md, "Rows").  Rows in error and rows of
 * traces with no swap activity are counted and left out.  Rows are taken
 * by identity (what they are the result of, docs/SWEEP.md): a row read
 * again with the same figures, in either format, is left out
 * (sr_plot_rows_doubled()); one of the same identity with other figures
 * is refused, as are rows of other settings (options) than the first row
 * that replayed, and a trace, machine or policy of another content hash
 * under a name seen.  SR_ERR_IO (cannot be read), SR_ERR_FORMAT with
 * FILE:LINE (a line that is not a result row, a row without a field of
 * its identity or a figure, a last row cut short, rows against another
 * baseline or of other settings than the earlier rows', a row of an
 * identity read before with other figures, naming both), SR_ERR_LIMIT
 * with FILE:LINE (a line longer than 64 KiB: a row is a few KiB),
 * SR_ERR_NOMEM.
 */
enum sr_err sr_plot_rows_read(struct sr_plot_rows *r, const char *path,
			      struct sr_diag *diag);

/* Rows read (of every status); of them those in error, and those of
 * traces with no swap activity (status "no swap activity": no figures),
 * both left out of the chart. */
size_t sr_plot_rows_count(const struct sr_plot_rows *r);
size_t sr_plot_rows_errors(const struct sr_plot_rows *r);
size_t sr_plot_rows_quiet(const struct sr_plot_rows *r);
/* Rows given again (the same identity and figures: a file and a subset
 * of it), left out: each row is counted once. */
size_t sr_plot_rows_doubled(const struct sr_plot_rows *r);

/*
 * Each policy's delta against the baseline, per machine, across traces:
 * a group of bars per machine, one bar per policy but the baseline (the
 * mean of its deltas over the traces), with a whisker from the smallest
 * to the largest and a dot for each trace.  SR_ERR_FORMAT when no row
 * replayed; otherwise errors as sr_plot_replay().
 */
enum sr_err sr_plot_sweep(FILE *f, enum sr_plot_fmt fmt, const struct sr_plot_rows *r,
			  struct sr_diag *diag);

#endif /* SWAPREPLAY_PLOT_H */
