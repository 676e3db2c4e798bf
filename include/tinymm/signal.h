/*
 * signal.h - the signals tinymm raises, with Linux's numbers (the same on ARM and RISC-V) and
 * si_code values.  tinymm delivers no signal to a handler: a signal it raises kills the task
 * (Linux's default action for each of these), and the status its waiter sees is Linux's wait
 * status: the signal number in the low 7 bits, as WTERMSIG reads it.
 */
#ifndef TINYMM_SIGNAL_H
#define TINYMM_SIGNAL_H

#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGSEGV		11
#define SIGCHLD		17	/* a child ended: the exit signal fork asks for */

#define ILL_ILLOPC	1	/* illegal opcode */
#define BUS_ADRALN	1	/* invalid address alignment */
#define BUS_ADRERR	2	/* non-existent physical address */
#define BUS_MCEERR_AR	4	/* hardware memory error consumed: action required */
#define BUS_MCEERR_AO	5	/* hardware memory error detected: action optional */
#define SEGV_MAPERR	1	/* address not mapped to an object */
#define SEGV_ACCERR	2	/* invalid permissions for a mapped object */
#define CLD_EXITED	1	/* SIGCHLD: the child called exit */
#define CLD_KILLED	2	/* SIGCHLD: the child was killed */

/* "SIGSEGV" for 11; "SIG?" for a number tinymm does not name (kernel/signal.c). */
const char *signal_name(int sig);

/*
 * v6.10's force_sig_mceerr() for the current task in a system call (memory_failure()'s kill of
 * an action-required caller, docs/hwpoison.md): SIGBUS with @code and @addr, pending until
 * force_sig_deliver_pending() at the end of the call, which ends the task with it ("<comm>[<pid>]:
 * unhandled signal 7 code 0x<code> at 0x<addr>": tinymm delivers no signal to a handler).
 * force_sig_deliver_pending() returns if nothing is pending.
 */
void force_sig_mceerr(int code, unsigned long addr);
void force_sig_deliver_pending(void);

#endif
