/* Primitive assembly: lists, strips and fans, provoking vertex, restart. */
#include "raster/raster_assembly.h"

unsigned raster_topology_vertices(enum ppu_gfx_topology topology)
{
   switch (topology) {
   case PPU_GFX_TOPOLOGY_POINT_LIST:
      return 1;
   case PPU_GFX_TOPOLOGY_LINE_LIST:
   case PPU_GFX_TOPOLOGY_LINE_STRIP:
      return 2;
   default:
      return 3;
   }
}

void raster_assembler_init(struct raster_assembler *a, enum ppu_gfx_topology topology, bool restart,
                           bool provoking_last, unsigned index_size)
{
   a->topology = (uint8_t)topology;
   a->restart = restart;
   a->provoking_last = provoking_last;
   a->restart_index = index_size >= 4 ? 0xffffffffu : (1u << (8 * index_size)) - 1u;
   a->first = 0;
   a->count = 0;
   a->window[0] = a->window[1] = 0;
   a->next_id = 0;
}

bool raster_assembler_push(struct raster_assembler *a, uint32_t pos, uint32_t index,
                           struct raster_primitive *out)
{
   if (a->restart && index == a->restart_index) {
      a->count = 0;
      return false;
   }
   if (a->count == 0)
      a->first = pos;
   uint32_t i = a->count++; /* position of this vertex within the run */
   uint32_t prev1 = a->window[1], prev2 = a->window[0];
   a->window[0] = a->window[1];
   a->window[1] = pos;
   bool emit = false;
   switch (a->topology) {
   case PPU_GFX_TOPOLOGY_POINT_LIST:
      out->vertex[0] = pos;
      out->provoking = pos;
      emit = true;
      break;
   case PPU_GFX_TOPOLOGY_LINE_LIST:
      if (i % 2 == 1) {
         out->vertex[0] = prev1, out->vertex[1] = pos;
         emit = true;
      }
      break;
   case PPU_GFX_TOPOLOGY_LINE_STRIP:
      if (i >= 1) {
         out->vertex[0] = prev1, out->vertex[1] = pos;
         emit = true;
      }
      break;
   case PPU_GFX_TOPOLOGY_TRIANGLE_LIST:
      if (i % 3 == 2) {
         out->vertex[0] = prev2, out->vertex[1] = prev1, out->vertex[2] = pos;
         emit = true;
      }
      break;
   case PPU_GFX_TOPOLOGY_TRIANGLE_STRIP:
      if (i >= 2) {
         /* Triangle t = i - 2 is (t, t + 1 + t % 2, t + 2 - t % 2). */
         uint32_t t = i - 2;
         out->vertex[0] = prev2;
         out->vertex[1] = t % 2 ? pos : prev1;
         out->vertex[2] = t % 2 ? prev1 : pos;
         emit = true;
         /* Provoking: first = vertex t, last = vertex t + 2. */
         out->provoking = a->provoking_last ? pos : prev2;
         out->id = a->next_id++;
         return true;
      }
      break;
   case PPU_GFX_TOPOLOGY_TRIANGLE_FAN:
      if (i >= 2) {
         /* Triangle t = i - 2 is (t + 1, t + 2, 0). */
         out->vertex[0] = prev1, out->vertex[1] = pos, out->vertex[2] = a->first;
         out->provoking = a->provoking_last ? pos : prev1;
         out->id = a->next_id++;
         return true;
      }
      break;
   default:
      break;
   }
   if (!emit)
      return false;
   unsigned n = raster_topology_vertices((enum ppu_gfx_topology)a->topology);
   out->provoking = a->provoking_last ? out->vertex[n - 1] : out->vertex[0];
   out->id = a->next_id++;
   return true;
}
