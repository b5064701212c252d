/* Error values of the SPIR-V front end. Every message names the word offset
 * and, when there is one, the opcode, so that a user can find the spot with
 * `spirv-dis --offsets` or a hex dump. */
#include <stdarg.h>
#include <stdio.h>

#include "spirv_internal.h"

const char *spirv_opcode_name(uint32_t opcode)
{
   const struct spirv_opcode_info *info = spirv_opcode_info(opcode);
   return info ? info->name : "unknown opcode";
}

static bool format_error(struct spirv_error *error, uint32_t word_offset, uint32_t opcode,
                         const char *fmt, va_list args)
{
   if (!error)
      return false;
   error->word_offset = word_offset;
   error->opcode = opcode;
   int prefix;
   if (opcode == SPIRV_ERROR_NO_OPCODE) {
      prefix = snprintf(error->message, sizeof(error->message), "spirv: word %u: ", word_offset);
   } else {
      prefix = snprintf(error->message, sizeof(error->message),
                        "spirv: word %u (%s): ", word_offset, spirv_opcode_name(opcode));
   }
   if (prefix < 0 || (size_t)prefix >= sizeof(error->message))
      return false;
   vsnprintf(error->message + prefix, sizeof(error->message) - (size_t)prefix, fmt, args);
   return false;
}

bool spirv_fail(struct spirv_parser *parser, const char *fmt, ...)
{
   const struct spirv_inst *inst = &parser->module->insts[parser->inst_index];
   va_list args;
   va_start(args, fmt);
   format_error(parser->error, inst->word_offset, inst->opcode, fmt, args);
   va_end(args);
   return false;
}

bool spirv_fail_at(struct spirv_error *error, const struct spirv_module *module, uint32_t inst,
                   const char *fmt, ...)
{
   va_list args;
   va_start(args, fmt);
   if (inst < module->inst_count) {
      format_error(error, module->insts[inst].word_offset, module->insts[inst].opcode, fmt, args);
   } else {
      format_error(error, module->word_count, SPIRV_ERROR_NO_OPCODE, fmt, args);
   }
   va_end(args);
   return false;
}

bool spirv_fail_word(struct spirv_error *error, uint32_t word_offset, const char *fmt, ...)
{
   va_list args;
   va_start(args, fmt);
   format_error(error, word_offset, SPIRV_ERROR_NO_OPCODE, fmt, args);
   va_end(args);
   return false;
}

bool spirv_fail_raw(struct spirv_error *error, uint32_t word_offset, uint32_t opcode,
                    const char *fmt, ...)
{
   va_list args;
   va_start(args, fmt);
   format_error(error, word_offset, opcode, fmt, args);
   va_end(args);
   return false;
}
