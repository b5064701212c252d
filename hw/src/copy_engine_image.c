/* Copy engine image operations: BUFFER_TO_IMAGE, IMAGE_TO_BUFFER,
 * IMAGE_TO_IMAGE and CLEAR_IMAGE (ppu/methods.h, docs/methods.md).
 *
 * An image is named by the VA of its texture header; the engine reads the
 * header through the MMU, checks every field it uses, and then moves rows:
 * one row of texels (or of 4x4 blocks) of one slice of one layer at a time,
 * split where the block-linear layout breaks it (every 64-byte GOB row),
 * each piece placed by ppu_tex_byte_offset, the one definition of where
 * texels live. A bad header or region is BAD_METHOD_DATA before any byte
 * moves; memory faults stop the operation where they happen, like COPY's. */
#include <stdlib.h>
#include <string.h>

#include "copy_engine.h"
#include "copy_engine_image.h"
#include "fault.h"
#include "ppu/methods.h"
#include "ppu/texture.h"
#include "texture/texel_codec.h"

bool ppu_copy_engine_image_state(struct ppu_copy_context *ctx, uint32_t method, uint32_t data)
{
   switch (method) {
   case PPU_COPY_SRC_HEADER_LO:
      ctx->src_header_va = (ctx->src_header_va & ~0xffffffffull) | data;
      return true;
   case PPU_COPY_SRC_HEADER_HI:
      ctx->src_header_va = (ctx->src_header_va & 0xffffffffull) | (uint64_t)data << 32;
      return true;
   case PPU_COPY_DST_HEADER_LO:
      ctx->dst_header_va = (ctx->dst_header_va & ~0xffffffffull) | data;
      return true;
   case PPU_COPY_DST_HEADER_HI:
      ctx->dst_header_va = (ctx->dst_header_va & 0xffffffffull) | (uint64_t)data << 32;
      return true;
   case PPU_COPY_BUFFER_ROW_LENGTH:
      ctx->buffer_row_length = data;
      return true;
   case PPU_COPY_BUFFER_IMAGE_HEIGHT:
      ctx->buffer_image_height = data;
      return true;
   case PPU_COPY_SRC_LEVEL:
      ctx->src_level = data;
      return true;
   case PPU_COPY_SRC_LAYER:
      ctx->src_layer = data;
      return true;
   case PPU_COPY_DST_LEVEL:
      ctx->dst_level = data;
      return true;
   case PPU_COPY_DST_LAYER:
      ctx->dst_layer = data;
      return true;
   case PPU_COPY_LAYER_COUNT:
      ctx->layer_count = data;
      return true;
   case PPU_COPY_LEVEL_COUNT:
      ctx->level_count = data;
      return true;
   case PPU_COPY_SRC_OFFSET_X:
   case PPU_COPY_SRC_OFFSET_Y:
   case PPU_COPY_SRC_OFFSET_Z:
      ctx->src_offset[method - PPU_COPY_SRC_OFFSET_X] = data;
      return true;
   case PPU_COPY_DST_OFFSET_X:
   case PPU_COPY_DST_OFFSET_Y:
   case PPU_COPY_DST_OFFSET_Z:
      ctx->dst_offset[method - PPU_COPY_DST_OFFSET_X] = data;
      return true;
   case PPU_COPY_EXTENT_WIDTH:
   case PPU_COPY_EXTENT_HEIGHT:
   case PPU_COPY_EXTENT_DEPTH:
      ctx->extent[method - PPU_COPY_EXTENT_WIDTH] = data;
      return true;
   case PPU_COPY_ASPECT:
      ctx->aspect = data;
      return true;
   case PPU_COPY_CLEAR_VALUE_0:
   case PPU_COPY_CLEAR_VALUE_1:
   case PPU_COPY_CLEAR_VALUE_2:
   case PPU_COPY_CLEAR_VALUE_3:
      ctx->clear_value[method - PPU_COPY_CLEAR_VALUE_0] = data;
      return true;
   default:
      return false;
   }
}

enum ppu_method_status ppu_ce_bad(struct ppu_fault *fault, const char *side, const char *what,
                                  uint64_t v1, uint64_t v2)
{
   ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY, "%s%s%s (0x%llx, 0x%llx)",
                 side ? side : "", side ? ": " : "", what, (unsigned long long)v1,
                 (unsigned long long)v2);
   return PPU_METHOD_FAULT;
}

/* Reads the header at va and checks the image fields this engine uses;
 * the view fields other than the layer range are the texture unit's. */
enum ppu_method_status ppu_ce_load_image(struct ppu_copy_engine *ce, uint64_t pd_pa, uint64_t va,
                                         unsigned level, struct image_side *s,
                                         struct ppu_fault *fault)
{
   if (va & (PPU_TEX_HEADER_ALIGN - 1))
      return ppu_ce_bad(fault, s->name, "header VA not 64-byte aligned (VA, 0)", va, 0);
   if (!ppu_mmu_read(&ce->mmu, pd_pa, va, &s->h, sizeof(s->h), fault))
      return PPU_METHOD_FAULT;
   const struct ppu_texture_header *h = &s->h;
   if (h->format == PPU_TEX_FORMAT_INVALID || h->format >= PPU_TEX_FORMAT_COUNT)
      return ppu_ce_bad(fault, s->name, "format INVALID or out of range (format, header VA)",
                        h->format, va);
   if (h->dim > PPU_TEX_DIM_CUBE || h->layout > PPU_TEX_LAYOUT_BLOCK_LINEAR)
      return ppu_ce_bad(fault, s->name, "undefined dim or layout (dim, layout)", h->dim, h->layout);
   if (h->width == 0 || h->height == 0 || h->depth == 0 || h->width > PPU_TEX_MAX_EXTENT ||
       h->height > PPU_TEX_MAX_EXTENT || h->depth > PPU_TEX_MAX_EXTENT)
      return ppu_ce_bad(fault, s->name, "extent 0 or above 16384 (width, height << 32 | depth)",
                        h->width, (uint64_t)h->height << 32 | h->depth);
   if ((h->dim == PPU_TEX_DIM_1D && h->height != 1) || (h->dim != PPU_TEX_DIM_3D && h->depth != 1))
      return ppu_ce_bad(fault, s->name,
                        "height of a 1D or depth of a non-3D image is not 1 (dim, extent)", h->dim,
                        (uint64_t)h->height << 32 | h->depth);
   if (h->image_levels == 0 || h->image_levels > PPU_TEX_MAX_LEVELS)
      return ppu_ce_bad(fault, s->name, "image_levels 0 or above 15 (image_levels, 0)",
                        h->image_levels, 0);
   if (level >= h->image_levels)
      return ppu_ce_bad(fault, s->name, "level beyond image_levels (level, image_levels)", level,
                        h->image_levels);
   if (h->samples_log2 != 0)
      return ppu_ce_bad(fault, s->name, "multisampled images are not supported (samples_log2, 0)",
                        h->samples_log2, 0);
   if (h->layer_count == 0)
      return ppu_ce_bad(fault, s->name, "layer_count 0 (layer_count, 0)", 0, 0);
   if (h->layout == PPU_TEX_LAYOUT_BLOCK_LINEAR) {
      if (h->block_height_log2 > PPU_TEX_MAX_BLOCK_HEIGHT_LOG2)
         return ppu_ce_bad(fault, s->name, "block_height_log2 above 5 (block_height_log2, 0)",
                           h->block_height_log2, 0);
      if (h->address & (PPU_GOB_BYTES - 1))
         return ppu_ce_bad(fault, s->name,
                           "block-linear image address not 512-byte aligned (address, 0)",
                           h->address, 0);
   } else if (h->row_pitch < ppu_tex_level_row_bytes(h, 0)) {
      return ppu_ce_bad(fault, s->name,
                        "linear row_pitch below the bytes of a row (row_pitch, bytes)",
                        h->row_pitch, ppu_tex_level_row_bytes(h, 0));
   }
   s->level = level;
   s->elem_bytes = ppu_tex_format_bytes(h->format);
   s->compressed = ppu_tex_format_is_compressed(h->format);
   s->is_3d = h->dim == PPU_TEX_DIM_3D;
   s->level_texels[0] = ppu_tex_level_extent(h->width, level);
   s->level_texels[1] = ppu_tex_level_extent(h->height, level);
   s->level_texels[2] = s->is_3d ? ppu_tex_level_extent(h->depth, level) : 1;
   s->level_elems[0] = ppu_tex_level_row_bytes(h, level) / s->elem_bytes;
   s->level_elems[1] = ppu_tex_level_rows(h, level);
   return PPU_METHOD_DONE;
}

/* Checks that planes [first, first + count) exist: slices of the level of
 * a 3D image (its one layer must be in the view), else layers of the
 * header's view; and that layer_stride keeps layers apart. */
enum ppu_method_status ppu_ce_set_planes(struct image_side *s, uint32_t layer, uint32_t offset_z,
                                         uint64_t count, struct ppu_fault *fault)
{
   const struct ppu_texture_header *h = &s->h;
   uint64_t first_layer = layer, layers = s->is_3d ? 1 : count;
   if (!s->is_3d && offset_z != 0)
      return ppu_ce_bad(fault, s->name, "OFFSET_Z of an image that is not 3D (offset, 0)", offset_z,
                        0);
   if (s->is_3d && (uint64_t)offset_z + count > s->level_texels[2])
      return ppu_ce_bad(fault, s->name,
                        "slices beyond the level's depth (offset_z + depth, level depth)",
                        (uint64_t)offset_z + count, s->level_texels[2]);
   if (first_layer < h->base_layer ||
       first_layer + layers > (uint64_t)h->base_layer + h->layer_count)
      return ppu_ce_bad(fault, s->name, "layers outside the header's layer range (first, count)",
                        first_layer, layers);
   if (first_layer + layers > 1 && h->layer_stride < ppu_tex_layer_size(h))
      return ppu_ce_bad(fault, s->name, "layer_stride below the size of a layer (stride, size)",
                        h->layer_stride, ppu_tex_layer_size(h));
   s->first_plane = s->is_3d ? offset_z : layer;
   s->layer = layer;
   return PPU_METHOD_DONE;
}

/* Sets the region from an offset and extent in this side's texels: whole
 * 4x4 blocks for compressed formats (offsets multiples of 4, extents too
 * unless they reach the level's edge, as Vulkan's copy rules say). */
static enum ppu_method_status set_region(struct image_side *s, const uint32_t offset[2],
                                         const uint32_t extent[2], struct ppu_fault *fault)
{
   uint32_t elems[2];
   for (unsigned d = 0; d < 2; d++) {
      uint64_t end = (uint64_t)offset[d] + extent[d];
      if (end > s->level_texels[d])
         return ppu_ce_bad(fault, s->name,
                           d ? "region below the level's height (offset_y + height, level height)"
                             : "region beyond the level's width (offset_x + width, level width)",
                           end, s->level_texels[d]);
      if (s->compressed && (offset[d] % 4 || (extent[d] % 4 && end != s->level_texels[d])))
         return ppu_ce_bad(fault, s->name, "region not made of whole 4x4 blocks (offset, extent)",
                           offset[d], extent[d]);
      elems[d] = s->compressed ? ppu_tex_div_round_up(extent[d], 4) : extent[d];
   }
   s->x = s->compressed ? offset[0] / 4 : offset[0];
   s->y = s->compressed ? offset[1] / 4 : offset[1];
   s->width = elems[0];
   s->height = elems[1];
   return PPU_METHOD_DONE;
}

/* Reads (write false) or writes bytes of element row y of plane p of the
 * region, from element x_elem on, piece by piece: a linear row is one
 * piece, a block-linear one breaks at every 64-byte GOB column. */
bool ppu_ce_image_row(struct ppu_copy_engine *ce, uint64_t pd_pa, const struct image_side *s,
                      uint32_t p, uint32_t y, void *host, uint64_t bytes, bool write,
                      struct ppu_fault *fault)
{
   uint32_t plane = s->first_plane + p;
   uint32_t layer = s->is_3d ? s->layer : plane, z = s->is_3d ? plane : 0;
   uint32_t x_bytes = s->x * s->elem_bytes;
   uint8_t *h = host;
   while (bytes) {
      uint64_t piece = bytes;
      if (s->h.layout == PPU_TEX_LAYOUT_BLOCK_LINEAR &&
          piece > PPU_GOB_WIDTH_BYTES - x_bytes % PPU_GOB_WIDTH_BYTES)
         piece = PPU_GOB_WIDTH_BYTES - x_bytes % PPU_GOB_WIDTH_BYTES;
      uint64_t va = s->h.address + ppu_tex_byte_offset(&s->h, s->level, layer, x_bytes, y, z);
      bool ok = write ? ppu_mmu_write(&ce->mmu, pd_pa, va, h, piece, fault)
                      : ppu_mmu_read(&ce->mmu, pd_pa, va, h, piece, fault);
      if (!ok)
         return false;
      h += piece;
      x_bytes += (uint32_t)piece;
      bytes -= piece;
   }
   return true;
}

bool ppu_ce_is_depth_stencil(unsigned format)
{
   return format >= PPU_TEX_FORMAT_D16_UNORM && format <= PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
}

enum ppu_method_status ppu_ce_aspect_bytes(const struct image_side *s, uint32_t aspect,
                                           bool buffer_copy, struct aspect_bytes *a,
                                           struct ppu_fault *fault)
{
   unsigned format = s->h.format;
   *a = (struct aspect_bytes){s->elem_bytes, 0, s->elem_bytes, false};
   if (aspect & ~PPU_CE_ASPECT_ALL)
      return ppu_ce_bad(fault, NULL, "ASPECT has undefined bits (ASPECT, 0)", aspect, 0);
   if (aspect && !ppu_ce_is_depth_stencil(format))
      return ppu_ce_bad(fault, s->name, "ASPECT set for a color format (ASPECT, format)", aspect,
                        format);
   bool has_depth = ppu_ce_is_depth_stencil(format) && format != PPU_TEX_FORMAT_S8_UINT;
   bool has_stencil = format == PPU_TEX_FORMAT_S8_UINT ||
                      format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT ||
                      format == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
   if (((aspect & PPU_COPY_ASPECT_DEPTH) && !has_depth) ||
       ((aspect & PPU_COPY_ASPECT_STENCIL) && !has_stencil))
      return ppu_ce_bad(fault, s->name, "ASPECT names an aspect the format lacks (ASPECT, format)",
                        aspect, format);
   if (!(has_depth && has_stencil))
      return PPU_METHOD_DONE;
   if (aspect == 0 || aspect == PPU_CE_ASPECT_ALL) {
      if (buffer_copy)
         return ppu_ce_bad(
             fault, s->name,
             "buffer copies of a depth/stencil format take one aspect (ASPECT, format)", aspect,
             format);
      return PPU_METHOD_DONE;
   }
   bool d24 = format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT;
   if (aspect == PPU_COPY_ASPECT_DEPTH)
      *a = (struct aspect_bytes){4, 0, d24 ? 3 : 4, true};
   else
      *a = (struct aspect_bytes){1, d24 ? 3 : 4, 1, true};
   return PPU_METHOD_DONE;
}

/* Host rows for one launch: image rows of up to 16384 elements of 16 bytes. */
struct rows {
   uint8_t *image, *other;
};

static bool rows_alloc(struct rows *r, uint64_t bytes, struct ppu_fault *fault)
{
   r->image = malloc(bytes ? bytes : 1);
   r->other = malloc(bytes ? bytes : 1);
   if (r->image && r->other)
      return true;
   free(r->image);
   free(r->other);
   ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY,
                 "image operation: no host memory for a row of %llu bytes",
                 (unsigned long long)bytes);
   return false;
}

static void rows_free(struct rows *r)
{
   free(r->image);
   free(r->other);
}

/* The buffer side of BUFFER_TO_IMAGE / IMAGE_TO_BUFFER, Vulkan's rules:
 * rows BUFFER_ROW_LENGTH texels apart, planes BUFFER_IMAGE_HEIGHT rows
 * apart (0 = the extent), in elements for compressed formats. */
struct buffer_side {
   uint64_t va, row_pitch, plane_pitch;
};

static enum ppu_method_status buffer_layout(const struct ppu_copy_context *ctx,
                                            const struct image_side *s, uint64_t va,
                                            const struct aspect_bytes *a, struct buffer_side *b,
                                            struct ppu_fault *fault)
{
   uint32_t row_length = ctx->buffer_row_length ? ctx->buffer_row_length : ctx->extent[0];
   uint32_t image_height = ctx->buffer_image_height ? ctx->buffer_image_height : ctx->extent[1];
   if (row_length < ctx->extent[0] || image_height < ctx->extent[1])
      return ppu_ce_bad(
          fault, NULL,
          "BUFFER_ROW_LENGTH or BUFFER_IMAGE_HEIGHT below the extent (row length, height)",
          row_length, image_height);
   uint64_t row_elems = s->compressed ? ppu_tex_div_round_up(row_length, 4) : row_length;
   uint64_t plane_rows = s->compressed ? ppu_tex_div_round_up(image_height, 4) : image_height;
   b->va = va;
   b->row_pitch = row_elems * a->buffer_bytes;
   b->plane_pitch = plane_rows * b->row_pitch;
   return PPU_METHOD_DONE;
}

/* Plane count of one side: EXTENT_DEPTH slices of a 3D image, else
 * LAYER_COUNT layers; the other count must then be 1. */
static enum ppu_method_status side_planes(const struct ppu_copy_context *ctx, struct image_side *s,
                                          uint32_t layer, uint32_t offset_z, bool check_other,
                                          uint64_t *planes, struct ppu_fault *fault)
{
   *planes = s->is_3d ? ctx->extent[2] : ctx->layer_count;
   if (*planes == 0)
      return ppu_ce_bad(fault, s->name, "EXTENT_DEPTH or LAYER_COUNT is 0 (depth, layers)",
                        ctx->extent[2], ctx->layer_count);
   if (check_other && (s->is_3d ? ctx->layer_count : ctx->extent[2]) != 1)
      return ppu_ce_bad(
          fault, s->name,
          "LAYER_COUNT of a 3D image or EXTENT_DEPTH of another is not 1 (depth, layers)",
          ctx->extent[2], ctx->layer_count);
   return ppu_ce_set_planes(s, layer, offset_z, *planes, fault);
}

static enum ppu_method_status check_extent(const struct ppu_copy_context *ctx,
                                           struct ppu_fault *fault)
{
   if (ctx->extent[0] == 0 || ctx->extent[1] == 0 || ctx->extent[2] == 0)
      return ppu_ce_bad(fault, NULL, "EXTENT has a 0 (width, height << 32 | depth)", ctx->extent[0],
                        (uint64_t)ctx->extent[1] << 32 | ctx->extent[2]);
   return PPU_METHOD_DONE;
}

static enum ppu_method_status buffer_image(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                           uint64_t pd_pa, bool to_image, struct ppu_fault *fault)
{
   struct image_side s = {.name = to_image ? "DST_HEADER" : "SRC_HEADER"};
   uint32_t level = to_image ? ctx->dst_level : ctx->src_level;
   uint32_t layer = to_image ? ctx->dst_layer : ctx->src_layer;
   const uint32_t *offset = to_image ? ctx->dst_offset : ctx->src_offset;
   uint64_t planes = 0;
   struct aspect_bytes a = {0};
   struct buffer_side b = {0};
   PPU_CE_TRY(check_extent(ctx, fault));
   PPU_CE_TRY(ppu_ce_load_image(ce, pd_pa, to_image ? ctx->dst_header_va : ctx->src_header_va,
                                level, &s, fault));
   PPU_CE_TRY(set_region(&s, offset, ctx->extent, fault));
   PPU_CE_TRY(side_planes(ctx, &s, layer, offset[2], true, &planes, fault));
   PPU_CE_TRY(ppu_ce_aspect_bytes(&s, ctx->aspect, true, &a, fault));
   PPU_CE_TRY(buffer_layout(ctx, &s, to_image ? ctx->src_va : ctx->dst_va, &a, &b, fault));

   struct rows r;
   uint64_t image_bytes = (uint64_t)s.width * s.elem_bytes;
   uint64_t buffer_bytes = (uint64_t)s.width * a.buffer_bytes;
   if (!rows_alloc(&r, image_bytes, fault))
      return PPU_METHOD_FAULT;
   bool ok = true;
   for (uint32_t p = 0; ok && p < planes; p++)
      for (uint32_t y = 0; ok && y < s.height; y++) {
         uint64_t buffer_va = b.va + p * b.plane_pitch + y * b.row_pitch;
         uint32_t img_y = s.y + y;
         if (to_image) {
            if (!a.partial) {
               ok = ppu_mmu_read(&ce->mmu, pd_pa, buffer_va, r.image, image_bytes, fault) &&
                    ppu_ce_image_row(ce, pd_pa, &s, p, img_y, r.image, image_bytes, true, fault);
               continue;
            }
            ok = ppu_mmu_read(&ce->mmu, pd_pa, buffer_va, r.other, buffer_bytes, fault) &&
                 ppu_ce_image_row(ce, pd_pa, &s, p, img_y, r.image, image_bytes, false, fault);
            for (uint32_t i = 0; ok && i < s.width; i++)
               memcpy(r.image + i * s.elem_bytes + a.first, r.other + i * a.buffer_bytes, a.count);
            ok = ok && ppu_ce_image_row(ce, pd_pa, &s, p, img_y, r.image, image_bytes, true, fault);
         } else {
            ok = ppu_ce_image_row(ce, pd_pa, &s, p, img_y, r.image, image_bytes, false, fault);
            const uint8_t *out = r.image;
            if (ok && a.partial) {
               memset(r.other, 0, buffer_bytes);
               for (uint32_t i = 0; i < s.width; i++)
                  memcpy(r.other + i * a.buffer_bytes, r.image + i * s.elem_bytes + a.first,
                         a.count);
               out = r.other;
            }
            ok = ok && ppu_mmu_write(&ce->mmu, pd_pa, buffer_va, out, buffer_bytes, fault);
         }
      }
   rows_free(&r);
   if (!ok)
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_IMAGE_BYTES,
                   planes * s.height * (uint64_t)s.width * a.count);
   return PPU_METHOD_DONE;
}

/* IMAGE_TO_IMAGE: Vulkan's "size-compatible" rule, elements of the same
 * size; EXTENT is in source texels, so a compressed source's block lands
 * on one texel of an uncompressed destination and the reverse. Depth and
 * stencil formats copy only to the same format. */
static enum ppu_method_status image_image(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                          uint64_t pd_pa, struct ppu_fault *fault)
{
   struct image_side src = {.name = "SRC_HEADER"}, dst = {.name = "DST_HEADER"};
   uint64_t src_planes = 0, dst_planes = 0;
   struct aspect_bytes a = {0};
   PPU_CE_TRY(check_extent(ctx, fault));
   PPU_CE_TRY(ppu_ce_load_image(ce, pd_pa, ctx->src_header_va, ctx->src_level, &src, fault));
   PPU_CE_TRY(ppu_ce_load_image(ce, pd_pa, ctx->dst_header_va, ctx->dst_level, &dst, fault));
   if (src.elem_bytes != dst.elem_bytes)
      return ppu_ce_bad(fault, NULL, "IMAGE_TO_IMAGE between formats of different sizes (src, dst)",
                        src.h.format, dst.h.format);
   if ((ppu_ce_is_depth_stencil(src.h.format) || ppu_ce_is_depth_stencil(dst.h.format)) &&
       src.h.format != dst.h.format)
      return ppu_ce_bad(fault, NULL, "IMAGE_TO_IMAGE of depth/stencil needs one format (src, dst)",
                        src.h.format, dst.h.format);
   PPU_CE_TRY(set_region(&src, ctx->src_offset, ctx->extent, fault));
   /* The destination's extent in its own texels covers the same elements. */
   uint32_t dst_extent[2];
   for (unsigned d = 0; d < 2; d++) {
      uint32_t elems = d ? src.height : src.width;
      uint64_t texels = dst.compressed ? (uint64_t)elems * 4 : elems;
      /* A last block past the edge of a compressed destination level is
       * allowed (it covers the level's partial block). */
      uint64_t room =
          dst.level_texels[d] > ctx->dst_offset[d] ? dst.level_texels[d] - ctx->dst_offset[d] : 0;
      if (dst.compressed && texels > room && (texels - room) < 4)
         texels = room;
      dst_extent[d] = texels > UINT32_MAX ? UINT32_MAX : (uint32_t)texels;
   }
   PPU_CE_TRY(set_region(&dst, ctx->dst_offset, dst_extent, fault));
   if (dst.width != src.width || dst.height != src.height)
      return ppu_ce_bad(fault, NULL, "IMAGE_TO_IMAGE regions differ in elements (src w, dst w)",
                        src.width, dst.width);
   /* A 3D side counts slices, another layers; both must be the same count
    * (Vulkan lets 2D array layers and 3D slices meet). */
   PPU_CE_TRY(side_planes(ctx, &src, ctx->src_layer, ctx->src_offset[2], src.is_3d == dst.is_3d,
                          &src_planes, fault));
   PPU_CE_TRY(side_planes(ctx, &dst, ctx->dst_layer, ctx->dst_offset[2], src.is_3d == dst.is_3d,
                          &dst_planes, fault));
   if (src_planes != dst_planes)
      return ppu_ce_bad(fault, NULL, "IMAGE_TO_IMAGE plane counts differ (src, dst)", src_planes,
                        dst_planes);
   PPU_CE_TRY(ppu_ce_aspect_bytes(&dst, ctx->aspect, false, &a, fault));

   struct rows r;
   uint64_t bytes = (uint64_t)src.width * src.elem_bytes;
   if (!rows_alloc(&r, bytes, fault))
      return PPU_METHOD_FAULT;
   bool ok = true;
   for (uint32_t p = 0; ok && p < src_planes; p++)
      for (uint32_t y = 0; ok && y < src.height; y++) {
         ok = ppu_ce_image_row(ce, pd_pa, &src, p, src.y + y, r.image, bytes, false, fault);
         uint8_t *out = r.image;
         if (ok && a.partial) {
            ok = ppu_ce_image_row(ce, pd_pa, &dst, p, dst.y + y, r.other, bytes, false, fault);
            for (uint32_t i = 0; i < src.width; i++)
               memcpy(r.other + i * src.elem_bytes + a.first,
                      r.image + i * src.elem_bytes + a.first, a.count);
            out = r.other;
         }
         ok = ok && ppu_ce_image_row(ce, pd_pa, &dst, p, dst.y + y, out, bytes, true, fault);
      }
   rows_free(&r);
   if (!ok)
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_IMAGE_BYTES,
                   src_planes * src.height * (uint64_t)src.width * a.count);
   return PPU_METHOD_DONE;
}

/* CLEAR_IMAGE: whole levels DST_LEVEL .. + LEVEL_COUNT of layers
 * DST_LAYER .. + LAYER_COUNT (every slice of a 3D level). The value is
 * CLEAR_VALUE encoded by the texel codec: four words as the format's class
 * reads them (floats, uints or ints), or depth (float bits in word 0) and
 * stencil (word 1), like VkClearColorValue / VkClearDepthStencilValue. */
static enum ppu_method_status clear_image(struct ppu_copy_engine *ce, struct ppu_copy_context *ctx,
                                          uint64_t pd_pa, struct ppu_fault *fault)
{
   struct image_side s = {.name = "DST_HEADER"};
   struct aspect_bytes a = {0};
   PPU_CE_TRY(ppu_ce_load_image(ce, pd_pa, ctx->dst_header_va, ctx->dst_level, &s, fault));
   if (s.compressed)
      return ppu_ce_bad(fault, s.name, "CLEAR_IMAGE of a block-compressed format (format, 0)",
                        s.h.format, 0);
   if (ctx->level_count == 0 || (uint64_t)ctx->dst_level + ctx->level_count > s.h.image_levels)
      return ppu_ce_bad(fault, s.name,
                        "levels beyond image_levels (DST_LEVEL + LEVEL_COUNT, levels)",
                        (uint64_t)ctx->dst_level + ctx->level_count, s.h.image_levels);
   if (ctx->layer_count == 0)
      return ppu_ce_bad(fault, s.name, "LAYER_COUNT is 0 (0, 0)", 0, 0);
   if (s.is_3d && ctx->layer_count != 1)
      return ppu_ce_bad(fault, s.name, "LAYER_COUNT of a 3D image is not 1 (LAYER_COUNT, 0)",
                        ctx->layer_count, 0);
   PPU_CE_TRY(ppu_ce_set_planes(&s, ctx->dst_layer, 0, s.is_3d ? 1 : ctx->layer_count, fault));
   PPU_CE_TRY(ppu_ce_aspect_bytes(&s, ctx->aspect, false, &a, fault));

   /* One encoded texel: depth and stencil aspects encode into their own
    * bits (the codec leaves the other aspect's bits alone). */
   uint8_t texel[16] = {0};
   unsigned format = s.h.format;
   if (ppu_ce_is_depth_stencil(format)) {
      struct ppu_texel depth = {{{0}}}, stencil = {{{0}}};
      depth.u[0] = ctx->clear_value[0];
      stencil.u[0] = ctx->clear_value[1];
      uint32_t aspect = ctx->aspect ? ctx->aspect : PPU_CE_ASPECT_ALL;
      if ((aspect & PPU_COPY_ASPECT_DEPTH) && format != PPU_TEX_FORMAT_S8_UINT)
         ppu_texel_encode(format, &depth, false, texel);
      if (aspect & PPU_COPY_ASPECT_STENCIL)
         ppu_texel_encode(format, &stencil, true, texel);
   } else {
      struct ppu_texel color;
      memcpy(color.u, ctx->clear_value, sizeof(color.u));
      ppu_texel_encode(format, &color, false, texel);
   }

   struct rows r;
   uint32_t row0 = ppu_tex_level_row_bytes(&s.h, ctx->dst_level);
   if (!rows_alloc(&r, row0, fault))
      return PPU_METHOD_FAULT;
   for (uint32_t i = 0; i < row0 / s.elem_bytes; i++)
      memcpy(r.other + i * s.elem_bytes, texel, s.elem_bytes);
   bool ok = true;
   uint64_t moved = 0;
   for (uint32_t level = ctx->dst_level; ok && level < ctx->dst_level + ctx->level_count; level++) {
      struct image_side ls = s;
      ls.level = level;
      ls.x = 0;
      uint32_t width = ppu_tex_level_extent(s.h.width, level);
      uint32_t rows = ppu_tex_level_rows(&s.h, level);
      uint32_t planes = s.is_3d ? ppu_tex_level_extent(s.h.depth, level) : ctx->layer_count;
      uint64_t bytes = (uint64_t)width * s.elem_bytes;
      for (uint32_t p = 0; ok && p < planes; p++)
         for (uint32_t y = 0; ok && y < rows; y++) {
            if (!a.partial) {
               ok = ppu_ce_image_row(ce, pd_pa, &ls, p, y, r.other, bytes, true, fault);
               continue;
            }
            ok = ppu_ce_image_row(ce, pd_pa, &ls, p, y, r.image, bytes, false, fault);
            for (uint32_t i = 0; ok && i < width; i++)
               memcpy(r.image + i * s.elem_bytes + a.first, texel + a.first, a.count);
            ok = ok && ppu_ce_image_row(ce, pd_pa, &ls, p, y, r.image, bytes, true, fault);
         }
      moved += (uint64_t)planes * rows * width * a.count;
   }
   rows_free(&r);
   if (!ok)
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_IMAGE_BYTES, moved);
   return PPU_METHOD_DONE;
}

enum ppu_method_status ppu_copy_engine_image_launch(struct ppu_copy_engine *ce,
                                                    struct ppu_copy_context *ctx, uint64_t pd_pa,
                                                    uint32_t op, struct ppu_fault *fault)
{
   switch (op) {
   case PPU_COPY_OP_BUFFER_TO_IMAGE:
      return buffer_image(ce, ctx, pd_pa, true, fault);
   case PPU_COPY_OP_IMAGE_TO_BUFFER:
      return buffer_image(ce, ctx, pd_pa, false, fault);
   case PPU_COPY_OP_IMAGE_TO_IMAGE:
      return image_image(ce, ctx, pd_pa, fault);
   default:
      return clear_image(ce, ctx, pd_pa, fault);
   }
}
