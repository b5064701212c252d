/* The subset of SPIR-V that the PPU compiler takes. A module declaring a
 * capability or extension outside these lists is rejected up front with its
 * name, rather than failing somewhere deep in the compiler (Vulkan spec,
 * appendix "Capabilities": a driver must only accept what it advertises). */
#include <string.h>

#include "spirv_grammar_tables.h"
#include "spirv_support.h"

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t supported_capabilities[] = {
    SPIRV_CAPABILITY_Matrix,
    SPIRV_CAPABILITY_Shader,
    SPIRV_CAPABILITY_Float16,
    SPIRV_CAPABILITY_Float64,
    SPIRV_CAPABILITY_Int64,
    SPIRV_CAPABILITY_Int64Atomics,
    SPIRV_CAPABILITY_Int16,
    SPIRV_CAPABILITY_Int8,
    SPIRV_CAPABILITY_ImageQuery,
    SPIRV_CAPABILITY_ImageBuffer,
    SPIRV_CAPABILITY_SampledBuffer,
    SPIRV_CAPABILITY_Sampled1D,
    SPIRV_CAPABILITY_Image1D,
    SPIRV_CAPABILITY_StorageImageExtendedFormats,
    SPIRV_CAPABILITY_SampledCubeArray,
    SPIRV_CAPABILITY_ImageCubeArray,
    SPIRV_CAPABILITY_ImageGatherExtended,
    SPIRV_CAPABILITY_ComputeDerivativeGroupQuadsNV,
    SPIRV_CAPABILITY_ComputeDerivativeGroupLinearNV,
    SPIRV_CAPABILITY_StorageImageReadWithoutFormat,
    SPIRV_CAPABILITY_StorageImageWriteWithoutFormat,
    SPIRV_CAPABILITY_StorageImageArrayDynamicIndexing,
    SPIRV_CAPABILITY_StorageBufferArrayDynamicIndexing,
    SPIRV_CAPABILITY_UniformBufferArrayDynamicIndexing,
    SPIRV_CAPABILITY_SampledImageArrayDynamicIndexing,
    SPIRV_CAPABILITY_GroupNonUniform,
    SPIRV_CAPABILITY_GroupNonUniformVote,
    SPIRV_CAPABILITY_GroupNonUniformArithmetic,
    SPIRV_CAPABILITY_GroupNonUniformBallot,
    SPIRV_CAPABILITY_GroupNonUniformShuffle,
    SPIRV_CAPABILITY_GroupNonUniformShuffleRelative,
    SPIRV_CAPABILITY_GroupNonUniformClustered,
    SPIRV_CAPABILITY_GroupNonUniformQuad,
    SPIRV_CAPABILITY_StorageBuffer16BitAccess,
    SPIRV_CAPABILITY_UniformAndStorageBuffer16BitAccess,
    SPIRV_CAPABILITY_StoragePushConstant16,
    SPIRV_CAPABILITY_StorageBuffer8BitAccess,
    SPIRV_CAPABILITY_UniformAndStorageBuffer8BitAccess,
    SPIRV_CAPABILITY_StoragePushConstant8,
    SPIRV_CAPABILITY_VariablePointers,
    SPIRV_CAPABILITY_VariablePointersStorageBuffer,
    SPIRV_CAPABILITY_PhysicalStorageBufferAddresses,
    SPIRV_CAPABILITY_VulkanMemoryModel,
    SPIRV_CAPABILITY_VulkanMemoryModelDeviceScope,
    SPIRV_CAPABILITY_DenormPreserve,
    SPIRV_CAPABILITY_DenormFlushToZero,
    SPIRV_CAPABILITY_SignedZeroInfNanPreserve,
    SPIRV_CAPABILITY_RoundingModeRTE,
    SPIRV_CAPABILITY_RoundingModeRTZ,
    SPIRV_CAPABILITY_RayQueryKHR,
    SPIRV_CAPABILITY_RayTracingKHR,
    SPIRV_CAPABILITY_RayTraversalPrimitiveCullingKHR,
    SPIRV_CAPABILITY_RayCullMaskKHR, /* CullMaskKHR: the ray's cull mask word */
    /* SPV_KHR_ray_tracing_position_fetch: the hit record's primitive_address
     * names the leaf record holding the vertices (ray_query.h). */
    SPIRV_CAPABILITY_RayTracingPositionFetchKHR,
    SPIRV_CAPABILITY_RayQueryPositionFetchKHR,
    SPIRV_CAPABILITY_AtomicFloat32AddEXT,
    SPIRV_CAPABILITY_AtomicFloat64AddEXT,
    SPIRV_CAPABILITY_DemoteToHelperInvocation,
    /* SPV_KHR_integer_dot_product, emulated exactly (translate_alu.c); 8-bit
     * vectors also need Int8, which the device does not have. */
    SPIRV_CAPABILITY_DotProductInputAll,
    SPIRV_CAPABILITY_DotProductInput4x8Bit,
    SPIRV_CAPABILITY_DotProductInput4x8BitPacked,
    SPIRV_CAPABILITY_DotProduct,
    /* Vertex and fragment stages (driver/compiler/translate_graphics.h). */
    SPIRV_CAPABILITY_ClipDistance,
    SPIRV_CAPABILITY_CullDistance,
    /* gl_ViewportIndex and gl_Layer from a vertex program
     * (shaderOutputViewportIndex, shaderOutputLayer, and
     * SPV_EXT_shader_viewport_index_layer's capability for both). */
    SPIRV_CAPABILITY_ShaderViewportIndex,
    SPIRV_CAPABILITY_ShaderLayer,
    SPIRV_CAPABILITY_ShaderViewportIndexLayerEXT,
    /* Fragment programs that read gl_ViewportIndex declare it
     * (multiViewport; the primitive record's flags word). */
    SPIRV_CAPABILITY_MultiViewport,
    SPIRV_CAPABILITY_DrawParameters,
    SPIRV_CAPABILITY_DerivativeControl,
    SPIRV_CAPABILITY_SampleRateShading,
    SPIRV_CAPABILITY_InterpolationFunction,
    /* subpassLoad (translate_image.c). */
    SPIRV_CAPABILITY_InputAttachment,
    /* gl_ViewIndex: constant bank 0 of each view's draw. */
    SPIRV_CAPABILITY_MultiView,
    /* Declared by fragment shaders that read gl_PrimitiveID; geometry
     * shaders stay refused by their execution model. */
    SPIRV_CAPABILITY_Geometry,
    SPIRV_CAPABILITY_ShaderNonUniform,
    SPIRV_CAPABILITY_RuntimeDescriptorArray,
    SPIRV_CAPABILITY_UniformBufferArrayNonUniformIndexing,
    SPIRV_CAPABILITY_SampledImageArrayNonUniformIndexing,
    SPIRV_CAPABILITY_StorageBufferArrayNonUniformIndexing,
    SPIRV_CAPABILITY_StorageImageArrayNonUniformIndexing,
    /* Arrays of texel buffers: per-lane header addresses like any image. */
    SPIRV_CAPABILITY_UniformTexelBufferArrayDynamicIndexing,
    SPIRV_CAPABILITY_StorageTexelBufferArrayDynamicIndexing,
    SPIRV_CAPABILITY_UniformTexelBufferArrayNonUniformIndexing,
    SPIRV_CAPABILITY_StorageTexelBufferArrayNonUniformIndexing,
};

static const char *const supported_extensions[] = {
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_variable_pointers",
    "SPV_KHR_physical_storage_buffer",
    "SPV_EXT_physical_storage_buffer",
    "SPV_KHR_vulkan_memory_model",
    "SPV_KHR_float_controls",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_multiview",
    "SPV_EXT_shader_viewport_index_layer",
    "SPV_KHR_no_integer_wrap_decoration",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_terminate_invocation",
    "SPV_KHR_ray_query",
    "SPV_KHR_ray_tracing_position_fetch",
    "SPV_KHR_ray_tracing",
    "SPV_KHR_ray_cull_mask",
    "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_KHR_integer_dot_product",
    "SPV_EXT_descriptor_indexing",
    "SPV_NV_compute_shader_derivatives",
    "SPV_KHR_compute_shader_derivatives",
    "SPV_GOOGLE_decorate_string",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_GOOGLE_user_type",
};

bool spirv_capability_supported(uint32_t capability)
{
   for (size_t i = 0; i < ARRAY_LENGTH(supported_capabilities); i++) {
      if (supported_capabilities[i] == capability)
         return true;
   }
   return false;
}

bool spirv_extension_supported(const char *name)
{
   for (size_t i = 0; i < ARRAY_LENGTH(supported_extensions); i++) {
      if (strcmp(supported_extensions[i], name) == 0)
         return true;
   }
   return false;
}

bool spirv_execution_model_supported(uint32_t model)
{
   switch (model) {
   case SPIRV_EXECUTION_MODEL_GLCompute:
   case SPIRV_EXECUTION_MODEL_Vertex:
   case SPIRV_EXECUTION_MODEL_Fragment:
   case SPIRV_EXECUTION_MODEL_RayGenerationKHR:
   case SPIRV_EXECUTION_MODEL_IntersectionKHR:
   case SPIRV_EXECUTION_MODEL_AnyHitKHR:
   case SPIRV_EXECUTION_MODEL_ClosestHitKHR:
   case SPIRV_EXECUTION_MODEL_MissKHR:
   case SPIRV_EXECUTION_MODEL_CallableKHR:
      return true;
   default:
      return false;
   }
}

bool spirv_is_type_opcode(uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_TypeVoid:
   case SPIRV_OP_TypeBool:
   case SPIRV_OP_TypeInt:
   case SPIRV_OP_TypeFloat:
   case SPIRV_OP_TypeVector:
   case SPIRV_OP_TypeMatrix:
   case SPIRV_OP_TypeImage:
   case SPIRV_OP_TypeSampler:
   case SPIRV_OP_TypeSampledImage:
   case SPIRV_OP_TypeArray:
   case SPIRV_OP_TypeRuntimeArray:
   case SPIRV_OP_TypeStruct:
   case SPIRV_OP_TypeOpaque:
   case SPIRV_OP_TypePointer:
   case SPIRV_OP_TypeFunction:
   case SPIRV_OP_TypeEvent:
   case SPIRV_OP_TypeDeviceEvent:
   case SPIRV_OP_TypeReserveId:
   case SPIRV_OP_TypeQueue:
   case SPIRV_OP_TypePipe:
   case SPIRV_OP_TypeForwardPointer:
   case SPIRV_OP_TypeAccelerationStructureKHR:
   case SPIRV_OP_TypeRayQueryKHR:
      return true;
   default:
      return false;
   }
}

bool spirv_is_constant_opcode(uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_ConstantTrue:
   case SPIRV_OP_ConstantFalse:
   case SPIRV_OP_Constant:
   case SPIRV_OP_ConstantComposite:
   case SPIRV_OP_ConstantSampler:
   case SPIRV_OP_ConstantNull:
   case SPIRV_OP_SpecConstantTrue:
   case SPIRV_OP_SpecConstantFalse:
   case SPIRV_OP_SpecConstant:
   case SPIRV_OP_SpecConstantComposite:
   case SPIRV_OP_SpecConstantOp:
      return true;
   default:
      return false;
   }
}

void spirv_count_opcode(struct spirv_module_counts *n, uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_Capability:
      n->capabilities++;
      break;
   case SPIRV_OP_Extension:
      n->extensions++;
      break;
   case SPIRV_OP_Variable:
      n->variables++;
      break;
   case SPIRV_OP_Undef:
      n->constants++;
      break;
   case SPIRV_OP_Function:
      n->functions++;
      break;
   case SPIRV_OP_Label:
      n->blocks++;
      break;
   case SPIRV_OP_EntryPoint:
      n->entry_points++;
      break;
   case SPIRV_OP_ExecutionMode:
   case SPIRV_OP_ExecutionModeId:
      n->modes++;
      break;
   case SPIRV_OP_Decorate:
   case SPIRV_OP_MemberDecorate:
   case SPIRV_OP_DecorateId:
   case SPIRV_OP_DecorateString:
   case SPIRV_OP_MemberDecorateString:
      n->decorations++;
      break;
   case SPIRV_OP_Name:
   case SPIRV_OP_MemberName:
      n->names++;
      break;
   default:
      if (spirv_is_type_opcode(opcode))
         n->types++;
      else if (spirv_is_constant_opcode(opcode))
         n->constants++;
      break;
   }
}
