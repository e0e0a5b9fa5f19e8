/* SPDX-License-Identifier: MIT */
/*
 * A replay's chart (sr_plot_replay, `swapreplay replay --plot=FILE`):
 * each policy's swap-in latency as a cumulative distribution on a log
 * time axis, and each device's utilisation, a bar per policy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "plot/chart.h"

#define PAGE_W 800
#define PAGE_H 820
/* The plot areas (page units); the legends go right of them. */
#define PLOT_X0 90
#define PLOT_X1 580
#define CDF_Y0 90
#define CDF_Y1 420
#define UTIL_Y0 500
#define UTIL_Y1 740
#define LEGEND_X 598
#define LEGEND_W (PAGE_W - LEGEND_X - 10)

#define HIST_N (SR_HIST_EXP * SR_HIST_SUB)

/*
 * The points of h's distribution into x (ns) and y (% of swap-ins at or
 * under x): within each bucket a straight line from its lower bound to
 * its upper one (the values spread evenly over it), kept within the
 * exact minimum and maximum.  x and y hold 2 * HIST_N + 1; returns how
 * many points.
 */
static size_t cdf_points(const struct sr_hist *h, double *x, double *y)
{
	uint64_t cum = 0;
	size_t n = 0;
	int i;

	x[n] = h->min_ns;
	y[n++] = 0;
	for (i = 0; i < HIST_N; i++) {
		double lo, hi;

		if (!h->b[i])
			continue;
		sr_hist_bucket_bounds(i, &lo, &hi);
		lo = lo < h->min_ns ? h->min_ns : lo > h->max_ns ? h->max_ns : lo;
		hi = hi < h->min_ns ? h->min_ns : hi > h->max_ns ? h->max_ns : hi;
		x[n] = lo;
		y[n++] = 100.0 * (double)cum / (double)h->count;
		cum += h->b[i];
		x[n] = hi;
		y[n++] = 100.0 * (double)cum / (double)h->count;
	}
	return n;
}

static void draw_cdf(cairo_t *cr, const struct sr_result *res, const char **names,
		     double *x, double *y)
{
	struct chart_panel pn = {
		.cr = cr, .x0 = PLOT_X0, .x1 = PLOT_X1, .y0 = CDF_Y0, .y1 = CDF_Y1,
		.x = { .scale = CH_LOG10, .label = "swap-in latency (simulated; log scale)",
		       .tick = chart_tick_ns },
		.y = { .scale = CH_LINEAR, .min = 0, .max = 100,
		       .label = "cumulative share of swap-ins (%)", .tick = chart_tick_pct },
	};
	int k, any = 0;

	/* The time axis: whole decades around every policy's swap-ins. */
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_hist *h = &res->policy[k].swapin_lat;

		if (!h->count)
			continue;
		if (!any || h->min_ns < pn.x.min)
			pn.x.min = h->min_ns;
		if (!any || h->max_ns > pn.x.max)
			pn.x.max = h->max_ns;
		any = 1;
	}
	if (!any) { /* 1 us to 10 us, empty */
		pn.x.min = 1000;
		pn.x.max = 10000;
	}
	chart_axis_nice(&pn.x, 0);
	chart_axis_nice(&pn.y, 5);
	chart_axes(&pn, "Swap-in latency: its distribution over the swap-ins");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_hist *h = &res->policy[k].swapin_lat;

		if (h->count)
			chart_curve(&pn, x, y, cdf_points(h, x, y), k);
	}
	if (!any) {
		cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
		chart_text(cr, (PLOT_X0 + PLOT_X1) / 2.0, (CDF_Y0 + CDF_Y1) / 2.0, CH_CENTRE, 12,
			   0, 0, 0, "no swap-ins in this trace");
	}
	chart_legend(cr, LEGEND_X, CDF_Y0 + 10, LEGEND_W, names, (size_t)res->nr_policies,
		     CH_SWATCH_LINE, 0);
}

/* Utilisation: a category per device (the devices of the first policy:
 * every policy has the machine's devices, in its order). */
static enum sr_err draw_util(cairo_t *cr, const struct sr_result *res, const char **names,
			     struct sr_diag *diag)
{
	const struct sr_policy_result *p0 = &res->policy[0];
	struct chart_panel pn = {
		.cr = cr, .x0 = PLOT_X0, .x1 = PLOT_X1, .y0 = UTIL_Y0, .y1 = UTIL_Y1,
		.x = { .scale = CH_CATEGORY, .min = 0, .max = p0->nr_devices, .label = "device" },
		.y = { .scale = CH_LINEAR, .min = 0, .max = 1,
		       .label = "busy (% of the run)", .tick = chart_tick_pct },
	};
	const char **cats = calloc((size_t)(p0->nr_devices ? p0->nr_devices : 1), sizeof(*cats));
	double cw, group;
	int j, k;

	if (!cats)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	for (j = 0; j < p0->nr_devices; j++)
		cats[j] = p0->dev[j].name;
	pn.x.cats = cats;
	for (k = 0; k < res->nr_policies; k++)
		for (j = 0; j < res->policy[k].nr_devices; j++)
			if (100 * res->policy[k].dev[j].util > pn.y.max)
				pn.y.max = 100 * res->policy[k].dev[j].util;
	chart_axis_nice(&pn.y, 5);
	chart_axes(&pn, "Device utilisation: the time each device was busy");
	/* In each device's column, a bar per policy side by side across
	 * 80 % of it. */
	cw = (PLOT_X1 - PLOT_X0) / (double)(p0->nr_devices ? p0->nr_devices : 1);
	group = 0.8 * cw / res->nr_policies;
	for (j = 0; j < p0->nr_devices; j++)
		for (k = 0; k < res->nr_policies; k++) {
			double a = PLOT_X0 + j * cw + 0.1 * cw + k * group;

			if (j < res->policy[k].nr_devices)
				chart_bar(&pn, a, a + group, 0, 100 * res->policy[k].dev[j].util, k);
		}
	chart_legend(cr, LEGEND_X, UTIL_Y0 + 10, LEGEND_W, names, (size_t)res->nr_policies,
		     CH_SWATCH_BOX, 0);
	free(cats);
	return SR_OK;
}

enum sr_err sr_plot_replay(FILE *f, enum sr_plot_fmt fmt, const struct sr_result *res,
			   const struct sr_plot_replay_info *info, struct sr_diag *diag)
{
	struct chart_page pg;
	char sub[600], foot[200], (*label)[256] = NULL, (*plain)[128] = NULL;
	const char **names = NULL, **bar_names = NULL;
	double *x = NULL, *y = NULL;
	enum sr_err err;
	int k;

	if (res->nr_policies < 1)
		return sr_diag_set(diag, SR_ERR_INVAL, "no policy to plot");
	names = calloc((size_t)res->nr_policies, sizeof(*names));
	label = calloc((size_t)res->nr_policies, sizeof(*label));
	bar_names = calloc((size_t)res->nr_policies, sizeof(*bar_names));
	plain = calloc((size_t)res->nr_policies, sizeof(*plain));
	x = malloc((2 * HIST_N + 1) * sizeof(*x));
	y = malloc((2 * HIST_N + 1) * sizeof(*y));
	if (!names || !label || !bar_names || !plain || !x || !y) {
		err = sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
		goto out;
	}
	/* The legend names each policy, the baseline, one without swap-ins
	 * (no curve) and one whose curve is an earlier one's (drawn over it)
	 * said so; the bars' legend, the policies and the baseline. */
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_hist *h = &res->policy[k].swapin_lat;
		int same;

		for (same = 0; same < k; same++)
			if (!memcmp(h, &res->policy[same].swapin_lat, sizeof(*h)))
				break;
		/* A long name (a tiers assignment) is cut at 100 bytes. */
		snprintf(label[k], sizeof(label[k]), "%.100s%s%s%s%.100s", res->policy[k].name,
			 k == res->baseline ? " (baseline)" : "",
			 h->count ? "" : " (no swap-ins)",
			 h->count && same < k ? "\nsame curve as " : "",
			 h->count && same < k ? res->policy[same].name : "");
		names[k] = label[k];
		snprintf(plain[k], sizeof(plain[k]), "%.100s%s", res->policy[k].name,
			 k == res->baseline ? " (baseline)" : "");
		bar_names[k] = plain[k];
	}
	err = chart_page_open(&pg, f, fmt, PAGE_W, PAGE_H, diag);
	if (err)
		goto out;
	snprintf(sub, sizeof(sub), "%s on %s: %llu events, %d polic%s", info->trace,
		 info->machine, (unsigned long long)res->events, res->nr_policies,
		 res->nr_policies == 1 ? "y" : "ies");
	chart_page_head(&pg, "Swap-in latency and device utilisation by policy", sub,
			chart_footer(foot, sizeof(foot), NULL));
	draw_cdf(pg.cr, res, names, x, y);
	err = draw_util(pg.cr, res, bar_names, diag);
	if (err) {
		chart_page_abort(&pg);
		goto out;
	}
	err = chart_page_close(&pg, diag);
out:
	free(names);
	free(label);
	free(bar_names);
	free(plain);
	free(x);
	free(y);
	return err;
}
