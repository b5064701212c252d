/* Alpha to coverage and the sample mask. */
#include "rop/rop_coverage.h"

#include <math.h>

uint8_t rop_alpha_to_coverage_mask(float alpha, unsigned samples_log2)
{
   static const uint8_t order_4x[5] = {0x0, 0x1, 0x9, 0xb, 0xf}; /* samples 0, 3, 1, 2 */
   unsigned samples = samples_log2 ? 4u : 1u;
   /* The negated test sends NaN to 0 samples. */
   float n = !(alpha > 0.0f) ? 0.0f
             : alpha >= 1.0f ? (float)samples
                             : floorf(alpha * samples + 0.5f);
   unsigned count = (unsigned)n;
   return samples == 4 ? order_4x[count] : (uint8_t)(count ? 1u : 0u);
}

uint16_t rop_quad_coverage(uint16_t coverage, const float alpha[4], unsigned samples_log2,
                           bool alpha_to_coverage, uint32_t sample_mask)
{
   uint16_t out = 0;
   for (unsigned p = 0; p < 4; p++) {
      uint32_t m = (coverage >> (p * 4)) & sample_mask & 0xfu;
      if (alpha_to_coverage)
         m &= rop_alpha_to_coverage_mask(alpha[p], samples_log2);
      out |= (uint16_t)(m << (p * 4));
   }
   return out;
}
