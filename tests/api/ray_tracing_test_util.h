/* Helpers shared by the ray-tracing pipeline API tests
 * (test_ray_tracing_pipeline*.c): the device, acceleration-structure
 * builds, pipelines from named stage files and shader binding tables.
 * Header-only, like compute_test_util.h. */
#ifndef RAY_TRACING_TEST_UTIL_H
#define RAY_TRACING_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "accel_test_util.h"
#include "compute_test_util.h"
#include "vk_test_context.h"

struct rtu_rig {
   struct vkt_context ctx;
   struct vkt_device dev;
   VkDeviceSize scratch_align;
   VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt;
   bool capture_replay; /* rayTracingPipelineShaderGroupHandleCaptureReplay, enabled */
   /* VK_KHR_ray_tracing_maintenance1 with rayTracingPipelineTraceRaysIndirect2,
    * enabled where the device offers it. */
   bool maintenance1;
};

/* A device with VK_KHR_ray_tracing_pipeline and VK_KHR_pipeline_library
 * (rayTracingPipeline,
 * rayTracingPipelineTraceRaysIndirect and rayTraversalPrimitiveCulling) and what it needs; skips
 * when the device does not offer it. */
static inline bool rtu_rig_create(struct rtu_rig *r)
{
   memset(r, 0, sizeof(*r));
   if (!vkt_context_create(&r->ctx))
      return false;
   if (!vkt_has_device_extension(&r->ctx, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME)) {
      vkt_skip("%s does not offer VK_KHR_ray_tracing_pipeline", r->ctx.props.deviceName);
      vkt_context_destroy(&r->ctx);
      return false;
   }
   VkPhysicalDeviceAccelerationStructurePropertiesKHR as_props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
   r->rt = (VkPhysicalDeviceRayTracingPipelinePropertiesKHR){
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR,
       .pNext = &as_props};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &r->rt};
   vkGetPhysicalDeviceProperties2KHR(r->ctx.physical_device, &p2);
   r->rt.pNext = NULL;
   r->scratch_align = as_props.minAccelerationStructureScratchOffsetAlignment;
   if (r->scratch_align == 0)
      r->scratch_align = 1;
   /* Capture/replay where the device has it (lavapipe does not). */
   VkPhysicalDeviceRayTracingPipelineFeaturesKHR offered = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &offered};
   VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR offered_m1 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR};
   offered.pNext = &offered_m1;
   vkGetPhysicalDeviceFeatures2KHR(r->ctx.physical_device, &f2);
   r->capture_replay = offered.rayTracingPipelineShaderGroupHandleCaptureReplay;
   r->maintenance1 =
       vkt_has_device_extension(&r->ctx, VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME) &&
       offered_m1.rayTracingMaintenance1 && offered_m1.rayTracingPipelineTraceRaysIndirect2;
   VkPhysicalDeviceBufferDeviceAddressFeatures address = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
       .bufferDeviceAddress = VK_TRUE};
   VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR m1 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR,
       .pNext = &address,
       .rayTracingMaintenance1 = VK_TRUE,
       .rayTracingPipelineTraceRaysIndirect2 = VK_TRUE};
   VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
       .pNext = r->maintenance1 ? (void *)&m1 : (void *)&address,
       .rayTracingPipeline = VK_TRUE,
       .rayTracingPipelineShaderGroupHandleCaptureReplay = r->capture_replay,
       .rayTracingPipelineTraceRaysIndirect = VK_TRUE,
       .rayTraversalPrimitiveCulling = VK_TRUE};
   VkPhysicalDeviceAccelerationStructureFeaturesKHR as = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
       .pNext = &rtp,
       .accelerationStructure = VK_TRUE};
   static const char *const exts[] = {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
                                      VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
                                      VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                                      VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                                      VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME,
                                      VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME,
                                      VK_KHR_MAINTENANCE_3_EXTENSION_NAME,
                                      VK_KHR_SPIRV_1_4_EXTENSION_NAME,
                                      VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME,
                                      VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME};
   uint32_t ext_count = sizeof(exts) / sizeof(exts[0]) - (r->maintenance1 ? 0 : 1);
   struct vkt_device_desc desc = {
       .extensions = exts, .extension_count = ext_count, .feature_chain = &as};
   VkResult res = vkt_device_create(&r->ctx, &desc, &r->dev);
   if (res != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice with ray-tracing pipelines -> %s",
                vkt_result_name(res));
      vkt_context_destroy(&r->ctx);
   }
   return res == VK_SUCCESS;
}

#define RTU_ALL_STAGES                                                                             \
   (VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |                         \
    VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR |                               \
    VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR)

/* The set the ray-tracing API tests use: binding 0 an acceleration
 * structure, 1 and 2 storage buffers, for every stage; a pipeline layout
 * with it and push_bytes of push constants; one set from a pool of its own.
 * False (a failed case) when something cannot be created. */
static inline bool rtu_set_create(struct rtu_rig *r, uint32_t push_bytes,
                                  VkDescriptorSetLayout *set_layout, VkPipelineLayout *layout,
                                  VkDescriptorPool *pool, VkDescriptorSet *set)
{
   VkDevice d = r->dev.device;
   VkDescriptorSetLayoutBinding b[3] = {
       {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, RTU_ALL_STAGES, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, RTU_ALL_STAGES, NULL},
       {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, RTU_ALL_STAGES, NULL},
   };
   *set_layout = ctu_set_layout(&r->dev, b, 3);
   VkPushConstantRange range = {RTU_ALL_STAGES, 0, push_bytes};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = set_layout,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   VKT_CHECK(vkCreatePipelineLayout(d, &plci, NULL, layout));
   VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = sizes};
   VKT_CHECK(vkCreateDescriptorPool(d, &pci, NULL, pool));
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = *pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = set_layout};
   VKT_CHECK(vkAllocateDescriptorSets(d, &ai, set));
   return *set_layout && *layout && *pool && *set;
}

static inline VkDeviceAddress rtu_address(struct rtu_rig *r, VkBuffer buffer)
{
   return atu_buffer_address(&r->dev, buffer);
}

/* atu_accel_build on the rig's device and universal queue. */
static inline bool rtu_accel_build(struct rtu_rig *r, VkAccelerationStructureTypeKHR type,
                                   const VkAccelerationStructureGeometryKHR *geometries,
                                   const uint32_t *primitives, uint32_t count,
                                   struct atu_accel *out)
{
   return atu_accel_build(&r->dev, r->ctx.universal_family, r->scratch_align, type, geometries,
                          primitives, count, out);
}

/* One stage of a pipeline: a file of shaders/ ("rt_basic.rchit") and its
 * stage bit. */
struct rtu_stage {
   const char *file;
   VkShaderStageFlagBits stage;
};

/* Pipeline libraries: what a library is and which ones a pipeline links
 * (VK_KHR_pipeline_library). The interface fits rt_basic.*'s payloads. */
struct rtu_linking {
   VkPipelineCreateFlags flags; /* VK_PIPELINE_CREATE_LIBRARY_BIT_KHR for a library */
   const VkPipeline *libraries;
   uint32_t library_count;
   /* VK_DYNAMIC_STATE_RAY_TRACING_PIPELINE_STACK_SIZE_KHR: the stack size
    * comes from vkCmdSetRayTracingPipelineStackSizeKHR instead of the
    * spec's default formula (test_ray_tracing_stack.c). */
   bool dynamic_stack_size;
};

/* Creates a ray-tracing pipeline (or library) of these stages and groups;
 * the modules are destroyed again. */
static inline VkResult
rtu_pipeline_create_linked(struct rtu_rig *r, const struct rtu_stage *stages, uint32_t stage_count,
                           const VkRayTracingShaderGroupCreateInfoKHR *groups, uint32_t group_count,
                           uint32_t max_recursion, VkPipelineLayout layout,
                           const struct rtu_linking *linking, VkPipeline *out)
{
   VkPipelineShaderStageCreateInfo infos[16];
   VkShaderModule modules[16] = {0};
   VkResult res = VK_SUCCESS;
   for (uint32_t i = 0; i < stage_count && i < 16; i++) {
      modules[i] = ctu_shader_module(&r->dev, stages[i].file);
      if (!modules[i])
         res = VK_ERROR_UNKNOWN;
      infos[i] = (VkPipelineShaderStageCreateInfo){
          .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = stages[i].stage,
          .module = modules[i],
          .pName = "main"};
   }
   bool uses_libraries =
       linking && (linking->library_count || (linking->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR));
   VkPipelineLibraryCreateInfoKHR libraries = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
       .libraryCount = linking ? linking->library_count : 0,
       .pLibraries = linking ? linking->libraries : NULL};
   VkRayTracingPipelineInterfaceCreateInfoKHR interface = {
       .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_INTERFACE_CREATE_INFO_KHR,
       .maxPipelineRayPayloadSize = 128,
       .maxPipelineRayHitAttributeSize = 8};
   static const VkDynamicState stack_state = VK_DYNAMIC_STATE_RAY_TRACING_PIPELINE_STACK_SIZE_KHR;
   VkPipelineDynamicStateCreateInfo dynamic = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
       .dynamicStateCount = 1,
       .pDynamicStates = &stack_state};
   if (res == VK_SUCCESS) {
      VkRayTracingPipelineCreateInfoKHR ci = {
          .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
          .flags = linking ? linking->flags : 0,
          .stageCount = stage_count,
          .pStages = infos,
          .groupCount = group_count,
          .pGroups = groups,
          .maxPipelineRayRecursionDepth = max_recursion,
          .pLibraryInfo = uses_libraries ? &libraries : NULL,
          .pLibraryInterface = uses_libraries ? &interface : NULL,
          .pDynamicState = linking && linking->dynamic_stack_size ? &dynamic : NULL,
          .layout = layout};
      res = vkCreateRayTracingPipelinesKHR(r->dev.device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci,
                                           NULL, out);
   }
   for (uint32_t i = 0; i < stage_count && i < 16; i++)
      if (modules[i])
         vkDestroyShaderModule(r->dev.device, modules[i], NULL);
   return res;
}

static inline VkResult rtu_pipeline_create(struct rtu_rig *r, const struct rtu_stage *stages,
                                           uint32_t stage_count,
                                           const VkRayTracingShaderGroupCreateInfoKHR *groups,
                                           uint32_t group_count, uint32_t max_recursion,
                                           VkPipelineLayout layout, VkPipeline *out)
{
   return rtu_pipeline_create_linked(r, stages, stage_count, groups, group_count, max_recursion,
                                     layout, NULL, out);
}

static inline VkRayTracingShaderGroupCreateInfoKHR rtu_general_group(uint32_t stage)
{
   return (VkRayTracingShaderGroupCreateInfoKHR){
       .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
       .type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
       .generalShader = stage,
       .closestHitShader = VK_SHADER_UNUSED_KHR,
       .anyHitShader = VK_SHADER_UNUSED_KHR,
       .intersectionShader = VK_SHADER_UNUSED_KHR};
}

static inline VkRayTracingShaderGroupCreateInfoKHR
rtu_hit_group(VkRayTracingShaderGroupTypeKHR type, uint32_t closest, uint32_t any,
              uint32_t intersection)
{
   return (VkRayTracingShaderGroupCreateInfoKHR){
       .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
       .type = type,
       .generalShader = VK_SHADER_UNUSED_KHR,
       .closestHitShader = closest,
       .anyHitShader = any,
       .intersectionShader = intersection};
}

/* A shader binding table: one buffer holding four regions, each record a
 * group handle followed by up to 16 bytes of record data. */
struct rtu_sbt_record {
   uint32_t group;
   uint32_t data[4];
};

struct rtu_sbt {
   struct vkt_buffer buffer;
   VkStridedDeviceAddressRegionKHR raygen, miss, hit, callable;
};

static inline VkDeviceSize rtu_align(VkDeviceSize v, VkDeviceSize a)
{
   return a ? (v + a - 1) / a * a : v;
}

/* Records of the four regions (raygen: exactly one). */
static inline bool rtu_sbt_create(struct rtu_rig *r, VkPipeline pipeline, uint32_t group_count,
                                  const struct rtu_sbt_record *const regions[4],
                                  const uint32_t counts[4], struct rtu_sbt *out)
{
   memset(out, 0, sizeof(*out));
   uint32_t handle_size = r->rt.shaderGroupHandleSize;
   uint8_t *handles = calloc(group_count, handle_size);
   if (!handles)
      return false;
   VKT_CHECK(vkGetRayTracingShaderGroupHandlesKHR(r->dev.device, pipeline, 0, group_count,
                                                  (size_t)group_count * handle_size, handles));
   VkDeviceSize stride = rtu_align(handle_size + 16, r->rt.shaderGroupHandleAlignment);
   VkDeviceSize base_align = r->rt.shaderGroupBaseAlignment;
   VkDeviceSize offsets[4], total = 0;
   for (int k = 0; k < 4; k++) {
      offsets[k] = rtu_align(total, base_align);
      total = offsets[k] + stride * (counts[k] ? counts[k] : 1);
   }
   VkResult res = vkt_buffer_create(&r->dev, total + base_align,
                                    VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR |
                                        VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                    VKT_MEMORY_HOST, &out->buffer);
   if (res != VK_SUCCESS || !out->buffer.map) {
      free(handles);
      test_fail(__FILE__, __LINE__, "SBT buffer -> %s", vkt_result_name(res));
      return false;
   }
   VkDeviceAddress address = rtu_address(r, out->buffer.buffer);
   VkDeviceAddress aligned = rtu_align(address, base_align);
   uint8_t *map = (uint8_t *)out->buffer.map + (aligned - address);
   VkStridedDeviceAddressRegionKHR *regs[4] = {&out->raygen, &out->miss, &out->hit, &out->callable};
   for (int k = 0; k < 4; k++) {
      for (uint32_t i = 0; i < counts[k]; i++) {
         uint8_t *rec = map + offsets[k] + stride * i;
         memcpy(rec, handles + (size_t)regions[k][i].group * handle_size, handle_size);
         memcpy(rec + handle_size, regions[k][i].data, sizeof(regions[k][i].data));
      }
      if (counts[k])
         *regs[k] = (VkStridedDeviceAddressRegionKHR){aligned + offsets[k],
                                                      k == 0 ? stride : stride, stride * counts[k]};
   }
   free(handles);
   return true;
}

#endif /* RAY_TRACING_TEST_UTIL_H */
