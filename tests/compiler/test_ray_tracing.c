/* drv_compile_ray_tracing on the stages of tests/api/shaders/rt_basic.*:
 * the pipeline compiles into one program for an 8 x 4 workgroup with a
 * frame on the call stack for each stage; a callable that calls itself
 * compiles (its frames stack up at run time); corrupted and truncated
 * stages, groups naming stages of the wrong kind and a missing raygen
 * shader fail with a message and never crash (ASan/UBSan run these).
 * Execution is tested through the API (tests/api/test_ray_tracing_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

#define STAGES 6
static const struct {
   const char *file;
   enum drv_rt_stage_kind kind;
} files[STAGES] = {
    {"rt_basic.rgen", DRV_RT_STAGE_RAYGEN},       {"rt_basic.rmiss", DRV_RT_STAGE_MISS},
    {"rt_basic.rchit", DRV_RT_STAGE_CLOSEST_HIT}, {"rt_basic.rahit", DRV_RT_STAGE_ANY_HIT},
    {"rt_basic.rint", DRV_RT_STAGE_INTERSECTION}, {"rt_basic.rcall", DRV_RT_STAGE_CALLABLE},
};
#define U DRV_RT_UNUSED
/* As test_ray_tracing_pipeline.c: raygen, miss, triangles, triangles with
 * any-hit, procedural, callable. */
static const struct drv_rt_group groups[6] = {
    {0, U, U, U}, {1, U, U, U}, {U, 2, U, U}, {U, 2, 3, U}, {U, 2, U, 4}, {5, U, U, U},
};

static uint32_t *load(const char *file, size_t *count)
{
   char path[512];
   snprintf(path, sizeof(path), "%s/%s.spv", RT_SHADER_DIR, file);
   FILE *f = fopen(path, "rb");
   uint32_t *words = NULL;
   long size = -1;
   if (f && fseek(f, 0, SEEK_END) == 0)
      size = ftell(f);
   if (f && size > 0 && fseek(f, 0, SEEK_SET) == 0) {
      words = malloc((size_t)size);
      if (words && fread(words, 1, (size_t)size, f) != (size_t)size) {
         free(words);
         words = NULL;
      }
   }
   if (f)
      fclose(f);
   if (!words)
      test_fail(__FILE__, __LINE__, "cannot read %s", path);
   *count = words ? (size_t)size / 4 : 0;
   return words;
}

struct pipeline {
   uint32_t *words[STAGES];
   struct drv_rt_stage stages[STAGES];
};

static bool pipeline_load(struct pipeline *p)
{
   memset(p, 0, sizeof(*p));
   for (int i = 0; i < STAGES; i++) {
      p->words[i] = load(files[i].file, &p->stages[i].word_count);
      p->stages[i].spirv = p->words[i];
      p->stages[i].entry_point = "main";
      p->stages[i].kind = files[i].kind;
      if (!p->words[i])
         return false;
   }
   return true;
}

static void pipeline_free(struct pipeline *p)
{
   for (int i = 0; i < STAGES; i++)
      free(p->words[i]);
}

/* max_registers for compile(); the device's 255 unless a case lowers it. */
static uint32_t register_limit = 255;

static int compile(const struct drv_rt_stage *stages, uint32_t stage_count,
                   const struct drv_rt_group *g, uint32_t group_count,
                   struct drv_shader_binary *bin, uint32_t *stack_bytes, char *err, size_t err_size)
{
   struct drv_binding_layout b[3] = {
       {0, 0, DRV_BINDING_ACCELERATION_STRUCTURE, 0, 1, -1},
       {0, 1, DRV_BINDING_STORAGE_BUFFER, 16, 1, -1},
       {0, 2, DRV_BINDING_STORAGE_BUFFER, 32, 1, -1},
   };
   struct drv_pipeline_abi abi = {.bindings = b, .binding_count = 3, .push_constant_size = 4};
   struct drv_rt_compile_request req = {.stages = stages,
                                        .stage_count = stage_count,
                                        .groups = g,
                                        .group_count = group_count,
                                        .max_recursion_depth = 1,
                                        .abi = &abi,
                                        .max_registers = register_limit,
                                        .stage_stack_bytes = stack_bytes};
   struct drv_shader_binary local;
   struct drv_shader_binary *out = bin ? bin : &local;
   int rc = drv_compile_ray_tracing(&req, out, err, err_size);
   if (!rc && !bin)
      drv_shader_binary_free(out);
   return rc;
}

TEST_CASE(a_pipeline_of_every_stage_is_one_program)
{
   struct pipeline p;
   if (pipeline_load(&p)) {
      struct drv_shader_binary bin;
      char err[256] = "";
      uint32_t stack[STAGES];
      memset(stack, 0xff, sizeof(stack));
      int rc = compile(p.stages, STAGES, groups, 6, &bin, stack, err, sizeof(err));
      CHECK_MSG(rc == 0, "compile: %s", err);
      if (rc == 0) {
         CHECK(bin.code_words > 0 && bin.register_count > 0);
         CHECK(bin.workgroup_size[0] == DRV_RT_WORKGROUP_X &&
               bin.workgroup_size[1] == DRV_RT_WORKGROUP_Y && bin.workgroup_size[2] == 1);
         /* Below the stack: the stack slot and the root's frame header. */
         CHECK_MSG(bin.local_memory_size >= 48 && bin.local_memory_size < 1024 &&
                       bin.local_memory_size % 16 == 0,
                   "local memory %u", bin.local_memory_size);
         /* Every stage has a frame of 16-byte multiples with its 32-byte
          * header; the raygen traces, so it holds a trace frame (the
          * 1 KiB ray-query object); the closest-hit shader calls a
          * callable, so it saves registers but holds no trace frame. */
         for (int s = 0; s < STAGES; s++)
            CHECK_MSG(stack[s] >= 32 && stack[s] % 16 == 0 && stack[s] < 16384,
                      "%s: frame of %u bytes", files[s].file, stack[s]);
         CHECK_MSG(stack[0] > 1024, "raygen frame %u", stack[0]);
         CHECK_MSG(stack[2] < 1024, "closest-hit frame %u", stack[2]);
         drv_shader_binary_free(&bin);
      }
   }
   pipeline_free(&p);
}

TEST_CASE(corrupted_stages_never_crash)
{
   struct pipeline p;
   if (pipeline_load(&p)) {
      uint32_t seed = 7;
      for (int stage = 0; stage < STAGES; stage++) {
         size_t n = p.stages[stage].word_count;
         uint32_t *copy = malloc(n * 4);
         REQUIRE(copy);
         for (int iter = 0; iter < 60; iter++) {
            memcpy(copy, p.words[stage], n * 4);
            for (int k = 0; k < 3; k++) {
               seed = seed * 1103515245u + 12345u;
               size_t at = 5 + (seed >> 4) % (n - 5);
               seed = seed * 1103515245u + 12345u;
               copy[at] ^= 1u << (seed % 32);
            }
            struct drv_rt_stage stages[STAGES];
            memcpy(stages, p.stages, sizeof(stages));
            stages[stage].spirv = copy;
            char err[256] = "";
            if (compile(stages, STAGES, groups, 6, NULL, NULL, err, sizeof(err)))
               CHECK_MSG(err[0], "%s iteration %d: an error without a message", files[stage].file,
                         iter);
         }
         free(copy);
      }
   }
   pipeline_free(&p);
}

TEST_CASE(truncated_stages_fail_cleanly)
{
   struct pipeline p;
   if (pipeline_load(&p)) {
      size_t n = p.stages[2].word_count;
      for (size_t len = 0; len < n; len += 7) {
         struct drv_rt_stage stages[STAGES];
         memcpy(stages, p.stages, sizeof(stages));
         stages[2].word_count = len;
         char err[256] = "";
         CHECK_MSG(compile(stages, STAGES, groups, 6, NULL, NULL, err, sizeof(err)) != 0 && err[0],
                   "closest hit truncated at %zu words", len);
      }
   }
   pipeline_free(&p);
}

TEST_CASE(wrong_groups_and_missing_raygen_are_errors)
{
   struct pipeline p;
   if (pipeline_load(&p)) {
      char err[256] = "";
      /* A closest-hit slot naming the miss shader. */
      struct drv_rt_group bad[2] = {{0, U, U, U}, {U, 1, U, U}};
      CHECK(compile(p.stages, STAGES, bad, 2, NULL, NULL, err, sizeof(err)) != 0);
      CHECK_MSG(strstr(err, "wrong kind") != NULL, "message: %s", err);
      /* An index beyond the stages. */
      struct drv_rt_group beyond[1] = {{9, U, U, U}};
      CHECK(compile(p.stages, STAGES, beyond, 1, NULL, NULL, err, sizeof(err)) != 0);
      /* No raygen stage at all. */
      CHECK(compile(p.stages + 1, 1, NULL, 0, NULL, NULL, err, sizeof(err)) != 0);
      CHECK_MSG(strstr(err, "raygen") != NULL, "message: %s", err);
      /* A raygen stage whose module has no RayGeneration entry point. */
      struct drv_rt_stage wrong = p.stages[1];
      wrong.kind = DRV_RT_STAGE_RAYGEN;
      CHECK(compile(&wrong, 1, NULL, 0, NULL, NULL, err, sizeof(err)) != 0);
      CHECK_MSG(strstr(err, "entry point") != NULL, "message: %s", err);
   }
   pipeline_free(&p);
}

TEST_CASE(a_callable_calling_itself_compiles)
{
   struct pipeline p;
   size_t n = 0;
   uint32_t *selfcall = load("rt_selfcall.rcall", &n);
   if (pipeline_load(&p) && selfcall) {
      struct drv_rt_stage stages[STAGES];
      memcpy(stages, p.stages, sizeof(stages));
      stages[5].spirv = selfcall;
      stages[5].word_count = n;
      char err[256] = "";
      uint32_t stack[STAGES] = {0};
      CHECK_MSG(compile(stages, STAGES, groups, 6, NULL, stack, err, sizeof(err)) == 0,
                "compile: %s", err);
      /* It saves what it uses after its own call. */
      CHECK_MSG(stack[5] > 32, "callable frame %u", stack[5]);
   }
   free(selfcall);
   pipeline_free(&p);
}

/* One register fewer than the program takes: the compiler retries saving
 * around every call (values live across calls then need not stay out of
 * the callees' registers), then keeping locals in memory too. Either way
 * the pipeline still compiles, within the limit, and the raygen's frame
 * grows by the registers it now saves around its trace. */
TEST_CASE(fewer_registers_trade_for_stack)
{
   struct pipeline p;
   if (pipeline_load(&p)) {
      char err[256] = "";
      struct drv_shader_binary bin;
      uint32_t stack[STAGES] = {0}, fewer[STAGES] = {0};
      REQUIRE(compile(p.stages, STAGES, groups, 6, &bin, stack, err, sizeof(err)) == 0);
      uint32_t full = bin.register_count;
      drv_shader_binary_free(&bin);
      register_limit = full - 1;
      int rc = compile(p.stages, STAGES, groups, 6, &bin, fewer, err, sizeof(err));
      register_limit = 255;
      CHECK_MSG(rc == 0, "%u registers: %s", full - 1, err);
      if (rc == 0) {
         CHECK_MSG(bin.register_count < full, "%u registers, %u before", bin.register_count, full);
         CHECK_MSG(fewer[0] > stack[0], "raygen frame %u, %u before", fewer[0], stack[0]);
         drv_shader_binary_free(&bin);
      }
   }
   pipeline_free(&p);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
