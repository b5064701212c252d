/* Atomics and barriers (translate.h): SPIR-V spec 3.52.18 and 3.52.19 on
 * buffers and shared memory (docs/isa.md "Memory": ATOM, MEMBAR, BAR). */
#include "translate.h"

static void atomic(struct xl_ctx *c, const struct spirv_inst *inst)
{
   const struct xl_ptr *p = xl_ptr_of(c, xl_word(c, inst, 0));
   if (!p || c->failed)
      return;
   bool image = p->kind == XL_PTR_TEXEL;
   if (p->kind != XL_PTR_GLOBAL && p->kind != XL_PTR_SHARED && !image) {
      xl_fail(c, "atomics are supported on buffers, shared memory and images only");
      return;
   }
   struct xl_scalar s;
   xl_scalar_of(c, p->type, &s);
   enum ppu_type ty = s.is_float      ? PPU_TYPE_F32
                      : s.width == 64 ? (s.is_signed ? PPU_TYPE_S64 : PPU_TYPE_U64)
                                      : (s.is_signed ? PPU_TYPE_S32 : PPU_TYPE_U32);
   uint32_t addr = xl_address_of(c, p);
   enum ppu_atom_op op = PPU_ATOM_ADD;
   uint32_t value = 0, compare = 0;
   unsigned regs = s.width == 64 ? 2 : 1;
   switch (inst->opcode) {
   case SPIRV_OP_AtomicLoad: {
      struct xl_val v = xl_new_val(c, inst->result_type);
      if (image) {
         xl_image_atomic_load_store(c, p, xl_comp(c, v, 0), false);
         xl_set(c, inst->result_id, v);
         return;
      }
      xl_mem_scalar(c, p, addr, p->offset, xl_comp(c, v, 0), false,
                    regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32);
      xl_set(c, inst->result_id, v);
      return;
   }
   case SPIRV_OP_AtomicStore:
      if (image) {
         xl_image_atomic_load_store(c, p, xl_comp(c, xl_get(c, xl_word(c, inst, 3)), 0), true);
         return;
      }
      xl_mem_scalar(c, p, addr, p->offset, xl_comp(c, xl_get(c, xl_word(c, inst, 3)), 0), true,
                    regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32);
      return;
   case SPIRV_OP_AtomicIIncrement:
   case SPIRV_OP_AtomicIDecrement:
      value = ir_new_vreg(c->ir, regs);
      xl_op_imm(c, PPU_OP_MOV, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, value, 0,
                inst->opcode == SPIRV_OP_AtomicIIncrement ? 1u : UINT32_MAX);
      break;
   case SPIRV_OP_AtomicCompareExchange:
      op = PPU_ATOM_CAS;
      value = xl_comp(c, xl_get(c, xl_word(c, inst, 4)), 0);
      compare = xl_comp(c, xl_get(c, xl_word(c, inst, 5)), 0);
      break;
   default:
      value = xl_comp(c, xl_get(c, xl_word(c, inst, 3)), 0);
      switch (inst->opcode) {
      case SPIRV_OP_AtomicIAdd:
      case SPIRV_OP_AtomicFAddEXT:
         break;
      case SPIRV_OP_AtomicISub: {
         uint32_t neg = ir_new_vreg(c->ir, regs);
         xl_op(c, PPU_OP_INEG, regs == 2 ? PPU_TYPE_S64 : PPU_TYPE_S32, neg, value, 0);
         value = neg;
         break;
      }
      case SPIRV_OP_AtomicSMin:
      case SPIRV_OP_AtomicUMin:
         op = PPU_ATOM_MIN;
         ty = inst->opcode == SPIRV_OP_AtomicSMin ? (regs == 2 ? PPU_TYPE_S64 : PPU_TYPE_S32)
                                                  : (regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32);
         break;
      case SPIRV_OP_AtomicSMax:
      case SPIRV_OP_AtomicUMax:
         op = PPU_ATOM_MAX;
         ty = inst->opcode == SPIRV_OP_AtomicSMax ? (regs == 2 ? PPU_TYPE_S64 : PPU_TYPE_S32)
                                                  : (regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32);
         break;
      case SPIRV_OP_AtomicAnd:
         op = PPU_ATOM_AND;
         break;
      case SPIRV_OP_AtomicOr:
         op = PPU_ATOM_OR;
         break;
      case SPIRV_OP_AtomicXor:
         op = PPU_ATOM_XOR;
         break;
      case SPIRV_OP_AtomicExchange:
         op = PPU_ATOM_EXCH;
         break;
      default:
         xl_fail(c, "unsupported atomic");
         return;
      }
   }
   if (s.is_float && op != PPU_ATOM_ADD && op != PPU_ATOM_EXCH && op != PPU_ATOM_CAS) {
      xl_fail(c, "unsupported float atomic");
      return;
   }
   if ((op == PPU_ATOM_AND || op == PPU_ATOM_OR || op == PPU_ATOM_XOR) && !s.is_float)
      ty = regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32;
   struct xl_val v = xl_new_val(c, inst->result_type);
   if (image) {
      xl_image_atomic(c, p, op, ty, xl_comp(c, v, 0), value, compare);
      xl_set(c, inst->result_id, v);
      return;
   }
   bool checked = xl_is_checked(c, p);
   if (checked) {
      xl_bounds_check_p0(c, p, p->offset, regs * 4);
      xl_op(c, PPU_OP_MOV, regs == 2 ? PPU_TYPE_U64 : PPU_TYPE_U32, xl_comp(c, v, 0), 0, 0)->f.rb =
          PPU_RZ;
   }
   struct ir_insn *i = xl_op(c, PPU_OP_ATOM, ty, xl_comp(c, v, 0), addr, value);
   if (checked)
      i->f.guard = 0;
   i->src[2] = compare;
   i->f.subop = op;
   i->f.imm = p->offset;
   i->f.mode = p->kind == XL_PTR_GLOBAL ? PPU_SPACE_GLOBAL : PPU_SPACE_SHARED;
   xl_set(c, inst->result_id, v);
}

static void membar(struct xl_ctx *c, uint32_t scope_id)
{
   uint64_t scope = SPIRV_SCOPE_Device;
   spirv_constant_scalar(c->m, scope_id, &scope);
   struct ir_insn *i = ir_emit(c->ir, PPU_OP_MEMBAR);
   i->f.subop = scope == SPIRV_SCOPE_Workgroup || scope == SPIRV_SCOPE_Subgroup ||
                        scope == SPIRV_SCOPE_Invocation
                    ? PPU_MEMBAR_CTA
                    : PPU_MEMBAR_GL;
}

bool xl_atomic_writes(uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_AtomicStore:
   case SPIRV_OP_AtomicExchange:
   case SPIRV_OP_AtomicCompareExchange:
   case SPIRV_OP_AtomicIIncrement:
   case SPIRV_OP_AtomicIDecrement:
   case SPIRV_OP_AtomicIAdd:
   case SPIRV_OP_AtomicISub:
   case SPIRV_OP_AtomicSMin:
   case SPIRV_OP_AtomicUMin:
   case SPIRV_OP_AtomicSMax:
   case SPIRV_OP_AtomicUMax:
   case SPIRV_OP_AtomicAnd:
   case SPIRV_OP_AtomicOr:
   case SPIRV_OP_AtomicXor:
   case SPIRV_OP_AtomicFAddEXT:
      return true;
   default:
      return false;
   }
}

bool xl_translate_atomic(struct xl_ctx *c, const struct spirv_inst *inst)
{
   if (inst->opcode == SPIRV_OP_AtomicLoad || xl_atomic_writes(inst->opcode)) {
      atomic(c, inst);
      return true;
   }
   switch (inst->opcode) {
   case SPIRV_OP_ControlBarrier: {
      uint64_t sem = 0;
      spirv_constant_scalar(c->m, xl_word(c, inst, 2), &sem);
      if (sem)
         membar(c, xl_word(c, inst, 1));
      /* A subgroup's lanes run in lockstep on the warp, so a Subgroup (or
       * Invocation) execution barrier needs no wait: the lanes executing it
       * are all there. BAR would wait for the other warps of the
       * workgroup, which need not reach it (subgroupBarrier() in a branch
       * some subgroups skip) and would pair with their next barrier(). */
      uint64_t exec_scope = SPIRV_SCOPE_Workgroup;
      spirv_constant_scalar(c->m, xl_word(c, inst, 0), &exec_scope);
      if (exec_scope != SPIRV_SCOPE_Subgroup && exec_scope != SPIRV_SCOPE_Invocation)
         ir_emit(c->ir, PPU_OP_BAR);
      return true;
   }
   case SPIRV_OP_MemoryBarrier:
      membar(c, xl_word(c, inst, 0));
      return true;
   default:
      return false;
   }
}
