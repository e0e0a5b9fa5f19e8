/* SPDX-License-Identifier: MIT */
/*
 * The cost model of one swap event.  Each formula here is written out in
 * docs/MODEL.md under the same name; keep the two in step.
 *
 *   B    bytes moved: nr_pages x 4096
 *   c, p, d   the CPU's node, the page's node, the device's node
 *             (an unknown device node counts as the CPU's)
 *
 * What a page on another node than the CPU costs a swap-in (E2, D2 and
 * gen's G1), after the kernel's code:
 * - The fault's own work on the page's node (E2): do_swap_page() in 5.10
 *   mm/memory.c (the same steps, on folios, through 6.12): the new page
 *   comes from alloc_page_vma() under the task's memory policy, so on
 *   the page's node, with its struct page in that node's memory map
 *   (flags, private, memcg_data by mem_cgroup_charge(), _mapcount,
 *   mapping and index by do_page_add_anon_rmap(): one 64-byte line);
 *   pte_offset_map_lock() takes the split PTE lock, which lives in the
 *   struct page of the page-table page (ptlock_ptr(), when a spinlock
 *   fits there: ALLOC_SPLIT_PTLOCKS off), and the PTE itself is read
 *   (pte_same()) and written (set_pte_at()) in that page-table page,
 *   which pte_alloc_one() allocated under the same policy, on the same
 *   node: two more lines.  Three lines missed on the page's node:
 *   SR_COST_FAULT_REMOTE_LINES x remote_miss_ns more than on the CPU's.
 *   Left out: the lines of the per-CPU free list and LRU batch
 *   neighbours (LIFO lists, recently touched by the same CPU), the
 *   lruvec's lock (L2 holds it) and workingset_refault()'s atomic.
 * - The DMA into remote memory (D2): the link's calendar, with the
 *   request (hw/resources.c).  A memcpy device's copy into it: P1, Z1.
 * - The task's first touch of the page after the fault: user time,
 *   in the recorded gap after the swap-in event (a trace) or in gen's
 *   closed loop (src/gen/gen.c, G1), not here.
 */
#include <math.h>

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

/*
 * (D4) The seek curve: short seeks accelerate and decelerate the arm (a
 * square root of the distance), long ones coast (linear), after
 * Ruemmler and Wilkes, "An introduction to disk drive modeling", IEEE
 * Computer 27(3), 1994 (their HP 97560: 3.24 + 0.400 sqrt(d) ms up to 383
 * of its 1962 cylinders, 8.00 + 0.008 d beyond; the shape, not the old
 * drive's figures).  Over x of the stroke, with x0 = 383 / 1962:
 *
 *   seek(x) = t1 + a sqrt(x)                        x <= x0
 *           = v0 + (tf - v0) (x - x0) / (1 - x0)     x > x0,  v0 = t1 + a sqrt(x0)
 *
 * t1 the single-track seek, tf the full stroke, and a such that the mean
 * over a random start and end (density 2 (1 - x)) is the data sheet's
 * average seek ta:
 *
 *   a = (ta - t1 (2 x0 - x0^2) - (1 - x0)^2 (2 t1 + tf) / 3)
 *       / (4/3 x0^1.5 - 4/5 x0^2.5 + 2/3 (1 - x0)^2 sqrt(x0))
 */
#define SEEK_X0 (383.0 / 1962.0)

double sr_cost_seek(const struct sr_device *dev, double x)
{
	const double x0 = SEEK_X0, r0 = sqrt(x0), q = (1 - x0) * (1 - x0);
	double t1 = dev->seek_track_ns, ta = dev->seek_ns, tf = dev->seek_full_ns, a, v0;

	a = (ta - t1 * (2 * x0 - x0 * x0) - q * (2 * t1 + tf) / 3) /
	    (4.0 / 3 * x0 * r0 - 4.0 / 5 * x0 * x0 * r0 + 2.0 / 3 * q * r0);
	if (a < 0)
		a = 0;
	v0 = t1 + a * r0;
	if (v0 > tf)
		v0 = tf, a = (tf - t1) / r0;
	if (x <= x0)
		return t1 + a * sqrt(x);
	return v0 + (tf - v0) * (x - x0) / (1 - x0);
}

/*
 * (D4) Rotation in time.  The platter turns at rpm from a fixed phase at
 * t = 0, the same in every simulation (a common random number: every
 * policy's requests meet the same platter), so that its angle, in
 * revolutions, is
 *
 *   a(t) = frac(t x rpm / 60e9)
 *
 * and a page's sector passes under the head at the angle of its offset
 * within its track, a track being one revolution at the media rate
 * (track = bw x 60 / rpm bytes, the sustained rate with its track and
 * head switches, so that a sequential transfer keeps the angle: no track
 * skew of its own is modelled):
 *
 *   a(p) = frac(p x 4096 / track)
 *
 * The wait from t until page off comes under the head:
 *
 *   rot(off, t) = frac(a(off) - a(t)) x 60e9 / rpm
 *
 * (a wait within 1e-7 of a revolution of a whole one is none: the page
 * that a transfer just ended before is under the head, up to rounding).
 */
double sr_cost_hdd_rot(const struct sr_device *dev, uint64_t off, double t)
{
	double rev = 60e9 / dev->rpm, track = dev->read_bw * 60.0 / dev->rpm, a, w;

	a = (double)off * SR_PAGE_SIZE / track;
	a -= floor(a);
	w = a - t / rev;
	w -= floor(w);
	if (w > 1 - 1e-7)
		w = 0;
	return w * rev;
}

/*
 * (D4) Positioning from the head at head to page off, starting at t: no
 * seek when off is on the head's track or less than a track's worth of
 * pages ahead of it, else the seek over the distance x (a share of the
 * device's pages); then the rotational wait from the end of the seek.
 */
double sr_cost_hdd_position(const struct sr_device *dev, uint64_t head, uint64_t off, double t)
{
	double track = dev->read_bw * 60.0 / dev->rpm, x, seek = 0;

	if (off == UINT64_MAX)
		return sr_cost_seek(dev, 1.0 / 3) + 30e9 / dev->rpm;
	if (!(off >= head && (double)(off - head) * SR_PAGE_SIZE < track) &&
	    floor((double)off * SR_PAGE_SIZE / track) != floor((double)head * SR_PAGE_SIZE / track)) {
		x = (off > head ? (double)(off - head) : (double)(head - off)) / (double)dev->size_pages;
		if (x > 1)
			x = 1;
		seek = sr_cost_seek(dev, x);
	}
	return seek + sr_cost_hdd_rot(dev, off, t + seek);
}

void sr_cost_request(const struct sr_device *dev, int op, uint32_t pages, double pos_ns,
		     double *work, double *lat)
{
	int out = op == SR_OP_OUT;
	double B = (double)pages * SR_PAGE_SIZE, bw = out ? dev->write_bw : dev->read_bw;

	if (dev->cls == SR_DEV_HDD) {
		/* W = L = positioning + B / BW: one head, one request at a time. */
		*work = pos_ns + 1e9 * B / bw;
		*lat = *work;
	} else {
		double a = 1e9 / (out ? dev->write_iops : dev->read_iops), b = 1e9 * B / bw;

		*work = a > b ? a : b;
		*lat = (out ? dev->write_lat_ns : dev->read_lat_ns) + (b > a ? b - a : 0);
	}
}

/*
 * (D5) A flash device's random-write IOPS is its garbage collection's
 * limit under random overwrites (write amplification), not the cost of a
 * command: a write that continues a stream fills its erase blocks in
 * order and costs its transfer, bounded by the controller's command rate,
 * for which the random-read IOPS stands (490k on the P4500: no garbage
 * collection behind reads):
 *   W = max(1/IOPS_r, B/BW_w)     L = L_w + max(0, B/BW_w - 1/IOPS_r)
 */
void sr_cost_request_stream(const struct sr_device *dev, uint32_t pages, double *work,
			    double *lat)
{
	double a = 1e9 / dev->read_iops, b = 1e9 * (double)pages * SR_PAGE_SIZE / dev->write_bw;

	*work = a > b ? a : b;
	*lat = dev->write_lat_ns + (b > a ? b - a : 0);
}

void sr_cost_event(const struct sr_machine *m, const struct sr_device *dev,
		   int op, int cn, int pn, uint32_t nr_pages, struct sr_cost *c)
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
	/* (E2) a swap-in fault whose page is on another node than its CPU
	 * misses SR_COST_FAULT_REMOTE_LINES lines of that node's memory. */
	if (op != SR_OP_OUT && pn != cn && pn >= 0 && cn >= 0)
		c->cpu_ns += SR_COST_FAULT_REMOTE_LINES * m->remote_miss_ns;

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
		 *   W = max(1/IOPS, B/BW)   (hdd: W = positioning + B/BW, D4)
		 * of its throughput and completes it after the latency L
		 * (sr_cost_request(); the block layer decides the requests).
		 * (D2) the DMA crosses the link between the page's node and
		 * the device's node when they differ.
		 * Swap-in waits for completion; swap-out does not (writeback
		 * is asynchronous) unless the device is backlogged.
		 */
		int out = op == SR_OP_OUT;

		c->dma = 1;
		c->sync = !out;
		c->copy_ns = 0;
		if (!dev_local)
			c->cpu_ns += m->remote_submit_ns;
		sr_cost_request(dev, op, nr_pages, 0, &c->dev_work_ns, &c->dev_lat_ns);
		if (out)
			link(c, pn, dn, B);
		else
			link(c, dn, pn, B);
		break;
	}
	}
}

double sr_cost_zswap(const struct sr_machine *m, int zs, uint32_t n)
{
	const struct sr_zswap *z = &m->zswap;
	const double B = SR_PAGE_SIZE, rd = m->dram_rd_local, wr = m->dram_wr_local;
	double w;

	switch (zs) {
	case SR_ZS_STORED:
		w = z->compress_ns + 1e9 * B / z->ratio / wr;
		break;
	case SR_ZS_ZERO:
		w = 1e9 * B / rd;
		break;
	case SR_ZS_WHOLE:
		w = z->compress_ns + 1e9 * B / wr;
		break;
	case SR_ZS_POOR:
		w = z->compress_ns;
		break;
	case SR_ZS_LOAD:
		w = z->decompress_ns;
		break;
	case SR_ZS_LOAD_ZERO:
		w = 1e9 * B / wr;
		break;
	case SR_ZS_LOAD_WHOLE:
		w = 1e9 * (B / rd + B / wr);
		break;
	default:
		w = 0;
	}
	return (double)n * w;
}
