/*
 * start.c - from the kernel's initial stack to main(), after lib/crt0_<arch>.S has passed the
 * stack pointer here.
 *
 * The stack as Linux's create_elf_tables() lays it out, from the lowest address (word-sized
 * entries): argc; argv[0..argc-1]; NULL; envp[0..]; NULL; then the auxiliary vector's
 * (type, value) pairs ending with AT_NULL.  The strings they point to sit above.
 *
 * The program's thread-local storage (picolibc's errno lives there) is the linker's TLS
 * template in place: the .tdata/.tbss the kernel loaded at __tls_base from the file and the
 * zeroed bss (user/user.ld), so only the thread pointer needs setting.  RISC-V's thread pointer
 * (tp) points at the block itself and is a user register; ARM's (TPIDRURO, read by picolibc's
 * __aeabi_read_tp) sits __arm32_tls_tcb_offset below the block and only the kernel can write
 * it, with the ARM-private set_tls call, as Linux does for glibc.  A kernel that refuses it
 * gets a one-line message and exit status 127: errno would point at a wild address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime.h"
#include "unistd_nr.h"

extern char **environ;
extern char __tls_base[];
#if defined(__arm__)
extern char __arm32_tls_tcb_offset[];	/* a linker-script constant: its address is the value */
#endif

int main(int argc, char **argv, char **envp);
void __libc_init_array(void);

#if defined(__arm__)
static void say(const char *s)
{
	__syscall3(__NR_write, 2, s, strlen(s));
}
#endif

static void set_thread_pointer(const char *prog)
{
#if defined(__arm__)
	long r = __syscall1(__ARM_NR_set_tls, __tls_base - (uintptr_t)__arm32_tls_tcb_offset);

	if (r < 0) {
		say(prog);
		say(": the kernel refused ARM's set_tls (0xf0005): no thread pointer for errno\n");
		for (;;)
			__syscall1(__NR_exit_group, 127);
	}
#else
	(void)prog;
	__asm__ volatile("mv tp, %0" : : "r"(__tls_base));
#endif
}

noreturn void __tinymm_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;

	set_thread_pointer(argc > 0 && argv[0] ? argv[0] : "(no argv[0])");
	environ = envp;
	__libc_init_array();
	atexit(__tinymm_stdio_exit);
	exit(main(argc, argv, envp));
}
