/* Instance- and physical-device-level queries, and device creation: what the
 * driver reports must be self-consistent and obey the spec's rules, and
 * vkCreateDevice / vkGetDeviceProcAddr must refuse what was not offered or
 * not enabled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_test_context.h"

/* VkPhysicalDeviceFeatures is 55 VkBool32 members in this order (vk.xml). */
static const char *const core_feature_names[] = {
    "robustBufferAccess",
    "fullDrawIndexUint32",
    "imageCubeArray",
    "independentBlend",
    "geometryShader",
    "tessellationShader",
    "sampleRateShading",
    "dualSrcBlend",
    "logicOp",
    "multiDrawIndirect",
    "drawIndirectFirstInstance",
    "depthClamp",
    "depthBiasClamp",
    "fillModeNonSolid",
    "depthBounds",
    "wideLines",
    "largePoints",
    "alphaToOne",
    "multiViewport",
    "samplerAnisotropy",
    "textureCompressionETC2",
    "textureCompressionASTC_LDR",
    "textureCompressionBC",
    "occlusionQueryPrecise",
    "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics",
    "fragmentStoresAndAtomics",
    "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended",
    "shaderStorageImageExtendedFormats",
    "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat",
    "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing",
    "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing",
    "shaderStorageImageArrayDynamicIndexing",
    "shaderClipDistance",
    "shaderCullDistance",
    "shaderFloat64",
    "shaderInt64",
    "shaderInt16",
    "shaderResourceResidency",
    "shaderResourceMinLod",
    "sparseBinding",
    "sparseResidencyBuffer",
    "sparseResidencyImage2D",
    "sparseResidencyImage3D",
    "sparseResidency2Samples",
    "sparseResidency4Samples",
    "sparseResidency8Samples",
    "sparseResidency16Samples",
    "sparseResidencyAliased",
    "variableMultisampleRate",
    "inheritedQueries",
};
#define CORE_FEATURE_COUNT (sizeof(core_feature_names) / sizeof(core_feature_names[0]))
_Static_assert(sizeof(VkPhysicalDeviceFeatures) == CORE_FEATURE_COUNT * sizeof(VkBool32),
               "core_feature_names must list every VkPhysicalDeviceFeatures member");

static VkBool32 *core_feature_array(VkPhysicalDeviceFeatures *f)
{
   return (VkBool32 *)f;
}

static bool is_power_of_two(uint64_t v)
{
   return v && !(v & (v - 1));
}

/* The feature structs of the standard extensions, chained. */
struct extension_features {
   VkPhysicalDeviceFeatures2 core;
   VkPhysicalDeviceTimelineSemaphoreFeaturesKHR timeline;
   VkPhysicalDeviceSynchronization2FeaturesKHR sync2;
   VkPhysicalDevicePrivateDataFeaturesEXT private_data;
   VkPhysicalDeviceBufferDeviceAddressFeaturesKHR bda;
   VkPhysicalDeviceHostQueryResetFeaturesEXT query_reset;
};

static void extension_features_init(struct extension_features *f)
{
   memset(f, 0, sizeof(*f));
   f->query_reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES_EXT;
   f->bda.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES_KHR;
   f->bda.pNext = &f->query_reset;
   f->private_data.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES_EXT;
   f->private_data.pNext = &f->bda;
   f->sync2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES_KHR;
   f->sync2.pNext = &f->private_data;
   f->timeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES_KHR;
   f->timeline.pNext = &f->sync2;
   f->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->core.pNext = &f->timeline;
}

TEST_CASE(physical_device_enumeration_reports_incomplete)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   uint32_t count = 0;
   VKT_CHECK(vkEnumeratePhysicalDevices(ctx.instance, &count, NULL));
   CHECK(count >= 1);
   VkPhysicalDevice none[1];
   uint32_t zero = 0;
   VKT_CHECK_RESULT(vkEnumeratePhysicalDevices(ctx.instance, &zero, none), VK_INCOMPLETE);
   CHECK_EQ_U64(zero, 0);
   vkt_context_destroy(&ctx);
}

TEST_CASE(device_properties_are_self_consistent)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   const VkPhysicalDeviceProperties *p = &ctx.props;
   const VkPhysicalDeviceLimits *l = &p->limits;
   printf("  device \"%s\" apiVersion %u.%u.%u type %d\n", p->deviceName,
          VK_API_VERSION_MAJOR(p->apiVersion), VK_API_VERSION_MINOR(p->apiVersion),
          VK_API_VERSION_PATCH(p->apiVersion), p->deviceType);

   CHECK(VK_API_VERSION_VARIANT(p->apiVersion) == 0);
   CHECK(VK_API_VERSION_MAJOR(p->apiVersion) >= 1);
   CHECK(memchr(p->deviceName, 0, sizeof(p->deviceName)) != NULL);
   CHECK(p->deviceName[0] != 0);
   CHECK(p->deviceType <= VK_PHYSICAL_DEVICE_TYPE_CPU);

   /* Minimums and maximums from the spec's "Required Limits" table. */
   CHECK(l->maxMemoryAllocationCount >= 4096);
   CHECK(l->maxBoundDescriptorSets >= 4);
   CHECK(l->maxPushConstantsSize >= 128);
   CHECK(l->maxUniformBufferRange >= 16384);
   CHECK(l->maxStorageBufferRange >= (1u << 27));
   CHECK(l->bufferImageGranularity >= 1 && l->bufferImageGranularity <= 131072);
   CHECK(l->minMemoryMapAlignment >= 64 && is_power_of_two(l->minMemoryMapAlignment));
   CHECK(l->nonCoherentAtomSize <= 256 && is_power_of_two(l->nonCoherentAtomSize));
   CHECK(l->minUniformBufferOffsetAlignment <= 256 &&
         is_power_of_two(l->minUniformBufferOffsetAlignment));
   CHECK(l->minStorageBufferOffsetAlignment <= 256 &&
         is_power_of_two(l->minStorageBufferOffsetAlignment));
   CHECK(l->minTexelBufferOffsetAlignment <= 256 &&
         is_power_of_two(l->minTexelBufferOffsetAlignment));
   CHECK(is_power_of_two(l->optimalBufferCopyOffsetAlignment));
   CHECK(is_power_of_two(l->optimalBufferCopyRowPitchAlignment));

   bool any_timestamps = false;
   for (uint32_t f = 0; f < ctx.family_count; f++) {
      const VkQueueFamilyProperties *fam = &ctx.families[f];
      any_timestamps |= fam->timestampValidBits != 0;
      if (l->timestampComputeAndGraphics &&
          (fam->queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
         CHECK_MSG(fam->timestampValidBits != 0,
                   "timestampComputeAndGraphics but family %u has no timestamp bits", f);
   }
   if (any_timestamps)
      CHECK(l->timestampPeriod > 0.0f);

   /* The 2-variant must agree with the 1.0 query. */
   VkPhysicalDeviceTimelineSemaphorePropertiesKHR timeline = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES_KHR,
   };
   VkPhysicalDeviceProperties2 p2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = vkt_has_device_extension(&ctx, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) ? &timeline
                                                                                         : NULL,
   };
   vkGetPhysicalDeviceProperties2KHR(ctx.physical_device, &p2);
   const VkPhysicalDeviceProperties *q = &p2.properties;
   /* Member by member: the structs have padding the loader need not copy. */
   CHECK(q->apiVersion == p->apiVersion && q->driverVersion == p->driverVersion);
   CHECK(q->vendorID == p->vendorID && q->deviceID == p->deviceID);
   CHECK(q->deviceType == p->deviceType);
   CHECK(strcmp(q->deviceName, p->deviceName) == 0);
   CHECK(memcmp(q->pipelineCacheUUID, p->pipelineCacheUUID, VK_UUID_SIZE) == 0);
   CHECK(memcmp(&q->sparseProperties, &p->sparseProperties, sizeof(p->sparseProperties)) == 0);
   CHECK(q->limits.maxMemoryAllocationCount == l->maxMemoryAllocationCount);
   CHECK(q->limits.bufferImageGranularity == l->bufferImageGranularity);
   CHECK(q->limits.nonCoherentAtomSize == l->nonCoherentAtomSize);
   CHECK(q->limits.timestampPeriod == l->timestampPeriod);
   CHECK(q->limits.minMemoryMapAlignment == l->minMemoryMapAlignment);
   if (p2.pNext)
      CHECK(timeline.maxTimelineSemaphoreValueDifference >= (1ull << 31) - 1);
   vkt_context_destroy(&ctx);
}

TEST_CASE(features2_matches_features_and_extension_features_are_supported)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures core;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &core);
   struct extension_features f;
   extension_features_init(&f);
   vkGetPhysicalDeviceFeatures2KHR(ctx.physical_device, &f.core);
   CHECK(memcmp(&core, &f.core.features, sizeof(core)) == 0);

   const VkBool32 *values = core_feature_array(&core);
   for (size_t i = 0; i < CORE_FEATURE_COUNT; i++)
      CHECK_MSG(values[i] == VK_TRUE || values[i] == VK_FALSE, "%s = %u is not a VkBool32",
                core_feature_names[i], values[i]);

   /* Each extension requires the feature it adds ("Feature Requirements"). */
   CHECK(f.timeline.timelineSemaphore == VK_TRUE);
   CHECK(f.sync2.synchronization2 == VK_TRUE);
   CHECK(f.private_data.privateData == VK_TRUE);
   CHECK(f.bda.bufferDeviceAddress == VK_TRUE);
   CHECK(f.query_reset.hostQueryReset == VK_TRUE);
   vkt_context_destroy(&ctx);
}

/* The one core feature every Vulkan 1.0-1.3 implementation must support
 * (spec, "Feature Requirements"). */
TEST_CASE(robust_buffer_access_is_supported)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures core;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &core);
   CHECK_MSG(core.robustBufferAccess == VK_TRUE, "robustBufferAccess is required but reported %u",
             core.robustBufferAccess);
   vkt_context_destroy(&ctx);
}

TEST_CASE(every_reported_feature_can_be_enabled)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   struct extension_features f;
   extension_features_init(&f);
   vkGetPhysicalDeviceFeatures2KHR(ctx.physical_device, &f.core);
   struct vkt_device_desc desc = {
       .extensions = vkt_standard_device_extensions,
       .extension_count = vkt_standard_device_extension_count,
       .features = &f.core.features,
       .feature_chain = &f.timeline,
       .all_queues = true,
   };
   struct vkt_device dev;
   VkResult r = vkt_device_create(&ctx, &desc, &dev);
   CHECK_MSG(r == VK_SUCCESS, "creating a device with every reported feature -> %s",
             vkt_result_name(r));
   if (r == VK_SUCCESS)
      vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(memory_types_obey_spec_ordering_and_heaps)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   const VkPhysicalDeviceMemoryProperties *m = &ctx.memory;
   REQUIRE(m->memoryTypeCount >= 1 && m->memoryTypeCount <= VK_MAX_MEMORY_TYPES);
   REQUIRE(m->memoryHeapCount >= 1 && m->memoryHeapCount <= VK_MAX_MEMORY_HEAPS);

   const VkMemoryPropertyFlags dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                               hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                               hc = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                               lazy = VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
                               prot = VK_MEMORY_PROPERTY_PROTECTED_BIT;
   /* The property combinations the spec allows (vendor-specific bits aside). */
   const VkMemoryPropertyFlags allowed[] = {
       0,         hv | hc,      hv | cached,      hv | cached | hc,
       dl,        dl | hv | hc, dl | hv | cached, dl | hv | cached | hc,
       dl | lazy, prot,         prot | dl,
   };
   const VkMemoryPropertyFlags standard = dl | hv | hc | cached | lazy | prot;
   bool host_coherent = false, device_local_heap = false, device_local_type = false;
   for (uint32_t h = 0; h < m->memoryHeapCount; h++) {
      CHECK_MSG(m->memoryHeaps[h].size > 0, "heap %u has size 0", h);
      device_local_heap |= (m->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
   }
   for (uint32_t i = 0; i < m->memoryTypeCount; i++) {
      VkMemoryPropertyFlags flags = m->memoryTypes[i].propertyFlags & standard;
      CHECK_MSG(m->memoryTypes[i].heapIndex < m->memoryHeapCount, "type %u: heap %u of %u", i,
                m->memoryTypes[i].heapIndex, m->memoryHeapCount);
      bool ok = false;
      for (size_t a = 0; a < sizeof(allowed) / sizeof(allowed[0]); a++)
         ok |= flags == allowed[a];
      CHECK_MSG(ok, "type %u has a property combination the spec does not allow: 0x%x", i, flags);
      host_coherent |= (flags & (hv | hc)) == (hv | hc);
      device_local_type |= (flags & dl) != 0;
      /* Ordering rule: a type whose flags are a strict subset of a later
       * type's flags must come first, so no later type may be a strict
       * subset of this one. */
      for (uint32_t j = i + 1; j < m->memoryTypeCount; j++) {
         VkMemoryPropertyFlags later = m->memoryTypes[j].propertyFlags & standard;
         CHECK_MSG(!((later & flags) == later && later != flags),
                   "type %u (0x%x) must come before type %u (0x%x)", j, later, i, flags);
      }
   }
   CHECK_MSG(host_coherent, "no HOST_VISIBLE|HOST_COHERENT memory type");
   CHECK_MSG(device_local_heap, "no DEVICE_LOCAL heap");
   CHECK_MSG(device_local_type, "no DEVICE_LOCAL memory type");
   vkt_context_destroy(&ctx);
}

TEST_CASE(queue_families_are_consistent)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device, &count, NULL);
   CHECK(count == ctx.family_count);
   CHECK(count >= 1);
   /* The 2-variant reports the same, and honours a short array. */
   VkQueueFamilyProperties2 f2[VKT_MAX_FAMILIES];
   for (uint32_t i = 0; i < VKT_MAX_FAMILIES; i++)
      f2[i] = (VkQueueFamilyProperties2){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2};
   uint32_t count2 = VKT_MAX_FAMILIES;
   vkGetPhysicalDeviceQueueFamilyProperties2KHR(ctx.physical_device, &count2, f2);
   CHECK(count2 == ctx.family_count);
   for (uint32_t i = 0; i < count2 && i < ctx.family_count; i++)
      CHECK(memcmp(&f2[i].queueFamilyProperties, &ctx.families[i], sizeof(ctx.families[i])) == 0);
   if (count >= 2) {
      VkQueueFamilyProperties first[1];
      uint32_t short_count = 1;
      vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device, &short_count, first);
      CHECK(short_count == 1);
   }
   for (uint32_t f = 0; f < ctx.family_count; f++) {
      const VkQueueFamilyProperties *fam = &ctx.families[f];
      CHECK_MSG(fam->queueCount >= 1, "family %u has no queues", f);
      CHECK_MSG(fam->timestampValidBits == 0 ||
                    (fam->timestampValidBits >= 36 && fam->timestampValidBits <= 64),
                "family %u: timestampValidBits %u", f, fam->timestampValidBits);
      if (fam->queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
         VkExtent3D g = fam->minImageTransferGranularity;
         CHECK_MSG(g.width == 1 && g.height == 1 && g.depth == 1,
                   "graphics/compute family %u: transfer granularity must be (1,1,1)", f);
      }
   }
   printf("  universal family %u (%u queues), transfer-only family %d\n", ctx.universal_family,
          ctx.families[ctx.universal_family].queueCount,
          ctx.transfer_family == VKT_NO_FAMILY ? -1 : (int)ctx.transfer_family);
   vkt_context_destroy(&ctx);
}

TEST_CASE(physical_device_groups_contain_the_device)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!vkEnumeratePhysicalDeviceGroupsKHR) {
      vkt_skip("VK_KHR_device_group_creation not offered");
      vkt_context_destroy(&ctx);
      return;
   }
   uint32_t count = 0;
   VKT_CHECK(vkEnumeratePhysicalDeviceGroupsKHR(ctx.instance, &count, NULL));
   REQUIRE(count >= 1 && count <= 8);
   VkPhysicalDeviceGroupProperties groups[8];
   for (uint32_t i = 0; i < 8; i++)
      groups[i] = (VkPhysicalDeviceGroupProperties){
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES};
   VKT_CHECK(vkEnumeratePhysicalDeviceGroupsKHR(ctx.instance, &count, groups));
   bool found = false;
   for (uint32_t g = 0; g < count; g++) {
      CHECK(groups[g].physicalDeviceCount >= 1);
      for (uint32_t d = 0; d < groups[g].physicalDeviceCount; d++)
         found |= groups[g].physicalDevices[d] == ctx.physical_device;
   }
   CHECK_MSG(found, "the physical device is in no device group");
   vkt_context_destroy(&ctx);
}

TEST_CASE(device_extension_enumeration_reports_incomplete)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   uint32_t count = 0;
   VKT_CHECK(vkEnumerateDeviceExtensionProperties(ctx.physical_device, NULL, &count, NULL));
   REQUIRE(count >= vkt_standard_device_extension_count);
   VkExtensionProperties *all = calloc(count, sizeof(*all));
   REQUIRE(all);
   uint32_t got = count;
   VKT_CHECK(vkEnumerateDeviceExtensionProperties(ctx.physical_device, NULL, &got, all));
   CHECK(got == count);

   /* One short: VK_INCOMPLETE, and exactly count - 1 written. */
   VkExtensionProperties *some = calloc(count, sizeof(*some));
   REQUIRE(some);
   memset(some, 0xAB, count * sizeof(*some));
   uint32_t short_count = count - 1;
   VKT_CHECK_RESULT(
       vkEnumerateDeviceExtensionProperties(ctx.physical_device, NULL, &short_count, some),
       VK_INCOMPLETE);
   CHECK(short_count == count - 1);
   CHECK(memcmp(some, all, short_count * sizeof(*some)) == 0);
   uint32_t zero = 0;
   VKT_CHECK_RESULT(vkEnumerateDeviceExtensionProperties(ctx.physical_device, NULL, &zero, some),
                    VK_INCOMPLETE);
   CHECK(zero == 0);

   for (uint32_t i = 0; i < count; i++) {
      CHECK_MSG(memchr(all[i].extensionName, 0, VK_MAX_EXTENSION_NAME_SIZE) != NULL,
                "extension %u name not terminated", i);
      CHECK_MSG(all[i].specVersion >= 1, "%s specVersion 0", all[i].extensionName);
      for (uint32_t j = i + 1; j < count; j++)
         CHECK_MSG(strcmp(all[i].extensionName, all[j].extensionName) != 0, "%s listed twice",
                   all[i].extensionName);
   }
   for (uint32_t s = 0; s < vkt_standard_device_extension_count; s++)
      CHECK_MSG(vkt_has_device_extension(&ctx, vkt_standard_device_extensions[s]), "%s not offered",
                vkt_standard_device_extensions[s]);
   free(some);
   free(all);
   vkt_context_destroy(&ctx);
}

TEST_CASE(create_device_with_unknown_extension_fails)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   static const char *const bogus[] = {"VK_VKPPU_no_such_extension"};
   struct vkt_device_desc desc = {.extensions = bogus, .extension_count = 1};
   struct vkt_device dev;
   /* The loader reports the unknown name, then that vkCreateDevice failed. */
   const char *const expected[] = {bogus[0], "CreateDevice", NULL};
   vkt_tolerate_begin(expected);
   VkResult r = vkt_device_create(&ctx, &desc, &dev);
   vkt_tolerate_end();
   CHECK_MSG(r == VK_ERROR_EXTENSION_NOT_PRESENT, "-> %s", vkt_result_name(r));
   if (r == VK_SUCCESS)
      vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(create_device_with_unsupported_feature_fails)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   VkPhysicalDeviceFeatures supported;
   vkGetPhysicalDeviceFeatures(ctx.physical_device, &supported);
   size_t pick = CORE_FEATURE_COUNT;
   for (size_t i = 0; i < CORE_FEATURE_COUNT && pick == CORE_FEATURE_COUNT; i++) {
      if (!core_feature_array(&supported)[i])
         pick = i;
   }
   if (pick == CORE_FEATURE_COUNT) {
      vkt_skip("every core feature is supported");
      vkt_context_destroy(&ctx);
      return;
   }
   printf("  requesting unsupported feature %s\n", core_feature_names[pick]);
   VkPhysicalDeviceFeatures request = {0};
   core_feature_array(&request)[pick] = VK_TRUE;
   struct vkt_device_desc desc = {.features = &request};
   struct vkt_device dev;
   /* The layer or the driver names the feature; the loader then reports that
    * vkCreateDevice failed. */
   const char *const expected[] = {core_feature_names[pick], "CreateDevice", NULL};
   vkt_tolerate_begin(expected);
   VkResult r = vkt_device_create(&ctx, &desc, &dev);
   vkt_tolerate_end();
   CHECK_MSG(r == VK_ERROR_FEATURE_NOT_PRESENT, "-> %s", vkt_result_name(r));
   if (r == VK_SUCCESS)
      vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(get_device_proc_addr_only_returns_enabled_commands)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   struct vkt_device plain, standard;
   struct vkt_device_desc desc = {0};
   VKT_REQUIRE(vkt_device_create(&ctx, &desc, &plain));
   if (!vkt_device_create_standard(&ctx, &standard)) {
      vkt_device_destroy(&plain);
      vkt_context_destroy(&ctx);
      return;
   }
   /* Core 1.0 commands are always there. */
   CHECK(vkGetDeviceProcAddr(plain.device, "vkQueueSubmit") != NULL);
   CHECK(vkGetDeviceProcAddr(plain.device, "vkCmdCopyBuffer") != NULL);
   /* Names that are no command at all. */
   CHECK(vkGetDeviceProcAddr(plain.device, "vkNoSuchCommandVKPPU") == NULL);
   CHECK(vkGetDeviceProcAddr(standard.device, "vkNoSuchCommandVKPPU") == NULL);

   /* Extension commands exist only where their extension is enabled. */
   static const char *const gated[] = {
       "vkWaitSemaphoresKHR",         "vkQueueSubmit2KHR",   "vkCreatePrivateDataSlotEXT",
       "vkGetBufferDeviceAddressKHR", "vkResetQueryPoolEXT", "vkGetCalibratedTimestampsEXT",
       "vkBindBufferMemory2KHR",
   };
   for (size_t i = 0; i < sizeof(gated) / sizeof(gated[0]); i++) {
      CHECK_MSG(vkGetDeviceProcAddr(plain.device, gated[i]) == NULL,
                "%s returned without its extension enabled", gated[i]);
      CHECK_MSG(vkGetDeviceProcAddr(standard.device, gated[i]) != NULL,
                "%s is NULL with its extension enabled", gated[i]);
   }
   /* Never enabled on either device. */
   CHECK(vkGetDeviceProcAddr(plain.device, "vkCmdDrawMeshTasksEXT") == NULL);
   CHECK(vkGetDeviceProcAddr(standard.device, "vkCmdDrawMeshTasksEXT") == NULL);
   vkt_device_destroy(&standard);
   vkt_device_destroy(&plain);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
