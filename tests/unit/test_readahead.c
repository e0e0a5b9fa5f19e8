/* Readahead's window (src/mm/swap_state.c, after the kernel's
 * swapin_nr_pages()). */
#include <string.h>

#include "mm/mm.h"
#include "test.h"

static void window_adaptive(void)
{
	struct sr_ra ra;

	memset(&ra, 0, sizeof(ra));
	ra.hits = 4; /* the kernel's initial swapin_readahead_hits */
	/* 4 hits: 6 pages, rounded up to 8 (page-cluster 3: at most 8). */
	CHECK(sr_ra_window(&ra, 100, 3, 0) == 8);
	CHECK(ra.hits == 0 && ra.prev_win == 8);
	/* No hit since, a fault far away: 1 page, but never below half the
	 * last window: 4. */
	CHECK(sr_ra_window(&ra, 5000, 3, 0) == 4);
	CHECK(ra.prev_offset == 5000);
	/* No hit, far again: 4 / 2 = 2. */
	CHECK(sr_ra_window(&ra, 9000, 3, 0) == 2);
	/* No hit, far: 1. */
	CHECK(sr_ra_window(&ra, 20000, 3, 0) == 1);
	/* No hit but next to the previous fault: 2. */
	CHECK(sr_ra_window(&ra, 20001, 3, 0) == 2);
	/* 1 hit: 3 pages, rounded up to 4; the previous offset stays. */
	ra.hits = 1;
	CHECK(sr_ra_window(&ra, 30000, 3, 0) == 4);
	CHECK(ra.prev_offset == 20001);
	/* 3 hits: 5 -> 8; at most 2^page_cluster. */
	ra.hits = 3;
	CHECK(sr_ra_window(&ra, 40000, 2, 0) == 4);
	/* page-cluster 0: no readahead; fixed: always 2^page_cluster. */
	CHECK(sr_ra_window(&ra, 1, 0, 0) == 1);
	CHECK(sr_ra_window(&ra, 1, 4, 1) == 16);
}

/* The sweep's one-string form of the settings, both ways. */
static void settings_round_trip(void)
{
	struct sr_readahead_opts o, back;
	struct sr_diag d;
	char buf[128];

	sr_readahead_default(&o);
	CHECK(!strcmp(sr_readahead_format(&o, buf, sizeof(buf)),
		      "auto;page-cluster=3;window=adaptive;holes=skip;memory=0"));
	o.mode = SR_RA_CLUSTER;
	o.page_cluster = 4;
	o.fixed_window = 1;
	o.holes_stop = 1;
	o.memory_pages = 262144;
	sr_readahead_format(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "cluster;page-cluster=4;window=fixed;holes=stop;memory=262144"));
	CHECK(sr_readahead_parse(buf, &back, &d) == SR_OK);
	CHECK(back.mode == SR_RA_CLUSTER && back.page_cluster == 4 && back.fixed_window &&
	      back.holes_stop && back.memory_pages == 262144);
	CHECK(sr_readahead_parse("cluster;page-cluster=11;window=fixed;holes=stop;memory=0", &back,
				 &d) == SR_ERR_INVAL);
	CHECK(sr_readahead_parse("vma;page-cluster=3;window=adaptive;holes=skip;memory=0", &back,
				 &d) == SR_OK && back.mode == SR_RA_VMA);
	CHECK(sr_readahead_parse("virtual;page-cluster=3;window=adaptive;holes=skip;memory=0",
				 &back, &d) == SR_ERR_INVAL);
	CHECK(sr_readahead_parse("auto;page-cluster=3;window=adaptive;holes=skip;memory=0x", &back,
				 &d) == SR_ERR_INVAL);
}

void suite_readahead(void)
{
	TEST(window_adaptive);
	TEST(settings_round_trip);
}
