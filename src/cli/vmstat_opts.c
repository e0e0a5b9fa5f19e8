/* SPDX-License-Identifier: MIT */
/* --vmstat-interval, --cpu-node, --mem-node, --tasks (vmstat_opts.h). */
#include <math.h>
#include <string.h>

#include "vmstat_opts.h"

#define MAX_SECONDS (366ull * 86400)

int cli_parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 1000000000ull;
	int digits = 0;

	if (!s || !*s)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		if (whole > MAX_SECONDS)
			return -1;
	}
	if (*s == '.') {
		int f = 0;

		for (s++; *s >= '0' && *s <= '9'; s++, f++, digits++) {
			if (f == 9)
				return -1;
			scale /= 10;
			frac += (uint64_t)(*s - '0') * scale;
		}
		if (!f)
			return -1;
	}
	if (*s || !digits)
		return -1;
	*ns = whole * 1000000000ull + frac;
	if (*ns == 0 || *ns > MAX_SECONDS * 1000000000ull)
		return -1;
	return 0;
}

/* A fraction: digits with an optional decimal part ("1", "0.25", ".5"),
 * at most 32 characters; its value, or -1 if it is not one. */
static double parse_fraction(const char *s, size_t len)
{
	double v = 0, scale = 1;
	size_t i = 0;
	int nd = 0;

	if (len == 0 || len > 32)
		return -1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, nd++)
		v = v * 10 + (s[i] - '0');
	if (i < len && s[i] == '.') {
		int nf = 0;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, nf++) {
			scale /= 10;
			v += (s[i] - '0') * scale;
		}
		if (!nf)
			return -1;
		nd += nf;
	}
	return i == len && nd ? v : -1;
}

/* The entry s[0..len) of a mix, such as "1:0.25"; 0, or -1 with why set. */
static int parse_entry(const char *s, size_t len, unsigned *node, double *frac,
		       char *why, size_t why_len)
{
	const char *colon = memchr(s, ':', len);
	char num[16];
	uint64_t v;
	size_t nl;

	if (!colon) {
		snprintf(why, why_len, "'%.*s' is not NODE:FRACTION (such as 0:0.75,1:0.25)",
			 (int)len, s);
		return -1;
	}
	nl = (size_t)(colon - s);
	if (nl >= sizeof(num)) {
		snprintf(why, why_len, "node '%.*s' is not from 0 to %d", (int)nl, s, SR_MAX_NODES - 1);
		return -1;
	}
	memcpy(num, s, nl);
	num[nl] = '\0';
	if (cli_parse_u64(num, SR_MAX_NODES - 1, &v)) {
		snprintf(why, why_len, "node '%s' is not from 0 to %d", num, SR_MAX_NODES - 1);
		return -1;
	}
	*node = (unsigned)v;
	*frac = parse_fraction(colon + 1, len - nl - 1);
	if (!(*frac > 0 && *frac <= 1)) {
		snprintf(why, why_len, "fraction '%.*s' of node %u is not a decimal above 0 and at most 1",
			 (int)(len - nl - 1), colon + 1, *node);
		return -1;
	}
	return 0;
}

int cli_parse_node_mix(const char *s, struct sr_node_mix *mix, char *why, size_t why_len)
{
	double sum = 0;
	unsigned n = 0, k;

	memset(mix, 0, sizeof(*mix));
	for (;;) {
		size_t len = strcspn(s, ",");

		if (n == SR_NODE_MIX_MAX) {
			snprintf(why, why_len, "more than %d nodes", SR_NODE_MIX_MAX);
			return -1;
		}
		if (parse_entry(s, len, &mix->node[n], &mix->frac[n], why, why_len))
			return -1;
		for (k = 0; k < n; k++)
			if (mix->node[k] == mix->node[n]) {
				snprintf(why, why_len, "node %u given twice", mix->node[n]);
				return -1;
			}
		sum += mix->frac[n];
		n++;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (!(fabs(sum - 1) <= CLI_NODE_MIX_TOLERANCE)) {
		snprintf(why, why_len, "the fractions add up to %.9g, not 1", sum);
		return -1;
	}
	mix->n = n; /* the fractions as given: the reader normalises them */
	return 0;
}

int cli_vmstat_opt(const char *cmd, int id, const char *val, struct sr_read_opts *ro)
{
	uint64_t v;

	switch (id - CLI_VMSTAT_OPT_BASE) {
	case 0:
		if (cli_parse_seconds(val, &ro->vmstat_interval_ns))
			return cli_usage(cmd, "--vmstat-interval takes seconds above 0 (such as 1, 0.5 or 60), not '%s'",
					 val);
		return 0;
	case 1:
	case 2: {
		int cpu = id == CLI_VMSTAT_OPT_BASE + 1;
		const char *opt = cpu ? "cpu-node" : "mem-node";
		struct sr_node_mix *mix = cpu ? &ro->cpu_mix : &ro->mem_mix;
		char why[160];

		if (strpbrk(val, ":,")) {
			if (cli_parse_node_mix(val, mix, why, sizeof(why)))
				return cli_usage(cmd, "--%s mix '%s': %s", opt, val, why);
			return 0;
		}
		if (cli_parse_u64(val, SR_MAX_NODES - 1, &v))
			return cli_usage(cmd, "--%s takes a node from 0 to %d or a mix such as 0:0.75,1:0.25, not '%s'",
					 opt, SR_MAX_NODES - 1, val);
		mix->n = 0;
		if (cpu)
			ro->cpu_node = (unsigned)v;
		else
			ro->mem_node = (unsigned)v;
		return 0;
	}
	case 3:
		if (cli_parse_u64(val, SR_VMSTAT_MAX_TASKS, &v) || v < 1)
			return cli_usage(cmd, "--tasks takes 1 to %u tasks, not '%s'",
					 SR_VMSTAT_MAX_TASKS, val);
		ro->vmstat_tasks = (uint32_t)v;
		return 0;
	}
	return 1;
}
