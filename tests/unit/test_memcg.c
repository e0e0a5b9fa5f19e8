/* Memory cgroups in traces (traces/FORMAT.md, "Memory cgroups"): the
 * memcg of each swap event and the paths, once per trace, through every
 * writer and reader; the checks and their messages; stat's counts and
 * gen's groups. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/quote.h"
#include "trace/fields.h"
#include "swapreplay/gen.h"
#include "swapreplay/stat.h"
#include "swapreplay/trace.h"
#include "test.h"

#define NEV 5000

/* n swap events (and a task op every 97th), every third with memcg
 * 1 + (i / 3) % 300 (the ids 1 to 300), the others none. */
static void make_events(struct sr_event *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sr_event_init(&e[i]);
		e[i].ts_ns = 1000 * i;
		e[i].pid = 1 + i % 7;
		if (i % 97 == 96) {
			e[i].op = SR_OP_EXIT;
			continue;
		}
		e[i].op = (i / 5) & 1;
		e[i].dev = 0;
		e[i].offset = i;
		e[i].flags = SR_EV_HAS_OFFSET;
		if (i % 3 == 0)
			e[i].memcg = (uint16_t)(1 + (i / 3) % 300);
	}
	e[3].memcg = SR_MEMCG_MAX;
}

/* The paths: each id named /g/ID, but 7 (none) and 12, with a comma and a
 * quote; SR_MEMCG_MAX with the longest path there is. */
static struct sr_memcgs *make_names(void)
{
	static char longest[SR_MEMCG_PATH_MAX + 1];
	struct sr_memcgs *m;
	char p[64], msg[300];
	unsigned id;
	int bad = 0;

	if (sr_memcgs_new(&m))
		return NULL;
	for (id = 1; id <= 300; id++) {
		if (id == 7)
			continue;
		if (id == 12)
			snprintf(p, sizeof(p), "/a,b/\"q\"/%u", id);
		else if (id == 13)
			snprintf(p, sizeof(p), "/space at the end/%u ", id);
		else if (id == 14)
			snprintf(p, sizeof(p), "/utf-8 \xc3\xa9t\xc3\xa9/%u", id);
		else
			snprintf(p, sizeof(p), "/g/%u", id);
		bad |= sr_memcgs_set(m, id, p, strlen(p), msg, sizeof(msg));
	}
	memset(longest, 'x', SR_MEMCG_PATH_MAX);
	longest[0] = '/';
	bad |= sr_memcgs_set(m, SR_MEMCG_MAX, longest, SR_MEMCG_PATH_MAX, msg, sizeof(msg));
	if (bad) {
		sr_memcgs_free(m);
		return NULL;
	}
	return m;
}

/* Every format, plain and zstd, gives back each event's memcg and every
 * path named; .swt is version 5, its records 64 bytes. */
static void memcg_all_formats(void)
{
	static struct sr_event ev[NEV], got[NEV + 1];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "m.csv" },
		{ SR_FMT_CSV, 3, "m.csv.zst" },
		{ SR_FMT_JSONL, 0, "m.jsonl" },
		{ SR_FMT_JSONL, 1, "m.jsonl.zst" },
		{ SR_FMT_SWT, 0, "m.swt" },
		{ SR_FMT_SWT, 5, "m.swt.zst" },
	};
	struct sr_memcgs *names = make_names();
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	size_t c;

	CHECK(names != NULL);
	if (!names)
		return;
	make_events(ev, NEV);
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sr_write_opts wo = { .format = cases[c].f, .zstd_level = cases[c].level,
					    .memcgs = names };
		struct sr_writer *w;
		struct sr_reader *r;
		struct sr_diag d;
		size_t n = 0, k, i, same = 0;
		unsigned id, paths = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(sr_writer_open(&w, path, &wo, &d) == SR_OK);
		/* In batches of 333: the first memcg comes in the first batch,
		 * the columns after the CSV's header was written. */
		for (i = 0; i < NEV; i += 333)
			if (sr_writer_write(w, ev + i, NEV - i < 333 ? NEV - i : 333, &d))
				break;
		CHECK(i >= NEV);
		if (i < NEV) {
			printf("  write: %s\n", d.msg);
			sr_writer_abort(w);
			continue;
		}
		CHECK(sr_writer_finish(w, &d) == SR_OK);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		CHECK(sr_reader_may_memcg(r) == (cases[c].f != SR_FMT_JSONL));
		while (sr_reader_read(r, got + n, NEV + 1 - n, &k, &d) == SR_OK && k)
			n += k;
		CHECK(n == NEV);
		for (i = 0; i < n && i < NEV; i++)
			same += got[i].memcg == ev[i].memcg && got[i].op == ev[i].op &&
				got[i].ts_ns == ev[i].ts_ns;
		CHECK(same == NEV);
		for (id = 1; id <= SR_MEMCG_MAX; id++) {
			const char *a = sr_memcgs_path(names, id), *b = sr_memcgs_path(sr_reader_memcgs(r), id);

			paths += (!a && !b) || (a && b && !strcmp(a, b));
		}
		/* Every id the events have and the table names: 299 of 1-300
		 * (not 7) and 65535. */
		CHECK(paths == SR_MEMCG_MAX && sr_memcgs_count(sr_reader_memcgs(r)) == 300);
		CHECK(sr_memcgs_path(sr_reader_memcgs(r), 12) &&
		      !strcmp(sr_memcgs_path(sr_reader_memcgs(r), 12), "/a,b/\"q\"/12"));
		CHECK(sr_memcgs_path(sr_reader_memcgs(r), 13) &&
		      !strcmp(sr_memcgs_path(sr_reader_memcgs(r), 13), "/space at the end/13 "));
		sr_reader_close(r);
		if (cases[c].f == SR_FMT_SWT && !cases[c].level) {
			FILE *f = fopen(path, "rb");
			unsigned char h[16] = { 0 };

			CHECK(f && fread(h, 1, 16, f) == 16 && h[8] == 5 && h[12] == 64);
			if (f)
				fclose(f);
		}
		unlink(path);
	}
	sr_memcgs_free(names);
	rmdir(dir);
}

/* What a CSV row with memcg_path is read as: (line, 0 ok or the message). */
static const char *csv_one(const char *dir, const char *rows, struct sr_reader **keep)
{
	static char msg[600];
	char path[256];
	struct sr_reader *r;
	struct sr_diag d;
	struct sr_event e[4];
	size_t n;
	FILE *f;
	enum sr_err err;

	snprintf(path, sizeof(path), "%s/one.csv", dir);
	f = fopen(path, "w");
	if (!f)
		return "no file";
	fprintf(f, "ts_ns,op,pid,cpu_nid,page_nid,dev,offset,child,memcg,memcg_path\n%s", rows);
	fclose(f);
	if (sr_reader_open(&r, path, NULL, &d))
		return "no reader";
	do
		err = sr_reader_read(r, e, 4, &n, &d);
	while (!err && n);
	snprintf(msg, sizeof(msg), "%s", err ? d.msg : "");
	if (keep)
		*keep = r;
	else
		sr_reader_close(r);
	unlink(path);
	return msg;
}

/* Each rule, with its message naming the field. */
static void memcg_checks(void)
{
	static const struct { const char *rows; const char *msg; } cases[] = {
		{ "1,out,1,0,0,0,5,,9,/a\n2,in,1,0,0,0,5,,9,\n", "" },
		{ "1,out,1,0,0,0,5,,9,/a\n2,in,1,0,0,0,5,,9,/a\n", "" },
		{ "1,out,1,0,0,0,5,,0,\n",
		  "memcg id out of range 1 to 65535 (the kernel's mem_cgroup_id(); leave it empty "
		  "when unknown) (memcg, \"0\")" },
		{ "1,out,1,0,0,0,5,,65536,\n",
		  "memcg id out of range 1 to 65535 (the kernel's mem_cgroup_id(); leave it empty "
		  "when unknown) (memcg, \"65536\")" },
		{ "1,fork,1,0,0,,,2,4,\n", "fork has no memcg: a task op moves no page (memcg, 4)" },
		{ "1,out,1,0,0,0,5,,,/a\n",
		  "a memcg path needs its memcg (an id from 1 to 65535) (memcg_path, \"/a\")" },
		{ "1,out,1,0,0,0,5,,3,a/b\n",
		  "a memcg path starts with '/' (its cgroup's path from the root of the hierarchy, "
		  "as /proc/PID/cgroup gives it) (memcg_path, \"a/b\")" },
		{ "1,out,1,0,0,0,5,,3,/a\n2,out,1,0,0,0,6,,3,/b\n",
		  "memcg 3 was named /a earlier: one path per memcg in a trace (memcg_path, \"/b\")" },
		{ "1,out,1,0,0,0,5,,3,\"/a\tb\"\n",
		  "memcg path with a control byte (memcg_path, \"/a?b\")" },
		{ "1,out,1,0,0,0,5,,3,/a\xff\xfe\n",
		  "memcg path not in UTF-8 (memcg_path, \"/a??\")" },
		{ "1,out,1,0,0,0,5,,3,/\xc0\xaf\n",
		  "memcg path not in UTF-8 (memcg_path, \"/??\")" },
		{ "1,out,1,0,0,0,5,,3,/\xed\xa0\x80\n",
		  "memcg path not in UTF-8 (memcg_path, \"/???\")" },
		{ "1,out,1,0,0,0,5,,3,/\xe6\x97\xa5\n", "" },
	};
	char dir[] = "/tmp/sr-unit-XXXXXX";
	struct sr_reader *r = NULL;
	size_t i;

	CHECK(mkdtemp(dir) != NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = csv_one(dir, cases[i].rows, NULL);

		test_name = cases[i].rows;
		CHECK(!strcmp(got, cases[i].msg));
		if (strcmp(got, cases[i].msg))
			printf("  got: %s\n", got);
	}
	test_name = "memcg_checks";
	CHECK(!strcmp(csv_one(dir, "1,out,1,0,0,0,5,,9,\"/x,y\"\"z\"\n", &r), ""));
	CHECK(r && sr_memcgs_path(sr_reader_memcgs(r), 9) &&
	      !strcmp(sr_memcgs_path(sr_reader_memcgs(r), 9), "/x,y\"z"));
	CHECK(r && sr_memcgs_path(sr_reader_memcgs(r), 8) == NULL);
	sr_reader_close(r);
	rmdir(dir);
}

/*
 * The binary format: a version 4 file whose bytes 46-47 are not 0 is
 * refused; a version 5 name record cut short and one whose path is too
 * long are bad records, the second skipped under --max-errors with the
 * events after it read.
 */
static void swt_memcg_v5(void)
{
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_memcgs *names = NULL;
	struct sr_event e[2], got[4];
	struct sr_reader *r;
	struct sr_diag d;
	char msg[300];
	size_t n;
	FILE *f;
	long size;

	CHECK(mkdtemp(dir) != NULL && sr_memcgs_new(&names) == SR_OK);
	CHECK(sr_memcgs_set(names, 4, "/four", 5, msg, sizeof(msg)) == 0);
	snprintf(path, sizeof(path), "%s/v.swt", dir);
	sr_event_init(&e[0]);
	e[0].op = SR_OP_OUT;
	e[0].memcg = 4;
	sr_event_init(&e[1]);
	e[1].op = SR_OP_IN;
	e[1].ts_ns = 5;
	e[1].memcg = 4;
	{
		struct sr_write_opts wo = { .format = SR_FMT_SWT, .memcgs = names };
		struct sr_writer *w;

		CHECK(sr_writer_open(&w, path, &wo, &d) == SR_OK &&
		      sr_writer_write(w, e, 2, &d) == SR_OK && sr_writer_finish(w, &d) == SR_OK);
	}
	/* header 32, name record 64 + its path 64, two events of 64 */
	f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (!f)
		goto out;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	CHECK(size == 32 + 128 + 128);
	/* As version 4: the name record's op is unknown there. */
	fseek(f, 8, SEEK_SET);
	fputc(4, f);
	fflush(f);
	CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
	CHECK(sr_reader_read(r, got, 4, &n, &d) == SR_ERR_FORMAT && n == 0);
	CHECK(!strcmp(d.msg, "reserved bytes 46-47 not 0 (memcg, 4; memcg is version 5's)"));
	sr_reader_close(r);
	/* Version 5, the path's length 5000: a bad record, skipped. */
	fseek(f, 8, SEEK_SET);
	fputc(5, f);
	fseek(f, 32 + 16, SEEK_SET);
	fputc(5000 & 0xff, f);
	fputc(5000 >> 8, f);
	fflush(f);
	{
		/* Its path's record is then read as a record: a bad one too. */
		struct sr_read_opts ro = { .max_errors = 2 };

		CHECK(sr_reader_open(&r, path, &ro, &d) == SR_OK);
		CHECK(sr_reader_read(r, got, 4, &n, &d) == SR_OK && n == 2);
		CHECK(got[0].memcg == 4 && got[1].memcg == 4 && got[1].ts_ns == 5);
		CHECK(sr_reader_stats(r)->skipped == 2 &&
		      strstr(sr_reader_stats(r)->first_skip, "byte 32, record 1: name record with a "
			     "path of 5000 bytes (lat_ns; 1 to 4095)") != NULL);
		if (!strstr(sr_reader_stats(r)->first_skip, "record 1: name record"))
			printf("  first_skip: %s\n", sr_reader_stats(r)->first_skip);
		CHECK(sr_memcgs_path(sr_reader_memcgs(r), 4) == NULL);
		sr_reader_close(r);
	}
	fclose(f);
	f = NULL;
	/* The length back to 5, then cut inside the path: "truncated name
	 * record". */
	f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (f) {
		fseek(f, 32 + 16, SEEK_SET);
		fputc(5, f);
		fputc(0, f);
		/* A byte in the path's padding: no name record of the format. */
		fseek(f, 32 + 64 + 5, SEEK_SET);
		fputc('z', f);
		fclose(f);
	}
	{
		struct sr_read_opts ro = { .max_errors = 2 };

		CHECK(sr_reader_open(&r, path, &ro, &d) == SR_OK);
		CHECK(sr_reader_read(r, got, 4, &n, &d) == SR_OK && n == 2 &&
		      sr_reader_stats(r)->skipped == 1 &&
		      strstr(sr_reader_stats(r)->first_skip, "name record with a byte not 0 in the "
			     "path's padding (byte 69)") != NULL);
		CHECK(sr_memcgs_path(sr_reader_memcgs(r), 4) == NULL);
		sr_reader_close(r);
	}
	CHECK(truncate(path, 32 + 64 + 10) == 0);
	CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
	CHECK(sr_reader_read(r, got, 4, &n, &d) == SR_ERR_FORMAT && n == 0);
	CHECK(!strcmp(d.msg, "truncated name record (74 of 128 bytes with its path)"));
	sr_reader_close(r);
out:
	unlink(path);
	sr_memcgs_free(names);
	rmdir(dir);
}

/*
 * A first memcg 3000 events in, in a CSV and a .swt begun without: the
 * output is written again (memcg columns, version 5) and every path goes
 * with its memcg's first event; standard output begun without refuses it.
 */
static void memcg_late(void)
{
	static struct sr_event ev[NEV];
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_memcgs *names = NULL;
	char msg[300];
	size_t i, c;

	CHECK(mkdtemp(dir) != NULL && sr_memcgs_new(&names) == SR_OK);
	CHECK(sr_memcgs_set(names, 2, "/late", 5, msg, sizeof(msg)) == 0);
	make_events(ev, NEV);
	for (i = 0; i < NEV; i++)
		ev[i].memcg = i >= 3000 && !sr_op_is_task(ev[i].op) ? 2 : 0;
	for (c = 0; c < 2; c++) {
		struct sr_write_opts wo = { .format = c ? SR_FMT_SWT : SR_FMT_CSV, .memcgs = names };
		struct sr_writer *w;
		struct sr_reader *r;
		struct sr_diag d;
		struct sr_event got[1000];
		size_t n, k = 0, same = 0;

		snprintf(path, sizeof(path), "%s/late.%s", dir, c ? "swt" : "csv");
		test_name = path;
		CHECK(sr_writer_open(&w, path, &wo, &d) == SR_OK);
		for (i = 0; i < NEV; i += 1000)
			CHECK(sr_writer_write(w, ev + i, 1000, &d) == SR_OK);
		CHECK(sr_writer_finish(w, &d) == SR_OK);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		while (sr_reader_read(r, got, 1000, &n, &d) == SR_OK && n)
			for (i = 0; i < n; i++, k++)
				same += k < NEV && got[i].memcg == ev[k].memcg;
		CHECK(k == NEV && same == NEV);
		CHECK(sr_memcgs_path(sr_reader_memcgs(r), 2) &&
		      !strcmp(sr_memcgs_path(sr_reader_memcgs(r), 2), "/late"));
		sr_reader_close(r);
		unlink(path);
		/* /dev/null cannot be written again (begun with the task ops
		 * for .swt, version 3). */
		wo.tasks = 1;
		CHECK(sr_writer_open(&w, "/dev/null", &wo, &d) == SR_OK);
		CHECK(sr_writer_write(w, ev, 1000, &d) == SR_OK);
		CHECK(sr_writer_write(w, ev + 3000, 1000, &d) == SR_ERR_INVAL);
		CHECK(strstr(d.msg, "an event has a memory cgroup (memcg), but this output was "
			  "begun without them") != NULL);
		sr_writer_abort(w);
	}
	sr_memcgs_free(names);
	rmdir(dir);
}

/* stat: pages and events per memcg, the events without one as id 0. */
static void stat_memcg(void)
{
	struct sr_event e[6];
	struct sr_stat_memcg mc[4];
	struct sr_stat *s = sr_stat_new();
	size_t i;

	CHECK(s != NULL);
	if (!s)
		return;
	for (i = 0; i < 6; i++) {
		sr_event_init(&e[i]);
		e[i].op = i < 3 ? SR_OP_OUT : SR_OP_IN;
	}
	/* none first: counted before the first memcg too */
	e[1].memcg = 9;
	e[1].nr_pages = 512;
	e[2].memcg = 3;
	e[3].memcg = 9;
	e[3].nr_pages = 8;
	e[4].memcg = 9;
	CHECK(sr_stat_memcgs(s, mc, 4) == 0);
	CHECK(sr_stat_add(s, e, 6) == SR_OK);
	CHECK(sr_stat_memcgs(s, mc, 4) == 3);
	CHECK(mc[0].id == 0 && mc[0].events[0] == 1 && mc[0].events[1] == 1 &&
	      mc[0].pages[0] == 1 && mc[0].pages[1] == 1);
	CHECK(mc[1].id == 3 && mc[1].events[0] == 1 && mc[1].pages[1] == 0);
	CHECK(mc[2].id == 9 && mc[2].events[0] == 1 && mc[2].events[1] == 2 &&
	      mc[2].pages[0] == 512 && mc[2].pages[1] == 9);
	CHECK(sr_stat_memcgs(s, mc, 1) == 3 && mc[0].id == 0);
	sr_stat_free(s);
}

/*
 * gen --memcg: groups of 1, 2 and the rest (1) of four tasks, ids 1 to 3;
 * each event names its page's memcg, the memcg of the task whose region
 * holds its address (regions of 1 MiB here, 2 MiB aligned and 2 MiB
 * apart from 2^40: 4 MiB from one start to the next, so the address
 * less 2^40 over 4 MiB is the task's index), whoever
 * swapped it; some page is swapped out by another group's task.
 */
static void gen_memcg(void)
{
	static const uint16_t want[4] = { 1, 2, 2, 3 };
	struct sr_gen_memcg groups[3] = { { "/a", 1 }, { "/b", 2 }, { "/c", 0 } };
	struct sr_gen_params p;
	struct sr_gen *g;
	struct sr_diag d;
	struct sr_event ev[512];
	size_t n, i, good = 0, all = 0, other = 0;

	sr_gen_params_init(&p);
	p.tasks = 4;
	p.size = 1 << 20;
	p.limit = 2 << 20;
	p.memcgs = groups;
	p.nmemcgs = 3;
	CHECK(sr_gen_open(&g, &p, &d) == SR_OK);
	if (!g)
		return;
	CHECK(!strcmp(sr_memcgs_path(sr_gen_memcgs(g), 2), "/b") &&
	      sr_memcgs_count(sr_gen_memcgs(g)) == 3);
	while (sr_gen_next(g, ev, 512, &n, &d) == SR_OK && n)
		for (i = 0; i < n; i++) {
			unsigned owner = (unsigned)((ev[i].vaddr - (1ull << 40)) >> 22);

			all++;
			good += owner < 4 && ev[i].memcg == want[owner];
			other += owner < 4 && ev[i].op == SR_OP_OUT &&
				 want[ev[i].pid - 1000] != want[owner];
		}
	CHECK(all > 1000 && good == all && other > 0);
	sr_gen_free(g);
	groups[2].tasks = 2;
	CHECK(sr_gen_open(&g, &p, &d) == SR_ERR_INVAL && !g);
	CHECK(!strcmp(d.msg, "the memcgs' groups take 5 tasks, and there are 4: every group "
		      "takes at least one, and the groups all the tasks"));
}

/* A path as a CSV cell and a JSON string, written where the writer puts
 * them (common/quote.c, the one way of each): quoted for a comma, a quote
 * or a space at either end (libcsv trims one not quoted); JSON escapes the
 * quote and the backslash; the FILE and buffer forms alike. */
static void quote_put(void)
{
	static const struct {
		const char *in, *csv, *json;
	} c[] = {
		{ "/a.slice/x", "/a.slice/x", "\"/a.slice/x\"" },
		{ "/a,b", "\"/a,b\"", "\"/a,b\"" },
		{ "/say \"hi\"", "\"/say \"\"hi\"\"\"", "\"/say \\\"hi\\\"\"" },
		{ "/end ", "\"/end \"", "\"/end \"" },
		{ " /start", "\" /start\"", "\" /start\"" },
		{ "/back\\slash", "/back\\slash", "\"/back\\\\slash\"" },
		{ "/caf\xc3\xa9", "/caf\xc3\xa9", "\"/caf\xc3\xa9\"" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[128], *e, *q;

		e = sr_csv_put(buf, c[i].in);
		*e = '\0';
		q = sr_csv_quote(c[i].in);
		CHECK(!strcmp(buf, c[i].csv) && q && !strcmp(q, c[i].csv));
		free(q);
		e = sr_json_put(buf, c[i].in);
		*e = '\0';
		q = sr_json_quote(c[i].in);
		CHECK(!strcmp(buf, c[i].json) && q && !strcmp(q, c[i].json));
		free(q);
	}
}

void suite_memcg(void)
{
	TEST(quote_put);
	TEST(memcg_all_formats);
	TEST(memcg_checks);
	TEST(swt_memcg_v5);
	TEST(memcg_late);
	TEST(stat_memcg);
	TEST(gen_memcg);
}
