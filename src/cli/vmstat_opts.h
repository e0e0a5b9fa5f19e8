/* SPDX-License-Identifier: MIT */
/*
 * The options of the commands that read traces for vmstat logs
 * (traces/FORMAT.md, "vmstat logs"): --vmstat-interval=SECONDS,
 * --cpu-node=N, --mem-node=N.  A command adds CLI_VMSTAT_OPTS to its
 * option table, passes every id to cli_vmstat_opt() and its help gets
 * CLI_VMSTAT_HELP.
 */
#ifndef SR_CLI_VMSTAT_OPTS_H
#define SR_CLI_VMSTAT_OPTS_H

#include "cli.h"

#define CLI_VMSTAT_OPT_BASE 900
#define CLI_VMSTAT_OPTS \
	{ "vmstat-interval", 0, CLI_ARG, CLI_VMSTAT_OPT_BASE }, \
	{ "cpu-node", 0, CLI_ARG, CLI_VMSTAT_OPT_BASE + 1 }, \
	{ "mem-node", 0, CLI_ARG, CLI_VMSTAT_OPT_BASE + 2 }

#define CLI_VMSTAT_HELP \
	"  --vmstat-interval=S   vmstat logs without -t: seconds between lines\n" \
	"                        (default 1)\n" \
	"  --cpu-node=N          vmstat logs: node of the CPUs (default 0)\n" \
	"  --mem-node=N          vmstat logs: node of the pages (default 0)\n"

/* Returns 1 if id is not one of these options, 0 when handled, or
 * EXIT_USAGE after printing the error. */
int cli_vmstat_opt(const char *cmd, int id, const char *val, struct sr_read_opts *ro);

/* Parse seconds with up to 9 decimals ("1", "0.5", "60") into ns, > 0 and
 * at most a year; 0 or -1. */
int cli_parse_seconds(const char *s, uint64_t *ns);

#endif /* SR_CLI_VMSTAT_OPTS_H */
