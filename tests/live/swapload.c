/* SPDX-License-Identifier: MIT */
/*
 * swapload MIB ROUNDS [CHILDREN]: the live test's workload
 * (tests/live/run.sh).  Maps MIB MiB of anonymous memory, writes every
 * page (a value of its own), then reads every page back ROUNDS times,
 * checking each value.  Under a memory cgroup limit below MIB, the writes
 * push pages out to swap and the reads fault them back in: swap-outs and
 * swap-ins the kernel counts in /proc/vmstat (pswpout, pswpin).  With
 * CHILDREN, the process forks that many children one after another, each
 * doing the work on MIB / CHILDREN MiB, and waits for each (waitpid())
 * before it forks the next: the forks, exits and waits a capture records
 * as task ops.  It prints "parent PID" and "child PID" for each child.
 * Exit status 0, or 1 with a message (a page that came back wrong is 3).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096

static int work(size_t mib, size_t rounds)
{
	size_t pages = mib * 256, i, r;
	volatile uint64_t *m;

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

int main(int argc, char **argv)
{
	size_t mib, rounds, children = 0, c;

	if ((argc != 3 && argc != 4) || !(mib = strtoul(argv[1], NULL, 10)) ||
	    !(rounds = strtoul(argv[2], NULL, 10)) ||
	    (argc == 4 && (!(children = strtoul(argv[3], NULL, 10)) || mib / children == 0))) {
		fprintf(stderr, "usage: swapload MIB ROUNDS [CHILDREN]\n");
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
