/* VkSemaphore, binary and timeline, on one 64-bit slot each (vkppu_sync.h).
 * Host waits use the interrupt-driven device wait; host signals write the
 * slot through the BAR and ring the semaphore doorbell so that channels
 * stalled on an acquire look again. All of it is safe to call from several
 * threads at once (vkWaitSemaphores/vkSignalSemaphore have no external
 * synchronization requirement). */
#include "drv_device.h"
#include "vkppu_sync.h"
#include "wait.h"

uint64_t vkppu_semaphore_wait_value(struct vkppu_semaphore *sem, uint64_t value)
{
   if (sem->type == VK_SEMAPHORE_TYPE_TIMELINE)
      return value;
   return atomic_load_explicit(&sem->binary_signals, memory_order_relaxed);
}

uint64_t vkppu_semaphore_signal_value(struct vkppu_semaphore *sem, uint64_t value)
{
   if (sem->type == VK_SEMAPHORE_TYPE_TIMELINE)
      return value;
   return atomic_fetch_add_explicit(&sem->binary_signals, 1, memory_order_relaxed) + 1;
}

static const VkSemaphoreTypeCreateInfo *find_type_info(const void *next)
{
   for (const VkBaseInStructure *s = next; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)
         return (const VkSemaphoreTypeCreateInfo *)(const void *)s;
   }
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateSemaphore(VkDevice device,
                                                     const VkSemaphoreCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkSemaphore *pSemaphore)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const VkSemaphoreTypeCreateInfo *type_info = find_type_info(pCreateInfo->pNext);
   VkSemaphoreType type = type_info ? type_info->semaphoreType : VK_SEMAPHORE_TYPE_BINARY;
   uint64_t initial = type == VK_SEMAPHORE_TYPE_TIMELINE ? type_info->initialValue : 0;

   struct vkppu_semaphore *sem =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*sem), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sem)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&sem->base, VK_OBJECT_TYPE_SEMAPHORE, dev);
   sem->type = type;
   atomic_init(&sem->binary_signals, 0);
   enum drv_result r = drv_slot_alloc(dev->drv, initial, &sem->slot);
   if (r != DRV_SUCCESS) {
      vkppu_object_finish(&sem->base);
      vkppu_device_free(dev, pAllocator, sem);
      return vkppu_result_from_drv(r);
   }
   *pSemaphore = vkppu_semaphore_to_handle(sem);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                  const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_semaphore, sem, semaphore);
   if (!sem)
      return;
   drv_slot_free(dev->drv, &sem->slot);
   vkppu_object_finish(&sem->base);
   vkppu_device_free(dev, pAllocator, sem);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetSemaphoreCounterValue(VkDevice device,
                                                              VkSemaphore semaphore,
                                                              uint64_t *pValue)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_semaphore, sem, semaphore);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   *pValue = drv_slot_read(&sem->slot);
   return VK_SUCCESS;
}

struct semaphore_wait {
   const VkSemaphoreWaitInfo *info;
   bool any;
};

static bool semaphores_done(void *ctx)
{
   const struct semaphore_wait *w = ctx;
   for (uint32_t i = 0; i < w->info->semaphoreCount; i++) {
      const struct vkppu_semaphore *sem = vkppu_semaphore_from_handle(w->info->pSemaphores[i]);
      bool reached = drv_slot_read(&sem->slot) >= w->info->pValues[i];
      if (reached && w->any)
         return true;
      if (!reached && !w->any)
         return false;
   }
   /* ALL: every one reached. ANY: none did, unless there was none to wait
    * for (an empty wait is complete rather than endless). */
   return !w->any || w->info->semaphoreCount == 0;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_WaitSemaphores(VkDevice device,
                                                    const VkSemaphoreWaitInfo *pWaitInfo,
                                                    uint64_t timeout)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct semaphore_wait w = {pWaitInfo, (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0};
   enum drv_result r = drv_wait(dev->drv, semaphores_done, &w, drv_deadline_from_timeout(timeout));
   return vkppu_device_result(dev, r);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_SignalSemaphore(VkDevice device,
                                                     const VkSemaphoreSignalInfo *pSignalInfo)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_semaphore, sem, pSignalInfo->semaphore);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   /* Raise to the value, never lower: two threads signalling 5 and 6 at
    * once must leave 6, whichever store lands last. */
   uint64_t current = drv_slot_read(&sem->slot);
   while (current < pSignalInfo->value &&
          !__atomic_compare_exchange_n(sem->slot.host, &current, pSignalInfo->value, true,
                                       __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
   }
   drv_device_host_signaled(dev->drv);
   return VK_SUCCESS;
}
