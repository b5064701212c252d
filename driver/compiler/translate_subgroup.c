/* Subgroup (GroupNonUniform*) instructions (translate.h). A subgroup is a
 * warp of 32 lanes (docs/isa.md "State"); the instructions map onto VOTE,
 * SHFL and WRED, which act on the lanes executing them, as the SPIR-V
 * "non-uniform" semantics ask (SPIR-V spec 3.52.25): a lane that does not
 * execute the instruction contributes nothing.
 *
 * WRED reduces and scans 32-bit values with add/min/max/and/or/xor over the
 * whole warp. Everything else of the ARITHMETIC and CLUSTERED categories
 * (multiplication, doubles, clusters smaller than the subgroup) is a serial
 * scan: one SHFL.IDX per source lane in lane order, each taken only when its
 * bit is set in the executing lane's mask of contributors. A log-step
 * (butterfly or Kogge-Stone) scan would read the partial results of lanes
 * that are not executing, which never computed them; the serial form reads
 * only source values, so divergent code and partial last subgroups are exact,
 * and it combines in lane order as WRED does. */
#include "translate.h"

static uint32_t vr(struct xl_ctx *c)
{
   return ir_new_vreg(c->ir, 1);
}

static uint32_t sreg(struct xl_ctx *c, enum ppu_sreg sr)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_S2R, PPU_TYPE_U32, d, 0, 0)->f.imm = sr;
   return d;
}

/* d = ballot of predicate P0 (or of every executing lane when all). */
static uint32_t ballot(struct xl_ctx *c, bool all)
{
   uint32_t d = vr(c);
   struct ir_insn *i = xl_op(c, PPU_OP_VOTE, PPU_TYPE_U32, d, 0, 0);
   i->f.subop = PPU_VOTE_ANY;
   i->f.ps = all ? PPU_PT : 0;
   return d;
}

static uint32_t first_lane(struct xl_ctx *c)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_FFS, PPU_TYPE_U32, d, ballot(c, true), 0);
   return d;
}

/* x (one register or a 64-bit pair) as seen from the lane SHFL `mode`
 * selects with `lane`: one SHFL per register, the halves of a pair named by
 * the part fields (ir.h), so no moves are needed to take it apart. */
static uint32_t shuffle(struct xl_ctx *c, enum ppu_shfl mode, uint32_t x, uint32_t lane)
{
   unsigned regs = c->ir->vreg_size[x];
   uint32_t d = ir_new_vreg(c->ir, regs);
   for (unsigned k = 0; k < regs; k++) {
      struct ir_insn *i = xl_op(c, PPU_OP_SHFL, PPU_TYPE_U32, d, x, lane);
      i->f.subop = mode;
      i->part[0] = i->part[1] = (uint8_t)k;
   }
   return d;
}

static uint32_t op_imm(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t imm)
{
   uint32_t d = vr(c);
   xl_op_imm(c, op, PPU_TYPE_U32, d, a, imm);
   return d;
}

static uint32_t op_reg(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t b)
{
   uint32_t d = vr(c);
   xl_op(c, op, PPU_TYPE_U32, d, a, b);
   return d;
}

/* A constant in regs registers (64-bit: one MOV per half, as MOV.U64 of an
 * immediate would sign-extend the low word). */
static uint32_t constant(struct xl_ctx *c, uint64_t bits, unsigned regs)
{
   if (regs == 1)
      return xl_imm32(c, (uint32_t)bits);
   uint32_t d = ir_new_vreg(c->ir, 2);
   for (unsigned k = 0; k < 2; k++)
      xl_op_imm(c, PPU_OP_MOV, PPU_TYPE_U32, d, 0, (uint32_t)(bits >> (32 * k)))->part[0] =
          (uint8_t)k;
   return d;
}

/* ---------------------------------------------------------------------------
 * Operand checks: the front end does not type these instructions, and a
 * mismatch must be an error, not a wrong register size further on.
 * ------------------------------------------------------------------------- */

/* A scalar or vector of bool, integer or float. */
struct sg_type {
   enum spirv_type_kind kind;
   uint32_t width, count;
   bool is_signed;
};

static bool sg_type_of(struct xl_ctx *c, uint32_t type, struct sg_type *out)
{
   const struct spirv_type *t = spirv_type(c->m, type);
   out->count = 1;
   if (t && t->kind == SPIRV_TYPE_VECTOR) {
      out->count = t->u.vector.component_count;
      t = spirv_type(c->m, t->u.vector.component_type);
   }
   if (!t ||
       (t->kind != SPIRV_TYPE_BOOL && t->kind != SPIRV_TYPE_INT && t->kind != SPIRV_TYPE_FLOAT))
      return false;
   out->kind = t->kind;
   out->width = t->kind == SPIRV_TYPE_BOOL ? 32 : t->u.scalar.width;
   out->is_signed = t->kind == SPIRV_TYPE_INT && t->u.scalar.is_signed;
   return true;
}

static bool require_operands(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t n)
{
   if (inst->operand_count != n)
      xl_fail(c, "takes %u operands, got %u", n, inst->operand_count);
   return !c->failed;
}

/* Vulkan allows only Subgroup as the execution scope of these instructions
 * ("Scope for Non Uniform Group Operations"), and it must be a constant. */
static bool check_scope(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint64_t scope = 0;
   if (!spirv_constant_scalar(c->m, xl_word(c, inst, 0), &scope) || scope != SPIRV_SCOPE_Subgroup)
      xl_fail(c, "the execution scope must be the constant Subgroup");
   return !c->failed;
}

/* The result type, which operand i must also have, is a scalar or vector
 * of bool, integer or float. */
static bool result_like_operand(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i,
                                struct sg_type *t)
{
   uint32_t id = xl_word(c, inst, i);
   if (!sg_type_of(c, inst->result_type, t))
      xl_fail(c, "result type %%%u is not a scalar or vector of bool, integer or float",
              inst->result_type);
   else if (spirv_id_type(c->m, id) != inst->result_type)
      xl_fail(c, "operand %%%u does not have the result type %%%u", id, inst->result_type);
   return !c->failed;
}

static bool is_type(struct xl_ctx *c, uint32_t type, enum spirv_type_kind kind, uint32_t width,
                    uint32_t count)
{
   struct sg_type t;
   return sg_type_of(c, type, &t) && t.kind == kind && t.count == count &&
          (kind == SPIRV_TYPE_BOOL || t.width == width);
}

/* Operand i is a 32-bit integer scalar (a lane, mask, delta or index). */
static bool check_lane_operand(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i)
{
   uint32_t id = xl_word(c, inst, i);
   if (!is_type(c, spirv_id_type(c->m, id), SPIRV_TYPE_INT, 32, 1))
      xl_fail(c, "operand %%%u is not a 32-bit integer scalar", id);
   return !c->failed;
}

/* Operand i is a bool scalar; the result is one too. */
static bool check_predicate(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i,
                            bool bool_result)
{
   uint32_t id = xl_word(c, inst, i);
   if (!is_type(c, spirv_id_type(c->m, id), SPIRV_TYPE_BOOL, 32, 1))
      xl_fail(c, "operand %%%u is not a bool scalar", id);
   else if (bool_result && !is_type(c, inst->result_type, SPIRV_TYPE_BOOL, 32, 1))
      xl_fail(c, "result type %%%u is not bool", inst->result_type);
   return !c->failed;
}

/* Operand i is a ballot: a uvec4 (SPIR-V: "a vector of four components of
 * integer type scalar, whose Width operand is 32"). */
static bool check_ballot_operand(struct xl_ctx *c, const struct spirv_inst *inst, uint32_t i)
{
   uint32_t id = xl_word(c, inst, i);
   if (!is_type(c, spirv_id_type(c->m, id), SPIRV_TYPE_INT, 32, 4))
      xl_fail(c, "operand %%%u is not a vector of four 32-bit integers", id);
   return !c->failed;
}

/* ---------------------------------------------------------------------------
 * Arithmetic and clustered reductions
 * ------------------------------------------------------------------------- */

enum sg_operand_kind { SG_INT, SG_FLOAT, SG_BOOL };

struct sg_arith {
   uint32_t opcode;
   enum sg_operand_kind kind;
   enum ppu_op alu;      /* the serial scan's combining instruction */
   bool is_signed;       /* IMIN/IMAX signedness */
   enum ppu_redop redop; /* WRED's op, PPU_REDOP_COUNT when WRED has none */
};

static const struct sg_arith sg_ariths[] = {
    {SPIRV_OP_GroupNonUniformIAdd, SG_INT, PPU_OP_IADD, false, PPU_REDOP_ADD},
    {SPIRV_OP_GroupNonUniformFAdd, SG_FLOAT, PPU_OP_FADD, false, PPU_REDOP_ADD},
    {SPIRV_OP_GroupNonUniformIMul, SG_INT, PPU_OP_IMUL, false, PPU_REDOP_COUNT},
    {SPIRV_OP_GroupNonUniformFMul, SG_FLOAT, PPU_OP_FMUL, false, PPU_REDOP_COUNT},
    {SPIRV_OP_GroupNonUniformSMin, SG_INT, PPU_OP_IMIN, true, PPU_REDOP_MIN},
    {SPIRV_OP_GroupNonUniformUMin, SG_INT, PPU_OP_IMIN, false, PPU_REDOP_MIN},
    {SPIRV_OP_GroupNonUniformFMin, SG_FLOAT, PPU_OP_FMIN, false, PPU_REDOP_MIN},
    {SPIRV_OP_GroupNonUniformSMax, SG_INT, PPU_OP_IMAX, true, PPU_REDOP_MAX},
    {SPIRV_OP_GroupNonUniformUMax, SG_INT, PPU_OP_IMAX, false, PPU_REDOP_MAX},
    {SPIRV_OP_GroupNonUniformFMax, SG_FLOAT, PPU_OP_FMAX, false, PPU_REDOP_MAX},
    {SPIRV_OP_GroupNonUniformBitwiseAnd, SG_INT, PPU_OP_AND, false, PPU_REDOP_AND},
    {SPIRV_OP_GroupNonUniformBitwiseOr, SG_INT, PPU_OP_OR, false, PPU_REDOP_OR},
    {SPIRV_OP_GroupNonUniformBitwiseXor, SG_INT, PPU_OP_XOR, false, PPU_REDOP_XOR},
    {SPIRV_OP_GroupNonUniformLogicalAnd, SG_BOOL, PPU_OP_AND, false, PPU_REDOP_AND},
    {SPIRV_OP_GroupNonUniformLogicalOr, SG_BOOL, PPU_OP_OR, false, PPU_REDOP_OR},
    {SPIRV_OP_GroupNonUniformLogicalXor, SG_BOOL, PPU_OP_XOR, false, PPU_REDOP_XOR},
};

static const struct sg_arith *find_arith(uint32_t opcode)
{
   for (size_t k = 0; k < sizeof(sg_ariths) / sizeof(sg_ariths[0]); k++)
      if (sg_ariths[k].opcode == opcode)
         return &sg_ariths[k];
   return NULL;
}

/* The instruction type of a's combining op on operands of `wide` (64-bit)
 * width. */
static enum ppu_type alu_type(const struct sg_arith *a, bool wide)
{
   if (a->kind == SG_FLOAT)
      return wide ? PPU_TYPE_F64 : PPU_TYPE_F32;
   if (a->alu == PPU_OP_IMIN || a->alu == PPU_OP_IMAX)
      return a->is_signed ? (wide ? PPU_TYPE_S64 : PPU_TYPE_S32)
                          : (wide ? PPU_TYPE_U64 : PPU_TYPE_U32);
   return wide ? PPU_TYPE_U64 : PPU_TYPE_U32;
}

/* The identity I of the SPIR-V operation (the value an exclusive scan gives
 * a lane with no active lane below it), as the bits of the operand type. */
static uint64_t identity(const struct sg_arith *a, bool wide)
{
   uint64_t ones = wide ? ~0ull : 0xffffffffull, sign = wide ? 1ull << 63 : 1ull << 31;
   switch (a->alu) {
   case PPU_OP_IMUL:
      return 1;
   case PPU_OP_FMUL:
      return wide ? 0x3ff0000000000000ull : 0x3f800000u;
   case PPU_OP_IMIN:
      return a->is_signed ? ones ^ sign : ones;
   case PPU_OP_IMAX:
      return a->is_signed ? sign : 0;
   case PPU_OP_FMIN: /* +inf */
      return wide ? 0x7ff0000000000000ull : 0x7f800000u;
   case PPU_OP_FMAX: /* -inf */
      return wide ? 0xfff0000000000000ull : 0xff800000u;
   case PPU_OP_AND: /* a bool's true is 1, not all ones */
      return a->kind == SG_BOOL ? 1 : ones;
   default: /* add, or, xor; FAdd's is +0.0, as WRED's */
      return 0;
   }
}

/* d = op over the lanes base + j, j < width, whose bit j is set in the
 * executing lane's `contributors`, in lane order; base is a vreg of the
 * lane's cluster base, or 0 for lane 0. */
static void serial_scan(struct xl_ctx *c, const struct sg_arith *a, struct xl_val v,
                        struct xl_val d, uint32_t contributors, uint32_t base, uint32_t width)
{
   uint32_t acc[SPIRV_MAX_VECTOR_COMPONENTS];
   for (uint32_t k = 0; k < v.count; k++) {
      unsigned regs = c->ir->vreg_size[xl_comp(c, v, k)];
      acc[k] = constant(c, identity(a, regs == 2), regs);
   }
   for (uint32_t j = 0; j < width && !c->failed; j++) {
      uint32_t lane = base ? op_imm(c, PPU_OP_OR, base, j) : xl_imm32(c, j);
      xl_bool_to_p0(c, op_imm(c, PPU_OP_AND, contributors, 1u << j));
      /* P0 holds for every component: SHFL, the ops and SEL write no
       * predicate. */
      for (uint32_t k = 0; k < v.count; k++) {
         uint32_t x = xl_comp(c, v, k);
         unsigned regs = c->ir->vreg_size[x];
         uint32_t r = ir_new_vreg(c->ir, regs), next = ir_new_vreg(c->ir, regs);
         xl_op(c, a->alu, alu_type(a, regs == 2), r, acc[k], shuffle(c, PPU_SHFL_IDX, x, lane));
         struct ir_insn *sel =
             xl_op(c, PPU_OP_SEL, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, next, r, acc[k]);
         sel->f.ps = 0;
         acc[k] = next;
      }
   }
   for (uint32_t k = 0; k < v.count; k++)
      xl_mov(c, xl_comp(c, d, k), acc[k], c->ir->vreg_size[acc[k]]);
}

/* The ClusterSize operand: a constant power of two (SPIR-V spec
 * OpGroupNonUniform*: "ClusterSize must be an integer constant ... at least
 * 1 ... a power of 2"). Sizes beyond the subgroup reduce the subgroup. */
static uint32_t cluster_size(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint64_t n = 0;
   if (inst->operand_count != 4 || !spirv_constant_scalar(c->m, xl_word(c, inst, 3), &n) ||
       !is_type(c, spirv_id_type(c->m, xl_word(c, inst, 3)), SPIRV_TYPE_INT, 32, 1) || n == 0 ||
       (n & (n - 1))) {
      xl_fail(c, "ClusteredReduce needs a ClusterSize that is a constant power of two");
      return 0;
   }
   return n > PPU_WARP_SIZE ? PPU_WARP_SIZE : (uint32_t)n;
}

/* 8- and 16-bit integers live in 32-bit registers, extended per their
 * type's signedness (translate_alu.c). A copy of v's components extended
 * from `width` bits as signed or unsigned, in fresh registers of `type`. */
static struct xl_val extend_narrow(struct xl_ctx *c, struct xl_val v, uint32_t type, uint32_t width,
                                   bool is_signed)
{
   struct xl_val e = xl_new_val(c, type);
   for (uint32_t k = 0; k < v.count && !c->failed; k++)
      xl_op_imm(c, PPU_OP_BFE, is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32, xl_comp(c, e, k),
                xl_comp(c, v, k), width << 8);
   return e;
}

/* Signed min/max of narrow integers run as 32-bit ones on sign-extended
 * values; only the identity an exclusive scan gives a lane with nothing
 * below it (INT32_MAX, INT32_MIN) lies outside the narrow range, and
 * clamping maps it to the narrow identity while leaving real values be. */
static struct xl_val clamp_to_narrow_signed(struct xl_ctx *c, struct xl_val d, uint32_t type,
                                            uint32_t width)
{
   const uint32_t max = (1u << (width - 1)) - 1u, min = ~max;
   struct xl_val e = xl_new_val(c, type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      uint32_t lo = vr(c);
      xl_op(c, PPU_OP_IMIN, PPU_TYPE_S32, lo, xl_comp(c, d, k), xl_imm32(c, max));
      xl_op(c, PPU_OP_IMAX, PPU_TYPE_S32, xl_comp(c, e, k), lo, xl_imm32(c, min));
   }
   return e;
}

static void arithmetic(struct xl_ctx *c, const struct spirv_inst *inst, const struct sg_arith *a)
{
   uint32_t group_op = xl_word(c, inst, 1), cluster = PPU_WARP_SIZE;
   struct sg_type t;
   if (inst->operand_count < 3) {
      xl_fail(c, "takes 3 or 4 operands, got %u", inst->operand_count);
      return;
   }
   if (!check_scope(c, inst) || !result_like_operand(c, inst, 2, &t))
      return;
   if (group_op == SPIRV_GROUP_OPERATION_ClusteredReduce) {
      cluster = cluster_size(c, inst);
      if (cluster == PPU_WARP_SIZE) /* the whole subgroup */
         group_op = SPIRV_GROUP_OPERATION_Reduce;
   } else if (group_op > SPIRV_GROUP_OPERATION_ExclusiveScan) {
      xl_fail(c, "unsupported group operation %u (partitioned)", group_op);
   } else {
      require_operands(c, inst, 3);
   }
   enum sg_operand_kind kind = t.kind == SPIRV_TYPE_BOOL    ? SG_BOOL
                               : t.kind == SPIRV_TYPE_FLOAT ? SG_FLOAT
                                                            : SG_INT;
   if (!c->failed && kind != a->kind)
      xl_fail(c, "operand type does not suit the operation");
   /* shaderSubgroupExtendedTypes: 8/16/64-bit integers. 64-bit integers
    * come with the serial scan; narrow ones run as 32-bit values extended
    * for the operation (sign for SMin/SMax, else the type's) and are
    * re-extended for the result type at the end. 16-bit floats are not a
    * feature of this device (shaderFloat16). */
   if (!c->failed && t.kind == SPIRV_TYPE_FLOAT && t.width < 32)
      xl_fail(c, "unsupported: 16-bit float subgroup arithmetic (shaderFloat16 is not supported)");
   const bool narrow = t.kind == SPIRV_TYPE_INT && t.width < 32;
   const bool is_min_max = a->alu == PPU_OP_IMIN || a->alu == PPU_OP_IMAX;
   struct xl_val v = xl_get(c, xl_word(c, inst, 2));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (!c->failed && (v.count != d.count || v.count > SPIRV_MAX_VECTOR_COMPONENTS))
      xl_fail(c, "internal: a %u-component value for a %u-component result", v.count, d.count);
   if (c->failed)
      return;
   if (narrow)
      v = extend_narrow(c, v, inst->result_type, t.width, is_min_max ? a->is_signed : t.is_signed);
   if (cluster == 1) { /* the lane alone (it executes, so it is active) */
      for (uint32_t k = 0; k < v.count; k++)
         xl_mov(c, xl_comp(c, d, k), xl_comp(c, v, k), c->ir->vreg_size[xl_comp(c, v, k)]);
   } else if (t.width <= 32 && a->redop != PPU_REDOP_COUNT && cluster == PPU_WARP_SIZE) {
      enum ppu_scan mode = group_op == SPIRV_GROUP_OPERATION_InclusiveScan   ? PPU_SCAN_INCLUSIVE
                           : group_op == SPIRV_GROUP_OPERATION_ExclusiveScan ? PPU_SCAN_EXCLUSIVE
                                                                             : PPU_SCAN_REDUCE;
      /* WRED's AND identity is all ones, which an exclusive scan gives the
       * lowest lane; a bool is 0 or 1. */
      bool to_bool = a->kind == SG_BOOL && a->alu == PPU_OP_AND && mode == PPU_SCAN_EXCLUSIVE;
      for (uint32_t k = 0; k < d.count; k++) {
         uint32_t r = to_bool ? vr(c) : xl_comp(c, d, k);
         struct ir_insn *i = xl_op(c, PPU_OP_WRED, alu_type(a, false), r, xl_comp(c, v, k), 0);
         i->f.subop = a->redop;
         i->f.mode = mode;
         if (to_bool)
            xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, xl_comp(c, d, k), r, 1);
      }
   } else {
      uint32_t active = ballot(c, true), base = 0, contributors = active;
      if (cluster < PPU_WARP_SIZE) {
         base = op_imm(c, PPU_OP_AND, sreg(c, PPU_SR_LANEID), ~(cluster - 1));
         contributors = op_reg(c, PPU_OP_SHR, active, base);
      } else if (group_op != SPIRV_GROUP_OPERATION_Reduce) {
         contributors =
             op_reg(c, PPU_OP_AND, active,
                    sreg(c, group_op == SPIRV_GROUP_OPERATION_InclusiveScan ? PPU_SR_LANEMASK_LE
                                                                            : PPU_SR_LANEMASK_LT));
      }
      serial_scan(c, a, v, d, contributors, base, cluster);
   }
   if (narrow) {
      if (is_min_max && a->is_signed)
         d = clamp_to_narrow_signed(c, d, inst->result_type, t.width);
      d = extend_narrow(c, d, inst->result_type, t.width, t.is_signed);
   }
   xl_set(c, inst->result_id, d);
}

/* ---------------------------------------------------------------------------
 * Votes, ballots and shuffles
 * ------------------------------------------------------------------------- */

static void vote(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (!require_operands(c, inst, 2) || !check_scope(c, inst) || !check_predicate(c, inst, 1, true))
      return;
   struct xl_val p = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   xl_bool_to_p0(c, xl_comp(c, p, 0));
   struct ir_insn *i = xl_op(c, PPU_OP_VOTE, PPU_TYPE_U32, 0, 0, 0);
   i->f.subop = inst->opcode == SPIRV_OP_GroupNonUniformAll ? PPU_VOTE_ALL : PPU_VOTE_ANY;
   i->f.pd = 0;
   i->f.ps = 0;
   xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
   xl_set(c, inst->result_id, d);
}

/* True when every executing lane's value equals the first executing lane's:
 * floats compare as floats (-0 equals +0, NaN equals nothing, as Mesa's
 * vote_feq does), everything else bit for bit. */
static void all_equal(struct xl_ctx *c, const struct spirv_inst *inst)
{
   struct sg_type t;
   if (!require_operands(c, inst, 2) || !check_scope(c, inst) ||
       !sg_type_of(c, spirv_id_type(c->m, xl_word(c, inst, 1)), &t)) {
      xl_fail(c, "operand is not a scalar or vector of bool, integer or float");
      return;
   }
   if (!is_type(c, inst->result_type, SPIRV_TYPE_BOOL, 32, 1)) {
      xl_fail(c, "result type %%%u is not bool", inst->result_type);
      return;
   }
   struct xl_val v = xl_get(c, xl_word(c, inst, 1));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed)
      return;
   uint32_t lane = first_lane(c), all = xl_imm32(c, 1);
   for (uint32_t k = 0; k < v.count; k++) {
      uint32_t x = xl_comp(c, v, k), first = shuffle(c, PPU_SHFL_IDX, x, lane);
      bool wide = c->ir->vreg_size[x] == 2;
      enum ppu_type ty = wide ? PPU_TYPE_U64 : PPU_TYPE_U32;
      enum ppu_op cmp = PPU_OP_ISETP;
      if (t.kind == SPIRV_TYPE_FLOAT && t.width >= 32) {
         ty = wide ? PPU_TYPE_F64 : PPU_TYPE_F32;
         cmp = PPU_OP_FSETP;
      } else if (t.kind == SPIRV_TYPE_FLOAT) { /* a half in the low bits */
         uint32_t hx = vr(c), hf = vr(c);
         struct ir_insn *i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, hx, x, 0);
         i->f.type2 = PPU_TYPE_F16;
         i = xl_op(c, PPU_OP_CVT, PPU_TYPE_F32, hf, first, 0);
         i->f.type2 = PPU_TYPE_F16;
         x = hx;
         first = hf;
         ty = PPU_TYPE_F32;
         cmp = PPU_OP_FSETP;
      }
      struct ir_insn *i = xl_op(c, cmp, ty, 0, x, first);
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      all = op_reg(c, PPU_OP_AND, all, xl_p0_to_bool(c));
   }
   xl_bool_to_p0(c, all);
   struct ir_insn *i = xl_op(c, PPU_OP_VOTE, PPU_TYPE_U32, 0, 0, 0);
   i->f.subop = PPU_VOTE_ALL;
   i->f.pd = 0;
   i->f.ps = 0;
   xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
   xl_set(c, inst->result_id, d);
}

/* Broadcast, BroadcastFirst, Shuffle*, QuadBroadcast, QuadSwap: the result
 * is the value of another lane, which SHFL reads per register. Reading a
 * lane that does not execute, or one beyond the subgroup, is undefined in
 * SPIR-V; SHFL gives the lane's own value for the latter. */
static void exchange(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode;
   bool has_lane = op != SPIRV_OP_GroupNonUniformBroadcastFirst;
   struct sg_type t;
   if (!require_operands(c, inst, has_lane ? 3 : 2) || !check_scope(c, inst) ||
       !result_like_operand(c, inst, 1, &t) || (has_lane && !check_lane_operand(c, inst, 2)))
      return;
   enum ppu_shfl mode = PPU_SHFL_IDX;
   uint32_t lane = 0;
   switch (op) {
   case SPIRV_OP_GroupNonUniformBroadcastFirst:
      lane = first_lane(c);
      break;
   case SPIRV_OP_GroupNonUniformShuffleXor:
      mode = PPU_SHFL_BFLY;
      break;
   case SPIRV_OP_GroupNonUniformShuffleUp:
      mode = PPU_SHFL_UP;
      break;
   case SPIRV_OP_GroupNonUniformShuffleDown:
      mode = PPU_SHFL_DOWN;
      break;
   case SPIRV_OP_GroupNonUniformQuadSwap: {
      /* Direction 0, 1, 2 (horizontal, vertical, diagonal) is lane ^ 1, 2,
       * 3 within the quad; SPIR-V requires a constant. */
      uint64_t dir = 0;
      if (!spirv_constant_scalar(c->m, xl_word(c, inst, 2), &dir) || dir > 2) {
         xl_fail(c, "Direction must be the constant 0, 1 or 2");
         return;
      }
      mode = PPU_SHFL_BFLY;
      lane = xl_imm32(c, (uint32_t)dir + 1);
      break;
   }
   default:
      break;
   }
   struct xl_val v = xl_get(c, xl_word(c, inst, 1));
   if (!lane && has_lane)
      lane = xl_comp(c, xl_get(c, xl_word(c, inst, 2)), 0);
   if (op == SPIRV_OP_GroupNonUniformQuadBroadcast) /* lane 4 * quad + index */
      lane = op_reg(c, PPU_OP_OR, op_imm(c, PPU_OP_AND, sreg(c, PPU_SR_LANEID), ~3u),
                    op_imm(c, PPU_OP_AND, lane, 3));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed || v.count != d.count)
      return;
   for (uint32_t k = 0; k < v.count; k++) {
      uint32_t x = xl_comp(c, v, k);
      xl_mov(c, xl_comp(c, d, k), shuffle(c, mode, x, lane), c->ir->vreg_size[x]);
   }
   xl_set(c, inst->result_id, d);
}

/* The ballot instructions read only the first word of a ballot: the
 * subgroup's 32 lanes (SPIR-V: "considering only the bits in Value required
 * to represent all bits of the group's invocations"). */
static void ballot_op(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode, value_at = op == SPIRV_OP_GroupNonUniformBallotBitCount ? 2 : 1;
   uint32_t operands = op == SPIRV_OP_GroupNonUniformBallotBitCount ||
                               op == SPIRV_OP_GroupNonUniformBallotBitExtract
                           ? 3
                           : 2;
   bool bool_result = op == SPIRV_OP_GroupNonUniformInverseBallot ||
                      op == SPIRV_OP_GroupNonUniformBallotBitExtract;
   if (!require_operands(c, inst, operands) || !check_scope(c, inst) ||
       !check_ballot_operand(c, inst, value_at) ||
       (op == SPIRV_OP_GroupNonUniformBallotBitExtract && !check_lane_operand(c, inst, 2)))
      return;
   if (bool_result ? !is_type(c, inst->result_type, SPIRV_TYPE_BOOL, 32, 1)
                   : !is_type(c, inst->result_type, SPIRV_TYPE_INT, 32, 1)) {
      xl_fail(c, "result type %%%u is not a %s scalar", inst->result_type,
              bool_result ? "bool" : "32-bit integer");
      return;
   }
   struct xl_val b = xl_get(c, xl_word(c, inst, value_at));
   struct xl_val d = xl_new_val(c, inst->result_type);
   if (c->failed || b.count != 4)
      return;
   uint32_t bits = xl_comp(c, b, 0), r = xl_comp(c, d, 0);
   switch (op) {
   case SPIRV_OP_GroupNonUniformInverseBallot:
      xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, r, op_reg(c, PPU_OP_SHR, bits, sreg(c, PPU_SR_LANEID)),
                1);
      break;
   case SPIRV_OP_GroupNonUniformBallotBitExtract: {
      /* Any index of the 128 bits: word index >> 5, bit index mod 32 (SHR
       * takes its count mod 32). */
      uint32_t index = xl_comp(c, xl_get(c, xl_word(c, inst, 2)), 0);
      uint32_t word = op_imm(c, PPU_OP_SHR, index, 5);
      for (uint32_t k = 1; k < 4; k++) {
         struct ir_insn *i = xl_op_imm(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, word, k);
         i->f.subop = PPU_CMP_EQ;
         i->f.pd = 0;
         uint32_t n = vr(c);
         xl_op(c, PPU_OP_SEL, PPU_TYPE_U32, n, xl_comp(c, b, k), bits)->f.ps = 0;
         bits = n;
      }
      xl_op_imm(c, PPU_OP_AND, PPU_TYPE_U32, r, op_reg(c, PPU_OP_SHR, bits, index), 1);
      break;
   }
   case SPIRV_OP_GroupNonUniformBallotBitCount: {
      uint32_t group_op = xl_word(c, inst, 1);
      if (group_op > SPIRV_GROUP_OPERATION_ExclusiveScan) {
         xl_fail(c, "group operation %u is not Reduce, InclusiveScan or ExclusiveScan", group_op);
         return;
      }
      if (group_op != SPIRV_GROUP_OPERATION_Reduce)
         bits =
             op_reg(c, PPU_OP_AND, bits,
                    sreg(c, group_op == SPIRV_GROUP_OPERATION_InclusiveScan ? PPU_SR_LANEMASK_LE
                                                                            : PPU_SR_LANEMASK_LT));
      xl_op(c, PPU_OP_POPC, PPU_TYPE_U32, r, bits, 0);
      break;
   }
   case SPIRV_OP_GroupNonUniformBallotFindLSB:
      xl_op(c, PPU_OP_FFS, PPU_TYPE_U32, r, bits, 0);
      break;
   default: /* FindMSB */
      xl_op(c, PPU_OP_FLO, PPU_TYPE_U32, r, bits, 0);
      break;
   }
   xl_set(c, inst->result_id, d);
}

bool xl_translate_subgroup(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode;
   const struct sg_arith *a = find_arith(op);
   if (a) {
      arithmetic(c, inst, a);
      return true;
   }
   switch (op) {
   case SPIRV_OP_GroupNonUniformElect: {
      if (!require_operands(c, inst, 1) || !check_scope(c, inst))
         return true;
      if (!is_type(c, inst->result_type, SPIRV_TYPE_BOOL, 32, 1)) {
         xl_fail(c, "result type %%%u is not bool", inst->result_type);
         return true;
      }
      struct xl_val d = xl_new_val(c, inst->result_type);
      struct ir_insn *i =
          xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, first_lane(c), sreg(c, PPU_SR_LANEID));
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
      xl_set(c, inst->result_id, d);
      return true;
   }
   case SPIRV_OP_GroupNonUniformAll:
   case SPIRV_OP_GroupNonUniformAny:
      vote(c, inst);
      return true;
   case SPIRV_OP_GroupNonUniformAllEqual:
      all_equal(c, inst);
      return true;
   case SPIRV_OP_GroupNonUniformBallot: {
      if (!require_operands(c, inst, 2) || !check_scope(c, inst) ||
          !check_predicate(c, inst, 1, false))
         return true;
      if (!is_type(c, inst->result_type, SPIRV_TYPE_INT, 32, 4)) {
         xl_fail(c, "result type %%%u is not a vector of four 32-bit integers", inst->result_type);
         return true;
      }
      struct xl_val p = xl_get(c, xl_word(c, inst, 1));
      struct xl_val d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      xl_bool_to_p0(c, xl_comp(c, p, 0));
      xl_mov(c, xl_comp(c, d, 0), ballot(c, false), 1);
      for (uint32_t k = 1; k < d.count; k++)
         xl_mov(c, xl_comp(c, d, k), xl_imm32(c, 0), 1);
      xl_set(c, inst->result_id, d);
      return true;
   }
   case SPIRV_OP_GroupNonUniformInverseBallot:
   case SPIRV_OP_GroupNonUniformBallotBitExtract:
   case SPIRV_OP_GroupNonUniformBallotBitCount:
   case SPIRV_OP_GroupNonUniformBallotFindLSB:
   case SPIRV_OP_GroupNonUniformBallotFindMSB:
      ballot_op(c, inst);
      return true;
   case SPIRV_OP_GroupNonUniformBroadcast:
   case SPIRV_OP_GroupNonUniformBroadcastFirst:
   case SPIRV_OP_GroupNonUniformShuffle:
   case SPIRV_OP_GroupNonUniformShuffleXor:
   case SPIRV_OP_GroupNonUniformShuffleUp:
   case SPIRV_OP_GroupNonUniformShuffleDown:
   case SPIRV_OP_GroupNonUniformQuadBroadcast:
   case SPIRV_OP_GroupNonUniformQuadSwap:
      exchange(c, inst);
      return true;
   default:
      return false;
   }
}
