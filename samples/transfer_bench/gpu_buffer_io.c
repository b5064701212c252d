#include "gpu_buffer_io.h"

#include <string.h>

#include "gpu_submit.h"

static VkResult ensure_staging(const struct bench_device *dev, VkDeviceSize size,
                               struct gpu_buffer *staging)
{
   if (staging->buffer != VK_NULL_HANDLE && staging->size >= size)
      return VK_SUCCESS;
   gpu_buffer_destroy(dev, staging);
   return gpu_buffer_create(dev, GPU_MEMORY_HOST_VISIBLE, size, staging);
}

struct whole_buffer_copy {
   VkBuffer src;
   VkBuffer dst;
   VkDeviceSize size;
};

static void record_whole_buffer_copy(VkCommandBuffer cmd, void *user)
{
   const struct whole_buffer_copy *copy = user;
   const VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = copy->size};
   vkCmdCopyBuffer(cmd, copy->src, copy->dst, 1, &region);
}

VkResult gpu_buffer_write(const struct bench_device *dev, const struct gpu_buffer *buffer,
                          struct gpu_buffer *staging, const void *data)
{
   /* Host writes to coherent memory need no flush: vkQueueSubmit makes them
    * visible to the work it submits. */
   if (buffer->mapped) {
      memcpy(buffer->mapped, data, buffer->size);
      return VK_SUCCESS;
   }
   VkResult result = ensure_staging(dev, buffer->size, staging);
   if (result != VK_SUCCESS)
      return result;
   memcpy(staging->mapped, data, buffer->size);
   struct whole_buffer_copy copy = {staging->buffer, buffer->buffer, buffer->size};
   return gpu_submit_and_wait(dev, record_whole_buffer_copy, &copy, NULL);
}

VkResult gpu_buffer_host_view(const struct bench_device *dev, const struct gpu_buffer *buffer,
                              struct gpu_buffer *staging, const void **contents)
{
   /* Every submission ends with gpu_cmd_publish_transfer_writes and is waited
    * for, so device writes are already visible to the host here. */
   if (buffer->mapped) {
      *contents = buffer->mapped;
      return VK_SUCCESS;
   }
   VkResult result = ensure_staging(dev, buffer->size, staging);
   if (result != VK_SUCCESS)
      return result;
   struct whole_buffer_copy copy = {buffer->buffer, staging->buffer, buffer->size};
   result = gpu_submit_and_wait(dev, record_whole_buffer_copy, &copy, NULL);
   if (result == VK_SUCCESS)
      *contents = staging->mapped;
   return result;
}
