/* Storage images (SULD, SUST, SUATOM) exactly, image atomics under
 * contention from many workgroups, and the texture instructions' faults:
 * unmapped and misaligned header VAs, invalid header and sampler fields, a
 * view type other than the instruction's, a format image atomics refuse. */
#include "ppu/isa.h"
#include "tex_test_util.h"

static struct hwc h;
static uint32_t in[TT_MAX_THREADS][16];
static uint32_t out[TT_MAX_THREADS][4];

TEST_CASE(sust_then_suld_round_trip_formatted_and_raw_texels_and_ignore_out_of_range)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 9, 5, 1, 1, 3);
   uint64_t tex = tt_image(&h, &hd);
   /* Thread t writes (t/255, 1 - t/255, 0.5, 1) at (t % 11 - 1, t / 11 - 1,
    * layer t % 4): some coordinates and layers are out of range. */
   char prog[512];
   snprintf(prog, sizeof(prog),
            "MOV R20, R62\n"
            "CVT.RN.F32.U32 R4, R20\n"
            "FMUL.F32 R4, R4, %s\n"
            "FADD.F32 R5, R4, -1.0f\n"
            "FMUL.F32 R5, R5, -1.0f\n"
            "MOV R6, 0.5f\n"
            "MOV R7, 1.0f\n"
            "SUST.P.2DA.F32 R0, R8, R4\n"
            "MEMBAR.GL\n"
            "SULD.P.2DA.F32 R4, R0, R8",
            "0.003921568859f");
   for (uint32_t t = 0; t < 64; t++) {
      in[t][0] = t % 11 - 1;
      in[t][1] = t / 11 - 1;
      in[t][2] = t % 4;
   }
   if (tt_run(&h, prog, tex, 0, in, 64, out, false, NULL, NULL)) {
      for (uint32_t t = 0; t < 64; t++) {
         int32_t x = (int32_t)in[t][0], y = (int32_t)in[t][1], a = (int32_t)in[t][2];
         bool inside = x >= 0 && x < 9 && y >= 0 && y < 5 && a < 3;
         float w[4] = {0, 0, 0, 0};
         if (inside)
            w[0] = (float)t / 255.0f, w[1] = 1.0f - (float)t / 255.0f, w[2] = 128.0f / 255.0f,
            w[3] = 1.0f;
         for (unsigned c = 0; c < 4; c++)
            CHECK_MSG(fabsf(f32_of(out[t][c]) - w[c]) < 0.5f / 255.0f,
                      "thread %u comp %u: %g want %g", t, c, f32_of(out[t][c]), w[c]);
      }
   }
   /* Raw: the packed bytes as they are in memory. */
   if (tt_run(&h, "SULD.B.2DA.U32 R4, R0, R8", tex, 0, in, 64, out, false, NULL, NULL)) {
      uint32_t t = 13; /* (1, 0), layer 1 */
      uint32_t b1 = t, b2 = (uint32_t)lroundf((1.0f - (float)t / 255.0f) * 255.0f);
      CHECK_EQ_U64(out[t][0], b1 | b2 << 8 | 128u << 16 | 255u << 24);
      CHECK_EQ_U64(out[t][1], 0);
   }
   hwc_finish(&h);
}

TEST_CASE(image_atomics_under_contention_give_exact_results)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   REQUIRE(hwc_init(&h, &cfg));
   struct ppu_texture_header hd;
   tt_header(&hd, PPU_TEX_FORMAT_R32_UINT, PPU_TEX_DIM_2D, 4, 2, 1, 1, 1);
   hd.layout = PPU_TEX_LAYOUT_LINEAR;
   hd.block_height_log2 = 0;
   hd.row_pitch = 16;
   hd.layer_stride = 32;
   uint64_t tex = tt_image(&h, &hd); /* texels hold tt_value * 255 */
   uint32_t init[8];
   for (unsigned i = 0; i < 8; i++)
      init[i] = i == 2 ? 0x7fffffffu : 0;
   hwt_write(&h.t.mem, h.t.pd, hd.address, init, sizeof(init));
   /* 256 threads: texel 0 gets ADD 1, texel 1 MAX t, texel 2 MIN (1000 - t),
    * texel 3 OR (1 << t % 32), texel 4 XOR t, texel 5 CAS loop counter. */
   const char *prog = "MOV R8, 0\nMOV R9, 0\nMOV R20, 1\n"
                      "SUATOM.ADD.2D.U32 R4, R0, R8, R20\n"
                      "MOV R8, 1\nMOV R20, R62\n"
                      "SUATOM.MAX.2D.U32 R4, R0, R8, R20\n"
                      "MOV R8, 2\nMOV R21, 1000\nISUB.S32 R20, R21, R62\n"
                      "SUATOM.MIN.2D.S32 R4, R0, R8, R20\n"
                      "MOV R8, 3\nAND R21, R62, 31\nMOV R23, 1\nSHL R20, R23, R21\n"
                      "SUATOM.OR.2D.U32 R4, R0, R8, R20\n"
                      "MOV R8, 0\nMOV R9, 1\nMOV R20, R62\n"
                      "SUATOM.XOR.2D.U32 R4, R0, R8, R20\n"
                      "MOV R8, 1\n"
                      "MOV R22, 0\n"
                      "PBK done\n"
                      "retry:\n"
                      "  IADD.U32 R20, R22, 1\n"
                      "  MOV R21, R22\n"
                      "  SUATOM.CAS.2D.U32 R4, R0, R8, R20\n"
                      "  ISETP.EQ.U32 P0, R4, R22, PT\n"
                      "  @P0 BRK\n"
                      "  MOV R22, R4\n"
                      "  BRA retry\n"
                      "done:\n"
                      "MOV R4, 0";
   if (tt_run(&h, prog, tex, 0, in, 256, out, false, NULL, NULL)) {
      uint32_t got[8];
      hwt_read(&h.t.mem, h.t.pd, hd.address, got, sizeof(got));
      uint32_t x = 0;
      for (uint32_t t = 0; t < 256; t++)
         x ^= t;
      CHECK_EQ_U64(got[0], 256);
      CHECK_EQ_U64(got[1], 255);
      CHECK_EQ_U64(got[2], 1000 - 255);
      CHECK_EQ_U64(got[3], 0xffffffffu);
      CHECK_EQ_U64(got[4], x);
      CHECK_EQ_U64(got[5], 256);
   }
   hwc_finish(&h);
}

static void expect_fault(const char *insn, uint64_t tex, uint64_t smp, enum ppu_fault_kind kind,
                         uint64_t address, const char *what)
{
   struct ppu_fault f;
   uint64_t pc = 0;
   for (uint32_t t = 0; t < 32; t++)
      memset(in[t], 0, sizeof(in[t]));
   bool ok = tt_run(&h, insn, tex, smp, in, 32, out, true, &f, &pc);
   CHECK_MSG(!ok && f.kind == kind && f.pc == pc, "%s: %s at 0x%llx (want %s at 0x%llx): %s", what,
             ok ? "no fault" : ppu_fault_kind_name(f.kind), (unsigned long long)f.pc,
             ppu_fault_kind_name(kind), (unsigned long long)pc, f.detail);
   if (address)
      CHECK_MSG(f.address == address, "%s: address 0x%llx", what, (unsigned long long)f.address);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
}

TEST_CASE(bad_header_vas_and_invalid_header_fields_fault_at_the_texture_instruction)
{
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_texture_header good;
   tt_header(&good, PPU_TEX_FORMAT_R8G8B8A8_UNORM, PPU_TEX_DIM_2D, 8, 8, 1, 1, 1);
   uint64_t tex = tt_image(&h, &good);
   struct ppu_sampler_header s;
   tt_sampler(&s, 0, 0, 0);
   uint64_t smp = tt_upload(&h, &s, sizeof(s));
   const char *tex_insn = "TEX.LZ.2D.F32 R4, R0, R2, R8, off[0:0:0]";
   uint64_t unmapped = hwt_alloc_va(&h.t, 4096);
   expect_fault(tex_insn, unmapped, smp, PPU_FAULT_MMU_UNMAPPED, unmapped, "unmapped texture");
   expect_fault(tex_insn, tex, unmapped, PPU_FAULT_MMU_UNMAPPED, unmapped, "unmapped sampler");
   expect_fault(tex_insn, tex + 8, smp, PPU_FAULT_MISALIGNED_ADDRESS, tex + 8, "misaligned");
   expect_fault("TLD.2D.F32 R4, R0, R8, off[0:0:0]", 0, 0, PPU_FAULT_MMU_UNMAPPED, 0, "null VA");

   struct ppu_texture_header e[12];
   for (unsigned i = 0; i < 12; i++)
      e[i] = good;
   e[0].format = 0;
   e[1].format = 999;
   e[2].width = 0;
   e[3].width = 20000;
   e[4].image_levels = 9; /* 8x8 has 4 levels */
   e[5].level_count = 2;  /* beyond image_levels */
   e[6].swizzle = 0x6210;
   e[7].layout = 2;
   e[8].block_height_log2 = 6;
   e[9].samples_log2 = 1;
   e[10].dim = PPU_TEX_DIM_3D; /* the instruction says 2D */
   e[11].layer_count = 0;
   for (unsigned i = 0; i < 12; i++) {
      uint64_t va = tt_upload(&h, &e[i], sizeof(e[i]));
      char what[32];
      snprintf(what, sizeof(what), "bad texture header %u", i);
      expect_fault(tex_insn, va, smp, PPU_FAULT_BAD_TEXTURE_HEADER, va, what);
   }
   struct ppu_sampler_header bs[4];
   for (unsigned i = 0; i < 4; i++)
      bs[i] = s;
   bs[0].mag_filter = 2;
   bs[1].address_v = 5;
   bs[2].compare_op = 8;
   bs[3].min_lod = 3, bs[3].max_lod = 1;
   for (unsigned i = 0; i < 4; i++) {
      uint64_t va = tt_upload(&h, &bs[i], sizeof(bs[i]));
      expect_fault(tex_insn, tex, va, PPU_FAULT_BAD_TEXTURE_HEADER, va, "bad sampler");
   }
   /* Image atomics on RGBA8, and ADD on an R32_SFLOAT image. */
   expect_fault("SUATOM.ADD.2D.U32 R4, R0, R8, R20", tex, 0, PPU_FAULT_BAD_TEXTURE_HEADER, 0,
                "atomic on rgba8");
   struct ppu_texture_header fl;
   tt_header(&fl, PPU_TEX_FORMAT_R32_SFLOAT, PPU_TEX_DIM_2D, 4, 4, 1, 1, 1);
   uint64_t fl_va = tt_image(&h, &fl);
   expect_fault("SUATOM.ADD.2D.U32 R4, R0, R8, R20", fl_va, 0, PPU_FAULT_BAD_TEXTURE_HEADER, 0,
                "float atomic add");
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
