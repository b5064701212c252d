/* Bind-state commands: vkCmdBindPipeline (every bind point), vkCmdBindDescriptorSets
 * and vkCmdPushConstants. They only update the command buffer's compute
 * state; each dispatch (cmd_dispatch.c) snapshots it into its own constant
 * bank 0, laid out as driver/shader_abi.h says. */
#include "vkppu_cmd_buffer.h"
#include "vkppu_pipeline.h"

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBindPipeline(VkCommandBuffer commandBuffer,
                                                 VkPipelineBindPoint pipelineBindPoint,
                                                 VkPipeline pipeline)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* Compute and ray-tracing pipelines run on the compute engine,
    * graphics pipelines on the graphics engine (cmd_draw.c). */
   if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE)
      cmd->compute.pipeline = vkppu_pipeline_from_handle(pipeline);
   else if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR)
      cmd->ray_tracing.pipeline = vkppu_pipeline_from_handle(pipeline);
   else if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS)
      cmd->gfx.pipeline = vkppu_pipeline_from_handle(pipeline);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBindDescriptorSets(
    VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
    uint32_t firstSet, uint32_t descriptorSetCount, const VkDescriptorSet *pDescriptorSets,
    uint32_t dynamicOffsetCount, const uint32_t *pDynamicOffsets)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_pipeline_layout, pl, layout);
   struct vkppu_bind_state *state =
       pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE           ? &cmd->compute
       : pipelineBindPoint == VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR ? &cmd->ray_tracing
       : pipelineBindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS        ? &cmd->graphics
                                                                     : NULL;
   if (!state || !pl)
      return;
   uint32_t consumed = 0;
   for (uint32_t i = 0; i < descriptorSetCount; i++) {
      uint32_t index = firstSet + i;
      if (index >= DRV_ABI_MAX_SETS || index >= pl->set_count)
         break; /* VUID-vkCmdBindDescriptorSets-firstSet-00360 */
      const struct vkppu_descriptor_set *set = vkppu_descriptor_set_from_handle(pDescriptorSets[i]);
      /* A null set (graphicsPipelineLibrary) leaves the slot unbound. */
      state->set_va[index] = set ? set->va : 0;
      if (!set)
         continue;
      /* The set's dynamic offsets come next in pDynamicOffsets, in binding
       * order, array elements consecutively; they land in the slots the
       * pipeline layout assigned that set. */
      for (uint32_t k = 0; k < set->layout->dynamic_count; k++) {
         uint32_t slot = pl->dynamic_base[index] + k;
         if (consumed >= dynamicOffsetCount || slot >= DRV_ABI_MAX_DYNAMIC_BUFFERS)
            break;
         state->dynamic_offsets[slot] = pDynamicOffsets[consumed++];
      }
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdPushConstants(VkCommandBuffer commandBuffer,
                                                  VkPipelineLayout layout,
                                                  VkShaderStageFlags stageFlags, uint32_t offset,
                                                  uint32_t size, const void *pValues)
{
   (void)layout;
   (void)stageFlags; /* one push-constant block is shared by every stage */
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* offset + size is within maxPushConstantsSize
    * (VUID-vkCmdPushConstants-size-00371); clamp so that no call can write
    * outside the block. */
   if (offset >= DRV_ABI_PUSH_CONSTANTS_SIZE)
      return;
   if (size > DRV_ABI_PUSH_CONSTANTS_SIZE - offset)
      size = DRV_ABI_PUSH_CONSTANTS_SIZE - offset;
   memcpy(cmd->compute.push_constants + offset, pValues, size);
   memcpy(cmd->ray_tracing.push_constants + offset, pValues, size);
   memcpy(cmd->graphics.push_constants + offset, pValues, size);
}
