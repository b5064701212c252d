/* Malformed modules are rejected with a message naming the word offset and
 * opcode. Each case starts from a small valid compute module (see
 * spirv_build_minimal_compute: %1 void, %2 fn type, %3 main, %4 label,
 * %5 uint, %6 = 7u; bound 16) and breaks one rule. */
#include <stdio.h>
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

static uint32_t body_offset; /* word offset of the first body instruction */

static void expect_error(const uint32_t *words, size_t count, const char *substring,
                         const char *test)
{
   struct spirv_error error;
   struct spirv_module *m = spirv_module_parse(words, count, &error);
   CHECK_MSG(m == NULL, "%s: parsed but should fail", test);
   spirv_module_destroy(m);
   CHECK_MSG(strstr(error.message, substring) != NULL, "%s: message \"%s\" lacks \"%s\"", test,
             error.message, substring);
}

#define EXPECT_ERROR(words, count, substring) expect_error(words, count, substring, __func__)

TEST_CASE(minimal_module_is_valid)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   struct spirv_error error;
   struct spirv_module *m = spirv_module_parse(b.words, b.count, &error);
   CHECK_MSG(m != NULL, "%s", error.message);
   spirv_module_destroy(m);
}

TEST_CASE(truncated_module_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   /* The module ends inside OpFunction (5 words, then label, return, end). */
   EXPECT_ERROR(b.words, b.count - 6,
                "(OpFunction): instruction has 5 words but the module ends after 3 "
                "(truncated module?)");
   EXPECT_ERROR(b.words, 3, "shorter than the 5-word header");
   EXPECT_ERROR(NULL, 0, "shorter than the 5-word header");
}

TEST_CASE(bad_magic_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   b.words[0] = 0x12345678;
   EXPECT_ERROR(b.words, b.count, "spirv: word 0: bad magic 0x12345678");
   b.words[0] = 0x03022307;
   EXPECT_ERROR(b.words, b.count, "byte-swapped");
}

TEST_CASE(bad_version_and_bound_are_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   b.words[1] = 0x00020000;
   EXPECT_ERROR(b.words, b.count, "unsupported SPIR-V version");
   spirv_build_minimal_compute(&b, NULL);
   b.words[3] = 0xffffffff;
   EXPECT_ERROR(b.words, b.count, "id bound 4294967295 is not plausible");
}

static void add_out_of_bound(struct spirv_builder *b)
{
   body_offset = (uint32_t)b->count;
   SPIRV_INST(b, SPIRV_OP_IAdd, 5, 15, 6, 40);
}

TEST_CASE(id_out_of_bound_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_out_of_bound);
   char expected[128];
   snprintf(expected, sizeof(expected),
            "spirv: word %u (OpIAdd): operand 4: id %%40 is out of "
            "bound (bound is 16)",
            body_offset);
   EXPECT_ERROR(b.words, b.count, expected);
}

static void add_undefined_use(struct spirv_builder *b)
{
   body_offset = (uint32_t)b->count;
   SPIRV_INST(b, SPIRV_OP_IAdd, 5, 10, 6, 11);
}

TEST_CASE(undefined_id_is_rejected_with_offset_and_opcode)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_undefined_use);
   char expected[128];
   snprintf(expected, sizeof(expected),
            "spirv: word %u (OpIAdd): id %%11 is used but never "
            "defined",
            body_offset);
   EXPECT_ERROR(b.words, b.count, expected);
}

static void add_too_many_operands(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_IAdd, 5, 10, 6, 6, 6);
}

static void add_too_few_operands(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_IAdd, 5, 10, 6);
}

TEST_CASE(bad_operand_counts_are_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_too_many_operands);
   EXPECT_ERROR(b.words, b.count, "(OpIAdd): instruction has 6 words but its operands end after 5");
   spirv_build_minimal_compute(&b, add_too_few_operands);
   EXPECT_ERROR(b.words, b.count, "(OpIAdd): operand 4 (IdRef) is missing");
}

TEST_CASE(unterminated_block_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   /* Drop OpReturn: the block runs into OpFunctionEnd. */
   b.words[b.count - 2] = b.words[b.count - 1];
   b.count--;
   EXPECT_ERROR(b.words, b.count, "(OpFunctionEnd): block %4 is not terminated");
   /* Drop OpReturn and OpFunctionEnd: the module ends inside the block. */
   b.count--;
   EXPECT_ERROR(b.words, b.count, "block %4 is not terminated and the module ends");
}

static void add_unknown_opcode(struct spirv_builder *b)
{
   SPIRV_INST(b, 9999, 1);
}

TEST_CASE(unknown_opcode_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_unknown_opcode);
   EXPECT_ERROR(b.words, b.count, "opcode 9999 is not a SPIR-V instruction");
}

TEST_CASE(unsupported_capability_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   b.words[6] = SPIRV_CAPABILITY_Kernel; /* the Shader capability's operand */
   EXPECT_ERROR(b.words, b.count,
                "spirv: word 5 (OpCapability): capability Kernel is not "
                "supported");
}

static void add_redefinition(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_IAdd, 5, 6, 6, 6);
}

TEST_CASE(id_defined_twice_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_redefinition);
   EXPECT_ERROR(b.words, b.count, "(OpIAdd): id %6 is defined twice");
}

static void add_float_add_on_ints(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_FAdd, 5, 10, 6, 6);
}

TEST_CASE(result_type_mismatch_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_float_add_on_ints);
   EXPECT_ERROR(b.words, b.count, "(OpFAdd): result type %5 is not a float scalar or vector");
}

static void add_branch_to_constant(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_Branch, 6);
   SPIRV_INST(b, SPIRV_OP_Label, 12);
}

TEST_CASE(branch_to_a_non_label_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_branch_to_constant);
   EXPECT_ERROR(b.words, b.count, "(OpBranch): branch target %6 is not a block of this function");
}

TEST_CASE(instruction_in_the_wrong_section_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   /* Append a capability after the functions. */
   SPIRV_INST(&b, SPIRV_OP_Capability, SPIRV_CAPABILITY_Int64);
   EXPECT_ERROR(b.words, b.count, "(OpCapability): belongs to the capabilities section");
}

TEST_CASE(malformed_types_are_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   /* OpTypeInt %5 32 0 is at a fixed place: find and break its width. */
   for (size_t i = 5; i < b.count; i += b.words[i] >> 16) {
      if ((b.words[i] & 0xffff) == SPIRV_OP_TypeInt)
         b.words[i + 2] = 7;
   }
   EXPECT_ERROR(b.words, b.count, "(OpTypeInt): integer width 7 is not 8, 16, 32 or 64");
}

static void add_zero_word_count(struct spirv_builder *b)
{
   b->words[b->count++] = SPIRV_OP_Nop; /* word count 0 */
}

TEST_CASE(zero_word_count_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_zero_word_count);
   EXPECT_ERROR(b.words, b.count, "has a word count of 0");
}

TEST_CASE(missing_function_end_is_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, NULL);
   b.count--; /* drop OpFunctionEnd */
   EXPECT_ERROR(b.words, b.count, "(OpFunction): function %3 is not ended with OpFunctionEnd");
}

/* Image instructions whose operands are not images (%6 is a uint). */
static void add_fetch_of_a_constant(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_ImageFetch, 5, 10, 6, 6);
}

static void add_size_query_of_a_constant(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_ImageQuerySizeLod, 5, 10, 6, 6);
}

static void add_write_to_a_constant(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_ImageWrite, 6, 6, 6);
}

static void add_sampled_image_of_constants(struct spirv_builder *b)
{
   SPIRV_INST(b, SPIRV_OP_SampledImage, 5, 10, 6, 6);
}

TEST_CASE(malformed_image_instructions_are_rejected)
{
   struct spirv_builder b;
   spirv_build_minimal_compute(&b, add_fetch_of_a_constant);
   EXPECT_ERROR(b.words, b.count,
                "(OpImageFetch): result type %5 is not a vector of 4 32-bit integers or floats");
   spirv_build_minimal_compute(&b, add_size_query_of_a_constant);
   EXPECT_ERROR(b.words, b.count,
                "(OpImageQuerySizeLod): operand 1 (%6) has type %5, which is not an OpTypeImage");
   spirv_build_minimal_compute(&b, add_write_to_a_constant);
   EXPECT_ERROR(b.words, b.count,
                "(OpImageWrite): operand 1 (%6) has type %5, which is not an OpTypeImage");
   spirv_build_minimal_compute(&b, add_sampled_image_of_constants);
   EXPECT_ERROR(b.words, b.count, "(OpSampledImage): result type %5 is not an OpTypeSampledImage");
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
