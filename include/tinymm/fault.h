/*
 * fault.h - deliberate faults (kernel/fault.c), shared by the `fault` and `lkdtm` commands.
 *
 * fault_exhaust_stack(): recurse with a 1 KiB frame per call until the running thread's stack
 * overflows into the unmapped guard page below it, which traps and reports `Kernel stack
 * overflow` (never returns then).  Where the stack has no guard page (not from vmalloc: RISC-V
 * until paging is on, the boot stack) it refuses in one line and returns without recursing,
 * since the overflow would silently overwrite whatever lies below; a return is a failure.
 */
#ifndef TINYMM_FAULT_H
#define TINYMM_FAULT_H

void fault_exhaust_stack(void);

#endif
