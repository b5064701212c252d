/* The format table: which VkFormat is which hardware texel format
 * (ppu/texture.h, PPU_TEX_FORMATS), its aspects, and the features vkppu
 * reports for it (vkGetPhysicalDeviceFormatProperties and everything that
 * checks an image, view or buffer view against them).
 *
 * The feature policy is all in format_features() below: one place that says
 * which unit makes each bit true. Every format the hardware decodes is in
 * the table; every other VkFormat has no features at all. */
#include <pthread.h>

#include "vkppu_image.h"

/* What a format is, as far as the policy cares. */
enum format_kind {
   KIND_FLOAT,      /* UNORM, SNORM, SFLOAT, B10G11R11 */
   KIND_SRGB,       /* sRGB color: decoded to linear, never written by shaders */
   KIND_INT,        /* UINT, SINT */
   KIND_SHARED_EXP, /* E5B9G9R9_UFLOAT */
   KIND_BC,         /* block-compressed, 4x4 blocks */
   KIND_DEPTH,      /* depth only */
   KIND_STENCIL,    /* stencil only */
   KIND_DEPTH_STENCIL,
};

/* VkFormat, hardware format, kind. All are core 1.0 formats.
 * A8B8G8R8_*_PACK32 is R8G8B8A8 in memory (A in the top byte of a
 * little-endian word: bytes R, G, B, A), so it takes the same texel formats. */
#define VKPPU_FORMATS(X)                                                                           \
   X(R8_UNORM, R8_UNORM, FLOAT)                                                                    \
   X(R8_SNORM, R8_SNORM, FLOAT)                                                                    \
   X(R8_UINT, R8_UINT, INT)                                                                        \
   X(R8_SINT, R8_SINT, INT)                                                                        \
   X(R8_SRGB, R8_SRGB, SRGB)                                                                       \
   X(R8G8_UNORM, R8G8_UNORM, FLOAT)                                                                \
   X(R8G8_SNORM, R8G8_SNORM, FLOAT)                                                                \
   X(R8G8_UINT, R8G8_UINT, INT)                                                                    \
   X(R8G8_SINT, R8G8_SINT, INT)                                                                    \
   X(R8G8_SRGB, R8G8_SRGB, SRGB)                                                                   \
   X(R8G8B8A8_UNORM, R8G8B8A8_UNORM, FLOAT)                                                        \
   X(R8G8B8A8_SNORM, R8G8B8A8_SNORM, FLOAT)                                                        \
   X(R8G8B8A8_UINT, R8G8B8A8_UINT, INT)                                                            \
   X(R8G8B8A8_SINT, R8G8B8A8_SINT, INT)                                                            \
   X(R8G8B8A8_SRGB, R8G8B8A8_SRGB, SRGB)                                                           \
   X(B8G8R8A8_UNORM, B8G8R8A8_UNORM, FLOAT)                                                        \
   X(B8G8R8A8_SRGB, B8G8R8A8_SRGB, SRGB)                                                           \
   X(A2B10G10R10_UNORM_PACK32, A2B10G10R10_UNORM, FLOAT)                                           \
   X(A2B10G10R10_UINT_PACK32, A2B10G10R10_UINT, INT)                                               \
   X(A2R10G10B10_UNORM_PACK32, A2R10G10B10_UNORM, FLOAT)                                           \
   X(B10G11R11_UFLOAT_PACK32, B10G11R11_UFLOAT, FLOAT)                                             \
   X(E5B9G9R9_UFLOAT_PACK32, E5B9G9R9_UFLOAT, SHARED_EXP)                                          \
   X(R5G6B5_UNORM_PACK16, R5G6B5_UNORM, FLOAT)                                                     \
   X(R16_UNORM, R16_UNORM, FLOAT)                                                                  \
   X(R16_SNORM, R16_SNORM, FLOAT)                                                                  \
   X(R16_UINT, R16_UINT, INT)                                                                      \
   X(R16_SINT, R16_SINT, INT)                                                                      \
   X(R16_SFLOAT, R16_SFLOAT, FLOAT)                                                                \
   X(R16G16_UNORM, R16G16_UNORM, FLOAT)                                                            \
   X(R16G16_SNORM, R16G16_SNORM, FLOAT)                                                            \
   X(R16G16_UINT, R16G16_UINT, INT)                                                                \
   X(R16G16_SINT, R16G16_SINT, INT)                                                                \
   X(R16G16_SFLOAT, R16G16_SFLOAT, FLOAT)                                                          \
   X(R16G16B16A16_UNORM, R16G16B16A16_UNORM, FLOAT)                                                \
   X(R16G16B16A16_SNORM, R16G16B16A16_SNORM, FLOAT)                                                \
   X(R16G16B16A16_UINT, R16G16B16A16_UINT, INT)                                                    \
   X(R16G16B16A16_SINT, R16G16B16A16_SINT, INT)                                                    \
   X(R16G16B16A16_SFLOAT, R16G16B16A16_SFLOAT, FLOAT)                                              \
   X(R32_UINT, R32_UINT, INT)                                                                      \
   X(R32_SINT, R32_SINT, INT)                                                                      \
   X(R32_SFLOAT, R32_SFLOAT, FLOAT)                                                                \
   X(R32G32_UINT, R32G32_UINT, INT)                                                                \
   X(R32G32_SINT, R32G32_SINT, INT)                                                                \
   X(R32G32_SFLOAT, R32G32_SFLOAT, FLOAT)                                                          \
   X(R32G32B32A32_UINT, R32G32B32A32_UINT, INT)                                                    \
   X(R32G32B32A32_SINT, R32G32B32A32_SINT, INT)                                                    \
   X(R32G32B32A32_SFLOAT, R32G32B32A32_SFLOAT, FLOAT)                                              \
   X(D16_UNORM, D16_UNORM, DEPTH)                                                                  \
   X(X8_D24_UNORM_PACK32, X8_D24_UNORM, DEPTH)                                                     \
   X(D32_SFLOAT, D32_SFLOAT, DEPTH)                                                                \
   X(S8_UINT, S8_UINT, STENCIL)                                                                    \
   X(D24_UNORM_S8_UINT, D24_UNORM_S8_UINT, DEPTH_STENCIL)                                          \
   X(D32_SFLOAT_S8_UINT, D32_SFLOAT_S8_UINT, DEPTH_STENCIL)                                        \
   X(BC1_RGB_UNORM_BLOCK, BC1_RGB_UNORM, BC)                                                       \
   X(BC1_RGB_SRGB_BLOCK, BC1_RGB_SRGB, BC)                                                         \
   X(BC1_RGBA_UNORM_BLOCK, BC1_RGBA_UNORM, BC)                                                     \
   X(BC1_RGBA_SRGB_BLOCK, BC1_RGBA_SRGB, BC)                                                       \
   X(BC2_UNORM_BLOCK, BC2_UNORM, BC)                                                               \
   X(BC2_SRGB_BLOCK, BC2_SRGB, BC)                                                                 \
   X(BC3_UNORM_BLOCK, BC3_UNORM, BC)                                                               \
   X(BC3_SRGB_BLOCK, BC3_SRGB, BC)                                                                 \
   X(BC4_UNORM_BLOCK, BC4_UNORM, BC)                                                               \
   X(BC4_SNORM_BLOCK, BC4_SNORM, BC)                                                               \
   X(BC5_UNORM_BLOCK, BC5_UNORM, BC)                                                               \
   X(BC5_SNORM_BLOCK, BC5_SNORM, BC)                                                               \
   X(BC6H_UFLOAT_BLOCK, BC6H_UFLOAT, BC)                                                           \
   X(BC6H_SFLOAT_BLOCK, BC6H_SFLOAT, BC)                                                           \
   X(BC7_UNORM_BLOCK, BC7_UNORM, BC)                                                               \
   X(BC7_SRGB_BLOCK, BC7_SRGB, BC)                                                                 \
   X(B5G6R5_UNORM_PACK16, B5G6R5_UNORM, FLOAT)                                                     \
   X(A1R5G5B5_UNORM_PACK16, A1R5G5B5_UNORM, FLOAT)                                                 \
   X(R5G5B5A1_UNORM_PACK16, R5G5B5A1_UNORM, FLOAT)                                                 \
   X(B5G5R5A1_UNORM_PACK16, B5G5R5A1_UNORM, FLOAT)                                                 \
   X(R4G4B4A4_UNORM_PACK16, R4G4B4A4_UNORM, FLOAT)                                                 \
   X(B4G4R4A4_UNORM_PACK16, B4G4R4A4_UNORM, FLOAT)                                                 \
   X(A8B8G8R8_UNORM_PACK32, R8G8B8A8_UNORM, FLOAT)                                                 \
   X(A8B8G8R8_SNORM_PACK32, R8G8B8A8_SNORM, FLOAT)                                                 \
   X(A8B8G8R8_UINT_PACK32, R8G8B8A8_UINT, INT)                                                     \
   X(A8B8G8R8_SINT_PACK32, R8G8B8A8_SINT, INT)                                                     \
   X(A8B8G8R8_SRGB_PACK32, R8G8B8A8_SRGB, SRGB)

/* Every table entry is a core 1.0 VkFormat, below BC7_SRGB + 1. */
#define FORMAT_TABLE_SIZE ((unsigned)VK_FORMAT_BC7_SRGB_BLOCK + 1u)

static struct vkppu_format_info format_table[FORMAT_TABLE_SIZE];
static pthread_once_t format_table_once = PTHREAD_ONCE_INIT;

/* The feature policy. Each bit is reported because the unit named in its
 * comment does it for every format the condition admits:
 *
 * - SAMPLED_IMAGE, TRANSFER_SRC/DST: every format. The texture unit decodes
 *   all of them (docs/texture.md) and the copy engine copies and clears all
 *   of them, BC as 4x4 blocks.
 * - SAMPLED_IMAGE_FILTER_LINEAR: formats that read as floats (UNORM, SNORM,
 *   sRGB, floats, BC, depth). Vulkan forbids linear filtering of integers,
 *   and stencil reads as an integer.
 * - STORAGE_IMAGE (and STORAGE_TEXEL_BUFFER): uncompressed color formats
 *   the texture unit's SULD/SUST can encode as well as decode: not BC (no
 *   block encoder), not sRGB (Vulkan has no sRGB storage format in SPIR-V
 *   and real parts do not write them), not E5B9G9R9 (no SPIR-V image format
 *   names it), not depth/stencil (written only as attachments).
 * - STORAGE_IMAGE_ATOMIC (and the texel-buffer bit): R32_UINT and R32_SINT,
 *   the formats SUATOM works on and the only ones Vulkan requires.
 * - BLIT_SRC: color formats and formats with depth (blits read through the
 *   texture unit, which samples all of them); not S8_UINT.
 * - BLIT_DST: uncompressed colour formats, sRGB and E5B9G9R9 included: the
 *   copy engine's BLIT encodes into every one of them (hw/src/copy_engine_
 *   blit.c); block-compressed destinations need an encoder it does not have,
 *   and depth/stencil blits are left out until they are tested through the
 *   API.
 * - UNIFORM_TEXEL_BUFFER: uncompressed color formats (the texture unit's
 *   buffer path reads every one of them; BC has no 1D row layout).
 * - _2 bits: STORAGE_READ/WRITE_WITHOUT_FORMAT wherever storage is
 *   reported, since SULD/SUST take the format from the header, never from
 *   the shader; SAMPLED_IMAGE_DEPTH_COMPARISON on every format with depth
 *   (the sampler header's compare).
 * - COLOR_ATTACHMENT: uncompressed color formats but E5B9G9R9, the
 *   formats the ROP's render targets take (rop_surface_init refuses the
 *   others); it reads and writes them through the same texel codec as the
 *   copy engine. COLOR_ATTACHMENT_BLEND: those that read as floats (UNORM,
 *   SNORM, float, sRGB blended in linear); integer targets never blend.
 * - DEPTH_STENCIL_ATTACHMENT: every depth and stencil format (ZROP).
 * - VERTEX_BUFFER is the compiler's list (vertex_formats.c), added by the
 *   format queries, since most vertex formats have no texel format here.
 * - Linear tiling: uncompressed color formats only (the same features as
 *   optimal, but for FILTER_MINMAX); depth, stencil and BC images are optimal only, as on every
 *   desktop part. Linear images are 2D with one level and one layer
 *   (vkppu_image_format_support).
 */
/* SAMPLED_IMAGE_FILTER_MINMAX: the texture unit reduces any format it
 * filters, but the bit is only on the formats of the spec's required list
 * for filterMinmaxSingleComponentFormats, each of which
 * tests/api/test_sampler_filter_minmax.c samples with MIN and MAX. */
static bool minmax_tested(enum ppu_tex_format hw)
{
   switch (hw) {
   case PPU_TEX_FORMAT_R8_UNORM:
   case PPU_TEX_FORMAT_R8_SNORM:
   case PPU_TEX_FORMAT_R16_UNORM:
   case PPU_TEX_FORMAT_R16_SNORM:
   case PPU_TEX_FORMAT_R16_SFLOAT:
   case PPU_TEX_FORMAT_R32_SFLOAT:
   case PPU_TEX_FORMAT_D16_UNORM:
   case PPU_TEX_FORMAT_X8_D24_UNORM:
   case PPU_TEX_FORMAT_D32_SFLOAT:
   case PPU_TEX_FORMAT_D24_UNORM_S8_UINT:
   case PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT:
      return true;
   default:
      return false;
   }
}

static void format_features(struct vkppu_format_info *f, enum format_kind kind)
{
   bool depth = kind == KIND_DEPTH || kind == KIND_DEPTH_STENCIL;
   bool color = !depth && kind != KIND_STENCIL;
   bool uncompressed_color = color && kind != KIND_BC;
   bool filterable = kind != KIND_INT && kind != KIND_STENCIL;
   bool storage = kind == KIND_FLOAT || kind == KIND_INT;
   bool atomic = f->hw == PPU_TEX_FORMAT_R32_UINT || f->hw == PPU_TEX_FORMAT_R32_SINT;

   VkFormatFeatureFlags image = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
   if (filterable)
      image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   if (minmax_tested(f->hw))
      image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
   if (storage)
      image |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
   if (uncompressed_color)
      image |= VK_FORMAT_FEATURE_BLIT_DST_BIT;
   if (atomic)
      image |= VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
   if (color || depth)
      image |= VK_FORMAT_FEATURE_BLIT_SRC_BIT;
   if (uncompressed_color && kind != KIND_SHARED_EXP)
      image |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
               (kind != KIND_INT ? VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT : 0);
   if (!color)
      image |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;

   f->optimal = image;
   /* Min/max filtering is tested on optimal images only. */
   f->linear = uncompressed_color ? image & ~VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT : 0;
   f->buffer = 0;
   if (uncompressed_color)
      f->buffer |= VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
   if (storage)
      f->buffer |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
   if (atomic)
      f->buffer |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;

   /* VkFormatFeatureFlags2 keeps the 1.0 bits where they are (bits 0..30);
    * STORAGE_READ_WITHOUT_FORMAT is bit 31, WRITE bit 32. */
   VkFormatFeatureFlags2 without_format =
       storage ? VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                     VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT
               : 0;
   f->optimal2 = f->optimal | without_format |
                 (depth ? VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT : 0);
   f->linear2 = f->linear ? f->linear | without_format : 0;
   f->buffer2 = f->buffer | without_format;

   f->aspects = color                  ? VK_IMAGE_ASPECT_COLOR_BIT
                : kind == KIND_DEPTH   ? VK_IMAGE_ASPECT_DEPTH_BIT
                : kind == KIND_STENCIL ? VK_IMAGE_ASPECT_STENCIL_BIT
                                       : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
}

static void format_table_init(void)
{
#define VKPPU_FORMAT_ENTRY_(vk, hw_name, kind)                                                     \
   format_table[VK_FORMAT_##vk].hw = PPU_TEX_FORMAT_##hw_name;                                     \
   format_features(&format_table[VK_FORMAT_##vk], KIND_##kind);
   VKPPU_FORMATS(VKPPU_FORMAT_ENTRY_)
#undef VKPPU_FORMAT_ENTRY_
}

const struct vkppu_format_info *vkppu_format_info(VkFormat format)
{
   static const struct vkppu_format_info unsupported = {.hw = PPU_TEX_FORMAT_INVALID};
   pthread_once(&format_table_once, format_table_init);
   if ((unsigned)format >= FORMAT_TABLE_SIZE)
      return &unsupported;
   return &format_table[format];
}

/* Vulkan's "compatible formats" (spec: Format Compatibility Classes), as far
 * as the table goes: uncompressed color formats of one size share a class;
 * each BC format shares one only with its UNORM/SRGB (or SNORM) twin, which
 * the hardware list keeps next to it; a depth/stencil format is alone. The
 * hardware lays out every format of a class identically, so a view of
 * another format of the class reads the same bytes. */
_Static_assert(PPU_TEX_FORMAT_BC7_SRGB - PPU_TEX_FORMAT_BC1_RGB_UNORM == 15,
               "BC formats come in 8 adjacent pairs");

bool vkppu_formats_view_compatible(VkFormat a, VkFormat b)
{
   const struct vkppu_format_info *fa = vkppu_format_info(a), *fb = vkppu_format_info(b);
   if (fa->hw == PPU_TEX_FORMAT_INVALID || fb->hw == PPU_TEX_FORMAT_INVALID)
      return false;
   if (fa->hw == fb->hw)
      return true;
   if (fa->aspects != VK_IMAGE_ASPECT_COLOR_BIT || fb->aspects != VK_IMAGE_ASPECT_COLOR_BIT)
      return false;
   bool ca = ppu_tex_format_is_compressed(fa->hw), cb = ppu_tex_format_is_compressed(fb->hw);
   if (ca || cb)
      return ca && cb &&
             (fa->hw - PPU_TEX_FORMAT_BC1_RGB_UNORM) / 2 ==
                 (fb->hw - PPU_TEX_FORMAT_BC1_RGB_UNORM) / 2;
   return ppu_tex_format_bytes(fa->hw) == ppu_tex_format_bytes(fb->hw);
}

bool vkppu_formats_block_texel_compatible(VkFormat image, VkFormat view)
{
   const struct vkppu_format_info *fi = vkppu_format_info(image), *fv = vkppu_format_info(view);
   return ppu_tex_format_is_compressed(fi->hw) && fv->hw != PPU_TEX_FORMAT_INVALID &&
          fv->aspects == VK_IMAGE_ASPECT_COLOR_BIT && !ppu_tex_format_is_compressed(fv->hw) &&
          ppu_tex_format_bytes(fv->hw) == ppu_tex_format_bytes(fi->hw);
}

/* The formats are few (the table ends at BC7_SRGB), so a walk over them is
 * cheaper than a second table that could drift from the first. */
VkFormatFeatureFlags vkppu_format_view_features(VkFormat format, VkImageCreateFlags flags,
                                                bool linear)
{
   const struct vkppu_format_info *f = vkppu_format_info(format);
   VkFormatFeatureFlags features = linear ? f->linear : f->optimal;
   if (!(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
      return features;
   bool block_texel = (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) != 0;
   for (unsigned v = 1; v < FORMAT_TABLE_SIZE; v++) {
      if (vkppu_formats_view_compatible(format, (VkFormat)v) ||
          (block_texel && vkppu_formats_block_texel_compatible(format, (VkFormat)v))) {
         const struct vkppu_format_info *fv = vkppu_format_info((VkFormat)v);
         features |= linear ? fv->linear : fv->optimal;
      }
   }
   return features;
}
