#include <string.h>

#include "cli/cli.h"
#include "test.h"

static void opts_parse(void)
{
	static const struct cli_opt o[] = {
		{ "to", 0, CLI_ARG, 1 },
		{ "zstd", 0, CLI_OPTARG, 2 },
		{ "jobs", 'j', CLI_ARG, 3 },
		{ "quiet", 'q', CLI_NOARG, 4 },
		{ NULL, 0, 0, 0 },
	};
	char *argv[] = { "x", "--to=csv", "a", "--zstd", "-j", "4", "-j8", "-q",
			 "--to", "swt", "-", "--", "--quiet", NULL };
	struct cli_parser p;
	const char *v;

	cli_parser_init(&p, 13, argv, o);
	CHECK(cli_next(&p, &v) == 1 && strcmp(v, "csv") == 0);
	CHECK(cli_next(&p, &v) == 0 && strcmp(v, "a") == 0);
	CHECK(cli_next(&p, &v) == 2 && v == NULL);
	CHECK(cli_next(&p, &v) == 3 && strcmp(v, "4") == 0);
	CHECK(cli_next(&p, &v) == 3 && strcmp(v, "8") == 0);
	CHECK(cli_next(&p, &v) == 4);
	CHECK(cli_next(&p, &v) == 1 && strcmp(v, "swt") == 0);
	CHECK(cli_next(&p, &v) == 0 && strcmp(v, "-") == 0);
	CHECK(cli_next(&p, &v) == 0 && strcmp(v, "--quiet") == 0);
	CHECK(cli_next(&p, &v) == -1);
}

static void opts_errors(void)
{
	static const struct cli_opt o[] = {
		{ "to", 0, CLI_ARG, 1 },
		{ "quiet", 'q', CLI_NOARG, 4 },
		{ NULL, 0, 0, 0 },
	};
	char *a1[] = { "x", "--nope", NULL };
	char *a2[] = { "x", "--to", NULL };
	char *a3[] = { "x", "--quiet=1", NULL };
	struct cli_parser p;
	const char *v;

	cli_parser_init(&p, 2, a1, o);
	CHECK(cli_next(&p, &v) == -2 && strstr(p.err, "unknown option '--nope'"));
	cli_parser_init(&p, 2, a2, o);
	CHECK(cli_next(&p, &v) == -2 && strstr(p.err, "needs a value"));
	cli_parser_init(&p, 2, a3, o);
	CHECK(cli_next(&p, &v) == -2 && strstr(p.err, "takes no value"));
}

static void sizes(void)
{
	uint64_t v = 0;

	CHECK(cli_parse_size("64M", &v) == 0 && v == 64ull << 20);
	CHECK(cli_parse_size("1GiB", &v) == 0 && v == 1ull << 30);
	CHECK(cli_parse_size("4096", &v) == 0 && v == 4096);
	CHECK(cli_parse_size("1MB", &v) == -1);
	CHECK(cli_parse_size("", &v) == -1);
	CHECK(cli_parse_size("-1", &v) == -1);
	CHECK(cli_parse_size("99999999999999999999", &v) == -1);
	CHECK(cli_parse_size("17179869184G", &v) == -1);
}

void suite_opts(void)
{
	TEST(opts_parse);
	TEST(opts_errors);
	TEST(sizes);
}
