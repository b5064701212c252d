#include "vk_compute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_VK(call) VK_SAMPLE_CHECK("compute_mandelbrot", call)

VkResult vk_compute_init(struct vk_compute *vc, bool validation)
{
   memset(vc, 0, sizeof(*vc));
   /* Compute is core 1.0. */
   VkResult r =
       vk_sample_instance_create(&vc->inst, "compute_mandelbrot", VK_API_VERSION_1_0, validation);
   if (r != VK_SUCCESS)
      return r;

   uint32_t count = 1;
   r = vkEnumeratePhysicalDevices(vc->inst.instance, &count, &vc->physical_device);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
      fprintf(stderr, "compute_mandelbrot: no Vulkan device\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(vc->physical_device, &props);
   memcpy(vc->device_name, props.deviceName, sizeof(vc->device_name));
   vkGetPhysicalDeviceMemoryProperties(vc->physical_device, &vc->memory);

   VkQueueFamilyProperties families[16];
   count = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(vc->physical_device, &count, families);
   vc->family = UINT32_MAX;
   for (uint32_t i = 0; i < count && vc->family == UINT32_MAX; i++) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         vc->family = i;
   }
   if (vc->family == UINT32_MAX) {
      fprintf(stderr, "compute_mandelbrot: %s has no compute queue\n", vc->device_name);
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
       .queueFamilyIndex = vc->family,
       .queueCount = 1,
       .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .queueCreateInfoCount = 1,
       .pQueueCreateInfos = &qci,
   };
   CHECK_VK(vkCreateDevice(vc->physical_device, &dci, NULL, &vc->device));
   volkLoadDevice(vc->device);
   vkGetDeviceQueue(vc->device, vc->family, 0, &vc->queue);
   return VK_SUCCESS;
}

void vk_compute_finish(struct vk_compute *vc)
{
   if (vc->device)
      vkDestroyDevice(vc->device, NULL);
   vk_sample_instance_destroy(&vc->inst);
}

VkResult vk_storage_buffer_create(struct vk_compute *vc, VkDeviceSize size,
                                  struct vk_storage_buffer *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
   };
   CHECK_VK(vkCreateBuffer(vc->device, &bci, NULL, &out->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(vc->device, out->buffer, &req);
   uint32_t type = vk_sample_memory_type(&vc->memory, req.memoryTypeBits,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (type == UINT32_MAX) {
      fprintf(stderr, "compute_mandelbrot: no host-visible coherent memory\n");
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = type,
   };
   CHECK_VK(vkAllocateMemory(vc->device, &mai, NULL, &out->memory));
   CHECK_VK(vkBindBufferMemory(vc->device, out->buffer, out->memory, 0));
   CHECK_VK(vkMapMemory(vc->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map));
   return VK_SUCCESS;
}

void vk_storage_buffer_destroy(struct vk_compute *vc, struct vk_storage_buffer *buf)
{
   if (buf->buffer)
      vkDestroyBuffer(vc->device, buf->buffer, NULL);
   if (buf->memory)
      vkFreeMemory(vc->device, buf->memory, NULL);
}

VkResult vk_compute_pipeline_create(struct vk_compute *vc, const char *spv_path,
                                    uint32_t push_constant_bytes,
                                    const struct vk_storage_buffer *buffer,
                                    struct vk_sample_compute_pipeline *out)
{
   const VkDescriptorType binding = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   VkResult r = vk_sample_compute_pipeline_create(vc->device, "compute_mandelbrot", spv_path,
                                                  &binding, 1, push_constant_bytes, out);
   if (r != VK_SUCCESS)
      return r;
   VkDescriptorBufferInfo info = {buffer->buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .dstSet = out->set,
       .descriptorCount = 1,
       .descriptorType = binding,
       .pBufferInfo = &info,
   };
   vkUpdateDescriptorSets(vc->device, 1, &write, 0, NULL);
   return VK_SUCCESS;
}

void vk_compute_pipeline_destroy(struct vk_compute *vc, struct vk_sample_compute_pipeline *p)
{
   vk_sample_compute_pipeline_destroy(vc->device, p);
}

VkResult vk_compute_run(struct vk_compute *vc, const struct vk_sample_compute_pipeline *p,
                        const void *push_constants, uint32_t push_constant_bytes, uint32_t groups_x,
                        uint32_t groups_y)
{
   VkCommandPoolCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = vc->family,
   };
   VkCommandPool pool;
   CHECK_VK(vkCreateCommandPool(vc->device, &cpci, NULL, &pool));
   VkCommandBufferAllocateInfo cbai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer cmd;
   VkFence fence = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(vc->device, &cbai, &cmd);
   if (r == VK_SUCCESS) {
      VkCommandBufferBeginInfo begin = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
          .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
      };
      vkBeginCommandBuffer(cmd, &begin);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0,
                              NULL);
      vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes,
                         push_constants);
      vkCmdDispatch(cmd, groups_x, groups_y, 1);
      /* Shader writes become visible to the host's reads of the mapping. */
      VkMemoryBarrier mb = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                           1, &mb, 0, NULL, 0, NULL);
      r = vkEndCommandBuffer(cmd);
   }
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (r == VK_SUCCESS)
      r = vkCreateFence(vc->device, &fci, NULL, &fence);
   if (r == VK_SUCCESS) {
      VkSubmitInfo submit = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      r = vkQueueSubmit(vc->queue, 1, &submit, fence);
   }
   if (r == VK_SUCCESS) /* a minute: the PPU is a software model */
      r = vkWaitForFences(vc->device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
   if (r != VK_SUCCESS)
      fprintf(stderr, "compute_mandelbrot: dispatch failed: %s\n", vk_sample_result_string(r));
   if (r == VK_TIMEOUT) {
      /* The GPU may still use the pool: leave it rather than free it. */
      return r;
   }
   if (fence)
      vkDestroyFence(vc->device, fence, NULL);
   vkDestroyCommandPool(vc->device, pool, NULL);
   return r;
}
