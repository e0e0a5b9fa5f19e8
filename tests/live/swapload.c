/* SPDX-License-Identifier: MIT */
/*
 * swapload MIB ROUNDS: the live test's workload (tests/live/run.sh).  Maps
 * MIB MiB of anonymous memory, writes every page (a value of its own), then
 * reads every page back ROUNDS times, checking each value.  Under a memory
 * cgroup limit below MIB, the writes push pages out to swap and the reads
 * fault them back in: swap-outs and swap-ins the kernel counts in
 * /proc/vmstat (pswpout, pswpin).  Exit status 0, or 1 with a message (a
 * page that came back wrong is 3).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

int main(int argc, char **argv)
{
	size_t mib, rounds, pages, i, r;
	volatile uint64_t *m;

	if (argc != 3 || !(mib = strtoul(argv[1], NULL, 10)) || !(rounds = strtoul(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: swapload MIB ROUNDS\n");
		return 1;
	}
	pages = mib * 256;
	m = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("swapload: mmap");
		return 1;
	}
	/* No transparent huge pages: base pages swap one at a time, as the
	 * counters and the capture count them. */
	madvise((void *)m, pages * PAGE, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		m[i * (PAGE / 8)] = i * 2654435761u + 1;
	for (r = 0; r < rounds; r++)
		for (i = 0; i < pages; i++)
			if (m[i * (PAGE / 8)] != i * 2654435761u + 1) {
				fprintf(stderr, "swapload: page %zu came back wrong\n", i);
				return 3;
			}
	return 0;
}
