/* Image instructions the compiler rejects, and malformed image
 * instructions: each gives a one-line error naming what is wrong, never a
 * crash (this test runs under ASan/UBSan in CI, like test_errors.c). */
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "spirv_grammar_tables.h"
#include "test_harness.h"

static const enum drv_binding_kind sampler_then_buffer[] = {DRV_BINDING_COMBINED_IMAGE_SAMPLER,
                                                            DRV_BINDING_STORAGE_BUFFER};

/* Word offset of the first instruction with that opcode (and, when
 * operand2 is nonzero, that third word), n when there is none. */
static size_t find_inst(const uint32_t *words, size_t n, uint32_t opcode, uint32_t operand2)
{
   for (size_t at = 5; at < n;) {
      uint32_t count = words[at] >> 16;
      if (count == 0 || at + count > n)
         break;
      if ((words[at] & 0xffffu) == opcode &&
          (!operand2 || (count > 2 && words[at + 2] == operand2)))
         return at;
      at += count;
   }
   return n;
}

/* words must fail to compile with a message containing want and, when
 * given, want2. */
static void check_error(const char *what, const uint32_t *words, size_t n,
                        const enum drv_binding_kind *kinds, uint32_t nk, const char *want,
                        const char *want2)
{
   char err[256] = "";
   CHECK_MSG(ctu_compile_with_bindings(words, n, kinds, nk, err, sizeof(err)) != 0, "%s compiled",
             what);
   CHECK_MSG(strstr(err, want) && (!want2 || strstr(err, want2)), "%s: \"%s\" does not say %s",
             what, err, want);
}

static void check_rejected(const char *shader, const char *want)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   REQUIRE(words);
   check_error(shader, words, n, sampler_then_buffer, 2, want, NULL);
   free(words);
}

TEST_CASE(multisampled_storage_images_are_rejected_by_name)
{
   check_rejected("ms_storage_image", "StorageImageMultisample");
}

/* glslang turns texture() outside fragment shaders into an explicit lod 0,
 * so the implicit-lod sample comes from the derivative-group shader with
 * its OpExecutionMode removed. */
TEST_CASE(implicit_lod_without_derivative_groups_is_rejected)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("image_derivatives_linear", &n);
   REQUIRE(words);
   size_t at =
       find_inst(words, n, SPIRV_OP_ExecutionMode, SPIRV_EXECUTION_MODE_DerivativeGroupLinearNV);
   bool removed = at < n;
   if (removed) {
      memmove(&words[at], &words[at + 3], (n - at - 3) * 4);
      n -= 3;
   }
   REQUIRE(removed);
   check_error("no derivative group", words, n, sampler_then_buffer, 2, "OpImageSampleImplicitLod",
               "DerivativeGroup");
   free(words);
}

TEST_CASE(query_lod_is_rejected_naming_the_instruction)
{
   check_rejected("image_query_lod", "OpImageQueryLod");
}

TEST_CASE(min_lod_capability_is_rejected_by_name)
{
   check_rejected("image_min_lod", "MinLod");
}

TEST_CASE(image_at_a_buffer_binding_names_the_binding)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("image_query_lod", &n);
   REQUIRE(words);
   const enum drv_binding_kind buffers[] = {DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER};
   check_error("image at a buffer binding", words, n, buffers, 2, "OpVariable", "binding 0");
   free(words);
}

static bool is_image_opcode(uint32_t op)
{
   return (op >= SPIRV_OP_SampledImage && op <= SPIRV_OP_ImageQuerySamples) ||
          op == SPIRV_OP_ImageTexelPointer;
}

static const enum drv_binding_kind sample_kinds[] = {
    DRV_BINDING_COMBINED_IMAGE_SAMPLER, DRV_BINDING_STORAGE_BUFFER, DRV_BINDING_STORAGE_BUFFER,
    DRV_BINDING_SAMPLED_IMAGE, DRV_BINDING_SAMPLER};
static const enum drv_binding_kind storage_kinds[] = {
    DRV_BINDING_STORAGE_IMAGE, DRV_BINDING_STORAGE_IMAGE, DRV_BINDING_STORAGE_IMAGE,
    DRV_BINDING_STORAGE_IMAGE, DRV_BINDING_STORAGE_IMAGE, DRV_BINDING_STORAGE_IMAGE,
    DRV_BINDING_STORAGE_BUFFER};

/* Every operand word of every image instruction replaced by other ids and
 * by out-of-range values: each result is either a program or a message. */
static void substitute_operands(const char *shader, const enum drv_binding_kind *kinds, uint32_t nk)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   REQUIRE(words && n > 5);
   uint32_t *copy = malloc(n * 4);
   REQUIRE(copy);
   uint32_t bound = words[3], tried = 0;
   char err[256];
   for (size_t at = 5; at < n;) {
      uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
      if (count == 0 || at + count > n)
         break;
      if (is_image_opcode(op)) {
         for (uint32_t w = 1; w < count; w++) {
            static const uint32_t extra[] = {0, 0xffffffffu, 0x10000u, 3};
            for (uint32_t v = 1; v < bound + 4; v += bound / 16 + 1) {
               memcpy(copy, words, n * 4);
               copy[at + w] = v < bound ? v : extra[v - bound];
               err[0] = '\0';
               if (ctu_compile_with_bindings(copy, n, kinds, nk, err, sizeof(err)))
                  CHECK_MSG(err[0], "%s word %zu = %u: error without a message", shader, at + w,
                            copy[at + w]);
               tried++;
            }
         }
      }
      at += count;
   }
   CHECK(tried > 50);
   free(copy);
   free(words);
}

TEST_CASE(malformed_sample_and_gather_operands_fail_cleanly)
{
   substitute_operands("image_sample", sample_kinds, 5);
   substitute_operands("image_shadow", sample_kinds, 3);
}

TEST_CASE(malformed_storage_and_atomic_operands_fail_cleanly)
{
   substitute_operands("image_storage", storage_kinds, 7);
}

/* A sampled-image operand that is a vector gets the front end's message. */
TEST_CASE(sampled_image_operand_of_the_wrong_type_is_located)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("image_sample", &n);
   REQUIRE(words);
   size_t at = find_inst(words, n, SPIRV_OP_ImageSampleExplicitLod, 0);
   bool found = at < n;
   if (found)
      words[at + 3] = words[at + 4]; /* the sampled image := the coordinate */
   REQUIRE(found);
   check_error("sampled image := coordinate", words, n, sample_kinds, 5, "spirv: word",
               "OpTypeSampledImage");
   free(words);
}

static int compile_storage(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   return ctu_compile_with_bindings(words, count, storage_kinds, 7, err, err_size);
}

static int compile_sample(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   return ctu_compile_with_bindings(words, count, sample_kinds, 5, err, err_size);
}

TEST_CASE(corrupted_image_module_never_crashes)
{
   ctu_check_corruptions("image_storage", 7, 300, compile_storage);
   ctu_check_corruptions("image_sample", 11, 300, compile_sample);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
