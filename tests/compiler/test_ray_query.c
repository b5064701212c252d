/* Ray queries compile to the TTU instruction and the ray query object of
 * hw/include/ppu/ray_query.h (docs/compiler.md "Ray queries"): what the
 * programs contain, checked on the disassembly. Running them needs the
 * TTU; test_ray_query_exec.c does that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "ppu/isa.h"
#include "ppu/ray_query.h"
#include "test_harness.h"

/* Set 0: binding 0 two acceleration structures, 1 and 2 storage buffers
 * (the first binding_count of them). */
static int compile_with(const char *shader, uint32_t binding_count, struct drv_shader_binary *bin,
                        char **text, char *err, size_t err_size)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv(shader, &n);
   if (!words)
      return 1;
   struct drv_binding_layout b[3] = {
       {0, 0, DRV_BINDING_ACCELERATION_STRUCTURE, 0, 2, -1},
       {0, 1, DRV_BINDING_STORAGE_BUFFER, 2 * DRV_DESCRIPTOR_SIZE, 1, -1},
       {0, 2, DRV_BINDING_STORAGE_BUFFER, 3 * DRV_DESCRIPTOR_SIZE, 1, -1},
   };
   struct drv_pipeline_abi abi = {b + 3 - binding_count, binding_count, 8, 0};
   struct drv_compile_request req = {
       .spirv = words, .word_count = n, .entry_point = "main", .abi = &abi, .max_registers = 255};
   int rc = drv_compile_compute(&req, bin, err, err_size);
   free(words);
   if (rc)
      return rc;
   size_t size = (size_t)bin->code_words * 40 + 64;
   *text = malloc(size);
   if (*text)
      ppu_disasm_program(bin->code, (size_t)bin->code_words * 4, *text, size);
   return *text ? 0 : 1;
}

static int compile_shader(const char *shader, struct drv_shader_binary *bin, char **text, char *err,
                          size_t err_size)
{
   return compile_with(shader, 3, bin, text, err, err_size);
}

static unsigned count(const char *text, const char *what)
{
   unsigned n = 0;
   for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
      n++;
   return n;
}

struct expectation {
   const char *shader;
   unsigned init, proceed, confirm, generate, terminate;
   uint32_t min_local; /* bytes: one object per ray query variable */
};

TEST_CASE(each_ray_query_operation_is_one_ttu_instruction)
{
   static const struct expectation cases[] = {
       {"ray_query_closest_hit", 1, 1, 1, 0, 0, PPU_RAY_QUERY_BYTES},
       {"ray_query_aabb_generate", 1, 1, 0, 1, 0, PPU_RAY_QUERY_BYTES},
       /* Two PROCEEDs of the same object with the same operands: neither
        * is merged with the other (they are not pure). */
       {"ray_query_terminate", 1, 2, 1, 0, 1, 2 * PPU_RAY_QUERY_BYTES},
       {"ray_query_convert", 1, 1, 0, 0, 0, PPU_RAY_QUERY_BYTES},
   };
   for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      const struct expectation *e = &cases[k];
      struct drv_shader_binary bin;
      char err[256] = "", *text = NULL;
      int rc = compile_shader(e->shader, &bin, &text, err, sizeof(err));
      CHECK_MSG(rc == 0, "%s: %s", e->shader, err);
      if (rc)
         continue;
      CHECK_MSG(count(text, "TTU.INIT") == e->init && count(text, "TTU.PROCEED") == e->proceed &&
                    count(text, "TTU.CONFIRM") == e->confirm &&
                    count(text, "TTU.GENERATE") == e->generate &&
                    count(text, "TTU.TERMINATE") == e->terminate,
                "%s: unexpected TTU instructions:\n%s", e->shader, text);
      CHECK_MSG(bin.local_memory_size >= e->min_local, "%s: %u bytes of local memory", e->shader,
                bin.local_memory_size);
      if (getenv("VKPPU_DEBUG"))
         fprintf(stderr, "%s\n%s", e->shader, text);
      free(text);
      drv_shader_binary_free(&bin);
   }
}

TEST_CASE(initialize_stores_the_ray_at_the_object_offsets)
{
   struct drv_shader_binary bin;
   char err[256] = "", *text = NULL;
   REQUIRE(compile_shader("ray_query_closest_hit", &bin, &text, err, sizeof(err)) == 0);
   /* The ray query is the first variable in local memory, at offset 0
    * (the others start after its PPU_RAY_QUERY_BYTES), so the stores name
    * ray_query.h's offsets directly. */
   static const uint32_t want[] = {PPU_RQ_OFFSET_FLAGS,         PPU_RQ_OFFSET_CULL_MASK,
                                   PPU_RQ_OFFSET_ORIGIN,        PPU_RQ_OFFSET_ORIGIN + 4,
                                   PPU_RQ_OFFSET_ORIGIN + 8,    PPU_RQ_OFFSET_TMIN,
                                   PPU_RQ_OFFSET_DIRECTION,     PPU_RQ_OFFSET_DIRECTION + 4,
                                   PPU_RQ_OFFSET_DIRECTION + 8, PPU_RQ_OFFSET_TMAX};
   CHECK_MSG(count(text, "ST.LOCAL.U64 [RZ], R") == 1, "tlas address store:\n%s", text);
   for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
      char pattern[48];
      snprintf(pattern, sizeof(pattern), "ST.LOCAL.U32 [RZ+0x%x], R", want[k]);
      CHECK_MSG(count(text, pattern) == 1, "no \"%s\"", pattern);
   }
   /* Getters read the committed record after the loop, the candidate's
    * type inside it. */
   CHECK(PPU_RQ_OFFSET_CANDIDATE == 0xa0 && strstr(text, "LD.LOCAL.U32") &&
         strstr(text, ", [RZ+0xa0]") != NULL);
   CHECK(strstr(text, "LD.LOCAL.U64") != NULL); /* instance_address for the matrices */
   free(text);
   drv_shader_binary_free(&bin);
}

TEST_CASE(acceleration_structure_without_a_binding_is_a_located_error)
{
   struct drv_shader_binary bin;
   char err[256] = "", *text = NULL;
   /* Bindings 1 and 2 only. */
   CHECK(compile_with("ray_query_closest_hit", 2, &bin, &text, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, "compiler: word ") != NULL, "message: %s", err);
   free(text);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
