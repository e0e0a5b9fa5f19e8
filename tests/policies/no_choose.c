/* A policy of the right ABI without the required choose(): refused
 * (tests/cli/replay.sh builds it into the scratch folder). */
#include "swapreplay/policy.h"

static const struct sr_policy_ops ops = {
	.abi = SR_POLICY_ABI,
	.name = "no-choose",
	.description = "has no choose()",
};

SR_POLICY_EXPORT(ops);
