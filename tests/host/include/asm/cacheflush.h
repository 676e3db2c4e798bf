/*
 * asm/cacheflush.h - the host's: flush_icache_range() is the compiler's own __clear_cache, which
 * is what a user-space JIT on the host would call (nothing in the host tests runs written code).
 */
#ifndef ASM_HOST_CACHEFLUSH_H
#define ASM_HOST_CACHEFLUSH_H

static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	__builtin___clear_cache((char *)start, (char *)end);
}

/*
 * The host's own caches are coherent with everything a host test does, so the primitives do
 * nothing, unless a test installs a cache model (tests/host/cachemodel.c, docs/cacheflush.md):
 * then each goes to the model, which plays a CPU's write-back D-cache and I-cache.
 */
struct fake_cache_ops {
	void (*dcache_clean)(unsigned long start, unsigned long end);
	void (*dcache_inval)(unsigned long start, unsigned long end);
	void (*dcache_flush)(unsigned long start, unsigned long end);
	void (*icache_inval_all)(void);
	void (*fence_i)(void);
};
extern const struct fake_cache_ops *fake_cache;

static inline void dcache_clean_poc(unsigned long start, unsigned long end)
{
	if (fake_cache)
		fake_cache->dcache_clean(start, end);
}

static inline void dcache_clean_pou(unsigned long start, unsigned long end)
{
	if (fake_cache)
		fake_cache->dcache_clean(start, end);
}

static inline void dcache_inval_poc(unsigned long start, unsigned long end)
{
	if (fake_cache)
		fake_cache->dcache_inval(start, end);
}

static inline void dcache_clean_inval_poc(unsigned long start, unsigned long end)
{
	if (fake_cache)
		fake_cache->dcache_flush(start, end);
}

static inline void icache_inval_all(void)
{
	if (fake_cache)
		fake_cache->icache_inval_all();
}

/* RISC-V's FENCE.I (arch/riscv/cacheflush.c calls it by this name). */
static inline void local_flush_icache_all(void)
{
	if (fake_cache)
		fake_cache->fence_i();
}

#endif
