/* SPDX-License-Identifier: MIT */
/*
 * A u64 -> u64 open-addressing hash map.  Used for sets of pids and CPUs in
 * `stat` and for the swap slot maps of the replay, whose size is the number
 * of distinct keys in use, never the length of the trace.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static inline size_t hash_u64(uint64_t k)
{
	/* splitmix64 finaliser: cheap and good enough for sequential keys. */
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k;
}

void sr_u64map_init(struct sr_u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void sr_u64map_free(struct sr_u64map *m)
{
	if (!m)
		return;
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static int rehash(struct sr_u64map *m, size_t ncap)
{
	struct sr_u64map n;
	size_t i;

	n.keys = malloc(ncap * sizeof(*n.keys));
	n.vals = malloc(ncap * sizeof(*n.vals));
	n.used = calloc(ncap, 1);
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys);
		free(n.vals);
		free(n.used);
		return -1;
	}
	n.cap = ncap;
	n.count = 0;
	n.tombs = 0;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (m->used[i] != 1)
			continue;
		j = hash_u64(m->keys[i]) & (ncap - 1);
		while (n.used[j])
			j = (j + 1) & (ncap - 1);
		n.used[j] = 1;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.count++;
	}
	free(m->keys);
	free(m->vals);
	free(m->used);
	*m = n;
	return 0;
}

uint64_t *sr_u64map_get(const struct sr_u64map *m, uint64_t key)
{
	size_t j;

	if (!m->cap)
		return NULL;
	j = hash_u64(key) & (m->cap - 1);
	while (m->used[j]) {
		if (m->used[j] == 1 && m->keys[j] == key)
			return &m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

uint64_t *sr_u64map_put(struct sr_u64map *m, uint64_t key, int *added)
{
	size_t j, tomb = SIZE_MAX;

	/* Keep the load (live + deleted) under 1/2 so probes stay short. */
	if ((m->count + m->tombs + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap : 16;

		/* After a rehash live keys fill at most 1/4: deletions alone
		 * (tombstones) then rehash in place instead of growing. */
		while ((m->count + 1) * 4 > ncap)
			ncap *= 2;
		if (rehash(m, ncap))
			return NULL;
	}
	j = hash_u64(key) & (m->cap - 1);
	while (m->used[j]) {
		if (m->used[j] == 1 && m->keys[j] == key) {
			if (added)
				*added = 0;
			return &m->vals[j];
		}
		if (m->used[j] == 2 && tomb == SIZE_MAX)
			tomb = j;
		j = (j + 1) & (m->cap - 1);
	}
	if (tomb != SIZE_MAX) {
		j = tomb;
		m->tombs--;
	}
	m->used[j] = 1;
	m->keys[j] = key;
	m->vals[j] = 0;
	m->count++;
	if (added)
		*added = 1;
	return &m->vals[j];
}

int sr_u64map_del(struct sr_u64map *m, uint64_t key)
{
	uint64_t *v = sr_u64map_get(m, key);
	size_t j;

	if (!v)
		return 0;
	j = (size_t)(v - m->vals);
	m->used[j] = 2;
	m->count--;
	m->tombs++;
	return 1;
}
