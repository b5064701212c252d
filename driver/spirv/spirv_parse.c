/* Module-level parsing: the header, the walk over all instructions with the
 * logical-layout check (SPIR-V spec 2.4), id definitions, and the mode-setting
 * and debug sections. Types, constants, annotations and function bodies are
 * handed to their own files. */
#include <stdlib.h>
#include <string.h>

#include "spirv_internal.h"
#include "spirv_support.h"

/* Rejects absurd inputs before allocating anything proportional to them:
 * 64 Mi words is 256 MiB of SPIR-V, far beyond any real shader. */
#define SPIRV_MAX_MODULE_WORDS (1u << 26)
#define SPIRV_HEADER_WORDS 5

/* The section an opcode belongs to; -1 for instructions allowed in several
 * sections (OpNop, OpLine, OpNoLine, OpExtInst, OpVariable, OpUndef), which
 * the callers place by context. */
static int opcode_section(uint32_t opcode)
{
   switch (opcode) {
   case SPIRV_OP_Capability:
      return SPIRV_SECTION_CAPABILITY;
   case SPIRV_OP_Extension:
      return SPIRV_SECTION_EXTENSION;
   case SPIRV_OP_ExtInstImport:
      return SPIRV_SECTION_EXT_INST_IMPORT;
   case SPIRV_OP_MemoryModel:
      return SPIRV_SECTION_MEMORY_MODEL;
   case SPIRV_OP_EntryPoint:
      return SPIRV_SECTION_ENTRY_POINT;
   case SPIRV_OP_ExecutionMode:
   case SPIRV_OP_ExecutionModeId:
      return SPIRV_SECTION_EXECUTION_MODE;
   case SPIRV_OP_String:
   case SPIRV_OP_SourceExtension:
   case SPIRV_OP_Source:
   case SPIRV_OP_SourceContinued:
      return SPIRV_SECTION_DEBUG_SOURCE;
   case SPIRV_OP_Name:
   case SPIRV_OP_MemberName:
      return SPIRV_SECTION_DEBUG_NAME;
   case SPIRV_OP_ModuleProcessed:
      return SPIRV_SECTION_DEBUG_MODULE_PROCESSED;
   case SPIRV_OP_Decorate:
   case SPIRV_OP_MemberDecorate:
   case SPIRV_OP_DecorateId:
   case SPIRV_OP_DecorateString:
   case SPIRV_OP_MemberDecorateString:
   case SPIRV_OP_DecorationGroup:
   case SPIRV_OP_GroupDecorate:
   case SPIRV_OP_GroupMemberDecorate:
      return SPIRV_SECTION_ANNOTATION;
   case SPIRV_OP_Nop:
   case SPIRV_OP_Line:
   case SPIRV_OP_NoLine:
   case SPIRV_OP_ExtInst:
   case SPIRV_OP_Variable:
   case SPIRV_OP_Undef:
      return -1;
   default:
      if (spirv_is_type_opcode(opcode) || spirv_is_constant_opcode(opcode))
         return SPIRV_SECTION_GLOBAL;
      return SPIRV_SECTION_FUNCTION;
   }
}

static const char *const section_names[] = {
    [SPIRV_SECTION_CAPABILITY] = "capabilities",
    [SPIRV_SECTION_EXTENSION] = "extensions",
    [SPIRV_SECTION_EXT_INST_IMPORT] = "extended instruction set imports",
    [SPIRV_SECTION_MEMORY_MODEL] = "memory model",
    [SPIRV_SECTION_ENTRY_POINT] = "entry points",
    [SPIRV_SECTION_EXECUTION_MODE] = "execution modes",
    [SPIRV_SECTION_DEBUG_SOURCE] = "debug source",
    [SPIRV_SECTION_DEBUG_NAME] = "debug names",
    [SPIRV_SECTION_DEBUG_MODULE_PROCESSED] = "OpModuleProcessed",
    [SPIRV_SECTION_ANNOTATION] = "annotations",
    [SPIRV_SECTION_GLOBAL] = "types, constants and global variables",
    [SPIRV_SECTION_FUNCTION] = "functions",
};

static bool enter_section(struct spirv_parser *p, enum spirv_section section)
{
   if (section < p->section) {
      return spirv_fail(p,
                        "belongs to the %s section, which must come before the %s section "
                        "(spec 2.4 Logical Layout)",
                        section_names[section], section_names[p->section]);
   }
   if (section > SPIRV_SECTION_MEMORY_MODEL && !p->module->has_memory_model)
      return spirv_fail(p, "the module has no OpMemoryModel before this instruction");
   p->section = section;
   return true;
}

static const char *inst_string(const struct spirv_module *m, const struct spirv_inst *inst,
                               uint32_t i)
{
   return m->strings + m->operands[inst->operand_first + i].string_offset;
}

static bool parse_entry_point(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   struct spirv_entry_point *ep = &m->entry_points[m->entry_point_count];
   memset(ep, 0, sizeof(*ep));
   ep->execution_model = spirv_operand_word_at(m, inst, 0);
   ep->function_id = spirv_operand_word_at(m, inst, 1);
   ep->name = inst_string(m, inst, 2);
   ep->interface_first = inst->operand_first + 3;
   ep->interface_count = inst->operand_count - 3;
   ep->inst = p->inst_index;
   if (!spirv_execution_model_supported(ep->execution_model)) {
      return spirv_fail(p, "execution model %s is not supported",
                        spirv_enumerant_name(SPIRV_OPERAND_ExecutionModel, ep->execution_model));
   }
   /* Spec 2.16.1: no two entry points share a name and execution model. */
   for (uint32_t i = 0; i < m->entry_point_count; i++) {
      if (m->entry_points[i].execution_model == ep->execution_model &&
          strcmp(m->entry_points[i].name, ep->name) == 0)
         return spirv_fail(p, "entry point \"%s\" is declared twice", ep->name);
   }
   m->entry_point_count++;
   return true;
}

static bool parse_execution_mode(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   const uint32_t function_id = spirv_operand_word_at(m, inst, 0);
   const uint32_t mode = spirv_operand_word_at(m, inst, 1);
   const struct spirv_enumerant_info *info =
       spirv_enumerant_info(SPIRV_OPERAND_ExecutionMode, mode);
   const bool takes_ids =
       info->parameter_count > 0 && info->parameters[0].kind == SPIRV_OPERAND_IdRef;
   const bool is_id_form = inst->opcode == SPIRV_OP_ExecutionModeId;
   /* Spec 3.42.6: OpExecutionModeId is for modes whose operands are ids. */
   if (takes_ids != is_id_form) {
      return spirv_fail(p, "execution mode %s %s", info->name,
                        takes_ids ? "takes ids and must use OpExecutionModeId"
                                  : "takes literals and must use OpExecutionMode");
   }
   bool found = false;
   for (uint32_t i = 0; i < m->entry_point_count; i++) {
      struct spirv_entry_point *ep = &m->entry_points[i];
      if (ep->function_id != function_id)
         continue;
      found = true;
      if (mode == SPIRV_EXECUTION_MODE_LocalSize || mode == SPIRV_EXECUTION_MODE_LocalSizeId) {
         ep->has_local_size = true;
         ep->local_size_is_id = is_id_form;
         for (uint32_t d = 0; d < 3; d++)
            ep->local_size[d] = spirv_operand_word_at(m, inst, 2 + d);
      }
   }
   if (!found)
      return spirv_fail(p, "%%%u is not an entry point", function_id);
   struct spirv_execution_mode *em = &m->modes[m->mode_count++];
   em->mode = mode;
   em->function_id = function_id;
   em->inst = p->inst_index;
   em->operands_are_ids = is_id_form;
   return true;
}

static bool parse_name(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   const uint32_t target = spirv_operand_word_at(m, inst, 0);
   struct spirv_name *name = &m->names[m->name_count];
   if (inst->opcode == SPIRV_OP_MemberName) {
      name->member = spirv_operand_word_at(m, inst, 1);
      name->string_offset = m->operands[inst->operand_first + 2].string_offset;
   } else {
      name->member = SPIRV_NO_MEMBER;
      name->string_offset = m->operands[inst->operand_first + 1].string_offset;
   }
   name->next = m->ids[target].first_name;
   m->ids[target].first_name = m->name_count++;
   return true;
}

static bool parse_mode_setting_or_debug(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   switch (inst->opcode) {
   case SPIRV_OP_Capability: {
      const uint32_t cap = spirv_operand_word_at(m, inst, 0);
      if (!spirv_capability_supported(cap)) {
         return spirv_fail(p, "capability %s is not supported",
                           spirv_enumerant_name(SPIRV_OPERAND_Capability, cap));
      }
      m->capabilities[m->capability_count++] = cap;
      return true;
   }
   case SPIRV_OP_Extension: {
      const char *name = inst_string(m, inst, 0);
      if (!spirv_extension_supported(name))
         return spirv_fail(p, "extension \"%s\" is not supported", name);
      m->extensions[m->extension_count++] = m->operands[inst->operand_first].string_offset;
      return true;
   }
   case SPIRV_OP_ExtInstImport: {
      const char *name = inst_string(m, inst, 0);
      struct spirv_id_entry *id = &m->ids[inst->result_id];
      id->id_class = SPIRV_ID_EXT_INST_SET;
      if (strcmp(name, "GLSL.std.450") == 0)
         id->index = SPIRV_EXT_INST_SET_GLSL_STD_450;
      else if (strncmp(name, "NonSemantic.", 12) == 0)
         id->index = SPIRV_EXT_INST_SET_NON_SEMANTIC;
      else
         return spirv_fail(p, "extended instruction set \"%s\" is not supported", name);
      return true;
   }
   case SPIRV_OP_MemoryModel:
      if (m->has_memory_model)
         return spirv_fail(p, "the module has more than one OpMemoryModel");
      m->has_memory_model = true;
      m->addressing_model = spirv_operand_word_at(m, inst, 0);
      m->memory_model = spirv_operand_word_at(m, inst, 1);
      if (m->memory_model == SPIRV_MEMORY_MODEL_OpenCL) {
         return spirv_fail(p, "memory model OpenCL is not supported (Vulkan allows GLSL450 "
                              "and Vulkan)");
      }
      return true;
   case SPIRV_OP_EntryPoint:
      return parse_entry_point(p, inst);
   case SPIRV_OP_ExecutionMode:
   case SPIRV_OP_ExecutionModeId:
      return parse_execution_mode(p, inst);
   case SPIRV_OP_String:
      m->ids[inst->result_id].id_class = SPIRV_ID_STRING;
      return true;
   case SPIRV_OP_Name:
   case SPIRV_OP_MemberName:
      return parse_name(p, inst);
   default:
      return true;
   }
}

static bool define_result(struct spirv_parser *p, const struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   if (inst->result_type != SPIRV_NO_ID &&
       spirv_id_of_class(m, inst->result_type, SPIRV_ID_TYPE) == NULL) {
      return spirv_fail(p, "result type %%%u is not a type declared before this instruction",
                        inst->result_type);
   }
   if (inst->result_id == SPIRV_NO_ID)
      return true;
   struct spirv_id_entry *id = &m->ids[inst->result_id];
   if (id->def_inst != SPIRV_NO_INDEX) {
      return spirv_fail(p, "id %%%u is defined twice (first at word %u)", inst->result_id,
                        m->insts[id->def_inst].word_offset);
   }
   id->def_inst = p->inst_index;
   id->type_id = inst->result_type;
   id->id_class = SPIRV_ID_VALUE;
   return true;
}

static bool parse_instruction(struct spirv_parser *p, struct spirv_inst *inst)
{
   struct spirv_module *m = p->module;
   const struct spirv_opcode_info *info = spirv_opcode_info(inst->opcode);
   if (!info)
      return spirv_fail(p, "opcode %u is not a SPIR-V instruction", inst->opcode);
   if (!spirv_decode_operands(p, inst, info) || !define_result(p, inst))
      return false;

   const int section = opcode_section(inst->opcode);
   const bool in_function = p->function_state != SPIRV_OUTSIDE_FUNCTION;
   if (section == SPIRV_SECTION_FUNCTION || (section < 0 && in_function)) {
      if (!enter_section(p, SPIRV_SECTION_FUNCTION))
         return false;
      return spirv_parse_function_inst(p, inst) && spirv_check_instruction_types(p, inst);
   }
   if (section >= 0 && !enter_section(p, (enum spirv_section)section))
      return false;
   switch (inst->opcode) {
   case SPIRV_OP_Nop:
   case SPIRV_OP_Line:
   case SPIRV_OP_NoLine:
      return true;
   case SPIRV_OP_ExtInst:
      /* Outside functions only non-semantic instructions may appear
       * (SPV_KHR_non_semantic_info). */
      if (!enter_section(p, SPIRV_SECTION_GLOBAL))
         return false;
      if (spirv_ext_inst_set_kind(m, spirv_operand_word_at(m, inst, 0)) !=
              SPIRV_EXT_INST_SET_NON_SEMANTIC ||
          spirv_id_class(m, spirv_operand_word_at(m, inst, 0)) != SPIRV_ID_EXT_INST_SET)
         return spirv_fail(p, "only non-semantic OpExtInst may appear outside a function");
      return true;
   case SPIRV_OP_Variable:
      return enter_section(p, SPIRV_SECTION_GLOBAL) &&
             spirv_parse_variable(p, inst, SPIRV_NO_INDEX);
   case SPIRV_OP_Undef:
      return enter_section(p, SPIRV_SECTION_GLOBAL) && spirv_parse_constant(p, inst);
   default:
      break;
   }
   if (section == SPIRV_SECTION_ANNOTATION)
      return spirv_parse_annotation(p, inst);
   if (section == SPIRV_SECTION_GLOBAL) {
      if (spirv_is_type_opcode(inst->opcode))
         return spirv_parse_type(p, inst);
      return spirv_parse_constant(p, inst);
   }
   return parse_mode_setting_or_debug(p, inst);
}

/* Counts instructions and checks that their word counts tile the module
 * exactly (spec 2.3), so that the arrays below can be sized once. */
static bool count_instructions(const uint32_t *words, uint32_t word_count,
                               struct spirv_module_counts *counts, struct spirv_error *error)
{
   memset(counts, 0, sizeof(*counts));
   uint32_t pos = SPIRV_HEADER_WORDS;
   while (pos < word_count) {
      const uint32_t inst_words = words[pos] >> 16;
      const uint32_t opcode = words[pos] & 0xffffu;
      if (inst_words == 0) {
         return spirv_fail_raw(error, pos, opcode, "instruction has a word count of 0");
      }
      if (inst_words > word_count - pos) {
         return spirv_fail_raw(error, pos, opcode,
                               "instruction has %u words but the module ends after %u "
                               "(truncated module?)",
                               inst_words, word_count - pos);
      }
      spirv_count_opcode(counts, opcode);
      counts->insts++;
      pos += inst_words;
   }
   return true;
}

static void *alloc_array(uint32_t count, size_t size)
{
   return calloc(count ? count : 1, size);
}

static bool allocate_module(struct spirv_module *m, const struct spirv_module_counts *n)
{
   m->insts = alloc_array(n->insts, sizeof(*m->insts));
   m->operand_capacity = m->word_count;
   m->operands = alloc_array(m->operand_capacity, sizeof(*m->operands));
   m->string_capacity = 4 * m->word_count + 1;
   m->strings = alloc_array(m->string_capacity, 1);
   m->ids = alloc_array(m->bound, sizeof(*m->ids));
   m->capabilities = alloc_array(n->capabilities, sizeof(*m->capabilities));
   m->extensions = alloc_array(n->extensions, sizeof(*m->extensions));
   m->types = alloc_array(n->types, sizeof(*m->types));
   m->constants = alloc_array(n->constants, sizeof(*m->constants));
   m->variables = alloc_array(n->variables, sizeof(*m->variables));
   m->functions = alloc_array(n->functions, sizeof(*m->functions));
   m->blocks = alloc_array(n->blocks, sizeof(*m->blocks));
   m->entry_points = alloc_array(n->entry_points, sizeof(*m->entry_points));
   m->modes = alloc_array(n->modes, sizeof(*m->modes));
   m->decorations = alloc_array(n->decorations, sizeof(*m->decorations));
   m->names = alloc_array(n->names, sizeof(*m->names));
   if (!m->insts || !m->operands || !m->strings || !m->ids || !m->capabilities || !m->extensions ||
       !m->types || !m->constants || !m->variables || !m->functions || !m->blocks ||
       !m->entry_points || !m->modes || !m->decorations || !m->names)
      return false;
   for (uint32_t i = 0; i < m->bound; i++) {
      m->ids[i].def_inst = SPIRV_NO_INDEX;
      m->ids[i].first_decoration = SPIRV_NO_INDEX;
      m->ids[i].last_decoration = SPIRV_NO_INDEX;
      m->ids[i].first_name = SPIRV_NO_INDEX;
   }
   return true;
}

static bool check_header(const uint32_t *words, size_t word_count, struct spirv_error *error)
{
   if (!words || word_count < SPIRV_HEADER_WORDS) {
      return spirv_fail_word(error, 0,
                             "module is %zu words long, shorter than the %u-word "
                             "header (truncated module?)",
                             words ? word_count : 0, SPIRV_HEADER_WORDS);
   }
   if (word_count > SPIRV_MAX_MODULE_WORDS) {
      return spirv_fail_word(error, 0, "module is %zu words long, more than the %u we accept",
                             word_count, SPIRV_MAX_MODULE_WORDS);
   }
   /* Spec 2.3: magic 0x07230203; the byte-reversed value means the module
    * was written with the other endianness. */
   if (words[0] == __builtin_bswap32(SPIRV_MAGIC_NUMBER)) {
      return spirv_fail_word(error, 0,
                             "bad magic 0x%08x: the module is byte-swapped (other "
                             "endianness); swap each word to host order first",
                             words[0]);
   }
   if (words[0] != SPIRV_MAGIC_NUMBER) {
      return spirv_fail_word(error, 0, "bad magic 0x%08x (expected 0x%08x): not a SPIR-V module",
                             words[0], SPIRV_MAGIC_NUMBER);
   }
   const uint32_t version = words[1];
   const uint32_t major = (version >> 16) & 0xffu, minor = (version >> 8) & 0xffu;
   if ((version & 0xff0000ffu) != 0 || major != 1 || minor > 6) {
      return spirv_fail_word(error, 1,
                             "unsupported SPIR-V version word 0x%08x (%u.%u; we read "
                             "1.0 to 1.6)",
                             version, major, minor);
   }
   /* Per-id tables are sized by the bound, so it is capped by the module
    * size: a module defines at most one id per two words, and we leave room
    * for sparse numbering (spec 2.3 only asks that all ids are < bound). */
   const uint64_t max_bound = 4ull * word_count + 64;
   if (words[3] == 0 || words[3] > max_bound) {
      return spirv_fail_word(error, 3,
                             "id bound %u is not plausible for a module of %zu words "
                             "(must be 1..%llu)",
                             words[3], word_count, (unsigned long long)max_bound);
   }
   if (words[4] != 0)
      return spirv_fail_word(error, 4, "reserved schema word is %u, must be 0", words[4]);
   return true;
}

static bool check_module_complete(struct spirv_parser *p)
{
   struct spirv_module *m = p->module;
   struct spirv_error *e = p->error;
   if (!m->has_memory_model)
      return spirv_fail_word(e, m->word_count, "the module has no OpMemoryModel");
   if (m->entry_point_count == 0)
      return spirv_fail_word(e, m->word_count, "the module has no OpEntryPoint");
   return spirv_check_functions_ended(p) && spirv_check_ids_defined(e, m) &&
          spirv_check_forward_pointers(e, m) && spirv_check_decorations(e, m) &&
          spirv_check_control_flow(e, m) && spirv_check_entry_points(e, m) &&
          spirv_evaluate_spec_constants(m, e);
}

struct spirv_module *spirv_module_parse(const uint32_t *words, size_t word_count,
                                        struct spirv_error *error)
{
   struct spirv_error scratch;
   if (!error)
      error = &scratch;
   memset(error, 0, sizeof(*error));
   struct spirv_module_counts counts;
   if (!check_header(words, word_count, error) ||
       !count_instructions(words, (uint32_t)word_count, &counts, error))
      return NULL;

   struct spirv_module *m = calloc(1, sizeof(*m));
   if (!m) {
      spirv_fail_word(error, 0, "out of memory");
      return NULL;
   }
   m->word_count = (uint32_t)word_count;
   m->version = words[1];
   m->bound = words[3];
   m->words = malloc(word_count * sizeof(uint32_t));
   if (!m->words || !allocate_module(m, &counts)) {
      spirv_module_destroy(m);
      spirv_fail_word(error, 0, "out of memory");
      return NULL;
   }
   memcpy(m->words, words, word_count * sizeof(uint32_t));

   struct spirv_parser parser = {.module = m, .error = error};
   uint32_t pos = SPIRV_HEADER_WORDS;
   while (pos < m->word_count) {
      struct spirv_inst *inst = &m->insts[m->inst_count];
      inst->word_offset = pos;
      inst->word_count = (uint16_t)(m->words[pos] >> 16);
      inst->opcode = (uint16_t)(m->words[pos] & 0xffffu);
      parser.inst_index = m->inst_count++;
      if (!parse_instruction(&parser, inst)) {
         spirv_module_destroy(m);
         return NULL;
      }
      pos += inst->word_count;
   }
   if (!check_module_complete(&parser)) {
      spirv_module_destroy(m);
      return NULL;
   }
   return m;
}

void spirv_module_destroy(struct spirv_module *m)
{
   if (!m)
      return;
   free(m->words);
   free(m->insts);
   free(m->operands);
   free(m->strings);
   free(m->ids);
   free(m->capabilities);
   free(m->extensions);
   free(m->types);
   free(m->constants);
   free(m->variables);
   free(m->functions);
   free(m->blocks);
   free(m->entry_points);
   free(m->modes);
   free(m->decorations);
   free(m->names);
   free(m);
}
