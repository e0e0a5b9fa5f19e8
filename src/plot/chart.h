/* SPDX-License-Identifier: MIT */
/*
 * A small chart layer on cairo (chart.c): a page written as SVG, PNG or
 * PDF; panels with linear, log or categorical axes, their ticks, grid and
 * labels; curves, bars and legends in a fixed palette.  Coordinates are
 * page units (pixels in a PNG, px in an SVG, points in a PDF), y down.
 */
#ifndef SR_PLOT_CHART_H
#define SR_PLOT_CHART_H

#include <stddef.h>
#include <stdio.h>

#include <cairo.h>

#include "swapreplay/plot.h"

/* The palette: Okabe and Ito's colours for colour-blind readers (less
 * their yellow and black), then three of Tableau's; never a grey, which
 * is kept for axes and grids.  Series beyond it reuse its colours, their
 * curves dashed.  tests/cli/plot.sh counts these colours in the images. */
#define CHART_PALETTE 10

/* A page: one image, written to f when closed. */
struct chart_page {
	enum sr_plot_fmt fmt;
	double w, h;
	FILE *f;
	cairo_surface_t *surf;
	cairo_t *cr;
	int write_failed;        /* the stream refused bytes */
};

/* A white page of w x h on a surface of fmt writing to f. */
enum sr_err chart_page_open(struct chart_page *p, FILE *f, enum sr_plot_fmt fmt,
			    double w, double h, struct sr_diag *diag);
/* Finish the image and write it (a PNG is encoded here); frees the
 * surface.  SR_ERR_IO if the stream failed, SR_ERR_LIMIT if cairo did. */
enum sr_err chart_page_close(struct chart_page *p, struct sr_diag *diag);
/* Free without a word more (after an error); accepts a page never opened. */
void chart_page_abort(struct chart_page *p);

/* The page's title, its subtitle (grey, may be NULL) and its footer (the
 * caveat every chart carries). */
void chart_page_head(struct chart_page *p, const char *title, const char *subtitle,
		     const char *footer);

enum chart_anchor { CH_LEFT, CH_CENTRE, CH_RIGHT };

/* Text at (x, y): x by anchor, y its baseline; turned by angle radians
 * about (x, y) (-pi/2: reading upwards).  Cut with an ellipsis to at
 * most max_w wide (0: no limit), between characters.  s may be any bytes:
 * what cairo draws is valid UTF-8, a byte that is no UTF-8 shown as the
 * text \xHH. */
void chart_text(cairo_t *cr, double x, double y, enum chart_anchor anchor, double size,
		int bold, double angle, double max_w, const char *s);
/* The same, cut at its start instead with head (a path keeps its end). */
void chart_text_cut(cairo_t *cr, double x, double y, enum chart_anchor anchor, double size,
		    int bold, double angle, double max_w, int head, const char *s);

enum chart_scale { CH_LINEAR, CH_LOG10, CH_CATEGORY };

struct chart_axis {
	enum chart_scale scale;
	double min, max;         /* CH_CATEGORY: 0 and the number of categories */
	double step;             /* CH_LINEAR: between ticks (chart_axis_nice) */
	const char *label;       /* the axis's name and unit */
	/* A tick's label (NULL: the value with the step's decimals). */
	void (*tick)(double v, double step, char *buf, size_t n);
	const char *const *cats; /* CH_CATEGORY: the categories' names */
};

/* The largest value a linear axis reaches: beyond, a value is drawn at
 * the axis's end (clipped), so that every span, pad and rounded end stays
 * a finite double (DBL_MAX is 1.8e308).  A chart with such a value says
 * so (chart_clipped()). */
#define CHART_VALUE_MAX 1e300

/* v within +-CHART_VALUE_MAX (a NaN: 0). */
double chart_clip(double v);
/* Whether v is beyond what an axis reaches (it is drawn clipped). */
int chart_clipped(double v);

/* Round a linear axis out to about `ticks` ticks of 1, 2 or 5 x 10^k
 * (an empty range is widened around its value; its ends are first
 * clipped to +-CHART_VALUE_MAX); a log axis to whole decades (at least
 * one). */
void chart_axis_nice(struct chart_axis *a, int ticks);

/* A panel: its plot area on the page and its two axes. */
struct chart_panel {
	cairo_t *cr;
	double x0, y0, x1, y1;   /* the plot area, x0 < x1, y0 (top) < y1 */
	struct chart_axis x, y;
};

/* Page position of an x or a y value (log axes clamp at their minimum;
 * a value beyond +-CHART_VALUE_MAX is taken as the bound). */
double chart_px(const struct chart_panel *pn, double v);
double chart_py(const struct chart_panel *pn, double v);

/* The panel's grid, frame, ticks, tick labels, axis labels and title
 * (above it, may be NULL).  Before its data, so that data covers the grid. */
void chart_axes(const struct chart_panel *pn, const char *title);

/* A curve through n points (x[i], y[i]) in series k's colour (dashed
 * beyond the palette), clipped to the plot area. */
void chart_curve(const struct chart_panel *pn, const double *x, const double *y, size_t n,
		 int k);
/* A bar of series k from page x a to b and from value y0 to y1. */
void chart_bar(const struct chart_panel *pn, double a, double b, double y0, double y1, int k);
/* A horizontal line at value y across the plot area (the zero of deltas). */
void chart_hline(const struct chart_panel *pn, double y);

enum chart_swatch { CH_SWATCH_LINE, CH_SWATCH_BOX };

/* A legend of n series, names[i] in series i's colour, from (x, y) down,
 * each line max_w wide at most (names are cut to fit: at their start
 * with head, so that paths keep their file names).  What follows a
 * newline in a name is a note, on a line of its own below it in grey. */
void chart_legend(cairo_t *cr, double x, double y, double max_w, const char *const *names,
		  size_t n, enum chart_swatch swatch, int head);

/* Series k's colour as the source. */
void chart_colour(cairo_t *cr, int k);

/* Tick labels: nanoseconds as "100 ns", "1 µs", "10 ms", "1 s"; a
 * percentage as "25 %" with the step's decimals (from 10^9 on, as
 * "1e+12 %": never a label of 300 digits). */
void chart_tick_ns(double v, double step, char *buf, size_t n);
void chart_tick_pct(double v, double step, char *buf, size_t n);

/* The footer every chart carries, "swapreplay VERSION predictions, not
 * measurements", with more after a semicolon (NULL: none). */
const char *chart_footer(char *buf, size_t n, const char *more);
/* The footer of a chart of a trace itself: "swapreplay VERSION: the
 * trace's own events, as recorded (no replay)". */
const char *chart_footer_trace(char *buf, size_t n);

/* cairo's status as a diagnostic: SR_OK, or SR_ERR_NOMEM or SR_ERR_LIMIT. */
enum sr_err chart_status(cairo_t *cr, struct sr_diag *diag);

#endif /* SR_PLOT_CHART_H */
