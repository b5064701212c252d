/* Multisample resolves on the graphics engine's RESOLVE method
 * (docs/graphics-hw.md "Methods"): the render pass's resolve attachments
 * (cmd_render_pass.c) and vkCmdResolveImage(2).
 *
 * RESOLVE reads COLOR_TARGET(0) or DEPTH_TARGET as a 4x target and writes
 * RESOLVE_TARGET(0) or RESOLVE_DEPTH_TARGET over the render area, the same
 * pixels in both. Each layer is one RESOLVE with the target groups' LAYER
 * word set; WAIT_FOR_IDLE before and after orders it against draws and the
 * copy engine. Draws write every target group again, so nothing latched
 * here leaks into them.
 *
 * RESOLVE writes the pixels it reads, so a vkCmdResolveImage region whose
 * source and destination offsets differ goes through two temporary linear
 * images in upload memory, piece by piece: the copy engine copies the
 * piece's samples to a 4x temporary at (0, 0), RESOLVE resolves it into a
 * 1x temporary, the copy engine copies that to the destination offset. */
#include "debug_report.h"
#include "method_encoder.h"
#include "method_encoder_image.h"
#include "vkppu_graphics.h"

/* RESOLVE's mode field for a VkResolveModeFlagBits; ~0u: not a mode
 * RESOLVE has. */
static uint32_t hw_mode(VkResolveModeFlagBits mode)
{
   switch (mode) {
   case VK_RESOLVE_MODE_AVERAGE_BIT:
      return 0;
   case VK_RESOLVE_MODE_SAMPLE_ZERO_BIT:
      return 1;
   case VK_RESOLVE_MODE_MIN_BIT:
      return 2;
   case VK_RESOLVE_MODE_MAX_BIT:
      return 3;
   default:
      return ~0u;
   }
}

const char *vkppu_cmd_resolve(struct vkppu_command_buffer *cmd,
                              const struct vkppu_resolve_side *src,
                              const struct vkppu_resolve_side *dst,
                              VkResolveModeFlagBits color_mode, VkResolveModeFlagBits depth_mode,
                              VkResolveModeFlagBits stencil_mode, const VkRect2D *area,
                              uint32_t layer_count)
{
   if (src->image->samples != VK_SAMPLE_COUNT_4_BIT || dst->image->samples != 1)
      return "the source must have 4 samples and the destination 1";
   if (vkppu_format_info(src->format)->hw != vkppu_format_info(dst->format)->hw)
      return "source and destination formats differ";
   uint32_t data = 0;
   bool color = color_mode != VK_RESOLVE_MODE_NONE;
   if (color) {
      if (hw_mode(color_mode) == ~0u)
         return "unknown colour resolve mode";
      /* RESOLVE averages float-class formats only. */
      if (color_mode == VK_RESOLVE_MODE_AVERAGE_BIT && vkppu_format_is_integer_color(src->format))
         return "an integer format has no AVERAGE resolve";
      data = 1u | hw_mode(color_mode) << PPU_GFX_RESOLVE_COLOR_MODE_SHIFT;
   }
   if (depth_mode != VK_RESOLVE_MODE_NONE) {
      if (hw_mode(depth_mode) == ~0u)
         return "unknown depth resolve mode";
      data |= PPU_GFX_RESOLVE_DEPTH | hw_mode(depth_mode) << PPU_GFX_RESOLVE_DEPTH_MODE_SHIFT;
   }
   if (stencil_mode != VK_RESOLVE_MODE_NONE) {
      /* Stencil values are integers: no average (RESOLVE refuses it). */
      if (hw_mode(stencil_mode) == ~0u || stencil_mode == VK_RESOLVE_MODE_AVERAGE_BIT)
         return "stencil resolve mode is not SAMPLE_ZERO, MIN or MAX";
      data |= PPU_GFX_RESOLVE_STENCIL | hw_mode(stencil_mode) << PPU_GFX_RESOLVE_STENCIL_MODE_SHIFT;
   }
   if (!data)
      return NULL;
   int64_t x0 = area->offset.x < 0 ? 0 : area->offset.x;
   int64_t y0 = area->offset.y < 0 ? 0 : area->offset.y;
   int64_t x1 = (int64_t)area->offset.x + area->extent.width;
   int64_t y1 = (int64_t)area->offset.y + area->extent.height;
   x1 = x1 > PPU_GFX_MAX_FRAMEBUFFER ? PPU_GFX_MAX_FRAMEBUFFER : x1;
   y1 = y1 > PPU_GFX_MAX_FRAMEBUFFER ? PPU_GFX_MAX_FRAMEBUFFER : y1;
   if (x0 >= x1 || y0 >= y1)
      return NULL;
   const uint32_t rect[2] = {(uint32_t)x0 | (uint32_t)y0 << 16, (uint32_t)x1 | (uint32_t)y1 << 16};
   drv_emit_wait_for_idle(&cmd->pb);
   vkppu_gfx_emit(&cmd->pb, PPU_GFX_RENDER_AREA_XY0, 2, rect);
   for (uint32_t l = 0; l < layer_count; l++) {
      uint32_t s[8], d[8];
      vkppu_gfx_target_words(src->image, src->format, src->level, src->layer + l, s);
      vkppu_gfx_target_words(dst->image, dst->format, dst->level, dst->layer + l, d);
      vkppu_gfx_emit(&cmd->pb, color ? PPU_GFX_COLOR_TARGET(0) : PPU_GFX_DEPTH_TARGET_BASE, 8, s);
      vkppu_gfx_emit(&cmd->pb,
                     color ? PPU_GFX_RESOLVE_TARGET(0) : PPU_GFX_RESOLVE_DEPTH_TARGET_BASE, 8, d);
      vkppu_gfx_emit(&cmd->pb, PPU_GFX_RESOLVE, 1, &data);
   }
   drv_emit_wait_for_idle(&cmd->pb);
   return NULL;
}

/* What vkCmdResolveImage does to an image's samples: the average, or for
 * integer formats (which have none) sample zero. */
static VkResolveModeFlagBits image_resolve_mode(const struct vkppu_image *img)
{
   return vkppu_format_is_integer_color(img->format) ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT
                                                     : VK_RESOLVE_MODE_AVERAGE_BIT;
}

/* Pixels a side of a shifted resolve's pieces: a 4x piece of 16-byte
 * texels is 16 KiB, well inside an upload allocation (64 KiB at most). */
#define PIECE 16u

/* The header of one layer of img in upload memory, for the copy engine
 * (which refuses layers outside it); 0 after an allocation failure (kept in
 * pb.error). */
static uint64_t layer_header(struct vkppu_command_buffer *cmd,
                             const struct ppu_texture_header *whole, uint32_t layer)
{
   uint64_t va;
   void *map;
   if (!vkppu_cmd_upload_alloc(cmd, PPU_TEX_HEADER_BYTES, PPU_TEX_HEADER_ALIGN, &va, &map))
      return 0;
   struct ppu_texture_header h = *whole;
   h.base_layer = layer;
   h.layer_count = 1;
   memcpy(map, &h, sizeof(h));
   return va;
}

/* A linear w x h image of `samples` in upload memory, laid out as
 * vkCreateImage would (vkppu_image_init_layout), with its header uploaded
 * at *header; false after an allocation failure. */
static bool temporary(struct vkppu_command_buffer *cmd, VkFormat format,
                      VkSampleCountFlagBits samples, uint32_t w, uint32_t h,
                      struct vkppu_image *img, uint64_t *header)
{
   const VkImageCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {w, h, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = samples,
       .tiling = VK_IMAGE_TILING_LINEAR,
   };
   memset(img, 0, sizeof(*img));
   vkppu_image_init_layout(img, &ci);
   void *map;
   if (!vkppu_cmd_upload_alloc(cmd, (uint32_t)img->size, (uint32_t)img->alignment,
                               &img->whole.address, &map))
      return false;
   *header = layer_header(cmd, &img->whole, 0);
   return *header != 0;
}

/* IMAGE_TO_IMAGE of w x h texels of one layer each. */
static void copy_texels(struct vkppu_command_buffer *cmd, uint64_t src, uint32_t src_level,
                        uint32_t src_layer, uint32_t sx, uint32_t sy, uint64_t dst,
                        uint32_t dst_level, uint32_t dst_layer, uint32_t dx, uint32_t dy,
                        uint32_t w, uint32_t h)
{
   struct drv_image_op op = {
       .src_header = src,
       .dst_header = dst,
       .src_level = src_level,
       .src_layer = src_layer,
       .dst_level = dst_level,
       .dst_layer = dst_layer,
       .layer_count = 1,
       .src_offset = {sx, sy, 0},
       .dst_offset = {dx, dy, 0},
       .extent = {w, h, 1},
   };
   drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_IMAGE_TO_IMAGE);
}

/* A region resolved to other offsets, through temporaries piece by piece;
 * NULL, or why nothing more was recorded. */
static const char *shifted_resolve(struct vkppu_command_buffer *cmd, const struct vkppu_image *src,
                                   const struct vkppu_image *dst, const VkImageResolve *r,
                                   uint32_t layers)
{
   const VkImageSubresourceLayers *ss = &r->srcSubresource, *ds = &r->dstSubresource;
   if (vkppu_format_info(src->format)->hw != vkppu_format_info(dst->format)->hw)
      return "source and destination formats differ";
   if (src->samples != VK_SAMPLE_COUNT_4_BIT || dst->samples != VK_SAMPLE_COUNT_1_BIT)
      return "the source must have 4 samples and the destination 1";
   drv_emit_wait_for_idle(&cmd->pb);
   for (uint32_t l = 0; l < layers; l++) {
      uint64_t sh = layer_header(cmd, &src->whole, ss->baseArrayLayer + l);
      uint64_t dh = layer_header(cmd, &dst->whole, ds->baseArrayLayer + l);
      for (uint32_t y = 0; sh && dh && y < r->extent.height; y += PIECE) {
         for (uint32_t x = 0; x < r->extent.width; x += PIECE) {
            uint32_t w = r->extent.width - x < PIECE ? r->extent.width - x : PIECE;
            uint32_t h = r->extent.height - y < PIECE ? r->extent.height - y : PIECE;
            struct vkppu_image t4, t1;
            uint64_t h4, h1;
            if (!temporary(cmd, src->format, VK_SAMPLE_COUNT_4_BIT, w, h, &t4, &h4) ||
                !temporary(cmd, dst->format, VK_SAMPLE_COUNT_1_BIT, w, h, &t1, &h1))
               return NULL; /* out of memory: vkEndCommandBuffer reports it */
            copy_texels(cmd, sh, ss->mipLevel, ss->baseArrayLayer + l,
                        2 * ((uint32_t)r->srcOffset.x + x), 2 * ((uint32_t)r->srcOffset.y + y), h4,
                        0, 0, 0, 0, 2 * w, 2 * h);
            const struct vkppu_resolve_side a = {&t4, src->format, 0, 0};
            const struct vkppu_resolve_side b = {&t1, dst->format, 0, 0};
            const VkRect2D area = {{0, 0}, {w, h}};
            const char *why =
                vkppu_cmd_resolve(cmd, &a, &b, image_resolve_mode(src), VK_RESOLVE_MODE_NONE,
                                  VK_RESOLVE_MODE_NONE, &area, 1);
            if (why)
               return why;
            copy_texels(cmd, h1, 0, 0, 0, 0, dh, ds->mipLevel, ds->baseArrayLayer + l,
                        (uint32_t)r->dstOffset.x + x, (uint32_t)r->dstOffset.y + y, w, h);
         }
      }
   }
   drv_emit_wait_for_idle(&cmd->pb);
   return NULL;
}

/* Whether level, layers and the pixels offset .. offset + extent of a
 * region side lie inside img. */
static bool fits(const struct vkppu_image *img, const VkImageSubresourceLayers *sub,
                 uint32_t layers, const VkOffset3D *offset, const VkExtent3D *extent)
{
   if (sub->mipLevel >= img->mip_levels || sub->baseArrayLayer >= img->array_layers ||
       layers > img->array_layers - sub->baseArrayLayer || offset->x < 0 || offset->y < 0)
      return false;
   uint32_t w = ppu_tex_level_extent(img->extent.width, sub->mipLevel);
   uint32_t h = ppu_tex_level_extent(img->extent.height, sub->mipLevel);
   return (uint64_t)offset->x + extent->width <= w && (uint64_t)offset->y + extent->height <= h;
}

/* One VkImageResolve region: colour, AVERAGE, or sample zero for integer
 * formats (image_resolve_mode). */
static void resolve_region(struct vkppu_command_buffer *cmd, const char *name,
                           const struct vkppu_image *src, const struct vkppu_image *dst,
                           const VkImageResolve *r)
{
   const char *why = NULL;
   const VkImageSubresourceLayers *ss = &r->srcSubresource, *ds = &r->dstSubresource;
   uint32_t layers = ss->layerCount == VK_REMAINING_ARRAY_LAYERS
                         ? src->array_layers - ss->baseArrayLayer
                         : ss->layerCount;
   if (!fits(src, ss, layers, &r->srcOffset, &r->extent) ||
       !fits(dst, ds, layers, &r->dstOffset, &r->extent))
      /* RESOLVE has no view to stop it at the image's end: an invalid
       * region would fault the channel or write past the image. */
      why = "the region's levels, layers or pixels lie outside an image";
   else if (ss->aspectMask != VK_IMAGE_ASPECT_COLOR_BIT)
      why = "only the colour aspect can be resolved by vkCmdResolveImage";
   else if (r->srcOffset.x != r->dstOffset.x || r->srcOffset.y != r->dstOffset.y)
      why = shifted_resolve(cmd, src, dst, r, layers);
   else {
      const struct vkppu_resolve_side s = {src, src->format, ss->mipLevel, ss->baseArrayLayer};
      const struct vkppu_resolve_side d = {dst, dst->format, ds->mipLevel, ds->baseArrayLayer};
      const VkRect2D area = {{r->srcOffset.x, r->srcOffset.y}, {r->extent.width, r->extent.height}};
      why = vkppu_cmd_resolve(cmd, &s, &d, image_resolve_mode(src), VK_RESOLVE_MODE_NONE,
                              VK_RESOLVE_MODE_NONE, &area, layers);
   }
   if (why)
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: %s; region not recorded", name, why);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                                                 VkImageLayout srcImageLayout, VkImage dstImage,
                                                 VkImageLayout dstImageLayout, uint32_t regionCount,
                                                 const VkImageResolve *pRegions)
{
   (void)srcImageLayout, (void)dstImageLayout;
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < regionCount; i++)
      resolve_region(cmd, "vkCmdResolveImage", vkppu_image_from_handle(srcImage),
                     vkppu_image_from_handle(dstImage), &pRegions[i]);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdResolveImage2(VkCommandBuffer commandBuffer,
                                                  const VkResolveImageInfo2 *info)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   for (uint32_t i = 0; i < info->regionCount; i++) {
      const VkImageResolve2 *r2 = &info->pRegions[i];
      const VkImageResolve r = {r2->srcSubresource, r2->srcOffset, r2->dstSubresource,
                                r2->dstOffset, r2->extent};
      resolve_region(cmd, "vkCmdResolveImage2", vkppu_image_from_handle(info->srcImage),
                     vkppu_image_from_handle(info->dstImage), &r);
   }
}
