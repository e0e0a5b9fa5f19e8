/* SPDX-License-Identifier: MIT */
/*
 * The readahead options of replay and sweep (docs/MODEL.md, "Readahead and
 * the swap cache"): --readahead, --page-cluster, --readahead-window,
 * --readahead-holes, --memory.  A command adds CLI_RA_OPTS to its option
 * table, passes every id to cli_ra_opt() and its help gets CLI_RA_HELP.
 */
#ifndef SR_CLI_READAHEAD_OPTS_H
#define SR_CLI_READAHEAD_OPTS_H

#include "cli.h"

enum {
	CLI_RA_OPT_MODE = 950, CLI_RA_OPT_PAGE_CLUSTER, CLI_RA_OPT_WINDOW, CLI_RA_OPT_HOLES,
	CLI_RA_OPT_MEMORY,
};
#define CLI_RA_OPTS \
	{ "readahead", 0, CLI_ARG, CLI_RA_OPT_MODE }, \
	{ "page-cluster", 0, CLI_ARG, CLI_RA_OPT_PAGE_CLUSTER }, \
	{ "readahead-window", 0, CLI_ARG, CLI_RA_OPT_WINDOW }, \
	{ "readahead-holes", 0, CLI_ARG, CLI_RA_OPT_HOLES }, \
	{ "memory", 0, CLI_ARG, CLI_RA_OPT_MEMORY }

#define CLI_RA_HELP \
	"  --readahead=MODE      swap-in readahead: auto (default: the kernel's\n" \
	"                        choice: vma from 4.14 unless an hdd is swapped on,\n" \
	"                        else cluster), off, cluster (by swap offset: the\n" \
	"                        window around the fault's slot is read into the\n" \
	"                        swap cache) or vma (by virtual address: the task's\n" \
	"                        pages around the fault's vaddr; a swap-in without\n" \
	"                        one reads none ahead); none on pmem and zram from\n" \
	"                        4.15\n" \
	"  --page-cluster=N      readahead window of at most 2^N slots (default 3;\n" \
	"                        0: no readahead; at most 10; vma: at most 2^5)\n" \
	"  --readahead-window=W  cluster: adaptive (default, 3.14 on) or fixed (2^N\n" \
	"                        every time)\n" \
	"  --readahead-holes=H   cluster: skip free slots in the window (default, 3.4\n" \
	"                        on) or stop at them (the run of used slots around\n" \
	"                        the fault)\n" \
	"  --memory=BYTES        the workload's memory (its cgroup limit): a page read\n" \
	"                        ahead and not used before reclaim has taken the\n" \
	"                        inactive list's worth of pages is reclaimed (default:\n" \
	"                        unknown, kept until used)\n" \
	"                        A window of fixed or holes of stop with readahead\n" \
	"                        that is not cluster (auto's vma, or none on pmem\n" \
	"                        and zram alone), and --memory or --page-cluster\n" \
	"                        with none, are not used: a warning says so\n"

/* Returns 1 if id is not one of these options, 0 when handled (into *ra),
 * or EXIT_USAGE after printing the error. */
int cli_ra_opt(const char *cmd, int id, const char *val, struct sr_readahead_opts *ra);

/*
 * Warn (cli_warn) of the settings of ra that the readahead in effect
 * leaves out: --readahead-window=fixed and --readahead-holes=stop are
 * cluster readahead's alone (VMA readahead's window is the kernel's
 * adaptive one, and it reads the task's swapped-out pages, no run of
 * slots), and without readahead --memory and --page-cluster do nothing.
 * resolved is the mode in effect (SR_RA_CLUSTER, SR_RA_VMA or SR_RA_OFF);
 * auto_why says what chose it when ra->mode is SR_RA_AUTO.
 */
void cli_ra_warn_unused(const struct sr_readahead_opts *ra, enum sr_ra_mode resolved,
			const char *auto_why);

/* The same for replay rp, set up with ra on kernel k and machine m (after
 * sr_replay_new(): the mode in effect is rp's, resolved against
 * its kernel and machine; none at all when every device of m skips it). */
void cli_ra_warn_replay(const struct sr_readahead_opts *ra, const struct sr_replay *rp,
			const struct sr_kernel *k, const struct sr_machine *m);

#endif /* SR_CLI_READAHEAD_OPTS_H */
