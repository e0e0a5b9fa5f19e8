/* SPDX-License-Identifier: MIT */
/*
 * The parsers of the sysfs and procfs files that `machine --probe` reads
 * (probe.c): node cpulists, SLIT distances, /proc/swaps.  Pure: bytes in,
 * values or a message out (probe_parse.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler.h"
#include "common/parse.h"
#include "capture/probe_parse.h"

static int fail(char *msg, size_t msz, const char *fmt, ...) SR_PRINTF(3, 4);
static int fail(char *msg, size_t msz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msz, fmt, ap);
	va_end(ap);
	return -1;
}

/* Parse digits at s[*i..len) into v (<= max); 0 or -1. */
static int num(const char *s, size_t len, size_t *i, long max, long *v)
{
	size_t j = *i;
	long x = 0;

	if (j >= len || s[j] < '0' || s[j] > '9')
		return -1;
	for (; j < len && s[j] >= '0' && s[j] <= '9'; j++) {
		x = x * 10 + (s[j] - '0');
		if (x > max)
			return -1;
	}
	*i = j;
	*v = x;
	return 0;
}

/* A short, printable excerpt of s for messages. */
void sr_probe_excerpt(const char *s, size_t len, char *out, size_t osz)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 4 < osz; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' && i + 1 == len)
			break;
		out[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (i < len && !(s[i] == '\n' && i + 1 == len) && o + 3 < osz) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

int sr_probe_cpulist(const char *s, size_t len, int *count, char *msg, size_t msz)
{
	size_t i = 0;
	long total = 0;
	char ex[48];

	if (len && s[len - 1] == '\n')
		len--;
	while (i < len) {
		long a, b;

		if (num(s, len, &i, SR_PROBE_MAX_CPU, &a))
			goto bad;
		b = a;
		if (i < len && s[i] == '-') {
			i++;
			if (num(s, len, &i, SR_PROBE_MAX_CPU, &b) || b < a)
				goto bad;
		}
		total += b - a + 1;
		if (total > SR_PROBE_MAX_CPU)
			goto bad;
		if (i < len) {
			if (s[i] != ',' || i + 1 == len)
				goto bad;
			i++;
		}
	}
	*count = (int)total;
	return 0;
bad:
	sr_probe_excerpt(s, len, ex, sizeof(ex));
	return fail(msg, msz, "not a CPU list such as 0-3,8 (\"%s\")", ex);
}

int sr_probe_distance(const char *s, size_t len, int *out, int max, char *msg,
		      size_t msz)
{
	size_t i = 0;
	int n = 0;
	char ex[48];

	if (len && s[len - 1] == '\n')
		len--;
	for (;;) {
		long v;

		while (i < len && s[i] == ' ')
			i++;
		if (i == len)
			break;
		if (num(s, len, &i, 100000, &v) || (i < len && s[i] != ' '))
			goto bad;
		if (v < 10 || v > 254) {
			sr_probe_excerpt(s, len, ex, sizeof(ex));
			return fail(msg, msz, "distance %ld out of the ACPI SLIT range 10 to 254 (\"%s\")",
				    v, ex);
		}
		if (n == max)
			return fail(msg, msz, "more than %d distances", max);
		out[n++] = (int)v;
	}
	if (n == 0)
		goto bad;
	return n;
bad:
	sr_probe_excerpt(s, len, ex, sizeof(ex));
	return fail(msg, msz, "not a list of distances such as \"10 21\" (\"%s\")", ex);
}

/* Next whitespace-separated token of line [*i, len). */
static int token(const char *s, size_t len, size_t *i, const char **t, size_t *tl)
{
	while (*i < len && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	if (*i == len)
		return 0;
	*t = s + *i;
	while (*i < len && s[*i] != ' ' && s[*i] != '\t')
		(*i)++;
	*tl = (size_t)(s + *i - *t);
	return 1;
}

/* Undo the kernel's octal escapes of " \t\n\\" (seq_file_path()). */
static int unescape(const char *t, size_t tl, char *out, size_t osz)
{
	size_t i, o = 0;

	for (i = 0; i < tl; i++) {
		char c = t[i];

		if (c == '\\' && i + 3 < tl && t[i + 1] >= '0' && t[i + 1] <= '3' &&
		    t[i + 2] >= '0' && t[i + 2] <= '7' && t[i + 3] >= '0' && t[i + 3] <= '7') {
			c = (char)((t[i + 1] - '0') * 64 + (t[i + 2] - '0') * 8 + (t[i + 3] - '0'));
			i += 3;
		}
		if (c == '\0' || o + 1 >= osz)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int sr_probe_swaps(const char *s, size_t len, struct sr_probe_swap *out, int max,
		   uint64_t *line, char *msg, size_t msz)
{
	size_t pos = 0;
	int n = 0;

	*line = 0;
	while (pos < len) {
		const char *l = s + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos, i = 0, tl;
		const char *t, *tok[8];
		size_t toklen[8];
		int nt = 0;
		struct sr_probe_swap *w;
		uint64_t used;
		long long prio;
		char num_txt[32];

		pos += ll + (nl ? 1 : 0);
		++*line;
		while (nt < 8 && token(l, ll, &i, &t, &tl)) {
			tok[nt] = t;
			toklen[nt++] = tl;
		}
		if (*line == 1) {
			if (nt != 5 || toklen[0] != 8 || memcmp(tok[0], "Filename", 8))
				return fail(msg, msz, "not a /proc/swaps header (expected \"Filename Type Size Used Priority\")");
			continue;
		}
		if (nt == 0)
			continue;
		if (nt != 5)
			return fail(msg, msz, "expected 5 fields (Filename Type Size Used Priority), found %d%s",
				    nt, nt == 8 ? " or more" : "");
		if (n == max)
			return fail(msg, msz, "more than %d swap devices", max);
		w = &out[n];
		if (unescape(tok[0], toklen[0], w->path, sizeof(w->path)))
			return fail(msg, msz, "file name too long or with a NUL byte");
		if (toklen[1] == 4 && !memcmp(tok[1], "file", 4))
			w->is_file = 1;
		else if (toklen[1] == 9 && !memcmp(tok[1], "partition", 9))
			w->is_file = 0;
		else
			return fail(msg, msz, "unknown swap type (Type, \"%.*s\"): expected partition or file",
				    (int)(toklen[1] > 32 ? 32 : toklen[1]), tok[1]);
		if (sr_parse_u64(tok[2], toklen[2], UINT64_MAX / 1024, &w->size_kib))
			return fail(msg, msz, "not a size in KiB (Size, \"%.*s\")",
				    (int)(toklen[2] > 32 ? 32 : toklen[2]), tok[2]);
		if (sr_parse_u64(tok[3], toklen[3], UINT64_MAX / 1024, &used))
			return fail(msg, msz, "not a size in KiB (Used, \"%.*s\")",
				    (int)(toklen[3] > 32 ? 32 : toklen[3]), tok[3]);
		if (toklen[4] >= sizeof(num_txt))
			goto bad_prio;
		memcpy(num_txt, tok[4], toklen[4]);
		num_txt[toklen[4]] = '\0';
		{
			char *end;

			errno = 0;
			prio = strtoll(num_txt, &end, 10);
			if (errno || *end || end == num_txt || num_txt[0] == '+' ||
			    num_txt[0] == ' ' || prio < -32768 || prio > 32767)
				goto bad_prio;
		}
		w->prio = (int)prio;
		n++;
		continue;
bad_prio:
		return fail(msg, msz, "not a priority from -32768 to 32767 (Priority, \"%.*s\")",
			    (int)(toklen[4] > 32 ? 32 : toklen[4]), tok[4]);
	}
	if (*line == 0)
		return fail(msg, msz, "empty file (expected the header \"Filename Type Size Used Priority\")");
	return n;
}

