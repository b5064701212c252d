/* Texel codec: every format of PPU_TEX_FORMATS against the Vulkan
 * specification's conversion formulas (evaluated here in double precision),
 * and BC blocks built bit by bit with the texels each must decode to,
 * derived by hand from the format specifications in the comments. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "texture/texel_codec.h"

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

static struct ppu_texel decode(enum ppu_tex_format f, const void *src)
{
   struct ppu_texel t;
   ppu_texel_decode(f, src, false, &t);
   return t;
}

static struct ppu_texel rgba(float r, float g, float b, float a)
{
   struct ppu_texel t = {{{r, g, b, a}}};
   return t;
}

static bool same_float(float a, float b)
{
   return (isnan(a) && isnan(b)) || memcmp(&a, &b, 4) == 0;
}

/* --- Fixed point -------------------------------------------------------- */

TEST_CASE(unorm_and_snorm_decode_is_the_float_nearest_the_spec_formula)
{
   /* Vulkan "Fixed-Point Data Conversions": UNORM c / (2^b - 1), SNORM
    * max(c / (2^(b-1) - 1), -1). */
   for (uint32_t c = 0; c < 65536; c++) {
      uint16_t v16 = (uint16_t)c;
      uint8_t v8 = (uint8_t)c;
      struct ppu_texel t = decode(PPU_TEX_FORMAT_R16_UNORM, &v16);
      CHECK(same_float(t.f[0], (float)(c / 65535.0)));
      t = decode(PPU_TEX_FORMAT_R16_SNORM, &v16);
      double s = fmax((int16_t)v16 / 32767.0, -1.0);
      CHECK(same_float(t.f[0], (float)s));
      t = decode(PPU_TEX_FORMAT_R8_UNORM, &v8);
      CHECK(same_float(t.f[0], (float)(v8 / 255.0)));
      t = decode(PPU_TEX_FORMAT_R8_SNORM, &v8);
      CHECK(same_float(t.f[0], (float)fmax((int8_t)v8 / 127.0, -1.0)));
      /* Missing components: G, B 0, A 1. */
      CHECK(t.f[1] == 0.0f && t.f[2] == 0.0f && t.f[3] == 1.0f);
   }
   /* -128 and -127 both read -1.0. */
   uint8_t m128 = 0x80, m127 = 0x81;
   CHECK(decode(PPU_TEX_FORMAT_R8_SNORM, &m128).f[0] == -1.0f);
   CHECK(decode(PPU_TEX_FORMAT_R8_SNORM, &m127).f[0] == -1.0f);
}

TEST_CASE(unorm_and_snorm_encode_round_to_nearest_and_round_trip_every_code)
{
   for (uint32_t c = 0; c < 65536; c++) {
      uint16_t v = (uint16_t)c, back = 0;
      struct ppu_texel t = decode(PPU_TEX_FORMAT_R16_UNORM, &v);
      ppu_texel_encode(PPU_TEX_FORMAT_R16_UNORM, &t, false, &back);
      CHECK(back == v);
      t = decode(PPU_TEX_FORMAT_R16_SNORM, &v);
      ppu_texel_encode(PPU_TEX_FORMAT_R16_SNORM, &t, false, &back);
      CHECK(back == (v == 0x8000 ? 0x8001 : v)); /* -1.0 encodes as -32767 */
   }
   uint8_t b = 0;
   /* 0.5 * 255 = 127.5 rounds to 128; 0.498 * 255 = 126.99 to 127. */
   struct ppu_texel t = rgba(0.5f, 0, 0, 1);
   ppu_texel_encode(PPU_TEX_FORMAT_R8_UNORM, &t, false, &b);
   CHECK_EQ_U64(b, 128);
   t.f[0] = 0.498f;
   ppu_texel_encode(PPU_TEX_FORMAT_R8_UNORM, &t, false, &b);
   CHECK_EQ_U64(b, 127);
   /* Clamping and NaN. */
   t.f[0] = 2.0f;
   ppu_texel_encode(PPU_TEX_FORMAT_R8_UNORM, &t, false, &b);
   CHECK_EQ_U64(b, 255);
   t.f[0] = NAN;
   ppu_texel_encode(PPU_TEX_FORMAT_R8_UNORM, &t, false, &b);
   CHECK_EQ_U64(b, 0);
   t.f[0] = -3.0f;
   ppu_texel_encode(PPU_TEX_FORMAT_R8_SNORM, &t, false, &b);
   CHECK_EQ_U64(b, 0x81);
}

/* --- sRGB ------------------------------------------------------------------ */

static double srgb_eotf(double c)
{
   return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double srgb_inverse(double l)
{
   return l < 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

TEST_CASE(srgb_decode_matches_the_eotf_in_double_and_encode_inverts_it)
{
   for (unsigned c = 0; c < 256; c++) {
      uint8_t v[4] = {(uint8_t)c, (uint8_t)c, (uint8_t)c, (uint8_t)c};
      struct ppu_texel t = decode(PPU_TEX_FORMAT_R8G8B8A8_SRGB, v);
      CHECK_MSG(same_float(t.f[0], (float)srgb_eotf(c / 255.0)), "sRGB %u", c);
      CHECK(same_float(t.f[3], (float)(c / 255.0))); /* alpha stays linear */
      uint8_t back[4];
      ppu_texel_encode(PPU_TEX_FORMAT_R8G8B8A8_SRGB, &t, false, back);
      CHECK_MSG(memcmp(back, v, 4) == 0, "sRGB round trip %u -> %u", c, back[0]);
      /* B8G8R8A8_SRGB: same conversion, R in byte 2. */
      uint8_t bgra[4] = {0, 0, (uint8_t)c, 255};
      CHECK(
          same_float(decode(PPU_TEX_FORMAT_B8G8R8A8_SRGB, bgra).f[0], (float)srgb_eotf(c / 255.0)));
   }
   /* Encoding arbitrary linear values: round(inverse(l) * 255). */
   for (unsigned i = 0; i < 1000; i++) {
      float l = (float)(rng() % 100001) / 100000.0f;
      struct ppu_texel t = rgba(l, 0, 0, 1);
      uint8_t out = 0;
      ppu_texel_encode(PPU_TEX_FORMAT_R8_SRGB, &t, false, &out);
      CHECK_EQ_U64(out, (uint64_t)round(srgb_inverse(l) * 255.0));
   }
}

/* --- Small floats ------------------------------------------------------- */

TEST_CASE(half_floats_round_trip_and_round_to_nearest_even)
{
   for (uint32_t h = 0; h < 65536; h++) {
      uint16_t v = (uint16_t)h, back = 0;
      struct ppu_texel t = decode(PPU_TEX_FORMAT_R16_SFLOAT, &v);
      unsigned e = (h >> 10) & 31, m = h & 1023;
      double want = e == 0    ? ldexp(m, -24)
                    : e == 31 ? (m ? NAN : INFINITY)
                              : ldexp(m + 1024, (int)e - 25);
      if (h & 0x8000)
         want = -want;
      CHECK_MSG(same_float(t.f[0], (float)want), "half 0x%04x", h);
      ppu_texel_encode(PPU_TEX_FORMAT_R16_SFLOAT, &t, false, &back);
      if (e == 31 && m) /* NaN stays NaN */
         CHECK((back & 0x7c00) == 0x7c00 && (back & 0x3ff));
      else
         CHECK_MSG(back == v, "half 0x%04x -> 0x%04x", h, back);
   }
   struct {
      float f;
      uint16_t h;
   } cases[] = {
       {1.0f + 0x1p-11f, 0x3c00},     /* tie: to even (1.0) */
       {1.0f + 3 * 0x1p-11f, 0x3c02}, /* tie: to even (1 + 2^-9) */
       {65519.0f, 0x7bff},            /* below the halfway point to 2^16 */
       {65520.0f, 0x7c00},            /* halfway: overflows to infinity */
       {0x1p-25f, 0x0000},            /* half of the smallest denormal: even */
       {0x1p-25f * 1.5f, 0x0001},     /* above half: the smallest denormal */
       {-0x1p-24f, 0x8001},           /* negative denormal */
       {-0.0f, 0x8000},
       {0x1p-14f - 0x1p-25f, 0x0400}, /* rounds up into the smallest normal */
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct ppu_texel t = rgba(cases[i].f, 0, 0, 1);
      uint16_t out = 0;
      ppu_texel_encode(PPU_TEX_FORMAT_R16_SFLOAT, &t, false, &out);
      CHECK_MSG(out == cases[i].h, "%a -> 0x%04x, want 0x%04x", cases[i].f, out, cases[i].h);
   }
}

static uint32_t b10g11r11(float r, float g, float b)
{
   struct ppu_texel t = rgba(r, g, b, 1);
   uint32_t out = 0;
   ppu_texel_encode(PPU_TEX_FORMAT_B10G11R11_UFLOAT, &t, false, &out);
   return out;
}

TEST_CASE(unsigned_11_and_10_bit_floats_follow_the_spec_rules)
{
   /* Every 11-bit code in R and every 10-bit code in B decodes to
    * m * 2^-20 (denormal, 6-bit mantissa: 2^-14 / 2^6) or (1 + m/64) *
    * 2^(e-15), and encodes back to itself. */
   for (uint32_t c = 0; c < 2048; c++) {
      uint32_t packed = c | (c >> 1) << 22, back;
      struct ppu_texel t = decode(PPU_TEX_FORMAT_B10G11R11_UFLOAT, &packed);
      unsigned e = c >> 6, m = c & 63;
      double want = e == 0    ? ldexp(m, -20)
                    : e == 31 ? (m ? NAN : INFINITY)
                              : ldexp(m + 64, (int)e - 21);
      CHECK_MSG(same_float(t.f[0], (float)want), "uf11 0x%03x", c);
      unsigned e10 = (c >> 1) >> 5, m10 = (c >> 1) & 31;
      double want10 = e10 == 0    ? ldexp(m10, -19)
                      : e10 == 31 ? (m10 ? NAN : INFINITY)
                                  : ldexp(m10 + 32, (int)e10 - 20);
      CHECK_MSG(same_float(t.f[2], (float)want10), "uf10 0x%03x", c >> 1);
      CHECK(t.f[3] == 1.0f);
      ppu_texel_encode(PPU_TEX_FORMAT_B10G11R11_UFLOAT, &t, false, &back);
      if (e != 31 || !m)
         CHECK_MSG((back & 0x7ff) == c, "uf11 0x%03x -> 0x%03x", c, back & 0x7ff);
   }
   /* Negative values and -inf give 0; finite values too large give the
    * largest finite value (11-bit 0x7bf = 65024, 10-bit 0x3df = 64512);
    * +inf stays inf; NaN stays NaN. */
   CHECK_EQ_U64(b10g11r11(-1.0f, -INFINITY, -0x1p-20f), 0);
   CHECK_EQ_U64(b10g11r11(1e9f, 70000.0f, 1e9f), 0x7bfu | 0x7bfu << 11 | 0x3dfu << 22);
   CHECK_EQ_U64(b10g11r11(INFINITY, 0, INFINITY), 0x7c0u | 0x3e0u << 22);
   uint32_t nan = b10g11r11(NAN, 0, 0);
   CHECK((nan & 0x7c0) == 0x7c0 && (nan & 0x3f));
   /* 1.0 = e 15, m 0; 0x1p-20 is the smallest 11-bit denormal. */
   CHECK_EQ_U64(b10g11r11(1.0f, 0x1p-20f, 0), 15u << 6 | 1u << 11);
}

/* The Vulkan "Shared Exponent Encoding" algorithm, written as the spec
 * writes it (log2 and powers in double). */
static uint32_t rgb9e5_reference(const float in[3])
{
   const double N = 9, B = 15, Emax = 31;
   double max_v = (pow(2, N) - 1) / pow(2, N) * pow(2, Emax - B);
   double c[3], mx = 0;
   for (int i = 0; i < 3; i++) {
      c[i] = isnan(in[i]) ? 0 : fmax(0, fmin(max_v, in[i]));
      mx = fmax(mx, c[i]);
   }
   double expp = fmax(-B - 1, floor(log2(mx))) + 1 + B;
   double max_s = floor(mx / pow(2, expp - B - N) + 0.5);
   double exp_shared = max_s < pow(2, N) ? expp : expp + 1;
   uint32_t out = (uint32_t)exp_shared << 27;
   for (int i = 0; i < 3; i++)
      out |= (uint32_t)floor(c[i] / pow(2, exp_shared - B - N) + 0.5) << (9 * i);
   return out;
}

TEST_CASE(shared_exponent_encode_is_the_spec_algorithm_and_decode_its_inverse)
{
   float samples[][3] = {{1, 1, 1},
                         {0, 0, 0},
                         {65408, 0, 1},
                         {1e9f, -5, NAN},
                         {0.5f, 0.25f, 0.125f},
                         {511.0f / 512, 0, 0},
                         {0x1p-24f, 0, 0},
                         {3.14159f, 2.71828f, 1.41421f}};
   for (unsigned i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
      struct ppu_texel t = rgba(samples[i][0], samples[i][1], samples[i][2], 1);
      uint32_t out;
      ppu_texel_encode(PPU_TEX_FORMAT_E5B9G9R9_UFLOAT, &t, false, &out);
      CHECK_MSG(out == rgb9e5_reference(samples[i]), "sample %u: 0x%08x want 0x%08x", i, out,
                rgb9e5_reference(samples[i]));
   }
   for (unsigned i = 0; i < 20000; i++) {
      float v[3];
      for (int c = 0; c < 3; c++)
         v[c] = ldexpf((float)(rng() % 100000) / 100000.0f, (int)(rng() % 40) - 24);
      struct ppu_texel t = rgba(v[0], v[1], v[2], 1);
      uint32_t out;
      ppu_texel_encode(PPU_TEX_FORMAT_E5B9G9R9_UFLOAT, &t, false, &out);
      CHECK_MSG(out == rgb9e5_reference(v), "%a %a %a", v[0], v[1], v[2]);
      /* Decoding: mantissa * 2^(exp - 24), exactly. */
      struct ppu_texel d = decode(PPU_TEX_FORMAT_E5B9G9R9_UFLOAT, &out);
      for (int c = 0; c < 3; c++)
         CHECK(d.f[c] == ldexpf((float)((out >> (9 * c)) & 511), (int)(out >> 27) - 24));
   }
   /* 1.0: exponent 16, mantissas 256 (256 * 2^(16-24) = 1). */
   CHECK_EQ_U64(rgb9e5_reference((float[3]){1, 1, 1}), 16u << 27 | 256u | 256u << 9 | 256u << 18);
}

/* --- Every format ------------------------------------------------------- */

/* The quantization step of a float-class format near v, for round-trip
 * tolerance: half a step of the component's precision. */
static double tolerance(enum ppu_tex_format f, unsigned comp, double v)
{
   switch (f) {
   case PPU_TEX_FORMAT_A2B10G10R10_UNORM:
   case PPU_TEX_FORMAT_A2R10G10B10_UNORM:
      return comp == 3 ? 0.5 / 3 : 0.5 / 1023;
   case PPU_TEX_FORMAT_R5G6B5_UNORM:
   case PPU_TEX_FORMAT_B5G6R5_UNORM:
      return comp == 1 ? 0.5 / 63 : 0.5 / 31;
   case PPU_TEX_FORMAT_A1R5G5B5_UNORM:
   case PPU_TEX_FORMAT_R5G5B5A1_UNORM:
   case PPU_TEX_FORMAT_B5G5R5A1_UNORM:
      return comp == 3 ? 0.5 : 0.5 / 31;
   case PPU_TEX_FORMAT_R4G4B4A4_UNORM:
   case PPU_TEX_FORMAT_B4G4R4A4_UNORM:
      return 0.5 / 15;
   case PPU_TEX_FORMAT_B10G11R11_UFLOAT:
      return fabs(v) * (comp == 2 ? 0x1p-6 : 0x1p-7);
   case PPU_TEX_FORMAT_E5B9G9R9_UFLOAT:
      return 1.0 / 512; /* the largest component (1.0) sets the exponent */
   case PPU_TEX_FORMAT_X8_D24_UNORM:
   case PPU_TEX_FORMAT_D24_UNORM_S8_UINT:
      return 0.5 / 16777215;
   default:
      break;
   }
   if (ppu_tex_format_bytes(f) == 1 || ppu_tex_format_bytes(f) == 2 * 1 ||
       (ppu_tex_format_bytes(f) == 4 && f <= PPU_TEX_FORMAT_B8G8R8A8_SRGB))
      return 0.5 / 127;                    /* 8-bit components (SNORM steps are the coarser) */
   return fabs(v) * 0x1p-11 + 0.5 / 32767; /* 16-bit: half floats and 16-bit norms */
}

TEST_CASE(every_uncompressed_format_round_trips_representative_values)
{
   const float floats[4] = {0.25f, 0.5f, 0.75f, 1.0f};
   const float signeds[4] = {-0.5f, 0.25f, -1.0f, 0.75f};
   for (unsigned f = 1; f < PPU_TEX_FORMAT_COUNT; f++) {
      if (ppu_tex_format_is_compressed(f))
         continue;
      enum ppu_texel_class cls = ppu_texel_format_class(f);
      struct ppu_texel in, out;
      uint8_t bytes[16];
      memset(bytes, 0xcd, sizeof(bytes));
      bool snorm = f == PPU_TEX_FORMAT_R8_SNORM || f == PPU_TEX_FORMAT_R8G8_SNORM ||
                   f == PPU_TEX_FORMAT_R8G8B8A8_SNORM || f == PPU_TEX_FORMAT_R16_SNORM ||
                   f == PPU_TEX_FORMAT_R16G16_SNORM || f == PPU_TEX_FORMAT_R16G16B16A16_SNORM ||
                   f == PPU_TEX_FORMAT_R16_SFLOAT || f == PPU_TEX_FORMAT_R32_SFLOAT ||
                   f == PPU_TEX_FORMAT_R16G16_SFLOAT || f == PPU_TEX_FORMAT_R32G32_SFLOAT ||
                   f == PPU_TEX_FORMAT_R16G16B16A16_SFLOAT ||
                   f == PPU_TEX_FORMAT_R32G32B32A32_SFLOAT;
      for (unsigned c = 0; c < 4; c++) {
         if (cls == PPU_TEXEL_CLASS_UINT)
            in.u[c] = 1 + c; /* fits every integer width, 2-bit alpha included */
         else if (cls == PPU_TEXEL_CLASS_SINT)
            in.i[c] = c & 1 ? -1 - (int32_t)c : (int32_t)c;
         else
            in.f[c] = snorm ? signeds[c] : floats[c];
      }
      if (f == PPU_TEX_FORMAT_A2B10G10R10_UINT)
         in.u[3] = 3;
      ppu_texel_encode(f, &in, false, bytes);
      ppu_texel_decode(f, bytes, false, &out);
      /* Components the format has must come back; the others read 0 (R,
       * G, B) or 1 (A). Which exist: decode a texel of all ones bits and
       * see which components are not the default. */
      uint8_t ones[16];
      memset(ones, 0xff, sizeof(ones));
      struct ppu_texel probe;
      ppu_texel_decode(f, ones, false, &probe);
      for (unsigned c = 0; c < 4; c++) {
         bool present = c == 3
                            ? (cls == PPU_TEXEL_CLASS_FLOAT ? probe.f[3] != 1.0f : probe.u[3] != 1)
                            : probe.u[c] != 0;
         if (f == PPU_TEX_FORMAT_E5B9G9R9_UFLOAT || f == PPU_TEX_FORMAT_B10G11R11_UFLOAT ||
             f == PPU_TEX_FORMAT_R5G6B5_UNORM || f == PPU_TEX_FORMAT_B5G6R5_UNORM)
            present = c < 3;
         if (!present) {
            bool dflt = c == 3 ? (cls == PPU_TEXEL_CLASS_FLOAT ? out.f[3] == 1.0f : out.u[3] == 1)
                               : out.u[c] == 0;
            CHECK_MSG(dflt, "format %u: missing component %u not defaulted", f, c);
         } else if (cls == PPU_TEXEL_CLASS_FLOAT) {
            /* Half a step, and a hair for ties that round away. */
            double tol = tolerance(f, c, in.f[c]) * 1.0001;
            if (f == PPU_TEX_FORMAT_R32_SFLOAT || f == PPU_TEX_FORMAT_R32G32_SFLOAT ||
                f == PPU_TEX_FORMAT_R32G32B32A32_SFLOAT || f == PPU_TEX_FORMAT_D32_SFLOAT ||
                f == PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT)
               tol = 0;
            CHECK_MSG(fabs(out.f[c] - in.f[c]) <= tol, "format %u comp %u: %g -> %g", f, c, in.f[c],
                      out.f[c]);
         } else {
            CHECK_MSG(out.u[c] == in.u[c], "format %u comp %u: %d -> %d", f, c, in.i[c], out.i[c]);
         }
      }
   }
}

/* The 16-bit packed formats, each component alone at its maximum: its
 * field must be where Vulkan's name puts it (named from the most
 * significant bits down, "Packed Formats"), and only that field set. A
 * swapped layout would still round-trip, so this pins the positions. */
TEST_CASE(packed_16_bit_formats_put_each_component_where_its_name_says)
{
   static const struct {
      enum ppu_tex_format f;
      uint16_t field[4]; /* R, G, B, A masks in the 16-bit texel; 0: no A */
   } cases[] = {
       {PPU_TEX_FORMAT_R5G6B5_UNORM, {0xf800, 0x07e0, 0x001f, 0}},
       {PPU_TEX_FORMAT_B5G6R5_UNORM, {0x001f, 0x07e0, 0xf800, 0}},
       {PPU_TEX_FORMAT_A1R5G5B5_UNORM, {0x7c00, 0x03e0, 0x001f, 0x8000}},
       {PPU_TEX_FORMAT_R5G5B5A1_UNORM, {0xf800, 0x07c0, 0x003e, 0x0001}},
       {PPU_TEX_FORMAT_B5G5R5A1_UNORM, {0x003e, 0x07c0, 0xf800, 0x0001}},
       {PPU_TEX_FORMAT_R4G4B4A4_UNORM, {0xf000, 0x0f00, 0x00f0, 0x000f}},
       {PPU_TEX_FORMAT_B4G4R4A4_UNORM, {0x00f0, 0x0f00, 0xf000, 0x000f}},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      CHECK_EQ_U64(ppu_tex_format_bytes(cases[i].f), 2);
      for (unsigned c = 0; c < 4; c++) {
         if (!cases[i].field[c])
            continue;
         float v[4] = {0, 0, 0, 0};
         v[c] = 1.0f;
         struct ppu_texel t = rgba(v[0], v[1], v[2], v[3]);
         uint16_t out = 0;
         ppu_texel_encode(cases[i].f, &t, false, &out);
         CHECK_MSG(out == cases[i].field[c], "format %u component %u: 0x%04x, want 0x%04x",
                   cases[i].f, c, out, cases[i].field[c]);
         struct ppu_texel d = decode(cases[i].f, &cases[i].field[c]);
         for (unsigned k = 0; k < 4; k++) {
            float want = k == c ? 1.0f : (k == 3 && !cases[i].field[3] ? 1.0f : 0.0f);
            CHECK_MSG(d.f[k] == want, "format %u field of %u decodes component %u as %g",
                      cases[i].f, c, k, d.f[k]);
         }
      }
   }
}

TEST_CASE(integer_formats_saturate_and_sign_extend)
{
   struct ppu_texel t = {.u = {300, 70000, 5, 9}};
   uint8_t b8[4];
   ppu_texel_encode(PPU_TEX_FORMAT_R8G8B8A8_UINT, &t, false, b8);
   CHECK(b8[0] == 255 && b8[1] == 255 && b8[2] == 5 && b8[3] == 9);
   t.i[0] = -200;
   t.i[1] = 200;
   ppu_texel_encode(PPU_TEX_FORMAT_R8G8_SINT, &t, false, b8);
   CHECK(b8[0] == 0x80 && b8[1] == 0x7f);
   struct ppu_texel d;
   ppu_texel_decode(PPU_TEX_FORMAT_R8G8_SINT, b8, false, &d);
   CHECK(d.i[0] == -128 && d.i[1] == 127 && d.i[2] == 0 && d.i[3] == 1);
   uint32_t packed = 0xffffffffu; /* A2B10G10R10_UINT: all ones */
   ppu_texel_decode(PPU_TEX_FORMAT_A2B10G10R10_UINT, &packed, false, &d);
   CHECK(d.u[0] == 1023 && d.u[1] == 1023 && d.u[2] == 1023 && d.u[3] == 3);
}

TEST_CASE(depth_and_stencil_aspects_encode_without_touching_each_other)
{
   uint8_t t[8];
   memset(t, 0, sizeof(t));
   struct ppu_texel depth = rgba(0.5f, 0, 0, 1), stencil = {.u = {0xab, 0, 0, 0}};
   ppu_texel_encode(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, &stencil, true, t);
   ppu_texel_encode(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, &depth, false, t);
   uint32_t w;
   memcpy(&w, t, 4);
   /* 0.5 * (2^24 - 1) = 8388607.5 rounds up to 0x800000; stencil on top. */
   CHECK_EQ_U64(w, 0xab800000u);
   struct ppu_texel d;
   ppu_texel_decode(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, t, true, &d);
   CHECK(d.u[0] == 0xab && d.u[1] == 0 && d.u[3] == 1);
   ppu_texel_decode(PPU_TEX_FORMAT_D24_UNORM_S8_UINT, t, false, &d);
   CHECK(same_float(d.f[0], (float)(8388608.0 / 16777215.0)));

   memset(t, 0xee, sizeof(t));
   depth.f[0] = 0.125f;
   ppu_texel_encode(PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT, &depth, false, t);
   stencil.u[0] = 7;
   ppu_texel_encode(PPU_TEX_FORMAT_D32_SFLOAT_S8_UINT, &stencil, true, t);
   float f;
   memcpy(&f, t, 4);
   CHECK(f == 0.125f && t[4] == 7 && t[5] == 0xee);

   /* X8_D24: the unused top byte is written 0. */
   memset(t, 0xff, 4);
   depth.f[0] = 1.0f;
   ppu_texel_encode(PPU_TEX_FORMAT_X8_D24_UNORM, &depth, false, t);
   memcpy(&w, t, 4);
   CHECK_EQ_U64(w, 0x00ffffffu);
   /* A depth-only format has no stencil aspect: it reads 0, writes nothing. */
   ppu_texel_decode(PPU_TEX_FORMAT_D16_UNORM, t, true, &d);
   CHECK(d.u[0] == 0 && d.u[3] == 1);
   CHECK(ppu_texel_format_class(PPU_TEX_FORMAT_S8_UINT) == PPU_TEXEL_CLASS_UINT);
   CHECK(ppu_texel_format_class(PPU_TEX_FORMAT_D24_UNORM_S8_UINT) == PPU_TEXEL_CLASS_FLOAT);
}

/* --- BC1-BC5 -------------------------------------------------------------- */

static void decode_block(enum ppu_tex_format f, const uint8_t *block, struct ppu_texel out[16])
{
   ppu_texel_decode_block(f, block, out);
}

TEST_CASE(bc1_four_and_three_color_modes_and_the_rgba_variant)
{
   /* KDF 21.1. c0 = 0xf800 (red 31, 0, 0) > c1 = 0x001f (blue 0, 0, 31):
    * four colors: c0, c1, (2 c0 + c1) / 3, (c0 + 2 c1) / 3. Indices
    * 0b11100100 repeated: texels 0..3 use palette entries 0, 1, 2, 3. */
   uint8_t four[8] = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4};
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC1_RGBA_UNORM, four, t);
   CHECK(t[0].f[0] == 1.0f && t[0].f[2] == 0.0f && t[0].f[3] == 1.0f);
   CHECK(t[1].f[0] == 0.0f && t[1].f[2] == 1.0f);
   CHECK(same_float(t[2].f[0], (float)(62.0 / 93)) && same_float(t[2].f[2], (float)(31.0 / 93)));
   CHECK(same_float(t[3].f[0], (float)(31.0 / 93)) && same_float(t[3].f[2], (float)(62.0 / 93)));
   CHECK(t[3].f[3] == 1.0f && t[7].f[0] == t[3].f[0]);

   /* Swapped endpoints (c0 = 0x001f <= c1 = 0xf800): three colors, entry 2
    * the midpoint (0.5, 0, 0.5), entry 3 black: opaque for BC1_RGB,
    * transparent for BC1_RGBA. */
   uint8_t three[8] = {0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4};
   decode_block(PPU_TEX_FORMAT_BC1_RGB_UNORM, three, t);
   CHECK(t[2].f[0] == 0.5f && t[2].f[1] == 0.0f && t[2].f[2] == 0.5f && t[2].f[3] == 1.0f);
   CHECK(t[3].f[0] == 0.0f && t[3].f[2] == 0.0f && t[3].f[3] == 1.0f);
   decode_block(PPU_TEX_FORMAT_BC1_RGBA_UNORM, three, t);
   CHECK(t[3].f[0] == 0.0f && t[3].f[3] == 0.0f);
   CHECK(t[0].f[3] == 1.0f);
   /* Equal endpoints are the three-color mode too (c0 > c1 fails). */
   uint8_t equal[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
   decode_block(PPU_TEX_FORMAT_BC1_RGBA_SRGB, equal, t);
   CHECK(t[15].f[0] == 0.0f && t[15].f[3] == 0.0f);
   /* sRGB: the EOTF of the interpolated value, here of 62/93 for red. */
   decode_block(PPU_TEX_FORMAT_BC1_RGB_SRGB, four, t);
   CHECK(same_float(t[2].f[0], (float)srgb_eotf(62.0 / 93)));
   CHECK(t[0].f[0] == 1.0f);
}

TEST_CASE(bc2_and_bc3_alpha_and_their_always_four_color_blocks)
{
   /* BC2 (KDF 21.2): alpha nibble t of the first 8 bytes is texel t's
    * alpha / 15. The color block (here the three-color-mode order
    * c0 <= c1) still decodes with four colors. */
   uint8_t bc2[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
                      0x1f, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, 0xff};
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC2_UNORM, bc2, t);
   for (unsigned i = 0; i < 16; i++)
      CHECK_MSG(same_float(t[i].f[3], (float)i / 15.0f), "texel %u alpha %g", i, t[i].f[3]);
   /* Index 3 in four-color mode: (c0 + 2 c1) / 3 = red 62/93, blue 31/93. */
   CHECK(same_float(t[0].f[0], (float)(62.0 / 93)) && same_float(t[0].f[2], (float)(31.0 / 93)));

   /* BC3 (KDF 21.3): alpha a0 = 255 > a1 = 0: eight values, index i in
    * 2..7 = ((8 - i) a0 + (i - 1) a1) / 7. Texel 0 index 2: 6/7; texel 1
    * index 7: 1/7. Indices are 3 bits from byte 2 on: 0b111010 = 0x3a. */
   uint8_t bc3[16] = {255, 0, 0x3a, 0, 0, 0, 0, 0, 0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC3_UNORM, bc3, t);
   CHECK(same_float(t[0].f[3], (float)(6.0 / 7)));
   CHECK(same_float(t[1].f[3], (float)(1.0 / 7)));
   CHECK(t[2].f[3] == 1.0f && t[0].f[0] == 1.0f); /* index 0 = a0; red color */
   /* a0 = 0 <= a1 = 255: six values and the extremes: index 6 is 0, 7 is
    * 1; index 2 = (4 a0 + a1) / 5 = 1/5. Texel 0 index 6, texel 1 index 7,
    * texel 2 index 2: bits 110 111 010 = 0x0be from bit 0 of byte 2. */
   uint8_t bc3b[16] = {0, 255, 0xbe, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC3_SRGB, bc3b, t);
   CHECK(t[0].f[3] == 0.0f && t[1].f[3] == 1.0f && same_float(t[2].f[3], (float)(1.0 / 5)));
}

TEST_CASE(bc4_and_bc5_unorm_and_snorm_in_both_interpolation_modes)
{
   struct ppu_texel t[16];
   /* BC4 UNORM (KDF 22.1), r0 = 200 > r1 = 100: index 1 -> 100/255, index
    * 4 -> (4 * 200 + 3 * 100) / (7 * 255). Texel 0 index 1, texel 1 index
    * 4: bits 001 100 = 0x21. */
   uint8_t u[8] = {200, 100, 0x21, 0, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC4_UNORM, u, t);
   CHECK(same_float(t[0].f[0], (float)(100.0 / 255)));
   CHECK(same_float(t[1].f[0], (float)(1100.0 / (7 * 255))));
   CHECK(t[0].f[1] == 0.0f && t[0].f[2] == 0.0f && t[0].f[3] == 1.0f);
   CHECK(same_float(t[2].f[0], (float)(200.0 / 255))); /* index 0 */

   /* BC4 SNORM (KDF 22.2): r0 = -128 (0x80), r1 = 127: -128 > 127 fails,
    * six values: -128 reads as -127, so index 0 -> -1.0; index 2 ->
    * (4 * -127 + 127) / (5 * 127) = -0.6; index 6 -> -1.0, index 7 -> 1.0.
    * Texels 0..3 indices 0, 2, 6, 7: 0 | 2 << 3 | 6 << 6 | 7 << 9 = 0xf90. */
   uint8_t s[8] = {0x80, 0x7f, 0x90, 0x0f, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC4_SNORM, s, t);
   CHECK(t[0].f[0] == -1.0f);
   CHECK(same_float(t[1].f[0], (float)(-381.0 / 635)));
   CHECK(t[2].f[0] == -1.0f && t[3].f[0] == 1.0f);
   /* r0 = 127 > r1 = -127: eight values; index 7 = (127 + 6 * -127) /
    * (7 * 127) = -5/7. Texel 0 index 7. */
   uint8_t s8[8] = {0x7f, 0x81, 0x07, 0, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC4_SNORM, s8, t);
   CHECK(same_float(t[0].f[0], (float)(-5.0 / 7)));

   /* BC5: two BC4 blocks, R then G; B 0, A 1. */
   uint8_t bc5[16] = {200, 100, 0x21, 0, 0, 0, 0, 0, 0x80, 0x7f, 0x90, 0x0f, 0, 0, 0, 0};
   decode_block(PPU_TEX_FORMAT_BC5_UNORM, bc5, t);
   CHECK(same_float(t[1].f[0], (float)(1100.0 / (7 * 255))));
   CHECK(same_float(t[0].f[1], 128.0f / 255.0f) && t[0].f[2] == 0.0f && t[0].f[3] == 1.0f);
   decode_block(PPU_TEX_FORMAT_BC5_SNORM, bc5, t);
   CHECK(same_float(t[1].f[1], (float)(-381.0 / 635)));
}

/* --- BC7 ---------------------------------------------------------------------- */

/* A block written field by field, lowest bit first, as BPTC stores it. */
struct bits {
   uint8_t b[16];
   unsigned pos;
};

static void put(struct bits *w, uint32_t v, unsigned n)
{
   for (unsigned i = 0; i < n; i++, w->pos++)
      if ((v >> i) & 1)
         w->b[w->pos >> 3] |= (uint8_t)(1u << (w->pos & 7));
}

static void put_mode(struct bits *w, unsigned mode)
{
   put(w, 1u << mode, mode + 1);
}

/* Checks texel t against 8-bit RGBA values (BC7 UNORM outputs c / 255). */
static void check_bc7(const struct ppu_texel *t, unsigned i, const uint8_t want[4], unsigned mode)
{
   for (unsigned c = 0; c < 4; c++)
      CHECK_MSG(same_float(t[i].f[c], (float)want[c] / 255.0f),
                "mode %u texel %u comp %u: %g, want %u", mode, i, c, t[i].f[c] * 255.0f, want[c]);
}

TEST_CASE(bc7_mode_0_three_subsets_with_endpoint_pbits)
{
   /* Mode 0: partition 4 bits, 3 subsets, RGB 4 bits + a P-bit per
    * endpoint, 3-bit indices. Partition 0 of Table.P3 (row 0:
    * 0,0,1,1,0,0,1,1,0,2,2,1,2,2,2,2); anchors: subset 0 texel 0, subset 1
    * texel A3a[0] = 3, subset 2 texel A3b[0] = 15.
    * Endpoints: subset s endpoint e has R = G = B = 4 s + 2 e... written
    * R: s0e0 s0e1 s1e0 s1e1 s2e0 s2e1, then G, then B; P-bits 0,1 for each
    * subset. A 4-bit value v with P-bit p is the 5-bit (v << 1 | p), then
    * replicated to 8 bits: x << 3 | x >> 2. */
   struct bits w = {{0}, 0};
   put_mode(&w, 0);
   put(&w, 0, 4); /* partition 0 */
   const unsigned v[3][2] = {{0, 15}, {2, 6}, {8, 8}};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned s = 0; s < 3; s++)
         for (unsigned e = 0; e < 2; e++)
            put(&w, v[s][e], 4);
   for (unsigned s = 0; s < 3; s++) {
      put(&w, 0, 1);
      put(&w, 1, 1);
   }
   /* Indices, 3 bits (2 for texels 0, 3 and 15): texel 0 -> 0, texel 2
    * (subset 1) -> 7, texel 3 (subset 1 anchor) -> 3, texel 9 (subset 2)
    * -> 4, others 0. */
   for (unsigned t = 0; t < 16; t++) {
      unsigned n = (t == 0 || t == 3 || t == 15) ? 2 : 3;
      put(&w, t == 2 ? 7 : t == 3 ? 3 : t == 9 ? 4 : 0, n);
   }
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* Subset 0 e0: 5-bit 0b00000 -> 0. Subset 1 e0 = (2 << 1 | 0) = 4 ->
    * 4 << 3 | 4 >> 2 = 33; e1 = (6 << 1 | 1) = 13 -> 104 | 3 = 107.
    * Texel 2 index 7 (weight 64) -> e1 = 107; texel 3 index 3 (weight 27)
    * -> (33 * 37 + 107 * 27 + 32) >> 6 = (1221 + 2889 + 32) >> 6 = 4142
    * >> 6 = 64. Subset 2: e0 = (8 << 1 | 0) = 16 -> 128 | 4 = 132, e1 =
    * 17 -> 136 | 4 = 140; texel 9 index 4 (weight 37): (132 * 27 + 140 *
    * 37 + 32) >> 6 = (3564 + 5180 + 32) >> 6 = 8776 >> 6 = 137. No alpha
    * bits: alpha 255. */
   check_bc7(t, 0, (const uint8_t[4]){0, 0, 0, 255}, 0);
   check_bc7(t, 2, (const uint8_t[4]){107, 107, 107, 255}, 0);
   check_bc7(t, 3, (const uint8_t[4]){64, 64, 64, 255}, 0);
   check_bc7(t, 9, (const uint8_t[4]){137, 137, 137, 255}, 0);
}

TEST_CASE(bc7_mode_1_two_subsets_with_shared_pbits)
{
   /* Mode 1: partition 6 bits, 2 subsets, RGB 6 bits, one shared P-bit
    * per subset, 3-bit indices. Partition 13 of Table.P2 (row:
    * 0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1): texels 8..15 in subset 1, whose
    * anchor is A2[13] = 15. Subset 0: R 10/20, G 0/63, B 63/0; subset 1
    * all 32/33. Shared P-bits: subset 0 = 1, subset 1 = 0. */
   struct bits w = {{0}, 0};
   put_mode(&w, 1);
   put(&w, 13, 6);
   const unsigned v[3][2][2] = {{{10, 20}, {32, 33}}, {{0, 63}, {32, 33}}, {{63, 0}, {32, 33}}};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned s = 0; s < 2; s++)
         for (unsigned e = 0; e < 2; e++)
            put(&w, v[c][s][e], 6);
   put(&w, 1, 1);
   put(&w, 0, 1);
   /* Texel 1 -> index 5 (weight 46), texel 8 -> index 2 (weight 18). */
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 5 : t == 8 ? 2 : 0, (t == 0 || t == 15) ? 2 : 3);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* 7-bit values (v << 1 | p) replicated: x << 1 | x >> 6.
    * Subset 0: R e0 = 21 -> 42, e1 = 41 -> 82; G 1 -> 2, 127 -> 255;
    * B 127 -> 255, 1 -> 2. Texel 1 weight 46: R (42 * 18 + 82 * 46 + 32)
    * >> 6 = (756 + 3772 + 32) >> 6 = 4560 >> 6 = 71; G (2 * 18 + 255 * 46
    * + 32) >> 6 = (36 + 11730 + 32) >> 6 = 11798 >> 6 = 184; B (255 * 18 +
    * 2 * 46 + 32) >> 6 = (4590 + 92 + 32) >> 6 = 4714 >> 6 = 73.
    * Subset 1: e0 = 64 -> 128 | 1 = 129, e1 = 66 -> 132 | 1 = 133; texel 8
    * weight 18: (129 * 46 + 133 * 18 + 32) >> 6 = (5934 + 2394 + 32) >> 6
    * = 8360 >> 6 = 130. */
   check_bc7(t, 0, (const uint8_t[4]){42, 2, 255, 255}, 1);
   check_bc7(t, 1, (const uint8_t[4]){71, 184, 73, 255}, 1);
   check_bc7(t, 8, (const uint8_t[4]){130, 130, 130, 255}, 1);
   check_bc7(t, 9, (const uint8_t[4]){129, 129, 129, 255}, 1);
}

TEST_CASE(bc7_mode_2_three_subsets_without_pbits)
{
   /* Mode 2: 6 partition bits, 3 subsets, RGB 5 bits, no P-bits, 2-bit
    * indices. Partition 63 of Table.P3 (row:
    * 0,1,1,1,2,0,1,1,2,2,0,1,2,2,2,0), anchors A3a[63] = 3, A3b[63] = 8.
    * Subset s endpoints: e0 = 5 s + 1, e1 = 31 - s for every component. */
   struct bits w = {{0}, 0};
   put_mode(&w, 2);
   put(&w, 63, 6);
   for (unsigned c = 0; c < 3; c++)
      for (unsigned s = 0; s < 3; s++) {
         put(&w, 5 * s + 1, 5);
         put(&w, 31 - s, 5);
      }
   /* Texel 1 (subset 1) index 1 (weight 21), texel 4 (subset 2) index 2
    * (weight 43), texel 3 (anchor of subset 1) index 1. */
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 1 : t == 4 ? 2 : t == 3 ? 1 : 0, (t == 0 || t == 3 || t == 8) ? 1 : 2);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* 5-bit x -> x << 3 | x >> 2. Subset 1: e0 = 6 -> 49, e1 = 30 -> 247;
    * weight 21: (49 * 43 + 247 * 21 + 32) >> 6 = (2107 + 5187 + 32) >> 6
    * = 7326 >> 6 = 114. Subset 2: e0 = 11 -> 90, e1 = 29 -> 239; weight
    * 43: (90 * 21 + 239 * 43 + 32) >> 6 = (1890 + 10277 + 32) >> 6 = 12199
    * >> 6 = 190. Subset 0 (texel 0, index 0): e0 = 1 -> 8. */
   check_bc7(t, 0, (const uint8_t[4]){8, 8, 8, 255}, 2);
   check_bc7(t, 1, (const uint8_t[4]){114, 114, 114, 255}, 2);
   check_bc7(t, 3, (const uint8_t[4]){114, 114, 114, 255}, 2);
   check_bc7(t, 4, (const uint8_t[4]){190, 190, 190, 255}, 2);
}

TEST_CASE(bc7_mode_3_two_subsets_with_8_bit_endpoints)
{
   /* Mode 3: 6 partition bits, 2 subsets, RGB 7 bits + a P-bit per
    * endpoint (8 bits, nothing to replicate), 2-bit indices. Partition 0
    * (columns 2 and 3 in subset 1), anchor A2[0] = 15. Subset 0: R 0/127,
    * G 64/64, B 1/2; subset 1: 100/50. P-bits 1, 0 (subset 0), 0, 1. */
   struct bits w = {{0}, 0};
   put_mode(&w, 3);
   put(&w, 0, 6);
   const unsigned v[3][2][2] = {{{0, 127}, {100, 50}}, {{64, 64}, {100, 50}}, {{1, 2}, {100, 50}}};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned s = 0; s < 2; s++)
         for (unsigned e = 0; e < 2; e++)
            put(&w, v[c][s][e], 7);
   put(&w, 1, 1);
   put(&w, 0, 1);
   put(&w, 0, 1);
   put(&w, 1, 1);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 2 : t == 2 ? 3 : t == 15 ? 1 : 0, (t == 0 || t == 15) ? 1 : 2);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* Subset 0 e0 = (1, 129, 3), e1 = (254, 128, 4). Texel 1 weight 43:
    * R (1 * 21 + 254 * 43 + 32) >> 6 = 10975 >> 6 = 171; G (129 * 21 + 128
    * * 43 + 32) >> 6 = 8245 >> 6 = 128; B (3 * 21 + 4 * 43 + 32) >> 6 =
    * 267 >> 6 = 4. Subset 1: e0 = 200, e1 = 101; texel 2 index 3 -> 101;
    * texel 15 index 1 (weight 21): (200 * 43 + 101 * 21 + 32) >> 6 =
    * 10753 >> 6 = 168. */
   check_bc7(t, 0, (const uint8_t[4]){1, 129, 3, 255}, 3);
   check_bc7(t, 1, (const uint8_t[4]){171, 128, 4, 255}, 3);
   check_bc7(t, 2, (const uint8_t[4]){101, 101, 101, 255}, 3);
   check_bc7(t, 15, (const uint8_t[4]){168, 168, 168, 255}, 3);
}

TEST_CASE(bc7_mode_4_rotation_and_index_selection)
{
   /* Mode 4: rotation 2 bits (here 1: swap A and R), index selection 1
    * bit (here 1: color takes the 3-bit secondary indices, alpha the 2-bit
    * primary ones), RGB 5 bits, A 6 bits. R 0/31, G 31/0, B 16/16, A 0/63. */
   struct bits w = {{0}, 0};
   put_mode(&w, 4);
   put(&w, 1, 2);
   put(&w, 1, 1);
   const unsigned rgb[3][2] = {{0, 31}, {31, 0}, {16, 16}};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned e = 0; e < 2; e++)
         put(&w, rgb[c][e], 5);
   put(&w, 0, 6);
   put(&w, 63, 6);
   for (unsigned t = 0; t < 16; t++) /* primary, 2 bits: texel 1 -> 1 */
      put(&w, t == 1 ? 1 : 0, t == 0 ? 1 : 2);
   for (unsigned t = 0; t < 16; t++) /* secondary, 3 bits: texel 1 -> 6 */
      put(&w, t == 1 ? 6 : 0, t == 0 ? 2 : 3);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* Endpoints: R 0/255, G 255/0, B 132/132, A 0/255 (6-bit 63 -> 252 |
    * 3). Texel 1: color weight 55 (3-bit index 6): R (255 * 55 + 32) >> 6
    * = 14057 >> 6 = 219, G (255 * 9 + 32) >> 6 = 2327 >> 6 = 36, B 132;
    * alpha weight 21: (255 * 21 + 32) >> 6 = 5387 >> 6 = 84. Then A and R
    * swap: (84, 36, 132, 219). Texel 0: (0, 255, 132, 0) swapped to
    * (0, 255, 132, 0). */
   check_bc7(t, 0, (const uint8_t[4]){0, 255, 132, 0}, 4);
   check_bc7(t, 1, (const uint8_t[4]){84, 36, 132, 219}, 4);
}

TEST_CASE(bc7_mode_5_separate_alpha_indices_and_rotation)
{
   /* Mode 5: rotation 2 bits (3: swap A and B), RGB 7 bits, A 8 bits,
    * 2-bit color indices then 2-bit alpha indices. R 127/0, G 64/64,
    * B 0/127, A 10/250. */
   struct bits w = {{0}, 0};
   put_mode(&w, 5);
   put(&w, 3, 2);
   const unsigned rgb[3][2] = {{127, 0}, {64, 64}, {0, 127}};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned e = 0; e < 2; e++)
         put(&w, rgb[c][e], 7);
   put(&w, 10, 8);
   put(&w, 250, 8);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 5 ? 2 : 0, t == 0 ? 1 : 2);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 5 ? 1 : 0, t == 0 ? 1 : 2);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* 7-bit x -> x << 1 | x >> 6: 127 -> 255, 64 -> 129, 0 -> 0. Texel 5:
    * color weight 43: R (255 * 21 + 32) >> 6 = 84, G 129, B (255 * 43 +
    * 32) >> 6 = 10997 >> 6 = 171; alpha weight 21: (10 * 43 + 250 * 21 +
    * 32) >> 6 = 5712 >> 6 = 89. Swap A and B: (84, 129, 89, 171). */
   check_bc7(t, 5, (const uint8_t[4]){84, 129, 89, 171}, 5);
   check_bc7(t, 0, (const uint8_t[4]){255, 129, 10, 0}, 5);
}

static void bc7_mode6_block(uint8_t out[16])
{
   /* Mode 6: RGBA 7 bits + a P-bit per endpoint, 4-bit indices. R 0/127,
    * G 127/0, B 64/64, A 127/127, P-bits 0 and 1. Texel 1 index 15,
    * texel 2 index 8, others 0. */
   struct bits w = {{0}, 0};
   put_mode(&w, 6);
   const unsigned v[4][2] = {{0, 127}, {127, 0}, {64, 64}, {127, 127}};
   for (unsigned c = 0; c < 4; c++)
      for (unsigned e = 0; e < 2; e++)
         put(&w, v[c][e], 7);
   put(&w, 0, 1);
   put(&w, 1, 1);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 15 : t == 2 ? 8 : 0, t == 0 ? 3 : 4);
   memcpy(out, w.b, 16);
}

TEST_CASE(bc7_mode_6_single_subset_rgba_and_the_srgb_variant)
{
   uint8_t b[16];
   bc7_mode6_block(b);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, b, t);
   /* e0 = (0, 254, 128, 254), e1 = (255, 1, 129, 255). Texel 2 weight 34:
    * R (255 * 34 + 32) >> 6 = 8702 >> 6 = 135; G (254 * 30 + 34 + 32) >>
    * 6 = 7686 >> 6 = 120; B (128 * 30 + 129 * 34 + 32) >> 6 = 8258 >> 6
    * = 129; A (254 * 30 + 255 * 34 + 32) >> 6 = 16322 >> 6 = 255. */
   check_bc7(t, 0, (const uint8_t[4]){0, 254, 128, 254}, 6);
   check_bc7(t, 1, (const uint8_t[4]){255, 1, 129, 255}, 6);
   check_bc7(t, 2, (const uint8_t[4]){135, 120, 129, 255}, 6);
   decode_block(PPU_TEX_FORMAT_BC7_SRGB, b, t);
   /* sRGB: the 8-bit results through the EOTF, alpha linear. */
   CHECK(same_float(t[2].f[0], (float)srgb_eotf(135 / 255.0)));
   CHECK(same_float(t[0].f[3], 254.0f / 255.0f));
}

TEST_CASE(bc7_mode_7_two_subsets_rgba_and_reserved_mode_8)
{
   /* Mode 7: 6 partition bits, 2 subsets, RGBA 5 bits + a P-bit per
    * endpoint, 2-bit indices. Partition 1 (column 3 in subset 1), anchor
    * A2[1] = 15. Subset 0: R 31/0, G 0/31, B 10/10, A 31/31; subset 1 all
    * 16/16. P-bits 1, 0, 0, 1. */
   struct bits w = {{0}, 0};
   put_mode(&w, 7);
   put(&w, 1, 6);
   const unsigned v[4][2][2] = {
       {{31, 0}, {16, 16}}, {{0, 31}, {16, 16}}, {{10, 10}, {16, 16}}, {{31, 31}, {16, 16}}};
   for (unsigned c = 0; c < 4; c++)
      for (unsigned s = 0; s < 2; s++)
         for (unsigned e = 0; e < 2; e++)
            put(&w, v[c][s][e], 5);
   put(&w, 1, 1);
   put(&w, 0, 1);
   put(&w, 0, 1);
   put(&w, 1, 1);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 1 : t == 3 ? 3 : t == 15 ? 1 : 0, (t == 0 || t == 15) ? 1 : 2);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, w.b, t);
   /* 6-bit x = v << 1 | p -> x << 2 | x >> 4. Subset 0 e0 = (255, 4, 85,
    * 255), e1 = (0, 251, 81, 251). Texel 1 weight 21: R (255 * 43 + 32)
    * >> 6 = 171; G (4 * 43 + 251 * 21 + 32) >> 6 = 5475 >> 6 = 85; B (85 *
    * 43 + 81 * 21 + 32) >> 6 = 5388 >> 6 = 84; A (255 * 43 + 251 * 21 +
    * 32) >> 6 = 16268 >> 6 = 254. Subset 1: e0 = 32 -> 130, e1 = 33 ->
    * 134; texel 3 index 3 -> 134; texel 15 weight 21: (130 * 43 + 134 * 21
    * + 32) >> 6 = 8436 >> 6 = 131. */
   check_bc7(t, 1, (const uint8_t[4]){171, 85, 84, 254}, 7);
   check_bc7(t, 3, (const uint8_t[4]){134, 134, 134, 134}, 7);
   check_bc7(t, 15, (const uint8_t[4]){131, 131, 131, 131}, 7);

   /* A first byte of 0 has no mode bit: reserved, decodes to (0, 0, 0, 0). */
   uint8_t reserved[16];
   memset(reserved, 0xff, sizeof(reserved));
   reserved[0] = 0;
   decode_block(PPU_TEX_FORMAT_BC7_UNORM, reserved, t);
   for (unsigned i = 0; i < 16; i++)
      CHECK(t[i].f[0] == 0.0f && t[i].f[1] == 0.0f && t[i].f[2] == 0.0f && t[i].f[3] == 0.0f);
}

/* --- BC6H ---------------------------------------------------------------------- */

static float half_bits(uint16_t h)
{
   unsigned e = (h >> 10) & 31, m = h & 1023;
   double v = e == 0 ? ldexp(m, -24) : ldexp(m + 1024, (int)e - 25);
   return (float)(h & 0x8000 ? -v : v);
}

TEST_CASE(bc6h_mode_3_unsigned_and_signed_unquantization)
{
   /* Mode 3 (m = 0b00011): one subset, untransformed 10-bit endpoints
    * r0 g0 b0 r1 g1 b1, 4-bit indices (3 for texel 0). Unsigned
    * unquantization (BPTC appendix): 0 -> 0, 1023 -> 0xffff, else
    * ((x << 15) + 0x4000) >> 9; then the result times 31/64 is a half. */
   struct bits w = {{0}, 0};
   put(&w, 3, 5);
   const unsigned e[6] = {0, 512, 1, 1023, 512, 1};
   for (unsigned i = 0; i < 6; i++)
      put(&w, e[i], 10);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 15 : t == 2 ? 5 : 0, t == 0 ? 3 : 4);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC6H_UFLOAT, w.b, t);
   /* G: 512 -> (2^24 + 2^14) >> 9 = 32800 -> 32800 * 31 >> 6 = 15887 =
    * 0x3e0f. B: 1 -> (2^15 + 2^14) >> 9 = 96 -> 96 * 31 >> 6 = 46 (a
    * denormal). R of texel 1 (index 15, e1): 0xffff -> 0x7bff = 65504.
    * Texel 2 index 5 (weight 21): R (0xffff * 21 + 32) >> 6 = 21504 ->
    * 21504 * 31 >> 6 = 10416 = 0x28b0. */
   CHECK(t[0].f[0] == 0.0f && same_float(t[0].f[1], half_bits(0x3e0f)) &&
         same_float(t[0].f[2], half_bits(46)) && t[0].f[3] == 1.0f);
   CHECK(t[1].f[0] == 65504.0f && same_float(t[1].f[1], half_bits(0x3e0f)));
   CHECK(same_float(t[2].f[0], half_bits(0x28b0)));

   /* Signed: e0 is sign-extended: r0 = 0 stays 0; r1 = 1023 is -1 ->
    * -96; magnitudes times 31/32 with the sign or'ed back: -(96 * 31 >> 5)
    * = 0x8000 | 93. b0 = b1 = 1 -> 96 -> 93. g 512 = -512 -> the
    * magnitude 512 >= 2^9 - 1 gives 0x7fff -> -(0x7fff * 31 >> 5) =
    * 0x8000 | 0x7bff. */
   decode_block(PPU_TEX_FORMAT_BC6H_SFLOAT, w.b, t);
   CHECK(same_float(t[1].f[0], half_bits(0x8000 | 93)));
   CHECK(same_float(t[0].f[1], half_bits(0x8000 | 0x7bff)));
   CHECK(same_float(t[0].f[2], half_bits(93)));
}

TEST_CASE(bc6h_mode_15_reversed_bits_and_16_bit_endpoints)
{
   /* Mode 15 (m = 0b01111): r0[9:0], g0[9:0], b0[9:0], r1[3:0],
    * r0[10:15], g1[3:0], g0[10:15], b1[3:0], b0[10:15]; transformed, 16-bit
    * endpoints, 4-bit deltas. r0[10:15] is reversed: the first of its six
    * block bits is r0 bit 15. Here that bit alone is set, so r0 = 0x8000
    * (if it were bit 10, r0 would be 0x400). r1 = r0 + 1; g1 = g0 - 1
    * wraps to 0xffff; b 0. 16-bit endpoints are not rescaled. */
   struct bits w = {{0}, 0};
   put(&w, 15, 5);
   put(&w, 0, 30);
   put(&w, 1, 4);   /* r1 delta +1 */
   put(&w, 1, 6);   /* r0[10:15]: first bit -> bit 15 */
   put(&w, 0xf, 4); /* g1 delta -1 */
   put(&w, 0, 6);
   put(&w, 0, 4);
   put(&w, 0, 6);
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 1 ? 15 : 0, t == 0 ? 3 : 4);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC6H_UFLOAT, w.b, t);
   /* Texel 0: R 0x8000 * 31 >> 6 = 15872 = 0x3e00 = 1.5; G 0. Texel 1
    * (e1): R 0x8001 * 31 >> 6 = 15872 again; G 0xffff -> 0x7bff. */
   CHECK(t[0].f[0] == 1.5f && t[0].f[1] == 0.0f && t[0].f[2] == 0.0f);
   CHECK(t[1].f[0] == 1.5f && t[1].f[1] == 65504.0f);
}

TEST_CASE(bc6h_mode_0_two_subsets_with_transformed_endpoints)
{
   /* Mode 0 (m = 0b00): Table.F order m[1:0], g2[4], b2[4], b3[4],
    * r0[9:0], g0[9:0], b0[9:0], r1[4:0], g3[4], g2[3:0], g1[4:0], b3[0],
    * g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3];
    * then 5 partition bits and 3-bit indices. e0 = (100, 200, 300);
    * deltas: e1 (+5, -1, -16), e2 (0, -1, 0), e3 (+1, 0, -16). */
   unsigned r1 = 5, g1 = 0x1f, b1 = 0x10, r2 = 0, g2 = 0x1f, b2 = 0, r3 = 1, g3 = 0, b3 = 0x10;
   struct bits w = {{0}, 0};
   put(&w, 0, 2);
   put(&w, g2 >> 4, 1);
   put(&w, b2 >> 4, 1);
   put(&w, b3 >> 4, 1);
   put(&w, 100, 10);
   put(&w, 200, 10);
   put(&w, 300, 10);
   put(&w, r1, 5);
   put(&w, g3 >> 4, 1);
   put(&w, g2 & 15, 4);
   put(&w, g1, 5);
   put(&w, b3 & 1, 1);
   put(&w, g3 & 15, 4);
   put(&w, b1, 5);
   put(&w, (b3 >> 1) & 1, 1);
   put(&w, b2 & 15, 4);
   put(&w, r2, 5);
   put(&w, (b3 >> 2) & 1, 1);
   put(&w, r3, 5);
   put(&w, (b3 >> 3) & 1, 1);
   CHECK_EQ_U64(w.pos, 77);
   put(&w, 13, 5); /* partition 13: texels 8..15 in subset 1, anchor 15 */
   for (unsigned t = 0; t < 16; t++)
      put(&w, t == 8 ? 7 : t == 15 ? 3 : 0, (t == 0 || t == 15) ? 2 : 3);
   CHECK_EQ_U64(w.pos, 128);
   struct ppu_texel t[16];
   decode_block(PPU_TEX_FORMAT_BC6H_UFLOAT, w.b, t);
   /* Endpoints (wrapped at 10 bits): e0 (100, 200, 300), e1 (105, 199,
    * 284), e2 (100, 199, 300), e3 (101, 200, 284). 10-bit unquantization
    * of x is 64 x + 32: e0 (6432, 12832, 19232), e2 (6432, 12768, 19232),
    * e3 (6496, 12832, 18208). Texel 0: e0 * 31 >> 6 = (3115, 6215, 9315).
    * Texel 8 (subset 1, index 7): e3 -> (3146, 6215, 8819). Texel 15
    * (subset 1 anchor, index 3, weight 27): R (6432 * 37 + 6496 * 27 + 32)
    * >> 6 = 6459 -> 3128; G (12768 * 37 + 12832 * 27 + 32) >> 6 = 12795 ->
    * 6197; B (19232 * 37 + 18208 * 27 + 32) >> 6 = 18800 -> 9106. */
   const uint16_t want[3][3] = {{3115, 6215, 9315}, {3146, 6215, 8819}, {3128, 6197, 9106}};
   const unsigned texel[3] = {0, 8, 15};
   for (unsigned i = 0; i < 3; i++)
      for (unsigned c = 0; c < 3; c++)
         CHECK_MSG(same_float(t[texel[i]].f[c], half_bits(want[i][c])), "texel %u comp %u: %a",
                   texel[i], c, t[texel[i]].f[c]);
}

TEST_CASE(bc6h_reserved_modes_decode_to_opaque_black)
{
   const unsigned reserved[4] = {19, 23, 27, 31};
   for (unsigned i = 0; i < 4; i++) {
      uint8_t b[16];
      memset(b, 0xa5, sizeof(b));
      b[0] = (uint8_t)((b[0] & ~0x1fu) | reserved[i]);
      struct ppu_texel t[16];
      decode_block(PPU_TEX_FORMAT_BC6H_SFLOAT, b, t);
      for (unsigned x = 0; x < 16; x++)
         CHECK(t[x].f[0] == 0.0f && t[x].f[1] == 0.0f && t[x].f[2] == 0.0f && t[x].f[3] == 1.0f);
   }
}

TEST_CASE(random_blocks_of_every_bc_format_decode_deterministically_in_range)
{
   for (unsigned f = 1; f < PPU_TEX_FORMAT_COUNT; f++) {
      if (!ppu_tex_format_is_compressed(f))
         continue;
      bool hdr = f == PPU_TEX_FORMAT_BC6H_UFLOAT || f == PPU_TEX_FORMAT_BC6H_SFLOAT;
      bool snorm = f == PPU_TEX_FORMAT_BC4_SNORM || f == PPU_TEX_FORMAT_BC5_SNORM;
      for (unsigned n = 0; n < 3000; n++) {
         uint8_t b[16];
         for (unsigned i = 0; i < 16; i++)
            b[i] = (uint8_t)rng();
         struct ppu_texel a[16], c[16];
         decode_block(f, b, a);
         decode_block(f, b, c);
         CHECK(memcmp(a, c, sizeof(a)) == 0);
         for (unsigned x = 0; x < 16; x++)
            for (unsigned k = 0; k < 4; k++) {
               float v = a[x].f[k];
               bool ok = hdr ? !isnan(v) && (f == PPU_TEX_FORMAT_BC6H_SFLOAT || v >= 0.0f)
                             : v >= (snorm ? -1.0f : 0.0f) && v <= 1.0f;
               if (!ok) {
                  CHECK_MSG(false, "format %u texel %u comp %u: %g", f, x, k, v);
                  x = 16;
                  break;
               }
            }
      }
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
