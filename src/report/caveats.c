/* SPDX-License-Identifier: MIT */
/*
 * What weakens a report's numbers, made once for every format
 * (docs/REPORT.md, "Caveats"): the formats print this list, and the
 * command line prints its warnings on standard error, so that no format
 * and no reader can miss one.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "swapreplay/report.h"
#include "swapreplay/version.h"

static const struct {
	const char *key, *label;
	int warn;
} kinds[SR_CAV_COUNT] = {
	[SR_CAV_MOST_NOT_REPLAYED] = { "most_not_replayed", "warning", 1 },
	[SR_CAV_SWAP_FULL] = { "swap_full", "swap full", 1 },
	[SR_CAV_UNMATCHED] = { "unmatched_swapins", "unmatched", 1 },
	[SR_CAV_KEPT] = { "kept_slots", "kept slots", 0 },
	[SR_CAV_STALE] = { "stale_requests", "stale", 1 },
	[SR_CAV_LATE] = { "late_events", "late", 0 },
	[SR_CAV_ORDER] = { "order", "order", 1 },
	[SR_CAV_TRUNKS] = { "trunk_locks", "trunk locks", 1 },
	[SR_CAV_TASKS] = { "task_ops", "tasks", 0 },
	[SR_CAV_DERIVED] = { "derived", "derived", 0 },
	[SR_CAV_NODES] = { "nodes", "nodes", 0 },
	[SR_CAV_DEVICES] = { "devices", "devices", 0 },
	[SR_CAV_ONE_LIST] = { "one_list", "node lists", 0 },
	[SR_CAV_READAHEAD] = { "readahead", "readahead", 0 },
	[SR_CAV_ZSWAP] = { "zswap", "zswap", 0 },
	[SR_CAV_NOISE] = { "noise", "noise", 0 },
	[SR_CAV_UNCERTAINTY] = { "uncertainty", "uncertainty", 0 },
	[SR_CAV_MODEL] = { "model", "model", 0 },
};

/* Appends to a caveat's text. */
struct cbuf {
	char *s;
	size_t n, len;
};

static void put(struct cbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct cbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->len >= b->n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->s + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	b->len = k < 0 ? b->n : b->len + (size_t)k;
}

static struct sr_caveat *add(struct sr_caveat *out, int *n, enum sr_caveat_kind k,
			     struct cbuf *b)
{
	struct sr_caveat *c = &out[(*n)++];

	c->kind = k;
	c->key = kinds[k].key;
	c->label = kinds[k].label;
	c->warn = kinds[k].warn;
	c->text[0] = '\0';
	b->s = c->text;
	b->n = sizeof(c->text);
	b->len = 0;
	return c;
}

/* Events of policy p that no device served (swap full, or the swap-in of
 * a page whose swap-out found it full). */
static uint64_t unplayed(const struct sr_result *res, const struct sr_policy_result *p)
{
	uint64_t played = p->swapouts + p->swapins;

	return res->events > played ? res->events - played : 0;
}

/* Swap-ins read from a device the policy would choose now, for want of
 * their swap-out in the trace. */
static uint64_t guessed(const struct sr_policy_result *p)
{
	return p->unmatched_in - p->unmatched_nodev;
}

static uint64_t swap_full(const struct sr_policy_result *p)
{
	return p->swap_full;
}

static uint64_t stale(const struct sr_policy_result *p)
{
	return p->stale_requests;
}

static uint64_t order_forced(const struct sr_policy_result *p)
{
	return p->order_forced;
}

static uint64_t order_late(const struct sr_policy_result *p)
{
	return p->order_late;
}

static uint64_t trunk_shared(const struct sr_policy_result *p)
{
	return p->trunk_shared;
}

/* A caveat of kind, when any policy has a count: intro, then each such
 * policy's count (" of total" when total is not 0).  Whether it was
 * made. */
static int per_policy(struct sr_caveat *out, int *n, struct cbuf *b, const struct sr_result *res,
		      enum sr_caveat_kind kind, const char *intro,
		      uint64_t (*count)(const struct sr_policy_result *), uint64_t total)
{
	int k, any = 0;

	for (k = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];

		if (!count(p))
			continue;
		if (!any++) {
			add(out, n, kind, b);
			put(b, "%s", intro);
		}
		put(b, "%s %s %" PRIu64, any > 1 ? "," : "", p->name, count(p));
		if (total)
			put(b, " of %" PRIu64, total);
	}
	return any;
}

int sr_report_caveats(const struct sr_result *res, const struct sr_report_info *in,
		      struct sr_caveat out[SR_CAV_COUNT])
{
	const uint64_t outs = res->events - res->swapins;
	struct cbuf b;
	int n = 0, k, any;

	/* Most events not replayed as recorded, for any policy: first. */
	for (k = 0, any = 0; k < res->nr_policies; k++) {
		const struct sr_policy_result *p = &res->policy[k];
		uint64_t lost = unplayed(res, p) + guessed(p);

		if (2 * lost <= res->events)
			continue;
		if (!any++) {
			add(out, &n, SR_CAV_MOST_NOT_REPLAYED, &b);
			put(&b, "most events could not be replayed as recorded, and the figures "
				"describe the rest: of %" PRIu64 " events,", res->events);
		}
		put(&b, "%s %s %" PRIu64 " had no device (%" PRIu64 " swap-outs found swap full, "
			"%" PRIu64 " swap-ins had no slot to read)", any > 1 ? ";" : "", p->name,
		    unplayed(res, p), p->swap_full, unplayed(res, p) - p->swap_full);
		if (guessed(p))
			put(&b, " and %" PRIu64 " swap-ins were read from a device guessed for want "
				"of their swap-out", guessed(p));
	}
	for (k = 0, any = 0; k < res->nr_policies; k++)
		any |= res->policy[k].tier_full != 0;
	if (per_policy(out, &n, &b, res, SR_CAV_SWAP_FULL, any ?
		       "swap-outs that found no device with room they may use (the devices, or "
		       "a memory cgroup's swap tiers, too small for the trace):" :
		       "swap-outs that found no device with room (the devices are too small for "
		       "the trace):", swap_full, outs)) {
		put(&b, "; each cost compute time only, and its page's swap-in no I/O");
		for (k = 0, any = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			if (!p->tier_full)
				continue;
			put(&b, "%s %s %" PRIu64, any++ ? "," : "; of them, those whose memory "
			    "cgroup's tiers were full while another tier had room (the swap tiers "
			    "series fails such a swap-out rather than fall through; docs/MODEL.md, "
			    "T1):", p->name, p->tier_full);
		}
	}
	for (k = 0, any = 0; k < res->nr_policies; k++)
		any |= res->policy[k].unmatched_in != 0;
	if (any) {
		const struct sr_policy_result *p = &res->policy[res->baseline];

		add(out, &n, SR_CAV_UNMATCHED, &b)->warn = !in->derived; /* a derived
			* trace has no offsets, and says so already */
		put(&b, "%" PRIu64 " of %" PRIu64 " swap-ins have no swap-out in the trace "
			"(it was recorded before the trace began, or without an offset): each was "
			"read from the device its policy would choose for the page now",
		    p->unmatched_in, res->swapins);
		for (k = 0; k < res->nr_policies; k++)
			if (res->policy[k].unmatched_nodev)
				put(&b, "; %s: %" PRIu64 " of them found no device with room and "
					"were not replayed", res->policy[k].name,
				    res->policy[k].unmatched_nodev);
	}
	for (k = 0, any = 0; k < res->nr_policies; k++)
		any |= res->policy[k].slots_kept || res->policy[k].kept_rewritten;
	if (any) {
		add(out, &n, SR_CAV_KEPT, &b);
		put(&b, "swap-ins whose slot the swap cache kept (a read fault's page keeps it "
			"until written, or swap is half full: docs/MODEL.md, K1):");
		for (k = 0; k < res->nr_policies; k++)
			put(&b, "%s %s %" PRIu64 " of %" PRIu64, k ? "," : "", res->policy[k].name,
			    res->policy[k].slots_kept, res->swapins);
		for (k = 0; k < res->nr_policies; k++) {
			const struct sr_policy_result *p = &res->policy[k];

			if (p->kept_rewritten)
				put(&b, "; %s: %" PRIu64 " swap-ins read a slot the recording kept and "
					"its kernel had freed: the page's second write, on its reclaim, is "
					"not in the trace and not played", p->name, p->kept_rewritten);
			if (p->kept_reclaimed)
				put(&b, "; %s: %" PRIu64 " kept slots taken back by the allocator, swap "
					"full", p->name, p->kept_reclaimed);
		}
	}
	if (per_policy(out, &n, &b, res, SR_CAV_STALE, "requests served without contention:",
		       stale, 0))
		put(&b, "; each started more than half a calendar window (82 ms; 8.2 s on an hdd; "
			"41 ms on a swap cache trunk's lock) "
			"before the latest on its resource, played that late (docs/MODEL.md, "
			"\"Resources\")");
	if (per_policy(out, &n, &b, res, SR_CAV_ORDER, "events played out of simulated time's "
		       "order:", order_forced, 0)) {
		put(&b, " played while a task idle in the trace could still have acted earlier, "
			"the simulation's queue full (%" PRIu64 " records, --order-queue: a task "
			"that stopped without its exit recorded, or tasks that drift apart, hold "
			"the others back)", res->order_queue);
		for (k = 0; k < res->nr_policies; k++)
			if (res->policy[k].order_late)
				put(&b, "; %s: %" PRIu64 " events then started before the time "
					"already played", res->policy[k].name, res->policy[k].order_late);
		put(&b, " (docs/MODEL.md, \"The core\")");
	} else if (per_policy(out, &n, &b, res, SR_CAV_ORDER, "events that started before the "
			      "time their simulation had played, the trace's order broken:",
			      order_late, 0)) {
		put(&b, " (docs/MODEL.md, \"The core\")");
	}
	if (per_policy(out, &n, &b, res, SR_CAV_TRUNKS, "swap cache trunks that shared a "
		       "lock with another trunk:", trunk_shared, 0))
		put(&b, "; each found every calendar of the trunks' locks busy at once, and its "
			"holds contended with another trunk's too (docs/MODEL.md, L4)");
	if (res->late_events) {
		add(out, &n, SR_CAV_LATE, &b);
		put(&b, "%" PRIu64 " events came later than the reorder window allowed and were "
			"replayed late", res->late_events);
	}
	if (res->forks || res->exits || res->waits) {
		struct sr_caveat *c = add(out, &n, SR_CAV_TASKS, &b);

		put(&b, "the trace's task ops: %" PRIu64 " forks, %" PRIu64 " exits, %" PRIu64
			" waits; %" PRIu64 " tasks started by a recorded fork (timed from their "
			"parent), %" PRIu64 " at their recorded time or the simulation's, the later; "
			"most tasks swapping at once:",
		    res->forks, res->exits, res->waits, res->tasks_forked, res->tasks_unforked);
		for (k = 0; k < res->nr_policies; k++)
			put(&b, "%s %s %" PRIu64, k ? "," : "", res->policy[k].name,
			    res->policy[k].tasks_alive_max);
		if (res->forks_late || res->waits_unmatched) {
			c->warn = 1;
			put(&b, "; left as recorded: %" PRIu64 " forks of a task already seen, %"
				PRIu64 " waits for a task not seen or not exited", res->forks_late,
			    res->waits_unmatched);
		}
		put(&b, " (docs/MODEL.md, \"Forks, exits and waits\")");
	}
	if (in->derived) {
		add(out, &n, SR_CAV_DERIVED, &b);
		put(&b, "the trace is %s", in->derived);
	}
	if (in->nodes) {
		add(out, &n, SR_CAV_NODES, &b);
		put(&b, "%s", in->nodes);
	}
	if (in->devices) {
		add(out, &n, SR_CAV_DEVICES, &b);
		put(&b, "%s", in->devices);
	}
	if (in->kernel && !in->kernel->node_lists) {
		add(out, &n, SR_CAV_ONE_LIST, &b);
		put(&b, "kernel %u.%u has one priority list (%s): reclaimer-nid is its own choice; "
		    "every other policy walks the per-node lists of 4.14 to 6.18, put back, so that "
		    "the node it names means what it did there (docs/MODEL.md, \"Node policies on "
		    "one list\")", in->kernel->major, in->kernel->minor,
		    in->kernel->prio == SR_PRIO_GLOBAL ? "per-node lists came in 4.14" :
		    "6.19 removed the per-node lists, 8e689f8ea45f");
	}
	if (in->readahead_caveat) {
		add(out, &n, SR_CAV_READAHEAD, &b);
		put(&b, "%s", in->readahead_caveat);
	}
	if (res->zswap.enabled) {
		const struct sr_zswap *z = &res->zswap;

		add(out, &n, SR_CAV_ZSWAP, &b);
		put(&b, "in front of the devices (%s, its pool at most %.1f MiB",
		    sr_zswap_comp_name(z->comp), z->pool_bytes / 1048576.0);
		if (z->mem_bytes > 0 && fabs(z->pool_bytes - z->mem_bytes * z->max_pool_pct / 100) < 1)
			put(&b, ", %g %% of %.1f GiB", z->max_pool_pct, z->mem_bytes / 1073741824.0);
		put(&b, ", taking pages again below %g %% of it once full; %s): the trace does not say "
			"what its pages hold, so each is drawn, the same for every policy, from the "
			"machine's figures: compression ratio %.3g, %g %% all zeros, %g %% not "
			"compressing (docs/MODEL.md, Zs1-Zs5)", z->accept_pct,
		    z->writeback ? "a full pool writes its oldest entries back" :
		    "no writeback: a full pool refuses stores until loads free it", z->ratio,
		    100 * z->zero_share, 100 * z->incompressible_share);
	}
	add(out, &n, SR_CAV_NOISE, &b);
	if (res->nr_policies && res->policy[0].noise.replicas)
		put(&b, "each delta's timing noise is the most it moved over %d replicas of the "
			"trace, every event up to %.0f ns later (docs/MODEL.md, N1-N2); a delta "
			"within it is %s", res->policy[0].noise.replicas,
		    res->policy[0].noise.jitter_ns, SR_WITHIN_NOISE);
	else
		put(&b, "not measured (--noise=R replays R replicas of the trace's timing; by "
			"default only a trace of up to about 200,000 events is)");
	add(out, &n, SR_CAV_UNCERTAINTY, &b);
	if (res->nr_policies && res->policy[0].unc.variants)
		put(&b, "%d variants of the machine, every figure within a factor %.2f; agree: "
			"variants on the same side (faster, slower, or within %.0f %%%s)",
		    res->policy[0].unc.variants, 1 + res->policy[0].unc.range, SR_SAME_PCT,
		    res->policy[0].noise.replicas ? " or the delta's timing noise" : "");
	else
		put(&b, "not estimated (--uncertainty=N gives each delta a range)");
	add(out, &n, SR_CAV_MODEL, &b);
	put(&b, "swapreplay %s predictions, not measurements", SR_VERSION_STRING);
	return n;
}
