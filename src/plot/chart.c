/* SPDX-License-Identifier: MIT */
/*
 * The chart layer (chart.h) on cairo, which draws the same calls on an
 * SVG, a PDF or an image surface: a page, panels with their axes, curves,
 * bars and legends.  Text goes through cairo's own text calls with the
 * system's sans-serif font (fontconfig's choice: DejaVu Sans on Debian).
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "common/diag.h"
#include "common/quote.h"
#include "plot/chart.h"
#include "swapreplay/version.h"

/* Greys of the page's furniture; the palette has none. */
#define INK 0.15      /* text */
#define FRAME 0.35    /* the plot area's frame and ticks */
#define GRID 0.88     /* grid lines */
#define NOTE 0.40     /* subtitle and footer */

static const unsigned palette[CHART_PALETTE] = {
	0x0072B2, /* blue */
	0xD55E00, /* vermillion */
	0x009E73, /* bluish green */
	0xCC79A7, /* reddish purple */
	0xE69F00, /* orange */
	0x56B4E9, /* sky blue */
	0x9467BD, /* purple */
	0x8C564B, /* brown */
	0xBCBD22, /* olive */
	0x17BECF, /* cyan */
};

void chart_colour(cairo_t *cr, int k)
{
	unsigned c = palette[(unsigned)k % CHART_PALETTE];

	cairo_set_source_rgb(cr, (c >> 16) / 255.0, ((c >> 8) & 0xff) / 255.0,
			     (c & 0xff) / 255.0);
}

enum sr_err chart_status(cairo_t *cr, struct sr_diag *diag)
{
	cairo_status_t st = cairo_status(cr);

	if (st == CAIRO_STATUS_SUCCESS)
		return SR_OK;
	if (st == CAIRO_STATUS_NO_MEMORY)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	return sr_diag_set(diag, SR_ERR_LIMIT, "cairo cannot draw the chart: %s",
			   cairo_status_to_string(st));
}

/* ---- the page ---------------------------------------------------------- */

/* cairo's output goes to the caller's stream. */
static cairo_status_t page_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct chart_page *p = closure;

	if (fwrite(data, 1, len, p->f) != len) {
		p->write_failed = 1;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

enum sr_err chart_page_open(struct chart_page *p, FILE *f, enum sr_plot_fmt fmt,
			    double w, double h, struct sr_diag *diag)
{
	memset(p, 0, sizeof(*p));
	p->fmt = fmt;
	p->w = w;
	p->h = h;
	p->f = f;
	switch (fmt) {
	case SR_PLOT_SVG:
		p->surf = cairo_svg_surface_create_for_stream(page_write, p, w, h);
		/* Pixels, not cairo's default points: an 800 x 500 chart is
		 * 800 x 500 in a browser and in rsvg-convert. */
		cairo_svg_surface_set_document_unit(p->surf, CAIRO_SVG_UNIT_PX);
		break;
	case SR_PLOT_PDF:
		p->surf = cairo_pdf_surface_create_for_stream(page_write, p, w, h);
		/* cairo dates a PDF by the clock unless told otherwise; a chart
		 * depends only on its inputs, so it carries none. */
		cairo_pdf_surface_set_metadata(p->surf, CAIRO_PDF_METADATA_CREATE_DATE, "");
		cairo_pdf_surface_set_metadata(p->surf, CAIRO_PDF_METADATA_CREATOR, "swapreplay");
		break;
	case SR_PLOT_PNG:
	default:
		p->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w), (int)ceil(h));
		break;
	}
	p->cr = cairo_create(p->surf);
	if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS) {
		enum sr_err err = chart_status(p->cr, diag);

		chart_page_abort(p);
		return err;
	}
	cairo_set_source_rgb(p->cr, 1, 1, 1);
	cairo_paint(p->cr);
	cairo_select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	return SR_OK;
}

enum sr_err chart_page_close(struct chart_page *p, struct sr_diag *diag)
{
	cairo_status_t st;
	enum sr_err err = chart_status(p->cr, diag);

	cairo_destroy(p->cr);
	p->cr = NULL;
	if (err) {
		chart_page_abort(p);
		return err;
	}
	if (p->fmt == SR_PLOT_PNG) {
		st = cairo_surface_write_to_png_stream(p->surf, page_write, p);
	} else {
		cairo_surface_finish(p->surf);
		st = cairo_surface_status(p->surf);
	}
	cairo_surface_destroy(p->surf);
	p->surf = NULL;
	if (p->write_failed)
		return sr_diag_set(diag, SR_ERR_IO, "write failed");
	if (st == CAIRO_STATUS_NO_MEMORY)
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	if (st != CAIRO_STATUS_SUCCESS)
		return sr_diag_set(diag, SR_ERR_LIMIT, "cairo cannot write the chart: %s",
				   cairo_status_to_string(st));
	return SR_OK;
}

void chart_page_abort(struct chart_page *p)
{
	if (p->cr)
		cairo_destroy(p->cr);
	if (p->surf)
		cairo_surface_destroy(p->surf);
	p->cr = NULL;
	p->surf = NULL;
}

void chart_page_head(struct chart_page *p, const char *title, const char *subtitle,
		     const char *footer)
{
	cairo_t *cr = p->cr;

	cairo_set_source_rgb(cr, INK, INK, INK);
	chart_text(cr, 24, 30, CH_LEFT, 16, 1, 0, p->w - 48, title);
	cairo_set_source_rgb(cr, NOTE, NOTE, NOTE);
	if (subtitle)
		chart_text(cr, 24, 50, CH_LEFT, 11, 0, 0, p->w - 48, subtitle);
	if (footer)
		chart_text(cr, 24, p->h - 12, CH_LEFT, 10, 0, 0, p->w - 48, footer);
}

/* ---- text ---------------------------------------------------------------- */

#define ELLIPSIS "\u2026"
/* The most of a label drawn, as UTF-8: far more than a page is wide. */
#define TEXT_MAX 1024


/*
 * s[0..len) into buf (n bytes) as valid UTF-8, which cairo requires of
 * every string it draws: each well-formed character as it is, each other
 * byte shown as the text \xHH (a Latin-1 file name's e-acute as \xe9).
 * Stops before a character or an escape that would not fit whole.
 * Returns 1 when all of s is in buf, 0 when its end was left out.
 */
static int utf8_clean(const char *s, size_t len, char *buf, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t at = 0, i = 0, k;

	while (i < len) {
		k = sr_utf8_seq(u + i, len - i);
		if (k ? at + k >= n : at + 4 >= n)
			break;
		if (k) {
			memcpy(buf + at, u + i, k);
			at += k;
			i += k;
		} else {
			at += (size_t)snprintf(buf + at, n - at, "\\x%02x", u[i]);
			i++;
		}
	}
	buf[at] = '\0';
	return i == len;
}

/*
 * s[0..len) into buf (at least TEXT_MAX + 8 bytes) as valid UTF-8, cut
 * to at most max_w wide (0: no limit) with an ellipsis: its end dropped,
 * or with head its start (a path keeps its file name).  Cut between
 * characters, never within one.  ext: the extents of what is left.
 */
static void fit(cairo_t *cr, const char *s, size_t len, double max_w, int head, char *buf,
		size_t n, cairo_text_extents_t *ext)
{
	char clean[TEXT_MAX];
	size_t from = 0, to, skip = 0;
	int whole;

	/* Past what clean holds (each byte may take 4 as an escape), the
	 * start is dropped with head, else the end: an ellipsis says so. */
	if (head && len > (TEXT_MAX - 1) / 4) {
		skip = len - (TEXT_MAX - 1) / 4;
		while (skip < len && ((unsigned char)s[skip] & 0xc0) == 0x80 &&
		       skip < len - (TEXT_MAX - 1) / 4 + 3)
			skip++;
	}
	whole = utf8_clean(s + skip, len - skip, clean, sizeof(clean));
	to = strlen(clean);
	snprintf(buf, n, "%s%s%s", skip ? ELLIPSIS : "", clean, whole ? "" : ELLIPSIS);
	cairo_text_extents(cr, buf, ext);
	while (max_w > 0 && ext->x_advance > max_w && from < to) {
		if (head) {
			do
				from++;
			while (from < to && ((unsigned char)clean[from] & 0xc0) == 0x80);
			snprintf(buf, n, ELLIPSIS "%s%s", clean + from, whole ? "" : ELLIPSIS);
		} else {
			do
				to--;
			while (to > from && ((unsigned char)clean[to] & 0xc0) == 0x80);
			snprintf(buf, n, "%s%.*s" ELLIPSIS, skip ? ELLIPSIS : "", (int)to, clean);
		}
		cairo_text_extents(cr, buf, ext);
	}
}

/* chart_text_cut() of s[0..len). */
static void text_n(cairo_t *cr, double x, double y, enum chart_anchor anchor, double size,
		   int bold, double angle, double max_w, int head, const char *s, size_t len)
{
	cairo_text_extents_t ext;
	char buf[TEXT_MAX + 8];

	cairo_save(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	fit(cr, s, len, max_w, head, buf, sizeof(buf), &ext);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	cairo_move_to(cr, anchor == CH_LEFT ? 0 : anchor == CH_CENTRE ? -ext.x_advance / 2
									: -ext.x_advance, 0);
	cairo_show_text(cr, buf);
	cairo_restore(cr);
}

void chart_text(cairo_t *cr, double x, double y, enum chart_anchor anchor, double size,
		int bold, double angle, double max_w, const char *s)
{
	text_n(cr, x, y, anchor, size, bold, angle, max_w, 0, s, strlen(s));
}

void chart_text_cut(cairo_t *cr, double x, double y, enum chart_anchor anchor, double size,
		    int bold, double angle, double max_w, int head, const char *s)
{
	text_n(cr, x, y, anchor, size, bold, angle, max_w, head, s, strlen(s));
}

/* ---- axes ---------------------------------------------------------------- */

/* 1, 2 or 5 x 10^k: the step that cuts range into about ticks parts. */
static double nice_step(double range, int ticks)
{
	double raw = range / (ticks > 1 ? ticks : 1), mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

double chart_clip(double v)
{
	if (v != v)
		return 0;
	return v > CHART_VALUE_MAX ? CHART_VALUE_MAX : v < -CHART_VALUE_MAX ? -CHART_VALUE_MAX : v;
}

int chart_clipped(double v)
{
	return !(fabs(v) <= CHART_VALUE_MAX);
}

void chart_axis_nice(struct chart_axis *a, int ticks)
{
	if (a->scale == CH_LOG10) {
		double lo, hi;

		if (!(a->max > 0))
			a->max = 1;
		if (!(a->min > 0) || a->min > a->max)
			a->min = a->max / 10;
		lo = floor(log10(a->min) + 1e-9);
		hi = ceil(log10(a->max) - 1e-9);
		if (hi <= lo)
			hi = lo + 1;
		a->min = pow(10, lo);
		a->max = pow(10, hi);
		return;
	}
	if (a->scale != CH_LINEAR)
		return;
	/* Within +-CHART_VALUE_MAX, the span, its step and the ends rounded
	 * out to it are finite. */
	a->min = chart_clip(a->min);
	a->max = chart_clip(a->max);
	if (!(a->max > a->min)) {
		/* One value: a range around it (0: 0 to 1). */
		double v = a->min, d = v == 0 ? 1 : fabs(v) / 10;

		a->min = v == 0 ? 0 : v - d;
		a->max = v + d;
	}
	a->step = nice_step(a->max - a->min, ticks);
	a->min = floor(a->min / a->step + 1e-9) * a->step;
	a->max = ceil(a->max / a->step - 1e-9) * a->step;
}

/* Where v falls between the axis's ends, 0 to 1. */
static double axis_frac(const struct chart_axis *a, double v)
{
	if (a->scale == CH_LOG10) {
		if (!(v > a->min))
			return 0;
		return (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	}
	v = chart_clip(v);
	return a->max > a->min ? (v - a->min) / (a->max - a->min) : 0;
}

double chart_px(const struct chart_panel *pn, double v)
{
	return pn->x0 + axis_frac(&pn->x, v) * (pn->x1 - pn->x0);
}

double chart_py(const struct chart_panel *pn, double v)
{
	return pn->y1 - axis_frac(&pn->y, v) * (pn->y1 - pn->y0);
}

/* A 1-unit line on the pixel grid: crisp in a PNG. */
static double crisp(double v)
{
	return floor(v) + 0.5;
}

static int decimals(double step);

/* The largest tick value written out in full, with its decimals; from
 * there on, as %g (1e+12). */
#define TICK_FULL 1e9

static void tick_label(const struct chart_axis *a, double v, char *buf, size_t n)
{
	if (a->tick) {
		a->tick(v, a->step, buf, n);
		return;
	}
	if (a->scale == CH_LOG10 || fabs(v) >= TICK_FULL) {
		snprintf(buf, n, "%g", v);
		return;
	}
	snprintf(buf, n, "%.*f", decimals(a->step), v);
}

/* The values of an axis's major ticks into v (at most max); how many. */
static int major_ticks(const struct chart_axis *a, double *v, int max)
{
	int n = 0, i, k;

	if (a->scale == CH_LOG10) {
		int lo = (int)lround(log10(a->min)), hi = (int)lround(log10(a->max));

		for (k = lo; k <= hi && n < max; k++)
			v[n++] = pow(10, k);
		return n;
	}
	if (a->scale != CH_LINEAR || !(a->step > 0))
		return 0;
	k = (int)lround((a->max - a->min) / a->step);
	for (i = 0; i <= k && n < max; i++) {
		double t = a->min + i * a->step;

		v[n++] = fabs(t) < a->step * 1e-9 ? 0 : t; /* never "-0" */
	}
	return n;
}

#define MAX_TICKS 64

void chart_axes(const struct chart_panel *pn, const char *title)
{
	cairo_t *cr = pn->cr;
	double t[MAX_TICKS], x, y;
	char buf[64];
	int n, i, k;

	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	/* The grid: at the y ticks, and at the x ticks of a numeric axis. */
	cairo_set_source_rgb(cr, GRID, GRID, GRID);
	n = major_ticks(&pn->y, t, MAX_TICKS);
	for (i = 0; i < n; i++) {
		y = crisp(chart_py(pn, t[i]));
		cairo_move_to(cr, pn->x0, y);
		cairo_line_to(cr, pn->x1, y);
	}
	n = major_ticks(&pn->x, t, MAX_TICKS);
	for (i = 0; i < n; i++) {
		x = crisp(chart_px(pn, t[i]));
		cairo_move_to(cr, x, pn->y0);
		cairo_line_to(cr, x, pn->y1);
	}
	cairo_stroke(cr);

	/* The frame and the ticks, outwards. */
	cairo_set_source_rgb(cr, FRAME, FRAME, FRAME);
	cairo_rectangle(cr, crisp(pn->x0), crisp(pn->y0), floor(pn->x1) - floor(pn->x0),
			floor(pn->y1) - floor(pn->y0));
	for (i = 0; i < n; i++) {
		x = crisp(chart_px(pn, t[i]));
		cairo_move_to(cr, x, pn->y1);
		cairo_line_to(cr, x, pn->y1 + 5);
	}
	if (pn->x.scale == CH_LOG10) /* 2 to 9 of each decade, shorter */
		for (i = 0; i + 1 < n; i++)
			for (k = 2; k < 10; k++) {
				x = crisp(chart_px(pn, t[i] * k));
				cairo_move_to(cr, x, pn->y1);
				cairo_line_to(cr, x, pn->y1 + 3);
			}
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, INK, INK, INK);
	for (i = 0; i < n; i++) {
		tick_label(&pn->x, t[i], buf, sizeof(buf));
		chart_text(cr, chart_px(pn, t[i]), pn->y1 + 18, CH_CENTRE, 11, 0, 0, 0, buf);
	}
	if (pn->x.scale == CH_CATEGORY) {
		double w = (pn->x1 - pn->x0) / (pn->x.max > 0 ? pn->x.max : 1);

		for (i = 0; i < (int)pn->x.max; i++)
			chart_text(cr, pn->x0 + (i + 0.5) * w, pn->y1 + 18, CH_CENTRE, 11, 0, 0,
				   w - 6, pn->x.cats[i]);
	}

	n = major_ticks(&pn->y, t, MAX_TICKS);
	cairo_set_source_rgb(cr, FRAME, FRAME, FRAME);
	for (i = 0; i < n; i++) {
		y = crisp(chart_py(pn, t[i]));
		cairo_move_to(cr, pn->x0, y);
		cairo_line_to(cr, pn->x0 - 5, y);
	}
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, INK, INK, INK);
	for (i = 0; i < n; i++) {
		tick_label(&pn->y, t[i], buf, sizeof(buf));
		chart_text(cr, pn->x0 - 8, chart_py(pn, t[i]) + 4, CH_RIGHT, 11, 0, 0, 0, buf);
	}

	/* The axes' names, and the panel's title above it. */
	if (pn->x.label)
		chart_text(cr, (pn->x0 + pn->x1) / 2, pn->y1 + 38, CH_CENTRE, 12, 0, 0,
			   pn->x1 - pn->x0, pn->x.label);
	if (pn->y.label)
		chart_text(cr, pn->x0 - 58, (pn->y0 + pn->y1) / 2, CH_CENTRE, 12, 0, -M_PI / 2,
			   pn->y1 - pn->y0, pn->y.label);
	if (title)
		chart_text(cr, pn->x0, pn->y0 - 10, CH_LEFT, 13, 1, 0, pn->x1 - pn->x0, title);
	cairo_restore(cr);
}

/* ---- tick labels ----------------------------------------------------- */

/* v with the decimals a tick step of `step` needs. */
static int decimals(double step)
{
	return step >= 1 || !(step > 0) ? 0 : (int)ceil(-log10(step) - 1e-9);
}

void chart_tick_ns(double v, double step, char *buf, size_t n)
{
	static const struct { double ns; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\u00b5s" }, { 1, "ns" },
	};
	size_t i;

	(void)step;
	for (i = 0; i + 1 < sizeof(u) / sizeof(u[0]) && v < u[i].ns * 0.999; i++)
		;
	snprintf(buf, n, "%g %s", v / u[i].ns, u[i].unit);
}

void chart_tick_pct(double v, double step, char *buf, size_t n)
{
	if (fabs(v) >= TICK_FULL)
		snprintf(buf, n, "%g %%", v);
	else
		snprintf(buf, n, "%.*f %%", decimals(step), v);
}

const char *chart_footer(char *buf, size_t n, const char *more)
{
	snprintf(buf, n, "swapreplay %s predictions, not measurements%s%s", SR_VERSION_STRING,
		 more ? "; " : "", more ? more : "");
	return buf;
}

const char *chart_footer_trace(char *buf, size_t n)
{
	snprintf(buf, n, "swapreplay %s: the trace's own events, as recorded (no replay)",
		 SR_VERSION_STRING);
	return buf;
}

/* ---- data ---------------------------------------------------------------- */

static void clip_to(const struct chart_panel *pn)
{
	cairo_rectangle(pn->cr, pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0);
	cairo_clip(pn->cr);
}

void chart_curve(const struct chart_panel *pn, const double *x, const double *y, size_t n,
		 int k)
{
	static const double dash[] = { 6, 3 };
	cairo_t *cr = pn->cr;
	size_t i;

	if (!n)
		return;
	cairo_save(cr);
	clip_to(pn);
	chart_colour(cr, k);
	cairo_set_line_width(cr, 2);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	if (k >= CHART_PALETTE)
		cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, chart_px(pn, x[0]), chart_py(pn, y[0]));
	for (i = 1; i < n; i++)
		cairo_line_to(cr, chart_px(pn, x[i]), chart_py(pn, y[i]));
	if (n == 1) /* one point: a short mark, not nothing */
		cairo_rel_line_to(cr, 1, 0);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void chart_bar(const struct chart_panel *pn, double a, double b, double y0, double y1, int k)
{
	double top = chart_py(pn, y0 > y1 ? y0 : y1), bot = chart_py(pn, y0 > y1 ? y1 : y0);
	cairo_t *cr = pn->cr;

	cairo_save(cr);
	clip_to(pn);
	chart_colour(cr, k);
	cairo_rectangle(cr, a, top, b - a, bot - top);
	cairo_fill(cr);
	cairo_restore(cr);
}

void chart_hline(const struct chart_panel *pn, double y)
{
	cairo_t *cr = pn->cr;
	double py = crisp(chart_py(pn, y));

	cairo_save(cr);
	cairo_set_source_rgb(cr, FRAME, FRAME, FRAME);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, pn->x0, py);
	cairo_line_to(cr, pn->x1, py);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void chart_legend(cairo_t *cr, double x, double y, double max_w, const char *const *names,
		  size_t n, enum chart_swatch swatch, int head)
{
	double yy = y;
	size_t i;

	for (i = 0; i < n; i++, yy += 18) {
		const char *nl = strchr(names[i], '\n');

		chart_colour(cr, (int)i);
		if (swatch == CH_SWATCH_BOX)
			cairo_rectangle(cr, x, yy - 10, 12, 12);
		else
			cairo_rectangle(cr, x, yy - 5, 18, 3);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, INK, INK, INK);
		text_n(cr, x + 24, yy, CH_LEFT, 11, 0, 0, max_w - 24, head, names[i],
		       nl ? (size_t)(nl - names[i]) : strlen(names[i]));
		if (nl) { /* its note, below it in grey */
			yy += 14;
			cairo_set_source_rgb(cr, NOTE, NOTE, NOTE);
			chart_text_cut(cr, x + 24, yy, CH_LEFT, 10, 0, 0, max_w - 24, head, nl + 1);
		}
	}
}

void sr_plot_release(void)
{
	cairo_debug_reset_static_data();
	/* cairo draws text with fonts fontconfig finds; its configuration
	 * and the patterns cairo asked it for stay until it is told. */
	FcFini();
}

/* ---- the format a file name asks for ------------------------------------ */

enum sr_err sr_plot_fmt_from_name(const char *path, enum sr_plot_fmt *fmt,
				  struct sr_diag *diag)
{
	static const struct { const char *ext; enum sr_plot_fmt fmt; } ext[] = {
		{ ".svg", SR_PLOT_SVG }, { ".png", SR_PLOT_PNG }, { ".pdf", SR_PLOT_PDF },
	};
	size_t i, n = strlen(path);

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (n > 4 && !strcasecmp(path + n - 4, ext[i].ext)) {
			*fmt = ext[i].fmt;
			return SR_OK;
		}
	return sr_diag_set(diag, SR_ERR_INVAL, "'%s': a plot is an .svg, .png or .pdf file, "
			   "told by its name", path);
}
