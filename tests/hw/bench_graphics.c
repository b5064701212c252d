/* The whole graphics path (prints figures; not a test): pushbuffers of
 * graphics methods through the host interface and front end, vertex
 * warps, the raster engine, fragment warps on the SMs and the ROP, into a
 * 512x512 R8G8B8A8_UNORM target with a D32 depth target (LESS, writes)
 * in GPU memory. Triangles per second and fragments (covered pixels that
 * reached fragment work) per second, for small and large triangles, with
 * an interpolating fragment program. */
#include <stdio.h>
#include <time.h>

#include "graphics_test_util.h"
#include "raster_test_util.h"

#define SIZE 512u

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Perspective-correct slot 0 into R0..R3. */
static const char *fragment = GTU_FRAGMENT_INTERP_PROGRAM("0x3f000000", "0x3f800000");

static void run(struct gtu *g, uint64_t vp, uint64_t fp, uint64_t rt, uint64_t ds, unsigned tris,
                double radius)
{
   double cx = 0, cy = 0;
   for (unsigned i = 0; i < 3 * tris; i++) {
      if (i % 3 == 0)
         cx = rt_uniform(0, SIZE), cy = rt_uniform(0, SIZE);
      float a[4] = {(float)rt_uniform(0, 1), (float)rt_uniform(0, 1), 0, 1};
      gtu_vertex(g, i, SIZE, SIZE, cx + rt_uniform(-radius, radius),
                 cy + rt_uniform(-radius, radius), (float)rt_uniform(0.05, 0.95), 1.0f, a);
   }
   gtu_clear_depth(g, ds, SIZE * SIZE);
   gtu_common_state(g, SIZE, SIZE, vp, fp);
   gtu_target(g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE, SIZE * 4);
   gtu_depth_less(g, ds, SIZE, SIZE);
   gtu_draw(g, 0, 3 * tris, 0, 1, 0, 0);
   uint64_t quads = hwt_counter(&g->h.t, PPU_COUNTER_GFX_QUADS);
   uint64_t helpers = hwt_counter(&g->h.t, PPU_COUNTER_GFX_HELPER_LANES);
   uint64_t warps = hwt_counter(&g->h.t, PPU_COUNTER_GFX_FRAGMENT_WARPS);
   double t0 = now();
   if (!gtu_submit(g, NULL)) {
      printf("the draw faulted\n");
      return;
   }
   double dt = now() - t0;
   quads = hwt_counter(&g->h.t, PPU_COUNTER_GFX_QUADS) - quads;
   helpers = hwt_counter(&g->h.t, PPU_COUNTER_GFX_HELPER_LANES) - helpers;
   warps = hwt_counter(&g->h.t, PPU_COUNTER_GFX_FRAGMENT_WARPS) - warps;
   uint64_t fragments = 4 * quads - helpers;
   printf("%6u triangles of about +-%3.0f px: %.3f s, %.3f M triangles/s, %.2f M fragments/s "
          "(%.1f fragments/warp)\n",
          tris, radius, dt, tris / dt * 1e-6, fragments / dt * 1e-6,
          warps ? (double)fragments / warps : 0.0);
}

int main(void)
{
   struct gtu g;
   if (!gtu_init(&g, NULL))
      return 1;
   uint64_t vp = gtu_program(&g, GTU_VERTEX_PROGRAM, 0, 2, 0, 0);
   uint64_t fp = gtu_program(&g, fragment, 0, 1, 1, 0);
   uint64_t rt = hwt_alloc_scattered(&g.h.t, SIZE * SIZE * 4);
   uint64_t ds = hwt_alloc_mapped(&g.h.t, SIZE * SIZE * 4, true);
   printf("graphics path (front end -> vertex warps -> raster -> fragment warps -> ROP), "
          "%ux%u RGBA8 + D32 LESS:\n",
          SIZE, SIZE);
   run(&g, vp, fp, rt, ds, 20000, 8);
   run(&g, vp, fp, rt, ds, 2000, 40);
   gtu_finish(&g);
   return 0;
}
