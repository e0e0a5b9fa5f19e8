/* SPDX-License-Identifier: MIT */
/*
 * A trace's NUMA nodes replayed as a machine's (--node-map): what lets a
 * trace recorded on two sockets be replayed on a one-socket machine, or
 * with its nodes swapped.  The recorded swap device needs no such map: it
 * only pairs a swap-in with its swap-out (docs/MODEL.md, "Matching
 * swap-ins"), and the policies choose among the machine's devices.
 */
#include <stdio.h>
#include <string.h>

#include "common/diag.h"
#include "common/parse.h"
#include "swapreplay/event.h"
#include "swapreplay/machine.h"

/* One number of a pair: digits only, below max. */
static int node_num(const char *s, size_t len, uint64_t max, uint16_t *out)
{
	uint64_t x;

	if (!len || sr_parse_u64(s, len, max - 1, &x))
		return -1;
	*out = (uint16_t)x;
	return 0;
}

enum sr_err sr_node_map_parse(const char *s, struct sr_node_map *nm, struct sr_diag *d)
{
	const char *p = s;

	sr_diag_clear(d);
	memset(nm, 0, sizeof(*nm));
	if (!strcmp(s, "fold")) {
		nm->fold = 1;
		return SR_OK;
	}
	if (!*s)
		return sr_diag_set(d, SR_ERR_INVAL, "--node-map takes R:M pairs or fold, not ''");
	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		uint16_t from, to;
		int i, at;

		if (!colon || node_num(p, (size_t)(colon - p), SR_MAX_NODES, &from) ||
		    node_num(colon + 1, len - (size_t)(colon - p) - 1, SR_MACHINE_MAX_NODES, &to))
			return sr_diag_set(d, SR_ERR_INVAL,
					   "--node-map: '%.*s' is not RECORDED:MACHINE (a node of the "
					   "trace, 0 to %d, and one of the machine, 0 to %d)",
					   (int)len, p, SR_MAX_NODES - 1, SR_MACHINE_MAX_NODES - 1);
		for (at = 0; at < nm->n && nm->from[at] < from; at++)
			;
		if (at < nm->n && nm->from[at] == from)
			return sr_diag_set(d, SR_ERR_INVAL, "--node-map: recorded node %u mapped twice",
					   from);
		if (nm->n == SR_NODE_MAP_MAX)
			return sr_diag_set(d, SR_ERR_INVAL, "--node-map: at most %d pairs",
					   SR_NODE_MAP_MAX);
		for (i = nm->n; i > at; i--) {
			nm->from[i] = nm->from[i - 1];
			nm->to[i] = nm->to[i - 1];
		}
		nm->from[at] = from;
		nm->to[at] = to;
		nm->n++;
		p += len;
		if (c && !*++p)
			return sr_diag_set(d, SR_ERR_INVAL, "--node-map: '%s' ends with a comma", s);
	}
	return SR_OK;
}

const char *sr_node_map_format(const struct sr_node_map *nm, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	if (n)
		buf[0] = '\0';
	if (nm && nm->fold) {
		snprintf(buf, n, "fold");
		return buf;
	}
	for (i = 0; nm && i < nm->n && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%u:%u", i ? "," : "", nm->from[i],
					nm->to[i]);
	return buf;
}

unsigned sr_node_map_node(const struct sr_node_map *nm, const struct sr_machine *m,
			  unsigned node)
{
	int i;

	if (!nm)
		return node;
	if (nm->fold)
		return node % (unsigned)m->nr_nodes;
	for (i = 0; i < nm->n; i++)
		if (nm->from[i] == node)
			return nm->to[i];
	return node;
}

enum sr_err sr_node_map_check(const struct sr_node_map *nm, const struct sr_machine *m,
			      struct sr_diag *d)
{
	int i;

	sr_diag_clear(d);
	for (i = 0; nm && i < nm->n; i++)
		if (nm->to[i] >= m->nr_nodes)
			return sr_diag_set(d, SR_ERR_MACHINE,
					   "--node-map %u:%u: machine %s has %d node%s (0 to %d)",
					   nm->from[i], nm->to[i], m->name, m->nr_nodes,
					   m->nr_nodes > 1 ? "s" : "", m->nr_nodes - 1);
	return SR_OK;
}
