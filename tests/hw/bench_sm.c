/* SM microbenchmark: a compute-bound grid (integer and float ALU ops in a
 * loop, no memory traffic but one store per thread) run on 1 and 2 host
 * worker threads; prints lane-instructions per second from the chip's
 * counters. Not a test: figures, not pass/fail. */
#include <stdio.h>
#include <string.h>

#include "compute_test_util.h"
#include "ppu/counters.h"
#include "test_harness.h"

/* 16 ALU ops per iteration plus the loop's 3. */
static const char *program = "S2R R0, SR_LANEID\n"
                             "MOV R1, 0x3f800000\n"
                             "MOV R2, 0x3f000000\n"
                             "LDC R9, c[0][RZ+8]\n"
                             "MOV R8, 0\n"
                             "loop:\n"
                             "IADD.U32 R3, R0, R8\n"
                             "IMAD.U32 R4, R3, 3, R0\n"
                             "XOR R5, R4, R3\n"
                             "SHL R6, R5, 3\n"
                             "FMUL.F32 R1, R1, R2\n"
                             "FADD.F32 R1, R1, 1.0f\n"
                             "IADD.U32 R0, R0, R6\n"
                             "AND R0, R0, 0xffff\n"
                             "FMUL.F32 R2, R2, 0.999f\n"
                             "FADD.F32 R2, R2, 0.001f\n"
                             "IMIN.U32 R7, R0, R5\n"
                             "IADD.U32 R0, R0, R7\n"
                             "FMIN.F32 R1, R1, 100.0f\n"
                             "OR R3, R3, R4\n"
                             "IADD.U32 R0, R0, R3\n"
                             "SHR.U32 R0, R0, 1\n"
                             "IADD.U32 R8, R8, 1\n"
                             "ISETP.LT.U32 P0, R8, R9, PT\n"
                             "@P0 BRA loop\n"
                             "IADD.U32 R0, R0, R1\n" HWC_STORE_LANE("R0") "EXIT\n";

static void run(uint32_t threads)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 4;
   cfg.host_worker_threads = threads;
   if (!hwc_init(&h, &cfg))
      return;
   hwc_cb_write32(&h, 8, 2000); /* iterations */
   uint64_t prog = hwc_program(&h, program);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 128;
   q.grid_size[0] = 256;
   uint64_t before = hwt_counter(&h.t, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS);
   uint64_t t0 = hwt_now_ns();
   bool ok = hwc_launch(&h, &q, 0, NULL);
   uint64_t t1 = hwt_now_ns();
   uint64_t lanes = hwt_counter(&h.t, PPU_COUNTER_COMPUTE_LANE_INSTRUCTIONS) - before;
   double s = (double)(t1 - t0) / 1e9;
   printf("bench_sm: %u host thread%s: %s %llu lane-instructions in %.3f s = %.1f M "
          "lane-instructions/s (%.1f M warp-instructions/s)\n",
          threads, threads == 1 ? " " : "s", ok ? "" : "(FAULTED)", (unsigned long long)lanes, s,
          lanes / s / 1e6, lanes / 32.0 / s / 1e6);
   hwc_finish(&h);
}

int main(void)
{
   run(1);
   run(2);
   return 0;
}
