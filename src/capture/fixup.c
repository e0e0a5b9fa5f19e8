/* SPDX-License-Identifier: MIT */
/*
 * The raw output of the bpftrace capture (traces/capture/) into canonical
 * events: each page frame number resolved to its node from sysfs's memory
 * blocks (swapreplay/capture.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>

#include "capture/tpjoin.h"
#include "common/diag.h"
#include "trace/source.h"
#include "common/parse.h"
#include "trace/fields.h"
#include "common/grow.h"
#include "common/strs.h"
#include "common/u64map.h"
#include "swapreplay/capture.h"
#include "swapreplay/trace.h"

#define MAX_BLOCKS (1u << 24) /* memory blocks: 2 PiB of 128 MiB blocks */

/* ---- pfn -> node ------------------------------------------------------ */

struct sr_pfn_map {
	uint64_t pages_per_block;
	uint32_t nblocks;      /* highest block listed + 1 */
	int16_t *node;         /* by block, -1 none */
};

static enum sr_err map_bad(struct sr_diag *d, const char *path, enum sr_err code,
			   const char *msg)
{
	sr_diag_file(d, path);
	return sr_diag_set(d, code, "%s", msg);
}

enum sr_err sr_pfn_map_load(struct sr_pfn_map **out, const char *root, struct sr_diag *d)
{
	char base[PATH_MAX], path[PATH_MAX + 64], buf[64];
	struct sr_pfn_map *m;
	struct dirent *de;
	DIR *dir;
	FILE *f;
	size_t n, i;
	char *end;
	unsigned long long bs;

	*out = NULL;
	sr_diag_clear(d);
	snprintf(base, sizeof(base), "%s", root && *root ? root : "/");
	for (n = strlen(base); n > 0 && base[n - 1] == '/'; n--)
		base[n - 1] = '\0';
	snprintf(path, sizeof(path), "%s/sys/devices/system/memory/block_size_bytes", base);
	f = fopen(path, "r");
	if (!f)
		return map_bad(d, path, SR_ERR_IO, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	errno = 0;
	bs = strtoull(buf, &end, 16);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || end == buf || *end || bs < SR_PAGE_SIZE || bs % SR_PAGE_SIZE ||
	    (bs & (bs - 1)))
		return map_bad(d, path, SR_ERR_FORMAT,
			       "not a block size in hexadecimal bytes, a power of two of at least 4096 (such as 8000000)");
	m = calloc(1, sizeof(*m));
	if (!m)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	m->pages_per_block = bs / SR_PAGE_SIZE;
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", base);
	dir = opendir(path);
	if (!dir) {
		enum sr_err e = map_bad(d, path, SR_ERR_IO, strerror(errno));

		sr_pfn_map_free(m);
		return e;
	}
	while ((de = readdir(dir))) {
		char npath[PATH_MAX + 512];
		struct dirent *me;
		DIR *nd;
		long node;

		if (strncmp(de->d_name, "node", 4) || !de->d_name[4])
			continue;
		errno = 0;
		node = strtol(de->d_name + 4, &end, 10);
		if (*end || de->d_name[4] < '0' || de->d_name[4] > '9' || node >= SR_MAX_NODES)
			continue;
		snprintf(npath, sizeof(npath), "%s/%s", path, de->d_name);
		nd = opendir(npath);
		if (!nd)
			continue;
		while ((me = readdir(nd))) {
			unsigned long long blk;

			if (strncmp(me->d_name, "memory", 6) || me->d_name[6] < '0' ||
			    me->d_name[6] > '9')
				continue;
			blk = strtoull(me->d_name + 6, &end, 10);
			if (*end || blk >= MAX_BLOCKS)
				continue;
			if (blk >= m->nblocks) {
				uint32_t nb = m->nblocks ? m->nblocks : 64;
				int16_t *p;

				while (nb <= blk)
					nb *= 2;
				p = realloc(m->node, nb * sizeof(*p));
				if (!p) {
					closedir(nd);
					closedir(dir);
					sr_pfn_map_free(m);
					return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
				}
				for (i = m->nblocks; i < nb; i++)
					p[i] = -1;
				m->node = p;
				m->nblocks = nb;
			}
			m->node[blk] = (int16_t)node;
		}
		closedir(nd);
	}
	closedir(dir);
	if (!m->nblocks) {
		sr_pfn_map_free(m);
		return map_bad(d, path, SR_ERR_FORMAT,
			       "no node lists a memory block (node<N>/memory<M>): cannot tell a page's node");
	}
	*out = m;
	return SR_OK;
}

int sr_pfn_map_node(const struct sr_pfn_map *m, uint64_t pfn)
{
	uint64_t b = pfn / m->pages_per_block;

	return b < m->nblocks ? m->node[b] : -1;
}

void sr_pfn_map_free(struct sr_pfn_map *m)
{
	if (!m)
		return;
	free(m->node);
	free(m);
}

/* ---- the raw capture -------------------------------------------------- */

/* The raw columns, in order; pfn takes page_nid's place; vaddr, child,
 * reclaim, fault, memcg and memcg_ino, the last, are not in captures made
 * before them (and a line may end before any of them: an exit before
 * child, a task op after it, a swap-out after reclaim in captures before
 * memcg). */
#define RAW_COLS 16
#define RAW_PFN (-1)
#define RAW_MEMCG (-2)
#define RAW_INO (-3)
static const int raw_field[RAW_COLS] = {
	SR_F_TS_NS, SR_F_OP, SR_F_PID, SR_F_CPU, SR_F_CPU_NID, RAW_PFN,
	SR_F_DEV, SR_F_OFFSET, SR_F_NR_PAGES, SR_F_LAT_NS, SR_F_VADDR, SR_F_CHILD,
	SR_F_RECLAIM, SR_F_FAULT, RAW_MEMCG, RAW_INO,
};

/* A raw line of at most ncols fields: RAW_COLS under this build's header,
 * RAW_COLS - 2 under a header without memcg (as a capture before them). */
static int parse_raw(const char *s, size_t len, struct sr_event *ev, uint64_t *pfn,
		     int *has_pfn, uint64_t *ino, int ncols, char *msg, size_t msz)
{
	const char *hdr = ncols == RAW_COLS ? SR_CAPTURE_HEADER_MEMCG : SR_CAPTURE_HEADER_CTX;
	size_t pos = 0;
	int col;

	sr_event_init(ev);
	*has_pfn = 0;
	*pfn = 0;
	*ino = 0;
	for (col = 0; col < ncols; col++) {
		const char *v = s + pos, *c = pos <= len ? memchr(v, ',', len - pos) : NULL;
		size_t vl = c ? (size_t)(c - v) : len - pos;
		int f = raw_field[col];

		if (col >= 10 && pos > len)
			break; /* no vaddr (child, reclaim, fault) column */
		if (!c && col < 9) {
			snprintf(msg, msz, "%d fields, the capture has 10 to %d (%s)", col + 1,
				 ncols, hdr);
			return -1;
		}
		if (c && col == ncols - 1) {
			snprintf(msg, msz, "more than %d fields (%s)", ncols, hdr);
			return -1;
		}
		pos += vl + 1;
		if (f == RAW_MEMCG || f == RAW_INO) {
			uint64_t x;

			/* 0 or empty: the folio had no memcg (or none was read). */
			if (!vl)
				continue;
			if (sr_parse_u64(v, vl, f == RAW_MEMCG ? SR_MEMCG_MAX : UINT64_MAX - 1, &x)) {
				snprintf(msg, msz, f == RAW_MEMCG ?
					 "not a memcg id, 0 to 65535 (memcg, \"%.*s\")" :
					 "not a cgroup inode number (memcg_ino, \"%.*s\")",
					 (int)(vl > 32 ? 32 : vl), v);
				return -1;
			}
			if (x && sr_op_is_task(ev->op)) {
				snprintf(msg, msz, "%s has no memcg: a task op moves no page (%s, %llu)",
					 sr_op_name((enum sr_op)ev->op),
					 f == RAW_MEMCG ? "memcg" : "memcg_ino", (unsigned long long)x);
				return -1;
			}
			if (f == RAW_MEMCG)
				ev->memcg = (uint16_t)x;
			else
				*ino = x;
			continue;
		}
		if (f < 0) {
			int rc;

			if (!vl)
				continue;
			rc = sr_parse_u64(v, vl, (1ull << 52) - 1, pfn);
			if (rc) {
				snprintf(msg, msz, "not a page frame number (pfn, \"%.*s\")",
					 (int)(vl > 32 ? 32 : vl), v);
				return -1;
			}
			*has_pfn = 1;
			continue;
		}
		if (!vl) {
			if (sr_field_required(f)) {
				snprintf(msg, msz, "missing value of a required field (%s, \"\")",
					 sr_field_names[f]);
				return -1;
			}
			continue;
		}
		if (sr_field_set_text(ev, f, v, vl, msg, msz))
			return -1;
	}
	return sr_event_check(ev, msg, msz);
}

int sr_capture_parse_line(const char *s, size_t len, struct sr_event *ev, uint64_t *pfn,
			  int *has_pfn, char *msg, size_t msz)
{
	uint64_t ino;

	return parse_raw(s, len, ev, pfn, has_pfn, &ino, RAW_COLS - 2, msg, msz);
}

int sr_capture_parse_line_ino(const char *s, size_t len, struct sr_event *ev, uint64_t *pfn,
			      int *has_pfn, uint64_t *ino, char *msg, size_t msz)
{
	return parse_raw(s, len, ev, pfn, has_pfn, ino, RAW_COLS, msg, msz);
}

struct sr_capture {
	struct sr_src *src;
	const struct sr_pfn_map *map;
	uint64_t line;
	int header_done;
	int strict;
	uint64_t max_errors;   /* bad data lines skipped before failing */
	struct sr_tpjoin *tp;  /* the tracepoint capture's joiner, or NULL */
	int tp_end;            /* its lines are all read: flush it */
	/* Its last line read, held back until the next one tells whether its
	 * timestamp is out of line (tp_decide()). */
	char *held;
	size_t held_len, held_cap;
	uint64_t held_no, held_ts;
	int holding;
	uint64_t latest;       /* the latest timestamp of the lines joined */
	int have_latest;
	/* The memcgs (memcg_of()): */
	struct sr_memcgs *memcgs;   /* id -> path, for the writer */
	const char *cg_root;        /* --cgroup-root, or NULL: from mountinfo */
	int cg_loaded;              /* the hierarchy was walked (or could not be) */
	struct sr_u64map cg_dirs;   /* cgroup inode -> index + 1 in cg_paths */
	struct sr_strs cg_paths;
	struct sr_u64map cg_seen;   /* inode (or MEMCG_KEY_ID | id) -> id used + 1 */
	unsigned next_id;           /* the tracepoint capture's numbering */
	struct sr_capture_stats st;
	enum sr_err sticky;
	struct sr_diag sticky_diag;
};

enum sr_err sr_capture_open(struct sr_capture **out, const char *path,
			    const struct sr_pfn_map *map, struct sr_diag *d)
{
	struct sr_capture *c;
	enum sr_err err;

	*out = NULL;
	sr_diag_clear(d);
	c = calloc(1, sizeof(*c));
	if (!c)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	c->map = map;
	sr_u64map_init(&c->cg_dirs);
	sr_u64map_init(&c->cg_seen);
	if (sr_memcgs_new(&c->memcgs)) {
		free(c);
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	}
	err = sr_src_open(&c->src, path, d);
	if (err) {
		sr_memcgs_free(c->memcgs);
		free(c);
		return err;
	}
	*out = c;
	return SR_OK;
}

/* The error of line `line` (0: none), made sticky. */
static enum sr_err cap_fail_at(struct sr_capture *c, struct sr_diag *d, enum sr_err code,
			       uint64_t line, const char *msg)
{
	struct sr_diag x;

	sr_diag_clear(&x);
	sr_diag_file(&x, sr_src_name(c->src));
	x.line = line;
	sr_diag_set(&x, code, "%s", msg);
	c->sticky = code;
	c->sticky_diag = x;
	if (d)
		*d = x;
	return code;
}

static enum sr_err cap_fail(struct sr_capture *c, struct sr_diag *d, enum sr_err code,
			    const char *msg)
{
	return cap_fail_at(c, d, code, c->line, msg);
}

/*
 * A data line refused (line: its number, msg: why): skipped and counted
 * while fewer than max_errors were (SR_OK), else the capture's error.
 */
static enum sr_err bad_line(struct sr_capture *c, struct sr_diag *d, uint64_t line,
			    const char *msg)
{
	char full[600];

	if (c->st.skipped < c->max_errors) {
		if (!c->st.skipped)
			snprintf(c->st.first_skip, sizeof(c->st.first_skip), "%s:%llu: %s",
				 sr_src_name(c->src), (unsigned long long)line, msg);
		c->st.skipped++;
		return SR_OK;
	}
	if (!c->max_errors)
		return cap_fail_at(c, d, SR_ERR_FORMAT, line, msg);
	snprintf(full, sizeof(full), "%s [more than --max-errors=%llu bad lines]", msg,
		 (unsigned long long)c->max_errors);
	return cap_fail_at(c, d, SR_ERR_FORMAT, line, full);
}

void sr_capture_strict(struct sr_capture *c, int strict)
{
	c->strict = strict;
}

void sr_capture_max_errors(struct sr_capture *c, uint64_t n)
{
	c->max_errors = n;
}

void sr_capture_cgroup_root(struct sr_capture *c, const char *dir)
{
	c->cg_root = dir && *dir ? dir : NULL;
}

const struct sr_memcgs *sr_capture_memcgs(const struct sr_capture *c)
{
	return c->memcgs;
}

/* ---- memcg paths: a cgroup's inode -> its path ------------------------- */

/* A field of /proc/self/mountinfo unescaped in place (\040 a space, \011,
 * \012, \134: the kernel's octal escapes of a path). */
static void mi_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Whether the comma-separated list opts has the option name. */
static int has_opt(const char *opts, const char *name)
{
	size_t n = strlen(name);

	while (*opts) {
		const char *e = strchr(opts, ',');
		size_t l = e ? (size_t)(e - opts) : strlen(opts);

		if (l == n && !memcmp(opts, name, n))
			return 1;
		if (!e)
			break;
		opts = e + 1;
	}
	return 0;
}

/*
 * The memory cgroup hierarchy's mount from /proc/self/mountinfo: a cgroup
 * (v1) mount whose super options name the memory controller, else a
 * cgroup2 mount (a machine with memory on v1 has a cgroup2 mount too,
 * without it).  *dir its mount point, *prefix its root within the
 * hierarchy ("" for the hierarchy's root: the mount's root field "/"),
 * 0; -1 with why.
 */
static int find_memcg_mount(char *dir, size_t dsz, char *prefix, size_t psz, char *why,
			    size_t wsz)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int found = 0; /* 2: v1 memory, 1: cgroup2 */

	if (!f) {
		snprintf(why, wsz, "cannot read /proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	while (found < 2 && fgets(line, sizeof(line), f)) {
		char *fld[16], *save = NULL, *t;
		int n = 0, dash = -1, i;

		for (t = strtok_r(line, " \n", &save); t && n < 16; t = strtok_r(NULL, " \n", &save)) {
			if (!strcmp(t, "-") && dash < 0)
				dash = n;
			fld[n++] = t;
		}
		/* id parent major:minor root mountpoint options [tags] - type source super */
		if (dash < 6 || dash + 3 >= n)
			continue;
		i = dash + 1;
		if (!strcmp(fld[i], "cgroup") && has_opt(fld[i + 2], "memory"))
			;
		else if (!strcmp(fld[i], "cgroup2") && !found)
			;
		else
			continue;
		mi_unescape(fld[3]);
		mi_unescape(fld[4]);
		snprintf(dir, dsz, "%s", fld[4]);
		snprintf(prefix, psz, "%s", strcmp(fld[3], "/") ? fld[3] : "");
		found = strcmp(fld[i], "cgroup") ? 1 : 2;
	}
	fclose(f);
	if (!found) {
		snprintf(why, wsz, "no memory cgroup mount in /proc/self/mountinfo (cgroup with the memory option, or cgroup2)");
		return -1;
	}
	return 0;
}

#define CG_MAX_DIRS (1u << 22)

/* The directory abs (rel its path in the hierarchy) and those under it:
 * each one's inode -> its path.  0, or -2 out of memory. */
static int cg_walk(struct sr_capture *c, char *abs, size_t alen, char *rel, size_t rlen,
		   int depth)
{
	DIR *dir;
	struct dirent *de;
	int rc = 0;

	if (depth > 64 || !(dir = opendir(abs)))
		return 0;
	while (!rc && (de = readdir(dir))) {
		struct stat sb;
		size_t nl = strlen(de->d_name);
		uint64_t *slot;
		int added;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (alen + 1 + nl >= PATH_MAX || rlen + 1 + nl > SR_MEMCG_PATH_MAX)
			continue;
		abs[alen] = '/';
		memcpy(abs + alen + 1, de->d_name, nl + 1);
		if (lstat(abs, &sb) || !S_ISDIR(sb.st_mode) || c->cg_paths.n >= CG_MAX_DIRS) {
			abs[alen] = '\0';
			continue;
		}
		rel[rlen] = '/';
		memcpy(rel + rlen + 1, de->d_name, nl + 1);
		slot = sr_u64map_put(&c->cg_dirs, (uint64_t)sb.st_ino, &added);
		if (!slot || (added && sr_strs_add(&c->cg_paths, rel, rlen + 1 + nl))) {
			rc = -2;
		} else {
			if (added)
				*slot = c->cg_paths.n;
			rc = cg_walk(c, abs, alen + 1 + nl, rel, rlen + 1 + nl, depth + 1);
		}
		abs[alen] = '\0';
		rel[rlen] = '\0';
	}
	closedir(dir);
	return rc;
}

/* Walk the memory cgroup hierarchy once: every directory's inode -> its
 * path.  0, or -2 out of memory (no hierarchy found: 0, cgroup_why set). */
static int cg_load(struct sr_capture *c)
{
	char abs[PATH_MAX], rel[SR_MEMCG_PATH_MAX + 2], prefix[SR_MEMCG_PATH_MAX + 1] = "";
	struct stat sb;
	uint64_t *slot;
	size_t n;
	int added;

	c->cg_loaded = 1;
	if (c->cg_root) {
		snprintf(abs, sizeof(abs), "%s", c->cg_root);
	} else if (find_memcg_mount(abs, sizeof(abs), prefix, sizeof(prefix), c->st.cgroup_why,
				    sizeof(c->st.cgroup_why))) {
		return 0;
	}
	for (n = strlen(abs); n > 1 && abs[n - 1] == '/'; n--)
		abs[n - 1] = '\0';
	/* (Cut to the stats' 512 bytes: a message's, not the path walked.) */
	snprintf(c->st.cgroup_root, sizeof(c->st.cgroup_root), "%.400s", abs);
	if (stat(abs, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(c->st.cgroup_why, sizeof(c->st.cgroup_why), "%.400s: %.80s", abs,
			 errno ? strerror(errno) : "not a directory");
		return 0;
	}
	/* The root's path: its mount's root in the hierarchy, "/" for the
	 * hierarchy's own root. */
	n = strlen(prefix);
	snprintf(rel, sizeof(rel), "%s", n ? prefix : "/");
	slot = sr_u64map_put(&c->cg_dirs, (uint64_t)sb.st_ino, &added);
	if (!slot || sr_strs_add(&c->cg_paths, rel, strlen(rel)))
		return -2;
	*slot = c->cg_paths.n;
	rel[n] = '\0';
	return cg_walk(c, abs, strlen(abs), rel, n, 0);
}

/* Keys of cg_seen for a memcg known by its id alone (no inode): above
 * any inode the captures give. */
#define MEMCG_KEY_ID (1ull << 63)

/*
 * A swap event's memcg: ev->memcg the kernel's id (the kprobe capture's
 * memcg column, 0 none) and ino its cgroup's inode (0 none).  Each memcg,
 * at its first event, gets its path from its inode (the directory of that
 * inode in the hierarchy) into c->memcgs; the tracepoint capture's, known
 * by their inode only, are numbered 1, 2, ... in the order they come.
 * 0, or -2 out of memory.
 */
static int memcg_of(struct sr_capture *c, struct sr_event *ev, uint64_t ino)
{
	uint64_t key, *seen, *dir;
	int added;

	if (sr_op_is_task(ev->op) || (!ev->memcg && !ino)) {
		ev->memcg = 0;
		return 0;
	}
	key = ino ? ino : MEMCG_KEY_ID | ev->memcg;
	if (key == SR_U64MAP_EMPTY)
		key--;
	seen = sr_u64map_put(&c->cg_seen, key, &added);
	if (!seen)
		return -2;
	if (added) {
		unsigned id = ev->memcg;
		const char *path = NULL;
		char msg[400];

		c->st.memcgs++;
		if (!id) {
			/* No id recorded (the tracepoint capture): one of ours. */
			if (c->next_id < SR_MEMCG_MAX) {
				id = ++c->next_id;
				c->st.memcgs_renumbered++;
			}
		}
		if (ino) {
			if (!c->cg_loaded && cg_load(c) < 0)
				return -2;
			dir = sr_u64map_get(&c->cg_dirs, ino);
			if (dir)
				path = c->cg_paths.v[*dir - 1];
			else
				c->st.memcgs_no_path++;
		}
		if (id && path) {
			int rc = sr_memcgs_set(c->memcgs, id, path, strlen(path), msg, sizeof(msg));

			if (rc == -2)
				return -2;
			if (rc && sr_memcgs_path(c->memcgs, id)) {
				id = 0; /* the id named another path first: reused */
			} else if (rc) {
				/* A path no trace can hold: the memcg kept, without it. */
				if (!c->st.memcgs_bad_path++)
					snprintf(c->st.bad_path_why, sizeof(c->st.bad_path_why), "%s",
						 msg);
			}
		}
		*seen = id + 1;
	}
	ev->memcg = (uint16_t)(*seen - 1);
	if (ev->memcg)
		c->st.memcg_events++;
	else
		c->st.memcg_id_reused += ino != 0 && !c->st.tracepoint;
	return 0;
}

/* bpftrace's "Lost N events" (its perf buffers were full): adds N to *lost
 * and returns 1, or returns 0 for any other line. */
static int lost_line(const char *s, size_t len, uint64_t *lost)
{
	static const char pre[] = "Lost ", post[] = " events";
	size_t np = sizeof(pre) - 1, nq = sizeof(post) - 1;
	uint64_t v;

	if (len <= np + nq || memcmp(s, pre, np) || memcmp(s + len - nq, post, nq) ||
	    sr_parse_u64(s + np, len - np - nq, UINT64_MAX, &v))
		return 0;
	*lost = *lost > UINT64_MAX - v ? UINT64_MAX : *lost + v;
	return 1;
}

/* An event's page node from its page frame number (its CPU's node when it
 * has none, or one in no node's memory), counted. */
static void page_node(struct sr_capture *c, struct sr_event *ev, uint64_t pfn, int has_pfn)
{
	int node = has_pfn ? sr_pfn_map_node(c->map, pfn) : -1;

	if (sr_op_is_task(ev->op)) {
		/* A task op has no page: the node of its CPU. */
		ev->page_nid = ev->cpu_nid;
		c->st.events++;
		return;
	}
	if (!has_pfn)
		c->st.no_pfn++;
	else if (node < 0)
		c->st.pfn_unmapped++;
	ev->page_nid = node >= 0 ? (uint16_t)node : ev->cpu_nid;
	c->st.events++;
}

/* ---- the tracepoint capture's lines ------------------------------------ */

/* One line to the joiner (no: its number); *joined set if it took it. */
static enum sr_err tp_join(struct sr_capture *c, const char *s, size_t len, uint64_t no,
			   int *joined, struct sr_diag *d)
{
	char msg[512];
	int rc = sr_tpjoin_line(c->tp, s, len, msg, sizeof(msg));

	*joined = !rc;
	if (rc == -2)
		return cap_fail_at(c, d, SR_ERR_NOMEM, no, msg);
	return rc ? bad_line(c, d, no, msg) : SR_OK;
}

/*
 * The held line joined or refused, knowing the line after it (next_ts,
 * when have_next) and the latest time of the lines joined before it.
 *
 * The bound: the lines are the tracepoints' as they fire, printed by
 * bpftrace from a buffer per CPU, so they come out of time order by as
 * long as a buffer waits to be read, and the joiner already takes
 * SR_TPJOIN_TIMEOUT_NS (10 s) as more than that: it gives up on a
 * completion that long after its bio (by the latest line's time).  A line
 * further out of line than that cannot be joined right, and one with a
 * time in the future would make every bio after it time out at once (no
 * latency, its reclaim write unpaired).  So a line is refused when its
 * time is more than 10 s before the latest joined (it goes back further
 * than reordering allows), or when it is more than 10 s after the latest
 * joined and the line after it is more than 10 s before it: a lone jump
 * that the capture does not follow is not the machine's time (two lines
 * glued together: "123" and "4567890123456,C,..." read as one 16-digit
 * time).  A jump the next line follows is a quiet spell: kept.
 */
static enum sr_err tp_decide(struct sr_capture *c, int have_next, uint64_t next_ts,
			     struct sr_diag *d)
{
	const uint64_t r = SR_TPJOIN_TIMEOUT_NS;
	uint64_t ts = c->held_ts;
	char msg[512];
	enum sr_err err;
	int joined;

	c->holding = 0;
	if (c->have_latest && ts < c->latest && c->latest - ts > r) {
		snprintf(msg, sizeof(msg), "ts_ns %llu is more than %llu s before an earlier line's (%llu): bpftrace's buffers do not hold lines that long (a line cut short or glued to another?)",
			 (unsigned long long)ts, (unsigned long long)(r / 1000000000u),
			 (unsigned long long)c->latest);
		return bad_line(c, d, c->held_no, msg);
	}
	if (have_next && (!c->have_latest || (ts > c->latest && ts - c->latest > r)) &&
	    next_ts < ts && ts - next_ts > r) {
		if (c->have_latest)
			snprintf(msg, sizeof(msg), "ts_ns %llu is more than %llu s after the line before (%llu) and the line after (%llu): two lines glued together?",
				 (unsigned long long)ts, (unsigned long long)(r / 1000000000u),
				 (unsigned long long)c->latest, (unsigned long long)next_ts);
		else
			snprintf(msg, sizeof(msg), "ts_ns %llu is more than %llu s after the line after it (%llu): two lines glued together?",
				 (unsigned long long)ts, (unsigned long long)(r / 1000000000u),
				 (unsigned long long)next_ts);
		return bad_line(c, d, c->held_no, msg);
	}
	err = tp_join(c, c->held, c->held_len, c->held_no, &joined, d);
	if (!err && joined && (!c->have_latest || ts > c->latest)) {
		c->latest = ts;
		c->have_latest = 1;
	}
	return err;
}

/* A data line of the tracepoint capture: the line held before it decided,
 * and this one held in its place. */
static enum sr_err tp_line(struct sr_capture *c, const char *s, size_t len, struct sr_diag *d)
{
	const char *comma = memchr(s, ',', len);
	enum sr_err err;
	uint64_t ts;
	int joined;

	/* Without a time it tells nothing of the times: the joiner refuses it. */
	if (sr_parse_u64(s, comma ? (size_t)(comma - s) : len, UINT64_MAX, &ts))
		return tp_join(c, s, len, c->line, &joined, d);
	if (c->holding && (err = tp_decide(c, 1, ts, d)))
		return err;
	if (sr_grow((void **)&c->held, &c->held_cap, len, 1, 256))
		return cap_fail(c, d, SR_ERR_NOMEM, "out of memory");
	memcpy(c->held, s, len);
	c->held_len = len;
	c->held_no = c->line;
	c->held_ts = ts;
	c->holding = 1;
	return SR_OK;
}

/* The tracepoint capture's lines are all read: the one held decided. */
static enum sr_err tp_end(struct sr_capture *c, struct sr_diag *d)
{
	c->tp_end = 1;
	return c->holding ? tp_decide(c, 0, 0, d) : SR_OK;
}

/* A swap extent line, before the tracepoint capture's header. */
static int swapext(struct sr_capture *c, const char *line, size_t len, char *msg, size_t msz)
{
	if (!c->tp && !(c->tp = sr_tpjoin_new(&c->st))) {
		snprintf(msg, msz, "out of memory");
		return -2;
	}
	return sr_tpjoin_extent(c->tp, line, len, msg, msz);
}

enum sr_err sr_capture_read(struct sr_capture *c, struct sr_event *evs, size_t cap,
			    size_t *n, struct sr_diag *d)
{
	char msg[512];

	*n = 0;
	if (c->sticky) {
		if (d)
			*d = c->sticky_diag;
		return c->sticky;
	}
	while (*n < cap) {
		const char *line;
		size_t len;
		struct sr_diag x;
		enum sr_err err;
		uint64_t pfn, ino;
		int has_pfn, rc;

		/* The tracepoint capture: the events its lines have completed. */
		if (c->tp && sr_tpjoin_next(c->tp, &evs[*n], &pfn, &has_pfn, &ino, c->tp_end)) {
			page_node(c, &evs[*n], pfn, has_pfn);
			if (memcg_of(c, &evs[*n], ino))
				return cap_fail(c, d, SR_ERR_NOMEM, "out of memory");
			(*n)++;
			continue;
		}
		if (c->tp_end)
			break;

		sr_diag_clear(&x);
		err = sr_src_getline(c->src, &line, &len, &x);
		if (err) {
			x.line = c->line + 1;
			c->sticky = err;
			c->sticky_diag = x;
			if (d)
				*d = x;
			return err;
		}
		if (!line) {
			if (!c->header_done)
				return cap_fail(c, d, SR_ERR_FORMAT,
						"no capture header (" SR_CAPTURE_HEADER ")");
			if (c->st.tracepoint) {
				if ((err = tp_end(c, d)))
					return err;
				continue;
			}
			break;
		}
		c->line++;
		if (!sr_src_line_had_nl(c->src)) {
			/* The file ends inside a line: whatever it holds may
			 * be cut mid-number (",512,61000" as ",512,61"). */
			if (c->strict)
				return cap_fail(c, d, SR_ERR_FORMAT,
						"the last line has no newline: cut short (bpftrace killed, or the disk full?)");
			c->st.cut_lines++;
			if (c->st.tracepoint) {
				if ((err = tp_end(c, d)))
					return err;
				continue;
			}
			break;
		}
		if (len && line[len - 1] == '\r')
			len--;
		if (lost_line(line, len, &c->st.lost_events))
			continue;
		/* bpftrace's own lines: "Attaching N probes...", and its maps
		 * printed at exit ("@name[key]: value") if END did not clear
		 * them all (a map written while END runs). */
		if (!len || line[0] == '#' || line[0] == '@' ||
		    (len >= 10 && !memcmp(line, "Attaching ", 10))) {
			/* The tracepoint program's version comment: from 3 on,
			 * its F, X and W lines are task ops; from 4 on, its P
			 * lines say who reclaimed. */
			if (!c->header_done && len > 22 &&
			    !memcmp(line, "# swapreplay-capture/", 21) && line[21] >= '3' &&
			    line[21] <= '9') {
				c->st.task_lines = 1;
				c->st.reclaim_lines = line[21] >= '4';
				c->st.memcg_lines = line[21] >= '5';
			}
			c->st.skipped_lines++;
			continue;
		}
		if (!c->header_done && len > 8 && !memcmp(line, "swapext,", 8)) {
			rc = swapext(c, line, len, msg, sizeof(msg));
			if (rc)
				return cap_fail(c, d, rc == -2 ? SR_ERR_NOMEM : SR_ERR_FORMAT, msg);
			continue;
		}
		if (!c->header_done && len == strlen(SR_CAPTURE_TP_HEADER) &&
		    !memcmp(line, SR_CAPTURE_TP_HEADER, len)) {
			if (!c->tp || !sr_tpjoin_has_extents(c->tp))
				return cap_fail(c, d, SR_ERR_FORMAT,
						"a tracepoint capture without swap extents before its header (" SR_CAPTURE_TP_EXTENT " lines, written by swapreplay-record)");
			c->header_done = 1;
			c->st.tracepoint = 1;
			c->st.vaddr_column = 1; /* its reads' "addr" */
			continue;
		}
		if (c->st.tracepoint) {
			if ((err = tp_line(c, line, len, d)))
				return err;
			continue;
		}
		if (!c->header_done) {
			if ((len != strlen(SR_CAPTURE_HEADER) || memcmp(line, SR_CAPTURE_HEADER, len)) &&
			    (len != strlen(SR_CAPTURE_HEADER_NOVADDR) ||
			     memcmp(line, SR_CAPTURE_HEADER_NOVADDR, len)) &&
			    (len != strlen(SR_CAPTURE_HEADER_TASKS) ||
			     memcmp(line, SR_CAPTURE_HEADER_TASKS, len)) &&
			    (len != strlen(SR_CAPTURE_HEADER_CTX) ||
			     memcmp(line, SR_CAPTURE_HEADER_CTX, len)) &&
			    (len != strlen(SR_CAPTURE_HEADER_MEMCG) ||
			     memcmp(line, SR_CAPTURE_HEADER_MEMCG, len)))
				return cap_fail(c, d, SR_ERR_FORMAT,
						"not the capture header (expected " SR_CAPTURE_HEADER_MEMCG
						"): not the output of swapreplay-capture.bt");
			c->header_done = 1;
			c->st.vaddr_column = len >= strlen(SR_CAPTURE_HEADER);
			c->st.child_column = len >= strlen(SR_CAPTURE_HEADER_TASKS);
			c->st.ctx_columns = len >= strlen(SR_CAPTURE_HEADER_CTX);
			c->st.memcg_columns = len == strlen(SR_CAPTURE_HEADER_MEMCG);
			continue;
		}
		if (parse_raw(line, len, &evs[*n], &pfn, &has_pfn, &ino,
			      c->st.memcg_columns ? RAW_COLS : RAW_COLS - 2, msg, sizeof(msg))) {
			if ((err = bad_line(c, d, c->line, msg)))
				return err;
			continue;
		}
		page_node(c, &evs[*n], pfn, has_pfn);
		if (memcg_of(c, &evs[*n], ino))
			return cap_fail(c, d, SR_ERR_NOMEM, "out of memory");
		(*n)++;
	}
	return SR_OK;
}

const struct sr_capture_stats *sr_capture_stats(const struct sr_capture *c)
{
	return &c->st;
}

void sr_capture_close(struct sr_capture *c)
{
	if (!c)
		return;
	sr_src_close(c->src);
	sr_tpjoin_free(c->tp);
	free(c->held);
	sr_memcgs_free(c->memcgs);
	sr_u64map_free(&c->cg_dirs);
	sr_u64map_free(&c->cg_seen);
	sr_strs_free(&c->cg_paths);
	free(c);
}
