/* Copy engine BLIT: a real GPU's 2D engine, a scaled, filtered and
 * format-converting copy between two images (ppu/methods.h,
 * docs/methods.md "BLIT"). The semantics are Vulkan's vkCmdBlitImage
 * ("Image Copies With Scaling"), so the driver maps the command onto one
 * launch per region:
 *
 * - for each destination texel i (x, y, z) of the box between corners
 *   DST_*0 and DST_*1, the unnormalized source coordinate of each axis is
 *   u = src0 + (i + 1/2 - dst0) * (src1 - src0) / (dst1 - dst0); a pair of
 *   corners in reverse order makes the scale negative, which mirrors;
 * - the source level is read at u with FILTER (nearest: floor(u); linear:
 *   the 2, 4 or 8 texels around u - 1/2 weighted as "Texel Filtering"
 *   says, over the image's own dimensions), CLAMP_TO_EDGE addressing on
 *   the source level (Vulkan lets an implementation clamp to the level, and
 *   that is what a sampler does);
 * - filtering works on decoded values (texel codec: sRGB to linear,
 *   UNORM/SNORM to float), and the result is encoded to the destination
 *   format (to sRGB, with rounding and clamping).
 *
 * The coordinate is computed exactly as a fraction of integers: nearest
 * picks floor(u) without rounding error and linear weights are the exact
 * fraction rounded once, so power-of-two scales give exact box filters.
 * Integer formats blit only to integer formats of the same signedness, and
 * depth/stencil only to the same format, both with NEAREST (Vulkan's valid
 * usage). A NEAREST blit between two images of the same format moves the
 * texel's bits: decoding and encoding would give the same value, and moving
 * bits also keeps NaN payloads and both SNORM encodings of -1.
 *
 * Every header and corner is checked (BAD_METHOD_DATA) before anything is
 * written; memory faults stop the blit where they happen, like COPY's. */
#include <stdlib.h>
#include <string.h>

#include "copy_engine.h"
#include "copy_engine_image.h"
#include "fault.h"
#include "ppu/methods.h"
#include "ppu/texture.h"
#include "texture/texel_codec.h"

bool ppu_copy_engine_blit_state(struct ppu_copy_context *ctx, uint32_t method, uint32_t data)
{
   if (method >= PPU_COPY_SRC_X0 && method <= PPU_COPY_SRC_Z1) {
      unsigned k = method - PPU_COPY_SRC_X0;
      ctx->blit_src[k / 3][k % 3] = (int32_t)data;
      return true;
   }
   if (method >= PPU_COPY_DST_X0 && method <= PPU_COPY_DST_Z1) {
      unsigned k = method - PPU_COPY_DST_X0;
      ctx->blit_dst[k / 3][k % 3] = (int32_t)data;
      return true;
   }
   if (method == PPU_COPY_FILTER) {
      ctx->blit_filter = data;
      return true;
   }
   return false;
}

/* Source rows read whole (every element of a level's row, or row of 4x4
 * blocks) and kept for the next destination rows: a linear footprint needs
 * 2 rows of 2 slices at most, so 8 entries never thrash. */
#define ROW_CACHE_ENTRIES 8u

struct row_cache {
   struct {
      bool valid;
      uint32_t plane, row;
      uint8_t *data;
   } e[ROW_CACHE_ENTRIES];
   unsigned next;
};

struct blit {
   struct ppu_copy_engine *ce;
   uint64_t pd_pa;
   struct image_side src, dst;
   unsigned dims; /* the source image's dimensions that filter: 1, 2 or 3 */
   bool linear, raw;
   struct aspect_bytes aspect;
   uint64_t row_bytes; /* a whole source row */
   struct row_cache cache;
};

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
   int64_t q = a / b;
   return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* One axis of the scale: the source coordinate of destination texel i as
 * the fraction num / den (den > 0). */
struct axis {
   int64_t s0, s1, d0, d1;
};

struct sample_at {
   int32_t i0; /* nearest texel, or the lower texel of a linear pair */
   float frac; /* linear weight of i0 + 1 */
};

static struct sample_at axis_sample(const struct axis *a, int64_t i, bool linear)
{
   int64_t num = (2 * (i - a->d0) + 1) * (a->s1 - a->s0) + 2 * a->s0 * (a->d1 - a->d0);
   int64_t den = 2 * (a->d1 - a->d0);
   if (den < 0)
      num = -num, den = -den;
   struct sample_at r = {0, 0.0f};
   if (!linear) {
      r.i0 = (int32_t)floor_div(num, den);
      return r;
   }
   /* u - 1/2 = (2 num - den) / (2 den). */
   int64_t n2 = 2 * num - den, d2 = 2 * den;
   int64_t q = floor_div(n2, d2);
   r.i0 = (int32_t)q;
   r.frac = (float)((double)(n2 - q * d2) / (double)d2);
   return r;
}

static int32_t clamp_edge(int32_t i, uint32_t size)
{
   return i < 0 ? 0 : (uint32_t)i >= size ? (int32_t)size - 1 : i;
}

/* The source row holding texel row y (element row y / 4 when compressed)
 * of a plane (layer, or slice of a 3D image); NULL after a memory fault. */
static const uint8_t *source_row(struct blit *b, uint32_t plane, uint32_t y,
                                 struct ppu_fault *fault)
{
   uint32_t row = b->src.compressed ? y / 4 : y;
   struct row_cache *c = &b->cache;
   for (unsigned k = 0; k < ROW_CACHE_ENTRIES; k++)
      if (c->e[k].valid && c->e[k].plane == plane && c->e[k].row == row)
         return c->e[k].data;
   unsigned k = c->next;
   c->next = (c->next + 1) % ROW_CACHE_ENTRIES;
   c->e[k].valid = false;
   if (!ppu_ce_image_row(b->ce, b->pd_pa, &b->src, plane, row, c->e[k].data, b->row_bytes, false,
                         fault))
      return NULL;
   c->e[k].valid = true;
   c->e[k].plane = plane;
   c->e[k].row = row;
   return c->e[k].data;
}

/* The decoded texel (x, y) of a source row. */
static void decode_texel(const struct blit *b, const uint8_t *row, uint32_t x, uint32_t y,
                         struct ppu_texel *t)
{
   enum ppu_tex_format format = (enum ppu_tex_format)b->src.h.format;
   if (!b->src.compressed) {
      ppu_texel_decode(format, row + (uint64_t)x * b->src.elem_bytes, false, t);
      return;
   }
   struct ppu_texel block[16];
   ppu_texel_decode_block(format, row + (uint64_t)(x / 4) * b->src.elem_bytes, block);
   *t = block[(y % 4) * 4 + x % 4];
}

/* One destination texel from source coordinates s (per axis), into `out`
 * (the destination element, holding its old bytes for a partial aspect). */
static bool blit_texel(struct blit *b, uint32_t layer, const struct sample_at s[3], uint8_t *out,
                       struct ppu_fault *fault)
{
   const uint32_t *size = b->src.level_texels;
   /* A 3D source's slices are planes; another's planes are its layers. */
   if (!b->linear) {
      int32_t x = clamp_edge(s[0].i0, size[0]), y = clamp_edge(s[1].i0, size[1]);
      int32_t z = clamp_edge(s[2].i0, size[2]);
      const uint8_t *row = source_row(b, b->src.is_3d ? (uint32_t)z : layer, (uint32_t)y, fault);
      if (!row)
         return false;
      if (b->raw) {
         const uint8_t *texel = row + (uint64_t)x * b->src.elem_bytes;
         memcpy(out + b->aspect.first, texel + b->aspect.first, b->aspect.count);
         return true;
      }
      struct ppu_texel t;
      decode_texel(b, row, (uint32_t)x, (uint32_t)y, &t);
      ppu_texel_encode((enum ppu_tex_format)b->dst.h.format, &t, false, out);
      return true;
   }
   /* Linear: the 2^dims texels around u - 1/2, weights from the fractions
    * ("Texel Filtering"); zero weights are skipped so that a texel of
    * weight 1 keeps its value exactly (and an infinite neighbour of weight
    * 0 adds no NaN). */
   float acc[4] = {0, 0, 0, 0};
   for (unsigned corner = 0; corner < (1u << b->dims); corner++) {
      float w = 1.0f;
      int32_t c[3] = {0, 0, 0};
      for (unsigned a = 0; a < 3; a++) {
         unsigned hi = a < b->dims ? (corner >> a) & 1u : 0;
         if (a < b->dims)
            w *= hi ? s[a].frac : 1.0f - s[a].frac;
         c[a] = clamp_edge(s[a].i0 + (int32_t)hi, size[a]);
      }
      if (w == 0.0f)
         continue;
      const uint8_t *row =
          source_row(b, b->src.is_3d ? (uint32_t)c[2] : layer, (uint32_t)c[1], fault);
      if (!row)
         return false;
      struct ppu_texel t;
      decode_texel(b, row, (uint32_t)c[0], (uint32_t)c[1], &t);
      for (unsigned k = 0; k < 4; k++)
         acc[k] = w == 1.0f ? t.f[k] : acc[k] + w * t.f[k];
   }
   struct ppu_texel t;
   memcpy(t.f, acc, sizeof(acc));
   ppu_texel_encode((enum ppu_tex_format)b->dst.h.format, &t, false, out);
   return true;
}

static bool is_integer(unsigned format)
{
   return ppu_texel_format_class((enum ppu_tex_format)format) != PPU_TEXEL_CLASS_FLOAT;
}

/* Vulkan's rules for the two formats and the filter. */
static enum ppu_method_status check_formats(struct blit *b, uint32_t aspect,
                                            struct ppu_fault *fault)
{
   unsigned sf = b->src.h.format, df = b->dst.h.format;
   if (b->dst.compressed)
      return ppu_ce_bad(fault, b->dst.name, "BLIT into a block-compressed format (format, 0)", df,
                        0);
   bool ds = ppu_ce_is_depth_stencil(sf) || ppu_ce_is_depth_stencil(df);
   if (ds && sf != df)
      return ppu_ce_bad(fault, NULL, "BLIT of depth/stencil needs one format (src, dst)", sf, df);
   if (!ds && (is_integer(sf) || is_integer(df)) &&
       ppu_texel_format_class((enum ppu_tex_format)sf) !=
           ppu_texel_format_class((enum ppu_tex_format)df))
      return ppu_ce_bad(fault, NULL,
                        "BLIT between integer and other formats, or signed and unsigned (src, dst)",
                        sf, df);
   if (b->linear && (ds || is_integer(sf)))
      return ppu_ce_bad(fault, NULL,
                        "LINEAR FILTER on an integer or depth/stencil format (format, 0)", sf, 0);
   return ppu_ce_aspect_bytes(&b->dst, aspect, false, &b->aspect, fault);
}

/* Both corners of each axis inside the level (0 .. extent); a 1D image's y
 * box and a non-3D image's z box are exactly 0 .. 1, as Vulkan requires. */
static enum ppu_method_status check_box(const struct image_side *s, const int32_t box[2][3],
                                        struct ppu_fault *fault)
{
   for (unsigned a = 0; a < 3; a++) {
      bool fixed = (a == 1 && s->h.dim == PPU_TEX_DIM_1D) || (a == 2 && !s->is_3d);
      for (unsigned c = 0; c < 2; c++) {
         int64_t v = box[c][a];
         if (v < 0 || v > (int64_t)s->level_texels[a])
            return ppu_ce_bad(fault, s->name, "corner outside the level (axis, corner value)", a,
                              (uint64_t)v);
      }
      if (fixed && (box[0][a] != 0 || box[1][a] != 1))
         return ppu_ce_bad(fault, s->name,
                           "y corners of a 1D or z corners of a non-3D image not 0 and 1 (axis, 0)",
                           a, 0);
   }
   return PPU_METHOD_DONE;
}

static enum ppu_method_status blit_setup(struct blit *b, struct ppu_copy_context *ctx,
                                         struct ppu_fault *fault)
{
   if (ctx->blit_filter > PPU_COPY_FILTER_LINEAR)
      return ppu_ce_bad(fault, NULL, "FILTER undefined (FILTER, 0)", ctx->blit_filter, 0);
   b->linear = ctx->blit_filter == PPU_COPY_FILTER_LINEAR;
   PPU_CE_TRY(
       ppu_ce_load_image(b->ce, b->pd_pa, ctx->src_header_va, ctx->src_level, &b->src, fault));
   PPU_CE_TRY(
       ppu_ce_load_image(b->ce, b->pd_pa, ctx->dst_header_va, ctx->dst_level, &b->dst, fault));
   PPU_CE_TRY(check_formats(b, ctx->aspect, fault));
   PPU_CE_TRY(check_box(&b->src, ctx->blit_src, fault));
   PPU_CE_TRY(check_box(&b->dst, ctx->blit_dst, fault));
   if (ctx->layer_count == 0 || ((b->src.is_3d || b->dst.is_3d) && ctx->layer_count != 1))
      return ppu_ce_bad(fault, NULL, "LAYER_COUNT 0, or not 1 with a 3D image (LAYER_COUNT, 0)",
                        ctx->layer_count, 0);
   uint64_t src_layers = b->src.is_3d ? 1 : ctx->layer_count;
   uint64_t dst_layers = b->dst.is_3d ? 1 : ctx->layer_count;
   PPU_CE_TRY(ppu_ce_set_planes(&b->src, ctx->src_layer, 0, src_layers, fault));
   PPU_CE_TRY(ppu_ce_set_planes(&b->dst, ctx->dst_layer, 0, dst_layers, fault));
   /* Rows are addressed by absolute plane (layer, or slice of a 3D image). */
   b->src.first_plane = b->dst.first_plane = 0;
   b->src.x = 0;
   b->dims = b->src.is_3d ? 3 : b->src.h.dim == PPU_TEX_DIM_1D ? 1 : 2;
   b->raw = !b->linear && b->src.h.format == b->dst.h.format;
   b->row_bytes = (uint64_t)b->src.level_elems[0] * b->src.elem_bytes;
   return PPU_METHOD_DONE;
}

static void cache_free(struct row_cache *c)
{
   for (unsigned k = 0; k < ROW_CACHE_ENTRIES; k++)
      free(c->e[k].data);
}

static bool cache_alloc(struct row_cache *c, uint64_t bytes)
{
   memset(c, 0, sizeof(*c));
   for (unsigned k = 0; k < ROW_CACHE_ENTRIES; k++)
      if (!(c->e[k].data = malloc(bytes ? bytes : 1)))
         return false;
   return true;
}

enum ppu_method_status ppu_copy_engine_blit_launch(struct ppu_copy_engine *ce,
                                                   struct ppu_copy_context *ctx, uint64_t pd_pa,
                                                   struct ppu_fault *fault)
{
   struct blit b;
   memset(&b, 0, sizeof(b));
   b.ce = ce;
   b.pd_pa = pd_pa;
   b.src.name = "SRC_HEADER";
   b.dst.name = "DST_HEADER";
   PPU_CE_TRY(blit_setup(&b, ctx, fault));

   struct axis ax[3];
   int64_t lo[3], hi[3];
   for (unsigned a = 0; a < 3; a++) {
      ax[a] = (struct axis){ctx->blit_src[0][a], ctx->blit_src[1][a], ctx->blit_dst[0][a],
                            ctx->blit_dst[1][a]};
      lo[a] = ax[a].d0 < ax[a].d1 ? ax[a].d0 : ax[a].d1;
      hi[a] = ax[a].d0 < ax[a].d1 ? ax[a].d1 : ax[a].d0;
   }
   uint64_t width = (uint64_t)(hi[0] - lo[0]);
   if (width == 0 || hi[1] == lo[1] || hi[2] == lo[2])
      return PPU_METHOD_DONE; /* an empty destination box writes nothing */
   b.dst.x = (uint32_t)lo[0];
   uint32_t eb = b.dst.elem_bytes;
   struct sample_at *xs = malloc(width * sizeof(*xs));
   uint8_t *row = malloc(width * eb);
   bool ok = xs && row && cache_alloc(&b.cache, b.row_bytes);
   if (!ok)
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_COPY,
                    "BLIT: no host memory for rows of %llu bytes", (unsigned long long)b.row_bytes);
   for (uint64_t x = 0; ok && x < width; x++)
      xs[x] = axis_sample(&ax[0], lo[0] + (int64_t)x, b.linear);
   uint64_t planes = b.src.is_3d || b.dst.is_3d ? 1 : ctx->layer_count;
   for (uint64_t p = 0; ok && p < planes; p++) {
      uint32_t src_layer = b.src.is_3d ? b.src.layer : ctx->src_layer + (uint32_t)p;
      uint32_t dst_layer = b.dst.is_3d ? b.dst.layer : ctx->dst_layer + (uint32_t)p;
      for (int64_t z = lo[2]; ok && z < hi[2]; z++) {
         struct sample_at s[3];
         s[2] = axis_sample(&ax[2], z, b.linear);
         uint32_t dst_plane = b.dst.is_3d ? (uint32_t)z : dst_layer;
         for (int64_t y = lo[1]; ok && y < hi[1]; y++) {
            s[1] = axis_sample(&ax[1], y, b.linear);
            if (b.aspect.partial)
               ok = ppu_ce_image_row(ce, pd_pa, &b.dst, dst_plane, (uint32_t)y, row, width * eb,
                                     false, fault);
            for (uint64_t x = 0; ok && x < width; x++) {
               s[0] = xs[x];
               ok = blit_texel(&b, src_layer, s, row + x * eb, fault);
            }
            ok = ok && ppu_ce_image_row(ce, pd_pa, &b.dst, dst_plane, (uint32_t)y, row, width * eb,
                                        true, fault);
         }
      }
   }
   cache_free(&b.cache);
   free(xs);
   free(row);
   if (!ok)
      return PPU_METHOD_FAULT;
   ppu_counter_add(ce->counters, PPU_COUNTER_COPY_IMAGE_BYTES,
                   planes * (uint64_t)(hi[2] - lo[2]) * (uint64_t)(hi[1] - lo[1]) * width *
                       b.aspect.count);
   return PPU_METHOD_DONE;
}
