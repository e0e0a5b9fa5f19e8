/* SPDX-License-Identifier: MIT */
/*
 * Policies: what stands in for the kernel's choice of a node's priority
 * list in get_swap_pages() (numa_node_id() in mm/swapfile.c, v4.14 on).
 * The table of built-in policies (it drives `swapreplay policies`,
 * --policy= and the tests) and the loader of built-ins and shared objects.
 */
#define _GNU_SOURCE /* dladdr1(), Dl_info */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "mm/mm.h"
#include "swapreplay/policy.h"
#include "common/diag.h"

extern const struct sr_policy_ops sr_policy_reclaimer_nid;
extern const struct sr_policy_ops sr_policy_page_nid;
extern const struct sr_policy_ops sr_policy_page_nid_strict;
extern const struct sr_policy_ops sr_policy_hybrid;
extern const struct sr_policy_ops sr_policy_fixed_node;
extern const struct sr_policy_ops sr_policy_tiers;

/* Checklist: a new file in policies/ is listed here and in policies/README.md. */
static const struct sr_policy_ops *const builtins[] = {
	&sr_policy_reclaimer_nid,
	&sr_policy_page_nid,
	&sr_policy_page_nid_strict,
	&sr_policy_hybrid,
	&sr_policy_fixed_node,
	&sr_policy_tiers,
	NULL,
};

/* What --policy=all replays: the built-ins but the example (fixed-node,
 * the out-of-tree template) and tiers (without an assignment it is
 * reclaimer-nid; with one, it is asked for), which stay loadable by name. */
static const struct sr_policy_ops *const real[] = {
	&sr_policy_reclaimer_nid,
	&sr_policy_page_nid,
	&sr_policy_page_nid_strict,
	&sr_policy_hybrid,
	NULL,
};

const struct sr_policy_ops *const *sr_policy_builtins(void)
{
	return builtins;
}

const struct sr_policy_ops *const *sr_policy_all(void)
{
	return real;
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

/*
 * What SR_POLICY_EXPORT() defines is a pointer to the ops table; a shared
 * object that defines the table itself under that name, or a function,
 * would be read as a pointer and crash.  The dynamic symbol table says what
 * the symbol is (dladdr1(RTLD_DL_SYMENT): its type and size), and the
 * pointer must point into a loaded object.
 */
/* ELF32_ST_TYPE and ELF64_ST_TYPE alike: the low four bits. */
#define ELF_TYPE(info) ((info) & 0xf)

static enum sr_err check_symbol(const struct sr_policy_ops *const *sym, const char *name,
				struct sr_diag *d)
{
	const ElfW(Sym) *es = NULL;
	Dl_info info;

	if (!dladdr1((const void *)sym, &info, (void **)&es, RTLD_DL_SYMENT) || !es)
		return sr_diag_set(d, SR_ERR_POLICY, "%s: '%s' is not in the object's symbol table",
				   name, SR_POLICY_SYMBOL);
	if (ELF_TYPE(es->st_info) == STT_FUNC)
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: '%s' is a function, not a pointer to the policy's ops table (define it with SR_POLICY_EXPORT)",
				   name, SR_POLICY_SYMBOL);
	if (ELF_TYPE(es->st_info) != STT_OBJECT || es->st_size != sizeof(*sym))
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: '%s' is %lu bytes, not a pointer to the policy's ops table: is it the table itself? (define it with SR_POLICY_EXPORT)",
				   name, SR_POLICY_SYMBOL, (unsigned long)es->st_size);
	if (!*sym || !dladdr((const void *)*sym, &info))
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: '%s' does not point to an ops table in a loaded object",
				   name, SR_POLICY_SYMBOL);
	return SR_OK;
}

/* A shared object's ops table: dlopen(RTLD_NOW | RTLD_LOCAL), the one
 * symbol, its ABI checked. */
static enum sr_err load_shared(struct sr_mm *mm, const char *name, struct sr_diag *d)
{
	const struct sr_policy_ops *const *sym;
	enum sr_err rc;

	/* Only the path the user gave: dlopen() searches no directory for a
	 * name with a slash. */
	mm->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!mm->dl)
		return sr_diag_set(d, SR_ERR_POLICY, "cannot load policy %s: %s", name, dlerror());
	sym = dlsym(mm->dl, SR_POLICY_SYMBOL);
	if (!sym) {
		drop(mm);
		return sr_diag_set(d, SR_ERR_POLICY,
				   "%s: no '%s' symbol (define it with SR_POLICY_EXPORT)",
				   name, SR_POLICY_SYMBOL);
	}
	rc = check_symbol(sym, name, d);
	if (rc) {
		drop(mm);
		return rc;
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
			const char *names[sizeof(builtins) / sizeof(builtins[0])];
			char list[512] = "", mean[160];

			for (i = 0; b[i]; i++) {
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", b[i]->name);
				names[i] = b[i]->name;
			}
			if (sr_suggest_text(name, names, (size_t)i, NULL, mean, sizeof(mean)))
				return sr_diag_set(d, SR_ERR_POLICY,
						   "unknown policy '%s'; %s (built in: %s; or a path to a .so)",
						   name, mean, list);
			return sr_diag_set(d, SR_ERR_POLICY,
					   "unknown policy '%s' (built in: %s; or a path to a .so)",
					   name, list);
		}
	}
	if (mm->ops->init && mm->ops->init(&mm->env, params, &mm->priv, err, sizeof(err))) {
		err[sizeof(err) - 1] = '\0'; /* the policy may have filled it all */
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
