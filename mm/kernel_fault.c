/*
 * kernel_fault.c - the one fault the kernel resolves in its own mappings: an access through a
 * present pte that permits it but whose accessed flag is clear (ARM LPAE's Access flag, which
 * the hardware never sets: an access with AF 0 takes an Access flag fault) or, for a write,
 * whose dirty bit is clear (RISC-V cores that trap instead of updating A/D, the privileged
 * spec's Svade behaviour; QEMU 7.2 updates them in the pte itself).  The kernel's own
 * protections set both bits (asm/pgtable.h), so this happens only after something made a pte
 * old or clean on purpose: the tests (idle page tracking, mm/page_idle.c, makes only user ptes
 * old, never the kernel's mapping of the same frame).  Linux resolves the same faults in
 * handle_pte_fault() for user mappings and, on arm64/RISC-V, with hardware updates for the
 * kernel's.
 *
 * kernel_access_fault(addr, write, exec): true if the pte was made young (and dirty for a write)
 * and the access may simply be retried; false for anything else (no pte, a block, not present,
 * a permission the pte does not give, or the bits already set: a real fault), which the trap
 * handler reports as before.  Called from the trap handlers with interrupts masked, on the
 * faulting CPU; it takes no lock (one CPU; the pte's owner is the interrupted code).
 */
#include "tinymm/mm.h"
#include "tinymm/pgtable.h"

unsigned long nr_kernel_access_faults;	/* resolved here (the tests tell hardware from trap) */

bool kernel_access_fault(unsigned long addr, bool write, bool exec)
{
	pte_t *ptep;
	pte_t pte;

	if (addr < min(PAGE_OFFSET, VMALLOC_START))
		return false;		/* the user half: no kernel mapping there */
	ptep = virt_to_kpte(addr);
	if (!ptep)
		return false;
	pte = ptep_get(ptep);
	if (!pte_present(pte) || (write && !pte_write(pte)) || (exec && !pte_exec(pte)))
		return false;
	if (pte_young(pte) && (!write || pte_dirty(pte)))
		return false;
	pte = pte_mkyoung(pte);
	if (write)
		pte = pte_mkdirty(pte);
	set_pte(ptep, pte);
	flush_tlb_page(NULL, addr);
	nr_kernel_access_faults++;
	return true;
}
