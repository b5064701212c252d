#include "vk_sample_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_VK(call) VK_SAMPLE_CHECK(d->tag, call)

VkResult vk_sample_device_create(struct vk_sample_device *d, const char *tag, bool validation)
{
   /* Compute is core 1.0. */
   return vk_sample_device_create_with(d, tag, validation, VK_API_VERSION_1_0, NULL, 0, NULL);
}

VkResult vk_sample_device_create_with(struct vk_sample_device *d, const char *tag, bool validation,
                                      uint32_t api_version, const char *const *extensions,
                                      uint32_t extension_count, const void *features)
{
   memset(d, 0, sizeof(*d));
   d->tag = tag;
   VkResult r = vk_sample_instance_create(&d->inst, tag, api_version, validation);
   if (r != VK_SUCCESS)
      return r;

   uint32_t count = 1;
   r = vkEnumeratePhysicalDevices(d->inst.instance, &count, &d->physical_device);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
      fprintf(stderr, "%s: no Vulkan device\n", tag);
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(d->physical_device, &props);
   memcpy(d->device_name, props.deviceName, sizeof(d->device_name));
   vkGetPhysicalDeviceMemoryProperties(d->physical_device, &d->memory);

   VkQueueFamilyProperties families[16];
   count = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(d->physical_device, &count, families);
   d->family = UINT32_MAX;
   for (uint32_t i = 0; i < count && d->family == UINT32_MAX; i++) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         d->family = i;
   }
   if (d->family == UINT32_MAX) {
      fprintf(stderr, "%s: %s has no compute queue\n", tag, d->device_name);
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
       .queueFamilyIndex = d->family,
       .queueCount = 1,
       .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .pNext = features,
       .queueCreateInfoCount = 1,
       .pQueueCreateInfos = &qci,
       .enabledExtensionCount = extension_count,
       .ppEnabledExtensionNames = extensions,
   };
   CHECK_VK(vkCreateDevice(d->physical_device, &dci, NULL, &d->device));
   volkLoadDevice(d->device);
   vkGetDeviceQueue(d->device, d->family, 0, &d->queue);
   VkCommandPoolCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = d->family,
   };
   CHECK_VK(vkCreateCommandPool(d->device, &cpci, NULL, &d->pool));
   return VK_SUCCESS;
}

void vk_sample_device_destroy(struct vk_sample_device *d)
{
   if (d->pool)
      vkDestroyCommandPool(d->device, d->pool, NULL);
   if (d->device)
      vkDestroyDevice(d->device, NULL);
   vk_sample_instance_destroy(&d->inst);
}

VkResult vk_sample_buffer_create(struct vk_sample_device *d, VkDeviceSize size,
                                 VkBufferUsageFlags usage, struct vk_sample_buffer *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage,
   };
   CHECK_VK(vkCreateBuffer(d->device, &bci, NULL, &out->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(d->device, out->buffer, &req);
   uint32_t type = vk_sample_memory_type(&d->memory, req.memoryTypeBits,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (type == UINT32_MAX) {
      fprintf(stderr, "%s: no host-visible coherent memory\n", d->tag);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = type,
   };
   CHECK_VK(vkAllocateMemory(d->device, &mai, NULL, &out->memory));
   CHECK_VK(vkBindBufferMemory(d->device, out->buffer, out->memory, 0));
   CHECK_VK(vkMapMemory(d->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map));
   return VK_SUCCESS;
}

void vk_sample_buffer_destroy(struct vk_sample_device *d, struct vk_sample_buffer *buf)
{
   if (buf->buffer)
      vkDestroyBuffer(d->device, buf->buffer, NULL);
   if (buf->memory)
      vkFreeMemory(d->device, buf->memory, NULL);
   memset(buf, 0, sizeof(*buf));
}

VkResult vk_sample_commands_begin(struct vk_sample_device *d, VkCommandBuffer *cmd)
{
   return vk_sample_begin_one_time(d->device, d->pool, d->tag, cmd);
}

static double seconds_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

VkResult vk_sample_commands_submit(struct vk_sample_device *d, VkCommandBuffer cmd, double *seconds)
{
   VkFence fence = VK_NULL_HANDLE;
   VkResult r = vkEndCommandBuffer(cmd);
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (r == VK_SUCCESS)
      r = vkCreateFence(d->device, &fci, NULL, &fence);
   double t0 = seconds_now();
   if (r == VK_SUCCESS) {
      VkSubmitInfo submit = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      r = vkQueueSubmit(d->queue, 1, &submit, fence);
   }
   if (r == VK_SUCCESS)
      r = vkWaitForFences(d->device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
   if (seconds)
      *seconds = seconds_now() - t0;
   if (r != VK_SUCCESS)
      fprintf(stderr, "%s: submission failed: %s\n", d->tag, vk_sample_result_string(r));
   if (r == VK_TIMEOUT)
      return r; /* the GPU may still use the command buffer: leave it */
   if (fence)
      vkDestroyFence(d->device, fence, NULL);
   vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
   return r;
}
