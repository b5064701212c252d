#include "rq_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The software PPU model is slow: a 1024x1024 dispatch of a large scene may
 * take many minutes there. */
#define WAIT_NANOSECONDS (30ull * 60 * 1000 * 1000 * 1000)

#define MAX_DEVICE_EXTENSIONS 10

double rq_host_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The extensions to enable on a device used as api_version. Ray queries need
 * SPIR-V 1.4, buffer device addresses and descriptor indexing, all core in
 * 1.2 and extensions before (VK_KHR_ray_query and
 * VK_KHR_acceleration_structure "Extension and Version Dependencies"). */
static uint32_t required_extensions(const struct rq_context *ctx, uint32_t api_version,
                                    const char **names)
{
   uint32_t n = 0;
   if (ctx->surface)
      names[n++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
   names[n++] = VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME;
   names[n++] = VK_KHR_RAY_QUERY_EXTENSION_NAME;
   names[n++] = VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME;
#ifdef RQ_RAY_TRACING_PIPELINE
   /* samples/rt_ambient_occlusion traces with a ray-tracing pipeline. */
   names[n++] = VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME;
#endif
   if (api_version < VK_API_VERSION_1_2) {
      names[n++] = VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME;
      names[n++] = VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME;
      names[n++] = VK_KHR_SPIRV_1_4_EXTENSION_NAME;
      names[n++] = VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME;
   }
   return n;
}

struct device_features {
   VkPhysicalDeviceFeatures2 base;
   VkPhysicalDeviceAccelerationStructureFeaturesKHR as;
   VkPhysicalDeviceRayQueryFeaturesKHR ray_query;
   VkPhysicalDeviceBufferDeviceAddressFeatures address;
   VkPhysicalDeviceRayTracingPipelineFeaturesKHR pipeline;
};

/* Links the chain inside *f (so *f must not move while it is used). */
static void chain_features(struct device_features *f)
{
   memset(f, 0, sizeof(*f));
   f->base.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->base.pNext = &f->as;
   f->as.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
   f->as.pNext = &f->ray_query;
   f->ray_query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
   f->ray_query.pNext = &f->address;
   f->address.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
#ifdef RQ_RAY_TRACING_PIPELINE
   f->address.pNext = &f->pipeline;
   f->pipeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;
#endif
}

/* Why pd cannot run the sample, or NULL when it can (then *family is set). */
static const char *unsuitable(struct rq_context *ctx, VkPhysicalDevice pd, uint32_t instance_api,
                              uint32_t *family)
{
   static char reason[160];
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pd, &props);
   uint32_t api = props.apiVersion < instance_api ? props.apiVersion : instance_api;
   if (api < VK_API_VERSION_1_1)
      return "Vulkan 1.1 is needed for ray queries";
   uint32_t count = 0;
   if (vkEnumerateDeviceExtensionProperties(pd, NULL, &count, NULL) != VK_SUCCESS)
      return "cannot list its extensions";
   VkExtensionProperties *have = calloc(count ? count : 1, sizeof(*have));
   if (!have || vkEnumerateDeviceExtensionProperties(pd, NULL, &count, have) != VK_SUCCESS) {
      free(have);
      return "cannot list its extensions";
   }
   const char *names[MAX_DEVICE_EXTENSIONS];
   uint32_t needed = required_extensions(ctx, api, names);
   const char *missing = NULL;
   for (uint32_t i = 0; i < needed && !missing; i++) {
      bool found = false;
      for (uint32_t j = 0; j < count && !found; j++)
         found = !strcmp(have[j].extensionName, names[i]);
      if (!found)
         missing = names[i];
   }
   free(have);
   if (missing) {
      snprintf(reason, sizeof(reason), "no %s", missing);
      return reason;
   }
   struct device_features f;
   chain_features(&f);
   vkGetPhysicalDeviceFeatures2(pd, &f.base);
   if (!f.as.accelerationStructure || !f.ray_query.rayQuery || !f.address.bufferDeviceAddress)
      return "accelerationStructure, rayQuery or bufferDeviceAddress feature missing";
#ifdef RQ_RAY_TRACING_PIPELINE
   if (!f.pipeline.rayTracingPipeline)
      return "rayTracingPipeline feature missing";
#endif

   VkQueueFamilyProperties families[16];
   count = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families);
   const VkQueueFlags flags = VK_QUEUE_COMPUTE_BIT | (ctx->surface ? VK_QUEUE_GRAPHICS_BIT : 0);
   for (uint32_t i = 0; i < count; i++) {
      VkBool32 present = VK_TRUE;
      if (ctx->surface &&
          vkGetPhysicalDeviceSurfaceSupportKHR(pd, i, ctx->surface, &present) != VK_SUCCESS)
         present = VK_FALSE;
      if ((families[i].queueFlags & flags) == flags && present) {
         *family = i;
         ctx->timestamp_valid_bits = families[i].timestampValidBits;
         ctx->api_version = api;
         ctx->host_commands = f.as.accelerationStructureHostCommands;
         return NULL;
      }
   }
   return ctx->surface ? "no queue family with graphics, compute and present" : "no compute queue";
}

static VkResult pick_physical_device(struct rq_context *ctx, uint32_t instance_api)
{
   VkPhysicalDevice devices[16];
   uint32_t count = 16;
   VkResult r = vkEnumeratePhysicalDevices(ctx->inst.instance, &count, devices);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
      fprintf(stderr, RQ_TAG ": no Vulkan device\n");
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   }
   for (uint32_t i = 0; i < count; i++) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(devices[i], &props);
      const char *why = unsuitable(ctx, devices[i], instance_api, &ctx->family);
      if (!why) {
         ctx->physical_device = devices[i];
         ctx->properties = props;
         return VK_SUCCESS;
      }
      fprintf(stderr, RQ_TAG ": %s cannot trace ray queries: %s\n", props.deviceName, why);
   }
   return VK_ERROR_EXTENSION_NOT_PRESENT;
}

static VkResult create_device(struct rq_context *ctx)
{
   const char *names[MAX_DEVICE_EXTENSIONS];
   uint32_t extension_count = required_extensions(ctx, ctx->api_version, names);
   struct device_features f;
   chain_features(&f);
   f.as.accelerationStructure = VK_TRUE;
   f.as.accelerationStructureHostCommands = ctx->host_commands;
   f.ray_query.rayQuery = VK_TRUE;
   f.address.bufferDeviceAddress = VK_TRUE;
   f.pipeline.rayTracingPipeline = VK_TRUE; /* chained only with RQ_RAY_TRACING_PIPELINE */
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
       .queueFamilyIndex = ctx->family,
       .queueCount = 1,
       .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dci = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .pNext = &f.base,
       .queueCreateInfoCount = 1,
       .pQueueCreateInfos = &qci,
       .enabledExtensionCount = extension_count,
       .ppEnabledExtensionNames = names,
   };
   CHECK_VK(vkCreateDevice(ctx->physical_device, &dci, NULL, &ctx->device));
   volkLoadDevice(ctx->device);
   vkGetDeviceQueue(ctx->device, ctx->family, 0, &ctx->queue);
   /* The same command under its 1.2 and its extension name. */
   ctx->get_buffer_address = ctx->api_version >= VK_API_VERSION_1_2 ? vkGetBufferDeviceAddress
                                                                    : vkGetBufferDeviceAddressKHR;
   return ctx->get_buffer_address ? VK_SUCCESS : VK_ERROR_INITIALIZATION_FAILED;
}

VkResult rq_context_init(struct rq_context *ctx, bool validation)
{
   return rq_context_init_present(ctx, validation, NULL);
}

VkResult rq_context_init_present(struct rq_context *ctx, bool validation,
                                 const struct rq_present_hooks *present)
{
   memset(ctx, 0, sizeof(*ctx));
   CHECK_VK(volkInitialize());
   /* 1.2 where the loader has it; 1.1 is the least ray queries can work
    * with (vkGetPhysicalDeviceFeatures2 and the extensions above). */
   uint32_t loader_api = volkGetInstanceVersion();
   if (loader_api < VK_API_VERSION_1_1) {
      fprintf(stderr, RQ_TAG ": the Vulkan loader is older than 1.1\n");
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   }
   uint32_t instance_api =
       loader_api >= VK_API_VERSION_1_2 ? VK_API_VERSION_1_2 : VK_API_VERSION_1_1;
   VkResult r = vk_sample_instance_create_with(&ctx->inst, RQ_TAG, instance_api, validation,
                                               present ? present->instance_extensions : NULL,
                                               present ? present->instance_extension_count : 0);
   if (r != VK_SUCCESS)
      return r;
   if (present) {
      r = present->make_surface(present->user, ctx->inst.instance, &ctx->surface);
      if (r != VK_SUCCESS)
         return r;
   }
   r = pick_physical_device(ctx, instance_api);
   if (r != VK_SUCCESS)
      return r;
   vkGetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory);
   ctx->as_properties.sType =
       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR;
   VkPhysicalDeviceProperties2 props2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = &ctx->as_properties,
   };
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &props2);
   CHECK_VK(create_device(ctx));
   VkCommandPoolCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
       .queueFamilyIndex = ctx->family,
   };
   CHECK_VK(vkCreateCommandPool(ctx->device, &cpci, NULL, &ctx->command_pool));
   if (ctx->timestamp_valid_bits) {
      VkQueryPoolCreateInfo qpci = {
          .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
          .queryType = VK_QUERY_TYPE_TIMESTAMP,
          .queryCount = 2,
      };
      CHECK_VK(vkCreateQueryPool(ctx->device, &qpci, NULL, &ctx->timestamps));
   }
   return VK_SUCCESS;
}

void rq_context_finish(struct rq_context *ctx)
{
   if (ctx->device) {
      if (ctx->timestamps)
         vkDestroyQueryPool(ctx->device, ctx->timestamps, NULL);
      if (ctx->command_pool)
         vkDestroyCommandPool(ctx->device, ctx->command_pool, NULL);
      vkDestroyDevice(ctx->device, NULL);
   }
   if (ctx->surface)
      vkDestroySurfaceKHR(ctx->inst.instance, ctx->surface, NULL);
   vk_sample_instance_destroy(&ctx->inst);
}

VkResult rq_buffer_create(struct rq_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                          bool host_visible, struct rq_buffer *out)
{
   memset(out, 0, sizeof(*out));
   out->size = size;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage,
   };
   CHECK_VK(vkCreateBuffer(ctx->device, &bci, NULL, &out->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(ctx->device, out->buffer, &req);
   uint32_t type;
   if (host_visible) {
      type = vk_sample_memory_type(&ctx->memory, req.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   } else {
      type = vk_sample_memory_type(&ctx->memory, req.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX)
         type = vk_sample_memory_type(&ctx->memory, req.memoryTypeBits, 0);
   }
   if (type == UINT32_MAX) {
      fprintf(stderr, RQ_TAG ": no memory type for a buffer of usage 0x%x\n", (unsigned)usage);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   bool addressed = usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
   VkMemoryAllocateFlagsInfo flags = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = addressed ? &flags : NULL,
       .allocationSize = req.size,
       .memoryTypeIndex = type,
   };
   CHECK_VK(vkAllocateMemory(ctx->device, &mai, NULL, &out->memory));
   CHECK_VK(vkBindBufferMemory(ctx->device, out->buffer, out->memory, 0));
   if (host_visible)
      CHECK_VK(vkMapMemory(ctx->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map));
   if (addressed) {
      VkBufferDeviceAddressInfo bai = {
          .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
          .buffer = out->buffer,
      };
      out->address = ctx->get_buffer_address(ctx->device, &bai);
   }
   return VK_SUCCESS;
}

void rq_buffer_destroy(struct rq_context *ctx, struct rq_buffer *buf)
{
   if (buf->buffer)
      vkDestroyBuffer(ctx->device, buf->buffer, NULL);
   if (buf->memory)
      vkFreeMemory(ctx->device, buf->memory, NULL);
   memset(buf, 0, sizeof(*buf));
}

VkResult rq_commands_begin(struct rq_context *ctx, VkCommandBuffer *cmd)
{
   VkResult r = vk_sample_begin_one_time(ctx->device, ctx->command_pool, RQ_TAG, cmd);
   if (r != VK_SUCCESS)
      return r;
   if (ctx->timestamps) {
      vkCmdResetQueryPool(*cmd, ctx->timestamps, 0, 2);
      vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ctx->timestamps, 0);
   }
   return VK_SUCCESS;
}

static VkResult timestamp_seconds(struct rq_context *ctx, double *seconds)
{
   uint64_t ticks[2];
   CHECK_VK(vkGetQueryPoolResults(ctx->device, ctx->timestamps, 0, 2, sizeof(ticks), ticks,
                                  sizeof(ticks[0]),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   /* Only timestampValidBits count; the difference wraps within them. */
   uint64_t mask =
       ctx->timestamp_valid_bits >= 64 ? UINT64_MAX : (1ull << ctx->timestamp_valid_bits) - 1;
   uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
   *seconds = (double)elapsed * ctx->properties.limits.timestampPeriod * 1e-9;
   return VK_SUCCESS;
}

VkResult rq_commands_submit(struct rq_context *ctx, VkCommandBuffer cmd, double *seconds,
                            bool *timed_on_gpu)
{
   if (ctx->timestamps)
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ctx->timestamps, 1);
   VkFence fence = VK_NULL_HANDLE;
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkResult r = vkEndCommandBuffer(cmd);
   if (r == VK_SUCCESS)
      r = vkCreateFence(ctx->device, &fci, NULL, &fence);
   double start = rq_host_seconds();
   if (r == VK_SUCCESS) {
      VkSubmitInfo submit = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      r = vkQueueSubmit(ctx->queue, 1, &submit, fence);
   }
   if (r == VK_SUCCESS)
      r = vkWaitForFences(ctx->device, 1, &fence, VK_TRUE, WAIT_NANOSECONDS);
   double host = rq_host_seconds() - start;
   if (r != VK_SUCCESS) {
      fprintf(stderr, RQ_TAG ": submission failed: %s\n", vk_sample_result_string(r));
      /* After a timeout the GPU may still use them: leave them. */
      if (r == VK_TIMEOUT)
         return r;
   }
   if (fence)
      vkDestroyFence(ctx->device, fence, NULL);
   vkFreeCommandBuffers(ctx->device, ctx->command_pool, 1, &cmd);
   if (r != VK_SUCCESS)
      return r;
   if (timed_on_gpu)
      *timed_on_gpu = ctx->timestamps != VK_NULL_HANDLE;
   if (!ctx->timestamps) {
      *seconds = host;
      return VK_SUCCESS;
   }
   return timestamp_seconds(ctx, seconds);
}
