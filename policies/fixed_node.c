/* SPDX-License-Identifier: MIT */
/*
 * fixed-node: the example policy of policies/README.md.  Every allocation
 * walks the list of one node given as a parameter ("fixed-node:1"); the
 * default is node 0.  It answers "what if every page went to node N's
 * devices".  Built into swapreplay and also, by `make`, as
 * build/policies/fixed_node.so to show (and test) an out-of-tree policy.
 */
#include <stdio.h>
#include <stdlib.h>

#include "swapreplay/policy.h"

struct fixed {
	int node;
};

static int init(const struct sr_policy_env *env, const char *params, void **priv,
		char *err, size_t errsize)
{
	struct fixed *f;
	char *end;
	long n = 0;

	if (params && *params) {
		n = strtol(params, &end, 10);
		if (*end || n < 0 || n >= env->machine->nr_nodes) {
			snprintf(err, errsize, "fixed-node: parameter must be a node from 0 to %d, not '%s'",
				 env->machine->nr_nodes - 1, params);
			return -1;
		}
	}
	f = malloc(sizeof(*f));
	if (!f) {
		snprintf(err, errsize, "fixed-node: out of memory");
		return -1;
	}
	f->node = (int)n;
	*priv = f;
	return 0;
}

static void choose(void *priv, const struct sr_policy_env *env,
		   const struct sr_alloc_req *req, struct sr_alloc_choice *out)
{
	const struct fixed *f = priv;

	(void)env;
	(void)req;
	out->node = f->node;
	out->class_mask = SR_CLASS_ALL;
}

static void finish(void *priv)
{
	free(priv);
}

const struct sr_policy_ops sr_policy_fixed_node = {
	.abi = SR_POLICY_ABI,
	.name = "fixed-node",
	.description = "example: every allocation walks one node's list (fixed-node:N, default 0)",
	.init = init,
	.choose = choose,
	.finish = finish,
};

#ifdef SR_POLICY_SHARED
SR_POLICY_EXPORT(sr_policy_fixed_node);
#endif
