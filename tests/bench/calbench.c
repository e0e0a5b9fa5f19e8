/* SPDX-License-Identifier: MIT */
/*
 * make bench: what one reservation on a saturated calendar costs
 * (src/hw/calendar.h) as its backlog grows, in ns per cal_reserve().
 *
 * A resource is made busy from T0 for BACKLOG ns (reservations of W ns
 * from T0 on, one behind the other); then N requests of W ns each start
 * inside that backlog, as tasks whose clocks are behind a saturated device
 * do, and go at its end.  They come at the resource's own rate (the i-th
 * when its work is done until T0 + BACKLOG + i W), so that the backlog
 * stays BACKLOG long.  Two orders: "random" (each at a random time of the
 * backlog: many tasks at once) and "head" (each at its start: BACKLOG
 * behind the end).  The backlog is given in
 * calendar windows (CAL_BUCKETS buckets of CAL_BUCKET_NS, 164 ms): at 1x
 * and beyond, the part of the backlog more than half a window behind its
 * end is before the window (the calendar keeps half a window behind its
 * latest request), so requests that start there are served at once and
 * counted stale, as the replay counts them; the column says how many.
 * The cost should not grow with the backlog.
 *
 *   calbench [N]    (default 2000000 requests per row)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/calendar.h"

#define W 4000.0 /* ns: a 4 KiB write at 1 GB/s */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double unit(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1p-53;
}

/* ns per reservation of n requests inside a backlog of `backlog` ns. */
static double row(double backlog, int random, long n, double *stale_share, double *check)
{
	struct cal c;
	double t0 = 1e9, t, sum = 0;
	long i;

	memset(&c, 0, sizeof(c));
	if (cal_init(&c))
		exit(1);
	/* The backlog: one request behind the other from T0 until it is
	 * `backlog` long (the calendar keeps its last half window). */
	for (t = t0; t < t0 + backlog;)
		t = cal_reserve(&c, t, W);
	{
		uint64_t s0 = c.stale;
		double a = now();

		for (i = 0; i < n; i++) {
			double end = t0 + backlog + (double)i * W;
			double s = end - (random ? unit() : 1.0) * backlog;

			sum += cal_reserve(&c, s, W);
		}
		a = now() - a;
		*stale_share = (double)(c.stale - s0) / (double)n;
		*check = sum;
		cal_free(&c);
		return a / (double)n;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	double window = CAL_BUCKETS * CAL_BUCKET_NS, mult[] = { 0.01, 0.1, 0.5, 1, 10, 100 }, chk = 0;
	unsigned i;

	printf("calendar reservations inside a backlog (window %.1f ms, requests of %.0f us, %ld per row)\n",
	       window / 1e6, W / 1e3, n);
	printf("%-10s %14s %10s %14s %10s\n", "backlog", "random ns/op", "stale", "head ns/op", "stale");
	for (i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
		double sr, sh, c1, c2, r = row(mult[i] * window, 1, n, &sr, &c1),
				       h = row(mult[i] * window, 0, n, &sh, &c2);

		chk += c1 + c2;
		printf("%8gx %14.1f %9.1f%% %14.1f %9.1f%%\n", mult[i], r, 100 * sr, h, 100 * sh);
	}
	/* The sums keep the reservations from being optimised away. */
	return chk < 0;
}
