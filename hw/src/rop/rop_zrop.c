/* ZROP: depth bounds, stencil and depth tests per sample, writes, counts. */
#include "rop/rop_zrop.h"

#include <math.h>

#include "ppu/graphics.h"
#include "texture/tex_filter.h"

uint8_t rop_stencil_apply(unsigned op, uint8_t value, uint8_t reference)
{
   switch (op) {
   case PPU_GFX_STENCIL_ZERO:
      return 0;
   case PPU_GFX_STENCIL_REPLACE:
      return reference;
   case PPU_GFX_STENCIL_INCREMENT_CLAMP:
      return value == 255 ? 255 : (uint8_t)(value + 1);
   case PPU_GFX_STENCIL_DECREMENT_CLAMP:
      return value == 0 ? 0 : (uint8_t)(value - 1);
   case PPU_GFX_STENCIL_INVERT:
      return (uint8_t)~value;
   case PPU_GFX_STENCIL_INCREMENT_WRAP:
      return (uint8_t)(value + 1);
   case PPU_GFX_STENCIL_DECREMENT_WRAP:
      return (uint8_t)(value - 1);
   default: /* KEEP */
      return value;
   }
}

/* The fragment's depth as the target would store it, decoded. */
static float quantize_depth(const struct rop_surface *ds, float z, const uint8_t *texel)
{
   uint8_t tmp[ROP_MAX_TEXEL_BYTES];
   for (uint32_t i = 0; i < ds->bytes; i++)
      tmp[i] = texel[i];
   struct ppu_texel t = {{{z, 0.0f, 0.0f, 0.0f}}}, back;
   ppu_texel_encode(ds->format, &t, false, tmp);
   ppu_texel_decode(ds->format, tmp, false, &back);
   return back.f[0];
}

uint16_t rop_zrop_quad(const struct rop_zs_state *z, struct rop_surface *ds, int32_t x, int32_t y,
                       uint16_t coverage, const float depth[16], bool front_facing,
                       uint64_t *passed)
{
   const struct rop_stencil_face *face = front_facing ? &z->front : &z->back;
   bool depth_test = z->depth_test && ds->has_depth;
   bool stencil_test = z->stencil_test && ds->has_stencil;
   uint16_t out = 0;
   unsigned samples = ds->samples_log2 ? 4u : 1u;
   for (unsigned p = 0; p < 4; p++) {
      int32_t px = x + (int32_t)(p & 1u), py = y + (int32_t)(p >> 1);
      if (px < 0 || py < 0 || (uint32_t)px >= ds->width || (uint32_t)py >= ds->height)
         continue;
      for (unsigned s = 0; s < samples; s++) {
         unsigned bit = p * 4 + s;
         if (!(coverage & (1u << bit)))
            continue;
         uint8_t *texel = rop_surface_sample(ds, (uint32_t)px, (uint32_t)py, s);
         struct ppu_texel stored = {{{0}}};
         if (ds->has_depth)
            ppu_texel_decode(ds->format, texel, false, &stored);
         /* Depth bounds test ("Depth Bounds Test"): the stored depth. */
         if (z->depth_bounds && ds->has_depth &&
             !(stored.f[0] >= z->bounds_min && stored.f[0] <= z->bounds_max))
            continue;
         uint8_t sv = 0, new_sv = 0;
         bool stencil_pass = true;
         if (stencil_test) {
            struct ppu_texel st;
            ppu_texel_decode(ds->format, texel, true, &st);
            sv = (uint8_t)st.u[0];
            /* "(reference & compareMask) op (stored & compareMask)". */
            stencil_pass =
                ppu_tex_compare(face->compare_op, (float)(face->reference & face->compare_mask),
                                (float)(sv & face->compare_mask));
         }
         bool depth_pass = true;
         float zq = 0.0f;
         if (stencil_pass && depth_test) {
            zq = quantize_depth(ds, depth[bit], texel);
            depth_pass = ppu_tex_compare(z->depth_op, zq, stored.f[0]);
         }
         if (stencil_test) {
            unsigned op =
                !stencil_pass ? face->fail_op : (depth_pass ? face->pass_op : face->depth_fail_op);
            new_sv = rop_stencil_apply(op, sv, face->reference);
            new_sv = (uint8_t)((sv & ~face->write_mask) | (new_sv & face->write_mask));
            if (new_sv != sv) {
               struct ppu_texel st = {{{0}}};
               st.u[0] = new_sv;
               ppu_texel_encode(ds->format, &st, true, texel);
            }
         }
         if (!stencil_pass || !depth_pass)
            continue;
         if (depth_test && z->depth_write) {
            struct ppu_texel d = {{{depth[bit], 0.0f, 0.0f, 0.0f}}};
            ppu_texel_encode(ds->format, &d, false, texel);
         }
         out |= (uint16_t)(1u << bit);
         ++*passed;
      }
   }
   return out;
}

bool rop_zrop_tile_range(const struct rop_surface *ds, int32_t tx, int32_t ty, float *zmin,
                         float *zmax)
{
   if (!ds->has_depth || tx < 0 || ty < 0)
      return false;
   uint32_t x0 = (uint32_t)tx * PPU_GFX_TILE_SIZE, y0 = (uint32_t)ty * PPU_GFX_TILE_SIZE;
   if (x0 >= ds->width || y0 >= ds->height)
      return false;
   uint32_t x1 = x0 + PPU_GFX_TILE_SIZE < ds->width ? x0 + PPU_GFX_TILE_SIZE : ds->width;
   uint32_t y1 = y0 + PPU_GFX_TILE_SIZE < ds->height ? y0 + PPU_GFX_TILE_SIZE : ds->height;
   unsigned samples = ds->samples_log2 ? 4u : 1u;
   float lo = INFINITY, hi = -INFINITY;
   for (uint32_t y = y0; y < y1; y++) {
      for (uint32_t x = x0; x < x1; x++) {
         for (unsigned s = 0; s < samples; s++) {
            struct ppu_texel t;
            ppu_texel_decode(ds->format, rop_surface_sample(ds, x, y, s), false, &t);
            lo = fminf(lo, t.f[0]);
            hi = fmaxf(hi, t.f[0]);
         }
      }
   }
   *zmin = lo;
   *zmax = hi;
   return true;
}

/* A culled sample never reaches ZROP, so neither the stencil fail op nor
 * the depth-fail op would run for it. */
static bool stencil_face_writes_on_failure(const struct rop_stencil_face *f)
{
   return f->write_mask != 0 &&
          (f->fail_op != PPU_GFX_STENCIL_KEEP || f->depth_fail_op != PPU_GFX_STENCIL_KEEP);
}

bool rop_zrop_hiz_cull_allowed(const struct rop_zs_state *z, uint32_t program_flags)
{
   if (!z->depth_test)
      return false;
   if (program_flags & (PPU_GFX_PROGRAM_WRITES_DEPTH | PPU_GFX_PROGRAM_SIDE_EFFECTS))
      return false;
   if (z->stencil_test &&
       (stencil_face_writes_on_failure(&z->front) || stencil_face_writes_on_failure(&z->back)))
      return false;
   return true;
}
