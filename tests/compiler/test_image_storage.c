/* Storage images, image atomics, texel buffers and descriptor arrays of
 * images on the model (SULD/SUST/SUATOM/TLD/TXQ), with descriptors laid out
 * per driver/shader_abi.h by compiler_test_util. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static struct ppu_texture_header image_2d(struct ctu *t, enum ppu_tex_format format, uint32_t w,
                                          uint32_t h, const void *texels)
{
   struct ppu_texture_header img = ctu_image(t, format, PPU_TEX_DIM_2D, w, h, 1, 1, 1);
   uint32_t bytes = ppu_tex_format_bytes(format);
   for (uint32_t y = 0; texels && y < h; y++)
      for (uint32_t x = 0; x < w; x++)
         ctu_texel_write(t, &img, 0, 0, x, y, 0, (const uint8_t *)texels + (y * w + x) * bytes);
   return img;
}

static uint32_t read_u32(struct ctu *t, const struct ppu_texture_header *h, uint32_t x, uint32_t y)
{
   uint32_t v = 0;
   ctu_texel_read(t, h, 0, 0, x, y, 0, &v);
   return v;
}

TEST_CASE(image_load_store_round_trip_and_atomics_from_many_invocations)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   static float src_texels[256][4], unformatted_texels[256][4];
   for (int i = 0; i < 256; i++)
      for (int k = 0; k < 4; k++) {
         src_texels[i][k] = (float)(i * 4 + k) * 0.25f - 100.0f;
         unformatted_texels[i][k] = (float)(i * 10 + k);
      }
   uint32_t counters_init[16] = {0};
   counters_init[3] = 0xffffffffu;     /* (3,0): min */
   counters_init[4 + 1] = 0xffffffffu; /* (1,1): and */
   int32_t signed_init[2] = {0, INT_MIN};
   struct ppu_texture_header src =
       image_2d(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 16, src_texels);
   struct ppu_texture_header dst = image_2d(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 16, NULL);
   struct ppu_texture_header counters = image_2d(&t, PPU_TEX_FORMAT_R32_UINT, 4, 4, counters_init);
   struct ppu_texture_header signed_counters =
       image_2d(&t, PPU_TEX_FORMAT_R32_SINT, 2, 1, signed_init);
   struct ppu_texture_header float_image = image_2d(&t, PPU_TEX_FORMAT_R32_SFLOAT, 1, 1, NULL);
   struct ppu_texture_header unformatted =
       image_2d(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 16, 16, unformatted_texels);
   uint32_t out_bytes = 16 + 4 + 256 * 4 + 12;
   uint64_t out = ctu_buffer(&t, NULL, out_bytes);
   struct ctu_dispatch d = {.shader = "image_storage", .groups = {2, 2, 1}};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_STORAGE_IMAGE, &src, NULL);
   ctu_bind_image(&d, 0, 1, 0, DRV_BINDING_STORAGE_IMAGE, &dst, NULL);
   ctu_bind_image(&d, 0, 2, 0, DRV_BINDING_STORAGE_IMAGE, &counters, NULL);
   ctu_bind_image(&d, 0, 3, 0, DRV_BINDING_STORAGE_IMAGE, &signed_counters, NULL);
   ctu_bind_image(&d, 0, 4, 0, DRV_BINDING_STORAGE_IMAGE, &float_image, NULL);
   ctu_bind_image(&d, 0, 5, 0, DRV_BINDING_STORAGE_IMAGE, &unformatted, NULL);
   ctu_bind(&d, 0, 6, out, out_bytes);
   REQUIRE(ctu_run(&t, &d));
   for (uint32_t y = 0; y < 16; y++)
      for (uint32_t x = 0; x < 16; x++) {
         float got[4], swapped[4];
         ctu_texel_read(&t, &dst, 0, 0, x, y, 0, got);
         ctu_texel_read(&t, &unformatted, 0, 0, x, y, 0, swapped);
         for (int k = 0; k < 4; k++) {
            CHECK_MSG(got[k] == src_texels[y * 16 + x][k] * 2.0f + 1.0f, "dst (%u,%u).%d: %g", x, y,
                      k, got[k]);
            CHECK_MSG(swapped[k] == unformatted_texels[y * 16 + x][3 - k],
                      "unformatted (%u,%u).%d: %g", x, y, k, swapped[k]);
         }
      }
   CHECK_EQ_U64(read_u32(&t, &counters, 0, 0), 256);
   CHECK_EQ_U64(read_u32(&t, &counters, 1, 0), 3840); /* sum of x + y over 16x16 */
   CHECK_EQ_U64(read_u32(&t, &counters, 2, 0), 1515);
   CHECK_EQ_U64(read_u32(&t, &counters, 3, 0), 7);
   CHECK_EQ_U64(read_u32(&t, &counters, 0, 1), 0xffff);
   CHECK_EQ_U64(read_u32(&t, &counters, 1, 1), 0xffff0000u);
   CHECK_EQ_U64(read_u32(&t, &counters, 2, 1), 0xffff);
   uint32_t cas = read_u32(&t, &counters, 3, 1), last = read_u32(&t, &counters, 0, 2);
   CHECK_MSG(cas >= 1 && cas <= 256, "compare-exchange left %u", cas);
   int32_t smin = 0, smax = 0;
   ctu_texel_read(&t, &signed_counters, 0, 0, 0, 0, 0, &smin);
   ctu_texel_read(&t, &signed_counters, 0, 0, 1, 0, 0, &smax);
   CHECK_MSG(smin == -1515 && smax == -35, "signed min %d max %d", smin, smax);
   float f = -1;
   ctu_texel_read(&t, &float_image, 0, 0, 0, 0, 0, &f);
   CHECK_MSG(f >= 0 && f <= 255 && f == floorf(f), "float exchange left %g", f);
   uint32_t *o = malloc(out_bytes);
   REQUIRE(o);
   ctu_read(&t, out, o, out_bytes);
   CHECK_MSG(o[0] == 16 && o[1] == 16 && o[2] == 4 && o[3] == 4, "sizes %u %u %u %u", o[0], o[1],
             o[2], o[3]);
   CHECK_EQ_U64(o[4], 1); /* one compare-exchange winner */
   /* Exchange: the old values and the final one are 0..256, each once. */
   bool seen[257] = {false};
   seen[last <= 256 ? last : 0] = true;
   for (int i = 0; i < 256; i++) {
      uint32_t v = o[5 + i];
      CHECK_MSG(v <= 256 && !seen[v], "exchange returned %u twice or out of range", v);
      if (v <= 256)
         seen[v] = true;
   }
   free(o);
   ctu_finish(&t);
}

TEST_CASE(texel_buffers_fetch_load_store_atomics_and_sizes)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   static float uniform_data[64][4], storage_data[64][4];
   for (int i = 0; i < 64; i++)
      for (int k = 0; k < 4; k++) {
         uniform_data[i][k] = (float)(i * 4 + k) + 0.5f;
         storage_data[i][k] = (float)(k - i);
      }
   struct ppu_texture_header uniform_texels =
       ctu_image(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_BUFFER, 64, 1, 1, 1, 1);
   struct ppu_texture_header storage_texels =
       ctu_image(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_BUFFER, 64, 1, 1, 1, 1);
   struct ppu_texture_header counters =
       ctu_image(&t, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_BUFFER, 4, 1, 1, 1, 1);
   for (uint32_t i = 0; i < 64; i++) {
      ctu_texel_write(&t, &uniform_texels, 0, 0, i, 0, 0, uniform_data[i]);
      ctu_texel_write(&t, &storage_texels, 0, 0, i, 0, 0, storage_data[i]);
   }
   uint32_t out_bytes = 64 * 16 + 16 + 16;
   uint64_t out = ctu_buffer(&t, NULL, out_bytes);
   struct ctu_dispatch d = {.shader = "texel_buffer"};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_UNIFORM_TEXEL_BUFFER, &uniform_texels, NULL);
   ctu_bind_image(&d, 0, 1, 0, DRV_BINDING_STORAGE_TEXEL_BUFFER, &counters, NULL);
   ctu_bind_image(&d, 0, 2, 0, DRV_BINDING_STORAGE_TEXEL_BUFFER, &storage_texels, NULL);
   ctu_bind(&d, 0, 3, out, out_bytes);
   REQUIRE(ctu_run(&t, &d));
   float *o = malloc(out_bytes);
   REQUIRE(o);
   ctu_read(&t, out, o, out_bytes);
   for (uint32_t i = 0; i < 64; i++) {
      float stored[4];
      ctu_texel_read(&t, &storage_texels, 0, 0, i, 0, 0, stored);
      for (int k = 0; k < 4; k++) {
         CHECK_MSG(o[4 * i + k] == uniform_data[i][k], "fetch %u.%d: %g", i, k, o[4 * i + k]);
         CHECK_MSG(stored[k] == storage_data[i][k] + (float)i, "store %u.%d: %g", i, k, stored[k]);
      }
   }
   for (uint32_t i = 0; i < 4; i++)
      CHECK_EQ_U64(read_u32(&t, &counters, i, 0), 16);
   int32_t sizes[4];
   memcpy(sizes, &o[256], 16);
   CHECK_MSG(sizes[0] == 64 && sizes[1] == 4 && sizes[2] == 64, "sizes %d %d %d", sizes[0],
             sizes[1], sizes[2]);
   for (int k = 0; k < 4; k++)
      CHECK_MSG(o[260 + k] == 0.0f, "out-of-range texel %d: %g", k, o[260 + k]);
   free(o);
   ctu_finish(&t);
}

TEST_CASE(descriptor_arrays_indexed_nonuniformly_per_invocation)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   struct ppu_texture_header combined[4], images[4], counters[4];
   float colors[4][4], image_colors[4][4];
   struct ctu_dispatch d = {.shader = "image_arrays"};
   for (uint32_t k = 0; k < 4; k++) {
      for (int c = 0; c < 4; c++) {
         colors[k][c] = (float)(k * 10 + c);
         image_colors[k][c] = (float)(k * 100 + c) + 0.5f;
      }
      combined[k] = image_2d(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 1, 1, colors[k]);
      images[k] = image_2d(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, 1, 1, image_colors[k]);
      counters[k] = image_2d(&t, PPU_TEX_FORMAT_R32_UINT, 1, 1, NULL);
      ctu_bind_image(&d, 0, 0, k, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &combined[k], &s);
      ctu_bind_image(&d, 0, 1, k, DRV_BINDING_SAMPLED_IMAGE, &images[k], NULL);
      ctu_bind_image(&d, 0, 3, k, DRV_BINDING_STORAGE_IMAGE, &counters[k], NULL);
   }
   ctu_bind_image(&d, 0, 2, 0, DRV_BINDING_SAMPLER, NULL, &s);
   uint64_t out = ctu_buffer(&t, NULL, 2 * 64 * 16);
   ctu_bind(&d, 0, 4, out, 2 * 64 * 16);
   REQUIRE(ctu_run(&t, &d));
   static float o[2][64][4];
   ctu_read(&t, out, o, sizeof(o));
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t k = (i * 7) % 4;
      for (int c = 0; c < 4; c++) {
         CHECK_MSG(o[0][i][c] == colors[k][c], "sampled %u.%d: %g", i, c, o[0][i][c]);
         CHECK_MSG(o[1][i][c] == image_colors[3 - k][c], "fetched %u.%d: %g", i, c, o[1][i][c]);
      }
   }
   for (uint32_t k = 0; k < 4; k++)
      CHECK_EQ_U64(read_u32(&t, &counters[k], 0, 0), 16);
   ctu_finish(&t);
}

TEST_CASE(images_and_samplers_passed_to_functions)
{
   struct ctu t;
   REQUIRE(ctu_init(&t));
   struct ppu_texture_header tex =
       ctu_image(&t, PPU_TEX_FORMAT_R32G32B32A32_SFLOAT, PPU_TEX_DIM_2D, 2, 2, 1, 2, 1);
   const float level0[4] = {1, 2, 3, 4}, level1[4] = {5, 6, 7, 8};
   for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 2; x++)
         ctu_texel_write(&t, &tex, 0, 0, x, y, 0, level0);
   ctu_texel_write(&t, &tex, 1, 0, 0, 0, 0, level1);
   struct ppu_texture_header counters = image_2d(&t, PPU_TEX_FORMAT_R32_UINT, 2, 1, NULL);
   struct ppu_sampler_header s =
       ctu_sampler(PPU_TEX_FILTER_NEAREST, PPU_TEX_FILTER_NEAREST, PPU_TEX_ADDRESS_CLAMP_TO_EDGE);
   uint64_t out = ctu_buffer(&t, NULL, 64 * 16);
   struct ctu_dispatch d = {.shader = "image_functions"};
   ctu_bind_image(&d, 0, 0, 0, DRV_BINDING_COMBINED_IMAGE_SAMPLER, &tex, &s);
   ctu_bind_image(&d, 0, 1, 0, DRV_BINDING_STORAGE_IMAGE, &counters, NULL);
   ctu_bind(&d, 0, 2, out, 64 * 16);
   REQUIRE(ctu_run(&t, &d));
   static float o[64][4];
   ctu_read(&t, out, o, sizeof(o));
   for (uint32_t i = 0; i < 64; i++)
      for (int k = 0; k < 4; k++)
         CHECK_MSG(o[i][k] == (i % 2 ? level1 : level0)[k], "%u.%d: %g", i, k, o[i][k]);
   CHECK_EQ_U64(read_u32(&t, &counters, 0, 0), 7);
   CHECK_EQ_U64(read_u32(&t, &counters, 1, 0), 8);
   ctu_finish(&t);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
