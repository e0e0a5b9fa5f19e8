/* SPDX-License-Identifier: MIT */
/*
 * Two replay reports compared (include/swapreplay/compare.h): each read
 * back by the report's own reader (src/report/report_read.c, by the
 * table of figures its writer writes from), its policies matched by name
 * to the other's and, within a policy, its devices by name; then the
 * figures compared (those of the tables below, each naming the report's
 * figure it is) written as text (aligned columns within 76 characters,
 * plain text for a mailing list), JSON or CSV.  docs/REPORT.md,
 * "Comparing two reports", describes the three.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "report/report_read.h"
#include "swapreplay/compare.h"
#include "swapreplay/kernel.h"
#include "swapreplay/result.h"
#include "swapreplay/report.h"
#include "swapreplay/version.h"

#define COMPARE_SCHEMA "swapreplay-compare/1"
#define WIDTH 76

enum sr_err sr_compare_fmt_parse(const char *s, enum sr_compare_fmt *out)
{
	if (!strcmp(s, "text"))
		*out = SR_COMPARE_TEXT;
	else if (!strcmp(s, "json"))
		*out = SR_COMPARE_JSON;
	else if (!strcmp(s, "csv"))
		*out = SR_COMPARE_CSV;
	else
		return SR_ERR_INVAL;
	return SR_OK;
}

/* ---- the figures compared ------------------------------------------------ */

/* How a figure's change is given: after / before - 1 in per cent, or (a
 * delta, itself a per cent) after - before in points; or not at all (a
 * count: how many variants of the machine, how many agree). */
enum chg { REL, PT, NOCHG };

struct figdef {
	int fig;          /* the report's figure: enum sr_pfig (sr_dfig) */
	const struct sr_report_fig *rf; /* its object, key (the comparison JSON's
				   * name of it too) and decimals in the report */
	const char *csv;  /* the comparison CSV's name of it */
	int group;        /* its text section, -1: none (the header says it) */
	const char *row;  /* text: what follows the policy's name, or NULL */
	double mul, div;  /* text: from the report's unit to the section's, x mul / div */
	int dec;          /* text: the decimals of a value */
	int sign;         /* text: a value with its sign (a delta) */
	enum chg chg;
	int of;           /* text: the figure this one is a count out of ("3/4"),
			   * -1: none */
};

/* The figures of a policy compared (of the report's, sr_report_pfig[]),
 * in the order the comparison gives them. */
enum { F_TPUT, F_TOUT, F_TIN, F_MAKESPAN, F_DELTA, F_NOISE, F_U_VARIANTS, F_U_RANGE, F_U_MIN,
       F_U_MAX, F_U_AGREE, F_MEAN, F_P50, F_P90, F_P99, F_MAX, NF };

/* A figure of the report's tables (src/report/figures.c): its index and
 * its row. */
#define PF(x) SR_PF_##x, &sr_report_pfig[SR_PF_##x]
#define DF(x) SR_DF_##x, &sr_report_dfig[SR_DF_##x]

/* The report's "uncertainty" (--uncertainty=N) is over N variants of the
 * machine, each figure within a factor 1 + range_pct / 100: the delta's
 * least and most, and how many variants agree on its side. */
static const struct figdef pfig[NF] = {
	{ PF(THROUGHPUT), "throughput_kib_s", 0, NULL, 1, 1, 1, 0, REL, -1 },
	{ PF(TASK_SWAPOUT_SUM), "task_swapout_kib_s_sum", 1, NULL, 1, 1, 1, 0, REL, -1 },
	{ PF(TASK_SWAPIN_SUM), "task_swapin_kib_s_sum", 2, NULL, 1, 1, 1, 0, REL, -1 },
	{ PF(MAKESPAN), "makespan_ns", 3, NULL, 1, 1e6, 3, 0, REL, -1 },
	{ PF(DELTA), "delta_pct", 4, NULL, 1, 1, 2, 1, PT, -1 },
	/* --noise: the delta's timing noise (text: "+-0.52"), no change of
	 * its own: what it says is whether the delta and its change are
	 * within it (within_noise(), below). */
	{ PF(NOISE), "delta_noise_pct", 4, "noise", 1, 1, 2, 0, NOCHG, -1 },
	{ PF(U_VARIANTS), "uncertainty_variants", -1, NULL, 1, 1, 0, 0, NOCHG, -1 },
	{ PF(U_RANGE), "uncertainty_range_pct", -1, NULL, 1, 1, 0, 0, NOCHG, -1 },
	{ PF(U_DELTA_MIN), "delta_pct_min", 5, "min", 1, 1, 2, 1, PT, -1 },
	{ PF(U_DELTA_MAX), "delta_pct_max", 5, "max", 1, 1, 2, 1, PT, -1 },
	{ PF(U_AGREE), "agree", 5, "agree", 1, 1, 0, 0, NOCHG, F_U_VARIANTS },
	{ PF(LAT_MEAN), "swapin_mean_ns", 6, "mean", 1, 1e3, 1, 0, REL, -1 },
	{ PF(LAT_P50), "swapin_p50_ns", 6, "p50", 1, 1e3, 1, 0, REL, -1 },
	{ PF(LAT_P90), "swapin_p90_ns", 6, "p90", 1, 1e3, 1, 0, REL, -1 },
	{ PF(LAT_P99), "swapin_p99_ns", 6, "p99", 1, 1e3, 1, 0, REL, -1 },
	{ PF(LAT_MAX), "swapin_max_ns", 6, "max", 1, 1e3, 1, 0, REL, -1 },
};

/* A device's. */
enum { D_UTIL, D_QUEUE, ND };

static const struct figdef dfig[ND] = {
	{ DF(UTIL), "utilization", 7, NULL, 100, 1, 2, 0, REL, -1 },
	{ DF(BLK_QUEUE_SHARE), "queue_share", 8, NULL, 100, 1, 2, 0, REL, -1 },
};

/* The text sections, by group. */
static const char *const titles[] = {
	"Throughput (swap-out and swap-in), KiB/s",
	"Tasks' swap-out throughputs summed (--per-task), KiB/s",
	"Tasks' swap-in throughputs summed (--per-task), KiB/s",
	"Makespan (simulated time), ms",
	"Delta against the report's baseline, % (change in points)",
	"Delta's range over the machine's variants, % (change in points)",
	"Swap-in latency, us",
	"Device utilisation, % of the simulated time",
	"Device requests' time queued (nvme, ssd, hdd), % of their time",
};
#define NGROUPS ((int)(sizeof(titles) / sizeof(titles[0])))

/* A report: the reader's (src/report/report_read.c). */
struct sr_compare_report {
	struct sr_report_doc doc;
};

enum sr_err sr_compare_report_read(struct sr_compare_report **out, const char *path,
				   struct sr_diag *diag)
{
	struct sr_compare_report *r = calloc(1, sizeof(*r));
	enum sr_err err;

	*out = NULL;
	if (!r) {
		sr_diag_clear(diag);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	err = sr_report_doc_read(&r->doc, path, diag);
	if (err) {
		free(r);
		return err;
	}
	*out = r;
	return SR_OK;
}

void sr_compare_report_free(struct sr_compare_report *r)
{
	if (!r)
		return;
	sr_report_doc_clear(&r->doc);
	free(r);
}

const char *sr_compare_baseline(const struct sr_compare_report *r)
{
	return r->doc.baseline ? r->doc.baseline : "";
}

/* The trace_diff of two reports read. */
static int trace_diff(const struct sr_report_doc *a, const struct sr_report_doc *b, char *buf,
		      size_t size)
{
	size_t len = 0;
	int n = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (a->events != b->events)
		len += (size_t)snprintf(buf + len, size - len, "events %" PRIu64 " and %" PRIu64,
					a->events, b->events), n++;
	if (a->tasks != b->tasks && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%stasks %" PRIu64 " and %" PRIu64,
					len ? ", " : "", a->tasks, b->tasks), n++;
	if (a->path && b->path && strcmp(a->path, b->path) && len < size)
		snprintf(buf + len, size - len, "%strace paths %s and %s", len ? ", " : "", a->path,
			 b->path);
	return n;
}

/* ---- the two matched ------------------------------------------------------- */

/* A policy (device) and its match: [0] before, [1] after; NULL: not in
 * that report. */
struct ppair {
	const struct sr_report_doc_pol *p[2];
};

struct dpair {
	const struct sr_report_doc_dev *d[2];
};

/* The names of two lists matched: for each of before's, in its order, the
 * first of after's of its name not taken yet (or none), then after's left.
 * Into pairs of indices, NONE for none; NULL out of memory. */
#define NONE ((size_t)-1)

static size_t (*pair_up(char *const *n0, size_t len0, size_t stride0, char *const *n1,
			 size_t len1, size_t stride1, size_t *n))[2]
{
	size_t (*out)[2] = calloc(len0 + len1 + 1, sizeof(*out));
	unsigned char *used = calloc(len1 + 1, 1);
	size_t i, j, k = 0;

	if (!out || !used) {
		free(out);
		free(used);
		return NULL;
	}
	for (i = 0; i < len0; i++) {
		const char *x = *(char *const *)((const char *)n0 + i * stride0);

		out[k][0] = i;
		out[k][1] = NONE;
		for (j = 0; j < len1; j++)
			if (!used[j] && !strcmp(x, *(char *const *)((const char *)n1 + j * stride1))) {
				used[j] = 1;
				out[k][1] = j;
				break;
			}
		k++;
	}
	for (j = 0; j < len1; j++)
		if (!used[j]) {
			out[k][0] = NONE;
			out[k++][1] = j;
		}
	free(used);
	*n = k;
	return out;
}

static struct ppair *pair_policies(const struct sr_report_doc *b,
				   const struct sr_report_doc *a, size_t *n)
{
	size_t (*ix)[2] = pair_up(&b->pol->name, b->npol, sizeof(*b->pol), &a->pol->name, a->npol,
				  sizeof(*a->pol), n);
	struct ppair *pp = ix ? calloc(*n + 1, sizeof(*pp)) : NULL;
	size_t i;

	for (i = 0; pp && i < *n; i++) {
		pp[i].p[0] = ix[i][0] == NONE ? NULL : &b->pol[ix[i][0]];
		pp[i].p[1] = ix[i][1] == NONE ? NULL : &a->pol[ix[i][1]];
	}
	free(ix);
	return pp;
}

/* The devices of a pair of policies (either may be NULL). */
static struct dpair *pair_devices(const struct ppair *pp, size_t *n)
{
	const struct sr_report_doc_pol *b = pp->p[0], *a = pp->p[1];
	static char *const noname = NULL;
	size_t (*ix)[2] = pair_up(b && b->ndev ? &b->dev->name : &noname, b ? b->ndev : 0,
				  sizeof(struct sr_report_doc_dev), a && a->ndev ? &a->dev->name : &noname,
				  a ? a->ndev : 0, sizeof(struct sr_report_doc_dev), n);
	struct dpair *dp = ix ? calloc(*n + 1, sizeof(*dp)) : NULL;
	size_t i;

	for (i = 0; dp && i < *n; i++) {
		dp[i].d[0] = ix[i][0] == NONE ? NULL : &b->dev[ix[i][0]];
		dp[i].d[1] = ix[i][1] == NONE ? NULL : &a->dev[ix[i][1]];
	}
	free(ix);
	return dp;
}

/* Why a figure has no change. */
enum { CHG_OK = 0, CHG_MISSING = -1, CHG_NA = -2 };

/*
 * The change of figure fd from b to a into *c: CHG_OK; CHG_MISSING when
 * a report lacks the figure; CHG_NA when both have it but there is no
 * change to give: before is 0 as the report writes it (under half its
 * last decimal) and after is not, or the change is no finite
 * number (values near the largest a double holds).
 */
static int change(const struct sr_report_num *b, const struct sr_report_num *a, const struct figdef *fd, double *c)
{
	if (!b->has || !a->has || fd->chg == NOCHG)
		return CHG_MISSING;
	if (fd->chg == PT)
		*c = a->v - b->v;
	else if (a->v == b->v)
		*c = 0;
	else if (fabs(b->v) < sr_report_fig_res(fd->rf) / 2)
		return CHG_NA;
	else
		*c = (a->v - b->v) / fabs(b->v) * 100;
	return isfinite(*c) ? CHG_OK : CHG_NA;
}

/*
 * What the deltas' timing noise (--noise) says of policy pair pp: in
 * w[0] and w[1], whether each report's delta is within its own noise
 * (as the replay says it: the noise measured, above 0, and |delta| no
 * more than it), and in w[2] whether the delta's change from before to
 * after is within the larger of the two reports' noise, so that it is no
 * change; each 1, 0, or -1 when it cannot be said (no noise measured on
 * that side, or on either for the change; a delta missing).  Returns
 * whether either report measured the policy's noise.
 */
static int within_noise(const struct sr_report_doc_pol *b, const struct sr_report_doc_pol *a,
			int w[3])
{
	const struct sr_report_doc_pol *p[2] = { b, a };
	double most = 0;
	int side, any = 0;

	for (side = 0; side < 2; side++) {
		const struct sr_report_num *d = p[side] ? &p[side]->fig[SR_PF_DELTA] : NULL;
		const struct sr_report_num *n = p[side] ? &p[side]->fig[SR_PF_NOISE] : NULL;

		w[side] = -1;
		if (!n || !n->has)
			continue;
		any = 1;
		if (n->v > most)
			most = n->v;
		if (d->has)
			w[side] = n->v > 0 && fabs(d->v) <= n->v;
	}
	w[2] = -1;
	if (any && b && a && b->fig[SR_PF_DELTA].has && a->fig[SR_PF_DELTA].has)
		w[2] = most > 0 && fabs(a->fig[SR_PF_DELTA].v - b->fig[SR_PF_DELTA].v) <= most;
	return any;
}

/* v rounded to digits decimals, without a minus sign on a zero; a value
 * too large to have decimals (a double's 15 to 17 digits are all before
 * the point) as it is. */
static double tidy(double v, int digits)
{
	double s = pow(10, digits), r;

	if (!(fabs(v) < 1e15))
		return v;
	r = round(v * s) / s;
	return r == 0 ? 0 : r;
}

static const struct sr_report_num none;

static const struct sr_report_num *pval(const struct ppair *pp, int side, int k)
{
	return pp->p[side] ? &pp->p[side]->fig[pfig[k].fig] : &none;
}

static const struct sr_report_num *dval(const struct dpair *dp, int side, int k)
{
	return dp->d[side] ? &dp->d[side]->fig[dfig[k].fig] : &none;
}

static const char *in_of(const void *b, const void *a)
{
	return b && a ? "both" : b ? "before" : "after";
}

/* ---- JSON and CSV -------------------------------------------------------- */

/* v as the shortest decimal that reads back as v (406650, 0.3032). */
static void num(FILE *f, double v)
{
	char buf[40];
	int p;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		fprintf(f, "%.0f", v == 0 ? 0 : v);
		return;
	}
	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (p == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, f);
}

static void json_str(FILE *f, const char *s)
{
	if (s)
		sr_report_json_string(f, s);
	else
		fputs("null", f);
}

/* A change as JSON and CSV give it: 3 decimals (-2.458), or, too large
 * for decimals, the shortest decimal that reads back as it (2e+303). */
static void chg_num(FILE *f, double c)
{
	if (fabs(c) < 1e15)
		fprintf(f, "%.3f", tidy(c, 3));
	else
		num(f, c);
}

/* {"before": B, "after": A, "change_pct": C} (null for what is missing,
 * and for a change there is none of; a count has no change). */
static void json_fig(FILE *f, const struct figdef *fd, const struct sr_report_num *b, const struct sr_report_num *a)
{
	double c;

	fprintf(f, "\"%s\": {\"before\": ", fd->rf->key);
	if (b->has)
		num(f, b->v);
	else
		fputs("null", f);
	fputs(", \"after\": ", f);
	if (a->has)
		num(f, a->v);
	else
		fputs("null", f);
	if (fd->chg == NOCHG) {
		fputc('}', f);
		return;
	}
	fprintf(f, ", \"%s\": ", fd->chg == PT ? "change_pt" : "change_pct");
	if (change(b, a, fd, &c))
		fputs("null", f);
	else
		chg_num(f, c);
	fputc('}', f);
}

/* Figures a and b of the report's first policy that has a: 0 with *va
 * and *vb (-1 when b is not given), or -1 when no policy has a. */
static int first_pair(const struct sr_report_doc *r, enum sr_pfig a, enum sr_pfig b,
		      double *va, double *vb)
{
	size_t i;

	for (i = 0; i < r->npol; i++)
		if (r->pol[i].fig[a].has) {
			*va = r->pol[i].fig[a].v;
			*vb = r->pol[i].fig[b].has ? r->pol[i].fig[b].v : -1;
			return 0;
		}
	return -1;
}

/* The report's uncertainty: its variants and range (-1 when not given),
 * or -1 when the report has none (made without --uncertainty). */
static int unc_of(const struct sr_report_doc *r, double *variants, double *range_pct)
{
	return first_pair(r, SR_PF_U_VARIANTS, SR_PF_U_RANGE, variants, range_pct);
}

/* The report's noise (--noise): its replicas and jitter (-1 when not
 * given), or -1 when the report has none. */
static int noise_of(const struct sr_report_doc *r, double *replicas, double *jitter_ns)
{
	return first_pair(r, SR_PF_N_REPLICAS, SR_PF_N_JITTER, replicas, jitter_ns);
}

/* {"ka": a, "kb": b}, b null when below 0 (not given: first_pair()). */
static void json_pair(FILE *f, const char *ka, double a, const char *kb, double b)
{
	fprintf(f, "{\"%s\": ", ka);
	num(f, a);
	fprintf(f, ", \"%s\": ", kb);
	if (b < 0)
		fputs("null", f);
	else
		num(f, b);
	fputc('}', f);
}

static void json_side(FILE *f, const char *name, const struct sr_report_doc *r)
{
	double var, range, rep, jit;

	fprintf(f, "  \"%s\": {\"file\": ", name);
	json_str(f, r->file);
	fputs(", \"trace\": {\"path\": ", f);
	json_str(f, r->path);
	fprintf(f, ", \"events\": %" PRIu64 ", \"tasks\": %" PRIu64 "},\n", r->events, r->tasks);
	fputs("    \"machine\": {\"name\": ", f);
	json_str(f, r->machine);
	fputs(", \"origin\": ", f);
	json_str(f, r->origin);
	fputs("}, \"options\": {", f);
	fprintf(f, "\"slots_cache\": %s, \"kernel\": ", r->slots < 0 ? "null" : r->slots ? "true" : "false");
	json_str(f, r->kernel);
	fputs(", \"readahead\": ", f);
	json_str(f, r->readahead);
	fprintf(f, ", \"plug\": %s},\n    \"baseline\": ", r->plug < 0 ? "null" : r->plug ? "true" : "false");
	json_str(f, r->baseline);
	fputs(", \"uncertainty\": ", f);
	if (unc_of(r, &var, &range))
		fputs("null", f);
	else
		json_pair(f, "variants", var, "range_pct", range);
	/* Only when a report has it, so that the comparison of reports made
	 * before --noise is the same. */
	if (!noise_of(r, &rep, &jit)) {
		fputs(", \"noise\": ", f);
		json_pair(f, "replicas", rep, "jitter_ns", jit);
	}
	fputs(", \"warnings\": ", f);
	json_str(f, r->warnings);
	fputs("},\n", f);
}

static int write_json(FILE *f, const struct sr_report_doc *b,
		      const struct sr_report_doc *a)
{
	struct ppair *pp;
	size_t np, i, j, nd;
	char why[1024];
	int k, w[3];

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	fprintf(f, "{\n  \"schema\": \"%s\",\n", COMPARE_SCHEMA);
	fprintf(f, "  \"tool\": {\"name\": \"swapreplay\", \"version\": \"%s\"},\n", SR_VERSION_STRING);
	json_side(f, "before", b);
	json_side(f, "after", a);
	fprintf(f, "  \"same_trace\": %s,\n  \"policies\": [",
		trace_diff(b, a, why, sizeof(why)) ? "false" : "true");
	for (i = 0; i < np; i++) {
		struct dpair *dp;
		const char *open = NULL; /* the object of figures written into */

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, (pp[i].p[0] ? pp[i].p[0] : pp[i].p[1])->name);
		fprintf(f, ", \"in\": \"%s\"", in_of(pp[i].p[0], pp[i].p[1]));
		for (k = 0; k < NF; k++) {
			const struct sr_report_num *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (!vb->has && !va->has)
				continue;
			if (open && pfig[k].rf->obj && !strcmp(open, pfig[k].rf->obj)) {
				fputs(",\n       ", f);
			} else {
				if (open)
					fputc('}', f);
				open = pfig[k].rf->obj;
				if (open)
					fprintf(f, ",\n     \"%s\": {", open);
				else
					fputs(",\n     ", f);
			}
			json_fig(f, &pfig[k], vb, va);
		}
		if (open)
			fputc('}', f);
		if (within_noise(pp[i].p[0], pp[i].p[1], w)) {
			static const char *const key[3] = { "before", "after", "change" };

			fputs(",\n     \"delta_within_noise\": {", f);
			for (k = 0; k < 3; k++)
				fprintf(f, "%s\"%s\": %s", k ? ", " : "", key[k],
					w[k] < 0 ? "null" : w[k] ? "true" : "false");
			fputc('}', f);
		}
		dp = pair_devices(&pp[i], &nd);
		if (!dp) {
			free(pp);
			return -1;
		}
		fputs(",\n     \"devices\": [", f);
		for (j = 0; j < nd; j++) {
			fprintf(f, "%s\n       {\"name\": ", j ? "," : "");
			json_str(f, (dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name);
			fprintf(f, ", \"in\": \"%s\"", in_of(dp[j].d[0], dp[j].d[1]));
			for (k = 0; k < ND; k++) {
				const struct sr_report_num *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (!vb->has && !va->has)
					continue;
				fputs(", ", f);
				json_fig(f, &dfig[k], vb, va);
			}
			fputc('}', f);
		}
		fputs("]}", f);
		free(dp);
	}
	fputs("\n  ]\n}\n", f);
	free(pp);
	return 0;
}

static void csv_row(FILE *f, const char *pol, const char *in, const char *dev,
		    const struct figdef *fd, const struct sr_report_num *b, const struct sr_report_num *a)
{
	double c;

	sr_report_csv_string(f, pol);
	fprintf(f, ",%s,", in);
	if (dev)
		sr_report_csv_string(f, dev);
	fprintf(f, ",%s,", fd->csv);
	if (b->has)
		num(f, b->v);
	fputc(',', f);
	if (a->has)
		num(f, a->v);
	fputc(',', f);
	if (!change(b, a, fd, &c))
		chg_num(f, c);
	fprintf(f, ",%s\n", fd->chg == PT ? "pt" : fd->chg == REL ? "pct" : "");
}

static int write_csv(FILE *f, const struct sr_report_doc *b,
		     const struct sr_report_doc *a)
{
	struct ppair *pp;
	size_t np, i, j, nd;
	int k, w[3];

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	fputs("policy,in,device,figure,before,after,change,change_unit\n", f);
	for (i = 0; i < np; i++) {
		const char *name = (pp[i].p[0] ? pp[i].p[0] : pp[i].p[1])->name;
		struct dpair *dp;

		for (k = 0; k < NF; k++) {
			const struct sr_report_num *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (vb->has || va->has)
				csv_row(f, name, in_of(pp[i].p[0], pp[i].p[1]), NULL, &pfig[k], vb, va);
		}
		/* With --noise: whether each delta, and its change, is within
		 * the noise (true, false, empty when it cannot be said). */
		if (within_noise(pp[i].p[0], pp[i].p[1], w)) {
			sr_report_csv_string(f, name);
			fprintf(f, ",%s,,delta_within_noise", in_of(pp[i].p[0], pp[i].p[1]));
			for (k = 0; k < 3; k++)
				fprintf(f, ",%s", w[k] < 0 ? "" : w[k] ? "true" : "false");
			fputs(",\n", f);
		}
		dp = pair_devices(&pp[i], &nd);
		if (!dp) {
			free(pp);
			return -1;
		}
		for (j = 0; j < nd; j++)
			for (k = 0; k < ND; k++) {
				const struct sr_report_num *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (vb->has || va->has)
					csv_row(f, name, in_of(dp[j].d[0], dp[j].d[1]),
						(dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name, &dfig[k],
						vb, va);
			}
		free(dp);
	}
	free(pp);
	return 0;
}

/* ---- text ---------------------------------------------------------------- */

/* The label column (its two spaces of indent included) at most this wide:
 * with the three columns of 14, 14 and 13, WIDTH in all. */
#define MAX_LABEL (WIDTH - 41)
#define HEAD 13 /* "slots cache: " */

/* prefix and text, wrapped at WIDTH at text's spaces; the lines after the
 * first indented by indent. */
static void wrap_at(FILE *f, const char *prefix, const char *text, int indent)
{
	size_t col = strlen(prefix), words = 0;
	const char *s = text;

	fputs(prefix, f);
	while (*s == ' ')
		s++;
	while (*s) {
		const char *sp = strchr(s, ' ');
		size_t w = sp ? (size_t)(sp - s) : strlen(s);

		if (words && col + 1 + w > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = (size_t)indent;
			words = 0;
		} else if (words) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += w;
		words++;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

static void wrap(FILE *f, const char *prefix, const char *text)
{
	wrap_at(f, prefix, text, HEAD);
}

/* "KEY:" padded to HEAD and the value, or each side's when they differ
 * ("X before, Y after", or on two lines when that is longer than a line);
 * nothing when neither report gives it. */
static void head(FILE *f, const char *key, const char *b, const char *a)
{
	char prefix[32], *text;
	size_t n;

	if (!b && !a)
		return;
	snprintf(prefix, sizeof(prefix), "%-*s", HEAD, key);
	if (b && a && !strcmp(b, a)) {
		wrap(f, prefix, b);
		return;
	}
	n = (b ? strlen(b) : 1) + (a ? strlen(a) : 1) + 32;
	text = malloc(n);
	if (!text)
		return;
	snprintf(text, n, "%s before, %s after", b ? b : "-", a ? a : "-");
	if (HEAD + strlen(text) <= WIDTH) {
		wrap(f, prefix, text);
	} else {
		snprintf(prefix + HEAD, sizeof(prefix) - HEAD, "before: ");
		wrap_at(f, prefix, b ? b : "-", HEAD + 8);
		snprintf(prefix, sizeof(prefix), "%*safter:  ", HEAD, "");
		wrap_at(f, prefix, a ? a : "-", HEAD + 8);
	}
	free(text);
}

/* A report's trace and machine as the header gives them, into buf. */
static const char *trace_of(const struct sr_report_doc *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s (%" PRIu64 " events, %" PRIu64 " tasks)", r->path ? r->path : "-",
		 r->events, r->tasks);
	return buf;
}

static const char *machine_of(const struct sr_report_doc *r, char *buf, size_t size)
{
	if (!r->machine)
		return NULL;
	if (r->origin)
		snprintf(buf, size, "%s (%s)", r->machine, r->origin);
	else
		snprintf(buf, size, "%s", r->machine);
	return buf;
}

/* The report's uncertainty as the replay's table says it in its footer
 * (src/report/report.c), into buf; what "agree" is follows in a line of
 * its own. */
static const char *unc_text(const struct sr_report_doc *r, char *buf, size_t size)
{
	double var, range;
	char factor[400] = ""; /* a double's every digit (309) */

	if (unc_of(r, &var, &range)) {
		snprintf(buf, size, "not estimated (--uncertainty=N gives deltas a range)");
		return buf;
	}
	if (range >= 0)
		snprintf(factor, sizeof(factor), ", every figure within a factor %.2f",
			 1 + range / 100);
	snprintf(buf, size, "%.0f machine variants%s", var, factor);
	return buf;
}

/* The report's noise as the header gives it, into buf. */
static const char *noise_text(const struct sr_report_doc *r, char *buf, size_t size)
{
	double rep, jit;

	if (noise_of(r, &rep, &jit))
		snprintf(buf, size, "not measured (--noise=R gives each delta its timing noise)");
	else if (jit < 0)
		snprintf(buf, size, "%.0f replicas of the trace's timing", rep);
	else
		snprintf(buf, size, "%.0f replicas of the trace's timing, events up to %.0f ns later",
			 rep, jit);
	return buf;
}

static const char *onoff(int v)
{
	return v < 0 ? NULL : v ? "on" : "off";
}

/* The slots cache as the header gives it: on or off (an option of the
 * kernels that have one, 4.11 to 6.14), or none when the report's kernel
 * has none (src/mm/kernel.c: before 4.11, and 6.15 on, whose per-CPU
 * clusters took its place); the report's slots_cache is then false. */
static const char *slots_of(const struct sr_report_doc *r)
{
	struct sr_kernel k;
	struct sr_diag d;

	if (r->kernel && !sr_kernel_parse(r->kernel, &k, &d) && k.alloc != SR_ALLOC_SLOTS_CACHE)
		return k.alloc == SR_ALLOC_CLUSTER ? "none (6.15 on)" : "none (before 4.11)";
	return onoff(r->slots);
}

/*
 * v x mul / div, finite v whose product overflows a double, as %.<p>g
 * would write it: m x 10^e with 1 <= |m| < 10 rounded to p significant
 * digits, "1e+309".
 */
static void big_g(char *buf, size_t size, int p, int sign, double v, double mul, double div,
		  const char *unit)
{
	int e = (int)floor(log10(fabs(v)));
	double m = v / pow(10, e) * mul / div, q = pow(10, p - 1);

	while (fabs(m) >= 10) {
		m /= 10;
		e++;
	}
	while (m != 0 && fabs(m) < 1) {
		m *= 10;
		e--;
	}
	m = round(m * q) / q;
	if (fabs(m) >= 10) {
		m /= 10;
		e++;
	}
	snprintf(buf, size, sign ? "%+.*ge%c%02d%s" : "%.*ge%c%02d%s", p, m, e < 0 ? '-' : '+',
		 e < 0 ? -e : e, unit);
}

/* The widest a value and a change may be in their columns (14 and 13
 * wide), so that a space always parts them. */
#define VAL_W 13
#define CHG_W 12

/*
 * v (a figure in the report's unit) as the text shows it, x mul / div,
 * into buf: with dec decimals (and its sign when sign), then unit; when
 * that is wider than w, in scientific notation with as many significant
 * digits as fit, up to 7 (1.234568e+15, -1.7e+308), never cut.  A value that overflows a double once scaled
 * (a utilisation of 1e307, in per cent) is scaled as a decimal mantissa
 * and exponent (big_g()): not as a long double, which valgrind computes
 * as a double (and so as inf).
 */
static void fit_num(char *buf, size_t size, int w, double v, double mul, double div, int dec,
		    int sign, const char *unit)
{
	double x = v * mul / div;
	int p;

	if (isfinite(x))
		snprintf(buf, size, sign ? "%+.*f%s" : "%.*f%s", dec, tidy(x, dec), unit);
	else
		big_g(buf, size, 7, sign, v, mul, div, unit);
	for (p = 7; p >= 1 && (int)strlen(buf) > w; p--) {
		if (isfinite(x))
			snprintf(buf, size, sign ? "%+.*g%s" : "%.*g%s", p, x, unit);
		else
			big_g(buf, size, p, sign, v, mul, div, unit);
	}
}

/* v as a noise is given, "+-" and the value, into buf. */
static void plus_minus(char *buf, size_t size, double v, int dec)
{
	char n[390]; /* a double's every digit (309), and room for "+-" in buf */

	fit_num(n, sizeof(n), VAL_W - 2, v, 1, 1, dec, 0, "");
	snprintf(buf, size, "+-%s", n);
}

/* The mark of a delta or change within the timing noise (--noise), and
 * what the text's footer says of it. */
#define NOISE_MARK "*"

/* One row: its label (on a line of its own when wider than the column),
 * the two values and the change; w (or NULL): the before, after and
 * change within the noise (within_noise()), each marked. */
static void text_row(FILE *f, int lw, const char *label, const struct figdef *fd,
		     const struct sr_report_num *b, const struct sr_report_num *a, const struct sr_report_num *ob,
		     const struct sr_report_num *oa, const int *w)
{
	/* Room for a double's every digit before the point (309). */
	char vb[400] = "-", va[400] = "-", vc[400] = "-";
	double c;
	int ch;

	/* Values and changes rounded alike (half away from zero), so that
	 * -15.635 -> 0 shows as -15.64 -> +0.00, +15.64 pt. */
	if (b->has)
		fit_num(vb, sizeof(vb), VAL_W, b->v, fd->mul, fd->div, fd->dec, fd->sign, "");
	if (a->has)
		fit_num(va, sizeof(va), VAL_W, a->v, fd->mul, fd->div, fd->dec, fd->sign, "");
	/* A count out of another: "3/4" (when that fits its column). */
	if (b->has && ob && ob->has && fabs(b->v) < 1e6 && fabs(ob->v) < 1e6)
		snprintf(vb, sizeof(vb), "%.0f/%.0f", b->v, ob->v);
	if (a->has && oa && oa->has && fabs(a->v) < 1e6 && fabs(oa->v) < 1e6)
		snprintf(va, sizeof(va), "%.0f/%.0f", a->v, oa->v);
	ch = change(b, a, fd, &c);
	if (fd->chg == NOCHG)
		vc[0] = '\0';
	else if (ch == CHG_OK)
		fit_num(vc, sizeof(vc), CHG_W, c, 1, 1, 2, 1, fd->chg == PT ? " pt" : " %");
	else if (ch == CHG_NA)
		snprintf(vc, sizeof(vc), "n/a");
	/* A delta's timing noise, as the replay's table gives it: +-0.52. */
	if (fd == &pfig[F_NOISE]) {
		if (b->has)
			plus_minus(vb, sizeof(vb), b->v, fd->dec);
		if (a->has)
			plus_minus(va, sizeof(va), a->v, fd->dec);
	}
	if (w && w[0] > 0 && b->has)
		strcat(vb, NOISE_MARK);
	if (w && w[1] > 0 && a->has)
		strcat(va, NOISE_MARK);
	if (w && w[2] > 0 && ch == CHG_OK)
		strcat(vc, NOISE_MARK);
	if ((int)strlen(label) > lw) {
		fprintf(f, "%s\n", label);
		label = "";
	}
	if (vc[0])
		fprintf(f, "%-*s%14s%14s%13s\n", lw, label, vb, va, vc);
	else /* no change column (a count), and no spaces at the line's end */
		fprintf(f, "%-*s%14s%14s\n", lw, label, vb, va);
}

/* The label of a row: two spaces, the policy, and what follows it. */
static void label_of(char *buf, size_t size, const char *pol, const char *more)
{
	snprintf(buf, size, "  %s%s%s", pol, more ? " " : "", more ? more : "");
}

/* A section's title and its columns' (each section has them, so that a
 * section quoted alone in a reply still says what its columns are). */
static void section(FILE *f, int g, int lw)
{
	fprintf(f, "\n%s\n%-*s%14s%14s%13s\n", titles[g], lw, "", "before", "after", "change");
}

/* One row of group g: written (its section's title before the first), or,
 * when f is NULL, its label measured into *widest.  ob, oa: what a count
 * is out of, or NULL. */
static void group_row(FILE *f, int g, int lw, const char *label, const struct figdef *fd,
		      const struct sr_report_num *vb, const struct sr_report_num *va, const struct sr_report_num *ob,
		      const struct sr_report_num *oa, const int *w, int *rows, int *widest)
{
	if (!f) {
		if ((int)strlen(label) > *widest)
			*widest = (int)strlen(label);
		return;
	}
	if (!(*rows)++)
		section(f, g, lw);
	text_row(f, lw, label, fd, vb, va, ob, oa, w);
}

/* Write (or, when f is NULL, measure: the widest label) group g's rows;
 * *marked (may be NULL) set when a value or change is marked within its
 * noise. */
static int text_group(FILE *f, int g, const struct ppair *pp, size_t np, int lw, int *widest,
		      int *marked)
{
	char label[256];
	size_t i, j, nd;
	int k, rows = 0, w[3];

	for (i = 0; i < np; i++) {
		struct dpair *dp;
		int noise;

		if (!pp[i].p[0] || !pp[i].p[1])
			continue;
		noise = within_noise(pp[i].p[0], pp[i].p[1], w);
		for (k = 0; k < NF; k++) {
			const struct sr_report_num *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (pfig[k].group != g || (!vb->has && !va->has))
				continue;
			label_of(label, sizeof(label), pp[i].p[0]->name, pfig[k].row);
			group_row(f, g, lw, label, &pfig[k], vb, va,
				  pfig[k].of < 0 ? NULL : pval(&pp[i], 0, pfig[k].of),
				  pfig[k].of < 0 ? NULL : pval(&pp[i], 1, pfig[k].of),
				  k == F_DELTA && noise ? w : NULL, &rows, widest);
			if (k == F_DELTA && noise && marked && (w[0] > 0 || w[1] > 0 || w[2] > 0))
				*marked = 1;
		}
		dp = pair_devices(&pp[i], &nd);
		if (!dp)
			return -1;
		for (j = 0; j < nd; j++)
			for (k = 0; k < ND; k++) {
				const struct sr_report_num *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (dfig[k].group != g || (!vb->has && !va->has))
					continue;
				label_of(label, sizeof(label), pp[i].p[0]->name,
					 (dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name);
				group_row(f, g, lw, label, &dfig[k], vb, va, NULL, NULL, NULL, &rows,
					  widest);
			}
		free(dp);
	}
	return 0;
}

/* "Only in before (FILE): a, b" for the policies of one report only. */
static int text_only(FILE *f, const struct ppair *pp, size_t np, int side,
		     const struct sr_report_doc *r)
{
	char prefix[300];
	size_t i, len = 0;
	char *names;

	for (i = 0; i < np; i++)
		if (pp[i].p[side] && !pp[i].p[!side])
			len += strlen(pp[i].p[side]->name) + 2;
	if (!len)
		return 0;
	names = malloc(len + 1);
	if (!names)
		return -1;
	names[0] = '\0';
	len = 0;
	for (i = 0; i < np; i++)
		if (pp[i].p[side] && !pp[i].p[!side])
			len += (size_t)sprintf(names + len, "%s%s", len ? ", " : "",
					       pp[i].p[side]->name);
	snprintf(prefix, sizeof(prefix), "Only in %s (%.200s): ", side ? "after" : "before", r->file);
	wrap(f, prefix, names);
	free(names);
	return 0;
}

static int write_text(FILE *f, const struct sr_report_doc *b,
		      const struct sr_report_doc *a)
{
	struct ppair *pp;
	size_t np, i;
	char s0[600], s1[600];
	double var, range;
	int g, lw = 0, common = 0, only = 0, marked = 0;

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	head(f, "before:", b->file, b->file);
	head(f, "after:", a->file, a->file);
	head(f, "trace:", trace_of(b, s0, sizeof(s0)), trace_of(a, s1, sizeof(s1)));
	head(f, "machine:", machine_of(b, s0, sizeof(s0)), machine_of(a, s1, sizeof(s1)));
	head(f, "kernel:", b->kernel, a->kernel);
	head(f, "slots cache:", slots_of(b), slots_of(a));
	head(f, "block plug:", onoff(b->plug), onoff(a->plug));
	head(f, "readahead:", b->readahead, a->readahead);
	head(f, "baseline:", b->baseline, a->baseline);
	head(f, "uncertainty:", unc_text(b, s0, sizeof(s0)), unc_text(a, s1, sizeof(s1)));
	/* --noise: only when a report measured it (a comparison of reports
	 * made before it is the same). */
	if (!noise_of(b, &var, &range) || !noise_of(a, &var, &range))
		head(f, "noise:", noise_text(b, s0, sizeof(s0)), noise_text(a, s1, sizeof(s1)));
	/* What the reports warned of (swap full, unmatched swap-ins...): a
	 * comparison of such figures carries it. */
	if (b->warnings || a->warnings)
		head(f, "warnings:", b->warnings ? b->warnings : "none",
		     a->warnings ? a->warnings : "none");
	if (!unc_of(b, &var, &range) || !unc_of(a, &var, &range)) {
		snprintf(s0, sizeof(s0), "variants on the delta's side (faster, slower, or within "
			 "%.0f %%)", SR_SAME_PCT);
		wrap(f, "agree:       ", s0);
	}
	wrap(f, "change:      ", "(after / before - 1) x 100 %, of the reports' figures; for the "
	     "delta, after - before");
	for (g = 0; g < NGROUPS; g++)
		if (text_group(NULL, g, pp, np, 0, &lw, NULL)) {
			free(pp);
			return -1;
		}
	for (i = 0; i < np; i++) {
		common += pp[i].p[0] && pp[i].p[1];
		only += !(pp[i].p[0] && pp[i].p[1]);
	}
	if (lw > MAX_LABEL)
		lw = MAX_LABEL;
	if (lw < 8)
		lw = 8;
	if (common) {
		for (g = 0; g < NGROUPS; g++)
			if (text_group(f, g, pp, np, lw, NULL, &marked)) {
				free(pp);
				return -1;
			}
		if (marked) {
			fputc('\n', f);
			wrap_at(f, NOISE_MARK ": ", SR_WITHIN_NOISE ": a delta within its timing noise, "
				"a change within the larger of the two reports' noise", 3);
		}
	} else {
		fputs("\nNo policy is in both reports.\n", f);
	}
	if (only)
		fputc('\n', f);
	if (text_only(f, pp, np, 0, b) || text_only(f, pp, np, 1, a)) {
		free(pp);
		return -1;
	}
	free(pp);
	return 0;
}

int sr_compare_trace_diff(const struct sr_compare_report *a, const struct sr_compare_report *b,
			  char *buf, size_t size)
{
	return trace_diff(&a->doc, &b->doc, buf, size);
}

enum sr_err sr_compare_write(FILE *f, const struct sr_compare_report *before,
			     const struct sr_compare_report *after, enum sr_compare_fmt fmt)
{
	int rc;

	switch (fmt) {
	case SR_COMPARE_JSON: rc = write_json(f, &before->doc, &after->doc); break;
	case SR_COMPARE_CSV: rc = write_csv(f, &before->doc, &after->doc); break;
	default: rc = write_text(f, &before->doc, &after->doc); break;
	}
	if (rc)
		return SR_ERR_NOMEM;
	return ferror(f) ? SR_ERR_IO : SR_OK;
}
