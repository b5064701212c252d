/* Subgroup operations: a subgroup is a warp of 32 lanes. */
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

TEST_CASE(subgroup_vote_ballot_arithmetic_shuffle)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   enum { N = 128 };
   uint64_t ob = ctu_buffer(&t, NULL, N * 12 * 4);
   struct ctu_dispatch d = {.shader = "subgroup_ops", .groups = {N / 64}};
   ctu_bind(&d, 0, 0, ob, N * 12 * 4);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[N * 12];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < N; i++) {
      uint32_t l = i % 32, base = i - l, sum = 0, inc = 0, mx = 0;
      for (uint32_t k = 0; k < 32; k++) {
         sum += base + k;
         if (k <= l)
            inc += base + k;
         uint32_t v = (base + k) * 7 % 13;
         mx = v > mx ? v : mx;
      }
      uint32_t want[12] = {sum,
                           inc,
                           l,
                           mx,
                           0xaaaaaaaau,
                           1u + 2u * (base == 0) + 4u * (l == 0) + 8u,
                           base + 31 - l,
                           i ^ 1u,
                           base + 5,
                           3200u + (i % 64) / 32,
                           (l & 1) ? 0u : 16u + 100u * 0u,
                           l};
      for (int k = 0; k < 12; k++)
         CHECK_MSG(out[i * 12 + k] == want[k], "i=%u k=%d got 0x%x want 0x%x", i, k,
                   out[i * 12 + k], want[k]);
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
