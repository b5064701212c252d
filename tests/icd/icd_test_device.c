/* See icd_test_device.h. */
#include "icd_test_device.h"

#include "vkppu_entrypoints.h"

bool icd_test_device_create(VkInstance instance, VkDevice *device)
{
   uint32_t count = 1;
   VkPhysicalDevice pd;
   if (vkppu_EnumeratePhysicalDevices(instance, &count, &pd) != VK_SUCCESS)
      return false;
   float prio = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = 0,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci};
   return vkppu_CreateDevice(pd, &dci, NULL, device) == VK_SUCCESS;
}
