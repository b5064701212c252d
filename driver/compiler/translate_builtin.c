/* Compute built-ins (translate.h) from special registers (docs/isa.md
 * "State"; Vulkan spec 15.9 "Built-In Variables"). */
#include "translate.h"

static uint32_t sreg(struct xl_ctx *c, enum ppu_sreg sr)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_S2R, PPU_TYPE_U32, d, 0, sr)->f.b_imm = false;
   return d;
}

uint32_t xl_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   switch (builtin) {
   case SPIRV_BUILT_IN_LocalInvocationId:
      return sreg(c, PPU_SR_TID_X + k);
   case SPIRV_BUILT_IN_WorkgroupId:
      return sreg(c, PPU_SR_CTAID_X + k);
   case SPIRV_BUILT_IN_NumWorkgroups:
      return sreg(c, PPU_SR_NCTAID_X + k);
   case SPIRV_BUILT_IN_WorkgroupSize:
      return sreg(c, PPU_SR_NTID_X + k);
   case SPIRV_BUILT_IN_GlobalInvocationId: {
      uint32_t d = ir_new_vreg(c->ir, 1);
      uint32_t group = sreg(c, PPU_SR_CTAID_X + k), size = sreg(c, PPU_SR_NTID_X + k);
      uint32_t local = sreg(c, PPU_SR_TID_X + k);
      xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, d, group, size)->src[2] = local;
      return d;
   }
   case SPIRV_BUILT_IN_LocalInvocationIndex:
      return sreg(c, PPU_SR_TID_FLAT);
   case SPIRV_BUILT_IN_SubgroupSize:
      return xl_imm32(c, PPU_WARP_SIZE);
   case SPIRV_BUILT_IN_SubgroupLocalInvocationId:
      return sreg(c, PPU_SR_LANEID);
   case SPIRV_BUILT_IN_SubgroupId:
      return sreg(c, PPU_SR_WARPID);
   case SPIRV_BUILT_IN_NumSubgroups:
      return sreg(c, PPU_SR_NWARPS);
   case SPIRV_BUILT_IN_SubgroupEqMask:
   case SPIRV_BUILT_IN_SubgroupLtMask:
   case SPIRV_BUILT_IN_SubgroupLeMask:
   case SPIRV_BUILT_IN_SubgroupGtMask:
   case SPIRV_BUILT_IN_SubgroupGeMask:
      if (k)
         return xl_imm32(c, 0);
      return sreg(c, builtin == SPIRV_BUILT_IN_SubgroupEqMask   ? PPU_SR_LANEMASK_EQ
                     : builtin == SPIRV_BUILT_IN_SubgroupLtMask ? PPU_SR_LANEMASK_LT
                     : builtin == SPIRV_BUILT_IN_SubgroupLeMask ? PPU_SR_LANEMASK_LE
                     : builtin == SPIRV_BUILT_IN_SubgroupGtMask ? PPU_SR_LANEMASK_GT
                                                                : PPU_SR_LANEMASK_GE);
   default:
      xl_fail(c, "unsupported built-in %u", builtin);
      return ir_new_vreg(c->ir, 1);
   }
}
