/* counter.h - reading RISC-V's 64-bit unprivileged counters (time, cycle, instret). */
#ifndef TINYMM_ASM_COUNTER_H
#define TINYMM_ASM_COUNTER_H

#include <stdint.h>

/*
 * riscv_read_counter64(time): the whole 64-bit value.  On RV32 the high half is read before and
 * after the low half, again until both agree, so a carry between the two reads is never seen.
 */
#if __riscv_xlen == 64
#define riscv_read_counter64(c) __extension__ ({					\
	uint64_t __v;									\
	__asm__ __volatile__("rd" #c " %0" : "=r"(__v));				\
	__v;										\
})
#else
#define riscv_read_counter64(c) __extension__ ({					\
	uint32_t __hi, __lo, __hi2;							\
	do {										\
		__asm__ __volatile__("rd" #c "h %0" : "=r"(__hi));			\
		__asm__ __volatile__("rd" #c " %0" : "=r"(__lo));			\
		__asm__ __volatile__("rd" #c "h %0" : "=r"(__hi2));			\
	} while (__hi != __hi2);							\
	((uint64_t)__hi << 32) | __lo;							\
})
#endif

#endif
