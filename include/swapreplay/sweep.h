/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/sweep.h - sweeps: every trace x every machine x every policy,
 * on threads, resumable, cut into plans for other engines and merged back.
 *
 * A unit is one (trace, machine): the trace is decoded once and every
 * policy replayed in that pass.  Units are numbered trace by trace,
 * machines in the order given.  Each unit gives one result row per policy
 * (JSON lines or CSV), and the rows are written in unit order whatever the
 * number of threads, so that one thread and eight write the same bytes.  A
 * unit that fails (a damaged trace) gives rows that say so and does not
 * stop the sweep.  docs/SWEEP.md describes the rows, resuming and plans.
 *
 * A sweep's life: sr_sweep_new() or sr_sweep_open_plan(); sr_sweep_load();
 * then either sr_sweep_write_plan(), or a run: sr_sweep_prepare(),
 * sr_sweep_start(), sr_sweep_next() until every unit is written,
 * sr_sweep_finish(), and sr_sweep_write_summary() if wanted.
 * sr_sweep_free() ends it at any point.  Merging result files:
 * struct sr_sweep_merge, at the end.  A sweep is driven from one thread
 * (the run has worker threads of its own).  Nothing is printed: what
 * goes wrong is in the caller's struct sr_diag, and rows, plans and
 * summaries go to the file, descriptor or stream the caller names.
 */
#ifndef SWAPREPLAY_SWEEP_H
#define SWAPREPLAY_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/machine.h"  /* SR_MACHINE_DEFAULT */
#include "swapreplay/replay.h"   /* SR_MAX_POLICIES */
#include "swapreplay/trace.h"

/* The format of result rows. */
enum sr_sweep_fmt {
	SR_SWEEP_JSONL = 0, /* one JSON object a line */
	SR_SWEEP_CSV = 1,   /* with a header line */
};

/* Parse "jsonl" (or "json") and "csv"; SR_ERR_INVAL for anything else,
 * *out then unchanged. */
enum sr_err sr_sweep_fmt_parse(const char *s, enum sr_sweep_fmt *out);

/* At most this many machines in a sweep set up from inputs. */
#define SR_SWEEP_MAX_MACHINES 64

struct sr_sweep_opts {
	/* Machines: presets or description files, in the order given.  None:
	 * each trace on the machine its header records, else
	 * SR_MACHINE_DEFAULT. */
	const char *const *machines;
	size_t nmachines;
	/* Policy specs as for sr_replay_new().  None: reclaimer-nid,
	 * page-nid, page-nid-strict and hybrid. */
	const char *const *policies;
	size_t npolicies;
	/* NULL: "reclaimer-nid".  Put first among the policies when it is
	 * not one of them. */
	const char *baseline;
	int slots_cache;              /* as sr_replay_opts.slots_cache */
	enum sr_format input_format;  /* of every trace; SR_FMT_AUTO: detected */
	uint64_t max_errors;          /* as sr_read_opts.max_errors */
	enum sr_sweep_fmt format;     /* of the rows */
};

struct sr_sweep;

/*
 * Set up a sweep of the traces that inputs name, in the order given: trace
 * files (one that does not exist is kept: its rows will say so),
 * directories (every regular file under them, recursively, but those whose
 * name starts with "."; sorted), glob patterns (sorted) and "@FILE" lists
 * (one input a line; empty lines and lines starting with "#" skipped;
 * lists within lists up to 4 deep).  The strings are copied; nothing is
 * loaded or replayed yet.
 *
 * Returns SR_OK with *out the sweep, to be freed with sr_sweep_free().
 * Otherwise *out is NULL and diag says why: SR_ERR_IO for an input that
 * does not expand (a list that cannot be opened, a glob that matches
 * nothing, a directory that cannot be read: for that one, and only that
 * one, diag->msg is empty, a gap kept from the command line), SR_ERR_INVAL
 * when the inputs hold no trace, SR_ERR_LIMIT for more than SR_MAX_POLICIES
 * policies (the baseline included) or SR_SWEEP_MAX_MACHINES machines,
 * SR_ERR_NOMEM.
 */
enum sr_err sr_sweep_new(struct sr_sweep **out, const char *const *inputs, size_t ninputs,
			 const struct sr_sweep_opts *opts, struct sr_diag *diag);

/*
 * Set up the sweep a plan describes (written by sr_sweep_write_plan()):
 * unit I of the plan is unit I of the sweep, with the plan's trace and
 * machine.  The policies, baseline, slots cache and input format are the
 * plan's first line's, and so is max_errors when it is above 0.  Of opts
 * only format is used, and input_format and max_errors where the plan
 * does not give them.
 *
 * Returns SR_OK with *out the sweep, to be freed with sr_sweep_free().
 * Otherwise *out is NULL and diag says why: SR_ERR_IO (the plan cannot be
 * opened), SR_ERR_FORMAT (a line that is not one of a plan, an empty plan
 * or one without a baseline, or some lines naming a machine and others
 * not), SR_ERR_LIMIT (more than SR_MAX_POLICIES policies), SR_ERR_NOMEM
 * (also for a policy that is not a JSON string, a gap kept from the
 * command line).
 */
enum sr_err sr_sweep_open_plan(struct sr_sweep **out, const char *path,
			       const struct sr_sweep_opts *opts, struct sr_diag *diag);

/*
 * Load every machine, once each, and check that the policies load and
 * that the baseline is among them (on the first machine, or on
 * SR_MACHINE_DEFAULT), so that a bad machine file or policy fails here
 * rather than in every unit.  Call once, before anything below.
 *
 * Returns SR_OK, or the error of sr_machine_load() or sr_replay_new()
 * with diag; after an error the sweep is only good for sr_sweep_free().
 */
enum sr_err sr_sweep_load(struct sr_sweep *s, struct sr_diag *diag);

/* The number of units: traces x machines, or the plan's lines. */
size_t sr_sweep_units(const struct sr_sweep *s);

/*
 * Write the sweep's plan to path ("-": standard output): one JSON line per
 * unit, with its trace, machine and all the settings, which
 * sr_sweep_open_plan() reads back.  The file is whole or absent
 * (swapreplay/outfile.h).  After sr_sweep_load().
 *
 * Returns SR_OK, or the error of creating or committing the file (with
 * diag); the sweep is unchanged either way.
 */
enum sr_err sr_sweep_write_plan(const struct sr_sweep *s, const char *path,
				struct sr_diag *diag);

/* ---- running a sweep ---------------------------------------------------- */

struct sr_sweep_run_opts {
	/* The file the rows are appended to, a whole row per write(), so
	 * that a sweep killed at any moment leaves whole rows and at most
	 * one row cut short.  NULL: the rows go to fd. */
	const char *output;
	int fd;                /* with output NULL; the sweep leaves it open */
	const char *fd_name;   /* what messages call fd; NULL: "standard output" */
	int resume;            /* 1: continue output (see sr_sweep_prepare()) */
	unsigned jobs;         /* units replayed at once; 0: the CPUs online */
	int one_unit;          /* 1: run only unit `unit` */
	uint64_t unit;
	uint64_t nshards;      /* above 1: run only the units U with */
	uint64_t shard;        /* U % nshards == shard (with one_unit too) */
};

/*
 * Settle a run: which units, where the rows go, and with ro->resume the
 * rows that ro->output has already (read from it now; a file that does
 * not exist has none).  Without ro->resume, an output that exists, is a
 * regular file and is not empty is refused, so that results are never
 * mixed by accident.  Nothing is written, cut or started yet.  Once, after
 * sr_sweep_load().
 *
 * Returns SR_OK; SR_ERR_INVAL for a unit the sweep does not have, a shard
 * not below nshards, or an output refused; and the errors of reading the
 * output's rows: SR_ERR_IO (it cannot be opened), SR_ERR_FORMAT (a line is
 * not a result row of opts->format), SR_ERR_NOMEM.  After an error the
 * sweep is only good for sr_sweep_free().
 */
enum sr_err sr_sweep_prepare(struct sr_sweep *s, const struct sr_sweep_run_opts *ro,
			     struct sr_diag *diag);

/*
 * Start the run: cut off the output's last row if a kill cut it short,
 * open the output for appending, write the CSV header unless the output
 * holds rows already, and start the worker threads.  A unit whose every
 * row the output has is not run; the others write only the rows it lacks.
 *
 * Returns SR_OK, or SR_ERR_IO (cutting, opening or writing the header
 * failed) or SR_ERR_NOMEM with diag; after an error the sweep is only good
 * for sr_sweep_free().
 */
enum sr_err sr_sweep_start(struct sr_sweep *s, struct sr_diag *diag);

/* How far a run is. */
struct sr_sweep_progress {
	size_t total;      /* units this run replays */
	size_t done;       /* of them, written */
	size_t failed;     /* of those, failed (their rows say why) */
	uint64_t events;   /* events the units written replayed */
};

/*
 * Wait for the next unit in unit order to be replayed, and write its rows;
 * *prog (prog may be NULL) then says how far the run is.  Call it while
 * prog->done < prog->total (sr_sweep_progress() gives the first figures);
 * once every unit is written it returns SR_OK at once.
 *
 * Returns SR_OK, or SR_ERR_IO with diag when the rows could not be
 * written: the unit still counts as done and the run goes on (call it
 * again for the next unit).
 */
enum sr_err sr_sweep_next(struct sr_sweep *s, struct sr_sweep_progress *prog,
			  struct sr_diag *diag);

/* How far the run is (all 0 before sr_sweep_start()). */
void sr_sweep_progress(const struct sr_sweep *s, struct sr_sweep_progress *prog);

/*
 * End the run: the workers finish the unit they are on (a unit not begun
 * yet is dropped, if the caller stops before the end) and are joined, and
 * an output file the sweep opened is closed.
 *
 * Returns SR_OK, or SR_ERR_IO with diag if closing the output failed.
 * Either way the run is over; only sr_sweep_write_summary() and
 * sr_sweep_free() are left.
 */
enum sr_err sr_sweep_finish(struct sr_sweep *s, struct sr_diag *diag);

/*
 * Write to f a table, per policy: the units it won (the highest throughput
 * of its unit; ties count for each) and its median and worst delta over
 * the units that replayed.  Over every row of the output file when the run
 * appended to one (earlier runs' rows included), else over the rows this
 * run wrote.  After sr_sweep_finish().
 *
 * Returns SR_OK, or the error of reading the rows back (with diag): then
 * nothing is written.
 */
enum sr_err sr_sweep_write_summary(const struct sr_sweep *s, FILE *f, struct sr_diag *diag);

/* End a run still going as sr_sweep_finish() does (its error is lost), and
 * free everything.  Accepts NULL. */
void sr_sweep_free(struct sr_sweep *s);

/* ---- merging the results of a plan's units --------------------------- */

/*
 * A merge reads the result files that the units of a plan wrote (with
 * sr_sweep_run_opts.one_unit or .nshards, anywhere), checks that no
 * (unit, policy) row is there twice and, given the plan, that every unit
 * is there whole, and writes the rows in unit order, policies in the
 * plan's order: the same bytes as a sweep of the whole plan on one
 * machine.
 */
struct sr_sweep_merge;

/*
 * A merge of result rows in format fmt.  Returns SR_OK with *out, to be
 * freed with sr_sweep_merge_free(), or SR_ERR_NOMEM (*out NULL).
 */
enum sr_err sr_sweep_merge_new(struct sr_sweep_merge **out, enum sr_sweep_fmt fmt,
			       struct sr_diag *diag);

/*
 * Add the rows of the result file path (a last row cut short is left out).
 * Returns SR_OK, or SR_ERR_IO (cannot be opened), SR_ERR_FORMAT (a line is
 * not a result row) or SR_ERR_NOMEM with diag; the rows read before an
 * error stay in the merge.
 */
enum sr_err sr_sweep_merge_add(struct sr_sweep_merge *m, const char *path,
			       struct sr_diag *diag);

/*
 * Check the rows against the plan path too: its number of units and its
 * policies, in order.  Returns SR_OK, or SR_ERR_IO with diag when the plan
 * cannot be opened (the merge is then as before).
 */
enum sr_err sr_sweep_merge_plan(struct sr_sweep_merge *m, const char *path,
				struct sr_diag *diag);

/* What sr_sweep_merge_check() finds wrong, one at a time. */
enum sr_sweep_problem_kind {
	SR_SWEEP_DOUBLED = 1, /* a (unit, policy) row more than once (each extra row) */
	SR_SWEEP_MISSING = 2, /* a unit of the plan with fewer rows than policies */
	SR_SWEEP_STRAY = 3,   /* a row of a unit the plan does not have (each row) */
};

struct sr_sweep_problem {
	enum sr_sweep_problem_kind kind;
	uint64_t unit;
	const char *policy;    /* SR_SWEEP_DOUBLED: the policy; valid during the call */
	size_t rows, want;     /* SR_SWEEP_MISSING: the unit's rows, and the policies */
};

typedef void (*sr_sweep_problem_fn)(void *ctx, const struct sr_sweep_problem *p);

/* What sr_sweep_merge_check() found, by kind. */
struct sr_sweep_merge_counts {
	size_t doubled, missing, stray;
};

/*
 * Put the rows in unit order (policies in the plan's order, else in the
 * order they first appear) and check them: fn(ctx, problem), when not
 * NULL, is called for each problem, doubled rows first, then missing
 * units, then stray rows, each in unit order; *counts (may be NULL) gets
 * how many of each.  Units are checked for being missing or stray only
 * with a plan.
 *
 * Returns SR_OK when nothing is wrong, else SR_ERR_FORMAT with diag saying
 * how many rows and units; the merge can then only be freed.
 */
enum sr_err sr_sweep_merge_check(struct sr_sweep_merge *m, sr_sweep_problem_fn fn, void *ctx,
				 struct sr_sweep_merge_counts *counts, struct sr_diag *diag);

/*
 * Write the rows, checked by sr_sweep_merge_check() without a problem, to
 * path ("-": standard output), with the CSV header for CSV; whole or
 * absent (swapreplay/outfile.h).  Returns SR_OK, SR_ERR_INVAL (not checked,
 * or problems found), or the error of creating or committing the file,
 * with diag.
 */
enum sr_err sr_sweep_merge_write(struct sr_sweep_merge *m, const char *path,
				 struct sr_diag *diag);

/* Free the merge and its rows.  Accepts NULL. */
void sr_sweep_merge_free(struct sr_sweep_merge *m);

#endif /* SWAPREPLAY_SWEEP_H */
