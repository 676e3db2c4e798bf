/* sections.h - symbols the linker script (linker/kernel.ld.in) defines around the image. */
#ifndef TINYMM_SECTIONS_H
#define TINYMM_SECTIONS_H

extern char _start_kernel[], _etext[], _sdata[], _end[];
extern char __bss_start[], __bss_end[];
extern char __boot_stack_bottom[], __boot_stack_top[];
/* __ro_after_init data (include/tinymm/cache.h), page-aligned; mark_rodata_ro() protects it. */
extern char __start_ro_after_init[], __end_ro_after_init[];
extern char __tls_base[], __tls_size[], __tdata_size[], __tbss_size[];	/* sizes: use the address */

#endif
