/* Read-only queries over a parsed module: what ids name, entry points, and
 * the workgroup size after specialization. */
#include <string.h>

#include "spirv_internal.h"

uint32_t spirv_module_version(const struct spirv_module *m)
{
   return m->version;
}

uint32_t spirv_module_bound(const struct spirv_module *m)
{
   return m->bound;
}

const uint32_t *spirv_module_words(const struct spirv_module *m)
{
   return m->words;
}

uint32_t spirv_module_inst_count(const struct spirv_module *m)
{
   return m->inst_count;
}

const struct spirv_inst *spirv_module_inst(const struct spirv_module *m, uint32_t index)
{
   return index < m->inst_count ? &m->insts[index] : NULL;
}

const struct spirv_operand *spirv_inst_operand(const struct spirv_module *m,
                                               const struct spirv_inst *inst, uint32_t i)
{
   return i < inst->operand_count ? &m->operands[inst->operand_first + i] : NULL;
}

uint32_t spirv_inst_operand_word(const struct spirv_module *m, const struct spirv_inst *inst,
                                 uint32_t i)
{
   return i < inst->operand_count ? spirv_operand_word_at(m, inst, i) : 0;
}

const char *spirv_operand_string(const struct spirv_module *m, const struct spirv_operand *operand)
{
   if (operand->kind != SPIRV_OPERAND_LiteralString)
      return NULL;
   return m->strings + operand->string_offset;
}

uint32_t spirv_module_operand_word(const struct spirv_module *m, uint32_t operand_index)
{
   return operand_index < m->operand_count ? m->words[m->operands[operand_index].word_offset] : 0;
}

bool spirv_module_has_capability(const struct spirv_module *m, uint32_t capability)
{
   for (uint32_t i = 0; i < m->capability_count; i++) {
      if (m->capabilities[i] == capability)
         return true;
   }
   return false;
}

bool spirv_module_has_extension(const struct spirv_module *m, const char *name)
{
   for (uint32_t i = 0; i < m->extension_count; i++) {
      if (strcmp(m->strings + m->extensions[i], name) == 0)
         return true;
   }
   return false;
}

uint32_t spirv_module_addressing_model(const struct spirv_module *m)
{
   return m->addressing_model;
}

uint32_t spirv_module_memory_model(const struct spirv_module *m)
{
   return m->memory_model;
}

enum spirv_id_class spirv_id_class(const struct spirv_module *m, uint32_t id)
{
   return id < m->bound ? (enum spirv_id_class)m->ids[id].id_class : SPIRV_ID_NONE;
}

const struct spirv_inst *spirv_id_definition(const struct spirv_module *m, uint32_t id)
{
   if (id >= m->bound || m->ids[id].def_inst == SPIRV_NO_INDEX)
      return NULL;
   return &m->insts[m->ids[id].def_inst];
}

uint32_t spirv_id_type(const struct spirv_module *m, uint32_t id)
{
   return id < m->bound ? m->ids[id].type_id : SPIRV_NO_ID;
}

const char *spirv_id_name(const struct spirv_module *m, uint32_t id, uint32_t member)
{
   if (id >= m->bound)
      return NULL;
   for (uint32_t n = m->ids[id].first_name; n != SPIRV_NO_INDEX; n = m->names[n].next) {
      if (m->names[n].member == member)
         return m->strings + m->names[n].string_offset;
   }
   return NULL;
}

enum spirv_ext_inst_set spirv_ext_inst_set_kind(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_EXT_INST_SET);
   return e ? (enum spirv_ext_inst_set)e->index : SPIRV_EXT_INST_SET_NON_SEMANTIC;
}

const struct spirv_type *spirv_type(const struct spirv_module *m, uint32_t type_id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, type_id, SPIRV_ID_TYPE);
   return e ? &m->types[e->index] : NULL;
}

uint32_t spirv_struct_member_type(const struct spirv_module *m, uint32_t struct_type,
                                  uint32_t member)
{
   const struct spirv_type *t = spirv_type(m, struct_type);
   if (!t || t->kind != SPIRV_TYPE_STRUCT || member >= t->u.structure.member_count)
      return SPIRV_NO_ID;
   return spirv_module_operand_word(m, t->u.structure.member_first + member);
}

uint32_t spirv_type_scalar(const struct spirv_module *m, uint32_t type_id)
{
   /* Bounded by the type depth cap; each step goes to an earlier type. */
   for (uint32_t depth = 0; depth <= SPIRV_MAX_TYPE_DEPTH; depth++) {
      const struct spirv_type *t = spirv_type(m, type_id);
      if (!t)
         return SPIRV_NO_ID;
      switch (t->kind) {
      case SPIRV_TYPE_VECTOR:
         type_id = t->u.vector.component_type;
         break;
      case SPIRV_TYPE_MATRIX:
         type_id = t->u.matrix.column_type;
         break;
      case SPIRV_TYPE_ARRAY:
      case SPIRV_TYPE_RUNTIME_ARRAY:
         type_id = t->u.array.element_type;
         break;
      default:
         return type_id;
      }
   }
   return SPIRV_NO_ID;
}

const struct spirv_constant *spirv_constant(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_CONSTANT);
   return e ? &m->constants[e->index] : NULL;
}

bool spirv_constant_scalar(const struct spirv_module *m, uint32_t id, uint64_t *value)
{
   const struct spirv_constant *c = spirv_constant(m, id);
   if (!c || !c->has_value || spirv_type_component_count(m, c->type_id) != 1 ||
       c->component_count != 1)
      return false;
   *value = c->value[0];
   return true;
}

uint32_t spirv_constant_constituent(const struct spirv_module *m, const struct spirv_constant *c,
                                    uint32_t i)
{
   if (c->kind != SPIRV_CONSTANT_COMPOSITE || i >= c->component_count)
      return SPIRV_NO_ID;
   return spirv_module_operand_word(m, c->constituent_first + i);
}

bool spirv_array_length(const struct spirv_module *m, uint32_t array_type, uint64_t *length)
{
   const struct spirv_type *t = spirv_type(m, array_type);
   if (!t || t->kind != SPIRV_TYPE_ARRAY)
      return false;
   return spirv_constant_scalar(m, t->u.array.length_id, length);
}

const struct spirv_variable *spirv_variable(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_VARIABLE);
   return e ? &m->variables[e->index] : NULL;
}

uint32_t spirv_module_global_variable_count(const struct spirv_module *m)
{
   return m->global_variable_count;
}

const struct spirv_variable *spirv_module_global_variable(const struct spirv_module *m,
                                                          uint32_t index)
{
   return index < m->global_variable_count ? &m->variables[index] : NULL;
}

uint32_t spirv_module_function_count(const struct spirv_module *m)
{
   return m->function_count;
}

const struct spirv_function *spirv_module_function(const struct spirv_module *m, uint32_t index)
{
   return index < m->function_count ? &m->functions[index] : NULL;
}

const struct spirv_function *spirv_function_by_id(const struct spirv_module *m, uint32_t id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, id, SPIRV_ID_FUNCTION);
   return e ? &m->functions[e->index] : NULL;
}

const struct spirv_block *spirv_module_block(const struct spirv_module *m, uint32_t index)
{
   return index < m->block_count ? &m->blocks[index] : NULL;
}

const struct spirv_block *spirv_block_by_label(const struct spirv_module *m, uint32_t label_id)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, label_id, SPIRV_ID_LABEL);
   return e ? &m->blocks[e->index] : NULL;
}

uint32_t spirv_module_entry_point_count(const struct spirv_module *m)
{
   return m->entry_point_count;
}

const struct spirv_entry_point *spirv_module_entry_point(const struct spirv_module *m,
                                                         uint32_t index)
{
   return index < m->entry_point_count ? &m->entry_points[index] : NULL;
}

const struct spirv_entry_point *spirv_find_entry_point(const struct spirv_module *m,
                                                       const char *name, uint32_t model)
{
   for (uint32_t i = 0; i < m->entry_point_count; i++) {
      if (m->entry_points[i].execution_model == model && strcmp(m->entry_points[i].name, name) == 0)
         return &m->entry_points[i];
   }
   return NULL;
}

uint32_t spirv_entry_point_mode_count(const struct spirv_module *m,
                                      const struct spirv_entry_point *entry)
{
   uint32_t count = 0;
   for (uint32_t i = 0; i < m->mode_count; i++)
      count += m->modes[i].function_id == entry->function_id;
   return count;
}

const struct spirv_execution_mode *spirv_entry_point_mode(const struct spirv_module *m,
                                                          const struct spirv_entry_point *entry,
                                                          uint32_t index)
{
   for (uint32_t i = 0; i < m->mode_count; i++) {
      if (m->modes[i].function_id == entry->function_id && index-- == 0)
         return &m->modes[i];
   }
   return NULL;
}

/* The constant decorated BuiltIn WorkgroupSize, SPIRV_NO_ID when none. */
static uint32_t workgroup_size_constant(const struct spirv_module *m)
{
   for (uint32_t i = 0; i < m->decoration_count; i++) {
      const struct spirv_decoration *d = &m->decorations[i];
      if (d->decoration == SPIRV_DECORATION_BuiltIn && d->member == SPIRV_NO_MEMBER &&
          d->operand_count == 1 &&
          spirv_module_operand_word(m, d->operand_first) == SPIRV_BUILT_IN_WorkgroupSize &&
          spirv_constant(m, d->target))
         return d->target;
   }
   return SPIRV_NO_ID;
}

bool spirv_entry_point_workgroup_size(const struct spirv_module *m,
                                      const struct spirv_entry_point *entry, uint32_t size[3],
                                      struct spirv_error *error)
{
   const uint32_t builtin = workgroup_size_constant(m);
   uint32_t ids[3] = {0, 0, 0};
   if (builtin != SPIRV_NO_ID) {
      const struct spirv_constant *c = spirv_constant(m, builtin);
      if (c->kind != SPIRV_CONSTANT_COMPOSITE || c->component_count != 3)
         return spirv_fail_at(error, m, c->inst, "WorkgroupSize is not a 3-component composite");
      for (uint32_t d = 0; d < 3; d++)
         ids[d] = spirv_constant_constituent(m, c, d);
   } else if (entry->has_local_size && entry->local_size_is_id) {
      memcpy(ids, entry->local_size, sizeof(ids));
   } else if (entry->has_local_size) {
      memcpy(size, entry->local_size, 3 * sizeof(uint32_t));
      return true;
   } else {
      return spirv_fail_at(error, m, entry->inst, "entry point \"%s\" declares no workgroup size",
                           entry->name);
   }
   for (uint32_t d = 0; d < 3; d++) {
      uint64_t v;
      if (!spirv_constant_scalar(m, ids[d], &v) || v == 0 || v > UINT32_MAX) {
         return spirv_fail_at(error, m, entry->inst,
                              "workgroup size component %u (%%%u) is not "
                              "a positive 32-bit constant",
                              d, ids[d]);
      }
      size[d] = (uint32_t)v;
   }
   return true;
}
