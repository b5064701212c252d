/* Functions and basic blocks (SPIR-V spec 2.2.5 "Control Flow", 2.4 items
 * 10-11, 2.11 "Structured Control Flow"). The parser walks a function as a
 * small state machine: header (OpFunction, OpFunctionParameter*), then blocks,
 * each starting with OpLabel and ending with exactly one terminator, then
 * OpFunctionEnd. Merge instructions are recorded on their header block. */
#include "spirv_internal.h"

bool spirv_is_block_terminator(uint32_t opcode)
{
   /* Spec 2.2.5 "Termination Instructions" and "Branch Instructions". */
   switch (opcode) {
   case SPIRV_OP_Branch:
   case SPIRV_OP_BranchConditional:
   case SPIRV_OP_Switch:
   case SPIRV_OP_Return:
   case SPIRV_OP_ReturnValue:
   case SPIRV_OP_Kill:
   case SPIRV_OP_Unreachable:
   case SPIRV_OP_TerminateInvocation:
   case SPIRV_OP_IgnoreIntersectionKHR:
   case SPIRV_OP_TerminateRayKHR:
      return true;
   default:
      return false;
   }
}

static bool begin_function(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   if (p->function_state != SPIRV_OUTSIDE_FUNCTION) {
      return spirv_fail(p, "function %%%u is not ended with OpFunctionEnd",
                        m->functions[p->function].id);
   }
   struct spirv_function *f = &m->functions[m->function_count];
   f->id = inst->result_id;
   f->result_type = inst->result_type;
   f->control = spirv_operand_word_at(m, inst, 0);
   f->function_type = spirv_operand_word_at(m, inst, 1);
   f->first_inst = p->inst_index;
   f->end_inst = SPIRV_NO_INDEX;
   f->parameter_first = p->inst_index + 1;
   f->block_first = m->block_count;
   const struct spirv_type *ft = spirv_type(m, f->function_type);
   if (!ft || ft->kind != SPIRV_TYPE_FUNCTION)
      return spirv_fail(p, "function type %%%u is not an OpTypeFunction", f->function_type);
   if (ft->u.function.return_type != f->result_type) {
      return spirv_fail(p, "result type %%%u differs from the function type's return type %%%u",
                        f->result_type, ft->u.function.return_type);
   }
   struct spirv_id_entry *e = &m->ids[f->id];
   e->id_class = SPIRV_ID_FUNCTION;
   e->index = m->function_count;
   p->function = m->function_count++;
   p->function_state = SPIRV_IN_FUNCTION_HEADER;
   return true;
}

static bool add_parameter(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   struct spirv_function *f = &m->functions[p->function];
   if (p->function_state != SPIRV_IN_FUNCTION_HEADER)
      return spirv_fail(p, "OpFunctionParameter must directly follow OpFunction");
   const struct spirv_type *ft = spirv_type(m, f->function_type);
   if (f->parameter_count >= ft->u.function.parameter_count) {
      return spirv_fail(p, "function %%%u has more parameters than its type's %u", f->id,
                        ft->u.function.parameter_count);
   }
   const uint32_t expected =
       spirv_module_operand_word(m, ft->u.function.parameter_first + f->parameter_count);
   if (inst->result_type != expected) {
      return spirv_fail(p, "parameter %u has type %%%u, the function type says %%%u",
                        f->parameter_count, inst->result_type, expected);
   }
   f->parameter_count++;
   return true;
}

static bool begin_block(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   if (p->function_state == SPIRV_IN_BLOCK) {
      return spirv_fail(p, "block %%%u is not terminated before the next OpLabel",
                        m->blocks[p->block].label_id);
   }
   struct spirv_function *f = &m->functions[p->function];
   if (f->block_count == 0) {
      const struct spirv_type *ft = spirv_type(m, f->function_type);
      if (f->parameter_count != ft->u.function.parameter_count) {
         return spirv_fail(p, "function %%%u has %u parameters, its type %u", f->id,
                           f->parameter_count, ft->u.function.parameter_count);
      }
   }
   struct spirv_block *b = &m->blocks[m->block_count];
   b->label_id = inst->result_id;
   b->function = p->function;
   b->first_inst = p->inst_index;
   b->terminator = SPIRV_NO_INDEX;
   b->merge_kind = SPIRV_MERGE_NONE;
   struct spirv_id_entry *e = &m->ids[b->label_id];
   e->id_class = SPIRV_ID_LABEL;
   e->index = m->block_count;
   p->block = m->block_count++;
   f->block_count++;
   p->function_state = SPIRV_IN_BLOCK;
   p->block_has_non_phi = false;
   p->block_had_merge = false;
   p->entry_block_past_variables = f->block_count > 1;
   return true;
}

static bool end_function(struct spirv_parser *p)
{
   struct spirv_module *m = p->module;
   struct spirv_function *f = &m->functions[p->function];
   if (p->function_state == SPIRV_IN_BLOCK) {
      return spirv_fail(p, "block %%%u is not terminated (function %%%u ends)",
                        m->blocks[p->block].label_id, f->id);
   }
   const struct spirv_type *ft = spirv_type(m, f->function_type);
   if (f->parameter_count != ft->u.function.parameter_count) {
      return spirv_fail(p, "function %%%u has %u parameters, its type %u", f->id,
                        f->parameter_count, ft->u.function.parameter_count);
   }
   f->end_inst = p->inst_index;
   p->function_state = SPIRV_OUTSIDE_FUNCTION;
   return true;
}

static bool record_merge(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   struct spirv_block *b = &m->blocks[p->block];
   if (b->merge_kind != SPIRV_MERGE_NONE || p->block_had_merge)
      return spirv_fail(p, "block %%%u has two merge instructions", b->label_id);
   b->merge_block = spirv_operand_word_at(m, inst, 0);
   if (inst->opcode == SPIRV_OP_LoopMerge) {
      b->merge_kind = SPIRV_MERGE_LOOP;
      b->continue_target = spirv_operand_word_at(m, inst, 1);
      b->control = spirv_operand_word_at(m, inst, 2);
   } else {
      b->merge_kind = SPIRV_MERGE_SELECTION;
      b->control = spirv_operand_word_at(m, inst, 1);
   }
   p->block_had_merge = true;
   return true;
}

static bool block_instruction(struct spirv_parser *p, struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   struct spirv_block *b = &m->blocks[p->block];
   const uint32_t op = inst->opcode;
   const bool is_debug_line = op == SPIRV_OP_Line || op == SPIRV_OP_NoLine;
   /* Spec 2.11: a merge instruction is the second-to-last of its block;
    * OpSelectionMerge precedes a conditional branch or switch, OpLoopMerge a
    * branch or conditional branch. */
   if (p->block_had_merge && !is_debug_line) {
      const bool loop = b->merge_kind == SPIRV_MERGE_LOOP;
      const bool fits = loop ? (op == SPIRV_OP_Branch || op == SPIRV_OP_BranchConditional)
                             : (op == SPIRV_OP_BranchConditional || op == SPIRV_OP_Switch);
      if (!fits) {
         return spirv_fail(
             p, "%s must be followed by %s", loop ? "OpLoopMerge" : "OpSelectionMerge",
             loop ? "OpBranch or OpBranchConditional" : "OpBranchConditional or OpSwitch");
      }
   }
   if (op == SPIRV_OP_Phi) {
      /* Spec 3.42.17 OpPhi: must be within the first instructions of a block. */
      if (p->block_has_non_phi)
         return spirv_fail(p, "OpPhi must come before all other instructions of its block");
      if (inst->operand_count % 2 != 0)
         return spirv_fail(p, "OpPhi operands must be (value, parent) pairs");
      b->phi_count++;
   } else if (!is_debug_line) {
      p->block_has_non_phi = true;
   }
   if (op == SPIRV_OP_Variable) {
      /* Spec 2.4 item 11: function variables are the first instructions of
       * the first block. */
      if (p->entry_block_past_variables)
         return spirv_fail(p, "function-scope OpVariable must be at the start of the entry block");
      return spirv_parse_variable(p, inst, p->function);
   }
   if (!is_debug_line)
      p->entry_block_past_variables = true;
   if (op == SPIRV_OP_SelectionMerge || op == SPIRV_OP_LoopMerge)
      return record_merge(p, inst);
   if (spirv_is_block_terminator(op)) {
      b->terminator = p->inst_index;
      p->function_state = SPIRV_BETWEEN_BLOCKS;
   }
   return true;
}

bool spirv_parse_function_inst(struct spirv_parser *p, struct spirv_inst *inst)
{
   switch (inst->opcode) {
   case SPIRV_OP_Function:
      return begin_function(p, inst);
   case SPIRV_OP_FunctionParameter:
      return add_parameter(p, inst);
   case SPIRV_OP_Label:
      if (p->function_state == SPIRV_OUTSIDE_FUNCTION)
         return spirv_fail(p, "OpLabel outside a function");
      return begin_block(p, inst);
   case SPIRV_OP_FunctionEnd:
      if (p->function_state == SPIRV_OUTSIDE_FUNCTION)
         return spirv_fail(p, "OpFunctionEnd outside a function");
      return end_function(p);
   default:
      break;
   }
   switch (p->function_state) {
   case SPIRV_OUTSIDE_FUNCTION:
      return spirv_fail(p, "instruction outside a function (wrong module section)");
   case SPIRV_IN_FUNCTION_HEADER:
      return spirv_fail(p, "instruction before the function's first OpLabel");
   case SPIRV_BETWEEN_BLOCKS:
      if (inst->opcode == SPIRV_OP_Line || inst->opcode == SPIRV_OP_NoLine)
         return true;
      return spirv_fail(p,
                        "instruction after block %%%u's terminator and before the next "
                        "OpLabel",
                        p->module->blocks[p->block].label_id);
   default:
      return block_instruction(p, inst);
   }
}

bool spirv_check_functions_ended(struct spirv_parser *p)
{
   struct spirv_module *m = p->module;
   if (p->function_state == SPIRV_OUTSIDE_FUNCTION)
      return true;
   const struct spirv_function *f = &m->functions[p->function];
   if (p->function_state == SPIRV_IN_BLOCK) {
      return spirv_fail_at(p->error, m, m->blocks[p->block].first_inst,
                           "block %%%u is not terminated and the module ends",
                           m->blocks[p->block].label_id);
   }
   return spirv_fail_at(p->error, m, f->first_inst, "function %%%u is not ended with OpFunctionEnd",
                        f->id);
}
