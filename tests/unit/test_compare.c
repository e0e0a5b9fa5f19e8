/* Reading a report for compare (src/report/report_read.c) when jansson runs
 * out of memory: it gives neither a reason nor a place (column -1, no
 * text), and the message must say out of memory, not "not JSON (column
 * -1: )". */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swapreplay/compare.h"
#include "test.h"

static long allocs_left;

static void *failing_malloc(size_t n)
{
	if (allocs_left-- <= 0)
		return NULL;
	return malloc(n);
}

static void compare_read_jansson_nomem(void)
{
	static const char report[] =
		"{\"schema\": \"swapreplay-report/1\", \"trace\": {\"path\": \"t.swt\", \"events\": 10, "
		"\"tasks\": 1}, \"policies\": [{\"name\": \"a\", \"throughput_kib_s\": 100}, "
		"{\"name\": \"b\", \"throughput_kib_s\": 90}]}\n";
	char path[] = "/tmp/sr-unit-compare-XXXXXX";
	struct sr_compare_report *r = NULL;
	struct sr_diag d;
	enum sr_err err;
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, report, strlen(report)) == (ssize_t)strlen(report));
	if (fd >= 0)
		close(fd);
	/* With memory: read, no message. */
	err = sr_compare_report_read(&r, path, &d);
	CHECK(err == SR_OK && r);
	sr_compare_report_free(r);
	r = NULL;
	/* jansson out of memory at its first allocation: no reason, no
	 * place (at some others, lexing a string, it reports a syntax
	 * error, which cannot be told from one). */
	allocs_left = 0;
	json_set_alloc_funcs(failing_malloc, free);
	err = sr_compare_report_read(&r, path, &d);
	json_set_alloc_funcs(malloc, free);
	CHECK(err == SR_ERR_NOMEM && !r);
	CHECK(strstr(d.msg, "out of memory reading its JSON") != NULL);
	CHECK(strstr(d.msg, "column -1") == NULL && strstr(d.msg, "not JSON") == NULL);
	unlink(path);
}

void suite_compare(void)
{
	TEST(compare_read_jansson_nomem);
}
