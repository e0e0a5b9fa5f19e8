/* SPDX-License-Identifier: MIT */
/*
 * The hashes and the one generator every layer shares, one copy each: a
 * content hash a sweep's --resume compares with what the trace reader
 * computed must be the same function, and a seeded draw must be the
 * same wherever it is made.
 */
#ifndef SR_COMMON_HASH_H
#define SR_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits (Fowler, Noll, Vo): the content hash of traces and
 * machine descriptions (sweeps' row identity); start from SR_FNV_BASIS. */
#define SR_FNV_BASIS 0xcbf29ce484222325ULL
#define SR_FNV_PRIME 0x100000001b3ULL

static inline uint64_t sr_fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= SR_FNV_PRIME;
	}
	return h;
}

/* splitmix64's finaliser (Steele, Lea and Flood; Vigna's constants): 64
 * bits mixed so that sequential inputs spread evenly. */
static inline uint64_t sr_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* splitmix64: the next of the sequence whose state is *x. */
static inline uint64_t sr_splitmix64(uint64_t *x)
{
	return sr_mix64(*x += 0x9e3779b97f4a7c15ULL);
}

#endif /* SR_COMMON_HASH_H */
