/*
 * cachemodel_test.c - tinymm's PG_dcache_clean policy run over the host cache model
 * (tests/host/cachemodel.h, docs/cacheflush.md "The host cache model"): the fault path
 * (mm/memory.c, handle_mm_fault over the fake architecture) installs executable ptes of a
 * ramfs file's folio, set_pte_at()'s hook calls ARM's __sync_icache_dcache() or RISC-V's
 * flush_icache_pte() (arch/arm/cacheflush.c, arch/riscv/cacheflush.c, built for the host),
 * and the scenario fetches the code through the model's I-cache as the core would.
 *
 * Usage: cachemodel_test arm|riscv|riscv-zicbom|riscv-thead 32|64 SCENARIO [--no-maintenance]
 * (riscv: a hart without cache operations, as QEMU's; riscv-zicbom: Zicbom with blocks of the
 * line size; riscv-thead: T-Head's XTheadCmo, 64-byte blocks, picked by the machine ids.)
 *   exec_after_write   code written through the page cache, then mapped executable, is
 *                      fetched as written
 *   clean_once         one write, eight executable mappings: ARM cleans the folio's D-cache
 *                      once (and invalidates its I-cache at each), RISC-V fences once
 *   rewrite_remap      the file rewritten, munmap + mmap, a new fault: the new code is
 *                      fetched, not the I-cache's stale lines
 *   selfmod_syscall    code rewritten in place through the task's own mapping (a store to
 *                      the data side only), then the architecture's call (ARM's private
 *                      cacheflush, RISC-V's riscv_flush_icache): the new code is fetched
 *   dcache_ops         the D-cache primitives themselves, as a DMA buffer uses them (arm,
 *                      riscv-zicbom, riscv-thead: arch/riscv/cmo.c's loops over the model): a
 *                      clean makes the CPU's bytes what a device reads, rounded out to whole
 *                      lines or blocks and no further; a device's write is what the CPU reads
 *                      after an invalidate; an empty range does nothing (RISC-V's loops; ARM's
 *                      by-MVA loops are inline assembly, stood in for by the model's operations)
 *   cmo_select         arch/riscv/cmo.c's choice (no model): v6.10's rules and lines
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
#include "asm/cmo.h"

extern unsigned long fake_thead_syncs;	/* cachemodel.c: th.sync.s issued */

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
static enum riscv_cmo cmo;		/* riscv-zicbom, riscv-thead */
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

/* The architecture's primitives: RISC-V's asm/cacheflush.h is riscv_dcache_op() (arch/riscv/
 * cmo.c, built here); ARM's by-MVA loops are inline assembly, the host's primitives the model. */
static void clean(unsigned long s, unsigned long e)
{
	if (cmo != RISCV_CMO_NONE)
		riscv_dcache_op(CMO_CLEAN, s, e);
	else
		dcache_clean_poc(s, e);
}

static void inval(unsigned long s, unsigned long e)
{
	if (cmo != RISCV_CMO_NONE)
		riscv_dcache_op(CMO_INVAL, s, e);
	else
		dcache_inval_poc(s, e);
}

/* The D-cache primitives over a page, as a DMA buffer's owner calls them. */
static void dcache_ops(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long unit = cmo == RISCV_CMO_THEAD ? 64 : line;	/* what an operation covers */
	unsigned char *buf, want[256], got[256];

	CHECK(page != NULL);
	if (!page)
		return;
	buf = page_address(page);
	memset(buf, 0, 256);			/* both sides zero to start with */
	cm_device_write(buf, buf, 256);
	/* A clean: what the device reads is the CPU's bytes over [5, 200) rounded out. */
	for (int i = 0; i < 256; i++)
		buf[i] = (unsigned char)(i % 255 + 1);	/* never 0 */
	clean((unsigned long)buf + 5, (unsigned long)buf + 200);
	cm_device_read(buf, got, sizeof(got));
	unsigned long end = (200 + unit - 1) / unit * unit;
	for (unsigned long i = 0; i < 256; i++)
		if ((got[i] == (unsigned char)(i % 255 + 1)) != (i < end)) {
			fprintf(stderr, "cachemodel: dcache_ops: after the clean, byte %lu is %s memory\n",
				i, i < end ? "not in" : "wrongly in");
			failures++;
			break;
		}
	/* The device writes; after an invalidate the CPU reads what it wrote. */
	for (int i = 0; i < 256; i++)
		want[i] = (unsigned char)(0xa0 ^ i);
	cm_device_write(buf, want, sizeof(want));
	inval((unsigned long)buf, (unsigned long)buf + 256);
	if (memcmp(buf, want, sizeof(want))) {
		fprintf(stderr, "cachemodel: dcache_ops: the CPU reads stale data after the invalidate\n");
		failures++;
	}
	/* An empty range does nothing (arch/riscv/cmo.c's loop; ARM's by-MVA loops are the
	 * model's own operations here: asm/cacheflush.h's inline assembly cannot run on the host). */
	if (cmo != RISCV_CMO_NONE) {
		struct cm_counts before = cm_counts;

		clean((unsigned long)buf + 10, (unsigned long)buf + 10);
		inval((unsigned long)buf + 10, (unsigned long)buf + 10);
		CHECK_EQ(cm_counts.dcache_clean + cm_counts.dcache_inval,
			 before.dcache_clean + before.dcache_inval);
	}
	if (cmo == RISCV_CMO_THEAD)
		CHECK(fake_thead_syncs > 0);		/* th.sync.s after each operation */
	__free_page(page);
}

/* arch/riscv/cmo.c's choice: v6.10's rules and lines. */
static void cmo_select_cases(void)
{
	shim_console_reset();
	CHECK_EQ(riscv_cmo_select(true, 0, 0, 0, 0), RISCV_CMO_NONE);
	CHECK(strstr(shim_console, "Zicbom detected in ISA string, disabling as no cbom-block-size found\n"));
	shim_console_reset();
	CHECK_EQ(riscv_cmo_select(true, 48, 0, 0, 0), RISCV_CMO_NONE);
	CHECK(strstr(shim_console, "Zicbom disabled as cbom-block-size present, but is not a power-of-2\n"));
	shim_console_reset();
	CHECK_EQ(riscv_cmo_select(true, 64, 0, 0, 0), RISCV_CMO_ZICBOM);
	CHECK_EQ(riscv_cbom_block_size, 64);
	CHECK_EQ(riscv_cmo_select(false, 0, 0x5b7, 0, 0), RISCV_CMO_THEAD);	/* C906/C910 */
	CHECK_EQ(riscv_cbom_block_size, 64);
	CHECK_EQ(riscv_cmo_select(true, 32, 0x5b7, 0, 0), RISCV_CMO_THEAD);	/* T-Head wins */
	CHECK_EQ(riscv_cmo_select(true, 32, 0x5b7, 1, 0), RISCV_CMO_ZICBOM);	/* another T-Head core */
	CHECK_EQ(riscv_cbom_block_size, 32);
	CHECK_EQ(riscv_cmo_select(false, 64, 0, 0, 0), RISCV_CMO_NONE);	/* a size alone is nothing */
	CHECK(shim_console[0] == '\0');	/* no line for any of the good ones */
	riscv_cmo_select(false, 0, 0, 0, 0);
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
	if (cmo == RISCV_CMO_ZICBOM)
		riscv_cmo_select(true, line, 0, 0, 0);
	else if (cmo == RISCV_CMO_THEAD)
		riscv_cmo_select(false, 0, 0x5b7, 0, 0);
	cm_install(arch, line, ram, RAM_SIZE, maintenance);
	mutex_lock(&mm.mmap_lock);

	if (!strcmp(scenario, "dcache_ops")) {
		dcache_ops();
	} else if (!strcmp(scenario, "cmo_select")) {
		cmo_select_cases();
	} else if (!strcmp(scenario, "exec_after_write")) {
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
	riscv_cmo_select(false, 0, 0, 0, 0);
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
	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[1], "arm") && strcmp(argv[1], "riscv") && strcmp(argv[1], "riscv-zicbom") &&
	     strcmp(argv[1], "riscv-thead")) ||
	    (strcmp(argv[2], "32") && strcmp(argv[2], "64")) ||
	    (argc == 5 && strcmp(argv[4], "--no-maintenance"))) {
		fprintf(stderr, "usage: cachemodel_test arm|riscv|riscv-zicbom|riscv-thead 32|64 SCENARIO [--no-maintenance]\n");
		return 2;
	}
	arch = strcmp(argv[1], "arm") ? CM_RISCV : CM_ARM;
	cmo = !strcmp(argv[1], "riscv-zicbom") ? RISCV_CMO_ZICBOM :
	      !strcmp(argv[1], "riscv-thead") ? RISCV_CMO_THEAD : RISCV_CMO_NONE;
	line = (unsigned int)atoi(argv[2]);
	scenario = argv[3];
	maintenance = argc == 4;
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
