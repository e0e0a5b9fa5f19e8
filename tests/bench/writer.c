/* SPDX-License-Identifier: MIT */
/*
 * An independent trace writer for make bench (tests/bench.sh): swap events
 * as a machine with many tasks, random swap offsets and a saturated device
 * might record them, written in the binary format (.swt version 2) from
 * its description in traces/FORMAT.md alone: it shares no code with
 * swapreplay (neither gen's workloads nor its slot allocator nor its
 * writer), so that the replay is timed on a trace it did not shape.
 *
 *   writer EVENTS [TASKS [SEED]] > trace.swt      (pipe it through zstd)
 *
 * TASKS tasks (default 64), pids 2000.., task i on CPU i mod 80 of two
 * nodes of 40 CPUs.  Each task has a region of REGION pages (32 MiB), each
 * page on node 0 or 1 (half each, at random, fixed).  A task's next event
 * comes after an exponential compute time of mean GAP_NS (2 us: far more
 * than one NVMe can write), and is a swap-out with probability 0.6:
 * a random page of its region, written to a random free slot of the one
 * recorded device's slots (half as many as the tasks' pages: 1 GiB for 64
 * tasks); a page already out was freed and
 * written again (its old slot is free, the trace says nothing of it, as a
 * real one would not).  Otherwise a swap-in of a random page of the
 * task's out (a swap-out when it has none).  The footprint is bounded by
 * the slots (what the replay holds no longer grows once they have all
 * been used, after about 1M events), so the replay's memory should not
 * grow with the trace's length.  The same arguments give the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define REGION 8192u        /* pages per task: 32 MiB */
#define GAP_NS 2000.0
#define OUT_SHARE 0.6
#define NCPUS 80u
#define CPUS_PER_NODE 40u
#define VBASE 0x7f0000000000ull
#define NONE UINT32_MAX

static uint64_t s[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna). */
static uint64_t next(void)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(((next() >> 32) * (uint64_t)n) >> 32);
}

static double unit(void)
{
	return (double)(next() >> 11) * 0x1.0p-53;
}

struct task {
	double clock;
	uint32_t *slot;    /* page -> its slot, NONE while resident */
	uint32_t *outpos;  /* page -> its place in out[], while out */
	uint32_t *out;     /* the pages out */
	uint32_t nout;
	uint8_t *node;     /* page -> its node */
};

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static unsigned char buf[56 * 4096];
static size_t nbuf;

static void record(uint64_t ts, int in, uint32_t pid, uint32_t cpu, uint16_t cnid, uint16_t pnid,
		   uint64_t off, uint64_t vaddr)
{
	unsigned char *p = buf + nbuf;

	memset(p, 0, 56);
	put64(p, ts);
	put64(p + 8, off);
	put64(p + 16, 0);           /* lat_ns: not measured */
	put32(p + 24, pid);
	put32(p + 28, cpu);
	put32(p + 32, 0);           /* dev 0 */
	put32(p + 36, 1);           /* nr_pages */
	put16(p + 40, cnid);
	put16(p + 42, pnid);
	p[44] = (unsigned char)in;
	p[45] = 1 | 2 | 4;          /* cpu, offset and vaddr known */
	put64(p + 48, vaddr);
	nbuf += 56;
	if (nbuf == sizeof(buf)) {
		fwrite(buf, 1, nbuf, stdout);
		nbuf = 0;
	}
}

/* The tasks in a binary heap by clock: the next event is the root's. */
static struct task *tasks;
static uint32_t *heap, ntasks;

static int before(uint32_t a, uint32_t b)
{
	return tasks[a].clock < tasks[b].clock || (tasks[a].clock == tasks[b].clock && a < b);
}

static void sift_down(uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i, t;

		if (l < ntasks && before(heap[l], heap[m]))
			m = l;
		if (l + 1 < ntasks && before(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

int main(int argc, char **argv)
{
	unsigned char h[32] = { 0x89, 'S', 'W', 'T', '\r', '\n', 0x1a, '\n' };
	uint64_t nev, i, seed;
	uint32_t *freeslot, nfree, nslots, k;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: writer EVENTS [TASKS [SEED]] > trace.swt\n");
		return 2;
	}
	nev = strtoull(argv[1], NULL, 10);
	ntasks = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 64;
	seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
	if (!ntasks || ntasks > 4096) {
		fprintf(stderr, "writer: 1 to 4096 tasks\n");
		return 2;
	}
	/* splitmix64 seeds the generator. */
	for (k = 0; k < 4; k++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		s[k] = z ^ (z >> 31);
	}
	tasks = calloc(ntasks, sizeof(*tasks));
	heap = calloc(ntasks, sizeof(*heap));
	nslots = nfree = ntasks * (REGION / 2);
	freeslot = malloc(nslots * sizeof(*freeslot));
	if (!tasks || !heap || !freeslot)
		return 1;
	for (k = 0; k < nslots; k++)
		freeslot[k] = k;
	for (k = 0; k < ntasks; k++) {
		struct task *t = &tasks[k];
		uint32_t j;

		t->slot = malloc(REGION * sizeof(*t->slot));
		t->outpos = malloc(REGION * sizeof(*t->outpos));
		t->out = malloc(REGION * sizeof(*t->out));
		t->node = malloc(REGION);
		if (!t->slot || !t->outpos || !t->out || !t->node)
			return 1;
		for (j = 0; j < REGION; j++) {
			t->slot[j] = NONE;
			t->node[j] = (uint8_t)(next() >> 63);
		}
		t->clock = 1e9 + unit() * GAP_NS;
		heap[k] = k;
	}
	for (k = ntasks / 2; k-- > 0;)
		sift_down(k);

	put16(h + 8, 2);   /* version */
	put16(h + 10, 32); /* header_size */
	put32(h + 12, 56); /* record_size */
	fwrite(h, 1, sizeof(h), stdout);

	for (i = 0; i < nev; i++) {
		uint32_t ti = heap[0], page, cpu = ti % NCPUS;
		struct task *t = &tasks[ti];
		uint16_t cnid = (uint16_t)(cpu / CPUS_PER_NODE);
		uint64_t ts = (uint64_t)t->clock;

		if (unit() >= OUT_SHARE && t->nout) {
			uint32_t at = below(t->nout), last = t->out[--t->nout];

			page = t->out[at];
			t->out[at] = last;
			t->outpos[last] = at;
			record(ts, 1, 2000 + ti, cpu, cnid, t->node[page], t->slot[page],
			       VBASE + ((uint64_t)ti << 32) + (uint64_t)page * 4096);
			freeslot[nfree++] = t->slot[page];
			t->slot[page] = NONE;
		} else {
			uint32_t at;

			page = below(REGION);
			if (t->slot[page] != NONE) {
				/* Freed and written again: its old slot is free. */
				freeslot[nfree++] = t->slot[page];
			} else {
				t->outpos[page] = t->nout;
				t->out[t->nout++] = page;
			}
			if (!nfree) {
				fprintf(stderr, "writer: out of slots\n");
				return 1;
			}
			at = below(nfree);
			t->slot[page] = freeslot[at];
			freeslot[at] = freeslot[--nfree];
			record(ts, 0, 2000 + ti, cpu, cnid, t->node[page], t->slot[page],
			       VBASE + ((uint64_t)ti << 32) + (uint64_t)page * 4096);
		}
		t->clock += -log(1.0 - unit()) * GAP_NS;
		sift_down(0);
	}
	fwrite(buf, 1, nbuf, stdout);
	return fflush(stdout) ? 1 : 0;
}
