/* VkDevice: creation (extensions, features, queues), destruction, queue
 * lookup and vkDeviceWaitIdle. The device's hardware side is a drv_device
 * (driver/drv_device.h): its own modeled PPU, so losing one VkDevice leaves
 * the others running. */
#include <stdio.h>
#include <string.h>

#include "debug_report.h"
#include "device_features.h"
#include "drv_device.h"
#include "vkppu_device.h"
#include "vkppu_queue.h"
#include "vkppu_ray_cost.h"

/* The physical device behind a handle, checked through its base's type. */
static struct vkppu_physical_device *physical_device_from_handle(VkPhysicalDevice handle)
{
   struct vkppu_object *base =
       vkppu_object_from_handle(VK_OBJECT_TYPE_PHYSICAL_DEVICE, (uint64_t)(uintptr_t)handle);
   return base ? (struct vkppu_physical_device *)(void *)base : NULL;
}

VkResult vkppu_result_from_drv(enum drv_result r)
{
   switch (r) {
   case DRV_SUCCESS:
      return VK_SUCCESS;
   case DRV_TIMEOUT:
      return VK_TIMEOUT;
   case DRV_NOT_READY:
      return VK_NOT_READY;
   case DRV_ERROR_OUT_OF_HOST_MEMORY:
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   case DRV_ERROR_OUT_OF_DEVICE_MEMORY:
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   case DRV_ERROR_ADDRESS_IN_USE:
      return VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS;
   case DRV_ERROR_DEVICE_LOST:
      return VK_ERROR_DEVICE_LOST;
   case DRV_ERROR_INITIALIZATION_FAILED:
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   return VK_ERROR_UNKNOWN;
}

VkResult vkppu_device_check_lost(struct vkppu_device *dev)
{
   if (!drv_device_is_lost(dev->drv))
      return VK_SUCCESS;
   char report[DRV_FAULT_REPORT_SIZE];
   if (drv_device_take_fault_report(dev->drv, report, sizeof(report)))
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "%s", report);
   return VK_ERROR_DEVICE_LOST;
}

VkResult vkppu_device_result(struct vkppu_device *dev, enum drv_result r)
{
   if (r == DRV_ERROR_DEVICE_LOST)
      return vkppu_device_check_lost(dev);
   return vkppu_result_from_drv(r);
}

static uint32_t max_queues(uint32_t family)
{
   /* docs/status.md, "Queues": four universal queues, two copy queues,
    * four compute queues. */
   return family == VKPPU_QUEUE_FAMILY_TRANSFER ? VKPPU_TRANSFER_QUEUE_COUNT
                                                : VKPPU_QUEUES_PER_FAMILY;
}

static VkResult check_extensions(const VkDeviceCreateInfo *info, struct vkppu_device *dev,
                                 struct vkppu_instance *instance)
{
   for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
      const char *name = info->ppEnabledExtensionNames[i];
      int index = name ? vkppu_device_extension_index(name) : -1;
      if (index < 0) {
         vkppu_report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateDevice: device extension \"%s\" is not supported",
                      name ? name : "(null)");
         return VK_ERROR_EXTENSION_NOT_PRESENT;
      }
      dev->enabled_device_ext[index] = true;
   }
   return VK_SUCCESS;
}

static VkResult check_queue_infos(const VkDeviceCreateInfo *info, struct vkppu_instance *instance)
{
   bool seen[VKPPU_QUEUE_FAMILY_COUNT] = {false};
   for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
      if (q->queueFamilyIndex >= VKPPU_QUEUE_FAMILY_COUNT || seen[q->queueFamilyIndex] ||
          q->queueCount == 0 || q->queueCount > max_queues(q->queueFamilyIndex) ||
          (q->flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT)) {
         vkppu_report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateDevice: pQueueCreateInfos[%u] asks for %u queue(s) of family %u "
                      "with flags 0x%x, which this device does not offer",
                      i, q->queueCount, q->queueFamilyIndex, q->flags);
         return VK_ERROR_INITIALIZATION_FAILED;
      }
      seen[q->queueFamilyIndex] = true;
   }
   return VK_SUCCESS;
}

static void destroy_device(struct vkppu_device *dev)
{
   /* A loss nobody observed is still reported, once, before it goes. */
   if (dev->drv)
      vkppu_device_check_lost(dev);
   for (uint32_t f = 0; f < VKPPU_QUEUE_FAMILY_COUNT; f++) {
      for (uint32_t i = 0; i < dev->queue_count[f]; i++)
         vkppu_queue_destroy(dev, dev->queues[f][i]);
      dev->queue_count[f] = 0;
   }
   vkppu_ray_cost_finish(dev);
   drv_device_destroy(dev->drv);
   pthread_mutex_destroy(&vkppu_device_impl(dev)->heaps.lock);
   vkppu_object_finish(&dev->base);
   VkAllocationCallbacks alloc = dev->alloc;
   vkppu_free(&alloc, dev);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDevice(VkPhysicalDevice physicalDevice,
                                                  const VkDeviceCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkDevice *pDevice)
{
   struct vkppu_physical_device *pd = physical_device_from_handle(physicalDevice);
   if (!pd)
      return VK_ERROR_INITIALIZATION_FAILED;
   struct vkppu_instance *instance = pd->instance;
   const VkAllocationCallbacks *alloc = vkppu_choose_alloc(pAllocator, &instance->alloc);

   struct vkppu_device_impl *impl =
       vkppu_alloc(alloc, sizeof(*impl), 8, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!impl)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memset(impl, 0, sizeof(*impl));
   struct vkppu_device *dev = &impl->pub;
   vkppu_object_init(&dev->base, VK_OBJECT_TYPE_DEVICE, dev);
   dev->alloc = *alloc;
   dev->physical_device = pd;
   dev->instance = instance;

   VkResult r = check_extensions(pCreateInfo, dev, instance);
   if (r == VK_SUCCESS)
      r = check_queue_infos(pCreateInfo, instance);
   struct vkppu_enabled_features features;
   if (r == VK_SUCCESS) {
      char what[128] = "";
      r = vkppu_check_device_features(physicalDevice, pCreateInfo, &features, what, sizeof(what));
      if (r != VK_SUCCESS) {
         vkppu_report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateDevice: feature %s is not supported", what);
      }
   }
   if (r != VK_SUCCESS || pthread_mutex_init(&impl->heaps.lock, NULL)) {
      vkppu_object_finish(&dev->base);
      vkppu_free(alloc, impl);
      return r != VK_SUCCESS ? r : VK_ERROR_INITIALIZATION_FAILED;
   }
   dev->enabled_features = features.core;
   dev->timeline_semaphore = features.timeline_semaphore;
   dev->synchronization2 = features.synchronization2;
   dev->private_data = features.private_data;
   dev->buffer_device_address = features.buffer_device_address;
   dev->host_query_reset = features.host_query_reset;
   dev->robust_buffer_access2 = features.robust_buffer_access2;
   /* VkDevicePrivateDataCreateInfo needs no reservation: private data
    * entries are allocated when first set (private_data.c), and only a
    * failing host allocation can refuse one. */

   char err[4096] = ""; /* a configuration error lists every bad line */
   struct drv_device_config config = {.vram_size = pd->vram_size, .name = pd->name};
   enum drv_result dr = drv_device_create(&config, &dev->drv, err, sizeof(err));
   if (dr != DRV_SUCCESS) {
      vkppu_report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateDevice: cannot bring up the PPU model: %s", err);
      pthread_mutex_destroy(&impl->heaps.lock);
      vkppu_object_finish(&dev->base);
      vkppu_free(alloc, impl);
      return vkppu_result_from_drv(dr);
   }

   for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount && r == VK_SUCCESS; i++) {
      const VkDeviceQueueCreateInfo *q = &pCreateInfo->pQueueCreateInfos[i];
      uint32_t f = q->queueFamilyIndex;
      for (uint32_t n = 0; n < q->queueCount && r == VK_SUCCESS; n++) {
         r = vkppu_queue_create(dev, f, n, q->flags, &dev->queues[f][n]);
         if (r == VK_SUCCESS)
            dev->queue_count[f] = n + 1;
      }
   }
   if (r != VK_SUCCESS) {
      destroy_device(dev);
      return r;
   }
   *pDevice = vkppu_device_to_handle(dev);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyDevice(VkDevice device,
                                               const VkAllocationCallbacks *pAllocator)
{
   (void)pAllocator; /* the device was allocated with the callbacks stored in it */
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (!dev)
      return;
   destroy_device(dev);
}

static struct vkppu_queue *find_queue(struct vkppu_device *dev, uint32_t family, uint32_t index)
{
   if (family >= VKPPU_QUEUE_FAMILY_COUNT || index >= dev->queue_count[family])
      return NULL;
   return dev->queues[family][index];
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex,
                                                uint32_t queueIndex, VkQueue *pQueue)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_queue *q = find_queue(dev, queueFamilyIndex, queueIndex);
   /* Queues created with flags are only reachable through vkGetDeviceQueue2
    * (VUID-vkGetDeviceQueue-flags-01841). */
   *pQueue = q && q->flags == 0 ? vkppu_queue_to_handle(q) : VK_NULL_HANDLE;
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDeviceQueue2(VkDevice device,
                                                 const VkDeviceQueueInfo2 *pQueueInfo,
                                                 VkQueue *pQueue)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_queue *q = find_queue(dev, pQueueInfo->queueFamilyIndex, pQueueInfo->queueIndex);
   /* "flags ... must match" or the result is VK_NULL_HANDLE (vkGetDeviceQueue2). */
   *pQueue = q && q->flags == pQueueInfo->flags ? vkppu_queue_to_handle(q) : VK_NULL_HANDLE;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_DeviceWaitIdle(VkDevice device)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   for (uint32_t f = 0; f < VKPPU_QUEUE_FAMILY_COUNT; f++) {
      for (uint32_t i = 0; i < dev->queue_count[f]; i++) {
         VkResult r = vkppu_queue_wait_idle(dev->queues[f][i]);
         if (r != VK_SUCCESS)
            return r;
      }
   }
   return vkppu_device_check_lost(dev);
}
