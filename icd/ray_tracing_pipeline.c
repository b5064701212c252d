/* vkCreateRayTracingPipelinesKHR and the pipeline's queries: shader group
 * handles, capture/replay handles and shader group stack sizes
 * (VK_KHR_ray_tracing_pipeline; docs/ray-tracing-pipeline.md).
 *
 * A ray-tracing pipeline is ONE program (drv_compile_ray_tracing): every
 * stage is a function on a per-thread call stack, called behind a dispatch
 * on the shader group index that the shader binding table record holds.
 * So a group handle is
 * just that index (plus one, so that zeros never name a group), which
 * also makes handles the same on every run of the application: that is
 * capture/replay (a replayed group must sit at its captured index). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "program_names.h"
#include "ppu/qmd.h"
#include "vkppu_pipeline.h"

/* maxRayRecursionDepth (physical_device_properties.c): every recursion
 * level is one more frame of a closest-hit or miss shader on the stack,
 * each with a trace frame (1 KiB ray-query object + 128 bytes) when it
 * traces: 8 levels fit the 16 KiB of local memory a thread may have. */
#define MAX_RAY_RECURSION_DEPTH 8u
#define MAX_REGISTERS_PER_THREAD 255u

/* The stack sizes of each group's shaders and the pipeline's default
 * stack (Vulkan "Ray Tracing Pipeline Stack": raygen + min(1, depth) x
 * max(closest hit, miss, intersection + any hit) + max(0, depth - 1) x
 * max(closest hit, miss) + 2 x callable). */
static bool size_stack(struct vkppu_pipeline *pipe, const struct vkppu_rt_source *src,
                       const uint32_t *stage_bytes, uint32_t depth)
{
   pipe->group_stack = calloc((size_t)src->group_count * 4 + 1, sizeof(uint32_t));
   if (!pipe->group_stack)
      return false;
   uint32_t max[DRV_RT_STAGE_CALLABLE + 1] = {0};
   for (uint32_t g = 0; g < src->group_count; g++) {
      const struct drv_rt_group *gr = &src->groups[g];
      const uint32_t stage[4] = {gr->general, gr->closest_hit, gr->any_hit, gr->intersection};
      for (uint32_t k = 0; k < 4; k++) {
         if (stage[k] == DRV_RT_UNUSED || stage[k] >= src->stage_count)
            continue;
         uint32_t bytes = stage_bytes[stage[k]];
         pipe->group_stack[g * 4 + k] = bytes;
         enum drv_rt_stage_kind kind = src->stages[stage[k]].kind;
         if (bytes > max[kind])
            max[kind] = bytes;
      }
   }
   uint32_t hit = max[DRV_RT_STAGE_CLOSEST_HIT] > max[DRV_RT_STAGE_MISS]
                      ? max[DRV_RT_STAGE_CLOSEST_HIT]
                      : max[DRV_RT_STAGE_MISS];
   uint32_t procedural = max[DRV_RT_STAGE_INTERSECTION] + max[DRV_RT_STAGE_ANY_HIT];
   uint64_t stack = max[DRV_RT_STAGE_RAYGEN] + 2ull * max[DRV_RT_STAGE_CALLABLE];
   if (depth >= 1)
      stack += hit > procedural ? hit : procedural;
   if (depth >= 2)
      stack += (uint64_t)(depth - 1) * hit;
   pipe->rt_default_stack = stack > UINT32_MAX ? UINT32_MAX : (uint32_t)stack;
   return true;
}

static VkResult compile(struct vkppu_device *dev, const VkRayTracingPipelineCreateInfoKHR *ci,
                        const struct vkppu_rt_source *src,
                        const struct vkppu_pipeline_layout *layout, struct vkppu_pipeline *pipe,
                        struct vkppu_program_info *info, uint32_t **code)
{
#ifdef VKPPU_HAVE_COMPILER
   struct drv_pipeline_abi abi = layout->abi;
   abi.robust_buffer_access =
       vkppu_pipeline_buffer_robustness(dev, ci->pNext, ci->pStages, ci->stageCount, false);
   uint32_t flags = 0;
   const char *dbg = getenv("VKPPU_DEBUG"); /* docs/compiler.md */
   if (dbg && strstr(dbg, "ir"))
      flags |= DRV_COMPILE_DEBUG_PRINT_IR;
   if (dbg && strstr(dbg, "isa"))
      flags |= DRV_COMPILE_DEBUG_PRINT_ISA;
   uint32_t ray_flags = 0;
   if (ci->flags & VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR)
      ray_flags |= 0x100u; /* SkipTrianglesKHR */
   if (ci->flags & VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR)
      ray_flags |= 0x200u; /* SkipAABBsKHR */
   struct drv_rt_compile_request req = {
       .stages = src->stages,
       .stage_count = src->stage_count,
       .groups = src->groups,
       .group_count = src->group_count,
       .max_recursion_depth = ci->maxPipelineRayRecursionDepth,
       .extra_ray_flags = ray_flags,
       .abi = &abi,
       .max_registers = MAX_REGISTERS_PER_THREAD,
       .debug_flags = flags,
       .stage_stack_bytes = calloc(src->stage_count + 1, sizeof(uint32_t)),
   };
   if (!req.stage_stack_bytes)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   char err[512] = "";
   struct drv_shader_binary bin = {0};
   int rc = drv_compile_ray_tracing(&req, &bin, err, sizeof(err));
   bool sized =
       rc == 0 && size_stack(pipe, src, req.stage_stack_bytes, ci->maxPipelineRayRecursionDepth);
   free(req.stage_stack_bytes);
   if (rc == 0 && !sized) {
      drv_shader_binary_free(&bin);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (rc != 0) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateRayTracingPipelinesKHR: cannot compile the pipeline: %s", err);
      return VK_ERROR_UNKNOWN;
   }
   /* The program's local memory: what is below the stack, then the stack. */
   pipe->rt_static_local = bin.local_memory_size;
   uint64_t local = (uint64_t)bin.local_memory_size + pipe->rt_default_stack;
   if (local > PPU_QMD_LOCAL_MAX_SIZE || bin.register_count == 0 ||
       bin.register_count > MAX_REGISTERS_PER_THREAD || bin.code_words == 0) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateRayTracingPipelinesKHR: the pipeline needs %u registers and %" PRIu64
                   " bytes of local memory per thread (%u of them its default call stack): "
                   "beyond the device's limits",
                   bin.register_count, local, pipe->rt_default_stack);
      drv_shader_binary_free(&bin);
      return VK_ERROR_UNKNOWN;
   }
   *info = (struct vkppu_program_info){
       .code_words = bin.code_words,
       .register_count = bin.register_count,
       .shared_memory_size = bin.shared_memory_size,
       .local_memory_size = ((uint32_t)local + 15) & ~15u,
       .workgroup_size = {bin.workgroup_size[0], bin.workgroup_size[1], bin.workgroup_size[2]},
   };
   *code = bin.code;
   return VK_SUCCESS;
#else
   (void)ci;
   (void)src;
   (void)layout;
   (void)pipe;
   (void)info;
   (void)code;
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                "vkCreateRayTracingPipelinesKHR: this build of vkppu has no shader compiler");
   return VK_ERROR_UNKNOWN;
#endif
}

/* The handle of group `index`: its index + 1, then zeros. */
static void group_handle(uint32_t index, uint8_t handle[DRV_RT_HANDLE_SIZE])
{
   memset(handle, 0, DRV_RT_HANDLE_SIZE);
   uint32_t word = index + 1;
   memcpy(handle, &word, sizeof(word));
}

/* Capture/replay: handles are the group indices, the same on every run, so
 * a replayed group gets its captured handle exactly when it sits at the
 * index it was captured at. Anything else cannot be honoured. */
static bool replay_handles_match(struct vkppu_device *dev,
                                 const VkRayTracingPipelineCreateInfoKHR *ci)
{
   for (uint32_t g = 0; g < ci->groupCount; g++) {
      const void *replay = ci->pGroups[g].pShaderGroupCaptureReplayHandle;
      uint8_t handle[DRV_RT_HANDLE_SIZE];
      group_handle(g, handle);
      if (replay && memcmp(replay, handle, DRV_RT_HANDLE_SIZE) != 0) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateRayTracingPipelinesKHR: the capture/replay handle of group %u "
                      "was captured for another group index (handles are group indices)",
                      g);
         return false;
      }
   }
   return true;
}

static VkResult create_pipeline(struct vkppu_device *dev,
                                const VkRayTracingPipelineCreateInfoKHR *ci,
                                const VkAllocationCallbacks *pAllocator, VkPipeline *out)
{
   const struct vkppu_pipeline_layout *layout = vkppu_pipeline_layout_from_handle(ci->layout);
   if (!layout) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateRayTracingPipelinesKHR: a pipeline layout is required");
      return VK_ERROR_UNKNOWN;
   }
   if (!replay_handles_match(dev, ci))
      return VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS;
   if (ci->maxPipelineRayRecursionDepth > MAX_RAY_RECURSION_DEPTH) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateRayTracingPipelinesKHR: maxPipelineRayRecursionDepth %u exceeds "
                   "maxRayRecursionDepth %u",
                   ci->maxPipelineRayRecursionDepth, MAX_RAY_RECURSION_DEPTH);
      return VK_ERROR_UNKNOWN;
   }
   struct vkppu_rt_source src;
   VkResult r = vkppu_rt_source_gather(dev, ci, &src);
   struct vkppu_pipeline *pipe =
       r == VK_SUCCESS
           ? vkppu_device_zalloc(dev, pAllocator, sizeof(*pipe), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
           : NULL;
   if (r == VK_SUCCESS && !pipe)
      r = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (r != VK_SUCCESS) {
      vkppu_rt_source_free(&src);
      return r;
   }
   vkppu_object_init(&pipe->base, VK_OBJECT_TYPE_PIPELINE, dev);
   pipe->bind_point = VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR;
   pipe->push_constant_size = layout->push_constant_size;
   pipe->group_count = src.group_count;
   if (ci->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) {
      /* A library is compiled by the pipelines that link it. */
      r = vkppu_rt_source_keep(&src, &pipe->library_source);
      vkppu_rt_source_free(&src);
      if (r != VK_SUCCESS) {
         vkppu_pipeline_destroy(dev, pAllocator, pipe);
         return r;
      }
      *out = vkppu_pipeline_to_handle(pipe);
      return VK_SUCCESS;
   }
   struct vkppu_program_info info = {0};
   uint32_t *code = NULL;
   if (ci->pDynamicState)
      for (uint32_t i = 0; i < ci->pDynamicState->dynamicStateCount; i++)
         if (ci->pDynamicState->pDynamicStates[i] ==
             VK_DYNAMIC_STATE_RAY_TRACING_PIPELINE_STACK_SIZE_KHR)
            pipe->rt_dynamic_stack = true;
   r = compile(dev, ci, &src, layout, pipe, &info, &code);
   vkppu_rt_source_free(&src);
   if (r != VK_SUCCESS) {
      vkppu_pipeline_destroy(dev, pAllocator, pipe);
      return r;
   }
   char name[DRV_PROGRAM_NAME_SIZE];
   snprintf(name, sizeof(name), "ray-tracing pipeline 0x%" PRIx64 " (%u groups)",
            (uint64_t)(uintptr_t)pipe, pipe->group_count);
   r = vkppu_pipeline_upload(dev, pipe, &info, code, name);
   if (r != VK_SUCCESS) {
      vkppu_pipeline_destroy(dev, pAllocator, pipe);
      return r;
   }
   *out = vkppu_pipeline_to_handle(pipe);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateRayTracingPipelinesKHR(
    VkDevice device, VkDeferredOperationKHR deferredOperation, VkPipelineCache pipelineCache,
    uint32_t createInfoCount, const VkRayTracingPipelineCreateInfoKHR *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   (void)pipelineCache; /* ray-tracing programs are not cached */
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < createInfoCount; i++)
      pPipelines[i] = VK_NULL_HANDLE;
   for (uint32_t i = 0; i < createInfoCount; i++) {
      VkResult r;
      /* Ray-tracing programs are never cached, so every pipeline but a
       * library (which only keeps its stages) needs the compiler
       * (VK_EXT_pipeline_creation_cache_control). */
      const VkPipelineCreateFlags flags = pCreateInfos[i].flags;
      if ((flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) &&
          !(flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)) {
         r = VK_PIPELINE_COMPILE_REQUIRED;
      } else {
         struct vkppu_creation creation;
         vkppu_creation_begin(&creation, pCreateInfos[i].pNext);
         r = create_pipeline(dev, &pCreateInfos[i], pAllocator, &pPipelines[i]);
         if (r == VK_SUCCESS)
            vkppu_creation_end(&creation, false, false);
      }
      if (vkppu_creation_stop(pCreateInfos[i].flags, r, &result))
         break;
   }
   /* The work is done at once; a deferred operation has nothing left. */
   if (result == VK_SUCCESS && deferredOperation != VK_NULL_HANDLE)
      return VK_OPERATION_NOT_DEFERRED_KHR;
   return result;
}

static VkResult write_handles(VkDevice device, VkPipeline pipeline, uint32_t firstGroup,
                              uint32_t groupCount, size_t dataSize, void *pData)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline, pipe, pipeline);
   if (!pipe || (uint64_t)firstGroup + groupCount > pipe->group_count ||
       dataSize < (size_t)groupCount * DRV_RT_HANDLE_SIZE) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkGetRayTracingShaderGroupHandlesKHR: groups %u..%u or %zu bytes are beyond "
                   "the pipeline",
                   firstGroup, firstGroup + groupCount, dataSize);
      return VK_ERROR_UNKNOWN;
   }
   memset(pData, 0, dataSize);
   for (uint32_t i = 0; i < groupCount; i++)
      group_handle(firstGroup + i, (uint8_t *)pData + (size_t)i * DRV_RT_HANDLE_SIZE);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_GetRayTracingShaderGroupHandlesKHR(VkDevice device, VkPipeline pipeline, uint32_t firstGroup,
                                         uint32_t groupCount, size_t dataSize, void *pData)
{
   return write_handles(device, pipeline, firstGroup, groupCount, dataSize, pData);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetRayTracingCaptureReplayShaderGroupHandlesKHR(
    VkDevice device, VkPipeline pipeline, uint32_t firstGroup, uint32_t groupCount, size_t dataSize,
    void *pData)
{
   /* rayTracingPipelineShaderGroupHandleCaptureReplay: the handles are
    * the group indices, the same on every run, so the capture/replay
    * handle is the handle. */
   return write_handles(device, pipeline, firstGroup, groupCount, dataSize, pData);
}

VKAPI_ATTR VkDeviceSize VKAPI_CALL vkppu_GetRayTracingShaderGroupStackSizeKHR(
    VkDevice device, VkPipeline pipeline, uint32_t group, VkShaderGroupShaderKHR groupShader)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline, pipe, pipeline);
   /* The frame the shader's function takes on the call stack when it runs:
    * its header, the variables it keeps in memory (a trace frame when it
    * traces) and the registers it saves around its calls. */
   if (!pipe || !pipe->group_stack || group >= pipe->group_count || (uint32_t)groupShader > 3) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkGetRayTracingShaderGroupStackSizeKHR: group %u (shader %u) is not a group "
                   "of this compiled ray-tracing pipeline",
                   group, (uint32_t)groupShader);
      return 0;
   }
   return pipe->group_stack[group * 4 + (uint32_t)groupShader];
}

void vkppu_ray_tracing_pipeline_properties(VkPhysicalDeviceRayTracingPipelinePropertiesKHR *p)
{
   /* A handle is the group index (32 bytes, the size desktop drivers use,
    * so SBT layouts written for them fit). Records are read with 32-bit
    * loads; 64-byte table bases keep a record's handle and the
    * application's data in one 128-byte line. */
   p->shaderGroupHandleSize = DRV_RT_HANDLE_SIZE;
   p->maxRayRecursionDepth = MAX_RAY_RECURSION_DEPTH;
   p->maxShaderGroupStride = 4096;
   p->shaderGroupBaseAlignment = 64;
   p->shaderGroupHandleCaptureReplaySize = DRV_RT_HANDLE_SIZE;
   /* The grid is at most 2^32 - 1 workgroups a dimension; 2^30 is the
    * spec's minimum and what the launch-size arithmetic is tested with. */
   p->maxRayDispatchInvocationCount = 1u << 30;
   p->shaderGroupHandleAlignment = DRV_RT_HANDLE_SIZE;
   p->maxRayHitAttributeSize = 32; /* XL_RT_ATTRIBUTE_BYTES: one frame slot */
}
