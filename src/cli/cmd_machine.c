/* SPDX-License-Identifier: MIT */
/* swapreplay machine --probe: describe this machine (src/capture/probe.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "swapreplay/machine.h"
#include "swapreplay/outfile.h"

enum { O_PROBE = 1, O_ROOT, O_OUT, O_QUIET, O_MEASURE, O_FIO };

static const struct cli_opt opts[] = {
	{ "probe", 0, CLI_NOARG, O_PROBE },
	{ "measure", 0, CLI_OPTARG, O_MEASURE },
	{ "fio", 0, CLI_ARG, O_FIO },
	{ "sysfs-root", 0, CLI_ARG, O_ROOT },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ NULL, 0, 0, 0 },
};

/* --measure's progress: one line redrawn on a terminal, with the time
 * left (the jobs share the time: each has its part). */
static int progress_on;

static void progress(void *arg, const char *dev, const char *job, int k, int n)
{
	const struct sr_measure_opts *mo = arg;
	double secs = mo->seconds > 0 ? mo->seconds : SR_MEASURE_SECONDS;
	double each = secs / n < 2 ? 2 : (double)(int)(secs / n);

	if (progress_on)
		fprintf(stderr, "\rswapreplay: measuring %s with fio: %s (job %d of %d, about %.0f s "
			"left)\033[K", dev, job, k, n, each * (n - k + 1));
}

static int run(int argc, char **argv)
{
	struct sr_measure_opts mo = { 0, NULL, progress, NULL };
	uint64_t secs;
	int measure = 0;
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
		case O_MEASURE:
			measure = 1;
			if (val && (cli_parse_u64(val, 86400, &secs) || secs < 1))
				return cli_usage("machine", "--measure takes 1 to 86400 seconds, not '%s'",
						 val);
			mo.seconds = val ? (double)secs : 0;
			break;
		case O_FIO:
			if (!*val)
				return cli_usage("machine", "--fio needs fio's path");
			mo.fio = val;
			break;
		}
	}
	if (!probe)
		return cli_usage("machine", "say --probe to describe this machine (swapreplay machines lists the presets)");
	err = sr_machine_probe(root, &json, &notes, &d);
	if (err)
		return cli_diag(&d);
	if (measure) {
		char *mnotes = NULL;

		progress_on = !cli_quiet && isatty(STDERR_FILENO);
		mo.progress_arg = &mo;
		err = sr_machine_measure(root, &json, &mo, &mnotes, &d);
		if (progress_on)
			fprintf(stderr, "\r\033[K");
		if (err) {
			free(json);
			free(notes);
			return cli_diag(&d);
		}
		if (mnotes && *mnotes) {
			size_t a = notes ? strlen(notes) : 0, b = strlen(mnotes);
			char *all = realloc(notes, a + b + 1);

			if (all) {
				memcpy(all + a, mnotes, b + 1);
				notes = all;
			}
		}
		free(mnotes);
	}
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
	"Usage: swapreplay machine --probe [--measure[=SECONDS] [--fio=PATH]]\n"
	"                          [--sysfs-root=DIR] [-o FILE]\n"
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
	"queue/max_segments, a SCSI disk's device/queue_depth); where the kernel\n"
	"has zswap, its settings (/sys/module/zswap/parameters: enabled,\n"
	"compressor, max_pool_percent, accept_threshold_percent) and the RAM its\n"
	"pool is a share of (/proc/meminfo's MemTotal).  Performance\n"
	"figures are not measured (without --measure): they are left to the class\n"
	"defaults, and the description says so in its \"comment\" and \"sources\"\n"
	"keys.  Guesses and unknowns are printed as warnings.  The result loads\n"
	"with `swapreplay machines FILE` and --machine=FILE.\n"
	"\n"
	"Options:\n"
	"  --probe             required: read the system\n"
	"  --measure[=SECONDS] also measure each swap device (nvme, ssd, hdd, zram)\n"
	"                      with fio (Debian's; as root), in SECONDS for all of them\n"
	"                      (default 60): 4 KiB random reads at depth 1 and 32\n"
	"                      and 1 MiB sequential reads from the device holding\n"
	"                      the swap area (fio --readonly), and the same writes\n"
	"                      to a temporary file beside a swap file (removed\n"
	"                      after; the reads too where the device cannot be\n"
	"                      opened; a swap partition's write figures stay the\n"
	"                      defaults, nothing is written to a swap area or a\n"
	"                      device); each measured figure's source says \"measured\n"
	"                      by fio, DATE, JOB\".  A disk that says it rotates but\n"
	"                      reads in under 2 ms is written as an ssd.  Also the\n"
	"                      read latency under a write load, a check in the\n"
	"                      device's sources (the model derives it).  Swap areas\n"
	"                      on one disk are measured once.  A zram device: on\n"
	"                      another zram device added for it and removed after\n"
	"                      (4 KiB writes and reads at depth 1), its ratio from\n"
	"                      its mm_stat; it is never written itself.  pmem and\n"
	"                      the CPU's figures are not measured (a warning says\n"
	"                      so).  Progress on a terminal; Ctrl-C stops it and\n"
	"                      leaves nothing behind\n"
	"  --fio=PATH          the fio to run (default: fio on PATH)\n"
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
