/* SPDX-License-Identifier: MIT */
/*
 * The parsers behind sr_machine_probe() (src/capture/probe.c), one per
 * sysfs/procfs file format, exposed for the unit tests and the fuzz target
 * tests/fuzz/fuzz_probe.c.  Not installed.  Each takes the file's bytes
 * (not NUL-terminated), never reads past len, and on failure returns -1
 * with a message in msg (and, for /proc/swaps, the 1-based line).
 */
#ifndef SR_CAPTURE_PROBE_PARSE_H
#define SR_CAPTURE_PROBE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Largest CPU id accepted in a cpulist (NR_CPUS is at most 8192 today). */
#define SR_PROBE_MAX_CPU (1 << 20)

/* node<N>/cpulist: "0-3,8,10-11\n", or an empty line for a node without
 * CPUs.  *count gets the number of CPUs listed. */
int sr_probe_cpulist(const char *s, size_t len, int *count, char *msg, size_t msz);

/* node<N>/distance: "10 21 31\n", one ACPI SLIT distance (10..254) per online
 * node.  Returns how many (at most max; more is an error). */
int sr_probe_distance(const char *s, size_t len, int *out, int max, char *msg,
		      size_t msz);

/* One line of /proc/swaps. */
struct sr_probe_swap {
	char path[256];     /* unescaped (the kernel writes " " as "\040") */
	int is_file;        /* Type "file" (else "partition") */
	uint64_t size_kib;  /* Size column, KiB */
	int prio;           /* Priority column: < 0 automatic */
};

/* /proc/swaps: a header line "Filename Type Size Used Priority", then one
 * line per device.  Returns how many (at most max; more is an error). */
int sr_probe_swaps(const char *s, size_t len, struct sr_probe_swap *out, int max,
		   uint64_t *line, char *msg, size_t msz);

/* probe.c: the block device under ROOT (NULL or "/": the system) that
 * holds swap area sw (a partition itself, a file's file system's), its
 * name in dev and its whole disk's in disk ("" when not under sys/block):
 * 0, or -1 with why (a file whose file system has no block device). */
int sr_probe_swap_device(const char *root, const struct sr_probe_swap *sw, char *dev,
			 size_t dsz, char *disk, size_t ksz, char *why, size_t wsz);

/* A short, printable excerpt of s (len bytes) for messages, in out. */
void sr_probe_excerpt(const char *s, size_t len, char *out, size_t osz);

#endif /* SR_CAPTURE_PROBE_PARSE_H */
