/* Scalar and vector arithmetic, comparisons, conversions, composites. */
#include <math.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
   rng_state = rng_state * 1664525u + 1013904223u;
   return rng_state;
}

TEST_CASE(int_arith_matches_c)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   enum { N = 256 };
   int32_t in[2 * N];
   for (int i = 0; i < 2 * N; i++)
      in[i] = (int32_t)rnd() >> (rnd() % 24);
   in[3 + N] = 0;
   in[5] = INT32_MIN;
   in[5 + N] = -1;
   uint64_t out = ctu_buffer(&t, NULL, N * 8 * 4), inb = ctu_buffer(&t, in, sizeof(in));
   struct ctu_dispatch d = {.shader = "int_arith", .groups = {N / 64}};
   ctu_bind(&d, 0, 0, out, N * 8 * 4);
   ctu_bind(&d, 0, 1, inb, sizeof(in));
   REQUIRE(ctu_run(&t, &d));
   int32_t got[N * 8];
   ctu_read(&t, out, got, sizeof(got));
   for (int i = 0; i < N; i++) {
      int32_t x = in[i], y = in[i + N];
      int32_t want[8];
      want[0] = (int32_t)((uint32_t)x + (uint32_t)y);
      want[1] = (int32_t)((uint32_t)x - (uint32_t)y);
      want[2] = (int32_t)((uint32_t)x * (uint32_t)y);
      want[3] = y == 0 ? 0 : (x == INT32_MIN && y == -1) ? INT32_MIN : x / y;
      /* glslang emits OpSMod for %: the result takes the divisor's sign. */
      want[4] = y == 0 ? 0 : (y == -1) ? 0 : x % y;
      if (want[4] != 0 && ((want[4] ^ y) < 0))
         want[4] += y;
      want[5] = (x & y) ^ (x | 7);
      want[6] = (int32_t)(((uint32_t)x << (y & 31)) + (uint32_t)(x >> 3));
      want[7] = (int32_t)(((uint32_t)x >> 5) + (uint32_t)~y + (uint32_t)(-(int64_t)x));
      for (int k = 0; k < 8; k++)
         CHECK_MSG(got[i * 8 + k] == want[k], "i=%d k=%d x=%d y=%d got %d want %d", i, k, x, y,
                   got[i * 8 + k], want[k]);
   }
   ctu_finish(&t);
}

/* Runs shader with binding 1 = in, binding 0 = out (zeroed), reads out back. */
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

static uint32_t ubits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

TEST_CASE(uint_arith_and_compares_match_c)
{
   enum { N = 128 };
   static uint32_t in[2 * N], out[N * 6];
   for (int i = 0; i < 2 * N; i++)
      in[i] = rnd() >> (rnd() % 28);
   in[2 * 7 + 1] = 0;
   in[2 * 9] = in[2 * 9 + 1];
   REQUIRE(run_io("uint_arith", in, sizeof(in), out, sizeof(out), N / 64));
   for (int i = 0; i < N; i++) {
      uint32_t x = in[2 * i], y = in[2 * i + 1];
      uint32_t want[6] = {y ? x / y : 7u,
                          y ? x % y : 9u,
                          x >> (y & 31),
                          (x < y) + 2u * (x <= y) + 4u * (x > y) + 8u * (x >= y) + 16u * (x == y) +
                              32u * (x != y),
                          (x < y ? x : y) + (x > y ? x : y) * 3u,
                          x < 100u      ? 100u
                          : x > 100000u ? 100000u
                                        : x};
      for (int k = 0; k < 6; k++)
         CHECK_MSG(out[i * 6 + k] == want[k], "i=%d k=%d got %u want %u", i, k, out[i * 6 + k],
                   want[k]);
   }
}

TEST_CASE(float_arith_matches_c)
{
   enum { N = 128 };
   static float in[2 * N], out[N * 8];
   for (int i = 0; i < 2 * N; i++)
      in[i] = (float)((int32_t)rnd() % 100000) / 37.0f;
   in[5] = in[4];
   REQUIRE(run_io("float_arith", in, sizeof(in), out, sizeof(out), N / 64));
   for (int i = 0; i < N; i++) {
      float x = in[2 * i], y = in[2 * i + 1];
      float want[8] = {x + y,
                       x - y,
                       x * y,
                       x / y,
                       -x,
                       (x < y ? 1.0f : 0.0f) + (x >= y ? 2.0f : 0.0f) + (x == y ? 4.0f : 0.0f),
                       x - y * floorf(x / y),
                       x * 0.5f + y * 0.25f};
      for (int k = 0; k < 8; k++) {
         /* mod() is x - y * floor(x / y) (GLSL 8.3): compare within a few ulp of x. */
         uint32_t ulps = k == 6 ? 64 : 0;
         CHECK_MSG(ctu_float_near(out[i * 8 + k], want[k], ulps), "i=%d k=%d got %g want %g", i, k,
                   out[i * 8 + k], want[k]);
      }
   }
}

TEST_CASE(conversions_truncate_and_round_like_glsl)
{
   enum { N = 64 };
   static float in[N];
   static uint32_t out[N * 6];
   for (int i = 0; i < N; i++)
      in[i] = (float)((int32_t)rnd() % 2000000) / 97.0f;
   in[0] = 0.0f;
   in[1] = -0.75f;
   in[2] = 1.5f;
   REQUIRE(run_io("conversions", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      float x = in[i];
      int32_t si = (int32_t)x;
      uint32_t ui = (uint32_t)fabsf(x);
      uint32_t want[6] = {(uint32_t)si,
                          ui,
                          ubits((float)si * 2.0f),
                          ubits((float)(ui + 3u)),
                          (uint32_t)(x > 1.0f) + (si != 0) * 2u,
                          ubits((float)i / 3.0f)};
      for (int k = 0; k < 6; k++)
         CHECK_MSG(out[i * 6 + k] == want[k], "i=%d k=%d got 0x%x want 0x%x", i, k, out[i * 6 + k],
                   want[k]);
   }
}

TEST_CASE(vectors_swizzle_insert_and_dynamic_index)
{
   enum { N = 64 };
   static float in[2 * N * 4], out[N * 16];
   for (int i = 0; i < 2 * N * 4; i++)
      in[i] = (float)((int32_t)rnd() % 1000) / 8.0f;
   REQUIRE(run_io("vectors", in, sizeof(in), out, sizeof(out), N / 32));
   for (int i = 0; i < N; i++) {
      const float *a = &in[i * 4], *b = &in[(i + 64) * 4];
      float want[16];
      float s[4];
      for (int k = 0; k < 4; k++)
         s[k] = a[k] + b[k] * 2.0f;
      for (int k = 0; k < 4; k++)
         want[k] = s[3 - k];
      want[4] = a[0] * b[1];
      want[5] = a[1] * b[2];
      want[6] = a[2] * b[0];
      want[7] = a[3] - b[3];
      float cv[4] = {a[0], b[0], a[2], a[3]};
      cv[i & 3] = 100.0f;
      memcpy(&want[8], cv, sizeof(cv));
      want[12] = b[i % 4];
      want[13] = fmaf(a[3], b[3], fmaf(a[2], b[2], fmaf(a[1], b[1], a[0] * b[0])));
      want[14] = a[0];
      want[15] = (float)i;
      for (int k = 0; k < 16; k++) {
         /* dot may be evaluated with or without fusing: allow a few ulp. */
         uint32_t ulps = k == 13 ? 8 : 0;
         CHECK_MSG(ctu_float_near(out[i * 16 + k], want[k], ulps) ||
                       (k == 13 && fabsf(out[i * 16 + k] - want[k]) < 1e-3f),
                   "i=%d k=%d got %g want %g", i, k, out[i * 16 + k], want[k]);
      }
   }
}

TEST_CASE(compare_select_and_logic_match_c)
{
   enum { N = 64 };
   static int32_t in[2 * N * 4];
   static uint32_t out[N * 4];
   for (int i = 0; i < 2 * N * 4; i++)
      in[i] = (int32_t)(rnd() % 7) - 3;
   REQUIRE(run_io("compare_select", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      const int32_t *a = &in[i * 4], *b = &in[(i + 64) * 4];
      int32_t m = 0;
      bool any_eq = false, all_lt = true, any_ne = false;
      for (int k = 0; k < 4; k++) {
         m += a[k] < b[k] ? a[k] : b[k];
         any_eq |= a[k] == b[k];
         all_lt &= a[k] < b[k];
         any_ne |= a[k] != b[k];
      }
      bool p = a[0] > 0 && b[0] > 0, q = a[1] < 0 || b[1] < 0;
      uint32_t want[4] = {(uint32_t)m, any_eq + 2u * all_lt + 4u * any_ne,
                          p + 2u * q + 4u * (p != q) + 8u * !p,
                          a[2] > b[2] ? (uint32_t)a[2] : (uint32_t)b[3]};
      for (int k = 0; k < 4; k++)
         CHECK_MSG(out[i * 4 + k] == want[k], "i=%d k=%d got %u want %u", i, k, out[i * 4 + k],
                   want[k]);
   }
}

static int find_msb_s(int32_t x)
{
   uint32_t u = x < 0 ? ~(uint32_t)x : (uint32_t)x;
   return u ? 31 - __builtin_clz(u) : -1;
}

TEST_CASE(bitfield_ops_match_glsl)
{
   enum { N = 64 };
   static uint32_t in[N], out[N * 7];
   for (int i = 0; i < N; i++)
      in[i] = rnd();
   in[0] = 0;
   in[1] = 0xffffffffu;
   REQUIRE(run_io("bitops", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      uint32_t x = in[i], off = i % 20, bits = i % 12;
      uint32_t mask = bits ? ((1u << bits) - 1) : 0;
      uint32_t ue = (x >> off) & mask;
      uint32_t se = bits && (ue >> (bits - 1)) ? ue | ~mask : ue;
      uint32_t ins = (x & ~(mask << off)) | (((uint32_t)i * 0x1234567u & mask) << off);
      uint32_t rev = 0;
      for (int k = 0; k < 32; k++)
         rev |= ((x >> k) & 1u) << (31 - k);
      uint32_t want[7] = {ue,
                          se,
                          ins,
                          rev,
                          (uint32_t)__builtin_popcount(x),
                          x ? (uint32_t)__builtin_ctz(x) : 0xffffffffu,
                          (uint32_t)(x ? 31 - __builtin_clz(x) : -1) +
                              1000u * (uint32_t)find_msb_s((int32_t)x)};
      for (int k = 0; k < 7; k++)
         CHECK_MSG(out[i * 7 + k] == want[k], "i=%d k=%d x=0x%x got 0x%x want 0x%x", i, k, x,
                   out[i * 7 + k], want[k]);
   }
}

/* carry.comp: OpIAddCarry and OpISubBorrow (32-bit scalars and vectors)
 * against C, with operands that do and do not carry. */
TEST_CASE(add_carry_and_subtract_borrow_match_c)
{
   enum { N = 64 };
   static uint32_t in[2 * N], out[N * 6];
   for (int i = 0; i < 2 * N; i++)
      in[i] = rnd();
   in[0] = 0xffffffffu, in[1] = 1;
   in[2] = 0, in[3] = 0;
   in[4] = 5, in[5] = 5;
   REQUIRE(run_io("carry", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      uint32_t x = in[2 * i], y = in[2 * i + 1];
      uint32_t want[6] = {x + y,
                          x + y < x,
                          x - y,
                          x < y,
                          (x + y) ^ (y + 0xffffffffu),
                          (uint32_t)(x + y < x) | (uint32_t)(y + 0xffffffffu < y) << 1};
      for (int k = 0; k < 6; k++)
         CHECK_MSG(out[i * 6 + k] == want[k], "i=%d k=%d x=0x%x y=0x%x got 0x%x want 0x%x", i, k, x,
                   y, out[i * 6 + k], want[k]);
   }
}

TEST_CASE(matrix_products_transpose_outer_product)
{
   enum { N = 16 };
   static float in[2 * N * 16], out[N * 12 * 4];
   for (int i = 0; i < 2 * N * 16; i++)
      in[i] = (float)((int32_t)(rnd() % 17) - 8) / 4.0f; /* exact products and sums */
   REQUIRE(run_io("matrices", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      const float *a = &in[i * 16], *b = &in[(i + N) * 16]; /* column-major a[col*4+row] */
      float want[12 * 4] = {0};
      const float *v = &a[4];
      for (int r = 0; r < 4; r++)
         for (int k = 0; k < 4; k++) {
            want[r] += a[k * 4 + r] * v[k];
            want[4 + r] += v[k] * a[r * 4 + k];
         }
      for (int col = 0; col < 4; col++)
         for (int r = 0; r < 4; r++)
            for (int k = 0; k < 4; k++)
               want[8 + col * 4 + r] += a[k * 4 + r] * b[col * 4 + k];
      for (int r = 0; r < 4; r++)
         want[24 + r] = a[r * 4 + 2];
      for (int r = 0; r < 4; r++)
         want[28 + r] = v[r] * b[3];
      for (int r = 0; r < 3; r++)
         want[32 + r] = a[r] * 2.0f;
      want[35] = a[2 * 4 + 2] * 2.0f;
      for (int k = 0; k < 48; k++)
         CHECK_MSG(out[i * 48 + k] == want[k], "i=%d k=%d got %g want %g", i, k, out[i * 48 + k],
                   want[k]);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
