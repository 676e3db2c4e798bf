/* asm/memory.h - the host's: fake RAM lives at host addresses, so virtual == physical. */
#ifndef ASM_HOST_MEMORY_H
#define ASM_HOST_MEMORY_H
#define PAGE_OFFSET	0UL
#define PHYS_OFFSET	0UL
#define LOWMEM_END	(~0UL)
#endif
