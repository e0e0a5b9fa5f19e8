#include <stdlib.h>

#include "common/u64map.h"
#include "test.h"

static void map_basic(void)
{
	struct sr_u64map m;
	uint64_t i, *v;
	int added, ok = 1;

	sr_u64map_init(&m);
	for (i = 0; i < 100000; i++) {
		v = sr_u64map_put(&m, i * 7919, &added);
		if (!v || !added)
			ok = 0;
		else
			*v = i;
	}
	CHECK(ok);
	CHECK(m.count == 100000);
	v = sr_u64map_get(&m, 5 * 7919);
	CHECK(v && *v == 5);
	CHECK(sr_u64map_get(&m, 1) == NULL);
	for (i = 0; i < 100000; i += 2)
		sr_u64map_del(&m, i * 7919);
	CHECK(m.count == 50000);
	CHECK(sr_u64map_get(&m, 4 * 7919) == NULL);
	v = sr_u64map_get(&m, 3 * 7919);
	CHECK(v && *v == 3);
	v = sr_u64map_put(&m, 3 * 7919, &added);
	CHECK(v && !added && *v == 3);
	/* Churn: insert/delete many times; capacity must stay bounded. */
	for (i = 0; i < 1000000; i++) {
		sr_u64map_put(&m, 1000000000 + i, NULL);
		sr_u64map_del(&m, 1000000000 + i);
	}
	CHECK(m.count == 50000);
	CHECK(m.cap <= 262144);
	sr_u64map_free(&m);
}

void suite_u64map(void)
{
	TEST(map_basic);
}
