/* Buffers bound to their own memory, in the two kinds of memory measured:
 * device-local (where a GPU keeps its working data) and host-visible (what
 * the CPU can map). */
#ifndef TRANSFER_BENCH_GPU_BUFFER_H
#define TRANSFER_BENCH_GPU_BUFFER_H

#include <stdio.h>

#include <volk.h>

#include "bench_device.h"

enum gpu_memory_kind {
   GPU_MEMORY_DEVICE_LOCAL,
   GPU_MEMORY_HOST_VISIBLE,
};

#define GPU_NO_MEMORY_TYPE UINT32_MAX

const char *gpu_memory_kind_name(enum gpu_memory_kind kind);

/* The memory type a buffer of `kind` goes to, among `allowed_types` (a
 * memoryTypeBits mask); GPU_NO_MEMORY_TYPE if none fits. */
uint32_t gpu_memory_pick_type(const VkPhysicalDeviceMemoryProperties *memory,
                              uint32_t allowed_types, enum gpu_memory_kind kind);

/* The "memory" lines of the report header: which type each kind maps to. */
void gpu_memory_print_choice(const struct bench_device *dev, FILE *out);

struct gpu_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkDeviceSize size;
   /* The whole buffer, mapped for its lifetime, when its memory is
    * host-visible (always coherent); NULL otherwise. */
   void *mapped;
};

/* A TRANSFER_SRC|TRANSFER_DST buffer of `size` bytes in memory of `kind`.
 * Out-of-memory results come back unprinted, so callers can report a size
 * that does not fit as skipped. */
VkResult gpu_buffer_create(const struct bench_device *dev, enum gpu_memory_kind kind,
                           VkDeviceSize size, struct gpu_buffer *out);
/* Accepts a zeroed or already destroyed buffer. */
void gpu_buffer_destroy(const struct bench_device *dev, struct gpu_buffer *buffer);

#endif
