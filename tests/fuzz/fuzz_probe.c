/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the parsers of `swapreplay machine --probe`
 * (src/capture/probe.c, probe_parse.h) and the probe as a whole.
 *
 * The input is up to three files separated by NUL bytes:
 *   node0/cpulist \0 node0/distance \0 /proc/swaps
 * Each part goes through its parser alone; then the three are written into
 * a scratch sysfs tree (one node, no sys/block) and sr_machine_probe() runs
 * on it.  What it promises: a description it writes is one that
 * sr_machine_parse() accepts; a refusal has a diagnostic.
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

#include <sys/stat.h>

#include "capture/probe_parse.h"

#define PROBE_MAX_SWAPS 300

static char root[64];

static int write_part(const char *rel, const uint8_t *p, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	if (n && fwrite(p, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* Remove the scratch tree at exit. */
static void remove_root(void)
{
	static const char *const rel[] = {
		"sys/devices/system/node/node0/cpulist", "sys/devices/system/node/node0/distance",
		"proc/swaps", "sys/devices/system/node/node0", "sys/devices/system/node",
		"sys/devices/system", "sys/devices", "sys", "proc", "", NULL,
	};
	char path[256];
	int i;

	for (i = 0; rel[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, rel[i]);
		remove(path);
	}
}

static void make_root(void)
{
	char path[256];

	if (root[0])
		return;
	snprintf(root, sizeof(root), "/tmp/swapreplay-fuzz-probe.XXXXXX");
	FUZZ_CHECK(mkdtemp(root) != NULL);
	atexit(remove_root);
	snprintf(path, sizeof(path), "%s/sys", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/devices", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/devices/system", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sys/devices/system/node/node0", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0700);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sr_probe_swap sw[PROBE_MAX_SWAPS];
	const uint8_t *part[3];
	size_t plen[3], pos = 0;
	int k, n, dist[SR_MACHINE_MAX_NODES];
	char msg[256];
	uint64_t line;

	for (k = 0; k < 3; k++) {
		const uint8_t *z = k < 2 && pos < size ?
			memchr(data + pos, 0, size - pos) : NULL;

		part[k] = data + pos;
		plen[k] = z ? (size_t)(z - (data + pos)) : size - pos;
		pos += plen[k] + (z ? 1 : 0);
		if (!z && k < 2) {
			for (k++; k < 3; k++) {
				part[k] = data + size;
				plen[k] = 0;
			}
			break;
		}
	}

	/* The parsers alone. */
	msg[0] = '\0';
	if (sr_probe_cpulist((const char *)part[0], plen[0], &n, msg, sizeof(msg)) == 0)
		FUZZ_CHECK(n >= 0 && n <= SR_PROBE_MAX_CPU);
	else
		FUZZ_CHECK(msg[0] != '\0');
	n = sr_probe_distance((const char *)part[1], plen[1], dist, SR_MACHINE_MAX_NODES,
			      msg, sizeof(msg));
	FUZZ_CHECK(n >= -1 && n <= SR_MACHINE_MAX_NODES);
	for (k = 0; k < n; k++)
		FUZZ_CHECK(dist[k] >= 10 && dist[k] <= 254);
	msg[0] = '\0';
	n = sr_probe_swaps((const char *)part[2], plen[2], sw, PROBE_MAX_SWAPS, &line, msg,
			   sizeof(msg));
	FUZZ_CHECK(n >= -1 && n <= PROBE_MAX_SWAPS);
	if (n < 0)
		FUZZ_CHECK(msg[0] != '\0' && line <= plen[2] + 1);
	for (k = 0; k < n; k++) {
		FUZZ_CHECK_STR(sw[k].path);
		FUZZ_CHECK(sw[k].prio >= -32768 && sw[k].prio <= 32767);
	}

	/* The probe on a tree of these files. */
	make_root();
	if (write_part("sys/devices/system/node/node0/cpulist", part[0], plen[0]) ||
	    write_part("sys/devices/system/node/node0/distance", part[1], plen[1]) ||
	    write_part("proc/swaps", part[2], plen[2]))
		abort();
	{
		struct sr_machine *m = NULL;
		struct sr_diag d;
		char *json = NULL, *notes = NULL;
		enum sr_err err = sr_machine_probe(root, &json, &notes, &d);

		if (err) {
			FUZZ_CHECK(json == NULL);
			fuzz_check_diag(&d, err);
		} else {
			FUZZ_CHECK(json != NULL && notes != NULL);
			err = sr_machine_parse(&m, json, strlen(json), "probed", &d);
			if (err) {
				fprintf(stderr, "fuzz: probe wrote a description the parser refuses: %s\n%s\n",
					d.msg, json);
				abort();
			}
			FUZZ_CHECK(m->nr_nodes == 1 && m->nr_devices == n);
			sr_machine_free(m);
		}
		free(json);
		free(notes);
	}
	return 0;
}
