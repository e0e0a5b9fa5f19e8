/* The replay core through the library API (sr_machine_parse,
 * sr_replay_new/feed/finish): the per-node priority lists as the kernel
 * builds them, full devices, the per-CPU slots cache, huge pages, the
 * matching of swap-ins, and the errors of set-up and feeding.
 *
 * Where a device went is read from the per-device results: its writes
 * (swap-outs placed on it) and reads (swap-ins read from it). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "swapreplay/trace.h"
#include "test.h"

#define MAXEV 4096

/* A machine from its JSON text; NULL (and a failed check) if it does
 * not parse. */
static struct sr_machine *mach(const char *json)
{
	struct sr_machine *m = NULL;
	struct sr_diag d;

	if (sr_machine_parse(&m, json, strlen(json), "test-machine", &d) != SR_OK) {
		printf("FAIL %s: machine does not parse: %s\n", test_name, d.msg);
		test_failed++;
		return NULL;
	}
	return m;
}

/* The events of one test, fed in one go. */
struct evs {
	struct sr_event e[MAXEV];
	size_t n;
};

/* Append an event.  cpu < 0: no CPU recorded; off < 0: no offset. */
static void add(struct evs *v, uint64_t ts, int op, uint32_t pid, int cpu, int cn, int pn,
		int dev, long long off, uint32_t nr)
{
	struct sr_event *e;

	if (v->n >= MAXEV) {
		printf("FAIL %s: too many events for the test buffer\n", test_name);
		test_failed++;
		return;
	}
	e = &v->e[v->n++];
	sr_event_init(e);
	e->ts_ns = ts;
	e->op = (uint8_t)op;
	e->pid = pid;
	e->cpu_nid = (uint16_t)cn;
	e->page_nid = (uint16_t)pn;
	e->dev = dev;
	e->nr_pages = nr;
	if (cpu >= 0) {
		e->cpu = (uint32_t)cpu;
		e->flags |= SR_EV_HAS_CPU;
	}
	if (off >= 0) {
		e->offset = (uint64_t)off;
		e->flags |= SR_EV_HAS_OFFSET;
	}
}

/* n order-0 swap-outs by one task, offsets off0, off0 + 1, ... */
static void outs(struct evs *v, uint64_t *ts, int n, uint32_t pid, int cpu, int cn, int pn,
		 long long off0)
{
	int i;

	for (i = 0; i < n; i++)
		add(v, (*ts)++, SR_OP_OUT, pid, cpu, cn, pn, 0, off0 + i, 1);
}

/* Replay v through the policies (the first is the baseline) under kernel
 * ver (NULL: 6.6, the generation of the per-CPU slots cache these tests
 * were written for; the default is the newest long-term release).  Returns the results, valid until *rp is freed;
 * NULL (and a failed check) on error.  The block plug is off: a device's
 * writes count its swap-outs, one request each (the tests here are of the
 * devices chosen). */
static const struct sr_result *run_on(struct sr_replay **rp, const struct sr_machine *m,
				      int slots_cache, const char *ver, const char *const *specs,
				      int n, const struct evs *v)
{
	struct sr_replay_opts o;
	const struct sr_result *res = NULL;
	struct sr_diag d;

	*rp = NULL;
	if (!m)
		return NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.slots_cache = slots_cache;
	o.plug = 0;
	if (sr_kernel_parse(ver ? ver : "6.6", &o.kernel, &d) != SR_OK ||
	    sr_replay_new(rp, &o, specs, n, specs[0], &d) != SR_OK ||
	    sr_replay_feed(*rp, v->e, v->n, &d) != SR_OK ||
	    sr_replay_finish(*rp, &res, &d) != SR_OK) {
		printf("FAIL %s: replay: %s\n", test_name, d.msg);
		test_failed++;
		return NULL;
	}
	return res;
}

static const struct sr_result *run(struct sr_replay **rp, const struct sr_machine *m,
				   int slots_cache, const char *const *specs, int n,
				   const struct evs *v)
{
	return run_on(rp, m, slots_cache, NULL, specs, n, v);
}

/* The result of device `name` under policy k; NULL if there is none. */
static const struct sr_dev_result *dev(const struct sr_result *res, int k, const char *name)
{
	int i;

	if (!res || k >= res->nr_policies)
		return NULL;
	for (i = 0; i < res->policy[k].nr_devices; i++)
		if (!strcmp(res->policy[k].dev[i].name, name))
			return &res->policy[k].dev[i];
	return NULL;
}

static uint64_t writes(const struct sr_result *res, int k, const char *name)
{
	const struct sr_dev_result *d = dev(res, k, name);

	return d ? d->writes : (uint64_t)-1;
}

static uint64_t reads(const struct sr_result *res, int k, const char *name)
{
	const struct sr_dev_result *d = dev(res, k, name);

	return d ? d->reads : (uint64_t)-1;
}

static const char *const RECLAIMER[] = { "reclaimer-nid" };

/* ---- machine descriptions ---------------------------------------------- */

static void machine_parse_fields(void)
{
	struct sr_machine *m = mach(
		"{\"name\": \"t\", \"nodes\": [{\"cpus\": 2}, {\"cpus\": 3}],"
		" \"devices\": ["
		"  {\"name\": \"a\", \"class\": \"nvme\", \"node\": 1},"
		"  {\"name\": \"b\", \"class\": \"pmem\", \"node\": 0, \"priority\": 5, \"size_pages\": 512},"
		"  {\"name\": \"c\", \"class\": \"ssd\", \"priority\": \"auto\"}]}");

	if (!m)
		return;
	CHECK(m->nr_nodes == 2 && m->nr_cpus == 5 && m->nr_devices == 3);
	CHECK(!strcmp(m->name, "t"));
	CHECK(m->dev[0].cls == SR_DEV_NVME && m->dev[0].node == 1 && m->dev[0].prio_auto == 1);
	CHECK(m->dev[1].cls == SR_DEV_PMEM && m->dev[1].prio_auto == 0 && m->dev[1].prio == 5);
	CHECK(m->dev[1].size_pages == 512);
	CHECK(m->dev[2].cls == SR_DEV_SSD && m->dev[2].node == -1 && m->dev[2].prio_auto == 1);
	/* Defaults filled in: a DMA device has its latencies and rates. */
	CHECK(m->dev[0].read_lat_ns > 0 && m->dev[0].write_iops > 0 && m->dev[0].size_pages > 0);
	CHECK(m->distance[0][0] == 10 && m->distance[0][1] > 10);
	sr_machine_free(m);
}

static void machine_parse_errors(void)
{
	static const char *const bad[] = {
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\", \"size_pages\": 511}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\", \"priority\": -1}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\", \"node\": 1}]}",
		"{\"nodes\": [], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\", \"read_iops\": 0}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"tape\"}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"}], \"extra\": 1}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"},"
		" {\"name\": \"a\", \"class\": \"nvme\"}]}",
		"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"distance\": [[10, 20], [20]],"
		" \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"}]}",
		"{\"nodes\": [{\"cpus\": 1}], \"devices\": [{\"name\": \"a\", \"class\": \"nvme\"}]",
		NULL,
	};
	static struct sr_machine dummy;
	struct sr_machine *m;
	struct sr_diag d;
	int i;

	for (i = 0; bad[i]; i++) {
		m = &dummy; /* must be reset to NULL */
		CHECK(sr_machine_parse(&m, bad[i], strlen(bad[i]), "bad", &d) == SR_ERR_MACHINE &&
		      m == NULL && d.msg[0] && !strcmp(d.file, "bad"));
	}
}

/* ---- priority lists ------------------------------------------------------ */

/*
 * Three devices swapped on without priorities, a and b on node 0, c on
 * node 1: base priorities -2, -3, -4.  Node 0's list: a and b raised to
 * -1 and taking turns (a first: swapon order), then c.  Node 1's list: c
 * at -1, then a (-2), then b (-3).
 */
static const char THREE_AUTO[] =
	"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"devices\": ["
	" {\"name\": \"a\", \"class\": \"nvme\", \"node\": 0},"
	" {\"name\": \"b\", \"class\": \"nvme\", \"node\": 0},"
	" {\"name\": \"c\", \"class\": \"nvme\", \"node\": 1, \"size_pages\": 512}]}";

static void prio_auto_local_raise(void)
{
	struct sr_machine *m = mach(THREE_AUTO);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	/* Node 0: five swap-outs alternate a, b, a, b, a; the swap-ins of
	 * the first two read one from each. */
	outs(v, &ts, 5, 1, 0, 0, 0, 0);
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 0, 1);
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 1, 1);
	/* Node 1: its own device c first. */
	outs(v, &ts, 4, 2, 1, 1, 1, 100);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(writes(res, 0, "a") == 3 && writes(res, 0, "b") == 2);
		CHECK(reads(res, 0, "a") == 1 && reads(res, 0, "b") == 1);
		CHECK(writes(res, 0, "c") == 4);
		CHECK(res->policy[0].swap_full == 0 && res->policy[0].direct_allocs == 9);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* Node 1's list after its own device: a (-2) before b (-3), so when c
 * (512 slots) is full the rest go to a only. */
static void prio_full_falls_through(void)
{
	struct sr_machine *m = mach(THREE_AUTO);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 600, 2, 1, 1, 1, 0);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(writes(res, 0, "c") == 512);
		CHECK(writes(res, 0, "a") == 88 && writes(res, 0, "b") == 0);
		CHECK(res->policy[0].swap_full == 0 && res->policy[0].swapouts == 600);
	}
	sr_replay_free(r);
	/* The same with the slots cache: c gives exactly 8 batches of 64,
	 * then the cache refills from a. */
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(writes(res, 0, "c") == 512 && writes(res, 0, "a") == 88);
		CHECK(res->policy[0].cache_refills == 10 && res->policy[0].direct_allocs == 0);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* A given priority is the same on every node's list, with no raise: the
 * device with priority 5 is first everywhere, even on node 0 where a
 * local automatic device is raised to -1. */
static void prio_explicit_first_everywhere(void)
{
	struct sr_machine *m = mach(
		"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"devices\": ["
		" {\"name\": \"a\", \"class\": \"nvme\", \"node\": 0},"
		" {\"name\": \"b\", \"class\": \"nvme\", \"node\": 1},"
		" {\"name\": \"p\", \"class\": \"nvme\", \"node\": 1, \"priority\": 5}]}");
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 7, 1, 0, 0, 0, 0);
	outs(v, &ts, 6, 2, 1, 1, 1, 100);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(writes(res, 0, "p") == 13);
		CHECK(writes(res, 0, "a") == 0 && writes(res, 0, "b") == 0);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* Two devices with the same given priority on different nodes take turns
 * on both nodes' lists (no raise for the local one), and both are above
 * an automatic device even on that device's own node. */
static void prio_explicit_equal_take_turns(void)
{
	struct sr_machine *m = mach(
		"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"devices\": ["
		" {\"name\": \"auto0\", \"class\": \"nvme\", \"node\": 0},"
		" {\"name\": \"x\", \"class\": \"nvme\", \"node\": 0, \"priority\": 0},"
		" {\"name\": \"y\", \"class\": \"nvme\", \"node\": 1, \"priority\": 0}]}");
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 6, 1, 0, 0, 0, 0);
	outs(v, &ts, 4, 2, 1, 1, 1, 100);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(writes(res, 0, "x") == 5 && writes(res, 0, "y") == 5);
		CHECK(writes(res, 0, "auto0") == 0);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- full devices -------------------------------------------------------- */

static const char ONE_SMALL[] =
	"{\"nodes\": [{\"cpus\": 1}], \"devices\": ["
	" {\"name\": \"s\", \"class\": \"nvme\", \"node\": 0, \"size_pages\": 512}]}";

/* With no device left with room, swap-outs are counted as swap_full. */
static void full_swap(void)
{
	struct sr_machine *m = mach(ONE_SMALL);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 600, 1, 0, 0, 0, 0);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].swapouts == 512 && res->policy[0].swap_full == 88);
		CHECK(writes(res, 0, "s") == 512);
	}
	sr_replay_free(r);
	/*
	 * With the slots cache (1 CPU): it turns off when free slots fall
	 * below 2 x 64 x 1 = 128, returning what it holds.  Seven refills
	 * (448 slots taken, 64 free) cover 385 swap-outs; the 386th turns it
	 * off (63 slots back: 127 free), which 127 direct allocations use.
	 * Not one slot is lost to the cache: again 88 find no room.
	 */
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].swapouts == 512 && res->policy[0].swap_full == 88);
		CHECK(res->policy[0].cache_refills == 7);
		CHECK(res->policy[0].direct_allocs == 127);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* Slots are given back: by a swap-in, and by a new swap-out to a recorded
 * slot still in use (the page was freed without a swap-in). */
static void full_slots_released(void)
{
	struct sr_machine *m = mach(ONE_SMALL);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;
	int i;

	for (i = 0; i < 1500; i++)
		add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 7, 1);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res)
		CHECK(res->policy[0].swapouts == 1500 && res->policy[0].swap_full == 0);
	sr_replay_free(r);
	v->n = 0;
	outs(v, &ts, 512, 1, 0, 0, 0, 0);
	for (i = 0; i < 512; i++)
		add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, i, 1);
	outs(v, &ts, 512, 1, 0, 0, 0, 0);
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].swapouts == 1024 && res->policy[0].swap_full == 0);
		CHECK(res->policy[0].swapins == 512 && res->policy[0].unmatched_in == 0);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- (K1) the slot a read fault keeps ------------------------------------ */

static const char ONE_1024[] =
	"{\"nodes\": [{\"cpus\": 1}], \"devices\": ["
	" {\"name\": \"s\", \"class\": \"nvme\", \"node\": 0, \"size_pages\": 1024}]}";

/* Page i of pid at an address of its own, its swap-in a read fault. */
static void page_of(struct evs *v, uint32_t pid, uint64_t i, int read)
{
	struct sr_event *e = &v->e[v->n - 1];

	e->vaddr = (1ull << 40) + ((uint64_t)pid << 30) + i * 4096;
	e->flags |= SR_EV_HAS_VADDR;
	if (e->op == SR_OP_IN)
		e->flags |= SR_EV_HAS_FAULT | (read ? 0 : SR_EV_WRITE_FAULT);
}

/* n order-0 events op of pid's pages first .. first + n - 1 at offsets
 * off0 on, each at its own address; a swap-in a read fault (read) or a
 * write fault, or with neither fault nor address (read < 0). */
static void page_run(struct evs *v, uint64_t *ts, int op, uint32_t pid, long long off0,
		     uint64_t first, int n, int read)
{
	int i;

	for (i = 0; i < n; i++) {
		add(v, (*ts)++, op, pid, 0, 0, 0, 0, off0 + i, 1);
		if (read >= 0 || op == SR_OP_OUT)
			page_of(v, pid, first + (uint64_t)i, read > 0);
	}
}

/* The replay of v on m under kernel ver, the slots cache off. */
static const struct sr_result *run_kernel(struct sr_replay **rp, const struct sr_machine *m,
					  const char *ver, const struct evs *v)
{
	return run_on(rp, m, 0, ver, RECLAIMER, 1, v);
}

/*
 * Worked by hand, one device of 1024 slots (vm_swap_full(): more than 512
 * in use):
 * - 600 swap-outs, then their 600 swap-ins by read faults: the first 88
 *   find 513 or more slots in use (their own among them) and free theirs;
 *   the 89th finds 512, swap not half full, and keeps its slot, as do the
 *   511 after it: 512 kept, the device holding 512;
 * - page 599 read again (the recording kept its slot too: no swap-out
 *   between): matched, and kept again: 513 in all;
 * - 600 swap-outs of another task's pages: the device has 512 free; the
 *   513th finds none, and the allocator takes back the 512 kept slots,
 *   the oldest first: no swap-out finds swap full;
 * - then page 0 of the first task is swapped out (written since): its
 *   slot was freed at its swap-in, nothing kept is released.
 * The same trace with write faults keeps nothing; without addresses,
 * nothing (the page's next swap-out could not be found); on a pmem
 * device (synchronous: the swap cache bypassed from 4.15) nothing on 6.6,
 * and on 4.14 as on the NVMe device.
 */
static void kept_slot_read_fault(void)
{
	struct sr_machine *m = mach(ONE_1024), *pm;
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		v->n = 0;
		ts = 1000;
		page_run(v, &ts, SR_OP_OUT, 1, 0, 0, 600, 1);
		page_run(v, &ts, SR_OP_IN, 1, 0, 0, 600, pass < 2 ? pass == 0 : -1);
		page_run(v, &ts, SR_OP_IN, 1, 599, 599, 1, pass < 2 ? pass == 0 : -1);
		page_run(v, &ts, SR_OP_OUT, 2, 1000, 0, 600, 1);
		page_run(v, &ts, SR_OP_OUT, 1, 2000, 0, 1, 1);
		res = run_kernel(&r, m, "6.6", v);
		if (res && pass == 0) {
			CHECK(res->policy[0].slots_kept == 513);
			CHECK(res->policy[0].swapins == 601 && res->policy[0].unmatched_in == 0);
			CHECK(res->policy[0].kept_rewritten == 0);
			CHECK(res->policy[0].kept_reclaimed == 512);
			CHECK(res->policy[0].swap_full == 0 && res->policy[0].swapouts == 1201);
		} else if (res) {
			/* Write faults, or no addresses: every slot freed at its
			 * swap-in, the re-read of 599 a swap-in of no swap-out. */
			CHECK(res->policy[0].slots_kept == 0 && res->policy[0].kept_reclaimed == 0);
			CHECK(res->policy[0].unmatched_in == 1 && res->policy[0].swap_full == 0);
		}
		sr_replay_free(r);
	}
	/* A synchronous device: 6.6 bypasses the swap cache, 4.14 did not. */
	pm = mach("{\"nodes\": [{\"cpus\": 1}], \"devices\": ["
		  " {\"name\": \"s\", \"class\": \"pmem\", \"node\": 0, \"size_pages\": 1024}]}");
	v->n = 0;
	page_run(v, &ts, SR_OP_OUT, 1, 0, 0, 600, 1);
	page_run(v, &ts, SR_OP_IN, 1, 0, 0, 600, 1);
	res = run_kernel(&r, pm, "6.6", v);
	if (res)
		CHECK(res->policy[0].slots_kept == 0);
	sr_replay_free(r);
	res = run_kernel(&r, pm, "4.14", v);
	if (res)
		CHECK(res->policy[0].slots_kept == 512);
	sr_replay_free(r);
	sr_machine_free(pm);
	sr_machine_free(m);
	free(v);
}

/*
 * The recording kept a slot its replayed kernel freed: a pmem device on
 * 6.6 frees every slot at its swap-in, so the second swap-in of a slot
 * the trace shows (no swap-out between) reads a page its kernel wrote
 * again, which the trace does not have: counted (not a swap-in without
 * its swap-out), and read from where the policy would put the page now.
 * On 4.14 the slots are kept and read again.
 */
static void kept_slot_rewritten(void)
{
	struct sr_machine *m = mach("{\"nodes\": [{\"cpus\": 1}], \"devices\": ["
				    " {\"name\": \"n\", \"class\": \"nvme\", \"node\": 0, "
				    "\"size_pages\": 1024, \"priority\": 5},"
				    " {\"name\": \"p\", \"class\": \"pmem\", \"node\": 0, "
				    "\"size_pages\": 1024, \"priority\": 9}]}");
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	page_run(v, &ts, SR_OP_OUT, 1, 0, 0, 10, 1);
	page_run(v, &ts, SR_OP_IN, 1, 0, 0, 10, 1);
	page_run(v, &ts, SR_OP_IN, 1, 0, 0, 10, 1);
	res = run_kernel(&r, m, "6.6", v);
	if (res) {
		/* Every swap-out went to the pmem device (priority 9). */
		CHECK(writes(res, 0, "p") == 10 && res->policy[0].slots_kept == 0);
		CHECK(res->policy[0].kept_rewritten == 10 && res->policy[0].unmatched_in == 0);
		CHECK(reads(res, 0, "p") == 20);
	}
	sr_replay_free(r);
	res = run_kernel(&r, m, "4.14", v);
	if (res) {
		/* Kept, and read again from the same slots (VMA readahead,
		 * not bypassed on 4.14, finds some in the swap cache: the
		 * first swap-in reads 8 ahead). */
		CHECK(res->policy[0].slots_kept == 20 && res->policy[0].unmatched_in == 0);
		CHECK(res->policy[0].kept_rewritten == 0);
		CHECK(reads(res, 0, "p") + res->policy[0].swapcache_hits == 20);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- the slots cache ----------------------------------------------------- */

/* Two devices sharing -1 on node 0: each refill takes a batch of 64 from
 * one of them, in turn. */
static const char TWO_LOCAL[] =
	"{\"nodes\": [{\"cpus\": 2}, {\"cpus\": 2}], \"devices\": ["
	" {\"name\": \"d0\", \"class\": \"nvme\", \"node\": 0},"
	" {\"name\": \"d1\", \"class\": \"nvme\", \"node\": 0}]}";

static void cache_batches_of_64(void)
{
	struct sr_machine *m = mach(TWO_LOCAL);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 200, 1, 3, 0, 0, 0);
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		/* 64 on d0, 64 on d1, 64 on d0, the last 8 on d1. */
		CHECK(res->policy[0].cache_refills == 4 && res->policy[0].direct_allocs == 0);
		CHECK(writes(res, 0, "d0") == 128 && writes(res, 0, "d1") == 72);
	}
	sr_replay_free(r);
	/* Without the cache every allocation takes its turn. */
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].cache_refills == 0 && res->policy[0].direct_allocs == 200);
		CHECK(writes(res, 0, "d0") == 100 && writes(res, 0, "d1") == 100);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* A cache per CPU: two CPUs swapping out in turn each refill their own
 * (from d0 for the first, d1 for the second); without a recorded CPU each
 * task stands for its own CPU. */
static void cache_per_cpu(void)
{
	struct sr_machine *m = mach(TWO_LOCAL);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;
	int i;

	for (i = 0; i < 50; i++) {
		add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, i, 1);
		add(v, ts++, SR_OP_OUT, 2, 1, 0, 0, 0, 1000 + i, 1);
	}
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].cache_refills == 2);
		CHECK(writes(res, 0, "d0") == 50 && writes(res, 0, "d1") == 50);
	}
	sr_replay_free(r);
	/* Same tasks, no CPU recorded: still one cache each. */
	for (i = 0; i < (int)v->n; i++)
		v->e[i].flags &= (uint8_t)~SR_EV_HAS_CPU;
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].cache_refills == 2);
		CHECK(writes(res, 0, "d0") == 50 && writes(res, 0, "d1") == 50);
	}
	sr_replay_free(r);
	/* Two tasks on one recorded CPU share its cache. */
	for (i = 0; i < (int)v->n; i++) {
		v->e[i].cpu = 5;
		v->e[i].flags |= SR_EV_HAS_CPU;
	}
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].cache_refills == 2);
		CHECK(writes(res, 0, "d0") == 64 && writes(res, 0, "d1") == 36);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* Huge pages bypass the cache: a direct allocation each. */
static void cache_huge_bypass(void)
{
	struct sr_machine *m = mach(TWO_LOCAL);
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 0, 512);
	outs(v, &ts, 10, 1, 0, 0, 0, 4096);
	add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 512, 512);
	add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 1024, 512);
	res = run(&r, m, 1, RECLAIMER, 1, v);
	if (res) {
		CHECK(res->policy[0].direct_allocs == 3 && res->policy[0].cache_refills == 1);
		CHECK(res->policy[0].swapouts == 13 && res->policy[0].pages_out == 3 * 512 + 10);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* page-nid as patched: cache refills by the CPU's node, direct
 * allocations (huge pages; every one without the cache) by the page's. */
static void cache_page_nid(void)
{
	struct sr_machine *m = mach(
		"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"devices\": ["
		" {\"name\": \"n0\", \"class\": \"nvme\", \"node\": 0},"
		" {\"name\": \"n1\", \"class\": \"nvme\", \"node\": 1}]}");
	static const char *const specs[] = { "reclaimer-nid", "page-nid", "page-nid-strict" };
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	outs(v, &ts, 10, 1, 0, 0, 1, 0);
	add(v, ts++, SR_OP_OUT, 1, 0, 0, 1, 0, 512, 512);
	res = run(&r, m, 1, specs, 3, v);
	if (res) {
		CHECK(writes(res, 0, "n0") == 11 && writes(res, 0, "n1") == 0);
		CHECK(writes(res, 1, "n0") == 10 && writes(res, 1, "n1") == 1);
		CHECK(writes(res, 2, "n0") == 0 && writes(res, 2, "n1") == 11);
		CHECK(res->policy[1].moved_out == 1 && res->policy[2].moved_out == 11);
	}
	sr_replay_free(r);
	res = run(&r, m, 0, specs, 3, v);
	if (res) {
		CHECK(writes(res, 1, "n0") == 0 && writes(res, 1, "n1") == 11);
		CHECK(writes(res, 2, "n0") == 0 && writes(res, 2, "n1") == 11);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- matching swap-ins --------------------------------------------------- */

static void swapin_matching(void)
{
	struct sr_machine *m = mach(
		"{\"nodes\": [{\"cpus\": 1}, {\"cpus\": 1}], \"devices\": ["
		" {\"name\": \"n0\", \"class\": \"nvme\", \"node\": 0},"
		" {\"name\": \"n1\", \"class\": \"nvme\", \"node\": 1}]}");
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 1, 1);     /* to n0 */
	add(v, ts++, SR_OP_OUT, 1, 0, 0, 0, 0, 2, 1);     /* to n0 */
	add(v, ts++, SR_OP_OUT, 2, 1, 1, 1, 0, 1024, 512); /* huge, to n1 */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 1, 1);      /* matched: n0 */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 3, 1);      /* never swapped out */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, -1, 1);     /* no offset */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 1, 2, 1);      /* another device's slot 2 */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 1, 1);      /* slot 1 again: freed */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 1030, 1);   /* a page of the huge page: n1 */
	add(v, ts++, SR_OP_IN, 1, 0, 0, 0, 0, 1031, 1);   /* another one */
	res = run(&r, m, 0, RECLAIMER, 1, v);
	if (res) {
		const struct sr_policy_result *p = &res->policy[0];

		CHECK(p->swapouts == 3 && p->swapins == 7);
		CHECK(p->unmatched_in == 4);
		CHECK(p->pages_in == 7 && p->pages_out == 514);
		/* One matched and four unmatched (read from the CPU's node 0
		 * list) on n0; the two pages of the huge page on n1. */
		CHECK(reads(res, 0, "n0") == 5 && reads(res, 0, "n1") == 2);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- hybrid -------------------------------------------------------------- */

/*
 * 2s-pmem-nvme: on node 0's list pmem0 and nvme0 share -1 and take turns
 * (the kernel requeues the device it picks).  hybrid keeps the pick when
 * it is memory-like (pmem0) and otherwise goes to the page's node for a
 * block device (nvme1).  Reclaimer on node 0, pages on node 1: the turns
 * go on, so pmem0 and nvme1 alternate; nothing goes to pmem1 or nvme0.
 */
static void hybrid_takes_turns(void)
{
	const char *json = sr_machine_preset_json("2s-pmem-nvme");
	struct sr_machine *m = json ? mach(json) : NULL;
	static const char *const specs[] = { "reclaimer-nid", "hybrid" };
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;

	CHECK(json != NULL);
	outs(v, &ts, 10, 1, 0, 0, 1, 0);
	res = run(&r, m, 0, specs, 2, v);
	if (res) {
		/* reclaimer-nid: node 0's pair in turn. */
		CHECK(writes(res, 0, "pmem0") == 5 && writes(res, 0, "nvme0") == 5);
		CHECK(writes(res, 1, "pmem1") == 0 && writes(res, 1, "nvme0") == 0);
		CHECK(writes(res, 1, "pmem0") >= 4 && writes(res, 1, "pmem0") <= 6);
		CHECK(writes(res, 1, "nvme1") >= 4 && writes(res, 1, "nvme1") <= 6);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/*
 * Reading a swap-in allocates nothing: finding where an unmatched swap-in
 * is read from must not move the turns of a priority list.  With an
 * unmatched swap-in after every swap-out, hybrid's swap-outs still
 * alternate between pmem0 and nvme1.
 */
static void hybrid_turns_not_moved_by_swapins(void)
{
	const char *json = sr_machine_preset_json("2s-pmem-nvme");
	struct sr_machine *m = json ? mach(json) : NULL;
	static const char *const specs[] = { "reclaimer-nid", "hybrid" };
	struct sr_replay *r;
	const struct sr_result *res;
	struct evs *v = calloc(1, sizeof(*v));
	uint64_t ts = 1000;
	int i;

	for (i = 0; i < 10; i++) {
		add(v, ts++, SR_OP_OUT, 1, 0, 0, 1, 0, i, 1);
		add(v, ts++, SR_OP_IN, 1, 0, 0, 1, 0, 500 + i, 1); /* unmatched */
	}
	res = run(&r, m, 0, specs, 2, v);
	if (res) {
		CHECK(res->policy[1].unmatched_in == 10);
		CHECK(writes(res, 0, "pmem0") == 5 && writes(res, 0, "nvme0") == 5);
		CHECK(writes(res, 1, "pmem0") >= 4 && writes(res, 1, "pmem0") <= 6);
		CHECK(writes(res, 1, "nvme1") >= 4 && writes(res, 1, "nvme1") <= 6);
	}
	sr_replay_free(r);
	sr_machine_free(m);
	free(v);
}

/* ---- set-up and feeding errors ------------------------------------------- */

static void replay_errors(void)
{
	struct sr_machine *m = mach(TWO_LOCAL);
	struct sr_replay_opts o;
	struct sr_replay *r = NULL;
	struct sr_diag d;
	struct sr_event e;
	static const char *const unknown[] = { "reclaimer-nid", "no-such-policy" };
	static const char *const twice[] = { "hybrid", "hybrid" };
	static const char *const bad_param[] = { "fixed-node:2" };
	static const char *const no_param[] = { "hybrid:1" };
	static const char *const good[] = { "reclaimer-nid", "fixed-node:1" };

	if (!m)
		return;
	sr_replay_opts_init(&o);
	o.machine = m;
	CHECK(sr_replay_new(&r, &o, unknown, 2, "reclaimer-nid", &d) == SR_ERR_POLICY && !r &&
	      strstr(d.msg, "no-such-policy") && strstr(d.msg, "page-nid-strict"));
	CHECK(sr_replay_new(&r, &o, twice, 2, "hybrid", &d) == SR_ERR_INVAL && !r);
	CHECK(sr_replay_new(&r, &o, good, 2, "page-nid", &d) == SR_ERR_INVAL && !r);
	CHECK(sr_replay_new(&r, &o, bad_param, 1, "fixed-node:2", &d) == SR_ERR_POLICY && !r);
	CHECK(sr_replay_new(&r, &o, no_param, 1, "hybrid:1", &d) == SR_ERR_POLICY && !r);
	CHECK(sr_replay_new(&r, &o, good, 0, "reclaimer-nid", &d) == SR_ERR_INVAL && !r);
	CHECK(sr_replay_new(&r, &o, good, 2, "fixed-node:1", &d) == SR_OK && r);
	sr_event_init(&e);
	e.ts_ns = 1;
	e.page_nid = 2;
	CHECK(sr_replay_feed(r, &e, 1, &d) == SR_ERR_MACHINE && strstr(d.msg, "node 2"));
	e.page_nid = 0;
	/* A recorded device the machine lacks is only a name for pairing
	 * swap-ins with swap-outs; one the slot map cannot tell apart is
	 * refused. */
	e.dev = 2;
	CHECK(sr_replay_feed(r, &e, 1, &d) == SR_OK);
	e.ts_ns = 2;
	e.dev = 65535;
	CHECK(sr_replay_feed(r, &e, 1, &d) == SR_ERR_MACHINE && strstr(d.msg, "index 65535"));
	sr_replay_free(r);
	r = NULL;
	/* The settings are checked once, by sr_replay_new(). */
	o.per_task = 1;
	CHECK(sr_replay_new(&r, &o, good, 2, "fixed-node:1", &d) == SR_OK && r);
	sr_replay_free(r);
	r = NULL;
	o.readahead.page_cluster = SR_RA_MAX_PAGE_CLUSTER + 1;
	CHECK(sr_replay_new(&r, &o, good, 2, "fixed-node:1", &d) == SR_ERR_INVAL && !r &&
	      strstr(d.msg, "page-cluster 11"));
	sr_replay_opts_init(&o);
	o.machine = m;
	o.kernel.major = 0;
	CHECK(sr_replay_new(&r, &o, good, 2, "fixed-node:1", &d) == SR_ERR_INVAL && !r &&
	      strstr(d.msg, "sr_replay_opts_init"));
	sr_machine_free(m);
}

/* Same figures of two results, policy by policy. */
static int same_results(const struct sr_result *a, const struct sr_result *b)
{
	int i, k, same = a->events == b->events && a->late_events == b->late_events &&
			 a->tasks == b->tasks && a->nr_policies == b->nr_policies;

	for (k = 0; same && k < a->nr_policies; k++) {
		const struct sr_policy_result *p = &a->policy[k], *q = &b->policy[k];

		same &= p->makespan_ns == q->makespan_ns && p->swapouts == q->swapouts &&
			p->swapins == q->swapins && p->unmatched_in == q->unmatched_in &&
			p->moved_out == q->moved_out &&
			p->swapin_lat.sum_ns == q->swapin_lat.sum_ns &&
			!memcmp(p->swapin_lat.b, q->swapin_lat.b, sizeof(p->swapin_lat.b));
		for (i = 0; i < p->nr_devices; i++)
			same &= p->dev[i].busy_ns == q->dev[i].busy_ns &&
				p->dev[i].writes == q->dev[i].writes &&
				p->dev[i].reads == q->dev[i].reads;
	}
	return same;
}

/* Write the out-of-order test trace: 3000 events at 1 us steps with times
 * jittered by up to 40 us (out of order by up to ~80 events, ties
 * included); with bad_at >= 0, event bad_at is on a node 2s-pmem-nvme
 * lacks.  Returns 0 or -1. */
static int write_disordered(const char *path, int bad_at)
{
	FILE *f = fopen(path, "w");
	uint64_t x = 777, ts = 1000000;
	int i;

	if (!f)
		return -1;
	fprintf(f, "ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns\n");
	for (i = 0; i < 3000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		fprintf(f, "%llu,%s,%u,%u,%u,%u,0,%u,1,%u\n",
			(unsigned long long)(ts + ((x >> 20) % 40) * 1000), (x >> 60) & 1 ? "in" : "out",
			1 + (unsigned)((x >> 40) & 7), (unsigned)((x >> 30) & 15),
			(unsigned)((x >> 34) & 1), i == bad_at ? 5u : (unsigned)((x >> 35) & 1),
			(unsigned)((x >> 8) & 511), (unsigned)((x >> 44) & 8191));
		ts += 1000;
	}
	return fclose(f) ? -1 : 0;
}

/* Replay path through policies: the replay's own window (way 0, a sweep's
 * units), the ordering pipe feeding an ordered replay (way 1, replay's and
 * a sweep's last units) or the plain pipe, reading ahead, feeding the
 * replay's own window (way 2).  Returns the error; *res on success, valid
 * until *rp is freed. */
static enum sr_err replay_path(const char *path, const struct sr_machine *m, unsigned window,
			       int way, struct sr_replay **rp, const struct sr_result **res,
			       struct sr_diag *d)
{
	static const char *const specs[] = { "reclaimer-nid", "page-nid-strict", "hybrid" };
	struct sr_read_opts ropt = { 0 };
	struct sr_replay_opts o;
	struct sr_reader *r = NULL;
	struct sr_pipe *p = NULL;
	struct sr_event *evs = malloc(512 * sizeof(*evs));
	enum sr_err err;
	size_t n;

	*rp = NULL;
	*res = NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.reorder_window = window;
	o.ordered = way == 1;
	ropt.format = SR_FMT_AUTO;
	err = !evs ? SR_ERR_NOMEM : sr_reader_open(&r, path, &ropt, d);
	if (!err)
		err = sr_replay_new(rp, &o, specs, 3, specs[0], d);
	if (!err && way == 1)
		err = sr_pipe_start_ordered(&p, r, window, sr_replay_check, *rp, d);
	else if (!err && way == 2)
		err = sr_pipe_start(&p, r, d);
	while (!err) {
		const struct sr_event *batch = evs;
		enum sr_err e = p ? sr_pipe_next(p, &batch, &n, d) : sr_reader_read(r, evs, 512, &n, d);

		/* The ordering pipe checked each event (sr_replay_check): fed
		 * without a second test, with the same results. */
		if (n && (err = (way == 1 ? sr_replay_feed_checked : sr_replay_feed)(*rp, batch, n, d)))
			break;
		if (e)
			err = e;
		else if (!n)
			break;
	}
	if (!err)
		err = sr_replay_finish(*rp, res, d);
	sr_pipe_stop(p);
	sr_reader_close(r);
	free(evs);
	return err;
}

/*
 * Events out of time order: the replay's own window, the ordering pipe and
 * the plain pipe give the same results, late events included, for a window
 * smaller than the disorder (events replayed late) and one larger (none);
 * and an event the machine lacks is the same error with the same record
 * number.
 */
static void ordered_pipe_same_as_window(void)
{
	const char *json = sr_machine_preset_json("2s-pmem-nvme");
	struct sr_machine *m = json ? mach(json) : NULL;
	static const unsigned windows[] = { 8, 65536 };
	char good[] = "/tmp/sr-unit-order-XXXXXX", bad[] = "/tmp/sr-unit-order-XXXXXX";
	int fg = mkstemp(good), fb = mkstemp(bad), w;

	if (fg >= 0)
		close(fg);
	if (fb >= 0)
		close(fb);
	if (!m || fg < 0 || fb < 0 || write_disordered(good, -1) || write_disordered(bad, 1500)) {
		CHECK(!"set-up");
		goto out;
	}
	for (w = 0; w < 2; w++) {
		struct sr_replay *ra, *rb;
		const struct sr_result *a, *b;
		struct sr_diag da, db;
		enum sr_err ea = replay_path(good, m, windows[w], 0, &ra, &a, &da);
		enum sr_err eb = replay_path(good, m, windows[w], 1, &rb, &b, &db);

		struct sr_replay *rc;
		const struct sr_result *c;
		struct sr_diag dc;
		enum sr_err ec = replay_path(good, m, windows[w], 2, &rc, &c, &dc);

		CHECK(ea == SR_OK && eb == SR_OK && ec == SR_OK && a && b && c &&
		      a->events == 3000);
		if (a && b && c) {
			CHECK(same_results(a, b));
			CHECK(same_results(a, c));
			CHECK(windows[w] == 8 ? a->late_events > 100 : a->late_events == 0);
		}
		sr_replay_free(ra);
		sr_replay_free(rb);
		sr_replay_free(rc);
		ea = replay_path(bad, m, windows[w], 0, &ra, &a, &da);
		eb = replay_path(bad, m, windows[w], 1, &rb, &b, &db);
		ec = replay_path(bad, m, windows[w], 2, &rc, &c, &dc);
		CHECK(ea == SR_ERR_MACHINE && eb == SR_ERR_MACHINE && da.record == 1501 &&
		      db.record == 1501 && !strcmp(da.msg, db.msg) && strstr(da.msg, "node 5"));
		CHECK(ec == SR_ERR_MACHINE && dc.record == 1501 && !strcmp(da.msg, dc.msg));
		sr_replay_free(ra);
		sr_replay_free(rb);
		sr_replay_free(rc);
	}
out:
	unlink(good);
	unlink(bad);
	sr_machine_free(m);
}

/* n order-0 events of a random mix (a fixed sequence from seed), from
 * time 1000 on: swap-outs and swap-ins alike, 1 + (pid & pids) for the
 * task, 16 CPUs, two nodes, offsets below offs + 1 on device 0, gaps
 * below gaps + 1 ns. */
static void random_events(struct evs *v, uint64_t seed, int n, uint32_t pids,
			  unsigned long long offs, uint64_t gaps)
{
	uint64_t ts = 1000, x = seed;
	int i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		add(v, ts, (x >> 60) & 1 ? SR_OP_IN : SR_OP_OUT, 1 + ((uint32_t)(x >> 40) & pids),
		    (int)((x >> 30) & 15), (int)((x >> 20) & 1), (int)((x >> 21) & 1), 0,
		    (long long)((x >> 8) & offs), 1);
		ts += (x >> 50) & gaps;
	}
}

/* Results depend only on the events: the same replay twice is the same. */
static void replay_deterministic(void)
{
	const char *json = sr_machine_preset_json("2s-pmem-nvme");
	struct sr_machine *m = json ? mach(json) : NULL;
	static const char *const specs[] = { "reclaimer-nid", "page-nid", "page-nid-strict",
					     "hybrid" };
	struct sr_replay *r1, *r2;
	const struct sr_result *a, *b;
	struct evs *v = calloc(1, sizeof(*v));
	int i, k, same = 1;

	random_events(v, 12345, 2000, 7, 255, 4095);
	a = run(&r1, m, 1, specs, 4, v);
	b = run(&r2, m, 1, specs, 4, v);
	if (a && b) {
		for (k = 0; k < 4; k++) {
			const struct sr_policy_result *p = &a->policy[k], *q = &b->policy[k];

			same &= p->makespan_ns == q->makespan_ns && p->swapouts == q->swapouts &&
				p->swapins == q->swapins && p->moved_out == q->moved_out &&
				p->swapin_lat.sum_ns == q->swapin_lat.sum_ns &&
				!memcmp(p->swapin_lat.b, q->swapin_lat.b, sizeof(p->swapin_lat.b));
			for (i = 0; i < p->nr_devices; i++)
				same &= p->dev[i].busy_ns == q->dev[i].busy_ns &&
					p->dev[i].writes == q->dev[i].writes;
		}
		CHECK(same);
		CHECK(a->events == 2000 && a->tasks == 8);
	}
	sr_replay_free(r1);
	sr_replay_free(r2);
	sr_machine_free(m);
	free(v);
}

/*
 * The simulations on threads (sr_replay_opts.sim_threads: 1, 2 and 4 of
 * them, src/replay/simq.c) give the results of the replay's one thread,
 * on events where the four policies part (their simulations then play on
 * different threads at once); the number of threads is checked.
 */
static void sim_threads_same_results(void)
{
	const char *json = sr_machine_preset_json("2s-pmem-nvme");
	struct sr_machine *m = json ? mach(json) : NULL;
	static const char *const specs[] = { "reclaimer-nid", "page-nid", "page-nid-strict",
					     "hybrid" };
	static const int nthreads[] = { 0, 1, 2, 4 };
	struct sr_replay_opts o;
	const struct sr_result *res[4] = { NULL };
	struct sr_replay *r[4] = { NULL };
	struct evs *v = calloc(1, sizeof(*v));
	struct sr_diag d;
	int i, moved = 0;

	if (!m || !v) {
		CHECK(!"set-up");
		goto out;
	}
	random_events(v, 4242, 3000, 15, 1023, 1023);
	sr_replay_opts_init(&o);
	o.machine = m;
	for (i = 0; i < 4; i++) {
		o.sim_threads = nthreads[i];
		if (sr_replay_new(&r[i], &o, specs, 4, specs[0], &d) ||
		    sr_replay_feed(r[i], v->e, v->n, &d) || sr_replay_finish(r[i], &res[i], &d)) {
			printf("FAIL %s: %d simulation threads: %s\n", test_name, nthreads[i], d.msg);
			test_failed++;
			goto out;
		}
	}
	for (i = 1; i < 4; i++)
		moved += res[0]->policy[i].moved_out > 0;
	CHECK(moved >= 2 && res[0]->events == 3000);
	for (i = 1; i < 4; i++)
		CHECK(same_results(res[0], res[i]));
	/* Out of range. */
	sr_replay_free(r[1]);
	r[1] = NULL;
	o.sim_threads = SR_SIM_WORKERS_MAX + 1;
	CHECK(sr_replay_new(&r[1], &o, specs, 4, specs[0], &d) == SR_ERR_INVAL && !r[1] &&
	      strstr(d.msg, "from 0 to 8"));
	o.sim_threads = -1;
	CHECK(sr_replay_new(&r[1], &o, specs, 4, specs[0], &d) == SR_ERR_INVAL && !r[1]);
	o.sim_threads = SR_SIM_WORKERS_MAX;
	CHECK(sr_replay_new(&r[1], &o, specs, 4, specs[0], &d) == SR_OK && r[1]);
out:
	for (i = 0; i < 4; i++)
		sr_replay_free(r[i]);
	sr_machine_free(m);
	free(v);
}

void suite_replay(void)
{
	TEST(machine_parse_fields);
	TEST(kept_slot_read_fault);
	TEST(kept_slot_rewritten);
	TEST(machine_parse_errors);
	TEST(prio_auto_local_raise);
	TEST(prio_full_falls_through);
	TEST(prio_explicit_first_everywhere);
	TEST(prio_explicit_equal_take_turns);
	TEST(full_swap);
	TEST(full_slots_released);
	TEST(cache_batches_of_64);
	TEST(cache_per_cpu);
	TEST(cache_huge_bypass);
	TEST(cache_page_nid);
	TEST(swapin_matching);
	TEST(hybrid_takes_turns);
	TEST(hybrid_turns_not_moved_by_swapins);
	TEST(replay_errors);
	TEST(replay_deterministic);
	TEST(ordered_pipe_same_as_window);
	TEST(sim_threads_same_results);
}
