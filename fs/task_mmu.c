/*
 * task_mmu.c - a task's address space shown as Linux's /proc/PID/maps and /proc/PID/pagemap
 * show it (v6.10's fs/proc/task_mmu.c): the shell commands `maps <pid>` and
 * `pagemap <pid> <addr>`, and task_mm_usage() for `ps`'s VSZ and RSS.
 *
 * maps: one line per area, `start-end perms offset dev inode` padded (as seq_pad) to column
 *   25 + 6 * sizeof(void *) then the pathname, `[heap]` or `[stack]`; an area without a name
 *   ends after the inode and one space, as in v6.10.  tinymm has no device numbers: dev is
 *   always 00:00.  `maps -v <pid>` adds after each area its /proc/PID/smaps `VmFlags:` line
 *   (v6.10's two-letter codes, e.g. `lo` for VM_LOCKED) for the flags tinymm has; v6.10 sets
 *   `ms` (VM_MAYSHARE) beside `sh`, tinymm has no VM_MAYSHARE; mlock2(MLOCK_ONFAULT) shows
 *   `lo lf`.
 * pagemap: the 64-bit entry of v6.10's pagemap for the page at @addr, in hex, then its
 *   fields decoded: bit 63 present, 62 swapped, 61 file-page or shared-anon, 56 exclusively
 *   mapped (mapcount 1), 55 soft-dirty (never set: tinymm does not track it), bits 0-54 the
 *   pfn (shown, as for CAP_SYS_ADMIN); and, not in the 64-bit entry (v6.10 has no bit for
 *   it there), anon-exclusive: the page's PG_anon_exclusive, which fork clears and a write
 *   fault that finds the page this mm's alone sets again (docs/fork.md).
 *   docs/user.md has an example.
 * Locking: the task is found with interrupts masked and pinned (get_task_struct, mmget);
 *   its mmap_lock is held while the areas are read, page_table_lock while a pte is.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/lockdep.h"
#include "tinymm/exec.h"
#include "tinymm/mm.h"
#include "tinymm/mlock.h"
#include "tinymm/mm_fault.h"
#include "tinymm/swapops.h"
#include "tinymm/page-flags.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"
#include "internal.h"

struct find_pid {
	int pid;
	struct task_struct *task;
	struct mm_struct *mm;
};

static void match_pid(struct task_struct *p, void *arg)
{
	struct find_pid *f = arg;

	if (p->pid != f->pid || f->task)
		return;
	f->task = p;
	get_task_struct(p);
	f->mm = p->mm;			/* interrupts masked: do_exit cannot drop it meanwhile */
	if (f->mm)
		mmget(f->mm);
}

/* The user mm of task @arg, referenced; NULL after printing why. */
static struct mm_struct *pid_mm(const char *cmd, const char *arg, char *comm)
{
	unsigned long pid;
	struct find_pid f = { 0 };

	if (kstrtoul(arg, &pid) || pid > INT_MAX) {
		kprintf("%s: invalid pid '%s'\n", cmd, arg);
		return NULL;
	}
	f.pid = (int)pid;
	for_each_task(match_pid, &f);
	if (!f.task) {
		kprintf("%s: no task with pid %lu\n", cmd, pid);
		return NULL;
	}
	ksnprintf(comm, TASK_COMM_LEN, "%s", f.task->comm);
	put_task_struct(f.task);
	if (!f.mm)
		kprintf("%s: pid %lu (%s) is a kernel thread: no user address space\n", cmd, pid, comm);
	return f.mm;
}

/* v6.10's d_path() for an open file: its name from the root, across mounts; " (deleted)"
 * once unlinked. */
static void file_path(struct file *file, char *buf, size_t len)
{
	struct vfsmount *mnt = file->f_path.mnt;
	struct dentry *d = file->f_path.dentry;
	bool deleted = d->d_unhashed;
	char *p = buf + len;

	*--p = '\0';
	mutex_lock(&vfs_lock);
	for (;;) {
		if (d == mnt->mnt_root) {
			if (mnt->mnt_parent == mnt)
				break;
			d = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if ((size_t)(p - buf) < d->d_name.len + 2)
			break;			/* too deep for the buffer: the tail is shown */
		p -= d->d_name.len;
		memcpy(p, d->d_name.name, d->d_name.len);
		*--p = '/';
		d = d->d_parent;
	}
	mutex_unlock(&vfs_lock);
	if (!*p)
		*--p = '/';
	memmove(buf, p, strlen(p) + 1);
	if (deleted && strlen(buf) + 11 < len)
		strcat(buf, " (deleted)");
}

static void show_map_vma(struct mm_struct *mm, struct vm_area_struct *vma, char *path, size_t len)
{
	const int width = 25 + (int)sizeof(void *) * 6 - 1;	/* v6.10's seq_setwidth */
	unsigned long long pgoff = vma->vm_file ? (unsigned long long)vma->vm_pgoff << PAGE_SHIFT : 0;
	unsigned long ino = vma->vm_file ? vma->vm_file->f_inode->i_ino : 0;
	const char *name = NULL;
	char line[128];
	int n;

	n = ksnprintf(line, sizeof(line), "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ",
		      vma->vm_start, vma->vm_end,
		      vma->vm_flags & VM_READ ? 'r' : '-', vma->vm_flags & VM_WRITE ? 'w' : '-',
		      vma->vm_flags & VM_EXEC ? 'x' : '-', vma->vm_flags & VM_SHARED ? 's' : 'p',
		      pgoff, 0, 0, ino);
	if (vma->vm_file) {
		file_path(vma->vm_file, path, len);
		name = path;
	} else if (vma->vm_start <= mm->brk && vma->vm_end >= mm->start_brk) {
		name = "[heap]";
	} else if (vma->vm_start <= mm->start_stack && vma->vm_end >= mm->start_stack) {
		name = "[stack]";
	}
	if (!name) {
		kprintf("%s\n", line);
		return;
	}
	/* seq_pad(m, ' '): spaces up to the width, then one more, then the name. */
	kprintf("%s%*s %s\n", line, n < width ? width - n : 0, "", name);
}

/*
 * v6.10's show_smap_vma_flags(): `VmFlags:` and a two-letter code per flag set, in bit order,
 * each followed by a space.  Only the flags tinymm has; v6.10's codes for them.
 */
static void show_smap_vma_flags(const struct vm_area_struct *vma)
{
	static const struct { unsigned long flag; char code[3]; } mnemonics[] = {
		{ VM_READ, "rd" }, { VM_WRITE, "wr" }, { VM_EXEC, "ex" }, { VM_SHARED, "sh" },
		{ VM_MAYREAD, "mr" }, { VM_MAYWRITE, "mw" }, { VM_MAYEXEC, "me" },
		{ VM_GROWSDOWN, "gd" }, { VM_LOCKED, "lo" }, { VM_LOCKONFAULT, "lf" },
	};
	char line[8 + 3 * ARRAY_SIZE(mnemonics) + 1] = "VmFlags:";
	size_t n = 8;

	for (size_t i = 0; i < ARRAY_SIZE(mnemonics); i++)
		if (vma->vm_flags & mnemonics[i].flag) {
			line[n++] = ' ';
			line[n++] = mnemonics[i].code[0];
			line[n++] = mnemonics[i].code[1];
		}
	line[n] = '\0';
	kprintf("%s\n", line);
}

static int cmd_maps(int argc, char **argv)
{
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;
	bool verbose = argc == 3 && !strcmp(argv[1], "-v");
	char *path;

	if (argc != 2 && !verbose)
		return shell_usage_error(argv[0], "usage: maps [-v] <pid>");
	mm = pid_mm(argv[0], argv[argc - 1], comm);
	if (!mm)
		return 1;
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (path) {
		mutex_lock(&mm->mmap_lock);
		for (int i = 0; i < mm->map_count; i++) {
			show_map_vma(mm, mm->vmas[i], path, PATH_MAX);
			if (verbose)
				show_smap_vma_flags(mm->vmas[i]);
		}
		mutex_unlock(&mm->mmap_lock);
		kfree(path);
	} else {
		kprintf("maps: out of memory\n");
	}
	mmput(mm);
	return path ? 0 : 1;
}
SHELL_COMMAND(maps, "[-v] <pid>",
	      "a user task's areas, as /proc/PID/maps; -v adds each one's smaps VmFlags line", cmd_maps);

/* v6.10's pte_to_pagemap_entry() for one address, under the task's mmap_lock
 * (include/tinymm/exec.h); *@anon_exclusive: PG_anon_exclusive of an anonymous page. */
uint64_t pagemap_entry(struct mm_struct *mm, unsigned long addr, bool *anon_exclusive)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	uint64_t e = 0;
	pte_t *ptep;
	pte_t pte;

	lockdep_assert_held(&mm->mmap_lock);
	*anon_exclusive = false;
	if (!vma)
		return 0;
	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	pte = ptep ? ptep_get(ptep) : __pte(0);
	if (pte_present(pte)) {
		struct page *page = pfn_to_page(pte_pfn(pte));

		e = PM_PRESENT | ((uint64_t)pte_pfn(pte) & PM_PFRAME_MASK);
		if (!PageAnon(page))
			e |= PM_FILE;
		if (page_mapcount(page) == 1)
			e |= PM_MMAP_EXCLUSIVE;
		*anon_exclusive = PageAnon(page) && PageAnonExclusive(page);
	} else if (is_swap_pte(pte)) {
		/* A swap entry, or a hwpoison or migration one (shown as v6.10 shows a pfn swap
		 * entry): PM_SWAP, the type and the offset (the pfn); PM_FILE by the page a pfn entry
		 * names. */
		swp_entry_t entry = pte_to_swp_entry(pte);

		e = PM_SWAP | (((uint64_t)swp_type(entry) |
				((uint64_t)swp_offset(entry) << MAX_SWAPFILES_SHIFT)) & PM_PFRAME_MASK);
		if (non_swap_entry(entry)) {
			struct page *page = pfn_swap_entry_to_page(entry);

			if (page && !PageAnon(page))
				e |= PM_FILE;
		}
	}
	spin_unlock(&mm->page_table_lock);
	return e;
}

static int cmd_pagemap(int argc, char **argv)
{
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;
	unsigned long addr;
	bool anon_excl;
	uint64_t e;

	if (argc != 3)
		return shell_usage_error(argv[0], "usage: pagemap <pid> <addr>");
	if (kstrtoul(argv[2], &addr) || addr >= TASK_SIZE) {
		kprintf("pagemap: invalid user address '%s'\n", argv[2]);
		return 2;
	}
	mm = pid_mm(argv[0], argv[1], comm);
	if (!mm)
		return 1;
	mutex_lock(&mm->mmap_lock);
	e = pagemap_entry(mm, addr, &anon_excl);
	mutex_unlock(&mm->mmap_lock);
	mmput(mm);
	kprintf("0x%lx: 0x%016llx present %d swapped %d file %d exclusive %d soft-dirty %d pfn 0x%llx anon-exclusive %d\n",
		addr & PAGE_MASK, (unsigned long long)e, !!(e & PM_PRESENT), !!(e & PM_SWAP),
		!!(e & PM_FILE), !!(e & PM_MMAP_EXCLUSIVE), !!(e & PM_SOFT_DIRTY),
		(unsigned long long)(e & PM_PFRAME_MASK), anon_excl);
	return 0;
}
SHELL_COMMAND(pagemap, "<pid> <addr>",
	      "the /proc/PID/pagemap entry of a user address: present, swapped, file, exclusive, pfn",
	      cmd_pagemap);
