/* VkImage, VkImageView, VkSampler, VkBufferView and the format table.
 *
 * Every image is described to the hardware by a texture header
 * (hw/include/ppu/texture.h): the image keeps one that covers all of its
 * levels and layers (`whole`), which transfer commands copy into upload
 * memory for the copy engine; every view keeps the header a shader reads
 * from a descriptor; a sampler keeps its sampler header. Headers are built
 * when the object is created (views) or bound (images), so writing a
 * descriptor is a 64-byte copy.
 */
#ifndef VKPPU_IMAGE_H
#define VKPPU_IMAGE_H

#include <ppu/texture.h>

#include "vkppu_device.h"

struct vkppu_device_memory;

/* The struct of type `type` chained at `next`, or NULL. */
static inline const void *vkppu_find_in_chain(const void *next, VkStructureType type)
{
   for (const VkBaseInStructure *s = next; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

/* ---- format table (format_table.c) ---- */

struct vkppu_format_info {
   enum ppu_tex_format hw;         /* PPU_TEX_FORMAT_INVALID: not supported */
   VkImageAspectFlags aspects;     /* COLOR, or DEPTH and/or STENCIL */
   VkFormatFeatureFlags optimal;   /* optimalTilingFeatures */
   VkFormatFeatureFlags linear;    /* linearTilingFeatures */
   VkFormatFeatureFlags buffer;    /* bufferFeatures */
   VkFormatFeatureFlags2 optimal2; /* the same with the _2 bits (storage without format, ...) */
   VkFormatFeatureFlags2 linear2;
   VkFormatFeatureFlags2 buffer2;
};

/* What vkppu supports of `format`; all zero (hw INVALID) when unsupported. */
const struct vkppu_format_info *vkppu_format_info(VkFormat format);

/* Integer colour formats: the colour attachments that cannot blend. They
 * have no average (resolves take sample zero). */
static inline bool vkppu_format_is_integer_color(VkFormat format)
{
   const struct vkppu_format_info *f = vkppu_format_info(format);
   return (f->optimal & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) &&
          !(f->optimal & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT);
}

/* Whether a view of format `b` may show an image of format `a` created with
 * VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT (same compatibility class). */
bool vkppu_formats_view_compatible(VkFormat a, VkFormat b);

/* Whether an image of compressed format `image` created with
 * VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT may be viewed as `view`:
 * an uncompressed color format whose texel is as large as one block, so
 * that one texel of the view is one block of the image (Vulkan's
 * "size-compatible" formats). */
bool vkppu_formats_block_texel_compatible(VkFormat image, VkFormat view);

/* The features of every format a view of an image of `format` created with
 * `flags` may have, the image's own included: what the image's usage may
 * ask for with VK_IMAGE_CREATE_EXTENDED_USAGE_BIT. */
VkFormatFeatureFlags vkppu_format_view_features(VkFormat format, VkImageCreateFlags flags,
                                                bool linear);

/* ---- what images can be (physical_device_formats.c) ---- */

/* Levels of a full mip chain of an image whose largest dimension is
 * `extent`: floor(log2) + 1. */
static inline uint32_t vkppu_mip_chain_levels(uint32_t extent)
{
   uint32_t levels = 1;
   while (extent >>= 1)
      levels++;
   return levels;
}

/* Image create flags vkppu supports: mutable formats, cube-compatible 2D
 * images, aliasing (VK_KHR_bind_memory2), and the image flags of Vulkan 1.1
 * (maintenance1: 2D views of 3D images; maintenance2: uncompressed views of
 * BC images and usages only a view format supports), and 2D views of 3D
 * images in descriptors (VK_EXT_image_2d_view_of_3d: the texture unit reads
 * them like any 2D view, so only the extension's listing is missing).
 * Everything else
 * (sparse, protected, split-instance, ...) belongs to a feature or
 * extension not reported. */
#define VKPPU_IMAGE_CREATE_SUPPORTED_FLAGS                                                         \
   (VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |                     \
    VK_IMAGE_CREATE_ALIAS_BIT | VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT |                          \
    VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT |         \
    VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT)

/* The answer of vkGetPhysicalDeviceImageFormatProperties: NULL with *out
 * filled when the combination is supported, else the reason (*out zero).
 * vkCreateImage checks its create info against the same answer. */
const char *vkppu_image_format_support(const struct vkppu_physical_device *pd, VkFormat format,
                                       VkImageType type, VkImageTiling tiling,
                                       VkImageUsageFlags usage, VkImageCreateFlags flags,
                                       VkImageFormatProperties *out);

/* ---- images (image.c) ---- */

struct vkppu_image {
   struct vkppu_object base;
   VkImageCreateFlags flags;
   VkImageType type;
   VkFormat format;
   VkExtent3D extent;
   uint32_t mip_levels;
   uint32_t array_layers;
   VkImageTiling tiling;
   VkImageUsageFlags usage;
   /* 1 or 4. A 4x image is, in memory and in `whole`, a 1x image of twice
    * the width and height: sample s of pixel (x, y) is texel
    * (2x + (s & 1), 2y + (s >> 1)), the ROP's layout of a 4x target
    * (docs/images.md). */
   VkSampleCountFlagBits samples;
   VkDeviceSize size;                  /* memory requirement */
   VkDeviceSize alignment;             /* memory requirement */
   struct vkppu_device_memory *memory; /* NULL until bound */
   VkDeviceSize memory_offset;
   /* The whole image (all levels, all layers) as the hardware sees it;
    * `whole.address` is 0 until the image is bound. Linear images have a
    * row pitch, block-linear ones a block height and layer stride. */
   struct ppu_texture_header whole;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_image, VkImage)

/* Memory layout (docs/images.md): block-linear images are 512-byte (GOB)
 * aligned; linear ones have rows VKPPU_LINEAR_ROW_PITCH_ALIGN bytes apart
 * and start on that alignment too. 64 bytes is the copy engine's and a
 * cache line's unit, and what optimalBufferCopyRowPitchAlignment says. */
#define VKPPU_BLOCK_LINEAR_IMAGE_ALIGN PPU_GOB_BYTES
#define VKPPU_LINEAR_ROW_PITCH_ALIGN 64u
#define VKPPU_LINEAR_IMAGE_ALIGN 64u

/* Texels per pixel along x and along y: 2 for a 4x image, else 1. */
static inline uint32_t vkppu_image_sample_scale(const struct vkppu_image *img)
{
   return img->samples == VK_SAMPLE_COUNT_4_BIT ? 2u : 1u;
}

/* The largest width and height of a 4x image: its texel image is twice as
 * large and the texture header (and the copy engine) stop at 16384. */
#define VKPPU_MAX_MULTISAMPLE_EXTENT (PPU_TEX_MAX_EXTENT / 2u)

/* Fills every field of img but the base and the binding from ci: the shape
 * and the layout (`whole` with address 0, size, alignment). ci must be
 * within what vkppu_image_format_support allows. */
void vkppu_image_init_layout(struct vkppu_image *img, const VkImageCreateInfo *ci);

/* ---- image views (image_view.c) ---- */

struct vkppu_image_view {
   struct vkppu_object base;
   struct vkppu_image *image;
   VkImageViewType type;
   VkFormat format;
   VkImageSubresourceRange range; /* REMAINING_* resolved */
   /* What a SAMPLED_IMAGE / STORAGE_IMAGE / COMBINED descriptor holds. */
   struct ppu_texture_header header;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_image_view, VkImageView)

/* ---- samplers (sampler.c) ---- */

struct vkppu_sampler {
   struct vkppu_object base;
   struct ppu_sampler_header header; /* what a SAMPLER / COMBINED descriptor holds */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_sampler, VkSampler)

/* ---- buffer views (buffer_view.c) ---- */

struct vkppu_buffer_view {
   struct vkppu_object base;
   VkFormat format;
   uint64_t va;       /* first byte */
   uint64_t elements; /* texels the view covers */
   /* What a UNIFORM/STORAGE_TEXEL_BUFFER descriptor holds (dim BUFFER). */
   struct ppu_texture_header header;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_buffer_view, VkBufferView)

#endif /* VKPPU_IMAGE_H */
