/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>

#include "common/diag.h"

const char *sr_strerror(enum sr_err err)
{
	switch (err) {
	case SR_OK: return "success";
	case SR_ERR_NOMEM: return "out of memory";
	case SR_ERR_IO: return "input/output error";
	case SR_ERR_FORMAT: return "invalid input";
	case SR_ERR_ZSTD: return "zstd error";
	case SR_ERR_INVAL: return "invalid argument";
	case SR_ERR_MACHINE: return "invalid machine description";
	case SR_ERR_POLICY: return "policy error";
	case SR_ERR_LIMIT: return "limit exceeded";
	}
	return "unknown error";
}

void sr_diag_clear(struct sr_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}

void sr_diag_file(struct sr_diag *d, const char *name)
{
	if (!d)
		return;
	snprintf(d->file, sizeof(d->file), "%s", name ? name : "");
}

enum sr_err sr_diag_set(struct sr_diag *d, enum sr_err code, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return code;
	d->code = code;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return code;
}

void sr_diag_format(const struct sr_diag *d, char *buf, size_t size)
{
	const char *msg;

	if (!size)
		return;
	msg = d->msg[0] ? d->msg : sr_strerror(d->code);
	if (!d->file[0])
		snprintf(buf, size, "%s", msg);
	else if (d->line)
		snprintf(buf, size, "%s:%" PRIu64 ": %s", d->file, d->line, msg);
	else if (d->record && !d->has_offset)
		snprintf(buf, size, "%s: event %" PRIu64 ": %s", d->file, d->record, msg);
	else if (d->has_offset && d->record)
		snprintf(buf, size, "%s: byte %" PRIu64 ", record %" PRIu64 ": %s",
			 d->file, d->byte_offset, d->record, msg);
	else if (d->has_offset)
		snprintf(buf, size, "%s: byte %" PRIu64 ": %s", d->file,
			 d->byte_offset, msg);
	else
		snprintf(buf, size, "%s: %s", d->file, msg);
}

/* ---- "did you mean" ----------------------------------------------------- */

/*
 * The optimal string alignment distance between a and b, each at most
 * SR_SUGGEST_MAX long: insertions, deletions, substitutions and swaps of
 * two neighbours, each 1.
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[SR_SUGGEST_MAX + 1][SR_SUGGEST_MAX + 1];

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

int sr_suggest(const char *word, const char *const *names, size_t n, const char **out, int max)
{
	size_t len = word ? strlen(word) : 0, best = 3, i, dist, nprefix = 0, prefix = 0;
	int k = 0;

	if (!len || len > SR_SUGGEST_MAX || max <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!names[i] || strlen(names[i]) > SR_SUGGEST_MAX)
			continue;
		dist = edit_distance(word, names[i]);
		if (dist < best && dist < len)
			best = dist;
		if (!strncmp(word, names[i], len)) {
			prefix = i;
			nprefix++;
		}
	}
	if (nprefix == 1) {
		out[0] = names[prefix];
		return 1;
	}
	for (i = 0; best <= 2 && i < n && k < max; i++)
		if (names[i] && strlen(names[i]) <= SR_SUGGEST_MAX &&
		    edit_distance(word, names[i]) == best)
			out[k++] = names[i];
	return k;
}

int sr_suggest_text(const char *word, const char *const *names, size_t n, const char *prefix,
		    char *buf, size_t size)
{
	const char *s[4];
	size_t at;
	int k, i;

	if (!size)
		return 0;
	buf[0] = '\0';
	k = sr_suggest(word, names, n, s, 4);
	if (!k)
		return 0;
	snprintf(buf, size, "did you mean ");
	for (i = 0; i < k; i++) {
		at = strlen(buf);
		snprintf(buf + at, size - at, "%s'%s%s'", i == 0 ? "" : i == k - 1 ? " or " : ", ",
			 prefix ? prefix : "", s[i]);
	}
	at = strlen(buf);
	snprintf(buf + at, size - at, "?");
	return k;
}
