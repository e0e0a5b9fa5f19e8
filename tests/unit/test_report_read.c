/*
 * A replay report's JSON written (src/report/report.c) and read back
 * (src/report/report_read.c) by one table of figures (src/report/figures.c):
 * every number the writer gives a policy or a device is a figure of the
 * table, read back as written, and every figure of the table the writer
 * gives is there.  A key written outside the table (a figure the reader
 * would not know), or a row the writer does not write, fails here.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/hist.h"
#include "report/report_read.h"
#include "swapreplay/kernel.h"
#include "swapreplay/report.h"
#include "test.h"

/* Members of a policy's or a device's object that are no figures: names,
 * lists and histograms, which the reader does not read. */
static const char *const pol_other[] = { "name", "path", "tasks", "swapin_hist_log2_us",
					 "devices", "links", NULL };
static const char *const dev_other[] = { "name", "request_hist_log2_kib", NULL };

static int listed(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (!strcmp(*list, key))
			return 1;
	return 0;
}

/* The row of t[0..n) of object obj (NULL: the policy's or device's own
 * members) and key, or -1. */
static int row_of(const struct sr_report_fig *t, int n, const char *obj, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].key, key) &&
		    (obj ? t[i].obj && !strcmp(t[i].obj, obj) : !t[i].obj))
			return i;
	return -1;
}

/* Every member of o (a policy or a device as written; objects of figures
 * one level down) is a row of t or listed in other: the count of those
 * that are neither, each said. */
static int unknown_members(const json_t *o, const struct sr_report_fig *t, int n,
			   const char *const *other, const char *what)
{
	const char *key, *k2;
	const json_t *x, *y;
	int bad = 0;

	json_object_foreach((json_t *)o, key, x) {
		if (listed(other, key))
			continue;
		if (json_is_number(x)) {
			if (row_of(t, n, NULL, key) < 0) {
				printf("FAIL %s: %s writes %s, no figure of the table\n", test_name,
				       what, key);
				bad++;
			}
			continue;
		}
		if (!json_is_object(x)) {
			printf("FAIL %s: %s writes %s, neither a figure nor a known list\n",
			       test_name, what, key);
			bad++;
			continue;
		}
		json_object_foreach((json_t *)x, k2, y)
			if (!listed(other, k2) && (!json_is_number(y) || row_of(t, n, key, k2) < 0)) {
				printf("FAIL %s: %s writes %s.%s, no figure of the table\n", test_name,
				       what, key, k2);
				bad++;
			}
	}
	return bad;
}

/*
 * Each row of t[0..n): when its condition is in given (bits 1 << enum
 * sr_fig_when), the written o has it and the reader's v has the same
 * value; when not, neither has it.  The count of rows that fail, each
 * said.
 */
static int rows_read(const json_t *o, const struct sr_report_fig *t, int n, unsigned given,
		     const struct sr_report_num *v, const char *what)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		const json_t *x = t[i].obj ? json_object_get(json_object_get(o, t[i].obj), t[i].key)
					   : json_object_get(o, t[i].key);
		int want = !!(given & 1u << t[i].when);

		if (want && (!json_is_number(x) || !v[i].has || v[i].v != json_number_value(x))) {
			printf("FAIL %s: %s's %s%s%s: written %s, read %s %g\n", test_name, what,
			       t[i].obj ? t[i].obj : "", t[i].obj ? "." : "", t[i].key,
			       x ? "yes" : "no", v[i].has ? "as" : "not", v[i].v);
			bad++;
		} else if (!want && (x || v[i].has)) {
			printf("FAIL %s: %s's %s%s%s is given without its condition\n", test_name,
			       what, t[i].obj ? t[i].obj : "", t[i].obj ? "." : "", t[i].key);
			bad++;
		}
	}
	return bad;
}

static void report_json_round_trip(void)
{
	static struct sr_policy_result pol[2];
	static struct sr_dev_result dev[2][2];
	static struct sr_task_result task[2];
	static struct sr_link_result link[1];
	struct sr_result res;
	struct sr_report_info in;
	struct sr_kernel kern;
	struct sr_caveat cav[SR_CAV_COUNT];
	struct sr_report_doc doc;
	struct sr_diag d;
	char path[] = "/tmp/sr-unit-report-XXXXXX";
	json_error_t je;
	json_t *root = NULL;
	FILE *f = NULL;
	int fd = mkstemp(path), i, k, nc, bad = 0, warned = 0;

	memset(&res, 0, sizeof(res));
	memset(&in, 0, sizeof(in));
	memset(&doc, 0, sizeof(doc));
	CHECK(sr_kernel_parse("6.6", &kern, &d) == SR_OK);
	/* A policy with everything a replay may give (the block layer,
	 * --uncertainty, --per-task) and one with none of it; every figure
	 * a value of its own. */
	for (k = 0; k < 2; k++) {
		struct sr_policy_result *p = &pol[k];
		double base = 1000 * (k + 1);

		snprintf(p->name, sizeof(p->name), k ? "beta" : "alpha");
		p->makespan_ns = base * 1e3 + 7;
		p->throughput_kib_s = base + 0.26;
		p->delta_pct = k ? -12.3456 : 0;
		p->swapouts = 11 + k, p->swapins = 12 + k, p->pages_out = 13 + k, p->pages_in = 14 + k;
		p->unmatched_in = 15 + k, p->unmatched_nodev = 16 + k, p->swap_full = 17 + k;
		p->moved_out = 3 + k, p->cache_refills = 18 + k, p->direct_allocs = 19 + k;
		p->stale_requests = 20 + k;
		p->wait_cpu_ns = base + 21, p->wait_si_lock_ns = base + 22;
		p->wait_lru_lock_ns = base + 23, p->wait_swap_cache_lock_ns = base + 24;
		p->readahead_pages = 25 + k, p->swapcache_hits = 26 + k, p->readahead_dropped = 27 + k;
		p->swapout_lat_mean_ns = base + 28.4;
		for (i = 0; i < 5; i++)
			sr_hist_add(&p->swapin_lat, 5000 * (i + 1) + base);
		p->nr_devices = 2;
		p->dev = dev[k];
		for (i = 0; i < 2; i++) {
			struct sr_dev_result *x = &dev[k][i];

			snprintf(x->name, sizeof(x->name), "nvme%d", i);
			x->reads = 31 + i, x->writes = 32 + i, x->read_bytes = 33 + i;
			x->write_bytes = 34 + i, x->readahead_pages = 35 + i;
			x->util = 0.1234 + i / 10.0;
			if (i || k)
				continue;
			/* The first device of the first policy: the block layer. */
			x->bios = 36, x->plug_merges = 2, x->queue_merges = 1;
			x->req_hist[0] = 30, x->req_hist[3] = 2;
			x->req_kib_mean = 5.67, x->req_kib_cv = 0.4321, x->queue_share = 0.0987;
		}
		p->nr_links = 1;
		p->link = link;
	}
	link[0].from = 0, link[0].to = 1, link[0].bytes = 4096, link[0].util = 0.01;
	pol[0].blk = dev[0][0];
	pol[0].blk.name[0] = '\0';
	pol[0].block_cpu_ns = 37000.4, pol[0].wait_queue_lock_ns = 380.6;
	pol[0].unc.variants = 8, pol[0].unc.agree = 6, pol[0].unc.range = 0.25;
	pol[0].unc.min = -1.5, pol[0].unc.max = 2.25;
	task[0].pid = 1, task[0].swapouts = 5, task[0].swapin_kib_s = 10.5;
	task[1].pid = 2, task[1].swapins = 6, task[1].swapout_kib_s = 20.5;
	pol[0].task = task, pol[0].nr_tasks = 2;
	pol[0].task_swapin_kib_s_sum = 41.5, pol[0].task_swapout_kib_s_sum = 42.5;
	res.events = 100, res.swapins = 40, res.tasks = 2, res.nr_policies = 2;
	/* Task ops: every policy's tasks_alive_max is given. */
	res.forks = 1, res.exits = 1, res.waits = 1, res.tasks_forked = 1, res.tasks_unforked = 1;
	pol[0].tasks_alive_max = 43, pol[1].tasks_alive_max = 44;
	res.policy = pol;
	in.trace = "t.swt", in.machine = "2s-nvme2", in.machine_origin = "preset";
	in.slots_cache = 1, in.plug = 1, in.kernel = &kern;
	in.readahead = "cluster (by swap offset)", in.readahead_on = 1;

	CHECK(fd >= 0 && (f = fdopen(fd, "w")) != NULL);
	if (!f)
		goto out;
	CHECK(sr_report_write(f, &res, &in, SR_REPORT_JSON) == SR_OK);
	CHECK(fclose(f) == 0);
	root = json_load_file(path, 0, &je);
	CHECK(json_is_object(root));
	CHECK(sr_report_doc_read(&doc, path, &d) == SR_OK);
	if (!root || doc.npol != 2)
		goto out;

	/* The header. */
	CHECK(!strcmp(doc.file, path) && !strcmp(doc.path, "t.swt"));
	CHECK(doc.events == 100 && doc.tasks == 2);
	CHECK(!strcmp(doc.machine, "2s-nvme2") && !strcmp(doc.origin, "preset"));
	CHECK(!strcmp(doc.kernel, "6.6") && !strcmp(doc.readahead, "cluster (by swap offset)"));
	CHECK(doc.slots == 1 && doc.plug == 1 && !strcmp(doc.baseline, "alpha"));
	nc = sr_report_caveats(&res, &in, cav);
	for (i = 0; i < nc; i++)
		if (cav[i].warn) {
			warned++;
			CHECK(doc.warnings && strstr(doc.warnings, cav[i].text));
		}
	CHECK(warned > 0);

	/* Every figure, both ways. */
	for (k = 0; k < 2; k++) {
		const json_t *po = json_array_get(json_object_get(root, "policies"), (size_t)k);
		const struct sr_report_doc_pol *rp = &doc.pol[k];
		unsigned given = 1u << SR_FIG_ALWAYS | 1u << SR_FIG_TASK_OPS;

		if (!k)
			given |= 1u << SR_FIG_BLOCK | 1u << SR_FIG_UNC | 1u << SR_FIG_TASKS;
		CHECK(!strcmp(rp->name, pol[k].name) && rp->ndev == 2);
		bad += unknown_members(po, sr_report_pfig, SR_PF_COUNT, pol_other, rp->name);
		bad += rows_read(po, sr_report_pfig, SR_PF_COUNT, given, rp->fig, rp->name);
		for (i = 0; i < 2 && (size_t)i < rp->ndev; i++) {
			const json_t *dv = json_array_get(json_object_get(po, "devices"), (size_t)i);
			char what[160];

			snprintf(what, sizeof(what), "%s's %s", rp->name, rp->dev[i].name);
			CHECK(!strcmp(rp->dev[i].name, dev[k][i].name));
			bad += unknown_members(dv, sr_report_dfig, SR_DF_COUNT, dev_other, what);
			bad += rows_read(dv, sr_report_dfig, SR_DF_COUNT,
					 1u << SR_FIG_ALWAYS | (dev[k][i].bios ? 1u << SR_FIG_BLOCK : 0),
					 rp->dev[i].fig, what);
		}
	}
	CHECK(bad == 0);

	/* And the values are the replay's, as the writer rounds them. */
	CHECK(doc.pol[0].fig[SR_PF_THROUGHPUT].v == 1000.3);
	CHECK(doc.pol[1].fig[SR_PF_DELTA].v == -12.346);
	CHECK(doc.pol[0].fig[SR_PF_SWAP_FULL].v == 17 && doc.pol[1].fig[SR_PF_DIRECT_ALLOCS].v == 20);
	CHECK(doc.pol[0].fig[SR_PF_MOVED_OUT_PCT].v == 27.273); /* 3 of 11 */
	CHECK(doc.pol[0].fig[SR_PF_LAT_MAX].v == 26000);
	CHECK(doc.pol[0].fig[SR_PF_SWAPOUT_LAT_MEAN].v == 1028);
	CHECK(doc.pol[0].fig[SR_PF_BLK_REQUESTS].v == 63 && doc.pol[0].fig[SR_PF_BLK_MERGES].v == 3);
	CHECK(doc.pol[0].fig[SR_PF_U_RANGE].v == 25 && doc.pol[0].fig[SR_PF_U_AGREE].v == 6);
	CHECK(doc.pol[0].fig[SR_PF_TASK_SWAPOUT_SUM].v == 42.5);
	CHECK(doc.pol[0].dev[1].fig[SR_DF_UTIL].v == 0.2234);
	CHECK(doc.pol[0].dev[0].fig[SR_DF_BLK_QUEUE_SHARE].v == 0.0987);
	CHECK(!doc.pol[1].fig[SR_PF_U_VARIANTS].has && !doc.pol[0].dev[1].fig[SR_DF_BLK_BIOS].has);
out:
	json_decref(root);
	sr_report_doc_clear(&doc);
	CHECK(doc.npol == 0 && !doc.file);
	if (fd >= 0)
		unlink(path);
}

/* Each row of the tables is a figure: a key, decimals the writer can
 * write, and a precision for compare's changes. */
static void report_fig_tables(void)
{
	int i, bad = 0;

	for (i = 0; i < SR_PF_COUNT; i++)
		bad += !sr_report_pfig[i].key || sr_report_pfig[i].dec < SR_FIG_WHOLE ||
		       sr_report_pfig[i].dec > 6;
	for (i = 0; i < SR_DF_COUNT; i++)
		bad += !sr_report_dfig[i].key || sr_report_dfig[i].dec < SR_FIG_WHOLE ||
		       sr_report_dfig[i].dec > 6;
	CHECK(bad == 0);
	CHECK(sr_report_fig_res(&sr_report_pfig[SR_PF_DELTA]) == 0.001);
	CHECK(sr_report_fig_res(&sr_report_pfig[SR_PF_THROUGHPUT]) == 0.1);
	CHECK(sr_report_fig_res(&sr_report_dfig[SR_DF_UTIL]) == 0.0001);
	CHECK(sr_report_fig_res(&sr_report_pfig[SR_PF_SWAPOUTS]) == 1);
}

void suite_report_read(void)
{
	TEST(report_fig_tables);
	TEST(report_json_round_trip);
}
