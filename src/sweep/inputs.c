/* SPDX-License-Identifier: MIT */
/*
 * A sweep's inputs expanded into the traces it replays: trace files,
 * directories (searched recursively, files starting with "." skipped),
 * glob patterns and @LIST files.  Directories and globs are sorted, so the
 * order, and with it the unit numbers, is the same on every run.  Also the
 * lists of strings the sweep keeps.
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/internal.h"
#include "sweep/sweep_impl.h"

int sr_strs_add(struct sr_strs *s, const char *x, size_t len)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		char **nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n] = strndup(x, len);
	return s->v[s->n] ? (int)(s->n++, 0) : -1;
}

void sr_strs_free(struct sr_strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum sr_err nomem(struct sr_diag *d)
{
	return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
}

/*
 * Every regular file under dir (not starting with "."), sorted.  A
 * directory that cannot be read fails with no message: the command line
 * has always stopped there without one (exit status 2), and keeps doing so
 * until that is fixed.
 */
static enum sr_err walk_dir(const char *dir, struct sr_strs *out, struct sr_diag *d)
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
			rc = walk_dir(here.v[i], out, d);
		else if (S_ISREG(st.st_mode) && sr_strs_add(out, here.v[i], strlen(here.v[i])))
			rc = nomem(d);
	}
	sr_strs_free(&here);
	return rc;
}

static enum sr_err expand(struct sr_strs *out, const char *arg, int depth, struct sr_diag *d)
{
	struct stat st;

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
			rc = expand(out, line, depth + 1, d);
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
				rc = expand(out, g.gl_pathv[i], depth + 1, d);
			globfree(&g);
			return rc;
		}
		globfree(&g);
		return sr_diag_set(d, SR_ERR_IO, "no file matches '%s'", arg);
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return walk_dir(arg, out, d);
	/* A file, or a missing one: its rows will say so. */
	return sr_strs_add(out, arg, strlen(arg)) ? nomem(d) : SR_OK;
}

enum sr_err sr_sweep_expand(struct sr_strs *out, const char *arg, struct sr_diag *d)
{
	return expand(out, arg, 0, d);
}
