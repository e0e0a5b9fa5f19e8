/* SPDX-License-Identifier: MIT */
/*
 * zswap's decisions (mm/zswap.c, read in 6.6.57, 6.12.19 and 6.18.2;
 * docs/MODEL.md, "zswap", equations Zs1-Zs5): zswap is not a swap device
 * but a cache in front of every one.  A page reclaimed to swap takes its
 * slot on the device its policy chose first (folio_alloc_swap()); then
 * swap_writepage() offers it to zswap_store(), and only a page zswap
 * refuses is written to the device.  A swap-in asks zswap_load() before
 * the device.
 *
 * zswap_store(), in the order the kernel checks:
 * - a large folio: refused before 6.13 (6.6's `if (folio_test_large(folio))
 *   return false`), stored page by page from 6.13; one the kernel splits
 *   before writing it (an mTHP before 6.10) reaches zswap as pages;
 * - the pool's limit: full when it holds its limit (6.6 zswap_is_full(),
 *   6.12 zswap_check_limits()): the store is refused, the pool marked
 *   full and the shrink worker queued; a pool marked full refuses every
 *   store until it is back under accept_threshold_percent of its limit;
 * - a page of one repeated word: before 6.12 zswap keeps it as an entry of
 *   no bytes (zswap_is_page_same_filled()); from 6.12 a zero page never
 *   gets here: swap_writepage() sets its bit in the swap device's zeromap
 *   first (whatever the pool's state), and neither writes it;
 * - compression: a page whose output is over a page is refused before
 *   6.18 (zpool_malloc()'s -ENOSPC, zswap_reject_compress_poor) and kept
 *   whole from 6.18.
 * The pool's size here is the sum of its entries' compressed bytes
 * (zsmalloc's size classes and fragmentation are not modelled).
 */
#include <string.h>

#include "common/hash.h"
#include "mm/mm.h"

/* The draw's seed: the page kinds are a stream of their own, apart from
 * the hardware's draws (SR_HW_SEED) and the noise replicas'. */
#define SR_ZSWAP_SEED 0x7a73776170ull /* "zswap" */

void sr_zswap_pool_init(struct sr_zswap_pool *p, const struct sr_zswap *z)
{
	memset(p, 0, sizeof(*p));
	p->limit = z->pool_bytes;
	p->accept = z->pool_bytes * z->accept_pct / 100;
}

enum sr_zs_kind sr_zswap_kind(const struct sr_zswap *z, uint64_t key)
{
	uint64_t x = SR_ZSWAP_SEED + key * 0x9e3779b97f4a7c15ull;
	double u = (double)(sr_splitmix64(&x) >> 11) * 0x1p-53;

	/* (Zs1) u < zero: all zeros; then incompressible; else it
	 * compresses by the ratio. */
	if (u < z->zero_share)
		return SR_ZS_ZERO_PAGE;
	if (u < z->zero_share + z->incompressible_share)
		return SR_ZS_POOR_PAGE;
	return SR_ZS_PAGE;
}

double sr_zswap_page_bytes(const struct sr_zswap *z, const struct sr_kernel *k,
			   enum sr_zs_kind kind)
{
	switch (kind) {
	case SR_ZS_ZERO_PAGE:
		return 0;
	case SR_ZS_POOR_PAGE:
		return k->zswap_whole ? SR_PAGE_SIZE : 0;
	default:
		return SR_PAGE_SIZE / z->ratio;
	}
}

enum sr_zs_out sr_zswap_store(struct sr_zswap_pool *p, const struct sr_zswap *z,
			      const struct sr_kernel *k, enum sr_zs_kind kind, uint32_t n,
			      int *shrink)
{
	double bytes;

	*shrink = 0;
	/* 6.12 on: the zeromap takes a zero page before zswap sees it. */
	if (kind == SR_ZS_ZERO_PAGE && k->zeromap) {
		p->zero += n;
		return SR_ZS_ZERO;
	}
	/* A large folio the kernel swaps out whole (a huge page from 4.14,
	 * smaller ones from 6.10; before, they are split and each page is
	 * offered alone) is refused before 6.13. */
	if (n > 1 && !k->zswap_large &&
	    (n == SR_MAX_NR_PAGES ? k->thp_swap_whole : k->mthp_swap)) {
		p->rej_large += n;
		return SR_ZS_NONE;
	}
	/* (Zs2) The limit, with its hysteresis. */
	if (p->used >= p->limit) {
		p->limit_hit++;
		p->full = 1;
	} else if (p->full && p->used <= p->accept) {
		p->full = 0;
	}
	if (p->full) {
		p->rej_full += n;
		*shrink = z->writeback;
		return SR_ZS_NONE;
	}
	if (kind == SR_ZS_ZERO_PAGE) {
		p->zero += n;
		return SR_ZS_ZERO;
	}
	if (kind == SR_ZS_POOR_PAGE && !k->zswap_whole) {
		p->rej_poor += n;
		return SR_ZS_POOR;
	}
	bytes = (double)n * sr_zswap_page_bytes(z, k, kind);
	p->used += bytes;
	if (p->used > p->peak)
		p->peak = p->used;
	if (kind == SR_ZS_POOR_PAGE) {
		p->whole += n;
		return SR_ZS_WHOLE;
	}
	p->stored += n;
	return SR_ZS_STORED;
}
