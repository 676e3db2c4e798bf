/*
 * lkdtm_rodata.c - a function whose instructions live in .rodata, for `lkdtm EXEC_RODATA`:
 * calling it must take an instruction-fetch permission fault, since rodata is mapped no-exec.
 *
 * Linux (drivers/misc/lkdtm/rodata.c) compiles an ordinary function and renames the object's
 * .text to .rodata with objcopy.  Here the section attribute does it: GCC emits the function
 * into a section of its own, `lkdtm_rodata` (flagged "ax", which only the ELF segment sees; a
 * name under .rodata.* would make the assembler warn about the flags), and
 * linker/kernel.ld.in's rodata output section takes it, between _etext and _sdata, the range the
 * page tables map read-only and execute-never.  kernel/lkdtm.c checks that it landed there.
 * The function is empty and uses no literal pool, so it needs nothing outside itself.
 */
#include "tinymm/kernel.h"
#include "tinymm/lkdtm.h"

__section("lkdtm_rodata") __attribute__((noinline))
void lkdtm_rodata_do_nothing(void)
{
}
