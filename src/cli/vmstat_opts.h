/* SPDX-License-Identifier: MIT */
/*
 * The options of the commands that read traces for vmstat logs
 * (traces/FORMAT.md, "vmstat logs"): --vmstat-interval=SECONDS,
 * --cpu-node=N|MIX, --mem-node=N|MIX (MIX: NODE:FRACTION,..., such as
 * 0:0.75,1:0.25), --tasks=N.  A command adds CLI_VMSTAT_OPTS to its
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
	{ "mem-node", 0, CLI_ARG, CLI_VMSTAT_OPT_BASE + 2 }, \
	{ "tasks", 0, CLI_ARG, CLI_VMSTAT_OPT_BASE + 3 }

#define CLI_VMSTAT_HELP \
	"  --vmstat-interval=S   vmstat logs: vmstat's delay, seconds (default:\n" \
	"                        the -t timestamps' smallest gap, else 1)\n" \
	"  --cpu-node=N|MIX      vmstat logs: node of the CPUs (default 0), or a\n" \
	"                        mix of nodes NODE:FRACTION,... such as\n" \
	"                        0:0.75,1:0.25 (at most 16, fractions adding up\n" \
	"                        to 1): the events are shared out accordingly\n" \
	"  --mem-node=N|MIX      vmstat logs: node of the pages (default 0), or a\n" \
	"                        mix as for --cpu-node\n" \
	"  --tasks=N             vmstat logs: share the events among N tasks, in\n" \
	"                        turn (default: one task per CPU node); with a\n" \
	"                        --cpu-node mix, in its proportions, at least one\n" \
	"                        per node\n"

/* Returns 1 if id is not one of these options, 0 when handled, or
 * EXIT_USAGE after printing the error. */
int cli_vmstat_opt(const char *cmd, int id, const char *val, struct sr_read_opts *ro);

/* Parse seconds with up to 9 decimals ("1", "0.5", "60") into ns, > 0 and
 * at most a year; 0 or -1. */
int cli_parse_seconds(const char *s, uint64_t *ns);

/* Tolerance on the sum of a mix's fractions (as the reader's). */
#define CLI_NODE_MIX_TOLERANCE 1e-6

/* Parse a node mix "NODE:FRACTION,..." (nodes 0 to SR_MAX_NODES - 1 and
 * distinct, fractions decimals in (0, 1] adding up to 1 within
 * CLI_NODE_MIX_TOLERANCE, at most SR_NODE_MIX_MAX entries) into *mix (the
 * fractions as given: the reader normalises them); 0, or -1 with why
 * saying what is wrong. */
int cli_parse_node_mix(const char *s, struct sr_node_mix *mix, char *why, size_t why_len);

#endif /* SR_CLI_VMSTAT_OPTS_H */
