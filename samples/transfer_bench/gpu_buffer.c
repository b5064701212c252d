#include "gpu_buffer.h"

#include <string.h>

#include "vk_check.h"

const char *gpu_memory_kind_name(enum gpu_memory_kind kind)
{
   return kind == GPU_MEMORY_DEVICE_LOCAL ? "device-local" : "host-visible";
}

static uint32_t first_type_with(const VkPhysicalDeviceMemoryProperties *memory,
                                uint32_t allowed_types, VkMemoryPropertyFlags required,
                                VkMemoryPropertyFlags unwanted)
{
   for (uint32_t i = 0; i < memory->memoryTypeCount; i++) {
      VkMemoryPropertyFlags flags = memory->memoryTypes[i].propertyFlags;
      if ((allowed_types & (1u << i)) && (flags & required) == required && !(flags & unwanted))
         return i;
   }
   return GPU_NO_MEMORY_TYPE;
}

uint32_t gpu_memory_pick_type(const VkPhysicalDeviceMemoryProperties *memory,
                              uint32_t allowed_types, enum gpu_memory_kind kind)
{
   /* Each kind first looks for memory that is only that kind: on a discrete
    * GPU, device-local without host access is VRAM and host-visible without
    * device-local is system RAM across the bus, which is the contrast worth
    * measuring. Unified-memory devices (lavapipe, integrated GPUs) have only
    * mixed types, so the second pick accepts them. The spec guarantees a
    * DEVICE_LOCAL type and a HOST_VISIBLE|HOST_COHERENT type. Coherent memory
    * is required so results are read without vkInvalidateMappedMemoryRanges. */
   VkMemoryPropertyFlags required, unwanted;
   if (kind == GPU_MEMORY_DEVICE_LOCAL) {
      required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      unwanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   } else {
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      unwanted = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
   }
   uint32_t type = first_type_with(memory, allowed_types, required, unwanted);
   if (type == GPU_NO_MEMORY_TYPE)
      type = first_type_with(memory, allowed_types, required, 0);
   return type;
}

static void print_memory_flags(VkMemoryPropertyFlags flags, FILE *out)
{
   static const struct {
      VkMemoryPropertyFlags bit;
      const char *name;
   } names[] = {
       {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "DEVICE_LOCAL"},
       {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "HOST_VISIBLE"},
       {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "HOST_COHERENT"},
       {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "HOST_CACHED"},
       {VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "LAZILY_ALLOCATED"},
   };
   const char *separator = "";
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (flags & names[i].bit) {
         fprintf(out, "%s%s", separator, names[i].name);
         separator = "|";
      }
   }
   if (!*separator)
      fprintf(out, "no flags");
}

void gpu_memory_print_choice(const struct bench_device *dev, FILE *out)
{
   static const enum gpu_memory_kind kinds[] = {GPU_MEMORY_DEVICE_LOCAL, GPU_MEMORY_HOST_VISIBLE};
   for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
      /* A buffer's memoryTypeBits may narrow this, but for transfer-only
       * buffers drivers accept every type in practice. */
      uint32_t type = gpu_memory_pick_type(&dev->memory, UINT32_MAX, kinds[i]);
      fprintf(out, "%-11s: %s -> ", i == 0 ? "memory" : "", gpu_memory_kind_name(kinds[i]));
      if (type == GPU_NO_MEMORY_TYPE) {
         fprintf(out, "no suitable memory type\n");
         continue;
      }
      const VkMemoryType *memory_type = &dev->memory.memoryTypes[type];
      fprintf(out, "type %u (", type);
      print_memory_flags(memory_type->propertyFlags, out);
      fprintf(out, "), heap %u of %.1f MiB\n", memory_type->heapIndex,
              (double)dev->memory.memoryHeaps[memory_type->heapIndex].size / (1024.0 * 1024.0));
   }
}

VkResult gpu_buffer_create(const struct bench_device *dev, enum gpu_memory_kind kind,
                           VkDeviceSize size, struct gpu_buffer *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   const VkBufferCreateInfo buffer_info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkResult result = vkCreateBuffer(dev->device, &buffer_info, NULL, &out->buffer);
   if (result != VK_SUCCESS) {
      if (!vk_is_out_of_memory(result))
         vk_failed(result, "vkCreateBuffer");
      return result;
   }

   VkMemoryRequirements requirements;
   vkGetBufferMemoryRequirements(dev->device, out->buffer, &requirements);
   uint32_t type = gpu_memory_pick_type(&dev->memory, requirements.memoryTypeBits, kind);
   if (type == GPU_NO_MEMORY_TYPE) {
      fprintf(stderr, "transfer_bench: no %s memory type accepts a transfer buffer\n",
              gpu_memory_kind_name(kind));
      gpu_buffer_destroy(dev, out);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   const VkMemoryAllocateInfo allocate_info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = requirements.size,
       .memoryTypeIndex = type,
   };
   result = vkAllocateMemory(dev->device, &allocate_info, NULL, &out->memory);
   if (result != VK_SUCCESS) {
      if (!vk_is_out_of_memory(result))
         vk_failed(result, "vkAllocateMemory");
      gpu_buffer_destroy(dev, out);
      return result;
   }
   result = vkBindBufferMemory(dev->device, out->buffer, out->memory, 0);
   if (vk_failed(result, "vkBindBufferMemory")) {
      gpu_buffer_destroy(dev, out);
      return result;
   }
   if (dev->memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
      result = vkMapMemory(dev->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
      if (result != VK_SUCCESS) {
         if (!vk_is_out_of_memory(result))
            vk_failed(result, "vkMapMemory");
         gpu_buffer_destroy(dev, out);
         return result;
      }
   }
   return VK_SUCCESS;
}

void gpu_buffer_destroy(const struct bench_device *dev, struct gpu_buffer *buffer)
{
   /* Freeing memory unmaps it, so no vkUnmapMemory is needed. */
   if (buffer->buffer != VK_NULL_HANDLE)
      vkDestroyBuffer(dev->device, buffer->buffer, NULL);
   if (buffer->memory != VK_NULL_HANDLE)
      vkFreeMemory(dev->device, buffer->memory, NULL);
   memset(buffer, 0, sizeof(*buffer));
}
