/* SPDX-License-Identifier: MIT */
/*
 * A replay report's figures as its JSON names them (schema
 * swapreplay-report/1, docs/REPORT.md): one table for a policy's, one for
 * a device's, each figure's object, key, kind and decimals, and when and
 * where the writer gives it.  The JSON writer (report.c) writes a
 * policy's and a device's figures from these tables, in their order, and
 * the reader (report_read.c) reads every figure of them back, so that a
 * figure the writer gives is one the reader reads
 * (tests/unit/test_report_read.c checks that every number a report's
 * policy or device holds is a row of these tables, read back as written).
 */
#ifndef SR_REPORT_FIGURES_H
#define SR_REPORT_FIGURES_H

#define SR_REPORT_SCHEMA "swapreplay-report/1"

/* A policy's figures, in the order the JSON gives them. */
enum sr_pfig {
	SR_PF_THROUGHPUT,
	SR_PF_DELTA,
	SR_PF_NOISE,             /* --noise: the delta's timing noise */
	SR_PF_MAKESPAN,
	SR_PF_SWAPOUTS,
	SR_PF_SWAPINS,
	SR_PF_PAGES_OUT,
	SR_PF_PAGES_IN,
	SR_PF_UNMATCHED,
	SR_PF_UNMATCHED_NODEV,
	SR_PF_SWAP_FULL,
	SR_PF_TIER_FULL,
	SR_PF_MOVED_OUT,
	SR_PF_MOVED_OUT_PCT,
	SR_PF_CACHE_REFILLS,
	SR_PF_DIRECT_ALLOCS,
	SR_PF_SLOTS_KEPT,        /* (K1) some policy kept a read fault's slot */
	SR_PF_KEPT_REWRITTEN,
	SR_PF_KEPT_RECLAIMED,
	SR_PF_LAT_MEAN,          /* swapin_lat_ns */
	SR_PF_LAT_P50,
	SR_PF_LAT_P90,
	SR_PF_LAT_P99,
	SR_PF_LAT_MAX,
	SR_PF_SWAPOUT_LAT_MEAN,
	SR_PF_STALE,
	SR_PF_ORDER_FORCED,      /* some policy's simulation was held past its queue */
	SR_PF_ORDER_LATE,
	SR_PF_ORDER_BEHIND,      /* swap events played after a later one of the trace */
	SR_PF_ORDER_BEHIND_BY,   /* ... by how many records, on average */
	SR_PF_WAIT_CPU,          /* waits_ns */
	SR_PF_WAIT_SI_LOCK,
	SR_PF_WAIT_LRU_LOCK,
	SR_PF_WAIT_SWAP_CACHE_LOCK,
	SR_PF_READAHEAD_PAGES,
	SR_PF_SWAPCACHE_HITS,
	SR_PF_READAHEAD_DROPPED,
	SR_PF_BLK_CPU,           /* block: the policy's devices together */
	SR_PF_BLK_QUEUE_LOCK_WAIT,
	SR_PF_BLK_BIOS,
	SR_PF_BLK_REQUESTS,
	SR_PF_BLK_MERGES,
	SR_PF_BLK_REQ_KIB_MEAN,
	SR_PF_BLK_REQ_KIB_CV,
	SR_PF_BLK_QUEUE_SHARE,
	SR_PF_ZS_STORED,         /* zswap: the machine has it */
	SR_PF_ZS_ZERO,
	SR_PF_ZS_WHOLE,
	SR_PF_ZS_REJ_FULL,
	SR_PF_ZS_REJ_POOR,
	SR_PF_ZS_REJ_LARGE,
	SR_PF_ZS_LOADS,
	SR_PF_ZS_WRITTEN_BACK,
	SR_PF_ZS_LIMIT_HIT,
	SR_PF_ZS_POOL_PEAK,
	SR_PF_ZS_CPU,
	SR_PF_U_VARIANTS,        /* uncertainty */
	SR_PF_U_RANGE,
	SR_PF_U_DELTA_MIN,
	SR_PF_U_DELTA_MAX,
	SR_PF_U_AGREE,
	SR_PF_N_REPLICAS,        /* --noise */
	SR_PF_N_JITTER,
	SR_PF_N_DELTA_MIN,
	SR_PF_N_DELTA_MAX,
	SR_PF_TASK_SWAPIN_SUM,   /* --per-task */
	SR_PF_TASK_SWAPOUT_SUM,
	SR_PF_TASKS_ALIVE_MAX,   /* the trace has task ops */
	SR_PF_COUNT
};

/* A device's. */
enum sr_dfig {
	SR_DF_READS,
	SR_DF_WRITES,
	SR_DF_READ_BYTES,
	SR_DF_WRITE_BYTES,
	SR_DF_PAGES_READ_AHEAD,
	SR_DF_UTIL,
	SR_DF_BUSY,              /* the time it was serving requests */
	SR_DF_BLK_BIOS,          /* block */
	SR_DF_BLK_REQUESTS,
	SR_DF_BLK_PLUG_MERGES,
	SR_DF_BLK_QUEUE_MERGES,
	SR_DF_BLK_REQ_KIB_MEAN,
	SR_DF_BLK_REQ_KIB_CV,
	SR_DF_BLK_QUEUE_SHARE,
	SR_DF_COUNT
};

/* When the writer gives a figure: always, or only with what it is of. */
enum sr_fig_when {
	SR_FIG_ALWAYS = 0,
	SR_FIG_BLOCK,            /* bios went through the block layer */
	SR_FIG_UNC,              /* --uncertainty */
	SR_FIG_NOISE,            /* --noise */
	SR_FIG_TASKS,            /* --per-task */
	SR_FIG_TASK_OPS,         /* the trace has task ops (fork, exit, wait) */
	SR_FIG_ORDER,            /* a simulation played records out of time order */
	SR_FIG_BEHIND,           /* a simulation played swap events out of the trace's order */
	SR_FIG_KEPT,             /* some policy's swap cache kept a read fault's slot */
	SR_FIG_TIERS,            /* some policy restricts a memcg's swap tiers */
	SR_FIG_ZSWAP,            /* the machine has zswap */
};

/* The decimals of a whole number (a count, written from an integer). */
#define SR_FIG_WHOLE (-1)

struct sr_report_fig {
	const char *obj;         /* the object holding it, NULL: the policy's
				  * (the device's) own member */
	const char *key;         /* its name there */
	int dec;                 /* the decimals written (%.Nf of a double), or
				  * SR_FIG_WHOLE */
	enum sr_fig_when when;
	int nl;                  /* the writer begins a line with it */
};

extern const struct sr_report_fig sr_report_pfig[SR_PF_COUNT];
extern const struct sr_report_fig sr_report_dfig[SR_DF_COUNT];

/* The report's precision of figure f: the unit of its last decimal (1
 * for a whole number), so that a value under half of it is written 0. */
double sr_report_fig_res(const struct sr_report_fig *f);

#endif /* SR_REPORT_FIGURES_H */
