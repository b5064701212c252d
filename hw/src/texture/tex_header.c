/* See tex_header.h. */
#include "texture/tex_header.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fault.h"

static bool has_stencil(unsigned format)
{
   return format == PPU_TEX_FORMAT_S8_UINT || format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT ||
          format == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT;
}

/* Levels a full chain of the largest extent has (log2 + 1). */
static unsigned full_chain(uint32_t extent)
{
   unsigned n = 1;
   while (extent >>= 1)
      n++;
   return n;
}

/* A texel buffer view (Vulkan VkBufferView): elements at address + i *
 * texel bytes, one linear row. Its shape fields must say exactly that, so
 * the image paths that read them (layout functions, int_texel) place
 * element i there; row_pitch and layer_stride are never used. */
static const char *buffer_check(const struct ppu_texture_header *h)
{
   if (h->layout != PPU_TEX_LAYOUT_LINEAR)
      return "texel buffer not linear";
   if (ppu_tex_format_is_compressed(h->format))
      return "texel buffer of a block-compressed format";
   if (h->width < 1 || h->width > PPU_TEX_MAX_BUFFER_ELEMENTS)
      return "texel buffer width 0 or beyond 2^27 elements";
   if (h->height != 1 || h->depth != 1)
      return "texel buffer with height or depth > 1";
   if (h->image_levels != 1 || h->base_level != 0 || h->level_count != 1)
      return "texel buffer with levels";
   if (h->base_layer != 0 || h->layer_count != 1 || (h->flags & PPU_TEX_FLAG_ARRAY))
      return "texel buffer with layers";
   if (h->address % ppu_tex_format_bytes(h->format))
      return "texel buffer address not aligned to the texel size";
   return NULL;
}

const char *ppu_tex_header_check(const struct ppu_texture_header *h)
{
   if (h->format == PPU_TEX_FORMAT_INVALID || h->format >= PPU_TEX_FORMAT_COUNT)
      return "format out of range";
   if (h->dim > PPU_TEX_DIM_BUFFER)
      return "dim out of range";
   if (h->layout > PPU_TEX_LAYOUT_BLOCK_LINEAR)
      return "layout out of range";
   for (unsigned c = 0; c < 4; c++)
      if (((h->swizzle >> (4 * c)) & 0xf) > PPU_TEX_SWIZZLE_ONE)
         return "swizzle selector out of range";
   if (h->flags & ~(PPU_TEX_FLAG_STENCIL | PPU_TEX_FLAG_ARRAY))
      return "unknown flags";
   if ((h->flags & PPU_TEX_FLAG_STENCIL) && !has_stencil(h->format))
      return "stencil aspect of a format without stencil";
   if (h->block_height_log2 > PPU_TEX_MAX_BLOCK_HEIGHT_LOG2)
      return "block height beyond 32 GOBs";
   if (h->samples_log2 != 0 && h->samples_log2 != 2)
      return "samples_log2 neither 0 (1x) nor 2 (4x)";
   if (!(h->min_lod_clamp >= 0.0f) || !isfinite(h->min_lod_clamp))
      return "min_lod_clamp negative or not finite";
   if (h->dim == PPU_TEX_DIM_BUFFER)
      return buffer_check(h);
   /* Extents bound every loop and keep offsets far from 64-bit overflow. */
   if (h->width < 1 || h->width > PPU_TEX_MAX_EXTENT || h->height < 1 ||
       h->height > PPU_TEX_MAX_EXTENT || h->depth < 1 || h->depth > PPU_TEX_MAX_EXTENT)
      return "extent 0 or beyond 16384";
   if (h->dim == PPU_TEX_DIM_1D && h->height != 1)
      return "1D image with height > 1";
   if (h->dim != PPU_TEX_DIM_3D && h->depth != 1)
      return "depth > 1 on an image that is not 3D";
   if (h->dim == PPU_TEX_DIM_CUBE && h->width != h->height)
      return "cube faces not square";
   if (h->dim == PPU_TEX_DIM_3D && (h->flags & PPU_TEX_FLAG_ARRAY))
      return "3D array view";
   uint32_t largest = h->width > h->height ? h->width : h->height;
   largest = largest > h->depth ? largest : h->depth;
   if (h->image_levels < 1 || h->image_levels > full_chain(largest))
      return "image_levels 0 or beyond the full mip chain";
   if (h->level_count < 1 || h->base_level + h->level_count > h->image_levels)
      return "view levels outside the image";
   if (h->layer_count < 1 || (uint64_t)h->base_layer + h->layer_count > 65536)
      return "layer_count 0 or layers beyond 65536";
   if (h->dim == PPU_TEX_DIM_3D && (h->base_layer != 0 || h->layer_count != 1))
      return "3D view with layers";
   if (h->dim == PPU_TEX_DIM_CUBE && h->layer_count % 6)
      return "cube view layer count not a multiple of 6";
   /* A 4x view's texels are 2x2 per pixel of its only level. */
   if (h->samples_log2 && (h->dim != PPU_TEX_DIM_2D || h->image_levels != 1 || h->width % 2 ||
                           h->height % 2 || ppu_tex_format_is_compressed(h->format)))
      return "4x view not 2D, with levels, an odd texel extent or a compressed format";
   /* Aligned texels never straddle a page, and image atomics are aligned. */
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   if (h->address % bytes || h->layer_stride % bytes)
      return "address or layer_stride not aligned to the texel size";
   if (h->layout == PPU_TEX_LAYOUT_BLOCK_LINEAR) {
      if (h->address % PPU_GOB_BYTES)
         return "block-linear image not 512-byte aligned";
   } else {
      if (h->row_pitch % bytes || h->row_pitch < ppu_tex_level_row_bytes(h, 0))
         return "row_pitch misaligned or shorter than a row";
   }
   return NULL;
}

const char *ppu_tex_sampler_check(const struct ppu_sampler_header *s)
{
   if (s->mag_filter > PPU_TEX_FILTER_LINEAR || s->min_filter > PPU_TEX_FILTER_LINEAR ||
       s->mip_filter > PPU_TEX_FILTER_LINEAR)
      return "filter out of range";
   if (s->address_u > PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE ||
       s->address_v > PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE ||
       s->address_w > PPU_TEX_ADDRESS_MIRROR_CLAMP_TO_EDGE)
      return "address mode out of range";
   if (s->compare_op > 7)
      return "compare_op out of range";
   if (s->flags & ~(0xfu | PPU_SAMPLER_REDUCTION_MASK))
      return "unknown flags";
   if ((s->flags & PPU_SAMPLER_REDUCTION_MASK) >> PPU_SAMPLER_REDUCTION_SHIFT >
       PPU_SAMPLER_REDUCTION_MAX)
      return "reduction out of range";
   if (isnan(s->lod_bias) || isnan(s->min_lod) || isnan(s->max_lod) || s->min_lod > s->max_lod)
      return "lod bias or clamps NaN, or min_lod > max_lod";
   return NULL;
}

const char *ppu_tex_header_matches_dim(const struct ppu_texture_header *h, unsigned texdim)
{
   static const uint8_t dim_of[PPU_TEXDIM_COUNT] = {
       PPU_TEX_DIM_1D, PPU_TEX_DIM_2D, PPU_TEX_DIM_3D,   PPU_TEX_DIM_CUBE,
       PPU_TEX_DIM_1D, PPU_TEX_DIM_2D, PPU_TEX_DIM_CUBE, PPU_TEX_DIM_BUFFER};
   bool array = texdim == PPU_TEXDIM_1DA || texdim == PPU_TEXDIM_2DA || texdim == PPU_TEXDIM_CUBEA;
   if (texdim >= PPU_TEXDIM_COUNT || h->dim != dim_of[texdim] ||
       array != ((h->flags & PPU_TEX_FLAG_ARRAY) != 0))
      return "view type differs from the instruction's";
   if (!array && h->dim != PPU_TEX_DIM_CUBE && h->layer_count != 1)
      return "non-array view with several layers";
   if (!array && h->dim == PPU_TEX_DIM_CUBE && h->layer_count != 6)
      return "cube view without exactly 6 layers";
   return NULL;
}

static bool fetch(struct ppu_mmu_client *mmu, uint64_t pd_pa, uint64_t va, void *out,
                  const char *what, struct ppu_fault *fault)
{
   if (va % PPU_TEX_HEADER_ALIGN) {
      ppu_fault_set(fault, PPU_FAULT_MISALIGNED_ADDRESS, PPU_ENGINE_COMPUTE,
                    "%s header at 0x%llx not 64-byte aligned", what, (unsigned long long)va);
      fault->address = va;
      return false;
   }
   if (!ppu_mmu_read(mmu, pd_pa, va, out, PPU_TEX_HEADER_BYTES, fault)) {
      fault->address = va;
      return false;
   }
   return true;
}

static bool refuse(struct ppu_fault *fault, uint64_t va, const char *what, const char *why)
{
   ppu_fault_set(fault, PPU_FAULT_BAD_TEXTURE_HEADER, PPU_ENGINE_COMPUTE, "%s header at 0x%llx: %s",
                 what, (unsigned long long)va, why);
   fault->address = va;
   return false;
}

bool ppu_tex_header_fetch(struct ppu_mmu_client *mmu, uint64_t pd_pa, uint64_t va,
                          struct ppu_texture_header *out, struct ppu_fault *fault)
{
   if (!fetch(mmu, pd_pa, va, out, "texture", fault))
      return false;
   const char *why = ppu_tex_header_check(out);
   return why ? refuse(fault, va, "texture", why) : true;
}

bool ppu_tex_sampler_fetch(struct ppu_mmu_client *mmu, uint64_t pd_pa, uint64_t va,
                           struct ppu_sampler_header *out, struct ppu_fault *fault)
{
   if (!fetch(mmu, pd_pa, va, out, "sampler", fault))
      return false;
   const char *why = ppu_tex_sampler_check(out);
   return why ? refuse(fault, va, "sampler", why) : true;
}
