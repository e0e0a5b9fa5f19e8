/* SPDX-License-Identifier: MIT */
/*
 * How much memory a command may take, and how much it has: so that a
 * replay too big for the machine is refused with its estimate, or
 * stopped with a message, rather than left to the kernel's OOM killer
 * (replay --max-memory; docs/MODEL.md, "Uncertainty").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The number after "KEY:" in /proc/meminfo, in bytes; 0 if absent. */
static uint64_t meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	size_t kl = strlen(key);
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtoull(line + kl + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

/* One number in a file (a cgroup's), or UINT64_MAX: none, or "max". */
static uint64_t file_num(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[64];
	uint64_t v = UINT64_MAX;

	if (!f)
		return UINT64_MAX;
	if (fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9')
		v = strtoull(buf, NULL, 10);
	fclose(f);
	return v;
}

/*
 * What the memory cgroup of this process has left: its limit less its use
 * (cgroup v2: memory.max and memory.current; v1: memory.limit_in_bytes
 * and memory.usage_in_bytes), or UINT64_MAX without a limit.
 */
static uint64_t cgroup_left(void)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096], path[4200];
	uint64_t left = UINT64_MAX;

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n'), *rel;
		uint64_t lim, use;

		if (nl)
			*nl = '\0';
		if (!strncmp(line, "0::", 3)) {
			rel = line + 3;
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", rel);
			lim = file_num(path);
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current", rel);
		} else if ((rel = strstr(line, ":memory:")) != NULL) {
			rel += 8;
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", rel);
			lim = file_num(path);
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", rel);
		} else {
			continue;
		}
		use = file_num(path);
		/* v1 says "no limit" with a huge number (a page short of 2^63). */
		if (lim == UINT64_MAX || lim >= (UINT64_C(1) << 62) || use == UINT64_MAX)
			continue;
		if (lim - (use < lim ? use : lim) < left)
			left = lim - (use < lim ? use : lim);
	}
	fclose(f);
	return left;
}

uint64_t cli_mem_rss(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size, rss;
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%llu %llu", &size, &rss);
	fclose(f);
	return n == 2 ? (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

uint64_t cli_mem_available(char *why, size_t n)
{
	uint64_t avail = meminfo("MemAvailable"), cg = cgroup_left();

	if (cg < avail || (!avail && cg != UINT64_MAX)) {
		snprintf(why, n, "what this process's memory cgroup has left");
		return cg;
	}
	if (avail) {
		snprintf(why, n, "MemAvailable in /proc/meminfo");
		return avail;
	}
	snprintf(why, n, "no limit known: /proc/meminfo could not be read");
	return UINT64_MAX;
}
