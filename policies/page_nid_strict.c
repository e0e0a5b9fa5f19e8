/* SPDX-License-Identifier: MIT */
/*
 * page-nid-strict: the page's node list for every allocation, as if the
 * slots cache were kept per node.  This is what the measurements did by
 * enabling only the page's node's device.
 */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->page_nid;
	out->class_mask = SR_CLASS_ALL;
}

const struct sr_policy_ops sr_policy_page_nid_strict = {
	.abi = SR_POLICY_ABI,
	.name = "page-nid-strict",
	.description = "the page's node list for every allocation, as if the slots cache were per node",
	.choose = choose,
};
