/* SPDX-License-Identifier: MIT */
/*
 * The shipped machine presets.  Each is a machine description as a user
 * would write it (docs/MACHINE.md); every performance parameter it leaves
 * out takes the class default of machine/defaults.h, where each figure's
 * source is cited.  The topology of each preset follows the machine of the
 * measurement it stands for (docs/MACHINE.md, "Presets": the page-nid
 * thread of April 2022 on linux-mm, Aaron Lu's NVMe and PMem rows).
 *
 * Checklist: a new preset goes in presets[] and in docs/MACHINE.md.
 */
#include <string.h>

#include "swapreplay/machine.h"

/* Two sockets of 40 cores: Xeon Platinum 8380 (Ice Lake-SP), the part of the
 * measured Icelake machines [U: the thread names the generation, not the SKU]. */
#define TWO_SOCKETS \
	"\"nodes\": [{\"cpus\": 40}, {\"cpus\": 40}],\n" \
	"\"distance\": [[10, 20], [20, 10]],\n"

static const char nvme0[] =
	"{\n"
	"\"schema\": \"swapreplay-machine/1\",\n"
	"\"name\": \"2s-nvme0\",\n"
	"\"description\": \"two sockets, one NAND NVMe SSD on node 0 (the NVMe row of the measurement)\",\n"
	TWO_SOCKETS
	"\"devices\": [\n"
	"  {\"name\": \"nvme0\", \"class\": \"nvme\", \"node\": 0}\n"
	"]\n"
	"}\n";

static const char nvme2[] =
	"{\n"
	"\"schema\": \"swapreplay-machine/1\",\n"
	"\"name\": \"2s-nvme2\",\n"
	"\"description\": \"two sockets, one NAND NVMe SSD on each node, automatic priorities\",\n"
	TWO_SOCKETS
	"\"devices\": [\n"
	"  {\"name\": \"nvme0\", \"class\": \"nvme\", \"node\": 0},\n"
	"  {\"name\": \"nvme1\", \"class\": \"nvme\", \"node\": 1}\n"
	"]\n"
	"}\n";

static const char pmem2[] =
	"{\n"
	"\"schema\": \"swapreplay-machine/1\",\n"
	"\"name\": \"2s-pmem2\",\n"
	"\"description\": \"two sockets, Optane PMem used as swap: pmem0 on node 0, pmem1 on node 1 (the PMem row of the measurement)\",\n"
	TWO_SOCKETS
	"\"devices\": [\n"
	"  {\"name\": \"pmem0\", \"class\": \"pmem\", \"node\": 0},\n"
	"  {\"name\": \"pmem1\", \"class\": \"pmem\", \"node\": 1}\n"
	"]\n"
	"}\n";

static const char mixed[] =
	"{\n"
	"\"schema\": \"swapreplay-machine/1\",\n"
	"\"name\": \"2s-pmem-nvme\",\n"
	"\"description\": \"two sockets, a PMem and a NAND NVMe SSD on each node, swapped on in the order pmem0, pmem1, nvme0, nvme1 (automatic priorities: each node's PMem and NVMe share -1 there and take turns); the case hybrid is for\",\n"
	TWO_SOCKETS
	"\"devices\": [\n"
	"  {\"name\": \"pmem0\", \"class\": \"pmem\", \"node\": 0},\n"
	"  {\"name\": \"pmem1\", \"class\": \"pmem\", \"node\": 1},\n"
	"  {\"name\": \"nvme0\", \"class\": \"nvme\", \"node\": 0},\n"
	"  {\"name\": \"nvme1\", \"class\": \"nvme\", \"node\": 1}\n"
	"]\n"
	"}\n";

static const char zram1[] =
	"{\n"
	"\"schema\": \"swapreplay-machine/1\",\n"
	"\"name\": \"1s-zram\",\n"
	"\"description\": \"one socket, one zram device (lz4)\",\n"
	"\"nodes\": [{\"cpus\": 40}],\n"
	"\"devices\": [\n"
	"  {\"name\": \"zram0\", \"class\": \"zram\", \"node\": 0}\n"
	"]\n"
	"}\n";

static const struct {
	const char *name;
	const char *json;
} presets[] = {
	{ "2s-nvme0", nvme0 },
	{ "2s-nvme2", nvme2 },
	{ "2s-pmem2", pmem2 },
	{ "2s-pmem-nvme", mixed },
	{ "1s-zram", zram1 },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const char *const *sr_machine_preset_names(void)
{
	static const char *names[NPRESETS + 1];
	size_t i;

	for (i = 0; i < NPRESETS; i++)
		names[i] = presets[i].name;
	names[NPRESETS] = NULL;
	return names;
}

const char *sr_machine_preset_json(const char *name)
{
	size_t i;

	for (i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return presets[i].json;
	return NULL;
}
