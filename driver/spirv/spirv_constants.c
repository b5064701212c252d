/* Constant and specialization-constant declarations (SPIR-V spec 3.42.7
 * "Constant-Creation Instructions") and module-scope OpUndef. Values of
 * scalars and vectors are kept per component as bit patterns; spec constants
 * also keep their default so that specialization can start over. */
#include <string.h>

#include "spirv_internal.h"

static const struct spirv_type *type_of(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_TYPE);
   return e ? &m->types[e->index] : NULL;
}

static uint64_t width_mask(uint32_t width)
{
   return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

/* Spec 3.42.7 OpSpecConstantOp lists the opcodes allowed with the Shader
 * capability; the Kernel-only ones are not accepted since we reject Kernel. */
static bool spec_op_allowed(uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_SConvert:
   case SPIRV_OP_UConvert:
   case SPIRV_OP_FConvert:
   case SPIRV_OP_QuantizeToF16:
   case SPIRV_OP_SNegate:
   case SPIRV_OP_Not:
   case SPIRV_OP_IAdd:
   case SPIRV_OP_ISub:
   case SPIRV_OP_IMul:
   case SPIRV_OP_UDiv:
   case SPIRV_OP_SDiv:
   case SPIRV_OP_UMod:
   case SPIRV_OP_SRem:
   case SPIRV_OP_SMod:
   case SPIRV_OP_ShiftRightLogical:
   case SPIRV_OP_ShiftRightArithmetic:
   case SPIRV_OP_ShiftLeftLogical:
   case SPIRV_OP_BitwiseOr:
   case SPIRV_OP_BitwiseXor:
   case SPIRV_OP_BitwiseAnd:
   case SPIRV_OP_VectorShuffle:
   case SPIRV_OP_CompositeExtract:
   case SPIRV_OP_CompositeInsert:
   case SPIRV_OP_LogicalOr:
   case SPIRV_OP_LogicalAnd:
   case SPIRV_OP_LogicalNot:
   case SPIRV_OP_LogicalEqual:
   case SPIRV_OP_LogicalNotEqual:
   case SPIRV_OP_Select:
   case SPIRV_OP_IEqual:
   case SPIRV_OP_INotEqual:
   case SPIRV_OP_ULessThan:
   case SPIRV_OP_SLessThan:
   case SPIRV_OP_UGreaterThan:
   case SPIRV_OP_SGreaterThan:
   case SPIRV_OP_ULessThanEqual:
   case SPIRV_OP_SLessThanEqual:
   case SPIRV_OP_UGreaterThanEqual:
   case SPIRV_OP_SGreaterThanEqual:
      return true;
   default:
      return false;
   }
}

static bool parse_scalar_literal(struct spirv_parser *p, const struct spirv_inst *inst,
                                 struct spirv_constant *c)
{
   const struct spirv_module *m = p->module;
   const struct spirv_type *t = type_of(m, inst->result_type);
   if (!t || (t->kind != SPIRV_TYPE_INT && t->kind != SPIRV_TYPE_FLOAT))
      return spirv_fail(p, "result type %%%u is not an integer or float scalar", c->type_id);
   const struct spirv_operand *lit = &m->operands[inst->operand_first];
   /* Spec 2.2.1: literals narrower than 32 bits take one word, 64-bit
    * literals take two, low-order word first. */
   const uint32_t expected = t->u.scalar.width == 64 ? 2 : 1;
   if (inst->operand_count != 1 || lit->word_count != expected) {
      return spirv_fail(p, "value has %u words, but the %u-bit type %%%u needs %u",
                        inst->operand_count ? lit->word_count : 0, t->u.scalar.width, c->type_id,
                        expected);
   }
   uint64_t v = m->words[lit->word_offset];
   if (expected == 2)
      v |= (uint64_t)m->words[lit->word_offset + 1] << 32;
   c->value[0] = v & width_mask(t->u.scalar.width);
   c->has_value = true;
   return true;
}

/* The type a constituent must have at position i of a composite of type t. */
static uint32_t constituent_type(const struct spirv_module *m, const struct spirv_type *t,
                                 uint32_t i)
{
   switch (t->kind) {
   case SPIRV_TYPE_VECTOR:
      return t->u.vector.component_type;
   case SPIRV_TYPE_MATRIX:
      return t->u.matrix.column_type;
   case SPIRV_TYPE_ARRAY:
      return t->u.array.element_type;
   case SPIRV_TYPE_STRUCT:
      return m->words[m->operands[t->u.structure.member_first + i].word_offset];
   default:
      return SPIRV_NO_ID;
   }
}

static bool parse_composite(struct spirv_parser *p, const struct spirv_inst *inst,
                            struct spirv_constant *c)
{
   const struct spirv_module *m = p->module;
   const struct spirv_type *t = type_of(m, inst->result_type);
   uint32_t expected;
   if (!t)
      return spirv_fail(p, "result type %%%u is not a type", inst->result_type);
   switch (t->kind) {
   case SPIRV_TYPE_VECTOR:
      expected = t->u.vector.component_count;
      break;
   case SPIRV_TYPE_MATRIX:
      expected = t->u.matrix.column_count;
      break;
   case SPIRV_TYPE_STRUCT:
      expected = t->u.structure.member_count;
      break;
   case SPIRV_TYPE_ARRAY: {
      const struct spirv_constant *len = &m->constants[m->ids[t->u.array.length_id].index];
      expected = inst->operand_count;
      if (!len->is_spec && len->kind == SPIRV_CONSTANT_SCALAR && len->value[0] != expected) {
         return spirv_fail(p, "array of %llu elements given %u constituents",
                           (unsigned long long)len->value[0], inst->operand_count);
      }
      break;
   }
   default:
      return spirv_fail(p, "result type %%%u is not a composite type", inst->result_type);
   }
   if (inst->operand_count != expected) {
      return spirv_fail(p, "type %%%u has %u constituents, %u given", inst->result_type, expected,
                        inst->operand_count);
   }
   c->kind = SPIRV_CONSTANT_COMPOSITE;
   c->constituent_first = inst->operand_first;
   c->component_count = expected;
   c->has_value = t->kind == SPIRV_TYPE_VECTOR;
   for (uint32_t i = 0; i < expected; i++) {
      const uint32_t id = spirv_operand_word_at(m, inst, i);
      const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_CONSTANT);
      if (!e)
         return spirv_fail(p, "constituent %u (%%%u) is not a constant", i, id);
      if (e->type_id != constituent_type(m, t, i)) {
         return spirv_fail(p, "constituent %u (%%%u) has type %%%u, expected %%%u", i, id,
                           e->type_id, constituent_type(m, t, i));
      }
      const struct spirv_constant *part = &m->constants[e->index];
      /* Spec 2.16.1: a non-spec composite takes only non-spec constituents. */
      if (inst->opcode == SPIRV_OP_ConstantComposite && part->is_spec)
         return spirv_fail(p, "constituent %u (%%%u) is a specialization constant", i, id);
      if (t->kind == SPIRV_TYPE_VECTOR) {
         c->value[i] = part->value[0];
         c->has_value = c->has_value && part->has_value;
      }
   }
   return true;
}

static bool parse_spec_op(struct spirv_parser *p, const struct spirv_inst *inst,
                          struct spirv_constant *c)
{
   const struct spirv_module *m = p->module;
   const uint32_t opcode = spirv_operand_word_at(m, inst, 0);
   if (!spec_op_allowed(opcode)) {
      return spirv_fail(p, "%s is not allowed in OpSpecConstantOp (spec 3.42.7)",
                        spirv_opcode_name(opcode));
   }
   for (uint32_t i = 1; i < inst->operand_count; i++) {
      const struct spirv_operand *op = &m->operands[inst->operand_first + i];
      if (!spirv_is_id_kind(op->kind))
         continue;
      const uint32_t id = m->words[op->word_offset];
      if (!spirv_id_of_class(m, id, SPIRV_ID_CONSTANT))
         return spirv_fail(p, "operand %%%u is not a constant declared before it", id);
   }
   const uint32_t count = spirv_type_component_count(m, inst->result_type);
   if (count == 0)
      return spirv_fail(p, "result type %%%u is not a scalar or vector", inst->result_type);
   c->kind = SPIRV_CONSTANT_SPEC_OP;
   c->component_count = count;
   return true; /* evaluated by spirv_evaluate_spec_constants() */
}

static bool parse_null(struct spirv_parser *p, const struct spirv_inst *inst,
                       struct spirv_constant *c)
{
   const struct spirv_type *t = type_of(p->module, inst->result_type);
   if (!t || t->kind == SPIRV_TYPE_VOID || t->kind == SPIRV_TYPE_FUNCTION)
      return spirv_fail(p, "result type %%%u cannot have a null value", inst->result_type);
   c->kind = SPIRV_CONSTANT_NULL;
   c->component_count = spirv_type_component_count(p->module, inst->result_type);
   c->has_value = c->component_count > 0;
   return true;
}

bool spirv_parse_constant(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   struct spirv_constant *c = &m->constants[m->constant_count];
   memset(c, 0, sizeof(*c));
   c->id = inst->result_id;
   c->type_id = inst->result_type;
   c->inst = p->inst_index;
   c->spec_id = SPIRV_NO_INDEX;
   c->component_count = 1;
   bool ok = true;
   switch (inst->opcode) {
   case SPIRV_OP_ConstantTrue:
   case SPIRV_OP_ConstantFalse:
   case SPIRV_OP_SpecConstantTrue:
   case SPIRV_OP_SpecConstantFalse: {
      const struct spirv_type *t = type_of(m, inst->result_type);
      if (!t || t->kind != SPIRV_TYPE_BOOL)
         return spirv_fail(p, "result type %%%u is not bool", inst->result_type);
      c->value[0] =
          inst->opcode == SPIRV_OP_ConstantTrue || inst->opcode == SPIRV_OP_SpecConstantTrue;
      c->has_value = true;
      break;
   }
   case SPIRV_OP_Constant:
   case SPIRV_OP_SpecConstant:
      ok = parse_scalar_literal(p, inst, c);
      break;
   case SPIRV_OP_ConstantComposite:
   case SPIRV_OP_SpecConstantComposite:
      ok = parse_composite(p, inst, c);
      break;
   case SPIRV_OP_SpecConstantOp:
      ok = parse_spec_op(p, inst, c);
      break;
   case SPIRV_OP_ConstantNull:
      ok = parse_null(p, inst, c);
      break;
   case SPIRV_OP_Undef:
      c->kind = SPIRV_CONSTANT_UNDEF;
      c->component_count = spirv_type_component_count(m, inst->result_type);
      break;
   default:
      return spirv_fail(p, "this constant instruction is not supported");
   }
   if (!ok)
      return false;
   c->is_spec =
       inst->opcode == SPIRV_OP_SpecConstantTrue || inst->opcode == SPIRV_OP_SpecConstantFalse ||
       inst->opcode == SPIRV_OP_SpecConstant || inst->opcode == SPIRV_OP_SpecConstantComposite ||
       inst->opcode == SPIRV_OP_SpecConstantOp;
   uint32_t spec_id;
   if (spirv_decoration_literal(m, c->id, SPIRV_NO_MEMBER, SPIRV_DECORATION_SpecId, &spec_id)) {
      /* Spec 3.20 Decoration SpecId: only on OpSpecConstant{,True,False}. */
      if (!c->is_spec || c->kind != SPIRV_CONSTANT_SCALAR)
         return spirv_fail(p, "SpecId decorates %%%u, which is not a scalar spec constant", c->id);
      c->spec_id = spec_id;
   }
   memcpy(c->default_value, c->value, sizeof(c->value));
   struct spirv_id_entry *e = &m->ids[inst->result_id];
   e->id_class = SPIRV_ID_CONSTANT;
   e->index = m->constant_count++;
   return true;
}
