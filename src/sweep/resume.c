/* SPDX-License-Identifier: MIT */
/*
 * A run's output.  Rows are appended to a file, a whole row per write(),
 * so that a sweep killed at any moment (even by SIGKILL) leaves whole rows
 * and at most one row cut short.  An existing file is refused, so that
 * results are never mixed by accident, unless the run resumes it: then its
 * rows are read, a row cut short is cut off, and the (unit, policy) rows
 * it has already are not replayed again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

enum sr_err sr_sweep_prepare(struct sr_sweep *s, const struct sr_sweep_run_opts *ro,
			     struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	const char *out = ro->output;

	sr_diag_clear(d);
	if (!s->loaded || s->prepared || s->out_name)
		return sr_diag_set(d, SR_ERR_INVAL, "the sweep is not loaded, or prepared already");
	if (ro->one_unit && ro->unit >= s->nunits)
		return sr_diag_set(d, SR_ERR_INVAL, "unit %" PRIu64 ": the sweep has units 0 to %zu",
				   ro->unit, s->nunits - 1);
	if (ro->nshards > 1 && ro->shard >= ro->nshards)
		return sr_diag_set(d, SR_ERR_INVAL, "shard %" PRIu64 " of %" PRIu64, ro->shard,
				   ro->nshards);
	s->one_unit = ro->one_unit;
	s->unit = ro->unit;
	s->nshards = ro->nshards;
	s->shard = ro->shard;
	s->jobs_asked = ro->jobs;
	s->resume = ro->resume;
	s->out_name = strdup(out ? out : ro->fd_name ? ro->fd_name : "standard output");
	if (!s->out_name)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	if (out) {
		struct stat st;
		enum sr_err err;

		s->out_path = strdup(out);
		if (!s->out_path)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (!s->resume && stat(out, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
			return sr_diag_set(d, SR_ERR_INVAL,
					   "%s exists: give --resume to add the rows it lacks, or remove it",
					   out);
		if (s->resume && stat(out, &st) == 0 && !S_ISREG(st.st_mode))
			return sr_diag_set(d, SR_ERR_INVAL,
					   "%s is not a regular file: --resume continues a file of rows",
					   out);
		if (s->resume && stat(out, &st) == 0) {
			s->out_exists = 1;
			s->out_size = st.st_size;
			err = sr_rows_load(&s->old, out, s->fmt, &s->good_len, d);
			if (err)
				return err;
		}
	} else {
		s->out_fd = ro->fd;
	}
	s->prepared = 1;
	return SR_OK;
}

enum sr_err sr_sweep_open_output(struct sr_sweep *s, struct sr_diag *d)
{
	size_t np = s->policies.n, k, u;

	if (s->out_path) {
		/* Drop a row cut short by a kill. */
		if (s->out_exists && s->out_size > s->good_len && truncate(s->out_path, s->good_len)) {
			int e = errno;

			sr_diag_file(d, s->out_path);
			return sr_diag_set(d, SR_ERR_IO, "cannot cut its last partial row: %s",
					   strerror(e));
		}
		struct stat st;

		s->out_fd = open(s->out_path, O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (s->out_fd < 0) {
			int e = errno;

			sr_diag_file(d, s->out_path);
			return sr_diag_set(d, SR_ERR_IO, "cannot open: %s", strerror(e));
		}
		/* Only a regular file is read back (for the summary): a device
		 * such as /dev/full or /dev/zero reads as endless bytes. */
		s->out_regular = fstat(s->out_fd, &st) == 0 && S_ISREG(st.st_mode);
	}
	if (s->old.n) {
		s->have = calloc(s->nunits * np, 1);
		if (!s->have)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		for (k = 0; k < s->old.n; k++) {
			size_t j;

			if (s->old.v[k].unit >= s->nunits)
				continue;
			for (j = 0; j < np; j++)
				if (!strcmp(s->old.v[k].policy, s->policies.v[j]))
					s->have[s->old.v[k].unit * np + j] = 1;
		}
		for (u = 0; u < s->nunits; u++) {
			int all = 1;

			for (k = 0; k < np; k++)
				all &= s->have[u * np + k];
			s->skip[u] |= all;
		}
	}
	if (s->fmt == SR_SWEEP_CSV && (!s->out_path || s->good_len == 0) &&
	    sr_write_all(s->out_fd, sr_rows_csv_header, strlen(sr_rows_csv_header))) {
		int e = errno;

		sr_diag_file(d, s->out_name);
		return sr_diag_set(d, SR_ERR_IO, "write failed: %s", strerror(e));
	}
	return SR_OK;
}
