/* Which state makes fragment order invisible in the result. */
#include "rop/rop_order.h"

#include "ppu/graphics.h"

bool rop_order_is_relaxable(const struct rop_zs_state *z, const struct rop_blend_state *b,
                            uint32_t color_targets, bool counting_samples)
{
   /* Any color write can depend on order: blending is not commutative in
    * float, and two fragments at one depth keep the first (LESS) or the
    * last (LESS_OR_EQUAL) color. */
   for (unsigned i = 0; i < PPU_GFX_COLOR_TARGETS; i++) {
      if ((color_targets & (1u << i)) && b->target[i].write_mask)
         return false;
   }
   /* Any stencil write changes what later stencil tests see. */
   if (z->stencil_test && (z->front.write_mask || z->back.write_mask))
      return false;
   if (z->depth_test && z->depth_write) {
      /* The stored depth ends as the min (LESS, LESS_OR_EQUAL), the max
       * (GREATER, GREATER_OR_EQUAL) or unchanged (EQUAL, NEVER) in any
       * order; ALWAYS and NOT_EQUAL keep the last fragment's. */
      switch (z->depth_op) {
      case PPU_GFX_COMPARE_ALWAYS:
      case PPU_GFX_COMPARE_NOT_EQUAL:
         return false;
      default:
         break;
      }
      /* How many samples pass does depend on order (a far fragment first
       * passes, after a near one fails). */
      if (counting_samples && z->depth_op != PPU_GFX_COMPARE_NEVER &&
          z->depth_op != PPU_GFX_COMPARE_EQUAL)
         return false;
   }
   return true;
}
