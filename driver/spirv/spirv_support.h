/* What the SPIR-V front end accepts: capabilities, extensions, execution
 * models, and how opcodes are grouped for sizing the module's tables. */
#ifndef VKPPU_SPIRV_SUPPORT_H
#define VKPPU_SPIRV_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

bool spirv_capability_supported(uint32_t capability);
bool spirv_extension_supported(const char *name);
bool spirv_execution_model_supported(uint32_t model);

bool spirv_is_type_opcode(uint32_t opcode);
bool spirv_is_constant_opcode(uint32_t opcode); /* OpConstant* and OpSpecConstant* */

/* Upper bounds on each table, counted from opcodes before parsing. */
struct spirv_module_counts {
   uint32_t insts;
   uint32_t capabilities, extensions;
   uint32_t types, constants, variables, functions, blocks;
   uint32_t entry_points, modes, decorations, names;
};
void spirv_count_opcode(struct spirv_module_counts *counts, uint32_t opcode);

#endif
