/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"

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
