/* SPDX-License-Identifier: MIT */
/*
 * The memory cgroups a trace names: id -> path (traces/FORMAT.md, "Memory
 * cgroups").  A reader fills its table as it reads the names (a CSV row's
 * or a JSON line's memcg_path, a .swt name record) while a writer on
 * another thread may look them up (convert through a pipe): each path is
 * set once, its pointer published with a release store and read with an
 * acquire load, and never changed or freed before the table.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/quote.h"
#include "swapreplay/trace.h"

struct sr_memcgs {
	/* SR_MEMCG_MAX + 1 entries (512 KiB of address space: calloc maps
	 * zero pages, touched only where a name is set) */
	_Atomic(char *) *path;
	atomic_uint count;
};

enum sr_err sr_memcgs_new(struct sr_memcgs **out)
{
	struct sr_memcgs *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return SR_ERR_NOMEM;
	m->path = calloc(SR_MEMCG_MAX + 1, sizeof(*m->path));
	if (!m->path) {
		free(m);
		return SR_ERR_NOMEM;
	}
	*out = m;
	return SR_OK;
}

void sr_memcgs_free(struct sr_memcgs *m)
{
	unsigned i;

	if (!m)
		return;
	for (i = 1; i <= SR_MEMCG_MAX && atomic_load(&m->count); i++)
		free(atomic_load_explicit(&m->path[i], memory_order_relaxed));
	free(m->path);
	free(m);
}

/* p[0..n) for a message: at most 40 bytes, a control byte or one that is
 * not UTF-8 as '?'. */
static const char *shown(char *buf, const char *p, size_t n)
{
	size_t i = 0, o = 0, k, lim = n > 40 ? 40 : n;

	while (i < lim) {
		k = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? 0 :
		    sr_utf8_seq((const unsigned char *)p + i, n - i);
		if (!k || i + k > lim) {
			buf[o++] = '?';
			i++;
			continue;
		}
		memcpy(buf + o, p + i, k);
		o += k;
		i += k;
	}
	strcpy(buf + o, n > 40 ? "..." : "");
	return buf;
}

/* Whether p[0..n) is a path a trace may give: from '/', at most
 * SR_MEMCG_PATH_MAX bytes, UTF-8 without a control byte (it is written in
 * CSV and JSON as it is, and printed; JSON takes UTF-8 only). */
static const char *path_problem(const char *p, size_t n)
{
	size_t i, k;

	if (!n || p[0] != '/')
		return "a memcg path starts with '/' (its cgroup's path from the root of the "
		       "hierarchy, as /proc/PID/cgroup gives it)";
	if (n > SR_MEMCG_PATH_MAX)
		return "memcg path longer than 4095 bytes";
	for (i = 0; i < n; i += k) {
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return "memcg path with a control byte";
		k = sr_utf8_seq((const unsigned char *)p + i, n - i);
		if (!k)
			return "memcg path not in UTF-8";
	}
	return NULL;
}


int sr_memcgs_set(struct sr_memcgs *m, unsigned id, const char *p, size_t n, char *msg,
		  size_t msz)
{
	const char *why = path_problem(p, n);
	char *old, *s, buf[48];

	if (!why && (id == 0 || id > SR_MEMCG_MAX))
		why = "a memcg path needs its memcg (an id from 1 to 65535)";
	if (why) {
		snprintf(msg, msz, "%s (memcg_path, \"%s\")", why, shown(buf, p, n));
		return -1;
	}
	old = atomic_load_explicit(&m->path[id], memory_order_relaxed);
	if (old) {
		if (strlen(old) == n && memcmp(old, p, n) == 0)
			return 0;
		snprintf(msg, msz, "memcg %u was named %.200s earlier: one path per memcg in a "
			 "trace (memcg_path, \"%s\")", id, old, shown(buf, p, n));
		return -1;
	}
	s = malloc(n + 1);
	if (!s) {
		snprintf(msg, msz, "out of memory");
		return -2;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	atomic_store_explicit(&m->path[id], s, memory_order_release);
	atomic_fetch_add_explicit(&m->count, 1, memory_order_relaxed);
	return 0;
}

const char *sr_memcgs_path(const struct sr_memcgs *m, unsigned id)
{
	if (!m || id == 0 || id > SR_MEMCG_MAX)
		return NULL;
	return atomic_load_explicit(&m->path[id], memory_order_acquire);
}

unsigned sr_memcgs_count(const struct sr_memcgs *m)
{
	return m ? atomic_load_explicit(&m->count, memory_order_relaxed) : 0;
}
