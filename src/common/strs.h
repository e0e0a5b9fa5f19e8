/* SPDX-License-Identifier: MIT */
/* Lists of strings, each owned (strs.c): a sweep's inputs, rows' names, a
 * chart's series. */
#ifndef SR_COMMON_STRS_H
#define SR_COMMON_STRS_H

#include <stddef.h>

struct sr_strs {
	char **v;
	size_t n, cap;
};

/* Append a copy of x[0..len); 0, or -1 out of memory. */
int sr_strs_add(struct sr_strs *s, const char *x, size_t len);
/* The index of the string x in s, appended if it is not there yet (names
 * in the order first seen); -1 out of memory.  A linear search. */
long sr_strs_index(struct sr_strs *s, const char *x);
/* Free the strings and the list; the list is empty afterwards. */
void sr_strs_free(struct sr_strs *s);

#endif /* SR_COMMON_STRS_H */
