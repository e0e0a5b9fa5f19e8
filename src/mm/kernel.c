/* SPDX-License-Identifier: MIT */
/*
 * Kernel generations: which of the behaviours modelled in src/mm/ a
 * kernel version has (swapreplay/kernel.h, struct sr_kernel).  Each
 * boundary is the release that merged the change:
 *
 *   4.11  per-CPU swap slots cache (Tim Chen, "mm/swap: Regular page swap
 *         optimizations", commit 67afa38e012e): order-0 slots come 64 at a
 *         time (swap_slots.c); before it, every allocation walks the list.
 *         The same series added the per-cluster locks and split the swap
 *         cache into 64 MB trunks (Huang Ying, "mm, swap: split swap cache
 *         into 64MB trunks", 4b3ef9daa4fc): before 4.11 the swap-map
 *         updates take the device's si->lock and the swap cache one tree
 *         lock per device (docs/MODEL.md, L1); from 4.11 the swap cache is
 *         an address_space per 2^14 slots (SWAP_ADDRESS_SPACE_SHIFT,
 *         swap_address_space(entry) = &swapper_spaces[type][offset >> 14]),
 *         each with its own lock, taken by add_to_swap_cache() and
 *         __delete_from_swap_cache()'s callers (docs/MODEL.md, L4).
 *   4.13  THP swap (Huang Ying, "mm, THP, swap: support to reclaim swap
 *         space for THP swapped out" and its series, CONFIG_THP_SWAP):
 *         SWAPFILE_CLUSTER becomes HPAGE_PMD_NR (512 slots, 256 before) and
 *         a huge folio takes a free cluster whole (swapfile.c, "Slots").
 *   4.14  per-node priority lists swap_avail_heads[] (Aaron Lu, "swap:
 *         choose swap device according to numa node", a2468cc9bfdf), and
 *         automatic priorities from -2 with -1 on the device's own node;
 *         before it one global list, automatic priorities -1, -2, ...
 *         Also 4.14: a huge page is swapped out whole, not split after
 *         its slots are allocated (Huang Ying, "mm, THP, swap: delay
 *         splitting THP after swapped out", bd4c82c22c36; 4.13 split it
 *         once in the swap cache, 38d8b4e6bdc8, and before that split it
 *         first): the replay's LRU lock then takes it as one folio.
 *   4.14  also: VMA readahead (Huang Ying, ec560175c0b6), the default
 *         unless an hdd is swapped on (swap_use_vma_readahead()).
 *   4.15  synchronous devices (pmem, brd, zram) skip the swap cache and
 *         readahead for single-user pages (Minchan Kim, 0bcac06f27d7,
 *         aa8d22a11da9), to 6.19; from 7.0 they read nothing ahead still
 *         (sync_no_ra).  Before 6.18 a swap-in through the swap cache
 *         costs swapcache_ns more than the bypass (docs/MODEL.md, E3).
 *   4.17  the trunks' tree_lock becomes their i_pages XArray's xa_lock
 *         (Matthew Wilcox, "page cache: use xa_lock", b93b016313b3): the
 *         same lock, taken at the same places (L4).
 *   6.3   the swap cache's XArray nodes that hold only shadows go on the
 *         workingset's shadow_nodes list_lru, off when a swap-in adds a
 *         folio and back on when it leaves (Yang Yang, "swap_state: update
 *         shadow_nodes for anonymous page", MM pull for 6.3-rc1,
 *         20230220135225.91b0f28344c01d5306c31230@linux-foundation.org),
 *         to 6.17: shadow_node_ns (E3).
 *   5.8   on a non-rotational device each CPU scans for a free slot (once no
 *         free cluster is left) from a position of its own in a random 64 MB
 *         trunk (Huang Ying, "swap: reduce lock contention on swap cache
 *         from swap slots allocation", 490705888107); before, all CPUs
 *         from the device's one cluster_next (swapfile.c, A2).
 *   6.10  folios between a page and a PMD (mTHP) are swapped out whole
 *         (Ryan Roberts, "mm: swap: swap-out small-sized THP without
 *         splitting"); before, they are split.
 *   6.12  the cluster allocator per folio order: nonfull and frag lists
 *         per order (Chris Li and Kairui Song, "mm: swap: mTHP swap
 *         allocator base on swap cluster order").
 *   6.14  rotational devices allocate by cluster too, one current cluster
 *         per device ("mm, swap: remove old allocation path for HDD",
 *         7277433096f6); before, they scan for slots in order.  The same
 *         series (Kairui Song, "mm, swap: rework of swap allocator locks",
 *         20250113175732.48099-1-ryncsn@gmail.com) takes si->lock off the
 *         freeing path: from 4.11 to 6.13 the slots freed on a CPU go back
 *         64 at a time through swapcache_free_entries(), which holds each
 *         device's si->lock over its entries ("mm, swap: remove slot cache
 *         for freeing path", 4f79384a25d5, frees each under its cluster
 *         lock); and it gives a rotational device cluster locks ("mm, swap:
 *         use cluster lock for HDD", 0b310d9cfd94), whose swap-map updates
 *         took si->lock from 4.11 (lock_cluster_or_swap_info() without
 *         cluster_info) to 6.13 (docs/MODEL.md, L1 and L3).
 *   6.15  the slots cache removed (Kairui Song, "mm, swap: remove swap slot
 *         cache", 0ff67f990bd4): each CPU allocates from a current cluster
 *         per order (1b7e90020eb7) and walks the list for a new one when it
 *         is used up; devices of equal priority take turns per cluster.
 *   6.18  the swap table, phase I (Kairui Song, series 20250916160100.31545-*-
 *         ryncsn@gmail.com): the swap cache lives in each cluster's table,
 *         added to and deleted from under the cluster lock
 *         (swap_cache_add_folio(), swap_cache_del_folio()); no trunk lock
 *         (L4 ends), no XArray (E3's swapcache_ns and shadow_node_ns end),
 *         the table's entry one more line in the cluster lock's holds
 *         (L6).
 *   6.19  per-node lists removed (Baoquan He, "mm/swap: do not choose swap
 *         device according to numa node", 8e689f8ea45f) and every device
 *         swapped on without a priority gets -1, taking turns ("mm/swap:
 *         select swap device with default priority round robin",
 *         52f37efc5949).  The release of 8e689f8ea45f was read from the
 *         mm tree's merge window, not from a tag.
 *   7.0   the swap table, phase II (Kairui Song, series
 *         20251220-swap-table-p2-v5-0-8862a265a033@tencent.com, merged in
 *         the 7.0 window after v6.19 = 05f7e89ab973): "mm, swap: never
 *         bypass the swap cache even for SWP_SYNCHRONOUS_IO" (f1879e8a0c60,
 *         mm/memory.c read there): every swap-in goes through the swap
 *         cache, a synchronous device's with no readahead still, its slot
 *         freed at once (ab08be8dc96a, 4b34f1d82c65); a swap-out takes its
 *         slots and adds its folio to the swap cache in one cluster lock
 *         hold (270f095179ff).  The model: sync_bypass ends; a synchronous
 *         device's swap-in costs what the bypass did (E3: the table's
 *         insert and delete are a few stores under the cluster lock, no
 *         figure above 0) and its holds write the table's line too (L6).
 *         Large folios swapped in whole on a synchronous device (any swap
 *         count, zswap never enabled) are the trace's: its nr_pages.
 *   7.1   the swap table, phase III: "use the swap table to track the swap
 *         count" (0d6af9bcf383, in Linus's merge of mm-stable-2026-04-13,
 *         after v7.0; swapon allocates no si->swap_map there, read in
 *         mm/swapfile.c): a slot's count is its table entry's, so a
 *         cluster lock's holds write the lock's line and the entry's, no
 *         map byte (L6: 2 lines).
 *   (docs/research/issue35-swaptable.md has the reading of each.)
 *
 * Kernels before 4.0 are refused; releases after 7.1 (7.2, and 7.3 in
 * release candidates when this list was last read: v7.3-rc5 =
 * 72d3fcf802c4) are modelled as 7.1, and every report says so: what they
 * changed in these paths was not read.  Versions after SR_KERNEL_NEWEST
 * (7.4, due in December 2026) are refused: 99.99 is a typo, not a
 * kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/parse.h"
#include "swapreplay/kernel.h"

/* Version v >= major.minor. */
static int since(const struct sr_kernel *k, unsigned major, unsigned minor)
{
	return k->major > major || (k->major == major && k->minor >= minor);
}

/* The digits at s, their count; 0 when none. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

enum sr_err sr_kernel_parse(const char *s, struct sr_kernel *k, struct sr_diag *d)
{
	uint64_t major, minor;
	size_t n1 = digits(s), n2 = 0;
	const char *rest = NULL;

	memset(k, 0, sizeof(*k));
	/* MAJOR.MINOR, with what uname -r prints after it: a .PATCH, then a
	 * -SUFFIX or a + (6.6.0-28-generic, 6.19.0-rc3, 6.12.7+). */
	if (n1 && s[n1] == '.') {
		n2 = digits(s + n1 + 1);
		rest = s + n1 + 1 + n2;
		if (*rest == '.' && digits(rest + 1))
			rest += 1 + digits(rest + 1);
	}
	if (!n2 || (*rest && *rest != '-' && *rest != '+') ||
	    sr_parse_u64(s, n1, 99, &major) || sr_parse_u64(s + n1 + 1, n2, 999, &minor))
		return sr_diag_set(d, SR_ERR_INVAL,
				   "kernel '%s': expected a version MAJOR.MINOR such as 5.15 or 6.15 "
				   "(or as uname -r prints it, 6.6.0-28-generic)", s);
	k->major = (unsigned)major;
	k->minor = (unsigned)minor;
	if (!since(k, 4, 0))
		return sr_diag_set(d, SR_ERR_INVAL, "kernel %s: kernels before 4.0 are not modelled",
				   s);
	if (since(k, SR_KERNEL_NEWEST_MAJOR, SR_KERNEL_NEWEST_MINOR + 1))
		return sr_diag_set(d, SR_ERR_INVAL, "kernel %s: no such release yet (the newest "
				   "this swapreplay knows is %u.%u; releases after %u.%u are modelled "
				   "as %u.%u)", s, SR_KERNEL_NEWEST_MAJOR, SR_KERNEL_NEWEST_MINOR,
				   SR_KERNEL_MODELLED_MAJOR, SR_KERNEL_MODELLED_MINOR,
				   SR_KERNEL_MODELLED_MAJOR, SR_KERNEL_MODELLED_MINOR);
	k->node_lists = since(k, 4, 14) && !since(k, 6, 19);
	k->prio = !since(k, 4, 14) ? SR_PRIO_GLOBAL : !since(k, 6, 19) ? SR_PRIO_NODE_RAISE :
		  SR_PRIO_ALL_EQUAL;
	k->alloc = !since(k, 4, 11) ? SR_ALLOC_DIRECT : !since(k, 6, 15) ? SR_ALLOC_SLOTS_CACHE :
		   SR_ALLOC_CLUSTER;
	k->thp_swap_whole = since(k, 4, 14);
	k->device_locks = !since(k, 4, 11);
	k->vma_readahead = since(k, 4, 14);
	k->sync_no_ra = since(k, 4, 15);
	k->sync_bypass = since(k, 4, 15) && !since(k, 7, 0);
	k->xarray_cache = !since(k, 6, 18);
	k->shadow_lru = since(k, 6, 3) && !since(k, 6, 18);
	k->table_count = since(k, 7, 1);
	k->thp_swap = since(k, 4, 13);
	k->mthp_swap = since(k, 6, 10);
	k->slot_orders = since(k, 6, 12);
	k->hdd_clusters = since(k, 6, 14);
	k->ssd_scan_cpu = since(k, 5, 8);
	k->free_si = since(k, 4, 11) && !since(k, 6, 14);
	k->hdd_si_map = since(k, 4, 11) && !since(k, 6, 14);
	k->trunk_locks = since(k, 4, 11) && !since(k, 6, 18);
	/* zswap: docs/MODEL.md, "zswap", cites each. */
	k->zswap = since(k, 6, 6);
	k->zswap_memcg_lru = since(k, 6, 8);
	k->zeromap = since(k, 6, 12);
	k->zswap_large = since(k, 6, 13);
	k->zswap_whole = since(k, 6, 18);
	return SR_OK;
}

const char *sr_kernel_describe(const struct sr_kernel *k, char *buf, size_t n)
{
	snprintf(buf, n, "%u.%u: %s, %s%s", k->major, k->minor,
		 k->node_lists ? "per-node priority lists" :
		 k->prio == SR_PRIO_GLOBAL ? "one priority list (automatic priorities -1, -2, ...)" :
		 "one priority list (automatic priorities all -1)",
		 k->alloc == SR_ALLOC_SLOTS_CACHE ? "per-CPU slots cache of 64" :
		 k->alloc == SR_ALLOC_CLUSTER ? "per-CPU current cluster per order" :
		 "no slots cache", since(k, SR_KERNEL_MODELLED_MAJOR, SR_KERNEL_MODELLED_MINOR + 1) ?
		 " (modelled as " SR_KERNEL_MODELLED_TEXT ": what later releases changed is not "
		 "modelled)" : "");
	return buf;
}
