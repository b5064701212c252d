/* Alpha to coverage and the sample mask: empty at alpha 0 (and NaN), full
 * at 1, monotonic in alpha (each mask contains the smaller ones), the
 * number of samples rounds alpha * samples; the sample mask and alpha act
 * per pixel of a quad. */
#include <math.h>
#include <stdio.h>

#include "rop/rop_coverage.h"
#include "test_harness.h"

TEST_CASE(alpha_to_coverage_is_monotonic_and_rounds_alpha_times_samples)
{
   for (unsigned l = 0; l <= 2; l += 2) {
      unsigned samples = l ? 4 : 1;
      CHECK(rop_alpha_to_coverage_mask(0.0f, l) == 0);
      CHECK(rop_alpha_to_coverage_mask(-1.0f, l) == 0);
      CHECK(rop_alpha_to_coverage_mask(NAN, l) == 0);
      CHECK(rop_alpha_to_coverage_mask(1.0f, l) == (1u << samples) - 1u);
      CHECK(rop_alpha_to_coverage_mask(7.0f, l) == (1u << samples) - 1u);
      uint8_t prev = 0;
      for (unsigned i = 0; i <= 1000; i++) {
         float a = i / 1000.0f;
         uint8_t m = rop_alpha_to_coverage_mask(a, l);
         CHECK((m & prev) == prev); /* contains every smaller alpha's mask */
         unsigned want = (unsigned)floor(a * samples + 0.5);
         CHECK((unsigned)__builtin_popcount(m) == (want > samples ? samples : want));
         prev = m;
      }
   }
   /* Two samples of 4x are diagonal: 0 and 3. */
   CHECK(rop_alpha_to_coverage_mask(0.5f, 2) == 0x9);
}

TEST_CASE(quad_coverage_applies_the_sample_mask_and_alpha_per_pixel)
{
   const float alpha[4] = {0.0f, 0.25f, 0.5f, 1.0f};
   CHECK(rop_quad_coverage(0xffff, alpha, 2, true, 0xf) == 0xf910);
   CHECK(rop_quad_coverage(0xffff, alpha, 2, false, 0x5) == 0x5555);
   CHECK(rop_quad_coverage(0xffff, alpha, 2, true, 0x6) == 0x6000);
   CHECK(rop_quad_coverage(0x1111, alpha, 0, true, 0x1) == 0x1100);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
