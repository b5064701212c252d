/* Tile coalescing: quads into warp batches, in arrival order. */
#include "raster/raster_coalesce.h"

void raster_coalescer_init(struct raster_coalescer *c, bool relaxed)
{
   c->relaxed = relaxed;
   c->batch.count = 0;
}

static bool position_taken(const struct raster_warp_batch *b, const struct raster_quad *q)
{
   for (unsigned i = 0; i < b->count; i++) {
      if (b->quads[i].x == q->x && b->quads[i].y == q->y)
         return true;
   }
   return false;
}

bool raster_coalescer_add(struct raster_coalescer *c, const struct raster_quad *q,
                          uint32_t primitive, struct raster_warp_batch *full)
{
   bool close =
       c->batch.count == PPU_GFX_QUADS_PER_WARP || (!c->relaxed && position_taken(&c->batch, q));
   if (close) {
      *full = c->batch;
      c->batch.count = 0;
   }
   c->batch.quads[c->batch.count] = *q;
   c->batch.primitive[c->batch.count] = primitive;
   c->batch.count++;
   return close;
}

bool raster_coalescer_flush(struct raster_coalescer *c, struct raster_warp_batch *out)
{
   if (!c->batch.count)
      return false;
   *out = c->batch;
   c->batch.count = 0;
   return true;
}
