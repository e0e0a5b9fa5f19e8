/* SPDX-License-Identifier: MIT */
/*
 * The replay's own state, shared by the files of src/replay/: replay.c
 * (the loop), tasks.c (tasks and their clocks), shared.c (simulations
 * shared by policies that chose alike), results.c (the figures).  The
 * others are given their part, not the replay: a simulation (struct sim:
 * replay.c's play(), plug.c, simq.c's threads), readahead and the swap
 * cache (struct replay_ra and struct pol_ra: swapcache.c).
 */
#ifndef SR_REPLAY_IMPL_H
#define SR_REPLAY_IMPL_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/u64map.h"
#include "hw/clusters.h"
#include "hw/resources.h"
#include "mm/mm.h"
#include "replay/revmap.h"
#include "replay/slotmap.h"
#include "swapreplay/replay.h"
#include "trace/window.h"

struct pte_chunk;
/* Entries of sr_replay.pte_cache (64 KiB, with VMA readahead): the
 * writer's 64 tasks of 32 MiB each fault in 1024 regions of 2 MiB; 256
 * entries left 2,173M instructions for its 1M events (one policy,
 * mechanisms on), 1024 left 2,162M, 4096 2,140M. */
#define SR_PTE_CACHE 4096

/* One task of the trace, as recorded (its simulated clock is per policy). */
struct task {
	uint32_t pid;
	uint64_t prev_ts;
	uint64_t prev_busy; /* recorded I/O wait of the previous event (swap-in latency) */
	/* The task ops (docs/MODEL.md, "Tasks"): it was created by a
	 * recorded fork (its first event is timed from its parent's clock,
	 * not the recording), it has exited. */
	uint8_t forked, exited;
	uint8_t swapped;    /* it had a swap event (tasks_alive_max counts those) */
	uint64_t prev_seq;  /* its previous event's place in the trace (--noise) */
};

/* A task's figures in one simulation (sr_replay_opts.per_task; the
 * machine's simulations only, not the variants'). */
struct task_stat {
	uint64_t swapouts, swapins, pages_out, pages_in;
	double busy_ns;
	double in_first, in_last, out_first, out_last; /* -1: none yet */
};

/* A memory cgroup's figures in one simulation (the machine's simulations
 * only, as task_stat): its pages' swap events (traces/FORMAT.md, "Memory
 * cgroups") that reached a device. */
struct memcg_stat {
	uint64_t swapouts, swapins, pages_out, pages_in;
	double lat_sum, lat_max;   /* its swap-ins' latency, ns */
};

/* order.c: the records a simulation has been given and not yet played,
 * in per-task queues, and the tasks by when they can act next (docs/
 * MODEL.md, "The core").  Record bios up to ORD_BIO_IN are kept in it. */
#define ORD_BIO_IN 8
struct ord_rec;
struct sim_order {
	struct ord_rec *rec;       /* the pool of records, rec_cap of them */
	uint64_t *bio;             /* ... and its bios, ORD_BIO_IN each */
	struct ord_big {           /* ... or more of them (NULL until needed) */
		uint64_t *p;
		uint32_t cap;
	} *big;
	size_t rec_cap;
	/* The free records, a stack of their numbers (the last freed, still
	 * in the cache, is the next taken; a free record itself is not read,
	 * which cost a cache miss per record as a list through them). */
	int32_t *free_stk;
	size_t nfree;
	/* Per task: its queue (first and last record, -1 empty), where it is
	 * in the idle heap (the ready heap is only ever left from its top),
	 * the parent waiting for its exit (-1 none), the
	 * recorded end of the last record it was given, its state
	 * (order.c), and 1 once it is known to be more than kswapd (a
	 * record not kswapd's: it never sleeps as kswapd, order.c). */
	int32_t *qhead, *qtail, *hpos, *waiter;
	double *rec_end;
	uint8_t *st, *mixed;
	/* The heaps: ready tasks by their next start, idle ones by their
	 * clock less their recorded end (k), each entry with its task. */
	struct ord_ent {
		double k;
		int32_t t;
	} *ready, *idle;
	uint32_t nready, nidle;
	uint64_t queued, queued_max;
	uint64_t max;              /* the most records it holds (order_queue) */
	int no_shortcut;           /* sr_replay_opts.order_no_shortcut */
	void (*played)(void *, long); /* sr_replay_opts.order_played, or NULL */
	void *played_arg;
	double last_ts;            /* the latest recorded time given */
	double now;                /* the latest start played */
	uint64_t forced, late;     /* records played before every task was
				    * known not to act earlier; records that
				    * started before the time played */
	uint32_t given;            /* records given so far (a record's seq) */
	uint32_t seq_hi;           /* the latest seq of a swap event played */
	uint64_t behind;           /* swap events played after a later one */
	double behind_by;          /* ... summed: how many records before the
				    * latest played each was given */
};

/*
 * A simulation: what the hardware makes of the decisions of one policy
 * (and of those that decided alike: shared.c), on the machine or on one of
 * its variants (--uncertainty).  Everything here is the simulation's own,
 * and only the thread that plays it touches it: a worker's while the
 * replay runs with simulation threads (simq.c), the replay's thread at a
 * sync (a task added, a simulation copied, the end of the trace) and
 * without them.  Nothing here is a decision: a policy's figures are its
 * lead's simulation's (results.c), never a copy of them.
 */
struct sim {
	struct sr_hw hw;           /* what the hardware charges (src/hw/), on hw.m */
	const struct sr_hw_memo *memo; /* one-page costs of hw.m */
	/* The settings it plays by, the same for every simulation of a
	 * replay (set with it, read only): the kernel generation (its plugs'
	 * rules) and whether swap writes are plugged (sr_replay_opts.plug). */
	const struct sr_kernel *kernel;
	int plugging;
	double *clock;             /* per task: when its last event completed (an
				    * exit: when it ended) */
	double *t_start;           /* per task: when it began here (its first
				    * event's start, or its fork) */
	struct task_stat *ts;      /* per task, with r->per_task: its figures so far
				    * (NULL in a variant's simulation) */
	/* Per memcg id (SR_MEMCG_MAX + 1 of them, made at the first event
	 * with a memcg: calloc maps zero pages, touched where an id is), in
	 * a machine's simulation (memcg_figs); the ids seen, mc_lo to mc_hi
	 * (mc_hi 0: none). */
	int memcg_figs;
	struct memcg_stat *mcs;
	uint32_t mc_lo, mc_hi;
	/* plug.c: per task, its plug while writes are held in it (NULL
	 * otherwise), and the plugs spare. */
	struct task_plug **plug;
	struct task_plug *plug_spare;
	/* What it played: events that reached a device, their pages, the
	 * swap-ins' latency, swap-outs' to memory-like devices, and when the
	 * last task could go on.  One struct, copied whole when a simulation
	 * parts (shared.c): no count can be left out of the copy. */
	struct sim_played {
		uint64_t swapouts, swapins, pages_out, pages_in;
		struct sr_hist swapin_lat;
		double swapout_lat_sum;
		double end;
		/* zswap's shrink worker: when it is through what it was
		 * given (it writes back one entry at a time), and the
		 * CPU time zswap took of the tasks (Zs3). */
		double zs_worker, zs_cpu_ns;
	} did;
	struct sim_order ord;      /* what it was given and has not played */
};

/*
 * One policy: the kernel's decisions under it (the replay's thread's),
 * and its simulation (used while it is its own lead: shared.c).
 */
struct pol {
	struct sr_mm mm;           /* what the kernel decides (src/mm/) */
	/* (L6) who held each cluster's lock last, in its decisions' order
	 * (hw/clusters.h): one for all its simulations. */
	struct sr_hw_clusters clusters;
	/* Its decisions' counts (unmatched swap-ins, swap full, moved,
	 * readahead), then its figures (results.c). */
	struct sr_policy_result res;
	struct sim sim;
	/* slots.c: the slots of folios split into their pages (cell key ->
	 * uint32_t[nr_pages]); with cluster readahead, the recorded slot in
	 * each device slot (revmap.h: device, slot -> cell key). */
	struct sr_u64map split;
	struct sr_revmap rev;
	/* slots.c (K1): the slots it keeps for pages a read fault swapped in
	 * (in the swap cache, not free), now. */
	uint64_t kept_n;
	size_t kq_at;              /* its reclaim's place in sr_replay.kq */
	/* swapcache.c: its readahead's and swap cache's own state. */
	struct pol_ra {
		/* The pages it read ahead, oldest first, with the count of
		 * pages swapped out when each was read (reclaim's clock,
		 * ra_clock): with a memory size, those still unused when
		 * reclaim has taken the inactive list's worth since are
		 * reclaimed (docs/MODEL.md). */
		struct ra_ent { uint64_t key, at; uint32_t gen; } *raq;
		size_t raq_head, raq_len, raq_cap;
		uint64_t ra_clock;
		/* VMA readahead: each task's window state, by task (prev_vpn
		 * << 14 | win << 6 | hits; set 0: never faulted). */
		struct vra_ent { uint64_t v; uint8_t set; } *vra;
	} ra;
	/* zswap_lru.c: its zswap pool's decisions (mm's) and its entries'
	 * order for the shrink worker: one LRU before 6.8, one per memory
	 * cgroup from 6.8 (lru_ix: memcg -> index + 1), visited round robin
	 * from rr.  Each entry names a recorded slot's cell and its gen (an
	 * entry whose cell has moved on is stale, skipped). */
	struct pol_zs {
		struct sr_zswap_pool pool;
		struct zs_lru {
			struct zs_ent { uint64_t key; uint32_t gen; } *q;
			size_t head, len, cap;
		} *lru;
		size_t nlru, caplru, rr;
		struct sr_u64map lru_ix;
	} zs;
	/*
	 * The policy whose simulation this one shares (itself when it has its
	 * own): shared.c.
	 */
	int lead;
};

/*
 * What one policy's kernel decided for the event being replayed
 * (replay_one() fills it, for every policy; the simulations are told it
 * through struct sr_play).  The replay's thread's.
 */
struct sr_decision {
	int dv;                    /* the device chosen; -1 none */
	uint32_t slots;            /* slots taken under si->lock (sr_mm.ev_slots) */
	uint64_t off;              /* the device slot of the event's first page
				    * (slots.c); UINT64_MAX: none */
	/* A swap-in's readahead (swap_state.c): the page found in the swap
	 * cache; or the pages read with it and the first offset of the read,
	 * the bios it reads (in sr_replay.ra_bio) and a digest of them for
	 * sharing. */
	uint8_t ra_hit;
	uint32_t ra_n;
	uint64_t ra_lo;
	uint32_t ra_nbio;
	uint64_t ra_sig;
	/* A swap-in's slots freed under si->lock now (sr_mm_free_ret(), L3). */
	uint16_t free;
	/* (K1) A swap-in whose slot the swap cache keeps: nothing freed. */
	uint8_t kept;
	/* zswap (zswap_lru.c): what it did with the event (enum sr_zs_out);
	 * a swap-out's writebacks by the shrink worker are its ra_nbio
	 * entries of the bios, dv << 32 | pages each (ra_sig their digest). */
	uint8_t zs;
};

/* Two decisions alike, field by field. */
static inline int sr_decision_same(const struct sr_decision *a, const struct sr_decision *b)
{
	return a->dv == b->dv && a->slots == b->slots && a->off == b->off &&
	       a->ra_hit == b->ra_hit && a->ra_n == b->ra_n && a->ra_lo == b->ra_lo &&
	       a->ra_sig == b->ra_sig && a->free == b->free && a->zs == b->zs;
}

struct sr_replay {
	const struct sr_machine *m;
	int np;
	int baseline;
	int per_task;
	int slots_cache;            /* sr_replay_opts.slots_cache */
	struct sr_kernel kernel;    /* the kernel generation modelled */
	struct pol *pol;
	struct sr_swap_lists lists; /* the machine's priority lists, for every policy */
	/* On a kernel without per-node lists (before 4.14, from 6.19), the
	 * per-node lists of 4.14 to 6.18 put back, which every policy but
	 * reclaimer-nid walks (docs/MODEL.md, "Node policies on one list");
	 * unused otherwise. */
	struct sr_swap_lists node_lists;
	struct sr_hw_memo memo;     /* one-page costs, for every simulation */

	struct sr_u64map task_ix;  /* pid -> task index */
	uint32_t *task_vec;        /* the same for pids below task_vec_n: index + 1, 0 none */
	size_t task_vec_n;
	struct task *tasks;
	size_t ntasks, task_cap;
	uint64_t first_ts;         /* the earliest event's time (when any) */
	int any;

	struct sr_slotmap slots;   /* recorded slots in use */

	/* The reorder window (trace/window.h), unless the events come ordered. */
	int ordered;
	struct sr_window win;
	uint64_t last_ts;
	uint64_t fed;              /* events fed so far, for messages */
	/* Per policy, what it decided for the event being replayed; and for a
	 * swap-in, the slots its readahead reads, in the kernel's order (the
	 * fault's among them; none without readahead): dec[k].ra_nbio of
	 * them from ra_bio[k * SR_RA_BIO_MAX]. */
	struct sr_decision *dec;
	uint64_t *ra_bio;
	int plug;                     /* swap writes of a reclaim pass are plugged */
	/* swapcache.c: readahead and the swap cache (the replay's thread's;
	 * swapcache.c is given this, not the replay). */
	struct replay_ra {
		struct sr_readahead_opts opts;  /* as asked */
		enum sr_ra_mode mode;           /* resolved against the kernel and machine */
		int active;                     /* readahead can read here (by offset, or
						 * by address where VMA readahead can) */
		/* What it reads, set with the replay: the kernel generation,
		 * the machine, and the slot map (whose cells keep which
		 * policies cache each page, and the vpn of each). */
		const struct sr_kernel *kernel;
		const struct sr_machine *m;
		struct sr_slotmap *slots;
		/* VMA readahead (vma_map: it can read anything here): the
		 * swapped-out order-0 pages by virtual page, a table per 2 MiB
		 * (vpn >> 9 -> struct pte_chunk *); each cell keeps its page's
		 * vpn + 1 in its extra bytes.  Swap-ins, and those with
		 * vaddr. */
		int vma_map;
		struct sr_u64map pte;
		/* A direct-mapped cache of pte (by vpn >> 9; c NULL: empty),
		 * of SR_PTE_CACHE entries, made with the map (vma_map; NULL
		 * without): a task's faults and its window stay in a few
		 * 2 MiB. */
		struct pte_cache_ent {
			uint64_t region;
			struct pte_chunk *c;
		} *pte_cache;
		uint64_t ins, ins_vaddr;
		uint64_t life;                  /* pages reclaimed before an unused page
						 * read ahead is: the inactive list; 0:
						 * never */
	} ra;
	uint32_t cell_gen;            /* swap-outs into recorded slots, for slot_cell.gen */
	/* slots.c: the page of its folio a swap-in reads first;
	 * which pages of large folios were read (cell key -> uint64_t[8]). */
	uint32_t in_page;
	struct sr_u64map partial;
	/* slots.c (K1): the recorded slots some policy keeps for a page a
	 * read fault swapped in (a cell with no page left to read, kept
	 * live), by the page (kept_page(): its virtual page) -> its
	 * cell key, and -> the cell's gen when kept; and the kept cells
	 * oldest first ({key, gen}), for the allocator's reclaim.  in_kept:
	 * the swap-in being replayed is a read fault's, with its address
	 * (some policy may keep its slot, and the recording's may have);
	 * in_again: it reads a slot kept since its last swap-in. */
	struct sr_u64map kept_key, kept_gen;
	struct kept_ent { uint64_t key; uint32_t gen; } *kq;
	size_t kq_len, kq_cap;
	int in_kept, in_again;
	/* --node-map: the machine's node of each recorded node (nmap[n],
	 * n < SR_MAX_NODES), and which recorded nodes the events named
	 * (a bit each); NULL without a map: each node as itself. */
	uint16_t *nmap;
	uint64_t *nodes_seen;
	struct sr_node_map node_map; /* as given */
	int32_t max_dev;           /* the highest recorded device named, -1 none */
	/*
	 * --uncertainty (sr_replay_opts.variants): nvar machine variants
	 * (vmach, owned, with their one-page costs vmemo), each with a
	 * simulation per policy, vsim[(v - 1) * np + k] for variant v (1 to
	 * nvar): the decisions are policy k's (its lead is policy k's
	 * lead's).  sr_replay_sim().
	 */
	int nvar;
	double var_range;
	/*
	 * --noise (sr_replay_opts.noise): of the nvar variants, the last
	 * nnoise are replicas of the trace's timing on the machine itself
	 * (the first nmvar are the machine's variants): vsim[(v - 1) * np +
	 * k] for v from nmvar + 1; each event's time is moved by a draw of
	 * up to jitter_ns (play_lead()).  ev_seq: the events fed so far (the
	 * current one's place in the trace); ev_prev: the place of its task's
	 * previous event, ev_fresh its task's first.
	 */
	int nmvar, nnoise;
	double jitter_ns;
	uint64_t ev_seq, ev_prev;
	int ev_fresh;
	struct sr_machine **vmach;
	struct sr_hw_memo *vmemo;
	struct sim *vsim;
	int nlead;                 /* policies with a simulation of their own */
	struct sr_simq *simq;      /* the simulations' thread (simq.c), or NULL:
				    * they play on the replay's */

	struct sr_result result;
	int finished;
};

/* replay.c: replay what the reorder window still holds. */
enum sr_err sr_replay_drain(struct sr_replay *r, struct sr_diag *d);

#define SR_TASK_VEC_MAX 65536 /* pids below this are looked up without hashing */

/* tasks.c: sr_replay_task() but for its common case. */
long sr_replay_task_slow(struct sr_replay *r, uint32_t pid, int *fresh);

/* The index of pid's task, adding it (*fresh = 1) if it is new; -1 out of
 * memory.  A task already seen with a small pid is found inline. */
static inline long sr_replay_task(struct sr_replay *r, uint32_t pid, int *fresh)
{
	if (SR_LIKELY(pid < r->task_vec_n && r->task_vec[pid])) {
		*fresh = 0;
		return (long)r->task_vec[pid] - 1;
	}
	return sr_replay_task_slow(r, pid, fresh);
}

/* The index of pid's task, or -1 if the replay has not seen it. */
long sr_replay_task_find(const struct sr_replay *r, uint32_t pid);

/* Whether policies a and b decided alike for this event: the same device,
 * the same locks, the same slots, the same readahead. */
static inline int sr_replay_same(const struct sr_replay *r, int a, int b)
{
	return sr_decision_same(&r->dec[a], &r->dec[b]);
}

/* Simulation s: policy s's own (s < np), or variant v's of policy k (s =
 * v * np + k, v >= 1: --uncertainty). */
static inline struct sim *sr_replay_sim(struct sr_replay *r, int s)
{
	return s < r->np ? &r->pol[s].sim : &r->vsim[s - r->np];
}

/* (L4) The swap cache trunk of an event at offset (the policy's slot where
 * the replay lays slots out, else the recorded one) with flags: its
 * offset >> 14, or SR_HW_TRUNK_NONE without one.  A record carries its
 * offset, not its trunk (order.c). */
static inline uint32_t sr_play_trunk(uint64_t offset, uint8_t flags)
{
	uint64_t t = offset >> SR_SWAP_TRUNK_SHIFT;

	return !(flags & SR_EV_HAS_OFFSET) || t >= SR_HW_TRUNK_NONE ? SR_HW_TRUNK_NONE :
								       (uint32_t)t;
}

/*
 * How often a swap event of n pages holds the swap cache's lock under
 * kernel k (docs/MODEL.md, L1 and L4): a folio is added to the swap cache
 * once (add_to_swap_cache(), one hold for all its entries) and deleted
 * once (__remove_mapping() after its write; a swap-in's at the fault), 2;
 * but a large folio swapped out by a kernel that splits it first (a PMD
 * folio before 4.13, a smaller one before 6.10) is n pages each added
 * and deleted, 2n; and 4.13 adds a PMD folio whole, then splits it, and
 * its pages are written and deleted one by one, 1 + n (38d8b4e6bdc8;
 * whole from 4.14, bd4c82c22c36).  A swap-in is one folio.  Read in
 * 4.9, 4.14, 5.8 and 6.17 (docs/research/issue34-locks.md, 1a-1f), and
 * in mm/swap_state.c of torvalds/linux at 014bb1de4fc1, a 5.x tree
 * (add_to_swap_cache() under xas_lock_irq(), delete_from_swap_cache()
 * under xa_lock_irq() of the entry's swap_address_space()); the
 * swap-in's bypass is do_swap_page()'s SWP_SYNCHRONOUS_IO branch (4.15
 * to 6.19, read in 5.8 and 6.11).
 */
static inline uint32_t sr_play_cache_holds(const struct sr_kernel *k, int out, uint32_t n)
{
	if (!out || n == 1)
		return 2;
	if (!(n == SR_MAX_NR_PAGES ? k->thp_swap : k->mthp_swap))
		return 2 * n;
	return n == SR_MAX_NR_PAGES && !k->thp_swap_whole ? 1 + n : 2;
}

/*
 * The swap cache's lock holds of a swap event of n pages (docs/MODEL.md,
 * L1 and L4) under kernel k, on a device of class cls, a swap-out (out)
 * or a swap-in, its slot at offset with flags (the policy's where laid
 * out): before 4.11 the device's tree lock; 4.11 to 6.17 the lock of the
 * slot's trunk, but for a swap-in that skips the swap cache (a
 * synchronous device, 4.15 on); from 6.18 none (the swap table: the
 * cluster lock).  sr_play_cache_holds() says how many.
 */
static inline void sr_play_cache_locks(const struct sr_kernel *k, enum sr_dev_class cls, int out,
				       uint32_t n, uint64_t offset, uint8_t flags, struct sr_hw_ev *x)
{
	uint32_t holds = sr_play_cache_holds(k, out, n);

	x->tree = (uint16_t)(k->device_locks ? holds : 0);
	x->trunk_holds = (uint16_t)(k->trunk_locks && (out || !sr_swapin_bypass(k, cls)) ? holds : 0);
	x->trunk = x->trunk_holds ? sr_play_trunk(offset, flags) : SR_HW_TRUNK_NONE;
}

/* A record's code of a count of holds from sr_play_cache_holds() for n
 * pages (2 bits: order.c), and back. */
static inline uint8_t sr_play_holds_code(uint32_t holds, uint32_t n)
{
	return !holds ? 0 : holds == 2 ? 1 : holds == 1 + n ? 2 : 3;
}

static inline uint16_t sr_play_holds_of(uint8_t code, uint32_t n)
{
	return (uint16_t)(code == 0 ? 0 : code == 1 ? 2 : code == 2 ? 1 + n : 2 * n);
}

/* What simulation k is told of an event: the decisions its policy made
 * (replay_one()), all a simulation reads of them. */
struct sr_play {
	struct sr_event e;   /* the event, at the policy's slot where laid out */
	struct sr_hw_ev x;   /* its CPU, task, and lock holds */
	double gap;          /* the task's compute time before it */
	long ti;             /* the task */
	long child;          /* a fork's or a wait's child task; -1 none */
	int k;               /* the simulation (a lead's, of the machine or of a
			      * variant: sr_replay_sim()) */
	int dv;              /* the device chosen; -1 none */
	int fresh;           /* the task's first event */
	uint8_t ra_hit;      /* a swap-in found in the swap cache */
	uint32_t ra_n;       /* pages readahead read with it */
	uint32_t nbio;       /* the bios it reads (0: the fault's alone); a
			      * swap-out's: the shrink worker's writebacks */
	const uint64_t *bio; /* ...their slots, in the kernel's order (a
			      * writeback's: dv << 32 | pages) */
	uint8_t zs;          /* what zswap did (enum sr_zs_out; 0: nothing) */
};
/* replay.c: simulation s (in->k's) plays an event; 0, or -1 out of
 * memory.  It reads only s and in: a simulation thread gets no more. */
int sr_sim_play(struct sim *s, const struct sr_play *in);

/* A record queued in a simulation (order.c): what sr_sim_play() reads of
 * a struct sr_play, packed in one cache line (its bios apart:
 * sim_order.bio, .big), the next of its task's queue and that one's gap
 * (its task's next start, known without reading it). */
struct ord_rec {
	uint64_t offset;             /* e.offset (e.child's bytes: unread) */
	double gap, next_gap;
	int32_t cpu, child, next;    /* child: a task op's; a swap event's e.memcg */
	uint32_t slots;
	uint16_t nr_pages, lru, ra_n, nbio, cpu_nid, page_nid;
	int16_t dv;
	uint8_t op, flags;
	uint8_t bits;                /* si_other (2 bits), tree << 2 (2 bits: its code,
				      * sr_play_holds_code()), ra_hit << 4, fresh << 5,
				      * trunk_holds << 6 (2 bits: its code) */
	uint8_t zs;                  /* in->zs */
	uint16_t free;               /* x.free (< 2^14) | x.ci_lines << 14 */
	uint32_t seq;                /* its place among the records given to
				      * its simulation (order.c) */
};
_Static_assert(sizeof(struct ord_rec) <= 64, "a queued record is one cache line");
/*
 * A record on its way to a simulation: its task, its recorded time and
 * end (when the task went on in the recording: a swap-in's latency
 * added), and what the simulation plays of it (its queue's links unset),
 * packed once (sr_sub_pack()) for every simulation it goes to; its bios
 * apart.  A simulation thread is given these (simq.c), 88 bytes where the
 * struct sr_play is 144.
 */
struct sr_sub {
	uint64_t ts_ns;
	double end;
	int32_t ti;
	int32_t k;                   /* the simulation (struct sr_play's k) */
	struct ord_rec r;
};
void sr_sub_pack(struct sr_sub *u, const struct sr_play *in);
/* order.c: simulation s is given a record (in time order of the trace),
 * with its bios (u->r.nbio of them), and plays what it can, earliest
 * first; 0, or -1 out of memory.  At the end of the trace it plays the
 * rest (sr_sim_drain()).  Its per-task state grown from old_cap to cap;
 * copied (shared.c: dst has played nothing of its own); freed. */
int sr_sim_submit(struct sim *s, const struct sr_sub *u, const uint64_t *bio);
int sr_sim_drain(struct sim *s, size_t ntasks);
int sr_sim_order_grow(struct sim *s, size_t old_cap, size_t cap);
int sr_sim_order_copy(struct sim *dst, const struct sim *src, size_t ntasks);
void sr_sim_order_free(struct sim *s);

/* simq.c: the simulations on threads of their own.  Up to nworkers of
 * them, each started with its first simulation (0, or -1 out of memory);
 * queue a play (sr_replay_play()) for the worker of its simulation: 0, or
 * -1 out of memory here or there; part simulation k from g, whose first
 * ntasks tasks have clocks (sr_replay_sim_copy(), once g's worker has
 * played what it has; k gets a worker of its own): 0, or -1 out of
 * memory (both: -2, the worker's thread could not start); wait until every worker has played everything queued (0, or -1:
 * out of memory there); stop them (what is queued is dropped). */
struct sr_simq;
int sr_simq_start(struct sr_replay *r, int nworkers, struct sr_simq **q);
int sr_simq_play(struct sr_simq *q, const struct sr_sub *u, const uint64_t *bio);
int sr_simq_copy(struct sr_simq *q, struct sr_replay *r, int k, int g, size_t ntasks);
int sr_simq_sync(struct sr_simq *q);
void sr_simq_stop(struct sr_simq *q);

/* shared.c: simulation k becomes a copy of simulation g, whose first
 * ntasks tasks have clocks; 0, or -1 out of memory. */
int sr_replay_sim_copy(struct sr_replay *r, int k, int g, size_t ntasks);
/* shared.c: part the policies whose decision (r->dec) differs from their
 * lead's; 0, -1 out of memory, or -2 a simulation thread could not start. */
int sr_replay_split(struct sr_replay *r);

/* The machine has a rotational swap device: the kernel then keeps cluster
 * readahead for all (swap_use_vma_readahead(), nr_rotate_swap), and its
 * seeks read the slots' positions. */
static inline int sr_replay_has_hdd(const struct sr_machine *m)
{
	int i;

	for (i = 0; i < m->nr_devices; i++)
		if (m->dev[i].cls == SR_DEV_HDD)
			return 1;
	return 0;
}

/* slots.c: each policy's slots (docs/MODEL.md, "Slots"). */
/* Policy p (k) put swap-out e (its recorded slot sc, key; NULL: none) on
 * device dv (-1: nowhere) where its mm said: keep it; 0, or -1 out of
 * memory. */
int sr_replay_slot_out(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
		       struct slot_cell *sc, uint64_t key, int dv);
/* Swap-in e reads pages of the folio in sc (key): every policy frees their
 * slots; r->dec[].off and r->in_page say where the first is.  0, or -1 out
 * of memory. */
int sr_replay_slot_in(struct sr_replay *r, const struct sr_event *e, struct slot_cell *sc,
		      uint64_t key);
/* The recorded slot sc (key) is reused with pages never read: every
 * policy frees what it holds for them. */
void sr_replay_slot_release(struct sr_replay *r, struct slot_cell *sc, uint64_t key);
/* Swap-in e comes soon: bring the cluster records its frees will touch,
 * under every policy, towards the cache (its cell was prefetched before:
 * sr_slotmap_prefetch()).  A hint; nothing changes. */
void sr_replay_slots_prefetch(struct sr_replay *r, const struct sr_event *e);
/* (K1) Read fault e read the last page of sc (key): the cell stays
 * (returns 1) until the page's next swap-out, with the devices of the
 * policies that keep its slot (the others' -1); -1 out of memory. */
int sr_replay_slot_kept(struct sr_replay *r, const struct sr_event *e, struct slot_cell *sc,
			uint64_t key);
/* (K1) Swap-out e of a page whose slot is kept from its last swap-in
 * (found by its virtual address): the page was written since,
 * and its slot freed then, under every policy that kept it. */
void sr_replay_kept_release(struct sr_replay *r, const struct sr_event *e);
/* Kept slots the allocator reclaims before a failed allocation is tried
 * again: a cluster's (SWAPFILE_CLUSTER, 4.13 on). */
#define SR_KEPT_RECLAIM_BATCH 512
/* (K1) Policy p (k) found no device with room: the allocator reclaims the
 * slots it keeps, oldest first, SR_KEPT_RECLAIM_BATCH at most.  Returns
 * how many (0: it keeps none). */
uint64_t sr_replay_kept_reclaim(struct sr_replay *r, struct pol *p, int k);
/* The folio in sc (key) is all read: drop what was kept aside for it. */
void sr_replay_slot_forget(struct sr_replay *r, struct slot_cell *sc, uint64_t key);
/* With cluster readahead: the cell key of the page policy p holds in slot
 * off of device dv, or UINT64_MAX. */
uint64_t sr_replay_slot_owner(const struct pol *p, int dv, uint64_t off);
void sr_replay_slots_free(struct pol *p);
/* Set every policy's mm to lay out slots, or count them, as r's kernel,
 * machine and readahead need (before the first event). */
enum sr_err sr_replay_slots_setup(struct sr_replay *r, struct sr_diag *d);

/* swapcache.c: readahead and the swap cache (docs/MODEL.md). */
/* A decision's nb bios in bio (a swap-in's reads, 0: its folio alone; a
 * swap-out's writebacks): their count, and their digest for sharing
 * (sr_replay_same()), into dec. */
void sr_replay_bios_set(struct sr_decision *dec, const uint64_t *bio, uint32_t nb);
/* What SR_RA_AUTO means for r's kernel and machine, and how long pages
 * read ahead last with a memory size. */
void sr_replay_ra_resolve(struct replay_ra *ra);
/* Policy p (bit k) swapped n pages out: reclaim takes back what it read
 * ahead long enough ago and did not use. */
void sr_replay_ra_reclaim(const struct replay_ra *ra, struct pol *p, int k, uint32_t n);
/* The entry of e's virtual page in the map of swapped-out pages (its
 * swap-out sets it, its swap-in's VMA readahead reads the window around
 * it), towards the cache: a hint, some events ahead, as for the slot map's
 * cells; the map is read at random, and its entry was a cache miss. */
void sr_replay_pte_prefetch(struct replay_ra *ra, const struct sr_event *e);
/* The cache of the map of virtual pages made where the map is (vma_map),
 * freed where it is not (before the first event); 0, or -1 out of memory. */
int sr_replay_pte_setup(struct replay_ra *ra);
/* VMA readahead: swap-out e went into the recorded slot key (NULL sc: none)
 * / the page in slot key is gone (read, or its slot reused): the map of
 * virtual pages.  0, or -1 out of memory. */
int sr_replay_pte_set(struct replay_ra *ra, const struct sr_event *e, uint64_t key,
		      struct slot_cell *sc);
void sr_replay_pte_clear(struct replay_ra *ra, uint64_t key, struct slot_cell *sc);
/* Readahead's decision for policy p's (k's) swap-in e (of task ti) of the
 * page in cell sc on device dv (its slot in dec->off), in dec->ra_hit,
 * ra_n, ra_lo, ra_nbio and ra_sig, and the bios it reads in bio[]
 * (SR_RA_BIO_MAX); 0, or -1 out of memory. */
int sr_replay_readahead(struct replay_ra *ra, struct pol *p, int k, struct sr_decision *dec,
			uint64_t *bio, const struct sr_event *e, long ti, struct slot_cell *sc,
			int dv);

/* zswap_lru.c: zswap's entries per policy (docs/MODEL.md, "zswap"). */
/* Policy p's (k's) pool set up for r's machine, or freed. */
void sr_replay_zswap_init(struct sr_replay *r, struct pol *p);
void sr_replay_zswap_free(struct pol *p);
/* Policy p (k) put swap-out e, in recorded cell sc (key), on device dv:
 * zswap_store() decides (dec->zs); a full pool's shrink worker writes
 * back its oldest entries, listed in wb (dec->ra_nbio of them).  0, or -1
 * out of memory. */
int sr_replay_zswap_out(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
			struct slot_cell *sc, uint64_t key, struct sr_decision *dec, uint64_t *wb);
/* Policy k's swap-in e of cell sc: zswap_load() finds its page or not
 * (dec->zs); a page found leaves the pool.  The fault's own read is taken
 * out of readahead's bios (bio, dec->ra_nbio). */
void sr_replay_zswap_in(struct sr_replay *r, struct pol *p, int k, const struct sr_event *e,
			struct slot_cell *sc, struct sr_decision *dec, uint64_t *bio);
/* The recorded cell sc is reused with pages never read: every pool that
 * holds them drops them (zswap_invalidate()). */
void sr_replay_zswap_drop(struct sr_replay *r, struct slot_cell *sc);

/* plug.c: the block layer's plugs (docs/MODEL.md, "The block layer"). */

/* The most bios one swap-in reads: its readahead window. */
#define SR_RA_BIO_MAX (1u << SR_RA_MAX_PAGE_CLUSTER)

/* Task ti's next event e (its start) in simulation p: a pass of swap-outs
 * it ends flushes the task's plug first (at the task's clock, which the
 * flush may move).  0, or -1 out of memory. */
int sr_replay_plug_before(struct sim *p, long ti, const struct sr_event *e,
			  double start);
/* Submit n write requests of task ti (pol p) from t on, a plug's (bio 0)
 * or one bio alone (bio 1): their bios' latencies, and when the task may
 * go on in *resume (if later than it is).  0, or -1 out of memory. */
static inline int sr_replay_submit_writes(struct sim *p, long ti, int cpu,
					  const struct sr_blk_req *req, unsigned n, int bio,
					  double t, double *resume)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		double cpu_done, fin;

		fin = sr_hw_submit(&p->hw, req[i].dev, cpu, ti, req[i].op, req[i].off, req[i].pages,
				   req[i].bios, (bio ? SR_SUBMIT_ALONE : 0) |
				   (req[i].kswapd ? SR_SUBMIT_KSWAPD : 0), req[i].node, t, &cpu_done);
		if (fin < 0)
			return -1;
		p->did.swapout_lat_sum += (double)req[i].bios * fin - req[i].t_sum;
		if (p->ts && fin > p->ts[ti].out_last)
			p->ts[ti].out_last = fin;
		t = cpu_done;
	}
	if (t > *resume)
		*resume = t;
	return 0;
}

/* sr_replay_plug_out() with the plug on and a position to merge by. */
int sr_replay_plug_out_plugged(struct sim *p, long ti, int cpu, int dv, uint64_t off,
			       uint32_t pages, int node, int kswapd, double start, double t,
			       double *resume);
/* Task ti's swap-out (its event began at start; its kernel path done at
 * t) writes pages at off of DMA device dv from cpu, their memory on node
 * (-1 unknown), kswapd's or not: into its plug, or to the queue; *resume
 * is when it may go on.  0, or -1 out of memory. */
static inline int sr_replay_plug_out(struct sim *p, long ti, int cpu, int dv, uint64_t off,
				     uint32_t pages, int node, int kswapd, double start, double t,
				     double *resume)
{
	const struct sr_blk_req one = { dv, SR_OP_OUT, off, pages, 1, start, node, kswapd };

	if (p->plugging && off != UINT64_MAX)
		return sr_replay_plug_out_plugged(p, ti, cpu, dv, off, pages, node, kswapd, start,
						  t, resume);
	/* No plug (or no position to merge by): the bio goes to the queue
	 * alone, its latency from the event's start. */
	*resume = t;
	return sr_replay_submit_writes(p, ti, cpu, &one, 1, 1, t, resume);
}
/* Task ti's plug flushed at t (blk_finish_plug(), or it sleeps). */
int sr_replay_plug_flush(struct sim *p, long ti, double t, double *resume);
/* sr_replay_read() with readahead's bios (nb > 0). */
int sr_replay_read_ra(struct sim *p, long ti, int cpu, int dv, const struct sr_event *e,
		      const uint64_t *bio, unsigned nb, double t, double *done);
/* Simulation p's swap-in e (at the policy's slot) from DMA device dv, its
 * kernel path done at t: the fault's read, and readahead's nb bios (the
 * slots in bio[], in the kernel's order; 0: the fault's folio alone);
 * *done when its page is in. */
static inline int sr_replay_read(struct sim *p, long ti, int cpu, int dv,
				 const struct sr_event *e, const uint64_t *bio, unsigned nb,
				 double t, double *done)
{
	double cpu_done, fin;

	if (nb)
		return sr_replay_read_ra(p, ti, cpu, dv, e, bio, nb, t, done);
	/* The fault's folio alone: one bio. */
	*done = t;
	fin = sr_hw_submit(&p->hw, dv, cpu, ti, SR_OP_IN,
			   (e->flags & SR_EV_HAS_OFFSET) ? e->offset : UINT64_MAX, e->nr_pages, 1, 1,
			   (int)e->page_nid, t, &cpu_done);
	if (fin < 0)
		return -1;
	*done = fin;
	return 0;
}
/* The per-task plug pointers grown from old_cap to cap (new ones empty). */
int sr_replay_plugs_grow(struct sim *p, size_t old_cap, size_t cap);
/* dst's plugs become copies of src's (a simulation parting). */
int sr_replay_plugs_copy(struct sim *dst, const struct sim *src, size_t ntasks);
/* The end of the trace: every task's plug flushed. */
int sr_replay_plugs_finish(struct sim *p, size_t ntasks);
void sr_replay_plugs_free(struct sim *p, size_t ntasks);

#endif /* SR_REPLAY_IMPL_H */
