/* SPDX-License-Identifier: MIT */
/*
 * What the hardware charges: one simulation's resources (a calendar per
 * device and per direction of each link, hw/calendar.h) and what one swap
 * event costs on them (hw/cost.h).  docs/MODEL.md, "One event" and
 * "Resources", gives the equations.
 *
 * A struct sr_hw belongs to one simulation: one policy's, or one shared by
 * policies that chose alike (src/replay/shared.c).  The memo of one-page
 * costs is shared by all the simulations of a replay: its entries depend
 * on the machine alone.
 */
#ifndef SR_HW_RESOURCES_H
#define SR_HW_RESOURCES_H

#include <stdint.h>

#include "block/blk-merge.h"
#include "block/blk-mq.h"
#include "block/blk-wbt.h"
#include "common/hash.h"
#include "hw/calendar.h"
#include "hw/cost.h"
#include "hw/trunks.h"
#include "swapreplay/event.h"
#include "swapreplay/kernel.h"
#include "swapreplay/machine.h"
#include "swapreplay/result.h"

struct sr_hw_memo_ent {
	struct sr_cost c;
	double link_work[2];     /* 1e9 x lbytes / link_bw: the links' calendar work */
	uint64_t link_bytes[2];  /* (uint64_t)lbytes: what the links' counters add */
	int link[2];             /* lfrom x nr_nodes + lto: the links' calendars */
};

/* The cost of a one-page event by (device, op, CPU node, page node),
 * all computed by sr_hw_memo_init() (read only from then on, by every
 * simulation's thread); ent is NULL (nothing memoised) on machines
 * of more than 8 nodes or when it could not be allocated. */
struct sr_hw_memo {
	struct sr_hw_memo_ent *ent;
};

void sr_hw_memo_init(struct sr_hw_memo *memo, const struct sr_machine *m);
void sr_hw_memo_free(struct sr_hw_memo *memo);

struct sr_hw_flash {
	double work1[2], lat1[2]; /* by op: SR_OP_OUT, SR_OP_IN */
	double stream_work1, stream_lat1;
	double cw, P;             /* 1e9 / IOPS_w; IOPS_r x L_r / 1e9 */
};

/*
 * (D4) An hdd's mechanism and cache.  A read segment holds pages [lo,
 * hi(t)): the read that filled it ended at t0 with page base, and the
 * drive read ahead from there at the media rate until stop (INFINITY
 * while it still does) or lim, the segment full:
 *   hi(t) = min(lim, base + floor((min(t, stop) - t0) x bw / 4096))
 * The write-back cache holds runs of dirty pages in arrival order (a run
 * that continues the last one joins it), destaged one at a time.
 */
struct sr_hw_seg {
	uint64_t lo, base, lim;
	double t0, stop, used;   /* used: its last use (the least recent goes) */
};

#define SR_HW_RUNMAP_BITS 12

struct sr_hw_hdd {
	double end;              /* the mechanism's work is done then */
	int act;                 /* the segment reading ahead (-1: none) */
	int nseg;
	uint64_t seg_pages;
	struct sr_hw_seg seg[SR_HDD_SEGMENTS_MAX];
	uint64_t *doff;          /* the dirty runs, a ring of cap places */
	uint32_t *dpages;
	double *dat;             /* ... and when each came in (its last pages) */
	/* Where a queued run ends and starts, by a hash of the page (ring
	 * place + 1; 0 none): a write that continues a run or ends where one
	 * begins joins it, whatever the order they came in. */
	uint32_t *byend, *bystart;
	uint32_t cap, first, n;
	uint64_t queued;         /* pages in the ring */
	uint64_t cap_pages;      /* the cache's pages (0: no write-back) */
	double last_end;         /* the run destaged last is done then */
	uint32_t last_pages;     /* ... and had so many pages */
};

struct sr_hw {
	const struct sr_machine *m;
	/* (E3) Per device: what a swap-in from it costs the CPU more than
	 * fault_ns under the kernel, through the swap cache (sr_cost_swapcache_ns();
	 * set with the kernel: sr_hw_set_kernel()). */
	double swapcache_in[SR_MACHINE_MAX_DEVICES];
	struct sr_hw_hdd *hdd;     /* per device: an hdd's mechanism and cache (D4) */
	struct cal *devcal;        /* per device */
	struct cal *linkcal;       /* [from * nr_nodes + to] */
	struct cal *cpucal;        /* per CPU of the machine, once two tasks use it */
	long *cpu_owner;           /* per CPU: the one task that used it, -1 none, -2 several */
	struct cal *swaplock;      /* per device: its si->lock */
	struct cal *treelock;      /* per device: its swap cache's tree lock (before 4.11) */
	int32_t *tree_last;        /* ... who held it last (sr_hw_holder(); 0 nobody) */
	struct sr_hw_trunks trunks; /* per trunk of a device: its swap cache's lock (4.11
				     * to 6.17; hw/trunks.h) */
	struct cal *lrulock;       /* per node: the LRU lock of its memory */
	double *mix;               /* per device: recent read and write bytes (P3) */
	double wait_ns[5];         /* time tasks waited: SR_WAIT_CPU, _SWAP_LOCK, _LRU_LOCK,
				    * _SWAP_CACHE_LOCK, _QUEUE_LOCK */
	uint64_t *link_bytes;      /* [from * nr_nodes + to] */
	uint64_t *head;            /* per device: where its last request ended (an
				    * hdd's head) */
	/* The simulation's time (the latest event's start: src/replay/
	 * order.c sets it), which the CPUs' and locks' calendars keep
	 * their windows at. */
	double now;
	/* The block layer (src/block/): each DMA device's request queue and
	 * limits, a single-queue device's queue lock, the CPU time spent. */
	struct sr_blk_queue *q;
	struct sr_blk_limits *lim;
	struct cal *qlock;
	double blk_cpu_ns;
	/* (D5) per flash device, SR_HW_STREAMS: where recent writes ended,
	 * by a hash of the offset (a write that starts there continues its
	 * stream). */
	uint64_t *wstream;
	struct sr_dev_result *dev; /* per device: requests, bytes, busy time */
	/* (D3) flash devices: reads queue behind reads only (rdcal); the
	 * writes ahead of a read are bounded by the block layer's limits. */
	struct cal *rdcal;         /* per device: its reads */
	double *wr_end;            /* per device: when its latest-ending write is done */
	double *rd_last;           /* per device: when its last read was issued */
	struct sr_wbt_limits wbt;  /* swap writes in flight (src/block/blk-wbt.h) */
	/* Per flash device (nvme, ssd), figures of the machine alone that
	 * every request would otherwise divide out again: a one-page
	 * request's work and latency by op (sr_cost_request()) and as a
	 * stream's (sr_cost_request_stream()), and (D3)'s t_w and P. */
	struct sr_hw_flash *flash;
	/* (D3)'s draws: common random numbers.  A draw is a hash of the
	 * record played (its seq, the same in every simulation: order.c)
	 * and the draw's number within it, not the next of a stream: the
	 * same event draws the same under every policy and variant, so that
	 * two policies differ by what they decide, not by where a stream
	 * stood (sr_hw_set_key()). */
	uint64_t draw_key;
	uint32_t draw_n;
};

enum { SR_WAIT_CPU, SR_WAIT_SWAP_LOCK, SR_WAIT_LRU_LOCK, SR_WAIT_SWAP_CACHE_LOCK,
       SR_WAIT_QUEUE_LOCK };

/* [E] The requests over which a PMem device's mix of reads and writes is
 * taken (P3): 64, the swap I/O of one slots-cache batch. */
#define SR_HW_MIX_WINDOW 64.0

/*
 * What the kernel's decision for one event takes besides the event's own
 * work (src/mm/ and the replay say it): the CPU and task it runs on, the
 * slots it allocated under the device's si->lock, and the other lock
 * holds of its kernel generation.
 */
struct sr_hw_ev {
	int cpu;           /* the machine's CPU, or -1: the task's own, never shared */
	long task;         /* the replay's task (>= 0) */
	uint32_t slots;    /* slots taken under si->lock at this event; 0: not taken */
	uint8_t si_other;  /* other si->lock holds (before 4.11; an hdd's to 6.13), 0-3 */
	uint16_t tree;     /* swap cache tree lock holds (before 4.11) */
	uint16_t trunk_holds; /* swap cache trunk lock holds (4.11 to 6.17) */
	uint32_t trunk;    /* ... the trunk's: its slot's offset >> 14 on the device
			    * (SR_HW_TRUNK_NONE: not known) */
	uint16_t free;     /* slots freed under si->lock (L3): 4.11 to 6.13; < 2^14 */
	uint8_t ci_lines;  /* (L6) lines its cluster lock's holds moved (0, 2, 3):
			    * the policy's record says (hw/clusters.h) */
	uint32_t lru;      /* pages through the LRU lock one by one: 1 for a folio
			    * handled whole, nr_pages for a huge page split first */
};

/* 0, or -1 out of memory (then sr_hw_free() it all the same).  The
 * limits on writes in flight are those of the default kernel until
 * sr_hw_set_write_limits() says otherwise. */
int sr_hw_init(struct sr_hw *h, const struct sr_machine *m);
/* The swap writes a device may have in flight (src/block/blk-wbt.h); wbt:
 * they wait in writeback throttling, not as requests in the queue (4.10
 * on). */
void sr_hw_set_write_limits(struct sr_hw *h, const struct sr_wbt_limits *l, int wbt);
/* The costs of h's devices that follow kernel k (E3, swapcache_in); 0
 * until then. */
void sr_hw_set_kernel(struct sr_hw *h, const struct sr_kernel *k);

/* A DMA device: its I/O goes through the block layer, as requests. */
static inline int sr_hw_is_blk(const struct sr_device *d)
{
	return d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD || d->cls == SR_DEV_HDD;
}

/*
 * (B2) A request reaches DMA device dv's queue at t, from task `task` on
 * cpu: op, pages at off (UINT64_MAX: its position unknown), made of bios,
 * a bio (1) or a plug's request (0) as `bio` says.  The block layer's CPU
 * work and queue lock on the task's CPU, the elevator's merge into a
 * waiting request or a new one with its tag and the device's service.
 * Returns when the request completes (-1 out of memory); *cpu_done is
 * when the task is through the submission and may go on: a writer that
 * found its device with its limit of write requests slept until one
 * completed first (B2).  Its pages' memory is on node (-1: none): (D2)
 * its DMA crosses the link between that node and the device's.  how:
 * SR_SUBMIT_ALONE, one bio alone (else a plug's request);
 * SR_SUBMIT_KSWAPD, a write of kswapd's (writeback throttling's limit
 * for it).
 */
#define SR_SUBMIT_ALONE 1
#define SR_SUBMIT_KSWAPD 2
double sr_hw_submit(struct sr_hw *h, int dv, int cpu, long task, int op, uint64_t off,
		    uint32_t pages, uint32_t bios, int how, int node, double t,
		    double *cpu_done);
/* Free h (a zeroed one too). */
void sr_hw_free(struct sr_hw *h);
/*
 * The most memory one simulation's hardware on m takes: its calendars,
 * each made at its first use and, as its window slides on, all of it in
 * use (CAL_BUCKETS buckets): a device's own, its reads' (flash), its
 * si->lock, its queue lock (a single queue: ssd, hdd) and under kernel k
 * before 4.11 (device_locks) its swap cache's tree lock; a link's per
 * pair of nodes; a node's LRU lock; from 4.11 to 6.17 (trunk_locks) the
 * pool of the swap cache's trunk locks, full (hw/trunks.h); and the
 * arrays beside them.  Without the CPUs' calendars, made only for a CPU
 * that two tasks share: *cpu_bytes each.
 */
size_t sr_hw_bytes(const struct sr_machine *m, const struct sr_kernel *k, size_t *cpu_bytes);
/* The counters of src (devices, links) into dst. */
void sr_hw_copy_counters(struct sr_hw *dst, const struct sr_hw *src);
/* dst (whose calendars were never used) becomes a copy of src; 0 or -1. */
int sr_hw_copy(struct sr_hw *dst, const struct sr_hw *src);
/* Requests h's calendars served before their window (calendar.h). */
uint64_t sr_hw_stale(const struct sr_hw *h);

/* The seed of every simulation's draws (reports are reproducible). */
#define SR_HW_SEED 0x5357415052504c59ull /* "SWAPRPLY" */

/* (D5) The places of a flash device's table of write streams: [E] 4096,
 * so that the CPUs' current clusters of the machines modelled (80 CPUs)
 * keep their streams (each write's end lands on another stream's place
 * with a chance of 1 in 4096). */
#define SR_HW_STREAM_BITS 12
#define SR_HW_STREAMS (1u << SR_HW_STREAM_BITS)

/* A SATA device's queue: NCQ's 32 tags (libata ATA_MAX_QUEUE). */
#define SR_HW_NCQ_DEPTH 32u

/* The record the next draws belong to (its seq), from its first draw. */
static inline void sr_hw_set_key(struct sr_hw *h, uint64_t key)
{
	h->draw_key = key;
	h->draw_n = 0;
}

/* A uniform draw in [0, 1): the record's key and the draw's number within
 * it, mixed (splitmix64's finaliser over the two, odd multipliers apart). */
static inline double sr_hw_draw(struct sr_hw *h)
{
	uint64_t x = SR_HW_SEED + h->draw_key * 0x9e3779b97f4a7c15ull +
		     (uint64_t)h->draw_n++ * 0xd1b54a32d192ed03ull;

	return (double)(sr_splitmix64(&x) >> 11) * 0x1p-53;
}

/*
 * (D3) How long a read issued at s on flash device dv waits for the
 * writes in flight there: n = the device's write backlog in writes,
 * bounded by what the block layer lets be in flight; P = IOPS_r x L_r
 * units work in parallel, a write holds one for t_w = P / IOPS_w.  With
 * k = n / P, the read's unit is busy with probability k (k < 1) and it
 * waits out the write there, U(0, 1) x t_w; with k >= 1 it waits for
 * k - 1 more.  One draw u gives both as wait = max(0, k - u) / min(k, 1)
 * x t_w: the same distribution, and for a given u a wait that grows with
 * k and without a jump, so that two policies (or two settings) whose k
 * differ a little for the same read get waits that differ a little.
 * docs/MODEL.md gives the derivation.
 */
static inline double sr_hw_read_wait(struct sr_hw *h, int dv, const struct sr_device *dev,
				     double s)
{
	double cw = h->flash[dv].cw, P = h->flash[dv].P;
	double n = (h->wr_end[dv] - s) / cw, lim, k, u;

	if (n <= 0)
		return 0;
	lim = s - h->rd_last[dv] < SR_WBT_CLOSE_IO_NS ? h->wbt.read_recent : h->wbt.idle;
	if (dev->cls == SR_DEV_SSD && lim > SR_HW_NCQ_DEPTH)
		lim = SR_HW_NCQ_DEPTH;
	if (n > lim)
		n = lim;
	if (P < 1)
		P = 1;
	k = n / P;
	u = sr_hw_draw(h);
	if (k < 1)
		return u < k ? (k - u) / k * P * cw : 0;
	return (k - u) * P * cw;
}

/*
 * CPU work w of task `task` from s on: on CPU cpu's calendar, or the
 * task's own.  A CPU only one task has used needs no calendar (nothing
 * else runs there; the calendars of all CPUs would not fit in the
 * processor's caches); it gets one when a second task comes, from then on.
 */
static inline double sr_hw_cpu(struct sr_hw *h, int cpu, long task, double s, double w)
{
	double f;

	if (cpu < 0 || w <= 0)
		return s + w;
	if (SR_LIKELY(h->cpu_owner[cpu] == task))
		return s + w;
	if (h->cpu_owner[cpu] == -1) {
		h->cpu_owner[cpu] = task;
		return s + w;
	}
	h->cpu_owner[cpu] = -2;
	if (SR_UNLIKELY(!h->cpucal[cpu].used) && !cal_need(&h->cpucal[cpu]))
		return -1;
	f = cal_reserve(&h->cpucal[cpu], s, w);
	h->wait_ns[SR_WAIT_CPU] += f - s - w;
	return f;
}

/* Lock l held for w from s on: when it is released. */
static inline double sr_hw_lock(struct sr_hw *h, struct cal *l, int kind, double s, double w)
{
	double f;

	if (SR_UNLIKELY(!l->used) && !cal_need(l))
		return -1;
	f = cal_reserve(l, s, w);
	h->wait_ns[kind] += f - s - w;
	return f;
}

/* Who takes a lock, for (L5) below: the machine's CPU + 1, or for a task
 * whose CPU is its own (cpu < 0) a negative number of the task's. */
static inline int32_t sr_hw_holder(int cpu, long task)
{
	return cpu >= 0 ? (int32_t)cpu + 1 : -(int32_t)(task & 0x3fffffff) - 1;
}

/*
 * (L5) How long `holds` holds of a swap cache lock (the tree lock, L1;
 * a trunk's, L4) take when who takes it and *last took it before (0:
 * nobody): `holds x swap_cache_lock_ns` when the lock's lines, and the
 * tree's nodes it changes, were last written on another CPU and move
 * here; 0 when they are this CPU's own or new, as E1's per-page cost,
 * measured on one task, already has an uncontended insertion and
 * deletion in it (docs/MODEL.md, L5).  *last becomes who.
 */
static inline double sr_hw_cache_hold(int32_t *last, int32_t who, uint32_t holds, double ns)
{
	int32_t prev = *last;

	*last = who;
	return prev && prev != who ? (double)holds * ns : 0.0;
}

/* (L4) Device dv's trunk's swap cache lock taken from s on for holds
 * (L5: their time by who held it last): when it is released.  A trunk not
 * known (SR_HW_TRUNK_NONE) is a lock of its own: no other CPU's lines, no
 * wait. */
static inline double sr_hw_trunk_lock(struct sr_hw *h, int dv, uint32_t trunk, double s,
				      int32_t who, uint32_t holds)
{
	struct sr_hw_trunks *t = &h->trunks;
	uint32_t i;
	double f, w;

	if (SR_UNLIKELY(trunk == SR_HW_TRUNK_NONE))
		return s;
	if (SR_UNLIKELY(trunk >= t->ntrunks[dv]))
		trunk %= t->ntrunks[dv];
	if (SR_UNLIKELY(!t->last[dv]) && sr_hw_trunks_dev(t, dv))
		return -1;
	/* A hold of no time (L5) neither waits nor needs a calendar. */
	w = sr_hw_cache_hold(&t->last[dv][trunk], who, holds, h->m->swap_cache_lock_ns);
	if (w <= 0)
		return s;
	i = sr_hw_trunk_cal(t, dv, trunk, h->now);
	if (SR_UNLIKELY(!i))
		return -1;
	f = sr_hw_lock(h, &t->cal[i - 1], SR_WAIT_SWAP_CACHE_LOCK, s, w);
	if (f > t->end[i - 1])
		t->end[i - 1] = f;
	return f;
}

/* Event e's cost for nr_pages on dev (sr_cost_event()), and what its
 * links' calendars take of it. */
static inline void sr_hw_cost(const struct sr_machine *m, const struct sr_device *dev,
			      const struct sr_event *e, uint32_t nr_pages,
			      struct sr_hw_memo_ent *me)
{
	int i;

	sr_cost_event(m, dev, e->op, e->cpu_nid, e->page_nid, nr_pages, &me->c);
	for (i = 0; i < me->c.nlinks; i++) {
		me->link_work[i] = 1e9 * me->c.lbytes[i] / m->link_bw;
		me->link_bytes[i] = (uint64_t)me->c.lbytes[i];
		me->link[i] = me->c.lfrom[i] * m->nr_nodes + me->c.lto[i];
	}
}

/* Event e's costs on device dv: memo's for one page, else computed into
 * *own. */
static inline __attribute__((always_inline)) const struct sr_hw_memo_ent *
sr_hw_memo_get(const struct sr_machine *m, const struct sr_hw_memo *memo, const struct sr_event *e,
	       int dv, struct sr_hw_memo_ent *own)
{
	if (e->nr_pages == 1 && memo->ent) {
		/* The cost of a one-page event depends only on the device, the
		 * op and the two nodes: computed once (the divisions add up). */
		size_t n = (size_t)m->nr_nodes;

		return &memo->ent[(((size_t)dv * 2 + e->op) * n + e->cpu_nid) * n + e->page_nid];
	}
	sr_hw_cost(m, &m->dev[dv], e, e->nr_pages, own);
	return own;
}

/*
 * The kernel's path of event e (cost c) on device dv, its task ready at
 * start, as the kernel's decision x says, up to the data's move: when the
 * task is through it, or -1 out of memory.
 */
static inline __attribute__((always_inline)) double sr_hw_path(struct sr_hw *h, const struct sr_cost *c,
							       const struct sr_event *e, int dv,
							       const struct sr_hw_ev *x, double start)
{
	const struct sr_machine *m = h->m;
	double s;

	/*
	 * (E1) the kernel's path on the task's CPU, with (L6) the lines its
	 * cluster lock's holds move, then (L1) the device's
	 * si->lock if slots were allocated under it (and before 4.11 its
	 * other holds and the swap cache's tree lock), (L3) its frees, (L4)
	 * from 4.11 to 6.17 the lock of the slot's swap cache trunk, (L2) a
	 * swap-out's pages through the LRU lock of their node; (P1, Z1) the
	 * CPU's copy.
	 */
	s = sr_hw_cpu(h, x->cpu, x->task, start,
		      c->cpu_ns + x->ci_lines * m->line_ns +
		      (e->op == SR_OP_IN ? h->swapcache_in[dv] : 0));
	if (SR_UNLIKELY(x->slots | x->si_other | x->tree | x->free)) {
		/* (Most events take none of these: one test.) */
		if (x->slots && s >= 0)
			s = sr_hw_lock(h, &h->swaplock[dv], SR_WAIT_SWAP_LOCK, s,
				       m->swap_lock_ns + (double)x->slots * m->swap_slot_ns);
		if (x->si_other && s >= 0)
			s = sr_hw_lock(h, &h->swaplock[dv], SR_WAIT_SWAP_LOCK, s,
				       (double)x->si_other * m->swap_lock_other_ns);
		/* (L3) a batch of freed slots, a swap-map update each. */
		if (x->free && s >= 0)
			s = sr_hw_lock(h, &h->swaplock[dv], SR_WAIT_SWAP_LOCK, s,
				       (double)x->free * m->swap_lock_other_ns);
		if (x->tree && s >= 0) {
			/* (L5) its time by who held it last. */
			double w = sr_hw_cache_hold(&h->tree_last[dv], sr_hw_holder(x->cpu, x->task),
						    x->tree, m->swap_cache_lock_ns);

			if (w > 0)
				s = sr_hw_lock(h, &h->treelock[dv], SR_WAIT_SWAP_CACHE_LOCK, s, w);
		}
	}
	/* (L4) 4.11 to 6.17: the swap cache's lock of the slot's trunk. */
	if (x->trunk_holds && s >= 0)
		s = sr_hw_trunk_lock(h, dv, x->trunk, s, sr_hw_holder(x->cpu, x->task), x->trunk_holds);
	if (s >= 0) {
		/* A select, not a branch: swap-outs and swap-ins interleave
		 * unpredictably. */
		const double lru_ns[2] = { m->lru_lock_ns, m->lru_refault_ns };

		s = sr_hw_lock(h, &h->lrulock[e->page_nid], SR_WAIT_LRU_LOCK, s,
			       (double)x->lru * lru_ns[e->op != SR_OP_OUT]);
	}
	return s;
}

/*
 * (Zs3) Event e served by zswap instead of device dv (its slot's): the
 * kernel's path as on dv, then zswap's CPU work w on the task's CPU, no
 * I/O.  *done is when it is through (resume alike); 0, or -1 out of
 * memory.
 */
static inline int sr_hw_play_cpu(struct sr_hw *h, const struct sr_hw_memo *memo,
				 const struct sr_event *e, int dv, const struct sr_hw_ev *x,
				 double start, double w, double *done)
{
	struct sr_hw_memo_ent own;
	const struct sr_hw_memo_ent *me = sr_hw_memo_get(h->m, memo, e, dv, &own);
	double s = sr_hw_path(h, &me->c, e, dv, x, start);

	if (s < 0)
		return -1;
	*done = sr_hw_cpu(h, x->cpu, x->task, s, w);
	return *done < 0 ? -1 : 0;
}

/*
 * Event e on device dv, its task ready at start, as the kernel's decision
 * x says: place its work on the calendars; *done is when its I/O completed
 * (its latency is *done - start), *resume when the task may go on.  0, or
 * -1 out of memory.  On a DMA device (sr_hw_is_blk()) the I/O is still to
 * submit: *resume is when the task is through the kernel's path, *done
 * when the DMA's link crossings are (the I/O completes no earlier).
 * Inline: it runs for every event of every simulation, and its one
 * caller (the replay loop) is its only user.
 */
static inline __attribute__((always_inline)) int sr_hw_play(struct sr_hw *h, const struct sr_hw_memo *memo, const struct sr_event *e,
			     int dv, const struct sr_hw_ev *x, double start, double *resume,
			     double *done)
{
	const struct sr_machine *m = h->m;
	const struct sr_device *dev = &m->dev[dv];
	struct sr_hw_memo_ent own;
	const struct sr_hw_memo_ent *me = sr_hw_memo_get(m, memo, e, dv, &own);
	const struct sr_cost *c = &me->c;
	struct cal *cal;
	double s, fin, cpu_fin;
	int i;

	s = sr_hw_path(h, c, e, dv, x, start);
	if (SR_UNLIKELY(s < 0))
		return -1;
	fin = c->copy_ns > 0 ? sr_hw_cpu(h, x->cpu, x->task, s, c->copy_ns) : s;
	if (SR_UNLIKELY(fin < 0))
		return -1;
	if (c->dma) {
		/* A DMA device's work is its requests' (sr_hw_submit()), as
		 * the block layer makes them: the caller submits them from
		 * fin, when the task is through the kernel's path. */
	} else if (c->dev_work_ns > 0) {
		double f, w = c->dev_work_ns, B = (double)e->nr_pages * SR_PAGE_SIZE;

		/* (P3) the media's recent mix of reads and writes, a moving
		 * sum over about SR_HW_MIX_WINDOW requests. */
		double *mx = &h->mix[2 * dv];

		mx[0] *= 1.0 - 1.0 / SR_HW_MIX_WINDOW;
		mx[1] *= 1.0 - 1.0 / SR_HW_MIX_WINDOW;
		mx[e->op == SR_OP_OUT] += B;
		w *= sr_cost_pmem_mix(mx[0] / (mx[0] + mx[1]),
				      dev->node >= 0 && dev->node != e->cpu_nid);
		cal = &h->devcal[dv];
		if (SR_UNLIKELY(!cal->used) && !cal_need(cal))
			return -1;
		f = cal_reserve(cal, s, w);
		if (f > fin)
			fin = f;
		h->dev[dv].busy_ns += w;
	}
	cpu_fin = fin;
	/* (D2) A DMA device's crossings go with its requests, when the
	 * device moves the data (sr_hw_submit()); a copy's (P1, Z1) here. */
	for (i = 0; i < c->nlinks && !c->dma; i++) {
		int li = me->link[i];
		double f;

		cal = &h->linkcal[li];
		if (SR_UNLIKELY(!cal->used) && !cal_need(cal))
			return -1;
		f = cal_reserve(cal, s, me->link_work[i]) + m->link_lat_ns;
		if (f > fin)
			fin = f;
		h->link_bytes[li] += me->link_bytes[i];
	}
	*done = fin;
	*resume = fin;
	if (c->dma) {
		*resume = cpu_fin;
		return 0;
	}
	if (e->op == SR_OP_OUT) {
		h->dev[dv].writes++;
		h->dev[dv].write_bytes += (uint64_t)e->nr_pages * SR_PAGE_SIZE;
	} else {
		h->dev[dv].reads++;
		h->dev[dv].read_bytes += (uint64_t)e->nr_pages * SR_PAGE_SIZE;
	}
	return 0;
}

#endif /* SR_HW_RESOURCES_H */
