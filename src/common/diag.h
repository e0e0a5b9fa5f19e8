/* SPDX-License-Identifier: MIT */
/* Filling a struct sr_diag: how the library says what went wrong
 * (error.c). */
#ifndef SR_COMMON_DIAG_H
#define SR_COMMON_DIAG_H

#include "common/compiler.h"
#include "swapreplay/error.h"

/* Fill d (if not NULL) with code and a formatted message; returns code. */
enum sr_err sr_diag_set(struct sr_diag *d, enum sr_err code, const char *fmt, ...)
	SR_PRINTF(3, 4);
/* Set d->file (truncated to fit). */
void sr_diag_file(struct sr_diag *d, const char *name);

#endif /* SR_COMMON_DIAG_H */
