/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/capture.h - the output of the bpftrace capture
 * (traces/capture/, `swapreplay capture-fixup`) turned into a trace.
 *
 * The capture cannot know the node of a page's memory: it prints the
 * page's frame number (pfn) in place of page_nid.  This resolves each pfn
 * to its node from the memory blocks sysfs lists under every node
 * (/sys/devices/system/node/node<N>/memory<M>, blocks of
 * /sys/devices/system/memory/block_size_bytes) and hands back canonical
 * events.  The raw format is in traces/capture/README.md.
 */
#ifndef SWAPREPLAY_CAPTURE_H
#define SWAPREPLAY_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"

struct sr_memcgs; /* swapreplay/trace.h */

/* The raw capture's header line: with the pages' virtual addresses (this
 * build's capture), and without (captures made before; still read). */
#define SR_CAPTURE_HEADER "ts_ns,op,pid,cpu,cpu_nid,pfn,dev,offset,nr_pages,lat_ns,vaddr"
#define SR_CAPTURE_HEADER_NOVADDR "ts_ns,op,pid,cpu,cpu_nid,pfn,dev,offset,nr_pages,lat_ns"
/* With the task ops' child (fork, exit and wait lines; a line without the
 * last column has none): this build's capture. */
#define SR_CAPTURE_HEADER_TASKS SR_CAPTURE_HEADER ",child"
/* With a swap-out's reclaim and a swap-in's fault (a swap-out's line ends
 * after reclaim, leaving child empty; a swap-in's after fault): this
 * build's capture. */
#define SR_CAPTURE_HEADER_CTX SR_CAPTURE_HEADER_TASKS ",reclaim,fault"
/* With the page's memory cgroup (a swap event's line ends after them: the
 * kernel's mem_cgroup_id() of the folio's memcg, and the inode number of
 * that memcg's cgroup directory, its kernfs node id; 0 or empty when the
 * folio has none): this build's capture. */
#define SR_CAPTURE_HEADER_MEMCG SR_CAPTURE_HEADER_CTX ",memcg,memcg_ino"
/* The tracepoint capture (swapreplay-capture-tp.bt): block requests and
 * reclaim's writes, joined here into events; before its header, the swap
 * areas' extents, one a line: swap type, the device its bios are queued on
 * and the disk its requests complete on (kernel device numbers, MAJOR << 20
 * | MINOR), the first swap page, its disk sector, the pages. */
#define SR_CAPTURE_TP_HEADER "ts_ns,kind,pid,cpu,cpu_nid,dev,sector,nr_sectors,rw,addr"
#define SR_CAPTURE_TP_EXTENT "swapext,TYPE,DEV,DISK,PAGE,SECTOR,PAGES"

/* ---- pfn -> node ------------------------------------------------------ */

struct sr_pfn_map;

/* Read the memory blocks of every node under root ("/" for this system).
 * SR_ERR_IO for a missing file, SR_ERR_FORMAT for a garbled one. */
enum sr_err sr_pfn_map_load(struct sr_pfn_map **out, const char *root,
			    struct sr_diag *diag);
/* The node of a page frame, or -1 if no node lists its block. */
int sr_pfn_map_node(const struct sr_pfn_map *m, uint64_t pfn);
void sr_pfn_map_free(struct sr_pfn_map *m);

/* ---- the raw capture -------------------------------------------------- */

/*
 * One data line of the raw capture into *ev (page_nid left 0) and *pfn
 * (*has_pfn 0 when the field is empty): 10 fields, or 11 to 14 with vaddr,
 * child, reclaim and fault (each may be empty), as under a header without
 * memcg.  0, or -1 with msg.
 */
int sr_capture_parse_line(const char *s, size_t len, struct sr_event *ev, uint64_t *pfn,
			  int *has_pfn, char *msg, size_t msz);
/* The same under this build's header (SR_CAPTURE_HEADER_MEMCG): up to 16
 * fields, memcg into ev->memcg (0 or empty: none) and memcg_ino into *ino
 * (0: none). */
int sr_capture_parse_line_ino(const char *s, size_t len, struct sr_event *ev, uint64_t *pfn,
			      int *has_pfn, uint64_t *ino, char *msg, size_t msz);

struct sr_capture_stats {
	uint64_t events;        /* events handed out */
	uint64_t no_pfn;        /* events without a pfn: page node = CPU node */
	uint64_t pfn_unmapped;  /* pfn in no node's memory: page node = CPU node */
	uint64_t skipped_lines; /* bpftrace's own lines ("Attaching ...", "# ...") */
	uint64_t lost_events;   /* bpftrace's "Lost N events" lines, added up: events
				 * its buffers dropped, the capture's own loss */
	uint64_t cut_lines;     /* a last line without its newline (bpftrace killed,
				 * or out of disk), dropped: 0 or 1 */
	int vaddr_column;       /* its header has vaddr: events may carry one */
	int child_column;       /* its header has child: events may be task ops */
	int ctx_columns;        /* its header has reclaim and fault: swap-outs may
				 * say their reclaim, swap-ins their fault */
	int task_lines;         /* a tracepoint capture of version 3 on (its comment
				 * "# swapreplay-capture/3"): its F, X and W lines
				 * may be task ops */
	int reclaim_lines;      /* a tracepoint capture of version 4 on: its P
				 * lines say who reclaimed (rw k or d) */
	uint64_t skipped;       /* bad data lines skipped under sr_capture_max_errors() */
	char first_skip[512];   /* the first of them: "FILE:LINE: why" ("" if none) */
	/* The tracepoint capture only (tracepoint set): */
	int tracepoint;         /* the capture is the tracepoint one */
	uint64_t not_swap_io;   /* bios on a swap device outside its swap areas */
	uint64_t no_completion; /* events whose request's completion never came:
				 * no latency */
	uint64_t reads;         /* swap-in reads */
	uint64_t reads_with_fault; /* ... with their fault's address: the fault's only
				    * read (readahead's several reads of one fault
				    * have none: which is its own is not known) */
	uint64_t unpaired_pfn;  /* reclaim's writes with no bio of their own (zswap,
				 * zero-filled folios) */
	uint64_t writes_kswapd; /* swap-outs paired with kswapd's write (P, rw k) */
	uint64_t writes_direct; /* ... with another task's (P, rw d) */
	uint64_t task_ops[3];   /* forks, exits and waits written (F, X, W lines) */
	uint64_t task_ops_bad;  /* F and W lines naming no task or the task itself,
				 * left out */
	/* The memory cgroups (both captures): */
	int memcg_columns;      /* a kprobe capture whose header has memcg and
				 * memcg_ino: swap events may name their memcg */
	int memcg_lines;        /* a tracepoint capture of version 5 on: its M
				 * lines give the memcg's cgroup inode */
	uint64_t memcg_events;  /* swap events with a memcg */
	uint64_t memcg_paired;  /* tracepoint capture: bios given an M line's memcg */
	unsigned memcgs;        /* memcgs seen (distinct inodes, or ids without one) */
	unsigned memcgs_no_path; /* ... whose cgroup directory was not found (removed
				  * before the fixup, or another machine's) */
	unsigned memcgs_bad_path; /* ... whose directory's path a trace cannot hold
				   * (not UTF-8, a control byte, over 4095 bytes):
				   * kept without a path */
	char bad_path_why[400];   /* the first such path's message */
	unsigned memcgs_renumbered; /* tracepoint capture: memcgs numbered by the
				     * fixup (no tracepoint gives mem_cgroup_id()) */
	uint64_t memcg_id_reused; /* events of a memcg id another path had first
				   * (the kernel reuses a removed memcg's id):
				   * their memcg is dropped */
	char cgroup_root[512];  /* the memory cgroup hierarchy walked ("" none) */
	char cgroup_why[512];   /* why no path could be found, or "" */
};

struct sr_capture;

/* Open a raw capture (optionally zstd-compressed; "-" = stdin); map must
 * outlive it. */
enum sr_err sr_capture_open(struct sr_capture **out, const char *path,
			    const struct sr_pfn_map *map, struct sr_diag *diag);
/*
 * Where the memory cgroup hierarchy is mounted, to find each memcg's path
 * from its cgroup inode (the directory of that inode, relative to dir):
 * dir, or NULL (the default) for the mount /proc/self/mountinfo gives (a
 * cgroup (v1) mount with the memory controller, else the cgroup2 one).
 * Kept, not copied: must outlive c.
 */
void sr_capture_cgroup_root(struct sr_capture *c, const char *dir);
/* The paths of the memcgs of the events read so far (for the writer:
 * sr_write_opts.memcgs); never NULL for an open capture. */
const struct sr_memcgs *sr_capture_memcgs(const struct sr_capture *c);
/* Refuse (SR_ERR_FORMAT) a last line without its newline instead of
 * dropping it and counting it in cut_lines. */
void sr_capture_strict(struct sr_capture *c, int strict);
/* Skip up to n data lines that are refused (garbled, or holding what no
 * kernel gives), counting them in skipped, rather than fail at the first
 * (n = 0, the default).  Headers, swap extents, I/O and memory errors are
 * never skipped. */
void sr_capture_max_errors(struct sr_capture *c, uint64_t n);
/* Up to cap events; *n == 0 with SR_OK at the end.  Errors name FILE:LINE. */
enum sr_err sr_capture_read(struct sr_capture *c, struct sr_event *evs, size_t cap,
			    size_t *n, struct sr_diag *diag);
const struct sr_capture_stats *sr_capture_stats(const struct sr_capture *c);
void sr_capture_close(struct sr_capture *c);

#endif /* SWAPREPLAY_CAPTURE_H */
