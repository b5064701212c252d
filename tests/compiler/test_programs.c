/* Small whole programs mixing features: struct copies, Private globals,
 * spec-constant expressions, barriers in loops, 2D shared tiles, CAS
 * loops, 64-bit atomics, special float values, integer vectors, uniform
 * arrays, loops left only by break, deep nesting, std140 mat3. */
#include <math.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t rng_state = 4242;
static uint32_t rnd(void)
{
   rng_state = rng_state * 1664525u + 1013904223u;
   return rng_state >> 4;
}

/* binding 0 = out (initialized from out), binding 1 = in. */
static bool run2(const char *shader, void *out, uint32_t out_bytes, const void *in,
                 uint32_t in_bytes, uint32_t gx, uint32_t gy, bool in_is_uniform)
{
   struct ctu t;
   if (!ctu_init(&t))
      return false;
   uint64_t ob = ctu_buffer(&t, out, out_bytes), ib = ctu_buffer(&t, in, in_bytes);
   struct ctu_dispatch d = {.shader = shader, .groups = {gx, gy}};
   ctu_bind(&d, 0, 0, ob, out_bytes);
   ctu_bind(&d, 0, 1, ib, in_bytes ? in_bytes : 16);
   d.bindings[1].uniform = in_is_uniform;
   bool ok = ctu_run(&t, &d);
   if (ok)
      ctu_read(&t, ob, out, out_bytes);
   ctu_finish(&t);
   return ok;
}

TEST_CASE(struct_copies_through_functions_and_local_arrays)
{
   /* std430 S: a @0 (ivec2), b @8, c[3] @12 (stride 4): 24 bytes. */
   static int32_t buf[2 * 32 * 6];
   for (int i = 0; i < 32 * 6; i++)
      buf[i] = (int32_t)(rnd() % 1000) - 500;
   static int32_t orig[2 * 32 * 6];
   memcpy(orig, buf, sizeof(buf));
   REQUIRE(run2("struct_copy", buf, sizeof(buf), NULL, 0, 1, 1, false));
   for (int i = 0; i < 32; i++) {
      int32_t want[6];
      memcpy(want, &orig[i * 6], sizeof(want));
      if (i & 1) {
         want[0] = orig[i * 6 + 1] + i;
         want[1] = orig[i * 6] + i;
         float b;
         memcpy(&b, &orig[i * 6 + 2], 4);
         b = -b;
         memcpy(&want[2], &b, 4);
         want[3 + i % 3] += 100;
      }
      CHECK_MSG(!memcmp(&buf[32 * 6 + i * 6], want, sizeof(want)), "element %d differs", i);
   }
}

TEST_CASE(private_globals_with_initializers)
{
   static uint32_t out[128];
   REQUIRE(run2("private_globals", out, sizeof(out), NULL, 0, 2, 1, false));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t counter = 5, h[4] = {1, 2, 3, 4};
      for (uint32_t k = 0; k < i % 5; k++) {
         counter += k + i;
         h[counter % 4] = counter;
      }
      uint32_t want = counter * 1000 + h[0] + h[1] * 10 + h[2] * 100 + h[3];
      CHECK_MSG(out[i] == want, "i=%u got %u want %u", i, out[i], want);
   }
}

static void check_spec_ops(const struct drv_spec_value *spec, uint32_t n, int a, int b, bool flag)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 32 * 4);
   struct ctu_dispatch d = {.shader = "spec_constant_ops", .spec = spec, .spec_count = n};
   ctu_bind(&d, 0, 0, ob, 32 * 4);
   REQUIRE(ctu_run(&t, &d));
   int32_t out[32];
   ctu_read(&t, ob, out, sizeof(out));
   for (int i = 0; i < 32; i++) {
      int r = i * (a + b) + a * b + (flag ? 1000 : 0);
      if (a > 20)
         r = -r;
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
   ctu_finish(&t);
}

TEST_CASE(spec_constant_op_expressions)
{
   check_spec_ops(NULL, 0, 10, 3, true);
   struct drv_spec_value spec[] = {{7, 4, 25}, {8, 4, (uint32_t)-4}, {9, 4, 0}};
   check_spec_ops(spec, 3, 25, -4, false);
}

TEST_CASE(barriers_inside_a_uniform_loop)
{
   static uint32_t out[96 * 3];
   REQUIRE(run2("barrier_in_loop", out, sizeof(out), NULL, 0, 3, 1, false));
   for (uint32_t g = 0; g < 3; g++) {
      uint32_t v[96], cur[96];
      for (uint32_t l = 0; l < 96; l++)
         v[l] = l * 7 + g;
      for (int step = 0; step < 5; step++) {
         memcpy(cur, v, sizeof(v));
         for (uint32_t l = 0; l < 96; l++)
            v[l] = v[l] + cur[(l + 1) % 96] * 3;
      }
      for (uint32_t l = 0; l < 96; l++)
         CHECK_MSG(out[g * 96 + l] == v[l], "g=%u l=%u got %u want %u", g, l, out[g * 96 + l],
                   v[l]);
   }
}

TEST_CASE(shared_tile_transpose_2d)
{
   enum { W = 48, H = 32 };
   static uint32_t in[W * H], out[W * H];
   for (uint32_t k = 0; k < W * H; k++)
      in[k] = k * 3 + 1;
   REQUIRE(run2("shared_transpose", out, sizeof(out), in, sizeof(in), W / 16, H / 16, false));
   for (uint32_t y = 0; y < H; y++)
      for (uint32_t x = 0; x < W; x++)
         CHECK_MSG(out[x * H + y] == in[y * W + x], "(%u,%u) got %u want %u", x, y, out[x * H + y],
                   in[y * W + x]);
}

TEST_CASE(compare_and_swap_retry_loop_on_shared_memory)
{
   enum { G = 4 };
   static uint32_t in[128 * G], out[G];
   for (int k = 0; k < 128 * G; k++)
      in[k] = rnd();
   REQUIRE(run2("shared_cas_max", out, sizeof(out), in, sizeof(in), G, 1, false));
   for (int g = 0; g < G; g++) {
      uint32_t m = 0;
      for (int k = 0; k < 128; k++)
         m = in[g * 128 + k] > m ? in[g * 128 + k] : m;
      CHECK_MSG(out[g] == m, "group %d got %u want %u", g, out[g], m);
   }
}

TEST_CASE(int64_atomics_carry_into_the_high_word)
{
   uint64_t acc[3] = {0, ~0ull, 0};
   REQUIRE(run2("int64_atomics", acc, sizeof(acc), NULL, 0, 4, 1, false));
   uint64_t sum = 0, mn = ~0ull, mx = 0;
   for (uint64_t i = 0; i < 256; i++) {
      uint64_t v = (i << 33) + 0xffffffffull;
      sum += v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
   }
   CHECK_EQ_U64(acc[0], sum);
   CHECK_EQ_U64(acc[1], mn);
   CHECK_EQ_U64(acc[2], mx);
}

static uint32_t fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

TEST_CASE(nan_inf_and_ieee_min_max)
{
   static float in[32];
   static uint32_t out[32 * 3];
   for (int i = 0; i < 32; i++)
      in[i] = (float)(i - 16) * 0.75f;
   in[0] = NAN;
   in[1] = INFINITY;
   in[2] = -INFINITY;
   in[3] = -0.0f;
   REQUIRE(run2("nan_inf", out, sizeof(out), in, sizeof(in), 1, 1, false));
   for (int i = 0; i < 32; i++) {
      float x = in[i];
      uint32_t cls =
          (uint32_t)isnan(x) + 2u * (uint32_t)(isinf(x) != 0) + 4u * (x == x) + 8u * (x != x);
      CHECK_MSG(out[i * 3] == cls, "i=%d class %u want %u", i, out[i * 3], cls);
      /* GLSL min/max of NaN may give either operand; the ISA gives the number. */
      CHECK_MSG(out[i * 3 + 1] == fbits(fminf(x, 1.0f)), "i=%d min 0x%x", i, out[i * 3 + 1]);
      CHECK_MSG(out[i * 3 + 2] == fbits(fmaxf(x, -1.0f)), "i=%d max 0x%x", i, out[i * 3 + 2]);
   }
}

TEST_CASE(integer_vector_shifts_compares_and_division)
{
   static uint32_t in[64 * 4], out[64 * 16];
   for (int k = 0; k < 64 * 4; k++)
      in[k] = rnd() * 77u;
   REQUIRE(run2("vector_int_ops", out, sizeof(out), in, sizeof(in), 1, 1, false));
   const uint32_t s[4] = {1, 3, 7, 31};
   const int32_t dv[4] = {3, -3, 7, -7};
   for (int i = 0; i < 64; i++)
      for (int c = 0; c < 4; c++) {
         uint32_t x = in[i * 4 + c];
         uint32_t want[4] = {(x << s[c]) | (x >> (32 - s[c])), x > 0x80000000u ? 5u : 1u,
                             (uint32_t)((int32_t)x / dv[c]), fbits((float)(x >> 8) * 0.5f)};
         for (int k = 0; k < 4; k++)
            CHECK_MSG(out[i * 16 + k * 4 + c] == want[k], "i=%d c=%d k=%d got 0x%x want 0x%x", i, c,
                      k, out[i * 16 + k * 4 + c], want[k]);
      }
}

TEST_CASE(uniform_arrays_indexed_dynamically)
{
   /* std140: lut[16] with stride 16 @0, v[4] (uvec4) @256. */
   static uint32_t ubo[(256 + 64) / 4];
   for (int k = 0; k < 16; k++)
      ubo[k * 4] = 7u * (uint32_t)k + 1;
   for (int k = 0; k < 16; k++)
      ubo[64 + k] = 1000u + (uint32_t)k;
   static uint32_t out[64];
   REQUIRE(run2("ubo_dynamic_index", out, sizeof(out), ubo, sizeof(ubo), 1, 1, true));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t want = ubo[(i % 16) * 4] + ubo[64 + (i % 4) * 4 + (i / 4) % 4] * 100;
      CHECK_MSG(out[i] == want, "i=%u got %u want %u", i, out[i], want);
   }
}

TEST_CASE(loops_left_only_by_break)
{
   static uint32_t out[64];
   REQUIRE(run2("infinite_loops", out, sizeof(out), NULL, 0, 1, 1, false));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t n = i, steps = 0, k = 0, acc = 0;
      while (n > 1) {
         n = (n & 1) == 0 ? n / 2 : n + 1;
         steps++;
      }
      for (;;) {
         k++;
         if (k % 3 == 0)
            continue;
         acc += k;
         if (k > i % 20)
            break;
      }
      CHECK_MSG(out[i] == steps * 1000 + acc, "i=%u got %u want %u", i, out[i], steps * 1000 + acc);
   }
}

TEST_CASE(loops_in_switches_in_loops)
{
   static int32_t out[64];
   REQUIRE(run2("deep_nesting", out, sizeof(out), NULL, 0, 1, 1, false));
   for (int i = 0; i < 64; i++) {
      int r = 0;
      if (i % 7 != 3) {
         for (int a = 0; a < 4; a++) {
            bool skip = false;
            switch ((i + a) & 3) {
            case 0:
               for (int b = 0; b < a + 2; b++) {
                  if (b == i % 3)
                     continue;
                  r += b;
               }
               break;
            case 1:
               r += 10;
               if (r > 40)
                  break;
               r += 1;
               break;
            default:
               if ((i & 8) != 0) {
                  skip = true;
                  break;
               }
               r -= 3;
            }
            if (skip)
               continue;
            r *= 2;
            if (r > 500)
               break;
         }
      } else {
         r = -1;
      }
      CHECK_MSG(out[i] == r, "i=%d got %d want %d", i, out[i], r);
   }
}

TEST_CASE(std140_mat3_and_mat2x3_columns_are_padded)
{
   /* std140: m @0 (3 columns, stride 16), n @48 (2 columns of vec3,
    * stride 16), v @80. */
   static float ubo[24];
   float m[3][3], n[2][3], v[3] = {0.5f, -1.0f, 2.0f};
   for (int c = 0; c < 3; c++)
      for (int r = 0; r < 3; r++) {
         m[c][r] = (float)(c * 3 + r + 1);
         ubo[c * 4 + r] = m[c][r];
      }
   for (int c = 0; c < 2; c++)
      for (int r = 0; r < 3; r++) {
         n[c][r] = (float)(10 + c * 3 + r);
         ubo[12 + c * 4 + r] = n[c][r];
      }
   memcpy(&ubo[20], v, sizeof(v));
   static float out[16 * 8];
   REQUIRE(run2("std140_mat3", out, sizeof(out), ubo, sizeof(ubo), 1, 1, true));
   for (int i = 0; i < 16; i++) {
      float x[3] = {v[0] * (float)i, v[1] * (float)i, v[2] * (float)i};
      float want[8] = {0};
      for (int r = 0; r < 3; r++) {
         want[r] = fmaf(m[2][r], x[2], fmaf(m[1][r], x[1], m[0][r] * x[0]));
         want[4 + r] = fmaf(n[1][r], (float)i, n[0][r] * 1.0f);
      }
      want[7] = 1.0f;
      for (int k = 0; k < 8; k++)
         CHECK_MSG(fabsf(out[i * 8 + k] - want[k]) <= 1e-4f * fabsf(want[k]) + 1e-6f,
                   "i=%d k=%d got %g want %g", i, k, out[i * 8 + k], want[k]);
   }
}

TEST_CASE(loop_carried_function_variables)
{
   static uint32_t out[128];
   REQUIRE(run2("loop_carried_locals", out, sizeof(out), NULL, 0, 2, 1, false));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t prev = 0, sum = 0, x = 1;
      for (uint32_t k = 0; k < 10; k++) {
         uint32_t v = k * i + 3, w = x * 3 + k;
         if (k > 0)
            sum += prev * k;
         if (k & 1)
            sum += x;
         prev = v;
         x = w;
      }
      CHECK_MSG(out[i] == sum, "i=%u got %u want %u", i, out[i], sum);
   }
}

TEST_CASE(runtime_array_length_from_descriptor_range)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   static uint32_t a[1 + 1 + 2 * 37], bf[64];
   for (int k = 0; k < 37; k++)
      a[2 + 2 * k + 1] = (uint32_t)k * 5;
   uint64_t ob = ctu_buffer(&t, NULL, 64), ab = ctu_buffer(&t, a, sizeof(a));
   uint64_t bb = ctu_buffer(&t, bf, sizeof(bf));
   struct ctu_dispatch d = {.shader = "array_length"};
   ctu_bind(&d, 0, 0, ob, 64);
   /* items[] starts at 8 (uvec2 alignment): 8 + 37 * 8 bytes, plus 5 spare. */
   ctu_bind(&d, 0, 1, ab, 8 + 37 * 8 + 5);
   ctu_bind(&d, 0, 2, bb, 6 * 4 + 3);
   REQUIRE(ctu_run(&t, &d));
   uint32_t out[3];
   ctu_read(&t, ob, out, sizeof(out));
   CHECK_EQ_U64(out[0], 37);
   CHECK_EQ_U64(out[1], 6);
   CHECK_EQ_U64(out[2], 5 * (36 * 37 / 2));
   ctu_finish(&t);
}

TEST_CASE(reflect_faceforward_and_double_matrices)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 16 * 32), db = ctu_buffer(&t, NULL, 16 * 16);
   struct ctu_dispatch d = {.shader = "reflect_dmat"};
   ctu_bind(&d, 0, 0, ob, 16 * 32);
   ctu_bind(&d, 0, 1, db, 16 * 16);
   REQUIRE(ctu_run(&t, &d));
   static float out[16 * 8];
   static double dout[16 * 2];
   ctu_read(&t, ob, out, sizeof(out));
   ctu_read(&t, db, dout, sizeof(dout));
   float nn = 1.0f / sqrtf(2.0f);
   for (int i = 0; i < 16; i++) {
      float I[3] = {1.0f, -2.0f, (float)i}, N[3] = {0.0f, nn, nn};
      float dot = N[1] * I[1] + N[2] * I[2];
      float fdot = I[2] * ((float)i - 8.0f);
      for (int k = 0; k < 3; k++) {
         float r = I[k] - 2.0f * dot * N[k];
         float f = fdot < 0.0f ? N[k] : -N[k];
         CHECK_MSG(fabsf(out[i * 8 + k] - r) <= 1e-5f * (1.0f + fabsf(r)), "reflect i=%d", i);
         CHECK_MSG(fabsf(out[i * 8 + 4 + k] - f) <= 1e-6f, "faceforward i=%d", i);
      }
      double v[2] = {3.0, i * 0.5}, vv = v[0] * v[0] + v[1] * v[1];
      double want[2] = {1.5 * v[0] + -2.0 * v[1] + vv * v[0],
                        (double)i * v[0] + 0.25 * v[1] + vv * v[1]};
      for (int k = 0; k < 2; k++)
         CHECK_MSG(fabs(dout[i * 2 + k] - want[k]) <= 1e-12 * (1.0 + fabs(want[k])),
                   "dmat i=%d k=%d got %.17g want %.17g", i, k, dout[i * 2 + k], want[k]);
   }
   ctu_finish(&t);
}

static void check_register_pressure(uint32_t max_registers)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 64 * 4);
   struct ctu_dispatch d = {.shader = "register_pressure", .max_registers = max_registers};
   ctu_bind(&d, 0, 0, ob, 64 * 4);
   REQUIRE(ctu_run(&t, &d));
   uint32_t out[64];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t a[40], s = 0;
      for (uint32_t k = 0; k < 40; k++)
         a[k] = i * (k + 1) + k * k;
      for (uint32_t k = 0; k < 40; k++)
         s += a[39 - k] ^ s;
      CHECK_MSG(out[i] == s, "i=%u got %u want %u", i, out[i], s);
   }
   ctu_finish(&t);
}

TEST_CASE(many_local_slots_fit_in_registers_or_fall_back_to_memory)
{
   check_register_pressure(0);  /* promoted to registers */
   check_register_pressure(16); /* too few registers: stays in local memory */
}

/* spill_live_values.comp with max_registers (0: all 255). */
static void check_spilling(uint32_t max_registers)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint32_t in[64];
   for (uint32_t k = 0; k < 64; k++)
      in[k] = (uint32_t)rnd();
   uint64_t ob = ctu_buffer(&t, NULL, 128 * 4), ib = ctu_buffer(&t, in, sizeof(in));
   struct ctu_dispatch d = {
       .shader = "spill_live_values", .groups = {2}, .max_registers = max_registers};
   ctu_bind(&d, 0, 0, ob, 128 * 4);
   ctu_bind(&d, 0, 1, ib, sizeof(in));
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[128];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t want = 7;
      if (i % 3 != 0) {
         uint32_t x = i % 300, y = (i * 7 + 5) % 300;
         want = in[x % 64] * (x + 1) + i + (in[y % 64] * (y + 1) + i) * 3;
      }
      CHECK_MSG(out[i] == want, "max_registers=%u i=%u got %u want %u", max_registers, i, out[i],
                want);
   }
   ctu_finish(&t);
}

TEST_CASE(more_live_values_than_registers_spill_to_local_memory)
{
   check_spilling(0);
   check_spilling(24);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
