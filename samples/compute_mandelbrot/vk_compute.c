#include "vk_compute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_VK(call)                                                                             \
   do {                                                                                            \
      VkResult r_ = (call);                                                                        \
      if (r_ != VK_SUCCESS) {                                                                      \
         fprintf(stderr, "compute_mandelbrot: %s -> %s\n", #call, vk_result_string(r_));           \
         return r_;                                                                                \
      }                                                                                            \
   } while (0)

const char *vk_result_string(VkResult r)
{
   switch (r) {
   case VK_SUCCESS:
      return "VK_SUCCESS";
   case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
   case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
   case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
   case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
   case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
   case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
   case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
   case VK_ERROR_UNKNOWN:
      return "VK_ERROR_UNKNOWN";
   case VK_TIMEOUT:
      return "VK_TIMEOUT";
   default:
      return "(another VkResult)";
   }
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)types;
   struct vk_compute *vc = user;
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
      vc->error_messages++;
   fprintf(stderr, "compute_mandelbrot: [%s] %s\n",
           (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning",
           data && data->pMessage ? data->pMessage : "(no message)");
   return VK_FALSE; /* VK_TRUE is reserved for layer development */
}

VkResult vk_compute_init(struct vk_compute *vc, bool validation)
{
   memset(vc, 0, sizeof(*vc));
   CHECK_VK(volkInitialize());
   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   VkDebugUtilsMessengerCreateInfoEXT mci = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
       .pfnUserCallback = on_message,
       .pUserData = vc,
   };
   VkApplicationInfo app = {
       .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
       .pApplicationName = "compute_mandelbrot",
       .apiVersion = VK_API_VERSION_1_0, /* compute is core 1.0 */
   };
   VkInstanceCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       .pNext = validation ? &mci : NULL,
       .pApplicationInfo = &app,
       .enabledLayerCount = validation ? 1 : 0,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = validation ? 1 : 0,
       .ppEnabledExtensionNames = extensions,
   };
   CHECK_VK(vkCreateInstance(&ici, NULL, &vc->instance));
   volkLoadInstance(vc->instance);
   if (validation)
      CHECK_VK(vkCreateDebugUtilsMessengerEXT(vc->instance, &mci, NULL, &vc->messenger));

   uint32_t count = 1;
   VkResult r = vkEnumeratePhysicalDevices(vc->instance, &count, &vc->physical_device);
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
   if (vc->messenger)
      vkDestroyDebugUtilsMessengerEXT(vc->instance, vc->messenger, NULL);
   if (vc->instance)
      vkDestroyInstance(vc->instance, NULL);
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
   const VkMemoryPropertyFlags want =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   uint32_t type = UINT32_MAX;
   for (uint32_t i = 0; i < vc->memory.memoryTypeCount && type == UINT32_MAX; i++) {
      if ((req.memoryTypeBits & (1u << i)) &&
          (vc->memory.memoryTypes[i].propertyFlags & want) == want)
         type = i;
   }
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

static uint32_t *read_file(const char *path, size_t *bytes)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint32_t *words = size > 0 && size % 4 == 0 ? malloc((size_t)size) : NULL;
   if (!words || fread(words, 1, (size_t)size, f) != (size_t)size) {
      fprintf(stderr, "compute_mandelbrot: cannot read SPIR-V from %s\n", path);
      free(words);
      words = NULL;
   }
   fclose(f);
   *bytes = (size_t)size;
   return words;
}

VkResult vk_compute_pipeline_create(struct vk_compute *vc, const char *spv_path,
                                    uint32_t push_constant_bytes,
                                    const struct vk_storage_buffer *buffer,
                                    struct vk_compute_pipeline *out)
{
   memset(out, 0, sizeof(*out));
   size_t bytes = 0;
   uint32_t *code = read_file(spv_path, &bytes);
   if (!code)
      return VK_ERROR_INITIALIZATION_FAILED;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = bytes,
       .pCode = code,
   };
   VkResult r = vkCreateShaderModule(vc->device, &smci, NULL, &out->module);
   free(code);
   CHECK_VK(r);
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo slci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 1,
       .pBindings = &binding,
   };
   CHECK_VK(vkCreateDescriptorSetLayout(vc->device, &slci, NULL, &out->set_layout));
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
   VkPipelineLayoutCreateInfo plci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &out->set_layout,
       .pushConstantRangeCount = 1,
       .pPushConstantRanges = &range,
   };
   CHECK_VK(vkCreatePipelineLayout(vc->device, &plci, NULL, &out->layout));
   VkComputePipelineCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = out->module,
                 .pName = "main"},
       .layout = out->layout,
   };
   CHECK_VK(vkCreateComputePipelines(vc->device, VK_NULL_HANDLE, 1, &cpci, NULL, &out->pipeline));
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo dpci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   CHECK_VK(vkCreateDescriptorPool(vc->device, &dpci, NULL, &out->pool));
   VkDescriptorSetAllocateInfo dsai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = out->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &out->set_layout,
   };
   CHECK_VK(vkAllocateDescriptorSets(vc->device, &dsai, &out->set));
   VkDescriptorBufferInfo info = {buffer->buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet write = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .dstSet = out->set,
       .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
       .pBufferInfo = &info,
   };
   vkUpdateDescriptorSets(vc->device, 1, &write, 0, NULL);
   return VK_SUCCESS;
}

void vk_compute_pipeline_destroy(struct vk_compute *vc, struct vk_compute_pipeline *p)
{
   if (p->pool)
      vkDestroyDescriptorPool(vc->device, p->pool, NULL);
   if (p->pipeline)
      vkDestroyPipeline(vc->device, p->pipeline, NULL);
   if (p->layout)
      vkDestroyPipelineLayout(vc->device, p->layout, NULL);
   if (p->set_layout)
      vkDestroyDescriptorSetLayout(vc->device, p->set_layout, NULL);
   if (p->module)
      vkDestroyShaderModule(vc->device, p->module, NULL);
}

VkResult vk_compute_run(struct vk_compute *vc, const struct vk_compute_pipeline *p,
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
      fprintf(stderr, "compute_mandelbrot: dispatch failed: %s\n", vk_result_string(r));
   if (r == VK_TIMEOUT) {
      /* The GPU may still use the pool: leave it rather than free it. */
      return r;
   }
   if (fence)
      vkDestroyFence(vc->device, fence, NULL);
   vkDestroyCommandPool(vc->device, pool, NULL);
   return r;
}
