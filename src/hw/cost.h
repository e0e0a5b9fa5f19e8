/* SPDX-License-Identifier: MIT */
/*
 * The cost model of one swap event (docs/MODEL.md, section "One event").
 * Pure arithmetic: no state.  hw/resources.c places the resulting
 * work on the shared resources' calendars.
 */
#ifndef SR_COST_H
#define SR_COST_H

#include "swapreplay/event.h"
#include "swapreplay/kernel.h"
#include "swapreplay/machine.h"

struct sr_cost {
	double cpu_ns;     /* C: on the task's CPU before the data moves */
	double copy_ns;    /* X: the CPU's own copy (memory-like devices) */
	double dev_work_ns;/* W: device (DMA) or media (pmem) time consumed */
	double dev_lat_ns; /* L: DMA request latency at queue depth 1 */
	int sync;          /* the task waits for completion */
	int dma;           /* the device moves the data itself */
	/* Up to two interconnect crossings: bytes from node a to node b. */
	int nlinks;
	int lfrom[2], lto[2];
	double lbytes[2];
};

/*
 * (E2) The cache lines of the page's node a swap-in fault misses: the new
 * page's struct page, the PTE and the PTE lock in the page-table page's
 * struct page (do_swap_page(), 5.10 mm/memory.c; cost.c's head comment).
 */
#define SR_COST_FAULT_REMOTE_LINES 3.0

/*
 * Cost of moving nr_pages for op (SR_OP_OUT: memory -> device; SR_OP_IN:
 * device -> memory) on device dev, with the CPU on cpu_nid and the page's
 * memory on page_nid.  A DMA device's own work is the block layer's
 * request, sr_cost_request(): here dev_work_ns and dev_lat_ns are those
 * of the event as one request that needs no positioning.
 */
void sr_cost_event(const struct sr_machine *m, const struct sr_device *dev,
		   int op, int cpu_nid, int page_nid, uint32_t nr_pages,
		   struct sr_cost *c);

/*
 * (D1, D4) One request of pages for op on DMA device dev: the device time
 * it takes (*work) and when it completes after it started (*lat); pos_ns
 * is an hdd's positioning first (sr_cost_hdd_position()).
 */
void sr_cost_request(const struct sr_device *dev, int op, uint32_t pages, double pos_ns,
		     double *work, double *lat);

/* (D5) The same for a flash write that continues a stream (it starts
 * where a recent write ended). */
void sr_cost_request_stream(const struct sr_device *dev, uint32_t pages, double *work,
			    double *lat);

/* (D4) An hdd's seek over x of its stroke (0 < x <= 1). */
double sr_cost_seek(const struct sr_device *dev, double x);

/* (D4) The wait from t until page off's sector is under an hdd's head:
 * the platter's angle is a function of time, from a fixed phase at 0. */
double sr_cost_hdd_rot(const struct sr_device *dev, uint64_t off, double t);

/* (D4) An hdd bringing its head from head (where its last work ended) to
 * off, starting at t: a seek unless off is on the head's track or less
 * than a track ahead, then the rotational wait (sr_cost_hdd_rot()) from
 * the seek's end.  off UINT64_MAX (unknown): the mean, the average seek
 * and half a revolution. */
double sr_cost_hdd_position(const struct sr_device *dev, uint64_t head, uint64_t off, double t);

/*
 * (P3) How much slower PMem media serve a request when the DIMMs' recent
 * traffic is a mix with read share r (0..1) than the pure rates say:
 * interpolated in the OptaneStudy table of machine/defaults.h; remote: the
 * request's CPU is on another node than the device.
 */
double sr_cost_pmem_mix(double r, int remote);

/*
 * (Zs3) zswap's CPU work on the task's CPU for n pages, by what it did
 * (zs: enum sr_zs_out, as a record carries it), with B a
 * page, r the ratio, t_c and t_d a page's compression and decompression,
 * rd and wr the local DRAM rates:
 *   stored       n (t_c + (B/r)/wr)   compressed, copied into the pool
 *   zero         n B/rd               the page read to find it all zeros
 *   whole        n (t_c + B/wr)       tried, then kept as it is (6.18 on)
 *   poor         n t_c                tried, refused: the device writes it
 *   load         n t_d                decompressed into the new folio
 *   load zero    n B/wr               the folio filled with zeros
 *   load whole   n (B/rd + B/wr)      copied
 * The shrink worker's writeback of a page costs its decompression, t_d,
 * on the worker's time, then the device's write.
 */
double sr_cost_zswap(const struct sr_machine *m, int zs, uint32_t n);

/*
 * (E3) What a swap-in from a device of class cls costs its CPU more than
 * fault_ns under kernel k: through the swap cache before 6.18 (a radix
 * tree, an XArray from 4.17), m->swapcache_ns, and from 6.3 to 6.17
 * m->shadow_node_ns more (the shadow nodes' list_lru); nothing where it
 * bypasses the cache (a synchronous device, 4.15 to 6.19: fault_ns is a
 * bypass's, docs/MACHINE.md) and nothing from 6.18 (the swap table: a few
 * stores under the cluster lock, whose lines are L6's).  Per folio.
 */
static inline double sr_cost_swapcache_ns(const struct sr_machine *m, const struct sr_kernel *k,
					  enum sr_dev_class cls)
{
	if (!k->xarray_cache || sr_kernel_swapin_bypass(k, sr_dev_class_memlike(cls)))
		return 0;
	return m->swapcache_ns + (k->shadow_lru ? m->shadow_node_ns : 0);
}

#endif /* SR_COST_H */
