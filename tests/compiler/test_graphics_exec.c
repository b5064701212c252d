/* Compiled vertex and fragment programs executed by the graphics engine
 * of the model (a draw through the front end, tests/hw/graphics_test_util.h):
 * attribute fetch and decode through the vertex-buffer records of constant
 * bank 0 (driver/shader_abi.h), the vertex output record, plane evaluation,
 * gl_FragCoord, derivatives across the quad, flat inputs and discard. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "graphics_test_util.h"
#include "test_harness.h"

enum { W = 16, H = 16 };

static uint64_t upload(struct gtu *g, const void *data, uint32_t size)
{
   uint64_t va = hwt_alloc_mapped(&g->h.t, (size + 4095u) & ~4095u, true);
   hwt_write(&g->h.t.mem, g->h.t.pd, va, data, size);
   return va;
}

/* A program descriptor from the compiler's binary and metadata. */
static uint64_t descriptor(struct gtu *g, const struct drv_shader_binary *b,
                           const struct drv_graphics_program_info *info, uint64_t cbank0)
{
   struct ppu_gfx_program d;
   memset(&d, 0, sizeof(d));
   d.version = PPU_GFX_PROGRAM_VERSION;
   d.flags = info->flags;
   d.program_va = upload(g, b->code, b->code_words * 4);
   d.register_count = b->register_count;
   d.attribute_count = info->attribute_count;
   d.local_memory_size = b->local_memory_size;
   d.output_mask = info->output_mask;
   d.interpolation = info->interpolation;
   d.centroid_mask = info->centroid_mask;
   d.cbank[0].va = cbank0;
   d.cbank[0].size = DRV_ABI_GFX_CBANK0_SIZE;
   return upload(g, &d, sizeof(d));
}

struct vertex {
   float x, y;
   uint8_t rgba[4];
};

TEST_CASE(a_compiled_quad_draws_interpolates_and_discards)
{
   size_t vn = 0, fn = 0;
   uint32_t *vw = ctu_load_spirv("gfx_exec_vs", &vn), *fw = ctu_load_spirv("gfx_exec_fs", &fn);
   REQUIRE(vw && fw);
   struct drv_pipeline_abi abi = {NULL, 0, 0, 1};
   const struct drv_vertex_attribute attrs[3] = {
       {0, 0, 103 /* R32G32_SFLOAT */, 0},
       {1, 0, 37 /* R8G8B8A8_UNORM */, 8},
       {2, 1, 100 /* R32_SFLOAT */, 0},
   };
   const struct drv_vertex_binding binds[2] = {{0, 0, 1}, {1, 1, 1}};
   struct drv_graphics_compile_request req = {
       .vertex = {.spirv = vw, .word_count = vn, .entry_point = "main", .abi = &abi},
       .fragment = {.spirv = fw, .word_count = fn, .entry_point = "main"},
       .attributes = attrs,
       .attribute_count = 3,
       .bindings = binds,
       .binding_count = 2,
       .samples = 1,
   };
   struct drv_graphics_binary bin;
   char err[256] = "";
   int rc = drv_compile_graphics(&req, &bin, err, sizeof(err));
   free(vw);
   free(fw);
   REQUIRE(rc == 0);
   CHECK_EQ_U64(bin.fragment_info.flags, PPU_GFX_PROGRAM_MAY_DISCARD);

   struct gtu g;
   REQUIRE(gtu_init(&g, NULL));
   /* Two triangles covering the target; red 0 at x = -1, 1 at x = +1. */
   const struct vertex quad[6] = {
       {-1, -1, {0, 0, 0, 255}},  {1, -1, {255, 0, 0, 255}}, {-1, 1, {0, 0, 0, 255}},
       {1, -1, {255, 0, 0, 255}}, {1, 1, {255, 0, 0, 255}},  {-1, 1, {0, 0, 0, 255}},
   };
   const float shift = 0.0f;
   struct drv_vertex_buffer_record rec[2] = {
       {upload(&g, quad, sizeof(quad)), sizeof(quad), sizeof(struct vertex)},
       {upload(&g, &shift, sizeof(shift)), sizeof(shift), sizeof(shift)},
   };
   uint8_t cb[DRV_ABI_GFX_CBANK0_SIZE] = {0};
   memcpy(cb + DRV_ABI_CBANK_VERTEX_BUFFERS, rec, sizeof(rec));
   uint64_t cbank0 = upload(&g, cb, sizeof(cb));
   uint64_t vp = descriptor(&g, &bin.vertex, &bin.vertex_info, cbank0);
   uint64_t fp = descriptor(&g, &bin.fragment, &bin.fragment_info, cbank0);
   uint64_t rt = hwt_alloc_mapped(&g.h.t, W * H * 16, true);
   gtu_common_state(&g, W, H, vp, fp);
   gtu_target(&g, PPU_GFX_COLOR_TARGET(0), rt, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, W, H, W * 16);
   gtu_draw(&g, 0, 6, 0, 1, 0, 0);
   struct ppu_fault f;
   if (!gtu_submit(&g, &f)) {
      test_fail(__FILE__, __LINE__, "the draw faulted: %s", f.detail);
   } else {
      float *got = malloc(W * H * 16);
      hwt_read(&g.h.t.mem, g.h.t.pd, rt, got, W * H * 16);
      unsigned bad = 0;
      for (unsigned y = 0; y < H; y++) {
         for (unsigned x = 0; x < W; x++) {
            const float *p = &got[4 * (y * W + x)];
            float want[4] = {(x + 0.5f) / 16.0f, (y + 0.5f) / 16.0f, 1.0f, 1.0f};
            if (x < 4) /* discarded: the target keeps its zeros */
               memset(want, 0, sizeof(want));
            for (unsigned k = 0; k < 4; k++) {
               if (fabsf(p[k] - want[k]) > 1e-5f && bad++ < 8)
                  test_fail(__FILE__, __LINE__, "pixel (%u, %u) component %u: %g, expected %g", x,
                            y, k, p[k], want[k]);
            }
         }
      }
      CHECK(bad == 0);
      free(got);
   }
   gtu_finish(&g);
   drv_graphics_binary_free(&bin);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
