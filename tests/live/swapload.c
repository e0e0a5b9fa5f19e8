/* SPDX-License-Identifier: MIT */
/*
 * swapload [-r] [-l FILE] MIB ROUNDS [CHILDREN]: the live tests' workload
 * (tests/live/run.sh, traces/capture/swapreplay-ab).  Maps MIB MiB of
 * anonymous memory, writes every page (a value of its own), then reads
 * every page back ROUNDS times, checking each value.  Under a memory
 * cgroup limit below MIB, the writes push pages out to swap and the reads
 * fault them back in: swap-outs and swap-ins the kernel counts in
 * /proc/vmstat (pswpout, pswpin).
 *   -r       read the pages back in a random order (the same permutation
 *            every run: a fixed seed), not in address order;
 *   -l FILE  time each page's read of the first round (clock_gettime,
 *            CLOCK_MONOTONIC, around the load: the fault as the task sees
 *            it, a swap cache hit's minor fault included) and append the
 *            times, in ns, one per line, to FILE when the work is done.
 * With CHILDREN, the process forks that many children one after another,
 * each doing the work on MIB / CHILDREN MiB, and waits for each
 * (waitpid()) before it forks the next: the forks, exits and waits a
 * capture records as task ops.  It prints "parent PID" and "child PID"
 * for each child.
 * Exit status 0, or 1 with a message (a page that came back wrong is 3).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

static int random_order;
static const char *lat_file;

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The order pages are read back in: address order, or a Fisher-Yates
 * shuffle driven by a xorshift64 generator of fixed seed. */
static size_t *read_order(size_t pages)
{
	size_t *o = malloc(pages * sizeof(*o)), i;
	uint64_t x = 0x9e3779b97f4a7c15u;

	if (!o)
		return NULL;
	for (i = 0; i < pages; i++)
		o[i] = i;
	if (random_order)
		for (i = pages - 1; i > 0; i--) {
			size_t j, t;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			j = (size_t)(x % (i + 1));
			t = o[i];
			o[i] = o[j];
			o[j] = t;
		}
	return o;
}

static int save_times(const uint64_t *t, size_t n)
{
	FILE *f = fopen(lat_file, "a");
	size_t i;

	if (!f) {
		perror("swapload: -l");
		return 1;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%llu\n", (unsigned long long)t[i]);
	if (fclose(f)) {
		perror("swapload: -l");
		return 1;
	}
	return 0;
}

static int work(size_t mib, size_t rounds)
{
	size_t pages = mib * 256, i, r, *order;
	uint64_t *times = NULL;
	volatile uint64_t *m;

	m = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	order = read_order(pages);
	if (lat_file)
		times = malloc(pages * sizeof(*times));
	if (m == MAP_FAILED || !order || (lat_file && !times)) {
		perror("swapload: mmap or malloc");
		return 1;
	}
	/* No transparent huge pages: base pages swap one at a time, as the
	 * counters and the capture count them. */
	madvise((void *)m, pages * PAGE, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		m[i * (PAGE / 8)] = i * 2654435761u + 1;
	for (r = 0; r < rounds; r++)
		for (i = 0; i < pages; i++) {
			size_t p = order[i];
			uint64_t t0 = times && r == 0 ? now_ns() : 0, v;

			v = m[p * (PAGE / 8)];
			if (times && r == 0)
				times[i] = now_ns() - t0;
			if (v != p * 2654435761u + 1) {
				fprintf(stderr, "swapload: page %zu came back wrong\n", p);
				return 3;
			}
		}
	return times ? save_times(times, pages) : 0;
}

int main(int argc, char **argv)
{
	size_t mib, rounds, children = 0, c;
	int a = 1;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-r"))
			random_order = 1;
		else if (!strcmp(argv[a], "-l") && a + 1 < argc)
			lat_file = argv[++a];
		else
			break;
	}
	argc -= a - 1;
	argv += a - 1;
	if ((argc != 3 && argc != 4) || !(mib = strtoul(argv[1], NULL, 10)) ||
	    !(rounds = strtoul(argv[2], NULL, 10)) ||
	    (argc == 4 && (!(children = strtoul(argv[3], NULL, 10)) || mib / children == 0))) {
		fprintf(stderr, "usage: swapload [-r] [-l FILE] MIB ROUNDS [CHILDREN]\n");
		return 1;
	}
	if (!children)
		return work(mib, rounds);
	printf("parent %ld\n", (long)getpid());
	for (c = 0; c < children; c++) {
		int status;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("swapload: fork");
			return 1;
		}
		if (pid == 0)
			_exit(work(mib / children, rounds));
		printf("child %ld\n", (long)pid);
		if (waitpid(pid, &status, 0) != pid) {
			perror("swapload: waitpid");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "swapload: child %ld failed\n", (long)pid);
			return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		}
	}
	return 0;
}
