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
#define SEGV_MAPERR	1	/* address not mapped to an object */
#define SEGV_ACCERR	2	/* invalid permissions for a mapped object */
#define CLD_EXITED	1	/* SIGCHLD: the child called exit */
#define CLD_KILLED	2	/* SIGCHLD: the child was killed */

/* "SIGSEGV" for 11; "SIG?" for a number tinymm does not name (kernel/signal.c). */
const char *signal_name(int sig);

#endif
