/* Helpers for tests and benchmarks of the graphics engine through the real
 * front end: a chip and channel (compute_test_util.h), a vertex buffer of
 * 8 floats per vertex (clip position, then one attribute) that the test
 * vertex program reads, program descriptors, render targets and the
 * graphics methods written into a pushbuffer.
 *
 * Constant bank 0 (hwc's): 0x08 vertex buffer VA, 0x10 per-instance x
 * offset (float, clip space), 0x18 texture header VA, 0x20 sampler VA.
 * Everything is static inline: each file uses a different subset.
 */
#ifndef GRAPHICS_TEST_UTIL_H
#define GRAPHICS_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "compute_test_util.h"
#include "ppu/graphics.h"
#include "ppu/texture.h"
#include "test_harness.h"

/* Vertex program: position and slot 0 from the vertex buffer (x moved by
 * instance * c[0][0x10]); slot 1 = {instance, draw index, vertex index,
 * base vertex} as integers. */
#define GTU_VERTEX_PROGRAM                                                                         \
   "LDC.U64 R8, c[0][RZ+0x8]\n"                                                                    \
   "IMADW.U32 R8, R0, 32, R8\n"                                                                    \
   "LD.GLOBAL.B128 R12, [R8]\n"                                                                    \
   "LD.GLOBAL.B128 R16, [R8+16]\n"                                                                 \
   "LDC.U32 R20, c[0][RZ+0x10]\n"                                                                  \
   "CVT.RN.F32.U32 R21, R1\n"                                                                      \
   "FFMA.F32 R12, R21, R20, R12\n"                                                                 \
   "ST.GLOBAL.B128 [R2], R12\n"                                                                    \
   "ST.GLOBAL.B128 [R2+64], R16\n"                                                                 \
   "IADD.U32 R24, R1, 0\n"                                                                         \
   "IADD.U32 R25, R4, 0\n"                                                                         \
   "IADD.U32 R26, R0, 0\n"                                                                         \
   "IADD.U32 R27, R6, 0\n"                                                                         \
   "ST.GLOBAL.B128 [R2+80], R24\n"                                                                 \
   "EXIT\n"

/* Fragment program for R32_UINT targets: (primitive id + 1) | instance << 8
 * | draw index << 12 (slot 1 flat: plane c words at 48 + 12 (4 + k) + 8). */
#define GTU_FRAGMENT_ID_PROGRAM                                                                    \
   "LD.GLOBAL.U32 R8, [R2+104]\n"                                                                  \
   "LD.GLOBAL.U32 R9, [R2+116]\n"                                                                  \
   "IADD.U32 R0, R7, 1\n"                                                                          \
   "SHL.U32 R8, R8, 8\n"                                                                           \
   "SHL.U32 R9, R9, 12\n"                                                                          \
   "OR.U32 R0, R0, R8\n"                                                                           \
   "OR.U32 R0, R0, R9\n"                                                                           \
   "EXIT\n"

/* Fragment programs: R20:R21 = the primitive record; R24, R25 = the planes
 * of slot 0's x and y at (R4, R5) (for perspective slots: value / w). */
#define GTU_FRAGMENT_SLOT0_XY                                                                      \
   "IADD.U32 R20, R2, 0\n"                                                                         \
   "IADD.U32 R21, R3, 0\n"                                                                         \
   "LD.GLOBAL.U32 R12, [R20+48]\n"                                                                 \
   "LD.GLOBAL.U32 R13, [R20+52]\n"                                                                 \
   "LD.GLOBAL.U32 R14, [R20+56]\n"                                                                 \
   "FFMA.F32 R24, R12, R4, R14\n"                                                                  \
   "FFMA.F32 R24, R13, R5, R24\n"                                                                  \
   "LD.GLOBAL.U32 R12, [R20+60]\n"                                                                 \
   "LD.GLOBAL.U32 R13, [R20+64]\n"                                                                 \
   "LD.GLOBAL.U32 R14, [R20+68]\n"                                                                 \
   "FFMA.F32 R25, R12, R4, R14\n"                                                                  \
   "FFMA.F32 R25, R13, R5, R25\n"

/* Slot 0's x, y perspective-correct (times 1 / the inverse-w plane) into
 * R0, R1 of a float target; B and A from the arguments (float bits). */
#define GTU_FRAGMENT_INTERP_PROGRAM(b, a)                                                          \
   GTU_FRAGMENT_SLOT0_XY                                                                           \
   "LD.GLOBAL.U32 R8, [R20+20]\n"                                                                  \
   "LD.GLOBAL.U32 R9, [R20+24]\n"                                                                  \
   "LD.GLOBAL.U32 R10, [R20+28]\n"                                                                 \
   "FFMA.F32 R11, R8, R4, R10\n"                                                                   \
   "FFMA.F32 R11, R9, R5, R11\n"                                                                   \
   "MUFU.RCP.F32 R11, R11\n"                                                                       \
   "FMUL.F32 R0, R24, R11\n"                                                                       \
   "FMUL.F32 R1, R25, R11\n"                                                                       \
   "MOV R2, " b "\n"                                                                               \
   "MOV R3, " a "\n"                                                                               \
   "EXIT\n"

/* Interpolation bits: slot 0 perspective, slot 1 flat. */
#define GTU_INTERP_SLOT1_FLAT ((uint64_t)PPU_GFX_INTERP_FLAT << 2)

struct gtu {
   struct hwc h;
   struct hwt_pb *pb;
   uint64_t vb_va, scratch_va;
   uint32_t scratch_size;
};

static inline bool gtu_init(struct gtu *g, const struct ppu_gpu_config *cfg)
{
   memset(g, 0, sizeof(*g));
   if (!hwc_init(&g->h, cfg))
      return false;
   g->pb = malloc(sizeof(*g->pb));
   hwt_pb_reset(g->pb);
   g->vb_va = hwt_alloc_mapped(&g->h.t, 4u << 20, true);
   g->scratch_size = 64 * 1024;
   g->scratch_va = hwt_alloc_mapped(&g->h.t, g->scratch_size, true);
   hwc_cb_write32(&g->h, 0x08, (uint32_t)g->vb_va);
   hwc_cb_write32(&g->h, 0x0c, (uint32_t)(g->vb_va >> 32));
   return true;
}

static inline void gtu_finish(struct gtu *g)
{
   free(g->pb);
   hwc_finish(&g->h);
}

static inline uint32_t gtu_f(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* A program descriptor for src in fresh memory (bank 0 = hwc's). */
static inline uint64_t gtu_program(struct gtu *g, const char *src, uint32_t flags,
                                   uint32_t attribute_count, uint32_t output_mask,
                                   uint64_t interpolation)
{
   struct ppu_gfx_program d;
   memset(&d, 0, sizeof(d));
   d.version = PPU_GFX_PROGRAM_VERSION;
   d.flags = flags;
   d.program_va = hwc_program(&g->h, src);
   d.register_count = 64;
   d.attribute_count = attribute_count;
   d.output_mask = output_mask;
   d.interpolation = interpolation;
   d.cbank[0].va = g->h.cb_va;
   d.cbank[0].size = 4096;
   uint64_t va = hwt_alloc_mapped(&g->h.t, 4096, false);
   hwt_write(&g->h.t.mem, g->h.t.pd, va, &d, sizeof(d));
   return va;
}

static inline void gtu_set(struct gtu *g, uint32_t method, uint32_t value)
{
   hwt_pb_method(g->pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, method, 1, &value);
}

static inline void gtu_set64(struct gtu *g, uint32_t method_lo, uint64_t v)
{
   uint32_t w[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
   hwt_pb_method(g->pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, method_lo, 2, w);
}

/* A linear target group at base (COLOR_TARGET(i), DEPTH_TARGET_BASE, ...). */
static inline void gtu_target(struct gtu *g, uint32_t base, uint64_t va, unsigned format,
                              uint32_t width, uint32_t height, uint32_t row_pitch)
{
   uint32_t w[8] = {(uint32_t)va, (uint32_t)(va >> 32), format, PPU_TEX_LAYOUT_LINEAR,
                    row_pitch,    width | height << 16, 0,      0};
   hwt_pb_method(g->pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, base, 8, w);
}

/* Viewport 0 covering a w x h target, depth 0..1; scratch; programs. */
static inline void gtu_common_state(struct gtu *g, uint32_t w, uint32_t h, uint64_t vp, uint64_t fp)
{
   uint32_t v[8] = {gtu_f(w / 2.0f), gtu_f(h / 2.0f), gtu_f(1.0f), gtu_f(w / 2.0f),
                    gtu_f(h / 2.0f), gtu_f(0.0f),     gtu_f(0.0f), gtu_f(1.0f)};
   hwt_pb_method(g->pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, PPU_GFX_VIEWPORT(0), 8, v);
   gtu_set64(g, PPU_GFX_SCRATCH_ADDR_LO, g->scratch_va);
   gtu_set(g, PPU_GFX_SCRATCH_SIZE, g->scratch_size);
   gtu_set64(g, PPU_GFX_VERTEX_PROGRAM_LO, vp);
   gtu_set64(g, PPU_GFX_FRAGMENT_PROGRAM_LO, fp);
}

/* Fills n floats of a D32 target at va with 1.0. */
static inline void gtu_clear_depth(struct gtu *g, uint64_t va, unsigned n)
{
   float *d = malloc((size_t)n * 4);
   for (unsigned i = 0; i < n; i++)
      d[i] = 1.0f;
   hwt_write(&g->h.t.mem, g->h.t.pd, va, d, (uint64_t)n * 4);
   free(d);
}

/* A linear D32 depth target of w x h at va with depth LESS and writes. */
static inline void gtu_depth_less(struct gtu *g, uint64_t va, uint32_t w, uint32_t h)
{
   gtu_target(g, PPU_GFX_DEPTH_TARGET_BASE, va, PPU_TEX_FORMAT_D32_SFLOAT, w, h, w * 4);
   gtu_set(g, PPU_GFX_DEPTH_TEST, 3);
   gtu_set(g, PPU_GFX_DEPTH_COMPARE, PPU_GFX_COMPARE_LESS);
}

static inline void gtu_draw(struct gtu *g, uint32_t first, uint32_t count, uint32_t first_instance,
                            uint32_t instances, int32_t vertex_offset, uint32_t flags)
{
   uint32_t w[6] = {first, count, first_instance, instances, (uint32_t)vertex_offset, flags};
   hwt_pb_method(g->pb, PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, PPU_GFX_DRAW_FIRST, 6, w);
}

/* Submits the pushbuffer and waits; false (fault in *f) when the channel
 * faulted. The pushbuffer starts empty again. */
static inline bool gtu_submit(struct gtu *g, struct ppu_fault *f)
{
   hwt_submit(&g->h.c, g->pb);
   hwt_pb_reset(g->pb);
   if (hwt_sync(&g->h.c, 60000))
      return true;
   if (f)
      ppu_channel_fault(g->h.c.ch, f);
   return false;
}

/* Vertex i of the buffer: window position (pixels) of a w x h viewport at
 * depth z, clip w, and attribute a. */
static inline void gtu_vertex(struct gtu *g, uint32_t i, uint32_t w, uint32_t h, double x, double y,
                              float z, float cw, const float a[4])
{
   float v[8] = {(float)((x - w / 2.0) / (w / 2.0) * cw), (float)((y - h / 2.0) / (h / 2.0) * cw),
                 z * cw, cw};
   if (a)
      memcpy(&v[4], a, 16);
   hwt_write(&g->h.t.mem, g->h.t.pd, g->vb_va + (uint64_t)i * 32, v, sizeof(v));
}

#endif
