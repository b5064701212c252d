/* VkQueue: vkQueueSubmit, vkQueueSubmit2 and vkQueueWaitIdle.
 *
 * Both submit forms are turned into the driver's neutral description
 * (struct drv_batch: waits, command buffer segments, signals) and handed to
 * the queue's channel, which writes the GPFIFO entries (driver/channel.h).
 * Semaphore values are decided here, in submission order, because a binary
 * semaphore's wait value depends on the signals submitted before it. */
#include <stdio.h>

#include "channel.h"
#include "drv_device.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_queue.h"
#include "vkppu_sync.h"
#include "wait.h"

VkResult vkppu_queue_create(struct vkppu_device *dev, uint32_t family, uint32_t index,
                            VkDeviceQueueCreateFlags flags, struct vkppu_queue **out)
{
   struct vkppu_queue *q =
       vkppu_device_zalloc(dev, NULL, sizeof(*q), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!q)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&q->base, VK_OBJECT_TYPE_QUEUE, dev);
   q->family = family;
   q->index = index;
   q->flags = flags;
   char name[32];
   snprintf(name, sizeof(name), "queue %u.%u", family, index);
   enum drv_result r = drv_channel_create(dev->drv, name, &q->channel);
   if (r != DRV_SUCCESS) {
      vkppu_object_finish(&q->base);
      vkppu_device_free(dev, NULL, q);
      return vkppu_result_from_drv(r);
   }
   *out = q;
   return VK_SUCCESS;
}

void vkppu_queue_destroy(struct vkppu_device *dev, struct vkppu_queue *queue)
{
   if (!queue)
      return;
   drv_channel_destroy(queue->channel);
   vkppu_object_finish(&queue->base);
   vkppu_device_free(dev, NULL, queue);
}

VkResult vkppu_queue_wait_idle(struct vkppu_queue *queue)
{
   struct vkppu_device *dev = queue->base.device;
   return vkppu_device_result(dev, drv_channel_wait_idle(queue->channel, DRV_DEADLINE_NEVER));
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_QueueWaitIdle(VkQueue queue)
{
   return vkppu_queue_wait_idle(vkppu_queue_from_handle(queue));
}

/* The arrays one submission needs, in one allocation. */
struct submission {
   struct drv_batch *batches;
   struct drv_sem_op *ops;
   struct drv_cmd_stream *streams;
   void *block;
};

static VkResult submission_alloc(struct vkppu_device *dev, struct submission *s,
                                 uint64_t batch_count, uint64_t op_count, uint64_t stream_count)
{
   size_t bytes = batch_count * sizeof(*s->batches) + op_count * sizeof(*s->ops) +
                  stream_count * sizeof(*s->streams);
   s->block =
       bytes ? vkppu_device_zalloc(dev, NULL, bytes, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND) : NULL;
   if (bytes && !s->block)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->batches = s->block;
   s->ops = (struct drv_sem_op *)(void *)(s->batches + batch_count);
   s->streams = (struct drv_cmd_stream *)(void *)(s->ops + op_count);
   return VK_SUCCESS;
}

static struct drv_cmd_stream stream_of(VkCommandBuffer handle)
{
   struct vkppu_command_buffer *cmd = vkppu_command_buffer_from_handle(handle);
   return (struct drv_cmd_stream){
       .segments = cmd->pb.segments,
       .segment_count = cmd->pb.segment_count,
       .jobs = cmd->jobs,
       .job_count = cmd->job_count,
       .owner = (uint64_t)(uintptr_t)handle,
       .label = cmd->base.debug_name,
   };
}

/* Sends the batches and attaches the fence. */
static VkResult submit(struct vkppu_queue *queue, struct submission *s, uint32_t batch_count,
                       VkFence fence_handle)
{
   struct vkppu_device *dev = queue->base.device;
   struct vkppu_fence *fence = vkppu_fence_from_handle(fence_handle);
   VkResult result = VK_SUCCESS;
   if (batch_count || fence) {
      uint64_t seqno = 0;
      enum drv_result r = drv_channel_submit(queue->channel, s->batches, batch_count, &seqno);
      result = vkppu_device_result(dev, r);
      if (result == VK_SUCCESS && fence)
         vkppu_fence_attach(dev, fence, queue->channel, seqno);
   }
   vkppu_device_free(dev, NULL, s->block);
   return result;
}

static const VkTimelineSemaphoreSubmitInfo *find_timeline_info(const void *next)
{
   for (const VkBaseInStructure *s = next; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
         return (const VkTimelineSemaphoreSubmitInfo *)(const void *)s;
   }
   return NULL;
}

static uint64_t value_at(const uint64_t *values, uint32_t count, uint32_t i)
{
   return values && i < count ? values[i] : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_QueueSubmit(VkQueue queue_handle, uint32_t submitCount,
                                                 const VkSubmitInfo *pSubmits, VkFence fence)
{
   struct vkppu_queue *queue = vkppu_queue_from_handle(queue_handle);
   struct vkppu_device *dev = queue->base.device;
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;

   uint64_t ops = 0, streams = 0;
   for (uint32_t i = 0; i < submitCount; i++) {
      ops += (uint64_t)pSubmits[i].waitSemaphoreCount + pSubmits[i].signalSemaphoreCount;
      streams += pSubmits[i].commandBufferCount;
   }
   struct submission s;
   r = submission_alloc(dev, &s, submitCount, ops, streams);
   if (r != VK_SUCCESS)
      return r;

   struct drv_sem_op *op = s.ops;
   struct drv_cmd_stream *stream = s.streams;
   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo *si = &pSubmits[i];
      const VkTimelineSemaphoreSubmitInfo *tl = find_timeline_info(si->pNext);
      struct drv_batch *b = &s.batches[i];

      b->waits = op;
      b->wait_count = si->waitSemaphoreCount;
      for (uint32_t w = 0; w < si->waitSemaphoreCount; w++, op++) {
         struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(si->pWaitSemaphores[w]);
         uint64_t value =
             tl ? value_at(tl->pWaitSemaphoreValues, tl->waitSemaphoreValueCount, w) : 0;
         *op = (struct drv_sem_op){sem->slot.va, vkppu_semaphore_wait_value(sem, value)};
      }
      b->streams = stream;
      b->stream_count = si->commandBufferCount;
      for (uint32_t c = 0; c < si->commandBufferCount; c++)
         *stream++ = stream_of(si->pCommandBuffers[c]);
      b->signals = op;
      b->signal_count = si->signalSemaphoreCount;
      for (uint32_t g = 0; g < si->signalSemaphoreCount; g++, op++) {
         struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(si->pSignalSemaphores[g]);
         uint64_t value =
             tl ? value_at(tl->pSignalSemaphoreValues, tl->signalSemaphoreValueCount, g) : 0;
         *op = (struct drv_sem_op){sem->slot.va, vkppu_semaphore_signal_value(sem, value)};
      }
   }
   return submit(queue, &s, submitCount, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_QueueSubmit2(VkQueue queue_handle, uint32_t submitCount,
                                                  const VkSubmitInfo2 *pSubmits, VkFence fence)
{
   struct vkppu_queue *queue = vkppu_queue_from_handle(queue_handle);
   struct vkppu_device *dev = queue->base.device;
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;

   uint64_t ops = 0, streams = 0;
   for (uint32_t i = 0; i < submitCount; i++) {
      ops += (uint64_t)pSubmits[i].waitSemaphoreInfoCount + pSubmits[i].signalSemaphoreInfoCount;
      streams += pSubmits[i].commandBufferInfoCount;
   }
   struct submission s;
   r = submission_alloc(dev, &s, submitCount, ops, streams);
   if (r != VK_SUCCESS)
      return r;

   struct drv_sem_op *op = s.ops;
   struct drv_cmd_stream *stream = s.streams;
   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo2 *si = &pSubmits[i];
      struct drv_batch *b = &s.batches[i];
      b->waits = op;
      b->wait_count = si->waitSemaphoreInfoCount;
      for (uint32_t w = 0; w < si->waitSemaphoreInfoCount; w++, op++) {
         const VkSemaphoreSubmitInfo *info = &si->pWaitSemaphoreInfos[w];
         struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(info->semaphore);
         *op = (struct drv_sem_op){sem->slot.va, vkppu_semaphore_wait_value(sem, info->value)};
      }
      b->streams = stream;
      b->stream_count = si->commandBufferInfoCount;
      for (uint32_t c = 0; c < si->commandBufferInfoCount; c++)
         *stream++ = stream_of(si->pCommandBufferInfos[c].commandBuffer);
      b->signals = op;
      b->signal_count = si->signalSemaphoreInfoCount;
      for (uint32_t g = 0; g < si->signalSemaphoreInfoCount; g++, op++) {
         const VkSemaphoreSubmitInfo *info = &si->pSignalSemaphoreInfos[g];
         struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(info->semaphore);
         *op = (struct drv_sem_op){sem->slot.va, vkppu_semaphore_signal_value(sem, info->value)};
      }
   }
   return submit(queue, &s, submitCount, fence);
}
