/* A policy that exports its ops table itself as `swapreplay_policy`, not a
 * pointer to it (the mistake SR_POLICY_EXPORT is there to prevent): loading
 * it must be refused, not crash (tests/cli/replay.sh). */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

__attribute__((visibility("default")))
const struct sr_policy_ops swapreplay_policy = {
	.abi = SR_POLICY_ABI,
	.name = "table-not-pointer",
	.description = "exports the table, not a pointer to it",
	.choose = choose,
};
