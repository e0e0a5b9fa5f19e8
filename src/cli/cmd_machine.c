/* SPDX-License-Identifier: MIT */
/* swapreplay machine --probe: describe this machine (src/capture/probe.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/machine.h"
#include "swapreplay/outfile.h"

enum { O_PROBE = 1, O_ROOT, O_OUT, O_QUIET };

static const struct cli_opt opts[] = {
	{ "probe", 0, CLI_NOARG, O_PROBE },
	{ "sysfs-root", 0, CLI_ARG, O_ROOT },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ NULL, 0, 0, 0 },
};

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sr_outfile *of = NULL;
	struct sr_diag d;
	const char *val, *root = "/", *out = "-";
	char *json = NULL, *notes = NULL, *line;
	int id, probe = 0;
	enum sr_err err;

	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			return cli_usage("machine", "%s", p.err);
		case 0:
			return cli_usage("machine", "takes no arguments ('%s'); to show a preset or a file: swapreplay machines %s",
					 val, val);
		case O_PROBE:
			probe = 1;
			break;
		case O_ROOT:
			if (!*val)
				return cli_usage("machine", "--sysfs-root needs a directory");
			root = val;
			break;
		case O_OUT:
			out = val;
			break;
		case O_QUIET:
			cli_quiet = 1;
			break;
		}
	}
	if (!probe)
		return cli_usage("machine", "say --probe to describe this machine (swapreplay machines lists the presets)");
	err = sr_machine_probe(root, &json, &notes, &d);
	if (err)
		return cli_diag(&d);
	for (line = notes; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		cli_warn("%s", line);
		line = nl ? nl + 1 : line + strlen(line);
	}
	err = sr_outfile_open(&of, out, &d);
	if (!err) {
		fputs(json, sr_outfile_stream(of));
		err = sr_outfile_commit(of, &d);
	}
	free(json);
	free(notes);
	if (err)
		return cli_diag(&d);
	return EXIT_OK;
}

const struct cli_cmd cmd_machine = {
	.name = "machine",
	.summary = "describe this machine: machine --probe [-o FILE] (presets: machines)",
	.help =
	"Usage: swapreplay machine --probe [--sysfs-root=DIR] [-o FILE]\n"
	"\n"
	"Write a machine description (docs/MACHINE.md) of the running system, read\n"
	"from sysfs and procfs: the NUMA nodes and their CPUs\n"
	"(/sys/devices/system/node/node*/cpulist), the distance matrix\n"
	"(node*/distance), the swap devices in use in swap type order with their\n"
	"(none when swap is off: the description then has no devices, says so,\n"
	"and a replay refuses it)\n"
	"sizes and priorities (/proc/swaps; a negative priority is written\n"
	"\"auto\"), each device's node (/sys/block/DISK/device/numa_node, the\n"
	"parent disk for a partition, the disk of its file system for a swap file\n"
	"(through /sys/dev/block); -1 when unknown) and\n"
	"a class guessed from the device (nvme*, pmem*, zram*, else hdd if\n"
	"queue/rotational is 1, else ssd), and for nvme, ssd and hdd the block\n"
	"layer's request limits where the queue has them (queue/max_sectors_kb,\n"
	"queue/max_segments, a SCSI disk's device/queue_depth).  Performance\n"
	"figures are not measured: they are left to the class defaults, and the\n"
	"description says so in its \"comment\" and \"sources\" keys.  Guesses\n"
	"and unknowns are printed as warnings.  The result loads with\n"
	"`swapreplay machines FILE` and --machine=FILE.\n"
	"\n"
	"Options:\n"
	"  --probe             required: read the system\n"
	"  --sysfs-root=DIR    read DIR/sys/... and DIR/proc/swaps instead of / (a\n"
	"                      copy of another machine's files, or a test tree)\n"
	"  -o, --output=FILE   write there (default standard output); the file\n"
	"                      appears only when complete\n"
	"  -q, --quiet         no warnings on standard error (the guesses and\n"
	"                      unknowns)\n"
	"\n"
	"See also: swapreplay machines [NAME|FILE] (the presets, or one machine\n"
	"with every parameter).\n",
	.run = run,
};
