/* 4x views (texture header samples_log2 = 2): TLD reads sample s of pixel
 * (x, y) from texel (2x + (s & 1), 2y + (s >> 1)) of the 1x image the
 * header describes, with the sample index where a 1x view's level is, and
 * returns 0 for pixels, layers and samples outside the view; TXQ reports
 * the pixel size and 4 samples; TEX, TLD4 and the storage instructions
 * fault on a 4x view, and a 4x header that is not one 2D level of even
 * texel extent is refused. */
#include "ppu/isa.h"
#include "tex_test_util.h"

static struct hwc h;
static uint32_t in[TT_MAX_THREADS][16];
static uint32_t out[TT_MAX_THREADS][4];

/* The value tt_image stores in component 0 of texel (x, y) of a layer of
 * an R32_UINT image. */
static uint32_t stored(unsigned layer, unsigned x, unsigned y)
{
   return (uint32_t)lroundf(tt_value(0, layer, x, y, 0, 0) * 255.0f);
}

static void expect_fault(const char *insn, uint64_t tex, uint64_t smp, const char *what)
{
   struct ppu_fault f;
   uint64_t pc = 0;
   for (uint32_t t = 0; t < 32; t++)
      memset(in[t], 0, sizeof(in[t]));
   bool ok = tt_run(&h, insn, tex, smp, in, 32, out, true, &f, &pc);
   CHECK_MSG(!ok && f.kind == PPU_FAULT_BAD_TEXTURE_HEADER && f.pc == pc,
             "%s: %s at 0x%llx (want BAD_TEXTURE_HEADER at 0x%llx): %s", what,
             ok ? "no fault" : ppu_fault_kind_name(f.kind), (unsigned long long)f.pc,
             (unsigned long long)pc, ok ? "" : f.detail);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
}

TEST_CASE(tld_on_a_4x_view_reads_each_sample_from_its_texel_and_zero_out_of_range)
{
   REQUIRE(hwc_init(&h, NULL));
   /* 5x3 pixels: a 10x6 texel image. */
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, 10, 6, 1, 1, 1);
   hd.samples_log2 = 2;
   uint64_t tex = tt_image(&h, &hd);
   /* Pixels -1..5 x -1..3 and samples 0..4 (4 is out of range). */
   uint32_t n = 0;
   for (int32_t y = -1; y <= 3; y++)
      for (int32_t x = -1; x <= 5; x++)
         for (uint32_t s = 0; s < 5; s++, n++) {
            memset(in[n], 0, sizeof(in[n]));
            in[n][0] = (uint32_t)x, in[n][1] = (uint32_t)y, in[n][2] = s;
         }
   /* Whole workgroups of 32: the rest ask for sample 7 of pixel (0, 0). */
   for (; n % 32; n++)
      memset(in[n], 0, sizeof(in[n])), in[n][2] = 7;
   if (tt_run(&h, "TLD.2D.U32 R4, R0, R8, off[0:0:0]", tex, 0, in, n, out, false, NULL, NULL)) {
      for (uint32_t t = 0; t < n; t++) {
         int32_t x = (int32_t)in[t][0], y = (int32_t)in[t][1];
         uint32_t s = in[t][2];
         bool inside = x >= 0 && x < 5 && y >= 0 && y < 3 && s < 4;
         /* Outside: a zero texel, alpha 1 (R32_UINT has none). */
         uint32_t want[4] = {0, 0, 0, 1};
         if (inside)
            want[0] = stored(0, 2u * (uint32_t)x + (s & 1u), 2u * (uint32_t)y + (s >> 1));
         for (unsigned c = 0; c < 4; c++)
            CHECK_MSG(out[t][c] == want[c], "pixel (%d, %d) sample %u comp %u: %u want %u", x, y, s,
                      c, out[t][c], want[c]);
      }
   }
   /* A constant offset moves the pixel, never the sample. */
   for (uint32_t t = 0; t < 4; t++)
      in[t][0] = 1, in[t][1] = 0, in[t][2] = t;
   if (tt_run(&h, "TLD.2D.U32 R4, R0, R8, off[2:1:0]", tex, 0, in, 4, out, false, NULL, NULL))
      for (uint32_t s = 0; s < 4; s++)
         CHECK_EQ_U64(out[s][0], stored(0, 6 + (s & 1u), 2 + (s >> 1)));
   hwc_finish(&h);
}

TEST_CASE(tld_on_a_4x_array_view_takes_the_layer_before_the_sample)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, 4, 4, 1, 1, 3);
   hd.samples_log2 = 2;
   hd.base_layer = 1;
   hd.layer_count = 2;
   uint64_t tex = tt_image(&h, &hd);
   uint32_t n = 0;
   for (uint32_t a = 0; a < 3; a++)
      for (uint32_t p = 0; p < 4; p++)
         for (uint32_t s = 0; s < 4; s++, n++)
            in[n][0] = p & 1u, in[n][1] = p >> 1, in[n][2] = a, in[n][3] = s;
   for (; n % 32; n++) /* whole workgroups: layer 5 is outside */
      in[n][0] = in[n][1] = in[n][3] = 0, in[n][2] = 5;
   if (tt_run(&h, "TLD.2DA.U32 R4, R0, R8, off[0:0:0]", tex, 0, in, n, out, false, NULL, NULL))
      for (uint32_t t = 0; t < n; t++) {
         uint32_t x = in[t][0], y = in[t][1], a = in[t][2], s = in[t][3];
         uint32_t want = a < 2 ? stored(1 + a, 2 * x + (s & 1u), 2 * y + (s >> 1)) : 0;
         CHECK_MSG(out[t][0] == want, "pixel (%u, %u) layer %u sample %u: %u want %u", x, y, a, s,
                   out[t][0], want);
      }
   if (tt_run(&h, "TXQ.SIZE.2DA R4, R0, RZ", tex, 0, in, 4, out, false, NULL, NULL)) {
      CHECK_EQ_U64(out[0][0], 2);
      CHECK_EQ_U64(out[0][1], 2);
      CHECK_EQ_U64(out[0][2], 2);
   }
   hwc_finish(&h);
}

TEST_CASE(txq_reports_the_pixel_size_one_level_and_four_samples_of_a_4x_view)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 14, 6, 1, 1, 1);
   struct ppu_texture_header one = hd;
   hd.samples_log2 = 2;
   uint64_t tex = tt_image(&h, &hd);
   uint64_t tex1 = tt_image(&h, &one);
   memset(in, 0, sizeof(in));
   if (tt_run(&h, "TXQ.SIZE.2D R4, R0, R8", tex, 0, in, 4, out, false, NULL, NULL)) {
      CHECK_EQ_U64(out[0][0], 7);
      CHECK_EQ_U64(out[0][1], 3);
   }
   if (tt_run(&h, "TXQ.SAMPLES.2D R4, R0, RZ", tex, 0, in, 4, out, false, NULL, NULL))
      CHECK_EQ_U64(out[3][0], 4);
   if (tt_run(&h, "TXQ.SAMPLES.2D R4, R0, RZ", tex1, 0, in, 4, out, false, NULL, NULL))
      CHECK_EQ_U64(out[3][0], 1);
   if (tt_run(&h, "TXQ.LEVELS.2D R4, R0, RZ", tex, 0, in, 4, out, false, NULL, NULL))
      CHECK_EQ_U64(out[0][0], 1);
   hwc_finish(&h);
}

TEST_CASE(filtering_gathers_and_storage_access_fault_on_a_4x_view_and_bad_4x_headers_fault)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, 8, 8, 1, 1, 1);
   hd.samples_log2 = 2;
   uint64_t tex = tt_image(&h, &hd);
   struct ppu_sampler_header s;
   tt_sampler(&s, 0, 0, 0);
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   expect_fault("TEX.LZ.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, "TEX on 4x");
   expect_fault("TLD4.R.2D.F32 R4, R0, R2, R8, off[0:0:0]", tex, smp, "TLD4 on 4x");
   expect_fault("SULD.P.2D.U32 R4, R0, R8", tex, 0, "SULD on 4x");
   expect_fault("SUST.P.2D.U32 R0, R8, R4", tex, 0, "SUST on 4x");
   expect_fault("SUATOM.ADD.2D.U32 R4, R0, R8, R20", tex, 0, "SUATOM on 4x");

   struct ppu_texture_header bad[5];
   for (unsigned i = 0; i < 5; i++)
      bad[i] = hd;
   bad[0].samples_log2 = 3; /* 8x does not exist */
   bad[1].width = 7;        /* a pixel's 2x2 texels cut in half */
   bad[2].height = 5;
   bad[3].image_levels = bad[3].level_count = 2;
   bad[4].format = PPU_TEX_FORMAT_BC1_RGBA_UNORM;
   for (unsigned i = 0; i < 5; i++) {
      char what[32];
      snprintf(what, sizeof(what), "bad 4x header %u", i);
      expect_fault("TLD.2D.U32 R4, R0, R8, off[0:0:0]", tt_upload(&h, &bad[i], sizeof(bad[i])), 0,
                   what);
   }
   struct ppu_texture_header cube;
   tt_header(&cube, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_CUBE, 4, 4, 1, 1, 6);
   cube.samples_log2 = 2;
   expect_fault("TLD.CUBE.U32 R4, R0, R8, off[0:0:0]", tt_upload(&h, &cube, sizeof(cube)), 0,
                "4x cube");
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
