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

static void suggest(void)
{
	static const char *const names[] = { "replay", "convert", "stat", "gen", "merge",
					     "page-nid", "page-nid-strict", NULL, "hybrid" };
	const size_t n = sizeof(names) / sizeof(names[0]);
	const char *out[4];
	char text[64];

	/* one edit, a swap of neighbours among them */
	CHECK(sr_suggest("replya", names, n, out, 4) == 1 && !strcmp(out[0], "replay"));
	CHECK(sr_suggest("hybird", names, n, out, 4) == 1 && !strcmp(out[0], "hybrid"));
	/* a unique prefix; a prefix of two names goes by the edits */
	CHECK(sr_suggest("mer", names, n, out, 4) == 1 && !strcmp(out[0], "merge"));
	CHECK(sr_suggest("page-ni", names, n, out, 4) == 1 && !strcmp(out[0], "page-nid"));
	/* as many edits as letters, more than 2 edits, nothing, too long */
	CHECK(sr_suggest("go", names, n, out, 4) == 0);
	CHECK(sr_suggest("frobnicate", names, n, out, 4) == 0);
	CHECK(sr_suggest("", names, n, out, 4) == 0);
	CHECK(sr_suggest("replayreplayreplayreplayreplayrep", names, n, out, 4) == 0);
	/* equally near: all, in the order of names, at most max */
	CHECK(sr_suggest("stet", names, n, out, 4) == 1 && !strcmp(out[0], "stat"));
	CHECK(sr_suggest("get", names, n, out, 4) == 1 && !strcmp(out[0], "gen"));
	CHECK(sr_suggest("gat", names, n, out, 4) == 2 && !strcmp(out[0], "stat") &&
	      !strcmp(out[1], "gen"));
	CHECK(sr_suggest("gat", names, n, out, 1) == 1 && !strcmp(out[0], "stat"));
	/* in words */
	CHECK(sr_suggest_text("gat", names, n, NULL, text, sizeof(text)) == 2 &&
	      !strcmp(text, "did you mean 'stat' or 'gen'?"));
	CHECK(sr_suggest_text("hybird", names, n, "--", text, sizeof(text)) == 1 &&
	      !strcmp(text, "did you mean '--hybrid'?"));
	CHECK(sr_suggest_text("xyzzy", names, n, "--", text, sizeof(text)) == 0 && !text[0]);
	CHECK(sr_suggest_text("hybird", names, n, NULL, text, 8) == 1 && !strcmp(text, "did you"));
}

static void opts_suggest(void)
{
	static const struct cli_opt o[] = {
		{ "policy", 'p', CLI_ARG, 1 },
		{ "quiet", 'q', CLI_NOARG, 2 },
		{ NULL, 0, 0, 0 },
	};
	char *a1[] = { "x", "--polciy=hybrid", NULL };
	char *a2[] = { "x", "--quite", NULL };
	char *a3[] = { "x", "--bogus", NULL };
	char *a4[] = { "x", "-x", NULL };
	struct cli_parser p;
	const char *v;

	cli_parser_init(&p, 2, a1, o);
	CHECK(cli_next(&p, &v) == -2 &&
	      !strcmp(p.err, "unknown option '--polciy=hybrid'; did you mean '--policy'?"));
	cli_parser_init(&p, 2, a2, o);
	CHECK(cli_next(&p, &v) == -2 &&
	      !strcmp(p.err, "unknown option '--quite'; did you mean '--quiet'?"));
	cli_parser_init(&p, 2, a3, o);
	CHECK(cli_next(&p, &v) == -2 && !strcmp(p.err, "unknown option '--bogus'"));
	cli_parser_init(&p, 2, a4, o);
	CHECK(cli_next(&p, &v) == -2 && !strcmp(p.err, "unknown option '-x'"));
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
	TEST(opts_suggest);
	TEST(suggest);
	TEST(sizes);
}
