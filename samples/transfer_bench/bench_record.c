#include "bench_record.h"

#include <stdlib.h>

#include "gpu_buffer.h"
#include "host_clock.h"
#include "sample_stats.h"
#include "vk_check.h"

/* Small commands, as a renderer's per-object uploads and clears are; the
 * point is the per-command cost, not bytes. */
#define RECORD_COMMAND_BYTES ((VkDeviceSize)256)
/* Commands per command buffer: large, like a busy frame, yet bounded so no
 * driver has to hold a million commands in one buffer. */
#define RECORD_COMMANDS_PER_BUFFER 10000u
/* Copies read from a few source slots; every command of a command buffer
 * writes its own destination range, so the stream has no write-after-write
 * hazard that would need barriers between commands were it submitted. */
#define RECORD_SOURCE_SLOTS 64u
#define RECORD_SOURCE_BYTES (RECORD_SOURCE_SLOTS * RECORD_COMMAND_BYTES)
#define RECORD_DESTINATION_BYTES (RECORD_COMMANDS_PER_BUFFER * RECORD_COMMAND_BYTES)

enum recorded_command { RECORDED_COPY, RECORDED_FILL };

struct record_setup {
   VkCommandPool pool; /* reset as a whole between runs */
   VkCommandBuffer *buffers;
   uint32_t buffer_count;
   struct gpu_buffer src;
   struct gpu_buffer dst;
};

static void record_command(VkCommandBuffer cmd, const struct record_setup *setup,
                           enum recorded_command command, uint32_t index)
{
   VkDeviceSize src_offset = (index % RECORD_SOURCE_SLOTS) * RECORD_COMMAND_BYTES;
   VkDeviceSize dst_offset = (index % RECORD_COMMANDS_PER_BUFFER) * RECORD_COMMAND_BYTES;
   if (command == RECORDED_COPY) {
      const VkBufferCopy region = {src_offset, dst_offset, RECORD_COMMAND_BYTES};
      vkCmdCopyBuffer(cmd, setup->src.buffer, setup->dst.buffer, 1, &region);
   } else {
      vkCmdFillBuffer(cmd, setup->dst.buffer, dst_offset, RECORD_COMMAND_BYTES, index);
   }
}

/* One timed run: begin, record and end every command buffer. */
static VkResult record_all(const struct record_setup *setup, enum recorded_command command,
                           uint32_t commands, double *seconds)
{
   const VkCommandBufferBeginInfo begin_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   uint32_t recorded = 0;
   double start = host_clock_seconds();
   for (uint32_t b = 0; b < setup->buffer_count; b++) {
      VkCommandBuffer cmd = setup->buffers[b];
      VkResult result = vkBeginCommandBuffer(cmd, &begin_info);
      if (vk_failed(result, "vkBeginCommandBuffer"))
         return result;
      uint32_t end = recorded + RECORD_COMMANDS_PER_BUFFER;
      if (end > commands)
         end = commands;
      for (; recorded < end; recorded++)
         record_command(cmd, setup, command, recorded);
      /* Recording errors surface here, so a driver that fails the stream
       * cannot post a rate. */
      result = vkEndCommandBuffer(cmd);
      if (vk_failed(result, "vkEndCommandBuffer"))
         return result;
   }
   *seconds = host_clock_seconds() - start;
   return VK_SUCCESS;
}

static VkResult create_setup(const struct bench_device *dev, uint32_t commands,
                             struct record_setup *setup)
{
   VkResult result =
       gpu_buffer_create(dev, GPU_MEMORY_DEVICE_LOCAL, RECORD_SOURCE_BYTES, &setup->src);
   if (result == VK_SUCCESS)
      result =
          gpu_buffer_create(dev, GPU_MEMORY_DEVICE_LOCAL, RECORD_DESTINATION_BYTES, &setup->dst);
   if (result != VK_SUCCESS)
      return result;

   const VkCommandPoolCreateInfo pool_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = dev->queue_family,
   };
   result = vkCreateCommandPool(dev->device, &pool_info, NULL, &setup->pool);
   if (vk_failed(result, "vkCreateCommandPool"))
      return result;

   setup->buffer_count = (commands + RECORD_COMMANDS_PER_BUFFER - 1) / RECORD_COMMANDS_PER_BUFFER;
   setup->buffers = calloc(setup->buffer_count, sizeof(*setup->buffers));
   if (!setup->buffers)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   const VkCommandBufferAllocateInfo allocate_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = setup->pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = setup->buffer_count,
   };
   result = vkAllocateCommandBuffers(dev->device, &allocate_info, setup->buffers);
   vk_failed(result, "vkAllocateCommandBuffers");
   return result;
}

static void destroy_setup(const struct bench_device *dev, struct record_setup *setup)
{
   /* Destroying the pool frees its command buffers. */
   if (setup->pool != VK_NULL_HANDLE)
      vkDestroyCommandPool(dev->device, setup->pool, NULL);
   free(setup->buffers);
   gpu_buffer_destroy(dev, &setup->dst);
   gpu_buffer_destroy(dev, &setup->src);
}

static enum bench_status measure(struct bench_context *ctx, struct record_setup *setup,
                                 enum recorded_command command, double *samples)
{
   const struct bench_options *options = ctx->options;
   for (uint32_t run = 0; run < options->runs; run++) {
      /* Resetting the pool (not releasing its memory) is how an application
       * reuses command buffers frame after frame; it stays outside the time. */
      VkResult result = vkResetCommandPool(ctx->dev->device, setup->pool, 0);
      if (vk_failed(result, "vkResetCommandPool"))
         return bench_status_from_vk(result);
      result = record_all(setup, command, options->record_commands, &samples[run]);
      if (result != VK_SUCCESS)
         return bench_status_from_vk(result);
   }
   results_add_record(ctx->results,
                      command == RECORDED_COPY ? "vkCmdCopyBuffer" : "vkCmdFillBuffer",
                      RECORD_COMMAND_BYTES, options->record_commands, options->runs,
                      stats_median(samples, options->runs));
   return BENCH_OK;
}

enum bench_status bench_record_run(struct bench_context *ctx)
{
   const struct bench_device *dev = ctx->dev;
   struct record_setup setup = {0};
   double *samples = calloc(ctx->options->runs, sizeof(*samples));
   enum bench_status status =
       samples ? bench_status_from_vk(create_setup(dev, ctx->options->record_commands, &setup))
               : BENCH_DEVICE_FAILED;
   if (status == BENCH_OK)
      status = measure(ctx, &setup, RECORDED_COPY, samples);
   if (status == BENCH_OK)
      status = measure(ctx, &setup, RECORDED_FILL, samples);
   if (status == BENCH_SKIPPED)
      fprintf(ctx->results->report, "recording skipped: out of memory\n");
   destroy_setup(dev, &setup);
   free(samples);
   return status;
}
