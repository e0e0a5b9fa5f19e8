/* SPDX-License-Identifier: MIT */
/*
 * What a result row is the result of.  Every row carries its identity:
 * the trace (path and content hash), the machine (name and the hash of
 * its whole description), the policy (the name its ops table gives, with
 * its parameters, and a shared object's content hash), and every option
 * of the run that changes a figure (the kernel generation among them),
 * with the tool's version.  --resume
 * and merge compare rows by it, never by unit number alone, so that rows
 * of another trace, machine, policy or option are never taken for those
 * asked for (docs/SWEEP.md, "What a row is the result of").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "common/hash.h"
#include "sweep/sweep_impl.h"
#include "swapreplay/version.h"

/*
 * The fields, in the order rows write them (docs/SWEEP.md lists them).
 * Checklist for an option that changes a figure (a kernel generation,
 * readahead, plugging, a task count): one entry in enum sr_id
 * (sweep_impl.h), one line here, one in sr_ident_run() below; rows,
 * plans, --resume and merge then carry and compare it with no other
 * change (the CSV header is made from this table).  An entry added to
 * rows already written is marked with its generation (sweep_impl.h,
 * SR_ID_GENERATIONS one more when it is a new one): rows and plans
 * without it are still read (as null).  The vmstat settings
 * of sr_read_opts are not entries only because a sweep cannot set them:
 * the day it can, they are.
 */
const struct sr_id_field sr_id_fields[SR_ID_COUNT] = {
	[SR_ID_TOOL] = { "tool_version", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_TRACE] = { "trace", SR_IDK_STR, SR_IDS_UNIT, 0, NULL },
	[SR_ID_TRACE_HASH] = { "trace_hash", SR_IDK_STR, SR_IDS_UNIT, 0, NULL },
	[SR_ID_MACHINE] = { "machine", SR_IDK_STR, SR_IDS_UNIT, 0, NULL },
	[SR_ID_MACHINE_HASH] = { "machine_hash", SR_IDK_STR, SR_IDS_UNIT, 0, NULL },
	[SR_ID_MSRC] = { "machine_source", SR_IDK_STR, SR_IDS_INFO, 1, NULL },
	[SR_ID_MPATH] = { "machine_path", SR_IDK_STR, SR_IDS_INFO, 1, NULL },
	[SR_ID_POLICY] = { "policy", SR_IDK_STR, SR_IDS_POLICY, 0, NULL },
	[SR_ID_POLICY_HASH] = { "policy_hash", SR_IDK_STR, SR_IDS_POLICY, 0, NULL },
	[SR_ID_BASELINE] = { "baseline", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_BASELINE_HASH] = { "baseline_hash", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_SLOTS] = { "slots_cache", SR_IDK_BOOL, SR_IDS_RUN, 0, NULL },
	[SR_ID_KERNEL] = { "kernel", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_RA] = { "readahead", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_REORDER] = { "reorder_window", SR_IDK_INT, SR_IDS_RUN, 0, NULL },
	[SR_ID_UNC] = { "uncertainty", SR_IDK_INT, SR_IDS_RUN, 0, NULL },
	[SR_ID_UNC_RANGE] = { "uncertainty_range", SR_IDK_INT, SR_IDS_RUN, 1, NULL },
	[SR_ID_INFMT] = { "input_format", SR_IDK_STR, SR_IDS_RUN, 0, NULL },
	[SR_ID_MAXERR] = { "max_errors", SR_IDK_INT, SR_IDS_RUN, 0, NULL },
	[SR_ID_PLUG] = { "plug", SR_IDK_BOOL, SR_IDS_RUN, 0, NULL },
	[SR_ID_NODE_MAP] = { "node_map", SR_IDK_STR, SR_IDS_RUN, 2, NULL },
	/* --noise: "auto" (each trace's replicas from its size, which its
	 * hash fixes) or the replicas; rows written before it were replayed
	 * without any. */
	[SR_ID_NOISE] = { "noise", SR_IDK_STR, SR_IDS_RUN, 3, "0" },
	[SR_ID_NOISE_JITTER] = { "noise_jitter_ns", SR_IDK_INT, SR_IDS_RUN, 3, NULL },
	/* The kernel each unit was replayed on and why: "6.18 (recorded
	 * with the trace: ...)"; rows written before it had the run's. */
	[SR_ID_KERNEL_USED] = { "kernel_modelled", SR_IDK_STR, SR_IDS_INFO, 4, NULL },
};

static int set(char **v, const char *x)
{
	free(*v);
	*v = x ? strdup(x) : NULL;
	return x && !*v ? -1 : 0;
}

int sr_ident_run(struct sr_sweep *s)
{
	char num[7][24], ra[128], nm[SR_NODE_MAP_MAX * 12];
	int rc = 0;

	snprintf(num[0], sizeof(num[0]), "%u", (unsigned)SR_SWEEP_REORDER);
	snprintf(num[1], sizeof(num[1]), "%u", s->unc);
	snprintf(num[4], sizeof(num[4]), "%u", s->unc_range);
	snprintf(num[2], sizeof(num[2]), "%" PRIu64, s->ro.max_errors);
	rc |= set(&s->run_v[SR_ID_TOOL], SR_VERSION_STRING);
	rc |= set(&s->run_v[SR_ID_BASELINE], s->pname[s->bl]);
	rc |= set(&s->run_v[SR_ID_BASELINE_HASH], s->phash[s->bl]);
	rc |= set(&s->run_v[SR_ID_SLOTS], s->slots_cache ? "on" : "off");
	if (s->kernel_recorded)
		snprintf(num[3], sizeof(num[3]), "%s", SR_KERNEL_RECORDED);
	else
		snprintf(num[3], sizeof(num[3]), "%u.%u", s->kernel.major, s->kernel.minor);
	rc |= set(&s->run_v[SR_ID_KERNEL], num[3]);
	rc |= set(&s->run_v[SR_ID_RA], sr_readahead_format(&s->ra, ra, sizeof(ra)));
	rc |= set(&s->run_v[SR_ID_REORDER], num[0]);
	rc |= set(&s->run_v[SR_ID_UNC], num[1]);
	/* Without variants the range changes nothing: null, as in the rows
	 * written before it. */
	rc |= set(&s->run_v[SR_ID_UNC_RANGE], s->unc ? num[4] : NULL);
	rc |= set(&s->run_v[SR_ID_INFMT], sr_format_name(s->ro.format));
	rc |= set(&s->run_v[SR_ID_MAXERR], num[2]);
	rc |= set(&s->run_v[SR_ID_PLUG], s->plug ? "on" : "off");
	/* Without a map, null: as in the rows written before it. */
	rc |= set(&s->run_v[SR_ID_NODE_MAP], sr_node_map_any(&s->node_map) ?
		  sr_node_map_format(&s->node_map, nm, sizeof(nm)) : NULL);
	if (s->noise == SR_SWEEP_NOISE_AUTO)
		snprintf(num[5], sizeof(num[5]), "auto");
	else
		snprintf(num[5], sizeof(num[5]), "%d", s->noise);
	snprintf(num[6], sizeof(num[6]), "%u", s->noise_jitter);
	rc |= set(&s->run_v[SR_ID_NOISE], num[5]);
	/* Without replicas the jitter changes nothing: null. */
	rc |= set(&s->run_v[SR_ID_NOISE_JITTER], s->noise ? num[6] : NULL);
	return rc;
}

int sr_id_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int sr_ident_diff(const struct sr_ident *a, const struct sr_ident *b, enum sr_id_scope sc,
		  int wild_a, char *buf, size_t size)
{
	int i, n = 0;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < SR_ID_COUNT; i++) {
		const char *x = a->v[i], *y = b->v[i];

		if (sr_id_fields[i].scope != sc || sr_id_eq(x, y) || (wild_a && !x))
			continue;
		n++;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s %s, not %s", len ? "; " : "",
						sr_id_fields[i].name, x ? x : "null", y ? y : "null");
	}
	return n;
}

char *sr_id_to_json(const char *v, enum sr_id_kind k)
{
	if (!v)
		return strdup("null");
	if (k == SR_IDK_BOOL)
		return strdup(strcmp(v, "on") ? "false" : "true");
	if (k == SR_IDK_INT)
		return strdup(v);
	return sr_json_str(v);
}

int sr_id_from_json(const json_t *v, enum sr_id_kind k, char num[24], const char **out)
{
	*out = NULL;
	if (json_is_null(v))
		return 0;
	if (k == SR_IDK_STR && json_is_string(v)) {
		*out = json_string_value(v);
	} else if (k == SR_IDK_INT && json_is_integer(v) && json_integer_value(v) >= 0) {
		snprintf(num, 24, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		*out = num;
	} else if (k == SR_IDK_BOOL && json_is_boolean(v)) {
		*out = json_is_true(v) ? "on" : "off";
	} else {
		return -1;
	}
	return 0;
}

/* ---- hashes ------------------------------------------------------------ */

/* FNV-1a (common/hash.h), as the trace reader's content hash: what a row
 * says of its trace must be what a resume finds in the file. */

void sr_hash_fmt(sr_hash_t out, uint64_t h)
{
	snprintf(out, SR_HASH_LEN + 1, "fnv1a64:%016" PRIx64, h);
}

int sr_hash_file(const char *path, sr_hash_t out)
{
	unsigned char buf[1 << 16];
	uint64_t h = SR_FNV_BASIS;
	struct stat st;
	/* Not blocking on a FIFO with no writer: only a file is hashed (a
	 * pipe's bytes are gone once read). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		h = sr_fnv1a(h, buf, (size_t)n);
	}
	close(fd);
	sr_hash_fmt(out, h);
	return 0;
}

int sr_hash_machine(const struct sr_machine *m, sr_hash_t out)
{
	json_error_t je;
	json_t *j = m->json ? json_loads(m->json, 0, &je) : NULL;
	char *canon = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	if (!canon)
		return -1;
	sr_hash_fmt(out, sr_fnv1a(SR_FNV_BASIS, (const unsigned char *)canon, strlen(canon)));
	free(canon);
	return 0;
}

int sr_policy_ident(const char *spec, const char *ops_name, char **name, sr_hash_t hash)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	size_t olen = strlen(ops_name), plen = colon ? strlen(colon) : 0;

	hash[0] = '\0';
	*name = malloc(olen + plen + 1);
	if (!*name) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(*name, ops_name, olen);
	memcpy(*name + olen, colon ? colon : "", plen + 1);
	if (memchr(spec, '/', nlen)) {
		char *path = strndup(spec, nlen);
		int rc = path ? sr_hash_file(path, hash) : -1;

		free(path);
		if (rc) {
			free(*name);
			*name = NULL;
			return -1;
		}
	}
	return 0;
}
