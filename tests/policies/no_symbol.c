/* A shared object that is not a swapreplay policy: it defines a policy but
 * does not export it with SR_POLICY_EXPORT.  Loading it must fail with a
 * clear message (tests/cli/replay.sh builds it into the scratch folder). */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

const struct sr_policy_ops not_exported = {
	.abi = SR_POLICY_ABI,
	.name = "not-exported",
	.description = "defined but not exported",
	.choose = choose,
};

/* Some other symbol, so that the object is not empty of exports. */
int swapreplay_not_a_policy = 1;
