/* SPDX-License-Identifier: MIT */
/*
 * reclaimer-nid: the kernel's behaviour from v4.14 to v6.18 (before the
 * per-node lists were removed): get_swap_pages() walks the list of
 * numa_node_id(), the node of the CPU that allocates the slots, both when
 * it refills the per-CPU slots cache and when it allocates directly.
 */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

const struct sr_policy_ops sr_policy_reclaimer_nid = {
	.abi = SR_POLICY_ABI,
	.name = "reclaimer-nid",
	.description = "the kernel: the allocating (reclaiming) CPU's node list, cache refills and direct allocations alike",
	.choose = choose,
};
