/* Sampled images on the model: texel fetches of every level and layer,
 * explicit-lod, gradient and offset sampling and gathers against a CPU
 * reference written from Vulkan's "Image Operations" formulas (to 2^-12
 * relative), depth compares, and implicit lod under the compute derivative
 * group execution modes. Headers and texels are laid out by the test per
 * driver/shader_abi.h and hw/include/ppu/texture.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static uint32_t rng = 12345;

static float random_unit(void)
{
   rng = rng * 1103515245u + 12345u;
   return (float)((rng >> 8) & 0xffffu) / 65536.0f;
}

static bool near_rel(float got, float want)
{
   return fabsf(got - want) <= ldexpf(1.0f, -12) * fmaxf(1.0f, fabsf(want));
}

TEST_CASE(texel_fetch_reads_every_level_and_layer_and_queries_sizes)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   const uint32_t W = 16, LEVELS = 5, LAYERS = 3;
   struct ppu_texture_header h =
       ctu_image(&t, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, W, W, 1, LEVELS, LAYERS);
   h.flags = PPU_TEX_FLAG_ARRAY;
   for (uint32_t l = 0; l < LEVELS; l++)
      for (uint32_t layer = 0; layer < LAYERS; layer++)
         for (uint32_t y = 0; y < (W >> l); y++)
            for (uint32_t x = 0; x < (W >> l); x++) {
               uint32_t v = l << 24 | layer << 16 | y << 8 | x;
               ctu_texel_write(&t, &h, l, layer, x, y, 0, &v);
            }
   uint32_t texel_bytes = LEVELS * LAYERS * 256 * 4, size_bytes = 8 * 16 + 2 * 256 * 4;
   uint64_t texels = ctu_buffer(&t, NULL, texel_bytes), sizes = ctu_buffer(&t, NULL, size_bytes);
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   int32_t push[2] = {LEVELS, LAYERS};
   struct ctu_dispatch d = {.shader = "image_fetch", .push = push, .push_size = sizeof(push)};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &h, &s);
   ctu_bind(&d, 0, 1, texels, texel_bytes);
   ctu_bind(&d, 0, 2, sizes, size_bytes);
   REQUIRE(ctu_run(&t, &d));
   uint32_t *got = malloc(texel_bytes);
   uint32_t *sz = malloc(size_bytes);
   REQUIRE(got && sz);
   ctu_read(&t, texels, got, texel_bytes);
   ctu_read(&t, sizes, sz, size_bytes);
   int bad = 0;
   for (uint32_t l = 0; l < LEVELS; l++)
      for (uint32_t layer = 0; layer < LAYERS; layer++)
         for (uint32_t y = 0; y < W; y++)
            for (uint32_t x = 0; x < W; x++) {
               uint32_t n = l * LAYERS + layer, want = 0xffffffffu;
               if (x < (W >> l) && y < (W >> l))
                  want = l << 24 | layer << 16 | y << 8 | x;
               if (got[n * 256 + y * W + x] != want && bad++ < 5)
                  CHECK_MSG(0, "level %u layer %u (%u,%u): 0x%x, want 0x%x", l, layer, x, y,
                            got[n * 256 + y * W + x], want);
            }
   CHECK(bad == 0);
   for (uint32_t l = 0; l < LEVELS; l++) {
      const uint32_t *q = &sz[l * 4];
      CHECK_MSG(q[0] == (W >> l) && q[1] == (W >> l) && q[2] == LAYERS && q[3] == LEVELS,
                "level %u size %u %u %u levels %u", l, q[0], q[1], q[2], q[3]);
   }
   const uint32_t *offset = &sz[32], *outside = &sz[32 + 256];
   for (uint32_t y = 0; y < 14; y++)
      for (uint32_t x = 0; x < 15; x++)
         CHECK_MSG(offset[y * W + x] == (1u << 16 | (y + 2) << 8 | (x + 1)),
                   "offset fetch (%u,%u): 0x%x", x, y, offset[y * W + x]);
   for (uint32_t i = 0; i < 256; i++)
      CHECK_MSG(outside[i] == 0, "out-of-range fetch %u gave 0x%x", i, outside[i]);
   free(got);
   free(sz);
   ctu_finish(&t);
}

/* The RGBA32F test image: levels of an 8x8 image, texels random. */
enum { IMG_W = 8, IMG_LEVELS = 4 };
static float image_texels[IMG_LEVELS][IMG_W][IMG_W][4];

static int wrap(int i, int n, enum ppu_tex_address_mode mode)
{
   if (mode == PPU_TEX_ADDRESS_REPEAT)
      return ((i % n) + n) % n;
   return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static const float *texel_at(unsigned level, int x, int y, enum ppu_tex_address_mode mode)
{
   int n = IMG_W >> level;
   return image_texels[level][wrap(y, n, mode)][wrap(x, n, mode)];
}

/* Vulkan "Level-of-Detail Operation" with a NEAREST mip filter: level
 * ceil(d' + 0.5) - 1 of d' = clamp(lambda, 0, levels - 1). */
static unsigned nearest_level(float lambda)
{
   float d = lambda < 0 ? 0 : lambda > IMG_LEVELS - 1 ? IMG_LEVELS - 1 : lambda;
   return (unsigned)(ceilf(d + 0.5f) - 1);
}

/* Distance of x to the nearest integer: near 0 the reference and the unit
 * may pick different texels, so such samples are not compared. */
static float edge_distance(float x)
{
   return fabsf(x - roundf(x));
}

/* Vulkan "Texel Filtering" at one level; false when the sample sits on a
 * texel edge where NEAREST (or a gather's footprint) is ambiguous. */
static bool reference_sample(unsigned level, float u, float v, enum ppu_tex_filter filter,
                             enum ppu_tex_address_mode mode, int du, int dv, float out[4])
{
   float n = (float)(IMG_W >> level), su = u * n, sv = v * n;
   if (filter == PPU_TEX_FILTER_NEAREST) {
      if (edge_distance(su) < 1e-3f || edge_distance(sv) < 1e-3f)
         return false;
      memcpy(out, texel_at(level, (int)floorf(su) + du, (int)floorf(sv) + dv, mode), 16);
      return true;
   }
   float x = su - 0.5f, y = sv - 0.5f, i0 = floorf(x), j0 = floorf(y);
   float a = x - i0, b = y - j0;
   int i = (int)i0 + du, j = (int)j0 + dv;
   for (int k = 0; k < 4; k++)
      out[k] = (1 - a) * (1 - b) * texel_at(level, i, j, mode)[k] +
               a * (1 - b) * texel_at(level, i + 1, j, mode)[k] +
               (1 - a) * b * texel_at(level, i, j + 1, mode)[k] +
               a * b * texel_at(level, i + 1, j + 1, mode)[k];
   return true;
}

static void check_vec4(const char *what, uint32_t i, const float *got, const float *want)
{
   for (int k = 0; k < 4; k++)
      CHECK_MSG(near_rel(got[k], want[k]), "%s %u.%d: %g, want %g", what, i, k, got[k], want[k]);
}

static void run_sampling(enum ppu_tex_filter filter, enum ppu_tex_address_mode mode)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct ppu_texture_header h = ctu_image(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D,
                                           IMG_W, IMG_W, 1, IMG_LEVELS, 1);
   for (unsigned l = 0; l < IMG_LEVELS; l++)
      for (int y = 0; y < IMG_W >> l; y++)
         for (int x = 0; x < IMG_W >> l; x++) {
            for (int k = 0; k < 4; k++)
               image_texels[l][y][x][k] = random_unit();
            ctu_texel_write(&t, &h, l, 0, (uint32_t)x, (uint32_t)y, 0, image_texels[l][y][x]);
         }
   static const float lods[] = {0.0f, 0.4f, 0.6f, 1.0f, 2.0f, 3.0f, 5.0f, -1.0f};
   static const float grads[] = {1.0f / 8, 2.0f / 8, 4.0f / 8, 1.0f / 16};
   float coords[64][4];
   for (int i = 0; i < 64; i++) {
      coords[i][0] = random_unit() * 1.6f - 0.3f;
      coords[i][1] = random_unit() * 1.6f - 0.3f;
      coords[i][2] = lods[i % 8];
      coords[i][3] = grads[i % 4];
   }
   uint64_t in = ctu_buffer(&t, coords, sizeof(coords));
   uint64_t out = ctu_buffer(&t, NULL, 5 * 64 * 16);
   struct ppu_sampler_header s = ctu_sampler(filter, PPU_TEX_FILTER_NEAREST, mode);
   struct ctu_dispatch d = {.shader = "image_sample"};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &h, &s);
   ctu_bind(&d, 0, 1, in, sizeof(coords));
   ctu_bind(&d, 0, 2, out, 5 * 64 * 16);
   ctu_bind_image(&d, 0, 3, 0, DRV_BINDING_SAMPLED_IMAGE, &h, NULL);
   ctu_bind_image(&d, 0, 4, 0, DRV_BINDING_SAMPLER, NULL, &s);
   REQUIRE(ctu_run(&t, &d));
   static float got[5][64][4];
   ctu_read(&t, out, got, sizeof(got));
   for (uint32_t i = 0; i < 64; i++) {
      const float *c = coords[i];
      float want[4];
      if (reference_sample(nearest_level(c[2]), c[0], c[1], filter, mode, 0, 0, want)) {
         check_vec4("textureLod", i, got[0][i], want);
         check_vec4("separate textureLod", i, got[4][i], want);
      }
      /* rho = gradient * width: lambda = log2(8 * c.w). */
      if (reference_sample(nearest_level(log2f(8 * c[3])), c[0], c[1], filter, mode, 0, 0, want))
         check_vec4("textureGrad", i, got[1][i], want);
      if (reference_sample(0, c[0], c[1], filter, mode, 1, -1, want))
         check_vec4("textureLodOffset", i, got[2][i], want);
      /* Gather: component G of the 2x2 footprint, i0j1 i1j1 i1j0 i0j0. */
      float x = c[0] * IMG_W - 0.5f, y = c[1] * IMG_W - 0.5f;
      if (edge_distance(x) < 1e-3f || edge_distance(y) < 1e-3f)
         continue;
      int i0 = (int)floorf(x), j0 = (int)floorf(y);
      float g[4] = {texel_at(0, i0, j0 + 1, mode)[1], texel_at(0, i0 + 1, j0 + 1, mode)[1],
                    texel_at(0, i0 + 1, j0, mode)[1], texel_at(0, i0, j0, mode)[1]};
      check_vec4("textureGather", i, got[3][i], g);
   }
   ctu_finish(&t);
}

TEST_CASE(texture_lod_grad_offset_gather_linear_repeat_match_the_reference)
{
   run_sampling(PPU_TEX_FILTER_LINEAR, PPU_TEX_ADDRESS_REPEAT);
}

TEST_CASE(texture_lod_grad_offset_gather_nearest_clamp_match_the_reference)
{
   run_sampling(PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
}

TEST_CASE(shadow_sampler_compares_per_texel_before_filtering)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   enum { D = 8 };
   static float depth[D][D];
   struct ppu_texture_header h =
       ctu_image(&t, PPU_TEX_FORMAT_D32_SFLOAT, PPU_TEX_DIM_2D, D, D, 1, 1, 1);
   for (uint32_t y = 0; y < D; y++)
      for (uint32_t x = 0; x < D; x++) {
         depth[y][x] = random_unit();
         ctu_texel_write(&t, &h, 0, 0, x, y, 0, &depth[y][x]);
      }
   float coords[64][4];
   for (int i = 0; i < 64; i++) {
      coords[i][0] = random_unit();
      coords[i][1] = random_unit();
      coords[i][2] = random_unit();
      coords[i][3] = 0;
   }
   uint64_t in = ctu_buffer(&t, coords, sizeof(coords));
   uint64_t out = ctu_buffer(&t, NULL, 64 * 4 * 6);
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_LINEAR, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   s.flags |= PPU_SAMPLER_FLAG_COMPARE;
   s.compare_op = 3; /* LESS_OR_EQUAL: reference <= texel */
   struct ctu_dispatch d = {.shader = "image_shadow"};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &h, &s);
   ctu_bind(&d, 0, 1, in, sizeof(coords));
   ctu_bind(&d, 0, 2, out, 64 * 4 * 6);
   REQUIRE(ctu_run(&t, &d));
   static float got[64 * 6];
   ctu_read(&t, out, got, sizeof(got));
   for (uint32_t i = 0; i < 64; i++) {
      const float *c = coords[i];
      float x = c[0] * D - 0.5f, y = c[1] * D - 0.5f;
      if (edge_distance(x) < 1e-3f || edge_distance(y) < 1e-3f)
         continue;
      int i0 = (int)floorf(x), j0 = (int)floorf(y);
      float a = x - (float)i0, b = y - (float)j0;
#define CMP(ii, jj) (c[2] <= depth[wrap(jj, D, 2)][wrap(ii, D, 2)] ? 1.0f : 0.0f)
      float want = (1 - a) * (1 - b) * CMP(i0, j0) + a * (1 - b) * CMP(i0 + 1, j0) +
                   (1 - a) * b * CMP(i0, j0 + 1) + a * b * CMP(i0 + 1, j0 + 1);
      float gather[4] = {CMP(i0, j0 + 1), CMP(i0 + 1, j0 + 1), CMP(i0 + 1, j0), CMP(i0, j0)};
#undef CMP
      CHECK_MSG(near_rel(got[i], want), "compare %u: %g, want %g", i, got[i], want);
      CHECK_MSG(near_rel(got[64 + i], want), "projected %u: %g, want %g", i, got[64 + i], want);
      check_vec4("gather", i, &got[128 + 4 * i], gather);
   }
   ctu_finish(&t);
}

/* An R32F image whose texel (x, y, z) of layer l holds value(x, y, z, l). */
static struct ppu_texture_header
filled_image(struct ctu *t, enum ppu_tex_dim dim, uint32_t w, uint32_t h, uint32_t d,
             uint32_t layers, float (*value)(uint32_t, uint32_t, uint32_t, uint32_t))
{
   struct ppu_texture_header img = ctu_image(t, PPU_TEX_FORMAT_R32_SFLOAT, dim, w, h, d, 1, layers);
   for (uint32_t l = 0; l < layers; l++)
      for (uint32_t z = 0; z < d; z++)
         for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
               float v = value(x, y, z, l);
               ctu_texel_write(t, &img, 0, l, x, y, z, &v);
            }
   return img;
}

static float line_value(uint32_t x, uint32_t y, uint32_t z, uint32_t l)
{
   (void)y, (void)z;
   return (float)(l * 100 + x);
}

static float volume_value(uint32_t x, uint32_t y, uint32_t z, uint32_t l)
{
   (void)l;
   return (float)(x + 10 * y + 100 * z);
}

static float layer_value(uint32_t x, uint32_t y, uint32_t z, uint32_t l)
{
   (void)x, (void)y, (void)z;
   return (float)l;
}

static float plane_value(uint32_t x, uint32_t y, uint32_t z, uint32_t l)
{
   (void)z, (void)l;
   return (float)(x + 10 * y);
}

TEST_CASE(one_d_arrays_3d_cubes_and_cube_arrays_sample_fetch_and_query)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct ppu_texture_header line = filled_image(&t, PPU_TEX_DIM_1D, 8, 1, 1, 3, line_value);
   line.flags = PPU_TEX_FLAG_ARRAY;
   struct ppu_texture_header volume = filled_image(&t, PPU_TEX_DIM_3D, 4, 4, 4, 1, volume_value);
   struct ppu_texture_header cube = filled_image(&t, PPU_TEX_DIM_CUBE, 2, 2, 1, 6, layer_value);
   struct ppu_texture_header cubes = filled_image(&t, PPU_TEX_DIM_CUBE, 2, 2, 1, 12, layer_value);
   cubes.flags = PPU_TEX_FLAG_ARRAY;
   struct ppu_texture_header plane = filled_image(&t, PPU_TEX_DIM_2D, 8, 8, 1, 1, plane_value);
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   uint32_t out_bytes = 5 * 64 * 4 + 64 * 16 + 64 * 4 + 4 * 16;
   uint64_t out = ctu_buffer(&t, NULL, out_bytes);
   struct ctu_dispatch d = {.shader = "image_dims"};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &line, &s);
   ctu_bind_image(&d, 0, 1, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &volume, &s);
   ctu_bind_image(&d, 0, 2, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &cube, &s);
   ctu_bind_image(&d, 0, 3, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &cubes, &s);
   ctu_bind_image(&d, 0, 4, 0, DRV_BINDING_STORAGE_IMAGE, &cubes, NULL);
   ctu_bind_image(&d, 0, 5, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &plane, &s);
   ctu_bind(&d, 0, 6, out, out_bytes);
   REQUIRE(ctu_run(&t, &d));
   float *o = malloc(out_bytes);
   REQUIRE(o);
   ctu_read(&t, out, o, out_bytes);
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t x = i % 8, layer = (i / 8) % 3;
      CHECK_MSG(o[i] == line_value(x, 0, 0, layer), "1D array %u: %g", i, o[i]);
      float v = volume_value(i % 4, (i / 4) % 4, (i / 16) % 4, 0);
      CHECK_MSG(o[64 + i] == 2 * v, "3D %u: %g, want %g", i, o[64 + i], 2 * v);
      CHECK_MSG(o[128 + i] == (float)(i % 6), "cube %u: %g", i, o[128 + i]);
      CHECK_MSG(o[192 + i] == (float)(i % 6 + 6 * ((i / 6) % 2)), "cube array %u: %g", i,
                o[192 + i]);
      CHECK_MSG(o[256 + i] == (float)(i % 12), "cube array image %u: %g", i, o[256 + i]);
      /* Four offsets at the footprint (3, 3) of vec2(0.5): each the i0j0 texel. */
      const float gathered[4] = {33, 34, 43, 22};
      check_vec4("textureGatherOffsets", i, &o[320 + 4 * i], gathered);
      CHECK_MSG(o[576 + i] == plane_value(x, x, 0, 0), "projective %u: %g", i, o[576 + i]);
   }
   int32_t sizes[16];
   memcpy(sizes, &o[640], sizeof(sizes));
   static const int32_t want[16] = {8, 3, 0, 0, 4, 4, 4, 0, 2, 2, 2, 0, 2, 2, 2, 0};
   for (int k = 0; k < 16; k++)
      CHECK_MSG(sizes[k] == want[k], "size word %d: %d, want %d", k, sizes[k], want[k]);
   free(o);
   ctu_finish(&t);
}

/* A 64x64 R32F image whose every level holds its level number, so the
 * value sampled is the level the unit chose. */
static struct ppu_texture_header level_image(struct ctu *t)
{
   struct ppu_texture_header h =
       ctu_image(t, PPU_TEX_FORMAT_R32_SFLOAT, PPU_TEX_DIM_2D, 64, 64, 1, 7, 1);
   for (uint32_t l = 0; l < 7; l++)
      for (uint32_t y = 0; y < (64u >> l); y++)
         for (uint32_t x = 0; x < (64u >> l); x++) {
            float v = (float)l;
            ctu_texel_write(t, &h, l, 0, x, y, 0, &v);
         }
   return h;
}

static void run_derivatives(const char *shader, uint32_t out_bytes, float scale, float *got)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct ppu_texture_header h = level_image(&t);
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_REPEAT);
   uint64_t out = ctu_buffer(&t, NULL, out_bytes);
   struct ctu_dispatch d = {.shader = shader, .push = &scale, .push_size = sizeof(scale)};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &h, &s);
   ctu_bind(&d, 0, 1, out, out_bytes);
   if (ctu_run(&t, &d))
      ctu_read(&t, out, got, out_bytes);
   ctu_finish(&t);
}

TEST_CASE(implicit_lod_uses_2x2_quads_of_local_invocation_id)
{
   for (unsigned level = 0; level < 4; level++) {
      static float got[64 * 12];
      memset(got, 0xff, sizeof(got));
      /* Neighbours in x and y differ by scale: lambda = log2(64 * scale). */
      run_derivatives("image_derivatives_quads", sizeof(got), (float)(1u << level) / 64, got);
      bool seen[64] = {false};
      for (uint32_t i = 0; i < 64; i++) {
         CHECK_MSG(got[4 * i] == (float)level, "level %u: invocation %u sampled %g", level, i,
                   got[4 * i]);
         CHECK_MSG(got[256 + 4 * i] == (float)(level + 1), "level %u bias 1: %u sampled %g", level,
                   i, got[256 + 4 * i]);
         uint32_t id[4];
         memcpy(id, &got[512 + 4 * i], 16);
         CHECK_MSG(id[0] < 8 && id[1] < 8 && id[2] == 0 && id[3] == i && id[0] + 8 * id[1] == i,
                   "invocation %u has id (%u,%u,%u) index %u", i, id[0], id[1], id[2], id[3]);
         if (id[3] < 64)
            seen[id[3]] = true;
      }
      for (uint32_t i = 0; i < 64; i++)
         CHECK_MSG(seen[i], "no invocation has index %u", i);
   }
}

TEST_CASE(implicit_lod_uses_linear_quads_of_local_invocation_index)
{
   for (unsigned level = 0; level < 4; level++) {
      static float got[64 * 8];
      memset(got, 0xff, sizeof(got));
      run_derivatives("image_derivatives_linear", sizeof(got), (float)(1u << level) / 64, got);
      for (uint32_t i = 0; i < 64; i++) {
         CHECK_MSG(got[4 * i] == (float)level, "level %u: invocation %u sampled %g", level, i,
                   got[4 * i]);
         CHECK_MSG(got[256 + 4 * i] == (float)level, "level %u: projective %u sampled %g", level, i,
                   got[256 + 4 * i]);
      }
   }
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
