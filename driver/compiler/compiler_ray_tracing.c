/* drv_compile_ray_tracing (compiler.h): parses and specializes every stage
 * of a ray-tracing pipeline, translates them into one program
 * (translate_ray_tracing.c) and finishes it like a compute program
 * (compiler.c). docs/ray-tracing-pipeline.md has the design. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_frames.h"
#include "translate_ray_tracing.h"

static uint32_t execution_model(enum drv_rt_stage_kind kind)
{
   switch (kind) {
   case DRV_RT_STAGE_RAYGEN:
      return SPIRV_EXECUTION_MODEL_RayGenerationKHR;
   case DRV_RT_STAGE_MISS:
      return SPIRV_EXECUTION_MODEL_MissKHR;
   case DRV_RT_STAGE_CLOSEST_HIT:
      return SPIRV_EXECUTION_MODEL_ClosestHitKHR;
   case DRV_RT_STAGE_ANY_HIT:
      return SPIRV_EXECUTION_MODEL_AnyHitKHR;
   case DRV_RT_STAGE_INTERSECTION:
      return SPIRV_EXECUTION_MODEL_IntersectionKHR;
   default:
      return SPIRV_EXECUTION_MODEL_CallableKHR;
   }
}

static bool stage_is(const struct drv_rt_compile_request *req, uint32_t stage,
                     enum drv_rt_stage_kind kind)
{
   return stage == DRV_RT_UNUSED || (stage < req->stage_count && req->stages[stage].kind == kind);
}

/* The groups name stages of the right kinds (the icd checked the Vulkan
 * rules; this keeps the compiler safe on its own). */
static bool check_groups(const struct drv_rt_compile_request *req, char *err, size_t err_size)
{
   for (uint32_t g = 0; g < req->group_count; g++) {
      const struct drv_rt_group *gr = &req->groups[g];
      bool general_ok = gr->general == DRV_RT_UNUSED ||
                        (gr->general < req->stage_count &&
                         (req->stages[gr->general].kind == DRV_RT_STAGE_RAYGEN ||
                          req->stages[gr->general].kind == DRV_RT_STAGE_MISS ||
                          req->stages[gr->general].kind == DRV_RT_STAGE_CALLABLE));
      if (!general_ok || !stage_is(req, gr->closest_hit, DRV_RT_STAGE_CLOSEST_HIT) ||
          !stage_is(req, gr->any_hit, DRV_RT_STAGE_ANY_HIT) ||
          !stage_is(req, gr->intersection, DRV_RT_STAGE_INTERSECTION)) {
         snprintf(err, err_size, "compiler: shader group %u names a stage of the wrong kind", g);
         return false;
      }
   }
   return true;
}

static int translate_and_finish(const struct drv_rt_compile_request *req,
                                struct xl_rt_stage *stages, uint32_t first_raygen,
                                bool promote_locals, bool save_all_calls,
                                struct drv_shader_binary *out, char *err, size_t err_size)
{
   struct ir_program ir;
   ir_init(&ir);
   ir.save_all_calls = save_all_calls;
   struct xl_rt_program rt;
   memset(&rt, 0, sizeof(rt));
   rt.req = req;
   rt.stages = stages;
   /* The root context emits the launch prologue and the raygen dispatch;
    * it borrows a raygen module only for the helpers' type lookups. */
   struct xl_ctx root;
   memset(&root, 0, sizeof(root));
   root.m = stages[first_raygen].m;
   root.req = &stages[first_raygen].req;
   root.ir = &ir;
   root.err = err;
   root.err_size = err_size;
   root.bound = spirv_module_bound(root.m);
   root.rt = &rt;
   xl_rt_translate_program(&root);
   int rc = 1;
   if (!root.failed) {
      /* The functions' variables live in their frames on the stack: below
       * it are only the stack slot and the root's frame. */
      rc = xl_finish_program(&ir, IR_STACK_BASE, promote_locals, req->max_registers,
                             req->debug_flags, "ray-tracing pipeline", out, err, err_size);
   }
   if (rc == 0) {
      for (uint32_t s = 0; req->stage_stack_bytes && s < req->stage_count; s++)
         req->stage_stack_bytes[s] =
             rt.instances[s] ? ir.frames[rt.instances[s]->frame].frame_bytes : 0;
   }
   free(root.pool);
   xl_rt_program_free(&rt);
   ir_free(&ir);
   return rc;
}

int drv_compile_ray_tracing(const struct drv_rt_compile_request *req, struct drv_shader_binary *out,
                            char *err, size_t err_size)
{
   char scratch[8];
   err = xl_error_buffer(err, &err_size, scratch, sizeof(scratch));
   if (!req || !out || !req->stage_count || !req->stages || (req->group_count && !req->groups)) {
      snprintf(err, err_size, "compiler: no ray-tracing stages");
      return 1;
   }
   memset(out, 0, sizeof(*out));
   if (!check_groups(req, err, err_size))
      return 1;
   struct xl_rt_stage *stages = calloc(req->stage_count, sizeof(*stages));
   if (!stages) {
      snprintf(err, err_size, "compiler: out of memory");
      return 1;
   }
   int rc = 1;
   uint32_t first_raygen = DRV_RT_UNUSED;
   for (uint32_t s = 0; s < req->stage_count; s++) {
      const struct drv_rt_stage *in = &req->stages[s];
      struct spirv_error e;
      memset(&e, 0, sizeof(e));
      if (!in->spirv || !in->word_count) {
         snprintf(err, err_size, "compiler: stage %u: empty SPIR-V module", s);
         goto done;
      }
      stages[s].m = spirv_module_parse(in->spirv, in->word_count, &e);
      if (!stages[s].m || !xl_specialize(stages[s].m, in->spec, in->spec_count, &e)) {
         snprintf(err, err_size, "stage %u: %s", s, e.message);
         goto done;
      }
      const char *name = in->entry_point ? in->entry_point : "main";
      const struct spirv_entry_point *ep =
          spirv_find_entry_point(stages[s].m, name, execution_model(in->kind));
      stages[s].entry = ep ? spirv_function_by_id(stages[s].m, ep->function_id) : NULL;
      if (!stages[s].entry || !stages[s].entry->block_count) {
         snprintf(err, err_size,
                  "compiler: stage %u has no entry point \"%s\" of its execution model", s, name);
         goto done;
      }
      stages[s].req = (struct drv_compile_request){
          .spirv = in->spirv,
          .word_count = in->word_count,
          .entry_point = name,
          .spec = in->spec,
          .spec_count = in->spec_count,
          .abi = req->abi,
          .max_registers = req->max_registers,
          .debug_flags = req->debug_flags,
      };
      if (in->kind == DRV_RT_STAGE_RAYGEN && first_raygen == DRV_RT_UNUSED)
         first_raygen = s;
   }
   if (first_raygen == DRV_RT_UNUSED) {
      snprintf(err, err_size, "compiler: a ray-tracing pipeline needs a raygen shader");
      goto done;
   }
   /* When the registers do not suffice, first save around every call
    * instead of keeping values out of the callees' registers
    * (call_frames.h), then, as for compute, also keep the locals in local
    * memory. */
   rc = translate_and_finish(req, stages, first_raygen, true, false, out, err, err_size);
   if (rc == XL_COMPILE_OUT_OF_REGISTERS) {
      drv_shader_binary_free(out);
      rc = translate_and_finish(req, stages, first_raygen, true, true, out, err, err_size);
   }
   if (rc == XL_COMPILE_OUT_OF_REGISTERS) {
      drv_shader_binary_free(out);
      rc = translate_and_finish(req, stages, first_raygen, false, true, out, err, err_size) ? 1 : 0;
   }
   out->workgroup_size[0] = DRV_RT_WORKGROUP_X;
   out->workgroup_size[1] = DRV_RT_WORKGROUP_Y;
   out->workgroup_size[2] = 1;
done:
   if (rc)
      drv_shader_binary_free(out);
   for (uint32_t s = 0; s < req->stage_count; s++)
      if (stages[s].m)
         spirv_module_destroy(stages[s].m);
   free(stages);
   return rc;
}
