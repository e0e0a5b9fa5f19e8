/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/sweep.h - sweeps: every trace x every machine x every policy,
 * on threads, resumable, cut into plans for other engines and merged back.
 *
 * A unit is one (trace, machine): the trace is decoded once and every
 * policy replayed in that pass.  Units are numbered trace by trace,
 * machines in the order given.  Each unit gives one result row per policy
 * (JSON lines or CSV), which says what it is the result of: the trace and
 * its content hash, the machine and the hash of its description, the
 * policy, and every option that changes a figure.  Rows go to a file as
 * soon as their unit is done, and the file is put in unit order when the
 * run ends, so that one thread and eight leave the same bytes and a kill
 * loses only the units being replayed.  A unit that fails (a damaged
 * trace) gives rows that say so and does not stop the sweep.
 * docs/SWEEP.md describes the rows, resuming and plans.
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
/* --uncertainty: at most this many variants (as replay), and the default
 * range, in per cent. */
#define SR_SWEEP_MAX_VARIANTS 200
#define SR_SWEEP_UNC_RANGE 25
/* sr_sweep_opts.noise: each trace's replicas from its size, as replay's
 * --noise=auto (sr_noise_auto(sr_trace_events_guess())). */
#define SR_SWEEP_NOISE_AUTO (-1)

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
	int plug;                     /* as sr_replay_opts.plug (1: on, the default) */
	/* The kernel generation, as --kernel: "MAJOR.MINOR"; NULL:
	 * SR_KERNEL_DEFAULT (sr_replay_opts.kernel). */
	const char *kernel;
	/* Readahead, as sr_readahead_format() writes it; NULL: the defaults
	 * (sr_readahead_default()). */
	const char *readahead;
	/* --node-map, as sr_node_map_parse() reads it ("1:0", "fold"); NULL:
	 * none, each recorded node as itself.  A machine that lacks a node
	 * it maps to (or a trace's node, without a map) gives error rows. */
	const char *node_map;
	enum sr_format input_format;  /* of every trace; SR_FMT_AUTO: detected */
	uint64_t max_errors;          /* as sr_read_opts.max_errors; at most 2^63 - 1 */
	enum sr_sweep_fmt format;     /* of the rows */
	/* --uncertainty: each unit also replayed on this many variants of
	 * its machine (sr_machine_perturb(), seeds 1 to N, as replay's), at
	 * most SR_SWEEP_MAX_VARIANTS; rows that replayed then give each
	 * delta's range over them and how many agree on its side
	 * (sr_policy_result.unc).  0: none. */
	unsigned uncertainty;
	/* --uncertainty-range: figures within a factor 1 + P/100 either way,
	 * 1 to 400; 0: SR_SWEEP_UNC_RANGE. */
	unsigned uncertainty_range;
	/* --noise: each unit also replayed on this many replicas of its
	 * trace's timing (sr_replay_opts.noise, at most SR_REPLAY_MAX_NOISE),
	 * or SR_SWEEP_NOISE_AUTO: as many as its trace's size allows; rows
	 * that replayed then give the delta's timing noise and whether the
	 * delta is within it.  0: none.  noise_jitter_ns: their jitter, 1 to
	 * 10^9 ns; 0: SR_NOISE_JITTER_NS. */
	int noise;
	unsigned noise_jitter_ns;
	/* 1: every file found in a directory or by a glob is a trace; 0:
	 * those that are by their content one of swapreplay's other files (a
	 * sweep's result file or plan, a machine description, a replay
	 * report, a capture's .info) are skipped (sr_sweep_skipped()). */
	int every_file;
};

struct sr_sweep;

/*
 * Set up a sweep of the traces that inputs name, in the order given: trace
 * files (one that does not exist is kept: its rows will say so),
 * directories (every regular file under them, recursively, but those whose
 * name starts with "."; sorted), glob patterns (sorted) and "@FILE" lists
 * (one input a line; empty lines and lines starting with "#" skipped;
 * lists within lists up to 4 deep).  Files found in directories and by
 * globs that are not traces by their content are skipped (see
 * every_file), and so is a trace named twice.  The strings are copied;
 * nothing is loaded or replayed yet.
 *
 * Returns SR_OK with *out the sweep, to be freed with sr_sweep_free().
 * Otherwise *out is NULL and diag says why: SR_ERR_IO for an input that
 * does not expand (a list that cannot be opened, a glob that matches
 * nothing, a directory that cannot be read: for that one, and only that
 * one, diag->msg is empty, a gap kept from the command line), SR_ERR_INVAL
 * when the inputs hold no trace, SR_ERR_LIMIT for more than SR_MAX_POLICIES
 * policies (the baseline included), SR_SWEEP_MAX_MACHINES machines, a
 * max_errors above 2^63 - 1, more than SR_SWEEP_MAX_VARIANTS variants or a
 * range above 400, more than SR_REPLAY_MAX_NOISE noise replicas or a
 * jitter above 10^9 ns, SR_ERR_NOMEM.
 */
enum sr_err sr_sweep_new(struct sr_sweep **out, const char *const *inputs, size_t ninputs,
			 const struct sr_sweep_opts *opts, struct sr_diag *diag);

/*
 * Set up the sweep a plan describes (written by sr_sweep_write_plan()):
 * unit I of the plan is unit I of the sweep, with the plan's trace and
 * machine, its paths resolved from the plan's directory.  The policies,
 * baseline, slots cache, input format, max_errors, uncertainty and noise
 * are the plan's (every
 * line must give the same); of opts only format is used.  Blank lines are
 * skipped.
 *
 * Returns SR_OK with *out the sweep, to be freed with sr_sweep_free().
 * Otherwise *out is NULL and diag says why: SR_ERR_IO (the plan cannot be
 * opened), SR_ERR_FORMAT (PLAN:LINE: a line that is not one of a plan, one
 * whose policies or options differ from the first line's, a plan written
 * by another version of swapreplay; an empty plan), SR_ERR_LIMIT (more
 * than SR_MAX_POLICIES policies), SR_ERR_NOMEM.
 */
enum sr_err sr_sweep_open_plan(struct sr_sweep **out, const char *path,
			       const struct sr_sweep_opts *opts, struct sr_diag *diag);

/*
 * Load every machine, once each, and check that the policies load and
 * that the baseline is among them (on the first machine, or on
 * SR_MACHINE_DEFAULT), so that a bad machine file or policy fails here
 * rather than in every unit; and settle what each is for the rows (a
 * machine's name and hash, a policy's own name and a .so's hash).  A
 * plan's sweep loads nothing here: each unit loads its machine and its
 * policies, so that a file one unit needs does not stop the others, and
 * fails if they are not what the plan was written with.  Call once,
 * before anything below.
 *
 * Returns SR_OK, or the error of sr_machine_load() or sr_replay_new()
 * with diag (SR_ERR_INVAL for two specs of the same policy); after an
 * error the sweep is only good for sr_sweep_free().
 */
enum sr_err sr_sweep_load(struct sr_sweep *s, struct sr_diag *diag);

/* The number of units: traces x machines, or the plan's lines (after
 * sr_sweep_prepare(), without a trace that is the output). */
size_t sr_sweep_units(const struct sr_sweep *s);

/* A file of the inputs left out, and why ("a sweep's result file", "the
 * sweep's output", "named more than once"...). */
struct sr_sweep_skip {
	const char *path;
	const char *why;
};

/* The files left out so far (by sr_sweep_new(), and sr_sweep_prepare()
 * for the output), *n of them; valid until the next call or
 * sr_sweep_free().  NULL with *n 0 out of memory. */
const struct sr_sweep_skip *sr_sweep_skipped(struct sr_sweep *s, size_t *n);

/*
 * Write the sweep's plan to path ("-": standard output): one JSON line per
 * unit, with its trace, machine and all the settings, which
 * sr_sweep_open_plan() reads back.  Paths are written relative to the
 * plan's directory (as given when that is the working directory; absolute
 * ones as they are).  The file is whole or absent (swapreplay/outfile.h).
 * After sr_sweep_load(), of a sweep set up from inputs.
 *
 * Returns SR_OK, or the error of creating or committing the file (with
 * diag); the sweep is unchanged either way.
 */
enum sr_err sr_sweep_write_plan(const struct sr_sweep *s, const char *path,
				struct sr_diag *diag);

/* ---- running a sweep ---------------------------------------------------- */

struct sr_sweep_run_opts {
	/* The file the rows are appended to, a whole row per write() as each
	 * unit is done, so that a sweep killed at any moment leaves whole
	 * rows and at most one row cut short; put in unit order at the end
	 * (a regular file).  NULL: the rows go to fd, in unit order. */
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
 * Settle a run: which units, where the rows go.  ro->output is taken for
 * the run: created (O_EXCL) when it does not exist, and locked, so that a
 * second sweep on it fails here; a trace of the inputs that is the output
 * is left out.  Without ro->resume, an output that exists, is a regular
 * file and is not empty is refused, so that results are never mixed by
 * accident.  With ro->resume its rows are read now, and each is matched by
 * its identity to a (unit, policy) of this run: a row that replayed
 * stands (its unit is not replayed for it), a row in error is replayed
 * again, a row of anything else is refused.  Nothing is written or cut
 * yet.  Once, after sr_sweep_load().
 *
 * Returns SR_OK; SR_ERR_INVAL for a unit the sweep does not have, a shard
 * not below nshards, an output refused (it exists; --resume of something
 * that is not a regular file; a row of another trace, machine, policy or
 * option, or of a trace whose content has changed, or a second row of one
 * (unit, policy): diag gives its line and what differs); SR_ERR_IO (it
 * cannot be opened, or another sweep holds it); SR_ERR_FORMAT (a line is
 * not a result row of opts->format), SR_ERR_NOMEM.  After an error the
 * sweep is only good for sr_sweep_free().
 */
enum sr_err sr_sweep_prepare(struct sr_sweep *s, const struct sr_sweep_run_opts *ro,
			     struct sr_diag *diag);

/*
 * Start the run: cut off the output's last row if a kill cut it short (end
 * a whole one that lacks only its newline), write the CSV header unless
 * the output has it, and start the worker threads.  A unit whose every row
 * stands in the output is not run; the others write only the rows it
 * lacks.
 *
 * Returns SR_OK, or SR_ERR_IO (cutting or writing failed) or SR_ERR_NOMEM
 * (also: no worker thread could be created) with diag; after an error the
 * sweep is only good for sr_sweep_free().
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
 * Wait for the next unit to be replayed (to a file: whichever is done
 * first; to a descriptor: the next in unit order), and write its rows;
 * *prog (prog may be NULL) then says how far the run is.  Call it while
 * prog->done < prog->total (sr_sweep_progress() gives the first figures);
 * once every unit is written it returns SR_OK at once.
 *
 * Returns SR_OK, or SR_ERR_IO with diag when the rows could not be
 * written, SR_ERR_NOMEM when they could not be made: the unit still counts
 * as done and the run goes on (call it again for the next unit).
 */
enum sr_err sr_sweep_next(struct sr_sweep *s, struct sr_sweep_progress *prog,
			  struct sr_diag *diag);

/* How far the run is (all 0 before sr_sweep_start()). */
void sr_sweep_progress(const struct sr_sweep *s, struct sr_sweep_progress *prog);

/*
 * End the run: the workers finish the unit they are on (a unit not begun
 * yet is dropped, if the caller stops before the end) and are joined; if
 * every unit was written, an output file is put in order (every row that
 * stands, in unit order, policies in the sweep's order, through a new file
 * renamed over it); the output is closed (and its lock let go).
 *
 * Returns SR_OK, or SR_ERR_IO with diag if ordering or closing the output
 * failed (it then holds the same rows, in the order they came).  Either
 * way the run is over; only sr_sweep_write_summary(), sr_sweep_state() and
 * sr_sweep_free() are left.
 */
enum sr_err sr_sweep_finish(struct sr_sweep *s, struct sr_diag *diag);

/*
 * Write to f a table, per policy: the units it won (the highest throughput
 * of its unit; ties count for each) and its median and worst delta over
 * the units that replayed; with --noise, how many of its deltas were
 * within their timing noise, each counted as the baseline's throughput
 * and a delta of 0 (no difference (within noise): never a win nor a
 * worst).  Over every row that stands in the output file
 * (earlier runs' rows included), or over the rows this run wrote to a
 * descriptor; never read back from the output.  After sr_sweep_finish().
 *
 * Returns SR_OK, or SR_ERR_NOMEM (then nothing is written).
 */
enum sr_err sr_sweep_write_summary(const struct sr_sweep *s, FILE *f, struct sr_diag *diag);

/* The state of the output once the run is over: its units (with a row
 * that stands) and of them those with a row in error, earlier runs' rows
 * included, so that a resume that leaves a unit failed says so. */
struct sr_sweep_state {
	size_t units, failed;
};

void sr_sweep_state(const struct sr_sweep *s, struct sr_sweep_state *st);

/* What sr_sweep_prepare() found in a resumed output. */
struct sr_sweep_resumed {
	size_t rows;          /* rows read back */
	size_t retried;       /* (unit, policy) rows in error, replayed again */
	uint64_t cut_line;    /* the line of a last row cut short (dropped), 0 none */
	int no_final_nl;      /* the last row lacked only its newline (kept) */
};

void sr_sweep_resumed(const struct sr_sweep *s, struct sr_sweep_resumed *r);

/* End a run still going as sr_sweep_finish() does (its error is lost), and
 * free everything.  Accepts NULL. */
void sr_sweep_free(struct sr_sweep *s);

/* ---- merging the results of a plan's units --------------------------- */

/*
 * A merge reads the result files that the units of a plan wrote (with
 * sr_sweep_run_opts.one_unit or .nshards, anywhere), checks each row by
 * its identity (given the plan: the plan's trace, machine, policies and
 * options for its unit; without: the options of the first row, and one
 * trace and machine per unit number), that no (unit, policy) row is there
 * twice and, given the plan, that every unit is there whole, and writes
 * the rows in unit order, policies in the plan's order: the same bytes as
 * a sweep of the whole plan on one machine.  A row in error followed by
 * one that replayed, of the same (unit, policy), gives way to it.
 */
struct sr_sweep_merge;

/*
 * A merge that writes result rows in format fmt.  Returns SR_OK with
 * *out, to be freed with sr_sweep_merge_free(), or SR_ERR_NOMEM (*out
 * NULL).
 */
enum sr_err sr_sweep_merge_new(struct sr_sweep_merge **out, enum sr_sweep_fmt fmt,
			       struct sr_diag *diag);

/*
 * Add the rows of the result file path (a regular file or a pipe), in
 * the format its content shows: JSON lines when its first line that is
 * not blank begins with "{", CSV when with the header ("unit,...").  A
 * whole last row without its newline is kept; a last row cut short is
 * left out and reported by sr_sweep_merge_check() (SR_SWEEP_CUT).
 * Returns SR_OK, or SR_ERR_IO (cannot be opened or read), SR_ERR_FORMAT
 * (a line is not a result row: a plan's line, a row of another schema,
 * a file in neither format) or SR_ERR_NOMEM with diag; the rows read
 * before an error stay in the merge.
 */
enum sr_err sr_sweep_merge_add(struct sr_sweep_merge *m, const char *path,
			       struct sr_diag *diag);

/* The formats of the result files added so far: 1 << SR_SWEEP_JSONL and
 * 1 << SR_SWEEP_CSV for each seen (a file with no row nor header counts
 * for none). */
unsigned sr_sweep_merge_formats(const struct sr_sweep_merge *m);

/* Write rows in format fmt (instead of sr_sweep_merge_new()'s). */
void sr_sweep_merge_set_format(struct sr_sweep_merge *m, enum sr_sweep_fmt fmt);

/*
 * Check the rows against the plan path too: its units, their traces and
 * machines, its policies (in order) and options.  Returns SR_OK, or
 * SR_ERR_IO (it cannot be opened), SR_ERR_FORMAT (PLAN:LINE: not a plan,
 * as sr_sweep_open_plan()) or SR_ERR_NOMEM with diag (the merge is then
 * as before).
 */
enum sr_err sr_sweep_merge_plan(struct sr_sweep_merge *m, const char *path,
				struct sr_diag *diag);

/* What sr_sweep_merge_check() finds wrong, one at a time. */
enum sr_sweep_problem_kind {
	SR_SWEEP_DOUBLED = 1, /* a (unit, policy) row that replayed, more than once (each extra) */
	SR_SWEEP_MISSING = 2, /* a unit of the plan without a row for each of its policies */
	SR_SWEEP_STRAY = 3,   /* a row of a unit number the plan does not have (each row) */
	SR_SWEEP_FOREIGN = 4, /* a row of another trace, machine, policy or option (each row) */
	SR_SWEEP_CUT = 5,     /* a file's last row, cut short (a sweep killed) */
};

/* One problem; its strings are valid during the call. */
struct sr_sweep_problem {
	enum sr_sweep_problem_kind kind;
	uint64_t unit;         /* the row's unit, or (MISSING) the unit */
	const char *policy;    /* DOUBLED, FOREIGN, STRAY: the row's policy */
	size_t rows, want;     /* MISSING: the policies with a row, and the plan's */
	const char *file;      /* DOUBLED, FOREIGN, STRAY, CUT: the row's file ... */
	uint64_t line;         /* ... and line */
	const char *why;       /* FOREIGN: what differs; MISSING: the policies lacking */
};

typedef void (*sr_sweep_problem_fn)(void *ctx, const struct sr_sweep_problem *p);

/* What sr_sweep_merge_check() found, by kind. */
struct sr_sweep_merge_counts {
	size_t doubled, missing, stray, foreign, cut;
};

/*
 * Put the rows in unit order (policies in the plan's order, else in the
 * order they first appear) and check them: fn(ctx, problem), when not
 * NULL, is called for each problem: rows cut short first, then stray and
 * foreign rows (in the order read with a plan, in unit order without),
 * doubled rows, then missing units, in unit order; *counts (may be NULL)
 * gets how many of each.  Units are checked for being missing or stray
 * only with a plan; a foreign row does not count for its unit.
 *
 * Returns SR_OK when nothing is wrong, else SR_ERR_FORMAT with diag saying
 * how many rows and units; the merge can then only be freed.
 */
enum sr_err sr_sweep_merge_check(struct sr_sweep_merge *m, sr_sweep_problem_fn fn, void *ctx,
				 struct sr_sweep_merge_counts *counts, struct sr_diag *diag);

/*
 * Write the rows, checked by sr_sweep_merge_check() without a problem, to
 * path ("-": standard output), in the merge's format, with the CSV header
 * for CSV; a row read in the other format is written as a sweep in this
 * one writes it (the same bytes).  Whole or absent (swapreplay/outfile.h).
 * Returns SR_OK, SR_ERR_INVAL (not checked, or problems found),
 * SR_ERR_FORMAT (FILE:LINE: a row whose figures cannot be read to write
 * it in the other format), or the error of creating or committing the
 * file, with diag.
 */
enum sr_err sr_sweep_merge_write(struct sr_sweep_merge *m, const char *path,
				 struct sr_diag *diag);

/* Free the merge and its rows.  Accepts NULL. */
void sr_sweep_merge_free(struct sr_sweep_merge *m);

#endif /* SWAPREPLAY_SWEEP_H */
