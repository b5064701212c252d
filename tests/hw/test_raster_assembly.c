/* Primitive assembly against Vulkan's per-topology formulas ("Drawing
 * Primitives"): list, strip and fan vertex orders, the provoking vertex
 * of both modes, primitive ids, and restart runs that drop incomplete
 * primitives, for 1-, 2- and 4-byte restart indices. */
#include <stdio.h>
#include <stdlib.h>

#include "raster/raster_assembly.h"
#include "raster_test_util.h"
#include "test_harness.h"

/* The primitives of one run p[0..m-1] by the spec's formulas. */
static unsigned reference_run(enum ppu_gfx_topology topo, bool last, const uint32_t *p, unsigned m,
                              struct raster_primitive *out)
{
   unsigned n = 0;
   switch (topo) {
   case PPU_GFX_TOPOLOGY_POINT_LIST:
      for (unsigned i = 0; i < m; i++)
         out[n++] = (struct raster_primitive){{p[i]}, p[i], 0};
      break;
   case PPU_GFX_TOPOLOGY_LINE_LIST:
      for (unsigned i = 0; 2 * i + 1 < m; i++)
         out[n++] =
             (struct raster_primitive){{p[2 * i], p[2 * i + 1]}, last ? p[2 * i + 1] : p[2 * i], 0};
      break;
   case PPU_GFX_TOPOLOGY_LINE_STRIP:
      for (unsigned i = 0; i + 1 < m; i++)
         out[n++] = (struct raster_primitive){{p[i], p[i + 1]}, last ? p[i + 1] : p[i], 0};
      break;
   case PPU_GFX_TOPOLOGY_TRIANGLE_LIST:
      for (unsigned i = 0; 3 * i + 2 < m; i++)
         out[n++] = (struct raster_primitive){
             {p[3 * i], p[3 * i + 1], p[3 * i + 2]}, last ? p[3 * i + 2] : p[3 * i], 0};
      break;
   case PPU_GFX_TOPOLOGY_TRIANGLE_STRIP:
      for (unsigned i = 0; i + 2 < m; i++)
         out[n++] = (struct raster_primitive){
             {p[i], p[i + 1 + i % 2], p[i + 2 - i % 2]}, last ? p[i + 2] : p[i], 0};
      break;
   default:
      for (unsigned i = 0; i + 2 < m; i++)
         out[n++] =
             (struct raster_primitive){{p[i + 1], p[i + 2], p[0]}, last ? p[i + 2] : p[i + 1], 0};
      break;
   }
   return n;
}

TEST_CASE(assembly_follows_the_spec_formulas_with_restart_and_provoking_vertex)
{
   enum { N = 200 };
   for (unsigned iter = 0; iter < 600; iter++) {
      enum ppu_gfx_topology topo = (enum ppu_gfx_topology)(iter % 6);
      bool last = (iter / 6) % 2, restart = (iter / 12) % 2;
      const unsigned sizes[3] = {1, 2, 4};
      unsigned size = sizes[(iter / 24) % 3];
      uint32_t restart_index = size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1u;
      uint32_t index[N];
      for (unsigned i = 0; i < N; i++) {
         index[i] = rt_rng() % 50;
         if (rt_rng() % 9 == 0)
            index[i] = restart_index;
      }
      struct raster_assembler a;
      raster_assembler_init(&a, topo, restart, last, size);
      struct raster_primitive got[3 * N], want[3 * N];
      unsigned ng = 0, nw = 0;
      for (unsigned i = 0; i < N; i++) {
         if (raster_assembler_push(&a, i, index[i], &got[ng]))
            ng++;
      }
      /* Reference: runs between restart indices (or one run). */
      uint32_t run[N];
      unsigned m = 0;
      for (unsigned i = 0; i <= N; i++) {
         if (i == N || (restart && index[i] == restart_index)) {
            nw += reference_run(topo, last, run, m, &want[nw]);
            m = 0;
         } else {
            run[m++] = i;
         }
      }
      CHECK_MSG(ng == nw, "topology %u: %u primitives, want %u", topo, ng, nw);
      unsigned verts = raster_topology_vertices(topo);
      for (unsigned k = 0; k < ng && k < nw; k++) {
         bool same = got[k].provoking == want[k].provoking && got[k].id == k;
         for (unsigned v = 0; v < verts; v++)
            same &= got[k].vertex[v] == want[k].vertex[v];
         CHECK_MSG(same, "topology %u last %d primitive %u differs", topo, last, k);
      }
   }
}

TEST_CASE(strip_triangles_keep_the_winding_of_the_first)
{
   /* A zig-zag strip of points on two rows: every triangle has the same
    * sign of area when its vertices are taken in assembly order. */
   double x[12], y[12];
   for (unsigned i = 0; i < 12; i++)
      x[i] = i / 2, y[i] = i % 2;
   struct raster_assembler a;
   raster_assembler_init(&a, PPU_GFX_TOPOLOGY_TRIANGLE_STRIP, false, false, 4);
   struct raster_primitive p;
   int sign = 0;
   for (unsigned i = 0; i < 12; i++) {
      if (!raster_assembler_push(&a, i, i, &p))
         continue;
      const uint32_t *v = p.vertex;
      double area =
          (x[v[1]] - x[v[0]]) * (y[v[2]] - y[v[0]]) - (x[v[2]] - x[v[0]]) * (y[v[1]] - y[v[0]]);
      int s = area > 0 ? 1 : -1;
      if (!sign)
         sign = s;
      CHECK(s == sign);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
