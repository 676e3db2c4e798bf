/*
 * tlbflush.c - the debug switch of ARM's cross-CPU TLB maintenance (asm/pgtable.h's
 * flush_tlb_kernel_range; docs/smp.md, "ARM virt").
 *
 * ARMv7 with the multiprocessing extensions broadcasts TLB maintenance in hardware: the
 * inner-shareable forms (TLBIMVAAIS, TLBIALLIS) reach every CPU, so, as in v6.10's ARMv7 SMP
 * kernel, no shootdown IPI exists to turn off.  tinymm.tlb_shootdown=0 (the name RISC-V's
 * switch has, arch/riscv/context.c) makes the flushes use the local forms (TLBIMVAA, TLBIALL)
 * instead, so a mapping changed on one CPU stays cached stale on the others: the KTAP suite
 * tlb_shootdown_off (arch/arm/smp_ktest.c) and the idle-tracking twin in
 * tests/qemu/smp_user.cmake show the stale entry used.  v6.10 has no such switch.
 * The ASID rollover's per-CPU TLBIALL (asid.c) is local by design and not affected.
 */
#include "tinymm/cmdline.h"
#include "tinymm/pgtable.h"

bool arm_tlb_shootdown = true;
KPARAM_BOOL(tlb_shootdown, arm_tlb_shootdown,
	    "ARM SMP: 0 makes the TLB flushes local (TLBIMVAA/TLBIALL, not the inner-shareable "
	    "forms): a debug switch for the stale-TLB tests");
