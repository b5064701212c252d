/* What this machine's CPU achieves on the same sizes: the yardstick the
 * device's figures are compared with. */
#ifndef TRANSFER_BENCH_CPU_REFERENCE_H
#define TRANSFER_BENCH_CPU_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

/* Median seconds of one memcpy / memset of `size` bytes over `runs` runs;
 * negative if the host buffers could not be allocated or the copy came out
 * wrong. */
double cpu_reference_memcpy_seconds(size_t size, uint32_t runs);
double cpu_reference_memset_seconds(size_t size, uint32_t runs);

#endif
