/* VkCommandBuffer: allocation from a pool, the recording state machine, and
 * vkCmdExecuteCommands. Commands themselves are recorded by the cmd_*.c
 * files straight into the command buffer's pushbuffer. */
#include "vkppu_cmd_buffer.h"
#include "vkppu_graphics.h"
#include "vkppu_image.h"
#include "vkppu_render_pass.h"
#include "vkppu_rendering.h"

static VkResult create_command_buffer(struct vkppu_device *dev, struct vkppu_command_pool *pool,
                                      VkCommandBufferLevel level, VkCommandBuffer *out)
{
   struct vkppu_command_buffer *cmd =
       vkppu_alloc(&pool->alloc, sizeof(*cmd), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!cmd)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memset(cmd, 0, sizeof(*cmd));
   vkppu_object_init(&cmd->base, VK_OBJECT_TYPE_COMMAND_BUFFER, dev);
   cmd->pool = pool;
   cmd->level = level;
   cmd->state = VKPPU_CMD_INITIAL;
   /* The first chunk is small: most command buffers are short. */
   drv_pushbuf_init(&cmd->pb, &pool->chunks, true);
   vkppu_command_pool_link(pool, cmd);
   *out = vkppu_command_buffer_to_handle(cmd);
   return VK_SUCCESS;
}

void vkppu_command_buffer_reset(struct vkppu_command_buffer *cmd)
{
   drv_pushbuf_reset(&cmd->pb);
   vkppu_cmd_upload_reset(cmd);
   vkppu_cmd_release_host_jobs(cmd, false);
   vkppu_cmd_release_deferred_clears(cmd);
   vkppu_cmd_rendering_release(cmd);
   vkppu_cmd_imageless_release(cmd);
   memset(&cmd->compute, 0, sizeof(cmd->compute));
   memset(&cmd->ray_tracing, 0, sizeof(cmd->ray_tracing));
   memset(&cmd->graphics, 0, sizeof(cmd->graphics));
   cmd->rt_stack_size = 0;
   memset(&cmd->gfx, 0, sizeof(cmd->gfx));
   cmd->state = VKPPU_CMD_INITIAL;
   cmd->usage = 0;
}

void vkppu_command_buffer_destroy(struct vkppu_command_buffer *cmd)
{
   struct vkppu_command_pool *pool = cmd->pool;
   vkppu_command_pool_unlink(pool, cmd);
   drv_pushbuf_finish(&cmd->pb);
   vkppu_cmd_upload_reset(cmd);
   vkppu_cmd_release_host_jobs(cmd, true);
   vkppu_cmd_release_deferred_clears(cmd);
   vkppu_cmd_rendering_release(cmd);
   vkppu_cmd_imageless_release(cmd);
   vkppu_object_finish(&cmd->base);
   vkppu_free(&pool->alloc, cmd);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo *pAllocateInfo,
                             VkCommandBuffer *pCommandBuffers)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_command_pool, pool, pAllocateInfo->commandPool);
   uint32_t i;
   VkResult r = VK_SUCCESS;
   for (i = 0; i < pAllocateInfo->commandBufferCount; i++) {
      r = create_command_buffer(dev, pool, pAllocateInfo->level, &pCommandBuffers[i]);
      if (r != VK_SUCCESS)
         break;
   }
   if (r != VK_SUCCESS) {
      /* All or nothing, and every handle NULL on failure
       * (vkAllocateCommandBuffers). */
      for (uint32_t j = 0; j < i; j++)
         vkppu_command_buffer_destroy(vkppu_command_buffer_from_handle(pCommandBuffers[j]));
      for (uint32_t j = 0; j < pAllocateInfo->commandBufferCount; j++)
         pCommandBuffers[j] = VK_NULL_HANDLE;
   }
   return r;
}

VKAPI_ATTR void VKAPI_CALL vkppu_FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                                    uint32_t commandBufferCount,
                                                    const VkCommandBuffer *pCommandBuffers)
{
   (void)device;
   (void)commandPool;
   for (uint32_t i = 0; i < commandBufferCount; i++) {
      if (pCommandBuffers[i])
         vkppu_command_buffer_destroy(vkppu_command_buffer_from_handle(pCommandBuffers[i]));
   }
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                        const VkCommandBufferBeginInfo *pBeginInfo)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   /* Beginning a recorded command buffer resets it implicitly
    * (vkBeginCommandBuffer). */
   if (cmd->state != VKPPU_CMD_INITIAL)
      vkppu_command_buffer_reset(cmd);
   cmd->usage = pBeginInfo->flags;
   cmd->state = VKPPU_CMD_RECORDING;
   /* A secondary that continues a render pass draws into the inherited
    * subpass. With the framebuffer its draws write every target word
    * (cmd_draw.c); the render area is unknown: the whole framebuffer
    * (drawing outside the area is undefined anyway). Vulkan lets the
    * application leave the framebuffer out: then the draws keep the targets
    * and render area the primary wrote into the channel for secondaries
    * (cmd_render_pass.c), except in multiview subpasses, whose per-view
    * layers need the views: those draws are dropped, and said so. */
   const VkCommandBufferInheritanceInfo *inh = pBeginInfo->pInheritanceInfo;
   const bool continues = cmd->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY && inh &&
                          (pBeginInfo->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
   /* Without a render pass, it continues dynamic rendering. */
   const VkCommandBufferInheritanceRenderingInfo *rendering =
       continues && !inh->renderPass
           ? vkppu_find_in_chain(inh->pNext,
                                 VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO)
           : NULL;
   if (rendering) {
      vkppu_cmd_inherit_rendering(cmd, rendering);
   } else if (continues) {
      cmd->gfx.pass = vkppu_render_pass_from_handle(inh->renderPass);
      cmd->gfx.subpass = inh->subpass;
      cmd->gfx.framebuffer = vkppu_framebuffer_from_handle(inh->framebuffer);
      /* An imageless framebuffer names no views: like no framebuffer. */
      if (cmd->gfx.framebuffer &&
          (cmd->gfx.framebuffer->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
         cmd->gfx.framebuffer = NULL;
      if (cmd->gfx.pass && cmd->gfx.subpass >= cmd->gfx.pass->subpass_count)
         cmd->gfx.pass = NULL;
      if (cmd->gfx.framebuffer) {
         cmd->gfx.render_area =
             (VkRect2D){{0, 0}, {cmd->gfx.framebuffer->width, cmd->gfx.framebuffer->height}};
      } else if (cmd->gfx.pass && cmd->gfx.pass->subpasses[cmd->gfx.subpass].view_mask) {
         vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkBeginCommandBuffer: a secondary command buffer continuing a multiview "
                      "subpass needs VkCommandBufferInheritanceInfo::framebuffer on vkppu; its "
                      "draws are dropped");
      } else {
         cmd->gfx.targets_inherited = true;
      }
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   drv_pushbuf_close_segment(&cmd->pb);
   if (cmd->pb.error != DRV_SUCCESS) {
      /* Recording ran out of memory somewhere (vkCmd* cannot report it):
       * the command buffer is invalid (vkEndCommandBuffer). */
      cmd->state = VKPPU_CMD_INVALID;
      return vkppu_result_from_drv(cmd->pb.error);
   }
   cmd->state = VKPPU_CMD_EXECUTABLE;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ResetCommandBuffer(VkCommandBuffer commandBuffer,
                                                        VkCommandBufferResetFlags flags)
{
   (void)flags; /* chunks go back to the pool either way, where they are reused */
   vkppu_command_buffer_reset(vkppu_command_buffer_from_handle(commandBuffer));
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdExecuteCommands(VkCommandBuffer commandBuffer,
                                                    uint32_t commandBufferCount,
                                                    const VkCommandBuffer *pCommandBuffers)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, primary, commandBuffer);
   /* By reference: the secondaries' segments run from where they were
    * recorded. Re-recording or freeing a secondary invalidates the primary
    * (vkCmdExecuteCommands), so the memory stays valid while it matters. */
   for (uint32_t i = 0; i < commandBufferCount; i++) {
      const struct vkppu_command_buffer *secondary =
          vkppu_command_buffer_from_handle(pCommandBuffers[i]);
      /* The secondary's stream in pieces, its deferred clears (done here,
       * in the primary's render pass instance) between them. */
      uint32_t segment = 0, job = 0;
      for (uint32_t k = 0; k <= secondary->deferred_clear_count; k++) {
         bool last = k == secondary->deferred_clear_count;
         const struct vkppu_deferred_clear *clear = last ? NULL : &secondary->deferred_clears[k];
         uint32_t end_segment = last ? secondary->pb.segment_count : clear->before_segment;
         uint32_t end_job = last ? secondary->job_count : clear->before_job;
         vkppu_cmd_append_host_job_range(primary, secondary, job, end_job, segment);
         drv_pushbuf_append_segments(&primary->pb, secondary->pb.segments + segment,
                                     end_segment - segment);
         if (clear)
            vkppu_cmd_run_deferred_clear(primary, clear);
         segment = end_segment;
         job = end_job;
      }
   }
}
