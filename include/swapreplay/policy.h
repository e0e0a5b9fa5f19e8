/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/policy.h - swap device selection policies.
 *
 * A policy decides, for each swap slot allocation, whose per-node priority
 * list the kernel walks (swap_avail_heads[node] in mm/swapfile.c), optionally
 * restricted to some device classes, or names a device directly.  The core
 * then does what the kernel does with that list: the highest priority first,
 * devices of equal priority in turn, full devices skipped.
 *
 * Built-in policies live in policies/, one file each, and are listed in
 * src/mm/policy.c.  An out-of-tree policy is a shared object built against
 * this header that defines
 *
 *	SR_POLICY_EXPORT(my_ops);
 *
 * and is loaded with --policy=./my_policy.so (see policies/README.md).
 */
#ifndef SWAPREPLAY_POLICY_H
#define SWAPREPLAY_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "swapreplay/event.h"
#include "swapreplay/machine.h"

/* Bumped whenever a structure below changes; a shared object built for
 * another version is refused.  2: the allocation's memcg, the env's
 * memcg_path(), the ops' tiers(). */
#define SR_POLICY_ABI 2

/* The longest policy given, NAME[:PARAMS] (a tiers assignment is long). */
#define SR_POLICY_SPEC_MAX 512

/* Class masks for sr_alloc_choice.class_mask. */
#define SR_CLASS_BIT(c) (1u << (c))
#define SR_CLASS_ALL 0u
#define SR_CLASS_MEMLIKE (SR_CLASS_BIT(SR_DEV_PMEM) | SR_CLASS_BIT(SR_DEV_ZRAM))
#define SR_CLASS_DMA (SR_CLASS_BIT(SR_DEV_NVME) | SR_CLASS_BIT(SR_DEV_SSD) | \
		      SR_CLASS_BIT(SR_DEV_HDD))

/* One allocation of swap slots, as the kernel's get_swap_pages() sees it. */
struct sr_alloc_req {
	uint64_t ts_ns;
	uint32_t pid;
	uint32_t cpu;       /* allocating CPU (the event's, or one derived from the pid) */
	uint16_t cpu_nid;   /* numa_node_id() of the allocating CPU */
	uint16_t page_nid;  /* page_to_nid() of the folio being swapped out */
	uint32_t nr_pages;  /* folio size in base pages */
	int via_cache;      /* 1: a batch for the CPU: refilling its slots cache
			     * (64 order-0 slots, kernels 4.11-6.14) or taking
			     * it a new cluster (6.15 on); 0: a direct
			     * allocation (huge page, cache off or absent) */
	uint16_t memcg;     /* the folio's memory cgroup, mem_cgroup_id() as the
			     * trace gives it; 0 unknown (env->memcg_path()) */
};

struct sr_alloc_choice {
	int node;           /* walk this node's priority list, or -1: use device */
	int device;         /* with node == -1: a device index */
	unsigned class_mask;/* with node >= 0: only these classes (0: all) */
};

/* What the core lends a policy; valid from init to finish. */
struct sr_policy_env {
	const struct sr_machine *machine;
	/* The device that walking node's list (restricted to class_mask)
	 * would give now, without taking it; -1 if none has room. */
	int (*peek)(const struct sr_policy_env *env, int node, unsigned class_mask,
		    uint32_t nr_pages);
	/* The same, but the walk counts as done: devices of equal priority
	 * take their turns (plist_requeue) as if the allocation were made
	 * from that list.  For a policy that looks at one list and then
	 * decides, so that the list's turns go on as the kernel's would. */
	int (*advance)(const struct sr_policy_env *env, int node, unsigned class_mask,
		       uint32_t nr_pages);
	void *core; /* the core's, not to be touched */
	/* The path the trace gives memory cgroup memcg ("/a.slice/x"), or
	 * NULL: none given (yet: a trace names a memcg once, on any of its
	 * events), or memcg 0. */
	const char *(*memcg_path)(const struct sr_policy_env *env, unsigned memcg);
};

struct sr_policy_ops {
	unsigned abi;             /* SR_POLICY_ABI */
	const char *name;         /* as given to --policy= */
	const char *description;  /* one line */
	/* Optional.  params is the text after "NAME:" (or NULL).  On failure
	 * return -1 with a message in err. */
	int (*init)(const struct sr_policy_env *env, const char *params, void **priv,
		    char *err, size_t errsize);
	/* Required: the decision for one allocation. */
	void (*choose)(void *priv, const struct sr_policy_env *env,
		       const struct sr_alloc_req *req, struct sr_alloc_choice *out);
	/* Optional: every event of the trace, in replay order, before it is
	 * replayed. */
	void (*on_event)(void *priv, const struct sr_event *ev);
	/* Optional: free priv. */
	void (*finish)(void *priv);
	/* Optional: the swap tiers (env->machine->tier[]) this allocation's
	 * memory cgroup may use, bit i for tier i; SR_TIERS_ALL: every one.
	 * A device in no tier is always allowed (SR_TIER_NONE_BIT).  The
	 * core then follows the swap tiers series (docs/MODEL.md, "Swap
	 * tiers"): the CPU's current cluster is used only when its device is
	 * allowed, every walk (the policy's peek() and advance() too) skips
	 * the others, and when no allowed device has room the swap-out fails,
	 * never falling through to another tier.  Taken on kernels with
	 * per-CPU clusters (6.15 on), where the series is. */
	uint32_t (*tiers)(void *priv, const struct sr_policy_env *env,
			  const struct sr_alloc_req *req);
};

/* The symbol a shared-object policy exports. */
#define SR_POLICY_SYMBOL "swapreplay_policy"
#define SR_POLICY_EXPORT(ops) \
	__attribute__((visibility("default"))) \
	const struct sr_policy_ops *const swapreplay_policy = &(ops)

/* The built-in policies, NULL-terminated. */
const struct sr_policy_ops *const *sr_policy_builtins(void);
/* The built-ins that --policy=all means: all but the example (fixed-node),
 * NULL-terminated. */
const struct sr_policy_ops *const *sr_policy_all(void);
/* A built-in by exact name, or NULL. */
const struct sr_policy_ops *sr_policy_find(const char *name);

#endif /* SWAPREPLAY_POLICY_H */
