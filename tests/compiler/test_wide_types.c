/* 64-bit integers and doubles (aligned register pairs). */
#include <math.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return rng_state;
}

static bool run_io(const char *shader, const void *in, uint32_t in_bytes, void *out,
                   uint32_t out_bytes, uint32_t groups)
{
   struct ctu t;
   if (!ctu_init(&t))
      return false;
   uint64_t ob = ctu_buffer(&t, NULL, out_bytes), ib = ctu_buffer(&t, in, in_bytes);
   struct ctu_dispatch d = {.shader = shader, .groups = {groups}};
   ctu_bind(&d, 0, 0, ob, out_bytes);
   ctu_bind(&d, 0, 1, ib, in_bytes);
   bool ok = ctu_run(&t, &d);
   if (ok)
      ctu_read(&t, ob, out, out_bytes);
   ctu_finish(&t);
   return ok;
}

TEST_CASE(int64_arithmetic_matches_c)
{
   enum { N = 64 };
   static uint64_t in[2 * N], out[N * 8];
   for (int i = 0; i < 2 * N; i++)
      in[i] = rnd64() >> (rnd64() % 60);
   in[1] = 0;
   in[4] = in[5];
   REQUIRE(run_io("int64", in, sizeof(in), out, sizeof(out), 1));
   for (uint32_t i = 0; i < N; i++) {
      uint64_t x = in[2 * i], y = in[2 * i + 1];
      int64_t sx = (int64_t)x;
      uint64_t want[8] = {x + y * 3,
                          x - y,
                          x * y,
                          y ? x / y : 0x123456789abcdefull,
                          (x << (i % 64)) ^ (y >> 7) ^ (uint64_t)(sx >> 9),
                          (uint64_t)(x < y) + ((uint64_t)(sx < (int64_t)y) << 1) +
                              ((uint64_t)(x == y) << 2),
                          (uint64_t)(uint32_t)x + (uint64_t)(int64_t)(int32_t)y,
                          (x & 0xffffffff00000000ull) | (y & 0xffff)};
      for (int k = 0; k < 8; k++)
         CHECK_MSG(out[i * 8 + k] == want[k], "i=%u k=%d got 0x%llx want 0x%llx", i, k,
                   (unsigned long long)out[i * 8 + k], (unsigned long long)want[k]);
   }
}

TEST_CASE(float64_arithmetic_matches_c)
{
   enum { N = 64 };
   static double in[2 * N], out[N * 6];
   for (int i = 0; i < 2 * N; i++)
      in[i] = (double)(int64_t)(rnd64() % 2000001) / 1024.0 - 900.0;
   REQUIRE(run_io("float64", in, sizeof(in), out, sizeof(out), 1));
   for (uint32_t i = 0; i < N; i++) {
      double x = in[2 * i], y = in[2 * i + 1];
      double want[6] = {x + y,
                        x * y - x,
                        x / y,
                        -x,
                        (double)(float)x + (double)(int32_t)y,
                        x < y ? sqrt(fabs(x)) : floor(y)};
      for (int k = 0; k < 6; k++)
         CHECK_MSG(out[i * 6 + k] == want[k], "i=%u k=%d got %.17g want %.17g", i, k,
                   out[i * 6 + k], want[k]);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
