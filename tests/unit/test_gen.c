/* The workload generator: parameter checks, determinism, the invariants of
 * its events, and event-for-event agreement with a naive reference model
 * (an O(n) LRU scan over last-use stamps, tasks stepped round-robin). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "hw/cost.h"
#include "swapreplay/gen.h"
#include "swapreplay/machine.h"
#include "test.h"

#define PG 4096ull

/* The machine the tests' slots are on: 4 nodes, one SSD of 32 clusters of
 * 512 slots with its header (kernel 6.6: per-CPU clusters taken from the
 * free list 1, 2, ... 31; cluster 0 holds the header). */
static struct sr_machine *test_m;

static const char test_machine[] =
	"{\"schema\": \"swapreplay-machine/1\", \"name\": \"gen-test\",\n"
	" \"nodes\": [{\"cpus\": 4}, {\"cpus\": 4}, {\"cpus\": 4}, {\"cpus\": 4}],\n"
	" \"devices\": [{\"name\": \"sda\", \"class\": \"ssd\", \"node\": 0, \"size_pages\": 16383}]}\n";

static void params_init(struct sr_gen_params *p)
{
	sr_gen_params_init(p);
	if (!test_m && sr_machine_parse(&test_m, test_machine, sizeof(test_machine) - 1, "test",
					NULL))
		test_m = NULL;
	p->machine = test_m;
}

static int same_ev(const struct sr_event *a, const struct sr_event *b)
{
	return a->ts_ns == b->ts_ns && a->op == b->op && a->pid == b->pid &&
	       a->cpu == b->cpu && a->cpu_nid == b->cpu_nid &&
	       a->page_nid == b->page_nid && a->dev == b->dev &&
	       a->nr_pages == b->nr_pages &&
	       a->lat_ns == b->lat_ns && a->flags == b->flags;
}

/* All events of p, read cap at a time; NULL on error.  *n gets the count. */
static struct sr_event *gen_all(const struct sr_gen_params *p, size_t cap,
				size_t *n, struct sr_gen_stats *st)
{
	struct sr_gen *g;
	struct sr_event *all = NULL, *buf;
	size_t len = 0, size = 0, k;

	*n = 0;
	if (sr_gen_open(&g, p, NULL))
		return NULL;
	buf = malloc(cap * sizeof(*buf));
	for (;;) {
		if (sr_gen_next(g, buf, cap, &k, NULL) || k == 0)
			break;
		if (len + k > size) {
			size = (len + k) * 2;
			all = realloc(all, size * sizeof(*all));
		}
		memcpy(all + len, buf, k * sizeof(*buf));
		len += k;
	}
	if (st)
		*st = *sr_gen_stats(g);
	sr_gen_free(g);
	free(buf);
	*n = len;
	return all ? all : calloc(1, sizeof(*all));
}

static void small(struct sr_gen_params *p, enum sr_gen_workload w)
{
	params_init(p);
	p->exp_time = 0;
	p->workload = w;
	p->tasks = 5;
	p->size = 40 * PG;
	p->limit = 100 * PG;
	p->cpus_per_node = 4;
	p->cpu_node = 2;
	/* The memory on the CPUs' node: every access costs access_ns (the
	 * reference model's equal costs); G1's remote first touch has its own
	 * test, gen_swapin_counts. */
	p->mem_node = 2;
	p->access_ns = 7;
	/* A page reclaimed per page made resident, as the reference model
	 * (ref_run()) and the counts worked by hand here reclaim; the
	 * kernel's passes of 32 (G3) have their own test, gen_memcg_batch. */
	p->reclaim_batch = 1;
}

static void gen_params(void)
{
	struct sr_gen_params p;
	struct sr_gen *g = (struct sr_gen *)&p;
	struct sr_diag d;
	enum sr_gen_workload w;

	sr_gen_params_init(&p);
	p.exp_time = 0;
	CHECK(p.tasks == 32 && p.size == 64ull << 20 && p.limit == 1ull << 30);
	CHECK(p.cpu_node == 0 && p.mem_node == 1 && p.cpus_per_node == 32);
	CHECK(p.access_ns == 100 && p.seed == 1 && p.accesses == 0);
	CHECK(sr_gen_open(&g, &p, &d) == SR_OK && g);
	CHECK(sr_gen_stats(g)->pages_total == 32 * 16384 &&
	      sr_gen_stats(g)->limit_pages == 262144);
	sr_gen_free(g);
	sr_gen_free(NULL);

	CHECK(sr_gen_workload_parse("swapin", &w) == SR_OK && w == SR_GEN_SWAPIN);
	CHECK(sr_gen_workload_parse("swap-w-seq", &w) == SR_OK && w == SR_GEN_SWAP_W_SEQ);
	CHECK(sr_gen_workload_parse("swap-w", &w) == SR_ERR_INVAL);
	CHECK(strcmp(sr_gen_workload_name(SR_GEN_SWAP_W_RAND), "swap-w-rand") == 0);

#define BAD(field, value, want) do { \
	sr_gen_params_init(&p); \
	p.exp_time = 0; \
	p.field = value; \
	g = (struct sr_gen *)&p; \
	CHECK(sr_gen_open(&g, &p, &d) == want && g == NULL && d.code == want && d.msg[0]); \
} while (0)
	BAD(tasks, 0, SR_ERR_INVAL);
	BAD(size, 0, SR_ERR_INVAL);
	BAD(size, 4097, SR_ERR_INVAL);
	BAD(limit, 0, SR_ERR_INVAL);
	BAD(limit, 1000, SR_ERR_INVAL);
	BAD(limit, 2ull << 30, SR_ERR_INVAL);  /* = tasks x size: nothing swaps */
	BAD(limit, 4ull << 30, SR_ERR_INVAL);
	BAD(cpu_node, 1024, SR_ERR_INVAL);
	BAD(mem_node, 1024, SR_ERR_INVAL);
	BAD(cpus_per_node, 0, SR_ERR_INVAL);
	BAD(cpus_per_node, 65537, SR_ERR_INVAL);
	BAD(access_ns, 0, SR_ERR_INVAL);
	BAD(workload, (enum sr_gen_workload)7, SR_ERR_INVAL);
	BAD(size, 1ull << 40, SR_ERR_LIMIT);    /* 32 TiB of pages */
	BAD(size, 1ull << 62, SR_ERR_LIMIT);
	BAD(tasks, UINT32_MAX, SR_ERR_LIMIT);
	BAD(access_ns, UINT64_MAX / 4, SR_ERR_LIMIT);
	BAD(accesses, UINT64_MAX, SR_ERR_LIMIT);
	BAD(thp, -0.01, SR_ERR_INVAL);
	BAD(thp, 1.01, SR_ERR_INVAL);
	BAD(thp, NAN, SR_ERR_INVAL);
	BAD(thp_swapin, (enum sr_gen_thp_swapin)2, SR_ERR_INVAL);
	BAD(cpu_node, 2, SR_ERR_INVAL);         /* the default machine has 2 nodes */
	BAD(kernel, "3.19", SR_ERR_INVAL);
	BAD(kernel, "six", SR_ERR_INVAL);
#undef BAD
	/* With huge pages the limit must hold one. */
	sr_gen_params_init(&p);
	p.exp_time = 0;
	p.thp = 0.5;
	p.limit = 511 * PG;
	CHECK(sr_gen_open(&g, &p, &d) == SR_ERR_INVAL && strstr(d.msg, "2097152 bytes"));
	p.limit = 512 * PG;
	CHECK(sr_gen_open(&g, &p, &d) == SR_OK);
	sr_gen_free(g);
	CHECK(strcmp(sr_gen_thp_swapin_name(SR_GEN_THP_IN_SPLIT), "split") == 0);
	CHECK(sr_gen_thp_swapin_parse("whole", &p.thp_swapin) == SR_OK &&
	      p.thp_swapin == SR_GEN_THP_IN_WHOLE);
	CHECK(sr_gen_thp_swapin_parse("halves", &p.thp_swapin) == SR_ERR_INVAL);
	sr_gen_params_init(&p);
	p.exp_time = 0;
	p.limit = (2ull << 30) - PG;       /* one page below: fine */
	CHECK(sr_gen_open(&g, &p, &d) == SR_OK);
	sr_gen_free(g);
	sr_gen_params_init(&p);
	p.exp_time = 0;
	p.workload = SR_GEN_SWAPIN;
	p.accesses = 10;
	CHECK(sr_gen_open(&g, &p, &d) == SR_ERR_INVAL && strstr(d.msg, "swapin"));
	p.accesses = 0;
	p.limit = 4ull << 30;              /* swapin: any limit pushes pages out */
	CHECK(sr_gen_open(&g, &p, &d) == SR_OK);
	sr_gen_free(g);
	p.limit = 1ull << 40;              /* the pusher's pages count too */
	CHECK(sr_gen_open(&g, &p, &d) == SR_ERR_LIMIT);
}

static void gen_determinism(void)
{
	struct sr_gen_params p;
	struct sr_event *a, *b;
	size_t na, nb, i, diff = 0;

	small(&p, SR_GEN_SWAP_W_RAND);
	p.seed = 42;
	a = gen_all(&p, 4096, &na, NULL);
	b = gen_all(&p, 1, &nb, NULL);
	CHECK(a && b && na > 100 && na == nb);
	for (i = 0; a && b && i < na && i < nb; i++)
		diff += !same_ev(&a[i], &b[i]);
	CHECK(diff == 0);
	free(b);
	p.seed = 43;
	b = gen_all(&p, 3, &nb, NULL);
	diff = na != nb;
	for (i = 0; a && b && i < na && i < nb; i++)
		diff += !same_ev(&a[i], &b[i]);
	CHECK(diff > 0);
	free(a);
	free(b);
}

/* What every event stream must satisfy; returns the number of violations. */
static long check_stream(const struct sr_gen_params *p, const struct sr_event *e,
			 size_t n, const struct sr_gen_stats *st)
{
	struct sr_u64map out;
	uint64_t outs = 0, ins = 0, prev = 0, open = 0;
	long bad = 0;
	size_t i;

	sr_u64map_init(&out);
	for (i = 0; i < n; i++) {
		uint32_t k = e[i].pid - SR_GEN_FIRST_PID;

		if (e[i].pid == SR_GEN_PUSHER_PID)
			k = p->tasks;
		else if (e[i].pid < SR_GEN_FIRST_PID || k >= p->tasks)
			bad++;
		bad += e[i].ts_ns < prev;
		prev = e[i].ts_ns;
		bad += e[i].cpu != p->cpu_node * p->cpus_per_node + k % p->cpus_per_node;
		bad += e[i].cpu_nid != p->cpu_node || e[i].page_nid != p->mem_node;
		bad += e[i].dev != 0 || e[i].nr_pages != 1 || e[i].lat_ns != 0;
		/* Every swap-out is direct reclaim; a swap-in a write fault
		 * but in swapin, whose only swap-ins are its read-back's
		 * (its fill and its pusher touch each page once). */
		bad += e[i].flags != (SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR |
				      (e[i].op == SR_OP_OUT ? SR_EV_HAS_RECLAIM :
				       p->workload == SR_GEN_SWAPIN ? SR_EV_HAS_FAULT :
				       SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT));
		/* Task k's page j is at its region's address, 2 MiB aligned
		 * from 2^40, plus j pages. */
		bad += e[i].vaddr < (1ull << 40) || e[i].vaddr % PG != 0;
		bad += e[i].ts_ns % p->access_ns != 0;
		/* The slots are on the device: slot 0 is its header. */
		if (e[i].offset == 0 || (p->machine == test_m && e[i].offset > 16383)) {
			bad++;
			continue;
		}
		if (e[i].op == SR_OP_OUT) {
			int added = 0;

			sr_u64map_put(&out, e[i].offset, &added);
			bad += !added; /* slot already in use */
			outs++;
			open++;
		} else {
			bad += !sr_u64map_del(&out, e[i].offset); /* no unmatched swap-out */
			ins++;
			open--;
			/* A swap-in is never the first event at its time by another
			 * task's swap-out: an out before it is by the same task. */
			if (i && e[i - 1].op == SR_OP_OUT && e[i - 1].ts_ns == e[i].ts_ns)
				bad += e[i - 1].pid != e[i].pid;
		}
	}
	bad += outs != st->swap_outs || ins != st->swap_ins;
	bad += open != st->swapped;      /* out - in = pages still in swap */
	bad += st->pages_out != st->swap_outs || st->pages_in != st->swap_ins;
	bad += st->thp_pages != 0 || st->thp_splits != 0;
	bad += st->resident_max > st->limit_pages;
	bad += st->resident != st->first_touches + st->swap_ins - st->swap_outs - st->freed;
	sr_u64map_free(&out);
	return bad;
}

/*
 * (G2) Global reclaim, worked by hand.  The watermarks of a node of 1000
 * pages (4000 kB): min_free_kbytes = int_sqrt(16 x 4000) = 252 kB, 63
 * pages; the gap max(63 / 4, 1000 x 10 / 10000) = 15; low 78, high 93.
 * Of 1 GiB (262144 pages): int_sqrt(16 x 1048576) = 4096 kB, 1024 pages;
 * gap max(256, 262) = 262: 1286 and 1548; on 4.5 (no
 * watermark_scale_factor) the gap is min / 4: 1280 and 1536.  Then the
 * stream: kswapd's swap-outs (pid 997, on CPU cpu_node x 4 + (tasks + 1)
 * mod 4) and only they say kswapd; its first is at the time of the fault
 * that found free pages below low; every swap-in waits (lat_ns > 0); the
 * limit holds; and the pages out are kswapd's and the tasks' passes'.
 */
static void gen_global_reclaim(void)
{
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_gen *g;
	struct sr_event *e;
	size_t n, i;
	uint64_t kpages = 0, first_k = UINT64_MAX, ins = 0, waited = 0, bad = 0;

	small(&p, SR_GEN_SWAP_W_RAND);
	p.reclaim = SR_GEN_RECLAIM_GLOBAL;
	p.reclaim_batch = 0; /* passes of 32 by kswapd or the task, no batch of a cgroup's */
	p.kernel = "6.6"; /* its swap cache costs the swap-ins more (E3), below */
	p.size = 400 * PG;
	p.limit = 1000 * PG;
	p.accesses = 4000;
	e = gen_all(&p, 64, &n, &st);
	CHECK(e != NULL && n > 0);
	CHECK(st.wmark_min == 63 && st.wmark_low == 78 && st.wmark_high == 93);
	for (i = 0; e && i < n; i++) {
		int k = e[i].pid == SR_GEN_KSWAPD_PID;

		bad += i && e[i].ts_ns < e[i - 1].ts_ns;
		if (e[i].op == SR_OP_OUT) {
			bad += k != !!(e[i].flags & SR_EV_KSWAPD) || !(e[i].flags & SR_EV_HAS_RECLAIM);
			if (k) {
				kpages += e[i].nr_pages;
				bad += e[i].cpu != 2 * 4 + (5 + 1) % 4;
				if (first_k == UINT64_MAX)
					first_k = e[i].ts_ns;
			}
		} else {
			ins++;
			waited += e[i].lat_ns > 0;
		}
	}
	CHECK(bad == 0);
	CHECK(ins > 0 && waited == ins);
	CHECK(kpages == st.kswapd_pages_out && kpages > 0);
	CHECK(st.kswapd_wakeups > 0 && st.resident_max <= st.limit_pages);
	/* The trace's first swap-out is kswapd's: woken when a fault finds
	 * fewer than low + 1 pages free, it reclaims before any task gets
	 * below min + 1. */
	for (i = 0; e && i < n && e[i].op != SR_OP_OUT; i++)
		;
	CHECK(e && i < n && e[i].ts_ns == first_k);
	/* The tasks' own swap-outs come in passes of at least 32 pages. */
	CHECK(st.direct_passes * 32 >= st.pages_out - st.kswapd_pages_out);
	/* A swap-in whose fault reclaimed nothing waits its read alone: the
	 * SSD's one-page read at depth 1 and its CPU work (cost.c), through
	 * the swap cache of 6.6 (E3: swapcache_ns and shadow_node_ns). */
	{
		struct sr_cost c;
		struct sr_kernel k;
		struct sr_diag d;
		uint64_t lo = UINT64_MAX;

		CHECK(sr_kernel_parse("6.6", &k, &d) == SR_OK && k.shadow_lru && k.xarray_cache);
		sr_cost_event(test_m, &test_m->dev[0], SR_OP_IN, 2, 2, 1, &c);
		for (i = 0; e && i < n; i++)
			if (e[i].op == SR_OP_IN && e[i].lat_ns < lo)
				lo = e[i].lat_ns;
		CHECK(sr_cost_swapcache_ns(test_m, &k, test_m->dev[0].cls) ==
		      test_m->swapcache_ns + test_m->shadow_node_ns);
		CHECK(lo == (uint64_t)llround(c.cpu_ns + c.copy_ns + c.dev_lat_ns +
					      test_m->swapcache_ns + test_m->shadow_node_ns));
	}
	free(e);
	params_init(&p);
	p.reclaim = SR_GEN_RECLAIM_GLOBAL;
	p.size = 512ull << 20;
	p.tasks = 4;
	p.limit = 1ull << 30;
	p.accesses = 1;
	CHECK(sr_gen_open(&g, &p, NULL) == SR_OK && sr_gen_stats(g)->wmark_low == 1286 &&
	      sr_gen_stats(g)->wmark_high == 1548);
	sr_gen_free(g);
	p.kernel = "4.5";
	CHECK(sr_gen_open(&g, &p, NULL) == SR_OK && sr_gen_stats(g)->wmark_low == 1280 &&
	      sr_gen_stats(g)->wmark_high == 1536 && sr_gen_stats(g)->wmark_min == 1024);
	sr_gen_free(g);
	/* A reclaim batch is a cgroup's. */
	p.kernel = NULL;
	p.reclaim_batch = 32;
	CHECK(sr_gen_open(&g, &p, NULL) == SR_ERR_INVAL);
}

/* Resident pages stay under the limit after every single step. */
static long check_steps(const struct sr_gen_params *p)
{
	struct sr_gen *g;
	struct sr_event e;
	size_t k;
	long bad = 0;

	if (sr_gen_open(&g, p, NULL))
		return 1;
	do {
		const struct sr_gen_stats *st = sr_gen_stats(g);

		sr_gen_next(g, &e, 1, &k, NULL);
		bad += st->resident > st->limit_pages;
		bad += st->resident != st->first_touches + st->pages_in - st->pages_out - st->freed;
	} while (k);
	sr_gen_free(g);
	return bad;
}

static void gen_invariants(void)
{
	static const enum sr_gen_workload ws[] = {
		SR_GEN_SWAP_W_RAND, SR_GEN_SWAP_W_SEQ, SR_GEN_SWAPIN,
	};
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n, i;

	for (i = 0; i < 3; i++) {
		small(&p, ws[i]);
		e = gen_all(&p, 1000, &n, &st);
		CHECK(e && n > 0);
		CHECK(check_stream(&p, e, n, &st) == 0);
		CHECK(check_steps(&p) == 0);
		CHECK(st.resident_max == st.limit_pages);
		if (ws[i] != SR_GEN_SWAPIN)
			CHECK(st.accesses == 5 * 80);
		free(e);
	}
	/* More tasks than CPUs per node, uneven: cpu wraps. */
	small(&p, SR_GEN_SWAP_W_RAND);
	p.tasks = 11;
	p.cpus_per_node = 3;
	p.accesses = 500;
	e = gen_all(&p, 7, &n, &st);
	CHECK(e && check_stream(&p, e, n, &st) == 0 && st.accesses == 11 * 500);
	free(e);
}

static void gen_seq_counts(void)
{
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n;

	/* 2 tasks x 8 pages, limit 12, 16 accesses each: the first pass
	 * swaps 4 pages out; the second pass misses every page (a cycle of
	 * 16 through an LRU of 12): 16 swap-ins, each after a swap-out. */
	params_init(&p);
	p.exp_time = 0;
	p.workload = SR_GEN_SWAP_W_SEQ;
	p.tasks = 2;
	p.size = 8 * PG;
	p.limit = 12 * PG;
	p.reclaim_batch = 1; /* a page at a time (G3: gen_memcg_batch) */
	e = gen_all(&p, 5, &n, &st);
	CHECK(n == 36 && st.swap_outs == 20 && st.swap_ins == 16);
	/* The kernel's slots (6.6): each task's CPU (0, 1) has its cluster
	 * from the free list (1, then 2), its slots cache 64 of them in
	 * order: 10 swap-outs each, 512-521 and 1024-1033. */
	CHECK(st.swapped == 4 && st.slots_max == 1034);
	CHECK(e && e[0].op == SR_OP_OUT && e[0].ts_ns == 600 && e[0].pid == 1000 &&
	      e[0].offset == 512 && e[1].pid == 1001 && e[1].offset == 1024);
	free(e);
}

static void gen_swapin_counts(void)
{
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n, i, pusher_out = 0, task_in = 0, other = 0;

	/* The tasks' 2 x 16 pages fit under the limit of 64: the pusher's
	 * 64 pages push exactly those 32 out, and they all come back. */
	params_init(&p);
	p.exp_time = 0;
	p.workload = SR_GEN_SWAPIN;
	p.tasks = 2;
	p.size = 16 * PG;
	p.limit = 64 * PG;
	p.reclaim_batch = 1; /* a page at a time (G3: gen_memcg_batch) */
	e = gen_all(&p, 4096, &n, &st);
	for (i = 0; e && i < n; i++) {
		if (e[i].op == SR_OP_OUT && e[i].pid == SR_GEN_PUSHER_PID)
			pusher_out++;
		else if (e[i].op == SR_OP_IN && e[i].pid != SR_GEN_PUSHER_PID)
			task_in++;
		else
			other++;
	}
	CHECK(n == 64 && pusher_out == 32 && task_in == 32 && other == 0);
	CHECK(st.swapped == 0 && st.freed == 64 && st.resident == 32);
	CHECK(e && e[0].ts_ns == 1600 + 32 * 100 && e[0].cpu == 2);
	/* (G1) The tasks' memory is on node 1, their CPUs on node 0: the
	 * first touch of each page swapped in misses one line there, 49 ns
	 * (remote_miss_ns, 130.2 - 81.2 ns) more than the access's 100 ns.
	 * The read phase starts at 8000 with a swap-in; task 1's 16th page
	 * comes after 15 accesses that each swapped a page in:
	 * 8000 + 15 x (100 + 49) = 10235. */
	CHECK(e && e[32].ts_ns == 1600 + 6400 && e[63].ts_ns == 8000 + 15 * (100 + 49));
	free(e);
	/* The memory local: no more than the accesses. */
	p.mem_node = 0;
	e = gen_all(&p, 4096, &n, &st);
	CHECK(n == 64 && e && e[32].ts_ns == 1600 + 6400 && e[63].ts_ns == 8000 + 1500);
	free(e);

	/* Tasks over the limit: the fill swaps too; every page comes back. */
	p.limit = 24 * PG;
	e = gen_all(&p, 4096, &n, &st);
	CHECK(e && check_stream(&p, e, n, &st) == 0);
	CHECK(st.swap_ins == 32 && st.swap_outs == 8 + 24 + 8 && st.swapped == 8);
	free(e);
}

/* ---- huge pages ------------------------------------------------------- */

/* The invariants of a stream with huge pages: an event of n pages has an
 * offset that is a multiple of n (n = 512: a whole cluster) and its slots
 * all free (out) or all in use (in); pages and events add up. */
static long check_thp_stream(const struct sr_gen_params *p, const struct sr_event *e,
			     size_t n, const struct sr_gen_stats *st)
{
	size_t cap = 16384, i; /* the test machine's slots */
	unsigned char *used = calloc(cap, 1);
	uint64_t outs = 0, ins = 0, pout = 0, pin = 0, open = 0, prev = 0, k;
	long bad = 0;

	for (i = 0; i < n; i++) {
		uint32_t nr = e[i].nr_pages;

		bad += nr != 1 && nr != SR_GEN_HPAGE_PAGES;
		bad += e[i].ts_ns < prev;
		prev = e[i].ts_ns;
		bad += e[i].cpu_nid != p->cpu_node || e[i].page_nid != p->mem_node;
		bad += e[i].offset % nr != 0;
		if (e[i].offset + nr > cap || e[i].offset + nr > st->slots_max) {
			bad++;
			continue;
		}
		for (k = 0; k < nr; k++) {
			bad += used[e[i].offset + k] != (e[i].op == SR_OP_IN);
			used[e[i].offset + k] = e[i].op == SR_OP_OUT;
		}
		if (e[i].op == SR_OP_OUT) {
			outs++;
			pout += nr;
			open += nr;
		} else {
			ins++;
			pin += nr;
			open -= nr;
		}
	}
	bad += outs != st->swap_outs || ins != st->swap_ins;
	bad += pout != st->pages_out || pin != st->pages_in;
	bad += open != st->swapped;
	bad += st->resident_max > st->limit_pages;
	bad += st->resident != st->first_touches + st->pages_in - st->pages_out - st->freed;
	free(used);
	return bad;
}

static size_t count_nr(const struct sr_event *e, size_t n, int op, uint32_t nr)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += e[i].op == op && e[i].nr_pages == nr;
	return c;
}

/* One task cycling through 4 huge pages of hp pages with room for 3. */
static void four_huge_pages(struct sr_gen_params *p, uint32_t hp)
{
	params_init(p);
	p->exp_time = 0;
	p->workload = SR_GEN_SWAP_W_SEQ;
	p->tasks = 1;
	p->size = 4 * hp * PG;
	p->limit = 3 * hp * PG;
	p->thp = 1;
	p->thp_pages = hp;
	p->reclaim_batch = 1; /* a folio at a time, as worked by hand (G3: gen_memcg_batch) */
}

static void gen_thp_whole(void)
{
	static const uint64_t want_off[] = { 512, 1024, 512, 1536, 1024, 2048, 1536, 2560, 2048 };
	static const int want_op[] = { SR_OP_OUT, SR_OP_OUT, SR_OP_IN, SR_OP_OUT, SR_OP_IN,
				       SR_OP_OUT, SR_OP_IN, SR_OP_OUT, SR_OP_IN };
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n, i, bad = 0;

	/* One task, 4 huge pages, room for 3, two passes in order: the 4th
	 * pushes the 1st out; in the second pass each one swaps in whole after
	 * pushing out the least recently used.  Each takes a free cluster
	 * whole: the free list's never-used ones (1, 2, ...) come before those
	 * freed, which go to its tail. */
	four_huge_pages(&p, 512);
	e = gen_all(&p, 3, &n, &st);
	CHECK(e && n == 9 && st.swap_outs == 5 && st.swap_ins == 4);
	CHECK(st.pages_out == 5 * 512 && st.pages_in == 4 * 512 && st.thp_pages == 2048);
	CHECK(st.thp_splits == 0 && st.swapped == 512 && st.slots_max == 3072);
	for (i = 0; e && i < n && i < 9; i++)
		bad += e[i].op != want_op[i] || e[i].offset != want_off[i] ||
		       e[i].nr_pages != 512 || e[i].pid != 1000;
	CHECK(bad == 0);
	/* The first swap-out: at the first touch of the 4th huge page. */
	CHECK(e && e[0].ts_ns == 3 * 512 * 100);
	CHECK(e && check_thp_stream(&p, e, n, &st) == 0);
	free(e);
}

static void gen_thp_split(void)
{
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n;

	/* The same, split at swap-in: the 1st huge page (cluster 1, 512) comes
	 * back as 512 base pages after pushing out the 2nd (cluster 2, 1024);
	 * the 2nd and 3rd likewise (clusters 3 and 4); the 4th's pages (2048
	 * on) each push out one base page of the 1st, through CPU 0's slots
	 * cache from its cluster: the next never-used one, 5 (2560-3071). */
	four_huge_pages(&p, 512);
	p.thp_swapin = SR_GEN_THP_IN_SPLIT;
	e = gen_all(&p, 4096, &n, &st);
	CHECK(e && st.swap_outs == 516 && st.swap_ins == 2048 && n == 516 + 2048);
	CHECK(st.pages_out == 4 * 512 + 512 && st.pages_in == 2048 && st.thp_splits == 4);
	CHECK(count_nr(e, n, SR_OP_OUT, 512) == 4 && count_nr(e, n, SR_OP_IN, 512) == 0);
	CHECK(st.swapped == 512 && st.slots_max == 3072);
	CHECK(e && e[1].op == SR_OP_OUT && e[1].offset == 1024 && e[1].nr_pages == 512);
	CHECK(e && e[2].op == SR_OP_IN && e[2].offset == 512 && e[2].nr_pages == 1);
	CHECK(e && e[3].op == SR_OP_IN && e[3].offset == 513);
	CHECK(e && e[n - 2].op == SR_OP_OUT && e[n - 2].nr_pages == 1 &&
	      e[n - 2].offset == 3071 && e[n - 1].offset == 2559);
	CHECK(e && check_thp_stream(&p, e, n, &st) == 0);
	free(e);
}

/* 64 KiB mTHP folios: kept whole from 6.10, each taking 16 aligned slots
 * of its CPU's order-4 cluster in turn (cluster 1 from 512: 512, 528, ...);
 * split before 6.10, into 16 order-0 swap-outs each. */
static void gen_thp_small(void)
{
	static const uint64_t want_off[] = { 512, 528, 512, 544, 528, 560, 544, 576, 560 };
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n, i, bad = 0;

	four_huge_pages(&p, 16);
	p.kernel = "6.14";
	e = gen_all(&p, 7, &n, &st);
	CHECK(e && n == 9 && st.thp_pages == 64 && st.thp_splits == 0);
	for (i = 0; e && i < n && i < 9; i++)
		bad += e[i].offset != want_off[i] || e[i].nr_pages != 16;
	CHECK(bad == 0);
	free(e);
	p.kernel = "6.6";
	e = gen_all(&p, 7, &n, &st);
	/* The first eviction splits a folio; its pages then come back and
	 * go out as base pages. */
	CHECK(e && st.thp_splits >= 1 && count_nr(e, n, SR_OP_OUT, 16) == 0 &&
	      count_nr(e, n, SR_OP_OUT, 1) == st.swap_outs && st.pages_out == st.swap_outs);
	free(e);
	p.thp_pages = 24;
	CHECK(gen_all(&p, 7, &n, &st) == NULL);
}

static void gen_thp_mixed(void)
{
	static const enum sr_gen_workload ws[] = {
		SR_GEN_SWAP_W_RAND, SR_GEN_SWAP_W_SEQ, SR_GEN_SWAPIN,
	};
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e, *b;
	size_t n, nb, i, m, diff;

	for (m = 0; m < 2; m++) {
		for (i = 0; i < 3; i++) {
			/* 3 tasks of 5 units and a tail of 100 pages, half the
			 * units huge (3 of 5: round(2.5)), under 6 units. */
			params_init(&p);
			p.exp_time = 0;
			p.workload = ws[i];
			p.tasks = 3;
			p.size = (5 * 512 + 100) * PG;
			p.limit = 6 * 512 * PG;
			p.thp = 0.5;
			p.thp_swapin = m ? SR_GEN_THP_IN_SPLIT : SR_GEN_THP_IN_WHOLE;
			p.seed = 7;
			p.reclaim_batch = 1; /* check_thp_stream()'s rule */
			e = gen_all(&p, 1000, &n, &st);
			CHECK(e && n > 0 && st.thp_pages == 3 * 3 * 512);
			CHECK(count_nr(e, n, SR_OP_OUT, 512) > 0 && count_nr(e, n, SR_OP_OUT, 1) > 0);
			CHECK(m || count_nr(e, n, SR_OP_IN, 512) > 0);
			CHECK(!m || (count_nr(e, n, SR_OP_IN, 512) == 0 && st.thp_splits > 0));
			CHECK(e && check_thp_stream(&p, e, n, &st) == 0);
			CHECK(check_steps(&p) == 0);
			b = gen_all(&p, 1, &nb, NULL);
			diff = nb != n;
			for (size_t j = 0; e && b && j < n && j < nb; j++)
				diff += !same_ev(&e[j], &b[j]);
			CHECK(diff == 0);
			free(b);
			free(e);
		}
	}
	/* thp = 0 is the generator without huge pages, event for event. */
	small(&p, SR_GEN_SWAP_W_RAND);
	p.limit = 600 * PG;
	p.size = 200 * PG;
	e = gen_all(&p, 100, &n, &st);
	p.thp = 0;
	p.thp_swapin = SR_GEN_THP_IN_SPLIT;
	b = gen_all(&p, 100, &nb, NULL);
	diff = n != nb;
	for (i = 0; e && b && i < n && i < nb; i++)
		diff += !same_ev(&e[i], &b[i]);
	CHECK(diff == 0 && st.thp_pages == 0);
	free(e);
	free(b);
	/* A region under one unit has no huge page; the shares spread. */
	small(&p, SR_GEN_SWAP_W_SEQ);
	p.thp = 1;
	p.limit = 512 * PG;
	p.size = 511 * PG;
	e = gen_all(&p, 100, &n, &st);
	CHECK(e && st.thp_pages == 0 && count_nr(e, n, SR_OP_OUT, 512) == 0);
	free(e);
	params_init(&p);
	p.tasks = 2;
	p.size = 10 * 512 * PG;
	p.limit = 512 * PG;
	p.accesses = 1;
	p.thp = 0.26;                       /* 2.6 -> 3 of 10 */
	e = gen_all(&p, 100, &n, &st);
	CHECK(st.thp_pages == 2 * 3 * 512);
	free(e);
}

/* ---- the reference model ---------------------------------------------- */

struct ref {
	const struct sr_gen_params *p;
	uint64_t *last;       /* last use stamp; 0 = not resident */
	unsigned char *state; /* 0 untouched, 1 resident, 2 swapped */
	uint64_t *slot;
	uint64_t *freel;
	size_t nfree, next_slot, resident, limit, stamp;
	struct sr_event *ev;
	size_t nev;
	int reading;          /* swapin's read-back: its swap-ins are read faults */
};

/* Page pg's address: the regions of the tasks (all of ppt pages) and then
 * the pusher's from 2^40, each rounded up to 2 MiB with 2 MiB between. */
static uint64_t ref_va(const struct sr_gen_params *p, size_t pg)
{
	uint64_t ppt = p->size / PG, mib2 = 2ull << 20;
	uint64_t stride = (ppt * PG + mib2 + mib2 - 1) / mib2 * mib2;
	uint64_t k = pg / ppt < p->tasks ? pg / ppt : p->tasks;

	return (1ull << 40) + k * stride + (pg - k * ppt) * PG;
}

static void ref_emit(struct ref *r, uint32_t k, uint64_t ts, int op, uint64_t off,
		     size_t pg)
{
	struct sr_event *e = &r->ev[r->nev++];
	const struct sr_gen_params *p = r->p;

	sr_event_init(e);
	e->ts_ns = ts;
	e->op = (uint8_t)op;
	e->pid = k < p->tasks ? 1000 + k : 999;
	e->cpu = p->cpu_node * p->cpus_per_node + k % p->cpus_per_node;
	e->cpu_nid = (uint16_t)p->cpu_node;
	e->page_nid = (uint16_t)p->mem_node;
	e->dev = 0;
	e->offset = off;
	e->vaddr = ref_va(p, pg);
	e->flags = SR_EV_HAS_CPU | SR_EV_HAS_OFFSET | SR_EV_HAS_VADDR;
	if (op == SR_OP_OUT)
		e->flags |= SR_EV_HAS_RECLAIM;
	else
		e->flags |= SR_EV_HAS_FAULT | (r->reading ? 0 : SR_EV_WRITE_FAULT);
}

static void ref_touch(struct ref *r, uint32_t k, uint64_t ts, size_t pg, size_t npages)
{
	if (r->state[pg] != 1 && r->resident == r->limit) {
		size_t v = 0, i;
		uint64_t best = UINT64_MAX, off;

		for (i = 0; i < npages; i++) {
			if (r->state[i] == 1 && r->last[i] < best) {
				best = r->last[i];
				v = i;
			}
		}
		off = r->nfree ? r->freel[--r->nfree] : r->next_slot++;
		r->state[v] = 2;
		r->slot[v] = off;
		r->resident--;
		ref_emit(r, k, ts, SR_OP_OUT, off, v);
	}
	if (r->state[pg] == 2) {
		ref_emit(r, k, ts, SR_OP_IN, r->slot[pg], pg);
		r->freel[r->nfree++] = r->slot[pg];
	}
	if (r->state[pg] != 1)
		r->resident++;
	r->state[pg] = 1;
	r->last[pg] = ++r->stamp;
}

/* The generator's PRNG, as gen.h pins it: splitmix64 from the seed gives
 * four words per task in task order; xoshiro256**; Lemire's bounded. */
static uint64_t sm64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t xo(uint64_t *s)
{
	uint64_t r = rl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rl(s[3], 45);
	return r;
}

static uint32_t below(uint64_t *s, uint32_t n)
{
	uint64_t m;

	do
		m = (xo(s) >> 32) * n;
	while ((uint32_t)m < (0u - n) % n);
	return (uint32_t)(m >> 32);
}

/* Events of p by the reference model (equal access costs: round-robin). */
static struct sr_event *ref_run(const struct sr_gen_params *p, size_t *n)
{
	struct ref r;
	size_t ppt = p->size / PG, lim = p->limit / PG, t = p->tasks;
	size_t np = t * ppt + (p->workload == SR_GEN_SWAPIN ? lim : 0);
	uint64_t acc = p->accesses ? p->accesses : 2 * ppt, k, a = p->access_ns;
	uint64_t (*rng)[4] = calloc(t, sizeof(*rng)), sm = p->seed;
	size_t i, j;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.limit = lim;
	r.last = calloc(np, sizeof(*r.last));
	r.state = calloc(np, 1);
	r.slot = calloc(np, sizeof(*r.slot));
	r.freel = calloc(np, sizeof(*r.freel));
	r.ev = calloc(4 * np + 2 * t * acc + 2, sizeof(*r.ev));
	for (i = 0; i < t; i++)
		for (j = 0; j < 4; j++)
			rng[i][j] = sm64(&sm);
	if (p->workload != SR_GEN_SWAPIN) {
		for (k = 0; k < acc; k++) {
			for (i = 0; i < t; i++) {
				size_t pg = p->workload == SR_GEN_SWAP_W_RAND ?
					    below(rng[i], (uint32_t)ppt) : k % ppt;

				ref_touch(&r, (uint32_t)i, k * a, i * ppt + pg, np);
			}
		}
	} else {
		for (k = 0; k < ppt; k++)
			for (i = 0; i < t; i++)
				ref_touch(&r, (uint32_t)i, k * a, i * ppt + k, np);
		for (k = 0; k < lim; k++)
			ref_touch(&r, (uint32_t)t, (ppt + k) * a, t * ppt + k, np);
		for (k = 0; k < lim; k++) {
			size_t pg = t * ppt + k;

			if (r.state[pg] == 1)
				r.resident--;
			else if (r.state[pg] == 2)
				r.freel[r.nfree++] = r.slot[pg];
			r.state[pg] = 0;
		}
		r.reading = 1;
		for (k = 0; k < ppt; k++)
			for (i = 0; i < t; i++)
				ref_touch(&r, (uint32_t)i, (ppt + lim + k) * a, i * ppt + k, np);
	}
	free(rng);
	free(r.last);
	free(r.state);
	free(r.slot);
	free(r.freel);
	*n = r.nev;
	return r.ev;
}

static long compare_ref(const struct sr_gen_params *p, size_t cap)
{
	struct sr_event *a, *b;
	size_t na, nb, i;
	long bad;

	struct sr_u64map slot; /* the reference's slot -> gen's + 1 */

	a = gen_all(p, cap, &na, NULL);
	b = ref_run(p, &nb);
	bad = !a || !b || na != nb || na == 0;
	sr_u64map_init(&slot);
	for (i = 0; !bad && i < na; i++) {
		uint64_t *v;

		bad += !same_ev(&a[i], &b[i]);
		/* The slots differ (the reference's are last-freed first, gen's
		 * the kernel's), but a swap-in reads what its page's swap-out
		 * wrote in both. */
		if (a[i].op == SR_OP_OUT) {
			v = sr_u64map_put(&slot, b[i].offset, NULL);
			*v = a[i].offset + 1;
		} else {
			v = sr_u64map_get(&slot, b[i].offset);
			bad += !v || *v != a[i].offset + 1;
			sr_u64map_del(&slot, b[i].offset);
		}
	}
	sr_u64map_free(&slot);
	free(a);
	free(b);
	return bad;
}

/*
 * (G3) A memory cgroup's reclaim in passes, by hand.  One task writes its
 * 64 pages once in order (swap-w-seq), the limit 32 pages: the first 32
 * touches fill it; the 33rd needs a page beyond it, and the task frees
 * max(1, 32) = 32 at once (try_to_free_mem_cgroup_pages()), the LRU's
 * oldest, pages 0-31: 32 swap-outs at the one time of that fault; the
 * other 31 touches charge the room without reclaim.  So 32 swap-outs,
 * one run at one time, resident 32 at the end.  With --reclaim-batch=1 the
 * same 32 pages go out one per touch from the 33rd on: 32 times.  With
 * folios of 16 pages (thp 1, kept whole on 6.14), each fault needs 16:
 * the 3rd folio's fault frees max(16, 32) = 32 pages, folios 0 and 1, at
 * one time, and the 4th's finds room: 2 swap-outs of 16 pages, one run.
 * A batch of 1 frees max(16, 1) = 16 at the 3rd fault and at the 4th:
 * the same 2 swap-outs at two times.
 */
static void gen_memcg_batch(void)
{
	struct sr_gen_params p;
	struct sr_gen_stats st;
	struct sr_event *e;
	size_t n, i, times;

	params_init(&p);
	p.exp_time = 0;
	p.workload = SR_GEN_SWAP_W_SEQ;
	p.tasks = 1;
	p.size = 64 * PG;
	p.limit = 32 * PG;
	p.accesses = 64;
	CHECK(p.reclaim_batch == 0); /* the default: the kernel's 32 */
	e = gen_all(&p, 4096, &n, &st);
	CHECK(e && n == 32 && st.swap_outs == 32 && st.resident == 32);
	for (i = 0, times = 0; e && i < n; i++)
		times += i == 0 || e[i].ts_ns != e[i - 1].ts_ns;
	CHECK(times == 1 && e && e[0].op == SR_OP_OUT && e[31].op == SR_OP_OUT);
	free(e);
	p.reclaim_batch = 1;
	e = gen_all(&p, 4096, &n, &st);
	CHECK(e && n == 32 && st.swap_outs == 32);
	for (i = 0, times = 0; e && i < n; i++)
		times += i == 0 || e[i].ts_ns != e[i - 1].ts_ns;
	CHECK(times == 32);
	free(e);
	p.thp = 1;
	p.thp_pages = 16;
	p.kernel = "6.14";
	for (p.reclaim_batch = 0; p.reclaim_batch < 2; p.reclaim_batch++) {
		e = gen_all(&p, 4096, &n, &st);
		CHECK(e && n == 2 && st.swap_outs == 2 && st.pages_out == 32);
		CHECK(e && e[0].nr_pages == 16 && e[1].nr_pages == 16 &&
		      (e[0].ts_ns == e[1].ts_ns) == (p.reclaim_batch == 0));
		free(e);
	}
}

static void gen_reference(void)
{
	struct sr_gen_params p;

	small(&p, SR_GEN_SWAP_W_RAND);
	CHECK(compare_ref(&p, 3) == 0);
	p.seed = 99;
	p.tasks = 7;
	p.accesses = 300;
	p.limit = 150 * PG;
	CHECK(compare_ref(&p, 1) == 0);
	small(&p, SR_GEN_SWAP_W_SEQ);
	CHECK(compare_ref(&p, 2) == 0);
	p.accesses = 97;
	CHECK(compare_ref(&p, 4096) == 0);
	small(&p, SR_GEN_SWAPIN);
	CHECK(compare_ref(&p, 5) == 0);
	p.limit = 300 * PG;
	CHECK(compare_ref(&p, 4096) == 0);
	p.limit = 1 * PG;
	CHECK(compare_ref(&p, 1) == 0);
}

void suite_gen(void)
{
	struct sr_gen_params p;

	params_init(&p); /* the test machine */
	TEST(gen_params);
	TEST(gen_determinism);
	TEST(gen_invariants);
	TEST(gen_seq_counts);
	TEST(gen_swapin_counts);
	TEST(gen_reference);
	TEST(gen_memcg_batch);
	TEST(gen_thp_whole);
	TEST(gen_thp_split);
	TEST(gen_thp_small);
	TEST(gen_thp_mixed);
	TEST(gen_global_reclaim);
	sr_machine_free(test_m);
	test_m = NULL;
}
