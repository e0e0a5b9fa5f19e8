/* SPDX-License-Identifier: MIT */
/*
 * Which machine a trace is replayed on, the same for replay, sweep and a
 * plan's units: the one asked for, else the description beside the trace
 * (as the capture writes it: traces/capture/), else the one recorded in
 * the trace's header, else the default preset.  And which kernel: the one
 * asked for, else the one recorded with the trace (the capture's X.info
 * beside it, else the machine description's "kernel"), else the newest
 * long-term release modelled (SR_KERNEL_DEFAULT).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdio.h>

#include "common/diag.h"
#include "swapreplay/machine.h"

/* DIR/X.SUFFIX for DIR/X.EXT[.zst]; malloc'ed. */
static char *beside_path(const char *trace, const char *suffix)
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
	out = malloc(dir + len + strlen(suffix) + 1);
	if (!out)
		return NULL;
	memcpy(out, trace, dir + len);
	strcpy(out + dir + len, suffix);
	return out;
}

char *sr_machine_beside_path(const char *trace)
{
	return beside_path(trace, ".machine.json");
}

char *sr_info_beside_path(const char *trace)
{
	return beside_path(trace, ".info");
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

/*
 * The "kernel: RELEASE" line of a capture's X.info (swapreplay-record
 * writes `uname -r` there): RELEASE into buf, 1; 0 when the file is not
 * there, not a regular file, or has no such line; -1 when it cannot be
 * read (errno).
 */
static int info_kernel(const char *path, char *buf, size_t n)
{
	struct stat st;
	char line[512];
	FILE *f;
	int found = 0;

	if (stat(path, &st))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	if (!S_ISREG(st.st_mode))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");

		line[len] = '\0';
		if (!strncmp(line, "kernel: ", 8) && line[8] && len - 8 < n) {
			memcpy(buf, line + 8, len - 8 + 1);
			found = 1;
		}
	}
	if (ferror(f) && !found) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	return found;
}

enum sr_err sr_kernel_resolve(struct sr_kernel *k, const char *option, const char *trace,
			      const struct sr_machine *m, const char *mwhere, char *why,
			      size_t n, struct sr_diag *d)
{
	char rel[128], *info = NULL;
	int rc = 0;

	sr_diag_clear(d);
	if (option) {
		snprintf(why, n, "--kernel");
		return sr_kernel_parse(option, k, d);
	}
	if (trace && strcmp(trace, "-")) {
		info = sr_info_beside_path(trace);
		if (!info)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		rc = info_kernel(info, rel, sizeof(rel));
		if (rc < 0) {
			sr_diag_file(d, info);
			sr_diag_set(d, SR_ERR_IO, "cannot read the capture's notes beside the trace "
				    "(for the kernel it was recorded on): %s", strerror(errno));
			free(info);
			return SR_ERR_IO;
		}
		if (rc) {
			const char *base = strrchr(info, '/');

			snprintf(why, n, "recorded with the trace: %s beside it says kernel %s",
				 base ? base + 1 : info, rel);
			if (sr_kernel_parse(rel, k, d)) {
				char msg[sizeof(d->msg)];

				snprintf(msg, sizeof(msg), "%s", d->msg);
				sr_diag_file(d, info);
				sr_diag_set(d, SR_ERR_INVAL, "the kernel the trace was recorded on: %s; "
					    "give --kernel to replay it on a kernel modelled", msg);
				free(info);
				return SR_ERR_INVAL;
			}
			free(info);
			return SR_OK;
		}
		free(info);
	}
	if (m && m->kernel[0]) {
		snprintf(why, n, "recorded in the machine description (%s): kernel %s",
			 mwhere ? mwhere : m->name, m->kernel);
		if (sr_kernel_parse(m->kernel, k, d)) {
			char msg[sizeof(d->msg)];

			snprintf(msg, sizeof(msg), "%s", d->msg);
			sr_diag_set(d, SR_ERR_INVAL, "the kernel of machine %s (%s): %s; give --kernel "
				    "to replay on a kernel modelled", m->name, mwhere ? mwhere : "its "
				    "description", msg);
			return SR_ERR_INVAL;
		}
		return SR_OK;
	}
	/* No comma in these: a sweep's CSV rows carry them (kernel_modelled). */
	snprintf(why, n, "the newest long-term release modelled: no --kernel and none recorded "
		 "with the trace");
	return sr_kernel_parse(SR_KERNEL_DEFAULT, k, d);
}
