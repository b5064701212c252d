/* Instance, physical device and device objects: the fields the loader-facing
 * code (instance.c, physical_device.c, loader_interface.c) and the device-level
 * code (device.c and below) share. */
#ifndef VKPPU_INSTANCE_H
#define VKPPU_INSTANCE_H

#include <pthread.h>
#include <stdbool.h>

#include "vkppu_entrypoints.h" /* generated: extension enums, prototypes */
#include "vkppu_object.h"

/* The API version the device reports (VkPhysicalDeviceProperties::apiVersion).
 * It is the highest version whose every required feature works; raise it as
 * the features land (docs/status.md, "apiVersion"). 1.1: its one required
 * feature beyond 1.0, multiview, is implemented by the render-pass objects
 * (render_pass.c). 1.2: every feature it requires works and has its case in
 * tests/api/test_vulkan12.c (physical_device_features.c, vulkan12_features).
 * 1.3: likewise, vulkan13_features and tests/api/test_vulkan13.c, whose
 * shaders are SPIR-V 1.6 on a 1.3 device. The ICD manifests' api_version must match
 * (vk_icd.json, vkppu_icd.json.in, tests/CMakeLists.txt), or the loader
 * leaves the newer commands out of its dispatch tables. */
#define VKPPU_DEVICE_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION)
/* vkEnumerateInstanceVersion: instance-level 1.1-1.3 commands are queries we
 * implement completely. */
#define VKPPU_INSTANCE_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION)

struct vkppu_instance {
   struct vkppu_object base;
   VkAllocationCallbacks alloc;
   uint32_t api_version; /* what the application asked for (>= 1.0) */
   bool enabled_instance_ext[VKPPU_INSTANCE_EXT_COUNT];
   struct vkppu_physical_device *physical_device; /* one PPU per instance */
   pthread_mutex_t debug_lock;
   struct vkppu_debug_messenger *messengers; /* VK_EXT_debug_utils */
};

/* Memory types as the device reports them; device-level code maps a type
 * index to these flags and its heap. */
#define VKPPU_MAX_MEMORY_TYPES 4
#define VKPPU_MAX_MEMORY_HEAPS 2

/* Queue families: index 0 does graphics+compute+transfer, index 1 is the
 * transfer-only copy-engine family, index 2 compute+transfer (the compute
 * and copy engines, no graphics: an "exclusive" compute family). Each
 * queue is its own hardware channel. */
#define VKPPU_QUEUE_FAMILY_UNIVERSAL 0u
#define VKPPU_QUEUE_FAMILY_TRANSFER 1u
#define VKPPU_QUEUE_FAMILY_COMPUTE 2u
#define VKPPU_QUEUE_FAMILY_COUNT 3u
#define VKPPU_QUEUES_PER_FAMILY 4u
/* Queues of the transfer family (at most VKPPU_QUEUES_PER_FAMILY). */
#define VKPPU_TRANSFER_QUEUE_COUNT 2u

struct vkppu_physical_device {
   struct vkppu_object base;
   struct vkppu_instance *instance;
   VkPhysicalDeviceMemoryProperties memory;
   uint64_t vram_size; /* bytes of modeled VRAM each device gets */
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
   uint8_t device_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];
};

struct vkppu_queue;
struct drv_device;

struct vkppu_device {
   struct vkppu_object base;
   VkAllocationCallbacks alloc;
   struct vkppu_physical_device *physical_device;
   struct vkppu_instance *instance;
   bool enabled_device_ext[VKPPU_DEVICE_EXT_COUNT];
   VkPhysicalDeviceFeatures enabled_features;
   bool timeline_semaphore, synchronization2, private_data, buffer_device_address,
       host_query_reset;       /* enabled features beyond 1.0 */
   bool robust_buffer_access2; /* VK_EXT_robustness2 (pipeline_robustness.c) */
   struct vkppu_queue *queues[VKPPU_QUEUE_FAMILY_COUNT][VKPPU_QUEUES_PER_FAMILY];
   uint32_t queue_count[VKPPU_QUEUE_FAMILY_COUNT];
   struct drv_device *drv;          /* the user-mode driver's device: hw, VA space... */
   struct vkppu_ray_cost *ray_cost; /* profiling (vkppu_ray_cost.h); NULL = off */
};

/* Used by vkGetDeviceProcAddr: the version commands are gated by is
 * min(instance api_version, VKPPU_DEVICE_API_VERSION). */
uint32_t vkppu_device_effective_api_version(const struct vkppu_device *dev);

#endif
