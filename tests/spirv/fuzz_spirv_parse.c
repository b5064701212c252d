/* libFuzzer target for the SPIR-V front end. Input bytes are taken as
 * little-endian words; modules that parse are run through the queries a
 * compiler makes and through specialization with values taken from the
 * input's tail. Seed it with the corpus in <build>/tests/spirv/shaders. */
#include <stdlib.h>
#include <string.h>

#include "spirv_module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const size_t word_count = size / 4;
   uint32_t *words = malloc(word_count ? word_count * 4 : 4);
   if (!words)
      return 0;
   memcpy(words, data, word_count * 4);
   struct spirv_error error;
   struct spirv_module *m = spirv_module_parse(words, word_count, &error);
   free(words);
   if (!m)
      return 0;
   for (uint32_t i = 0; i < spirv_module_entry_point_count(m); i++) {
      uint32_t wg[3];
      spirv_entry_point_workgroup_size(m, spirv_module_entry_point(m, i), wg, &error);
   }
   for (uint32_t id = 1; id < spirv_module_bound(m); id++) {
      const struct spirv_type *t = spirv_type(m, id);
      uint64_t bytes;
      if (!t)
         continue;
      spirv_explicit_type_size(m, id, 16, true, &bytes);
      for (uint32_t k = 0; t->kind == SPIRV_TYPE_STRUCT && k < t->u.structure.member_count; k++) {
         struct spirv_member_layout layout;
         spirv_struct_member_layout(m, id, k, &layout);
      }
   }
   const struct spirv_specialization_entry entries[] = {{0, 0, 4}, {1, 4, 4}, {2, 0, 8}};
   uint8_t values[8] = {0};
   memcpy(values, data + size - (size < 8 ? size : 8), size < 8 ? size : 8);
   spirv_module_specialize(m, entries, 3, values, sizeof(values), &error);
   spirv_module_destroy(m);
   return 0;
}
