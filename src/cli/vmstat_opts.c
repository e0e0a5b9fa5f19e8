/* SPDX-License-Identifier: MIT */
/* --vmstat-interval, --cpu-node, --mem-node (vmstat_opts.h). */
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
	case 2:
		if (cli_parse_u64(val, SR_MAX_NODES - 1, &v))
			return cli_usage(cmd, "--%s takes a node from 0 to %d, not '%s'",
					 id == CLI_VMSTAT_OPT_BASE + 1 ? "cpu-node" : "mem-node",
					 SR_MAX_NODES - 1, val);
		if (id == CLI_VMSTAT_OPT_BASE + 1)
			ro->cpu_node = (unsigned)v;
		else
			ro->mem_node = (unsigned)v;
		return 0;
	}
	return 1;
}
