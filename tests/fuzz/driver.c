/* SPDX-License-Identifier: MIT */
/*
 * A plain main() for the fuzz targets, so that any compiler builds them
 * without libFuzzer: each argument is a file, run through
 * LLVMFuzzerTestOneInput once, or a directory, whose regular files (not
 * those whose names start with '.') are run in name order.  Every input is
 * read into a buffer of exactly its size, so that AddressSanitizer sees an
 * overread.
 *
 *   build/fuzz/csv-replay tests/fuzz/corpus/csv/
 *   build/fuzz/csv-replay -v tests/fuzz/corpus/csv/<crash-file>
 *
 * Prints "N inputs" on standard output at the end, nothing else (-v: each
 * file's name on standard error before it runs, to find which one fails).
 * Exit status 0, or 2 if a file could not be read; a crashing input ends
 * the process the way it would end any program (signal, sanitizer report).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static unsigned long ninputs;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				fprintf(stderr, "fuzz driver: %s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "fuzz driver: %s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	{
		/* Exactly len bytes (malloc(0) may return NULL: use 1). */
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		if (verbose)
			fprintf(stderr, "%s\n", path);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	ninputs++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "fuzz driver: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		if (asprintf(&names[n], "%s/%s", dir, e->d_name) < 0) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    run_file(names[i]))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
			continue;
		}
		if (stat(argv[i], &st)) {
			fprintf(stderr, "fuzz driver: %s: %s\n", argv[i], strerror(errno));
			rc = 2;
		} else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) {
			rc = 2;
		}
	}
	printf("%lu inputs\n", ninputs);
	return rc;
}
