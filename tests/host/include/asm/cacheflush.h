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

#endif
