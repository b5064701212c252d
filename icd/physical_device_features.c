/* vkGetPhysicalDeviceFeatures(2): what the device can do today
 * (docs/status.md, "Features").
 *
 * Of VkPhysicalDeviceFeatures, only what the compute path implements is
 * VK_TRUE. robustBufferAccess is required of every implementation (Feature
 * Requirements): with it enabled, compute pipelines are compiled with bounds
 * checks on every shader buffer access, and the copy engine's ranges are kept
 * in bounds by the API (an address the hardware cannot translate is an MMU
 * fault, never a host crash). The shader features are those the compiler
 * supports, each tested by tests/api/test_compute_features.c. The Vulkan
 * 1.1 and 1.2 features are decided once, in vulkan11_features and
 * vulkan12_features, and every promoted extension's struct copies them:
 * multiview (the one 1.1 requires), everything Vulkan 1.2 requires
 * ("Feature Requirements") and the 1.2 features the driver implements,
 * each with its case in tests/api/test_vulkan12.c. 16-bit and 8-bit
 * storage, variable pointers, protected memory, Y'CbCr conversion, shader
 * draw parameters, 64-bit atomics and float16/int8 are VK_FALSE: none is
 * implemented and tested through the API. The 1.3 features are decided in vulkan13_features, the
 * same way, each with its case in tests/api/test_vulkan13.c. The acceleration-structure and
 * ray-query features are VK_TRUE except capture/replay (set_supported_features). */
#include <stddef.h>
#include <string.h>

#include "vkppu_physical_device.h"

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                           VkPhysicalDeviceFeatures *pFeatures)
{
   (void)physicalDevice;
   memset(pFeatures, 0, sizeof(*pFeatures));
   pFeatures->robustBufferAccess = VK_TRUE;
   /* Shader features the compiler implements (docs/compiler.md, "What is
    * supported"), each checked through the loader with validation by
    * tests/api/test_compute_features.c: 64-bit integers and doubles in
    * registers and buffers, 16-bit integers in registers (16-bit storage is
    * a separate, unreported feature), and arrays of storage and uniform
    * buffers indexed by dynamically uniform values (the compiler loads the
    * descriptor of an arrayed binding on every access). */
   pFeatures->shaderInt64 = VK_TRUE;
   pFeatures->shaderFloat64 = VK_TRUE;
   pFeatures->shaderInt16 = VK_TRUE;
   pFeatures->shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
   pFeatures->shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
   /* Image features (docs/images.md), each with its case in
    * test_compute_features.c: texture instructions take per-lane header
    * addresses, so arrays of image descriptors index dynamically; SULD/SUST
    * convert through the view's format whether the shader declares one or
    * not; every uncompressed non-sRGB colour format is a storage format;
    * cube-array views and the BC1-7 decoders are in the texture unit. */
   pFeatures->shaderSampledImageArrayDynamicIndexing = VK_TRUE;
   pFeatures->shaderStorageImageArrayDynamicIndexing = VK_TRUE;
   pFeatures->shaderStorageImageReadWithoutFormat = VK_TRUE;
   pFeatures->shaderStorageImageWriteWithoutFormat = VK_TRUE;
   pFeatures->shaderStorageImageExtendedFormats = VK_TRUE;
   pFeatures->imageCubeArray = VK_TRUE;
   pFeatures->textureCompressionBC = VK_TRUE;
   /* The texture unit's anisotropic probes (docs/texture-unit.md). */
   pFeatures->samplerAnisotropy = VK_TRUE;
   /* Stores and atomics from vertex and fragment programs: the SMs run them
    * as from compute; a fragment program's helper lanes skip them
    * (translate_cfg.c, xl_fragment_writes_memory; api.graphics_features). */
   pFeatures->vertexPipelineStoresAndAtomics = VK_TRUE;
   pFeatures->fragmentStoresAndAtomics = VK_TRUE;
   /* Graphics features the graphics engine has and the driver passes
    * through (docs/graphics.md), each with its case in
    * tests/api/test_graphics_features.c: DRAW_INDIRECT loops over any
    * count and stride and takes firstInstance from the record; indices are
    * 32-bit end to end; DEPTH_CLAMP; a BLEND group per colour target. */
   pFeatures->multiDrawIndirect = VK_TRUE;
   pFeatures->drawIndirectFirstInstance = VK_TRUE;
   pFeatures->fullDrawIndexUint32 = VK_TRUE;
   pFeatures->depthClamp = VK_TRUE;
   pFeatures->independentBlend = VK_TRUE;
   /* ZROP counts every passing sample exactly (QUERY_BEGIN/END). */
   pFeatures->occlusionQueryPrecise = VK_TRUE;
   /* Pipeline statistics are differences of the chip's counters between
    * two COUNTER_SNAPSHOTs (query_pool_statistics.c;
    * tests/api/test_pipeline_statistics.c). */
   pFeatures->pipelineStatisticsQuery = VK_TRUE;
   /* Queries are channel state, and a secondary's stream runs inside the
    * primary's (vkCmdExecuteCommands appends its segments), so a query
    * active in the primary counts the secondary's work. */
   pFeatures->inheritedQueries = VK_TRUE;
   /* CROP's logic ops on encoded bits, and the second blend source from
    * Index 1 of location 0 (the compiler's DUAL_SOURCE). */
   pFeatures->logicOp = VK_TRUE;
   pFeatures->dualSrcBlend = VK_TRUE;
   /* SAMPLE_SHADING runs a 4x fragment program once per sample; the
    * compiler evaluates Sample inputs, SamplePosition and interpolateAt*
    * (api.graphics_msaa's sample shading cases). */
   pFeatures->sampleRateShading = VK_TRUE;
   /* Points of gl_PointSize and lines of LINE_WIDTH pixels
    * (pointSizeRange, lineWidthRange). */
   pFeatures->largePoints = VK_TRUE;
   pFeatures->wideLines = VK_TRUE;
   /* ZROP's depth bounds test on the stored depth. */
   pFeatures->depthBounds = VK_TRUE;
   /* Polygon modes LINE and POINT: the raster engine's edges and vertices
    * of each polygon, culled by its facing. */
   pFeatures->fillModeNonSolid = VK_TRUE;
   /* Setup clamps the depth bias by DEPTH_BIAS_CLAMP (either sign). */
   pFeatures->depthBiasClamp = VK_TRUE;
   /* ALPHA_TO_COVERAGE bit 1: CROP gets alpha 1, after alpha to coverage
    * took the shader's alpha (tests/api/test_graphics_msaa.c). */
   pFeatures->alphaToOne = VK_TRUE;
   /* The vertex header's 8 user distances: CLIP_DISTANCE_MASK clips
    * triangles and lines and drops points, CULL_DISTANCE_MASK discards
    * whole primitives; fragment programs read both as perspective-correct
    * inputs (tests/api/test_graphics_clip_distance.c). */
   pFeatures->shaderClipDistance = VK_TRUE;
   pFeatures->shaderCullDistance = VK_TRUE;
   /* 16 VIEWPORT and SCISSOR groups; the viewport index of a primitive's
    * provoking vertex picks one (tests/api/test_graphics_viewports.c). */
   pFeatures->multiViewport = VK_TRUE;
}

/* Every feature struct of Vulkan 1.1-1.3 (including the ones our extensions
 * bring, which were promoted with the same sType), and those of the
 * unpromoted extensions we list (acceleration structures, ray queries). Each is sType, pNext and
 * then only VkBool32 members, so "all false" is zeroing what follows pNext. */
#define VKPPU_FEATURE_STRUCTS(X)                                                                   \
   X(VULKAN_1_1_FEATURES, VkPhysicalDeviceVulkan11Features)                                        \
   X(VULKAN_1_2_FEATURES, VkPhysicalDeviceVulkan12Features)                                        \
   X(VULKAN_1_3_FEATURES, VkPhysicalDeviceVulkan13Features)                                        \
   X(16BIT_STORAGE_FEATURES, VkPhysicalDevice16BitStorageFeatures)                                 \
   X(MULTIVIEW_FEATURES, VkPhysicalDeviceMultiviewFeatures)                                        \
   X(VARIABLE_POINTERS_FEATURES, VkPhysicalDeviceVariablePointersFeatures)                         \
   X(PROTECTED_MEMORY_FEATURES, VkPhysicalDeviceProtectedMemoryFeatures)                           \
   X(SAMPLER_YCBCR_CONVERSION_FEATURES, VkPhysicalDeviceSamplerYcbcrConversionFeatures)            \
   X(SHADER_DRAW_PARAMETERS_FEATURES, VkPhysicalDeviceShaderDrawParametersFeatures)                \
   X(8BIT_STORAGE_FEATURES, VkPhysicalDevice8BitStorageFeatures)                                   \
   X(SHADER_ATOMIC_INT64_FEATURES, VkPhysicalDeviceShaderAtomicInt64Features)                      \
   X(SHADER_FLOAT16_INT8_FEATURES, VkPhysicalDeviceShaderFloat16Int8Features)                      \
   X(DESCRIPTOR_INDEXING_FEATURES, VkPhysicalDeviceDescriptorIndexingFeatures)                     \
   X(SCALAR_BLOCK_LAYOUT_FEATURES, VkPhysicalDeviceScalarBlockLayoutFeatures)                      \
   X(VULKAN_MEMORY_MODEL_FEATURES, VkPhysicalDeviceVulkanMemoryModelFeatures)                      \
   X(IMAGELESS_FRAMEBUFFER_FEATURES, VkPhysicalDeviceImagelessFramebufferFeatures)                 \
   X(UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES, VkPhysicalDeviceUniformBufferStandardLayoutFeatures) \
   X(SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES, VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures) \
   X(SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES, VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures) \
   X(HOST_QUERY_RESET_FEATURES, VkPhysicalDeviceHostQueryResetFeatures)                            \
   X(TIMELINE_SEMAPHORE_FEATURES, VkPhysicalDeviceTimelineSemaphoreFeatures)                       \
   X(BUFFER_DEVICE_ADDRESS_FEATURES, VkPhysicalDeviceBufferDeviceAddressFeatures)                  \
   X(SHADER_TERMINATE_INVOCATION_FEATURES, VkPhysicalDeviceShaderTerminateInvocationFeatures)      \
   X(SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,                                                  \
     VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures)                                       \
   X(PRIVATE_DATA_FEATURES, VkPhysicalDevicePrivateDataFeatures)                                   \
   X(PIPELINE_CREATION_CACHE_CONTROL_FEATURES,                                                     \
     VkPhysicalDevicePipelineCreationCacheControlFeatures)                                         \
   X(SYNCHRONIZATION_2_FEATURES, VkPhysicalDeviceSynchronization2Features)                         \
   X(ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,                                                    \
     VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures)                                        \
   X(IMAGE_ROBUSTNESS_FEATURES, VkPhysicalDeviceImageRobustnessFeatures)                           \
   X(SUBGROUP_SIZE_CONTROL_FEATURES, VkPhysicalDeviceSubgroupSizeControlFeatures)                  \
   X(INLINE_UNIFORM_BLOCK_FEATURES, VkPhysicalDeviceInlineUniformBlockFeatures)                    \
   X(TEXTURE_COMPRESSION_ASTC_HDR_FEATURES, VkPhysicalDeviceTextureCompressionASTCHDRFeatures)     \
   X(DYNAMIC_RENDERING_FEATURES, VkPhysicalDeviceDynamicRenderingFeatures)                         \
   X(SHADER_INTEGER_DOT_PRODUCT_FEATURES, VkPhysicalDeviceShaderIntegerDotProductFeatures)         \
   X(MAINTENANCE_4_FEATURES, VkPhysicalDeviceMaintenance4Features)                                 \
   X(ACCELERATION_STRUCTURE_FEATURES_KHR, VkPhysicalDeviceAccelerationStructureFeaturesKHR)        \
   X(RAY_QUERY_FEATURES_KHR, VkPhysicalDeviceRayQueryFeaturesKHR)                                  \
   X(RAY_TRACING_PIPELINE_FEATURES_KHR, VkPhysicalDeviceRayTracingPipelineFeaturesKHR)             \
   X(RAY_TRACING_MAINTENANCE_1_FEATURES_KHR, VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR)    \
   X(IMAGE_2D_VIEW_OF_3D_FEATURES_EXT, VkPhysicalDeviceImage2DViewOf3DFeaturesEXT)                 \
   X(PERFORMANCE_QUERY_FEATURES_KHR, VkPhysicalDevicePerformanceQueryFeaturesKHR)                  \
   X(VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT, VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT)     \
   X(EXTENDED_DYNAMIC_STATE_FEATURES_EXT, VkPhysicalDeviceExtendedDynamicStateFeaturesEXT)         \
   X(EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT, VkPhysicalDeviceExtendedDynamicState2FeaturesEXT)      \
   X(MEMORY_PRIORITY_FEATURES_EXT, VkPhysicalDeviceMemoryPriorityFeaturesEXT)                      \
   X(ROBUSTNESS_2_FEATURES_EXT, VkPhysicalDeviceRobustness2FeaturesEXT)                            \
   X(PIPELINE_ROBUSTNESS_FEATURES_EXT, VkPhysicalDevicePipelineRobustnessFeaturesEXT)              \
   X(MULTI_DRAW_FEATURES_EXT, VkPhysicalDeviceMultiDrawFeaturesEXT)                                \
   X(VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT, VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT)  \
   X(CUSTOM_BORDER_COLOR_FEATURES_EXT, VkPhysicalDeviceCustomBorderColorFeaturesEXT)               \
   X(BORDER_COLOR_SWIZZLE_FEATURES_EXT, VkPhysicalDeviceBorderColorSwizzleFeaturesEXT)             \
   X(DEPTH_CLIP_ENABLE_FEATURES_EXT, VkPhysicalDeviceDepthClipEnableFeaturesEXT)                   \
   X(PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT,                                                    \
     VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT)

/* Size of the feature struct with this sType, 0 if it is not one we know. */
static size_t feature_struct_size(VkStructureType type)
{
   switch (type) {
#define VKPPU_FEATURE_SIZE_CASE(suffix, T)                                                         \
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_##suffix:                                                \
      return sizeof(T);
      VKPPU_FEATURE_STRUCTS(VKPPU_FEATURE_SIZE_CASE)
#undef VKPPU_FEATURE_SIZE_CASE
   default:
      return 0;
   }
}

/* The Vulkan 1.1 and 1.2 feature blocks are the one source of truth: the
 * per-extension structs of the chain copy their members from these, so the
 * two views of a feature can never disagree (tests/api/test_vulkan12.c
 * compares them). */
static void vulkan11_features(VkPhysicalDeviceVulkan11Features *f)
{
   memset((char *)f + sizeof(VkBaseOutStructure), 0, sizeof(*f) - sizeof(VkBaseOutStructure));
   /* Multiview in render passes (render_pass.c); not with geometry or
    * tessellation shaders, which the device does not have. */
   f->multiview = VK_TRUE;
   /* BaseVertex, BaseInstance and DrawIndex are registers of every vertex
    * warp (translate_vertex.c; api.draw_parameters). */
   f->shaderDrawParameters = VK_TRUE;
}

static void vulkan12_features(VkPhysicalDeviceVulkan12Features *f)
{
   memset((char *)f + sizeof(VkBaseOutStructure), 0, sizeof(*f) - sizeof(VkBaseOutStructure));
   /* The texture unit's address mode 4 (hw/src/texture/tex_address.c). */
   f->samplerMirrorClampToEdge = VK_TRUE;
   /* gl_ViewportIndex and gl_Layer from the vertex stage: the vertex
    * header's viewport and layer words, which pick VIEWPORT/SCISSOR(i) and
    * the targets' layer (LAYER_COUNT; tests/api/test_graphics_viewports.c). */
   f->shaderOutputViewportIndex = VK_TRUE;
   f->shaderOutputLayer = VK_TRUE;
   /* The texture unit's min/max reduction of each level's texels with
    * non-zero weight (hw/src/texture/tex_filter.c), on the formats
    * format_table.c marks FILTER_MINMAX (tests/api/test_sampler_filter_minmax.c). */
   f->samplerFilterMinmax = VK_TRUE;
   /* The front end reads the count when the draw executes (cmd_draw.c). */
   f->drawIndirectCount = VK_TRUE;
   /* VK_EXT_descriptor_indexing (tests/api/test_descriptor_indexing.c).
    * Descriptors are written straight into the memory the GPU reads when
    * it executes and unwritten ones are zeros, so every binding may be
    * updated after bind, while pending (unused elements) and be partially
    * bound; the texture instructions and buffer accesses take per-lane
    * descriptor addresses, so non-uniform indexing needs nothing more.
    * Arrays of input attachments are not indexed dynamically: subpassLoad
    * reads one attachment the compiler knows. */
   f->descriptorIndexing = VK_TRUE;
   f->shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
   f->shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
   f->shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
   f->shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
   f->shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
   f->shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
   f->shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
   f->shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
   f->descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
   f->descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
   f->descriptorBindingStorageImageUpdateAfterBind = VK_TRUE;
   f->descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
   f->descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
   f->descriptorBindingStorageTexelBufferUpdateAfterBind = VK_TRUE;
   f->descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
   f->descriptorBindingPartiallyBound = VK_TRUE;
   f->descriptorBindingVariableDescriptorCount = VK_TRUE;
   f->runtimeDescriptorArray = VK_TRUE;
   /* Buffer layouts: the compiler accesses buffers a component at a time
    * at the Offset and stride decorations, whatever rule produced them, in
    * uniform and storage buffers alike (std430 uniform blocks, scalar
    * layout). */
   f->scalarBlockLayout = VK_TRUE;
   f->uniformBufferStandardLayout = VK_TRUE;
   /* Framebuffers whose views come with vkCmdBeginRenderPass
    * (framebuffer.c, cmd_render_pass.c). */
   f->imagelessFramebuffer = VK_TRUE;
   /* Subgroup operations on 16- and 64-bit integers
    * (driver/compiler/translate_subgroup.c); 8-bit integers and 16-bit
    * floats are not shader features of this device. */
   f->shaderSubgroupExtendedTypes = VK_TRUE;
   /* Layouts are not tracked (docs/images.md), so the depth-only and
    * stencil-only layouts hold wherever the combined ones do. */
   f->separateDepthStencilLayouts = VK_TRUE;
   f->hostQueryReset = VK_TRUE;
   f->timelineSemaphore = VK_TRUE;
   /* Addresses are fixed per allocation but not replayable across runs,
    * and there is one device: captureReplay and multiDevice stay false. */
   f->bufferDeviceAddress = VK_TRUE;
   /* The SPIR-V front end takes the Vulkan memory model and its operands,
    * and the model issues each warp's memory instructions in order to one
    * memory every SM sees, so availability and visibility at workgroup and
    * device scope hold with the MEMBARs barriers already emit
    * (driver/compiler/translate_memory.c, translate_atomic.c). Chains are
    * not claimed: nothing tests them. */
   f->vulkanMemoryModel = VK_TRUE;
   f->vulkanMemoryModelDeviceScope = VK_TRUE;
   /* SHFL takes a per-lane source lane, so the lane need not be constant
    * (SPIR-V 1.5 OpGroupNonUniformBroadcast). */
   f->subgroupBroadcastDynamicId = VK_TRUE;
}

/* Vulkan 1.3: everything 1.3 requires ("Feature Requirements") that the
 * device implements, each used by a case of tests/api/test_vulkan13.c. */
static void vulkan13_features(VkPhysicalDeviceVulkan13Features *f)
{
   memset((char *)f + sizeof(VkBaseOutStructure), 0, sizeof(*f) - sizeof(VkBaseOutStructure));
   /* Object names and data kept per device (private_data.c). */
   f->privateData = VK_TRUE;
   /* Barriers and submissions of VK_KHR_synchronization2 (cmd_sync.c). */
   f->synchronization2 = VK_TRUE;
   /* Render pass instances without render passes (cmd_rendering.c). */
   f->dynamicRendering = VK_TRUE;
   /* OpDemoteToHelperInvocation clears the lane's coverage and lets it run
    * on for its quad's derivatives; OpIsHelperInvocationEXT reads that
    * coverage (driver/compiler/translate_fragment.c). */
   f->shaderDemoteToHelperInvocation = VK_TRUE;
   /* OpTerminateInvocation ends the lane like OpKill (translate_cfg.c). */
   f->shaderTerminateInvocation = VK_TRUE;
   /* The SM zeroes a workgroup's shared memory at launch, so Workgroup
    * variables with OpConstantNull initializers need no code
    * (translate_memory.c; docs/compute.md). */
   f->shaderZeroInitializeWorkgroupMemory = VK_TRUE;
   /* The subgroup is a warp, always 32 lanes; compute pipelines accept a
    * required size of 32 and full subgroups when the x size is a multiple
    * of 32 (compute_pipeline.c). */
   f->subgroupSizeControl = VK_TRUE;
   f->computeFullSubgroups = VK_TRUE;
   /* FAIL_ON_PIPELINE_COMPILE_REQUIRED and EARLY_RETURN_ON_FAILURE in the
    * three vkCreate*Pipelines (pipeline_creation.c). */
   f->pipelineCreationCacheControl = VK_TRUE;
   /* vkGetDevice*MemoryRequirements run the layout vkCreate* would
    * (buffer.c, image_memory.c), so they agree with the objects; sizes grow
    * with extents; LocalSizeId is read by the front end; no object keeps
    * its pipeline layout; a fragment input reads the components of its
    * location it declares, so a wider output matches. */
   f->maintenance4 = VK_TRUE;
   /* The texture unit reads 0 for a texel outside the view (extent, level,
    * layer, sample) and the SU instructions drop stores and atomics there,
    * always (docs/texture-unit.md). */
   f->robustImageAccess = VK_TRUE;
   /* An inline block is a uniform-buffer descriptor naming data in the set
    * itself (vkppu_descriptor.h): shaders read it as any uniform block,
    * and updates write set memory the GPU reads when it executes, so they
    * may come after bind like every other descriptor. */
   f->inlineUniformBlock = VK_TRUE;
   f->descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
   /* OpSDot..OpSUDotAccSat on packed 4x8-bit words and on vectors of 16-,
    * 32- and 64-bit integers, computed exactly with 64-bit arithmetic
    * (translate_alu.c); none is accelerated (physical_device_properties.c). */
   f->shaderIntegerDotProduct = VK_TRUE;
}

/* Copies members first..last (inclusive) between a Vulkan12Features block
 * and a promoted struct whose members lie in the same order. */
#define COPY_FEATURE_SPAN(dst, src, first, last)                                                   \
   memcpy(&(dst)->first, &(src)->first,                                                            \
          (size_t)((char *)&(dst)->last - (char *)&(dst)->first) + sizeof((dst)->last))
#define SAME_FEATURE_SPAN(B, first, last)                                                          \
   _Static_assert(offsetof(VkPhysicalDeviceVulkan12Features, last) -                               \
                          offsetof(VkPhysicalDeviceVulkan12Features, first) ==                     \
                      offsetof(B, last) - offsetof(B, first),                                      \
                  #B " lines up with VkPhysicalDeviceVulkan12Features")
SAME_FEATURE_SPAN(VkPhysicalDeviceDescriptorIndexingFeatures,
                  shaderInputAttachmentArrayDynamicIndexing, runtimeDescriptorArray);
SAME_FEATURE_SPAN(VkPhysicalDevice8BitStorageFeatures, storageBuffer8BitAccess,
                  storagePushConstant8);
SAME_FEATURE_SPAN(VkPhysicalDeviceShaderAtomicInt64Features, shaderBufferInt64Atomics,
                  shaderSharedInt64Atomics);
SAME_FEATURE_SPAN(VkPhysicalDeviceShaderFloat16Int8Features, shaderFloat16, shaderInt8);
SAME_FEATURE_SPAN(VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddress,
                  bufferDeviceAddressMultiDevice);
SAME_FEATURE_SPAN(VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModel,
                  vulkanMemoryModelAvailabilityVisibilityChains);

/* The Vulkan 1.1 span of VkPhysicalDevice16BitStorageFeatures and the
 * multiview struct, checked like the 1.2 ones. */
_Static_assert(offsetof(VkPhysicalDeviceVulkan11Features, storageInputOutput16) -
                       offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess) ==
                   offsetof(VkPhysicalDevice16BitStorageFeatures, storageInputOutput16) -
                       offsetof(VkPhysicalDevice16BitStorageFeatures, storageBuffer16BitAccess),
               "16-bit storage features line up in VkPhysicalDeviceVulkan11Features");

/* Sets the members of one chained struct from the version blocks. */
static void set_supported_features(VkBaseOutStructure *s)
{
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan13Features v13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   vulkan11_features(&v11);
   vulkan12_features(&v12);
   vulkan13_features(&v13);
   switch (s->sType) {
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceVulkan11Features *)s, &v11, storageBuffer16BitAccess,
                        shaderDrawParameters);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDevice16BitStorageFeatures *)s, &v11, storageBuffer16BitAccess,
                        storageInputOutput16);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES: {
      VkPhysicalDeviceMultiviewFeatures *f = (void *)s;
      f->multiview = v11.multiview;
      f->multiviewGeometryShader = v11.multiviewGeometryShader;
      f->multiviewTessellationShader = v11.multiviewTessellationShader;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES: {
      VkPhysicalDeviceVariablePointersFeatures *f = (void *)s;
      f->variablePointersStorageBuffer = v11.variablePointersStorageBuffer;
      f->variablePointers = v11.variablePointers;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
      ((VkPhysicalDeviceProtectedMemoryFeatures *)s)->protectedMemory = v11.protectedMemory;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
      ((VkPhysicalDeviceSamplerYcbcrConversionFeatures *)s)->samplerYcbcrConversion =
          v11.samplerYcbcrConversion;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
      ((VkPhysicalDeviceShaderDrawParametersFeatures *)s)->shaderDrawParameters =
          v11.shaderDrawParameters;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceVulkan12Features *)s, &v12, samplerMirrorClampToEdge,
                        subgroupBroadcastDynamicId);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDevice8BitStorageFeatures *)s, &v12, storageBuffer8BitAccess,
                        storagePushConstant8);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceShaderAtomicInt64Features *)s, &v12,
                        shaderBufferInt64Atomics, shaderSharedInt64Atomics);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceShaderFloat16Int8Features *)s, &v12, shaderFloat16,
                        shaderInt8);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceDescriptorIndexingFeatures *)s, &v12,
                        shaderInputAttachmentArrayDynamicIndexing, runtimeDescriptorArray);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
      ((VkPhysicalDeviceScalarBlockLayoutFeatures *)s)->scalarBlockLayout = v12.scalarBlockLayout;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
      ((VkPhysicalDeviceImagelessFramebufferFeatures *)s)->imagelessFramebuffer =
          v12.imagelessFramebuffer;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
      ((VkPhysicalDeviceUniformBufferStandardLayoutFeatures *)s)->uniformBufferStandardLayout =
          v12.uniformBufferStandardLayout;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
      ((VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures *)s)->shaderSubgroupExtendedTypes =
          v12.shaderSubgroupExtendedTypes;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
      ((VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures *)s)->separateDepthStencilLayouts =
          v12.separateDepthStencilLayouts;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
      ((VkPhysicalDeviceHostQueryResetFeatures *)s)->hostQueryReset = v12.hostQueryReset;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
      ((VkPhysicalDeviceTimelineSemaphoreFeatures *)s)->timelineSemaphore = v12.timelineSemaphore;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceBufferDeviceAddressFeatures *)s, &v12, bufferDeviceAddress,
                        bufferDeviceAddressMultiDevice);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceVulkanMemoryModelFeatures *)s, &v12, vulkanMemoryModel,
                        vulkanMemoryModelAvailabilityVisibilityChains);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
      COPY_FEATURE_SPAN((VkPhysicalDeviceVulkan13Features *)s, &v13, robustImageAccess,
                        maintenance4);
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES:
      ((VkPhysicalDeviceImageRobustnessFeatures *)s)->robustImageAccess = v13.robustImageAccess;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES: {
      VkPhysicalDeviceInlineUniformBlockFeatures *f = (void *)s;
      f->inlineUniformBlock = v13.inlineUniformBlock;
      f->descriptorBindingInlineUniformBlockUpdateAfterBind =
          v13.descriptorBindingInlineUniformBlockUpdateAfterBind;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
      ((VkPhysicalDevicePipelineCreationCacheControlFeatures *)s)->pipelineCreationCacheControl =
          v13.pipelineCreationCacheControl;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
      ((VkPhysicalDevicePrivateDataFeatures *)s)->privateData = v13.privateData;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES:
      ((VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures *)s)
          ->shaderDemoteToHelperInvocation = v13.shaderDemoteToHelperInvocation;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES:
      ((VkPhysicalDeviceShaderTerminateInvocationFeatures *)s)->shaderTerminateInvocation =
          v13.shaderTerminateInvocation;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
      VkPhysicalDeviceSubgroupSizeControlFeatures *f = (void *)s;
      f->subgroupSizeControl = v13.subgroupSizeControl;
      f->computeFullSubgroups = v13.computeFullSubgroups;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
      ((VkPhysicalDeviceSynchronization2Features *)s)->synchronization2 = v13.synchronization2;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES:
      ((VkPhysicalDeviceTextureCompressionASTCHDRFeatures *)s)->textureCompressionASTC_HDR =
          v13.textureCompressionASTC_HDR;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES:
      ((VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures *)s)
          ->shaderZeroInitializeWorkgroupMemory = v13.shaderZeroInitializeWorkgroupMemory;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
      ((VkPhysicalDeviceDynamicRenderingFeatures *)s)->dynamicRendering = v13.dynamicRendering;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES:
      ((VkPhysicalDeviceShaderIntegerDotProductFeatures *)s)->shaderIntegerDotProduct =
          v13.shaderIntegerDotProduct;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
      ((VkPhysicalDeviceMaintenance4Features *)s)->maintenance4 = v13.maintenance4;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR: {
      /* docs/acceleration-structures.md; tests/api/test_ray_query.c. Host
       * commands run the same operations as the device's host-assisted
       * jobs; indirect builds read their ranges when the job runs. An
       * acceleration-structure descriptor is written straight into the
       * memory the GPU reads, like every other type, so it may be updated
       * after bind (descriptor indexing requires this one). Capture/replay
       * is not supported: structure addresses are the buffers', which are
       * not replayable (bufferDeviceAddressCaptureReplay is VK_FALSE). */
      VkPhysicalDeviceAccelerationStructureFeaturesKHR *f = (void *)s;
      f->accelerationStructure = VK_TRUE;
      f->accelerationStructureHostCommands = VK_TRUE;
      f->accelerationStructureIndirectBuild = VK_TRUE;
      f->descriptorBindingAccelerationStructureUpdateAfterBind = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR:
      /* Every SPV_KHR_ray_query instruction, on the TTU (docs/ray-query.md). */
      ((VkPhysicalDeviceRayQueryFeaturesKHR *)s)->rayQuery = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR: {
      /* docs/ray-tracing-pipeline.md; tests/api/test_ray_tracing_pipeline*.c.
       * Primitive culling is the TTU's SKIP_TRIANGLES / SKIP_AABBS;
       * indirect traces read their launch size in a host-assisted job
       * (cmd_trace_rays.c). Handles are group indices, the same on every
       * run, so they replay; not Mixed: a replayed handle cannot move to
       * another group index. */
      VkPhysicalDeviceRayTracingPipelineFeaturesKHR *f = (void *)s;
      f->rayTracingPipeline = VK_TRUE;
      f->rayTracingPipelineShaderGroupHandleCaptureReplay = VK_TRUE;
      f->rayTracingPipelineTraceRaysIndirect = VK_TRUE;
      f->rayTraversalPrimitiveCulling = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR: {
      /* CullMaskKHR, the size / BLAS-pointer queries and the sync2 bits;
       * indirect2 reads its SBT regions with the launch size in the
       * host-assisted job of indirect traces (cmd_trace_rays.c). */
      VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR *f = (void *)s;
      f->rayTracingMaintenance1 = VK_TRUE;
      f->rayTracingPipelineTraceRaysIndirect2 = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT:
      /* Priorities are hints (VK_EXT_memory_priority, "implementations may
       * use it"): VRAM is never oversubscribed or paged, so vkAllocateMemory
       * and vkSetDeviceMemoryPriorityEXT take them and nothing changes. */
      ((VkPhysicalDeviceMemoryPriorityFeaturesEXT *)(void *)s)->memoryPriority = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT: {
      /* docs/robustness.md. robustBufferAccess2: every uniform and storage
       * buffer access is checked against its descriptor's exact range,
       * each vertex attribute against its binding's bound size
       * (driver/shader_abi.h enum drv_robustness); texel buffers and
       * images (robustImageAccess2): the texture unit reads an
       * out-of-range texel as a zero texel of the view's format, so alpha
       * is 1 where the format has none, and drops stores there. No null
       * descriptors yet: a null image or acceleration-structure descriptor
       * would need a header the texture unit and the TTU read as empty. */
      VkPhysicalDeviceRobustness2FeaturesEXT *f = (void *)s;
      f->robustBufferAccess2 = VK_TRUE;
      f->robustImageAccess2 = VK_TRUE;
      f->nullDescriptor = VK_FALSE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT:
      /* Per pipeline and per stage buffer robustness (pipeline_robustness.c). */
      ((VkPhysicalDevicePipelineRobustnessFeaturesEXT *)(void *)s)->pipelineRobustness = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT:
      ((VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT *)(void *)s)
          ->pageableDeviceLocalMemory = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT: {
      /* A 2D view of one 3D slice is a header of its own (image_view.c),
       * read by storage and sampled instructions alike
       * (api.image_compatibility). */
      VkPhysicalDeviceImage2DViewOf3DFeaturesEXT *f = (void *)s;
      f->image2DViewOf3D = VK_TRUE;
      f->sampler2DViewOf3D = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR: {
      /* Each pool's queries are snapshots in its own memory, so any number
       * of pools may be used in one command buffer and its secondaries
       * (api.performance_query). */
      VkPhysicalDevicePerformanceQueryFeaturesKHR *f = (void *)s;
      f->performanceCounterQueryPools = VK_TRUE;
      f->performanceCounterMultipleQueryPools = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT: {
      /* The compiler's vertex fetch computes the instance's record as
       * (InstanceIndex - firstInstance) / divisor + firstInstance, and
       * firstInstance alone for divisor 0 (api.graphics_features). */
      VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT *f = (void *)s;
      f->vertexAttributeInstanceRateDivisor = VK_TRUE;
      f->vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT:
      /* A pipeline's programs compiled for each vertex input state draws
       * use (graphics_pipeline_variants.c; api.graphics_dynamic_state). */
      ((VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT *)s)->vertexInputDynamicState = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT: {
      /* The sampler header's border words take any color; the format is
       * not needed (sampler.c; api.image_sampling). */
      VkPhysicalDeviceCustomBorderColorFeaturesEXT *f = (void *)s;
      f->customBorderColors = VK_TRUE;
      f->customBorderColorWithoutFormat = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT: {
      /* The texture unit swizzles border texels as it swizzles texels
       * (tex_filter.c; api.image_sampling). */
      VkPhysicalDeviceBorderColorSwizzleFeaturesEXT *f = (void *)s;
      f->borderColorSwizzle = VK_TRUE;
      f->borderColorSwizzleFromImage = VK_TRUE;
      break;
   }
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT:
      /* The clipper's near/far planes apart from the depth clamp
       * (DEPTH_CLAMP_CLIP / _NO_CLIP; api.graphics_features). */
      ((VkPhysicalDeviceDepthClipEnableFeaturesEXT *)s)->depthClipEnable = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT:
      /* vkCmdDrawMulti*EXT: one DRAW_INDIRECT over the draws' records
       * (cmd_draw.c; api.graphics_features). */
      ((VkPhysicalDeviceMultiDrawFeaturesEXT *)s)->multiDraw = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT:
      /* Draws write every state group (cmd_draw.c; api.graphics_dynamic_state). */
      ((VkPhysicalDeviceExtendedDynamicStateFeaturesEXT *)s)->extendedDynamicState = VK_TRUE;
      break;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT: {
      /* Not the patch control points: there is no tessellation. */
      VkPhysicalDeviceExtendedDynamicState2FeaturesEXT *f = (void *)s;
      f->extendedDynamicState2 = VK_TRUE;
      f->extendedDynamicState2LogicOp = VK_TRUE;
      break;
   }
   default:
      break;
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                            VkPhysicalDeviceFeatures2 *pFeatures)
{
   vkppu_GetPhysicalDeviceFeatures(physicalDevice, &pFeatures->features);
   for (VkBaseOutStructure *s = pFeatures->pNext; s != NULL; s = s->pNext) {
      size_t size = feature_struct_size(s->sType);
      /* Unknown structs are left as they are (spec: ignored). */
      if (size == 0)
         continue;
      memset((char *)s + sizeof(VkBaseOutStructure), 0, size - sizeof(VkBaseOutStructure));
      set_supported_features(s);
   }
}
