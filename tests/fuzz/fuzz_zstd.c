/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the zstd layer (src/source.c) and format detection
 * (src/reader.c), read as the CLI reads a file without --input-format.
 *
 * An input that starts with a zstd frame or a skippable frame is the file
 * as is: the fuzzer mutates compressed bytes (frame headers, block types,
 * checksums, frames cut short or concatenated).  Any other input is first
 * compressed into one frame, so that what the decompressed stream holds is
 * fuzzed too (detection of swt / JSON lines / CSV behind zstd, lines and
 * records that straddle the decoder's output).
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *z;
	size_t cap, zn;

	if (zstd_magic(data, size)) {
		fuzz_reader_passes(data, size, SR_FMT_AUTO);
		return 0;
	}
	cap = ZSTD_compressBound(size);
	z = malloc(cap);
	FUZZ_CHECK(z != NULL);
	zn = ZSTD_compress(z, cap, data, size, 1);
	FUZZ_CHECK(!ZSTD_isError(zn));
	fuzz_read_trace(z, zn, SR_FMT_AUTO, 3, 1);
	free(z);
	return 0;
}
