/* Tiering of the SM translator (sm.exec = auto, docs/jit.md): a program is
 * interpreted until it has issued sm.jit_threshold warp instructions and
 * 50,000 per instruction of its own, then the chip's translator thread
 * translates it while the workers go on interpreting; results never
 * change. And a chip destroyed with programs
 * still waiting for the translator frees everything (the ASan build checks
 * for leaks). */
#include <stdio.h>
#include <string.h>

#include "compute/jit.h"
#include "compute_test_util.h"
#include "test_harness.h"

/* Each thread counts to 2,000 and stores the count plus its lane index:
 * about 6,000 warp instructions a warp. */
static const char *const counting_program = "S2R R4, SR_TID_X\n"
                                            "MOV R1, 0\n"
                                            "loop: IADD.U32 R1, R1, 1\n"
                                            "ISETP.LT.U32 P0, R1, 2000, PT\n"
                                            "@P0 BRA loop\n"
                                            "IADD.U32 R1, R1, R4\n"
                                            "LDC.U64 R2, c[0][RZ]\n"
                                            "IMAD.U32 R5, R4, 4, RZ\n"
                                            "IADD.U32 R2, R2, R5\n"
                                            "ST.GLOBAL.U32 [R2], R1\n"
                                            "EXIT\n";

static bool init_auto(struct hwc *h, uint64_t threshold)
{
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 64ull << 20;
   cfg.max_channels = 4;
   cfg.sm_exec = PPU_SM_EXEC_AUTO;
   cfg.jit_threshold = threshold;
   return hwc_init(h, &cfg);
}

static bool outputs_are_counts(struct hwc *h)
{
   uint32_t out[32];
   hwt_read(&h->t.mem, h->t.pd, h->out_va, out, sizeof(out));
   bool ok = true;
   for (uint32_t i = 0; i < 32; i++)
      ok &= out[i] == 2000u + i;
   return ok;
}

TEST_CASE(a_hot_program_is_translated_in_the_background)
{
   if (!ppu_jit_available()) {
      printf("SKIP: this build has no translator\n");
      return;
   }
   static struct hwc h;
   REQUIRE(init_auto(&h, 20000));
   uint64_t prog = hwc_program(&h, counting_program);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   /* 8 warps: past sm.jit_threshold, but short of 50,000 warp
    * instructions for each of the program's 11. */
   q.grid_size[0] = 8;
   struct ppu_gpu_jit_stats s;
   CHECK(hwc_launch(&h, &q, 0, NULL));
   CHECK(outputs_are_counts(&h));
   hwt_sleep_us(200000);
   ppu_gpu_jit_stats(h.t.gpu, &s);
   CHECK_EQ_U64(s.translated + s.failed, 0);
   /* 128 more warps: worth it now. */
   q.grid_size[0] = 128;
   CHECK(hwc_launch(&h, &q, 0, NULL));
   CHECK(outputs_are_counts(&h));
   /* The translation finishes on its own thread; wait for it (LLVM takes
    * well under a second for this program, more on a loaded machine). */
   uint64_t deadline = hwt_now_ns() + 60ull * 1000000000ull;
   do {
      ppu_gpu_jit_stats(h.t.gpu, &s);
      if (s.translated)
         break;
      hwt_sleep_us(10000);
   } while (hwt_now_ns() < deadline);
   CHECK_EQ_U64(s.translated, 1);
   CHECK_EQ_U64(s.failed, 0);
   CHECK_EQ_U64(s.waiting, 0);
   /* The next launch runs the translated code: the same results. */
   hwt_write(&h.t.mem, h.t.pd, h.out_va, (uint32_t[32]){0}, 32 * 4);
   CHECK(hwc_launch(&h, &q, 0, NULL));
   CHECK(outputs_are_counts(&h));
   hwc_finish(&h);
}

TEST_CASE(a_cold_program_stays_interpreted)
{
   static struct hwc h;
   REQUIRE(init_auto(&h, 1000000));
   uint64_t prog = hwc_program(&h, counting_program);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   CHECK(hwc_launch(&h, &q, 0, NULL));
   CHECK(outputs_are_counts(&h));
   struct ppu_gpu_jit_stats s;
   ppu_gpu_jit_stats(h.t.gpu, &s);
   CHECK_EQ_U64(s.translated + s.waiting + s.failed, 0);
   hwc_finish(&h);
}

TEST_CASE(a_chip_destroyed_with_translations_waiting_frees_them)
{
   if (!ppu_jit_available()) {
      printf("SKIP: this build has no translator\n");
      return;
   }
   static struct hwc h;
   REQUIRE(init_auto(&h, 1));
   /* Six distinct programs (different VAs), each hot after one launch of
    * 128 warps: the translator thread gets a queue, and the chip goes away
    * under it. */
   for (unsigned k = 0; k < 6; k++) {
      uint64_t prog = hwc_program(&h, counting_program);
      struct ppu_qmd q;
      hwc_qmd_defaults(&h, &q, prog);
      q.grid_size[0] = 128;
      CHECK(hwc_launch(&h, &q, 0, NULL));
      CHECK(outputs_are_counts(&h));
   }
   struct ppu_gpu_jit_stats s;
   ppu_gpu_jit_stats(h.t.gpu, &s);
   CHECK_EQ_U64(s.translated + s.waiting + s.failed, 6);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
