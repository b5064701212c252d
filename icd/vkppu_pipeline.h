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
struct vkppu_gfx_pipeline;

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

/* SM resources a compute workgroup must fit in (docs/compute.md, default
 * chip configuration; physical_device_properties.c reports the same
 * limits), and a bound on program size far above anything the compiler
 * emits (it bounds what pipeline-cache data can make us allocate). */
#define VKPPU_SM_REGISTERS 65536u
#define VKPPU_SM_SHARED_MEMORY 49152u
#define VKPPU_MAX_REGISTERS_PER_THREAD 255u
#define VKPPU_MAX_PROGRAM_WORDS (1u << 24)

/* Whether a compute program can run on this device: the QMD limits and
 * every instruction legal as the SM decodes it (compute_program_check.c).
 * Applied to the compiler's output and to every program read back from a
 * pipeline cache; false with the reason in why. */
bool vkppu_compute_program_check(const struct vkppu_program_info *info, const uint32_t *code,
                                 char *why, size_t why_size);

/* The buffer robustness a program is compiled with (a DRV_ROBUST_* level,
 * pipeline_robustness.c): the device's, and the pipeline's from
 * VK_EXT_pipeline_robustness over `stages` (vertex inputs count when
 * vertex_input: graphics pipelines). */
uint32_t vkppu_device_buffer_robustness(const struct vkppu_device *dev);
uint32_t vkppu_pipeline_buffer_robustness(const struct vkppu_device *dev, const void *pipeline_next,
                                          const VkPipelineShaderStageCreateInfo *stages,
                                          uint32_t stage_count, bool vertex_input);

/* Key of a compiled program: the SHA-256 of everything the compiler's output
 * depends on (compute_pipeline.c program_key). */
struct vkppu_program_key {
   uint8_t digest[32];
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
   /* Ray-tracing pipelines (ray_tracing_pipeline.c): the number of shader
    * groups (handle i holds i + 1, driver/shader_abi.h). */
   uint32_t group_count;
   /* A pipeline library (VK_PIPELINE_CREATE_LIBRARY_BIT_KHR): no program,
    * only its stages and groups, compiled by the pipelines that link it. */
   struct vkppu_rt_source *library_source;
   /* Ray-tracing pipelines: the call stack (docs/ray-tracing-pipeline.md
    * "Call stack"). Bytes each group's shaders take on it, 4 per group in
    * VkShaderGroupShaderKHR order (0: the group has no such shader); the
    * local memory below the stack; the stack vkCmdTraceRays* gets without
    * VK_DYNAMIC_STATE_RAY_TRACING_PIPELINE_STACK_SIZE_KHR (the Vulkan
    * default from these sizes and maxPipelineRayRecursionDepth). */
   uint32_t *group_stack;
   uint32_t rt_static_local, rt_default_stack;
   bool rt_dynamic_stack;
   /* Graphics pipelines (graphics_pipeline.c, vkppu_graphics.h): state and
    * program descriptors; both programs are in code_bo. */
   struct vkppu_gfx_pipeline *gfx;
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_pipeline, VkPipeline)

/* The stages and groups of a ray-tracing pipeline as the compiler takes
 * them: its own, then its libraries' (ray_tracing_pipeline_library.c). */
struct drv_rt_stage;
struct drv_rt_group;
struct vkppu_rt_source {
   struct drv_rt_stage *stages;
   uint32_t stage_count;
   struct drv_rt_group *groups;
   uint32_t group_count;
   struct drv_spec_value *spec; /* gathered: the own stages' values */
   bool owned;                  /* kept by a library: the stages' words, names, values */
};
/* Gathers ci's stages and groups and its libraries'; the own stages point
 * into their shader modules. vkppu_rt_source_free afterwards, even on
 * failure. */
VkResult vkppu_rt_source_gather(struct vkppu_device *dev,
                                const VkRayTracingPipelineCreateInfoKHR *ci,
                                struct vkppu_rt_source *out);
/* A copy that owns everything it points at (for a library). */
VkResult vkppu_rt_source_keep(const struct vkppu_rt_source *in, struct vkppu_rt_source **out);
void vkppu_rt_source_free(struct vkppu_rt_source *s);

/* Copies a compiled program into GPU memory and registers it for fault
 * reports under `name` (compute_pipeline.c); takes ownership of code. */
VkResult vkppu_pipeline_upload(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                               const struct vkppu_program_info *info, uint32_t *code,
                               const char *name);
/* Frees a pipeline of any kind. */
void vkppu_pipeline_destroy(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
                            struct vkppu_pipeline *pipe);
/* VkSpecializationInfo resolved into (id, size, bits); at most
 * VKPPU_MAX_SPEC_VALUES entries. */
#define VKPPU_MAX_SPEC_VALUES 256u
struct drv_spec_value;
uint32_t vkppu_resolve_specialization(const VkSpecializationInfo *si, struct drv_spec_value *out);

/* Writes a QMD and a constant bank 0 of cbank_size bytes (the bind
 * state's push constants, sets and dynamic offsets filled in) for a grid
 * of `count` workgroups of pipe's program, and latches the QMD address
 * (cmd_dispatch.c). Returns the cbank's VA and its mapping in *cbank, 0
 * when nothing can be dispatched. */
struct vkppu_command_buffer;
struct vkppu_bind_state;
uint64_t vkppu_prepare_grid(struct vkppu_command_buffer *cmd, const struct vkppu_bind_state *state,
                            const uint32_t base[3], const uint32_t count[3], uint32_t cbank_size,
                            uint8_t **cbank);
/* VkPhysicalDeviceRayTracingPipelinePropertiesKHR (ray_tracing_pipeline.c). */
void vkppu_ray_tracing_pipeline_properties(VkPhysicalDeviceRayTracingPipelinePropertiesKHR *p);

/* LAUNCH (or LAUNCH_INDIRECT) on the compute subchannel. */
void vkppu_emit_launch(struct vkppu_command_buffer *cmd, bool indirect);

/* VK_EXT_pipeline_creation_cache_control and VK_EXT_pipeline_creation_feedback
 * (core 1.3), shared by the three vkCreate*Pipelines (pipeline_creation.c).
 * A creation is timed from vkppu_creation_begin to vkppu_creation_end, which
 * writes the VkPipelineCreationFeedbackCreateInfo of `next` if there is
 * one: the pipeline's duration and whether the application's cache had its
 * program; `stage_feedback_valid` says whether the one stage's feedback is
 * the whole pipeline's (a compute pipeline), else the stages' feedback is
 * left not VALID: their programs are compiled together. */
struct vkppu_creation {
   const VkPipelineCreationFeedbackCreateInfo *feedback;
   uint64_t start_ns;
};
void vkppu_creation_begin(struct vkppu_creation *c, const void *next);
void vkppu_creation_end(const struct vkppu_creation *c, bool cache_hit, bool stage_feedback_valid);
/* The result of creating `count` pipelines whose results come one at a
 * time: the last failure (VK_PIPELINE_COMPILE_REQUIRED included), and
 * whether to stop because of VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT
 * (the remaining handles stay VK_NULL_HANDLE). */
bool vkppu_creation_stop(VkPipelineCreateFlags flags, VkResult r, VkResult *result);

#endif /* VKPPU_PIPELINE_H */
