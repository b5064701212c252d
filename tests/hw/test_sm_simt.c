/* SIMT divergence and reconvergence: nested if/else, loops with break and
 * continue, switch, calls with divergent return, and early exit, each checked
 * per lane against the scalar program it stands for. */
#include <stdio.h>

#include "compute_test_util.h"
#include "test_harness.h"

TEST_CASE(nested_if_else_reconverges_and_every_lane_takes_its_path)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* r = lane < 16 ? (lane & 1 ? 100 : 200) : 300; r += 1 (after merge,
    * all lanes) */
   const char *src = "S2R R0, SR_LANEID\n"
                     "SSY outer_merge\n"
                     "ISETP.LT.U32 P0, R0, 16, PT\n"
                     "@!P0 BRA else_outer\n"
                     "  AND R1, R0, 1\n"
                     "  SSY inner_merge\n"
                     "  ISETP.NE.U32 P1, R1, 0, PT\n"
                     "  @!P1 BRA else_inner\n"
                     "    MOV R2, 100\n"
                     "    SYNC\n"
                     "  else_inner:\n"
                     "    MOV R2, 200\n"
                     "    SYNC\n"
                     "  inner_merge:\n"
                     "  SYNC\n"
                     "else_outer:\n"
                     "  MOV R2, 300\n"
                     "  SYNC\n"
                     "outer_merge:\n"
                     "IADD.U32 R2, R2, 1\n" HWC_STORE_LANE("R2") "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++)
      CHECK_EQ_U64(hwc_out32(&h, l), (l < 16 ? (l & 1 ? 100 : 200) : 300) + 1);
   hwc_finish(&h);
}

TEST_CASE(loop_with_divergent_break_and_continue_matches_scalar_loop)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* for (i = 0;; i++) { if (i == lane) break; if (i % 3 == 0) continue;
    *   sum += i; }  with the loop bounded: i < 40 also breaks. */
   const char *src = "S2R R0, SR_LANEID\n"
                     "MOV R1, 0\n" /* i */
                     "MOV R2, 0\n" /* sum */
                     "PBK loop_exit\n"
                     "loop_head:\n"
                     "  PCNT loop_cont\n"
                     "  ISETP.EQ.U32 P0, R1, R0, PT\n"
                     "  @P0 BRK\n"
                     "  IREM.U32 R3, R1, 3\n"
                     "  ISETP.EQ.U32 P1, R3, 0, PT\n"
                     "  @P1 CONT\n"
                     "  IADD.U32 R2, R2, R1\n"
                     "  SYNC\n"
                     "loop_cont:\n"
                     "  IADD.U32 R1, R1, 1\n"
                     "  ISETP.GE.U32 P2, R1, 40, PT\n"
                     "  @P2 BRK\n"
                     "  BRA loop_head\n"
                     "loop_exit:\n"
                     "IMUL.U32 R2, R2, 1000\nIADD.U32 R2, R2, R1\n" HWC_STORE_LANE("R2") "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++) {
      uint32_t i, sum = 0;
      for (i = 0; i < 40; i++) {
         if (i == l)
            break;
         if (i % 3 == 0)
            continue;
         sum += i;
      }
      CHECK_EQ_U64(hwc_out32(&h, l), sum * 1000 + i);
   }
   hwc_finish(&h);
}

TEST_CASE(switch_on_lane_value_runs_each_case_for_its_lanes_only)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "S2R R0, SR_LANEID\n"
                     "IREM.U32 R1, R0, 3\n"
                     "MOV R2, 7\n"
                     "SSY merge\n"
                     "ISETP.EQ.U32 P0, R1, 0, PT\n"
                     "ISETP.EQ.U32 P1, R1, 1, PT\n"
                     "@P0 BRA case0\n"
                     "@P1 BRA case1\n"
                     "BRA deflt\n"
                     "case0: IADD.U32 R2, R2, 10\n SYNC\n"
                     "case1: IADD.U32 R2, R2, 20\n SYNC\n"
                     "deflt: IADD.U32 R2, R2, 30\n SYNC\n"
                     "merge:\n"
                     "IADD.U32 R2, R2, R0\n" HWC_STORE_LANE("R2") "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++)
      CHECK_EQ_U64(hwc_out32(&h, l), 7 + (l % 3 == 0 ? 10 : l % 3 == 1 ? 20 : 30) + l);
   hwc_finish(&h);
}

/* Lane l recurses 40 + l deep (CALL entries), each level adding 1 on the
 * way down and 2 on the way back: the stack grows past the 64 entries on
 * chip, spills to local memory and unwinds in order, with divergent depths. */
TEST_CASE(recursion_deeper_than_the_on_chip_stack_spills_and_unwinds)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "S2R R0, SR_LANEID\n"
                     "IADD.U32 R0, R0, 40\n"
                     "MOV R1, 0\n"
                     "MOV R2, 0\n"
                     "CALL down\n" HWC_STORE_LANE("R2") "EXIT\n"
                                                        "down:\n"
                                                        "  IADD.U32 R1, R1, 1\n"
                                                        "  ISETP.LT.U32 P0, R1, R0, PT\n"
                                                        "  @!P0 RET\n"
                                                        "  CALL down\n"
                                                        "  IADD.U32 R2, R2, 2\n"
                                                        "  RET\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++)
      CHECK_EQ_U64(hwc_out32(&h, l), 2 * (40 + l - 1));
   /* The deepest lane (71 levels) holds 71 CALL entries: 7 beyond the 64
    * on chip went to local memory. */
   CHECK_EQ_U64(hwt_counter(&h.t, PPU_COUNTER_COMPUTE_SIMT_STACK_SPILLS), 7);
   hwc_finish(&h);
}

TEST_CASE(call_with_divergent_early_return_resumes_caller_with_all_lanes)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* f(x): if (x & 1) return x * 3; return x + 100; */
   const char *src = "S2R R0, SR_LANEID\n"
                     "CALL func\n"
                     "IADD.U32 R2, R2, 1\n" HWC_STORE_LANE("R2") "EXIT\n"
                                                                 "func:\n"
                                                                 "  AND R1, R0, 1\n"
                                                                 "  ISETP.NE.U32 P0, R1, 0, PT\n"
                                                                 "  IMUL.U32 R2, R0, 3\n"
                                                                 "  @P0 RET\n"
                                                                 "  IADD.U32 R2, R0, 100\n"
                                                                 "  RET\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++)
      CHECK_EQ_U64(hwc_out32(&h, l), (l & 1 ? l * 3 : l + 100) + 1);
   hwc_finish(&h);
}

TEST_CASE(early_exit_inside_divergent_if_leaves_other_lanes_running)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src =
       "S2R R0, SR_LANEID\n"
       "MOV R2, 5\n" HWC_STORE_LANE("R2") "SSY merge\n"
                                          "ISETP.LT.U32 P0, R0, 20, PT\n"
                                          "@P0 BRA skip\n"
                                          "  ISETP.GT.U32 P1, R0, 25, PT\n"
                                          "  @P1 EXIT\n"
                                          "  MOV R2, 9\n"
                                          "  SYNC\n"
                                          "skip:\n"
                                          "  MOV R2, 8\n"
                                          "  SYNC\n"
                                          "merge:\n"
                                          "IADD.U32 R2, R2, 1\n" HWC_STORE_LANE("R2") "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint32_t l = 0; l < 32; l++)
      CHECK_EQ_U64(hwc_out32(&h, l), l < 20 ? 9 : l > 25 ? 5 : 10);
   hwc_finish(&h);
}

TEST_CASE(partial_last_warp_runs_only_existing_threads)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "S2R R0, SR_TID_FLAT\nIADD.U32 R0, R0, 1\n" HWC_STORE_LANE("R0") "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 45));
   for (uint32_t t = 0; t < 64; t++)
      CHECK_EQ_U64(hwc_out32(&h, t), t < 45 ? t + 1 : 0);
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
