/* The vmstat reader's node mixes (sr_read_opts.cpu_mix, mem_mix): checked
 * in open, and the events shared out within one of each pair's share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swapreplay/trace.h"
#include "test.h"

/* 1 s between lines; so and si in KiB/s: 4 KiB pages. */
static const char vmstat_log[] =
	"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
	" 1  0      0 100000   1000  50000  999  999     0     0    0    0  1  1 98  0  0\n"
	" 1  0      0 100000   1000  50000   44 4000     0     0    0    0  1  1 98  0  0\n"
	" 1  0      0 100000   1000  50000  404  124     0     0    0    0  1  1 98  0  0\n"
	" 1  0      0 100000   1000  50000    0    0     0     0    0    0  1  1 98  0  0\n"
	" 1  0      0 100000   1000  50000 1236 2508     0     0    0    0  1  1 98  0  0\n";

static char dir[] = "/tmp/sr-unit-vmstat-XXXXXX";
static char path[256];

static void write_log(void)
{
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/v.log", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		CHECK(fwrite(vmstat_log, 1, sizeof(vmstat_log) - 1, f) == sizeof(vmstat_log) - 1);
		CHECK(fclose(f) == 0);
	}
}

static void set_mix(struct sr_node_mix *m, unsigned n, const unsigned *node, const double *frac)
{
	unsigned i;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (i = 0; i < n && i < SR_NODE_MIX_MAX; i++) {
		m->node[i] = node[i];
		m->frac[i] = frac[i];
	}
}

/* sr_reader_open's answer to opts: SR_ERR_INVAL and no reader, or SR_OK. */
static enum sr_err try_open(const struct sr_read_opts *o)
{
	struct sr_reader *r = (struct sr_reader *)1;
	struct sr_diag d;
	enum sr_err err;

	memset(&d, 0, sizeof(d));
	err = sr_reader_open(&r, path, o, &d);
	if (err) {
		if (r != NULL || !d.msg[0])
			return SR_ERR_NOMEM; /* not what the API promises */
		return err;
	}
	sr_reader_close(r);
	return SR_OK;
}

static void mix_invalid(void)
{
	static const unsigned two[] = { 0, 1 }, dup[] = { 1, 1 }, big[] = { 0, 1024 };
	static const double half[] = { 0.5, 0.5 }, zero[] = { 0, 1 }, over[] = { 1.5, -0.5 },
			    short_sum[] = { 0.5, 0.4 }, close_sum[] = { 0.5, 0.4999995 };
	unsigned many[SR_NODE_MIX_MAX];
	double sixteenth[SR_NODE_MIX_MAX], nan_frac[2] = { NAN, 0.5 };
	struct sr_read_opts o;
	unsigned i;

	for (i = 0; i < SR_NODE_MIX_MAX; i++) {
		many[i] = i;
		sixteenth[i] = 1.0 / SR_NODE_MIX_MAX;
	}
	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_VMSTAT;
	CHECK(try_open(&o) == SR_OK);
	set_mix(&o.cpu_mix, 2, two, half);
	CHECK(try_open(&o) == SR_OK);
	o.cpu_node = 5000; /* unused with a mix */
	CHECK(try_open(&o) == SR_OK);
	o.cpu_mix.n = 0;
	CHECK(try_open(&o) == SR_ERR_INVAL);
	o.cpu_node = 0;
	set_mix(&o.mem_mix, SR_NODE_MIX_MAX, many, sixteenth);
	CHECK(try_open(&o) == SR_OK);
	o.mem_mix.n = SR_NODE_MIX_MAX + 1;
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, dup, half);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, big, half);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, two, zero);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, two, over);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, two, nan_frac);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, two, short_sum);
	CHECK(try_open(&o) == SR_ERR_INVAL);
	set_mix(&o.mem_mix, 2, two, close_sum);
	CHECK(try_open(&o) == SR_OK);
	o.mem_mix.n = 0;
	set_mix(&o.cpu_mix, 2, two, short_sum);
	CHECK(try_open(&o) == SR_ERR_INVAL);
}

/*
 * Read the log with the mixes of o; check every event's fields and, after
 * every event, that each pair's count is within one of its share of the
 * events of that op so far.  Returns the events read; cpu_count and
 * mem_count get the events by node.
 */
static uint64_t read_mixed(const struct sr_read_opts *o, const double *w, const unsigned *cn,
			   unsigned nc, const unsigned *mn, unsigned nm, uint64_t *cpu_count,
			   uint64_t *mem_count, int *bad)
{
	uint64_t cnt[2][SR_NODE_MIX_MAX * SR_NODE_MIX_MAX] = { { 0 } }, given[2] = { 0, 0 };
	struct sr_event evs[97];
	struct sr_reader *r;
	struct sr_diag d;
	uint64_t total = 0;
	size_t n, i;
	unsigned p, c, m;

	*bad = 0;
	if (sr_reader_open(&r, path, o, &d)) {
		printf("  open %s: %s\n", path, d.msg);
		*bad = 1;
		return 0;
	}
	while (!sr_reader_read(r, evs, 97, &n, &d) && n) {
		for (i = 0; i < n; i++) {
			const struct sr_event *e = &evs[i];
			int op = e->op;

			for (c = 0; c < nc && cn[c] != e->cpu_nid; c++)
				;
			for (m = 0; m < nm && mn[m] != e->page_nid; m++)
				;
			if (c == nc || m == nm || e->pid != (uint32_t)e->cpu_nid + 1 || e->dev != -1) {
				(*bad)++;
				continue;
			}
			cpu_count[c]++;
			mem_count[m]++;
			cnt[op][c * nm + m]++;
			given[op]++;
			for (p = 0; p < nc * nm; p++)
				if (fabs((double)cnt[op][p] - w[p] * (double)given[op]) >= 1)
					(*bad)++;
		}
		total += n;
	}
	if (!sr_reader_stats(r)->complete || !strstr(sr_reader_stats(r)->derived, "from a mix"))
		(*bad)++;
	sr_reader_close(r);
	return total;
}

static void mix_shares(void)
{
	static const unsigned cn[] = { 3, 0 }, mn[] = { 1, 2, 5 };
	/* Not normalised: they add up to 1 + 4e-7. */
	static const double cf[] = { 0.6000004, 0.4 }, mf[] = { 0.2, 0.3, 0.5 };
	uint64_t cpu_count[2] = { 0, 0 }, mem_count[3] = { 0, 0, 0 }, total;
	double w[6];
	struct sr_read_opts o;
	unsigned c, m;
	int bad;

	for (c = 0; c < 2; c++)
		for (m = 0; m < 3; m++)
			w[c * 3 + m] = cf[c] / 1.0000004 * mf[m];
	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_VMSTAT;
	set_mix(&o.cpu_mix, 2, cn, cf);
	set_mix(&o.mem_mix, 3, mn, mf);
	total = read_mixed(&o, w, cn, 2, mn, 3, cpu_count, mem_count, &bad);
	/* so: 4000 + 124 + 0 + 2508 KiB = 1658 pages; si: 44 + 404 + 1236 = 421. */
	CHECK(total == 1658 + 421);
	CHECK(bad == 0);
	/* Each op within one event of its share, so the totals too. */
	CHECK(fabs((double)cpu_count[0] - 0.6 * 2079) < 2 && fabs((double)cpu_count[1] - 0.4 * 2079) < 2);
	CHECK(fabs((double)mem_count[0] - 0.2 * 2079) < 2 && fabs((double)mem_count[2] - 0.5 * 2079) < 2);
}

/* A mix on one side only: the other keeps its single node. */
static void mix_one_side(void)
{
	static const unsigned mn[] = { 7, 4 }, cn[] = { 9 };
	static const double mf[] = { 0.25, 0.75 }, w[] = { 0.25, 0.75 };
	uint64_t cpu_count[1] = { 0 }, mem_count[2] = { 0, 0 }, total;
	struct sr_read_opts o;
	int bad;

	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_VMSTAT;
	o.cpu_node = 9;
	o.mem_node = 1023; /* unused */
	set_mix(&o.mem_mix, 2, mn, mf);
	total = read_mixed(&o, w, cn, 1, mn, 2, cpu_count, mem_count, &bad);
	CHECK(total == 2079 && bad == 0 && cpu_count[0] == 2079);
	/* Exact shares, within one for each op: out 414.5 and 1243.5, in 105.25 and 315.75. */
	CHECK(mem_count[0] + mem_count[1] == 2079 && mem_count[0] >= 519 && mem_count[0] <= 521);
}

/* Where the rule "the pair furthest behind" falls more than one event
 * behind (the pair of nodes 2 and 1, of weight 0.12, at 1 after 17 events
 * where its share is 2.04): still within one. */
static void mix_within_one(void)
{
	static const unsigned nodes[] = { 0, 1, 2 };
	static const double fr[] = { 0.2, 0.2, 0.6 };
	uint64_t cpu_count[3] = { 0, 0, 0 }, mem_count[3] = { 0, 0, 0 }, total;
	double w[9];
	struct sr_read_opts o;
	unsigned c, m;
	int bad;

	for (c = 0; c < 3; c++)
		for (m = 0; m < 3; m++)
			w[c * 3 + m] = fr[c] * fr[m];
	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_VMSTAT;
	set_mix(&o.cpu_mix, 3, nodes, fr);
	set_mix(&o.mem_mix, 3, nodes, fr);
	total = read_mixed(&o, w, nodes, 3, nodes, 3, cpu_count, mem_count, &bad);
	CHECK(total == 2079 && bad == 0);
}

void suite_vmstat(void)
{
	TEST(write_log);
	TEST(mix_invalid);
	TEST(mix_shares);
	TEST(mix_one_side);
	TEST(mix_within_one);
	unlink(path);
	rmdir(dir);
}
