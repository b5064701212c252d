/* vkCreateDevice's feature check: every feature the application enables,
 * through pEnabledFeatures or any feature struct in the pNext chain, must be
 * one the physical device reports (Vulkan spec, "Features":
 * VK_ERROR_FEATURE_NOT_PRESENT otherwise). */
#ifndef VKPPU_DEVICE_FEATURES_H
#define VKPPU_DEVICE_FEATURES_H

#include <stdbool.h>

#include <vulkan/vulkan.h>

struct vkppu_enabled_features {
   VkPhysicalDeviceFeatures core;
   bool timeline_semaphore;
   bool synchronization2;
   bool private_data;
   bool buffer_device_address;
   bool host_query_reset;
   bool robust_buffer_access2;
};

/* Fills *out with what the create info enables, or returns
 * VK_ERROR_FEATURE_NOT_PRESENT naming the first unsupported one in `what`. */
VkResult vkppu_check_device_features(VkPhysicalDevice physical_device,
                                     const VkDeviceCreateInfo *info,
                                     struct vkppu_enabled_features *out, char *what,
                                     size_t what_size);

#endif
