/* SPDX-License-Identifier: MIT */
/*
 * One unit of a sweep: a trace decoded once and replayed on one machine
 * through every policy in that pass, into its result rows (a damaged trace
 * gives rows that carry its error).  Run on a worker's thread.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

#define BATCH 512 /* events read at a time: they stay in the cache until replayed */

void sr_unit_run(struct sr_sweep *s, size_t u, int ahead, char **out, int *failed,
		 uint64_t *nev)
{
	const char *trace = s->traces.v[sr_unit_trace(s, u)];
	const char *mspec = s->machines.n ? s->machines.v[sr_unit_machine(s, u)] : NULL;
	struct sr_machine *own = NULL;
	const struct sr_machine *m = s->mach ? s->mach[sr_unit_machine(s, u)] : NULL;
	struct sr_replay_opts ro = { NULL, s->slots_cache, 0, 0 };
	struct sr_reader *r = NULL;
	struct sr_replay *rp = NULL;
	const struct sr_result *res = NULL;
	struct sr_event *evs = malloc(BATCH * sizeof(*evs));
	struct sr_pipe *pipe = NULL;
	struct sr_diag d;
	char err[1100] = "", hash[40] = "";
	size_t len = 0, k;
	const char *mname;

	*out = NULL;
	*failed = 0;
	*nev = 0;
	sr_diag_clear(&d);
	if (!evs) {
		snprintf(err, sizeof(err), "out of memory");
		goto rows;
	}
	if (sr_reader_open(&r, trace, &s->ro, &d))
		goto diag;
	if (!m) {
		const char *j = sr_reader_machine_json(r);

		if (j ? sr_machine_parse(&own, j, strlen(j), "machine in the trace header", &d)
		      : sr_machine_load(&own, SR_MACHINE_DEFAULT, &d))
			goto diag;
		m = own;
	}
	ro.machine = m;
	ro.ordered = ahead; /* by the pipe's window, as replay does */
	if (sr_replay_new(&rp, &ro, (const char *const *)s->policies.v, (int)s->policies.n,
			  s->baseline, &d))
		goto diag;
	if (ahead && sr_pipe_start_ordered(&pipe, r, SR_REORDER_DEFAULT, sr_replay_check, rp, &d))
		goto diag;
	for (;;) {
		size_t n;
		const struct sr_event *batch = evs;
		enum sr_err e = pipe ? sr_pipe_next(pipe, &batch, &n, &d)
				     : sr_reader_read(r, evs, BATCH, &n, &d);

		if (n && sr_replay_feed(rp, batch, n, &d)) {
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
	snprintf(hash, sizeof(hash), "fnv1a64:%016" PRIx64, sr_reader_stats(r)->content_hash);
	*nev = res->events;
	goto rows;
diag:
	sr_diag_format(&d, err, sizeof(err));
rows:
	mname = m ? m->name : mspec ? mspec : "(default)";
	*failed = res == NULL;
	for (k = 0; k < s->policies.n; k++) {
		if (s->have && s->have[u * s->policies.n + k])
			continue;
		sr_rows_format(s, out, &len, u, trace, res ? hash : NULL, mname, s->policies.v[k],
			       res ? &res->policy[k] : NULL, res ? res->events : 0,
			       res ? NULL : err[0] ? err : "failed");
	}
	if (!*out)
		*out = strdup(""); /* still NULL out of memory: the writer says so */
	if (!*out)
		*failed = 1;
	sr_pipe_stop(pipe);
	sr_replay_free(rp);
	sr_reader_close(r);
	sr_machine_free(own);
	free(evs);
}
