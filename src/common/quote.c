/* SPDX-License-Identifier: MIT */
/*
 * Strings quoted for the formats swapreplay writes, one way each: a JSON
 * string (reports, sweep rows, plans) and a CSV cell (reports, rows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/quote.h"

/* The length of the well-formed UTF-8 sequence at s (n bytes left), or 0
 * when s[0] begins none (a stray byte, an overlong form, a surrogate, a
 * code point past U+10FFFF, a sequence cut short). */
size_t sr_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void sr_json_write(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = sr_utf8_seq(p, strnlen((const char *)p, 4));

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
