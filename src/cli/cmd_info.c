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

/*
 * A figure as `machines` shows it: whole from 1000 on, else with four
 * significant digits, so that a small one (a read_lat_us of 0.085) is
 * not shown as 0.  From a ring of buffers, for several in one printf().
 */
static const char *fig(double v)
{
	static char ring[24][32];
	static int at;
	char *b = ring[at++ % 24];

	if (v >= 1000 || v <= -1000)
		snprintf(b, sizeof(ring[0]), "%.0f", v);
	else
		snprintf(b, sizeof(ring[0]), "%.4g", v);
	return b;
}

static void show(const struct sr_machine *m)
{
	unsigned fit;
	int i, j;

	printf("name:          %s\n", m->name);
	printf("description:   %s\n", m->description);
	if (m->kernel[0])
		printf("kernel:        %s (a replay without --kernel models it, unless the trace has capture notes beside it)\n",
		       m->kernel);
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
	printf("\ninterconnect:  %s GB/s per direction, +%s ns\n", fig(m->link_bw / 1e9),
	       fig(m->link_lat_ns));
	printf("DRAM copy:     read %s/%s GB/s, write %s/%s GB/s per thread (local/remote)\n",
	       fig(m->dram_rd_local / 1e9), fig(m->dram_rd_remote / 1e9), fig(m->dram_wr_local / 1e9),
	       fig(m->dram_wr_remote / 1e9));
	printf("CPU:           reclaim %s ns per folio + %s ns per page, swap-in fault %s ns,\n"
	       "               +%s ns to submit to a remote device, +%s ns per line missed\n"
	       "               on a remote node, %s ns per line last written by another CPU;\n"
	       "               a swap-in through the swap cache +%s ns before 6.18, +%s ns\n"
	       "               more from 6.3 (the shadow nodes' list)\n",
	       fig(m->reclaim_ns), fig(m->reclaim_page_ns), fig(m->fault_ns), fig(m->remote_submit_ns),
	       fig(m->remote_miss_ns), fig(m->line_ns), fig(m->swapcache_ns), fig(m->shadow_node_ns));
	fit = sr_machine_fitted(m);
	printf("locks:         si->lock %s ns per allocation%s + %s ns per slot;\n"
	       "               LRU %s ns per page reclaimed%s, %s ns per page swapped in (a refault)%s;\n"
	       "               si->lock %s ns per other swap-map update (before 4.11; an hdd's\n"
	       "               to 6.13; a slot freed, 4.11 to 6.13); swap cache\n"
	       "               tree lock %s ns per hold%s, a device's before 4.11,\n"
	       "               a 64 MB trunk's to 6.17\n",
	       fig(m->swap_lock_ns), fit & SR_FIT_SWAP_LOCK ? " (fitted)" : "", fig(m->swap_slot_ns),
	       fig(m->lru_lock_ns), fit & SR_FIT_LRU_LOCK ? " (fitted)" : "", fig(m->lru_refault_ns),
	       fit & SR_FIT_LRU_REFAULT ? " (fitted)" : "", fig(m->swap_lock_other_ns),
	       fig(m->swap_cache_lock_ns), fit & SR_FIT_SWAP_CACHE_LOCK ? " (fitted)" : "");
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
			printf("               per thread read %s/%s, write %s/%s GB/s; "
			       "media read %s/%s, write %s/%s GB/s (local/remote)\n",
			       fig(d->rd_local / 1e9), fig(d->rd_remote / 1e9), fig(d->wr_local / 1e9),
			       fig(d->wr_remote / 1e9), fig(d->cap_rd_local / 1e9), fig(d->cap_rd_remote / 1e9),
			       fig(d->cap_wr_local / 1e9), fig(d->cap_wr_remote / 1e9));
		else if (d->cls == SR_DEV_ZRAM)
			printf("               compress %s GB/s, decompress %s GB/s, ratio %s\n",
			       fig(d->compress_bw / 1e9), fig(d->decompress_bw / 1e9), fig(d->compress_ratio));
		else if (d->cls == SR_DEV_HDD) {
			printf("               seek %s ms (one track), %s ms (average), %s ms "
			       "(full stroke), %s rpm; %s GB/s\n", fig(d->seek_track_ns / 1e6),
			       fig(d->seek_ns / 1e6), fig(d->seek_full_ns / 1e6), fig(d->rpm), fig(d->read_bw / 1e9));
			printf("               cache %s MB, write-back %s, %s read segments of %s KiB; "
			       "interface %s GB/s; overheads %s us (miss), %s us (hit), %s us (write)\n",
			       fig(d->cache_bytes / 1e6), d->write_cache ? "on" : "off",
			       fig(d->read_segments), fig(d->segment_bytes / 1024), fig(d->iface_bw / 1e9),
			       fig(d->ovh_miss_ns / 1e3), fig(d->ovh_hit_ns / 1e3), fig(d->ovh_write_ns / 1e3));
		}
		else
			printf("               read %s us, %s IOPS, %s GB/s; write %s us, "
			       "%s IOPS, %s GB/s\n", fig(d->read_lat_ns / 1e3), fig(d->read_iops),
			       fig(d->read_bw / 1e9), fig(d->write_lat_ns / 1e3), fig(d->write_iops),
			       fig(d->write_bw / 1e9));
		if (d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD || d->cls == SR_DEV_HDD)
			printf("               requests up to %s KiB and %s segments, %s tags%s\n",
			       fig(d->max_sectors_kb), fig(d->max_segments), fig(d->queue_depth),
			       d->cls == SR_DEV_NVME ? " per CPU's queue, no elevator" :
			       ", one queue with an elevator");
	}
	if (m->tiers_by_class)
		printf("tiers:         none named: by device class, memory (pmem, zram) and block\n"
		       "               (nvme, ssd, hdd), for --tiers\n");
	for (i = 0; !m->tiers_by_class && i < m->nr_tiers; i++) {
		const struct sr_tier *t = &m->tier[i];
		int any = 0;

		printf("tier %d:        %s, ", i, t->name);
		if (t->by_priority)
			printf("priority %d to %d: ", t->lo, t->hi);
		for (j = 0; j < m->nr_devices; j++)
			if (m->dev[j].tier == i)
				printf("%s%s", any++ ? ", " : "", m->dev[j].name);
		printf("%s\n", any ? "" : "no device");
	}
	if (m->nr_tiers)
		for (j = 0; j < m->nr_devices; j++)
			if (m->dev[j].tier < 0)
				printf("no tier:       %s (every memory cgroup may use it)\n",
				       m->dev[j].name);
	if (m->zswap.pool_bytes > 0 || m->zswap.enabled) {
		const struct sr_zswap *z = &m->zswap;

		printf("zswap:         %s, in front of every device: %s, pool at most %s MiB",
		       z->enabled ? "enabled" : "described, disabled", sr_zswap_comp_name(z->comp),
		       fig(z->pool_bytes / 1048576.0));
		if (z->mem_bytes > 0)
			printf(" (%s %% of %s GiB)", fig(z->max_pool_pct), fig(z->mem_bytes / 1073741824.0));
		printf(", taking pages again below %s %% of it\n"
		       "               a page compressed in %s us, decompressed in %s us, ratio %s; "
		       "%s %% zero, %s %% incompressible; writeback %s\n", fig(z->accept_pct),
		       fig(z->compress_ns / 1e3), fig(z->decompress_ns / 1e3), fig(z->ratio),
		       fig(100 * z->zero_share), fig(100 * z->incompressible_share),
		       z->writeback ? "on" : "off");
	}
}

static int run_machines(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{ "json", 0, CLI_NOARG, 1 },
		{ "quiet", 'q', CLI_NOARG, 2 },
		{ NULL, 0, 0, 0 },
	};
	const char *const *n = sr_machine_preset_names();
	struct sr_machine *m;
	struct sr_diag d;
	struct cli_parser p;
	int id, json = 0;
	const char *name = NULL, *val;

	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		if (id == -2)
			return cli_usage("machines", "%s", p.err);
		if (id == 1)
			json = 1;
		else if (id == 2)
			cli_quiet = 1;
		else if (name)
			return cli_usage("machines", "one machine at a time");
		else
			name = val;
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
	cli_machine_notes(m);
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
	"Usage: swapreplay machines [NAME|FILE] [--json] [-q]\n"
	"\n"
	"Without NAME, list the shipped machine presets.  With a preset NAME or a\n"
	"machine description FILE, check it and show every parameter the replay\n"
	"uses, defaults filled in; --json prints the description as written.  A\n"
	"key the model does not use for its device's class (an hdd's read_lat_us,\n"
	"a flash device's seek_ms) is said in a warning, here and wherever the\n"
	"description is loaded (replay, convert, gen); -q silences it.\n"
	"The sources of the figures are in docs/MACHINE.md.  To describe this\n"
	"machine: swapreplay machine --probe.\n",
	.run = run_machines,
};
