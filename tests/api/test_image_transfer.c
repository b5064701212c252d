/* Transfer commands on images through the loader with validation on:
 * every format whose optimal (or linear) features include TRANSFER_SRC and
 * TRANSFER_DST round-trips random bytes buffer -> image -> image -> buffer
 * over 1D/2D/3D, array and mipmapped shapes with odd extents, offsets and
 * bufferRowLength/bufferImageHeight, checked bit for bit against a host
 * model (depth and stencil one aspect at a time); color and depth/stencil
 * clears checked against the encodings the spec defines; blits (scale,
 * mirror, linear, format conversion) against a CPU reference written from
 * "Image Copies With Scaling"; and the VK_KHR_copy_commands2 forms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_test_util.h"
#include "vk_test_context.h"

/* ---- formats ------------------------------------------------------------ */

/* Bytes of a texel, or of a block of block_w x block_h texels. */
struct fmt_size {
   uint32_t bytes, block_w, block_h;
};

static struct fmt_size format_size(VkFormat f)
{
   if (f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= VK_FORMAT_BC7_SRGB_BLOCK) {
      bool eight = f <= VK_FORMAT_BC1_RGBA_SRGB_BLOCK || f == VK_FORMAT_BC4_UNORM_BLOCK ||
                   f == VK_FORMAT_BC4_SNORM_BLOCK;
      return (struct fmt_size){eight ? 8u : 16u, 4, 4};
   }
   static const struct {
      VkFormat first, last;
      uint32_t bytes;
   } ranges[] = {
       {VK_FORMAT_R4G4_UNORM_PACK8, VK_FORMAT_R4G4_UNORM_PACK8, 1},
       {VK_FORMAT_R4G4B4A4_UNORM_PACK16, VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2},
       {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SRGB, 1},
       {VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SRGB, 2},
       {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_SRGB, 3},
       {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_A2B10G10R10_SINT_PACK32, 4},
       {VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SFLOAT, 2},
       {VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SFLOAT, 4},
       {VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16_SFLOAT, 6},
       {VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, 8},
       {VK_FORMAT_R32_UINT, VK_FORMAT_R32_SFLOAT, 4},
       {VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SFLOAT, 8},
       {VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_SFLOAT, 12},
       {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
       {VK_FORMAT_R64_UINT, VK_FORMAT_R64_SFLOAT, 8},
       {VK_FORMAT_R64G64_UINT, VK_FORMAT_R64G64_SFLOAT, 16},
       {VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4},
       {VK_FORMAT_D16_UNORM, VK_FORMAT_D16_UNORM, 2},
       {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, 4},
       {VK_FORMAT_S8_UINT, VK_FORMAT_S8_UINT, 1},
       {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, 4},
       {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, 8},
   };
   for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
      if (f >= ranges[i].first && f <= ranges[i].last)
         return (struct fmt_size){ranges[i].bytes, 1, 1};
   return (struct fmt_size){0, 1, 1};
}

/* What one aspect of a format looks like in a buffer (Vulkan "Copying Data
 * Between Buffers and Images": D24 takes 4 bytes with its top 8 bits
 * undefined, D32 depth 4 bytes, stencil 1 byte). `mask` is the bits of
 * each 4-byte group (or of the element) the spec defines. */
struct aspect_plane {
   VkImageAspectFlags aspect;
   uint32_t bytes;
   uint32_t mask32; /* per 32-bit little-endian word; 0xffffffff = all */
   bool unit_float; /* depth floats must be in [0, 1] in the buffer */
};

static unsigned aspect_planes(VkFormat f, struct aspect_plane out[2])
{
   switch (f) {
   case VK_FORMAT_D16_UNORM:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_DEPTH_BIT, 2, 0xffffffffu, false};
      return 1;
   case VK_FORMAT_X8_D24_UNORM_PACK32:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_DEPTH_BIT, 4, 0x00ffffffu, false};
      return 1;
   case VK_FORMAT_D32_SFLOAT:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_DEPTH_BIT, 4, 0xffffffffu, true};
      return 1;
   case VK_FORMAT_S8_UINT:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_STENCIL_BIT, 1, 0xffffffffu, false};
      return 1;
   case VK_FORMAT_D24_UNORM_S8_UINT:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_DEPTH_BIT, 4, 0x00ffffffu, false};
      out[1] = (struct aspect_plane){VK_IMAGE_ASPECT_STENCIL_BIT, 1, 0xffffffffu, false};
      return 2;
   case VK_FORMAT_D32_SFLOAT_S8_UINT:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_DEPTH_BIT, 4, 0xffffffffu, true};
      out[1] = (struct aspect_plane){VK_IMAGE_ASPECT_STENCIL_BIT, 1, 0xffffffffu, false};
      return 2;
   default:
      out[0] = (struct aspect_plane){VK_IMAGE_ASPECT_COLOR_BIT, format_size(f).bytes, 0xffffffffu,
                                     false};
      return 1;
   }
}

static VkImageAspectFlags all_aspects(VkFormat f)
{
   struct aspect_plane p[2];
   unsigned n = aspect_planes(f, p);
   return n == 2 ? p[0].aspect | p[1].aspect : p[0].aspect;
}

/* ---- images ------------------------------------------------------------- */

struct image {
   VkImage image;
   VkDeviceMemory memory;
   VkImageCreateInfo info;
};

static bool image_create(struct vkt_device *dev, const VkImageCreateInfo *ci, struct image *out)
{
   memset(out, 0, sizeof(*out));
   out->info = *ci;
   struct vkt_image img;
   if (!vkt_image_create(dev, ci, VKT_NO_VIEW, &img))
      return false;
   out->image = img.image;
   out->memory = img.memory;
   return true;
}

static void image_destroy(struct vkt_device *dev, struct image *img)
{
   struct vkt_image vk = {img->image, img->memory, VK_NULL_HANDLE};
   vkt_image_destroy(dev, &vk);
}

/* A 2D, optimally tiled transfer source and destination. */
static bool image_2d(struct vkt_device *dev, VkFormat format, uint32_t w, uint32_t h,
                     uint32_t levels, uint32_t layers, struct image *out)
{
   VkImageCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = format,
       .extent = {w, h, 1},
       .mipLevels = levels,
       .arrayLayers = layers,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   return image_create(dev, &ci, out);
}

/* UNDEFINED -> GENERAL for every subresource: the only layout the test
 * uses (transfers allow GENERAL). */
static void to_general(VkCommandBuffer cmd, const struct image *img)
{
   VkImageMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
       .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
       .newLayout = VK_IMAGE_LAYOUT_GENERAL,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = img->image,
       .subresourceRange = {all_aspects(img->info.format), 0, VK_REMAINING_MIP_LEVELS, 0,
                            VK_REMAINING_ARRAY_LAYERS},
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                        0, NULL, 0, NULL, 1, &b);
}

/* Transfer writes before later transfer reads and writes. */
static void transfer_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier b = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &b, 0, NULL, 0, NULL);
}

static uint32_t mip(uint32_t e, uint32_t level)
{
   e >>= level;
   return e ? e : 1;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
   return (a + b - 1) / b;
}

/* ---- host model of one aspect of an image ------------------------------- */

/* Elements (texels, or blocks) of every level and plane (layer, or slice
 * of a 3D image), tightly packed, level after level. */
struct model {
   const struct image *img;
   struct fmt_size fs;
   uint32_t elem; /* bytes of an element in the buffer layout of this aspect */
   uint8_t *data;
   size_t level_offset[16];
   size_t size;
};

static uint32_t planes_of(const struct image *img, uint32_t level)
{
   return img->info.imageType == VK_IMAGE_TYPE_3D ? mip(img->info.extent.depth, level)
                                                  : img->info.arrayLayers;
}

static void level_elems(const struct model *m, uint32_t level, uint32_t *w, uint32_t *h)
{
   *w = div_up(mip(m->img->info.extent.width, level), m->fs.block_w);
   *h = div_up(mip(m->img->info.extent.height, level), m->fs.block_h);
}

static bool model_init(struct model *m, const struct image *img, uint32_t elem)
{
   memset(m, 0, sizeof(*m));
   m->img = img;
   m->fs = format_size(img->info.format);
   m->elem = elem;
   for (uint32_t l = 0; l < img->info.mipLevels; l++) {
      uint32_t w, h;
      level_elems(m, l, &w, &h);
      m->level_offset[l] = m->size;
      m->size += (size_t)w * h * planes_of(img, l) * elem;
   }
   m->data = calloc(1, m->size);
   return m->data != NULL;
}

static uint8_t *model_at(const struct model *m, uint32_t level, uint32_t plane, uint32_t x,
                         uint32_t y)
{
   uint32_t w, h;
   level_elems(m, level, &w, &h);
   return m->data + m->level_offset[level] + (((size_t)plane * h + y) * w + x) * m->elem;
}

/* ---- the round trip ----------------------------------------------------- */

struct shape {
   const char *name;
   VkImageType type;
   VkImageTiling tiling;
   uint32_t w, h, d, levels, layers;
};

static uint64_t rng_state = 0x1234567;

/* Random contents for one aspect, valid for it (depth floats in [0, 1]). */
static void random_elements(uint8_t *p, size_t bytes, const struct aspect_plane *a)
{
   vkt_fill_random(p, bytes, vkt_rand_next(&rng_state));
   if (a->unit_float)
      for (size_t i = 0; i + 4 <= bytes; i += a->bytes) {
         float v = (float)(vkt_rand_next(&rng_state) % 1000001u) / 1000000.0f;
         memcpy(p + i, &v, 4);
      }
}

static bool same_masked(const uint8_t *a, const uint8_t *b, uint32_t bytes, uint32_t mask32)
{
   if (mask32 == 0xffffffffu)
      return memcmp(a, b, bytes) == 0;
   for (uint32_t i = 0; i < bytes; i += 4) {
      uint32_t x, y;
      memcpy(&x, a + i, 4);
      memcpy(&y, b + i, 4);
      if ((x ^ y) & mask32)
         return false;
   }
   return true;
}

/* Buffer layout of a whole-level region with padding: rows of
 * row_length texels, planes of image_height rows. */
struct level_layout {
   uint32_t row_length, image_height; /* texels */
   VkDeviceSize offset, row_pitch, plane_pitch;
};

static VkDeviceSize plan_levels(const struct model *m, uint32_t pad_x, uint32_t pad_y,
                                struct level_layout *ll)
{
   VkDeviceSize at = 0;
   for (uint32_t l = 0; l < m->img->info.mipLevels; l++) {
      uint32_t w = mip(m->img->info.extent.width, l), h = mip(m->img->info.extent.height, l);
      /* Compressed formats need whole blocks of padding (multiples of the
       * block extent). */
      ll[l].row_length = pad_x ? (div_up(w, m->fs.block_w) + pad_x) * m->fs.block_w : 0;
      ll[l].image_height = pad_y && m->img->info.imageType != VK_IMAGE_TYPE_1D
                               ? (div_up(h, m->fs.block_h) + pad_y) * m->fs.block_h
                               : 0;
      uint32_t rl = ll[l].row_length ? ll[l].row_length : w;
      uint32_t ih = ll[l].image_height ? ll[l].image_height : h;
      ll[l].offset = at;
      ll[l].row_pitch = (VkDeviceSize)div_up(rl, m->fs.block_w) * m->elem;
      ll[l].plane_pitch = ll[l].row_pitch * div_up(ih, m->fs.block_h);
      at += ll[l].plane_pitch * planes_of(m->img, l);
      /* Offsets multiples of 4 and of the element size (12-byte formats on
       * other drivers too). */
      VkDeviceSize align = 16 * (VkDeviceSize)m->elem;
      at = (at + align - 1) / align * align;
   }
   return at;
}

static VkBufferImageCopy level_region(const struct model *m, const struct aspect_plane *a,
                                      const struct level_layout *ll, uint32_t l)
{
   const VkImageCreateInfo *ci = &m->img->info;
   bool is3d = ci->imageType == VK_IMAGE_TYPE_3D;
   return (VkBufferImageCopy){
       .bufferOffset = ll[l].offset,
       .bufferRowLength = ll[l].row_length,
       .bufferImageHeight = ll[l].image_height,
       .imageSubresource = {a->aspect, l, 0, is3d ? 1 : ci->arrayLayers},
       .imageExtent = {mip(ci->extent.width, l), mip(ci->extent.height, l),
                       is3d ? mip(ci->extent.depth, l) : 1},
   };
}

/* The sub-copy of level 0 (A -> B): offsets and extent in texels, whole
 * blocks except where the region ends at the level's edge. */
struct sub_copy {
   VkOffset3D src, dst;
   VkExtent3D extent;
   uint32_t src_layer, dst_layer, layers;
};

static struct sub_copy plan_sub_copy(const struct image *img)
{
   const VkImageCreateInfo *ci = &img->info;
   struct fmt_size fs = format_size(ci->format);
   struct sub_copy s = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0, 0, 1};
   uint32_t bw = fs.block_w, bh = fs.block_h;
   /* x: from element 1 on, onto element 0; y: the reverse. Whole blocks
    * (a partial block would have to end on both images' edge, which the
    * whole-level copies already cover). */
   s.src.x = (int32_t)bw;
   s.extent.width = (ci->extent.width - bw) / bw * bw;
   s.dst.x = 0;
   if (ci->imageType != VK_IMAGE_TYPE_1D) {
      s.src.y = 0;
      s.dst.y = (int32_t)bh;
      s.extent.height = (ci->extent.height - bh) / bh * bh;
      if (s.extent.height == 0) { /* shorter than two blocks: the whole height */
         s.dst.y = 0;
         s.extent.height = ci->extent.height;
      }
   }
   if (ci->imageType == VK_IMAGE_TYPE_3D) {
      s.src.z = 1;
      s.dst.z = 0;
      s.extent.depth = ci->extent.depth - 1;
   } else if (ci->arrayLayers > 1) {
      s.src_layer = ci->arrayLayers - 1;
      s.dst_layer = 0;
   }
   return s;
}

static void model_sub_copy(struct model *b, const struct model *a, const struct sub_copy *s)
{
   uint32_t bw = a->fs.block_w, bh = a->fs.block_h;
   uint32_t ew = div_up(s->extent.width, bw), eh = div_up(s->extent.height, bh);
   bool is3d = a->img->info.imageType == VK_IMAGE_TYPE_3D;
   uint32_t planes = is3d ? s->extent.depth : s->layers;
   for (uint32_t p = 0; p < planes; p++)
      for (uint32_t y = 0; y < eh; y++)
         for (uint32_t x = 0; x < ew; x++) {
            uint32_t sp = is3d ? (uint32_t)s->src.z + p : s->src_layer + p;
            uint32_t dp = is3d ? (uint32_t)s->dst.z + p : s->dst_layer + p;
            memcpy(model_at(b, 0, dp, s->dst.x / bw + x, s->dst.y / bh + y),
                   model_at(a, 0, sp, s->src.x / bw + x, s->src.y / bh + y), a->elem);
         }
}

/* The image-offset read of level 0: from element (1, 1) (x only for 1D),
 * slice 1 of a 3D image or the last layer, to the edges. bufferOffset is in
 * elements here (16 of them); the caller scales it by the aspect's size. */
static VkBufferImageCopy offset_box(const struct image *img)
{
   const VkImageCreateInfo *ci = &img->info;
   struct fmt_size fs = format_size(ci->format);
   bool is1d = ci->imageType == VK_IMAGE_TYPE_1D, is3d = ci->imageType == VK_IMAGE_TYPE_3D;
   int32_t y = is1d || ci->extent.height <= fs.block_h ? 0 : (int32_t)fs.block_h;
   int32_t x = ci->extent.width <= fs.block_w ? 0 : (int32_t)fs.block_w;
   return (VkBufferImageCopy){
       .bufferOffset = 16,
       .imageSubresource = {all_aspects(ci->format), 0, is3d ? 0 : ci->arrayLayers - 1, 1},
       .imageOffset = {x, y, is3d ? 1 : 0},
       .imageExtent = {ci->extent.width - (uint32_t)x, ci->extent.height - (uint32_t)y,
                       is3d ? ci->extent.depth - 1 : 1},
   };
}

static void check_offset_box(const struct model *m, const struct aspect_plane *a,
                             const VkBufferImageCopy *box, const void *buffer, VkFormat format,
                             const char *shape)
{
   uint32_t bw = m->fs.block_w, bh = m->fs.block_h;
   uint32_t ew = div_up(box->imageExtent.width, bw), eh = div_up(box->imageExtent.height, bh);
   bool is3d = m->img->info.imageType == VK_IMAGE_TYPE_3D;
   const uint8_t *base = (const uint8_t *)buffer + box->bufferOffset * a->bytes;
   unsigned bad = 0;
   for (uint32_t z = 0; z < box->imageExtent.depth; z++)
      for (uint32_t y = 0; y < eh; y++)
         for (uint32_t x = 0; x < ew; x++) {
            uint32_t plane =
                is3d ? (uint32_t)box->imageOffset.z + z : box->imageSubresource.baseArrayLayer;
            const uint8_t *want = model_at(m, 0, plane, (uint32_t)box->imageOffset.x / bw + x,
                                           (uint32_t)box->imageOffset.y / bh + y);
            const uint8_t *got = base + (((size_t)z * eh + y) * ew + x) * a->bytes;
            if (!same_masked(got, want, a->bytes, a->mask32))
               bad++;
         }
   if (bad)
      test_fail(__FILE__, __LINE__, "format %d %s aspect 0x%x: offset box: %u elements differ",
                format, shape, a->aspect, bad);
}

/* The *2 commands, through VK_KHR_copy_commands2, when the device has it. */
static PFN_vkCmdCopyBufferToImage2KHR copy_b2i2;
static PFN_vkCmdCopyImageToBuffer2KHR copy_i2b2;
static PFN_vkCmdCopyImage2KHR copy_i2i2;
static PFN_vkCmdBlitImage2KHR blit2;

/* The *2 form of buffer-image regions. */
static void to_copy2(const VkBufferImageCopy *r, uint32_t n, VkBufferImageCopy2 *out)
{
   for (uint32_t i = 0; i < n; i++)
      out[i] = (VkBufferImageCopy2){VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
                                    NULL,
                                    r[i].bufferOffset,
                                    r[i].bufferRowLength,
                                    r[i].bufferImageHeight,
                                    r[i].imageSubresource,
                                    r[i].imageOffset,
                                    r[i].imageExtent};
}

/* vkCmdCopyBufferToImage (to_image) or vkCmdCopyImageToBuffer, or their
 * *2 forms, in layout GENERAL. */
static void cmd_buffer_image(VkCommandBuffer cmd, VkBuffer buf, VkImage img, bool to_image,
                             uint32_t n, const VkBufferImageCopy *r, bool use2)
{
   const VkImageLayout general = VK_IMAGE_LAYOUT_GENERAL;
   VkBufferImageCopy2 r2[16];
   to_copy2(r, n, r2);
   if (to_image && use2)
      copy_b2i2(cmd, &(VkCopyBufferToImageInfo2){VK_STRUCTURE_TYPE_COPY_BUFFER_TO_IMAGE_INFO_2,
                                                 NULL, buf, img, general, n, r2});
   else if (use2)
      copy_i2b2(cmd, &(VkCopyImageToBufferInfo2){VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2,
                                                 NULL, img, general, buf, n, r2});
   else if (to_image)
      vkCmdCopyBufferToImage(cmd, buf, img, general, n, r);
   else
      vkCmdCopyImageToBuffer(cmd, img, general, buf, n, r);
}

static void cmd_copy_image(VkCommandBuffer cmd, VkImage src, VkImage dst, uint32_t n,
                           const VkImageCopy *r, bool use2)
{
   if (!use2) {
      vkCmdCopyImage(cmd, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, n, r);
      return;
   }
   VkImageCopy2 r2[16];
   for (uint32_t i = 0; i < n; i++)
      r2[i] = (VkImageCopy2){VK_STRUCTURE_TYPE_IMAGE_COPY_2,
                             NULL,
                             r[i].srcSubresource,
                             r[i].srcOffset,
                             r[i].dstSubresource,
                             r[i].dstOffset,
                             r[i].extent};
   VkCopyImageInfo2 info = {VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2,
                            NULL,
                            src,
                            VK_IMAGE_LAYOUT_GENERAL,
                            dst,
                            VK_IMAGE_LAYOUT_GENERAL,
                            n,
                            r2};
   copy_i2i2(cmd, &info);
}

/* One format and shape: upload every level of A (tightly packed), copy A
 * to B (every level), copy a sub-box of A's level 0 onto another place of
 * B's level 0, read B back with padded rows and planes, compare with the
 * host model. */
static void round_trip(struct vkt_device *dev, uint32_t family, VkFormat format,
                       const struct shape *sh, bool use2)
{
   VkImageCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = sh->type,
       .format = format,
       .extent = {sh->w, sh->h, sh->d},
       .mipLevels = sh->levels,
       .arrayLayers = sh->layers,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = sh->tiling,
       .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   struct image a, b;
   if (!image_create(dev, &ci, &a))
      return;
   if (!image_create(dev, &ci, &b)) {
      image_destroy(dev, &a);
      return;
   }
   struct aspect_plane planes[2];
   unsigned n_planes = aspect_planes(format, planes);
   struct model ma[2], mb[2];
   struct level_layout in_ll[2][16], out_ll[2][16];
   VkDeviceSize in_size[2], out_size[2];
   struct vkt_buffer in[2], out[2];
   bool ok = true;
   for (unsigned p = 0; p < n_planes; p++) {
      ok = ok && model_init(&ma[p], &a, planes[p].bytes) && model_init(&mb[p], &b, planes[p].bytes);
      in_size[p] = plan_levels(&ma[p], 0, 0, in_ll[p]);
      out_size[p] = plan_levels(&mb[p], 3, 2, out_ll[p]);
      ok = ok &&
           vkt_buffer_create(dev, in_size[p], VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &in[p]) ==
               VK_SUCCESS &&
           vkt_buffer_create(dev, out_size[p], VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out[p]) ==
               VK_SUCCESS;
      if (!ok)
         break;
      random_elements(ma[p].data, ma[p].size, &planes[p]);
      /* The input buffer is the model, level by level (tightly packed). */
      for (uint32_t l = 0; l < sh->levels; l++) {
         size_t next = l + 1 < sh->levels ? ma[p].level_offset[l + 1] : ma[p].size;
         memcpy((uint8_t *)in[p].map + in_ll[p][l].offset, ma[p].data + ma[p].level_offset[l],
                next - ma[p].level_offset[l]);
      }
      memset(out[p].map, 0xcd, out_size[p]);
   }
   REQUIRE(ok);

   VkCommandBuffer cmd = vkt_cmd_begin(dev, family);
   REQUIRE(cmd);
   to_general(cmd, &a);
   to_general(cmd, &b);
   for (unsigned p = 0; p < n_planes; p++) {
      VkBufferImageCopy r[16];
      for (uint32_t l = 0; l < sh->levels; l++)
         r[l] = level_region(&ma[p], &planes[p], in_ll[p], l);
      cmd_buffer_image(cmd, in[p].buffer, a.image, true, sh->levels, r, use2);
   }
   transfer_barrier(cmd);
   VkImageCopy whole[16];
   bool is3d = sh->type == VK_IMAGE_TYPE_3D;
   for (uint32_t l = 0; l < sh->levels; l++) {
      VkImageSubresourceLayers sub = {all_aspects(format), l, 0, is3d ? 1 : sh->layers};
      whole[l] = (VkImageCopy){
          sub, {0, 0, 0}, sub, {0, 0, 0}, {mip(sh->w, l), mip(sh->h, l), is3d ? mip(sh->d, l) : 1}};
   }
   cmd_copy_image(cmd, a.image, b.image, sh->levels, whole, use2);
   transfer_barrier(cmd);
   struct sub_copy s = plan_sub_copy(&a);
   VkImageCopy sub_region = {{all_aspects(format), 0, s.src_layer, s.layers},
                             s.src,
                             {all_aspects(format), 0, s.dst_layer, s.layers},
                             s.dst,
                             s.extent};
   cmd_copy_image(cmd, a.image, b.image, 1, &sub_region, use2);
   transfer_barrier(cmd);
   for (unsigned p = 0; p < n_planes; p++) {
      VkBufferImageCopy r[16];
      for (uint32_t l = 0; l < sh->levels; l++)
         r[l] = level_region(&mb[p], &planes[p], out_ll[p], l);
      cmd_buffer_image(cmd, out[p].buffer, b.image, false, sh->levels, r, use2);
   }
   /* A box at an image offset, to the level's edge (partial blocks there),
    * of the last layer or the slices from 1: into part[p] at an offset. */
   struct vkt_buffer part[2];
   VkBufferImageCopy box = offset_box(&b);
   for (unsigned p = 0; p < n_planes; p++) {
      VKT_REQUIRE(vkt_buffer_create(dev, box.bufferOffset * planes[p].bytes + in_size[p],
                                    VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &part[p]));
      VkBufferImageCopy r = box;
      r.bufferOffset *= planes[p].bytes;
      r.imageSubresource.aspectMask = planes[p].aspect;
      cmd_buffer_image(cmd, part[p].buffer, b.image, false, 1, &r, use2);
   }
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, family, 0, cmd));

   for (unsigned p = 0; p < n_planes; p++) {
      memcpy(mb[p].data, ma[p].data, ma[p].size);
      model_sub_copy(&mb[p], &ma[p], &s);
      unsigned bad = 0;
      for (uint32_t l = 0; l < sh->levels; l++) {
         uint32_t w, h;
         level_elems(&mb[p], l, &w, &h);
         for (uint32_t pl = 0; pl < planes_of(&b, l); pl++)
            for (uint32_t y = 0; y < h; y++)
               for (uint32_t x = 0; x < w; x++) {
                  const uint8_t *got = (const uint8_t *)out[p].map + out_ll[p][l].offset +
                                       pl * out_ll[p][l].plane_pitch + y * out_ll[p][l].row_pitch +
                                       (VkDeviceSize)x * planes[p].bytes;
                  if (!same_masked(got, model_at(&mb[p], l, pl, x, y), planes[p].bytes,
                                   planes[p].mask32) &&
                      bad++ < 3)
                     test_fail(__FILE__, __LINE__,
                               "format %d %s aspect 0x%x: level %u plane %u element (%u, %u) "
                               "differs",
                               format, sh->name, planes[p].aspect, l, pl, x, y);
               }
      }
      if (bad)
         test_fail(__FILE__, __LINE__, "format %d %s%s: %u elements differ", format, sh->name,
                   use2 ? " (copy_commands2)" : "", bad);
      check_offset_box(&mb[p], &planes[p], &box, part[p].map, format, sh->name);
      vkt_buffer_destroy(dev, &part[p]);
      /* The padding of the output rows was not written. */
      const uint8_t *pad = (const uint8_t *)out[p].map + out_ll[p][0].offset +
                           div_up(sh->w, mb[p].fs.block_w) * planes[p].bytes;
      if (pad[0] != 0xcd)
         test_fail(__FILE__, __LINE__, "format %d %s: row padding written", format, sh->name);
   }
   for (unsigned p = 0; p < n_planes; p++) {
      vkt_buffer_destroy(dev, &in[p]);
      vkt_buffer_destroy(dev, &out[p]);
      free(ma[p].data);
      free(mb[p].data);
   }
   image_destroy(dev, &a);
   image_destroy(dev, &b);
}

static bool shape_supported(struct vkt_context *ctx, VkFormat f, const struct shape *sh)
{
   VkImageFormatProperties p;
   VkResult r = vkGetPhysicalDeviceImageFormatProperties(
       ctx->physical_device, f, sh->type, sh->tiling,
       VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p);
   return r == VK_SUCCESS && p.maxMipLevels >= sh->levels && p.maxArrayLayers >= sh->layers &&
          p.maxExtent.width >= sh->w && p.maxExtent.height >= sh->h && p.maxExtent.depth >= sh->d;
}

/* Context and device, with VK_KHR_copy_commands2 and its entry points
 * when use2; false (case skipped or failed) when that cannot be had. */
static bool open_device(struct vkt_context *ctx, struct vkt_device *dev, bool use2)
{
   const char *ext[] = {VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME};
   if (!vkt_context_create(ctx))
      return false;
   if (use2 && !vkt_has_device_extension(ctx, ext[0])) {
      vkt_skip("VK_KHR_copy_commands2 not offered");
      vkt_context_destroy(ctx);
      return false;
   }
   struct vkt_device_desc desc = {
       .extensions = ext, .extension_count = use2 ? 1 : 0, .all_queues = true};
   if (vkt_device_create(ctx, &desc, dev) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateDevice");
      vkt_context_destroy(ctx);
      return false;
   }
   if (!use2)
      return true;
   copy_b2i2 = (PFN_vkCmdCopyBufferToImage2KHR)vkGetDeviceProcAddr(dev->device,
                                                                   "vkCmdCopyBufferToImage2KHR");
   copy_i2b2 = (PFN_vkCmdCopyImageToBuffer2KHR)vkGetDeviceProcAddr(dev->device,
                                                                   "vkCmdCopyImageToBuffer2KHR");
   copy_i2i2 = (PFN_vkCmdCopyImage2KHR)vkGetDeviceProcAddr(dev->device, "vkCmdCopyImage2KHR");
   blit2 = (PFN_vkCmdBlitImage2KHR)vkGetDeviceProcAddr(dev->device, "vkCmdBlitImage2KHR");
   if (copy_b2i2 && copy_i2b2 && copy_i2i2 && blit2)
      return true;
   test_fail(__FILE__, __LINE__, "a VK_KHR_copy_commands2 entry point is missing");
   vkt_device_destroy(dev);
   vkt_context_destroy(ctx);
   return false;
}

static void round_trip_every_format(bool use2)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!open_device(&ctx, &dev, use2))
      return;
   const struct shape shapes[] = {
       {"2D 37x19, 3 levels, 2 layers", VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, 37, 19, 1, 3, 2},
       {"1D 67, 3 levels, 3 layers", VK_IMAGE_TYPE_1D, VK_IMAGE_TILING_OPTIMAL, 67, 1, 1, 3, 3},
       {"3D 13x9x5, 2 levels", VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL, 13, 9, 5, 2, 1},
       {"2D linear 23x7", VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR, 23, 7, 1, 1, 1},
   };
   const VkFormatFeatureFlags need =
       VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
   unsigned formats = 0, cases = 0;
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_BC7_SRGB_BLOCK; f++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      if ((fp.optimalTilingFeatures & need) != need && (fp.linearTilingFeatures & need) != need)
         continue;
      if (format_size(f).bytes == 0) {
         test_fail(__FILE__, __LINE__, "format %d: the test does not know its size", f);
         continue;
      }
      formats++;
      for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         VkFormatFeatureFlags have = shapes[s].tiling == VK_IMAGE_TILING_LINEAR
                                         ? fp.linearTilingFeatures
                                         : fp.optimalTilingFeatures;
         if ((have & need) != need || !shape_supported(&ctx, f, &shapes[s]))
            continue;
         round_trip(&dev, ctx.universal_family, f, &shapes[s], use2);
         cases++;
      }
   }
   printf("  %u formats, %u format/shape round trips%s\n", formats, cases,
          use2 ? " (copy_commands2)" : "");
   CHECK(formats >= 1);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(every_transfer_format_round_trips_bit_exact_over_1d_2d_3d_arrays_and_levels)
{
   round_trip_every_format(false);
}

TEST_CASE(copy_commands2_round_trip_every_transfer_format)
{
   round_trip_every_format(true);
}

/* The same copies on a transfer-only queue (the copy engine alone);
 * depth/stencil buffer copies need a graphics queue (Vulkan), so none. */
TEST_CASE(image_copies_run_on_the_transfer_only_queue_family)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!open_device(&ctx, &dev, false))
      return;
   if (ctx.transfer_family == VKT_NO_FAMILY) {
      vkt_skip("no transfer-only queue family");
   } else {
      const struct shape sh = {"2D 37x19, 3 levels, 2 layers",
                               VK_IMAGE_TYPE_2D,
                               VK_IMAGE_TILING_OPTIMAL,
                               37,
                               19,
                               1,
                               3,
                               2};
      const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT,
                                  VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_R16G16_SINT};
      for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
         if (shape_supported(&ctx, formats[i], &sh))
            round_trip(&dev, ctx.transfer_family, formats[i], &sh, false);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* ---- clears ------------------------------------------------------------- */

/* Reads level `level`, layer `layer` of one aspect back into host memory. */
static void read_back(struct vkt_device *dev, const struct image *img, VkImageAspectFlags aspect,
                      uint32_t level, uint32_t layer, uint32_t elem, void *out, size_t bytes)
{
   struct vkt_buffer buf;
   if (vkt_buffer_create(dev, bytes, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &buf) != VK_SUCCESS)
      return;
   (void)elem;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   const VkImageCreateInfo *ci = &img->info;
   bool is3d = ci->imageType == VK_IMAGE_TYPE_3D;
   VkBufferImageCopy r = {.imageSubresource = {aspect, level, is3d ? 0 : layer, 1},
                          .imageExtent = {mip(ci->extent.width, level),
                                          mip(ci->extent.height, level),
                                          is3d ? mip(ci->extent.depth, level) : 1}};
   vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_GENERAL, buf.buffer, 1, &r);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
   memcpy(out, buf.map, bytes);
   vkt_buffer_destroy(dev, &buf);
}

/* Counts the elements of a read-back level that are not `want`. */
static size_t count_not(const uint8_t *data, size_t count, const void *want, uint32_t elem,
                        uint32_t mask32)
{
   size_t n = 0;
   for (size_t i = 0; i < count; i++)
      if (!same_masked(data + i * elem, want, elem, mask32))
         n++;
   return n;
}

struct color_clear_case {
   VkFormat format;
   VkClearColorValue value;
   uint8_t want[16]; /* the encoded texel, from the spec's conversions */
   uint32_t bytes;
};

TEST_CASE(clear_color_image_encodes_float_int_and_uint_values_into_the_chosen_levels_and_layers)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   /* UNORM8 0.25 -> round(63.75) = 64, 0.5 -> 128, 0.75 -> 191; sRGB
    * linear 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 188; half 1.5 =
    * 0x3e00, -2 = 0xc000; SINT8 saturates nothing here. */
   const struct color_clear_case cases[] = {
       {VK_FORMAT_R8G8B8A8_UNORM, {.float32 = {0.25f, 0.5f, 0.75f, 1.0f}}, {64, 128, 191, 255}, 4},
       {VK_FORMAT_B8G8R8A8_SRGB, {.float32 = {0.5f, 0.0f, 1.0f, 0.5f}}, {255, 0, 188, 128}, 4},
       {VK_FORMAT_R16G16B16A16_SFLOAT,
        {.float32 = {1.5f, -2.0f, 0.0f, 1.0f}},
        {0x00, 0x3e, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3c},
        8},
       {VK_FORMAT_R32G32B32A32_SFLOAT,
        {.float32 = {0.1f, -3.0f, 1e30f, 0.0f}},
        {0xcd, 0xcc, 0xcc, 0x3d, 0x00, 0x00, 0x40, 0xc0, 0xca, 0xf2, 0x49, 0x71, 0, 0, 0, 0},
        16},
       {VK_FORMAT_R8G8B8A8_SINT, {.int32 = {-5, 7, -128, 127}}, {0xfb, 7, 0x80, 0x7f}, 4},
       {VK_FORMAT_R32_UINT, {.uint32 = {0xdeadbeefu, 1, 2, 3}}, {0xef, 0xbe, 0xad, 0xde}, 4},
       {VK_FORMAT_A2B10G10R10_UINT_PACK32,
        {.uint32 = {1023, 5, 512, 2}},
        {0xff, 0x17, 0x00, 0xa0},
        4},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct color_clear_case *c = &cases[i];
      struct image img;
      if (!image_2d(&dev, c->format, 21, 13, 3, 3, &img))
         continue;
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_general(cmd, &img);
      const VkClearColorValue zero = {{0}};
      VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                     VK_REMAINING_ARRAY_LAYERS};
      vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
      transfer_barrier(cmd);
      /* Levels 1-2 of layers 1-2 get the value. */
      VkImageSubresourceRange part = {VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_REMAINING_MIP_LEVELS, 1, 2};
      vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, &c->value, 1, &part);
      transfer_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      uint8_t zero_texel[16] = {0};
      for (uint32_t l = 0; l < 3; l++)
         for (uint32_t a = 0; a < 3; a++) {
            size_t texels = (size_t)mip(21, l) * mip(13, l);
            uint8_t *data = malloc(texels * c->bytes);
            REQUIRE(data);
            read_back(&dev, &img, VK_IMAGE_ASPECT_COLOR_BIT, l, a, c->bytes, data,
                      texels * c->bytes);
            bool cleared = l >= 1 && a >= 1;
            size_t bad =
                count_not(data, texels, cleared ? c->want : zero_texel, c->bytes, 0xffffffffu);
            if (bad)
               test_fail(__FILE__, __LINE__,
                         "format %d level %u layer %u: %zu texels wrong "
                         "(first %02x %02x %02x %02x)",
                         c->format, l, a, bad, data[0], data[1], data[2], data[3]);
            free(data);
         }
      image_destroy(&dev, &img);
   }
   vkt_teardown(&ctx, &dev);
}

TEST_CASE(clear_depth_stencil_image_writes_each_aspect_and_keeps_the_other)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkFormat formats[] = {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT, VK_FORMAT_S8_UINT,
                               VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};
   for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
      VkFormat f = formats[i];
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
         continue;
      struct image img;
      if (!image_2d(&dev, f, 19, 10, 2, 2, &img))
         continue;
      struct aspect_plane planes[2];
      unsigned n = aspect_planes(f, planes);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_general(cmd, &img);
      /* Everything to (1.0, 0x5a), then depth 0.5 / stencil 0x33 on level
       * 1 of layer 1 one aspect at a time: depth first, so the stencil
       * aspect of that clear must survive it. */
      VkClearDepthStencilValue first = {1.0f, 0x5a}, second = {0.5f, 0x33};
      VkImageSubresourceRange all = {all_aspects(f), 0, 2, 0, 2};
      vkCmdClearDepthStencilImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, &first, 1, &all);
      transfer_barrier(cmd);
      VkImageSubresourceRange part = {planes[0].aspect, 1, 1, 1, 1};
      vkCmdClearDepthStencilImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, &second, 1, &part);
      transfer_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      for (unsigned p = 0; p < n; p++) {
         for (uint32_t l = 0; l < 2; l++)
            for (uint32_t a = 0; a < 2; a++) {
               bool changed = l == 1 && a == 1 && p == 0;
               const VkClearDepthStencilValue *v = changed ? &second : &first;
               uint8_t want[4] = {0};
               if (planes[p].aspect == VK_IMAGE_ASPECT_STENCIL_BIT) {
                  want[0] = (uint8_t)v->stencil;
               } else if (f == VK_FORMAT_D16_UNORM) {
                  /* round(0.5 * 65535) = 32768 (ties away from zero). */
                  uint16_t d = v->depth == 1.0f ? 0xffff : 0x8000;
                  memcpy(want, &d, 2);
               } else if (f == VK_FORMAT_D24_UNORM_S8_UINT) {
                  uint32_t d = v->depth == 1.0f ? 0xffffff : 0x800000; /* round(0.5 * (2^24-1)) */
                  memcpy(want, &d, 4);
               } else {
                  memcpy(want, &v->depth, 4);
               }
               size_t texels = (size_t)mip(19, l) * mip(10, l);
               uint8_t *data = malloc(texels * planes[p].bytes);
               REQUIRE(data);
               read_back(&dev, &img, planes[p].aspect, l, a, planes[p].bytes, data,
                         texels * planes[p].bytes);
               size_t bad = count_not(data, texels, want, planes[p].bytes, planes[p].mask32);
               if (bad)
                  test_fail(__FILE__, __LINE__,
                            "format %d aspect 0x%x level %u layer %u: %zu "
                            "texels wrong",
                            f, planes[p].aspect, l, a, bad);
               free(data);
            }
      }
      image_destroy(&dev, &img);
   }
   vkt_teardown(&ctx, &dev);
}

/* ---- blits -------------------------------------------------------------- */

static double srgb_to_linear(double v)
{
   return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double l)
{
   return l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

/* A texel of an RGBA8 (UNORM or sRGB) or RGBA32F level as four doubles. */
static void decode(VkFormat f, const uint8_t *p, double out[4])
{
   for (unsigned c = 0; c < 4; c++) {
      if (f == VK_FORMAT_R32G32B32A32_SFLOAT) {
         float v;
         memcpy(&v, p + 4 * c, 4);
         out[c] = v;
      } else {
         out[c] = p[c] / 255.0;
         if (f == VK_FORMAT_R8G8B8A8_SRGB && c < 3)
            out[c] = srgb_to_linear(out[c]);
      }
   }
}

static int32_t clampi(int32_t i, int32_t n)
{
   return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Vulkan "Image Copies With Scaling" for a 2D level (w x h, texel bytes
 * tb) at destination texel (x, y). */
static void blit_reference(VkFormat f, const uint8_t *src, int32_t w, int32_t h,
                           const VkOffset3D so[2], const VkOffset3D dof[2], VkFilter filter,
                           int32_t x, int32_t y, double out[4])
{
   uint32_t tb = f == VK_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
   double u = so[0].x + (x + 0.5 - dof[0].x) * (double)(so[1].x - so[0].x) / (dof[1].x - dof[0].x);
   double v = so[0].y + (y + 0.5 - dof[0].y) * (double)(so[1].y - so[0].y) / (dof[1].y - dof[0].y);
   memset(out, 0, 4 * sizeof(double));
   if (filter == VK_FILTER_NEAREST) {
      int32_t i = clampi((int32_t)floor(u), w), j = clampi((int32_t)floor(v), h);
      decode(f, src + ((size_t)j * w + i) * tb, out);
      return;
   }
   double fu = u - 0.5 - floor(u - 0.5), fv = v - 0.5 - floor(v - 0.5);
   int32_t i0 = (int32_t)floor(u - 0.5), j0 = (int32_t)floor(v - 0.5);
   for (unsigned c = 0; c < 4; c++) {
      int32_t i = clampi(i0 + (int32_t)(c & 1), w), j = clampi(j0 + (int32_t)(c >> 1), h);
      double wt = ((c & 1) ? fu : 1 - fu) * ((c >> 1) ? fv : 1 - fv);
      double t[4];
      decode(f, src + ((size_t)j * w + i) * tb, t);
      for (unsigned k = 0; k < 4; k++)
         out[k] += wt * t[k];
   }
}

/* UNORM8: correctly rounded (within 1e-3 of a tie); RGBA32F: within
 * 1e-6 relative (filter weights are floats). `slack` widens both, for
 * drivers that filter with the few sub-texel bits Vulkan allows (vkppu
 * computes the weights exactly, so its slack is 0). */
static bool blit_matches(VkFormat f, const uint8_t *got, const double want[4], double slack)
{
   for (unsigned c = 0; c < 4; c++) {
      if (f == VK_FORMAT_R32G32B32A32_SFLOAT) {
         float g;
         memcpy(&g, got + 4 * c, 4);
         if (fabs(g - want[c]) > fmax(1.0, fabs(want[c])) * 1e-6 + slack)
            return false;
      } else {
         double l = fmin(fmax(want[c], 0.0), 1.0);
         if (f == VK_FORMAT_R8G8B8A8_SRGB && c < 3)
            l = linear_to_srgb(l);
         if (fabs(got[c] - l * 255.0) > 0.5 + 1e-3 + slack * 255.0)
            return false;
      }
   }
   return true;
}

struct blit_case {
   const char *name;
   VkFormat src_format, dst_format;
   uint32_t sw, sh, dw, dh;
   VkOffset3D so[2], dof[2];
   VkFilter filter;
};

static void run_blit(struct vkt_device *dev, const struct blit_case *bc, bool use2)
{
   double slack = dev->ctx->is_vkppu || bc->filter == VK_FILTER_NEAREST ? 0.0 : 0.02;
   uint32_t stb = bc->src_format == VK_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
   uint32_t dtb = bc->dst_format == VK_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
   struct image src, dst;
   if (!image_2d(dev, bc->src_format, bc->sw, bc->sh, 1, 1, &src))
      return;
   if (!image_2d(dev, bc->dst_format, bc->dw, bc->dh, 1, 1, &dst))
      return;
   size_t sbytes = (size_t)bc->sw * bc->sh * stb, dbytes = (size_t)bc->dw * bc->dh * dtb;
   struct vkt_buffer in, out;
   VKT_REQUIRE(vkt_buffer_create(dev, sbytes, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &in));
   VKT_REQUIRE(vkt_buffer_create(dev, dbytes, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out));
   vkt_fill_random(in.map, sbytes, vkt_rand_next(&rng_state));
   if (bc->src_format == VK_FORMAT_R32G32B32A32_SFLOAT)
      for (size_t i = 0; i < sbytes / 4; i++)
         ((float *)in.map)[i] = (float)(vkt_rand_next(&rng_state) % 2048u) / 1024.0f - 0.5f;
   VkCommandBuffer cmd = vkt_cmd_begin(dev, dev->ctx->universal_family);
   to_general(cmd, &src);
   to_general(cmd, &dst);
   const VkClearColorValue zero = {{0}};
   VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   vkCmdClearColorImage(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
   VkBufferImageCopy up = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {bc->sw, bc->sh, 1}};
   vkCmdCopyBufferToImage(cmd, in.buffer, src.image, VK_IMAGE_LAYOUT_GENERAL, 1, &up);
   transfer_barrier(cmd);
   VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   if (use2) {
      VkImageBlit2 r = {VK_STRUCTURE_TYPE_IMAGE_BLIT_2, NULL, sub,
                        {bc->so[0], bc->so[1]},         sub,  {bc->dof[0], bc->dof[1]}};
      VkBlitImageInfo2 info = {VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2,
                               NULL,
                               src.image,
                               VK_IMAGE_LAYOUT_GENERAL,
                               dst.image,
                               VK_IMAGE_LAYOUT_GENERAL,
                               1,
                               &r,
                               bc->filter};
      blit2(cmd, &info);
   } else {
      VkImageBlit r = {sub, {bc->so[0], bc->so[1]}, sub, {bc->dof[0], bc->dof[1]}};
      vkCmdBlitImage(cmd, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                     &r, bc->filter);
   }
   transfer_barrier(cmd);
   VkBufferImageCopy down = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {bc->dw, bc->dh, 1}};
   vkCmdCopyImageToBuffer(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &down);
   vkt_cmd_transfer_to_host_barrier(cmd);
   VKT_CHECK(vkt_cmd_submit_wait(dev, dev->ctx->universal_family, 0, cmd));
   int32_t x0 = bc->dof[0].x < bc->dof[1].x ? bc->dof[0].x : bc->dof[1].x;
   int32_t x1 = bc->dof[0].x < bc->dof[1].x ? bc->dof[1].x : bc->dof[0].x;
   int32_t y0 = bc->dof[0].y < bc->dof[1].y ? bc->dof[0].y : bc->dof[1].y;
   int32_t y1 = bc->dof[0].y < bc->dof[1].y ? bc->dof[1].y : bc->dof[0].y;
   unsigned bad = 0;
   for (int32_t y = 0; y < (int32_t)bc->dh; y++)
      for (int32_t x = 0; x < (int32_t)bc->dw; x++) {
         const uint8_t *got = (const uint8_t *)out.map + ((size_t)y * bc->dw + x) * dtb;
         double want[4] = {0, 0, 0, 0};
         if (x >= x0 && x < x1 && y >= y0 && y < y1)
            blit_reference(bc->src_format, in.map, (int32_t)bc->sw, (int32_t)bc->sh, bc->so,
                           bc->dof, bc->filter, x, y, want);
         if (!blit_matches(bc->dst_format, got, want, slack) && bad++ < 3)
            test_fail(__FILE__, __LINE__, "%s: texel (%d, %d) %02x %02x %02x %02x want %g %g %g %g",
                      bc->name, x, y, got[0], got[1], got[2], got[3], want[0], want[1], want[2],
                      want[3]);
      }
   if (bad)
      test_fail(__FILE__, __LINE__, "%s%s: %u texels wrong", bc->name, use2 ? " (BlitImage2)" : "",
                bad);
   vkt_buffer_destroy(dev, &in);
   vkt_buffer_destroy(dev, &out);
   image_destroy(dev, &src);
   image_destroy(dev, &dst);
}

static void blits(bool use2)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!open_device(&ctx, &dev, use2))
      return;
   const VkFormat u8 = VK_FORMAT_R8G8B8A8_UNORM, f32 = VK_FORMAT_R32G32B32A32_SFLOAT,
                  srgb = VK_FORMAT_R8G8B8A8_SRGB;
   /* name, source and destination formats, extents, corners, filter */
   // clang-format off
   const struct blit_case cases[] = {
       {"linear 2x downscale", u8, u8, 38, 22, 19, 11,
        {{0, 0, 0}, {38, 22, 1}}, {{0, 0, 0}, {19, 11, 1}}, VK_FILTER_LINEAR},
       {"nearest upscale 13x9 -> 40x29", u8, u8, 13, 9, 45, 31,
        {{0, 0, 0}, {13, 9, 1}}, {{3, 1, 0}, {43, 30, 1}}, VK_FILTER_NEAREST},
       {"nearest mirror x (source) and y (destination)", u8, u8, 13, 9, 13, 9,
        {{13, 0, 0}, {0, 9, 1}}, {{0, 9, 0}, {13, 0, 1}}, VK_FILTER_NEAREST},
       {"linear mirror, odd scale", f32, f32, 13, 9, 24, 12,
        {{13, 9, 0}, {0, 0, 1}}, {{2, 3, 0}, {22, 10, 1}}, VK_FILTER_LINEAR},
       {"unorm8 -> f32 linear upscale", u8, f32, 9, 7, 20, 15,
        {{0, 0, 0}, {9, 7, 1}}, {{0, 0, 0}, {20, 15, 1}}, VK_FILTER_LINEAR},
       {"f32 -> unorm8 (clamped)", f32, u8, 11, 5, 11, 5,
        {{0, 0, 0}, {11, 5, 1}}, {{0, 0, 0}, {11, 5, 1}}, VK_FILTER_NEAREST},
       {"srgb -> f32 linear downscale (filtered in linear)", srgb, f32, 16, 12, 8, 6,
        {{0, 0, 0}, {16, 12, 1}}, {{0, 0, 0}, {8, 6, 1}}, VK_FILTER_LINEAR},
   };
   // clang-format on
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkFormatProperties sp, dp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, cases[i].src_format, &sp);
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, cases[i].dst_format, &dp);
      if (!(sp.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT) ||
          !(dp.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT)) {
         vkt_skip("%s: formats lack BLIT_SRC/BLIT_DST", cases[i].name);
         continue;
      }
      run_blit(&dev, &cases[i], use2);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

TEST_CASE(blits_scale_mirror_filter_and_convert_like_the_spec_formulas)
{
   blits(false);
}

TEST_CASE(blit_image2_matches_blit_image)
{
   blits(true);
}

/* Every colour format with BLIT_SRC and BLIT_DST: a nearest 2:1 blit to
 * the same format takes texel (2x + 1, 2y + 1) (the source coordinate of
 * destination texel x is 2x + 1 exactly, no tie), and on vkppu moves its
 * bits unchanged. Elsewhere a blit may canonicalize (NaN payloads, -0,
 * unused bits), so the case checks vkppu only. */
TEST_CASE(every_blit_format_blits_to_itself_nearest)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!open_device(&ctx, &dev, false))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("bit-exact same-format blits are vkppu's choice, not the spec's");
      vkt_device_destroy(&dev);
      vkt_context_destroy(&ctx);
      return;
   }
   uint32_t tested = 0;
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_E5B9G9R9_UFLOAT_PACK32; f++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      const VkFormatFeatureFlags need =
          VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
      if ((fp.optimalTilingFeatures & need) != need)
         continue;
      uint32_t tb = format_size(f).bytes;
      struct image src, dst;
      if (!image_2d(&dev, f, 14, 10, 1, 1, &src) || !image_2d(&dev, f, 7, 5, 1, 1, &dst))
         break;
      struct vkt_buffer in, out;
      VKT_REQUIRE(vkt_buffer_create(&dev, 14 * 10 * tb, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &in));
      VKT_REQUIRE(vkt_buffer_create(&dev, 7 * 5 * tb, VKT_USAGE_TRANSFER, VKT_MEMORY_HOST, &out));
      vkt_fill_random(in.map, 14 * 10 * tb, 7000 + (uint64_t)f);
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_general(cmd, &src);
      to_general(cmd, &dst);
      VkBufferImageCopy up = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageExtent = {14, 10, 1}};
      vkCmdCopyBufferToImage(cmd, in.buffer, src.image, VK_IMAGE_LAYOUT_GENERAL, 1, &up);
      transfer_barrier(cmd);
      VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      VkImageBlit r = {sub, {{0, 0, 0}, {14, 10, 1}}, sub, {{0, 0, 0}, {7, 5, 1}}};
      vkCmdBlitImage(cmd, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                     &r, VK_FILTER_NEAREST);
      transfer_barrier(cmd);
      VkBufferImageCopy down = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                .imageExtent = {7, 5, 1}};
      vkCmdCopyImageToBuffer(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &down);
      vkt_cmd_transfer_to_host_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      unsigned bad = 0;
      for (uint32_t y = 0; y < 5; y++)
         for (uint32_t x = 0; x < 7; x++)
            bad += memcmp((const uint8_t *)out.map + (y * 7 + x) * tb,
                          (const uint8_t *)in.map + ((2 * y + 1) * 14 + 2 * x + 1) * tb, tb) != 0;
      if (bad)
         test_fail(__FILE__, __LINE__, "format %d: %u of 35 texels differ", f, bad);
      tested++;
      vkt_buffer_destroy(&dev, &in);
      vkt_buffer_destroy(&dev, &out);
      image_destroy(&dev, &src);
      image_destroy(&dev, &dst);
   }
   printf("  %u formats blitted\n", tested);
   CHECK(tested > 0);
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

/* A resolve needs a 4x source: resolving a single-sampled image is invalid
 * usage, which vkppu reports through the messenger, recording nothing. The
 * call is made on purpose, its messages excused. (Resolves of 4x images:
 * test_graphics_msaa.c.) */
TEST_CASE(resolve_image_reports_an_error_and_changes_nothing)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!open_device(&ctx, &dev, true))
      return;
   PFN_vkCmdResolveImage2KHR resolve2 =
       (PFN_vkCmdResolveImage2KHR)vkGetDeviceProcAddr(dev.device, "vkCmdResolveImage2KHR");
   struct image src, dst;
   if (!ctx.is_vkppu) {
      vkt_skip("resolving single-sampled images is undefined elsewhere");
   } else if (resolve2 && image_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, &src) &&
              image_2d(&dev, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, &dst)) {
      static const char *const expected[] = {"vkCmdResolveImage", "must have 4 samples", NULL};
      VkCommandBuffer cmd = vkt_cmd_begin(&dev, ctx.universal_family);
      to_general(cmd, &src);
      to_general(cmd, &dst);
      VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      const VkClearColorValue one = {.float32 = {1, 1, 1, 1}}, zero = {{0}};
      vkCmdClearColorImage(cmd, src.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
      vkCmdClearColorImage(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, &one, 1, &all);
      transfer_barrier(cmd);
      VkImageSubresourceLayers sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      VkImageResolve r = {sub, {0, 0, 0}, sub, {0, 0, 0}, {8, 8, 1}};
      VkImageResolve2 r2 = {
          VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, NULL, sub, {0, 0, 0}, sub, {0, 0, 0}, {8, 8, 1}};
      VkResolveImageInfo2 info = {VK_STRUCTURE_TYPE_RESOLVE_IMAGE_INFO_2,
                                  NULL,
                                  src.image,
                                  VK_IMAGE_LAYOUT_GENERAL,
                                  dst.image,
                                  VK_IMAGE_LAYOUT_GENERAL,
                                  1,
                                  &r2};
      vkt_tolerate_begin(expected);
      vkCmdResolveImage(cmd, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL,
                        1, &r);
      resolve2(cmd, &info);
      struct vkt_message_counts counts = vkt_message_counts();
      uint32_t excused = vkt_tolerate_end();
      transfer_barrier(cmd);
      VKT_CHECK(vkt_cmd_submit_wait(&dev, ctx.universal_family, 0, cmd));
      /* The driver's own two reports are among the excused messages. */
      CHECK_MSG(excused >= 2 && counts.errors >= 2, "%u messages excused", excused);
      uint32_t texels[64];
      read_back(&dev, &dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 4, texels, sizeof(texels));
      const uint32_t white = 0xffffffffu;
      CHECK_EQ_U64(count_not((const uint8_t *)texels, 64, &white, 4, 0xffffffffu), 0);
      image_destroy(&dev, &src);
      image_destroy(&dev, &dst);
   }
   vkt_device_destroy(&dev);
   vkt_context_destroy(&ctx);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
