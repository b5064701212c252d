/* The beam query of the beam-tracing seed (US 9,569,559, Tables 1 and 2): a
 * beam given by two rays, A through the maximum corners and B through the
 * minimum corners of a box that moves linearly with the parameter t, tested
 * against an axis-aligned box slab by slab.
 *
 * At parameter t the beam covers, per dimension, [oB + t dB, oA + t dA]. It
 * reaches the slab [MIN, MAX] at t when oA + t dA >= MIN and oB + t dB <= MAX.
 * With the seed's valid configurations (oA >= oB, dA >= dB per dimension,
 * 0 <= tmin <= tmax) the sign of dA and dB picks one of six slab cases, each
 * a single rule over two products, Amin = (MIN - oA) / dA and
 * Bmax = (MAX - oB) / dB (the seed's "two multiplication operations per
 * dimension", with the inverse directions computed once per beam):
 *
 *   case  dA  dB   t range of the slab
 *   1     >0  >0   [Amin, Bmax]
 *   2     >0  =0   [Amin, +inf]   if oB <= MAX, else none
 *   3     >0  <0   [max(Amin, Bmax), +inf]
 *   4     =0  =0   [-inf, +inf]   if oA >= MIN and oB <= MAX, else none
 *   5     =0  <0   [Bmax, +inf]   if oA >= MIN, else none
 *   6     <0  <0   [Bmax, Amin]
 *
 * (Negative t values are all equivalent, the seed observes, since the beam
 * starts at tmin >= 0: one rule per case covers every configuration of it.)
 * The beam reaches the box when the slabs' ranges and [tmin, tmax] overlap
 * (Table 1: the max of the mins against the min of the maxes).
 *
 * The test is conservative against the TTU's own ray-box test
 * (ppu_ttu_box_test): every ray o + t d with oB <= o <= oA, dB <= d <= dA and
 * [tmin', tmax'] inside [tmin, tmax] that the ray test lets into a box, the
 * beam test lets in too. In exact arithmetic the ray's slab interval lies in
 * the beam's; the products are computed in binary64 from binary32 inputs as
 * the ray's are, and the result is widened a little more than the ray test
 * widens its own (PPU_TTU_BEAM_DILATION), so rounding keeps the order.
 */
#ifndef PPU_TTU_BEAM_H
#define PPU_TTU_BEAM_H

#include <stdbool.h>
#include <stdint.h>

#include "ppu/bvh.h"

struct ppu_ttu_beam {
   float oA[3], oB[3];    /* origins: maximum and minimum corner at t = 0 */
   float dA[3], dB[3];    /* directions: maximum and minimum corner's motion per unit t */
   double idA[3], idB[3]; /* 1 / dA, 1 / dB (0 where the direction is 0: cases 2, 4, 5) */
   float tmin, tmax;
};

/* Why a beam configuration is refused (the seed's Table 2 reports an error
 * for these). */
enum ppu_ttu_beam_error {
   PPU_TTU_BEAM_VALID = 0,
   PPU_TTU_BEAM_NOT_FINITE,          /* a NaN or infinite origin, direction or t */
   PPU_TTU_BEAM_ORIGINS_INVERTED,    /* oA < oB in some dimension: AABB0 of negative size */
   PPU_TTU_BEAM_DIRECTIONS_INVERTED, /* dA < dB: AABB1 smaller than AABB0 */
   PPU_TTU_BEAM_NEGATIVE_TMIN,       /* tmin < 0 */
   PPU_TTU_BEAM_EMPTY_RANGE,         /* tmax < tmin */
};

const char *ppu_ttu_beam_error_name(enum ppu_ttu_beam_error e);

/* Checks the configuration and fills *b (inverse directions included);
 * anything but PPU_TTU_BEAM_VALID leaves *b unusable. tmax may be +inf. */
enum ppu_ttu_beam_error ppu_ttu_beam_setup(struct ppu_ttu_beam *b, const float oA[3],
                                           const float oB[3], const float dA[3], const float dB[3],
                                           float tmin, float tmax);

/* The slab case (1..6, table above) of dimension a of a valid beam. */
unsigned ppu_ttu_beam_slab_case(const struct ppu_ttu_beam *b, unsigned a);

/* Dimension a's t range for the slab [lo, hi] (Table 2, bslab): false when
 * the rule says the beam never reaches the slab. */
bool ppu_ttu_beam_slab(const struct ppu_ttu_beam *b, unsigned a, float lo, float hi, double *tlo,
                       double *thi);

/* Table 1: whether the beam reaches the box [lo, hi] within [tmin, tmax]. */
bool ppu_ttu_beam_box_test(const struct ppu_ttu_beam *b, const float lo[3], const float hi[3]);

/* The children of node n (slots 0 .. child_count - 1, kinds not looked at)
 * the beam reaches, as a slot mask. */
uint32_t ppu_ttu_beam_node_test(const struct ppu_ttu_beam *b, const struct ppu_bvh_node *n);

/* The beam enclosing `count` rays (origins o[i], directions d[i], intervals
 * [tmin[i], tmax[i]]): componentwise min and max, exact. Same errors as
 * ppu_ttu_beam_setup (count 0: PPU_TTU_BEAM_EMPTY_RANGE). */
enum ppu_ttu_beam_error ppu_ttu_beam_enclose(struct ppu_ttu_beam *b, unsigned count,
                                             const float (*o)[3], const float (*d)[3],
                                             const float *tmin, const float *tmax);

#endif /* PPU_TTU_BEAM_H */
