/* The dynamic-state commands of Vulkan 1.0 (vkCmdSetViewport, Scissor,
 * LineWidth, DepthBias, BlendConstants, DepthBounds, StencilCompareMask,
 * StencilWriteMask, StencilReference) and of VK_EXT_extended_dynamic_state
 * and _2 (the Vulkan 1.3 set). They only record values, in the graphics
 * engine's encodings; each draw takes those its pipeline declared dynamic
 * (cmd_draw.c). */
#include "vkppu_cmd_buffer.h"
#include "vkppu_graphics.h"

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetViewport(VkCommandBuffer commandBuffer,
                                                uint32_t firstViewport, uint32_t viewportCount,
                                                const VkViewport *pViewports)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* Valid usage keeps first + count within maxViewports; clamp anyway. */
   for (uint32_t i = 0; i < viewportCount && firstViewport + i < VKPPU_MAX_VIEWPORTS; i++)
      cmd->gfx.dynamic.viewport[firstViewport + i] = pViewports[i];
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetScissor(VkCommandBuffer commandBuffer, uint32_t firstScissor,
                                               uint32_t scissorCount, const VkRect2D *pScissors)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < scissorCount && firstScissor + i < VKPPU_MAX_VIEWPORTS; i++)
      cmd->gfx.dynamic.scissor[firstScissor + i] = pScissors[i];
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

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetViewportWithCount(VkCommandBuffer commandBuffer,
                                                         uint32_t viewportCount,
                                                         const VkViewport *pViewports)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   vkppu_CmdSetViewport(commandBuffer, 0, viewportCount, pViewports);
   cmd->gfx.dynamic.viewport_count = viewportCount;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetScissorWithCount(VkCommandBuffer commandBuffer,
                                                        uint32_t scissorCount,
                                                        const VkRect2D *pScissors)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   vkppu_CmdSetScissor(commandBuffer, 0, scissorCount, pScissors);
   cmd->gfx.dynamic.scissor_count = scissorCount;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetCullMode(VkCommandBuffer commandBuffer,
                                                VkCullModeFlags cullMode)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.cull = vkppu_gfx_cull_word(cullMode);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetFrontFace(VkCommandBuffer commandBuffer,
                                                 VkFrontFace frontFace)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.front_face = vkppu_gfx_front_face_word(frontFace);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetPrimitiveTopology(VkCommandBuffer commandBuffer,
                                                         VkPrimitiveTopology primitiveTopology)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* The first six topologies have the hardware's numbers; the others need
    * features the device does not report (invalid usage): draw points. */
   cmd->gfx.dynamic.topology = (uint32_t)primitiveTopology <= VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN
                                   ? (uint32_t)primitiveTopology
                                   : (uint32_t)VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthTestEnable(VkCommandBuffer commandBuffer,
                                                       VkBool32 depthTestEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_test_enable = depthTestEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthWriteEnable(VkCommandBuffer commandBuffer,
                                                        VkBool32 depthWriteEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_write_enable = depthWriteEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthCompareOp(VkCommandBuffer commandBuffer,
                                                      VkCompareOp depthCompareOp)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_compare = (uint32_t)depthCompareOp & 7u; /* the API's numbers */
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthBoundsTestEnable(VkCommandBuffer commandBuffer,
                                                             VkBool32 depthBoundsTestEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_bounds_test_enable = depthBoundsTestEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetStencilTestEnable(VkCommandBuffer commandBuffer,
                                                         VkBool32 stencilTestEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.stencil_test_enable = stencilTestEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetStencilOp(VkCommandBuffer commandBuffer,
                                                 VkStencilFaceFlags faceMask, VkStencilOp failOp,
                                                 VkStencilOp passOp, VkStencilOp depthFailOp,
                                                 VkCompareOp compareOp)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   uint32_t w = vkppu_gfx_stencil_ops_word(failOp, passOp, depthFailOp, compareOp);
   if (faceMask & VK_STENCIL_FACE_FRONT_BIT)
      cmd->gfx.dynamic.stencil_ops[0] = w;
   if (faceMask & VK_STENCIL_FACE_BACK_BIT)
      cmd->gfx.dynamic.stencil_ops[1] = w;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetRasterizerDiscardEnable(VkCommandBuffer commandBuffer,
                                                               VkBool32 rasterizerDiscardEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.rasterizer_discard = rasterizerDiscardEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetDepthBiasEnable(VkCommandBuffer commandBuffer,
                                                       VkBool32 depthBiasEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.depth_bias_enable = depthBiasEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetPrimitiveRestartEnable(VkCommandBuffer commandBuffer,
                                                              VkBool32 primitiveRestartEnable)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.primitive_restart = primitiveRestartEnable ? 1u : 0u;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetLogicOpEXT(VkCommandBuffer commandBuffer, VkLogicOp logicOp)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   cmd->gfx.dynamic.logic_op = (uint32_t)logicOp & 0xfu; /* the API's numbers */
}

/* Patch control points belong to tessellation, which the device does not
 * have: extendedDynamicState2PatchControlPoints is VK_FALSE, so no valid
 * command buffer calls this, and there is nothing to record. */
VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetPatchControlPointsEXT(VkCommandBuffer commandBuffer,
                                                             uint32_t patchControlPoints)
{
   (void)commandBuffer;
   (void)patchControlPoints;
}

/* VK_EXT_vertex_input_dynamic_state: the state as the compiler takes it
 * (graphics_pipeline_variants.c compiles a pipeline's programs for it) and
 * each binding's stride, as vkCmdBindVertexBuffers2 would set it. */
VKAPI_ATTR void VKAPI_CALL vkppu_CmdSetVertexInputEXT(
    VkCommandBuffer commandBuffer, uint32_t vertexBindingDescriptionCount,
    const VkVertexInputBindingDescription2EXT *pVertexBindingDescriptions,
    uint32_t vertexAttributeDescriptionCount,
    const VkVertexInputAttributeDescription2EXT *pVertexAttributeDescriptions)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   struct vkppu_gfx_dynamic *d = &cmd->gfx.dynamic;
   /* Valid usage keeps the counts and numbers within the limits; drop what
    * is not, so nothing is written past the arrays. */
   d->vertex_binding_count = 0;
   for (uint32_t i = 0; i < vertexBindingDescriptionCount; i++) {
      const VkVertexInputBindingDescription2EXT *b = &pVertexBindingDescriptions[i];
      if (b->binding >= DRV_ABI_MAX_VERTEX_BUFFERS ||
          d->vertex_binding_count == DRV_ABI_MAX_VERTEX_BUFFERS)
         continue;
      d->vertex_bindings[d->vertex_binding_count++] = (struct drv_vertex_binding){
          .binding = b->binding,
          .per_instance = b->inputRate == VK_VERTEX_INPUT_RATE_INSTANCE,
          .divisor = b->inputRate == VK_VERTEX_INPUT_RATE_INSTANCE ? b->divisor : 1u,
      };
      d->vertex_stride[b->binding] = b->stride;
   }
   d->vertex_attribute_count = 0;
   for (uint32_t i = 0; i < vertexAttributeDescriptionCount; i++) {
      const VkVertexInputAttributeDescription2EXT *a = &pVertexAttributeDescriptions[i];
      if (d->vertex_attribute_count == DRV_GFX_MAX_SLOTS)
         break;
      d->vertex_attributes[d->vertex_attribute_count++] = (struct drv_vertex_attribute){
          .location = a->location, .binding = a->binding, .format = a->format, .offset = a->offset};
   }
}
