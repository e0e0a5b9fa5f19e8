/* SPDX-License-Identifier: MIT */
/*
 * Machine descriptions: parsing and checking the JSON (docs/MACHINE.md),
 * filling what a description leaves out from the class defaults of
 * machine/defaults.h, and writing the resolved machine back as JSON.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/diag.h"
#include "machine/defaults.h"
#include "swapreplay/machine.h"
#include "swapreplay/event.h"

/* Machine files larger than this are refused before parsing. */
#define MACHINE_MAX_BYTES (4u << 20)

static const char *const class_names[] = {
	[SR_DEV_NVME] = "nvme", [SR_DEV_SSD] = "ssd", [SR_DEV_HDD] = "hdd",
	[SR_DEV_PMEM] = "pmem", [SR_DEV_ZRAM] = "zram",
};

static const char *const zswap_comp_names[] = {
	[SR_ZSWAP_LZ4] = "lz4", [SR_ZSWAP_LZO] = "lzo", [SR_ZSWAP_ZSTD] = "zstd",
};

const char *sr_zswap_comp_name(enum sr_zswap_comp c)
{
	return (unsigned)c < sizeof(zswap_comp_names) / sizeof(zswap_comp_names[0]) ?
	       zswap_comp_names[c] : "?";
}

const char *sr_dev_class_name(enum sr_dev_class c)
{
	return (unsigned)c < sizeof(class_names) / sizeof(class_names[0]) ? class_names[c] : "?";
}

/* A device of class c with every parameter at its default. */
static void device_defaults(struct sr_device *d, enum sr_dev_class c)
{
	memset(d, 0, sizeof(*d));
	d->cls = c;
	d->prio_auto = 1;
	d->node = -1;
	if (c == SR_DEV_NVME || c == SR_DEV_SSD || c == SR_DEV_HDD)
		d->max_sectors_kb = BLK_MAX_SECTORS_KB;
	switch (c) {
	case SR_DEV_NVME:
		d->read_lat_ns = NVME_READ_LAT_NS;
		d->write_lat_ns = NVME_WRITE_LAT_NS;
		d->read_iops = NVME_READ_IOPS;
		d->write_iops = NVME_WRITE_IOPS;
		d->read_bw = NVME_READ_BW;
		d->write_bw = NVME_WRITE_BW;
		d->size_pages = NVME_SIZE_PAGES;
		d->max_segments = NVME_MAX_SEGMENTS;
		d->queue_depth = NVME_QUEUE_DEPTH;
		break;
	case SR_DEV_SSD:
		d->read_lat_ns = SSD_READ_LAT_NS;
		d->write_lat_ns = SSD_WRITE_LAT_NS;
		d->read_iops = SSD_READ_IOPS;
		d->write_iops = SSD_WRITE_IOPS;
		d->read_bw = SSD_READ_BW;
		d->write_bw = SSD_WRITE_BW;
		d->size_pages = SSD_SIZE_PAGES;
		d->max_segments = AHCI_MAX_SEGMENTS;
		d->queue_depth = SATA_QUEUE_DEPTH;
		break;
	case SR_DEV_HDD:
		d->seek_ns = HDD_SEEK_NS;
		d->seek_track_ns = HDD_SEEK_TRACK_NS;
		d->seek_full_ns = HDD_SEEK_FULL_NS;
		d->rpm = HDD_RPM;
		d->max_segments = AHCI_MAX_SEGMENTS;
		d->queue_depth = SATA_QUEUE_DEPTH;
		d->read_bw = HDD_BW;
		d->write_bw = HDD_BW;
		d->read_lat_ns = HDD_SEEK_NS;
		d->write_lat_ns = HDD_SEEK_NS;
		d->read_iops = 1e9 / HDD_SEEK_NS;
		d->write_iops = 1e9 / HDD_SEEK_NS;
		d->size_pages = HDD_SIZE_PAGES;
		d->cache_bytes = HDD_CACHE_BYTES;
		d->write_cache = HDD_WRITE_CACHE;
		d->read_segments = HDD_READ_SEGMENTS;
		d->segment_bytes = HDD_SEGMENT_BYTES;
		d->iface_bw = HDD_IFACE_BW;
		d->ovh_miss_ns = HDD_OVH_MISS_NS;
		d->ovh_hit_ns = HDD_OVH_HIT_NS;
		d->ovh_write_ns = HDD_OVH_WRITE_NS;
		break;
	case SR_DEV_PMEM:
		d->rd_local = PMEM_RD_LOCAL;
		d->rd_remote = PMEM_RD_REMOTE;
		d->wr_local = PMEM_WR_LOCAL;
		d->wr_remote = PMEM_WR_REMOTE;
		d->cap_rd_local = PMEM_CAP_RD_LOCAL;
		d->cap_rd_remote = PMEM_CAP_RD_REMOTE;
		d->cap_wr_local = PMEM_CAP_WR_LOCAL;
		d->cap_wr_remote = PMEM_CAP_WR_REMOTE;
		d->size_pages = PMEM_SIZE_PAGES;
		break;
	case SR_DEV_ZRAM:
		d->compress_bw = ZRAM_COMPRESS_BW;
		d->decompress_bw = ZRAM_DECOMPRESS_BW;
		d->compress_ratio = ZRAM_RATIO;
		d->size_pages = ZRAM_SIZE_PAGES;
		break;
	}
}

static void machine_defaults(struct sr_machine *m)
{
	m->link_bw = DEF_LINK_BW;
	m->link_lat_ns = DEF_LINK_LAT_NS;
	m->dram_rd_local = DEF_DRAM_RD_LOCAL;
	m->dram_rd_remote = DEF_DRAM_RD_REMOTE;
	m->dram_wr_local = DEF_DRAM_WR_LOCAL;
	m->dram_wr_remote = DEF_DRAM_WR_REMOTE;
	m->reclaim_ns = DEF_RECLAIM_NS;
	m->reclaim_page_ns = DEF_RECLAIM_PAGE_NS;
	m->fault_ns = DEF_FAULT_NS;
	m->swap_lock_ns = DEF_SWAP_LOCK_NS;
	m->swap_lock_other_ns = DEF_SWAP_LOCK_OTHER_NS;
	m->swap_cache_lock_ns = DEF_SWAP_CACHE_LOCK_NS;
	m->swap_slot_ns = DEF_SWAP_SLOT_NS;
	m->lru_lock_ns = DEF_LRU_LOCK_NS;
	m->lru_refault_ns = DEF_LRU_REFAULT_NS;
	m->remote_submit_ns = DEF_REMOTE_SUBMIT_NS;
	m->remote_miss_ns = DEF_REMOTE_MISS_NS;
	m->line_ns = DEF_LINE_NS;
	m->swapcache_ns = DEF_SWAPCACHE_NS;
	m->shadow_node_ns = DEF_SHADOW_NODE_NS;
	m->blk_request_ns = DEF_BLK_REQUEST_NS;
	m->queue_lock_ns = DEF_QUEUE_LOCK_NS;
}

/* ---- parsing ------------------------------------------------------------ */

struct pctx {
	const char *origin;
	struct sr_diag *d;
};

static enum sr_err bad(struct pctx *p, const char *fmt, ...) SR_PRINTF(2, 3);
static enum sr_err bad(struct pctx *p, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sr_diag_file(p->d, p->origin);
	return sr_diag_set(p->d, SR_ERR_MACHINE, "%s", msg);
}

/* Append "ORIGIN: MSG\n" to m->notes: 0, or -2 out of memory (said in
 * the diagnostic). */
static int note(struct pctx *p, struct sr_machine *m, const char *fmt, ...) SR_PRINTF(3, 4);
static int note(struct pctx *p, struct sr_machine *m, const char *fmt, ...)
{
	char msg[400], line[700];
	size_t have = m->notes ? strlen(m->notes) : 0, n;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s: %s", p->origin, msg);
	n = strlen(line);
	s = realloc(m->notes, have + n + 2);
	if (!s) {
		sr_diag_set(p->d, SR_ERR_NOMEM, "out of memory");
		return -2;
	}
	memcpy(s + have, line, n);
	s[have + n] = '\n';
	s[have + n + 1] = '\0';
	m->notes = s;
	return 0;
}

/* The keys of keys (NULL-terminated) that o has, as "a", "a and b" or
 * "a, b and c" into buf; how many. */
static int keys_given(json_t *o, const char *const *keys, char *buf, size_t size)
{
	const char *have[16];
	int n = 0, i;

	for (; *keys && n < 16; keys++)
		if (json_object_get(o, *keys))
			have[n++] = *keys;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			 i == 0 ? "" : i == n - 1 ? " and " : ", ", have[i]);
	return n;
}

/*
 * The keys of device o (devices[idx], parsed into d) that its class's
 * cost equations leave out (src/hw/cost.c), into the notes: an hdd's
 * latency and IOPS are those of a random request, the average seek and
 * half a revolution (parse_device() sets them); a flash device has no
 * seek nor rotation; size_gib sets the size over size_pages.  0, or -2
 * out of memory.
 */
static int unused_keys(struct pctx *p, struct sr_machine *m, json_t *o, int idx,
		       const struct sr_device *d)
{
	static const char *const hdd_unused[] = { "read_lat_us", "write_lat_us", "read_iops",
		"write_iops", NULL };
	static const char *const flash_unused[] = { "seek_ms", "seek_track_ms", "seek_full_ms",
		"rpm", NULL };
	const char *cls = class_names[d->cls];
	char list[200];
	int n;

	if (d->cls == SR_DEV_HDD && (n = keys_given(o, hdd_unused, list, sizeof(list))) &&
	    note(p, m, "devices[%d] (%s, %s): %s %s not used: an hdd's latency and IOPS are "
		 "those of a random request, from seek_ms and rpm (the average seek and half "
		 "a revolution)", idx, d->name, cls, list, n > 1 ? "are" : "is"))
		return -2;
	if ((d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD) &&
	    (n = keys_given(o, flash_unused, list, sizeof(list))) &&
	    note(p, m, "devices[%d] (%s, %s): %s %s not used: seeks and rotation are an "
		 "hdd's; a flash device's requests cost its read_lat_us, write_lat_us, "
		 "read_iops, write_iops and bandwidths", idx, d->name, cls, list,
		 n > 1 ? "are" : "is"))
		return -2;
	if (json_object_get(o, "size_pages") && json_object_get(o, "size_gib") &&
	    note(p, m, "devices[%d] (%s, %s): size_pages is not used: size_gib is given too, "
		 "and sets the size", idx, d->name, cls))
		return -2;
	return 0;
}

/* A numeric field: stored as value * scale; must be finite and > 0 (or >= 0
 * when zero_ok).  Returns 1 if present, 0 if absent, -1 on error. */
static int get_num(struct pctx *p, json_t *obj, const char *where, const char *key,
		   double scale, int zero_ok, double *out)
{
	json_t *v = json_object_get(obj, key);
	double x;

	if (!v)
		return 0;
	if (!json_is_number(v)) {
		bad(p, "%s.%s: expected a number", where, key);
		return -1;
	}
	x = json_number_value(v);
	if (!isfinite(x) || !isfinite(x * scale) || x < 0 || (!zero_ok && x == 0)) {
		bad(p, "%s.%s: must be a %s number (%g)", where, key,
		    zero_ok ? "non-negative" : "positive", x);
		return -1;
	}
	/*
	 * Bounds in the model's own units (ns, bytes/s, operations/s): the
	 * cost model divides by these figures and multiplies them by event
	 * counts, so a value that is positive but absurd (a seek of 1e-308 ms
	 * gives an infinite IOPS) must not get through.
	 */
	if ((x != 0 && x * scale < SR_MACHINE_NUM_MIN) || x * scale > SR_MACHINE_NUM_MAX) {
		bad(p, "%s.%s: %g is out of range (%g to %g)", where, key, x,
		    SR_MACHINE_NUM_MIN / scale, SR_MACHINE_NUM_MAX / scale);
		return -1;
	}
	*out = x * scale;
	return 1;
}

/* Every key of obj must be in allowed (NULL-terminated) or be a comment. */
static int check_keys(struct pctx *p, json_t *obj, const char *where,
		      const char *const *allowed)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char *const *a;

		if (!strcmp(key, "source") || !strcmp(key, "sources") ||
		    !strcmp(key, "comment"))
			continue;
		for (a = allowed; *a; a++)
			if (!strcmp(*a, key))
				break;
		if (!*a) {
			bad(p, "%s: unknown key \"%s\"", where, key);
			return -1;
		}
	}
	return 0;
}

struct numfield {
	const char *key;
	size_t off;     /* offset of the double in struct sr_device */
	double scale;
};

#define DF(k, f, s) { k, offsetof(struct sr_device, f), s }
static const struct numfield dma_fields[] = {
	DF("read_lat_us", read_lat_ns, 1e3), DF("write_lat_us", write_lat_ns, 1e3),
	DF("read_iops", read_iops, 1), DF("write_iops", write_iops, 1),
	DF("read_bw_gb_s", read_bw, GBS), DF("write_bw_gb_s", write_bw, GBS),
	DF("seek_ms", seek_ns, 1e6), DF("seek_track_ms", seek_track_ns, 1e6),
	DF("seek_full_ms", seek_full_ns, 1e6), DF("rpm", rpm, 1),
	DF("max_sectors_kb", max_sectors_kb, 1), DF("max_segments", max_segments, 1),
	DF("queue_depth", queue_depth, 1), { NULL, 0, 0 },
};
/* An hdd's cache (D4): zero allowed (none, off, no overhead). */
static const struct numfield hdd_cache_fields[] = {
	DF("cache_mb", cache_bytes, 1e6), DF("write_cache", write_cache, 1),
	DF("read_segments", read_segments, 1), DF("segment_kb", segment_bytes, 1024),
	DF("interface_gb_s", iface_bw, GBS), DF("overhead_miss_us", ovh_miss_ns, 1e3),
	DF("overhead_hit_us", ovh_hit_ns, 1e3), DF("overhead_write_us", ovh_write_ns, 1e3),
	{ NULL, 0, 0 },
};
static const struct numfield pmem_fields[] = {
	DF("read_local_gb_s", rd_local, GBS), DF("read_remote_gb_s", rd_remote, GBS),
	DF("write_local_gb_s", wr_local, GBS), DF("write_remote_gb_s", wr_remote, GBS),
	DF("media_read_local_gb_s", cap_rd_local, GBS),
	DF("media_read_remote_gb_s", cap_rd_remote, GBS),
	DF("media_write_local_gb_s", cap_wr_local, GBS),
	DF("media_write_remote_gb_s", cap_wr_remote, GBS), { NULL, 0, 0 },
};
static const struct numfield zram_fields[] = {
	DF("compress_gb_s", compress_bw, GBS), DF("decompress_gb_s", decompress_bw, GBS),
	DF("compress_ratio", compress_ratio, 1), { NULL, 0, 0 },
};
#undef DF

static const struct numfield *class_fields(enum sr_dev_class c)
{
	if (c == SR_DEV_PMEM)
		return pmem_fields;
	if (c == SR_DEV_ZRAM)
		return zram_fields;
	return dma_fields;
}

/* devices[idx] into m->dev[idx]: 0, -1 when it is not valid (said in the
 * diagnostic), -2 out of memory. */
static int parse_device(struct pctx *p, struct sr_machine *m, json_t *o, int idx)
{
	static const char *const common[] = { "name", "class", "node", "priority",
		"size_pages", "size_gib", NULL };
	const struct numfield *nf;
	struct sr_device *d = &m->dev[idx];
	char where[64];
	json_t *v;
	const char *cls, *key;
	int c, i;

	snprintf(where, sizeof(where), "devices[%d]", idx);
	if (!json_is_object(o))
		return bad(p, "%s: expected an object", where), -1;
	v = json_object_get(o, "class");
	if (!json_is_string(v))
		return bad(p, "%s.class: expected one of nvme, ssd, hdd, pmem, zram", where), -1;
	cls = json_string_value(v);
	for (c = 0; c <= SR_DEV_ZRAM; c++)
		if (!strcmp(cls, class_names[c]))
			break;
	if (c > SR_DEV_ZRAM)
		return bad(p, "%s.class: unknown class \"%s\" (expected nvme, ssd, hdd, pmem or zram)",
			   where, cls), -1;
	device_defaults(d, (enum sr_dev_class)c);
	nf = class_fields(d->cls);
	/* Keys: the common ones and those of the class. */
	json_object_foreach(o, key, v) {
		const char *const *a;
		const struct numfield *f;

		if (!strcmp(key, "source") || !strcmp(key, "sources") || !strcmp(key, "comment"))
			continue;
		for (a = common; *a && strcmp(*a, key); a++)
			;
		for (f = nf; f->key && strcmp(f->key, key); f++)
			;
		if (!f->key && d->cls == SR_DEV_HDD)
			for (f = hdd_cache_fields; f->key && strcmp(f->key, key); f++)
				;
		if (!*a && !f->key)
			return bad(p, "%s: unknown key \"%s\" for a %s device", where, key,
				   class_names[d->cls]), -1;
	}
	v = json_object_get(o, "name");
	if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) >= sizeof(d->name))
		return bad(p, "%s.name: expected a name of 1 to %zu characters", where,
			   sizeof(d->name) - 1), -1;
	snprintf(d->name, sizeof(d->name), "%s", json_string_value(v));
	for (i = 0; i < idx; i++)
		if (!strcmp(m->dev[i].name, d->name))
			return bad(p, "%s.name: duplicate device name \"%s\"", where, d->name), -1;
	v = json_object_get(o, "node");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < -1 ||
		    json_integer_value(v) >= m->nr_nodes)
			return bad(p, "%s.node: expected -1 (unknown) or a node from 0 to %d",
				   where, m->nr_nodes - 1), -1;
		d->node = (int)json_integer_value(v);
	}
	v = json_object_get(o, "priority");
	if (v && !(json_is_string(v) && !strcmp(json_string_value(v), "auto"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 32767)
			return bad(p, "%s.priority: expected \"auto\" or 0 to 32767 (as swapon -p)",
				   where), -1;
		d->prio = (int)json_integer_value(v);
		d->prio_auto = 0;
	}
	v = json_object_get(o, "size_pages");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 512)
			return bad(p, "%s.size_pages: expected a whole number of at least 512", where), -1;
		d->size_pages = (uint64_t)json_integer_value(v);
	}
	v = json_object_get(o, "size_gib");
	if (v) {
		double g;

		if (get_num(p, o, where, "size_gib", 1, 0, &g) < 0)
			return -1;
		if (g * 262144.0 < 512 || g > 1e9)
			return bad(p, "%s.size_gib: out of range", where), -1;
		d->size_pages = (uint64_t)(g * 262144.0);
	}
	for (; nf->key; nf++)
		if (get_num(p, o, where, nf->key, nf->scale, 0,
			    (double *)((char *)d + nf->off)) < 0)
			return -1;
	if (d->cls == SR_DEV_HDD) {
		if (d->seek_track_ns > d->seek_ns || d->seek_ns > d->seek_full_ns)
			return bad(p, "%s: seek_track_ms <= seek_ms <= seek_full_ms, not %g, %g, %g",
				   where, d->seek_track_ns / 1e6, d->seek_ns / 1e6,
				   d->seek_full_ns / 1e6), -1;
		if (d->rpm < 1000 || d->rpm > 30000)
			return bad(p, "%s.rpm: 1000 to 30000, not %g", where, d->rpm), -1;
		for (nf = hdd_cache_fields; nf->key; nf++)
			if (get_num(p, o, where, nf->key, nf->scale, 1,
				    (double *)((char *)d + nf->off)) < 0)
				return -1;
		if (d->write_cache != 0 && d->write_cache != 1)
			return bad(p, "%s.write_cache: 1 (on) or 0 (off), not %g", where,
				   d->write_cache), -1;
		if (d->read_segments != floor(d->read_segments) || d->read_segments > SR_HDD_SEGMENTS_MAX)
			return bad(p, "%s.read_segments: a whole number, 0 to %d", where,
				   SR_HDD_SEGMENTS_MAX), -1;
		if (d->cache_bytes > SR_HDD_CACHE_MAX)
			return bad(p, "%s.cache_mb: up to %g", where, SR_HDD_CACHE_MAX / 1e6), -1;
		if (d->read_segments && d->segment_bytes < SR_PAGE_SIZE)
			return bad(p, "%s.segment_kb: at least 4 with read segments", where), -1;
		if ((d->read_segments || (d->write_cache && d->cache_bytes)) && d->iface_bw < 1e6)
			return bad(p, "%s.interface_gb_s: at least 0.001 with a cache", where), -1;
		/* A random request: the average seek and half a revolution. */
		d->read_lat_ns = d->write_lat_ns = d->seek_ns + 30e9 / d->rpm;
		d->read_iops = d->write_iops = 1e9 / d->read_lat_ns;
	}
	if (d->cls == SR_DEV_NVME || d->cls == SR_DEV_SSD || d->cls == SR_DEV_HDD) {
		if (d->max_sectors_kb < 4 || d->max_sectors_kb > 65536 ||
		    d->max_sectors_kb != floor(d->max_sectors_kb))
			return bad(p, "%s.max_sectors_kb: a whole number of KiB, 4 to 65536", where), -1;
		if (d->max_segments < 1 || d->max_segments > 65535 ||
		    d->max_segments != floor(d->max_segments))
			return bad(p, "%s.max_segments: a whole number, 1 to 65535", where), -1;
		if (d->queue_depth < 1 || d->queue_depth > 1024 ||
		    d->queue_depth != floor(d->queue_depth))
			return bad(p, "%s.queue_depth: a whole number, 1 to 1024", where), -1;
	}
	if (d->cls == SR_DEV_ZRAM && d->compress_ratio < 1)
		return bad(p, "%s.compress_ratio: must be at least 1", where), -1;
	return unused_keys(p, m, o, idx, d);
}

static int parse_cpus(struct pctx *p, struct sr_machine *m, json_t *nodes)
{
	static const char *const nkeys[] = { "cpus", NULL };
	size_t i;

	if (!json_is_array(nodes) || json_array_size(nodes) == 0)
		return bad(p, "nodes: expected a non-empty array of {\"cpus\": N}"), -1;
	if (json_array_size(nodes) > SR_MACHINE_MAX_NODES)
		return bad(p, "nodes: %zu nodes, at most %d are supported",
			   json_array_size(nodes), SR_MACHINE_MAX_NODES), -1;
	m->nr_nodes = (int)json_array_size(nodes);
	for (i = 0; i < json_array_size(nodes); i++) {
		json_t *n = json_array_get(nodes, i), *c;
		char where[32];

		snprintf(where, sizeof(where), "nodes[%zu]", i);
		if (!json_is_object(n))
			return bad(p, "%s: expected an object", where), -1;
		if (check_keys(p, n, where, nkeys))
			return -1;
		c = json_object_get(n, "cpus");
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) > 65536)
			return bad(p, "%s.cpus: expected a whole number from 0 to 65536", where), -1;
		m->cpus_per_node[i] = (int)json_integer_value(c);
		m->nr_cpus += m->cpus_per_node[i];
	}
	if (m->nr_cpus == 0)
		return bad(p, "nodes: the machine has no CPUs"), -1;
	return 0;
}

static int parse_distance(struct pctx *p, struct sr_machine *m, json_t *dist)
{
	int i, j, n = m->nr_nodes;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			m->distance[i][j] = i == j ? 10 : 21; /* ACPI SLIT defaults */
	if (!dist)
		return 0;
	if (!json_is_array(dist) || (int)json_array_size(dist) != n)
		return bad(p, "distance: expected a %d x %d matrix (one row per node)", n, n), -1;
	for (i = 0; i < n; i++) {
		json_t *row = json_array_get(dist, (size_t)i);

		if (!json_is_array(row) || (int)json_array_size(row) != n)
			return bad(p, "distance[%d]: expected a row of %d numbers", i, n), -1;
		for (j = 0; j < n; j++) {
			json_t *v = json_array_get(row, (size_t)j);

			if (!json_is_integer(v) || json_integer_value(v) < 10 ||
			    json_integer_value(v) > 254)
				return bad(p, "distance[%d][%d]: expected 10 to 254 (ACPI SLIT)", i, j), -1;
			m->distance[i][j] = (int)json_integer_value(v);
		}
		if (m->distance[i][i] != 10)
			return bad(p, "distance[%d][%d]: a node's distance to itself is 10", i, i), -1;
	}
	return 0;
}

static int parse_section(struct pctx *p, json_t *root, const char *name,
			 const char *const *keys, const double *scales, double **dst)
{
	json_t *o = json_object_get(root, name);
	int i;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return bad(p, "%s: expected an object", name), -1;
	if (check_keys(p, o, name, keys))
		return -1;
	for (i = 0; keys[i]; i++)
		if (get_num(p, o, name, keys[i], scales[i], 0, dst[i]) < 0)
			return -1;
	return 0;
}

/* A device's priority as a tier's range sees it: as given, or -1 when
 * automatic (DEF_SWAP_PRIO: every automatic priority is -1 from 6.19, the
 * kernels the tiers series is for). */
static int tier_prio(const struct sr_device *d)
{
	return d->prio_auto ? -1 : d->prio;
}

/*
 * "tiers": [{"name": N, "priority": [LO, HI]} or {"name": N, "devices":
 * [DEV, ...]}, ...]: at most 31, names unique (1 to 31 letters, digits, _
 * or -), ranges within -1..32767 and apart, each device in one tier at
 * most (docs/MACHINE.md).  Every device gets its tier and its bit.
 */
static int parse_tiers(struct pctx *p, struct sr_machine *m, json_t *v)
{
	static const char *const keys[] = { "name", "priority", "devices", NULL };
	size_t i, j;
	int d;

	for (d = 0; d < m->nr_devices; d++) {
		m->dev[d].tier = -1;
		m->dev[d].tier_bit = SR_TIER_NONE_BIT;
	}
	if (!v) {
		/* None named: two by device class, "memory" (pmem, zram: the
		 * CPU copies the page) and "block" (nvme, ssd, hdd: DMA), the
		 * card's hybrid as tiers; only an assignment uses them. */
		m->tiers_by_class = 1;
		m->nr_tiers = 2;
		snprintf(m->tier[0].name, sizeof(m->tier[0].name), "memory");
		snprintf(m->tier[1].name, sizeof(m->tier[1].name), "block");
		for (d = 0; d < m->nr_devices; d++) {
			m->dev[d].tier = sr_dev_class_memlike(m->dev[d].cls) ? 0 : 1;
			m->dev[d].tier_bit = 1u << m->dev[d].tier;
		}
		return 0;
	}
	if (!json_is_array(v))
		return bad(p, "tiers: expected an array of swap tiers");
	if (json_array_size(v) > SR_MACHINE_MAX_TIERS)
		return bad(p, "tiers: %zu tiers, at most %d (the swap tiers series' limit)",
			   json_array_size(v), SR_MACHINE_MAX_TIERS);
	for (i = 0; i < json_array_size(v); i++) {
		json_t *o = json_array_get(v, i), *n, *pr, *dl;
		struct sr_tier *t = &m->tier[i];
		char where[48];
		const char *name;

		snprintf(where, sizeof(where), "tiers[%zu]", i);
		if (!json_is_object(o))
			return bad(p, "%s: expected an object", where);
		if (check_keys(p, o, where, keys))
			return -1;
		n = json_object_get(o, "name");
		name = json_is_string(n) ? json_string_value(n) : NULL;
		if (!name || !name[0] || strlen(name) >= sizeof(t->name) ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			    strlen(name))
			return bad(p, "%s.name: expected 1 to %zu letters, digits, _ or -", where,
				   sizeof(t->name) - 1);
		for (j = 0; j < i; j++)
			if (!strcmp(m->tier[j].name, name))
				return bad(p, "%s.name: tier \"%s\" is named twice", where, name);
		snprintf(t->name, sizeof(t->name), "%s", name);
		pr = json_object_get(o, "priority");
		dl = json_object_get(o, "devices");
		if (!pr == !dl)
			return bad(p, "%s: expected a \"priority\" range or a \"devices\" list, "
				   "one of the two", where);
		if (pr) {
			json_t *lo = json_array_get(pr, 0), *hi = json_array_get(pr, 1);

			if (!json_is_array(pr) || json_array_size(pr) != 2 || !json_is_integer(lo) ||
			    !json_is_integer(hi) || json_integer_value(lo) < -1 ||
			    json_integer_value(hi) > 32767 ||
			    json_integer_value(lo) > json_integer_value(hi))
				return bad(p, "%s.priority: expected [LO, HI], -1 <= LO <= HI <= 32767 "
					   "(an automatic priority counts as -1)", where);
			t->by_priority = 1;
			t->lo = (int)json_integer_value(lo);
			t->hi = (int)json_integer_value(hi);
			for (j = 0; j < i; j++)
				if (m->tier[j].by_priority && t->lo <= m->tier[j].hi &&
				    m->tier[j].lo <= t->hi)
					return bad(p, "%s.priority: [%d, %d] overlaps tier %s's [%d, %d]",
						   where, t->lo, t->hi, m->tier[j].name, m->tier[j].lo,
						   m->tier[j].hi);
			for (d = 0; d < m->nr_devices; d++) {
				int pd = tier_prio(&m->dev[d]);

				if (pd < t->lo || pd > t->hi)
					continue;
				if (m->dev[d].tier >= 0)
					return bad(p, "%s: device %s (priority %d) is in tier %s already",
						   where, m->dev[d].name, pd, m->tier[m->dev[d].tier].name);
				m->dev[d].tier = (int)i;
			}
		} else {
			if (!json_is_array(dl) || !json_array_size(dl))
				return bad(p, "%s.devices: expected a list of device names", where);
			for (j = 0; j < json_array_size(dl); j++) {
				json_t *dn = json_array_get(dl, j);

				for (d = 0; json_is_string(dn) && d < m->nr_devices; d++)
					if (!strcmp(m->dev[d].name, json_string_value(dn)))
						break;
				if (!json_is_string(dn) || d == m->nr_devices)
					return bad(p, "%s.devices[%zu]: %s%s%s is not a device of this "
						   "machine", where, j, json_is_string(dn) ? "\"" : "",
						   json_is_string(dn) ? json_string_value(dn) : "not a name",
						   json_is_string(dn) ? "\"" : "");
				if (m->dev[d].tier >= 0)
					return bad(p, "%s: device %s is in tier %s already", where,
						   m->dev[d].name, m->tier[m->dev[d].tier].name);
				m->dev[d].tier = (int)i;
			}
		}
		m->nr_tiers++;
	}
	/* A tier by priority after a list may take a listed device: checked
	 * above in list order; a list after a range, here. */
	for (d = 0; d < m->nr_devices; d++)
		if (m->dev[d].tier >= 0)
			m->dev[d].tier_bit = 1u << m->dev[d].tier;
	return 0;
}

/* A percentage of obj: 1 set (in *out), 0 absent, -1 not within [lo, 100]. */
static int get_pct(struct pctx *p, json_t *obj, const char *key, double lo, double *out)
{
	double x;
	int rc = get_num(p, obj, "zswap", key, 1, 1, &x);

	if (rc <= 0)
		return rc;
	if (x < lo || x > 100)
		return bad(p, "zswap.%s: expected a percentage from %g to 100 (%g)", key, lo, x), -1;
	*out = x;
	return 1;
}

/*
 * "zswap": {"enabled", "compressor", "memory_gib" or "pool_mib",
 * "max_pool_percent", "accept_threshold_percent", "compress_ratio",
 * "zero_percent", "incompressible_percent", "compress_us", "decompress_us",
 * "writeback"} (docs/MACHINE.md): zswap in front of the swap devices, as
 * `machine --probe` reads it from /sys/module/zswap/parameters.
 */
static int parse_zswap(struct pctx *p, struct sr_machine *m, json_t *o)
{
	static const char *const keys[] = { "enabled", "compressor", "memory_gib", "pool_mib",
		"max_pool_percent", "accept_threshold_percent", "compress_ratio", "zero_percent",
		"incompressible_percent", "compress_us", "decompress_us", "writeback", NULL };
	static const double cns[][3] = {
		[SR_ZSWAP_LZ4] = { ZSWAP_LZ4_COMPRESS_NS, ZSWAP_LZ4_DECOMPRESS_NS, ZSWAP_LZ4_RATIO },
		[SR_ZSWAP_LZO] = { ZSWAP_LZO_COMPRESS_NS, ZSWAP_LZO_DECOMPRESS_NS, ZSWAP_LZO_RATIO },
		[SR_ZSWAP_ZSTD] = { ZSWAP_ZSTD_COMPRESS_NS, ZSWAP_ZSTD_DECOMPRESS_NS,
				    ZSWAP_ZSTD_RATIO },
	};
	struct sr_zswap *z = &m->zswap;
	double pool_mib = 0, pct;
	json_t *v;
	int c;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return bad(p, "zswap: expected an object"), -1;
	if (check_keys(p, o, "zswap", keys))
		return -1;
	v = json_object_get(o, "enabled");
	if (v && !json_is_boolean(v))
		return bad(p, "zswap.enabled: expected true or false"), -1;
	z->enabled = !v || json_is_true(v);
	v = json_object_get(o, "writeback");
	if (v && !json_is_boolean(v))
		return bad(p, "zswap.writeback: expected true or false"), -1;
	z->writeback = !v || json_is_true(v);
	/* The kernel's default, CONFIG_ZSWAP_COMPRESSOR_DEFAULT (lzo in
	 * mm/Kconfig, 6.6); a distribution's may differ, as probe reads. */
	z->comp = SR_ZSWAP_LZO;
	v = json_object_get(o, "compressor");
	if (v) {
		const char *cs = json_is_string(v) ? json_string_value(v) : "";

		for (c = 0; c <= SR_ZSWAP_ZSTD && strcmp(cs, zswap_comp_names[c]); c++)
			;
		if (c > SR_ZSWAP_ZSTD)
			return bad(p, "zswap.compressor: expected lz4, lzo or zstd (the compressors "
				   "with cited costs; another's costs are not known here)"), -1;
		z->comp = (enum sr_zswap_comp)c;
	}
	z->compress_ns = cns[z->comp][0];
	z->decompress_ns = cns[z->comp][1];
	z->ratio = cns[z->comp][2];
	z->max_pool_pct = ZSWAP_MAX_POOL_PERCENT;
	z->accept_pct = ZSWAP_ACCEPT_PERCENT;
	if (get_num(p, o, "zswap", "memory_gib", 1073741824.0, 0, &z->mem_bytes) < 0 ||
	    get_num(p, o, "zswap", "pool_mib", 1024.0 * 1024, 0, &pool_mib) < 0 ||
	    get_pct(p, o, "max_pool_percent", 0, &z->max_pool_pct) < 0 ||
	    get_pct(p, o, "accept_threshold_percent", 0, &z->accept_pct) < 0 ||
	    get_num(p, o, "zswap", "compress_ratio", 1, 0, &z->ratio) < 0 ||
	    get_num(p, o, "zswap", "compress_us", 1e3, 0, &z->compress_ns) < 0 ||
	    get_num(p, o, "zswap", "decompress_us", 1e3, 0, &z->decompress_ns) < 0)
		return -1;
	if (z->ratio < 1)
		return bad(p, "zswap.compress_ratio: expected at least 1 (%g): a page that does not "
			   "compress is incompressible_percent's", z->ratio), -1;
	pct = 0;
	if (get_pct(p, o, "zero_percent", 0, &pct) < 0)
		return -1;
	z->zero_share = pct / 100;
	pct = 0;
	if (get_pct(p, o, "incompressible_percent", 0, &pct) < 0)
		return -1;
	z->incompressible_share = pct / 100;
	if (z->zero_share + z->incompressible_share > 1)
		return bad(p, "zswap: zero_percent and incompressible_percent add up to over 100"), -1;
	if (pool_mib > 0 && json_object_get(o, "max_pool_percent"))
		return bad(p, "zswap: pool_mib and max_pool_percent both set the pool's limit; give "
			   "one"), -1;
	if (pool_mib > 0)
		z->pool_bytes = pool_mib;
	else if (z->mem_bytes > 0)
		z->pool_bytes = z->mem_bytes * z->max_pool_pct / 100;
	else if (z->enabled)
		return bad(p, "zswap: the pool's limit needs memory_gib (the machine's RAM, MemTotal: "
			   "the limit is max_pool_percent of it) or pool_mib"), -1;
	return 0;
}

enum sr_err sr_machine_parse(struct sr_machine **out, const char *json, size_t len,
			     const char *origin, struct sr_diag *caller)
{
	struct sr_diag local, *diag = caller ? caller : &local;
	static const char *const top[] = { "schema", "name", "description", "kernel", "nodes",
		"distance", "interconnect", "memory", "cpu", "devices", "tiers", "zswap", NULL };
	static const char *const ikeys[] = { "bw_gb_s", "latency_ns", NULL };
	static const double iscale[] = { GBS, 1 };
	static const char *const mkeys[] = { "read_local_gb_s", "read_remote_gb_s",
		"write_local_gb_s", "write_remote_gb_s", NULL };
	static const double mscale[] = { GBS, GBS, GBS, GBS };
	static const char *const ckeys[] = { "reclaim_ns", "reclaim_page_ns", "fault_ns",
		"swap_lock_ns", "swap_slot_ns", "lru_lock_ns", "lru_refault_ns", "swap_lock_other_ns",
		"swap_cache_lock_ns", "remote_submit_ns", "blk_request_ns", "queue_lock_ns",
		"remote_miss_ns", "line_ns", "swapcache_ns", "shadow_node_ns", NULL };
	static const double cscale[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct pctx p = { origin, diag };
	struct sr_machine *m;
	json_error_t jerr;
	json_t *root, *v;
	size_t i;
	enum sr_err err = SR_ERR_MACHINE;

	*out = NULL;
	sr_diag_clear(diag);
	if (len > MACHINE_MAX_BYTES)
		return bad(&p, "machine description over %u bytes", MACHINE_MAX_BYTES);
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		sr_diag_file(diag, origin);
		diag->line = (uint64_t)(jerr.line > 0 ? jerr.line : 0);
		return sr_diag_set(diag, SR_ERR_MACHINE, "JSON syntax error at column %d: %s",
				   jerr.column, jerr.text);
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		json_decref(root);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	machine_defaults(m);
	if (!json_is_object(root)) {
		bad(&p, "expected a JSON object");
		goto out;
	}
	if (check_keys(&p, root, "machine", top))
		goto out;
	v = json_object_get(root, "schema");
	if (v && (!json_is_string(v) || strcmp(json_string_value(v), "swapreplay-machine/1"))) {
		bad(&p, "schema: expected \"swapreplay-machine/1\"");
		goto out;
	}
	v = json_object_get(root, "name");
	if (v && !json_is_string(v)) {
		bad(&p, "name: expected a string");
		goto out;
	}
	snprintf(m->name, sizeof(m->name), "%s", v ? json_string_value(v) : origin);
	v = json_object_get(root, "description");
	if (json_is_string(v))
		snprintf(m->description, sizeof(m->description), "%s", json_string_value(v));
	/* The kernel it ran, as uname -r printed it: the replay's kernel when
	 * none is asked for (sr_kernel_resolve()); checked as a version there,
	 * so that a description of a kernel not modelled still loads. */
	v = json_object_get(root, "kernel");
	if (v) {
		const char *ks = json_is_string(v) ? json_string_value(v) : NULL;
		size_t kl = ks ? strlen(ks) : 0, j;

		for (j = 0; j < kl && ks[j] > ' ' && ks[j] < 0x7f; j++)
			;
		if (!ks || !kl || kl >= sizeof(m->kernel) || j < kl) {
			bad(&p, "kernel: expected the release as uname -r prints it (6.18.44, "
			    "6.6.0-28-generic): 1 to %zu printable characters, no space",
			    sizeof(m->kernel) - 1);
			goto out;
		}
		memcpy(m->kernel, ks, kl + 1);
	}
	if (parse_cpus(&p, m, json_object_get(root, "nodes")) ||
	    parse_distance(&p, m, json_object_get(root, "distance")))
		goto out;
	{
		double *idst[] = { &m->link_bw, &m->link_lat_ns };
		double *mdst[] = { &m->dram_rd_local, &m->dram_rd_remote, &m->dram_wr_local,
				   &m->dram_wr_remote };
		double *cdst[] = { &m->reclaim_ns, &m->reclaim_page_ns, &m->fault_ns,
				   &m->swap_lock_ns, &m->swap_slot_ns, &m->lru_lock_ns, &m->lru_refault_ns,
				   &m->swap_lock_other_ns, &m->swap_cache_lock_ns,
				   &m->remote_submit_ns, &m->blk_request_ns, &m->queue_lock_ns,
				   &m->remote_miss_ns, &m->line_ns, &m->swapcache_ns,
				   &m->shadow_node_ns };

		v = json_object_get(root, "cpu");
		if (json_is_object(v) && json_object_get(v, "event_ns")) {
			bad(&p, "cpu.event_ns: the one per-event constant is gone; the kernel's paths are reclaim_ns, reclaim_page_ns, fault_ns, swap_lock_ns, swap_slot_ns, lru_lock_ns, lru_refault_ns, swap_lock_other_ns and swap_cache_lock_ns (docs/MACHINE.md)");
			goto out;
		}
		if (parse_section(&p, root, "interconnect", ikeys, iscale, idst) ||
		    parse_section(&p, root, "memory", mkeys, mscale, mdst) ||
		    parse_section(&p, root, "cpu", ckeys, cscale, cdst))
			goto out;
	}
	v = json_object_get(root, "devices");
	/* Empty: a machine with swap off (machine --probe writes it so);
	 * it describes the machine, and a replay refuses it. */
	if (!json_is_array(v)) {
		bad(&p, "devices: expected an array of swap devices");
		goto out;
	}
	if (json_array_size(v) > SR_MACHINE_MAX_DEVICES) {
		bad(&p, "devices: %zu devices, at most %d are supported", json_array_size(v),
		    SR_MACHINE_MAX_DEVICES);
		goto out;
	}
	for (i = 0; i < json_array_size(v); i++) {
		int rc = parse_device(&p, m, json_array_get(v, i), (int)i);

		if (rc) {
			if (rc == -2)
				err = SR_ERR_NOMEM;
			goto out;
		}
		m->nr_devices++;
	}
	if (parse_tiers(&p, m, json_object_get(root, "tiers")) ||
	    parse_zswap(&p, m, json_object_get(root, "zswap")))
		goto out;
	m->json = malloc(len + 1);
	if (!m->json) {
		err = sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
		goto out;
	}
	memcpy(m->json, json, len);
	m->json[len] = '\0';
	json_decref(root);
	*out = m;
	return SR_OK;
out:
	json_decref(root);
	sr_machine_free(m);
	return err;
}

enum sr_err sr_machine_check_event(const struct sr_machine *m, const struct sr_event *e,
				   uint64_t nth, struct sr_diag *d)
{
	unsigned node = e->cpu_nid >= m->nr_nodes ? e->cpu_nid : e->page_nid;

	if (node < (unsigned)m->nr_nodes)
		return SR_OK;
	sr_diag_clear(d);
	if (d)
		d->record = nth;
	return sr_diag_set(d, SR_ERR_MACHINE,
			   "the trace names node %u, but machine %s has %d node%s (0 to %d)", node,
			   m->name, m->nr_nodes, m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1);
}

void sr_machine_free(struct sr_machine *m)
{
	if (!m)
		return;
	free(m->json);
	free(m->notes);
	free(m);
}

enum sr_err sr_machine_load(struct sr_machine **out, const char *name_or_path,
			    struct sr_diag *caller)
{
	struct sr_diag local, *diag = caller ? caller : &local;
	const char *preset = sr_machine_preset_json(name_or_path);
	enum sr_err err;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	*out = NULL;
	if (preset) {
		err = sr_machine_parse(out, preset, strlen(preset), name_or_path, diag);
		if (!err)
			(*out)->from_preset = 1;
		return err;
	}
	sr_diag_clear(diag);
	sr_diag_file(diag, name_or_path);
	f = fopen(name_or_path, "rb");
	if (!f) {
		const char *const *n = sr_machine_preset_names();
		char list[256] = "";

		for (; *n; n++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", *n);
		return sr_diag_set(diag, errno == ENOENT ? SR_ERR_INVAL : SR_ERR_IO,
				   "no such preset or file: %s (presets: %s)", strerror(errno), list);
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			if (cap >= MACHINE_MAX_BYTES) {
				fclose(f);
				free(buf);
				return sr_diag_set(diag, SR_ERR_MACHINE,
						   "machine description over %u bytes", MACHINE_MAX_BYTES);
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				fclose(f);
				free(buf);
				return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return sr_diag_set(diag, SR_ERR_IO, "read error");
	}
	fclose(f);
	err = sr_machine_parse(out, buf ? buf : "", len, name_or_path, diag);
	free(buf);
	return err;
}

/* ---- perturbed copies, for --uncertainty -------------------------------- */

/* A factor log-uniform in [1/(1+rel), 1+rel]. */
static double factor(uint64_t *x, double rel)
{
	double u = (double)(sr_splitmix64(x) >> 11) * 0x1p-53 * 2.0 - 1.0; /* [-1, 1) */

	return exp(u * log1p(rel));
}

unsigned sr_machine_fitted(const struct sr_machine *m)
{
	return (m->swap_lock_ns == DEF_SWAP_LOCK_NS ? SR_FIT_SWAP_LOCK : 0) |
	       (m->lru_lock_ns == DEF_LRU_LOCK_NS ? SR_FIT_LRU_LOCK : 0) |
	       (m->lru_refault_ns == DEF_LRU_REFAULT_NS ? SR_FIT_LRU_REFAULT : 0) |
	       (m->swap_cache_lock_ns == DEF_SWAP_CACHE_LOCK_NS ? SR_FIT_SWAP_CACHE_LOCK : 0);
}

enum sr_err sr_machine_perturb(const struct sr_machine *m, uint64_t seed, double rel,
			       struct sr_machine **out)
{
	struct sr_machine *c;
	double f[5][16];
	uint64_t x = seed;
	int i, k, cls;

	*out = NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return SR_ERR_NOMEM;
	*c = *m;
	c->json = NULL;
	c->notes = NULL;
	c->link_bw *= factor(&x, rel);
	c->link_lat_ns *= factor(&x, rel);
	c->dram_rd_local *= factor(&x, rel);
	c->dram_rd_remote *= factor(&x, rel);
	c->dram_wr_local *= factor(&x, rel);
	c->dram_wr_remote *= factor(&x, rel);
	c->reclaim_ns *= factor(&x, rel);
	c->remote_submit_ns *= factor(&x, rel);
	c->reclaim_page_ns *= factor(&x, rel);
	c->fault_ns *= factor(&x, rel);
	c->swap_lock_ns *= factor(&x, rel);
	c->swap_lock_other_ns *= factor(&x, rel);
	c->swap_cache_lock_ns *= factor(&x, rel);
	c->swap_slot_ns *= factor(&x, rel);
	c->lru_lock_ns *= factor(&x, rel);
	c->lru_refault_ns *= factor(&x, rel);
	for (cls = 0; cls < 5; cls++)
		for (k = 0; k < 16; k++)
			f[cls][k] = factor(&x, rel);
	for (i = 0; i < c->nr_devices; i++) {
		struct sr_device *d = &c->dev[i];
		double *g = f[d->cls];

		d->read_lat_ns *= g[0];
		d->write_lat_ns *= g[1];
		d->read_iops *= g[2];
		d->write_iops *= g[3];
		d->read_bw *= g[4];
		d->write_bw *= g[5];
		d->seek_ns *= g[6];
		d->seek_track_ns *= g[6];
		d->seek_full_ns *= g[6];
		d->rd_local *= g[7];
		d->rd_remote *= g[8];
		d->wr_local *= g[9];
		d->wr_remote *= g[10];
		d->cap_rd_local *= g[11];
		d->cap_rd_remote *= g[12];
		d->cap_wr_local *= g[13];
		d->cap_wr_remote *= g[14];
		d->compress_bw *= g[15];
		d->decompress_bw *= g[15];
	}
	/* Drawn last: the draws before them are those of machines without
	 * a block layer modelled. */
	c->blk_request_ns *= factor(&x, rel);
	c->queue_lock_ns *= factor(&x, rel);
	/* Last again: the draws before it are those of earlier versions. */
	c->remote_miss_ns *= factor(&x, rel);
	/* And after them an hdd's command overheads and interface (D4), one
	 * factor each for every hdd. */
	{
		double ovh = factor(&x, rel), bw = factor(&x, rel);

		for (i = 0; i < c->nr_devices; i++) {
			struct sr_device *d = &c->dev[i];

			d->ovh_miss_ns *= ovh;
			d->ovh_hit_ns *= ovh;
			d->ovh_write_ns *= ovh;
			d->iface_bw *= bw;
		}
	}
	/* Last again (L6), then E3's, so that the earlier draws stay. */
	c->line_ns *= factor(&x, rel);
	c->swapcache_ns *= factor(&x, rel);
	c->shadow_node_ns *= factor(&x, rel);
	/* Then zswap's per-page costs (Zs3), one factor for the two; the
	 * pool's size, the ratio and the page kinds are the workload's and
	 * the machine's settings, not uncertain figures. */
	{
		double zc = factor(&x, rel);

		c->zswap.compress_ns *= zc;
		c->zswap.decompress_ns *= zc;
	}
	*out = c;
	return SR_OK;
}
