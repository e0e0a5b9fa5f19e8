/* SPDX-License-Identifier: MIT */
/* The table of built-in policies; it drives `swapreplay policies`,
 * --policy= and the tests. */
#include <string.h>

#include "swapreplay/policy.h"

extern const struct sr_policy_ops sr_policy_reclaimer_nid;
extern const struct sr_policy_ops sr_policy_page_nid;
extern const struct sr_policy_ops sr_policy_page_nid_strict;
extern const struct sr_policy_ops sr_policy_hybrid;
extern const struct sr_policy_ops sr_policy_fixed_node;

/* Checklist: a new file in policies/ is listed here and in policies/README.md. */
static const struct sr_policy_ops *const builtins[] = {
	&sr_policy_reclaimer_nid,
	&sr_policy_page_nid,
	&sr_policy_page_nid_strict,
	&sr_policy_hybrid,
	&sr_policy_fixed_node,
	NULL,
};

const struct sr_policy_ops *const *sr_policy_builtins(void)
{
	return builtins;
}

const struct sr_policy_ops *sr_policy_find(const char *name)
{
	int i;

	for (i = 0; builtins[i]; i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
	return NULL;
}
