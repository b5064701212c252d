/* See device_features.h.
 *
 * Feature structs all have the same shape: sType, pNext, then only VkBool32
 * members (VkPhysicalDeviceFeatures2 embeds VkPhysicalDeviceFeatures, also
 * only VkBool32). So one routine checks them all: it asks the physical device
 * for the same struct type and compares member by member. Structs this table
 * does not know are not features of any extension we expose; the validation
 * layer reports them, and the driver ignores them as the spec requires for
 * unknown pNext structs. */
#include "device_features.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vkppu_entrypoints.h"

struct feature_struct {
   VkStructureType type;
   size_t end; /* offset just past the last VkBool32 (sizeof would count padding) */
   const char *name;
};

#define FEATURE(T, last, S)                                                                        \
   {                                                                                               \
      S, offsetof(T, last) + sizeof(((T *)0)->last), #T                                            \
   }
static const struct feature_struct feature_structs[] = {
    FEATURE(VkPhysicalDeviceFeatures2, features, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2),
    FEATURE(VkPhysicalDeviceVulkan11Features, shaderDrawParameters,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES),
    FEATURE(VkPhysicalDeviceVulkan12Features, subgroupBroadcastDynamicId,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES),
    FEATURE(VkPhysicalDeviceVulkan13Features, maintenance4,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES),
    FEATURE(VkPhysicalDevicePrivateDataFeatures, privateData,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES),
    FEATURE(VkPhysicalDeviceVariablePointersFeatures, variablePointers,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES),
    FEATURE(VkPhysicalDeviceMultiviewFeatures, multiviewTessellationShader,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES),
    FEATURE(VkPhysicalDevice16BitStorageFeatures, storageInputOutput16,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES),
    FEATURE(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures, shaderSubgroupExtendedTypes,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES),
    FEATURE(VkPhysicalDeviceSamplerYcbcrConversionFeatures, samplerYcbcrConversion,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES),
    FEATURE(VkPhysicalDeviceProtectedMemoryFeatures, protectedMemory,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES),
    FEATURE(VkPhysicalDeviceInlineUniformBlockFeatures,
            descriptorBindingInlineUniformBlockUpdateAfterBind,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES),
    FEATURE(VkPhysicalDeviceMaintenance4Features, maintenance4,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES),
    FEATURE(VkPhysicalDeviceShaderDrawParametersFeatures, shaderDrawParameters,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES),
    FEATURE(VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES),
    FEATURE(VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES),
    FEATURE(VkPhysicalDeviceDescriptorIndexingFeatures, runtimeDescriptorArray,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES),
    FEATURE(VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES),
    FEATURE(VkPhysicalDevice8BitStorageFeatures, storagePushConstant8,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES),
    FEATURE(VkPhysicalDeviceVulkanMemoryModelFeatures,
            vulkanMemoryModelAvailabilityVisibilityChains,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES),
    FEATURE(VkPhysicalDeviceShaderAtomicInt64Features, shaderSharedInt64Atomics,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES),
    FEATURE(VkPhysicalDeviceScalarBlockLayoutFeatures, scalarBlockLayout,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES),
    FEATURE(VkPhysicalDeviceUniformBufferStandardLayoutFeatures, uniformBufferStandardLayout,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES),
    FEATURE(VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressMultiDevice,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES),
    FEATURE(VkPhysicalDeviceImagelessFramebufferFeatures, imagelessFramebuffer,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES),
    FEATURE(VkPhysicalDeviceTextureCompressionASTCHDRFeatures, textureCompressionASTC_HDR,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES),
    FEATURE(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures, separateDepthStencilLayouts,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES),
    FEATURE(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures, shaderDemoteToHelperInvocation,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES),
    FEATURE(VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES),
    FEATURE(VkPhysicalDevicePipelineCreationCacheControlFeatures, pipelineCreationCacheControl,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES),
    FEATURE(VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures,
            shaderZeroInitializeWorkgroupMemory,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES),
    FEATURE(VkPhysicalDeviceImageRobustnessFeatures, robustImageAccess,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES),
    FEATURE(VkPhysicalDeviceShaderTerminateInvocationFeatures, shaderTerminateInvocation,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES),
    FEATURE(VkPhysicalDeviceSynchronization2Features, synchronization2,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES),
    FEATURE(VkPhysicalDeviceShaderIntegerDotProductFeatures, shaderIntegerDotProduct,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES),
    FEATURE(VkPhysicalDeviceDynamicRenderingFeatures, dynamicRendering,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES),
    FEATURE(VkPhysicalDeviceAccelerationStructureFeaturesKHR,
            descriptorBindingAccelerationStructureUpdateAfterBind,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR),
    FEATURE(VkPhysicalDeviceRayQueryFeaturesKHR, rayQuery,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR),
    FEATURE(VkPhysicalDeviceRayTracingPipelineFeaturesKHR, rayTraversalPrimitiveCulling,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR),
    FEATURE(VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR, rayTracingPipelineTraceRaysIndirect2,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR),
    FEATURE(VkPhysicalDeviceImage2DViewOf3DFeaturesEXT, sampler2DViewOf3D,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT),
    FEATURE(VkPhysicalDevicePerformanceQueryFeaturesKHR, performanceCounterMultipleQueryPools,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR),
    FEATURE(VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT,
            vertexAttributeInstanceRateZeroDivisor,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceExtendedDynamicStateFeaturesEXT, extendedDynamicState,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceExtendedDynamicState2FeaturesEXT,
            extendedDynamicState2PatchControlPoints,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceMemoryPriorityFeaturesEXT, memoryPriority,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT),
    FEATURE(VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT, pageableDeviceLocalMemory,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceRobustness2FeaturesEXT, nullDescriptor,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT),
    FEATURE(VkPhysicalDevicePipelineRobustnessFeaturesEXT, pipelineRobustness,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceMultiDrawFeaturesEXT, multiDraw,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT, vertexInputDynamicState,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceCustomBorderColorFeaturesEXT, customBorderColorWithoutFormat,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceBorderColorSwizzleFeaturesEXT, borderColorSwizzleFromImage,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT),
    FEATURE(VkPhysicalDeviceDepthClipEnableFeaturesEXT, depthClipEnable,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT),
};
#undef FEATURE

/* Header of every feature struct: the VkBool32 members start after it. */
#define FEATURE_HEADER_SIZE sizeof(VkBaseOutStructure)
#define MAX_FEATURE_STRUCT_SIZE 512

static const struct feature_struct *find_feature_struct(VkStructureType type)
{
   for (size_t i = 0; i < sizeof(feature_structs) / sizeof(feature_structs[0]); i++) {
      if (feature_structs[i].type == type)
         return &feature_structs[i];
   }
   return NULL;
}

/* Index of the first member that is requested but not supported, or -1. */
static int first_unsupported(const VkBool32 *requested, const VkBool32 *supported, size_t count)
{
   for (size_t i = 0; i < count; i++) {
      if (requested[i] && !supported[i])
         return (int)i;
   }
   return -1;
}

/* Member names of VkPhysicalDeviceFeatures, in declaration order, for error
 * messages that name the feature. */
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

static VkResult check_core(VkPhysicalDevice pd, const VkPhysicalDeviceFeatures *requested,
                           char *what, size_t what_size)
{
   VkPhysicalDeviceFeatures supported;
   memset(&supported, 0, sizeof(supported));
   vkppu_GetPhysicalDeviceFeatures(pd, &supported);
   int bad = first_unsupported((const VkBool32 *)requested, (const VkBool32 *)&supported,
                               sizeof(supported) / sizeof(VkBool32));
   if (bad < 0)
      return VK_SUCCESS;
   _Static_assert(sizeof(core_feature_names) / sizeof(core_feature_names[0]) ==
                      sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32),
                  "one name per VkPhysicalDeviceFeatures member");
   snprintf(what, what_size, "VkPhysicalDeviceFeatures::%s", core_feature_names[bad]);
   return VK_ERROR_FEATURE_NOT_PRESENT;
}

/* Records the beyond-1.0 features the driver acts on. */
static void note_enabled(const VkBaseInStructure *s, struct vkppu_enabled_features *out)
{
   switch (s->sType) {
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
      const VkPhysicalDeviceVulkan12Features *f = (const void *)s;
      out->timeline_semaphore |= f->timelineSemaphore;
      out->buffer_device_address |= f->bufferDeviceAddress;
      out->host_query_reset |= f->hostQueryReset;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
      const VkPhysicalDeviceVulkan13Features *f = (const void *)s;
      out->synchronization2 |= f->synchronization2;
      out->private_data |= f->privateData;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
      out->timeline_semaphore |=
          ((const VkPhysicalDeviceTimelineSemaphoreFeatures *)(const void *)s)->timelineSemaphore;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
      out->synchronization2 |=
          ((const VkPhysicalDeviceSynchronization2Features *)(const void *)s)->synchronization2;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
      out->private_data |=
          ((const VkPhysicalDevicePrivateDataFeatures *)(const void *)s)->privateData;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
      out->buffer_device_address |=
          ((const VkPhysicalDeviceBufferDeviceAddressFeatures *)(const void *)s)
              ->bufferDeviceAddress;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
      out->host_query_reset |=
          ((const VkPhysicalDeviceHostQueryResetFeatures *)(const void *)s)->hostQueryReset;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT:
      out->robust_buffer_access2 |=
          ((const VkPhysicalDeviceRobustness2FeaturesEXT *)(const void *)s)->robustBufferAccess2;
      break;
   default:
      break;
   }
}

VkResult vkppu_check_device_features(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                                     struct vkppu_enabled_features *out, char *what,
                                     size_t what_size)
{
   memset(out, 0, sizeof(*out));
   if (info->pEnabledFeatures) {
      VkResult r = check_core(pd, info->pEnabledFeatures, what, what_size);
      if (r != VK_SUCCESS)
         return r;
      out->core = *info->pEnabledFeatures;
   }
   for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
      const struct feature_struct *fs = find_feature_struct(s->sType);
      if (!fs)
         continue;
      _Alignas(8) unsigned char supported[MAX_FEATURE_STRUCT_SIZE];
      memset(supported, 0, sizeof(supported));
      VkBaseOutStructure *sup = (VkBaseOutStructure *)(void *)supported;
      sup->sType = s->sType;
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
         vkppu_GetPhysicalDeviceFeatures2(pd, (VkPhysicalDeviceFeatures2 *)(void *)supported);
         out->core = ((const VkPhysicalDeviceFeatures2 *)(const void *)s)->features;
      } else {
         VkPhysicalDeviceFeatures2 query = {
             .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
             .pNext = supported,
         };
         vkppu_GetPhysicalDeviceFeatures2(pd, &query);
      }
      size_t count = (fs->end - FEATURE_HEADER_SIZE) / sizeof(VkBool32);
      int bad = first_unsupported(
          (const VkBool32 *)(const void *)((const char *)s + FEATURE_HEADER_SIZE),
          (const VkBool32 *)(const void *)(supported + FEATURE_HEADER_SIZE), count);
      if (bad >= 0) {
         snprintf(what, what_size, "%s member %d", fs->name, bad);
         return VK_ERROR_FEATURE_NOT_PRESENT;
      }
      note_enabled(s, out);
   }
   return VK_SUCCESS;
}
