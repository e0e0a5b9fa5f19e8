/* SPDX-License-Identifier: MIT */
/* --readahead and its settings (readahead_opts.h). */
#include <string.h>

#include "readahead_opts.h"

int cli_ra_opt(const char *cmd, int id, const char *val, struct sr_readahead_opts *ra)
{
	uint64_t u;

	switch (id) {
	case CLI_RA_OPT_MODE:
		if (sr_ra_mode_parse(val, &ra->mode))
			return cli_usage(cmd, "--readahead takes auto, off, cluster or vma, not '%s'", val);
		return 0;
	case CLI_RA_OPT_PAGE_CLUSTER:
		if (cli_parse_u64(val, SR_RA_MAX_PAGE_CLUSTER, &u))
			return cli_usage(cmd, "--page-cluster takes 0 to %d, not '%s' (windows of more "
					 "than %u slots are not modelled; the kernel allows 31)",
					 SR_RA_MAX_PAGE_CLUSTER, val, 1u << SR_RA_MAX_PAGE_CLUSTER);
		ra->page_cluster = (unsigned)u;
		return 0;
	case CLI_RA_OPT_WINDOW:
		if (strcmp(val, "adaptive") && strcmp(val, "fixed"))
			return cli_usage(cmd, "--readahead-window takes adaptive or fixed, not '%s'", val);
		ra->fixed_window = !strcmp(val, "fixed");
		return 0;
	case CLI_RA_OPT_HOLES:
		if (strcmp(val, "skip") && strcmp(val, "stop"))
			return cli_usage(cmd, "--readahead-holes takes skip or stop, not '%s'", val);
		ra->holes_stop = !strcmp(val, "stop");
		return 0;
	case CLI_RA_OPT_MEMORY:
		if (cli_parse_size(val, &u) || u < 4096)
			return cli_usage(cmd, "--memory takes a size of at least 4K: " CLI_SIZE_TAKES
					 ", not '%s'", val);
		ra->memory_pages = u / 4096;
		return 0;
	}
	return 1;
}
