/* IEEE 754 binary16/32/64 bit patterns <-> double, for constant folding of
 * OpFConvert and OpQuantizeToF16 during specialization. Written with integer
 * arithmetic so that it needs no _Float16 support from the host compiler. */
#include <math.h>
#include <string.h>

#include "spirv_float.h"

static double half_to_double(uint16_t h)
{
   const int sign = h >> 15;
   const int exponent = (h >> 10) & 0x1f;
   const int mantissa = h & 0x3ff;
   double v;
   if (exponent == 0)
      v = ldexp((double)mantissa, -24); /* subnormal: m * 2^-14 / 2^10 */
   else if (exponent == 31)
      v = mantissa ? NAN : INFINITY;
   else
      v = ldexp((double)(mantissa | 0x400), exponent - 25);
   return sign ? -v : v;
}

/* Round to nearest, ties to even (the default rounding of OpFConvert and the
 * rule OpQuantizeToF16 names). */
static uint16_t double_to_half(double v)
{
   const uint16_t sign = signbit(v) ? 0x8000 : 0;
   if (isnan(v))
      return sign | 0x7e00;
   v = fabs(v);
   if (v >= 65520.0) /* rounds past the largest half, 65504 */
      return sign | 0x7c00;
   if (v < ldexp(1.0, -25)) /* below half the smallest subnormal: rounds to 0 */
      return sign;
   int exponent;
   frexp(v, &exponent); /* v = f * 2^exponent, f in [0.5, 1) */
   int unbiased = exponent - 1;
   if (unbiased < -14)
      unbiased = -14; /* subnormal range shares the smallest exponent */
   /* Scale so that the 10 mantissa bits are the integer part. */
   const double scaled = ldexp(v, 10 - unbiased);
   double integral = nearbyint(scaled); /* current rounding mode: nearest-even */
   uint32_t mantissa = (uint32_t)integral;
   int biased = unbiased + 15;
   if (mantissa >= 0x800) { /* rounding carried into the next binade */
      mantissa >>= 1;
      biased++;
   }
   if (mantissa < 0x400) /* subnormal */
      return sign | (uint16_t)mantissa;
   if (biased >= 31)
      return sign | 0x7c00;
   return sign | (uint16_t)(biased << 10) | (uint16_t)(mantissa & 0x3ff);
}

double spirv_float_to_double(uint64_t bits, uint32_t width)
{
   if (width == 16)
      return half_to_double((uint16_t)bits);
   if (width == 32) {
      const uint32_t b = (uint32_t)bits;
      float f;
      memcpy(&f, &b, sizeof(f));
      return f;
   }
   double d;
   memcpy(&d, &bits, sizeof(d));
   return d;
}

uint64_t spirv_float_from_double(double value, uint32_t width)
{
   if (width == 16)
      return double_to_half(value);
   if (width == 32) {
      const float f = (float)value;
      uint32_t b;
      memcpy(&b, &f, sizeof(b));
      return b;
   }
   uint64_t b;
   memcpy(&b, &value, sizeof(b));
   return b;
}
