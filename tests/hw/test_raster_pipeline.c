/* The raster engine's top level against a brute-force renderer: random
 * scenes of flat triangles (one depth each, so no ties) drawn with LESS
 * and writes into an R32_UINT target holding the triangle's number must
 * match, sample by sample, what the spec's coverage rule and depth test
 * give, and the occlusion count must equal the reference's passing
 * samples; with and without hi-Z, early and late tests, 1x and 4x, and
 * with a fragment program that discards. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "raster/raster_pipeline.h"
#include "raster_test_util.h"
#include "test_harness.h"

#define W 48
#define H 40
#define TRIS 60

struct scene {
   float pos[TRIS][3][4];
   uint32_t id[TRIS];
};

/* The fragment program: output the triangle's number (from the test's
 * table via the quad's primitive index); optionally discard pixel 0 of
 * every quad. */
struct shade_ctx {
   const struct scene *sc;
   bool discard;
};

static void shade(void *c, const struct raster_warp_batch *b,
                  const struct raster_triangle *const *tris, struct raster_fragment_output *out)
{
   struct shade_ctx *ctx = c;
   (void)tris;
   for (unsigned i = 0; i < b->count; i++) {
      for (unsigned p = 0; p < 4; p++) {
         struct ppu_texel t = {{{0}}};
         t.u[0] = ctx->sc->id[b->primitive[i]];
         out[i].color[0][p] = t;
      }
      if (ctx->discard)
         out[i].coverage &= 0xfff0;
   }
}

static void random_scene(struct scene *sc)
{
   for (unsigned t = 0; t < TRIS; t++) {
      float z = (float)rt_uniform(0.05, 0.95);
      for (unsigned v = 0; v < 3; v++) {
         /* Inside the view volume (no clipping), some large, some small. */
         double r = t % 4 == 0 ? 1.0 : 0.3;
         double cx = rt_uniform(-1, 1), cy = rt_uniform(-1, 1);
         sc->pos[t][v][0] = (float)fmax(-1, fmin(1, cx + rt_uniform(-r, r)));
         sc->pos[t][v][1] = (float)fmax(-1, fmin(1, cy + rt_uniform(-r, r)));
         sc->pos[t][v][2] = z;
         sc->pos[t][v][3] = 1.0f;
      }
      sc->id[t] = t + 1;
   }
}

/* A pipeline over a W x H R32_UINT target (and optional depth) with the
 * viewport covering it, no depth test, write mask RGBA. */
static void init_pipeline(struct raster_pipeline *p, struct rop_surface *color,
                          struct rop_surface *depth, unsigned samples_log2, struct shade_ctx *ctx)
{
   memset(p, 0, sizeof(*p));
   raster_clip_state_init(&p->clip, W / 2.0f, W / 2.0f, H / 2.0f, H / 2.0f, false, 0);
   p->setup = rt_default_setup(W, H);
   p->viewport_scale[0] = W / 2.0f, p->viewport_offset[0] = W / 2.0f;
   p->viewport_scale[1] = H / 2.0f, p->viewport_offset[1] = H / 2.0f;
   p->viewport_scale[2] = 1.0f;
   p->samples_log2 = samples_log2;
   p->sample_mask = 0xf;
   p->blend.target[0].write_mask = 0xf;
   p->color[0] = color;
   p->depth = depth;
   p->line_width = 1.0f;
   p->shade = shade;
   p->shade_ctx = ctx;
}

/* One 1x R32_UINT target and a pipeline drawing primitive k as k + 1. */
struct fixture {
   struct scene sc;
   uint32_t *color;
   struct rop_surface cs;
   struct shade_ctx ctx;
   struct raster_pipeline p;
};

static void fixture_init(struct fixture *f)
{
   memset(&f->sc, 0, sizeof(f->sc));
   for (unsigned k = 0; k < TRIS; k++)
      f->sc.id[k] = k + 1; /* the shader writes it: never 0 */
   f->color = calloc((size_t)W * H, 4);
   rop_surface_init(&f->cs, (uint8_t *)f->color, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                    W * 4, W, H, 0);
   f->ctx = (struct shade_ctx){&f->sc, false};
   init_pipeline(&f->p, &f->cs, NULL, 0, &f->ctx);
}

static void render(const struct scene *sc, unsigned samples_log2, bool use_hiz, bool discard,
                   uint32_t *color_mem, float *depth_mem, uint64_t *passed)
{
   unsigned scale = samples_log2 ? 2 : 1;
   memset(color_mem, 0, (size_t)W * H * 4 * scale * scale);
   for (unsigned i = 0; i < W * H * scale * scale; i++)
      depth_mem[i] = 1.0f;
   struct rop_surface color, depth;
   rop_surface_init(&color, (uint8_t *)color_mem, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                    W * 4 * scale, W, H, samples_log2);
   rop_surface_init(&depth, (uint8_t *)depth_mem, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR,
                    0, W * 4 * scale, W, H, samples_log2);
   struct raster_hiz hiz;
   raster_hiz_init(&hiz, W, H);
   raster_hiz_clear(&hiz, 1.0f);
   struct shade_ctx ctx = {sc, discard};
   struct raster_pipeline p;
   init_pipeline(&p, &color, &depth, samples_log2, &ctx);
   p.zs.depth_test = p.zs.depth_write = true;
   p.zs.depth_op = PPU_GFX_COMPARE_LESS;
   p.hiz = use_hiz ? &hiz : NULL;
   p.program_flags = discard ? PPU_GFX_PROGRAM_MAY_DISCARD : 0;
   for (unsigned t = 0; t < TRIS; t++)
      raster_pipeline_triangle(&p, sc->pos[t]);
   *passed = p.samples_passed;
   CHECK(p.primitives == TRIS);
   if (use_hiz && !discard)
      CHECK(p.tiles_hiz_culled > 0);
   raster_hiz_free(&hiz);
}

TEST_CASE(pipeline_matches_a_brute_force_renderer_sample_by_sample)
{
   uint32_t *color = malloc((size_t)W * H * 16);
   float *depth = malloc((size_t)W * H * 16);
   uint32_t *ref_color = malloc((size_t)W * H * 16);
   float *ref_depth = malloc((size_t)W * H * 16);
   for (unsigned scene_i = 0; scene_i < 24; scene_i++) {
      struct scene sc;
      random_scene(&sc);
      unsigned samples_log2 = scene_i % 2 ? 2 : 0, samples = samples_log2 ? 4 : 1;
      bool use_hiz = (scene_i / 2) % 2, discard = (scene_i / 4) % 2;
      /* Reference: snapped window vertices, the spec's coverage rule, LESS. */
      uint64_t ref_passed = 0;
      for (unsigned i = 0; i < W * H * 4; i++)
         ref_color[i] = 0, ref_depth[i] = 1.0f;
      for (unsigned t = 0; t < TRIS; t++) {
         int64_t x[3], y[3];
         for (unsigned v = 0; v < 3; v++) {
            x[v] = rt_snap(sc.pos[t][v][0] * (W / 2.0) + W / 2.0);
            y[v] = rt_snap(sc.pos[t][v][1] * (H / 2.0) + H / 2.0);
         }
         float z = sc.pos[t][0][2];
         for (int32_t py = 0; py < H; py++) {
            for (int32_t px = 0; px < W; px++) {
               if (discard && px % 2 == 0 && py % 2 == 0)
                  continue;
               for (unsigned s = 0; s < samples; s++) {
                  double ox, oy;
                  rt_sample_position(samples, s, &ox, &oy);
                  if (!rt_reference_covered(x, y, rt_snap(px + ox), rt_snap(py + oy)))
                     continue;
                  size_t k = ((size_t)py * W + px) * 4 + s;
                  if (z < ref_depth[k]) {
                     ref_depth[k] = z;
                     ref_color[k] = sc.id[t];
                     ref_passed++;
                  }
               }
            }
         }
      }
      uint64_t passed;
      render(&sc, samples_log2, use_hiz, discard, color, depth, &passed);
      struct rop_surface cs;
      rop_surface_init(&cs, (uint8_t *)color, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                       W * 4 * (samples == 4 ? 2 : 1), W, H, samples_log2);
      unsigned bad = 0;
      for (int32_t py = 0; py < H; py++) {
         for (int32_t px = 0; px < W; px++) {
            for (unsigned s = 0; s < samples; s++) {
               uint32_t got;
               memcpy(&got, rop_surface_sample(&cs, (uint32_t)px, (uint32_t)py, s), 4);
               bad += got != ref_color[((size_t)py * W + px) * 4 + s];
            }
         }
      }
      CHECK_MSG(bad == 0, "scene %u (%ux, hi-Z %d, discard %d): %u samples differ", scene_i,
                samples, use_hiz, discard, bad);
      CHECK_MSG(passed == ref_passed, "scene %u: %llu samples passed, reference %llu", scene_i,
                (unsigned long long)passed, (unsigned long long)ref_passed);
   }
   free(color);
   free(depth);
   free(ref_color);
   free(ref_depth);
}

TEST_CASE(triangles_crossing_the_near_plane_are_clipped_not_dropped)
{
   /* One vertex behind the near plane: the visible part is drawn. */
   const float tri[3][4] = {{-0.8f, -0.8f, 0.5f, 1}, {0.8f, -0.8f, 0.5f, 1}, {0, 0.8f, -0.5f, 1}};
   struct fixture fx;
   fixture_init(&fx);
   struct raster_pipeline *pp = &fx.p;
   uint32_t *color = fx.color;
   fx.sc.id[0] = 7;
   raster_pipeline_triangle(pp, tri);
   /* z reaches 0 half way up both edges to the apex (ndc y = 0, window
    * y = H/2): only the part below that line (window y < H/2) is drawn. */
   unsigned drawn = 0, wrong = 0;
   for (int32_t y = 0; y < H; y++) {
      for (int32_t x = 0; x < W; x++) {
         if (color[y * W + x] == 7) {
            drawn++;
            wrong += (y + 0.5) > H / 2.0; /* the clipped part lies above ndc y = 0 */
         }
      }
   }
   CHECK(drawn > 100);
   CHECK(wrong == 0);
   CHECK(pp->primitives == 1 && pp->primitives_culled == 0);
   free(color);
}

/* Pixels (1x) the pipeline wrote, as a bitmap. */
static void written(const uint32_t *color, uint8_t *out)
{
   for (unsigned i = 0; i < W * H; i++)
      out[i] = color[i] != 0;
}

TEST_CASE(polygon_mode_line_draws_the_edges_with_the_polygons_facing_and_culling)
{
   struct scene sc;
   memset(&sc, 0, sizeof(sc));
   for (unsigned k = 0; k < TRIS; k++)
      sc.id[k] = k + 1; /* the shader writes it: never 0 */
   uint32_t *a = calloc((size_t)W * H, 4), *b = calloc((size_t)W * H, 4);
   uint8_t wa[W * H], wb[W * H];
   struct rop_surface sa, sb;
   REQUIRE(rop_surface_init(&sa, (uint8_t *)a, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                            W * 4, W, H, 0));
   REQUIRE(rop_surface_init(&sb, (uint8_t *)b, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_LAYOUT_LINEAR, 0,
                            W * 4, W, H, 0));
   struct shade_ctx ctx = {&sc, false};
   for (unsigned iter = 0; iter < 40; iter++) {
      float tri[3][4];
      for (unsigned v = 0; v < 3; v++) {
         tri[v][0] = (float)rt_uniform(-0.9, 0.9), tri[v][1] = (float)rt_uniform(-0.9, 0.9);
         tri[v][2] = 0.5f, tri[v][3] = 1.0f;
      }
      memset(a, 0, (size_t)W * H * 4);
      memset(b, 0, (size_t)W * H * 4);
      struct raster_pipeline p, q;
      init_pipeline(&p, &sa, NULL, 0, &ctx);
      init_pipeline(&q, &sb, NULL, 0, &ctx);
      p.polygon_mode = 1;
      p.line_width = q.line_width = 1.5f;
      raster_pipeline_triangle(&p, (const float(*)[4])tri);
      for (unsigned e = 0; e < 3; e++) {
         const float seg[2][4] = {
             {tri[e][0], tri[e][1], tri[e][2], tri[e][3]},
             {tri[(e + 1) % 3][0], tri[(e + 1) % 3][1], tri[(e + 1) % 3][2], tri[(e + 1) % 3][3]}};
         raster_pipeline_line(&q, seg);
      }
      written(a, wa);
      written(b, wb);
      CHECK(memcmp(wa, wb, sizeof(wa)) == 0);
      /* Culling the polygon's own face draws nothing; the other face draws. */
      bool front;
      struct raster_window_vertex w[3];
      for (unsigned v = 0; v < 3; v++) {
         w[v].x = tri[v][0] * W / 2.0 + W / 2.0, w[v].y = tri[v][1] * H / 2.0 + H / 2.0;
         w[v].z = 0.5f, w[v].inverse_w = 1.0f;
      }
      struct raster_setup_state s = rt_default_setup(W, H);
      if (raster_setup_culls(&s, w, &front))
         continue; /* degenerate */
      memset(a, 0, (size_t)W * H * 4);
      init_pipeline(&p, &sa, NULL, 0, &ctx);
      p.polygon_mode = 1;
      p.setup.cull = front ? PPU_GFX_CULL_FRONT : PPU_GFX_CULL_BACK;
      raster_pipeline_triangle(&p, (const float(*)[4])tri);
      CHECK(p.primitives_culled == 1);
      written(a, wa);
      unsigned any = 0;
      for (unsigned i = 0; i < W * H; i++)
         any += wa[i];
      CHECK(any == 0);
      p.setup.cull = front ? PPU_GFX_CULL_BACK : PPU_GFX_CULL_FRONT;
      raster_pipeline_triangle(&p, (const float(*)[4])tri);
      CHECK(p.primitives_culled == 1);
   }
   free(a);
   free(b);
}

TEST_CASE(polygon_mode_point_and_points_cover_the_pixel_of_each_vertex)
{
   struct fixture fx;
   fixture_init(&fx);
   struct raster_pipeline *pp = &fx.p;
   uint32_t *color = fx.color;
   pp->polygon_mode = 2;
   /* Vertices at pixel centres (10.5, 5.5), (30.5, 8.5), (20.5, 30.5). */
   const float tri[3][4] = {{10.5f / 24 - 1, 5.5f / 20 - 1, 0.5f, 1},
                            {30.5f / 24 - 1, 8.5f / 20 - 1, 0.5f, 1},
                            {20.5f / 24 - 1, 30.5f / 20 - 1, 0.5f, 1}};
   raster_pipeline_triangle(pp, tri);
   unsigned n = 0;
   for (unsigned i = 0; i < W * H; i++)
      n += color[i] != 0;
   CHECK(n == 3);
   CHECK(color[5 * W + 10] && color[8 * W + 30] && color[30 * W + 20]);
   /* Points: outside near/far they are dropped, unless depth clamp. */
   memset(color, 0, (size_t)W * H * 4);
   const float behind[4] = {0, 0, -0.5f, 1};
   raster_pipeline_point(pp, behind, 3.0f);
   CHECK(color[20 * W + 24] == 0);
   pp->clip.depth_clamp = true;
   raster_pipeline_point(pp, behind, 3.0f);
   /* A 3-pixel square centred on (24, 20) spans [22.5, 25.5) x [18.5,
    * 21.5): the centres of pixels 22..24 x 18..20 (left and top sides in,
    * right and bottom out). */
   n = 0;
   for (int32_t y = 0; y < H; y++) {
      for (int32_t x = 0; x < W; x++) {
         bool in = x >= 22 && x <= 24 && y >= 18 && y <= 20;
         n += (color[y * W + x] != 0) != in;
      }
   }
   CHECK(n == 0);
   /* Sizes are clamped to [1, PPU_GFX_MAX_POINT_SIZE]: 100 at pixel (0, 0)
    * covers the 64x64 square around it, the 32x32 of it on the target; a
    * NaN size one pixel. */
   memset(color, 0, (size_t)W * H * 4);
   const float corner[4] = {0.5f / 24 - 1, 0.5f / 20 - 1, 0.5f, 1};
   raster_pipeline_point(pp, corner, 100.0f);
   n = 0;
   for (int32_t y = 0; y < H; y++)
      for (int32_t x = 0; x < W; x++)
         n += (color[y * W + x] != 0) != (x < 32 && y < 32);
   CHECK_MSG(n == 0, "%u pixels differ from a clamped 64-pixel point", n);
   memset(color, 0, (size_t)W * H * 4);
   raster_pipeline_point(pp, corner, NAN);
   n = 0;
   for (unsigned i = 0; i < W * H; i++)
      n += color[i] != 0;
   CHECK(n == 1 && color[0] != 0);
   free(color);
}

TEST_CASE(lines_are_clipped_at_the_near_plane)
{
   struct fixture fx;
   fixture_init(&fx);
   struct raster_pipeline *pp = &fx.p;
   uint32_t *color = fx.color;
   /* Horizontal through window y 20.5; z from 0.5 at x = 4 to -0.5 at x =
    * 44: only x < 24 (z >= 0) is drawn. */
   const float seg[2][4] = {{4.0f / 24 - 1, 0.5f / 20, 0.5f, 1},
                            {44.0f / 24 - 1, 0.5f / 20, -0.5f, 1}};
   raster_pipeline_line(pp, seg);
   unsigned drawn = 0, wrong = 0;
   for (int32_t x = 0; x < W; x++) {
      bool on = color[20 * W + x] != 0;
      drawn += on;
      wrong += on && (x < 4 || x >= 24);
   }
   CHECK(drawn == 20);
   CHECK(wrong == 0);
   free(color);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
