/* CROP: blending, logic ops, write masks and resolve, per sample. */
#include "rop/rop_crop.h"

#include <math.h>
#include <string.h>

/* Comparisons rather than fminf/fmaxf: inlined, no libm call per value. */
static inline float clamp_float(float v, float lo, float hi)
{
   v = v < lo ? lo : v;
   return v > hi ? hi : v;
}

/* Vulkan "Blend Factors" table; c < 3 is a color component, 3 alpha. */
static float blend_factor(unsigned f, unsigned c, const float s[4], const float s1[4],
                          const float d[4], const float k[4])
{
   switch (f) {
   case PPU_GFX_BLEND_ZERO:
      return 0.0f;
   case PPU_GFX_BLEND_ONE:
      return 1.0f;
   case PPU_GFX_BLEND_SRC_COLOR:
      return s[c];
   case PPU_GFX_BLEND_ONE_MINUS_SRC_COLOR:
      return 1.0f - s[c];
   case PPU_GFX_BLEND_DST_COLOR:
      return d[c];
   case PPU_GFX_BLEND_ONE_MINUS_DST_COLOR:
      return 1.0f - d[c];
   case PPU_GFX_BLEND_SRC_ALPHA:
      return s[3];
   case PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA:
      return 1.0f - s[3];
   case PPU_GFX_BLEND_DST_ALPHA:
      return d[3];
   case PPU_GFX_BLEND_ONE_MINUS_DST_ALPHA:
      return 1.0f - d[3];
   case PPU_GFX_BLEND_CONSTANT_COLOR:
      return k[c];
   case PPU_GFX_BLEND_ONE_MINUS_CONSTANT_COLOR:
      return 1.0f - k[c];
   case PPU_GFX_BLEND_CONSTANT_ALPHA:
      return k[3];
   case PPU_GFX_BLEND_ONE_MINUS_CONSTANT_ALPHA:
      return 1.0f - k[3];
   case PPU_GFX_BLEND_SRC_ALPHA_SATURATE:
      return c < 3 ? fminf(s[3], 1.0f - d[3]) : 1.0f;
   case PPU_GFX_BLEND_SRC1_COLOR:
      return s1[c];
   case PPU_GFX_BLEND_ONE_MINUS_SRC1_COLOR:
      return 1.0f - s1[c];
   case PPU_GFX_BLEND_SRC1_ALPHA:
      return s1[3];
   case PPU_GFX_BLEND_ONE_MINUS_SRC1_ALPHA:
      return 1.0f - s1[3];
   default:
      return 0.0f;
   }
}

void rop_blend(const struct rop_blend_target *t, const float k[4], const float s[4],
               const float s1[4], const float d[4], float result[4])
{
   for (unsigned c = 0; c < 4; c++) {
      unsigned op = c < 3 ? t->color_op : t->alpha_op;
      /* The factors come from clamped sources, destination and constants
       * and are not clamped again: on an SNORM target 1 - s reaches 2
       * (what the conformance suite's reference blender computes too). */
      float sf = blend_factor(c < 3 ? t->src_color : t->src_alpha, c, s, s1, d, k);
      float df = blend_factor(c < 3 ? t->dst_color : t->dst_alpha, c, s, s1, d, k);
      /* "Blend Operations": MIN and MAX ignore the factors. */
      switch (op) {
      case PPU_GFX_BLEND_OP_SUBTRACT:
         result[c] = s[c] * sf - d[c] * df;
         break;
      case PPU_GFX_BLEND_OP_REVERSE_SUBTRACT:
         result[c] = d[c] * df - s[c] * sf;
         break;
      case PPU_GFX_BLEND_OP_MIN:
         result[c] = fminf(s[c], d[c]);
         break;
      case PPU_GFX_BLEND_OP_MAX:
         result[c] = fmaxf(s[c], d[c]);
         break;
      default:
         result[c] = s[c] * sf + d[c] * df;
         break;
      }
   }
}

void rop_logic_op(unsigned op, const uint8_t *src, uint8_t *dst, uint32_t n)
{
   /* Vulkan "Logical Operations" table, s = source, d = destination. */
   for (uint32_t i = 0; i < n; i++) {
      uint8_t s = src[i], d = dst[i], r;
      switch (op) {
      case PPU_GFX_LOGIC_CLEAR:
         r = 0;
         break;
      case PPU_GFX_LOGIC_AND:
         r = s & d;
         break;
      case PPU_GFX_LOGIC_AND_REVERSE:
         r = s & (uint8_t)~d;
         break;
      case PPU_GFX_LOGIC_COPY:
         r = s;
         break;
      case PPU_GFX_LOGIC_AND_INVERTED:
         r = (uint8_t)~s & d;
         break;
      case PPU_GFX_LOGIC_NO_OP:
         r = d;
         break;
      case PPU_GFX_LOGIC_XOR:
         r = s ^ d;
         break;
      case PPU_GFX_LOGIC_OR:
         r = s | d;
         break;
      case PPU_GFX_LOGIC_NOR:
         r = (uint8_t) ~(s | d);
         break;
      case PPU_GFX_LOGIC_EQUIVALENT:
         r = (uint8_t) ~(s ^ d);
         break;
      case PPU_GFX_LOGIC_INVERT:
         r = (uint8_t)~d;
         break;
      case PPU_GFX_LOGIC_OR_REVERSE:
         r = s | (uint8_t)~d;
         break;
      case PPU_GFX_LOGIC_COPY_INVERTED:
         r = (uint8_t)~s;
         break;
      case PPU_GFX_LOGIC_OR_INVERTED:
         r = (uint8_t)~s | d;
         break;
      case PPU_GFX_LOGIC_NAND:
         r = (uint8_t) ~(s & d);
         break;
      default: /* SET */
         r = 0xff;
         break;
      }
      dst[i] = r;
   }
}

static void clamp4(float v[4], float lo, float hi)
{
   for (unsigned c = 0; c < 4; c++)
      v[c] = clamp_float(v[c], lo, hi);
}

void rop_crop_quad(const struct rop_blend_state *b, unsigned index, struct rop_surface *rt,
                   int32_t x, int32_t y, uint16_t coverage, const struct ppu_texel src[4],
                   const struct ppu_texel *src1)
{
   const struct rop_blend_target *t = &b->target[index];
   bool integer = rt->kind == ROP_KIND_UINT || rt->kind == ROP_KIND_SINT;
   bool logic = b->logic_op_enable && !rt->srgb && rt->kind != ROP_KIND_FLOAT;
   bool blend = t->enable && !integer && !b->logic_op_enable;
   float lo = -INFINITY, hi = INFINITY;
   if (rt->kind == ROP_KIND_UNORM)
      lo = 0.0f, hi = 1.0f;
   else if (rt->kind == ROP_KIND_SNORM)
      lo = -1.0f, hi = 1.0f;
   uint8_t mask[ROP_MAX_TEXEL_BYTES] = {0};
   for (unsigned c = 0; c < 4; c++) {
      if (t->write_mask & (1u << c)) {
         for (unsigned i = 0; i < ROP_MAX_TEXEL_BYTES; i++)
            mask[i] |= rt->component_bits[c][i];
      }
   }
   float k[4];
   memcpy(k, b->constant, sizeof(k));
   clamp4(k, lo, hi);
   unsigned samples = rt->samples_log2 ? 4u : 1u;
   for (unsigned p = 0; p < 4; p++) {
      int32_t px = x + (int32_t)(p & 1u), py = y + (int32_t)(p >> 1);
      if (!((coverage >> (p * 4)) & 0xfu) || px < 0 || py < 0 || (uint32_t)px >= rt->width ||
          (uint32_t)py >= rt->height)
         continue;
      float s[4], s1[4] = {0, 0, 0, 0};
      memcpy(s, src[p].f, sizeof(s));
      if (src1)
         memcpy(s1, src1[p].f, sizeof(s1));
      if (blend) {
         clamp4(s, lo, hi);
         clamp4(s1, lo, hi);
      }
      for (unsigned smp = 0; smp < samples; smp++) {
         if (!(coverage & (1u << (p * 4 + smp))))
            continue;
         uint8_t *texel = rop_surface_sample(rt, (uint32_t)px, (uint32_t)py, smp);
         uint8_t bits[ROP_MAX_TEXEL_BYTES] = {0};
         if (blend) {
            struct ppu_texel d, r;
            ppu_texel_decode(rt->format, texel, false, &d);
            clamp4(d.f, lo, hi);
            rop_blend(t, k, s, s1, d.f, r.f);
            ppu_texel_encode(rt->format, &r, false, bits);
         } else {
            ppu_texel_encode(rt->format, &src[p], false, bits);
         }
         if (logic) {
            uint8_t d[ROP_MAX_TEXEL_BYTES];
            memcpy(d, texel, rt->bytes);
            rop_logic_op(b->logic_op, bits, d, rt->bytes);
            memcpy(bits, d, rt->bytes);
         }
         rop_merge_bits(texel, bits, mask, rt->bytes);
      }
   }
}

static void resolve_pixel(const struct rop_surface *src, struct rop_surface *dst, uint32_t x,
                          uint32_t y, enum rop_resolve_mode mode, bool stencil)
{
   uint8_t *out = rop_surface_sample(dst, x, y, 0);
   if (mode == ROP_RESOLVE_SAMPLE_ZERO && !src->has_depth && !src->has_stencil) {
      /* The bits themselves: a decode/encode round trip could change them
       * (the two SNORM encodings of -1). */
      memcpy(out, rop_surface_sample(src, x, y, 0), src->bytes);
      return;
   }
   struct ppu_texel v[4];
   for (unsigned s = 0; s < 4; s++)
      ppu_texel_decode(src->format, rop_surface_sample(src, x, y, s), stencil, &v[s]);
   struct ppu_texel r = v[0];
   enum ppu_texel_class cls = stencil ? PPU_TEXEL_CLASS_UINT : ppu_texel_format_class(src->format);
   for (unsigned c = 0; c < 4; c++) {
      for (unsigned s = 1; s < 4; s++) {
         if (mode == ROP_RESOLVE_AVERAGE) {
            r.f[c] += v[s].f[c];
         } else if (mode != ROP_RESOLVE_SAMPLE_ZERO) {
            bool take;
            if (cls == PPU_TEXEL_CLASS_FLOAT)
               take = mode == ROP_RESOLVE_MIN ? v[s].f[c] < r.f[c] : v[s].f[c] > r.f[c];
            else if (cls == PPU_TEXEL_CLASS_UINT)
               take = mode == ROP_RESOLVE_MIN ? v[s].u[c] < r.u[c] : v[s].u[c] > r.u[c];
            else
               take = mode == ROP_RESOLVE_MIN ? v[s].i[c] < r.i[c] : v[s].i[c] > r.i[c];
            if (take)
               r.u[c] = v[s].u[c];
         }
      }
      if (mode == ROP_RESOLVE_AVERAGE)
         r.f[c] *= 0.25f;
   }
   ppu_texel_encode(dst->format, &r, stencil, out);
}

bool rop_resolve(const struct rop_surface *src, struct rop_surface *dst, int32_t x0, int32_t y0,
                 int32_t x1, int32_t y1, enum rop_resolve_mode mode, bool stencil)
{
   if (src->format != dst->format || src->samples_log2 != 2 || dst->samples_log2 != 0)
      return false;
   if (stencil && !src->has_stencil)
      return false;
   if (mode == ROP_RESOLVE_AVERAGE &&
       (stencil || ppu_texel_format_class(src->format) != PPU_TEXEL_CLASS_FLOAT))
      return false;
   if (x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 || (uint32_t)x1 > src->width ||
       (uint32_t)y1 > src->height || (uint32_t)x1 > dst->width || (uint32_t)y1 > dst->height)
      return false;
   for (int32_t y = y0; y < y1; y++) {
      for (int32_t x = x0; x < x1; x++)
         resolve_pixel(src, dst, (uint32_t)x, (uint32_t)y, mode, stencil);
   }
   return true;
}
