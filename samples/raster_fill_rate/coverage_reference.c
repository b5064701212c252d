#include "coverage_reference.h"

/* Twice the signed area of (a, b, p), in doubled coordinates (pixel centres
 * are at odd values there). */
static int64_t edge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py)
{
   return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Edge a-b of a triangle whose third vertex is c: a top edge is horizontal
 * with the triangle below it; a left edge is not horizontal and has the
 * triangle to its right. */
static bool top_or_left(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy)
{
   if (ay == by)
      return cy > ay;
   /* c is right of the edge's line at c's height when this has the sign of
    * (by - ay): x_line(cy) < cx. */
   int64_t side = (cx - ax) * (by - ay) - (bx - ax) * (cy - ay);
   return by > ay ? side > 0 : side < 0;
}

uint64_t coverage_add(const struct coverage_triangle *t, uint32_t width, uint32_t height,
                      uint32_t *count)
{
   int64_t x[3], y[3];
   for (int i = 0; i < 3; i++) {
      x[i] = 2 * (int64_t)t->x[i];
      y[i] = 2 * (int64_t)t->y[i];
   }
   if (edge(x[0], y[0], x[1], y[1], x[2], y[2]) == 0)
      return 0; /* degenerate: covers nothing */
   int64_t min_x = x[0], max_x = x[0], min_y = y[0], max_y = y[0];
   for (int i = 1; i < 3; i++) {
      min_x = x[i] < min_x ? x[i] : min_x;
      max_x = x[i] > max_x ? x[i] : max_x;
      min_y = y[i] < min_y ? y[i] : min_y;
      max_y = y[i] > max_y ? y[i] : max_y;
   }
   int64_t x0 = min_x / 2 - 1, x1 = max_x / 2 + 1, y0 = min_y / 2 - 1, y1 = max_y / 2 + 1;
   x0 = x0 < 0 ? 0 : x0;
   y0 = y0 < 0 ? 0 : y0;
   x1 = x1 >= (int64_t)width ? (int64_t)width - 1 : x1;
   y1 = y1 >= (int64_t)height ? (int64_t)height - 1 : y1;
   bool inclusive[3];
   int64_t inside_sign[3];
   for (int e = 0; e < 3; e++) {
      int a = e, b = (e + 1) % 3, c = (e + 2) % 3;
      inclusive[e] = top_or_left(x[a], y[a], x[b], y[b], x[c], y[c]);
      inside_sign[e] = edge(x[a], y[a], x[b], y[b], x[c], y[c]) > 0 ? 1 : -1;
   }
   uint64_t covered = 0;
   for (int64_t py = y0; py <= y1; py++) {
      for (int64_t px = x0; px <= x1; px++) {
         bool in = true;
         for (int e = 0; e < 3 && in; e++) {
            int a = e, b = (e + 1) % 3;
            int64_t v = edge(x[a], y[a], x[b], y[b], 2 * px + 1, 2 * py + 1) * inside_sign[e];
            in = v > 0 || (v == 0 && inclusive[e]);
         }
         if (in) {
            count[py * width + px]++;
            covered++;
         }
      }
   }
   return covered;
}
