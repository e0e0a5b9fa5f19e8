/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the CSV reader (src/trace/reader_csv.c over src/trace/source.c), with
 * the format forced as by --input-format=csv.  The input is the file,
 * read strictly, then as --max-errors=3 (fuzz_reader_passes()).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader_passes(data, size, SR_FMT_CSV);
	return 0;
}
