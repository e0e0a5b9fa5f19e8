/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the zstd layer (src/trace/source.c) and format detection
 * (src/trace/reader.c), read as the CLI reads a file without --input-format.
 *
 * An input that starts with a zstd frame or a skippable frame is the file
 * as is: the fuzzer mutates compressed bytes (frame headers, block types,
 * checksums, frames cut short or concatenated).  Any other input is first
 * compressed into one frame, so that what the decompressed stream holds is
 * fuzzed too (detection of swt / JSON lines / CSV behind zstd, lines and
 * records that straddle the decoder's output).
 *
 * Each input is read twice, decompressing in the reading thread and on a
 * thread of its own (sr_read_opts.decompress_thread, as stat and convert
 * do), and the two reads must agree: the same events, the same error, the
 * same message.
 */
#include "fuzz_common.h" /* first: it sets _GNU_SOURCE */

#include <zstd.h>

static int zstd_magic(const uint8_t *p, size_t n)
{
	if (n < 4)
		return 0;
	if (p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD)
		return 1;
	return (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D && p[3] == 0x18;
}

/* Read with and without the decompression thread; compare. */
static int both_ways(const uint8_t *data, size_t size, uint64_t max_errors)
{
	struct sr_read_opts o;
	struct fuzz_result a, b;

	memset(&o, 0, sizeof(o));
	o.format = SR_FMT_AUTO;
	o.max_errors = max_errors;
	o.content_hash = 1;
	fuzz_read_trace_opts(data, size, &o, 1, &a);
	o.decompress_thread = 1;
	fuzz_read_trace_opts(data, size, &o, 1, &b);
	FUZZ_CHECK(a.rc == b.rc);
	FUZZ_CHECK(a.err == b.err);
	FUZZ_CHECK(a.events == b.events && a.skipped == b.skipped);
	FUZZ_CHECK(a.digest == b.digest);
	FUZZ_CHECK(a.rc == FUZZ_READ_OPEN_ERR || a.format == b.format);
	FUZZ_CHECK(strcmp(a.msg, b.msg) == 0);
	return a.rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *z;
	size_t cap, zn;

	if (zstd_magic(data, size)) {
		int rc = both_ways(data, size, 0);

		/* As --max-errors=3 with no diagnostic, when it can differ. */
		if (rc != FUZZ_READ_END)
			fuzz_read_trace(data, size, SR_FMT_AUTO, 3, 0);
		return 0;
	}
	cap = ZSTD_compressBound(size);
	z = malloc(cap);
	FUZZ_CHECK(z != NULL);
	zn = ZSTD_compress(z, cap, data, size, 1);
	FUZZ_CHECK(!ZSTD_isError(zn));
	both_ways(z, zn, 3);
	free(z);
	return 0;
}
