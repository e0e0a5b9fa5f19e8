/* SPDX-License-Identifier: MIT */
/* swapreplay gen WORKLOAD -o FILE */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "readahead_opts.h"
#include "swapreplay/machine.h"
#include "swapreplay/gen.h"
#include "swapreplay/trace.h"

#define BATCH 4096

enum {
	O_OUT = 1, O_TO, O_ZSTD, O_TASKS, O_JOBS, O_RTASKS, O_RSIZE, O_SIZE, O_LIMIT, O_ACCESSES,
	O_CPU_NODE, O_MEM_NODE, O_CPN, O_ACCESS_NS, O_SEED, O_FIXED, O_MACHINE,
	O_KERNEL, O_THP, O_THP_SIZE, O_THP_SWAPIN, O_RECLAIM_BATCH, O_RECLAIM, O_QUIET,
	O_MEMCG,
};

static const struct cli_opt opts[] = {
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "to", 0, CLI_ARG, O_TO },
	{ "zstd", 0, CLI_OPTARG, O_ZSTD },
	{ "tasks", 0, CLI_ARG, O_TASKS },
	{ "jobs", 'j', CLI_ARG, O_JOBS },
	{ "random-tasks", 0, CLI_ARG, O_RTASKS },
	{ "random-size", 0, CLI_ARG, O_RSIZE },
	{ "size", 0, CLI_ARG, O_SIZE },
	{ "limit", 0, CLI_ARG, O_LIMIT },
	{ "accesses", 0, CLI_ARG, O_ACCESSES },
	{ "cpu-node", 0, CLI_ARG, O_CPU_NODE },
	{ "mem-node", 0, CLI_ARG, O_MEM_NODE },
	{ "cpus-per-node", 0, CLI_ARG, O_CPN },
	{ "access-ns", 0, CLI_ARG, O_ACCESS_NS },
	{ "seed", 0, CLI_ARG, O_SEED },
	{ "fixed-time", 0, CLI_NOARG, O_FIXED },
	{ "machine", 'm', CLI_ARG, O_MACHINE },
	{ "kernel", 0, CLI_ARG, O_KERNEL },
	{ "thp", 0, CLI_ARG, O_THP },
	{ "thp-size", 0, CLI_ARG, O_THP_SIZE },
	{ "reclaim-batch", 0, CLI_ARG, O_RECLAIM_BATCH },
	{ "reclaim", 0, CLI_ARG, O_RECLAIM },
	{ "thp-swapin", 0, CLI_ARG, O_THP_SWAPIN },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ "memcg", 0, CLI_ARG, O_MEMCG },
	CLI_RA_OPTS,
	{ NULL, 0, 0, 0 },
};

/* A whole number up to max for option name; 0 or a usage error's status. */
static int num(const char *name, const char *val, uint64_t max, uint64_t *out)
{
	if (cli_parse_u64(val, max, out))
		return cli_usage("gen", "--%s takes a whole number (at most %llu), not '%s'",
				 name, (unsigned long long)max, val);
	return 0;
}

static int node(const char *name, const char *val, uint32_t *out)
{
	uint64_t u;

	if (cli_parse_u64(val, SR_MAX_NODES - 1, &u))
		return cli_usage("gen", "--%s takes a node id from 0 to %u, not '%s'",
				 name, SR_MAX_NODES - 1, val);
	*out = (uint32_t)u;
	return 0;
}

static int u32(const char *name, const char *val, uint32_t *out)
{
	uint64_t u = 0;
	int rc = num(name, val, UINT32_MAX, &u);

	*out = (uint32_t)u;
	return rc;
}

/* A share from 0 to 1, as a decimal number ("0.25", "1"). */
static int share(const char *name, const char *val, double *out)
{
	char *end;
	double v;

	if (val[0] >= '0' && val[0] <= '9') {
		v = strtod(val, &end);
		if (*end == 0 && isfinite(v) && v >= 0 && v <= 1) {
			*out = v;
			return 0;
		}
	} else if (val[0] == '.' && val[1] >= '0' && val[1] <= '9') {
		v = strtod(val, &end);
		if (*end == 0 && v <= 1) {
			*out = v;
			return 0;
		}
	}
	return cli_usage("gen", "--%s takes a share from 0 to 1 (such as 0.5), not '%s'",
			 name, val);
}

static int bytes(const char *name, const char *val, uint64_t *out)
{
	if (cli_parse_size(val, out))
		return cli_usage("gen", "--%s takes " CLI_SIZE_TAKES ", not '%s'", name, val);
	return 0;
}

/*
 * --memcg=PATH[:N][,PATH[:N]...] into gp (sr_gen_params.memcgs), in *buf
 * (a copy of val the groups point into) and *groups, which the caller
 * frees: 0, or a usage error's exit status.
 */
static int parse_memcgs(const char *val, struct sr_gen_params *gp, char **buf,
			struct sr_gen_memcg **groups)
{
	char *s, *tok, *save = NULL;
	uint32_t n = 0;

	*buf = strdup(val);
	*groups = calloc(SR_GEN_MAX_MEMCGS, sizeof(**groups));
	if (!*buf || !*groups) {
		cli_err("out of memory");
		return EXIT_FAIL;
	}
	for (s = *buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		char *colon = strrchr(tok, ':');
		uint64_t k = 0;

		if (n == SR_GEN_MAX_MEMCGS)
			return cli_usage("gen", "--memcg: at most %u groups", SR_GEN_MAX_MEMCGS);
		if (colon) {
			*colon = '\0';
			if (cli_parse_u64(colon + 1, UINT32_MAX, &k) || !k)
				return cli_usage("gen", "--memcg: '%s' is no count of tasks (PATH:N, N "
						 "at least 1)", colon + 1);
		}
		(*groups)[n].path = tok;
		(*groups)[n++].tasks = (uint32_t)k;
	}
	if (!n)
		return cli_usage("gen", "--memcg takes PATH[:N][,PATH[:N]...], not '%s'", val);
	gp->memcgs = *groups;
	gp->nmemcgs = n;
	return 0;
}

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_gen_params gp;
	struct sr_write_opts wo = { .format = SR_FMT_AUTO };
	struct sr_machine *m = NULL;
	const char *machine = NULL;
	struct sr_gen *g = NULL;
	struct sr_writer *w = NULL;
	struct sr_event *evs = NULL;
	struct sr_diag d;
	const char *workload = NULL, *out = NULL, *val, *memcg = NULL;
	char *memcg_buf = NULL;
	struct sr_gen_memcg *groups = NULL;
	int id, level = -1, rc = 0;
	enum sr_err err;

	sr_gen_params_init(&gp);
	cli_parser_init(&p, argc, argv, opts);
	while (!rc && (id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			return cli_usage("gen", "%s", p.err);
		case 0:
			if (workload)
				return cli_usage("gen", "too many arguments ('%s')", val);
			workload = val;
			break;
		case O_OUT:
			out = val;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		case O_TO:
			if (cli_opt_to("gen", val, &wo.format))
				return EXIT_USAGE;
			break;
		case O_ZSTD:
			if (cli_opt_zstd("gen", val, &level))
				return EXIT_USAGE;
			break;
		case O_TASKS:
			rc = u32("tasks", val, &gp.tasks);
			break;
		case O_JOBS:
			rc = u32("jobs", val, &gp.jobs);
			break;
		case O_SIZE:
			rc = bytes("size", val, &gp.size);
			break;
		case O_RTASKS:
			rc = u32("random-tasks", val, &gp.random_tasks);
			break;
		case O_RSIZE:
			rc = bytes("random-size", val, &gp.random_size);
			break;
		case O_LIMIT:
			rc = bytes("limit", val, &gp.limit);
			break;
		case O_ACCESSES:
			rc = num("accesses", val, UINT64_MAX, &gp.accesses);
			if (!rc && gp.accesses == 0)
				return cli_usage("gen", "--accesses must be at least 1");
			break;
		case O_CPU_NODE:
			rc = node("cpu-node", val, &gp.cpu_node);
			break;
		case O_MEM_NODE:
			rc = node("mem-node", val, &gp.mem_node);
			break;
		case O_CPN:
			rc = u32("cpus-per-node", val, &gp.cpus_per_node);
			break;
		case O_ACCESS_NS:
			rc = num("access-ns", val, UINT64_MAX, &gp.access_ns);
			break;
		case O_SEED:
			rc = num("seed", val, UINT64_MAX, &gp.seed);
			break;
		case O_FIXED:
			gp.exp_time = 0;
			break;
		case O_MACHINE:
			machine = val;
			break;
		case O_KERNEL: {
			struct sr_kernel k;

			if (sr_kernel_parse(val, &k, &d))
				return cli_usage("gen", "%s", d.msg);
			gp.kernel = val;
			break;
		}
		case O_THP:
			rc = share("thp", val, &gp.thp);
			break;
		case O_THP_SIZE: {
			uint64_t b = 0;

			rc = bytes("thp-size", val, &b);
			if (!rc && (b < 8192 || b > 2097152 || (b & (b - 1))))
				return cli_usage("gen", "--thp-size takes a power of two from 8K to 2M, not '%s'",
						 val);
			gp.thp_pages = (uint32_t)(b / SR_PAGE_SIZE);
			break;
		}
		case O_RECLAIM_BATCH: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(val, &end, 10);
			if (errno || end == val || *end || v < 1 || v > 512)
				return cli_usage("gen", "--reclaim-batch takes 1 to 512 pages, not '%s'",
						 val);
			gp.reclaim_batch = (uint32_t)v;
			break;
		}
		case O_RECLAIM:
			if (!strcmp(val, "memcg"))
				gp.reclaim = SR_GEN_RECLAIM_MEMCG;
			else if (!strcmp(val, "global"))
				gp.reclaim = SR_GEN_RECLAIM_GLOBAL;
			else
				return cli_usage("gen", "--reclaim takes memcg or global, not '%s'", val);
			break;
		case O_MEMCG:
			memcg = val;
			break;
		case O_THP_SWAPIN:
			if (sr_gen_thp_swapin_parse(val, &gp.thp_swapin))
				return cli_usage("gen", "--thp-swapin takes whole or split, not '%s'", val);
			break;
		default:
			if (id == CLI_RA_OPT_MEMORY)
				return cli_usage("gen", "--memory is the replay's: gen's memory is --limit");
			rc = cli_ra_opt("gen", id, val, &gp.ra);
			if (rc == 1)
				return cli_usage("gen", "unexpected option");
			if (!rc && id == CLI_RA_OPT_MODE && gp.ra.mode == SR_RA_AUTO)
				return cli_usage("gen", "--readahead takes off, cluster or vma here (gen models no kernel's choice)");
			break;
		}
	}
	if (rc)
		return rc;
	if (!workload)
		return cli_usage("gen", "needs a workload: swap-w-rand, swap-w-seq, swapin or kbuild");
	if (sr_gen_workload_parse(workload, &gp.workload))
		return cli_usage("gen", "unknown workload '%s'; the workloads are swap-w-rand, swap-w-seq, swapin and kbuild",
				 workload);
	if (!out)
		return cli_usage("gen", "needs an output file: -o FILE ('-' for standard output)");
	if (cli_output_format("gen", out, level, &wo))
		return EXIT_USAGE;
	wo.vaddr = 1; /* every event has its page's address */
	wo.tasks = gp.workload == SR_GEN_KBUILD; /* make's forks, exits and waits */
	/* Every swap-out says its reclaim (direct), every swap-in its fault. */
	wo.reclaim = 1;
	wo.fault = 1;
	cli_ra_warn_unused(&gp.ra, (gp.ra.mode == SR_RA_CLUSTER || gp.ra.mode == SR_RA_VMA) &&
			   gp.ra.page_cluster ? gp.ra.mode : SR_RA_OFF,
			   "gen's default: --readahead=cluster or vma turns it on");

	if (machine) {
		err = sr_machine_load(&m, machine, &d);
		if (err)
			return cli_diag(&d);
		cli_machine_notes(m);
		if (gp.cpu_node >= (uint32_t)m->nr_nodes || gp.mem_node >= (uint32_t)m->nr_nodes) {
			cli_usage("gen", "machine %s has %d node(s): --cpu-node and --mem-node must be below",
				  m->name, m->nr_nodes);
			sr_machine_free(m);
			return EXIT_USAGE;
		}
		/* Recorded where the format has a header for it (.swt). */
		if (wo.format == SR_FMT_SWT)
			wo.machine_json = m->json;
		gp.machine = m;
	}
	{
		const char *in[1] = { machine };

		rc = cli_check_output(out, in, machine ? 1 : 0);
		if (rc) {
			sr_machine_free(m);
			return rc;
		}
	}
	if (memcg && (rc = parse_memcgs(memcg, &gp, &memcg_buf, &groups)))
		goto out;
	/* Check the parameters before any file is created. */
	err = sr_gen_open(&g, &gp, &d);
	if (err == SR_ERR_INVAL || err == SR_ERR_LIMIT) {
		rc = cli_usage("gen", "%s", d.msg);
		goto out;
	}
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	/* The events name their memcgs: the paths go with them. */
	wo.memcg = gp.nmemcgs != 0;
	wo.memcgs = sr_gen_memcgs(g);
	evs = malloc(BATCH * sizeof(*evs));
	if (!evs) {
		cli_err("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	err = sr_writer_open(&w, out, &wo, &d);
	if (err) {
		rc = cli_diag(&d);
		goto out;
	}
	for (;;) {
		size_t n;

		enum sr_err gerr = sr_gen_next(g, evs, BATCH, &n, &d);

		if (gerr) {
			sr_writer_abort(w);
			rc = cli_diag(&d);
			goto out;
		}
		if (!n)
			break;
		err = sr_writer_write(w, evs, n, &d);
		if (err) {
			sr_writer_abort(w);
			rc = cli_diag(&d);
			goto out;
		}
	}
	err = sr_writer_finish(w, &d);
	rc = err ? cli_diag(&d) : EXIT_OK;
out:
	sr_gen_free(g);
	sr_machine_free(m);
	free(evs);
	free(memcg_buf);
	free(groups);
	return rc;
}

const struct cli_cmd cmd_gen = {
	.name = "gen",
	.summary = "generate a synthetic swap trace (vm-scalability-like workloads)",
	.help =
	"Usage: swapreplay gen WORKLOAD -o FILE [OPTIONS]\n"
	"\n"
	"Simulate tasks writing anonymous memory under a memory limit (a memory\n"
	"cgroup: the task that needs a page reclaims one itself) with one global LRU\n"
	"list, and write the swap-outs and swap-ins to FILE ('-' for standard\n"
	"output), in time order.  The same options (seed included) give the same\n"
	"bytes.  FILE appears only when it is complete.\n"
	"\n"
	"Workloads (after vm-scalability's usemem cases):\n"
	"  swap-w-rand  each task writes random pages of its own region\n"
	"               (case-swap-w-rand): uniform, from a seeded xoshiro256**\n"
	"  swap-w-seq   each task writes its region in order, wrapping around\n"
	"  swapin       the tasks fill their regions; a pusher task (pid 999)\n"
	"               allocates --limit bytes, pushing their pages out, and\n"
	"               exits; the tasks then read all their pages back in order\n"
	"  kbuild       a make -jN: --jobs tasks run at once, each touching random\n"
	"               pages of its own region --accesses times and exiting (its\n"
	"               memory and swap slots freed), the next task starting in\n"
	"               its place, until --tasks have run; pressure grows with N.\n"
	"               make (pid 998) forks each job, waits for its exit and\n"
	"               forks the next: the trace's fork, exit and wait ops\n"
	"\n"
	"Options:\n"
	"  -o, --output=FILE     the trace to write (required)\n"
	"  --to=FORMAT           csv, jsonl or swt; default: from FILE's name\n"
	"                        (.csv, .jsonl, .swt, each optionally .zst)\n"
	"  --zstd[=LEVEL]        compress with zstd (level 1-19, default 3); a FILE\n"
	"                        ending in .zst is compressed at level 3 anyway\n"
	"  --tasks=N             tasks, pids 1000..1000+N-1 (default 32)\n"
	"  -j, --jobs=N          kbuild: tasks running at once (default 4)\n"
	"  --random-tasks=M      swap-w-seq: M more tasks at once writing random pages\n"
	"                        of their own regions of --random-size bytes (pids\n"
	"                        after the sequential ones): a mix of sequential and\n"
	"                        random swappers, as in VMA readahead's measurement\n"
	"  --random-size=BYTES   their regions (required with --random-tasks)\n"
	"  --size=BYTES          each task's region (default 64M); K, M, G, T are\n"
	"                        powers of 1024; a whole number of 4 KiB pages\n"
	"  --limit=BYTES         memory limit (default 1G); swap-w-*: must be below\n"
	"                        tasks x size; swapin: what the pusher allocates\n"
	"  --accesses=N          page accesses per task, swap-w-* and kbuild only\n"
	"                        (default: 2 x the pages of its region)\n"
	"  --cpu-node=N          node of the tasks' CPUs (default 0)\n"
	"  --mem-node=N          node of their memory (default 1)\n"
	"  --cpus-per-node=C     CPUs per node (default 32): task i (from 0) runs on\n"
	"                        CPU cpu-node x C + i mod C; the pusher as i = N\n"
	"  --access-ns=N         mean compute time of one access, ns (default 100: a\n"
	"                        DRAM random read, ~101.5 ns in Yang et al., FAST'20);\n"
	"                        each access takes an exponentially distributed time\n"
	"                        of that mean, so that tasks drift apart as real ones do\n"
	"  --fixed-time          every access takes exactly --access-ns instead\n"
	"  -m, --machine=M       the machine (a preset or a description file) whose\n"
	"                        swap devices the slots are on (default: the replay's\n"
	"                        default preset); recorded in the header of a binary\n"
	"                        (.swt) output, the replay's machine for this trace\n"
	"  -q, --quiet           no warnings on standard error (settings the\n"
	"                        generation leaves out)\n"
	"  --kernel=VERSION      the kernel whose allocator gives the slots, MAJOR.MINOR\n"
	"                        (default " SR_KERNEL_DEFAULT ")\n"
	"  --seed=N              PRNG seed (default 1)\n"
	"  --thp=SHARE           share of each task's region, in aligned units of\n"
	"                        --thp-size, mapped by transparent huge pages (0 to 1,\n"
	"                        default 0; the units spread evenly).  A huge page is\n"
	"                        one LRU entry, made resident and swapped out whole:\n"
	"                        one event of all its pages taking that many aligned\n"
	"                        slots (a whole cluster for 2M), or split into its\n"
	"                        pages where the kernel would split it.  --limit must\n"
	"                        then hold one\n"
	"  --reclaim-batch=N     pages a task's direct reclaim frees at once, 1 to 512\n"
	"                        (default 32, the kernel's SWAP_CLUSTER_MAX; a huge\n"
	"                        page frees at least its own): the batch's\n"
	"                        swap-outs come together, one reclaim pass; the next\n"
	"                        faults use the room (memcg reclaim only)\n"
	"  --reclaim=MODE        who reclaims: memcg (the default: the limit is a\n"
	"                        memory cgroup's, the task that needs a page reclaims)\n"
	"                        or global (the limit is the node's memory with the\n"
	"                        kernel's watermarks: below low kswapd, pid 997, is\n"
	"                        woken and reclaims passes of 32 pages at its own pace\n"
	"                        to high; below min the task reclaims passes itself;\n"
	"                        the swap-outs say which, and a swap-in's lat_ns is\n"
	"                        its fault's estimated wait, in its task's clock)\n"
	"  --memcg=PATH[:N][,PATH[:N]...]  the tasks' memory cgroups: each group\n"
	"                        of N tasks (in pid order: the tasks, then the random\n"
	"                        ones; the last group without N, the rest, and the\n"
	"                        pusher) in the memcg of that path (from '/'; ids 1,\n"
	"                        2, ... in the list's order).  Each swap event names\n"
	"                        its page's memcg (the owner's, not the reclaimer's)\n"
	"                        and the trace each path once.  The memcgs share\n"
	"                        --limit (children of the cgroup it limits, with no\n"
	"                        limit of their own) and one LRU list (default: none,\n"
	"                        the events name no memcg)\n"
	"  --thp-size=BYTES      a huge page's size: 2M (the default: a PMD) or a\n"
	"                        smaller power of two down to 8K (mTHP folios)\n"
	"  --thp-swapin=MODE     how a swapped-out huge page comes back: whole (the\n"
	"                        default: one event of 512 pages) or split (split at\n"
	"                        its first touch, then swapped in as 4 KiB pages, as\n"
	"                        mainline kernels' swap-in faults do for a PMD THP)\n"
	"  --readahead=off|cluster|vma  swap-in readahead in the simulation (default\n"
	"                        off): a fault on a swapped-out page also brings in\n"
	"                        the window of slots around its slot (cluster) or of\n"
	"                        the task's pages around its address (vma), as the\n"
	"                        replay's --readahead reads it (the same code); those\n"
	"                        pages are resident and take memory under the limit,\n"
	"                        a touch of one is a swap-in (recorded) with no read,\n"
	"                        and one reclaimed untouched keeps its slot, with no\n"
	"                        swap-out.  --page-cluster, --readahead-window and\n"
	"                        --readahead-holes as for replay\n"
	"\n"
	"Each task has a clock from 0 that each access advances (see --access-ns);\n"
	"tasks interleave in clock order.  A first touch makes a page\n"
	"resident without an event; an access to a swapped-out page is a swap-in by\n"
	"that task.  A page becoming resident over the limit first swaps out the\n"
	"least recently used page of any task: a swap-out by the same task, at the\n"
	"same time.  Swap slots are the kernel's: the replay's model of its slot\n"
	"allocator and of its choice of device (reclaimer-nid, from --cpu-node) on\n"
	"the machine, for --kernel (docs/MODEL.md, \"Slots\"); a swap-in carries its\n"
	"swap-out's device and offset and frees them.  A huge page with no free\n"
	"cluster is split and swapped out as its 512 pages, as the kernel does.  The\n"
	"generation stops with an error if the machine's swap fills up.  Events\n"
	"have nr_pages 1 (a huge page's pages for one) and lat_ns 0:\n"
	"I/O time is not modelled, the clocks count compute time only, and a replay\n"
	"takes the gaps between a task's events as its compute time.  Every\n"
	"swap-out's reclaim is direct (there is no kswapd); a swap-in's fault is a\n"
	"write fault (the accesses are stores: swap-w-*, kbuild's jobs, swapin's\n"
	"fill), a read fault in swapin's read-back.  In swapin the\n"
	"pusher starts when the last task has filled its region and the tasks resume\n"
	"when it exits; if tasks x size is over --limit, the fill itself swaps out\n"
	"(by the tasks) and so does the read-back.  The generator needs about 17\n"
	"bytes per simulated page (21 with --thp) and at most 2^28 pages (1 TiB) in\n"
	"all.  The exact model: include/swapreplay/gen.h.\n",
	.run = run,
};
