/* SPDX-License-Identifier: MIT */
/* Sweeps: the rows they write and read back (src/cli/cmd_sweep.c,
 * src/cli/cmd_merge.c; src/sweep/rows.c).  Internal to swapreplay. */
#ifndef SR_SWEEP_IMPL_H
#define SR_SWEEP_IMPL_H

#include <stdint.h>
#include <stdio.h>

/* What resume, merge and the summary need of one result row. */
struct sweep_row {
	uint64_t unit;
	char *machine;
	char *policy;
	int ok;                /* status "ok" */
	double throughput;     /* KiB/s */
	double delta;          /* % */
	char *line;            /* the whole line, with its "\n" */
};

struct sweep_rows {
	struct sweep_row *v;
	size_t n, cap;
};

enum sweep_fmt { SWEEP_JSONL = 0, SWEEP_CSV = 1 };

/* The CSV header line of result rows (with "\n"). */
extern const char sweep_csv_header[];

/*
 * Read the rows of a result file.  A last line without "\n" (a write cut
 * short) is ignored and *good_len set to the length up to it, so that the
 * caller can cut it off.  Returns 0, or -1 with a message in err.
 */
int sweep_rows_load(const char *path, enum sweep_fmt fmt, struct sweep_rows *rows,
		    long long *good_len, char *err, size_t errsize);
void sweep_rows_free(struct sweep_rows *rows);

/* Per policy: wins (highest throughput of its unit), median and worst
 * delta, over ok rows; printed as a table. */
void sweep_summary(FILE *f, const struct sweep_rows *rows, const char *const *policies,
		   int np);

#endif /* SR_SWEEP_IMPL_H */
