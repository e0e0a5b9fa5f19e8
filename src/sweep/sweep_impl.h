/* SPDX-License-Identifier: MIT */
/*
 * The sweep engine's insides, shared by the files of src/sweep/ only (its
 * public side is include/swapreplay/sweep.h), and for a row's identity
 * (ident.c) and the reading of rows (rows.c: sr_rows_each(),
 * sr_row_figures()) by src/plot/sweep_plot.c, which draws the rows it reads
 * and tells them apart by their identity:
 *
 *   sweep.c     a sweep set up from inputs; machines and policies loaded
 *   inputs.c    lists of strings; inputs expanded into traces, files that
 *               are not traces by content skipped
 *   ident.c     what a row is the result of: the identity table, hashes
 *   plan.c      plans written and read back; the units a run takes
 *   resume.c    a run's output: taken (created or locked), refused, or
 *               continued from the rows it has, matched by identity
 *   schedule.c  the order the workers take units in; the workers; rows
 *               written as units finish, put in order at the end
 *   unit.c      one unit replayed into its rows
 *   rows.c      result rows formatted, written, and read back
 *   summary.c   the summary table, the state of an output
 *   merge.c     result files merged into one
 */
#ifndef SR_SWEEP_IMPL_H
#define SR_SWEEP_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "common/strs.h"
#include "swapreplay/error.h"
#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "swapreplay/sweep.h"
#include "swapreplay/trace.h"

/* One input (a file, a directory, a glob or @LIST) appended to out as
 * trace paths; files found in directories and by globs that are not
 * traces by content go to skipped (path, then why) unless every_file; the
 * errors of sr_sweep_new(). */
enum sr_err sr_sweep_expand(struct sr_strs *out, struct sr_strs *skipped, const char *arg,
			    int every_file, struct sr_diag *d);

/* ---- identity (ident.c) -------------------------------------------------- */

/*
 * The fields that say what a row is the result of, in the order rows
 * write them.  Run fields are the same for every row of a sweep (its
 * options); unit fields are the trace and the machine; policy fields the
 * policy.  ident.c's table gives each its name and kind, and
 * sr_ident_run() derives the run fields from the options.
 */
enum sr_id {
	SR_ID_TOOL,          /* run: the tool's version */
	SR_ID_TRACE,         /* unit: the trace's path */
	SR_ID_TRACE_HASH,    /* unit: its content hash */
	SR_ID_MACHINE,       /* unit: the machine's name */
	SR_ID_MACHINE_HASH,  /* unit: the hash of its whole description */
	SR_ID_MSRC,          /* info: where the machine came from (SR_MSRC_*) */
	SR_ID_MPATH,         /* info: its description file, null for a preset */
	SR_ID_POLICY,        /* policy: its name (a .so's own) and parameters */
	SR_ID_POLICY_HASH,   /* policy: a .so's content hash; null built in */
	SR_ID_BASELINE,      /* run: the baseline, as SR_ID_POLICY */
	SR_ID_BASELINE_HASH, /* run: ... and as SR_ID_POLICY_HASH */
	SR_ID_SLOTS,         /* run: the slots cache */
	SR_ID_KERNEL,        /* run: the kernel generation, or "recorded": each
			      * trace's own (SR_ID_KERNEL_USED says which) */
	SR_ID_RA,            /* run: readahead (sr_readahead_format()) */
	SR_ID_REORDER,       /* run: the reorder window */
	SR_ID_UNC,           /* run: uncertainty variants */
	SR_ID_UNC_RANGE,     /* run: their range in per cent; null without variants */
	SR_ID_INFMT,         /* run: the input format */
	SR_ID_MAXERR,        /* run: bad records skipped */
	SR_ID_PLUG,          /* run: the block plug */
	SR_ID_NODE_MAP,      /* run: --node-map (sr_node_map_format()); null without */
	SR_ID_NOISE,         /* run: --noise, "auto" or the replicas */
	SR_ID_NOISE_JITTER,  /* run: their jitter in ns; null without replicas */
	SR_ID_KERNEL_USED,   /* info: the kernel the unit was replayed on, and why
			      * (sr_kernel_resolve()): with kernel "recorded",
			      * each trace's own */
	SR_ID_COUNT
};

enum sr_id_kind {
	SR_IDK_STR,  /* JSON string or null; CSV as is, empty for null */
	SR_IDK_INT,  /* JSON integer; CSV decimal; text: decimal */
	SR_IDK_BOOL, /* JSON true/false; CSV and text: on/off */
};

/* Info fields say how the unit came to its identity (where its machine
 * came from): written in every row, never compared (the machine's name
 * and hash are what it is). */
enum sr_id_scope { SR_IDS_RUN, SR_IDS_UNIT, SR_IDS_POLICY, SR_IDS_INFO };

struct sr_id_field {
	const char *name;
	enum sr_id_kind kind;
	enum sr_id_scope scope;
	/* The generation of rows of schema /2 that first had it: 0, the
	 * first rows; 1, added since (uncertainty_range, plug...); 2, added
	 * after those (node_map); 3, after those (noise).  Rows and plans of
	 * an earlier generation are read, the fields they lack as `absent`
	 * (the CSV header of generation g has the columns of generations up
	 * to g). */
	int added;
	/* What a row or plan written before the field had was: NULL (null),
	 * or a value (noise: "0", they were replayed without replicas). */
	const char *absent;
};
/* Generations of rows of schema /2 (above): the newest is
 * SR_ID_GENERATIONS - 1. */
#define SR_ID_GENERATIONS 5

/* Where a unit's machine came from, in that order of precedence. */
/* (sr_machine_src_name() names them so.) */
#define SR_MSRC_OPTION "-m"                /* --machine (in a plan: when it was written) */
#define SR_MSRC_BESIDE "beside the trace"  /* X.machine.json beside the trace X.EXT[.zst] */
#define SR_MSRC_HEADER "trace header"      /* recorded in the trace's header (.swt) */
#define SR_MSRC_DEFAULT "default"          /* SR_MACHINE_DEFAULT */

extern const struct sr_id_field sr_id_fields[SR_ID_COUNT];

/* An identity: each field's value as text (kinds above), NULL for null. */
struct sr_ident {
	const char *v[SR_ID_COUNT];
};

/* The schema of result rows and of plans. */
#define SR_ROW_SCHEMA "swapreplay-sweep/2"
#define SR_PLAN_SCHEMA "swapreplay-plan/2"
/* What a sweep replays with, fixed for now: an entry of the identity so
 * that a later option changing it is seen in old rows. */
#define SR_SWEEP_REORDER SR_REORDER_DEFAULT

/* A content hash as rows write it: "fnv1a64:" and 16 hex digits. */
#define SR_HASH_LEN 25
typedef char sr_hash_t[SR_HASH_LEN + 1];

void sr_hash_fmt(sr_hash_t out, uint64_t h);
/* FNV-1a 64 of a whole file's bytes as stored (the reader's content hash
 * once it has read to the end); 0, or -1 with errno. */
int sr_hash_file(const char *path, sr_hash_t out);
/* The hash of a machine's whole description: of its JSON, with keys
 * sorted and no spaces, so that only a change of content counts; 0 or -1
 * out of memory (or a description jansson cannot read back). */
int sr_hash_machine(const struct sr_machine *m, sr_hash_t out);
/* A policy's identity from its spec and the name its ops table gives:
 * name[:PARAMS] in *name, malloc'ed; for a shared object (a spec with a
 * "/") the hash of its file in hash, else hash "".  0, -1 (errno: ENOMEM,
 * or the error reading the .so). */
int sr_policy_ident(const char *spec, const char *ops_name, char **name, sr_hash_t hash);

/* The run fields of s (its options) into s->run_v: 0 or -1 out of memory.
 * The table of options that change a figure is there. */
struct sr_sweep;
int sr_ident_run(struct sr_sweep *s);
/* Fields of scope sc whose values differ between a and b, as
 * "name X, not Y" joined by "; " into buf (empty when none differ); NULL
 * in a counts as equal to anything when wild_a (a row that failed before
 * it knew the value).  Returns the number that differ. */
int sr_ident_diff(const struct sr_ident *a, const struct sr_ident *b, enum sr_id_scope sc,
		  int wild_a, char *buf, size_t size);
/* Two values equal (both NULL, or the same text). */
int sr_id_eq(const char *a, const char *b);
/* v as JSON of kind k (null, true/false, a number, a string), malloc'ed;
 * NULL out of memory. */
char *sr_id_to_json(const char *v, enum sr_id_kind k);
/* A JSON value v of kind k as text: 0 with *out (into v, or num), NULL for
 * a JSON null; -1 when v is missing or not of the kind. */
int sr_id_from_json(const json_t *v, enum sr_id_kind k, char num[24], const char **out);

/* ---- result rows (rows.c) ------------------------------------------------ */

/* One result row: what it is the result of, and what resume, merge and
 * the summary need of its figures. */
struct sr_row {
	uint64_t unit;
	struct sr_ident id;    /* into idbuf */
	char *idbuf;
	int ok;                /* status "ok", or SR_ROW_QUIET: a result that stands */
	int quiet;             /* status SR_ROW_QUIET: a trace without swap events */
	double throughput;     /* KiB/s */
	double delta;          /* % */
	/* --noise: the delta's timing noise (delta_noise_pct) was measured,
	 * its value, and whether the delta is within it (delta_in_noise:
	 * sr_delta_in_noise() when the row was made). */
	int noise_on;
	double noise;          /* % */
	int in_noise;
	char *line;            /* the whole row, with its "\n" */
	const char *file;      /* where it was read (NULL: written by this run) */
	uint64_t lineno;       /* ... and its first line there */
	size_t pol;            /* once matched: the index of its policy */
	enum sr_sweep_fmt fmt; /* of line */
	int old;               /* read back without the fields added since (ident.c) */
};

struct sr_rows {
	struct sr_row *v;
	size_t n, cap;
	struct sr_strs files;  /* the names rows' file point into */
};

/* What reading a result file found besides rows. */
struct sr_rows_info {
	off_t good_len;        /* bytes up to the end of the last whole row */
	int no_final_nl;       /* the last row is whole but lacks its "\n" */
	uint64_t cut_line;     /* the line of a last row cut short, 0 none */
	int header;            /* CSV: the file has the header */
	int fmt;               /* the format read (an enum sr_sweep_fmt), -1: no
				* row nor header to tell (sr_rows_read_file_any()) */
};

/* The CSV header line of result rows (with "\n"), made from the identity
 * table. */
const char *sr_rows_csv_header(void);

/*
 * Rows are read by one reader, whoever reads them (--resume, merge, plot):
 * a line at a time, a CSV row across the lines a quoted field spans; a
 * blank line (spaces, tabs and "\r" at most) is nothing.  A row is
 * refused unless it is one this swapreplay reads back: its schema, its
 * unit first, every field of its identity (those added since its rows
 * were first written may be missing: null), its status, and in a row
 * that replayed every figure a number (JSON: of its kind; CSV: finite).
 * A last row cut short (a kill) is left out and its line given in
 * info->cut_line; a whole last row without its "\n" is kept.
 */

/*
 * Append the rows of the result file name, size bytes read from fd (size
 * 0: to its end), to rows; *info says what else was found.  SR_ERR_IO (a
 * read failed), SR_ERR_FORMAT (a row that is not one: a plan, a row of
 * another schema, a CSV header of another version, a NUL byte, with the
 * line), SR_ERR_NOMEM; the rows read before an error stay in rows.
 */
enum sr_err sr_rows_read_fd(struct sr_rows *rows, int fd, off_t size, const char *name,
			    enum sr_sweep_fmt fmt, struct sr_rows_info *info, struct sr_diag *d);
/* The same, opening path (a regular file or a pipe), in the format the
 * file's content shows: JSON lines when its first line that is not blank
 * begins with "{", CSV when with "unit," (info->fmt says which; -1 for a
 * file without such a line, which has no rows); SR_ERR_FORMAT with the
 * line for anything else. */
enum sr_err sr_rows_read_file_any(struct sr_rows *rows, const char *path,
				  struct sr_rows_info *info, struct sr_diag *d);
/* Handed each row read, in the file's order: r is the callee's, to keep
 * or to free (sr_row_free()); r->file is the name read, valid during the
 * call.  SR_OK reads on; an error (d set) stops the reading, which returns
 * it. */
typedef enum sr_err (*sr_row_fn)(void *ctx, struct sr_row *r, struct sr_diag *d);
/*
 * The rows of path ("-": standard input; zstd-compressed or not), in the
 * format its content shows (as sr_rows_read_file_any()), each handed to
 * fn with ctx as they are read, so that no more than a row is held; a
 * line longer than max bytes (0: any) is refused, SR_ERR_LIMIT with its
 * line.  Errors as sr_rows_read_fd(), and fn's.
 */
enum sr_err sr_rows_each(const char *path, size_t max, sr_row_fn fn, void *ctx,
			 struct sr_rows_info *info, struct sr_diag *d);
/* Free the rows; rows is empty afterwards. */
void sr_rows_free(struct sr_rows *rows);
/* Take r (its strings too) into rows; 0 or -1 out of memory (r then freed). */
int sr_rows_add(struct sr_rows *rows, struct sr_row *r);
/* Free one row's strings. */
void sr_row_free(struct sr_row *r);

/* The status of the rows of a trace without swap events (a vmstat log of
 * a quiet machine): a valid, empty trace, not an error. */
#define SR_ROW_QUIET "no swap activity"

/* Make r the row of unit for identity id: the figures p with events, or
 * (p NULL) the error, or (p and error NULL) a row of status SR_ROW_QUIET.
 * 0, or -1 out of memory (r then empty). */
int sr_row_make(struct sr_row *r, enum sr_sweep_fmt fmt, uint64_t unit,
		const struct sr_ident *id, const struct sr_policy_result *p, uint64_t events,
		const char *error);
/* r's line in format fmt, malloc'ed into *line: the bytes sr_row_make()
 * writes for the same row in fmt (its own line when fmt is r's, unless it
 * is old: then with the fields added since, null).  0, -1
 * out of memory, -2 when its figures cannot be read from its line (a row
 * read back whose figures are missing or not numbers). */
int sr_row_line_as(const struct sr_row *r, enum sr_sweep_fmt fmt, char **line);
/* r's status and figures as text, malloc'ed into *key: two rows of the
 * same status and figures, in either format, have the same text, and
 * rows of other figures another (numbers to the last bit).  0, -1 out of
 * memory, -2 when its figures cannot be read from its line (as
 * sr_row_line_as()). */
int sr_row_figures(const struct sr_row *r, char **key);
/* Give r the unit number unit (its line too); 0 or -1 out of memory. */
int sr_row_renumber(struct sr_row *r, enum sr_sweep_fmt fmt, uint64_t unit);

/* s as a JSON string (quotes and escapes included: sr_json_quote()),
 * malloc'ed; NULL out of memory. */
char *sr_json_str(const char *s);

/* Write all of buf, with one write() when the system takes it; 0 or -1
 * (errno). */
int sr_write_all(int fd, const char *buf, size_t len);

/* ---- plans (plan.c) ------------------------------------------------------ */

/* One unit of a plan: its trace as the plan names it and as opened from
 * here (resolved from the plan's directory), its machine (NULL: the
 * trace's own), with the name and hash it had when the plan was written,
 * where it came from (SR_MSRC_OPTION or SR_MSRC_BESIDE; NULL with mspec
 * NULL) and, for a file, its path as the plan stores it (mstored). */
struct sr_plan_unit {
	char *trace, *trace_path;
	char *mspec, *mname, *mhash;
	char *msrc, *mstored;
};

/* A plan read back: its units, its policies (specs resolved from the
 * plan's directory, identities as written) and its options. */
struct sr_plan {
	struct sr_plan_unit *u;
	size_t n, cap;
	char **spec, **pname, **phash; /* np each; phash[k] NULL: built in */
	size_t np;
	char *baseline;                /* a spec among spec[] */
	char *run_v[SR_ID_COUNT];      /* the run fields as written */
	int slots_cache;
	int plug;
	struct sr_kernel kernel;
	int kernel_recorded;           /* its kernel is "recorded": each trace's own */
	struct sr_readahead_opts ra;
	struct sr_node_map node_map;
	enum sr_format infmt;
	uint64_t max_errors;
	unsigned unc, unc_range;       /* variants, and their range in per cent */
	int noise;                     /* as sr_sweep.noise */
	unsigned noise_jitter;
};

/* Read the plan path (a line per unit, every line checked); SR_ERR_IO,
 * SR_ERR_FORMAT with PLAN:LINE, SR_ERR_NOMEM. */
enum sr_err sr_plan_read(struct sr_plan *p, const char *path, struct sr_diag *d);
void sr_plan_free(struct sr_plan *p);

/* ---- the sweep ----------------------------------------------------------- */

struct sr_cost_class; /* schedule.c */

/* The machine description beside a trace (sweep.c): for a trace
 * DIR/X.EXT or DIR/X.EXT.zst, DIR/X.machine.json, as the capture script
 * writes them (traces/capture/).  Used, when no machine is given, before
 * the trace header's. */
struct sr_beside {
	char *path;            /* NULL: no such file beside the trace */
	struct sr_machine *m;  /* loaded; NULL: it could not be (err) */
	char *name, *hash;     /* m's identity */
	char *err;             /* why it could not be loaded */
};

/* sr_machine_load() for a sweep: a preset, or a regular file; a FIFO, a
 * directory or a device is refused (SR_ERR_IO, diag naming it) rather
 * than read: a FIFO beside a trace would block the sweep for ever. */
enum sr_err sr_sweep_machine_load(struct sr_machine **out, const char *spec,
				  struct sr_diag *d);

struct sr_sweep {
	/* What is swept (sweep.c, plan.c). */
	struct sr_strs traces;      /* the paths opened */
	struct sr_strs names;       /* a plan's: the traces as rows name them */
	struct sr_strs machines, policies;
	struct sr_strs skipped;     /* path, why, path, why... */
	struct sr_sweep_skip *skip_list; /* the same for the API, built on demand */
	char *baseline;
	size_t bl;                  /* the baseline's index in policies */
	int slots_cache;
	int plug;                   /* as sr_replay_opts.plug */
	struct sr_kernel kernel;    /* the kernel generation replayed */
	int kernel_recorded;        /* no --kernel: each unit's is the one recorded
				     * with its trace, else SR_KERNEL_DEFAULT
				     * (sr_kernel_resolve()); kernel unused */
	struct sr_readahead_opts ra; /* the readahead replayed */
	struct sr_node_map node_map; /* --node-map (none: zeroed) */
	struct sr_read_opts ro;
	enum sr_sweep_fmt fmt;
	unsigned unc, unc_range;    /* --uncertainty variants, range in per cent */
	int noise;                  /* --noise replicas; SR_SWEEP_NOISE_AUTO: per trace */
	unsigned noise_jitter;      /* their jitter, ns (never 0) */
	size_t nunits;
	int from_plan;              /* unit u is traces[u] on machines of the plan */
	struct sr_plan plan;        /* from_plan: what it says of its units */
	struct sr_machine **mach;   /* loaded once per machine, NULL: per trace */
	struct sr_beside *bes;      /* per trace, without machines: the one beside it */
	char **mname, **mhash;      /* per machine: its name and hash */
	char **pname, **phash;      /* per policy: its identity (phash NULL: built in) */
	char *run_v[SR_ID_COUNT];   /* the run fields (sr_ident_run()) */
	int loaded;                 /* sr_sweep_load() succeeded */

	/* The run's output (resume.c). */
	int prepared;               /* sr_sweep_prepare() succeeded */
	char *out_path;             /* NULL: out_fd, the caller's */
	char *out_name;             /* what messages call the output */
	int out_fd;                 /* -1 until opened */
	int out_regular;            /* out_path is a regular file: put in order at the end */
	int resume;
	struct sr_rows rows;        /* the output's rows: read back, then written */
	struct sr_rows_info info;   /* what reading it back found */
	size_t old_rows;            /* rows[0..old_rows) were there before the run */
	size_t *win;                /* [unit * np + policy]: 1 + the row that stands, 0 none */
	size_t retried;             /* (unit, policy) rows in error the run replays again */
	int settle;                 /* the output must be rewritten in order at the end */
	int one_unit;
	uint64_t unit, shard, nshards;
	unsigned jobs_asked;
	unsigned char *skip;        /* per unit: nothing to do (resume, shard) */
	unsigned char *have;        /* [unit * np + policy]: an ok row stands already */
	char **thash;               /* per trace: content hash, computed for resume */
	char **hmname, **hmhash;    /* per trace: the machine of its header, for resume */
	unsigned char *hknown;      /* per trace: thash computed */
	unsigned char *hmknown;     /* per trace: hmname and hmhash computed */

	/* Between the workers and the writer (schedule.c). */
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	struct sr_cost_class *cls;  /* what the workers take next */
	size_t ncls;
	off_t *usize;               /* per unit: its trace's size on disk */
	size_t left;                /* units to do not yet handed out */
	size_t jobs;                /* the CPUs the run may use */
	int stop;                   /* hand out no more units */
	struct sr_row **out;        /* per unit: its rows, once done (NULL: out of memory) */
	size_t *nout;               /* ... how many */
	unsigned char *udone;       /* per unit: replayed, out[] set */
	size_t *doneq;              /* units done, in the order they were */
	size_t ndoneq, qhead;
	int *failed;                /* per unit: 1 if it failed */
	uint64_t *events;           /* per unit: events replayed */
	pthread_t *th;
	size_t nth;                 /* threads running */
	int started, finished, write_failed;
	size_t next;                /* the next unit to write, in unit order */
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

/* The trace of unit u as rows name it. */
static inline const char *sr_unit_trace_name(const struct sr_sweep *s, size_t u)
{
	return s->from_plan ? s->names.v[u] : s->traces.v[sr_unit_trace(s, u)];
}

/* The identity unit u is expected to have for policy k: the run fields,
 * the trace, the machine where it is known before the unit runs (given,
 * or the plan's) and the policy.  The trace's hash is left NULL. */
void sr_unit_ident(const struct sr_sweep *s, size_t u, size_t k, struct sr_ident *id);

/* Mark the units the run skips (sr_sweep_prepare()'s selection, plan.c):
 * s->skip must be allocated. */
void sr_sweep_select(struct sr_sweep *s);

/* Settle what the rows read back mean for this run (resume.c): each
 * matched to its unit and policy by identity, or refused. */
enum sr_err sr_sweep_match_old(struct sr_sweep *s, struct sr_diag *d);
/* Open the output for the run: cut off a row cut short, end a last row
 * without its newline, write the CSV header (resume.c, for
 * sr_sweep_start()). */
enum sr_err sr_sweep_open_output(struct sr_sweep *s, struct sr_diag *d);
/* Put a run's output file in order: every (unit, policy) row that stands,
 * in unit order, policies in the sweep's order (resume.c). */
enum sr_err sr_sweep_settle(struct sr_sweep *s, struct sr_diag *d);

/* Free what the schedule holds (schedule.c). */
void sr_sweep_free_schedule(struct sr_sweep *s);

/* Replay unit u; *out gets its rows (only those not standing already) and
 * *nout how many, or *out NULL out of memory; ahead: order the events on
 * a thread of their own (unit.c). */
void sr_unit_run(struct sr_sweep *s, size_t u, int ahead, struct sr_row **out, size_t *nout,
		 int *failed, uint64_t *nev);

/* Per policy: wins (highest throughput of its unit; a delta within its
 * timing noise counts as the baseline's), median and worst delta (one
 * within its noise as 0), over the ok rows that stand; printed as a
 * table (summary.c). */
void sr_rows_summary(FILE *f, const struct sr_row *const *rows, size_t n,
		     const char *const *policies, const char *const *hashes, size_t np);

#endif /* SR_SWEEP_IMPL_H */
