/* vkCreateGraphicsPipelines: the vertex and fragment stages compiled and
 * linked by drv_compile_graphics (driver/compiler/compiler.h) against the
 * pipeline layout's ABI and the vertex input state, both programs copied
 * into one GPU buffer, the program descriptors (hw/include/ppu/graphics.h)
 * prepared, and the fixed-function state translated
 * (graphics_pipeline_state.c). Graphics programs are not put in the
 * pipeline cache: their key would also hold the vertex input state.
 *
 * Every failure (a missing stage, an unsupported vertex format, a compile
 * error, a state the device does not support) is reported through the
 * debug messenger with its reason and returns an error: never a crash. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler.h"
#include "gpu_memory.h"
#include "program_names.h"
#include "vkppu_graphics.h"
#include "vkppu_rendering.h"

#define MAX_REGISTERS_PER_THREAD 255u

static VkResult fail(struct vkppu_device *dev, const char *what)
{
   vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                "vkCreateGraphicsPipelines: %s", what);
   return VK_ERROR_UNKNOWN;
}

static const char *pipeline_debug_name(const void *owner)
{
   const struct vkppu_pipeline *pipe = owner;
   return pipe->base.debug_name;
}

struct stage_source {
   const struct vkppu_shader_module *module;
   const char *entry;
   struct drv_spec_value spec[VKPPU_MAX_SPEC_VALUES];
   uint32_t spec_count;
};

/* The vertex input state as the compiler takes it; NULL or a reason. */
static const char *vertex_input(const VkPipelineVertexInputStateCreateInfo *vi,
                                struct drv_vertex_attribute *attrs, uint32_t *attr_count,
                                struct drv_vertex_binding *binds, uint32_t *bind_count,
                                uint32_t stride[DRV_ABI_MAX_VERTEX_BUFFERS])
{
   *attr_count = *bind_count = 0;
   if (!vi)
      return NULL;
   if (vi->vertexBindingDescriptionCount > DRV_ABI_MAX_VERTEX_BUFFERS ||
       vi->vertexAttributeDescriptionCount > DRV_GFX_MAX_SLOTS)
      return "too many vertex bindings or attributes";
   for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; i++) {
      const VkVertexInputBindingDescription *b = &vi->pVertexBindingDescriptions[i];
      if (b->binding >= DRV_ABI_MAX_VERTEX_BUFFERS)
         return "a vertex binding number is beyond maxVertexInputBindings";
      binds[i] = (struct drv_vertex_binding){
          .binding = b->binding,
          .per_instance = b->inputRate == VK_VERTEX_INPUT_RATE_INSTANCE,
          .divisor = 1,
      };
      stride[b->binding] = b->stride;
   }
   *bind_count = vi->vertexBindingDescriptionCount;
   for (const VkBaseInStructure *n = vi->pNext; n; n = n->pNext) {
      if (n->sType != VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)
         continue;
      const VkPipelineVertexInputDivisorStateCreateInfoEXT *ds = (const void *)n;
      for (uint32_t i = 0; i < ds->vertexBindingDivisorCount; i++) {
         const VkVertexInputBindingDivisorDescriptionEXT *d = &ds->pVertexBindingDivisors[i];
         struct drv_vertex_binding *b = NULL;
         for (uint32_t j = 0; j < *bind_count; j++)
            if (binds[j].binding == d->binding)
               b = &binds[j];
         if (!b || !b->per_instance)
            return "a vertex binding divisor names a binding that is not INSTANCE rate";
         b->divisor = d->divisor;
      }
   }
   for (uint32_t i = 0; i < vi->vertexAttributeDescriptionCount; i++) {
      const VkVertexInputAttributeDescription *a = &vi->pVertexAttributeDescriptions[i];
      if (!vkppu_vertex_format_supported(a->format))
         return "a vertex attribute's format has no VERTEX_BUFFER feature";
      if (a->binding >= DRV_ABI_MAX_VERTEX_BUFFERS)
         return "a vertex attribute names a binding beyond maxVertexInputBindings";
      attrs[i] = (struct drv_vertex_attribute){
          .location = a->location, .binding = a->binding, .format = a->format, .offset = a->offset};
   }
   *attr_count = vi->vertexAttributeDescriptionCount;
   return NULL;
}

/* A descriptor for one compiled program at va (cbank[0] is the draw's). */
static struct ppu_gfx_program descriptor(const struct drv_shader_binary *b,
                                         const struct drv_graphics_program_info *info, uint64_t va)
{
   struct ppu_gfx_program d;
   memset(&d, 0, sizeof(d));
   d.version = PPU_GFX_PROGRAM_VERSION;
   d.flags = info->flags;
   d.program_va = va;
   d.register_count = b->register_count;
   d.attribute_count = info->attribute_count;
   d.local_memory_size = b->local_memory_size;
   d.output_mask = info->output_mask;
   d.interpolation = info->interpolation;
   d.centroid_mask = info->centroid_mask;
   d.point_coord_slot = info->point_coord_slot;
   return d;
}

VkResult vkppu_gfx_build_programs(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                  const struct drv_graphics_compile_request *req,
                                  const char *caller, const char *name,
                                  struct vkppu_gfx_programs *out)
{
   memset(out, 0, sizeof(*out));
   struct drv_graphics_binary bin;
   memset(&bin, 0, sizeof(bin));
   char err[512] = "";
   if (drv_compile_graphics(req, &bin, err, sizeof(err)) != 0) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: cannot compile the shaders: %s", caller, err);
      return VK_ERROR_UNKNOWN;
   }
   const bool has_fs = bin.fragment.code != NULL;
   if (bin.vertex.register_count == 0 || bin.vertex.register_count > MAX_REGISTERS_PER_THREAD ||
       (has_fs && (bin.fragment.register_count == 0 ||
                   bin.fragment.register_count > MAX_REGISTERS_PER_THREAD))) {
      drv_graphics_binary_free(&bin);
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "%s: a stage needs more registers than a thread has", caller);
      return VK_ERROR_UNKNOWN;
   }
   /* Vertex code, then fragment code on a 256-byte boundary. */
   uint64_t vs_bytes = (uint64_t)bin.vertex.code_words * 4;
   uint64_t fs_offset = (vs_bytes + 255u) & ~(uint64_t)255u;
   out->bytes = fs_offset + (has_fs ? (uint64_t)bin.fragment.code_words * 4 : 0);
   enum drv_result dr =
       drv_bo_create(dev->drv, out->bytes, DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &out->bo);
   if (dr != DRV_SUCCESS) {
      drv_graphics_binary_free(&bin);
      return vkppu_result_from_drv(dr);
   }
   memcpy(out->bo->map, bin.vertex.code, vs_bytes);
   if (has_fs)
      memcpy(out->bo->map + fs_offset, bin.fragment.code, (size_t)bin.fragment.code_words * 4);
   out->vertex = descriptor(&bin.vertex, &bin.vertex_info, out->bo->va);
   if (has_fs)
      out->fragment = descriptor(&bin.fragment, &bin.fragment_info, out->bo->va + fs_offset);
   out->vertex_info = bin.vertex_info;
   out->fragment_info = bin.fragment_info;
   out->clip_distance_count = bin.clip_distance_count;
   out->cull_distance_count = bin.cull_distance_count;
   drv_graphics_binary_free(&bin);
   dr = drv_program_register(dev->drv, out->bo->va, out->bytes, name, pipeline_debug_name, pipe);
   if (dr != DRV_SUCCESS) {
      drv_bo_destroy(dev->drv, out->bo);
      out->bo = NULL;
      return vkppu_result_from_drv(dr);
   }
   return VK_SUCCESS;
}

void vkppu_gfx_programs_free(struct vkppu_device *dev, struct vkppu_gfx_programs *p)
{
   if (!p->bo)
      return;
   /* Before the memory goes: a fault report must not name freed code. */
   drv_program_unregister(dev->drv, p->bo->va);
   drv_bo_destroy(dev->drv, p->bo);
   p->bo = NULL;
}

static VkResult compile_and_upload(struct vkppu_device *dev, struct vkppu_pipeline *pipe,
                                   const VkGraphicsPipelineCreateInfo *ci,
                                   const struct stage_source *vs, const struct stage_source *fs,
                                   const struct drv_pipeline_abi *abi)
{
   struct vkppu_gfx_pipeline *g = pipe->gfx;
   const bool dynamic_input = (g->dynamic & VKPPU_DYN_VERTEX_INPUT) != 0;
   struct drv_vertex_attribute attrs[DRV_GFX_MAX_SLOTS];
   struct drv_vertex_binding binds[DRV_ABI_MAX_VERTEX_BUFFERS];
   uint32_t attr_count, bind_count;
   /* With a dynamic vertex input state pVertexInputState is ignored. */
   const char *why = vertex_input(dynamic_input ? NULL : ci->pVertexInputState, attrs, &attr_count,
                                  binds, &bind_count, g->vertex_stride);
   if (why)
      return fail(dev, why);
   uint32_t flags = 0;
   const char *dbg = getenv("VKPPU_DEBUG"); /* as compute pipelines (docs/compiler.md) */
   if (dbg && strstr(dbg, "ir"))
      flags |= DRV_COMPILE_DEBUG_PRINT_IR;
   if (dbg && strstr(dbg, "isa"))
      flags |= DRV_COMPILE_DEBUG_PRINT_ISA;
   struct drv_graphics_compile_request req = {
       .vertex = {.spirv = vs->module->words,
                  .word_count = vs->module->word_count,
                  .entry_point = vs->entry,
                  .spec = vs->spec,
                  .spec_count = vs->spec_count,
                  .abi = abi,
                  .max_registers = MAX_REGISTERS_PER_THREAD,
                  .debug_flags = flags},
       .attributes = attrs,
       .attribute_count = attr_count,
       .bindings = binds,
       .binding_count = bind_count,
       .samples = 1u << g->samples_log2,
       .sample_shading = g->sample_shading,
       .vertex_input_unknown = dynamic_input,
   };
   if (fs)
      req.fragment = (struct drv_compile_request){.spirv = fs->module->words,
                                                  .word_count = fs->module->word_count,
                                                  .entry_point = fs->entry,
                                                  .spec = fs->spec,
                                                  .spec_count = fs->spec_count,
                                                  .abi = abi,
                                                  .max_registers = MAX_REGISTERS_PER_THREAD,
                                                  .debug_flags = flags};
   char name[DRV_PROGRAM_NAME_SIZE];
   snprintf(name, sizeof(name), "graphics pipeline 0x%" PRIx64 " (vertex %s, fragment %s)",
            (uint64_t)(uintptr_t)pipe, vs->entry, fs ? fs->entry : "none");
   struct vkppu_gfx_programs prog;
   VkResult r = vkppu_gfx_build_programs(dev, pipe, &req, "vkCreateGraphicsPipelines", name, &prog);
   if (r != VK_SUCCESS)
      return r;
   const bool has_fs = prog.fragment.program_va != 0;
   pipe->code_bo = prog.bo;
   g->vertex = prog.vertex;
   g->fragment = prog.fragment;
   /* The header's distances: the clip distances, then the cull distances. */
   g->clip_distance_mask = (1u << prog.clip_distance_count) - 1u;
   g->cull_distance_mask = ((1u << prog.cull_distance_count) - 1u) << prog.clip_distance_count;
   /* The request, or what the shader implies (SampleId, SamplePosition, a
    * Sample input); per sample only means something at 4x. */
   g->sample_shading =
       has_fs && g->samples_log2 == 2 && prog.fragment_info.sample_shading ? 1u : 0u;
   /* The fragment program may read one slot more than the vertex program
    * writes: gl_PointCoord's, which setup fills in. */
   uint32_t slots = prog.vertex_info.attribute_count;
   uint32_t read = has_fs && prog.fragment_info.attribute_count > slots
                       ? prog.fragment_info.attribute_count
                       : slots;
   g->scratch_size =
       (32u * PPU_GFX_VERTEX_STRIDE(slots) + PPU_GFX_PRIMITIVE_STRIDE(read) + 255u) & ~255u;
   pipe->program = (struct vkppu_program_info){.code_words = (uint32_t)(prog.bytes / 4),
                                               .register_count = prog.vertex.register_count,
                                               .local_memory_size = prog.vertex.local_memory_size};
   /* Programs for the draws' vertex input states come from the same sources. */
   return dynamic_input ? vkppu_gfx_variants_init(dev, pipe, &req) : VK_SUCCESS;
}

static VkResult create_pipeline(struct vkppu_device *dev, const VkGraphicsPipelineCreateInfo *ci,
                                const VkAllocationCallbacks *pAllocator, VkPipeline *out)
{
   const struct vkppu_pipeline_layout *layout = vkppu_pipeline_layout_from_handle(ci->layout);
   const struct vkppu_render_pass *pass = vkppu_render_pass_from_handle(ci->renderPass);
   if (!layout)
      return fail(dev, "a pipeline layout is required");
   /* Dynamic rendering: the attachment formats make the subpass, and no
    * VkPipelineRenderingCreateInfo means no attachments. */
   struct vkppu_rendering_pass rendering;
   if (!pass) {
      const VkPipelineRenderingCreateInfo *ri =
          vkppu_find_in_chain(ci->pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
      const VkPipelineRenderingCreateInfo none = {0};
      if (!ri)
         ri = &none;
      const char *why = vkppu_rendering_pass_init(
          &rendering, ri->colorAttachmentCount, ri->pColorAttachmentFormats,
          ri->depthAttachmentFormat, ri->stencilAttachmentFormat);
      if (why)
         return fail(dev, why);
      pass = &rendering.pass;
   } else if (ci->subpass >= pass->subpass_count) {
      return fail(dev, "subpass is not a subpass of the render pass");
   }
   const struct vkppu_subpass *sp = &pass->subpasses[pass == &rendering.pass ? 0 : ci->subpass];

   struct stage_source *src = calloc(2, sizeof(*src));
   if (!src)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   struct stage_source *vs = NULL, *fs = NULL;
   VkResult r = VK_SUCCESS;
   for (uint32_t i = 0; i < ci->stageCount && r == VK_SUCCESS; i++) {
      const VkPipelineShaderStageCreateInfo *st = &ci->pStages[i];
      struct stage_source *s = st->stage == VK_SHADER_STAGE_VERTEX_BIT     ? &src[0]
                               : st->stage == VK_SHADER_STAGE_FRAGMENT_BIT ? &src[1]
                                                                           : NULL;
      if (!s) {
         r = fail(dev, "only vertex and fragment stages are supported");
         break;
      }
      s->module = vkppu_shader_module_from_handle(st->module);
      if (!s->module) {
         r = fail(dev, "a stage has no shader module");
         break;
      }
      s->entry = st->pName ? st->pName : "main";
      s->spec_count = vkppu_resolve_specialization(st->pSpecializationInfo, s->spec);
      if (s == &src[0])
         vs = s;
      else
         fs = s;
   }
   if (r == VK_SUCCESS && !vs)
      r = fail(dev, "a vertex stage is required");

   struct vkppu_pipeline *pipe = NULL;
   if (r == VK_SUCCESS) {
      pipe = vkppu_device_zalloc(dev, pAllocator, sizeof(*pipe), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (pipe) {
         vkppu_object_init(&pipe->base, VK_OBJECT_TYPE_PIPELINE, dev);
         pipe->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
         pipe->push_constant_size = layout->push_constant_size;
         pipe->gfx = calloc(1, sizeof(*pipe->gfx));
      }
      if (!pipe || !pipe->gfx)
         r = VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (r == VK_SUCCESS) {
      const char *why = vkppu_gfx_pipeline_state(pipe->gfx, ci, sp, pass);
      if (why)
         r = fail(dev, why);
   }
   if (r == VK_SUCCESS) {
      struct drv_pipeline_abi abi = layout->abi;
      abi.robust_buffer_access =
          vkppu_pipeline_buffer_robustness(dev, ci->pNext, ci->pStages, ci->stageCount, true);
      r = compile_and_upload(dev, pipe, ci, vs, fs, &abi);
   }
   free(src);
   if (r != VK_SUCCESS) {
      if (pipe)
         vkppu_pipeline_destroy(dev, pAllocator, pipe);
      return r;
   }
   *out = vkppu_pipeline_to_handle(pipe);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateGraphicsPipelines(
    VkDevice device, VkPipelineCache pipelineCache, uint32_t createInfoCount,
    const VkGraphicsPipelineCreateInfo *pCreateInfos, const VkAllocationCallbacks *pAllocator,
    VkPipeline *pPipelines)
{
   (void)pipelineCache;
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VkResult result = VK_SUCCESS;
   /* Every pipeline is attempted unless one asks to stop at its failure;
    * failed ones are VK_NULL_HANDLE. */
   for (uint32_t i = 0; i < createInfoCount; i++)
      pPipelines[i] = VK_NULL_HANDLE;
   for (uint32_t i = 0; i < createInfoCount; i++) {
      VkResult r;
      /* Graphics programs are never cached, so every one needs the
       * compiler (VK_EXT_pipeline_creation_cache_control). */
      if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
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
   return result;
}
