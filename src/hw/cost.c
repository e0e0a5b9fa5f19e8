/* SPDX-License-Identifier: MIT */
/*
 * The cost model of one swap event.  Each formula here is written out in
 * docs/MODEL.md under the same name; keep the two in step.
 *
 *   B    bytes moved: nr_pages x 4096
 *   c, p, d   the CPU's node, the page's node, the device's node
 *             (an unknown device node counts as the CPU's)
 */
#include "hw/cost.h"
#include "machine/defaults.h"

double sr_cost_pmem_mix(double r, int remote)
{
	static const double share[PMEM_MIX_POINTS] = PMEM_MIX_SHARE;
	static const double local[PMEM_MIX_POINTS] = PMEM_MIX_LOCAL;
	static const double rem[PMEM_MIX_POINTS] = PMEM_MIX_REMOTE;
	const double *k = remote ? rem : local;
	int i;

	if (r <= 0 || r >= 1)
		return 1;
	for (i = 1; i < PMEM_MIX_POINTS - 1 && r > share[i]; i++)
		;
	return k[i - 1] + (k[i] - k[i - 1]) * (r - share[i - 1]) / (share[i] - share[i - 1]);
}

static void link(struct sr_cost *c, int from, int to, double bytes)
{
	if (from == to || from < 0 || to < 0)
		return;
	c->lfrom[c->nlinks] = from;
	c->lto[c->nlinks] = to;
	c->lbytes[c->nlinks] = bytes;
	c->nlinks++;
}

void sr_cost_event(const struct sr_machine *m, const struct sr_device *dev,
		   int op, int cn, int pn, uint32_t nr_pages, int seq, struct sr_cost *c)
{
	double B = (double)nr_pages * SR_PAGE_SIZE;
	int dn = dev->node >= 0 ? dev->node : cn;
	int dram_local = pn == cn, dev_local = dn == cn;

	c->nlinks = 0;
	c->dev_lat_ns = 0;
	/* (E1) the kernel's path: reclaim per folio and per page, or the
	 * swap-in fault per folio. */
	c->cpu_ns = op == SR_OP_OUT ? m->reclaim_ns + (double)nr_pages * m->reclaim_page_ns :
		    m->fault_ns;

	switch (dev->cls) {
	case SR_DEV_PMEM:
		/*
		 * (P1) the CPU copies the page between DRAM and PMem, reading
		 * then writing, each at the one-thread rate for its locality:
		 *   out: X = B/dram_rd(p) + B/pmem_wr(d)
		 *   in:  X = B/pmem_rd(d) + B/dram_wr(p)
		 * (P2) the DIMMs' shared bandwidth: W = B/cap_wr(d) for out,
		 * B/cap_rd(d) for in, remote caps when d is not the CPU's node.
		 */
		c->dma = 0;
		c->sync = 1;
		if (op == SR_OP_OUT) {
			c->copy_ns = 1e9 * (B / (dram_local ? m->dram_rd_local : m->dram_rd_remote) +
					    B / (dev_local ? dev->wr_local : dev->wr_remote));
			c->dev_work_ns = 1e9 * B / (dev_local ? dev->cap_wr_local : dev->cap_wr_remote);
			link(c, pn, cn, B);
			link(c, cn, dn, B);
		} else {
			c->copy_ns = 1e9 * (B / (dev_local ? dev->rd_local : dev->rd_remote) +
					    B / (dram_local ? m->dram_wr_local : m->dram_wr_remote));
			c->dev_work_ns = 1e9 * B / (dev_local ? dev->cap_rd_local : dev->cap_rd_remote);
			link(c, dn, cn, B);
			link(c, cn, pn, B);
		}
		break;
	case SR_DEV_ZRAM: {
		/*
		 * (Z1) the CPU compresses (out) or decompresses (in) the page
		 * and copies the compressed bytes B/r to or from the zram pool
		 * on the device's node:
		 *   out: X = B/dram_rd(p) + B/compress + (B/r)/dram_wr(d)
		 *   in:  X = (B/r)/dram_rd(d) + B/decompress + B/dram_wr(p)
		 * No shared cap: DRAM bandwidth is not the limit here.
		 */
		double Bc = B / dev->compress_ratio;

		c->dma = 0;
		c->sync = 1;
		c->dev_work_ns = 0;
		if (op == SR_OP_OUT) {
			c->copy_ns = 1e9 * (B / (dram_local ? m->dram_rd_local : m->dram_rd_remote) +
					    B / dev->compress_bw +
					    Bc / (dev_local ? m->dram_wr_local : m->dram_wr_remote));
			link(c, pn, cn, B);
			link(c, cn, dn, Bc);
		} else {
			c->copy_ns = 1e9 * (Bc / (dev_local ? m->dram_rd_local : m->dram_rd_remote) +
					    B / dev->decompress_bw +
					    B / (dram_local ? m->dram_wr_local : m->dram_wr_remote));
			link(c, dn, cn, Bc);
			link(c, cn, pn, B);
		}
		break;
	}
	default: {
		/*
		 * (D1) a DMA device: the CPU submits (plus S when the device
		 * hangs off another node), the device serves the request in
		 *   W = max(1/IOPS, B/BW)   (hdd: W = B/BW, plus the seek
		 *                            when not sequential)
		 * of its throughput and completes it after the latency L.
		 * (D2) the DMA crosses the link between the page's node and
		 * the device's node when they differ.
		 * Swap-in waits for completion; swap-out does not (writeback
		 * is asynchronous) unless the device is backlogged.
		 */
		int out = op == SR_OP_OUT;
		double iops = out ? dev->write_iops : dev->read_iops;
		double bw = out ? dev->write_bw : dev->read_bw;

		c->dma = 1;
		c->sync = !out;
		c->copy_ns = 0;
		if (!dev_local)
			c->cpu_ns += m->remote_submit_ns;
		if (dev->cls == SR_DEV_HDD) {
			c->dev_work_ns = 1e9 * B / bw + (seq ? 0 : dev->seek_ns);
			c->dev_lat_ns = c->dev_work_ns;
		} else {
			double a = 1e9 / iops, b = 1e9 * B / bw;

			c->dev_work_ns = a > b ? a : b;
			c->dev_lat_ns = (out ? dev->write_lat_ns : dev->read_lat_ns) +
					(b > a ? b - a : 0);
		}
		if (out)
			link(c, pn, dn, B);
		else
			link(c, dn, pn, B);
		break;
	}
	}
}
