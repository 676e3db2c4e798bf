/*
 * delay.h - waiting for a time: udelay()/ndelay()/mdelay() spin on the architected counter (for
 * short device waits; they work with interrupts masked), msleep() sleeps the thread (never from
 * atomic context: might_sleep() says so).  kernel/timer.c.
 */
#ifndef TINYMM_DELAY_H
#define TINYMM_DELAY_H

#include "kernel.h"

void ndelay(unsigned long nsecs);
void udelay(unsigned long usecs);
void mdelay(unsigned long msecs);
void msleep(unsigned int msecs);

#endif
