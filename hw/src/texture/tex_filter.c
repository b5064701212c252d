/* See tex_filter.h. */
#include "texture/tex_filter.h"

#include <math.h>
#include <string.h>

#include "texture/texel_codec.h"

bool ppu_tex_compare(unsigned op, float ref, float test)
{
   switch (op) {
   case 1:
      return ref < test;
   case 2:
      return ref == test;
   case 3:
      return ref <= test;
   case 4:
      return ref > test;
   case 5:
      return ref != test;
   case 6:
      return ref >= test;
   case 7:
      return true;
   default:
      return false;
   }
}

static float f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static uint32_t u32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* The border color in the format's numeric class: integer borders for
 * integer formats, float borders otherwise; a border of the other kind is
 * converted (the driver normally picks the matching one). Components the
 * format does not have read as any of its texels would, 0 or alpha 1
 * (Vulkan "Texel Replacement": the border replaces the texel, then the
 * missing components are filled in, then the view's swizzle applies). */
static void border_texel(const struct ppu_sampler_header *smp, enum ppu_texel_class cls,
                         unsigned components, struct ppu_texel *v)
{
   bool int_border = (smp->flags & PPU_SAMPLER_FLAG_BORDER_INT) != 0;
   for (unsigned c = 0; c < 4; c++) {
      if (!(components & (1u << c))) {
         if (cls == PPU_TEXEL_CLASS_FLOAT)
            v->f[c] = c == 3 ? 1.0f : 0.0f;
         else
            v->u[c] = c == 3 ? 1u : 0u;
         continue;
      }
      uint32_t b = smp->border_color[c];
      if (cls == PPU_TEXEL_CLASS_FLOAT) {
         v->f[c] = int_border ? (float)(int32_t)b : f32(b);
      } else if (int_border) {
         v->u[c] = b;
      } else {
         float f = f32(b);
         f = isnan(f) ? 0.0f : fminf(fmaxf(f, -2147483648.0f), 2147483520.0f);
         v->i[c] = (int32_t)f;
      }
   }
}

static bool read_texel(struct ppu_tex_cache *cache, uint64_t pd_pa,
                       const struct ppu_tex_lane_footprint *lf, const struct ppu_tex_texel_ref *t,
                       struct ppu_texel *v, struct ppu_fault *fault)
{
   const struct ppu_texture_header *h = lf->tex;
   uint8_t raw[16];
   uint32_t bytes = ppu_tex_format_bytes(h->format);
   if (!ppu_tex_cache_read(cache, pd_pa, t->va, raw, bytes, fault))
      return false;
   if (ppu_tex_format_is_compressed(h->format)) {
      struct ppu_texel block[16];
      ppu_texel_decode_block((enum ppu_tex_format)h->format, raw, block);
      *v = block[t->sub % 16];
   } else {
      ppu_texel_decode((enum ppu_tex_format)h->format, raw, (h->flags & PPU_TEX_FLAG_STENCIL) != 0,
                       v);
   }
   return true;
}

/* Depth formats stored as UNORM clamp the reference to [0, 1] first. */
static float compare_reference(unsigned format, float dref)
{
   if (format == PPU_TEX_FORMAT_D16_UNORM || format == PPU_TEX_FORMAT_X8_D24_UNORM ||
       format == PPU_TEX_FORMAT_D24_UNORM_S8_UINT)
      return fminf(fmaxf(dref, 0.0f), 1.0f);
   return dref;
}

static uint32_t swizzled(const struct ppu_texel *v, unsigned sel, enum ppu_texel_class cls)
{
   if (sel <= PPU_TEX_SWIZZLE_A)
      return v->u[sel];
   if (sel == PPU_TEX_SWIZZLE_ONE)
      return cls == PPU_TEXEL_CLASS_FLOAT ? u32(1.0f) : 1u;
   return 0;
}

/* Min/max reduction (sampler flags bits 5..4): within each group (one
 * level of one probe) the component-wise minimum or maximum of the texels
 * with non-zero weight (Vulkan "Texel Filtering", VkSamplerReductionMode),
 * then the groups weighted by their total weight, as a weighted average
 * combines levels and probes. */
struct reduction {
   unsigned mode; /* enum ppu_sampler_reduction */
   float value[PPU_TEX_MAX_TEXELS / 4][4];
   float weight[PPU_TEX_MAX_TEXELS / 4];
   bool seen[PPU_TEX_MAX_TEXELS / 4];
};

static void reduce_texel(struct reduction *r, const struct ppu_tex_texel_ref *t,
                         const struct ppu_texel *v)
{
   unsigned g = t->group % (PPU_TEX_MAX_TEXELS / 4);
   r->weight[g] += t->weight;
   if (t->weight == 0.0f)
      return;
   for (unsigned c = 0; c < 4; c++) {
      float x = v->f[c], *acc = &r->value[g][c];
      if (!r->seen[g])
         *acc = x;
      else
         *acc = r->mode == PPU_SAMPLER_REDUCTION_MIN ? fminf(*acc, x) : fmaxf(*acc, x);
   }
   r->seen[g] = true;
}

static void reduction_result(const struct reduction *r, unsigned groups, float out[4])
{
   memset(out, 0, 4 * sizeof(float));
   for (unsigned g = 0; g < groups && g < PPU_TEX_MAX_TEXELS / 4; g++)
      for (unsigned c = 0; r->seen[g] && c < 4; c++)
         out[c] += r->weight[g] * r->value[g][c];
}

/* The numeric class of what a view reads: the stencil aspect of a
 * depth/stencil format is unsigned integer whatever the depth's class. */
static enum ppu_texel_class view_class(const struct ppu_texture_header *h)
{
   return (h->flags & PPU_TEX_FLAG_STENCIL)
              ? PPU_TEXEL_CLASS_UINT
              : ppu_texel_format_class((enum ppu_tex_format)h->format);
}

static bool filter_lane(struct ppu_tex_cache *cache, uint64_t pd_pa, const struct ppu_tex_instr *in,
                        const struct ppu_tex_lane_footprint *lf, uint32_t out[4],
                        struct ppu_fault *fault)
{
   const struct ppu_texture_header *h = lf->tex;
   enum ppu_texel_class cls = view_class(h);
   float dref = compare_reference(h->format, lf->dref);
   float acc[4] = {0, 0, 0, 0};
   struct ppu_texel first;
   memset(&first, 0, sizeof(first));
   struct reduction red;
   red.mode =
       (lf->smp ? lf->smp->flags & PPU_SAMPLER_REDUCTION_MASK : 0u) >> PPU_SAMPLER_REDUCTION_SHIFT;
   if (red.mode != PPU_SAMPLER_REDUCTION_WEIGHTED_AVERAGE) {
      memset(red.weight, 0, sizeof(red.weight));
      memset(red.seen, 0, sizeof(red.seen));
   }
   for (unsigned i = 0; i < lf->count; i++) {
      const struct ppu_tex_texel_ref *t = &lf->texel[i];
      struct ppu_texel v;
      if (t->border)
         border_texel(lf->smp, cls,
                      ppu_texel_format_components((enum ppu_tex_format)h->format,
                                                  (h->flags & PPU_TEX_FLAG_STENCIL) != 0),
                      &v);
      else if (!read_texel(cache, pd_pa, lf, t, &v, fault))
         return false;
      if (in->compare) {
         float pass = ppu_tex_compare(lf->smp->compare_op, dref, v.f[0]) ? 1.0f : 0.0f;
         v.f[0] = pass;
         v.f[1] = v.f[2] = 0.0f;
         v.f[3] = 1.0f;
      }
      if (in->kind == PPU_TEX_KIND_GATHER) {
         /* Texel i of the footprint gives component i of the result. */
         unsigned sel = in->compare ? 0 : (h->swizzle >> (4 * in->component)) & 0xf;
         out[i & 3] = in->compare ? v.u[0] : swizzled(&v, sel, cls);
         continue;
      }
      if (i == 0)
         first = v;
      if (red.mode != PPU_SAMPLER_REDUCTION_WEIGHTED_AVERAGE) {
         reduce_texel(&red, t, &v);
         continue;
      }
      for (unsigned c = 0; c < 4; c++)
         acc[c] += t->weight * v.f[c];
   }
   if (red.mode != PPU_SAMPLER_REDUCTION_WEIGHTED_AVERAGE)
      reduction_result(&red, lf->groups, acc);
   if (in->kind == PPU_TEX_KIND_GATHER)
      return true;
   /* One texel of weight 1 (fetches, nearest) keeps its bits exactly (the
    * sign of a zero, NaN payloads); integer texels are never filtered. */
   struct ppu_texel result = first;
   bool single = lf->count == 1 && lf->texel[0].weight == 1.0f;
   if ((cls == PPU_TEXEL_CLASS_FLOAT || in->compare) && !single)
      memcpy(result.f, acc, sizeof(acc));
   if (lf->count == 0)
      memset(&result, 0, sizeof(result));
   for (unsigned c = 0; c < 4; c++)
      out[c] = swizzled(&result, (h->swizzle >> (4 * c)) & 0xf,
                        in->compare ? PPU_TEXEL_CLASS_FLOAT : cls);
   return true;
}

/* A fetch outside the view (fetch_lane's `zero`) reads a texel of zero
 * bits of the view's format, decoded and swizzled as any texel: zero in
 * every component the format has, and the missing ones filled as "Conversion
 * to RGBA" fills them, so alpha is one where the format has no alpha. This
 * is Vulkan's texel replacement under robustImageAccess2 and
 * robustBufferAccess2 (texel buffers), and one of the two results
 * robustImageAccess allows. */
static void out_of_range_texel(const struct ppu_texture_header *h, uint32_t out[4])
{
   static const uint8_t zeros[16];
   const enum ppu_tex_format format = (enum ppu_tex_format)h->format;
   struct ppu_texel v;
   if (ppu_tex_format_is_compressed(format)) {
      struct ppu_texel block[16];
      ppu_texel_decode_block(format, zeros, block);
      v = block[0];
   } else {
      ppu_texel_decode(format, zeros, (h->flags & PPU_TEX_FLAG_STENCIL) != 0, &v);
   }
   const enum ppu_texel_class cls = view_class(h);
   for (unsigned c = 0; c < 4; c++)
      out[c] = swizzled(&v, (h->swizzle >> (4 * c)) & 0xf, cls);
}

bool ppu_tex_filter_quad(struct ppu_tex_cache *cache, uint64_t pd_pa,
                         const struct ppu_tex_footprint *fp, struct ppu_counter_block *counters,
                         uint32_t out[4][4], struct ppu_fault *fault)
{
   memset(out, 0, 16 * sizeof(uint32_t));
   for (unsigned l = 0; l < 4; l++) {
      const struct ppu_tex_lane_footprint *lf = &fp->lane[l];
      if (!lf->active || !lf->tex)
         continue;
      if (lf->zero) {
         out_of_range_texel(lf->tex, out[l]);
         continue;
      }
      if (fp->instr.kind != PPU_TEX_KIND_FETCH && !lf->smp)
         continue;
      if (!filter_lane(cache, pd_pa, &fp->instr, lf, out[l], fault))
         return false;
      ppu_counter_add(counters, PPU_COUNTER_TEX_TEXELS_FILTERED, lf->count);
   }
   return true;
}
