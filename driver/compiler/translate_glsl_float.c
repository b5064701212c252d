/* GLSL.std.450 instructions written once for 32- and 64-bit floats
 * (translate_glsl_float.h): the geometric functions, the ones that take a
 * float apart (Modf, Frexp, Ldexp) and PackDouble2x32/UnpackDouble2x32.
 * The front end checks only the operand count of extended instructions, so
 * every operand's type is checked here before its leaves are used. */
#include <math.h>
#include <string.h>

#include "translate_glsl_float.h"

struct xl_float xl_float_of_width(struct xl_ctx *c, uint32_t width)
{
   struct xl_float f = {c, width == 64 ? PPU_TYPE_F64 : PPU_TYPE_F32, width == 64 ? 2u : 1u};
   return f;
}

static uint32_t fnew(const struct xl_float *f)
{
   return ir_new_vreg(f->c->ir, f->regs);
}

uint32_t xl_fop(const struct xl_float *f, enum ppu_op op, uint32_t a, uint32_t b)
{
   uint32_t d = fnew(f);
   xl_op(f->c, op, f->type, d, a, b);
   return d;
}

uint32_t xl_ffma(const struct xl_float *f, uint32_t a, uint32_t b, uint32_t addend)
{
   uint32_t d = fnew(f);
   xl_op(f->c, PPU_OP_FFMA, f->type, d, a, b)->src[2] = addend;
   return d;
}

uint32_t xl_fconst(const struct xl_float *f, double v)
{
   if (f->regs == 1) {
      float x = (float)v;
      uint32_t u;
      memcpy(&u, &x, sizeof(u));
      return xl_imm32(f->c, u);
   }
   uint64_t u;
   memcpy(&u, &v, sizeof(u));
   return xl_pair_of(f->c, xl_imm32(f->c, (uint32_t)u), xl_imm32(f->c, (uint32_t)(u >> 32)));
}

/* The sign bit flipped or cleared (not arithmetic, so NaNs and zeros keep
 * their payload, as GLSL's abs and unary minus do on IEEE values). */
static uint32_t sign_op(const struct xl_float *f, enum ppu_op op, uint32_t a, uint32_t mask)
{
   struct xl_ctx *c = f->c;
   uint32_t hi = f->regs == 2 ? xl_half_of(c, a, 1) : a, d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, op, PPU_TYPE_U32, d, hi, mask);
   return f->regs == 2 ? xl_pair_of(c, xl_half_of(c, a, 0), d) : d;
}

uint32_t xl_fneg(const struct xl_float *f, uint32_t a)
{
   return sign_op(f, PPU_OP_XOR, a, 0x80000000u);
}

static uint32_t fabs_of(const struct xl_float *f, uint32_t a)
{
   return sign_op(f, PPU_OP_AND, a, 0x7fffffffu);
}

uint32_t xl_fdot(const struct xl_float *f, struct xl_val a, struct xl_val b, uint32_t n)
{
   uint32_t acc = xl_fop(f, PPU_OP_FMUL, xl_comp(f->c, a, 0), xl_comp(f->c, b, 0));
   for (uint32_t k = 1; k < n; k++)
      acc = xl_ffma(f, xl_comp(f->c, a, k), xl_comp(f->c, b, k), acc);
   return acc;
}

static void fsetp(const struct xl_float *f, enum ppu_cmp cmp, uint32_t a, uint32_t b)
{
   struct ir_insn *i = xl_op(f->c, PPU_OP_FSETP, f->type, 0, a, b);
   i->f.subop = cmp;
   i->f.pd = 0;
}

/* P0 = cmp(a, b) for 32-bit integers; with `and_p0` ANDed with P0. */
static void isetp(struct xl_ctx *c, enum ppu_type t, enum ppu_cmp cmp, uint32_t a, uint32_t b,
                  bool and_p0)
{
   struct ir_insn *i = xl_op(c, PPU_OP_ISETP, t, 0, a, b);
   i->f.subop = cmp;
   i->f.pd = 0;
   if (and_p0)
      i->f.ps = 0;
}

/* P0 ? a : b, for values of `regs` registers. */
static uint32_t sel_p0(struct xl_ctx *c, unsigned regs, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, regs);
   xl_op(c, PPU_OP_SEL, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, d, a, b)->f.ps = 0;
   return d;
}

static uint32_t iop(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, t == PPU_TYPE_U64 || t == PPU_TYPE_S64 ? 2 : 1);
   xl_op(c, op, t, d, a, b);
   return d;
}

static uint32_t iopi(struct xl_ctx *c, enum ppu_op op, enum ppu_type t, uint32_t a, uint32_t imm)
{
   uint32_t d = ir_new_vreg(c->ir, t == PPU_TYPE_U64 || t == PPU_TYPE_S64 ? 2 : 1);
   xl_op_imm(c, op, t, d, a, imm);
   return d;
}

/* ---------------------------------------------------------------------------
 * Operand checks
 * ------------------------------------------------------------------------- */

static uint32_t operand_type(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i)
{
   return spirv_id_type(c->m, xl_word(c, inst, 2 + i));
}

/* A float scalar or vector type of `width` bits with `count` components. */
static bool is_float_type(struct xl_ctx *c, uint32_t type, uint32_t width, uint32_t count)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   struct xl_scalar s;
   if (!t || (t->kind != SPIRV_TYPE_FLOAT && t->kind != SPIRV_TYPE_VECTOR))
      return false;
   return xl_scalar_of(c, type, &s) && s.is_float && s.width == width &&
          xl_leaf_count(c, type) == count;
}

/* An integer scalar or vector type with `count` components. */
static bool is_int_type(struct xl_ctx *c, uint32_t type, uint32_t count, struct xl_scalar *s)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t || (t->kind != SPIRV_TYPE_INT && t->kind != SPIRV_TYPE_VECTOR))
      return false;
   return xl_scalar_of(c, type, s) && !s->is_float && !s->is_bool &&
          xl_leaf_count(c, type) == count;
}

/* Member `index` of a two-member struct type, 0 if type is no such struct. */
static uint32_t pair_member(struct xl_ctx *c, uint32_t type, uint32_t index)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   if (!t || t->kind != SPIRV_TYPE_STRUCT || t->u.structure.member_count != 2)
      return 0;
   return spirv_struct_member_type(c->m, type, index);
}

/* The writable memory behind pointer operand i, whose pointee must be
 * `type`; NULL after xl_fail otherwise. */
static const struct xl_ptr *out_pointer(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i,
                                        uint32_t *type)
{
   const struct spirv_type *pt = spirv_type(c->m, operand_type(c, inst, i));
   if (!pt || pt->kind != SPIRV_TYPE_POINTER) {
      xl_fail(c, "GLSL.std.450 operand %u is not a pointer", i);
      return NULL;
   }
   const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 2 + i));
   if (!p)
      return NULL;
   if (p->kind == XL_PTR_BUILTIN || p->kind == XL_PTR_PUSH || p->kind == XL_PTR_ACCEL ||
       p->kind == XL_PTR_IMAGE || p->kind == XL_PTR_TEXEL) {
      xl_fail(c, "GLSL.std.450 result stored to read-only memory");
      return NULL;
   }
   *type = pt->u.pointer.pointee_type;
   return p;
}

/* ---------------------------------------------------------------------------
 * Geometric functions (GLSL 4.60 section 8.5)
 * ------------------------------------------------------------------------- */

static bool geometric(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext, uint32_t width,
                      uint32_t n)
{
   const struct xl_float f = xl_float_of_width(c, width);
   uint32_t argc = inst->operand_count - 2;
   uint32_t vec_type = operand_type(c, inst, 0);
   bool scalar_result = ext == SPIRV_GLSL_STD_450_Length || ext == SPIRV_GLSL_STD_450_Distance;
   for (uint32_t a = 0; a < argc; a++) {
      bool eta = ext == SPIRV_GLSL_STD_450_Refract && a == 2;
      if (!eta && operand_type(c, inst, a) != vec_type) {
         xl_fail(c, "GLSL.std.450 operands of different types");
         return true;
      }
   }
   if (inst->result_type != (scalar_result ? spirv_type_scalar(c->m, vec_type) : vec_type) ||
       (ext == SPIRV_GLSL_STD_450_Cross && n != 3)) {
      xl_fail(c, "GLSL.std.450 result type does not match its operands");
      return true;
   }
   struct xl_val a = xl_get(c, xl_word(c, inst, 2));
   struct xl_val b = argc > 1 ? xl_get(c, xl_word(c, inst, 3)) : a;
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return true;
   switch (ext) {
   case SPIRV_GLSL_STD_450_Length:
   case SPIRV_GLSL_STD_450_Distance: {
      struct xl_val v = a;
      if (ext == SPIRV_GLSL_STD_450_Distance) {
         v = xl_new_val(c, vec_type);
         for (uint32_t k = 0; k < n; k++)
            xl_op(c, PPU_OP_FSUB, f.type, xl_comp(c, v, k), xl_comp(c, a, k), xl_comp(c, b, k));
      }
      /* A scalar's length is its magnitude: sqrt(x * x) would overflow. */
      uint32_t r = n == 1 ? fabs_of(&f, xl_comp(c, v, 0)) : 0;
      if (n > 1) {
         r = fnew(&f);
         xl_op(c, PPU_OP_MUFU, f.type, r, xl_fdot(&f, v, v, n), 0)->f.subop = PPU_MUFU_SQRT;
      }
      xl_mov(c, xl_comp(c, d, 0), r, f.regs);
      break;
   }
   case SPIRV_GLSL_STD_450_Normalize: {
      uint32_t r = fnew(&f);
      xl_op(c, PPU_OP_MUFU, f.type, r, xl_fdot(&f, a, a, n), 0)->f.subop = PPU_MUFU_RSQ;
      for (uint32_t k = 0; k < n; k++)
         xl_op(c, PPU_OP_FMUL, f.type, xl_comp(c, d, k), xl_comp(c, a, k), r);
      break;
   }
   case SPIRV_GLSL_STD_450_Cross:
      for (uint32_t k = 0; k < 3; k++) {
         uint32_t i1 = (k + 1) % 3, i2 = (k + 2) % 3;
         uint32_t m = xl_fop(&f, PPU_OP_FMUL, xl_comp(c, a, i2), xl_comp(c, b, i1));
         uint32_t p = xl_fop(&f, PPU_OP_FMUL, xl_comp(c, a, i1), xl_comp(c, b, i2));
         xl_op(c, PPU_OP_FSUB, f.type, xl_comp(c, d, k), p, m);
      }
      break;
   case SPIRV_GLSL_STD_450_Reflect: {
      /* I - 2 dot(N, I) N */
      uint32_t dot = xl_fdot(&f, b, a, n);
      uint32_t m2 = xl_fop(&f, PPU_OP_FMUL, dot, xl_fconst(&f, -2.0));
      for (uint32_t k = 0; k < n; k++)
         xl_op(c, PPU_OP_FFMA, f.type, xl_comp(c, d, k), m2, xl_comp(c, b, k))->src[2] =
             xl_comp(c, a, k);
      break;
   }
   case SPIRV_GLSL_STD_450_FaceForward: {
      /* dot(Nref, I) < 0 ? N : -N */
      struct xl_val nref = xl_get(c, xl_word(c, inst, 4));
      uint32_t dot = xl_fdot(&f, nref, b, n), zero = xl_fconst(&f, 0.0);
      for (uint32_t k = 0; k < n; k++) {
         uint32_t neg = xl_fneg(&f, xl_comp(c, a, k));
         fsetp(&f, PPU_CMP_LT, dot, zero);
         xl_mov(c, xl_comp(c, d, k), sel_p0(c, f.regs, xl_comp(c, a, k), neg), f.regs);
      }
      break;
   }
   default: { /* Refract */
      /* k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
      uint32_t eta_type = operand_type(c, inst, 2);
      struct xl_scalar es;
      const struct spirv_type *et = spirv_type(c->m, eta_type);
      if (!et || et->kind != SPIRV_TYPE_FLOAT || !xl_scalar_of(c, eta_type, &es)) {
         xl_fail(c, "GLSL.std.450 Refract: eta is not a float scalar");
         return true;
      }
      uint32_t eta = xl_comp(c, xl_get(c, xl_word(c, inst, 4)), 0);
      if (es.width == 16) { /* halves are held as F16 bits (translate_alu.c) */
         uint32_t e32 = ir_new_vreg(c->ir, 1);
         struct ir_insn *i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, e32, eta, 0);
         i->f.type2 = PPU_TYPE_F16;
         eta = e32;
      }
      if ((es.width == 64) != (width == 64)) {
         uint32_t e = fnew(&f);
         struct ir_insn *i = xl_op(c, PPU_OP_CVT, f.type, e, eta, 0);
         i->f.type2 = width == 64 ? PPU_TYPE_F32 : PPU_TYPE_F64;
         i->f.subop = PPU_ROUND_RN;
         eta = e;
      }
      uint32_t one = xl_fconst(&f, 1.0), dni = xl_fdot(&f, b, a, n);
      uint32_t t = xl_ffma(&f, xl_fneg(&f, dni), dni, one);
      uint32_t e2 = xl_fop(&f, PPU_OP_FMUL, eta, eta);
      uint32_t k = xl_ffma(&f, xl_fneg(&f, e2), t, one), s = fnew(&f);
      xl_op(c, PPU_OP_MUFU, f.type, s, k, 0)->f.subop = PPU_MUFU_SQRT;
      uint32_t m = xl_fneg(&f, xl_ffma(&f, eta, dni, s)), zero = xl_fconst(&f, 0.0);
      for (uint32_t j = 0; j < n; j++) {
         uint32_t r =
             xl_ffma(&f, m, xl_comp(c, b, j), xl_fop(&f, PPU_OP_FMUL, eta, xl_comp(c, a, j)));
         fsetp(&f, PPU_CMP_LT, k, zero);
         xl_mov(c, xl_comp(c, d, j), sel_p0(c, f.regs, zero, r), f.regs);
      }
      break;
   }
   }
   xl_set(c, inst->result_id, d);
   return true;
}

/* ---------------------------------------------------------------------------
 * Modf, Frexp, Ldexp (GLSL 4.60 sections 8.3 and 8.4)
 * ------------------------------------------------------------------------- */

/* modf: the whole part trunc(x), and x - trunc(x) with the sign of x (so
 * -0.0 for negative integers) that is +-0 for +-inf, as GLSL requires;
 * NaN gives NaN. */
static void modf_leaf(const struct xl_float *f, uint32_t x, uint32_t *frac, uint32_t *whole)
{
   struct xl_ctx *c = f->c;
   enum ppu_type bits = f->regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32;
   *whole = fnew(f);
   xl_op(c, PPU_OP_FRND, f->type, *whole, x, 0)->f.subop = PPU_ROUND_RZ;
   uint32_t sign = iop(c, PPU_OP_AND, bits, x, xl_fconst(f, -0.0));
   uint32_t r = iop(c, PPU_OP_OR, bits, xl_fop(f, PPU_OP_FSUB, x, *whole), sign);
   fsetp(f, PPU_CMP_EQ, fabs_of(f, x), xl_fconst(f, INFINITY));
   *frac = sel_p0(c, f->regs, sign, r);
}

/* frexp: x = significand * 2^exponent with |significand| in [0.5, 1).
 * Subnormals are first scaled by 2^32 (2^64) so that their exponent field
 * holds the exponent; zero, inf and NaN give x itself and exponent 0 (GLSL
 * leaves the exponent of inf and NaN undefined). */
static void frexp_leaf(const struct xl_float *f, uint32_t x, uint32_t *sig, uint32_t *expo)
{
   struct xl_ctx *c = f->c;
   bool dbl = f->regs == 2;
   /* Field positions of IEEE binary32 / binary64 (in the high word). */
   uint32_t mbits = dbl ? 20 : 23, ebits = dbl ? 11 : 8, bias = dbl ? 1022 : 126;
   uint32_t scale = dbl ? 64 : 32;
   uint32_t hi = dbl ? xl_half_of(c, x, 1) : x;
   uint32_t ahi = iopi(c, PPU_OP_AND, PPU_TYPE_U32, hi, 0x7fffffffu);
   isetp(c, PPU_TYPE_U32, PPU_CMP_LT, ahi, xl_imm32(c, 1u << mbits), false);
   uint32_t scaled = xl_fop(f, PPU_OP_FMUL, x, xl_fconst(f, ldexp(1.0, (int)scale)));
   uint32_t xs = sel_p0(c, f->regs, scaled, x);
   uint32_t b = sel_p0(c, 1, xl_imm32(c, bias + scale), xl_imm32(c, bias));
   uint32_t hs = dbl ? xl_half_of(c, xs, 1) : xs;
   uint32_t e = iopi(c, PPU_OP_BFE, PPU_TYPE_U32, hs, mbits | ebits << 8);
   uint32_t ex = iop(c, PPU_OP_ISUB, PPU_TYPE_S32, e, b);
   /* Keep sign and mantissa, set the exponent field of 0.5. */
   uint32_t keep = iopi(c, PPU_OP_AND, PPU_TYPE_U32, hs, 0x80000000u | ((1u << mbits) - 1));
   uint32_t shi = iopi(c, PPU_OP_OR, PPU_TYPE_U32, keep, bias << mbits);
   uint32_t s = dbl ? xl_pair_of(c, xl_half_of(c, xs, 0), shi) : shi;
   /* Zero (both words 0) and inf/NaN keep x and exponent 0. */
   isetp(c, PPU_TYPE_U32, PPU_CMP_EQ, ahi, xl_imm32(c, 0), false);
   if (dbl)
      isetp(c, PPU_TYPE_U32, PPU_CMP_EQ, xl_half_of(c, x, 0), xl_imm32(c, 0), true);
   s = sel_p0(c, f->regs, x, s);
   ex = sel_p0(c, 1, xl_imm32(c, 0), ex);
   isetp(c, PPU_TYPE_U32, PPU_CMP_GE, ahi, xl_imm32(c, ((1u << ebits) - 1) << mbits), false);
   *sig = sel_p0(c, f->regs, x, s);
   *expo = sel_p0(c, 1, xl_imm32(c, 0), ex);
}

/* A 32-bit signed value as an integer leaf of scalar type s. */
static uint32_t int_from_s32(struct xl_ctx *c, uint32_t v, const struct xl_scalar *s)
{
   if (s->width == 64) {
      uint32_t d = ir_new_vreg(c->ir, 2);
      struct ir_insn *i = xl_op(c, PPU_OP_CVT, PPU_TYPE_S64, d, v, 0);
      i->f.type2 = PPU_TYPE_S32;
      return d;
   }
   if (s->width < 32) /* narrow integers are kept extended per their type */
      return iopi(c, PPU_OP_BFE, s->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, v, s->width << 8);
   return v;
}

/* An integer leaf of type s as a 32-bit signed value in [-limit, limit]. */
static uint32_t clamped_s32(struct xl_ctx *c, uint32_t v, const struct xl_scalar *s, uint32_t limit)
{
   enum ppu_type t = s->width == 64 ? PPU_TYPE_S64 : PPU_TYPE_S32;
   if (!s->is_signed && s->width >= 32) {
      /* Unsigned: a huge value must not turn negative. */
      enum ppu_type u = s->width == 64 ? PPU_TYPE_U64 : PPU_TYPE_U32;
      v = iopi(c, PPU_OP_IMIN, u, v, limit);
   }
   v = iopi(c, PPU_OP_IMAX, t, iopi(c, PPU_OP_IMIN, t, v, limit), (uint32_t) - (int32_t)limit);
   return s->width == 64 ? xl_half_of(c, v, 0) : v;
}

/* ldexp: x * 2^e rounded once, as Vulkan requires ("correctly rounded";
 * subnormals included, since shaderDenormPreserveFloat32/64 are reported).
 * A subnormal x is first scaled by 2^32 (2^64), exactly, and e lowered to
 * match. Then the result's biased exponent E = exponent field + e decides:
 * E in 1..max-1 is x with E in its exponent field (exact, no rounding);
 * E at or above the all-ones field is inf with x's sign; E <= 0 is x with
 * E + K in its field times 2^-K for K = bias - 1 (the one multiply that
 * rounds into the subnormal range), with E first raised to the point below
 * which everything rounds to zero (so E + K stays a normal field). Zero, inf
 * and NaN give x. e is clamped to +-4096 first, beyond any result's reach,
 * so the 32-bit sums cannot overflow. */
static uint32_t ldexp_leaf(const struct xl_float *f, uint32_t x, uint32_t e,
                           const struct xl_scalar *es)
{
   struct xl_ctx *c = f->c;
   bool dbl = f->regs == 2;
   /* IEEE binary32 / binary64 (the high word's) exponent field. */
   uint32_t mbits = dbl ? 20 : 23, ebits = dbl ? 11 : 8, scale = dbl ? 64 : 32;
   uint32_t all_ones = (1u << ebits) - 1, k = all_ones / 2 - 1; /* 126 / 1022 */
   /* Below this E (with a mantissa of 1.0 at most half the smallest
    * subnormal) the result rounds to zero. */
   int32_t lowest = -(int32_t)(dbl ? 53 : 24);
   uint32_t ec = clamped_s32(c, e, es, 4096);
   uint32_t hi = dbl ? xl_half_of(c, x, 1) : x;
   uint32_t ahi = iopi(c, PPU_OP_AND, PPU_TYPE_U32, hi, 0x7fffffffu);
   isetp(c, PPU_TYPE_U32, PPU_CMP_LT, ahi, xl_imm32(c, 1u << mbits), false);
   uint32_t scaled = xl_fop(f, PPU_OP_FMUL, x, xl_fconst(f, ldexp(1.0, (int)scale)));
   uint32_t xs = sel_p0(c, f->regs, scaled, x);
   ec = sel_p0(c, 1, iopi(c, PPU_OP_ISUB, PPU_TYPE_S32, ec, scale), ec);
   uint32_t hs = dbl ? xl_half_of(c, xs, 1) : xs;
   uint32_t field = iopi(c, PPU_OP_BFE, PPU_TYPE_U32, hs, mbits | ebits << 8);
   uint32_t big_e = iopi(c, PPU_OP_IMAX, PPU_TYPE_S32, iop(c, PPU_OP_IADD, PPU_TYPE_S32, field, ec),
                         (uint32_t)lowest);
   /* E <= 0: field E + K and a factor 2^-K; else field E and 1.0. */
   isetp(c, PPU_TYPE_S32, PPU_CMP_LE, big_e, xl_imm32(c, 0), false);
   uint32_t shifted = sel_p0(c, 1, iopi(c, PPU_OP_IADD, PPU_TYPE_S32, big_e, k), big_e);
   uint32_t factor = sel_p0(c, f->regs, xl_fconst(f, ldexp(1.0, -(int)k)), xl_fconst(f, 1.0));
   uint32_t keep = iopi(c, PPU_OP_AND, PPU_TYPE_U32, hs, 0x80000000u | ((1u << mbits) - 1));
   uint32_t yhi =
       iop(c, PPU_OP_OR, PPU_TYPE_U32, keep, iopi(c, PPU_OP_SHL, PPU_TYPE_U32, shifted, mbits));
   uint32_t y = dbl ? xl_pair_of(c, xl_half_of(c, xs, 0), yhi) : yhi;
   uint32_t r = xl_fop(f, PPU_OP_FMUL, y, factor);
   /* Overflow: inf with x's sign. */
   uint32_t inf_hi = iopi(c, PPU_OP_OR, PPU_TYPE_U32,
                          iopi(c, PPU_OP_AND, PPU_TYPE_U32, hs, 0x80000000u), all_ones << mbits);
   uint32_t inf = dbl ? xl_pair_of(c, xl_imm32(c, 0), inf_hi) : inf_hi;
   isetp(c, PPU_TYPE_S32, PPU_CMP_GE, big_e, xl_imm32(c, all_ones), false);
   r = sel_p0(c, f->regs, inf, r);
   /* Zero (both words 0), inf and NaN: x. */
   isetp(c, PPU_TYPE_U32, PPU_CMP_EQ, ahi, xl_imm32(c, 0), false);
   if (dbl)
      isetp(c, PPU_TYPE_U32, PPU_CMP_EQ, xl_half_of(c, x, 0), xl_imm32(c, 0), true);
   r = sel_p0(c, f->regs, x, r);
   isetp(c, PPU_TYPE_U32, PPU_CMP_GE, ahi, xl_imm32(c, all_ones << mbits), false);
   return sel_p0(c, f->regs, x, r);
}

static bool split_float(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext,
                        uint32_t width, uint32_t n)
{
   const struct xl_float f = xl_float_of_width(c, width);
   uint32_t xt = operand_type(c, inst, 0);
   bool is_struct = ext == SPIRV_GLSL_STD_450_ModfStruct || ext == SPIRV_GLSL_STD_450_FrexpStruct;
   bool is_modf = ext == SPIRV_GLSL_STD_450_Modf || ext == SPIRV_GLSL_STD_450_ModfStruct;
   /* The second result: Modf's whole part (x's type), Frexp's exponent. */
   uint32_t second_type = 0;
   const struct xl_ptr *out = NULL;
   if (is_struct) {
      if (pair_member(c, inst->result_type, 0) != xt) {
         xl_fail(c, "GLSL.std.450 result type does not match its operands");
         return true;
      }
      second_type = pair_member(c, inst->result_type, 1);
   } else if (ext != SPIRV_GLSL_STD_450_Ldexp) {
      if (inst->result_type != xt) {
         xl_fail(c, "GLSL.std.450 result type does not match its operands");
         return true;
      }
      out = out_pointer(c, inst, 1, &second_type);
      if (!out)
         return true;
   } else {
      second_type = operand_type(c, inst, 1);
      if (inst->result_type != xt) {
         xl_fail(c, "GLSL.std.450 result type does not match its operands");
         return true;
      }
   }
   struct xl_scalar is = {0};
   if (is_modf ? second_type != xt : !is_int_type(c, second_type, n, &is)) {
      xl_fail(c, "GLSL.std.450 %s: wrong type of the second result or operand",
              is_modf ? "Modf" : "Frexp/Ldexp");
      return true;
   }
   struct xl_val x = xl_get(c, xl_word(c, inst, 2));
   struct xl_val e = ext == SPIRV_GLSL_STD_450_Ldexp ? xl_get(c, xl_word(c, inst, 3)) : x;
   struct xl_val d = xl_new_val(c, inst->result_type);
   struct xl_val second = out ? xl_new_val(c, second_type) : d;
   if (c->failed)
      return true;
   /* A struct result holds the first member's n leaves, then the second's. */
   uint32_t second_first = is_struct ? n : 0;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t xk = xl_comp(c, x, k), r0, r1;
      if (ext == SPIRV_GLSL_STD_450_Ldexp) {
         xl_mov(c, xl_comp(c, d, k), ldexp_leaf(&f, xk, xl_comp(c, e, k), &is), f.regs);
         continue;
      }
      if (is_modf) {
         modf_leaf(&f, xk, &r0, &r1);
      } else {
         frexp_leaf(&f, xk, &r0, &r1);
         r1 = int_from_s32(c, r1, &is);
      }
      xl_mov(c, xl_comp(c, d, k), r0, f.regs);
      xl_mov(c, xl_comp(c, second, second_first + k), r1, c->ir->vreg_size[r1]);
   }
   if (out && !c->failed)
      xl_store_ptr(c, out, second);
   xl_set(c, inst->result_id, d);
   return true;
}

/* PackDouble2x32 (uvec2 -> double: x is the low word) and UnpackDouble2x32:
 * the bits only, as GLSL 8.4 specifies. */
static bool double_bits(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext)
{
   bool pack = ext == SPIRV_GLSL_STD_450_PackDouble2x32;
   uint32_t xt = operand_type(c, inst, 0);
   uint32_t wide = pack ? inst->result_type : xt, split = pack ? xt : inst->result_type;
   struct xl_scalar is;
   const struct spirv_type *wt = spirv_type(c->m, wide);
   if (!wt || wt->kind != SPIRV_TYPE_FLOAT || !is_float_type(c, wide, 64, 1) ||
       !is_int_type(c, split, 2, &is) || is.width != 32) {
      xl_fail(c, "GLSL.std.450 %s needs a double and a 2-component 32-bit integer vector",
              pack ? "PackDouble2x32" : "UnpackDouble2x32");
      return true;
   }
   struct xl_val a = xl_get(c, xl_word(c, inst, 2)), d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return true;
   if (pack) {
      xl_mov(c, xl_comp(c, d, 0), xl_pair_of(c, xl_comp(c, a, 0), xl_comp(c, a, 1)), 2);
   } else {
      for (unsigned k = 0; k < 2; k++)
         xl_mov(c, xl_comp(c, d, k), xl_half_of(c, xl_comp(c, a, 0), k), 1);
   }
   xl_set(c, inst->result_id, d);
   return true;
}

bool xl_glsl_float(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t ext)
{
   switch (ext) {
   case SPIRV_GLSL_STD_450_PackDouble2x32:
   case SPIRV_GLSL_STD_450_UnpackDouble2x32:
      return double_bits(c, inst, ext);
   case SPIRV_GLSL_STD_450_Length:
   case SPIRV_GLSL_STD_450_Distance:
   case SPIRV_GLSL_STD_450_Normalize:
   case SPIRV_GLSL_STD_450_Cross:
   case SPIRV_GLSL_STD_450_Reflect:
   case SPIRV_GLSL_STD_450_FaceForward:
   case SPIRV_GLSL_STD_450_Refract:
   case SPIRV_GLSL_STD_450_Modf:
   case SPIRV_GLSL_STD_450_ModfStruct:
   case SPIRV_GLSL_STD_450_Frexp:
   case SPIRV_GLSL_STD_450_FrexpStruct:
   case SPIRV_GLSL_STD_450_Ldexp:
      break;
   default:
      return false;
   }
   /* Operand 0 is the float scalar or vector every one of these takes. */
   uint32_t xt = operand_type(c, inst, 0);
   struct xl_scalar s;
   uint32_t n = xl_leaf_count(c, xt);
   if (!xl_scalar_of(c, xt, &s) || !s.is_float || (s.width != 32 && s.width != 64) || n > 4 ||
       !is_float_type(c, xt, s.width, n)) {
      const struct spirv_ext_inst_info *info = spirv_glsl_std_450_info(ext);
      xl_fail(c, "unsupported: GLSL.std.450 %s on this type (32- and 64-bit floats only)",
              info ? info->name : "?");
      return true;
   }
   switch (ext) {
   case SPIRV_GLSL_STD_450_Modf:
   case SPIRV_GLSL_STD_450_ModfStruct:
   case SPIRV_GLSL_STD_450_Frexp:
   case SPIRV_GLSL_STD_450_FrexpStruct:
   case SPIRV_GLSL_STD_450_Ldexp:
      return split_float(c, inst, ext, s.width, n);
   default:
      return geometric(c, inst, ext, s.width, n);
   }
}
