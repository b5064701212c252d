/* The dynamic-state commands of Vulkan 1.0: vkCmdSetViewport, Scissor,
 * LineWidth, DepthBias, BlendConstants, DepthBounds, StencilCompareMask,
 * StencilWriteMask and StencilReference. They only record values; each draw
 * takes those its pipeline declared dynamic (cmd_draw.c). */
#include "vkppu_cmd_buffer.h"

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetViewport(VkCommandBuffer commandBuffer,
                                                uint32_t firstViewport, uint32_t viewportCount,
                                                const VkViewport *pViewports)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* One viewport: multiViewport is not reported. */
   if (firstViewport == 0 && viewportCount >= 1)
      cmd->gfx.dynamic.viewport = pViewports[0];
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetScissor(VkCommandBuffer commandBuffer, uint32_t firstScissor,
                                               uint32_t scissorCount, const VkRect2D *pScissors)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   if (firstScissor == 0 && scissorCount >= 1)
      cmd->gfx.dynamic.scissor = pScissors[0];
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetLineWidth(VkCommandBuffer commandBuffer, float lineWidth)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.line_width = lineWidth;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthBias(VkCommandBuffer commandBuffer,
                                                 float depthBiasConstantFactor,
                                                 float depthBiasClamp, float depthBiasSlopeFactor)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_bias[0] = depthBiasConstantFactor;
   cmd->gfx.dynamic.depth_bias[1] = depthBiasClamp;
   cmd->gfx.dynamic.depth_bias[2] = depthBiasSlopeFactor;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetBlendConstants(VkCommandBuffer commandBuffer,
                                                      const float blendConstants[4])
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   memcpy(cmd->gfx.dynamic.blend_constants, blendConstants, 4 * sizeof(float));
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthBounds(VkCommandBuffer commandBuffer,
                                                   float minDepthBounds, float maxDepthBounds)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_bounds[0] = minDepthBounds;
   cmd->gfx.dynamic.depth_bounds[1] = maxDepthBounds;
}

/* Writes v into the front ([0]) and/or back ([1]) entry. */
static void set_faces(uint32_t out[2], VkStencilFaceFlags faces, uint32_t v)
{
   if (faces & VK_STENCIL_FACE_FRONT_BIT)
      out[0] = v & 0xffu;
   if (faces & VK_STENCIL_FACE_BACK_BIT)
      out[1] = v & 0xffu;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetStencilCompareMask(VkCommandBuffer commandBuffer,
                                                          VkStencilFaceFlags faceMask,
                                                          uint32_t compareMask)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   set_faces(cmd->gfx.dynamic.stencil_compare_mask, faceMask, compareMask);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetStencilWriteMask(VkCommandBuffer commandBuffer,
                                                        VkStencilFaceFlags faceMask,
                                                        uint32_t writeMask)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   set_faces(cmd->gfx.dynamic.stencil_write_mask, faceMask, writeMask);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetStencilReference(VkCommandBuffer commandBuffer,
                                                        VkStencilFaceFlags faceMask,
                                                        uint32_t reference)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   set_faces(cmd->gfx.dynamic.stencil_reference, faceMask, reference);
}
