/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the command-line parser of src/cli/opts.c (cli_next,
 * cli_parse_u64, cli_parse_size) and sr_format_parse.
 *
 * The input is an argument vector: the arguments separated by NUL bytes
 * (one trailing NUL is allowed, so `printf 'stat\0--max-errors=3\0'`
 * writes a corpus file).  argv[0] is "swapreplay".  As src/cli/main.c
 * does, a first argument naming a command selects that command's option
 * table and the command sees argv + 1; anything else goes to replay, the
 * default command, with the whole vector.  Every value is then parsed as
 * the commands parse them, and the number parsers are checked against a
 * reference implementation of what cli.h documents.
 */
#include "fuzz_common.h"

#include "cli/cli.h"

/* Copies of the option tables of src/cli/cmd_*.c (static there): keep in
 * step.  The ids only need to be distinct within a table. */
static const struct cli_opt replay_opts[] = {
	{ "policy", 'p', CLI_ARG, 1 },
	{ "baseline", 0, CLI_ARG, 2 },
	{ "machine", 'm', CLI_ARG, 3 },
	{ "slots-cache", 0, CLI_ARG, 4 },
	{ "format", 'f', CLI_ARG, 5 },
	{ "output", 'o', CLI_ARG, 6 },
	{ "input-format", 0, CLI_ARG, 7 },
	{ "max-errors", 0, CLI_ARG, 8 },
	{ "reorder-window", 0, CLI_ARG, 9 },
	{ NULL, 0, 0, 0 },
};
static const struct cli_opt convert_opts[] = {
	{ "to", 0, CLI_ARG, 1 },
	{ "zstd", 0, CLI_OPTARG, 2 },
	{ "input-format", 0, CLI_ARG, 3 },
	{ "max-errors", 0, CLI_ARG, 4 },
	{ NULL, 0, 0, 0 },
};
static const struct cli_opt gen_opts[] = {
	{ "output", 'o', CLI_ARG, 1 },
	{ "to", 0, CLI_ARG, 2 },
	{ "zstd", 0, CLI_OPTARG, 3 },
	{ "tasks", 0, CLI_ARG, 4 },
	{ "size", 0, CLI_ARG, 5 },
	{ "limit", 0, CLI_ARG, 6 },
	{ "accesses", 0, CLI_ARG, 7 },
	{ "cpu-node", 0, CLI_ARG, 8 },
	{ "mem-node", 0, CLI_ARG, 9 },
	{ "cpus-per-node", 0, CLI_ARG, 10 },
	{ "access-ns", 0, CLI_ARG, 11 },
	{ "seed", 0, CLI_ARG, 12 },
	{ "fixed-time", 0, CLI_NOARG, 13 },
	{ "machine", 'm', CLI_ARG, 14 },
	{ NULL, 0, 0, 0 },
};
static const struct cli_opt stat_opts[] = {
	{ "format", 0, CLI_ARG, 1 },
	{ "input-format", 0, CLI_ARG, 2 },
	{ "max-errors", 0, CLI_ARG, 3 },
	{ NULL, 0, 0, 0 },
};

static const struct {
	const char *name;
	const struct cli_opt *opts;
} commands[] = {
	{ "replay", replay_opts },
	{ "convert", convert_opts },
	{ "gen", gen_opts },
	{ "stat", stat_opts },
};

/* cli_parse_u64 as cli.h describes it: a whole decimal number, digits only,
 * at most max. */
static int ref_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* cli_parse_size as cli.h describes it: digits, then optionally K, M, G or
 * T (either case, powers of 1024) and optionally "iB" after it. */
static int ref_size(const char *s, uint64_t *out)
{
	size_t n = 0;
	uint64_t v = 0, mul = 1;
	const char *suf;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	/* The implementation refuses 32 digits or more even when leading
	 * zeros keep the value small: accepted here as its documented limit. */
	if (n == 0 || n >= 32)
		return -1;
	for (suf = s; suf < s + n; suf++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*suf - '0'), &v))
			return -1;
	if (*suf) {
		switch (*suf) {
		case 'k': case 'K': mul = 1ull << 10; break;
		case 'm': case 'M': mul = 1ull << 20; break;
		case 'g': case 'G': mul = 1ull << 30; break;
		case 't': case 'T': mul = 1ull << 40; break;
		default: return -1;
		}
		suf++;
		if (*suf && strcmp(suf, "iB") != 0)
			return -1;
	}
	if (__builtin_mul_overflow(v, mul, &v))
		return -1;
	*out = v;
	return 0;
}

/* Parse a value every way a command may, and compare with the references. */
static void parse_value(const char *val)
{
	static const uint64_t maxes[] = { UINT64_MAX, UINT32_MAX, 1u << 24, 19,
					  SR_MAX_NODES - 1, 0 };
	enum sr_format f = (enum sr_format)-1;
	uint64_t a, b;
	size_t i;
	int ra, rb;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		a = b = 12345;
		ra = cli_parse_u64(val, maxes[i], &a);
		rb = ref_u64(val, maxes[i], &b);
		FUZZ_CHECK(ra == rb);
		FUZZ_CHECK(ra != 0 || a == b);
		FUZZ_CHECK(ra == 0 || a == 12345); /* untouched on failure */
	}
	a = b = 12345;
	ra = cli_parse_size(val, &a);
	rb = ref_size(val, &b);
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(ra != 0 || a == b);
	if (sr_format_parse(val, &f) == SR_OK) {
		/* A format that has a name, which parses back to it (valid as
		 * formats are added to enum sr_format). */
		enum sr_format g = (enum sr_format)-1;

		FUZZ_CHECK(strcmp(sr_format_name(f), "?") != 0);
		FUZZ_CHECK(sr_format_parse(sr_format_name(f), &g) == SR_OK && g == f);
	} else {
		FUZZ_CHECK(f == (enum sr_format)-1); /* untouched */
	}
}

/* Does p point into one of argv[1..argc-1] (its text or its NUL)? */
static int in_args(char **argv, int argc, const char *p)
{
	int k;

	for (k = 1; k < argc; k++)
		if (p >= argv[k] && p <= argv[k] + strlen(argv[k]))
			return 1;
	return 0;
}

static void run_parser(int argc, char **argv, const struct cli_opt *opts)
{
	struct cli_parser p;
	const struct cli_opt *o;
	const char *val;
	int id, before, calls = 0;

	cli_parser_init(&p, argc, argv, opts);
	for (;;) {
		before = p.i;
		val = (const char *)(uintptr_t)1;
		id = cli_next(&p, &val);
		FUZZ_CHECK(++calls <= argc + 1);
		FUZZ_CHECK(p.i <= argc);
		if (id == -1) {
			FUZZ_CHECK(val == NULL);
			break;
		}
		/* Every other answer consumes at least one argument. */
		FUZZ_CHECK(p.i > before);
		if (id == -2) {
			FUZZ_CHECK_STR(p.err);
			FUZZ_CHECK(p.err[0] != '\0');
			continue; /* the commands stop; the parser must not care */
		}
		if (id == 0) {
			FUZZ_CHECK(val != NULL && val == argv[p.i - 1]);
			parse_value(val);
			continue;
		}
		for (o = opts; o->name && o->id != id; o++)
			;
		FUZZ_CHECK(o->name != NULL);
		if (o->has_arg == CLI_NOARG)
			FUZZ_CHECK(val == NULL);
		if (o->has_arg == CLI_ARG)
			FUZZ_CHECK(val != NULL);
		if (val) {
			FUZZ_CHECK(in_args(argv, argc, val));
			parse_value(val);
		}
	}
	/* At the end it stays at the end. */
	FUZZ_CHECK(cli_next(&p, &val) == -1 && val == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct cli_opt *opts = replay_opts;
	char *buf, **argv;
	int argc = 1, k, skip = 0;
	size_t i, start;

	if (size > 65536)
		return 0;
	buf = malloc(size + 1);
	FUZZ_CHECK(buf != NULL);
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i < size; i++)
		if (buf[i] == '\0' && i + 1 < size)
			argc++;
	if (size)
		argc++;
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	FUZZ_CHECK(argv != NULL);
	argv[0] = "swapreplay";
	for (k = 1, start = 0, i = 0; size && i <= size; i++) {
		if (i == size || buf[i] == '\0') {
			if (i == size && start == size && size && buf[size - 1] == '\0')
				break; /* one trailing NUL ends the last argument */
			argv[k++] = buf + start;
			start = i + 1;
		}
	}
	FUZZ_CHECK(k == argc);
	argv[argc] = NULL;

	if (argc >= 2) {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			if (strcmp(argv[1], commands[i].name) == 0) {
				opts = commands[i].opts;
				skip = 1;
				break;
			}
		}
	}
	run_parser(argc - skip, argv + skip, opts);
	free(argv);
	free(buf);
	return 0;
}
