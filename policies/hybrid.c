/* SPDX-License-Identifier: MIT */
/*
 * hybrid: memory-like devices (pmem, zram: the CPU copies the page) by the
 * reclaimer's node, block devices (DMA) by the page's node.
 *
 * The reclaimer's node list is walked as the kernel would (its turns go
 * on).  If the device it gives is memory-like, it is used: the copy runs on
 * the reclaimer, so the reclaimer's local device is cheapest.  If it is a
 * block device, the page's node list is walked for a block device instead,
 * so that the DMA stays on the page's node.  On a machine with only
 * memory-like devices this is reclaimer-nid; with only block devices it is
 * page-nid-strict.
 *
 * As a tier assignment (the swap tiers series, docs/MODEL.md T1): a
 * machine's tiers by device class, "memory" and "block" (its description
 * names no others), and --tiers=/latency:memory,/batch:block give one
 * cgroup's pages the memory-like devices and another's the block ones.
 * The kernel feature splits by cgroup; hybrid splits every cgroup's pages
 * by where the copy or the DMA runs, by node.
 */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	int d = env->advance(env, req->cpu_nid, SR_CLASS_ALL, req->nr_pages);

	(void)priv;
	if (d >= 0 && sr_dev_class_memlike(env->machine->dev[d].cls)) {
		out->node = -1;
		out->device = d;
		return;
	}
	if (env->peek(env, req->page_nid, SR_CLASS_DMA, req->nr_pages) >= 0) {
		out->node = req->page_nid;
		out->class_mask = SR_CLASS_DMA;
		return;
	}
	/* No block device with room on the page's node: what the kernel gave. */
	out->node = -1;
	out->device = d;
}

const struct sr_policy_ops sr_policy_hybrid = {
	.abi = SR_POLICY_ABI,
	.name = "hybrid",
	.description = "memory-like devices (pmem, zram) by the reclaimer's node, block devices by the page's node",
	.choose = choose,
};
