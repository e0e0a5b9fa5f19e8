/* Swap tiers (docs/MODEL.md, T1): a machine's tiers as its description
 * names them, the tiers policy's assignment of memory cgroups to them,
 * and the allocation that follows the series (v10): the CPU's cluster
 * used only when its device is allowed, the walk skipping the others,
 * no fall-through when the allowed devices are full.  Worked by hand:
 * each test says what it expects and why. */
#include <stdlib.h>
#include <string.h>

#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "swapreplay/trace.h"
#include "test.h"

/* One node, four CPUs; two NVMe devices of priority 100 (1024 slots: two
 * clusters of 512 each) in tier "fast" (priority 50 and up), an SSD of
 * priority 10 in tier "slow" (by name). */
static const char TIERED[] =
	"{\"name\": \"tiered\", \"nodes\": [{\"cpus\": 4}], \"devices\": ["
	"{\"name\": \"f0\", \"class\": \"nvme\", \"node\": 0, \"priority\": 100, \"size_pages\": 1024},"
	"{\"name\": \"f1\", \"class\": \"nvme\", \"node\": 0, \"priority\": 100, \"size_pages\": 1024},"
	"{\"name\": \"s0\", \"class\": \"ssd\", \"node\": 0, \"priority\": 10, \"size_pages\": 8192}],"
	" \"tiers\": [{\"name\": \"fast\", \"priority\": [50, 32767]},"
	" {\"name\": \"slow\", \"devices\": [\"s0\"]}]}";

static struct sr_machine *mach(const char *json, struct sr_diag *d)
{
	struct sr_machine *m = NULL;

	if (sr_machine_parse(&m, json, strlen(json), "test-machine", d) != SR_OK)
		return NULL;
	return m;
}

struct evs {
	struct sr_event *e;
	size_t n, cap;
};

/* n order-0 swap-outs of memcg mc on CPU 0, at offsets from *off on. */
static void outs(struct evs *v, int n, unsigned mc, uint64_t *off)
{
	int i;

	for (i = 0; i < n && v->n < v->cap; i++) {
		struct sr_event *e = &v->e[v->n++];

		sr_event_init(e);
		e->ts_ns = 1000 * (uint64_t)v->n;
		e->op = SR_OP_OUT;
		e->pid = 1;
		e->cpu = 0;
		e->flags |= SR_EV_HAS_CPU | SR_EV_HAS_OFFSET;
		e->offset = (*off)++;
		e->nr_pages = 1;
		e->memcg = (uint16_t)mc;
	}
}

static uint64_t writes(const struct sr_result *res, int k, const char *name)
{
	int i;

	for (i = 0; res && i < res->policy[k].nr_devices; i++)
		if (!strcmp(res->policy[k].dev[i].name, name))
			return res->policy[k].dev[i].writes;
	return (uint64_t)-1;
}

/* v replayed on m under kernel ver through reclaimer-nid and spec, the
 * paths of memcgs 1-4 /a, /b, /c, /a/x (5 has none); NULL on error (in d).
 * The replay and names of an earlier run (*rp, *mc, or NULL) are freed. */
static const struct sr_result *run(struct sr_replay **rp, struct sr_memcgs **mc,
				   const struct sr_machine *m, const char *ver, const char *spec,
				   const struct evs *v, struct sr_diag *d)
{
	static const char *const paths[] = { "/a", "/b", "/c", "/a/x" };
	const char *specs[2] = { "reclaimer-nid", spec };
	const struct sr_result *res = NULL;
	struct sr_replay_opts o;
	char msg[128];
	unsigned i;

	sr_replay_free(*rp);
	sr_memcgs_free(*mc);
	*rp = NULL;
	*mc = NULL;
	if (sr_memcgs_new(mc) != SR_OK)
		return NULL;
	for (i = 0; i < 4; i++)
		sr_memcgs_set(*mc, i + 1, paths[i], strlen(paths[i]), msg, sizeof(msg));
	sr_replay_opts_init(&o);
	o.machine = m;
	o.plug = 0; /* a write request per swap-out */
	o.noise = 0;
	o.memcgs = *mc;
	if (sr_kernel_parse(ver, &o.kernel, d) != SR_OK ||
	    sr_replay_new(rp, &o, specs, 2, specs[0], d) != SR_OK ||
	    sr_replay_feed(*rp, v->e, v->n, d) != SR_OK || sr_replay_finish(*rp, &res, d) != SR_OK)
		return NULL;
	return res;
}

static struct evs *evs_new(size_t cap)
{
	struct evs *v = calloc(1, sizeof(*v));

	if (v && !(v->e = calloc(cap, sizeof(*v->e)))) {
		free(v);
		return NULL;
	}
	if (v)
		v->cap = cap;
	return v;
}

static void evs_free(struct evs *v)
{
	if (v)
		free(v->e);
	free(v);
}

/* The description's tiers: by range and by list, each device's bit; none
 * named: by device class. */
static void tiers_parsed(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach(TIERED, &d), *p;

	CHECK(m && m->nr_tiers == 2 && !m->tiers_by_class);
	CHECK(m && !strcmp(m->tier[0].name, "fast") && m->tier[0].by_priority &&
	      m->tier[0].lo == 50 && m->tier[0].hi == 32767 && !m->tier[1].by_priority);
	CHECK(m && m->dev[0].tier == 0 && m->dev[1].tier == 0 && m->dev[2].tier == 1);
	CHECK(m && m->dev[0].tier_bit == 1u && m->dev[2].tier_bit == 2u);
	sr_machine_free(m);
	/* A device in no tier: bit 31, which every memcg's mask has. */
	p = mach("{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\","
		 " \"priority\": 5}, {\"name\": \"b\", \"class\": \"nvme\"}], \"tiers\": [{\"name\":"
		 " \"t\", \"priority\": [0, 9]}]}", &d);
	CHECK(p && p->dev[0].tier == 0 && p->dev[1].tier == -1 &&
	      p->dev[1].tier_bit == SR_TIER_NONE_BIT);
	sr_machine_free(p);
	/* An automatic priority counts as -1. */
	p = mach("{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"}],"
		 " \"tiers\": [{\"name\": \"low\", \"priority\": [-1, -1]}]}", &d);
	CHECK(p && p->dev[0].tier == 0);
	sr_machine_free(p);
	p = mach("{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"z\", \"class\": \"zram\"},"
		 " {\"name\": \"n\", \"class\": \"nvme\"}]}", &d);
	CHECK(p && p->tiers_by_class && p->nr_tiers == 2 && !strcmp(p->tier[0].name, "memory") &&
	      !strcmp(p->tier[1].name, "block") && p->dev[0].tier == 0 && p->dev[1].tier == 1);
	sr_machine_free(p);
}

static void tiers_refused(void)
{
	static const struct {
		const char *tiers, *msg;
	} bad[] = {
		{ "[{\"name\": \"a\", \"priority\": [0, 50]}, {\"name\": \"b\", \"priority\": [50, 60]}]",
		  "tiers[1].priority: [50, 60] overlaps tier a's [0, 50]" },
		{ "[{\"name\": \"a\", \"devices\": [\"x\"]}, {\"name\": \"b\", \"devices\": [\"x\"]}]",
		  "tiers[1]: device x is in tier a already" },
		{ "[{\"name\": \"a\", \"devices\": [\"x\"]}, {\"name\": \"b\", \"priority\": [0, 9]}]",
		  "tiers[1]: device x (priority 5) is in tier a already" },
		{ "[{\"name\": \"a\", \"devices\": [\"nope\"]}]",
		  "tiers[0].devices[0]: \"nope\" is not a device of this machine" },
		{ "[{\"name\": \"a b\", \"priority\": [0, 9]}]",
		  "tiers[0].name: expected 1 to 31 letters, digits, _ or -" },
		{ "[{\"name\": \"a\", \"priority\": [0, 9], \"devices\": [\"x\"]}]",
		  "tiers[0]: expected a \"priority\" range or a \"devices\" list, one of the two" },
		{ "[{\"name\": \"a\", \"priority\": [9, 0]}]",
		  "tiers[0].priority: expected [LO, HI], -1 <= LO <= HI <= 32767 (an automatic priority counts as -1)" },
		{ "[{\"name\": \"a\", \"priority\": [0, 9]}, {\"name\": \"a\", \"priority\": [10, 19]}]",
		  "tiers[1].name: tier \"a\" is named twice" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char json[512];
		struct sr_diag d;
		struct sr_machine *m;

		snprintf(json, sizeof(json), "{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\":"
			 " \"x\", \"class\": \"nvme\", \"priority\": 5}], \"tiers\": %s}", bad[i].tiers);
		m = mach(json, &d);
		CHECK(!m && strstr(d.msg, bad[i].msg));
		if (m || !strstr(d.msg, bad[i].msg))
			printf("  got: %s\n", m ? "(parsed)" : d.msg);
		sr_machine_free(m);
	}
}

/*
 * On one CPU, 10 swap-outs each of /a (fast), /b (slow), /c (not named:
 * every tier), /a/x (under /a: fast), /b again, under
 * tiers:/a=fast;/b=slow, 6.18:
 * - /a: no cluster yet; the walk takes f0 (equal priorities in turn, f0
 *   first), its cluster the CPU's: f0 10;
 * - /b: the CPU's cluster is f0's, not in slow: a miss; the walk skips f0
 *   and f1 for s0, whose cluster becomes the CPU's: s0 10;
 * - /c may use every tier: the CPU's cluster, s0's, serves it (the fast
 *   path does not look for a higher priority): s0 10;
 * - /a/x: s0 not in fast; the walk's turn is f1's now: f1 10;
 * - /b: f1 not in slow; s0 again: s0 10.
 * f0 10, f1 10, s0 30.  The kernel without tiers (reclaimer-nid): every
 * swap-out from the CPU's cluster on f0: f0 50.  A memcg the trace gives
 * no path (5) may use every tier, as the root.
 */
static void tiers_placement(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach(TIERED, &d);
	struct evs *v = evs_new(64);
	struct sr_replay *r = NULL;
	struct sr_memcgs *mc = NULL;
	const struct sr_result *res;
	uint64_t off = 0;

	if (!m || !v) {
		CHECK(m && v);
		goto out;
	}
	outs(v, 10, 1, &off);
	outs(v, 10, 2, &off);
	outs(v, 10, 3, &off);
	outs(v, 10, 4, &off);
	outs(v, 10, 2, &off);
	res = run(&r, &mc, m, "6.18", "tiers:/a=fast;/b=slow", v, &d);
	CHECK(res != NULL);
	if (!res) {
		printf("  %s\n", d.msg);
		goto out;
	}
	CHECK(writes(res, 0, "f0") == 50 && writes(res, 0, "f1") == 0 && writes(res, 0, "s0") == 0);
	CHECK(writes(res, 1, "f0") == 10 && writes(res, 1, "f1") == 10 && writes(res, 1, "s0") == 30);
	CHECK(res->policy[1].tiered && !res->policy[0].tiered);
	CHECK(res->policy[1].swap_full == 0 && res->policy[1].tier_full == 0);
	/* /a/x narrowed below /a: fast+slow there, slow here (the two masks
	 * and'ed): /a on f0, /a/x on s0 (the CPU's f0 cluster not in slow),
	 * /b (not assigned now) on s0's, /c too, /a/x again on s0. */
	v->n = 0;
	off = 0;
	outs(v, 10, 1, &off);
	outs(v, 10, 4, &off);
	outs(v, 10, 2, &off);
	outs(v, 10, 3, &off);
	outs(v, 10, 4, &off);
	res = run(&r, &mc, m, "6.18", "tiers:/a=fast+slow;/a/x=slow", v, &d);
	CHECK(res && writes(res, 1, "f0") == 10 && writes(res, 1, "f1") == 0 &&
	      writes(res, 1, "s0") == 40);
	/* Memcg 5, which the trace names no path for: every tier, as the
	 * root.  /b first (s0), then 5 takes the CPU's s0 cluster. */
	v->n = 0;
	off = 0;
	outs(v, 10, 2, &off);
	outs(v, 10, 5, &off);
	res = run(&r, &mc, m, "6.18", "tiers:/b=slow", v, &d);
	CHECK(res && writes(res, 1, "s0") == 20 && writes(res, 1, "f0") == 0);
out:
	sr_replay_free(r);
	sr_memcgs_free(mc);
	evs_free(v);
	sr_machine_free(m);
}

/*
 * 2100 swap-outs of /a (fast: f0 and f1, 2048 slots): the first 2048 take
 * the four clusters in turn; the 52 after find fast full and fail, though
 * s0 has room (no fall-through): swap full 52, all of them the tiers'.
 * The kernel without tiers puts those 52 on s0.  "none": /a may use no
 * tier, and every device is in one: each of its swap-outs fails.
 */
static void tiers_full_no_fall_through(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach(TIERED, &d);
	struct evs *v = evs_new(2200);
	struct sr_replay *r = NULL;
	struct sr_memcgs *mc = NULL;
	const struct sr_result *res;
	uint64_t off = 0;

	if (!m || !v) {
		CHECK(m && v);
		goto out;
	}
	outs(v, 2100, 1, &off);
	res = run(&r, &mc, m, "6.18", "tiers:/a=fast", v, &d);
	CHECK(res && writes(res, 0, "f0") == 1024 && writes(res, 0, "f1") == 1024 &&
	      writes(res, 0, "s0") == 52 && res->policy[0].swap_full == 0);
	CHECK(res && writes(res, 1, "f0") == 1024 && writes(res, 1, "f1") == 1024 &&
	      writes(res, 1, "s0") == 0);
	CHECK(res && res->policy[1].swap_full == 52 && res->policy[1].tier_full == 52);
	v->n = 0;
	off = 0;
	outs(v, 20, 1, &off);
	res = run(&r, &mc, m, "6.18", "tiers:/a=none", v, &d);
	CHECK(res && res->policy[1].swap_full == 20 && res->policy[1].tier_full == 20 &&
	      writes(res, 1, "f0") == 0 && writes(res, 1, "s0") == 0);
out:
	sr_replay_free(r);
	sr_memcgs_free(mc);
	evs_free(v);
	sr_machine_free(m);
}

/* What is refused: the series' kernels only (6.15 on), a tier the machine
 * does not have, the root, a cgroup assigned twice, a path not from '/'. */
static void tiers_errors(void)
{
	static const struct {
		const char *ver, *spec, *msg;
	} bad[] = {
		{ "6.6", "tiers:/a=fast", "not on kernel 6.6: give --kernel=6.15 or later" },
		{ "6.18", "tiers:/a=quick", "tiers: no tier 'quick' (machine tiered has fast, slow)" },
		{ "6.18", "tiers:/=fast", "the root cgroup may always use every tier" },
		{ "6.18", "tiers:/a=fast;/a/=slow", "tiers: cgroup /a is assigned twice" },
		{ "6.18", "tiers:a=fast", "a memory cgroup is named by its path, from '/'" },
		{ "6.18", "tiers:/a", "expected CGROUP=TIER[+TIER...] or CGROUP=none" },
		{ "6.18", "tiers:/a=fast+", "tiers: an empty tier name" },
	};
	struct sr_diag d;
	struct sr_machine *m = mach(TIERED, &d);
	struct evs *v = evs_new(4);
	size_t i;

	for (i = 0; m && v && i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sr_replay *r = NULL;
		struct sr_memcgs *mc = NULL;

		CHECK(!run(&r, &mc, m, bad[i].ver, bad[i].spec, v, &d) && strstr(d.msg, bad[i].msg));
		if (!strstr(d.msg, bad[i].msg))
			printf("  got: %s\n", d.msg);
		sr_replay_free(r);
		sr_memcgs_free(mc);
	}
	/* 6.19 (one list): the series' own kernels; the kernel's list. */
	if (m && v) {
		struct sr_replay *r = NULL;
		struct sr_memcgs *mc = NULL;
		const struct sr_result *res;
		uint64_t off = 0;

		outs(v, 3, 2, &off);
		res = run(&r, &mc, m, "6.19", "tiers:/b=slow", v, &d);
		CHECK(res && writes(res, 1, "s0") == 3 && writes(res, 0, "f0") == 3);
		sr_replay_free(r);
		sr_memcgs_free(mc);
	}
	evs_free(v);
	sr_machine_free(m);
}

void suite_tiers(void)
{
	TEST(tiers_parsed);
	TEST(tiers_refused);
	TEST(tiers_placement);
	TEST(tiers_full_no_fall_through);
	TEST(tiers_errors);
}
