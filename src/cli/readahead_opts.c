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

/* cli_ra_warn_unused() with why, what made the readahead resolved. */
static void warn_unused(const struct sr_readahead_opts *ra, enum sr_ra_mode resolved,
			const char *why)
{
	struct sr_readahead_opts def;
	const char *here = resolved == SR_RA_VMA ? "by virtual address here (vma" : "off here (";
	/* Said unless cluster readahead was asked for (and none is done). */
	const char *only = ra->mode == SR_RA_CLUSTER ? "" : "; only cluster readahead, by swap offset, ";

	if (resolved == SR_RA_CLUSTER)
		return;
	sr_readahead_default(&def);

	if (ra->fixed_window)
		cli_warn("--readahead-window=fixed is ignored: readahead is %s%s%s)%s%s%s", here,
			 resolved == SR_RA_VMA ? ", " : "", why, resolved == SR_RA_VMA ?
			 ", whose window is the kernel's adaptive one" : "", only,
			 *only ? "reads a fixed window" : "");
	if (ra->holes_stop)
		cli_warn("--readahead-holes=stop is ignored: readahead is %s%s%s)%s%s%s", here,
			 resolved == SR_RA_VMA ? ", " : "", why, resolved == SR_RA_VMA ?
			 ", which reads the task's swapped-out pages around the fault" : "", only,
			 *only ? "stops at free slots" : "");
	if (resolved != SR_RA_OFF)
		return;
	if (ra->memory_pages)
		cli_warn("--memory is ignored: readahead is off here (%s), and --memory bounds how "
			 "long pages read ahead are kept", why);
	if (ra->page_cluster != 0 && ra->page_cluster != def.page_cluster)
		cli_warn("--page-cluster=%u is ignored: readahead is off here (%s)", ra->page_cluster,
			 why);
}

void cli_ra_warn_unused(const struct sr_readahead_opts *ra, enum sr_ra_mode resolved,
			const char *auto_why)
{
	char why[160];

	if (ra->page_cluster == 0)
		snprintf(why, sizeof(why), "--page-cluster=0");
	else if (ra->mode == SR_RA_AUTO)
		snprintf(why, sizeof(why), "%s", auto_why);
	else
		snprintf(why, sizeof(why), "--readahead=%s", ra->mode == SR_RA_VMA ? "vma" :
			 ra->mode == SR_RA_OFF ? "off" : "cluster");
	warn_unused(ra, resolved, why);
}

void cli_ra_warn_replay(const struct sr_readahead_opts *ra, const struct sr_replay *rp,
			const struct sr_kernel *k, const struct sr_machine *m)
{
	char buf[256], why[160];
	const char *d = sr_replay_readahead_describe(rp, buf, sizeof(buf));
	enum sr_ra_mode mode = !strncmp(d, "cluster", 7) ? SR_RA_CLUSTER :
			       !strncmp(d, "vma", 3) ? SR_RA_VMA : SR_RA_OFF;
	int i, sync = k->sync_no_ra && m->nr_devices > 0;

	/* From 4.15 a swap-in from pmem or zram reads its own page alone. */
	for (i = 0; sync && i < m->nr_devices; i++)
		sync = sr_dev_class_memlike(m->dev[i].cls);
	if (sync && mode != SR_RA_OFF) {
		snprintf(why, sizeof(why), "from 4.15 a swap-in from pmem or zram reads no page "
			 "ahead, and machine %s swaps on nothing else", m->name);
		warn_unused(ra, SR_RA_OFF, why);
		return;
	}
	snprintf(why, sizeof(why), "the default --readahead=auto chooses it on kernel %u.%u with "
		 "no hdd swapped on", k->major, k->minor);
	cli_ra_warn_unused(ra, mode, why);
}
