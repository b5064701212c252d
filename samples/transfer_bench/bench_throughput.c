#include "bench_throughput.h"

#include <stdio.h>
#include <stdlib.h>

#include "gpu_buffer_io.h"
#include "gpu_submit.h"
#include "sample_stats.h"

static const enum gpu_memory_kind MEMORY_KINDS[] = {GPU_MEMORY_DEVICE_LOCAL,
                                                    GPU_MEMORY_HOST_VISIBLE};

struct timed_record {
   const struct throughput_op *op;
   const struct throughput_target *target;
   void *state;
};

static void record_op(VkCommandBuffer cmd, void *user)
{
   const struct timed_record *timed = user;
   timed->op->record(cmd, timed->target, timed->state);
}

/* Runs the timed repetitions; fills gpu[] and host[] with one sample per run. */
static enum bench_status run_repetitions(const struct bench_context *ctx,
                                         const struct throughput_op *op,
                                         struct throughput_target *target, void *state, double *gpu,
                                         double *host)
{
   const struct bench_device *dev = ctx->dev;
   struct timed_record timed = {op, target, state};
   for (uint32_t run = 0; run < ctx->options->runs; run++) {
      VkResult result = op->before_run(target, state, run);
      struct gpu_timing timing = {0};
      if (result == VK_SUCCESS)
         result = gpu_submit_and_wait(dev, record_op, &timed, &timing);
      const void *contents = NULL;
      if (result == VK_SUCCESS)
         result = gpu_buffer_host_view(dev, &target->dst, target->staging, &contents);
      if (result != VK_SUCCESS)
         return bench_status_from_vk(result);

      char size[32], what[128];
      results_format_size(target->size, size, sizeof(size));
      snprintf(what, sizeof(what), "%s %s %s, run %u", op->name, gpu_memory_kind_name(target->kind),
               size, run + 1);
      if (!op->check(target, state, run, contents, what))
         return BENCH_CHECK_FAILED;
      gpu[run] = timing.gpu_seconds;
      host[run] = timing.host_seconds;
   }
   return BENCH_OK;
}

static enum bench_status measure(struct bench_context *ctx, const struct throughput_op *op,
                                 enum gpu_memory_kind kind, size_t size, double cpu_seconds)
{
   const struct bench_device *dev = ctx->dev;
   uint32_t runs = ctx->options->runs;
   struct gpu_buffer staging = {0};
   struct throughput_target target = {
       .dev = dev,
       .kind = kind,
       .size = size,
       /* Different data for every row, so no row can pass on another's. */
       .seed = op->seed_base ^ ((uint32_t)kind << 28) ^ (uint32_t)size,
       .staging = &staging,
   };
   void *state = NULL;
   double *gpu = calloc(runs, sizeof(*gpu));
   double *host = calloc(runs, sizeof(*host));
   enum bench_status status = BENCH_DEVICE_FAILED;
   if (!gpu || !host) {
      fprintf(stderr, "transfer_bench: out of host memory for %u samples\n", runs);
   } else {
      status = bench_status_from_vk(gpu_buffer_create(dev, kind, size, &target.dst));
      if (status == BENCH_OK)
         status = bench_status_from_vk(op->prepare(&target, &state));
      if (status == BENCH_OK)
         status = run_repetitions(ctx, op, &target, state, gpu, host);
   }

   if (status == BENCH_OK) {
      const struct throughput_sample sample = {
          .operation = op->name,
          .memory = gpu_memory_kind_name(kind),
          .size_bytes = size,
          .runs = runs,
          .gpu_seconds = bench_device_has_timestamps(dev) ? stats_median(gpu, runs) : -1.0,
          .host_seconds = stats_median(host, runs),
          .cpu_reference = op->cpu_reference,
          .cpu_seconds = cpu_seconds,
      };
      results_add_throughput(ctx->results, &sample);
   } else if (status == BENCH_SKIPPED) {
      results_throughput_skipped(ctx->results, op->name, gpu_memory_kind_name(kind), size,
                                 "out of memory");
   }

   op->release(&target, state);
   gpu_buffer_destroy(dev, &target.dst);
   gpu_buffer_destroy(dev, &staging);
   free(host);
   free(gpu);
   return status;
}

enum bench_status bench_throughput_run(struct bench_context *ctx, const struct throughput_op *op)
{
   const struct bench_options *options = ctx->options;
   /* The CPU reference depends only on the size, so both memory kinds share it. */
   double cpu_seconds[BENCH_MAX_SIZES];
   for (size_t s = 0; s < options->size_count; s++)
      cpu_seconds[s] = op->cpu_seconds(options->sizes[s], options->runs);

   enum bench_status worst = BENCH_OK;
   for (size_t k = 0; k < sizeof(MEMORY_KINDS) / sizeof(MEMORY_KINDS[0]); k++) {
      for (size_t s = 0; s < options->size_count; s++) {
         enum bench_status status =
             measure(ctx, op, MEMORY_KINDS[k], options->sizes[s], cpu_seconds[s]);
         worst = bench_status_worst(worst, status);
         if (status == BENCH_DEVICE_FAILED)
            return worst;
      }
   }
   return worst;
}
