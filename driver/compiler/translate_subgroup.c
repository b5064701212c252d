/* Subgroup (GroupNonUniform*) instructions (translate.h). A subgroup is a
 * warp of 32 lanes (docs/isa.md "State"); the instructions map onto VOTE,
 * SHFL and WRED, which act on the lanes executing them, as the SPIR-V
 * "non-uniform" semantics ask (SPIR-V spec 3.52.25). */
#include "translate.h"

static uint32_t vr(struct xl_ctx *c)
{
   return ir_new_vreg(c->ir, 1);
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

static uint32_t shuffle(struct xl_ctx *c, enum ppu_shfl mode, uint32_t value, uint32_t lane)
{
   uint32_t d = vr(c);
   struct ir_insn *i = xl_op(c, PPU_OP_SHFL, PPU_TYPE_U32, d, value, lane);
   i->f.subop = mode;
   return d;
}

static uint32_t sreg(struct xl_ctx *c, enum ppu_sreg sr)
{
   uint32_t d = vr(c);
   xl_op(c, PPU_OP_S2R, PPU_TYPE_U32, d, 0, 0)->f.imm = sr;
   return d;
}

static bool arithmetic_op(uint32_t op, enum ppu_redop *redop, bool *is_float, bool *is_signed)
{
   *is_float = *is_signed = false;
   switch (op) {
   case SPIRV_OP_GroupNonUniformIAdd:
      *redop = PPU_REDOP_ADD;
      return true;
   case SPIRV_OP_GroupNonUniformFAdd:
      *is_float = true;
      *redop = PPU_REDOP_ADD;
      return true;
   case SPIRV_OP_GroupNonUniformSMin:
      *is_signed = true;
      *redop = PPU_REDOP_MIN;
      return true;
   case SPIRV_OP_GroupNonUniformUMin:
      *redop = PPU_REDOP_MIN;
      return true;
   case SPIRV_OP_GroupNonUniformFMin:
      *is_float = true;
      *redop = PPU_REDOP_MIN;
      return true;
   case SPIRV_OP_GroupNonUniformSMax:
      *is_signed = true;
      *redop = PPU_REDOP_MAX;
      return true;
   case SPIRV_OP_GroupNonUniformUMax:
      *redop = PPU_REDOP_MAX;
      return true;
   case SPIRV_OP_GroupNonUniformFMax:
      *is_float = true;
      *redop = PPU_REDOP_MAX;
      return true;
   case SPIRV_OP_GroupNonUniformBitwiseAnd:
   case SPIRV_OP_GroupNonUniformLogicalAnd:
      *redop = PPU_REDOP_AND;
      return true;
   case SPIRV_OP_GroupNonUniformBitwiseOr:
   case SPIRV_OP_GroupNonUniformLogicalOr:
      *redop = PPU_REDOP_OR;
      return true;
   case SPIRV_OP_GroupNonUniformBitwiseXor:
   case SPIRV_OP_GroupNonUniformLogicalXor:
      *redop = PPU_REDOP_XOR;
      return true;
   default:
      return false;
   }
}

static void arithmetic(struct xl_ctx *c, const struct spirv_inst *inst, enum ppu_redop redop,
                       bool is_float, bool is_signed)
{
   uint32_t group_op = xl_word(c, inst, 1);
   if (group_op > SPIRV_GROUP_OPERATION_ExclusiveScan || inst->operand_count > 3) {
      xl_fail(c, "unsupported group operation %u (clustered/partitioned)", group_op);
      return;
   }
   struct xl_val v = xl_get(c, xl_word(c, inst, 2));
   struct xl_val d = xl_new_val(c, inst->result_type);
   for (uint32_t k = 0; k < d.count && !c->failed; k++) {
      if (c->ir->vreg_size[xl_comp(c, v, k)] != 1) {
         xl_fail(c, "unsupported: 64-bit subgroup arithmetic");
         return;
      }
      struct ir_insn *i = xl_op(c, PPU_OP_WRED,
                                is_float    ? PPU_TYPE_F32
                                : is_signed ? PPU_TYPE_S32
                                            : PPU_TYPE_U32,
                                xl_comp(c, d, k), xl_comp(c, v, k), 0);
      i->f.subop = redop;
      i->f.mode = group_op == SPIRV_GROUP_OPERATION_Reduce          ? PPU_SCAN_REDUCE
                  : group_op == SPIRV_GROUP_OPERATION_InclusiveScan ? PPU_SCAN_INCLUSIVE
                                                                    : PPU_SCAN_EXCLUSIVE;
   }
   xl_set(c, inst->result_id, d);
}

/* Operand 0 is the execution scope; only Subgroup is meaningful here. */
bool xl_translate_subgroup(struct xl_ctx *c, const struct spirv_inst *inst)
{
   uint32_t op = inst->opcode;
   enum ppu_redop redop;
   bool is_float, is_signed;
   if (arithmetic_op(op, &redop, &is_float, &is_signed)) {
      arithmetic(c, inst, redop, is_float, is_signed);
      return true;
   }
   struct xl_val d;
   switch (op) {
   case SPIRV_OP_GroupNonUniformElect: {
      d = xl_new_val(c, inst->result_type);
      struct ir_insn *i =
          xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, first_lane(c), sreg(c, PPU_SR_LANEID));
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
      break;
   }
   case SPIRV_OP_GroupNonUniformAll:
   case SPIRV_OP_GroupNonUniformAny: {
      struct xl_val p = xl_get(c, xl_word(c, inst, 1));
      d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      xl_bool_to_p0(c, xl_comp(c, p, 0));
      struct ir_insn *i = xl_op(c, PPU_OP_VOTE, PPU_TYPE_U32, 0, 0, 0);
      i->f.subop = op == SPIRV_OP_GroupNonUniformAll ? PPU_VOTE_ALL : PPU_VOTE_ANY;
      i->f.pd = 0;
      i->f.ps = 0;
      xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
      break;
   }
   case SPIRV_OP_GroupNonUniformAllEqual: {
      struct xl_val v = xl_get(c, xl_word(c, inst, 1));
      d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      uint32_t lane = first_lane(c), acc = 0;
      for (uint32_t k = 0; k < v.count; k++) {
         uint32_t x = xl_comp(c, v, k);
         if (c->ir->vreg_size[x] != 1) {
            xl_fail(c, "unsupported: 64-bit subgroupAllEqual");
            return true;
         }
         uint32_t first = shuffle(c, PPU_SHFL_IDX, x, lane), diff = vr(c);
         xl_op(c, PPU_OP_XOR, PPU_TYPE_U32, diff, x, first);
         if (acc) {
            uint32_t n = vr(c);
            xl_op(c, PPU_OP_OR, PPU_TYPE_U32, n, acc, diff);
            diff = n;
         }
         acc = diff;
      }
      struct ir_insn *i = xl_op(c, PPU_OP_ISETP, PPU_TYPE_U32, 0, acc, 0);
      i->f.rb = PPU_RZ;
      i->f.subop = PPU_CMP_EQ;
      i->f.pd = 0;
      i = xl_op(c, PPU_OP_VOTE, PPU_TYPE_U32, 0, 0, 0);
      i->f.subop = PPU_VOTE_ALL;
      i->f.pd = 0;
      i->f.ps = 0;
      xl_mov(c, xl_comp(c, d, 0), xl_p0_to_bool(c), 1);
      break;
   }
   case SPIRV_OP_GroupNonUniformBallot: {
      struct xl_val p = xl_get(c, xl_word(c, inst, 1));
      d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      xl_bool_to_p0(c, xl_comp(c, p, 0));
      xl_mov(c, xl_comp(c, d, 0), ballot(c, false), 1);
      for (uint32_t k = 1; k < d.count; k++)
         xl_mov(c, xl_comp(c, d, k), xl_imm32(c, 0), 1);
      break;
   }
   case SPIRV_OP_GroupNonUniformBallotBitCount: {
      uint32_t group_op = xl_word(c, inst, 1);
      struct xl_val b = xl_get(c, xl_word(c, inst, 2));
      d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      uint32_t bits = xl_comp(c, b, 0);
      if (group_op != SPIRV_GROUP_OPERATION_Reduce) {
         uint32_t masked = vr(c);
         xl_op(c, PPU_OP_AND, PPU_TYPE_U32, masked, bits,
               sreg(c, group_op == SPIRV_GROUP_OPERATION_InclusiveScan ? PPU_SR_LANEMASK_LE
                                                                       : PPU_SR_LANEMASK_LT));
         bits = masked;
      }
      xl_op(c, PPU_OP_POPC, PPU_TYPE_U32, xl_comp(c, d, 0), bits, 0);
      break;
   }
   case SPIRV_OP_GroupNonUniformBroadcast:
   case SPIRV_OP_GroupNonUniformBroadcastFirst:
   case SPIRV_OP_GroupNonUniformShuffle:
   case SPIRV_OP_GroupNonUniformShuffleXor:
   case SPIRV_OP_GroupNonUniformShuffleUp:
   case SPIRV_OP_GroupNonUniformShuffleDown: {
      struct xl_val v = xl_get(c, xl_word(c, inst, 1));
      d = xl_new_val(c, inst->result_type);
      if (c->failed)
         return true;
      uint32_t lane = op == SPIRV_OP_GroupNonUniformBroadcastFirst
                          ? first_lane(c)
                          : xl_comp(c, xl_get(c, xl_word(c, inst, 2)), 0);
      enum ppu_shfl mode = op == SPIRV_OP_GroupNonUniformShuffleXor    ? PPU_SHFL_BFLY
                           : op == SPIRV_OP_GroupNonUniformShuffleUp   ? PPU_SHFL_UP
                           : op == SPIRV_OP_GroupNonUniformShuffleDown ? PPU_SHFL_DOWN
                                                                       : PPU_SHFL_IDX;
      for (uint32_t k = 0; k < v.count && !c->failed; k++) {
         uint32_t x = xl_comp(c, v, k);
         if (c->ir->vreg_size[x] != 1) {
            xl_fail(c, "unsupported: 64-bit subgroup shuffles");
            return true;
         }
         xl_mov(c, xl_comp(c, d, k), shuffle(c, mode, x, lane), 1);
      }
      break;
   }
   default:
      return false;
   }
   xl_set(c, inst->result_id, d);
   return true;
}
