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

/* The host's caches are coherent with everything a host test does: no D-cache operation. */
static inline void dcache_clean_poc(unsigned long start, unsigned long end) { (void)start; (void)end; }
static inline void dcache_clean_pou(unsigned long start, unsigned long end) { (void)start; (void)end; }
static inline void dcache_inval_poc(unsigned long start, unsigned long end) { (void)start; (void)end; }
static inline void dcache_clean_inval_poc(unsigned long start, unsigned long end) { (void)start; (void)end; }
static inline void icache_inval_all(void) { }

#endif
