/* SPDX-License-Identifier: MIT */
/*
 * swapreplay's entry point: the command table, --help/--version, the exit
 * statuses and the clean-up of temporary files on SIGINT/SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "swapreplay/outfile.h"
#include "swapreplay/version.h"

/* Checklist: a new command goes here, in README.md and in tests/cli. */
static const struct cli_cmd *const commands[] = {
	&cmd_replay,
	&cmd_convert,
	&cmd_stat,
	&cmd_compare,
	&cmd_gen,
	&cmd_sweep,
	&cmd_merge,
	&cmd_plot,
	&cmd_policies,
	&cmd_machines,
	&cmd_machine,
	&cmd_capture_fixup,
	NULL,
};

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("swapreplay: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_quiet;

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	if (cli_quiet)
		return;
	fputs("swapreplay: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_status(enum sr_err err)
{
	switch (err) {
	case SR_OK: return EXIT_OK;
	case SR_ERR_INVAL:
	case SR_ERR_POLICY: return EXIT_USAGE;
	case SR_ERR_FORMAT:
	case SR_ERR_ZSTD:
	case SR_ERR_MACHINE:
	case SR_ERR_LIMIT: return EXIT_DATA;
	case SR_ERR_IO: return EXIT_IO;
	case SR_ERR_NOMEM: return EXIT_FAIL;
	}
	return EXIT_FAIL;
}

int cli_diag(const struct sr_diag *d)
{
	char buf[1024];

	sr_diag_format(d, buf, sizeof(buf));
	cli_err("%s", buf);
	return cli_status(d->code);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "swapreplay: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'swapreplay help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
	return EXIT_USAGE;
}

void cli_read_warnings(const char *name, const struct sr_read_stats *st)
{
	if (st->derived[0])
		cli_warn("%s: %s", name, st->derived);
	if (st->unknown_fields[0])
		cli_warn("%s: ignored unknown field(s): %s", name, st->unknown_fields);
	if (st->ts_backwards)
		cli_warn("%s: %llu event(s) with a timestamp before the previous event's "
			 "(accepted; a replay puts events in time order within its --reorder-window)",
			 name, (unsigned long long)st->ts_backwards);
	if (st->skipped)
		cli_warn("%s: skipped %llu bad record(s) under --max-errors; the first: %s",
			 name, (unsigned long long)st->skipped, st->first_skip);
}

void cli_machine_notes(const struct sr_machine *m)
{
	const char *s = m ? m->notes : NULL;

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		cli_warn("%.*s", len, s);
		s += len + (nl ? 1 : 0);
	}
}

/* ---- temporary files and signals ------------------------------------- */

#define MAX_TEMPS 8
static char temps[MAX_TEMPS][4096]; /* "" = free slot; written with signals blocked */
volatile int cli_interrupted;

static void block_signals(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void temp_hook(const char *name, int created)
{
	sigset_t old;
	int i;

	block_signals(&old);
	for (i = 0; i < MAX_TEMPS; i++) {
		if (created && !temps[i][0]) {
			snprintf(temps[i], sizeof(temps[i]), "%s", name);
			break;
		}
		if (!created && strcmp(temps[i], name) == 0) {
			temps[i][0] = '\0';
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void on_signal(int sig)
{
	int i;

	/* unlink() is async-signal-safe; the old target was never touched. */
	for (i = 0; i < MAX_TEMPS; i++)
		if (temps[i][0])
			unlink(temps[i]);
	cli_interrupted = 1;
	signal(sig, SIG_DFL);
	raise(sig);
}

void cli_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sr_outfile_set_hook(temp_hook);
}

/* ---- help ------------------------------------------------------------- */

static void print_main_help(FILE *f)
{
	int i;

	fprintf(f,
		"Usage: swapreplay COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"Replay Linux swap-in/swap-out traces through swap device selection\n"
		"policies and a hardware cost model.\n"
		"\n"
		"Commands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f,
		"  %-10s %s\n"
		"\n"
		"Options:\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n"
		"\n"
		"Traces are CSV, JSON lines or the binary .swt format, each optionally\n"
		"zstd-compressed; the format is detected from the content.  '-' reads\n"
		"standard input.  See traces/FORMAT.md.\n"
		"\n"
		"Exit status: 0 success; 1 other failure (out of memory); 2 bad command\n"
		"line; 3 bad input data (a trace, a machine description, a report); 4 a\n"
		"file could not be opened, read or written; 5 replay of a trace without\n"
		"swap events (\"no swap activity\": nothing to report); 128+N killed by\n"
		"signal N.\n",
		"help", "show the help of a command: swapreplay help COMMAND");
}

static const struct cli_cmd *find_cmd(const char *name)
{
	int i;

	for (i = 0; commands[i]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* ---- "did you mean" ----------------------------------------------------- */

/* "swapreplay: unknown command 'WORD'; did you mean 'A'?" (or 'A' or 'B'),
 * and EXIT_USAGE; or -1 when WORD is like no command (sr_suggest()).  A
 * word with a '/' or a '.' is a file name, not a typo. */
static int did_you_mean(const char *word)
{
	const char *names[sizeof(commands) / sizeof(commands[0]) + 1];
	char text[256];
	size_t n = 0;
	int i;

	if (strpbrk(word, "/."))
		return -1;
	for (i = 0; commands[i]; i++)
		names[n++] = commands[i]->name;
	names[n++] = "help";
	if (!sr_suggest_text(word, names, n, NULL, text, sizeof(text)))
		return -1;
	fprintf(stderr, "swapreplay: unknown command '%s'; %s\nTry 'swapreplay --help'.\n", word, text);
	return EXIT_USAGE;
}

static int unknown_command(const char *name)
{
	int i, rc = did_you_mean(name);

	if (rc >= 0)
		return rc;
	fprintf(stderr, "swapreplay: unknown command '%s'; the commands are:", name);
	for (i = 0; commands[i]; i++)
		fprintf(stderr, " %s", commands[i]->name);
	fprintf(stderr, " help\nTry 'swapreplay --help'.\n");
	return EXIT_USAGE;
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return cli_usage("help", "takes one command name");
	if (strcmp(argv[1], "help") == 0) {
		printf("Usage: swapreplay help [COMMAND]\n\nShow the help of COMMAND, or the list of commands.\n");
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	fputs(c->help, stdout);
	return EXIT_OK;
}

/* "--help"/"-h" anywhere before "--" in a command's arguments. */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

/* The command line given, to its exit status; what it wrote on standard
 * output may still be in the buffer (close_stdout()). */
static int dispatch(int argc, char **argv)
{
	const struct cli_cmd *c;
	int rc;

	if (argc < 2) {
		print_main_help(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("swapreplay %s\n", SR_VERSION_STRING);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0)
		return cmd_help(argc - 1, argv + 1);
	c = find_cmd(argv[1]);
	if (!c && (argv[1][0] != '-' || strcmp(argv[1], "-") == 0)) {
		struct stat st;

		/* A word that is no file but like a command's name is a typo of
		 * it, not a trace: swapreplay stats FILE. */
		if (strcmp(argv[1], "-") && stat(argv[1], &st) && (rc = did_you_mean(argv[1])) >= 0)
			return rc;
		/* The default command: swapreplay TRACE --policy=... */
		c = &cmd_replay;
		argc++;
		argv--;
	}
	if (!c)
		return unknown_command(argv[1]);
	if (wants_help(argc - 1, argv + 1)) {
		fputs(c->help, stdout);
		return EXIT_OK;
	}
	cli_install_signals();
	return c->run(argc - 1, argv + 1);
}

/*
 * Whatever ran, standard output is flushed and closed here, once: a write
 * that failed (a full disk, /dev/full, a closed pipe's EIO) is an error,
 * EXIT_IO unless the command failed already, be it a report, a help text
 * or a list.  A standard output closed from the start (>&-) on which
 * nothing was written is no error (EBADF from fclose() alone).
 */
static int close_stdout(int rc)
{
	int bad = 0, e = 0;

	errno = 0;
	if (fflush(stdout)) {
		bad = 1;
		e = errno;
	}
	if (ferror(stdout))
		bad = 1;
	errno = 0;
	if (fclose(stdout) && !bad && errno != EBADF) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		if (e)
			cli_err("error writing to standard output: %s", strerror(e));
		else
			cli_err("error writing to standard output");
		if (!rc)
			rc = EXIT_IO;
	}
	return rc;
}

int main(int argc, char **argv)
{
	return close_stdout(dispatch(argc, argv));
}
