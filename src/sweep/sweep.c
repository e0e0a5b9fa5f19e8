/* SPDX-License-Identifier: MIT */
/*
 * A sweep set up from its inputs and options (the traces, the machines,
 * the policies with the baseline first), its machines loaded once each
 * and its policies checked up front; and a sweep freed.  The files beside
 * this one are listed in sweep_impl.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

#define DEFAULT_BASELINE "reclaimer-nid"

/* The policies when none is named: the four of the discussion. */
static const char *const default_policies[] = {
	"reclaimer-nid", "page-nid", "page-nid-strict", "hybrid",
};

enum sr_err sr_sweep_fmt_parse(const char *s, enum sr_sweep_fmt *out)
{
	if (!strcmp(s, "jsonl") || !strcmp(s, "json"))
		*out = SR_SWEEP_JSONL;
	else if (!strcmp(s, "csv"))
		*out = SR_SWEEP_CSV;
	else
		return SR_ERR_INVAL;
	return SR_OK;
}

struct sr_sweep *sr_sweep_alloc(const struct sr_sweep_opts *opts)
{
	struct sr_sweep *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->slots_cache = opts->slots_cache;
	s->ro.format = opts->input_format;
	s->ro.max_errors = opts->max_errors;
	s->ro.content_hash = 1;
	s->fmt = opts->format;
	s->out_fd = -1;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->done_cv, NULL);
	return s;
}

enum sr_err sr_sweep_new(struct sr_sweep **out, const char *const *inputs, size_t ninputs,
			 const struct sr_sweep_opts *opts, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	const char *baseline = opts->baseline ? opts->baseline : DEFAULT_BASELINE;
	struct sr_sweep *s;
	enum sr_err err;
	size_t k;

	*out = NULL;
	sr_diag_clear(d);
	/* Rows and plans store it as a JSON integer, which jansson reads back
	 * only up to 2^63 - 1 (and no trace has that many records). */
	if (opts->max_errors > INT64_MAX)
		return sr_diag_set(d, SR_ERR_LIMIT, "max_errors is at most %lld in a sweep, not %llu",
				   (long long)INT64_MAX, (unsigned long long)opts->max_errors);
	s = sr_sweep_alloc(opts);
	if (!s)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (k = 0; k < ninputs; k++) {
		err = sr_sweep_expand(&s->traces, inputs[k], d);
		if (err)
			goto fail;
	}
	if (!s->traces.n) {
		err = sr_diag_set(d, SR_ERR_INVAL, "no trace found in the inputs");
		goto fail;
	}
	for (k = 0; k < opts->npolicies; k++)
		if (sr_strs_add(&s->policies, opts->policies[k], strlen(opts->policies[k])))
			goto nomem;
	if (!s->policies.n)
		for (k = 0; k < 4; k++)
			sr_strs_add(&s->policies, default_policies[k], strlen(default_policies[k]));
	for (k = 0; k < s->policies.n && strcmp(s->policies.v[k], baseline); k++)
		;
	if (k == s->policies.n) {
		/* The baseline comes first. */
		char *b;

		if (sr_strs_add(&s->policies, baseline, strlen(baseline)))
			goto nomem;
		b = s->policies.v[s->policies.n - 1];
		memmove(&s->policies.v[1], &s->policies.v[0], (s->policies.n - 1) * sizeof(char *));
		s->policies.v[0] = b;
	}
	s->baseline = strdup(baseline);
	if (!s->baseline)
		goto nomem;
	for (k = 0; k < opts->nmachines; k++)
		if (sr_strs_add(&s->machines, opts->machines[k], strlen(opts->machines[k])))
			goto nomem;
	if (s->policies.n > SR_MAX_POLICIES) {
		err = sr_diag_set(d, SR_ERR_LIMIT, "at most %d policies", SR_MAX_POLICIES);
		goto fail;
	}
	if (s->machines.n > SR_SWEEP_MAX_MACHINES) {
		err = sr_diag_set(d, SR_ERR_LIMIT, "at most %d machines", SR_SWEEP_MAX_MACHINES);
		goto fail;
	}
	s->nunits = s->traces.n * (s->machines.n ? s->machines.n : 1);
	*out = s;
	return SR_OK;
nomem:
	err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
fail:
	sr_sweep_free(s);
	return err;
}

enum sr_err sr_sweep_load(struct sr_sweep *s, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_replay *probe;
	struct sr_replay_opts po = { NULL, 1, 16, 0 };
	struct sr_machine *pm = NULL;
	enum sr_err err;
	size_t k;

	sr_diag_clear(d);
	if (s->loaded || s->mach)
		return sr_diag_set(d, SR_ERR_INVAL, "the sweep is loaded already");
	/* Machines: each loaded once. */
	if (s->machines.n) {
		s->mach = calloc(s->machines.n, sizeof(*s->mach));
		if (!s->mach)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		for (k = 0; k < s->machines.n; k++) {
			err = sr_machine_load(&s->mach[k], s->machines.v[k], d);
			if (err)
				return err;
		}
	}
	/* The policies too (a .so that does not load, a typo). */
	if (!s->mach) {
		err = sr_machine_load(&pm, SR_MACHINE_DEFAULT, d);
		if (err)
			return err;
	}
	po.machine = s->mach ? s->mach[0] : pm;
	err = sr_replay_new(&probe, &po, (const char *const *)s->policies.v, (int)s->policies.n,
			    s->baseline, d);
	sr_machine_free(pm);
	if (err)
		return err;
	sr_replay_free(probe);
	s->loaded = 1;
	return SR_OK;
}

size_t sr_sweep_units(const struct sr_sweep *s)
{
	return s->nunits;
}

void sr_sweep_free(struct sr_sweep *s)
{
	size_t k, u;

	if (!s)
		return;
	if (s->started && !s->finished)
		sr_sweep_finish(s, NULL);
	if (s->out_fd >= 0 && s->out_path)
		close(s->out_fd);
	if (s->mach)
		for (k = 0; k < s->machines.n; k++)
			sr_machine_free(s->mach[k]);
	free(s->mach);
	if (s->out)
		for (u = 0; u < s->nunits; u++)
			free(s->out[u]);
	free(s->out);
	free(s->failed);
	free(s->events);
	free(s->udone);
	free(s->skip);
	free(s->have);
	sr_sweep_free_schedule(s);
	free(s->th);
	free(s->out_path);
	free(s->out_name);
	sr_rows_free(&s->old);
	free(s->baseline);
	sr_strs_free(&s->traces);
	sr_strs_free(&s->machines);
	sr_strs_free(&s->policies);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->done_cv);
	free(s);
}
