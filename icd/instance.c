/* VkInstance: creation, the global queries (extensions, layers, version) and
 * physical-device enumeration. One instance owns one physical device, the
 * PPU model. */
#include <string.h>

#include "debug_report.h"
#include "vkppu_alloc.h"
#include "vkppu_physical_device.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
   *pApiVersion = VKPPU_INSTANCE_API_VERSION;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_EnumerateInstanceLayerProperties(uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
   /* Layers are the loader's business; a driver has none. */
   (void)pProperties;
   *pPropertyCount = 0;
   return VK_SUCCESS;
}

/* The two-call idiom over a table of extensions (spec, "Opaque-Count
 * Queries"): VK_INCOMPLETE when the caller's array is too short. */
VkResult vkppu_copy_extension_properties(const VkExtensionProperties *table, uint32_t count,
                                         uint32_t *pPropertyCount,
                                         VkExtensionProperties *pProperties)
{
   if (pProperties == NULL) {
      *pPropertyCount = count;
      return VK_SUCCESS;
   }
   uint32_t n = *pPropertyCount < count ? *pPropertyCount : count;
   memcpy(pProperties, table, n * sizeof(*table));
   *pPropertyCount = n;
   return n < count ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumerateInstanceExtensionProperties(
    const char *pLayerName, uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
   /* The driver provides no layers, so no layer has extensions here. */
   if (pLayerName != NULL)
      return VK_ERROR_LAYER_NOT_PRESENT;
   return vkppu_copy_extension_properties(vkppu_instance_extensions, VKPPU_INSTANCE_EXT_COUNT,
                                          pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkInstance *pInstance)
{
   const VkAllocationCallbacks *alloc = vkppu_choose_alloc(pAllocator, NULL);

   bool enabled[VKPPU_INSTANCE_EXT_COUNT] = {false};
   for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
      int index = vkppu_instance_extension_index(pCreateInfo->ppEnabledExtensionNames[i]);
      if (index < 0)
         return VK_ERROR_EXTENSION_NOT_PRESENT;
      enabled[index] = true;
   }

   struct vkppu_instance *inst =
       vkppu_alloc(alloc, sizeof(*inst), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
   if (inst == NULL)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   struct vkppu_physical_device *pd =
       vkppu_alloc(alloc, sizeof(*pd), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
   if (pd == NULL) {
      vkppu_free(alloc, inst);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (pthread_mutex_init(&inst->debug_lock, NULL) != 0) {
      vkppu_free(alloc, pd);
      vkppu_free(alloc, inst);
      return VK_ERROR_INITIALIZATION_FAILED;
   }

   vkppu_object_init(&inst->base, VK_OBJECT_TYPE_INSTANCE, NULL);
   inst->alloc = *alloc;
   /* Spec, VkApplicationInfo: apiVersion 0 is the same as 1.0. */
   const VkApplicationInfo *app = pCreateInfo->pApplicationInfo;
   inst->api_version = (app != NULL && app->apiVersion != 0) ? app->apiVersion : VK_API_VERSION_1_0;
   memcpy(inst->enabled_instance_ext, enabled, sizeof(enabled));
   inst->messengers = NULL;

   vkppu_physical_device_init(pd, inst);
   inst->physical_device = pd;

   /* Messengers chained to VkInstanceCreateInfo only cover vkCreateInstance
    * and vkDestroyInstance, which report nothing here; the loader calls
    * them itself for its own messages. */
   *pInstance = vkppu_instance_to_handle(inst);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyInstance(VkInstance instance,
                                                 const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   (void)pAllocator; /* the instance keeps the callbacks it was created with */
   if (inst == NULL)
      return;
   VkAllocationCallbacks alloc = inst->alloc;
   vkppu_debug_messengers_destroy_all(inst);
   if (inst->physical_device != NULL) {
      vkppu_physical_device_finish(inst->physical_device);
      vkppu_free(&alloc, inst->physical_device);
   }
   pthread_mutex_destroy(&inst->debug_lock);
   vkppu_object_finish(&inst->base);
   vkppu_free(&alloc, inst);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EnumeratePhysicalDevices(VkInstance instance,
                                                              uint32_t *pPhysicalDeviceCount,
                                                              VkPhysicalDevice *pPhysicalDevices)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   if (pPhysicalDevices == NULL) {
      *pPhysicalDeviceCount = 1;
      return VK_SUCCESS;
   }
   if (*pPhysicalDeviceCount == 0)
      return VK_INCOMPLETE;
   pPhysicalDevices[0] = vkppu_physical_device_to_handle(inst->physical_device);
   *pPhysicalDeviceCount = 1;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t *pPhysicalDeviceGroupCount,
                                    VkPhysicalDeviceGroupProperties *pPhysicalDeviceGroupProperties)
{
   VKPPU_FROM_HANDLE(vkppu_instance, inst, instance);
   if (pPhysicalDeviceGroupProperties == NULL) {
      *pPhysicalDeviceGroupCount = 1;
      return VK_SUCCESS;
   }
   if (*pPhysicalDeviceGroupCount == 0)
      return VK_INCOMPLETE;
   /* One group holding the one device. sType and pNext belong to the
    * caller. subsetAllocation: spec says it is VK_FALSE when the group has a
    * single device. */
   VkPhysicalDeviceGroupProperties *group = &pPhysicalDeviceGroupProperties[0];
   group->physicalDeviceCount = 1;
   memset(group->physicalDevices, 0, sizeof(group->physicalDevices));
   group->physicalDevices[0] = vkppu_physical_device_to_handle(inst->physical_device);
   group->subsetAllocation = VK_FALSE;
   *pPhysicalDeviceGroupCount = 1;
   return VK_SUCCESS;
}
