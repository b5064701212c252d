/* The ambient-occlusion pass of ao_pass.h with a ray-tracing pipeline
 * instead of a compute shader: the same descriptor set and push constants
 * (ao_descriptors.c), shaders/ao.rgen + ao.rchit + two miss shaders, a
 * shader binding table and vkCmdTraceRaysKHR over the image. spv_path is
 * the folder holding the four .spv files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ao_pass.h"

#define RT_STAGES                                                                                  \
   (VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |                         \
    VK_SHADER_STAGE_MISS_BIT_KHR)

enum { STAGE_RAYGEN, STAGE_HIT, STAGE_PRIMARY_MISS, STAGE_ESCAPED_MISS, STAGE_COUNT };
static const struct {
   const char *file;
   VkShaderStageFlagBits stage;
} stages[STAGE_COUNT] = {
    [STAGE_RAYGEN] = {"ao.rgen.spv", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    [STAGE_HIT] = {"ao.rchit.spv", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
    [STAGE_PRIMARY_MISS] = {"ao_primary.rmiss.spv", VK_SHADER_STAGE_MISS_BIT_KHR},
    [STAGE_ESCAPED_MISS] = {"ao_escaped.rmiss.spv", VK_SHADER_STAGE_MISS_BIT_KHR},
};
/* Groups in SBT order: raygen, miss 0, miss 1, the hit group. */
enum { GROUP_RAYGEN, GROUP_PRIMARY_MISS, GROUP_ESCAPED_MISS, GROUP_HIT, GROUP_COUNT };

static VkRayTracingShaderGroupCreateInfoKHR group(VkRayTracingShaderGroupTypeKHR type,
                                                  uint32_t general, uint32_t closest)
{
   return (VkRayTracingShaderGroupCreateInfoKHR){
       .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
       .type = type,
       .generalShader = general,
       .closestHitShader = closest,
       .anyHitShader = VK_SHADER_UNUSED_KHR,
       .intersectionShader = VK_SHADER_UNUSED_KHR};
}

static VkResult create_pipeline(struct rq_context *ctx, const char *dir, struct ao_pass *pass)
{
   VkShaderModule modules[STAGE_COUNT] = {0};
   VkPipelineShaderStageCreateInfo infos[STAGE_COUNT];
   VkResult r = VK_SUCCESS;
   for (uint32_t i = 0; i < STAGE_COUNT && r == VK_SUCCESS; i++) {
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", dir, stages[i].file);
      r = vk_sample_shader_module_create(ctx->device, RQ_TAG, path, &modules[i]);
      infos[i] = (VkPipelineShaderStageCreateInfo){
          .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = stages[i].stage,
          .module = modules[i],
          .pName = "main"};
   }
   const VkRayTracingShaderGroupCreateInfoKHR groups[GROUP_COUNT] = {
       [GROUP_RAYGEN] =
           group(VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, STAGE_RAYGEN, VK_SHADER_UNUSED_KHR),
       [GROUP_PRIMARY_MISS] = group(VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
                                    STAGE_PRIMARY_MISS, VK_SHADER_UNUSED_KHR),
       [GROUP_ESCAPED_MISS] = group(VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
                                    STAGE_ESCAPED_MISS, VK_SHADER_UNUSED_KHR),
       [GROUP_HIT] = group(VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
                           VK_SHADER_UNUSED_KHR, STAGE_HIT),
   };
   if (r == VK_SUCCESS) {
      VkRayTracingPipelineCreateInfoKHR ci = {
          .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
          .stageCount = STAGE_COUNT,
          .pStages = infos,
          .groupCount = GROUP_COUNT,
          .pGroups = groups,
          .maxPipelineRayRecursionDepth = 1,
          .layout = pass->pipe.layout};
      r = vkCreateRayTracingPipelinesKHR(ctx->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL,
                                         &pass->pipe.pipeline);
      if (r != VK_SUCCESS)
         fprintf(stderr, "%s: vkCreateRayTracingPipelinesKHR: %s\n", RQ_TAG,
                 vk_sample_result_string(r));
   }
   for (uint32_t i = 0; i < STAGE_COUNT; i++)
      if (modules[i])
         vkDestroyShaderModule(ctx->device, modules[i], NULL);
   return r;
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
   return (v + a - 1) / a * a;
}

/* One record per group (handles only), each region starting at the base
 * alignment: raygen, then the two misses, then the hit group. */
static VkResult create_sbt(struct rq_context *ctx, struct ao_pass *pass)
{
   VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &rt};
   vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
   uint32_t handle_size = rt.shaderGroupHandleSize;
   VkDeviceSize stride = align_up(handle_size, rt.shaderGroupHandleAlignment);
   VkDeviceSize base = rt.shaderGroupBaseAlignment;
   uint8_t handles[GROUP_COUNT * 64];
   if (handle_size > 64)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   CHECK_VK(vkGetRayTracingShaderGroupHandlesKHR(ctx->device, pass->pipe.pipeline, 0, GROUP_COUNT,
                                                 GROUP_COUNT * handle_size, handles));
   /* raygen at 0, misses at base, hit at 2 * base (stride <= base). */
   VkDeviceSize offsets[3] = {0, base, align_up(base + 2 * stride, base)};
   VkDeviceSize total = offsets[2] + stride;
   CHECK_VK(rq_buffer_create(ctx, total + base,
                             VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR |
                                 VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                             true, &pass->shader_binding_table));
   VkDeviceAddress start = align_up(pass->shader_binding_table.address, base);
   uint8_t *map =
       (uint8_t *)pass->shader_binding_table.map + (start - pass->shader_binding_table.address);
   memcpy(map + offsets[0], handles + GROUP_RAYGEN * handle_size, handle_size);
   memcpy(map + offsets[1], handles + GROUP_PRIMARY_MISS * handle_size, handle_size);
   memcpy(map + offsets[1] + stride, handles + GROUP_ESCAPED_MISS * handle_size, handle_size);
   memcpy(map + offsets[2], handles + GROUP_HIT * handle_size, handle_size);
   pass->raygen = (VkStridedDeviceAddressRegionKHR){start + offsets[0], stride, stride};
   pass->miss = (VkStridedDeviceAddressRegionKHR){start + offsets[1], stride, 2 * stride};
   pass->hit = (VkStridedDeviceAddressRegionKHR){start + offsets[2], stride, stride};
   pass->callable = (VkStridedDeviceAddressRegionKHR){0, 0, 0};
   return VK_SUCCESS;
}

VkResult ao_pass_create(struct rq_context *ctx, const char *spv_path, const struct rq_scene *scene,
                        uint32_t width, uint32_t height, struct ao_pass *pass)
{
   memset(pass, 0, sizeof(*pass));
   pass->push_constant_bytes = sizeof(struct ao_push_constants);
   VkResult r = rq_buffer_create(ctx, (VkDeviceSize)width * height * sizeof(uint32_t),
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, &pass->result);
   if (r == VK_SUCCESS)
      r = vk_sample_descriptor_set_create(ctx->device, RQ_TAG, ao_pass_binding_types,
                                          AO_BINDING_COUNT, RT_STAGES, &pass->pipe);
   if (r == VK_SUCCESS) {
      VkPushConstantRange range = {RT_STAGES, 0, pass->push_constant_bytes};
      VkPipelineLayoutCreateInfo plci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
          .setLayoutCount = 1,
          .pSetLayouts = &pass->pipe.set_layout,
          .pushConstantRangeCount = 1,
          .pPushConstantRanges = &range,
      };
      r = vkCreatePipelineLayout(ctx->device, &plci, NULL, &pass->pipe.layout);
   }
   if (r == VK_SUCCESS)
      r = create_pipeline(ctx, spv_path, pass);
   if (r == VK_SUCCESS)
      r = create_sbt(ctx, pass);
   if (r == VK_SUCCESS)
      ao_pass_write_descriptors(ctx, scene, pass);
   return r;
}

VkResult ao_pass_run(struct rq_context *ctx, struct ao_pass *pass,
                     const struct ao_push_constants *params, double *seconds, bool *timed_on_gpu)
{
   VkCommandBuffer cmd;
   VkResult r = rq_commands_begin(ctx, &cmd);
   if (r != VK_SUCCESS)
      return r;
   /* The builds (earlier submissions) before the traces. */
   VkMemoryBarrier built = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
       .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                        VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR, 0, 1, &built, 0, NULL, 0,
                        NULL);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pass->pipe.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pass->pipe.layout, 0, 1,
                           &pass->pipe.set, 0, NULL);
   vkCmdPushConstants(cmd, pass->pipe.layout, RT_STAGES, 0, pass->push_constant_bytes, params);
   vkCmdTraceRaysKHR(cmd, &pass->raygen, &pass->miss, &pass->hit, &pass->callable, params->width,
                     params->height, 1);
   VkMemoryBarrier written = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &written, 0, NULL, 0, NULL);
   return rq_commands_submit(ctx, cmd, seconds, timed_on_gpu);
}

void ao_pass_destroy(struct rq_context *ctx, struct ao_pass *pass)
{
   if (ctx->device)
      vk_sample_compute_pipeline_destroy(ctx->device, &pass->pipe);
   rq_buffer_destroy(ctx, &pass->shader_binding_table);
   rq_buffer_destroy(ctx, &pass->result);
}
