/* Fine raster: exact integer edge tests for the 64 pixels of a tile per
 * sample location, written as flat loops over the tile so the compiler
 * vectorizes them, then quads with depth. */
#include "raster/raster_fine.h"

#define TILE PPU_GFX_TILE_SIZE
#define TILE_PIXELS (TILE * TILE)

const uint8_t raster_sample_positions_1x[1][2] = {{128, 128}};
const uint8_t raster_sample_positions_4x[4][2] = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};

/* Edge functions of the tile's 64 pixels at sample offset (0, 0) of each
 * pixel (its top-left corner), one array per edge. Another sample adds a
 * constant per edge. */
static void tile_edges(const struct raster_triangle *t, int64_t px0, int64_t py0,
                       int64_t e[3][TILE_PIXELS])
{
   for (unsigned k = 0; k < 3; k++) {
      int64_t a = t->edge_a[k] * RASTER_SUBPIXEL_ONE, b = t->edge_b[k] * RASTER_SUBPIXEL_ONE;
      int64_t row = t->edge_a[k] * (px0 * RASTER_SUBPIXEL_ONE) +
                    t->edge_b[k] * (py0 * RASTER_SUBPIXEL_ONE) + t->edge_c[k] + t->edge_bias[k];
      for (unsigned j = 0; j < TILE; j++, row += b) {
         for (unsigned i = 0; i < TILE; i++)
            e[k][j * TILE + i] = row + (int64_t)i * a;
      }
   }
}

/* Sets bit `bit` of cover[] for the pixels whose sample at (ox, oy) is
 * inside all three edges: a flat loop of 64-bit adds, ORs and a sign
 * shift, which the compiler vectorizes. */
static void cover_sample(const struct raster_triangle *t, const int64_t e[3][TILE_PIXELS],
                         unsigned ox, unsigned oy, unsigned bit, uint8_t cover[TILE_PIXELS])
{
   int64_t d[3];
   for (unsigned k = 0; k < 3; k++)
      d[k] = t->edge_a[k] * ox + t->edge_b[k] * oy;
   for (unsigned i = 0; i < TILE_PIXELS; i++) {
      uint64_t any_negative = (uint64_t)((e[0][i] + d[0]) | (e[1][i] + d[1]) | (e[2][i] + d[2]));
      cover[i] |= (uint8_t)(((~any_negative) >> 63) << bit);
   }
}

/* Depth of the 16 entries of a quad (raster_depth_from_plane on each
 * entry's position, in one loop the compiler vectorizes). */
static void quad_depth(const struct raster_triangle *t, int32_t qx, int32_t qy,
                       const uint8_t (*pos)[2], unsigned samples, float depth[16])
{
   float dx[16], dy[16];
   for (unsigned i = 0; i < 16; i++) {
      unsigned p = i / 4, s = samples == 4 ? i % 4 : 0;
      dx[i] = raster_sample_offset(qx + (int32_t)(p & 1u), t->origin_x, pos[s][0]);
      dy[i] = raster_sample_offset(qy + (int32_t)(p >> 1), t->origin_y, pos[s][1]);
   }
   for (unsigned i = 0; i < 16; i++)
      depth[i] = raster_depth_from_plane(t, dx[i], dy[i]);
}

unsigned raster_fine_tile(const struct raster_triangle *t, int32_t tx, int32_t ty,
                          unsigned samples_log2, uint32_t sample_mask, bool full,
                          struct raster_quad out[RASTER_QUADS_PER_TILE])
{
   unsigned samples = samples_log2 ? 4u : 1u;
   const uint8_t(*pos)[2] = samples_log2 ? raster_sample_positions_4x : raster_sample_positions_1x;
   uint8_t all = (uint8_t)(((1u << samples) - 1u) & sample_mask);
   int64_t px0 = (int64_t)tx * TILE, py0 = (int64_t)ty * TILE;
   uint8_t cover[TILE_PIXELS] = {0};
   if (full) {
      for (unsigned i = 0; i < TILE_PIXELS; i++)
         cover[i] = all;
   } else {
      int64_t e[3][TILE_PIXELS];
      tile_edges(t, px0, py0, e);
      for (unsigned s = 0; s < samples; s++) {
         if (all & (1u << s))
            cover_sample(t, e, pos[s][0], pos[s][1], s, cover);
      }
   }
   /* The scissor (bounds): pixels outside keep no coverage. */
   for (unsigned i = 0; i < TILE_PIXELS; i++) {
      int64_t x = px0 + i % TILE, y = py0 + i / TILE;
      bool in = x >= t->bounds.x0 && x < t->bounds.x1 && y >= t->bounds.y0 && y < t->bounds.y1;
      cover[i] = in ? cover[i] : 0;
   }
   unsigned n = 0;
   for (unsigned qy = 0; qy < TILE / 2; qy++) {
      for (unsigned qx = 0; qx < TILE / 2; qx++) {
         unsigned p0 = qy * 2 * TILE + qx * 2;
         const unsigned pix[4] = {p0, p0 + 1, p0 + TILE, p0 + TILE + 1};
         uint16_t mask = 0;
         for (unsigned p = 0; p < 4; p++)
            mask |= (uint16_t)(cover[pix[p]] << (p * 4));
         if (!mask)
            continue;
         struct raster_quad *q = &out[n++];
         q->x = (int32_t)(px0 + qx * 2);
         q->y = (int32_t)(py0 + qy * 2);
         q->coverage = mask;
         q->reserved = 0;
         quad_depth(t, q->x, q->y, pos, samples, q->depth);
      }
   }
   return n;
}
