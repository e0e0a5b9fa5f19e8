/* SPDX-License-Identifier: MIT */
/*
 * Policies: what stands in for the kernel's choice of a node's priority
 * list in get_swap_pages() (numa_node_id() in mm/swapfile.c, v4.14 on).
 * The table of built-in policies (it drives `swapreplay policies`,
 * --policy= and the tests) and the loader of built-ins and shared objects.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "mm/mm.h"
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

/* Close a shared object that failed after dlopen(), holding no policy. */
static void drop(struct sr_mm *mm)
{
	if (mm->dl)
		dlclose(mm->dl);
	mm->dl = NULL;
	mm->ops = NULL; /* its code may be gone: finish() is not called */
}

/* A shared object's ops table: dlopen(RTLD_NOW | RTLD_LOCAL), the one
 * symbol, its ABI checked. */
static enum sr_err load_shared(struct sr_mm *mm, const char *name, struct sr_diag *d)
{
	const struct sr_policy_ops *const *sym;

	/* Only the path the user gave: dlopen() searches no directory for a
	 * name with a slash. */
	mm->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!mm->dl)
		return sr_diag_set(d, SR_ERR_POLICY, "cannot load policy %s: %s", name, dlerror());
	sym = dlsym(mm->dl, SR_POLICY_SYMBOL);
	if (!sym || !*sym) {
		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: no '%s' symbol (define it with SR_POLICY_EXPORT)",
				   name, SR_POLICY_SYMBOL);
	}
	mm->ops = *sym;
	if (mm->ops->abi != SR_POLICY_ABI) {
		unsigned abi = mm->ops->abi;

		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: built for policy ABI %u, this swapreplay has ABI %d: rebuild it against this swapreplay/policy.h",
				   name, abi, SR_POLICY_ABI);
	}
	if (!mm->ops->name || !mm->ops->choose) {
		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY, "%s: the policy has no name or no choose()",
				   name);
	}
	return SR_OK;
}

enum sr_err sr_mm_load_policy(struct sr_mm *mm, const char *spec, struct sr_diag *d)
{
	char name[96], err[256] = "";
	const char *params = NULL, *colon;
	enum sr_err rc;
	size_t nlen;
	int i;

	snprintf(mm->spec, sizeof(mm->spec), "%s", spec);
	colon = strchr(spec, ':');
	nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	if (nlen == 0 || nlen >= sizeof(name))
		return sr_diag_set(d, SR_ERR_POLICY, "bad policy '%s'", spec);
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	if (colon)
		params = colon + 1;
	if (strchr(name, '/')) {
		rc = load_shared(mm, name, d);
		if (rc)
			return rc;
	} else {
		mm->ops = sr_policy_find(name);
		if (!mm->ops) {
			const struct sr_policy_ops *const *b = sr_policy_builtins();
			char list[512] = "";

			for (i = 0; b[i]; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", b[i]->name);
			return sr_diag_set(d, SR_ERR_POLICY,
					   "unknown policy '%s' (built in: %s; or a path to a .so)",
					   name, list);
		}
	}
	if (mm->ops->init && mm->ops->init(&mm->env, params, &mm->priv, err, sizeof(err))) {
		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY, "%s", err[0] ? err : "policy init failed");
	}
	if (!mm->ops->init && params && *params) {
		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY, "policy %s takes no parameters", name);
	}
	return SR_OK;
}

void sr_mm_unload_policy(struct sr_mm *mm)
{
	if (mm->ops && mm->ops->finish && mm->priv)
		mm->ops->finish(mm->priv);
	if (mm->dl)
		dlclose(mm->dl);
	mm->dl = NULL;
	mm->ops = NULL;
	mm->priv = NULL;
}
