/* SPDX-License-Identifier: MIT */
/*
 * swapreplay sweep: every trace x every machine x every policy.
 *
 * The unit of work is one (trace, machine): the trace is decoded once and
 * every policy replayed in that pass.  Units are numbered in a fixed order
 * (inputs as given, directories and globs sorted; machines as given) and
 * their rows are written in that order whatever -j is.  Each row is one
 * write() to a file opened for appending, so a killed sweep leaves whole
 * rows (and at most one cut-short line, dropped by --resume).
 */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/machine.h"
#include "swapreplay/outfile.h"
#include "swapreplay/policy.h"
#include "swapreplay/replay.h"
#include "swapreplay/report.h"
#include "swapreplay/trace.h"

#define BATCH 512 /* events read at a time: they stay in the cache until replayed */
#define MAX_MACHINES 64
#define DEFAULT_BASELINE "reclaimer-nid"

enum { O_POLICY = 1, O_MACHINE, O_BASELINE, O_SLOTS, O_JOBS, O_OUT, O_FORMAT, O_RESUME,
       O_QUIET, O_PLAN, O_RUN_INDEX, O_SHARD, O_INFMT, O_MAXERR };

static const struct cli_opt opts[] = {
	{ "policy", 'p', CLI_ARG, O_POLICY },
	{ "machine", 'm', CLI_ARG, O_MACHINE },
	{ "baseline", 0, CLI_ARG, O_BASELINE },
	{ "slots-cache", 0, CLI_ARG, O_SLOTS },
	{ "jobs", 'j', CLI_ARG, O_JOBS },
	{ "output", 'o', CLI_ARG, O_OUT },
	{ "format", 'f', CLI_ARG, O_FORMAT },
	{ "resume", 0, CLI_NOARG, O_RESUME },
	{ "quiet", 'q', CLI_NOARG, O_QUIET },
	{ "plan", 0, CLI_ARG, O_PLAN },
	{ "run-index", 0, CLI_ARG, O_RUN_INDEX },
	{ "shard", 0, CLI_ARG, O_SHARD },
	{ "input-format", 0, CLI_ARG, O_INFMT },
	{ "max-errors", 0, CLI_ARG, O_MAXERR },
	{ NULL, 0, 0, 0 },
};

/* A list of strings, owned. */
struct strs {
	char **v;
	size_t n, cap;
};

static int strs_add(struct strs *s, const char *x, size_t len)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		char **nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n] = strndup(x, len);
	return s->v[s->n] ? (int)(s->n++, 0) : -1;
}

static void strs_free(struct strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* "a,b,c" appended, each once. */
static int strs_split(struct strs *s, const char *arg)
{
	while (*arg) {
		const char *c = strchr(arg, ',');
		size_t n = c ? (size_t)(c - arg) : strlen(arg), i;

		if (!n)
			return -1;
		for (i = 0; i < s->n; i++)
			if (strlen(s->v[i]) == n && !strncmp(s->v[i], arg, n))
				break;
		if (i == s->n && strs_add(s, arg, n))
			return -1;
		arg += n + (c ? 1 : 0);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under dir (not starting with "."), sorted. */
static int walk_dir(const char *dir, struct strs *out)
{
	struct strs here = { 0 };
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t i;
	int rc = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			rc = -1;
			break;
		}
		rc = strs_add(&here, p, strlen(p));
		free(p);
		if (rc)
			break;
	}
	closedir(d);
	qsort(here.v, here.n, sizeof(*here.v), cmp_str);
	for (i = 0; !rc && i < here.n; i++) {
		struct stat st;

		if (stat(here.v[i], &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk_dir(here.v[i], out);
		else if (S_ISREG(st.st_mode))
			rc = strs_add(out, here.v[i], strlen(here.v[i]));
	}
	strs_free(&here);
	return rc;
}

/* One input argument: a file, a directory, a glob or @LIST. */
static int expand(const char *arg, struct strs *out, int depth)
{
	struct stat st;

	if (arg[0] == '@' && depth < 4) {
		FILE *f = fopen(arg + 1, "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		int rc = 0;

		if (!f) {
			cli_err("sweep: %s: cannot open the list: %s", arg + 1, strerror(errno));
			return -1;
		}
		while (!rc && (n = getline(&line, &cap, f)) >= 0) {
			while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
				line[--n] = '\0';
			if (!n || line[0] == '#')
				continue;
			rc = expand(line, out, depth + 1);
		}
		free(line);
		fclose(f);
		return rc;
	}
	if (strpbrk(arg, "*?[")) {
		glob_t g;
		size_t i;
		int rc = 0;

		if (glob(arg, 0, NULL, &g) == 0) {
			for (i = 0; !rc && i < g.gl_pathc; i++)
				rc = expand(g.gl_pathv[i], out, depth + 1);
			globfree(&g);
			return rc;
		}
		globfree(&g);
		cli_err("sweep: no file matches '%s'", arg);
		return -1;
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return walk_dir(arg, out);
	/* A file, or a missing one: its rows will say so. */
	return strs_add(out, arg, strlen(arg));
}

/* ---- the work ------------------------------------------------------------ */

struct sweep {
	struct strs traces, machines, policies;
	const char *baseline;
	int slots_cache;
	struct sr_read_opts ro;
	enum sweep_fmt fmt;
	struct sr_machine **mach;   /* loaded once per --machine, NULL: per trace */

	size_t nunits;
	int from_plan;              /* unit u is traces[u] on machines[u] */
	unsigned char *skip;        /* per unit: nothing to do (resume, shard) */
	unsigned char *have;        /* [unit * np + policy]: row already written */

	/* Between the workers and the writer. */
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	struct cost_class *cls;     /* what the workers take next: see take_unit() */
	size_t ncls;
	off_t *usize;               /* per unit: its trace's size on disk */
	size_t left;                /* units to do not yet handed out */
	size_t jobs;                /* workers */
	char **out;                 /* per unit: its rows, once done */
	int *failed;                /* per unit: 1 if it failed */
	uint64_t *events;           /* per unit: events replayed */
};

static size_t unit_trace(const struct sweep *s, size_t u)
{
	return s->from_plan ? u : u / (s->machines.n ? s->machines.n : 1);
}

static size_t unit_machine(const struct sweep *s, size_t u)
{
	return s->from_plan ? u : u % (s->machines.n ? s->machines.n : 1);
}

/* Append printf output to a growing string. */
static void cat(char **buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
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

/* A JSON string into a buffer. */
static char *jstr(const char *s)
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

/* One row: a policy's figures, or the unit's error. */
static void row(const struct sweep *s, char **buf, size_t *len, size_t u, const char *trace,
		const char *hash, const char *machine, const char *policy,
		const struct sr_policy_result *p, uint64_t events, const char *error)
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
	if (s->fmt == SWEEP_JSONL) {
		char *t = jstr(trace), *m = jstr(machine), *po = jstr(policy), *b = jstr(s->baseline);

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
			char *e = jstr(error);

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

/* Replay one unit; its rows (only those not already written) in *out. */
static void run_unit(struct sweep *s, size_t u, int ahead, char **out, int *failed,
		     uint64_t *nev)
{
	const char *trace = s->traces.v[unit_trace(s, u)];
	const char *mspec = s->machines.n ? s->machines.v[unit_machine(s, u)] : NULL;
	struct sr_machine *own = NULL;
	const struct sr_machine *m = s->mach ? s->mach[unit_machine(s, u)] : NULL;
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
		row(s, out, &len, u, trace, res ? hash : NULL, mname, s->policies.v[k],
		    res ? &res->policy[k] : NULL, res ? res->events : 0, err[0] ? err : "failed");
	}
	if (!*out)
		*out = strdup("");
	sr_pipe_stop(pipe);
	sr_replay_free(rp);
	sr_reader_close(r);
	sr_machine_free(own);
	free(evs);
}

/*
 * The order the workers take the units in.  A unit's cost is taken to be
 * its trace's size on disk times the seconds per byte its machine has
 * shown so far (the units of one machine form a cost class; a plan's are
 * one class): some machines cost more per event than others (2s-nvme2
 * with every policy about 1.5 times 2s-pmem2, where the policies part).
 * Each worker takes the unit of highest cost left, so that the last to
 * start are small ones and the workers finish close together, rather than
 * one running a long unit alone at the end while the others idle.  Before
 * a class has a figure it counts at the mean of the others (or 1).  Each
 * class keeps its units largest first, so a pick looks at one unit per
 * class.  The rows are still written in unit order.
 */
struct cost_class {
	size_t *unit;               /* its units, largest trace first */
	size_t n, pos;              /* how many; the next to hand out */
	double secs, bytes;         /* of its units done so far */
};

static int by_size_desc(const void *a, const void *b, void *arg)
{
	const off_t *size = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (size[x] != size[y])
		return size[x] > size[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static size_t unit_class(const struct sweep *s, size_t u)
{
	return s->from_plan ? 0 : unit_machine(s, u);
}

static int order_units(struct sweep *s)
{
	size_t u, c;

	s->ncls = s->from_plan ? 1 : (s->machines.n ? s->machines.n : 1);
	s->cls = calloc(s->ncls, sizeof(*s->cls));
	s->usize = calloc(s->nunits ? s->nunits : 1, sizeof(*s->usize));
	if (!s->cls || !s->usize)
		return -1;
	for (u = 0; u < s->nunits; u++) {
		struct stat st;

		if (s->skip[u])
			continue;
		if (stat(s->traces.v[unit_trace(s, u)], &st) == 0)
			s->usize[u] = st.st_size;
		s->cls[unit_class(s, u)].n++;
		s->left++;
	}
	for (c = 0; c < s->ncls; c++) {
		s->cls[c].unit = malloc((s->cls[c].n ? s->cls[c].n : 1) * sizeof(size_t));
		if (!s->cls[c].unit)
			return -1;
		s->cls[c].n = 0;
	}
	for (u = 0; u < s->nunits; u++)
		if (!s->skip[u]) {
			struct cost_class *k = &s->cls[unit_class(s, u)];

			k->unit[k->n++] = u;
		}
	for (c = 0; c < s->ncls; c++)
		qsort_r(s->cls[c].unit, s->cls[c].n, sizeof(size_t), by_size_desc, s->usize);
	return 0;
}

/* The unit of highest cost left, taken out; with s->mu held.  Ties go to
 * the lower class, so with no figures yet the order is by size. */
static size_t take_unit(struct sweep *s)
{
	double known = 0, mean;
	size_t c, nk = 0, best = SIZE_MAX;
	double best_cost = -1;

	for (c = 0; c < s->ncls; c++)
		if (s->cls[c].bytes > 0) {
			known += s->cls[c].secs / s->cls[c].bytes;
			nk++;
		}
	mean = nk ? known / (double)nk : 1;
	for (c = 0; c < s->ncls; c++) {
		const struct cost_class *k = &s->cls[c];
		double rate, cost;

		if (k->pos == k->n)
			continue;
		rate = k->bytes > 0 ? k->secs / k->bytes : mean;
		cost = (double)s->usize[k->unit[k->pos]] * rate;
		if (cost > best_cost) {
			best_cost = cost;
			best = c;
		}
	}
	s->left--;
	return s->cls[best].unit[s->cls[best].pos++];
}

static double now(void);

static void *worker(void *arg)
{
	struct sweep *s = arg;

	for (;;) {
		size_t u;
		char *rows;
		int failed, ahead;
		uint64_t nev;
		double t;

		pthread_mutex_lock(&s->mu);
		if (!s->left) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		u = take_unit(s);
		/*
		 * The last units, when fewer are left than workers: the workers
		 * that find nothing to do leave CPUs idle, so the unit decodes,
		 * checks and orders its events on a thread of its own, ahead of
		 * its replay (as replay does).
		 * -j 1 never does: one unit at a time on one thread.
		 */
		ahead = s->jobs > 1 && s->left + 1 < s->jobs;
		pthread_mutex_unlock(&s->mu);
		t = now();
		run_unit(s, u, ahead, &rows, &failed, &nev);
		t = now() - t;
		pthread_mutex_lock(&s->mu);
		if (!failed && s->usize[u] > 0) {
			/* A damaged trace stops early: its time says nothing. */
			s->cls[unit_class(s, u)].secs += t;
			s->cls[unit_class(s, u)].bytes += (double)s->usize[u];
		}
		s->out[u] = rows;
		s->failed[u] = failed;
		s->events[u] = nev;
		pthread_cond_broadcast(&s->done_cv);
		pthread_mutex_unlock(&s->mu);
	}
}

/* Write all of buf with one write() when it can (a row at a time). */
static int write_all(int fd, const char *buf, size_t len)
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

/* Write a unit's rows one line (one write()) at a time. */
static int write_rows(int fd, const char *rows)
{
	while (*rows) {
		const char *nl = strchr(rows, '\n');
		size_t n = nl ? (size_t)(nl - rows) + 1 : strlen(rows);

		if (write_all(fd, rows, n))
			return -1;
		rows += n;
	}
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- plans ------------------------------------------------------------- */

static int write_plan(const struct sweep *s, const char *path)
{
	struct sr_outfile *of;
	struct sr_diag d;
	FILE *f;
	size_t u, k;

	if (sr_outfile_open(&of, path, &d))
		return cli_diag(&d);
	f = sr_outfile_stream(of);
	for (u = 0; u < s->nunits; u++) {
		char *t = jstr(s->traces.v[unit_trace(s, u)]), *b = jstr(s->baseline);

		fprintf(f, "{\"unit\": %zu, \"trace\": %s, \"machine\": ", u, t);
		if (s->machines.n) {
			char *m = jstr(s->machines.v[unit_machine(s, u)]);

			fputs(m, f);
			free(m);
		} else {
			fputs("null", f);
		}
		fputs(", \"policies\": [", f);
		for (k = 0; k < s->policies.n; k++) {
			char *p = jstr(s->policies.v[k]);

			fprintf(f, "%s%s", k ? ", " : "", p);
			free(p);
		}
		fprintf(f, "], \"baseline\": %s, \"slots_cache\": %s, \"input_format\": \"%s\", "
			   "\"max_errors\": %" PRIu64 "}\n", b, s->slots_cache ? "true" : "false",
			sr_format_name(s->ro.format), s->ro.max_errors);
		free(t);
		free(b);
	}
	if (sr_outfile_commit(of, &d))
		return cli_diag(&d);
	return EXIT_OK;
}

/*
 * Load a plan: every unit's settings must be the same sweep (one set of
 * policies, baseline and options); traces and machines are rebuilt so that
 * unit numbers match.
 */
static int read_plan(struct sweep *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = EXIT_DATA;

	if (!f) {
		cli_err("sweep: %s: cannot open the plan: %s", path, strerror(errno));
		return EXIT_IO;
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
			cli_err("sweep: %s:%zu: not a line of a sweep plan", path, lineno);
			json_decref(o);
			goto out;
		}
		if (strs_add(&s->traces, json_string_value(json_object_get(o, "trace")),
			     strlen(json_string_value(json_object_get(o, "trace")))))
			goto nomem;
		v = json_object_get(o, "machine");
		if (json_is_string(v) && strs_add(&s->machines, json_string_value(v),
						  strlen(json_string_value(v))))
			goto nomem;
		if (lineno == 1) {
			for (i = 0; i < json_array_size(pv); i++) {
				json_t *p = json_array_get(pv, i);

				if (!json_is_string(p) ||
				    strs_add(&s->policies, json_string_value(p), strlen(json_string_value(p))))
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
		cli_err("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	if (!lineno || !s->baseline) {
		cli_err("sweep: %s: an empty plan", path);
		goto out;
	}
	rc = EXIT_OK;
out:
	free(line);
	fclose(f);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

static int run(int argc, char **argv)
{
	struct cli_parser p;
	struct sweep s;
	struct strs inputs = { 0 };
	struct sweep_rows old = { 0 };
	const char *val, *out = NULL, *plan = NULL, *plan_in = NULL;
	pthread_t *th = NULL;
	uint64_t jobs = 0, run_index = UINT64_MAX, shard_i = 0, shard_n = 1;
	long long good_len = 0;
	size_t u, k, total = 0, done = 0, nfailed = 0;
	int id, rc = EXIT_OK, fd = -1, resume = 0, quiet = 0, progress, own_baseline = 0;
	uint64_t events = 0;
	double t0;
	char err[512];

	/*
	 * Every unit allocates and frees the same large buffers (calendars of
	 * 128 KiB, slot tables): with glibc's defaults they are mapped and
	 * unmapped each time and faulted in again page by page, and page
	 * faults of one process's threads contend on its address-space lock.
	 * Keep freed memory for the next unit instead: -j 1 measured 1.63 s
	 * against 1.27 s so (make bench's sweep), a fifth of it system time.
	 */
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	memset(&s, 0, sizeof(s));
	s.baseline = DEFAULT_BASELINE;
	s.slots_cache = 1;
	s.ro.format = SR_FMT_AUTO;
	s.ro.content_hash = 1;
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.done_cv, NULL);
	cli_parser_init(&p, argc, argv, opts);
	while ((id = cli_next(&p, &val)) != -1) {
		switch (id) {
		case -2:
			rc = cli_usage("sweep", "%s", p.err);
			goto out;
		case 0:
			if (strs_add(&inputs, val, strlen(val)))
				goto nomem;
			break;
		case O_POLICY:
			if (!strcmp(val, "all")) {
				const struct sr_policy_ops *const *b = sr_policy_builtins();

				for (k = 0; b[k]; k++)
					if (strs_split(&s.policies, b[k]->name))
						goto nomem;
				break;
			}
			if (strs_split(&s.policies, val)) {
				rc = cli_usage("sweep", "bad --policy list '%s'", val);
				goto out;
			}
			break;
		case O_MACHINE:
			if (strs_split(&s.machines, val)) {
				rc = cli_usage("sweep", "bad --machine list '%s'", val);
				goto out;
			}
			break;
		case O_BASELINE:
			s.baseline = val;
			break;
		case O_SLOTS:
			if (strcmp(val, "on") && strcmp(val, "off")) {
				rc = cli_usage("sweep", "--slots-cache takes on or off, not '%s'", val);
				goto out;
			}
			s.slots_cache = !strcmp(val, "on");
			break;
		case O_JOBS:
			if (cli_parse_u64(val, 1024, &jobs) || !jobs) {
				rc = cli_usage("sweep", "-j takes 1 to 1024, not '%s'", val);
				goto out;
			}
			break;
		case O_OUT:
			out = val;
			break;
		case O_FORMAT:
			if (!strcmp(val, "jsonl") || !strcmp(val, "json")) {
				s.fmt = SWEEP_JSONL;
			} else if (!strcmp(val, "csv")) {
				s.fmt = SWEEP_CSV;
			} else {
				rc = cli_usage("sweep", "--format takes jsonl or csv, not '%s'", val);
				goto out;
			}
			break;
		case O_RESUME:
			resume = 1;
			break;
		case O_QUIET:
			quiet = 1;
			break;
		case O_PLAN:
			plan = val;
			break;
		case O_RUN_INDEX:
			if (cli_parse_u64(val, UINT32_MAX, &run_index)) {
				rc = cli_usage("sweep", "--run-index takes a unit number, not '%s'", val);
				goto out;
			}
			break;
		case O_SHARD: {
			const char *sl = strchr(val, '/');
			char a[32];

			if (!sl || (size_t)(sl - val) >= sizeof(a)) {
				rc = cli_usage("sweep", "--shard takes I/N, not '%s'", val);
				goto out;
			}
			memcpy(a, val, (size_t)(sl - val));
			a[sl - val] = '\0';
			if (cli_parse_u64(a, UINT32_MAX, &shard_i) ||
			    cli_parse_u64(sl + 1, UINT32_MAX, &shard_n) || !shard_n || shard_i >= shard_n) {
				rc = cli_usage("sweep", "--shard takes I/N with 0 <= I < N, not '%s'", val);
				goto out;
			}
			break;
		}
		case O_INFMT:
			if (sr_format_parse(val, &s.ro.format)) {
				rc = cli_usage("sweep", "--input-format takes auto, csv, jsonl or swt, not '%s'", val);
				goto out;
			}
			break;
		case O_MAXERR:
			if (cli_parse_u64(val, UINT64_MAX, &s.ro.max_errors)) {
				rc = cli_usage("sweep", "--max-errors takes a whole number, not '%s'", val);
				goto out;
			}
			break;
		}
	}
	if (resume && !out) {
		rc = cli_usage("sweep", "--resume needs -o FILE: the results to continue");
		goto out;
	}
	if (run_index != UINT64_MAX || shard_n > 1) {
		/* Run part of a plan: the one argument is the plan. */
		if (inputs.n != 1 || plan || s.policies.n || s.machines.n) {
			rc = cli_usage("sweep", "--run-index and --shard take one PLAN file and no "
				       "--plan, --policy or --machine (the plan has them)");
			goto out;
		}
		plan_in = inputs.v[0];
		rc = read_plan(&s, plan_in);
		if (rc)
			goto out;
		own_baseline = 1;
	} else {
		if (!inputs.n) {
			rc = cli_usage("sweep", "needs traces: files, directories, globs or @LIST");
			goto out;
		}
		for (k = 0; k < inputs.n; k++)
			if (expand(inputs.v[k], &s.traces, 0)) {
				rc = EXIT_USAGE;
				goto out;
			}
		if (!s.traces.n) {
			rc = cli_usage("sweep", "no trace found in the inputs");
			goto out;
		}
		if (!s.policies.n)
			for (k = 0; k < 4; k++) {
				static const char *const def[] = { "reclaimer-nid", "page-nid",
					"page-nid-strict", "hybrid" };

				strs_add(&s.policies, def[k], strlen(def[k]));
			}
		for (k = 0; k < s.policies.n && strcmp(s.policies.v[k], s.baseline); k++)
			;
		if (k == s.policies.n) {
			/* The baseline comes first. */
			char *b;

			if (strs_add(&s.policies, s.baseline, strlen(s.baseline)))
				goto nomem;
			b = s.policies.v[s.policies.n - 1];
			memmove(&s.policies.v[1], &s.policies.v[0], (s.policies.n - 1) * sizeof(char *));
			s.policies.v[0] = b;
		}
	}
	if (s.policies.n > SR_MAX_POLICIES) {
		rc = cli_usage("sweep", "at most %d policies", SR_MAX_POLICIES);
		goto out;
	}
	if (s.machines.n > MAX_MACHINES && !plan_in) {
		rc = cli_usage("sweep", "at most %d machines", MAX_MACHINES);
		goto out;
	}
	s.nunits = s.traces.n * (s.machines.n ? s.machines.n : 1);
	if (plan_in) {
		s.nunits = s.traces.n; /* one machine per plan line */
		s.from_plan = 1;
	}
	if (plan_in && s.machines.n && s.machines.n != s.traces.n) {
		cli_err("sweep: %s: every line of a plan names a machine, or none does", plan_in);
		rc = EXIT_DATA;
		goto out;
	}

	/* Machines: each loaded once (a bad one is a usage error up front). */
	if (s.machines.n) {
		size_t nm = s.machines.n;

		s.mach = calloc(nm, sizeof(*s.mach));
		if (!s.mach)
			goto nomem;
		for (k = 0; k < nm; k++) {
			struct sr_diag d;

			if (sr_machine_load(&s.mach[k], s.machines.v[k], &d)) {
				rc = cli_diag(&d);
				goto out;
			}
		}
	}
	/* Check the policies up front too (a .so that does not load, a typo). */
	{
		struct sr_replay *probe;
		struct sr_replay_opts po = { NULL, 1, 16, 0 };
		struct sr_machine *pm = NULL;
		struct sr_diag d;

		if (!s.mach && sr_machine_load(&pm, SR_MACHINE_DEFAULT, &d)) {
			rc = cli_diag(&d);
			goto out;
		}
		po.machine = s.mach ? s.mach[0] : pm;
		if (sr_replay_new(&probe, &po, (const char *const *)s.policies.v, (int)s.policies.n,
				  s.baseline, &d)) {
			sr_machine_free(pm);
			rc = cli_diag(&d);
			goto out;
		}
		sr_replay_free(probe);
		sr_machine_free(pm);
	}
	if (plan) {
		rc = write_plan(&s, plan);
		if (!rc && !quiet)
			fprintf(stderr, "swapreplay: sweep: %zu units in %s (run each with "
				"`swapreplay sweep --run-index=I %s -o RESULT`)\n", s.nunits, plan, plan);
		goto out;
	}

	s.skip = calloc(s.nunits, 1);
	s.out = calloc(s.nunits, sizeof(*s.out));
	s.failed = calloc(s.nunits, sizeof(*s.failed));
	s.events = calloc(s.nunits, sizeof(*s.events));
	if (!s.skip || !s.out || !s.failed || !s.events)
		goto nomem;
	for (u = 0; u < s.nunits; u++)
		s.skip[u] = (run_index != UINT64_MAX && u != run_index) ||
			    (shard_n > 1 && u % shard_n != shard_i);
	if (run_index != UINT64_MAX && run_index >= s.nunits) {
		rc = cli_usage("sweep", "--run-index=%" PRIu64 ": the plan has units 0 to %zu",
			       run_index, s.nunits - 1);
		goto out;
	}

	/* The output: appended to, a whole row per write(). */
	if (out) {
		struct stat st;

		if (!resume && stat(out, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
			rc = cli_usage("sweep", "%s exists: give --resume to add the rows it lacks, or remove it",
				       out);
			goto out;
		}
		if (resume && stat(out, &st) == 0) {
			if (sweep_rows_load(out, s.fmt, &old, &good_len, err, sizeof(err))) {
				cli_err("sweep: %s", err);
				rc = EXIT_DATA;
				goto out;
			}
			/* Drop a row cut short by a kill. */
			if (st.st_size > good_len && truncate(out, good_len)) {
				cli_err("sweep: %s: cannot cut its last partial row: %s", out, strerror(errno));
				rc = EXIT_IO;
				goto out;
			}
		}
		fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (fd < 0) {
			cli_err("sweep: %s: cannot open: %s", out, strerror(errno));
			rc = EXIT_IO;
			goto out;
		}
	} else {
		fd = STDOUT_FILENO;
	}
	if (old.n) {
		s.have = calloc(s.nunits * s.policies.n, 1);
		if (!s.have)
			goto nomem;
		for (k = 0; k < old.n; k++) {
			size_t j;

			if (old.v[k].unit >= s.nunits)
				continue;
			for (j = 0; j < s.policies.n; j++)
				if (!strcmp(old.v[k].policy, s.policies.v[j]))
					s.have[old.v[k].unit * s.policies.n + j] = 1;
		}
		for (u = 0; u < s.nunits; u++) {
			int all = 1;

			for (k = 0; k < s.policies.n; k++)
				all &= s.have[u * s.policies.n + k];
			s.skip[u] |= all;
		}
	}
	if (s.fmt == SWEEP_CSV && (!out || good_len == 0) &&
	    write_all(fd, sweep_csv_header, strlen(sweep_csv_header))) {
		cli_err("sweep: write failed: %s", strerror(errno));
		rc = EXIT_IO;
		goto out;
	}
	for (u = 0; u < s.nunits; u++)
		total += !s.skip[u];
	if (order_units(&s))
		goto nomem;

	/* Workers replay; this thread writes the units in order. */
	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (uint64_t)n : 1;
	}
	s.jobs = (size_t)jobs; /* the CPUs the sweep may use, even with fewer units */
	if (jobs > total)
		jobs = total ? total : 1;
	th = calloc(jobs, sizeof(*th));
	if (!th)
		goto nomem;
	for (k = 0; k < jobs; k++)
		if (pthread_create(&th[k], NULL, worker, &s)) {
			jobs = k;
			break;
		}
	progress = !quiet && isatty(STDERR_FILENO);
	t0 = now();
	for (u = 0; u < s.nunits; u++) {
		if (s.skip[u])
			continue;
		pthread_mutex_lock(&s.mu);
		while (!s.out[u])
			pthread_cond_wait(&s.done_cv, &s.mu);
		pthread_mutex_unlock(&s.mu);
		if (write_rows(fd, s.out[u]) && !rc) {
			cli_err("sweep: %s: write failed: %s", out ? out : "standard output",
				strerror(errno));
			rc = EXIT_IO;
		}
		nfailed += s.failed[u];
		events += s.events[u];
		done++;
		if (progress) {
			double el = now() - t0;

			fprintf(stderr, "\r[%zu/%zu] %.0f events/s, ETA %.0f s   ", done, total,
				el > 0 ? (double)events / el : 0,
				done ? el / (double)done * (double)(total - done) : 0);
		}
	}
	for (k = 0; k < jobs; k++)
		pthread_join(th[k], NULL);
	if (progress)
		fputc('\n', stderr);
	if (fd >= 0 && fd != STDOUT_FILENO && close(fd) && !rc) {
		cli_err("sweep: %s: close failed: %s", out, strerror(errno));
		rc = EXIT_IO;
	}
	fd = -1;

	/* The summary, over every row of the output (earlier runs included). */
	if (!quiet) {
		struct sweep_rows all = { 0 };
		long long gl;

		if (out) {
			if (!sweep_rows_load(out, s.fmt, &all, &gl, err, sizeof(err)))
				sweep_summary(stdout, &all, (const char *const *)s.policies.v,
					      (int)s.policies.n);
		} else {
			/* Rows went to stdout: summarise what this run wrote. */
			char path[] = "/tmp/swapreplay-sweep-XXXXXX";
			int tfd = mkstemp(path);

			if (tfd >= 0) {
				for (u = 0; u < s.nunits; u++)
					if (s.out[u])
						write_rows(tfd, s.out[u]);
				close(tfd);
				if (!sweep_rows_load(path, s.fmt, &all, &gl, err, sizeof(err)))
					sweep_summary(stderr, &all, (const char *const *)s.policies.v,
						      (int)s.policies.n);
				unlink(path);
			}
		}
		sweep_rows_free(&all);
	}
	if (nfailed && !rc) {
		cli_err("sweep: %zu of %zu cases failed (their rows say why)", nfailed, total);
		rc = 64 + (int)(nfailed < 63 ? nfailed : 63);
	}
	goto out;
nomem:
	cli_err("out of memory");
	rc = EXIT_FAIL;
out:
	if (fd >= 0 && fd != STDOUT_FILENO)
		close(fd);
	if (s.mach)
		for (k = 0; k < s.machines.n; k++)
			sr_machine_free(s.mach[k]);
	free(s.mach);
	if (s.out)
		for (u = 0; u < s.nunits; u++)
			free(s.out[u]);
	free(s.out);
	free(s.failed);
	free(s.events);
	free(s.skip);
	for (k = 0; s.cls && k < s.ncls; k++)
		free(s.cls[k].unit);
	free(s.cls);
	free(s.usize);
	free(s.have);
	free(th);
	if (own_baseline)
		free((char *)s.baseline);
	sweep_rows_free(&old);
	strs_free(&inputs);
	strs_free(&s.traces);
	strs_free(&s.machines);
	strs_free(&s.policies);
	pthread_mutex_destroy(&s.mu);
	pthread_cond_destroy(&s.done_cv);
	return rc;
}

const struct cli_cmd cmd_sweep = {
	.name = "sweep",
	.summary = "replay many traces x machines x policies, in parallel, resumable",
	.help =
	"Usage: swapreplay sweep [OPTIONS] INPUT...\n"
	"       swapreplay sweep [OPTIONS] --plan=PLAN INPUT...\n"
	"       swapreplay sweep --run-index=I|--shard=I/N PLAN [-o RESULT] [--resume]\n"
	"\n"
	"Replay every trace on every machine through every policy: one result row\n"
	"per (trace, machine, policy).  INPUT is a trace, a directory (searched\n"
	"recursively, files not starting with '.'), a glob pattern, or @LIST (a\n"
	"file naming one INPUT per line).  Each trace is decoded once per machine\n"
	"for all its policies (a unit of work).  Rows come out in the same order\n"
	"whatever -j is; a damaged trace gives rows with status \"error\" and does not\n"
	"stop the sweep.\n"
	"\n"
	"Options:\n"
	"  -p, --policy=LIST     policies (comma separated, may be repeated; 'all' for\n"
	"                        every built-in; default\n"
	"                        reclaimer-nid, page-nid, page-nid-strict, hybrid)\n"
	"  -m, --machine=LIST    machines: presets or files (may be repeated; default:\n"
	"                        each trace's recorded machine, else " SR_MACHINE_DEFAULT ")\n"
	"  --baseline=NAME       default reclaimer-nid, always replayed\n"
	"  --slots-cache=on|off  as for replay\n"
	"  -j, --jobs=N          units replayed at once, on threads (default: CPUs)\n"
	"  -o, --output=FILE     append rows to FILE, one whole row per write (default:\n"
	"                        standard output); an existing FILE needs --resume\n"
	"  --resume              skip the rows FILE already has; a last row cut short\n"
	"                        by a kill is dropped and redone\n"
	"  -f, --format=FMT      jsonl (default) or csv\n"
	"  -q, --quiet           no progress and no summary\n"
	"  --plan=PLAN           write the units to PLAN (a line each) and stop\n"
	"  --run-index=I         run unit I of the plan given as the argument\n"
	"  --shard=I/N           run the units whose number is I modulo N\n"
	"  --input-format=FMT, --max-errors=N   as for replay\n"
	"\n"
	"Rows (src/REPORT.md): unit, trace, trace_hash (FNV-1a 64 of the file), machine,\n"
	"policy, baseline, slots_cache, status, error, events, and the replay report's\n"
	"figures.  At the end a summary per policy: units won (highest throughput),\n"
	"median and worst delta; on standard output with -o, else standard error.\n"
	"Progress goes to standard error when it is a terminal.\n"
	"\n"
	"Exit status: 0 if every unit replayed, 64 + the number of failed units (at\n"
	"most 127) if some failed, else as for every command (2 usage, 4 I/O).\n"
	"`swapreplay merge` combines the RESULT files of a plan's units.\n",
	.run = run,
};
