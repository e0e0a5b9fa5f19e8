/* SPDX-License-Identifier: MIT */
/* The --plot=FILE of replay and stat, and plot's -o: the format by the
 * file's name, and the chart written whole or not at all. */
#include <stdio.h>

#include "cli.h"
#include "swapreplay/outfile.h"
#include "swapreplay/plot.h"

int cli_opt_plot(const char *cmd, const char *path, enum sr_plot_fmt *fmt)
{
	struct sr_diag d;

	sr_diag_clear(&d);
	if (sr_plot_fmt_from_name(path, fmt, &d))
		return cli_usage(cmd, "%s", d.msg);
	return 0;
}

int cli_write_plot(const char *path, enum sr_plot_fmt fmt, cli_plot_fn draw, const void *arg)
{
	struct sr_outfile *of = NULL;
	struct sr_diag d;
	enum sr_err err;

	sr_diag_clear(&d);
	err = sr_outfile_open(&of, path, &d);
	if (err)
		return cli_diag(&d);
	err = draw(sr_outfile_stream(of), fmt, arg, &d);
	if (err) {
		sr_outfile_abort(of);
		sr_plot_release();
		if (err == SR_ERR_IO && !d.file[0])
			snprintf(d.file, sizeof(d.file), "%s", path);
		return cli_diag(&d);
	}
	err = sr_outfile_commit(of, &d);
	sr_plot_release();
	return err ? cli_diag(&d) : 0;
}
