/* SPDX-License-Identifier: MIT */
/*
 * A sweep set up from its inputs and options (the traces, the machines,
 * the policies with the baseline first), its machines loaded once each
 * and its policies checked up front, with what each is (a machine's name
 * and hash, a policy's own name and a .so's hash) for the rows' identity;
 * without machines, the machine description beside each trace; and a
 * sweep freed.  The files beside this one are listed in
 * sweep_impl.h.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/diag.h"
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
	s->plug = opts->plug;
	s->ro.format = opts->input_format;
	s->ro.max_errors = opts->max_errors;
	s->ro.content_hash = 1;
	s->fmt = opts->format;
	s->unc = opts->uncertainty;
	s->unc_range = opts->uncertainty_range ? opts->uncertainty_range : SR_SWEEP_UNC_RANGE;
	s->noise = opts->noise;
	s->noise_jitter = opts->noise_jitter_ns ? opts->noise_jitter_ns
						: (unsigned)SR_NOISE_JITTER_NS;
	s->out_fd = -1;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->done_cv, NULL);
	return s;
}

struct ix {
	const char *s;
	size_t i;
};

static int cmp_ix(const void *a, const void *b)
{
	const struct ix *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* A trace named twice (a directory and a file in it) is one unit: its
 * rows would otherwise be doubled.  The later names go to skipped. */
static int drop_doubles(struct sr_sweep *s)
{
	struct ix *v;
	unsigned char *dup;
	size_t i, k = 0;

	if (s->traces.n < 2)
		return 0;
	v = malloc(s->traces.n * sizeof(*v));
	dup = calloc(s->traces.n, 1);
	if (!v || !dup) {
		free(v);
		free(dup);
		return -1;
	}
	for (i = 0; i < s->traces.n; i++) {
		v[i].s = s->traces.v[i];
		v[i].i = i;
	}
	qsort(v, s->traces.n, sizeof(*v), cmp_ix);
	for (i = 1; i < s->traces.n; i++)
		if (!strcmp(v[i].s, v[i - 1].s))
			dup[v[i].i] = 1;
	free(v);
	for (i = 0; i < s->traces.n; i++) {
		if (!dup[i]) {
			s->traces.v[k++] = s->traces.v[i];
			continue;
		}
		if (sr_strs_add(&s->skipped, s->traces.v[i], strlen(s->traces.v[i])) ||
		    sr_strs_add(&s->skipped, "named more than once", 20)) {
			free(dup);
			return -1;
		}
		free(s->traces.v[i]);
	}
	s->traces.n = k;
	free(dup);
	return 0;
}

/* The machine description beside a trace describes it, and is never a
 * trace itself (whatever its content: a damaged one too, whose traces'
 * rows will say so). */
static int drop_beside(struct sr_sweep *s)
{
	struct ix *v = malloc((s->traces.n + 1) * sizeof(*v));
	unsigned char *drop = calloc(s->traces.n + 1, 1);
	size_t i, k = 0;
	int rc = -1;

	if (!v || !drop)
		goto out;
	for (i = 0; i < s->traces.n; i++) {
		v[i].s = s->traces.v[i];
		v[i].i = i;
	}
	qsort(v, s->traces.n, sizeof(*v), cmp_ix);
	for (i = 0; i < s->traces.n; i++) {
		char *b = sr_machine_beside_path(s->traces.v[i]);
		size_t lo = 0, hi = s->traces.n;

		if (!b)
			goto out;
		while (lo < hi) {
			size_t m = (lo + hi) / 2;

			if (strcmp(v[m].s, b) < 0)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < s->traces.n && !strcmp(v[lo].s, b) && v[lo].i != i && !drop[v[lo].i]) {
			char *why = NULL;

			drop[v[lo].i] = 1;
			if (asprintf(&why, "the machine description beside %s", s->traces.v[i]) < 0 ||
			    sr_strs_add(&s->skipped, b, strlen(b)) ||
			    sr_strs_add(&s->skipped, why, strlen(why))) {
				free(why);
				free(b);
				goto out;
			}
			free(why);
		}
		free(b);
	}
	for (i = 0; i < s->traces.n; i++) {
		if (drop[i])
			free(s->traces.v[i]);
		else
			s->traces.v[k++] = s->traces.v[i];
	}
	s->traces.n = k;
	rc = 0;
out:
	free(v);
	free(drop);
	return rc;
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
	if (opts->uncertainty > SR_SWEEP_MAX_VARIANTS || opts->uncertainty_range > 400)
		return sr_diag_set(d, SR_ERR_LIMIT, "uncertainty: at most %d variants within "
				   "400 %%, not %u within %u %%", SR_SWEEP_MAX_VARIANTS,
				   opts->uncertainty, opts->uncertainty_range);
	if ((opts->noise < 0 && opts->noise != SR_SWEEP_NOISE_AUTO) ||
	    opts->noise > SR_REPLAY_MAX_NOISE || opts->noise_jitter_ns > 1000000000u)
		return sr_diag_set(d, SR_ERR_LIMIT, "noise: auto or at most %d replicas with a "
				   "jitter of at most 10^9 ns, not %d with %u ns", SR_REPLAY_MAX_NOISE,
				   opts->noise, opts->noise_jitter_ns);
	s = sr_sweep_alloc(opts);
	if (!s)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	/* Without --kernel, each trace's own (sr_unit_run()); s->kernel is
	 * then the default, unused. */
	s->kernel_recorded = !opts->kernel;
	err = sr_kernel_parse(opts->kernel ? opts->kernel : SR_KERNEL_DEFAULT, &s->kernel, d);
	if (err)
		goto fail;
	sr_readahead_default(&s->ra);
	if (opts->readahead) {
		err = sr_readahead_parse(opts->readahead, &s->ra, d);
		if (err)
			goto fail;
	}
	if (opts->node_map) {
		err = sr_node_map_parse(opts->node_map, &s->node_map, d);
		if (err)
			goto fail;
	}
	for (k = 0; k < ninputs; k++) {
		err = sr_sweep_expand(&s->traces, &s->skipped, inputs[k], opts->every_file, d);
		if (err)
			goto fail;
	}
	if (drop_doubles(s) || (!opts->every_file && drop_beside(s)))
		goto nomem;
	if (!s->traces.n) {
		err = sr_diag_set(d, SR_ERR_INVAL, "no trace found in the inputs");
		goto fail;
	}
	for (k = 0; k < opts->npolicies; k++)
		if (sr_strs_add(&s->policies, opts->policies[k], strlen(opts->policies[k])))
			goto nomem;
	if (!s->policies.n)
		for (k = 0; k < 4; k++)
			if (sr_strs_add(&s->policies, default_policies[k], strlen(default_policies[k])))
				goto nomem;
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
		k = 0;
	}
	s->bl = k;
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

/* Each policy's identity, from a replay that loaded them all. */
static enum sr_err policy_idents(struct sr_sweep *s, const struct sr_replay *probe,
				 struct sr_diag *d)
{
	size_t k, j;

	s->pname = calloc(s->policies.n, sizeof(*s->pname));
	s->phash = calloc(s->policies.n, sizeof(*s->phash));
	if (!s->pname || !s->phash)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (k = 0; k < s->policies.n; k++) {
		sr_hash_t h;

		if (sr_policy_ident(s->policies.v[k], sr_replay_policy_name(probe, (int)k),
				    &s->pname[k], h)) {
			int e = errno;

			if (e == ENOMEM)
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			return sr_diag_set(d, SR_ERR_POLICY, "cannot read policy %s to hash it: %s",
					   s->policies.v[k], strerror(e));
		}
		if (h[0] && !(s->phash[k] = strdup(h)))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		/* Two specs for one policy (a path and another to the same
		 * .so): their rows could not be told apart. */
		for (j = 0; j < k; j++)
			if (!strcmp(s->pname[j], s->pname[k]) && sr_id_eq(s->phash[j], s->phash[k]))
				return sr_diag_set(d, SR_ERR_INVAL, "policies %s and %s are the same "
						   "policy (%s)", s->policies.v[j], s->policies.v[k],
						   s->pname[k]);
	}
	return SR_OK;
}

enum sr_err sr_sweep_machine_load(struct sr_machine **out, const char *spec,
				  struct sr_diag *d)
{
	if (sr_machine_preset_json(spec))
		return sr_machine_load(out, spec, d);
	return sr_machine_load_file_only(out, spec, d);
}

/* Without machines, each trace's machine beside it, if there is one: loaded
 * once, or why it cannot be (its unit's rows will say so: never another
 * machine instead). */
static enum sr_err load_beside(struct sr_sweep *s, struct sr_diag *d)
{
	size_t t;

	s->bes = calloc(s->traces.n + 1, sizeof(*s->bes));
	if (!s->bes)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (t = 0; t < s->traces.n; t++) {
		struct sr_beside *b = &s->bes[t];
		struct sr_diag md;
		struct stat st;
		sr_hash_t h;

		b->path = sr_machine_beside_path(s->traces.v[t]);
		if (!b->path)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		if (stat(b->path, &st) && errno == ENOENT) {
			free(b->path);
			b->path = NULL;
			continue;
		}
		if (sr_sweep_machine_load(&b->m, b->path, &md)) {
			char msg[1100];

			sr_diag_format(&md, msg, sizeof(msg));
			if (md.code == SR_ERR_NOMEM || !(b->err = strdup(msg)))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			continue;
		}
		if (sr_hash_machine(b->m, h) || !(b->name = strdup(b->m->name)) ||
		    !(b->hash = strdup(h)))
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	return SR_OK;
}

enum sr_err sr_sweep_load(struct sr_sweep *s, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_replay *probe;
	struct sr_replay_opts po;
	struct sr_machine *pm = NULL;
	enum sr_err err;
	size_t k;

	sr_diag_clear(d);
	if (s->loaded || s->mach)
		return sr_diag_set(d, SR_ERR_INVAL, "the sweep is loaded already");
	/* A plan's units load their machines and policies each: a machine
	 * file that one unit needs does not stop the others. */
	if (s->from_plan) {
		s->loaded = 1;
		return SR_OK;
	}
	/* Machines: each loaded once, with its identity. */
	if (s->machines.n) {
		s->mach = calloc(s->machines.n, sizeof(*s->mach));
		s->mname = calloc(s->machines.n, sizeof(*s->mname));
		s->mhash = calloc(s->machines.n, sizeof(*s->mhash));
		if (!s->mach || !s->mname || !s->mhash)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		for (k = 0; k < s->machines.n; k++) {
			sr_hash_t h;

			err = sr_sweep_machine_load(&s->mach[k], s->machines.v[k], d);
			if (err)
				return err;
			if (sr_hash_machine(s->mach[k], h) || !(s->mname[k] = strdup(s->mach[k]->name)) ||
			    !(s->mhash[k] = strdup(h)))
				return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		}
	} else {
		err = load_beside(s, d);
		if (err)
			return err;
	}
	/* The policies too (a .so that does not load, a typo). */
	if (!s->mach) {
		err = sr_machine_load(&pm, SR_MACHINE_DEFAULT, d);
		if (err)
			return err;
	}
	sr_replay_opts_init(&po);
	po.reorder_window = 16;
	po.machine = s->mach ? s->mach[0] : pm;
	err = sr_replay_new(&probe, &po, (const char *const *)s->policies.v, (int)s->policies.n,
			    s->baseline, d);
	if (!err) {
		err = policy_idents(s, probe, d);
		sr_replay_free(probe);
	}
	sr_machine_free(pm);
	if (err)
		return err;
	if (sr_ident_run(s))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	s->loaded = 1;
	return SR_OK;
}

size_t sr_sweep_units(const struct sr_sweep *s)
{
	return s->nunits;
}

const struct sr_sweep_skip *sr_sweep_skipped(struct sr_sweep *s, size_t *n)
{
	size_t i;

	*n = s->skipped.n / 2;
	free(s->skip_list);
	s->skip_list = calloc(*n + 1, sizeof(*s->skip_list));
	if (!s->skip_list) {
		*n = 0;
		return NULL;
	}
	for (i = 0; i < *n; i++) {
		s->skip_list[i].path = s->skipped.v[2 * i];
		s->skip_list[i].why = s->skipped.v[2 * i + 1];
	}
	return s->skip_list;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
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
	for (k = 0; s->bes && k < s->traces.n; k++) {
		sr_machine_free(s->bes[k].m);
		free(s->bes[k].path);
		free(s->bes[k].name);
		free(s->bes[k].hash);
		free(s->bes[k].err);
	}
	free(s->bes);
	free_strv(s->mname, s->machines.n);
	free_strv(s->mhash, s->machines.n);
	if (s->from_plan) { /* the plan's strings */
		free(s->pname);
		free(s->phash);
	} else {
		free_strv(s->pname, s->policies.n);
		free_strv(s->phash, s->policies.n);
	}
	for (k = 0; k < SR_ID_COUNT; k++)
		free(s->run_v[k]);
	if (s->out)
		for (u = 0; u < s->nunits; u++) {
			for (k = 0; s->out[u] && k < s->nout[u]; k++)
				sr_row_free(&s->out[u][k]);
			free(s->out[u]);
		}
	free(s->out);
	free(s->nout);
	free(s->failed);
	free(s->events);
	free(s->udone);
	free(s->doneq);
	free(s->skip);
	free(s->have);
	free(s->win);
	free_strv(s->thash, s->traces.n);
	free_strv(s->hmname, s->traces.n);
	free_strv(s->hmhash, s->traces.n);
	free(s->hknown);
	free(s->hmknown);
	sr_sweep_free_schedule(s);
	free(s->th);
	free(s->out_path);
	free(s->out_name);
	sr_rows_free(&s->rows);
	sr_plan_free(&s->plan);
	free(s->baseline);
	free(s->skip_list);
	sr_strs_free(&s->traces);
	sr_strs_free(&s->names);
	sr_strs_free(&s->machines);
	sr_strs_free(&s->policies);
	sr_strs_free(&s->skipped);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->done_cv);
	free(s);
}
