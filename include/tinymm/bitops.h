/*
 * bitops.h - bit operations on `unsigned long` bitmaps, Linux's names and ordering
 * (Documentation/atomic_bitops.txt).
 *
 * Bit @nr lives in word nr / BITS_PER_LONG, at bit nr % BITS_PER_LONG of that word, so @nr may
 * be any index into a bitmap of several words (DECLARE_BITMAP).
 *   set_bit, clear_bit, change_bit         atomic, relaxed (no ordering), return nothing
 *   test_and_{set,clear,change}_bit       atomic, fully ordered, return the old bit
 *   test_bit                               a plain read
 *   __set_bit, __clear_bit, __change_bit,  NOT atomic: only for bitmaps no one else can touch
 *   __test_and_{set,clear,change}_bit      at the same time (held lock, not yet published)
 * The atomic ones are the architecture's atomic_long or/and/xor on the word holding the bit
 * (single AMOs on RISC-V, LDREX/STREX loops on ARM), so nothing here is per-architecture.
 */
#ifndef TINYMM_BITOPS_H
#define TINYMM_BITOPS_H

#include "atomic.h"
#include "kernel.h"

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#ifndef BIT
#define BIT(nr)			(1UL << (nr))
#endif
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

/* The word holding @nr, seen as an atomic_long_t (same size and representation). */
static inline atomic_long_t *__bitop_word(unsigned long nr, volatile unsigned long *addr)
{
	return (atomic_long_t *)(addr + BIT_WORD(nr));
}

static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	atomic_long_or((long)BIT_MASK(nr), __bitop_word(nr, addr));
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	atomic_long_andnot((long)BIT_MASK(nr), __bitop_word(nr, addr));
}

static inline void change_bit(unsigned long nr, volatile unsigned long *addr)
{
	atomic_long_xor((long)BIT_MASK(nr), __bitop_word(nr, addr));
}

static inline bool test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	return atomic_long_fetch_or((long)BIT_MASK(nr), __bitop_word(nr, addr)) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	return atomic_long_fetch_andnot((long)BIT_MASK(nr), __bitop_word(nr, addr)) & BIT_MASK(nr);
}

static inline bool test_and_change_bit(unsigned long nr, volatile unsigned long *addr)
{
	return atomic_long_fetch_xor((long)BIT_MASK(nr), __bitop_word(nr, addr)) & BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void __change_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old & ~BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline bool __test_and_change_bit(unsigned long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old ^ BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

#endif
