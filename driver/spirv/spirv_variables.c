/* Variables (SPIR-V spec 3.42.8 OpVariable): memory objects named by a
 * pointer. Module-scope variables must not use the Function storage class,
 * function-scope ones must (spec 2.16.1); initializers are constants or, at
 * module scope, other global variables. */
#include "spirv_internal.h"

bool spirv_parse_variable(struct spirv_parser *p, const struct spirv_inst *inst, uint32_t function)
{
   struct spirv_module *m = p->module;
   const struct spirv_type *t = spirv_type(m, inst->result_type);
   if (!t || t->kind != SPIRV_TYPE_POINTER)
      return spirv_fail(p, "result type %%%u is not a pointer type", inst->result_type);
   struct spirv_variable *v = &m->variables[m->variable_count];
   v->id = inst->result_id;
   v->type_id = inst->result_type;
   v->storage_class = spirv_operand_word_at(m, inst, 0);
   v->initializer = inst->operand_count > 1 ? spirv_operand_word_at(m, inst, 1) : SPIRV_NO_ID;
   v->function = function;
   if (v->storage_class != t->u.pointer.storage_class) {
      return spirv_fail(
          p, "storage class %s differs from its pointer type's %s",
          spirv_enumerant_name(SPIRV_OPERAND_StorageClass, v->storage_class),
          spirv_enumerant_name(SPIRV_OPERAND_StorageClass, t->u.pointer.storage_class));
   }
   const bool is_function_class = v->storage_class == SPIRV_STORAGE_CLASS_Function;
   if (is_function_class != (function != SPIRV_NO_INDEX)) {
      return spirv_fail(p, is_function_class
                               ? "storage class Function is only allowed inside a function"
                               : "variables inside a function must use storage class Function");
   }
   if (v->storage_class == SPIRV_STORAGE_CLASS_Generic)
      return spirv_fail(p, "storage class Generic is not allowed in shaders");
   if (v->initializer != SPIRV_NO_ID) {
      const enum spirv_id_class cls = spirv_id_class(m, v->initializer);
      if (cls != SPIRV_ID_CONSTANT && !(cls == SPIRV_ID_VARIABLE && function == SPIRV_NO_INDEX))
         return spirv_fail(p, "initializer %%%u is not a constant", v->initializer);
      if (cls == SPIRV_ID_CONSTANT && spirv_id_type(m, v->initializer) != t->u.pointer.pointee_type)
         return spirv_fail(p, "initializer %%%u does not have the pointee type %%%u",
                           v->initializer, t->u.pointer.pointee_type);
      /* Workgroup memory can only start as zero
       * (VUID-StandaloneSpirv-OpVariable-04734, shaderZeroInitializeWorkgroupMemory):
       * the SM clears a workgroup's shared memory when it launches it. */
      if (v->storage_class == SPIRV_STORAGE_CLASS_Workgroup &&
          (cls != SPIRV_ID_CONSTANT ||
           spirv_constant(m, v->initializer)->kind != SPIRV_CONSTANT_NULL))
         return spirv_fail(p, "Workgroup variable initializer %%%u is not OpConstantNull",
                           v->initializer);
   }
   struct spirv_id_entry *e = &m->ids[inst->result_id];
   e->id_class = SPIRV_ID_VARIABLE;
   e->index = m->variable_count++;
   if (function == SPIRV_NO_INDEX)
      m->global_variable_count = m->variable_count;
   return true;
}
