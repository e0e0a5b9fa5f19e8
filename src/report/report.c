/* SPDX-License-Identifier: MIT */
/*
 * Reports of a replay in five formats (text, JSON, CSV, Markdown, table);
 * docs/REPORT.md describes them.  The JSON's figures of a policy and of
 * a device are written from the tables of figures.c, in their order; what
 * is no such figure (names, the header, the caveats, histograms, tasks,
 * links) is written here as it is.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "common/quote.h"
#include "swapreplay/trace.h"
#include "report/figures.h"
#include "swapreplay/report.h"
#include "swapreplay/version.h"

#define LOG2_BUCKETS 24 /* up to 2^23 us = 8 s */

enum sr_err sr_report_fmt_parse(const char *s, enum sr_report_fmt *out)
{
	if (!strcmp(s, "text"))
		*out = SR_REPORT_TEXT;
	else if (!strcmp(s, "json"))
		*out = SR_REPORT_JSON;
	else if (!strcmp(s, "csv"))
		*out = SR_REPORT_CSV;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*out = SR_REPORT_MARKDOWN;
	else if (!strcmp(s, "table"))
		*out = SR_REPORT_TABLE;
	else
		return SR_ERR_INVAL;
	return SR_OK;
}

void sr_report_json_string(FILE *f, const char *s)
{
	sr_json_write(f, s);
}

/* Quantiles in ns, rounded to whole ns so that reports are stable. */
struct lat {
	double mean, p50, p90, p99, max;
};

static void lat_of(const struct sr_policy_result *p, struct lat *l)
{
	const struct sr_hist *h = &p->swapin_lat;

	l->mean = h->count ? round(h->sum_ns / (double)h->count) : 0;
	l->p50 = round(sr_hist_quantile(h, 0.50));
	l->p90 = round(sr_hist_quantile(h, 0.90));
	l->p99 = round(sr_hist_quantile(h, 0.99));
	l->max = round(h->max_ns);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

/* x as printed with `decimals` places: a value that rounds to zero is
 * zero, not "-0.00". */
static double nz(double x, int decimals)
{
	return fabs(x) < 0.5 * pow(10, -decimals) ? 0.0 : x;
}

/* "N noun" or "N nouns". */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* A byte count in binary units, labelled: "512 B", "3.4 KiB", "1.2 GiB". */
static void bytes_h(char *buf, size_t n, uint64_t b)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = -1;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%" PRIu64 " B", b);
	else
		snprintf(buf, n, "%.1f %s", v, unit[u]);
}

/* The machine as a report names it: "2s-nvme2 (preset)", with the file's
 * path when it came from one. */
/* Why the kernel modelled is that one, where the report says it: not
 * when it was asked for (--kernel); JSON's kernel_source always says it. */
static const char *kernel_why(const struct sr_report_info *in)
{
	return in->kernel_why && strcmp(in->kernel_why, "--kernel") ? in->kernel_why : NULL;
}

static void machine_line(char *buf, size_t n, const struct sr_report_info *in)
{
	if (in->machine_path)
		snprintf(buf, n, "%s (%s %s)", in->machine, in->machine_origin, in->machine_path);
	else
		snprintf(buf, n, "%s (%s)", in->machine, in->machine_origin);
}

/* What policy k's delta says, with its timing noise measured (--noise):
 * the baseline, faster, slower, or no difference (within its noise; or
 * none at all: the baseline's own simulation). */
static const char *verdict(const struct sr_result *res, int k)
{
	const struct sr_policy_result *p = &res->policy[k];

	if (k == res->baseline)
		return "baseline";
	if (sr_delta_in_noise(p))
		return SR_WITHIN_NOISE;
	return p->delta_pct > 0 ? "faster" : p->delta_pct < 0 ? "slower" : "no difference";
}

/* Whether the deltas' timing noise was measured (--noise). */
static int noise_on(const struct sr_result *res)
{
	return res->nr_policies && res->policy[0].noise.replicas > 0;
}

/* Whether the replay sent anything through the block layer. */
static int any_blk(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].blk.bios)
			return 1;
	return 0;
}

/* Figure i of policy p (l: its swap-in latency) as the JSON gives it: a
 * whole number into *u, else into *d (sr_report_pfig[i].dec says which). */
static void pol_fig(const struct sr_policy_result *p, const struct lat *l, enum sr_pfig i,
		    uint64_t *u, double *d)
{
	*u = 0;
	*d = 0;
	switch (i) {
	case SR_PF_THROUGHPUT: *d = p->throughput_kib_s; break;
	case SR_PF_DELTA: *d = nz(p->delta_pct, 3); break;
	case SR_PF_NOISE: *d = p->noise.pct; break;
	case SR_PF_MAKESPAN: *d = p->makespan_ns; break;
	case SR_PF_SWAPOUTS: *u = p->swapouts; break;
	case SR_PF_SWAPINS: *u = p->swapins; break;
	case SR_PF_PAGES_OUT: *u = p->pages_out; break;
	case SR_PF_PAGES_IN: *u = p->pages_in; break;
	case SR_PF_UNMATCHED: *u = p->unmatched_in; break;
	case SR_PF_UNMATCHED_NODEV: *u = p->unmatched_nodev; break;
	case SR_PF_SWAP_FULL: *u = p->swap_full; break;
	case SR_PF_TIER_FULL: *u = p->tier_full; break;
	case SR_PF_ZS_STORED: *u = p->zs.stored; break;
	case SR_PF_ZS_ZERO: *u = p->zs.zero; break;
	case SR_PF_ZS_WHOLE: *u = p->zs.whole; break;
	case SR_PF_ZS_REJ_FULL: *u = p->zs.rej_full; break;
	case SR_PF_ZS_REJ_POOR: *u = p->zs.rej_poor; break;
	case SR_PF_ZS_REJ_LARGE: *u = p->zs.rej_large; break;
	case SR_PF_ZS_LOADS: *u = p->zs.loads; break;
	case SR_PF_ZS_WRITTEN_BACK: *u = p->zs.written_back; break;
	case SR_PF_ZS_LIMIT_HIT: *u = p->zs.limit_hit; break;
	case SR_PF_ZS_POOL_PEAK: *d = round(p->zs.pool_peak_bytes); break;
	case SR_PF_ZS_CPU: *d = round(p->zs.cpu_ns); break;
	case SR_PF_MOVED_OUT: *u = p->moved_out; break;
	case SR_PF_MOVED_OUT_PCT: *d = pct(p->moved_out, p->swapouts); break;
	case SR_PF_CACHE_REFILLS: *u = p->cache_refills; break;
	case SR_PF_DIRECT_ALLOCS: *u = p->direct_allocs; break;
	case SR_PF_SLOTS_KEPT: *u = p->slots_kept; break;
	case SR_PF_KEPT_REWRITTEN: *u = p->kept_rewritten; break;
	case SR_PF_KEPT_RECLAIMED: *u = p->kept_reclaimed; break;
	case SR_PF_LAT_MEAN: *d = l->mean; break;
	case SR_PF_LAT_P50: *d = l->p50; break;
	case SR_PF_LAT_P90: *d = l->p90; break;
	case SR_PF_LAT_P99: *d = l->p99; break;
	case SR_PF_LAT_MAX: *d = l->max; break;
	case SR_PF_SWAPOUT_LAT_MEAN: *d = round(p->swapout_lat_mean_ns); break;
	case SR_PF_STALE: *u = p->stale_requests; break;
	case SR_PF_ORDER_FORCED: *u = p->order_forced; break;
	case SR_PF_ORDER_LATE: *u = p->order_late; break;
	case SR_PF_ORDER_BEHIND: *u = p->order_behind; break;
	case SR_PF_ORDER_BEHIND_BY: *d = p->order_behind_by_mean; break;
	case SR_PF_WAIT_CPU: *d = round(p->wait_cpu_ns); break;
	case SR_PF_WAIT_SI_LOCK: *d = round(p->wait_si_lock_ns); break;
	case SR_PF_WAIT_LRU_LOCK: *d = round(p->wait_lru_lock_ns); break;
	case SR_PF_WAIT_SWAP_CACHE_LOCK: *d = round(p->wait_swap_cache_lock_ns); break;
	case SR_PF_READAHEAD_PAGES: *u = p->readahead_pages; break;
	case SR_PF_SWAPCACHE_HITS: *u = p->swapcache_hits; break;
	case SR_PF_READAHEAD_DROPPED: *u = p->readahead_dropped; break;
	case SR_PF_BLK_CPU: *d = round(p->block_cpu_ns); break;
	case SR_PF_BLK_QUEUE_LOCK_WAIT: *d = round(p->wait_queue_lock_ns); break;
	case SR_PF_BLK_BIOS: *u = p->blk.bios; break;
	case SR_PF_BLK_REQUESTS: *u = p->blk.reads + p->blk.writes; break;
	case SR_PF_BLK_MERGES: *u = p->blk.plug_merges + p->blk.queue_merges; break;
	case SR_PF_BLK_REQ_KIB_MEAN: *d = p->blk.req_kib_mean; break;
	case SR_PF_BLK_REQ_KIB_CV: *d = p->blk.req_kib_cv; break;
	case SR_PF_BLK_QUEUE_SHARE: *d = p->blk.queue_share; break;
	/* Counts of variants (never negative). */
	case SR_PF_U_VARIANTS: *u = (uint64_t)p->unc.variants; break;
	case SR_PF_U_RANGE: *d = p->unc.range * 100; break;
	case SR_PF_U_DELTA_MIN: *d = p->unc.min; break;
	case SR_PF_U_DELTA_MAX: *d = p->unc.max; break;
	case SR_PF_U_AGREE: *u = (uint64_t)p->unc.agree; break;
	case SR_PF_N_REPLICAS: *u = (uint64_t)p->noise.replicas; break;
	case SR_PF_N_JITTER: *d = p->noise.jitter_ns; break;
	case SR_PF_N_DELTA_MIN: *d = nz(p->noise.min, 3); break;
	case SR_PF_N_DELTA_MAX: *d = nz(p->noise.max, 3); break;
	case SR_PF_TASK_SWAPIN_SUM: *d = p->task_swapin_kib_s_sum; break;
	case SR_PF_TASK_SWAPOUT_SUM: *d = p->task_swapout_kib_s_sum; break;
	case SR_PF_TASKS_ALIVE_MAX: *u = p->tasks_alive_max; break;
	case SR_PF_COUNT: break;
	}
}

/* Figure i of device d, as pol_fig() gives a policy's. */
static void dev_fig(const struct sr_dev_result *d, enum sr_dfig i, uint64_t *u, double *v)
{
	*u = 0;
	*v = 0;
	switch (i) {
	case SR_DF_READS: *u = d->reads; break;
	case SR_DF_WRITES: *u = d->writes; break;
	case SR_DF_READ_BYTES: *u = d->read_bytes; break;
	case SR_DF_WRITE_BYTES: *u = d->write_bytes; break;
	case SR_DF_PAGES_READ_AHEAD: *u = d->readahead_pages; break;
	case SR_DF_UTIL: *v = d->util; break;
	case SR_DF_BUSY: *v = d->busy_ns; break;
	case SR_DF_BLK_BIOS: *u = d->bios; break;
	case SR_DF_BLK_REQUESTS: *u = d->reads + d->writes; break;
	case SR_DF_BLK_PLUG_MERGES: *u = d->plug_merges; break;
	case SR_DF_BLK_QUEUE_MERGES: *u = d->queue_merges; break;
	case SR_DF_BLK_REQ_KIB_MEAN: *v = d->req_kib_mean; break;
	case SR_DF_BLK_REQ_KIB_CV: *v = d->req_kib_cv; break;
	case SR_DF_BLK_QUEUE_SHARE: *v = d->queue_share; break;
	case SR_DF_COUNT: break;
	}
}

/*
 * The figures of t[0..n) whose condition is in the mask when (bits
 * 1 << enum sr_fig_when), each after what is written already (a name):
 * ", " before each, ",\n" and indent before one that begins a line, an
 * object's members within its braces; u[i] or d[i] with t[i].dec's
 * decimals.  Returns the object left open (the caller may add members
 * that are no figures, and closes it), or NULL.
 */
static const char *put_figs(FILE *f, const struct sr_report_fig *t, int n, unsigned when,
			    const char *indent, const uint64_t *u, const double *d)
{
	const char *open = NULL;
	int i;

	for (i = 0; i < n; i++) {
		if (!(when & 1u << t[i].when))
			continue;
		if (open && (t[i].nl || !t[i].obj || strcmp(open, t[i].obj))) {
			fputc('}', f);
			open = NULL;
		}
		if (open) {
			fputs(", ", f);
		} else {
			fprintf(f, t[i].nl ? ",\n%s" : ", ", indent);
			if (t[i].obj) {
				fprintf(f, "\"%s\": {", t[i].obj);
				open = t[i].obj;
			}
		}
		if (t[i].dec == SR_FIG_WHOLE)
			fprintf(f, "\"%s\": %" PRIu64, t[i].key, u[i]);
		else
			fprintf(f, "\"%s\": %.*f", t[i].key, t[i].dec, d[i]);
	}
	return open;
}

/* Whether a simulation played swap events out of the trace's order. */
static int behind(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].order_behind)
			return 1;
	return 0;
}

/* Whether the trace had task ops (fork, exit, wait). */
static int task_ops(const struct sr_result *res)
{
	return res->forks || res->exits || res->waits;
}

/* Whether a simulation played records out of simulated time's order
 * (docs/MODEL.md, "The core"). */
static int out_of_order(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].order_forced || res->policy[k].order_late)
			return 1;
	return 0;
}

/* Whether some policy's swap cache kept a read fault's slot (K1). */
/* Some policy restricts the swap tiers a memcg may use (tier_full). */
static int tiered(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].tiered)
			return 1;
	return 0;
}

static int kept(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].slots_kept || res->policy[k].kept_rewritten)
			return 1;
	return 0;
}

/* ---- --check-recorded: what the trace measured, beside each prediction -- */

enum { RC_IN_MEAN, RC_IN_P50, RC_IN_P90, RC_IN_P99, RC_OUT_MEAN, RC_KIB_S, RC_ROWS };
static const char *const rc_label[RC_ROWS] = {
	"swap-in latency mean", "swap-in latency p50", "swap-in latency p90",
	"swap-in latency p99", "swap-out latency mean", "throughput",
};

/* The recorded figures (latencies in ns; -1 where the trace has none). */
static void rc_recorded(const struct sr_recorded *c, double v[RC_ROWS])
{
	const struct sr_hist *h = &c->swapin_lat;

	v[RC_IN_MEAN] = h->count ? h->sum_ns / (double)h->count : -1;
	v[RC_IN_P50] = h->count ? sr_hist_quantile(h, 0.50) : -1;
	v[RC_IN_P90] = h->count ? sr_hist_quantile(h, 0.90) : -1;
	v[RC_IN_P99] = h->count ? sr_hist_quantile(h, 0.99) : -1;
	v[RC_OUT_MEAN] = c->swapouts_timed ? c->swapout_lat_sum_ns / (double)c->swapouts_timed : -1;
	v[RC_KIB_S] = c->end_ns > c->first_ns ? c->throughput_kib_s : -1;
}

/* A policy's predicted figures, the same way. */
static void rc_predicted(const struct sr_policy_result *p, double v[RC_ROWS])
{
	struct lat l;

	lat_of(p, &l);
	v[RC_IN_MEAN] = p->swapin_lat.count ? l.mean : -1;
	v[RC_IN_P50] = p->swapin_lat.count ? l.p50 : -1;
	v[RC_IN_P90] = p->swapin_lat.count ? l.p90 : -1;
	v[RC_IN_P99] = p->swapin_lat.count ? l.p99 : -1;
	v[RC_OUT_MEAN] = p->swapouts ? p->swapout_lat_mean_ns : -1;
	v[RC_KIB_S] = p->throughput_kib_s;
}

/* Figure i as text ("85.2 us", "812345 KiB/s", "-"). */
static void rc_fmt(char *b, size_t n, int i, double v)
{
	if (v < 0)
		snprintf(b, n, "-");
	else if (i == RC_KIB_S)
		snprintf(b, n, "%.0f KiB/s", v);
	else
		snprintf(b, n, "%.1f us", v / 1e3);
}

/* predicted against recorded, "+14.2 %", or "-". */
static void rc_diff(char *b, size_t n, double rec, double pred)
{
	if (rec > 0 && pred >= 0)
		snprintf(b, n, "%+.1f %%", (pred / rec - 1) * 100);
	else
		snprintf(b, n, "-");
}

/* What was timed, for the section's heading. */
static void rc_heading(char *b, size_t n, const struct sr_recorded *c)
{
	snprintf(b, n, "%" PRIu64 " swap-in%s and %" PRIu64 " swap-out%s with a recorded latency, "
		 "%.6f s recorded", c->swapin_lat.count, plural(c->swapin_lat.count),
		 c->swapouts_timed, plural(c->swapouts_timed),
		 (double)(c->end_ns - c->first_ns) / 1e9);
}

/* Whether a policy has figures per memcg (the trace's events name memcgs). */
static int any_memcg(const struct sr_result *res)
{
	int k;

	for (k = 0; k < res->nr_policies; k++)
		if (res->policy[k].nr_memcgs)
			return 1;
	return 0;
}

/* The path of memcg id as the trace names it, or "" (none named). */
static const char *memcg_path(const struct sr_report_info *in, unsigned id)
{
	const char *p = in->memcgs ? sr_memcgs_path(in->memcgs, id) : NULL;

	return p ? p : "";
}

/* Text and table: each policy's memcgs, a row each (docs/REPORT.md,
 * "Memory cgroups"). */
static void write_memcgs_text(FILE *f, const struct sr_result *res, const struct sr_report_info *in,
			      int w)
{
	int k;
	size_t j;

	if (!any_memcg(res))
		return;
	fprintf(f, "\nper memory cgroup (its pages' swap events, whoever reclaimed them; KiB/s "
		   "over the policy's simulated time):\n");
	fprintf(f, "%-*s %6s %10s %10s %10s %10s %10s  %s\n", w, "policy", "memcg", "pages out",
		"pages in", "KiB/s", "in mean", "in max", "path");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];

		for (j = 0; j < p->nr_memcgs; j++) {
			const struct sr_memcg_result *x = &p->memcg[j];

			fprintf(f, "%-*.*s %6u %10" PRIu64 " %10" PRIu64 " %10.0f", w, w, p->name,
				x->id, x->pages_out, x->pages_in, x->throughput_kib_s);
			if (x->swapins)
				fprintf(f, " %8.1fus %8.1fus", x->swapin_lat_mean_ns / 1e3,
					x->swapin_lat_max_ns / 1e3);
			else
				fprintf(f, " %10s %10s", "n/a", "n/a");
			fprintf(f, "  %s\n", memcg_path(in, x->id));
		}
	}
}

static void write_recorded_text(FILE *f, const struct sr_result *res)
{
	double rec[RC_ROWS], pred[RC_ROWS];
	char h[200], a[32], b[32], d[32];
	int i, k;

	rc_recorded(&res->recorded, rec);
	rc_heading(h, sizeof(h), &res->recorded);
	fprintf(f, "\nrecorded against predicted (--check-recorded; %s):\n", h);
	fprintf(f, "%-22s %16s", "", "recorded");
	for (k = 0; k < res->nr_policies; k++)
		fprintf(f, "  %25.25s", res->policy[k].name);
	fputc('\n', f);
	for (i = 0; i < RC_ROWS; i++) {
		rc_fmt(a, sizeof(a), i, rec[i]);
		fprintf(f, "%-22s %16s", rc_label[i], a);
		for (k = 0; k < res->nr_policies; k++) {
			rc_predicted(&res->policy[k], pred);
			rc_fmt(b, sizeof(b), i, pred[i]);
			rc_diff(d, sizeof(d), rec[i], pred[i]);
			fprintf(f, "  %16s %8s", b, d);
		}
		fputc('\n', f);
	}
}

static void write_recorded_markdown(FILE *f, const struct sr_result *res)
{
	double rec[RC_ROWS], pred[RC_ROWS];
	char h[200], a[32], b[32], d[32];
	int i, k;

	rc_recorded(&res->recorded, rec);
	rc_heading(h, sizeof(h), &res->recorded);
	fprintf(f, "\nRecorded against predicted (`--check-recorded`; %s):\n\n| | recorded |", h);
	for (k = 0; k < res->nr_policies; k++)
		fprintf(f, " %s | difference |", res->policy[k].name);
	fprintf(f, "\n|---|---:|");
	for (k = 0; k < res->nr_policies; k++)
		fprintf(f, "---:|---:|");
	fputc('\n', f);
	for (i = 0; i < RC_ROWS; i++) {
		rc_fmt(a, sizeof(a), i, rec[i]);
		fprintf(f, "| %s | %s |", rc_label[i], a);
		for (k = 0; k < res->nr_policies; k++) {
			rc_predicted(&res->policy[k], pred);
			rc_fmt(b, sizeof(b), i, pred[i]);
			rc_diff(d, sizeof(d), rec[i], pred[i]);
			fprintf(f, " %s | %s |", b, d);
		}
		fputc('\n', f);
	}
}

/* JSON: the trace's "recorded" object (the predictions are each policy's
 * own figures). */
static void write_recorded_json(FILE *f, const struct sr_result *res)
{
	const struct sr_recorded *c = &res->recorded;
	double rec[RC_ROWS];

	rc_recorded(c, rec);
	fprintf(f, ", \"recorded\": {\"swapins_timed\": %" PRIu64, c->swapin_lat.count);
	if (c->swapin_lat.count)
		fprintf(f, ", \"swapin_lat_ns\": {\"mean\": %.0f, \"p50\": %.0f, \"p90\": %.0f, "
			   "\"p99\": %.0f}", rec[RC_IN_MEAN], rec[RC_IN_P50], rec[RC_IN_P90],
			rec[RC_IN_P99]);
	fprintf(f, ", \"swapouts_timed\": %" PRIu64, c->swapouts_timed);
	if (c->swapouts_timed)
		fprintf(f, ", \"swapout_lat_mean_ns\": %.0f", rec[RC_OUT_MEAN]);
	fprintf(f, ", \"pages_in\": %" PRIu64 ", \"pages_out\": %" PRIu64 ", \"span_ns\": %" PRIu64
		", \"throughput_kib_s\": %.1f}", c->pages_in, c->pages_out, c->end_ns - c->first_ns,
		c->throughput_kib_s);
}

static void write_json(FILE *f, const struct sr_result *res, const struct sr_report_info *in)
{
	struct sr_caveat cav[SR_CAV_COUNT];
	uint64_t pu[SR_PF_COUNT], du[SR_DF_COUNT];
	double pd[SR_PF_COUNT], dd[SR_DF_COUNT];
	const char *open;
	unsigned when;
	int k, i, j, nc = sr_report_caveats(res, in, cav);

	fprintf(f, "{\n  \"schema\": \"%s\",\n", SR_REPORT_SCHEMA);
	fprintf(f, "  \"tool\": {\"name\": \"swapreplay\", \"version\": \"%s\"},\n", SR_VERSION_STRING);
	fprintf(f, "  \"trace\": {\"path\": ");
	sr_report_json_string(f, in->trace);
	fprintf(f, ", \"events\": %" PRIu64 ", \"swapins\": %" PRIu64 ", \"tasks\": %" PRIu64
		", \"late_events\": %" PRIu64, res->events, res->swapins, res->tasks,
		res->late_events);
	if (task_ops(res))
		fprintf(f, ", \"task_ops\": {\"forks\": %" PRIu64 ", \"exits\": %" PRIu64
			", \"waits\": %" PRIu64 ", \"tasks_forked\": %" PRIu64 ", \"tasks_unforked\": %"
			PRIu64 ", \"forks_late\": %" PRIu64 ", \"waits_unmatched\": %" PRIu64 "}",
			res->forks, res->exits, res->waits, res->tasks_forked, res->tasks_unforked,
			res->forks_late, res->waits_unmatched);
	if (in->check_recorded)
		write_recorded_json(f, res);
	fprintf(f, "},\n");
	fprintf(f, "  \"machine\": {\"name\": ");
	sr_report_json_string(f, in->machine);
	fprintf(f, ", \"origin\": ");
	sr_report_json_string(f, in->machine_origin);
	if (in->machine_path) {
		fprintf(f, ", \"path\": ");
		sr_report_json_string(f, in->machine_path);
	}
	fprintf(f, "},\n  \"options\": {\"slots_cache\": %s", in->slots_cache ? "true" : "false");
	if (in->kernel)
		fprintf(f, ", \"kernel\": \"%u.%u\"", in->kernel->major, in->kernel->minor);
	if (in->kernel && in->kernel_why) {
		fprintf(f, ", \"kernel_source\": ");
		sr_report_json_string(f, in->kernel_why);
	}
	if (in->readahead) {
		fprintf(f, ", \"readahead\": ");
		sr_report_json_string(f, in->readahead);
	}
	if (any_blk(res))
		fprintf(f, ", \"plug\": %s", in->plug ? "true" : "false");
	fprintf(f, "},\n  \"caveats\": [");
	for (k = 0; k < nc; k++) {
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"warning\": %s, \"text\": ", k ? "," : "",
			cav[k].key, cav[k].warn ? "true" : "false");
		sr_report_json_string(f, cav[k].text);
		fputc('}', f);
	}
	fprintf(f, "],\n");
	fprintf(f, "  \"baseline\": ");
	sr_report_json_string(f, res->policy[res->baseline].name);
	fprintf(f, ",\n  \"policies\": [\n");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		uint64_t h[LOG2_BUCKETS];
		struct lat l;
		int nb = sr_hist_log2_us(&p->swapin_lat, h, LOG2_BUCKETS);

		lat_of(p, &l);
		fprintf(f, "    {\"name\": ");
		sr_report_json_string(f, p->name);
		if (p->path[0]) {
			fprintf(f, ", \"path\": ");
			sr_report_json_string(f, p->path);
		}
		if (p->noise.replicas) {
			fprintf(f, ", \"delta_verdict\": ");
			sr_report_json_string(f, verdict(res, k));
		}
		when = 1u << SR_FIG_ALWAYS | (p->blk.bios ? 1u << SR_FIG_BLOCK : 0) |
		       (p->unc.variants ? 1u << SR_FIG_UNC : 0) | (p->task ? 1u << SR_FIG_TASKS : 0) |
		       (p->noise.replicas ? 1u << SR_FIG_NOISE : 0) |
		       (task_ops(res) ? 1u << SR_FIG_TASK_OPS : 0) |
		       (out_of_order(res) ? 1u << SR_FIG_ORDER : 0) |
		       (behind(res) ? 1u << SR_FIG_BEHIND : 0) |
		       (kept(res) ? 1u << SR_FIG_KEPT : 0) |
		       (tiered(res) ? 1u << SR_FIG_TIERS : 0) |
		       (res->zswap.enabled ? 1u << SR_FIG_ZSWAP : 0);
		for (i = 0; i < SR_PF_COUNT; i++)
			pol_fig(p, &l, (enum sr_pfig)i, &pu[i], &pd[i]);
		if (put_figs(f, sr_report_pfig, SR_PF_COUNT, when, "     ", pu, pd))
			fputc('}', f);
		if (p->task) {
			size_t t;

			fprintf(f, ",\n     \"tasks\": [");
			for (t = 0; t < p->nr_tasks; t++) {
				const struct sr_task_result *x = &p->task[t];

				fprintf(f, "%s\n       {\"pid\": %" PRIu32 ", \"swapouts\": %" PRIu64
					", \"swapins\": %" PRIu64 ", \"pages_out\": %" PRIu64
					", \"pages_in\": %" PRIu64 ", \"busy_ns\": %.0f"
					", \"swapin_kib_s\": %.1f, \"swapout_kib_s\": %.1f}",
					t ? "," : "", x->pid, x->swapouts, x->swapins, x->pages_out,
					x->pages_in, round(x->busy_ns), x->swapin_kib_s, x->swapout_kib_s);
			}
			fputc(']', f);
		}
		if (p->nr_memcgs) {
			size_t t;

			fprintf(f, ",\n     \"memcgs\": [");
			for (t = 0; t < p->nr_memcgs; t++) {
				const struct sr_memcg_result *x = &p->memcg[t];
				const char *path = memcg_path(in, x->id);

				fprintf(f, "%s\n       {\"id\": %u", t ? "," : "", x->id);
				if (path[0]) {
					fprintf(f, ", \"path\": ");
					sr_report_json_string(f, path);
				}
				fprintf(f, ", \"swapouts\": %" PRIu64 ", \"swapins\": %" PRIu64
					", \"pages_out\": %" PRIu64 ", \"pages_in\": %" PRIu64
					", \"throughput_kib_s\": %.1f", x->swapouts, x->swapins,
					x->pages_out, x->pages_in, x->throughput_kib_s);
				if (x->swapins)
					fprintf(f, ", \"swapin_lat_ns\": {\"mean\": %.0f, \"max\": %.0f}",
						x->swapin_lat_mean_ns, x->swapin_lat_max_ns);
				fputc('}', f);
			}
			fputc(']', f);
		}
		fprintf(f, ",\n     \"swapin_hist_log2_us\": [");
		for (i = 0; i < nb; i++)
			fprintf(f, "%s%" PRIu64, i ? ", " : "", h[i]);
		fprintf(f, "],\n     \"devices\": [");
		for (i = 0; i < p->nr_devices; i++) {
			const struct sr_dev_result *d = &p->dev[i];

			fprintf(f, "%s\n       {\"name\": ", i ? "," : "");
			sr_report_json_string(f, d->name);
			for (j = 0; j < SR_DF_COUNT; j++)
				dev_fig(d, (enum sr_dfig)j, &du[j], &dd[j]);
			open = put_figs(f, sr_report_dfig, SR_DF_COUNT,
					1u << SR_FIG_ALWAYS | (d->bios ? 1u << SR_FIG_BLOCK : 0),
					"        ", du, dd);
			/* The block object (left open): its requests' sizes. */
			if (d->bios) {
				int top = 0;

				for (j = 0; j < SR_REQ_HIST; j++)
					if (d->req_hist[j])
						top = j + 1;
				fprintf(f, ", \"request_hist_log2_kib\": [");
				for (j = 0; j < top; j++)
					fprintf(f, "%s%" PRIu64, j ? ", " : "", d->req_hist[j]);
				fputc(']', f);
			}
			if (open)
				fputc('}', f);
			fputc('}', f);
		}
		fprintf(f, "],\n     \"links\": [");
		for (i = 0; i < p->nr_links; i++) {
			const struct sr_link_result *ln = &p->link[i];

			fprintf(f, "%s\n       {\"from\": %d, \"to\": %d, \"bytes\": %" PRIu64
				", \"utilization\": %.4f}", i ? "," : "", ln->from, ln->to,
				ln->bytes, ln->util);
		}
		fprintf(f, "]}%s\n", k + 1 < res->nr_policies ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

void sr_report_csv_string(FILE *f, const char *s)
{
	sr_csv_write(f, s);
}

/* The caveats column: every caveat as "key: text", joined by " | ", the
 * same in every row. */
static void csv_caveats(char *buf, size_t n, const struct sr_result *res,
			const struct sr_report_info *in)
{
	struct sr_caveat cav[SR_CAV_COUNT];
	int k, nc = sr_report_caveats(res, in, cav);
	size_t len = 0;

	buf[0] = '\0';
	for (k = 0; k < nc && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s: %s", k ? " | " : "", cav[k].key,
					cav[k].text);
}

/* --per-task: one row per policy and task. */
static void write_csv_tasks(FILE *f, const struct sr_result *res, const char *caveats)
{
	int k;
	size_t t;

	fprintf(f, "policy,pid,swapouts,swapins,pages_out,pages_in,busy_ns,swapin_kib_s,"
		   "swapout_kib_s,caveats\n");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];

		for (t = 0; t < p->nr_tasks; t++) {
			const struct sr_task_result *x = &p->task[t];

			fprintf(f, "%s,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%.0f,%.1f,%.1f,", p->name, x->pid, x->swapouts, x->swapins,
				x->pages_out, x->pages_in, round(x->busy_ns), x->swapin_kib_s,
				x->swapout_kib_s);
			sr_report_csv_string(f, caveats);
			fputc('\n', f);
		}
	}
}

/* After the policies' rows, a row per policy and memcg: the columns a
 * memcg has (its throughput over the policy's makespan, swap events,
 * swap-in latency mean and max), the others empty, then its id and path
 * (docs/REPORT.md, "Memory cgroups"). */
static void write_csv_memcgs(FILE *f, const struct sr_result *res, const struct sr_report_info *in,
			     const char *caveats, int blk)
{
	int k;
	size_t j;

	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];

		for (j = 0; j < p->nr_memcgs; j++) {
			const struct sr_memcg_result *x = &p->memcg[j];

			fprintf(f, "%s,%.1f,,,%" PRIu64 ",%" PRIu64 ",,,,", p->name,
				x->throughput_kib_s, x->swapouts, x->swapins);
			if (x->swapins)
				fprintf(f, "%.0f,,,,%.0f,", x->swapin_lat_mean_ns, x->swapin_lat_max_ns);
			else
				fprintf(f, ",,,,,");
			sr_report_csv_string(f, in->machine);
			fprintf(f, ",%s,%s", res->policy[res->baseline].name,
				in->slots_cache ? "on" : "off");
			if (in->kernel)
				fprintf(f, ",%u.%u", in->kernel->major, in->kernel->minor);
			else
				fputc(',', f);
			if (p->unc.variants)
				fputs(",,,,", f);
			if (noise_on(res))
				fputs(",,,", f);
			if (blk)
				fputs(",,,,,,,", f);
			fprintf(f, ",%u,", x->id);
			sr_report_csv_string(f, memcg_path(in, x->id));
			fputc(',', f);
			sr_report_csv_string(f, caveats);
			fputc('\n', f);
		}
	}
}

static void write_csv(FILE *f, const struct sr_result *res, const struct sr_report_info *in)
{
	char caveats[SR_CAV_COUNT * (sizeof(((struct sr_caveat *)0)->text) + 24)];
	int k;

	csv_caveats(caveats, sizeof(caveats), res, in);
	if (res->nr_policies && res->policy[0].task) {
		write_csv_tasks(f, res, caveats);
		return;
	}

	int blk = any_blk(res), mc = any_memcg(res);

	fprintf(f, "policy,throughput_kib_s,delta_pct,makespan_ns,swapouts,swapins,"
		   "unmatched_swapins,swap_full,moved_out_pct,swapin_mean_ns,swapin_p50_ns,"
		   "swapin_p90_ns,swapin_p99_ns,swapin_max_ns,machine,baseline,slots_cache,kernel%s%s%s%s"
		   ",caveats\n",
		res->policy[0].unc.variants ? ",variants,delta_pct_min,delta_pct_max,agree" : "",
		noise_on(res) ? ",noise_replicas,delta_noise_pct,delta_verdict" : "",
		blk ? ",plug,requests,request_kib_mean,request_kib_cv,merges,queue_share,"
		      "block_cpu_ns" : "", mc ? ",memcg,memcg_path" : "");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		struct lat l;

		lat_of(p, &l);
		fprintf(f, "%s,%.1f,%.3f,%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,",
			p->name, p->throughput_kib_s, nz(p->delta_pct, 3), p->makespan_ns, p->swapouts,
			p->swapins, p->unmatched_in, p->swap_full, pct(p->moved_out, p->swapouts));
		/* Without swap-ins, no latency: empty cells, not zeros. */
		if (p->swapin_lat.count)
			fprintf(f, "%.0f,%.0f,%.0f,%.0f,%.0f,", l.mean, l.p50, l.p90, l.p99, l.max);
		else
			fprintf(f, ",,,,,");
		sr_report_csv_string(f, in->machine);
		fprintf(f, ",%s,%s", res->policy[res->baseline].name, in->slots_cache ? "on" : "off");
		if (in->kernel)
			fprintf(f, ",%u.%u", in->kernel->major, in->kernel->minor);
		else
			fputc(',', f);
		if (p->unc.variants)
			fprintf(f, ",%d,%.3f,%.3f,%d", p->unc.variants, p->unc.min, p->unc.max,
				p->unc.agree);
		if (p->noise.replicas) {
			fprintf(f, ",%d,%.3f,", p->noise.replicas, p->noise.pct);
			sr_report_csv_string(f, verdict(res, k));
		}
		if (blk)
			fprintf(f, ",%s,%" PRIu64 ",%.2f,%.4f,%" PRIu64 ",%.4f,%.0f",
				in->plug ? "on" : "off", p->blk.reads + p->blk.writes,
				p->blk.req_kib_mean, p->blk.req_kib_cv,
				p->blk.plug_merges + p->blk.queue_merges, p->blk.queue_share,
				round(p->block_cpu_ns));
		if (mc)
			fputs(",,", f);
		fputc(',', f);
		sr_report_csv_string(f, caveats);
		fputc('\n', f);
	}
	if (mc)
		write_csv_memcgs(f, res, in, caveats, blk);
}

/* A latency of policy p's swap-ins, or n/a: it had none. */
static void us(char *buf, size_t n, double ns, const struct sr_policy_result *p)
{
	if (p->swapin_lat.count)
		snprintf(buf, n, "%.1f us", ns / 1000.0);
	else
		snprintf(buf, n, "n/a");
}

static void write_markdown(FILE *f, const struct sr_result *res, const struct sr_report_info *in)
{
	struct sr_caveat cav[SR_CAV_COUNT];
	int unc = res->policy[0].unc.variants, nc = sr_report_caveats(res, in, cav);
	int k, c = 0, noise = noise_on(res);
	char kv[400] = "";

	if (cav[0].kind == SR_CAV_MOST_NOT_REPLAYED)
		fprintf(f, "**Warning: %s.**\n\n", cav[c++].text);

	/* The kernel, and why it when no --kernel named it. */
	if (in->kernel)
		snprintf(kv, sizeof(kv), "kernel %u.%u%s%.320s%s, ", in->kernel->major,
			 in->kernel->minor, kernel_why(in) ? " (" : "",
			 kernel_why(in) ? kernel_why(in) : "", kernel_why(in) ? ")" : "");
	char mline[600];

	machine_line(mline, sizeof(mline), in);
	/* The slots cache is said only of a kernel that has one (4.11-6.14),
	 * as the text report says it. */
	fprintf(f, "swapreplay %s: `%s` (%" PRIu64 " event%s, %" PRIu64 " task%s) on machine %s, "
		   "%s%s%s%sbaseline `%s`\n\n",
		SR_VERSION_STRING, in->trace, res->events, plural(res->events), res->tasks,
		plural(res->tasks), mline, kv,
		!in->kernel || in->kernel->alloc == SR_ALLOC_SLOTS_CACHE ? "slots cache " : "",
		!in->kernel || in->kernel->alloc == SR_ALLOC_SLOTS_CACHE ?
			(in->slots_cache ? "on" : "off") : "",
		!in->kernel || in->kernel->alloc == SR_ALLOC_SLOTS_CACHE ? ", " : "",
		res->policy[res->baseline].name);
	int blk = any_blk(res);

	if (blk)
		fprintf(f, "Block plug %s.\n\n", in->plug ? "on" : "off");
	fprintf(f, "| policy | swap throughput | delta |%s%s swap-in mean | p50 | p90 | p99 | max | swap-outs moved |%s\n",
		noise ? " timing noise |" : "", unc ? " delta range | agree |" : "",
		blk ? " mean request |" : "");
	fprintf(f, "|---|---:|---:|%s%s---:|---:|---:|---:|---:|---:|%s\n", noise ? "---:|" : "",
		unc ? "---:|---:|" : "", blk ? "---:|" : "");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		char a[32], b[32], c99[32], c90[32], mx[32];
		struct lat l;

		lat_of(p, &l);
		us(a, sizeof(a), l.mean, p);
		us(b, sizeof(b), l.p50, p);
		us(c90, sizeof(c90), l.p90, p);
		us(c99, sizeof(c99), l.p99, p);
		us(mx, sizeof(mx), l.max, p);
		fprintf(f, "| %s%s | %.0f KiB/s | %+.2f %% |", p->name,
			k == res->baseline ? " (baseline)" : "", p->throughput_kib_s,
			nz(p->delta_pct, 2));
		if (noise)
			fprintf(f, " +-%.2f %%%s%s |", p->noise.pct,
				sr_delta_in_noise(p) ? ", " : "", sr_delta_in_noise(p) ? SR_WITHIN_NOISE : "");
		if (unc)
			fprintf(f, " %+.2f .. %+.2f %% | %d/%d |", nz(p->unc.min, 2), nz(p->unc.max, 2),
				p->unc.agree, p->unc.variants);
		fprintf(f, " %s | %s | %s | %s | %s | %.1f %% |", a, b, c90, c99, mx,
			pct(p->moved_out, p->swapouts));
		if (blk)
			fprintf(f, " %.1f KiB |", p->blk.req_kib_mean);
		fputc('\n', f);
	}
	if (any_memcg(res)) {
		size_t j;

		fprintf(f, "\nPer memory cgroup (its pages' swap events, whoever reclaimed them; "
			   "throughput over the policy's simulated time):\n\n");
		fprintf(f, "| policy | memcg | path | pages out | pages in | swap throughput | "
			   "swap-in mean | max |\n|---|---:|---|---:|---:|---:|---:|---:|\n");
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			for (j = 0; j < p->nr_memcgs; j++) {
				const struct sr_memcg_result *x = &p->memcg[j];
				const char *path = memcg_path(in, x->id);

				fprintf(f, "| %s | %u | ", p->name, x->id);
				/* A path's '|' would end its cell. */
				for (; *path; path++)
					fputs(*path == '|' ? "\\|" : (char[]){ *path, 0 }, f);
				fprintf(f, " | %" PRIu64 " | %" PRIu64 " | %.0f KiB/s |", x->pages_out,
					x->pages_in, x->throughput_kib_s);
				if (x->swapins)
					fprintf(f, " %.1f us | %.1f us |\n", x->swapin_lat_mean_ns / 1e3,
						x->swapin_lat_max_ns / 1e3);
				else
					fprintf(f, " n/a | n/a |\n");
			}
		}
	}
	if (res->nr_policies && res->policy[0].task) {
		fprintf(f, "\nPer-task throughput, summed over the tasks (as vm-scalability adds up its processes):");
		for (k = 0; k < res->nr_policies; k++)
			fprintf(f, "%s `%s` swap-in %.0f KiB/s, swap-out %.0f KiB/s", k ? ";" : "",
				res->policy[k].name, res->policy[k].task_swapin_kib_s_sum,
				res->policy[k].task_swapout_kib_s_sum);
		fprintf(f, ".\n");
	}
	if (in->check_recorded)
		write_recorded_markdown(f, res);
	fprintf(f, "\nCaveats:\n\n");
	for (; c < nc; c++)
		fprintf(f, "- %s: %s\n", cav[c].label, cav[c].text);
}

/* ---- table: for a mailing list ------------------------------------------ */

#define TABLE_COLS 76

/* How many bytes of s, at most max, end on a UTF-8 character's boundary
 * (at least one character's, so that a line always moves on). */
static int utf8_cut(const char *s, int max)
{
	int n = max;

	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	if (n > 0)
		return n;
	for (n = 1; ((unsigned char)s[n] & 0xC0) == 0x80; n++)
		;
	return n;
}

/* The columns a UTF-8 text of len bytes takes: one per character. */
static int utf8_width(const char *s, int len)
{
	int i, w = 0;

	for (i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

/* The words of s printed after what fills columns [0, at), a space
 * before each, wrapped within TABLE_COLS; further lines indented by ind.
 * A word longer than a whole line (a path) is cut where the line ends. */
static void wrap(FILE *f, const char *s, int at, int ind)
{
	int fresh = 0; /* at the start of a continuation line */

	for (;;) {
		int len, w;

		while (*s == ' ')
			s++;
		for (len = 0; s[len] && s[len] != ' '; len++)
			;
		if (!len)
			break;
		w = utf8_width(s, len);
		if (!fresh && at + 1 + w > TABLE_COLS && at > ind &&
		    (w <= TABLE_COLS - ind || TABLE_COLS - at < 8)) {
			fprintf(f, "\n%*s", ind, "");
			at = ind;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', f);
			at++;
		}
		while (at + w > TABLE_COLS) {
			/* What fits of the word, then the rest on the next line. */
			int cut = utf8_cut(s, TABLE_COLS - at > 0 ? TABLE_COLS - at : 1);

			fprintf(f, "%.*s\n%*s", cut, s, ind, "");
			s += cut;
			len -= cut;
			w = utf8_width(s, len);
			at = ind;
		}
		fprintf(f, "%.*s", len, s);
		at += w;
		s += len;
		fresh = 0;
	}
	fputc('\n', f);
}

/* One caveat of the footer: "label: text", wrapped. */
static void note(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(FILE *f, const char *label, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "%s:", label);
	wrap(f, buf, (int)strlen(label) + 1, 2);
}

/*
 * Aligned columns within 76 characters, units in the header, and the
 * caveats a reader needs in the footer, so that a table pasted into a
 * patch discussion carries them: where the machine came from, a derived
 * trace, the kernel generation, the plug, and how sure the deltas are.
 */
static void write_table(FILE *f, const struct sr_result *res, const struct sr_report_info *in)
{
	struct sr_caveat cav[SR_CAV_COUNT];
	int k, w = 6, unc = res->policy[0].unc.variants, blk = any_blk(res);
	int c, nc = sr_report_caveats(res, in, cav);
	char mline[600], kd[160];

	if (cav[0].kind == SR_CAV_MOST_NOT_REPLAYED) {
		note(f, cav[0].label, "%s", cav[0].text);
		fputc('\n', f);
	}

	for (k = 0; k < res->nr_policies; k++) {
		int n = (int)strlen(res->policy[k].name) + (k == res->baseline);

		if (n > w)
			w = n;
	}
	if (w > 21)
		w = 21;
	fprintf(f, "%-*s %10s %7s %8s %8s %8s %8s\n", w, "policy", "swap", "delta", "in mean",
		"in p50", "in p90", "in p99");
	fprintf(f, "%-*s %10s %7s %8s %8s %8s %8s\n", w, "", "KiB/s", "%", "us", "us", "us", "us");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		char name[64];
		struct lat l;

		lat_of(p, &l);
		snprintf(name, sizeof(name), "%.*s%s", k == res->baseline ? w - 1 : w, p->name,
			 k == res->baseline ? "*" : "");
		fprintf(f, "%-*s %10.0f %+7.2f", w, name, p->throughput_kib_s, nz(p->delta_pct, 2));
		if (p->swapin_lat.count)
			fprintf(f, " %8.1f %8.1f %8.1f %8.1f\n", l.mean / 1e3, l.p50 / 1e3,
				l.p90 / 1e3, l.p99 / 1e3);
		else
			fprintf(f, " %8s %8s %8s %8s\n", "n/a", "n/a", "n/a", "n/a");
	}
	if (noise_on(res)) {
		fprintf(f, "\n%-*s %7s %7s\n", w, "policy", "delta", "noise");
		fprintf(f, "%-*s %7s %7s\n", w, "", "%", "+- %");
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			fprintf(f, "%-*.*s %+7.2f %7.2f  %s\n", w, w, p->name, nz(p->delta_pct, 2),
				p->noise.pct, verdict(res, k));
		}
	}
	if (unc) {
		fprintf(f, "\n%-*s %19s %7s\n", w, "policy", "delta range %", "agree");
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];
			char rg[48];

			snprintf(rg, sizeof(rg), "%+.2f .. %+.2f", nz(p->unc.min, 2), nz(p->unc.max, 2));
			fprintf(f, "%-*.*s %19s %4d/%d\n", w, w, p->name, rg, p->unc.agree,
				p->unc.variants);
		}
	}
	if (blk) {
		fprintf(f, "\n%-*s %10s %9s %6s %10s %10s\n", w, "policy", "requests", "mean", "CV",
			"merges", "block CPU");
		fprintf(f, "%-*s %10s %9s %6s %10s %10s\n", w, "", "", "KiB", "", "", "ms");
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			fprintf(f, "%-*.*s %10" PRIu64 " %9.1f %6.2f %10" PRIu64 " %10.1f\n", w, w,
				p->name, p->blk.reads + p->blk.writes, p->blk.req_kib_mean,
				p->blk.req_kib_cv, p->blk.plug_merges + p->blk.queue_merges,
				p->block_cpu_ns / 1e6);
		}
	}
	write_memcgs_text(f, res, in, w);
	fputc('\n', f);
	note(f, "*", "baseline: deltas are throughput against %s, + faster",
	     res->policy[res->baseline].name);
	note(f, "trace", "%s, %" PRIu64 " event%s, %" PRIu64 " task%s%s%s", in->trace, res->events,
	     plural(res->events), res->tasks, plural(res->tasks), in->derived ? "; " : "",
	     in->derived ? in->derived : "");
	machine_line(mline, sizeof(mline), in);
	note(f, "machine", "%s", mline);
	if (in->kernel)
		note(f, "kernel", "%s%s%s%s", sr_kernel_describe(in->kernel, kd, sizeof(kd)),
		     kernel_why(in) ? " (" : "", kernel_why(in) ? kernel_why(in) : "",
		     kernel_why(in) ? ")" : "");
	if (in->readahead)
		note(f, "readahead", "%s", in->readahead);
	if (blk)
		note(f, "block plug", "%s", in->plug ? "on" : "off");
	/* The caveats: the first is above the table already; a derived
	 * trace is said with the trace, and readahead's with readahead. */
	for (c = cav[0].kind == SR_CAV_MOST_NOT_REPLAYED; c < nc; c++)
		if (cav[c].kind != SR_CAV_DERIVED && cav[c].kind != SR_CAV_READAHEAD)
			note(f, cav[c].label, "%s", cav[c].text);
}

static void write_text(FILE *f, const struct sr_result *res, const struct sr_report_info *in)
{
	struct sr_caveat cav[SR_CAV_COUNT];
	int k, i, c, nc = sr_report_caveats(res, in, cav);
	char mline[600];

	if (cav[0].kind == SR_CAV_MOST_NOT_REPLAYED)
		fprintf(f, "warning:     %s\n", cav[0].text);
	machine_line(mline, sizeof(mline), in);
	fprintf(f, "trace:       %s (%" PRIu64 " event%s, %" PRIu64 " task%s)\n", in->trace,
		res->events, plural(res->events), res->tasks, plural(res->tasks));
	if (in->derived)
		fprintf(f, "trace note:  %s\n", in->derived);
	fprintf(f, "machine:     %s\n", mline);
	if (in->kernel) {
		char kd[160];

		fprintf(f, "kernel:      %s\n", sr_kernel_describe(in->kernel, kd, sizeof(kd)));
		if (kernel_why(in))
			fprintf(f, "kernel from: %s\n", kernel_why(in));
	}
	if (in->readahead)
		fprintf(f, "readahead:   %s\n", in->readahead);
	if (!in->kernel || in->kernel->alloc == SR_ALLOC_SLOTS_CACHE)
		fprintf(f, "slots cache: %s\n", in->slots_cache ? "on (per-CPU, kernels 4.11-6.14)"
							      : "off (every allocation walks a node list)");
	if (any_blk(res))
		fprintf(f, "block plug:  %s\n", in->plug ?
			"on (a task's swap writes of one reclaim pass, 32 pages, merge there)" :
			"off (every swap write goes to its device's queue alone)");
	fprintf(f, "baseline:    %s\n", res->policy[res->baseline].name);
	/* The caveats but those said above (a derived trace, readahead) and
	 * the boilerplate of the formats for pasting (uncertainty, model). */
	for (c = 0; c < nc; c++)
		if (cav[c].kind != SR_CAV_MOST_NOT_REPLAYED && cav[c].kind != SR_CAV_DERIVED &&
		    cav[c].kind != SR_CAV_UNCERTAINTY && cav[c].kind != SR_CAV_MODEL &&
		    (cav[c].kind != SR_CAV_READAHEAD || !in->readahead))
			fprintf(f, "note:        %s%s%s\n", cav[c].kind == SR_CAV_LATE ? "" : cav[c].label,
				cav[c].kind == SR_CAV_LATE ? "" : ": ", cav[c].text);
	fprintf(f, "\n%-22s %14s %9s%s %10s %10s %10s %10s %10s %7s\n", "policy", "KiB/s", "delta",
		noise_on(res) ? "    noise" : "", "in mean", "in p50", "in p90", "in p99", "in max",
		"moved");
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		struct lat l;

		lat_of(p, &l);
		fprintf(f, "%-22s %14.0f %+8.2f%%", p->name, p->throughput_kib_s, nz(p->delta_pct, 2));
		if (noise_on(res))
			fprintf(f, " +-%5.2f%%", p->noise.pct);
		if (p->swapin_lat.count)
			fprintf(f, " %8.1fus %8.1fus %8.1fus %8.1fus %8.1fus", l.mean / 1e3, l.p50 / 1e3,
				l.p90 / 1e3, l.p99 / 1e3, l.max / 1e3);
		else
			fprintf(f, " %10s %10s %10s %10s %10s", "n/a", "n/a", "n/a", "n/a", "n/a");
		fprintf(f, " %6.1f%%%s%s\n", pct(p->moved_out, p->swapouts),
			sr_delta_in_noise(p) ? "  " : "", sr_delta_in_noise(p) ? SR_WITHIN_NOISE : "");
	}
	write_memcgs_text(f, res, in, 22);
	if (res->policy[0].unc.variants) {
		fprintf(f, "\ndelta over %d variants of the machine (every figure within a factor %.2f):\n",
			res->policy[0].unc.variants, 1 + res->policy[0].unc.range);
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			int side = sr_delta_side_noise(p, p->delta_pct);

			fprintf(f, "%-22s %+8.2f%% .. %+8.2f%%   %d/%d agree on %s\n", p->name,
				nz(p->unc.min, 2), nz(p->unc.max, 2), p->unc.agree, p->unc.variants,
				side > 0 ? "faster" : side < 0 ? "slower" :
				sr_delta_in_noise(p) ? SR_WITHIN_NOISE : "no difference (within 1 %)");
		}
	}
	if (in->check_recorded)
		write_recorded_text(f, res);
	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		uint64_t h[LOG2_BUCKETS], top = 0;
		int nb = sr_hist_log2_us(&p->swapin_lat, h, LOG2_BUCKETS);

		fprintf(f, "\n== %s ==\n", p->name);
		fprintf(f, "swap-outs %" PRIu64 " (%" PRIu64 " pages), swap-ins %" PRIu64
			" (%" PRIu64 " pages), unmatched swap-ins %" PRIu64 ", swap full %" PRIu64,
			p->swapouts, p->pages_out, p->swapins, p->pages_in, p->unmatched_in,
			p->swap_full);
		if (p->tiered)
			fprintf(f, " (%" PRIu64 " of them its memcg's tiers full)", p->tier_full);
		fputc('\n', f);
		if (res->zswap.enabled)
			fprintf(f, "zswap: %" PRIu64 " pages stored compressed, %" PRIu64 " zero, %" PRIu64
				" whole; refused (written to the devices): %" PRIu64 " pool full, %" PRIu64
				" not compressing, %" PRIu64 " large folio; %" PRIu64 " loaded, %" PRIu64
				" written back by the shrink worker (the limit hit %" PRIu64 " times); "
				"pool at most %.1f MiB; compression CPU %.6f s\n",
				p->zs.stored, p->zs.zero, p->zs.whole, p->zs.rej_full, p->zs.rej_poor,
				p->zs.rej_large, p->zs.loads, p->zs.written_back, p->zs.limit_hit,
				p->zs.pool_peak_bytes / 1048576.0, p->zs.cpu_ns / 1e9);
		/* cache_refills: the slots cache's (4.11-6.14), else a CPU's
		 * new current cluster (6.15 on). */
		fprintf(f, "%s %" PRIu64 ", direct allocations %" PRIu64
			", simulated time %.6f s\n",
			in->kernel && in->kernel->alloc == SR_ALLOC_CLUSTER ? "per-CPU cluster refills" :
			"slots cache refills", p->cache_refills, p->direct_allocs,
			p->makespan_ns / 1e9);
		if (p->task)
			fprintf(f, "per-task throughput, summed over %zu task%s: swap-in %.0f KiB/s, swap-out %.0f KiB/s\n",
				p->nr_tasks, plural(p->nr_tasks), p->task_swapin_kib_s_sum, p->task_swapout_kib_s_sum);
		fprintf(f, "tasks waited (summed): %.6f s for a CPU, %.6f s for si->lock, %.6f s for the LRU lock",
			p->wait_cpu_ns / 1e9, p->wait_si_lock_ns / 1e9, p->wait_lru_lock_ns / 1e9);
		if (p->wait_swap_cache_lock_ns > 0)
			fprintf(f, ", %.6f s for the swap cache lock", p->wait_swap_cache_lock_ns / 1e9);
		fputc('\n', f);
		if (in->readahead_on)
			fprintf(f, "readahead: %" PRIu64 " pages read ahead; %" PRIu64 " swap-ins found "
				   "their page in the swap cache (%.1f %% of the pages read ahead), %"
				   PRIu64 " reclaimed unused\n",
				p->readahead_pages, p->swapcache_hits,
				p->readahead_pages ? 100.0 * (double)p->swapcache_hits /
						     (double)p->readahead_pages : 0.0,
				p->readahead_dropped);
		if (in->readahead_on) {
			fprintf(f, "read ahead per device:");
			for (i = 0; i < p->nr_devices; i++)
				fprintf(f, " %s %" PRIu64 " pages%s", p->dev[i].name,
					p->dev[i].readahead_pages, i + 1 < p->nr_devices ? "," : "\n");
		}
		if (p->stale_requests)
			fprintf(f, "requests %" PRIu64 " more than half a calendar window (82 ms; 8.2 s on an hdd; 41 ms on a swap cache trunk's lock) behind the latest on their resource "
				   "(played that late): served without contention\n",
				p->stale_requests);
		fprintf(f, "swap-in latency (us):\n");
		for (i = 0; i < nb; i++)
			if (h[i] > top)
				top = h[i];
		for (i = 0; i < nb; i++) {
			int bar = top ? (int)(40.0 * (double)h[i] / (double)top + 0.5) : 0;

			fprintf(f, "  [%7llu, %7llu) %10" PRIu64 " |%.*s\n",
				i ? 1ull << i : 0ull, 1ull << (i + 1), h[i], bar,
				"########################################");
		}
		fprintf(f, "%-12s %10s %10s %12s %12s %7s\n", "device", "reads", "writes",
			"read", "written", "util");
		for (i = 0; i < p->nr_devices; i++) {
			const struct sr_dev_result *d = &p->dev[i];
			char rb[32], wb[32];

			bytes_h(rb, sizeof(rb), d->read_bytes);
			bytes_h(wb, sizeof(wb), d->write_bytes);
			fprintf(f, "%-12s %10" PRIu64 " %10" PRIu64 " %12s %12s %6.1f%%\n", d->name,
				d->reads, d->writes, rb, wb, 100.0 * d->util);
		}
		for (i = 0; i < p->nr_devices; i++) {
			const struct sr_dev_result *d = &p->dev[i];
			int j, hi = 0;

			if (!d->bios)
				continue;
			fprintf(f, "%-12s %" PRIu64 " bio%s in %" PRIu64 " request%s (%" PRIu64
				" merged in plugs, %" PRIu64 " in the queue), mean %.1f KiB, "
				"CV %.2f, %.1f %% of their time queued\n", d->name, d->bios,
				d->bios == 1 ? "" : "s", d->reads + d->writes,
				d->reads + d->writes == 1 ? "" : "s", d->plug_merges, d->queue_merges,
				d->req_kib_mean, d->req_kib_cv, 100.0 * d->queue_share);
			for (j = 0; j < SR_REQ_HIST; j++)
				if (d->req_hist[j])
					hi = j + 1;
			fprintf(f, "%-12s request sizes (KiB):", "");
			for (j = 0; j < hi; j++)
				fprintf(f, " %llu%s:%" PRIu64, 4ull << j, j == SR_REQ_HIST - 1 ? "+" : "",
					d->req_hist[j]);
			fputc('\n', f);
		}
		if (p->blk.bios)
			fprintf(f, "block layer CPU: %.6f s (%.6f s of it waiting for queue locks)\n",
				p->block_cpu_ns / 1e9, p->wait_queue_lock_ns / 1e9);
		for (i = 0; i < p->nr_links; i++) {
			char lb[32];

			bytes_h(lb, sizeof(lb), p->link[i].bytes);
			fprintf(f, "link %d->%d   %12s %6.1f%%\n", p->link[i].from, p->link[i].to, lb,
				100.0 * p->link[i].util);
		}
	}
}

enum sr_err sr_report_write(FILE *f, const struct sr_result *res,
			    const struct sr_report_info *info, enum sr_report_fmt fmt)
{
	switch (fmt) {
	case SR_REPORT_JSON: write_json(f, res, info); break;
	case SR_REPORT_CSV: write_csv(f, res, info); break;
	case SR_REPORT_MARKDOWN: write_markdown(f, res, info); break;
	case SR_REPORT_TABLE: write_table(f, res, info); break;
	default: write_text(f, res, info); break;
	}
	return ferror(f) ? SR_ERR_IO : SR_OK;
}
