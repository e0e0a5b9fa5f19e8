/* SPDX-License-Identifier: MIT */
/*
 * The sweep engine's insides, shared by the files of src/sweep/ only (its
 * public side is include/swapreplay/sweep.h):
 *
 *   sweep.c     a sweep set up from inputs; machines and policies loaded
 *   inputs.c    lists of strings; inputs expanded into traces
 *   plan.c      plans written and read back; the units a run takes
 *   resume.c    a run's output: refused, or continued from its rows
 *   schedule.c  the order the workers take units in; the workers; the
 *               rows written in unit order
 *   unit.c      one unit replayed into its rows
 *   rows.c      result rows formatted, written, and read back
 *   summary.c   the summary table
 *   merge.c     result files merged into one
 */
#ifndef SR_SWEEP_IMPL_H
#define SR_SWEEP_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "swapreplay/error.h"
#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "swapreplay/sweep.h"
#include "swapreplay/trace.h"

/* ---- lists of strings (inputs.c) ---------------------------------------- */

/* A list of strings, each owned. */
struct sr_strs {
	char **v;
	size_t n, cap;
};

/* Append a copy of x[0..len); 0, or -1 out of memory. */
int sr_strs_add(struct sr_strs *s, const char *x, size_t len);
/* Free the strings and the list; the list is empty afterwards. */
void sr_strs_free(struct sr_strs *s);

/* One input (a file, a directory, a glob or @LIST) appended to out as
 * trace paths; the errors of sr_sweep_new(). */
enum sr_err sr_sweep_expand(struct sr_strs *out, const char *arg, struct sr_diag *d);

/* ---- result rows (rows.c) ------------------------------------------------ */

/* What resume, merge and the summary need of one result row. */
struct sr_row {
	uint64_t unit;
	char *machine;
	char *policy;
	int ok;                /* status "ok" */
	double throughput;     /* KiB/s */
	double delta;          /* % */
	char *line;            /* the whole line, with its "\n" */
};

struct sr_rows {
	struct sr_row *v;
	size_t n, cap;
};

/* The CSV header line of result rows (with "\n"). */
extern const char sr_rows_csv_header[];

/*
 * Append the rows of the result file path to rows.  A last line without
 * "\n" (a write cut short) is ignored and *good_len set to the length up
 * to it, so that the caller can cut it off.  SR_ERR_IO (cannot open),
 * SR_ERR_FORMAT (a line is not a result row), SR_ERR_NOMEM; the rows read
 * before an error stay in rows.
 */
enum sr_err sr_rows_load(struct sr_rows *rows, const char *path, enum sr_sweep_fmt fmt,
			 long long *good_len, struct sr_diag *d);
/* The same for rows in memory (buf, NUL-terminated), named name. */
enum sr_err sr_rows_parse(struct sr_rows *rows, const char *buf, const char *name,
			  enum sr_sweep_fmt fmt, struct sr_diag *d);
/* Free the rows; rows is empty afterwards. */
void sr_rows_free(struct sr_rows *rows);

struct sr_sweep;

/* Append to *buf (of *len bytes) the row of unit u for policy: its figures
 * p, or (p NULL) the unit's error.  Rows that do not fit in memory are
 * left out. */
void sr_rows_format(const struct sr_sweep *s, char **buf, size_t *len, size_t u,
		    const char *trace, const char *hash, const char *machine,
		    const char *policy, const struct sr_policy_result *p, uint64_t events,
		    const char *error);

/* s as a JSON string (quotes and escapes included), malloc'ed; "\"?\"" if
 * it cannot be encoded, NULL out of memory. */
char *sr_json_str(const char *s);

/* Write all of buf, with one write() when the system takes it; 0 or -1
 * (errno). */
int sr_write_all(int fd, const char *buf, size_t len);
/* Write rows one line (one write()) at a time; 0 or -1 (errno). */
int sr_write_rows(int fd, const char *rows);

/* ---- the summary (summary.c) -------------------------------------------- */

/* Per policy: wins (highest throughput of its unit), median and worst
 * delta, over ok rows; printed as a table. */
void sr_rows_summary(FILE *f, const struct sr_rows *rows, const char *const *policies,
		     int np);

/* ---- the sweep ----------------------------------------------------------- */

struct sr_cost_class; /* schedule.c */

struct sr_sweep {
	/* What is swept (sweep.c, plan.c). */
	struct sr_strs traces, machines, policies;
	char *baseline;
	int slots_cache;
	struct sr_read_opts ro;
	enum sr_sweep_fmt fmt;
	size_t nunits;
	int from_plan;              /* unit u is traces[u] on machines[u] */
	struct sr_machine **mach;   /* loaded once per machine, NULL: per trace */
	int loaded;                 /* sr_sweep_load() succeeded */

	/* The run's output (resume.c). */
	int prepared;               /* sr_sweep_prepare() succeeded */
	char *out_path;             /* NULL: out_fd, the caller's */
	char *out_name;             /* what messages call the output */
	int out_fd;                 /* -1 until opened */
	int out_regular;            /* out_path is a regular file: its rows read back */
	int resume;
	int out_exists;             /* resume: out_path was there */
	off_t out_size;             /* resume: its size then */
	struct sr_rows old;         /* resume: its rows */
	long long good_len;         /* resume: its length up to a row cut short */
	int one_unit;
	uint64_t unit, shard, nshards;
	unsigned jobs_asked;
	unsigned char *skip;        /* per unit: nothing to do (resume, shard) */
	unsigned char *have;        /* [unit * np + policy]: row already written */

	/* Between the workers and the writer (schedule.c). */
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	struct sr_cost_class *cls;  /* what the workers take next */
	size_t ncls;
	off_t *usize;               /* per unit: its trace's size on disk */
	size_t left;                /* units to do not yet handed out */
	size_t jobs;                /* the CPUs the run may use */
	int stop;                   /* hand out no more units */
	char **out;                 /* per unit: its rows, once done (NULL: out of memory) */
	unsigned char *udone;       /* per unit: replayed, out[] set */
	int *failed;                /* per unit: 1 if it failed */
	uint64_t *events;           /* per unit: events replayed */
	pthread_t *th;
	size_t nth;                 /* threads running */
	int started, finished;
	size_t next;                /* the next unit to write */
	struct sr_sweep_progress prog;
};

/* A new sweep with the run's fields initialised (sweep.c); NULL out of
 * memory.  opts gives the settings a plan may leave. */
struct sr_sweep *sr_sweep_alloc(const struct sr_sweep_opts *opts);

static inline size_t sr_unit_trace(const struct sr_sweep *s, size_t u)
{
	return s->from_plan ? u : u / (s->machines.n ? s->machines.n : 1);
}

static inline size_t sr_unit_machine(const struct sr_sweep *s, size_t u)
{
	return s->from_plan ? u : u % (s->machines.n ? s->machines.n : 1);
}

/* Mark the units the run skips (sr_sweep_prepare()'s selection, plan.c):
 * s->skip must be allocated. */
void sr_sweep_select(struct sr_sweep *s);

/* Open the run's output, cut off a row cut short, mark the rows it has and
 * write the CSV header (resume.c, for sr_sweep_start()). */
enum sr_err sr_sweep_open_output(struct sr_sweep *s, struct sr_diag *d);

/* Free what the schedule holds (schedule.c). */
void sr_sweep_free_schedule(struct sr_sweep *s);

/* Replay unit u; *out gets its rows (only those not written already), or
 * NULL out of memory; ahead: order the events on a thread of their own
 * (unit.c). */
void sr_unit_run(struct sr_sweep *s, size_t u, int ahead, char **out, int *failed,
		 uint64_t *nev);

#endif /* SR_SWEEP_IMPL_H */
