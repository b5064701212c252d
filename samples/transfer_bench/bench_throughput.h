/* The shared frame of the copy, fill and update benchmarks: for each memory
 * kind and size, repeat "prepare untimed, run timed, check the destination",
 * then report medians next to the CPU doing the same job. */
#ifndef TRANSFER_BENCH_THROUGHPUT_H
#define TRANSFER_BENCH_THROUGHPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_context.h"
#include "gpu_buffer.h"

/* The buffer one measurement writes, and what an operation needs to fill it. */
struct throughput_target {
   const struct bench_device *dev;
   enum gpu_memory_kind kind;
   size_t size;
   uint32_t seed;              /* distinct per operation, memory kind and size */
   struct gpu_buffer dst;      /* written by every timed run, then checked */
   struct gpu_buffer *staging; /* for gpu_buffer_write / gpu_buffer_host_view */
};

struct throughput_op {
   const char *name;          /* report and CSV "operation" */
   const char *cpu_reference; /* "memcpy" or "memset" */
   uint32_t seed_base;        /* distinct per operation */
   double (*cpu_seconds)(size_t size, uint32_t runs);
   /* Sets up sources (untimed). *state is released by release() even when
    * prepare fails. */
   VkResult (*prepare)(struct throughput_target *target, void **state);
   /* Untimed work before run `run`: new data, or poison in the destination,
    * so that every run must write the destination afresh to pass check(). */
   VkResult (*before_run)(struct throughput_target *target, void *state, uint32_t run);
   /* The measured commands. */
   void (*record)(VkCommandBuffer cmd, const struct throughput_target *target, void *state);
   /* Whether `contents` (target->size bytes of dst) is what run `run` should
    * have written; prints the mismatch under the name `what` if not. */
   bool (*check)(const struct throughput_target *target, void *state, uint32_t run,
                 const void *contents, const char *what);
   void (*release)(struct throughput_target *target, void *state);
};

extern const struct throughput_op bench_copy_op;
extern const struct throughput_op bench_fill_op;
extern const struct throughput_op bench_update_op;

/* Measures `op` for every memory kind and every size of the options. */
enum bench_status bench_throughput_run(struct bench_context *ctx, const struct throughput_op *op);

#endif
