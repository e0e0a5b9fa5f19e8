/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the machine description parser, sr_machine_parse()
 * (src/machine/machine.c; schema in docs/MACHINE.md).  The input is the JSON text,
 * not NUL-terminated, exactly as --machine=FILE or a trace header hands it
 * over.  A machine that is accepted must be one the cost model can use:
 * the checks below are what the parser promises (every number finite and
 * positive, nodes and devices within their limits).
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

#include <math.h>

#define POS(x) FUZZ_CHECK(isfinite(x) && (x) > 0)

static void check_device(const struct sr_machine *m, const struct sr_device *d)
{
	FUZZ_CHECK_STR(d->name);
	FUZZ_CHECK(d->name[0] != '\0');
	FUZZ_CHECK(d->node >= -1 && d->node < m->nr_nodes);
	FUZZ_CHECK(d->prio_auto || (d->prio >= 0 && d->prio <= 32767));
	FUZZ_CHECK(d->size_pages >= 512);
	switch (d->cls) {
	case SR_DEV_HDD:
		POS(d->seek_ns);
		/* fall through */
	case SR_DEV_NVME:
	case SR_DEV_SSD:
		POS(d->read_lat_ns);
		POS(d->write_lat_ns);
		POS(d->read_iops);
		POS(d->write_iops);
		POS(d->read_bw);
		POS(d->write_bw);
		break;
	case SR_DEV_PMEM:
		POS(d->rd_local);
		POS(d->rd_remote);
		POS(d->wr_local);
		POS(d->wr_remote);
		POS(d->cap_rd_local);
		POS(d->cap_rd_remote);
		POS(d->cap_wr_local);
		POS(d->cap_wr_remote);
		break;
	case SR_DEV_ZRAM:
		POS(d->compress_bw);
		POS(d->decompress_bw);
		FUZZ_CHECK(isfinite(d->compress_ratio) && d->compress_ratio >= 1);
		break;
	default:
		FUZZ_CHECK(!"unknown device class");
	}
}

static void check_machine(const struct sr_machine *m, const uint8_t *data, size_t size)
{
	int i, j, cpus = 0;

	FUZZ_CHECK_STR(m->name);
	FUZZ_CHECK_STR(m->description);
	FUZZ_CHECK(m->nr_nodes >= 1 && m->nr_nodes <= SR_MACHINE_MAX_NODES);
	for (i = 0; i < m->nr_nodes; i++) {
		FUZZ_CHECK(m->cpus_per_node[i] >= 0);
		cpus += m->cpus_per_node[i];
		for (j = 0; j < m->nr_nodes; j++) {
			FUZZ_CHECK(m->distance[i][j] >= 10 && m->distance[i][j] <= 254);
			FUZZ_CHECK(i != j || m->distance[i][j] == 10);
		}
	}
	FUZZ_CHECK(cpus == m->nr_cpus && cpus > 0);
	POS(m->link_bw);
	POS(m->link_lat_ns);
	POS(m->dram_rd_local);
	POS(m->dram_rd_remote);
	POS(m->dram_wr_local);
	POS(m->dram_wr_remote);
	POS(m->reclaim_ns);
	POS(m->reclaim_page_ns);
	POS(m->fault_ns);
	POS(m->swap_lock_ns);
	POS(m->swap_slot_ns);
	POS(m->lru_lock_ns);
	POS(m->lru_refault_ns);
	POS(m->swap_lock_other_ns);
	POS(m->swap_cache_lock_ns);
	POS(m->remote_submit_ns);
	/* 0: a machine with swap off (a replay refuses it). */
	FUZZ_CHECK(m->nr_devices >= 0 && m->nr_devices <= SR_MACHINE_MAX_DEVICES);
	for (i = 0; i < m->nr_devices; i++) {
		check_device(m, &m->dev[i]);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(m->dev[i].name, m->dev[j].name) != 0);
	}
	/* The text is kept as read, for a binary trace's header. */
	FUZZ_CHECK(m->json != NULL);
	FUZZ_CHECK(memcmp(m->json, data, size) == 0 && m->json[size] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sr_machine *m = (struct sr_machine *)(uintptr_t)1;
	struct sr_diag d;
	enum sr_err err, err2;

	err = sr_machine_parse(&m, (const char *)data, size, "fuzz.json", &d);
	if (err) {
		FUZZ_CHECK(m == NULL);
		FUZZ_CHECK(err == SR_ERR_MACHINE);
		fuzz_check_diag(&d, err);
	} else {
		FUZZ_CHECK(m != NULL);
		check_machine(m, data, size);
		sr_machine_free(m);
	}
	/* The same without a diagnostic (error.h: it is optional). */
	m = NULL;
	err2 = sr_machine_parse(&m, (const char *)data, size, "fuzz.json", NULL);
	FUZZ_CHECK(err2 == err);
	sr_machine_free(m);
	return 0;
}
