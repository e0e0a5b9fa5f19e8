/* Every writer and reader: the same events through every format, plain
 * and zstd, come back field for field. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/fields.h"
#include "swapreplay/capture.h"
#include "swapreplay/stat.h"
#include "swapreplay/trace.h"
#include "test.h"

#define NEV 20000

static void make_events(struct sr_event *e, size_t n)
{
	size_t i;
	uint64_t x = 88172645463325252ull;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sr_event_init(&e[i]);
		e[i].ts_ns = 1000 * i + (x & 511);
		e[i].op = (x >> 9) & 1;
		e[i].pid = (uint32_t)(x >> 10) & 0xffff;
		if (x & (1u << 30)) {
			e[i].cpu = (uint32_t)(x >> 31) & 0xff;
			e[i].flags |= SR_EV_HAS_CPU;
		}
		e[i].cpu_nid = (uint16_t)((x >> 40) & 1023);
		e[i].page_nid = (uint16_t)((x >> 50) & 1023);
		e[i].dev = (x & (1u << 5)) ? -1 : (int32_t)((x >> 20) & 7);
		if (x & (1u << 6)) {
			e[i].offset = x >> 3;
			e[i].flags |= SR_EV_HAS_OFFSET;
		}
		e[i].nr_pages = 1u << ((x >> 33) % 10);
		e[i].lat_ns = (x >> 44);
	}
	/* The extremes of each field. */
	e[0].pid = UINT32_MAX;
	e[0].cpu = UINT32_MAX;
	e[0].flags |= SR_EV_HAS_CPU;
	e[0].cpu_nid = 1023;
	e[0].dev = INT32_MAX;
	e[0].offset = INT64_MAX;
	e[0].flags |= SR_EV_HAS_OFFSET;
	e[0].nr_pages = 512;
}

static int same(const struct sr_event *a, const struct sr_event *b)
{
	return a->ts_ns == b->ts_ns && a->op == b->op && a->pid == b->pid &&
	       a->flags == b->flags && (!(a->flags & SR_EV_HAS_CPU) || a->cpu == b->cpu) &&
	       a->cpu_nid == b->cpu_nid && a->page_nid == b->page_nid &&
	       a->dev == b->dev && (!(a->flags & SR_EV_HAS_OFFSET) || a->offset == b->offset) &&
	       a->nr_pages == b->nr_pages && a->lat_ns == b->lat_ns &&
	       (!(a->flags & SR_EV_HAS_VADDR) || a->vaddr == b->vaddr) &&
	       (!(a->flags & SR_EV_HAS_CHILD) || a->child == b->child);
}

/* Make e a task op of task pid (not 0): a fork or a wait of child (not 0,
 * not pid), or an exit (child unused); cpu and lat_ns kept. */
static void make_task_op(struct sr_event *e, enum sr_op op, uint32_t pid, uint32_t child)
{
	e->op = (uint8_t)op;
	e->pid = pid;
	e->flags &= SR_EV_HAS_CPU;
	e->offset = 0;
	e->vaddr = 0;
	e->nr_pages = 1;
	e->dev = -1;
	if (op != SR_OP_EXIT) {
		e->child = child;
		e->flags |= SR_EV_HAS_CHILD;
	}
}

/* Write n events to path with options wo, chunk of them per call (a late
 * field's rewrite happens between calls); 0, or -1. */
static int write_chunked(const char *path, const struct sr_write_opts *wo,
			 const struct sr_event *e, size_t n, size_t chunk)
{
	struct sr_writer *w;
	struct sr_diag d;
	size_t i;

	if (sr_writer_open(&w, path, wo, &d))
		return -1;
	for (i = 0; i < n; i += chunk)
		if (sr_writer_write(w, e + i, n - i < chunk ? n - i : chunk, &d)) {
			sr_writer_abort(w);
			return -1;
		}
	return sr_writer_finish(w, &d) ? -1 : 0;
}

static int write_file(const char *path, enum sr_format f, int level,
		      const struct sr_event *e, size_t n, const char *machine)
{
	struct sr_write_opts wo = { .format = f, .zstd_level = level, .machine_json = machine };

	return write_chunked(path, &wo, e, n, n ? n : 1);
}

/* Read path; returns the number of events equal to e[i] in order, or -1. */
static long read_compare(const char *path, const struct sr_event *e, size_t n,
			 enum sr_format want, const char *machine)
{
	struct sr_reader *r;
	struct sr_diag d;
	struct sr_event buf[777]; /* odd batch size on purpose */
	size_t got, k = 0, i;
	long good = 0;

	if (sr_reader_open(&r, path, NULL, &d)) {
		printf("  open %s: %s\n", path, d.msg);
		return -1;
	}
	if (sr_reader_stats(r)->format != want) {
		sr_reader_close(r);
		return -1;
	}
	if (machine && (!sr_reader_machine_json(r) ||
			strcmp(sr_reader_machine_json(r), machine))) {
		sr_reader_close(r);
		return -1;
	}
	for (;;) {
		if (sr_reader_read(r, buf, 777, &got, &d)) {
			printf("  read %s: %s\n", path, d.msg);
			sr_reader_close(r);
			return -1;
		}
		if (!got)
			break;
		for (i = 0; i < got; i++, k++)
			if (k < n && same(&buf[i], &e[k]))
				good++;
	}
	sr_reader_close(r);
	return k == n ? good : -1;
}

static void all_formats(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "t.csv" },
		{ SR_FMT_CSV, 3, "t.csv.zst" },
		{ SR_FMT_JSONL, 0, "t.jsonl" },
		{ SR_FMT_JSONL, 1, "t.jsonl.zst" },
		{ SR_FMT_SWT, 0, "t.swt" },
		{ SR_FMT_SWT, 5, "t.swt.zst" },
	};
	const char *machine = "{\"name\":\"unit-test\"}";
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	size_t c;

	make_events(ev, NEV);
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *m = cases[c].f == SR_FMT_SWT ? machine : NULL;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_file(path, cases[c].f, cases[c].level, ev, NEV, m) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, m) == NEV);
		unlink(path);
	}
	rmdir(dir);
}

static void jsonl_limit(void)
{
	struct sr_event e;
	struct sr_write_opts wo = { .format = SR_FMT_JSONL };
	struct sr_writer *w;
	struct sr_diag d;
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/big.jsonl", dir);
	sr_event_init(&e);
	e.ts_ns = UINT64_MAX;
	CHECK(sr_writer_open(&w, path, &wo, &d) == SR_OK);
	CHECK(sr_writer_write(w, &e, 1, &d) == SR_ERR_LIMIT);
	sr_writer_abort(w);
	CHECK(access(path, F_OK) != 0); /* nothing left behind */
	rmdir(dir);
}

/*
 * A machine description of almost 1 MiB in a swt header: the source's
 * window starts at 128 KiB and must grow to hand it over in one piece,
 * then go on with the events after it.
 */
static void big_header(void)
{
	static struct sr_event ev[NEV];
	const size_t mlen = (1u << 20) - 64;
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	char *m = malloc(mlen + 1);
	int level;

	CHECK(m != NULL);
	if (!m)
		return;
	memset(m, 'x', mlen);
	memcpy(m, "{\"name\":\"", 9);
	memcpy(m + mlen - 2, "\"}", 2);
	m[mlen] = 0;
	make_events(ev, NEV);
	CHECK(mkdtemp(dir) != NULL);
	for (level = 0; level <= 3; level += 3) {
		snprintf(path, sizeof(path), "%s/big%d.swt", dir, level);
		CHECK(write_file(path, SR_FMT_SWT, level, ev, NEV, m) == 0);
		CHECK(read_compare(path, ev, NEV, SR_FMT_SWT, m) == NEV);
		unlink(path);
	}
	rmdir(dir);
	free(m);
}

/*
 * The batch readers test each event with sr_event_valid() and leave a
 * failing one to sr_event_check() for its message: the two must agree on
 * every event.  Each field at and around each of its limits, one at a time
 * and in pairs; every op, the swap events' and the task ops' (fork, exit,
 * wait, whose rules involve pid, child and which flags are set).
 */
static void event_valid_matches_check(void)
{
	static const uint8_t ops[] = { 0, 1, 2, 3, 4, 5, 255 };
	static const uint16_t nids[] = { 0, 1, SR_MAX_NODES - 1, SR_MAX_NODES, 65535 };
	static const uint32_t pages[] = { 0, 1, 2, 3, 256, 511, 512, 513, 1024, 0xffffffffu };
	static const int32_t devs[] = { -2, -1, 0, 5, INT32_MIN, INT32_MAX };
	static const uint8_t flags[] = { 0, SR_EV_HAS_CPU, SR_EV_HAS_OFFSET,
					 SR_EV_HAS_CPU | SR_EV_HAS_OFFSET, 4, 0x80, 0xff,
					 SR_EV_HAS_CHILD, SR_EV_HAS_CHILD | SR_EV_HAS_CPU,
					 SR_EV_HAS_CHILD | SR_EV_HAS_OFFSET,
					 SR_EV_HAS_CHILD | SR_EV_HAS_VADDR, SR_EV_HAS_CHILD | 0x80,
					 SR_EV_HAS_RECLAIM, SR_EV_HAS_RECLAIM | SR_EV_KSWAPD,
					 SR_EV_KSWAPD, SR_EV_HAS_FAULT, SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT,
					 SR_EV_HAS_FAULT | SR_EV_HAS_RECLAIM | SR_EV_HAS_OFFSET,
					 SR_EV_HAS_RECLAIM | SR_EV_WRITE_FAULT | SR_EV_HAS_CPU,
					 SR_EV_HAS_FAULT | SR_EV_KSWAPD,
					 SR_EV_HAS_CHILD | SR_EV_HAS_RECLAIM };
	/* (pid, child): unknown pid; a child of 0; the task itself; another. */
	static const uint32_t pc[][2] = { { 0, 9 }, { 7, 0 }, { 7, 7 }, { 7, 9 } };
	char msg[300];
	size_t a, b, c, f, g, h, k, agree = 0, total = 0, valid = 0, tasks = 0;

	for (a = 0; a < sizeof(ops); a++)
	for (b = 0; b < sizeof(nids) / sizeof(nids[0]); b++)
	for (c = 0; c < sizeof(nids) / sizeof(nids[0]); c++)
	for (f = 0; f < sizeof(pages) / sizeof(pages[0]); f++)
	for (g = 0; g < sizeof(devs) / sizeof(devs[0]); g++)
	for (h = 0; h < sizeof(flags); h++)
	for (k = 0; k < sizeof(pc) / sizeof(pc[0]); k++) {
		struct sr_event e;
		int ok;

		memset(&e, 0, sizeof(e));
		e.op = ops[a];
		e.cpu_nid = nids[b];
		e.page_nid = nids[c];
		e.nr_pages = pages[f];
		e.dev = devs[g];
		e.flags = flags[h];
		e.pid = pc[k][0];
		e.child = pc[k][1];
		ok = sr_event_check(&e, msg, sizeof(msg)) == 0;
		agree += ok == sr_event_valid(&e);
		valid += ok;
		tasks += ok && sr_op_is_task(e.op);
		total++;
	}
	CHECK(agree == total);
	CHECK(valid > 0 && valid < total);
	CHECK(tasks > 0 && tasks < valid);
}

/* The message of sr_event_check() for e, "" if it passes. */
static const char *check_msg(const struct sr_event *e)
{
	static char msg[300];

	if (sr_event_check(e, msg, sizeof(msg)) == 0)
		msg[0] = '\0';
	return msg;
}

/*
 * Each rule of the task ops, with its message naming the field: the values
 * that share their bytes (offset and child) are not shown when both are
 * given, never a garbled one.
 */
static void task_op_checks(void)
{
	struct sr_event e;

	sr_event_init(&e);
	make_task_op(&e, SR_OP_FORK, 7, 9);
	CHECK(!strcmp(check_msg(&e), ""));
	e.flags &= (uint8_t)~SR_EV_HAS_CHILD;
	CHECK(!strcmp(check_msg(&e), "fork needs a child: the task it created (child, none)"));
	make_task_op(&e, SR_OP_WAIT, 7, 7);
	CHECK(!strcmp(check_msg(&e), "wait's child is the task itself (child, 7)"));
	make_task_op(&e, SR_OP_WAIT, 7, 0);
	CHECK(!strcmp(check_msg(&e), "wait needs a child other than 0 (child, 0)"));
	make_task_op(&e, SR_OP_FORK, 0, 9);
	CHECK(!strcmp(check_msg(&e), "fork needs a pid other than 0 (pid, 0)"));
	make_task_op(&e, SR_OP_EXIT, 7, 0);
	CHECK(!strcmp(check_msg(&e), ""));
	e.child = 9;
	e.flags |= SR_EV_HAS_CHILD;
	CHECK(!strcmp(check_msg(&e), "exit has no child: only fork and wait name one (child, 9)"));
	make_task_op(&e, SR_OP_EXIT, 7, 0);
	e.offset = 1ull << 40;
	e.flags |= SR_EV_HAS_OFFSET;
	CHECK(!strcmp(check_msg(&e), "exit has no offset: a task op has no slot (offset, 1099511627776)"));
	e.flags |= SR_EV_HAS_CHILD;
	CHECK(!strcmp(check_msg(&e), "exit has no offset: a task op has no slot (offset, given)"));
	make_task_op(&e, SR_OP_FORK, 7, 9);
	e.vaddr = 4096;
	e.flags |= SR_EV_HAS_VADDR;
	CHECK(!strcmp(check_msg(&e), "fork has no vaddr: a task op has no page (vaddr, 4096)"));
	make_task_op(&e, SR_OP_FORK, 7, 9);
	e.nr_pages = 2;
	CHECK(!strcmp(check_msg(&e), "fork has nr_pages 1 or none: a task op has no page (nr_pages, 2)"));
	make_task_op(&e, SR_OP_FORK, 7, 9);
	e.dev = 0;
	CHECK(!strcmp(check_msg(&e), "fork has dev -1 or none: a task op has no device (dev, 0)"));
	sr_event_init(&e);
	e.op = SR_OP_IN;
	e.child = 3;
	e.flags = SR_EV_HAS_CHILD;
	CHECK(!strcmp(check_msg(&e), "in has no child: only fork and wait name one (child, 3)"));
	e.flags |= SR_EV_HAS_OFFSET;
	CHECK(!strcmp(check_msg(&e), "in has no child: only fork and wait name one (child, given)"));
	e.op = SR_OP_COUNT;
	CHECK(!strcmp(check_msg(&e), "unknown op (op, 5)"));
}

/*
 * Task ops through every writer and reader: forks, exits and waits among
 * the swap events come back field for field (child included), and a trace
 * without them is written as before (.swt version 1); with them, CSV has
 * the child column and .swt is version 3 (64-byte records).
 */
static void tasks_all_formats(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "k.csv" },
		{ SR_FMT_JSONL, 1, "k.jsonl.zst" },
		{ SR_FMT_SWT, 0, "k.swt" },
		{ SR_FMT_SWT, 5, "k.swt.zst" },
	};
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	size_t c, i;

	make_events(ev, NEV);
	for (i = 0; i < NEV; i += 97) {
		uint32_t pid = 1 + (uint32_t)(i % 5000), child = UINT32_MAX - (uint32_t)i;

		make_task_op(&ev[i], (enum sr_op)(SR_OP_FORK + (i / 97) % 3), pid, child);
	}
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sr_reader *r;
		struct sr_diag d;
		struct sr_event one;
		size_t got;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_file(path, cases[c].f, cases[c].level, ev, NEV, NULL) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, NULL) == NEV);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		CHECK(sr_reader_read(r, &one, 1, &got, &d) == SR_OK && got == 1);
		CHECK(sr_reader_may_tasks(r) == (cases[c].f != SR_FMT_JSONL));
		sr_reader_close(r);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * A first task op after thousands of swap events, as the commands write
 * them in batches, after a first vaddr: the output is written again for
 * each (CSV: the vaddr column, then the child column at the first fork;
 * .swt: version 2, then 3 at the first task op, an exit), every event
 * comes back with its own fields.  An output that cannot be written again
 * refuses the task op that needs what it lacks (CSV: a fork, not an exit,
 * which names no child; .swt: an exit), unless told the events may have
 * task ops.
 */
static void tasks_late(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; unsigned v; } cases[] = {
		{ SR_FMT_CSV, 0, "l.csv", 0 },
		{ SR_FMT_CSV, 3, "l.csv.zst", 0 },
		{ SR_FMT_SWT, 0, "l.swt", 3 },
		{ SR_FMT_SWT, 5, "l.swt.zst", 3 },
	};
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_writer *w;
	struct sr_diag d;
	size_t c;

	make_events(ev, NEV);
	ev[NEV - 900].vaddr = 0x7fffdeadb000ull;
	ev[NEV - 900].flags |= SR_EV_HAS_VADDR;
	make_task_op(&ev[NEV - 600], SR_OP_EXIT, 12, 0);
	make_task_op(&ev[NEV - 7], SR_OP_FORK, 12, 13);
	make_task_op(&ev[NEV - 1], SR_OP_WAIT, 12, 13);
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sr_write_opts o = { .format = cases[c].f, .zstd_level = cases[c].level };

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_chunked(path, &o, ev, NEV, 4096) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, NULL) == NEV);
		if (cases[c].v && !cases[c].level) {
			FILE *f = fopen(path, "rb");
			unsigned char h[16] = { 0 };

			CHECK(f && fread(h, 1, 16, f) == 16);
			if (f)
				fclose(f);
			CHECK(h[8] == 3 && h[12] == 64);
		}
		unlink(path);
	}
	rmdir(dir);
	test_name = "tasks_late";
	/* /dev/null is written directly: not to be written again. */
	for (c = 0; c < 2; c++) {
		struct sr_write_opts o = { .format = c ? SR_FMT_SWT : SR_FMT_CSV, .may_vaddr = 1 };

		CHECK(sr_writer_open(&w, "/dev/null", &o, &d) == SR_OK);
		/* CSV: the exit passes (no child), the fork is refused. */
		CHECK(sr_writer_write(w, ev, NEV - 7, &d) == (c ? SR_ERR_INVAL : SR_OK));
		if (!c)
			CHECK(sr_writer_write(w, ev + NEV - 7, 7, &d) == SR_ERR_INVAL);
		CHECK(strstr(d.msg, "is a task op") && strstr(d.msg, "cannot be written again"));
		CHECK(strstr(d.msg, c ? ".swt version 2" : "no child column") != NULL);
		sr_writer_abort(w);
		o.may_tasks = 1;
		CHECK(sr_writer_open(&w, "/dev/null", &o, &d) == SR_OK);
		CHECK(sr_writer_write(w, ev, NEV, &d) == SR_OK);
		CHECK(sr_writer_finish(w, &d) == SR_OK);
	}
}

/*
 * A .swt file of version 1 or 2 cannot hold a task op: op 2 to 4 and flag
 * bit 3 are refused there as before (op 2 was as unknown as op 200), and
 * read in version 3.
 */
static void swt_task_ops_need_v3(void)
{
	struct sr_event e[2];
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_reader *r;
	struct sr_diag d;
	struct sr_event got[2];
	size_t n;
	FILE *f;
	unsigned v;

	sr_event_init(&e[0]);
	e[0].op = SR_OP_OUT;
	sr_event_init(&e[1]);
	make_task_op(&e[1], SR_OP_FORK, 3, 4);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/v.swt", dir);
	for (v = 1; v <= 3; v++) {
		CHECK(write_file(path, SR_FMT_SWT, 0, e, 2, NULL) == 0);
		/* The version-3 file as the lower version says (its records are
		 * 64 bytes, which any version accepts). */
		f = fopen(path, "r+b");
		CHECK(f != NULL);
		if (!f)
			break;
		CHECK(fseek(f, 8, SEEK_SET) == 0 && fputc((int)v, f) == (int)v);
		fclose(f);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		if (v < 3) {
			/* The swap event, then the error (sr_reader_read()). */
			CHECK(sr_reader_read(r, got, 2, &n, &d) == SR_ERR_FORMAT && n == 1);
			CHECK(d.record == 2 && !strcmp(d.msg, "unknown op (op, 2)"));
		} else {
			CHECK(sr_reader_read(r, got, 2, &n, &d) == SR_OK && n == 2);
			CHECK(got[1].op == SR_OP_FORK && got[1].child == 4 && got[1].pid == 3);
		}
		sr_reader_close(r);
	}
	unlink(path);
	rmdir(dir);
}

/*
 * The first vaddr after thousands of events without, in batches as the
 * commands write them: the output is written again with vaddr (CSV
 * column, .swt version 2, plain and zstd, with the machine kept), every
 * event comes back with its own.  An output that cannot be written again
 * (a device) refuses it, unless told the events may carry one.
 */
static void vaddr_late(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "v.csv" },
		{ SR_FMT_CSV, 3, "v.csv.zst" },
		{ SR_FMT_SWT, 0, "v.swt" },
		{ SR_FMT_SWT, 5, "v.swt.zst" },
	};
	const char *machine = "{\"name\":\"unit-test\"}";
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_write_opts wo = { .format = SR_FMT_CSV };
	struct sr_writer *w;
	struct sr_diag d;
	size_t c, i;

	make_events(ev, NEV);
	ev[NEV - 7].vaddr = 0x7fffdeadb000ull;
	ev[NEV - 7].flags |= SR_EV_HAS_VADDR;
	ev[NEV - 1].vaddr = 4096;
	ev[NEV - 1].flags |= SR_EV_HAS_VADDR;
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *m = cases[c].f == SR_FMT_SWT ? machine : NULL;
		struct sr_write_opts o = { .format = cases[c].f, .zstd_level = cases[c].level, .machine_json = m };
		struct sr_reader *r;
		struct sr_event buf[1000];
		size_t got, k = 0, good = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_chunked(path, &o, ev, NEV, 4096) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, m) == NEV);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		CHECK(sr_reader_may_vaddr(r) == 1);
		while (sr_reader_read(r, buf, 1000, &got, &d) == SR_OK && got)
			for (i = 0; i < got; i++, k++)
				good += buf[i].vaddr == ((ev[k].flags & SR_EV_HAS_VADDR) ? ev[k].vaddr : 0);
		sr_reader_close(r);
		CHECK(k == NEV && good == NEV);
		unlink(path);
	}
	rmdir(dir);
	test_name = "vaddr_late";
	/* /dev/null is written directly: not to be written again. */
	CHECK(sr_writer_open(&w, "/dev/null", &wo, &d) == SR_OK);
	CHECK(sr_writer_write(w, ev, NEV, &d) == SR_ERR_INVAL);
	CHECK(strstr(d.msg, "cannot be written again") != NULL);
	sr_writer_abort(w);
	wo.may_vaddr = 1;
	CHECK(sr_writer_open(&w, "/dev/null", &wo, &d) == SR_OK);
	CHECK(sr_writer_write(w, ev, NEV, &d) == SR_OK);
	CHECK(sr_writer_finish(w, &d) == SR_OK);
}

/*
 * An adaptive timeline over spans from 30 ns to 30 hours: its buckets are
 * 1, 2 or 5 x 10^k ns, at most 1 s (but past 100000 of them), at least 50
 * over the span when any width gives that many, and hold every page, each
 * event in the bucket of its time, through the tenfold widenings.
 */
static void timeline_adaptive(void)
{
	static const uint64_t spans[] = { 30, 68242, 999999999, 10000000000ull,
					  3600000000000ull, 108000000000000ull };
	struct sr_event e[1000];
	size_t s, i;

	for (s = 0; s < sizeof(spans) / sizeof(spans[0]); s++) {
		struct sr_timeline *t = sr_timeline_new_auto(1000000000, 50);
		struct sr_timeline_info ti;
		uint64_t w, m, sum = 0, first = 123456789, x = 88172645463325252ull;
		int in_bucket = 1;

		CHECK(t != NULL);
		if (!t)
			return;
		for (i = 0; i < 1000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sr_event_init(&e[i]);
			e[i].ts_ns = first + (i == 999 ? spans[s] : i ? x % spans[s] : 0);
			e[i].op = (uint8_t)(x & 1);
			e[i].nr_pages = 1u << (x >> 60) % 4;
		}
		CHECK(sr_timeline_add(t, e, 500) == SR_OK);
		CHECK(sr_timeline_add(t, e + 500, 500) == SR_OK);
		sr_timeline_get(t, &ti);
		for (w = ti.width_ns; w % 10 == 0; w /= 10)
			;
		CHECK(w == 1 || w == 2 || w == 5);
		CHECK(ti.width_ns <= 1000000000 || ti.buckets >= SR_TIMELINE_MAX_BUCKETS / 10);
		CHECK(ti.buckets >= 50 || ti.width_ns == 1);
		/* The widest that gives 50: 2.5 times wider gives fewer. */
		CHECK(ti.buckets < 50 || ti.width_ns >= 1000000000 || ti.buckets <= 50 * 5 / 2 + 1);
		CHECK(ti.base_ns <= first && first - ti.base_ns < ti.width_ns);
		for (i = 0; i < ti.buckets; i++)
			sum += sr_timeline_pages(t, i, SR_OP_OUT) + sr_timeline_pages(t, i, SR_OP_IN);
		for (i = 0, m = 0; i < 1000; i++)
			m += e[i].nr_pages;
		CHECK(sum == m);
		/* The last event alone at its time: its bucket holds its pages. */
		i = (size_t)((e[999].ts_ns - ti.base_ns) / ti.width_ns);
		in_bucket = sr_timeline_pages(t, i, e[999].op) >= e[999].nr_pages && i + 1 == ti.buckets;
		CHECK(in_bucket);
		sr_timeline_free(t);
	}
}

/*
 * The task ops (fork, exit, wait) are counted apart by sr_stat (task_ops),
 * in nothing else: not the swap events, pages, span, tasks, CPUs, nodes,
 * devices or latencies; and a timeline skips them (its first bucket is
 * the first swap event's).
 */
static void stat_task_ops(void)
{
	struct sr_event e[6];
	struct sr_stat *s = sr_stat_new();
	struct sr_timeline *t = sr_timeline_new(100);
	struct sr_stat_summary m;
	struct sr_timeline_info ti;
	int32_t dev;
	uint64_t count;
	size_t i;

	CHECK(s && t);
	if (!s || !t)
		goto out;
	for (i = 0; i < 6; i++) {
		sr_event_init(&e[i]);
		e[i].ts_ns = 1000 * (i + 1);
		e[i].cpu = 9;
		e[i].flags = SR_EV_HAS_CPU;
		e[i].cpu_nid = 5;
		e[i].page_nid = 6;
		e[i].lat_ns = 77;
	}
	make_task_op(&e[0], SR_OP_FORK, 1, 2);
	make_task_op(&e[1], SR_OP_FORK, 1, 3);
	e[2].op = SR_OP_OUT;
	e[2].pid = 2;
	e[2].cpu = 0;
	e[2].cpu_nid = e[2].page_nid = 0;
	e[2].dev = 0;
	e[2].nr_pages = 4;
	e[2].lat_ns = 0;
	make_task_op(&e[3], SR_OP_EXIT, 2, 0);
	make_task_op(&e[4], SR_OP_WAIT, 1, 2);
	make_task_op(&e[5], SR_OP_EXIT, 3, 0);
	CHECK(sr_stat_add(s, e, 6) == SR_OK);
	sr_stat_summary(s, &m);
	CHECK(m.task_ops[0] == 2 && m.task_ops[1] == 2 && m.task_ops[2] == 1);
	CHECK(m.events[0] == 1 && m.events[1] == 0 && m.pages[0] == 4 && m.huge_events[0] == 1);
	CHECK(m.ts_min == 3000 && m.ts_max == 3000 && m.tasks == 1 && m.cpus == 1);
	CHECK(m.lat_known == 0);
	CHECK(sr_stat_node_events(s, 0, 5) == 0 && sr_stat_node_events(s, 1, 6) == 0);
	CHECK(sr_stat_node_events(s, 0, 0) == 1 && sr_stat_node_events(s, 1, 0) == 1);
	CHECK(sr_stat_devices(s, &dev, &count, 1) == 1 && dev == 0 && count == 1);
	CHECK(sr_timeline_add(t, e, 6) == SR_OK);
	sr_timeline_get(t, &ti);
	CHECK(ti.base_ns == 3000 && ti.buckets == 1);
	CHECK(sr_timeline_pages(t, 0, SR_OP_OUT) == 4 && sr_timeline_pages(t, 0, SR_OP_IN) == 0);
out:
	sr_timeline_free(t);
	sr_stat_free(s);
}

/* Give the swap events of e[0..n) a reclaim (swap-outs) or a fault
 * (swap-ins) in turn: kswapd or write, direct or read, none. */
static void make_ctx(struct sr_event *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (sr_op_is_task(e[i].op) || i % 3 == 2)
			continue;
		if (e[i].op == SR_OP_OUT)
			e[i].flags |= SR_EV_HAS_RECLAIM | (i % 3 ? 0 : SR_EV_KSWAPD);
		else
			e[i].flags |= SR_EV_HAS_FAULT | (i % 3 ? 0 : SR_EV_WRITE_FAULT);
	}
}

/* The version and record size in the header of .swt file path, or 0. */
static unsigned swt_header(const char *path, unsigned *recsize)
{
	FILE *f = fopen(path, "rb");
	unsigned char h[16] = { 0 };
	size_t got = f ? fread(h, 1, 16, f) : 0;

	if (f)
		fclose(f);
	*recsize = got == 16 ? (unsigned)(h[12] | h[13] << 8) : 0;
	return got == 16 ? (unsigned)(h[8] | h[9] << 8) : 0;
}

/*
 * Each rule of reclaim and fault, with its message naming the field: only
 * a swap-out has a reclaim, only a swap-in a fault; a value bit (kswapd,
 * write fault) only with its field's.
 */
static void ctx_checks(void)
{
	struct sr_event e;

	sr_event_init(&e);
	e.op = SR_OP_OUT;
	e.flags = SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
	CHECK(!strcmp(check_msg(&e), ""));
	e.flags = SR_EV_HAS_RECLAIM;
	CHECK(!strcmp(check_msg(&e), ""));
	e.flags = SR_EV_KSWAPD;
	CHECK(!strcmp(check_msg(&e), "flag bit 5 (kswapd) without bit 4 (reclaim) (flags, 0x20)"));
	e.flags = SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT;
	CHECK(!strcmp(check_msg(&e), "out has no fault: only a swap-in (in) has one (fault, write)"));
	e.op = SR_OP_IN;
	CHECK(!strcmp(check_msg(&e), ""));
	e.flags = SR_EV_HAS_FAULT;
	CHECK(!strcmp(check_msg(&e), ""));
	e.flags = SR_EV_WRITE_FAULT;
	CHECK(!strcmp(check_msg(&e), "flag bit 7 (write fault) without bit 6 (fault) (flags, 0x80)"));
	e.flags = SR_EV_HAS_RECLAIM;
	CHECK(!strcmp(check_msg(&e), "in has no reclaim: only a swap-out (out) has one (reclaim, direct)"));
	make_task_op(&e, SR_OP_FORK, 7, 9);
	e.flags |= SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
	CHECK(!strcmp(check_msg(&e), "fork has no reclaim: only a swap-out (out) has one (reclaim, kswapd)"));
	make_task_op(&e, SR_OP_EXIT, 7, 0);
	e.flags |= SR_EV_HAS_FAULT;
	CHECK(!strcmp(check_msg(&e), "exit has no fault: only a swap-in (in) has one (fault, read)"));
}

/*
 * Reclaims and faults through every writer and reader, plain and zstd,
 * among task ops and addresses: every event comes back with its own; CSV
 * has the two columns, .swt is version 4 (version 3's 64-byte records)
 * and says it may have them.  The same events without them are written as
 * before: .swt version 3 (task ops), a CSV without the columns.
 */
static void ctx_all_formats(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "c.csv" },
		{ SR_FMT_CSV, 3, "c.csv.zst" },
		{ SR_FMT_JSONL, 0, "c.jsonl" },
		{ SR_FMT_JSONL, 1, "c.jsonl.zst" },
		{ SR_FMT_SWT, 0, "c.swt" },
		{ SR_FMT_SWT, 5, "c.swt.zst" },
	};
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	size_t c, i;
	unsigned rs;

	make_events(ev, NEV);
	for (i = 0; i < NEV; i += 101)
		make_task_op(&ev[i], (enum sr_op)(SR_OP_FORK + (i / 101) % 3), 5, 6);
	for (i = 1; i < NEV; i += 13) {
		if (sr_op_is_task(ev[i].op))
			continue;
		ev[i].vaddr = (uint64_t)i << 12;
		ev[i].flags |= SR_EV_HAS_VADDR;
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/none.swt", dir);
	test_name = "ctx_all_formats none.swt";
	CHECK(write_file(path, SR_FMT_SWT, 0, ev, NEV, NULL) == 0);
	CHECK(swt_header(path, &rs) == 3 && rs == 64);
	unlink(path);
	make_ctx(ev, NEV);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sr_reader *r;
		struct sr_diag d;
		struct sr_event one;
		size_t got;
		int may = cases[c].f != SR_FMT_JSONL;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_file(path, cases[c].f, cases[c].level, ev, NEV, NULL) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, NULL) == NEV);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		CHECK(sr_reader_read(r, &one, 1, &got, &d) == SR_OK && got == 1);
		CHECK(sr_reader_may_reclaim(r) == may && sr_reader_may_fault(r) == may);
		sr_reader_close(r);
		if (cases[c].f == SR_FMT_SWT && !cases[c].level)
			CHECK(swt_header(path, &rs) == 4 && rs == 64);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * A first reclaim, then a first fault, after thousands of events, as the
 * commands write them in batches, after a first vaddr: the output is
 * written again for each (CSV: the vaddr column, the reclaim column, the
 * fault column; .swt: version 2, then 4), every event comes back with its
 * own.  An output that cannot be written again refuses the first that it
 * lacks, unless told the events may have them.
 */
static void ctx_late(void)
{
	static struct sr_event ev[NEV];
	static const struct { enum sr_format f; int level; const char *name; } cases[] = {
		{ SR_FMT_CSV, 0, "l.csv" },
		{ SR_FMT_CSV, 3, "l.csv.zst" },
		{ SR_FMT_SWT, 0, "l.swt" },
		{ SR_FMT_SWT, 5, "l.swt.zst" },
	};
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_writer *w;
	struct sr_diag d;
	size_t c, out = 0, in = 0, i;
	unsigned rs;

	make_events(ev, NEV);
	ev[NEV - 900].vaddr = 0x7fffdeadb000ull;
	ev[NEV - 900].flags |= SR_EV_HAS_VADDR;
	/* A swap-out 500 events from the end, the first swap-in after it. */
	for (i = NEV - 500; i < NEV && !in; i++) {
		if (ev[i].op == SR_OP_OUT && !out++)
			ev[i].flags |= SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
		if (out && ev[i].op == SR_OP_IN && !in++)
			ev[i].flags |= SR_EV_HAS_FAULT;
	}
	CHECK(out >= 1 && in == 1);
	CHECK(mkdtemp(dir) != NULL);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sr_write_opts o = { .format = cases[c].f, .zstd_level = cases[c].level };

		snprintf(path, sizeof(path), "%s/%s", dir, cases[c].name);
		test_name = cases[c].name;
		CHECK(write_chunked(path, &o, ev, NEV, 4096) == 0);
		CHECK(read_compare(path, ev, NEV, cases[c].f, NULL) == NEV);
		if (!cases[c].level && cases[c].f == SR_FMT_SWT)
			CHECK(swt_header(path, &rs) == 4 && rs == 64);
		if (!cases[c].level && cases[c].f == SR_FMT_CSV) {
			FILE *f = fopen(path, "r");
			char line[256] = "";

			CHECK(f && fgets(line, sizeof(line), f));
			if (f)
				fclose(f);
			CHECK(!strcmp(line, "ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns,vaddr,reclaim,fault\n"));
		}
		unlink(path);
	}
	rmdir(dir);
	test_name = "ctx_late";
	/* /dev/null is written directly: not to be written again. */
	for (c = 0; c < 2; c++) {
		struct sr_write_opts o = { .format = c ? SR_FMT_SWT : SR_FMT_CSV, .may_vaddr = 1 };

		CHECK(sr_writer_open(&w, "/dev/null", &o, &d) == SR_OK);
		CHECK(sr_writer_write(w, ev, NEV, &d) == SR_ERR_INVAL);
		CHECK(strstr(d.msg, "swap-out's reclaim (reclaim)") && strstr(d.msg, "cannot be written again"));
		CHECK(strstr(d.msg, c ? ".swt version 2" : "no reclaim column") != NULL);
		sr_writer_abort(w);
		o.may_reclaim = 1;
		CHECK(sr_writer_open(&w, "/dev/null", &o, &d) == SR_OK);
		if (!c) {
			/* CSV: the fault's column is still missing. */
			CHECK(sr_writer_write(w, ev, NEV, &d) == SR_ERR_INVAL);
			CHECK(strstr(d.msg, "swap-in's fault (fault)") && strstr(d.msg, "no fault column"));
			sr_writer_abort(w);
			o.may_fault = 1;
			CHECK(sr_writer_open(&w, "/dev/null", &o, &d) == SR_OK);
		}
		CHECK(sr_writer_write(w, ev, NEV, &d) == SR_OK);
		CHECK(sr_writer_finish(w, &d) == SR_OK);
	}
}

/*
 * A .swt file of version 1 to 3 cannot hold a reclaim or a fault: flag
 * bits 4 to 7 are refused there (batch and one by one), and read in
 * version 4.
 */
static void swt_ctx_needs_v4(void)
{
	struct sr_event e[3];
	char dir[] = "/tmp/sr-unit-XXXXXX", path[256];
	struct sr_reader *r;
	struct sr_diag d;
	struct sr_event got[3];
	size_t n;
	FILE *f;
	unsigned v, rs;

	sr_event_init(&e[0]);
	e[0].op = SR_OP_OUT;
	sr_event_init(&e[1]);
	e[1].op = SR_OP_OUT;
	e[1].flags = SR_EV_HAS_RECLAIM;
	sr_event_init(&e[2]);
	e[2].op = SR_OP_IN;
	e[2].flags = SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT;
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/v.swt", dir);
	for (v = 1; v <= 4; v++) {
		CHECK(write_file(path, SR_FMT_SWT, 0, e, 3, NULL) == 0);
		CHECK(swt_header(path, &rs) == 4 && rs == 64);
		f = fopen(path, "r+b");
		CHECK(f != NULL);
		if (!f)
			break;
		CHECK(fseek(f, 8, SEEK_SET) == 0 && fputc((int)v, f) == (int)v);
		fclose(f);
		CHECK(sr_reader_open(&r, path, NULL, &d) == SR_OK);
		if (v < 4) {
			CHECK(sr_reader_read(r, got, 3, &n, &d) == SR_ERR_FORMAT && n == 1);
			CHECK(d.record == 2 &&
			      !strcmp(d.msg, "unknown flag bits (flags, 0x10; reclaim and fault are version 4's)"));
		} else {
			CHECK(sr_reader_read(r, got, 3, &n, &d) == SR_OK && n == 3);
			CHECK(got[1].flags == SR_EV_HAS_RECLAIM &&
			      got[2].flags == (SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT));
		}
		sr_reader_close(r);
	}
	unlink(path);
	rmdir(dir);
}

/* stat's counts of reclaims and faults: by value, the rest unknown. */
static void stat_ctx(void)
{
	struct sr_event e[7];
	struct sr_stat *s = sr_stat_new();
	struct sr_stat_summary m;
	size_t i;

	CHECK(s != NULL);
	if (!s)
		return;
	for (i = 0; i < 7; i++) {
		sr_event_init(&e[i]);
		e[i].ts_ns = i;
		e[i].op = i < 4 ? SR_OP_OUT : SR_OP_IN;
	}
	e[0].flags = SR_EV_HAS_RECLAIM | SR_EV_KSWAPD;
	e[1].flags = SR_EV_HAS_RECLAIM;
	e[2].flags = SR_EV_HAS_RECLAIM;
	e[4].flags = SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT;
	e[5].flags = SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT;
	CHECK(sr_stat_add(s, e, 7) == SR_OK);
	sr_stat_summary(s, &m);
	CHECK(m.out_reclaim[0] == 1 && m.out_reclaim[1] == 2);
	CHECK(m.in_fault[0] == 2 && m.in_fault[1] == 0);
	CHECK(m.events[0] == 4 && m.events[1] == 3);
	sr_stat_free(s);
}

/*
 * The kprobe capture's raw lines (swapreplay-capture.bt) with reclaim and
 * fault: a swap-out's line ends after reclaim, a swap-in's after fault,
 * either may be empty, a line of an older capture (10 to 12 fields) reads
 * as before; a reclaim on a swap-in, a fault on a swap-out, a value the
 * capture does not write and a fifteenth field are errors.
 */
static void capture_line_ctx(void)
{
	static const struct { const char *line; int ok; uint8_t flags; const char *msg; } cases[] = {
		{ "1,out,2,1,0,5,0,7,1,500,4096,,kswapd", 1, SR_EV_HAS_RECLAIM | SR_EV_KSWAPD, "" },
		{ "1,out,2,1,0,5,0,7,1,500,4096,,direct", 1, SR_EV_HAS_RECLAIM, "" },
		{ "1,out,2,1,0,5,0,7,1,500,4096,,", 1, 0, "" },
		{ "1,out,2,1,0,5,0,7,1,500,4096", 1, 0, "" },
		{ "1,out,2,1,0,5,0,7,1,500", 1, 0, "" },
		{ "1,in,2,1,0,5,0,7,1,500,4096,,,write", 1, SR_EV_HAS_FAULT | SR_EV_WRITE_FAULT, "" },
		{ "1,in,2,1,0,,0,7,1,500,4096,,,read", 1, SR_EV_HAS_FAULT, "" },
		{ "1,in,2,1,0,,0,7,1,500,4096,,,", 1, 0, "" },
		{ "1,fork,2,1,0,,-1,,1,0,,3", 1, SR_EV_HAS_CHILD, "" },
		{ "1,in,2,1,0,5,0,7,1,500,4096,,direct", 0, 0,
		  "in has no reclaim: only a swap-out (out) has one (reclaim, direct)" },
		{ "1,out,2,1,0,5,0,7,1,500,4096,,,read", 0, 0,
		  "out has no fault: only a swap-in (in) has one (fault, read)" },
		{ "1,out,2,1,0,5,0,7,1,500,4096,,1", 0, 0,
		  "unknown reclaim, expected kswapd or direct (reclaim, \"1\")" },
		{ "1,in,2,1,0,5,0,7,1,500,4096,,,write,", 0, 0,
		  "more than 14 fields (" SR_CAPTURE_HEADER_CTX ")" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_event e;
		uint64_t pfn;
		int has_pfn, rc;
		char msg[400] = "";

		rc = sr_capture_parse_line(cases[i].line, strlen(cases[i].line), &e, &pfn, &has_pfn,
					   msg, sizeof(msg));
		test_name = cases[i].line;
		CHECK((rc == 0) == cases[i].ok);
		if (cases[i].ok)
			CHECK((e.flags & (SR_EV_HAS_CHILD | SR_EV_OUT_FLAGS | SR_EV_IN_FLAGS) &
			       ~SR_EV_SWAP_FLAGS) == cases[i].flags);
		else
			CHECK(!strcmp(msg, cases[i].msg));
	}
	test_name = "capture_line_ctx";
}

void suite_readers(void)
{
	TEST(all_formats);
	TEST(jsonl_limit);
	TEST(big_header);
	TEST(vaddr_late);
	TEST(timeline_adaptive);
	TEST(event_valid_matches_check);
	TEST(task_op_checks);
	TEST(tasks_all_formats);
	TEST(tasks_late);
	TEST(swt_task_ops_need_v3);
	TEST(stat_task_ops);
	TEST(ctx_checks);
	TEST(ctx_all_formats);
	TEST(ctx_late);
	TEST(swt_ctx_needs_v4);
	TEST(stat_ctx);
	TEST(capture_line_ctx);
}
