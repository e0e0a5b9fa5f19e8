/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/compare.h - two replay reports compared, figure by figure.
 *
 * The reports are the JSON a replay writes (schema "swapreplay-report/1",
 * docs/REPORT.md): of one trace replayed on two machines, two kernels, a
 * patch and its baseline.  For each policy of both, its throughput, the
 * tasks' summed throughputs (--per-task), its makespan, its delta against
 * its report's baseline, the delta's range over the machine's variants
 * and how many agree on its side (--uncertainty=N), each report's
 * uncertainty (or that it was not estimated), its swap-in latency (mean,
 * p50, p90, p99, max) and its devices' utilisation and queued share:
 * before, after and the change, as text (for a mailing list), JSON
 * (schema "swapreplay-compare/1") or CSV.  The output depends only on the two
 * reports and their names.
 */
#ifndef SWAPREPLAY_COMPARE_H
#define SWAPREPLAY_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "swapreplay/error.h"

enum sr_compare_fmt {
	SR_COMPARE_TEXT = 0,
	SR_COMPARE_JSON = 1,
	SR_COMPARE_CSV = 2,
};

/* Parse "text", "json", "csv"; SR_ERR_INVAL for anything else (*out then
 * unchanged). */
enum sr_err sr_compare_fmt_parse(const char *s, enum sr_compare_fmt *out);

/* One replay report, read back. */
struct sr_compare_report;

/*
 * Read the report path ("-": standard input; zstd-compressed or not).
 * Returns SR_OK with *out (free with sr_compare_report_free()), or with
 * diag naming the file: SR_ERR_IO (it cannot be opened or read),
 * SR_ERR_FORMAT (not JSON, not a swapreplay-report/1 (what it is when it
 * is another of swapreplay's files), a field of the wrong kind, a policy
 * named twice, or a device named twice in a policy),
 * SR_ERR_LIMIT (over 64 MiB decompressed, over 2^20 JSON values, over
 * SR_MAX_POLICIES policies or SR_MACHINE_MAX_DEVICES devices in one),
 * SR_ERR_NOMEM.  Figures a report lacks are
 * compared as absent; its trace's events and tasks and its policies'
 * names it must have.
 */
enum sr_err sr_compare_report_read(struct sr_compare_report **out, const char *path,
				   struct sr_diag *diag);

void sr_compare_report_free(struct sr_compare_report *r);

/*
 * Whether a and b are reports of one trace: the number of what differs
 * of its event count and its task count (0: one trace; the paths may
 * differ), and a sentence saying what differs of the counts and paths in
 * buf (empty when nothing does).
 */
int sr_compare_trace_diff(const struct sr_compare_report *a, const struct sr_compare_report *b,
			  char *buf, size_t size);

/* The report's baseline policy, "" when it names none. */
const char *sr_compare_baseline(const struct sr_compare_report *r);

/*
 * Write the comparison of before and after to f in format fmt.  Changes
 * are after / before - 1 in per cent, of the figures as the reports give
 * them; a delta's change is after - before, in points.  None (text n/a,
 * JSON null, CSV empty) when before is 0 as the report writes it and
 * after is not, or when the change is no finite number.  SR_ERR_IO if
 * the stream reports an error, SR_ERR_NOMEM.
 */
enum sr_err sr_compare_write(FILE *f, const struct sr_compare_report *before,
			     const struct sr_compare_report *after, enum sr_compare_fmt fmt);

#endif /* SWAPREPLAY_COMPARE_H */
