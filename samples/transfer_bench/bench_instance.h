/* The Vulkan instance transfer_bench runs on: Vulkan 1.0, optionally with the
 * Khronos validation layer and a debug messenger that counts its errors. */
#ifndef TRANSFER_BENCH_INSTANCE_H
#define TRANSFER_BENCH_INSTANCE_H

#include <stdatomic.h>
#include <stdbool.h>

#include <volk.h>

struct bench_instance {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger; /* VK_NULL_HANDLE without --validate */
   bool validation;
   /* VK_KHR_get_physical_device_properties2 is enabled, so the driver's name
    * can be asked for through VK_KHR_driver_properties on a 1.0 device. */
   bool has_properties2;
   /* ERROR-severity messages seen by the messenger. Atomic because the layer
    * may call the messenger from any thread that calls into Vulkan. */
   atomic_uint error_messages;
};

/* `out` must stay at the same address until bench_instance_destroy: the
 * messenger keeps a pointer to its error counter. */
VkResult bench_instance_create(bool validate, struct bench_instance *out);
void bench_instance_destroy(struct bench_instance *instance);

#endif
