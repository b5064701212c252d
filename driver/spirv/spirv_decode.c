/* Operand decoding driven by the generated grammar tables.
 *
 * SPIR-V spec 2.3 "Physical Layout of a SPIR-V Module and Instruction": an
 * instruction is a word holding (word count << 16 | opcode) followed by its
 * operands. The grammar lists each opcode's operand kinds with quantifiers
 * ('?' optional, '*' any number); enumerants may carry further operands of
 * their own (e.g. Decoration SpecId takes a literal), and bit-enum masks carry
 * the operands of each set bit in increasing bit order (spec 2.2.2, "Operand
 * parameters"). Everything read is bounded by the instruction's word count.
 */
#include <string.h>

#include "spirv_internal.h"

struct decode_cursor {
   struct spirv_parser *parser;
   struct spirv_inst *inst;
   uint32_t pos;     /* next word to read */
   uint32_t end;     /* one past the instruction's last word */
   uint32_t ordinal; /* 1-based operand number, for messages */
};

static bool decode_kind(struct decode_cursor *c, uint32_t kind);

static bool push_operand(struct decode_cursor *c, uint32_t kind, uint32_t word_count,
                         uint32_t string_offset)
{
   struct spirv_module *m = c->parser->module;
   /* Cannot overflow: every operand consumes at least one word and the
    * capacity is the module's word count. Checked anyway. */
   if (m->operand_count >= m->operand_capacity)
      return spirv_fail(c->parser, "too many operands");
   struct spirv_operand *op = &m->operands[m->operand_count++];
   op->kind = (uint8_t)kind;
   op->word_count = (uint16_t)word_count;
   op->word_offset = c->pos;
   op->string_offset = string_offset;
   c->inst->operand_count++;
   c->pos += word_count;
   return true;
}

static bool check_id(struct decode_cursor *c, uint32_t id)
{
   if (id == 0)
      return spirv_fail(c->parser, "operand %u: id 0 is not a valid id", c->ordinal);
   if (id >= c->parser->module->bound) {
      return spirv_fail(c->parser, "operand %u: id %%%u is out of bound (bound is %u)", c->ordinal,
                        id, c->parser->module->bound);
   }
   return true;
}

/* Literal strings: UTF-8 octets packed four per word, lowest-order byte
 * first, ending with a NUL and padded with NULs to a word (spec 2.2.1). */
static bool decode_string(struct decode_cursor *c)
{
   struct spirv_module *m = c->parser->module;
   const uint32_t start_offset = m->string_size;
   for (uint32_t w = c->pos; w < c->end; w++) {
      for (uint32_t byte = 0; byte < 4; byte++) {
         char ch = (char)((m->words[w] >> (8 * byte)) & 0xffu);
         /* Capacity is 4 bytes per module word plus one, so this holds. */
         if (m->string_size >= m->string_capacity)
            return spirv_fail(c->parser, "string pool overflow");
         m->strings[m->string_size++] = ch;
         if (ch == '\0')
            return push_operand(c, SPIRV_OPERAND_LiteralString, w - c->pos + 1, start_offset);
      }
   }
   return spirv_fail(c->parser,
                     "operand %u: literal string is not NUL-terminated within the "
                     "instruction",
                     c->ordinal);
}

static bool decode_parameters(struct decode_cursor *c, const struct spirv_operand_desc *params,
                              uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      if (params[i].quantifier == SPIRV_QUANTIFIER_ONE) {
         if (c->pos >= c->end) {
            return spirv_fail(c->parser, "operand %u (%s) is missing: instruction has %u words",
                              c->ordinal + 1, spirv_kind_info(params[i].kind)->name,
                              c->inst->word_count);
         }
         if (!decode_kind(c, params[i].kind))
            return false;
      } else if (params[i].quantifier == SPIRV_QUANTIFIER_OPTIONAL) {
         if (c->pos < c->end && !decode_kind(c, params[i].kind))
            return false;
      } else {
         while (c->pos < c->end) {
            if (!decode_kind(c, params[i].kind))
               return false;
         }
      }
   }
   return true;
}

static bool decode_value_enum(struct decode_cursor *c, uint32_t kind)
{
   const uint32_t value = c->parser->module->words[c->pos];
   const struct spirv_enumerant_info *e = spirv_enumerant_info(kind, value);
   if (!e) {
      return spirv_fail(c->parser, "operand %u: %u is not a valid %s", c->ordinal, value,
                        spirv_kind_info(kind)->name);
   }
   return push_operand(c, kind, 1, 0) && decode_parameters(c, e->parameters, e->parameter_count);
}

static bool decode_bit_enum(struct decode_cursor *c, uint32_t kind)
{
   const uint32_t mask = c->parser->module->words[c->pos];
   if (!push_operand(c, kind, 1, 0))
      return false;
   for (uint32_t bit = 0; bit < 32; bit++) {
      const uint32_t flag = 1u << bit;
      if (!(mask & flag))
         continue;
      const struct spirv_enumerant_info *e = spirv_enumerant_info(kind, flag);
      if (!e) {
         return spirv_fail(c->parser, "operand %u: bit 0x%x is not a valid %s flag", c->ordinal,
                           flag, spirv_kind_info(kind)->name);
      }
      if (!decode_parameters(c, e->parameters, e->parameter_count))
         return false;
   }
   return true;
}

/* Number of words of an OpSwitch case literal: the selector's width (spec
 * 3.42.17 OpSwitch: "literal ... the same width as Selector's type"). */
static bool switch_literal_words(struct decode_cursor *c, uint32_t *words)
{
   struct spirv_module *m = c->parser->module;
   const struct spirv_inst *inst = c->inst;
   const uint32_t selector = m->words[m->operands[inst->operand_first].word_offset];
   const uint32_t type = m->ids[selector].type_id;
   if (m->ids[selector].def_inst == SPIRV_NO_INDEX || !spirv_type_is_int(m, type)) {
      return spirv_fail(c->parser,
                        "selector %%%u must be an integer scalar defined before the "
                        "OpSwitch",
                        selector);
   }
   *words = spirv_type_scalar_width(m, type) == 64 ? 2 : 1;
   return true;
}

static bool decode_kind(struct decode_cursor *c, uint32_t kind)
{
   struct spirv_module *m = c->parser->module;
   const struct spirv_kind_info *info = spirv_kind_info(kind);
   c->ordinal++;
   switch (info->category) {
   case SPIRV_KIND_CATEGORY_ID:
      return check_id(c, m->words[c->pos]) && push_operand(c, kind, 1, 0);
   case SPIRV_KIND_CATEGORY_VALUE_ENUM:
      return decode_value_enum(c, kind);
   case SPIRV_KIND_CATEGORY_BIT_ENUM:
      return decode_bit_enum(c, kind);
   case SPIRV_KIND_CATEGORY_COMPOSITE:
      for (uint32_t i = 0; i < info->base_count; i++) {
         if (c->pos >= c->end) {
            return spirv_fail(c->parser, "operand %u (%s) is incomplete", c->ordinal, info->name);
         }
         if (info->bases[i] == SPIRV_OPERAND_LiteralInteger && c->inst->opcode == SPIRV_OP_Switch) {
            uint32_t words = 1;
            if (!switch_literal_words(c, &words))
               return false;
            if (c->end - c->pos < words)
               return spirv_fail(c->parser, "operand %u: case literal is truncated", c->ordinal);
            if (!push_operand(c, SPIRV_OPERAND_LiteralContextDependentNumber, words, 0))
               return false;
            continue;
         }
         if (!decode_kind(c, info->bases[i]))
            return false;
      }
      return true;
   case SPIRV_KIND_CATEGORY_LITERAL:
   default:
      break;
   }
   switch (kind) {
   case SPIRV_OPERAND_LiteralString:
      return decode_string(c);
   case SPIRV_OPERAND_LiteralContextDependentNumber:
      /* OpConstant/OpSpecConstant: the value takes the rest of the
       * instruction; its width is checked against the result type later. */
      return push_operand(c, kind, c->end - c->pos, 0);
   case SPIRV_OPERAND_LiteralSpecConstantOpInteger: {
      const uint32_t opcode = m->words[c->pos];
      const struct spirv_opcode_info *op = spirv_opcode_info(opcode);
      if (!op)
         return spirv_fail(c->parser, "operand %u: unknown opcode %u", c->ordinal, opcode);
      if (!push_operand(c, kind, 1, 0))
         return false;
      /* The remaining operands are those of the named opcode, without its
       * result type and id (spec 3.42.7 OpSpecConstantOp). */
      for (uint32_t i = 0; i < op->operand_count; i++) {
         const uint32_t k = op->operands[i].kind;
         if (k == SPIRV_OPERAND_IdResultType || k == SPIRV_OPERAND_IdResult)
            continue;
         if (!decode_parameters(c, &op->operands[i], 1))
            return false;
      }
      return true;
   }
   default:
      return push_operand(c, kind, 1, 0);
   }
}

bool spirv_decode_operands(struct spirv_parser *parser, struct spirv_inst *inst,
                           const struct spirv_opcode_info *info)
{
   struct spirv_module *m = parser->module;
   struct decode_cursor c = {
       .parser = parser,
       .inst = inst,
       .pos = inst->word_offset + 1,
       .end = inst->word_offset + inst->word_count,
   };
   inst->operand_first = m->operand_count;
   inst->operand_count = 0;
   for (uint32_t i = 0; i < info->operand_count; i++) {
      const struct spirv_operand_desc *desc = &info->operands[i];
      if (desc->kind == SPIRV_OPERAND_IdResultType || desc->kind == SPIRV_OPERAND_IdResult) {
         c.ordinal++;
         if (c.pos >= c.end) {
            return spirv_fail(parser, "%s is missing: instruction has %u words",
                              desc->kind == SPIRV_OPERAND_IdResult ? "result id" : "result type",
                              inst->word_count);
         }
         if (!check_id(&c, m->words[c.pos]))
            return false;
         if (desc->kind == SPIRV_OPERAND_IdResult)
            inst->result_id = m->words[c.pos];
         else
            inst->result_type = m->words[c.pos];
         c.pos++;
         continue;
      }
      if (!decode_parameters(&c, desc, 1))
         return false;
   }
   if (c.pos != c.end) {
      return spirv_fail(parser, "instruction has %u words but its operands end after %u",
                        inst->word_count, c.pos - inst->word_offset);
   }
   return true;
}
