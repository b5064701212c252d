/* Annotations (SPIR-V spec 3.42.5): OpDecorate, OpMemberDecorate,
 * OpDecorateId, OpDecorateString and OpMemberDecorateString. Each id keeps a
 * list of its decorations in module order so that queries are cheap.
 *
 * Decoration groups (OpDecorationGroup/OpGroupDecorate) are deprecated since
 * SPIR-V 1.5 and not emitted by glslang; we reject them rather than expand
 * them, which could multiply the decoration count beyond the input size. */
#include "spirv_internal.h"

bool spirv_parse_annotation(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   const bool is_member =
       inst->opcode == SPIRV_OP_MemberDecorate || inst->opcode == SPIRV_OP_MemberDecorateString;
   if (inst->opcode == SPIRV_OP_DecorationGroup || inst->opcode == SPIRV_OP_GroupDecorate ||
       inst->opcode == SPIRV_OP_GroupMemberDecorate)
      return spirv_fail(p, "decoration groups are not supported (deprecated in SPIR-V 1.5)");
   const uint32_t first_after_target = is_member ? 2 : 1;
   struct spirv_decoration *d = &m->decorations[m->decoration_count];
   d->target = spirv_operand_word_at(m, inst, 0);
   d->member = is_member ? spirv_operand_word_at(m, inst, 1) : SPIRV_NO_MEMBER;
   d->decoration = spirv_operand_word_at(m, inst, first_after_target);
   d->inst = p->inst_index;
   d->operand_first = inst->operand_first + first_after_target + 1;
   d->operand_count = inst->operand_count - first_after_target - 1;
   d->next = SPIRV_NO_INDEX;

   /* Spec 3.42.5: OpDecorateId is for decorations taking ids, OpDecorate
    * for those taking literals; the String forms for those taking strings. */
   const struct spirv_enumerant_info *info =
       spirv_enumerant_info(SPIRV_OPERAND_Decoration, d->decoration);
   const uint32_t first_kind =
       info->parameter_count ? info->parameters[0].kind : SPIRV_OPERAND_LiteralInteger;
   const bool wants_ids = first_kind == SPIRV_OPERAND_IdRef || first_kind == SPIRV_OPERAND_IdScope;
   const bool wants_strings = first_kind == SPIRV_OPERAND_LiteralString;
   if (wants_ids != (inst->opcode == SPIRV_OP_DecorateId)) {
      return spirv_fail(p, "decoration %s %s OpDecorateId", info->name,
                        wants_ids ? "takes ids and must use" : "must not use");
   }
   if (wants_strings && inst->opcode != SPIRV_OP_DecorateString &&
       inst->opcode != SPIRV_OP_MemberDecorateString)
      return spirv_fail(p, "decoration %s takes a string and must use OpDecorateString",
                        info->name);

   struct spirv_id_entry *target = &m->ids[d->target];
   if (target->last_decoration == SPIRV_NO_INDEX)
      target->first_decoration = m->decoration_count;
   else
      m->decorations[target->last_decoration].next = m->decoration_count;
   target->last_decoration = m->decoration_count++;
   return true;
}

/* Run once all ids are known: targets are defined, member indices are in
 * range of their struct, and a few decorations have the operand values the
 * spec requires. */
bool spirv_check_decorations(struct spirv_error *error, struct spirv_module *m)
{
   for (uint32_t i = 0; i < m->decoration_count; i++) {
      const struct spirv_decoration *d = &m->decorations[i];
      if (d->member != SPIRV_NO_MEMBER) {
         const struct spirv_type *t = spirv_type(m, d->target);
         if (!t || t->kind != SPIRV_TYPE_STRUCT) {
            return spirv_fail_at(error, m, d->inst,
                                 "member decoration target %%%u is not a "
                                 "struct type",
                                 d->target);
         }
         if (d->member >= t->u.structure.member_count) {
            return spirv_fail_at(error, m, d->inst,
                                 "member %u is out of range: struct %%%u has "
                                 "%u members",
                                 d->member, d->target, t->u.structure.member_count);
         }
      }
      if (d->decoration == SPIRV_DECORATION_ArrayStride) {
         const struct spirv_type *t = spirv_type(m, d->target);
         if (!t || (t->kind != SPIRV_TYPE_ARRAY && t->kind != SPIRV_TYPE_RUNTIME_ARRAY &&
                    t->kind != SPIRV_TYPE_POINTER)) {
            return spirv_fail_at(error, m, d->inst,
                                 "ArrayStride decorates %%%u, which is not "
                                 "an array or pointer type",
                                 d->target);
         }
         if (m->words[m->operands[d->operand_first].word_offset] == 0)
            return spirv_fail_at(error, m, d->inst, "ArrayStride must not be 0");
      }
      if ((d->decoration == SPIRV_DECORATION_Block ||
           d->decoration == SPIRV_DECORATION_BufferBlock) &&
          (!spirv_type(m, d->target) || spirv_type(m, d->target)->kind != SPIRV_TYPE_STRUCT)) {
         return spirv_fail_at(error, m, d->inst, "%s decorates %%%u, which is not a struct type",
                              spirv_enumerant_name(SPIRV_OPERAND_Decoration, d->decoration),
                              d->target);
      }
   }
   return true;
}

const struct spirv_decoration *spirv_first_decoration(const struct spirv_module *m, uint32_t id)
{
   if (id >= m->bound || m->ids[id].first_decoration == SPIRV_NO_INDEX)
      return NULL;
   return &m->decorations[m->ids[id].first_decoration];
}

const struct spirv_decoration *spirv_next_decoration(const struct spirv_module *m,
                                                     const struct spirv_decoration *d)
{
   return d->next == SPIRV_NO_INDEX ? NULL : &m->decorations[d->next];
}

const struct spirv_decoration *spirv_find_decoration(const struct spirv_module *m, uint32_t id,
                                                     uint32_t member, uint32_t decoration)
{
   for (const struct spirv_decoration *d = spirv_first_decoration(m, id); d;
        d = spirv_next_decoration(m, d)) {
      if (d->member == member && d->decoration == decoration)
         return d;
   }
   return NULL;
}

bool spirv_has_decoration(const struct spirv_module *m, uint32_t id, uint32_t member,
                          uint32_t decoration)
{
   return spirv_find_decoration(m, id, member, decoration) != NULL;
}

bool spirv_decoration_literal(const struct spirv_module *m, uint32_t id, uint32_t member,
                              uint32_t decoration, uint32_t *value)
{
   const struct spirv_decoration *d = spirv_find_decoration(m, id, member, decoration);
   if (!d || d->operand_count == 0)
      return false;
   *value = m->words[m->operands[d->operand_first].word_offset];
   return true;
}
