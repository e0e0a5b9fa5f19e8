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

/* The JSON form of the character at p, into out (at most 6 bytes): its
 * length; *used: the bytes of p it stands for. */
static size_t json_char(const unsigned char *p, char *out, size_t *used)
{
	size_t n = sr_utf8_seq(p, strnlen((const char *)p, 4));

	*used = 1;
	if (*p == '"' || *p == '\\') {
		out[0] = '\\';
		out[1] = (char)*p;
		return 2;
	}
	if (*p == '\b' || *p == '\f' || *p == '\n' || *p == '\r' || *p == '\t') {
		out[0] = '\\';
		out[1] = *p == '\b' ? 'b' : *p == '\f' ? 'f' : *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
		return 2;
	}
	if (*p < 0x20 || !n) {
		/* A control character, or a byte that is no UTF-8 (a Latin-1
		 * file name's): the character of its number. */
		static const char hex[] = "0123456789ABCDEF";

		memcpy(out, "\\u00", 4);
		out[4] = hex[*p >> 4];
		out[5] = hex[*p & 15];
		return 6;
	}
	memcpy(out, p, n);
	*used = n;
	return n;
}

void sr_json_write(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char c[8];

	fputc('"', f);
	while (*p) {
		size_t used, n = json_char(p, c, &used);

		fwrite(c, 1, n, f);
		p += used;
	}
	fputc('"', f);
}

char *sr_json_put(char *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	*out++ = '"';
	while (*p) {
		size_t used;

		out += json_char(p, out, &used);
		p += used;
	}
	*out++ = '"';
	return out;
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

/* A CSV cell is quoted when it holds a comma, a quote or a line break, or
 * begins or ends with a space (which libcsv trims from a cell not quoted,
 * so that it would not read back the same). */
static int csv_quoted(const char *s)
{
	size_t n = strlen(s);

	return strpbrk(s, ",\"\r\n") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
}

void sr_csv_write(FILE *f, const char *s)
{
	if (!csv_quoted(s)) {
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

char *sr_csv_put(char *out, const char *s)
{
	int q = csv_quoted(s);

	if (q)
		*out++ = '"';
	for (; *s; s++) {
		if (*s == '"' && q)
			*out++ = '"';
		*out++ = *s;
	}
	if (q)
		*out++ = '"';
	return out;
}

char *sr_csv_quote(const char *s)
{
	return to_string(sr_csv_write, s);
}
