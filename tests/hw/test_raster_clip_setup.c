/* Clipping and the setup's planes: near/far and guard-band clipping keeps
 * the geometry (clipped vertices on the original plane, barycentrics that
 * reproduce them, fans that stay inside), clipped neighbours stay
 * watertight, the depth plane and attribute planes match a perspective-
 * correct reference (Vulkan "Basic Polygon Rasterization" barycentric
 * interpolation), depth bias follows the spec's formula, and the tile
 * coalescer packs quads in order. */
#include <stdio.h>
#include <stdlib.h>

#include "raster/raster_clip.h"
#include "raster/raster_coalesce.h"
#include "raster_test_util.h"
#include "test_harness.h"

#define W 64
#define H 64

static void random_clip_triangle(float pos[3][4], double spread)
{
   for (unsigned v = 0; v < 3; v++) {
      float w = (float)rt_uniform(0.2, 3.0);
      if (rt_rng() % 4 == 0)
         w = (float)rt_uniform(-1.0, 0.2); /* behind the eye */
      pos[v][0] = (float)(rt_uniform(-spread, spread) * w);
      pos[v][1] = (float)(rt_uniform(-spread, spread) * w);
      pos[v][2] = (float)(rt_uniform(-0.5, 1.5) * fabs(w));
      pos[v][3] = w;
   }
}

TEST_CASE(clipped_polygons_stay_on_the_triangle_and_inside_every_plane)
{
   struct raster_clip_state cs;
   /* A viewport of 64 pixels; a tiny guard band would clip often, so use
    * the real one and also huge coordinates. */
   raster_clip_state_init(&cs, 32, 32, 32, 32, false, 0);
   unsigned clipped = 0;
   for (unsigned iter = 0; iter < 2000; iter++) {
      float pos[3][4];
      random_clip_triangle(pos, iter % 2 ? 2.0 : 40000.0);
      struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES];
      unsigned n = raster_clip_triangle(&cs, pos, NULL, out);
      clipped += n != 3 && n != 0;
      for (unsigned i = 0; i < n; i++) {
         const float *c = out[i].position;
         float tol = 1e-5f * (fabsf(c[3]) + fabsf(c[2]) + 1.0f);
         CHECK(c[2] >= -tol && c[2] <= c[3] + tol); /* near and far */
         CHECK(c[3] > 0.0f);
         /* On the guard band: the window position fits the setup's range. */
         CHECK(fabsf(32.0f * c[0] / c[3] + 32.0f) < PPU_GFX_GUARD_BAND);
         CHECK(fabsf(32.0f * c[1] / c[3] + 32.0f) < PPU_GFX_GUARD_BAND);
         /* The barycentrics reproduce the vertex and sum to 1. */
         float sum = out[i].bary[0] + out[i].bary[1] + out[i].bary[2];
         CHECK(fabsf(sum - 1.0f) < 1e-4f);
         for (unsigned k = 0; k < 4; k++) {
            float r = out[i].bary[0] * pos[0][k] + out[i].bary[1] * pos[1][k] +
                      out[i].bary[2] * pos[2][k];
            float scale = fabsf(pos[0][k]) + fabsf(pos[1][k]) + fabsf(pos[2][k]) + 1.0f;
            CHECK(fabsf(r - c[k]) <= 1e-4f * scale);
         }
      }
   }
   CHECK(clipped > 100);
}

TEST_CASE(depth_clamp_turns_off_near_and_far_clipping_and_clip_distances_clip)
{
   struct raster_clip_state cs;
   float pos[3][4] = {{0, 0, -0.5f, 1}, {0.5f, 0, 2.0f, 1}, {0, 0.5f, 0.5f, 1}};
   struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES];
   raster_clip_state_init(&cs, 32, 32, 32, 32, true, 0);
   CHECK(raster_clip_triangle(&cs, pos, NULL, out) == 3);
   raster_clip_state_init(&cs, 32, 32, 32, 32, false, 0);
   CHECK(raster_clip_triangle(&cs, pos, NULL, out) > 3);
   /* Clip distance 1 negative at vertex 0 only: the vertex goes. */
   float dist[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{0, -1}, {0, 1}, {0, 1}};
   raster_clip_state_init(&cs, 32, 32, 32, 32, true, 0x2);
   unsigned n =
       raster_clip_triangle(&cs, pos, (const float(*)[PPU_GFX_MAX_CLIP_DISTANCES])dist, out);
   CHECK(n == 4);
   for (unsigned i = 0; i < n; i++)
      CHECK(out[i].bary[0] <= 0.5f + 1e-6f);
   /* Distance 0 is not in the mask: no effect. */
   float dist0[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{-1}, {-1}, {-1}};
   CHECK(raster_clip_triangle(&cs, pos, (const float(*)[PPU_GFX_MAX_CLIP_DISTANCES])dist0, out) ==
         3);
}

/* Vulkan "Clip and Cull Distances": a primitive goes when one cull
 * distance is negative at all its vertices, whatever the others say. */
TEST_CASE(cull_distances_discard_a_primitive_negative_at_every_vertex)
{
   struct raster_clip_state cs;
   raster_clip_state_init(&cs, 32, 32, 32, 32, false, 0x1);
   cs.cull_distance_mask = 0x6;
   typedef const float(*dist_t)[PPU_GFX_MAX_CLIP_DISTANCES];
   /* Distance 2 negative everywhere: culled, as a point, line and triangle. */
   float all[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{0, 1, -1}, {0, -1, -2}, {0, 1, -0.5f}};
   CHECK(raster_clip_culled(&cs, 3, (dist_t)all));
   CHECK(raster_clip_culled(&cs, 2, (dist_t)all));
   CHECK(raster_clip_culled(&cs, 1, (dist_t)all));
   /* Negative at every vertex, but each time another distance: kept. */
   float mixed[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{0, -1, 1}, {0, 1, -1}, {0, -1, 1}};
   CHECK(!raster_clip_culled(&cs, 3, (dist_t)mixed));
   /* Zero is not negative; distance 0 (a clip distance) does not cull. */
   float zero[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{-1, 0, -1}, {-1, -1, 0}, {-1, -1, -1}};
   CHECK(!raster_clip_culled(&cs, 3, (dist_t)zero));
   CHECK(!raster_clip_culled(&cs, 3, NULL));
}

/* Lines are clipped where the interpolated distance crosses 0; a point
 * with a negative (or NaN) clip distance is dropped. */
TEST_CASE(clip_distances_clip_lines_and_drop_points)
{
   struct raster_clip_state cs;
   raster_clip_state_init(&cs, 32, 32, 32, 32, false, 0x4);
   typedef const float(*dist_t)[PPU_GFX_MAX_CLIP_DISTANCES];
   const float pos[2][4] = {{-0.5f, 0, 0.5f, 1}, {0.5f, 0, 0.5f, 1}};
   float d[3][PPU_GFX_MAX_CLIP_DISTANCES] = {{0, -5, -1}, {0, -5, 3}};
   float t0, t1;
   CHECK(raster_clip_line(&cs, pos, (dist_t)d, &t0, &t1));
   CHECK(fabsf(t0 - 0.25f) < 1e-6f && t1 == 1.0f);
   d[1][2] = -1; /* both ends outside */
   CHECK(!raster_clip_line(&cs, pos, (dist_t)d, &t0, &t1));
   CHECK(raster_clip_line(&cs, pos, NULL, &t0, &t1) && t0 == 0.0f && t1 == 1.0f);
   float in[PPU_GFX_MAX_CLIP_DISTANCES] = {-1, -1, 0}, out[PPU_GFX_MAX_CLIP_DISTANCES] = {0, 0, -1};
   CHECK(raster_clip_point(&cs, pos[0], in));
   CHECK(!raster_clip_point(&cs, pos[0], out));
   out[2] = NAN;
   CHECK(!raster_clip_point(&cs, pos[0], out));
   CHECK(raster_clip_point(&cs, pos[0], NULL));
   const float behind[4] = {0, 0, 0.5f, -1};
   CHECK(!raster_clip_point(&cs, behind, in));
}

/* Clips, projects and rasterizes one triangle into tg. */
static void draw_clipped(struct rt_target *tg, const struct raster_clip_state *cs,
                         const float pos[3][4])
{
   struct raster_clip_vertex out[RASTER_CLIP_MAX_VERTICES];
   unsigned n = raster_clip_triangle(cs, pos, NULL, out);
   struct raster_setup_state s = rt_default_setup(W, H);
   for (unsigned i = 1; i + 1 < n; i++) {
      const struct raster_clip_vertex *f[3] = {&out[0], &out[i], &out[i + 1]};
      struct raster_window_vertex v[3];
      for (unsigned k = 0; k < 3; k++) {
         double iw = 1.0 / f[k]->position[3];
         v[k].x = 32.0 * f[k]->position[0] * iw + 32.0;
         v[k].y = 32.0 * f[k]->position[1] * iw + 32.0;
         v[k].z = (float)(f[k]->position[2] * iw);
         v[k].inverse_w = (float)iw;
      }
      struct raster_triangle t;
      if (raster_setup_triangle(&s, v, &t))
         rt_rasterize(&t, tg);
   }
}

TEST_CASE(neighbours_clipped_by_the_near_plane_never_overlap_and_leave_no_holes)
{
   /* A grid of quads in clip space with random w and z, several crossing
    * the near plane; every triangle is drawn (no culling). Samples covered
    * twice would mean clipped shared edges differ; with depth clamp on,
    * nothing is clipped at near/far and the grid (which covers the
    * viewport) must cover every sample exactly once. */
   enum { N = 6 };
   for (unsigned clamp = 0; clamp < 2; clamp++) {
      for (unsigned mesh = 0; mesh < 30; mesh++) {
         struct rt_target tg = {W, H, 4, calloc((size_t)W * H * 4, 1)};
         struct raster_clip_state cs;
         raster_clip_state_init(&cs, 32, 32, 32, 32, clamp, 0);
         float p[N + 1][N + 1][4];
         for (unsigned j = 0; j <= N; j++) {
            for (unsigned i = 0; i <= N; i++) {
               float w = (float)rt_uniform(0.5, 2.0);
               float ndc_x = -1.2f + 2.4f * i / N, ndc_y = -1.2f + 2.4f * j / N;
               p[j][i][0] = ndc_x * w;
               p[j][i][1] = ndc_y * w;
               p[j][i][2] = (float)rt_uniform(-0.6, 1.0) * w;
               p[j][i][3] = w;
            }
         }
         for (unsigned j = 0; j < N; j++) {
            for (unsigned i = 0; i < N; i++) {
               float a[3][4], b[3][4];
               memcpy(a[0], p[j][i], 16), memcpy(a[1], p[j][i + 1], 16);
               memcpy(a[2], p[j + 1][i + 1], 16);
               memcpy(b[0], p[j][i], 16), memcpy(b[1], p[j + 1][i + 1], 16);
               memcpy(b[2], p[j + 1][i], 16);
               draw_clipped(&tg, &cs, a);
               draw_clipped(&tg, &cs, b);
            }
         }
         unsigned twice = 0, holes = 0;
         for (size_t k = 0; k < (size_t)W * H * 4; k++) {
            twice += tg.count[k] > 1;
            holes += tg.count[k] == 0;
         }
         CHECK_MSG(twice == 0, "clamp %u mesh %u: %u samples twice", clamp, mesh, twice);
         if (clamp)
            CHECK_MSG(holes == 0, "mesh %u: %u holes", mesh, holes);
         free(tg.count);
      }
   }
}

static struct raster_window_vertex random_window_vertex(void)
{
   struct raster_window_vertex v;
   v.x = floor(rt_uniform(0, W) * 256) / 256;
   v.y = floor(rt_uniform(0, H) * 256) / 256;
   v.z = (float)rt_uniform(0, 1);
   v.inverse_w = (float)(1.0 / rt_uniform(0.5, 4.0));
   return v;
}

static double eval_plane(const struct raster_triangle *t, struct ppu_gfx_plane p, double x,
                         double y)
{
   return p.a * (x - t->origin_x) + p.b * (y - t->origin_y) + p.c;
}

TEST_CASE(planes_interpolate_depth_linearly_and_attributes_perspective_correctly)
{
   unsigned checked = 0;
   for (unsigned iter = 0; iter < 500; iter++) {
      struct raster_window_vertex v[3] = {random_window_vertex(), random_window_vertex(),
                                          random_window_vertex()};
      struct raster_setup_state s = rt_default_setup(W, H);
      struct raster_triangle t;
      if (!raster_setup_triangle(&s, v, &t))
         continue;
      double x[3], y[3];
      for (unsigned i = 0; i < 3; i++)
         x[i] = v[i].x, y[i] = v[i].y;
      double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
      if (fabs(area) < 4.0)
         continue; /* slivers magnify float error; their planes are still exact enough */
      float attr[3] = {(float)rt_uniform(-10, 10), (float)rt_uniform(-10, 10),
                       (float)rt_uniform(-10, 10)};
      float attr_w[3], one_w[3] = {v[0].inverse_w, v[1].inverse_w, v[2].inverse_w};
      for (unsigned i = 0; i < 3; i++)
         attr_w[i] = attr[i] * one_w[i];
      struct ppu_gfx_plane pa = raster_setup_plane(&t, attr_w);
      struct ppu_gfx_plane pw = raster_setup_plane(&t, one_w);
      for (unsigned k = 0; k < 8; k++) {
         /* A random point inside: reference barycentrics (a, b, c) in
          * window space; Vulkan's perspective-correct value is
          * (a f0/w0 + b f1/w1 + c f2/w2) / (a/w0 + b/w1 + c/w2). */
         double b1 = rt_uniform(0, 1), b2 = rt_uniform(0, 1);
         if (b1 + b2 > 1)
            b1 = 1 - b1, b2 = 1 - b2;
         double b0 = 1 - b1 - b2;
         double px = b0 * x[0] + b1 * x[1] + b2 * x[2], py = b0 * y[0] + b1 * y[1] + b2 * y[2];
         double num = b0 * attr[0] * one_w[0] + b1 * attr[1] * one_w[1] + b2 * attr[2] * one_w[2];
         double den = b0 * one_w[0] + b1 * one_w[1] + b2 * one_w[2];
         double ref = num / den;
         double got = eval_plane(&t, pa, px, py) / eval_plane(&t, pw, px, py);
         CHECK_MSG(fabs(got - ref) < 1e-3, "perspective %f vs %f", got, ref);
         /* Depth: linear in window space (the hardware sample path), at the
          * sample position on the 1/256 grid. */
         double qx = nearbyint(px * 256) / 256, qy = nearbyint(py * 256) / 256;
         double c1 = ((qx - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (qy - y[0])) / area;
         double c2 = ((x[1] - x[0]) * (qy - y[0]) - (qx - x[0]) * (y[1] - y[0])) / area;
         double zref = (1 - c1 - c2) * v[0].z + c1 * v[1].z + c2 * v[2].z;
         float z = raster_sample_depth(&t, (int64_t)(qx * 256), (int64_t)(qy * 256));
         CHECK_MSG(fabs(z - zref) < 1e-3, "depth %f vs %f", z, zref);
         checked++;
      }
   }
   CHECK(checked > 1000);
}

TEST_CASE(depth_bias_is_slope_times_factor_plus_r_times_constant_and_clamps)
{
   /* A plane z = 0.25 + 0.01 x + 0.002 y over window x, y. */
   struct raster_window_vertex v[3] = {{10, 10, 0.25f + 0.1f + 0.02f, 1},
                                       {50, 12, 0.25f + 0.5f + 0.024f, 1},
                                       {20, 50, 0.25f + 0.2f + 0.1f, 1}};
   for (unsigned mode = 0; mode < 4; mode++) {
      struct raster_setup_state s = rt_default_setup(W, H);
      s.depth.bias_enable = true;
      s.depth.bias_constant = 3.0f;
      s.depth.bias_slope = 2.0f;
      s.depth.unorm_bits = mode == 0 ? 16 : mode == 1 ? 24 : 0;
      s.depth.bias_clamp = mode == 3 ? 0.001f : 0.0f;
      struct raster_triangle t;
      REQUIRE(raster_setup_triangle(&s, v, &t));
      double m = 0.01; /* max(|dz/dx|, |dz/dy|) */
      double r;
      if (mode < 2) {
         r = ldexp(1.0, mode == 0 ? -16 : -24);
      } else {
         /* Largest depth 0.95..: exponent -1, r = 2^(-1 - 23). */
         r = ldexp(1.0, -24);
      }
      double o = m * 2.0 + r * 3.0;
      if (mode == 3)
         o = fmin(o, 0.001);
      CHECK_MSG(fabs(t.depth_bias - o) < 1e-6, "mode %u: bias %g vs %g", mode, t.depth_bias, o);
      float z = raster_sample_depth(&t, 20 * 256, 20 * 256);
      CHECK(fabs(z - (0.25 + 0.2 + 0.04 + o)) < 1e-4);
   }
   /* Depth clamp bounds every sample. */
   struct raster_setup_state s = rt_default_setup(W, H);
   s.depth.clamp_enable = true;
   s.depth.clamp_min = 0.6f;
   s.depth.clamp_max = 0.3f; /* either order */
   struct raster_triangle t;
   REQUIRE(raster_setup_triangle(&s, v, &t));
   CHECK(raster_sample_depth(&t, 10 * 256, 10 * 256) == 0.37f);
   CHECK(raster_sample_depth(&t, 50 * 256, 12 * 256) == 0.6f);
}

TEST_CASE(fine_raster_quads_carry_per_sample_depth_and_helpers)
{
   /* A triangle covering only pixel (5, 5)'s centre: one quad at (4, 4)
    * with one covered pixel (lane 3) and three helpers. */
   struct raster_window_vertex v[3] = {
       {5.25, 5.25, 0.5f, 1}, {5.75, 5.25, 0.5f, 1}, {5.5, 5.75, 0.5f, 1}};
   struct raster_setup_state s = rt_default_setup(W, H);
   struct raster_triangle t;
   REQUIRE(raster_setup_triangle(&s, v, &t));
   struct raster_quad q[RASTER_QUADS_PER_TILE];
   unsigned n = raster_fine_tile(&t, 0, 0, 0, 0xf, false, q);
   REQUIRE(n == 1);
   CHECK(q[0].x == 4 && q[0].y == 4);
   CHECK(q[0].coverage == RASTER_COVERAGE_BIT(3, 0));
   CHECK(q[0].depth[3 * 4] == 0.5f);
   /* The sample mask removes samples. */
   n = raster_fine_tile(&t, 0, 0, 0, 0xe, false, q);
   CHECK(n == 0);
}

TEST_CASE(coalescer_packs_eight_quads_per_warp_in_order_and_splits_on_overlap)
{
   struct raster_coalescer c;
   struct raster_warp_batch full;
   raster_coalescer_init(&c, false);
   unsigned launched = 0, next_expected = 0;
   for (unsigned i = 0; i < 20; i++) {
      struct raster_quad q = {(int32_t)(2 * i), 0, 1, 0, {0}};
      if (raster_coalescer_add(&c, &q, i, &full)) {
         CHECK(full.count == 8);
         for (unsigned k = 0; k < full.count; k++)
            CHECK(full.primitive[k] == next_expected++);
         launched++;
      }
   }
   CHECK(launched == 2);
   CHECK(raster_coalescer_flush(&c, &full) && full.count == 4 && full.primitive[0] == 16);
   CHECK(!raster_coalescer_flush(&c, &full));
   /* Ordered: a second quad at the same position starts a new warp. */
   struct raster_quad a = {0, 0, 1, 0, {0}};
   CHECK(!raster_coalescer_add(&c, &a, 0, &full));
   CHECK(raster_coalescer_add(&c, &a, 1, &full) && full.count == 1);
   raster_coalescer_init(&c, true);
   CHECK(!raster_coalescer_add(&c, &a, 0, &full));
   CHECK(!raster_coalescer_add(&c, &a, 1, &full));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
