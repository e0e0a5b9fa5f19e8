/* SPDX-License-Identifier: MIT */
/*
 * Result rows: formatted (JSON lines or CSV, docs/SWEEP.md), written a
 * whole row per write(), and read back for --resume, merge and the
 * summary.
 */
#define _GNU_SOURCE /* vasprintf */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

/* ---- writing ----------------------------------------------------------- */

/* Checklist: the columns of sr_rows_format()'s CSV rows, in order. */
const char sr_rows_csv_header[] =
	"unit,trace,trace_hash,machine,policy,baseline,slots_cache,status,error,events,"
	"throughput_kib_s,delta_pct,makespan_ns,swapouts,swapins,unmatched_swapins,"
	"swap_full,moved_out_pct,swapin_mean_ns,swapin_p50_ns,swapin_p90_ns,swapin_p99_ns\n";

/* Append printf output to a growing string. */
static void cat(char **buf, size_t *len, const char *fmt, ...) SR_PRINTF(3, 4);
static void cat(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *more;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	{
		char *nb = realloc(*buf, *len + (size_t)n + 1);

		if (nb) {
			memcpy(nb + *len, more, (size_t)n + 1);
			*buf = nb;
			*len += (size_t)n;
		}
	}
	free(more);
}

char *sr_json_str(const char *s)
{
	json_t *j = json_string(s);
	char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	return out ? out : strdup("\"?\"");
}

/* A CSV field, quoted when it needs to be. */
static char *cstr(const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *o;

	if (!strpbrk(s, ",\"\r\n"))
		return strdup(s);
	o = malloc(2 * n + 3);
	if (!o)
		return NULL;
	o[k++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			o[k++] = '"';
		o[k++] = s[i];
	}
	o[k++] = '"';
	o[k] = '\0';
	return o;
}

void sr_rows_format(const struct sr_sweep *s, char **buf, size_t *len, size_t u,
		    const char *trace, const char *hash, const char *machine,
		    const char *policy, const struct sr_policy_result *p, uint64_t events,
		    const char *error)
{
	double mean = 0, p50 = 0, p90 = 0, p99 = 0, moved = 0;

	if (p) {
		const struct sr_hist *h = &p->swapin_lat;

		mean = h->count ? round(h->sum_ns / (double)h->count) : 0;
		p50 = round(sr_hist_quantile(h, 0.5));
		p90 = round(sr_hist_quantile(h, 0.9));
		p99 = round(sr_hist_quantile(h, 0.99));
		moved = p->swapouts ? 100.0 * (double)p->moved_out / (double)p->swapouts : 0;
	}
	if (s->fmt == SR_SWEEP_JSONL) {
		char *t = sr_json_str(trace), *m = sr_json_str(machine), *po = sr_json_str(policy);
		char *b = sr_json_str(s->baseline);

		cat(buf, len, "{\"unit\": %zu, \"trace\": %s, \"trace_hash\": ", u, t);
		if (hash)
			cat(buf, len, "\"%s\"", hash);
		else
			cat(buf, len, "null");
		cat(buf, len, ", \"machine\": %s, \"policy\": %s, \"baseline\": %s, \"slots_cache\": %s, ",
		    m, po, b, s->slots_cache ? "true" : "false");
		if (p) {
			cat(buf, len, "\"status\": \"ok\", \"events\": %" PRIu64
			    ", \"throughput_kib_s\": %.1f, \"delta_pct\": %.3f, \"makespan_ns\": %.0f, "
			    "\"swapouts\": %" PRIu64 ", \"swapins\": %" PRIu64 ", \"unmatched_swapins\": %"
			    PRIu64 ", \"swap_full\": %" PRIu64 ", \"moved_out_pct\": %.3f, "
			    "\"swapin_lat_ns\": {\"mean\": %.0f, \"p50\": %.0f, \"p90\": %.0f, \"p99\": %.0f}}\n",
			    events, p->throughput_kib_s, p->delta_pct, p->makespan_ns, p->swapouts,
			    p->swapins, p->unmatched_in, p->swap_full, moved, mean, p50, p90, p99);
		} else {
			char *e = sr_json_str(error);

			cat(buf, len, "\"status\": \"error\", \"error\": %s}\n", e);
			free(e);
		}
		free(t);
		free(m);
		free(po);
		free(b);
		return;
	}
	{
		char *t = cstr(trace), *m = cstr(machine), *po = cstr(policy), *b = cstr(s->baseline);
		char *e = cstr(error ? error : "");

		cat(buf, len, "%zu,%s,%s,%s,%s,%s,%s,%s,%s,", u, t, hash ? hash : "", m, po, b,
		    s->slots_cache ? "on" : "off", p ? "ok" : "error", e);
		if (p)
			cat(buf, len, "%" PRIu64 ",%.1f,%.3f,%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			    ",%" PRIu64 ",%.3f,%.0f,%.0f,%.0f,%.0f\n", events, p->throughput_kib_s,
			    p->delta_pct, p->makespan_ns, p->swapouts, p->swapins, p->unmatched_in,
			    p->swap_full, moved, mean, p50, p90, p99);
		else
			cat(buf, len, ",,,,,,,,,,,,\n");
		free(t);
		free(m);
		free(po);
		free(b);
		free(e);
	}
}

int sr_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int sr_write_rows(int fd, const char *rows)
{
	while (*rows) {
		const char *nl = strchr(rows, '\n');
		size_t n = nl ? (size_t)(nl - rows) + 1 : strlen(rows);

		if (sr_write_all(fd, rows, n))
			return -1;
		rows += n;
	}
	return 0;
}

/* ---- reading back ------------------------------------------------------ */

enum { C_UNIT = 0, C_MACHINE = 3, C_POLICY = 4, C_STATUS = 7, C_TPUT = 10, C_DELTA = 11,
       C_COUNT = 22 };

struct csvline {
	char *f[C_COUNT];
	int n;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csvline *l = data;

	if (l->n < C_COUNT)
		l->f[l->n] = strndup(s ? s : "", len);
	l->n++;
}

static void on_row(int c, void *data)
{
	(void)c;
	(void)data;
}

static int add(struct sr_rows *rows, struct sr_row *r)
{
	if (rows->n == rows->cap) {
		size_t ncap = rows->cap ? rows->cap * 2 : 64;
		struct sr_row *nv = realloc(rows->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		rows->v = nv;
		rows->cap = ncap;
	}
	rows->v[rows->n++] = *r;
	return 0;
}

static int parse_jsonl(const char *line, size_t len, struct sr_row *r)
{
	json_error_t e;
	json_t *o = json_loadb(line, len, 0, &e), *v;
	int rc = -1;

	if (!json_is_object(o))
		goto out;
	v = json_object_get(o, "unit");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		goto out;
	r->unit = (uint64_t)json_integer_value(v);
	v = json_object_get(o, "machine");
	r->machine = strdup(json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(o, "policy");
	r->policy = strdup(json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(o, "status");
	r->ok = json_is_string(v) && !strcmp(json_string_value(v), "ok");
	r->throughput = json_number_value(json_object_get(o, "throughput_kib_s"));
	r->delta = json_number_value(json_object_get(o, "delta_pct"));
	rc = r->machine && r->policy ? 0 : -1;
out:
	json_decref(o);
	return rc;
}

static int parse_csv(const char *line, size_t len, struct sr_row *r)
{
	struct csv_parser p;
	struct csvline l;
	int i, rc = -1;

	memset(&l, 0, sizeof(l));
	if (csv_init(&p, CSV_APPEND_NULL))
		return -1;
	csv_parse(&p, line, len, on_field, on_row, &l);
	csv_fini(&p, on_field, on_row, &l);
	csv_free(&p);
	if (l.n == C_COUNT && l.f[C_UNIT] && strcmp(l.f[C_UNIT], "unit") != 0) {
		char *end;

		r->unit = strtoull(l.f[C_UNIT], &end, 10);
		if (!*end && l.f[C_UNIT][0]) {
			r->machine = l.f[C_MACHINE];
			r->policy = l.f[C_POLICY];
			l.f[C_MACHINE] = l.f[C_POLICY] = NULL;
			r->ok = !strcmp(l.f[C_STATUS], "ok");
			r->throughput = strtod(l.f[C_TPUT], NULL);
			r->delta = strtod(l.f[C_DELTA], NULL);
			rc = 0;
		}
	} else if (l.n == C_COUNT) {
		rc = 1; /* the header */
	}
	for (i = 0; i < C_COUNT && i < l.n; i++)
		free(l.f[i]);
	return rc;
}

/*
 * One whole line (with its "\n") of the file name, line lineno, into rows:
 * SR_OK (added, or the CSV header skipped), or the error with d.
 */
static enum sr_err take_line(struct sr_rows *rows, const char *line, size_t n,
			     enum sr_sweep_fmt fmt, const char *name, long long lineno,
			     struct sr_diag *d)
{
	struct sr_row r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = fmt == SR_SWEEP_CSV ? parse_csv(line, n, &r) : parse_jsonl(line, n, &r);
	if (rc < 0) {
		free(r.machine);
		free(r.policy);
		sr_diag_file(d, name);
		d->line = (uint64_t)lineno;
		return sr_diag_set(d, SR_ERR_FORMAT, "not a result row");
	}
	if (rc == 1)
		return SR_OK;
	r.line = strndup(line, n);
	if (!r.line || add(rows, &r)) {
		free(r.machine);
		free(r.policy);
		free(r.line);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	return SR_OK;
}

enum sr_err sr_rows_load(struct sr_rows *rows, const char *path, enum sr_sweep_fmt fmt,
			 long long *good_len, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long long pos = 0, lineno = 0;
	enum sr_err err = SR_OK;

	*good_len = 0;
	sr_diag_clear(d);
	if (!f) {
		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_IO, "cannot open: %s", strerror(errno));
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] != '\n')
			break; /* cut short by a kill: dropped */
		err = take_line(rows, line, (size_t)n, fmt, path, lineno, d);
		if (err)
			break;
		pos += n;
	}
	free(line);
	fclose(f);
	if (!err)
		*good_len = pos;
	return err;
}

enum sr_err sr_rows_parse(struct sr_rows *rows, const char *buf, const char *name,
			  enum sr_sweep_fmt fmt, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local;
	long long lineno = 0;

	sr_diag_clear(d);
	while (*buf) {
		const char *nl = strchr(buf, '\n');
		enum sr_err err;

		lineno++;
		if (!nl)
			break; /* as a file's last line cut short */
		err = take_line(rows, buf, (size_t)(nl - buf) + 1, fmt, name, lineno, d);
		if (err)
			return err;
		buf = nl + 1;
	}
	return SR_OK;
}

void sr_rows_free(struct sr_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		free(rows->v[i].machine);
		free(rows->v[i].policy);
		free(rows->v[i].line);
	}
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}
