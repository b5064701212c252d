/* Compute built-ins (translate.h) from special registers (docs/isa.md
 * "State"; Vulkan spec 15.9 "Built-In Variables"). */
#include "translate.h"
#include "translate_graphics.h"

static uint32_t sreg(struct xl_ctx *c, enum ppu_sreg sr)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, PPU_OP_S2R, PPU_TYPE_U32, d, 0, sr)->f.b_imm = false;
   return d;
}

uint32_t xl_derivative_mode(struct xl_ctx *c)
{
   const char *name = c->req->entry_point ? c->req->entry_point : "main";
   const struct spirv_entry_point *ep =
       spirv_find_entry_point(c->m, name, SPIRV_EXECUTION_MODEL_GLCompute);
   for (uint32_t i = 0; ep && i < spirv_entry_point_mode_count(c->m, ep); i++) {
      uint32_t mode = spirv_entry_point_mode(c->m, ep, i)->mode;
      if (mode == SPIRV_EXECUTION_MODE_DerivativeGroupQuadsNV ||
          mode == SPIRV_EXECUTION_MODE_DerivativeGroupLinearNV)
         return mode;
   }
   return 0;
}

bool xl_has_derivatives(struct xl_ctx *c)
{
   return xl_derivative_mode(c) != 0 || (c->gfx && c->gfx->model == SPIRV_EXECUTION_MODEL_Fragment);
}

static uint32_t op_imm(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t imm)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op_imm(c, op, PPU_TYPE_U32, d, a, imm);
   return d;
}

static uint32_t op2(struct xl_ctx *c, enum ppu_op op, uint32_t a, uint32_t b)
{
   uint32_t d = ir_new_vreg(c->ir, 1);
   xl_op(c, op, PPU_TYPE_U32, d, a, b);
   return d;
}

/* The texture unit's derivative quads are lanes 4k..4k+3 (lane 1 is +x of
 * lane 0, lane 2 is +y; docs/isa.md "Textures"). DerivativeGroupLinearNV
 * quads are four consecutive LocalInvocationIndex values, which is already
 * that. DerivativeGroupQuadsNV quads are 2x2 blocks of LocalInvocationId
 * (x, y) (SPV_NV_compute_shader_derivatives; the workgroup's x and y
 * sizes are even), so under it the compiler numbers the invocations
 * differently: the thread with flat id f = 4k + q takes x = 2 (k mod w/2)
 * + (q & 1), y = 2 ((k div w/2) mod h/2) + (q >> 1), z = k div (w/2 h/2),
 * and LocalInvocationIndex follows from (x, y, z). */
static uint32_t quad_local_id(struct xl_ctx *c, uint32_t k)
{
   uint32_t flat = sreg(c, PPU_SR_TID_FLAT);
   uint32_t q = op_imm(c, PPU_OP_AND, flat, 3), quad = op_imm(c, PPU_OP_SHR, flat, 2);
   uint32_t half_w = op_imm(c, PPU_OP_SHR, sreg(c, PPU_SR_NTID_X), 1);
   if (k == 0)
      return op2(c, PPU_OP_OR, op_imm(c, PPU_OP_SHL, op2(c, PPU_OP_IREM, quad, half_w), 1),
                 op_imm(c, PPU_OP_AND, q, 1));
   uint32_t rows = op2(c, PPU_OP_IDIV, quad, half_w);
   uint32_t half_h = op_imm(c, PPU_OP_SHR, sreg(c, PPU_SR_NTID_Y), 1);
   if (k == 1)
      return op2(c, PPU_OP_OR, op_imm(c, PPU_OP_SHL, op2(c, PPU_OP_IREM, rows, half_h), 1),
                 op_imm(c, PPU_OP_SHR, q, 1));
   return op2(c, PPU_OP_IDIV, rows, half_h);
}

static uint32_t local_id(struct xl_ctx *c, uint32_t k)
{
   if (xl_derivative_mode(c) == SPIRV_EXECUTION_MODE_DerivativeGroupQuadsNV)
      return quad_local_id(c, k);
   return sreg(c, PPU_SR_TID_X + k);
}

uint32_t xl_builtin_component(struct xl_ctx *c, uint32_t builtin, uint32_t k)
{
   switch (builtin) {
   case SPIRV_BUILT_IN_LocalInvocationId:
      return local_id(c, k);
   case SPIRV_BUILT_IN_WorkgroupId:
      return sreg(c, PPU_SR_CTAID_X + k);
   case SPIRV_BUILT_IN_NumWorkgroups:
      return sreg(c, PPU_SR_NCTAID_X + k);
   case SPIRV_BUILT_IN_WorkgroupSize:
      return sreg(c, PPU_SR_NTID_X + k);
   case SPIRV_BUILT_IN_GlobalInvocationId: {
      uint32_t d = ir_new_vreg(c->ir, 1);
      uint32_t group = sreg(c, PPU_SR_CTAID_X + k), size = sreg(c, PPU_SR_NTID_X + k);
      uint32_t local = local_id(c, k);
      xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, d, group, size)->src[2] = local;
      return d;
   }
   case SPIRV_BUILT_IN_LocalInvocationIndex:
      if (xl_derivative_mode(c) == SPIRV_EXECUTION_MODE_DerivativeGroupQuadsNV) {
         /* x + w * (y + h * z) of the renumbered id. */
         uint32_t x = local_id(c, 0), y = local_id(c, 1), z = local_id(c, 2);
         uint32_t w = sreg(c, PPU_SR_NTID_X), h = sreg(c, PPU_SR_NTID_Y);
         uint32_t yz = ir_new_vreg(c->ir, 1), index = ir_new_vreg(c->ir, 1);
         xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, yz, z, h)->src[2] = y;
         xl_op(c, PPU_OP_IMAD, PPU_TYPE_U32, index, yz, w)->src[2] = x;
         return index;
      }
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
      if (c->rt)
         return xl_rt_builtin_component(c, builtin, k);
      if (c->gfx)
         return xl_gfx_builtin_component(c, builtin, k);
      xl_fail(c, "unsupported built-in %u", builtin);
      return ir_new_vreg(c->ir, 1);
   }
}
