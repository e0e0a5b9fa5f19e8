/* SPDX-License-Identifier: MIT */
/* Numbers read from text (parse.h). */
#include "common/parse.h"

int sr_parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return -1;
	if (len < 20) {
		/* 19 digits cannot overflow: no check per digit. */
		for (i = 0; i < len; i++) {
			unsigned d = (unsigned char)s[i] - '0';

			if (d > 9)
				return -1;
			v = v * 10 + d;
		}
	} else {
		for (i = 0; i < len; i++) {
			unsigned d = (unsigned char)s[i] - '0';

			if (d > 9)
				return -1;
			if (v > (UINT64_MAX - d) / 10) {
				/* Still say "not a number" for junk further on. */
				for (; i < len; i++)
					if ((unsigned char)s[i] - '0' > 9)
						return -1;
				return -2;
			}
			v = v * 10 + d;
		}
	}
	if (v > max)
		return -2;
	*out = v;
	return 0;
}
