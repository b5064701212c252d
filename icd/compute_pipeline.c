/* vkCreateComputePipelines and vkDestroyPipeline.
 *
 * A compute pipeline is its program compiled by drv_compile_compute
 * (driver/compiler/compiler.h) against the pipeline layout's ABI
 * (driver/shader_abi.h), copied into GPU memory. Programs are looked up in
 * and added to the pipeline cache under the SHA-256 of everything the
 * compiler's output depends on (program_key). Both the compiler's output and
 * a cached program pass vkppu_compute_program_check before they are
 * uploaded.
 *
 * Until the compiler library is built into the driver (CMake defines
 * VKPPU_HAVE_COMPILER when the vkppu_compiler target exists), creating a
 * compute pipeline fails with a message saying so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler.h" /* the contract; only the calls need the library */
#include "compiler_build_id.h"
#include "gpu_memory.h"
#include "program_names.h"
#include "ppu/isa.h"
#include "ppu/qmd.h"
#include "sha256.h"
#include "vkppu_graphics.h"
#include "vkppu_physical_device.h"
#include "vkppu_pipeline.h"

/* Resolves VkSpecializationInfo into (id, size, bits) triples. Entries that
 * point outside pData are dropped (VUID-VkSpecializationInfo-offset-00773
 * forbids them; we must not read out of bounds either way). */
uint32_t vkppu_resolve_specialization(const VkSpecializationInfo *si, struct drv_spec_value *out)
{
   uint32_t n = 0;
   for (uint32_t i = 0; si && i < si->mapEntryCount && n < VKPPU_MAX_SPEC_VALUES; i++) {
      const VkSpecializationMapEntry *e = &si->pMapEntries[i];
      if (e->size == 0 || e->size > 8 || (uint64_t)e->offset + e->size > si->dataSize)
         continue;
      uint64_t bits = 0;
      memcpy(&bits, (const uint8_t *)si->pData + e->offset, e->size); /* little-endian host */
      out[n++] =
          (struct drv_spec_value){.id = e->constantID, .size = (uint32_t)e->size, .bits = bits};
   }
   return n;
}

/* VK_EXT_subgroup_size_control (core 1.3): a subgroup is one warp of
 * PPU_WARP_SIZE lanes, so 32 is the only size a stage can ask for, and a
 * workgroup is split into warps in invocation order, every one full but the
 * last. REQUIRE_FULL_SUBGROUPS therefore holds exactly when the workgroup's
 * x size is a multiple of 32 (which VUID-VkPipelineShaderStageCreateInfo-
 * flags-02758/02759 demand of the application); any other size is refused
 * rather than run with a partial last warp. ALLOW_VARYING_SUBGROUP_SIZE
 * needs nothing: the size never varies. */
static VkResult check_subgroup_size(struct vkppu_device *dev,
                                    const VkPipelineShaderStageCreateInfo *stage, const char *entry,
                                    const uint32_t workgroup_size[3])
{
   for (const VkBaseInStructure *s = stage->pNext; s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)
         continue;
      uint32_t size =
          ((const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *)s)->requiredSubgroupSize;
      if (size != PPU_WARP_SIZE) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateComputePipelines: \"%s\" requires subgroup size %u; the "
                      "subgroup size is always %u",
                      entry, size, PPU_WARP_SIZE);
         return VK_ERROR_UNKNOWN;
      }
   }
   if ((stage->flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT) &&
       workgroup_size[0] % PPU_WARP_SIZE != 0) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateComputePipelines: \"%s\" requires full subgroups, but its "
                   "workgroup's x size %u is not a multiple of the subgroup size %u",
                   entry, workgroup_size[0], PPU_WARP_SIZE);
      return VK_ERROR_UNKNOWN;
   }
   return VK_SUCCESS;
}

/* SHA-256 over everything the compiler's output depends on, each item
 * length-prefixed so that no two different inputs hash the same bytes: the
 * compiler build (VKPPU_COMPILER_BUILD_ID, a digest of its sources), the
 * device (pipelineCacheUUID and deviceUUID), the SPIR-V words, the entry
 * point, the specialization values, the layout's ABI and the robustness
 * the program is compiled with. */
static struct vkppu_program_key program_key(const struct vkppu_physical_device *pd,
                                            const struct vkppu_shader_module *mod,
                                            const char *entry, const struct drv_spec_value *spec,
                                            uint32_t spec_count, const struct drv_pipeline_abi *abi)
{
   struct vkppu_sha256 h;
   vkppu_sha256_init(&h);
   static const char build[] = VKPPU_COMPILER_BUILD_ID;
   vkppu_sha256_u32(&h, (uint32_t)sizeof(build));
   vkppu_sha256_update(&h, build, sizeof(build));
   vkppu_sha256_update(&h, pd->pipeline_cache_uuid, VK_UUID_SIZE);
   vkppu_sha256_update(&h, pd->device_uuid, VK_UUID_SIZE);
   vkppu_sha256_u32(&h, (uint32_t)mod->word_count);
   vkppu_sha256_update(&h, mod->words, mod->word_count * 4);
   vkppu_sha256_u32(&h, (uint32_t)strlen(entry));
   vkppu_sha256_update(&h, entry, strlen(entry));
   vkppu_sha256_u32(&h, spec_count);
   for (uint32_t i = 0; i < spec_count; i++) {
      vkppu_sha256_u32(&h, spec[i].id);
      vkppu_sha256_u32(&h, spec[i].size);
      vkppu_sha256_update(&h, &spec[i].bits, 8);
   }
   vkppu_sha256_u32(&h, abi->binding_count);
   for (uint32_t i = 0; i < abi->binding_count; i++) {
      const struct drv_binding_layout *b = &abi->bindings[i];
      const uint32_t words[6] = {b->set,    b->binding,    (uint32_t)b->kind,
                                 b->offset, b->array_size, (uint32_t)b->dynamic_index};
      for (unsigned k = 0; k < 6; k++)
         vkppu_sha256_u32(&h, words[k]);
   }
   vkppu_sha256_u32(&h, abi->push_constant_size);
   vkppu_sha256_u32(&h, abi->robust_buffer_access);
   struct vkppu_program_key key;
   vkppu_sha256_final(&h, key.digest);
   return key;
}

/* Compiles; on success *code is malloc'd. */
static VkResult compile(struct vkppu_device *dev, const struct vkppu_shader_module *mod,
                        const char *entry, const struct drv_spec_value *spec, uint32_t spec_count,
                        const struct drv_pipeline_abi *abi, struct vkppu_program_info *info,
                        uint32_t **code)
{
#ifdef VKPPU_HAVE_COMPILER
   uint32_t flags = 0;
   const char *dbg = getenv("VKPPU_DEBUG"); /* "ir", "isa" or "ir,isa" (docs/compiler.md) */
   if (dbg && strstr(dbg, "ir"))
      flags |= DRV_COMPILE_DEBUG_PRINT_IR;
   if (dbg && strstr(dbg, "isa"))
      flags |= DRV_COMPILE_DEBUG_PRINT_ISA;
   struct drv_compile_request req = {
       .spirv = mod->words,
       .word_count = mod->word_count,
       .entry_point = entry,
       .spec = spec,
       .spec_count = spec_count,
       .abi = abi,
       .max_registers = VKPPU_MAX_REGISTERS_PER_THREAD,
       .debug_flags = flags,
   };
   char err[512] = "";
   /* At most two attempts: the second has fewer registers, and whatever
    * comes of it is checked like any program. */
   for (int attempt = 0;; attempt++) {
      struct drv_shader_binary bin = {0};
      if (drv_compile_compute(&req, &bin, err, sizeof(err)) != 0) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateComputePipelines: cannot compile entry point \"%s\": %s", entry,
                      err);
         return VK_ERROR_UNKNOWN;
      }
      uint64_t invocations =
          (uint64_t)bin.workgroup_size[0] * bin.workgroup_size[1] * bin.workgroup_size[2];
      if (invocations && invocations <= PPU_QMD_MAX_WORKGROUP_INVOCATIONS &&
          bin.register_count * invocations > VKPPU_SM_REGISTERS && attempt == 0) {
         /* A workgroup must fit on one SM (docs/compute.md): compile again
          * with fewer registers per thread (the compiler spills). */
         req.max_registers = (uint32_t)(VKPPU_SM_REGISTERS / invocations);
         drv_shader_binary_free(&bin);
         continue;
      }
      *info = (struct vkppu_program_info){
          .code_words = bin.code_words,
          .register_count = bin.register_count,
          .shared_memory_size = bin.shared_memory_size,
          .local_memory_size = bin.local_memory_size,
          .workgroup_size = {bin.workgroup_size[0], bin.workgroup_size[1], bin.workgroup_size[2]},
      };
      /* The same check a cached program passes (vkppu_compute_program_check). */
      char why[160];
      if (!vkppu_compute_program_check(info, bin.code, why, sizeof(why))) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateComputePipelines: \"%s\" cannot run on this device: %s", entry, why);
         drv_shader_binary_free(&bin);
         return VK_ERROR_UNKNOWN;
      }
      *code = bin.code; /* ownership moves to the caller */
      bin.code = NULL;
      drv_shader_binary_free(&bin);
      return VK_SUCCESS;
   }
#else
   (void)mod;
   (void)spec;
   (void)spec_count;
   (void)abi;
   (void)info;
   (void)code;
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                "vkCreateComputePipelines: \"%s\": this build of vkppu has no shader compiler "
                "(driver/compiler/ was not built), so compute pipelines cannot be created",
                entry);
   return VK_ERROR_UNKNOWN;
#endif
}

/* The name a fault report gives the pipeline's program, once the
 * application has named it with vkSetDebugUtilsObjectNameEXT
 * (driver/program_names.h; called on the interrupt handler's thread). The
 * pipeline cannot be freed meanwhile (destroy unregisters first, under the
 * table's lock); an application renaming the pipeline on another thread at
 * the very moment its shader faults is not guarded against. */
static const char *pipeline_debug_name(const void *owner)
{
   const struct vkppu_pipeline *pipe = owner;
   return pipe->base.debug_name;
}

void vkppu_pipeline_destroy(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
                            struct vkppu_pipeline *pipe)
{
   if (pipe->code_bo) {
      /* Before the memory goes: a fault report must not name freed code. */
      drv_program_unregister(dev->drv, pipe->code_bo->va);
      drv_bo_destroy(dev->drv, pipe->code_bo);
   }
   vkppu_rt_source_free(pipe->library_source);
   free(pipe->library_source);
   free(pipe->group_stack);
   if (pipe->gfx)
      vkppu_gfx_variants_free(dev, pipe->gfx);
   free(pipe->gfx);
   vkppu_object_finish(&pipe->base);
   vkppu_device_free(dev, pAllocator, pipe);
}

VkResult vkppu_pipeline_upload(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                               const struct vkppu_program_info *info, uint32_t *code,
                               const char *name)
{
   pipe->program = *info;
   enum drv_result dr = drv_bo_create(dev->drv, (uint64_t)info->code_words * 4,
                                      DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &pipe->code_bo);
   if (dr != DRV_SUCCESS) {
      free(code);
      return vkppu_result_from_drv(dr);
   }
   /* Written through the BAR; the SM fetches instructions from here. */
   memcpy(pipe->code_bo->map, code, (size_t)info->code_words * 4);
   free(code);
   dr = drv_program_register(dev->drv, pipe->code_bo->va, (uint64_t)info->code_words * 4, name,
                             pipeline_debug_name, pipe);
   return dr == DRV_SUCCESS ? VK_SUCCESS : vkppu_result_from_drv(dr);
}

static VkResult create_pipeline(struct vkppu_device *dev, struct vkppu_pipeline_cache *cache,
                                const VkComputePipelineCreateInfo *ci,
                                const VkAllocationCallbacks *pAllocator, VkPipeline *out)
{
   const VkPipelineShaderStageCreateInfo *stage = &ci->stage;
   const struct vkppu_shader_module *mod = vkppu_shader_module_from_handle(stage->module);
   const struct vkppu_pipeline_layout *layout = vkppu_pipeline_layout_from_handle(ci->layout);
   const char *entry = stage->pName ? stage->pName : "main";
   if (!mod || !layout) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateComputePipelines: a shader module and a pipeline layout are "
                   "required");
      return VK_ERROR_UNKNOWN;
   }
   struct drv_spec_value spec[VKPPU_MAX_SPEC_VALUES];
   uint32_t spec_count = vkppu_resolve_specialization(stage->pSpecializationInfo, spec);
   struct drv_pipeline_abi abi = layout->abi;
   abi.robust_buffer_access = vkppu_pipeline_buffer_robustness(dev, ci->pNext, stage, 1, false);
   struct vkppu_program_key key =
       program_key(dev->physical_device, mod, entry, spec, spec_count, &abi);

   struct vkppu_creation creation;
   vkppu_creation_begin(&creation, ci->pNext);
   struct vkppu_program_info info = {0};
   uint32_t *code = NULL;
   const bool hit = cache && vkppu_pipeline_cache_lookup(cache, &key, &info, &code);
   if (!hit) {
      /* VK_EXT_pipeline_creation_cache_control: the application would
       * rather not wait for the compiler. */
      if (ci->flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT)
         return VK_PIPELINE_COMPILE_REQUIRED;
      VkResult r = compile(dev, mod, entry, spec, spec_count, &abi, &info, &code);
      if (r != VK_SUCCESS)
         return r;
      if (cache)
         vkppu_pipeline_cache_insert(cache, &key, &info, code);
   }
   VkResult sr = check_subgroup_size(dev, stage, entry, info.workgroup_size);
   if (sr != VK_SUCCESS) {
      free(code);
      return sr;
   }

   struct vkppu_pipeline *pipe =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*pipe), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pipe) {
      free(code);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   vkppu_object_init(&pipe->base, VK_OBJECT_TYPE_PIPELINE, dev);
   pipe->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
   pipe->push_constant_size = layout->push_constant_size;
   char name[DRV_PROGRAM_NAME_SIZE];
   snprintf(name, sizeof(name), "compute pipeline 0x%" PRIx64 " entry %s",
            (uint64_t)(uintptr_t)pipe, entry);
   VkResult r = vkppu_pipeline_upload(dev, pipe, &info, code, name);
   if (r != VK_SUCCESS) {
      vkppu_pipeline_destroy(dev, pAllocator, pipe);
      return r;
   }
   *out = vkppu_pipeline_to_handle(pipe);
   /* One stage: its feedback is the pipeline's. */
   vkppu_creation_end(&creation, hit, true);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateComputePipelines(
    VkDevice device, VkPipelineCache pipelineCache, uint32_t createInfoCount,
    const VkComputePipelineCreateInfo *pCreateInfos, const VkAllocationCallbacks *pAllocator,
    VkPipeline *pPipelines)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline_cache, cache, pipelineCache);
   VkResult result = VK_SUCCESS;
   /* Every pipeline is attempted unless one asks to stop at its failure;
    * only the failed ones are VK_NULL_HANDLE and the call returns one of
    * their results ("Multiple Pipeline Creation"). */
   for (uint32_t i = 0; i < createInfoCount; i++)
      pPipelines[i] = VK_NULL_HANDLE;
   for (uint32_t i = 0; i < createInfoCount; i++) {
      VkResult r = create_pipeline(dev, cache, &pCreateInfos[i], pAllocator, &pPipelines[i]);
      if (vkppu_creation_stop(pCreateInfos[i].flags, r, &result))
         break;
   }
   return result;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                                 const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline, pipe, pipeline);
   if (pipe)
      vkppu_pipeline_destroy(dev, pAllocator, pipe);
}
