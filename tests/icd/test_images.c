/* The headers behind images, views, samplers and buffer views, field by
 * field, each passed through the texture unit's own header check; the
 * format table against the hardware's format list and the _2 feature
 * bits; a linear image's subresource layout against ppu_tex_byte_offset;
 * and every request the driver must refuse, with its result. Called
 * straight into the driver: refusals are invalid usage, which the
 * validation layer would stop before the driver sees them. */
#include <string.h>

#include <ppu/isa.h>
#include <ppu/texture.h>

#include "gpu_memory.h"
#include "icd_test_device.h"
#include "test_harness.h"
#include "vkppu_acceleration_structure.h"
#include "vkppu_graphics.h"
#include "vkppu_image.h"
#include "vkppu_memory.h"

/* The model's header checks (hw/src/texture/tex_header.h, private to the
 * model but external symbols of ppu_hw, which this test links): what the
 * texture unit and copy engine accept. */
const char *ppu_tex_header_check(const struct ppu_texture_header *h);
const char *ppu_tex_sampler_check(const struct ppu_sampler_header *s);
const char *ppu_tex_header_matches_dim(const struct ppu_texture_header *h, unsigned texdim);

struct rig {
   VkInstance instance;
   VkPhysicalDevice physical_device;
   VkDevice device;
   VkDeviceMemory memory; /* host visible, 64 MiB */
   uint64_t memory_va;
   VkDeviceSize memory_size;
};

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS)
      return false;
   uint32_t count = 1;
   if (vkppu_EnumeratePhysicalDevices(r->instance, &count, &r->physical_device) != VK_SUCCESS ||
       !icd_test_device_create(r->instance, &r->device))
      return false;
   VkPhysicalDeviceMemoryProperties mp;
   vkppu_GetPhysicalDeviceMemoryProperties(r->physical_device, &mp);
   uint32_t type = 0;
   while (type < mp.memoryTypeCount &&
          !(mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      type++;
   r->memory_size = 64u << 20;
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = r->memory_size,
                               .memoryTypeIndex = type};
   if (type == mp.memoryTypeCount ||
       vkppu_AllocateMemory(r->device, &mai, NULL, &r->memory) != VK_SUCCESS)
      return false;
   r->memory_va = vkppu_device_memory_from_handle(r->memory)->bo->va;
   return true;
}

static void rig_finish(struct rig *r)
{
   if (r->memory)
      vkppu_FreeMemory(r->device, r->memory, NULL);
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

static VkImageCreateInfo image_info(VkFormat format, VkImageType type, uint32_t w, uint32_t h,
                                    uint32_t d, uint32_t levels, uint32_t layers)
{
   return (VkImageCreateInfo){
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = type,
       .format = format,
       .extent = {w, h, d},
       .mipLevels = levels,
       .arrayLayers = layers,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
}

/* An image bound at the start of the rig's memory (NULL on failure). */
static struct vkppu_image *make_image(struct rig *r, const VkImageCreateInfo *ci)
{
   VkImage image = VK_NULL_HANDLE;
   VkResult res = vkppu_CreateImage(r->device, ci, NULL, &image);
   CHECK_MSG(res == VK_SUCCESS, "vkCreateImage(format %d) -> %d", ci->format, res);
   if (res != VK_SUCCESS)
      return NULL;
   res = vkppu_BindImageMemory(r->device, image, r->memory, 0);
   CHECK_MSG(res == VK_SUCCESS, "vkBindImageMemory -> %d", res);
   return vkppu_image_from_handle(image);
}

static void destroy_image(struct rig *r, struct vkppu_image *img)
{
   vkppu_DestroyImage(r->device, vkppu_image_to_handle(img), NULL);
}

static void check_header(const struct ppu_texture_header *h, const char *what)
{
   const char *why = ppu_tex_header_check(h);
   CHECK_MSG(why == NULL, "%s: the hardware refuses the header: %s", what, why);
}

TEST_CASE(format_table_maps_each_hardware_format_once_with_its_features2)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   unsigned seen[PPU_TEX_FORMAT_COUNT] = {0};
   /* Render targets are what the ROP writes: never a block-compressed or
    * shared-exponent format; attachments of depth/stencil formats only for
    * depth/stencil. */
   const VkFormatFeatureFlags color_attachment =
       VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
   for (VkFormat f = VK_FORMAT_UNDEFINED; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK + 1; f++) {
      const struct vkppu_format_info *info = vkppu_format_info(f);
      VkFormatProperties3 p3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
      VkFormatProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &p3};
      vkppu_GetPhysicalDeviceFormatProperties2(r.physical_device, f, &p2);
      const VkFormatProperties *p = &p2.formatProperties;
      /* Acceleration-structure vertex formats are the builder's list, added
       * to the table's buffer features (icd/physical_device_formats.c). */
      const VkFormatFeatureFlags as_vertex =
          vkppu_as_vertex_format_size(f)
              ? VK_FORMAT_FEATURE_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR
              : 0;
      CHECK_MSG(p->optimalTilingFeatures == info->optimal &&
                    p->linearTilingFeatures == info->linear &&
                    (p->bufferFeatures & ~VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) ==
                        (info->buffer | as_vertex),
                "format %d: properties differ from the table", f);
      /* Bits 0..30 of the _2 flags are the 1.0 flags; bit 31 is
       * STORAGE_READ_WITHOUT_FORMAT, which has no 1.0 twin. */
      const uint32_t same = 0x7fffffffu;
      CHECK_MSG((p3.optimalTilingFeatures & same) == p->optimalTilingFeatures &&
                    (p3.linearTilingFeatures & same) == p->linearTilingFeatures &&
                    (p3.bufferFeatures & same) == p->bufferFeatures,
                "format %d: VkFormatProperties3 disagrees with VkFormatProperties", f);
      const VkFormatFeatureFlags image = p->optimalTilingFeatures | p->linearTilingFeatures;
      const bool ds_format = (info->aspects & VK_IMAGE_ASPECT_COLOR_BIT) == 0;
      CHECK_MSG(!(image & color_attachment) ||
                    (!ds_format && !ppu_tex_format_is_compressed(info->hw) &&
                     info->hw != PPU_TEX_FORMAT_E5B9G9R9_UFLOAT),
                "format %d is a colour attachment the ROP cannot write", f);
      CHECK_MSG(!(image & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) || ds_format,
                "format %d is a depth/stencil attachment without depth or stencil", f);
      /* Vertex formats are the compiler's list, added to the buffer
       * features like the acceleration-structure ones. */
      CHECK_MSG(!(p->bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) ==
                    !vkppu_vertex_format_supported(f),
                "format %d: VERTEX_BUFFER differs from the compiler's list", f);
      if (info->hw == PPU_TEX_FORMAT_INVALID) {
         CHECK_MSG(p3.optimalTilingFeatures == 0 &&
                       (p3.bufferFeatures & ~as_vertex & ~VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) == 0,
                   "format %d has no hardware format but features", f);
         continue;
      }
      seen[info->hw]++;
      const VkFormatFeatureFlags2 without_format =
          VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
          VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
      bool storage = p->optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
      CHECK_MSG(((p3.optimalTilingFeatures & without_format) == without_format) == storage,
                "format %d: storage without format iff storage", f);
      CHECK_MSG(((p3.bufferFeatures & without_format) == without_format) ==
                    ((p->bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) != 0),
                "format %d: buffer storage without format iff storage texel buffer", f);
      bool depth = info->aspects & VK_IMAGE_ASPECT_DEPTH_BIT;
      CHECK_MSG(((p3.optimalTilingFeatures &
                  VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT) != 0) == depth,
                "format %d: depth comparison iff depth", f);
      CHECK_MSG(ppu_tex_format_is_compressed(info->hw) ? p->linearTilingFeatures == 0 : true,
                "format %d: BC is optimal only", f);
   }
   /* A8B8G8R8_*_PACK32 is R8G8B8A8 in memory: those five are named twice. */
   for (unsigned hw = 1; hw < PPU_TEX_FORMAT_COUNT; hw++) {
      bool aliased = hw >= PPU_TEX_FORMAT_R8G8B8A8_UNORM && hw <= PPU_TEX_FORMAT_R8G8B8A8_SRGB;
      CHECK_MSG(seen[hw] == (aliased ? 2u : 1u), "hardware format %u named by %u VkFormats", hw,
                seen[hw]);
   }
   rig_finish(&r);
}

/* Optimal images: block-linear, the block height from the first level's
 * rows, the layer stride ppu_tex_layer_size, 512-byte alignment. */
TEST_CASE(optimal_images_are_block_linear_with_block_height_from_level_0)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   const struct {
      VkImageCreateInfo ci;
      enum ppu_tex_format hw;
      unsigned dim, block_height_log2;
   } cases[] = {
       /* 50 rows are 7 GOBs: 8-GOB blocks, since 4 would not hold them. */
       {image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 100, 50, 1, 3, 2),
        PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 3},
       {image_info(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, 300, 260, 1, 9, 1),
        PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D, 5},
       {image_info(VK_FORMAT_R8_UINT, VK_IMAGE_TYPE_2D, 16, 4, 1, 1, 1), PPU_TEX_FORMAT_R8_UINT,
        PPU_TEX_DIM_2D, 0},
       /* 64 rows of texels are 16 rows of blocks: 2 GOBs. */
       {image_info(VK_FORMAT_BC7_SRGB_BLOCK, VK_IMAGE_TYPE_2D, 64, 64, 1, 7, 6),
        PPU_TEX_FORMAT_BC7_SRGB, PPU_TEX_DIM_2D, 1},
       {image_info(VK_FORMAT_R16_SFLOAT, VK_IMAGE_TYPE_1D, 1000, 1, 1, 10, 1),
        PPU_TEX_FORMAT_R16_SFLOAT, PPU_TEX_DIM_1D, 0},
       {image_info(VK_FORMAT_R16G16_UNORM, VK_IMAGE_TYPE_3D, 40, 100, 7, 7, 1),
        PPU_TEX_FORMAT_R16G16_UNORM, PPU_TEX_DIM_3D, 4},
       {image_info(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, 640, 480, 1, 1, 1),
        PPU_TEX_FORMAT_D24_UNORM_S8_UINT, PPU_TEX_DIM_2D, 5},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const VkImageCreateInfo *ci = &cases[i].ci;
      struct vkppu_image *img = make_image(&r, ci);
      if (!img)
         continue;
      const struct ppu_texture_header *h = &img->whole;
      CHECK_EQ_U64(h->address, r.memory_va);
      CHECK_EQ_U64(h->format, cases[i].hw);
      CHECK_EQ_U64(h->dim, cases[i].dim);
      CHECK_EQ_U64(h->layout, PPU_TEX_LAYOUT_BLOCK_LINEAR);
      CHECK_EQ_U64(h->swizzle, PPU_TEX_SWIZZLE_IDENTITY);
      CHECK_EQ_U64(h->flags, ci->arrayLayers > 1 ? PPU_TEX_FLAG_ARRAY : 0);
      CHECK_MSG(h->block_height_log2 == cases[i].block_height_log2,
                "case %zu: block height log2 %u, expected %u", i, h->block_height_log2,
                cases[i].block_height_log2);
      CHECK_EQ_U64(h->width, ci->extent.width);
      CHECK_EQ_U64(h->height, ci->extent.height);
      CHECK_EQ_U64(h->depth, ci->extent.depth);
      CHECK_EQ_U64(h->row_pitch, 0);
      CHECK_EQ_U64(h->image_levels, ci->mipLevels);
      CHECK_EQ_U64(h->base_level, 0);
      CHECK_EQ_U64(h->level_count, ci->mipLevels);
      CHECK_EQ_U64(h->base_layer, 0);
      CHECK_EQ_U64(h->layer_count, ci->arrayLayers);
      CHECK_EQ_U64(h->layer_stride, ppu_tex_layer_size(h));
      CHECK_EQ_U64(h->layer_stride % PPU_GOB_BYTES, 0);
      VkMemoryRequirements req;
      vkppu_GetImageMemoryRequirements(r.device, vkppu_image_to_handle(img), &req);
      CHECK_EQ_U64(req.size, h->layer_stride * ci->arrayLayers);
      CHECK_EQ_U64(req.alignment, PPU_GOB_BYTES);
      /* vkGetDeviceImageMemoryRequirements answers the same. */
      VkDeviceImageMemoryRequirements dreq = {
          .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, .pCreateInfo = ci};
      VkMemoryDedicatedRequirements ded = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
                                           .prefersDedicatedAllocation = VK_TRUE,
                                           .requiresDedicatedAllocation = VK_TRUE};
      VkMemoryRequirements2 req2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
                                    .pNext = &ded};
      vkppu_GetDeviceImageMemoryRequirements(r.device, &dreq, &req2);
      CHECK_EQ_U64(req2.memoryRequirements.size, req.size);
      CHECK_EQ_U64(req2.memoryRequirements.alignment, req.alignment);
      CHECK(!ded.prefersDedicatedAllocation && !ded.requiresDedicatedAllocation);
      /* Optimal: level offsets anyway, row pitch 0. */
      VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, ci->mipLevels - 1, ci->arrayLayers - 1};
      VkSubresourceLayout layout;
      vkppu_GetImageSubresourceLayout(r.device, vkppu_image_to_handle(img), &sub, &layout);
      CHECK_EQ_U64(layout.offset, (ci->arrayLayers - 1) * h->layer_stride +
                                      ppu_tex_level_offset(h, ci->mipLevels - 1));
      CHECK_EQ_U64(layout.size, ppu_tex_level_size(h, ci->mipLevels - 1));
      CHECK_EQ_U64(layout.rowPitch, 0);
      check_header(h, "whole image");
      destroy_image(&r, img);
   }
   rig_finish(&r);
}

/* A linear image: 64-byte rows, and the texel the subresource layout puts
 * at (x, y) is where the hardware reads it. */
TEST_CASE(linear_image_layout_is_where_the_hardware_reads)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkImageCreateInfo ci =
       image_info(VK_FORMAT_R16G16B16A16_UINT, VK_IMAGE_TYPE_2D, 37, 11, 1, 1, 1);
   ci.tiling = VK_IMAGE_TILING_LINEAR;
   struct vkppu_image *img = make_image(&r, &ci);
   REQUIRE(img);
   const struct ppu_texture_header *h = &img->whole;
   CHECK_EQ_U64(h->layout, PPU_TEX_LAYOUT_LINEAR);
   CHECK_EQ_U64(h->row_pitch, 320); /* 37 * 8 = 296 bytes, rounded up to 64 */
   CHECK_EQ_U64(img->alignment, VKPPU_LINEAR_IMAGE_ALIGN);
   check_header(h, "linear image");
   VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
   VkSubresourceLayout layout;
   vkppu_GetImageSubresourceLayout(r.device, vkppu_image_to_handle(img), &sub, &layout);
   CHECK_EQ_U64(layout.rowPitch, 320);
   CHECK_EQ_U64(layout.offset, 0);
   CHECK_EQ_U64(layout.size, 320 * 11);
   CHECK_EQ_U64(layout.depthPitch, 320 * 11);
   uint8_t *map = NULL;
   REQUIRE(vkppu_MapMemory(r.device, r.memory, 0, VK_WHOLE_SIZE, 0, (void **)&map) == VK_SUCCESS);
   memset(map, 0, 320 * 11);
   for (uint32_t y = 0; y < 11; y++)
      for (uint32_t x = 0; x < 37; x++)
         map[layout.offset + y * layout.rowPitch + x * 8] = (uint8_t)(1 + x + y * 37);
   unsigned wrong = 0;
   for (uint32_t y = 0; y < 11; y++)
      for (uint32_t x = 0; x < 37; x++)
         wrong += map[ppu_tex_byte_offset(h, 0, 0, x * 8, y, 0)] != (uint8_t)(1 + x + y * 37);
   CHECK_MSG(wrong == 0, "%u texels not where ppu_tex_byte_offset reads them", wrong);
   vkppu_UnmapMemory(r.device, r.memory);
   destroy_image(&r, img);
   rig_finish(&r);
}

static struct vkppu_image_view *make_view(struct rig *r, struct vkppu_image *img,
                                          VkImageViewType type, VkFormat format,
                                          VkComponentMapping swizzle, VkImageSubresourceRange range)
{
   VkImageViewCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                               .image = vkppu_image_to_handle(img),
                               .viewType = type,
                               .format = format,
                               .components = swizzle,
                               .subresourceRange = range};
   VkImageView view = VK_NULL_HANDLE;
   VkResult res = vkppu_CreateImageView(r->device, &ci, NULL, &view);
   CHECK_MSG(res == VK_SUCCESS, "vkCreateImageView(type %d, format %d) -> %d", type, format, res);
   return vkppu_image_view_from_handle(view);
}

static void destroy_view(struct rig *r, struct vkppu_image_view *v)
{
   vkppu_DestroyImageView(r->device, vkppu_image_view_to_handle(v), NULL);
}

/* Views: the image's shape with the view's format, dim, array flag,
 * levels, layers, swizzle and aspect; each passes the hardware's checks
 * for the texture instruction's dim that matches its type. */
TEST_CASE(views_set_format_dim_range_swizzle_and_aspect)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkImageCreateInfo ci = image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 32, 32, 1, 6, 18);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
   struct vkppu_image *img = make_image(&r, &ci);
   REQUIRE(img);
   const VkComponentMapping identity = {0};
   const struct {
      VkImageViewType type;
      VkFormat format;
      VkComponentMapping swizzle;
      VkImageSubresourceRange range;
      enum ppu_tex_format hw;
      unsigned dim, flags, texdim, swizzle_bits;
      uint32_t base_level, levels, base_layer, layers;
   } cases[] = {
       {VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_R8G8B8A8_UNORM,
        identity,
        {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 4, 1},
        PPU_TEX_FORMAT_R8G8B8A8_UNORM,
        PPU_TEX_DIM_2D,
        0,
        PPU_TEXDIM_2D,
        0x3210,
        0,
        6,
        4,
        1},
       {VK_IMAGE_VIEW_TYPE_2D_ARRAY,
        VK_FORMAT_R32_UINT,
        {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R,
         VK_COMPONENT_SWIZZLE_A},
        {VK_IMAGE_ASPECT_COLOR_BIT, 2, VK_REMAINING_MIP_LEVELS, 3, VK_REMAINING_ARRAY_LAYERS},
        PPU_TEX_FORMAT_R32_UINT,
        PPU_TEX_DIM_2D,
        PPU_TEX_FLAG_ARRAY,
        PPU_TEXDIM_2DA,
        0x3012,
        2,
        4,
        3,
        15},
       {VK_IMAGE_VIEW_TYPE_CUBE,
        VK_FORMAT_R8G8B8A8_SRGB,
        {VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_IDENTITY,
         VK_COMPONENT_SWIZZLE_R},
        {VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 6, 6},
        PPU_TEX_FORMAT_R8G8B8A8_SRGB,
        PPU_TEX_DIM_CUBE,
        0,
        PPU_TEXDIM_CUBE,
        0x0254,
        1,
        2,
        6,
        6},
       {VK_IMAGE_VIEW_TYPE_CUBE_ARRAY,
        VK_FORMAT_B10G11R11_UFLOAT_PACK32,
        identity,
        {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 18},
        PPU_TEX_FORMAT_B10G11R11_UFLOAT,
        PPU_TEX_DIM_CUBE,
        PPU_TEX_FLAG_ARRAY,
        PPU_TEXDIM_CUBEA,
        0x3210,
        0,
        1,
        0,
        18},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct vkppu_image_view *v =
          make_view(&r, img, cases[i].type, cases[i].format, cases[i].swizzle, cases[i].range);
      if (!v)
         continue;
      const struct ppu_texture_header *h = &v->header;
      CHECK_EQ_U64(h->address, img->whole.address);
      CHECK_EQ_U64(h->layer_stride, img->whole.layer_stride);
      CHECK_EQ_U64(h->block_height_log2, img->whole.block_height_log2);
      CHECK_EQ_U64(h->image_levels, 6);
      CHECK_EQ_U64(h->format, cases[i].hw);
      CHECK_EQ_U64(h->dim, cases[i].dim);
      CHECK_EQ_U64(h->flags, cases[i].flags);
      CHECK_MSG(h->swizzle == cases[i].swizzle_bits, "case %zu: swizzle 0x%x, expected 0x%x", i,
                h->swizzle, cases[i].swizzle_bits);
      CHECK_EQ_U64(h->base_level, cases[i].base_level);
      CHECK_EQ_U64(h->level_count, cases[i].levels);
      CHECK_EQ_U64(h->base_layer, cases[i].base_layer);
      CHECK_EQ_U64(h->layer_count, cases[i].layers);
      CHECK_EQ_U64(v->range.levelCount, cases[i].levels);
      CHECK_EQ_U64(v->range.layerCount, cases[i].layers);
      check_header(h, "view");
      const char *why = ppu_tex_header_matches_dim(h, cases[i].texdim);
      CHECK_MSG(why == NULL, "case %zu: %s", i, why);
      destroy_view(&r, v);
   }
   destroy_image(&r, img);

   /* 1D, 1D array and 3D views. */
   ci = image_info(VK_FORMAT_R16_SNORM, VK_IMAGE_TYPE_1D, 128, 1, 1, 8, 3);
   img = make_image(&r, &ci);
   REQUIRE(img);
   struct vkppu_image_view *v =
       make_view(&r, img, VK_IMAGE_VIEW_TYPE_1D_ARRAY, ci.format, identity,
                 (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 8, 1, 2});
   if (v) {
      CHECK_EQ_U64(v->header.dim, PPU_TEX_DIM_1D);
      CHECK_EQ_U64(v->header.flags, PPU_TEX_FLAG_ARRAY);
      CHECK_EQ_U64(v->header.height, 1);
      check_header(&v->header, "1D array view");
      CHECK(ppu_tex_header_matches_dim(&v->header, PPU_TEXDIM_1DA) == NULL);
      destroy_view(&r, v);
   }
   destroy_image(&r, img);
   ci = image_info(VK_FORMAT_R32G32_SFLOAT, VK_IMAGE_TYPE_3D, 16, 8, 4, 5, 1);
   img = make_image(&r, &ci);
   REQUIRE(img);
   v = make_view(&r, img, VK_IMAGE_VIEW_TYPE_3D, ci.format, identity,
                 (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_REMAINING_MIP_LEVELS, 0,
                                           VK_REMAINING_ARRAY_LAYERS});
   if (v) {
      CHECK_EQ_U64(v->header.dim, PPU_TEX_DIM_3D);
      CHECK_EQ_U64(v->header.depth, 4);
      CHECK_EQ_U64(v->header.level_count, 4);
      check_header(&v->header, "3D view");
      CHECK(ppu_tex_header_matches_dim(&v->header, PPU_TEXDIM_3D) == NULL);
      destroy_view(&r, v);
   }
   destroy_image(&r, img);
   rig_finish(&r);
}

/* Every supported format in every shape and view type: the whole-image
 * header and a view of everything pass the hardware's checks, and the view
 * matches the texture instruction dim of its type. */
TEST_CASE(every_format_and_shape_gives_headers_the_hardware_accepts)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   const struct {
      VkImageType type;
      VkImageViewType view;
      VkImageCreateFlags flags;
      VkImageTiling tiling;
      uint32_t w, h, d, levels, layers, view_layers;
      unsigned texdim;
   } shapes[] = {
       {VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D, 0, VK_IMAGE_TILING_OPTIMAL, 300, 1, 1, 9, 1, 1,
        PPU_TEXDIM_1D},
       {VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 0, VK_IMAGE_TILING_OPTIMAL, 64, 1, 1, 3, 4,
        4, PPU_TEXDIM_1DA},
       {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, 0, VK_IMAGE_TILING_OPTIMAL, 100, 50, 1, 7, 1, 1,
        PPU_TEXDIM_2D},
       {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 0, VK_IMAGE_TILING_OPTIMAL, 37, 19, 1, 3, 5,
        5, PPU_TEXDIM_2DA},
       {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
        VK_IMAGE_TILING_OPTIMAL, 16, 16, 1, 5, 6, 6, PPU_TEXDIM_CUBE},
       {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
        VK_IMAGE_TILING_OPTIMAL, 8, 8, 1, 4, 12, 12, PPU_TEXDIM_CUBEA},
       {VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D, 0, VK_IMAGE_TILING_OPTIMAL, 9, 7, 5, 4, 1, 1,
        PPU_TEXDIM_3D},
       {VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, 0, VK_IMAGE_TILING_LINEAR, 33, 17, 1, 1, 1, 1,
        PPU_TEXDIM_2D},
   };
   unsigned made = 0;
   for (VkFormat f = VK_FORMAT_UNDEFINED; f <= VK_FORMAT_BC7_SRGB_BLOCK; f++) {
      const struct vkppu_format_info *info = vkppu_format_info(f);
      if (info->hw == PPU_TEX_FORMAT_INVALID)
         continue;
      /* One aspect: depth when there is one, else stencil or color. */
      VkImageAspectFlags aspect =
          info->aspects & VK_IMAGE_ASPECT_DEPTH_BIT ? VK_IMAGE_ASPECT_DEPTH_BIT : info->aspects;
      for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         VkImageCreateInfo ci = image_info(f, shapes[s].type, shapes[s].w, shapes[s].h, shapes[s].d,
                                           shapes[s].levels, shapes[s].layers);
         ci.flags = shapes[s].flags;
         ci.tiling = shapes[s].tiling;
         VkImageFormatProperties p;
         if (vkppu_GetPhysicalDeviceImageFormatProperties(r.physical_device, f, ci.imageType,
                                                          ci.tiling, ci.usage, ci.flags,
                                                          &p) != VK_SUCCESS)
            continue;
         struct vkppu_image *img = make_image(&r, &ci);
         if (!img)
            continue;
         check_header(&img->whole, "whole image");
         struct vkppu_image_view *v =
             make_view(&r, img, shapes[s].view, f, (VkComponentMapping){0},
                       (VkImageSubresourceRange){aspect, 0, VK_REMAINING_MIP_LEVELS, 0,
                                                 shapes[s].view_layers});
         if (v) {
            const char *why = ppu_tex_header_check(&v->header);
            if (!why)
               why = ppu_tex_header_matches_dim(&v->header, shapes[s].texdim);
            CHECK_MSG(why == NULL, "format %d, shape %zu: %s", f, s, why);
            destroy_view(&r, v);
         }
         destroy_image(&r, img);
         made++;
      }
   }
   /* 58 uncompressed color formats (47 of the first texel formats, the 6
    * later 16-bit packed ones and the 5 A8B8G8R8 ones) in all 8 shapes; 16
    * BC and 6 depth/stencil ones in the 4 optimal 2D shapes. */
   CHECK_EQ_U64(made, 58 * 8 + 22 * 4);
   rig_finish(&r);
}

/* Depth/stencil views: the stencil aspect alone sets the STENCIL flag
 * (D24S8's stencil is read from bits 31..24); depth views do not. */
TEST_CASE(stencil_views_read_the_stencil_aspect)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   const struct {
      VkFormat format;
      VkImageAspectFlags aspect;
      unsigned flags;
   } cases[] = {
       {VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT, 0},
       {VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, PPU_TEX_FLAG_STENCIL},
       {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, PPU_TEX_FLAG_STENCIL},
       {VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, PPU_TEX_FLAG_STENCIL},
       {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, 0},
       {VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT, 0},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkImageCreateInfo ci = image_info(cases[i].format, VK_IMAGE_TYPE_2D, 64, 48, 1, 2, 1);
      struct vkppu_image *img = make_image(&r, &ci);
      if (!img)
         continue;
      struct vkppu_image_view *v =
          make_view(&r, img, VK_IMAGE_VIEW_TYPE_2D, cases[i].format, (VkComponentMapping){0},
                    (VkImageSubresourceRange){cases[i].aspect, 0, 2, 0, 1});
      if (v) {
         CHECK_EQ_U64(v->header.flags, cases[i].flags);
         CHECK_EQ_U64(v->header.format, img->whole.format);
         check_header(&v->header, "depth/stencil view");
         destroy_view(&r, v);
      }
      destroy_image(&r, img);
   }
   rig_finish(&r);
}

static struct vkppu_sampler *make_sampler(struct rig *r, const VkSamplerCreateInfo *ci)
{
   VkSampler s = VK_NULL_HANDLE;
   VkResult res = vkppu_CreateSampler(r->device, ci, NULL, &s);
   CHECK_MSG(res == VK_SUCCESS, "vkCreateSampler -> %d", res);
   return vkppu_sampler_from_handle(s);
}

TEST_CASE(sampler_headers_hold_every_state)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkSamplerCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
       .magFilter = VK_FILTER_LINEAR,
       .minFilter = VK_FILTER_NEAREST,
       .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
       .addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
       .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
       .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
       .mipLodBias = -1.5f,
       .compareEnable = VK_TRUE,
       .compareOp = VK_COMPARE_OP_GREATER_OR_EQUAL,
       .minLod = 0.25f,
       .maxLod = VK_LOD_CLAMP_NONE,
       .borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
   };
   struct vkppu_sampler *s = make_sampler(&r, &ci);
   REQUIRE(s);
   const struct ppu_sampler_header *h = &s->header;
   CHECK_EQ_U64(h->mag_filter, PPU_TEX_FILTER_LINEAR);
   CHECK_EQ_U64(h->min_filter, PPU_TEX_FILTER_NEAREST);
   CHECK_EQ_U64(h->mip_filter, PPU_TEX_FILTER_LINEAR);
   CHECK_EQ_U64(h->address_u, PPU_TEX_ADDRESS_MIRRORED_REPEAT);
   CHECK_EQ_U64(h->address_v, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   CHECK_EQ_U64(h->address_w, PPU_TEX_ADDRESS_CLAMP_TO_BORDER);
   CHECK_EQ_U64(h->compare_op, VK_COMPARE_OP_GREATER_OR_EQUAL);
   CHECK_EQ_U64(h->flags, PPU_SAMPLER_FLAG_COMPARE);
   CHECK(h->lod_bias == -1.5f && h->min_lod == 0.25f && h->max_lod == VK_LOD_CLAMP_NONE);
   CHECK(h->max_anisotropy == 1.0f); /* anisotropy off */
   VkSamplerCreateInfo aniso_ci = ci;
   aniso_ci.anisotropyEnable = VK_TRUE;
   aniso_ci.maxAnisotropy = 8.0f;
   struct vkppu_sampler *aniso = make_sampler(&r, &aniso_ci);
   REQUIRE(aniso);
   CHECK(aniso->header.max_anisotropy == 8.0f);
   vkppu_DestroySampler(r.device, vkppu_sampler_to_handle(aniso), NULL);
   const float one = 1.0f;
   uint32_t one_bits;
   memcpy(&one_bits, &one, 4);
   for (int c = 0; c < 4; c++)
      CHECK_EQ_U64(h->border_color[c], one_bits);
   CHECK(ppu_tex_sampler_check(h) == NULL);
   vkppu_DestroySampler(r.device, vkppu_sampler_to_handle(s), NULL);

   /* The six border colors. */
   const struct {
      VkBorderColor color;
      uint32_t rgb, a;
      bool is_int;
   } borders[] = {
       {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0, 0, false},
       {VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, 0, 0, true},
       {VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, 0, one_bits, false},
       {VK_BORDER_COLOR_INT_OPAQUE_BLACK, 0, 1, true},
       {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, one_bits, one_bits, false},
       {VK_BORDER_COLOR_INT_OPAQUE_WHITE, 1, 1, true},
   };
   for (size_t i = 0; i < sizeof(borders) / sizeof(borders[0]); i++) {
      ci = (VkSamplerCreateInfo){
          .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
          .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
          .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
          .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
          .borderColor = borders[i].color,
          .unnormalizedCoordinates = i == 0,
      };
      s = make_sampler(&r, &ci);
      if (!s)
         continue;
      h = &s->header;
      CHECK(h->border_color[0] == borders[i].rgb && h->border_color[1] == borders[i].rgb &&
            h->border_color[2] == borders[i].rgb && h->border_color[3] == borders[i].a);
      CHECK_EQ_U64(h->flags, (borders[i].is_int ? PPU_SAMPLER_FLAG_BORDER_INT : 0) |
                                 (i == 0 ? PPU_SAMPLER_FLAG_UNNORMALIZED : 0));
      CHECK(ppu_tex_sampler_check(h) == NULL);
      vkppu_DestroySampler(r.device, vkppu_sampler_to_handle(s), NULL);
   }
   rig_finish(&r);
}

static VkBuffer make_buffer(struct rig *r, VkDeviceSize size, VkBufferUsageFlags usage,
                            VkDeviceMemory memory)
{
   VkBufferCreateInfo ci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
   VkBuffer buf = VK_NULL_HANDLE;
   CHECK(vkppu_CreateBuffer(r->device, &ci, NULL, &buf) == VK_SUCCESS);
   CHECK(vkppu_BindBufferMemory(r->device, buf, memory, 0) == VK_SUCCESS);
   return buf;
}

static VkResult make_buffer_view(struct rig *r, VkBuffer buf, VkFormat format, VkDeviceSize offset,
                                 VkDeviceSize range, VkBufferView *out)
{
   VkBufferViewCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                .buffer = buf,
                                .format = format,
                                .offset = offset,
                                .range = range};
   *out = VK_NULL_HANDLE;
   return vkppu_CreateBufferView(r->device, &ci, NULL, out);
}

TEST_CASE(buffer_views_are_buffer_headers_of_whole_elements)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkBuffer buf = make_buffer(&r, 4096 + 12,
                              VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                  VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
                              r.memory);
   const struct {
      VkFormat format;
      VkDeviceSize offset, range;
      uint64_t elements;
      enum ppu_tex_format hw;
   } cases[] = {
       /* VK_WHOLE_SIZE: whole texels of what is left, 4092 / 8. */
       {VK_FORMAT_R16G16B16A16_SFLOAT, 16, VK_WHOLE_SIZE, 511, PPU_TEX_FORMAT_R16G16B16A16_SFLOAT},
       {VK_FORMAT_R32_UINT, 0, 256, 64, PPU_TEX_FORMAT_R32_UINT},
       {VK_FORMAT_R8_SNORM, 4096, VK_WHOLE_SIZE, 12, PPU_TEX_FORMAT_R8_SNORM},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkBufferView handle;
      VkResult res =
          make_buffer_view(&r, buf, cases[i].format, cases[i].offset, cases[i].range, &handle);
      CHECK_MSG(res == VK_SUCCESS, "case %zu -> %d", i, res);
      if (res != VK_SUCCESS)
         continue;
      const struct vkppu_buffer_view *v = vkppu_buffer_view_from_handle(handle);
      const struct ppu_texture_header *h = &v->header;
      CHECK_EQ_U64(v->va, r.memory_va + cases[i].offset);
      CHECK_EQ_U64(v->elements, cases[i].elements);
      CHECK_EQ_U64(h->address, r.memory_va + cases[i].offset);
      CHECK_EQ_U64(h->format, cases[i].hw);
      CHECK_EQ_U64(h->dim, PPU_TEX_DIM_BUFFER);
      CHECK_EQ_U64(h->layout, PPU_TEX_LAYOUT_LINEAR);
      CHECK_EQ_U64(h->width, cases[i].elements);
      CHECK(h->height == 1 && h->depth == 1 && h->image_levels == 1 && h->level_count == 1 &&
            h->layer_count == 1 && h->base_level == 0 && h->base_layer == 0 && h->flags == 0);
      CHECK_EQ_U64(h->swizzle, PPU_TEX_SWIZZLE_IDENTITY);
      check_header(h, "buffer view");
      CHECK(ppu_tex_header_matches_dim(h, PPU_TEXDIM_BUFFER) == NULL);
      vkppu_DestroyBufferView(r.device, handle, NULL);
   }
   vkppu_DestroyBuffer(r.device, buf, NULL);
   rig_finish(&r);
}

/* ---- what the driver refuses ---- */

static VkResult try_image(struct rig *r, const VkImageCreateInfo *ci)
{
   VkImage image = VK_NULL_HANDLE;
   VkResult res = vkppu_CreateImage(r->device, ci, NULL, &image);
   if (res == VK_SUCCESS)
      vkppu_DestroyImage(r->device, image, NULL);
   return res;
}

TEST_CASE(unsupported_images_are_refused_with_a_result)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   const VkImageCreateInfo base =
       image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 64, 64, 1, 1, 1);
   struct {
      const char *what;
      VkImageCreateInfo ci;
      VkResult want;
   } cases[] = {
       {"ASTC", base, VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"input attachment of a format that is no attachment", base, VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"storage sRGB", base, VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"4 samples of a storage image", base, VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"sparse", base, VK_ERROR_FEATURE_NOT_PRESENT},
       {"3D BC1", image_info(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_3D, 8, 8, 8, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"beyond maxImageDimension2D",
        image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 16385, 1, 1, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"3D beyond maxImageDimension3D",
        image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_3D, 4, 4, 16385, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"levels beyond the chain",
        image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 64, 64, 1, 8, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"layers beyond maxImageArrayLayers",
        image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 4, 4, 1, 1, 2049),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"non-square cube", image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 8, 4, 1, 1, 6),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"cube of 5 layers", image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 8, 8, 1, 1, 5),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"linear with levels", image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 8, 8, 1, 2, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"linear depth", image_info(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, 8, 8, 1, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"2D_ARRAY_COMPATIBLE on a 2D image",
        image_info(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, 8, 8, 1, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"beyond maxResourceSize (4 GiB)",
        image_info(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TYPE_2D, 16384, 16384, 1, 2, 1),
        VK_ERROR_OUT_OF_DEVICE_MEMORY},
       {"4x with 2 levels", image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 8, 8, 1, 2, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
       {"4x wider than 8192",
        image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 8193, 8, 1, 1, 1),
        VK_ERROR_FORMAT_NOT_SUPPORTED},
   };
   /* 4x images that would be valid attachments but for the one thing named. */
   for (unsigned i = 16; i < 18; i++) {
      cases[i].ci.samples = VK_SAMPLE_COUNT_4_BIT;
      cases[i].ci.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
   }
   cases[0].ci.format = VK_FORMAT_ASTC_4x4_UNORM_BLOCK;
   cases[1].ci.format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
   cases[1].ci.usage = VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
   cases[2].ci.format = VK_FORMAT_R8G8B8A8_SRGB;
   cases[2].ci.usage = VK_IMAGE_USAGE_STORAGE_BIT;
   cases[3].ci.samples = VK_SAMPLE_COUNT_4_BIT;
   cases[3].ci.usage = VK_IMAGE_USAGE_STORAGE_BIT;
   cases[4].ci.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT;
   cases[10].ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
   cases[11].ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
   cases[12].ci.tiling = VK_IMAGE_TILING_LINEAR;
   cases[13].ci.tiling = VK_IMAGE_TILING_LINEAR;
   cases[14].ci.flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkResult res = try_image(&r, &cases[i].ci);
      CHECK_MSG(res == cases[i].want, "%s -> %d, expected %d", cases[i].what, res, cases[i].want);
   }
   /* maxImageDimension3D is the header's 16384 a side: 16384 deep is made. */
   VkImageCreateInfo deep = image_info(VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_3D, 1, 1, 16384, 1, 1);
   CHECK_MSG(try_image(&r, &deep) == VK_SUCCESS, "a 1x1x16384 3D image is refused");

   /* Binding: at an offset off the alignment, or past the memory's end. */
   VkImage image;
   REQUIRE(vkppu_CreateImage(r.device, &base, NULL, &image) == VK_SUCCESS);
   CHECK(vkppu_BindImageMemory(r.device, image, r.memory, 64) == VK_ERROR_OUT_OF_DEVICE_MEMORY);
   CHECK(vkppu_BindImageMemory(r.device, image, r.memory, r.memory_size - 512) ==
         VK_ERROR_OUT_OF_DEVICE_MEMORY);
   CHECK(vkppu_image_from_handle(image)->whole.address == 0);
   vkppu_DestroyImage(r.device, image, NULL);
   rig_finish(&r);
}

/* A view made from a range and a format, or VK_NULL_HANDLE. */
static VkImageView try_view(struct rig *r, struct vkppu_image *img, VkImageViewType type,
                            VkFormat format, VkImageSubresourceRange range, const void *next)
{
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .pNext = next,
                                .image = vkppu_image_to_handle(img),
                                .viewType = type,
                                .format = format,
                                .subresourceRange = range};
   VkImageView v = VK_NULL_HANDLE;
   return vkppu_CreateImageView(r->device, &vci, NULL, &v) == VK_SUCCESS ? v : VK_NULL_HANDLE;
}

/* A view of one level of `img` (range.baseMipLevel) is accepted, and every
 * element (texel, or block) of that level, layers or slices
 * range.baseArrayLayer .. planes - 1, is where the view's header says
 * element (x, y) of its layer `plane - baseArrayLayer` is: the view
 * describes the level as an image of its own. */
static void check_level_view(struct rig *r, struct vkppu_image *img, VkImageViewType type,
                             VkFormat format, VkImageSubresourceRange range, const void *next,
                             uint32_t planes, const char *what)
{
   VkImageView view = try_view(r, img, type, format, range, next);
   CHECK_MSG(view != VK_NULL_HANDLE, "%s: the view of level %u is refused", what,
             range.baseMipLevel);
   if (!view)
      return;
   unsigned level = range.baseMipLevel;
   uint32_t first = range.baseArrayLayer;
   const struct ppu_texture_header *w = &img->whole,
                                   *v = &vkppu_image_view_from_handle(view)->header;
   check_header(v, what);
   uint32_t rows = ppu_tex_level_rows(w, level), row_bytes = ppu_tex_level_row_bytes(w, level);
   uint32_t bytes = ppu_tex_format_bytes(w->format);
   CHECK_MSG(v->width * bytes == row_bytes && v->height == rows && v->layer_count == planes - first,
             "%s: the view is %ux%u, %u layers", what, v->width, v->height, v->layer_count);
   bool is3d = w->dim == PPU_TEX_DIM_3D;
   unsigned bad = 0;
   for (uint32_t p = first; p < planes; p++)
      for (uint32_t y = 0; y < rows; y++)
         for (uint32_t x = 0; x < row_bytes; x += bytes) {
            uint64_t want =
                w->address + ppu_tex_byte_offset(w, level, is3d ? 0 : p, x, y, is3d ? p : 0);
            uint64_t got =
                v->address + ppu_tex_byte_offset(v, 0, v->base_layer + p - first, x, y, 0);
            if (got != want && bad++ < 3)
               CHECK_MSG(false, "%s: plane %u element (%u, %u) at 0x%llx, image has it at 0x%llx",
                         what, p, x / bytes, y, (unsigned long long)got, (unsigned long long)want);
         }
   vkppu_DestroyImageView(r->device, view, NULL);
}

TEST_CASE(views_of_one_level_describe_that_level_as_an_image_of_its_own)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   /* 2D_ARRAY_COMPATIBLE: slices of a level of a 3D image as 2D layers, at
    * every level (the block height falls with the level's rows). */
   VkImageCreateInfo ci = image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, 37, 70, 9, 4, 1);
   ci.flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
   struct vkppu_image *vol = make_image(&r, &ci);
   REQUIRE(vol);
   for (unsigned level = 0; level < 4; level++) {
      uint32_t slices = ppu_tex_level_extent(9, level);
      uint32_t first = slices > 1 ? 1 : 0;
      check_level_view(&r, vol, VK_IMAGE_VIEW_TYPE_2D_ARRAY, ci.format,
                       (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, level, 1, first,
                                                 VK_REMAINING_ARRAY_LAYERS},
                       NULL, slices, "slices as layers");
   }
   check_level_view(&r, vol, VK_IMAGE_VIEW_TYPE_2D, ci.format,
                    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 3, 1}, NULL, 4,
                    "one slice as a 2D view");
   /* Refused: two levels, slices past the level's depth, a 3D view with
    * layers. */
   CHECK(!try_view(&r, vol, VK_IMAGE_VIEW_TYPE_2D_ARRAY, ci.format,
                   (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 1}, NULL));
   CHECK(!try_view(&r, vol, VK_IMAGE_VIEW_TYPE_2D_ARRAY, ci.format,
                   (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 3, 2}, NULL));
   destroy_image(&r, vol);
   /* VK_EXT_image_2d_view_of_3d's flag alone: 2D views, not 2D arrays. */
   ci.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
   struct vkppu_image *view2d = make_image(&r, &ci);
   REQUIRE(view2d);
   check_level_view(&r, view2d, VK_IMAGE_VIEW_TYPE_2D, ci.format,
                    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 2, 1, 1, 1}, NULL, 2,
                    "a slice of a 2D_VIEW_COMPATIBLE image");
   CHECK(!try_view(&r, view2d, VK_IMAGE_VIEW_TYPE_2D_ARRAY, ci.format,
                   (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 2, 1, 0, 1}, NULL));
   destroy_image(&r, view2d);
   ci.flags = 0;
   struct vkppu_image *plain3d = make_image(&r, &ci);
   REQUIRE(plain3d);
   CHECK_MSG(!try_view(&r, plain3d, VK_IMAGE_VIEW_TYPE_2D, ci.format,
                       (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}, NULL),
             "a 2D view of a 3D image without 2D_ARRAY_COMPATIBLE was accepted");
   destroy_image(&r, plain3d);

   /* BLOCK_TEXEL_VIEW_COMPATIBLE: one texel a block, at every level of a
    * BC image whose levels are not multiples of 4 (the blocks of a level are
    * not the blocks of level 0 halved). */
   ci = image_info(VK_FORMAT_BC7_UNORM_BLOCK, VK_IMAGE_TYPE_2D, 84, 300, 1, 5, 3);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
              VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
   ci.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
   struct vkppu_image *bc = make_image(&r, &ci);
   REQUIRE(bc);
   const VkImageViewUsageCreateInfo storage = {VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, NULL,
                                               VK_IMAGE_USAGE_STORAGE_BIT};
   const VkImageViewUsageCreateInfo sampled = {VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, NULL,
                                               VK_IMAGE_USAGE_SAMPLED_BIT};
   for (unsigned level = 0; level < 5; level++)
      check_level_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R32G32B32A32_UINT,
                       (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, 3},
                       &storage, 3, "blocks as texels");
   /* The BC format itself can be sampled but not stored: its view must
    * leave STORAGE out; block views of another size, or of two levels, are
    * refused. */
   const VkImageSubresourceRange level0 = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   VkImageView bc_sampled = try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, ci.format, level0, &sampled);
   CHECK(bc_sampled != VK_NULL_HANDLE);
   vkppu_DestroyImageView(r.device, bc_sampled, NULL);
   CHECK(!try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, ci.format, level0, NULL));
   CHECK(!try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, ci.format, level0, &storage));
   CHECK(!try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32_UINT, level0, &storage));
   CHECK(!try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT,
                   (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 1}, &storage));
   const VkImageViewUsageCreateInfo more = {VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, NULL,
                                            VK_IMAGE_USAGE_STORAGE_BIT |
                                                VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
   CHECK_MSG(!try_view(&r, bc, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT, level0, &more),
             "a view usage beyond the image's was accepted");
   destroy_image(&r, bc);
   rig_finish(&r);
}

TEST_CASE(unsupported_views_and_samplers_are_refused_with_a_result)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   VkImageCreateInfo ci = image_info(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, 16, 16, 1, 1, 6);
   struct vkppu_image *plain = make_image(&r, &ci);
   ci.format = VK_FORMAT_D24_UNORM_S8_UINT;
   VkImage unbound = VK_NULL_HANDLE;
   REQUIRE(vkppu_CreateImage(r.device, &ci, NULL, &unbound) == VK_SUCCESS);
   struct vkppu_image *ds = make_image(&r, &ci);
   REQUIRE(plain && ds);
   const VkImageSubresourceRange color = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   const struct {
      const char *what;
      VkImage image;
      VkImageViewType type;
      VkFormat format;
      VkImageSubresourceRange range;
   } views[] = {
       {"cube of an image that is not cube-compatible",
        vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_CUBE,
        VK_FORMAT_R8G8B8A8_UNORM,
        {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 6}},
       {"another format of an image that is not MUTABLE_FORMAT", vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32_UINT, color},
       {"3D view of a 2D image", vkppu_image_to_handle(plain), VK_IMAGE_VIEW_TYPE_3D,
        VK_FORMAT_R8G8B8A8_UNORM, color},
       {"2D view of 2 layers",
        vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_R8G8B8A8_UNORM,
        {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2}},
       {"layers past the end",
        vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_2D_ARRAY,
        VK_FORMAT_R8G8B8A8_UNORM,
        {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 4, 3}},
       {"levels past the end",
        vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_R8G8B8A8_UNORM,
        {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 0, 1}},
       {"depth aspect of a color image",
        vkppu_image_to_handle(plain),
        VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_R8G8B8A8_UNORM,
        {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}},
       {"color aspect of a depth image", vkppu_image_to_handle(ds), VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_D24_UNORM_S8_UINT, color},
       {"an unbound image",
        unbound,
        VK_IMAGE_VIEW_TYPE_2D,
        VK_FORMAT_D24_UNORM_S8_UINT,
        {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}},
   };
   for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = views[i].image,
                                   .viewType = views[i].type,
                                   .format = views[i].format,
                                   .subresourceRange = views[i].range};
      VkImageView v = VK_NULL_HANDLE;
      VkResult res = vkppu_CreateImageView(r.device, &vci, NULL, &v);
      CHECK_MSG(res == VK_ERROR_FORMAT_NOT_SUPPORTED && v == VK_NULL_HANDLE, "%s -> %d",
                views[i].what, res);
   }
   /* MUTABLE_FORMAT allows only formats of the same class. */
   ci = image_info(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_2D, 16, 16, 1, 1, 1);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   struct vkppu_image *bc = make_image(&r, &ci);
   REQUIRE(bc);
   const VkFormat bc_views[] = {VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
                                VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_R32G32_UINT};
   for (size_t i = 0; i < 4; i++) {
      VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                   .image = vkppu_image_to_handle(bc),
                                   .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                   .format = bc_views[i],
                                   .subresourceRange = color};
      VkImageView v = VK_NULL_HANDLE;
      VkResult res = vkppu_CreateImageView(r.device, &vci, NULL, &v);
      CHECK_MSG((res == VK_SUCCESS) == (i == 0), "BC1 image viewed as format %d -> %d", bc_views[i],
                res);
      vkppu_DestroyImageView(r.device, v, NULL);
   }
   destroy_image(&r, bc);
   /* A depth format is a class of its own, even when the bytes match. */
   ci = image_info(VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D, 16, 16, 1, 1, 1);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   struct vkppu_image *depth = make_image(&r, &ci);
   REQUIRE(depth);
   VkImageViewCreateInfo as_float = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                     .image = vkppu_image_to_handle(depth),
                                     .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                     .format = VK_FORMAT_R32_SFLOAT,
                                     .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
   VkImageView refused = VK_NULL_HANDLE;
   CHECK(vkppu_CreateImageView(r.device, &as_float, NULL, &refused) ==
         VK_ERROR_FORMAT_NOT_SUPPORTED);
   destroy_image(&r, depth);

   const VkSamplerCreateInfo sampler = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                        .maxLod = 1.0f};
   VkSamplerCreateInfo samplers[6];
   for (int i = 0; i < 6; i++)
      samplers[i] = sampler;
   /* Anisotropy beyond maxSamplerAnisotropy (16). */
   samplers[0].anisotropyEnable = VK_TRUE;
   samplers[0].maxAnisotropy = 32.0f;
   /* MIRROR_CLAMP_TO_EDGE (4) is the last mode the texture unit has
    * (samplerMirrorClampToEdge); nothing lies beyond it. */
   samplers[1].addressModeV =
       (VkSamplerAddressMode)(VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE + 1);
   samplers[2].borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
   samplers[3].magFilter = VK_FILTER_CUBIC_EXT;
   samplers[4].minLod = 2.0f;
   /* MAX (2) is the texture unit's last reduction. */
   VkSamplerReductionModeCreateInfo minmax = {
       .sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO,
       .reductionMode = (VkSamplerReductionMode)(VK_SAMPLER_REDUCTION_MODE_MAX + 1)};
   samplers[5].pNext = &minmax;
   for (int i = 0; i < 6; i++) {
      VkSampler s = VK_NULL_HANDLE;
      VkResult res = vkppu_CreateSampler(r.device, &samplers[i], NULL, &s);
      CHECK_MSG(res == VK_ERROR_FEATURE_NOT_PRESENT && s == VK_NULL_HANDLE, "sampler %d -> %d", i,
                res);
   }

   /* Buffer views. */
   VkBuffer uniform = make_buffer(&r, 1024, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, r.memory);
   VkBuffer storage = make_buffer(&r, 1024, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, r.memory);
   const struct {
      const char *what;
      VkBuffer buf;
      VkFormat format;
      VkDeviceSize offset, range;
   } bviews[] = {
       {"offset off minTexelBufferOffsetAlignment", uniform, VK_FORMAT_R8_UNORM, 8, 64},
       {"range not whole texels", uniform, VK_FORMAT_R32_SFLOAT, 0, 6},
       {"range past the end", uniform, VK_FORMAT_R32_SFLOAT, 512, 1024},
       {"BC format", uniform, VK_FORMAT_BC1_RGB_UNORM_BLOCK, 0, 64},
       {"storage sRGB", storage, VK_FORMAT_R8G8B8A8_SRGB, 0, 64},
       {"ASTC", uniform, VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 0, 64},
   };
   for (size_t i = 0; i < sizeof(bviews) / sizeof(bviews[0]); i++) {
      VkBufferView v;
      VkResult res = make_buffer_view(&r, bviews[i].buf, bviews[i].format, bviews[i].offset,
                                      bviews[i].range, &v);
      CHECK_MSG(res == VK_ERROR_FORMAT_NOT_SUPPORTED && v == VK_NULL_HANDLE, "%s -> %d",
                bviews[i].what, res);
   }
   vkppu_DestroyBuffer(r.device, uniform, NULL);
   vkppu_DestroyBuffer(r.device, storage, NULL);
   vkppu_DestroyImage(r.device, unbound, NULL);
   destroy_image(&r, plain);
   destroy_image(&r, ds);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
