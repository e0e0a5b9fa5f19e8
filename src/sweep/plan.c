/* SPDX-License-Identifier: MIT */
/*
 * Plans: a sweep cut into units that any engine can run, one JSON line a
 * unit (its trace, its machine, the policies and every option, with what
 * each was when the plan was written: the machine's name and hash, each
 * policy's identity), written and read back; and the part of a sweep a run
 * takes (one unit, or every Nth: a shard).
 *
 * Paths (traces, machine files, shared-object policies) are stored
 * relative to the plan's directory, or absolute when given so, and
 * resolved from the plan's directory when read: a plan runs from any
 * working directory and on any node that sees the same tree, wherever it
 * is mounted.
 */
#define _GNU_SOURCE /* strndup, realpath */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "common/diag.h"
#include "common/parse.h"
#include "common/grow.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/outfile.h"

/* ---- paths -------------------------------------------------------------- */

/* The directory part of path ("." when it has none), malloc'ed. */
static char *dir_of(const char *path)
{
	const char *sl = strrchr(path, '/');

	if (!sl)
		return strdup(".");
	if (sl == path)
		return strdup("/");
	return strndup(path, (size_t)(sl - path));
}

/* path made absolute: its directory resolved (symbolic links followed),
 * its last part kept, so that a link to a trace stays named as the link.
 * NULL when the directory does not resolve (out of memory too). */
static char *abs_of(const char *path)
{
	char *dir = dir_of(path), *rd = dir ? realpath(dir, NULL) : NULL, *out = NULL;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (rd && asprintf(&out, "%s%s%s", rd, strcmp(rd, "/") ? "/" : "", base) < 0)
		out = NULL;
	free(dir);
	free(rd);
	return out;
}

/* to (absolute) relative to the absolute directory from. */
static char *rel_of(const char *from, const char *to)
{
	size_t i = 0, c = 0, ups = 0, k;
	const char *rest, *p;
	char *out;

	/* c: the length of the prefix they share, ending at a component. */
	while (from[i] && from[i] == to[i])
		if (from[i++] == '/')
			c = i;
	if ((!from[i] || from[i] == '/') && (!to[i] || to[i] == '/'))
		c = i;
	for (p = from + c; *p; p++)
		if (*p != '/' && (p == from + c || p[-1] == '/'))
			ups++;
	rest = to + c;
	while (*rest == '/')
		rest++;
	out = malloc(ups * 3 + strlen(rest) + 2);
	if (!out)
		return NULL;
	for (k = 0; k < ups; k++)
		memcpy(out + 3 * k, "../", 3);
	strcpy(out + 3 * ups, rest);
	if (!out[0])
		strcpy(out, ".");
	else if (!rest[0])
		out[3 * ups - 1] = '\0'; /* "../.." */
	return out;
}

/*
 * path (relative to the working directory, or absolute) as the plan in
 * the absolute directory plan_dir stores it: absolute as given; as typed
 * when the plan is in the working directory (cwd); else relative to the
 * plan.  slash: the result must hold a "/" (a machine file or a .so, told
 * so from a preset's or a built-in's name).
 */
static char *stored_path(const char *plan_dir, const char *cwd, const char *path, int slash)
{
	char *abs, *out;

	if (path[0] == '/' || !strcmp(plan_dir, cwd)) {
		out = strdup(path);
	} else {
		abs = abs_of(path);
		if (!abs && asprintf(&abs, "%s/%s", cwd, path) < 0)
			abs = NULL;
		out = abs ? rel_of(plan_dir, abs) : NULL;
		free(abs);
	}
	if (out && slash && !strchr(out, '/')) {
		char *dotted;

		if (asprintf(&dotted, "./%s", out) < 0)
			dotted = NULL;
		free(out);
		out = dotted;
	}
	return out;
}

/* stored, read from a plan in dir (as the plan's path gives it). */
static char *resolved_path(const char *dir, const char *stored)
{
	char *out;

	if (stored[0] == '/' || !strcmp(dir, "."))
		return strdup(stored);
	return asprintf(&out, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", stored) < 0 ? NULL : out;
}

/* A policy spec whose name part is a path (a .so), stored or resolved;
 * other specs are copied. */
static char *policy_path(const char *spec, const char *plan_dir, const char *cwd, int store)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	char *path, *p, *out;

	if (!memchr(spec, '/', nlen))
		return strdup(spec);
	path = strndup(spec, nlen);
	p = !path ? NULL : store ? stored_path(plan_dir, cwd, path, 1) : resolved_path(plan_dir, path);
	if (!p || asprintf(&out, "%s%s", p, colon ? colon : "") < 0)
		out = NULL;
	free(path);
	free(p);
	return out;
}

/* ---- writing ------------------------------------------------------------ */

static void put_json(FILE *f, const char *key, const char *v, enum sr_id_kind k)
{
	char *j = sr_id_to_json(v, k);

	fprintf(f, ", \"%s\": %s", key, j ? j : "null");
	free(j);
}

enum sr_err sr_sweep_write_plan(const struct sr_sweep *s, const char *path,
				struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_outfile *of = NULL;
	char *plan_dir = NULL, *cwd = NULL, *dir = NULL, **mstored = NULL, **pstored = NULL;
	enum sr_err err = SR_OK;
	FILE *f;
	size_t u, k;
	int i;

	sr_diag_clear(d);
	if (!s->loaded || s->from_plan)
		return sr_diag_set(d, SR_ERR_INVAL, "the sweep is not loaded, or is a plan's");
	/* Standard output: paths relative to the working directory. */
	dir = strcmp(path, "-") ? dir_of(path) : strdup(".");
	plan_dir = dir ? realpath(dir, NULL) : NULL;
	cwd = getcwd(NULL, 0);
	if (!plan_dir || !cwd) {
		int e = errno;

		sr_diag_file(d, path);
		err = sr_diag_set(d, e == ENOMEM ? SR_ERR_NOMEM : SR_ERR_IO,
				  "cannot resolve the plan's directory: %s", strerror(e));
		goto out;
	}
	mstored = calloc(s->machines.n + 1, sizeof(*mstored));
	pstored = calloc(s->policies.n + 1, sizeof(*pstored));
	if (!mstored || !pstored)
		goto nomem;
	for (k = 0; k < s->machines.n; k++) {
		mstored[k] = s->mach[k]->from_preset ? strdup(s->machines.v[k])
						     : stored_path(plan_dir, cwd, s->machines.v[k], 1);
		if (!mstored[k])
			goto nomem;
	}
	for (k = 0; k < s->policies.n; k++)
		if (!(pstored[k] = policy_path(s->policies.v[k], plan_dir, cwd, 1)))
			goto nomem;
	/* A machine beside a trace is the unit's, named by its path with its
	 * name and hash as -m's are: the unit then runs on that machine
	 * wherever it runs, or fails.  One that cannot be loaded leaves the
	 * unit without a machine to plan for. */
	for (u = 0; s->bes && u < s->traces.n; u++)
		if (s->bes[u].path && !s->bes[u].m) {
			err = sr_diag_set(d, SR_ERR_MACHINE, "%s (the machine description beside %s: "
					  "the plan cannot name its units' machine)", s->bes[u].err,
					  s->traces.v[u]);
			goto out;
		}
	err = sr_outfile_open(&of, path, d);
	if (err)
		goto out;
	f = sr_outfile_stream(of);
	for (u = 0; u < s->nunits; u++) {
		size_t m = sr_unit_machine(s, u);
		char *t = stored_path(plan_dir, cwd, s->traces.v[sr_unit_trace(s, u)], 0);

		if (!t) {
			sr_outfile_abort(of);
			goto nomem;
		}
		fprintf(f, "{\"unit\": %zu", u);
		put_json(f, "trace", t, SR_IDK_STR);
		free(t);
		if (s->machines.n) {
			put_json(f, "machine_spec", mstored[m], SR_IDK_STR);
			put_json(f, "machine", s->mname[m], SR_IDK_STR);
			put_json(f, "machine_hash", s->mhash[m], SR_IDK_STR);
			put_json(f, "machine_source", SR_MSRC_OPTION, SR_IDK_STR);
		} else if (s->bes && s->bes[sr_unit_trace(s, u)].path) {
			const struct sr_beside *b = &s->bes[sr_unit_trace(s, u)];
			char *bp = stored_path(plan_dir, cwd, b->path, 1);

			if (!bp) {
				sr_outfile_abort(of);
				goto nomem;
			}
			put_json(f, "machine_spec", bp, SR_IDK_STR);
			free(bp);
			put_json(f, "machine", b->name, SR_IDK_STR);
			put_json(f, "machine_hash", b->hash, SR_IDK_STR);
			put_json(f, "machine_source", SR_MSRC_BESIDE, SR_IDK_STR);
		} else {
			/* The trace's own: its header's, else the default. */
			put_json(f, "machine_spec", NULL, SR_IDK_STR);
			put_json(f, "machine", NULL, SR_IDK_STR);
			put_json(f, "machine_hash", NULL, SR_IDK_STR);
			put_json(f, "machine_source", NULL, SR_IDK_STR);
		}
		fputs(", \"policies\": [", f);
		for (k = 0; k < s->policies.n; k++) {
			char *sp = sr_json_str(pstored[k]);

			fprintf(f, "%s{\"spec\": %s", k ? ", " : "", sp ? sp : "null");
			free(sp);
			put_json(f, "policy", s->pname[k], SR_IDK_STR);
			put_json(f, "policy_hash", s->phash[k], SR_IDK_STR);
			fputc('}', f);
		}
		fputc(']', f);
		put_json(f, "baseline_spec", pstored[s->bl], SR_IDK_STR);
		for (i = 0; i < SR_ID_COUNT; i++)
			if (sr_id_fields[i].scope == SR_IDS_RUN)
				put_json(f, sr_id_fields[i].name, s->run_v[i], sr_id_fields[i].kind);
		fprintf(f, ", \"schema\": \"%s\"}\n", SR_PLAN_SCHEMA);
	}
	err = sr_outfile_commit(of, d);
	goto out;
nomem:
	err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
out:
	for (k = 0; mstored && k < s->machines.n; k++)
		free(mstored[k]);
	for (k = 0; pstored && k < s->policies.n; k++)
		free(pstored[k]);
	free(mstored);
	free(pstored);
	free(plan_dir);
	free(cwd);
	free(dir);
	return err;
}

/* ---- reading ------------------------------------------------------------ */

void sr_plan_free(struct sr_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->u[i].trace);
		free(p->u[i].trace_path);
		free(p->u[i].mspec);
		free(p->u[i].mname);
		free(p->u[i].mhash);
		free(p->u[i].msrc);
		free(p->u[i].mstored);
	}
	free(p->u);
	for (i = 0; i < p->np; i++) {
		free(p->spec[i]);
		free(p->pname[i]);
		free(p->phash[i]);
	}
	free(p->spec);
	free(p->pname);
	free(p->phash);
	free(p->baseline);
	for (i = 0; i < SR_ID_COUNT; i++)
		free(p->run_v[i]);
	memset(p, 0, sizeof(*p));
}

static char *dup_or_null(const char *s, int *nomem)
{
	char *d = s ? strdup(s) : NULL;

	*nomem |= s && !d;
	return d;
}

/* The string at key of o, or NULL for null; -1 when missing or not one. */
static int str_or_null(json_t *o, const char *key, const char **out)
{
	char num[24];

	return sr_id_from_json(json_object_get(o, key), SR_IDK_STR, num, out) ||
	       !json_object_get(o, key) ? -1 : 0;
}

/*
 * One line of a plan into p (first: the line of the first unit, 0 for
 * the first unit itself): the first gives the policies and
 * the options, the others must give the same (a plan is one sweep).  dir
 * is the plan's directory as its path gives it.  NULL, or what is wrong
 * (in why; "" out of memory).
 */
static const char *plan_line(struct sr_plan *p, json_t *o, const char *dir, uint64_t first,
			     char *why, size_t wsz)
{
	const char *trace, *mspec, *mname, *mhash, *msrc, *bspec, *sch, *run[SR_ID_COUNT];
	char num[SR_ID_COUNT][24];
	struct sr_plan_unit *pu;
	json_t *pv = json_object_get(o, "policies"), *v = json_object_get(o, "unit");
	size_t k, np;
	int i, nomem = 0;

	if (str_or_null(o, "schema", &sch) || !sch) {
		if (json_object_get(o, "policies") && json_object_get(o, "unit"))
			return "a line of a plan of an older swapreplay (it has no schema): write "
			       "the plan again with sweep --plan";
		return "not a line of a sweep plan";
	}
	if (strcmp(sch, SR_PLAN_SCHEMA)) {
		snprintf(why, wsz, "%s, not a line of a plan of schema %s",
			 strncmp(sch, "swapreplay-sweep/", 17) ? "a line of another schema"
							      : "a result row",
			 SR_PLAN_SCHEMA);
		return why;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) != p->n) {
		snprintf(why, wsz, "its unit is not %zu (units are numbered from 0, a line each)",
			 p->n);
		return why;
	}
	if (str_or_null(o, "trace", &trace) || !trace)
		return "its trace is missing or not a string";
	if (str_or_null(o, "machine_spec", &mspec) || str_or_null(o, "machine", &mname) ||
	    str_or_null(o, "machine_hash", &mhash) || !mspec != !mname || !mname != !mhash)
		return "its machine_spec, machine and machine_hash are not three strings, nor "
		       "three nulls";
	/* A plan written before machine_source: a machine given is -m's. */
	if (!json_object_get(o, "machine_source"))
		msrc = mspec ? SR_MSRC_OPTION : NULL;
	else if (str_or_null(o, "machine_source", &msrc) || !msrc != !mspec ||
		 (msrc && strcmp(msrc, SR_MSRC_OPTION) && strcmp(msrc, SR_MSRC_BESIDE)))
		return "its machine_source is not \"" SR_MSRC_OPTION "\" nor \"" SR_MSRC_BESIDE
		       "\" with a machine_spec, nor null without";
	if (!json_is_array(pv) || !json_array_size(pv))
		return "its policies are not a list of policies";
	np = json_array_size(pv);
	if (str_or_null(o, "baseline_spec", &bspec) || !bspec)
		return "its baseline_spec is missing or not a string";
	for (i = 0; i < SR_ID_COUNT; i++) {
		run[i] = NULL;
		/* A plan written before a field added since: what such plans
		 * had (null, or noise "0": none). */
		if (sr_id_fields[i].added && !json_object_get(o, sr_id_fields[i].name)) {
			run[i] = sr_id_fields[i].absent;
			continue;
		}
		if (sr_id_fields[i].scope == SR_IDS_RUN &&
		    sr_id_from_json(json_object_get(o, sr_id_fields[i].name), sr_id_fields[i].kind,
				    num[i], &run[i])) {
			snprintf(why, wsz, "its %s is missing or not of its kind", sr_id_fields[i].name);
			return why;
		}
	}
	for (k = 0; k < np; k++) {
		json_t *e = json_array_get(pv, k);
		const char *sp, *pn, *ph;
		char *rs;
		int same;

		if (!json_is_object(e) || str_or_null(e, "spec", &sp) || !sp ||
		    str_or_null(e, "policy", &pn) || !pn || str_or_null(e, "policy_hash", &ph)) {
			snprintf(why, wsz, "policies[%zu] is not a policy ({\"spec\": STRING, "
				 "\"policy\": STRING, \"policy_hash\": STRING or null})", k);
			return why;
		}
		if (!p->n)
			continue;
		/* Lines after the first: the same as the first's. */
		rs = policy_path(sp, dir, NULL, 0);
		same = rs && k < p->np && !strcmp(rs, p->spec[k]);
		free(rs);
		if (!same || np != p->np || !sr_id_eq(pn, p->pname[k]) || !sr_id_eq(ph, p->phash[k])) {
			snprintf(why, wsz, "its policies differ from line %" PRIu64 "'s: a plan is one "
				 "sweep", first);
			return why;
		}
	}
	if (p->n) {
		char diff[200], *rb = policy_path(bspec, dir, NULL, 0);
		struct sr_ident a, b;
		int same = rb && !strcmp(rb, p->baseline);

		free(rb);
		if (!same) {
			snprintf(why, wsz, "its baseline_spec differs from line %" PRIu64 "'s: a plan is "
				 "one sweep", first);
			return why;
		}
		for (i = 0; i < SR_ID_COUNT; i++) {
			a.v[i] = run[i];
			b.v[i] = p->run_v[i];
		}
		if (sr_ident_diff(&a, &b, SR_IDS_RUN, 0, diff, sizeof(diff))) {
			snprintf(why, wsz, "its options differ from line %" PRIu64 "'s (%s): a plan is "
				 "one sweep", first, diff);
			return why;
		}
	} else {
		/* The first line: the policies and the options of every unit. */
		p->spec = calloc(np, sizeof(*p->spec));
		p->pname = calloc(np, sizeof(*p->pname));
		p->phash = calloc(np, sizeof(*p->phash));
		if (!p->spec || !p->pname || !p->phash)
			return "";
		for (k = 0; k < np; k++) {
			json_t *e = json_array_get(pv, k);
			const char *ph;

			str_or_null(e, "policy_hash", &ph);
			p->spec[k] = policy_path(json_string_value(json_object_get(e, "spec")), dir,
						 NULL, 0);
			p->pname[k] = dup_or_null(json_string_value(json_object_get(e, "policy")), &nomem);
			p->phash[k] = dup_or_null(ph, &nomem);
			nomem |= !p->spec[k];
			p->np = k + 1;
		}
		p->baseline = policy_path(bspec, dir, NULL, 0);
		nomem |= !p->baseline;
		for (i = 0; i < SR_ID_COUNT; i++)
			p->run_v[i] = dup_or_null(run[i], &nomem);
		if (nomem)
			return "";
		for (k = 0; k < np && strcmp(p->spec[k], p->baseline); k++)
			;
		if (k == np)
			return "its baseline_spec is not one of its policies";
		p->slots_cache = !sr_id_eq(run[SR_ID_SLOTS], "off");
		/* A plan written before the plug was modelled has none: on. */
		p->plug = !sr_id_eq(run[SR_ID_PLUG], "off");
		p->kernel_recorded = sr_id_eq(run[SR_ID_KERNEL], SR_KERNEL_RECORDED);
		if (!run[SR_ID_KERNEL] ||
		    sr_kernel_parse(p->kernel_recorded ? SR_KERNEL_DEFAULT : run[SR_ID_KERNEL],
				    &p->kernel, NULL))
			return "its kernel is not a kernel version such as 6.6, nor recorded";
		if (!run[SR_ID_RA] || sr_readahead_parse(run[SR_ID_RA], &p->ra, NULL))
			return "its readahead is not as sr_readahead_format() writes it (auto;page-cluster=3;...)";
		/* A plan written before --node-map has none (null). */
		memset(&p->node_map, 0, sizeof(p->node_map));
		if (run[SR_ID_NODE_MAP] && sr_node_map_parse(run[SR_ID_NODE_MAP], &p->node_map, NULL))
			return "its node_map is not as --node-map takes it (R:M,... or fold)";
		if (!run[SR_ID_INFMT] || sr_format_parse(run[SR_ID_INFMT], &p->infmt))
			return "its input_format is not one of auto, csv, jsonl, swt, vmstat";
		if (!run[SR_ID_MAXERR] || sr_parse_u64(run[SR_ID_MAXERR], strlen(run[SR_ID_MAXERR]),
							  INT64_MAX, &p->max_errors))
			return "its max_errors is not a whole number";
		{
			uint64_t n = 0, r = SR_SWEEP_UNC_RANGE;

			if (!run[SR_ID_UNC] || sr_parse_u64(run[SR_ID_UNC], strlen(run[SR_ID_UNC]),
							    SR_SWEEP_MAX_VARIANTS, &n) ||
			    (run[SR_ID_UNC_RANGE] && (sr_parse_u64(run[SR_ID_UNC_RANGE],
								   strlen(run[SR_ID_UNC_RANGE]), 400, &r) ||
						      !r)) || !n != !run[SR_ID_UNC_RANGE])
				return "its uncertainty is not 0 to 200 variants with an "
				       "uncertainty_range of 1 to 400, or 0 with null";
			p->unc = (unsigned)n;
			p->unc_range = (unsigned)r;
		}
		{
			uint64_t n = 0, j = (uint64_t)SR_NOISE_JITTER_NS;
			const char *nv = run[SR_ID_NOISE], *jv = run[SR_ID_NOISE_JITTER];

			if (!nv || (strcmp(nv, "auto") &&
				    sr_parse_u64(nv, strlen(nv), SR_REPLAY_MAX_NOISE, &n)) ||
			    (jv && (sr_parse_u64(jv, strlen(jv), 1000000000, &j) || !j)) ||
			    !strcmp(nv, "0") != !jv)
				return "its noise is not auto or 0 to 64 replicas with a noise_jitter_ns "
				       "of 1 to 10^9, or 0 with null";
			p->noise = strcmp(nv, "auto") ? (int)n : SR_SWEEP_NOISE_AUTO;
			p->noise_jitter = (unsigned)j;
		}
	}
	if (p->n == p->cap && sr_grow((void **)&p->u, &p->cap, p->n + 1, sizeof(*p->u), 64))
		return "";
	pu = &p->u[p->n];
	memset(pu, 0, sizeof(*pu));
	pu->trace = strdup(trace);
	pu->trace_path = resolved_path(dir, trace);
	/* A machine file is a spec with a "/" (a preset's name has none). */
	pu->mspec = mspec && strchr(mspec, '/') ? resolved_path(dir, mspec)
						: dup_or_null(mspec, &nomem);
	pu->mname = dup_or_null(mname, &nomem);
	pu->mhash = dup_or_null(mhash, &nomem);
	pu->msrc = dup_or_null(msrc, &nomem);
	pu->mstored = dup_or_null(mspec && strchr(mspec, '/') ? mspec : NULL, &nomem);
	p->n++;
	if (nomem || !pu->trace || !pu->trace_path || (mspec && !pu->mspec))
		return "";
	return NULL;
}

enum sr_err sr_plan_read(struct sr_plan *p, const char *path, struct sr_diag *d)
{
	struct stat st;
	FILE *f = fopen(path, "r");
	char *line = NULL, *dir = dir_of(path), why[300];
	size_t cap = 0;
	uint64_t lineno = 0, first = 0;
	ssize_t n;
	enum sr_err rc = SR_OK;

	memset(p, 0, sizeof(*p));
	if (!f || !dir) {
		int e = errno;

		if (f)
			fclose(f);
		free(dir);
		sr_diag_file(d, path);
		return sr_diag_set(d, f ? SR_ERR_NOMEM : SR_ERR_IO, "cannot open the plan: %s",
				   strerror(e));
	}
	/* A device would be read for ever (/dev/zero has no newline). */
	if (fstat(fileno(f), &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		sr_diag_file(d, path);
		rc = sr_diag_set(d, SR_ERR_IO, "the plan is not a regular file nor a pipe");
		goto out;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		json_error_t je;
		json_t *o;
		const char *bad;
		ssize_t k;

		lineno++;
		for (k = 0; k < n && strchr(" \t\r\n", line[k]); k++)
			;
		if (k == n)
			continue; /* a blank line (a trailing one, typically) */
		o = json_loadb(line, (size_t)n, 0, &je);
		bad = json_is_object(o) ? plan_line(p, o, dir, first, why, sizeof(why))
					: "not a line of a sweep plan";
		json_decref(o);
		if (bad && !*bad) {
			rc = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			goto out;
		}
		if (bad) {
			sr_diag_file(d, path);
			d->line = lineno;
			rc = sr_diag_set(d, SR_ERR_FORMAT, "%s", bad);
			goto out;
		}
		if (!first)
			first = lineno;
	}
	if (ferror(f)) {
		sr_diag_file(d, path);
		rc = sr_diag_set(d, SR_ERR_IO, "read failed: %s", strerror(errno));
	} else if (!p->n) {
		sr_diag_file(d, path);
		rc = sr_diag_set(d, SR_ERR_FORMAT, "an empty plan");
	}
out:
	free(line);
	free(dir);
	fclose(f);
	if (rc)
		sr_plan_free(p);
	return rc;
}

enum sr_err sr_sweep_open_plan(struct sr_sweep **out, const char *path,
			       const struct sr_sweep_opts *opts, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	struct sr_ident a, b;
	struct sr_sweep *s;
	char diff[300];
	enum sr_err err;
	size_t u, k;
	int i;

	*out = NULL;
	sr_diag_clear(d);
	s = sr_sweep_alloc(opts);
	if (!s)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = sr_plan_read(&s->plan, path, d);
	if (err)
		goto fail;
	if (s->plan.np > SR_MAX_POLICIES) {
		err = sr_diag_set(d, SR_ERR_LIMIT, "at most %d policies", SR_MAX_POLICIES);
		goto fail;
	}
	s->from_plan = 1;
	s->nunits = s->plan.n;
	s->slots_cache = s->plan.slots_cache;
	s->plug = s->plan.plug;
	s->kernel = s->plan.kernel;
	s->kernel_recorded = s->plan.kernel_recorded;
	s->ra = s->plan.ra;
	s->node_map = s->plan.node_map;
	s->ro.format = s->plan.infmt;
	s->ro.max_errors = s->plan.max_errors;
	s->unc = s->plan.unc;
	s->unc_range = s->plan.unc_range;
	s->noise = s->plan.noise;
	s->noise_jitter = s->plan.noise_jitter;
	s->pname = calloc(s->plan.np, sizeof(*s->pname));
	s->phash = calloc(s->plan.np, sizeof(*s->phash));
	s->baseline = strdup(s->plan.baseline);
	if (!s->pname || !s->phash || !s->baseline)
		goto nomem;
	for (u = 0; u < s->plan.n; u++)
		if (sr_strs_add(&s->traces, s->plan.u[u].trace_path, strlen(s->plan.u[u].trace_path)) ||
		    sr_strs_add(&s->names, s->plan.u[u].trace, strlen(s->plan.u[u].trace)))
			goto nomem;
	for (k = 0; k < s->plan.np; k++) {
		if (sr_strs_add(&s->policies, s->plan.spec[k], strlen(s->plan.spec[k])))
			goto nomem;
		s->pname[k] = s->plan.pname[k];
		s->phash[k] = s->plan.phash[k];
		if (!strcmp(s->plan.spec[k], s->baseline))
			s->bl = k;
	}
	/* What this swapreplay sweeps with must be what the plan says: its
	 * rows would otherwise not be the plan's (another version, say). */
	if (sr_ident_run(s))
		goto nomem;
	for (i = 0; i < SR_ID_COUNT; i++) {
		a.v[i] = s->plan.run_v[i];
		b.v[i] = s->run_v[i];
	}
	if (sr_ident_diff(&a, &b, SR_IDS_RUN, 0, diff, sizeof(diff))) {
		sr_diag_file(d, path);
		err = sr_diag_set(d, SR_ERR_FORMAT, "the plan's options are not what this swapreplay "
				  "sweeps with (%s): write the plan again with this one", diff);
		goto fail;
	}
	*out = s;
	return SR_OK;
nomem:
	err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
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
