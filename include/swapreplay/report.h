/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/report.h - writing a replay's results: text for a terminal,
 * JSON (schema "swapreplay-report/1", docs/REPORT.md), CSV (one row per
 * policy) and a Markdown table to paste into a patch review.  The output
 * depends only on the inputs: no times, hosts or addresses in it.
 */
#ifndef SWAPREPLAY_REPORT_H
#define SWAPREPLAY_REPORT_H

#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/kernel.h"
#include "swapreplay/result.h"

enum sr_report_fmt {
	SR_REPORT_TEXT = 0,
	SR_REPORT_JSON = 1,
	SR_REPORT_CSV = 2,
	SR_REPORT_MARKDOWN = 3,
	SR_REPORT_TABLE = 4,       /* plain text for a mailing list, 76 columns */
};

/* Parse "text", "json", "csv", "markdown"/"md". */
enum sr_err sr_report_fmt_parse(const char *s, enum sr_report_fmt *out);

struct sr_memcgs;

struct sr_report_info {
	const char *trace;          /* as the user named it */
	const char *machine;        /* machine name */
	const char *machine_origin; /* "preset", "file", "recorded in the trace header",
				     * "default preset: REASON" */
	const char *machine_path;   /* the file's path when origin is "file", else NULL */
	const char *derived;        /* how the trace was derived (a vmstat log's
				     * caveat), or NULL: recorded event by event */
	int slots_cache;
	int plug;                   /* swap writes plugged per reclaim pass */
	const struct sr_kernel *kernel; /* the kernel generation modelled */
	const char *kernel_why;         /* why that one (sr_kernel_resolve()); NULL: not said */
	const char *readahead;      /* sr_replay_readahead_describe(), or NULL */
	int readahead_on;           /* readahead is modelled in this replay */
	/* What weakens the replay's readahead (sr_replay_readahead_caveat()),
	 * what --node-map did (sr_replay_nodes_describe()) and how the
	 * trace's devices differ from the machine's
	 * (sr_replay_devices_describe()); each NULL when there is nothing
	 * to say. */
	const char *readahead_caveat;
	const char *nodes;
	const char *devices;
	/* replay --check-recorded: the trace's recorded latencies and
	 * throughput beside each policy's predicted ones (text, markdown,
	 * JSON's "trace"."recorded"). */
	int check_recorded;
	/* The paths of the trace's memcgs (sr_reader_memcgs()), or NULL: the
	 * per-memcg figures (sr_policy_result.memcg) name each by its id and,
	 * when the trace names it, its path. */
	const struct sr_memcgs *memcgs;
};

/*
 * What weakens a report's numbers, said in every format (the table's and
 * markdown's footer, text's notes, JSON's "caveats", CSV's caveats
 * column), and the warnings among them on standard error.  In the order
 * reports give them: a replay where most events could not be replayed as
 * recorded says so first.
 */
enum sr_caveat_kind {
	SR_CAV_MOST_NOT_REPLAYED = 0, /* most events had no device, or no swap-out */
	SR_CAV_SWAP_FULL,       /* swap-outs that found no device with room */
	SR_CAV_UNMATCHED,       /* swap-ins whose swap-out is not in the trace */
	SR_CAV_KEPT,            /* slots kept by the swap cache after read faults (K1) */
	SR_CAV_STALE,           /* requests served without contention */
	SR_CAV_LATE,            /* events later than the reorder window allowed */
	SR_CAV_ORDER,           /* a simulation played events out of time order */
	SR_CAV_TRUNKS,          /* swap cache trunks that shared a lock's calendar */
	SR_CAV_TASKS,           /* the trace's task ops: how tasks were started */
	SR_CAV_DERIVED,         /* the trace was derived (a vmstat log) */
	SR_CAV_NODES,           /* --node-map */
	SR_CAV_DEVICES,         /* the trace's devices are not the machine's */
	SR_CAV_ONE_LIST,        /* a kernel without per-node lists: what the node
				 * policies walk there */
	SR_CAV_READAHEAD,       /* readahead without the addresses it needs */
	SR_CAV_ZSWAP,           /* zswap in front of the devices: its settings */
	SR_CAV_NOISE,           /* the deltas' timing noise, or not measured */
	SR_CAV_UNCERTAINTY,     /* how sure the deltas are, or not estimated */
	SR_CAV_MODEL,           /* predictions, not measurements */
	SR_CAV_COUNT
};

struct sr_caveat {
	enum sr_caveat_kind kind;
	const char *key;            /* JSON's and CSV's name: "swap_full" */
	const char *label;          /* the footer's: "swap full" */
	int warn;                   /* also a warning on standard error */
	char text[1024];
};

/* The caveats of res (at most SR_CAV_COUNT, each kind once) into out, in
 * their order; returns how many. */
int sr_report_caveats(const struct sr_result *res, const struct sr_report_info *info,
		      struct sr_caveat out[SR_CAV_COUNT]);

/* Write the report; SR_ERR_IO if the stream reports an error. */
enum sr_err sr_report_write(FILE *f, const struct sr_result *res,
			    const struct sr_report_info *info, enum sr_report_fmt fmt);

/* Write s as a JSON string, quotes and escapes included. */
void sr_report_json_string(FILE *f, const char *s);
/* Write s as one CSV cell: quoted (its quotes doubled) when it holds a
 * comma, a quote or a line break, else as it is. */
void sr_report_csv_string(FILE *f, const char *s);

#endif /* SWAPREPLAY_REPORT_H */
