/* SPDX-License-Identifier: MIT */
/*
 * Which of swapreplay's own JSON files an object is (filekind.c): by its
 * schema, or for files written before there was one, by its keys.  Used
 * where a file is not what a command reads (sweep's inputs skip them;
 * compare names what it was given instead of a report).
 */
#ifndef SR_COMMON_FILEKIND_H
#define SR_COMMON_FILEKIND_H

#include <jansson.h>

enum sr_file_kind {
	SR_KIND_NONE = 0,  /* none of them (a trace, or something else) */
	SR_KIND_SWEEP,     /* a sweep's result row */
	SR_KIND_PLAN,      /* a sweep plan */
	SR_KIND_REPORT,    /* a replay report */
	SR_KIND_COMPARE,   /* a comparison of two reports */
	SR_KIND_MACHINE,   /* a machine description */
};

enum sr_file_kind sr_json_file_kind(const json_t *o);

#endif /* SR_COMMON_FILEKIND_H */
