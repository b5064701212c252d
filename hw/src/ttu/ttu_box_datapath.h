/* The box half of the TTU's intersection datapath as the traversal unit
 * uses it when it expands a node: the quantized boxes of all
 * PPU_BVH_WIDTH children decoded from the node line and tested against one
 * ray in one pass.
 *
 * The unified-box-triangle-datapath seed tests several boxes per cycle on
 * one set of multipliers and adders (the mux layers configured for boxes);
 * the model does the same on the host's vector unit: AVX2 when the host
 * has it (chosen at run time, ppu_ttu_node_box_select), else a scalar loop.
 * Both give the bits of ppu_ttu_box_test (ttu_intersect.c) on each child:
 * the same binary32 plane decode, the same binary64 slab arithmetic in the
 * same order, no fused multiply-add (the AVX2 code is compiled for "avx2"
 * only, without "fma", so the compiler cannot contract it), and the same
 * NaN behaviour (ordered compares where the scalar code compares). Nothing
 * a counter or a result sees depends on which one runs.
 */
#ifndef PPU_TTU_BOX_DATAPATH_H
#define PPU_TTU_BOX_DATAPATH_H

#include <stdint.h>

#include "ppu/bvh.h"
#include "ttu/ttu_intersect.h"

/* Tests the boxes of slots 0 .. child_count - 1 (child_kind not looked
 * at: the caller masks the result; later slots may or may not be tested)
 * against r over [tmin, tmax]. Bit i of the result is set when slot i's
 * box is hit; near[i] is then its entry t as ppu_ttu_box_test gives it
 * (unspecified for slots missed). */
typedef uint32_t (*ppu_ttu_node_box_fn)(const struct ppu_ttu_ray *r, const struct ppu_bvh_node *n,
                                        float tmin, float tmax, float near[PPU_BVH_WIDTH]);

uint32_t ppu_ttu_node_box_test_scalar(const struct ppu_ttu_ray *r, const struct ppu_bvh_node *n,
                                      float tmin, float tmax, float near[PPU_BVH_WIDTH]);
/* NULL when the host has no AVX2 (or the compiler cannot target it). */
ppu_ttu_node_box_fn ppu_ttu_node_box_avx2(void);
/* The fastest of the two this host runs. */
ppu_ttu_node_box_fn ppu_ttu_node_box_select(void);

/* The box of child slot, decoded as ppu/bvh.h defines it. */
static inline void ppu_ttu_child_box(const struct ppu_bvh_node *n, unsigned slot, float lo[3],
                                     float hi[3])
{
   for (unsigned a = 0; a < 3; a++) {
      lo[a] = ppu_bvh_plane(n->origin[a], n->exponent[a], n->q_lo[a][slot]);
      hi[a] = ppu_bvh_plane(n->origin[a], n->exponent[a], n->q_hi[a][slot]);
   }
}

#endif /* PPU_TTU_BOX_DATAPATH_H */
