/* Fragment work of a draw (docs/graphics-hw.md "Setup", "Fragment work"):
 * the primitive record setup writes for each triangle, and the fragment
 * warps over the raster engine's warp batches: launch registers, outputs
 * read from the exited lanes, discard, sample mask, depth, alpha to
 * coverage and to one, and sample shading (one warp per sample index the
 * batch covers, each quad in it once). */
#include <string.h>

#include "compute/sm_graphics.h"
#include "compute/sm_operands.h" /* f32_of, u32_of */
#include "graphics/graphics_draw.h"
#include "raster/raster_fine.h"
#include "rop/rop_coverage.h"

/* Value of attribute slot s, component c of the primitive's vertex j. */
static float attribute(const struct gfx_draw *d, unsigned j, unsigned s, unsigned c)
{
   if (s >= d->vp.desc.attribute_count)
      return 0.0f; /* not written by the vertex program */
   const float *a = (const float *)(d->records + (size_t)d->current->slot[j] * d->vertex_stride +
                                    sizeof(struct ppu_gfx_vertex_header));
   return a[4 * s + c];
}

/* gl_PointCoord as the planes of one slot (x = s, y = t, z = 0, w = 1), so
 * the fragment program evaluates it like a noperspective input: Vulkan
 * "Basic Point Rasterization", s = 1/2 + (x_f - x_d) / size and
 * t = 1/2 + (y_f - y_d) / size, with (x_f, y_f) the fragment's position
 * (its pixel centre, or its sample with sample shading) and (x_d, y_d) the
 * point's centre; the origin is the upper left. As a plane relative to
 * the record's origin: a = 1 / size, c = 1/2 + (origin - x_d) / size.
 * Lines and triangles have no point coordinate (Vulkan leaves it
 * undefined): they get (0, 0, 0, 1). */
static void point_coord_planes(const struct raster_triangle *t, struct ppu_gfx_plane pl[4])
{
   pl[0] = pl[1] = pl[2] = (struct ppu_gfx_plane){0.0f, 0.0f, 0.0f};
   pl[3] = (struct ppu_gfx_plane){0.0f, 0.0f, 1.0f};
   if (t->point_size <= 0.0f)
      return;
   double inv = 1.0 / t->point_size;
   pl[0] = (struct ppu_gfx_plane){(float)inv, 0.0f,
                                  (float)(0.5 + ((double)t->origin_x - t->point_x) * inv)};
   pl[1] = (struct ppu_gfx_plane){0.0f, (float)inv,
                                  (float)(0.5 + ((double)t->origin_y - t->point_y) * inv)};
}

void gfx_primitive_record(void *ctx, const struct raster_triangle *t,
                          const struct raster_window_vertex v[3], const float weight[3][3])
{
   struct gfx_draw *d = ctx;
   if (d->fault->kind != PPU_FAULT_NONE)
      return;
   struct ppu_gfx_primitive_header *h = (struct ppu_gfx_primitive_header *)d->primitive;
   uint32_t count = d->fp.desc.attribute_count;
   memset(h, 0, sizeof(*h));
   h->origin_x = t->origin_x;
   h->origin_y = t->origin_y;
   h->depth = (struct ppu_gfx_plane){t->z_a, t->z_b, t->z_c};
   const float iw[3] = {v[0].inverse_w, v[1].inverse_w, v[2].inverse_w};
   h->inverse_w = raster_setup_plane(t, iw);
   h->depth_bias = t->depth_bias;
   h->flags = (t->front_facing ? PPU_GFX_PRIMITIVE_FRONT_FACING : 0) |
              (d->viewport & PPU_GFX_PRIMITIVE_VIEWPORT_MASK) << PPU_GFX_PRIMITIVE_VIEWPORT_SHIFT |
              (d->layer & PPU_GFX_PRIMITIVE_LAYER_MASK) << PPU_GFX_PRIMITIVE_LAYER_SHIFT;
   h->primitive_id = d->current->id;
   h->attribute_count = count;
   struct ppu_gfx_plane *planes = (struct ppu_gfx_plane *)(h + 1);
   unsigned n = d->current_vertices;
   unsigned provoking = 0;
   for (unsigned j = 0; j < n; j++)
      if (d->current->slot[j] == d->current->provoking)
         provoking = j;
   for (unsigned s = 0; s < count; s++) {
      if ((d->fp.desc.flags & PPU_GFX_PROGRAM_POINT_COORD) && s == d->fp.desc.point_coord_slot) {
         point_coord_planes(t, &planes[4 * s]);
         continue;
      }
      unsigned mode = (unsigned)(d->fp.desc.interpolation >> (2 * s)) & 3u;
      for (unsigned c = 0; c < 4; c++) {
         struct ppu_gfx_plane *pl = &planes[4 * s + c];
         if (mode == PPU_GFX_INTERP_FLAT) {
            *pl = (struct ppu_gfx_plane){0.0f, 0.0f, attribute(d, provoking, s, c)};
            continue;
         }
         float val[3];
         for (unsigned k = 0; k < 3; k++) {
            double sum = 0.0;
            for (unsigned j = 0; j < n; j++)
               sum += (double)weight[k][j] * attribute(d, j, s, c);
            /* Perspective slots hold planes of attribute / w. */
            val[k] = (float)(mode == PPU_GFX_INTERP_PERSPECTIVE ? sum * v[k].inverse_w : sum);
         }
         *pl = raster_setup_plane(t, val);
      }
   }
   ppu_mmu_write(&d->ge->mmu, d->pd_pa, d->primitive_va, d->primitive, d->primitive_stride,
                 d->fault);
}

/* Launches and runs one fragment warp over the quads of qmask (bit i:
 * quad i) at sample `sample` (-1: pixel centres, every covered sample);
 * lane 4i + p is pixel p of quad i. NULL when the warp faulted. */
static struct ppu_warp *run_warp(struct gfx_draw *d, const struct raster_warp_batch *b,
                                 const struct raster_triangle *const *tris, uint32_t qmask,
                                 int sample)
{
   uint32_t lanes = 0;
   for (unsigned i = 0; i < b->count; i++)
      if (qmask & (1u << i))
         lanes |= 0xfu << (4 * i);
   struct ppu_warp *w = ppu_sm_launch_graphics_warp(d->sm[1], lanes);
   const struct ppu_gfx_program *fp = &d->fp.desc;
   float ox = 0.5f, oy = 0.5f;
   if (sample >= 0) {
      ox = raster_sample_positions_4x[sample][0] / (float)RASTER_SUBPIXEL_ONE;
      oy = raster_sample_positions_4x[sample][1] / (float)RASTER_SUBPIXEL_ONE;
   }
   for (unsigned i = 0; i < b->count; i++) {
      if (!(qmask & (1u << i)))
         continue;
      const struct raster_quad *q = &b->quads[i];
      const struct raster_triangle *t = tris[i];
      for (unsigned px = 0; px < 4; px++) {
         unsigned l = 4 * i + px;
         int32_t x = q->x + (int32_t)(px & 1u), y = q->y + (int32_t)(px >> 1);
         uint32_t cov = (q->coverage >> (4 * px)) & 0xfu;
         if (sample >= 0)
            cov &= 1u << sample;
         float dx = (float)(x - t->origin_x) + ox, dy = (float)(y - t->origin_y) + oy;
         float z =
             sample >= 0 ? q->depth[4 * px + (unsigned)sample] : raster_depth_from_plane(t, dx, dy);
         w->reg[0][l] = (uint32_t)x | (uint32_t)y << 16;
         w->reg[1][l] = cov | (cov ? 0u : 0x10u) | (t->front_facing ? 0x20u : 0u) |
                        (sample >= 0 ? (uint32_t)sample << 8 : 0u);
         w->reg[2][l] = (uint32_t)d->primitive_va;
         w->reg[3][l] = (uint32_t)(d->primitive_va >> 32);
         w->reg[4][l] = u32_of(dx);
         w->reg[5][l] = u32_of(dy);
         w->reg[6][l] = u32_of(z);
         w->reg[7][l] = d->current->id;
         if (fp->flags & PPU_GFX_PROGRAM_MAY_DISCARD)
            w->reg[PPU_GFX_FRAGMENT_COVERAGE_REG][l] = cov;
         d->helper_lanes += cov == 0;
         d->fragment_lanes += cov != 0;
      }
   }
   d->fragment_warps++;
   return ppu_sm_run_until_idle(d->sm[1], d->fp.grid) ? w : NULL;
}

/* Lane l's outputs: colors of the written targets into color[target]
 * (alpha 1 with alpha to one), depth into *z; returns the samples (bits
 * 3..0) the program kept: discard (R34) and sample mask (R33). */
static uint32_t lane_outputs(const struct gfx_draw *d, const struct ppu_warp *w, unsigned l,
                             struct ppu_texel *color, size_t color_stride, float *z)
{
   const struct ppu_gfx_program *fp = &d->fp.desc;
   /* With dual-source blending target 1's registers are the second source. */
   uint32_t outputs = fp->output_mask | (fp->flags & PPU_GFX_PROGRAM_DUAL_SOURCE ? 1u << 1 : 0u);
   bool alpha_to_one = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 2u;
   for (unsigned k = 0; k < PPU_GFX_COLOR_TARGETS; k++) {
      if (!(outputs & (1u << k)))
         continue;
      struct ppu_texel *c = (struct ppu_texel *)((char *)color + k * color_stride);
      for (unsigned i = 0; i < 4; i++)
         c->u[i] = w->reg[4 * k + i][l];
      if (alpha_to_one)
         c->f[3] = 1.0f;
   }
   uint32_t keep = 0xfu;
   if (fp->flags & PPU_GFX_PROGRAM_MAY_DISCARD)
      keep &= w->reg[PPU_GFX_FRAGMENT_COVERAGE_REG][l];
   if (fp->flags & PPU_GFX_PROGRAM_WRITES_SAMPLE_MASK)
      keep &= w->reg[PPU_GFX_FRAGMENT_SAMPLE_MASK_REG][l];
   /* register_count covers R32 only when the program writes depth. */
   if (fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH)
      *z = f32_of(w->reg[PPU_GFX_FRAGMENT_DEPTH_REG][l]);
   return keep;
}

static float clamp_depth(const struct raster_triangle *t, float z)
{
   if (t->depth_clamp)
      z = z < t->clamp_min ? t->clamp_min : z > t->clamp_max ? t->clamp_max : z;
   return z;
}

/* One warp for the whole batch at pixel centres. */
static bool shade_pixels(struct gfx_draw *d, const struct raster_warp_batch *b,
                         const struct raster_triangle *const *tris,
                         struct raster_fragment_output *out)
{
   const struct ppu_gfx_program *fp = &d->fp.desc;
   struct ppu_warp *w = run_warp(d, b, tris, (1u << b->count) - 1u, -1);
   if (!w)
      return false;
   bool writes_depth = fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH;
   bool a2c = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 1u;
   for (unsigned i = 0; i < b->count; i++) {
      uint16_t cov = out[i].coverage;
      float alpha[4];
      for (unsigned px = 0; px < 4; px++) {
         unsigned l = 4 * i + px;
         float z = 0.0f;
         uint32_t keep = lane_outputs(d, w, l, &out[i].color[0][px], sizeof(out[i].color[0]), &z);
         alpha[px] = f32_of(w->reg[3][l]); /* target 0's alpha, before alpha to one */
         cov &= (uint16_t) ~((~keep & 0xfu) << (4 * px));
         for (unsigned s = 0; writes_depth && s < 4; s++)
            out[i].depth[4 * px + s] = clamp_depth(tris[i], z);
      }
      if (a2c)
         cov = rop_quad_coverage(cov, alpha, d->pipe.samples_log2, true, 0xfu);
      out[i].coverage = cov;
      out[i].depth_written = writes_depth;
   }
   return true;
}

/* Sample shading: a warp per sample index, holding the quads that cover
 * it; each sample gets its own colors, depth and coverage. */
static bool shade_samples(struct gfx_draw *d, const struct raster_warp_batch *b,
                          const struct raster_triangle *const *tris,
                          struct raster_fragment_output *out)
{
   const struct ppu_gfx_program *fp = &d->fp.desc;
   bool writes_depth = fp->flags & PPU_GFX_PROGRAM_WRITES_DEPTH;
   bool a2c = d->s->word[PPU_GFX_ALPHA_TO_COVERAGE] & 1u;
   uint16_t survived[PPU_GFX_QUADS_PER_WARP] = {0};
   for (unsigned s = 0; s < 4; s++) {
      uint32_t qmask = 0;
      for (unsigned i = 0; i < b->count; i++)
         if (out[i].coverage & (0x1111u << s))
            qmask |= 1u << i;
      if (!qmask)
         continue;
      struct ppu_warp *w = run_warp(d, b, tris, qmask, (int)s);
      if (!w)
         return false;
      for (unsigned i = 0; i < b->count; i++) {
         if (!(qmask & (1u << i)))
            continue;
         for (unsigned px = 0; px < 4; px++) {
            unsigned l = 4 * i + px;
            float z = 0.0f;
            uint32_t keep = lane_outputs(d, w, l, &out[i].sample_color[0][s][px],
                                         sizeof(out[i].sample_color[0]), &z);
            if (a2c)
               keep &= rop_alpha_to_coverage_mask(f32_of(w->reg[3][l]), 2);
            if (keep & (1u << s))
               survived[i] |= (uint16_t)(out[i].coverage & (1u << (4 * px + s)));
            if (writes_depth)
               out[i].depth[4 * px + s] = clamp_depth(tris[i], z);
         }
      }
   }
   for (unsigned i = 0; i < b->count; i++) {
      out[i].coverage = survived[i];
      out[i].per_sample = true;
      out[i].depth_written = writes_depth;
   }
   return true;
}

void gfx_fragment_shade(void *ctx, const struct raster_warp_batch *b,
                        const struct raster_triangle *const *tris,
                        struct raster_fragment_output *out)
{
   struct gfx_draw *d = ctx;
   struct ppu_grid *g = d->fp.grid;
   bool ok = d->fault->kind == PPU_FAULT_NONE && !ppu_grid_aborted(g) && gfx_draw_use_sm(d, 1, g);
   if (ok)
      ok = d->s->word[PPU_GFX_SAMPLE_SHADING] && d->pipe.samples_log2
               ? shade_samples(d, b, tris, out)
               : shade_pixels(d, b, tris, out);
   if (!ok) {
      /* A fault: the draw stops after this primitive; nothing more lands. */
      for (unsigned i = 0; i < b->count; i++)
         out[i].coverage = 0;
   }
}
