/* The sweep engine through its public API (swapreplay/sweep.h): setting a
 * sweep up and its errors, a run's rows the same on one thread and two, a
 * resumed output, and a plan's shards merged back into the same bytes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swapreplay/sweep.h"
#include "test.h"

static char dir[] = "/tmp/sr-unit-sweep-XXXXXX";
static char path_buf[8][512];

/* DIR/name, in one of a few rotating buffers. */
static const char *at(const char *name)
{
	static int k;
	char *p = path_buf[k++ % 8];

	snprintf(p, sizeof(path_buf[0]), "%s/%s", dir, name);
	return p;
}

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The whole of a file, NUL-terminated (NULL if it cannot be read). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
		}
		k = fread(buf + n, 1, 4096, f);
		n += k;
	} while (k);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static int same_file(const char *a, const char *b)
{
	size_t na = 0, nb = 0;
	char *x = slurp(a, &na), *y = slurp(b, &nb);
	int same = x && y && na == nb && !memcmp(x, y, na);

	free(x);
	free(y);
	return same;
}

static size_t lines(const char *path)
{
	char *t = slurp(path, NULL), *c;
	size_t n = 0;

	for (c = t; c && *c; c++)
		n += *c == '\n';
	free(t);
	return n;
}

static const char *const machines[] = { "2s-pmem2", "2s-nvme2" };

static struct sr_sweep_opts opts(void)
{
	struct sr_sweep_opts o;

	memset(&o, 0, sizeof(o));
	o.machines = machines;
	o.nmachines = 2;
	o.slots_cache = 1;
	o.format = SR_SWEEP_JSONL;
	return o;
}

/* Prepare, start, write every unit and finish; the first error. */
static enum sr_err run(struct sr_sweep *s, const struct sr_sweep_run_opts *ro,
		       struct sr_sweep_progress *prog)
{
	struct sr_diag d;
	enum sr_err e, first = SR_OK;

	memset(prog, 0, sizeof(*prog));
	e = sr_sweep_prepare(s, ro, &d);
	if (!e)
		e = sr_sweep_start(s, &d);
	if (e)
		return e;
	sr_sweep_progress(s, prog);
	while (prog->done < prog->total) {
		e = sr_sweep_next(s, prog, &d);
		if (e && !first)
			first = e;
	}
	e = sr_sweep_finish(s, &d);
	return first ? first : e;
}

/* A whole sweep of the traces in DIR/tr to output (jobs threads). */
static enum sr_err sweep_to(const char *output, unsigned jobs, int resume,
			    struct sr_sweep_progress *prog)
{
	const char *in[] = { at("tr") };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep *s;
	enum sr_err e;

	memset(&ro, 0, sizeof(ro));
	ro.output = output;
	ro.jobs = jobs;
	ro.resume = resume;
	e = sr_sweep_new(&s, in, 1, &o, NULL);
	if (!e)
		e = sr_sweep_load(s, NULL);
	if (!e)
		e = run(s, &ro, prog);
	sr_sweep_free(s);
	return e;
}

static void sweep_fmt(void)
{
	enum sr_sweep_fmt f = SR_SWEEP_CSV;

	CHECK(sr_sweep_fmt_parse("jsonl", &f) == SR_OK && f == SR_SWEEP_JSONL);
	CHECK(sr_sweep_fmt_parse("csv", &f) == SR_OK && f == SR_SWEEP_CSV);
	CHECK(sr_sweep_fmt_parse("json", &f) == SR_OK && f == SR_SWEEP_JSONL);
	CHECK(sr_sweep_fmt_parse("xml", &f) == SR_ERR_INVAL && f == SR_SWEEP_JSONL);
	sr_sweep_free(NULL);
	sr_sweep_merge_free(NULL);
}

static void sweep_setup_errors(void)
{
	char lst[600], none[600], name[SR_SWEEP_MAX_MACHINES + 1][16];
	const char *glob[] = { at("nothing/*.csv") }, *empty[] = { none }, *edir[] = { at("empty") };
	const char *list[] = { lst }, *tr[] = { at("tr") };
	const char *many[SR_SWEEP_MAX_MACHINES + 1];
	struct sr_sweep_opts o = opts();
	struct sr_sweep *s = NULL;
	struct sr_diag d;
	int i;

	snprintf(lst, sizeof(lst), "@%s/no-list", dir);
	/* No trace: a list of comments, an empty directory (whose sort was
	 * of a NULL array, which UBSan refuses). */
	snprintf(none, sizeof(none), "@%s/comments", dir);
	CHECK(sr_sweep_new(&s, glob, 1, &o, &d) == SR_ERR_IO && s == NULL);
	CHECK(strstr(d.msg, "no file matches") != NULL);
	CHECK(sr_sweep_new(&s, list, 1, &o, &d) == SR_ERR_IO && s == NULL);
	CHECK(strstr(d.msg, "cannot open the list") != NULL && strstr(d.file, "no-list"));
	CHECK(sr_sweep_new(&s, empty, 1, &o, &d) == SR_ERR_INVAL && s == NULL);
	CHECK(sr_sweep_new(&s, edir, 1, &o, &d) == SR_ERR_INVAL && s == NULL);
	/* Plans and rows hold max_errors as a JSON integer: at most 2^63 - 1. */
	o.max_errors = UINT64_MAX;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_ERR_LIMIT && s == NULL);
	o.max_errors = 0;
	/* --noise: auto or up to SR_REPLAY_MAX_NOISE replicas, a jitter up
	 * to 10^9 ns. */
	o.noise = SR_REPLAY_MAX_NOISE + 1;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_ERR_LIMIT && s == NULL);
	o.noise = -2;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_ERR_LIMIT && s == NULL);
	o.noise = 0;
	o.noise_jitter_ns = 1000000001u;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_ERR_LIMIT && s == NULL);
	o.noise_jitter_ns = 0;
	for (i = 0; i <= SR_SWEEP_MAX_MACHINES; i++) {
		snprintf(name[i], sizeof(name[i]), "m%d", i);
		many[i] = name[i];
	}
	o.machines = many;
	o.nmachines = SR_SWEEP_MAX_MACHINES + 1;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_ERR_LIMIT && s == NULL);
	/* A machine that does not load fails in sr_sweep_load(). */
	o.nmachines = 1;
	CHECK(sr_sweep_new(&s, tr, 1, &o, &d) == SR_OK && s != NULL);
	CHECK(sr_sweep_units(s) == 2);
	CHECK(sr_sweep_load(s, &d) != SR_OK && strstr(d.msg, "no such preset or file"));
	sr_sweep_free(s);
	CHECK(sr_sweep_open_plan(&s, at("no-plan"), &o, &d) == SR_ERR_IO && s == NULL);
}

static void sweep_rows_in_order(void)
{
	struct sr_sweep_progress p1, p2;
	const char *a = at("a.jsonl"), *b = at("b.jsonl");
	char *text;

	CHECK(sweep_to(a, 1, 0, &p1) == SR_OK);
	CHECK(p1.total == 4 && p1.done == 4 && p1.failed == 2 && p1.events > 0);
	CHECK(sweep_to(b, 2, 0, &p2) == SR_OK);
	CHECK(p2.total == 4 && p2.failed == 2 && p2.events == p1.events);
	/* 2 traces x 2 machines x 4 policies, the same bytes on two threads. */
	CHECK(lines(a) == 16);
	CHECK(same_file(a, b));
	text = slurp(a, NULL);
	CHECK(text && !strncmp(text, "{\"unit\": 0, \"tool_version\": ", 27));
	CHECK(text && strstr(text, "\"status\": \"error\"") && strstr(text, "\"status\": \"ok\""));
	free(text);
	/* An existing output is refused without resume. */
	CHECK(sweep_to(b, 1, 0, &p2) == SR_ERR_INVAL);
	CHECK(same_file(a, b));
}

static void sweep_resume(void)
{
	struct sr_sweep_progress p;
	const char *a = at("a.jsonl"), *c = at("c.jsonl");
	char *text = slurp(a, NULL), *cut;
	size_t n;

	CHECK(text != NULL);
	if (!text)
		return;
	/* The first row and a half, as a kill would leave them. */
	cut = strchr(text, '\n');
	n = cut ? (size_t)(cut - text) + 30 : 0;
	text[n] = '\0';
	CHECK(put(c, text) == 0);
	free(text);
	CHECK(sweep_to(c, 2, 1, &p) == SR_OK);
	/* Unit 0 had one row of four: it is replayed for the other three. */
	CHECK(p.total == 4 && p.done == 4);
	CHECK(lines(c) == 16);
	/* Resumed again: only the units in error are replayed again, and
	 * their rows replaced. */
	CHECK(sweep_to(c, 2, 1, &p) == SR_OK && p.total == 2 && p.failed == 2);
	CHECK(lines(c) == 16);
	CHECK(same_file(c, a));
}

static void count_problem(void *ctx, const struct sr_sweep_problem *p)
{
	size_t *missing = ctx;

	if (p->kind == SR_SWEEP_MISSING && p->want == 4)
		(*missing)++;
}

static void sweep_plan_and_merge(void)
{
	const char *in[] = { at("tr") };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep_progress p;
	struct sr_sweep_merge_counts c;
	struct sr_sweep_merge *m;
	struct sr_sweep *s;
	struct sr_diag d;
	size_t missing = 0;
	uint64_t k;

	CHECK(sr_sweep_new(&s, in, 1, &o, &d) == SR_OK);
	CHECK(sr_sweep_load(s, &d) == SR_OK);
	CHECK(sr_sweep_write_plan(s, at("plan.jsonl"), &d) == SR_OK);
	sr_sweep_free(s);
	CHECK(lines(at("plan.jsonl")) == 4);
	for (k = 0; k < 2; k++) {
		memset(&ro, 0, sizeof(ro));
		ro.output = at(k ? "s1.jsonl" : "s0.jsonl");
		ro.nshards = 2;
		ro.shard = k;
		ro.jobs = 1;
		CHECK(sr_sweep_open_plan(&s, at("plan.jsonl"), &o, &d) == SR_OK);
		CHECK(sr_sweep_load(s, &d) == SR_OK);
		CHECK(run(s, &ro, &p) == SR_OK && p.total == 2);
		sr_sweep_free(s);
	}
	/* Both shards, in any order: the whole sweep's bytes. */
	CHECK(sr_sweep_merge_new(&m, SR_SWEEP_JSONL, &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("s1.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("s0.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_plan(m, at("plan.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_check(m, NULL, NULL, &c, &d) == SR_OK);
	CHECK(c.doubled == 0 && c.missing == 0 && c.stray == 0);
	CHECK(sr_sweep_merge_write(m, at("m.jsonl"), &d) == SR_OK);
	CHECK(same_file(at("m.jsonl"), at("a.jsonl")));
	sr_sweep_merge_free(m);
	/* One shard and a doubled file: two units missing, rows doubled, nothing written. */
	CHECK(sr_sweep_merge_new(&m, SR_SWEEP_JSONL, &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("s0.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("s0.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_plan(m, at("plan.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_check(m, count_problem, &missing, &c, &d) == SR_ERR_FORMAT);
	/* (Rows in error doubled are not: the one read last stands.) */
	CHECK(missing == 2 && c.missing == 2 && c.doubled == 4 && c.stray == 0);
	CHECK(sr_sweep_merge_write(m, at("bad.jsonl"), &d) == SR_ERR_INVAL);
	CHECK(access(at("bad.jsonl"), F_OK) != 0);
	sr_sweep_merge_free(m);
	/* A file that is not one of results. */
	CHECK(sr_sweep_merge_new(&m, SR_SWEEP_JSONL, &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("tr/t1.csv"), &d) == SR_ERR_FORMAT && d.line == 1);
	sr_sweep_merge_free(m);
}

static void sweep_summary(void)
{
	const char *in[] = { at("tr/t1.csv") };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep_progress p;
	struct sr_sweep *s;
	FILE *f = tmpfile(), *null = fopen("/dev/null", "w");
	char buf[256] = "";

	memset(&ro, 0, sizeof(ro));
	ro.fd = fileno(null);
	CHECK(f && null);
	if (!f || !null)
		return;
	CHECK(sr_sweep_new(&s, in, 1, &o, NULL) == SR_OK);
	CHECK(sr_sweep_load(s, NULL) == SR_OK);
	CHECK(run(s, &ro, &p) == SR_OK && p.total == 2 && p.failed == 0);
	/* The rows went to a descriptor: the summary is of this run's. */
	CHECK(sr_sweep_write_summary(s, f, NULL) == SR_OK);
	rewind(f);
	/* Per machine, in name order: one trace on each. */
	CHECK(fgets(buf, sizeof(buf), f) && !strcmp(buf, "machine 2s-nvme2: 1 trace, 0 failed\n"));
	sr_sweep_free(s);
	fclose(f);
	fclose(null);
}

/*
 * --noise on the bundled sample (traces/sample.csv.zst, from the
 * repository's top folder) on 2s-nvme2 with kernel 6.2 (on 6.6 the shadow
 * nodes' list_lru, docs/MODEL.md E3, puts them beyond their noise):
 * page-nid-strict and hybrid are 0.248 % slower, within their timing
 * noise of 1.689 % over 4 replicas
 * (auto, from the trace's size, as replay's); the rows say so, and the
 * summary gives no policy the unit's win: all tie, and the median and
 * worst of those within their noise are 0.
 */
static void sweep_noise(void)
{
	const char *in[] = { "traces/sample.csv.zst" };
	const char *m[] = { "2s-nvme2" };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep_progress p;
	struct sr_sweep *s;
	FILE *f = tmpfile();
	char *rows, buf[256], line[4][160];
	int k;

	memset(&ro, 0, sizeof(ro));
	ro.output = at("noise.jsonl");
	o.machines = m;
	o.nmachines = 1;
	o.noise = SR_SWEEP_NOISE_AUTO;
	o.kernel = "6.2";
	o.plug = 1; /* as the command line's default */
	CHECK(f != NULL);
	if (!f || access(in[0], R_OK))
		return; /* not run from the repository's top folder */
	CHECK(sr_sweep_new(&s, in, 1, &o, NULL) == SR_OK);
	CHECK(sr_sweep_load(s, NULL) == SR_OK);
	CHECK(run(s, &ro, &p) == SR_OK && p.total == 1 && p.failed == 0);
	rows = slurp(at("noise.jsonl"), NULL);
	CHECK(rows && strstr(rows, "\"policy\": \"hybrid\"") &&
	      strstr(rows, "\"noise\": \"auto\", \"noise_jitter_ns\": 1000,"));
	CHECK(rows && strstr(rows, "\"delta_pct\": -0.248, ") &&
	      strstr(rows, "\"noise_replicas\": 4, \"delta_noise_pct\": 1.689, "
			   "\"delta_in_noise\": true, \"schema\""));
	free(rows);
	CHECK(sr_sweep_write_summary(s, f, NULL) == SR_OK);
	rewind(f);
	CHECK(fgets(buf, sizeof(buf), f) && !strcmp(buf, "machine 2s-nvme2: 1 trace, 0 failed\n"));
	CHECK(fgets(buf, sizeof(buf), f) && strstr(buf, " won  tied noise "));
	snprintf(line[0], sizeof(line[0]), "  %-22s %5d %5d %5d %+10.2f%% %+10.2f%%\n",
		 "reclaimer-nid", 0, 1, 0, 0.0, 0.0);
	snprintf(line[1], sizeof(line[1]), "  %-22s %5d %5d %5d %+10.2f%% %+10.2f%%\n",
		 "page-nid", 0, 1, 0, 0.0, 0.0);
	snprintf(line[2], sizeof(line[2]), "  %-22s %5d %5d %5d %+10.2f%% %+10.2f%%\n",
		 "page-nid-strict", 0, 1, 1, 0.0, 0.0);
	snprintf(line[3], sizeof(line[3]), "  %-22s %5d %5d %5d %+10.2f%% %+10.2f%%\n",
		 "hybrid", 0, 1, 1, 0.0, 0.0);
	for (k = 0; k < 4; k++)
		CHECK(fgets(buf, sizeof(buf), f) && !strcmp(buf, line[k]));
	CHECK(fgets(buf, sizeof(buf), f) && strstr(buf, SR_WITHIN_NOISE));
	sr_sweep_free(s);
	fclose(f);
}

/* An output is taken for a run: a second sweep on it fails at once. */
static void sweep_output_taken(void)
{
	const char *in[] = { at("tr/t1.csv") };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep *a, *b;
	struct sr_diag d;

	memset(&ro, 0, sizeof(ro));
	ro.output = at("taken.jsonl");
	ro.jobs = 1;
	CHECK(sr_sweep_new(&a, in, 1, &o, &d) == SR_OK && sr_sweep_load(a, &d) == SR_OK);
	CHECK(sr_sweep_new(&b, in, 1, &o, &d) == SR_OK && sr_sweep_load(b, &d) == SR_OK);
	CHECK(sr_sweep_prepare(a, &ro, &d) == SR_OK);
	CHECK(access(at("taken.jsonl"), F_OK) == 0);
	ro.resume = 1;
	CHECK(sr_sweep_prepare(b, &ro, &d) == SR_ERR_IO && strstr(d.msg, "being written by another sweep"));
	sr_sweep_free(b);
	sr_sweep_free(a);
	/* Let go with its sweep: the next one takes it. */
	CHECK(sr_sweep_new(&b, in, 1, &o, &d) == SR_OK && sr_sweep_load(b, &d) == SR_OK);
	CHECK(sr_sweep_prepare(b, &ro, &d) == SR_OK);
	sr_sweep_free(b);
}

/* What the library says it left out, and what a resume found. */
static void sweep_skipped_and_resumed(void)
{
	char skdir[600];
	const char *in[] = { skdir };
	struct sr_sweep_opts o = opts();
	struct sr_sweep_run_opts ro;
	struct sr_sweep_progress p;
	struct sr_sweep_resumed rs;
	struct sr_sweep_state st;
	const struct sr_sweep_skip *sk;
	struct sr_sweep *s;
	struct sr_diag d;
	char *text, *cut;
	size_t n;

	snprintf(skdir, sizeof(skdir), "%s", at("sk")); /* at() reuses its buffers */
	CHECK(mkdir(skdir, 0777) == 0);
	text = slurp(at("tr/t1.csv"), NULL);
	CHECK(text && put(at("sk/t1.csv"), text) == 0);
	free(text);
	CHECK(put(at("sk/m.json"), "{\n  \"schema\": \"swapreplay-machine/1\",\n  \"name\": \"x\"\n}\n") == 0);
	CHECK(put(at("sk/bad.csv"), "garbage\n") == 0);
	memset(&ro, 0, sizeof(ro));
	ro.output = at("sk/out.jsonl");
	ro.jobs = 1;
	CHECK(sr_sweep_new(&s, in, 1, &o, &d) == SR_OK);
	sk = sr_sweep_skipped(s, &n);
	CHECK(n == 1 && sk && !strcmp(sk[0].path, at("sk/m.json")) &&
	      !strcmp(sk[0].why, "a machine description"));
	CHECK(sr_sweep_units(s) == 4);
	CHECK(sr_sweep_load(s, &d) == SR_OK && run(s, &ro, &p) == SR_OK && p.failed == 2);
	sr_sweep_state(s, &st);
	CHECK(st.units == 4 && st.failed == 2);
	sr_sweep_free(s);
	/* The output is in the directory now: left out by its content; the
	 * last row cut short; the rows in error replayed again. */
	text = slurp(at("sk/out.jsonl"), &n);
	CHECK(text && n > 40);
	if (!text)
		return;
	cut = text + n - 40;
	*cut = '\0';
	CHECK(put(at("sk/out.jsonl"), text) == 0);
	free(text);
	ro.resume = 1;
	CHECK(sr_sweep_new(&s, in, 1, &o, &d) == SR_OK && sr_sweep_load(s, &d) == SR_OK);
	CHECK(sr_sweep_prepare(s, &ro, &d) == SR_OK);
	sk = sr_sweep_skipped(s, &n);
	CHECK(n == 2 && !strcmp(sk[0].why, "a machine description") &&
	      !strcmp(sk[1].path, at("sk/out.jsonl")) && !strcmp(sk[1].why, "a sweep's result file"));
	sr_sweep_resumed(s, &rs);
	CHECK(rs.rows == 15 && rs.cut_line == 16 && rs.retried == 8 && !rs.no_final_nl);
	CHECK(sr_sweep_start(s, &d) == SR_OK);
	sr_sweep_progress(s, &p);
	while (p.done < p.total)
		CHECK(sr_sweep_next(s, &p, &d) == SR_OK);
	CHECK(sr_sweep_finish(s, &d) == SR_OK);
	/* The two units in error, and the one whose last row was cut. */
	CHECK(p.total == 3 && p.failed == 2);
	sr_sweep_state(s, &st);
	CHECK(st.units == 4 && st.failed == 2);
	CHECK(lines(at("sk/out.jsonl")) == 16);
	sr_sweep_free(s);
}

struct seen {
	size_t foreign, cut, missing;
	char file[300];
	uint64_t line;
};

static void note_problem(void *ctx, const struct sr_sweep_problem *p)
{
	struct seen *n = ctx;

	if (p->kind == SR_SWEEP_FOREIGN && !n->foreign++) {
		snprintf(n->file, sizeof(n->file), "%s", p->file);
		n->line = p->line;
	}
	n->cut += p->kind == SR_SWEEP_CUT;
	n->missing += p->kind == SR_SWEEP_MISSING;
}

/* A merge names rows of another sweep and rows cut short. */
static void sweep_merge_foreign_and_cut(void)
{
	struct sr_sweep_merge_counts c;
	struct sr_sweep_merge *m;
	struct seen seen;
	struct sr_diag d;
	char *text, *p;
	size_t n;

	/* a.jsonl with its unit 1 rows said to be on another trace. */
	text = slurp(at("a.jsonl"), &n);
	CHECK(text != NULL);
	if (!text)
		return;
	p = strstr(text, "{\"unit\": 1,");
	CHECK(p && strstr(p, "t1.csv\""));
	if (p && (p = strstr(p, "t1.csv\"")))
		memcpy(p, "t9", 2);
	CHECK(put(at("foreign.jsonl"), text) == 0);
	free(text);
	text = slurp(at("a.jsonl"), &n);
	CHECK(text && n > 30);
	if (!text)
		return;
	text[n - 30] = '\0';
	CHECK(put(at("cut.jsonl"), text) == 0);
	free(text);
	memset(&seen, 0, sizeof(seen));
	CHECK(sr_sweep_merge_new(&m, SR_SWEEP_JSONL, &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("foreign.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_plan(m, at("plan.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_check(m, note_problem, &seen, &c, &d) == SR_ERR_FORMAT);
	CHECK(c.foreign == 1 && seen.foreign == 1 && seen.line == 5 &&
	      !strcmp(seen.file, at("foreign.jsonl")));
	CHECK(c.missing == 1 && seen.missing == 1);
	sr_sweep_merge_free(m);
	memset(&seen, 0, sizeof(seen));
	CHECK(sr_sweep_merge_new(&m, SR_SWEEP_JSONL, &d) == SR_OK);
	CHECK(sr_sweep_merge_add(m, at("cut.jsonl"), &d) == SR_OK);
	CHECK(sr_sweep_merge_check(m, note_problem, &seen, &c, &d) == SR_ERR_FORMAT);
	CHECK(c.cut == 1 && seen.cut == 1 && c.foreign == 0);
	CHECK(sr_sweep_merge_write(m, at("cutm.jsonl"), &d) == SR_ERR_INVAL);
	sr_sweep_merge_free(m);
}

/* The traces: one that replays, one that does not. */
static void sweep_setup(void)
{
	CHECK(mkdtemp(dir) != NULL);
	CHECK(mkdir(at("tr"), 0777) == 0);
	CHECK(mkdir(at("empty"), 0777) == 0);
	CHECK(put(at("comments"), "# nothing\n\n") == 0);
	CHECK(put(at("tr/t1.csv"),
		  "ts_ns,op,pid,cpu,cpu_nid,page_nid,offset\n"
		  "1000,out,1,0,0,0,1\n2000,out,1,0,0,1,2\n3000,out,2,1,1,1,3\n"
		  "4000,in,1,0,0,0,1\n5000,in,2,1,1,1,3\n6000,out,2,1,1,0,4\n"
		  "7000,in,1,0,0,1,2\n8000,in,2,1,1,0,4\n") == 0);
	CHECK(put(at("tr/t2-bad.csv"), "garbage\n") == 0);
}

static void sweep_cleanup(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

void suite_sweep(void)
{
	TEST(sweep_setup);
	TEST(sweep_fmt);
	TEST(sweep_setup_errors);
	TEST(sweep_rows_in_order);
	TEST(sweep_resume);
	TEST(sweep_plan_and_merge);
	TEST(sweep_summary);
	TEST(sweep_noise);
	TEST(sweep_output_taken);
	TEST(sweep_skipped_and_resumed);
	TEST(sweep_merge_foreign_and_cut);
	TEST(sweep_cleanup);
}
