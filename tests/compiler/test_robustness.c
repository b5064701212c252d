/* robustBufferAccess (driver/shader_abi.h): out-of-range accesses read
 * zero and drop writes; in-range ones behave normally. */
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

TEST_CASE(out_of_range_reads_zero_and_writes_are_dropped)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   enum { N = 128 };
   static uint32_t out[2 * N + 64], in[N + 64], vec[4 * N];
   for (uint32_t i = 0; i < N + 64; i++)
      in[i] = 1000 + i;
   for (uint32_t i = 0; i < 4 * N; i++)
      vec[i] = 0xbeef0000u + i;
   for (uint32_t i = 0; i < 2 * N + 64; i++)
      out[i] = 0xdeadu;
   uint64_t ob = ctu_buffer(&t, out, sizeof(out)), ib = ctu_buffer(&t, in, sizeof(in));
   uint64_t vb = ctu_buffer(&t, vec, sizeof(vec));
   /* Ranges: out covers 100 + 128 words, in 40 words, vec 10 uvec4 (+ 8 bytes). */
   struct ctu_dispatch d = {.shader = "robust_access", .groups = {2}, .robust = true};
   ctu_bind(&d, 0, 0, ob, (N + 100) * 4);
   ctu_bind(&d, 0, 1, ib, 40 * 4);
   ctu_bind(&d, 0, 2, vb, 10 * 16 + 8);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t got_out[2 * N + 64], got_in[N + 64], got_vec[4 * N];
   ctu_read(&t, ob, got_out, sizeof(got_out));
   ctu_read(&t, ib, got_in, sizeof(got_in));
   ctu_read(&t, vb, got_vec, sizeof(got_vec));
   for (uint32_t i = 0; i < N; i++) {
      uint32_t want = i < 40 ? in[i] + 1 + (i >= 16 ? 1 : 0) : 1;
      /* o[i] = a[i] + 1 reads before or after the atomics of other
       * invocations: allow both for the words both touch. */
      bool ok = got_out[i] == want || (i >= 16 && i < 40 && got_out[i] == in[i] + 1);
      CHECK_MSG(ok, "o[%u] = %u, want %u", i, got_out[i], want);
      /* Checks are per component: v[10].y still lies within the range. */
      uint32_t vy = i <= 10 ? vec[4 * i + 1] : 0;
      if (i + 128 < N + 100)
         CHECK_MSG(got_out[i + 128] == vy, "o[%u] = 0x%x want 0x%x", i + 128, got_out[i + 128], vy);
      else
         CHECK_MSG(got_out[i + 128] == 0xdeadu, "write beyond range landed at %u", i + 128);
   }
   for (uint32_t i = 0; i < N + 64; i++) {
      uint32_t want = in[i] + ((i >= 16 && i < 40) ? 1 : 0);
      CHECK_MSG(got_in[i] == want, "a[%u] = %u want %u", i, got_in[i], want);
   }
   for (uint32_t i = 0; i < 4 * N; i++) {
      uint32_t want = i < 42 ? i / 4 : vec[i];
      CHECK_MSG(got_vec[i] == want, "v word %u = 0x%x want 0x%x", i, got_vec[i], want);
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
