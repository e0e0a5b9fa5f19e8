/* SPDX-License-Identifier: MIT */
/* Lists of strings (strs.h). */
#include <stdlib.h>
#include <string.h>

#include "common/strs.h"

int sr_strs_add(struct sr_strs *s, const char *x, size_t len)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		char **nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n] = strndup(x, len);
	return s->v[s->n] ? (int)(s->n++, 0) : -1;
}

long sr_strs_index(struct sr_strs *s, const char *x)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return (long)i;
	return sr_strs_add(s, x, strlen(x)) ? -1 : (long)(s->n - 1);
}

void sr_strs_free(struct sr_strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
