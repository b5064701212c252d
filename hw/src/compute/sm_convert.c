/* SM conversions (CVT) between every integer and float type with the four
 * IEEE rounding modes, and rounding to integral values (FRND).
 *
 * Directed rounding is done by hand, not with fesetround: the host's
 * floating-point environment is per thread and compilers may fold
 * conversions without -frounding-math. Each value is first made exact in
 * long double (64-bit significand or more on every host we build for), then
 * rounded once to the target with the requested mode. Float-to-integer
 * conversions saturate and turn NaN into 0, so no value reaches the
 * undefined C conversions. */
#include <float.h>
#include <math.h>

#include "compute/sm_operands.h"

/* Rounds the exact value v to double/float with mode. */
static double round_to_double(long double v, unsigned mode)
{
   double r = (double)v; /* host default: to nearest even */
   if (mode == PPU_ROUND_RN || isnan(v) || (long double)r == v)
      return r;
   int up = (long double)r < v; /* true value lies above r */
   if (mode == PPU_ROUND_RZ)
      return (v > 0) == up ? r : nextafter(r, 0.0);
   if (mode == PPU_ROUND_RM)
      return up ? r : nextafter(r, -INFINITY);
   return up ? nextafter(r, INFINITY) : r;
}

static float round_to_float(long double v, unsigned mode)
{
   float r = (float)v;
   if (mode == PPU_ROUND_RN || isnan(v) || (long double)r == v)
      return r;
   int up = (long double)r < v;
   if (mode == PPU_ROUND_RZ)
      return (v > 0) == up ? r : nextafterf(r, 0.0f);
   if (mode == PPU_ROUND_RM)
      return up ? r : nextafterf(r, -INFINITY);
   return up ? nextafterf(r, INFINITY) : r;
}

/* Rounds a non-negative magnitude q to an integer, for a value of the given
 * sign, under mode. */
static double round_magnitude(double q, int negative, unsigned mode)
{
   switch (mode) {
   case PPU_ROUND_RZ:
      return floor(q);
   case PPU_ROUND_RM:
      return negative ? ceil(q) : floor(q);
   case PPU_ROUND_RP:
      return negative ? floor(q) : ceil(q);
   default:
      return nearbyint(q); /* default environment: ties to even */
   }
}

static uint16_t half_from_double(double v, unsigned mode)
{
   uint16_t sign = signbit(v) ? 0x8000 : 0;
   double a = fabs(v);
   if (isnan(v))
      return sign | 0x7e00;
   if (isinf(v))
      return sign | 0x7c00;
   if (a < 0x1p-14) { /* subnormal range: units of 2^-24 */
      double m = round_magnitude(a * 0x1p24, sign != 0, mode);
      return sign | (uint16_t)m; /* m == 1024 encodes the smallest normal */
   }
   int ex;
   frexp(a, &ex);
   int e = ex - 1;
   double m = round_magnitude(ldexp(a, 10 - e), sign != 0, mode);
   if (m >= 2048.0) {
      m = 1024.0;
      e++;
   }
   if (e > 15) {
      int to_inf =
          mode == PPU_ROUND_RN || (mode == PPU_ROUND_RP && !sign) || (mode == PPU_ROUND_RM && sign);
      return sign | (to_inf ? 0x7c00 : 0x7bff);
   }
   return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((uint32_t)m - 1024);
}

static float half_to_float(uint16_t h)
{
   int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
   float v;
   if (e == 0)
      v = ldexpf((float)m, -24);
   else if (e == 31)
      v = m ? NAN : INFINITY;
   else
      v = ldexpf((float)(m | 0x400), e - 25);
   return sign ? -v : v;
}

static int is_float_type(unsigned t)
{
   return t == PPU_TYPE_F16 || t == PPU_TYPE_F32 || t == PPU_TYPE_F64;
}

/* The source lane value: integers as exact long double and as raw 64-bit
 * two's complement, floats as long double. */
static long double read_source(const struct ppu_exec *x, unsigned l, uint64_t *raw)
{
   const struct ppu_warp *w = x->w;
   uint32_t lo = ppu_reg_src(w, x->f->ra)[l];
   uint32_t hi =
       x->f->ra == PPU_RZ ? 0 : w->reg[x->f->ra + (ppu_type_is64(x->f->type2) ? 1 : 0)][l];
   switch (x->f->type2) {
   case PPU_TYPE_U8:
      *raw = lo & 0xff;
      return (long double)*raw;
   case PPU_TYPE_S8:
      *raw = (uint64_t)(int64_t)(int8_t)lo;
      return (long double)(int8_t)lo;
   case PPU_TYPE_U16:
      *raw = lo & 0xffff;
      return (long double)*raw;
   case PPU_TYPE_S16:
      *raw = (uint64_t)(int64_t)(int16_t)lo;
      return (long double)(int16_t)lo;
   case PPU_TYPE_U32:
      *raw = lo;
      return (long double)lo;
   case PPU_TYPE_S32:
      *raw = (uint64_t)(int64_t)(int32_t)lo;
      return (long double)(int32_t)lo;
   case PPU_TYPE_U64:
      *raw = (uint64_t)hi << 32 | lo;
      return (long double)*raw;
   case PPU_TYPE_S64:
      *raw = (uint64_t)hi << 32 | lo;
      return (long double)(int64_t)*raw;
   case PPU_TYPE_F16:
      *raw = 0;
      return half_to_float((uint16_t)lo);
   case PPU_TYPE_F32:
      *raw = 0;
      return f32_of(lo);
   default:
      *raw = 0;
      return f64_of((uint64_t)hi << 32 | lo);
   }
}

static void int_range(unsigned t, long double *lo, long double *hi)
{
   switch (t) {
   case PPU_TYPE_U8:
      *lo = 0, *hi = 255;
      break;
   case PPU_TYPE_S8:
      *lo = -128, *hi = 127;
      break;
   case PPU_TYPE_U16:
      *lo = 0, *hi = 65535;
      break;
   case PPU_TYPE_S16:
      *lo = -32768, *hi = 32767;
      break;
   case PPU_TYPE_U32:
      *lo = 0, *hi = 4294967295.0L;
      break;
   case PPU_TYPE_S32:
      *lo = -2147483648.0L, *hi = 2147483647.0L;
      break;
   case PPU_TYPE_U64:
      *lo = 0, *hi = 18446744073709551615.0L;
      break;
   default:
      *lo = -9223372036854775808.0L, *hi = 9223372036854775807.0L;
      break;
   }
}

/* Float to integer: round to integral with mode, saturate, NaN -> 0. */
static uint64_t float_to_int(long double v, unsigned t, unsigned mode)
{
   if (isnan(v))
      return 0;
   long double lo, hi;
   int_range(t, &lo, &hi);
   long double r = mode == PPU_ROUND_RZ   ? truncl(v)
                   : mode == PPU_ROUND_RM ? floorl(v)
                   : mode == PPU_ROUND_RP ? ceill(v)
                                          : nearbyintl(v);
   if (r <= lo)
      r = lo;
   if (r >= hi)
      r = hi;
   return ppu_type_signed(t) ? (uint64_t)(int64_t)r : (uint64_t)r;
}

/* Integer results narrower than 32 bits are sign or zero extended. */
static uint64_t extend_int(uint64_t v, unsigned t)
{
   switch (t) {
   case PPU_TYPE_U8:
      return v & 0xff;
   case PPU_TYPE_S8:
      return (uint32_t)(int32_t)(int8_t)v;
   case PPU_TYPE_U16:
      return v & 0xffff;
   case PPU_TYPE_S16:
      return (uint32_t)(int32_t)(int16_t)v;
   case PPU_TYPE_U32:
   case PPU_TYPE_S32:
      return (uint32_t)v;
   default:
      return v;
   }
}

static enum ppu_exec_result exec_cvt(struct ppu_exec *x)
{
   unsigned dt = x->f->type, st = x->f->type2, mode = x->f->subop;
   uint64_t r[LANES];
   for (unsigned l = 0; l < LANES; l++) {
      if (!((x->exec >> l) & 1u))
         continue;
      uint64_t raw;
      long double v = read_source(x, l, &raw);
      if (dt == PPU_TYPE_F64)
         r[l] = u64_of(round_to_double(v, mode));
      else if (dt == PPU_TYPE_F32)
         r[l] = u32_of(round_to_float(v, mode));
      else if (dt == PPU_TYPE_F16)
         r[l] = half_from_double(is_float_type(st) ? (double)v : round_to_double(v, PPU_ROUND_RZ),
                                 mode);
      else if (is_float_type(st))
         r[l] = extend_int(float_to_int(v, dt, mode), dt);
      else
         r[l] = extend_int(raw, dt);
   }
   if (ppu_type_is64(dt)) {
      ppu_write64(x->w, x->f->rd, r, x->exec);
   } else {
      uint32_t *d = ppu_reg_dst(x->w, x->f->rd, 0);
      for (unsigned l = 0; l < LANES; l++)
         if ((x->exec >> l) & 1u)
            d[l] = (uint32_t)r[l];
   }
   return PPU_EXEC_NEXT;
}

static double round_integral(double v, unsigned mode)
{
   switch (mode) {
   case PPU_ROUND_RZ:
      return trunc(v);
   case PPU_ROUND_RM:
      return floor(v);
   case PPU_ROUND_RP:
      return ceil(v);
   default:
      return nearbyint(v);
   }
}

enum ppu_exec_result ppu_exec_convert(struct ppu_exec *x)
{
   if (x->exec == 0)
      return PPU_EXEC_NEXT;
   if (x->f->op == PPU_OP_CVT)
      return exec_cvt(x);
   /* FRND */
   if (x->f->type == PPU_TYPE_F64) {
      struct ppu_vec64 a = ppu_src64(x->w, x->f->ra);
      uint64_t r[LANES];
      for (unsigned l = 0; l < LANES; l++)
         r[l] = u64_of(round_integral(f64_of(v64(a, l)), x->f->subop));
      ppu_write64(x->w, x->f->rd, r, x->exec);
      return PPU_EXEC_NEXT;
   }
   const uint32_t *a = ppu_reg_src(x->w, x->f->ra);
   uint32_t r[LANES];
   for (unsigned l = 0; l < LANES; l++)
      r[l] = u32_of((float)round_integral(f32_of(a[l]), x->f->subop));
   ppu_write32(ppu_reg_dst(x->w, x->f->rd, 0), r, x->exec);
   return PPU_EXEC_NEXT;
}
