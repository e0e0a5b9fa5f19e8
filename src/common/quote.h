/* SPDX-License-Identifier: MIT */
/* Strings written as JSON strings and CSV cells, one way each (quote.c). */
#ifndef SR_COMMON_QUOTE_H
#define SR_COMMON_QUOTE_H

#include <stddef.h>
#include <stdio.h>

/* The length of the well-formed UTF-8 sequence at s (n bytes left: 1 to
 * 4), or 0 when s[0] begins none. */
size_t sr_utf8_seq(const unsigned char *s, size_t n);
/* s as a JSON string, quotes and escapes included (\" \\ \b \f \n \r
 * \t, other control characters and bytes that are no UTF-8 as \u00XX), as
 * jansson escapes: written to f, or malloc'ed (NULL out of memory). */
void sr_json_write(FILE *f, const char *s);
char *sr_json_quote(const char *s);
/* ... or into out, which has room for 6 x strlen(s) + 2 bytes (no NUL
 * written): the end of what was written. */
char *sr_json_put(char *out, const char *s);
/* s as one CSV cell, as it is or quoted (its quotes doubled) when it holds
 * a comma, a quote or a line break, or begins or ends with a space (libcsv
 * trims those of a cell not quoted): written to f, or malloc'ed, or into
 * out, which has room for 2 x strlen(s) + 2 bytes (no NUL; the end). */
void sr_csv_write(FILE *f, const char *s);
char *sr_csv_quote(const char *s);
char *sr_csv_put(char *out, const char *s);

#endif /* SR_COMMON_QUOTE_H */
