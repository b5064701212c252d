#include "ao_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

VkResult ao_pass_create_sized(struct rq_context *ctx, const char *spv_path,
                              const struct rq_scene *scene, VkDeviceSize result_bytes,
                              uint32_t push_constant_bytes, struct ao_pass *pass)
{
   memset(pass, 0, sizeof(*pass));
   pass->push_constant_bytes = push_constant_bytes;
   /* A storage buffer, not an image: the sample must run on drivers that
    * have buffers and compute only. */
   VkResult r =
       rq_buffer_create(ctx, result_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, &pass->result);
   if (r == VK_SUCCESS)
      r = vk_sample_compute_pipeline_create(ctx->device, RQ_TAG, spv_path, ao_pass_binding_types,
                                            AO_BINDING_COUNT, push_constant_bytes, &pass->pipe);
   if (r == VK_SUCCESS)
      ao_pass_write_descriptors(ctx, scene, pass);
   return r;
}

VkResult ao_pass_create(struct rq_context *ctx, const char *spv_path, const struct rq_scene *scene,
                        uint32_t width, uint32_t height, struct ao_pass *pass)
{
   return ao_pass_create_sized(ctx, spv_path, scene,
                               (VkDeviceSize)width * height * sizeof(uint32_t),
                               sizeof(struct ao_push_constants), pass);
}

VkResult ao_pass_run(struct rq_context *ctx, struct ao_pass *pass,
                     const struct ao_push_constants *params, double *seconds, bool *timed_on_gpu)
{
   return ao_pass_dispatch(ctx, pass, params, params->width, params->height, seconds, timed_on_gpu);
}

VkResult ao_pass_dispatch(struct rq_context *ctx, struct ao_pass *pass, const void *params,
                          uint32_t width, uint32_t height, double *seconds, bool *timed_on_gpu)
{
   VkCommandBuffer cmd;
   VkResult r = rq_commands_begin(ctx, &cmd);
   if (r != VK_SUCCESS)
      return r;
   /* The builds (earlier submissions) before the shader's ray queries. */
   VkMemoryBarrier built = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
       .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &built, 0, NULL, 0, NULL);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipe.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pass->pipe.layout, 0, 1,
                           &pass->pipe.set, 0, NULL);
   vkCmdPushConstants(cmd, pass->pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                      pass->push_constant_bytes, params);
   vkCmdDispatch(cmd, (width + AO_WORKGROUP - 1) / AO_WORKGROUP,
                 (height + AO_WORKGROUP - 1) / AO_WORKGROUP, 1);
   /* Shader writes become visible to the host's reads of the mapping. */
   VkMemoryBarrier written = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &written, 0, NULL, 0, NULL);
   return rq_commands_submit(ctx, cmd, seconds, timed_on_gpu);
}

void ao_pass_destroy(struct rq_context *ctx, struct ao_pass *pass)
{
   if (ctx->device)
      vk_sample_compute_pipeline_destroy(ctx->device, &pass->pipe);
   rq_buffer_destroy(ctx, &pass->result);
}
