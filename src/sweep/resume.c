/* SPDX-License-Identifier: MIT */
/*
 * A run's output.  Rows are appended to a file, a whole row per write(),
 * as each unit finishes, so that a sweep killed at any moment (even by
 * SIGKILL) loses only the units it was replaying and leaves at most one
 * row cut short; a run that ends puts the file in unit order (a new file
 * renamed over it, whole or not at all).
 *
 * The file is taken for the run: created with O_EXCL, and locked (flock)
 * for as long as the run writes it, so that a second sweep on the same
 * output fails at once instead of mixing its rows in.  An existing file of
 * rows is refused, unless the run resumes it: then each of its rows is
 * matched by identity (ident.c) to a (unit, policy) of this run: a row
 * that replayed stands and is not replayed again; a row in error is
 * replayed again and replaced; a row of anything else (another trace,
 * machine, policy, option, version, or a trace whose content has changed)
 * is refused with its line, since the file would then mix two sweeps.
 */
#define _GNU_SOURCE /* strndup */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/diag.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

void sr_unit_ident(const struct sr_sweep *s, size_t u, size_t k, struct sr_ident *id)
{
	int i;

	for (i = 0; i < SR_ID_COUNT; i++)
		id->v[i] = sr_id_fields[i].scope == SR_IDS_RUN ? s->run_v[i] : NULL;
	id->v[SR_ID_TRACE] = sr_unit_trace_name(s, u);
	if (s->from_plan) {
		id->v[SR_ID_MACHINE] = s->plan.u[u].mname;
		id->v[SR_ID_MACHINE_HASH] = s->plan.u[u].mhash;
		id->v[SR_ID_MSRC] = s->plan.u[u].msrc;
		id->v[SR_ID_MPATH] = s->plan.u[u].mstored;
	} else if (s->machines.n) {
		size_t mi = sr_unit_machine(s, u);

		id->v[SR_ID_MACHINE] = s->mname[mi];
		id->v[SR_ID_MACHINE_HASH] = s->mhash[mi];
		id->v[SR_ID_MSRC] = SR_MSRC_OPTION;
		id->v[SR_ID_MPATH] = s->mach[mi]->from_preset ? NULL : s->machines.v[mi];
	} else if (s->bes && s->bes[sr_unit_trace(s, u)].path) {
		const struct sr_beside *b = &s->bes[sr_unit_trace(s, u)];

		/* NULL name and hash when it could not be loaded. */
		id->v[SR_ID_MACHINE] = b->name;
		id->v[SR_ID_MACHINE_HASH] = b->hash;
		id->v[SR_ID_MSRC] = SR_MSRC_BESIDE;
		id->v[SR_ID_MPATH] = b->path;
	}
	id->v[SR_ID_POLICY] = s->pname[k];
	id->v[SR_ID_POLICY_HASH] = s->phash[k];
}

/* ---- taking the output -------------------------------------------------- */

static enum sr_err io_err(struct sr_diag *d, const char *name, const char *what, int e)
{
	sr_diag_file(d, name);
	return sr_diag_set(d, SR_ERR_IO, "%s: %s", what, strerror(e));
}

/* Open, create or refuse the output file, and lock it; with resume, read
 * its rows. */
static enum sr_err take_output(struct sr_sweep *s, struct sr_diag *d)
{
	const char *path = s->out_path;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		struct stat ps, fs;
		int fd, created = 0;

		if (stat(path, &ps) == 0 && !S_ISREG(ps.st_mode)) {
			/* A device or a pipe: written to, never read back. */
			if (s->resume)
				return sr_diag_set(d, SR_ERR_INVAL, "%s is not a regular file: --resume "
						   "continues a file of rows", path);
			s->out_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
			return s->out_fd < 0 ? io_err(d, path, "cannot open", errno) : SR_OK;
		}
		fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			struct stat ls;

			/* A link to nothing is followed: its target is made. */
			int link = lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);

			fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | (link ? 0 : O_EXCL), 0666);
			if (fd < 0 && errno == EEXIST)
				continue; /* made meanwhile, by another sweep perhaps */
			created = fd >= 0;
		}
		if (fd < 0)
			return io_err(d, path, "cannot open", errno);
		if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
			close(fd);
			return sr_diag_set(d, SR_ERR_IO, "%s is being written by another sweep (it holds "
					   "the file's lock): wait for it to end, or write to another file",
					   path);
		}
		/* (A filesystem without locks goes on without: O_EXCL still
		 * keeps two new sweeps apart.)  The file locked must be the one
		 * the path names still: another run may have put its ordered
		 * copy in place meanwhile. */
		if (fstat(fd, &fs) || stat(path, &ps) || fs.st_ino != ps.st_ino ||
		    fs.st_dev != ps.st_dev) {
			close(fd);
			continue;
		}
		if (!s->resume && !created && fs.st_size > 0) {
			close(fd);
			return sr_diag_set(d, SR_ERR_INVAL, "%s exists: give --resume to add the rows it "
					   "lacks, or remove it", path);
		}
		s->out_fd = fd;
		s->out_regular = 1;
		if (s->resume && fs.st_size > 0)
			return sr_rows_read_fd(&s->rows, fd, fs.st_size, path, s->fmt, &s->info, d);
		return SR_OK;
	}
	return sr_diag_set(d, SR_ERR_IO, "%s kept changing while it was opened", path);
}

/* The output is never one of the inputs: a trace that is the output file
 * (under any name) is dropped from a sweep of inputs, and refused in a
 * plan's (whose units are numbered already). */
static enum sr_err drop_output(struct sr_sweep *s, struct sr_diag *d)
{
	struct stat os, ts;
	size_t t, k = 0;

	if (fstat(s->out_fd, &os) || !S_ISREG(os.st_mode))
		return SR_OK;
	for (t = 0; t < s->traces.n; t++) {
		if (stat(s->traces.v[t], &ts) || ts.st_dev != os.st_dev || ts.st_ino != os.st_ino) {
			if (s->bes)
				s->bes[k] = s->bes[t];
			s->traces.v[k++] = s->traces.v[t];
			continue;
		}
		if (s->from_plan) {
			sr_diag_file(d, s->out_name);
			return sr_diag_set(d, SR_ERR_INVAL, "the output is the trace of the plan's unit %zu",
					   t);
		}
		if (sr_strs_add(&s->skipped, s->traces.v[t], strlen(s->traces.v[t])) ||
		    sr_strs_add(&s->skipped, "the sweep's output", 18))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		free(s->traces.v[t]);
		if (s->bes) {
			sr_machine_free(s->bes[t].m);
			free(s->bes[t].path);
			free(s->bes[t].name);
			free(s->bes[t].hash);
			free(s->bes[t].err);
		}
	}
	if (k == s->traces.n)
		return SR_OK;
	s->traces.n = k;
	s->nunits = k * (s->machines.n ? s->machines.n : 1);
	if (!k)
		return sr_diag_set(d, SR_ERR_INVAL, "no trace found in the inputs but the output");
	return SR_OK;
}

enum sr_err sr_sweep_prepare(struct sr_sweep *s, const struct sr_sweep_run_opts *ro,
			     struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	const char *out = ro->output;
	size_t np = s->policies.n;
	enum sr_err err;

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
		s->out_path = strdup(out);
		if (!s->out_path)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		err = take_output(s, d);
		if (!err)
			err = drop_output(s, d);
		if (err)
			return err;
	} else {
		s->out_fd = ro->fd;
	}
	s->skip = calloc(s->nunits, 1);
	s->win = calloc(s->nunits * np, sizeof(*s->win));
	s->have = calloc(s->nunits * np, 1);
	if (!s->skip || !s->win || !s->have)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	sr_sweep_select(s);
	s->old_rows = s->rows.n;
	if (s->rows.n || s->info.cut_line || s->info.no_final_nl)
		s->settle = 1; /* rows that stand are renumbered and put in order */
	err = sr_sweep_match_old(s, d);
	if (err)
		return err;
	s->prepared = 1;
	return SR_OK;
}

/* ---- matching the rows read back ---------------------------------------- */

/* A trace's content hash, computed once (NULL: it cannot be read). */
static const char *trace_hash(struct sr_sweep *s, size_t t)
{
	sr_hash_t h;

	if (!s->hknown[t]) {
		s->hknown[t] = 1;
		if (!sr_hash_file(s->traces.v[t], h))
			s->thash[t] = strdup(h);
	}
	return s->thash[t];
}

/* The machine a trace names in its header (or the default one), as rows
 * would name it when no machine is given: name and hash, NULL unknown. */
static void header_machine(struct sr_sweep *s, size_t t, const char **name, const char **hash)
{
	if (!s->hmknown[t]) {
		struct sr_reader *r = NULL;
		struct sr_machine *m = NULL;
		struct sr_read_opts o = s->ro;
		sr_hash_t h;

		s->hmknown[t] = 1;
		o.content_hash = 0;
		if (!sr_reader_open(&r, s->traces.v[t], &o, NULL)) {
			const char *j = sr_reader_machine_json(r);

			if (j ? sr_machine_parse(&m, j, strlen(j), "machine in the trace header", NULL)
			      : sr_machine_load(&m, SR_MACHINE_DEFAULT, NULL))
				m = NULL;
		}
		if (m && !sr_hash_machine(m, h)) {
			s->hmname[t] = strdup(m->name);
			s->hmhash[t] = strdup(h);
		}
		sr_machine_free(m);
		sr_reader_close(r);
	}
	*name = s->hmname[t];
	*hash = s->hmhash[t];
}

struct name_ix {
	const char *name;
	size_t unit;
};

static int cmp_name(const void *a, const void *b)
{
	const struct name_ix *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->unit > y->unit) - (x->unit < y->unit);
}

/* Refuse the row r: "OUT:LINE: what; hint". */
static enum sr_err refuse(const struct sr_sweep *s, const struct sr_row *r, struct sr_diag *d,
			  const char *what)
{
	sr_diag_file(d, s->out_name);
	d->line = r->lineno;
	return sr_diag_set(d, SR_ERR_INVAL, "%s: resume with the inputs and options that wrote "
			   "it, or write to another file", what);
}

/* The unit of this run that row r (its trace found at ix[lo..hi)) is of,
 * or SIZE_MAX with what is wrong in why. */
static size_t find_unit(struct sr_sweep *s, const struct sr_row *r, const struct name_ix *ix,
			size_t lo, size_t hi, char *why, size_t wsz)
{
	const char *rm = r->id.v[SR_ID_MACHINE], *rh = r->id.v[SR_ID_MACHINE_HASH];
	size_t i, taken = 0;

	for (i = lo; i < hi; i++) {
		size_t u = ix[i].unit, t = sr_unit_trace(s, u);
		struct sr_ident want;
		const char *m, *h;

		if (s->skip[u])
			continue;
		taken++;
		sr_unit_ident(s, u, 0, &want);
		m = want.v[SR_ID_MACHINE];
		h = want.v[SR_ID_MACHINE_HASH];
		/* (A machine beside the trace that cannot be loaded: only rows
		 * in error, which do not know their machine, are of it.) */
		if (!m && !(s->from_plan && s->plan.u[u].mspec) &&
		    !(!s->from_plan && s->bes && s->bes[t].path))
			header_machine(s, t, &m, &h);
		/* A row in error may not know its machine (its file failed). */
		if ((!rm || sr_id_eq(rm, m)) && (!rh || sr_id_eq(rh, h)))
			return u;
	}
	if (!taken)
		snprintf(why, wsz, "a row of %s, a trace this run does not take (another shard?)",
			 r->id.v[SR_ID_TRACE]);
	else
		snprintf(why, wsz, "a row of %s on machine %s (%s), which this run does not replay "
			 "it on", r->id.v[SR_ID_TRACE], rm ? rm : "null", rh ? rh : "null");
	return SIZE_MAX;
}

enum sr_err sr_sweep_match_old(struct sr_sweep *s, struct sr_diag *d)
{
	size_t np = s->policies.n, i, k, u, nt = s->traces.n;
	struct name_ix *ix = NULL;
	enum sr_err err = SR_OK;
	char why[700];

	if (!s->rows.n)
		return SR_OK;
	ix = malloc(s->nunits * sizeof(*ix));
	s->thash = calloc(nt, sizeof(*s->thash));
	s->hmname = calloc(nt, sizeof(*s->hmname));
	s->hmhash = calloc(nt, sizeof(*s->hmhash));
	s->hknown = calloc(nt, 1);
	s->hmknown = calloc(nt, 1);
	if (!ix || !s->thash || !s->hmname || !s->hmhash || !s->hknown || !s->hmknown) {
		free(ix);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	for (u = 0; u < s->nunits; u++) {
		ix[u].name = sr_unit_trace_name(s, u);
		ix[u].unit = u;
	}
	qsort(ix, s->nunits, sizeof(*ix), cmp_name);
	for (i = 0; !err && i < s->rows.n; i++) {
		struct sr_row *r = &s->rows.v[i];
		struct sr_ident run;
		struct name_ix key = { r->id.v[SR_ID_TRACE], 0 };
		size_t lo, hi, t, *w;
		char diff[400];
		const char *th;

		sr_unit_ident(s, 0, 0, &run);
		if (r->old) {
			/* Its bytes are not this swapreplay's rows': resumed, the
			 * file would mix the two. */
			err = refuse(s, r, d, "a row written before the fields added since (where its "
				     "machine came from, node_map, noise, the kernel modelled): it "
				     "cannot be resumed by this swapreplay (merge still reads it)");
			break;
		}
		if (sr_ident_diff(&r->id, &run, SR_IDS_RUN, 0, diff, sizeof(diff))) {
			snprintf(why, sizeof(why), "a row made with other options than this run's (%s)",
				 diff);
			err = refuse(s, r, d, why);
			break;
		}
		/* The units of its trace: [lo, hi) in ix. */
		lo = 0;
		hi = s->nunits;
		if (!key.name)
			hi = 0;
		else {
			size_t a = 0, b = s->nunits;

			while (a < b) {
				size_t m = (a + b) / 2;

				if (strcmp(ix[m].name, key.name) < 0)
					a = m + 1;
				else
					b = m;
			}
			lo = hi = a;
			while (hi < s->nunits && !strcmp(ix[hi].name, key.name))
				hi++;
		}
		if (lo == hi) {
			snprintf(why, sizeof(why), "a row of %s, which is not among this run's traces",
				 key.name ? key.name : "no trace");
			err = refuse(s, r, d, why);
			break;
		}
		t = sr_unit_trace(s, ix[lo].unit);
		if (r->ok && !sr_id_eq(th = trace_hash(s, t), r->id.v[SR_ID_TRACE_HASH])) {
			snprintf(why, sizeof(why), "a row of %s as it was (%s): it is %s now",
				 key.name, r->id.v[SR_ID_TRACE_HASH] ? r->id.v[SR_ID_TRACE_HASH] : "null",
				 th ? th : "unreadable");
			err = refuse(s, r, d, why);
			break;
		}
		u = find_unit(s, r, ix, lo, hi, why, sizeof(why));
		if (u == SIZE_MAX) {
			err = refuse(s, r, d, why);
			break;
		}
		for (k = 0; k < np; k++)
			if (sr_id_eq(r->id.v[SR_ID_POLICY], s->pname[k]) &&
			    sr_id_eq(r->id.v[SR_ID_POLICY_HASH], s->phash[k]))
				break;
		if (k == np) {
			snprintf(why, sizeof(why), "a row of policy %s%s%s, which is not one of this run's",
				 r->id.v[SR_ID_POLICY] ? r->id.v[SR_ID_POLICY] : "null",
				 r->id.v[SR_ID_POLICY_HASH] ? " " : "",
				 r->id.v[SR_ID_POLICY_HASH] ? r->id.v[SR_ID_POLICY_HASH] : "");
			err = refuse(s, r, d, why);
			break;
		}
		r->pol = k;
		if (sr_row_renumber(r, s->fmt, u)) {
			err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			break;
		}
		w = &s->win[u * np + k];
		if (r->ok && *w && s->rows.v[*w - 1].ok) {
			snprintf(why, sizeof(why), "a second row of %s on %s for %s (the first is line "
				 "%" PRIu64 ")", key.name, r->id.v[SR_ID_MACHINE], s->pname[k],
				 s->rows.v[*w - 1].lineno);
			err = refuse(s, r, d, why);
			break;
		}
		/* A row that replayed stands; of rows in error the last does,
		 * until the unit is replayed again. */
		if (r->ok || !*w || !s->rows.v[*w - 1].ok)
			*w = i + 1;
	}
	free(ix);
	if (err)
		return err;
	for (u = 0; u < s->nunits; u++) {
		int all = 1;

		for (k = 0; k < np; k++) {
			size_t w = s->win[u * np + k];

			s->have[u * np + k] = w && s->rows.v[w - 1].ok;
			s->retried += w && !s->rows.v[w - 1].ok;
			all &= s->have[u * np + k];
		}
		s->skip[u] |= all;
	}
	return SR_OK;
}

/* ---- the file during and after the run ---------------------------------- */

enum sr_err sr_sweep_open_output(struct sr_sweep *s, struct sr_diag *d)
{
	if (s->out_regular) {
		/* Drop a row cut short by a kill; end a whole one that lacks its
		 * newline, before anything is appended. */
		if (s->info.cut_line && ftruncate(s->out_fd, s->info.good_len))
			return io_err(d, s->out_name, "cannot cut its last partial row", errno);
		if (s->info.no_final_nl && sr_write_all(s->out_fd, "\n", 1))
			return io_err(d, s->out_name, "write failed", errno);
	}
	if (s->fmt == SR_SWEEP_CSV && !s->info.header &&
	    sr_write_all(s->out_fd, sr_rows_csv_header(), strlen(sr_rows_csv_header())))
		return io_err(d, s->out_name, "write failed", errno);
	return SR_OK;
}

enum sr_err sr_sweep_settle(struct sr_sweep *s, struct sr_diag *d)
{
	size_t np = s->policies.n, u, k;
	struct sr_outfile *of;
	enum sr_err err;
	FILE *f;

	if (!s->out_regular || !s->settle)
		return SR_OK;
	/* Written beside it and renamed over it: the rows as they were, or
	 * in order, whatever happens meanwhile.  The lock on the old file is
	 * held until then, so no other run starts on it. */
	err = sr_outfile_open(&of, s->out_path, d);
	if (err)
		return err;
	f = sr_outfile_stream(of);
	if (s->fmt == SR_SWEEP_CSV)
		fputs(sr_rows_csv_header(), f);
	for (u = 0; u < s->nunits; u++)
		for (k = 0; k < np; k++) {
			size_t w = s->win[u * np + k];

			if (w)
				fputs(s->rows.v[w - 1].line, f);
		}
	return sr_outfile_commit(of, d);
}
