/* A minimal unit test harness: each check prints "ok NAME" or
 * "FAIL NAME: where"; main() returns non-zero if any failed. */
#ifndef SR_TEST_H
#define SR_TEST_H

#include <stdio.h>

extern int test_failed;
extern const char *test_name;

#define CHECK(cond) do { \
	if (cond) { \
		printf("ok %s: %s\n", test_name, #cond); \
	} else { \
		printf("FAIL %s: %s (%s:%d)\n", test_name, #cond, __FILE__, __LINE__); \
		test_failed++; \
	} \
} while (0)

#define TEST(fn) do { test_name = #fn; fn(); } while (0)

#endif
