/* SPIR-V front end: the in-memory form of one validated SPIR-V module.
 *
 * spirv_module_parse() decodes a module (SPIR-V 1.0-1.6, Vulkan/Shader
 * profile) into instructions whose operands are decoded per the Khronos
 * grammar, and indexes what a compiler asks about: the type, constant,
 * variable or function behind every id, decorations, entry points, execution
 * modes, and basic blocks with their structured merge facts. Every error is a
 * value (struct spirv_error) naming the word offset and opcode; no input can
 * crash the parser or make it allocate more than a fixed multiple of its size.
 *
 * The module keeps a copy of the words; the caller's buffer may be freed. All
 * query functions take a module that parsed successfully.
 */
#ifndef VKPPU_SPIRV_MODULE_H
#define VKPPU_SPIRV_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_grammar_tables.h"

#define SPIRV_NO_ID 0u
#define SPIRV_NO_INDEX UINT32_MAX
/* Member index of a decoration or name that applies to the id itself. */
#define SPIRV_NO_MEMBER UINT32_MAX

struct spirv_error {
   uint32_t word_offset; /* of the offending instruction, 0 for the header */
   uint32_t opcode;      /* SPIRV_ERROR_NO_OPCODE when not about one instruction */
   char message[256];    /* "spirv: word 153 (OpIAdd): id %42 is used but never defined" */
};
#define SPIRV_ERROR_NO_OPCODE UINT32_MAX

/* One decoded operand: where its words are and what the grammar says it is. */
struct spirv_operand {
   uint8_t kind; /* enum spirv_operand_kind */
   uint16_t word_count;
   uint32_t word_offset; /* into spirv_module_words() */
   /* LiteralString: offset into the module's string pool (see spirv_operand_string). */
   uint32_t string_offset;
};

struct spirv_inst {
   uint16_t opcode; /* enum spirv_op */
   uint16_t word_count;
   uint32_t word_offset;
   uint32_t result_type; /* SPIRV_NO_ID when the instruction has none */
   uint32_t result_id;   /* SPIRV_NO_ID when the instruction has none */
   /* Operands after the result type and result id, in grammar order. */
   uint32_t operand_first;
   uint32_t operand_count;
};

enum spirv_type_kind {
   SPIRV_TYPE_VOID,
   SPIRV_TYPE_BOOL,
   SPIRV_TYPE_INT,
   SPIRV_TYPE_FLOAT,
   SPIRV_TYPE_VECTOR,
   SPIRV_TYPE_MATRIX,
   SPIRV_TYPE_ARRAY,
   SPIRV_TYPE_RUNTIME_ARRAY,
   SPIRV_TYPE_STRUCT,
   SPIRV_TYPE_POINTER,
   SPIRV_TYPE_FUNCTION,
   SPIRV_TYPE_IMAGE,
   SPIRV_TYPE_SAMPLER,
   SPIRV_TYPE_SAMPLED_IMAGE,
   SPIRV_TYPE_ACCELERATION_STRUCTURE,
   SPIRV_TYPE_RAY_QUERY,
};

struct spirv_type {
   enum spirv_type_kind kind;
   uint32_t id;
   union {
      struct {
         uint32_t width; /* bits: 8, 16, 32, 64 */
         bool is_signed;
      } scalar; /* INT, FLOAT */
      struct {
         uint32_t component_type;
         uint32_t component_count;
      } vector;
      struct {
         uint32_t column_type; /* a vector type */
         uint32_t column_count;
      } matrix;
      struct {
         uint32_t element_type;
         uint32_t length_id; /* ARRAY: a constant or spec constant; 0 for RUNTIME_ARRAY */
      } array;
      struct {
         uint32_t member_count;
         uint32_t member_first; /* operand index of member 0's type id */
      } structure;
      struct {
         uint32_t storage_class; /* enum spirv_storage_class_value */
         uint32_t pointee_type;  /* may be declared later (OpTypeForwardPointer) */
      } pointer;
      struct {
         uint32_t return_type;
         uint32_t parameter_count;
         uint32_t parameter_first; /* operand index of parameter 0's type id */
      } function;
      struct {
         uint32_t sampled_type;
         uint32_t dim; /* enum spirv_dim_value */
         uint32_t depth, arrayed, multisampled, sampled, format;
      } image;
      struct {
         uint32_t image_type;
      } sampled_image;
   } u;
};

enum spirv_constant_kind {
   SPIRV_CONSTANT_SCALAR,    /* OpConstant, OpConstantTrue/False, OpSpecConstant* scalars */
   SPIRV_CONSTANT_COMPOSITE, /* OpConstantComposite, OpSpecConstantComposite */
   SPIRV_CONSTANT_NULL,      /* OpConstantNull: all zero, any type */
   SPIRV_CONSTANT_UNDEF,     /* OpUndef at module scope */
   SPIRV_CONSTANT_SPEC_OP,   /* OpSpecConstantOp: value evaluated for the current specialization */
};

/* Scalars and vectors carry their value per component; other composites are
 * read through their constituents. */
#define SPIRV_MAX_VECTOR_COMPONENTS 4

struct spirv_constant {
   enum spirv_constant_kind kind;
   uint32_t id;
   uint32_t type_id;
   uint32_t inst;            /* defining instruction */
   bool is_spec;             /* OpSpecConstant*: changes with specialization */
   bool has_value;           /* value[] valid: scalar/vector, or a spec op we could evaluate */
   uint32_t spec_id;         /* SpecId decoration, SPIRV_NO_INDEX when none */
   uint32_t component_count; /* 1 for scalars, n for vectors, constituents otherwise */
   /* Bit pattern of each component, zero-extended to 64 bits (bools: 0 or 1). */
   uint64_t value[SPIRV_MAX_VECTOR_COMPONENTS];
   uint64_t default_value[SPIRV_MAX_VECTOR_COMPONENTS]; /* before specialization */
   uint32_t constituent_first; /* COMPOSITE: operand index of constituent 0 */
};

struct spirv_variable {
   uint32_t id;
   uint32_t type_id;       /* a pointer type */
   uint32_t storage_class; /* enum spirv_storage_class_value */
   uint32_t initializer;   /* SPIRV_NO_ID when none */
   uint32_t function;      /* index of the owning function, SPIRV_NO_INDEX for globals */
};

enum spirv_merge_kind {
   SPIRV_MERGE_NONE,
   SPIRV_MERGE_SELECTION, /* header block of an OpSelectionMerge construct */
   SPIRV_MERGE_LOOP,      /* header block of an OpLoopMerge construct */
};

struct spirv_block {
   uint32_t label_id;
   uint32_t function;   /* index into the module's functions */
   uint32_t first_inst; /* the OpLabel */
   uint32_t terminator; /* instruction index of the block's terminator */
   uint32_t phi_count;  /* OpPhi instructions right after the label */
   enum spirv_merge_kind merge_kind;
   uint32_t merge_block;     /* label id, 0 when merge_kind is NONE */
   uint32_t continue_target; /* label id for loops */
   uint32_t control;         /* SelectionControl or LoopControl mask */
};

struct spirv_function {
   uint32_t id;
   uint32_t result_type;
   uint32_t function_type;
   uint32_t control;    /* FunctionControl mask */
   uint32_t first_inst; /* OpFunction */
   uint32_t end_inst;   /* OpFunctionEnd */
   uint32_t parameter_count;
   uint32_t parameter_first; /* index of the first OpFunctionParameter instruction */
   uint32_t block_count;     /* 0 for a declaration */
   uint32_t block_first;     /* index into the module's blocks; the entry block first */
};

struct spirv_execution_mode {
   uint32_t mode;         /* enum spirv_execution_mode_value */
   uint32_t function_id;  /* the entry point function it applies to */
   uint32_t inst;         /* the OpExecutionMode(Id) instruction */
   bool operands_are_ids; /* OpExecutionModeId */
};

struct spirv_entry_point {
   uint32_t execution_model; /* enum spirv_execution_model_value */
   uint32_t function_id;
   const char *name;
   uint32_t interface_count;
   uint32_t interface_first; /* operand index of the first interface id */
   uint32_t inst;
   bool has_local_size;
   bool local_size_is_id;  /* LocalSizeId: local_size[] holds constant ids */
   uint32_t local_size[3]; /* LocalSize literals or LocalSizeId ids */
};

struct spirv_decoration {
   uint32_t target;
   uint32_t member;     /* SPIRV_NO_MEMBER unless OpMemberDecorate(String) */
   uint32_t decoration; /* enum spirv_decoration_value */
   uint32_t inst;
   /* Operands after the decoration enumerant: literals, ids or strings. */
   uint32_t operand_first;
   uint32_t operand_count;
   uint32_t next; /* next decoration of the same target, SPIRV_NO_INDEX at the end */
};

/* What an id names; index points into the matching array. */
enum spirv_id_class {
   SPIRV_ID_NONE,
   SPIRV_ID_TYPE,
   SPIRV_ID_CONSTANT,
   SPIRV_ID_VARIABLE,
   SPIRV_ID_FUNCTION,
   SPIRV_ID_LABEL,
   SPIRV_ID_EXT_INST_SET,
   SPIRV_ID_DECORATION_GROUP,
   SPIRV_ID_STRING,
   SPIRV_ID_VALUE, /* any other instruction result inside a function */
};

enum spirv_ext_inst_set {
   SPIRV_EXT_INST_SET_GLSL_STD_450,
   SPIRV_EXT_INST_SET_NON_SEMANTIC, /* "NonSemantic.*": may be ignored (SPV_KHR_non_semantic_info)
                                     */
};

struct spirv_module;

/* Parses and validates words[0..word_count). On failure returns NULL and
 * fills *error. */
struct spirv_module *spirv_module_parse(const uint32_t *words, size_t word_count,
                                        struct spirv_error *error);
void spirv_module_destroy(struct spirv_module *module);

/* --- raw access ------------------------------------------------------------ */
uint32_t spirv_module_version(const struct spirv_module *module); /* 0x00010500 for 1.5 */
uint32_t spirv_module_bound(const struct spirv_module *module);
const uint32_t *spirv_module_words(const struct spirv_module *module);
uint32_t spirv_module_inst_count(const struct spirv_module *module);
const struct spirv_inst *spirv_module_inst(const struct spirv_module *module, uint32_t index);
const struct spirv_operand *spirv_inst_operand(const struct spirv_module *module,
                                               const struct spirv_inst *inst, uint32_t i);
/* First word of an operand (ids, 32-bit literals, enumerants). */
uint32_t spirv_inst_operand_word(const struct spirv_module *module, const struct spirv_inst *inst,
                                 uint32_t i);
const char *spirv_operand_string(const struct spirv_module *module,
                                 const struct spirv_operand *operand);
/* Operand i of the whole module's operand list (type members, constituents...). */
uint32_t spirv_module_operand_word(const struct spirv_module *module, uint32_t operand_index);

/* --- declarations ---------------------------------------------------------- */
bool spirv_module_has_capability(const struct spirv_module *module, uint32_t capability);
bool spirv_module_has_extension(const struct spirv_module *module, const char *name);
uint32_t spirv_module_addressing_model(const struct spirv_module *module);
uint32_t spirv_module_memory_model(const struct spirv_module *module);

enum spirv_id_class spirv_id_class(const struct spirv_module *module, uint32_t id);
/* The instruction that defines id, NULL when id is not defined. */
const struct spirv_inst *spirv_id_definition(const struct spirv_module *module, uint32_t id);
/* The result type of the instruction that defines id, SPIRV_NO_ID when none. */
uint32_t spirv_id_type(const struct spirv_module *module, uint32_t id);
/* OpName / OpMemberName, NULL when none. */
const char *spirv_id_name(const struct spirv_module *module, uint32_t id, uint32_t member);
enum spirv_ext_inst_set spirv_ext_inst_set_kind(const struct spirv_module *module, uint32_t id);

const struct spirv_type *spirv_type(const struct spirv_module *module, uint32_t type_id);
/* Member i's type id of a struct type, SPIRV_NO_ID when out of range. */
uint32_t spirv_struct_member_type(const struct spirv_module *module, uint32_t struct_type,
                                  uint32_t member);
/* Follows vectors, arrays and matrices down to the scalar type id. */
uint32_t spirv_type_scalar(const struct spirv_module *module, uint32_t type_id);

const struct spirv_constant *spirv_constant(const struct spirv_module *module, uint32_t id);
/* A scalar constant's value for the current specialization (integers
 * zero-extended, bools 0/1, floats as bits). false when id is not an
 * evaluated scalar constant. */
bool spirv_constant_scalar(const struct spirv_module *module, uint32_t id, uint64_t *value);
uint32_t spirv_constant_constituent(const struct spirv_module *module,
                                    const struct spirv_constant *constant, uint32_t i);
/* Array length for the current specialization; false for runtime arrays or
 * lengths we cannot evaluate. */
bool spirv_array_length(const struct spirv_module *module, uint32_t array_type, uint64_t *length);

const struct spirv_variable *spirv_variable(const struct spirv_module *module, uint32_t id);
uint32_t spirv_module_global_variable_count(const struct spirv_module *module);
const struct spirv_variable *spirv_module_global_variable(const struct spirv_module *module,
                                                          uint32_t index);

/* --- decorations and buffer layout -------------------------------------- */
/* First decoration of (id, member) with that decoration, NULL when none. */
const struct spirv_decoration *spirv_find_decoration(const struct spirv_module *module, uint32_t id,
                                                     uint32_t member, uint32_t decoration);
bool spirv_has_decoration(const struct spirv_module *module, uint32_t id, uint32_t member,
                          uint32_t decoration);
/* The first literal operand of a decoration (Binding, Offset, SpecId, BuiltIn...). */
bool spirv_decoration_literal(const struct spirv_module *module, uint32_t id, uint32_t member,
                              uint32_t decoration, uint32_t *value);
/* All decorations of id (members included), in module order through ->next. */
const struct spirv_decoration *spirv_first_decoration(const struct spirv_module *module,
                                                      uint32_t id);
const struct spirv_decoration *spirv_next_decoration(const struct spirv_module *module,
                                                     const struct spirv_decoration *decoration);

/* Explicit layout of a buffer member, from Offset/MatrixStride/RowMajor
 * decorations (SPIR-V spec 2.16.2 "Validation Rules for Shader Capabilities"
 * and Vulkan "Offset and Stride Assignment"). */
struct spirv_member_layout {
   uint32_t offset; /* Offset */
   uint32_t type_id;
   uint32_t matrix_stride; /* 0 unless the member is (an array of) matrices */
   bool row_major;
   uint32_t array_stride; /* ArrayStride of the member's array type, 0 when none */
   uint32_t size;         /* bytes, 0 for a runtime array */
};
bool spirv_struct_member_layout(const struct spirv_module *module, uint32_t struct_type,
                                uint32_t member, struct spirv_member_layout *layout);
/* Size in bytes of a type laid out with its explicit decorations; for a
 * struct, the end of its last member (runtime arrays count as 0 elements).
 * matrix_stride/row_major describe the enclosing member when type is a matrix. */
bool spirv_explicit_type_size(const struct spirv_module *module, uint32_t type_id,
                              uint32_t matrix_stride, bool row_major, uint64_t *size);

/* --- functions and control flow --------------------------------------- */
uint32_t spirv_module_function_count(const struct spirv_module *module);
const struct spirv_function *spirv_module_function(const struct spirv_module *module,
                                                   uint32_t index);
const struct spirv_function *spirv_function_by_id(const struct spirv_module *module, uint32_t id);
const struct spirv_block *spirv_module_block(const struct spirv_module *module, uint32_t index);
const struct spirv_block *spirv_block_by_label(const struct spirv_module *module,
                                               uint32_t label_id);
/* Incoming value i of an OpPhi: (value id, parent block label). */
bool spirv_phi_incoming(const struct spirv_module *module, const struct spirv_inst *phi, uint32_t i,
                        uint32_t *value_id, uint32_t *parent_label);
/* Successor labels of a block's terminator; returns the count (switch
 * targets may repeat), writes at most max of them. */
uint32_t spirv_block_successors(const struct spirv_module *module, const struct spirv_block *block,
                                uint32_t *labels, uint32_t max);

/* --- entry points and specialization ---------------------------------- */
uint32_t spirv_module_entry_point_count(const struct spirv_module *module);
const struct spirv_entry_point *spirv_module_entry_point(const struct spirv_module *module,
                                                         uint32_t index);
const struct spirv_entry_point *spirv_find_entry_point(const struct spirv_module *module,
                                                       const char *name, uint32_t execution_model);
uint32_t spirv_entry_point_mode_count(const struct spirv_module *module,
                                      const struct spirv_entry_point *entry);
const struct spirv_execution_mode *spirv_entry_point_mode(const struct spirv_module *module,
                                                          const struct spirv_entry_point *entry,
                                                          uint32_t index);
/* Workgroup size for the current specialization: the WorkgroupSize built-in
 * constant wins over LocalSizeId, which wins over LocalSize (spec 3.20
 * BuiltIn WorkgroupSize). */
bool spirv_entry_point_workgroup_size(const struct spirv_module *module,
                                      const struct spirv_entry_point *entry, uint32_t size[3],
                                      struct spirv_error *error);

/* VkSpecializationMapEntry without the Vulkan dependency. */
struct spirv_specialization_entry {
   uint32_t constant_id;
   uint32_t offset;
   size_t size;
};
/* Applies values to the spec constants (by SpecId) and re-evaluates every
 * OpSpecConstantOp; entries for ids the module does not use are ignored, as in
 * Vulkan. Calling it again starts from the defaults. */
bool spirv_module_specialize(struct spirv_module *module,
                             const struct spirv_specialization_entry *entries, uint32_t entry_count,
                             const void *data, size_t data_size, struct spirv_error *error);

#endif
