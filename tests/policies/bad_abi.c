/* A policy built for another policy ABI than this swapreplay's: loading it
 * must be refused with a message naming both versions
 * (tests/cli/replay.sh builds it into the scratch folder). */
#include "swapreplay/policy.h"

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

static const struct sr_policy_ops ops = {
	.abi = SR_POLICY_ABI + 98,
	.name = "bad-abi",
	.description = "built for a policy ABI that does not exist",
	.choose = choose,
};

SR_POLICY_EXPORT(ops);
