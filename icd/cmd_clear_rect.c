/* Clears of rectangles of attachments: the load op CLEAR of a render pass
 * (cmd_render_pass.c) and vkCmdClearAttachments.
 *
 * Both run on the copy engine. A rectangle covering the whole level is one
 * CLEAR_IMAGE. Any other rectangle is cleared without a draw: CLEAR_IMAGE
 * writes the value into a 1x1 image of the attachment's format in upload
 * memory (so the copy engine's codec encodes it, depth and stencil
 * included), and a NEAREST BLIT stretches that texel over the rectangle,
 * one layer at a time (BLIT keeps the other aspect of a combined
 * depth/stencil format, as a clear of one aspect must). WAIT_FOR_IDLE
 * before and after orders the copy engine against draws. */
#include <stdlib.h>

#include "method_encoder_image.h"
#include "vkppu_graphics.h"

void vkppu_clear_value_words(const VkClearValue *v, VkImageAspectFlags aspects, uint32_t out[4])
{
   if (aspects & VK_IMAGE_ASPECT_COLOR_BIT) {
      /* float32, int32 and uint32 share the words; the engine reads them
       * as the format's class does. */
      memcpy(out, v->color.uint32, 4 * sizeof(uint32_t));
      return;
   }
   memcpy(&out[0], &v->depthStencil.depth, 4);
   out[1] = v->depthStencil.stencil;
   out[2] = out[3] = 0;
}

static uint64_t upload_header(struct vkppu_command_buffer *cmd, const struct ppu_texture_header *h)
{
   uint64_t va;
   void *map;
   if (!vkppu_cmd_upload_alloc(cmd, PPU_TEX_HEADER_BYTES, PPU_TEX_HEADER_ALIGN, &va, &map))
      return 0;
   memcpy(map, h, sizeof(*h));
   return va;
}

void vkppu_cmd_clear_view_rect(struct vkppu_command_buffer *cmd,
                               const struct vkppu_image_view *view, VkImageAspectFlags aspects,
                               const VkRect2D *rect, uint32_t base_layer, uint32_t layer_count,
                               const uint32_t value[4])
{
   const struct vkppu_image *img = view->image;
   const uint32_t level = view->range.baseMipLevel;
   const uint32_t first_layer = view->range.baseArrayLayer + base_layer;
   const uint32_t w = ppu_tex_level_extent(img->whole.width, level);
   const uint32_t h = ppu_tex_level_extent(img->whole.height, level);
   /* The rectangle within the level (a render area or clear rectangle is
    * inside the framebuffer, which is inside the level), in texels: a 4x
    * pixel is 2x2 texels, its four samples, all cleared. */
   const int64_t k = vkppu_image_sample_scale(img);
   int64_t x0 = rect->offset.x < 0 ? 0 : rect->offset.x * k;
   int64_t y0 = rect->offset.y < 0 ? 0 : rect->offset.y * k;
   int64_t x1 = ((int64_t)rect->offset.x + rect->extent.width) * k;
   int64_t y1 = ((int64_t)rect->offset.y + rect->extent.height) * k;
   x1 = x1 > w ? w : x1;
   y1 = y1 > h ? h : y1;
   if (x0 >= x1 || y0 >= y1 || layer_count == 0)
      return;

   /* The destination as the view sees it: the view's format (a mutable
    * image's view may differ), the image's layout. */
   struct ppu_texture_header dst = img->whole;
   dst.format = (uint16_t)vkppu_format_info(view->format)->hw;
   if (dst.dim != PPU_TEX_DIM_3D) {
      dst.base_layer = first_layer;
      dst.layer_count = layer_count;
   }
   uint64_t dst_header = upload_header(cmd, &dst);
   if (!dst_header)
      return;
   uint32_t aspect = ((aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? PPU_COPY_ASPECT_DEPTH : 0u) |
                     ((aspects & VK_IMAGE_ASPECT_STENCIL_BIT) ? PPU_COPY_ASPECT_STENCIL : 0u);
   drv_emit_wait_for_idle(&cmd->pb);

   struct drv_image_op op = {0};
   op.aspect = aspect;
   memcpy(op.clear_value, value, sizeof(op.clear_value));
   /* A whole level at once; not for slices of a 3D image (its one layer
    * is every slice): those go through the blits below, a slice each. */
   if (x0 == 0 && y0 == 0 && x1 == w && y1 == h && dst.dim != PPU_TEX_DIM_3D) {
      op.dst_header = dst_header;
      op.dst_level = level;
      op.level_count = 1;
      op.dst_layer = first_layer;
      op.layer_count = layer_count;
      drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_CLEAR_IMAGE);
      drv_emit_wait_for_idle(&cmd->pb);
      return;
   }

   /* The 1x1 source: a linear image of one 64-byte row. */
   uint64_t texel_va;
   void *texel_map;
   if (!vkppu_cmd_upload_alloc(cmd, 64, 64, &texel_va, &texel_map))
      return;
   struct ppu_texture_header src;
   memset(&src, 0, sizeof(src));
   src.address = texel_va;
   src.format = dst.format;
   src.dim = PPU_TEX_DIM_2D;
   src.layout = PPU_TEX_LAYOUT_LINEAR;
   src.swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   src.width = src.height = src.depth = 1;
   src.row_pitch = 64;
   src.image_levels = 1;
   src.level_count = 1;
   src.layer_count = 1;
   uint64_t src_header = upload_header(cmd, &src);
   if (!src_header)
      return;
   op.dst_header = src_header;
   op.level_count = 1;
   op.layer_count = 1;
   drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_CLEAR_IMAGE);

   for (uint32_t l = 0; l < layer_count; l++) {
      struct drv_image_op blit = {0};
      blit.src_header = src_header;
      blit.dst_header = dst_header;
      blit.dst_level = level;
      blit.dst_layer = first_layer + l;
      blit.layer_count = 1;
      blit.aspect = aspect;
      blit.blit_src[1][0] = blit.blit_src[1][1] = blit.blit_src[1][2] = 1;
      blit.blit_dst[0][0] = (int32_t)x0;
      blit.blit_dst[0][1] = (int32_t)y0;
      blit.blit_dst[1][0] = (int32_t)x1;
      blit.blit_dst[1][1] = (int32_t)y1;
      blit.blit_dst[1][2] = 1;
      if (dst.dim == PPU_TEX_DIM_3D) { /* a slice of a 3D image viewed as 2D */
         blit.dst_layer = 0;
         blit.blit_dst[0][2] = (int32_t)(first_layer + l);
         blit.blit_dst[1][2] = (int32_t)(first_layer + l + 1);
      }
      blit.blit_filter = PPU_COPY_FILTER_NEAREST;
      drv_emit_image_op(&cmd->pb, &blit, PPU_COPY_OP_BLIT);
   }
   drv_emit_wait_for_idle(&cmd->pb);
}

/* vkCmdClearAttachments in the render pass instance cmd is recording. */
static void clear_attachments(struct vkppu_command_buffer *cmd, uint32_t attachmentCount,
                              const VkClearAttachment *pAttachments, uint32_t rectCount,
                              const VkClearRect *pRects)
{
   const struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   if (!s->pass || !s->framebuffer)
      return; /* VUID-vkCmdClearAttachments-renderpass */
   const struct vkppu_subpass *sp = &s->pass->subpasses[s->subpass];
   for (uint32_t i = 0; i < attachmentCount; i++) {
      const VkClearAttachment *ca = &pAttachments[i];
      uint32_t a = VK_ATTACHMENT_UNUSED;
      if (ca->aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
         if (ca->colorAttachment < sp->color_count)
            a = sp->colors[ca->colorAttachment].attachment;
      } else if (sp->has_depth_stencil) {
         a = sp->depth_stencil.attachment;
      }
      if (a == VK_ATTACHMENT_UNUSED || a >= s->framebuffer->attachment_count)
         continue; /* clearing an unused attachment does nothing */
      const struct vkppu_image_view *view = s->framebuffer->attachments[a];
      /* Only the aspects the attachment has. */
      VkImageAspectFlags aspects = ca->aspectMask & vkppu_format_info(view->format)->aspects;
      if (!aspects)
         continue;
      uint32_t value[4];
      vkppu_clear_value_words(&ca->clearValue, aspects, value);
      for (uint32_t r = 0; r < rectCount; r++) {
         /* Multiview: each rectangle clears the layers of the subpass's
          * views (its layer range is 0, 1). */
         if (!sp->view_mask) {
            vkppu_cmd_clear_view_rect(cmd, view, aspects, &pRects[r].rect, pRects[r].baseArrayLayer,
                                      pRects[r].layerCount, value);
            continue;
         }
         for (uint32_t views = sp->view_mask; views; views &= views - 1)
            vkppu_cmd_clear_view_rect(cmd, view, aspects, &pRects[r].rect,
                                      (uint32_t)__builtin_ctz(views), 1, value);
      }
   }
}

/* Keeps a clear of a secondary that does not know its attachments for
 * vkCmdExecuteCommands (struct vkppu_deferred_clear). */
static void defer_clear(struct vkppu_command_buffer *cmd, uint32_t attachment_count,
                        const VkClearAttachment *attachments, uint32_t rect_count,
                        const VkClearRect *rects)
{
   if (cmd->pb.error != DRV_SUCCESS)
      return;
   struct vkppu_deferred_clear *grown =
       realloc(cmd->deferred_clears, (cmd->deferred_clear_count + 1) * sizeof(*grown));
   /* + 1: a clear of no attachments or rectangles still gets a non-NULL
    * block, so NULL means only that memory ran out. */
   VkClearAttachment *a = malloc(attachment_count * sizeof(*a) + 1);
   VkClearRect *r = malloc(rect_count * sizeof(*r) + 1);
   if (grown)
      cmd->deferred_clears = grown;
   if (!grown || !a || !r) {
      free(a);
      free(r);
      cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return;
   }
   memcpy(a, attachments, attachment_count * sizeof(*a));
   memcpy(r, rects, rect_count * sizeof(*r));
   /* What was recorded so far runs before the clear, what follows after. */
   drv_pushbuf_close_segment(&cmd->pb);
   cmd->deferred_clears[cmd->deferred_clear_count++] = (struct vkppu_deferred_clear){
       .before_segment = cmd->pb.segment_count,
       .before_job = cmd->job_count,
       .attachment_count = attachment_count,
       .rect_count = rect_count,
       .attachments = a,
       .rects = r,
   };
}

void vkppu_cmd_run_deferred_clear(struct vkppu_command_buffer *primary,
                                  const struct vkppu_deferred_clear *clear)
{
   clear_attachments(primary, clear->attachment_count, clear->attachments, clear->rect_count,
                     clear->rects);
}

void vkppu_cmd_release_deferred_clears(struct vkppu_command_buffer *cmd)
{
   for (uint32_t i = 0; i < cmd->deferred_clear_count; i++) {
      free(cmd->deferred_clears[i].attachments);
      free(cmd->deferred_clears[i].rects);
   }
   free(cmd->deferred_clears);
   cmd->deferred_clears = NULL;
   cmd->deferred_clear_count = 0;
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdClearAttachments(VkCommandBuffer commandBuffer,
                                                     uint32_t attachmentCount,
                                                     const VkClearAttachment *pAttachments,
                                                     uint32_t rectCount, const VkClearRect *pRects)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   if (cmd->gfx.targets_inherited) {
      /* The views are the primary's, unknown while this is recorded. */
      defer_clear(cmd, attachmentCount, pAttachments, rectCount, pRects);
      return;
   }
   clear_attachments(cmd, attachmentCount, pAttachments, rectCount, pRects);
}
