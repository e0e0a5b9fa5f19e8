/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/trace.h - streaming trace readers and writers.
 *
 * A reader opens a file (or "-" for standard input), detects its format from
 * its content (zstd magic, binary magic, then JSON lines or CSV) unless told,
 * and hands back events in file order.  Memory use does not depend on the
 * length of the trace.  The formats are described in traces/FORMAT.md.
 */
#ifndef SWAPREPLAY_TRACE_H
#define SWAPREPLAY_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"

enum sr_format {
	SR_FMT_AUTO = 0,
	SR_FMT_CSV = 1,
	SR_FMT_JSONL = 2,
	SR_FMT_SWT = 3, /* the native binary format */
	SR_FMT_VMSTAT = 4, /* a vmstat log, read as a coarse trace (read only) */
};

/* "csv", "jsonl", "swt", "vmstat" (or "auto"). */
const char *sr_format_name(enum sr_format f);
/* Parse "csv", "jsonl"/"json", "swt"/"binary", "vmstat", "auto"; SR_ERR_INVAL if none. */
enum sr_err sr_format_parse(const char *s, enum sr_format *out);

/* At most this many nodes in a mix (struct sr_node_mix). */
#define SR_NODE_MIX_MAX 16

/*
 * A mix of NUMA nodes given as fractions, for the nodes of the events
 * derived from a vmstat log (traces/FORMAT.md, "vmstat logs").  n == 0: no
 * mix (the single node of sr_read_opts is used).  Otherwise node[0..n-1]
 * are distinct and below SR_MAX_NODES, and frac[0..n-1] are in (0, 1] and
 * add up to 1 within 1e-6 (the reader normalises them); the reader refuses
 * anything else with SR_ERR_INVAL.
 */
struct sr_node_mix {
	unsigned n;
	unsigned node[SR_NODE_MIX_MAX];
	double frac[SR_NODE_MIX_MAX];
};

#define SR_VMSTAT_MAX_TASKS 65536u

struct sr_read_opts {
	enum sr_format format; /* SR_FMT_AUTO: detect from content */
	uint64_t max_errors;   /* bad records skipped before failing; 0 = strict */
	int decompress_thread; /* 1: decompress zstd text input on a thread of its own */
	/* vmstat logs (traces/FORMAT.md); 0 means the default. */
	uint64_t vmstat_interval_ns; /* between lines without -t timestamps; 0: 1 s */
	unsigned cpu_node;     /* cpu_nid of the derived events (default 0) */
	unsigned mem_node;     /* page_nid of the derived events (default 0) */
	/* Or mixes of nodes (n > 0): cpu_node and mem_node are then unused.
	 * The (cpu node, memory node) pairs, of weight cpu frac x mem frac,
	 * share out the events of each op deterministically: after any t of
	 * them, each pair has from floor(w t) to ceil(w t) (traces/FORMAT.md). */
	struct sr_node_mix cpu_mix;
	struct sr_node_mix mem_mix;
	/* Tasks the derived events are shared among, in turn (0: one per CPU
	 * node); with a CPU mix, in proportion to its fractions, at least one
	 * per node.  At most SR_VMSTAT_MAX_TASKS. */
	uint32_t vmstat_tasks;
	int content_hash;      /* 1: hash the file's bytes (stats.content_hash) */
};

/* What a reader has seen so far; valid at any time, also after an error. */
struct sr_read_stats {
	uint64_t events;        /* events handed out */
	uint64_t skipped;       /* bad records skipped under max_errors */
	uint64_t ts_backwards;  /* events whose ts_ns is below the previous one */
	uint64_t bytes_in;      /* decompressed bytes consumed */
	int compressed;         /* input was zstd */
	enum sr_format format;  /* detected or forced */
	char unknown_fields[256]; /* ignored columns/keys, comma separated ("" if none) */
	char first_skip[512];   /* diagnostic of the first skipped record */
	uint64_t content_hash;  /* FNV-1a 64 of the file as stored; set at the end
				 * when opts.content_hash asked for it */
	int complete;           /* the end was reached without an error */
	char derived[256];      /* non-empty: the events were derived from a
				 * coarser source, which this names */
};

struct sr_reader;

/*
 * Open path ("-" = stdin) for reading.  opts may be NULL (auto, strict).
 * On success *out owns the file; free it with sr_reader_close().  On error
 * *out is NULL, diag says why, nothing stays open.
 */
enum sr_err sr_reader_open(struct sr_reader **out, const char *path,
			   const struct sr_read_opts *opts, struct sr_diag *diag);

/*
 * Read up to cap events into evs; *n gets how many.  *n == 0 with SR_OK
 * means end of trace.  On error, the events already stored in evs (*n of
 * them) are valid, and every later call returns the same error.
 */
enum sr_err sr_reader_read(struct sr_reader *r, struct sr_event *evs, size_t cap,
			   size_t *n, struct sr_diag *diag);

/*
 * The machine description embedded in a binary trace's header (a JSON
 * document, NUL-terminated, owned by the reader), or NULL if there is none.
 */
const char *sr_reader_machine_json(const struct sr_reader *r);

/*
 * What to call that description in a message, naming the trace ("machine
 * in the header of FILE"): the origin to give sr_machine_parse(), so that
 * an error in it says which trace holds it.
 */
const char *sr_reader_machine_origin(const struct sr_reader *r);

/*
 * Whether events of this trace may carry a virtual address (vaddr), as
 * its format says from the start: a CSV header with the vaddr column, JSON
 * lines (any line may have one), .swt version 2 or 3.  Not whether any does.
 */
int sr_reader_may_vaddr(const struct sr_reader *r);

/*
 * Whether this trace may hold task ops (fork, exit, wait) with their child,
 * as its format says from the start: a CSV header with the child column,
 * .swt version 3.  Not whether any does.  Not JSON lines, though any line
 * may be one (a CSV written from them on standard output keeps the columns
 * it always had), nor a CSV without the column, though it may hold an
 * exit (which names no child).
 */
int sr_reader_may_tasks(const struct sr_reader *r);

/*
 * Whether swap-outs of this trace may say who reclaimed them (reclaim), or
 * swap-ins what fault read them (fault), as its format says from the
 * start: a CSV header with the column, .swt version 4.  Not whether any
 * does.  Not JSON lines, as for the task ops.
 */
int sr_reader_may_reclaim(const struct sr_reader *r);
int sr_reader_may_fault(const struct sr_reader *r);

/*
 * Whether swap events of this trace may name their memory cgroup (memcg),
 * as its format says from the start: a CSV header with the column, JSON
 * lines (any line may), .swt version 5.  Not whether any does.
 */
int sr_reader_may_memcg(const struct sr_reader *r);

/* ---- memory cgroups' paths -------------------------------------------- */

/*
 * The paths of the memory cgroups a trace names (traces/FORMAT.md, "Memory
 * cgroups"): an event carries its memcg's id (sr_event.memcg); the trace
 * names each id's path once.  A reader fills its own table as it reads
 * (sr_reader_memcgs()); a writer writes the path of an event's memcg
 * with the first of its events it writes, from the table it is given.
 * Looking up is safe on another thread than the one that sets (a writer
 * behind a reader's pipe); setting is one thread's.
 */
struct sr_memcgs;

/* An empty table; SR_ERR_NOMEM. */
enum sr_err sr_memcgs_new(struct sr_memcgs **out);
void sr_memcgs_free(struct sr_memcgs *m);
/*
 * Name memcg id (1 to SR_MEMCG_MAX) path[0..len) (from '/', at most
 * SR_MEMCG_PATH_MAX bytes, no control byte).  0 when named now or so
 * already; -1 with msg when the path is not one, or the id was named
 * another path before (one path per memcg in a trace); -2 out of memory.
 */
int sr_memcgs_set(struct sr_memcgs *m, unsigned id, const char *path, size_t len, char *msg,
		  size_t msz);
/* The path of memcg id, or NULL (none named; m NULL). */
const char *sr_memcgs_path(const struct sr_memcgs *m, unsigned id);
/* How many ids are named. */
unsigned sr_memcgs_count(const struct sr_memcgs *m);

/* The names a reader has read so far (never NULL for an open reader). */
const struct sr_memcgs *sr_reader_memcgs(const struct sr_reader *r);

/*
 * How far the reading of the file has gone: *read bytes of the file as
 * stored (compressed bytes for zstd) out of *size (0 when the size is not
 * known: standard input, a pipe).  The bytes read run ahead of the events
 * handed out by the read-ahead buffers (a few MiB).  Safe to call from
 * another thread than the one reading (a progress display while
 * sr_pipe_start() decodes on its own thread).
 */
void sr_reader_file_progress(const struct sr_reader *r, uint64_t *read, uint64_t *size);

const struct sr_read_stats *sr_reader_stats(const struct sr_reader *r);

/* Close and free; accepts NULL. */
void sr_reader_close(struct sr_reader *r);

/* ---- reading ahead on a thread ---------------------------------------- */

/*
 * A reader that decodes on its own thread, a few batches ahead, so that
 * decompression and parsing overlap with the caller's work.  The reader r
 * must not be used directly while the pipe runs; sr_pipe_stop() hands it
 * back (its stats are then final).
 */
struct sr_pipe;

enum sr_err sr_pipe_start(struct sr_pipe **out, struct sr_reader *r,
			  struct sr_diag *diag);

/*
 * The next batch: *evs points at *n events, valid until the next call.
 * *n == 0 with SR_OK at the end; on an error the events before it have
 * been handed out and the error is returned (with diag) from then on.
 */
enum sr_err sr_pipe_next(struct sr_pipe *p, const struct sr_event **evs, size_t *n,
			 struct sr_diag *diag);

/*
 * A pipe that also orders: each event read is checked with check(ctx, e,
 * nth, diag) (nth counts the events from 1, in the file's order; a non-zero
 * return stops the pipe with that error) and put through a reorder window
 * of `window` events, so that the batches come in the order a replay with
 * that --reorder-window would replay them (sr_replay_opts.ordered).  check
 * may be NULL.  An error (the reader's or check's) is returned after the
 * events ordered so far, and the events still in the window are dropped.
 */
typedef enum sr_err (*sr_pipe_check_fn)(void *ctx, const struct sr_event *e, uint64_t nth,
					 struct sr_diag *diag);

enum sr_err sr_pipe_start_ordered(struct sr_pipe **out, struct sr_reader *r, size_t window,
				  sr_pipe_check_fn check, void *ctx, struct sr_diag *diag);

/* Stop the thread and free the pipe (not the reader); accepts NULL. */
void sr_pipe_stop(struct sr_pipe *p);

/* ---- writers ---------------------------------------------------------- */

struct sr_write_opts {
	enum sr_format format; /* CSV, JSONL or SWT (not AUTO) */
	int zstd_level;        /* 0: no compression; 1..19: zstd level */
	const char *machine_json; /* SWT only: embedded in the header, or NULL */
	/*
	 * The events carry vaddr: CSV gets its column and SWT is written as
	 * version 2.  Else they are written without (version 1, what older
	 * builds read) until an event carries one: the file written so far is
	 * then written again with vaddr, so that no event loses its address.
	 * JSONL has it anyway.
	 */
	int vaddr;
	/* Events may carry vaddr (sr_reader_may_vaddr()): where the output
	 * cannot be written again (standard output, a pipe, a device), it
	 * carries vaddr from the start.  An event with vaddr there without
	 * either is an error (SR_ERR_INVAL), never a silent loss. */
	int may_vaddr;
	/*
	 * The same for the task ops (fork, exit, wait; traces/FORMAT.md,
	 * "Tasks"): the events include some: CSV gets the child column and SWT
	 * is written as version 3.  Else they are written without (CSV: no
	 * child column, .swt version 1 or 2) until an event needs it (CSV: a
	 * fork or a wait, which name a child; SWT: any task op), and the file
	 * written so far is written again then, as for vaddr.  JSONL has the
	 * "child" key on the lines of a fork or a wait anyway.
	 */
	int tasks;
	/* Events may be task ops (sr_reader_may_tasks()): as may_vaddr. */
	int may_tasks;
	/*
	 * The same for a swap-out's reclaim and a swap-in's fault
	 * (traces/FORMAT.md): the events include some: CSV gets the reclaim
	 * (fault) column and SWT is written as version 4.  Else they are
	 * written without until an event has one, and the file written so
	 * far is written again then, as for vaddr.  JSONL has the "reclaim"
	 * and "fault" keys on the lines that have them anyway.
	 */
	int reclaim;
	int fault;
	/* Events may have them (sr_reader_may_reclaim(), _fault()): as
	 * may_vaddr. */
	int may_reclaim;
	int may_fault;
	/*
	 * The same for a swap event's memory cgroup (traces/FORMAT.md,
	 * "Memory cgroups"): CSV gets the memcg and memcg_path columns and
	 * SWT is written as version 5; may_memcg as may_vaddr.  The path of
	 * an event's memcg is written with the first of its events written
	 * after memcgs names it (CSV and JSON lines: memcg_path on its row or
	 * line; SWT: a name record before it).  memcgs may be NULL (no
	 * paths) and may be filled while the writer writes (a reader's,
	 * sr_reader_memcgs(), on the pipe's thread).
	 */
	int memcg;
	int may_memcg;
	const struct sr_memcgs *memcgs;
};

struct sr_writer;

/*
 * Create a writer to path ("-" = stdout).  A file is written to a temporary
 * file in the same directory and renamed into place by sr_writer_finish();
 * an existing file is not touched before that.  The writer keeps a copy of
 * opts->machine_json.
 */
enum sr_err sr_writer_open(struct sr_writer **out, const char *path,
			   const struct sr_write_opts *opts, struct sr_diag *diag);

enum sr_err sr_writer_write(struct sr_writer *w, const struct sr_event *evs,
			    size_t n, struct sr_diag *diag);

/*
 * Flush, close and rename into place; frees w whatever the outcome.  A
 * failure (ENOSPC, EIO at close...) removes the temporary file and leaves
 * any old file as it was.
 */
enum sr_err sr_writer_finish(struct sr_writer *w, struct sr_diag *diag);

/* Remove the temporary file and free; the target is untouched.  Accepts NULL. */
void sr_writer_abort(struct sr_writer *w);

/* Format implied by a file name's extension (".csv", ".jsonl", ".swt",
 * each optionally followed by ".zst"); SR_FMT_AUTO if none.  *zst is set to
 * whether the name ends in ".zst". */
enum sr_format sr_format_from_name(const char *path, int *zst);
/*
 * About how many events trace file `path` holds, from its size and its
 * name's format: its bytes over the fewest bytes an event takes in that
 * format in practice (zstd: 6, CSV: 30, SWT: 40, JSON lines: 100; the
 * bundled sample and gen's traces take 6-17, 31-51, 48-56 and 116), so
 * rather more than fewer.  0 when it is not a regular file (a pipe).
 */
uint64_t sr_trace_events_guess(const char *path);

/*
 * Whether p[0..n), the first bytes of a file (decompressed), are those of
 * a trace a reader takes: a .swt header, JSON lines of events, a vmstat
 * log, or CSV whose first line names the required columns (ts_ns, op,
 * cpu_nid, page_nid).  For telling a trace from another file (a README)
 * by its content.
 */
int sr_trace_sniff(const unsigned char *p, size_t n);

#endif /* SWAPREPLAY_TRACE_H */
