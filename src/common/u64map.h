/* SPDX-License-Identifier: MIT */
/* A u64 -> u64 hash map, open addressing with linear probing
 * (u64map.c). */
#ifndef SR_COMMON_U64MAP_H
#define SR_COMMON_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#define SR_U64MAP_EMPTY UINT64_MAX /* marks a free entry; not a valid key */

struct sr_u64ent {
	uint64_t key;
	uint64_t val; /* first member after key: &val maps back to the entry */
};

struct sr_u64map {
	struct sr_u64ent *ent;
	size_t cap;          /* power of two, or 0 */
	size_t count;
};

/* Iterate: for (i = 0; i < m->cap; i++) if (m->ent[i].key != SR_U64MAP_EMPTY) */
void sr_u64map_init(struct sr_u64map *m);
void sr_u64map_free(struct sr_u64map *m);
/* Returns pointer to the value slot (inserting 0 if absent, *added=1), or
 * NULL on ENOMEM or for the key SR_U64MAP_EMPTY. */
uint64_t *sr_u64map_put(struct sr_u64map *m, uint64_t key, int *added);
/* sr_u64map_free() of a map whose values are malloc()ed pointers: those
 * are freed too. */
void sr_u64map_free_ptrs(struct sr_u64map *m);
/* Returns pointer to the value or NULL if absent. */
uint64_t *sr_u64map_get(const struct sr_u64map *m, uint64_t key);
/* Remove key; returns 1 if it was there. */
int sr_u64map_del(struct sr_u64map *m, uint64_t key);

#endif /* SR_COMMON_U64MAP_H */
