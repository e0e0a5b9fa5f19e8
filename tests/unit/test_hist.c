/* Latency histograms (src/replay/hist.c): percentiles stay within what was
 * observed. */
#include <string.h>

#include "replay/hist.h"
#include "test.h"

static struct sr_hist h;

/* All values equal: every percentile is that value, not its bucket's
 * middle (26.88 us for 27.055 us, below the mean and the max). */
static void hist_all_equal(void)
{
	int i;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < 1228; i++)
		sr_hist_add(&h, 27055);
	CHECK(sr_hist_quantile(&h, 0.50) == 27055);
	CHECK(sr_hist_quantile(&h, 0.90) == 27055);
	CHECK(sr_hist_quantile(&h, 0.99) == 27055);
	CHECK(h.min_ns == 27055 && h.max_ns == 27055);
}

/* A few values: p50 lies between the extremes, p0 is at least the minimum,
 * p100 at most the maximum, and quantiles do not decrease. */
static void hist_within_observed(void)
{
	double v[] = { 1000.5, 1003, 5000, 5001, 777777 }, q, prev = 0;
	int i;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < 5; i++)
		sr_hist_add(&h, v[i]);
	CHECK(sr_hist_quantile(&h, 0) >= 1000.5);
	CHECK(sr_hist_quantile(&h, 1) <= 777777);
	for (q = 0; q <= 1.0001; q += 0.05) {
		double x = sr_hist_quantile(&h, q);

		if (x < prev || x < h.min_ns || x > h.max_ns)
			break;
		prev = x;
	}
	CHECK(q > 1.0001);
	/* The bucket of 5000 holds 5000 and 5001 (3 % wide): its middle. */
	q = sr_hist_quantile(&h, 0.6);
	CHECK(q > 4900 && q < 5200);
	CHECK(h.min_ns == 1000.5);
}

static void hist_empty(void)
{
	memset(&h, 0, sizeof(h));
	CHECK(sr_hist_quantile(&h, 0.5) == 0);
}

void suite_hist(void)
{
	TEST(hist_all_equal);
	TEST(hist_within_observed);
	TEST(hist_empty);
}
