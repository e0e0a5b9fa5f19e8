/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the JSON lines reader (src/trace/reader_jsonl.c over
 * src/trace/source.c), with the format forced as by --input-format=jsonl.  The
 * input is the file, read strictly, then as --max-errors=3
 * (fuzz_reader_passes()).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader_passes(data, size, SR_FMT_JSONL);
	return 0;
}
