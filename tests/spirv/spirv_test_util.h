/* Helpers for the SPIR-V front-end tests: loading the glslang-compiled corpus
 * and building small hand-written modules for negative tests. */
#ifndef VKPPU_SPIRV_TEST_UTIL_H
#define VKPPU_SPIRV_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "spirv_module.h"

/* Reads SPIRV_TEST_SHADER_DIR/<name>.spv; NULL on failure. Free with free(). */
uint32_t *spirv_test_load(const char *name, size_t *word_count);
/* Loads and parses; reports the parser's message as a test failure. */
struct spirv_module *spirv_test_parse(const char *name);
/* Names (without .spv) of every corpus module, sorted; NULL-terminated.
 * Returns the count. Free with spirv_test_free_names(). */
size_t spirv_test_corpus(char ***names);
void spirv_test_free_names(char **names);

/* A module under construction: header first, then instructions. */
struct spirv_builder {
   uint32_t words[1024];
   size_t count;
};
/* Header with the given bound, then Shader capability, GLSL450 memory model. */
void spirv_builder_begin(struct spirv_builder *b, uint32_t bound);
/* Appends an instruction: opcode and operands (word count computed). */
void spirv_builder_inst(struct spirv_builder *b, uint32_t opcode, size_t operand_count,
                        const uint32_t *operands);
#define SPIRV_INST(b, opcode, ...)                                                                 \
   spirv_builder_inst((b), (opcode), sizeof((uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t),         \
                      (uint32_t[]){__VA_ARGS__})
#define SPIRV_INST0(b, opcode) spirv_builder_inst((b), (opcode), 0, NULL)
/* Appends a literal string operand list: the "main" entry point name etc. */
size_t spirv_pack_string(const char *s, uint32_t *out);

/* A complete valid compute module:
 *   %1 = void, %2 = fn type, %3 = main, %4 = label, %5 = uint, %6 = const 7
 * with `body` instructions inserted before main's OpReturn when non-NULL. */
void spirv_build_minimal_compute(struct spirv_builder *b, void (*body)(struct spirv_builder *b));

#endif
