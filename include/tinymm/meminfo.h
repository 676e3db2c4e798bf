/* meminfo.h - the `meminfo` command's inputs (mm/meminfo.c). */
#ifndef TINYMM_MEMINFO_H
#define TINYMM_MEMINFO_H
#include "kernel.h"
/* Called once at the end of boot: the RAM the kernel manages from then on (MemTotal). */
void meminfo_set_total(phys_addr_t bytes);
#endif
