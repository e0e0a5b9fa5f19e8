/* SPDX-License-Identifier: MIT */
/*
 * `swapreplay machine --probe`: a machine description (docs/MACHINE.md) read
 * from a running system's sysfs and procfs, or from a copy of them under
 * another root (the tests' fake trees under tests/data/sysfs/).
 *
 * What is read (paths under ROOT):
 *   sys/devices/system/node/node<N>/cpulist    CPUs per node
 *   sys/devices/system/node/node<N>/distance   the SLIT distance matrix
 *   sys/devices/system/cpu/online              CPUs, when there is no node
 *                                              directory (CONFIG_NUMA=n)
 *   proc/swaps                                 devices in swap type order,
 *                                              size, kernel priority
 *   sys/block/<disk>[/<part>]                  disk of a partition
 *   sys/block/<disk>/device/numa_node          device's node (-1 unknown)
 *   sys/block/<disk>/queue/rotational          hdd (1) or ssd (0)
 *   sys/block/<disk>/queue/max_sectors_kb,     the block layer's request
 *     queue/max_segments, device/queue_depth   limits and a SCSI disk's
 *                                              tags (nvme, ssd, hdd)
 *   sys/dev/block/<major>:<minor>              a swap file's disk, from the
 *                                              st_dev of the file under ROOT
 *   proc/sys/kernel/{hostname,osrelease}       name, description and kernel
 *   sys/module/zswap/parameters/{enabled,      zswap (docs/MACHINE.md), with
 *     compressor,max_pool_percent,             the RAM its pool's limit is a
 *     accept_threshold_percent}, proc/meminfo  share of (MemTotal)
 *
 * Performance figures are never probed: the description leaves them out so
 * that they take the class defaults, and says so in its "comment" keys.
 * The request limits are the kernel's settings, not measurements: they are
 * written when the files are there.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>

#include "common/diag.h"
#include "capture/probe_parse.h"
#include "swapreplay/machine.h"

#define PROBE_FILE_MAX (1u << 20) /* sysfs files are a page; /proc/swaps small */

/* ---- reading the tree -------------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
	int oom;
};

static void bput(struct buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 1024;
		char *np;

		while (c < b->len + n + 1)
			c *= 2;
		np = realloc(b->p, c);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = c;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void bprintf(struct buf *b, const char *fmt, ...) SR_PRINTF(2, 3);
static void bprintf(struct buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	bput(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/* s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
static void bjson(struct buf *b, const char *s)
{
	bput(b, "\"", 1);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int n = utf8_len((const unsigned char *)s);

		if (c == '"' || c == '\\')
			bprintf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			bprintf(b, "\\u%04x", c);
		else if (n == 0)
			bput(b, "\\ufffd", 6);
		else
			bput(b, s, (size_t)n);
		s += n ? n : 1;
	}
	bput(b, "\"", 1);
}

struct probe {
	char root[PATH_MAX];   /* "" for "/" */
	struct sr_diag *d;
	struct buf notes;
};

static void note(struct probe *p, const char *fmt, ...) SR_PRINTF(2, 3);
static void note(struct probe *p, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	bput(&p->notes, tmp, strlen(tmp));
	bput(&p->notes, "\n", 1);
}

static void path_of(const struct probe *p, char *out, size_t osz, const char *rel)
{
	int n = snprintf(out, osz, "%s/%s", p->root, rel[0] == '/' ? rel + 1 : rel);

	/* (Too long for a path: nothing is there.) */
	if (n < 0 || (size_t)n >= osz)
		out[0] = '\0';
}

/*
 * Read ROOT/rel into a new buffer.  Returns 0, 1 if the file does not
 * exist (when missing_ok), or -1 with the diagnostic set.
 */
static int read_file(struct probe *p, const char *rel, char **data, size_t *len,
		     int missing_ok)
{
	char path[PATH_MAX + 64];
	size_t cap = 4096, n = 0;
	char *b;
	FILE *f;

	*data = NULL;
	*len = 0;
	path_of(p, path, sizeof(path), rel);
	f = fopen(path, "rb");
	if (!f) {
		if (missing_ok && (errno == ENOENT || errno == ENOTDIR))
			return 1;
		sr_diag_file(p->d, path);
		sr_diag_set(p->d, SR_ERR_IO, "%s", strerror(errno));
		return -1;
	}
	b = malloc(cap);
	for (;;) {
		size_t r;

		if (!b) {
			fclose(f);
			sr_diag_set(p->d, SR_ERR_NOMEM, "out of memory");
			return -1;
		}
		r = fread(b + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
		if (n + 1 == cap) {
			char *nb;

			if (cap >= PROBE_FILE_MAX) {
				fclose(f);
				free(b);
				sr_diag_file(p->d, path);
				sr_diag_set(p->d, SR_ERR_FORMAT, "over %u bytes: not a sysfs or procfs file",
					    PROBE_FILE_MAX);
				return -1;
			}
			nb = realloc(b, cap * 2);
			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(b);
		sr_diag_file(p->d, path);
		sr_diag_set(p->d, SR_ERR_IO, "read error");
		return -1;
	}
	fclose(f);
	b[n] = '\0';
	*data = b;
	*len = n;
	return 0;
}

/* A parse error in ROOT/rel, line 1 unless told. */
static int bad_file(struct probe *p, const char *rel, uint64_t line, const char *msg)
{
	char path[PATH_MAX + 64];

	path_of(p, path, sizeof(path), rel);
	sr_diag_file(p->d, path);
	p->d->line = line;
	sr_diag_set(p->d, SR_ERR_FORMAT, "%s", msg);
	return -1;
}

static int exists(const struct probe *p, const char *rel)
{
	char path[PATH_MAX + 64];
	struct stat st;

	path_of(p, path, sizeof(path), rel);
	return stat(path, &st) == 0;
}

/* A small integer file such as numa_node or rotational: 0, 1 if missing, -1 garbled. */
static int read_int(struct probe *p, const char *rel, long *v)
{
	char *data, *end;
	size_t len;
	int rc = read_file(p, rel, &data, &len, 1);

	if (rc)
		return rc;
	errno = 0;
	*v = strtol(data, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	rc = (errno || end == data || *end) ? -1 : 0;
	if (rc) {
		char msg[128], ex[48];

		sr_probe_excerpt(data, len, ex, sizeof(ex));
		snprintf(msg, sizeof(msg), "not a whole number (\"%s\")", ex);
		bad_file(p, rel, 1, msg);
	}
	free(data);
	return rc;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

struct node_info {
	int nr;                 /* highest node id + 1 */
	int present[SR_MACHINE_MAX_NODES];
	int ids[SR_MACHINE_MAX_NODES]; /* present ids, sorted */
	int nids;
	int cpus[SR_MACHINE_MAX_NODES];
	int have_dist;
	int dist[SR_MACHINE_MAX_NODES][SR_MACHINE_MAX_NODES];
};

static int probe_nodes(struct probe *p, struct node_info *ni)
{
	const char *ndir = "sys/devices/system/node";
	char path[PATH_MAX + 64], rel[128], msg[256];
	struct dirent *de;
	DIR *dir;
	int i, j;

	memset(ni, 0, sizeof(*ni));
	path_of(p, path, sizeof(path), ndir);
	dir = opendir(path);
	if (!dir) {
		char *data;
		size_t len;
		int n, rc;

		if (errno != ENOENT) {
			sr_diag_file(p->d, path);
			sr_diag_set(p->d, SR_ERR_IO, "%s", strerror(errno));
			return -1;
		}
		/* No NUMA in this kernel: one node with the online CPUs. */
		rc = read_file(p, "sys/devices/system/cpu/online", &data, &len, 1);
		if (rc < 0)
			return -1;
		if (rc) {
			sr_diag_file(p->d, path);
			sr_diag_set(p->d, SR_ERR_IO,
				    "no such directory, nor sys/devices/system/cpu/online: not a sysfs tree (give --sysfs-root=DIR holding sys/ and proc/)");
			return -1;
		}
		if (sr_probe_cpulist(data, len, &n, msg, sizeof(msg)) ||
		    (n > 65536 && snprintf(msg, sizeof(msg), "%d CPUs, at most 65536 are supported", n))) {
			free(data);
			return bad_file(p, "sys/devices/system/cpu/online", 1, msg);
		}
		free(data);
		ni->nr = 1;
		ni->nids = 1;
		ni->present[0] = 1;
		ni->cpus[0] = n;
		note(p, "no NUMA node directory (a kernel without CONFIG_NUMA?): one node with the %d online CPUs", n);
		return 0;
	}
	while ((de = readdir(dir))) {
		const char *s = de->d_name;
		long id = 0;
		size_t k;

		if (strncmp(s, "node", 4) || !s[4])
			continue;
		for (k = 4; s[k] >= '0' && s[k] <= '9' && id < 100000; k++)
			id = id * 10 + (s[k] - '0');
		if (s[k])
			continue;
		if (id >= SR_MACHINE_MAX_NODES) {
			closedir(dir);
			sr_diag_file(p->d, path);
			return sr_diag_set(p->d, SR_ERR_LIMIT, "node%ld: at most %d nodes are supported",
					   id, SR_MACHINE_MAX_NODES), -1;
		}
		if (!ni->present[id]) {
			ni->present[id] = 1;
			ni->ids[ni->nids++] = (int)id;
		}
	}
	closedir(dir);
	if (!ni->nids) {
		sr_diag_file(p->d, path);
		return sr_diag_set(p->d, SR_ERR_FORMAT, "no node<N> directory"), -1;
	}
	qsort(ni->ids, (size_t)ni->nids, sizeof(int), cmp_int);
	ni->nr = ni->ids[ni->nids - 1] + 1;
	ni->have_dist = 1;
	for (i = 0; i < ni->nids; i++) {
		int id = ni->ids[i], d[SR_MACHINE_MAX_NODES], n, rc;
		char *data;
		size_t len;

		snprintf(rel, sizeof(rel), "%s/node%d/cpulist", ndir, id);
		if (read_file(p, rel, &data, &len, 0))
			return -1;
		rc = sr_probe_cpulist(data, len, &ni->cpus[id], msg, sizeof(msg));
		free(data);
		if (!rc && ni->cpus[id] > 65536)
			rc = -1, snprintf(msg, sizeof(msg), "%d CPUs, at most 65536 per node are supported",
					  ni->cpus[id]);
		if (rc)
			return bad_file(p, rel, 1, msg);
		snprintf(rel, sizeof(rel), "%s/node%d/distance", ndir, id);
		rc = read_file(p, rel, &data, &len, 1);
		if (rc < 0)
			return -1;
		if (rc) {
			ni->have_dist = 0;
			continue;
		}
		n = sr_probe_distance(data, len, d, SR_MACHINE_MAX_NODES, msg, sizeof(msg));
		free(data);
		if (n < 0)
			return bad_file(p, rel, 1, msg);
		if (n != ni->nids) {
			snprintf(msg, sizeof(msg), "%d distances for %d nodes", n, ni->nids);
			return bad_file(p, rel, 1, msg);
		}
		/* One column per online node, in node order. */
		for (j = 0; j < n; j++)
			ni->dist[id][ni->ids[j]] = d[j];
		if (ni->dist[id][id] != 10) {
			snprintf(msg, sizeof(msg), "the distance of node%d to itself is %d, not 10",
				 id, ni->dist[id][id]);
			return bad_file(p, rel, 1, msg);
		}
	}
	if (!ni->have_dist)
		note(p, "no distance file for some node: the distance matrix is left to its default (10/21)");
	if (ni->nids != ni->nr) {
		for (i = 0; i < ni->nr; i++) {
			if (ni->present[i])
				continue;
			note(p, "node%d is absent (offline?): written with 0 CPUs", i);
			for (j = 0; j < ni->nr; j++)
				ni->dist[i][j] = ni->dist[j][i] = i == j ? 10 : 254;
		}
	}
	for (i = 0; i < ni->nr; i++)
		if (ni->cpus[i])
			break;
	if (i == ni->nr) {
		path_of(p, path, sizeof(path), ndir);
		sr_diag_file(p->d, path);
		return sr_diag_set(p->d, SR_ERR_FORMAT, "no node has a CPU (every cpulist is empty)"), -1;
	}
	return 0;
}

/* Copy src into dst[dsz], cut short if it does not fit. */
static void copy(char *dst, size_t dsz, const char *src)
{
	size_t n = strlen(src);

	if (n >= dsz)
		n = dsz - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Device names are typed on command lines: printable ASCII, other bytes
 * (and quotes, backslashes) as '_'. */
static void ascii_name(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e || *s == '"' || *s == '\\')
			*s = '_';
}

static const char *basename_of(const char *s)
{
	const char *b = strrchr(s, '/');

	return b ? b + 1 : s;
}

/* The disk holding block device name: itself or, for a partition, the
 * directory under sys/block that has it.  0 found, 1 not found. */
static int find_disk(struct probe *p, const char *name, char *disk, size_t dsz)
{
	char rel[600], path[PATH_MAX + 64];
	struct dirent *de;
	DIR *dir;

	snprintf(rel, sizeof(rel), "sys/block/%s", name);
	if (exists(p, rel)) {
		copy(disk, dsz, name);
		return 0;
	}
	path_of(p, path, sizeof(path), "sys/block");
	dir = opendir(path);
	if (!dir)
		return 1;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "sys/block/%s/%s", de->d_name, name);
		if (exists(p, rel)) {
			copy(disk, dsz, de->d_name);
			closedir(dir);
			return 0;
		}
	}
	closedir(dir);
	return 1;
}

static int starts(const char *s, const char *pre)
{
	return strncmp(s, pre, strlen(pre)) == 0;
}

/*
 * The block device holding a swap file: stat() it under the root and look
 * its file system's device number up in sys/dev/block (a link to
 * .../block/DISK[/PART]).  0 with its name in dev, or -1 with why in why.
 */
static int file_device(struct probe *p, const char *file, char *dev, size_t dsz,
		       char *why, size_t wsz)
{
	char path[PATH_MAX + 64], rel[64], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	path_of(p, path, sizeof(path), file);
	if (stat(path, &st)) {
		snprintf(why, wsz, "the file is not under the root to stat it");
		return -1;
	}
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	path_of(p, path, sizeof(path), rel);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(why, wsz, "its file system's device %u:%u is not in sys/dev/block (btrfs, a stacked or network file system?)",
			 major(st.st_dev), minor(st.st_dev));
		return -1;
	}
	target[n] = '\0';
	copy(dev, dsz, basename_of(target));
	return 0;
}

/* Append the description of one swap device to b. */
static int probe_device(struct probe *p, const struct node_info *ni,
			const struct sr_probe_swap *sw, const char *name, struct buf *b,
			int last)
{
	char disk[256] = "", how[1024], rel[600];
	const char *cls = "ssd", *cls_how;
	long node = -1, v;
	uint64_t pages = sw->size_kib / 4;
	int rc, raised;
	char limits[160], lim_how[256];

	char dev[256], why[200], onfile[300] = "";

	if (sw->is_file && file_device(p, sw->path, dev, sizeof(dev), why, sizeof(why)) == 0)
		snprintf(onfile, sizeof(onfile), "a swap file on %s: ", dev);
	if (sw->is_file && !onfile[0]) {
		cls_how = "class ssd assumed (a swap file: the device of its file system is not known)";
		snprintf(how, sizeof(how), "node -1: a swap file, %s", why);
		note(p, "%s: a swap file: %s: node unknown (-1) and class assumed ssd; edit \"node\" and \"class\" to those of the disk holding it",
		     sw->path, why);
	} else {
		if (!sw->is_file)
			copy(dev, sizeof(dev), basename_of(sw->path));
		if (!sw->is_file && starts(sw->path, "/dev/")) {
			/* /dev/mapper/NAME and the like are links to ../dm-N. */
			char path[PATH_MAX + 64], target[PATH_MAX];
			ssize_t n;

			path_of(p, path, sizeof(path), sw->path);
			n = readlink(path, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = '\0';
				copy(dev, sizeof(dev), basename_of(target));
			}
		}
		if (find_disk(p, dev, disk, sizeof(disk))) {
			disk[0] = '\0';
			note(p, "%s: %s is not under sys/block: node unknown (-1)", sw->path, dev);
		}
		if (starts(dev, "nvme"))
			cls = "nvme", cls_how = "class nvme from the name";
		else if (starts(dev, "pmem"))
			cls = "pmem", cls_how = "class pmem from the name";
		else if (starts(dev, "zram"))
			cls = "zram", cls_how = "class zram from the name";
		else if (!disk[0])
			cls_how = "class ssd assumed (no sys/block entry)";
		else {
			snprintf(rel, sizeof(rel), "sys/block/%s/queue/rotational", disk);
			rc = read_int(p, rel, &v);
			if (rc < 0)
				return -1;
			if (rc) {
				cls_how = "class ssd assumed (no queue/rotational)";
				note(p, "%s: no %s: class assumed ssd", sw->path, rel);
			} else if (v) {
				cls = "hdd", cls_how = "class hdd: queue/rotational is 1";
			} else {
				cls_how = "class ssd: queue/rotational is 0";
			}
		}
		if (!disk[0]) {
			snprintf(how, sizeof(how), "node -1: not found under sys/block");
		} else {
			snprintf(rel, sizeof(rel), "sys/block/%s/device/numa_node", disk);
			rc = read_int(p, rel, &v);
			if (rc < 0)
				return -1;
			if (rc) {
				snprintf(how, sizeof(how), "node -1: %s has no device/numa_node%s", disk,
					 starts(dev, "zram") ? " (zram is not attached to a node)" : "");
				if (!starts(dev, "zram"))
					note(p, "%s: no %s: node unknown (-1)", sw->path, rel);
			} else if (v < -1 || v >= ni->nr || (v >= 0 && !ni->present[v])) {
				snprintf(how, sizeof(how), "node -1: %s says %ld, not a node of this machine",
					 rel, v);
				note(p, "%s: %s says node %ld, which this machine lacks: node unknown (-1)",
				     sw->path, rel, v);
			} else {
				node = v;
				snprintf(how, sizeof(how), "%s%s%snode %s %s%s",
					 strcmp(disk, dev) ? "partition of " : "",
					 strcmp(disk, dev) ? disk : "", strcmp(disk, dev) ? "; " : "",
					 v == -1 ? "-1 (unknown):" : "from", rel,
					 v == -1 ? " is -1" : "");
				if (v == -1)
					note(p, "%s: %s is -1: node unknown", sw->path, rel);
			}
		}
	}
	/* The block layer's limits of a DMA device, as its queue has them. */
	limits[0] = '\0';
	lim_how[0] = '\0';
	if (disk[0] && (!strcmp(cls, "nvme") || !strcmp(cls, "ssd") || !strcmp(cls, "hdd"))) {
		static const char *const file[3] = { "queue/max_sectors_kb", "queue/max_segments",
						     "device/queue_depth" };
		static const char *const key[3] = { "max_sectors_kb", "max_segments", "queue_depth" };
		static const long lo[3] = { 4, 1, 1 }, hi[3] = { 65536, 65535, 1024 };
		size_t ll = 0, hl = 0;
		int i;

		for (i = 0; i < 3; i++) {
			snprintf(rel, sizeof(rel), "sys/block/%s/%s", disk, file[i]);
			rc = read_int(p, rel, &v);
			if (rc < 0)
				return -1;
			if (rc)
				continue;
			if (v < lo[i] || v > hi[i]) {
				note(p, "%s: %s says %ld, outside %ld to %ld: the class default kept",
				     sw->path, rel, v, lo[i], hi[i]);
				continue;
			}
			ll += (size_t)snprintf(limits + ll, sizeof(limits) - ll, ", \"%s\": %ld",
					       key[i], v);
			hl += (size_t)snprintf(lim_how + hl, sizeof(lim_how) - hl, "%s%s %ld from %s",
					       hl ? ", " : "; ", key[i], v, file[i]);
		}
	}
	raised = pages < 512;
	if (raised) {
		/* docs/MACHINE.md: a device holds at least one swap cluster. */
		note(p, "%s: %llu KiB is below the 512 pages a description needs: written as 512",
		     sw->path, (unsigned long long)sw->size_kib);
		pages = 512;
	}
	bprintf(b, "    {\"name\": ");
	bjson(b, name);
	bprintf(b, ", \"class\": \"%s\", \"node\": %ld, \"priority\": ", cls, node);
	if (sw->prio < 0)
		bprintf(b, "\"auto\"");
	else
		bprintf(b, "%d", sw->prio);
	bprintf(b, ", \"size_pages\": %llu%s,\n      \"comment\": ", (unsigned long long)pages,
		limits);
	{
		char c[4096];

		snprintf(c, sizeof(c), "%s (%s): %s%s; %s; size %llu KiB%s and priority %d (%s) from /proc/swaps%s; performance figures: the %s class defaults, not measured",
			 sw->path, sw->is_file ? "file" : "partition", onfile, cls_how, how,
			 (unsigned long long)sw->size_kib,
			 raised ? " (written as 512 pages, the smallest a description takes)" : "",
			 sw->prio, sw->prio < 0 ? "automatic" : "given with swapon -p", lim_how, cls);
		bjson(b, c);
	}
	bprintf(b, "}%s\n", last ? "" : ",");
	return 0;
}

static void trim(char *s);

/* A zswap parameter (sys/module/zswap/parameters/NAME), trimmed, into v:
 * 1 read, 0 missing, -1 error (said in the diagnostic). */
static int zswap_param(struct probe *p, const char *name, char *v, size_t n)
{
	char rel[96], *data;
	size_t len;
	int rc;

	snprintf(rel, sizeof(rel), "sys/module/zswap/parameters/%s", name);
	rc = read_file(p, rel, &data, &len, 1);
	if (rc < 0)
		return -1;
	if (!data)
		return 0;
	trim(data);
	copy(v, n, data);
	free(data);
	return 1;
}

/*
 * "zswap": the module's parameters where the kernel has them (none: no
 * key), and the machine's RAM from /proc/meminfo's MemTotal for the
 * pool's limit.  A compressor without cited costs is left out (the
 * description then models lzo, the kernel's default) and said; lzo-rle is
 * lzo with a run-length pass, taken as lzo.  0, or -1 an error.
 */
static int probe_zswap(struct probe *p, struct buf *b)
{
	char en[16] = "", comp[64] = "", maxp[16] = "", acc[16] = "", shr[16] = "";
	char *mi = NULL, *at;
	size_t len;
	unsigned long long kb = 0;
	int rc;
	const char *cname = NULL;

	rc = zswap_param(p, "enabled", en, sizeof(en));
	if (rc <= 0)
		return rc;
	if (zswap_param(p, "compressor", comp, sizeof(comp)) < 0 ||
	    zswap_param(p, "max_pool_percent", maxp, sizeof(maxp)) < 0 ||
	    zswap_param(p, "accept_threshold_percent", acc, sizeof(acc)) < 0 ||
	    zswap_param(p, "shrinker_enabled", shr, sizeof(shr)) < 0 ||
	    read_file(p, "proc/meminfo", &mi, &len, 1) < 0)
		return -1;
	at = mi ? strstr(mi, "MemTotal:") : NULL;
	if (at)
		kb = strtoull(at + 9, NULL, 10);
	free(mi);
	if (!strcmp(comp, "lz4") || !strcmp(comp, "lzo") || !strcmp(comp, "zstd"))
		cname = comp;
	else if (!strcmp(comp, "lzo-rle"))
		cname = "lzo";
	bprintf(b, "  \"zswap\": {\"enabled\": %s", en[0] == 'Y' && kb ? "true" : "false");
	if (cname) {
		bprintf(b, ", \"compressor\": ");
		bjson(b, cname);
	}
	if (kb)
		bprintf(b, ", \"memory_gib\": %.4f", (double)kb / 1048576.0);
	if (maxp[0] && strspn(maxp, "0123456789") == strlen(maxp) && atoi(maxp) <= 100)
		bprintf(b, ", \"max_pool_percent\": %s", maxp);
	if (acc[0] && strspn(acc, "0123456789") == strlen(acc) && atoi(acc) <= 100)
		bprintf(b, ", \"accept_threshold_percent\": %s", acc);
	{
		char c[512];

		snprintf(c, sizeof(c), "read from sys/module/zswap/parameters (enabled %s, compressor "
			 "%s%s) and proc/meminfo (MemTotal %llu kB)%s; compress_ratio, zero_percent and "
			 "incompressible_percent are the workload's, not the machine's: set them",
			 en, comp[0] ? comp : "?", cname && strcmp(cname, comp) ? ", modelled as lzo" :
			 !cname ? ", whose costs are not cited: modelled as lzo" : "", kb,
			 !strcmp(shr, "Y") ? "; shrinker_enabled Y: the memory-pressure shrinker is "
			 "not modelled" : "");
		bprintf(b, ", \"comment\": ");
		bjson(b, c);
	}
	bprintf(b, "},\n");
	if (!cname && comp[0])
		note(p, "zswap's compressor %s has no cited costs here: the description models lzo "
		     "(set zswap.compress_us, decompress_us and compress_ratio for %s)", comp, comp);
	if (en[0] == 'Y' && !kb)
		note(p, "zswap is enabled but proc/meminfo gives no MemTotal: its pool's limit is "
		     "unknown, and the description has it disabled (set zswap.memory_gib or "
		     "pool_mib)");
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

enum sr_err sr_machine_probe(const char *root, char **json, char **notes,
			     struct sr_diag *diag)
{
	struct sr_diag dummy;
	struct probe p;
	struct node_info *ni = NULL;
	struct sr_probe_swap *sw = NULL;
	struct buf b = { 0 };
	char *data = NULL, *host = NULL, *rel_s = NULL;
	char msg[512], names[SR_MACHINE_MAX_DEVICES][32];
	size_t len, hlen, rlen;
	uint64_t line;
	int nsw, i, j, k, ncpus = 0, prev_auto = 0, auto_unordered = 0;
	struct stat st;

	*json = NULL;
	if (notes)
		*notes = NULL;
	memset(&p, 0, sizeof(p));
	p.d = diag ? diag : &dummy;
	sr_diag_clear(p.d);
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= sizeof(p.root))
		return sr_diag_set(p.d, SR_ERR_INVAL, "root path too long");
	snprintf(p.root, sizeof(p.root), "%s", root);
	while (p.root[0] && p.root[strlen(p.root) - 1] == '/')
		p.root[strlen(p.root) - 1] = '\0';
	if (stat(root, &st)) {
		sr_diag_file(p.d, root);
		return sr_diag_set(p.d, SR_ERR_IO, "%s", strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		sr_diag_file(p.d, root);
		return sr_diag_set(p.d, SR_ERR_IO, "not a directory");
	}
	ni = calloc(1, sizeof(*ni));
	sw = calloc(SR_MACHINE_MAX_DEVICES, sizeof(*sw));
	if (!ni || !sw) {
		sr_diag_set(p.d, SR_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (probe_nodes(&p, ni))
		goto out;
	if (read_file(&p, "proc/swaps", &data, &len, 0))
		goto out;
	nsw = sr_probe_swaps(data, len, sw, SR_MACHINE_MAX_DEVICES, &line, msg, sizeof(msg));
	if (nsw < 0) {
		bad_file(&p, "proc/swaps", line, msg);
		goto out;
	}
	if (nsw == 0)
		note(&p, "no swap device in use (/proc/swaps lists none): the description has nodes and CPUs but no devices; a trace of this machine has no swap events, and a replay needs a machine with a device (swapon one and probe again)");
	/* Device names: the basename, unique, at most 31 characters. */
	for (i = 0; i < nsw; i++) {
		const char *bn = basename_of(sw[i].path);

		copy(names[i], sizeof(names[i]), bn[0] ? bn : "swap");
		ascii_name(names[i]);
		for (k = 2;; k++) {
			for (j = 0; j < i && strcmp(names[j], names[i]); j++)
				;
			if (j == i)
				break;
		{
			char suf[16];

			copy(names[i], 27, bn[0] ? bn : "swap");
			ascii_name(names[i]);
			snprintf(suf, sizeof(suf), ".%d", k % 1000);
			strcat(names[i], suf);
		}
		}
		if (sw[i].prio < 0) {
			if (prev_auto && sw[i].prio >= prev_auto)
				auto_unordered = 1;
			prev_auto = sw[i].prio;
		}
	}
	if (auto_unordered)
		note(&p, "automatic priorities are not in /proc/swaps order (a device was swapped off and on again): the replay gives -2, -3, ... in the order listed");
	for (i = 0; i < ni->nr; i++)
		ncpus += ni->cpus[i];
	if (read_file(&p, "proc/sys/kernel/hostname", &host, &hlen, 1) < 0 ||
	    read_file(&p, "proc/sys/kernel/osrelease", &rel_s, &rlen, 1) < 0)
		goto out;
	if (host)
		trim(host);
	if (rel_s)
		trim(rel_s);

	bprintf(&b, "{\n  \"schema\": \"swapreplay-machine/1\",\n  \"name\": ");
	{
		char name[64];

		snprintf(name, sizeof(name), "probed%s%.40s", host && host[0] ? "-" : "",
			 host ? host : "");
		bjson(&b, name);
	}
	bprintf(&b, ",\n  \"description\": ");
	{
		char desc[256];

		snprintf(desc, sizeof(desc), "probed%s%.64s: %d node%s, %d CPUs, %d swap device%s",
			 rel_s && rel_s[0] ? " on Linux " : "", rel_s ? rel_s : "", ni->nr,
			 ni->nr == 1 ? "" : "s", ncpus, nsw, nsw == 1 ? "" : "s");
		bjson(&b, desc);
	}
	if (rel_s && rel_s[0] && strlen(rel_s) < 65 && !strpbrk(rel_s, " \t")) {
		/* The kernel it runs, as uname -r prints it: the replay's
		 * kernel when none is asked for (sr_kernel_resolve()). */
		bprintf(&b, ",\n  \"kernel\": ");
		bjson(&b, rel_s);
	}
	bprintf(&b, ",\n  \"comment\": ");
	{
		char c[1024];

		snprintf(c, sizeof(c), "written by swapreplay machine --probe from %s: nodes, CPUs, distances, swap devices (swap type order), their nodes, sizes and priorities are read; the class is guessed from the device; every performance figure is left out and takes its default",
			 p.root[0] ? "a copy of sysfs and procfs (--sysfs-root)" : "/sys and /proc");
		bjson(&b, c);
	}
	bprintf(&b, ",\n  \"sources\": \"defaults: interconnect, memory, cpu and every device figure are the class defaults of docs/MACHINE.md (Default figures and their sources), not measurements of this machine\"");
	bprintf(&b, ",\n  \"nodes\": [");
	for (i = 0; i < ni->nr; i++)
		bprintf(&b, "%s{\"cpus\": %d}", i ? ", " : "", ni->cpus[i]);
	bprintf(&b, "],\n");
	if (ni->have_dist) {
		bprintf(&b, "  \"distance\": [");
		for (i = 0; i < ni->nr; i++) {
			bprintf(&b, "%s[", i ? ", " : "");
			for (j = 0; j < ni->nr; j++)
				bprintf(&b, "%s%d", j ? ", " : "", ni->dist[i][j]);
			bprintf(&b, "]");
		}
		bprintf(&b, "],\n");
	}
	if (probe_zswap(&p, &b))
		goto out;
	bprintf(&b, "  \"devices\": [%s", nsw ? "\n" : "");
	for (i = 0; i < nsw; i++)
		if (probe_device(&p, ni, &sw[i], names[i], &b, i == nsw - 1))
			goto out;
	bprintf(&b, "%s]\n}\n", nsw ? "  " : "");
	if (b.oom || p.notes.oom) {
		sr_diag_set(p.d, SR_ERR_NOMEM, "out of memory");
		goto out;
	}
	*json = b.p;
	b.p = NULL;
	if (notes) {
		*notes = p.notes.p ? p.notes.p : strdup("");
		p.notes.p = NULL;
		if (!*notes) {
			free(*json);
			*json = NULL;
			sr_diag_set(p.d, SR_ERR_NOMEM, "out of memory");
		}
	}
out:
	free(b.p);
	free(p.notes.p);
	free(data);
	free(host);
	free(rel_s);
	free(ni);
	free(sw);
	return *json ? SR_OK : (p.d->code ? p.d->code : SR_ERR_NOMEM);
}

int sr_probe_swap_device(const char *root, const struct sr_probe_swap *sw, char *dev,
			 size_t dsz, char *disk, size_t ksz, char *why, size_t wsz)
{
	struct probe p;

	memset(&p, 0, sizeof(p));
	copy(p.root, sizeof(p.root), root ? root : "");
	while (p.root[0] && p.root[strlen(p.root) - 1] == '/')
		p.root[strlen(p.root) - 1] = '\0';
	if (sw->is_file) {
		if (file_device(&p, sw->path, dev, dsz, why, wsz))
			return -1;
	} else {
		copy(dev, dsz, basename_of(sw->path));
		if (starts(sw->path, "/dev/")) {
			char path[PATH_MAX + 64], target[PATH_MAX];
			ssize_t n;

			path_of(&p, path, sizeof(path), sw->path);
			n = readlink(path, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = '\0';
				copy(dev, dsz, basename_of(target));
			}
		}
	}
	if (find_disk(&p, dev, disk, ksz))
		disk[0] = '\0';
	return 0;
}
