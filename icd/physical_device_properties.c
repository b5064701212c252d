/* vkGetPhysicalDeviceProperties(2): limits of the modeled PPU and every
 * properties struct an application may chain.
 *
 * Limits are the chip's design values and meet the spec's "Required Limits"
 * table (minimum/maximum noted where a value sits at the bound). Where a
 * limit belongs to a feature the device does not report yet (tessellation,
 * geometry, wide lines, multiple viewports, ...), it has the value the spec
 * requires when that feature is absent. */
#include <stddef.h>
#include <string.h>

#include "vkppu_pipeline.h"
#include "vkppu_acceleration_structure.h"
#include "vkppu_descriptor.h"
#include "vkppu_graphics.h"
#include "vkppu_physical_device.h"
#include "vkppu_render_pass.h"

/* Largest single allocation and buffer: 4 GiB, within heap 0 (6 GiB). */
#define VKPPU_MAX_ALLOCATION_SIZE (4ull << 30)
/* Threads per SM warp: the subgroup size. */
#define VKPPU_SUBGROUP_SIZE 32u
#define VKPPU_MAX_COMPUTE_INVOCATIONS 1024u

/* Not a registered VkDriverId: registered values (1..26 in vk.xml 1.3.239)
 * each name another vendor's driver, and tools and tests key behaviour off
 * them, so borrowing one would be a lie with consequences. 0x5050 ("PP") is
 * far beyond the sequentially assigned values, so it cannot collide with a
 * registration for years; register a real one before vkppu ships. */
#define VKPPU_DRIVER_ID ((VkDriverId)0x5050)

static const VkPhysicalDeviceLimits vkppu_limits = {
    .maxImageDimension1D = 16384,
    .maxImageDimension2D = 16384,
    .maxImageDimension3D = 16384, /* the texture header takes 16384 a side (PPU_TEX_MAX_EXTENT) */
    .maxImageDimensionCube = 16384,
    .maxImageArrayLayers = 2048,
    .maxTexelBufferElements = 1u << 27,
    .maxUniformBufferRange = 65536,
    .maxStorageBufferRange = 1u << 30,
    .maxPushConstantsSize = 256,
    .maxMemoryAllocationCount = 65536,
    .maxSamplerAllocationCount = 4000,
    .bufferImageGranularity = 1, /* the MMU has no linear/optimal split */
    .sparseAddressSpaceSize = 0, /* sparseBinding is not supported */
    .maxBoundDescriptorSets = 8,
    .maxPerStageDescriptorSamplers = 16,
    .maxPerStageDescriptorUniformBuffers = 15,
    .maxPerStageDescriptorStorageBuffers = 16,
    .maxPerStageDescriptorSampledImages = 128,
    .maxPerStageDescriptorStorageImages = 8,
    .maxPerStageDescriptorInputAttachments = 8,
    .maxPerStageResources = 256,
    .maxDescriptorSetSamplers = 96,
    .maxDescriptorSetUniformBuffers = 90,
    .maxDescriptorSetUniformBuffersDynamic = 8,
    .maxDescriptorSetStorageBuffers = 96,
    .maxDescriptorSetStorageBuffersDynamic = 8,
    .maxDescriptorSetSampledImages = 768,
    .maxDescriptorSetStorageImages = 48,
    .maxDescriptorSetInputAttachments = 8,
    .maxVertexInputAttributes = 32,
    .maxVertexInputBindings = DRV_ABI_MAX_VERTEX_BUFFERS, /* vertex-buffer records in cbank 0 */
    .maxVertexInputAttributeOffset = 2047,
    .maxVertexInputBindingStride = 2048,
    .maxVertexOutputComponents = 128,
    /* tessellationShader and geometryShader are not supported: 0. */
    .maxFragmentInputComponents = 128,
    .maxFragmentOutputAttachments = 8,
    .maxFragmentDualSrcAttachments = 1, /* dualSrcBlend: R4..R7 are the second source */
    .maxFragmentCombinedOutputResources = 16,
    .maxComputeSharedMemorySize = 49152,
    .maxComputeWorkGroupCount = {65535, 65535, 65535},
    .maxComputeWorkGroupInvocations = VKPPU_MAX_COMPUTE_INVOCATIONS,
    .maxComputeWorkGroupSize = {1024, 1024, 64},
    .subPixelPrecisionBits = 8,
    .subTexelPrecisionBits = 8,
    .mipmapPrecisionBits = 8,
    .maxDrawIndexedIndexValue = UINT32_MAX, /* fullDrawIndexUint32 */
    .maxDrawIndirectCount = UINT32_MAX,     /* multiDrawIndirect: INDIRECT_MAX_COUNT is 32-bit */
    .maxSamplerLodBias = 15.0f,
    .maxSamplerAnisotropy = 16.0f, /* the TAU's probes: PPU_TEX_MAX_PROBES */
    .maxViewports = 16,            /* VIEWPORT(i) and SCISSOR(i), i < 16 */
    .maxViewportDimensions = {16384, 16384},
    /* Spec: at least [-2 * max dimension, 2 * max dimension - 1]. */
    .viewportBoundsRange = {-32768.0f, 32767.0f},
    .viewportSubPixelBits = 8,
    .minMemoryMapAlignment = 4096, /* maps are whole BAR pages */
    .minTexelBufferOffsetAlignment = 16,
    .minUniformBufferOffsetAlignment = 64,
    .minStorageBufferOffsetAlignment = 16,
    .minTexelOffset = -8,
    .maxTexelOffset = 7,
    .minTexelGatherOffset = -8,
    .maxTexelGatherOffset = 7,
    .minInterpolationOffset = -0.5f,
    /* Spec: at least 0.5 - 2^-subPixelInterpolationOffsetBits. */
    .maxInterpolationOffset = 0.4375f,
    .subPixelInterpolationOffsetBits = 4,
    .maxFramebufferWidth = VKPPU_MAX_FRAMEBUFFER_SIZE,
    .maxFramebufferHeight = VKPPU_MAX_FRAMEBUFFER_SIZE,
    .maxFramebufferLayers = VKPPU_MAX_FRAMEBUFFER_LAYERS,
    /* 1 and 4 samples: 4x targets are SAMPLES_LOG2 2 of the ROP (images of
     * twice the width and height, docs/images.md), resolved by RESOLVE. */
    .framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .maxColorAttachments = VKPPU_MAX_COLOR_ATTACHMENTS,
    /* texelFetch of a sampler2DMS is TLD on a 4x view (samples_log2 2,
     * image_view.c); colour, integer, depth and stencil views alike. Storage
     * images have no multisampled access (shaderStorageImageMultisample). */
    .sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT,
    .storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT,
    .maxSampleMaskWords = 1,
    /* Every engine stamps PTIMER, which counts nanoseconds. */
    .timestampComputeAndGraphics = VK_TRUE,
    .timestampPeriod = 1.0f,
    /* The vertex header's 8 distances hold the clip and then the cull
     * distances (docs/graphics-hw.md, CULL_DISTANCE_MASK). */
    .maxClipDistances = 8,
    .maxCullDistances = 8,
    .maxCombinedClipAndCullDistances = 8,
    .discreteQueuePriorities = 2,
    /* largePoints, wideLines: points and wide lines are quadrilaterals of
     * any float size through setup (raster_point_line.c), well inside the
     * guard band at these sizes; the granularity is one subpixel step. */
    .pointSizeRange = {1.0f, PPU_GFX_MAX_POINT_SIZE},
    .lineWidthRange = {1.0f, 16.0f},
    .pointSizeGranularity = 1.0f / 256.0f,
    .lineWidthGranularity = 1.0f / 256.0f,
    .strictLines = VK_FALSE,
    .standardSampleLocations = VK_TRUE,
    .optimalBufferCopyOffsetAlignment = 64,
    .optimalBufferCopyRowPitchAlignment = 64,
    .nonCoherentAtomSize = 64,
};

void vkppu_physical_device_get_properties(const struct vkppu_physical_device *pd,
                                          VkPhysicalDeviceProperties *out)
{
   memset(out, 0, sizeof(*out));
   out->apiVersion = VKPPU_DEVICE_API_VERSION;
   out->driverVersion = VKPPU_DRIVER_VERSION;
   out->vendorID = VKPPU_VENDOR_ID;
   out->deviceID = VKPPU_DEVICE_ID;
   /* The model runs on the host's processors. */
   out->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
   snprintf(out->deviceName, sizeof(out->deviceName), "%s", pd->name);
   memcpy(out->pipelineCacheUUID, pd->pipeline_cache_uuid, VK_UUID_SIZE);
   out->limits = vkppu_limits;
   /* sparseProperties: all VK_FALSE, sparse resources are not supported. */
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties *pProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   vkppu_physical_device_get_properties(pd, pProperties);
}

/* The Vulkan 1.1/1.2/1.3 property blocks; the per-feature structs of the
 * chain copy their fields from these so the two views never disagree. */
static void vulkan11_properties(const struct vkppu_physical_device *pd,
                                VkPhysicalDeviceVulkan11Properties *p)
{
   memset(p, 0, sizeof(*p));
   memcpy(p->deviceUUID, pd->device_uuid, VK_UUID_SIZE);
   memcpy(p->driverUUID, pd->driver_uuid, VK_UUID_SIZE);
   p->deviceLUIDValid = VK_FALSE; /* LUIDs are a Windows (D3D12) notion */
   p->subgroupSize = VKPPU_SUBGROUP_SIZE;
   /* Compute is the only stage there is. Every operation category is
    * complete in the compiler (driver/compiler/translate_subgroup.c,
    * docs/compiler.md "Subgroups") for every type Vulkan 1.1 allows with
    * the features we report (32-bit types, bool, and double through
    * shaderFloat64), with inactive lanes and partial subgroups; each is
    * checked by compiler.subgroup and cross-checked against lavapipe by the
    * subgroup_* shaders of api.compute_crosscheck. */
   p->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
   p->subgroupSupportedOperations =
       VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
       VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
       VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
       VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
   p->subgroupQuadOperationsInAllStages = VK_FALSE;
   /* No rasterizer yet; this is the behaviour it will have (points are
    * clipped like the other primitives). */
   p->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
   p->maxMultiviewViewCount = VKPPU_MAX_MULTIVIEW_VIEW_COUNT;
   p->maxMultiviewInstanceIndex = VKPPU_MAX_MULTIVIEW_INSTANCE_INDEX;
   p->protectedNoFault = VK_FALSE;
   /* The spec's minimum: a set this large is always supported
    * (vkGetDescriptorSetLayoutSupport answers for larger ones). */
   /* vkGetDescriptorSetLayoutSupport's bound (descriptor_set_layout.c). */
   p->maxPerSetDescriptors = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxMemoryAllocationSize = VKPPU_MAX_ALLOCATION_SIZE;
}

static void vulkan12_properties(VkPhysicalDeviceVulkan12Properties *p)
{
   memset(p, 0, sizeof(*p));
   p->driverID = VKPPU_DRIVER_ID;
   snprintf(p->driverName, sizeof(p->driverName), "vkppu");
   snprintf(p->driverInfo, sizeof(p->driverInfo),
            "vkppu " VKPPU_DRIVER_VERSION_STRING " (PPU software model)");
   /* Not conformant: no conformance run has passed. */
   p->conformanceVersion = (VkConformanceVersion){0, 0, 0, 0};
   /* Float controls (VK_KHR_shader_float_controls): the compiler ignores
    * the execution modes, and the hardware's F32 and F64 arithmetic always
    * rounds to nearest even, keeps denormals and honours signed zeros,
    * infinities and NaNs (docs/isa.md, "Float"; the compiler folds no float
    * arithmetic). So exactly the modes that ask for that behaviour hold:
    * DenormPreserve, RoundingModeRTE and SignedZeroInfNanPreserve on 32 and
    * 64 bits (tests/api/test_spirv_1_4.c). Flush-to-zero
    * and RTZ would need instructions the ISA lacks; 16-bit floats are not
    * a reported feature. Each width's behaviour is fixed, so setting one
    * never constrains another: independence ALL. */
   p->denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
   p->roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
   p->shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
   p->shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
   p->shaderDenormPreserveFloat32 = VK_TRUE;
   p->shaderDenormPreserveFloat64 = VK_TRUE;
   p->shaderRoundingModeRTEFloat32 = VK_TRUE;
   p->shaderRoundingModeRTEFloat64 = VK_TRUE;
   /* samplerFilterMinmax: every format of the spec's single-component list
    * filters min/max (format_table.c), and the view's swizzle applies after
    * the component-wise reduction, so any component mapping works
    * (tests/api/test_sampler_filter_minmax.c checks both). */
   p->filterMinmaxSingleComponentFormats = VK_TRUE;
   p->filterMinmaxImageComponentMapping = VK_TRUE;
   /* Descriptor indexing (VK_EXT_descriptor_indexing): update-after-bind
    * sets are ordinary sets (icd/vkppu_descriptor.h), so their limits are
    * the per-set descriptor limit, except the dynamic buffers, whose
    * offsets live in the 32-slot table of constant bank 0. Non-uniform
    * indexing is native: every lane carries its own descriptor address. */
   p->maxUpdateAfterBindDescriptorsInAllPools = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->shaderUniformBufferArrayNonUniformIndexingNative = VK_TRUE;
   p->shaderSampledImageArrayNonUniformIndexingNative = VK_TRUE;
   p->shaderStorageBufferArrayNonUniformIndexingNative = VK_TRUE;
   p->shaderStorageImageArrayNonUniformIndexingNative = VK_TRUE;
   p->shaderInputAttachmentArrayNonUniformIndexingNative = VK_FALSE;
   p->robustBufferAccessUpdateAfterBind = VK_TRUE; /* bounds come from the descriptor at use */
   p->quadDivergentImplicitLod = VK_FALSE;
   p->maxPerStageDescriptorUpdateAfterBindSamplers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageDescriptorUpdateAfterBindUniformBuffers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageDescriptorUpdateAfterBindStorageBuffers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageDescriptorUpdateAfterBindSampledImages = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageDescriptorUpdateAfterBindStorageImages = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageDescriptorUpdateAfterBindInputAttachments = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxPerStageUpdateAfterBindResources = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindSamplers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindUniformBuffers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindUniformBuffersDynamic =
       vkppu_limits.maxDescriptorSetUniformBuffersDynamic;
   p->maxDescriptorSetUpdateAfterBindStorageBuffers = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindStorageBuffersDynamic =
       vkppu_limits.maxDescriptorSetStorageBuffersDynamic;
   p->maxDescriptorSetUpdateAfterBindSampledImages = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindStorageImages = VKPPU_MAX_PER_SET_DESCRIPTORS;
   p->maxDescriptorSetUpdateAfterBindInputAttachments = VKPPU_MAX_PER_SET_DESCRIPTORS;
   /* VK_KHR_depth_stencil_resolve: RESOLVE takes separate depth and
    * stencil modes, so any pair of them (one may be NONE) works. */
   p->supportedDepthResolveModes = VKPPU_DEPTH_RESOLVE_MODES;
   p->supportedStencilResolveModes = VKPPU_STENCIL_RESOLVE_MODES;
   p->independentResolveNone = VK_TRUE;
   p->independentResolve = VK_TRUE;
   /* Timeline values live in 64-bit semaphore memory the chip compares
    * directly, so any difference between pending values works. */
   p->maxTimelineSemaphoreValueDifference = UINT64_MAX;
   /* Integer 4x targets resolve by sample zero (RESOLVE mode 1). */
   p->framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
}

static void vulkan13_properties(VkPhysicalDeviceVulkan13Properties *p)
{
   memset(p, 0, sizeof(*p));
   p->minSubgroupSize = VKPPU_SUBGROUP_SIZE;
   p->maxSubgroupSize = VKPPU_SUBGROUP_SIZE;
   p->maxComputeWorkgroupSubgroups = VKPPU_MAX_COMPUTE_INVOCATIONS / VKPPU_SUBGROUP_SIZE;
   /* Subgroup operations run in compute only (subgroupSupportedStages), and
    * compute pipelines take a required size of 32 (compute_pipeline.c). */
   p->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
   /* Inline uniform blocks live in set memory (vkppu_descriptor.h); the
    * limits are the spec's minimums. Integer dot product: none
    * accelerated. */
   p->maxInlineUniformBlockSize = VKPPU_MAX_INLINE_UNIFORM_BLOCK_SIZE;
   p->maxPerStageDescriptorInlineUniformBlocks = VKPPU_MAX_INLINE_UNIFORM_BLOCKS;
   p->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = VKPPU_MAX_INLINE_UNIFORM_BLOCKS;
   p->maxDescriptorSetInlineUniformBlocks = VKPPU_MAX_INLINE_UNIFORM_BLOCKS;
   p->maxDescriptorSetUpdateAfterBindInlineUniformBlocks = VKPPU_MAX_INLINE_UNIFORM_BLOCKS;
   p->maxInlineUniformTotalSize = VKPPU_MAX_INLINE_UNIFORM_BLOCK_SIZE;
   p->storageTexelBufferOffsetAlignmentBytes = vkppu_limits.minTexelBufferOffsetAlignment;
   p->storageTexelBufferOffsetSingleTexelAlignment = VK_FALSE;
   p->uniformTexelBufferOffsetAlignmentBytes = vkppu_limits.minTexelBufferOffsetAlignment;
   p->uniformTexelBufferOffsetSingleTexelAlignment = VK_FALSE;
   p->maxBufferSize = VKPPU_MAX_ALLOCATION_SIZE;
}

/* The chained structs copied as one block below have the same field order
 * as their part of the VulkanXYProperties block; check that the spans line
 * up (same length from first to last field). */
#define SAME_SPAN(A, B, first, last)                                                               \
   _Static_assert(offsetof(A, last) - offsetof(A, first) ==                                        \
                      offsetof(B, last) - offsetof(B, first),                                      \
                  #B " lines up with " #A)
SAME_SPAN(VkPhysicalDeviceVulkan12Properties, VkPhysicalDeviceFloatControlsProperties,
          shaderSignedZeroInfNanPreserveFloat16, shaderRoundingModeRTZFloat64);
SAME_SPAN(VkPhysicalDeviceVulkan12Properties, VkPhysicalDeviceDescriptorIndexingProperties,
          maxUpdateAfterBindDescriptorsInAllPools, maxDescriptorSetUpdateAfterBindInputAttachments);
SAME_SPAN(VkPhysicalDeviceVulkan13Properties, VkPhysicalDeviceShaderIntegerDotProductProperties,
          integerDotProduct8BitUnsignedAccelerated,
          integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated);

/* Copies fields first..last (inclusive) between structs checked above. */
#define COPY_SPAN(dst, src, first, last)                                                           \
   memcpy(&(dst)->first, &(src)->first,                                                            \
          (size_t)((char *)&(dst)->last - (char *)&(dst)->first) + sizeof((dst)->last))

/* Copies a filled struct into the caller's, keeping the caller's sType and
 * pNext (the chain links). */
#define FILL_KEEPING_HEADER(dst, value)                                                            \
   do {                                                                                            \
      void *next_ = (dst)->pNext;                                                                  \
      VkStructureType type_ = (dst)->sType;                                                        \
      *(dst) = (value);                                                                            \
      (dst)->pNext = next_;                                                                        \
      (dst)->sType = type_;                                                                        \
   } while (0)

/* One properties struct of a Properties2 chain. Unknown sTypes are left
 * alone, as the spec says implementations do with structs they do not
 * support. */
static void fill_chained_properties(const struct vkppu_physical_device *pd, VkBaseOutStructure *s,
                                    const VkPhysicalDeviceVulkan11Properties *v11,
                                    const VkPhysicalDeviceVulkan12Properties *v12,
                                    const VkPhysicalDeviceVulkan13Properties *v13)
{
   (void)pd;
   switch (s->sType) {
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES:
      FILL_KEEPING_HEADER((VkPhysicalDeviceVulkan11Properties *)s, *v11);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES:
      FILL_KEEPING_HEADER((VkPhysicalDeviceVulkan12Properties *)s, *v12);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES:
      FILL_KEEPING_HEADER((VkPhysicalDeviceVulkan13Properties *)s, *v13);
      break;

   /* Vulkan 1.1 */
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
      VkPhysicalDeviceIDProperties *p = (void *)s;
      memcpy(p->deviceUUID, v11->deviceUUID, VK_UUID_SIZE);
      memcpy(p->driverUUID, v11->driverUUID, VK_UUID_SIZE);
      memcpy(p->deviceLUID, v11->deviceLUID, VK_LUID_SIZE);
      p->deviceNodeMask = v11->deviceNodeMask;
      p->deviceLUIDValid = v11->deviceLUIDValid;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
      VkPhysicalDeviceSubgroupProperties *p = (void *)s;
      p->subgroupSize = v11->subgroupSize;
      p->supportedStages = v11->subgroupSupportedStages;
      p->supportedOperations = v11->subgroupSupportedOperations;
      p->quadOperationsInAllStages = v11->subgroupQuadOperationsInAllStages;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
      ((VkPhysicalDevicePointClippingProperties *)s)->pointClippingBehavior =
          v11->pointClippingBehavior;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES: {
      VkPhysicalDeviceMultiviewProperties *p = (void *)s;
      p->maxMultiviewViewCount = v11->maxMultiviewViewCount;
      p->maxMultiviewInstanceIndex = v11->maxMultiviewInstanceIndex;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES:
      ((VkPhysicalDeviceProtectedMemoryProperties *)s)->protectedNoFault = v11->protectedNoFault;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES: {
      VkPhysicalDeviceMaintenance3Properties *p = (void *)s;
      p->maxPerSetDescriptors = v11->maxPerSetDescriptors;
      p->maxMemoryAllocationSize = v11->maxMemoryAllocationSize;
      break;
   }

   /* Vulkan 1.2 */
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES: {
      VkPhysicalDeviceDriverProperties *p = (void *)s;
      p->driverID = v12->driverID;
      memcpy(p->driverName, v12->driverName, sizeof(p->driverName));
      memcpy(p->driverInfo, v12->driverInfo, sizeof(p->driverInfo));
      p->conformanceVersion = v12->conformanceVersion;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES: {
      VkPhysicalDeviceFloatControlsProperties *p = (void *)s;
      p->denormBehaviorIndependence = v12->denormBehaviorIndependence;
      p->roundingModeIndependence = v12->roundingModeIndependence;
      COPY_SPAN(p, v12, shaderSignedZeroInfNanPreserveFloat16, shaderRoundingModeRTZFloat64);
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES: {
      VkPhysicalDeviceDescriptorIndexingProperties *p = (void *)s;
      COPY_SPAN(p, v12, maxUpdateAfterBindDescriptorsInAllPools,
                maxDescriptorSetUpdateAfterBindInputAttachments);
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES: {
      VkPhysicalDeviceDepthStencilResolveProperties *p = (void *)s;
      p->supportedDepthResolveModes = v12->supportedDepthResolveModes;
      p->supportedStencilResolveModes = v12->supportedStencilResolveModes;
      p->independentResolveNone = v12->independentResolveNone;
      p->independentResolve = v12->independentResolve;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES: {
      VkPhysicalDeviceSamplerFilterMinmaxProperties *p = (void *)s;
      p->filterMinmaxSingleComponentFormats = v12->filterMinmaxSingleComponentFormats;
      p->filterMinmaxImageComponentMapping = v12->filterMinmaxImageComponentMapping;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES:
      ((VkPhysicalDeviceTimelineSemaphoreProperties *)s)->maxTimelineSemaphoreValueDifference =
          v12->maxTimelineSemaphoreValueDifference;
      break;

   /* Vulkan 1.3 */
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES: {
      VkPhysicalDeviceSubgroupSizeControlProperties *p = (void *)s;
      p->minSubgroupSize = v13->minSubgroupSize;
      p->maxSubgroupSize = v13->maxSubgroupSize;
      p->maxComputeWorkgroupSubgroups = v13->maxComputeWorkgroupSubgroups;
      p->requiredSubgroupSizeStages = v13->requiredSubgroupSizeStages;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES: {
      VkPhysicalDeviceInlineUniformBlockProperties *p = (void *)s;
      p->maxInlineUniformBlockSize = v13->maxInlineUniformBlockSize;
      p->maxPerStageDescriptorInlineUniformBlocks = v13->maxPerStageDescriptorInlineUniformBlocks;
      p->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks =
          v13->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks;
      p->maxDescriptorSetInlineUniformBlocks = v13->maxDescriptorSetInlineUniformBlocks;
      p->maxDescriptorSetUpdateAfterBindInlineUniformBlocks =
          v13->maxDescriptorSetUpdateAfterBindInlineUniformBlocks;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES: {
      VkPhysicalDeviceShaderIntegerDotProductProperties *p = (void *)s;
      COPY_SPAN(p, v13, integerDotProduct8BitUnsignedAccelerated,
                integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated);
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES: {
      VkPhysicalDeviceTexelBufferAlignmentProperties *p = (void *)s;
      p->storageTexelBufferOffsetAlignmentBytes = v13->storageTexelBufferOffsetAlignmentBytes;
      p->storageTexelBufferOffsetSingleTexelAlignment =
          v13->storageTexelBufferOffsetSingleTexelAlignment;
      p->uniformTexelBufferOffsetAlignmentBytes = v13->uniformTexelBufferOffsetAlignmentBytes;
      p->uniformTexelBufferOffsetSingleTexelAlignment =
          v13->uniformTexelBufferOffsetSingleTexelAlignment;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES:
      ((VkPhysicalDeviceMaintenance4Properties *)s)->maxBufferSize = v13->maxBufferSize;
      break;

   /* Extensions not promoted to a core version */
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR:
      vkppu_acceleration_structure_properties(
          (VkPhysicalDeviceAccelerationStructurePropertiesKHR *)s);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR:
      vkppu_ray_tracing_pipeline_properties((VkPhysicalDeviceRayTracingPipelinePropertiesKHR *)s);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR:
      /* vkCmdCopyQueryPoolResults subtracts the snapshots in a
       * host-assisted job at its place in the queue (cmd_query_snapshot.c). */
      ((VkPhysicalDevicePerformanceQueryPropertiesKHR *)s)->allowCommandBufferQueryCopies = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT: {
      /* Bounds are checked per scalar against the descriptor's exact range
       * in bytes (translate_memory.c xl_bounds_check_p0): no rounding. */
      VkPhysicalDeviceRobustness2PropertiesEXT *p = (void *)s;
      p->robustStorageBufferAccessSizeAlignment = 1;
      p->robustUniformBufferAccessSizeAlignment = 1;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT: {
      /* Without robustBufferAccess the MMU faults an out-of-range access
       * (DISABLED); the texture unit is always robust, with alpha 1 for
       * formats without alpha (ROBUST_IMAGE_ACCESS_2). */
      VkPhysicalDevicePipelineRobustnessPropertiesEXT *p = (void *)s;
      p->defaultRobustnessStorageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT;
      p->defaultRobustnessUniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT;
      p->defaultRobustnessVertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT;
      p->defaultRobustnessImages = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT:
      /* A custom color lives in the sampler's own header: no table to fill. */
      ((VkPhysicalDeviceCustomBorderColorPropertiesEXT *)s)->maxCustomBorderColorSamplers = 4096;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT:
      /* The draws' records of one command share a 64 KiB upload chunk
       * (cmd_draw.c): 2,048 indexed records take 40 KiB. */
      ((VkPhysicalDeviceMultiDrawPropertiesEXT *)s)->maxMultiDrawCount = VKPPU_MAX_MULTI_DRAW_COUNT;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT:
      /* The divisor is an immediate of a 32-bit unsigned IDIV. */
      ((VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT *)s)->maxVertexAttribDivisor =
          UINT32_MAX;
      break;

   default:
      break;
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2 *pProperties)
{
   VKPPU_FROM_HANDLE(vkppu_physical_device, pd, physicalDevice);
   vkppu_physical_device_get_properties(pd, &pProperties->properties);

   VkPhysicalDeviceVulkan11Properties v11;
   VkPhysicalDeviceVulkan12Properties v12;
   VkPhysicalDeviceVulkan13Properties v13;
   vulkan11_properties(pd, &v11);
   vulkan12_properties(&v12);
   vulkan13_properties(&v13);
   for (VkBaseOutStructure *s = pProperties->pNext; s != NULL; s = s->pNext)
      fill_chained_properties(pd, s, &v11, &v12, &v13);
}
