#include "vk_sample.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one VkResult-name table of the samples and the API tests. */
const char *vk_sample_result_string(VkResult r)
{
   switch (r) {
#define NAME(result)                                                                               \
   case result:                                                                                    \
      return #result
      NAME(VK_SUCCESS);
      NAME(VK_NOT_READY);
      NAME(VK_TIMEOUT);
      NAME(VK_EVENT_SET);
      NAME(VK_EVENT_RESET);
      NAME(VK_INCOMPLETE);
      NAME(VK_ERROR_OUT_OF_HOST_MEMORY);
      NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY);
      NAME(VK_ERROR_INITIALIZATION_FAILED);
      NAME(VK_ERROR_DEVICE_LOST);
      NAME(VK_ERROR_MEMORY_MAP_FAILED);
      NAME(VK_ERROR_LAYER_NOT_PRESENT);
      NAME(VK_ERROR_EXTENSION_NOT_PRESENT);
      NAME(VK_ERROR_FEATURE_NOT_PRESENT);
      NAME(VK_ERROR_INCOMPATIBLE_DRIVER);
      NAME(VK_ERROR_TOO_MANY_OBJECTS);
      NAME(VK_ERROR_FORMAT_NOT_SUPPORTED);
      NAME(VK_ERROR_FRAGMENTED_POOL);
      NAME(VK_ERROR_UNKNOWN);
      NAME(VK_ERROR_OUT_OF_POOL_MEMORY);
      NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE);
      NAME(VK_ERROR_FRAGMENTATION);
      NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
      NAME(VK_PIPELINE_COMPILE_REQUIRED);
      NAME(VK_THREAD_IDLE_KHR);
      NAME(VK_THREAD_DONE_KHR);
      NAME(VK_OPERATION_DEFERRED_KHR);
      NAME(VK_OPERATION_NOT_DEFERRED_KHR);
#undef NAME
   default: {
      static _Thread_local char text[32];
      snprintf(text, sizeof(text), "VkResult(%d)", (int)r);
      return text;
   }
   }
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)types;
   struct vk_sample_instance *si = user;
   bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   if (error)
      si->error_messages++;
   fprintf(stderr, "%s: [%s] %s\n", si->tag, error ? "error" : "warning",
           data && data->pMessage ? data->pMessage : "(no message)");
   return VK_FALSE; /* VK_TRUE is reserved for layer development */
}

VkResult vk_sample_instance_create(struct vk_sample_instance *si, const char *tag,
                                   uint32_t api_version, bool validation)
{
   return vk_sample_instance_create_with(si, tag, api_version, validation, NULL, 0);
}

VkResult vk_sample_instance_create_with(struct vk_sample_instance *si, const char *tag,
                                        uint32_t api_version, bool validation,
                                        const char *const *extra_extensions, uint32_t extra_count)
{
   memset(si, 0, sizeof(*si));
   si->tag = tag;
   VkResult r = volkInitialize();
   if (r != VK_SUCCESS) {
      fprintf(stderr, "%s: no Vulkan loader: %s\n", tag, vk_sample_result_string(r));
      return r;
   }
   const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
   const char *extensions[VK_SAMPLE_MAX_INSTANCE_EXTENSIONS + 1];
   if (extra_count > VK_SAMPLE_MAX_INSTANCE_EXTENSIONS) {
      fprintf(stderr, "%s: too many instance extensions (%u)\n", tag, extra_count);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   }
   for (uint32_t i = 0; i < extra_count; i++)
      extensions[i] = extra_extensions[i];
   extensions[extra_count] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
   VkDebugUtilsMessengerCreateInfoEXT mci = {
       .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
       .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
       .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
       .pfnUserCallback = on_message,
       .pUserData = si,
   };
   VkApplicationInfo app = {
       .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
       .pApplicationName = tag,
       .apiVersion = api_version,
   };
   /* The messenger in pNext also reports on vkCreateInstance itself. */
   VkInstanceCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
       .pNext = validation ? &mci : NULL,
       .pApplicationInfo = &app,
       .enabledLayerCount = validation ? 1 : 0,
       .ppEnabledLayerNames = layers,
       .enabledExtensionCount = extra_count + (validation ? 1 : 0),
       .ppEnabledExtensionNames = extensions,
   };
   r = vkCreateInstance(&ici, NULL, &si->instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "%s: vkCreateInstance%s: %s\n", tag, validation ? " (with validation)" : "",
              vk_sample_result_string(r));
      si->instance = VK_NULL_HANDLE;
      return r;
   }
   volkLoadInstance(si->instance);
   if (validation) {
      r = vkCreateDebugUtilsMessengerEXT(si->instance, &mci, NULL, &si->messenger);
      if (r != VK_SUCCESS)
         fprintf(stderr, "%s: vkCreateDebugUtilsMessengerEXT: %s\n", tag,
                 vk_sample_result_string(r));
   }
   return r;
}

void vk_sample_instance_destroy(struct vk_sample_instance *si)
{
   if (si->messenger)
      vkDestroyDebugUtilsMessengerEXT(si->instance, si->messenger, NULL);
   if (si->instance)
      vkDestroyInstance(si->instance, NULL);
   si->messenger = VK_NULL_HANDLE;
   si->instance = VK_NULL_HANDLE;
}

uint32_t vk_sample_memory_type(const VkPhysicalDeviceMemoryProperties *memory, uint32_t type_bits,
                               VkMemoryPropertyFlags want)
{
   for (uint32_t i = 0; i < memory->memoryTypeCount; i++) {
      if ((type_bits & (1u << i)) && (memory->memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

/* Reads a SPIR-V file into malloc'd words, or prints why not. */
static uint32_t *read_spirv(const char *tag, const char *path, size_t *bytes)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "%s: cannot open %s: %s\n", tag, path, strerror(errno));
      return NULL;
   }
   long size = -1;
   if (fseek(f, 0, SEEK_END) == 0)
      size = ftell(f);
   uint32_t *words = NULL;
   if (size > 0 && size % 4 == 0 && fseek(f, 0, SEEK_SET) == 0)
      words = malloc((size_t)size);
   if (!words || fread(words, 1, (size_t)size, f) != (size_t)size) {
      fprintf(stderr, "%s: cannot read SPIR-V from %s (size %ld)\n", tag, path, size);
      free(words);
      words = NULL;
   }
   fclose(f);
   *bytes = words ? (size_t)size : 0;
   return words;
}

VkResult vk_sample_descriptor_set_create(VkDevice device, const char *tag,
                                         const VkDescriptorType *binding_types,
                                         uint32_t binding_count, VkShaderStageFlags stages,
                                         struct vk_sample_compute_pipeline *out)
{
   VkDescriptorSetLayoutBinding *bindings =
       calloc(binding_count ? binding_count : 1, sizeof(*bindings));
   /* One pool size per binding: the pool adds up sizes of the same type. */
   VkDescriptorPoolSize *sizes = calloc(binding_count ? binding_count : 1, sizeof(*sizes));
   VkResult r = bindings && sizes ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t b = 0; r == VK_SUCCESS && b < binding_count; b++) {
      bindings[b] = (VkDescriptorSetLayoutBinding){b, binding_types[b], 1, stages, NULL};
      sizes[b] = (VkDescriptorPoolSize){binding_types[b], 1};
   }
   VkDescriptorSetLayoutCreateInfo slci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = binding_count,
       .pBindings = bindings,
   };
   VkDescriptorPoolCreateInfo dpci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = binding_count,
       .pPoolSizes = sizes,
   };
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorSetLayout(device, &slci, NULL, &out->set_layout);
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorPool(device, &dpci, NULL, &out->pool);
   free(bindings);
   free(sizes);
   VK_SAMPLE_CHECK(tag, r);
   VkDescriptorSetAllocateInfo dsai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = out->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &out->set_layout,
   };
   VK_SAMPLE_CHECK(tag, vkAllocateDescriptorSets(device, &dsai, &out->set));
   return VK_SUCCESS;
}

VkResult vk_sample_shader_module_create(VkDevice device, const char *tag, const char *spv_path,
                                        VkShaderModule *out)
{
   size_t bytes = 0;
   uint32_t *code = read_spirv(tag, spv_path, &bytes);
   if (!code)
      return VK_ERROR_INITIALIZATION_FAILED;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = bytes,
       .pCode = code,
   };
   VkResult r = vkCreateShaderModule(device, &smci, NULL, out);
   free(code);
   VK_SAMPLE_CHECK(tag, r);
   return VK_SUCCESS;
}

VkResult vk_sample_compute_pipeline_create(VkDevice device, const char *tag, const char *spv_path,
                                           const VkDescriptorType *binding_types,
                                           uint32_t binding_count, uint32_t push_constant_bytes,
                                           struct vk_sample_compute_pipeline *out)
{
   memset(out, 0, sizeof(*out));
   VkResult r = vk_sample_shader_module_create(device, tag, spv_path, &out->module);
   if (r != VK_SUCCESS)
      return r;
   r = vk_sample_descriptor_set_create(device, tag, binding_types, binding_count,
                                       VK_SHADER_STAGE_COMPUTE_BIT, out);
   if (r != VK_SUCCESS)
      return r;
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
   VkPipelineLayoutCreateInfo plci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &out->set_layout,
       .pushConstantRangeCount = push_constant_bytes ? 1 : 0,
       .pPushConstantRanges = &range,
   };
   VK_SAMPLE_CHECK(tag, vkCreatePipelineLayout(device, &plci, NULL, &out->layout));
   VkComputePipelineCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = out->module,
                 .pName = "main"},
       .layout = out->layout,
   };
   VK_SAMPLE_CHECK(
       tag, vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &out->pipeline));
   return VK_SUCCESS;
}

void vk_sample_compute_pipeline_destroy(VkDevice device, struct vk_sample_compute_pipeline *p)
{
   if (p->pool)
      vkDestroyDescriptorPool(device, p->pool, NULL);
   if (p->pipeline)
      vkDestroyPipeline(device, p->pipeline, NULL);
   if (p->layout)
      vkDestroyPipelineLayout(device, p->layout, NULL);
   if (p->set_layout)
      vkDestroyDescriptorSetLayout(device, p->set_layout, NULL);
   if (p->module)
      vkDestroyShaderModule(device, p->module, NULL);
   memset(p, 0, sizeof(*p));
}

VkResult vk_sample_begin_one_time(VkDevice device, VkCommandPool pool, const char *tag,
                                  VkCommandBuffer *cmd)
{
   VkCommandBufferAllocateInfo cbai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   VK_SAMPLE_CHECK(tag, vkAllocateCommandBuffers(device, &cbai, cmd));
   VkCommandBufferBeginInfo begin = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   VkResult r = vkBeginCommandBuffer(*cmd, &begin);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "%s: vkBeginCommandBuffer -> %s\n", tag, vk_sample_result_string(r));
      vkFreeCommandBuffers(device, pool, 1, cmd);
   }
   return r;
}

void vk_sample_image_barrier(VkCommandBuffer cmd, VkImage image, uint32_t level,
                             uint32_t level_count, VkImageLayout from, VkImageLayout to,
                             VkAccessFlags src_access, VkAccessFlags dst_access,
                             VkPipelineStageFlags dst_stage)
{
   VkImageMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
       .srcAccessMask = src_access,
       .dstAccessMask = dst_access,
       .oldLayout = from,
       .newLayout = to,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = image,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, level_count, 0, 1},
   };
   vkCmdPipelineBarrier(cmd,
                        VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

bool vk_sample_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
   char *end = NULL;
   unsigned long v = strtoul(s, &end, 10);
   if (!s[0] || *end || s[0] == '-' || v < lo || v > hi)
      return false;
   *out = (uint32_t)v;
   return true;
}

bool vk_sample_parse_double(const char *s, double lo, double hi, double *out)
{
   char *end = NULL;
   double v = strtod(s, &end);
   if (!s[0] || *end || !(v >= lo && v <= hi))
      return false;
   *out = v;
   return true;
}

bool vk_sample_parse_float(const char *s, double lo, double hi, float *out)
{
   double v;
   if (!vk_sample_parse_double(s, lo, hi, &v))
      return false;
   *out = (float)v;
   return true;
}
