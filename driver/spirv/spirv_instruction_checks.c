/* Cheap type checks of instructions inside functions, done as they are read:
 * only operands already defined are checked (a phi or a block placed before
 * its dominator in the stream may name later ids). These catch the mistakes
 * that would otherwise surface deep in the compiler: arithmetic on the wrong
 * types, loads and stores through mismatched pointers (spec 3.42.x per
 * opcode "Result Type must be ..."). */
#include "spirv_internal.h"

static bool is_kind(const struct spirv_module *m, uint32_t type_id, enum spirv_type_kind kind)
{
   const struct spirv_type *t = spirv_type(m, spirv_type_scalar(m, type_id));
   return t && t->kind == kind;
}

/* Integer arithmetic: operands have the result's component count and width;
 * signedness may differ (spec 2.16.2 for Shader). */
static bool check_integer_binary(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_module *m = p->module;
   if (!is_kind(m, inst->result_type, SPIRV_TYPE_INT) ||
       spirv_type_component_count(m, inst->result_type) == 0)
      return spirv_fail(p, "result type %%%u is not an integer scalar or vector",
                        inst->result_type);
   for (uint32_t i = 0; i < 2 && i < inst->operand_count; i++) {
      const uint32_t t = spirv_operand_type(m, inst, i);
      if (t == SPIRV_NO_ID)
         continue;
      if (spirv_type_component_count(m, t) != spirv_type_component_count(m, inst->result_type) ||
          spirv_type_scalar_width(m, t) != spirv_type_scalar_width(m, inst->result_type) ||
          !is_kind(m, t, SPIRV_TYPE_INT)) {
         return spirv_fail(p, "operand %%%u has type %%%u, which does not match result type %%%u",
                           spirv_operand_word_at(m, inst, i), t, inst->result_type);
      }
   }
   return true;
}

static bool check_float_binary(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_module *m = p->module;
   if (!is_kind(m, inst->result_type, SPIRV_TYPE_FLOAT) ||
       spirv_type_component_count(m, inst->result_type) == 0)
      return spirv_fail(p, "result type %%%u is not a float scalar or vector", inst->result_type);
   for (uint32_t i = 0; i < inst->operand_count; i++) {
      const uint32_t t = spirv_operand_type(m, inst, i);
      if (t != SPIRV_NO_ID && t != inst->result_type) {
         return spirv_fail(p, "operand %%%u has type %%%u, which does not match result type %%%u",
                           spirv_operand_word_at(m, inst, i), t, inst->result_type);
      }
   }
   return true;
}

static bool check_memory(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_module *m = p->module;
   const uint32_t pointer_type = spirv_operand_type(m, inst, 0);
   if (pointer_type == SPIRV_NO_ID)
      return true;
   const struct spirv_type *pt = spirv_type(m, pointer_type);
   if (!pt || pt->kind != SPIRV_TYPE_POINTER) {
      return spirv_fail(p, "operand %%%u is not a pointer", spirv_operand_word_at(m, inst, 0));
   }
   if (inst->opcode == SPIRV_OP_Load && pt->u.pointer.pointee_type != inst->result_type) {
      return spirv_fail(p, "result type %%%u is not the pointee type %%%u", inst->result_type,
                        pt->u.pointer.pointee_type);
   }
   if (inst->opcode == SPIRV_OP_Store) {
      const uint32_t object_type = spirv_operand_type(m, inst, 1);
      if (object_type != SPIRV_NO_ID && object_type != pt->u.pointer.pointee_type) {
         return spirv_fail(p, "object type %%%u is not the pointee type %%%u", object_type,
                           pt->u.pointer.pointee_type);
      }
   }
   return true;
}

static bool check_ext_inst(struct spirv_parser *p, const struct spirv_inst *inst)
{
   const struct spirv_module *m = p->module;
   const uint32_t set = spirv_operand_word_at(m, inst, 0);
   if (spirv_id_class(m, set) != SPIRV_ID_EXT_INST_SET)
      return spirv_fail(p, "%%%u is not an extended instruction set", set);
   if (spirv_ext_inst_set_kind(m, set) != SPIRV_EXT_INST_SET_GLSL_STD_450)
      return true;
   const uint32_t number = spirv_operand_word_at(m, inst, 1);
   const struct spirv_ext_inst_info *info = spirv_glsl_std_450_info(number);
   if (!info)
      return spirv_fail(p, "%u is not a GLSL.std.450 instruction", number);
   if (inst->operand_count - 2 != info->operand_count) {
      return spirv_fail(p, "GLSL.std.450 %s takes %u operands, got %u", info->name,
                        info->operand_count, inst->operand_count - 2);
   }
   return true;
}

bool spirv_check_instruction_types(struct spirv_parser *p, const struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_IAdd:
   case SPIRV_OP_ISub:
   case SPIRV_OP_IMul:
   case SPIRV_OP_SDiv:
   case SPIRV_OP_UDiv:
   case SPIRV_OP_SRem:
   case SPIRV_OP_SMod:
   case SPIRV_OP_UMod:
   case SPIRV_OP_BitwiseAnd:
   case SPIRV_OP_BitwiseOr:
   case SPIRV_OP_BitwiseXor:
      return check_integer_binary(p, inst);
   case SPIRV_OP_FAdd:
   case SPIRV_OP_FSub:
   case SPIRV_OP_FMul:
   case SPIRV_OP_FDiv:
   case SPIRV_OP_FRem:
   case SPIRV_OP_FMod:
   case SPIRV_OP_FNegate:
      return check_float_binary(p, inst);
   case SPIRV_OP_Load:
   case SPIRV_OP_Store:
      return check_memory(p, inst);
   case SPIRV_OP_ExtInst:
      return check_ext_inst(p, inst);
   default:
      return spirv_check_ray_query(p, inst) && spirv_check_image(p, inst);
   }
}
