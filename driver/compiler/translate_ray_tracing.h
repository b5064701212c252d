/* Ray-tracing pipelines: the state shared by the contexts that translate
 * the stages of one pipeline into one program (translate_ray_tracing.c,
 * compiler_ray_tracing.c; docs/ray-tracing-pipeline.md). */
#ifndef DRV_COMPILER_TRANSLATE_RAY_TRACING_H
#define DRV_COMPILER_TRANSLATE_RAY_TRACING_H

#include "translate.h"

/* maxRayHitAttributeSize: the hit attributes of one hit, in local memory. */
#define XL_RT_ATTRIBUTE_BYTES 32u
/* Traces and callables nested in one another (each level is an inlined
 * copy of the shaders it can reach, and a trace frame of local memory). */
#define XL_RT_MAX_NEST 12u

/* One stage of the pipeline: its module and entry point. */
struct xl_rt_stage {
   struct spirv_module *m;
   const struct spirv_function *entry;
   struct drv_compile_request req; /* module words, spec values, abi */
};

/* The local memory of traces at one nest: the ray-query object the TTU
 * traverses, the committed / candidate / pending hit attributes, and the
 * 4-byte slots of enum frame_slot. */
struct xl_rt_frame {
   bool allocated;
   uint32_t rq;
   uint32_t committed_attr, candidate_attr, pending_attr;
   uint32_t slots;
};

/* One inlined copy of a stage: its own context (globals, local variables). */
struct xl_rt_instance {
   struct xl_ctx ctx;
   uint32_t stage;
   uint32_t nest;  /* traces and callables around it; the raygen is 0 */
   uint32_t depth; /* traces around it (recursion depth) */
};

struct xl_rt_program {
   const struct drv_rt_compile_request *req;
   struct xl_rt_stage *stages;
   struct xl_rt_instance **instances;
   uint32_t instance_count, instance_cap;
   struct xl_rt_frame frames[XL_RT_MAX_NEST + 1];
   /* The intersection shader being translated: its group and SBT record
    * (for the any-hit shader reportIntersectionEXT runs). */
   uint32_t current_group;
   uint32_t current_record;
};

/* Translates the program into root->ir: launch bounds, then the raygen
 * group the raygen record names, with everything it reaches inlined. */
void xl_rt_translate_program(struct xl_ctx *root);
void xl_rt_program_free(struct xl_rt_program *rt);

#endif /* DRV_COMPILER_TRANSLATE_RAY_TRACING_H */
