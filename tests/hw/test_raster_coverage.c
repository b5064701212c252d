/* Raster coverage: setup + coarse + fine raster against a brute-force
 * evaluation of Vulkan's coverage rule per sample (inside, or on a top or
 * left edge), for single triangles, random meshes and fans whose shared
 * edges must cover every sample exactly once, 1x and 4x, scissors, facing
 * and culling, and the coarse raster's tile classes. */
#include <stdio.h>
#include <stdlib.h>

#include "raster_test_util.h"
#include "test_harness.h"

#define W 64
#define H 64

static struct rt_target new_target(unsigned samples)
{
   struct rt_target t = {W, H, samples, calloc((size_t)W * H * 4, 1)};
   return t;
}

static struct raster_window_vertex wv(double x, double y)
{
   struct raster_window_vertex v = {x, y, 0.5f, 1.0f};
   return v;
}

/* A coordinate on a coarse grid (so samples often sit exactly on edges) or
 * anywhere on the 1/256 grid. */
static double random_coord(double lo, double hi, bool coarse)
{
   double v = rt_uniform(lo, hi);
   return coarse ? floor(v * 8.0) / 8.0 : floor(v * 256.0) / 256.0;
}

static unsigned compare_with_reference(const struct rt_target *tg, const int64_t x[3],
                                       const int64_t y[3], const struct raster_rect *clip)
{
   unsigned bad = 0;
   for (int32_t py = 0; py < tg->height; py++) {
      for (int32_t px = 0; px < tg->width; px++) {
         for (unsigned s = 0; s < tg->samples; s++) {
            double ox, oy;
            rt_sample_position(tg->samples, s, &ox, &oy);
            bool in_clip = px >= clip->x0 && px < clip->x1 && py >= clip->y0 && py < clip->y1;
            bool ref = in_clip && rt_reference_covered(x, y, rt_snap(px + ox), rt_snap(py + oy));
            unsigned got = tg->count[((size_t)py * tg->width + px) * 4 + s];
            if (got != (ref ? 1u : 0u))
               bad++;
         }
      }
   }
   return bad;
}

TEST_CASE(single_triangles_cover_exactly_the_samples_of_the_reference)
{
   for (unsigned samples = 1; samples <= 4; samples += 3) {
      struct rt_target tg = new_target(samples);
      for (unsigned iter = 0; iter < 400; iter++) {
         bool coarse = iter % 2 == 0;
         struct raster_window_vertex v[3];
         int64_t x[3], y[3];
         for (unsigned i = 0; i < 3; i++) {
            v[i] = wv(random_coord(-8, W + 8, coarse), random_coord(-8, H + 8, coarse));
            x[i] = rt_snap(v[i].x);
            y[i] = rt_snap(v[i].y);
         }
         struct raster_setup_state s = rt_default_setup(W, H);
         struct raster_triangle t;
         memset(tg.count, 0, (size_t)W * H * 4);
         bool live = raster_setup_triangle(&s, v, &t);
         if (live) {
            struct rt_walk_ctx c = rt_rasterize(&t, &tg);
            CHECK(c.empty_quads == 0);
            CHECK(c.odd_quads == 0);
         }
         unsigned bad = compare_with_reference(&tg, x, y, &s.clip);
         CHECK_MSG(bad == 0, "iteration %u, %u samples: %u samples differ", iter, samples, bad);
      }
      free(tg.count);
   }
}

/* Rasterizes a triangle with a random vertex rotation and winding. */
static void draw(struct rt_target *tg, const struct raster_setup_state *s, double ax, double ay,
                 double bx, double by, double cx, double cy)
{
   struct raster_window_vertex v[3] = {wv(ax, ay), wv(bx, by), wv(cx, cy)};
   if (rt_rng() & 1) {
      struct raster_window_vertex tmp = v[1];
      v[1] = v[2];
      v[2] = tmp;
   }
   unsigned r = rt_rng() % 3;
   struct raster_window_vertex w[3] = {v[r], v[(r + 1) % 3], v[(r + 2) % 3]};
   struct raster_triangle t;
   if (raster_setup_triangle(s, w, &t))
      rt_rasterize(&t, tg);
}

TEST_CASE(random_meshes_cover_every_sample_exactly_once)
{
   enum { N = 9 };
   for (unsigned samples = 1; samples <= 4; samples += 3) {
      for (unsigned mesh = 0; mesh < 40; mesh++) {
         struct rt_target tg = new_target(samples);
         struct raster_setup_state s = rt_default_setup(W, H);
         double px[N + 1][N + 1], py[N + 1][N + 1];
         double cell = (W + 16.0) / N;
         /* Quarter-pixel grid: many samples of 4x (and pixel centres of
          * 1x) land exactly on shared edges and vertices. */
         for (unsigned j = 0; j <= N; j++) {
            for (unsigned i = 0; i <= N; i++) {
               double jx = (i == 0 || i == N) ? 0 : rt_uniform(-0.2, 0.2) * cell;
               double jy = (j == 0 || j == N) ? 0 : rt_uniform(-0.2, 0.2) * cell;
               px[j][i] = floor((-8.0 + i * cell + jx) * 4.0) / 4.0;
               py[j][i] = floor((-8.0 + j * cell + jy) * 4.0) / 4.0;
            }
         }
         for (unsigned j = 0; j < N; j++) {
            for (unsigned i = 0; i < N; i++) {
               if (rt_rng() & 1) {
                  draw(&tg, &s, px[j][i], py[j][i], px[j][i + 1], py[j][i + 1], px[j + 1][i + 1],
                       py[j + 1][i + 1]);
                  draw(&tg, &s, px[j][i], py[j][i], px[j + 1][i + 1], py[j + 1][i + 1],
                       px[j + 1][i], py[j + 1][i]);
               } else {
                  draw(&tg, &s, px[j][i], py[j][i], px[j][i + 1], py[j][i + 1], px[j + 1][i],
                       py[j + 1][i]);
                  draw(&tg, &s, px[j][i + 1], py[j][i + 1], px[j + 1][i + 1], py[j + 1][i + 1],
                       px[j + 1][i], py[j + 1][i]);
               }
            }
         }
         unsigned bad = 0;
         for (size_t p = 0; p < (size_t)W * H; p++) {
            for (unsigned smp = 0; smp < samples; smp++)
               bad += tg.count[p * 4 + smp] != 1;
         }
         CHECK_MSG(bad == 0, "mesh %u, %u samples: %u samples not covered exactly once", mesh,
                   samples, bad);
         free(tg.count);
      }
   }
}

TEST_CASE(fans_cover_each_sample_once_and_as_the_reference_says)
{
   for (unsigned fan = 0; fan < 60; fan++) {
      unsigned samples = fan % 2 ? 4 : 1;
      struct rt_target tg = new_target(samples);
      struct raster_setup_state s = rt_default_setup(W, H);
      double cx = floor(rt_uniform(16, 48) * 2) / 2, cy = floor(rt_uniform(16, 48) * 2) / 2;
      unsigned k = 3 + rt_rng() % 14;
      double vx[17], vy[17];
      for (unsigned i = 0; i < k; i++) {
         double ang = 2 * M_PI * (i + rt_uniform(0, 0.5)) / k;
         double r = rt_uniform(4, 40);
         vx[i] = floor((cx + r * cos(ang)) * 2) / 2;
         vy[i] = floor((cy + r * sin(ang)) * 2) / 2;
      }
      uint8_t *expected = calloc((size_t)W * H * 4, 1);
      for (unsigned i = 0; i < k; i++) {
         unsigned j = (i + 1) % k;
         draw(&tg, &s, cx, cy, vx[i], vy[i], vx[j], vy[j]);
         int64_t x[3] = {rt_snap(cx), rt_snap(vx[i]), rt_snap(vx[j])};
         int64_t y[3] = {rt_snap(cy), rt_snap(vy[i]), rt_snap(vy[j])};
         for (int32_t py = 0; py < H; py++) {
            for (int32_t px = 0; px < W; px++) {
               for (unsigned smp = 0; smp < samples; smp++) {
                  double ox, oy;
                  rt_sample_position(samples, smp, &ox, &oy);
                  expected[((size_t)py * W + px) * 4 + smp] +=
                      rt_reference_covered(x, y, rt_snap(px + ox), rt_snap(py + oy));
               }
            }
         }
      }
      unsigned bad = 0, twice = 0;
      for (size_t p = 0; p < (size_t)W * H * 4; p++) {
         bad += tg.count[p] != expected[p];
         twice += tg.count[p] > 1;
      }
      CHECK_MSG(bad == 0 && twice == 0, "fan %u: %u differ from the reference, %u twice", fan, bad,
                twice);
      free(expected);
      free(tg.count);
   }
}

TEST_CASE(top_and_left_edges_own_their_samples)
{
   /* A square with corners on pixel centres, as two triangles: the top row
    * and left column of centres lie on its edges and belong to it, the
    * bottom row and right column do not, and the diagonal's centres go to
    * exactly one triangle. */
   struct rt_target tg = new_target(1);
   struct raster_setup_state s = rt_default_setup(W, H);
   draw(&tg, &s, 2.5, 2.5, 6.5, 2.5, 6.5, 6.5);
   draw(&tg, &s, 2.5, 2.5, 6.5, 6.5, 2.5, 6.5);
   for (int32_t y = 0; y < 10; y++) {
      for (int32_t x = 0; x < 10; x++) {
         bool inside = x >= 2 && x <= 5 && y >= 2 && y <= 5;
         CHECK_MSG(tg.count[((size_t)y * W + x) * 4] == (inside ? 1 : 0), "pixel %d,%d", x, y);
      }
   }
   /* A single triangle whose bottom edge is horizontal through centres:
    * that row is not covered; its top vertex row is. */
   memset(tg.count, 0, (size_t)W * H * 4);
   draw(&tg, &s, 10.5, 10.5, 14.5, 14.5, 6.5, 14.5);
   /* The apex lies on the left and the right edge: the right edge gives it
    * away (a neighbour across that edge owns it). */
   CHECK(tg.count[((size_t)10 * W + 10) * 4] == 0);
   CHECK(tg.count[((size_t)14 * W + 10) * 4] == 0); /* bottom edge */
   CHECK(tg.count[((size_t)12 * W + 8) * 4] == 1);  /* on the left edge */
   CHECK(tg.count[((size_t)12 * W + 12) * 4] == 0); /* on the right edge */
   CHECK(tg.count[((size_t)12 * W + 10) * 4] == 1); /* inside */
   free(tg.count);
}

TEST_CASE(facing_follows_the_signed_area_and_culling_drops_the_named_faces)
{
   for (unsigned iter = 0; iter < 200; iter++) {
      struct raster_window_vertex v[3];
      for (unsigned i = 0; i < 3; i++)
         v[i] = wv(rt_uniform(0, W), rt_uniform(0, H));
      /* a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) on the snapped positions. */
      double a = 0;
      for (unsigned i = 0; i < 3; i++) {
         unsigned j = (i + 1) % 3;
         a -= 0.5 * ((double)rt_snap(v[i].x) * rt_snap(v[j].y) -
                     (double)rt_snap(v[j].x) * rt_snap(v[i].y));
      }
      for (unsigned ff = 0; ff < 2; ff++) {
         for (unsigned cull = 0; cull < 4; cull++) {
            struct raster_setup_state s = rt_default_setup(W, H);
            s.front_face = (uint8_t)ff;
            s.cull = cull;
            struct raster_triangle t;
            bool live = raster_setup_triangle(&s, v, &t);
            if (a == 0) {
               CHECK(!live);
               continue;
            }
            bool front = ff == PPU_GFX_FRONT_FACE_POSITIVE_AREA ? a > 0 : a < 0;
            bool culled = (front && (cull & 1)) || (!front && (cull & 2));
            CHECK(live == !culled);
            if (live)
               CHECK(t.front_facing == front);
         }
      }
   }
}

TEST_CASE(scissor_keeps_only_samples_inside_the_rectangle)
{
   struct rt_target tg = new_target(4);
   for (unsigned iter = 0; iter < 100; iter++) {
      struct raster_setup_state s = rt_default_setup(W, H);
      s.clip.x0 = (int32_t)(rt_rng() % 30);
      s.clip.y0 = (int32_t)(rt_rng() % 30);
      s.clip.x1 = s.clip.x0 + 1 + (int32_t)(rt_rng() % 34);
      s.clip.y1 = s.clip.y0 + 1 + (int32_t)(rt_rng() % 34);
      struct raster_window_vertex v[3];
      int64_t x[3], y[3];
      for (unsigned i = 0; i < 3; i++) {
         v[i] = wv(random_coord(-20, W + 20, false), random_coord(-20, H + 20, false));
         x[i] = rt_snap(v[i].x), y[i] = rt_snap(v[i].y);
      }
      memset(tg.count, 0, (size_t)W * H * 4);
      struct raster_triangle t;
      if (raster_setup_triangle(&s, v, &t))
         rt_rasterize(&t, &tg);
      CHECK(compare_with_reference(&tg, x, y, &s.clip) == 0);
   }
   free(tg.count);
}

TEST_CASE(coarse_tile_classes_never_contradict_the_reference)
{
   unsigned full_seen = 0, outside_seen = 0;
   for (unsigned iter = 0; iter < 300; iter++) {
      struct raster_window_vertex v[3];
      int64_t x[3], y[3];
      for (unsigned i = 0; i < 3; i++) {
         v[i] = wv(random_coord(-10, W + 10, iter & 1), random_coord(-10, H + 10, iter & 1));
         x[i] = rt_snap(v[i].x), y[i] = rt_snap(v[i].y);
      }
      struct raster_setup_state s = rt_default_setup(W, H);
      struct raster_triangle t;
      if (!raster_setup_triangle(&s, v, &t))
         continue;
      for (int32_t ty = 0; ty < H / 8; ty++) {
         for (int32_t tx = 0; tx < W / 8; tx++) {
            enum raster_tile_class c = raster_coarse_classify(&t, tx, ty);
            unsigned covered = 0;
            for (int32_t py = ty * 8; py < ty * 8 + 8; py++) {
               for (int32_t px = tx * 8; px < tx * 8 + 8; px++) {
                  for (unsigned smp = 0; smp < 4; smp++) {
                     double ox, oy;
                     rt_sample_position(4, smp, &ox, &oy);
                     covered += rt_reference_covered(x, y, rt_snap(px + ox), rt_snap(py + oy));
                  }
               }
            }
            if (c == RASTER_TILE_OUTSIDE) {
               outside_seen++;
               CHECK(covered == 0);
            }
            if (c == RASTER_TILE_FULL) {
               full_seen++;
               CHECK(covered == 256);
            }
         }
      }
   }
   CHECK(full_seen > 0 && outside_seen > 0);
}

TEST_CASE(vertices_beyond_the_guard_band_nan_or_infinite_depth_are_refused)
{
   struct raster_setup_state s = rt_default_setup(W, H);
   struct raster_triangle t;
   struct raster_window_vertex v[3] = {wv(0, 0), wv(PPU_GFX_GUARD_BAND + 1.0, 0), wv(0, 30)};
   CHECK(!raster_setup_triangle(&s, v, &t));
   v[1] = wv(NAN, 0);
   CHECK(!raster_setup_triangle(&s, v, &t));
   v[1] = wv(40, 0);
   v[2].z = INFINITY;
   CHECK(!raster_setup_triangle(&s, v, &t));
   v[2].z = NAN;
   CHECK(!raster_setup_triangle(&s, v, &t));
   v[2].z = 0.5f;
   v[1] = wv(PPU_GFX_GUARD_BAND - 1.0, 0);
   CHECK(raster_setup_triangle(&s, v, &t));
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
