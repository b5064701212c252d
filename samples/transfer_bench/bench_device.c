#include "bench_device.h"

#include <stdlib.h>
#include <string.h>

#include "vk_check.h"

#define NO_FAMILY UINT32_MAX

/* Vulkan 1.0 allows vkCmdFillBuffer only in pools of graphics- or
 * compute-capable families (a transfer-only family needs VK_KHR_maintenance1),
 * and both of those imply transfer support. */
static const VkQueueFlags REQUIRED_ANY_OF = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;

/* The usable family of `physical`, preferring one that can write timestamps;
 * NO_FAMILY if none is usable. */
static uint32_t pick_queue_family(VkPhysicalDevice physical)
{
   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, NULL);
   VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof(*families));
   if (!families)
      return NO_FAMILY;
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families);

   uint32_t usable = NO_FAMILY;
   uint32_t usable_with_timestamps = NO_FAMILY;
   for (uint32_t i = 0; i < count; i++) {
      if (families[i].queueCount == 0 || !(families[i].queueFlags & REQUIRED_ANY_OF))
         continue;
      if (usable == NO_FAMILY)
         usable = i;
      if (families[i].timestampValidBits > 0 && usable_with_timestamps == NO_FAMILY)
         usable_with_timestamps = i;
   }
   free(families);
   return usable_with_timestamps != NO_FAMILY ? usable_with_timestamps : usable;
}

static bool device_extension_available(VkPhysicalDevice physical, const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS)
      return false;
   VkExtensionProperties *extensions = calloc(count ? count : 1, sizeof(*extensions));
   if (!extensions)
      return false;
   bool found = false;
   if (vkEnumerateDeviceExtensionProperties(physical, NULL, &count, extensions) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(extensions[i].extensionName, name) == 0;
   }
   free(extensions);
   return found;
}

static VkResult choose_physical_device(VkInstance instance, int device_index,
                                       struct bench_device *out)
{
   uint32_t count = 0;
   VkResult result = vkEnumeratePhysicalDevices(instance, &count, NULL);
   if (vk_failed(result, "vkEnumeratePhysicalDevices"))
      return result;
   if (count == 0) {
      fprintf(stderr, "transfer_bench: the loader found no Vulkan device\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   VkPhysicalDevice *devices = calloc(count, sizeof(*devices));
   if (!devices)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   result = vkEnumeratePhysicalDevices(instance, &count, devices);
   if (result == VK_INCOMPLETE)
      result = VK_SUCCESS; /* a device appeared in between; the first `count` will do */
   if (vk_failed(result, "vkEnumeratePhysicalDevices")) {
      free(devices);
      return result;
   }

   out->physical = VK_NULL_HANDLE;
   out->queue_family = NO_FAMILY;
   if (device_index >= 0) {
      if ((uint32_t)device_index >= count) {
         fprintf(stderr, "transfer_bench: --device %d: only %u device(s) present\n", device_index,
                 count);
      } else {
         out->physical = devices[device_index];
         out->physical_index = (uint32_t)device_index;
         out->queue_family = pick_queue_family(out->physical);
      }
   } else {
      for (uint32_t i = 0; i < count && out->queue_family == NO_FAMILY; i++) {
         out->physical = devices[i];
         out->physical_index = i;
         out->queue_family = pick_queue_family(out->physical);
      }
   }
   free(devices);
   if (out->physical == VK_NULL_HANDLE)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (out->queue_family == NO_FAMILY) {
      fprintf(stderr, "transfer_bench: no device has a queue family with graphics or compute\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   return VK_SUCCESS;
}

static void query_device_facts(const struct bench_instance *instance, struct bench_device *out)
{
   vkGetPhysicalDeviceProperties(out->physical, &out->properties);
   vkGetPhysicalDeviceMemoryProperties(out->physical, &out->memory);

   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(out->physical, &count, NULL);
   VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof(*families));
   if (families) {
      vkGetPhysicalDeviceQueueFamilyProperties(out->physical, &count, families);
      out->queue_flags = families[out->queue_family].queueFlags;
      out->timestamp_valid_bits = families[out->queue_family].timestampValidBits;
      free(families);
   }
   out->timestamp_period_ns = out->properties.limits.timestampPeriod;

   /* Querying a device extension's properties needs only the extension to be
    * supported, not enabled; the struct travels through the instance-level
    * vkGetPhysicalDeviceProperties2KHR. */
   if (instance->has_properties2 &&
       device_extension_available(out->physical, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
      VkPhysicalDeviceDriverPropertiesKHR driver = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES_KHR,
      };
      VkPhysicalDeviceProperties2KHR properties2 = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2_KHR,
          .pNext = &driver,
      };
      vkGetPhysicalDeviceProperties2KHR(out->physical, &properties2);
      memcpy(out->driver_name, driver.driverName, sizeof(out->driver_name));
      memcpy(out->driver_info, driver.driverInfo, sizeof(out->driver_info));
      out->driver_name[sizeof(out->driver_name) - 1] = '\0';
      out->driver_info[sizeof(out->driver_info) - 1] = '\0';
      out->has_driver_properties = true;
   }
}

static VkResult create_device_objects(struct bench_device *out)
{
   const float priority = 1.0f;
   const VkDeviceQueueCreateInfo queue_info = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
       .queueFamilyIndex = out->queue_family,
       .queueCount = 1,
       .pQueuePriorities = &priority,
   };
   const VkDeviceCreateInfo device_info = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .queueCreateInfoCount = 1,
       .pQueueCreateInfos = &queue_info,
   };
   VkResult result = vkCreateDevice(out->physical, &device_info, NULL, &out->device);
   if (vk_failed(result, "vkCreateDevice"))
      return result;
   volkLoadDevice(out->device);
   vkGetDeviceQueue(out->device, out->queue_family, 0, &out->queue);

   const VkCommandPoolCreateInfo pool_info = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
       .queueFamilyIndex = out->queue_family,
   };
   result = vkCreateCommandPool(out->device, &pool_info, NULL, &out->command_pool);
   if (vk_failed(result, "vkCreateCommandPool"))
      return result;

   const VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   result = vkCreateFence(out->device, &fence_info, NULL, &out->fence);
   if (vk_failed(result, "vkCreateFence"))
      return result;

   /* A period of 0 would make every GPU time 0, so such a device is treated
    * as having no usable timestamps. */
   if (out->timestamp_valid_bits > 0 && out->timestamp_period_ns > 0.0) {
      const VkQueryPoolCreateInfo query_info = {
          .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
          .queryType = VK_QUERY_TYPE_TIMESTAMP,
          .queryCount = 2,
      };
      result = vkCreateQueryPool(out->device, &query_info, NULL, &out->timestamp_pool);
      if (vk_failed(result, "vkCreateQueryPool"))
         return result;
   }
   return VK_SUCCESS;
}

VkResult bench_device_create(const struct bench_instance *instance, int device_index,
                             struct bench_device *out)
{
   memset(out, 0, sizeof(*out));
   VkResult result = choose_physical_device(instance->instance, device_index, out);
   if (result != VK_SUCCESS)
      return result;
   query_device_facts(instance, out);
   result = create_device_objects(out);
   if (result != VK_SUCCESS)
      bench_device_destroy(out);
   return result;
}

void bench_device_destroy(struct bench_device *dev)
{
   if (dev->device != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(dev->device);
      if (dev->timestamp_pool != VK_NULL_HANDLE)
         vkDestroyQueryPool(dev->device, dev->timestamp_pool, NULL);
      if (dev->fence != VK_NULL_HANDLE)
         vkDestroyFence(dev->device, dev->fence, NULL);
      if (dev->command_pool != VK_NULL_HANDLE)
         vkDestroyCommandPool(dev->device, dev->command_pool, NULL);
      vkDestroyDevice(dev->device, NULL);
   }
   memset(dev, 0, sizeof(*dev));
}

static const char *device_type_name(VkPhysicalDeviceType type)
{
   switch (type) {
   case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
   case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
   case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
   case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
   default:
      return "other";
   }
}

static void print_queue_flags(VkQueueFlags flags, FILE *out)
{
   static const struct {
      VkQueueFlags bit;
      const char *name;
   } names[] = {
       {VK_QUEUE_GRAPHICS_BIT, "GRAPHICS"},
       {VK_QUEUE_COMPUTE_BIT, "COMPUTE"},
       {VK_QUEUE_TRANSFER_BIT, "TRANSFER"},
       {VK_QUEUE_SPARSE_BINDING_BIT, "SPARSE_BINDING"},
   };
   const char *separator = "";
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (flags & names[i].bit) {
         fprintf(out, "%s%s", separator, names[i].name);
         separator = "|";
      }
   }
}

void bench_device_print(const struct bench_device *dev, FILE *out)
{
   const VkPhysicalDeviceProperties *p = &dev->properties;
   fprintf(out, "device     : %s (%s, device %u, vendor 0x%04x, id 0x%04x), Vulkan %u.%u.%u\n",
           p->deviceName, device_type_name(p->deviceType), dev->physical_index, p->vendorID,
           p->deviceID, VK_VERSION_MAJOR(p->apiVersion), VK_VERSION_MINOR(p->apiVersion),
           VK_VERSION_PATCH(p->apiVersion));
   if (dev->has_driver_properties) {
      fprintf(out, "driver     : %s, %s (driverVersion 0x%08x)\n", dev->driver_name,
              dev->driver_info[0] ? dev->driver_info : "no driver info", p->driverVersion);
   } else {
      /* Without VK_KHR_driver_properties the version is all there is, and its
       * encoding is the vendor's own. */
      fprintf(out, "driver     : driverVersion 0x%08x (encoding is vendor-specific)\n",
              p->driverVersion);
   }
   fprintf(out, "queue      : family %u (", dev->queue_family);
   print_queue_flags(dev->queue_flags, out);
   if (bench_device_has_timestamps(dev)) {
      fprintf(out, "), timestamps: %u valid bits, %.4g ns per tick\n", dev->timestamp_valid_bits,
              dev->timestamp_period_ns);
   } else {
      fprintf(out, "), no timestamps: host times only\n");
   }
}
