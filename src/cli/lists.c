/* SPDX-License-Identifier: MIT */
/*
 * Lists of strings the commands gather from their arguments: inputs,
 * machines, and the policies of --policy, parsed once for replay and
 * sweep alike.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/policy.h"

int cli_strs_add(struct cli_strs *s, const char *x, size_t len)
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

int cli_strs_find(const struct cli_strs *s, const char *x, size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !strncmp(s->v[i], x, len))
			return (int)i;
	return -1;
}

/* x[0..len) appended unless it is there already. */
static int add_once(struct cli_strs *s, const char *x, size_t len)
{
	return cli_strs_find(s, x, len) >= 0 ? 0 : cli_strs_add(s, x, len);
}

int cli_strs_prepend(struct cli_strs *s, const char *x)
{
	char *keep;

	if (cli_strs_add(s, x, strlen(x)))
		return -1;
	keep = s->v[s->n - 1];
	memmove(&s->v[1], &s->v[0], (s->n - 1) * sizeof(s->v[0]));
	s->v[0] = keep;
	return 0;
}

void cli_strs_free(struct cli_strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "a,b,c" appended, each once; with all, "all" is every built-in policy. */
static int split(struct cli_strs *s, const char *arg, int all)
{
	if (!*arg)
		return -2;
	while (*arg) {
		const char *c = strchr(arg, ',');
		size_t n = c ? (size_t)(c - arg) : strlen(arg);

		if (!n || (c && !c[1]))
			return -2;
		if (all && n == 3 && !strncmp(arg, "all", 3)) {
			const struct sr_policy_ops *const *b = sr_policy_all();
			int i;

			for (i = 0; b[i]; i++)
				if (add_once(s, b[i]->name, strlen(b[i]->name)))
					return -1;
		} else if (add_once(s, arg, n)) {
			return -1;
		}
		arg += n + (c ? 1 : 0);
	}
	return 0;
}

int cli_strs_split(struct cli_strs *s, const char *arg)
{
	return split(s, arg, 0);
}

int cli_policy_list(struct cli_strs *s, const char *arg)
{
	return split(s, arg, 1);
}
