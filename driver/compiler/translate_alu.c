/* Arithmetic, logic, comparisons, conversions and composites
 * (translate.h): instruction selection for SPIR-V spec 3.52.11-3.52.15.
 * Vectors and matrices are handled one leaf at a time. */
#include <string.h>

#include "translate.h"

static enum ppu_type int_type(const struct xl_scalar *s, bool is_signed)
{
   if (s->width == 64)
      return is_signed ? PPU_TYPE_S64 : PPU_TYPE_U64;
   return is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32;
}

/* 16-bit floats are computed in F32 (see prepared_operand). */
static enum ppu_type float_type(const struct xl_scalar *s)
{
   return s->width == 64 ? PPU_TYPE_F64 : PPU_TYPE_F32;
}

static enum ppu_type bits_type(const struct xl_scalar *s)
{
   return s->width == 64 ? PPU_TYPE_U64 : PPU_TYPE_U32;
}

/* 8- and 16-bit integers live in 32-bit registers, extended per their
 * type's signedness; operations whose result depends on the high bits
 * re-extend their operands, and narrow results are re-extended. 16-bit
 * floats are computed in 32-bit and rounded back, which is exact for the
 * basic operations (24 >= 2 * 11 + 2 bits, so no double-rounding error). */
static uint32_t extend_narrow(struct xl_ctx *c, uint32_t v, uint32_t width, bool is_signed)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_BFE, is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, d, v, width << 8);
   return d;
}

static uint32_t half_convert(struct xl_ctx *c, uint32_t v, bool to_half)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   struct ir_insn *i = xl_op(c, PPU_OP_CVT, to_half ? PPU_TYPE_F16 : PPU_TYPE_F32, d, v, 0);
   i->f.type2 = to_half ? PPU_TYPE_F32 : PPU_TYPE_F16;
   i->f.subop = PPU_ROUND_RN;
   return d;
}

static bool is_narrow_int(const struct xl_scalar *s)
{
   return !s->is_float && !s->is_bool && s->width < 32;
}

static bool is_half(const struct xl_scalar *s)
{
   return s->is_float && s->width == 16;
}

/* Operations whose result depends on the bits above a narrow value. */
static bool reads_high_bits(enum ppu_op op)
{
   return op == PPU_OP_IDIV || op == PPU_OP_IREM || op == PPU_OP_SHR || op == PPU_OP_IMIN ||
          op == PPU_OP_IMAX || op == PPU_OP_ISETP;
}

static bool is_signed_type(enum ppu_type t)
{
   return t == PPU_TYPE_S32 || t == PPU_TYPE_S64;
}

/* Leaf k of operand i, prepared for op at type ty. */
static uint32_t prepared_operand(struct xl_ctx *c, const struct xl_scalar *os, struct xl_val v,
                                 uint32_t k, enum ppu_op op, enum ppu_type ty)
{
   uint32_t x = xl_comp(c, v, k);
   if (is_narrow_int(os) && reads_high_bits(op))
      return extend_narrow(c, x, os->width, is_signed_type(ty));
   if (is_half(os) && ty == PPU_TYPE_F32)
      return half_convert(c, x, false);
   return x;
}

/* Writes r into dst, re-extending or rounding for a narrow result type. */
static void finish_result(struct xl_ctx *c, const struct xl_scalar *rs, uint32_t dst, uint32_t r)
{
   if (is_narrow_int(rs))
      r = extend_narrow(c, r, rs->width, rs->is_signed);
   else if (is_half(rs))
      r = half_convert(c, r, true);
   xl_mov(c, dst, r, c->ir->vreg_size[dst]);
}

static struct xl_scalar operand_scalar(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i)
{
   struct xl_scalar s;
   if (!xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, inst, i)), &s))
      xl_fail(c, "unsupported operand type");
   return s;
}

/* d_k = op(a_k, b_k) for every leaf. */
static void binary(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_op op,
                   enum ppu_type ty)
{
   struct xl_scalar os = operand_scalar(c, inst, 0), rs;
   xl_scalar_of(c, inst->result_type, &rs);
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   bool plain = !is_narrow_int(&rs) && !is_half(&rs);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t x = prepared_operand(c, &os, a, k, op, ty);
      uint32_t y = prepared_operand(c, &os, b, k, op, ty);
      uint32_t r = plain ? xl_comp(c, d, k) : ir_new_vreg(c->ir, 1);
      xl_op(c, op, ty, r, x, y);
      if (!plain)
         finish_result(c, &rs, xl_comp(c, d, k), r);
   }
   xl_set(c, inst->result_id, d);
}

/* Shifts take the count in operand b with the value's width, so a count of
 * another width (SPIR-V allows any) is converted first. */
static void shift(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_scalar *s,
                  enum ppu_op op, enum ppu_type ty)
{
   struct xl_scalar sb = operand_scalar(c, inst, 1);
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t count = xl_comp(c, b, k);
      if (sb.width != s->width) {
         uint32_t w = ir_new_vreg(c->ir, s->width == 64 ? 2 : 1);
         struct ir_insn *i =
             xl_op(c, PPU_OP_CVT, s->width == 64 ? PPU_TYPE_U64 : PPU_TYPE_U32, w, count, 0);
         i->f.type2 = sb.width == 64 ? PPU_TYPE_U64 : PPU_TYPE_U32;
         count = w;
      }
      if (is_narrow_int(s)) {
         /* Extend per the shift's kind, shift, then wrap to the width. */
         uint32_t x = prepared_operand(c, s, a, k, op, ty), r = ir_new_vreg(c->ir, 1);
         xl_op(c, op, ty, r, x, count);
         finish_result(c, s, xl_comp(c, d, k), r);
         continue;
      }
      xl_op(c, op, ty, xl_comp(c, d, k), xl_comp(c, a, k), count);
   }
   xl_set(c, inst->result_id, d);
}

static void unary(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_op op, enum ppu_type ty)
{
   struct xl_scalar rs;
   xl_scalar_of(c, inst->result_type, &rs);
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      if (is_narrow_int(&rs)) {
         uint32_t r = ir_new_vreg(c->ir, 1);
         xl_op(c, op, ty, r, xl_comp(c, a, k), 0);
         finish_result(c, &rs, xl_comp(c, d, k), r);
      } else {
         xl_op(c, op, ty, xl_comp(c, d, k), xl_comp(c, a, k), 0);
      }
   }
   xl_set(c, inst->result_id, d);
}

static void compare(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_op op,
                    enum ppu_type ty, enum ppu_cmp cmp)
{
   struct xl_scalar os = operand_scalar(c, inst, 0);
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (is_half(&os))
      ty = PPU_TYPE_F32;
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t x = prepared_operand(c, &os, a, k, PPU_OP_ISETP, ty);
      uint32_t y = prepared_operand(c, &os, b, k, PPU_OP_ISETP, ty);
      struct ir_insn *i = xl_op(c, op, ty, 0, x, y);
      i->f.subop = cmp;
      i->f.pd = 0;
      uint32_t r = xl_p0_to_bool(c);
      xl_mov(c, xl_comp(c, d, k), r, 1);
   }
   xl_set(c, inst->result_id, d);
}

static void convert(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_type dst,
                    enum ppu_type src, enum ppu_round rnd)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      struct ir_insn *i = xl_op(c, PPU_OP_CVT, dst, xl_comp(c, d, k), xl_comp(c, a, k), 0);
      i->f.type2 = (uint8_t)src;
      i->f.subop = rnd;
   }
   xl_set(c, inst->result_id, d);
}

static void smod(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_scalar *s)
{
   /* OpSMod takes the divisor's sign: fix up the remainder when the signs
    * differ and it is not zero. */
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   enum ppu_type st = int_type(s, true);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      unsigned regs = s->width == 64 ? 2 : 1;
      uint32_t bk = xl_comp(c, b, k);
      uint32_t r = ir_new_vreg(c->ir, regs), x = ir_new_vreg(c->ir, regs),
               sum = ir_new_vreg(c->ir, regs);
      xl_op(c, PPU_OP_IREM, st, r, xl_comp(c, a, k), bk);
      xl_op(c, PPU_OP_XOR, bits_type(s), x, r, bk);
      struct ir_insn *i = xl_op(c, PPU_OP_ISETP, st, 0, x, 0);
      i->f.rb = PPU_RZ;
      i->f.subop = PPU_CMP_LT;
      i->f.pd = 0;
      i = xl_op(c, PPU_OP_ISETP, st, 0, r, 0);
      i->f.rb = PPU_RZ;
      i->f.subop = PPU_CMP_NE;
      i->f.pd = 0;
      i->f.ps = 0;
      xl_op(c, PPU_OP_IADD, st, sum, r, bk);
      i = xl_op(c, PPU_OP_SEL, bits_type(s), xl_comp(c, d, k), sum, r);
      i->f.ps = 0;
   }
   xl_set(c, inst->result_id, d);
}

static void fneg(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_scalar *s)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      if (s->width == 16)
         xl_op_imm(c, PPU_OP_XOR, PPU_TYPE_U32, xl_comp(c, d, k), xl_comp(c, a, k), 0x8000u);
      else if (s->width == 64) /* imm b of F64 is the high word: -1.0 */
         xl_op_imm(c, PPU_OP_FMUL, PPU_TYPE_F64, xl_comp(c, d, k), xl_comp(c, a, k), 0xbff00000u);
      else
         xl_op_imm(c, PPU_OP_XOR, PPU_TYPE_U32, xl_comp(c, d, k), xl_comp(c, a, k), 0x80000000u);
   }
   xl_set(c, inst->result_id, d);
}

static void frem(struct xl_ctx *c, const struct spirv_inst *inst, const struct xl_scalar *s,
                 enum ppu_round rnd)
{
   /* x - y * round(x / y): FRem truncates, FMod floors (SPIR-V 3.52.13). */
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   enum ppu_type ft = float_type(s);
   unsigned regs = s->width == 64 ? 2 : 1;
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t q = ir_new_vreg(c->ir, regs), t = ir_new_vreg(c->ir, regs),
               m = ir_new_vreg(c->ir, regs);
      xl_op(c, PPU_OP_FDIV, ft, q, xl_comp(c, a, k), xl_comp(c, b, k));
      xl_op(c, PPU_OP_FRND, ft, t, q, 0)->f.subop = rnd;
      xl_op(c, PPU_OP_FMUL, ft, m, xl_comp(c, b, k), t);
      xl_op(c, PPU_OP_FSUB, ft, xl_comp(c, d, k), xl_comp(c, a, k), m);
   }
   xl_set(c, inst->result_id, d);
}

static void select_op(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val cond = xl_get(c, xl_word(c, inst, 0));
   struct xl_val a = xl_get(c, xl_word(c, inst, 1)), b = xl_get(c, xl_word(c, inst, 2));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      xl_bool_to_p0(c, xl_comp(c, cond, cond.count == 1 ? 0 : k));
      uint32_t dk = xl_comp(c, d, k);
      struct ir_insn *i =
          xl_op(c, PPU_OP_SEL, c->ir->vreg_size[dk] == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, dk,
                xl_comp(c, a, k), xl_comp(c, b, k));
      i->f.ps = 0;
   }
   xl_set(c, inst->result_id, d);
}

static void reduce_bool(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_op op)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   uint32_t acc = xl_comp(c, a, 0);
   for (uint32_t k = 1; k < a.count; k++) {
      uint32_t n = ir_new_vreg(c->ir, 1);
      xl_op(c, op, PPU_TYPE_U32, n, acc, xl_comp(c, a, k));
      acc = n;
   }
   xl_mov(c, xl_comp(c, d, 0), acc, 1);
   xl_set(c, inst->result_id, d);
}

static void float_class(struct xl_ctx *c, const struct spirv_inst *inst, bool is_inf)
{
   struct xl_scalar s = operand_scalar(c, inst, 0);
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t ak = xl_comp(c, a, k);
      struct ir_insn *i;
      if (is_inf && s.width == 64) {
         /* x == +inf or x == -inf (an F64 immediate is the high word of
          * the double, and +-inf have a zero low word). */
         i = xl_op_imm(c, PPU_OP_FSETP, PPU_TYPE_F64, 0, ak, 0x7ff00000u);
         i->f.subop = PPU_CMP_EQ;
         i->f.pd = 0;
         uint32_t pos = xl_p0_to_bool(c);
         i = xl_op_imm(c, PPU_OP_FSETP, PPU_TYPE_F64, 0, ak, 0xfff00000u);
         i->f.subop = PPU_CMP_EQ;
         i->f.pd = 0;
         xl_op(c, PPU_OP_OR, PPU_TYPE_U32, xl_comp(c, d, k), pos, xl_p0_to_bool(c));
         continue;
      }
      if (is_inf) {
         /* The magnitude's bits equal those of +inf. */
         uint32_t abs = ir_new_vreg(c->ir, 1);
         uint32_t inf = ir_new_vreg(c->ir, 1);
         xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, inf, 0, 0x7f800000u);
         xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, abs, ak, 0x7fffffffu);
         i = xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, abs, inf);
         i->f.subop = PPU_CMP_EQ;
      } else {
         i = xl_op(c, PPU_OP_FSETP, float_type(&s), 0, ak, ak);
         i->f.subop = PPU_CMP_NAN;
      }
      i->f.pd = 0;
      xl_mov(c, xl_comp(c, d, k), xl_p0_to_bool(c), 1);
   }
   xl_set(c, inst->result_id, d);
}

/* OpUMulExtended / OpSMulExtended (SPIR-V 3.52.13): a struct of the low and
 * the high half of the full product of each component. */
static uint32_t half64(struct xl_ctx *c, uint32_t x, unsigned k)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, x)->part[2] = (uint8_t)k;
   return d;
}

/* 32 x 32 + 64 -> 64 unsigned (IMADW). */
static uint32_t madw(struct xl_ctx *c, uint32_t a, uint32_t b, uint32_t addend)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op(c, PPU_OP_IMADW, PPU_TYPE_U32, d, a, b)->src[2] = addend;
   return d;
}

static uint32_t op64(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op(c, op, PPU_TYPE_U64, d, a, b);
   return d;
}

static uint32_t op64_imm(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t imm)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, op, PPU_TYPE_U64, d, a, imm);
   return d;
}

/* The 128-bit product of two 64-bit values from four 32 x 32 -> 64 partial
 * products; each sum fits in 64 bits ((2^32 - 1)^2 + 2 (2^32 - 1) <
 * 2^64). Signed: the unsigned high half less b where a < 0 and less a where
 * b < 0 (the two's complement correction). */
static void mul_extended64(struct xl_ctx *c, uint32_t a, uint32_t b, bool is_signed, uint32_t lo,
                           uint32_t hi)
{
   uint32_t a0 = half64(c, a, 0), a1 = half64(c, a, 1), b0 = half64(c, b, 0), b1 = half64(c, b, 1);
   uint32_t zero = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U64, zero, 0, 0);
   uint32_t p00 = madw(c, a0, b0, zero);
   uint32_t mid = madw(c, a0, b1, op64_imm(c, PPU_OP_SHR, p00, 32));
   uint32_t mid2 = madw(c, a1, b0, op64_imm(c, PPU_OP_SHR, op64_imm(c, PPU_OP_SHL, mid, 32), 32));
   uint32_t low32 = op64_imm(c, PPU_OP_SHR, op64_imm(c, PPU_OP_SHL, p00, 32), 32);
   xl_op(c, PPU_OP_OR, PPU_TYPE_U64, lo, op64_imm(c, PPU_OP_SHL, mid2, 32), low32);
   uint32_t h = madw(c, a1, b1, op64_imm(c, PPU_OP_SHR, mid, 32));
   h = op64(c, PPU_OP_IADD, h, op64_imm(c, PPU_OP_SHR, mid2, 32));
   if (is_signed) {
      for (unsigned k = 0; k < 2; k++) {
         struct ir_insn *i = xl_op(c, PPU_OP_ISETP, PPU_TYPE_S64, 0, k ? b : a, zero);
         i->f.subop = PPU_CMP_LT;
         i->f.pd = 0;
         uint32_t corr = ir_new_vreg(c->ir, 2);
         xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, corr, k ? a : b, zero)->f.ps = 0;
         h = op64(c, PPU_OP_ISUB, h, corr);
      }
   }
   xl_mov(c, hi, h, 2);
}

/* The shape OpUMulExtended, OpSMulExtended, OpIAddCarry and OpISubBorrow
 * share: two integer operands of one type, a struct of two members of that
 * type. Gets the operands and the result (components 0..n-1 the first
 * member, n..2n-1 the second); false (translation failed) otherwise. */
static bool pair_operands(struct xl_ctx *c, const struct spirv_inst *inst, const char *what,
                          struct xl_scalar *s, struct xl_val *a, struct xl_val *b, struct xl_val *d)
{
   uint32_t ta = spirv_id_type(c->m, xl_word(c, inst, 0));
   const struct spirv_type *rt = spirv_type(c->m, inst->result_type);
   if (!rt || rt->kind != SPIRV_TYPE_STRUCT || rt->u.structure.member_count != 2 ||
       spirv_struct_member_type(c->m, inst->result_type, 0) != ta ||
       spirv_struct_member_type(c->m, inst->result_type, 1) != ta ||
       spirv_id_type(c->m, xl_word(c, inst, 1)) != ta || !xl_scalar_of(c, ta, s) || s->is_float ||
       s->is_bool) {
      xl_fail(c,
              "%s needs two integer operands of one type and a struct of two members of that "
              "type",
              what);
      return false;
   }
   *a = xl_get(c, xl_word(c, inst, 0));
   *b = xl_get(c, xl_word(c, inst, 1));
   *d = xl_new_val(c, inst->result_type);
   return !c->failed && b->count == a->count && d->count == 2 * a->count;
}

/* OpIAddCarry / OpISubBorrow (SPIR-V 3.52.13): a struct of the modular sum
 * (difference) and 1 where the unsigned sum carried out (the difference
 * borrowed), else 0. 8-, 16- and 32-bit integers. */
static void add_carry(struct xl_ctx *c, const struct spirv_inst *inst, bool sub)
{
   struct xl_scalar s;
   struct xl_val a, b, d;
   if (!pair_operands(c, inst, sub ? "OpISubBorrow" : "OpIAddCarry", &s, &a, &b, &d))
      return;
   uint32_t n = a.count;
   if (s.width == 64) {
      /* GLSL has no 64-bit uaddCarry; not written until a test can use it. */
      xl_fail(c, "unsupported: 64-bit %s", sub ? "OpISubBorrow" : "OpIAddCarry");
      return;
   }
   enum ppu_op op = sub ? PPU_OP_ISUB : PPU_OP_IADD;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t x = xl_comp(c, a, k), y = xl_comp(c, b, k);
      uint32_t lo = xl_comp(c, d, k), hi = xl_comp(c, d, n + k);
      enum ppu_type t = PPU_TYPE_U32;
      if (s.width < 32) {
         x = extend_narrow(c, x, s.width, false);
         y = extend_narrow(c, y, s.width, false);
      }
      uint32_t r = ir_new_vreg(c->ir, 1);
      xl_op(c, op, t, r, x, y);
      /* Carried out: the sum is below an operand; borrowed: x < y. Narrow
       * values compare in 32 bits, so a carry is bit `width` of the sum. */
      struct ir_insn *i;
      if (s.width < 32 && !sub) {
         i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, r, (1u << s.width) - 1);
         i->f.subop = PPU_CMP_GT;
      } else {
         i = sub ? xl_op(c, PPU_OP_ISETP, t, 0, x, y) : xl_op(c, PPU_OP_ISETP, t, 0, r, x);
         i->f.subop = PPU_CMP_LT;
      }
      i->f.pd = 0;
      uint32_t flag = xl_p0_to_bool(c);
      if (s.width == 32) {
         xl_mov(c, lo, r, 1);
         xl_mov(c, hi, flag, 1);
      } else {
         finish_result(c, &s, lo, r);
         finish_result(c, &s, hi, flag);
      }
   }
   xl_set(c, inst->result_id, d);
}

static void mul_extended(struct xl_ctx *c, const struct spirv_inst *inst, bool is_signed)
{
   struct xl_scalar s;
   struct xl_val a, b, d;
   if (!pair_operands(c, inst, "multiply-extended", &s, &a, &b, &d))
      return;
   uint32_t n = a.count;
   enum ppu_type t = is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t x = xl_comp(c, a, k), y = xl_comp(c, b, k);
      uint32_t lo = xl_comp(c, d, k), hi = xl_comp(c, d, n + k);
      if (s.width == 64) {
         mul_extended64(c, x, y, is_signed, lo, hi);
      } else if (s.width == 32) {
         xl_op(c, PPU_OP_IMUL, t, lo, x, y);
         xl_op(c, PPU_OP_IMULHI, t, hi, x, y);
      } else {
         /* The whole product of two narrow values fits in 32 bits. */
         uint32_t p = ir_new_vreg(c->ir, 1), h = ir_new_vreg(c->ir, 1);
         xl_op(c, PPU_OP_IMUL, t, p, extend_narrow(c, x, s.width, is_signed),
               extend_narrow(c, y, s.width, is_signed));
         finish_result(c, &s, lo, p);
         xl_op_imm(c, PPU_OP_SHR, t, h, p, s.width);
         finish_result(c, &s, hi, h);
      }
   }
   xl_set(c, inst->result_id, d);
}

/* Integer dot products (SPV_KHR_integer_dot_product, SPIR-V 3.52.13
 * OpSDot..OpSUDotAccSat). Nothing here is accelerated: the products and
 * their sum are computed exactly, as a signed 192-bit value in three 64-bit
 * words, which no sum of four 64 x 64-bit products and a 64-bit
 * accumulator can overflow; the result is then its low bits (OpXDot) or
 * that value saturated to the result type (the AccSat forms). */
struct dot_acc {
   uint32_t w[3]; /* 64-bit vregs, least significant first */
};

static uint32_t zero64(struct xl_ctx *c)
{
   uint32_t z = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U64, z, 0, 0);
   return z;
}

/* 1 when p0 holds, else 0, as a 64-bit value. */
static uint32_t p0_to_u64(struct xl_ctx *c)
{
   uint32_t one = ir_new_vreg(c->ir, 2), d = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U64, one, 0, 1);
   xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, d, one, zero64(c))->f.ps = 0;
   return d;
}

static void setp64(struct xl_ctx *c, enum ppu_type t, enum ppu_cmp cmp, uint32_t a, uint32_t b)
{
   struct ir_insn *i = xl_op(c, PPU_OP_ISETP, t, 0, a, b);
   i->f.subop = cmp;
   i->f.pd = 0;
}

/* a < b unsigned, as 0 or 1 in 64 bits: the carry out of a sum b + x = a. */
static uint32_t carry64(struct xl_ctx *c, uint32_t sum, uint32_t addend)
{
   setp64(c, PPU_TYPE_U64, PPU_CMP_LT, sum, addend);
   return p0_to_u64(c);
}

static uint32_t sign_word(struct xl_ctx *c, uint32_t x)
{
   uint32_t d = ir_new_vreg(c->ir, 2);
   xl_op_imm(c, PPU_OP_SHR, PPU_TYPE_S64, d, x, 63);
   return d;
}

/* acc += (ext:hi:lo), a 192-bit term. */
static void dot_add(struct xl_ctx *c, struct dot_acc *acc, uint32_t lo, uint32_t hi, uint32_t ext)
{
   uint32_t s0 = op64(c, PPU_OP_IADD, acc->w[0], lo);
   uint32_t c0 = carry64(c, s0, lo);
   uint32_t t = op64(c, PPU_OP_IADD, acc->w[1], hi);
   uint32_t c1 = carry64(c, t, hi);
   uint32_t s1 = op64(c, PPU_OP_IADD, t, c0);
   uint32_t c2 = carry64(c, s1, c0);
   uint32_t s2 = op64(c, PPU_OP_IADD, acc->w[2], ext);
   s2 = op64(c, PPU_OP_IADD, op64(c, PPU_OP_IADD, s2, c1), c2);
   acc->w[0] = s0;
   acc->w[1] = s1;
   acc->w[2] = s2;
}

/* A value of `width` bits (in one register below 64) as 64 bits, extended
 * per `is_signed`. */
static uint32_t widen64(struct xl_ctx *c, uint32_t x, uint32_t width, bool is_signed)
{
   if (width == 64)
      return x;
   if (width < 32)
      x = extend_narrow(c, x, width, is_signed);
   uint32_t d = ir_new_vreg(c->ir, 2);
   struct ir_insn *i = xl_op(c, PPU_OP_CVT, is_signed ? PPU_TYPE_S64 : PPU_TYPE_U64, d, x, 0);
   i->f.type2 = is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32;
   return d;
}

/* acc += a * b, each 64 bits of the given signedness. */
static void dot_add_product(struct xl_ctx *c, struct dot_acc *acc, uint32_t a, bool a_signed,
                            uint32_t b, bool b_signed)
{
   uint32_t lo = ir_new_vreg(c->ir, 2), hi = ir_new_vreg(c->ir, 2);
   mul_extended64(c, a, b, a_signed && b_signed, lo, hi);
   if (a_signed != b_signed) {
      /* One signed factor: the unsigned product's high half less the
       * unsigned factor where the signed one is negative. */
      uint32_t sgn = a_signed ? a : b, other = a_signed ? b : a;
      setp64(c, PPU_TYPE_S64, PPU_CMP_LT, sgn, zero64(c));
      uint32_t corr = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, corr, other, zero64(c))->f.ps = 0;
      hi = op64(c, PPU_OP_ISUB, hi, corr);
   }
   /* Unsigned x unsigned is a nonnegative 128-bit value; with a signed
    * factor it fits a signed 128-bit one. */
   dot_add(c, acc, lo, hi, a_signed || b_signed ? sign_word(c, hi) : zero64(c));
}

/* 1 (as a bool) when p0 holds. */
static uint32_t p0_bool(struct xl_ctx *c)
{
   return xl_p0_to_bool(c);
}

static void integer_dot(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const uint32_t op = inst->opcode;
   const bool a_signed = op == SPIRV_OP_SDot || op == SPIRV_OP_SDotAccSat || op == SPIRV_OP_SUDot ||
                         op == SPIRV_OP_SUDotAccSat;
   const bool b_signed = op == SPIRV_OP_SDot || op == SPIRV_OP_SDotAccSat;
   const bool sat =
       op == SPIRV_OP_SDotAccSat || op == SPIRV_OP_UDotAccSat || op == SPIRV_OP_SUDotAccSat;
   /* The saturation (and the accumulator's extension) is signed unless
    * both vectors are unsigned. */
   const bool result_signed = a_signed;
   struct xl_scalar rs, as = operand_scalar(c, inst, 0);
   if (!xl_scalar_of(c, inst->result_type, &rs) || rs.is_float || rs.is_bool || as.is_float ||
       as.is_bool) {
      xl_fail(c, "integer dot product needs integer operands and result");
      return;
   }
   struct xl_val a = xl_get(c, xl_word(c, inst, 0)), b = xl_get(c, xl_word(c, inst, 1));
   if (c->failed || a.count != b.count)
      return;
   struct dot_acc acc = {{zero64(c), zero64(c), zero64(c)}};
   if (a.count == 1) {
      /* A scalar is a 32-bit word of four 8-bit components
       * (PackedVectorFormat4x8Bit), component 0 in the low byte. */
      if (as.width != 32) {
         xl_fail(c, "a packed dot product takes 32-bit operands");
         return;
      }
      for (unsigned k = 0; k < 4; k++) {
         uint32_t x = ir_new_vreg(c->ir, 1), y = ir_new_vreg(c->ir, 1);
         xl_op_imm(c, PPU_OP_BFE, a_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, x, xl_comp(c, a, 0),
                   (8u * k) | 8u << 8);
         xl_op_imm(c, PPU_OP_BFE, b_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, y, xl_comp(c, b, 0),
                   (8u * k) | 8u << 8);
         dot_add_product(c, &acc, widen64(c, x, 32, a_signed), a_signed,
                         widen64(c, y, 32, b_signed), b_signed);
      }
   } else {
      for (uint32_t k = 0; k < a.count; k++)
         dot_add_product(c, &acc, widen64(c, xl_comp(c, a, k), as.width, a_signed), a_signed,
                         widen64(c, xl_comp(c, b, k), as.width, b_signed), b_signed);
   }
   if (sat) {
      struct xl_val acc_in = xl_get(c, xl_word(c, inst, 2));
      if (c->failed)
         return;
      uint32_t x = widen64(c, xl_comp(c, acc_in, 0), rs.width, result_signed);
      uint32_t hi = result_signed ? sign_word(c, x) : zero64(c);
      dot_add(c, &acc, x, hi, hi);
   }
   uint32_t v = acc.w[0];
   if (sat) {
      /* The result type's range: max = all ones >> (64 - width) unsigned,
       * >> (65 - width) signed; min = ~max signed, 0 unsigned. */
      uint32_t ones = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_NOT, PPU_TYPE_U64, ones, zero64(c), 0);
      uint32_t max = op64_imm(c, PPU_OP_SHR, ones, 64 - rs.width + (result_signed ? 1 : 0));
      uint32_t min = zero64(c);
      if (result_signed)
         xl_op(c, PPU_OP_NOT, PPU_TYPE_U64, min, max, 0);
      /* In range: the top words only extend w0, and w0 lies in [min, max]. */
      uint32_t fits;
      enum ppu_type t = result_signed ? PPU_TYPE_S64 : PPU_TYPE_U64;
      uint32_t ext0 = result_signed ? sign_word(c, acc.w[0]) : zero64(c);
      uint32_t ext1 = result_signed ? sign_word(c, acc.w[1]) : zero64(c);
      setp64(c, PPU_TYPE_U64, PPU_CMP_EQ, acc.w[1], ext0);
      fits = p0_bool(c);
      setp64(c, PPU_TYPE_U64, PPU_CMP_EQ, acc.w[2], ext1);
      uint32_t f2 = p0_bool(c), f = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_AND, PPU_TYPE_U32, f, fits, f2);
      fits = f;
      setp64(c, t, PPU_CMP_LE, acc.w[0], max);
      f2 = p0_bool(c);
      f = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_AND, PPU_TYPE_U32, f, fits, f2);
      fits = f;
      setp64(c, t, PPU_CMP_GE, acc.w[0], min);
      f2 = p0_bool(c);
      f = ir_new_vreg(c->ir, 1);
      xl_op(c, PPU_OP_AND, PPU_TYPE_U32, f, fits, f2);
      fits = f;
      /* Out of range: the bound on the side of the sign (an unsigned sum
       * is never negative). */
      uint32_t bound = ir_new_vreg(c->ir, 2);
      setp64(c, PPU_TYPE_S64, PPU_CMP_LT, acc.w[2], zero64(c));
      xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, bound, min, max)->f.ps = 0;
      xl_bool_to_p0(c, fits);
      uint32_t r = ir_new_vreg(c->ir, 2);
      xl_op(c, PPU_OP_SEL, PPU_TYPE_U64, r, acc.w[0], bound)->f.ps = 0;
      v = r;
   }
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (rs.width == 64) {
      xl_mov(c, xl_comp(c, d, 0), v, 2);
   } else {
      /* The low bits, re-extended for a narrow result type. */
      finish_result(c, &rs, xl_comp(c, d, 0), half64(c, v, 0));
   }
   xl_set(c, inst->result_id, d);
}

static void bitfield(struct xl_ctx *c, const struct spirv_inst *inst)
{
   bool ins = inst->opcode == SPIRV_OP_BitFieldInsert;
   struct xl_val base = xl_get(c, xl_word(c, inst, 0));
   struct xl_val insert = ins ? xl_get(c, xl_word(c, inst, 1)) : base;
   struct xl_val off = xl_get(c, xl_word(c, inst, ins ? 2 : 1));
   struct xl_val cnt = xl_get(c, xl_word(c, inst, ins ? 3 : 2));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   /* BFE/BFI take offset | count << 8 (docs/isa.md). */
   uint32_t sh = ir_new_vreg(c->ir, 1), b = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_SHL, PPU_TYPE_U32, sh, xl_comp(c, cnt, 0), 8);
   xl_op(c, PPU_OP_OR, PPU_TYPE_U32, b, sh, xl_comp(c, off, 0));
   for (uint32_t k = 0; k < d.count; k++) {
      if (ins) {
         struct ir_insn *i =
             xl_op(c, PPU_OP_BFI, PPU_TYPE_U32, xl_comp(c, d, k), xl_comp(c, insert, k), b);
         i->src[2] = xl_comp(c, base, k);
      } else {
         xl_op(c, PPU_OP_BFE,
               inst->opcode == SPIRV_OP_BitFieldSExtract ? PPU_TYPE_S32 : PPU_TYPE_U32,
               xl_comp(c, d, k), xl_comp(c, base, k), b);
      }
   }
   xl_set(c, inst->result_id, d);
}

static enum ppu_type cvt_type(const struct xl_scalar *s)
{
   if (s->is_float)
      return s->width == 64 ? PPU_TYPE_F64 : s->width == 16 ? PPU_TYPE_F16 : PPU_TYPE_F32;
   switch (s->width) {
   case 8:
      return s->is_signed ? PPU_TYPE_S8 : PPU_TYPE_U8;
   case 16:
      return s->is_signed ? PPU_TYPE_S16 : PPU_TYPE_U16;
   case 64:
      return s->is_signed ? PPU_TYPE_S64 : PPU_TYPE_U64;
   default:
      return s->is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32;
   }
}

static void int_resize(struct xl_ctx *c, const struct spirv_inst *inst, struct xl_scalar src,
                       struct xl_scalar dst, bool source_signed)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t x = xl_comp(c, a, k), dk = xl_comp(c, d, k);
      if (src.width == 64) {
         /* The low word; narrower results are re-extended below. */
         uint32_t lo = ir_new_vreg(c->ir, 1);
         xl_op(c, PPU_OP_MOV, PPU_TYPE_U32, lo, 0, x);
         finish_result(c, &dst, dk, lo);
         continue;
      }
      if (src.width < 32)
         x = extend_narrow(c, x, src.width, source_signed);
      if (dst.width == 64) {
         struct ir_insn *i =
             xl_op(c, PPU_OP_CVT, source_signed ? PPU_TYPE_S64 : PPU_TYPE_U64, dk, x, 0);
         i->f.type2 = source_signed ? PPU_TYPE_S32 : PPU_TYPE_U32;
         continue;
      }
      finish_result(c, &dst, dk, x);
   }
   xl_set(c, inst->result_id, d);
}

static void conversion(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_scalar src, dst;
   xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, inst, 0)), &src);
   xl_scalar_of(c, inst->result_type, &dst);
   switch (inst->opcode) {
   case SPIRV_OP_ConvertFToU:
      dst.is_signed = false;
      convert(c, inst, cvt_type(&dst), cvt_type(&src), PPU_ROUND_RZ);
      return;
   case SPIRV_OP_ConvertFToS:
      dst.is_signed = true;
      convert(c, inst, cvt_type(&dst), cvt_type(&src), PPU_ROUND_RZ);
      return;
   case SPIRV_OP_ConvertSToF:
      src.is_signed = true;
      convert(c, inst, cvt_type(&dst), cvt_type(&src), PPU_ROUND_RN);
      return;
   case SPIRV_OP_ConvertUToF:
      src.is_signed = false;
      convert(c, inst, cvt_type(&dst), cvt_type(&src), PPU_ROUND_RN);
      return;
   case SPIRV_OP_SConvert:
   case SPIRV_OP_UConvert:
      /* SPIR-V 3.52.11: SConvert sign-extends, UConvert zero-extends;
       * narrowing keeps the low bits. */
      int_resize(c, inst, src, dst, inst->opcode == SPIRV_OP_SConvert);
      return;
   default: /* FConvert */
      if (src.width == dst.width) {
         xl_set(c, inst->result_id, xl_get(c, xl_word(c, inst, 0)));
         return;
      }
      convert(c, inst, cvt_type(&dst), cvt_type(&src), PPU_ROUND_RN);
      return;
   }
}

/* OpBitcast between different component counts of 32- and 64-bit
 * components (a 64-bit integer or PhysicalStorageBuffer pointer and a
 * 2-vector of 32 bits, ...): the same 32-bit words in order, the low word
 * of a 64-bit component first (SPIR-V 3.52.12 OpBitcast). */
static void bitcast_words(struct xl_ctx *c, const struct spirv_inst *inst, struct xl_val a,
                          struct xl_val d)
{
   struct xl_scalar as, ds;
   xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, inst, 0)), &as);
   xl_scalar_of(c, inst->result_type, &ds);
   if (as.width < 32 || ds.width < 32 || a.count > 4 || d.count > 4) {
      xl_fail(c,
              "unsupported: bitcast between different component counts of %u- and %u-bit "
              "components",
              as.width, ds.width);
      return;
   }
   uint32_t words[8], n = 0;
   for (uint32_t k = 0; k < a.count; k++) {
      uint32_t v = xl_comp(c, a, k);
      if (c->ir->vreg_size[v] == 2) {
         words[n++] = xl_half_of(c, v, 0);
         words[n++] = xl_half_of(c, v, 1);
      } else {
         words[n++] = v;
      }
   }
   for (uint32_t k = 0, w = 0; k < d.count; k++) {
      uint32_t v = xl_comp(c, d, k);
      if (c->ir->vreg_size[v] == 2) {
         xl_mov(c, v, xl_pair_of(c, words[w], words[w + 1]), 2);
         w += 2;
      } else {
         xl_mov(c, v, words[w++], 1);
      }
   }
   xl_set(c, inst->result_id, d);
}

static void bitcast(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_val a = xl_get(c, xl_word(c, inst, 0));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   struct xl_scalar rs;
   xl_scalar_of(c, inst->result_type, &rs);
   if (a.count != d.count) {
      bitcast_words(c, inst, a, d);
      return;
   }
   for (uint32_t k = 0; k < d.count; k++) {
      if (is_narrow_int(&rs))
         finish_result(c, &rs, xl_comp(c, d, k), xl_comp(c, a, k));
      else
         xl_mov(c, xl_comp(c, d, k), xl_comp(c, a, k), c->ir->vreg_size[xl_comp(c, d, k)]);
   }
   xl_set(c, inst->result_id, d);
}

bool xl_translate_alu(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct xl_scalar s = {0};
   uint32_t op = inst->opcode;
   bool has_operand = inst->operand_count > 0;
   if (has_operand && op != SPIRV_OP_CompositeConstruct && op != SPIRV_OP_Undef)
      xl_scalar_of(c, spirv_id_type(c->m, xl_word(c, inst, 0)), &s);
   switch (op) {
   case SPIRV_OP_IAdd:
      binary(c, inst, PPU_OP_IADD, int_type(&s, false));
      return true;
   case SPIRV_OP_ISub:
      binary(c, inst, PPU_OP_ISUB, int_type(&s, false));
      return true;
   case SPIRV_OP_IMul:
      binary(c, inst, PPU_OP_IMUL, int_type(&s, false));
      return true;
   case SPIRV_OP_UDiv:
      binary(c, inst, PPU_OP_IDIV, int_type(&s, false));
      return true;
   case SPIRV_OP_SDiv:
      binary(c, inst, PPU_OP_IDIV, int_type(&s, true));
      return true;
   case SPIRV_OP_UMod:
      binary(c, inst, PPU_OP_IREM, int_type(&s, false));
      return true;
   case SPIRV_OP_SRem:
      binary(c, inst, PPU_OP_IREM, int_type(&s, true));
      return true;
   case SPIRV_OP_SMod:
      if (s.width < 32)
         xl_fail(c, "unsupported: OpSMod on %u-bit integers", s.width);
      else
         smod(c, inst, &s);
      return true;
   case SPIRV_OP_SNegate:
      unary(c, inst, PPU_OP_INEG, int_type(&s, true));
      return true;
   case SPIRV_OP_FAdd:
      binary(c, inst, PPU_OP_FADD, float_type(&s));
      return true;
   case SPIRV_OP_FSub:
      binary(c, inst, PPU_OP_FSUB, float_type(&s));
      return true;
   case SPIRV_OP_FMul:
      binary(c, inst, PPU_OP_FMUL, float_type(&s));
      return true;
   case SPIRV_OP_FDiv:
      binary(c, inst, PPU_OP_FDIV, float_type(&s));
      return true;
   case SPIRV_OP_FRem:
   case SPIRV_OP_FMod:
      if (s.width < 32)
         xl_fail(c, "unsupported: OpFRem/OpFMod on 16-bit floats");
      else
         frem(c, inst, &s, op == SPIRV_OP_FRem ? PPU_ROUND_RZ : PPU_ROUND_RM);
      return true;
   case SPIRV_OP_FNegate:
      fneg(c, inst, &s);
      return true;
   case SPIRV_OP_BitwiseAnd:
   case SPIRV_OP_LogicalAnd:
      binary(c, inst, PPU_OP_AND, bits_type(&s));
      return true;
   case SPIRV_OP_BitwiseOr:
   case SPIRV_OP_LogicalOr:
      binary(c, inst, PPU_OP_OR, bits_type(&s));
      return true;
   case SPIRV_OP_BitwiseXor:
   case SPIRV_OP_LogicalNotEqual:
      binary(c, inst, PPU_OP_XOR, bits_type(&s));
      return true;
   case SPIRV_OP_Not:
      unary(c, inst, PPU_OP_NOT, bits_type(&s));
      return true;
   case SPIRV_OP_LogicalNot: {
      struct xl_val a = xl_get(c, xl_word(c, inst, 0));
      struct xl_val d = xl_new_val(c, inst->result_type);
      for (uint32_t k = 0; k < d.count && !c->failed; k++)
         xl_op_imm(c, PPU_OP_XOR, PPU_TYPE_U32, xl_comp(c, d, k), xl_comp(c, a, k), 1);
      xl_set(c, inst->result_id, d);
      return true;
   }
   case SPIRV_OP_LogicalEqual:
      compare(c, inst, PPU_OP_ISETP, PPU_TYPE_U32, PPU_CMP_EQ);
      return true;
   case SPIRV_OP_ShiftLeftLogical:
   case SPIRV_OP_ShiftRightLogical:
   case SPIRV_OP_ShiftRightArithmetic: {
      shift(c, inst, &s, op == SPIRV_OP_ShiftLeftLogical ? PPU_OP_SHL : PPU_OP_SHR,
            op == SPIRV_OP_ShiftLeftLogical ? bits_type(&s)
                                            : int_type(&s, op == SPIRV_OP_ShiftRightArithmetic));
      return true;
   }
   case SPIRV_OP_IEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_EQ);
      return true;
   case SPIRV_OP_INotEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_NE);
      return true;
   case SPIRV_OP_ULessThan:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_LT);
      return true;
   case SPIRV_OP_SLessThan:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, true), PPU_CMP_LT);
      return true;
   case SPIRV_OP_ULessThanEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_LE);
      return true;
   case SPIRV_OP_SLessThanEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, true), PPU_CMP_LE);
      return true;
   case SPIRV_OP_UGreaterThan:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_GT);
      return true;
   case SPIRV_OP_SGreaterThan:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, true), PPU_CMP_GT);
      return true;
   case SPIRV_OP_UGreaterThanEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, false), PPU_CMP_GE);
      return true;
   case SPIRV_OP_SGreaterThanEqual:
      compare(c, inst, PPU_OP_ISETP, int_type(&s, true), PPU_CMP_GE);
      return true;
#define FCMP(spv, cmp)                                                                             \
   case SPIRV_OP_##spv:                                                                            \
      compare(c, inst, PPU_OP_FSETP, float_type(&s), PPU_CMP_##cmp);                               \
      return true;
      FCMP(FOrdEqual, EQ)
      FCMP(FOrdNotEqual, NE)
      FCMP(FOrdLessThan, LT)
      FCMP(FOrdGreaterThan, GT)
      FCMP(FOrdLessThanEqual, LE)
      FCMP(FOrdGreaterThanEqual, GE)
      FCMP(FUnordEqual, EQU)
      FCMP(FUnordNotEqual, NEU)
      FCMP(FUnordLessThan, LTU)
      FCMP(FUnordGreaterThan, GTU)
      FCMP(FUnordLessThanEqual, LEU)
      FCMP(FUnordGreaterThanEqual, GEU)
#undef FCMP
   case SPIRV_OP_Select:
      select_op(c, inst);
      return true;
   case SPIRV_OP_ConvertFToU:
   case SPIRV_OP_ConvertFToS:
   case SPIRV_OP_ConvertSToF:
   case SPIRV_OP_ConvertUToF:
   case SPIRV_OP_UConvert:
   case SPIRV_OP_SConvert:
   case SPIRV_OP_FConvert:
      conversion(c, inst);
      return true;
   case SPIRV_OP_Bitcast:
      bitcast(c, inst);
      return true;
   case SPIRV_OP_ConvertUToPtr: /* 64-bit addresses are their own integer value */
   case SPIRV_OP_ConvertPtrToU:
      if (c->ir->vreg_size[xl_comp(c, xl_get(c, xl_word(c, inst, 0)), 0)] != 2) {
         xl_fail(c, "unsupported: pointer conversion from/to a 32-bit integer");
         return true;
      }
      xl_set(c, inst->result_id, xl_get(c, xl_word(c, inst, 0)));
      return true;
   case SPIRV_OP_CopyObject:
   case SPIRV_OP_CopyLogical: { /* same leaves; only the explicit layout differs */
      uint32_t src = xl_word(c, inst, 0);
      /* A logical pointer has no value, only what it points at. */
      bool is_pointer = src < c->bound && (c->scope->ptrs[src].set || c->global_ptrs[src].set);
      if (is_pointer && inst->result_id < c->bound)
         c->scope->ptrs[inst->result_id] = *xl_ptr_of(c, src);
      else
         xl_set(c, inst->result_id, xl_get(c, src));
      return true;
   }
   case SPIRV_OP_Undef: {
      struct xl_val d = xl_new_val(c, inst->result_type);
      for (uint32_t k = 0; k < d.count; k++)
         xl_op(c, PPU_OP_MOV, c->ir->vreg_size[xl_comp(c, d, k)] == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32,
               xl_comp(c, d, k), 0, 0)
             ->f.rb = PPU_RZ;
      xl_set(c, inst->result_id, d);
      return true;
   }
   case SPIRV_OP_Any:
      reduce_bool(c, inst, PPU_OP_OR);
      return true;
   case SPIRV_OP_All:
      reduce_bool(c, inst, PPU_OP_AND);
      return true;
   case SPIRV_OP_IsNan:
      float_class(c, inst, false);
      return true;
   case SPIRV_OP_IsInf:
      float_class(c, inst, true);
      return true;
   case SPIRV_OP_SDot:
   case SPIRV_OP_UDot:
   case SPIRV_OP_SUDot:
   case SPIRV_OP_SDotAccSat:
   case SPIRV_OP_UDotAccSat:
   case SPIRV_OP_SUDotAccSat:
      integer_dot(c, inst);
      return true;
   case SPIRV_OP_IAddCarry:
   case SPIRV_OP_ISubBorrow:
      add_carry(c, inst, op == SPIRV_OP_ISubBorrow);
      return true;
   case SPIRV_OP_UMulExtended:
   case SPIRV_OP_SMulExtended:
      mul_extended(c, inst, op == SPIRV_OP_SMulExtended);
      return true;
   case SPIRV_OP_BitFieldInsert:
   case SPIRV_OP_BitFieldSExtract:
   case SPIRV_OP_BitFieldUExtract:
      bitfield(c, inst);
      return true;
   case SPIRV_OP_BitReverse:
      unary(c, inst, PPU_OP_BREV, PPU_TYPE_U32);
      return true;
   case SPIRV_OP_BitCount:
      unary(c, inst, PPU_OP_POPC, PPU_TYPE_U32);
      return true;
   default:
      return false;
   }
}
