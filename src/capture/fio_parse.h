/* SPDX-License-Identifier: MIT */
/*
 * Reading fio's results (fio --output-format=json; the fields of fio 3.x's
 * stat.c, checked against fio-3.33, Debian 12's): what `machine --probe
 * --measure` takes of each job.  Pure, for the unit tests.  Not installed.
 */
#ifndef SR_CAPTURE_FIO_PARSE_H
#define SR_CAPTURE_FIO_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* One direction (read or write) of one job. */
struct sr_fio_dir {
	uint64_t total_ios;     /* "total_ios": 0, the job did none this way */
	double iops;            /* "iops" */
	double bw_bytes;        /* "bw_bytes": bytes per second */
	double clat_mean_ns;    /* "clat_ns"."mean": completion latency (submission
				 * to completion; the system call's part, slat, apart) */
	double clat_p50_ns;     /* "clat_ns"."percentile"."50.000000", -1 absent */
	double clat_p99_ns;     /* ... "99.000000", -1 absent */
};

struct sr_fio_job {
	char name[64];          /* "jobname" */
	int error;              /* "error": fio's errno for the job, 0 none */
	struct sr_fio_dir read, write;
};

/*
 * fio's standard output (len bytes, not NUL-terminated): the JSON document
 * that starts at the first line beginning with '{' (fio may print error
 * lines before it, on the same stream), and nothing is read past its end.
 * Up to max jobs into jobs; returns how many the document has (more than
 * max: the rest not stored), or -1 with a message in msg.
 */
int sr_fio_parse(const char *out, size_t len, struct sr_fio_job *jobs, int max, char *msg,
		 size_t msz);
/* The document's "timestamp" (when fio ran, seconds since the epoch), or
 * 0: the same output as sr_fio_parse() takes. */
uint64_t sr_fio_timestamp(const char *out, size_t len);

#endif /* SR_CAPTURE_FIO_PARSE_H */
