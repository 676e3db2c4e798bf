/*
 * cachemodel.c - the host cache model (tests/host/cachemodel.h says what it models and why).
 * The I-cache is direct-mapped, 512 lines, so a line stays until an invalidate or a fetch of
 * an address that maps to the same slot: long enough to hold a scenario's code stale.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <asm/cacheflush.h>
#include "cachemodel.h"

#define CM_ILINES	512

struct cm_iline {
	bool valid;
	uintptr_t tag;			/* the line's address */
	unsigned char bytes[64];
};

static struct {
	enum cm_arch arch;
	unsigned int line;
	unsigned char *base, *memory;	/* the data side (the RAM) and what is behind it */
	unsigned char *clean;		/* the data side as of each line's last clean or fill */
	size_t size;
	bool maintenance;
	bool flush_forgets;		/* cm_flush_forgets_to_clean(): a flush only invalidates */
	struct cm_iline icache[CM_ILINES];
} cm;

struct cm_counts cm_counts;
unsigned long fake_thead_syncs;	/* asm/cmo_insn.h's th.sync.s */

/* A copy that ASan does not check: the fake RAM holds the test threads' stacks, whose
 * redzones a whole-RAM copy (the snapshot, FENCE.I) reads as any cache writeback would. */
__attribute__((no_sanitize("address"))) static void raw_copy(unsigned char *dst,
							       const unsigned char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((volatile unsigned char *)dst)[i] = src[i];
}

static unsigned char *data_of(uintptr_t a)
{
	return (unsigned char *)a;
}

static unsigned char *memory_of(uintptr_t a)
{
	return cm.memory + (a - (uintptr_t)cm.base);
}

static unsigned char *clean_of(uintptr_t a)
{
	return cm.clean + (a - (uintptr_t)cm.base);
}

/* The CPU stored into the line since it was last clean: only then is there data to write back
 * (a clean line whose memory a device rewrote holds stale data, and a clean or flush of it
 * writes nothing: a real cache has no copy of it to write). */
static bool line_dirty(uintptr_t a)
{
	return memcmp(data_of(a), clean_of(a), cm.line) != 0;
}

static void line_writeback(uintptr_t a)
{
	if (line_dirty(a)) {
		memcpy(memory_of(a), data_of(a), cm.line);
		memcpy(clean_of(a), data_of(a), cm.line);
	}
}

/* Discarded, then filled again from memory (the next access's refill). */
static void line_refill(uintptr_t a)
{
	memcpy(data_of(a), memory_of(a), cm.line);
	memcpy(clean_of(a), memory_of(a), cm.line);
}

static bool in_ram(uintptr_t a)
{
	return a >= (uintptr_t)cm.base && a < (uintptr_t)cm.base + cm.size;
}

/* Every line of [start, end), rounded out to lines, inside the modelled RAM. */
#define for_each_line(a, start, end)								\
	for (uintptr_t a = (start) & ~(uintptr_t)(cm.line - 1); a < (end); a += cm.line)	\
		if (in_ram(a))

static void cm_dcache_clean(unsigned long start, unsigned long end)
{
	cm_counts.dcache_clean++;
	if (cm.maintenance)
		for_each_line(a, start, end)
			line_writeback(a);
}

static void line_flush(uintptr_t a)
{
	if (!cm.flush_forgets)
		line_writeback(a);
	line_refill(a);
}

/* ARM's dcache_inval_poc() (asm/cacheflush.h, v7_dma_inv_range) flushes a partial line at
 * either end; RISC-V's operations reach the model one whole block at a time. */
static void cm_dcache_inval(unsigned long start, unsigned long end)
{
	uintptr_t first = start & ~(uintptr_t)(cm.line - 1), last = (end - 1) & ~(uintptr_t)(cm.line - 1);

	cm_counts.dcache_inval++;
	if (!cm.maintenance || start >= end)
		return;
	for_each_line(a, start, end) {
		if (cm.arch == CM_ARM && ((a == first && (start & (cm.line - 1))) ||
					  (a == last && (end & (cm.line - 1)))))
			line_flush(a);
		else
			line_refill(a);
	}
}

static void cm_dcache_flush(unsigned long start, unsigned long end)
{
	cm_counts.dcache_flush++;
	if (cm.maintenance)
		for_each_line(a, start, end)
			line_flush(a);
}

static void icache_drop(void)
{
	memset(cm.icache, 0, sizeof(cm.icache));
}

static void cm_icache_inval_all(void)
{
	cm_counts.icache_inval++;
	if (cm.maintenance)
		icache_drop();
}

static void cm_fence_i(void)
{
	cm_counts.fence_i++;
	if (cm.maintenance) {
		raw_copy(cm.memory, cm.base, cm.size);	/* every earlier store, visible to fetch */
		raw_copy(cm.clean, cm.base, cm.size);
		icache_drop();
	}
}

static const struct fake_cache_ops cm_ops = {
	.dcache_clean = cm_dcache_clean, .dcache_inval = cm_dcache_inval,
	.dcache_flush = cm_dcache_flush, .icache_inval_all = cm_icache_inval_all,
	.fence_i = cm_fence_i,
};

void cm_install(enum cm_arch arch, unsigned int line, void *base, size_t size, bool maintenance)
{
	if ((line != 32 && line != 64) || !base || !size)
		abort();
	free(cm.memory);
	free(cm.clean);
	cm.arch = arch;
	cm.line = line;
	cm.base = base;
	cm.size = size;
	cm.maintenance = maintenance;
	cm.flush_forgets = false;
	cm.memory = malloc(size);
	cm.clean = malloc(size);
	if (!cm.memory || !cm.clean)
		abort();
	raw_copy(cm.memory, base, size);	/* every line clean */
	raw_copy(cm.clean, base, size);
	icache_drop();
	memset(&cm_counts, 0, sizeof(cm_counts));
	fake_cache = &cm_ops;
}

void cm_uninstall(void)
{
	fake_cache = NULL;
	free(cm.memory);
	free(cm.clean);
	cm.memory = NULL;
	cm.clean = NULL;
}

void cm_fetch(const void *addr, void *buf, size_t n)
{
	unsigned char *out = buf;

	for (uintptr_t a = (uintptr_t)addr; a < (uintptr_t)addr + n; a++) {
		uintptr_t tag = a & ~(uintptr_t)(cm.line - 1);
		struct cm_iline *l = &cm.icache[(tag / cm.line) % CM_ILINES];

		if (!in_ram(a))
			abort();
		if (!l->valid || l->tag != tag) {
			cm_counts.ifetch_misses++;
			l->valid = true;
			l->tag = tag;
			memcpy(l->bytes, memory_of(tag), cm.line);	/* from memory, never the D-cache */
		}
		*out++ = l->bytes[a - tag];
	}
}

void cm_device_read(const void *addr, void *buf, size_t n)
{
	if (!in_ram((uintptr_t)addr) || !in_ram((uintptr_t)addr + n - 1))
		abort();
	memcpy(buf, memory_of((uintptr_t)addr), n);
}

void cm_device_write(void *addr, const void *buf, size_t n)
{
	if (!in_ram((uintptr_t)addr) || !in_ram((uintptr_t)addr + n - 1))
		abort();
	memcpy(memory_of((uintptr_t)addr), buf, n);
}

void cm_speculative_fill(const void *addr, size_t n)
{
	for_each_line(a, (uintptr_t)addr, (uintptr_t)addr + n)
		if (!line_dirty(a))
			line_refill(a);
}

void cm_flush_forgets_to_clean(bool on)
{
	cm.flush_forgets = on;
}

void cm_settle(void *addr, size_t n)
{
	for_each_line(a, (uintptr_t)addr, (uintptr_t)addr + n) {
		memcpy(memory_of(a), data_of(a), cm.line);
		memcpy(clean_of(a), data_of(a), cm.line);
	}
}
