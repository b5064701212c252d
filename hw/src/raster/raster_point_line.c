/* Points and lines as quadrilaterals of two triangles. */
#include "raster/raster_point_line.h"

#include <math.h>

void raster_point_quadrilateral(const struct raster_window_vertex *v, float size,
                                struct raster_quadrilateral *q)
{
   double h = 0.5 * size;
   static const double dx[4] = {-1, 1, 1, -1}, dy[4] = {-1, -1, 1, 1};
   for (unsigned k = 0; k < 4; k++) {
      q->corner[k] = *v;
      q->corner[k].x = v->x + dx[k] * h;
      q->corner[k].y = v->y + dy[k] * h;
      q->endpoint[k] = 0;
   }
   q->point_x = v->x;
   q->point_y = v->y;
   q->point_size = size;
}

void raster_line_quadrilateral(const struct raster_window_vertex *v0,
                               const struct raster_window_vertex *v1, float width,
                               struct raster_quadrilateral *q)
{
   double h = 0.5 * width;
   q->point_x = q->point_y = 0.0;
   q->point_size = 0.0f;
   bool x_major = fabs(v1->x - v0->x) >= fabs(v1->y - v0->y);
   double ox = x_major ? 0.0 : h, oy = x_major ? h : 0.0;
   /* Corners in order around the parallelogram: v0 - o, v1 - o, v1 + o,
    * v0 + o. */
   const struct raster_window_vertex *end[4] = {v0, v1, v1, v0};
   static const double sign[4] = {-1, -1, 1, 1};
   for (unsigned k = 0; k < 4; k++) {
      q->corner[k] = *end[k];
      q->corner[k].x = end[k]->x + sign[k] * ox;
      q->corner[k].y = end[k]->y + sign[k] * oy;
      q->endpoint[k] = end[k] == v1;
   }
}

unsigned raster_setup_quadrilateral(const struct raster_setup_state *s,
                                    const struct raster_quadrilateral *q,
                                    struct raster_triangle t[2])
{
   struct raster_setup_state no_cull = *s;
   no_cull.cull = 0;
   const struct raster_window_vertex a[3] = {q->corner[0], q->corner[1], q->corner[2]};
   const struct raster_window_vertex b[3] = {q->corner[0], q->corner[2], q->corner[3]};
   unsigned n = 0;
   if (raster_setup_triangle(&no_cull, a, &t[n]))
      t[n++].front_facing = true;
   if (raster_setup_triangle(&no_cull, b, &t[n]))
      t[n++].front_facing = true;
   return n;
}
