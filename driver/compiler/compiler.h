/* The shader compiler: SPIR-V to PPU ISA (hw/include/ppu/isa.h).
 *
 * Contract between the compiler (driver/compiler/) and its users (compute
 * pipeline creation in icd/, tests). The compiled program follows the shader
 * ABI of driver/shader_abi.h.
 */
#ifndef DRV_COMPILER_H
#define DRV_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "shader_abi.h"

/* One specialization constant value (VkSpecializationMapEntry resolved). */
struct drv_spec_value {
   uint32_t id;
   uint32_t size; /* 1, 2, 4 or 8 */
   uint64_t bits; /* little-endian value */
};

struct drv_compile_request {
   const uint32_t *spirv;
   size_t word_count;
   const char *entry_point; /* GLCompute entry point name */
   const struct drv_spec_value *spec;
   uint32_t spec_count;
   const struct drv_pipeline_abi *abi;
   uint32_t max_registers; /* registers per thread the chip allows */
   uint32_t debug_flags;   /* DRV_COMPILE_DEBUG_* */
};
#define DRV_COMPILE_DEBUG_PRINT_IR (1u << 0)  /* IR after passes to stderr */
#define DRV_COMPILE_DEBUG_PRINT_ISA (1u << 1) /* disassembly to stderr */

struct drv_shader_binary {
   uint32_t *code; /* malloc'd; 4 words per 128-bit instruction */
   uint32_t code_words;
   uint32_t register_count;     /* for the QMD */
   uint32_t shared_memory_size; /* bytes, multiple of 16 */
   uint32_t local_memory_size;  /* bytes per thread, multiple of 16 */
   uint32_t workgroup_size[3];  /* after specialization */
};

/* Compiles; on failure returns nonzero and writes a one-line reason (naming
 * the SPIR-V word offset / opcode where it can) into err. Never crashes on
 * any input. */
int drv_compile_compute(const struct drv_compile_request *req, struct drv_shader_binary *out,
                        char *err, size_t err_size);
/* Ray-tracing pipelines (docs/ray-tracing-pipeline.md): every stage of the
 * pipeline is compiled into ONE program. Each stage's entry point is inlined
 * where it can run: the raygen shaders behind a dispatch on the raygen
 * record's group, closest-hit / miss / any-hit / intersection shaders at
 * every OpTraceRayKHR (one copy per recursion level), callables at every
 * OpExecuteCallableKHR. */
enum drv_rt_stage_kind {
   DRV_RT_STAGE_RAYGEN,
   DRV_RT_STAGE_MISS,
   DRV_RT_STAGE_CLOSEST_HIT,
   DRV_RT_STAGE_ANY_HIT,
   DRV_RT_STAGE_INTERSECTION,
   DRV_RT_STAGE_CALLABLE,
};
#define DRV_RT_UNUSED UINT32_MAX

struct drv_rt_stage {
   const uint32_t *spirv;
   size_t word_count;
   const char *entry_point;
   enum drv_rt_stage_kind kind;
   const struct drv_spec_value *spec;
   uint32_t spec_count;
};

/* A shader group: stage indices or DRV_RT_UNUSED. A general group (raygen,
 * miss, callable) uses `general`; hit groups the other three. */
struct drv_rt_group {
   uint32_t general, closest_hit, any_hit, intersection;
};

struct drv_rt_compile_request {
   const struct drv_rt_stage *stages;
   uint32_t stage_count;
   const struct drv_rt_group *groups;
   uint32_t group_count;
   uint32_t max_recursion_depth; /* maxPipelineRayRecursionDepth */
   uint32_t extra_ray_flags;     /* ORed into every trace (SKIP_TRIANGLES / SKIP_AABBS pipelines) */
   const struct drv_pipeline_abi *abi;
   uint32_t max_registers;
   uint32_t debug_flags;
   /* Out, stage_count entries (or NULL): the bytes each stage's frame takes
    * on the per-thread call stack when it runs (its header, the variables
    * it keeps in memory and its save area). The program's
    * local_memory_size covers only what is below the stack; the pipeline
    * adds the stack it sizes from these (docs/ray-tracing-pipeline.md
    * "Call stack"). */
   uint32_t *stage_stack_bytes;
};

/* Compiles a ray-tracing pipeline into one program for a dispatch of
 * DRV_RT_WORKGROUP_X x DRV_RT_WORKGROUP_Y workgroups (shader_abi.h: the
 * launch size and the shader binding table regions come in constant bank
 * 0). Same error contract as drv_compile_compute. */
int drv_compile_ray_tracing(const struct drv_rt_compile_request *req, struct drv_shader_binary *out,
                            char *err, size_t err_size);
void drv_shader_binary_free(struct drv_shader_binary *bin);
/* Graphics pipelines (docs/graphics-hw.md "Vertex work", "Fragment
 * work"; docs/compiler.md "Graphics stages"). The vertex program fetches
 * its own attributes from the vertex buffers of constant bank 0
 * (shader_abi.h) with decode code specialized for this vertex input state. */
struct drv_vertex_attribute {
   uint32_t location;
   uint32_t binding; /* < DRV_ABI_MAX_VERTEX_BUFFERS */
   uint32_t format;  /* a VkFormat value (list in docs/compiler.md) */
   uint32_t offset;  /* bytes from the element's start */
};
struct drv_vertex_binding {
   uint32_t binding;
   uint32_t per_instance; /* VK_VERTEX_INPUT_RATE_INSTANCE */
   /* Instance rate: instances per element (VkVertexInputBindingDivisor-
    * DescriptionEXT; 1 without one; 0 repeats the first instance's). */
   uint32_t divisor;
};

struct drv_graphics_compile_request {
   /* entry_point names a Vertex / Fragment entry point. fragment.spirv
    * NULL: no fragment program (depth-only or rasterizer discard). Both
    * share abi, max_registers and debug_flags of `vertex`. */
   struct drv_compile_request vertex, fragment;
   const struct drv_vertex_attribute *attributes;
   uint32_t attribute_count;
   const struct drv_vertex_binding *bindings;
   uint32_t binding_count;
   uint32_t samples; /* rasterizationSamples, 1 or 4: where centroid evaluates */
   /* The pipeline asks for per-sample shading (sampleShadingEnable with
    * minSampleShading * samples > 1); the shader may imply it anyway. */
   uint32_t sample_shading; /* 0 or 1 */
   /* The vertex input state is dynamic and not known yet: a location
    * without an attribute reads (0, 0, 0, 1) instead of failing, so the
    * pipeline's other state can be checked and laid out at creation. */
   uint32_t vertex_input_unknown; /* 0 or 1 */
};

/* What the driver copies into a struct ppu_gfx_program besides the code. */
struct drv_graphics_program_info {
   uint32_t flags;           /* PPU_GFX_PROGRAM_* */
   uint32_t attribute_count; /* vertex: slots written; fragment: slots read */
   uint32_t output_mask;     /* fragment: color targets written */
   uint64_t interpolation;   /* fragment: 2 bits per slot, enum ppu_gfx_interpolation */
   uint64_t centroid_mask;   /* fragment: bit per slot */
   /* Fragment: the program is compiled to run once per sample (SAMPLE_SHADING
    * at 4x): requested, or implied by SampleId, SamplePosition or a
    * Sample-decorated input (Vulkan "Sample Shading"). */
   uint32_t sample_shading; /* 0 or 1 */
   /* Fragment with PPU_GFX_PROGRAM_POINT_COORD: the slot (after the ones
    * that carry varyings) whose planes setup writes as gl_PointCoord. */
   uint32_t point_coord_slot;
};

#define DRV_GFX_MAX_SLOTS 32u
/* Slot locations of the clip and cull distances a fragment program reads
 * (gl_ClipDistance / gl_CullDistance inputs), 4 distances a slot, above
 * every user location: the vertex program writes them into these slots as
 * well as into the vertex header, which only the clipper reads. */
#define DRV_GFX_LOCATION_CLIP_DISTANCE 0x10000u
#define DRV_GFX_LOCATION_CULL_DISTANCE 0x10002u
struct drv_graphics_binary {
   struct drv_shader_binary vertex, fragment; /* fragment.code NULL without one */
   struct drv_graphics_program_info vertex_info, fragment_info;
   /* Attribute slot s carries the user varying at slot_location[s]: the
    * locations the fragment program reads, ascending (outputs the fragment
    * program does not read are not written). */
   uint32_t slot_location[DRV_GFX_MAX_SLOTS];
   uint32_t clip_distance_count; /* gl_ClipDistance elements: CLIP_DISTANCE_MASK */
   /* gl_CullDistance elements: the header's distances after the clip
    * distances (CULL_DISTANCE_MASK). */
   uint32_t cull_distance_count;
   /* The record's point size is always defined: the shader's gl_PointSize,
    * 1.0 when it declares none or never writes it. */
};

/* Compiles a pipeline's vertex and fragment stages, linked: same error
 * contract as drv_compile_compute (an interface mismatch, an unsupported
 * vertex format or built-in fails with a message). */
int drv_compile_graphics(const struct drv_graphics_compile_request *req,
                         struct drv_graphics_binary *out, char *err, size_t err_size);
void drv_graphics_binary_free(struct drv_graphics_binary *bin);

#endif /* DRV_COMPILER_H */
