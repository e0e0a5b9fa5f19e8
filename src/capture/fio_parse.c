/* SPDX-License-Identifier: MIT */
/* Reading fio's JSON results (fio_parse.h). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "capture/fio_parse.h"

/* A number field of o, or dflt when it is absent or not a number. */
static double num(const json_t *o, const char *key, double dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static void dir_of(const json_t *job, const char *which, struct sr_fio_dir *d)
{
	const json_t *o = json_object_get(job, which), *c, *p;
	double n;

	memset(d, 0, sizeof(*d));
	d->clat_p50_ns = d->clat_p99_ns = -1;
	if (!json_is_object(o))
		return;
	n = num(o, "total_ios", 0);
	d->total_ios = n > 0 ? (uint64_t)n : 0;
	d->iops = num(o, "iops", 0);
	d->bw_bytes = num(o, "bw_bytes", 0);
	c = json_object_get(o, "clat_ns");
	if (!json_is_object(c))
		return;
	d->clat_mean_ns = num(c, "mean", 0);
	p = json_object_get(c, "percentile");
	if (json_is_object(p)) {
		d->clat_p50_ns = num(p, "50.000000", -1);
		d->clat_p99_ns = num(p, "99.000000", -1);
	}
}

/* Where the document starts: the first line that begins with '{' (len
 * when there is none). */
static size_t doc_start(const char *out, size_t len)
{
	size_t at = 0;

	while (at < len && out[at] != '{') {
		const char *nl = memchr(out + at, '\n', len - at);

		if (!nl)
			return len;
		at = (size_t)(nl - out) + 1;
	}
	return at;
}

uint64_t sr_fio_timestamp(const char *out, size_t len)
{
	size_t at = doc_start(out, len);
	json_t *root = at < len ? json_loadb(out + at, len - at, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	double t = root ? num(root, "timestamp", 0) : 0;

	json_decref(root);
	return t > 0 ? (uint64_t)t : 0;
}

int sr_fio_parse(const char *out, size_t len, struct sr_fio_job *jobs, int max, char *msg,
		 size_t msz)
{
	json_error_t je;
	json_t *root, *arr, *job;
	size_t at = doc_start(out, len), i;
	int n;

	if (at >= len) {
		snprintf(msg, msz, "no JSON document in fio's output");
		return -1;
	}
	root = json_loadb(out + at, len - at, JSON_DISABLE_EOF_CHECK, &je);
	if (!root) {
		snprintf(msg, msz, "fio's JSON: %s (line %d)", je.text, je.line);
		return -1;
	}
	arr = json_object_get(root, "jobs");
	if (!json_is_array(arr)) {
		json_decref(root);
		snprintf(msg, msz, "fio's JSON has no \"jobs\" array");
		return -1;
	}
	n = (int)json_array_size(arr);
	json_array_foreach(arr, i, job) {
		const json_t *name = json_object_get(job, "jobname");

		if ((int)i >= max)
			break;
		snprintf(jobs[i].name, sizeof(jobs[i].name), "%s",
			 json_is_string(name) ? json_string_value(name) : "");
		jobs[i].error = (int)num(job, "error", 0);
		dir_of(job, "read", &jobs[i].read);
		dir_of(job, "write", &jobs[i].write);
	}
	json_decref(root);
	return n;
}
