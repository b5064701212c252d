/* Faults raised by shader execution: they stop the channel with engine
 * COMPUTE, the PC of the instruction and (for memory) the address; nothing
 * a program does harms the host. */
#include <stdio.h>
#include <string.h>

#include "ppu/isa.h"

#include "compute_test_util.h"
#include "test_harness.h"

static bool run_expect_fault(struct hwc *h, const char *src, struct ppu_fault *f, uint64_t *prog)
{
   *prog = hwc_program(h, src);
   struct ppu_qmd q;
   hwc_qmd_defaults(h, &q, *prog);
   return !hwc_launch(h, &q, 0, f);
}

TEST_CASE(load_from_unmapped_address_faults_with_pc_and_address)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_fault f;
   uint64_t prog;
   REQUIRE(run_expect_fault(&h,
                            "MOV R2, 0x1000\nMOV R3, 0x77\nNOP\n"
                            "LD.GLOBAL.U32 R4, [R2+0x10]\nEXIT\n",
                            &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(f.engine, PPU_ENGINE_COMPUTE);
   CHECK_EQ_U64(f.pc, prog + 3 * 16);
   CHECK_EQ_U64(f.address, 0x7700001010ull);
   hwc_finish(&h);
}

TEST_CASE(store_to_read_only_page_and_misaligned_access_fault)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_fault f;
   uint64_t prog;
   /* The program's own pages are mapped read-only. */
   REQUIRE(run_expect_fault(&h, "LDC.U64 R2, c[0][RZ]\nMOV R2, 0\nMOV R3, 0\nEXIT\n", &f, &prog) ==
           false);
   char src[256];
   snprintf(src, sizeof(src), "MOV R2, 0x%x\nMOV R3, 0x%x\nST.GLOBAL.U32 [R2], R2\nEXIT\n",
            (unsigned)prog, (unsigned)(prog >> 32));
   REQUIRE(run_expect_fault(&h, src, &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_WRITE_PROTECT);
   CHECK(f.write);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(
       run_expect_fault(&h, "LDC.U64 R2, c[0][RZ]\nLD.GLOBAL.U32 R4, [R2+2]\nEXIT\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_MISALIGNED_ADDRESS);
   CHECK_EQ_U64(f.pc, prog + 16);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(run_expect_fault(&h, "MOV R2, 0x10000\nLD.SHARED.U32 R4, [R2]\nEXIT\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_OUT_OF_RANGE);
   hwc_finish(&h);
}

TEST_CASE(illegal_encodings_fault_and_never_crash)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   uint32_t bad[][4] = {
       {0xff, 0x700, 0, 0},                     /* unknown opcode */
       {PPU_OP_IADD, 0x20000700, 0, 0},         /* IADD.F32: type not allowed */
       {PPU_OP_NOP, 0x700, 0, 0x100},           /* reserved bit in word 3 */
       {PPU_OP_MOV | 200 << 8, 0x700, 0, 0x10}, /* R200 beyond 64 registers */
   };
   for (unsigned i = 0; i < 4; i++) {
      uint64_t prog = hwt_alloc_mapped(&h.t, 4096, false);
      hwt_write(&h.t.mem, h.t.pd, prog + 16, bad[i], 16);
      uint32_t nop[4] = {PPU_OP_NOP, 0x700, 0, 0};
      hwt_write(&h.t.mem, h.t.pd, prog, nop, 16);
      struct ppu_qmd q;
      hwc_qmd_defaults(&h, &q, prog);
      struct ppu_fault f;
      CHECK(!hwc_launch(&h, &q, 0, &f));
      CHECK_MSG(f.kind == PPU_FAULT_ILLEGAL_INSTRUCTION && f.pc == prog + 16,
                "case %u: %s at 0x%llx (%s)", i, ppu_fault_kind_name(f.kind),
                (unsigned long long)f.pc, f.detail);
      REQUIRE(hwt_channel_restart(&h.c, "compute"));
   }
   /* Running off the end of mapped code is an MMU fault at that PC. */
   uint64_t prog = hwc_program(&h, "NOP\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   struct ppu_fault f;
   CHECK(!hwc_launch(&h, &q, 0, &f)); /* the rest of the page is zeros = NOPs */
   CHECK_EQ_U64(f.kind, PPU_FAULT_MMU_UNMAPPED);
   CHECK_EQ_U64(f.pc, prog + 4096);
   hwc_finish(&h);
}

TEST_CASE(infinite_loop_ends_in_watchdog_fault_naming_the_pc)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.watchdog_warp_instructions = 100000;
   REQUIRE(hwc_init(&h, &cfg));
   struct ppu_fault f;
   uint64_t prog;
   REQUIRE(run_expect_fault(&h, "NOP\nspin: IADD.U32 R1, R1, 1\nBRA spin\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_WATCHDOG);
   CHECK_EQ_U64(f.engine, PPU_ENGINE_COMPUTE);
   CHECK(f.pc == prog + 16 || f.pc == prog + 32);
   /* The channel was stopped; a fresh one runs normally on the same chip. */
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
   CHECK(hwc_run_simple(&h, "EXIT\n", 32));
   hwc_finish(&h);
}

/* The per-warp budget stops a warp that never ends even with no budget on
 * the grid, and counts each warp on its own: a grid whose warps together
 * issue far more than it, each staying under it, runs to the end. */
TEST_CASE(warp_that_never_ends_is_stopped_by_its_own_count)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.watchdog_warp_instructions = 0;
   cfg.watchdog_instructions_per_warp = 5000;
   cfg.watchdog_resident_instructions = 0; /* no larger share for grids of few warps */
   REQUIRE(hwc_init(&h, &cfg));
   /* 64 workgroups of 4 warps, each warp 2 + 3 * 1000 instructions: 256
    * warps, 768 K instructions together, 3002 per warp. */
   uint64_t prog = hwc_program(&h, "MOV R1, 0\n"
                                   "loop: IADD.U32 R1, R1, 1\n"
                                   "ISETP.LT.U32 P0, R1, 1000, PT\n"
                                   "@P0 BRA loop\n"
                                   "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 128;
   q.grid_size[0] = 64;
   struct ppu_fault f;
   bool ok = hwc_launch(&h, &q, 0, &f);
   CHECK_MSG(ok, "a grid of short warps faulted: %s (%s)", ppu_fault_kind_name(f.kind), f.detail);
   if (!ok)
      REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(run_expect_fault(&h, "NOP\nspin: IADD.U32 R1, R1, 1\nBRA spin\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_WATCHDOG);
   CHECK(f.pc == prog + 16 || f.pc == prog + 32);
   CHECK_MSG(strstr(f.detail, "warp issued 5000 instructions without ending") != NULL, "detail: %s",
             f.detail);
   hwc_finish(&h);
}

/* compute.watchdog_resident_instructions: the resident warps share it, so
 * a grid of one warp may issue far more than the per-warp key (a legitimate
 * long loop in one warp), and a hung one is still stopped by its share. */
TEST_CASE(a_grid_of_few_warps_shares_the_resident_budget)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.watchdog_warp_instructions = 0;
   cfg.watchdog_instructions_per_warp = 5000;
   cfg.watchdog_resident_instructions = 200000;
   REQUIRE(hwc_init(&h, &cfg));
   /* One workgroup of one warp: 2 + 3 * 20000 instructions, 12x the key. */
   uint64_t prog = hwc_program(&h, "MOV R1, 0\n"
                                   "loop: IADD.U32 R1, R1, 1\n"
                                   "ISETP.LT.U32 P0, R1, 20000, PT\n"
                                   "@P0 BRA loop\n"
                                   "EXIT\n");
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 32;
   q.grid_size[0] = 1;
   struct ppu_fault f;
   bool ok = hwc_launch(&h, &q, 0, &f);
   CHECK_MSG(ok, "a one-warp grid within its share faulted: %s (%s)", ppu_fault_kind_name(f.kind),
             f.detail);
   if (!ok)
      REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(run_expect_fault(&h, "NOP\nspin: IADD.U32 R1, R1, 1\nBRA spin\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_WATCHDOG);
   CHECK_MSG(strstr(f.detail, "warp issued 200000 instructions without ending") != NULL,
             "detail: %s", f.detail);
   hwc_finish(&h);
}

TEST_CASE(simt_stack_misuse_faults)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   struct ppu_fault f;
   uint64_t prog;
   REQUIRE(run_expect_fault(&h, "SYNC\nEXIT\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_SIMT_STACK);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(run_expect_fault(&h, "BRK\nEXIT\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_SIMT_STACK);
   REQUIRE(hwt_channel_restart(&h.c, "compute"));
   REQUIRE(run_expect_fault(&h, "top: SSY top\nBRA top\n", &f, &prog));
   CHECK_EQ_U64(f.kind, PPU_FAULT_SIMT_STACK);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
