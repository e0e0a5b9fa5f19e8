/* SPDX-License-Identifier: MIT */
/*
 * Output that is whole or absent: a temporary file beside the target,
 * renamed over it only once everything was written, flushed and closed
 * without error.  Its name holds its writer's process id, so that a later
 * writer of the same target removes the ones whose writer is gone (killed
 * by SIGKILL, or the machine stopped) and no other.  A target that exists and is not a regular file (a
 * terminal, a pipe, /dev/null, /dev/full) is written directly: renaming over
 * a device would replace it.  A symbolic link is written through: the
 * temporary file goes beside the file it names, which the rename replaces,
 * and the link stays.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "common/diag.h"
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

/* Longest chain of symbolic links followed (the kernel's MAXSYMLINKS). */
#define MAX_LINKS 40

/*
 * The file path names once its symbolic links are followed, even when the
 * last one names a file that does not exist yet (malloc'd); NULL with
 * errno (ELOOP for a loop).
 */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops <= MAX_LINKS; hops++) {
		struct stat st;
		char *target, *slash, *next;
		size_t cap;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		/* st_size is the target's length (0 for some pseudo-files). */
		cap = st.st_size > 0 ? (size_t)st.st_size + 1 : PATH_MAX;
		target = malloc(cap);
		if (!target)
			break;
		n = readlink(cur, target, cap - 1);
		if (n < 0) {
			free(target);
			break;
		}
		target[n] = '\0';
		slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			next = target;
		} else {
			/* Relative to the link's own directory. */
			size_t dlen = (size_t)(slash - cur) + 1;

			next = malloc(dlen + (size_t)n + 1);
			if (next) {
				memcpy(next, cur, dlen);
				memcpy(next + dlen, target, (size_t)n + 1);
			}
			free(target);
			if (!next)
				break;
		}
		free(cur);
		cur = next;
	}
	if (cur && hops > MAX_LINKS)
		errno = ELOOP;
	free(cur);
	return NULL;
}

enum sr_err sr_outfile_check_inputs(const char *path, const char *const *inputs, size_t n,
				    struct sr_diag *d)
{
	struct stat so, si;
	size_t i;

	if (strcmp(path, "-") == 0 || stat(path, &so) || !S_ISREG(so.st_mode))
		return SR_OK;
	for (i = 0; i < n; i++) {
		int in = inputs[i] && strcmp(inputs[i], "-") == 0; /* standard input */

		if (!inputs[i] || (in ? fstat(STDIN_FILENO, &si) : stat(inputs[i], &si)))
			continue;
		if (si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			sr_diag_file(d, path);
			return sr_diag_set(d, SR_ERR_INVAL,
					   "is also an input (%s): refusing to write over it",
					   in ? "standard input, '-'" : inputs[i]);
		}
	}
	return SR_OK;
}

/* Six characters of [A-Za-z0-9] for a temporary file's name, different
 * for each try and each process, as mkstemp()'s XXXXXX. */
static void temp_suffix(char *out, int tries)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	struct timespec ts;
	uint64_t x;
	int i;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	    ((uint64_t)tries * 0x9e3779b97f4a7c15ull);
	for (i = 0; i < 6; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdull;
		x ^= x >> 33;
		out[i] = abc[x % (sizeof(abc) - 1)];
	}
	out[6] = '\0';
}

/*
 * The process id in the name of a temporary file of the target named
 * `name` (".NAME.PID.XXXXXX", XXXXXX six letters or digits), or 0 if e is
 * no such name (another file, or an older build's ".NAME.XXXXXX").
 */
static pid_t temp_pid(const char *e, const char *name, size_t nl)
{
	long pid = 0;
	int i;

	if (e[0] != '.' || strncmp(e + 1, name, nl) || e[1 + nl] != '.')
		return 0;
	e += 2 + nl;
	if (*e < '1' || *e > '9')
		return 0;
	for (; *e >= '0' && *e <= '9'; e++) {
		pid = pid * 10 + (*e - '0');
		if (pid > 0x7fffffffL)
			return 0;
	}
	if (*e++ != '.')
		return 0;
	for (i = 0; i < 6; i++, e++)
		if (!((*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9')))
			return 0;
	return *e ? 0 : (pid_t)pid;
}

/*
 * Remove the temporary files of the target path (its directory the first
 * dlen bytes) whose writer no longer runs: kill(pid, 0) fails with ESRCH.
 * A live writer's stays, and so does one whose process is not ours to
 * signal (EPERM: it runs).  Best effort: a directory that cannot be read,
 * a file that cannot be removed, are left as they are.
 */
static void remove_stale(const char *path, size_t dlen)
{
	const char *name = path + dlen;
	size_t nl = strlen(name);
	char *dir;
	struct dirent *de;
	DIR *dp;

	dir = dlen ? strndup(path, dlen) : strdup(".");
	if (!dir)
		return;
	dp = opendir(dir);
	free(dir);
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		pid_t pid = temp_pid(de->d_name, name, nl);

		if (pid > 0 && pid != getpid() && kill(pid, 0) && errno == ESRCH)
			unlinkat(dirfd(dp), de->d_name, 0);
	}
	closedir(dp);
}

enum sr_err sr_outfile_open(struct sr_outfile **out, const char *path,
			    struct sr_diag *d)
{
	struct sr_outfile *o;
	struct stat st;
	const char *slash;
	size_t dlen;
	int fd, e, tries;

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
	o->path = follow_links(path);
	if (!o->path) {
		e = errno;
		free_outfile(o);
		if (e == ENOMEM)
			return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		return sr_diag_set(d, SR_ERR_IO, "cannot follow its symbolic link: %s",
				   strerror(e));
	}
	path = o->path;
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
	remove_stale(path, dlen);
	o->tmp = malloc(strlen(path) + 32);
	if (!o->tmp)
		goto out_nomem;
	/* "DIR/.NAME.PID.XXXXXX": hidden, in the same filesystem as the target
	 * so that rename() is atomic, and naming its writer (remove_stale()).
	 * The hook hears of each name before the file is created, so that a
	 * signal at any moment finds it there (mkstemp() would create the
	 * file before its name could be told). */
	memcpy(o->tmp, path, dlen);
	for (tries = 0;; tries++) {
		sprintf(o->tmp + dlen, ".%s.%ld.", path + dlen, (long)getpid());
		temp_suffix(o->tmp + strlen(o->tmp), tries);
		if (temp_hook)
			temp_hook(o->tmp, 1);
		/* 0666 less the umask: the mode a plain open would give. */
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			break;
		e = errno;
		if (temp_hook)
			temp_hook(o->tmp, 0);
		if (e != EEXIST || tries >= 100) {
			free_outfile(o);
			return sr_diag_set(d, SR_ERR_IO, "cannot create a temporary file beside it: %s",
					   strerror(e));
		}
	}
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
