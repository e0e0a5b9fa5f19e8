/* SPDX-License-Identifier: MIT */
/*
 * Plans: a sweep cut into units that any engine can run, one JSON line a
 * unit (its trace, its machine and every setting), written and read back;
 * and the part of a sweep a run takes (one unit, or every Nth: a shard).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

enum sr_err sr_sweep_write_plan(const struct sr_sweep *s, const char *path,
				struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_outfile *of;
	enum sr_err err;
	FILE *f;
	size_t u, k;

	sr_diag_clear(d);
	err = sr_outfile_open(&of, path, d);
	if (err)
		return err;
	f = sr_outfile_stream(of);
	for (u = 0; u < s->nunits; u++) {
		char *t = sr_json_str(s->traces.v[sr_unit_trace(s, u)]), *b = sr_json_str(s->baseline);

		fprintf(f, "{\"unit\": %zu, \"trace\": %s, \"machine\": ", u, t);
		if (s->machines.n) {
			char *m = sr_json_str(s->machines.v[sr_unit_machine(s, u)]);

			fputs(m, f);
			free(m);
		} else {
			fputs("null", f);
		}
		fputs(", \"policies\": [", f);
		for (k = 0; k < s->policies.n; k++) {
			char *p = sr_json_str(s->policies.v[k]);

			fprintf(f, "%s%s", k ? ", " : "", p);
			free(p);
		}
		fprintf(f, "], \"baseline\": %s, \"slots_cache\": %s, \"input_format\": \"%s\", "
			   "\"max_errors\": %" PRIu64 "}\n", b, s->slots_cache ? "true" : "false",
			sr_format_name(s->ro.format), s->ro.max_errors);
		free(t);
		free(b);
	}
	return sr_outfile_commit(of, d);
}

/*
 * Read a plan into s: traces and machines are rebuilt so that unit numbers
 * match; the policies, baseline and options are the first line's.
 */
static enum sr_err read_plan(struct sr_sweep *s, const char *path, struct sr_diag *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	enum sr_err rc = SR_ERR_FORMAT;

	if (!f) {
		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_IO, "cannot open the plan: %s", strerror(errno));
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		json_error_t je;
		json_t *o = json_loadb(line, (size_t)n, 0, &je), *v, *pv;
		size_t i;

		lineno++;
		if (!json_is_object(o) || !json_is_integer(v = json_object_get(o, "unit")) ||
		    (size_t)json_integer_value(v) != lineno - 1 ||
		    !json_is_string(json_object_get(o, "trace")) ||
		    !json_is_array(pv = json_object_get(o, "policies"))) {
			sr_diag_file(d, path);
			d->line = lineno;
			sr_diag_set(d, SR_ERR_FORMAT, "not a line of a sweep plan");
			json_decref(o);
			goto out;
		}
		if (sr_strs_add(&s->traces, json_string_value(json_object_get(o, "trace")),
				strlen(json_string_value(json_object_get(o, "trace")))))
			goto nomem;
		v = json_object_get(o, "machine");
		if (json_is_string(v) && sr_strs_add(&s->machines, json_string_value(v),
						     strlen(json_string_value(v))))
			goto nomem;
		if (lineno == 1) {
			for (i = 0; i < json_array_size(pv); i++) {
				json_t *p = json_array_get(pv, i);

				/* A policy that is not a string is taken for a
				 * failed allocation (kept as the command line
				 * has always had it). */
				if (!json_is_string(p) ||
				    sr_strs_add(&s->policies, json_string_value(p),
						strlen(json_string_value(p))))
					goto nomem;
			}
			v = json_object_get(o, "baseline");
			s->baseline = json_is_string(v) ? strdup(json_string_value(v)) : NULL;
			s->slots_cache = json_is_true(json_object_get(o, "slots_cache"));
			v = json_object_get(o, "input_format");
			if (json_is_string(v))
				sr_format_parse(json_string_value(v), &s->ro.format);
			v = json_object_get(o, "max_errors");
			if (json_is_integer(v) && json_integer_value(v) > 0)
				s->ro.max_errors = (uint64_t)json_integer_value(v);
		}
		json_decref(o);
		continue;
nomem:
		json_decref(o);
		rc = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (!lineno || !s->baseline) {
		sr_diag_file(d, path);
		sr_diag_set(d, SR_ERR_FORMAT, "an empty plan");
		goto out;
	}
	rc = SR_OK;
out:
	free(line);
	fclose(f);
	return rc;
}

enum sr_err sr_sweep_open_plan(struct sr_sweep **out, const char *path,
			       const struct sr_sweep_opts *opts, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_sweep *s;
	enum sr_err err;

	*out = NULL;
	sr_diag_clear(d);
	s = sr_sweep_alloc(opts);
	if (!s)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = read_plan(s, path, d);
	if (err)
		goto fail;
	if (s->policies.n > SR_MAX_POLICIES) {
		err = sr_diag_set(d, SR_ERR_LIMIT, "at most %d policies", SR_MAX_POLICIES);
		goto fail;
	}
	s->nunits = s->traces.n; /* one machine per plan line */
	s->from_plan = 1;
	if (s->machines.n && s->machines.n != s->traces.n) {
		sr_diag_file(d, path);
		err = sr_diag_set(d, SR_ERR_FORMAT, "every line of a plan names a machine, or none does");
		goto fail;
	}
	*out = s;
	return SR_OK;
fail:
	sr_sweep_free(s);
	return err;
}

void sr_sweep_select(struct sr_sweep *s)
{
	size_t u;

	for (u = 0; u < s->nunits; u++)
		s->skip[u] = (s->one_unit && u != s->unit) ||
			     (s->nshards > 1 && u % s->nshards != s->shard);
}
