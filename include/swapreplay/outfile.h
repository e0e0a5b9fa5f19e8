/* SPDX-License-Identifier: MIT */
/*
 * swapreplay/outfile.h - output files that are whole or absent.
 *
 * Everything swapreplay writes goes to a temporary file in the target's
 * directory ("DIR/.NAME.PID.XXXXXX", PID its writer's process id) and is
 * renamed over the target only when complete.  "-" writes to standard
 * output directly.
 */
#ifndef SWAPREPLAY_OUTFILE_H
#define SWAPREPLAY_OUTFILE_H

#include <stdio.h>

#include "swapreplay/error.h"

struct sr_outfile;

/* Create the temporary file for path.  *out owns it until commit/abort.
 * A symbolic link is written through: the file it names is replaced, the
 * link stays.  The target's temporary files whose writer process no
 * longer exists (kill(pid, 0): ESRCH; one killed by SIGKILL left it) are
 * removed first; a live writer's are kept. */
enum sr_err sr_outfile_open(struct sr_outfile **out, const char *path,
			    struct sr_diag *diag);

/*
 * SR_ERR_INVAL if path is an existing file that is also one of the n
 * inputs (the same file, by device and inode, whatever the names): the
 * caller must not write over what it reads.  An input "-" is standard
 * input: the file on descriptor 0 (a shell's "< FILE") is compared.
 * NULL inputs are skipped.  SR_OK otherwise.
 */
enum sr_err sr_outfile_check_inputs(const char *path, const char *const *inputs, size_t n,
				    struct sr_diag *diag);

/* The stream to write to (buffered by stdio). */
FILE *sr_outfile_stream(struct sr_outfile *o);

/* The temporary file's name, or NULL for stdout; stable until commit/abort.
 * A signal handler may unlink() it. */
const char *sr_outfile_temp_name(const struct sr_outfile *o);

/*
 * Flush, check for write errors, fsync, close and rename into place.
 * Frees o in every case; on failure the temporary file is removed and the
 * target is left as it was.
 */
enum sr_err sr_outfile_commit(struct sr_outfile *o, struct sr_diag *diag);

/* Close and remove the temporary file; free o.  Accepts NULL. */
void sr_outfile_abort(struct sr_outfile *o);

/*
 * Called with the temporary file's name (or NULL) whenever one is created
 * (name) or ends (NULL), so that the CLI can remove it from a signal
 * handler.  One process-wide hook; NULL to unset.
 */
void sr_outfile_set_hook(void (*hook)(const char *temp_name, int created));

#endif /* SWAPREPLAY_OUTFILE_H */
