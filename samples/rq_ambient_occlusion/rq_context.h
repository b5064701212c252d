/* The Vulkan side of the sample that is not about acceleration structures or
 * the pipeline: a device with ray queries, buffers with device addresses,
 * and one-shot command buffers timed by timestamps. */
#ifndef RQ_CONTEXT_H
#define RQ_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "vk_sample.h"

/* Other ray-query samples build these files with their own name here
 * (-DRQ_TAG="..."), so that their messages say who speaks. */
#ifndef RQ_TAG
#define RQ_TAG "rq_ambient_occlusion"
#endif
#define CHECK_VK(call) VK_SAMPLE_CHECK(RQ_TAG, call)

struct rq_context {
   struct vk_sample_instance inst;
   uint32_t api_version; /* what the device may be used as: min(instance, device) */
   VkPhysicalDevice physical_device;
   VkPhysicalDeviceProperties properties;
   VkPhysicalDeviceAccelerationStructurePropertiesKHR as_properties;
   VkPhysicalDeviceMemoryProperties memory;
   bool host_commands; /* accelerationStructureHostCommands: enabled when supported */
   uint32_t family;
   uint32_t timestamp_valid_bits; /* of the family; 0: time on the host */
   VkDevice device;
   VkQueue queue;
   VkCommandPool command_pool;
   VkQueryPool timestamps; /* 2 queries: start and end of a one-shot submission */
   PFN_vkGetBufferDeviceAddress get_buffer_address; /* core or KHR, by api_version */
   VkSurfaceKHR surface; /* rq_context_init_present only; destroyed by rq_context_finish */
};

/* Samples that present (samples/hybrid_shadows) make their surface between
 * the instance and the device: the instance gets instance_extensions, then
 * make_surface runs, and the device must have a queue family with graphics,
 * compute and present support for that surface, and VK_KHR_swapchain. */
struct rq_present_hooks {
   const char *const *instance_extensions;
   uint32_t instance_extension_count;
   VkResult (*make_surface)(void *user, VkInstance instance, VkSurfaceKHR *surface);
   void *user;
};

/* Creates the instance and a device on the first physical device with
 * VK_KHR_ray_query, VK_KHR_acceleration_structure and what they need. Returns
 * VK_ERROR_EXTENSION_NOT_PRESENT, after saying why, when no device has them
 * (the caller skips), any other error after printing it. */
VkResult rq_context_init(struct rq_context *ctx, bool validation);
VkResult rq_context_init_present(struct rq_context *ctx, bool validation,
                                 const struct rq_present_hooks *present);
void rq_context_finish(struct rq_context *ctx);

struct rq_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map; /* host-visible buffers only */
   VkDeviceSize size;
   VkDeviceAddress address; /* buffers with SHADER_DEVICE_ADDRESS usage only */
};

/* host_visible: mapped, coherent memory (the host writes or reads it);
 * otherwise device-local memory where there is such a type. */
VkResult rq_buffer_create(struct rq_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                          bool host_visible, struct rq_buffer *out);
void rq_buffer_destroy(struct rq_context *ctx, struct rq_buffer *buf);

/* A command buffer to record one submission into; its start is timestamped. */
VkResult rq_commands_begin(struct rq_context *ctx, VkCommandBuffer *cmd);
/* Ends, submits and waits for cmd, then frees it. *seconds: the time between
 * the start and end timestamps, or host time from submit to fence when the
 * queue has no timestamps (*timed_on_gpu says which). */
VkResult rq_commands_submit(struct rq_context *ctx, VkCommandBuffer cmd, double *seconds,
                            bool *timed_on_gpu);

double rq_host_seconds(void);

#endif
