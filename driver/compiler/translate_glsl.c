/* GLSL.std.450 extended instructions (translate.h), one leaf at a time.
 * Precision: MUFU functions meet the Vulkan bounds (docs/isa.md); exp, log
 * and pow are built from exp2/log2 as the Vulkan spec's precision table
 * allows ("inherited from exp2(x * log2(e))" etc.). */
#include <string.h>

#include "translate.h"
#include "translate_glsl_float.h"
#include "translate_graphics.h"

static uint32_t vr(struct xl_ctx *c)
{
   return ir_new_vreg(c->ir, 1);
}

static uint32_t op2(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a, uint32_t b)
{
   uint32_t d = vr(c);
   xl_op(c, op, t, d, a, b);
   return d;
}

static uint32_t op2i(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a, uint32_t imm)
{
   uint32_t d = vr(c);
   xl_op_imm(c, op, t, d, a, imm);
   return d;
}

static uint32_t ffma(struct xl_ctx *c, uint32_t a, uint32_t b, uint32_t cc)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_FFMA, PPU_TYPE_F32, d, a, b)->src[2] = cc;
   return d;
}

static uint32_t mufu(struct xl_ctx *c, enum ppu_mufu f, uint32_t a)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_MUFU, PPU_TYPE_F32, d, a, 0)->f.subop = f;
   return d;
}

static uint32_t frnd(struct xl_ctx *c, enum ppu_round r, uint32_t a)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_FRND, PPU_TYPE_F32, d, a, 0)->f.subop = r;
   return d;
}

/* P0 ? a : b */
static uint32_t sel_p0(struct xl_ctx *c, uint32_t a, uint32_t b)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, d, a, b)->f.ps = 0;
   return d;
}

static void setp(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, enum ppu_cmp cmp, uint32_t a,
                 uint32_t b)
{
   struct ir_insn *i = xl_op(c, op, t, 0, a, b);
   i->f.subop = cmp;
   i->f.pd = 0;
}

static uint32_t fsign(struct xl_ctx *c, uint32_t x)
{
   /* sign(x): 1.0, -1.0 or x itself for +-0 (and NaN). */
   uint32_t one = xl_imm32(c, 0x3f800000u), mone = xl_imm32(c, 0xbf800000u);
   setp(c, PPU_OP_FSETP, PPU_TYPE_F32, PPU_CMP_GT, x, xl_imm32(c, 0));
   uint32_t r = sel_p0(c, one, x);
   setp(c, PPU_OP_FSETP, PPU_TYPE_F32, PPU_CMP_LT, x, xl_imm32(c, 0));
   return sel_p0(c, mone, r);
}

static uint32_t ssign(struct xl_ctx *c, uint32_t x)
{
   uint32_t a = op2i(c, PPU_OP_IMIN, PPU_TYPE_S32, x, 1);
   return op2i(c, PPU_OP_IMAX, PPU_TYPE_S32, a, (uint32_t)-1);
}

static uint32_t fclamp(struct xl_ctx *c, uint32_t x, uint32_t lo, uint32_t hi)
{
   return op2(c, PPU_OP_FMIN, PPU_TYPE_F32, op2(c, PPU_OP_FMAX, PPU_TYPE_F32, x, lo), hi);
}

static uint32_t smoothstep(struct xl_ctx *c, uint32_t e0, uint32_t e1, uint32_t x)
{
   uint32_t t = op2(c, PPU_OP_FDIV, PPU_TYPE_F32, op2(c, PPU_OP_FSUB, PPU_TYPE_F32, x, e0),
                    op2(c, PPU_OP_FSUB, PPU_TYPE_F32, e1, e0));
   t = fclamp(c, t, xl_imm32(c, 0), xl_imm32(c, 0x3f800000u));
   /* t * t * (3 - 2 t) */
   uint32_t k = ffma(c, t, xl_imm32(c, 0xc0000000u), xl_imm32(c, 0x40400000u));
   return op2(c, PPU_OP_FMUL, PPU_TYPE_F32, op2(c, PPU_OP_FMUL, PPU_TYPE_F32, t, t), k);
}

static uint32_t fconst(struct xl_ctx *c, float f)
{
   uint32_t u;
   memcpy(&u, &f, sizeof(u));
   return xl_imm32(c, u);
}

static uint32_t fop(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t b)
{
   return op2(c, op, PPU_TYPE_F32, a, b);
}

/* atan on [0, 1]: odd minimax polynomial, |error| < 1e-5 rad, well inside
 * Vulkan's 4096 ULP for atan. */
static uint32_t atan_unit(struct xl_ctx *c, uint32_t t)
{
   static const float coef[] = {-0.01172120f, 0.05265332f,  -0.11643287f,
                                0.19354346f,  -0.33262347f, 0.99997726f};
   uint32_t t2 = fop(c, PPU_OP_FMUL, t, t), acc = fconst(c, coef[0]);
   for (unsigned k = 1; k < sizeof(coef) / sizeof(coef[0]); k++)
      acc = ffma(c, acc, t2, fconst(c, coef[k]));
   return fop(c, PPU_OP_FMUL, acc, t);
}

/* atan2(y, x) by octant reduction to atan_unit; 0 for (0, 0), which GLSL
 * leaves undefined. */
static uint32_t atan2_f32(struct xl_ctx *c, uint32_t y, uint32_t x)
{
   uint32_t ax = op2i(c, PPU_OP_AND, PPU_TYPE_U32, x, 0x7fffffffu);
   uint32_t ay = op2i(c, PPU_OP_AND, PPU_TYPE_U32, y, 0x7fffffffu);
   uint32_t hi = fop(c, PPU_OP_FMAX, ax, ay), lo = fop(c, PPU_OP_FMIN, ax, ay);
   setp(c, PPU_OP_FSETP, PPU_TYPE_F32, PPU_CMP_GT, hi, xl_imm32(c, 0));
   uint32_t t = sel_p0(c, fop(c, PPU_OP_FDIV, lo, hi), xl_imm32(c, 0));
   uint32_t r = atan_unit(c, t);
   setp(c, PPU_OP_FSETP, PPU_TYPE_F32, PPU_CMP_GT, ay, ax);
   r = sel_p0(c, fop(c, PPU_OP_FSUB, fconst(c, 1.57079637f), r), r);
   setp(c, PPU_OP_ISETP, PPU_TYPE_S32, PPU_CMP_LT, x, xl_imm32(c, 0)); /* sign bit of x */
   r = sel_p0(c, fop(c, PPU_OP_FSUB, fconst(c, 3.14159274f), r), r);
   uint32_t sign = op2i(c, PPU_OP_AND, PPU_TYPE_U32, y, 0x80000000u);
   return op2(c, PPU_OP_XOR, PPU_TYPE_U32, r, sign);
}

static uint32_t exp_f32(struct xl_ctx *c, uint32_t x)
{
   return mufu(c, PPU_MUFU_EX2, op2i(c, PPU_OP_FMUL, PPU_TYPE_F32, x, 0x3fb8aa3bu));
}

static uint32_t log_f32(struct xl_ctx *c, uint32_t x)
{
   return op2i(c, PPU_OP_FMUL, PPU_TYPE_F32, mufu(c, PPU_MUFU_LG2, x), 0x3f317218u);
}

/* sqrt(1 - x * x) for asin/acos. */
static uint32_t cosine_of_asin(struct xl_ctx *c, uint32_t x)
{
   uint32_t one = fconst(c, 1.0f);
   uint32_t nx = op2i(c, PPU_OP_XOR, PPU_TYPE_U32, x, 0x80000000u);
   return mufu(c, PPU_MUFU_SQRT, ffma(c, nx, x, one));
}

/* Hyperbolic functions from exp and log, as Vulkan's precision table
 * defines them (inherited from their formulas). */
static uint32_t hyperbolic(struct xl_ctx *c, uint32_t ext, uint32_t x)
{
   uint32_t one = fconst(c, 1.0f), half = fconst(c, 0.5f);
   switch (ext) {
   case SPIRV_GLSL_STD_450_Sinh:
   case SPIRV_GLSL_STD_450_Cosh: {
      uint32_t e = exp_f32(c, x), en = mufu(c, PPU_MUFU_RCP, e);
      return fop(c, PPU_OP_FMUL,
                 fop(c, ext == SPIRV_GLSL_STD_450_Sinh ? PPU_OP_FSUB : PPU_OP_FADD, e, en), half);
   }
   case SPIRV_GLSL_STD_450_Tanh: {
      /* Clamped so that e^2x stays finite; tanh(10) rounds to 1. */
      uint32_t cx = fclamp(c, x, fconst(c, -10.0f), fconst(c, 10.0f));
      uint32_t e2 = exp_f32(c, fop(c, PPU_OP_FADD, cx, cx));
      return fop(c, PPU_OP_FDIV, fop(c, PPU_OP_FSUB, e2, one), fop(c, PPU_OP_FADD, e2, one));
   }
   case SPIRV_GLSL_STD_450_Asinh: {
      uint32_t ax = op2i(c, PPU_OP_AND, PPU_TYPE_U32, x, 0x7fffffffu);
      uint32_t r =
          log_f32(c, fop(c, PPU_OP_FADD, ax, mufu(c, PPU_MUFU_SQRT, ffma(c, ax, ax, one))));
      return op2(c, PPU_OP_XOR, PPU_TYPE_U32, r, op2i(c, PPU_OP_AND, PPU_TYPE_U32, x, 0x80000000u));
   }
   case SPIRV_GLSL_STD_450_Acosh: {
      uint32_t m1 = fop(c, PPU_OP_FSUB, fop(c, PPU_OP_FMUL, x, x), one);
      return log_f32(c, fop(c, PPU_OP_FADD, x, mufu(c, PPU_MUFU_SQRT, m1)));
   }
   default: /* Atanh */
      return fop(c, PPU_OP_FMUL, half,
                 log_f32(c, fop(c, PPU_OP_FDIV, fop(c, PPU_OP_FADD, one, x),
                                fop(c, PPU_OP_FSUB, one, x))));
   }
}

/* One leaf of a component-wise instruction; args are the operands' leaves. */
static uint32_t leaf(struct xl_ctx *c, uint32_t ext, const uint32_t *x, bool *ok)
{
   const enum ppu_type F = PPU_TYPE_F32;
   switch (ext) {
   case SPIRV_GLSL_STD_450_FAbs:
      return op2i(c, PPU_OP_AND, PPU_TYPE_U32, x[0], 0x7fffffffu);
   case SPIRV_GLSL_STD_450_SAbs: {
      uint32_t d = vr(c);
      xl_op(c, PPU_OP_IABS, PPU_TYPE_S32, d, x[0], 0);
      return d;
   }
   case SPIRV_GLSL_STD_450_FSign:
      return fsign(c, x[0]);
   case SPIRV_GLSL_STD_450_SSign:
      return ssign(c, x[0]);
   case SPIRV_GLSL_STD_450_Floor:
      return frnd(c, PPU_ROUND_RM, x[0]);
   case SPIRV_GLSL_STD_450_Ceil:
      return frnd(c, PPU_ROUND_RP, x[0]);
   case SPIRV_GLSL_STD_450_Trunc:
      return frnd(c, PPU_ROUND_RZ, x[0]);
   case SPIRV_GLSL_STD_450_RoundEven:
   case SPIRV_GLSL_STD_450_Round: /* GLSL leaves the direction of .5 to the implementation */
      return frnd(c, PPU_ROUND_RN, x[0]);
   case SPIRV_GLSL_STD_450_Fract:
      return op2(c, PPU_OP_FSUB, F, x[0], frnd(c, PPU_ROUND_RM, x[0]));
   case SPIRV_GLSL_STD_450_FMin:
   case SPIRV_GLSL_STD_450_NMin:
      return op2(c, PPU_OP_FMIN, F, x[0], x[1]);
   case SPIRV_GLSL_STD_450_FMax:
   case SPIRV_GLSL_STD_450_NMax:
      return op2(c, PPU_OP_FMAX, F, x[0], x[1]);
   case SPIRV_GLSL_STD_450_UMin:
      return op2(c, PPU_OP_IMIN, PPU_TYPE_U32, x[0], x[1]);
   case SPIRV_GLSL_STD_450_SMin:
      return op2(c, PPU_OP_IMIN, PPU_TYPE_S32, x[0], x[1]);
   case SPIRV_GLSL_STD_450_UMax:
      return op2(c, PPU_OP_IMAX, PPU_TYPE_U32, x[0], x[1]);
   case SPIRV_GLSL_STD_450_SMax:
      return op2(c, PPU_OP_IMAX, PPU_TYPE_S32, x[0], x[1]);
   case SPIRV_GLSL_STD_450_FClamp:
   case SPIRV_GLSL_STD_450_NClamp:
      return fclamp(c, x[0], x[1], x[2]);
   case SPIRV_GLSL_STD_450_UClamp:
      return op2(c, PPU_OP_IMIN, PPU_TYPE_U32, op2(c, PPU_OP_IMAX, PPU_TYPE_U32, x[0], x[1]), x[2]);
   case SPIRV_GLSL_STD_450_SClamp:
      return op2(c, PPU_OP_IMIN, PPU_TYPE_S32, op2(c, PPU_OP_IMAX, PPU_TYPE_S32, x[0], x[1]), x[2]);
   case SPIRV_GLSL_STD_450_FMix:
      return ffma(c, x[2], op2(c, PPU_OP_FSUB, F, x[1], x[0]), x[0]);
   case SPIRV_GLSL_STD_450_IMix: /* FMix's x + (y - x) a, wrapping */
      return op2(
          c, PPU_OP_IADD, PPU_TYPE_U32, x[0],
          op2(c, PPU_OP_IMUL, PPU_TYPE_U32, op2(c, PPU_OP_ISUB, PPU_TYPE_U32, x[1], x[0]), x[2]));
   case SPIRV_GLSL_STD_450_Step:
      setp(c, PPU_OP_FSETP, F, PPU_CMP_LT, x[1], x[0]);
      return sel_p0(c, xl_imm32(c, 0), xl_imm32(c, 0x3f800000u));
   case SPIRV_GLSL_STD_450_SmoothStep:
      return smoothstep(c, x[0], x[1], x[2]);
   case SPIRV_GLSL_STD_450_Fma:
      return ffma(c, x[0], x[1], x[2]);
   case SPIRV_GLSL_STD_450_Sqrt:
      return mufu(c, PPU_MUFU_SQRT, x[0]);
   case SPIRV_GLSL_STD_450_InverseSqrt:
      return mufu(c, PPU_MUFU_RSQ, x[0]);
   case SPIRV_GLSL_STD_450_Exp2:
      return mufu(c, PPU_MUFU_EX2, x[0]);
   case SPIRV_GLSL_STD_450_Log2:
      return mufu(c, PPU_MUFU_LG2, x[0]);
   case SPIRV_GLSL_STD_450_Exp: /* exp2(x * log2(e)) */
      return mufu(c, PPU_MUFU_EX2, op2i(c, PPU_OP_FMUL, F, x[0], 0x3fb8aa3bu));
   case SPIRV_GLSL_STD_450_Log: /* log2(x) * ln(2) */
      return op2i(c, PPU_OP_FMUL, F, mufu(c, PPU_MUFU_LG2, x[0]), 0x3f317218u);
   case SPIRV_GLSL_STD_450_Pow:
      return mufu(c, PPU_MUFU_EX2, op2(c, PPU_OP_FMUL, F, x[1], mufu(c, PPU_MUFU_LG2, x[0])));
   case SPIRV_GLSL_STD_450_Sin:
      return mufu(c, PPU_MUFU_SIN, x[0]);
   case SPIRV_GLSL_STD_450_Cos:
      return mufu(c, PPU_MUFU_COS, x[0]);
   case SPIRV_GLSL_STD_450_Tan:
      return op2(c, PPU_OP_FDIV, F, mufu(c, PPU_MUFU_SIN, x[0]), mufu(c, PPU_MUFU_COS, x[0]));
   case SPIRV_GLSL_STD_450_Radians:
      return op2i(c, PPU_OP_FMUL, F, x[0], 0x3c8efa35u);
   case SPIRV_GLSL_STD_450_Degrees:
      return op2i(c, PPU_OP_FMUL, F, x[0], 0x42652ee1u);
   case SPIRV_GLSL_STD_450_Atan:
      return atan2_f32(c, x[0], fconst(c, 1.0f));
   case SPIRV_GLSL_STD_450_Atan2:
      return atan2_f32(c, x[0], x[1]);
   case SPIRV_GLSL_STD_450_Asin:
      return atan2_f32(c, x[0], cosine_of_asin(c, x[0]));
   case SPIRV_GLSL_STD_450_Acos:
      return atan2_f32(c, cosine_of_asin(c, x[0]), x[0]);
   case SPIRV_GLSL_STD_450_Sinh:
   case SPIRV_GLSL_STD_450_Cosh:
   case SPIRV_GLSL_STD_450_Tanh:
   case SPIRV_GLSL_STD_450_Asinh:
   case SPIRV_GLSL_STD_450_Acosh:
   case SPIRV_GLSL_STD_450_Atanh:
      return hyperbolic(c, ext, x[0]);
   case SPIRV_GLSL_STD_450_FindILsb: {
      uint32_t d = vr(c);
      xl_op(c, PPU_OP_FFS, PPU_TYPE_U32, d, x[0], 0);
      return d;
   }
   case SPIRV_GLSL_STD_450_FindUMsb:
   case SPIRV_GLSL_STD_450_FindSMsb: {
      uint32_t d = vr(c);
      xl_op(c, PPU_OP_FLO, ext == SPIRV_GLSL_STD_450_FindSMsb ? PPU_TYPE_S32 : PPU_TYPE_U32, d,
            x[0], 0);
      return d;
   }
   default:
      *ok = false;
      return 0;
   }
}

static uint32_t int_op(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, t == PPU_TYPE_S64 || t == PPU_TYPE_U64 ? 2 : 1);
   xl_op(c, op, t, d, a, b);
   return d;
}

static uint32_t int_op_imm(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a,
                           uint32_t imm)
{
   uint32_t d = ir_new_vreg(c->ir, t == PPU_TYPE_S64 || t == PPU_TYPE_U64 ? 2 : 1);
   xl_op_imm(c, op, t, d, a, imm);
   return d;
}

/* The integer functions on 64-bit and on 8/16-bit integers (the 32-bit ones
 * are in leaf()). Narrow integers live extended per their type's
 * signedness (translate_alu.c): operands are re-extended per the
 * function's signedness, computed in 32 bits, and the result re-extended
 * per the result type's. */
static uint32_t leaf_int(struct xl_ctx *c, uint32_t ext, const uint32_t *x, uint32_t argc,
                         const struct xl_scalar *rs, bool *ok)
{
   bool wide = rs->width == 64, is_signed;
   switch (ext) {
   case SPIRV_GLSL_STD_450_SAbs:
   case SPIRV_GLSL_STD_450_SSign:
   case SPIRV_GLSL_STD_450_SMin:
   case SPIRV_GLSL_STD_450_SMax:
   case SPIRV_GLSL_STD_450_SClamp:
      is_signed = true;
      break;
   case SPIRV_GLSL_STD_450_UMin:
   case SPIRV_GLSL_STD_450_UMax:
   case SPIRV_GLSL_STD_450_UClamp:
   case SPIRV_GLSL_STD_450_IMix:
      is_signed = false;
      break;
   default:
      *ok = false;
      return 0;
   }
   enum ppu_type t =
       wide ? (is_signed ? PPU_TYPE_S64 : PPU_TYPE_U64) : (is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32);
   uint32_t v[3];
   for (uint32_t a = 0; a < argc; a++)
      v[a] = wide ? x[a] : op2i(c, PPU_OP_BFE, t, x[a], rs->width << 8);
   uint32_t d;
   switch (ext) {
   case SPIRV_GLSL_STD_450_SAbs:
      d = int_op(c, PPU_OP_IABS, t, v[0], 0);
      break;
   case SPIRV_GLSL_STD_450_SSign: /* 64-bit immediates are sign-extended */
      d = int_op_imm(c, PPU_OP_IMAX, t, int_op_imm(c, PPU_OP_IMIN, t, v[0], 1), (uint32_t)-1);
      break;
   case SPIRV_GLSL_STD_450_SMin:
   case SPIRV_GLSL_STD_450_UMin:
      d = int_op(c, PPU_OP_IMIN, t, v[0], v[1]);
      break;
   case SPIRV_GLSL_STD_450_SMax:
   case SPIRV_GLSL_STD_450_UMax:
      d = int_op(c, PPU_OP_IMAX, t, v[0], v[1]);
      break;
   case SPIRV_GLSL_STD_450_SClamp:
   case SPIRV_GLSL_STD_450_UClamp:
      d = int_op(c, PPU_OP_IMIN, t, int_op(c, PPU_OP_IMAX, t, v[0], v[1]), v[2]);
      break;
   default: /* IMix */
      d = int_op(c, PPU_OP_IADD, t, v[0],
                 int_op(c, PPU_OP_IMUL, t, int_op(c, PPU_OP_ISUB, t, v[1], v[0]), v[2]));
      break;
   }
   if (!wide)
      d = op2i(c, PPU_OP_BFE, rs->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, d, rs->width << 8);
   return d;
}

/* P0 ? a : b for doubles. */
static uint32_t sel64_p0(struct xl_ctx *c, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, d, a, b)->f.ps = 0;
   return d;
}

/* The component-wise functions GLSL.std.450 allows on doubles (the
 * transcendental ones take 16- and 32-bit floats only), from the F64 forms
 * of FRND, FMIN/FMAX, FFMA, FDIV, FSETP and MUFU RCP/RSQ/SQRT (docs/isa.md). */
static uint32_t leaf64(struct xl_ctx *c, uint32_t ext, const uint32_t *x, bool *ok)
{
   const enum ppu_type D = PPU_TYPE_F64;
   const struct xl_float f = xl_float_of_width(c, 64);
   uint32_t d = ir_new_vreg(c->ir, 2);
   struct ir_insn *i;
   switch (ext) {
   case SPIRV_GLSL_STD_450_FSign: {
      /* 1.0, -1.0, or x itself for +-0 and NaN */
      uint32_t zero = xl_fconst(&f, 0.0);
      setp(c, PPU_OP_FSETP, D, PPU_CMP_GT, x[0], zero);
      uint32_t r = sel64_p0(c, xl_fconst(&f, 1.0), x[0]);
      setp(c, PPU_OP_FSETP, D, PPU_CMP_LT, x[0], zero);
      return sel64_p0(c, xl_fconst(&f, -1.0), r);
   }
   case SPIRV_GLSL_STD_450_Fract: {
      uint32_t fl = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_FRND, D, fl, x[0], 0)->f.subop = PPU_ROUND_RM;
      return xl_fop(&f, PPU_OP_FSUB, x[0], fl);
   }
   case SPIRV_GLSL_STD_450_FMix:
      return xl_ffma(&f, x[2], xl_fop(&f, PPU_OP_FSUB, x[1], x[0]), x[0]);
   case SPIRV_GLSL_STD_450_Step:
      setp(c, PPU_OP_FSETP, D, PPU_CMP_LT, x[1], x[0]);
      return sel64_p0(c, xl_fconst(&f, 0.0), xl_fconst(&f, 1.0));
   case SPIRV_GLSL_STD_450_SmoothStep: {
      uint32_t t = xl_fop(&f, PPU_OP_FDIV, xl_fop(&f, PPU_OP_FSUB, x[2], x[0]),
                          xl_fop(&f, PPU_OP_FSUB, x[1], x[0]));
      t = xl_fop(&f, PPU_OP_FMIN, xl_fop(&f, PPU_OP_FMAX, t, xl_fconst(&f, 0.0)),
                 xl_fconst(&f, 1.0));
      uint32_t k = xl_ffma(&f, t, xl_fconst(&f, -2.0), xl_fconst(&f, 3.0));
      return xl_fop(&f, PPU_OP_FMUL, xl_fop(&f, PPU_OP_FMUL, t, t), k);
   }
   case SPIRV_GLSL_STD_450_FAbs: {
      /* Clear the sign bit: x & ~(1 << 63). */
      uint32_t mask = ir_new_vreg(c->ir, 2);
      xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U64, mask, 0, 1);
      xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U64, mask, mask, 63);
      xl_op(c, PPU_OP_NOT, PPU_TYPE_U64, mask, mask, 0);
      xl_op(c, PPU_OP_AND, PPU_TYPE_U64, d, x[0], mask);
      return d;
   }
   case SPIRV_GLSL_STD_450_Floor:
   case SPIRV_GLSL_STD_450_Ceil:
   case SPIRV_GLSL_STD_450_Trunc:
   case SPIRV_GLSL_STD_450_RoundEven:
   case SPIRV_GLSL_STD_450_Round:
      i = xl_op(c, PPU_OP_FRND, D, d, x[0], 0);
      i->f.subop = ext == SPIRV_GLSL_STD_450_Floor   ? PPU_ROUND_RM
                   : ext == SPIRV_GLSL_STD_450_Ceil  ? PPU_ROUND_RP
                   : ext == SPIRV_GLSL_STD_450_Trunc ? PPU_ROUND_RZ
                                                     : PPU_ROUND_RN;
      return d;
   case SPIRV_GLSL_STD_450_FMin:
   case SPIRV_GLSL_STD_450_NMin:
      xl_op(c, PPU_OP_FMIN, D, d, x[0], x[1]);
      return d;
   case SPIRV_GLSL_STD_450_FMax:
   case SPIRV_GLSL_STD_450_NMax:
      xl_op(c, PPU_OP_FMAX, D, d, x[0], x[1]);
      return d;
   case SPIRV_GLSL_STD_450_FClamp:
   case SPIRV_GLSL_STD_450_NClamp: {
      uint32_t t = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_FMAX, D, t, x[0], x[1]);
      xl_op(c, PPU_OP_FMIN, D, d, t, x[2]);
      return d;
   }
   case SPIRV_GLSL_STD_450_Fma:
      xl_op(c, PPU_OP_FFMA, D, d, x[0], x[1])->src[2] = x[2];
      return d;
   case SPIRV_GLSL_STD_450_Sqrt:
   case SPIRV_GLSL_STD_450_InverseSqrt:
      xl_op(c, PPU_OP_MUFU, D, d, x[0], 0)->f.subop =
          ext == SPIRV_GLSL_STD_450_Sqrt ? PPU_MUFU_SQRT : PPU_MUFU_RSQ;
      return d;
   default:
      *ok = false;
      return d;
   }
}

/* Packing (GLSL.std.450 54-64, GLSL 8.4 "Floating-Point Pack and Unpack
 * Functions"): components of `bits` bits, component 0 in the low bits. */
struct pack_format {
   uint32_t ext_pack, ext_unpack;
   uint32_t count, bits;
   bool is_signed, is_half;
};

static const struct pack_format pack_formats[] = {
    {SPIRV_GLSL_STD_450_PackUnorm4x8, SPIRV_GLSL_STD_450_UnpackUnorm4x8, 4, 8, false, false},
    {SPIRV_GLSL_STD_450_PackSnorm4x8, SPIRV_GLSL_STD_450_UnpackSnorm4x8, 4, 8, true, false},
    {SPIRV_GLSL_STD_450_PackUnorm2x16, SPIRV_GLSL_STD_450_UnpackUnorm2x16, 2, 16, false, false},
    {SPIRV_GLSL_STD_450_PackSnorm2x16, SPIRV_GLSL_STD_450_UnpackSnorm2x16, 2, 16, true, false},
    {SPIRV_GLSL_STD_450_PackHalf2x16, SPIRV_GLSL_STD_450_UnpackHalf2x16, 2, 16, false, true},
};

static uint32_t cvt(struct xl_ctx *c, enum ppu_type dst, enum ppu_type src, enum ppu_round r,
                    uint32_t a)
{
   uint32_t d = vr(c);
   struct ir_insn *i = xl_op(c, PPU_OP_CVT, dst, d, a, 0);
   i->f.type2 = (uint8_t)src;
   i->f.subop = r;
   return d;
}

static bool pack_unpack(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext,
                        struct xl_val arg)
{
   const struct pack_format *pf = NULL;
   bool pack = false;
   for (unsigned k = 0; k < sizeof(pack_formats) / sizeof(pack_formats[0]); k++) {
      if (pack_formats[k].ext_pack == ext || pack_formats[k].ext_unpack == ext) {
         pf = &pack_formats[k];
         pack = pf->ext_pack == ext;
      }
   }
   if (!pf)
      return false;
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return true;
   float scale =
       pf->is_signed ? (float)((1u << (pf->bits - 1)) - 1) : (float)((1u << pf->bits) - 1);
   uint32_t mask = (1u << pf->bits) - 1;
   if (pack) {
      uint32_t acc = 0;
      for (uint32_t k = 0; k < pf->count; k++) {
         uint32_t x = xl_comp(c, arg, k), part;
         if (pf->is_half) {
            part = cvt(c, PPU_TYPE_F16, PPU_TYPE_F32, PPU_ROUND_RN, x);
         } else {
            /* round(clamp(x, lo, 1) * scale), as GLSL specifies. */
            uint32_t cl = fclamp(c, x, fconst(c, pf->is_signed ? -1.0f : 0.0f), fconst(c, 1.0f));
            uint32_t scaled = fop(c, PPU_OP_FMUL, cl, fconst(c, scale));
            part = cvt(c, pf->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, PPU_TYPE_F32, PPU_ROUND_RN,
                       scaled);
         }
         part = op2i(c, PPU_OP_AND, PPU_TYPE_U32, part, mask);
         if (k)
            part = op2i(c, PPU_OP_SHL, PPU_TYPE_U32, part, k * pf->bits);
         acc = acc ? op2(c, PPU_OP_OR, PPU_TYPE_U32, acc, part) : part;
      }
      xl_mov(c, xl_comp(c, d, 0), acc, 1);
   } else {
      uint32_t u = xl_comp(c, arg, 0);
      for (uint32_t k = 0; k < pf->count; k++) {
         uint32_t field = op2i(c, PPU_OP_BFE, pf->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, u,
                               k * pf->bits | pf->bits << 8);
         uint32_t r;
         if (pf->is_half) {
            r = cvt(c, PPU_TYPE_F32, PPU_TYPE_F16, PPU_ROUND_RN, field);
         } else {
            uint32_t f = cvt(c, PPU_TYPE_F32, pf->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32,
                             PPU_ROUND_RN, field);
            r = fop(c, PPU_OP_FDIV, f, fconst(c, scale));
            if (pf->is_signed) /* -128 / 127 clamps to -1 */
               r = fop(c, PPU_OP_FMAX, r, fconst(c, -1.0f));
         }
         xl_mov(c, xl_comp(c, d, k), r, 1);
      }
   }
   xl_set(c, inst->result_id, d);
   return true;
}

bool xl_translate_glsl(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (inst->opcode != SPIRV_OP_ExtInst ||
       spirv_ext_inst_set_kind(c->m, xl_word(c, inst, 0)) != SPIRV_EXT_INST_SET_GLSL_STD_450)
      return false;
   uint32_t ext = xl_word(c, inst, 1);
   if (ext == SPIRV_GLSL_STD_450_InterpolateAtCentroid ||
       ext == SPIRV_GLSL_STD_450_InterpolateAtSample ||
       ext == SPIRV_GLSL_STD_450_InterpolateAtOffset) {
      xl_fragment_interpolate(c, inst, ext);
      return true;
   }
   if (xl_glsl_matrix(c, inst, ext) || xl_glsl_float(c, inst, ext))
      return true;
   /* The rest are component-wise, or pack and unpack. */
   uint32_t argc = inst->operand_count - 2;
   struct xl_val args[3] = {{0}};
   struct xl_scalar s;
   const struct spirv_ext_inst_info *info = spirv_glsl_std_450_info(ext);
   const char *name = info ? info->name : "?";
   if (argc > 3 || !xl_scalar_of(c, inst->result_type, &s) || s.is_bool) {
      xl_fail(c, "GLSL.std.450 %s: result type is not a number or vector of numbers", name);
      return true;
   }
   for (uint32_t k = 0; k < argc; k++)
      args[k] = xl_get(c, xl_word(c, inst, 2 + k));
   if (c->failed || (argc == 1 && pack_unpack(c, inst, ext, args[0])))
      return true;
   bool narrow_int = !s.is_float && s.width < 32;
   if (s.is_float && s.width == 16) {
      xl_fail(c, "unsupported: GLSL.std.450 %s on 16-bit floats (shaderFloat16 is not reported)",
              name);
      return true;
   }
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t a = 0; a < argc; a++) {
      struct xl_scalar as;
      if (!xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, inst, 2 + a)), &as) ||
          as.is_float != s.is_float || as.width != s.width ||
          (args[a].count != 1 && args[a].count != d.count)) {
         xl_fail(c, "GLSL.std.450 %s: operand %u does not match the result type", name, a);
         return true;
      }
   }
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t x[3] = {0};
      for (uint32_t a = 0; a < argc; a++)
         x[a] = xl_comp(c, args[a], args[a].count == 1 ? 0 : k);
      bool ok = true;
      uint32_t r = s.is_float && s.width == 64   ? leaf64(c, ext, x, &ok)
                   : s.width == 64 || narrow_int ? leaf_int(c, ext, x, argc, &s, &ok)
                                                 : leaf(c, ext, x, &ok);
      if (!ok) {
         xl_fail(c, "unsupported GLSL.std.450 instruction %s on %u-bit %s", name, s.width,
                 s.is_float ? "floats" : "integers");
         return true;
      }
      xl_mov(c, xl_comp(c, d, k), r, s.width == 64 ? 2 : 1);
   }
   xl_set(c, inst->result_id, d);
   return true;
}
