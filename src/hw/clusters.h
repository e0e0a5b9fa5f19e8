/* SPDX-License-Identifier: MIT */
/*
 * The swap devices' cluster locks, 4.11 on (docs/MODEL.md, L6): a lock per
 * cluster of SWAPFILE_CLUSTER slots (256; 512 from 4.13, THP_SWAP), taken
 * for each update of a slot's swap-map byte (Tim Chen, "mm/swap: add
 * cluster lock", 235b62176712, patch 2 of C2's series), by a
 * non-rotational device only until 6.13 (a rotational one has no
 * cluster_info and takes si->lock instead: L1's other holds) and by every
 * device from 6.14 (0b310d9cfd94).  From 6.18 the swap cache is in the
 * cluster too (the swap table, Kairui Song's phase I), under the same
 * lock.
 *
 * A cluster is the allocating CPU's (per-CPU clusters: ebc2a1a69111, 4.8;
 * per order from 6.12), so its lock is rarely waited for; what a hold
 * costs beyond E1's uncontended one (measured on one task) is the lines
 * it writes when another CPU wrote them last (L5's rule): the lock's,
 * which holds the cluster's count and flags too, the slot's swap-map
 * byte's, and from 6.18 the swap table's entry for a hold of the swap
 * cache.  So an event's holds of its slot's cluster are one block, and
 * cost `lines x line_ns` when the cluster's lock was last another CPU's,
 * nothing otherwise, on the event's CPU (no calendar: no wait; see
 * MODEL.md for why).
 *
 * The record is a policy's, not a simulation's: the replay keeps one per
 * policy, in the order of its decisions (the trace's), and tells every
 * simulation of it the lines an event moved (struct sr_hw_ev's
 * ci_lines), as it tells them its slots.  Its variants (--uncertainty,
 * --noise) share it, as they share every decision: a record in each of
 * make bench's 153 simulations of -u 50 cost it 1.24x its time.
 *
 * Memory: per policy, per device that has cluster locks under the
 * kernel, its last holder per cluster as 2 bytes (sr_hw_cluster_tag():
 * two holders that share them, 1 pair in 65535, are taken for one), in
 * chunks of
 * SR_HW_CLUSTER_CHUNK clusters made at the first event that holds one of
 * theirs (a trace touches a part of a large device: 2 KiB a chunk, 512
 * MB of swap in clusters of 512 slots), and a pointer per chunk.
 */
#ifndef SR_HW_CLUSTERS_H
#define SR_HW_CLUSTERS_H

#include <stdint.h>

#include "common/compiler.h"
#include "swapreplay/kernel.h"
#include "swapreplay/machine.h"

/* The clusters of one chunk of a device's last-holder record. */
#define SR_HW_CLUSTER_CHUNK_BITS 10
#define SR_HW_CLUSTER_CHUNK (1u << SR_HW_CLUSTER_CHUNK_BITS)

struct sr_hw_clusters {
	uint16_t ***last;   /* per device, per chunk: who held a cluster's lock
			     * last (sr_hw_cluster_tag(); 0 nobody); NULL until needed */
	uint32_t *n;        /* per device: its clusters (under shift) */
	uint8_t *shift;     /* per device: log2 of a cluster's slots; 0: no
			     * cluster locks under the kernel */
	uint8_t *lines;     /* per device [2 dv + out]: the lines an event's
			     * block of holds writes, a swap-in's and a swap-out's */
};

/*
 * (L6) Whether a device of class cls takes cluster locks under kernel k,
 * their clusters' size (*shift: log2 of their slots; 0: no cluster
 * locks), and the lines a swap-in's and a swap-out's block of holds
 * writes.  From 4.11 a non-rotational device's swap-map updates take the
 * lock of their slot's cluster (lock_cluster(), 235b62176712), a
 * rotational one's from 6.14 (0b310d9cfd94; before, si->lock: L1's other
 * holds); clusters of 512 slots from 4.13 (SWAPFILE_CLUSTER is
 * HPAGE_PMD_NR with THP_SWAP, 38d8b4e6bdc8), 256 before.  A block writes
 * the lock's line (the cluster's count and flags beside it: struct
 * swap_cluster_info) and the slot's swap-map byte's; from 6.18 a
 * swap-out's, and a swap-in's that does not skip the swap cache, the swap
 * table's entry too (the swap cache under the cluster lock, 8578e0c00dcf).
 * Read in 4.14, 6.12, 6.14 and 6.18 (docs/research/issue34-locks.md, 1b,
 * 1d, 1e, 1g).
 */
static inline void sr_hw_cluster_kernel(const struct sr_kernel *k, enum sr_dev_class cls,
					unsigned *shift, unsigned *lines_in, unsigned *lines_out)
{
	int on = !k->device_locks && (cls != SR_DEV_HDD || k->hdd_clusters);
	int table = !k->device_locks && !k->trunk_locks;
	/* A swap-in that skips the swap cache (4.15 to 6.19). */
	int bypass = sr_kernel_swapin_bypass(k, sr_dev_class_memlike(cls));
	/* From 7.1 the slot's count is its table entry's: no map byte. */
	unsigned map = k->table_count ? 0u : 1u;

	*shift = on ? (k->thp_swap ? 9u : 8u) : 0u;
	*lines_in = 1u + map + (unsigned)(table && !bypass);
	*lines_out = 1u + map + (unsigned)table;
}

/* c for machine m's devices, none with cluster locks until
 * sr_hw_clusters_set(); 0 or -1 out of memory (then sr_hw_clusters_free()
 * it all the same). */
int sr_hw_clusters_init(struct sr_hw_clusters *c, const struct sr_machine *m);
void sr_hw_clusters_free(struct sr_hw_clusters *c, int ndev);
/* Device dv of m takes cluster locks of 2^shift slots (0: none), a
 * swap-in's holds writing lines_in lines and a swap-out's lines_out. */
void sr_hw_clusters_set(struct sr_hw_clusters *c, const struct sr_machine *m, int dv,
			unsigned shift, unsigned lines_in, unsigned lines_out);
/* The last holder of device dv's cluster i (< c->n[dv]), its chunk made
 * if need be; NULL out of memory. */
uint16_t *sr_hw_clusters_slot(struct sr_hw_clusters *c, int dv, uint32_t i);

/* A holder (sr_hw_holder(), not 0) as the record keeps it: 16 bits of a
 * hash of it, never 0. */
static inline uint16_t sr_hw_cluster_tag(int32_t who)
{
	uint16_t t = (uint16_t)(((uint32_t)who * 0x9e3779b1u) >> 16);

	return t ? t : 1;
}

/*
 * (L6) The lines that `who` (sr_hw_holder()) moves by its event's holds
 * of the lock of the cluster of slot off on device dv, a swap-out (out)
 * or a swap-in: 0 when the device has no cluster locks, when who held
 * that lock last or nobody has, else the event's lines; who is then
 * its last holder.  A slot past the device's end (a recorded offset
 * replayed on a smaller device) folds onto its clusters.  -1 out of
 * memory.
 */
static inline int sr_hw_cluster_lines(struct sr_hw_clusters *c, int dv, uint64_t off, int out,
				      int32_t who)
{
	uint16_t *last, prev, tag;
	uint64_t j;
	uint32_t i;
	uint16_t **ch;

	if (!c->shift[dv])
		return 0;
	j = off >> c->shift[dv];
	i = (uint32_t)(SR_LIKELY(j < c->n[dv]) ? j : j % c->n[dv]);
	ch = c->last[dv];
	last = ch && ch[i >> SR_HW_CLUSTER_CHUNK_BITS] ?
		       &ch[i >> SR_HW_CLUSTER_CHUNK_BITS][i & (SR_HW_CLUSTER_CHUNK - 1)] :
		       sr_hw_clusters_slot(c, dv, i);
	if (SR_UNLIKELY(!last))
		return -1;
	prev = *last;
	tag = sr_hw_cluster_tag(who);
	*last = tag;
	return prev && prev != tag ? c->lines[2 * dv + (out != 0)] : 0;
}

#endif /* SR_HW_CLUSTERS_H */
