/* SPDX-License-Identifier: MIT */
/*
 * Output that is whole or absent: a temporary file beside the target,
 * renamed over it only once everything was written, flushed and closed
 * without error.  A target that exists and is not a regular file (a
 * terminal, a pipe, /dev/null, /dev/full) is written directly: renaming over
 * a device would replace it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/internal.h"
#include "swapreplay/outfile.h"

struct sr_outfile {
	FILE *fp;
	char *path;  /* the target */
	char *tmp;   /* temporary file, NULL when writing directly */
	int std;     /* fp is stdout: never closed here */
};

static void (*temp_hook)(const char *name, int created);

void sr_outfile_set_hook(void (*hook)(const char *temp_name, int created))
{
	temp_hook = hook;
}

static void free_outfile(struct sr_outfile *o)
{
	free(o->path);
	free(o->tmp);
	free(o);
}

enum sr_err sr_outfile_open(struct sr_outfile **out, const char *path,
			    struct sr_diag *d)
{
	struct sr_outfile *o;
	struct stat st;
	const char *slash;
	size_t dlen;
	mode_t um;
	int fd;

	*out = NULL;
	sr_diag_file(d, path);
	o = calloc(1, sizeof(*o));
	if (!o)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		o->std = 1;
		*out = o;
		return SR_OK;
	}
	o->path = strdup(path);
	if (!o->path)
		goto out_nomem;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			free_outfile(o);
			return sr_diag_set(d, SR_ERR_IO, "is a directory");
		}
		o->fp = fopen(path, "wb");
		if (!o->fp) {
			free_outfile(o);
			return sr_diag_set(d, SR_ERR_IO, "cannot open for writing: %s",
					   strerror(errno));
		}
		*out = o;
		return SR_OK;
	}
	slash = strrchr(path, '/');
	dlen = slash ? (size_t)(slash - path) + 1 : 0;
	o->tmp = malloc(strlen(path) + 16);
	if (!o->tmp)
		goto out_nomem;
	/* "DIR/.NAME.XXXXXX": hidden, and in the same filesystem as the target
	 * so that rename() is atomic. */
	memcpy(o->tmp, path, dlen);
	sprintf(o->tmp + dlen, ".%s.XXXXXX", path + dlen);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		free_outfile(o);
		return sr_diag_set(d, SR_ERR_IO, "cannot create a temporary file beside it: %s",
				   strerror(e));
	}
	/* mkstemp makes 0600; give the file the mode a plain open would. */
	um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	if (temp_hook)
		temp_hook(o->tmp, 1);
	o->fp = fdopen(fd, "wb");
	if (!o->fp) {
		close(fd);
		unlink(o->tmp);
		if (temp_hook)
			temp_hook(o->tmp, 0);
		goto out_nomem;
	}
	*out = o;
	return SR_OK;

out_nomem:
	free_outfile(o);
	return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
}

FILE *sr_outfile_stream(struct sr_outfile *o)
{
	return o->fp;
}

const char *sr_outfile_temp_name(const struct sr_outfile *o)
{
	return o->tmp;
}

enum sr_err sr_outfile_commit(struct sr_outfile *o, struct sr_diag *d)
{
	enum sr_err err = SR_OK;
	int e = 0;

	errno = 0;
	if (fflush(o->fp) || ferror(o->fp))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fsync(fileno(o->fp)) && errno != EINVAL)
		e = errno;
	if (!o->std) {
		if (fclose(o->fp) && !e)
			e = errno ? errno : EIO;
	}
	if (e) {
		sr_diag_file(d, o->path ? o->path : "-");
		err = sr_diag_set(d, SR_ERR_IO, "write failed: %s", strerror(e));
	} else if (o->tmp && rename(o->tmp, o->path)) {
		sr_diag_file(d, o->path);
		err = sr_diag_set(d, SR_ERR_IO, "cannot rename the finished file into place: %s",
				  strerror(errno));
	}
	if (o->tmp) {
		if (err)
			unlink(o->tmp);
		if (temp_hook)
			temp_hook(o->tmp, 0);
	}
	free_outfile(o);
	return err;
}

void sr_outfile_abort(struct sr_outfile *o)
{
	if (!o)
		return;
	if (!o->std)
		fclose(o->fp);
	if (o->tmp) {
		unlink(o->tmp);
		if (temp_hook)
			temp_hook(o->tmp, 0);
	}
	free_outfile(o);
}
