/*
 * cachemodel.h - a CPU's caches, modelled for the host (docs/cacheflush.md, "The host cache
 * model"): tinymm's cache primitives (asm/cacheflush.h on the host) drive it, and a test
 * fetches "instructions" through it to see what a real core would execute.
 *
 * What is modelled, over the fake RAM [base, base + size):
 *   - the data side: what the CPU's loads and stores see.  That is the RAM itself: every byte
 *     the kernel writes lands there and is read back from there, as through a write-back
 *     D-cache that holds the line.
 *   - memory: what lies beyond the D-cache (the point of unification, here also the point of
 *     coherency): a shadow copy of the RAM, taken when the model is installed.  A line is
 *     dirty when the CPU stored into it since it was last clean (its data side differs from a
 *     second shadow, taken at each clean or fill); a clean line may still differ from memory
 *     when a device wrote memory behind it: stale, as a line the CPU filled before or during
 *     the transfer.  A D-cache clean copies dirty lines' data into memory; an invalidate
 *     throws the data side away (memory's bytes come back over it, as the next access's
 *     refill would read); a flush does both.  ARM's invalidate by range flushes a partial line
 *     at either end (asm/cacheflush.h's dcache_inval_poc, v7_dma_inv_range); RISC-V's
 *     operations come one whole block at a time (asm/cmo_insn.h).
 *   - the I-cache: lines filled from memory (never from the D-cache) on a fetch miss and
 *     kept until invalidated, so stale code stays fetchable until someone invalidates.
 * Architectures' rules: ARM's ICIALLU (icache_inval_all) drops every I line and touches no
 * data; its D-cache operations act on the lines of the range.  RISC-V's FENCE.I makes every
 * earlier store visible to later fetches on this hart: every dirty line is written to memory
 * and the I-cache is dropped.  Line sizes: 32 or 64 bytes.
 * With maintenance off (cm_install(.., maintenance = false)) every operation is counted but
 * does nothing: the scenarios must then fail (a test that proves they can).
 */
#ifndef TINYMM_TESTS_CACHEMODEL_H
#define TINYMM_TESTS_CACHEMODEL_H

#include <stdbool.h>
#include <stddef.h>

enum cm_arch { CM_ARM, CM_RISCV };

struct cm_counts {
	unsigned long dcache_clean, dcache_inval, dcache_flush, icache_inval, fence_i;
	unsigned long ifetch_misses;
};

/* Install the model over [base, base + size), all lines clean, the I-cache empty. */
void cm_install(enum cm_arch arch, unsigned int line, void *base, size_t size, bool maintenance);
void cm_uninstall(void);
/* Fetch @n bytes of instructions at the kernel address @addr through the I-cache. */
void cm_fetch(const void *addr, void *buf, size_t n);
extern struct cm_counts cm_counts;
/* A device's view: read @n bytes of memory at @addr / write them there, behind the D-cache. */
void cm_device_read(const void *addr, void *buf, size_t n);
void cm_device_write(void *addr, const void *buf, size_t n);
/* The CPU fetches the lines of [addr, addr + n) speculatively (prefetch during a transfer): a
 * line that is not dirty is filled again from memory as it is now. */
void cm_speculative_fill(const void *addr, size_t n);
/* Set up a scenario: the lines of [addr, addr + n) clean, memory holding what the CPU sees
 * (no operation counted). */
void cm_settle(void *addr, size_t n);
/* A deliberately wrong cache (tests only): a flush invalidates without cleaning, so a partial
 * edge line loses the bytes the CPU wrote there, as a plain invalidate of the edges would. */
void cm_flush_forgets_to_clean(bool on);

#endif
