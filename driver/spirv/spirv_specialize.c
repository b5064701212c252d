/* Specialization (SPIR-V spec 2.12 "Specialization"): spec constants take
 * values supplied at pipeline creation by SpecId, then every
 * OpSpecConstantComposite and OpSpecConstantOp is re-evaluated in module
 * order (operands always precede their users in the global section).
 *
 * Results the spec leaves undefined (division by zero, shifts by at least the
 * width) get a fixed value here instead of host undefined behaviour. */
#include <string.h>

#include "spirv_float.h"
#include "spirv_internal.h"

static uint64_t width_mask(uint32_t width)
{
   return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

static int64_t sign_extend(uint64_t v, uint32_t width)
{
   if (width == 0 || width >= 64)
      return (int64_t)v;
   const uint64_t sign = 1ull << (width - 1);
   v &= width_mask(width);
   return (int64_t)((v ^ sign) - sign);
}

static const struct spirv_constant *constant_of(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_CONSTANT);
   return e ? &m->constants[e->index] : NULL;
}

/* Component i of a constant, broadcasting scalars. */
static uint64_t component(const struct spirv_constant *c, uint32_t i)
{
   return c->component_count == 1 ? c->value[0] : c->value[i < 4 ? i : 0];
}

/* One component of a binary or unary integer/logical operation. a and b are
 * masked to width w (the operands' width); the result is masked by the caller. */
static uint64_t eval_integer(uint32_t op, uint64_t a, uint64_t b, uint32_t w)
{
   const int64_t sa = sign_extend(a, w), sb = sign_extend(b, w);
   switch (op) {
   case SPIRV_OP_SNegate:
      return 0 - a;
   case SPIRV_OP_Not:
      return ~a;
   case SPIRV_OP_IAdd:
      return a + b;
   case SPIRV_OP_ISub:
      return a - b;
   case SPIRV_OP_IMul:
      return a * b;
   case SPIRV_OP_UDiv:
      return b ? a / b : 0;
   case SPIRV_OP_UMod:
      return b ? a % b : 0;
   case SPIRV_OP_SDiv:
      if (sb == 0)
         return 0;
      if (sb == -1)
         return 0 - a; /* avoids INT64_MIN / -1 */
      return (uint64_t)(sa / sb);
   case SPIRV_OP_SRem:
   case SPIRV_OP_SMod: {
      if (sb == 0 || sb == -1)
         return 0;
      int64_t r = sa % sb;
      /* SMod takes the sign of the divisor, SRem of the dividend. */
      if (op == SPIRV_OP_SMod && r != 0 && ((r < 0) != (sb < 0)))
         r += sb;
      return (uint64_t)r;
   }
   case SPIRV_OP_ShiftRightLogical:
      return b < w ? a >> b : 0;
   case SPIRV_OP_ShiftRightArithmetic:
      return (uint64_t)(b < w ? sa >> b : (sa < 0 ? -1 : 0));
   case SPIRV_OP_ShiftLeftLogical:
      return b < w ? a << b : 0;
   case SPIRV_OP_BitwiseOr:
   case SPIRV_OP_LogicalOr:
      return a | b;
   case SPIRV_OP_BitwiseXor:
      return a ^ b;
   case SPIRV_OP_BitwiseAnd:
   case SPIRV_OP_LogicalAnd:
      return a & b;
   case SPIRV_OP_LogicalNot:
      return !a;
   case SPIRV_OP_LogicalEqual:
   case SPIRV_OP_IEqual:
      return a == b;
   case SPIRV_OP_LogicalNotEqual:
   case SPIRV_OP_INotEqual:
      return a != b;
   case SPIRV_OP_ULessThan:
      return a < b;
   case SPIRV_OP_UGreaterThan:
      return a > b;
   case SPIRV_OP_ULessThanEqual:
      return a <= b;
   case SPIRV_OP_UGreaterThanEqual:
      return a >= b;
   case SPIRV_OP_SLessThan:
      return sa < sb;
   case SPIRV_OP_SGreaterThan:
      return sa > sb;
   case SPIRV_OP_SLessThanEqual:
      return sa <= sb;
   case SPIRV_OP_SGreaterThanEqual:
      return sa >= sb;
   default:
      return 0;
   }
}

/* Follows CompositeExtract indices through composite constants down to a
 * scalar or vector value. */
static bool eval_extract(const struct spirv_module *m, const struct spirv_inst *inst,
                         struct spirv_constant *c)
{
   const struct spirv_constant *src = constant_of(m, spirv_operand_word_at(m, inst, 1));
   for (uint32_t i = 2; i < inst->operand_count; i++) {
      if (!src)
         return false;
      const uint32_t index = spirv_operand_word_at(m, inst, i);
      if (spirv_type(m, src->type_id)->kind == SPIRV_TYPE_VECTOR) {
         if (i + 1 != inst->operand_count || !src->has_value || index >= src->component_count)
            return false;
         c->value[0] = src->value[index];
         return true;
      }
      if (src->kind != SPIRV_CONSTANT_COMPOSITE || index >= src->component_count)
         return false;
      src = constant_of(m, m->words[m->operands[src->constituent_first + index].word_offset]);
   }
   if (!src || !src->has_value || src->component_count > SPIRV_MAX_VECTOR_COMPONENTS)
      return false;
   memcpy(c->value, src->value, sizeof(c->value));
   return true;
}

static bool eval_vector_op(const struct spirv_module *m, const struct spirv_inst *inst,
                           struct spirv_constant *c, uint32_t op)
{
   const uint32_t n = c->component_count;
   if (op == SPIRV_OP_VectorShuffle) {
      const struct spirv_constant *v1 = constant_of(m, spirv_operand_word_at(m, inst, 1));
      const struct spirv_constant *v2 = constant_of(m, spirv_operand_word_at(m, inst, 2));
      if (!v1->has_value || !v2->has_value || inst->operand_count != 3 + n)
         return false;
      for (uint32_t i = 0; i < n; i++) {
         const uint32_t sel = spirv_operand_word_at(m, inst, 3 + i);
         if (sel < v1->component_count)
            c->value[i] = component(v1, sel);
         else if (sel - v1->component_count < v2->component_count)
            c->value[i] = component(v2, sel - v1->component_count);
         else
            c->value[i] = 0; /* 0xFFFFFFFF: undefined component */
      }
      return true;
   }
   /* CompositeInsert: object, composite, indices; only single-level vectors. */
   const struct spirv_constant *obj = constant_of(m, spirv_operand_word_at(m, inst, 1));
   const struct spirv_constant *dst = constant_of(m, spirv_operand_word_at(m, inst, 2));
   if (!obj->has_value || !dst->has_value || inst->operand_count != 4)
      return false;
   const uint32_t index = spirv_operand_word_at(m, inst, 3);
   if (index >= n)
      return false;
   for (uint32_t i = 0; i < n; i++)
      c->value[i] = component(dst, i);
   c->value[index] = obj->value[0];
   return true;
}

static bool eval_spec_op(const struct spirv_module *m, struct spirv_constant *c)
{
   const struct spirv_inst *inst = &m->insts[c->inst];
   const uint32_t op = spirv_operand_word_at(m, inst, 0);
   const uint32_t result_width = spirv_type_scalar_width(m, c->type_id);
   if (op == SPIRV_OP_CompositeExtract)
      return eval_extract(m, inst, c);
   if (op == SPIRV_OP_VectorShuffle || op == SPIRV_OP_CompositeInsert)
      return eval_vector_op(m, inst, c, op);
   const struct spirv_constant *a = constant_of(m, spirv_operand_word_at(m, inst, 1));
   const struct spirv_constant *b =
       inst->operand_count > 2 ? constant_of(m, spirv_operand_word_at(m, inst, 2)) : a;
   const struct spirv_constant *s =
       inst->operand_count > 3 ? constant_of(m, spirv_operand_word_at(m, inst, 3)) : a;
   if (!a || !b || !s || !a->has_value || !b->has_value || !s->has_value)
      return false;
   const uint32_t w = spirv_type_scalar_width(m, a->type_id);
   for (uint32_t i = 0; i < c->component_count; i++) {
      const uint64_t x = component(a, i), y = component(b, i);
      uint64_t r;
      switch (op) {
      case SPIRV_OP_SConvert:
         r = (uint64_t)sign_extend(x, w);
         break;
      case SPIRV_OP_UConvert:
         r = x;
         break;
      case SPIRV_OP_FConvert:
         r = spirv_float_from_double(spirv_float_to_double(x, w), result_width);
         break;
      case SPIRV_OP_QuantizeToF16:
         r = spirv_float_from_double(
             spirv_float_to_double(spirv_float_from_double(spirv_float_to_double(x, w), 16), 16),
             result_width);
         break;
      case SPIRV_OP_Select:
         r = x ? component(b, i) : component(s, i);
         break;
      default:
         r = eval_integer(op, x & width_mask(w), y & width_mask(w), w);
         break;
      }
      c->value[i] = r & width_mask(result_width);
   }
   return true;
}

static bool eval_composite(const struct spirv_module *m, struct spirv_constant *c)
{
   if (spirv_type(m, c->type_id)->kind != SPIRV_TYPE_VECTOR)
      return false;
   for (uint32_t i = 0; i < c->component_count; i++) {
      const struct spirv_constant *part =
          constant_of(m, m->words[m->operands[c->constituent_first + i].word_offset]);
      if (!part || !part->has_value)
         return false;
      c->value[i] = part->value[0];
   }
   return true;
}

bool spirv_evaluate_spec_constants(struct spirv_module *m, struct spirv_error *error)
{
   (void)error;
   for (uint32_t i = 0; i < m->constant_count; i++) {
      struct spirv_constant *c = &m->constants[i];
      if (!c->is_spec)
         continue;
      if (c->kind == SPIRV_CONSTANT_SPEC_OP) {
         memset(c->value, 0, sizeof(c->value));
         c->has_value = eval_spec_op(m, c);
      } else if (c->kind == SPIRV_CONSTANT_COMPOSITE) {
         c->has_value = eval_composite(m, c);
      }
   }
   return true;
}

bool spirv_module_specialize(struct spirv_module *m,
                             const struct spirv_specialization_entry *entries, uint32_t entry_count,
                             const void *data, size_t data_size, struct spirv_error *error)
{
   struct spirv_error scratch;
   if (!error)
      error = &scratch;
   for (uint32_t i = 0; i < m->constant_count; i++) {
      struct spirv_constant *c = &m->constants[i];
      if (c->is_spec && c->kind == SPIRV_CONSTANT_SCALAR)
         memcpy(c->value, c->default_value, sizeof(c->value));
   }
   for (uint32_t e = 0; e < entry_count; e++) {
      const struct spirv_specialization_entry *entry = &entries[e];
      if (entry->offset > data_size || entry->size > data_size - entry->offset) {
         return spirv_fail_word(error, 0,
                                "specialization entry %u (SpecId %u) reads bytes "
                                "%u..%zu outside the %zu bytes of data",
                                e, entry->constant_id, entry->offset,
                                (size_t)entry->offset + entry->size, data_size);
      }
      for (uint32_t i = 0; i < m->constant_count; i++) {
         struct spirv_constant *c = &m->constants[i];
         if (c->spec_id != entry->constant_id)
            continue;
         /* Vulkan VkSpecializationMapEntry: size matches the constant's
          * size; booleans are VkBool32 (4 bytes). */
         const uint32_t width = spirv_type_scalar_width(m, c->type_id);
         const size_t bytes = width == 1 ? 4 : width / 8;
         if (entry->size != bytes) {
            return spirv_fail_word(error, 0,
                                   "specialization entry for SpecId %u has %zu bytes, "
                                   "the constant %%%u has %zu",
                                   entry->constant_id, entry->size, c->id, bytes);
         }
         uint64_t v = 0;
         memcpy(&v, (const uint8_t *)data + entry->offset, bytes); /* little-endian host */
         c->value[0] = width == 1 ? (v != 0) : v & width_mask(width);
      }
   }
   return spirv_evaluate_spec_constants(m, error);
}
