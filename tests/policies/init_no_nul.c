/* A policy whose init() fails filling its whole error buffer without a
 * terminating NUL: the message must be cut, never overrun
 * (tests/cli/replay.sh). */
#include <string.h>

#include "swapreplay/policy.h"

static int init(const struct sr_policy_env *env, const char *params, void **priv,
		char *err, size_t errsize)
{
	(void)env;
	(void)params;
	(void)priv;
	memset(err, 'x', errsize);
	return -1;
}

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

static const struct sr_policy_ops ops = {
	.abi = SR_POLICY_ABI,
	.name = "init-no-nul",
	.description = "init() fails with an unterminated message",
	.init = init,
	.choose = choose,
};

SR_POLICY_EXPORT(ops);
