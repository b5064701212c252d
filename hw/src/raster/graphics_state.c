/* Graphics state methods: checks at write time, decoders to unit state. */
#include "raster/graphics_state.h"

#include <string.h>

#include "fault.h"

static const uint32_t one_f = 0x3f800000u; /* 1.0f */

void ppu_graphics_state_init(struct ppu_graphics_state *s)
{
   memset(s, 0, sizeof(*s));
   s->word[PPU_GFX_SAMPLE_MASK] = 0xf;
   s->word[PPU_GFX_RENDER_AREA_XY1] = PPU_GFX_MAX_FRAMEBUFFER | PPU_GFX_MAX_FRAMEBUFFER << 16;
   s->word[PPU_GFX_LINE_WIDTH] = one_f;
   s->word[PPU_GFX_INDEX_SIZE] = 4;
   s->word[PPU_GFX_TOPOLOGY] = PPU_GFX_TOPOLOGY_TRIANGLE_LIST;
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++)
      s->word[PPU_GFX_BLEND(i) + 1] = 0xf0;
   for (unsigned i = 0; i < PPU_GFX_VIEWPORTS; i++) {
      s->word[PPU_GFX_SCISSOR(i) + 1] = PPU_GFX_MAX_FRAMEBUFFER | PPU_GFX_MAX_FRAMEBUFFER << 16;
      s->word[PPU_GFX_VIEWPORT(i) + PPU_GFX_VIEWPORT_DEPTH_MAX] = one_f;
   }
}

/* Where a method sits: a group base and the word within it. */
static bool in_group(uint32_t m, uint32_t base, uint32_t count, uint32_t size, uint32_t *word)
{
   if (m < base || m >= base + count * size)
      return false;
   *word = (m - base) % size;
   return true;
}

static bool known_method(uint32_t m)
{
   uint32_t w;
   if (m <= PPU_GFX_SCRATCH_SIZE || (m >= PPU_GFX_SAMPLES_LOG2 && m <= PPU_GFX_LAYER_OFFSET))
      return true;
   if (in_group(m, PPU_GFX_COLOR_TARGET_BASE, PPU_GFX_COLOR_TARGETS + 1, 8, &w) ||
       in_group(m, PPU_GFX_RESOLVE_TARGET_BASE, PPU_GFX_COLOR_TARGETS + 1, 8, &w) ||
       in_group(m, PPU_GFX_VIEWPORT_BASE, PPU_GFX_VIEWPORTS, 8, &w) ||
       in_group(m, PPU_GFX_SCISSOR_BASE, PPU_GFX_VIEWPORTS, 2, &w) ||
       in_group(m, PPU_GFX_BLEND_BASE, PPU_GFX_COLOR_TARGETS, 2, &w))
      return true;
   return (m >= PPU_GFX_TOPOLOGY && m <= PPU_GFX_CULL_DISTANCE_MASK) ||
          (m >= PPU_GFX_DEPTH_TEST && m <= PPU_GFX_STENCIL_BACK_MASKS) ||
          (m >= PPU_GFX_BLEND_CONSTANT_R && m <= PPU_GFX_ALPHA_TO_COVERAGE) ||
          (m >= PPU_GFX_VERTEX_PROGRAM_LO && m <= PPU_GFX_FRAGMENT_PROGRAM_HI) ||
          (m >= PPU_GFX_INDEX_ADDR_LO && m <= PPU_GFX_INDEX_LIMIT) ||
          (m >= PPU_GFX_DRAW_FIRST && m <= PPU_GFX_DRAW_INDIRECT) ||
          (m >= PPU_GFX_QUERY_ADDR_LO && m <= PPU_GFX_QUERY_END) || m == PPU_GFX_RESOLVE;
}

static bool blend_equation_valid(uint32_t d)
{
   unsigned f[4] = {d & 31u, (d >> 5) & 31u, (d >> 16) & 31u, (d >> 21) & 31u};
   unsigned op[2] = {(d >> 10) & 7u, (d >> 26) & 7u};
   for (unsigned i = 0; i < 4; i++) {
      if (f[i] >= PPU_GFX_BLEND_FACTOR_COUNT)
         return false;
   }
   return op[0] < PPU_GFX_BLEND_OP_COUNT && op[1] < PPU_GFX_BLEND_OP_COUNT &&
          (d & 0xe000e000u) == 0;
}

/* NULL when data suits the method, else the rule it breaks. */
static const char *check_data(uint32_t m, uint32_t d)
{
   uint32_t w;
   if (in_group(m, PPU_GFX_COLOR_TARGET_BASE, PPU_GFX_COLOR_TARGETS + 1, 8, &w) ||
       in_group(m, PPU_GFX_RESOLVE_TARGET_BASE, PPU_GFX_COLOR_TARGETS + 1, 8, &w)) {
      if (w == PPU_GFX_TARGET_FORMAT &&
          (d >= PPU_TEX_FORMAT_COUNT || ppu_tex_format_is_compressed(d) ||
           d == PPU_TEX_FORMAT_E5B9G9R9_UFLOAT))
         return "FORMAT is not a render-target format";
      if (w == PPU_GFX_TARGET_LAYOUT &&
          ((d & 0xffu) > PPU_TEX_LAYOUT_BLOCK_LINEAR || (d >> 8) > PPU_TEX_MAX_BLOCK_HEIGHT_LOG2))
         return "LAYOUT: undefined layout or block height above 5";
      if (w == PPU_GFX_TARGET_EXTENT &&
          ((d & 0xffffu) > PPU_GFX_MAX_FRAMEBUFFER || (d >> 16) > PPU_GFX_MAX_FRAMEBUFFER))
         return "EXTENT above 16384";
      return NULL;
   }
   if (in_group(m, PPU_GFX_BLEND_BASE, PPU_GFX_COLOR_TARGETS, 2, &w)) {
      if (w == 0 && !blend_equation_valid(d))
         return "BLEND_EQUATION: undefined factor or op, or reserved bits";
      if (w == 1 && (d & ~0xf1u))
         return "BLEND_CONTROL: reserved bits";
      return NULL;
   }
   if (in_group(m, PPU_GFX_SCISSOR_BASE, PPU_GFX_VIEWPORTS, 2, &w))
      return (d & 0xffffu) > PPU_GFX_MAX_FRAMEBUFFER || (d >> 16) > PPU_GFX_MAX_FRAMEBUFFER
                 ? "SCISSOR corner above 16384"
                 : NULL;
   switch (m) {
   case PPU_GFX_SCRATCH_SIZE:
      return d % 256 ? "SCRATCH_SIZE not a multiple of 256" : NULL;
   case PPU_GFX_SAMPLES_LOG2:
      return d != 0 && d != 2 ? "SAMPLES_LOG2 must be 0 or 2" : NULL;
   case PPU_GFX_SAMPLE_MASK:
      return d > 0xf ? "SAMPLE_MASK: bits above 3" : NULL;
   case PPU_GFX_LAYER_COUNT:
      return d > PPU_GFX_MAX_LAYERS ? "LAYER_COUNT above 2048" : NULL;
   case PPU_GFX_LAYER_OFFSET:
      return d >= PPU_GFX_MAX_LAYERS ? "LAYER_OFFSET 2048 or above" : NULL;
   case PPU_GFX_RENDER_AREA_XY0:
   case PPU_GFX_RENDER_AREA_XY1:
      return (d & 0xffffu) > PPU_GFX_MAX_FRAMEBUFFER || (d >> 16) > PPU_GFX_MAX_FRAMEBUFFER
                 ? "RENDER_AREA corner above 16384"
                 : NULL;
   case PPU_GFX_TOPOLOGY:
      return d > PPU_GFX_TOPOLOGY_TRIANGLE_FAN ? "undefined TOPOLOGY" : NULL;
   case PPU_GFX_CULL:
      return d > 3 ? "CULL: bits above 1" : NULL;
   case PPU_GFX_POLYGON_MODE:
      return d > 2 ? "undefined POLYGON_MODE" : NULL;
   case PPU_GFX_CLIP_DISTANCE_MASK:
      return d >> PPU_GFX_MAX_CLIP_DISTANCES ? "CLIP_DISTANCE_MASK: bits above 7" : NULL;
   case PPU_GFX_CULL_DISTANCE_MASK:
      return d >> PPU_GFX_MAX_CLIP_DISTANCES ? "CULL_DISTANCE_MASK: bits above 7" : NULL;
   case PPU_GFX_PRIMITIVE_RESTART:
   case PPU_GFX_PROVOKING_VERTEX:
   case PPU_GFX_FRONT_FACE:
   case PPU_GFX_DEPTH_BIAS_ENABLE:
   case PPU_GFX_RASTERIZER_DISCARD:
   case PPU_GFX_PIXEL_ORDER:
   case PPU_GFX_SAMPLE_SHADING:
   case PPU_GFX_DEPTH_BOUNDS_ENABLE:
   case PPU_GFX_STENCIL_ENABLE:
      return d > 1 ? "a 0/1 switch given another value" : NULL;
   case PPU_GFX_DEPTH_TEST:
   case PPU_GFX_ALPHA_TO_COVERAGE:
      return d > 3 ? "reserved bits" : NULL;
   case PPU_GFX_DEPTH_CLAMP:
      return d > 7 || (d & PPU_GFX_DEPTH_CLAMP_CLIP && d & PPU_GFX_DEPTH_CLAMP_NO_CLIP)
                 ? "DEPTH_CLAMP: reserved bits, or CLIP with NO_CLIP"
                 : NULL;
   case PPU_GFX_DEPTH_COMPARE:
      return d > PPU_GFX_COMPARE_ALWAYS ? "undefined compare op" : NULL;
   case PPU_GFX_STENCIL_FRONT_OPS:
   case PPU_GFX_STENCIL_BACK_OPS:
      return (d & 0xffff8888u) ? "STENCIL_OPS: undefined op or reserved bits" : NULL;
   case PPU_GFX_STENCIL_FRONT_MASKS:
   case PPU_GFX_STENCIL_BACK_MASKS:
      return d >> 24 ? "STENCIL_MASKS: reserved bits" : NULL;
   case PPU_GFX_LOGIC_OP:
      return d > 0x1f ? "LOGIC_OP: reserved bits" : NULL;
   case PPU_GFX_INDEX_SIZE:
      return d != 1 && d != 2 && d != 4 ? "INDEX_SIZE must be 1, 2 or 4" : NULL;
   case PPU_GFX_DRAW:
      return d > PPU_GFX_DRAW_FLAG_INDEXED ? "DRAW: undefined flags" : NULL;
   case PPU_GFX_DRAW_INDIRECT:
      return d > (PPU_GFX_DRAW_FLAG_INDEXED | PPU_GFX_DRAW_FLAG_COUNT_FROM_MEMORY)
                 ? "DRAW_INDIRECT: undefined flags"
                 : NULL;
   case PPU_GFX_RESOLVE:
      return d >> 16 ? "RESOLVE: reserved bits" : NULL;
   default:
      return NULL;
   }
}

enum ppu_method_status ppu_graphics_state_write(struct ppu_graphics_state *s, uint32_t method,
                                                uint32_t data, enum ppu_graphics_action *action,
                                                struct ppu_fault *fault)
{
   *action = PPU_GFX_ACTION_NONE;
   if (method >= PPU_GFX_METHOD_END || !known_method(method)) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD, PPU_ENGINE_GRAPHICS,
                    "graphics method 0x%03x is not defined", method);
      return PPU_METHOD_FAULT;
   }
   const char *bad = check_data(method, data);
   if (bad) {
      ppu_fault_set(fault, PPU_FAULT_BAD_METHOD_DATA, PPU_ENGINE_GRAPHICS,
                    "graphics method 0x%03x data 0x%08x: %s", method, data, bad);
      return PPU_METHOD_FAULT;
   }
   s->word[method] = data;
   switch (method) {
   case PPU_GFX_DRAW:
      *action = PPU_GFX_ACTION_DRAW;
      break;
   case PPU_GFX_DRAW_INDIRECT:
      *action = PPU_GFX_ACTION_DRAW_INDIRECT;
      break;
   case PPU_GFX_QUERY_BEGIN:
      *action = PPU_GFX_ACTION_QUERY_BEGIN;
      break;
   case PPU_GFX_QUERY_END:
      *action = PPU_GFX_ACTION_QUERY_END;
      break;
   case PPU_GFX_RESOLVE:
      *action = PPU_GFX_ACTION_RESOLVE;
      break;
   default:
      break;
   }
   return PPU_METHOD_DONE;
}

void ppu_graphics_state_target(const struct ppu_graphics_state *s, unsigned index,
                               struct ppu_graphics_target *t)
{
   ppu_graphics_state_target_at(
       s, index < PPU_GFX_COLOR_TARGETS ? PPU_GFX_COLOR_TARGET(index) : PPU_GFX_DEPTH_TARGET_BASE,
       t);
}

void ppu_graphics_state_target_at(const struct ppu_graphics_state *s, uint32_t base,
                                  struct ppu_graphics_target *t)
{
   const uint32_t *w = &s->word[base];
   t->va = (uint64_t)w[PPU_GFX_TARGET_ADDR_HI] << 32 | w[PPU_GFX_TARGET_ADDR_LO];
   t->format = (enum ppu_tex_format)w[PPU_GFX_TARGET_FORMAT];
   t->layout = (enum ppu_tex_layout)(w[PPU_GFX_TARGET_LAYOUT] & 0xffu);
   t->block_height_log2 = w[PPU_GFX_TARGET_LAYOUT] >> 8;
   t->row_pitch = w[PPU_GFX_TARGET_ROW_PITCH];
   t->width = w[PPU_GFX_TARGET_EXTENT] & 0xffffu;
   t->height = w[PPU_GFX_TARGET_EXTENT] >> 16;
   t->layer_stride = (uint64_t)w[PPU_GFX_TARGET_LAYER_STRIDE] << 9;
   t->layer = w[PPU_GFX_TARGET_LAYER];
}

void ppu_graphics_state_clip(const struct ppu_graphics_state *s, unsigned vp,
                             struct raster_clip_state *c)
{
   uint32_t v = PPU_GFX_VIEWPORT(vp % PPU_GFX_VIEWPORTS);
   raster_clip_state_init(c, ppu_graphics_state_float(s, v + PPU_GFX_VIEWPORT_SCALE_X),
                          ppu_graphics_state_float(s, v + PPU_GFX_VIEWPORT_OFFSET_X),
                          ppu_graphics_state_float(s, v + PPU_GFX_VIEWPORT_SCALE_Y),
                          ppu_graphics_state_float(s, v + PPU_GFX_VIEWPORT_OFFSET_Y),
                          !ppu_gfx_depth_clips(s->word[PPU_GFX_DEPTH_CLAMP]),
                          s->word[PPU_GFX_CLIP_DISTANCE_MASK]);
   c->cull_distance_mask = s->word[PPU_GFX_CULL_DISTANCE_MASK];
}

static int32_t min32(int32_t a, int32_t b)
{
   return a < b ? a : b;
}

static int32_t max32(int32_t a, int32_t b)
{
   return a > b ? a : b;
}

void ppu_graphics_state_setup(const struct ppu_graphics_state *s, unsigned vp,
                              struct raster_setup_state *r)
{
   memset(r, 0, sizeof(*r));
   vp %= PPU_GFX_VIEWPORTS;
   r->cull = s->word[PPU_GFX_CULL];
   r->front_face = (uint8_t)s->word[PPU_GFX_FRONT_FACE];
   uint32_t sc0 = s->word[PPU_GFX_SCISSOR(vp)], sc1 = s->word[PPU_GFX_SCISSOR(vp) + 1];
   uint32_t ra0 = s->word[PPU_GFX_RENDER_AREA_XY0], ra1 = s->word[PPU_GFX_RENDER_AREA_XY1];
   r->clip.x0 = max32((int32_t)(sc0 & 0xffffu), (int32_t)(ra0 & 0xffffu));
   r->clip.y0 = max32((int32_t)(sc0 >> 16), (int32_t)(ra0 >> 16));
   r->clip.x1 = min32((int32_t)(sc1 & 0xffffu), (int32_t)(ra1 & 0xffffu));
   r->clip.y1 = min32((int32_t)(sc1 >> 16), (int32_t)(ra1 >> 16));
   /* Every bound target limits the pixels that can be written. */
   for (unsigned i = 0; i <= PPU_GFX_COLOR_TARGETS; i++) {
      struct ppu_graphics_target t;
      ppu_graphics_state_target(s, i, &t);
      if (t.format == PPU_TEX_FORMAT_INVALID)
         continue;
      r->clip.x1 = min32(r->clip.x1, (int32_t)t.width);
      r->clip.y1 = min32(r->clip.y1, (int32_t)t.height);
   }
   struct raster_depth_state *d = &r->depth;
   d->bias_enable = s->word[PPU_GFX_DEPTH_BIAS_ENABLE] != 0;
   d->bias_constant = ppu_graphics_state_float(s, PPU_GFX_DEPTH_BIAS_CONSTANT);
   d->bias_slope = ppu_graphics_state_float(s, PPU_GFX_DEPTH_BIAS_SLOPE);
   d->bias_clamp = ppu_graphics_state_float(s, PPU_GFX_DEPTH_BIAS_CLAMP);
   switch (s->word[PPU_GFX_DEPTH_TARGET_BASE + PPU_GFX_TARGET_FORMAT]) {
   case PPU_TEX_FORMAT_D16_UNORM:
      d->unorm_bits = 16;
      break;
   case PPU_TEX_FORMAT_X8_D24_UNORM:
   case PPU_TEX_FORMAT_D24_UNORM_S8_UINT:
      d->unorm_bits = 24;
      break;
   default:
      d->unorm_bits = 0;
      break;
   }
   d->clamp_enable = (s->word[PPU_GFX_DEPTH_CLAMP] & PPU_GFX_DEPTH_CLAMP_CLAMP) != 0;
   d->clamp_min = ppu_graphics_state_float(s, PPU_GFX_VIEWPORT(vp) + PPU_GFX_VIEWPORT_DEPTH_MIN);
   d->clamp_max = ppu_graphics_state_float(s, PPU_GFX_VIEWPORT(vp) + PPU_GFX_VIEWPORT_DEPTH_MAX);
}

static void stencil_face(uint32_t ops, uint32_t masks, struct rop_stencil_face *f)
{
   f->fail_op = (uint8_t)(ops & 0xfu);
   f->pass_op = (uint8_t)((ops >> 4) & 0xfu);
   f->depth_fail_op = (uint8_t)((ops >> 8) & 0xfu);
   f->compare_op = (uint8_t)((ops >> 12) & 0xfu);
   f->compare_mask = (uint8_t)(masks & 0xffu);
   f->write_mask = (uint8_t)((masks >> 8) & 0xffu);
   f->reference = (uint8_t)((masks >> 16) & 0xffu);
}

void ppu_graphics_state_zs(const struct ppu_graphics_state *s, struct rop_zs_state *z)
{
   memset(z, 0, sizeof(*z));
   z->depth_test = s->word[PPU_GFX_DEPTH_TEST] & 1u;
   z->depth_write = (s->word[PPU_GFX_DEPTH_TEST] >> 1) & 1u;
   z->depth_op = (uint8_t)s->word[PPU_GFX_DEPTH_COMPARE];
   z->depth_bounds = s->word[PPU_GFX_DEPTH_BOUNDS_ENABLE] != 0;
   z->bounds_min = ppu_graphics_state_float(s, PPU_GFX_DEPTH_BOUNDS_MIN);
   z->bounds_max = ppu_graphics_state_float(s, PPU_GFX_DEPTH_BOUNDS_MAX);
   z->stencil_test = s->word[PPU_GFX_STENCIL_ENABLE] != 0;
   stencil_face(s->word[PPU_GFX_STENCIL_FRONT_OPS], s->word[PPU_GFX_STENCIL_FRONT_MASKS],
                &z->front);
   stencil_face(s->word[PPU_GFX_STENCIL_BACK_OPS], s->word[PPU_GFX_STENCIL_BACK_MASKS], &z->back);
}

void ppu_graphics_state_blend(const struct ppu_graphics_state *s, struct rop_blend_state *b)
{
   memset(b, 0, sizeof(*b));
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++) {
      uint32_t eq = s->word[PPU_GFX_BLEND(i)], ctl = s->word[PPU_GFX_BLEND(i) + 1];
      struct rop_blend_target *t = &b->target[i];
      t->enable = ctl & 1u;
      t->write_mask = (uint8_t)((ctl >> 4) & 0xfu);
      t->src_color = (uint8_t)(eq & 31u);
      t->dst_color = (uint8_t)((eq >> 5) & 31u);
      t->color_op = (uint8_t)((eq >> 10) & 7u);
      t->src_alpha = (uint8_t)((eq >> 16) & 31u);
      t->dst_alpha = (uint8_t)((eq >> 21) & 31u);
      t->alpha_op = (uint8_t)((eq >> 26) & 7u);
   }
   for (unsigned c = 0; c < 4; c++)
      b->constant[c] = ppu_graphics_state_float(s, PPU_GFX_BLEND_CONSTANT_R + c);
   b->logic_op_enable = (s->word[PPU_GFX_LOGIC_OP] >> 4) & 1u;
   b->logic_op = (uint8_t)(s->word[PPU_GFX_LOGIC_OP] & 0xfu);
}
