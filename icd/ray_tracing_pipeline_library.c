/* The stages and shader groups of a ray-tracing pipeline as the compiler
 * takes them, gathered from its create info and its pipeline libraries
 * (VK_KHR_pipeline_library; docs/ray-tracing-pipeline.md).
 *
 * A pipeline is one program compiled from every stage it can run, so a
 * library compiles nothing: it keeps copies of its stages (SPIR-V, entry
 * point, specialization) and groups, and the pipeline that links it
 * compiles them together with its own. Groups are numbered as Vulkan's
 * "Pipeline Library" rules say: the pipeline's own groups first, then each
 * library's, in pLibraries order (a library that links libraries has
 * flattened them already, in the same order). */
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "vkppu_pipeline.h"

static bool stage_kind(VkShaderStageFlagBits stage, enum drv_rt_stage_kind *kind)
{
   switch (stage) {
   case VK_SHADER_STAGE_RAYGEN_BIT_KHR:
      *kind = DRV_RT_STAGE_RAYGEN;
      return true;
   case VK_SHADER_STAGE_MISS_BIT_KHR:
      *kind = DRV_RT_STAGE_MISS;
      return true;
   case VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR:
      *kind = DRV_RT_STAGE_CLOSEST_HIT;
      return true;
   case VK_SHADER_STAGE_ANY_HIT_BIT_KHR:
      *kind = DRV_RT_STAGE_ANY_HIT;
      return true;
   case VK_SHADER_STAGE_INTERSECTION_BIT_KHR:
      *kind = DRV_RT_STAGE_INTERSECTION;
      return true;
   case VK_SHADER_STAGE_CALLABLE_BIT_KHR:
      *kind = DRV_RT_STAGE_CALLABLE;
      return true;
   default:
      return false;
   }
}

/* A stage index of a group, moved by `base` (unused stays unused). */
static uint32_t shifted(uint32_t vk_index, uint32_t base)
{
   return vk_index == VK_SHADER_UNUSED_KHR || vk_index == DRV_RT_UNUSED ? DRV_RT_UNUSED
                                                                        : vk_index + base;
}

static const struct vkppu_rt_source *library_source(VkPipeline handle)
{
   const struct vkppu_pipeline *lib = vkppu_pipeline_from_handle(handle);
   return lib ? lib->library_source : NULL;
}

VkResult vkppu_rt_source_gather(struct vkppu_device *dev,
                                const VkRayTracingPipelineCreateInfoKHR *ci,
                                struct vkppu_rt_source *out)
{
   memset(out, 0, sizeof(*out));
   uint32_t stages = ci->stageCount, groups = ci->groupCount;
   uint32_t libraries = ci->pLibraryInfo ? ci->pLibraryInfo->libraryCount : 0;
   for (uint32_t l = 0; l < libraries; l++) {
      const struct vkppu_rt_source *src = library_source(ci->pLibraryInfo->pLibraries[l]);
      if (!src) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateRayTracingPipelinesKHR: pLibraries[%u] is not a ray-tracing "
                      "pipeline library",
                      l);
         return VK_ERROR_UNKNOWN;
      }
      stages += src->stage_count;
      groups += src->group_count;
   }
   out->stages = calloc(stages ? stages : 1, sizeof(*out->stages));
   out->groups = calloc(groups ? groups : 1, sizeof(*out->groups));
   out->spec = calloc((size_t)(ci->stageCount ? ci->stageCount : 1) * VKPPU_MAX_SPEC_VALUES,
                      sizeof(*out->spec));
   if (!out->stages || !out->groups || !out->spec)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t i = 0; i < ci->stageCount; i++) {
      const VkPipelineShaderStageCreateInfo *st = &ci->pStages[i];
      const struct vkppu_shader_module *mod = vkppu_shader_module_from_handle(st->module);
      struct drv_rt_stage *s = &out->stages[i];
      if (!mod || !stage_kind(st->stage, &s->kind)) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateRayTracingPipelinesKHR: stage %u needs a shader module and a "
                      "ray-tracing stage",
                      i);
         return VK_ERROR_UNKNOWN;
      }
      s->spirv = mod->words;
      s->word_count = mod->word_count;
      s->entry_point = st->pName ? st->pName : "main";
      s->spec = &out->spec[(size_t)i * VKPPU_MAX_SPEC_VALUES];
      s->spec_count = vkppu_resolve_specialization(st->pSpecializationInfo,
                                                   &out->spec[(size_t)i * VKPPU_MAX_SPEC_VALUES]);
   }
   for (uint32_t g = 0; g < ci->groupCount; g++) {
      const VkRayTracingShaderGroupCreateInfoKHR *gi = &ci->pGroups[g];
      struct drv_rt_group *o = &out->groups[g];
      *o = (struct drv_rt_group){DRV_RT_UNUSED, DRV_RT_UNUSED, DRV_RT_UNUSED, DRV_RT_UNUSED};
      if (gi->type == VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR) {
         o->general = shifted(gi->generalShader, 0);
      } else {
         o->closest_hit = shifted(gi->closestHitShader, 0);
         o->any_hit = shifted(gi->anyHitShader, 0);
         if (gi->type == VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR)
            o->intersection = shifted(gi->intersectionShader, 0);
      }
   }
   out->stage_count = ci->stageCount;
   out->group_count = ci->groupCount;
   for (uint32_t l = 0; l < libraries; l++) {
      const struct vkppu_rt_source *src = library_source(ci->pLibraryInfo->pLibraries[l]);
      uint32_t base = out->stage_count;
      memcpy(out->stages + base, src->stages, src->stage_count * sizeof(*src->stages));
      for (uint32_t g = 0; g < src->group_count; g++) {
         const struct drv_rt_group *in = &src->groups[g];
         out->groups[out->group_count++] =
             (struct drv_rt_group){shifted(in->general, base), shifted(in->closest_hit, base),
                                   shifted(in->any_hit, base), shifted(in->intersection, base)};
      }
      out->stage_count += src->stage_count;
   }
   return VK_SUCCESS;
}

VkResult vkppu_rt_source_keep(const struct vkppu_rt_source *in, struct vkppu_rt_source **out)
{
   struct vkppu_rt_source *s = calloc(1, sizeof(*s));
   if (!s)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->owned = true;
   s->stage_count = in->stage_count;
   s->group_count = in->group_count;
   s->stages = calloc(in->stage_count ? in->stage_count : 1, sizeof(*s->stages));
   s->groups = calloc(in->group_count ? in->group_count : 1, sizeof(*s->groups));
   bool ok = s->stages && s->groups;
   if (ok)
      memcpy(s->groups, in->groups, in->group_count * sizeof(*in->groups));
   for (uint32_t i = 0; ok && i < in->stage_count; i++) {
      const struct drv_rt_stage *from = &in->stages[i];
      struct drv_rt_stage *to = &s->stages[i];
      to->kind = from->kind;
      to->word_count = from->word_count;
      uint32_t *words = malloc(from->word_count * 4 + 4);
      char *entry = strdup(from->entry_point);
      struct drv_spec_value *spec = calloc(from->spec_count + 1, sizeof(*spec));
      to->spirv = words;
      to->entry_point = entry;
      to->spec = spec;
      to->spec_count = from->spec_count;
      ok = words && entry && spec;
      if (ok) {
         memcpy(words, from->spirv, from->word_count * 4);
         memcpy(spec, from->spec, from->spec_count * sizeof(*spec));
      }
   }
   if (!ok) {
      vkppu_rt_source_free(s);
      free(s);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   *out = s;
   return VK_SUCCESS;
}

void vkppu_rt_source_free(struct vkppu_rt_source *s)
{
   if (!s)
      return;
   for (uint32_t i = 0; s->owned && s->stages && i < s->stage_count; i++) {
      free((void *)s->stages[i].spirv);
      free((void *)s->stages[i].entry_point);
      free((void *)s->stages[i].spec);
   }
   free(s->stages);
   free(s->groups);
   free(s->spec);
   memset(s, 0, sizeof(*s));
}
