/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/error.h - error codes and the caller-owned diagnostic.
 *
 * The library never prints and never exits.  Every function that can fail
 * returns an enum sr_err and, when the caller passes one, fills a struct
 * sr_diag saying where and why.  Only the command line prints it.
 */
#ifndef SWAPREPLAY_ERROR_H
#define SWAPREPLAY_ERROR_H

#include <stddef.h>
#include <stdint.h>

/* Values are pinned: scripts and the CLI's exit status depend on them. */
enum sr_err {
	SR_OK = 0,
	SR_ERR_NOMEM = 1,   /* an allocation failed */
	SR_ERR_IO = 2,      /* open, read, write, close or rename failed */
	SR_ERR_FORMAT = 3,  /* the input's content is not valid */
	SR_ERR_ZSTD = 4,    /* the zstd layer: corrupt or truncated data */
	SR_ERR_INVAL = 5,   /* an argument or option value is not valid */
	SR_ERR_MACHINE = 6, /* a machine description is not valid */
	SR_ERR_POLICY = 7,  /* a policy could not be found, loaded or run */
	SR_ERR_LIMIT = 8,   /* a documented limit was exceeded */
};

/* Static English text for an error code; never NULL. */
const char *sr_strerror(enum sr_err err);

/*
 * Where and why something failed.  Owned by the caller; the library only
 * writes into it.  Fields that do not apply are 0 or empty: line is 0 for
 * binary input (which uses byte_offset and record instead).
 */
struct sr_diag {
	enum sr_err code;
	char file[256];      /* input name as the user gave it ("-" for stdin) */
	uint64_t line;       /* 1-based line of a text input, 0 if not known */
	uint64_t record;     /* 1-based record (event) number, 0 if not known */
	uint64_t byte_offset; /* offset in the decompressed stream, binary input */
	int has_offset;      /* byte_offset is meaningful */
	char msg[512];       /* what is wrong, with the field and the value */
};

/* Reset a diagnostic to "no error". */
void sr_diag_clear(struct sr_diag *d);

/*
 * Format a diagnostic the way the CLI prints it, into buf (always
 * NUL-terminated): "FILE:LINE: msg", or for binary input
 * "FILE: byte OFFSET, record N: msg", or "FILE: msg", or just "msg".
 */
void sr_diag_format(const struct sr_diag *d, char *buf, size_t size);

/*
 * "Did you mean": for an error message naming a word that is none of
 * names[0..n) (a command, an option, a policy), the names it may be a
 * typo of, into out (at most max, in the order of names): the one name
 * word is a prefix of, if only one ("mer" is merge); else those nearest to
 * it, if within 2 edits and fewer edits than word has letters ("go" is not
 * taken for "gen").  An edit is an insertion, a deletion, a substitution or
 * a swap of two neighbours ("replya" is one edit from "replay").  A word
 * or a name longer than SR_SUGGEST_MAX is nobody's typo; a NULL name is
 * skipped.  Returns how many.
 */
#define SR_SUGGEST_MAX 32
int sr_suggest(const char *word, const char *const *names, size_t n, const char **out, int max);

/*
 * The same in words, into buf (always NUL-terminated): "did you mean 'A'?",
 * "did you mean 'A' or 'B'?", "did you mean 'A', 'B' or 'C'?" (at most
 * 4), each name after prefix ("--" for an option; NULL for none); "" when
 * word is like none.  Returns how many names it gave.
 */
int sr_suggest_text(const char *word, const char *const *names, size_t n, const char *prefix,
		    char *buf, size_t size);

#endif /* SWAPREPLAY_ERROR_H */
