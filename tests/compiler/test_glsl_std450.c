/* GLSL.std.450 extended instructions, checked against C within the
 * Vulkan precision bounds (Vulkan spec "Precision and Operation of SPIR-V
 * Instructions"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t rng_state = 99;
static float rndf(float scale)
{
   rng_state = rng_state * 1664525u + 1013904223u;
   return ((float)(rng_state >> 8) / 16777216.0f * 2.0f - 1.0f) * scale;
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

static bool near_abs_rel(float got, float want, float abs_tol, float rel_tol)
{
   float err = fabsf(got - want);
   return err <= abs_tol || err <= rel_tol * fabsf(want);
}

TEST_CASE(rounding_minmax_mix_step_smoothstep_fma)
{
   enum { N = 64 };
   static float in[2 * N], out[N * 14];
   for (int i = 0; i < 2 * N; i++)
      in[i] = rndf(4.0f);
   in[0] = 2.5f;
   in[2] = -2.5f;
   in[4] = -0.0f;
   REQUIRE(run_io("glsl_float_basic", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      float x = in[2 * i], y = in[2 * i + 1];
      float t = fminf(fmaxf((x + 2.0f) / 4.0f, 0.0f), 1.0f);
      float want[14] = {floorf(x),
                        ceilf(x),
                        x - floorf(x),
                        truncf(x),
                        nearbyintf(x),
                        fabsf(x),
                        x > 0   ? 1.0f
                        : x < 0 ? -1.0f
                                : x,
                        fminf(x, y) + 2.0f * fmaxf(x, y),
                        fminf(fmaxf(x, -1.0f), 1.0f),
                        x + (y - x) * 0.25f,
                        x < y ? 0.0f : 1.0f,
                        t * t * (3.0f - 2.0f * t),
                        fmaf(x, y, 1.0f),
                        sqrtf(fabsf(x)) + 1.0f / sqrtf(fabsf(y) + 1.0f)};
      for (int k = 0; k < 14; k++) {
         bool exact = k <= 8 || k == 10 || k == 12;
         bool ok = exact ? out[i * 14 + k] == want[k]
                         : near_abs_rel(out[i * 14 + k], want[k], 1e-6f, 1e-5f);
         CHECK_MSG(ok, "i=%d k=%d x=%g y=%g got %.9g want %.9g", i, k, x, y, out[i * 14 + k],
                   want[k]);
      }
   }
}

TEST_CASE(transcendentals_within_vulkan_precision)
{
   enum { N = 128 };
   static float in[N], out[N * 8];
   for (int i = 0; i < N; i++)
      in[i] = rndf(3.0f);
   REQUIRE(run_io("glsl_transcendental", in, sizeof(in), out, sizeof(out), 2));
   for (int i = 0; i < N; i++) {
      float x = in[i], ax = fabsf(x) + 0.5f;
      double want[8] = {exp2(x),      exp(x), log2(ax), log(ax),
                        pow(ax, 1.5), sin(x), cos(x),   tan(x * 0.25)};
      for (int k = 0; k < 8; k++) {
         float got = out[i * 8 + k];
         /* Loose but meaningful bounds: exp/pow relative 3+2|x| ulp-ish,
          * log absolute 2^-21 near 1, sin/cos absolute 2^-11. */
         bool ok = k <= 1 || k == 4 ? near_abs_rel(got, (float)want[k], 0, 1e-5f)
                   : k <= 3         ? near_abs_rel(got, (float)want[k], 1e-6f, 1e-5f)
                                    : near_abs_rel(got, (float)want[k], 1.0f / 2048, 1e-4f);
         CHECK_MSG(ok, "i=%d k=%d x=%g got %.9g want %.9g", i, k, x, got, want[k]);
      }
   }
}

TEST_CASE(geometric_functions)
{
   enum { N = 32 };
   static float in[2 * N * 4], out[N * 12];
   for (int i = 0; i < 2 * N * 4; i++)
      in[i] = rndf(10.0f);
   REQUIRE(run_io("glsl_geometric", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      const float *p = &in[2 * i * 4], *q = &in[(2 * i + 1) * 4];
      double lp = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
      double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
      double want[12] = {lp,
                         sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]),
                         (double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2],
                         0,
                         (double)p[1] * q[2] - (double)p[2] * q[1],
                         (double)p[2] * q[0] - (double)p[0] * q[2],
                         (double)p[0] * q[1] - (double)p[1] * q[0],
                         0,
                         p[0] / lp,
                         p[1] / lp,
                         p[2] / lp,
                         1};
      for (int k = 0; k < 12; k++)
         CHECK_MSG(near_abs_rel(out[i * 12 + k], (float)want[k], 1e-4f, 1e-5f),
                   "i=%d k=%d got %.9g want %.9g", i, k, out[i * 12 + k], want[k]);
   }
}

TEST_CASE(integer_abs_sign_min_max_clamp)
{
   enum { N = 64 };
   static int32_t in[2 * N], out[N * 5];
   for (int i = 0; i < 2 * N; i++)
      in[i] = (int32_t)(rndf(1000.0f));
   in[0] = INT32_MIN;
   REQUIRE(run_io("glsl_int", in, sizeof(in), out, sizeof(out), 1));
   for (int i = 0; i < N; i++) {
      int32_t x = in[2 * i], y = in[2 * i + 1];
      int32_t want[5] = {x == INT32_MIN ? INT32_MIN : (x < 0 ? -x : x), (x > 0) - (x < 0),
                         x < y ? x : y, x > y ? x : y,
                         x < -50  ? -50
                         : x > 50 ? 50
                                  : x};
      for (int k = 0; k < 5; k++)
         CHECK_MSG(out[i * 5 + k] == want[k], "i=%d k=%d got %d want %d", i, k, out[i * 5 + k],
                   want[k]);
   }
}

TEST_CASE(inverse_trigonometric_and_hyperbolic)
{
   enum { N = 128 };
   static float in[2 * N], out[N * 10];
   for (int i = 0; i < 2 * N; i++)
      in[i] = rndf(3.0f);
   in[0] = 0.0f;
   in[1] = 0.0f;
   in[2] = -2.0f;
   in[3] = 0.0f;
   in[4] = 0.0f;
   in[5] = -1.5f;
   REQUIRE(run_io("glsl_inverse_trig", in, sizeof(in), out, sizeof(out), 2));
   for (int i = 0; i < N; i++) {
      float x = in[2 * i], y = in[2 * i + 1], u = fminf(fmaxf(x * 0.3f, -1.0f), 1.0f);
      double want[10] = {atan(x),        atan2(y, x),    asin(u),
                         acos(u),        sinh(u * 2.0f), cosh(u * 2.0f),
                         tanh(x * 4.0f), asinh(x),       acosh(fabsf(x) + 1.0f),
                         atanh(u * 0.9f)};
      for (int k = 0; k < 10; k++) {
         /* Vulkan: atan 4096 ULP; the others inherit from their formulas:
          * check 2e-4 relative or 2e-5 absolute. */
         bool ok = near_abs_rel(out[i * 10 + k], (float)want[k], 2e-5f, 2e-4f);
         CHECK_MSG(ok, "i=%d k=%d x=%g y=%g got %.9g want %.9g", i, k, x, y, out[i * 10 + k],
                   want[k]);
      }
   }
}

static uint32_t fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static float clampf(float x, float lo, float hi)
{
   return fminf(fmaxf(x, lo), hi);
}

/* float -> half bits, round to nearest even (normal and subnormal range). */
static uint32_t half_bits(float f)
{
   uint32_t u = fbits(f), sign = (u >> 16) & 0x8000u;
   float a = fabsf(f);
   if (a >= 65520.0f)
      return sign | 0x7c00u;
   if (a < ldexpf(1.0f, -14)) /* subnormal: multiples of 2^-24 */
      return sign | (uint32_t)nearbyintf(a * ldexpf(1.0f, 24));
   int e;
   float m = frexpf(a, &e);                          /* a = m * 2^e, m in [0.5, 1) */
   uint32_t man = (uint32_t)nearbyintf(m * 2048.0f); /* 11 bits incl. hidden */
   if (man == 2048) {
      man = 1024;
      e++;
   }
   return sign | (uint32_t)(e + 14) << 10 | (man - 1024);
}

static float half_value(uint32_t h)
{
   uint32_t e = (h >> 10) & 31, m = h & 1023;
   float v = e ? ldexpf((float)(m | 1024), (int)e - 25) : ldexpf((float)m, -24);
   return (h & 0x8000u) ? -v : v;
}

TEST_CASE(pack_and_unpack_functions)
{
   enum { N = 64 };
   static float in[N * 4];
   static uint32_t out[N * 9];
   for (int i = 0; i < N * 4; i++)
      in[i] = rndf(1.3f);
   REQUIRE(run_io("glsl_pack", in, sizeof(in), out, sizeof(out), 1));
   for (uint32_t i = 0; i < N; i++) {
      const float *v = &in[i * 4];
      uint32_t want[9] = {0};
      for (int k = 0; k < 4; k++) {
         want[0] |= (uint32_t)nearbyintf(clampf(v[k], 0, 1) * 255.0f) << (8 * k);
         want[1] |= ((uint32_t)(int32_t)nearbyintf(clampf(v[k], -1, 1) * 127.0f) & 0xffu)
                    << (8 * k);
      }
      for (int k = 0; k < 2; k++) {
         want[2] |= (uint32_t)nearbyintf(clampf(v[k], 0, 1) * 65535.0f) << (16 * k);
         want[3] |= ((uint32_t)(int32_t)nearbyintf(clampf(v[2 + k], -1, 1) * 32767.0f) & 0xffffu)
                    << (16 * k);
      }
      want[4] = half_bits(v[0]) | half_bits(v[2]) << 16;
      uint32_t pu = i * 0x01020304u + 0x80u, ps = i * 0x0a0b0c0du;
      float su = 0, ss = 0, w = 1;
      for (int k = 0; k < 4; k++, w *= 2) {
         su += (float)((pu >> (8 * k)) & 0xff) / 255.0f * w;
         ss += fmaxf((float)(int8_t)(ps >> (8 * k)) / 127.0f, -1.0f) * w;
      }
      want[5] = fbits(su);
      want[6] = fbits(ss);
      want[7] = fbits(half_value(half_bits(v[1])));
      want[8] = fbits(half_value(half_bits(v[3])));
      for (int k = 0; k < 9; k++) {
         /* The weighted sums of unpacked values may round differently. */
         float got_f, want_f;
         memcpy(&got_f, &out[i * 9 + k], 4);
         memcpy(&want_f, &want[k], 4);
         bool ok = k == 5 || k == 6 ? near_abs_rel(got_f, want_f, 1e-6f, 1e-6f)
                                    : out[i * 9 + k] == want[k];
         CHECK_MSG(ok, "i=%u k=%d got 0x%x want 0x%x", i, k, out[i * 9 + k], want[k]);
      }
   }
}

/* A float / double from its bits, and a double's bits (fbits is above). */
static float bits_f(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static double bits_d(uint64_t u)
{
   double d;
   memcpy(&d, &u, 8);
   return d;
}

static uint64_t dbits(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

/* got equals want bit for bit, or both are NaN. */
static bool same_float(uint32_t got, float want)
{
   return got == fbits(want) || (isnan(want) && isnan(bits_f(got)));
}

static bool same_double(uint32_t lo, uint32_t hi, double want)
{
   uint64_t got = (uint64_t)hi << 32 | lo;
   return got == dbits(want) || (isnan(want) && isnan(bits_d(got)));
}

/* glsl_std450_forms.spvasm: ModfStruct, Frexp with a pointer (float and
 * double), Ldexp over the whole exponent range (subnormal results rounded
 * once, overflow to inf, subnormal, zero, inf and NaN inputs), 64- and
 * 16-bit UMulExtended / SMulExtended and IMix, all exact against C. */
TEST_CASE(forms_glslang_does_not_write_match_c)
{
   enum { N = 64, OUT = 22 };
   static uint32_t in[4 * N], out[OUT * N];
   uint32_t r = 12345;
   for (int k = 0; k < 4 * N; k++) {
      r = r * 1664525u + 1013904223u;
      in[k] = r ^ (r >> 13) * 0x9e3779b1u;
   }
   for (int i = 0; i < N; i++) {
      uint32_t *w = &in[4 * i];
      switch (i % 8) {
      case 0: /* subnormal b and a subnormal double (c, d) */
         w[1] &= 0x807fffffu;
         w[3] &= 0x800fffffu;
         break;
      case 1: /* zeros */
         w[1] &= 0x80000000u;
         w[2] = 0;
         w[3] &= 0x80000000u;
         break;
      case 2: /* inf or NaN in b and in the double */
         w[1] |= 0x7f800000u;
         w[3] |= 0x7ff00000u;
         if (i & 8)
            w[1] &= 0xff800000u, w[2] = 0, w[3] &= 0xfff00000u;
         break;
      case 3: /* results near the bottom of the subnormal range */
         w[2] = (uint32_t)(-150 - (i & 7)) << 22 | (w[2] & 0x3fffffu);
         w[0] = (uint32_t)(-1070 - (i & 15)) << 20 | (w[0] & 0xfffffu);
         break;
      case 4: /* whole numbers for modf (negative ones give -0) */
         w[0] = fbits((float)(int32_t)(w[0] % 2001u) - 1000.0f);
         break;
      default:
         break;
      }
   }
   REQUIRE(run_io("glsl_std450_forms", in, sizeof(in), out, sizeof(out), 1));
   unsigned bad = 0;
   for (int i = 0; i < N; i++) {
      uint32_t a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2], d = in[4 * i + 3];
      const uint32_t *o = &out[OUT * i];
      float whole, frac = modff(bits_f(a), &whole);
      int e;
      float sig = frexpf(bits_f(b), &e);
      /* glibc gives inf and NaN exponent 0, as the compiler does. */
      double db = bits_d((uint64_t)d << 32 | c);
      int ed;
      double sigd = frexp(db, &ed);
      float lf = ldexpf(bits_f(b), (int32_t)c >> 22);
      double ld = ldexp(db, (int32_t)a >> 20);
      uint64_t x = (uint64_t)b << 32 | a, y = (uint64_t)d << 32 | c;
      unsigned __int128 up = (unsigned __int128)x * y;
      __int128 sp = (__int128)(int64_t)x * (int64_t)y;
      unsigned __int128 spu = (unsigned __int128)sp;
      uint32_t um16 = (uint32_t)(uint16_t)a * (uint16_t)b;
      int32_t sm16 = (int32_t)(int16_t)a * (int16_t)b;
      const struct {
         bool ok;
         const char *what;
      } checks[] = {
          {same_float(o[0], frac) && same_float(o[1], whole), "ModfStruct"},
          {same_float(o[2], sig) && (int32_t)o[3] == e, "Frexp float"},
          {same_float(o[4], lf), "Ldexp float"},
          {same_double(o[5], o[6], ld), "Ldexp double"},
          {same_double(o[7], o[8], sigd) && (int32_t)o[9] == ed, "Frexp double"},
          {o[10] == (uint32_t)up && o[11] == (uint32_t)(up >> 32) &&
               o[12] == (uint32_t)(up >> 64) && o[13] == (uint32_t)(up >> 96),
           "UMulExtended 64"},
          {o[14] == (uint32_t)spu && o[15] == (uint32_t)(spu >> 32) &&
               o[16] == (uint32_t)(spu >> 64) && o[17] == (uint32_t)(spu >> 96),
           "SMulExtended 64"},
          {o[18] == a + (b - a) * c, "IMix"},
          {o[19] == um16, "UMulExtended 16"},
          {o[20] == ((uint32_t)sm16 & 0xffffu) && (int32_t)o[21] == (int16_t)(sm16 >> 16),
           "SMulExtended 16"},
      };
      for (size_t k = 0; k < sizeof(checks) / sizeof(checks[0]); k++) {
         if (!checks[k].ok && bad++ < 12)
            test_fail(__FILE__, __LINE__,
                      "invocation %d: %s wrong (a 0x%08x b 0x%08x c 0x%08x d 0x%08x; words "
                      "%08x %08x %08x %08x %08x %08x %08x)",
                      i, checks[k].what, a, b, c, d, o[0], o[1], o[2], o[3], o[4], o[5], o[6]);
      }
   }
}

static int compile_two_buffers(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   const enum drv_binding_kind kinds[2] = {DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER};
   return ctu_compile_with_bindings(words, count, kinds, 2, err, err_size);
}

/* The new lowerings check their operand types themselves (the front end
 * counts GLSL.std.450 operands only): corrupted modules that use them
 * compile or fail with a message, never crash (ASan/UBSan in CI). */
TEST_CASE(corrupted_matrix_split_and_multiply_extended_modules_never_crash)
{
   static const char *const shaders[] = {"glsl_std450_matrix_split", "glsl_std450_forms"};
   for (uint32_t k = 0; k < 2; k++) {
      /* Intact, each compiles (so the corruptions reach the new code). */
      size_t n = 0;
      uint32_t *words = ctu_load_spirv(shaders[k], &n);
      char err[256] = "";
      CHECK_MSG(words && compile_two_buffers(words, n, err, sizeof(err)) == 0, "%s: %s", shaders[k],
                err);
      free(words);
      ctu_check_corruptions(shaders[k], 3 + k, 600, compile_two_buffers);
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
