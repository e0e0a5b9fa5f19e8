/* SPDX-License-Identifier: MIT */
/*
 * Format detection and the loop common to every reader: skipping bad
 * records under --max-errors, counting timestamps that go backwards, and
 * making the first fatal error sticky.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>

#include "trace/reader_impl.h"
#include "common/diag.h"
#include "trace/fields.h"

/* Probed in this order: the binary magic first, then JSON, CSV last (it
 * accepts anything that is not the others).  Checklist: enum sr_format. */
static const struct sr_reader_ops *const readers[] = {
	&sr_reader_swt_ops,
	&sr_reader_jsonl_ops,
	&sr_reader_vmstat_ops,
	&sr_reader_csv_ops,
	NULL,
};

const char *sr_format_name(enum sr_format f)
{
	switch (f) {
	case SR_FMT_AUTO: return "auto";
	case SR_FMT_CSV: return "csv";
	case SR_FMT_JSONL: return "jsonl";
	case SR_FMT_SWT: return "swt";
	case SR_FMT_VMSTAT: return "vmstat";
	}
	return "?";
}

enum sr_err sr_format_parse(const char *s, enum sr_format *out)
{
	if (!strcmp(s, "csv"))
		*out = SR_FMT_CSV;
	else if (!strcmp(s, "jsonl") || !strcmp(s, "json"))
		*out = SR_FMT_JSONL;
	else if (!strcmp(s, "swt") || !strcmp(s, "binary"))
		*out = SR_FMT_SWT;
	else if (!strcmp(s, "vmstat"))
		*out = SR_FMT_VMSTAT;
	else if (!strcmp(s, "auto"))
		*out = SR_FMT_AUTO;
	else
		return SR_ERR_INVAL;
	return SR_OK;
}

static int ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

enum sr_format sr_format_from_name(const char *path, int *zst)
{
	size_t n = strlen(path);

	*zst = ends_with(path, n, ".zst");
	if (*zst)
		n -= 4;
	if (ends_with(path, n, ".csv"))
		return SR_FMT_CSV;
	if (ends_with(path, n, ".jsonl") || ends_with(path, n, ".json") ||
	    ends_with(path, n, ".ndjson"))
		return SR_FMT_JSONL;
	if (ends_with(path, n, ".swt"))
		return SR_FMT_SWT;
	return SR_FMT_AUTO;
}

uint64_t sr_trace_events_guess(const char *path)
{
	struct stat st;
	enum sr_format f;
	int zst;
	uint64_t per;

	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	f = sr_format_from_name(path, &zst);
	/* A name without its format may be compressed: the densest. */
	per = zst || f == SR_FMT_AUTO ? 6 : f == SR_FMT_CSV ? 30 : f == SR_FMT_SWT ? 40 :
	      f == SR_FMT_JSONL ? 100 : 6;
	return (uint64_t)st.st_size / per + 1;
}

void sr_reader_note_unknown(struct sr_reader *r, const char *name, size_t len)
{
	char *u = r->stats.unknown_fields;
	size_t have = strlen(u);
	const char *p = u;

	/* Already listed? */
	while (*p) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);

		if (l == len && memcmp(p, name, len) == 0)
			return;
		p += l + (c ? 1 : 0);
	}
	if (ends_with(u, have, ",...") || (have == 3 && !strcmp(u, "...")))
		return; /* the list is already cut short */
	if (have + len + 2 >= sizeof(r->stats.unknown_fields)) {
		/* Full: mark the list as cut short, once. */
		if (have + 4 < sizeof(r->stats.unknown_fields) &&
		    !ends_with(u, have, ",..."))
			strcat(u, ",...");
		return;
	}
	if (have)
		u[have++] = ',';
	memcpy(u + have, name, len);
	u[have + len] = '\0';
}

enum sr_err sr_reader_line(struct sr_reader *r, const char **line, size_t *len,
			   int *cr, struct sr_diag *d)
{
	enum sr_err err = sr_src_getline(r->src, line, len, d);

	*cr = 0;
	if (err) {
		sr_reader_at_line(r, d);
		d->line = r->line + 1;
		return err;
	}
	if (!*line)
		return SR_OK;
	r->line++;
	if (r->line == 1 && *len >= 3 && memcmp(*line, "\xEF\xBB\xBF", 3) == 0) {
		*line += 3; /* UTF-8 byte order mark */
		*len -= 3;
	}
	if (*len && (*line)[*len - 1] == '\r') {
		(*len)--; /* CRLF line end */
		*cr = 1;
	}
	return SR_OK;
}

void sr_reader_at_line(struct sr_reader *r, struct sr_diag *d)
{
	if (!d)
		return;
	sr_diag_file(d, sr_src_name(r->src));
	d->line = r->line;
	d->record = r->stats.events + r->stats.skipped + 1;
}

enum sr_err sr_reader_open(struct sr_reader **out, const char *path,
			   const struct sr_read_opts *opts, struct sr_diag *caller)
{
	struct sr_diag local, *d = caller ? caller : &local; /* the readers write into it */
	struct sr_reader *r;
	const unsigned char *p;
	size_t n;
	enum sr_err err;
	int i;

	*out = NULL;
	sr_diag_clear(d);
	r = calloc(1, sizeof(*r));
	if (!r)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	if (opts)
		r->opts = *opts;
	if (sr_memcgs_new(&r->memcgs)) {
		free(r);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	err = sr_src_open(&r->src, path, d);
	if (err)
		goto out_free;
	if (r->opts.content_hash)
		sr_src_hash_on(r->src);
	err = sr_src_peek(r->src, 4096, &p, &n, d);
	if (err)
		goto out_close;
	if (n == 0) {
		err = sr_diag_set(d, SR_ERR_FORMAT, "empty trace (no data%s)",
				  sr_src_compressed(r->src) ? " after decompression" : "");
		goto out_close;
	}
	for (i = 0; readers[i]; i++) {
		if (r->opts.format != SR_FMT_AUTO) {
			if (readers[i]->format == r->opts.format)
				break;
		} else if (readers[i]->probe(p, n)) {
			break;
		}
	}
	if (!readers[i]) {
		err = sr_diag_set(d, SR_ERR_INVAL, "no reader for this format");
		goto out_close;
	}
	/* Only text needs it: binary records decode faster than zstd
	 * decompresses, and the copy between threads would cost more. */
	if (r->opts.decompress_thread && readers[i]->format != SR_FMT_SWT) {
		err = sr_src_threaded(r->src, d);
		if (err)
			goto out_close;
	}
	r->ops = readers[i];
	r->stats.format = r->ops->format;
	r->stats.compressed = sr_src_compressed(r->src);
	err = r->ops->open(r, d);
	if (err) {
		if (r->ops->close)
			r->ops->close(r);
		goto out_close;
	}
	snprintf(r->machine_origin, sizeof(r->machine_origin), "machine in the header of %s",
		 sr_src_name(r->src));
	*out = r;
	return SR_OK;

out_close:
	sr_src_close(r->src);
out_free:
	free(r->machine_json);
	sr_memcgs_free(r->memcgs);
	free(r);
	return err;
}

/* The stats of an event handed out (next_batch() counts its own). */
static void count_event(struct sr_reader *r, const struct sr_event *e)
{
	if (e->ts_ns < r->last_ts && r->stats.events)
		r->stats.ts_backwards++;
	r->last_ts = e->ts_ns;
	r->stats.events++;
}

enum sr_err sr_reader_read(struct sr_reader *r, struct sr_event *evs, size_t cap,
			   size_t *n, struct sr_diag *d)
{
	size_t i = 0;
	enum sr_err err = SR_OK;
	struct sr_diag rd;

	*n = 0;
	if (r->sticky) {
		if (d)
			*d = r->sticky_diag;
		return r->sticky;
	}
	sr_diag_clear(&rd); /* readers write it only on an error */
	while (i < cap && !r->done) {
		int eof = 0;

		err = SR_OK;
		r->record_error = 0;
		if (r->ops->next_batch) {
			/* The fast path: whole good records at once; next()
			 * takes the end and a bad or short record. */
			size_t got;

			err = r->ops->next_batch(r, evs + i, cap - i, &got, &rd);
			if (!err && got) {
				i += got; /* counted by next_batch() */
				continue;
			}
		}
		if (!err)
			err = r->ops->next(r, &evs[i], &eof, &rd);
		if (err == SR_ERR_FORMAT && r->record_error &&
		    r->stats.skipped < r->opts.max_errors) {
			if (!r->stats.skipped)
				sr_diag_format(&rd, r->stats.first_skip,
					       sizeof(r->stats.first_skip));
			r->stats.skipped++;
			sr_diag_clear(&rd);
			continue;
		}
		if (err) {
			if (!rd.file[0])
				sr_diag_file(&rd, sr_src_name(r->src));
			if (err == SR_ERR_FORMAT && r->record_error &&
			    r->opts.max_errors)
				snprintf(rd.msg + strlen(rd.msg),
					 sizeof(rd.msg) - strlen(rd.msg),
					 " [more than --max-errors=%llu bad records]",
					 (unsigned long long)r->opts.max_errors);
			r->sticky = err;
			r->sticky_diag = rd;
			if (d)
				*d = rd;
			break;
		}
		if (eof) {
			r->done = 1;
			r->stats.content_hash = sr_src_hash(r->src);
			/* No swap events at all is a valid, empty trace (a
			 * vmstat log of a quiet machine): the caller says "no
			 * swap activity".  Only bad records and nothing else is
			 * an error. */
			r->stats.complete = r->stats.events > 0 || !r->stats.skipped;
			if (!r->stats.events && r->stats.skipped) {
				sr_diag_file(&rd, sr_src_name(r->src));
				err = sr_diag_set(&rd, SR_ERR_FORMAT,
						  "no valid events (all %llu records were bad)",
						  (unsigned long long)r->stats.skipped);
				r->sticky = err;
				r->sticky_diag = rd;
				if (d)
					*d = rd;
			}
			break;
		}
		count_event(r, &evs[i]);
		i++;
	}
	r->stats.bytes_in = sr_src_pos(r->src);
	*n = i;
	return err;
}

const char *sr_reader_machine_json(const struct sr_reader *r)
{
	return r->machine_json;
}

const char *sr_reader_machine_origin(const struct sr_reader *r)
{
	return r->machine_origin;
}

int sr_reader_may_vaddr(const struct sr_reader *r)
{
	return r->may_vaddr;
}

int sr_reader_may_tasks(const struct sr_reader *r)
{
	return r->may_tasks;
}

int sr_reader_may_reclaim(const struct sr_reader *r)
{
	return r->may_reclaim;
}

int sr_reader_may_fault(const struct sr_reader *r)
{
	return r->may_fault;
}

int sr_reader_may_memcg(const struct sr_reader *r)
{
	return r->may_memcg;
}

const struct sr_memcgs *sr_reader_memcgs(const struct sr_reader *r)
{
	return r->memcgs;
}

void sr_reader_file_progress(const struct sr_reader *r, uint64_t *read, uint64_t *size)
{
	sr_src_file_progress(r->src, read, size);
}

const struct sr_read_stats *sr_reader_stats(const struct sr_reader *r)
{
	return &r->stats;
}

void sr_reader_close(struct sr_reader *r)
{
	if (!r)
		return;
	if (r->ops && r->ops->close)
		r->ops->close(r);
	sr_src_close(r->src);
	free(r->machine_json);
	sr_memcgs_free(r->memcgs);
	free(r);
}

/* Whether the first line of p[0..n) is a CSV header naming every
 * required field (sr_field_required()), as the CSV reader needs. */
static int csv_header_sniff(const unsigned char *p, size_t n)
{
	const char *s = (const char *)p, *end;
	int have[SR_F_COUNT] = { 0 }, f;

	end = memchr(s, '\n', n);
	if (!end)
		end = s + n;
	while (s < end) {
		const char *c = memchr(s, ',', (size_t)(end - s)), *e = c ? c : end;
		const char *a = s;

		while (a < e && (*a == ' ' || *a == '"'))
			a++;
		while (e > a && (e[-1] == ' ' || e[-1] == '"' || e[-1] == '\r'))
			e--;
		f = sr_field_lookup(a, (size_t)(e - a));
		if (f >= 0)
			have[f] = 1;
		s = c ? c + 1 : end;
	}
	for (f = 0; f < SR_F_COUNT; f++)
		if (sr_field_required((enum sr_field)f) && !have[f])
			return 0;
	return 1;
}

int sr_trace_sniff(const unsigned char *p, size_t n)
{
	int i;

	for (i = 0; readers[i]; i++)
		if (readers[i]->format != SR_FMT_CSV && readers[i]->probe(p, n))
			return 1;
	return csv_header_sniff(p, n);
}
