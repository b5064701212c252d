/* Vulkan 1.1 as a device reports it: the version, the features and limits
 * the spec requires of every 1.1 device ("Feature Requirements", "Required
 * Limits"), the core 1.1 commands, render passes with multiview and
 * framebuffers, the extensions promoted to 1.1 that the device lists, and
 * SPIR-V 1.3 shaders: the subgroup BASIC operations, relaxed block layout. Runs on vkppu and on
 * lavapipe; the checks of vkppu's own values and of its answers to invalid
 * input are vkppu-only. */
#include <string.h>

#include "compute_test_util.h"
#include "image_test_util.h"

static bool is_power_of_two(uint32_t v)
{
   return v && !(v & (v - 1));
}

/* Context whose device reports Vulkan 1.1 or later; false (skipped or
 * failed) otherwise. */
static bool context_1_1(struct vkt_context *ctx)
{
   if (!vkt_context_create(ctx))
      return false;
   if (ctx->props.apiVersion < VK_API_VERSION_1_1) {
      if (ctx->is_vkppu)
         test_fail(__FILE__, __LINE__, "vkppu reports apiVersion %u.%u, expected 1.1",
                   VK_API_VERSION_MAJOR(ctx->props.apiVersion),
                   VK_API_VERSION_MINOR(ctx->props.apiVersion));
      else
         vkt_skip("%s reports Vulkan 1.0", ctx->props.deviceName);
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* A 1.1 context and a device with the multiview feature enabled and every
 * queue; false (skipped or failed, nothing left to destroy) otherwise. */
static bool multiview_setup(struct vkt_context *ctx, struct vkt_device *dev)
{
   if (!context_1_1(ctx))
      return false;
   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
       .multiview = VK_TRUE,
   };
   struct vkt_device_desc desc = {.feature_chain = &mv, .all_queues = true};
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with multiview -> %s", vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* ---------------------------------------------------------------------------
 * Version, features, limits
 * ------------------------------------------------------------------------- */
TEST_CASE(device_reports_vulkan_1_1_and_its_required_features)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   uint32_t instance_version = 0;
   VKT_CHECK(vkEnumerateInstanceVersion(&instance_version));
   CHECK_MSG(instance_version >= VK_API_VERSION_1_1, "instance version 0x%x", instance_version);

   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
   VkPhysicalDeviceShaderDrawParametersFeatures draw = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, .pNext = &mv};
   VkPhysicalDeviceVariablePointersFeatures vp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, .pNext = &draw};
   VkPhysicalDevice16BitStorageFeatures s16 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, .pNext = &vp};
   VkPhysicalDeviceProtectedMemoryFeatures prot = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES, .pNext = &s16};
   VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
       .pNext = &prot};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &ycbcr};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);

   /* Feature Requirements: 1.1 requires multiview; the multiview features
    * for geometry and tessellation need those stages; variablePointers
    * needs variablePointersStorageBuffer. */
   CHECK(mv.multiview == VK_TRUE);
   if (mv.multiviewGeometryShader)
      CHECK(f2.features.geometryShader);
   if (mv.multiviewTessellationShader)
      CHECK(f2.features.tessellationShader);
   if (vp.variablePointers)
      CHECK(vp.variablePointersStorageBuffer);
   CHECK(f2.features.robustBufferAccess == VK_TRUE);

   if (ctx.is_vkppu) {
      /* What vkppu implements of 1.1, and nothing more (docs/status.md). */
      CHECK(!mv.multiviewGeometryShader && !mv.multiviewTessellationShader);
      CHECK(draw.shaderDrawParameters);
      CHECK(!vp.variablePointers && !vp.variablePointersStorageBuffer);
      CHECK(!s16.storageBuffer16BitAccess && !s16.uniformAndStorageBuffer16BitAccess &&
            !s16.storagePushConstant16 && !s16.storageInputOutput16);
      CHECK(!prot.protectedMemory);
      CHECK(!ycbcr.samplerYcbcrConversion);
   }
   vkt_context_destroy(&ctx);
}

TEST_CASE(vulkan_1_1_properties_meet_the_required_limits)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   VkPhysicalDeviceMaintenance3Properties m3 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
   VkPhysicalDeviceProtectedMemoryProperties prot = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES, .pNext = &m3};
   VkPhysicalDeviceMultiviewProperties mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES, .pNext = &prot};
   VkPhysicalDevicePointClippingProperties clip = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES, .pNext = &mv};
   VkPhysicalDeviceSubgroupProperties sg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &clip};
   VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
                                      .pNext = &sg};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &id};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);

   /* Required Limits (Vulkan 1.1 column). */
   CHECK_MSG(mv.maxMultiviewViewCount >= 6, "maxMultiviewViewCount %u", mv.maxMultiviewViewCount);
   CHECK_MSG(mv.maxMultiviewInstanceIndex >= (1u << 27) - 1, "maxMultiviewInstanceIndex %u",
             mv.maxMultiviewInstanceIndex);
   CHECK_MSG(m3.maxPerSetDescriptors >= 1024, "maxPerSetDescriptors %u", m3.maxPerSetDescriptors);
   CHECK_MSG(m3.maxMemoryAllocationSize >= (1ull << 30), "maxMemoryAllocationSize %llu",
             (unsigned long long)m3.maxMemoryAllocationSize);
   CHECK_MSG(is_power_of_two(sg.subgroupSize), "subgroupSize %u", sg.subgroupSize);
   CHECK(sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
   CHECK(sg.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
   CHECK(clip.pointClippingBehavior == VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES ||
         clip.pointClippingBehavior == VK_POINT_CLIPPING_BEHAVIOR_USER_CLIP_PLANES_ONLY);
   /* deviceUUID/driverUUID identify the device across processes. */
   static const uint8_t zero[VK_UUID_SIZE];
   CHECK(memcmp(id.deviceUUID, zero, VK_UUID_SIZE) != 0);
   CHECK(memcmp(id.driverUUID, zero, VK_UUID_SIZE) != 0);

   if (ctx.is_vkppu) {
      /* One warp is a subgroup; every 1.1 operation category is complete
       * in the compiler (docs/compiler.md, "Subgroups"). */
      CHECK(sg.subgroupSize == 32);
      CHECK(sg.supportedStages == VK_SHADER_STAGE_COMPUTE_BIT);
      CHECK_MSG(sg.supportedOperations == 0xffu, "operations 0x%x", sg.supportedOperations);
      CHECK(!sg.quadOperationsInAllStages);
      CHECK(!prot.protectedNoFault);
      CHECK(!id.deviceLUIDValid);
      CHECK(mv.maxMultiviewViewCount == 6);
   }
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Core 1.1 commands
 * ------------------------------------------------------------------------- */
TEST_CASE(core_1_1_commands_are_reachable_and_answer)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   struct vkt_device dev;
   struct vkt_device_desc desc = {.all_queues = true};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));

   static const char *const commands[] = {
       "vkBindBufferMemory2",
       "vkBindImageMemory2",
       "vkGetDeviceGroupPeerMemoryFeatures",
       "vkCmdSetDeviceMask",
       "vkCmdDispatchBase",
       "vkGetImageMemoryRequirements2",
       "vkGetBufferMemoryRequirements2",
       "vkGetImageSparseMemoryRequirements2",
       "vkTrimCommandPool",
       "vkGetDeviceQueue2",
       "vkCreateSamplerYcbcrConversion",
       "vkDestroySamplerYcbcrConversion",
       "vkCreateDescriptorUpdateTemplate",
       "vkDestroyDescriptorUpdateTemplate",
       "vkUpdateDescriptorSetWithTemplate",
       "vkGetDescriptorSetLayoutSupport",
   };
   for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
      CHECK_MSG(vkGetDeviceProcAddr(dev.device, commands[i]) != NULL, "%s is NULL", commands[i]);

   /* vkGetDeviceQueue2 with no flags finds what vkGetDeviceQueue finds. */
   VkDeviceQueueInfo2 qi = {
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2,
       .queueFamilyIndex = ctx.universal_family,
       .queueIndex = 0,
   };
   VkQueue q2 = VK_NULL_HANDLE;
   vkGetDeviceQueue2(dev.device, &qi, &q2);
   CHECK(q2 == dev.queue);

   /* vkTrimCommandPool, then the pool still records and submits. */
   vkTrimCommandPool(dev.device, dev.pools[ctx.universal_family], 0);
   VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
   if (cmd)
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
   vkTrimCommandPool(dev.device, dev.pools[ctx.universal_family], 0);

   /* Y'CbCr conversions: destroying VK_NULL_HANDLE is always valid. */
   vkDestroySamplerYcbcrConversion(dev.device, VK_NULL_HANDLE, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(maintenance3_layout_support_covers_max_per_set_descriptors)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   CHECK(vkt_has_device_extension(&ctx, VK_KHR_MAINTENANCE_3_EXTENSION_NAME));
   struct vkt_device dev;
   struct vkt_device_desc desc = {0};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));
   VkPhysicalDeviceMaintenance3Properties m3 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &m3};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);

   /* maxPerSetDescriptors descriptors in one set are always supported. */
   uint32_t half = m3.maxPerSetDescriptors / 2;
   VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, half, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, m3.maxPerSetDescriptors - half,
        VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = bindings,
   };
   VkDescriptorSetLayoutSupport support = {.sType =
                                               VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
   vkGetDescriptorSetLayoutSupport(dev.device, &ci, &support);
   CHECK(support.supported == VK_TRUE);
   /* The KHR name of the extension is the same command. */
   PFN_vkGetDescriptorSetLayoutSupportKHR khr =
       (PFN_vkGetDescriptorSetLayoutSupportKHR)vkGetDeviceProcAddr(
           dev.device, "vkGetDescriptorSetLayoutSupportKHR");
   CHECK_MSG(khr == NULL, "the KHR name resolves without VK_KHR_maintenance3 enabled");

   if (ctx.is_vkppu) {
      /* Past what the driver's descriptor memory holds: not supported. */
      bindings[0].descriptorCount = 1u << 21;
      support.supported = VK_TRUE;
      vkGetDescriptorSetLayoutSupport(dev.device, &ci, &support);
      CHECK(support.supported == VK_FALSE);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_KHR_maintenance1 and VK_KHR_maintenance2 (core in 1.1): both enable,
 * vkTrimCommandPoolKHR resolves and runs, and a 3D image made 2D-array
 * compatible takes a 2D-array view of its slices with a view usage that
 * is a subset of the image's (VkImageViewUsageCreateInfo). The images
 * tests cover these views in shaders (test_image_compatibility.c). */
TEST_CASE(maintenance1_and_2_enable_and_work)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   CHECK(vkt_has_device_extension(&ctx, VK_KHR_MAINTENANCE_1_EXTENSION_NAME));
   CHECK(vkt_has_device_extension(&ctx, VK_KHR_MAINTENANCE_2_EXTENSION_NAME));
   static const char *const exts[] = {VK_KHR_MAINTENANCE_1_EXTENSION_NAME,
                                      VK_KHR_MAINTENANCE_2_EXTENSION_NAME};
   struct vkt_device dev;
   struct vkt_device_desc desc = {.extensions = exts, .extension_count = 2};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));
   PFN_vkTrimCommandPoolKHR trim =
       (PFN_vkTrimCommandPoolKHR)vkGetDeviceProcAddr(dev.device, "vkTrimCommandPoolKHR");
   CHECK(trim != NULL);
   if (trim)
      trim(dev.device, dev.pools[ctx.universal_family], 0);

   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT,
                            .imageType = VK_IMAGE_TYPE_3D,
                            .format = VK_FORMAT_R8G8B8A8_UNORM,
                            .extent = {16, 8, 4},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
   VkImage image = VK_NULL_HANDLE;
   VKT_REQUIRE(vkCreateImage(dev.device, &ici, NULL, &image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(dev.device, image, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex =
                                   vkt_find_memory_type(&ctx, req.memoryTypeBits, 0, 0)};
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VKT_REQUIRE(vkAllocateMemory(dev.device, &mai, NULL, &memory));
   VKT_REQUIRE(vkBindImageMemory(dev.device, image, memory, 0));
   VkImageViewUsageCreateInfo usage = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                       .usage = VK_IMAGE_USAGE_SAMPLED_BIT};
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .pNext = &usage,
                                .image = image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                                .format = VK_FORMAT_R8G8B8A8_UNORM,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 4}};
   VkImageView view = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateImageView(dev.device, &vci, NULL, &view));
   vkDestroyImageView(dev.device, view, NULL);
   vkDestroyImage(dev.device, image, NULL);
   vkFreeMemory(dev.device, memory, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* The external-memory, -semaphore and -fence export structs are core in
 * 1.1; with no handle types (the capability queries report none) they are
 * accepted and change nothing. */
TEST_CASE(external_export_structs_without_handle_types_are_accepted)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   static const char *const exts[] = {
       VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME,
       VK_KHR_EXTERNAL_FENCE_EXTENSION_NAME, VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME,
       VK_KHR_MULTIVIEW_EXTENSION_NAME};
   for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
      CHECK_MSG(vkt_has_device_extension(&ctx, exts[i]), "%s not offered", exts[i]);
   struct vkt_device dev;
   struct vkt_device_desc desc = {0};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));

   VkExternalMemoryBufferCreateInfo ext_buf = {
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .pNext = &ext_buf,
       .size = 4096,
       .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
   };
   VkBuffer buffer = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateBuffer(dev.device, &bci, NULL, &buffer));
   VkMemoryRequirements req = {0};
   if (buffer)
      vkGetBufferMemoryRequirements(dev.device, buffer, &req);
   VkExportMemoryAllocateInfo export_mem = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &export_mem,
       .allocationSize = req.size,
       .memoryTypeIndex = vkt_find_memory_type(&ctx, req.memoryTypeBits, 0, 0),
   };
   VkDeviceMemory memory = VK_NULL_HANDLE;
   if (buffer) {
      VKT_CHECK(vkAllocateMemory(dev.device, &mai, NULL, &memory));
      if (memory)
         VKT_CHECK(vkBindBufferMemory(dev.device, buffer, memory, 0));
   }
   VkExportFenceCreateInfo export_fence = {.sType = VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .pNext = &export_fence};
   VkFence fence = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateFence(dev.device, &fci, NULL, &fence));
   VkExportSemaphoreCreateInfo export_sem = {.sType =
                                                 VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
                                .pNext = &export_sem};
   VkSemaphore semaphore = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateSemaphore(dev.device, &sci, NULL, &semaphore));

   if (ctx.is_vkppu) {
      /* No handle type can be exported or imported. */
      VkPhysicalDeviceExternalBufferInfo bi = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
          .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      };
      VkExternalBufferProperties bp = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
      vkGetPhysicalDeviceExternalBufferProperties(ctx.physical_device, &bi, &bp);
      CHECK(bp.externalMemoryProperties.externalMemoryFeatures == 0);
      CHECK(bp.externalMemoryProperties.compatibleHandleTypes == 0);
   }
   vkDestroySemaphore(dev.device, semaphore, NULL);
   vkDestroyFence(dev.device, fence, NULL);
   vkDestroyBuffer(dev.device, buffer, NULL);
   vkFreeMemory(dev.device, memory, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * SPIR-V 1.3 shaders: StorageBuffer storage class, subgroup BASIC, relaxed
 * block layout
 * ------------------------------------------------------------------------- */
/* One compute shader whose storage buffer (set 0, binding 0) is `buf`. */
struct compute_rig {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule mod;
   VkPipeline pipe;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

static void compute_rig_finish(struct vkt_device *dev, struct compute_rig *r)
{
   vkDestroyDescriptorPool(dev->device, r->pool, NULL);
   vkDestroyPipeline(dev->device, r->pipe, NULL);
   vkDestroyShaderModule(dev->device, r->mod, NULL);
   vkDestroyPipelineLayout(dev->device, r->layout, NULL);
   vkDestroyDescriptorSetLayout(dev->device, r->set_layout, NULL);
}

static bool compute_rig_init(struct vkt_device *dev, const char *shader,
                             const struct vkt_buffer *buf, struct compute_rig *r)
{
   memset(r, 0, sizeof(*r));
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   r->set_layout = ctu_set_layout(dev, &binding, 1);
   r->layout = ctu_pipeline_layout(dev, &r->set_layout, 1, 0);
   r->mod = ctu_shader_module(dev, shader);
   if (r->mod)
      VKT_CHECK(ctu_compute_pipeline(dev, VK_NULL_HANDLE, r->mod, r->layout, NULL, &r->pipe));
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
   VkDescriptorPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &ps,
   };
   VKT_CHECK(vkCreateDescriptorPool(dev->device, &pci, NULL, &r->pool));
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = r->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &r->set_layout,
   };
   if (r->pool)
      VKT_CHECK(vkAllocateDescriptorSets(dev->device, &ai, &r->set));
   if (!r->pipe || !r->set || !buf->map) {
      compute_rig_finish(dev, r);
      return false;
   }
   ctu_write_buffer(dev, r->set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf->buffer, 0,
                    VK_WHOLE_SIZE);
   return true;
}

/* Dispatches `groups` workgroups and waits; the buffer is host coherent, so
 * the host reads the results after this returns. */
static void compute_rig_dispatch(struct vkt_device *dev, struct compute_rig *r, uint32_t groups)
{
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   if (!cmd)
      return;
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->set, 0, NULL);
   vkCmdDispatch(cmd, groups, 1, 1);
   ctu_compute_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
}

TEST_CASE(spirv_1_3_shader_with_subgroup_basic_operations_runs)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   VkPhysicalDeviceSubgroupProperties sg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &sg};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &p2);
   enum { WG = 64, GROUPS = 4, N = WG * GROUPS };
   if (sg.subgroupSize > WG) {
      vkt_skip("subgroupSize %u is larger than the shader's workgroup", sg.subgroupSize);
      vkt_context_destroy(&ctx);
      return;
   }
   struct vkt_device dev;
   struct vkt_device_desc desc = {0};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));
   struct vkt_buffer out;
   const VkDeviceSize bytes = 16 + N * 16;
   VKT_CHECK(
       vkt_buffer_create(&dev, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &out));
   struct compute_rig rig;
   if (compute_rig_init(&dev, "vulkan11_subgroup_basic", &out, &rig)) {
      memset(out.map, 0xff, bytes);
      memset(out.map, 0, 16); /* the per-workgroup election counters */
      compute_rig_dispatch(&dev, &rig, GROUPS);
      const uint32_t *w = out.map;
      const uint32_t subgroups = WG / sg.subgroupSize;
      for (uint32_t g = 0; g < GROUPS; g++)
         CHECK_MSG(w[g] == subgroups, "workgroup %u elected %u invocations, expected %u", g, w[g],
                   subgroups);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < N && bad < 8; i++) {
         const uint32_t *v = &w[4 + 4 * i];
         uint32_t local = i % WG;
         /* Subgroups are made of consecutive invocations for a 1D
          * workgroup whose size is a multiple of the subgroup size on
          * both devices; the id and lane follow from that. */
         uint32_t want[4] = {i * 3, sg.subgroupSize, local % sg.subgroupSize,
                             (local / sg.subgroupSize) << 16 | subgroups};
         if (memcmp(v, want, sizeof(want)) != 0) {
            bad++;
            test_fail(__FILE__, __LINE__,
                      "invocation %u: got {%u, %u, %u, 0x%x}, want {%u, %u, %u, 0x%x}", i, v[0],
                      v[1], v[2], v[3], want[0], want[1], want[2], want[3]);
         }
      }
      compute_rig_finish(&dev, &rig);
   }
   vkt_buffer_destroy(&dev, &out);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Vulkan 1.1 includes VK_KHR_relaxed_block_layout: vectors at offsets that
 * std430 would not allow (shaders/vulkan11_relaxed_block_layout.comp). */
TEST_CASE(relaxed_block_layout_vectors_are_read_and_written_in_place)
{
   struct vkt_context ctx;
   if (!context_1_1(&ctx))
      return;
   CHECK(vkt_has_device_extension(&ctx, VK_KHR_RELAXED_BLOCK_LAYOUT_EXTENSION_NAME));
   struct vkt_device dev;
   struct vkt_device_desc desc = {0};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &dev));
   struct vkt_buffer buf;
   VKT_CHECK(
       vkt_buffer_create(&dev, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &buf));
   struct compute_rig rig;
   if (compute_rig_init(&dev, "vulkan11_relaxed_block_layout", &buf, &rig)) {
      /* a, v.xyz, b, w.xy at words 0..6, then words the shader leaves. */
      uint32_t *w = buf.map;
      for (uint32_t i = 0; i < 16; i++)
         w[i] = 100 + i;
      compute_rig_dispatch(&dev, &rig, 1);
      /* Every word moves down by one; a goes to the end; word 7 is left. */
      static const uint32_t want[8] = {101, 102, 103, 104, 105, 106, 100, 107};
      vkt_compare_words(want, w, sizeof(want), "relaxed block");
      compute_rig_finish(&dev, &rig);
   }
   vkt_buffer_destroy(&dev, &buf);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Render passes and framebuffers
 *
 * No format has an attachment feature on vkppu (no graphics pipeline yet),
 * and a subpass may only reference attachments whose format has one
 * (VUID-VkSubpassDescription-pColorAttachments-02648 and its siblings). So
 * the passes valid on both devices render without attachments, and their
 * one attachment is only preserved. tests/icd/test_render_pass.c checks
 * color, resolve, depth and input references by calling the driver directly.
 * ------------------------------------------------------------------------- */
#define VIEWS_ALL 0x3fu /* six views: a cube's faces, maxMultiviewViewCount's minimum */

static const VkAttachmentDescription preserved_attachment = {
    .format = VK_FORMAT_R8G8B8A8_UNORM,
    .samples = VK_SAMPLE_COUNT_1_BIT,
    .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
    .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
    .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
    .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
    .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
};

/* Three attachment-less subpasses that each preserve attachment 0, chained
 * by view-local dependencies; with `mv` chained, they render views 0-5,
 * 0-2 and 3-5. */
struct multiview_pass {
   uint32_t preserve;
   VkSubpassDescription subpasses[3];
   VkSubpassDependency dependencies[3];
   uint32_t view_masks[3];
   int32_t view_offsets[3];
   uint32_t correlation_masks[2];
   VkRenderPassMultiviewCreateInfo mv;
   VkRenderPassCreateInfo ci;
};

static void multiview_pass_init(struct multiview_pass *p)
{
   memset(p, 0, sizeof(*p));
   p->preserve = 0;
   for (int s = 0; s < 3; s++) {
      p->subpasses[s] = (VkSubpassDescription){
          .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
          .preserveAttachmentCount = 1,
          .pPreserveAttachments = &p->preserve,
      };
   }
   const VkPipelineStageFlags frag = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
   const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   p->dependencies[0] =
       (VkSubpassDependency){0, 1, frag, frag, rw, rw, VK_DEPENDENCY_VIEW_LOCAL_BIT};
   p->dependencies[1] =
       (VkSubpassDependency){1, 2, frag, frag, rw, rw, VK_DEPENDENCY_VIEW_LOCAL_BIT};
   p->dependencies[2] = (VkSubpassDependency){VK_SUBPASS_EXTERNAL, 0, frag, frag, rw, rw, 0};
   p->view_masks[0] = VIEWS_ALL;
   p->view_masks[1] = 0x07;
   p->view_masks[2] = 0x38;
   /* Subpass 2's view v depends on subpass 1's view v - 3. */
   p->view_offsets[1] = -3;
   p->correlation_masks[0] = 0x07;
   p->correlation_masks[1] = 0x38;
   p->mv = (VkRenderPassMultiviewCreateInfo){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
       .subpassCount = 3,
       .pViewMasks = p->view_masks,
       .dependencyCount = 3,
       .pViewOffsets = p->view_offsets,
       .correlationMaskCount = 2,
       .pCorrelationMasks = p->correlation_masks,
   };
   p->ci = (VkRenderPassCreateInfo){
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .pNext = &p->mv,
       .attachmentCount = 1,
       .pAttachments = &preserved_attachment,
       .subpassCount = 3,
       .pSubpasses = p->subpasses,
       .dependencyCount = 3,
       .pDependencies = p->dependencies,
   };
}

TEST_CASE(multiview_render_pass_with_view_local_dependencies_is_created)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!multiview_setup(&ctx, &dev))
      return;
   struct multiview_pass p;
   multiview_pass_init(&p);
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &p.ci, NULL, &pass));
   CHECK(pass != VK_NULL_HANDLE);
   VkExtent2D granularity = {0, 0};
   if (pass)
      vkGetRenderAreaGranularity(dev.device, pass, &granularity);
   CHECK(granularity.width >= 1 && granularity.height >= 1);
   /* The driver copied what it needs: the create info may go. */
   memset(&p, 0xcd, sizeof(p));

   /* The same pass without multiview (no VIEW_LOCAL then). */
   struct multiview_pass plain;
   multiview_pass_init(&plain);
   plain.ci.pNext = NULL;
   for (int d = 0; d < 3; d++)
      plain.dependencies[d].dependencyFlags = 0;
   VkRenderPass plain_pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &plain.ci, NULL, &plain_pass));

   vkDestroyRenderPass(dev.device, plain_pass, NULL);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkDestroyRenderPass(dev.device, VK_NULL_HANDLE, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Invalid create infos: the validation layer names the rule (excused here),
 * and vkppu reports it too (message id "vkppu") and fails with
 * VK_ERROR_UNKNOWN instead of crashing or keeping a broken object. Invalid
 * usage is undefined behaviour, so these run on vkppu only (lavapipe
 * crashes on some). */
static void expect_render_pass_refused(struct vkt_device *dev, const VkRenderPassCreateInfo *ci,
                                       const char *const *tolerated, const char *what)
{
   VkRenderPass pass = VK_NULL_HANDLE;
   vkt_tolerate_begin(tolerated);
   VkResult r = vkCreateRenderPass(dev->device, ci, NULL, &pass);
   uint32_t excused = vkt_tolerate_end();
   CHECK_MSG(excused >= 2, "%s: %u messages named the rule, expected the layer's and vkppu's", what,
             excused);
   CHECK_MSG(r == VK_ERROR_UNKNOWN, "%s -> %s", what, vkt_result_name(r));
   if (r == VK_SUCCESS)
      vkDestroyRenderPass(dev->device, pass, NULL);
}

TEST_CASE(invalid_multiview_render_passes_are_refused)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!multiview_setup(&ctx, &dev))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("answers to invalid usage are vkppu's own");
      vkt_teardown(&ctx, &dev);
      return;
   }
   struct multiview_pass p;

   multiview_pass_init(&p);
   p.mv.subpassCount = 2; /* view masks for 2 of 3 subpasses */
   static const char *const count[] = {"VUID-VkRenderPassCreateInfo-pNext-01928", "vkppu", NULL};
   expect_render_pass_refused(&dev, &p.ci, count, "view mask count");

   multiview_pass_init(&p);
   p.view_masks[1] = 0; /* one subpass without views */
   static const char *const some[] = {"VUID-VkRenderPassCreateInfo-pNext-02513", "vkppu", NULL};
   expect_render_pass_refused(&dev, &p.ci, some, "view mask on some subpasses");

   multiview_pass_init(&p);
   p.view_offsets[2] = 1; /* an offset on a dependency that is not VIEW_LOCAL */
   static const char *const offset[] = {"VUID-VkRenderPassCreateInfo-pNext-02512", "vkppu", NULL};
   expect_render_pass_refused(&dev, &p.ci, offset, "view offset without VIEW_LOCAL");

   multiview_pass_init(&p);
   p.dependencies[1].srcSubpass = 2; /* 2 -> 2 is fine, but 2 -> ... */
   p.dependencies[1].dstSubpass = 1; /* ... backwards is not */
   static const char *const back[] = {"VUID-VkSubpassDependency-srcSubpass-00864", "vkppu", NULL};
   expect_render_pass_refused(&dev, &p.ci, back, "backwards dependency");

   multiview_pass_init(&p);
   p.dependencies[2].dependencyFlags = VK_DEPENDENCY_VIEW_LOCAL_BIT; /* with EXTERNAL */
   static const char *const ext[] = {"VUID-VkRenderPassCreateInfo-pDependencies-00871",
                                     "VUID-VkSubpassDependency-dependencyFlags-02520", "vkppu",
                                     NULL};
   expect_render_pass_refused(&dev, &p.ci, ext, "VIEW_LOCAL with an external subpass");

   multiview_pass_init(&p);
   p.correlation_masks[1] = 0x0c; /* view 2 in both masks */
   static const char *const corr[] = {
       "VUID-VkRenderPassMultiviewCreateInfo-pCorrelationMasks-00841", "vkppu", NULL};
   expect_render_pass_refused(&dev, &p.ci, corr, "overlapping correlation masks");

   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(framebuffers_are_created_against_a_multiview_render_pass)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!multiview_setup(&ctx, &dev))
      return;
   struct multiview_pass p;
   multiview_pass_init(&p);
   VkRenderPass pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &p.ci, NULL, &pass));
   /* A six-layer array image for the preserved attachment; sampled, since
    * a preserved attachment needs no attachment usage. */
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = preserved_attachment.format,
       .extent = {64, 32, 1},
       .mipLevels = 1,
       .arrayLayers = 6,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   struct vkt_image img = {0};
   bool have_image = pass && vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D_ARRAY, &img);
   if (have_image) {
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .attachmentCount = 1,
          .pAttachments = &img.view,
          .width = 64,
          .height = 32,
          .layers = 1, /* multiview: the view masks pick the layers */
      };
      VkFramebuffer fb = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      CHECK(fb != VK_NULL_HANDLE);
      vkDestroyFramebuffer(dev.device, fb, NULL);
   }
   if (have_image && ctx.is_vkppu) {
      /* Invalid usage, vkppu only: an attachment count that does not match
       * the render pass. */
      VkFramebufferCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
          .renderPass = pass,
          .pAttachments = &img.view,
          .width = 64,
          .height = 32,
          .layers = 1,
      };
      VkFramebuffer big = VK_NULL_HANDLE;
      static const char *const mismatch[] = {"VUID-VkFramebufferCreateInfo-attachmentCount-00876",
                                             "vkppu", NULL};
      vkt_tolerate_begin(mismatch);
      VkResult r = vkCreateFramebuffer(dev.device, &fci, NULL, &big);
      CHECK(vkt_tolerate_end() >= 2);
      CHECK_MSG(r == VK_ERROR_UNKNOWN, "-> %s", vkt_result_name(r));
      if (r == VK_SUCCESS)
         vkDestroyFramebuffer(dev.device, big, NULL);
   }
   if (have_image)
      vkt_image_destroy(&dev, &img);

   /* A pass and framebuffer without attachments: rendering with no
    * attachments (framebufferNoAttachmentsSampleCounts). */
   VkSubpassDescription empty = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
   VkRenderPassCreateInfo eci = {
       .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
       .subpassCount = 1,
       .pSubpasses = &empty,
   };
   VkRenderPass empty_pass = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateRenderPass(dev.device, &eci, NULL, &empty_pass));
   VkFramebufferCreateInfo efci = {
       .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
       .renderPass = empty_pass,
       .width = ctx.props.limits.maxFramebufferWidth,
       .height = ctx.props.limits.maxFramebufferHeight,
       .layers = ctx.props.limits.maxFramebufferLayers,
   };
   VkFramebuffer efb = VK_NULL_HANDLE;
   if (empty_pass)
      VKT_CHECK(vkCreateFramebuffer(dev.device, &efci, NULL, &efb));
   vkDestroyFramebuffer(dev.device, efb, NULL);
   vkDestroyFramebuffer(dev.device, VK_NULL_HANDLE, NULL);
   vkDestroyRenderPass(dev.device, empty_pass, NULL);
   vkDestroyRenderPass(dev.device, pass, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
