/* Images as objects: format features against image format properties,
 * images of every supported format in every shape (create, memory
 * requirements, bind, view, destroy), the subresource layout of linear
 * images, views of every type with swizzles, formats and aspects, every
 * sampler state, and texel-buffer views.
 *
 * Runs on any driver (lvp.images cross-checks the test); on vkppu the
 * features must also be exactly the policy of docs/images.md and memory
 * requirements exactly the layout of ppu/texture.h. Invalid usage (what
 * the driver refuses, and how) is tested in tests/icd/test_images.c, since
 * the validation layer stops invalid calls before they reach a driver. */
#include <stdio.h>
#include <string.h>

#include <ppu/texture.h>

#include "vk_test_context.h"

/* Every VkFormat of Vulkan 1.0. */
#define LAST_CORE_FORMAT VK_FORMAT_ASTC_12x12_SRGB_BLOCK

/* ---- the feature policy of docs/images.md, restated for vkppu ---- */

static const VkFormat float_formats[] = {
    VK_FORMAT_R8_UNORM,
    VK_FORMAT_R8_SNORM,
    VK_FORMAT_R8G8_UNORM,
    VK_FORMAT_R8G8_SNORM,
    VK_FORMAT_R8G8B8A8_UNORM,
    VK_FORMAT_R8G8B8A8_SNORM,
    VK_FORMAT_B8G8R8A8_UNORM,
    VK_FORMAT_A2B10G10R10_UNORM_PACK32,
    VK_FORMAT_A2R10G10B10_UNORM_PACK32,
    VK_FORMAT_B10G11R11_UFLOAT_PACK32,
    VK_FORMAT_R5G6B5_UNORM_PACK16,
    VK_FORMAT_B5G6R5_UNORM_PACK16,
    VK_FORMAT_A1R5G5B5_UNORM_PACK16,
    VK_FORMAT_R5G5B5A1_UNORM_PACK16,
    VK_FORMAT_B5G5R5A1_UNORM_PACK16,
    VK_FORMAT_R4G4B4A4_UNORM_PACK16,
    VK_FORMAT_B4G4R4A4_UNORM_PACK16,
    VK_FORMAT_A8B8G8R8_UNORM_PACK32,
    VK_FORMAT_A8B8G8R8_SNORM_PACK32,
    VK_FORMAT_R16_UNORM,
    VK_FORMAT_R16_SNORM,
    VK_FORMAT_R16_SFLOAT,
    VK_FORMAT_R16G16_UNORM,
    VK_FORMAT_R16G16_SNORM,
    VK_FORMAT_R16G16_SFLOAT,
    VK_FORMAT_R16G16B16A16_UNORM,
    VK_FORMAT_R16G16B16A16_SNORM,
    VK_FORMAT_R16G16B16A16_SFLOAT,
    VK_FORMAT_R32_SFLOAT,
    VK_FORMAT_R32G32_SFLOAT,
    VK_FORMAT_R32G32B32A32_SFLOAT,
};
static const VkFormat int_formats[] = {
    VK_FORMAT_R8_UINT,
    VK_FORMAT_R8_SINT,
    VK_FORMAT_R8G8_UINT,
    VK_FORMAT_R8G8_SINT,
    VK_FORMAT_R8G8B8A8_UINT,
    VK_FORMAT_R8G8B8A8_SINT,
    VK_FORMAT_A2B10G10R10_UINT_PACK32,
    VK_FORMAT_A8B8G8R8_UINT_PACK32,
    VK_FORMAT_A8B8G8R8_SINT_PACK32,
    VK_FORMAT_R16_UINT,
    VK_FORMAT_R16_SINT,
    VK_FORMAT_R16G16_UINT,
    VK_FORMAT_R16G16_SINT,
    VK_FORMAT_R16G16B16A16_UINT,
    VK_FORMAT_R16G16B16A16_SINT,
    VK_FORMAT_R32_UINT,
    VK_FORMAT_R32_SINT,
    VK_FORMAT_R32G32_UINT,
    VK_FORMAT_R32G32_SINT,
    VK_FORMAT_R32G32B32A32_UINT,
    VK_FORMAT_R32G32B32A32_SINT,
};
static const VkFormat srgb_formats[] = {
    VK_FORMAT_R8_SRGB,
    VK_FORMAT_R8G8_SRGB,
    VK_FORMAT_R8G8B8A8_SRGB,
    VK_FORMAT_B8G8R8A8_SRGB,
    VK_FORMAT_A8B8G8R8_SRGB_PACK32,
    VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, /* not storage either: same row of the policy */
};
static const VkFormat depth_formats[] = {
    VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
    VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT,
};

enum policy_class {
   CLASS_NONE,
   CLASS_FLOAT,
   CLASS_INT,
   CLASS_NO_STORAGE,
   CLASS_DEPTH,
   CLASS_STENCIL,
   CLASS_BC
};

static bool in_list(VkFormat f, const VkFormat *list, size_t n)
{
   for (size_t i = 0; i < n; i++)
      if (list[i] == f)
         return true;
   return false;
}
#define IN_LIST(f, list) in_list(f, list, sizeof(list) / sizeof(list[0]))

static enum policy_class policy_class(VkFormat f)
{
   if (IN_LIST(f, float_formats))
      return CLASS_FLOAT;
   if (IN_LIST(f, int_formats))
      return CLASS_INT;
   if (IN_LIST(f, srgb_formats))
      return CLASS_NO_STORAGE;
   if (IN_LIST(f, depth_formats))
      return CLASS_DEPTH;
   if (f == VK_FORMAT_S8_UINT)
      return CLASS_STENCIL;
   if (f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= VK_FORMAT_BC7_SRGB_BLOCK)
      return CLASS_BC;
   return CLASS_NONE;
}

/* The vertex formats acceleration-structure builds read (the ones
 * VK_KHR_acceleration_structure requires the feature for): the builder's
 * list, not the texture format policy (icd/physical_device_formats.c). */
static VkFormatFeatureFlags as_vertex_feature(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_R32G32B32_SFLOAT:
   case VK_FORMAT_R32G32_SFLOAT:
   case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R16G16_SFLOAT:
   case VK_FORMAT_R16G16B16A16_SNORM:
   case VK_FORMAT_R16G16_SNORM:
      return VK_FORMAT_FEATURE_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR;
   default:
      return 0;
   }
}

/* The vertex formats graphics pipelines fetch: the compiler's list
 * (docs/compiler.md "Graphics stages"), not the texture format policy. */
static VkFormatFeatureFlags vertex_feature(VkFormat f)
{
   static const VkFormat packed[] = {
       VK_FORMAT_A2B10G10R10_UNORM_PACK32,
       VK_FORMAT_A2B10G10R10_SNORM_PACK32,
       VK_FORMAT_A2B10G10R10_USCALED_PACK32,
       VK_FORMAT_A2B10G10R10_SSCALED_PACK32,
       VK_FORMAT_A2B10G10R10_UINT_PACK32,
       VK_FORMAT_A2B10G10R10_SINT_PACK32,
       VK_FORMAT_B8G8R8A8_UNORM,
   };
   bool yes = IN_LIST(f, packed) ||
              /* R8, R8G8 (each of the 6 kinds, not sRGB) */
              (f >= VK_FORMAT_R8_UNORM && f <= VK_FORMAT_R8_SINT) ||
              (f >= VK_FORMAT_R8G8_UNORM && f <= VK_FORMAT_R8G8_SINT) ||
              (f >= VK_FORMAT_R8G8B8A8_UNORM && f <= VK_FORMAT_R8G8B8A8_SINT) ||
              /* A8B8G8R8_PACK32: R8G8B8A8 in memory (not sRGB) */
              (f >= VK_FORMAT_A8B8G8R8_UNORM_PACK32 && f <= VK_FORMAT_A8B8G8R8_SINT_PACK32) ||
              /* every 16-bit format of 1 to 4 components */
              (f >= VK_FORMAT_R16_UNORM && f <= VK_FORMAT_R16G16B16A16_SFLOAT) ||
              /* every 32-bit one */
              (f >= VK_FORMAT_R32_UINT && f <= VK_FORMAT_R32G32B32A32_SFLOAT);
   return yes ? VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT : 0;
}

static VkFormatProperties expected_features(VkFormat f)
{
   VkFormatProperties p = {.bufferFeatures = as_vertex_feature(f) | vertex_feature(f)};
   enum policy_class c = policy_class(f);
   if (c == CLASS_NONE)
      return p;
   VkFormatFeatureFlags image = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
   if (c != CLASS_INT && c != CLASS_STENCIL)
      image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   if (c != CLASS_STENCIL)
      image |= VK_FORMAT_FEATURE_BLIT_SRC_BIT;
   bool storage = c == CLASS_FLOAT || c == CLASS_INT;
   bool atomic = f == VK_FORMAT_R32_UINT || f == VK_FORMAT_R32_SINT;
   if (storage)
      image |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
   /* Blits encode into every uncompressed colour format (sRGB included). */
   if (c == CLASS_FLOAT || c == CLASS_INT || c == CLASS_NO_STORAGE)
      image |= VK_FORMAT_FEATURE_BLIT_DST_BIT;
   if (atomic)
      image |= VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
   /* Render targets: uncompressed colour but E5B9G9R9 (blending all but
    * integers); every depth/stencil format. */
   if (c == CLASS_FLOAT || c == CLASS_INT ||
       (c == CLASS_NO_STORAGE && f != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32))
      image |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
               (c != CLASS_INT ? VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT : 0);
   if (c == CLASS_DEPTH || c == CLASS_STENCIL)
      image |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
   /* Min/max filtering on the spec's single-component list, optimal only
    * (test_sampler_filter_minmax.c samples each). */
   static const VkFormat minmax[] = {VK_FORMAT_R8_UNORM,          VK_FORMAT_R8_SNORM,
                                     VK_FORMAT_R16_UNORM,         VK_FORMAT_R16_SNORM,
                                     VK_FORMAT_R16_SFLOAT,        VK_FORMAT_R32_SFLOAT,
                                     VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32,
                                     VK_FORMAT_D32_SFLOAT,        VK_FORMAT_D24_UNORM_S8_UINT,
                                     VK_FORMAT_D32_SFLOAT_S8_UINT};
   p.optimalTilingFeatures =
       image | (IN_LIST(f, minmax) ? VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT : 0);
   if (c == CLASS_FLOAT || c == CLASS_INT || c == CLASS_NO_STORAGE) {
      p.linearTilingFeatures = image;
      p.bufferFeatures |= VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
   }
   if (storage)
      p.bufferFeatures |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
   if (atomic)
      p.bufferFeatures |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
   return p;
}

/* ---- helpers ---- */

/* The usages whose format feature the image query must agree with. */
static const struct {
   VkImageUsageFlags usage;
   VkFormatFeatureFlags feature;
} usage_features[] = {
    {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT},
    {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT},
    {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT},
    {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT},
};

/* vkppu's sampleCounts for a 2D image of one usage: 1 | 4 for optimal
 * attachments, and for optimal sampled images of formats that are
 * attachments too (texelFetch of a 4x view); else 1. */
static VkSampleCountFlags expected_sample_counts(VkFormatFeatureFlags features,
                                                 VkImageTiling tiling, VkImageUsageFlags usage)
{
   const VkFormatFeatureFlags attachment_features =
       VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
   bool attachment = usage == VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT ||
                     usage == VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT ||
                     (usage == VK_IMAGE_USAGE_SAMPLED_BIT && (features & attachment_features));
   return tiling == VK_IMAGE_TILING_OPTIMAL && attachment
              ? VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT
              : VK_SAMPLE_COUNT_1_BIT;
}

static uint32_t full_chain(uint32_t extent)
{
   uint32_t n = 1;
   while (extent >>= 1)
      n++;
   return n;
}

/* The usage an image of this format and tiling can have: sampled and
 * transfer, storage where the format allows it. */
static VkImageUsageFlags image_usage(VkFormatFeatureFlags features)
{
   VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                             VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
      usage |= VK_IMAGE_USAGE_STORAGE_BIT;
   return usage;
}

static VkDeviceMemory allocate_for(struct vkt_device *dev, const VkMemoryRequirements *req,
                                   VkMemoryPropertyFlags required)
{
   uint32_t type = vkt_find_memory_type(dev->ctx, req->memoryTypeBits, required, 0);
   if (type == VKT_NO_MEMORY_TYPE)
      return VK_NULL_HANDLE;
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req->size,
       .memoryTypeIndex = type,
   };
   VkDeviceMemory mem = VK_NULL_HANDLE;
   VKT_CHECK(vkAllocateMemory(dev->device, &mai, NULL, &mem));
   return mem;
}

/* An image with its own memory. */
struct test_image {
   VkImage image;
   VkDeviceMemory memory;
   VkMemoryRequirements req;
};

static bool image_create(struct vkt_device *dev, const VkImageCreateInfo *ici,
                         VkMemoryPropertyFlags memory_flags, struct test_image *out)
{
   memset(out, 0, sizeof(*out));
   VkResult r = vkCreateImage(dev->device, ici, NULL, &out->image);
   if (r != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreateImage(format %d, type %d, tiling %d) -> %s",
                ici->format, ici->imageType, ici->tiling, vkt_result_name(r));
      return false;
   }
   vkGetImageMemoryRequirements(dev->device, out->image, &out->req);
   out->memory = allocate_for(dev, &out->req, memory_flags);
   if (!out->memory)
      return false;
   VKT_CHECK(vkBindImageMemory(dev->device, out->image, out->memory, 0));
   return true;
}

static void image_destroy(struct vkt_device *dev, struct test_image *img)
{
   vkDestroyImage(dev->device, img->image, NULL);
   vkFreeMemory(dev->device, img->memory, NULL);
}

static VkImageView view_create(struct vkt_device *dev, VkImage image, VkImageViewType type,
                               VkFormat format, VkImageAspectFlags aspect,
                               VkComponentMapping components, uint32_t base_level, uint32_t levels,
                               uint32_t base_layer, uint32_t layers)
{
   VkImageViewCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = image,
       .viewType = type,
       .format = format,
       .components = components,
       .subresourceRange = {aspect, base_level, levels, base_layer, layers},
   };
   VkImageView view = VK_NULL_HANDLE;
   VkResult r = vkCreateImageView(dev->device, &ci, NULL, &view);
   CHECK_MSG(r == VK_SUCCESS, "vkCreateImageView(type %d, format %d) -> %s", type, format,
             vkt_result_name(r));
   return view;
}

static const VkComponentMapping identity = {0};

/* The layout ppu/texture.h gives an optimal image whose block height is
 * chosen from the first level's rows (docs/images.md): bytes of all levels
 * and layers. */
static uint64_t block_linear_size(const VkImageCreateInfo *ci, enum ppu_tex_format hw)
{
   struct ppu_texture_header h = {
       .format = (uint16_t)hw,
       .dim = ci->imageType == VK_IMAGE_TYPE_3D ? PPU_TEX_DIM_3D : PPU_TEX_DIM_2D,
       .layout = PPU_TEX_LAYOUT_BLOCK_LINEAR,
       .block_height_log2 = PPU_TEX_MAX_BLOCK_HEIGHT_LOG2,
       .width = ci->extent.width,
       .height = ci->extent.height,
       .depth = ci->extent.depth,
       .image_levels = (uint8_t)ci->mipLevels,
   };
   h.block_height_log2 = (uint8_t)ppu_tex_level_block_height_log2(&h, 0);
   return ppu_tex_layer_size(&h) * ci->arrayLayers;
}

/* The hardware format of a supported VkFormat, from the policy lists: its
 * position among the formats in ppu/texture.h's order (PPU_TEX_FORMATS
 * lists them in VkFormat order, except the packed and depth groups). */
static enum ppu_tex_format hw_format_of(VkFormat f)
{
   static const VkFormat order[] = {
       VK_FORMAT_UNDEFINED,
       VK_FORMAT_R8_UNORM,
       VK_FORMAT_R8_SNORM,
       VK_FORMAT_R8_UINT,
       VK_FORMAT_R8_SINT,
       VK_FORMAT_R8_SRGB,
       VK_FORMAT_R8G8_UNORM,
       VK_FORMAT_R8G8_SNORM,
       VK_FORMAT_R8G8_UINT,
       VK_FORMAT_R8G8_SINT,
       VK_FORMAT_R8G8_SRGB,
       VK_FORMAT_R8G8B8A8_UNORM,
       VK_FORMAT_R8G8B8A8_SNORM,
       VK_FORMAT_R8G8B8A8_UINT,
       VK_FORMAT_R8G8B8A8_SINT,
       VK_FORMAT_R8G8B8A8_SRGB,
       VK_FORMAT_B8G8R8A8_UNORM,
       VK_FORMAT_B8G8R8A8_SRGB,
       VK_FORMAT_A2B10G10R10_UNORM_PACK32,
       VK_FORMAT_A2B10G10R10_UINT_PACK32,
       VK_FORMAT_A2R10G10B10_UNORM_PACK32,
       VK_FORMAT_B10G11R11_UFLOAT_PACK32,
       VK_FORMAT_E5B9G9R9_UFLOAT_PACK32,
       VK_FORMAT_R5G6B5_UNORM_PACK16,
       VK_FORMAT_R16_UNORM,
       VK_FORMAT_R16_SNORM,
       VK_FORMAT_R16_UINT,
       VK_FORMAT_R16_SINT,
       VK_FORMAT_R16_SFLOAT,
       VK_FORMAT_R16G16_UNORM,
       VK_FORMAT_R16G16_SNORM,
       VK_FORMAT_R16G16_UINT,
       VK_FORMAT_R16G16_SINT,
       VK_FORMAT_R16G16_SFLOAT,
       VK_FORMAT_R16G16B16A16_UNORM,
       VK_FORMAT_R16G16B16A16_SNORM,
       VK_FORMAT_R16G16B16A16_UINT,
       VK_FORMAT_R16G16B16A16_SINT,
       VK_FORMAT_R16G16B16A16_SFLOAT,
       VK_FORMAT_R32_UINT,
       VK_FORMAT_R32_SINT,
       VK_FORMAT_R32_SFLOAT,
       VK_FORMAT_R32G32_UINT,
       VK_FORMAT_R32G32_SINT,
       VK_FORMAT_R32G32_SFLOAT,
       VK_FORMAT_R32G32B32A32_UINT,
       VK_FORMAT_R32G32B32A32_SINT,
       VK_FORMAT_R32G32B32A32_SFLOAT,
       VK_FORMAT_D16_UNORM,
       VK_FORMAT_X8_D24_UNORM_PACK32,
       VK_FORMAT_D32_SFLOAT,
       VK_FORMAT_S8_UINT,
       VK_FORMAT_D24_UNORM_S8_UINT,
       VK_FORMAT_D32_SFLOAT_S8_UINT,
   };
   _Static_assert(sizeof(order) / sizeof(order[0]) == PPU_TEX_FORMAT_BC1_RGB_UNORM,
                  "every uncompressed format");
   for (unsigned i = 1; i < sizeof(order) / sizeof(order[0]); i++)
      if (order[i] == f)
         return (enum ppu_tex_format)i;
   if (f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= VK_FORMAT_BC7_SRGB_BLOCK)
      return (enum ppu_tex_format)(PPU_TEX_FORMAT_BC1_RGB_UNORM +
                                   (f - VK_FORMAT_BC1_RGB_UNORM_BLOCK));
   /* The 16-bit packed formats appended after BC7, and A8B8G8R8, which is
    * R8G8B8A8 in memory. */
   static const struct {
      VkFormat vk;
      enum ppu_tex_format hw;
   } later[] = {
       {VK_FORMAT_B5G6R5_UNORM_PACK16, PPU_TEX_FORMAT_B5G6R5_UNORM},
       {VK_FORMAT_A1R5G5B5_UNORM_PACK16, PPU_TEX_FORMAT_A1R5G5B5_UNORM},
       {VK_FORMAT_R5G5B5A1_UNORM_PACK16, PPU_TEX_FORMAT_R5G5B5A1_UNORM},
       {VK_FORMAT_B5G5R5A1_UNORM_PACK16, PPU_TEX_FORMAT_B5G5R5A1_UNORM},
       {VK_FORMAT_R4G4B4A4_UNORM_PACK16, PPU_TEX_FORMAT_R4G4B4A4_UNORM},
       {VK_FORMAT_B4G4R4A4_UNORM_PACK16, PPU_TEX_FORMAT_B4G4R4A4_UNORM},
       {VK_FORMAT_A8B8G8R8_UNORM_PACK32, PPU_TEX_FORMAT_R8G8B8A8_UNORM},
       {VK_FORMAT_A8B8G8R8_SNORM_PACK32, PPU_TEX_FORMAT_R8G8B8A8_SNORM},
       {VK_FORMAT_A8B8G8R8_UINT_PACK32, PPU_TEX_FORMAT_R8G8B8A8_UINT},
       {VK_FORMAT_A8B8G8R8_SINT_PACK32, PPU_TEX_FORMAT_R8G8B8A8_SINT},
       {VK_FORMAT_A8B8G8R8_SRGB_PACK32, PPU_TEX_FORMAT_R8G8B8A8_SRGB},
   };
   for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++)
      if (later[i].vk == f)
         return later[i].hw;
   return PPU_TEX_FORMAT_INVALID;
}

/* ---- cases ---- */

/* Every format: the usages a format's features allow are exactly those
 * vkGetPhysicalDeviceImageFormatProperties allows for a 2D image, in both
 * tilings; on vkppu, the features are exactly the documented policy. */
TEST_CASE(format_features_agree_with_image_format_properties)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   uint32_t supported = 0;
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= LAST_CORE_FORMAT; f++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      if (ctx.is_vkppu) {
         VkFormatProperties want = expected_features(f);
         CHECK_MSG(memcmp(&fp, &want, sizeof(fp)) == 0,
                   "format %d: features optimal 0x%x linear 0x%x buffer 0x%x, policy says "
                   "0x%x 0x%x 0x%x",
                   f, fp.optimalTilingFeatures, fp.linearTilingFeatures, fp.bufferFeatures,
                   want.optimalTilingFeatures, want.linearTilingFeatures, want.bufferFeatures);
      }
      if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
         supported++;
      for (int linear = 0; linear < 2; linear++) {
         VkFormatFeatureFlags features =
             linear ? fp.linearTilingFeatures : fp.optimalTilingFeatures;
         VkImageTiling tiling = linear ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL;
         for (size_t u = 0; u < sizeof(usage_features) / sizeof(usage_features[0]); u++) {
            VkImageFormatProperties ifp;
            VkResult r = vkGetPhysicalDeviceImageFormatProperties(
                ctx.physical_device, f, VK_IMAGE_TYPE_2D, tiling, usage_features[u].usage, 0, &ifp);
            bool has = (features & usage_features[u].feature) != 0;
            /* A usage without its feature is never supported. With the
             * feature, a 2D image must be possible (vkppu; other drivers
             * may still refuse a combination, e.g. linear depth). */
            if (!has)
               CHECK_MSG(r == VK_ERROR_FORMAT_NOT_SUPPORTED,
                         "format %d tiling %d usage 0x%x without its feature -> %s", f, tiling,
                         usage_features[u].usage, vkt_result_name(r));
            else if (ctx.is_vkppu)
               CHECK_MSG(r == VK_SUCCESS && ifp.maxExtent.width >= 1 && ifp.maxMipLevels >= 1 &&
                             ifp.maxArrayLayers >= 1 &&
                             ifp.sampleCounts ==
                                 expected_sample_counts(features, tiling, usage_features[u].usage),
                         "format %d tiling %d usage 0x%x with its feature -> %s, samples 0x%x", f,
                         tiling, usage_features[u].usage, vkt_result_name(r), ifp.sampleCounts);
         }
      }
   }
   printf("  %u formats can be sampled\n", supported);
   /* Every texel format, plus the 5 A8B8G8R8 formats that share R8G8B8A8's. */
   if (ctx.is_vkppu)
      CHECK_EQ_U64(supported, PPU_TEX_FORMAT_COUNT - 1 + 5);
   vkt_context_destroy(&ctx);
}

/* vkppu's image format properties: the limits, linear tiling's one level
 * and layer, cube-compatible extents, and the combinations it refuses. */
TEST_CASE(image_format_properties_follow_the_limits)
{
   struct vkt_context ctx;
   if (!vkt_context_create(&ctx))
      return;
   if (!ctx.is_vkppu) {
      vkt_skip("vkppu's own limits");
      vkt_context_destroy(&ctx);
      return;
   }
   const VkPhysicalDeviceLimits *l = &ctx.props.limits;
   const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT;
   const struct {
      VkFormat format;
      VkImageType type;
      VkImageTiling tiling;
      VkImageCreateFlags flags;
      VkExtent3D extent;
      uint32_t levels, layers;
      VkSampleCountFlags samples; /* 4x: optimal 2D attachment formats */
   } ok[] = {
       {VK_FORMAT_R8G8B8A8_UNORM,
        VK_IMAGE_TYPE_1D,
        VK_IMAGE_TILING_OPTIMAL,
        0,
        {l->maxImageDimension1D, 1, 1},
        full_chain(l->maxImageDimension1D),
        l->maxImageArrayLayers,
        VK_SAMPLE_COUNT_1_BIT},
       {VK_FORMAT_R8G8B8A8_UNORM,
        VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL,
        0,
        {l->maxImageDimension2D, l->maxImageDimension2D, 1},
        full_chain(l->maxImageDimension2D),
        l->maxImageArrayLayers,
        VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT},
       {VK_FORMAT_R32_SFLOAT,
        VK_IMAGE_TYPE_3D,
        VK_IMAGE_TILING_OPTIMAL,
        0,
        {l->maxImageDimension3D, l->maxImageDimension3D, l->maxImageDimension3D},
        full_chain(l->maxImageDimension3D),
        1,
        VK_SAMPLE_COUNT_1_BIT},
       {VK_FORMAT_BC7_UNORM_BLOCK,
        VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
        {l->maxImageDimensionCube, l->maxImageDimensionCube, 1},
        full_chain(l->maxImageDimensionCube),
        l->maxImageArrayLayers,
        VK_SAMPLE_COUNT_1_BIT},
       {VK_FORMAT_D24_UNORM_S8_UINT,
        VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
        {l->maxImageDimension2D, l->maxImageDimension2D, 1},
        full_chain(l->maxImageDimension2D),
        l->maxImageArrayLayers,
        VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT},
       {VK_FORMAT_R16G16_SFLOAT,
        VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_LINEAR,
        0,
        {l->maxImageDimension2D, l->maxImageDimension2D, 1},
        1,
        1,
        VK_SAMPLE_COUNT_1_BIT},
   };
   for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
      VkImageFormatProperties p;
      VkResult r = vkGetPhysicalDeviceImageFormatProperties(
          ctx.physical_device, ok[i].format, ok[i].type, ok[i].tiling, sampled, ok[i].flags, &p);
      CHECK_MSG(r == VK_SUCCESS, "case %zu -> %s", i, vkt_result_name(r));
      CHECK_MSG(p.maxExtent.width == ok[i].extent.width &&
                    p.maxExtent.height == ok[i].extent.height &&
                    p.maxExtent.depth == ok[i].extent.depth && p.maxMipLevels == ok[i].levels &&
                    p.maxArrayLayers == ok[i].layers && p.sampleCounts == ok[i].samples &&
                    p.maxResourceSize >= (1ull << 31),
                "case %zu: extent %ux%ux%u, %u levels, %u layers, samples 0x%x, max size %llu", i,
                p.maxExtent.width, p.maxExtent.height, p.maxExtent.depth, p.maxMipLevels,
                p.maxArrayLayers, p.sampleCounts, (unsigned long long)p.maxResourceSize);
   }

   const struct {
      const char *what;
      VkFormat format;
      VkImageType type;
      VkImageTiling tiling;
      VkImageUsageFlags usage;
      VkImageCreateFlags flags;
   } refused[] = {
       {"ASTC (no hardware format)", VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL, sampled, 0},
       {"R8G8B8 (no hardware format)", VK_FORMAT_R8G8B8_UNORM, VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL, sampled, 0},
       {"color attachment of a BC format", VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0},
       {"depth attachment of a colour format", VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_2D,
        VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0},
       {"input attachment of a format that is no attachment", VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
        VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, 0},
       {"storage sRGB", VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_STORAGE_BIT, 0},
       {"storage BC", VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_STORAGE_BIT, 0},
       {"linear depth", VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR, sampled, 0},
       {"linear BC", VK_FORMAT_BC3_UNORM_BLOCK, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR, sampled,
        0},
       {"linear 1D", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_1D, VK_IMAGE_TILING_LINEAR, sampled, 0},
       {"linear 3D", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_LINEAR, sampled, 0},
       {"3D BC", VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL, sampled,
        0},
       {"1D depth", VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_1D, VK_IMAGE_TILING_OPTIMAL, sampled, 0},
       {"cube-compatible 3D", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL,
        sampled, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT},
       {"sparse binding", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, sampled,
        VK_IMAGE_CREATE_SPARSE_BINDING_BIT},
   };
   for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
      VkImageFormatProperties p;
      memset(&p, 0xff, sizeof(p));
      VkResult r = vkGetPhysicalDeviceImageFormatProperties(ctx.physical_device, refused[i].format,
                                                            refused[i].type, refused[i].tiling,
                                                            refused[i].usage, refused[i].flags, &p);
      CHECK_MSG(r == VK_ERROR_FORMAT_NOT_SUPPORTED, "%s -> %s", refused[i].what,
                vkt_result_name(r));
      CHECK_MSG(p.maxExtent.width == 0 && p.maxResourceSize == 0, "%s: properties not zeroed",
                refused[i].what);
   }
   vkt_context_destroy(&ctx);
}

/* The shapes every supported format is made in. */
static const struct shape {
   const char *name;
   VkImageType type;
   VkImageViewType view;
   VkImageTiling tiling;
   VkImageCreateFlags flags;
   VkExtent3D extent;
   uint32_t levels, layers;
} shapes[] = {
    {"1D, full mip chain",
     VK_IMAGE_TYPE_1D,
     VK_IMAGE_VIEW_TYPE_1D,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {300, 1, 1},
     9,
     1},
    {"1D array",
     VK_IMAGE_TYPE_1D,
     VK_IMAGE_VIEW_TYPE_1D_ARRAY,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {64, 1, 1},
     3,
     4},
    {"2D, full mip chain",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_2D,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {100, 50, 1},
     7,
     1},
    {"2D, tall blocks",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_2D,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {300, 260, 1},
     2,
     1},
    {"2D array",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_2D_ARRAY,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {37, 19, 1},
     3,
     5},
    {"cube",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_CUBE,
     VK_IMAGE_TILING_OPTIMAL,
     VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
     {16, 16, 1},
     5,
     6},
    {"two cubes",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_CUBE,
     VK_IMAGE_TILING_OPTIMAL,
     VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
     {8, 8, 1},
     1,
     12},
    {"3D, full mip chain",
     VK_IMAGE_TYPE_3D,
     VK_IMAGE_VIEW_TYPE_3D,
     VK_IMAGE_TILING_OPTIMAL,
     0,
     {9, 7, 5},
     4,
     1},
    {"2D linear",
     VK_IMAGE_TYPE_2D,
     VK_IMAGE_VIEW_TYPE_2D,
     VK_IMAGE_TILING_LINEAR,
     0,
     {33, 17, 1},
     1,
     1},
};

/* Every supported format in every shape its image format properties
 * allow: created, memory requirements checked, bound, viewed, destroyed.
 * On vkppu every shape the policy allows must be allowed, and the memory
 * size is exactly the layout of ppu/texture.h. */
TEST_CASE(images_of_every_format_and_shape_bind_and_view)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   uint32_t made = 0;
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= LAST_CORE_FORMAT; f++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         const struct shape *sh = &shapes[s];
         bool linear = sh->tiling == VK_IMAGE_TILING_LINEAR;
         VkFormatFeatureFlags features =
             linear ? fp.linearTilingFeatures : fp.optimalTilingFeatures;
         if (!(features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
            continue;
         VkImageCreateInfo ici = {
             .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
             .flags = sh->flags,
             .imageType = sh->type,
             .format = f,
             .extent = sh->extent,
             .mipLevels = sh->levels,
             .arrayLayers = sh->layers,
             .samples = VK_SAMPLE_COUNT_1_BIT,
             .tiling = sh->tiling,
             .usage = image_usage(features),
             .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         };
         VkImageFormatProperties ifp;
         VkResult r = vkGetPhysicalDeviceImageFormatProperties(
             ctx.physical_device, f, sh->type, sh->tiling, ici.usage, sh->flags, &ifp);
         enum policy_class c = policy_class(f);
         bool policy_2d_only = c == CLASS_DEPTH || c == CLASS_STENCIL || c == CLASS_BC;
         if (ctx.is_vkppu)
            CHECK_MSG((r == VK_SUCCESS) == (!policy_2d_only || sh->type == VK_IMAGE_TYPE_2D),
                      "format %d, %s -> %s", f, sh->name, vkt_result_name(r));
         if (r != VK_SUCCESS || ifp.maxMipLevels < sh->levels || ifp.maxArrayLayers < sh->layers ||
             ifp.maxExtent.width < sh->extent.width)
            continue;
         struct test_image img;
         if (!image_create(&dev, &ici, 0, &img))
            continue;
         const VkMemoryRequirements *req = &img.req;
         CHECK_MSG(req->size > 0 && req->alignment && !(req->alignment & (req->alignment - 1)) &&
                       req->memoryTypeBits,
                   "format %d, %s: size %llu alignment %llu types 0x%x", f, sh->name,
                   (unsigned long long)req->size, (unsigned long long)req->alignment,
                   req->memoryTypeBits);
         if (ctx.is_vkppu && !linear) {
            uint64_t want = block_linear_size(&ici, hw_format_of(f));
            CHECK_MSG(req->size == want && req->alignment == PPU_GOB_BYTES,
                      "format %d, %s: %llu bytes aligned %llu, ppu/texture.h says %llu", f,
                      sh->name, (unsigned long long)req->size, (unsigned long long)req->alignment,
                      (unsigned long long)want);
         }
         /* Every memory type may hold it on vkppu. */
         if (ctx.is_vkppu)
            CHECK_EQ_U64(req->memoryTypeBits, (1u << ctx.memory.memoryTypeCount) - 1);
         VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
         if (c == CLASS_DEPTH)
            aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
         else if (c == CLASS_STENCIL)
            aspect = VK_IMAGE_ASPECT_STENCIL_BIT;
         uint32_t view_layers = sh->view == VK_IMAGE_VIEW_TYPE_CUBE ? 6 : sh->layers;
         VkImageView view =
             view_create(&dev, img.image, sh->view, f, aspect, identity, 0, VK_REMAINING_MIP_LEVELS,
                         sh->layers - view_layers, view_layers);
         vkDestroyImageView(dev.device, view, NULL);
         image_destroy(&dev, &img);
         made++;
      }
   }
   printf("  %u images made\n", made);
   vkt_teardown(&ctx, &dev);
}

/* A linear image's subresource layout: rows rowPitch apart inside the
 * memory requirement, written and read through a mapping. */
TEST_CASE(linear_image_rows_are_row_pitch_apart)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkFormat formats[] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_UINT};
   for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
      const uint32_t w = 33, h = 17, bytes = (uint32_t[]){1, 4, 8, 16}[i];
      VkImageCreateInfo ici = {
          .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
          .imageType = VK_IMAGE_TYPE_2D,
          .format = formats[i],
          .extent = {w, h, 1},
          .mipLevels = 1,
          .arrayLayers = 1,
          .samples = VK_SAMPLE_COUNT_1_BIT,
          .tiling = VK_IMAGE_TILING_LINEAR,
          .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
          .initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED,
      };
      struct test_image img;
      if (!image_create(&dev, &ici,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        &img))
         continue;
      VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
      VkSubresourceLayout layout;
      vkGetImageSubresourceLayout(dev.device, img.image, &sub, &layout);
      CHECK_MSG(layout.rowPitch >= w * bytes && layout.rowPitch % bytes == 0,
                "format %d: rowPitch %llu for rows of %u bytes", formats[i],
                (unsigned long long)layout.rowPitch, w * bytes);
      CHECK(layout.offset + (h - 1) * layout.rowPitch + w * bytes <= img.req.size);
      CHECK(layout.size >= (h - 1) * layout.rowPitch + w * bytes);
      if (ctx.is_vkppu) {
         /* docs/images.md: rows 64-byte aligned, the image at offset 0. */
         CHECK_EQ_U64(layout.rowPitch, (w * bytes + 63) / 64 * 64);
         CHECK_EQ_U64(layout.offset, 0);
         CHECK_EQ_U64(layout.size, layout.rowPitch * h);
      }
      uint8_t *map;
      VKT_CHECK(vkMapMemory(dev.device, img.memory, 0, VK_WHOLE_SIZE, 0, (void **)&map));
      if (map) {
         /* Each texel's first byte holds its (x, y); the padding stays. */
         memset(map, 0xee, img.req.size);
         for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
               map[layout.offset + y * layout.rowPitch + x * bytes] = (uint8_t)(x * 7 + y);
         vkUnmapMemory(dev.device, img.memory);
         VKT_CHECK(vkMapMemory(dev.device, img.memory, 0, VK_WHOLE_SIZE, 0, (void **)&map));
         uint32_t wrong = 0;
         for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < w; x++)
               wrong +=
                   map[layout.offset + y * layout.rowPitch + x * bytes] != (uint8_t)(x * 7 + y);
            if (layout.rowPitch > w * bytes)
               wrong += map[layout.offset + y * layout.rowPitch + w * bytes] != 0xee;
         }
         CHECK_MSG(wrong == 0, "format %d: %u bytes not where the layout put them", formats[i],
                   wrong);
         vkUnmapMemory(dev.device, img.memory);
      }
      image_destroy(&dev, &img);
   }
   vkt_teardown(&ctx, &dev);
}

/* Views of every type, with swizzles, other formats of a MUTABLE_FORMAT
 * image, REMAINING ranges and single aspects of depth/stencil images. */
TEST_CASE(image_views_of_every_type_swizzle_format_and_aspect)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {32, 32, 1},
       .mipLevels = 6,
       .arrayLayers = 12,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = usage,
   };
   struct test_image img;
   if (!image_create(&dev, &ici, 0, &img)) {
      vkt_teardown(&ctx, &dev);
      return;
   }
   const VkComponentMapping swizzles[] = {
       {0},
       {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R,
        VK_COMPONENT_SWIZZLE_A},
       {VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_IDENTITY,
        VK_COMPONENT_SWIZZLE_R},
       {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_A,
        VK_COMPONENT_SWIZZLE_ONE},
   };
   const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                               VK_FORMAT_R32_UINT, VK_FORMAT_B8G8R8A8_UNORM,
                               VK_FORMAT_R16G16_SFLOAT};
   const struct {
      VkImageViewType type;
      uint32_t base_level, levels, base_layer, layers;
   } ranges[] = {
       {VK_IMAGE_VIEW_TYPE_2D, 0, VK_REMAINING_MIP_LEVELS, 0, 1},
       {VK_IMAGE_VIEW_TYPE_2D, 3, 2, 11, 1},
       {VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, VK_REMAINING_MIP_LEVELS, 2, VK_REMAINING_ARRAY_LAYERS},
       {VK_IMAGE_VIEW_TYPE_2D_ARRAY, 5, 1, 0, 12},
       {VK_IMAGE_VIEW_TYPE_CUBE, 0, 6, 6, 6},
       {VK_IMAGE_VIEW_TYPE_CUBE, 2, VK_REMAINING_MIP_LEVELS, 3, 6},
   };
   uint32_t views = 0;
   for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
      for (size_t s = 0; s < sizeof(swizzles) / sizeof(swizzles[0]); s++)
         for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
            VkImageView v = view_create(
                &dev, img.image, ranges[r].type, formats[f], VK_IMAGE_ASPECT_COLOR_BIT, swizzles[s],
                ranges[r].base_level, ranges[r].levels, ranges[r].base_layer, ranges[r].layers);
            vkDestroyImageView(dev.device, v, NULL);
            views++;
         }
   image_destroy(&dev, &img);

   /* 1D, 1D array and 3D views. */
   ici.flags = 0;
   ici.imageType = VK_IMAGE_TYPE_1D;
   ici.extent = (VkExtent3D){128, 1, 1};
   ici.mipLevels = 8;
   ici.arrayLayers = 3;
   if (image_create(&dev, &ici, 0, &img)) {
      vkDestroyImageView(dev.device,
                         view_create(&dev, img.image, VK_IMAGE_VIEW_TYPE_1D, ici.format,
                                     VK_IMAGE_ASPECT_COLOR_BIT, swizzles[1], 2, 3, 1, 1),
                         NULL);
      vkDestroyImageView(dev.device,
                         view_create(&dev, img.image, VK_IMAGE_VIEW_TYPE_1D_ARRAY, ici.format,
                                     VK_IMAGE_ASPECT_COLOR_BIT, identity, 0, 8, 1, 2),
                         NULL);
      image_destroy(&dev, &img);
      views += 2;
   }
   ici.imageType = VK_IMAGE_TYPE_3D;
   ici.extent = (VkExtent3D){16, 8, 4};
   ici.mipLevels = 5;
   ici.arrayLayers = 1;
   if (image_create(&dev, &ici, 0, &img)) {
      vkDestroyImageView(dev.device,
                         view_create(&dev, img.image, VK_IMAGE_VIEW_TYPE_3D, ici.format,
                                     VK_IMAGE_ASPECT_COLOR_BIT, swizzles[2], 1,
                                     VK_REMAINING_MIP_LEVELS, 0, 1),
                         NULL);
      image_destroy(&dev, &img);
      views++;
   }

   /* Each aspect of the depth/stencil formats, alone. */
   const VkFormat ds[] = {VK_FORMAT_D16_UNORM,         VK_FORMAT_X8_D24_UNORM_PACK32,
                          VK_FORMAT_D32_SFLOAT,        VK_FORMAT_S8_UINT,
                          VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};
   for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, ds[i], &fp);
      if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
         continue;
      ici = (VkImageCreateInfo){
          .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
          .imageType = VK_IMAGE_TYPE_2D,
          .format = ds[i],
          .extent = {20, 12, 1},
          .mipLevels = 2,
          .arrayLayers = 2,
          .samples = VK_SAMPLE_COUNT_1_BIT,
          .tiling = VK_IMAGE_TILING_OPTIMAL,
          .usage = usage,
      };
      if (!image_create(&dev, &ici, 0, &img))
         continue;
      const VkImageAspectFlags aspects[] = {VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT};
      bool has[] = {ds[i] != VK_FORMAT_S8_UINT, ds[i] == VK_FORMAT_S8_UINT ||
                                                    ds[i] == VK_FORMAT_D24_UNORM_S8_UINT ||
                                                    ds[i] == VK_FORMAT_D32_SFLOAT_S8_UINT};
      for (int a = 0; a < 2; a++) {
         if (!has[a])
            continue;
         vkDestroyImageView(dev.device,
                            view_create(&dev, img.image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, ds[i],
                                        aspects[a], identity, 0, 2, 0, 2),
                            NULL);
         views++;
      }
      image_destroy(&dev, &img);
   }
   printf("  %u views made\n", views);
   vkt_teardown(&ctx, &dev);
}

/* Samplers of every state the device supports: filters, mipmap modes,
 * address modes, compare ops, border colors, LOD bias and clamps,
 * unnormalized coordinates. */
TEST_CASE(samplers_of_every_state)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   uint32_t made = 0;
   for (int filter = 0; filter < 4; filter++)
      for (int address = VK_SAMPLER_ADDRESS_MODE_REPEAT;
           address <= VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER; address++)
         for (int border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
              border <= VK_BORDER_COLOR_INT_OPAQUE_WHITE; border++)
            for (int compare = -1; compare <= VK_COMPARE_OP_ALWAYS; compare++) {
               VkSamplerCreateInfo sci = {
                   .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                   .magFilter = (VkFilter)(filter & 1),
                   .minFilter = (VkFilter)(filter >> 1),
                   .mipmapMode = (VkSamplerMipmapMode)((filter + address) & 1),
                   .addressModeU = (VkSamplerAddressMode)address,
                   .addressModeV = (VkSamplerAddressMode)(3 - address),
                   .addressModeW = (VkSamplerAddressMode)address,
                   .mipLodBias = (float)(compare + 1) * 0.25f - 1.0f,
                   .compareEnable = compare >= 0,
                   .compareOp = compare >= 0 ? (VkCompareOp)compare : VK_COMPARE_OP_NEVER,
                   .minLod = 0.5f * (float)filter,
                   .maxLod = border == 0 ? VK_LOD_CLAMP_NONE : 2.0f + (float)filter,
                   .borderColor = (VkBorderColor)border,
               };
               VkSampler s = VK_NULL_HANDLE;
               VKT_CHECK(vkCreateSampler(dev.device, &sci, NULL, &s));
               vkDestroySampler(dev.device, s, NULL);
               made++;
            }
   /* Unnormalized coordinates: one filter, no mipmapping, clamped. */
   for (int filter = 0; filter < 2; filter++)
      for (int address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
           address <= VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER; address++) {
         VkSamplerCreateInfo sci = {
             .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
             .magFilter = (VkFilter)filter,
             .minFilter = (VkFilter)filter,
             .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
             .addressModeU = (VkSamplerAddressMode)address,
             .addressModeV = (VkSamplerAddressMode)address,
             .addressModeW = (VkSamplerAddressMode)address,
             .borderColor = VK_BORDER_COLOR_INT_OPAQUE_BLACK,
             .unnormalizedCoordinates = VK_TRUE,
         };
         VkSampler s = VK_NULL_HANDLE;
         VKT_CHECK(vkCreateSampler(dev.device, &sci, NULL, &s));
         vkDestroySampler(dev.device, s, NULL);
         made++;
      }
   printf("  %u samplers made\n", made);
   vkt_teardown(&ctx, &dev);
}

static bool texel_buffer_create(struct vkt_device *dev, VkBufferUsageFlags usage,
                                struct vkt_buffer *out)
{
   return vkt_buffer_create(dev, 1u << 20, usage, VKT_MEMORY_DEVICE, out) == VK_SUCCESS;
}

/* A uniform or storage texel-buffer view of every format that has the
 * feature: at the buffer's start and at minTexelBufferOffsetAlignment,
 * with explicit ranges and VK_WHOLE_SIZE. */
TEST_CASE(buffer_views_of_every_texel_buffer_format)
{
   struct vkt_context ctx;
   struct vkt_device dev;
   if (!vkt_setup(&ctx, &dev))
      return;
   struct vkt_buffer uniform, storage;
   REQUIRE(texel_buffer_create(&dev, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &uniform));
   REQUIRE(texel_buffer_create(&dev, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, &storage));
   const VkDeviceSize align = ctx.props.limits.minTexelBufferOffsetAlignment;
   uint32_t made = 0;
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= LAST_CORE_FORMAT; f++) {
      VkFormatProperties fp;
      vkGetPhysicalDeviceFormatProperties(ctx.physical_device, f, &fp);
      const struct {
         VkFormatFeatureFlags feature;
         struct vkt_buffer *buf;
      } kinds[] = {{VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT, &uniform},
                   {VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT, &storage}};
      uint32_t texel = ctx.is_vkppu ? ppu_tex_format_bytes(hw_format_of(f)) : 16;
      for (int k = 0; k < 2; k++) {
         if (!(fp.bufferFeatures & kinds[k].feature))
            continue;
         const struct {
            VkDeviceSize offset, range;
         } windows[] = {{0, VK_WHOLE_SIZE}, {align, VK_WHOLE_SIZE}, {align * 3, 48 * texel}};
         for (int w = 0; w < 3; w++) {
            /* VK_WHOLE_SIZE is only valid when the remaining bytes fit
             * maxTexelBufferElements (1 MiB of R8 does). */
            VkBufferViewCreateInfo bci = {
                .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                .buffer = kinds[k].buf->buffer,
                .format = f,
                .offset = windows[w].offset,
                .range = windows[w].range,
            };
            VkBufferView view = VK_NULL_HANDLE;
            VKT_CHECK(vkCreateBufferView(dev.device, &bci, NULL, &view));
            vkDestroyBufferView(dev.device, view, NULL);
            made++;
         }
      }
   }
   printf("  %u buffer views made\n", made);
   vkt_buffer_destroy(&dev, &uniform);
   vkt_buffer_destroy(&dev, &storage);
   vkt_teardown(&ctx, &dev);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
