/* SPDX-License-Identifier: MIT */
/*
 * The progress of a long read (replay): how much of the file has been
 * read, the events replayed and their rate, the time left.
 *
 * On a terminal (standard error is a tty) one line is redrawn in place,
 * from half a second in, five times a second at most, and erased at the
 * end, so that a short run shows nothing and a report or an error that
 * follows starts on a clean line.  Into a log (--progress: a Slurm job's
 * output) a line is written every PROGRESS_LOG_S seconds and one at the
 * end.  The time left is the time so far scaled by the share of the file
 * still to read: the file's bytes (compressed, for zstd) are read at a
 * steady rate when the events are, which holds within a few per cent
 * once the first megabytes are in.  The bytes read run ahead of the
 * events replayed by the read-ahead buffers (a few MiB), so the share
 * read is a little ahead of the work done, never behind.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "swapreplay/trace.h"

#define PROGRESS_FIRST_S 0.5   /* a terminal line from this far in */
#define PROGRESS_TTY_S 0.2     /* redrawn at most this often */
#define PROGRESS_LOG_S 10.0    /* a log line this often */
#define PROGRESS_NAME 28       /* a longer file name keeps its end */

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(struct cli_progress *p, enum cli_progress_mode mode, const char *name,
			unsigned replays)
{
	memset(p, 0, sizeof(*p));
	if (mode == CLI_PROGRESS_AUTO)
		mode = isatty(STDERR_FILENO) ? CLI_PROGRESS_TTY : CLI_PROGRESS_OFF;
	p->mode = mode;
	p->name = name;
	p->replays = replays ? replays : 1;
	p->t0 = p->last = mono_s();
}

/* "1.5 GiB", binary units as the reports print them. */
static void bytes(char *b, size_t n, uint64_t v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double x = (double)v;
	int u = 0;

	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	snprintf(b, n, u ? "%.1f %s" : "%.0f %s", x, unit[u]);
}

/* "0.4 s", "12 s", "3 min 20 s", "1 h 05 min". */
static void duration(char *b, size_t n, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (s < 9.95)
		snprintf(b, n, "%.1f s", s < 0 ? 0 : s);
	else if (t < 60)
		snprintf(b, n, "%lu s", t);
	else if (t < 3600)
		snprintf(b, n, "%lu min %02lu s", t / 60, t % 60);
	else
		snprintf(b, n, "%lu h %02lu min", t / 3600, t / 60 % 60);
}

/* "3.2 M" events. */
static void count(char *b, size_t n, double v)
{
	if (v >= 1e9)
		snprintf(b, n, "%.2f G ", v / 1e9);
	else if (v >= 1e6)
		snprintf(b, n, "%.1f M ", v / 1e6);
	else if (v >= 1e3)
		snprintf(b, n, "%.0f k ", v / 1e3);
	else
		snprintf(b, n, "%.0f ", v);
}

/* One progress line, without its end. */
static void line(char *out, size_t n, const struct cli_progress *p, const struct sr_reader *r,
		 uint64_t events, double now, int end)
{
	uint64_t rd, size;
	double el = now - p->t0;
	char a[32], b[32], c[32], e[32], name[PROGRESS_NAME + 4], rep[48] = "";
	size_t len = strlen(p->name);

	sr_reader_file_progress(r, &rd, &size);
	if (len > PROGRESS_NAME)
		snprintf(name, sizeof(name), "...%s", p->name + len - (PROGRESS_NAME - 3));
	else
		snprintf(name, sizeof(name), "%s", p->name);
	bytes(a, sizeof(a), rd);
	count(b, sizeof(b), (double)events);
	count(c, sizeof(c), el > 0 ? (double)events / el : 0);
	if (p->replays > 1)
		snprintf(rep, sizeof(rep), " x %u replays", p->replays);
	if (end) {
		duration(e, sizeof(e), el);
		snprintf(out, n, "%s: read %s, %sevents%s in %s (%sevents/s)", name, a, b, rep, e, c);
	} else if (size && rd) {
		char t[32];

		bytes(t, sizeof(t), size);
		duration(e, sizeof(e), rd < size ? el * (double)(size - rd) / (double)rd : 0);
		snprintf(out, n, "%s: %3.0f %% of %s, %sevents%s, %sevents/s, %s left", name,
			 100.0 * (double)rd / (double)size, t, b, rep, c, e);
	} else {
		snprintf(out, n, "%s: %s read, %sevents%s, %sevents/s", name, a, b, rep, c);
	}
}

void cli_progress_update(struct cli_progress *p, const struct sr_reader *r, uint64_t events)
{
	double now, gap;
	char l[256];

	if (p->mode == CLI_PROGRESS_OFF)
		return;
	now = mono_s();
	gap = p->mode == CLI_PROGRESS_TTY ? PROGRESS_TTY_S : PROGRESS_LOG_S;
	if (now - p->last < gap || (p->mode == CLI_PROGRESS_TTY && now - p->t0 < PROGRESS_FIRST_S))
		return;
	p->last = now;
	line(l, sizeof(l), p, r, events, now, 0);
	if (p->mode == CLI_PROGRESS_TTY) {
		/* Erase to the end of the line: the new one may be shorter. */
		fprintf(stderr, "\r%s\033[K", l);
		p->drawn = 1;
	} else {
		fprintf(stderr, "swapreplay: %s\n", l);
	}
	fflush(stderr);
}

void cli_progress_end(struct cli_progress *p, const struct sr_reader *r, uint64_t events, int ok)
{
	char l[256];

	if (p->mode == CLI_PROGRESS_TTY && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	} else if (p->mode == CLI_PROGRESS_LOG && ok) {
		line(l, sizeof(l), p, r, events, mono_s(), 1);
		fprintf(stderr, "swapreplay: %s\n", l);
	}
	p->mode = CLI_PROGRESS_OFF;
}
