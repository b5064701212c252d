/* Ray-tracing pipelines: the state shared by the contexts that translate
 * the stages of one pipeline into one program (translate_ray_tracing.c,
 * compiler_ray_tracing.c; docs/ray-tracing-pipeline.md). */
#ifndef DRV_COMPILER_TRANSLATE_RAY_TRACING_H
#define DRV_COMPILER_TRANSLATE_RAY_TRACING_H

#include "translate.h"

/* maxRayHitAttributeSize: the hit attributes of one hit, in local memory. */
#define XL_RT_ATTRIBUTE_BYTES 32u

/* One stage of the pipeline: its module and entry point. */
struct xl_rt_stage {
   struct spirv_module *m;
   const struct spirv_function *entry;
   struct drv_compile_request req; /* module words, spec values, abi */
};

/* One stage as an out-of-line function (call_frames.h): its context
 * (globals, local variables) and the values its caller passed, which the
 * function loads from its frame header on entry. */
struct xl_rt_instance {
   struct xl_ctx ctx;
   uint32_t stage;
   uint32_t label; /* entry */
   uint32_t frame; /* index in ir.frames */
   bool translated;
   /* vregs in the body: stack pointer, the caller's payload / callable
    * data address, the trace frame of the hit or miss being handled
    * (0 for raygen and callables), the SBT record's VA, recursion depth */
   uint32_t sp, payload, hit_frame, record, depth;
   uint32_t trace_frame; /* static offset of its own traces' frame, or UINT32_MAX */
};

struct xl_rt_program {
   const struct drv_rt_compile_request *req;
   struct xl_rt_stage *stages;
   struct xl_rt_instance **instances; /* by stage, NULL until called */
   /* The root (launch bounds, raygen dispatch) calls with this frame. */
   uint32_t root_frame, root_sp;
};

/* Translates the program into root->ir: launch bounds, the call of the
 * raygen group the raygen record names, then every stage a group names as
 * an out-of-line function. */
void xl_rt_translate_program(struct xl_ctx *root);
void xl_rt_program_free(struct xl_rt_program *rt);

#endif /* DRV_COMPILER_TRANSLATE_RAY_TRACING_H */
