/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/replay.h - replaying a trace through several policies at once.
 *
 * The caller feeds events in trace order; every policy is evaluated in the
 * same pass, each with its own copy of the swap state (priority lists,
 * slots caches, device fullness) and of the resources (devices, links).
 * docs/MODEL.md gives the equations.
 */
#ifndef SWAPREPLAY_REPLAY_H
#define SWAPREPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "swapreplay/error.h"
#include "swapreplay/event.h"
#include "swapreplay/kernel.h"
#include "swapreplay/machine.h"
#include "swapreplay/result.h"

struct sr_memcgs;

/* The most threads sr_replay_opts.sim_threads plays simulations on. */
#define SR_SIM_WORKERS_MAX 8

/*
 * Everything a replay is set up with: every setting that changes a figure
 * (or how fast they come), checked once by sr_replay_new() (zstd's
 * parameters, gem5's Params).  Start from sr_replay_opts_init()'s
 * defaults.
 */
struct sr_replay_opts {
	const struct sr_machine *machine;
	/* The kernel generation modelled (sr_kernel_parse()): the priority
	 * lists, the slot allocator, readahead's default... */
	struct sr_kernel kernel;
	/* On kernels that have the slots cache (4.11-6.14): 1, the per-CPU
	 * slots cache; 0, every slot by a list walk.  Not used on others. */
	int slots_cache;
	/* Readahead as asked (sr_readahead_default(): auto, page-cluster 3,
	 * adaptive, skipping holes), resolved against the kernel and the
	 * machine; a page-cluster above SR_RA_MAX_PAGE_CLUSTER is refused. */
	struct sr_readahead_opts readahead;
	/*
	 * 1: a task's swap writes of one reclaim pass are held in its block
	 * plug and merged there (the kernel's way since 3.2, "vmscan: add
	 * block plug for page reclaim"); 0: each bio goes to the device's
	 * queue alone.
	 */
	int plug;
	/* 1: figures per task too (sr_policy_result.task), as vm-scalability
	 * reports them per process. */
	int per_task;
	/*
	 * Play the simulations (the hardware's part of every event) on up to
	 * this many threads of their own (0: none, on the caller's thread; at
	 * most SR_SIM_WORKERS_MAX; a thread starts with the first simulation
	 * it is given), while the caller's thread makes the kernels'
	 * decisions ahead of them (src/replay/simq.c), so that the two
	 * overlap where a CPU is free.  Each simulation plays on one thread;
	 * policies that part play on different threads at once.  The results
	 * are the same to the bit.
	 */
	int sim_threads;
	unsigned reorder_window;  /* events held to order by time; 0: default 65536 */
	/*
	 * The most records each simulation holds to play them in simulated
	 * time (docs/MODEL.md, "The core"); 0: SR_ORDER_QUEUE_MAX.  Past it
	 * the earliest is played all the same, and counted
	 * (sr_policy_result.order_forced): more memory (128 bytes a record
	 * at most) for an order that is exact where tasks drift apart.
	 */
	uint64_t order_queue;
	/* For tests: 1, every record goes through its simulation's queue
	 * (order.c plays an idle task's record at once when nothing can come
	 * before it: the same figures, tests/unit/test_order.c). */
	int order_no_shortcut;
	/* For studies (tests/validation/decision_order.c): told of every
	 * record the first simulation plays, as it plays it: its task (the
	 * replay's number, by first appearance in the trace).  Called on the
	 * thread that plays it. */
	void (*order_played)(void *arg, long task);
	void *order_played_arg;
	/*
	 * 1: the events come in replay order already, from a pipe that
	 * orders them (sr_pipe_start_ordered() with sr_replay_check and the
	 * window above): each is replayed as it is fed (reorder_window is
	 * not used; late events are still counted).
	 */
	int ordered;
	/* The trace's nodes replayed as the machine's (--node-map); NULL or
	 * empty: each as itself.  Copied: it need not outlive the call. */
	const struct sr_node_map *node_map;
	/* The trace's memory cgroups (sr_reader_memcgs()), for the policies
	 * that ask a memcg's path (tiers); NULL: none named.  Read as the
	 * events are fed, so it must outlive the replay. */
	const struct sr_memcgs *memcgs;
	/*
	 * --uncertainty: the policies' decisions also played on this many
	 * variants of the machine (sr_machine_perturb(), seeds 1 to
	 * variants, every figure within a factor 1 + variant_range either
	 * way), at most SR_REPLAY_MAX_VARIANTS; sr_replay_finish() then fills
	 * each policy's unc.  The variants share everything the kernel decides
	 * (decisions depend on the events and the machine's layout, never on
	 * its figures: a policy sees the machine as described), so that each
	 * costs a simulation per policy that decides apart, not a replay
	 * (docs/MODEL.md, "Uncertainty").  0: none.
	 */
	unsigned variants;
	double variant_range;
	/*
	 * --noise: the policies' decisions also played on this many replicas
	 * of the trace's timing, each event's time moved later by a draw
	 * uniform on [0, noise_jitter_ns) (a hash of the event's place in the
	 * trace and the replica's number: the same under every policy), on
	 * the machine as given; sr_replay_finish() then fills each policy's
	 * noise.  At most SR_REPLAY_MAX_NOISE; 0: none.  noise_jitter_ns 0
	 * stands for SR_NOISE_JITTER_NS.  docs/MODEL.md, N1-N2.
	 */
	unsigned noise;
	double noise_jitter_ns;
};

/* o with the defaults: no machine (to be given), SR_KERNEL_DEFAULT, the
 * slots cache on, sr_readahead_default(), the plug on, no per-task
 * figures, no simulation threads, the default reorder window, events not
 * ordered, no node map, no variants. */
void sr_replay_opts_init(struct sr_replay_opts *o);

/* The most machine variants a replay plays. */
#define SR_REPLAY_MAX_VARIANTS 1000
/* The most noise replicas a replay plays, and their default jitter (1 us:
 * docs/MODEL.md, N1, says why). */
#define SR_REPLAY_MAX_NOISE 64
#define SR_NOISE_JITTER_NS 1000.0
/*
 * The replicas --noise=auto plays on a trace of about `events` events: as
 * many as SR_NOISE_AUTO_EVENTS replayed events allow, at most 4 (up to
 * 100,000 events), none below 2 (a spread needs two: beyond 200,000), and
 * none when the length is not known (0: a pipe).  A replica costs about
 * what the replay's simulations cost (45-110 % more time each on gen's
 * traces), so that replicas are the default only where they add a
 * fraction of a second; a long trace's noise is smaller, and --noise=R
 * measures it.
 */
#define SR_NOISE_AUTO_EVENTS 400000u
unsigned sr_noise_auto(uint64_t events);

/* The window sr_replay_opts.reorder_window == 0 stands for. */
#define SR_REORDER_DEFAULT 65536u

struct sr_replay;

/*
 * Set up a replay of the policies named in specs (n of them; "NAME",
 * "NAME:PARAMS", or a path to a shared object, "./x.so[:PARAMS]").  baseline
 * names one of them (by spec).  The machine must outlive the replay; the
 * rest of opts is copied.  SR_ERR_INVAL for a setting out of range (a
 * page-cluster, a thread count, variants), SR_ERR_MACHINE for a machine
 * without devices or a node map onto nodes it lacks, SR_ERR_POLICY,
 * SR_ERR_NOMEM (or a simulation thread that cannot start).
 */
enum sr_err sr_replay_new(struct sr_replay **out, const struct sr_replay_opts *opts,
			  const char *const *specs, int n, const char *baseline,
			  struct sr_diag *diag);

/*
 * Check that the machine has e's nodes and device: SR_ERR_MACHINE, with
 * the record number nth (from 1) and a message, if not.  replay is a
 * struct sr_replay * (void * to fit sr_pipe_check_fn).
 */
enum sr_err sr_replay_check(void *replay, const struct sr_event *e, uint64_t nth,
			    struct sr_diag *diag);

/* What the replay does for readahead, resolved against its kernel and
 * machine: "cluster, page-cluster 3, adaptive window" or "off: ...". */
const char *sr_replay_readahead_describe(const struct sr_replay *r, char *buf, size_t n);
/*
 * What the replay's simulations may take, for a caller to know before the
 * first event whether a run fits (replay --max-memory): *each, the most
 * one simulation's hardware takes on this machine (sr_hw_bytes(): its
 * calendars, all made and in use), and *per_cpu more for each CPU two
 * tasks share; *nsims, how many simulations there may be (every policy
 * apart, on the machine and on each variant).  The decisions (the slot
 * map, the swap cache) are shared by all and grow with the trace's slots
 * in use, not with the variants.
 */
void sr_replay_sim_memory(const struct sr_replay *r, uint64_t *each, uint64_t *per_cpu,
			  int *nsims);
/* What weakens the readahead modelled, after the events: VMA readahead
 * with swap-ins that have no virtual address; NULL when nothing does. */
const char *sr_replay_readahead_caveat(const struct sr_replay *r, char *buf, size_t n);
/* What --node-map did, after the events: "--node-map=1:0: the trace's
 * node 0 as itself, the trace's node 1 as node 0", for the recorded nodes
 * the events named; NULL without a map. */
const char *sr_replay_nodes_describe(const struct sr_replay *r, char *buf, size_t n);
/* The trace's recorded devices against the machine's, after the events,
 * when the trace names more than the machine has (it was recorded on
 * another machine); NULL otherwise. */
const char *sr_replay_devices_describe(const struct sr_replay *r, char *buf, size_t n);
/* Whether readahead ran in this replay: by offset, or by virtual address
 * with swap-ins that had one (after the events). */
int sr_replay_readahead_active(const struct sr_replay *r);

/* Replay n more events.  A node or device the machine lacks is SR_ERR_MACHINE. */
enum sr_err sr_replay_feed(struct sr_replay *r, const struct sr_event *evs, size_t n,
			   struct sr_diag *diag);
/* sr_replay_feed() for events sr_replay_check() has passed already against
 * this replay (a pipe started with it checks each as it decodes): an
 * ordered replay does not test them again.  Events it has not passed must not be
 * fed this way (a node or device the machine lacks is read out of range). */
enum sr_err sr_replay_feed_checked(struct sr_replay *r, const struct sr_event *evs, size_t n,
				   struct sr_diag *diag);

/* Drain, finish every task and compute the results (valid until free). */
enum sr_err sr_replay_finish(struct sr_replay *r, const struct sr_result **res,
			     struct sr_diag *diag);

void sr_replay_free(struct sr_replay *r);

/*
 * The name policy k (in the order of specs) gives itself: its ops table's
 * .name, which for a shared object is not the path it was loaded from (a
 * sweep's rows name a policy so, whatever path was typed).  NULL for a k
 * out of range.  Valid until sr_replay_free().
 */
const char *sr_replay_policy_name(const struct sr_replay *r, int k);


#endif /* SWAPREPLAY_REPLAY_H */
