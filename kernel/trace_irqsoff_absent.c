/*
 * trace_irqsoff_absent.c - the irqsoff tracer's command and option in a build without it
 * (CONFIG_IRQSOFF_TRACER off: the default presets).  Both say where the tracer is, in one line;
 * the tracer itself is kernel/trace_irqsoff.c, linked instead of this file in the
 * `<board>-irqsoff` builds (docs/irqsoff.md).
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

#define NOT_BUILT_IN	"irqsoff: not built in (make run IRQSOFF=1)"

/* A setter of its own: "1" says where the tracer is instead of setting anything. */
static int set_irqsoff(const char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -1;
	if (v[0] == '1')
		pr_warn(NOT_BUILT_IN "\n");
	return 0;
}
KPARAM(irqsoff, set_irqsoff,
       "1: the irqsoff tracer on from boot (docs/irqsoff.md); 0 (default): off");

static int cmd_irqsoff(int argc, char **argv)
{
	kprintf(NOT_BUILT_IN "\n");
	return 1;
}
SHELL_COMMAND(irqsoff, "[reset|top [n]|on|off|selftest]",
	      "longest irqs-off section: where it began and ended (docs/irqsoff.md)", cmd_irqsoff);
