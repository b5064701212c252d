/* The physical device, queue and per-device objects every benchmark shares. */
#ifndef TRANSFER_BENCH_DEVICE_H
#define TRANSFER_BENCH_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <volk.h>

#include "bench_instance.h"

struct bench_device {
   VkPhysicalDevice physical;
   uint32_t physical_index;
   VkPhysicalDeviceProperties properties;
   VkPhysicalDeviceMemoryProperties memory;

   /* From VK_KHR_driver_properties when the device offers it. */
   bool has_driver_properties;
   char driver_name[VK_MAX_DRIVER_NAME_SIZE];
   char driver_info[VK_MAX_DRIVER_INFO_SIZE];

   uint32_t queue_family;
   VkQueueFlags queue_flags;
   /* 0 when the family cannot write timestamps; then only host times exist. */
   uint32_t timestamp_valid_bits;
   double timestamp_period_ns;

   VkDevice device;
   VkQueue queue;
   VkCommandPool command_pool; /* transient one-shot command buffers */
   VkFence fence;              /* one submission in flight at a time */
   VkQueryPool timestamp_pool; /* two queries: before and after; NULL handle without timestamps */
};

/* device_index < 0 picks the first device with a usable queue family. */
VkResult bench_device_create(const struct bench_instance *instance, int device_index,
                             struct bench_device *out);
void bench_device_destroy(struct bench_device *dev);

static inline bool bench_device_has_timestamps(const struct bench_device *dev)
{
   return dev->timestamp_pool != VK_NULL_HANDLE;
}

/* Device, driver and queue lines of the report header. */
void bench_device_print(const struct bench_device *dev, FILE *out);

#endif
