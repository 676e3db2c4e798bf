/*
 * cpu.c - which CPUs exist and which run (v6.10 keeps the masks in kernel/cpu.c too): the
 * possible and online masks, their count, and each logical CPU's hardware id.  The boot CPU is
 * possible and online from the start; kernel/smp.c adds the others from the device tree as
 * they come up.  Here alone so that code which only asks (the scheduler, host builds with one
 * CPU) needs nothing of the SMP bring-up.
 * Locking: bits are set and cleared atomically (cpumask_set_cpu); readers take a snapshot.
 */
#include "tinymm/smp.h"

struct cpumask __cpu_possible_mask = { 1 }, __cpu_online_mask = { 1 };
unsigned int nr_cpu_ids = 1;
unsigned long __cpu_logical_map[NR_CPUS];
