/* SPDX-License-Identifier: MIT */
/*
 * A replay report read back from its JSON (report_read.h): the whole
 * file, decompressed, within a bound of bytes and of JSON values, checked
 * to be a swapreplay-report/1 (or said what else of swapreplay's it is),
 * then its header and every figure of figures.c's tables, for each policy
 * and each of its devices, by the keys report.c writes them with.
 * Nothing is compared here: compare (src/compare/compare.c) does that.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/filekind.h"
#include "common/diag.h"
#include "trace/source.h"
#include "report/report_read.h"
#include "swapreplay/machine.h"
#include "swapreplay/result.h"

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

void sr_report_doc_clear(struct sr_report_doc *r)
{
	size_t i, j;

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
	memset(r, 0, sizeof(*r));
	r->slots = r->plug = -1;
}

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
static int get_num(struct rd *c, const json_t *o, const char *pre, const char *key, struct sr_report_num *v)
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

/* The figures of the table fig[0..n) from the object o (a policy or a
 * device), each by its object and key, into v[0..n). */
static int get_figs(struct rd *c, const json_t *o, const struct sr_report_fig *fig, int n,
		    struct sr_report_num *v)
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

static int get_devices(struct rd *c, const json_t *o, struct sr_report_doc_pol *p)
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
		struct sr_report_doc_dev *dv = &p->dev[p->ndev];
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
		if (get_figs(c, x, sr_report_dfig, SR_DF_COUNT, dv->fig))
			return -1;
		c->where[at] = '\0';
	}
	return 0;
}

static int get_policies(struct rd *c, const json_t *root, struct sr_report_doc *r)
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
		struct sr_report_doc_pol *p = &r->pol[r->npol];
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
		if (get_figs(c, x, sr_report_pfig, SR_PF_COUNT, p->fig) || get_devices(c, x, p))
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

/* root's schema: 0 for a report of SR_REPORT_SCHEMA, else -1 with why. */
static int check_schema(struct rd *c, const json_t *root)
{
	const json_t *sch = json_object_get(root, "schema");
	const char *what = other_kind(root);

	sr_diag_file(c->d, c->file);
	if (json_is_string(sch) && !strcmp(json_string_value(sch), SR_REPORT_SCHEMA))
		return 0;
	if (json_is_string(sch) && !strncmp(json_string_value(sch), "swapreplay-report/", 18))
		sr_diag_set(c->d, SR_ERR_FORMAT, "a replay report of schema %.40s; this swapreplay "
			    "reads %s", json_string_value(sch), SR_REPORT_SCHEMA);
	else if (what)
		sr_diag_set(c->d, SR_ERR_FORMAT, "%s, not a replay report (swapreplay replay -f json "
			    "writes one)", what);
	else if (json_is_string(sch))
		sr_diag_set(c->d, SR_ERR_FORMAT, "its schema is \"%.60s\": not a replay report (%s)",
			    json_string_value(sch), SR_REPORT_SCHEMA);
	else
		sr_diag_set(c->d, SR_ERR_FORMAT, "no \"schema\": not a replay report (swapreplay "
			    "replay -f json writes one, schema %s)", SR_REPORT_SCHEMA);
	return -1;
}

enum sr_err sr_report_doc_read(struct sr_report_doc *r, const char *path,
			       struct sr_diag *diag)
{
	struct sr_diag local, *d = diag ? diag : &local;
	struct rd c;
	json_error_t je;
	json_t *root;
	const json_t *t, *m, *o;
	char *buf = NULL;
	size_t len = 0, nval, at;
	enum sr_err err;

	memset(r, 0, sizeof(*r));
	r->slots = r->plug = -1;
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
	/* jansson 2.14 sets an error's code (the last byte of its text) only
	 * with a message: out of memory at once it sets neither, and the
	 * code below would read a byte never written (valgrind said so of
	 * compare_read_jansson_nomem).  Zeros: json_error_unknown. */
	memset(&je, 0, sizeof(je));
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
	r->file = strdup(path);
	if (!r->file) {
		json_decref(root);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
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
	return SR_OK;
fail:
	json_decref(root);
	sr_report_doc_clear(r);
	if (c.nomem)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	return d->code ? d->code : SR_ERR_FORMAT;
}

