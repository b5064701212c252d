/* Shared memory with barriers across warps, atomics under contention from
 * many workgroups on several SM threads, local and generic addressing, and
 * subgroup operations against scalar recomputation. */
#include <stdio.h>

#include "compute_test_util.h"
#include "test_harness.h"

TEST_CASE(shared_memory_tree_reduction_across_eight_warps_with_barriers)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* 256 threads: s[t] = t*t; tree-reduce with BAR between steps; thread 0
    * stores the sum for its workgroup at out[workgroup]. */
   const char *src = "S2R R0, SR_TID_FLAT\n"
                     "IMUL.U32 R1, R0, R0\n"
                     "SHL R2, R0, 2\n"
                     "ST.SHARED.U32 [R2], R1\n"
                     "MOV R3, 128\n"
                     "PBK done\n"
                     "step:\n"
                     "  BAR\n"
                     "  SSY next\n"
                     "  ISETP.LT.U32 P0, R0, R3, PT\n"
                     "  @!P0 BRA skip\n"
                     "    SHL R4, R3, 2\n"
                     "    IADD.U32 R4, R4, R2\n"
                     "    LD.SHARED.U32 R5, [R4]\n"
                     "    LD.SHARED.U32 R6, [R2]\n"
                     "    IADD.U32 R6, R6, R5\n"
                     "    ST.SHARED.U32 [R2], R6\n"
                     "    SYNC\n"
                     "  skip: SYNC\n"
                     "  next:\n"
                     "  SHR.U32 R3, R3, 1\n"
                     "  ISETP.EQ.U32 P1, R3, 0, PT\n"
                     "  @P1 BRK\n"
                     "  BRA step\n"
                     "done:\n"
                     "BAR\n"
                     "ISETP.NE.U32 P2, R0, 0, PT\n"
                     "@P2 EXIT\n"
                     "LD.SHARED.U32 R7, [RZ]\n"
                     "S2R R8, SR_CTAID_X\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "IMADW.U32 R60, R8, 4, R60\n"
                     "ST.GLOBAL.U32 [R60], R7\n"
                     "EXIT\n";
   uint64_t prog = hwc_program(&h, src);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 256;
   q.shared_memory_size = 1024;
   q.grid_size[0] = 12;
   REQUIRE(hwc_launch(&h, &q, 0, NULL));
   uint32_t want = 0;
   for (uint32_t t = 0; t < 256; t++)
      want += t * t;
   for (uint32_t g = 0; g < 12; g++)
      CHECK_EQ_U64(hwc_out32(&h, g), want);
   CHECK(hwt_counter(&h.t, PPU_COUNTER_COMPUTE_BARRIERS) >= 12 * 9);
   hwc_finish(&h);
}

TEST_CASE(atomics_from_many_workgroups_on_several_threads_give_exact_totals)
{
   static struct hwc h;
   struct ppu_gpu_config cfg;
   ppu_gpu_config_default(&cfg);
   cfg.vram_size = 256ull << 20;
   cfg.max_channels = 16;
   cfg.host_worker_threads = 4;
   REQUIRE(hwc_init(&h, &cfg));
   /* out[0] += 1 (U32), out[1] max= tid, out[2] min= tid (S32, biased
    * negative), out[4..5] += 3 (U64), out[6] ^= 1<<lane, out[7] CAS
    * chain counter: each thread spins until its CAS increments. */
   const char *src = "LDC.U64 R60, c[0][RZ]\n"
                     "S2R R0, SR_TID_FLAT\n"
                     "S2R R1, SR_CTAID_X\n"
                     "IMAD.U32 R2, R1, 64, R0\n"
                     "MOV R3, 1\n"
                     "ATOM.ADD.GLOBAL.U32 RZ, [R60], R3, RZ\n"
                     "ATOM.MAX.GLOBAL.U32 RZ, [R60+4], R2, RZ\n"
                     "ISUB.S32 R4, RZ, R2\n"
                     "ATOM.MIN.GLOBAL.S32 RZ, [R60+8], R4, RZ\n"
                     "MOV.U64 R6, 3\n"
                     "ATOM.ADD.GLOBAL.U64 RZ, [R60+16], R6, RZ\n"
                     "S2R R8, SR_LANEID\n"
                     "SHL R9, R3, R8\n"
                     "ATOM.XOR.GLOBAL.U32 RZ, [R60+24], R9, RZ\n"
                     "PBK done\n"
                     "retry:\n"
                     "  LD.GLOBAL.U32 R10, [R60+28]\n"
                     "  IADD.U32 R11, R10, 1\n"
                     "  ATOM.CAS.GLOBAL.U32 R12, [R60+28], R11, R10\n"
                     "  ISETP.EQ.U32 P0, R12, R10, PT\n"
                     "  @P0 BRK\n"
                     "  BRA retry\n"
                     "done:\n"
                     "EXIT\n";
   uint64_t prog = hwc_program(&h, src);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 64;
   q.grid_size[0] = 500;
   REQUIRE(hwc_launch(&h, &q, 0, NULL));
   uint32_t n = 500 * 64;
   CHECK_EQ_U64(hwc_out32(&h, 0), n);
   CHECK_EQ_U64(hwc_out32(&h, 1), n - 1);
   CHECK_EQ_U64(hwc_out32(&h, 2), (uint32_t) - (int32_t)(n - 1));
   CHECK_EQ_U64(hwc_out64(&h, 2), 3ull * n);
   CHECK_EQ_U64(hwc_out32(&h, 6), 0); /* every lane bit flipped an even number of times */
   CHECK_EQ_U64(hwc_out32(&h, 7), n);
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_COMPUTE_WORKGROUPS), 500);
   hwc_finish(&h);
}

TEST_CASE(local_and_generic_addresses_reach_the_right_memory)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* local[i] = lane + i for i < 4 via LOCAL, read back through a generic
    * address in the local window; shared written generically, read back
    * through SHARED. */
   const char *src = "S2R R0, SR_LANEID\n"
                     "IADD.U32 R1, R0, 0\nST.LOCAL.U32 [RZ], R1\n"
                     "IADD.U32 R1, R0, 1\nST.LOCAL.U32 [RZ+4], R1\n"
                     "IADD.U32 R1, R0, 2\nST.LOCAL.U32 [RZ+8], R1\n"
                     "IADD.U32 R1, R0, 3\nST.LOCAL.U32 [RZ+12], R1\n"
                     "MOV R20, 0\nMOV R21, 0x20000\n" /* generic local window */
                     "LD.GENERIC.B128 R24, [R20]\n"
                     "IADD.U32 R2, R24, R25\nIADD.U32 R2, R2, R26\nIADD.U32 R2, R2, R27\n"
                     "SHL R22, R0, 2\nMOV R23, 0x10000\n" /* generic shared window */
                     "ST.GENERIC.U32 [R22], R2\n"
                     "BAR\n"
                     "SHL R3, R0, 2\nXOR R3, R3, 4\n"
                     "LD.SHARED.U32 R4, [R3]\n"
                     "SHL R4, R4, 8\nOR R2, R2, R4\n" HWC_STORE_LANE("R2") "EXIT\n";
   uint64_t prog = hwc_program(&h, src);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.local_memory_size = 16;
   q.shared_memory_size = 128;
   REQUIRE(hwc_launch(&h, &q, 0, NULL));
   for (uint32_t l = 0; l < 32; l++) {
      uint32_t mine = 4 * l + 6, other = 4 * (l ^ 1) + 6;
      CHECK_EQ_U64(hwc_out32(&h, l), mine | other << 8);
   }
   hwc_finish(&h);
}

TEST_CASE(subgroup_vote_ballot_shuffle_and_scan_match_scalar_recomputation)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* x = lane * 37 % 11; ballot(x > 5); any/all; shfl bfly 5; shfl up 3;
    * inclusive add scan; reduce max; exclusive xor scan over even lanes. */
   const char *src = "S2R R0, SR_LANEID\n"
                     "IMUL.U32 R1, R0, 37\nIREM.U32 R1, R1, 11\n"
                     "ISETP.GT.U32 P0, R1, 5, PT\n"
                     "VOTE.ANY R2, P1, P0\n"
                     "VOTE.ALL RZ, P2, P0\n"
                     "SHFL.BFLY R3, PT, R1, 5\n"
                     "SHFL.UP R4, P3, R1, 3\n"
                     "WRED.ADD.INC.U32 R5, R1\n"
                     "WRED.MAX.RED.U32 R6, R1\n"
                     "AND R7, R0, 1\nISETP.EQ.U32 P4, R7, 0, PT\n"
                     "MOV R8, 0\n"
                     "@P4 WRED.XOR.EXC.U32 R8, R1\n"
                     "MOV R9, 0\n"
                     "@P1 IADD.U32 R9, R9, 1\n"
                     "@P2 IADD.U32 R9, R9, 2\n"
                     "@P3 IADD.U32 R9, R9, 4\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "SHL R10, R0, 5\n"
                     "IMADW.U32 R60, R10, 1, R60\n"
                     "ST.GLOBAL.U32 [R60], R2\nST.GLOBAL.U32 [R60+4], R3\n"
                     "ST.GLOBAL.U32 [R60+8], R4\nST.GLOBAL.U32 [R60+12], R5\n"
                     "ST.GLOBAL.U32 [R60+16], R6\nST.GLOBAL.U32 [R60+20], R8\n"
                     "ST.GLOBAL.U32 [R60+24], R9\n"
                     "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   uint32_t x[32], ballot = 0, maxv = 0;
   for (uint32_t l = 0; l < 32; l++) {
      x[l] = l * 37 % 11;
      ballot |= (x[l] > 5) << l;
      maxv = x[l] > maxv ? x[l] : maxv;
   }
   uint32_t scan = 0, xscan = 0;
   for (uint32_t l = 0; l < 32; l++) {
      scan += x[l];
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 0), ballot);
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 1), x[l ^ 5]);
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 2), l >= 3 ? x[l - 3] : x[l]);
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 3), scan);
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 4), maxv);
      if (l % 2 == 0) {
         CHECK_EQ_U64(hwc_out32(&h, l * 8 + 5), xscan);
         xscan ^= x[l];
      } else {
         CHECK_EQ_U64(hwc_out32(&h, l * 8 + 5), 0);
      }
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 6), 1u | 0u | (l >= 3 ? 4u : 0u));
   }
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
