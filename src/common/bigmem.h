/* SPDX-License-Identifier: MIT */
/* Large buffers on huge pages (bigmem.c). */
#ifndef SR_COMMON_BIGMEM_H
#define SR_COMMON_BIGMEM_H

#include <stddef.h>

/*
 * Buffers of 1 MiB or more (bigmem.c): mappings aligned on 2 MiB and advised
 * for huge pages, kept by the freeing thread for its next buffer of the same
 * length; smaller ones, and all of them under AddressSanitizer
 * (SR_BIG_PLAIN), are malloc()'s.  sr_big_free() takes the length asked for.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SR_BIG_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SR_BIG_PLAIN 1
#endif
#endif
#define SR_BIG_MIN ((size_t)1 << 20)
void *sr_big_alloc(size_t n);
void sr_big_free(void *p, size_t n);

#endif /* SR_COMMON_BIGMEM_H */
