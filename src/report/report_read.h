/* SPDX-License-Identifier: MIT */
/*
 * A replay report (schema swapreplay-report/1, as report.c writes it)
 * read back from its JSON (report_read.c): its header as a comparison
 * shows it, and each policy's and each device's figures, every one of the
 * tables of figures.h, by the writer's keys.  compare (src/compare/)
 * compares two of them.  Not installed.
 */
#ifndef SR_REPORT_READ_H
#define SR_REPORT_READ_H

#include <stddef.h>
#include <stdint.h>

#include "report/figures.h"
#include "swapreplay/error.h"

/* A figure read: has is 0 when the report does not give it (or gives
 * null). */
struct sr_report_num {
	double v;
	int has;
};

struct sr_report_doc_dev {
	char *name;
	struct sr_report_num fig[SR_DF_COUNT];    /* by enum sr_dfig */
};

struct sr_report_doc_pol {
	char *name;
	struct sr_report_num fig[SR_PF_COUNT];    /* by enum sr_pfig */
	struct sr_report_doc_dev *dev;            /* ndev, each named once */
	size_t ndev;
};

struct sr_report_doc {
	char *file;               /* as named */
	char *path;               /* the trace's, NULL: not given */
	uint64_t events, tasks;
	char *machine, *origin, *kernel, *readahead, *baseline; /* NULL: not given */
	int slots, plug;          /* 1, 0, or -1: not given */
	char *warnings;           /* its caveats that are warnings (swap full...),
				   * "; " between; NULL: none (or a report of
				   * before the caveats) */
	struct sr_report_doc_pol *pol; /* npol, each named once */
	size_t npol;
};

/*
 * Read the report path ("-": standard input; zstd-compressed or not) into
 * *doc (emptied first; sr_report_doc_clear() frees what it holds).
 * SR_OK, or with diag naming the file: SR_ERR_IO (it cannot be opened or
 * read), SR_ERR_FORMAT (not JSON, not a swapreplay-report/1 (what it is
 * when it is another of swapreplay's files), a member of the wrong kind,
 * a policy named twice, or a device named twice in a policy),
 * SR_ERR_LIMIT (over 64 MiB decompressed, over 2^20 JSON values, over
 * SR_MAX_POLICIES policies or SR_MACHINE_MAX_DEVICES devices in one),
 * SR_ERR_NOMEM; *doc is then empty.  Figures a report lacks are not
 * had; its trace's events and tasks and its policies' names it must
 * have.
 */
enum sr_err sr_report_doc_read(struct sr_report_doc *doc, const char *path,
			       struct sr_diag *diag);

/* Free what doc holds; doc is empty afterwards. */
void sr_report_doc_clear(struct sr_report_doc *doc);

#endif /* SR_REPORT_READ_H */
