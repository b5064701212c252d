#include "bench_latency.h"

#include <stdlib.h>
#include <string.h>

#include "data_pattern.h"
#include "gpu_buffer.h"
#include "gpu_submit.h"
#include "sample_stats.h"
#include "vk_check.h"

/* Tiny on purpose: the time is then all submission, scheduling and
 * signalling overhead, not work. */
#define LATENCY_FILL_BYTES ((VkDeviceSize)64)
#define LATENCY_FILL_WORD 0x1a7e1a7eu

/* Host-visible so each submission can be checked straight from the mapping,
 * without a readback submission in between. */
static const enum gpu_memory_kind LATENCY_MEMORY = GPU_MEMORY_HOST_VISIBLE;

static VkResult record_fill(VkCommandBuffer cmd, VkBuffer dst)
{
   const VkCommandBufferBeginInfo begin_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
   };
   VkResult result = vkBeginCommandBuffer(cmd, &begin_info);
   if (vk_failed(result, "vkBeginCommandBuffer"))
      return result;
   vkCmdFillBuffer(cmd, dst, 0, LATENCY_FILL_BYTES, LATENCY_FILL_WORD);
   gpu_cmd_publish_transfer_writes(cmd);
   result = vkEndCommandBuffer(cmd);
   vk_failed(result, "vkEndCommandBuffer");
   return result;
}

static enum bench_status submit_repeatedly(struct bench_context *ctx, VkCommandBuffer cmd,
                                           const struct gpu_buffer *target, double *samples)
{
   uint32_t submits = ctx->options->latency_submits;
   for (uint32_t i = 0; i < submits; i++) {
      /* Cleared before every submission so every one must write to pass. */
      memset(target->mapped, 0, LATENCY_FILL_BYTES);
      VkResult result = gpu_queue_submit_and_wait(ctx->dev, cmd, &samples[i]);
      if (result != VK_SUCCESS)
         return bench_status_from_vk(result);
      char what[64];
      snprintf(what, sizeof(what), "tiny fill, submission %u", i + 1);
      if (!pattern_matches_word(target->mapped, LATENCY_FILL_BYTES, LATENCY_FILL_WORD, what))
         return BENCH_CHECK_FAILED;
   }
   double median = stats_median(samples, submits);
   double p99 = stats_percentile(samples, submits, 99.0);
   results_add_latency(ctx->results, "vkCmdFillBuffer", gpu_memory_kind_name(LATENCY_MEMORY),
                       LATENCY_FILL_BYTES, submits, median, p99);
   return BENCH_OK;
}

enum bench_status bench_latency_run(struct bench_context *ctx)
{
   const struct bench_device *dev = ctx->dev;
   struct gpu_buffer target = {0};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   double *samples = calloc(ctx->options->latency_submits, sizeof(*samples));
   if (!samples)
      return BENCH_DEVICE_FAILED;

   VkResult result = gpu_buffer_create(dev, LATENCY_MEMORY, LATENCY_FILL_BYTES, &target);
   if (result == VK_SUCCESS) {
      const VkCommandBufferAllocateInfo allocate_info = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
          .commandPool = dev->command_pool,
          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
          .commandBufferCount = 1,
      };
      result = vkAllocateCommandBuffers(dev->device, &allocate_info, &cmd);
      vk_failed(result, "vkAllocateCommandBuffers");
   }
   /* Recorded once and resubmitted: the figure is about submission, and
    * recording is measured separately. */
   if (result == VK_SUCCESS)
      result = record_fill(cmd, target.buffer);

   enum bench_status status = bench_status_from_vk(result);
   if (status == BENCH_OK)
      status = submit_repeatedly(ctx, cmd, &target, samples);
   else if (status == BENCH_SKIPPED)
      fprintf(ctx->results->report, "latency skipped: out of memory\n");

   if (cmd != VK_NULL_HANDLE && status != BENCH_DEVICE_FAILED)
      vkFreeCommandBuffers(dev->device, dev->command_pool, 1, &cmd);
   gpu_buffer_destroy(dev, &target);
   free(samples);
   return status;
}
