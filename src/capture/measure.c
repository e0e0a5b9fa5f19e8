/* SPDX-License-Identifier: MIT */
/*
 * `swapreplay machine --probe --measure`: the swap devices' figures
 * measured with fio (Debian's fio, the field's tool) rather than left to
 * their class's defaults.  docs/MACHINE.md, "Measured figures".
 *
 * For each DMA device (nvme, ssd, hdd) that swap is on, six fio jobs (and a check, below), one
 * fio run each, 4 KiB requests for latency and IOPS and 1 MiB for
 * bandwidth, libaio and O_DIRECT as swap's own I/O bypasses the page
 * cache:
 *
 *   job             on                  gives           from fio's JSON
 *   seqwrite        a file of ours      write_bw_gb_s   write.bw_bytes / 1e9
 *   randwrite-qd1   the same file       write_lat_us    write.clat_ns.mean / 1e3
 *   randwrite-qd32  the same file       write_iops      write.iops
 *   randread-qd1    the block device    read_lat_us     read.clat_ns.mean / 1e3
 *   randread-qd32   the block device    read_iops       read.iops
 *   seqread         the block device    read_bw_gb_s    read.bw_bytes / 1e9
 *
 * and a seventh, a check rather than an input: mixed, one fio run of two
 * jobs on the file, 4 KiB random writes at depth 32 (mixed-write) while
 * 4 KiB random reads at depth 1 (mixed-read) time their completions: the
 * read latency under a write load, which the model derives (docs/MODEL.md,
 * D3) and does not take.  It goes into the device's sources as
 * read_lat_under_write_us, and a note prints it.
 *
 * Completion latency (clat), not fio's total: fio's submission is its own
 * system call, which the kernel's swap I/O does not make.  Depth 32 is a
 * SATA queue's tags and saturates the devices the presets describe; a
 * device that needs more shows fewer IOPS than it has (said in the
 * source).
 *
 * Safety: nothing is written to a swap area or to a device.  Reads come
 * from the device holding the swap area, fio told --readonly (or, where
 * it cannot be opened, a container's device rules, from the temporary
 * file, through its file system: said in the sources); writes go
 * to a temporary file made here (mkstemp) in the swap file's own
 * directory, on the same file system, removed afterwards.  A swap
 * partition has no file system of ours: its write figures stay the
 * defaults, and a note says so.  A zram device is measured on another
 * zram device added for it, never itself (measure_zram(), below).  pmem
 * is not measured (a memory copy): its figures stay the defaults, and a
 * note says so.  The CPU's figures (reclaim, the fault, the locks) are
 * not measured: no job times them alone; a note says so.  On the system
 * itself (root "/") it needs root, as reading a block device does.
 *
 * Time: --measure=SECONDS (default 60) for all the jobs of all devices,
 * each job its share (at least 2 s); a job still running 30 s past its
 * share is killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/fio_parse.h"
#include "capture/probe_parse.h"
#include "common/compiler.h"
#include "common/diag.h"
#include "swapreplay/machine.h"

#define NJOBS 6
#define MEASURE_FILE_MAX ((uint64_t)256 << 20) /* the write jobs' file */
#define MEASURE_FILE_MIN ((uint64_t)16 << 20)
#define OUT_MAX ((size_t)4 << 20)              /* fio's JSON, at most */

static const struct job {
	const char *name;
	int on_file;           /* 1: our file (writes); 0: the device (reads) */
	const char *rw, *bs;
	int depth;
	const char *key;       /* the description's key it gives */
} jobs[NJOBS] = {
	{ "seqwrite", 1, "write", "1M", 16, "write_bw_gb_s" },
	{ "randwrite-qd1", 1, "randwrite", "4k", 1, "write_lat_us" },
	{ "randwrite-qd32", 1, "randwrite", "4k", 32, "write_iops" },
	{ "randread-qd1", 0, "randread", "4k", 1, "read_lat_us" },
	{ "randread-qd32", 0, "randread", "4k", 32, "read_iops" },
	{ "seqread", 0, "read", "1M", 16, "read_bw_gb_s" },
};

struct notes {
	char *p;
	size_t len, cap;
};

/*
 * Ctrl-C (SIGINT) or SIGTERM while measuring: the signal is held here
 * (measure_stop), the fio running is killed, no further job starts, what
 * was made is undone (the temporary file removed, an added zram device
 * reset and removed), the caller's handlers are put back and the signal
 * raised again for them.
 */
static volatile sig_atomic_t measure_stop;

static void on_stop(int sig)
{
	measure_stop = sig;
}

static void add_note(struct notes *n, const char *fmt, ...) SR_PRINTF(2, 3);
static void add_note(struct notes *n, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int k;
	size_t need;

	va_start(ap, fmt);
	k = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	need = n->len + strlen(tmp) + 2;
	if (need > n->cap) {
		size_t cap = need * 2;
		char *q = realloc(n->p, cap);

		if (!q)
			return;
		n->p = q;
		n->cap = cap;
	}
	n->len += (size_t)sprintf(n->p + n->len, "%s\n", tmp);
}

/* Whether fio can be run: fio itself when it names a path, else an
 * executable "fio" on PATH. */
static int have_fio(const char *fio)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(fio, '/'))
		return access(fio, X_OK) == 0;

	while (path && *path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);

		if (n && n + 5 < sizeof(buf)) {
			memcpy(buf, path, n);
			memcpy(buf + n, "/fio", 5);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		path = c ? c + 1 : NULL;
	}
	return 0;
}

/* Read what is there from fd into b (at most OUT_MAX); 0 at its end. */
static int drain(int fd, char **b, size_t *len, size_t *cap)
{
	char tmp[65536];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (*len + (size_t)n + 1 > *cap && *len + (size_t)n < OUT_MAX) {
		size_t c = (*len + (size_t)n + 1) * 2;
		char *q = realloc(*b, c);

		if (!q)
			return 0;
		*b = q;
		*cap = c;
	}
	if (*len + (size_t)n + 1 <= *cap) {
		memcpy(*b + *len, tmp, (size_t)n);
		*len += (size_t)n;
		(*b)[*len] = '\0';
	}
	return 1;
}

/*
 * Run fio with argv, for at most limit seconds: its standard output in
 * *out (len), the last of its standard error in err.  0 it exited 0; 1
 * otherwise (why in err); -1 it could not be started.
 */
static int run_fio(const char *fio, char *const argv[], int limit, char **out, size_t *olen,
		   char *err, size_t esz)
{
	int po[2], pe[2], status = 0, open_o = 1, open_e = 1;
	char *eb = NULL;
	size_t elen = 0, ecap = 0, ocap = 0;
	time_t end = time(NULL) + limit;
	pid_t pid;

	*out = NULL;
	*olen = 0;
	err[0] = '\0';
	if (pipe(po))
		return -1;
	if (pipe(pe)) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		execvp(fio, argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	while (open_o || open_e) {
		struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
		time_t now = time(NULL);
		int r;

		if (now >= end || measure_stop) {
			kill(pid, SIGKILL);
			if (measure_stop)
				snprintf(err, esz, "interrupted (signal %d)", (int)measure_stop);
			else
				snprintf(err, esz, "killed: still running %d s after it started", limit);
			break;
		}
		fds[0].fd = open_o ? po[0] : -1;
		fds[1].fd = open_e ? pe[0] : -1;
		r = poll(fds, 2, (int)(end - now) * 1000);
		if (r < 0 && errno != EINTR)
			break;
		if (open_o && (fds[0].revents & (POLLIN | POLLHUP)))
			open_o = drain(po[0], out, olen, &ocap);
		if (open_e && (fds[1].revents & (POLLIN | POLLHUP)))
			open_e = drain(pe[0], &eb, &elen, &ecap);
	}
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err[0] && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		/* fio's last line of standard error says why. */
		const char *last = "";

		if (eb) {
			char *e = eb + elen;

			while (e > eb && (e[-1] == '\n' || e[-1] == ' '))
				*--e = '\0';
			last = strrchr(eb, '\n') ? strrchr(eb, '\n') + 1 : eb;
		}
		if (WIFEXITED(status))
			snprintf(err, esz, "fio exited %d%s%s", WEXITSTATUS(status), *last ? ": " : "",
				 last);
		else
			snprintf(err, esz, "fio ended by signal %d", WIFSIGNALED(status) ?
				 WTERMSIG(status) : 0);
	}
	free(eb);
	return err[0] ? 1 : 0;
}

/* The temporary file for the write jobs, in dir (on the swap file's file
 * system): its path in path, size in *size.  0, or -1 with why. */
static int make_file(const char *dir, char *path, size_t psz, uint64_t *size, char *why,
		     size_t wsz)
{
	struct statvfs sv;
	uint64_t avail;
	int fd;

	if (statvfs(dir, &sv)) {
		snprintf(why, wsz, "%.200s: %s", dir, strerror(errno));
		return -1;
	}
	if (sv.f_flag & ST_RDONLY) {
		snprintf(why, wsz, "%.200s is on a read-only file system", dir);
		return -1;
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	*size = avail / 10 < MEASURE_FILE_MAX ? avail / 10 : MEASURE_FILE_MAX;
	*size &= ~(((uint64_t)1 << 20) - 1);
	if (*size < MEASURE_FILE_MIN) {
		snprintf(why, wsz, "%.200s has %llu MiB free: a file of at least %llu MiB, a tenth of it, "
			 "would not fit", dir, (unsigned long long)(avail >> 20),
			 (unsigned long long)(MEASURE_FILE_MIN >> 20));
		return -1;
	}
	if (snprintf(path, psz, "%s/.swapreplay-measure.XXXXXX", dir) >= (int)psz) {
		snprintf(why, wsz, "the swap file's directory's path is too long");
		return -1;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(why, wsz, "%.200s: %s", dir, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* The value job j gives, from its result r, or -1: not usable (why). */
static double value_of(const struct job *j, const struct sr_fio_job *r, char *why, size_t wsz)
{
	const struct sr_fio_dir *d = j->on_file ? &r->write : &r->read;

	if (r->error) {
		snprintf(why, wsz, "fio's job failed (error %d)", r->error);
		return -1;
	}
	if (d->total_ios < 10) {
		snprintf(why, wsz, "only %llu requests done", (unsigned long long)d->total_ios);
		return -1;
	}
	if (!strcmp(j->key, "write_bw_gb_s") || !strcmp(j->key, "read_bw_gb_s"))
		return d->bw_bytes > 0 ? d->bw_bytes / 1e9 : -1;
	if (!strcmp(j->key, "write_lat_us") || !strcmp(j->key, "read_lat_us"))
		return d->clat_mean_ns > 0 ? d->clat_mean_ns / 1e3 : -1;
	return d->iops > 0 ? d->iops : -1;
}

/* The arguments every fio run starts with (JSON out, no progress, direct
 * I/O, random offsets not repeated and not tracked), engine the
 * ioengine: their count. */
static int fio_args(char **argv, const char *engine)
{
	int n = 0;

	argv[n++] = "fio";
	argv[n++] = "--output-format=json";
	argv[n++] = "--eta=never";
	argv[n++] = !strcmp(engine, "psync") ? "--ioengine=psync" : "--ioengine=libaio";
	argv[n++] = "--direct=1";
	argv[n++] = "--randrepeat=0";
	argv[n++] = "--norandommap";
	return n;
}

/* t's day, YYYY-MM-DD, in date (left as it is if t cannot be had). */
static void day_of(time_t t, char *date, size_t dsz)
{
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(date, dsz, "%Y-%m-%d", &tm);
}

/* The day fio ran (its output's "timestamp"), in date; left as it is
 * when the output has none. */
static void fio_day(const char *out, size_t olen, char *date, size_t dsz)
{
	time_t t = (time_t)sr_fio_timestamp(out, olen);

	if (t)
		day_of(t, date, dsz);
}

struct measured {
	double v[NJOBS];       /* -1: not measured */
	char src[NJOBS][300];
	double mixed;          /* read latency under a write load, us; -1: none */
	char mixed_src[400];
};

/* The check figure: reads at depth 1 timed while writes at depth 32 run,
 * both on our file (filled by seqwrite).  m->mixed, or a note. */
static void measure_mixed(const char *name, const char *file, uint64_t size, int share,
			  const struct sr_measure_opts *o, struct measured *m, struct notes *nt)
{
	char a[3][PATH_MAX + 96], why[300], err[400], date[16] = "";
	char *argv[24], *out = NULL;
	struct sr_fio_job r[2];
	size_t olen = 0;
	int n = 0, rc, nj, k, rd = -1;

	m->mixed = -1;
	snprintf(a[0], sizeof(a[0]), "--filename=%s", file);
	snprintf(a[1], sizeof(a[1]), "--runtime=%d", share);
	snprintf(a[2], sizeof(a[2]), "--size=%llu", (unsigned long long)size);
	n = fio_args(argv, "libaio");
	argv[n++] = "--bs=4k";
	argv[n++] = "--time_based";
	argv[n++] = a[0];
	argv[n++] = a[1];
	argv[n++] = a[2];
	argv[n++] = "--name=mixed-write";
	argv[n++] = "--rw=randwrite";
	argv[n++] = "--iodepth=32";
	argv[n++] = "--name=mixed-read";
	argv[n++] = "--rw=randread";
	argv[n++] = "--iodepth=1";
	argv[n] = NULL;
	rc = run_fio(o->fio ? o->fio : "fio", argv, share + 30, &out, &olen, err, sizeof(err));
	if (rc < 0) {
		add_note(nt, "%s: mixed: fio could not be started: %s", name, strerror(errno));
	} else if (rc > 0) {
		add_note(nt, "%s: mixed: %s: the read latency under a write load is not measured",
			 name, err);
	} else if ((nj = sr_fio_parse(out, olen, r, 2, why, sizeof(why))) < 1) {
		add_note(nt, "%s: mixed: %s: the read latency under a write load is not measured",
			 name, nj == 0 ? "no job in fio's output" : why);
	} else {
		for (k = 0; k < nj; k++)
			if (!strcmp(r[k].name, "mixed-read"))
				rd = k;
		if (rd < 0 || r[rd].error || r[rd].read.total_ios < 10 || r[rd].read.clat_mean_ns <= 0) {
			add_note(nt, "%s: mixed: no usable reads in fio's output: the read latency "
				 "under a write load is not measured", name);
		} else {
			fio_day(out, olen, date, sizeof(date));
			m->mixed = r[rd].read.clat_mean_ns / 1e3;
			snprintf(m->mixed_src, sizeof(m->mixed_src),
				 "measured by fio, %s, mixed: --bs=4k --runtime=%d, mixed-read --rw=randread "
				 "--iodepth=1 while mixed-write --rw=randwrite --iodepth=32, on a temporary "
				 "file on its file system: the reads' completion latency, mean, %.1f us (a "
				 "check: the model derives it, docs/MODEL.md D3; not an input)",
				 date[0] ? date : "date unknown", share, m->mixed);
			add_note(nt, "%s: read latency under a write load: %.1f us (4 KiB reads at depth 1 "
				 "while 4 KiB writes at depth 32 run; at rest %.1f us): a check, in the "
				 "device's sources", name, m->mixed, m->v[3] > 0 ? m->v[3] : 0.0);
		}
	}
	free(out);
}

/* Measure one device: reads from dev_path, writes in dir (NULL: none). */
static void measure_device(const char *name, const char *dev_path, const char *dir, int share,
			   const struct sr_measure_opts *o, int *done, int total,
			   struct measured *m, struct notes *nt)
{
	char file[PATH_MAX + 64] = "", why[300], err[400], date[16] = "", arg[12][PATH_MAX + 64];
	const char *rd = dev_path, *rd_what = dev_path;
	uint64_t size = 0;
	int i, k, fd, have_file = 0;

	for (i = 0; i < NJOBS; i++)
		m->v[i] = -1;
	if (dir) {
		if (make_file(dir, file, sizeof(file), &size, why, sizeof(why)))
			add_note(nt, "%s: write figures not measured (the class defaults): %s", name, why);
		else
			have_file = 1;
	}
	/* The reads come from the device; where it cannot be opened (a
	 * container's device rules), from the file written, on it. */
	fd = open(dev_path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
	} else if (have_file) {
		add_note(nt, "%s: %s: %s: the read figures are measured on the temporary file, "
			 "through its file system", name, dev_path, strerror(errno));
		rd = file;
		rd_what = "the temporary file, through its file system";
	} else {
		add_note(nt, "%s: read figures not measured (the class defaults): %s: %s", name,
			 dev_path, strerror(errno));
		rd = NULL;
	}
	for (i = 0; i < NJOBS; i++) {
		const struct job *j = &jobs[i];
		struct sr_fio_job r[2];
		char *argv[24], *out = NULL;
		size_t olen = 0;
		int n = 0, rc, njobs;

		if (measure_stop)
			break;
		if ((j->on_file && !have_file) || (!j->on_file && !rd))
			continue;
		if (o->progress)
			o->progress(o->progress_arg, name, j->name, ++*done, total);
		snprintf(arg[0], sizeof(arg[0]), "--name=%s", j->name);
		if (snprintf(arg[1], sizeof(arg[1]), "--filename=%s", j->on_file ? file : rd) >=
		    (int)sizeof(arg[1])) {
			add_note(nt, "%s: %s: its path is too long: %s keeps its class default", name,
				 j->name, j->key);
			continue;
		}
		snprintf(arg[2], sizeof(arg[2]), "--rw=%s", j->rw);
		snprintf(arg[3], sizeof(arg[3]), "--bs=%s", j->bs);
		snprintf(arg[4], sizeof(arg[4]), "--iodepth=%d", j->depth);
		snprintf(arg[5], sizeof(arg[5]), "--runtime=%d", share);
		snprintf(arg[6], sizeof(arg[6]), "--size=%llu", (unsigned long long)size);
		n = fio_args(argv, "libaio");
		argv[n++] = "--percentile_list=50:99";
		for (k = 0; k < 6; k++)
			argv[n++] = arg[k];
		if (j->on_file)
			argv[n++] = arg[6];
		if (strcmp(j->name, "seqwrite"))
			argv[n++] = "--time_based";
		if (!j->on_file)
			argv[n++] = "--readonly";
		argv[n] = NULL;
		rc = run_fio(o->fio ? o->fio : "fio", argv, share + 30, &out, &olen, err, sizeof(err));
		if (rc < 0) {
			add_note(nt, "%s: %s: fio could not be started: %s", name, j->name,
				 strerror(errno));
		} else if (rc > 0) {
			add_note(nt, "%s: %s: %s: %s keeps its class default", name, j->name, err,
				 j->key);
		} else if ((njobs = sr_fio_parse(out, olen, r, 2, why, sizeof(why))) < 1) {
			add_note(nt, "%s: %s: %s: %s keeps its class default", name, j->name,
				 njobs == 0 ? "no job in fio's output" : why, j->key);
		} else if ((m->v[i] = value_of(j, &r[0], why, sizeof(why))) < 0) {
			add_note(nt, "%s: %s: %s: %s keeps its class default", name, j->name, why,
				 j->key);
		} else {
			fio_day(out, olen, date, sizeof(date));
			if (snprintf(m->src[i], sizeof(m->src[i]),
				 "measured by fio, %s, %s: --rw=%s --bs=%s --iodepth=%d --runtime=%d%s "
				 "on %s (%s)", date[0] ? date : "date unknown", j->name, j->rw, j->bs,
				 j->depth, share, j->on_file ? "" : " --readonly",
				 j->on_file ? "a temporary file on its file system" : rd_what,
				 strstr(j->key, "lat") ? "completion latency, mean" :
				 strstr(j->key, "iops") ? "IOPS" : "bandwidth") >= (int)sizeof(m->src[i]))
				strcpy(m->src[i] + sizeof(m->src[i]) - 4, "...");
		}
		free(out);
	}
	m->mixed = -1;
	if (have_file && m->v[0] >= 0 && !measure_stop) {
		if (o->progress)
			o->progress(o->progress_arg, name, "mixed", ++*done, total);
		measure_mixed(name, file, size, share, o, m, nt);
	}
	if (have_file)
		unlink(file);
}

/* Read a small sysfs file (under root) into buf, trailing newline
 * dropped: 0, or -1. */
static int read_small(const char *root, const char *rel, char *buf, size_t bsz)
{
	char path[PATH_MAX + 64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, bsz - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Write s into a sysfs file under root: 0, or -1 (errno). */
static int write_small(const char *root, const char *rel, const char *s)
{
	char path[PATH_MAX + 64];
	int fd, e;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

#define ZRAM_JOBS 3
#define ZRAM_MEASURE_SIZE "64M"

/* zram's figures: compress_gb_s, decompress_gb_s, compress_ratio. */
struct zmeasured {
	double v[3];           /* -1: not measured */
	char src[3][400];
};

/*
 * A zram device measured through a block device: never the swap area
 * (its slots are in use, and read back mostly as empty pages), but an
 * unused zram device added for the purpose (zram-control/hot_add), with
 * the swap device's compressor, filled by fio (data that compresses to
 * about half, as fio makes it), then timed 4 KiB random writes and reads
 * at depth 1, and removed (reset, hot_remove).  The rates are the whole
 * request's, the block layer's and zram's copies with the compression
 * (the model's Z1 adds the copies again: a little slower than the
 * compressor).  The ratio is the swap device's own, from its mm_stat
 * (orig_data_size / compr_data_size), when it holds pages; else the
 * default stays.
 */
static void measure_zram(const char *name, const char *root, const char *zname, int share,
			 const struct sr_measure_opts *o, int *done, int total,
			 struct zmeasured *z, struct notes *nt)
{
	static const struct {
		const char *name, *rw;
		int timed;
	} zj[ZRAM_JOBS] = {
		{ "zram-fill", "write", 0 },
		{ "zram-write-qd1", "randwrite", 1 },
		{ "zram-read-qd1", "randread", 1 },
	};
	char buf[512], rel[128], alg[64] = "", dev[PATH_MAX + 96], zdev[32], date[16] = "";
	char a[3][PATH_MAX + 128], why[300], err[400];
	unsigned long long orig, compr;
	long id;
	int i, n, added = 0;

	for (i = 0; i < 3; i++)
		z->v[i] = -1;
	if (strlen(zname) > 31) {
		add_note(nt, "%s: not measured: its device's name is too long", name);
		return;
	}
	/* The swap device's own ratio, from what it holds now. */
	snprintf(rel, sizeof(rel), "sys/block/%.31s/mm_stat", zname);
	if (read_small(root, rel, buf, sizeof(buf)) || sscanf(buf, "%llu %llu", &orig, &compr) != 2) {
		add_note(nt, "%s: compress_ratio keeps its class default: no %s to read", name, rel);
	} else if (orig >= ((unsigned long long)1 << 20) && compr > 0) {
		/* Today, or SOURCE_DATE_EPOCH's (reproducible output, the
		 * tests). */
		const char *sde = getenv("SOURCE_DATE_EPOCH");

		day_of(sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL), date, sizeof(date));
		z->v[2] = (double)orig / (double)compr;
		snprintf(z->src[2], sizeof(z->src[2]), "measured from %.31s's mm_stat, %s: "
			 "orig_data_size %llu / compr_data_size %llu, what it held then", zname,
			 date, orig, compr);
	} else {
		add_note(nt, "%s: compress_ratio keeps its class default: %s holds under 1 MiB (its "
			 "mm_stat), nothing to take a ratio of", name, zname);
	}
	snprintf(rel, sizeof(rel), "sys/block/%.31s/comp_algorithm", zname);
	if (!read_small(root, rel, buf, sizeof(buf))) {
		const char *l = strchr(buf, '['), *r = l ? strchr(l, ']') : NULL;

		if (l && r && r - l - 1 < (long)sizeof(alg))
			snprintf(alg, sizeof(alg), "%.*s", (int)(r - l - 1), l + 1);
	}
	errno = 0;
	if (read_small(root, "sys/class/zram-control/hot_add", buf, sizeof(buf)) ||
	    sscanf(buf, "%ld", &id) != 1 || id < 0) {
		add_note(nt, "%s: compress_gb_s and decompress_gb_s keep their class defaults: no "
			 "unused zram device could be added (sys/class/zram-control/hot_add: %s); the "
			 "swap device itself is never written", name, errno ? strerror(errno) :
			 "no number");
		return;
	}
	added = 1;
	snprintf(zdev, sizeof(zdev), "zram%ld", id);
	if (alg[0]) {
		snprintf(rel, sizeof(rel), "sys/block/%s/comp_algorithm", zdev);
		if (write_small(root, rel, alg))
			add_note(nt, "%s: %s: cannot set its compressor to %s (%s): measured with its "
				 "default", name, zdev, alg, strerror(errno));
	}
	snprintf(rel, sizeof(rel), "sys/block/%s/disksize", zdev);
	snprintf(dev, sizeof(dev), "%s/dev/%s", !strcmp(root, "/") ? "" : root, zdev);
	if (write_small(root, rel, ZRAM_MEASURE_SIZE)) {
		add_note(nt, "%s: %s: cannot set its disksize (%s): compress_gb_s and decompress_gb_s "
			 "keep their class defaults", name, zdev, strerror(errno));
		goto out;
	}
	for (i = 0; i < ZRAM_JOBS && !measure_stop; i++) {
		struct sr_fio_job r[2];
		char *argv[24], *out = NULL, rt[32];
		size_t olen = 0;
		int rc, nj, k = zj[i].timed ? (i == 1 ? 0 : 1) : -1;
		const struct sr_fio_dir *d;

		if (o->progress)
			o->progress(o->progress_arg, name, zj[i].name, ++*done, total);
		snprintf(a[0], sizeof(a[0]), "--filename=%s", dev);
		snprintf(a[1], sizeof(a[1]), "--name=%s", zj[i].name);
		snprintf(a[2], sizeof(a[2]), "--rw=%s", zj[i].rw);
		n = fio_args(argv, "psync");
		argv[n++] = "--refill_buffers";
		argv[n++] = "--buffer_compress_percentage=50";
		argv[n++] = "--buffer_compress_chunk=4k";
		argv[n++] = "--size=" ZRAM_MEASURE_SIZE;
		argv[n++] = a[0];
		argv[n++] = a[1];
		argv[n++] = a[2];
		argv[n++] = zj[i].timed ? "--bs=4k" : "--bs=1M";
		if (zj[i].timed)
			argv[n++] = "--time_based";
		snprintf(rt, sizeof(rt), "--runtime=%d", share);
		argv[n++] = rt;
		argv[n] = NULL;
		rc = run_fio(o->fio ? o->fio : "fio", argv, share + 30, &out, &olen, err, sizeof(err));
		if (rc) {
			add_note(nt, "%s: %s on %s: %s: compress_gb_s and decompress_gb_s keep their "
				 "class defaults", name, zj[i].name, zdev, rc < 0 ? strerror(errno) : err);
			free(out);
			break;
		}
		if (!zj[i].timed) {
			free(out);
			continue;
		}
		nj = sr_fio_parse(out, olen, r, 2, why, sizeof(why));
		d = nj >= 1 ? (i == 1 ? &r[0].write : &r[0].read) : NULL;
		if (!d || r[0].error || d->total_ios < 10 || d->clat_mean_ns <= 0) {
			add_note(nt, "%s: %s on %s: %s: %s keeps its class default", name, zj[i].name,
				 zdev, nj < 0 ? why : "no usable requests in fio's output",
				 k == 0 ? "compress_gb_s" : "decompress_gb_s");
		} else {
			fio_day(out, olen, date, sizeof(date));
			z->v[k] = 4096.0 / d->clat_mean_ns; /* bytes per ns: GB/s */
			snprintf(z->src[k], sizeof(z->src[k]), "measured by fio, %s, %s: --rw=%s --bs=4k "
				 "--iodepth=1 --runtime=%d on %s, a zram device added for it (compressor "
				 "%s, filled with data fio makes half compressible), removed after: 4096 B / "
				 "the completion latency, mean (%.2f us: the block layer and zram's copy "
				 "with the %s)", date[0] ? date : "date unknown", zj[i].name, zj[i].rw,
				 share, zdev, alg[0] ? alg : "its default", d->clat_mean_ns / 1e3,
				 k == 0 ? "compression" : "decompression");
		}
		free(out);
	}
out:
	if (added) {
		snprintf(rel, sizeof(rel), "sys/block/%s/reset", zdev);
		write_small(root, rel, "1");
		snprintf(buf, sizeof(buf), "%ld", id);
		if (write_small(root, "sys/class/zram-control/hot_remove", buf))
			add_note(nt, "%s: %s, added to measure, could not be removed (%s): echo %ld "
				 ">/sys/class/zram-control/hot_remove", name, zdev, strerror(errno), id);
	}
}

/* The probe's comment c ends "performance figures: the CLASS class
 * defaults, not measured" (from pf): no longer so once figures are. */
static void set_comment(json_t *dev, const char *c, const char *pf, int measured)
{
	char cm[1400];

	if (snprintf(cm, sizeof(cm), "%.*sperformance figures: %d measured (sources), the rest "
		     "the %s class defaults", c ? (int)(pf ? pf - c : (int)strlen(c)) : 0,
		     c ? c : "", measured, json_string_value(json_object_get(dev, "class"))) <
	    (int)sizeof(cm))
		json_object_set_new(dev, "comment", json_string(cm));
}

enum sr_err sr_machine_measure(const char *root, char **json, const struct sr_measure_opts *o,
			       char **notes, struct sr_diag *diag)
{
	struct sr_diag dummy;
	struct notes nt = { 0 };
	struct sr_probe_swap sw[SR_MACHINE_MAX_DEVICES];
	char path[PATH_MAX + 64], msg[300];
	json_error_t je;
	json_t *doc, *devs, *dev;
	char *data = NULL, *out, (*disks)[256];
	struct sigaction sa, old_int, old_term;
	struct measured *ms;
	size_t len = 0, i;
	int *same;
	uint64_t line;
	int nsw, n_dma = 0, n_zram = 0, total, done = 0, share, any = 0, sys = !root || !*root || !strcmp(root, "/");
	double seconds = o && o->seconds > 0 ? o->seconds : SR_MEASURE_SECONDS;
	FILE *f;

	if (!diag)
		diag = &dummy;
	if (notes)
		*notes = NULL;
	if (o && o->fio && !have_fio(o->fio))
		return sr_diag_set(diag, SR_ERR_INVAL, "--measure: fio '%s' is not an executable "
				   "file", o->fio);
	if ((!o || !o->fio) && !have_fio("fio"))
		return sr_diag_set(diag, SR_ERR_INVAL, "--measure needs fio, which is not on PATH "
				   "(Debian: apt-get install fio)");
	if (sys && geteuid() != 0)
		return sr_diag_set(diag, SR_ERR_INVAL, "--measure needs root: fio reads the swap "
				   "devices' block devices");
	snprintf(path, sizeof(path), "%s/proc/swaps", sys ? "" : root);
	f = fopen(path, "r");
	if (f) {
		char buf[65536];

		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		data = malloc(len + 1);
		if (!data)
			return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
		memcpy(data, buf, len);
	}
	nsw = data ? sr_probe_swaps(data, len, sw, SR_MACHINE_MAX_DEVICES, &line, msg, sizeof(msg))
		   : 0;
	free(data);
	if (nsw < 0)
		return sr_diag_set(diag, SR_ERR_FORMAT, "%s: line %llu: %s", path,
				   (unsigned long long)line, msg);
	doc = json_loads(*json, 0, &je);
	if (!doc)
		return sr_diag_set(diag, SR_ERR_FORMAT, "the probed description: %s", je.text);
	devs = json_object_get(doc, "devices");
	/* The probe wrote one device per line of /proc/swaps, in its order. */
	if (!json_is_array(devs) || (int)json_array_size(devs) != nsw) {
		json_decref(doc);
		return sr_diag_set(diag, SR_ERR_FORMAT, "the probed description has %d devices, "
				   "/proc/swaps %d lines", json_is_array(devs) ?
				   (int)json_array_size(devs) : -1, nsw);
	}
	/* Swap areas on one disk (two swap files on one file system) are
	 * measured once: the disk is what fio measures, and its time is
	 * shared among the disks.  same[i] is the first device on i's disk
	 * with as much to measure (a file's writes; a partition has none). */
	same = malloc(nsw * sizeof(*same) + 1);
	ms = malloc(nsw * sizeof(*ms) + 1);
	disks = malloc(nsw * sizeof(*disks) + 1);
	if (!same || !ms || !disks) {
		free(same);
		free(ms);
		free(disks);
		json_decref(doc);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	json_array_foreach(devs, i, dev) {
		const char *cls = json_string_value(json_object_get(dev, "class"));
		char devname[256], why[300];
		size_t j;

		same[i] = -1;
		disks[i][0] = '\0';
		if (!cls || (strcmp(cls, "nvme") && strcmp(cls, "ssd") && strcmp(cls, "hdd")))
			continue;
		if (!sr_probe_swap_device(root, &sw[i], devname, sizeof(devname), disks[i],
					  sizeof(disks[i]), why, sizeof(why)))
			for (j = 0; j < i; j++)
				if (disks[j][0] && !strcmp(disks[j], disks[i]) &&
				    sw[j].is_file >= sw[i].is_file) {
					same[i] = (int)j;
					break;
				}
		n_dma += same[i] < 0;
	}
	json_array_foreach(devs, i, dev) {
		const char *cls = json_string_value(json_object_get(dev, "class"));

		n_zram += cls && !strcmp(cls, "zram");
	}
	total = n_dma * (NJOBS + 1) + n_zram * ZRAM_JOBS;
	share = total ? (int)(seconds / total) : 0;
	if (share < 2)
		share = 2;
	measure_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop; /* no SA_RESTART: poll() returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	json_array_foreach(devs, i, dev) {
		const char *cls = json_string_value(json_object_get(dev, "class"));
		const char *name = json_string_value(json_object_get(dev, "name"));
		char devname[256], disk[256], why[300], devpath[PATH_MAX + 64], dir[PATH_MAX + 64];
		struct measured m;
		json_t *src;
		struct stat st;
		int k, measured = 0, hdd, reclassed = 0;

		if (!cls || !name || measure_stop)
			continue;
		if (!strcmp(cls, "zram")) {
			static const char *const zkeys[3] = { "compress_gb_s", "decompress_gb_s",
							      "compress_ratio" };
			const char *zn = strrchr(sw[i].path, '/') ? strrchr(sw[i].path, '/') + 1 :
					 sw[i].path;
			struct zmeasured z;

			measure_zram(name, sys ? "/" : root, zn, share, o, &done, total, &z, &nt);
			src = json_object();
			for (k = 0; k < 3; k++) {
				if (z.v[k] < 0)
					continue;
				json_object_set_new(dev, zkeys[k], json_real(z.v[k]));
				json_object_set_new(src, zkeys[k], json_string(z.src[k]));
				measured++;
			}
			if (measured) {
				const char *c = json_string_value(json_object_get(dev, "comment"));

				json_object_set_new(dev, "sources", src);
				set_comment(dev, c, c ? strstr(c, "performance figures:") : NULL, measured);
				any++;
			} else {
				json_decref(src);
			}
			continue;
		}
		if (strcmp(cls, "nvme") && strcmp(cls, "ssd") && strcmp(cls, "hdd")) {
			add_note(&nt, "%s: a %s device is not measured (its figures are memory copies, "
				 "not requests): its figures stay the class defaults", name, cls);
			continue;
		}
		if (sr_probe_swap_device(root, &sw[i], devname, sizeof(devname), disk, sizeof(disk),
					 why, sizeof(why))) {
			add_note(&nt, "%s: not measured: %s", name, why);
			continue;
		}
		snprintf(devpath, sizeof(devpath), "%s/dev/%s", sys ? "" : root, devname);
		if (stat(devpath, &st) || (sys && !S_ISBLK(st.st_mode))) {
			add_note(&nt, "%s: not measured: no block device %s", name, devpath);
			continue;
		}
		dir[0] = '\0';
		if (sw[i].is_file) {
			char *slash;

			if (snprintf(dir, sizeof(dir), "%s%s", sys ? "" : root, sw[i].path) >=
			    (int)sizeof(dir)) {
				add_note(&nt, "%s: not measured: its path is too long", name);
				continue;
			}
			slash = strrchr(dir, '/');
			if (slash && slash != dir)
				*slash = '\0';
		} else {
			add_note(&nt, "%s: write figures not measured (the class defaults): a swap "
				 "partition, and nothing may be written to it", name);
		}
		if (same[i] >= 0 && same[same[i]] == -2) {
			const char *first = json_string_value(json_object_get(
				json_array_get(devs, (size_t)same[i]), "name"));

			add_note(&nt, "%s: on %s with %s: %s's figures (a disk is measured once)",
				 name, disk, first, first);
			m = ms[same[i]];
		} else {
			measure_device(name, devpath, dir[0] ? dir : NULL, share, o, &done,
				       total, &m, &nt);
			ms[i] = m;
			same[i] = -2; /* measured */
		}
		/* A disk that says it rotates but answers a random read in
		 * under 2 ms is not a rotating disk (a virtual disk): ssd. */
		hdd = !strcmp(cls, "hdd");
		if (hdd && m.v[3] > 0 && m.v[3] < 2000) {
			add_note(&nt, "%s: class ssd, not hdd: queue/rotational says 1, but a random "
				 "4 KiB read took %.0f us (a virtual disk?)", name, m.v[3]);
			json_object_set_new(dev, "class", json_string("ssd"));
			hdd = 0;
			reclassed = 1;
		}
		if (hdd && (m.v[1] > 0 || m.v[2] > 0 || m.v[3] > 0 || m.v[4] > 0))
			add_note(&nt, "%s: an hdd's latency and IOPS come from its seek and rotation "
				 "figures: only the measured bandwidths are taken", name);
		src = json_object();
		for (k = 0; k < NJOBS; k++) {
			/* An hdd's latency and IOPS come from its seeks and
			 * rpm: only its bandwidths are taken. */
			if (m.v[k] < 0 || (hdd && !strstr(jobs[k].key, "_bw_")))
				continue;
			json_object_set_new(dev, jobs[k].key, json_real(m.v[k]));
			json_object_set_new(src, jobs[k].key, json_string(m.src[k]));
			measured++;
		}
		if (m.mixed > 0) {
			json_object_set_new(src, "read_lat_under_write_us", json_string(m.mixed_src));
			if (!measured)
				json_object_set_new(dev, "sources", json_incref(src));
		}
		if (measured) {
			const char *c = json_string_value(json_object_get(dev, "comment"));
			const char *pf = c ? strstr(c, "performance figures:") : NULL;
			const char *was = c ? strstr(c, "class hdd: queue/rotational is 1") : NULL;
			char fixed[1400];

			if (reclassed && was && pf && was < pf &&
			    snprintf(fixed, sizeof(fixed), "%.*sclass ssd: queue/rotational is 1, but "
				     "fio read 4 KiB at random in %.0f us%.*s", (int)(was - c), c, m.v[3],
				     (int)(pf - was - strlen("class hdd: queue/rotational is 1")),
				     was + strlen("class hdd: queue/rotational is 1")) < (int)sizeof(fixed)) {
				c = fixed;
				pf = strstr(c, "performance figures:");
			}

			json_object_set_new(dev, "sources", src);
			set_comment(dev, c, pf, measured);
			any++;
		} else {
			json_decref(src);
		}
	}
	free(same);
	free(ms);
	free(disks);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (measure_stop) {
		int sig = (int)measure_stop;

		json_decref(doc);
		free(nt.p);
		/* Everything made is undone: the caller's handler now. */
		raise(sig);
		return sr_diag_set(diag, SR_ERR_INVAL, "--measure: interrupted (signal %d); "
				   "nothing left behind", sig);
	}
	if (total)
		add_note(&nt, "not measured, the defaults: the CPU's figures (reclaim per folio and "
			 "page, the swap-in fault, the lock holds: no fio job times them alone), "
			 "memory and the interconnect");
	if (any) {
		json_object_set_new(doc, "comment", json_string(
			"written by swapreplay machine --probe --measure: nodes, CPUs, distances, swap "
			"devices (swap type order), their nodes, sizes and priorities are read; the "
			"class is guessed from the device; the devices' figures measured by fio are "
			"named in each device's sources, every other performance figure takes its "
			"default"));
		json_object_set_new(doc, "sources", json_string(
			"fio (machine --probe --measure): the device figures each device's sources "
			"name; defaults: interconnect, memory, cpu and every other device figure are "
			"the class defaults of docs/MACHINE.md (Default figures and their sources)"));
	}
	out = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(doc);
	if (!out) {
		free(nt.p);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	free(*json);
	*json = malloc(strlen(out) + 2);
	if (!*json) {
		free(out);
		free(nt.p);
		return sr_diag_set(diag, SR_ERR_NOMEM, "out of memory");
	}
	sprintf(*json, "%s\n", out);
	free(out);
	if (notes)
		*notes = nt.p;
	else
		free(nt.p);
	return SR_OK;
}
