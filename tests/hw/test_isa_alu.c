/* ISA integer, logic, bitfield, predicate, move and special-register
 * instructions: each runs on 32 lanes with lane-dependent operands and is
 * checked lane by lane against a C recomputation. */
#include <stdio.h>
#include <string.h>

#include "compute_test_util.h"
#include "test_harness.h"

/* Operands per lane: R0 = a(l), R1 = b(l); the op under test writes R2. */
static uint32_t in_a(uint32_t l)
{
   return l * 0x9e3779b9u ^ (l << 28);
}

static uint32_t in_b(uint32_t l)
{
   return (l * 7u) % 37u;
}

#define PROLOGUE                                                                                   \
   "S2R R10, SR_LANEID\n"                                                                          \
   "IMUL.U32 R0, R10, 0x9e3779b9\n"                                                                \
   "SHL R11, R10, 28\n"                                                                            \
   "XOR R0, R0, R11\n"                                                                             \
   "IMUL.U32 R1, R10, 7\n"                                                                         \
   "IREM.U32 R1, R1, 37\n"

struct alu_case {
   const char *text;
   uint32_t (*expect)(uint32_t a, uint32_t b, uint32_t lane);
};

static uint32_t e_iadd(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return a + b;
}
static uint32_t e_isub(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return a - b;
}
static uint32_t e_imulhi_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)(b - 18)) >> 32);
}
static uint32_t e_idiv_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   int32_t d = (int32_t)b - 18;
   return d == 0 ? 0xffffffffu : (uint32_t)((int32_t)a / d);
}
static uint32_t e_irem_u(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return b == 0 ? a : a % b;
}
static uint32_t e_imin_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   return (int32_t)a < 12345 ? a : 12345;
}
static uint32_t e_imax_u(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   return a > 0x80000000u ? a : 0x80000000u;
}
static uint32_t e_iabs(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   return (int32_t)a < 0 ? 0u - a : a;
}
static uint32_t e_shr_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return (uint32_t)((int32_t)a >> (b & 31));
}
static uint32_t e_shr_u(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return a >> (b & 31);
}
static uint32_t e_logic(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return ~((a & 0xff00ff00u) | b) ^ 0x12345678u;
}
static uint32_t e_bfe_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   return (uint32_t)((int32_t)(a << 16) >> 24); /* offset 8, count 8, signed */
}
static uint32_t e_bfi(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return (a & ~0x0003fff0u) | ((b << 4) & 0x0003fff0u); /* offset 4, count 14 */
}
static uint32_t e_brev(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   uint32_t r = 0;
   for (int i = 0; i < 32; i++)
      r |= ((a >> i) & 1u) << (31 - i);
   return r;
}
static uint32_t e_popc(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   return (uint32_t)__builtin_popcount(a);
}
static uint32_t e_flo_s(uint32_t a, uint32_t b, uint32_t l)
{
   (void)b, (void)l;
   uint32_t v = (int32_t)a < 0 ? ~a : a;
   return v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
}
static uint32_t e_ffs(uint32_t a, uint32_t b, uint32_t l)
{
   (void)a, (void)l;
   uint32_t v = b & 0xfffffff8u;
   return v ? (uint32_t)__builtin_ctz(v) : 0xffffffffu;
}
static uint32_t e_setp_sel(uint32_t a, uint32_t b, uint32_t l)
{
   (void)l;
   return (int32_t)a < (int32_t)b ? a : b;
}
static uint32_t e_plop(uint32_t a, uint32_t b, uint32_t l)
{
   (void)a;
   return (b > 10) ^ (l % 3 == 0) ? 1 : 0;
}
static uint32_t e_imad(uint32_t a, uint32_t b, uint32_t l)
{
   return a * b + l;
}
static uint32_t e_imadw_hi(uint32_t a, uint32_t b, uint32_t l)
{
   uint64_t r = (uint64_t)a * b + ((uint64_t)l << 32 | 0xffffffffu);
   return (uint32_t)(r >> 32);
}

static const struct alu_case cases[] = {
    {"IADD.U32 R2, R0, R1", e_iadd},
    {"ISUB.S32 R2, R0, R1", e_isub},
    {"IADD.S32 R3, R1, -18\nIMULHI.S32 R2, R0, R3", e_imulhi_s},
    {"IADD.S32 R3, R1, -18\nIDIV.S32 R2, R0, R3", e_idiv_s},
    {"IREM.U32 R2, R0, R1", e_irem_u},
    {"IMIN.S32 R2, R0, 12345", e_imin_s},
    {"IMAX.U32 R2, R0, 0x80000000", e_imax_u},
    {"IABS.S32 R2, R0", e_iabs},
    {"SHR.S32 R2, R0, R1", e_shr_s},
    {"SHR.U32 R2, R0, R1", e_shr_u},
    {"AND R3, R0, 0xff00ff00\nOR R3, R3, R1\nNOT R3, R3\nXOR R2, R3, 0x12345678", e_logic},
    {"BFE.S32 R2, R0, 0x0808", e_bfe_s},
    {"BFI R2, R1, 0x0e04, R0", e_bfi},
    {"BREV R2, R0", e_brev},
    {"POPC R2, R0", e_popc},
    {"FLO.S32 R2, R0", e_flo_s},
    {"AND R3, R1, 0xfffffff8\nFFS R2, R3", e_ffs},
    {"ISETP.LT.S32 P1, R0, R1, PT\nSEL R2, R0, R1, P1", e_setp_sel},
    {"ISETP.GT.U32 P0, R1, 10, PT\nIREM.U32 R3, R10, 3\nISETP.EQ.U32 P1, R3, 0, PT\n"
     "PLOP.XOR P2, P0, P1\nMOV R4, 1\nSEL R2, R4, RZ, P2",
     e_plop},
    {"IMAD.U32 R2, R0, R1, R10", e_imad},
    {"MOV R20, 0xffffffff\nMOV R21, R10\nIMADW.U32 R22, R0, R1, R20\nMOV R2, R23", e_imadw_hi},
};

TEST_CASE(every_integer_op_matches_c_per_lane)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char src[2048];
      snprintf(src, sizeof(src), PROLOGUE "%s\n" HWC_STORE_LANE("R2") "EXIT\n", cases[i].text);
      if (!hwc_run_simple(&h, src, 32))
         break;
      for (uint32_t l = 0; l < 32; l++) {
         uint32_t want = cases[i].expect(in_a(l), in_b(l), l);
         uint32_t got = hwc_out32(&h, l);
         if (got != want) {
            CHECK_MSG(false, "case \"%s\" lane %u: got 0x%08x, want 0x%08x", cases[i].text, l, got,
                      want);
            break;
         }
      }
   }
   hwc_finish(&h);
}

TEST_CASE(sixty_four_bit_integer_ops_use_register_pairs)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* R4:R5 = lane * 2^33 + 7 (S2R, then shifts on pairs), times 3, minus
    * 1, arithmetic shift right by 1 of its negation. */
   const char *src = "S2R R2, SR_LANEID\n"
                     "MOV R3, 0\n"
                     "SHL.U64 R4, R2, 33\n"
                     "IADD.U64 R4, R4, 7\n"
                     "MOV.U64 R6, 3\n"
                     "IMUL.U64 R4, R4, R6\n"
                     "IADD.S64 R4, R4, -1\n"
                     "INEG.S64 R8, R4\n"
                     "SHR.S64 R8, R8, 1\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "IMADW.U32 R60, R2, 16, R60\n"
                     "ST.GLOBAL.U64 [R60], R4\n"
                     "ST.GLOBAL.U64 [R60+8], R8\n"
                     "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (uint64_t l = 0; l < 32; l++) {
      uint64_t v = (l << 33) + 7;
      v = v * 3 - 1;
      CHECK_EQ_U64(hwc_out64(&h, 2 * l), v);
      CHECK_EQ_U64(hwc_out64(&h, 2 * l + 1), (uint64_t)((int64_t)(0 - v) >> 1));
   }
   hwc_finish(&h);
}

TEST_CASE(special_registers_report_ids_sizes_and_lane_masks)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* 4x3x5 workgroups of 2x3x4 threads... one workgroup here: 8x2x2 = 32. */
   const char *src = "S2R R0, SR_TID_X\nS2R R1, SR_TID_Y\nS2R R2, SR_TID_Z\n"
                     "S2R R3, SR_LANEMASK_LT\nS2R R4, SR_NTID_Y\n"
                     "SHL R1, R1, 8\nSHL R2, R2, 16\nOR R0, R0, R1\nOR R0, R0, R2\n"
                     "SHL R4, R4, 24\nOR R0, R0, R4\n"
                     "POPC R3, R3\nSHL R3, R3, 28\nXOR R0, R0, R3\n" HWC_STORE_LANE("R0") "EXIT\n";
   uint64_t prog = hwc_program(&h, src);
   struct ppu_qmd q;
   hwc_qmd_defaults(&h, &q, prog);
   q.workgroup_size[0] = 8;
   q.workgroup_size[1] = 2;
   q.workgroup_size[2] = 2;
   REQUIRE(hwc_launch(&h, &q, 0, NULL));
   for (uint32_t t = 0; t < 32; t++) {
      uint32_t want = (t % 8) | (t / 8 % 2) << 8 | (t / 16) << 16 | 2u << 24;
      want ^= (t & 15) << 28;
      CHECK_EQ_U64(hwc_out32(&h, t), want);
   }
   hwc_finish(&h);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
