/* Quantized child boxes (bvh.h; Ylitie, Karras and Laine, HPG 2017, sec. 3.1):
 * per node and axis an origin and a power-of-two scale, per child 8-bit
 * lower and upper plane indices. The header promises that the boxes the TTU
 * decodes, origin + (float)q * 2^e in binary32 with round-to-nearest, are
 * conservative. Rounding the division down/up is not enough on its own
 * (the final addition rounds to nearest), so each plane is checked with the
 * TTU's own expression and stepped until it holds. */
#include <math.h>
#include <string.h>

#include "bvh_internal.h"

/* The TTU's decode (ppu/bvh.h), so that what the builder checks is what the
 * TTU will compute. (float)q * 2^e may overflow to +inf, which only ever
 * widens an upper plane. */
static float decode(float origin, int exponent, unsigned q)
{
   return ppu_bvh_plane(origin, exponent, q);
}

void bvh_node_child_box(const struct ppu_bvh_node *node, unsigned slot, float lo[3], float hi[3])
{
   for (int a = 0; a < 3; a++) {
      lo[a] = decode(node->origin[a], node->exponent[a], node->q_lo[a][slot]);
      hi[a] = decode(node->origin[a], node->exponent[a], node->q_hi[a][slot]);
   }
}

/* Smallest e in [-128, 127] with 255 * 2^e >= extent. */
static int exponent_for(double extent)
{
   int e = -128;
   if (extent > 0.0) {
      e = (int)ceil(log2(extent / 255.0));
      if (e < -128)
         e = -128;
      while (e > -128 && 255.0 * ppu_bvh_pow2(e - 1) >= extent)
         e--;
      while (e < 127 && 255.0 * ppu_bvh_pow2(e) < extent)
         e++;
   }
   return e;
}

/* Quantizes axis a of every non-empty box with exponent e; false when an
 * upper plane would need an index above 255 (then e must grow). */
static bool quantize_axis(struct ppu_bvh_node *node, int a, int e, const struct bvh_box *boxes,
                          unsigned count)
{
   float origin = node->origin[a];
   double scale = ppu_bvh_pow2(e);
   for (unsigned i = 0; i < count; i++) {
      if (bvh_box_is_empty(&boxes[i])) {
         node->q_lo[a][i] = node->q_hi[a][i] = 0;
         continue;
      }
      float lo = boxes[i].min[a], hi = boxes[i].max[a];
      double qlo = floor(((double)lo - origin) / scale);
      double qhi = ceil(((double)hi - origin) / scale);
      unsigned ql = qlo < 0.0 ? 0u : qlo > 255.0 ? 255u : (unsigned)qlo;
      unsigned qh = qhi < 0.0 ? 0u : qhi > 255.0 ? 256u : (unsigned)qhi;
      /* decode(0) == origin <= lo, so this stops. */
      while (ql > 0 && decode(origin, e, ql) > lo)
         ql--;
      while (qh <= 255 && decode(origin, e, qh) < hi)
         qh++;
      if (qh > 255)
         return false;
      node->q_lo[a][i] = (uint8_t)ql;
      node->q_hi[a][i] = (uint8_t)qh;
   }
   return true;
}

void bvh_quantize_node(struct ppu_bvh_node *node, const struct bvh_box *boxes, unsigned count)
{
   for (int a = 0; a < 3; a++) {
      float lo = INFINITY, hi = -INFINITY;
      for (unsigned i = 0; i < count; i++) {
         if (bvh_box_is_empty(&boxes[i]))
            continue;
         lo = fminf(lo, boxes[i].min[a]);
         hi = fmaxf(hi, boxes[i].max[a]);
      }
      if (lo > hi)
         lo = hi = 0.0f; /* every child empty */
      node->origin[a] = lo;
      /* Boxes are clamped to finite values, so with e = 127 the top index
       * decodes to +inf and the loop ends there at the latest. */
      int e = exponent_for((double)hi - lo);
      while (!quantize_axis(node, a, e, boxes, count) && e < 127)
         e++;
      node->exponent[a] = (int8_t)e;
   }
}
