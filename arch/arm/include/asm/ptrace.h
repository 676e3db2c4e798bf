/*
 * asm/ptrace.h - a user task's registers as the exception entry saved them (ARMv7-A), v6.10's
 * layout (arch/arm/include/uapi/asm/ptrace.h): r0-r12, sp, lr, pc, cpsr, ORIG_r0, 72 bytes at
 * the very top of the task's kernel stack (current_pt_regs(); arch_context_init() leaves the
 * room).  entry-user.S fills it on every exception taken in USR mode (sp and lr are USR's
 * banked copies) and returns to user mode from it; ORIG_r0 is r0 as the system call found it
 * (the result overwrites r0), -1 for any other entry.  The offsets are entry-user.S's S_*.
 */
#ifndef ASM_ARM_PTRACE_H
#define ASM_ARM_PTRACE_H

#define USR_MODE	0x00000010
#define SVC_MODE	0x00000013
#define MODE_MASK	0x0000001f
#define PSR_T_BIT	0x00000020
#define PSR_F_BIT	0x00000040
#define PSR_A_BIT	0x00000100
#define PSR_E_BIT	0x00000200
#define PSR_J_BIT	0x01000000

#ifndef __ASSEMBLER__
#define PSR_I_BIT	0x80UL		/* as asm/irqflags.h */

struct pt_regs {
	unsigned long uregs[18];
};

#define ARM_cpsr	uregs[16]
#define ARM_pc		uregs[15]
#define ARM_lr		uregs[14]
#define ARM_sp		uregs[13]
#define ARM_ip		uregs[12]
#define ARM_fp		uregs[11]
#define ARM_r7		uregs[7]
#define ARM_r5		uregs[5]
#define ARM_r4		uregs[4]
#define ARM_r3		uregs[3]
#define ARM_r2		uregs[2]
#define ARM_r1		uregs[1]
#define ARM_r0		uregs[0]
#define ARM_ORIG_r0	uregs[17]

#define user_mode(regs)		(((regs)->ARM_cpsr & MODE_MASK) == USR_MODE)
#define thumb_mode(regs)	(((regs)->ARM_cpsr & PSR_T_BIT) != 0)
#define instruction_pointer(regs)	((regs)->ARM_pc)
#endif

#define S_R0		0
#define S_SP		52
#define S_LR		56
#define S_PC		60
#define S_PSR		64
#define S_OLD_R0	68
#define PT_REGS_SIZE	72

#endif
