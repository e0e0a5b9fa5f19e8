/* SPDX-License-Identifier: MIT */
/*
 * The reader's plug-in interface: one ops table per format, defined in
 * reader_<format>.c and listed in reader.c.  Not installed.
 */
#ifndef SR_READER_IMPL_H
#define SR_READER_IMPL_H

#include "trace/source.h"
#include "swapreplay/trace.h"

struct sr_reader;

struct sr_reader_ops {
	enum sr_format format;
	/* Does the start of the decoded stream look like this format?
	 * p holds at least the first min(n, 4096) bytes. */
	int (*probe)(const unsigned char *p, size_t n);
	/* Read the header (if any) and set up r->priv. */
	enum sr_err (*open)(struct sr_reader *r, struct sr_diag *d);
	/*
	 * Decode the next event into ev.  Returns SR_OK with *eof set at the
	 * end.  A bad record returns SR_ERR_FORMAT with r->record_error set,
	 * after consuming the record, so that the caller may skip it.
	 */
	enum sr_err (*next)(struct sr_reader *r, struct sr_event *ev, int *eof,
			    struct sr_diag *d);
	/*
	 * Optional: decode up to cap good records at once into evs, setting
	 * *n (0 at the end or before a bad or short record, which next() then
	 * reports), and count them in r->stats and r->last_ts as the caller
	 * counts next()'s (count_event() in reader.c).  Only the fast path:
	 * never fails but on an I/O or zstd error, like next().
	 */
	enum sr_err (*next_batch)(struct sr_reader *r, struct sr_event *evs, size_t cap,
				  size_t *n, struct sr_diag *d);
	void (*close)(struct sr_reader *r);
};

struct sr_reader {
	const struct sr_reader_ops *ops;
	struct sr_src *src;
	void *priv;             /* owned by ops */
	struct sr_read_opts opts;
	struct sr_read_stats stats;
	char *machine_json;     /* SWT header's machine, owned */
	char machine_origin[300]; /* its name in messages, naming the trace */
	int record_error;       /* set by ops->next: the error is one record's */
	int may_vaddr;          /* set by ops->open: the format can give vaddr */
	int may_tasks;          /* set by ops->open: the format can give task
				 * ops with a child */
	int may_reclaim;        /* set by ops->open: ... swap-outs with a reclaim */
	int may_fault;          /* set by ops->open: ... swap-ins with a fault */
	int may_memcg;          /* set by ops->open: ... swap events with a memcg */
	struct sr_memcgs *memcgs; /* the memcgs' paths read so far (sr_memcgs_set()) */
	uint64_t line;          /* text formats: current 1-based line */
	uint64_t last_ts;
	int done;               /* end reached */
	enum sr_err sticky;     /* first fatal error, returned ever after */
	struct sr_diag sticky_diag;
};

/* Record an unknown column/key name in stats.unknown_fields (deduplicated). */
void sr_reader_note_unknown(struct sr_reader *r, const char *name, size_t len);

/*
 * The next line of a text reader, counted in r->line, without its line end
 * ("\n" or "\r\n": *cr says which) and, on line 1, without a UTF-8 byte
 * order mark.  *line is NULL at the end of the data.
 */
enum sr_err sr_reader_line(struct sr_reader *r, const char **line, size_t *len,
			   int *cr, struct sr_diag *d);

/* Set the position part of d for a text reader's current line. */
void sr_reader_at_line(struct sr_reader *r, struct sr_diag *d);

extern const struct sr_reader_ops sr_reader_csv_ops;
extern const struct sr_reader_ops sr_reader_jsonl_ops;
extern const struct sr_reader_ops sr_reader_swt_ops;
extern const struct sr_reader_ops sr_reader_vmstat_ops;

#endif /* SR_READER_IMPL_H */
