/* SPDX-License-Identifier: MIT */
/* Numbers read from text, one way everywhere (parse.c). */
#ifndef SR_COMMON_PARSE_H
#define SR_COMMON_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Parse a decimal unsigned integer filling [0, max]; returns 0 on success,
 * -1 not a number (empty, sign, junk), -2 over max. */
int sr_parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out);

#endif /* SR_COMMON_PARSE_H */
