/* SPDX-License-Identifier: MIT */
/*
 * Swap-in readahead by swap offset, after the kernel's mm/swap_state.c
 * (swap_cluster_readahead() and swapin_nr_pages(), read in 4.14, 5.17 and
 * 6.6; docs/MODEL.md, "Readahead and the swap cache"):
 *
 * - The window is 2^page_cluster slots (/proc/sys/vm/page-cluster,
 *   default 3) aligned on its size around the faulting offset:
 *   [offset & ~mask, offset | mask], slot 0 (the header) left out.
 * - Adaptive since 3.14 (Shaohua Li, "swap: add a simple detector for
 *   inappropriate swapin readahead", 579f82901f6f): pages = hits + 2,
 *   where hits counts the pages read ahead that faults found since the
 *   last readahead; with no hit, 1 unless the fault is next to the
 *   previous one; otherwise rounded up to a power of two from 4; at most
 *   2^page_cluster, and never below half the previous window.  The
 *   previous offset is remembered only when there was no hit.  Older
 *   kernels read the whole window every time (`fixed`).
 * - Every slot of the window that holds a swapped-out page not yet in the
 *   swap cache is read into it; free slots are skipped since 3.4 (Rik van
 *   Riel, "mm: make swapin readahead skip over holes", 67f96aa252e6);
 *   before, the window stopped at them (`stop`: the run of used slots
 *   around the fault).
 *
 * The kernel keeps one window for the whole system (swapin_readahead_hits
 * and prev_offset are globals); so does each policy here.  Which slots
 * hold what is the replay's (src/replay/slotmap.h): this file computes the
 * window only.
 */
#include "mm/mm.h"

unsigned sr_ra_window(struct sr_ra *ra, uint64_t offset, unsigned page_cluster, int fixed)
{
	unsigned max_pages = 1u << page_cluster, pages, last_ra, hits;

	if (max_pages <= 1)
		return 1;
	if (fixed)
		return max_pages;
	hits = ra->hits;
	ra->hits = 0;
	pages = hits + 2;
	if (pages == 2) {
		if (offset != ra->prev_offset + 1 && offset + 1 != ra->prev_offset)
			pages = 1;
	} else {
		unsigned roundup = 4;

		while (roundup < pages)
			roundup <<= 1;
		pages = roundup;
	}
	if (pages > max_pages)
		pages = max_pages;
	last_ra = ra->prev_win / 2;
	if (pages < last_ra)
		pages = last_ra;
	if (!hits)
		ra->prev_offset = offset;
	ra->prev_win = pages;
	return pages;
}

unsigned sr_ra_span(uint64_t off, unsigned pages, int holes_stop,
		    int (*can)(void *ctx, uint64_t o), void *ctx, uint64_t *out)
{
	uint64_t mask = (uint64_t)pages - 1, lo = off & ~mask, hi = off | mask, o;
	unsigned n = 0;

	if (pages <= 1)
		return 0;
	if (!lo)
		lo = 1; /* slot 0 is the swap header */
	for (o = lo; o <= hi; o++) {
		if (o == off)
			continue;
		if (!can(ctx, o)) {
			/* A hole: before 3.4 the run around the fault ends here. */
			if (holes_stop) {
				if (o < off) {
					n = 0;
					continue;
				}
				break;
			}
			continue;
		}
		out[n++] = o;
	}
	return n;
}
