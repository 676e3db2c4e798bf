/*
 * cachemodel_test.c - tinymm's PG_dcache_clean policy run over the host cache model
 * (tests/host/cachemodel.h, docs/cacheflush.md "The host cache model"): the fault path
 * (mm/memory.c, handle_mm_fault over the fake architecture) installs executable ptes of a
 * ramfs file's folio, set_pte_at()'s hook calls ARM's __sync_icache_dcache() or RISC-V's
 * flush_icache_pte() (arch/arm/cacheflush.c, arch/riscv/cacheflush.c, built for the host),
 * and the scenario fetches the code through the model's I-cache as the core would.
 *
 * Usage: cachemodel_test arm|riscv 32|64 SCENARIO [--no-maintenance]
 *   exec_after_write   code written through the page cache, then mapped executable, is
 *                      fetched as written
 *   clean_once         one write, eight executable mappings: ARM cleans the folio's D-cache
 *                      once (and invalidates its I-cache at each), RISC-V fences once
 *   rewrite_remap      the file rewritten, munmap + mmap, a new fault: the new code is
 *                      fetched, not the I-cache's stale lines
 *   selfmod_syscall    code rewritten in place through the task's own mapping (a store to
 *                      the data side only), then the architecture's call (ARM's private
 *                      cacheflush, RISC-V's riscv_flush_icache): the new code is fetched
 * Exit 0 when every check held.  --no-maintenance makes the model's operations do nothing:
 * each scenario must then fail (CTest runs those with WILL_FAIL), so the checks can fail.
 */
#include "host_sched_test.h"
#include "cachemodel.h"
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/vfs.h"

unsigned long cacheop_counts[NR_CACHEOPS];	/* kernel/cacheops.c's, on a target */
void __sync_icache_dcache(pte_t pteval);	/* arch/arm/cacheflush.c */
void flush_icache_pte(struct mm_struct *mm, pte_t pte);	/* arch/riscv/cacheflush.c */
long arm_cacheflush(struct mm_struct *mm, unsigned long start, unsigned long end,
		    unsigned long flags);
long sys_riscv_flush_icache(unsigned long start, unsigned long end, unsigned long flags);

#define CM_BASE		(256UL << 20)
#define CM_DIR		"/cm"
#define RX		(VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define CODE_BYTES	512		/* 8 to 16 lines */

static enum cm_arch arch;
static unsigned int line;
static const char *scenario;
static bool maintenance = true;

static struct mm_struct mm;
static struct file *file;
static unsigned char code[PAGE_SIZE];

static void arm_hook(struct mm_struct *m, pte_t pte)
{
	(void)m;
	__sync_icache_dcache(pte);
}

static void riscv_hook(struct mm_struct *m, pte_t pte)
{
	flush_icache_pte(m, pte);
}

/* The "program": a page of bytes that differ with @version everywhere. */
static void write_code(int version)
{
	for (unsigned long i = 0; i < sizeof(code); i++)
		code[i] = (unsigned char)(i * 7 + version * 101 + 1);
	CHECK_EQ(vfs_pwrite(file, code, sizeof(code), 0), (long)sizeof(code));
}

static struct folio *code_folio(void)
{
	struct folio *folio = filemap_get_folio(file->f_inode->i_mapping, 0);

	if (IS_ERR(folio))
		return NULL;
	folio_put(folio);
	return folio;
}

static void map_exec(unsigned long addr)
{
	struct vm_area_struct *vma;

	CHECK_EQ(mmap_region(&mm, addr, PAGE_SIZE, RX, file, 0), (long)addr);
	vma = vma_lookup(&mm, addr);
	CHECK(vma != NULL);
	if (vma)
		CHECK_EQ(handle_mm_fault(vma, addr, 0), 0);
}

/* What the core would execute from the folio: fetched through the model's I-cache. */
static void check_fetch(const char *when)
{
	unsigned char got[CODE_BYTES];
	struct folio *folio = code_folio();

	CHECK(folio != NULL);
	if (!folio)
		return;
	cm_fetch(page_address(&folio->page), got, sizeof(got));
	if (memcmp(got, code, sizeof(got))) {
		fprintf(stderr, "cachemodel: %s: %s: fetched stale instructions\n", scenario, when);
		failures++;
	}
}

static int run(void)
{
	int err;

	vfs_init();			/* the ramfs root, as kernel_init mounts it */
	err = vfs_mkdir(CM_DIR, 0755);

	fake_pfn_base = memmap_bank(0)->start_pfn;
	CHECK(err == 0 || err == -EEXIST);
	CHECK_EQ(do_mount("none", CM_DIR, "ramfs", 0), 0);
	CHECK_EQ(vfs_open(CM_DIR "/code", O_RDWR | O_CREAT, 0644, &file), 0);
	mm_init_vmas(&mm, TASK_SIZE, TASK_SIZE / 2);
	CHECK_EQ(mm_alloc_pgd(&mm), 0);
	if (!file || !mm.pgd)
		return 1;
	fake_sync_icache_dcache = arch == CM_ARM ? arm_hook : riscv_hook;
	cm_install(arch, line, ram, RAM_SIZE, maintenance);
	mutex_lock(&mm.mmap_lock);

	if (!strcmp(scenario, "exec_after_write")) {
		write_code(1);
		map_exec(CM_BASE);
		check_fetch("after the first executable mapping");
	} else if (!strcmp(scenario, "clean_once")) {
		write_code(1);
		for (int i = 0; i < 8; i++)
			map_exec(CM_BASE + (unsigned long)i * 4 * PAGE_SIZE);
		check_fetch("after eight executable mappings");
		if (arch == CM_ARM) {
			CHECK_EQ(cm_counts.dcache_flush, 1);	/* one clean of the folio */
			CHECK_EQ(cm_counts.icache_inval, 8);	/* one per executable pte */
		} else {
			CHECK_EQ(cm_counts.fence_i, 1);
		}
		CHECK_EQ(cacheop_counts[CACHEOP_DCACHE_CLEAN_SKIPPED], 7);
	} else if (!strcmp(scenario, "rewrite_remap")) {
		write_code(1);
		map_exec(CM_BASE);
		check_fetch("the first version");
		CHECK_EQ(do_munmap(&mm, CM_BASE, PAGE_SIZE), 0);
		write_code(2);
		map_exec(CM_BASE);
		check_fetch("the rewritten file, mapped afresh");
	} else if (!strcmp(scenario, "selfmod_syscall")) {
		struct folio *folio;

		write_code(1);
		map_exec(CM_BASE);
		check_fetch("before the rewrite");
		folio = code_folio();
		CHECK(folio != NULL);
		/* The task's stores through its mapping: the data side only, no kernel write path. */
		for (unsigned long i = 0; i < sizeof(code); i++)
			code[i] = (unsigned char)(i * 13 + 5);
		if (folio)
			memcpy(page_address(&folio->page), code, sizeof(code));
		mutex_unlock(&mm.mmap_lock);	/* the call takes it, as from a task */
		if (arch == CM_ARM) {
			CHECK_EQ(arm_cacheflush(&mm, CM_BASE, CM_BASE + CODE_BYTES, 0), 0);
			CHECK_EQ(cm_counts.dcache_clean, 1);
		} else {
			CHECK_EQ(sys_riscv_flush_icache(CM_BASE, CM_BASE + CODE_BYTES, 0), 0);
		}
		/* Bad input, as v6.10: a reversed range or a flag, EINVAL; no area or past user
		 * space, EFAULT. */
		if (arch == CM_ARM) {
			CHECK_EQ(arm_cacheflush(&mm, CM_BASE + 8, CM_BASE, 0), -EINVAL);
			CHECK_EQ(arm_cacheflush(&mm, CM_BASE, CM_BASE + 8, 1), -EINVAL);
			CHECK_EQ(arm_cacheflush(&mm, CM_BASE + 64 * PAGE_SIZE, CM_BASE + 65 * PAGE_SIZE, 0),
				 -EFAULT);
			CHECK_EQ(arm_cacheflush(&mm, TASK_SIZE - 8, TASK_SIZE + 8, 0), -EFAULT);
		} else {
			CHECK_EQ(sys_riscv_flush_icache(CM_BASE, CM_BASE + 8, 2), -EINVAL);
		}
		mutex_lock(&mm.mmap_lock);
		check_fetch("after the rewrite and the flush call");
	} else {
		fprintf(stderr, "cachemodel: unknown scenario '%s'\n", scenario);
		failures++;
	}

	mutex_unlock(&mm.mmap_lock);
	exit_mmap(&mm);
	cm_uninstall();
	fake_sync_icache_dcache = NULL;
	CHECK_EQ(vfs_close(file), 0);
	CHECK_EQ(vfs_unlink(CM_DIR "/code"), 0);
	CHECK_EQ(do_umount(CM_DIR), 0);
	return 0;
}

static void scenario_runs(void **state)
{
	(void)state;
	run_scenario(run);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(scenario_runs),
	};

	(void)jiffy_deadline;
	(void)start;
	if (argc < 4 || argc > 5 || (strcmp(argv[1], "arm") && strcmp(argv[1], "riscv")) ||
	    (strcmp(argv[2], "32") && strcmp(argv[2], "64")) ||
	    (argc == 5 && strcmp(argv[4], "--no-maintenance"))) {
		fprintf(stderr, "usage: cachemodel_test arm|riscv 32|64 SCENARIO [--no-maintenance]\n");
		return 2;
	}
	arch = strcmp(argv[1], "arm") ? CM_RISCV : CM_ARM;
	line = (unsigned int)atoi(argv[2]);
	scenario = argv[3];
	maintenance = argc == 4;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
