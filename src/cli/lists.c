/* SPDX-License-Identifier: MIT */
/*
 * Lists of strings the commands gather from their arguments: inputs,
 * machines, and the policies of --policy, parsed once for replay and
 * sweep alike.
 */
#include <errno.h>
#include <stdio.h>
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

/* One assignment, the cgroup path p[0..plen) and its tiers t[0..tlen),
 * onto the spec being built (b, at *len): "PATH=TIERS", ';' between. */
static const char *tiers_item(char *b, size_t *len, const char *p, size_t plen, const char *t,
			      size_t tlen)
{
	if (!plen || !tlen)
		return "expected CGROUP:TIER[+TIER...] (or CGROUP:none)";
	if (p[0] != '/')
		return "a memory cgroup is named by its path, from '/'";
	if (memchr(p, '=', plen) || memchr(p, ';', plen) || memchr(t, '=', tlen) ||
	    memchr(t, ';', tlen) || memchr(t, ':', tlen))
		return "a cgroup path holding '=' or ';', or a tier name holding ':', cannot be "
		       "given here";
	if (*len + plen + tlen + 3 > SR_POLICY_SPEC_MAX - 1)
		return "the assignment is longer than a policy's parameters may be (about 500 "
		       "bytes)";
	if (*len > 6)
		b[(*len)++] = ';';
	memcpy(b + *len, p, plen);
	*len += plen;
	b[(*len)++] = '=';
	memcpy(b + *len, t, tlen);
	*len += tlen;
	b[*len] = '\0';
	return NULL;
}

int cli_tiers_spec(const char *cmd, const char *val, struct cli_strs *policies)
{
	char b[SR_POLICY_SPEC_MAX] = "tiers:", line[1024];
	size_t len = 6;
	const char *why = NULL;
	unsigned long lineno = 0;

	if (val[0] != '@') {
		/* CGROUP:TIER[+TIER...],...: a path may hold ':', a tier not. */
		const char *s = val;

		while (!why && *s) {
			const char *c = strchr(s, ',');
			size_t n = c ? (size_t)(c - s) : strlen(s);
			const char *colon = NULL, *q;

			for (q = s; q < s + n; q++)
				if (*q == ':')
					colon = q;
			why = colon ? tiers_item(b, &len, s, (size_t)(colon - s), colon + 1,
						 (size_t)(s + n - colon - 1))
				    : "expected CGROUP:TIER[+TIER...] (or CGROUP:none)";
			s += n + (c != NULL);
		}
		if (!why && len == 6)
			why = "no assignment: expected CGROUP:TIER[+TIER...],...";
		if (why)
			return cli_usage(cmd, "--tiers=%s: %s", val, why);
	} else {
		/* @FILE: a line per cgroup, "CGROUP TIER[+TIER...]"; # comments. */
		FILE *f = fopen(val + 1, "r");

		if (!f) {
			cli_err("%s: --tiers: %s", val + 1, strerror(errno));
			return EXIT_USAGE;
		}
		while (!why && fgets(line, sizeof(line), f)) {
			char *h = strchr(line, '#'), *p, *t;
			size_t pl, tl;

			lineno++;
			if (h)
				*h = '\0';
			p = line + strspn(line, " \t\r\n");
			if (!*p)
				continue;
			pl = strcspn(p, " \t\r\n");
			t = p + pl + strspn(p + pl, " \t\r\n");
			tl = strcspn(t, " \t\r\n");
			why = tiers_item(b, &len, p, pl, t, tl);
			if (!why && t[tl + strspn(t + tl, " \t\r\n")])
				why = "expected CGROUP TIER[+TIER...], and nothing after";
		}
		if (!why && ferror(f))
			why = "cannot be read";
		if (!why && len == 6)
			why = "no assignment: expected a line 'CGROUP TIER[+TIER...]'";
		fclose(f);
		if (why) {
			cli_err("%s:%lu: --tiers: %s", val + 1, lineno, why);
			return EXIT_USAGE;
		}
	}
	return add_once(policies, b, len) ? -1 : 0;
}

void cli_tiers_unused(const char *trace, const char *params, const struct sr_memcgs *mc)
{
	const char *s = params;

	while (*s) {
		const char *semi = strchr(s, ';'), *eq;
		size_t len = semi ? (size_t)(semi - s) : strlen(s), plen;
		unsigned id;
		int found = 0;

		eq = memchr(s, '=', len);
		plen = eq ? (size_t)(eq - s) : 0;
		while (plen > 1 && s[plen - 1] == '/')
			plen--;
		for (id = 1; plen && !found && mc && id <= SR_MEMCG_MAX; id++) {
			const char *p = sr_memcgs_path(mc, id);

			found = p && !strncmp(p, s, plen) && (p[plen] == '\0' || p[plen] == '/');
		}
		if (plen && !found)
			cli_warn("%s: --tiers: no memory cgroup of the trace is %.*s or below it: its "
				 "tiers changed nothing%s", trace, (int)plen, s,
				 mc && sr_memcgs_count(mc) ? "" : " (the trace names no memcg paths)");
		s += len + (semi != NULL);
	}
}
