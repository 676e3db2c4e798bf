/*
 * asm/cache.h - where small hot data lives (ARMv7-A).
 *   __small_data   nothing: ARM has no global-pointer register, and a literal-pool load
 *                  already gives any variable's address.
 */
#ifndef ASM_ARM_CACHE_H
#define ASM_ARM_CACHE_H

#define __small_data

#endif
