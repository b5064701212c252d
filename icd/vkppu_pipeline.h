/* Shader modules, pipeline caches and compute pipelines.
 *
 * A compute pipeline is the compiled program (driver/compiler/compiler.h) in
 * GPU memory plus what a dispatch needs to fill the QMD (hw/include/ppu/qmd.h):
 * register count, shared and local memory sizes and the workgroup size.
 */
#ifndef VKPPU_PIPELINE_H
#define VKPPU_PIPELINE_H

#include "vkppu_descriptor.h"

struct drv_bo;

struct vkppu_shader_module {
   struct vkppu_object base;
   uint32_t *words; /* a copy of pCode */
   size_t word_count;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_shader_module, VkShaderModule)

/* What a compiled compute program needs besides its code; the pipeline
 * cache stores exactly this and the code words. */
struct vkppu_program_info {
   uint32_t code_words;
   uint32_t register_count;
   uint32_t shared_memory_size;
   uint32_t local_memory_size;
   uint32_t workgroup_size[3];
};

/* 128-bit key of a compiled program: two independent 64-bit hashes over
 * everything the compiler output depends on. */
struct vkppu_program_key {
   uint64_t lo, hi;
};

struct vkppu_cache_entry;

struct vkppu_pipeline_cache {
   struct vkppu_object base;
   pthread_mutex_t lock; /* caches may be used from several threads at once */
   struct vkppu_cache_entry *entries;
   uint32_t entry_count;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_pipeline_cache, VkPipelineCache)

/* Looks a program up; on a hit returns true with *info filled and *code a
 * malloc'd copy the caller frees. */
bool vkppu_pipeline_cache_lookup(struct vkppu_pipeline_cache *cache,
                                 const struct vkppu_program_key *key,
                                 struct vkppu_program_info *info, uint32_t **code);
/* Adds a program (a copy); failures only mean it is not cached. */
void vkppu_pipeline_cache_insert(struct vkppu_pipeline_cache *cache,
                                 const struct vkppu_program_key *key,
                                 const struct vkppu_program_info *info, const uint32_t *code);

struct vkppu_pipeline {
   struct vkppu_object base;
   VkPipelineBindPoint bind_point;
   struct vkppu_program_info program;
   struct drv_bo *code_bo; /* the program in GPU memory */
   uint32_t push_constant_size;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_pipeline, VkPipeline)

#endif /* VKPPU_PIPELINE_H */
