/*
 * hwpoison_cmd.c - the `hwpoison` shell command: inject memory errors, take them back, retire a
 * frame, and show what is poisoned (Linux's debugfs hwpoison/corrupt-pfn and unpoison-pfn from
 * mm/hwpoison-inject.c, the soft_offline_page sysfs file, and the per-node memory_failure
 * statistics in /sys/devices/system/node/nodeN/memory_failure; docs/hwpoison.md).
 *
 *   hwpoison inject <pfn>         memory_failure(pfn, MF_SW_SIMULATED), as corrupt-pfn
 *   hwpoison inject-hw <pfn>      memory_failure(pfn, 0): as if a memory controller reported
 *                                 it; unpoison is refused for the rest of the boot
 *   hwpoison unpoison <pfn>       unpoison_memory(pfn), as unpoison-pfn
 *   hwpoison soft-offline <pfn>   soft_offline_page(pfn, 0) (mm/soft-offline.c)
 *   hwpoison list                 each poisoned frame: "0x<pfn>: <state>: <result> (<what it
 *                                 was>, software|hardware)", or "hwpoison list: no poisoned frames"
 *   hwpoison stats                "node<N> <counter> <value>" for total, ignored, failed,
 *                                 delayed, recovered (Linux's sysfs file names, in that order)
 * A pfn is decimal or 0x-hex, as `page` takes it.  Status: 0 when the call returned 0;
 * otherwise one line naming the command and the reason, and 1 (2 for a usage error or a bad
 * number).  An already poisoned frame is status 1 (-EHWPOISON), as Linux's corrupt-pfn write
 * fails with it.  The kernel log carries memory_failure()'s own lines.
 * Locking: none of its own (the calls take mf_mutex); the list walk reads the flags racily.
 *
 * Where tinymm differs from v6.10, and why: one shell command stands for the debugfs and sysfs
 * files; `list` is tinymm's own; an unpoison refused for a slab or reserved
 * frame says why (v6.10 prints nothing for those).
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

/* What memory_failure() and friends mean by @err (the name comes from errname()); NULL: other. */
static const char *mf_strerror(int err)
{
	switch (err) {
	case -EHWPOISON: return "already hardware poisoned";
	case -EBUSY: return "not recovered";
	case -EOPNOTSUPP: return "refused: disabled after a hardware memory failure";
	case -ENXIO: return "no such frame";
	case -EIO: return "cannot handle this kind of frame";
	case -ENOMEM: return "out of memory";
	default: return NULL;
	}
}

/* Why unpoison_memory() said -EBUSY (also for slab and reserved frames: see the header). */
static const char *unpoison_refusal(struct page *page)
{
	struct folio *folio = page_folio(page);

	if (!PageHWPoison(page))
		return "not poisoned";
	if (page_ref_count(&folio->page) > 1)
		return "someone else holds the frame";
	if (folio_test_slab(folio))
		return "a slab frame stays poisoned";
	if (PageReserved(&folio->page))
		return "a reserved frame stays poisoned";
	if (folio->mapping)
		return "the frame is still in a page cache";
	return "the frame could not be taken back";
}

/* argv[2] as a valid pfn: 0, or the error line printed and the status to return. */
static int hwpoison_pfn(char **argv, unsigned long *pfn)
{
	unsigned long long v;

	if (kstrtoull(argv[2], &v)) {
		kprintf("hwpoison %s: invalid number '%s'\n", argv[1], argv[2]);
		return 2;
	}
	if ((unsigned long)v != v || !pfn_valid((unsigned long)v)) {
		kprintf("hwpoison %s: pfn %#llx is not valid (hole or beyond memory)\n", argv[1], v);
		return 1;
	}
	*pfn = (unsigned long)v;
	return 0;
}

static int hwpoison_call(int argc, char **argv)
{
	unsigned long pfn;
	int ret;

	if (argc != 3) {
		kprintf("hwpoison %s: usage: hwpoison %s <pfn>\n", argv[1], argv[1]);
		return 2;
	}
	ret = hwpoison_pfn(argv, &pfn);
	if (ret)
		return ret;
	if (!strcmp(argv[1], "inject"))
		ret = memory_failure(pfn, MF_SW_SIMULATED);
	else if (!strcmp(argv[1], "inject-hw"))
		ret = memory_failure(pfn, 0);
	else if (!strcmp(argv[1], "unpoison"))
		ret = unpoison_memory(pfn);
	else
		ret = soft_offline_page(pfn, 0);
	if (!ret)
		return 0;
	if (!strcmp(argv[1], "unpoison") && ret == -EBUSY)
		kprintf("hwpoison unpoison: pfn %#lx: refused: %s (%s)\n", pfn,
			unpoison_refusal(pfn_to_page(pfn)), errname(ret));
	else if (mf_strerror(ret))
		kprintf("hwpoison %s: pfn %#lx: %s (%s)\n", argv[1], pfn, mf_strerror(ret), errname(ret));
	else
		kprintf("hwpoison %s: pfn %#lx: failed\n", argv[1], pfn);
	return 1;
}

static int hwpoison_list(int argc, char **argv)
{
	unsigned long n = 0;

	if (argc != 2)
		return shell_usage_error("hwpoison list", "usage: hwpoison list");
	for (int b = 0; b < memmap_nr_banks(); b++) {
		const struct memmap_bank *bank = memmap_bank(b);

		for (unsigned long pfn = bank->start_pfn; pfn < bank->end_pfn; pfn++) {
			struct mf_record rec;

			if (!PageHWPoison(&bank->map[pfn - bank->start_pfn]))
				continue;
			n++;
			if (!memory_failure_record(pfn, &rec))
				kprintf("%#lx: poisoned (not recorded)\n", pfn);
			else if (rec.type >= NR_MF_MSG)
				kprintf("%#lx: soft offline (%s, %s)\n", pfn,
					mf_kind_name((enum mf_kind)rec.kind), rec.hw ? "hardware" : "software");
			else
				kprintf("%#lx: %s: %s (%s, %s)\n", pfn,
					mf_action_page_type_name((enum mf_action_page_type)rec.type),
					mf_action_name((enum mf_result)rec.result),
					mf_kind_name((enum mf_kind)rec.kind), rec.hw ? "hardware" : "software");
		}
	}
	if (!n)
		kprintf("hwpoison list: no poisoned frames\n");
	return 0;
}

static int hwpoison_stats(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error("hwpoison stats", "usage: hwpoison stats");
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct memory_failure_stats st;

		memory_failure_node_stats(nid, &st);
		if (nid && !st.total)
			continue;	/* tinymm has one node; another shows once it has counts */
		kprintf("node%d total %lu\n", nid, st.total);
		kprintf("node%d ignored %lu\n", nid, st.ignored);
		kprintf("node%d failed %lu\n", nid, st.failed);
		kprintf("node%d delayed %lu\n", nid, st.delayed);
		kprintf("node%d recovered %lu\n", nid, st.recovered);
	}
	return 0;
}

static int cmd_hwpoison(int argc, char **argv)
{
	static const char *const calls[] = { "inject", "inject-hw", "unpoison", "soft-offline" };

	for (unsigned int i = 0; argc >= 2 && i < ARRAY_SIZE(calls); i++)
		if (!strcmp(argv[1], calls[i]))
			return hwpoison_call(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return hwpoison_list(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return hwpoison_stats(argc, argv);
	return shell_usage_error("hwpoison", "usage: hwpoison inject|inject-hw|unpoison|soft-offline <pfn> | list | stats");
}
SHELL_COMMAND(hwpoison, "inject|inject-hw|unpoison|soft-offline <pfn> | list | stats",
	      "memory errors: inject (software or as hardware), unpoison, soft offline, list, per-node statistics",
	      cmd_hwpoison);
