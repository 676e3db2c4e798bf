/*
 * sched_stack_ktest.c - the `sched` suite's thread-stack case (kernel/kthread.c): where the
 * architecture runs on page tables (arch_vmap_stack_usable()), a new thread's stack is its own
 * vmalloc area, THREAD_SIZE mapped, with unmapped pages on both sides, listed by vmallocinfo
 * with its creator, counted in VmallocUsed, and gone from all of these once the thread has
 * exited and its stack has been freed.  Elsewhere (RISC-V until paging is on) the stack is
 * page-allocator memory and no vmalloc area at all.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/kernel.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"
#include "sched_ktest.h"

/* show_vmalloc_info() into a buffer: the line of the area at vmi_addr, whole. */
static char vmi_buf[4096];
static size_t vmi_len;

static int vmi_pr(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(vmi_buf + vmi_len, sizeof(vmi_buf) - vmi_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		vmi_len = min(vmi_len + (size_t)n, sizeof(vmi_buf) - 1);
	return n;
}

/* The vmallocinfo line that starts with @addr's range, copied to @line ("" if none). */
static void vmallocinfo_line(const void *addr, char *line, size_t size)
{
	char prefix[24];
	const char *p;

	vmi_len = 0;
	vmi_buf[0] = '\0';
	show_vmalloc_info(vmi_pr);
	ksnprintf(prefix, sizeof(prefix), "%p-", addr);
	line[0] = '\0';
	for (p = vmi_buf; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (!strncmp(p, prefix, strlen(prefix))) {
			size_t n = strcspn(p, "\n");

			n = min(n, size - 1);
			memcpy(line, p, n);
			line[n] = '\0';
			return;
		}
	}
}

static int stack_idle_fn(void *arg)
{
	return (int)(unsigned long)arg;
}

void thread_stack_vmalloc_with_guard(struct ktest *t)
{
	bool vmap = arch_vmap_stack_usable();
	char line[160];

	flush_thread_stack_frees();	/* earlier cases' dead threads: their stacks are gone */
	long used = atomic_long_read(&nr_vmalloc_pages);
	struct task_struct *p = kthread_create(stack_idle_fn, (void *)7UL, "stack-probe");

	KTEST_ASSERT_TRUE(t, p != NULL);
	void *stack = p->stack;
	struct vm_struct *vm = find_vm_area(stack);

	KTEST_EXPECT_EQ(t, p->stack_size, (size_t)THREAD_SIZE);
	if (!vmap) {
		/* Page-allocator memory: no vmalloc area, nothing counted, a real struct page. */
		KTEST_EXPECT_TRUE(t, vm == NULL);
		KTEST_EXPECT_TRUE(t, p->stack_vm_area == NULL);
		KTEST_EXPECT_EQ(t, atomic_long_read(&nr_vmalloc_pages), used);
		KTEST_EXPECT_TRUE(t, virt_to_page(stack) != NULL);
		wake_up_process(p);
		KTEST_EXPECT_EQ(t, kthread_join(p), 7);
		return;
	}
	KTEST_ASSERT_TRUE(t, vm != NULL);
	KTEST_EXPECT_TRUE(t, p->stack_vm_area == vm);
	KTEST_EXPECT_TRUE(t, vm->addr == stack);
	KTEST_EXPECT_TRUE(t, vm->flags & VM_ALLOC);
	KTEST_EXPECT_EQ(t, get_vm_area_size(vm), (unsigned long)THREAD_SIZE);
	KTEST_EXPECT_EQ(t, vm->nr_pages, THREAD_SIZE / PAGE_SIZE);
	for (unsigned int i = 0; i < vm->nr_pages; i++)
		KTEST_EXPECT_TRUE(t, vmalloc_to_page((char *)stack + i * PAGE_SIZE) == vm->pages[i]);
	/* The guard an overflow runs into, and the area's own guard above. */
	KTEST_EXPECT_TRUE(t, vmalloc_to_page((char *)stack - PAGE_SIZE) == NULL);
	KTEST_EXPECT_TRUE(t, task_stack_guard(p, (unsigned long)stack - 1));
	KTEST_EXPECT_TRUE(t, task_stack_guard(p, (unsigned long)stack - PAGE_SIZE));
	KTEST_EXPECT_FALSE(t, task_stack_guard(p, (unsigned long)stack));
	KTEST_EXPECT_FALSE(t, task_stack_guard(p, (unsigned long)stack - PAGE_SIZE - 1));
	KTEST_EXPECT_TRUE(t, vmalloc_to_page((char *)stack + THREAD_SIZE) == NULL);
	if (num_online_cpus() == 1)	/* with others, a leaving worker's stack may go meanwhile */
		KTEST_EXPECT_EQ(t, atomic_long_read(&nr_vmalloc_pages), used + (long)(THREAD_SIZE / PAGE_SIZE));
	else
		KTEST_EXPECT_LE(t, atomic_long_read(&nr_vmalloc_pages), used + (long)(THREAD_SIZE / PAGE_SIZE));
	/* vmallocinfo: range with the guard, size, the creator, pages=, vmalloc. */
	vmallocinfo_line(stack, line, sizeof(line));
	kprintf("    # %s\n", line);
	char want[64];
	ksnprintf(want, sizeof(want), "%p-%p %7lu ", stack, (char *)stack + THREAD_SIZE + PAGE_SIZE,
		  (unsigned long)(THREAD_SIZE + PAGE_SIZE));
	KTEST_EXPECT_TRUE(t, !strncmp(line, want, strlen(want)));
	KTEST_EXPECT_TRUE(t, strstr(line, " kthread_create_opts+0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(line, " pages=2 vmalloc") != NULL);

	wake_up_process(p);
	KTEST_EXPECT_EQ(t, kthread_join(p), 7);
	flush_thread_stack_frees();
	/* Freed: no area, no line, VmallocUsed as before, the range consistent. */
	KTEST_EXPECT_TRUE(t, find_vm_area(stack) == NULL);
	vmallocinfo_line(stack, line, sizeof(line));
	KTEST_EXPECT_STREQ(t, line, "");
	KTEST_EXPECT_TRUE(t, vmalloc_to_page(stack) == NULL);
	/* Its pages are given back.  With other CPUs, another thread's stack (a worker leaving)
	 * may be freed meanwhile too: no more than before, exactly as before when alone. */
	if (num_online_cpus() == 1)
		KTEST_EXPECT_EQ(t, atomic_long_read(&nr_vmalloc_pages), used);
	else
		KTEST_EXPECT_LE(t, atomic_long_read(&nr_vmalloc_pages), used);
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
}
