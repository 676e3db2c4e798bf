/*
 * sbi.c - calls into the Supervisor Binary Interface firmware (OpenSBI on QEMU's RV64 virt and
 * the HiFive Unleashed): the ecall itself and the extensions SMP uses, HSM hart_start (EID
 * "HSM"), IPI send_ipi (EID "sPI") and RFENCE's remote sfence.vma and fence.i (EID "RFNC"),
 * SBI v0.2+ calling convention (a7 = EID, a6 = FID,
 * a0/a1 back: error, value).  The timer's calls are in timer.c.
 * Only with firmware: on the boards that start in M-mode themselves (mstart.S, RV32) nobody
 * answers an ecall (medeleg sends it nowhere), so every call here answers SBI_ERR_NOT_SUPPORTED
 * without trapping, and their callers use mstart.S's own mechanisms instead.
 * Locking: none; an ecall is per hart.
 */
#include "riscv.h"

#define SBI_EXT_BASE		0x10
#define SBI_BASE_PROBE_EXT	3
#define SBI_EXT_IPI		0x735049
#define SBI_EXT_HSM		0x48534d
#define SBI_HSM_HART_START	0
#define SBI_EXT_RFENCE		0x52464e43
#define SBI_RFENCE_FENCE_I	0
#define SBI_RFENCE_SFENCE_VMA	1

#if RISCV_HAVE_SBI
static struct sbiret sbi_ecall4(unsigned long eid, unsigned long fid, unsigned long arg0,
			       unsigned long arg1, unsigned long arg2, unsigned long arg3)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a2 __asm__("a2") = arg2;
	register unsigned long a3 __asm__("a3") = arg3;
	register unsigned long a6 __asm__("a6") = fid;
	register unsigned long a7 __asm__("a7") = eid;

	__asm__ __volatile__("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a3), "r"(a6), "r"(a7)
			     : "memory");
	return (struct sbiret){ (long)a0, (long)a1 };
}

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long arg0,
			unsigned long arg1, unsigned long arg2)
{
	return sbi_ecall4(eid, fid, arg0, arg1, arg2, 0);
}

/* RFENCE: the harts in @hart_mask (from @hart_mask_base) run sfence.vma over [start,
 * start + size) (size -1: everything), or fence.i; returns when they have. */
long sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_mask_base,
			   unsigned long start, unsigned long size)
{
	return sbi_ecall4(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, hart_mask, hart_mask_base, start,
			  size).error;
}

long sbi_remote_fence_i(unsigned long hart_mask, unsigned long hart_mask_base)
{
	return sbi_ecall4(SBI_EXT_RFENCE, SBI_RFENCE_FENCE_I, hart_mask, hart_mask_base, 0, 0).error;
}
#else
struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long arg0,
			unsigned long arg1, unsigned long arg2)
{
	(void)eid, (void)fid, (void)arg0, (void)arg1, (void)arg2;
	return (struct sbiret){ SBI_ERR_NOT_SUPPORTED, 0 };
}
#endif

bool sbi_probe_extension(unsigned long eid)
{
	struct sbiret r = sbi_ecall(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, eid, 0, 0);

	return !r.error && r.value;
}

long sbi_hart_start(unsigned long hartid, unsigned long start_pa, unsigned long opaque)
{
	return sbi_ecall(SBI_EXT_HSM, SBI_HSM_HART_START, hartid, start_pa, opaque).error;
}

/* send_ipi(hart_mask, hart_mask_base): bit i of the mask is hart base + i. */
long sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base)
{
	return sbi_ecall(SBI_EXT_IPI, 0, hart_mask, hart_mask_base, 0).error;
}

/* SBI error codes in words (v2.0 spec, table 1), for the one-line reports. */
#if !RISCV_HAVE_SBI
long sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_mask_base,
			   unsigned long start, unsigned long size)
{
	(void)hart_mask, (void)hart_mask_base, (void)start, (void)size;
	return SBI_ERR_NOT_SUPPORTED;
}

long sbi_remote_fence_i(unsigned long hart_mask, unsigned long hart_mask_base)
{
	(void)hart_mask, (void)hart_mask_base;
	return SBI_ERR_NOT_SUPPORTED;
}
#endif

const char *sbi_err_name(long err)
{
	static const char *const names[] = {
		"success", "failed", "not supported", "invalid parameter", "denied",
		"invalid address", "already available", "already started", "already stopped",
	};

	return err <= 0 && -err < (long)ARRAY_SIZE(names) ? names[-err] : "unknown error";
}
