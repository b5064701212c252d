/* SPV_KHR_ray_query: the corpus module ray_query.comp (every ray query
 * instruction) parses, and each misuse of an operand or result type is
 * rejected with a message naming the instruction's word offset. The
 * negative cases edit single words of the glslang output, so they stay
 * realistic modules with one thing wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

#define SHADER "ray_query"

/* Word offset of the n-th instruction with opcode (0 when absent). */
static size_t find_inst(const uint32_t *w, size_t count, uint32_t opcode, unsigned n)
{
   for (size_t at = 5; at < count && (w[at] >> 16); at += w[at] >> 16)
      if ((w[at] & 0xffffu) == opcode && n-- == 0)
         return at;
   return 0;
}

/* The result id of the first instruction with opcode whose words
 * [1..] start with the given operands (0 = any). */
static uint32_t find_result(const uint32_t *w, size_t count, uint32_t opcode, size_t result_word,
                            size_t match_word, uint32_t match_value)
{
   for (unsigned n = 0;; n++) {
      size_t at = find_inst(w, count, opcode, n);
      if (!at)
         return 0;
      if (!match_word || w[at + match_word] == match_value)
         return w[at + result_word];
   }
}

static void expect_error_at(const uint32_t *w, size_t count, size_t at, const char *substring,
                            const char *test)
{
   char located[64];
   snprintf(located, sizeof(located), "spirv: word %zu (", at);
   struct spirv_error error;
   struct spirv_module *m = spirv_module_parse(w, count, &error);
   CHECK_MSG(m == NULL, "%s: parsed but should fail", test);
   spirv_module_destroy(m);
   if (m)
      return;
   CHECK_MSG(strstr(error.message, located) != NULL && strstr(error.message, substring) != NULL,
             "%s: message \"%s\" lacks \"%s\" or \"%s\"", test, error.message, located, substring);
}

TEST_CASE(every_ray_query_instruction_parses)
{
   struct spirv_module *m = spirv_test_parse(SHADER);
   REQUIRE(m);
   CHECK(spirv_module_has_capability(m, SPIRV_CAPABILITY_RayQueryKHR));
   static const uint32_t opcodes[] = {
       SPIRV_OP_ConvertUToAccelerationStructureKHR,
       SPIRV_OP_RayQueryInitializeKHR,
       SPIRV_OP_RayQueryTerminateKHR,
       SPIRV_OP_RayQueryGenerateIntersectionKHR,
       SPIRV_OP_RayQueryConfirmIntersectionKHR,
       SPIRV_OP_RayQueryProceedKHR,
       SPIRV_OP_RayQueryGetIntersectionTypeKHR,
       SPIRV_OP_RayQueryGetRayTMinKHR,
       SPIRV_OP_RayQueryGetRayFlagsKHR,
       SPIRV_OP_RayQueryGetIntersectionTKHR,
       SPIRV_OP_RayQueryGetIntersectionInstanceCustomIndexKHR,
       SPIRV_OP_RayQueryGetIntersectionInstanceIdKHR,
       SPIRV_OP_RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
       SPIRV_OP_RayQueryGetIntersectionGeometryIndexKHR,
       SPIRV_OP_RayQueryGetIntersectionPrimitiveIndexKHR,
       SPIRV_OP_RayQueryGetIntersectionBarycentricsKHR,
       SPIRV_OP_RayQueryGetIntersectionFrontFaceKHR,
       SPIRV_OP_RayQueryGetIntersectionCandidateAABBOpaqueKHR,
       SPIRV_OP_RayQueryGetIntersectionObjectRayDirectionKHR,
       SPIRV_OP_RayQueryGetIntersectionObjectRayOriginKHR,
       SPIRV_OP_RayQueryGetWorldRayDirectionKHR,
       SPIRV_OP_RayQueryGetWorldRayOriginKHR,
       SPIRV_OP_RayQueryGetIntersectionObjectToWorldKHR,
       SPIRV_OP_RayQueryGetIntersectionWorldToObjectKHR,
   };
   for (size_t k = 0; k < sizeof(opcodes) / sizeof(opcodes[0]); k++) {
      bool found = false;
      for (uint32_t i = 0; i < spirv_module_inst_count(m) && !found; i++)
         found = spirv_module_inst(m, i)->opcode == opcodes[k];
      CHECK_MSG(found, "opcode %u missing from the corpus module", opcodes[k]);
   }
   /* The types: a ray query array in Private storage, an array of
    * acceleration structures in UniformConstant storage. */
   bool ray_query = false, accel = false;
   for (uint32_t i = 0; i < spirv_module_inst_count(m); i++) {
      const struct spirv_inst *inst = spirv_module_inst(m, i);
      const struct spirv_type *t = spirv_type(m, inst->result_id);
      ray_query |= t && t->kind == SPIRV_TYPE_RAY_QUERY;
      accel |= t && t->kind == SPIRV_TYPE_ACCELERATION_STRUCTURE;
   }
   CHECK(ray_query && accel);
   spirv_module_destroy(m);
}

/* Loads the module; w[at] is the n-th instruction with opcode. */
static uint32_t *load_at(uint32_t opcode, unsigned n, size_t *count, size_t *at)
{
   uint32_t *w = spirv_test_load(SHADER, count);
   if (!w)
      return NULL;
   *at = find_inst(w, *count, opcode, n);
   if (!*at) {
      free(w);
      return NULL;
   }
   return w;
}

TEST_CASE(intersection_operand_must_be_a_constant_zero_or_one)
{
   size_t n, at;
   uint32_t *w = load_at(SPIRV_OP_RayQueryGetIntersectionTKHR, 0, &n, &at);
   REQUIRE(w);
   /* OpRayQueryGetIntersectionTKHR %float %id %query %intersection */
   uint32_t intersection = w[at + 4];
   w[at + 4] = w[at + 3]; /* the query pointer: not a constant */
   expect_error_at(w, n, at, "is not a constant 32-bit integer 0 or 1", __func__);
   uint32_t cull_mask = find_result(w, n, SPIRV_OP_Constant, 2, 3, 0xff);
   REQUIRE(cull_mask);
   w[at + 4] = cull_mask;
   expect_error_at(w, n, at, "is 255, not 0 (candidate) or 1 (committed)", __func__);
   /* The same constant made a spec constant: its value could change after
    * the compiler picked the hit record. */
   w[at + 4] = intersection;
   for (unsigned k = 0;; k++) {
      size_t def = find_inst(w, n, SPIRV_OP_Constant, k);
      REQUIRE(def);
      if (w[def + 2] == intersection) {
         w[def] = (w[def] & 0xffff0000u) | SPIRV_OP_SpecConstant;
         break;
      }
   }
   /* Reported at the first getter that uses it, in module order. */
   size_t first = 0;
   for (size_t k = 5; k < n && (w[k] >> 16) && !first; k += w[k] >> 16) {
      uint32_t op = w[k] & 0xffffu;
      bool getter = op == SPIRV_OP_RayQueryGetIntersectionTypeKHR ||
                    (op >= SPIRV_OP_RayQueryGetRayTMinKHR &&
                     op <= SPIRV_OP_RayQueryGetIntersectionWorldToObjectKHR);
      if (getter && (w[k] >> 16) == 5 && w[k + 4] == intersection)
         first = k;
   }
   REQUIRE(first);
   expect_error_at(w, n, first, "is not a constant", __func__);
   free(w);
}

/* One-word edits: word `word` of the first instruction with `opcode`
 * becomes `value`, or word (value & ~SAME_INST) of that same instruction
 * when value has SAME_INST set. */
#define SAME_INST 0x80000000u
struct edit {
   uint32_t opcode;
   size_t word;
   uint32_t value;
   const char *message;
};

static void expect_edits(const struct edit *edits, size_t count, const char *test)
{
   for (size_t k = 0; k < count; k++) {
      const struct edit *e = &edits[k];
      size_t n, at;
      uint32_t *w = load_at(e->opcode, 0, &n, &at);
      CHECK_MSG(w, "%s: edit %zu: opcode %u not found", test, k, e->opcode);
      if (!w)
         continue;
      w[at + e->word] = (e->value & SAME_INST) ? w[at + (e->value & ~SAME_INST)] : e->value;
      expect_error_at(w, n, at, e->message, test);
      free(w);
   }
}

TEST_CASE(operand_and_result_types_are_checked)
{
   size_t n;
   uint32_t *w = spirv_test_load(SHADER, &n);
   REQUIRE(w);
   uint32_t buffer = find_result(w, n, SPIRV_OP_Variable, 2, 3, SPIRV_STORAGE_CLASS_StorageBuffer);
   uint32_t uint_type = find_result(w, n, SPIRV_OP_TypeInt, 1, 3, 0);
   uint32_t vec3 = find_result(w, n, SPIRV_OP_TypeVector, 1, 3, 3);
   uint32_t cull_mask = find_result(w, n, SPIRV_OP_Constant, 2, 3, 0xff);
   free(w);
   REQUIRE(buffer && uint_type && vec3 && cull_mask);
   const struct edit edits[] = {
       /* OpRayQueryProceedKHR %bool %id %query: the storage buffer variable
        * as the query, then a uint result. */
       {SPIRV_OP_RayQueryProceedKHR, 3, buffer, "which is not a pointer to OpTypeRayQueryKHR"},
       {SPIRV_OP_RayQueryProceedKHR, 1, uint_type, "is not a bool"},
       /* OpRayQueryInitializeKHR %query %accel %flags %cull %origin %tmin %dir %tmax */
       {SPIRV_OP_RayQueryInitializeKHR, 5, SAME_INST | 6, "operand 5 (%"}, /* origin := tmin */
       {SPIRV_OP_RayQueryInitializeKHR, 5, SAME_INST | 6,
        "which is not a vector of 3 32-bit floats"},
       {SPIRV_OP_RayQueryInitializeKHR, 2, SAME_INST | 3,
        "which is not an OpTypeAccelerationStructureKHR"}, /* accel := flags */
       {SPIRV_OP_RayQueryGetIntersectionObjectToWorldKHR, 1, vec3,
        "is not a matrix of 4 columns of 3 32-bit floats"},
       /* A 32-bit scalar as the address. */
       {SPIRV_OP_ConvertUToAccelerationStructureKHR, 3, cull_mask,
        "neither a 64-bit integer nor a vector of two 32-bit integers"},
   };
   expect_edits(edits, sizeof(edits) / sizeof(edits[0]), __func__);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
