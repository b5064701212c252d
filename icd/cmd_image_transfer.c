/* Transfer commands on images, recorded as copy-engine image operations
 * (ppu/methods.h, docs/methods.md "Image operations" and "BLIT"):
 * vkCmdCopyBufferToImage, vkCmdCopyImageToBuffer, vkCmdCopyImage,
 * vkCmdBlitImage (and their VK_KHR_copy_commands2 forms),
 * vkCmdClearColorImage and vkCmdClearDepthStencilImage. A 4x image is a 1x
 * image of twice the extent here (docs/images.md): clears cover every
 * sample, image copies scale their regions, buffer copies and blits are
 * refused (Vulkan forbids them). Resolves are cmd_resolve.c.
 *
 * Each region gets its own copy of the image's `whole` texture header in
 * the command buffer's upload memory, narrowed to the region's layers (the
 * engine refuses to touch a layer outside a header's view, so a wrong
 * region faults instead of writing another layer), and one launch whose
 * state words are all written (the encoder's rule). Offsets and extents go
 * to the engine in texels: for block-compressed formats it moves whole 4x4
 * blocks and accepts a partial block where the region reaches the level's
 * edge, exactly Vulkan's rule for copies of compressed images.
 *
 * Image layouts are ignored: an image has one memory layout in this
 * hardware (block-linear or linear, fixed when it is created), so every
 * VkImageLayout names the same bytes and no transition ever moves data.
 * Multi-planar formats do not exist here (the format table has none). */
#include <string.h>

#include "debug_report.h"
#include "method_encoder_image.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_image.h"
#include "vkppu_memory.h"

/* The header of `img` narrowed to layers base .. base + count (a 3D image
 * keeps its one layer), in upload memory; 0 after an allocation failure,
 * which pb.error keeps for vkEndCommandBuffer. */
static uint64_t upload_header(struct vkppu_command_buffer *cmd, const struct vkppu_image *img,
                              uint32_t base_layer, uint32_t layer_count)
{
   uint64_t va;
   void *map;
   if (!vkppu_cmd_upload_alloc(cmd, PPU_TEX_HEADER_BYTES, PPU_TEX_HEADER_ALIGN, &va, &map))
      return 0;
   struct ppu_texture_header h = img->whole;
   if (h.dim != PPU_TEX_DIM_3D) {
      h.base_layer = base_layer;
      h.layer_count = layer_count;
   }
   memcpy(map, &h, sizeof(h));
   return va;
}

static uint32_t layer_count_of(const struct vkppu_image *img, uint32_t base, uint32_t count)
{
   return count == VK_REMAINING_ARRAY_LAYERS ? img->array_layers - base : count;
}

/* Depth and stencil aspects name the engine's ASPECT bits; COLOR is the
 * whole texel (0). */
static uint32_t copy_aspect(VkImageAspectFlags mask)
{
   return ((mask & VK_IMAGE_ASPECT_DEPTH_BIT) ? PPU_COPY_ASPECT_DEPTH : 0u) |
          ((mask & VK_IMAGE_ASPECT_STENCIL_BIT) ? PPU_COPY_ASPECT_STENCIL : 0u);
}

/* An image side of a region: header, level, first layer and layers;
 * false when the header could not be allocated. */
static bool image_side(struct vkppu_command_buffer *cmd, const struct vkppu_image *img,
                       const VkImageSubresourceLayers *sub, uint64_t *header, uint32_t *layers)
{
   *layers = layer_count_of(img, sub->baseArrayLayer, sub->layerCount);
   *header = upload_header(cmd, img, sub->baseArrayLayer, *layers);
   return *header != 0;
}

static void set3(uint32_t out[3], int32_t x, int32_t y, int32_t z)
{
   out[0] = (uint32_t)x;
   out[1] = (uint32_t)y;
   out[2] = (uint32_t)z;
}

/* One VkBufferImageCopy region in either direction. */
static void buffer_image_region(struct vkppu_command_buffer *cmd, const struct vkppu_image *img,
                                uint64_t buffer_va, bool to_image, const VkBufferImageCopy *r)
{
   struct drv_image_op op = {0};
   const VkImageSubresourceLayers *sub = &r->imageSubresource;
   uint64_t header;
   uint32_t layers;
   if (!image_side(cmd, img, sub, &header, &layers))
      return;
   op.buffer_row_length = r->bufferRowLength;
   op.buffer_image_height = r->bufferImageHeight;
   op.layer_count = img->whole.dim == PPU_TEX_DIM_3D ? 1 : layers;
   set3(op.extent, (int32_t)r->imageExtent.width, (int32_t)r->imageExtent.height,
        (int32_t)r->imageExtent.depth);
   op.aspect = copy_aspect(sub->aspectMask);
   const VkOffset3D o = r->imageOffset;
   if (to_image) {
      op.src_va = buffer_va + r->bufferOffset;
      op.dst_header = header;
      op.dst_level = sub->mipLevel;
      op.dst_layer = sub->baseArrayLayer;
      set3(op.dst_offset, o.x, o.y, o.z);
   } else {
      op.dst_va = buffer_va + r->bufferOffset;
      op.src_header = header;
      op.src_level = sub->mipLevel;
      op.src_layer = sub->baseArrayLayer;
      set3(op.src_offset, o.x, o.y, o.z);
   }
   drv_emit_image_op(&cmd->pb, &op,
                     to_image ? PPU_COPY_OP_BUFFER_TO_IMAGE : PPU_COPY_OP_IMAGE_TO_BUFFER);
}

/* The regions of a command (v1) or of its VK_KHR_copy_commands2 form (v2,
 * the same fields after sType and pNext): one of the two is given. */
static void buffer_image_regions(VkCommandBuffer commandBuffer, VkImage image, VkBuffer buffer,
                                 bool to_image, uint32_t count, const VkBufferImageCopy *v1,
                                 const VkBufferImageCopy2 *v2)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   if (img->samples != VK_SAMPLE_COUNT_1_BIT) {
      /* VUID-vkCmdCopyBufferToImage-dstImage-07973 and its image-to-buffer
       * twin: a buffer holds no samples. */
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: the image has %u samples; buffer copies need a single-sampled image; "
                   "nothing recorded",
                   to_image ? "vkCmdCopyBufferToImage" : "vkCmdCopyImageToBuffer", img->samples);
      return;
   }
   uint64_t va = vkppu_buffer_address(buffer, 0);
   for (uint32_t i = 0; i < count; i++) {
      VkBufferImageCopy r =
          v1 ? v1[i] : (VkBufferImageCopy){v2[i].bufferOffset,      v2[i].bufferRowLength,
                                           v2[i].bufferImageHeight, v2[i].imageSubresource,
                                           v2[i].imageOffset,       v2[i].imageExtent};
      buffer_image_region(cmd, img, va, to_image, &r);
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyBufferToImage(VkCommandBuffer commandBuffer,
                                                      VkBuffer srcBuffer, VkImage dstImage,
                                                      VkImageLayout dstImageLayout,
                                                      uint32_t regionCount,
                                                      const VkBufferImageCopy *pRegions)
{
   (void)dstImageLayout;
   buffer_image_regions(commandBuffer, dstImage, srcBuffer, true, regionCount, pRegions, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyBufferToImage2(VkCommandBuffer commandBuffer,
                                                       const VkCopyBufferToImageInfo2 *info)
{
   buffer_image_regions(commandBuffer, info->dstImage, info->srcBuffer, true, info->regionCount,
                        NULL, info->pRegions);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyImageToBuffer(VkCommandBuffer commandBuffer,
                                                      VkImage srcImage,
                                                      VkImageLayout srcImageLayout,
                                                      VkBuffer dstBuffer, uint32_t regionCount,
                                                      const VkBufferImageCopy *pRegions)
{
   (void)srcImageLayout;
   buffer_image_regions(commandBuffer, srcImage, dstBuffer, false, regionCount, pRegions, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer,
                                                       const VkCopyImageToBufferInfo2 *info)
{
   buffer_image_regions(commandBuffer, info->srcImage, info->dstBuffer, false, info->regionCount,
                        NULL, info->pRegions);
}

/* One VkImageCopy region. A 3D side counts slices (extent.depth) where
 * the other counts layers; the engine checks that the two agree, so
 * LAYER_COUNT is the layer count of the side that has layers. */
static void image_image_region(struct vkppu_command_buffer *cmd, const struct vkppu_image *src,
                               const struct vkppu_image *dst, const VkImageCopy *r)
{
   struct drv_image_op op = {0};
   const VkImageSubresourceLayers *ss = &r->srcSubresource, *ds = &r->dstSubresource;
   uint32_t src_layers, dst_layers;
   if (!image_side(cmd, src, ss, &op.src_header, &src_layers) ||
       !image_side(cmd, dst, ds, &op.dst_header, &dst_layers))
      return;
   op.src_level = ss->mipLevel;
   op.src_layer = ss->baseArrayLayer;
   op.dst_level = ds->mipLevel;
   op.dst_layer = ds->baseArrayLayer;
   op.layer_count = src->whole.dim != PPU_TEX_DIM_3D   ? src_layers
                    : dst->whole.dim != PPU_TEX_DIM_3D ? dst_layers
                                                       : 1;
   /* Both sides have the same sample count (VUID-vkCmdCopyImage-srcImage-00136);
    * 4x pixels are 2x2 texels, so the region scales and every sample moves. */
   const int32_t k = (int32_t)vkppu_image_sample_scale(src);
   set3(op.src_offset, r->srcOffset.x * k, r->srcOffset.y * k, r->srcOffset.z);
   set3(op.dst_offset, r->dstOffset.x * k, r->dstOffset.y * k, r->dstOffset.z);
   set3(op.extent, (int32_t)r->extent.width * k, (int32_t)r->extent.height * k,
        (int32_t)r->extent.depth);
   op.aspect = copy_aspect(ss->aspectMask);
   drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_IMAGE_TO_IMAGE);
}

/* v1 or v2 regions, as buffer_image_regions. */
static void image_image_regions(VkCommandBuffer commandBuffer, VkImage srcImage, VkImage dstImage,
                                uint32_t count, const VkImageCopy *v1, const VkImageCopy2 *v2)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_image, src, srcImage);
   VKPPU_FROM_HANDLE(vkppu_image, dst, dstImage);
   if (src->samples != dst->samples) {
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCmdCopyImage: source has %u samples, destination %u; they must be equal "
                   "(resolve with vkCmdResolveImage); nothing recorded",
                   src->samples, dst->samples);
      return;
   }
   for (uint32_t i = 0; i < count; i++) {
      VkImageCopy r = v1 ? v1[i]
                         : (VkImageCopy){v2[i].srcSubresource, v2[i].srcOffset,
                                         v2[i].dstSubresource, v2[i].dstOffset, v2[i].extent};
      image_image_region(cmd, src, dst, &r);
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                                              VkImageLayout srcImageLayout, VkImage dstImage,
                                              VkImageLayout dstImageLayout, uint32_t regionCount,
                                              const VkImageCopy *pRegions)
{
   (void)srcImageLayout;
   (void)dstImageLayout;
   image_image_regions(commandBuffer, srcImage, dstImage, regionCount, pRegions, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyImage2(VkCommandBuffer commandBuffer,
                                               const VkCopyImageInfo2 *info)
{
   image_image_regions(commandBuffer, info->srcImage, info->dstImage, info->regionCount, NULL,
                       info->pRegions);
}

/* One VkImageBlit region: the copy engine's BLIT has Vulkan's semantics,
 * so the corners go through as they are (reversed corners mirror). Layer
 * counts are equal on both sides (Vulkan), 1 for 3D. */
static void blit_region(struct vkppu_command_buffer *cmd, const struct vkppu_image *src,
                        const struct vkppu_image *dst, const VkImageBlit *r, VkFilter filter)
{
   struct drv_image_op op = {0};
   const VkImageSubresourceLayers *ss = &r->srcSubresource, *ds = &r->dstSubresource;
   uint32_t src_layers, dst_layers;
   if (!image_side(cmd, src, ss, &op.src_header, &src_layers) ||
       !image_side(cmd, dst, ds, &op.dst_header, &dst_layers))
      return;
   op.src_level = ss->mipLevel;
   op.src_layer = ss->baseArrayLayer;
   op.dst_level = ds->mipLevel;
   op.dst_layer = ds->baseArrayLayer;
   bool any_3d = src->whole.dim == PPU_TEX_DIM_3D || dst->whole.dim == PPU_TEX_DIM_3D;
   op.layer_count = any_3d ? 1 : src_layers;
   op.aspect = copy_aspect(ss->aspectMask);
   for (unsigned c = 0; c < 2; c++) {
      const VkOffset3D so = r->srcOffsets[c], dof = r->dstOffsets[c];
      op.blit_src[c][0] = so.x, op.blit_src[c][1] = so.y, op.blit_src[c][2] = so.z;
      op.blit_dst[c][0] = dof.x, op.blit_dst[c][1] = dof.y, op.blit_dst[c][2] = dof.z;
   }
   op.blit_filter = filter == VK_FILTER_LINEAR ? PPU_COPY_FILTER_LINEAR : PPU_COPY_FILTER_NEAREST;
   drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_BLIT);
}

/* v1 or v2 regions, as buffer_image_regions. */
static void blit_regions(VkCommandBuffer commandBuffer, VkImage srcImage, VkImage dstImage,
                         uint32_t count, const VkImageBlit *v1, const VkImageBlit2 *v2,
                         VkFilter filter)
{
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_image, src, srcImage);
   VKPPU_FROM_HANDLE(vkppu_image, dst, dstImage);
   if (src->samples != VK_SAMPLE_COUNT_1_BIT || dst->samples != VK_SAMPLE_COUNT_1_BIT) {
      /* VUID-vkCmdBlitImage-srcImage-00233 / dstImage-00234 */
      vkppu_report(cmd->base.device->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCmdBlitImage: blits need single-sampled images (source %u, destination %u "
                   "samples); nothing recorded",
                   src->samples, dst->samples);
      return;
   }
   for (uint32_t i = 0; i < count; i++) {
      VkImageBlit r;
      if (v1) {
         r = v1[i];
      } else {
         r.srcSubresource = v2[i].srcSubresource;
         r.dstSubresource = v2[i].dstSubresource;
         memcpy(r.srcOffsets, v2[i].srcOffsets, sizeof(r.srcOffsets));
         memcpy(r.dstOffsets, v2[i].dstOffsets, sizeof(r.dstOffsets));
      }
      blit_region(cmd, src, dst, &r, filter);
   }
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                                              VkImageLayout srcImageLayout, VkImage dstImage,
                                              VkImageLayout dstImageLayout, uint32_t regionCount,
                                              const VkImageBlit *pRegions, VkFilter filter)
{
   (void)srcImageLayout;
   (void)dstImageLayout;
   blit_regions(commandBuffer, srcImage, dstImage, regionCount, pRegions, NULL, filter);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBlitImage2(VkCommandBuffer commandBuffer,
                                               const VkBlitImageInfo2 *info)
{
   blit_regions(commandBuffer, info->srcImage, info->dstImage, info->regionCount, NULL,
                info->pRegions, info->filter);
}

/* CLEAR_IMAGE over one VkImageSubresourceRange: whole levels of layers
 * (every slice of a 3D level), value words as the engine's CLEAR_VALUE. */
static void clear_range(struct vkppu_command_buffer *cmd, const struct vkppu_image *img,
                        const VkImageSubresourceRange *range, const uint32_t value[4])
{
   struct drv_image_op op = {0};
   uint32_t levels = range->levelCount == VK_REMAINING_MIP_LEVELS
                         ? img->mip_levels - range->baseMipLevel
                         : range->levelCount;
   uint32_t layers = layer_count_of(img, range->baseArrayLayer, range->layerCount);
   op.dst_header = upload_header(cmd, img, range->baseArrayLayer, layers);
   if (!op.dst_header)
      return;
   op.dst_level = range->baseMipLevel;
   op.level_count = levels;
   op.dst_layer = range->baseArrayLayer;
   op.layer_count = img->whole.dim == PPU_TEX_DIM_3D ? 1 : layers;
   op.aspect = copy_aspect(range->aspectMask);
   memcpy(op.clear_value, value, sizeof(op.clear_value));
   drv_emit_image_op(&cmd->pb, &op, PPU_COPY_OP_CLEAR_IMAGE);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image,
                                                    VkImageLayout imageLayout,
                                                    const VkClearColorValue *pColor,
                                                    uint32_t rangeCount,
                                                    const VkImageSubresourceRange *pRanges)
{
   (void)imageLayout;
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   /* float32, int32 and uint32 share the four words; the engine reads them
    * as the format's class does. */
   uint32_t value[4];
   memcpy(value, pColor->uint32, sizeof(value));
   for (uint32_t i = 0; i < rangeCount; i++)
      clear_range(cmd, img, &pRanges[i], value);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdClearDepthStencilImage(
    VkCommandBuffer commandBuffer, VkImage image, VkImageLayout imageLayout,
    const VkClearDepthStencilValue *pDepthStencil, uint32_t rangeCount,
    const VkImageSubresourceRange *pRanges)
{
   (void)imageLayout;
   VKPPU_FROM_HANDLE(vkppu_command_buffer, cmd, commandBuffer);
   VKPPU_FROM_HANDLE(vkppu_image, img, image);
   uint32_t value[4] = {0, pDepthStencil->stencil, 0, 0};
   memcpy(&value[0], &pDepthStencil->depth, 4);
   for (uint32_t i = 0; i < rangeCount; i++)
      clear_range(cmd, img, &pRanges[i], value);
}
