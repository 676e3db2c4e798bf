/*
 * asm/cache.h - where small hot data lives (ARMv7-A).
 *   __small_data   nothing: ARM has no global-pointer register; a literal-pool load finds
 *                  any variable in one instruction.
 */
#ifndef ASM_ARM_CACHE_H
#define ASM_ARM_CACHE_H

#define __small_data

#endif
