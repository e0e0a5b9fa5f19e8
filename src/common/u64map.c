/* SPDX-License-Identifier: MIT */
/*
 * A u64 -> u64 open-addressing hash map with linear probing.  Used for sets
 * of pids and CPUs in `stat` and for the tasks and swap slot maps of the
 * replay, whose size is the number of distinct keys in use, never the
 * length of the trace.  Keys and values sit side by side (one cache miss per
 * probe); SR_U64MAP_EMPTY marks a free entry and cannot be a key.
 */
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/u64map.h"

static inline size_t hash_u64(uint64_t k)
{
	/* splitmix64's finaliser: sequential keys spread evenly. */
	return (size_t)sr_mix64(k);
}

void sr_u64map_init(struct sr_u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void sr_u64map_free(struct sr_u64map *m)
{
	if (!m)
		return;
	free(m->ent);
	memset(m, 0, sizeof(*m));
}

static int rehash(struct sr_u64map *m, size_t ncap)
{
	struct sr_u64ent *n = malloc(ncap * sizeof(*n));
	size_t i;

	if (!n)
		return -1;
	memset(n, 0xff, ncap * sizeof(*n)); /* every key SR_U64MAP_EMPTY */
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (m->ent[i].key == SR_U64MAP_EMPTY)
			continue;
		j = hash_u64(m->ent[i].key) & (ncap - 1);
		while (n[j].key != SR_U64MAP_EMPTY)
			j = (j + 1) & (ncap - 1);
		n[j] = m->ent[i];
	}
	free(m->ent);
	m->ent = n;
	m->cap = ncap;
	return 0;
}

uint64_t *sr_u64map_get(const struct sr_u64map *m, uint64_t key)
{
	size_t j;

	if (!m->cap)
		return NULL;
	j = hash_u64(key) & (m->cap - 1);
	while (m->ent[j].key != SR_U64MAP_EMPTY) {
		if (m->ent[j].key == key)
			return &m->ent[j].val;
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

uint64_t *sr_u64map_put(struct sr_u64map *m, uint64_t key, int *added)
{
	size_t j;

	if (key == SR_U64MAP_EMPTY)
		return NULL;
	/* Grow at half full: probes stay short. */
	if ((m->count + 1) * 2 > m->cap) {
		if (rehash(m, m->cap ? m->cap * 2 : 16))
			return NULL;
	}
	j = hash_u64(key) & (m->cap - 1);
	while (m->ent[j].key != SR_U64MAP_EMPTY) {
		if (m->ent[j].key == key) {
			if (added)
				*added = 0;
			return &m->ent[j].val;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->ent[j].key = key;
	m->ent[j].val = 0;
	m->count++;
	if (added)
		*added = 1;
	return &m->ent[j].val;
}

/*
 * Deletion without tombstones (backward shift, Knuth 6.4 algorithm R): the
 * entries after the hole move back when their probe sequence allows, so
 * that churn never degrades the table or forces a rehash.
 */
int sr_u64map_del(struct sr_u64map *m, uint64_t key)
{
	uint64_t *v = sr_u64map_get(m, key);
	size_t i, j, mask = m->cap - 1;

	if (!v)
		return 0;
	i = (size_t)((struct sr_u64ent *)(void *)v - m->ent);
	j = i;
	for (;;) {
		size_t k;

		j = (j + 1) & mask;
		if (m->ent[j].key == SR_U64MAP_EMPTY)
			break;
		k = hash_u64(m->ent[j].key) & mask;
		/* Leave j where it is if its home k lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		m->ent[i] = m->ent[j];
		i = j;
	}
	m->ent[i].key = SR_U64MAP_EMPTY;
	m->count--;
	return 1;
}

void sr_u64map_free_ptrs(struct sr_u64map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->ent[i].key != SR_U64MAP_EMPTY)
			free((void *)(uintptr_t)m->ent[i].val);
	sr_u64map_free(m);
}
