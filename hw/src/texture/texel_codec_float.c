/* Number conversions of the texel codec: normalized fixed point, sRGB,
 * the small floats and the shared-exponent format. Each follows the
 * Vulkan specification section named in its comment. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "texture/texel_codec_internal.h"

/* "Conversion from Normalized Fixed-Point to Floating-Point": f = c / (2^b - 1).
 * Both operands are exact in float (b <= 24) and IEEE division rounds
 * once, so this is the float nearest the exact quotient. */
float texel_unorm_to_float(uint32_t c, unsigned bits)
{
   return (float)c / (float)((1u << bits) - 1u);
}

/* Same section: f = max(c / (2^(b-1) - 1), -1.0), so both -2^(b-1) and
 * -2^(b-1)+1 read -1.0. */
float texel_snorm_to_float(int32_t c, unsigned bits)
{
   float f = (float)c / (float)((1u << (bits - 1)) - 1u);
   return f < -1.0f ? -1.0f : f;
}

/* "Conversion from Floating-Point to Normalized Fixed-Point": clamp to
 * [0, 1], c = convertFloatToUint(f * (2^b - 1)), which "should round to
 * nearest". The product is exact in double (24 x 24 bits). */
uint32_t texel_float_to_unorm(float f, unsigned bits)
{
   if (!(f > 0.0f)) /* also NaN */
      return 0;
   if (f >= 1.0f)
      return (1u << bits) - 1u;
   return (uint32_t)round((double)f * (double)((1u << bits) - 1u));
}

int32_t texel_float_to_snorm(float f, unsigned bits)
{
   double max = (double)((1u << (bits - 1)) - 1u);
   if (isnan(f))
      return 0;
   double c = f > 1.0f ? 1.0 : f < -1.0f ? -1.0 : (double)f;
   return (int32_t)round(c * max);
}

/* sRGB EOTF (Vulkan "sRGB EOTF", Khronos Data Format Specification 1.3
 * section 13.3): linear = c / 12.92 for c <= 0.04045, else
 * ((c + 0.055) / 1.055)^2.4, evaluated in double and rounded once. */
float texel_srgb_to_linear(double c)
{
   return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

static float srgb8_table[256];
static pthread_once_t srgb8_once = PTHREAD_ONCE_INIT;

static void srgb8_table_init(void)
{
   for (unsigned i = 0; i < 256; i++)
      srgb8_table[i] = texel_srgb_to_linear(i / 255.0);
}

/* The 8-bit case is the texture unit's hot path: a table made from the
 * same formula on first use. */
float texel_srgb8_to_linear(uint8_t c)
{
   pthread_once(&srgb8_once, srgb8_table_init);
   return srgb8_table[c];
}

/* sRGB inverse EOTF (same sections): c = 12.92 L for L < 0.0031308, else
 * 1.055 L^(1/2.4) - 0.055; then as an 8-bit UNORM, round to nearest. */
uint8_t texel_linear_to_srgb8(float linear)
{
   if (!(linear > 0.0f))
      return 0;
   if (linear >= 1.0f)
      return 255;
   double l = linear;
   double c = l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
   return (uint8_t)round(c * 255.0);
}

/* Vulkan "16-Bit Floating-Point Numbers", "Unsigned 11-Bit ..." and
 * "Unsigned 10-Bit Floating-Point Numbers": exponent 0 is a denormal
 * (m * 2^-14 / 2^M), 31 is infinity (m == 0) or NaN. */
float texel_small_float_to_float(uint32_t bits, unsigned mant_bits, bool has_sign)
{
   uint32_t m = bits & ((1u << mant_bits) - 1u);
   uint32_t e = (bits >> mant_bits) & 31u;
   bool negative = has_sign && ((bits >> (mant_bits + 5)) & 1u);
   float v;
   if (e == 0)
      v = ldexpf((float)m, -14 - (int)mant_bits);
   else if (e == 31)
      v = m ? NAN : INFINITY;
   else
      v = ldexpf((float)(m | (1u << mant_bits)), (int)e - 15 - (int)mant_bits);
   return negative ? -v : v;
}

/* Round to nearest even from float. For the 16-bit float, IEEE rules
 * (overflow to infinity, NaN stays NaN, sign kept). For the unsigned 11/10
 * bit floats, the rules the Vulkan spec takes from OpenGL ("Unsigned 11-Bit
 * Floating-Point Numbers"): negative values and -inf give 0, finite values
 * too large give the largest finite value, +inf stays inf, NaN gives NaN. */
uint32_t texel_float_to_small_float(float f, unsigned mant_bits, bool has_sign)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   uint32_t sign = has_sign ? (u >> 31) << (mant_bits + 5) : 0;
   uint32_t inf = 31u << mant_bits;
   uint32_t exp = (u >> 23) & 0xffu, mant = u & 0x7fffffu;
   if (exp == 0xff) {
      if (mant)
         return sign | inf | (1u << (mant_bits - 1)); /* quiet NaN */
      return (!has_sign && (u >> 31)) ? 0 : sign | inf;
   }
   if (!has_sign && (u >> 31))
      return 0;
   /* The float is sig * 2^(e - 150) (e = 1 and no hidden bit for float
    * denormals). A normal result keeps the top mant_bits of the mantissa;
    * a denormal one counts units of 2^(-14 - M), a right shift of sig by
    * 136 - M - e. The remainder then rounds to nearest even. */
   int e = exp ? (int)exp : 1;
   uint64_t sig = exp ? (mant | 0x800000u) : mant;
   int e_out = e - 127 + 15;
   int shift;
   uint32_t q;
   if (e_out >= 31) {
      q = inf;
      shift = 0;
   } else if (e_out >= 1) {
      shift = 23 - (int)mant_bits;
      q = ((uint32_t)e_out << mant_bits) + (uint32_t)((sig & 0x7fffffu) >> shift);
   } else {
      shift = 136 - (int)mant_bits - e;
      q = shift > 25 ? 0 : (uint32_t)(sig >> shift); /* sig < 2^24: beyond 25 it is 0 */
   }
   if (shift > 0 && shift <= 25) {
      uint64_t rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
      if (rem > half || (rem == half && (q & 1u)))
         q++; /* a carry into the exponent is still the right encoding */
   }
   if (q > inf)
      q = inf;
   if (q >= inf && !has_sign)
      q = inf - 1; /* largest finite */
   return sign | q;
}

/* Vulkan "Shared Exponent Decoding": N = 9, B = 15:
 * component = mantissa * 2^(exponent - B - N). */
void texel_rgb9e5_decode(uint32_t packed, float rgb[3])
{
   int e = (int)(packed >> 27) - 15 - 9;
   for (unsigned i = 0; i < 3; i++)
      rgb[i] = ldexpf((float)((packed >> (9 * i)) & 0x1ffu), e);
}

/* Vulkan "Shared Exponent Encoding", with N = 9, B = 15, Emax = 31:
 *   sharedexp_max = (2^N - 1) / 2^N * 2^(Emax - B)
 *   c_c = max(0, min(sharedexp_max, c))      (NaN gives 0)
 *   max_c = max(r_c, g_c, b_c)
 *   exp' = max(-B - 1, floor(log2(max_c))) + 1 + B
 *   max_s = floor(max_c / 2^(exp' - B - N) + 1/2)
 *   exp_shared = exp' if max_s < 2^N, else exp' + 1
 *   c_s = floor(c_c / 2^(exp_shared - B - N) + 1/2)
 * floor(log2(x)) is taken from frexp, which is exact where log2 in
 * floating point is not. */
uint32_t texel_rgb9e5_encode(const float rgb[3])
{
   const double max_value = 511.0 / 512.0 * 65536.0;
   double c[3], max_c = 0.0;
   for (unsigned i = 0; i < 3; i++) {
      double v = rgb[i];
      c[i] = !(v > 0.0) ? 0.0 : v > max_value ? max_value : v;
      if (c[i] > max_c)
         max_c = c[i];
   }
   int floor_log2 = -16;
   if (max_c > 0.0) {
      int e;
      frexp(max_c, &e);
      floor_log2 = e - 1 < -16 ? -16 : e - 1;
   }
   int exp_shared = floor_log2 + 1 + 15;
   double max_s = floor(ldexp(max_c, -(exp_shared - 15 - 9)) + 0.5);
   if (max_s >= 512.0)
      exp_shared++;
   uint32_t packed = (uint32_t)exp_shared << 27;
   for (unsigned i = 0; i < 3; i++) {
      uint32_t s = (uint32_t)floor(ldexp(c[i], -(exp_shared - 15 - 9)) + 0.5);
      packed |= s << (9 * i);
   }
   return packed;
}
