/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the vmstat log reader (src/reader_vmstat.c over
 * src/source.c; traces/FORMAT.md, "vmstat logs").  The input is the file:
 * read with the format forced (strict, then --max-errors=3, as every
 * reader target), then detected (the reader's probe against the others'),
 * and once more forced with other options, checking what the reader
 * promises of the events it derives: in time order, pid cpu_node + 1, the
 * nodes asked for, no device, no offset, one page, no latency.
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

/* Events read in the derived-event pass: enough to cross many intervals,
 * few enough that an input of huge rates stays fast. */
#define VM_FUZZ_MAX_EVENTS (1u << 16)

static void derived_pass(const uint8_t *data, size_t size)
{
	struct sr_read_opts o;
	struct sr_reader *r = NULL;
	struct sr_event evs[FUZZ_BATCH];
	struct sr_diag d;
	uint64_t total = 0, last = 0;
	enum sr_err err;
	char path[64];
	size_t n, i;
	int fd;

	fd = fuzz_memfd(data, size);
	FUZZ_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_VMSTAT;
	o.vmstat_interval_ns = 250000000; /* 0.25 s */
	o.cpu_node = 3;
	o.mem_node = 1023;
	err = sr_reader_open(&r, path, &o, &d);
	if (err) {
		FUZZ_CHECK(r == NULL);
		fuzz_check_diag(&d, err);
		close(fd);
		return;
	}
	for (;;) {
		err = sr_reader_read(r, evs, FUZZ_BATCH, &n, &d);
		for (i = 0; i < n; i++) {
			const struct sr_event *e = &evs[i];

			fuzz_check_event(e);
			FUZZ_CHECK(e->pid == 4 && e->cpu_nid == 3 && e->page_nid == 1023);
			FUZZ_CHECK(e->dev == -1 && e->flags == 0 && e->nr_pages == 1 &&
				   e->lat_ns == 0);
			FUZZ_CHECK(total + i == 0 || e->ts_ns >= last);
			last = e->ts_ns;
		}
		total += n;
		if (err || n == 0 || total >= VM_FUZZ_MAX_EVENTS)
			break;
	}
	if (err)
		fuzz_check_diag(&d, err);
	FUZZ_CHECK(sr_reader_stats(r)->ts_backwards == 0);
	FUZZ_CHECK_STR(sr_reader_stats(r)->derived);
	FUZZ_CHECK((total > 0) == (sr_reader_stats(r)->derived[0] != '\0'));
	sr_reader_close(r);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader_passes(data, size, SR_FMT_VMSTAT);
	fuzz_read_trace(data, size, SR_FMT_AUTO, 0, 1);
	derived_pass(data, size);
	return 0;
}
