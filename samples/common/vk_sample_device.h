/* A device for samples that only compute: the first physical device, one
 * queue of its first compute family, host-visible buffers, and one-shot
 * command buffers submitted and waited for. */
#ifndef VK_SAMPLE_DEVICE_H
#define VK_SAMPLE_DEVICE_H

#include "vk_sample.h"

struct vk_sample_device {
   struct vk_sample_instance inst; /* counts validation and driver errors */
   const char *tag;                /* the program's name, prefixes messages */
   VkPhysicalDevice physical_device;
   char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   uint32_t family;
   VkDevice device;
   VkQueue queue;
   VkPhysicalDeviceMemoryProperties memory;
   VkCommandPool pool;
};

struct vk_sample_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map; /* host-visible, coherent */
   VkDeviceSize size;
};

/* Every function returns the first failing VkResult (and prints what).
 * The instance is Vulkan 1.0, with the validation layer when asked. */
VkResult vk_sample_device_create(struct vk_sample_device *d, const char *tag, bool validation);
/* The same with an instance of api_version and device extensions and a
 * feature structure chain (VkDeviceCreateInfo's pNext; NULL: none), e.g.
 * VK_KHR_performance_query's (samples/ppu_microbench). */
VkResult vk_sample_device_create_with(struct vk_sample_device *d, const char *tag, bool validation,
                                      uint32_t api_version, const char *const *extensions,
                                      uint32_t extension_count, const void *features);
void vk_sample_device_destroy(struct vk_sample_device *d);

VkResult vk_sample_buffer_create(struct vk_sample_device *d, VkDeviceSize size,
                                 VkBufferUsageFlags usage, struct vk_sample_buffer *out);
void vk_sample_buffer_destroy(struct vk_sample_device *d, struct vk_sample_buffer *buf);

/* A primary command buffer from the device's pool, begun for one submit. */
VkResult vk_sample_commands_begin(struct vk_sample_device *d, VkCommandBuffer *cmd);
/* Ends cmd, submits it, waits (up to a minute: the PPU is a software model)
 * and frees it. *seconds, when not NULL, gets submit-to-fence host time. */
VkResult vk_sample_commands_submit(struct vk_sample_device *d, VkCommandBuffer cmd,
                                   double *seconds);

#endif
