/* SPDX-License-Identifier: MIT */
/*
 * A small option parser: "--name=value", "--name value", "-x value", "-xVALUE",
 * "--" ends options, "-" alone is an argument.  No global state, so it can
 * be fuzzed and used by several commands.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "swapreplay/replay.h"

void cli_parser_init(struct cli_parser *p, int argc, char **argv,
		     const struct cli_opt *opts)
{
	memset(p, 0, sizeof(*p));
	p->argc = argc;
	p->argv = argv;
	p->i = 1;
	p->opts = opts;
}

static int fail(struct cli_parser *p, const char *fmt, const char *a)
{
	snprintf(p->err, sizeof(p->err), fmt, a);
	return -2;
}

/* The most long options a table may have for "did you mean". */
#define MAX_OPTS 128

/* "unknown option '--polciy=x'; did you mean '--policy'?": a (with its
 * value) is no option of the table, name[0..n) is its name. */
static int unknown_long(struct cli_parser *p, const char *a, const char *name, size_t n)
{
	const char *names[MAX_OPTS];
	char word[SR_SUGGEST_MAX + 1], text[160];
	const struct cli_opt *o;
	size_t k = 0, at;

	fail(p, "unknown option '%s'", a);
	if (n >= sizeof(word))
		return -2;
	memcpy(word, name, n);
	word[n] = '\0';
	for (o = p->opts; o->name && k < MAX_OPTS; o++)
		names[k++] = o->name;
	if (sr_suggest_text(word, names, k, "--", text, sizeof(text))) {
		at = strlen(p->err);
		snprintf(p->err + at, sizeof(p->err) - at, "; %s", text);
	}
	return -2;
}

int cli_next(struct cli_parser *p, const char **val)
{
	const struct cli_opt *o;
	const char *a;

	*val = NULL;
	if (p->i >= p->argc)
		return -1;
	a = p->argv[p->i++];
	if (!a)
		return -1;
	if (p->only_args || a[0] != '-' || a[1] == '\0') {
		*val = a;
		return 0;
	}
	if (a[1] == '-' && a[2] == '\0') {
		p->only_args = 1;
		return cli_next(p, val);
	}
	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t n = eq ? (size_t)(eq - name) : strlen(name);

		for (o = p->opts; o->name; o++)
			if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
				break;
		if (!o->name)
			return unknown_long(p, a, name, n);
		if (o->has_arg == CLI_NOARG) {
			if (eq)
				return fail(p, "option '%s' takes no value", a);
			return o->id;
		}
		if (eq) {
			*val = eq + 1;
			return o->id;
		}
		if (o->has_arg == CLI_OPTARG)
			return o->id;
		if (p->i >= p->argc || !p->argv[p->i])
			return fail(p, "option '%s' needs a value", a);
		*val = p->argv[p->i++];
		return o->id;
	}
	for (o = p->opts; o->name; o++)
		if (o->short_name && o->short_name == a[1])
			break;
	if (!o->name)
		return fail(p, "unknown option '%s'", a);
	if (o->has_arg == CLI_NOARG) {
		if (a[2])
			return fail(p, "option '%s' takes no value", a);
		return o->id;
	}
	if (a[2]) {
		*val = a + 2;
		return o->id;
	}
	if (o->has_arg == CLI_OPTARG)
		return o->id;
	if (p->i >= p->argc || !p->argv[p->i])
		return fail(p, "option '%s' needs a value", a);
	*val = p->argv[p->i++];
	return o->id;
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned char)*s - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_noise(const char *s, int *out)
{
	uint64_t u;

	if (!strcmp(s, "auto")) {
		*out = -1;
		return 0;
	}
	if (cli_parse_u64(s, SR_REPLAY_MAX_NOISE, &u))
		return -1;
	*out = (int)u;
	return 0;
}

int cli_parse_noise_jitter(const char *s, unsigned *out)
{
	uint64_t u;

	if (cli_parse_u64(s, CLI_JITTER_MAX, &u) || u < 1)
		return -1;
	*out = (unsigned)u;
	return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	char num[32];
	const char *suf;
	size_t n;
	uint64_t v, mul = 1;

	if (!s)
		return -1;
	for (n = 0; s[n] >= '0' && s[n] <= '9'; n++)
		;
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (cli_parse_u64(num, UINT64_MAX, &v))
		return -1;
	suf = s + n;
	if (*suf) {
		switch (*suf) {
		case 'k': case 'K': mul = 1ull << 10; break;
		case 'm': case 'M': mul = 1ull << 20; break;
		case 'g': case 'G': mul = 1ull << 30; break;
		case 't': case 'T': mul = 1ull << 40; break;
		default: return -1;
		}
		suf++;
		if (*suf && strcmp(suf, "iB"))
			return -1;
	}
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}
