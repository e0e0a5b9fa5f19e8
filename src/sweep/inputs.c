/* SPDX-License-Identifier: MIT */
/*
 * A sweep's inputs expanded into the traces it replays: trace files,
 * directories (searched recursively, files starting with "." skipped),
 * glob patterns and @LIST files.  Directories and globs are sorted, so the
 * order, and with it the unit numbers, is the same on every run.  A file
 * found in a directory or by a glob that is by its content one of
 * swapreplay's own files but not a trace (a sweep's result file or plan, a
 * machine description, a replay report, a capture's .info) is skipped,
 * with the reason, unless every file is asked for: an archive holds them
 * beside its traces, and the sweep's own output may be in it.  Also the
 * lists of strings the sweep keeps.
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/filekind.h"
#include "common/diag.h"
#include "trace/source.h"
#include "sweep/sweep_impl.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum sr_err nomem(struct sr_diag *d)
{
	return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
}

/* What the JSON object o is, when it is one of swapreplay's files and not
 * a trace; NULL otherwise. */
static const char *json_kind(const json_t *o)
{
	switch (sr_json_file_kind(o)) {
	case SR_KIND_SWEEP: return "a sweep's result file";
	case SR_KIND_PLAN: return "a sweep plan";
	case SR_KIND_REPORT: return "a replay report";
	case SR_KIND_COMPARE: return "a comparison of two reports";
	case SR_KIND_MACHINE: return "a machine description";
	default: return NULL;
	}
}

/* Whether path is named as a trace is (.csv, .jsonl, .swt, .vmstat, .log,
 * each maybe .zst): one that no reader takes is a damaged trace, whose
 * rows say what is wrong, not a file to pass over. */
static int trace_name(const char *path)
{
	static const char *const ext[] = { ".csv", ".jsonl", ".swt", ".vmstat", ".log", NULL };
	size_t len = strlen(path);
	int i;

	if (len > 4 && !strcmp(path + len - 4, ".zst"))
		len -= 4;
	for (i = 0; ext[i]; i++) {
		size_t el = strlen(ext[i]);

		if (len > el && !strncmp(path + len - el, ext[i], el))
			return 1;
	}
	return 0;
}

/*
 * Why path is not a trace, by its first 64 KiB (decompressed), or NULL:
 * a trace, or a file that is neither (its rows will say what is wrong
 * with it: only what is recognised is skipped).
 */
static const char *not_a_trace(const char *path)
{
	struct sr_src *src = NULL;
	const unsigned char *p;
	const char *t, *nl, *why = NULL;
	size_t n;
	json_error_t je;
	json_t *o;

	if (sr_src_open(&src, path, NULL) || sr_src_peek(src, 1 << 16, &p, &n, NULL) || !n)
		goto out;
	t = (const char *)p;
	nl = memchr(t, '\n', n);
	if (t[0] == '{') {
		o = json_loadb(t, nl ? (size_t)(nl - t) : n, 0, &je);
		/* Not an object on its first line: a document over several. */
		if (!json_is_object(o) && n < (1 << 16)) {
			json_decref(o);
			o = json_loadb(t, n, 0, &je);
		}
		if (json_is_object(o))
			why = json_kind(o);
		json_decref(o);
	} else if (n >= 5 && !memcmp(t, "unit,", 5)) {
		why = "a sweep's result file";
	} else if (n >= 8 && !memcmp(t, "kernel: ", 8) &&
		   (memmem(t, n, "\ngeneration: ", 13) || memmem(t, n, "\nprobes: ", 9))) {
		why = "a capture's .info file";
	} else if ((n >= 8 && !memcmp(t, "swapext,", 8)) ||
		   (n >= 21 && !memcmp(t, "# swapreplay-capture/", 21)) ||
		   memmem(t, n, "\n# swapreplay-capture/", 22)) {
		/* Its extents first (tracepoints), or bpftrace's "Attaching N
		 * probes..." and the program's comment line (kprobes). */
		why = "a raw capture (capture-fixup makes it a trace)";
	} else if (!trace_name(path) && !sr_trace_sniff(p, n)) {
		why = "not a trace (its first bytes are no .swt header, JSON lines, vmstat log, "
		      "or CSV header naming ts_ns, op, cpu_nid and page_nid)";
	}
out:
	sr_src_close(src);
	return why;
}

/* A file found in a directory or by a glob: kept, or skipped with why. */
static enum sr_err found(struct sr_strs *out, struct sr_strs *skipped, const char *path,
			 int every_file, struct sr_diag *d)
{
	const char *why = every_file ? NULL : not_a_trace(path);

	if (!why)
		return sr_strs_add(out, path, strlen(path)) ? nomem(d) : SR_OK;
	if (sr_strs_add(skipped, path, strlen(path)) || sr_strs_add(skipped, why, strlen(why)))
		return nomem(d);
	return SR_OK;
}

/* A file found in a directory or by a glob that is not a regular one (a
 * FIFO would block the sweep, a device be read for ever): skipped, with
 * why.  One named on the command line is swept (its rows say what it
 * gave). */
static enum sr_err not_regular(struct sr_strs *skipped, const char *path, const struct stat *st,
			       struct sr_diag *d)
{
	const char *why = S_ISFIFO(st->st_mode) ? "not a regular file (a FIFO)" :
			  S_ISSOCK(st->st_mode) ? "not a regular file (a socket)" :
			  "not a regular file (a device)";

	if (sr_strs_add(skipped, path, strlen(path)) || sr_strs_add(skipped, why, strlen(why)))
		return nomem(d);
	return SR_OK;
}

/*
 * Every regular file under dir (not starting with "."), sorted.  A
 * directory that cannot be read fails with no message: the command line
 * has always stopped there without one (exit status 2), and keeps doing so
 * until that is fixed.
 */
static enum sr_err walk_dir(const char *dir, struct sr_strs *out, struct sr_strs *skipped,
			    int every_file, struct sr_diag *d)
{
	struct sr_strs here = { 0 };
	DIR *dh = opendir(dir);
	struct dirent *e;
	size_t i;
	enum sr_err rc = SR_OK;

	if (!dh) {
		sr_diag_clear(d);
		if (d)
			d->code = SR_ERR_IO;
		return SR_ERR_IO;
	}
	while ((e = readdir(dh))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			rc = nomem(d);
			break;
		}
		if (sr_strs_add(&here, p, strlen(p)))
			rc = nomem(d);
		free(p);
		if (rc)
			break;
	}
	closedir(dh);
	if (here.n) /* an empty directory has no array at all */
		qsort(here.v, here.n, sizeof(*here.v), cmp_str);
	for (i = 0; !rc && i < here.n; i++) {
		struct stat st;

		if (stat(here.v[i], &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk_dir(here.v[i], out, skipped, every_file, d);
		else if (S_ISREG(st.st_mode))
			rc = found(out, skipped, here.v[i], every_file, d);
		else
			rc = not_regular(skipped, here.v[i], &st, d);
	}
	sr_strs_free(&here);
	return rc;
}

/* globbed: arg is a glob's match (a file is then checked as one found in
 * a directory). */
static enum sr_err expand(struct sr_strs *out, struct sr_strs *skipped, const char *arg,
			  int every_file, int depth, int globbed, struct sr_diag *d)
{
	struct stat st;
	int there;

	if (arg[0] == '@' && depth < 4) {
		FILE *f = fopen(arg + 1, "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		enum sr_err rc = SR_OK;

		if (!f) {
			sr_diag_file(d, arg + 1);
			return sr_diag_set(d, SR_ERR_IO, "cannot open the list: %s", strerror(errno));
		}
		while (!rc && (n = getline(&line, &cap, f)) >= 0) {
			while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
				line[--n] = '\0';
			if (!n || line[0] == '#')
				continue;
			rc = expand(out, skipped, line, every_file, depth + 1, 0, d);
		}
		free(line);
		fclose(f);
		return rc;
	}
	if (strpbrk(arg, "*?[")) {
		glob_t g;
		size_t i;
		enum sr_err rc = SR_OK;

		if (glob(arg, 0, NULL, &g) == 0) {
			for (i = 0; !rc && i < g.gl_pathc; i++)
				rc = expand(out, skipped, g.gl_pathv[i], every_file, depth + 1, 1, d);
			globfree(&g);
			return rc;
		}
		globfree(&g);
		return sr_diag_set(d, SR_ERR_IO, "no file matches '%s'", arg);
	}
	there = stat(arg, &st) == 0;
	if (there && S_ISDIR(st.st_mode))
		return walk_dir(arg, out, skipped, every_file, d);
	if (globbed && there && S_ISREG(st.st_mode))
		return found(out, skipped, arg, every_file, d);
	if (globbed && there)
		return not_regular(skipped, arg, &st, d);
	/* A file named, or a missing one: its rows will say so. */
	return sr_strs_add(out, arg, strlen(arg)) ? nomem(d) : SR_OK;
}

enum sr_err sr_sweep_expand(struct sr_strs *out, struct sr_strs *skipped, const char *arg,
			    int every_file, struct sr_diag *d)
{
	return expand(out, skipped, arg, every_file, 0, 0, d);
}
