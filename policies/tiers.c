/* SPDX-License-Identifier: MIT */
/*
 * tiers: the kernel with the swap tiers series (Youngjun Park, on an idea
 * of Chris Li; v10, 20260713025644.170839-1-youngjun.park@lge.com, in the
 * mm tree, not merged as of 7.3): each memory cgroup may use a set of the
 * machine's swap tiers (its "tiers", docs/MACHINE.md; by device class,
 * "memory" and "block", when it names none), and its swap-outs go to the
 * highest-priority device of those with room, devices of equal priority
 * in turn; when none of them has room the swap-out fails (docs/MODEL.md,
 * T1).  The core does the filtering (the ops' tiers()); the list walked
 * is the kernel's own, as reclaimer-nid's.
 *
 * Parameters: the assignment, CGROUP=TIER[+TIER...] separated by ';'
 * (swapreplay's --tiers=CGROUP:TIER,... writes it so): the memory cgroup
 * at path CGROUP and every cgroup below it may use those tiers, "none"
 * for none of them.  A cgroup under two assigned paths gets what both
 * allow (the series: effective(child) = effective(parent) & mask(child),
 * patch 3/6, ...-4-youngjun.park@lge.com).  The devices in no tier stay
 * allowed to every cgroup (the series' bit 31).  A cgroup not named, the
 * root, and an event without a memcg (or whose path the trace does not
 * give) may use every tier.  Without parameters every cgroup may use every
 * tier: the kernel without tiers, reclaimer-nid's choices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swapreplay/policy.h"

#define MAX_ASSIGN 64

struct assign {
	char path[256];   /* "/a.slice/x", no trailing '/' */
	size_t len;
	uint32_t mask;    /* the tiers' bits and SR_TIER_NONE_BIT */
};

struct priv {
	int n;
	struct assign a[MAX_ASSIGN];
	/* Each memcg's mask once its path is known (0: not yet). */
	uint32_t cache[65536];
};

/* The tier named name[0..len) of machine m: its bit, or 0 (no such tier). */
static uint32_t tier_bit(const struct sr_machine *m, const char *name, size_t len)
{
	int i;

	for (i = 0; i < m->nr_tiers; i++)
		if (strlen(m->tier[i].name) == len && !memcmp(m->tier[i].name, name, len))
			return 1u << i;
	return 0;
}

static int fail(char *err, size_t n, const char *fmt, const char *what, size_t len,
		const struct sr_machine *m)
{
	int i, k = snprintf(err, n, fmt, (int)len, what);

	if (m && k >= 0 && (size_t)k < n) {
		k += snprintf(err + k, n - (size_t)k, " (machine %s has", m->name);
		for (i = 0; i < m->nr_tiers && k >= 0 && (size_t)k < n; i++)
			k += snprintf(err + k, n - (size_t)k, "%s %s", i ? "," : "", m->tier[i].name);
		if (k >= 0 && (size_t)k < n)
			snprintf(err + k, n - (size_t)k, "%s)", m->nr_tiers ? "" : " no tiers");
	}
	return -1;
}

/* One item, CGROUP=TIER[+TIER...] or CGROUP=none, into a. */
static int parse_item(const struct sr_machine *m, const char *s, size_t len, struct assign *a,
		      char *err, size_t n)
{
	const char *eq = memchr(s, '=', len), *t, *end = s + len;

	if (!eq || eq == s)
		return fail(err, n, "tiers: '%.*s': expected CGROUP=TIER[+TIER...] or CGROUP=none",
			    s, len, NULL);
	if (s[0] != '/')
		return fail(err, n, "tiers: '%.*s': a memory cgroup is named by its path, from '/'",
			    s, (size_t)(eq - s), NULL);
	a->len = (size_t)(eq - s);
	while (a->len > 1 && s[a->len - 1] == '/')
		a->len--;
	if (a->len == 1)
		return fail(err, n, "tiers: '%.*s': the root cgroup may always use every tier "
			    "(memory.swap.tiers.max is not in the root)", s, (size_t)(eq - s), NULL);
	if (a->len >= sizeof(a->path))
		return fail(err, n, "tiers: '%.*s': a path of at most 255 bytes", s,
			    (size_t)(eq - s), NULL);
	memcpy(a->path, s, a->len);
	a->path[a->len] = '\0';
	a->mask = SR_TIER_NONE_BIT;
	if (end - eq - 1 == 4 && !memcmp(eq + 1, "none", 4))
		return 0;
	for (t = eq + 1; t <= end; ) {
		const char *plus = memchr(t, '+', (size_t)(end - t));
		size_t tl = (size_t)((plus ? plus : end) - t);
		uint32_t b = tier_bit(m, t, tl);

		if (!b)
			return fail(err, n, tl ? "tiers: no tier '%.*s'" :
				    "tiers: an empty tier name%.*s", t, tl, m);
		a->mask |= b;
		if (!plus)
			break;
		t = plus + 1;
	}
	return 0;
}

static int init(const struct sr_policy_env *env, const char *params, void **out, char *err,
		size_t errsize)
{
	struct priv *p;
	const char *s = params ? params : "";

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errsize, "tiers: out of memory");
		return -1;
	}
	while (*s) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		int j;

		if (len) {
			if (p->n == MAX_ASSIGN) {
				snprintf(err, errsize, "tiers: at most %d cgroups assigned", MAX_ASSIGN);
				free(p);
				return -1;
			}
			if (parse_item(env->machine, s, len, &p->a[p->n], err, errsize)) {
				free(p);
				return -1;
			}
			for (j = 0; j < p->n; j++)
				if (!strcmp(p->a[j].path, p->a[p->n].path)) {
					snprintf(err, errsize, "tiers: cgroup %s is assigned twice",
						 p->a[j].path);
					free(p);
					return -1;
				}
			p->n++;
		}
		s += len + (semi != NULL);
	}
	*out = p;
	return 0;
}

/* path is a (the path of an assigned cgroup) or below it. */
static int under(const char *path, const struct assign *a)
{
	return !strncmp(path, a->path, a->len) && (path[a->len] == '\0' || path[a->len] == '/');
}

static uint32_t tiers(void *priv, const struct sr_policy_env *env, const struct sr_alloc_req *req)
{
	struct priv *p = priv;
	const char *path;
	uint32_t mask = SR_TIERS_ALL;
	int i;

	if (!p->n || !req->memcg)
		return SR_TIERS_ALL;
	if (p->cache[req->memcg])
		return p->cache[req->memcg];
	path = env->memcg_path(env, req->memcg);
	if (!path)
		return SR_TIERS_ALL; /* not named (yet): the root's */
	for (i = 0; i < p->n; i++)
		if (under(path, &p->a[i]))
			mask &= p->a[i].mask;
	p->cache[req->memcg] = mask; /* never 0: SR_TIER_NONE_BIT */
	return mask;
}

/* The kernel's list, as reclaimer-nid: the core keeps to the tiers. */
static void choose(void *priv, const struct sr_policy_env *env, const struct sr_alloc_req *req,
		   struct sr_alloc_choice *out)
{
	(void)priv;
	(void)env;
	out->node = req->cpu_nid;
	out->class_mask = SR_CLASS_ALL;
}

const struct sr_policy_ops sr_policy_tiers = {
	.abi = SR_POLICY_ABI,
	.name = "tiers",
	.description = "the swap tiers series: each memory cgroup's swap-outs on the tiers it may use (CGROUP=TIER+TIER;...), no fall-through",
	.init = init,
	.choose = choose,
	.finish = free,
	.tiers = tiers,
};
