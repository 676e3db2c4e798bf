/* devicetree.h - the boot device tree, validated once (boot/devicetree.c, lib/fdt.c). */
#ifndef TINYMM_DEVICETREE_H
#define TINYMM_DEVICETREE_H

#include "fdt.h"
#include "kernel.h"

/* Largest DTB tinymm accepts (QEMU's are a few KiB; its limit for the ARM slot is 1 MiB). */
#define DT_MAX_SIZE (1u << 20)

/* Validate the DTB at physical address @pa.  0, or -1 with the reason in @err (DT_ERR_MAX). */
int devicetree_init(uintptr_t pa, char *err);
/* The validated boot tree, or NULL before devicetree_init() succeeded. */
const struct dt *boot_dt(void);
phys_addr_t boot_dt_phys(void);

/* "/soc/serial@10000000" for @node into @buf (always NUL-terminated, truncated if needed). */
void dt_node_path(const struct dt *dt, int node, char *buf, size_t len);

/* The boot CPU's hardware id as the firmware passed it (the RISC-V hart id in a0; 0 on ARM). */
extern unsigned long boot_cpu_hwid;
/* The /cpus child (device_type "cpu") whose reg is @hwid, or -1: never "the first" or "reg 0",
 * the HiFive's boot hart is any of 1-4. */
int dt_boot_cpu_node(const struct dt *dt, uint64_t hwid);

/*
 * Read every /memory node, /reserved-memory and /memreserve/ into memblock, then claim the kernel
 * image [kstart, kend) and the DTB.  0, or -1 with a one-line reason in @err (@errlen bytes):
 * no memory node, a malformed or zero-sized bank, overlapping banks, a kernel outside RAM.
 */
int dt_memory_init(const struct dt *dt, phys_addr_t dtb_pa, phys_addr_t kstart, phys_addr_t kend,
		   char *err, size_t errlen);
/* The highest CPU address all DMA-capable buses reach (from dma-ranges), 0 if unrestricted. */
phys_addr_t dt_dma_limit(const struct dt *dt);
#endif
