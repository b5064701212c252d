/* Test-only helpers for the texture tests: images filled with a known
 * texel function and uploaded with their headers, samplers, and one program
 * shape that runs a single texture instruction per thread:
 *
 *   c[0][0x00] out VA     c[0][0x08] texture header VA
 *   c[0][0x10] sampler header VA     c[0][0x18] input VA
 *
 * Thread t loads 12 words of input (in[t * 16 ..]) into R8..R19, runs the
 * instruction with ra = R0 (texture), rb = R2 (sampler), rc = R8, rd = R4,
 * and stores R4..R7 at out[t * 4 ..]. Everything is static inline: each
 * test file uses a different subset.
 */
#ifndef TEX_TEST_UTIL_H
#define TEX_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/sm_operands.h" /* f32_of, u32_of */
#include "compute_test_util.h"
#include "ppu/texture.h"
#include "test_harness.h"
#include "texture/texel_codec.h"

#define TT_MAX_THREADS 256u

static inline uint64_t tt_upload(struct hwc *h, const void *data, uint64_t bytes)
{
   uint64_t va = hwt_alloc_mapped(&h->t, (bytes + 4095) & ~4095ull, true);
   if (data)
      hwt_write(&h->t.mem, h->t.pd, va, data, bytes);
   return va;
}

/* The value of component c of a texel: 0..255 / 255, exact in UNORM8. */
static inline float tt_value(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned z,
                             unsigned c)
{
   uint32_t v = x * 73856093u ^ y * 19349663u ^ z * 83492791u ^ layer * 2654435761u ^ level * 97u ^
                c * 0x9e3779b9u;
   v ^= v >> 13;
   v *= 0x5bd1e995u;
   v ^= v >> 15;
   return (float)(v % 256u) / 255.0f;
}

/* A header for a block-linear image (layer_stride from the layout
 * functions); the caller adjusts the view fields afterwards. */
static inline void tt_header(struct ppu_texture_header *hd, unsigned format, unsigned dim,
                             uint32_t w, uint32_t ht, uint32_t d, unsigned levels, uint32_t layers)
{
   memset(hd, 0, sizeof(*hd));
   hd->format = (uint16_t)format;
   hd->dim = (uint8_t)dim;
   hd->layout = PPU_TEX_LAYOUT_BLOCK_LINEAR;
   hd->swizzle = PPU_TEX_SWIZZLE_IDENTITY;
   hd->block_height_log2 = 2;
   hd->width = w;
   hd->height = ht;
   hd->depth = d;
   hd->image_levels = hd->level_count = (uint8_t)levels;
   hd->layer_count = layers;
   if (layers > 1 && dim != PPU_TEX_DIM_CUBE)
      hd->flags = PPU_TEX_FLAG_ARRAY;
   if (dim == PPU_TEX_DIM_CUBE && layers > 6)
      hd->flags = PPU_TEX_FLAG_ARRAY;
   hd->layer_stride = ppu_tex_layer_size(hd);
}

/* Allocates the image, fills every texel with tt_value (integer formats:
 * the value * 255) and uploads image and header; returns the header VA. */
static inline uint64_t tt_image(struct hwc *h, struct ppu_texture_header *hd)
{
   uint32_t layers = hd->base_layer + hd->layer_count;
   uint64_t bytes = hd->layer_stride * layers;
   uint8_t *img = calloc(1, bytes);
   uint32_t tb = ppu_tex_format_bytes(hd->format);
   enum ppu_texel_class cls = ppu_texel_format_class((enum ppu_tex_format)hd->format);
   for (unsigned lv = 0; lv < hd->image_levels; lv++)
      for (uint32_t a = 0; a < layers; a++)
         for (uint32_t z = 0;
              z < (hd->dim == PPU_TEX_DIM_3D ? ppu_tex_level_extent(hd->depth, lv) : 1u); z++)
            for (uint32_t y = 0; y < ppu_tex_level_extent(hd->height, lv); y++)
               for (uint32_t x = 0; x < ppu_tex_level_extent(hd->width, lv); x++) {
                  struct ppu_texel t;
                  for (unsigned c = 0; c < 4; c++) {
                     float v = tt_value(lv, a, x, y, z, c);
                     if (cls == PPU_TEXEL_CLASS_FLOAT)
                        t.f[c] = v;
                     else
                        t.u[c] = (uint32_t)lroundf(v * 255.0f);
                  }
                  ppu_texel_encode((enum ppu_tex_format)hd->format, &t, false,
                                   img + ppu_tex_byte_offset(hd, lv, a, x * tb, y, z));
               }
   hd->address = tt_upload(h, img, bytes);
   free(img);
   return tt_upload(h, hd, sizeof(*hd));
}

static inline void tt_sampler(struct ppu_sampler_header *s, unsigned filter, unsigned mip,
                              unsigned address)
{
   memset(s, 0, sizeof(*s));
   s->mag_filter = s->min_filter = (uint8_t)filter;
   s->mip_filter = (uint8_t)mip;
   s->address_u = s->address_v = s->address_w = (uint8_t)address;
   s->max_lod = 1000.0f;
   s->max_anisotropy = 1.0f;
}

/* Runs `insn` over `threads` threads (workgroups of up to 32) with the
 * inputs in[t][0..11]; out[t][0..3] gets R4..R7. False (and a test failure
 * unless expect_fault) when the grid faults; fault filled in if given. */
static inline bool tt_run(struct hwc *h, const char *insn, uint64_t tex_va, uint64_t smp_va,
                          const uint32_t (*in)[16], uint32_t threads, uint32_t (*out)[4],
                          bool expect_fault, struct ppu_fault *fault, uint64_t *insn_va)
{
   char src[2048];
   snprintf(src, sizeof(src),
            "S2R R62, SR_TID_FLAT\n"
            "S2R R63, SR_CTAID_X\n"
            "S2R R61, SR_NTID_X\n"
            "IMAD.U32 R62, R63, R61, R62\n"
            "LDC.U64 R0, c[0][RZ+0x8]\n"
            "LDC.U64 R2, c[0][RZ+0x10]\n"
            "LDC.U64 R40, c[0][RZ+0x18]\n"
            "IMADW.U32 R40, R62, 64, R40\n"
            "LD.GLOBAL.B128 R8, [R40]\n"
            "LD.GLOBAL.B128 R12, [R40+0x10]\n"
            "LD.GLOBAL.B128 R16, [R40+0x20]\n"
            "%s\n"
            "LDC.U64 R40, c[0][RZ]\n"
            "IMADW.U32 R40, R62, 16, R40\n"
            "ST.GLOBAL.B128 [R40], R4\n"
            "EXIT\n",
            insn);
   uint64_t in_va = tt_upload(h, in, (uint64_t)threads * 64);
   hwt_write(&h->t.mem, h->t.pd, h->cb_va + 8, &tex_va, 8);
   hwt_write(&h->t.mem, h->t.pd, h->cb_va + 16, &smp_va, 8);
   hwt_write(&h->t.mem, h->t.pd, h->cb_va + 24, &in_va, 8);
   uint64_t prog = hwc_program(h, src);
   if (!prog)
      return false;
   if (insn_va)
      *insn_va = prog + 11 * PPU_INSN_BYTES;
   struct ppu_qmd q;
   hwc_qmd_defaults(h, &q, prog);
   uint32_t wg = threads < 32 ? threads : 32;
   q.workgroup_size[0] = wg;
   q.grid_size[0] = (threads + wg - 1) / wg;
   struct ppu_fault f;
   memset(&f, 0, sizeof(f));
   bool ok = hwc_launch(h, &q, 0, &f);
   if (fault)
      *fault = f;
   if (!ok) {
      if (!expect_fault)
         CHECK_MSG(false, "%s: grid faulted: %s %s", insn, ppu_fault_kind_name(f.kind), f.detail);
      return false;
   }
   hwt_read(&h->t.mem, h->t.pd, h->out_va, out, (uint64_t)threads * 16);
   return true;
}

#endif
