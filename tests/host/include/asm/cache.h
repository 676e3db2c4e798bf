/* asm/cache.h - the host build's: __small_data means nothing (no global pointer). */
#ifndef ASM_HOST_CACHE_H
#define ASM_HOST_CACHE_H

#define __small_data

#endif
