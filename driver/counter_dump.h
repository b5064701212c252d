/* VKPPU_COUNTERS_FILE: every hardware counter of a device, written as CSV
 * when the device is destroyed, so an architect can run an unmodified
 * Vulkan program and read what the chip did (docs/counters.md). */
#ifndef DRV_COUNTER_DUMP_H
#define DRV_COUNTER_DUMP_H

struct ppu_gpu;

/* When VKPPU_COUNTERS_FILE is set ("-" is stderr), writes
 * "counter,value,unit" and one row per counter of the chip to it,
 * replacing the file. A file that cannot be written is reported on stderr;
 * nothing else happens. */
void drv_counters_dump_from_env(struct ppu_gpu *gpu);

#endif
