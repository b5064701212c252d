/* The Vulkan plumbing of the sample: an instance (optionally with the
 * Khronos validation layer and a messenger that counts its errors), the
 * first physical device, one compute queue, a host-visible storage buffer
 * and a one-set compute pipeline with push constants. */
#ifndef VK_COMPUTE_H
#define VK_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <volk.h>

#include "vk_sample.h"

struct vk_compute {
   struct vk_sample_instance inst; /* counts validation and driver errors */
   VkPhysicalDevice physical_device;
   char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   uint32_t family;
   VkDevice device;
   VkQueue queue;
   VkPhysicalDeviceMemoryProperties memory;
};

struct vk_storage_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   VkDeviceSize size;
};

/* Every function returns the first failing VkResult (and prints what). */
VkResult vk_compute_init(struct vk_compute *vc, bool validation);
void vk_compute_finish(struct vk_compute *vc);

VkResult vk_storage_buffer_create(struct vk_compute *vc, VkDeviceSize size,
                                  struct vk_storage_buffer *out);
void vk_storage_buffer_destroy(struct vk_compute *vc, struct vk_storage_buffer *buf);

/* Loads SPIR-V from spv_path; the set has one storage buffer at binding 0. */
VkResult vk_compute_pipeline_create(struct vk_compute *vc, const char *spv_path,
                                    uint32_t push_constant_bytes,
                                    const struct vk_storage_buffer *buffer,
                                    struct vk_sample_compute_pipeline *out);
void vk_compute_pipeline_destroy(struct vk_compute *vc, struct vk_sample_compute_pipeline *p);

/* Records push constants and one dispatch, submits and waits for it. */
VkResult vk_compute_run(struct vk_compute *vc, const struct vk_sample_compute_pipeline *p,
                        const void *push_constants, uint32_t push_constant_bytes, uint32_t groups_x,
                        uint32_t groups_y);

#endif
