/* SPDX-License-Identifier: MIT */
/* Arrays that grow by doubling. */
#ifndef SR_COMMON_GROW_H
#define SR_COMMON_GROW_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * Make the array *p of *cap elements of elem bytes hold need of them: its
 * capacity doubled (from first, when it has none) until it does.  0, or -1
 * out of memory (*p and *cap unchanged).
 */
static inline int sr_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

/* sr_grow(), the new elements zeroed. */
static inline int sr_grow_zeroed(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t old = *cap;

	if (sr_grow(p, cap, need, elem, first))
		return -1;
	memset((char *)*p + old * elem, 0, (*cap - old) * elem);
	return 0;
}

#endif /* SR_COMMON_GROW_H */
