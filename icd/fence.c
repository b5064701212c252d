/* VkFence: host-side state plus "the queue's counter has reached seqno"
 * (vkppu_sync.h). Waits sleep on the device's interrupt-driven wait
 * (driver/wait.h), so a fence wait costs no CPU while the GPU works. */
#include "channel.h"
#include "drv_device.h"
#include "vkppu_sync.h"
#include "wait.h"

void vkppu_fence_attach(struct vkppu_device *dev, struct vkppu_fence *fence,
                        struct drv_channel *channel, uint64_t seqno)
{
   atomic_store_explicit(&fence->signaled, false, memory_order_relaxed);
   atomic_store_explicit(&fence->seqno, seqno, memory_order_relaxed);
   atomic_store_explicit(&fence->channel, channel, memory_order_release);
   /* Another thread may already wait on this fence (vkWaitForFences on an
    * unsubmitted fence is allowed): make it look again. */
   drv_wake_waiters(dev->drv);
}

bool vkppu_fence_is_signaled(const struct vkppu_fence *fence)
{
   if (atomic_load_explicit(&fence->signaled, memory_order_acquire))
      return true;
   struct drv_channel *ch = atomic_load_explicit(&fence->channel, memory_order_acquire);
   if (!ch)
      return false;
   uint64_t seqno = atomic_load_explicit(&fence->seqno, memory_order_relaxed);
   return seqno && drv_channel_completed_seqno(ch) >= seqno;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateFence(VkDevice device,
                                                 const VkFenceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkFence *pFence)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_fence *fence =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*fence), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!fence)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&fence->base, VK_OBJECT_TYPE_FENCE, dev);
   atomic_init(&fence->signaled, (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
   atomic_init(&fence->seqno, 0);
   atomic_init(&fence->channel, NULL);
   *pFence = vkppu_fence_to_handle(fence);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyFence(VkDevice device, VkFence fence_handle,
                                              const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_fence, fence, fence_handle);
   if (!fence)
      return;
   vkppu_object_finish(&fence->base);
   vkppu_device_free(dev, pAllocator, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ResetFences(VkDevice device, uint32_t fenceCount,
                                                 const VkFence *pFences)
{
   (void)device;
   for (uint32_t i = 0; i < fenceCount; i++) {
      struct vkppu_fence *fence = vkppu_fence_from_handle(pFences[i]);
      /* Channel first: a reader that still sees it then sees seqno 0 or the
       * old seqno, never a new one with a stale channel. */
      atomic_store_explicit(&fence->channel, NULL, memory_order_release);
      atomic_store_explicit(&fence->seqno, 0, memory_order_relaxed);
      atomic_store_explicit(&fence->signaled, false, memory_order_release);
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetFenceStatus(VkDevice device, VkFence fence_handle)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   return vkppu_fence_is_signaled(vkppu_fence_from_handle(fence_handle)) ? VK_SUCCESS
                                                                         : VK_NOT_READY;
}

struct fence_wait {
   const VkFence *fences;
   uint32_t count;
   bool all;
};

static bool fences_done(void *ctx)
{
   const struct fence_wait *w = ctx;
   for (uint32_t i = 0; i < w->count; i++) {
      bool signaled = vkppu_fence_is_signaled(vkppu_fence_from_handle(w->fences[i]));
      if (signaled && !w->all)
         return true;
      if (!signaled && w->all)
         return false;
   }
   return w->all;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_WaitForFences(VkDevice device, uint32_t fenceCount,
                                                   const VkFence *pFences, VkBool32 waitAll,
                                                   uint64_t timeout)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct fence_wait w = {pFences, fenceCount, waitAll != VK_FALSE};
   enum drv_result r = drv_wait(dev->drv, fences_done, &w, drv_deadline_from_timeout(timeout));
   return vkppu_device_result(dev, r);
}
