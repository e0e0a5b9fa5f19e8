/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the vmstat log reader (src/trace/reader_vmstat.c over
 * src/trace/source.c; traces/FORMAT.md, "vmstat logs").  The input is the file:
 * read with the format forced (strict, then --max-errors=3, as every
 * reader target), then detected (the reader's probe against the others'),
 * and once more forced with other options, checking what the reader
 * promises of the events it derives: in time order, pid cpu_nid + 1, the
 * nodes asked for, no device, no offset, one page, no latency.  That last
 * pass runs twice: with single nodes, then with mixes of nodes made from a
 * hash of the input (sr_read_opts.cpu_mix, mem_mix), checking that after
 * every event each (cpu node, memory node) pair holds its share of the
 * events of that op within one, or, for one input in eight, with a broken
 * mix that open must refuse.
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

/* Events read in the derived-event pass: enough to cross many intervals,
 * few enough that an input of huge rates stays fast. */
#define VM_FUZZ_MAX_EVENTS (1u << 16)

/* Mixes of 1 to 4 nodes each from the hash h of the input; returns 1 if
 * one of them was broken on purpose (open must then refuse it). */
static int make_mixes(uint64_t h, struct sr_read_opts *o)
{
	struct sr_node_mix *mix[2] = { &o->cpu_mix, &o->mem_mix };
	int s, broken = (h & 7) == 0;

	h >>= 3;
	for (s = 0; s < 2; s++) {
		struct sr_node_mix *m = mix[s];
		unsigned base = (unsigned)(h & 1023), stride = (unsigned)((h >> 10) & 63) * 2 + 1;
		unsigned wt[SR_NODE_MIX_MAX], sum = 0, i;

		m->n = 1 + (unsigned)((h >> 16) & 3);
		for (i = 0; i < m->n; i++) {
			m->node[i] = (base + i * stride) % SR_MAX_NODES; /* distinct: stride is odd */
			wt[i] = 1 + (unsigned)((h >> (18 + 3 * i)) & 7);
			sum += wt[i];
		}
		for (i = 0; i < m->n; i++)
			m->frac[i] = (double)wt[i] / sum;
		h = h * 0x9E3779B97F4A7C15ull + 1;
	}
	if (broken) {
		struct sr_node_mix *m = mix[h & 1];

		switch ((h >> 1) & 3) {
		case 0: m->node[m->n - 1] = SR_MAX_NODES; break;
		case 1: m->frac[0] = 0; break;
		case 2: m->frac[0] += 0.01; break;
		default:
			if (m->n == 1) {
				m->n = SR_NODE_MIX_MAX + 1;
			} else {
				m->node[1] = m->node[0];
			}
			break;
		}
	}
	return broken;
}

/* Index of node in m (its single node when n == 0), or -1. */
static int mix_index(const struct sr_node_mix *m, unsigned single, unsigned node)
{
	unsigned i;

	if (m->n == 0)
		return node == single ? 0 : -1;
	for (i = 0; i < m->n; i++)
		if (m->node[i] == node)
			return (int)i;
	return -1;
}

static void derived_pass(const uint8_t *data, size_t size, int mixed)
{
	struct sr_read_opts o;
	struct sr_reader *r = NULL;
	struct sr_event evs[FUZZ_BATCH];
	struct sr_diag d;
	uint64_t total = 0, last = 0, h = 14695981039346656037ull;
	uint64_t cnt[2][SR_NODE_MIX_MAX * SR_NODE_MIX_MAX], given[2] = { 0, 0 };
	double w[SR_NODE_MIX_MAX * SR_NODE_MIX_MAX];
	unsigned nc = 1, nm = 1, c, m;
	enum sr_err err;
	char path[64];
	size_t n, i;
	int fd, broken = 0;

	fd = fuzz_memfd(data, size);
	FUZZ_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&o, 0, sizeof(o));
	memset(cnt, 0, sizeof(cnt));
	o.format = SR_FMT_VMSTAT;
	o.vmstat_interval_ns = 250000000; /* 0.25 s */
	o.cpu_node = 3;
	o.mem_node = 1023;
	w[0] = 1;
	if (mixed) {
		for (i = 0; i < size; i++)
			h = (h ^ data[i]) * 1099511628211ull;
		broken = make_mixes(h, &o);
		nc = o.cpu_mix.n;
		nm = o.mem_mix.n;
		if (!broken)
			for (c = 0; c < nc; c++)
				for (m = 0; m < nm; m++)
					w[c * nm + m] = o.cpu_mix.frac[c] * o.mem_mix.frac[m];
	}
	err = sr_reader_open(&r, path, &o, &d);
	if (broken)
		FUZZ_CHECK(err == SR_ERR_INVAL);
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
			int ci = mix_index(&o.cpu_mix, o.cpu_node, e->cpu_nid);
			int mi = mix_index(&o.mem_mix, o.mem_node, e->page_nid);
			unsigned p;

			fuzz_check_event(e);
			FUZZ_CHECK(ci >= 0 && mi >= 0 && e->pid == (uint32_t)e->cpu_nid + 1);
			cnt[e->op][(unsigned)ci * nm + (unsigned)mi]++;
			given[e->op]++;
			for (p = 0; p < nc * nm; p++) {
				double lag = w[p] * (double)given[e->op] - (double)cnt[e->op][p];

				/* Below 1 exactly; the margin is for rounding. */
				FUZZ_CHECK(lag > -1 - 1e-9 && lag < 1 + 1e-9);
			}
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
	FUZZ_CHECK(!mixed || total == 0 || strstr(sr_reader_stats(r)->derived, "from a mix"));
	sr_reader_close(r);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader_passes(data, size, SR_FMT_VMSTAT);
	fuzz_read_trace(data, size, SR_FMT_AUTO, 0, 1);
	derived_pass(data, size, 0);
	derived_pass(data, size, 1);
	return 0;
}
