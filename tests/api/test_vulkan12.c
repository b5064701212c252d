/* Vulkan 1.2 as a device reports it: the version, the features the spec
 * requires of every 1.2 device ("Feature Requirements") and the
 * VkPhysicalDeviceVulkan11/12 blocks against the promoted extensions'
 * structs, the core 1.2 commands by their core names, and one case per 1.2
 * feature the device reports that exercises it: SPIR-V 1.5 shaders (subgroup
 * operations on 16- and 64-bit integers, a broadcast from a dynamic lane, the
 * Vulkan memory model, scalar and std430 uniform layouts), the
 * MIRROR_CLAMP_TO_EDGE address mode, imageless framebuffers (drawn with
 * vkCmdDrawIndirectCount), depth-only and stencil-only layouts
 * (vkCreateRenderPass2), separate stencil usage and image format lists.
 * Runs on vkppu and on lavapipe; the checks of vkppu's own values are
 * vkppu-only.
 *
 * The test context (vk_test_context.c) loads instance functions only, and
 * the core 1.2 device commands are not in volk's table before a 1.2 device
 * exists; so every core 1.2 command is fetched here with vkGetDeviceProcAddr
 * by its core name, which is what this file checks. */
#include <string.h>

#include "graphics_test_util.h"

/* Context whose device reports Vulkan 1.2 or later; false (skipped or
 * failed) otherwise. */
static bool context_1_2(struct vkt_context *ctx)
{
   if (!vkt_context_create(ctx))
      return false;
   if (ctx->props.apiVersion < VK_API_VERSION_1_2) {
      if (ctx->is_vkppu)
         test_fail(__FILE__, __LINE__, "vkppu reports apiVersion %u.%u, expected 1.2",
                   VK_API_VERSION_MAJOR(ctx->props.apiVersion),
                   VK_API_VERSION_MINOR(ctx->props.apiVersion));
      else
         vkt_skip("%s reports Vulkan 1.%u", ctx->props.deviceName,
                  VK_API_VERSION_MINOR(ctx->props.apiVersion));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* A 1.2 context and a device with the given core and Vulkan12Features
 * enabled (the struct's sType is set here); false (skipped or failed,
 * nothing left to destroy) otherwise. */
static bool device_1_2(struct vkt_context *ctx, struct vkt_device *dev,
                       const VkPhysicalDeviceFeatures *core, VkPhysicalDeviceVulkan12Features *f12)
{
   if (!context_1_2(ctx))
      return false;
   f12->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f12->pNext = NULL;
   struct vkt_device_desc desc = {.features = core, .feature_chain = f12};
   VkResult r = vkt_device_create(ctx, &desc, dev);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with 1.2 features -> %s", vkt_result_name(r));
      vkt_context_destroy(ctx);
      return false;
   }
   return true;
}

/* A core 1.2 command by its core name; fails the case when it is NULL. */
#define CORE_1_2(dev, name) ((PFN_##name)core_1_2_command((dev), #name, __LINE__))
static PFN_vkVoidFunction core_1_2_command(const struct vkt_device *dev, const char *name, int line)
{
   PFN_vkVoidFunction f = vkGetDeviceProcAddr(dev->device, name);
   if (!f)
      test_fail(__FILE__, line, "vkGetDeviceProcAddr(\"%s\") is NULL on a 1.2 device", name);
   return f;
}

/* ---------------------------------------------------------------------------
 * Version, features, properties
 * ------------------------------------------------------------------------- */

/* VkPhysicalDeviceVulkan12Features member by member, against the same member
 * of a promoted extension's struct. */
#define SAME_FEATURE(v, ext, member)                                                               \
   CHECK_MSG((v).member == (ext).member, #member ": Vulkan12Features %u, %s %u", (v).member, #ext, \
             (ext).member)

TEST_CASE(device_reports_vulkan_1_2_and_every_feature_it_requires)
{
   struct vkt_context ctx;
   if (!context_1_2(&ctx))
      return;
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v11};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &v12};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);

   /* Vulkan spec, "Feature Requirements": every 1.2 device has these. */
   CHECK(v11.multiview);
   CHECK(v12.subgroupBroadcastDynamicId);
   CHECK(v12.imagelessFramebuffer);
   CHECK(v12.uniformBufferStandardLayout);
   CHECK(v12.shaderSubgroupExtendedTypes);
   CHECK(v12.separateDepthStencilLayouts);
   CHECK(v12.hostQueryReset);
   CHECK(v12.timelineSemaphore);
   /* ... and these when the extension that brings them is listed. */
   static const struct {
      const char *ext;
      size_t offset;
      const char *member;
   } if_listed[] = {
#define IF_LISTED(ext, member) {ext, offsetof(VkPhysicalDeviceVulkan12Features, member), #member}
       IF_LISTED(VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME, descriptorIndexing),
       IF_LISTED(VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME, runtimeDescriptorArray),
       IF_LISTED(VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME,
                 descriptorBindingVariableDescriptorCount),
       IF_LISTED(VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME, drawIndirectCount),
       IF_LISTED(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME, samplerMirrorClampToEdge),
       IF_LISTED(VK_EXT_SAMPLER_FILTER_MINMAX_EXTENSION_NAME, samplerFilterMinmax),
       IF_LISTED(VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME, shaderOutputViewportIndex),
       IF_LISTED(VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME, shaderOutputLayer),
       IF_LISTED(VK_EXT_SCALAR_BLOCK_LAYOUT_EXTENSION_NAME, scalarBlockLayout),
       IF_LISTED(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, bufferDeviceAddress),
       IF_LISTED(VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, vulkanMemoryModel),
#undef IF_LISTED
   };
   for (size_t i = 0; i < sizeof(if_listed) / sizeof(if_listed[0]); i++) {
      const VkBool32 *member =
          (const VkBool32 *)(const void *)((const char *)&v12 + if_listed[i].offset);
      if (vkt_has_device_extension(&ctx, if_listed[i].ext))
         CHECK_MSG(*member, "%s is listed but %s is VK_FALSE", if_listed[i].ext,
                   if_listed[i].member);
   }
   if (ctx.is_vkppu) {
      /* What vkppu reports of 1.2 and why: physical_device_features.c. */
      CHECK(v12.samplerMirrorClampToEdge && v12.drawIndirectCount && v12.descriptorIndexing &&
            v12.scalarBlockLayout && v12.bufferDeviceAddress && v12.vulkanMemoryModel &&
            v12.vulkanMemoryModelDeviceScope && v12.samplerFilterMinmax &&
            v12.shaderOutputViewportIndex && v12.shaderOutputLayer);
      CHECK(!v12.storageBuffer8BitAccess && !v12.shaderFloat16 && !v12.shaderInt8 &&
            !v12.bufferDeviceAddressCaptureReplay);
      static const char *const promoted[] = {
          VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME,
          VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME,
          VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME,
          VK_EXT_SAMPLER_FILTER_MINMAX_EXTENSION_NAME,
          VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME,
          VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME,
          VK_KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_EXTENSION_NAME,
          VK_EXT_SCALAR_BLOCK_LAYOUT_EXTENSION_NAME,
          VK_KHR_SEPARATE_DEPTH_STENCIL_LAYOUTS_EXTENSION_NAME,
          VK_KHR_IMAGELESS_FRAMEBUFFER_EXTENSION_NAME,
          VK_EXT_SEPARATE_STENCIL_USAGE_EXTENSION_NAME,
          VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME,
      };
      for (size_t i = 0; i < sizeof(promoted) / sizeof(promoted[0]); i++)
         CHECK_MSG(vkt_has_device_extension(&ctx, promoted[i]), "%s is not listed", promoted[i]);
   }
   vkt_context_destroy(&ctx);
}

TEST_CASE(vulkan_1_1_and_1_2_features_equal_the_promoted_extension_structs)
{
   struct vkt_context ctx;
   if (!context_1_2(&ctx))
      return;
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v11};
   VkPhysicalDeviceFeatures2 blocks = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                       .pNext = &v12};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &blocks);

   /* The promoted structs, in a second query. */
   VkPhysicalDeviceMultiviewFeatures mv = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
   VkPhysicalDevice16BitStorageFeatures s16 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, .pNext = &mv};
   VkPhysicalDeviceVariablePointersFeatures vp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, .pNext = &s16};
   VkPhysicalDeviceShaderDrawParametersFeatures dp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, .pNext = &vp};
   VkPhysicalDevice8BitStorageFeatures s8 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, .pNext = &dp};
   VkPhysicalDeviceShaderAtomicInt64Features a64 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES, .pNext = &s8};
   VkPhysicalDeviceShaderFloat16Int8Features f16 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, .pNext = &a64};
   VkPhysicalDeviceDescriptorIndexingFeatures di = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES, .pNext = &f16};
   VkPhysicalDeviceScalarBlockLayoutFeatures sbl = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES, .pNext = &di};
   VkPhysicalDeviceImagelessFramebufferFeatures ifb = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES, .pNext = &sbl};
   VkPhysicalDeviceUniformBufferStandardLayoutFeatures ubsl = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES,
       .pNext = &ifb};
   VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures set = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
       .pNext = &ubsl};
   VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures sdsl = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES,
       .pNext = &set};
   VkPhysicalDeviceHostQueryResetFeatures hqr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, .pNext = &sdsl};
   VkPhysicalDeviceTimelineSemaphoreFeatures ts = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, .pNext = &hqr};
   VkPhysicalDeviceBufferDeviceAddressFeatures bda = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, .pNext = &ts};
   VkPhysicalDeviceVulkanMemoryModelFeatures vmm = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, .pNext = &bda};
   VkPhysicalDeviceFeatures2 structs = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                        .pNext = &vmm};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &structs);

   SAME_FEATURE(v11, mv, multiview);
   SAME_FEATURE(v11, mv, multiviewGeometryShader);
   SAME_FEATURE(v11, mv, multiviewTessellationShader);
   SAME_FEATURE(v11, s16, storageBuffer16BitAccess);
   SAME_FEATURE(v11, s16, uniformAndStorageBuffer16BitAccess);
   SAME_FEATURE(v11, s16, storagePushConstant16);
   SAME_FEATURE(v11, s16, storageInputOutput16);
   SAME_FEATURE(v11, vp, variablePointersStorageBuffer);
   SAME_FEATURE(v11, vp, variablePointers);
   SAME_FEATURE(v11, dp, shaderDrawParameters);

   SAME_FEATURE(v12, s8, storageBuffer8BitAccess);
   SAME_FEATURE(v12, s8, uniformAndStorageBuffer8BitAccess);
   SAME_FEATURE(v12, s8, storagePushConstant8);
   SAME_FEATURE(v12, a64, shaderBufferInt64Atomics);
   SAME_FEATURE(v12, a64, shaderSharedInt64Atomics);
   SAME_FEATURE(v12, f16, shaderFloat16);
   SAME_FEATURE(v12, f16, shaderInt8);
   SAME_FEATURE(v12, di, shaderInputAttachmentArrayDynamicIndexing);
   SAME_FEATURE(v12, di, shaderUniformTexelBufferArrayDynamicIndexing);
   SAME_FEATURE(v12, di, shaderStorageTexelBufferArrayDynamicIndexing);
   SAME_FEATURE(v12, di, shaderUniformBufferArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderSampledImageArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderStorageBufferArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderStorageImageArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderInputAttachmentArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderUniformTexelBufferArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, shaderStorageTexelBufferArrayNonUniformIndexing);
   SAME_FEATURE(v12, di, descriptorBindingUniformBufferUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingSampledImageUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingStorageImageUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingStorageBufferUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingUniformTexelBufferUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingStorageTexelBufferUpdateAfterBind);
   SAME_FEATURE(v12, di, descriptorBindingUpdateUnusedWhilePending);
   SAME_FEATURE(v12, di, descriptorBindingPartiallyBound);
   SAME_FEATURE(v12, di, descriptorBindingVariableDescriptorCount);
   SAME_FEATURE(v12, di, runtimeDescriptorArray);
   SAME_FEATURE(v12, sbl, scalarBlockLayout);
   SAME_FEATURE(v12, ifb, imagelessFramebuffer);
   SAME_FEATURE(v12, ubsl, uniformBufferStandardLayout);
   SAME_FEATURE(v12, set, shaderSubgroupExtendedTypes);
   SAME_FEATURE(v12, sdsl, separateDepthStencilLayouts);
   SAME_FEATURE(v12, hqr, hostQueryReset);
   SAME_FEATURE(v12, ts, timelineSemaphore);
   SAME_FEATURE(v12, bda, bufferDeviceAddress);
   SAME_FEATURE(v12, bda, bufferDeviceAddressCaptureReplay);
   SAME_FEATURE(v12, bda, bufferDeviceAddressMultiDevice);
   SAME_FEATURE(v12, vmm, vulkanMemoryModel);
   SAME_FEATURE(v12, vmm, vulkanMemoryModelDeviceScope);
   SAME_FEATURE(v12, vmm, vulkanMemoryModelAvailabilityVisibilityChains);
   vkt_context_destroy(&ctx);
}

TEST_CASE(vulkan_1_2_properties_meet_the_limits_and_equal_the_extension_structs)
{
   struct vkt_context ctx;
   if (!context_1_2(&ctx))
      return;
   VkPhysicalDeviceVulkan11Properties v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceVulkan12Properties v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, .pNext = &v11};
   VkPhysicalDeviceProperties2 blocks = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = &v12};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &blocks);

   VkPhysicalDeviceDriverProperties drv = {.sType =
                                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
   VkPhysicalDeviceFloatControlsProperties fc = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES, .pNext = &drv};
   VkPhysicalDeviceDepthStencilResolveProperties dsr = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES, .pNext = &fc};
   VkPhysicalDeviceTimelineSemaphoreProperties ts = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES, .pNext = &dsr};
   VkPhysicalDeviceDescriptorIndexingProperties di = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES, .pNext = &ts};
   VkPhysicalDeviceSubgroupProperties sg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &di};
   VkPhysicalDeviceProperties2 structs = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &sg};
   vkGetPhysicalDeviceProperties2(ctx.physical_device, &structs);

   CHECK(v12.driverID == drv.driverID);
   CHECK(strcmp(v12.driverName, drv.driverName) == 0 && v12.driverName[0] != '\0');
   CHECK(strcmp(v12.driverInfo, drv.driverInfo) == 0);
   CHECK(memcmp(&v12.conformanceVersion, &drv.conformanceVersion, sizeof(drv.conformanceVersion)) ==
         0);
   CHECK(v12.denormBehaviorIndependence == fc.denormBehaviorIndependence);
   CHECK(v12.roundingModeIndependence == fc.roundingModeIndependence);
   CHECK(v12.shaderDenormPreserveFloat32 == fc.shaderDenormPreserveFloat32);
   CHECK(v12.shaderRoundingModeRTEFloat64 == fc.shaderRoundingModeRTEFloat64);
   CHECK(v12.supportedDepthResolveModes == dsr.supportedDepthResolveModes);
   CHECK(v12.supportedStencilResolveModes == dsr.supportedStencilResolveModes);
   CHECK(v12.independentResolve == dsr.independentResolve);
   CHECK(v12.maxTimelineSemaphoreValueDifference == ts.maxTimelineSemaphoreValueDifference);
   CHECK(v12.maxUpdateAfterBindDescriptorsInAllPools == di.maxUpdateAfterBindDescriptorsInAllPools);
   CHECK(v12.maxDescriptorSetUpdateAfterBindStorageBuffers ==
         di.maxDescriptorSetUpdateAfterBindStorageBuffers);
   CHECK(v11.subgroupSize == sg.subgroupSize);
   CHECK(v11.subgroupSupportedOperations == sg.supportedOperations);

   /* "Required Limits" of 1.2: timeline differences of at least 2^31 - 1,
    * integer colour attachments at 1 sample, the depth resolve mode
    * SAMPLE_ZERO, and the update-after-bind limits when descriptor indexing
    * is there. */
   CHECK(v12.maxTimelineSemaphoreValueDifference >= (1ull << 31) - 1);
   CHECK(v12.framebufferIntegerColorSampleCounts & VK_SAMPLE_COUNT_1_BIT);
   CHECK(v12.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
   CHECK(v12.maxUpdateAfterBindDescriptorsInAllPools >= 500000);
   CHECK(v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers >= 500000);
   if (ctx.is_vkppu) {
      CHECK(strcmp(v12.driverName, "vkppu") == 0);
      /* No registered VkDriverId is ours (physical_device_properties.c). */
      CHECK(v12.driverID == (VkDriverId)0x5050);
   }
   vkt_context_destroy(&ctx);
}

/* vkCreateDevice takes VkPhysicalDeviceVulkan11Features and
 * VkPhysicalDeviceVulkan12Features: supported members enable, and a member
 * the device does not report refuses the device. */
TEST_CASE(device_creation_takes_the_version_blocks_and_refuses_unsupported_members)
{
   struct vkt_context ctx;
   if (!context_1_2(&ctx))
      return;
   VkPhysicalDeviceVulkan11Features s11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   VkPhysicalDeviceVulkan12Features s12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &s11};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &s12};
   vkGetPhysicalDeviceFeatures2(ctx.physical_device, &f2);
   /* Everything reported, enabled at once. */
   VkPhysicalDeviceVulkan11Features e11 = s11;
   VkPhysicalDeviceVulkan12Features e12 = s12;
   e12.pNext = &e11;
   e11.pNext = NULL;
   struct vkt_device_desc desc = {.feature_chain = &e12};
   struct vkt_device dev;
   VkResult created = vkt_device_create(&ctx, &desc, &dev);
   VKT_CHECK(created);
   if (created == VK_SUCCESS)
      vkt_device_destroy(&dev);

   /* The first 1.2 member the device does not report, alone. */
   static const struct {
      size_t offset;
      const char *name;
   } members[] = {
#define MEMBER(m) {offsetof(VkPhysicalDeviceVulkan12Features, m), #m}
       MEMBER(shaderFloat16),
       MEMBER(shaderInt8),
       MEMBER(storageBuffer8BitAccess),
       MEMBER(shaderBufferInt64Atomics),
       MEMBER(samplerFilterMinmax),
       MEMBER(shaderOutputLayer),
       MEMBER(bufferDeviceAddressMultiDevice),
#undef MEMBER
   };
   size_t pick = sizeof(members) / sizeof(members[0]);
   for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
      if (!*(const VkBool32 *)(const void *)((const char *)&s12 + members[i].offset)) {
         pick = i;
         break;
      }
   }
   if (pick == sizeof(members) / sizeof(members[0])) {
      vkt_skip("%s supports every 1.2 member this case tries", ctx.props.deviceName);
   } else {
      VkPhysicalDeviceVulkan12Features bad = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
      *(VkBool32 *)(void *)((char *)&bad + members[pick].offset) = VK_TRUE;
      struct vkt_device_desc bad_desc = {.feature_chain = &bad};
      /* The layer or the driver names the feature; the loader then reports
       * that vkCreateDevice failed. */
      const char *const expected[] = {members[pick].name, "CreateDevice", NULL};
      vkt_tolerate_begin(expected);
      VkResult r = vkt_device_create(&ctx, &bad_desc, &dev);
      vkt_tolerate_end();
      CHECK_MSG(r == VK_ERROR_FEATURE_NOT_PRESENT, "%s -> %s", members[pick].name,
                vkt_result_name(r));
      if (r == VK_SUCCESS)
         vkt_device_destroy(&dev);
   }
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Core 1.2 commands
 * ------------------------------------------------------------------------- */
TEST_CASE(core_1_2_commands_resolve_by_their_core_names_and_work)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {
       .hostQueryReset = VK_TRUE, .timelineSemaphore = VK_TRUE, .bufferDeviceAddress = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   /* Every command of VK_VERSION_1_2 in vk.xml. */
   static const char *const commands[] = {
       "vkCmdDrawIndirectCount",
       "vkCmdDrawIndexedIndirectCount",
       "vkCreateRenderPass2",
       "vkCmdBeginRenderPass2",
       "vkCmdNextSubpass2",
       "vkCmdEndRenderPass2",
       "vkResetQueryPool",
       "vkGetSemaphoreCounterValue",
       "vkWaitSemaphores",
       "vkSignalSemaphore",
       "vkGetBufferDeviceAddress",
       "vkGetBufferOpaqueCaptureAddress",
       "vkGetDeviceMemoryOpaqueCaptureAddress",
   };
   for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
      CHECK_MSG(vkGetDeviceProcAddr(dev.device, commands[i]) != NULL, "%s is NULL", commands[i]);

   /* Timeline semaphores: signal from the host, read, wait. */
   PFN_vkSignalSemaphore signal = CORE_1_2(&dev, vkSignalSemaphore);
   PFN_vkGetSemaphoreCounterValue value = CORE_1_2(&dev, vkGetSemaphoreCounterValue);
   PFN_vkWaitSemaphores wait = CORE_1_2(&dev, vkWaitSemaphores);
   VkSemaphore sem = vkt_timeline_create(&dev, 3);
   if (signal && value && wait && sem) {
      uint64_t v = 0;
      VKT_CHECK(value(dev.device, sem, &v));
      CHECK_EQ_U64(v, 3);
      VkSemaphoreSignalInfo si = {
          .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = sem, .value = 7};
      VKT_CHECK(signal(dev.device, &si));
      uint64_t want = 7;
      VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1,
                                .pSemaphores = &sem,
                                .pValues = &want};
      VKT_CHECK(wait(dev.device, &wi, 0));
      want = 8; /* not reached: times out at once */
      VKT_CHECK_RESULT(wait(dev.device, &wi, 0), VK_TIMEOUT);
      VKT_CHECK(value(dev.device, sem, &v));
      CHECK_EQ_U64(v, 7);
   }
   vkDestroySemaphore(dev.device, sem, NULL);

   /* Host query reset: a timestamp written, reset from the host, then not
    * available. */
   PFN_vkResetQueryPool reset = CORE_1_2(&dev, vkResetQueryPool);
   VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 2};
   VkQueryPool pool = VK_NULL_HANDLE;
   VKT_CHECK(vkCreateQueryPool(dev.device, &qci, NULL, &pool));
   if (reset && pool) {
      reset(dev.device, pool, 0, 2);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint64_t r[2][2] = {{0}};
      /* Query 1 was never written: NOT_READY, and its availability 0. */
      VKT_CHECK_RESULT(
          vkGetQueryPoolResults(dev.device, pool, 0, 2, sizeof(r), r, sizeof(r[0]),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
          VK_NOT_READY);
      CHECK(r[0][1] == 1 && r[1][1] == 0);
      reset(dev.device, pool, 0, 1);
      memset(r, 0xff, sizeof(r));
      VKT_CHECK_RESULT(
          vkGetQueryPoolResults(dev.device, pool, 0, 1, sizeof(r[0]), r, sizeof(r[0]),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
          VK_NOT_READY);
      CHECK(r[0][1] == 0);
   }
   vkDestroyQueryPool(dev.device, pool, NULL);

   /* Buffer device addresses: non-zero, and distinct for two buffers. */
   PFN_vkGetBufferDeviceAddress address = CORE_1_2(&dev, vkGetBufferDeviceAddress);
   struct vkt_buffer a, b;
   VkBufferUsageFlags usage =
       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
   if (address && vkt_buffer_create(&dev, 256, usage, VKT_MEMORY_DEVICE, &a) == VK_SUCCESS) {
      if (vkt_buffer_create(&dev, 256, usage, VKT_MEMORY_DEVICE, &b) == VK_SUCCESS) {
         VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                         .buffer = a.buffer};
         VkDeviceAddress va = address(dev.device, &ai);
         ai.buffer = b.buffer;
         VkDeviceAddress vb = address(dev.device, &ai);
         CHECK(va != 0 && vb != 0 && (va >= vb + 256 || vb >= va + 256));
         vkt_buffer_destroy(&dev, &b);
      }
      vkt_buffer_destroy(&dev, &a);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * SPIR-V 1.5 shaders
 * ------------------------------------------------------------------------- */

/* One dispatch of `shader` over `groups` workgroups whose bindings are
 * storage buffers, uniform buffers or one combined image sampler, as given;
 * waits. */
struct dispatch_binding {
   VkDescriptorType type;
   VkBuffer buffer;
   VkImageView view;
   VkSampler sampler;
};

static void dispatch(struct vkt_device *dev, const char *shader, const struct dispatch_binding *b,
                     uint32_t count, const void *push, uint32_t push_bytes, uint32_t groups)
{
   VkDescriptorSetLayoutBinding bindings[4];
   for (uint32_t i = 0; i < count; i++)
      bindings[i] =
          (VkDescriptorSetLayoutBinding){i, b[i].type, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   struct ctu_program p;
   if (!ctu_program_create(dev, shader, bindings, count, push_bytes, 1, &p))
      return;
   VkDescriptorSet set = ctu_program_set(dev, &p);
   for (uint32_t i = 0; i < count && set; i++) {
      if (b[i].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
         VkDescriptorImageInfo ii = {b[i].sampler, b[i].view,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
         VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   .dstSet = set,
                                   .dstBinding = i,
                                   .descriptorCount = 1,
                                   .descriptorType = b[i].type,
                                   .pImageInfo = &ii};
         vkUpdateDescriptorSets(dev->device, 1, &w, 0, NULL);
      } else {
         ctu_write_buffer(dev, set, i, b[i].type, b[i].buffer, 0, VK_WHOLE_SIZE);
      }
   }
   VkCommandBuffer cmd = set ? vkt_cmd_begin(dev, dev->ctx->universal_family) : VK_NULL_HANDLE;
   if (cmd) {
      ctu_program_bind(cmd, &p, set);
      if (push_bytes)
         vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
      vkCmdDispatch(cmd, groups, 1, 1);
      ctu_compute_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
   }
   ctu_program_destroy(dev, &p);
}

static VkPhysicalDeviceVulkan11Properties vulkan11_properties(const struct vkt_context *ctx)
{
   VkPhysicalDeviceVulkan11Properties v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &v11};
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
   return v11;
}

/* shaderSubgroupExtendedTypes with shaderInt16 and shaderInt64
 * (shaders/vulkan12_subgroup_extended_types.comp): reductions, scans,
 * shuffles and broadcasts of int16_t, uint16_t and int64_t, against the
 * same operations in C over each subgroup of consecutive invocations. */
TEST_CASE(subgroup_operations_take_16_and_64_bit_integers)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   const VkPhysicalDeviceFeatures core = {.shaderInt16 = VK_TRUE, .shaderInt64 = VK_TRUE};
   VkPhysicalDeviceVulkan12Features f = {.shaderSubgroupExtendedTypes = VK_TRUE};
   if (!device_1_2(&ctx, &dev, &core, &f))
      return;
   const VkPhysicalDeviceVulkan11Properties sg = vulkan11_properties(&ctx);
   const VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                       VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
                                       VK_SUBGROUP_FEATURE_BALLOT_BIT;
   enum { N = 64, OUTS = 10 };
   if ((sg.subgroupSupportedOperations & need) != need ||
       !(sg.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || sg.subgroupSize > N ||
       sg.subgroupSize < 2) {
      vkt_skip("subgroup arithmetic, shuffle and ballot in compute, size 2..64, needed");
   } else {
      struct vkt_buffer io;
      VKT_CHECK(vkt_buffer_create(&dev, (N + N * OUTS) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                  VKT_MEMORY_HOST, &io));
      int32_t *w = io.map;
      uint64_t seed = 12;
      for (uint32_t i = 0; i < N; i++)
         w[i] = (int32_t)vkt_rand_next(&seed);
      int32_t x[N];
      memcpy(x, w, sizeof(x));
      const struct dispatch_binding b = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0, 0};
      dispatch(&dev, "vulkan12_subgroup_extended_types", &b, 1, NULL, 0, 1);
      const uint32_t S = sg.subgroupSize;
      unsigned bad = 0;
      for (uint32_t i = 0; i < N && bad < 8; i++) {
         const uint32_t lane = i % S, base = i - lane;
         int32_t sum16 = 0, min16 = INT16_MAX, max16 = INT16_MIN, xmin16 = INT16_MAX;
         uint32_t usum = 0, uxmax = 0;
         int64_t lsum = 0, lxmax = INT64_MIN;
         for (uint32_t k = 0; k < S; k++) {
            const int16_t s = (int16_t)x[base + k];
            const uint16_t u = (uint16_t)x[base + k];
            const int64_t l = (int64_t)x[base + k] * 1000000007ll;
            sum16 += s;
            min16 = s < min16 ? s : min16;
            max16 = s > max16 ? s : max16;
            lsum += l;
            if (k < lane) {
               xmin16 = s < xmin16 ? s : xmin16;
               uxmax = u > uxmax ? u : uxmax;
               lxmax = l > lxmax ? l : lxmax;
            }
            if (k <= lane)
               usum += u;
         }
         const int32_t want[OUTS] = {
             (int16_t)sum16,
             min16,
             max16,
             xmin16,
             (int32_t)(uint16_t)usum,
             (int32_t)uxmax,
             (int16_t)x[base + (lane ^ 1u)],
             (int32_t)(uint16_t)x[base],
             (int32_t)(uint32_t)((uint64_t)lsum & 0xffffffffu),
             (int32_t)(lxmax >> 32),
         };
         const int32_t *got = &w[N + i * OUTS];
         for (uint32_t k = 0; k < OUTS; k++) {
            if (got[k] != want[k] && bad++ < 8)
               test_fail(__FILE__, __LINE__, "invocation %u output %u: got %d, want %d", i, k,
                         got[k], want[k]);
         }
      }
      vkt_buffer_destroy(&dev, &io);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* subgroupBroadcastDynamicId: the lane comes from a push constant
 * (shaders/vulkan12_broadcast_dynamic_id.comp). */
TEST_CASE(subgroup_broadcast_takes_a_dynamically_uniform_lane)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.subgroupBroadcastDynamicId = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   const VkPhysicalDeviceVulkan11Properties sg = vulkan11_properties(&ctx);
   enum { N = 64 };
   if (!(sg.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT) || sg.subgroupSize > N) {
      vkt_skip("subgroup ballot operations in compute, size up to 64, needed");
   } else {
      struct vkt_buffer io;
      VKT_CHECK(
          vkt_buffer_create(&dev, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST, &io));
      const struct dispatch_binding b = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0, 0};
      for (uint32_t lane = 1; lane < sg.subgroupSize; lane += sg.subgroupSize / 2 + 1) {
         memset(io.map, 0, N * 4);
         dispatch(&dev, "vulkan12_broadcast_dynamic_id", &b, 1, &lane, 4, 1);
         const uint32_t *o = io.map;
         for (uint32_t i = 0; i < N; i++) {
            const uint32_t want = (i - i % sg.subgroupSize + lane) * 5u + 3u;
            CHECK_MSG(o[i] == want, "lane %u, invocation %u: got %u, want %u", lane, i, o[i], want);
         }
      }
      vkt_buffer_destroy(&dev, &io);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* vulkanMemoryModel and vulkanMemoryModelDeviceScope
 * (shaders/vulkan12_memory_model.comp): coherent stores with
 * MakePointerAvailable|NonPrivatePointer, a workgroup barrier with
 * acquire-release, available and visible semantics, an acquire atomic load
 * at device scope and a release atomic add. */
TEST_CASE(vulkan_memory_model_shader_publishes_through_a_barrier)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.vulkanMemoryModel = VK_TRUE,
                                         .vulkanMemoryModelDeviceScope = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   enum { N = 64 };
   struct vkt_buffer io;
   VKT_CHECK(vkt_buffer_create(&dev, (1 + 2 * N) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               VKT_MEMORY_HOST, &io));
   memset(io.map, 0, (1 + 2 * N) * 4);
   const struct dispatch_binding b = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io.buffer, 0, 0};
   dispatch(&dev, "vulkan12_memory_model", &b, 1, NULL, 0, 1);
   const uint32_t *w = io.map;
   CHECK_MSG(w[0] == N, "count %u, want %u", w[0], N);
   for (uint32_t i = 0; i < N; i++) {
      const uint32_t j = N - 1 - i;
      CHECK_MSG(w[1 + N + i] == j * 7u + 1u + j * 3u, "invocation %u read %u", i, w[1 + N + i]);
   }
   vkt_buffer_destroy(&dev, &io);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* Copies 16 words from a uniform block to a storage block of the same
 * layout with `shader`; every word the layout places moves, plus one, to the
 * same offset; `padding` marks words the layout leaves out (kept 0). */
static void check_block_copy(struct vkt_device *dev, const char *shader, uint32_t padding)
{
   enum { WORDS = 16 };
   struct vkt_buffer in, out;
   VKT_CHECK(
       vkt_buffer_create(dev, WORDS * 4, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VKT_MEMORY_HOST, &in));
   VKT_CHECK(vkt_buffer_create(dev, WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                               &out));
   uint32_t *src = in.map, *dst = out.map;
   for (uint32_t k = 0; k < WORDS; k++)
      src[k] = 100 + 3 * k;
   memset(dst, 0, WORDS * 4);
   const struct dispatch_binding b[2] = {
       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, in.buffer, 0, 0},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, 0},
   };
   dispatch(dev, shader, b, 2, NULL, 0, 1);
   uint32_t want[WORDS];
   for (uint32_t k = 0; k < WORDS; k++)
      want[k] = (padding >> k & 1) ? 0 : src[k] + 1;
   vkt_compare_words(want, dst, sizeof(want), shader);
   vkt_buffer_destroy(dev, &in);
   vkt_buffer_destroy(dev, &out);
}

/* scalarBlockLayout (shaders/vulkan12_scalar_block_layout.comp): a uvec3
 * across a 16-byte boundary and a uvec3 array of stride 12, in a uniform
 * and a storage block. */
TEST_CASE(scalar_block_layout_is_read_and_written_at_its_offsets)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.scalarBlockLayout = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   check_block_copy(&dev, "vulkan12_scalar_block_layout", 0);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* uniformBufferStandardLayout (shaders/vulkan12_uniform_std430.comp): an
 * array of stride 4 in a uniform block; words 10 and 11 are the padding
 * before the uvec3 at 48. */
TEST_CASE(uniform_buffers_take_the_std430_layout)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.uniformBufferStandardLayout = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   check_block_copy(&dev, "vulkan12_uniform_std430", 1u << 10 | 1u << 11);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* samplerMirrorClampToEdge (shaders/vulkan12_mirror_clamp.comp): texel i
 * of a 4x1 image, sampled from i = -6 to 9, is texel min(i < 0 ? -1 - i :
 * i, 3). */
TEST_CASE(mirror_clamp_to_edge_mirrors_once_then_clamps)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.samplerMirrorClampToEdge = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   struct vkt_image img;
   if (vkt_image_create_2d(&dev, VK_FORMAT_R32_SFLOAT, 4, 1, 1,
                           VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &img)) {
      const float texels[4] = {10, 20, 30, 40};
      VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {4, 1, 1}};
      vkt_image_upload(&dev, img.image, texels, sizeof(texels), &region, 1,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                 .magFilter = VK_FILTER_NEAREST,
                                 .minFilter = VK_FILTER_NEAREST,
                                 .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                 .addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
                                 .addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
                                 .addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};
      VkSampler sampler = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateSampler(dev.device, &sci, NULL, &sampler));
      struct vkt_buffer out;
      VKT_CHECK(vkt_buffer_create(&dev, 16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKT_MEMORY_HOST,
                                  &out));
      const struct dispatch_binding b[2] = {
          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 0, img.view, sampler},
          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, 0, 0},
      };
      if (sampler)
         dispatch(&dev, "vulkan12_mirror_clamp", b, 2, NULL, 0, 1);
      const float *o = out.map;
      for (int i = 0; i < 16; i++) {
         const int t = i - 6, m = t < 0 ? -1 - t : t;
         const float want = texels[m < 3 ? m : 3];
         CHECK_MSG(o[i] == want, "texel %d: got %g, want %g", t, (double)o[i], (double)want);
      }
      vkt_buffer_destroy(&dev, &out);
      vkDestroySampler(dev.device, sampler, NULL);
      vkt_image_destroy(&dev, &img);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---------------------------------------------------------------------------
 * Framebuffers, layouts and images
 * ------------------------------------------------------------------------- */
static const float BLACK[4] = {0, 0, 0, 1}, GREEN[4] = {0, 1, 0, 1};

/* imagelessFramebuffer: the framebuffer describes its attachment and the
 * view comes with vkCmdBeginRenderPass; the draw is vkCmdDrawIndirectCount
 * by its core name (drawIndirectCount), whose count (1 of a maximum of 2)
 * is read from memory. */
TEST_CASE(imageless_framebuffer_renders_into_the_view_given_at_begin)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.imagelessFramebuffer = VK_TRUE,
                                         .drawIndirectCount = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   PFN_vkCmdDrawIndirectCount draw_count = CORE_1_2(&dev, vkCmdDrawIndirectCount);
   struct gtarget t;
   VkPipelineLayout layout = gtu_empty_layout(&dev);
   if (draw_count && gtu_target_create(&dev, VK_FORMAT_UNDEFINED, &t)) {
      const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
      VkFramebufferAttachmentImageInfo info = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO,
          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                   VK_IMAGE_USAGE_TRANSFER_DST_BIT,
          .width = GW,
          .height = GH,
          .layerCount = 1,
          .viewFormatCount = 1,
          .pViewFormats = &format,
      };
      VkFramebufferAttachmentsCreateInfo infos = {
          .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO,
          .attachmentImageInfoCount = 1,
          .pAttachmentImageInfos = &info,
      };
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .pNext = &infos,
                                     .flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT,
                                     .renderPass = t.pass,
                                     .attachmentCount = 1,
                                     .width = GW,
                                     .height = GH,
                                     .layers = 1};
      VkFramebuffer fb = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      struct gtu_pipeline_desc d = {
          .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .layout = layout, .pass = t.pass};
      VkPipeline pipe = VK_NULL_HANDLE;
      VKT_CHECK(gtu_pipeline(&dev, &d, &pipe));
      struct gvertex v[12];
      gtu_rect(&v[0], 4, 4, 12, 20, 0.5f, GREEN);
      gtu_rect(&v[6], 20, 4, 28, 20, 0.5f, GREEN); /* the second record: not drawn */
      const uint32_t args[8] = {6, 1, 0, 0, 6, 1, 6, 0};
      const uint32_t count = 1;
      struct vkt_buffer vb, ab, cb;
      if (fb && pipe &&
          gtu_data_buffer(&dev, v, sizeof(v), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb)) {
         if (gtu_data_buffer(&dev, args, sizeof(args), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ab)) {
            if (gtu_data_buffer(&dev, &count, 4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &cb)) {
               VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
               VkRenderPassAttachmentBeginInfo views = {
                   .sType = VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO,
                   .attachmentCount = 1,
                   .pAttachments = &t.color.view,
               };
               VkClearValue clear;
               memcpy(clear.color.float32, BLACK, 16);
               VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                           .pNext = &views,
                                           .renderPass = t.pass,
                                           .framebuffer = fb,
                                           .renderArea = {{0, 0}, {GW, GH}},
                                           .clearValueCount = 1,
                                           .pClearValues = &clear};
               vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
               vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
               gtu_bind_vertex_buffer(cmd, &vb);
               draw_count(cmd, ab.buffer, 0, cb.buffer, 0, 2, 16);
               if (gtu_end_read(&dev, &t, cmd)) {
                  uint32_t want[GW * GH];
                  gtu_fill(want, 0, 0, GW, GH, gtu_rgba(0, 0, 0, 255));
                  gtu_fill(want, 4, 4, 12, 20, gtu_rgba(0, 255, 0, 255));
                  CHECK(gtu_check(&t, want, 0, "imageless framebuffer") == 0);
               }
               vkt_buffer_destroy(&dev, &cb);
            }
            vkt_buffer_destroy(&dev, &ab);
         }
         vkt_buffer_destroy(&dev, &vb);
      }
      vkDestroyPipeline(dev.device, pipe, NULL);
      vkDestroyFramebuffer(dev.device, fb, NULL);
      gtu_target_destroy(&dev, &t);
   }
   vkDestroyPipelineLayout(dev.device, layout, NULL);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* A depth/stencil format with both aspects that the device renders to. */
static VkFormat depth_stencil_format(struct vkt_device *dev)
{
   if (gtu_depth_supported(dev, VK_FORMAT_D32_SFLOAT_S8_UINT))
      return VK_FORMAT_D32_SFLOAT_S8_UINT;
   if (gtu_depth_supported(dev, VK_FORMAT_D24_UNORM_S8_UINT))
      return VK_FORMAT_D24_UNORM_S8_UINT;
   return VK_FORMAT_UNDEFINED;
}

/* A depth/stencil image of GW x GH with device-local memory and, if
 * view_aspects is not 0, a view of those aspects. */
static bool ds_image(struct vkt_device *dev, VkFormat format, VkImageUsageFlags usage,
                     const void *next, VkImageAspectFlags view_aspects, struct vkt_image *out)
{
   memset(out, 0, sizeof(*out));
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .pNext = next,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {GW, GH, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage};
   GTU_REQUIRE(vkCreateImage(dev->device, &ici, NULL, &out->image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(dev->device, out->image, &req);
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size,
                              .memoryTypeIndex =
                                  vkt_find_memory_type(dev->ctx, req.memoryTypeBits,
                                                       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0)};
   GTU_REQUIRE(vkAllocateMemory(dev->device, &ai, NULL, &out->memory));
   GTU_REQUIRE(vkBindImageMemory(dev->device, out->image, out->memory, 0));
   if (view_aspects) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = out->image,
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = format,
                                   .subresourceRange = {view_aspects, 0, 1, 0, 1}};
      GTU_REQUIRE(vkCreateImageView(dev->device, &vci, NULL, &out->view));
   }
   return true;
}

/* One aspect's layout transition of a depth/stencil image, between all
 * commands. */
static void aspect_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                           VkImageLayout from, VkImageLayout to)
{
   VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                             .dstAccessMask =
                                 VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                             .oldLayout = from,
                             .newLayout = to,
                             .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                             .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                             .image = image,
                             .subresourceRange = {aspect, 0, 1, 0, 1}};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        0, 0, NULL, 0, NULL, 1, &b);
}

/* Copies one aspect of the image (in TRANSFER_SRC_OPTIMAL) into `buf` at
 * `offset`. */
static void copy_aspect(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                        const struct vkt_buffer *buf, VkDeviceSize offset)
{
   VkBufferImageCopy region = {
       .bufferOffset = offset, .imageSubresource = {aspect, 0, 0, 1}, .imageExtent = {GW, GH, 1}};
   vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->buffer, 1,
                          &region);
}

/* The depth value `d` as the copy of `format`'s depth aspect writes it. */
static uint32_t depth_word(VkFormat format, float d)
{
   if (format == VK_FORMAT_D24_UNORM_S8_UINT)
      return (uint32_t)(d * 16777215.0f + 0.5f);
   uint32_t w;
   memcpy(&w, &d, 4);
   return w;
}

/* separateDepthStencilLayouts with vkCreateRenderPass2 and
 * vkCmdBeginRenderPass2 by their core names: the attachment is used as
 * DEPTH_ATTACHMENT_OPTIMAL / STENCIL_ATTACHMENT_OPTIMAL
 * (VkAttachmentReferenceStencilLayout), left as DEPTH_READ_ONLY_OPTIMAL /
 * STENCIL_READ_ONLY_OPTIMAL (VkAttachmentDescriptionStencilLayout), and each
 * aspect moves to TRANSFER_SRC by a barrier of its own. The load-op clears
 * must be in memory. */
TEST_CASE(depth_only_and_stencil_only_layouts_hold_through_a_render_pass)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.separateDepthStencilLayouts = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   PFN_vkCreateRenderPass2 create_pass = CORE_1_2(&dev, vkCreateRenderPass2);
   PFN_vkCmdBeginRenderPass2 begin_pass = CORE_1_2(&dev, vkCmdBeginRenderPass2);
   PFN_vkCmdEndRenderPass2 end_pass = CORE_1_2(&dev, vkCmdEndRenderPass2);
   const VkFormat format = depth_stencil_format(&dev);
   struct vkt_image ds = {0};
   struct vkt_buffer readback;
   if (!format) {
      vkt_skip("no depth/stencil attachment format with both aspects");
   } else if (create_pass && begin_pass && end_pass &&
              ds_image(&dev, format,
                       VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                           VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                       NULL, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, &ds) &&
              vkt_buffer_create(&dev, GW * GH * 5, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST,
                                &readback) == VK_SUCCESS) {
      VkAttachmentDescriptionStencilLayout stencil_layouts = {
          .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT,
          .stencilInitialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
          .stencilFinalLayout = VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL,
      };
      VkAttachmentDescription2 att = {.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
                                      .pNext = &stencil_layouts,
                                      .format = format,
                                      .samples = VK_SAMPLE_COUNT_1_BIT,
                                      .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                      .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                      .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                      .stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE,
                                      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                      .finalLayout = VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL};
      VkAttachmentReferenceStencilLayout stencil_ref = {
          .sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_STENCIL_LAYOUT,
          .stencilLayout = VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL,
      };
      VkAttachmentReference2 ref = {.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
                                    .pNext = &stencil_ref,
                                    .attachment = 0,
                                    .layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                    .aspectMask =
                                        VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT};
      VkSubpassDescription2 sp = {.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
                                  .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                  .pDepthStencilAttachment = &ref};
      VkRenderPassCreateInfo2 rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
                                     .attachmentCount = 1,
                                     .pAttachments = &att,
                                     .subpassCount = 1,
                                     .pSubpasses = &sp};
      VkRenderPass pass = VK_NULL_HANDLE;
      VKT_CHECK(create_pass(dev.device, &rci, NULL, &pass));
      VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                     .renderPass = pass,
                                     .attachmentCount = 1,
                                     .pAttachments = &ds.view,
                                     .width = GW,
                                     .height = GH,
                                     .layers = 1};
      VkFramebuffer fb = VK_NULL_HANDLE;
      if (pass)
         VKT_CHECK(vkCreateFramebuffer(dev.device, &fci, NULL, &fb));
      VkCommandBuffer cmd = fb ? vkt_cmd_begin(&dev, ctx.universal_family) : VK_NULL_HANDLE;
      if (cmd) {
         VkClearValue clear = {.depthStencil = {0.25f, 0x5a}};
         VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                     .renderPass = pass,
                                     .framebuffer = fb,
                                     .renderArea = {{0, 0}, {GW, GH}},
                                     .clearValueCount = 1,
                                     .pClearValues = &clear};
         VkSubpassBeginInfo sbi = {.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
                                   .contents = VK_SUBPASS_CONTENTS_INLINE};
         VkSubpassEndInfo sei = {.sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
         begin_pass(cmd, &bi, &sbi);
         end_pass(cmd, &sei);
         aspect_barrier(cmd, ds.image, VK_IMAGE_ASPECT_DEPTH_BIT,
                        VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL,
                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         aspect_barrier(cmd, ds.image, VK_IMAGE_ASPECT_STENCIL_BIT,
                        VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL,
                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         copy_aspect(cmd, ds.image, VK_IMAGE_ASPECT_DEPTH_BIT, &readback, 0);
         copy_aspect(cmd, ds.image, VK_IMAGE_ASPECT_STENCIL_BIT, &readback, GW * GH * 4);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint32_t *depth = readback.map;
         const uint8_t *stencil = (const uint8_t *)readback.map + GW * GH * 4;
         const uint32_t mask = format == VK_FORMAT_D24_UNORM_S8_UINT ? 0xffffffu : ~0u;
         unsigned bad = 0;
         for (unsigned i = 0; i < GW * GH; i++)
            bad += (depth[i] & mask) != depth_word(format, 0.25f) || stencil[i] != 0x5a;
         CHECK_MSG(bad == 0, "%u of %u texels lack the clear (first: depth 0x%x stencil 0x%x)", bad,
                   GW * GH, depth[0], stencil[0]);
      }
      vkDestroyFramebuffer(dev.device, fb, NULL);
      vkDestroyRenderPass(dev.device, pass, NULL);
      vkt_buffer_destroy(&dev, &readback);
   }
   if (format && ds.image)
      vkt_image_destroy(&dev, &ds);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_EXT_separate_stencil_usage (core 1.2): the stencil aspect has a usage
 * of its own (not sampled, where the depth aspect is if the format can be);
 * the format query with the same VkImageStencilUsageCreateInfo agrees, and
 * the stencil aspect alone is cleared and copied. (The validation layer of
 * 1.3.239 checks transfers and layouts against the image's usage, so that
 * includes them too.) */
TEST_CASE(separate_stencil_usage_is_taken_and_the_stencil_aspect_is_cleared)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {.separateDepthStencilLayouts = VK_TRUE};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   const VkFormat format = depth_stencil_format(&dev);
   VkImageStencilUsageCreateInfo stencil_usage = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO,
       .stencilUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   VkFormatProperties fmt = {0};
   if (format)
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, format, &fmt);
   const VkImageUsageFlags usage =
       stencil_usage.stencilUsage |
       (fmt.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT ? VK_IMAGE_USAGE_SAMPLED_BIT
                                                                        : 0);
   struct vkt_image ds = {0};
   struct vkt_buffer readback;
   if (!format) {
      vkt_skip("no depth/stencil attachment format with both aspects");
   } else {
      VkPhysicalDeviceImageFormatInfo2 fi = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
          .pNext = &stencil_usage,
          .format = format,
          .type = VK_IMAGE_TYPE_2D,
          .tiling = VK_IMAGE_TILING_OPTIMAL,
          .usage = usage,
      };
      VkImageFormatProperties2 fp = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
      VKT_CHECK(vkGetPhysicalDeviceImageFormatProperties2(ctx.physical_device, &fi, &fp));
      CHECK(fp.imageFormatProperties.maxExtent.width >= GW);
      if (ds_image(&dev, format, usage, &stencil_usage, 0, &ds) &&
          vkt_buffer_create(&dev, GW * GH, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &readback) ==
              VK_SUCCESS) {
         VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
         aspect_barrier(cmd, ds.image, VK_IMAGE_ASPECT_STENCIL_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
         VkClearDepthStencilValue value = {0, 0xc3};
         VkImageSubresourceRange range = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1};
         vkCmdClearDepthStencilImage(cmd, ds.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1,
                                     &range);
         aspect_barrier(cmd, ds.image, VK_IMAGE_ASPECT_STENCIL_BIT,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
         copy_aspect(cmd, ds.image, VK_IMAGE_ASPECT_STENCIL_BIT, &readback, 0);
         vkt_cmd_transfer_to_host_barrier(cmd);
         VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
         const uint8_t *s = readback.map;
         unsigned bad = 0;
         for (unsigned i = 0; i < GW * GH; i++)
            bad += s[i] != 0xc3;
         CHECK_MSG(bad == 0, "%u stencil texels are not 0xc3 (first 0x%x)", bad, s[0]);
         vkt_buffer_destroy(&dev, &readback);
      }
      if (ds.image)
         vkt_image_destroy(&dev, &ds);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* VK_KHR_image_format_list (core 1.2): a mutable R8G8B8A8_UNORM image that
 * lists UNORM and UINT; the format query takes the list, views of both
 * formats are made, and a clear through the image reads back. */
TEST_CASE(image_format_list_names_the_formats_of_a_mutable_image)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   VkPhysicalDeviceVulkan12Features f = {0};
   if (!device_1_2(&ctx, &dev, NULL, &f))
      return;
   const VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UINT};
   VkImageFormatListCreateInfo list = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
                                       .viewFormatCount = 2,
                                       .pViewFormats = formats};
   const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VkPhysicalDeviceImageFormatInfo2 fi = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
       .pNext = &list,
       .format = formats[0],
       .type = VK_IMAGE_TYPE_2D,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = usage,
       .flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
   };
   VkImageFormatProperties2 fp = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
   VKT_CHECK(vkGetPhysicalDeviceImageFormatProperties2(ctx.physical_device, &fi, &fp));
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .pNext = &list,
                            .flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = formats[0],
                            .extent = {4, 4, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage};
   struct vkt_image img;
   if (vkt_image_create(&dev, &ici, VK_IMAGE_VIEW_TYPE_2D, &img)) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = img.image,
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = formats[1],
                                   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
      VkImageView uint_view = VK_NULL_HANDLE;
      VKT_CHECK(vkCreateImageView(dev.device, &vci, NULL, &uint_view));
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
      VkClearColorValue c = {.float32 = {1.0f, 0.0f, 1.0f, 0.0f}};
      VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
      vkt_cmd_image_barrier(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_ACCESS_TRANSFER_READ_BIT);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint32_t texels[16];
      if (vkt_image_download(&dev, img.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 4, 4, 4,
                             texels)) {
         for (unsigned i = 0; i < 16; i++)
            CHECK_MSG(texels[i] == gtu_rgba(255, 0, 255, 0), "texel %u is 0x%08x", i, texels[i]);
      }
      vkDestroyImageView(dev.device, uint_view, NULL);
      vkt_image_destroy(&dev, &img);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
