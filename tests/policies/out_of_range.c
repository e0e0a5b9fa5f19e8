/* A policy that chooses what the machine does not have: with no parameter
 * node 99, with "device" device 42 (node -1).  The replay must stop with an
 * error naming the policy, not fall back in silence (tests/cli/replay.sh). */
#include <string.h>

#include "swapreplay/policy.h"

static int init(const struct sr_policy_env *env, const char *params, void **priv,
		char *err, size_t errsize)
{
	(void)env;
	(void)err;
	(void)errsize;
	*priv = (void *)(params && strcmp(params, "device") == 0 ? "d" : "n");
	return 0;
}

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)env;
	(void)req;
	if (*(const char *)priv == 'd') {
		out->node = -1;
		out->device = 42;
	} else {
		out->node = 99;
	}
	out->class_mask = SR_CLASS_ALL;
}

static const struct sr_policy_ops ops = {
	.abi = SR_POLICY_ABI,
	.name = "out-of-range",
	.description = "chooses node 99 or device 42",
	.init = init,
	.choose = choose,
};

SR_POLICY_EXPORT(ops);
