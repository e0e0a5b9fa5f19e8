/* SPDX-License-Identifier: MIT */
/* What the compiler is told beyond C11, and nothing where it is not GCC
 * or clang. */
#ifndef SR_COMMON_COMPILER_H
#define SR_COMMON_COMPILER_H


#if defined(__GNUC__)
#define SR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SR_LIKELY(x) __builtin_expect(!!(x), 1)
#define SR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SR_PRINTF(a, b)
#define SR_LIKELY(x) (x)
#define SR_UNLIKELY(x) (x)
#endif

#endif /* SR_COMMON_COMPILER_H */
