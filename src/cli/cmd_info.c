/* SPDX-License-Identifier: MIT */
/* swapreplay policies / swapreplay machines */
#include <string.h>

#include "cli.h"
#include "swapreplay/machine.h"
#include "swapreplay/policy.h"

static int run_policies(int argc, char **argv)
{
	const struct sr_policy_ops *const *b = sr_policy_builtins();
	int i;

	(void)argv;
	if (argc > 1)
		return cli_usage("policies", "takes no arguments");
	for (i = 0; b[i]; i++)
		printf("%-16s %s\n", b[i]->name, b[i]->description);
	return EXIT_OK;
}

const struct cli_cmd cmd_policies = {
	.name = "policies",
	.summary = "list the built-in policies",
	.help =
	"Usage: swapreplay policies\n"
	"\n"
	"List the built-in swap device selection policies with a line on each.\n"
	"Out-of-tree policies are shared objects: see policies/README.md.\n",
	.run = run_policies,
};

static void show(const struct sr_machine *m)
{
	unsigned fit;
	int i, j;

	printf("name:          %s\n", m->name);
	printf("description:   %s\n", m->description);
	printf("nodes:         %d (", m->nr_nodes);
	for (i = 0; i < m->nr_nodes; i++)
		printf("%s%d CPUs", i ? ", " : "", m->cpus_per_node[i]);
	printf(")\ndistance:     ");
	for (i = 0; i < m->nr_nodes; i++) {
		printf(" [");
		for (j = 0; j < m->nr_nodes; j++)
			printf("%s%d", j ? " " : "", m->distance[i][j]);
		printf("]");
	}
	printf("\ninterconnect:  %.2f GB/s per direction, +%.0f ns\n", m->link_bw / 1e9,
	       m->link_lat_ns);
	printf("DRAM copy:     read %.3f/%.3f GB/s, write %.3f/%.3f GB/s per thread (local/remote)\n",
	       m->dram_rd_local / 1e9, m->dram_rd_remote / 1e9, m->dram_wr_local / 1e9,
	       m->dram_wr_remote / 1e9);
	printf("CPU:           reclaim %.0f ns per folio + %.0f ns per page, swap-in fault %.0f ns,\n"
	       "               +%.0f ns to submit to a remote device\n",
	       m->reclaim_ns, m->reclaim_page_ns, m->fault_ns, m->remote_submit_ns);
	fit = sr_machine_fitted(m);
	printf("locks:         si->lock %.0f ns per allocation%s + %.0f ns per slot;\n"
	       "               LRU %.0f ns per page reclaimed%s, %.0f ns per page swapped in (a refault)%s;\n"
	       "               before 4.11: si->lock %.0f ns per other swap-map update, swap cache\n"
	       "               tree lock %.0f ns per hold%s\n",
	       m->swap_lock_ns, fit & SR_FIT_SWAP_LOCK ? " (fitted)" : "", m->swap_slot_ns,
	       m->lru_lock_ns, fit & SR_FIT_LRU_LOCK ? " (fitted)" : "", m->lru_refault_ns,
	       fit & SR_FIT_LRU_REFAULT ? " (fitted)" : "", m->swap_lock_other_ns,
	       m->swap_cache_lock_ns, fit & SR_FIT_SWAP_CACHE_LOCK ? " (fitted)" : "");
	for (i = 0; i < m->nr_devices; i++) {
		const struct sr_device *d = &m->dev[i];

		printf("device %d:      %s, %s, node %d, priority ", i, d->name,
		       sr_dev_class_name(d->cls), d->node);
		if (d->prio_auto)
			printf("auto");
		else
			printf("%d", d->prio);
		printf(", %llu pages\n", (unsigned long long)d->size_pages);
		if (d->cls == SR_DEV_PMEM)
			printf("               per thread read %.3f/%.3f, write %.3f/%.3f GB/s; "
			       "media read %.2f/%.2f, write %.2f/%.2f GB/s (local/remote)\n",
			       d->rd_local / 1e9, d->rd_remote / 1e9, d->wr_local / 1e9,
			       d->wr_remote / 1e9, d->cap_rd_local / 1e9, d->cap_rd_remote / 1e9,
			       d->cap_wr_local / 1e9, d->cap_wr_remote / 1e9);
		else if (d->cls == SR_DEV_ZRAM)
			printf("               compress %.3f GB/s, decompress %.3f GB/s, ratio %.3f\n",
			       d->compress_bw / 1e9, d->decompress_bw / 1e9, d->compress_ratio);
		else if (d->cls == SR_DEV_HDD)
			printf("               seek %.2f ms (one track), %.2f ms (average), %.2f ms "
			       "(full stroke), %.0f rpm; %.2f GB/s\n", d->seek_track_ns / 1e6,
			       d->seek_ns / 1e6, d->seek_full_ns / 1e6, d->rpm, d->read_bw / 1e9);
		else
			printf("               read %.0f us, %.0f IOPS, %.2f GB/s; write %.0f us, "
			       "%.0f IOPS, %.2f GB/s\n", d->read_lat_ns / 1e3, d->read_iops,
			       d->read_bw / 1e9, d->write_lat_ns / 1e3, d->write_iops,
			       d->write_bw / 1e9);
		if (d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD || d->cls == SR_DEV_HDD)
			printf("               requests up to %.0f KiB and %.0f segments, %.0f tags%s\n",
			       d->max_sectors_kb, d->max_segments, d->queue_depth,
			       d->cls == SR_DEV_NVME ? " per CPU's queue, no elevator" :
			       ", one queue with an elevator");
	}
}

static int run_machines(int argc, char **argv)
{
	const char *const *n = sr_machine_preset_names();
	struct sr_machine *m;
	struct sr_diag d;
	int i, json = 0;
	const char *name = NULL;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage("machines", "unknown option '%s'", argv[i]);
		else if (name)
			return cli_usage("machines", "one machine at a time");
		else
			name = argv[i];
	}
	if (!name) {
		for (; *n; n++) {
			if (sr_machine_load(&m, *n, &d))
				return cli_diag(&d);
			printf("%-14s %s\n", *n, m->description);
			sr_machine_free(m);
		}
		printf("\nDefault: %s.  `swapreplay machines NAME` shows one with every parameter.\n",
		       SR_MACHINE_DEFAULT);
		return EXIT_OK;
	}
	if (sr_machine_load(&m, name, &d))
		return cli_diag(&d);
	if (json)
		fputs(m->json, stdout);
	else
		show(m);
	sr_machine_free(m);
	return EXIT_OK;
}

const struct cli_cmd cmd_machines = {
	.name = "machines",
	.summary = "list the machine presets, or show one with all its parameters",
	.help =
	"Usage: swapreplay machines [NAME|FILE] [--json]\n"
	"\n"
	"Without NAME, list the shipped machine presets.  With a preset NAME or a\n"
	"machine description FILE, check it and show every parameter the replay\n"
	"uses, defaults filled in; --json prints the description as written.\n"
	"The sources of the figures are in docs/MACHINE.md.  To describe this\n"
	"machine: swapreplay machine --probe.\n",
	.run = run_machines,
};
