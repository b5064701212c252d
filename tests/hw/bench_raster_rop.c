/* Raster and ROP microbenchmark (prints figures; not a test): fine-raster
 * fragments per second for random triangles on a 1024x1024 target (setup,
 * coarse and fine raster, 1x and 4x), ZROP depth-tested samples per second
 * (D32, LESS, write) and CROP alpha-blended pixels per second
 * (R8G8B8A8_UNORM, block-linear), and the whole raster engine
 * (raster_pipeline: clip to CROP, D32 LESS, hi-Z, a constant-color
 * "fragment program"), all on one host thread. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "raster_test_util.h"
#include "raster/raster_pipeline.h"
#include "rop/rop_crop.h"
#include "rop/rop_zrop.h"

#define SIZE 1024

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct count_ctx {
   const struct raster_triangle *t;
   unsigned samples_log2;
   uint64_t fragments, quads;
};

static bool count_tile(void *p, int32_t tx, int32_t ty, enum raster_tile_class c)
{
   struct count_ctx *ctx = p;
   struct raster_quad q[RASTER_QUADS_PER_TILE];
   unsigned n = raster_fine_tile(ctx->t, tx, ty, ctx->samples_log2, 0xf, c == RASTER_TILE_FULL, q);
   for (unsigned i = 0; i < n; i++) {
      unsigned m = q[i].coverage;
      /* A pixel is a fragment when any of its samples is covered. */
      for (unsigned p = 0; p < 4; p++)
         ctx->fragments += ((m >> (p * 4)) & 0xfu) != 0;
   }
   ctx->quads += n;
   return true;
}

static void bench_raster(unsigned samples_log2, double size)
{
   struct raster_setup_state s = rt_default_setup(SIZE, SIZE);
   struct count_ctx ctx = {NULL, samples_log2, 0, 0};
   unsigned triangles = 0;
   double t0 = now();
   while (now() - t0 < 1.0) {
      for (unsigned i = 0; i < 1000; i++) {
         double cx = rt_uniform(0, SIZE), cy = rt_uniform(0, SIZE);
         struct raster_window_vertex v[3];
         for (unsigned k = 0; k < 3; k++) {
            v[k].x = cx + rt_uniform(-size, size);
            v[k].y = cy + rt_uniform(-size, size);
            v[k].z = (float)rt_uniform(0, 1);
            v[k].inverse_w = 1.0f;
         }
         struct raster_triangle t;
         if (!raster_setup_triangle(&s, v, &t))
            continue;
         ctx.t = &t;
         raster_coarse_walk(&t, count_tile, &ctx);
         triangles++;
      }
   }
   double dt = now() - t0;
   printf("raster %ux, triangles +-%.0f px: %.2f M triangles/s, %.1f M fragments/s, %.1f M "
          "quads/s\n",
          samples_log2 ? 4 : 1, size, triangles / dt * 1e-6, ctx.fragments / dt * 1e-6,
          ctx.quads / dt * 1e-6);
}

static void bench_zrop(void)
{
   float *mem = malloc((size_t)SIZE * SIZE * 4);
   for (size_t i = 0; i < (size_t)SIZE * SIZE; i++)
      mem[i] = 1.0f;
   struct rop_surface ds;
   rop_surface_init(&ds, (uint8_t *)mem, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR, 0,
                    SIZE * 4, SIZE, SIZE, 0);
   struct rop_zs_state z = {
       .depth_test = true, .depth_write = true, .depth_op = PPU_GFX_COMPARE_LESS};
   float depth[16];
   uint64_t samples = 0, passed = 0;
   double t0 = now();
   while (now() - t0 < 1.0) {
      for (int32_t y = 0; y < SIZE; y += 2) {
         for (int32_t x = 0; x < SIZE; x += 2) {
            for (unsigned b = 0; b < 16; b++)
               depth[b] = (float)((x ^ y) & 255) / 256.0f;
            rop_zrop_quad(&z, &ds, x, y, 0x1111, depth, true, &passed);
            samples += 4;
         }
      }
   }
   double dt = now() - t0;
   printf("zrop D32 LESS+write: %.1f M samples/s\n", samples / dt * 1e-6);
   free(mem);
}

static void bench_crop(void)
{
   struct rop_surface rt;
   uint8_t *mem = NULL;
   rop_surface_init(&rt, NULL, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_LAYOUT_BLOCK_LINEAR, 4, 0,
                    SIZE, SIZE, 0);
   mem = calloc(rop_surface_size(&rt), 1);
   rt.base = mem;
   struct rop_blend_state b;
   memset(&b, 0, sizeof(b));
   b.target[0] = (struct rop_blend_target){true,
                                           PPU_GFX_BLEND_SRC_ALPHA,
                                           PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA,
                                           PPU_GFX_BLEND_OP_ADD,
                                           PPU_GFX_BLEND_ONE,
                                           PPU_GFX_BLEND_ONE_MINUS_SRC_ALPHA,
                                           PPU_GFX_BLEND_OP_ADD,
                                           0xf};
   struct ppu_texel src[4];
   for (unsigned p = 0; p < 4; p++)
      src[p] = (struct ppu_texel){{{0.8f, 0.4f, 0.2f, 0.5f}}};
   uint64_t pixels = 0;
   double t0 = now();
   while (now() - t0 < 1.0) {
      for (int32_t y = 0; y < SIZE; y += 2) {
         for (int32_t x = 0; x < SIZE; x += 2) {
            rop_crop_quad(&b, 0, &rt, x, y, 0x1111, src, NULL);
            pixels += 4;
         }
      }
   }
   double dt = now() - t0;
   printf("crop R8G8B8A8_UNORM alpha blend: %.1f M pixels/s\n", pixels / dt * 1e-6);
   free(mem);
}

static void constant_color(void *ctx, const struct raster_warp_batch *b,
                           const struct raster_triangle *const *tris,
                           struct raster_fragment_output *out)
{
   (void)ctx, (void)tris;
   for (unsigned i = 0; i < b->count; i++) {
      for (unsigned p = 0; p < 4; p++)
         out[i].color[0][p] = (struct ppu_texel){{{0.2f, 0.4f, 0.6f, 1.0f}}};
   }
}

static void bench_pipeline(double size)
{
   uint8_t *color_mem = calloc((size_t)SIZE * SIZE, 4);
   float *depth_mem = malloc((size_t)SIZE * SIZE * 4);
   struct rop_surface color, depth;
   rop_surface_init(&color, color_mem, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_LAYOUT_LINEAR, 0,
                    SIZE * 4, SIZE, SIZE, 0);
   rop_surface_init(&depth, (uint8_t *)depth_mem, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_LAYOUT_LINEAR,
                    0, SIZE * 4, SIZE, SIZE, 0);
   struct raster_hiz hiz;
   raster_hiz_init(&hiz, SIZE, SIZE);
   struct raster_pipeline p;
   memset(&p, 0, sizeof(p));
   raster_clip_state_init(&p.clip, SIZE / 2.0f, SIZE / 2.0f, SIZE / 2.0f, SIZE / 2.0f, false, 0);
   p.setup = rt_default_setup(SIZE, SIZE);
   p.viewport_scale[0] = p.viewport_scale[1] = SIZE / 2.0f;
   p.viewport_offset[0] = p.viewport_offset[1] = SIZE / 2.0f;
   p.viewport_scale[2] = 1.0f;
   p.sample_mask = 1;
   p.zs.depth_test = p.zs.depth_write = true;
   p.zs.depth_op = PPU_GFX_COMPARE_LESS;
   p.blend.target[0].write_mask = 0xf;
   p.color[0] = &color;
   p.depth = &depth;
   p.hiz = &hiz;
   p.shade = constant_color;
   unsigned frames = 0;
   double t0 = now();
   while (now() - t0 < 1.0) {
      for (size_t i = 0; i < (size_t)SIZE * SIZE; i++)
         depth_mem[i] = 1.0f;
      raster_hiz_clear(&hiz, 1.0f);
      for (unsigned i = 0; i < 2000; i++) {
         float pos[3][4];
         double cx = rt_uniform(-1, 1), cy = rt_uniform(-1, 1);
         float z = (float)rt_uniform(0, 1);
         for (unsigned k = 0; k < 3; k++) {
            pos[k][0] = (float)(cx + rt_uniform(-size, size) * 2.0 / SIZE);
            pos[k][1] = (float)(cy + rt_uniform(-size, size) * 2.0 / SIZE);
            pos[k][2] = z;
            pos[k][3] = 1.0f;
         }
         raster_pipeline_triangle(&p, pos);
      }
      frames++;
   }
   double dt = now() - t0;
   printf("pipeline 1x, triangles +-%.0f px, D32 LESS + hi-Z: %.2f M triangles/s, %.1f M "
          "samples passed/s, %.0f%% tiles culled by hi-Z\n",
          size, p.primitives / dt * 1e-6, p.samples_passed / dt * 1e-6,
          100.0 * p.tiles_hiz_culled / (double)(p.tiles ? p.tiles : 1));
   (void)frames;
   raster_hiz_free(&hiz);
   free(color_mem);
   free(depth_mem);
}

int main(void)
{
   bench_raster(0, 8);
   bench_raster(0, 40);
   bench_raster(2, 40);
   bench_zrop();
   bench_crop();
   bench_pipeline(40);
   return 0;
}
