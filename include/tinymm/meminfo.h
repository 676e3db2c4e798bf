/* meminfo.h - the `meminfo` command's inputs (mm/meminfo.c). */
#ifndef TINYMM_MEMINFO_H
#define TINYMM_MEMINFO_H
#include "kernel.h"
/* Called once at the end of boot: the RAM the kernel manages from then on (MemTotal). */
void meminfo_set_total(phys_addr_t bytes);
/* The block layer's count of its disks' page-cache pages (Linux's nr_blockdev_pages()), which
 * meminfo shows as Buffers and subtracts from Cached: an operation the layer above registers,
 * since mm/ does not call up into block/. */
void meminfo_set_blockdev_pages(unsigned long (*fn)(void));
#endif
