/* ISA float instructions: F32/F64 arithmetic, compares, MUFU within its
 * documented bounds, conversions with all rounding modes (F16 included),
 * FRND, and the disassembler round trip through the assembler. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compute_test_util.h"
#include "ppu/isa.h"
#include "ppu_asm.h"
#include "test_harness.h"

static float outf(struct hwc *h, uint64_t i)
{
   uint32_t u = hwc_out32(h, i);
   float f;
   memcpy(&f, &u, 4);
   return f;
}

/* x = (lane - 13) * 0.37; each lane stores 8 results. */
TEST_CASE(f32_arithmetic_compare_and_mufu_per_lane)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "S2R R0, SR_LANEID\n"
                     "IADD.S32 R0, R0, -13\n"
                     "CVT.RN.F32.S32 R1, R0\n"
                     "FMUL.F32 R1, R1, 0.37f\n"
                     "MOV R30, 1.0f\n"
                     "FFMA.F32 R2, R1, R1, R30\n" /* x*x+1 */
                     "FDIV.F32 R3, R30, R2\n"
                     "MUFU.RSQ.F32 R4, R2\n"
                     "MUFU.EX2.F32 R5, R1\n"
                     "MUFU.SIN.F32 R6, R1\n"
                     "FSETP.LT.F32 P0, R1, 0.0f, PT\n"
                     "FMAX.F32 R7, R1, -1.0f\n"
                     "MOV R8, 0\n@P0 MOV R8, 1\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "S2R R9, SR_LANEID\nSHL R9, R9, 5\n"
                     "IMADW.U32 R60, R9, 1, R60\n"
                     "ST.GLOBAL.U32 [R60], R1\nST.GLOBAL.U32 [R60+4], R2\n"
                     "ST.GLOBAL.U32 [R60+8], R3\nST.GLOBAL.U32 [R60+12], R4\n"
                     "ST.GLOBAL.U32 [R60+16], R5\nST.GLOBAL.U32 [R60+20], R6\n"
                     "ST.GLOBAL.U32 [R60+24], R7\nST.GLOBAL.U32 [R60+28], R8\n"
                     "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (int l = 0; l < 32; l++) {
      float x = (float)(l - 13) * 0.37f;
      float x2 = fmaf(x, x, 1.0f);
      CHECK(outf(&h, l * 8 + 0) == x);
      CHECK(outf(&h, l * 8 + 1) == x2);
      CHECK(outf(&h, l * 8 + 2) == 1.0f / x2);
      CHECK(fabsf(outf(&h, l * 8 + 3) - 1.0f / sqrtf(x2)) <= 2 * ldexpf(1.0f, ilogbf(x2) - 23));
      CHECK(fabsf(outf(&h, l * 8 + 4) - exp2f(x)) <= 3 * fabsf(exp2f(x)) * 0x1p-23f);
      CHECK(fabsf(outf(&h, l * 8 + 5) - sinf(x)) <= 0x1p-11f);
      CHECK(outf(&h, l * 8 + 6) == fmaxf(x, -1.0f));
      CHECK_EQ_U64(hwc_out32(&h, l * 8 + 7), x < 0);
   }
   hwc_finish(&h);
}

TEST_CASE(conversions_honour_every_rounding_mode_and_saturate)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   /* c[0][16..] = 2.5f, -2.5f, 1e10f, NaN, 1/3 (f64 as hi/lo words) */
   float in[4] = {2.5f, -2.5f, 1e10f, NAN};
   for (int i = 0; i < 4; i++) {
      uint32_t u;
      memcpy(&u, &in[i], 4);
      hwc_cb_write32(&h, 16 + 4 * i, u);
   }
   double third = 1.0 / 3.0;
   uint64_t t64;
   memcpy(&t64, &third, 8);
   hwc_cb_write32(&h, 32, (uint32_t)t64);
   hwc_cb_write32(&h, 36, (uint32_t)(t64 >> 32));
   const char *src = "LDC R1, c[0][RZ+16]\nLDC R2, c[0][RZ+20]\nLDC R3, c[0][RZ+24]\n"
                     "LDC R4, c[0][RZ+28]\nLDC.U64 R6, c[0][RZ+32]\n"
                     "CVT.RN.S32.F32 R10, R1\nCVT.RZ.S32.F32 R11, R2\nCVT.RM.S32.F32 R12, R2\n"
                     "CVT.RP.S32.F32 R13, R1\nCVT.RZ.S32.F32 R14, R3\nCVT.RZ.U32.F32 R15, R4\n"
                     "CVT.RZ.F32.F64 R16, R6\nCVT.RP.F32.F64 R17, R6\n"
                     "CVT.RN.F16.F32 R18, R3\nCVT.RZ.F16.F32 R19, R3\n"
                     "CVT.RN.F32.F16 R20, R18\nCVT.RN.S8.S32 R21, R11\n"
                     "FRND.RM.F32 R22, R2\nFRND.RN.F32 R23, R1\n"
                     "CVT.RN.U8.U32 R24, R3\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "ST.GLOBAL.B128 [R60], R12\nST.GLOBAL.B128 [R60+16], R16\n"
                     "ST.GLOBAL.B128 [R60+32], R20\nST.GLOBAL.U32 [R60+48], R10\n"
                     "ST.GLOBAL.U32 [R60+52], R11\nST.GLOBAL.U32 [R60+56], R24\n"
                     "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 1));
   float third_rz = (float)third, third_rp = nextafterf((float)third, 1.0f);
   if ((double)third_rz > third)
      third_rp = third_rz, third_rz = nextafterf(third_rz, 0.0f);
   CHECK_EQ_U64(hwc_out32(&h, 0), (uint32_t)-3); /* RM(-2.5) */
   CHECK_EQ_U64(hwc_out32(&h, 1), 3);            /* RP(2.5) */
   CHECK_EQ_U64(hwc_out32(&h, 2), 0x7fffffff);   /* 1e10 saturates */
   CHECK_EQ_U64(hwc_out32(&h, 3), 0);            /* NaN -> 0 */
   CHECK(outf(&h, 4) == third_rz);
   CHECK(outf(&h, 5) == third_rp);
   CHECK_EQ_U64(hwc_out32(&h, 6), 0x7c00); /* 1e10 -> f16 inf (RN) */
   CHECK_EQ_U64(hwc_out32(&h, 7), 0x7bff); /* RZ: max finite */
   CHECK(isinf(outf(&h, 8)));
   CHECK_EQ_U64(hwc_out32(&h, 9), (uint32_t)-2); /* S8 of RZ(-2.5) = -2, sign-extended */
   CHECK(outf(&h, 10) == -3.0f);
   CHECK(outf(&h, 11) == 2.0f);        /* ties to even */
   CHECK_EQ_U64(hwc_out32(&h, 12), 2); /* RN(2.5) = 2 */
   CHECK_EQ_U64(hwc_out32(&h, 13), (uint32_t)-2);
   CHECK_EQ_U64(hwc_out32(&h, 14), 0xf9); /* U8 of 1e10f's bits 0x501502f9: truncated */
   hwc_finish(&h);
}

/* A NaN result is the canonical 0x7fffffff whatever the operands' payloads
 * and signs, and FMIN/FMAX order -0 below +0 in either operand order
 * (docs/isa.md): results never depend on the host's choices. */
TEST_CASE(nan_results_are_canonical_and_min_max_order_signed_zeros)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "MOV R1, 0xff800001\nMOV R2, 0x7fc12345\n" /* payload NaNs */
                     "MOV R3, 0x7f800000\nMOV R4, 0xff800000\n" /* +inf, -inf */
                     "MOV R5, 0x80000000\nMOV R6, 0\n"          /* -0, +0 */
                     "FADD.F32 R12, R1, R2\nFMUL.F32 R13, R2, R1\nFADD.F32 R14, R3, R4\n"
                     "FFMA.F32 R15, R2, R3, R1\nFMIN.F32 R16, R1, R2\nMUFU.SQRT.F32 R17, R4\n"
                     "FMIN.F32 R18, R5, R6\nFMIN.F32 R19, R6, R5\n"
                     "FMAX.F32 R24, R5, R6\nFMAX.F32 R25, R6, R5\n"
                     "MOV.U64 R20, 0\nMOV R21, 0xfff80000\nFADD.F64 R22, R20, R20\n"
                     "LDC.U64 R60, c[0][RZ]\n"
                     "ST.GLOBAL.B128 [R60], R12\nST.GLOBAL.B128 [R60+16], R16\n"
                     "ST.GLOBAL.B128 [R60+32], R24\nST.GLOBAL.U64 [R60+48], R22\nEXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 1));
   for (unsigned i = 0; i < 6; i++)
      CHECK_EQ_U64(hwc_out32(&h, i), 0x7fffffffu);
   CHECK_EQ_U64(hwc_out32(&h, 6), 0x80000000u);           /* min(-0, +0) */
   CHECK_EQ_U64(hwc_out32(&h, 7), 0x80000000u);           /* min(+0, -0) */
   CHECK_EQ_U64(hwc_out32(&h, 8), 0);                     /* max(-0, +0) */
   CHECK_EQ_U64(hwc_out32(&h, 9), 0);                     /* max(+0, -0) */
   CHECK_EQ_U64(hwc_out64(&h, 6), 0x7fffffffffffffffull); /* F64 NaN + NaN */
   hwc_finish(&h);
}

TEST_CASE(f64_arithmetic_uses_register_pairs)
{
   static struct hwc h;
   REQUIRE(hwc_init(&h, NULL));
   const char *src = "S2R R0, SR_LANEID\n"
                     "CVT.RN.F64.U32 R2, R0\n"
                     "FMUL.F64 R4, R2, 0x3ff80000\n" /* * 1.5 */
                     "FADD.F64 R4, R4, R2\n"
                     "MUFU.SQRT.F64 R6, R4\n"
                     "FDIV.F64 R6, R6, 0x40080000\n" /* / 3.0 */
                     "LDC.U64 R60, c[0][RZ]\n"
                     "IMADW.U32 R60, R0, 8, R60\n"
                     "ST.GLOBAL.U64 [R60], R6\n"
                     "EXIT\n";
   REQUIRE(hwc_run_simple(&h, src, 32));
   for (int l = 0; l < 32; l++) {
      double want = sqrt(l * 1.5 + l) / 3.0;
      uint64_t got = hwc_out64(&h, l);
      double g;
      memcpy(&g, &got, 8);
      CHECK(g == want);
   }
   hwc_finish(&h);
}

TEST_CASE(disassembly_reassembles_to_the_same_words)
{
   const char *src = "@!P3 IADD.S32 R1, R2, 0x5\nLD.SHARED.U16 R4, [R5-0x8]\n"
                     "ATOM.CAS.GLOBAL.U64 R2, [R4+0x10], R6, R8\nLDC.B128 R8, c[3][R1+0x20]\n"
                     "CVT.RP.F16.F64 R1, R2\nSHFL.BFLY R1, P2, R3, 0x10\nWRED.MIN.EXC.S32 R1, R2\n"
                     "S2R R0, SR_LANEMASK_GE\nPLOP.OR P1, !P2, PT\nMEMBAR.GL\nBAR\nEXIT\n";
   uint32_t a[64 * 4], b[64 * 4];
   size_t n = 0, m = 0;
   char err[200];
   REQUIRE(ppu_asm(src, a, 64, &n, err, sizeof(err)));
   char text[4096];
   char *p = text;
   for (size_t i = 0; i < n; i++) {
      p += ppu_disasm_insn(&a[i * 4], p, sizeof(text) - (size_t)(p - text));
      *p++ = '\n';
   }
   *p = 0;
   CHECK_MSG(ppu_asm(text, b, 64, &m, err, sizeof(err)), "%s in:\n%s", err, text);
   CHECK_EQ_U64(m, n);
   CHECK_MSG(memcmp(a, b, n * 16) == 0, "round trip differs:\n%s", text);
   uint32_t bad[4] = {0xee, 0, 0, 0};
   ppu_disasm_insn(bad, text, sizeof(text));
   CHECK(strstr(text, "illegal") != NULL);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
