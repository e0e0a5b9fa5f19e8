/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/event.h - the canonical swap event (traces/FORMAT.md).
 */
#ifndef SWAPREPLAY_EVENT_H
#define SWAPREPLAY_EVENT_H

#include <stdint.h>

/* Node ids are 0..SR_MAX_NODES-1: MAX_NUMNODES with CONFIG_NODES_SHIFT=10. */
#define SR_MAX_NODES 1024
/* A transparent huge page on x86-64: HPAGE_PMD_NR = 512 base pages. */
#define SR_MAX_NR_PAGES 512
/* Memory cgroup ids: the kernel's are an unsigned short from 1
 * (mem_cgroup_id(), MEM_CGROUP_ID_MAX = 65535 in include/linux/
 * memcontrol.h; 0 is no memcg). */
#define SR_MEMCG_MAX 65535u
/* The longest memcg path a trace may give, in bytes (PATH_MAX less its NUL). */
#define SR_MEMCG_PATH_MAX 4095u
/* Base page size assumed by every byte count: 4 KiB (x86-64 PAGE_SIZE). */
#define SR_PAGE_SIZE 4096u

enum sr_op {
	SR_OP_OUT = 0, /* swap-out: page written to swap */
	SR_OP_IN = 1,  /* swap-in: page read back on a fault */
	/* The task ops (traces/FORMAT.md, "Tasks"): not swap events, but what
	 * a replay needs to start, end and wait for tasks as they did. */
	SR_OP_FORK = 2, /* pid created the task named in child */
	SR_OP_EXIT = 3, /* task pid ended */
	SR_OP_WAIT = 4, /* pid resumed after waiting for the exit of child */
};
#define SR_OP_COUNT 5

/* Whether op is a task op (fork, exit, wait) rather than a swap event. */
static inline int sr_op_is_task(unsigned op)
{
	return op >= SR_OP_FORK;
}

/* Bits of sr_event.flags: which optional fields without a default were given. */
#define SR_EV_HAS_CPU    0x01u
#define SR_EV_HAS_OFFSET 0x02u
#define SR_EV_HAS_VADDR  0x04u
#define SR_EV_HAS_CHILD  0x08u /* fork and wait: child is given (and they need it) */
/* A swap-out's reclaim (traces/FORMAT.md): given, and if so whether it was
 * kswapd's (the node's kswapd thread) rather than direct (a task's, or its
 * memory cgroup's at its limit).  SR_EV_KSWAPD only with SR_EV_HAS_RECLAIM. */
#define SR_EV_HAS_RECLAIM 0x10u
#define SR_EV_KSWAPD      0x20u
/* A swap-in's fault: given, and if so whether it was a write fault
 * (FAULT_FLAG_WRITE) rather than a read fault.  SR_EV_WRITE_FAULT only
 * with SR_EV_HAS_FAULT.  Each value bit is its given bit << 1. */
#define SR_EV_HAS_FAULT   0x40u
#define SR_EV_WRITE_FAULT 0x80u

struct sr_event {
	uint64_t ts_ns;    /* event time, ns, any epoch */
	/* A swap event's slot, or a task op's child: a fork or a wait has no
	 * slot, and a swap event no child, so they share their bytes (the
	 * event stays 56 bytes).  At most one of SR_EV_HAS_OFFSET and
	 * SR_EV_HAS_CHILD is set; which one is meaningful follows op. */
	union {
		uint64_t offset; /* swap slot offset in pages (if SR_EV_HAS_OFFSET) */
		uint32_t child;  /* fork: the task created; wait: the task waited
				  * for (if SR_EV_HAS_CHILD) */
	};
	uint64_t lat_ns;   /* latency measured when recorded, 0 if unknown */
	uint64_t vaddr;    /* the page's virtual address in its task (if
			    * SR_EV_HAS_VADDR): the fault's for a swap-in */
	uint32_t pid;      /* task, 0 if unknown */
	uint32_t cpu;      /* CPU that issued the I/O (if SR_EV_HAS_CPU) */
	int32_t dev;       /* swap device index on the recorded machine, -1 unknown */
	uint32_t nr_pages; /* base pages: a power of two, 1..512 */
	uint16_t cpu_nid;  /* node of that CPU */
	uint16_t page_nid; /* node of the page's memory */
	uint8_t op;        /* enum sr_op */
	uint8_t flags;     /* SR_EV_HAS_* */
	/* A swap event's memory cgroup: the kernel's id of the page's memcg
	 * (mem_cgroup_id(), 1 to SR_MEMCG_MAX), 0 when unknown; a task op has
	 * none.  Its path, once per trace, is the reader's
	 * (sr_reader_memcgs(), traces/FORMAT.md "Memory cgroups"). */
	uint16_t memcg;
};

/* Set e to the defaults of every optional field (pid 0, dev -1, nr_pages 1...). */
void sr_event_init(struct sr_event *e);

/* "out", "in", "fork", "exit" or "wait". */
const char *sr_op_name(enum sr_op op);

#endif /* SWAPREPLAY_EVENT_H */
