/* SPDX-License-Identifier: MIT */
/*
 * Two replay reports compared (include/swapreplay/compare.h): each read
 * back from its JSON (swapreplay-report/1, written by src/report/report.c)
 * into the figures compared, its policies matched by name to the other's
 * and, within a policy, its devices by name; then the comparison written
 * as text (aligned columns within 76 characters, plain text for a mailing
 * list), JSON or CSV.  docs/REPORT.md, "Comparing two reports", describes
 * the three.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/filekind.h"
#include "common/diag.h"
#include "trace/source.h"
#include "swapreplay/compare.h"
#include "swapreplay/machine.h"
#include "swapreplay/kernel.h"
#include "swapreplay/result.h"
#include "swapreplay/report.h"
#include "swapreplay/version.h"

#define REPORT_SCHEMA "swapreplay-report/1"
#define COMPARE_SCHEMA "swapreplay-compare/1"
/*
 * What one report may cost to read: its text, decompressed, at most
 * MAX_BYTES, and at most MAX_VALUES JSON values (objects, arrays,
 * strings, numbers, true, false, null; a member's name is not one).
 * jansson holds an empty object in about 230 bytes, its costliest value,
 * so a report takes at most about 250 MB to hold.  A replay report of
 * SR_MAX_POLICIES policies on SR_MACHINE_MAX_DEVICES devices has a
 * quarter of MAX_VALUES; --per-task adds 9 values a task and policy.
 */
#define MAX_BYTES (64u << 20)
#define MAX_VALUES (1u << 20)
#define WIDTH 76

enum sr_err sr_compare_fmt_parse(const char *s, enum sr_compare_fmt *out)
{
	if (!strcmp(s, "text"))
		*out = SR_COMPARE_TEXT;
	else if (!strcmp(s, "json"))
		*out = SR_COMPARE_JSON;
	else if (!strcmp(s, "csv"))
		*out = SR_COMPARE_CSV;
	else
		return SR_ERR_INVAL;
	return SR_OK;
}

/* ---- the figures compared ------------------------------------------------ */

/* How a figure's change is given: after / before - 1 in per cent, or (a
 * delta, itself a per cent) after - before in points; or not at all (a
 * count: how many variants of the machine, how many agree). */
enum chg { REL, PT, NOCHG };

struct figdef {
	const char *obj;  /* the report's object holding it, NULL: the policy (device) */
	const char *key;  /* its name there, and in the comparison's JSON */
	const char *csv;  /* the comparison CSV's name of it */
	int group;        /* its text section, -1: none (the header says it) */
	const char *row;  /* text: what follows the policy's name, or NULL */
	double mul, div;  /* text: from the report's unit to the section's, x mul / div */
	int dec;          /* text: the decimals of a value */
	int sign;         /* text: a value with its sign (a delta) */
	enum chg chg;
	double res;       /* the report's precision: the unit of the last decimal
			   * it writes (a before under half of it is a 0) */
	int of;           /* text: the figure this one is a count out of ("3/4"),
			   * -1: none */
};

/* A policy's figures, in the order they are written. */
enum { F_TPUT, F_TOUT, F_TIN, F_MAKESPAN, F_DELTA, F_U_VARIANTS, F_U_RANGE, F_U_MIN, F_U_MAX,
       F_U_AGREE, F_MEAN, F_P50, F_P90, F_P99, F_MAX, NF };

/* The report's "uncertainty" (--uncertainty=N): over N variants of the
 * machine, each figure within a factor 1 + range_pct / 100, the delta's
 * least and most, and how many variants agree on its side. */
#define UNC "uncertainty"

static const struct figdef pfig[NF] = {
	{ NULL, "throughput_kib_s", "throughput_kib_s", 0, NULL, 1, 1, 1, 0, REL, 0.1, -1 },
	{ NULL, "task_swapout_kib_s_sum", "task_swapout_kib_s_sum", 1, NULL, 1, 1, 1, 0, REL, 0.1,
	  -1 },
	{ NULL, "task_swapin_kib_s_sum", "task_swapin_kib_s_sum", 2, NULL, 1, 1, 1, 0, REL, 0.1,
	  -1 },
	{ NULL, "makespan_ns", "makespan_ns", 3, NULL, 1, 1e6, 3, 0, REL, 1, -1 },
	{ NULL, "delta_pct", "delta_pct", 4, NULL, 1, 1, 2, 1, PT, 0.001, -1 },
	{ UNC, "variants", "uncertainty_variants", -1, NULL, 1, 1, 0, 0, NOCHG, 1, -1 },
	{ UNC, "range_pct", "uncertainty_range_pct", -1, NULL, 1, 1, 0, 0, NOCHG, 1, -1 },
	{ UNC, "delta_pct_min", "delta_pct_min", 5, "min", 1, 1, 2, 1, PT, 0.001, -1 },
	{ UNC, "delta_pct_max", "delta_pct_max", 5, "max", 1, 1, 2, 1, PT, 0.001, -1 },
	{ UNC, "agree", "agree", 5, "agree", 1, 1, 0, 0, NOCHG, 1, F_U_VARIANTS },
	{ "swapin_lat_ns", "mean", "swapin_mean_ns", 6, "mean", 1, 1e3, 1, 0, REL, 1, -1 },
	{ "swapin_lat_ns", "p50", "swapin_p50_ns", 6, "p50", 1, 1e3, 1, 0, REL, 1, -1 },
	{ "swapin_lat_ns", "p90", "swapin_p90_ns", 6, "p90", 1, 1e3, 1, 0, REL, 1, -1 },
	{ "swapin_lat_ns", "p99", "swapin_p99_ns", 6, "p99", 1, 1e3, 1, 0, REL, 1, -1 },
	{ "swapin_lat_ns", "max", "swapin_max_ns", 6, "max", 1, 1e3, 1, 0, REL, 1, -1 },
};

/* A device's. */
enum { D_UTIL, D_QUEUE, ND };

static const struct figdef dfig[ND] = {
	{ NULL, "utilization", "utilization", 7, NULL, 100, 1, 2, 0, REL, 0.0001, -1 },
	{ "block", "queue_share", "queue_share", 8, NULL, 100, 1, 2, 0, REL, 0.0001, -1 },
};

/* The text sections, by group. */
static const char *const titles[] = {
	"Throughput (swap-out and swap-in), KiB/s",
	"Tasks' swap-out throughputs summed (--per-task), KiB/s",
	"Tasks' swap-in throughputs summed (--per-task), KiB/s",
	"Makespan (simulated time), ms",
	"Delta against the report's baseline, % (change in points)",
	"Delta's range over the machine's variants, % (change in points)",
	"Swap-in latency, us",
	"Device utilisation, % of the simulated time",
	"Device requests' time queued (nvme, ssd, hdd), % of their time",
};
#define NGROUPS ((int)(sizeof(titles) / sizeof(titles[0])))

struct val {
	double v;
	int has;
};

struct dev {
	char *name;
	struct val f[ND];
};

struct pol {
	char *name;
	struct val f[NF];
	struct dev *dev;
	size_t ndev;
};

struct sr_compare_report {
	char *file;               /* as named */
	char *path;               /* the trace's, NULL: not given */
	uint64_t events, tasks;
	char *machine, *origin, *kernel, *readahead, *baseline; /* NULL: not given */
	int slots, plug;          /* 1, 0, or -1: not given */
	char *warnings;           /* its caveats that are warnings (swap full...),
				   * "; " between; NULL: none (or a report of
				   * before the caveats) */
	struct pol *pol;
	size_t npol;
};

void sr_compare_report_free(struct sr_compare_report *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->npol; i++) {
		for (j = 0; j < r->pol[i].ndev; j++)
			free(r->pol[i].dev[j].name);
		free(r->pol[i].dev);
		free(r->pol[i].name);
	}
	free(r->pol);
	free(r->file);
	free(r->path);
	free(r->machine);
	free(r->origin);
	free(r->kernel);
	free(r->readahead);
	free(r->baseline);
	free(r->warnings);
	free(r);
}

const char *sr_compare_baseline(const struct sr_compare_report *r)
{
	return r->baseline ? r->baseline : "";
}

/* ---- reading a report ---------------------------------------------------- */

/* The whole of path, decompressed, NUL-terminated. */
static enum sr_err slurp(const char *path, char **out, size_t *outlen, struct sr_diag *d)
{
	struct sr_src *s = NULL;
	const unsigned char *p;
	size_t n, len = 0, cap = 0;
	char *buf = NULL, *nb;
	enum sr_err err = sr_src_open(&s, path, d);

	while (!err) {
		err = sr_src_peek(s, 1 << 16, &p, &n, d);
		if (err || !n)
			break;
		if (len + n > MAX_BYTES) {
			sr_diag_file(d, path);
			err = sr_diag_set(d, SR_ERR_LIMIT, "refused at %u MiB (decompressed): a replay "
					  "report is smaller", MAX_BYTES >> 20);
			break;
		}
		if (len + n + 1 > cap) {
			cap = 2 * (len + n) + 1;
			if (cap > MAX_BYTES + 1)
				cap = MAX_BYTES + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
				break;
			}
			buf = nb;
		}
		memcpy(buf + len, p, n);
		len += n;
		sr_src_skip(s, n);
	}
	sr_src_close(s);
	if (err) {
		free(buf);
		return err;
	}
	if (!buf && !(buf = malloc(1)))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return SR_OK;
}

/*
 * The JSON values of buf[0..len), counted until there are more than max:
 * how many, and in *at where the count stopped (len when it did not).
 * Not a parser: a text that is no JSON is counted roughly, and jansson
 * says what is wrong with it.
 */
static size_t count_values(const char *buf, size_t len, size_t max, size_t *at)
{
	size_t n = 0, i = 0, j;
	int word = 0;

	while (i < len && n <= max) {
		unsigned char ch = (unsigned char)buf[i];

		if (ch == '"') {
			for (j = i + 1; j < len && buf[j] != '"'; j += buf[j] == '\\' ? 2 : 1)
				;
			i = j + 1;
			/* A member's name when a ':' follows. */
			for (j = i; j < len && strchr(" \t\r\n", buf[j]); j++)
				;
			n += !(j < len && buf[j] == ':');
			word = 0;
			continue;
		}
		if (ch == '{' || ch == '[') {
			n++;
			word = 0;
		} else if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
			   (ch >= 'A' && ch <= 'Z') || ch == '-' || ch == '+' || ch == '.') {
			n += !word; /* a number or a literal: one a run */
			word = 1;
		} else {
			word = 0;
		}
		i++;
	}
	*at = i < len ? i : len;
	return n;
}

/* What the JSON object o is when it is another of swapreplay's files
 * (the kinds sweep's inputs skip), NULL otherwise. */
static const char *other_kind(const json_t *o)
{
	switch (sr_json_file_kind(o)) {
	case SR_KIND_SWEEP: return "a sweep's result row (swapreplay sweep)";
	case SR_KIND_PLAN: return "a sweep plan";
	case SR_KIND_COMPARE: return "a comparison (swapreplay compare -f json)";
	case SR_KIND_MACHINE: return "a machine description";
	default: return NULL; /* a report is check_schema()'s */
	}
}

/* The reading of one report: where in it, for the messages. */
struct rd {
	struct sr_diag *d;
	const char *file;
	char where[160];  /* "policies[2] (hybrid): " */
	int nomem;
};

static int bad(struct rd *c, const char *what, const char *key, const char *kind)
{
	sr_diag_file(c->d, c->file);
	sr_diag_set(c->d, SR_ERR_FORMAT, "%s%s%s is %s", c->where, what, key, kind);
	return -1;
}

/* o's member key, a number, into *v when there (null: not there). */
static int get_num(struct rd *c, const json_t *o, const char *pre, const char *key, struct val *v)
{
	const json_t *x = json_object_get(o, key);

	if (!x || json_is_null(x))
		return 0;
	if (!json_is_number(x))
		return bad(c, pre, key, "not a number");
	v->v = json_number_value(x);
	v->has = 1;
	return 0;
}

/* o's member key, a string, copied into *s when there. */
static int get_str(struct rd *c, const json_t *o, const char *pre, const char *key, char **s)
{
	const json_t *x = json_object_get(o, key);

	if (!x || json_is_null(x))
		return 0;
	if (!json_is_string(x))
		return bad(c, pre, key, "not a string");
	*s = strdup(json_string_value(x));
	if (!*s) {
		c->nomem = 1;
		return -1;
	}
	return 0;
}

/* The report's caveats that are warnings (docs/REPORT.md, "Caveats":
 * most events not replayed, swap full, unmatched swap-ins, stale
 * requests), their texts joined into *out; none: left NULL. */
static int get_warnings(struct rd *c, const json_t *root, char **out)
{
	const json_t *a = json_object_get(root, "caveats"), *x;
	size_t i, len = 0;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return bad(c, "", "caveats", "not an array");
	json_array_foreach(a, i, x) {
		const json_t *w = json_object_get(x, "warning"), *t = json_object_get(x, "text");
		size_t tl;
		char *n;

		if (!json_is_object(x) || !json_is_boolean(w) || !json_is_string(t))
			return bad(c, "", "caveats", "not of objects {kind, warning, text}");
		if (!json_is_true(w))
			continue;
		tl = strlen(json_string_value(t));
		n = realloc(*out, len + tl + 3);
		if (!n) {
			c->nomem = 1;
			return -1;
		}
		*out = n;
		len += (size_t)sprintf(n + len, "%s%s", len ? "; " : "", json_string_value(t));
	}
	return 0;
}

/* o's member key, a boolean, into *b (1, 0; left when not there). */
static int get_bool(struct rd *c, const json_t *o, const char *pre, const char *key, int *b)
{
	const json_t *x = json_object_get(o, key);

	if (!x || json_is_null(x))
		return 0;
	if (!json_is_boolean(x))
		return bad(c, pre, key, "not true or false");
	*b = json_is_true(x);
	return 0;
}

/* o's member key, an object, into *m (NULL when not there). */
static int get_obj(struct rd *c, const json_t *o, const char *pre, const char *key,
		   const json_t **m)
{
	const json_t *x = json_object_get(o, key);

	*m = NULL;
	if (!x || json_is_null(x))
		return 0;
	if (!json_is_object(x))
		return bad(c, pre, key, "not an object");
	*m = x;
	return 0;
}

/* The figures of fig[0..n) from the object o (a policy or a device). */
static int get_figs(struct rd *c, const json_t *o, const struct figdef *fig, int n, struct val *v)
{
	const json_t *m;
	char pre[64];
	int i;

	for (i = 0; i < n; i++) {
		if (!fig[i].obj) {
			if (get_num(c, o, "", fig[i].key, &v[i]))
				return -1;
			continue;
		}
		if (get_obj(c, o, "", fig[i].obj, &m))
			return -1;
		snprintf(pre, sizeof(pre), "%s.", fig[i].obj);
		if (m && get_num(c, m, pre, fig[i].key, &v[i]))
			return -1;
	}
	return 0;
}

/* Element pre of a report's array: an object with a string "name", whose
 * copy goes to *name; 0, or -1 (said, or out of memory). */
static int get_named(struct rd *c, const json_t *x, const char *pre, char **name)
{
	if (!json_is_object(x))
		return bad(c, "", pre, "not an object");
	if (!json_is_string(json_object_get(x, "name")))
		return bad(c, pre, ".name", "missing or not a string");
	*name = strdup(json_string_value(json_object_get(x, "name")));
	if (!*name) {
		c->nomem = 1;
		return -1;
	}
	return 0;
}

/* The first of the n names before name's (each a struct's member, stride
 * bytes apart from the next) that is the same as name, or NONE. */
#define NONE ((size_t)-1)

static size_t same_name(const char *name, char *const *names, size_t n, size_t stride)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, *(char *const *)((const char *)names + i * stride)))
			return i;
	return NONE;
}

static int get_devices(struct rd *c, const json_t *o, struct pol *p)
{
	const json_t *a = json_object_get(o, "devices");
	char pre[48];
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return bad(c, "", "devices", "not an array");
	if (json_array_size(a) > SR_MACHINE_MAX_DEVICES) {
		sr_diag_file(c->d, c->file);
		sr_diag_set(c->d, SR_ERR_LIMIT, "%sdevices: %zu of them, more than a machine has "
			    "(%d)", c->where, json_array_size(a), SR_MACHINE_MAX_DEVICES);
		return -1;
	}
	p->dev = calloc(json_array_size(a) + 1, sizeof(*p->dev));
	if (!p->dev) {
		c->nomem = 1;
		return -1;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *x = json_array_get(a, i);
		struct dev *dv = &p->dev[p->ndev];
		size_t at;

		snprintf(pre, sizeof(pre), "devices[%zu]", i);
		if (get_named(c, x, pre, &dv->name))
			return -1;
		p->ndev++;
		at = same_name(dv->name, &p->dev->name, p->ndev - 1, sizeof(*p->dev));
		if (at != NONE) {
			sr_diag_file(c->d, c->file);
			sr_diag_set(c->d, SR_ERR_FORMAT, "%s%s names the device %.60s, as devices[%zu] "
				    "does: a policy's devices are matched by name, each named once",
				    c->where, pre, dv->name, at);
			return -1;
		}
		at = strlen(c->where);
		snprintf(c->where + at, sizeof(c->where) - at, "%s (%s): ", pre, dv->name);
		if (get_figs(c, x, dfig, ND, dv->f))
			return -1;
		c->where[at] = '\0';
	}
	return 0;
}

static int get_policies(struct rd *c, const json_t *root, struct sr_compare_report *r)
{
	const json_t *a = json_object_get(root, "policies");
	size_t i;

	if (!json_is_array(a))
		return bad(c, "", "policies", a ? "not an array" : "missing");
	if (json_array_size(a) > SR_MAX_POLICIES) {
		sr_diag_file(c->d, c->file);
		sr_diag_set(c->d, SR_ERR_LIMIT, "policies: %zu of them, more than a replay has (%d)",
			    json_array_size(a), SR_MAX_POLICIES);
		return -1;
	}
	r->pol = calloc(json_array_size(a) + 1, sizeof(*r->pol));
	if (!r->pol) {
		c->nomem = 1;
		return -1;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *x = json_array_get(a, i);
		struct pol *p = &r->pol[r->npol];
		char pre[48];
		size_t at;

		snprintf(pre, sizeof(pre), "policies[%zu]", i);
		if (get_named(c, x, pre, &p->name))
			return -1;
		r->npol++;
		at = same_name(p->name, &r->pol->name, r->npol - 1, sizeof(*r->pol));
		if (at != NONE) {
			sr_diag_file(c->d, c->file);
			sr_diag_set(c->d, SR_ERR_FORMAT, "%s names the policy %.60s, as policies[%zu] "
				    "does: policies are matched by name, and a replay report names each "
				    "once", pre, p->name, at);
			return -1;
		}
		snprintf(c->where, sizeof(c->where), "%s (%.60s): ", pre, p->name);
		if (get_figs(c, x, pfig, NF, p->f) || get_devices(c, x, p))
			return -1;
	}
	c->where[0] = '\0';
	return 0;
}

/* trace.events or trace.tasks: a whole number, required. */
static int get_count(struct rd *c, const json_t *t, const char *key, uint64_t *v)
{
	const json_t *x = json_object_get(t, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return bad(c, "trace.", key, x ? "not a whole number" : "missing");
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

/* root's schema: 0 for a report of REPORT_SCHEMA, else -1 with why. */
static int check_schema(struct rd *c, const json_t *root)
{
	const json_t *sch = json_object_get(root, "schema");
	const char *what = other_kind(root);

	sr_diag_file(c->d, c->file);
	if (json_is_string(sch) && !strcmp(json_string_value(sch), REPORT_SCHEMA))
		return 0;
	if (json_is_string(sch) && !strncmp(json_string_value(sch), "swapreplay-report/", 18))
		sr_diag_set(c->d, SR_ERR_FORMAT, "a replay report of schema %.40s; this swapreplay "
			    "reads %s", json_string_value(sch), REPORT_SCHEMA);
	else if (what)
		sr_diag_set(c->d, SR_ERR_FORMAT, "%s, not a replay report (swapreplay replay -f json "
			    "writes one)", what);
	else if (json_is_string(sch))
		sr_diag_set(c->d, SR_ERR_FORMAT, "its schema is \"%.60s\": not a replay report (%s)",
			    json_string_value(sch), REPORT_SCHEMA);
	else
		sr_diag_set(c->d, SR_ERR_FORMAT, "no \"schema\": not a replay report (swapreplay "
			    "replay -f json writes one, schema %s)", REPORT_SCHEMA);
	return -1;
}

enum sr_err sr_compare_report_read(struct sr_compare_report **out, const char *path,
				   struct sr_diag *diag)
{
	struct sr_diag local, *d = diag ? diag : &local;
	struct sr_compare_report *r;
	struct rd c;
	json_error_t je;
	json_t *root;
	const json_t *t, *m, *o;
	char *buf = NULL;
	size_t len = 0, nval, at;
	enum sr_err err;

	*out = NULL;
	sr_diag_clear(d);
	err = slurp(path, &buf, &len, d);
	if (err)
		return err;
	if (!len) {
		free(buf);
		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_FORMAT, "empty: not a replay report (swapreplay replay "
				   "-f json writes one)");
	}
	nval = count_values(buf, len, MAX_VALUES, &at);
	root = nval > MAX_VALUES ? NULL : json_loadb(buf, len, 0, &je);
	if (!root) {
		/* Its first value alone: a line of another of swapreplay's
		 * files?  Of a file refused for its size, its first line. */
		json_error_t je2;
		const char *nl = nval > MAX_VALUES ? memchr(buf, '\n', at) : NULL;
		json_t *first = json_loadb(buf, nval <= MAX_VALUES ? len : nl ? (size_t)(nl - buf) : 0,
					   JSON_DISABLE_EOF_CHECK, &je2);
		const char *what = json_is_object(first) ? other_kind(first) : NULL;

		sr_diag_file(d, path);
		if (what) {
			err = sr_diag_set(d, SR_ERR_FORMAT, "%s, not a replay report (swapreplay "
					  "replay -f json writes one)", what);
		} else if (nval > MAX_VALUES) {
			err = sr_diag_set(d, SR_ERR_LIMIT, "refused at byte %zu: more than %u JSON "
					  "values (objects, arrays, numbers, strings), far more than a "
					  "replay report has", at, MAX_VALUES);
		} else if (json_error_code(&je) == json_error_out_of_memory ||
			   (je.line < 0 && !je.text[0])) {
			/* jansson 2.14 gives no reason and no place when out of
			 * memory */
			err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory reading its JSON (%zu "
					  "values, %zu bytes)", nval, len);
		} else if (je.line > 0 && je.column > 0) {
			d->line = (uint64_t)je.line;
			err = sr_diag_set(d, SR_ERR_FORMAT, "not JSON (column %d: %s): not a replay "
					  "report (swapreplay replay -f json writes one)", je.column,
					  je.text);
		} else {
			err = sr_diag_set(d, SR_ERR_FORMAT, "not JSON (%s): not a replay report "
					  "(swapreplay replay -f json writes one)", je.text);
		}
		json_decref(first);
		free(buf);
		return err;
	}
	free(buf);
	memset(&c, 0, sizeof(c));
	c.d = d;
	c.file = path;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->file = strdup(path))) {
		free(r);
		json_decref(root);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	r->slots = r->plug = -1;
	if (!json_is_object(root)) {
		sr_diag_file(d, path);
		sr_diag_set(d, SR_ERR_FORMAT, "not a replay report: its JSON is not an object");
		goto fail;
	}
	if (check_schema(&c, root))
		goto fail;
	if (get_obj(&c, root, "", "trace", &t))
		goto fail;
	if (!t) {
		bad(&c, "", "trace", "missing");
		goto fail;
	}
	if (get_count(&c, t, "events", &r->events) || get_count(&c, t, "tasks", &r->tasks) ||
	    get_str(&c, t, "trace.", "path", &r->path) || get_obj(&c, root, "", "machine", &m) ||
	    (m && (get_str(&c, m, "machine.", "name", &r->machine) ||
		   get_str(&c, m, "machine.", "origin", &r->origin))) ||
	    get_obj(&c, root, "", "options", &o) ||
	    (o && (get_bool(&c, o, "options.", "slots_cache", &r->slots) ||
		   get_str(&c, o, "options.", "kernel", &r->kernel) ||
		   get_str(&c, o, "options.", "readahead", &r->readahead) ||
		   get_bool(&c, o, "options.", "plug", &r->plug))) ||
	    get_str(&c, root, "", "baseline", &r->baseline) || get_policies(&c, root, r) ||
	    get_warnings(&c, root, &r->warnings))
		goto fail;
	json_decref(root);
	*out = r;
	return SR_OK;
fail:
	json_decref(root);
	sr_compare_report_free(r);
	if (c.nomem)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	return d->code ? d->code : SR_ERR_FORMAT;
}

int sr_compare_trace_diff(const struct sr_compare_report *a, const struct sr_compare_report *b,
			  char *buf, size_t size)
{
	size_t len = 0;
	int n = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (a->events != b->events)
		len += (size_t)snprintf(buf + len, size - len, "events %" PRIu64 " and %" PRIu64,
					a->events, b->events), n++;
	if (a->tasks != b->tasks && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%stasks %" PRIu64 " and %" PRIu64,
					len ? ", " : "", a->tasks, b->tasks), n++;
	if (a->path && b->path && strcmp(a->path, b->path) && len < size)
		snprintf(buf + len, size - len, "%strace paths %s and %s", len ? ", " : "", a->path,
			 b->path);
	return n;
}

/* ---- the two matched ------------------------------------------------------- */

/* A policy (device) and its match: [0] before, [1] after; NULL: not in
 * that report. */
struct ppair {
	const struct pol *p[2];
};

struct dpair {
	const struct dev *d[2];
};

/* The names of two lists matched: for each of before's, in its order, the
 * first of after's of its name not taken yet (or none), then after's left.
 * Into pairs of indices, NONE for none; NULL out of memory. */

static size_t (*pair_up(char *const *n0, size_t len0, size_t stride0, char *const *n1,
			 size_t len1, size_t stride1, size_t *n))[2]
{
	size_t (*out)[2] = calloc(len0 + len1 + 1, sizeof(*out));
	unsigned char *used = calloc(len1 + 1, 1);
	size_t i, j, k = 0;

	if (!out || !used) {
		free(out);
		free(used);
		return NULL;
	}
	for (i = 0; i < len0; i++) {
		const char *x = *(char *const *)((const char *)n0 + i * stride0);

		out[k][0] = i;
		out[k][1] = NONE;
		for (j = 0; j < len1; j++)
			if (!used[j] && !strcmp(x, *(char *const *)((const char *)n1 + j * stride1))) {
				used[j] = 1;
				out[k][1] = j;
				break;
			}
		k++;
	}
	for (j = 0; j < len1; j++)
		if (!used[j]) {
			out[k][0] = NONE;
			out[k++][1] = j;
		}
	free(used);
	*n = k;
	return out;
}

static struct ppair *pair_policies(const struct sr_compare_report *b,
				   const struct sr_compare_report *a, size_t *n)
{
	size_t (*ix)[2] = pair_up(&b->pol->name, b->npol, sizeof(*b->pol), &a->pol->name, a->npol,
				  sizeof(*a->pol), n);
	struct ppair *pp = ix ? calloc(*n + 1, sizeof(*pp)) : NULL;
	size_t i;

	for (i = 0; pp && i < *n; i++) {
		pp[i].p[0] = ix[i][0] == NONE ? NULL : &b->pol[ix[i][0]];
		pp[i].p[1] = ix[i][1] == NONE ? NULL : &a->pol[ix[i][1]];
	}
	free(ix);
	return pp;
}

/* The devices of a pair of policies (either may be NULL). */
static struct dpair *pair_devices(const struct ppair *pp, size_t *n)
{
	const struct pol *b = pp->p[0], *a = pp->p[1];
	static char *const noname = NULL;
	size_t (*ix)[2] = pair_up(b && b->ndev ? &b->dev->name : &noname, b ? b->ndev : 0,
				  sizeof(struct dev), a && a->ndev ? &a->dev->name : &noname,
				  a ? a->ndev : 0, sizeof(struct dev), n);
	struct dpair *dp = ix ? calloc(*n + 1, sizeof(*dp)) : NULL;
	size_t i;

	for (i = 0; dp && i < *n; i++) {
		dp[i].d[0] = ix[i][0] == NONE ? NULL : &b->dev[ix[i][0]];
		dp[i].d[1] = ix[i][1] == NONE ? NULL : &a->dev[ix[i][1]];
	}
	free(ix);
	return dp;
}

/* Why a figure has no change. */
enum { CHG_OK = 0, CHG_MISSING = -1, CHG_NA = -2 };

/*
 * The change of figure fd from b to a into *c: CHG_OK; CHG_MISSING when
 * a report lacks the figure; CHG_NA when both have it but there is no
 * change to give: before is 0 as the report writes it (under half its
 * last decimal, fd->res) and after is not, or the change is no finite
 * number (values near the largest a double holds).
 */
static int change(const struct val *b, const struct val *a, const struct figdef *fd, double *c)
{
	if (!b->has || !a->has || fd->chg == NOCHG)
		return CHG_MISSING;
	if (fd->chg == PT)
		*c = a->v - b->v;
	else if (a->v == b->v)
		*c = 0;
	else if (fabs(b->v) < fd->res / 2)
		return CHG_NA;
	else
		*c = (a->v - b->v) / fabs(b->v) * 100;
	return isfinite(*c) ? CHG_OK : CHG_NA;
}

/* v rounded to digits decimals, without a minus sign on a zero; a value
 * too large to have decimals (a double's 15 to 17 digits are all before
 * the point) as it is. */
static double tidy(double v, int digits)
{
	double s = pow(10, digits), r;

	if (!(fabs(v) < 1e15))
		return v;
	r = round(v * s) / s;
	return r == 0 ? 0 : r;
}

static const struct val none;

static const struct val *pval(const struct ppair *pp, int side, int k)
{
	return pp->p[side] ? &pp->p[side]->f[k] : &none;
}

static const struct val *dval(const struct dpair *dp, int side, int k)
{
	return dp->d[side] ? &dp->d[side]->f[k] : &none;
}

static const char *in_of(const void *b, const void *a)
{
	return b && a ? "both" : b ? "before" : "after";
}

/* ---- JSON and CSV -------------------------------------------------------- */

/* v as the shortest decimal that reads back as v (406650, 0.3032). */
static void num(FILE *f, double v)
{
	char buf[40];
	int p;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		fprintf(f, "%.0f", v == 0 ? 0 : v);
		return;
	}
	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (p == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, f);
}

static void json_str(FILE *f, const char *s)
{
	if (s)
		sr_report_json_string(f, s);
	else
		fputs("null", f);
}

/* A change as JSON and CSV give it: 3 decimals (-2.458), or, too large
 * for decimals, the shortest decimal that reads back as it (2e+303). */
static void chg_num(FILE *f, double c)
{
	if (fabs(c) < 1e15)
		fprintf(f, "%.3f", tidy(c, 3));
	else
		num(f, c);
}

/* {"before": B, "after": A, "change_pct": C} (null for what is missing,
 * and for a change there is none of; a count has no change). */
static void json_fig(FILE *f, const struct figdef *fd, const struct val *b, const struct val *a)
{
	double c;

	fprintf(f, "\"%s\": {\"before\": ", fd->key);
	if (b->has)
		num(f, b->v);
	else
		fputs("null", f);
	fputs(", \"after\": ", f);
	if (a->has)
		num(f, a->v);
	else
		fputs("null", f);
	if (fd->chg == NOCHG) {
		fputc('}', f);
		return;
	}
	fprintf(f, ", \"%s\": ", fd->chg == PT ? "change_pt" : "change_pct");
	if (change(b, a, fd, &c))
		fputs("null", f);
	else
		chg_num(f, c);
	fputc('}', f);
}

/* The report's uncertainty, from its first policy that has one: 0 with
 * *variants and *range_pct (-1 when not given), or -1 when the report has
 * none (made without --uncertainty). */
static int unc_of(const struct sr_compare_report *r, double *variants, double *range_pct)
{
	size_t i;

	for (i = 0; i < r->npol; i++)
		if (r->pol[i].f[F_U_VARIANTS].has) {
			*variants = r->pol[i].f[F_U_VARIANTS].v;
			*range_pct = r->pol[i].f[F_U_RANGE].has ? r->pol[i].f[F_U_RANGE].v : -1;
			return 0;
		}
	return -1;
}

static void json_side(FILE *f, const char *name, const struct sr_compare_report *r)
{
	double var, range;

	fprintf(f, "  \"%s\": {\"file\": ", name);
	json_str(f, r->file);
	fputs(", \"trace\": {\"path\": ", f);
	json_str(f, r->path);
	fprintf(f, ", \"events\": %" PRIu64 ", \"tasks\": %" PRIu64 "},\n", r->events, r->tasks);
	fputs("    \"machine\": {\"name\": ", f);
	json_str(f, r->machine);
	fputs(", \"origin\": ", f);
	json_str(f, r->origin);
	fputs("}, \"options\": {", f);
	fprintf(f, "\"slots_cache\": %s, \"kernel\": ", r->slots < 0 ? "null" : r->slots ? "true" : "false");
	json_str(f, r->kernel);
	fputs(", \"readahead\": ", f);
	json_str(f, r->readahead);
	fprintf(f, ", \"plug\": %s},\n    \"baseline\": ", r->plug < 0 ? "null" : r->plug ? "true" : "false");
	json_str(f, r->baseline);
	fputs(", \"uncertainty\": ", f);
	if (unc_of(r, &var, &range)) {
		fputs("null", f);
	} else {
		fputs("{\"variants\": ", f);
		num(f, var);
		fputs(", \"range_pct\": ", f);
		if (range < 0)
			fputs("null", f);
		else
			num(f, range);
		fputc('}', f);
	}
	fputs(", \"warnings\": ", f);
	json_str(f, r->warnings);
	fputs("},\n", f);
}

static int write_json(FILE *f, const struct sr_compare_report *b,
		      const struct sr_compare_report *a)
{
	struct ppair *pp;
	size_t np, i, j, nd;
	char why[1024];
	int k;

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	fprintf(f, "{\n  \"schema\": \"%s\",\n", COMPARE_SCHEMA);
	fprintf(f, "  \"tool\": {\"name\": \"swapreplay\", \"version\": \"%s\"},\n", SR_VERSION_STRING);
	json_side(f, "before", b);
	json_side(f, "after", a);
	fprintf(f, "  \"same_trace\": %s,\n  \"policies\": [",
		sr_compare_trace_diff(b, a, why, sizeof(why)) ? "false" : "true");
	for (i = 0; i < np; i++) {
		struct dpair *dp;
		const char *open = NULL; /* the object of figures written into */

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, (pp[i].p[0] ? pp[i].p[0] : pp[i].p[1])->name);
		fprintf(f, ", \"in\": \"%s\"", in_of(pp[i].p[0], pp[i].p[1]));
		for (k = 0; k < NF; k++) {
			const struct val *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (!vb->has && !va->has)
				continue;
			if (open && pfig[k].obj && !strcmp(open, pfig[k].obj)) {
				fputs(",\n       ", f);
			} else {
				if (open)
					fputc('}', f);
				open = pfig[k].obj;
				if (open)
					fprintf(f, ",\n     \"%s\": {", open);
				else
					fputs(",\n     ", f);
			}
			json_fig(f, &pfig[k], vb, va);
		}
		if (open)
			fputc('}', f);
		dp = pair_devices(&pp[i], &nd);
		if (!dp) {
			free(pp);
			return -1;
		}
		fputs(",\n     \"devices\": [", f);
		for (j = 0; j < nd; j++) {
			fprintf(f, "%s\n       {\"name\": ", j ? "," : "");
			json_str(f, (dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name);
			fprintf(f, ", \"in\": \"%s\"", in_of(dp[j].d[0], dp[j].d[1]));
			for (k = 0; k < ND; k++) {
				const struct val *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (!vb->has && !va->has)
					continue;
				fputs(", ", f);
				json_fig(f, &dfig[k], vb, va);
			}
			fputc('}', f);
		}
		fputs("]}", f);
		free(dp);
	}
	fputs("\n  ]\n}\n", f);
	free(pp);
	return 0;
}

static void csv_row(FILE *f, const char *pol, const char *in, const char *dev,
		    const struct figdef *fd, const struct val *b, const struct val *a)
{
	double c;

	sr_report_csv_string(f, pol);
	fprintf(f, ",%s,", in);
	if (dev)
		sr_report_csv_string(f, dev);
	fprintf(f, ",%s,", fd->csv);
	if (b->has)
		num(f, b->v);
	fputc(',', f);
	if (a->has)
		num(f, a->v);
	fputc(',', f);
	if (!change(b, a, fd, &c))
		chg_num(f, c);
	fprintf(f, ",%s\n", fd->chg == PT ? "pt" : fd->chg == REL ? "pct" : "");
}

static int write_csv(FILE *f, const struct sr_compare_report *b,
		     const struct sr_compare_report *a)
{
	struct ppair *pp;
	size_t np, i, j, nd;
	int k;

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	fputs("policy,in,device,figure,before,after,change,change_unit\n", f);
	for (i = 0; i < np; i++) {
		const char *name = (pp[i].p[0] ? pp[i].p[0] : pp[i].p[1])->name;
		struct dpair *dp;

		for (k = 0; k < NF; k++) {
			const struct val *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (vb->has || va->has)
				csv_row(f, name, in_of(pp[i].p[0], pp[i].p[1]), NULL, &pfig[k], vb, va);
		}
		dp = pair_devices(&pp[i], &nd);
		if (!dp) {
			free(pp);
			return -1;
		}
		for (j = 0; j < nd; j++)
			for (k = 0; k < ND; k++) {
				const struct val *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (vb->has || va->has)
					csv_row(f, name, in_of(dp[j].d[0], dp[j].d[1]),
						(dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name, &dfig[k],
						vb, va);
			}
		free(dp);
	}
	free(pp);
	return 0;
}

/* ---- text ---------------------------------------------------------------- */

/* The label column (its two spaces of indent included) at most this wide:
 * with the three columns of 14, 14 and 13, WIDTH in all. */
#define MAX_LABEL (WIDTH - 41)
#define HEAD 13 /* "slots cache: " */

/* prefix and text, wrapped at WIDTH at text's spaces; the lines after the
 * first indented by indent. */
static void wrap_at(FILE *f, const char *prefix, const char *text, int indent)
{
	size_t col = strlen(prefix), words = 0;
	const char *s = text;

	fputs(prefix, f);
	while (*s == ' ')
		s++;
	while (*s) {
		const char *sp = strchr(s, ' ');
		size_t w = sp ? (size_t)(sp - s) : strlen(s);

		if (words && col + 1 + w > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = (size_t)indent;
			words = 0;
		} else if (words) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += w;
		words++;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

static void wrap(FILE *f, const char *prefix, const char *text)
{
	wrap_at(f, prefix, text, HEAD);
}

/* "KEY:" padded to HEAD and the value, or each side's when they differ
 * ("X before, Y after", or on two lines when that is longer than a line);
 * nothing when neither report gives it. */
static void head(FILE *f, const char *key, const char *b, const char *a)
{
	char prefix[32], *text;
	size_t n;

	if (!b && !a)
		return;
	snprintf(prefix, sizeof(prefix), "%-*s", HEAD, key);
	if (b && a && !strcmp(b, a)) {
		wrap(f, prefix, b);
		return;
	}
	n = (b ? strlen(b) : 1) + (a ? strlen(a) : 1) + 32;
	text = malloc(n);
	if (!text)
		return;
	snprintf(text, n, "%s before, %s after", b ? b : "-", a ? a : "-");
	if (HEAD + strlen(text) <= WIDTH) {
		wrap(f, prefix, text);
	} else {
		snprintf(prefix + HEAD, sizeof(prefix) - HEAD, "before: ");
		wrap_at(f, prefix, b ? b : "-", HEAD + 8);
		snprintf(prefix, sizeof(prefix), "%*safter:  ", HEAD, "");
		wrap_at(f, prefix, a ? a : "-", HEAD + 8);
	}
	free(text);
}

/* A report's trace and machine as the header gives them, into buf. */
static const char *trace_of(const struct sr_compare_report *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s (%" PRIu64 " events, %" PRIu64 " tasks)", r->path ? r->path : "-",
		 r->events, r->tasks);
	return buf;
}

static const char *machine_of(const struct sr_compare_report *r, char *buf, size_t size)
{
	if (!r->machine)
		return NULL;
	if (r->origin)
		snprintf(buf, size, "%s (%s)", r->machine, r->origin);
	else
		snprintf(buf, size, "%s", r->machine);
	return buf;
}

/* The report's uncertainty as the replay's table says it in its footer
 * (src/report/report.c), into buf; what "agree" is follows in a line of
 * its own. */
static const char *unc_text(const struct sr_compare_report *r, char *buf, size_t size)
{
	double var, range;
	char factor[400] = ""; /* a double's every digit (309) */

	if (unc_of(r, &var, &range)) {
		snprintf(buf, size, "not estimated (--uncertainty=N gives deltas a range)");
		return buf;
	}
	if (range >= 0)
		snprintf(factor, sizeof(factor), ", every figure within a factor %.2f",
			 1 + range / 100);
	snprintf(buf, size, "%.0f machine variants%s", var, factor);
	return buf;
}

static const char *onoff(int v)
{
	return v < 0 ? NULL : v ? "on" : "off";
}

/* The slots cache as the header gives it: on or off (an option of the
 * kernels that have one, 4.11 to 6.14), or none when the report's kernel
 * has none (src/mm/kernel.c: before 4.11, and 6.15 on, whose per-CPU
 * clusters took its place); the report's slots_cache is then false. */
static const char *slots_of(const struct sr_compare_report *r)
{
	struct sr_kernel k;
	struct sr_diag d;

	if (r->kernel && !sr_kernel_parse(r->kernel, &k, &d) && k.alloc != SR_ALLOC_SLOTS_CACHE)
		return k.alloc == SR_ALLOC_CLUSTER ? "none (6.15 on)" : "none (before 4.11)";
	return onoff(r->slots);
}

/*
 * v x mul / div, finite v whose product overflows a double, as %.<p>g
 * would write it: m x 10^e with 1 <= |m| < 10 rounded to p significant
 * digits, "1e+309".
 */
static void big_g(char *buf, size_t size, int p, int sign, double v, double mul, double div,
		  const char *unit)
{
	int e = (int)floor(log10(fabs(v)));
	double m = v / pow(10, e) * mul / div, q = pow(10, p - 1);

	while (fabs(m) >= 10) {
		m /= 10;
		e++;
	}
	while (m != 0 && fabs(m) < 1) {
		m *= 10;
		e--;
	}
	m = round(m * q) / q;
	if (fabs(m) >= 10) {
		m /= 10;
		e++;
	}
	snprintf(buf, size, sign ? "%+.*ge%c%02d%s" : "%.*ge%c%02d%s", p, m, e < 0 ? '-' : '+',
		 e < 0 ? -e : e, unit);
}

/* The widest a value and a change may be in their columns (14 and 13
 * wide), so that a space always parts them. */
#define VAL_W 13
#define CHG_W 12

/*
 * v (a figure in the report's unit) as the text shows it, x mul / div,
 * into buf: with dec decimals (and its sign when sign), then unit; when
 * that is wider than w, in scientific notation with as many significant
 * digits as fit, up to 7 (1.234568e+15, -1.7e+308), never cut.  A value that overflows a double once scaled
 * (a utilisation of 1e307, in per cent) is scaled as a decimal mantissa
 * and exponent (big_g()): not as a long double, which valgrind computes
 * as a double (and so as inf).
 */
static void fit_num(char *buf, size_t size, int w, double v, double mul, double div, int dec,
		    int sign, const char *unit)
{
	double x = v * mul / div;
	int p;

	if (isfinite(x))
		snprintf(buf, size, sign ? "%+.*f%s" : "%.*f%s", dec, tidy(x, dec), unit);
	else
		big_g(buf, size, 7, sign, v, mul, div, unit);
	for (p = 7; p >= 1 && (int)strlen(buf) > w; p--) {
		if (isfinite(x))
			snprintf(buf, size, sign ? "%+.*g%s" : "%.*g%s", p, x, unit);
		else
			big_g(buf, size, p, sign, v, mul, div, unit);
	}
}

/* One row: its label (on a line of its own when wider than the column),
 * the two values and the change. */
static void text_row(FILE *f, int lw, const char *label, const struct figdef *fd,
		     const struct val *b, const struct val *a, const struct val *ob,
		     const struct val *oa)
{
	/* Room for a double's every digit before the point (309). */
	char vb[400] = "-", va[400] = "-", vc[400] = "-";
	double c;
	int ch;

	/* Values and changes rounded alike (half away from zero), so that
	 * -15.635 -> 0 shows as -15.64 -> +0.00, +15.64 pt. */
	if (b->has)
		fit_num(vb, sizeof(vb), VAL_W, b->v, fd->mul, fd->div, fd->dec, fd->sign, "");
	if (a->has)
		fit_num(va, sizeof(va), VAL_W, a->v, fd->mul, fd->div, fd->dec, fd->sign, "");
	/* A count out of another: "3/4" (when that fits its column). */
	if (b->has && ob && ob->has && fabs(b->v) < 1e6 && fabs(ob->v) < 1e6)
		snprintf(vb, sizeof(vb), "%.0f/%.0f", b->v, ob->v);
	if (a->has && oa && oa->has && fabs(a->v) < 1e6 && fabs(oa->v) < 1e6)
		snprintf(va, sizeof(va), "%.0f/%.0f", a->v, oa->v);
	ch = change(b, a, fd, &c);
	if (fd->chg == NOCHG)
		vc[0] = '\0';
	else if (ch == CHG_OK)
		fit_num(vc, sizeof(vc), CHG_W, c, 1, 1, 2, 1, fd->chg == PT ? " pt" : " %");
	else if (ch == CHG_NA)
		snprintf(vc, sizeof(vc), "n/a");
	if ((int)strlen(label) > lw) {
		fprintf(f, "%s\n", label);
		label = "";
	}
	if (vc[0])
		fprintf(f, "%-*s%14s%14s%13s\n", lw, label, vb, va, vc);
	else /* no change column (a count), and no spaces at the line's end */
		fprintf(f, "%-*s%14s%14s\n", lw, label, vb, va);
}

/* The label of a row: two spaces, the policy, and what follows it. */
static void label_of(char *buf, size_t size, const char *pol, const char *more)
{
	snprintf(buf, size, "  %s%s%s", pol, more ? " " : "", more ? more : "");
}

/* A section's title and its columns' (each section has them, so that a
 * section quoted alone in a reply still says what its columns are). */
static void section(FILE *f, int g, int lw)
{
	fprintf(f, "\n%s\n%-*s%14s%14s%13s\n", titles[g], lw, "", "before", "after", "change");
}

/* One row of group g: written (its section's title before the first), or,
 * when f is NULL, its label measured into *widest.  ob, oa: what a count
 * is out of, or NULL. */
static void group_row(FILE *f, int g, int lw, const char *label, const struct figdef *fd,
		      const struct val *vb, const struct val *va, const struct val *ob,
		      const struct val *oa, int *rows, int *widest)
{
	if (!f) {
		if ((int)strlen(label) > *widest)
			*widest = (int)strlen(label);
		return;
	}
	if (!(*rows)++)
		section(f, g, lw);
	text_row(f, lw, label, fd, vb, va, ob, oa);
}

/* Write (or, when f is NULL, measure: the widest label) group g's rows. */
static int text_group(FILE *f, int g, const struct ppair *pp, size_t np, int lw, int *widest)
{
	char label[256];
	size_t i, j, nd;
	int k, rows = 0;

	for (i = 0; i < np; i++) {
		struct dpair *dp;

		if (!pp[i].p[0] || !pp[i].p[1])
			continue;
		for (k = 0; k < NF; k++) {
			const struct val *vb = pval(&pp[i], 0, k), *va = pval(&pp[i], 1, k);

			if (pfig[k].group != g || (!vb->has && !va->has))
				continue;
			label_of(label, sizeof(label), pp[i].p[0]->name, pfig[k].row);
			group_row(f, g, lw, label, &pfig[k], vb, va,
				  pfig[k].of < 0 ? NULL : pval(&pp[i], 0, pfig[k].of),
				  pfig[k].of < 0 ? NULL : pval(&pp[i], 1, pfig[k].of), &rows, widest);
		}
		dp = pair_devices(&pp[i], &nd);
		if (!dp)
			return -1;
		for (j = 0; j < nd; j++)
			for (k = 0; k < ND; k++) {
				const struct val *vb = dval(&dp[j], 0, k), *va = dval(&dp[j], 1, k);

				if (dfig[k].group != g || (!vb->has && !va->has))
					continue;
				label_of(label, sizeof(label), pp[i].p[0]->name,
					 (dp[j].d[0] ? dp[j].d[0] : dp[j].d[1])->name);
				group_row(f, g, lw, label, &dfig[k], vb, va, NULL, NULL, &rows,
					  widest);
			}
		free(dp);
	}
	return 0;
}

/* "Only in before (FILE): a, b" for the policies of one report only. */
static int text_only(FILE *f, const struct ppair *pp, size_t np, int side,
		     const struct sr_compare_report *r)
{
	char prefix[300];
	size_t i, len = 0;
	char *names;

	for (i = 0; i < np; i++)
		if (pp[i].p[side] && !pp[i].p[!side])
			len += strlen(pp[i].p[side]->name) + 2;
	if (!len)
		return 0;
	names = malloc(len + 1);
	if (!names)
		return -1;
	names[0] = '\0';
	len = 0;
	for (i = 0; i < np; i++)
		if (pp[i].p[side] && !pp[i].p[!side])
			len += (size_t)sprintf(names + len, "%s%s", len ? ", " : "",
					       pp[i].p[side]->name);
	snprintf(prefix, sizeof(prefix), "Only in %s (%.200s): ", side ? "after" : "before", r->file);
	wrap(f, prefix, names);
	free(names);
	return 0;
}

static int write_text(FILE *f, const struct sr_compare_report *b,
		      const struct sr_compare_report *a)
{
	struct ppair *pp;
	size_t np, i;
	char s0[600], s1[600];
	double var, range;
	int g, lw = 0, common = 0, only = 0;

	pp = pair_policies(b, a, &np);
	if (!pp)
		return -1;
	head(f, "before:", b->file, b->file);
	head(f, "after:", a->file, a->file);
	head(f, "trace:", trace_of(b, s0, sizeof(s0)), trace_of(a, s1, sizeof(s1)));
	head(f, "machine:", machine_of(b, s0, sizeof(s0)), machine_of(a, s1, sizeof(s1)));
	head(f, "kernel:", b->kernel, a->kernel);
	head(f, "slots cache:", slots_of(b), slots_of(a));
	head(f, "block plug:", onoff(b->plug), onoff(a->plug));
	head(f, "readahead:", b->readahead, a->readahead);
	head(f, "baseline:", b->baseline, a->baseline);
	head(f, "uncertainty:", unc_text(b, s0, sizeof(s0)), unc_text(a, s1, sizeof(s1)));
	/* What the reports warned of (swap full, unmatched swap-ins...): a
	 * comparison of such figures carries it. */
	if (b->warnings || a->warnings)
		head(f, "warnings:", b->warnings ? b->warnings : "none",
		     a->warnings ? a->warnings : "none");
	if (!unc_of(b, &var, &range) || !unc_of(a, &var, &range)) {
		snprintf(s0, sizeof(s0), "variants on the delta's side (faster, slower, or within "
			 "%.0f %%)", SR_SAME_PCT);
		wrap(f, "agree:       ", s0);
	}
	wrap(f, "change:      ", "(after / before - 1) x 100 %, of the reports' figures; for the "
	     "delta, after - before");
	for (g = 0; g < NGROUPS; g++)
		if (text_group(NULL, g, pp, np, 0, &lw)) {
			free(pp);
			return -1;
		}
	for (i = 0; i < np; i++) {
		common += pp[i].p[0] && pp[i].p[1];
		only += !(pp[i].p[0] && pp[i].p[1]);
	}
	if (lw > MAX_LABEL)
		lw = MAX_LABEL;
	if (lw < 8)
		lw = 8;
	if (common) {
		for (g = 0; g < NGROUPS; g++)
			if (text_group(f, g, pp, np, lw, NULL)) {
				free(pp);
				return -1;
			}
	} else {
		fputs("\nNo policy is in both reports.\n", f);
	}
	if (only)
		fputc('\n', f);
	if (text_only(f, pp, np, 0, b) || text_only(f, pp, np, 1, a)) {
		free(pp);
		return -1;
	}
	free(pp);
	return 0;
}

enum sr_err sr_compare_write(FILE *f, const struct sr_compare_report *before,
			     const struct sr_compare_report *after, enum sr_compare_fmt fmt)
{
	int rc;

	switch (fmt) {
	case SR_COMPARE_JSON: rc = write_json(f, before, after); break;
	case SR_COMPARE_CSV: rc = write_csv(f, before, after); break;
	default: rc = write_text(f, before, after); break;
	}
	if (rc)
		return SR_ERR_NOMEM;
	return ferror(f) ? SR_ERR_IO : SR_OK;
}
