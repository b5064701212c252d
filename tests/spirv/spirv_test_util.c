#include "spirv_test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"

uint32_t *spirv_test_load(const char *name, size_t *word_count)
{
   char path[512];
   snprintf(path, sizeof(path), "%s/%s.spv", SPIRV_TEST_SHADER_DIR, name);
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   const long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint32_t *words = size > 0 ? malloc((size_t)size) : NULL;
   if (!words || fread(words, 1, (size_t)size, f) != (size_t)size) {
      free(words);
      fclose(f);
      return NULL;
   }
   fclose(f);
   *word_count = (size_t)size / 4;
   return words;
}

struct spirv_module *spirv_test_parse(const char *name)
{
   size_t count = 0;
   uint32_t *words = spirv_test_load(name, &count);
   if (!words) {
      test_fail(__FILE__, __LINE__, "cannot load %s.spv", name);
      return NULL;
   }
   struct spirv_error error;
   struct spirv_module *m = spirv_module_parse(words, count, &error);
   free(words);
   if (!m)
      test_fail(__FILE__, __LINE__, "%s.spv: %s", name, error.message);
   return m;
}

static int compare_names(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t spirv_test_corpus(char ***out)
{
   DIR *dir = opendir(SPIRV_TEST_SHADER_DIR);
   size_t count = 0, capacity = 64;
   char **names = calloc(capacity + 1, sizeof(char *));
   struct dirent *entry;
   while (dir && names && (entry = readdir(dir)) != NULL) {
      const size_t len = strlen(entry->d_name);
      if (len < 5 || strcmp(entry->d_name + len - 4, ".spv") != 0)
         continue;
      if (count == capacity)
         break;
      names[count] = strndup(entry->d_name, len - 4);
      count++;
   }
   if (dir)
      closedir(dir);
   if (names)
      qsort(names, count, sizeof(char *), compare_names);
   *out = names;
   return count;
}

void spirv_test_free_names(char **names)
{
   for (size_t i = 0; names && names[i]; i++)
      free(names[i]);
   free(names);
}

void spirv_builder_begin(struct spirv_builder *b, uint32_t bound)
{
   const uint32_t header[] = {SPIRV_MAGIC_NUMBER, 0x00010500u, 0, bound, 0};
   memcpy(b->words, header, sizeof(header));
   b->count = 5;
   SPIRV_INST(b, SPIRV_OP_Capability, SPIRV_CAPABILITY_Shader);
   SPIRV_INST(b, SPIRV_OP_MemoryModel, SPIRV_ADDRESSING_MODEL_Logical, SPIRV_MEMORY_MODEL_GLSL450);
}

void spirv_builder_inst(struct spirv_builder *b, uint32_t opcode, size_t operand_count,
                        const uint32_t *operands)
{
   if (b->count + 1 + operand_count > sizeof(b->words) / sizeof(b->words[0]))
      return;
   b->words[b->count++] = (uint32_t)((operand_count + 1) << 16) | opcode;
   for (size_t i = 0; i < operand_count; i++)
      b->words[b->count++] = operands[i];
}

size_t spirv_pack_string(const char *s, uint32_t *out)
{
   const size_t len = strlen(s) + 1, words = (len + 3) / 4;
   memset(out, 0, words * 4);
   for (size_t i = 0; i < len; i++)
      out[i / 4] |= (uint32_t)(unsigned char)s[i] << (8 * (i % 4));
   return words;
}

void spirv_build_minimal_compute(struct spirv_builder *b, void (*body)(struct spirv_builder *b))
{
   spirv_builder_begin(b, 16);
   uint32_t ep[8] = {SPIRV_EXECUTION_MODEL_GLCompute, 3};
   const size_t n = 2 + spirv_pack_string("main", ep + 2);
   spirv_builder_inst(b, SPIRV_OP_EntryPoint, n, ep);
   SPIRV_INST(b, SPIRV_OP_ExecutionMode, 3, SPIRV_EXECUTION_MODE_LocalSize, 8, 4, 1);
   SPIRV_INST(b, SPIRV_OP_TypeVoid, 1);
   SPIRV_INST(b, SPIRV_OP_TypeFunction, 2, 1);
   SPIRV_INST(b, SPIRV_OP_TypeInt, 5, 32, 0);
   SPIRV_INST(b, SPIRV_OP_Constant, 5, 6, 7);
   SPIRV_INST(b, SPIRV_OP_Function, 1, 3, 0, 2);
   SPIRV_INST(b, SPIRV_OP_Label, 4);
   if (body)
      body(b);
   SPIRV_INST0(b, SPIRV_OP_Return);
   SPIRV_INST0(b, SPIRV_OP_FunctionEnd);
}
