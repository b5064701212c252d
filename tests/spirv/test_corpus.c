/* Every glslang-compiled corpus module parses, has a GLCompute entry point
 * named "main" with a workgroup size, and its functions are well formed. */
#include <stdlib.h>
#include <string.h>

#include "spirv_test_util.h"
#include "test_harness.h"

TEST_CASE(corpus_has_at_least_25_modules)
{
   char **names;
   const size_t count = spirv_test_corpus(&names);
   CHECK_MSG(count >= 25, "only %zu corpus modules", count);
   spirv_test_free_names(names);
}

TEST_CASE(every_corpus_module_parses_with_a_compute_entry_point)
{
   char **names;
   const size_t count = spirv_test_corpus(&names);
   for (size_t i = 0; i < count; i++) {
      struct spirv_module *m = spirv_test_parse(names[i]);
      if (!m)
         continue;
      const struct spirv_entry_point *ep =
          spirv_find_entry_point(m, "main", SPIRV_EXECUTION_MODEL_GLCompute);
      CHECK_MSG(ep != NULL, "%s: no GLCompute entry point \"main\"", names[i]);
      uint32_t size[3];
      struct spirv_error error;
      if (ep) {
         CHECK_MSG(spirv_entry_point_workgroup_size(m, ep, size, &error), "%s: %s", names[i],
                   error.message);
      }
      CHECK(spirv_module_version(m) == 0x00010500u);
      CHECK(spirv_module_has_capability(m, SPIRV_CAPABILITY_Shader));
      for (uint32_t f = 0; f < spirv_module_function_count(m); f++) {
         const struct spirv_function *fn = spirv_module_function(m, f);
         CHECK(fn->block_count > 0);
         for (uint32_t k = 0; k < fn->block_count; k++) {
            const struct spirv_block *b = spirv_module_block(m, fn->block_first + k);
            CHECK(b->function == f);
            CHECK(b->terminator != SPIRV_NO_INDEX);
         }
      }
      spirv_module_destroy(m);
   }
   spirv_test_free_names(names);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
