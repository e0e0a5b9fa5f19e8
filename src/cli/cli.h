/* SPDX-License-Identifier: MIT */
/* The command line: a thin layer over libswapreplay.  Only this layer
 * prints and chooses the exit status. */
#ifndef SR_CLI_H
#define SR_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/plot.h"
#include "swapreplay/replay.h"
#include "swapreplay/trace.h"

/* Exit statuses (documented in README.md and --help). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,  /* anything else: out of memory, a policy failed */
	EXIT_USAGE = 2, /* bad command line */
	EXIT_DATA = 3,  /* bad input: a trace, a machine description */
	EXIT_IO = 4,    /* a file could not be opened, read or written */
	EXIT_EMPTY = 5, /* replay: the trace holds no swap events, nothing to replay */
	EXIT_SIGNAL_BASE = 128,
};

struct cli_cmd {
	const char *name;
	const char *summary; /* one line, for `swapreplay --help` */
	const char *help;    /* the whole text of `swapreplay help NAME` */
	int (*run)(int argc, char **argv); /* argv[0] is the command's name */
};

/* ---- option parsing (pure: no globals, no printing; fuzzed) ---------- */

enum { CLI_NOARG = 0, CLI_ARG = 1, CLI_OPTARG = 2 };

struct cli_opt {
	const char *name;  /* long name without "--" */
	char short_name;   /* 0 if none */
	int has_arg;
	int id;            /* > 0 */
};

struct cli_parser {
	int argc;
	char **argv;
	int i;             /* next argv index */
	int only_args;     /* after "--" */
	const struct cli_opt *opts; /* terminated by an entry with name NULL */
	char err[256];
};

void cli_parser_init(struct cli_parser *p, int argc, char **argv,
		     const struct cli_opt *opts);

/* Next item: an option id (> 0, *val its argument or NULL), 0 for a
 * positional argument (*val), -1 at the end, -2 on error (p->err). */
int cli_next(struct cli_parser *p, const char **val);

/* Parse a whole decimal number in [min, max]; 0 or -1. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* --noise's argument (replay, sweep): "auto" (-1) or 0 to
 * SR_REPLAY_MAX_NOISE replicas; --noise-jitter's: 1 to CLI_JITTER_MAX ns.
 * 0 or -1; their messages: CLI_NOISE_TAKES, CLI_JITTER_TAKES. */
int cli_parse_noise(const char *s, int *out);
int cli_parse_noise_jitter(const char *s, unsigned *out);
#define CLI_JITTER_MAX 1000000000u
#define CLI_NOISE_TAKES "auto or 0 to %d replicas"
#define CLI_JITTER_TAKES "1 to 1000000000 ns"
/* Parse a size in bytes with an optional K, M, G or T suffix (powers of
 * 1024; "KiB", "MiB"... also accepted; "MB" is refused as ambiguous);
 * 0 or -1. */
int cli_parse_size(const char *s, uint64_t *out);
/* What cli_parse_size() takes, for every error message of a size option:
 * "--OPT takes " CLI_SIZE_TAKES ", not '%s'". */
#define CLI_SIZE_TAKES "a whole number of bytes with an optional K, M, G or T (powers of " \
	"1024: 1G and 1GiB work; KB, MB, GB and TB are refused as ambiguous)"

/* ---- shared helpers --------------------------------------------------- */

/* A list of strings, each owned (lists.c): a command's inputs, machines,
 * policies.  Zeroed is empty. */
struct cli_strs {
	char **v;
	size_t n, cap;
};
/* Append a copy of x[0..len); 0, or -1 out of memory. */
int cli_strs_add(struct cli_strs *s, const char *x, size_t len);
/* Put a copy of x first; 0, or -1 out of memory. */
int cli_strs_prepend(struct cli_strs *s, const char *x);
/* The index of x[0..len) in s, or -1. */
int cli_strs_find(const struct cli_strs *s, const char *x, size_t len);
/* "a,b,c" appended, each once: 0, -1 out of memory, -2 an empty item. */
int cli_strs_split(struct cli_strs *s, const char *arg);
/* --policy=LIST, for replay and sweep alike: comma separated, "all" for
 * every built-in but the example (sr_policy_all()), each policy once (a
 * shared object's path holds no comma).  0, -1 out of memory, -2 an
 * empty name. */
int cli_policy_list(struct cli_strs *s, const char *arg);
/* --tiers=CGROUP:TIER[+TIER...],... or @FILE (a line per cgroup, "CGROUP
 * TIER[+TIER...]") of cmd: the policy "tiers:CGROUP=TIER+TIER;..." added
 * to policies (once); 0, -1 out of memory, or EXIT_USAGE after printing
 * why. */
int cli_tiers_spec(const char *cmd, const char *val, struct cli_strs *policies);
/* Warn of each cgroup of a tiers policy's params no memcg path of the
 * trace (mc) is, or is below: its assignment changed nothing. */
void cli_tiers_unused(const char *trace, const char *params, const struct sr_memcgs *mc);
void cli_strs_free(struct cli_strs *s);

/* Print "swapreplay: MSG" to stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a diagnostic and return the exit status for its code. */
int cli_diag(const struct sr_diag *d);
int cli_status(enum sr_err err);
/* "swapreplay: CMD: MSG\nTry 'swapreplay help CMD'." and EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print the warnings a finished (or failed) read left: unknown fields,
 * timestamps going backwards, skipped records. */
void cli_read_warnings(const char *name, const struct sr_read_stats *st);

/* Warn of what machine m's description sets that the model does not use
 * (m->notes, a warning a line). */
void cli_machine_notes(const struct sr_machine *m);

/* --to=FORMAT and --zstd[=LEVEL] (level -1 until given); 0 or EXIT_USAGE
 * after printing the error. */
int cli_opt_to(const char *cmd, const char *val, enum sr_format *fmt);
int cli_opt_zstd(const char *cmd, const char *val, int *level);
/* Settle wo->format (from --to, else out's name) and wo->zstd_level (from
 * --zstd, else whether out ends in .zst); 0 or EXIT_USAGE. */
int cli_output_format(const char *cmd, const char *out, int level,
		      struct sr_write_opts *wo);
/* An --OPT=on|off of cmd into *on (1 or 0): 0, or EXIT_USAGE after
 * printing what it takes. */
int cli_opt_on_off(const char *cmd, const char *opt, const char *val, int *on);
/* --kernel=VERSION into *k: 0, or EXIT_USAGE after printing why. */
int cli_opt_kernel(const char *cmd, const char *val, struct sr_kernel *k);
/* --slots-cache given for kernel k: 0, or EXIT_USAGE after printing that k
 * has no slots cache. */
int cli_kernel_slots(const char *cmd, const struct sr_kernel *k);

/* 0, or the exit status (with the message printed) when out is an existing
 * file that is also one of the n inputs: never write over what is read. */
int cli_check_output(const char *out, const char *const *inputs, size_t n);

/* --plot=FILE (or plot's -o) of cmd: its format by its name into *fmt; 0,
 * or EXIT_USAGE after printing that it takes .svg, .png or .pdf. */
int cli_opt_plot(const char *cmd, const char *path, enum sr_plot_fmt *fmt);
/* Draw a chart with draw(stream, fmt, arg, diag) into path, whole or not at
 * all: 0, or the exit status after printing the diagnostic. */
typedef enum sr_err (*cli_plot_fn)(FILE *f, enum sr_plot_fmt fmt, const void *arg,
				   struct sr_diag *diag);
int cli_write_plot(const char *path, enum sr_plot_fmt fmt, cli_plot_fn draw, const void *arg);

/* memguard.c: this process's resident memory, bytes (0 if unknown); and
 * the memory the system lets it take beyond it: MemAvailable, or what its
 * memory cgroup has left when that is less (UINT64_MAX: no limit known),
 * with where that came from in why. */
uint64_t cli_mem_rss(void);
uint64_t cli_mem_available(char *why, size_t n);

/* Which temporary output files exist, for the signal handler. */
void cli_install_signals(void);

/* -q: no warnings (cli_warn, cli_read_warnings) and no progress; errors
 * are printed still. */
extern int cli_quiet;

/* The progress of a long read on standard error (progress.c): AUTO is a
 * line redrawn in place when standard error is a terminal, else nothing;
 * LOG a line every 10 s and one at the end (--progress). */
enum cli_progress_mode { CLI_PROGRESS_AUTO, CLI_PROGRESS_OFF, CLI_PROGRESS_TTY, CLI_PROGRESS_LOG };
struct cli_progress {
	enum cli_progress_mode mode;
	const char *name;
	unsigned replays;      /* the machine, its --uncertainty variants and --noise replicas */
	double t0, last;
	int drawn;             /* a terminal line is showing */
};
void cli_progress_start(struct cli_progress *p, enum cli_progress_mode mode, const char *name,
			unsigned replays);
/* Cheap when nothing is due: call it after every batch. */
void cli_progress_update(struct cli_progress *p, const struct sr_reader *r, uint64_t events);
/* Erase the terminal line; into a log, the last line (when ok). */
void cli_progress_end(struct cli_progress *p, const struct sr_reader *r, uint64_t events, int ok);
/* Non-zero once SIGINT/SIGTERM arrived (the handler has cleaned up). */
extern volatile int cli_interrupted;

extern const struct cli_cmd cmd_replay;
extern const struct cli_cmd cmd_policies;
extern const struct cli_cmd cmd_machines;
extern const struct cli_cmd cmd_machine;
extern const struct cli_cmd cmd_capture_fixup;
extern const struct cli_cmd cmd_convert;
extern const struct cli_cmd cmd_gen;
extern const struct cli_cmd cmd_sweep;
extern const struct cli_cmd cmd_merge;
extern const struct cli_cmd cmd_stat;
extern const struct cli_cmd cmd_compare;
extern const struct cli_cmd cmd_plot;

#endif /* SR_CLI_H */
