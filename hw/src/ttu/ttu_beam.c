/* See ttu_beam.h. */
#include "ttu/ttu_beam.h"

#include <math.h>

#include "ttu/ttu_box_datapath.h"
#include "ttu/ttu_intersect.h"

/* The ray test widens its interval by PPU_TTU_BOX_DILATION relative; the
 * beam's is widened by more, so that the few binary64 roundings of either
 * side (relative errors near 2^-52) cannot reverse the containment. */
#define PPU_TTU_BEAM_DILATION (PPU_TTU_BOX_DILATION + 1.0 / 1073741824.0)

const char *ppu_ttu_beam_error_name(enum ppu_ttu_beam_error e)
{
   switch (e) {
   case PPU_TTU_BEAM_VALID:
      return "valid";
   case PPU_TTU_BEAM_NOT_FINITE:
      return "an origin, direction or tmin is not finite (or tmax is NaN)";
   case PPU_TTU_BEAM_ORIGINS_INVERTED:
      return "origin A is below origin B in some dimension (AABB0 of negative size)";
   case PPU_TTU_BEAM_DIRECTIONS_INVERTED:
      return "direction A is below direction B in some dimension (AABB1 smaller than AABB0)";
   case PPU_TTU_BEAM_NEGATIVE_TMIN:
      return "tmin is negative";
   case PPU_TTU_BEAM_EMPTY_RANGE:
      return "tmax is below tmin";
   }
   return "unknown beam error";
}

enum ppu_ttu_beam_error ppu_ttu_beam_setup(struct ppu_ttu_beam *b, const float oA[3],
                                           const float oB[3], const float dA[3], const float dB[3],
                                           float tmin, float tmax)
{
   for (unsigned a = 0; a < 3; a++)
      if (!isfinite(oA[a]) || !isfinite(oB[a]) || !isfinite(dA[a]) || !isfinite(dB[a]))
         return PPU_TTU_BEAM_NOT_FINITE;
   if (!isfinite(tmin) || isnan(tmax))
      return PPU_TTU_BEAM_NOT_FINITE;
   for (unsigned a = 0; a < 3; a++)
      if (oA[a] < oB[a])
         return PPU_TTU_BEAM_ORIGINS_INVERTED;
   for (unsigned a = 0; a < 3; a++)
      if (dA[a] < dB[a])
         return PPU_TTU_BEAM_DIRECTIONS_INVERTED;
   if (tmin < 0.0f)
      return PPU_TTU_BEAM_NEGATIVE_TMIN;
   if (tmax < tmin)
      return PPU_TTU_BEAM_EMPTY_RANGE;
   for (unsigned a = 0; a < 3; a++) {
      b->oA[a] = oA[a];
      b->oB[a] = oB[a];
      b->dA[a] = dA[a];
      b->dB[a] = dB[a];
      /* In binary64 the reciprocal of every nonzero binary32 is finite. */
      b->idA[a] = dA[a] != 0.0f ? 1.0 / (double)dA[a] : 0.0;
      b->idB[a] = dB[a] != 0.0f ? 1.0 / (double)dB[a] : 0.0;
   }
   b->tmin = tmin;
   b->tmax = tmax;
   return PPU_TTU_BEAM_VALID;
}

unsigned ppu_ttu_beam_slab_case(const struct ppu_ttu_beam *b, unsigned a)
{
   float dA = b->dA[a], dB = b->dB[a];
   if (dA > 0.0f)
      return dB > 0.0f ? 1 : dB == 0.0f ? 2 : 3;
   if (dA == 0.0f)
      return dB == 0.0f ? 4 : 5;
   return 6;
}

bool ppu_ttu_beam_slab(const struct ppu_ttu_beam *b, unsigned a, float lo, float hi, double *tlo,
                       double *thi)
{
   /* The two products; each case uses the ones its directions make
    * meaningful (a zero direction has no product: its rule compares). */
   double amin = ((double)lo - b->oA[a]) * b->idA[a];
   double bmax = ((double)hi - b->oB[a]) * b->idB[a];
   switch (ppu_ttu_beam_slab_case(b, a)) {
   case 1:
      *tlo = amin;
      *thi = bmax;
      return true;
   case 2:
      *tlo = amin;
      *thi = INFINITY;
      return b->oB[a] <= hi;
   case 3:
      *tlo = amin > bmax ? amin : bmax;
      *thi = INFINITY;
      return true;
   case 4:
      *tlo = -INFINITY;
      *thi = INFINITY;
      return b->oA[a] >= lo && b->oB[a] <= hi;
   case 5:
      *tlo = bmax;
      *thi = INFINITY;
      return b->oA[a] >= lo;
   default: /* 6 */
      *tlo = bmax;
      *thi = amin;
      return true;
   }
}

bool ppu_ttu_beam_box_test(const struct ppu_ttu_beam *b, const float lo[3], const float hi[3])
{
   double enter = -INFINITY, leave = INFINITY;
   for (unsigned a = 0; a < 3; a++) {
      double t0, t1;
      if (!ppu_ttu_beam_slab(b, a, lo[a], hi[a], &t0, &t1))
         return false;
      enter = t0 > enter ? t0 : enter;
      leave = t1 < leave ? t1 : leave;
   }
   /* Widened as the ray test widens, by more (see the top of the file). */
   enter -= fabs(enter) * PPU_TTU_BEAM_DILATION;
   leave += fabs(leave) * PPU_TTU_BEAM_DILATION;
   if (enter < b->tmin)
      enter = b->tmin;
   if (leave > b->tmax)
      leave = b->tmax;
   return enter <= leave;
}

uint32_t ppu_ttu_beam_node_test(const struct ppu_ttu_beam *b, const struct ppu_bvh_node *n)
{
   uint32_t mask = 0;
   unsigned count = n->child_count < PPU_BVH_WIDTH ? n->child_count : PPU_BVH_WIDTH;
   for (unsigned slot = 0; slot < count; slot++) {
      float lo[3], hi[3];
      ppu_ttu_child_box(n, slot, lo, hi);
      if (ppu_ttu_beam_box_test(b, lo, hi))
         mask |= 1u << slot;
   }
   return mask;
}

enum ppu_ttu_beam_error ppu_ttu_beam_enclose(struct ppu_ttu_beam *b, unsigned count,
                                             const float (*o)[3], const float (*d)[3],
                                             const float *tmin, const float *tmax)
{
   if (count == 0)
      return PPU_TTU_BEAM_EMPTY_RANGE;
   float oA[3], oB[3], dA[3], dB[3], lo = tmin[0], hi = tmax[0];
   for (unsigned a = 0; a < 3; a++) {
      oA[a] = oB[a] = o[0][a];
      dA[a] = dB[a] = d[0][a];
   }
   for (unsigned i = 1; i < count; i++) {
      for (unsigned a = 0; a < 3; a++) {
         oA[a] = fmaxf(oA[a], o[i][a]);
         oB[a] = fminf(oB[a], o[i][a]);
         dA[a] = fmaxf(dA[a], d[i][a]);
         dB[a] = fminf(dB[a], d[i][a]);
      }
      lo = fminf(lo, tmin[i]);
      hi = fmaxf(hi, tmax[i]);
   }
   /* fmin/fmax drop a NaN operand; a NaN ray must not vanish from the
    * beam, so any NaN makes the beam invalid. */
   for (unsigned i = 0; i < count; i++)
      for (unsigned a = 0; a < 3; a++)
         if (isnan(o[i][a]) || isnan(d[i][a]) || isnan(tmin[i]) || isnan(tmax[i]))
            return PPU_TTU_BEAM_NOT_FINITE;
   return ppu_ttu_beam_setup(b, oA, oB, dA, dB, lo, hi);
}
