/* The large buffers of bigmem.c: every size holds its bytes, from any
 * thread; a mapped buffer lies within 64 KiB of a 2 MiB boundary (huge
 * pages) and, once freed, its mapping is the freeing thread's next one of
 * that length. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "test.h"

static const size_t sizes[] = { 1, 4096, SR_BIG_MIN - 1, SR_BIG_MIN, 3u << 20,
				(2u << 20) + 1, 17u << 20 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Allocate every size, fill each with its own pattern, check, free; twice
 * (the second round gets the kept buffers).  Returns the bad buffers. */
static void *round_trip(void *arg)
{
	uintptr_t bad = 0, salt = (uintptr_t)arg;
	unsigned char *p[NSIZES];
	size_t i, j;
	int r;

	for (r = 0; r < 2; r++) {
		for (i = 0; i < NSIZES; i++) {
			p[i] = sr_big_alloc(sizes[i]);
			if (!p[i]) {
				bad++;
				continue;
			}
			for (j = 0; j < sizes[i]; j += 997)
				p[i][j] = (unsigned char)(i * 31 + j + salt);
			p[i][sizes[i] - 1] = (unsigned char)(i + salt);
		}
		for (i = 0; i < NSIZES; i++) {
			if (!p[i])
				continue;
			for (j = 0; j < sizes[i] - 1; j += 997)
				bad += p[i][j] != (unsigned char)(i * 31 + j + salt);
			bad += p[i][sizes[i] - 1] != (unsigned char)(i + salt);
			sr_big_free(p[i], sizes[i]);
		}
	}
	return (void *)bad;
}

static void bytes_kept(void)
{
	pthread_t th[3];
	void *bad;
	int i, ok = 1;

	CHECK(round_trip((void *)7) == NULL);
	for (i = 0; i < 3; i++)
		CHECK(pthread_create(&th[i], NULL, round_trip, (void *)(uintptr_t)(i + 1)) == 0);
	for (i = 0; i < 3; i++) {
		pthread_join(th[i], &bad);
		ok &= bad == NULL;
	}
	CHECK(ok);
	sr_big_free(NULL, 3u << 20); /* accepted, as free(NULL) */
}

static void mapped_reused(void)
{
#ifdef SR_BIG_PLAIN
	CHECK(1); /* plain malloc() under AddressSanitizer: nothing to see */
#else
	/* 9 MiB (10 once mapped): no other test keeps a mapping of it. */
	const size_t n = 9u << 20, huge = 2u << 20;
	void *a = sr_big_alloc(n), *b, *c;

	CHECK(a != NULL && ((uintptr_t)a & (huge - 1)) < (64u << 10));
	sr_big_free(a, n);
	b = sr_big_alloc(n + 100); /* the same mapping, at another offset */
	CHECK(b != NULL && ((uintptr_t)b & ~(uintptr_t)(huge - 1)) ==
			   ((uintptr_t)a & ~(uintptr_t)(huge - 1)));
	CHECK(b != a);
	c = sr_big_alloc(n);       /* none kept: a new one */
	CHECK(c != NULL && ((uintptr_t)c & ~(uintptr_t)(huge - 1)) !=
			   ((uintptr_t)b & ~(uintptr_t)(huge - 1)));
	sr_big_free(b, n + 100);
	sr_big_free(c, n);
#endif
}

void suite_bigmem(void)
{
	TEST(bytes_kept);
	TEST(mapped_reused);
}
