/* SPDX-License-Identifier: MIT */
/*
 * What the replay takes from the kernel's reclaim (mm/vmscan.c): how long
 * a page that nobody touches stays in memory, counted in pages reclaimed.
 *
 * A page read ahead into the swap cache goes on the inactive anon list
 * (lru_cache_add(); read ahead and never mapped, it is never activated)
 * and is reclaimed when the list's tail reaches it: after about as many
 * pages are reclaimed as the inactive list holds.  The kernel keeps the
 * inactive list at 1 / (1 + ratio) of the anon pages, ratio =
 * int_sqrt(10 x GiB) for a lruvec of at least 1 GiB, else 1
 * (inactive_is_low(), 5.9 on; inactive_list_is_low() from 4.8 with the
 * same ratio; before that inactive_anon_is_low() with a per-zone ratio of
 * the same formula).  docs/MODEL.md, "Readahead and the swap cache".
 */
#include "mm/mm.h"

uint64_t sr_inactive_pages(uint64_t memory_pages)
{
	uint64_t gb = memory_pages >> (30 - 12), ratio = 1, r;

	if (gb) {
		/* int_sqrt(10 * gb) */
		for (r = 1; (r + 1) * (r + 1) <= 10 * gb; r++)
			;
		ratio = r;
	}
	return memory_pages / (1 + ratio);
}
