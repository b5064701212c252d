/* VkEvent: one 64-bit slot, 1 = set, 0 = reset. The GPU sets and resets it
 * with semaphore releases and waits on it with an acquire (cmd_sync.c); the
 * host reads and writes it through the BAR. */
#include "drv_device.h"
#include "vkppu_sync.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateEvent(VkDevice device,
                                                 const VkEventCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkEvent *pEvent)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_event *event =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*event), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!event)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&event->base, VK_OBJECT_TYPE_EVENT, dev);
   event->flags = pCreateInfo->flags;
   /* Events start unsignaled (vkCreateEvent). */
   enum drv_result r = drv_slot_alloc(dev->drv, 0, &event->slot);
   if (r != DRV_SUCCESS) {
      vkppu_object_finish(&event->base);
      vkppu_device_free(dev, pAllocator, event);
      return vkppu_result_from_drv(r);
   }
   *pEvent = vkppu_event_to_handle(event);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyEvent(VkDevice device, VkEvent event_handle,
                                              const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_event, event, event_handle);
   if (!event)
      return;
   drv_slot_free(dev->drv, &event->slot);
   vkppu_object_finish(&event->base);
   vkppu_device_free(dev, pAllocator, event);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetEventStatus(VkDevice device, VkEvent event_handle)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_event, event, event_handle);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   return drv_slot_read(&event->slot) >= 1 ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_SetEvent(VkDevice device, VkEvent event_handle)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_event, event, event_handle);
   drv_slot_write(&event->slot, 1);
   /* A channel may be stalled in vkCmdWaitEvents on this event. */
   drv_device_host_signaled(dev->drv);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ResetEvent(VkDevice device, VkEvent event_handle)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_event, event, event_handle);
   (void)dev;
   drv_slot_write(&event->slot, 0);
   return VK_SUCCESS;
}
