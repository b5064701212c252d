/* Points and wide lines in the setup engine: each becomes a quadrilateral
 * of two triangles that go through the same edge functions, top-left rule
 * and fine raster as triangles do.
 *
 * - A point is the square of side `size` centred on the vertex (Vulkan
 *   "Basic Point Rasterization": samples inside the square); with the
 *   top-left rule its left and top sides are inside and the right and
 *   bottom sides outside.
 * - A line is the parallelogram Vulkan allows for non-strict lines ("Basic
 *   Line Segment Rasterization", strictLines false): the segment swept by
 *   `width` along the minor axis (y for an x-major line). Its two long
 *   edges run in opposite directions, so exactly one of them owns the
 *   samples on it: a width-1 x-major line covers exactly one sample per
 *   column in [x0, x1), and two segments sharing an endpoint never cover a
 *   sample twice.
 * Lines and points are always front-facing and never culled.
 */
#ifndef PPU_RASTER_POINT_LINE_H
#define PPU_RASTER_POINT_LINE_H

#include "raster/raster_setup.h"

/* Corner k of the quadrilateral comes from endpoint endpoint[k] (0 or 1;
 * a point has only endpoint 0): attribute planes take the endpoint's
 * values at the corner. */
struct raster_quadrilateral {
   struct raster_window_vertex corner[4];
   uint8_t endpoint[4];
   /* A point's window centre and size (gl_PointCoord); size 0 for a line. */
   double point_x, point_y;
   float point_size;
};

void raster_point_quadrilateral(const struct raster_window_vertex *v, float size,
                                struct raster_quadrilateral *q);
void raster_line_quadrilateral(const struct raster_window_vertex *v0,
                               const struct raster_window_vertex *v1, float width,
                               struct raster_quadrilateral *q);

/* Sets up the two triangles (corners 0 1 2 and 0 2 3); returns how many
 * can cover anything. */
unsigned raster_setup_quadrilateral(const struct raster_setup_state *s,
                                    const struct raster_quadrilateral *q,
                                    struct raster_triangle t[2]);

#endif
