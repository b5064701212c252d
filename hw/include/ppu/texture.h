/* Textures in memory as the texture unit reads them: the texture header
 * (one image view), the sampler header, the texel formats and the
 * block-linear layout of optimally tiled images. The contract between the
 * driver (icd/ images, views, samplers, descriptors; the copy engine's image
 * copies) and the texture unit (hw/src/texture/). docs/texture.md gives the
 * details; keep the two in step.
 *
 * Headers live in GPU memory (descriptor sets hold them inline); a shader's
 * texture instruction names a header by its VA, so the unit fetches and
 * checks it like any memory (a bad header is a fault, never a host crash).
 *
 * Block-linear layout (optimal tiling). Memory of one mip level of one layer
 * is a grid of blocks; a block is a column of 2^bh GOBs (bh = block height,
 * per level, see ppu_tex_level_block_height_log2); a GOB ("group of bytes")
 * is 64 bytes wide and 8 rows tall, 512 bytes, stored row after row (byte
 * (x, y) of a GOB at y * 64 + x). Blocks are ordered x fastest, then y;
 * the GOBs of a block go down its column. The slices of a 3D level follow
 * one another, each a whole grid of blocks. A "row" is one texel row, or
 * one row of 4x4 blocks for block-compressed formats; x is in bytes.
 * Levels follow one another, each starting at a multiple of 512 bytes;
 * layers follow one another every layer_stride bytes (all levels of a layer
 * are together). The inline functions below are the definition: the driver
 * and the unit both use them, so they cannot disagree.
 */
#ifndef PPU_TEXTURE_H
#define PPU_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#define PPU_TEX_HEADER_BYTES 64u
#define PPU_SAMPLER_HEADER_BYTES 64u
#define PPU_TEX_HEADER_ALIGN 64u
#define PPU_GOB_WIDTH_BYTES 64u
#define PPU_GOB_HEIGHT_ROWS 8u
#define PPU_GOB_BYTES 512u
#define PPU_TEX_MAX_BLOCK_HEIGHT_LOG2 5u /* 32 GOBs */
#define PPU_TEX_MAX_LEVELS 15u           /* 16384 texels */
#define PPU_TEX_MAX_EXTENT 16384u
#define PPU_TEX_MAX_BUFFER_ELEMENTS (1u << 27) /* dim BUFFER width (maxTexelBufferElements) */

/* Texel formats. Each has a fixed size in bytes per texel (or per 4x4
 * block for BC formats), a numeric class, and a component layout; the
 * table (name, bytes, block) is PPU_TEX_FORMATS and docs/texture.md. Packed
 * formats are named from the most significant bits down, as Vulkan does. */
#define PPU_TEX_FORMATS(X)                                                                         \
   X(INVALID, 0, false)                                                                            \
   X(R8_UNORM, 1, false)                                                                           \
   X(R8_SNORM, 1, false)                                                                           \
   X(R8_UINT, 1, false)                                                                            \
   X(R8_SINT, 1, false)                                                                            \
   X(R8_SRGB, 1, false)                                                                            \
   X(R8G8_UNORM, 2, false)                                                                         \
   X(R8G8_SNORM, 2, false)                                                                         \
   X(R8G8_UINT, 2, false)                                                                          \
   X(R8G8_SINT, 2, false)                                                                          \
   X(R8G8_SRGB, 2, false)                                                                          \
   X(R8G8B8A8_UNORM, 4, false)                                                                     \
   X(R8G8B8A8_SNORM, 4, false)                                                                     \
   X(R8G8B8A8_UINT, 4, false)                                                                      \
   X(R8G8B8A8_SINT, 4, false)                                                                      \
   X(R8G8B8A8_SRGB, 4, false)                                                                      \
   X(B8G8R8A8_UNORM, 4, false)                                                                     \
   X(B8G8R8A8_SRGB, 4, false)                                                                      \
   X(A2B10G10R10_UNORM, 4, false)                                                                  \
   X(A2B10G10R10_UINT, 4, false)                                                                   \
   X(A2R10G10B10_UNORM, 4, false)                                                                  \
   X(B10G11R11_UFLOAT, 4, false)                                                                   \
   X(E5B9G9R9_UFLOAT, 4, false)                                                                    \
   X(R5G6B5_UNORM, 2, false)                                                                       \
   X(R16_UNORM, 2, false)                                                                          \
   X(R16_SNORM, 2, false)                                                                          \
   X(R16_UINT, 2, false)                                                                           \
   X(R16_SINT, 2, false)                                                                           \
   X(R16_SFLOAT, 2, false)                                                                         \
   X(R16G16_UNORM, 4, false)                                                                       \
   X(R16G16_SNORM, 4, false)                                                                       \
   X(R16G16_UINT, 4, false)                                                                        \
   X(R16G16_SINT, 4, false)                                                                        \
   X(R16G16_SFLOAT, 4, false)                                                                      \
   X(R16G16B16A16_UNORM, 8, false)                                                                 \
   X(R16G16B16A16_SNORM, 8, false)                                                                 \
   X(R16G16B16A16_UINT, 8, false)                                                                  \
   X(R16G16B16A16_SINT, 8, false)                                                                  \
   X(R16G16B16A16_SFLOAT, 8, false)                                                                \
   X(R32_UINT, 4, false)                                                                           \
   X(R32_SINT, 4, false)                                                                           \
   X(R32_SFLOAT, 4, false)                                                                         \
   X(R32G32_UINT, 8, false)                                                                        \
   X(R32G32_SINT, 8, false)                                                                        \
   X(R32G32_SFLOAT, 8, false)                                                                      \
   X(R32G32B32A32_UINT, 16, false)                                                                 \
   X(R32G32B32A32_SINT, 16, false)                                                                 \
   X(R32G32B32A32_SFLOAT, 16, false)                                                               \
   X(D16_UNORM, 2, false)                                                                          \
   X(X8_D24_UNORM, 4, false) /* depth in bits 23..0, 31..24 unused */                              \
   X(D32_SFLOAT, 4, false)                                                                         \
   X(S8_UINT, 1, false)                                                                            \
   X(D24_UNORM_S8_UINT, 4, false)  /* depth bits 23..0, stencil 31..24 */                          \
   X(D32_SFLOAT_S8_UINT, 8, false) /* depth float in bytes 0..3, stencil byte 4, 5..7 unused */    \
   X(BC1_RGB_UNORM, 8, true)                                                                       \
   X(BC1_RGB_SRGB, 8, true)                                                                        \
   X(BC1_RGBA_UNORM, 8, true)                                                                      \
   X(BC1_RGBA_SRGB, 8, true)                                                                       \
   X(BC2_UNORM, 16, true)                                                                          \
   X(BC2_SRGB, 16, true)                                                                           \
   X(BC3_UNORM, 16, true)                                                                          \
   X(BC3_SRGB, 16, true)                                                                           \
   X(BC4_UNORM, 8, true)                                                                           \
   X(BC4_SNORM, 8, true)                                                                           \
   X(BC5_UNORM, 16, true)                                                                          \
   X(BC5_SNORM, 16, true)                                                                          \
   X(BC6H_UFLOAT, 16, true)                                                                        \
   X(BC6H_SFLOAT, 16, true)                                                                        \
   X(BC7_UNORM, 16, true)                                                                          \
   X(BC7_SRGB, 16, true)                                                                           \
   X(B5G6R5_UNORM, 2, false)                                                                       \
   X(A1R5G5B5_UNORM, 2, false)                                                                     \
   X(R5G5B5A1_UNORM, 2, false)                                                                     \
   X(B5G5R5A1_UNORM, 2, false)                                                                     \
   X(R4G4B4A4_UNORM, 2, false)                                                                     \
   X(B4G4R4A4_UNORM, 2, false)

enum ppu_tex_format {
#define PPU_TEX_FORMAT_ENUM_(id, bytes, block) PPU_TEX_FORMAT_##id,
   PPU_TEX_FORMATS(PPU_TEX_FORMAT_ENUM_)
#undef PPU_TEX_FORMAT_ENUM_
       PPU_TEX_FORMAT_COUNT
};

enum ppu_tex_dim {
   PPU_TEX_DIM_1D = 0,
   PPU_TEX_DIM_2D = 1,
   PPU_TEX_DIM_3D = 2,
   PPU_TEX_DIM_CUBE = 3,   /* 2D layers in groups of 6: +X -X +Y -Y +Z -Z */
   PPU_TEX_DIM_BUFFER = 4, /* texel buffer: linear, width texels (up to 2^27), no levels/layers */
};

enum ppu_tex_layout {
   PPU_TEX_LAYOUT_LINEAR = 0,       /* rows row_pitch bytes apart */
   PPU_TEX_LAYOUT_BLOCK_LINEAR = 1, /* GOBs and blocks, see above */
};

/* Component swizzle selectors (4 bits each in ppu_texture_header.swizzle,
 * R in bits 3..0, G 7..4, B 11..8, A 15..12). */
enum ppu_tex_swizzle {
   PPU_TEX_SWIZZLE_R = 0,
   PPU_TEX_SWIZZLE_G = 1,
   PPU_TEX_SWIZZLE_B = 2,
   PPU_TEX_SWIZZLE_A = 3,
   PPU_TEX_SWIZZLE_ZERO = 4,
   PPU_TEX_SWIZZLE_ONE = 5,
};
#define PPU_TEX_SWIZZLE_IDENTITY 0x3210u

/* Header flags. */
#define PPU_TEX_FLAG_STENCIL 0x1u /* depth/stencil formats: read the stencil aspect */
#define PPU_TEX_FLAG_ARRAY 0x2u   /* an array view (layer index from coordinates) */

/* One image view, 64 bytes. The image's own shape (image_levels, the
 * block height, layer_stride) locates every level; the view fields select
 * which levels and layers the shader sees.
 *
 * A 4x view (samples_log2 = 2) is a 2D view of one level whose memory is a
 * 1x image of twice the width and height: width and height stay that
 * image's texel extent (so the layout functions below are the one
 * definition for it too), the pixel extent is half of each, and sample s
 * of pixel (x, y) is texel (2x + (s & 1), 2y + (s >> 1)). */
struct ppu_texture_header {
   uint64_t address; /* 0   VA of level 0, layer 0 of the IMAGE (512-aligned when block-linear) */
   uint64_t layer_stride;     /* 8   bytes between layers (block-linear: all levels of a layer) */
   uint16_t format;           /* 16  enum ppu_tex_format */
   uint8_t dim;               /* 18  enum ppu_tex_dim */
   uint8_t layout;            /* 19  enum ppu_tex_layout */
   uint16_t swizzle;          /* 20  4 selectors, PPU_TEX_SWIZZLE_IDENTITY = none */
   uint8_t flags;             /* 22  PPU_TEX_FLAG_* */
   uint8_t block_height_log2; /* 23  block-linear: GOBs per block column at level 0 (0..5) */
   uint32_t width;            /* 24  level-0 extent of the image, texels (>= 1) */
   uint32_t height;           /* 28  1 for 1D */
   uint32_t depth;            /* 32  3D only, else 1 */
   uint32_t row_pitch;        /* 36  linear layout: bytes between rows; block-linear: 0 */
   uint8_t image_levels;      /* 40  mip levels of the image */
   uint8_t base_level;        /* 41  first level the view shows */
   uint8_t level_count;       /* 42  levels the view shows (>= 1) */
   uint8_t samples_log2;      /* 43  0, or 2: a 4x view (TLD and TXQ only, see below) */
   uint32_t base_layer;       /* 44  first layer the view shows */
   uint32_t layer_count;      /* 48  layers the view shows (cube: 6 per cube) */
   float min_lod_clamp;       /* 52  view's minLod (VK_EXT_image_view_min_lod); 0 = none */
   uint32_t reserved[2];      /* 56  0 */
};

enum ppu_tex_filter {
   PPU_TEX_FILTER_NEAREST = 0,
   PPU_TEX_FILTER_LINEAR = 1,
};

enum ppu_tex_address_mode {
   PPU_TEX_ADDRESS_REPEAT = 0,
   PPU_TEX_ADDRESS_MIRRORED_REPEAT = 1,
   PPU_TEX_ADDRESS_CLAMP_TO_EDGE = 2,
   PPU_TEX_ADDRESS_CLAMP_TO_BORDER = 3,
   PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE = 4,
};

/* Sampler flags. */
#define PPU_SAMPLER_FLAG_UNNORMALIZED                                                              \
   0x1u                               /* coordinates in texels (Vulkan's unnormalizedCoordinates) */
#define PPU_SAMPLER_FLAG_COMPARE 0x2u /* depth compare with compare_op */
#define PPU_SAMPLER_FLAG_ANISOTROPY 0x4u /* anisotropic filtering up to max_anisotropy */
#define PPU_SAMPLER_FLAG_BORDER_INT 0x8u /* border_color holds integers (for integer formats) */
/* Bits 5..4 of flags: how a filter combines the texels of one level (of
 * one anisotropic probe) that have non-zero weights; levels and probes are
 * then combined by their weights as always. */
#define PPU_SAMPLER_REDUCTION_SHIFT 4u
#define PPU_SAMPLER_REDUCTION_MASK 0x30u
enum ppu_sampler_reduction {
   PPU_SAMPLER_REDUCTION_WEIGHTED_AVERAGE = 0,
   PPU_SAMPLER_REDUCTION_MIN = 1, /* component-wise minimum */
   PPU_SAMPLER_REDUCTION_MAX = 2, /* component-wise maximum */
};

/* One sampler, 64 bytes. compare_op is a VkCompareOp value (NEVER = 0 ..
 * ALWAYS = 7): the contract reuses those numbers because they are a plain
 * list, not because the unit knows Vulkan. */
struct ppu_sampler_header {
   uint8_t mag_filter;       /* 0   enum ppu_tex_filter */
   uint8_t min_filter;       /* 1 */
   uint8_t mip_filter;       /* 2   NEAREST or LINEAR between levels */
   uint8_t address_u;        /* 3   enum ppu_tex_address_mode */
   uint8_t address_v;        /* 4 */
   uint8_t address_w;        /* 5 */
   uint8_t compare_op;       /* 6 */
   uint8_t flags;            /* 7   PPU_SAMPLER_FLAG_* */
   float lod_bias;           /* 8 */
   float min_lod;            /* 12 */
   float max_lod;            /* 16 */
   float max_anisotropy;     /* 20  1.0 when off */
   uint32_t border_color[4]; /* 24  RGBA as float bits, or integers with BORDER_INT */
   uint32_t reserved[6];     /* 40  0 */
};

_Static_assert(sizeof(struct ppu_texture_header) == PPU_TEX_HEADER_BYTES, "texture header");
_Static_assert(sizeof(struct ppu_sampler_header) == PPU_SAMPLER_HEADER_BYTES, "sampler header");

/* ---------------------------------------------------------------------------
 * Layout functions: the definition of where every texel is.
 * ------------------------------------------------------------------------- */

/* Bytes per texel, or per 4x4 block of a block-compressed format; 0 for
 * INVALID or out of range. */
static inline uint32_t ppu_tex_format_bytes(unsigned format)
{
   static const uint8_t bytes[] = {
#define PPU_TEX_FORMAT_BYTES_(id, b, block) b,
       PPU_TEX_FORMATS(PPU_TEX_FORMAT_BYTES_)
#undef PPU_TEX_FORMAT_BYTES_
   };
   return format < PPU_TEX_FORMAT_COUNT ? bytes[format] : 0;
}

static inline bool ppu_tex_format_is_compressed(unsigned format)
{
   static const bool block[] = {
#define PPU_TEX_FORMAT_BLOCK_(id, b, blk) blk,
       PPU_TEX_FORMATS(PPU_TEX_FORMAT_BLOCK_)
#undef PPU_TEX_FORMAT_BLOCK_
   };
   return format < PPU_TEX_FORMAT_COUNT && block[format];
}

static inline uint32_t ppu_tex_level_extent(uint32_t extent, unsigned level)
{
   uint32_t e = level < 32 ? extent >> level : 0;
   return e ? e : 1;
}

static inline uint32_t ppu_tex_div_round_up(uint32_t a, uint32_t b)
{
   return (a + b - 1) / b;
}

/* Rows and bytes per row of a level: texels, or 4x4 blocks when compressed. */
static inline uint32_t ppu_tex_level_rows(const struct ppu_texture_header *h, unsigned level)
{
   uint32_t rows = ppu_tex_level_extent(h->height, level);
   return ppu_tex_format_is_compressed(h->format) ? ppu_tex_div_round_up(rows, 4) : rows;
}

static inline uint32_t ppu_tex_level_row_bytes(const struct ppu_texture_header *h, unsigned level)
{
   uint32_t w = ppu_tex_level_extent(h->width, level);
   if (ppu_tex_format_is_compressed(h->format))
      w = ppu_tex_div_round_up(w, 4);
   return w * ppu_tex_format_bytes(h->format);
}

/* Block height of a level: the header's, reduced while half of it would
 * still hold the level's rows (small levels do not pad to tall blocks). */
static inline unsigned ppu_tex_level_block_height_log2(const struct ppu_texture_header *h,
                                                       unsigned level)
{
   unsigned bh = h->block_height_log2;
   uint32_t gobs = ppu_tex_div_round_up(ppu_tex_level_rows(h, level), PPU_GOB_HEIGHT_ROWS);
   while (bh > 0 && (1u << (bh - 1)) >= gobs)
      bh--;
   return bh;
}

/* Bytes of one level of one layer (block-linear: whole blocks; linear:
 * row_pitch * rows * depth). */
static inline uint64_t ppu_tex_level_size(const struct ppu_texture_header *h, unsigned level)
{
   uint32_t depth = h->dim == PPU_TEX_DIM_3D ? ppu_tex_level_extent(h->depth, level) : 1;
   uint32_t rows = ppu_tex_level_rows(h, level);
   if (h->layout == PPU_TEX_LAYOUT_LINEAR)
      return (uint64_t)h->row_pitch * rows * depth;
   unsigned bh = ppu_tex_level_block_height_log2(h, level);
   uint64_t blocks_x = ppu_tex_div_round_up(ppu_tex_level_row_bytes(h, level), PPU_GOB_WIDTH_BYTES);
   uint64_t blocks_y = ppu_tex_div_round_up(rows, PPU_GOB_HEIGHT_ROWS << bh);
   return blocks_x * blocks_y * depth * ((uint64_t)PPU_GOB_BYTES << bh);
}

/* Offset of a level from the layer's start. */
static inline uint64_t ppu_tex_level_offset(const struct ppu_texture_header *h, unsigned level)
{
   uint64_t offset = 0;
   for (unsigned l = 0; l < level; l++)
      offset += (ppu_tex_level_size(h, l) + PPU_GOB_BYTES - 1) & ~(uint64_t)(PPU_GOB_BYTES - 1);
   return offset;
}

/* Bytes of all levels of one layer, a multiple of 512: what a driver puts
 * in layer_stride for a block-linear image. */
static inline uint64_t ppu_tex_layer_size(const struct ppu_texture_header *h)
{
   return ppu_tex_level_offset(h, h->image_levels);
}

/* Byte offset, from the image address, of byte x_bytes of row y of slice z
 * of a level of a layer (rows of blocks for compressed formats). */
static inline uint64_t ppu_tex_byte_offset(const struct ppu_texture_header *h, unsigned level,
                                           uint32_t layer, uint32_t x_bytes, uint32_t y, uint32_t z)
{
   uint64_t base = (uint64_t)layer * h->layer_stride + ppu_tex_level_offset(h, level);
   uint32_t rows = ppu_tex_level_rows(h, level);
   if (h->layout == PPU_TEX_LAYOUT_LINEAR)
      return base + ((uint64_t)z * rows + y) * h->row_pitch + x_bytes;
   unsigned bh = ppu_tex_level_block_height_log2(h, level);
   uint32_t block_rows = PPU_GOB_HEIGHT_ROWS << bh;
   uint64_t blocks_x = ppu_tex_div_round_up(ppu_tex_level_row_bytes(h, level), PPU_GOB_WIDTH_BYTES);
   uint64_t blocks_y = ppu_tex_div_round_up(rows, block_rows);
   uint64_t block =
       ((uint64_t)z * blocks_y + y / block_rows) * blocks_x + x_bytes / PPU_GOB_WIDTH_BYTES;
   uint32_t gob = (y % block_rows) / PPU_GOB_HEIGHT_ROWS;
   return base + block * ((uint64_t)PPU_GOB_BYTES << bh) + (uint64_t)gob * PPU_GOB_BYTES +
          (y % PPU_GOB_HEIGHT_ROWS) * PPU_GOB_WIDTH_BYTES + x_bytes % PPU_GOB_WIDTH_BYTES;
}

#endif /* PPU_TEXTURE_H */
