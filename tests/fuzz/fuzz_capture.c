/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the post-processing of the bpftrace capture (src/capture/fixup.c,
 * swapreplay/capture.h; `swapreplay capture-fixup`).  The input is the raw
 * capture file.  Each line goes through sr_capture_parse_line() and
 * sr_capture_parse_line_ino() alone; then the whole file through
 * sr_capture_open()/sr_capture_read() with a page map read from a scratch
 * sysfs tree (node0: blocks 0-1, node1: block 2, blocks of 2 MiB = 512
 * pages), whose directories are also the memory cgroup hierarchy
 * (sr_capture_cgroup_root(): the machine's is never walked).  Promises
 * checked: every event passes the common checks, its page node is one of
 * the map's or its CPU's, a memcg's path (if any) is one a trace may give,
 * errors have a diagnostic, and an error stays.
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

#include <sys/stat.h>

#include "swapreplay/capture.h"
#include "swapreplay/trace.h"

#define CAP_FUZZ_MAX_EVENTS (1u << 16)

static char root[64];
static struct sr_pfn_map *map;

static void mk(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!content) {
		FUZZ_CHECK(mkdir(path, 0700) == 0);
		return;
	}
	f = fopen(path, "w");
	FUZZ_CHECK(f != NULL);
	fputs(content, f);
	FUZZ_CHECK(fclose(f) == 0);
}

static const char *const tree[][2] = {
	{ "sys", NULL }, { "sys/devices", NULL }, { "sys/devices/system", NULL },
	{ "sys/devices/system/memory", NULL },
	{ "sys/devices/system/memory/block_size_bytes", "200000\n" },
	{ "sys/devices/system/node", NULL },
	{ "sys/devices/system/node/node0", NULL }, { "sys/devices/system/node/node1", NULL },
	{ "sys/devices/system/node/node0/memory0", "" },
	{ "sys/devices/system/node/node0/memory1", "" },
	{ "sys/devices/system/node/node1/memory2", "" },
};

static void remove_tree(void)
{
	char path[256];
	int i;

	sr_pfn_map_free(map);
	for (i = (int)(sizeof(tree) / sizeof(tree[0])) - 1; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s", root, tree[i][0]);
		remove(path);
	}
	remove(root);
}

static void setup(void)
{
	struct sr_diag d;
	size_t i;

	if (map)
		return;
	snprintf(root, sizeof(root), "/tmp/swapreplay-fuzz-capture.XXXXXX");
	FUZZ_CHECK(mkdtemp(root) != NULL);
	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		mk(tree[i][0], tree[i][1]);
	FUZZ_CHECK(sr_pfn_map_load(&map, root, &d) == SR_OK);
	FUZZ_CHECK(sr_pfn_map_node(map, 0) == 0 && sr_pfn_map_node(map, 1023) == 0 &&
		   sr_pfn_map_node(map, 1024) == 1 && sr_pfn_map_node(map, 1536) == -1);
	atexit(remove_tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sr_capture *c = NULL;
	struct sr_event evs[FUZZ_BATCH];
	struct sr_diag d, d2;
	enum sr_err err;
	char path[64], msg[512];
	size_t pos = 0, n, i;
	uint64_t total = 0;
	int fd;

	setup();
	/* Each line alone. */
	while (pos < size) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
		struct sr_event e;
		uint64_t pfn, ino;
		int has_pfn;

		msg[0] = '\0';
		if (sr_capture_parse_line((const char *)data + pos, len, &e, &pfn, &has_pfn, msg,
					  sizeof(msg)) == 0)
			fuzz_check_event(&e);
		else
			FUZZ_CHECK(msg[0] != '\0');
		msg[0] = '\0';
		if (sr_capture_parse_line_ino((const char *)data + pos, len, &e, &pfn, &has_pfn, &ino,
					      msg, sizeof(msg)) == 0)
			fuzz_check_event(&e);
		else
			FUZZ_CHECK(msg[0] != '\0');
		pos += len + 1;
	}

	/* The whole file. */
	fd = fuzz_memfd(data, size);
	FUZZ_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err = sr_capture_open(&c, path, map, &d);
	FUZZ_CHECK(err == SR_OK && c != NULL);
	sr_capture_cgroup_root(c, root);
	for (;;) {
		err = sr_capture_read(c, evs, FUZZ_BATCH, &n, &d);
		FUZZ_CHECK(n <= FUZZ_BATCH);
		for (i = 0; i < n; i++) {
			fuzz_check_event(&evs[i]);
			FUZZ_CHECK(evs[i].page_nid <= 1 || evs[i].page_nid == evs[i].cpu_nid);
			if (evs[i].memcg) {
				const char *mp = sr_memcgs_path(sr_capture_memcgs(c), evs[i].memcg);

				FUZZ_CHECK(!mp || mp[0] == '/');
			}
		}
		total += n;
		if (err || n == 0 || total >= CAP_FUZZ_MAX_EVENTS)
			break;
	}
	FUZZ_CHECK(sr_capture_stats(c)->events == total);
	if (err) {
		fuzz_check_diag(&d, err);
		FUZZ_CHECK(sr_capture_read(c, evs, FUZZ_BATCH, &n, &d2) == err && n == 0);
		FUZZ_CHECK(strcmp(d.msg, d2.msg) == 0);
	}
	sr_capture_close(c);
	close(fd);
	return 0;
}
