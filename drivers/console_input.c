/*
 * console_input.c - the console reader sleeps instead of polling: the UART's receive interrupt
 * (from the device tree) wakes it.  The handler turns the receive interrupt off and wakes the
 * reader; the reader drains the FIFO, then turns it back on before sleeping, so a byte that
 * arrives in between raises the (level) interrupt at once and nothing is lost.  Without an
 * interrupt the reader polls every 10 ms.
 * Locking: rx_ready is written by the handler and read by the one reader inside wait_event's
 * check, which runs after the task state is set, so a wake-up is never missed; the wait queue
 * has its own lock.
 */
#include "tinymm/console.h"
#include "tinymm/delay.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"
#include "tinymm/wait.h"

static DECLARE_WAIT_QUEUE_HEAD(console_wq);
static unsigned int console_irq;
static volatile bool rx_ready;

static irqreturn_t console_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	console_rx_irq(false);
	rx_ready = true;
	wake_up(&console_wq);
	return IRQ_HANDLED;
}

void console_irq_init(const struct dt *dt, int node)
{
	unsigned int irq = node >= 0 ? irq_of_parse_and_map(dt, node, 0) : 0;

	if (!irq || request_irq(irq, console_interrupt, 0, "console", NULL)) {
		pr_warn("console: no receive interrupt, input is polled\n");
		return;
	}
	console_irq = irq;
	pr_info("console: receive interrupt on irq %u\n", irq);
}

int console_getc_wait(void)
{
	for (;;) {
		int c = console_getc();
		if (c >= 0)
			return c;
		if (!console_irq) {
			msleep(10);
			continue;
		}
		rx_ready = false;
		console_rx_irq(true);
		wait_event_interruptible(console_wq, rx_ready);
	}
}
