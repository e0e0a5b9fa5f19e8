/* SPDX-License-Identifier: MIT */
/* Reading fio's JSON results (src/capture/fio_parse.c): the fields of fio
 * 3.33's stat.c, as `fio --output-format=json` prints them. */
#include <string.h>

#include "capture/fio_parse.h"
#include "test.h"

/* Two jobs as fio 3.33 prints them (trimmed), after an error line fio
 * writes to the same stream. */
static const char OUT[] =
	"fio: io_u error on file /tmp/x: Input/output error: read offset=0, buflen=4096\n"
	"{\n"
	"  \"fio version\" : \"fio-3.33\",\n"
	"  \"timestamp\" : 1764777600,\n"
	"  \"jobs\" : [\n"
	"    {\n"
	"      \"jobname\" : \"randread-qd1\",\n"
	"      \"groupid\" : 0,\n"
	"      \"error\" : 0,\n"
	"      \"read\" : {\n"
	"        \"io_bytes\" : 409600, \"bw_bytes\" : 40960000, \"bw\" : 40000,\n"
	"        \"iops\" : 10000.5, \"runtime\" : 10, \"total_ios\" : 100,\n"
	"        \"slat_ns\" : {\"min\" : 1000, \"max\" : 3000, \"mean\" : 1500.0},\n"
	"        \"clat_ns\" : {\"min\" : 80000, \"max\" : 250000, \"mean\" : 95000.25,\n"
	"          \"stddev\" : 10.0, \"N\" : 100,\n"
	"          \"percentile\" : {\"1.000000\" : 81000, \"50.000000\" : 93184,\n"
	"                          \"99.000000\" : 201728}}\n"
	"      },\n"
	"      \"write\" : {\"io_bytes\" : 0, \"bw_bytes\" : 0, \"iops\" : 0.0, \"total_ios\" : 0,\n"
	"        \"clat_ns\" : {\"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"N\" : 0}}\n"
	"    },\n"
	"    {\n"
	"      \"jobname\" : \"seqwrite\",\n"
	"      \"error\" : 5,\n"
	"      \"write\" : {\"bw_bytes\" : 1050000000, \"iops\" : 1001.3, \"total_ios\" : 20030,\n"
	"        \"clat_ns\" : {\"mean\" : 15000.0}}\n"
	"    }\n"
	"  ]\n"
	"}\n"
	"trailing text fio does not print, and the parser does not read\n";

static void fio_two_jobs(void)
{
	struct sr_fio_job j[4];
	char msg[200];
	int n = sr_fio_parse(OUT, sizeof(OUT) - 1, j, 4, msg, sizeof(msg));

	CHECK(n == 2);
	if (n != 2)
		return;
	CHECK(!strcmp(j[0].name, "randread-qd1") && j[0].error == 0);
	CHECK(j[0].read.total_ios == 100 && j[0].read.iops == 10000.5);
	CHECK(j[0].read.bw_bytes == 40960000.0);
	CHECK(j[0].read.clat_mean_ns == 95000.25);
	CHECK(j[0].read.clat_p50_ns == 93184.0 && j[0].read.clat_p99_ns == 201728.0);
	CHECK(j[0].write.total_ios == 0 && j[0].write.clat_p50_ns == -1);
	CHECK(!strcmp(j[1].name, "seqwrite") && j[1].error == 5);
	CHECK(j[1].write.bw_bytes == 1050000000.0 && j[1].write.total_ios == 20030);
	/* No percentiles: -1; no read object: zeros. */
	CHECK(j[1].write.clat_mean_ns == 15000.0 && j[1].write.clat_p99_ns == -1);
	CHECK(j[1].read.total_ios == 0 && j[1].read.iops == 0);
	CHECK(sr_fio_timestamp(OUT, sizeof(OUT) - 1) == 1764777600);
}

static void fio_bad_output(void)
{
	struct sr_fio_job j[1];
	char msg[200] = "";
	static const char none[] = "fio: engine libaio not loadable\n";
	static const char cut[] = "{\n  \"jobs\" : [ {\"jobname\" : \"x\"";
	static const char nojobs[] = "{\"fio version\" : \"fio-3.33\"}\n";
	static const char more[] = "{\"jobs\" : [ {\"jobname\" : \"a\"}, {\"jobname\" : \"b\"} ]}";

	CHECK(sr_fio_parse(none, sizeof(none) - 1, j, 1, msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "no JSON document") != NULL);
	CHECK(sr_fio_parse(cut, sizeof(cut) - 1, j, 1, msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "fio's JSON") != NULL);
	CHECK(sr_fio_parse(nojobs, sizeof(nojobs) - 1, j, 1, msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "\"jobs\"") != NULL);
	/* More jobs than room: all counted, the first stored. */
	CHECK(sr_fio_parse(more, sizeof(more) - 1, j, 1, msg, sizeof(msg)) == 2);
	CHECK(!strcmp(j[0].name, "a"));
	CHECK(sr_fio_parse("", 0, j, 1, msg, sizeof(msg)) == -1);
	CHECK(sr_fio_timestamp(none, sizeof(none) - 1) == 0);
	CHECK(sr_fio_timestamp(nojobs, sizeof(nojobs) - 1) == 0);
}

void suite_fio(void)
{
	TEST(fio_two_jobs);
	TEST(fio_bad_output);
}
