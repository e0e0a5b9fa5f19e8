/* SPDX-License-Identifier: MIT */
/*
 * Large buffers: the reorder window, the pipe's batches, zstd's window.
 *
 * On the machines this was measured on (virtual, 2 CPUs), the first touch
 * of a 4 KiB page costs 11 to 15 us, so a sweep worker's first unit spent
 * about 30 ms faulting in its 8 MiB, and every worker pays that at once.
 * A mapping advised for transparent huge pages is faulted in 2 MiB at a
 * time (8 MiB in 0.6 ms there).  So a buffer of 1 MiB or more is its own
 * mapping, aligned on 2 MiB and advised with MADV_HUGEPAGE (the kernel may
 * still give 4 KiB pages: THP "never", or no free huge page).
 *
 * The buffer handed out starts a little way into its mapping, a different
 * way for each (64 B + 0 to 14 times 4160 B): buffers that all began on a
 * 2 MiB boundary had their streams fall into the same cache sets (make
 * bench's sweep, -j 2 against -j 1, medians of 11: 0.542 aligned, 0.530
 * staggered).
 *
 * A freed buffer is kept by the freeing thread for its next buffer of the
 * same mapping length (a sweep worker's next unit), up to BIG_KEEP of them,
 * and unmapped when the thread ends.  Under AddressSanitizer every buffer
 * is plain malloc() (SR_BIG_PLAIN), so that overruns are still caught.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/bigmem.h"

#ifndef SR_BIG_PLAIN
#define HUGE ((size_t)2 << 20)
#define STAGGER ((size_t)64 << 10)        /* room for the offset */
#define BIG_KEEP 6                        /* mappings a thread keeps */
#define BIG_KEEP_MAX ((size_t)16 << 20)   /* larger ones are unmapped */

struct kept {
	void *map[BIG_KEEP];
	size_t len[BIG_KEEP];
	int registered;        /* kept_drop() runs when the thread ends */
};

static _Thread_local struct kept kept;
static _Thread_local unsigned stagger_next;
static pthread_key_t kept_key;
static int kept_key_ok;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_drop(void *arg)
{
	struct kept *k = arg;
	int i;

	for (i = 0; i < BIG_KEEP; i++)
		if (k->map[i]) {
			munmap(k->map[i], k->len[i]);
			k->map[i] = NULL;
		}
}

static void kept_key_init(void)
{
	kept_key_ok = pthread_key_create(&kept_key, kept_drop) == 0;
}

/* The mapping length for a buffer of n bytes. */
static size_t map_len(size_t n)
{
	return (n + STAGGER + HUGE - 1) & ~(HUGE - 1);
}

/* len bytes aligned on 2 MiB, so that whole huge pages fit. */
static void *map_aligned(size_t len)
{
	unsigned char *p, *a;
	size_t head;

	p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (unsigned char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	munmap(a + len, HUGE - head);
#ifdef MADV_HUGEPAGE
	madvise(a, len, MADV_HUGEPAGE);
#endif
	return a;
}

static void *staggered(void *map)
{
	size_t off = 64 + (size_t)(stagger_next++ % 15) * 4160;

	return map ? (unsigned char *)map + off : NULL;
}
#endif /* !SR_BIG_PLAIN */

void *sr_big_alloc(size_t n)
{
#ifdef SR_BIG_PLAIN
	return malloc(n);
#else
	size_t len;
	int i;

	if (n < SR_BIG_MIN)
		return malloc(n);
	len = map_len(n);
	for (i = 0; i < BIG_KEEP; i++)
		if (kept.map[i] && kept.len[i] == len) {
			void *map = kept.map[i];

			kept.map[i] = NULL;
			return staggered(map);
		}
	return staggered(map_aligned(len));
#endif
}

void sr_big_free(void *p, size_t n)
{
#ifdef SR_BIG_PLAIN
	(void)n;
	free(p);
#else
	void *map;
	size_t len;
	int i;

	if (n < SR_BIG_MIN) {
		free(p);
		return;
	}
	if (!p)
		return;
	map = (void *)((uintptr_t)p & ~(uintptr_t)(HUGE - 1));
	len = map_len(n);
	if (len <= BIG_KEEP_MAX) {
		if (!kept.registered) {
			pthread_once(&kept_once, kept_key_init);
			kept.registered = kept_key_ok &&
					  pthread_setspecific(kept_key, &kept) == 0;
		}
		for (i = 0; kept.registered && i < BIG_KEEP; i++)
			if (!kept.map[i]) {
				kept.map[i] = map;
				kept.len[i] = len;
				return;
			}
	}
	munmap(map, len);
#endif
}
