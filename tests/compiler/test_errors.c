/* Malformed and unsupported SPIR-V: drv_compile_compute reports an error
 * with a message and never crashes (run under ASan/UBSan in CI). */
#include <dirent.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_test_util.h"
#include "test_harness.h"

static int compile(const uint32_t *words, size_t count, const char *entry, uint32_t max_regs,
                   char *err, size_t err_size)
{
   struct drv_pipeline_abi abi = {0};
   struct drv_binding_layout b = {0, 0, DRV_BINDING_STORAGE_BUFFER, 0, 1, -1};
   abi.bindings = &b;
   abi.binding_count = 1;
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = count,
                                     .entry_point = entry,
                                     .abi = &abi,
                                     .max_registers = max_regs};
   struct drv_shader_binary bin;
   int rc = drv_compile_compute(&req, &bin, err, err_size);
   if (!rc)
      drv_shader_binary_free(&bin);
   return rc;
}

TEST_CASE(garbage_words_are_rejected_with_a_message)
{
   uint32_t junk[64];
   for (int i = 0; i < 64; i++)
      junk[i] = 0xdeadbeefu * (uint32_t)(i + 1);
   char err[256] = "";
   CHECK(compile(junk, 64, "main", 255, err, sizeof(err)) != 0);
   CHECK_MSG(strlen(err) > 0, "no message");
   CHECK(compile(NULL, 0, "main", 255, err, sizeof(err)) != 0);
   CHECK(strstr(err, "empty") != NULL);
}

TEST_CASE(every_truncation_of_a_valid_module_fails_cleanly)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("nested_loops", &n);
   REQUIRE(words);
   char err[256];
   for (size_t len = 0; len < n; len++) {
      err[0] = '\0';
      int rc = compile(words, len, "main", 255, err, sizeof(err));
      CHECK_MSG(rc != 0 && err[0], "truncated at %zu words: rc %d", len, rc);
   }
   CHECK(compile(words, n, "main", 255, err, sizeof(err)) == 0);
   free(words);
}

static int compile_main(const uint32_t *words, size_t count, char *err, size_t err_size)
{
   return compile(words, count, "main", 255, err, err_size);
}

TEST_CASE(corrupted_words_never_crash)
{
   ctu_check_corruptions("function_calls", 1, 300, compile_main);
}

TEST_CASE(unsupported_feature_names_the_instruction)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("image_query_lod", &n);
   REQUIRE(words);
   char err[256] = "";
   CHECK(compile(words, n, "main", 255, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, "compiler: word") != NULL, "message: %s", err);
   free(words);
}

TEST_CASE(workgroup_initializer_other_than_null_is_refused)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("workgroup_initializer_nonnull", &n);
   REQUIRE(words);
   char err[256] = "";
   CHECK(compile(words, n, "main", 255, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, "OpConstantNull") != NULL, "message: %s", err);
   free(words);
}

TEST_CASE(missing_entry_point_is_an_error)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("int_arith", &n);
   REQUIRE(words);
   char err[256] = "";
   CHECK(compile(words, n, "not_main", 255, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, "not_main") != NULL, "message: %s", err);
   free(words);
}

TEST_CASE(register_limit_is_reported_not_exceeded)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("many_live_values", &n);
   REQUIRE(words);
   char err[256] = "";
   CHECK(compile(words, n, "main", 4, err, sizeof(err)) != 0);
   CHECK_MSG(strstr(err, "registers") != NULL, "message: %s", err);
   CHECK(compile(words, n, "main", 64, err, sizeof(err)) == 0);
   free(words);
}

TEST_CASE(debug_flags_print_ir_and_disassembly)
{
   size_t n = 0;
   uint32_t *words = ctu_load_spirv("if_else_divergent", &n);
   REQUIRE(words);
   FILE *capture = tmpfile();
   REQUIRE(capture);
   fflush(stderr);
   int saved = dup(2);
   dup2(fileno(capture), 2);
   struct drv_pipeline_abi abi = {0};
   struct drv_binding_layout b = {0, 0, DRV_BINDING_STORAGE_BUFFER, 0, 1, -1};
   abi.bindings = &b;
   abi.binding_count = 1;
   struct drv_compile_request req = {.spirv = words,
                                     .word_count = n,
                                     .entry_point = "main",
                                     .abi = &abi,
                                     .max_registers = 255,
                                     .debug_flags =
                                         DRV_COMPILE_DEBUG_PRINT_IR | DRV_COMPILE_DEBUG_PRINT_ISA};
   struct drv_shader_binary bin;
   char err[256];
   int rc = drv_compile_compute(&req, &bin, err, sizeof(err));
   fflush(stderr);
   dup2(saved, 2);
   close(saved);
   CHECK(rc == 0);
   if (!rc)
      drv_shader_binary_free(&bin);
   static char text[65536];
   rewind(capture);
   size_t len = fread(text, 1, sizeof(text) - 1, capture);
   text[len] = '\0';
   fclose(capture);
   CHECK_MSG(strstr(text, "IR of \"main\"") != NULL, "no IR printed");
   CHECK_MSG(strstr(text, "SSY") != NULL && strstr(text, "EXIT") != NULL, "no disassembly");
   free(words);
}

#ifdef SPIRV_CORPUS_DIR
TEST_CASE(front_end_corpus_compiles_or_fails_with_a_message)
{
   DIR *dir = opendir(SPIRV_CORPUS_DIR);
   REQUIRE(dir);
   struct dirent *ent;
   int files = 0;
   while ((ent = readdir(dir))) {
      size_t len = strlen(ent->d_name);
      if (len < 5 || strcmp(ent->d_name + len - 4, ".spv"))
         continue;
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", SPIRV_CORPUS_DIR, ent->d_name);
      FILE *f = fopen(path, "rb");
      if (!f)
         continue;
      fseek(f, 0, SEEK_END);
      long size = ftell(f);
      fseek(f, 0, SEEK_SET);
      uint32_t *words = malloc(size > 0 ? (size_t)size : 4);
      if (words && size > 0 && fread(words, 1, (size_t)size, f) == (size_t)size) {
         char err[256] = "";
         if (compile(words, (size_t)size / 4, "main", 255, err, sizeof(err)))
            CHECK_MSG(err[0], "%s: error without a message", ent->d_name);
         files++;
      }
      free(words);
      fclose(f);
   }
   closedir(dir);
   CHECK(files > 10);
}
#endif

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
