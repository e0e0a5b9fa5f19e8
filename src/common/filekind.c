/* SPDX-License-Identifier: MIT */
/* Which of swapreplay's own JSON files an object is (filekind.h). */
#include <string.h>

#include "common/filekind.h"

enum sr_file_kind sr_json_file_kind(const json_t *o)
{
	static const struct { const char *schema; enum sr_file_kind kind; } kinds[] = {
		{ "swapreplay-sweep/", SR_KIND_SWEEP },
		{ "swapreplay-plan/", SR_KIND_PLAN },
		{ "swapreplay-report/", SR_KIND_REPORT },
		{ "swapreplay-compare/", SR_KIND_COMPARE },
		{ "swapreplay-machine/", SR_KIND_MACHINE },
	};
	const json_t *sch = json_object_get(o, "schema");
	size_t i;

	if (json_is_string(sch)) {
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (!strncmp(json_string_value(sch), kinds[i].schema, strlen(kinds[i].schema)))
				return kinds[i].kind;
		return SR_KIND_NONE;
	}
	/* Those written before there was a schema. */
	if (json_object_get(o, "unit") && json_object_get(o, "policies"))
		return SR_KIND_PLAN;
	if (json_object_get(o, "unit") && json_object_get(o, "policy"))
		return SR_KIND_SWEEP;
	if (json_object_get(o, "nodes") && json_object_get(o, "devices"))
		return SR_KIND_MACHINE;
	return SR_KIND_NONE;
}
