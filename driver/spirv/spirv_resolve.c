/* Module-wide checks that need every definition: each id operand names a
 * defined id (forward references are legal for labels, functions, names,
 * decorations and phi operands, so this runs after the walk), and entry
 * points name functions whose interface lists global variables
 * (spec 2.16.1 "Universal Validation Rules", 3.42.6 OpEntryPoint). */
#include "spirv_internal.h"

bool spirv_check_ids_defined(struct spirv_error *error, const struct spirv_module *m)
{
   for (uint32_t i = 0; i < m->inst_count; i++) {
      const struct spirv_inst *inst = &m->insts[i];
      for (uint32_t k = 0; k < inst->operand_count; k++) {
         const struct spirv_operand *op = &m->operands[inst->operand_first + k];
         if (!spirv_is_id_kind(op->kind))
            continue;
         const uint32_t id = m->words[op->word_offset];
         /* A forward pointer is "used" by OpTypeForwardPointer before its
          * definition; spirv_check_forward_pointers() covers it. */
         if (m->ids[id].def_inst == SPIRV_NO_INDEX &&
             !(inst->opcode == SPIRV_OP_TypeForwardPointer && k == 0))
            return spirv_fail_at(error, m, i, "id %%%u is used but never defined", id);
      }
   }
   return true;
}

bool spirv_check_entry_points(struct spirv_error *error, const struct spirv_module *m)
{
   for (uint32_t i = 0; i < m->entry_point_count; i++) {
      const struct spirv_entry_point *ep = &m->entry_points[i];
      const struct spirv_function *f = spirv_function_by_id(m, ep->function_id);
      if (!f) {
         return spirv_fail_at(error, m, ep->inst,
                              "entry point \"%s\" names %%%u, which is not "
                              "a function",
                              ep->name, ep->function_id);
      }
      if (f->block_count == 0)
         return spirv_fail_at(error, m, ep->inst, "entry point \"%s\" has no body", ep->name);
      const struct spirv_type *ft = spirv_type(m, f->function_type);
      const struct spirv_type *ret = spirv_type(m, ft->u.function.return_type);
      if (ft->u.function.parameter_count != 0 || ret->kind != SPIRV_TYPE_VOID) {
         return spirv_fail_at(error, m, ep->inst,
                              "entry point \"%s\" must take no parameters "
                              "and return void",
                              ep->name);
      }
      for (uint32_t k = 0; k < ep->interface_count; k++) {
         const uint32_t id = spirv_module_operand_word(m, ep->interface_first + k);
         const struct spirv_variable *v = spirv_variable(m, id);
         if (!v || v->function != SPIRV_NO_INDEX) {
            return spirv_fail_at(error, m, ep->inst,
                                 "interface %%%u of \"%s\" is not a global "
                                 "variable",
                                 id, ep->name);
         }
      }
      if (ep->execution_model == SPIRV_EXECUTION_MODEL_GLCompute && ep->has_local_size &&
          ep->local_size_is_id) {
         for (uint32_t d = 0; d < 3; d++) {
            const struct spirv_constant *c = spirv_constant(m, ep->local_size[d]);
            if (!c || !spirv_type_is_int(m, c->type_id)) {
               return spirv_fail_at(error, m, ep->inst,
                                    "LocalSizeId operand %%%u is not an "
                                    "integer constant",
                                    ep->local_size[d]);
            }
         }
      }
   }
   return true;
}
