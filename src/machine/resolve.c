/* SPDX-License-Identifier: MIT */
/*
 * Which machine a trace is replayed on, the same for replay, sweep and a
 * plan's units: the one asked for, else the description beside the trace
 * (as the capture writes it: traces/capture/), else the one recorded in
 * the trace's header, else the default preset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdio.h>

#include "common/diag.h"
#include "swapreplay/machine.h"

char *sr_machine_beside_path(const char *trace)
{
	const char *slash = strrchr(trace, '/'), *base = slash ? slash + 1 : trace, *dot;
	size_t len = strlen(base), dir = (size_t)(base - trace);
	char *out;

	/* X.EXT.zst, X.EXT or X: X (a name starting with a dot is all X). */
	if (len > 4 && !strcmp(base + len - 4, ".zst"))
		len -= 4;
	for (dot = base + len; dot > base + 1 && dot[-1] != '.'; dot--)
		;
	if (dot > base + 1)
		len = (size_t)(dot - 1 - base);
	out = malloc(dir + len + sizeof(".machine.json"));
	if (!out)
		return NULL;
	memcpy(out, trace, dir + len);
	strcpy(out + dir + len, ".machine.json");
	return out;
}

enum sr_err sr_machine_load_file_only(struct sr_machine **out, const char *path,
				      struct sr_diag *d)
{
	struct stat st;

	*out = NULL;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		sr_diag_clear(d);
		sr_diag_file(d, path);
		return sr_diag_set(d, SR_ERR_IO, "not a regular file (%s): a machine description "
				   "found by its name is read from a file only",
				   S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ?
				   "a directory" : "a device or socket");
	}
	return sr_machine_load(out, path, d);
}

const char *sr_machine_src_name(enum sr_machine_src src)
{
	switch (src) {
	case SR_MACHINE_FROM_OPTION: return "-m";
	case SR_MACHINE_FROM_BESIDE: return "beside the trace";
	case SR_MACHINE_FROM_HEADER: return "trace header";
	default: return "default";
	}
}

enum sr_err sr_machine_resolve(struct sr_machine **out, const struct sr_machine_where *w,
			       enum sr_machine_src *src, char **path, struct sr_diag *d)
{
	struct stat st;
	char *beside = NULL;
	enum sr_err err;

	*out = NULL;
	*path = NULL;
	sr_diag_clear(d);
	if (w->option) {
		*src = SR_MACHINE_FROM_OPTION;
		err = sr_machine_load(out, w->option, d);
		if (!err && !(*out)->from_preset && !(*path = strdup(w->option)))
			goto nomem;
		return err;
	}
	if (w->trace && strcmp(w->trace, "-")) {
		beside = sr_machine_beside_path(w->trace);
		if (!beside)
			goto nomem;
		if (!stat(beside, &st) || errno != ENOENT) {
			*src = SR_MACHINE_FROM_BESIDE;
			*path = beside;
			err = sr_machine_load_file_only(out, beside, d);
			if (err && err != SR_ERR_NOMEM) {
				char msg[sizeof(d->msg)];

				/* Its message names the file (and the line). */
				snprintf(msg, sizeof(msg), "%s", d->msg);
				sr_diag_set(d, err, "%s (the machine description beside the trace)",
					    msg);
			}
			return err;
		}
		free(beside);
	}
	if (w->header_json) {
		*src = SR_MACHINE_FROM_HEADER;
		return sr_machine_parse(out, w->header_json, strlen(w->header_json),
					w->header_origin ? w->header_origin : "machine in the trace header",
					d);
	}
	*src = SR_MACHINE_FROM_DEFAULT;
	return sr_machine_load(out, SR_MACHINE_DEFAULT, d);
nomem:
	sr_machine_free(*out);
	*out = NULL;
	return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
}
