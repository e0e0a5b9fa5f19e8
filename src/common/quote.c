/* SPDX-License-Identifier: MIT */
/*
 * Strings quoted for the formats swapreplay writes, one way each: a JSON
 * string (reports, sweep rows, plans) and a CSV cell (reports, rows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/internal.h"

/* The length of the UTF-8 sequence at p (1 to 4), or 0: not one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF). */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned c = p[0];
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

void sr_json_write(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p++, f);
		} else if (*p == '\b' || *p == '\f' || *p == '\n' || *p == '\r' || *p == '\t') {
			fputc('\\', f);
			fputc(*p == '\b' ? 'b' : *p == '\f' ? 'f' : *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't',
			      f);
			p++;
		} else if (*p < 0x20 || !n) {
			/* A control character, or a byte that is no UTF-8 (a
			 * Latin-1 file name's): the character of its number. */
			fprintf(f, "\\u%04X", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	fputc('"', f);
}

/* What write(f, s) writes, malloc'ed; NULL out of memory. */
static char *to_string(void (*write)(FILE *, const char *), const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	write(f, s);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

char *sr_json_quote(const char *s)
{
	return to_string(sr_json_write, s);
}

void sr_csv_write(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

char *sr_csv_quote(const char *s)
{
	return to_string(sr_csv_write, s);
}
