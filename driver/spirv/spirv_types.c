/* Type declarations (SPIR-V spec 3.42.6 "Type-Declaration Instructions") and
 * their well-formedness rules (spec 2.16 "Validation Rules"). Types may only
 * refer to earlier types, except struct members that are pointers declared
 * ahead with OpTypeForwardPointer (PhysicalStorageBuffer linked lists). */
#include <string.h>

#include "spirv_internal.h"

static const struct spirv_type *type_of(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_TYPE);
   return e ? &m->types[e->index] : NULL;
}

bool spirv_type_is_int(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_type *t = type_of(m, type_id);
   return t && t->kind == SPIRV_TYPE_INT;
}

bool spirv_type_is_numeric_scalar(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_type *t = type_of(m, type_id);
   return t && (t->kind == SPIRV_TYPE_INT || t->kind == SPIRV_TYPE_FLOAT);
}

uint32_t spirv_type_scalar_width(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_type *t = type_of(m, type_id);
   if (t && t->kind == SPIRV_TYPE_VECTOR)
      t = type_of(m, t->u.vector.component_type);
   if (!t)
      return 0;
   if (t->kind == SPIRV_TYPE_BOOL)
      return 1;
   if (t->kind == SPIRV_TYPE_INT || t->kind == SPIRV_TYPE_FLOAT)
      return t->u.scalar.width;
   return 0;
}

uint32_t spirv_type_component_count(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_type *t = type_of(m, type_id);
   if (!t)
      return 0;
   if (t->kind == SPIRV_TYPE_VECTOR)
      return t->u.vector.component_count;
   if (t->kind == SPIRV_TYPE_INT || t->kind == SPIRV_TYPE_FLOAT || t->kind == SPIRV_TYPE_BOOL)
      return 1;
   return 0;
}

/* A type that can be stored in memory or passed around as a value. */
static bool is_data_type(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_type *t = type_of(m, id);
   return t && t->kind != SPIRV_TYPE_VOID && t->kind != SPIRV_TYPE_FUNCTION;
}

static uint32_t depth_of(const struct spirv_module *m, uint32_t id)
{
   return spirv_id_of_class(m, id, SPIRV_ID_TYPE) ? m->ids[id].type_depth : 0;
}

static bool parse_scalar(struct spirv_parser *p, const struct spirv_inst *inst,
                         struct spirv_type *t)
{
   const struct spirv_module *m = p->module;
   const uint32_t width = spirv_operand_word_at(m, inst, 0);
   if (inst->opcode == SPIRV_OP_TypeInt) {
      const uint32_t signedness = spirv_operand_word_at(m, inst, 1);
      if (width != 8 && width != 16 && width != 32 && width != 64)
         return spirv_fail(p, "integer width %u is not 8, 16, 32 or 64", width);
      if (signedness > 1)
         return spirv_fail(p, "signedness %u is not 0 or 1", signedness);
      t->kind = SPIRV_TYPE_INT;
      t->u.scalar.is_signed = signedness == 1;
   } else {
      if (width != 16 && width != 32 && width != 64)
         return spirv_fail(p, "float width %u is not 16, 32 or 64", width);
      if (inst->operand_count > 1)
         return spirv_fail(p, "floating-point encodings are not supported");
      t->kind = SPIRV_TYPE_FLOAT;
   }
   t->u.scalar.width = width;
   return true;
}

/* A pointer declared by OpTypeForwardPointer and defined later (a
 * PhysicalStorageBuffer list node or an array of such pointers): a data
 * type once defined, which the end of the module checks. */
static bool forward_pointer_pending(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = &m->ids[id];
   return e->forward_declared && e->def_inst == SPIRV_NO_INDEX;
}

static bool parse_composite_type(struct spirv_parser *p, const struct spirv_inst *inst,
                                 struct spirv_type *t)
{
   const struct spirv_module *m = p->module;
   const uint32_t element = spirv_operand_word_at(m, inst, 0);
   const struct spirv_type *et = type_of(m, element);
   switch (inst->opcode) {
   case SPIRV_OP_TypeVector: {
      const uint32_t count = spirv_operand_word_at(m, inst, 1);
      /* Spec 2.16.1: components are numeric or bool; 8/16 need Vector16. */
      if (!et || (et->kind != SPIRV_TYPE_INT && et->kind != SPIRV_TYPE_FLOAT &&
                  et->kind != SPIRV_TYPE_BOOL))
         return spirv_fail(p, "component type %%%u is not a scalar type", element);
      if (count < 2 || count > SPIRV_MAX_VECTOR_COMPONENTS)
         return spirv_fail(p, "vector component count %u is not 2, 3 or 4", count);
      t->kind = SPIRV_TYPE_VECTOR;
      t->u.vector.component_type = element;
      t->u.vector.component_count = count;
      return true;
   }
   case SPIRV_OP_TypeMatrix: {
      const uint32_t columns = spirv_operand_word_at(m, inst, 1);
      if (!et || et->kind != SPIRV_TYPE_VECTOR ||
          type_of(m, et->u.vector.component_type)->kind != SPIRV_TYPE_FLOAT)
         return spirv_fail(p, "column type %%%u is not a float vector type", element);
      if (columns < 2 || columns > 4)
         return spirv_fail(p, "matrix column count %u is not 2, 3 or 4", columns);
      t->kind = SPIRV_TYPE_MATRIX;
      t->u.matrix.column_type = element;
      t->u.matrix.column_count = columns;
      return true;
   }
   case SPIRV_OP_TypeArray: {
      const uint32_t length = spirv_operand_word_at(m, inst, 1);
      if (!forward_pointer_pending(m, element) && !is_data_type(m, element))
         return spirv_fail(p, "element type %%%u is not a data type", element);
      /* Spec 3.42.6 OpTypeArray: Length is a constant instruction of integer
       * type (possibly a spec constant); a plain constant must be >= 1. */
      const struct spirv_id_entry *len = spirv_id_of_class(m, length, SPIRV_ID_CONSTANT);
      if (!len || !spirv_type_is_int(m, len->type_id))
         return spirv_fail(p, "array length %%%u is not an integer constant", length);
      const struct spirv_constant *c = &m->constants[len->index];
      if (c->kind == SPIRV_CONSTANT_SCALAR && !c->is_spec && c->value[0] == 0)
         return spirv_fail(p, "array length %%%u is 0", length);
      if (c->kind == SPIRV_CONSTANT_NULL || c->kind == SPIRV_CONSTANT_UNDEF)
         return spirv_fail(p, "array length %%%u is not a defined value", length);
      t->kind = SPIRV_TYPE_ARRAY;
      t->u.array.element_type = element;
      t->u.array.length_id = length;
      return true;
   }
   default: /* SPIRV_OP_TypeRuntimeArray */
      if (!forward_pointer_pending(m, element) && !is_data_type(m, element))
         return spirv_fail(p, "element type %%%u is not a data type", element);
      t->kind = SPIRV_TYPE_RUNTIME_ARRAY;
      t->u.array.element_type = element;
      return true;
   }
}

static bool parse_struct(struct spirv_parser *p, const struct spirv_inst *inst,
                         struct spirv_type *t, uint32_t *depth)
{
   const struct spirv_module *m = p->module;
   t->kind = SPIRV_TYPE_STRUCT;
   t->u.structure.member_first = inst->operand_first;
   t->u.structure.member_count = inst->operand_count;
   for (uint32_t i = 0; i < inst->operand_count; i++) {
      const uint32_t member = spirv_operand_word_at(m, inst, i);
      if (forward_pointer_pending(m, member))
         continue;
      if (!is_data_type(m, member))
         return spirv_fail(p, "member %u type %%%u is not a data type", i, member);
      /* Spec 2.16.1: a runtime array may only be the last member. */
      if (type_of(m, member)->kind == SPIRV_TYPE_RUNTIME_ARRAY && i + 1 != inst->operand_count)
         return spirv_fail(p, "member %u is a runtime array but not the last member", i);
      if (depth_of(m, member) + 1 > *depth)
         *depth = depth_of(m, member) + 1;
   }
   return true;
}

static bool parse_pointer(struct spirv_parser *p, const struct spirv_inst *inst,
                          struct spirv_type *t)
{
   const struct spirv_module *m = p->module;
   t->kind = SPIRV_TYPE_POINTER;
   t->u.pointer.storage_class = spirv_operand_word_at(m, inst, 0);
   t->u.pointer.pointee_type = spirv_operand_word_at(m, inst, 1);
   if (!type_of(m, t->u.pointer.pointee_type))
      return spirv_fail(p, "pointee type %%%u is not a type", t->u.pointer.pointee_type);
   const struct spirv_id_entry *self = &m->ids[inst->result_id];
   if (self->forward_declared && self->forward_storage_class != t->u.pointer.storage_class) {
      return spirv_fail(
          p, "storage class %s differs from the OpTypeForwardPointer's %s",
          spirv_enumerant_name(SPIRV_OPERAND_StorageClass, t->u.pointer.storage_class),
          spirv_enumerant_name(SPIRV_OPERAND_StorageClass, self->forward_storage_class));
   }
   return true;
}

static bool parse_function_type(struct spirv_parser *p, const struct spirv_inst *inst,
                                struct spirv_type *t)
{
   const struct spirv_module *m = p->module;
   t->kind = SPIRV_TYPE_FUNCTION;
   t->u.function.return_type = spirv_operand_word_at(m, inst, 0);
   t->u.function.parameter_first = inst->operand_first + 1;
   t->u.function.parameter_count = inst->operand_count - 1;
   const struct spirv_type *ret = type_of(m, t->u.function.return_type);
   if (!ret || ret->kind == SPIRV_TYPE_FUNCTION)
      return spirv_fail(p, "return type %%%u is not a type", t->u.function.return_type);
   for (uint32_t i = 1; i < inst->operand_count; i++) {
      if (!is_data_type(m, spirv_operand_word_at(m, inst, i))) {
         return spirv_fail(p, "parameter %u type %%%u is not a data type", i - 1,
                           spirv_operand_word_at(m, inst, i));
      }
   }
   return true;
}

static bool parse_image(struct spirv_parser *p, const struct spirv_inst *inst, struct spirv_type *t)
{
   const struct spirv_module *m = p->module;
   t->kind = SPIRV_TYPE_IMAGE;
   t->u.image.sampled_type = spirv_operand_word_at(m, inst, 0);
   t->u.image.dim = spirv_operand_word_at(m, inst, 1);
   t->u.image.depth = spirv_operand_word_at(m, inst, 2);
   t->u.image.arrayed = spirv_operand_word_at(m, inst, 3);
   t->u.image.multisampled = spirv_operand_word_at(m, inst, 4);
   t->u.image.sampled = spirv_operand_word_at(m, inst, 5);
   t->u.image.format = spirv_operand_word_at(m, inst, 6);
   const struct spirv_type *st = type_of(m, t->u.image.sampled_type);
   if (!st ||
       (st->kind != SPIRV_TYPE_VOID && st->kind != SPIRV_TYPE_INT && st->kind != SPIRV_TYPE_FLOAT))
      return spirv_fail(p, "sampled type %%%u is not void or a numeric scalar",
                        t->u.image.sampled_type);
   if (t->u.image.depth > 2 || t->u.image.arrayed > 1 || t->u.image.multisampled > 1 ||
       t->u.image.sampled > 2)
      return spirv_fail(p, "image Depth/Arrayed/MS/Sampled operands out of range");
   return true;
}

static bool parse_forward_pointer(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   const uint32_t pointer = spirv_operand_word_at(m, inst, 0);
   struct spirv_id_entry *e = &m->ids[pointer];
   if (e->def_inst != SPIRV_NO_INDEX || e->forward_declared)
      return spirv_fail(p, "%%%u is already declared", pointer);
   e->forward_declared = true;
   e->forward_storage_class = spirv_operand_word_at(m, inst, 1);
   return true;
}

bool spirv_parse_type(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   if (inst->opcode == SPIRV_OP_TypeForwardPointer)
      return parse_forward_pointer(p, inst);
   struct spirv_type t;
   memset(&t, 0, sizeof(t));
   t.id = inst->result_id;
   uint32_t depth = 1;
   bool ok = true;
   switch (inst->opcode) {
   case SPIRV_OP_TypeVoid:
      t.kind = SPIRV_TYPE_VOID;
      break;
   case SPIRV_OP_TypeBool:
      t.kind = SPIRV_TYPE_BOOL;
      break;
   case SPIRV_OP_TypeInt:
   case SPIRV_OP_TypeFloat:
      ok = parse_scalar(p, inst, &t);
      break;
   case SPIRV_OP_TypeVector:
   case SPIRV_OP_TypeMatrix:
   case SPIRV_OP_TypeArray:
   case SPIRV_OP_TypeRuntimeArray:
      ok = parse_composite_type(p, inst, &t);
      depth = depth_of(m, spirv_operand_word_at(m, inst, 0)) + 1;
      break;
   case SPIRV_OP_TypeStruct:
      ok = parse_struct(p, inst, &t, &depth);
      break;
   case SPIRV_OP_TypePointer:
      ok = parse_pointer(p, inst, &t);
      break;
   case SPIRV_OP_TypeFunction:
      ok = parse_function_type(p, inst, &t);
      break;
   case SPIRV_OP_TypeImage:
      ok = parse_image(p, inst, &t);
      break;
   case SPIRV_OP_TypeSampler:
      t.kind = SPIRV_TYPE_SAMPLER;
      break;
   case SPIRV_OP_TypeSampledImage:
      t.kind = SPIRV_TYPE_SAMPLED_IMAGE;
      t.u.sampled_image.image_type = spirv_operand_word_at(m, inst, 0);
      if (!type_of(m, t.u.sampled_image.image_type) ||
          type_of(m, t.u.sampled_image.image_type)->kind != SPIRV_TYPE_IMAGE)
         ok = spirv_fail(p, "%%%u is not an image type", t.u.sampled_image.image_type);
      break;
   case SPIRV_OP_TypeAccelerationStructureKHR:
      t.kind = SPIRV_TYPE_ACCELERATION_STRUCTURE;
      break;
   case SPIRV_OP_TypeRayQueryKHR:
      t.kind = SPIRV_TYPE_RAY_QUERY;
      break;
   default:
      return spirv_fail(p, "this type is not supported (OpenCL/kernel types)");
   }
   if (!ok)
      return false;
   if (depth > SPIRV_MAX_TYPE_DEPTH)
      return spirv_fail(p, "types nest deeper than %u levels", SPIRV_MAX_TYPE_DEPTH);
   struct spirv_id_entry *e = &m->ids[inst->result_id];
   e->id_class = SPIRV_ID_TYPE;
   e->index = m->type_count;
   e->type_depth = (uint8_t)depth;
   m->types[m->type_count++] = t;
   return true;
}

bool spirv_check_forward_pointers(struct spirv_error *error, const struct spirv_module *m)
{
   for (uint32_t id = 1; id < m->bound; id++) {
      const struct spirv_id_entry *e = &m->ids[id];
      if (!e->forward_declared)
         continue;
      const struct spirv_type *t = type_of(m, id);
      if (!t || t->kind != SPIRV_TYPE_POINTER) {
         return spirv_fail_word(error, m->word_count,
                                "%%%u is declared by OpTypeForwardPointer but never defined by "
                                "OpTypePointer",
                                id);
      }
   }
   return true;
}
