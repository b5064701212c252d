#include "gpu_submit.h"

#include <stdbool.h>

#include "host_clock.h"
#include "vk_check.h"

void gpu_cmd_publish_transfer_writes(VkCommandBuffer cmd)
{
   const VkMemoryBarrier barrier = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask =
           VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                        0, NULL, 0, NULL);
}

VkResult gpu_queue_submit_and_wait(const struct bench_device *dev, VkCommandBuffer cmd,
                                   double *host_seconds)
{
   const VkSubmitInfo submit = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   double start = host_clock_seconds();
   VkResult result = vkQueueSubmit(dev->queue, 1, &submit, dev->fence);
   if (vk_failed(result, "vkQueueSubmit"))
      return result;
   result = vkWaitForFences(dev->device, 1, &dev->fence, VK_TRUE, GPU_WAIT_TIMEOUT_NS);
   double end = host_clock_seconds();
   if (vk_failed(result, "vkWaitForFences"))
      return result;
   if (host_seconds)
      *host_seconds = end - start;
   result = vkResetFences(dev->device, 1, &dev->fence);
   vk_failed(result, "vkResetFences");
   return result;
}

/* Seconds between the two timestamps of the pool. */
static VkResult read_gpu_seconds(const struct bench_device *dev, double *seconds)
{
   uint64_t ticks[2];
   VkResult result =
       vkGetQueryPoolResults(dev->device, dev->timestamp_pool, 0, 2, sizeof(ticks), ticks,
                             sizeof(ticks[0]), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
   if (vk_failed(result, "vkGetQueryPoolResults"))
      return result;
   /* Only timestampValidBits bits count; masking the difference also gives the
    * right answer when the counter wrapped between the two reads. */
   uint64_t mask =
       dev->timestamp_valid_bits >= 64 ? UINT64_MAX : (1ull << dev->timestamp_valid_bits) - 1;
   uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
   *seconds = (double)elapsed * dev->timestamp_period_ns * 1e-9;
   return VK_SUCCESS;
}

/* Records `record` between the optional timestamps, then the barrier that
 * publishes its writes. */
static VkResult record_work(const struct bench_device *dev, VkCommandBuffer cmd, bool stamped,
                            gpu_record_fn record, void *user)
{
   const VkCommandBufferBeginInfo begin_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   VkResult result = vkBeginCommandBuffer(cmd, &begin_info);
   if (vk_failed(result, "vkBeginCommandBuffer"))
      return result;
   if (stamped) {
      /* Queries must be reset before they are written again; doing it in the
       * same command buffer keeps the reset off the host's timeline. */
      vkCmdResetQueryPool(cmd, dev->timestamp_pool, 0, 2);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, dev->timestamp_pool, 0);
   }
   record(cmd, user);
   if (stamped) {
      /* BOTTOM_OF_PIPE: written once all earlier commands have completed. */
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, dev->timestamp_pool, 1);
   }
   gpu_cmd_publish_transfer_writes(cmd);
   result = vkEndCommandBuffer(cmd);
   vk_failed(result, "vkEndCommandBuffer");
   return result;
}

VkResult gpu_submit_and_wait(const struct bench_device *dev, gpu_record_fn record, void *user,
                             struct gpu_timing *timing)
{
   const VkCommandBufferAllocateInfo allocate_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = dev->command_pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer cmd;
   VkResult result = vkAllocateCommandBuffers(dev->device, &allocate_info, &cmd);
   if (vk_failed(result, "vkAllocateCommandBuffers"))
      return result;

   bool stamped = timing && bench_device_has_timestamps(dev);
   result = record_work(dev, cmd, stamped, record, user);
   if (result != VK_SUCCESS) {
      vkFreeCommandBuffers(dev->device, dev->command_pool, 1, &cmd);
      return result;
   }
   double host_seconds = 0.0;
   result = gpu_queue_submit_and_wait(dev, cmd, &host_seconds);
   if (result != VK_SUCCESS) {
      /* The command buffer may still be pending, and freeing a pending one is
       * invalid; destroying the pool at exit reclaims it. */
      return result;
   }
   vkFreeCommandBuffers(dev->device, dev->command_pool, 1, &cmd);
   if (timing) {
      timing->host_seconds = host_seconds;
      timing->gpu_seconds = -1.0;
      if (stamped)
         result = read_gpu_seconds(dev, &timing->gpu_seconds);
   }
   return result;
}
