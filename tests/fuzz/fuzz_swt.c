/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the binary (.swt) reader (src/trace/reader_swt.c over
 * src/trace/source.c), with the format forced as by --input-format=swt.  The
 * input is the file, read strictly, then as --max-errors=3
 * (fuzz_reader_passes()).  A machine description in the header is handed to
 * sr_machine_parse(), as the replay does.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_reader_passes(data, size, SR_FMT_SWT);
	return 0;
}
