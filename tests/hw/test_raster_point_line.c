/* Points and lines through setup and the fine raster: a point covers
 * exactly the samples of its half-open square; a width-1 line covers one
 * sample per column (x-major) or row (y-major) of its half-open extent,
 * near the ideal line; polylines never cover a sample twice; depth is
 * interpolated along the line. */
#include <stdio.h>
#include <stdlib.h>

#include "raster/raster_point_line.h"
#include "raster_test_util.h"
#include "test_harness.h"

#define W 64
#define H 64

static void draw_quadrilateral(struct rt_target *tg, const struct raster_quadrilateral *q)
{
   struct raster_setup_state s = rt_default_setup(W, H);
   s.cull = PPU_GFX_CULL_FRONT | PPU_GFX_CULL_BACK; /* ignored for points and lines */
   struct raster_triangle t[2];
   unsigned n = raster_setup_quadrilateral(&s, q, t);
   for (unsigned i = 0; i < n; i++) {
      CHECK(t[i].front_facing);
      rt_rasterize(&t[i], tg);
   }
}

TEST_CASE(points_cover_exactly_their_half_open_square)
{
   for (unsigned iter = 0; iter < 300; iter++) {
      unsigned samples = iter % 2 ? 4 : 1;
      struct rt_target tg = {W, H, samples, calloc((size_t)W * H * 4, 1)};
      struct raster_window_vertex v = {floor(rt_uniform(4, 60) * 16) / 16,
                                       floor(rt_uniform(4, 60) * 16) / 16, 0.5f, 1.0f};
      float size = (float)(floor(rt_uniform(0.5, 8) * 4) / 4);
      struct raster_quadrilateral q;
      raster_point_quadrilateral(&v, size, &q);
      draw_quadrilateral(&tg, &q);
      unsigned bad = 0;
      int64_t x0 = rt_snap(v.x - size / 2.0), x1 = rt_snap(v.x + size / 2.0);
      int64_t y0 = rt_snap(v.y - size / 2.0), y1 = rt_snap(v.y + size / 2.0);
      for (int32_t py = 0; py < H; py++) {
         for (int32_t px = 0; px < W; px++) {
            for (unsigned smp = 0; smp < samples; smp++) {
               double ox, oy;
               rt_sample_position(samples, smp, &ox, &oy);
               int64_t sx = rt_snap(px + ox), sy = rt_snap(py + oy);
               bool in = sx >= x0 && sx < x1 && sy >= y0 && sy < y1;
               bad += tg.count[((size_t)py * W + px) * 4 + smp] != (in ? 1 : 0);
            }
         }
      }
      CHECK_MSG(bad == 0, "point %u: %u samples differ", iter, bad);
      free(tg.count);
   }
}

TEST_CASE(width_one_lines_cover_one_sample_per_major_step_near_the_line)
{
   for (unsigned iter = 0; iter < 400; iter++) {
      struct rt_target tg = {W, H, 1, calloc((size_t)W * H * 4, 1)};
      struct raster_window_vertex a = {rt_uniform(2, 62), rt_uniform(2, 62), 0.0f, 1.0f};
      struct raster_window_vertex b = {rt_uniform(2, 62), rt_uniform(2, 62), 1.0f, 1.0f};
      if (iter % 4 == 0) { /* on the pixel grid: ties on both long edges */
         a.x = floor(a.x) + 0.5, a.y = floor(a.y) + 0.5;
         b.x = floor(b.x) + 0.5, b.y = a.y + (iter % 8 ? 0 : floor(b.y - a.y));
      }
      a.x = floor(a.x * 256) / 256, a.y = floor(a.y * 256) / 256;
      b.x = floor(b.x * 256) / 256, b.y = floor(b.y * 256) / 256;
      struct raster_quadrilateral q;
      raster_line_quadrilateral(&a, &b, 1.0f, &q);
      draw_quadrilateral(&tg, &q);
      bool x_major = fabs(b.x - a.x) >= fabs(b.y - a.y);
      /* Major coordinate of pixel centres in [min, max) of the segment. */
      double lo = x_major ? fmin(a.x, b.x) : fmin(a.y, b.y);
      double hi = x_major ? fmax(a.x, b.x) : fmax(a.y, b.y);
      for (int32_t m = 0; m < 64; m++) {
         double c = m + 0.5;
         unsigned count = 0;
         int32_t where = -1;
         for (int32_t n = 0; n < 64; n++) {
            int32_t px = x_major ? m : n, py = x_major ? n : m;
            if (tg.count[((size_t)py * W + px) * 4]) {
               count++;
               where = n;
            }
         }
         bool inside = c >= lo && c < hi;
         CHECK_MSG(count == (inside ? 1u : 0u), "line %u, step %d: %u samples", iter, m, count);
         if (count == 1) {
            /* The minor coordinate of the ideal line at c. */
            double t = x_major ? (c - a.x) / (b.x - a.x) : (c - a.y) / (b.y - a.y);
            double ideal = x_major ? a.y + t * (b.y - a.y) : a.x + t * (b.x - a.x);
            CHECK(fabs(where + 0.5 - ideal) <= 0.5 + 1.0 / 256);
         }
      }
      free(tg.count);
   }
}

TEST_CASE(polylines_and_wide_lines_never_cover_a_sample_twice)
{
   for (unsigned iter = 0; iter < 100; iter++) {
      struct rt_target tg = {W, H, 4, calloc((size_t)W * H * 4, 1)};
      float width = (float)rt_uniform(0.5, 4);
      struct raster_window_vertex prev = {rt_uniform(4, 60), rt_uniform(4, 60), 0.5f, 1.0f};
      /* A monotonic x-major polyline: joints of collinear-direction
       * segments share their end column exactly once. */
      prev.x = 2.0;
      for (unsigned k = 0; k < 6; k++) {
         struct raster_window_vertex next = {prev.x + floor(rt_uniform(3, 10) * 256) / 256,
                                             prev.y + rt_uniform(-2, 2), 0.5f, 1.0f};
         next.y = floor(next.y * 256) / 256;
         struct raster_quadrilateral q;
         raster_line_quadrilateral(&prev, &next, width, &q);
         draw_quadrilateral(&tg, &q);
         prev = next;
      }
      unsigned twice = 0;
      for (size_t i = 0; i < (size_t)W * H * 4; i++)
         twice += tg.count[i] > 1;
      CHECK_MSG(twice == 0, "polyline %u: %u samples twice", iter, twice);
      free(tg.count);
   }
}

TEST_CASE(line_depth_and_attributes_interpolate_between_the_endpoints)
{
   struct raster_window_vertex a = {4.5, 10.5, 0.25f, 1.0f}, b = {36.5, 18.5, 0.75f, 1.0f};
   struct raster_quadrilateral q;
   raster_line_quadrilateral(&a, &b, 2.0f, &q);
   struct raster_setup_state s = rt_default_setup(W, H);
   struct raster_triangle t[2];
   REQUIRE(raster_setup_quadrilateral(&s, &q, t) == 2);
   const float value[2] = {3.0f, 7.0f};
   for (unsigned i = 0; i < 2; i++) {
      /* The triangles' corners: 0 1 2 and 0 2 3. */
      const unsigned corner[2][3] = {{0, 1, 2}, {0, 2, 3}};
      float v[3];
      for (unsigned k = 0; k < 3; k++)
         v[k] = value[q.endpoint[corner[i][k]]];
      struct ppu_gfx_plane p = raster_setup_plane(&t[i], v);
      for (double x = 5; x < 36; x += 3.5) {
         double f = (x - a.x) / (b.x - a.x);
         double y = a.y + f * (b.y - a.y);
         double got = p.a * (x - t[i].origin_x) + p.b * (y - t[i].origin_y) + p.c;
         CHECK(fabs(got - (3.0 + 4.0 * f)) < 1e-4);
         float z = raster_sample_depth(&t[i], (int64_t)(x * 256), (int64_t)(y * 256));
         CHECK(fabs(z - (0.25 + 0.5 * f)) < 1e-4);
      }
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
