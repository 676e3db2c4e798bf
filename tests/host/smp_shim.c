/*
 * smp_shim.c - TEMPORARY: the CPU masks for the host's one CPU, until kernel/cpu.c (the lead's
 * smpbase) holds them for host builds too.
 */
#include "tinymm/smp.h"

struct cpumask __cpu_possible_mask = { 1 }, __cpu_online_mask = { 1 };
unsigned int nr_cpu_ids = 1;
unsigned long __cpu_logical_map[NR_CPUS];
