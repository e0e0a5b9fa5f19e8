/* zswap (docs/MODEL.md, "zswap", Zs1-Zs5): a machine's zswap as its
 * description gives it, zswap_store()'s decisions by kernel, the per-page
 * costs, and a replay's pages through the pool and its shrink worker.
 * Worked by hand: each test says what it expects and why. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/cost.h"
#include "mm/mm.h"
#include "swapreplay/machine.h"
#include "swapreplay/replay.h"
#include "test.h"

static struct sr_machine *mach(const char *zswap, struct sr_diag *d)
{
	char json[1024];
	struct sr_machine *m = NULL;

	snprintf(json, sizeof(json), "{\"name\": \"z\", \"nodes\": [{\"cpus\": 4}], \"devices\": "
		 "[{\"name\": \"nvme0\", \"class\": \"nvme\", \"node\": 0}]%s%s}",
		 zswap ? ", \"zswap\": " : "", zswap ? zswap : "");
	if (sr_machine_parse(&m, json, strlen(json), "test-machine", d) != SR_OK)
		return NULL;
	return m;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9;
}

/* The defaults: the kernel's lzo, 20 % of RAM, 90 %; lzo's figures from
 * zstd's README table: 650 and 780 MB/s, ratio 2.106. */
static void zswap_parsed(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach(NULL, &d);

	CHECK(m && !m->zswap.enabled);
	sr_machine_free(m);
	m = mach("{\"memory_gib\": 1}", &d);
	CHECK(m && m->zswap.enabled && m->zswap.comp == SR_ZSWAP_LZO && m->zswap.writeback);
	/* 20 % of 1 GiB; accepting again below 90 % of that. */
	CHECK(m && near(m->zswap.pool_bytes, 0.2 * 1073741824.0) && m->zswap.accept_pct == 90);
	CHECK(m && near(m->zswap.compress_ns, 4096 / 650e6 * 1e9) &&
	      near(m->zswap.decompress_ns, 4096 / 780e6 * 1e9) && m->zswap.ratio == 2.106);
	sr_machine_free(m);
	m = mach("{\"compressor\": \"zstd\", \"pool_mib\": 2, \"compress_ratio\": 3,"
		 " \"zero_percent\": 10, \"incompressible_percent\": 5, \"writeback\": false}", &d);
	CHECK(m && m->zswap.comp == SR_ZSWAP_ZSTD && m->zswap.pool_bytes == 2 * 1048576.0 &&
	      m->zswap.ratio == 3 && near(m->zswap.zero_share, 0.1) &&
	      near(m->zswap.incompressible_share, 0.05) && !m->zswap.writeback &&
	      near(m->zswap.compress_ns, 4096 / 510e6 * 1e9));
	sr_machine_free(m);
	m = mach("{\"enabled\": false}", &d);
	CHECK(m && !m->zswap.enabled);
	sr_machine_free(m);
}

static void zswap_refused(void)
{
	static const struct {
		const char *z, *msg;
	} bad[] = {
		{ "{}", "zswap: the pool's limit needs memory_gib" },
		{ "{\"pool_mib\": 1, \"compressor\": \"842\"}", "zswap.compressor: expected lz4, lzo or zstd" },
		{ "{\"pool_mib\": 1, \"max_pool_percent\": 10}", "zswap: pool_mib and max_pool_percent" },
		{ "{\"memory_gib\": 1, \"max_pool_percent\": 101}", "zswap.max_pool_percent: expected a percentage" },
		{ "{\"pool_mib\": 1, \"zero_percent\": 60, \"incompressible_percent\": 50}",
		  "add up to over 100" },
		{ "{\"pool_mib\": 1, \"compress_ratio\": 0.5}", "zswap.compress_ratio: expected at least 1" },
		{ "{\"pool_mib\": 1, \"size\": 1}", "zswap: unknown key \"size\"" },
		{ "{\"pool_mib\": 1, \"enabled\": 1}", "zswap.enabled: expected true or false" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sr_diag d;
		struct sr_machine *m = mach(bad[i].z, &d);

		CHECK(!m && strstr(d.msg, bad[i].msg));
		if (m || !strstr(d.msg, bad[i].msg))
			printf("  got: %s\n", m ? "(parsed)" : d.msg);
		sr_machine_free(m);
	}
}

static struct sr_kernel kernel(const char *v)
{
	struct sr_kernel k;
	struct sr_diag d;

	memset(&k, 0, sizeof(k));
	sr_kernel_parse(v, &k, &d);
	return k;
}

/*
 * (Zs2) A pool of 10240 bytes, ratio 2 (2048 bytes a page), accepting
 * again below 9216: five pages fill it; the sixth finds it at its limit
 * (refused, the worker queued, limit hit once); one page written back
 * (8192, under 9216) and the next store is taken again (10240).
 */
static void zswap_store_limits(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach("{\"pool_mib\": 0.009765625, \"compress_ratio\": 2}", &d);
	struct sr_kernel k66 = kernel("6.6"), k612 = kernel("6.12"), k613 = kernel("6.13"),
			 k618 = kernel("6.18");
	struct sr_zswap_pool p;
	int i, sh = 0, ok = 1;

	if (!m) {
		CHECK(m != NULL);
		return;
	}
	sr_zswap_pool_init(&p, &m->zswap);
	CHECK(p.limit == 10240 && p.accept == 9216);
	for (i = 0; i < 5; i++)
		ok &= sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_PAGE, 1, &sh) == SR_ZS_STORED && !sh;
	CHECK(ok && p.used == 10240 && p.stored == 5);
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_PAGE, 1, &sh) == SR_ZS_NONE && sh &&
	      p.full && p.rej_full == 1 && p.limit_hit == 1);
	CHECK(sr_zswap_over(&p));
	sr_zswap_release(&p, 2048);
	CHECK(!sr_zswap_over(&p) && p.used == 8192);
	/* Below the threshold: taken, and the mark cleared. */
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_PAGE, 1, &sh) == SR_ZS_STORED && !sh &&
	      !p.full && p.used == 10240 && p.peak == 10240);
	/* Full again: before 6.12 a zero page is zswap's and refused with
	 * the rest; from 6.12 the zeromap takes it whatever the pool. */
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_ZERO_PAGE, 1, &sh) == SR_ZS_NONE && sh);
	CHECK(sr_zswap_store(&p, &m->zswap, &k612, SR_ZS_ZERO_PAGE, 1, &sh) == SR_ZS_ZERO && !sh &&
	      p.zero == 1 && p.used == 10240);
	/* Emptied: a page that does not compress is refused after the
	 * attempt before 6.18, kept whole (4096 bytes) from 6.18; a large
	 * folio of 4 is refused before 6.13, stored page by page from 6.13. */
	sr_zswap_release(&p, 10240);
	CHECK(sr_zswap_store(&p, &m->zswap, &k612, SR_ZS_PAGE, 1, &sh) == SR_ZS_STORED && !p.full);
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_POOR_PAGE, 1, &sh) == SR_ZS_POOR &&
	      p.rej_poor == 1 && p.used == 2048);
	CHECK(sr_zswap_store(&p, &m->zswap, &k618, SR_ZS_POOR_PAGE, 1, &sh) == SR_ZS_WHOLE &&
	      p.whole == 1 && p.used == 2048 + 4096);
	CHECK(sr_zswap_store(&p, &m->zswap, &k612, SR_ZS_PAGE, 4, &sh) == SR_ZS_NONE &&
	      p.rej_large == 4 && p.used == 6144);
	CHECK(sr_zswap_store(&p, &m->zswap, &k613, SR_ZS_PAGE, 2, &sh) == SR_ZS_STORED &&
	      p.used == 6144 + 4096);
	/* 6.6 splits a folio of 4 before writing it (mTHP kept whole from
	 * 6.10): its pages reach zswap, 8192 bytes; a huge page (512) is
	 * swapped out whole and refused. */
	sr_zswap_release(&p, 10240);
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_PAGE, 4, &sh) == SR_ZS_STORED &&
	      p.used == 8192 && p.rej_large == 4);
	CHECK(sr_zswap_store(&p, &m->zswap, &k66, SR_ZS_PAGE, 512, &sh) == SR_ZS_NONE &&
	      p.rej_large == 516);
	sr_machine_free(m);
}

/* (Zs1) The draw: a quarter zeros and a quarter incompressible come out
 * so over 20000 keys (within 1.5 points: a binomial's sd is 0.3), and the
 * same key always gets the same kind. */
static void zswap_kinds(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach("{\"pool_mib\": 1, \"zero_percent\": 25,"
				    " \"incompressible_percent\": 25}", &d);
	int n[3] = { 0, 0, 0 }, i, same = 1;

	if (!m) {
		CHECK(m != NULL);
		return;
	}
	for (i = 0; i < 20000; i++) {
		enum sr_zs_kind kd = sr_zswap_kind(&m->zswap, (uint64_t)i);

		n[kd]++;
		same &= sr_zswap_kind(&m->zswap, (uint64_t)i) == kd;
	}
	CHECK(same && fabs(n[SR_ZS_ZERO_PAGE] / 200.0 - 25) < 1.5 &&
	      fabs(n[SR_ZS_POOR_PAGE] / 200.0 - 25) < 1.5 && fabs(n[SR_ZS_PAGE] / 200.0 - 50) < 1.5);
	sr_machine_free(m);
}

/* (Zs3) The per-page costs: lz4 (675, 3850 MB/s), ratio 2, the DRAM rates
 * of the machine. */
static void zswap_costs(void)
{
	struct sr_diag d;
	struct sr_machine *m = mach("{\"pool_mib\": 1, \"compressor\": \"lz4\", \"compress_ratio\": 2}",
				    &d);
	double tc = 4096 / 675e6 * 1e9, td = 4096 / 3850e6 * 1e9, rd, wr;

	if (!m) {
		CHECK(m != NULL);
		return;
	}
	rd = 1e9 * 4096 / m->dram_rd_local;
	wr = 1e9 * 4096 / m->dram_wr_local;
	CHECK(near(sr_cost_zswap(m, SR_ZS_STORED, 1), tc + wr / 2));
	CHECK(near(sr_cost_zswap(m, SR_ZS_LOAD, 3), 3 * td));
	CHECK(near(sr_cost_zswap(m, SR_ZS_ZERO, 1), rd) && near(sr_cost_zswap(m, SR_ZS_LOAD_ZERO, 1), wr));
	CHECK(near(sr_cost_zswap(m, SR_ZS_POOR, 2), 2 * tc) &&
	      near(sr_cost_zswap(m, SR_ZS_WHOLE, 1), tc + wr) &&
	      near(sr_cost_zswap(m, SR_ZS_LOAD_WHOLE, 1), rd + wr));
	CHECK(sr_cost_zswap(m, SR_ZS_NONE, 5) == 0);
	sr_machine_free(m);
}

/* n order-0 events of op at offsets off[], memcg mc[], on CPU 0. */
static size_t evs(struct sr_event *e, size_t at, int op, const uint64_t *off, const unsigned *mc,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct sr_event *x = &e[at + i];

		sr_event_init(x);
		x->ts_ns = 1000000 * (uint64_t)(at + i + 1);
		x->op = (uint8_t)op;
		x->pid = 1;
		x->cpu = 0;
		x->flags |= SR_EV_HAS_CPU | SR_EV_HAS_OFFSET;
		x->offset = off[i];
		x->nr_pages = 1;
		x->memcg = (uint16_t)(mc ? mc[i] : 0);
	}
	return at + n;
}

static const struct sr_result *run_ra(struct sr_replay **rp, const struct sr_machine *m,
				      const char *ver, const struct sr_event *e, size_t n,
				      enum sr_ra_mode ra, struct sr_diag *d);

static const struct sr_result *run(struct sr_replay **rp, const struct sr_machine *m,
				   const char *ver, const struct sr_event *e, size_t n,
				   struct sr_diag *d)
{
	return run_ra(rp, m, ver, e, n, SR_RA_AUTO, d);
}

/* run() with readahead as ra says. */
static const struct sr_result *run_ra(struct sr_replay **rp, const struct sr_machine *m,
				      const char *ver, const struct sr_event *e, size_t n,
				      enum sr_ra_mode ra, struct sr_diag *d)
{
	const char *specs[1] = { "reclaimer-nid" };
	const struct sr_result *res = NULL;
	struct sr_replay_opts o;

	sr_replay_free(*rp);
	*rp = NULL;
	sr_replay_opts_init(&o);
	o.machine = m;
	o.plug = 0;
	o.noise = 0;
	o.readahead.mode = ra;
	if (sr_kernel_parse(ver, &o.kernel, d) != SR_OK ||
	    sr_replay_new(rp, &o, specs, 1, specs[0], d) != SR_OK ||
	    sr_replay_feed(*rp, e, n, d) != SR_OK || sr_replay_finish(*rp, &res, d) != SR_OK)
		return NULL;
	return res;
}

/*
 * (Zs2, Zs4) Eight pages out at offsets 0-7, then in, on the pool of
 * zswap_store_limits() (five pages), 6.6 (one LRU):
 * - 0-4 stored (10240 bytes);
 * - 5 refused (the device writes it), the worker writes back the oldest,
 *   0 (8192: under 9216, it stops);
 * - 6 stored (the mark cleared), 7 refused, the worker writes back 1;
 * so 6 stored, 2 refused, 2 written back, the limit hit twice: the device
 * writes 5, 7 (the tasks) and 0, 1 (the worker), 4 writes.  The swap-ins:
 * 2, 3, 4, 6 from the pool, 0, 1, 5, 7 from the device: 4 loads, 4 reads,
 * and the pool ends empty.
 */
static void zswap_replay(void)
{
	static const uint64_t off[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct sr_event e[16];
	struct sr_diag d;
	struct sr_machine *m = mach("{\"pool_mib\": 0.009765625, \"compress_ratio\": 2}", &d);
	struct sr_replay *r = NULL;
	const struct sr_result *res;
	const struct sr_policy_result *p;
	size_t n;

	if (!m) {
		CHECK(m != NULL);
		return;
	}
	n = evs(e, 0, SR_OP_OUT, off, NULL, 8);
	n = evs(e, n, SR_OP_IN, off, NULL, 8);
	res = run(&r, m, "6.6", e, n, &d);
	CHECK(res != NULL);
	if (!res) {
		printf("  got: %s\n", d.msg);
		sr_machine_free(m);
		return;
	}
	p = &res->policy[0];
	CHECK(res->zswap.enabled && p->zs.stored == 6 && p->zs.rej_full == 2 && p->zs.written_back == 2 &&
	      p->zs.limit_hit == 2 && p->zs.pool_peak_bytes == 10240);
	CHECK(p->zs.loads == 4 && p->dev[0].writes == 4 && p->dev[0].reads == 4);
	CHECK(p->swapouts == 8 && p->swapins == 8 && p->zs.cpu_ns > 0);
	CHECK(res->zswap.enabled && res->zswap.comp == SR_ZSWAP_LZO && res->zswap.ratio == 2);
	/* The same without readahead: the swap-ins after the writebacks read
	 * their own pages only (the writebacks' list is the swap-out's). */
	res = run_ra(&r, m, "6.6", e, n, SR_RA_OFF, &d);
	CHECK(res && res->policy[0].zs.loads == 4 && res->policy[0].dev[0].reads == 4 &&
	      res->policy[0].dev[0].read_bytes == 4 * 4096 && res->policy[0].dev[0].writes == 4);
	/* A kernel before 6.6: refused, saying so. */
	CHECK(!run(&r, m, "6.1", e, n, &d) && strstr(d.msg, "modelled from kernel 6.6 on"));
	sr_replay_free(r);
	sr_machine_free(m);
}

/*
 * (Zs4) The worker's order: pages 0-2 of memcg 1, 3-4 of memcg 2 fill
 * the pool; 5 (memcg 2) is refused and 0 written back (the oldest; from
 * 6.8 memcg 1's LRU is visited first, the first to store); 6 (memcg 1)
 * stored; 7 (memcg 2) refused: 6.6's one LRU writes back 1 (the oldest
 * left), 6.12's round robin goes on to memcg 2 and writes back 3.  So
 * reading page 1 back takes a device read on 6.6 and none on 6.12.
 */
static void zswap_order(void)
{
	static const uint64_t off[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, one[1] = { 1 };
	static const unsigned mc[8] = { 1, 1, 1, 2, 2, 2, 1, 2 }, mc1[1] = { 1 };
	struct sr_event e[9];
	struct sr_diag d;
	struct sr_machine *m = mach("{\"pool_mib\": 0.009765625, \"compress_ratio\": 2}", &d);
	struct sr_replay *r = NULL;
	const struct sr_result *res;
	size_t n;

	if (!m) {
		CHECK(m != NULL);
		return;
	}
	n = evs(e, 0, SR_OP_OUT, off, mc, 8);
	n = evs(e, n, SR_OP_IN, one, mc1, 1);
	res = run(&r, m, "6.6", e, n, &d);
	CHECK(res && res->policy[0].zs.written_back == 2 && res->policy[0].dev[0].reads == 1 &&
	      res->policy[0].zs.loads == 0);
	res = run(&r, m, "6.12", e, n, &d);
	CHECK(res && res->policy[0].zs.written_back == 2 && res->policy[0].dev[0].reads == 0 &&
	      res->policy[0].zs.loads == 1);
	sr_replay_free(r);
	sr_machine_free(m);
}

void suite_zswap(void);
void suite_zswap(void)
{
	TEST(zswap_parsed);
	TEST(zswap_refused);
	TEST(zswap_store_limits);
	TEST(zswap_kinds);
	TEST(zswap_costs);
	TEST(zswap_replay);
	TEST(zswap_order);
}
