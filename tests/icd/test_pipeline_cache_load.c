/* The pipeline cache trusts nothing it loads (icd/pipeline_cache.c): a blob
 * whose entries carry correct digests still has each program checked as a
 * fresh compile's output is (icd/compute_program_check.c), so an entry
 * with an illegal instruction, a register beyond its register count, a
 * branch out of the program or a workgroup too large for the QMD is
 * dropped; an entry whose digest does not match its code is dropped; a
 * legal one is kept. Called straight into the driver, so the entries can be
 * put in the cache without the compiler. */
#include <stdlib.h>
#include <string.h>

#include "icd_test_device.h"
#include "ppu/isa.h"
#include "test_harness.h"
#include "vkppu_pipeline.h"

#define PAYLOAD_START 56u /* spec header 32 + payload header 24 */

struct rig {
   VkInstance instance;
   VkDevice device;
};

static bool rig_init(struct rig *r)
{
   memset(r, 0, sizeof(*r));
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
   if (vkppu_CreateInstance(&ici, NULL, &r->instance) != VK_SUCCESS)
      return false;
   return icd_test_device_create(r->instance, &r->device);
}

static void rig_finish(struct rig *r)
{
   if (r->device)
      vkppu_DestroyDevice(r->device, NULL);
   if (r->instance)
      vkppu_DestroyInstance(r->instance, NULL);
}

/* MOV R<rd>, 5 then BRA <target> (bytes) then EXIT. */
static void program(uint32_t code[12], uint8_t rd, uint32_t target)
{
   struct ppu_insn_fields f;
   ppu_insn_fields_init(&f, PPU_OP_MOV);
   f.type = PPU_TYPE_U32;
   f.rd = rd;
   f.b_imm = true;
   f.imm = 5;
   ppu_insn_encode(&f, code);
   ppu_insn_fields_init(&f, PPU_OP_BRA);
   f.type = PPU_TYPE_U32;
   f.imm = target;
   ppu_insn_encode(&f, code + 4);
   ppu_insn_fields_init(&f, PPU_OP_EXIT);
   f.type = PPU_TYPE_U32;
   ppu_insn_encode(&f, code + 8);
}

static struct vkppu_program_key key_of(uint8_t n)
{
   struct vkppu_program_key k;
   memset(k.digest, n, sizeof(k.digest));
   return k;
}

/* A blob holding one program, as vkGetPipelineCacheData writes it (so its
 * digests are right). The caller frees it. */
static uint8_t *blob_with(struct rig *r, const struct vkppu_program_info *info,
                          const uint32_t *code, size_t *size)
{
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache = VK_NULL_HANDLE;
   if (vkppu_CreatePipelineCache(r->device, &ci, NULL, &cache) != VK_SUCCESS)
      return NULL;
   struct vkppu_program_key key = key_of(7);
   vkppu_pipeline_cache_insert(vkppu_pipeline_cache_from_handle(cache), &key, info, code);
   *size = 0;
   vkppu_GetPipelineCacheData(r->device, cache, size, NULL);
   uint8_t *data = malloc(*size);
   if (data && vkppu_GetPipelineCacheData(r->device, cache, size, data) != VK_SUCCESS) {
      free(data);
      data = NULL;
   }
   vkppu_DestroyPipelineCache(r->device, cache, NULL);
   return data;
}

/* Entries a cache created from the blob keeps. */
static uint32_t entries_kept(struct rig *r, const uint8_t *data, size_t size)
{
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                   .initialDataSize = size,
                                   .pInitialData = data};
   VkPipelineCache cache = VK_NULL_HANDLE;
   if (vkppu_CreatePipelineCache(r->device, &ci, NULL, &cache) != VK_SUCCESS) {
      test_fail(__FILE__, __LINE__, "vkCreatePipelineCache failed");
      return UINT32_MAX;
   }
   uint32_t n = vkppu_pipeline_cache_from_handle(cache)->entry_count;
   vkppu_DestroyPipelineCache(r->device, cache, NULL);
   return n;
}

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < n; i++) {
      h ^= p[i];
      h *= 0x100000001b3ull;
   }
   return h;
}

TEST_CASE(cached_programs_are_checked_like_fresh_compiles)
{
   struct rig r;
   REQUIRE(rig_init(&r));
   uint32_t code[12];
   const struct vkppu_program_info legal = {
       .code_words = 12, .register_count = 8, .workgroup_size = {64, 1, 1}};
   struct {
      const char *what;
      uint8_t rd;
      uint32_t target;
      struct vkppu_program_info info;
      uint32_t kept;
   } cases[] = {
       {"a legal program", 3, 32, legal, 1},
       {"a register beyond the register count", 8, 32, legal, 0},
       {"a branch past the program", 3, 48, legal, 0},
       {"a workgroup over the QMD limit",
        3,
        32,
        {.code_words = 12, .register_count = 8, .workgroup_size = {2048, 1, 1}},
        0},
       {"a workgroup that does not fit one SM's registers",
        3,
        32,
        {.code_words = 12, .register_count = 255, .workgroup_size = {1024, 1, 1}},
        0},
       {"shared memory over the SM's",
        3,
        32,
        {.code_words = 12,
         .register_count = 8,
         .shared_memory_size = VKPPU_SM_SHARED_MEMORY + 4,
         .workgroup_size = {64, 1, 1}},
        0},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      program(code, cases[i].rd, cases[i].target);
      size_t size = 0;
      uint8_t *data = blob_with(&r, &cases[i].info, code, &size);
      CHECK_MSG(data && size > PAYLOAD_START, "%s: no cache data", cases[i].what);
      if (!data)
         continue;
      uint32_t kept = entries_kept(&r, data, size);
      CHECK_MSG(kept == cases[i].kept, "%s: %u entries kept, want %u", cases[i].what, kept,
                cases[i].kept);
      free(data);
   }

   /* The legal program with its code changed and the blob's checksum
    * recomputed: its entry digest no longer matches. */
   program(code, 3, 32);
   size_t size = 0;
   uint8_t *data = blob_with(&r, &legal, code, &size);
   REQUIRE(data);
   data[size - 4 * 4 * 3 + 8] ^= 1; /* the MOV's immediate, 5 -> 4 */
   uint64_t sum = fnv1a64(data + PAYLOAD_START, size - PAYLOAD_START);
   memcpy(data + PAYLOAD_START - 8, &sum, 8);
   CHECK_EQ_U64(entries_kept(&r, data, size), 0);
   free(data);
   rig_finish(&r);
}

int main(int argc, char **argv)
{
   return test_run_all(argc, argv);
}
