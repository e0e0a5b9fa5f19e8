/* SPDX-License-Identifier: MIT */
/* The options of the commands that write traces (convert, gen), those of
 * the commands that replay (--kernel), and the check every command that
 * writes a file makes of its output. */
#include <string.h>

#include "cli.h"
#include "swapreplay/outfile.h"

/* Level of ".zst" outputs without --zstd=LEVEL: zstd's own default. */
#define DEFAULT_ZSTD_LEVEL 3

int cli_opt_to(const char *cmd, const char *val, enum sr_format *fmt)
{
	if (sr_format_parse(val, fmt) || *fmt == SR_FMT_AUTO || *fmt == SR_FMT_VMSTAT)
		return cli_usage(cmd, "--to takes csv, jsonl or swt, not '%s'", val);
	return 0;
}

int cli_opt_zstd(const char *cmd, const char *val, int *level)
{
	uint64_t u;

	if (!val) {
		*level = DEFAULT_ZSTD_LEVEL;
		return 0;
	}
	if (cli_parse_u64(val, 19, &u) || u < 1)
		return cli_usage(cmd, "--zstd takes a level from 1 to 19, not '%s'", val);
	*level = (int)u;
	return 0;
}

int cli_output_format(const char *cmd, const char *out, int level, struct sr_write_opts *wo)
{
	enum sr_format named;
	int zst;

	named = sr_format_from_name(out, &zst);
	if (wo->format == SR_FMT_AUTO) {
		wo->format = named;
		if (wo->format == SR_FMT_AUTO)
			return cli_usage(cmd,
					 "cannot tell the output format from '%s'; name it .csv, .jsonl or .swt (optionally .zst), or give --to",
					 out);
	}
	wo->zstd_level = level >= 0 ? level : zst ? DEFAULT_ZSTD_LEVEL : 0;
	return 0;
}

int cli_check_output(const char *out, const char *const *inputs, size_t n)
{
	struct sr_diag d;

	sr_diag_clear(&d);
	if (out && sr_outfile_check_inputs(out, inputs, n, &d))
		return cli_diag(&d);
	return 0;
}

int cli_opt_kernel(const char *cmd, const char *val, struct sr_kernel *k)
{
	struct sr_diag d;

	if (sr_kernel_parse(val, k, &d))
		return cli_usage(cmd, "--kernel: %s", d.msg);
	return 0;
}

int cli_opt_on_off(const char *cmd, const char *opt, const char *val, int *on)
{
	if (strcmp(val, "on") && strcmp(val, "off"))
		return cli_usage(cmd, "--%s takes on or off, not '%s'", opt, val);
	*on = !strcmp(val, "on");
	return 0;
}

int cli_kernel_slots(const char *cmd, const struct sr_kernel *k)
{
	if (k->alloc == SR_ALLOC_SLOTS_CACHE)
		return 0;
	return cli_usage(cmd, "--slots-cache: kernel %u.%u has no slots cache (4.11 to 6.14 have it)",
			 k->major, k->minor);
}
