/* Internal state of the SPIR-V front end shared by its source files. */
#ifndef VKPPU_SPIRV_INTERNAL_H
#define VKPPU_SPIRV_INTERNAL_H

#include "spirv_module.h"

/* Per-id facts, indexed by id (0 .. bound-1). */
struct spirv_id_entry {
   uint32_t def_inst; /* SPIRV_NO_INDEX until defined */
   uint32_t type_id;  /* result type of the defining instruction */
   uint8_t id_class;  /* enum spirv_id_class */
   uint32_t index;    /* into types/constants/variables/functions/blocks */
   uint32_t first_decoration, last_decoration;
   uint32_t first_name;
   /* OpTypeForwardPointer named this id before its OpTypePointer. */
   bool forward_declared;
   uint32_t forward_storage_class;
   /* Types: depth of the type tree below this type (scalars are 1). Capped
    * so that recursive walks over types stay shallow on hostile input. */
   uint8_t type_depth;
};

#define SPIRV_MAX_TYPE_DEPTH 64

struct spirv_name {
   uint32_t member;        /* SPIRV_NO_MEMBER for OpName */
   uint32_t string_offset; /* into the string pool */
   uint32_t next;
};

struct spirv_module {
   uint32_t *words;
   uint32_t word_count;
   uint32_t version;
   uint32_t bound;

   struct spirv_inst *insts;
   uint32_t inst_count;
   struct spirv_operand *operands;
   uint32_t operand_count, operand_capacity;
   char *strings; /* NUL-terminated strings decoded from LiteralString operands */
   uint32_t string_size, string_capacity;

   struct spirv_id_entry *ids;

   uint32_t *capabilities; /* values, in module order */
   uint32_t capability_count;
   uint32_t *extensions; /* string pool offsets */
   uint32_t extension_count;
   bool has_memory_model;
   uint32_t addressing_model, memory_model;

   struct spirv_type *types;
   uint32_t type_count;
   struct spirv_constant *constants;
   uint32_t constant_count;
   struct spirv_variable *variables; /* globals first: they precede all functions */
   uint32_t variable_count, global_variable_count;
   struct spirv_function *functions;
   uint32_t function_count;
   struct spirv_block *blocks;
   uint32_t block_count;
   struct spirv_entry_point *entry_points;
   uint32_t entry_point_count;
   struct spirv_execution_mode *modes;
   uint32_t mode_count;
   struct spirv_decoration *decorations;
   uint32_t decoration_count;
   struct spirv_name *names;
   uint32_t name_count;
};

/* Logical layout of a module, SPIR-V spec 2.4: sections appear in this order. */
enum spirv_section {
   SPIRV_SECTION_CAPABILITY,
   SPIRV_SECTION_EXTENSION,
   SPIRV_SECTION_EXT_INST_IMPORT,
   SPIRV_SECTION_MEMORY_MODEL,
   SPIRV_SECTION_ENTRY_POINT,
   SPIRV_SECTION_EXECUTION_MODE,
   SPIRV_SECTION_DEBUG_SOURCE, /* OpString, OpSource* */
   SPIRV_SECTION_DEBUG_NAME,   /* OpName, OpMemberName */
   SPIRV_SECTION_DEBUG_MODULE_PROCESSED,
   SPIRV_SECTION_ANNOTATION,
   SPIRV_SECTION_GLOBAL, /* types, constants, global variables, module-scope OpUndef */
   SPIRV_SECTION_FUNCTION,
};

/* Where the parser is inside a function (spec 2.4 items 10-11, 2.2.5). */
enum spirv_function_state {
   SPIRV_OUTSIDE_FUNCTION,
   SPIRV_IN_FUNCTION_HEADER, /* after OpFunction, before the first OpLabel */
   SPIRV_IN_BLOCK,
   SPIRV_BETWEEN_BLOCKS, /* after a terminator */
};

struct spirv_parser {
   struct spirv_module *module;
   struct spirv_error *error;
   uint32_t inst_index; /* the instruction being parsed */
   enum spirv_section section;
   enum spirv_function_state function_state;
   uint32_t function;      /* index of the open function */
   uint32_t block;         /* index of the open block */
   bool block_has_non_phi; /* an instruction other than OpPhi/OpLine was seen */
   bool block_had_merge;   /* the previous instruction was a merge instruction */
   bool entry_block_past_variables;
   bool has_kernel;
};

/* Formats "spirv: word N (OpX): <message>" for the current instruction into
 * parser->error; always returns false so callers can `return spirv_fail(...)`. */
bool spirv_fail(struct spirv_parser *parser, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same for an instruction other than the current one. */
bool spirv_fail_at(struct spirv_error *error, const struct spirv_module *module, uint32_t inst,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* For errors not tied to an instruction (header, whole-module facts). */
bool spirv_fail_word(struct spirv_error *error, uint32_t word_offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* For an instruction not yet in the module's table (the size pre-pass). */
bool spirv_fail_raw(struct spirv_error *error, uint32_t word_offset, uint32_t opcode,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *spirv_opcode_name(uint32_t opcode);

/* spirv_decode.c: decodes the operands of the current instruction per the
 * grammar, appending to module->operands and filling inst. */
bool spirv_decode_operands(struct spirv_parser *parser, struct spirv_inst *inst,
                           const struct spirv_opcode_info *info);

/* spirv_types.c */
bool spirv_parse_type(struct spirv_parser *parser, const struct spirv_inst *inst);
bool spirv_type_is_int(const struct spirv_module *module, uint32_t type_id);
bool spirv_type_is_numeric_scalar(const struct spirv_module *module, uint32_t type_id);
/* Width in bits of a scalar type or of a vector's components; 0 otherwise. */
uint32_t spirv_type_scalar_width(const struct spirv_module *module, uint32_t type_id);
/* Component count of a scalar (1) or vector; 0 for anything else. */
uint32_t spirv_type_component_count(const struct spirv_module *module, uint32_t type_id);
bool spirv_check_forward_pointers(struct spirv_error *error, const struct spirv_module *module);

/* spirv_constants.c */
bool spirv_parse_constant(struct spirv_parser *parser, const struct spirv_inst *inst);
/* spirv_specialize.c: evaluates every spec constant for the given overrides. */
bool spirv_evaluate_spec_constants(struct spirv_module *module, struct spirv_error *error);

/* spirv_variables.c: OpVariable at module scope (function NO_INDEX) or in a
 * function's entry block. */
bool spirv_parse_variable(struct spirv_parser *parser, const struct spirv_inst *inst,
                          uint32_t function);

/* spirv_decorations.c */
bool spirv_parse_annotation(struct spirv_parser *parser, const struct spirv_inst *inst);
bool spirv_check_decorations(struct spirv_error *error, struct spirv_module *module);

/* spirv_functions.c */
bool spirv_parse_function_inst(struct spirv_parser *parser, struct spirv_inst *inst);
bool spirv_check_functions_ended(struct spirv_parser *parser);
bool spirv_check_control_flow(struct spirv_error *error, const struct spirv_module *module);
bool spirv_is_block_terminator(uint32_t opcode);

/* spirv_instruction_checks.c: cheap result-type checks per opcode. */
bool spirv_check_instruction_types(struct spirv_parser *parser, const struct spirv_inst *inst);

/* spirv_ray_query.c: operand and result checks of the ray query instructions
 * (true for any other opcode). */
bool spirv_check_ray_query(struct spirv_parser *parser, const struct spirv_inst *inst);

/* spirv_image.c: operand and result checks of the image instructions (true
 * for any other opcode). */
bool spirv_check_image(struct spirv_parser *parser, const struct spirv_inst *inst);

/* spirv_resolve.c: module-wide checks once every instruction is read. */
bool spirv_check_ids_defined(struct spirv_error *error, const struct spirv_module *module);
bool spirv_check_entry_points(struct spirv_error *error, const struct spirv_module *module);

/* Helpers shared by the files above. */
static inline uint32_t spirv_operand_word_at(const struct spirv_module *module,
                                             const struct spirv_inst *inst, uint32_t i)
{
   return module->words[module->operands[inst->operand_first + i].word_offset];
}

/* The type of operand i's id, SPIRV_NO_ID while the id is not defined yet. */
static inline uint32_t spirv_operand_type(const struct spirv_module *module,
                                          const struct spirv_inst *inst, uint32_t i)
{
   const uint32_t id = spirv_operand_word_at(module, inst, i);
   return module->ids[id].def_inst == SPIRV_NO_INDEX ? SPIRV_NO_ID : module->ids[id].type_id;
}

static inline bool spirv_is_id_kind(uint32_t kind)
{
   return kind == SPIRV_OPERAND_IdRef || kind == SPIRV_OPERAND_IdResultType ||
          kind == SPIRV_OPERAND_IdResult || kind == SPIRV_OPERAND_IdMemorySemantics ||
          kind == SPIRV_OPERAND_IdScope;
}

/* The defining entry of id when it is of class cls, else NULL. */
static inline const struct spirv_id_entry *spirv_id_of_class(const struct spirv_module *module,
                                                             uint32_t id, enum spirv_id_class cls)
{
   if (id == 0 || id >= module->bound || module->ids[id].id_class != cls)
      return NULL;
   return &module->ids[id];
}

#endif
