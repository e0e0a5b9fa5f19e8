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
#include "swapreplay/replay.h"

enum sr_report_fmt {
	SR_REPORT_TEXT = 0,
	SR_REPORT_JSON = 1,
	SR_REPORT_CSV = 2,
	SR_REPORT_MARKDOWN = 3,
	SR_REPORT_TABLE = 4,       /* plain text for a mailing list, 76 columns */
};

/* Parse "text", "json", "csv", "markdown"/"md". */
enum sr_err sr_report_fmt_parse(const char *s, enum sr_report_fmt *out);

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
	const char *readahead;      /* sr_replay_readahead_describe(), or NULL */
	int readahead_on;           /* readahead is modelled in this replay */
};

/* Write the report; SR_ERR_IO if the stream reports an error. */
enum sr_err sr_report_write(FILE *f, const struct sr_result *res,
			    const struct sr_report_info *info, enum sr_report_fmt fmt);

/* Write s as a JSON string, quotes and escapes included. */
void sr_report_json_string(FILE *f, const char *s);

#endif /* SWAPREPLAY_REPORT_H */
