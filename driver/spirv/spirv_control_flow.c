/* Control-flow facts checked once every label is known (forward branches are
 * the norm): branch and merge targets are blocks of the same function, OpPhi
 * parents are blocks of the function and values match the phi's type,
 * function calls name functions with matching argument types (spec 2.16.1,
 * 3.42.17). */
#include "spirv_internal.h"

static const struct spirv_block *block_of(const struct spirv_module *m, uint32_t label)
{
   const struct spirv_id_entry *e = spirv_id_of_class(m, label, SPIRV_ID_LABEL);
   return e ? &m->blocks[e->index] : NULL;
}

static bool check_target(struct spirv_error *error, const struct spirv_module *m, uint32_t inst,
                         uint32_t function, uint32_t label, const char *what)
{
   const struct spirv_block *b = block_of(m, label);
   if (!b || b->function != function) {
      return spirv_fail_at(error, m, inst, "%s %%%u is not a block of this function", what, label);
   }
   return true;
}

uint32_t spirv_block_successors(const struct spirv_module *m, const struct spirv_block *block,
                                uint32_t *labels, uint32_t max)
{
   if (block->terminator == SPIRV_NO_INDEX)
      return 0;
   const struct spirv_inst *t = &m->insts[block->terminator];
   uint32_t count = 0;
   for (uint32_t i = 0; i < t->operand_count; i++) {
      const struct spirv_operand *op = &m->operands[t->operand_first + i];
      const bool is_target =
          (t->opcode == SPIRV_OP_Branch && i == 0) ||
          (t->opcode == SPIRV_OP_BranchConditional && (i == 1 || i == 2)) ||
          (t->opcode == SPIRV_OP_Switch && i > 0 && op->kind == SPIRV_OPERAND_IdRef);
      if (!is_target)
         continue;
      if (count < max)
         labels[count] = m->words[op->word_offset];
      count++;
   }
   return count;
}

bool spirv_phi_incoming(const struct spirv_module *m, const struct spirv_inst *phi, uint32_t i,
                        uint32_t *value_id, uint32_t *parent_label)
{
   if (phi->opcode != SPIRV_OP_Phi || 2 * i + 1 >= phi->operand_count)
      return false;
   *value_id = spirv_operand_word_at(m, phi, 2 * i);
   *parent_label = spirv_operand_word_at(m, phi, 2 * i + 1);
   return true;
}

static bool check_block(struct spirv_error *error, const struct spirv_module *m,
                        const struct spirv_block *b)
{
   uint32_t targets[2];
   const struct spirv_inst *t = &m->insts[b->terminator];
   if (t->opcode == SPIRV_OP_Switch) {
      for (uint32_t i = 1; i < t->operand_count; i++) {
         const struct spirv_operand *op = &m->operands[t->operand_first + i];
         if (op->kind == SPIRV_OPERAND_IdRef &&
             !check_target(error, m, b->terminator, b->function, m->words[op->word_offset],
                           "switch target"))
            return false;
      }
   } else {
      const uint32_t n = spirv_block_successors(m, b, targets, 2);
      for (uint32_t i = 0; i < n && i < 2; i++) {
         if (!check_target(error, m, b->terminator, b->function, targets[i], "branch target"))
            return false;
      }
   }
   if (t->opcode == SPIRV_OP_BranchConditional) {
      const uint32_t cond_type = spirv_id_type(m, spirv_operand_word_at(m, t, 0));
      const struct spirv_type *ct = spirv_type(m, cond_type);
      if (!ct || ct->kind != SPIRV_TYPE_BOOL)
         return spirv_fail_at(error, m, b->terminator, "condition is not a bool scalar");
   }
   if (b->merge_kind != SPIRV_MERGE_NONE) {
      const uint32_t merge_inst = b->terminator - 1;
      if (!check_target(error, m, merge_inst, b->function, b->merge_block, "merge block"))
         return false;
      if (b->merge_kind == SPIRV_MERGE_LOOP &&
          !check_target(error, m, merge_inst, b->function, b->continue_target, "continue target"))
         return false;
   }
   for (uint32_t i = 1; i <= b->phi_count; i++) {
      const uint32_t index = b->first_inst + i;
      const struct spirv_inst *phi = &m->insts[index];
      if (phi->opcode != SPIRV_OP_Phi)
         continue; /* OpLine between phis */
      uint32_t value, parent;
      for (uint32_t k = 0; spirv_phi_incoming(m, phi, k, &value, &parent); k++) {
         if (!check_target(error, m, index, b->function, parent, "phi parent"))
            return false;
         if (spirv_id_type(m, value) != phi->result_type) {
            return spirv_fail_at(error, m, index,
                                 "incoming value %%%u has type %%%u, the phi "
                                 "%%%u",
                                 value, spirv_id_type(m, value), phi->result_type);
         }
      }
   }
   return true;
}

static bool check_call(struct spirv_error *error, const struct spirv_module *m, uint32_t index)
{
   const struct spirv_inst *call = &m->insts[index];
   const uint32_t callee = spirv_operand_word_at(m, call, 0);
   const struct spirv_function *f = spirv_function_by_id(m, callee);
   if (!f)
      return spirv_fail_at(error, m, index, "callee %%%u is not a function", callee);
   if (f->result_type != call->result_type)
      return spirv_fail_at(error, m, index, "result type differs from the callee's");
   if (call->operand_count - 1 != f->parameter_count) {
      return spirv_fail_at(error, m, index, "%u arguments for %u parameters",
                           call->operand_count - 1, f->parameter_count);
   }
   for (uint32_t i = 0; i < f->parameter_count; i++) {
      const uint32_t arg = spirv_operand_word_at(m, call, 1 + i);
      if (spirv_id_type(m, arg) != m->insts[f->parameter_first + i].result_type)
         return spirv_fail_at(error, m, index, "argument %u has the wrong type", i);
   }
   return true;
}

bool spirv_check_control_flow(struct spirv_error *error, const struct spirv_module *m)
{
   for (uint32_t i = 0; i < m->block_count; i++) {
      if (!check_block(error, m, &m->blocks[i]))
         return false;
   }
   for (uint32_t i = 0; i < m->inst_count; i++) {
      if (m->insts[i].opcode == SPIRV_OP_FunctionCall && !check_call(error, m, i))
         return false;
   }
   return true;
}
