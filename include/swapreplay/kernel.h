/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/kernel.h - the kernel modelled: its generation (which of the
 * behaviours of src/mm/ a version has: src/mm/kernel.c cites each
 * boundary) and its swap-in readahead settings.  What the layers below the
 * replay (src/mm/, src/hw/, src/block/) need of the kernel, without the
 * replay's header.
 */
#ifndef SWAPREPLAY_KERNEL_H
#define SWAPREPLAY_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/error.h"

/*
 * A kernel generation (src/mm/kernel.c cites each boundary): how the
 * priority lists are laid out and how order-0 slots are handed out.
 */
enum sr_prio_rule {
	SR_PRIO_GLOBAL = 0,     /* < 4.14: one list, automatic priorities -1, -2, ... */
	SR_PRIO_NODE_RAISE = 1, /* 4.14-6.18: per-node lists, -2, -3, ..., -1 on own node */
	SR_PRIO_ALL_EQUAL = 2,  /* >= 6.19: one list, every automatic priority -1 */
};
enum sr_alloc_mode {
	SR_ALLOC_DIRECT = 0,      /* every allocation walks a list (< 4.11, or the cache off) */
	SR_ALLOC_SLOTS_CACHE = 1, /* 4.11-6.14: per-CPU slots cache of 64 order-0 slots */
	SR_ALLOC_CLUSTER = 2,     /* >= 6.15: per-CPU current cluster per order */
};
struct sr_kernel {
	unsigned major, minor;
	int node_lists;           /* per-node priority lists */
	enum sr_prio_rule prio;
	enum sr_alloc_mode alloc;
	int thp_swap_whole;       /* a huge page is swapped out without being split */
	int device_locks;         /* before 4.11: no cluster locks, one swap cache tree
				   * lock per device */
	int vma_readahead;        /* 4.14 on: readahead by virtual address unless an
				   * hdd is swapped on */
	int sync_no_ra;           /* 4.15 on: a synchronous device's swap-in reads no
				   * page ahead (the bypass; from 7.0 its swap-in
				   * through the swap cache reads none either) */
	int sync_bypass;          /* 4.15 to 6.19: a synchronous device's swap-in of a
				   * page of one user skips the swap cache */
	int xarray_cache;         /* before 6.18: the swap cache is a radix tree, an
				   * XArray from 4.17 (a swap-in through it costs
				   * swapcache_ns, docs/MODEL.md, E3) */
	int shadow_lru;           /* 6.3 to 6.17: its nodes of shadows only are on the
				   * workingset's shadow_nodes list_lru, moved off
				   * and on by a swap-in (shadow_node_ns, E3) */
	int table_count;          /* 7.1 on: a slot's swap count in the swap table's
				   * entry, no swap-map byte (L6's lines) */
	int thp_swap;             /* 4.13 on: huge folios get a whole cluster; clusters
				   * of 512 slots, not 256 */
	int mthp_swap;            /* 6.10 on: folios of orders 1-8 keep their slots
				   * together (else they are split) */
	int slot_orders;          /* 6.12 on: nonfull and frag cluster lists per order */
	int hdd_clusters;         /* 6.14 on: rotational devices allocate by cluster */
	int ssd_scan_cpu;         /* 5.8 on: a non-rotational device's scan for a free
				   * slot starts at each CPU's own position */
	int free_si;              /* 4.11 to 6.13: freed slots go back in batches under
				   * si->lock (swapcache_free_entries()) */
	int hdd_si_map;           /* 4.11 to 6.13: a rotational device's swap-map
				   * updates take si->lock (no cluster locks) */
	int trunk_locks;          /* 4.11 to 6.17: the swap cache is one tree per 64 MB
				   * trunk of a device, each with its lock (before:
				   * device_locks; from 6.18 the swap table, under the
				   * cluster locks) */
	/* zswap (docs/MODEL.md, "zswap"), where the machine has it: */
	int zswap;                /* 6.6 on: zswap as modelled (read in 6.6.57, 6.12.19
				   * and 6.18.2; earlier kernels are refused) */
	int zswap_memcg_lru;      /* 6.8 on: the shrink worker writes back round robin
				   * over memory cgroups (before: one LRU) */
	int zeromap;              /* 6.12 on: a zero-filled page is a bit of the swap
				   * layer's zeromap (before: zswap's same-filled
				   * entry); no I/O either way */
	int zswap_large;          /* 6.13 on: zswap stores a large folio page by page
				   * (before: refused, written to the device) */
	int zswap_whole;          /* 6.18 on: a page that does not compress is stored
				   * whole (before: refused, written to the device) */
};

/* Whether a swap-in from a synchronous device (pmem, zram: synchronous 1)
 * skips the swap cache under kernel k: 4.15 (0bcac06f27d7, aa8d22a11da9)
 * to 6.19; 7.0's swap table ended the bypass (f1879e8a0c60).  The one
 * place this is said: mm (sr_swapin_bypass()) and hw (E3, L6) ask it. */
static inline int sr_kernel_swapin_bypass(const struct sr_kernel *k, int synchronous)
{
	return synchronous && k->sync_bypass;
}

/* Whether kernel k's zswap is modelled (6.6 on; docs/MODEL.md, "zswap"). */
static inline int sr_kernel_zswap(const struct sr_kernel *k)
{
	return k->zswap;
}

/* A trunk of the swap cache: 2^14 slots, 64 MB of swap (the kernel's
 * SWAP_ADDRESS_SPACE_SHIFT, 4.11 to 6.17): slot offset >> 14. */
#define SR_SWAP_TRUNK_SHIFT 14

/* Swap-in readahead (docs/MODEL.md, "Readahead and the swap cache"). */
enum sr_ra_mode {
	SR_RA_AUTO = 0, /* the kernel's choice: by offset (cluster) before 4.14 or with
			 * a rotational device swapped on; else by virtual address */
	SR_RA_OFF,      /* every swap-in reads its own folio */
	SR_RA_CLUSTER,  /* by swap offset (swap_cluster_readahead()) */
	SR_RA_VMA,      /* by virtual address (swap_vma_readahead()): the events'
			 * vaddr; a swap-in without one reads nothing ahead */
};

/* The largest page-cluster modelled: windows of 2^10 slots (the kernel
 * allows 31, page_cluster_max; the replay looks at every slot of the
 * window). */
#define SR_RA_MAX_PAGE_CLUSTER 10

struct sr_readahead_opts {
	enum sr_ra_mode mode;
	unsigned page_cluster;    /* the window is at most 2^page_cluster slots (3) */
	int fixed_window;         /* 1: always 2^page_cluster (before 3.14) */
	int holes_stop;           /* 1: stop at a free slot (before 3.4); 0: skip it */
	uint64_t memory_pages;    /* the workload's memory; 0: unknown, pages read
				   * ahead are kept until used */
};

/*
 * The kernel modelled when none is named and none was recorded with the
 * trace (sr_kernel_resolve()): the newest long-term release modelled.  The
 * long-term releases in December 2026 are 6.1, 6.6, 6.12 and 6.18
 * (kernel.org's releases page lists 6.1 to 6.12 with their end of life;
 * 6.18 was named long-term on 3 December 2025, end of life December 2027,
 * which we read on secondary pages only, wits.at news486 of 4 December
 * 2025 and The New Stack's, not on a kernel.org copy).  Until 2026-12 the
 * default was 6.6.
 */
#define SR_KERNEL_DEFAULT "6.18"
/* A sweep's kernel when none is given: each trace's own, recorded with it
 * (its rows' kernel_modelled says which). */
#define SR_KERNEL_RECORDED "recorded"
/* The newest release whose changes are modelled: later ones are modelled
 * as it (src/mm/kernel.c says why). */
#define SR_KERNEL_MODELLED_MAJOR 7u
#define SR_KERNEL_MODELLED_MINOR 1u
#define SR_KERNEL_MODELLED_TEXT "7.1"
/* The newest kernel --kernel takes (src/mm/kernel.c says why). */
#define SR_KERNEL_NEWEST_MAJOR 7u
#define SR_KERNEL_NEWEST_MINOR 4u

/* Parse "MAJOR.MINOR" (4.0 to SR_KERNEL_NEWEST_*), or a version as uname -r
 * prints it ("6.6.0-28-generic": its patch level and suffix are not
 * modelled), into *k; SR_ERR_INVAL with a message. */
enum sr_err sr_kernel_parse(const char *s, struct sr_kernel *k, struct sr_diag *diag);
/* "6.15: per-node priority lists, per-CPU current cluster per order" in buf. */
const char *sr_kernel_describe(const struct sr_kernel *k, char *buf, size_t n);

/* "auto", "off", "cluster" or "vma" into *m; SR_ERR_INVAL for anything
 * else. */
enum sr_err sr_ra_mode_parse(const char *s, enum sr_ra_mode *m);

/* The default readahead settings: auto, page-cluster 3, adaptive, skip. */
void sr_readahead_default(struct sr_readahead_opts *o);
/* o as one string, "auto;page-cluster=3;window=adaptive;holes=skip;
 * memory=0" (memory in pages): what a sweep's rows record. */
const char *sr_readahead_format(const struct sr_readahead_opts *o, char *buf, size_t n);
/* Parse that string back (every key required, in that order); SR_ERR_INVAL
 * with a message. */
enum sr_err sr_readahead_parse(const char *s, struct sr_readahead_opts *o, struct sr_diag *d);

#endif /* SWAPREPLAY_KERNEL_H */
