/* Buffers through descriptor sets (std140, std430, row-major), push
 * constants, specialization constants, local arrays, built-ins. */
#include <math.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t ubits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

TEST_CASE(std140_uniform_block_offsets)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   /* std140: scale @0 (vec3), bias @12, table @16 (stride 16), m @80,
    * inner[2] @144 (struct size 16: p @0, k @8), tail @176. */
   static uint8_t ubo[256];
   float scale[3] = {1.5f, -2.0f, 0.25f}, bias = 3.0f;
   memcpy(ubo, scale, 12);
   memcpy(ubo + 12, &bias, 4);
   for (int k = 0; k < 4; k++) {
      float v = 10.0f + (float)k;
      memcpy(ubo + 16 + 16 * k, &v, 4);
   }
   float m[16];
   for (int k = 0; k < 16; k++)
      m[k] = (float)(k * k);
   memcpy(ubo + 80, m, 64);
   for (int k = 0; k < 2; k++) {
      float p[2] = {-1.0f, 0.5f + (float)k};
      int32_t kk = 7 * (k + 1);
      memcpy(ubo + 144 + 16 * k, p, 8);
      memcpy(ubo + 144 + 16 * k + 8, &kk, 4);
   }
   int32_t tail[2] = {6, -7};
   memcpy(ubo + 176, tail, 8);
   uint64_t ob = ctu_buffer(&t, NULL, 64 * 8 * 4), ub = ctu_buffer(&t, ubo, sizeof(ubo));
   struct ctu_dispatch d = {.shader = "ubo_std140", .groups = {2}};
   ctu_bind(&d, 0, 0, ob, 64 * 8 * 4);
   ctu_bind(&d, 0, 1, ub, sizeof(ubo));
   d.bindings[1].uniform = true;
   REQUIRE(ctu_run(&t, &d));
   static float out[64 * 8];
   ctu_read(&t, ob, out, sizeof(out));
   for (int i = 0; i < 64; i++) {
      float want[7] = {scale[0] * (float)i + bias,
                       scale[1] * (float)i + bias,
                       scale[2] * (float)i + bias,
                       10.0f + (float)(i % 4),
                       m[(i % 4) * 4 + (i / 4) % 4],
                       0.5f + (float)(i & 1) + (float)(7 * ((i & 1) + 1)),
                       -42.0f};
      for (int k = 0; k < 7; k++)
         CHECK_MSG(out[i * 8 + k] == want[k], "i=%d k=%d got %g want %g", i, k, out[i * 8 + k],
                   want[k]);
   }
   ctu_finish(&t);
}

TEST_CASE(std430_struct_array_read_modify_write)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   /* std430: count @0; Particle (align 16, size 32) p[] @16: pos @0, mass
    * @12, vel @16, id @24. */
   enum { N = 100 };
   static uint8_t buf[16 + 32 * 128];
   uint32_t count = N;
   memcpy(buf, &count, 4);
   for (int i = 0; i < 128; i++) {
      float f[6] = {(float)i, (float)-i, 0.5f, 2.0f + (float)(i % 3), 0.25f * (float)i, 1.0f};
      uint32_t id = (uint32_t)i * 11u;
      memcpy(buf + 16 + 32 * i, f, 24);
      memcpy(buf + 16 + 32 * i + 24, &id, 4);
   }
   static uint8_t orig[sizeof(buf)];
   memcpy(orig, buf, sizeof(buf));
   uint64_t b = ctu_buffer(&t, buf, sizeof(buf));
   struct ctu_dispatch d = {.shader = "ssbo_std430_structs", .groups = {2}};
   ctu_bind(&d, 0, 0, b, sizeof(buf));
   REQUIRE(ctu_run(&t, &d));
   ctu_read(&t, b, buf, sizeof(buf));
   for (int i = 0; i < 128; i++) {
      float f[6], g[6];
      uint32_t id, gid;
      memcpy(f, orig + 16 + 32 * i, 24);
      memcpy(&id, orig + 16 + 32 * i + 24, 4);
      memcpy(g, buf + 16 + 32 * i, 24);
      memcpy(&gid, buf + 16 + 32 * i + 24, 4);
      if (i < N) {
         f[0] += f[4] * f[3];
         f[1] += f[5] * f[3];
         f[2] += 1.0f * f[3];
         id = id * 2 + 1;
      }
      CHECK_MSG(!memcmp(f, g, 24) && id == gid,
                "particle %d: pos %g %g %g id %u (want %g %g %g %u)", i, g[0], g[1], g[2], gid,
                f[0], f[1], f[2], id);
   }
   ctu_finish(&t);
}

TEST_CASE(row_major_and_column_major_matrices)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   /* r: row_major mat3x4 (3 columns, 4 rows): 4 rows of vec3 with stride 16
    * -> 64 bytes; element (col c, row r) at r * 16 + c * 4. c at 64. */
   static float mem[32];
   float R[3][4], C[4][4];
   for (int c = 0; c < 3; c++)
      for (int r = 0; r < 4; r++) {
         R[c][r] = (float)(c * 10 + r);
         mem[r * 4 + c] = R[c][r];
      }
   for (int c = 0; c < 4; c++)
      for (int r = 0; r < 4; r++) {
         C[c][r] = (float)(100 + c * 4 + r);
         mem[16 + c * 4 + r] = C[c][r];
      }
   uint64_t ob = ctu_buffer(&t, NULL, 16 * 16 * 4), mb = ctu_buffer(&t, mem, sizeof(mem));
   struct ctu_dispatch d = {.shader = "row_major", .groups = {1}};
   ctu_bind(&d, 0, 0, ob, 16 * 16 * 4);
   ctu_bind(&d, 0, 1, mb, sizeof(mem));
   REQUIRE(ctu_run(&t, &d));
   static float out[16 * 16];
   ctu_read(&t, ob, out, sizeof(out));
   for (int i = 0; i < 16; i++) {
      float want[16];
      for (int r = 0; r < 4; r++) {
         want[r] = R[i % 3][r];
         want[4 + r] = C[i % 4][r];
         want[8 + r] = R[0][r] * 1.0f + R[1][r] * 2.0f + R[2][r] * (float)i;
      }
      want[12] = R[2][i % 4];
      want[13] = C[3][i % 4];
      want[14] = 0.0f;
      want[15] = 1.0f;
      for (int k = 0; k < 16; k++)
         CHECK_MSG(out[i * 16 + k] == want[k], "i=%d k=%d got %g want %g", i, k, out[i * 16 + k],
                   want[k]);
   }
   ctu_finish(&t);
}

TEST_CASE(push_constants_at_their_offsets)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct {
      uint32_t mul;
      int32_t add;
      float fscale[2];
      uint32_t lut[4];
   } pc = {7, -3, {0.5f, 2.0f}, {11, 22, 33, 44}};
   uint64_t ob = ctu_buffer(&t, NULL, 128 * 12);
   struct ctu_dispatch d = {
       .shader = "push_constants", .groups = {2}, .push = &pc, .push_size = sizeof(pc)};
   ctu_bind(&d, 0, 0, ob, 128 * 12);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[128 * 3];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 128; i++) {
      CHECK_EQ_U64(out[i * 3], i * 7 - 3);
      CHECK_EQ_U64(out[i * 3 + 1], ubits((float)i * 0.5f + 2.0f));
      CHECK_EQ_U64(out[i * 3 + 2], pc.lut[i % 4]);
   }
   ctu_finish(&t);
}

static void check_spec(const struct drv_spec_value *spec, uint32_t n, uint32_t wg, uint32_t mul,
                       int32_t off, bool neg, uint32_t len)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 4096);
   struct ctu_dispatch d = {
       .shader = "spec_constants", .groups = {3}, .spec = spec, .spec_count = n};
   ctu_bind(&d, 0, 0, ob, 4096);
   REQUIRE(ctu_run(&t, &d));
   static int32_t out[1024];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 3 * wg; i++) {
      int32_t v = (int32_t)(i * mul) + off, s = 0;
      for (uint32_t k = 0; k < len; k++)
         s += (int32_t)k * v;
      CHECK_MSG(out[i * 2] == (neg ? -v : v) && out[i * 2 + 1] == s + (int32_t)wg,
                "i=%u got %d %d want %d %d", i, out[i * 2], out[i * 2 + 1], neg ? -v : v,
                s + (int32_t)wg);
   }
   ctu_finish(&t);
}

TEST_CASE(spec_constants_defaults)
{
   /* local_size_x_id without a value: the default workgroup size is 1. */
   check_spec(NULL, 0, 1, 3, -5, false, 4);
}

TEST_CASE(spec_constants_specialized_with_local_size_id)
{
   struct drv_spec_value spec[] = {
       {0, 4, 96}, {1, 4, 5}, {2, 4, (uint32_t)-100}, {3, 4, 1}, {4, 4, 7}};
   check_spec(spec, 5, 96, 5, -100, true, 7);
}

TEST_CASE(function_arrays_with_dynamic_indexing)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 128 * 4);
   struct ctu_dispatch d = {.shader = "local_array_dynamic", .groups = {2}};
   ctu_bind(&d, 0, 0, ob, 128 * 4);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[128];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t a[16], s = 0;
      for (uint32_t k = 0; k < 16; k++)
         a[k] = k * k + i;
      for (uint32_t k = 0; k < 8; k++) {
         uint32_t x = (i + k * 3) % 16, y = (i * 7 + k) % 16, tmp = a[x];
         a[x] = a[y];
         a[y] = tmp;
      }
      for (uint32_t k = 0; k < 16; k++)
         s += a[k] * (k + 1);
      CHECK_MSG(out[i] == s, "i=%u got %u want %u", i, out[i], s);
   }
   ctu_finish(&t);
}

TEST_CASE(copy_object_of_pointers_and_composites)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   uint64_t ob = ctu_buffer(&t, NULL, 128 * 4);
   struct ctu_dispatch d = {.shader = "copy_object_pointers", .groups = {2}};
   ctu_bind(&d, 0, 0, ob, 128 * 4);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[128];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 128; i++) {
      uint32_t v[4] = {i, i * 2, i * 3, i * 4};
      v[(i >> 3) & 3] += 7;
      uint32_t want = v[i & 3] * 100 + v[(i >> 2) & 3];
      CHECK_MSG(out[i] == want, "i=%u got %u want %u", i, out[i], want);
   }
   ctu_finish(&t);
}

TEST_CASE(several_sets_dynamic_offsets_and_descriptor_arrays)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   static uint32_t a[32], dyn[64 + 32], v0[32], v1[32];
   for (uint32_t i = 0; i < 32; i++) {
      a[i] = i;
      dyn[64 + i] = i + 1; /* the dynamic offset skips the first 256 bytes */
      v0[i] = 2 * i;
      v1[i] = 3 * i + 5;
   }
   uint64_t ob = ctu_buffer(&t, NULL, 128);
   struct ctu_dispatch d = {.shader = "sets_and_dynamic", .groups = {1}};
   ctu_bind(&d, 0, 0, ob, 128);
   ctu_bind(&d, 1, 2, ctu_buffer(&t, a, sizeof(a)), sizeof(a));
   ctu_bind(&d, 2, 0, ctu_buffer(&t, dyn, sizeof(dyn)), sizeof(dyn));
   d.bindings[2].dynamic = true;
   d.bindings[2].dyn_offset = 256;
   ctu_bind(&d, 2, 1, ctu_buffer(&t, v0, sizeof(v0)), sizeof(v0));
   ctu_bind(&d, 2, 1, ctu_buffer(&t, v1, sizeof(v1)), sizeof(v1));
   d.bindings[4].element = 1;
   REQUIRE(ctu_run(&t, &d));
   uint32_t out[32];
   ctu_read(&t, ob, out, sizeof(out));
   for (uint32_t i = 0; i < 32; i++) {
      uint32_t want = a[i] + dyn[64 + i] * 10 + ((i & 1) ? v1[i] : v0[i]) * 100 + v1[0] * 1000;
      CHECK_MSG(out[i] == want, "i=%u got %u want %u", i, out[i], want);
   }
   ctu_finish(&t);
}

TEST_CASE(builtins_over_a_3d_dispatch)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   const uint32_t wg[3] = {4, 2, 3}, groups[3] = {3, 2, 2};
   uint32_t n[3] = {wg[0] * groups[0], wg[1] * groups[1], wg[2] * groups[2]};
   uint32_t total = n[0] * n[1] * n[2];
   uint64_t ob = ctu_buffer(&t, NULL, total * 48);
   struct ctu_dispatch d = {.shader = "builtins_3d", .groups = {3, 2, 2}};
   ctu_bind(&d, 0, 0, ob, total * 48);
   REQUIRE(ctu_run(&t, &d));
   static uint32_t out[4096];
   ctu_read(&t, ob, out, total * 48);
   for (uint32_t z = 0; z < n[2]; z++)
      for (uint32_t y = 0; y < n[1]; y++)
         for (uint32_t x = 0; x < n[0]; x++) {
            uint32_t f = x + n[0] * (y + n[1] * z);
            uint32_t l[3] = {x % wg[0], y % wg[1], z % wg[2]};
            uint32_t want[12] = {
                l[0],      l[1],      l[2],      l[0] + wg[0] * (l[1] + wg[1] * l[2]),
                x / wg[0], y / wg[1], z / wg[2], groups[0],
                groups[1], groups[2], wg[0],     wg[1]};
            for (int k = 0; k < 12; k++)
               CHECK_MSG(out[f * 12 + k] == want[k], "(%u,%u,%u) k=%d got %u want %u", x, y, z, k,
                         out[f * 12 + k], want[k]);
         }
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
