/* SPDX-License-Identifier: MIT */
/*
 * The byte source under every reader: a file or standard input, read in
 * chunks and, when it starts with a zstd frame, decompressed as a stream
 * (any number of frames, as the zstd tool writes them).  The window grows
 * only to hold the longest line asked for, so memory does not depend on the
 * length of the input, and a decompression bomb is streamed, not buffered.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createDStream_advanced */
#include <zstd.h>
#include <stdio.h>

#include "common/hash.h"
#include "trace/source.h"
#include "common/diag.h"
#include "common/grow.h"
#include "common/bigmem.h"

/*
 * zstd output is asked for in steps that end at multiples of ZSTEP bytes of
 * the decoded stream, whichever buffer it goes to.  When a block turns out
 * corrupt, ZSTD_decompressStream() reports none of the output of that call,
 * so what comes before an error depends on where the calls begin and end:
 * with the same steps, reading with and without the decompression thread
 * gives the same events before the same error (tests/fuzz/fuzz_zstd.c).
 */
#define ZSTEP (1u << 17) /* ZSTD_BLOCKSIZE_MAX */

/*
 * The initial window: 256 KiB, grown when a peek or a line needs more.  A
 * swt batch asks for 32 KiB at a time, so a larger window only spreads the
 * decoded bytes over more cache and more fresh pages: a sweep worker
 * touched 1.8 MiB less with this than with 2 MiB, and ran faster.  Room for
 * a whole step is kept after what a peek wants.
 */
#define SRC_CHUNK (2 * ZSTEP)

struct sr_src {
	FILE *fp;
	int own_fp;            /* fp was opened here (not stdin) */
	char name[256];

	int zstd;              /* input is zstd-compressed */
	ZSTD_DStream *zd;
	unsigned char *raw;    /* compressed bytes read, not yet decoded */
	size_t raw_cap, raw_pos, raw_len;
	int raw_eof;
	size_t zret;           /* last ZSTD_decompressStream() hint; 0 = frame end */
	uint64_t zout;         /* bytes decoded so far (the steps: ZSTEP) */
	/* Bytes read from the file so far (compressed ones for zstd), and its
	 * size (0: not a regular file); raw_total is read by another thread
	 * than the one reading the file for a progress display
	 * (sr_src_file_progress()). */
	_Atomic uint64_t raw_total;
	uint64_t file_size;

	unsigned char *buf;    /* decoded window: buf[pos..len) not yet consumed */
	size_t cap, pos, len;
	uint64_t base;         /* decoded offset of buf[0] */
	int eof;               /* no more decoded data will come */
	int last_nl;           /* the last line ended with "\n" */
	struct zthread *zt;    /* decompression thread, or NULL */
	uint64_t hash;         /* FNV-1a 64 of the file's bytes read so far */
	int hashing;           /* hash is wanted (sr_src_hash_on) */
};

/*
 * zstd's own buffers go through sr_big_alloc() (its window is 2 MiB for the
 * level-3 traces gen writes, and is allocated again for every file).
 * ZSTD_createDStream_advanced() is in zstd's "experimental" section, but
 * the shared library exports it (Debian 12's 1.5.4).  sr_big_free() needs
 * the length back: it sits in a header of 64 bytes (zstd's alignment).
 */
#define ZHDR 64

static void *zalloc(void *opaque, size_t n)
{
	unsigned char *p = sr_big_alloc(n + ZHDR);

	(void)opaque;
	if (!p)
		return NULL;
	*(size_t *)p = n + ZHDR;
	return p + ZHDR;
}

static void zfree(void *opaque, void *q)
{
	unsigned char *p = q;

	(void)opaque;
	if (p)
		sr_big_free(p - ZHDR, *(size_t *)(p - ZHDR));
}

/* Bytes left to the end of the zstd step the decoded stream is in (ZSTEP). */
static size_t step_left(const struct sr_src *s)
{
	return ZSTEP - (size_t)(s->zout % ZSTEP);
}


static int is_zstd_magic(const unsigned char *p, size_t n)
{
	if (n < 4)
		return 0;
	/* ZSTD_MAGICNUMBER 0xFD2FB528, little endian */
	if (p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD)
		return 1;
	/* skippable frames: 0x184D2A50..0x184D2A5F */
	return (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D && p[3] == 0x18;
}

static enum sr_err raw_read(struct sr_src *s, struct sr_diag *d)
{
	size_t n;

	if (s->raw_pos < s->raw_len || s->raw_eof)
		return SR_OK;
	n = fread(s->raw, 1, s->raw_cap, s->fp);
	if (n < s->raw_cap && ferror(s->fp))
		return sr_diag_set(d, SR_ERR_IO, "read error: %s", strerror(errno));
	if (n == 0)
		s->raw_eof = 1;
	s->raw_pos = 0;
	s->raw_len = n;
	atomic_fetch_add_explicit(&s->raw_total, n, memory_order_relaxed);
	if (s->hashing)
		s->hash = sr_fnv1a(s->hash, s->raw, n);
	return SR_OK;
}

/*
 * Decode more zstd data into dst[*pos..cap); *end set when the data is
 * over.  Used by fill() directly or by the decompression thread.
 */
static enum sr_err zdecode(struct sr_src *s, unsigned char *dst, size_t cap,
			   size_t *pos, int *end, struct sr_diag *d)
{
	enum sr_err err;

	for (;;) {
		ZSTD_inBuffer in;
		ZSTD_outBuffer out;
		size_t ret;

		err = raw_read(s, d);
		if (err)
			return err;
		if (s->raw_pos == s->raw_len && s->raw_eof && s->zret == 0) {
			*end = 1;
			return SR_OK;
		}
		in.src = s->raw;
		in.size = s->raw_len;
		in.pos = s->raw_pos;
		out.dst = dst;
		out.size = *pos + step_left(s);
		if (out.size > cap)
			out.size = cap; /* callers leave room; see ZSTEP */
		out.pos = *pos;
		ret = ZSTD_decompressStream(s->zd, &out, &in);
		if (ZSTD_isError(ret))
			return sr_diag_set(d, SR_ERR_ZSTD,
					   "corrupt zstd data (in compressed bytes %llu to %llu): %s",
					   (unsigned long long)(s->raw_total - s->raw_len + in.pos),
					   (unsigned long long)s->raw_total,
					   ZSTD_getErrorName(ret));
		s->zret = ret;
		s->raw_pos = in.pos;
		if (out.pos > *pos) {
			s->zout += out.pos - *pos;
			*pos = out.pos;
			return SR_OK;
		}
		/* No output and no input left: the decoder is inside a frame. */
		if (s->raw_pos == s->raw_len && s->raw_eof)
			return sr_diag_set(d, SR_ERR_ZSTD,
					   "truncated zstd frame (compressed input ends at byte %llu inside a frame)",
					   (unsigned long long)s->raw_total);
	}
}

/* ---- decompression on a thread (sr_src_threaded) ---------------------- */

#define ZT_CHUNKS 4
#define ZT_CHUNK (1u << 20)
_Static_assert(ZT_CHUNK % ZSTEP == 0, "a chunk holds whole steps");

struct zchunk {
	unsigned char *data;
	size_t len, off;       /* bytes decoded; bytes the reader took */
	int end;               /* the data ends after this chunk */
	enum sr_err err;       /* ... or fails after it */
	struct sr_diag diag;
};

struct zthread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	struct zchunk c[ZT_CHUNKS];
	unsigned head, count;
	int stop;
};

static void *zproduce(void *arg)
{
	struct sr_src *s = arg;
	struct zthread *z = s->zt;
	unsigned tail = 0;

	prctl(PR_SET_NAME, "sr-zstd", 0, 0, 0); /* for top -H and perf --comm */
	for (;;) {
		struct zchunk *c;
		int last;

		pthread_mutex_lock(&z->mu);
		while (z->count == ZT_CHUNKS && !z->stop)
			pthread_cond_wait(&z->emptied, &z->mu);
		if (z->stop) {
			pthread_mutex_unlock(&z->mu);
			return NULL;
		}
		pthread_mutex_unlock(&z->mu);
		c = &z->c[tail];
		c->len = c->off = 0;
		c->end = 0;
		c->err = SR_OK;
		sr_diag_clear(&c->diag);
		/* Whole steps only: the chunk ends where a step ends. */
		while (ZT_CHUNK - c->len >= step_left(s) && !c->end && !c->err)
			c->err = zdecode(s, c->data, ZT_CHUNK, &c->len, &c->end, &c->diag);
		last = c->end || c->err;
		pthread_mutex_lock(&z->mu);
		z->count++;
		pthread_cond_signal(&z->filled);
		pthread_mutex_unlock(&z->mu);
		if (last)
			return NULL;
		tail = (tail + 1) % ZT_CHUNKS;
	}
}

/* fill() from the thread's chunks. */
static enum sr_err zt_fill(struct sr_src *s, struct sr_diag *d)
{
	struct zthread *z = s->zt;
	struct zchunk *c;
	size_t n;

	pthread_mutex_lock(&z->mu);
	while (z->count == 0)
		pthread_cond_wait(&z->filled, &z->mu);
	pthread_mutex_unlock(&z->mu);
	c = &z->c[z->head];
	n = c->len - c->off;
	if (n > s->cap - s->len)
		n = s->cap - s->len;
	memcpy(s->buf + s->len, c->data + c->off, n);
	s->len += n;
	c->off += n;
	if (c->off < c->len)
		return SR_OK;
	if (c->err && n)
		return SR_OK; /* the error comes after these bytes, as unthreaded */
	if (c->err) {
		if (d) {
			char file[sizeof(d->file)];

			memcpy(file, d->file, sizeof(file));
			*d = c->diag;
			memcpy(d->file, file, sizeof(file));
		}
		return c->err; /* the chunk is kept: the error stays */
	}
	if (c->end) {
		s->eof = 1;
		return SR_OK;
	}
	pthread_mutex_lock(&z->mu);
	z->head = (z->head + 1) % ZT_CHUNKS;
	z->count--;
	pthread_cond_signal(&z->emptied);
	pthread_mutex_unlock(&z->mu);
	return SR_OK;
}

static void zt_stop(struct sr_src *s)
{
	struct zthread *z = s->zt;
	int i;

	if (!z)
		return;
	pthread_mutex_lock(&z->mu);
	z->stop = 1;
	pthread_cond_signal(&z->emptied);
	pthread_mutex_unlock(&z->mu);
	pthread_join(z->th, NULL);
	pthread_mutex_destroy(&z->mu);
	pthread_cond_destroy(&z->filled);
	pthread_cond_destroy(&z->emptied);
	for (i = 0; i < ZT_CHUNKS; i++)
		free(z->c[i].data);
	free(z);
	s->zt = NULL;
}

enum sr_err sr_src_threaded(struct sr_src *s, struct sr_diag *d)
{
	struct zthread *z;
	int i;

	if (!s->zstd || s->zt)
		return SR_OK;
	z = calloc(1, sizeof(*z));
	if (!z)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	for (i = 0; i < ZT_CHUNKS; i++) {
		z->c[i].data = malloc(ZT_CHUNK);
		if (!z->c[i].data)
			goto fail;
	}
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->filled, NULL);
	pthread_cond_init(&z->emptied, NULL);
	s->zt = z;
	if (pthread_create(&z->th, NULL, zproduce, s)) {
		pthread_mutex_destroy(&z->mu);
		pthread_cond_destroy(&z->filled);
		pthread_cond_destroy(&z->emptied);
		s->zt = NULL;
		goto fail;
	}
	return SR_OK;
fail:
	for (i = 0; i < ZT_CHUNKS; i++)
		free(z->c[i].data);
	free(z);
	return SR_OK; /* reading goes on without the thread */
}

/* Make the window hold at least need bytes (doubling). */
static enum sr_err grow(struct sr_src *s, size_t need, struct sr_diag *d)
{
	if (sr_grow((void **)&s->buf, &s->cap, need, 1, SRC_CHUNK))
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	return SR_OK;
}

/* Append decoded bytes to buf[len..cap); sets eof when nothing more comes. */
static enum sr_err fill(struct sr_src *s, struct sr_diag *d)
{
	int end = 0;
	enum sr_err err;

	if (s->eof || s->len == s->cap)
		return SR_OK;
	if (!s->zstd) {
		size_t n = fread(s->buf + s->len, 1, s->cap - s->len, s->fp);

		if (n == 0) {
			if (ferror(s->fp))
				return sr_diag_set(d, SR_ERR_IO, "read error: %s",
						   strerror(errno));
			s->eof = 1;
		}
		if (s->hashing)
			s->hash = sr_fnv1a(s->hash, s->buf + s->len, n);
		atomic_fetch_add_explicit(&s->raw_total, n, memory_order_relaxed);
		s->len += n;
		return SR_OK;
	}
	if (s->zt)
		return zt_fill(s, d);
	/* Room for the rest of the step (callers compact first, so the
	 * window grows only for a peek or line near its size). */
	err = grow(s, s->len + step_left(s), d);
	if (err)
		return err;
	err = zdecode(s, s->buf, s->cap, &s->len, &end, d);
	if (end)
		s->eof = 1;
	return err;
}

enum sr_err sr_src_open(struct sr_src **out, const char *path, struct sr_diag *d)
{
	struct sr_src *s;
	enum sr_err err;

	*out = NULL;
	sr_diag_file(d, path);
	s = calloc(1, sizeof(*s));
	if (!s)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	snprintf(s->name, sizeof(s->name), "%s", path);
	s->hash = SR_FNV_BASIS;
	if (strcmp(path, "-") == 0) {
		s->fp = stdin;
	} else {
		s->fp = fopen(path, "rb");
		if (!s->fp) {
			err = sr_diag_set(d, SR_ERR_IO, "cannot open: %s", strerror(errno));
			goto out_free;
		}
		s->own_fp = 1;
	}
	{
		struct stat st;

		if (fstat(fileno(s->fp), &st) == 0 && S_ISREG(st.st_mode))
			s->file_size = (uint64_t)st.st_size;
	}
	s->cap = SRC_CHUNK;
	s->buf = malloc(s->cap);
	s->raw_cap = ZSTD_DStreamInSize();
	s->raw = malloc(s->raw_cap);
	if (!s->buf || !s->raw) {
		err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
		goto out_close;
	}
	/* Read the first raw chunk to look for the zstd magic. */
	err = raw_read(s, d);
	if (err)
		goto out_close;
	if (is_zstd_magic(s->raw, s->raw_len)) {
		const ZSTD_customMem zm = { zalloc, zfree, NULL };

		s->zstd = 1;
		s->zd = ZSTD_createDStream_advanced(zm);
		if (!s->zd) {
			err = sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
			goto out_close;
		}
		/* Bound the window a frame may ask for: 2^27 = 128 MiB, zstd's
		 * default limit; larger needs --long and is refused as corrupt. */
		ZSTD_DCtx_setParameter(s->zd, ZSTD_d_windowLogMax, 27);
		s->zret = 1; /* a frame has started */
	} else {
		/* Plain input: hand the bytes already read to the window. */
		memcpy(s->buf, s->raw, s->raw_len);
		s->len = s->raw_len;
		if (s->raw_eof)
			s->eof = 1;
		s->raw_len = s->raw_pos = 0;
	}
	*out = s;
	return SR_OK;

out_close:
	if (s->own_fp)
		fclose(s->fp);
out_free:
	ZSTD_freeDStream(s->zd);
	free(s->raw);
	free(s->buf);
	free(s);
	return err;
}

void sr_src_close(struct sr_src *s)
{
	if (!s)
		return;
	zt_stop(s); /* before the decoder and the file go */
	if (s->own_fp)
		fclose(s->fp);
	ZSTD_freeDStream(s->zd);
	free(s->raw);
	free(s->buf);
	free(s);
}

int sr_src_compressed(const struct sr_src *s)
{
	return s->zstd;
}

const char *sr_src_name(const struct sr_src *s)
{
	return s->name;
}

void sr_src_hash_on(struct sr_src *s)
{
	/* The bytes already read: the first chunk, kept in the window (plain)
	 * or in the raw buffer (zstd), before anything was consumed. */
	s->hashing = 1;
	s->hash = SR_FNV_BASIS;
	s->hash = s->zstd ? sr_fnv1a(s->hash, s->raw, s->raw_len)
			  : sr_fnv1a(s->hash, s->buf, s->len);
}

uint64_t sr_src_hash(const struct sr_src *s)
{
	return s->hash;
}

void sr_src_file_progress(const struct sr_src *s, uint64_t *read, uint64_t *size)
{
	*read = atomic_load_explicit(&s->raw_total, memory_order_relaxed);
	*size = s->file_size;
}

uint64_t sr_src_pos(const struct sr_src *s)
{
	return s->base + s->pos;
}

/* Move the unconsumed bytes to the front of the window. */
static void compact(struct sr_src *s)
{
	if (!s->pos)
		return;
	memmove(s->buf, s->buf + s->pos, s->len - s->pos);
	s->base += s->pos;
	s->len -= s->pos;
	s->pos = 0;
}

enum sr_err sr_src_peek(struct sr_src *s, size_t want, const unsigned char **p,
			size_t *avail, struct sr_diag *d)
{
	enum sr_err err;

	if (want > SR_SRC_MAX_WANT)
		want = SR_SRC_MAX_WANT;
	if (s->len - s->pos < want && !s->eof) {
		compact(s);
		err = grow(s, want, d);
		if (err)
			return err;
		while (s->len < want && !s->eof) {
			err = fill(s, d);
			if (err)
				return err;
		}
	}
	*p = s->buf + s->pos;
	*avail = s->len - s->pos;
	return SR_OK;
}

void sr_src_skip(struct sr_src *s, size_t n)
{
	s->pos += n;
}

int sr_src_line_had_nl(const struct sr_src *s)
{
	return s->last_nl;
}

enum sr_err sr_src_getline(struct sr_src *s, const char **line, size_t *len,
			   struct sr_diag *d)
{
	size_t scanned = 0;
	enum sr_err err;

	for (;;) {
		size_t avail = s->len - s->pos;
		unsigned char *start = s->buf + s->pos;
		unsigned char *nl = memchr(start + scanned, '\n', avail - scanned);

		if (nl) {
			*line = (const char *)start;
			*len = (size_t)(nl - start);
			s->pos += *len + 1;
			s->last_nl = 1;
			return SR_OK;
		}
		scanned = avail;
		if (avail > SR_MAX_LINE)
			return sr_diag_set(d, SR_ERR_LIMIT,
					   "line longer than %u bytes", SR_MAX_LINE);
		if (s->eof) {
			if (!avail) {
				*line = NULL;
				*len = 0;
				return SR_OK;
			}
			*line = (const char *)start;
			*len = avail;
			s->pos += avail;
			s->last_nl = 0;
			return SR_OK;
		}
		compact(s);
		err = grow(s, s->len + 1, d);
		if (err)
			return err;
		err = fill(s, d);
		if (err)
			return err;
	}
}
