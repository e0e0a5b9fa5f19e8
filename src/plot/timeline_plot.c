/* SPDX-License-Identifier: MIT */
/*
 * A trace's timeline drawn (sr_plot_timeline, `swapreplay stat --plot`):
 * swap-out KiB/s over time above, swap-in below, a curve per trace; each
 * bucket's rate is drawn flat across the bucket, as vmstat's columns are
 * rates over its interval.
 */
#include <math.h>
#include <stdlib.h>

#include "common/diag.h"
#include "plot/chart.h"

#define PAGE_W 800
#define PAGE_H 650
#define PLOT_X0 90
#define PLOT_X1 600
#define OUT_Y0 90
#define OUT_Y1 310
#define IN_Y0 370
#define IN_Y1 570
#define LEGEND_X 620
#define LEGEND_W (PAGE_W - LEGEND_X - 10)

/* The rates' unit: the largest of KiB/s, MiB/s and GiB/s under which
 * the highest rate is at least 1. */
static const struct { double kib; const char *name; } units[] = {
	{ 1024.0 * 1024.0, "GiB/s" }, { 1024.0, "MiB/s" }, { 1.0, "KiB/s" },
};

static int unit_for(double max_kib_s)
{
	int u;

	for (u = 0; u < 2 && max_kib_s < units[u].kib; u++)
		;
	return u;
}

/* The times' unit: seconds down to a millisecond (an axis of 0.001 s
 * and up reads well in them), then microseconds, then nanoseconds. */
static const struct { double s; const char *name; } tunits[] = {
	{ 1.0, "s" }, { 1e-6, "\u00b5s" }, { 1e-9, "ns" },
};

static int tunit_for(double s)
{
	return s >= 1e-3 ? 0 : s >= 1e-6 ? 1 : 2;
}

/* Timeline t's rates of op as steps: x in time unit tu (tunits) from its
 * bucket 0, y in the rate's unit; x and y hold 2 * buckets.  Returns how
 * many points. */
static size_t steps(const struct sr_timeline *t, int op, double unit, int tu, double *x,
		    double *y)
{
	struct sr_timeline_info ti;
	double w;
	size_t i, n = 0;

	sr_timeline_get(t, &ti);
	w = (double)ti.width_ns / 1e9 / tunits[tu].s;
	for (i = 0; i < ti.buckets; i++) {
		double v = sr_timeline_kib_s(t, i, op) / unit;

		x[n] = (double)i * w;
		y[n++] = v;
		x[n] = (double)(i + 1) * w;
		y[n++] = v;
	}
	return n;
}

enum sr_err sr_plot_timeline(FILE *f, enum sr_plot_fmt fmt, const char *const *names,
			     const struct sr_timeline *const *tl, size_t n,
			     struct sr_diag *diag)
{
	struct chart_panel pn[2];
	struct chart_page pg;
	struct sr_timeline_info ti;
	char ylab[2][64], xlab[64], sub[400], foot[200];
	double max_s = 0, max_rate = 0, wmin = 0, wmax = 0, *x = NULL, *y = NULL;
	size_t i, b, most = 0;
	enum sr_err err;
	int op, u, tu, wu;

	if (!n)
		return sr_diag_set(diag, SR_ERR_INVAL, "no timeline to plot");
	for (i = 0; i < n; i++) {
		sr_timeline_get(tl[i], &ti);
		if (ti.buckets > most)
			most = ti.buckets;
		if ((double)ti.buckets * (double)ti.width_ns / 1e9 > max_s)
			max_s = (double)ti.buckets * (double)ti.width_ns / 1e9;
		if (!i || (double)ti.width_ns / 1e9 < wmin)
			wmin = (double)ti.width_ns / 1e9;
		if ((double)ti.width_ns / 1e9 > wmax)
			wmax = (double)ti.width_ns / 1e9;
		for (b = 0; b < ti.buckets; b++)
			for (op = 0; op < 2; op++)
				if (sr_timeline_kib_s(tl[i], b, op) > max_rate)
					max_rate = sr_timeline_kib_s(tl[i], b, op);
	}
	u = unit_for(max_rate);
	/* The axis in the unit of its extent, the widths in that of the
	 * finest: a trace of 68 us is drawn over 0-70 us in buckets of 1 us. */
	tu = tunit_for(max_s);
	wu = tunit_for(wmin);
	snprintf(xlab, sizeof(xlab), "time from the first bucket (%s)", tunits[tu].name);
	x = malloc((2 * most + 1) * sizeof(*x));
	y = malloc((2 * most + 1) * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	err = chart_page_open(&pg, f, fmt, PAGE_W, PAGE_H, diag);
	if (err)
		goto out;
	if (n == 1)
		snprintf(sub, sizeof(sub), "%s; buckets of %g %s", names[0], wmin / tunits[wu].s,
			 tunits[wu].name);
	else if (wmin == wmax)
		snprintf(sub, sizeof(sub), "%zu traces, each from its first bucket; buckets of %g %s",
			 n, wmin / tunits[wu].s, tunits[wu].name);
	else
		snprintf(sub, sizeof(sub), "%zu traces, each from its first bucket; buckets of %g %s "
			 "to %g %s", n, wmin / tunits[wu].s, tunits[wu].name, wmax / tunits[wu].s,
			 tunits[wu].name);
	chart_page_head(&pg, "Swap-out and swap-in over time", sub,
			chart_footer_trace(foot, sizeof(foot)));
	/* Swap-out above, swap-in below, on the same scales. */
	for (op = 0; op < 2; op++) {
		struct chart_panel *p = &pn[op];

		snprintf(ylab[op], sizeof(ylab[op]), "swap-%s (%s)", op ? "in" : "out",
			 units[u].name);
		*p = (struct chart_panel){
			.cr = pg.cr, .x0 = PLOT_X0, .x1 = PLOT_X1,
			.y0 = op ? IN_Y0 : OUT_Y0, .y1 = op ? IN_Y1 : OUT_Y1,
			.x = { .scale = CH_LINEAR, .min = 0, .max = max_s / tunits[tu].s,
			       .label = op ? xlab : NULL },
			/* 5 % of room above the highest rate: a curve
			 * at the top stays off the frame. */
			.y = { .scale = CH_LINEAR, .min = 0, .max = 1.05 * max_rate / units[u].kib,
			       .label = ylab[op] },
		};
		chart_axis_nice(&p->x, 8);
		chart_axis_nice(&p->y, 4);
		chart_axes(p, op ? "Swap-in: pages read back" : "Swap-out: pages written to swap");
		for (i = 0; i < n; i++)
			chart_curve(p, x, y, steps(tl[i], op, units[u].kib, tu, x, y), (int)i);
		if (!most) {
			cairo_set_source_rgb(pg.cr, 0.4, 0.4, 0.4);
			chart_text(pg.cr, (PLOT_X0 + PLOT_X1) / 2.0, (p->y0 + p->y1) / 2.0,
				   CH_CENTRE, 12, 0, 0, 0, "no swap activity");
		}
	}
	chart_legend(pg.cr, LEGEND_X, OUT_Y0 + 10, LEGEND_W, names, n, CH_SWATCH_LINE, 1);
	err = chart_page_close(&pg, diag);
out:
	free(x);
	free(y);
	return err;
}
