/* 8/16-bit integers and 16-bit floats (through conversions and 32-bit
 * arithmetic). */
#include <math.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

/* IEEE half <-> float for the reference (round to nearest even). */
static float half_to_float(uint16_t h)
{
   uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
   float f;
   if (exp == 0)
      f = ldexpf((float)man, -24);
   else if (exp == 31)
      f = man ? NAN : INFINITY;
   else
      f = ldexpf((float)(man | 1024), (int)exp - 25);
   uint32_t u;
   memcpy(&u, &f, 4);
   u |= sign;
   memcpy(&f, &u, 4);
   return f;
}

static uint16_t float_to_half(float f)
{
   /* Exhaustive search is simple and exact for the reference. */
   uint16_t best = 0;
   double best_err = INFINITY;
   for (uint32_t h = 0; h < 0x7c00; h++) {
      double err = fabs((double)half_to_float((uint16_t)h) - fabs((double)f));
      if (err < best_err || (err == best_err && (h & 1) == 0)) {
         best_err = err;
         best = (uint16_t)h;
      }
   }
   return (uint16_t)(best | (signbit(f) ? 0x8000 : 0));
}

TEST_CASE(narrow_integers_and_halves)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct {
      int8_t s8[64];
      uint8_t u8[64];
      int16_t s16[64];
      uint16_t u16[64];
      uint16_t h[64];
   } in;
   for (int i = 0; i < 64; i++) {
      in.s8[i] = (int8_t)(i * 37 - 100);
      in.u8[i] = (uint8_t)(i * 53 + 7);
      in.s16[i] = (int16_t)(i * 1234 - 30000);
      in.u16[i] = (uint16_t)(i * 2999 + 11);
      in.h[i] = float_to_half((float)(i - 20) * 0.375f);
   }
   uint64_t ob = ctu_buffer(&t, NULL, 64 * 8 * 4), ib = ctu_buffer(&t, &in, sizeof(in));
   uint64_t nb = ctu_buffer(&t, NULL, 64 * 5);
   struct ctu_dispatch d = {.shader = "narrow_types", .groups = {1}};
   ctu_bind(&d, 0, 0, ob, 64 * 8 * 4);
   ctu_bind(&d, 0, 1, ib, sizeof(in));
   ctu_bind(&d, 0, 2, nb, 64 * 5);
   REQUIRE(ctu_run(&t, &d));
   static int32_t out[64 * 8];
   ctu_read(&t, ob, out, sizeof(out));
   struct {
      uint8_t n8[64];
      int16_t n16[64];
      uint16_t nh[64];
   } narrow;
   ctu_read(&t, nb, &narrow, sizeof(narrow));
   for (int i = 0; i < 64; i++) {
      int8_t a = in.s8[i];
      uint8_t b = in.u8[i];
      int16_t c = in.s16[i];
      uint16_t dd = in.u16[i];
      float h = half_to_float(in.h[i]);
      float h2 = half_to_float(float_to_half(h * 2.0f));
      float h3 = half_to_float(float_to_half(h2 + 0.5f));
      int32_t want[8] = {a + b,           (int8_t)(a * 3),         (uint8_t)(b + 200),
                         c / 7 + (c < 0), (uint16_t)(dd * 5) >> 3, (int32_t)(h * 4.0f),
                         h3 > 3.0f,       (int32_t)a * 1000 + b};
      for (int k = 0; k < 8; k++)
         CHECK_MSG(out[i * 8 + k] == want[k], "i=%d k=%d got %d want %d", i, k, out[i * 8 + k],
                   want[k]);
      uint16_t nh = float_to_half(half_to_float(float_to_half(h * 0.5f)) + 1.0f);
      CHECK_MSG(narrow.n8[i] == (uint8_t)(b ^ 0x5a) && narrow.n16[i] == (int16_t)(c - 1000) &&
                    narrow.nh[i] == nh,
                "i=%d narrow stores %u %d 0x%x want %u %d 0x%x", i, narrow.n8[i], narrow.n16[i],
                narrow.nh[i], (uint8_t)(b ^ 0x5a), (int16_t)(c - 1000), nh);
   }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
