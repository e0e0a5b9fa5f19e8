/* SPDX-License-Identifier: MIT */
/*
 * The tables of a replay report's figures (figures.h): what the JSON
 * writer (report.c) writes of a policy and of each of its devices, and
 * what the reader (report_read.c) reads back.  A row's order is the
 * order written; nl begins a line of the JSON.
 */
#include <stddef.h>

#include "report/figures.h"

#define W SR_FIG_WHOLE

const struct sr_report_fig sr_report_pfig[SR_PF_COUNT] = {
	[SR_PF_THROUGHPUT] = { NULL, "throughput_kib_s", 1, SR_FIG_ALWAYS, 0 },
	[SR_PF_DELTA] = { NULL, "delta_pct", 3, SR_FIG_ALWAYS, 0 },
	[SR_PF_NOISE] = { NULL, "delta_noise_pct", 3, SR_FIG_NOISE, 0 },
	[SR_PF_MAKESPAN] = { NULL, "makespan_ns", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_SWAPOUTS] = { NULL, "swapouts", W, SR_FIG_ALWAYS, 1 },
	[SR_PF_SWAPINS] = { NULL, "swapins", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_PAGES_OUT] = { NULL, "pages_out", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_PAGES_IN] = { NULL, "pages_in", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_UNMATCHED] = { NULL, "unmatched_swapins", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_UNMATCHED_NODEV] = { NULL, "unmatched_no_device", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_SWAP_FULL] = { NULL, "swap_full", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_TIER_FULL] = { NULL, "tier_full", W, SR_FIG_TIERS, 0 },
	[SR_PF_MOVED_OUT] = { NULL, "moved_out", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_MOVED_OUT_PCT] = { NULL, "moved_out_pct", 3, SR_FIG_ALWAYS, 0 },
	[SR_PF_CACHE_REFILLS] = { NULL, "cache_refills", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_DIRECT_ALLOCS] = { NULL, "direct_allocs", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_SLOTS_KEPT] = { NULL, "slots_kept", W, SR_FIG_KEPT, 0 },
	[SR_PF_KEPT_REWRITTEN] = { NULL, "kept_rewritten", W, SR_FIG_KEPT, 0 },
	[SR_PF_KEPT_RECLAIMED] = { NULL, "kept_reclaimed", W, SR_FIG_KEPT, 0 },
	[SR_PF_LAT_MEAN] = { "swapin_lat_ns", "mean", 0, SR_FIG_ALWAYS, 1 },
	[SR_PF_LAT_P50] = { "swapin_lat_ns", "p50", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_LAT_P90] = { "swapin_lat_ns", "p90", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_LAT_P99] = { "swapin_lat_ns", "p99", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_LAT_MAX] = { "swapin_lat_ns", "max", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_SWAPOUT_LAT_MEAN] = { NULL, "swapout_lat_mean_ns", 0, SR_FIG_ALWAYS, 1 },
	[SR_PF_STALE] = { NULL, "stale_requests", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_ORDER_FORCED] = { NULL, "order_forced", W, SR_FIG_ORDER, 0 },
	[SR_PF_ORDER_LATE] = { NULL, "order_late", W, SR_FIG_ORDER, 0 },
	[SR_PF_ORDER_BEHIND] = { NULL, "order_behind", W, SR_FIG_BEHIND, 0 },
	[SR_PF_ORDER_BEHIND_BY] = { NULL, "order_behind_by_mean", 1, SR_FIG_BEHIND, 0 },
	[SR_PF_WAIT_CPU] = { "waits_ns", "cpu", 0, SR_FIG_ALWAYS, 1 },
	[SR_PF_WAIT_SI_LOCK] = { "waits_ns", "si_lock", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_WAIT_LRU_LOCK] = { "waits_ns", "lru_lock", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_WAIT_SWAP_CACHE_LOCK] = { "waits_ns", "swap_cache_lock", 0, SR_FIG_ALWAYS, 0 },
	[SR_PF_READAHEAD_PAGES] = { NULL, "readahead_pages", W, SR_FIG_ALWAYS, 1 },
	[SR_PF_SWAPCACHE_HITS] = { NULL, "swapcache_hits", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_READAHEAD_DROPPED] = { NULL, "readahead_dropped", W, SR_FIG_ALWAYS, 0 },
	[SR_PF_BLK_CPU] = { "block", "cpu_ns", 0, SR_FIG_BLOCK, 1 },
	[SR_PF_BLK_QUEUE_LOCK_WAIT] = { "block", "queue_lock_wait_ns", 0, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_BIOS] = { "block", "bios", W, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_REQUESTS] = { "block", "requests", W, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_MERGES] = { "block", "merges", W, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_REQ_KIB_MEAN] = { "block", "request_kib_mean", 2, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_REQ_KIB_CV] = { "block", "request_kib_cv", 4, SR_FIG_BLOCK, 0 },
	[SR_PF_BLK_QUEUE_SHARE] = { "block", "queue_share", 4, SR_FIG_BLOCK, 0 },
	[SR_PF_ZS_STORED] = { "zswap", "stored_pages", W, SR_FIG_ZSWAP, 1 },
	[SR_PF_ZS_ZERO] = { "zswap", "zero_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_WHOLE] = { "zswap", "whole_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_REJ_FULL] = { "zswap", "refused_full_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_REJ_POOR] = { "zswap", "refused_poor_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_REJ_LARGE] = { "zswap", "refused_large_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_LOADS] = { "zswap", "loaded_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_WRITTEN_BACK] = { "zswap", "written_back_pages", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_LIMIT_HIT] = { "zswap", "limit_hit", W, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_POOL_PEAK] = { "zswap", "pool_peak_bytes", 0, SR_FIG_ZSWAP, 0 },
	[SR_PF_ZS_CPU] = { "zswap", "cpu_ns", 0, SR_FIG_ZSWAP, 0 },
	[SR_PF_U_VARIANTS] = { "uncertainty", "variants", W, SR_FIG_UNC, 1 },
	[SR_PF_U_RANGE] = { "uncertainty", "range_pct", 0, SR_FIG_UNC, 0 },
	[SR_PF_U_DELTA_MIN] = { "uncertainty", "delta_pct_min", 3, SR_FIG_UNC, 0 },
	[SR_PF_U_DELTA_MAX] = { "uncertainty", "delta_pct_max", 3, SR_FIG_UNC, 0 },
	[SR_PF_U_AGREE] = { "uncertainty", "agree", W, SR_FIG_UNC, 0 },
	[SR_PF_N_REPLICAS] = { "noise", "replicas", W, SR_FIG_NOISE, 1 },
	[SR_PF_N_JITTER] = { "noise", "jitter_ns", 0, SR_FIG_NOISE, 0 },
	[SR_PF_N_DELTA_MIN] = { "noise", "delta_pct_min", 3, SR_FIG_NOISE, 0 },
	[SR_PF_N_DELTA_MAX] = { "noise", "delta_pct_max", 3, SR_FIG_NOISE, 0 },
	[SR_PF_TASK_SWAPIN_SUM] = { NULL, "task_swapin_kib_s_sum", 1, SR_FIG_TASKS, 1 },
	[SR_PF_TASK_SWAPOUT_SUM] = { NULL, "task_swapout_kib_s_sum", 1, SR_FIG_TASKS, 0 },
	[SR_PF_TASKS_ALIVE_MAX] = { NULL, "tasks_alive_max", W, SR_FIG_TASK_OPS, 1 },
};

const struct sr_report_fig sr_report_dfig[SR_DF_COUNT] = {
	[SR_DF_READS] = { NULL, "reads", W, SR_FIG_ALWAYS, 0 },
	[SR_DF_WRITES] = { NULL, "writes", W, SR_FIG_ALWAYS, 0 },
	[SR_DF_READ_BYTES] = { NULL, "read_bytes", W, SR_FIG_ALWAYS, 0 },
	[SR_DF_WRITE_BYTES] = { NULL, "write_bytes", W, SR_FIG_ALWAYS, 0 },
	[SR_DF_PAGES_READ_AHEAD] = { NULL, "pages_read_ahead", W, SR_FIG_ALWAYS, 0 },
	[SR_DF_UTIL] = { NULL, "utilization", 4, SR_FIG_ALWAYS, 0 },
	[SR_DF_BUSY] = { NULL, "busy_ns", 0, SR_FIG_ALWAYS, 0 },
	[SR_DF_BLK_BIOS] = { "block", "bios", W, SR_FIG_BLOCK, 1 },
	[SR_DF_BLK_REQUESTS] = { "block", "requests", W, SR_FIG_BLOCK, 0 },
	[SR_DF_BLK_PLUG_MERGES] = { "block", "plug_merges", W, SR_FIG_BLOCK, 0 },
	[SR_DF_BLK_QUEUE_MERGES] = { "block", "queue_merges", W, SR_FIG_BLOCK, 0 },
	[SR_DF_BLK_REQ_KIB_MEAN] = { "block", "request_kib_mean", 2, SR_FIG_BLOCK, 0 },
	[SR_DF_BLK_REQ_KIB_CV] = { "block", "request_kib_cv", 4, SR_FIG_BLOCK, 0 },
	[SR_DF_BLK_QUEUE_SHARE] = { "block", "queue_share", 4, SR_FIG_BLOCK, 0 },
};

double sr_report_fig_res(const struct sr_report_fig *f)
{
	double p = 1;
	int i;

	/* 1 / 10^dec: a division rounded once, the double nearest 0.001
	 * (as the literal is), where a product of 0.1s is not. */
	for (i = 0; i < f->dec; i++)
		p *= 10;
	return 1 / p;
}
