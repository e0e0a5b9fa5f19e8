/* SPDX-License-Identifier: MIT */
/*
 * page-nid: the proposed patch as written ("mm: swap: determine swap device
 * by using page nid", Yang Shi, linux-mm 2022-04-06).  get_swap_page()
 * passes page_to_nid() on the paths that bypass the per-CPU slots cache
 * (huge pages; cache empty, inactive or off); refill_swap_slots_cache()
 * keeps numa_node_id(), so pages that go through the cache still get a
 * device chosen by the CPU's node.
 */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->via_cache ? req->cpu_nid : req->page_nid;
	out->class_mask = SR_CLASS_ALL;
}

const struct sr_policy_ops sr_policy_page_nid = {
	.abi = SR_POLICY_ABI,
	.name = "page-nid",
	.description = "the patch as written: the page's node list for direct allocations, the CPU's when the slots cache is refilled",
	.choose = choose,
};
