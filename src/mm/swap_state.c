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
 * and prev_offset are globals); so does each policy here.
 *
 * Swap-in readahead by virtual address (VMA readahead: Huang Ying, "mm,
 * swap: VMA based swap readahead", 20170807054038.1843-4-ying.huang@intel.com,
 * ec560175c0b6, 4.14; swap_vma_ra_win() and swap_vma_readahead(), read in
 * 6.1 and 6.12):
 *
 * - The state is the VMA's swap_readahead_info: the last fault's address,
 *   its window and the hits since (at most 63); a VMA that never faulted
 *   counts 4 hits (GET_SWAP_RA_VAL()).
 * - The window: the same heuristic with virtual page numbers, at most
 *   2^min(page_cluster, 5) pages (SWAP_RA_ORDER_CEILING); the address and
 *   window are stored and the hits cleared at every readahead.  A fault
 *   one page after the last reads forward [f, f + win), one page before
 *   backward [f - win + 1, f], else around it [f - (win - 1) / 2, ...);
 *   clamped to the VMA and to the 2 MiB (PMD) around the fault.
 * - A fault that finds its page in the swap cache records its address,
 *   and one hit if the page was read ahead (swap_cache_get_folio()).
 *
 * Which slots hold what is the replay's (src/replay/slotmap.h) or gen's:
 * this file computes the windows only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mm/mm.h"
#include "common/diag.h"

/* __swapin_nr_pages(): the pages for a fault at cur after one at prev,
 * with hits since. */
static unsigned nr_pages(uint64_t prev, uint64_t cur, unsigned hits, unsigned max_pages,
			 unsigned prev_win)
{
	unsigned pages = hits + 2, last_ra;

	if (pages == 2) {
		if (cur != prev + 1 && cur + 1 != prev)
			pages = 1;
	} else {
		unsigned roundup = 4;

		while (roundup < pages)
			roundup <<= 1;
		pages = roundup;
	}
	if (pages > max_pages)
		pages = max_pages;
	last_ra = prev_win / 2;
	if (pages < last_ra)
		pages = last_ra;
	return pages;
}

unsigned sr_ra_window(struct sr_ra *ra, uint64_t offset, unsigned page_cluster, int fixed)
{
	unsigned max_pages = 1u << page_cluster, pages, hits;

	if (max_pages <= 1)
		return 1;
	if (fixed)
		return max_pages;
	hits = ra->hits;
	ra->hits = 0;
	pages = nr_pages(ra->prev_offset, offset, hits, max_pages, ra->prev_win);
	if (!hits)
		ra->prev_offset = offset;
	ra->prev_win = pages;
	return pages;
}

void sr_vma_ra_init(struct sr_vma_ra *ra)
{
	ra->prev_vpn = 0;
	ra->win = 0;
	ra->hits = 4;
}

unsigned sr_vma_ra_window(struct sr_vma_ra *ra, uint64_t vpn, unsigned page_cluster,
			  uint64_t *lo, uint64_t *hi)
{
	unsigned max_win = 1u << (page_cluster < 5 ? page_cluster : 5), win;
	uint64_t prev = ra->prev_vpn, pmd = vpn & ~(uint64_t)511, l, r;

	*lo = vpn;
	*hi = vpn + 1;
	if (max_win == 1)
		return 1;
	win = nr_pages(prev, vpn, ra->hits, max_win, ra->win);
	ra->prev_vpn = vpn;
	ra->win = (uint8_t)win;
	ra->hits = 0;
	if (win == 1)
		return 1;
	if (vpn == prev + 1) {
		l = vpn;
		r = vpn + win;
	} else if (prev == vpn + 1) {
		l = vpn + 1 >= win ? vpn + 1 - win : 0;
		r = vpn + 1;
	} else {
		unsigned left = (win - 1) / 2;

		l = vpn >= left ? vpn - left : 0;
		r = l + win;
	}
	*lo = l > pmd ? l : pmd;
	*hi = r < pmd + 512 ? r : pmd + 512;
	return win;
}

void sr_vma_ra_hit(struct sr_vma_ra *ra, uint64_t vpn, int read_ahead)
{
	ra->prev_vpn = vpn;
	if (read_ahead && ra->hits < 63)
		ra->hits++;
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

/* ---- the settings (swapreplay/kernel.h) ------------------------------- */

void sr_readahead_default(struct sr_readahead_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = SR_RA_AUTO;
	o->page_cluster = 3;
}

static const char *const ra_modes[] = { "auto", "off", "cluster", "vma" };

enum sr_err sr_ra_mode_parse(const char *s, enum sr_ra_mode *m)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, ra_modes[i])) {
			*m = (enum sr_ra_mode)i;
			return SR_OK;
		}
	return SR_ERR_INVAL;
}

const char *sr_readahead_format(const struct sr_readahead_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "%s;page-cluster=%u;window=%s;holes=%s;memory=%" PRIu64,
		 ra_modes[o->mode <= SR_RA_VMA ? o->mode : 0], o->page_cluster,
		 o->fixed_window ? "fixed" : "adaptive", o->holes_stop ? "stop" : "skip",
		 o->memory_pages);
	return buf;
}

enum sr_err sr_readahead_parse(const char *s, struct sr_readahead_opts *o, struct sr_diag *d)
{
	char mode[16], win[16], holes[16];
	unsigned pc;
	uint64_t mem;
	int used = 0;

	sr_readahead_default(o);
	if (sscanf(s, "%15[a-z];page-cluster=%u;window=%15[a-z];holes=%15[a-z];memory=%" SCNu64 "%n",
		   mode, &pc, win, holes, &mem, &used) != 5 || s[used] || pc > SR_RA_MAX_PAGE_CLUSTER ||
	    (strcmp(win, "adaptive") && strcmp(win, "fixed")) ||
	    (strcmp(holes, "skip") && strcmp(holes, "stop")))
		return sr_diag_set(d, SR_ERR_INVAL, "readahead '%s': expected MODE;page-cluster=N;"
				   "window=adaptive|fixed;holes=skip|stop;memory=PAGES", s);
	if (sr_ra_mode_parse(mode, &o->mode))
		return sr_diag_set(d, SR_ERR_INVAL, "readahead '%s': mode auto, off, cluster or vma", s);
	o->page_cluster = pc;
	o->fixed_window = !strcmp(win, "fixed");
	o->holes_stop = !strcmp(holes, "stop");
	o->memory_pages = mem;
	return SR_OK;
}

/*
 * (K1) The slot a read fault keeps.  do_swap_page() (mm/memory.c, read in
 * 4.9, 5.8, 6.11 and the 7.0 swap table) maps the page it read and drops
 * the PTE's reference to the swap entry; whether the page then leaves the
 * swap cache, and its slot is freed, is decided at once:
 *
 * - a synchronous device from 4.15 bypasses the swap cache for a page of
 *   one user (0bcac06f27d7), and frees the slot; from the 7.0 swap table,
 *   which ended the bypass, should_try_to_free_swap() frees the cache of
 *   such a device always ("swap cache pinning the slot ... fragmentation
 *   is a more critical issue"): the same for the model;
 * - else it is freed when mem_cgroup_swap_full(): vm_swap_full(), more
 *   than half of all swap in use (a cgroup v2's swap.high or swap.max half
 *   reached as well: not in a trace), or the VMA is mlocked (not in a
 *   trace);
 * - or for a write fault: reuse_swap_page() to 5.18, from 5.19 the
 *   refcount test of should_try_to_free_swap() (c145e0b47c77): a page of
 *   one user is freed from the cache, its PTE made writable.
 *
 * A read fault's page so keeps its slot (the swap map's SWAP_HAS_CACHE,
 * its count 0) until it is written (do_wp_page(): reuse_swap_page() to
 * 5.18, wp_can_reuse_anon_folio()'s folio_free_swap() from 5.19), or
 * swap fills (the allocator's reclaim of such slots, and
 * free_swap_and_cache()), or the task exits and reclaim takes the page.
 * Reclaimed clean, it is not written again: its next swap-in reads the
 * same slot.
 */
int sr_swapin_keeps_slot(const struct sr_mm *mm, const struct sr_kernel *k, int dv,
			 uint32_t ev_flags)
{
	if ((ev_flags & (SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT)) != SR_EV_HAS_FAULT)
		return 0;
	if (dv < 0 || dv >= mm->m->nr_devices || sr_swapin_sync(k, mm->m->dev[dv].cls))
		return 0;
	return !sr_vm_swap_full(mm);
}
