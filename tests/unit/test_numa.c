/* What a page on another node costs a swap-in (docs/MODEL.md, "One event",
 * E2 with D1-D2), worked out by hand on the 2s-nvme0 preset: its one
 * nvme on node 0, the defaults of src/machine/defaults.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/cost.h"
#include "swapreplay/machine.h"
#include "test.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static struct sr_machine *preset(const char *name, const char *cpu)
{
	struct sr_machine *m = NULL;
	const char *json = sr_machine_preset_json(name);

	if (!json || sr_machine_parse(&m, json, strlen(json), name, NULL))
		return NULL;
	if (cpu)
		m->remote_miss_ns = atof(cpu);
	return m;
}

/*
 * One 4 KiB swap-in from nvme0 (node 0), by where the task (c) and its
 * page (p) are:
 *   E1  fault_ns                                1840 ns, every case
 *   E2  3 lines x remote_miss_ns when p != c     3 x 49 = 147 ns
 *   D1  remote_submit_ns when d != c             120 ns
 *   D2  4096 B over the link d -> p when p != d  (with the request)
 * so on the task's CPU:
 *   c=0 p=0: 1840           no crossing
 *   c=1 p=0: 1840+120+147 = 2107, no crossing   (the task remote)
 *   c=0 p=1: 1840+147     = 1987, 0 -> 1        (the memory remote)
 *   c=1 p=1: 1840+120     = 1960, 0 -> 1        (both remote)
 * The task remote and the memory remote differ by S - 0 on the CPU and
 * by the crossing: 120 ns of submission against 4096 / 33.5 GB/s =
 * 122.3 ns of the link plus its 60 ns latency.
 */
static void swapin_remote_page_by_hand(void)
{
	struct sr_machine *m = preset("2s-nvme0", NULL);
	struct sr_cost c;
	const struct sr_device *d;

	CHECK(m != NULL);
	if (!m)
		return;
	d = &m->dev[0];
	CHECK(near(m->remote_miss_ns, 49.0) && near(m->fault_ns, 1840.0) &&
	      near(m->remote_submit_ns, 120.0) && d->node == 0);

	sr_cost_event(m, d, SR_OP_IN, 0, 0, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0) && c.nlinks == 0 && c.dma && c.sync);

	sr_cost_event(m, d, SR_OP_IN, 1, 0, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 120.0 + 3 * 49.0) && c.nlinks == 0);

	sr_cost_event(m, d, SR_OP_IN, 0, 1, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 3 * 49.0) && c.nlinks == 1 && c.lfrom[0] == 0 &&
	      c.lto[0] == 1 && near(c.lbytes[0], 4096.0));
	CHECK(near(1e9 * c.lbytes[0] / m->link_bw, 4096 / 33.5) && near(m->link_lat_ns, 60.0));

	sr_cost_event(m, d, SR_OP_IN, 1, 1, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 120.0) && c.nlinks == 1);

	/* A huge page swapped in whole is one fault: three lines still. */
	sr_cost_event(m, d, SR_OP_IN, 0, 1, 512, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 3 * 49.0) && near(c.lbytes[0], 512 * 4096.0));

	/* A swap-out pays no E2 (reclaim's own remote work is in E1's
	 * measurement or left out: docs/MODEL.md, "What is not modelled"). */
	sr_cost_event(m, d, SR_OP_OUT, 0, 1, 1, &c);
	CHECK(near(c.cpu_ns, 1200.0 + 2000.0));
	sr_machine_free(m);

	/* The machine's figure is what is charged: 100 ns a line, 300. */
	m = preset("2s-nvme0", "100");
	CHECK(m != NULL);
	if (!m)
		return;
	sr_cost_event(m, &m->dev[0], SR_OP_IN, 1, 0, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 120.0 + 300.0));
	sr_machine_free(m);
}

/* A copying device pays E2 too, and its copy into the page's node stays
 * P1's: pmem0 (node 0) into node 1 memory from a CPU on node 0. */
static void swapin_remote_page_pmem(void)
{
	struct sr_machine *m = preset("2s-pmem2", NULL);
	struct sr_cost c;
	double B = 4096;

	CHECK(m != NULL);
	if (!m)
		return;
	sr_cost_event(m, &m->dev[0], SR_OP_IN, 0, 1, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0 + 3 * 49.0) && !c.dma);
	CHECK(near(c.copy_ns, 1e9 * (B / m->dev[0].rd_local + B / m->dram_wr_remote)));
	sr_cost_event(m, &m->dev[0], SR_OP_IN, 0, 0, 1, &c);
	CHECK(near(c.cpu_ns, 1840.0));
	sr_machine_free(m);
}

/* remote_miss_ns is a machine's "cpu" figure. */
static void machine_remote_miss(void)
{
	static const char j[] =
		"{\"schema\": \"swapreplay-machine/1\", \"name\": \"t\",\n"
		" \"nodes\": [{\"cpus\": 2}, {\"cpus\": 2}],\n"
		" \"cpu\": {\"remote_miss_ns\": 75},\n"
		" \"devices\": [{\"name\": \"n\", \"class\": \"nvme\", \"node\": 0}]}\n";
	struct sr_machine *m = NULL;

	CHECK(sr_machine_parse(&m, j, sizeof(j) - 1, "t", NULL) == SR_OK && m &&
	      near(m->remote_miss_ns, 75.0));
	sr_machine_free(m);
}

void suite_numa(void)
{
	TEST(swapin_remote_page_by_hand);
	TEST(swapin_remote_page_pmem);
	TEST(machine_remote_miss);
}
