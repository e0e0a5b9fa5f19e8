/* SPDX-License-Identifier: MIT */
/*
 * One unit of a sweep: a trace decoded once and replayed on one machine
 * through every policy in that pass, into its result rows (a damaged trace
 * gives rows that carry its error).  Each row carries the identity of what
 * was replayed, as found here: the trace's content hash, the machine
 * loaded, the policies loaded; a machine file or a .so that is not what
 * the sweep (or the plan) was set up with fails the unit rather than
 * giving figures under another identity.  Rows also say where the machine
 * came from (-m, beside the trace, the trace header, the default).  Run on a worker's thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "sweep/sweep_impl.h"

#define BATCH 512 /* events read at a time: they stay in the cache until replayed */

/* What unit u was found to be, for its rows (owned here). */
struct found {
	sr_hash_t thash, mhash;
	char mname[64];
	int have_t, have_m;
	const char *msrc, *mpath;  /* where the machine came from, once known */
	char kernel[352];          /* the kernel replayed and why, once known */
};

/*
 * The machine of unit u, in this order: the sweep's (-m, loaded once), a
 * plan's file (loaded here: a machine one unit needs does not stop the
 * others), the one beside the trace (loaded once: one that could not be
 * fails the unit, rather than another machine standing in for it), the
 * trace header's, the default; *own is what to free, and fd says where it
 * came from.  0, or -1 with d.
 */
static int unit_machine(struct sr_sweep *s, size_t u, struct sr_reader *r,
			struct sr_machine **own, const struct sr_machine **m, struct found *fd,
			struct sr_diag *d)
{
	size_t t = sr_unit_trace(s, u);

	*own = NULL;
	*m = NULL;
	if (s->mach) {
		size_t k = sr_unit_machine(s, u);

		*m = s->mach[k];
		fd->msrc = SR_MSRC_OPTION;
		fd->mpath = (*m)->from_preset ? NULL : s->machines.v[k];
		return 0;
	}
	if (s->from_plan && s->plan.u[u].mspec) {
		fd->msrc = s->plan.u[u].msrc;
		fd->mpath = s->plan.u[u].mstored;
		if (sr_sweep_machine_load(own, s->plan.u[u].mspec, d))
			return -1;
	} else if (!s->from_plan && s->bes && s->bes[t].path) {
		fd->msrc = SR_MSRC_BESIDE;
		fd->mpath = s->bes[t].path;
		if (!s->bes[t].m) {
			/* Its message names the file (and the line). */
			d->file[0] = '\0';
			d->line = 0;
			sr_diag_set(d, SR_ERR_MACHINE, "%s (the machine description beside the trace)",
				    s->bes[t].err);
			return -1;
		}
		*m = s->bes[t].m;
		return 0;
	} else {
		/* The header's, else the default (sr_machine_resolve(), as
		 * replay; the file beside the trace was settled above). */
		struct sr_machine_where w = { NULL, NULL, sr_reader_machine_json(r),
					      sr_reader_machine_origin(r) };
		enum sr_machine_src src;
		char *path;

		if (sr_machine_resolve(own, &w, &src, &path, d))
			return -1;
		fd->msrc = sr_machine_src_name(src);
		free(path);
	}
	*m = *own;
	return 0;
}

/* The policies loaded must be those the sweep names its rows after. */
static int check_policies(const struct sr_sweep *s, const struct sr_replay *rp, struct sr_diag *d)
{
	size_t k;

	for (k = 0; k < s->policies.n; k++) {
		char *name = NULL;
		sr_hash_t h;
		int same;

		if (sr_policy_ident(s->policies.v[k], sr_replay_policy_name(rp, (int)k), &name, h)) {
			sr_diag_set(d, SR_ERR_POLICY, "cannot read policy %s to hash it: %s",
				    s->policies.v[k], strerror(errno));
			return -1;
		}
		same = !strcmp(name, s->pname[k]) && sr_id_eq(h[0] ? h : NULL, s->phash[k]);
		if (!same)
			sr_diag_set(d, SR_ERR_POLICY, "policy %s is %s%s%s now, not %s%s%s as when the "
				    "%s was set up", s->policies.v[k], name, h[0] ? " " : "", h,
				    s->pname[k], s->phash[k] ? " " : "", s->phash[k] ? s->phash[k] : "",
				    s->from_plan ? "plan" : "sweep");
		free(name);
		if (!same)
			return -1;
	}
	return 0;
}

void sr_unit_run(struct sr_sweep *s, size_t u, int ahead, struct sr_row **out, size_t *nout,
		 int *failed, uint64_t *nev)
{
	const char *trace = s->traces.v[sr_unit_trace(s, u)];
	struct sr_machine *own = NULL;
	const struct sr_machine *m = NULL;
	struct sr_replay_opts ro;
	struct sr_reader *r = NULL;
	struct sr_replay *rp = NULL;
	const struct sr_result *res = NULL;
	struct sr_event *evs = malloc(BATCH * sizeof(*evs));
	struct sr_pipe *pipe = NULL;
	struct sr_diag d;
	struct found fd;
	char err[1100] = "";
	size_t k, np = s->policies.n;
	int quiet = 0;

	*out = NULL;
	*nout = 0;
	*failed = 0;
	*nev = 0;
	memset(&fd, 0, sizeof(fd));
	sr_diag_clear(&d);
	if (!evs) {
		snprintf(err, sizeof(err), "out of memory");
		goto rows;
	}
	if (sr_reader_open(&r, trace, &s->ro, &d))
		goto diag;
	if (unit_machine(s, u, r, &own, &m, &fd, &d))
		goto diag;
	if (sr_hash_machine(m, fd.mhash)) {
		sr_diag_set(&d, SR_ERR_NOMEM, "out of memory");
		goto diag;
	}
	snprintf(fd.mname, sizeof(fd.mname), "%s", m->name);
	fd.have_m = 1;
	if (s->from_plan && s->plan.u[u].mspec && strcmp(fd.mhash, s->plan.u[u].mhash)) {
		sr_diag_file(&d, s->plan.u[u].mspec);
		sr_diag_set(&d, SR_ERR_MACHINE, "the machine is %s %s now, not %s %s as when the plan "
			    "was written", fd.mname, fd.mhash, s->plan.u[u].mname, s->plan.u[u].mhash);
		goto diag;
	}
	sr_replay_opts_init(&ro);
	ro.machine = m;
	ro.slots_cache = s->slots_cache;
	ro.reorder_window = SR_SWEEP_REORDER;
	ro.kernel = s->kernel;
	{
		/* The sweep's --kernel, else the one recorded with this trace
		 * (its capture notes, else its machine's), as replay does. */
		char why[320] = "--kernel";

		if (s->kernel_recorded &&
		    sr_kernel_resolve(&ro.kernel, NULL, trace, m, fd.mpath ? fd.mpath : fd.msrc, why,
				      sizeof(why), &d))
			goto diag;
		snprintf(fd.kernel, sizeof(fd.kernel), "%u.%u (%s)", ro.kernel.major,
			 ro.kernel.minor, why);
	}
	ro.readahead = s->ra;
	ro.plug = s->plug;
	ro.ordered = ahead; /* by the pipe's window, as replay does */
	ro.node_map = &s->node_map;
	ro.memcgs = sr_reader_memcgs(r);
	/* --uncertainty: the machine's variants, seeded 1 to N as replay's
	 * are, replayed in the same pass on the same decisions. */
	ro.variants = s->unc;
	ro.variant_range = (double)s->unc_range / 100.0;
	/* --noise: replicas of the trace's timing on the same decisions;
	 * auto, as replay's, from this trace's size. */
	ro.noise = s->noise == SR_SWEEP_NOISE_AUTO ? sr_noise_auto(sr_trace_events_guess(trace))
						   : (unsigned)s->noise;
	ro.noise_jitter_ns = (double)s->noise_jitter;
	if (sr_replay_new(&rp, &ro, (const char *const *)s->policies.v, (int)np, s->baseline, &d) ||
	    check_policies(s, rp, &d))
		goto diag;
	if (ahead && sr_pipe_start_ordered(&pipe, r, SR_SWEEP_REORDER, sr_replay_check, rp, &d))
		goto diag;
	for (;;) {
		size_t n;
		const struct sr_event *batch = evs;
		enum sr_err e = pipe ? sr_pipe_next(pipe, &batch, &n, &d)
				     : sr_reader_read(r, evs, BATCH, &n, &d);

		/* A pipe checked each event against rp (sr_replay_check). */
		if (n && (pipe ? sr_replay_feed_checked(rp, batch, n, &d) :
			  sr_replay_feed(rp, batch, n, &d))) {
			snprintf(d.file, sizeof(d.file), "%s", trace);
			goto diag;
		}
		if (e) {
			if (!d.file[0]) /* sr_replay_check's, from the pipe */
				snprintf(d.file, sizeof(d.file), "%s", trace);
			goto diag;
		}
		if (!n)
			break;
	}
	sr_pipe_stop(pipe);
	pipe = NULL;
	if (sr_replay_finish(rp, &res, &d))
		goto diag;
	sr_hash_fmt(fd.thash, sr_reader_stats(r)->content_hash);
	fd.have_t = 1;
	*nev = res->events;
	/* A valid trace of a machine that did not swap: its rows say so, as
	 * replay does, rather than give figures of nothing. */
	quiet = !sr_reader_stats(r)->events;
	goto rows;
diag:
	sr_diag_format(&d, err, sizeof(err));
	/* An error row says which trace it is of as well: its whole file
	 * hashed (null when it cannot be read). */
	fd.have_t = !sr_hash_file(trace, fd.thash);
rows:
	*failed = res == NULL;
	*out = calloc(np, sizeof(**out));
	for (k = 0; *out && k < np; k++) {
		struct sr_ident id;

		if (s->have && s->have[u * np + k])
			continue;
		sr_unit_ident(s, u, k, &id);
		id.v[SR_ID_TRACE_HASH] = fd.have_t ? fd.thash : NULL;
		/* What was loaded; else, in an error row, what was asked. */
		if (fd.have_m && (res || !id.v[SR_ID_MACHINE])) {
			id.v[SR_ID_MACHINE] = fd.mname;
			id.v[SR_ID_MACHINE_HASH] = fd.mhash;
		}
		if (fd.msrc) {
			id.v[SR_ID_MSRC] = fd.msrc;
			id.v[SR_ID_MPATH] = fd.mpath;
		}
		if (fd.kernel[0])
			id.v[SR_ID_KERNEL_USED] = fd.kernel;
		if (sr_row_make(&(*out)[*nout], s->fmt, u, &id, res && !quiet ? &res->policy[k] : NULL,
				res ? res->events : 0, quiet ? NULL : err[0] ? err : "failed")) {
			for (; *nout; --*nout)
				sr_row_free(&(*out)[*nout - 1]);
			free(*out);
			*out = NULL;
			break;
		}
		(*out)[(*nout)++].pol = k;
	}
	if (!*out)
		*failed = 1; /* out of memory: the writer says so */
	sr_pipe_stop(pipe);
	sr_replay_free(rp);
	sr_reader_close(r);
	sr_machine_free(own);
	free(evs);
}
