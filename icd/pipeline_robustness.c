/* How robust a pipeline's buffer accesses are (driver/shader_abi.h
 * struct drv_pipeline_abi::robust_buffer_access): the device's features
 * (robustBufferAccess, VK_EXT_robustness2's robustBufferAccess2), overridden
 * per pipeline and per stage by VK_EXT_pipeline_robustness.
 *
 * A stage's VkPipelineRobustnessCreateInfoEXT replaces the pipeline's for
 * that stage, and DEVICE_DEFAULT in either means the device's behaviour
 * (VK_EXT_pipeline_robustness, "Pipeline Robustness"). The compiler has one
 * level per program for every buffer class (storage, uniform, vertex input),
 * so a pipeline gets the strongest level any of its stages asks for in any
 * class it has: a DISABLED class may then be checked all the same, which
 * the extension allows (DISABLED promises nothing, checked accesses are one
 * of the outcomes it permits). Images need nothing: the texture unit is
 * always robust (robustImageAccess). */
#include "vkppu_image.h"
#include "vkppu_pipeline.h"

static uint32_t level_of(VkPipelineRobustnessBufferBehaviorEXT behaviour, uint32_t device_level)
{
   switch (behaviour) {
   case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT:
      return DRV_ROBUST_NONE;
   case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_EXT:
      return DRV_ROBUST_BUFFER_ACCESS;
   case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT:
      return DRV_ROBUST_BUFFER_ACCESS_2;
   default: /* DEVICE_DEFAULT */
      return device_level;
   }
}

uint32_t vkppu_device_buffer_robustness(const struct vkppu_device *dev)
{
   if (dev->robust_buffer_access2)
      return DRV_ROBUST_BUFFER_ACCESS_2;
   return dev->enabled_features.robustBufferAccess ? DRV_ROBUST_BUFFER_ACCESS : DRV_ROBUST_NONE;
}

uint32_t vkppu_pipeline_buffer_robustness(const struct vkppu_device *dev, const void *pipeline_next,
                                          const VkPipelineShaderStageCreateInfo *stages,
                                          uint32_t stage_count, bool vertex_input)
{
   const uint32_t device_level = vkppu_device_buffer_robustness(dev);
   const VkPipelineRobustnessCreateInfoEXT *pipeline_info =
       vkppu_find_in_chain(pipeline_next, VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT);
   uint32_t level = DRV_ROBUST_NONE;
   /* No stage of its own (a ray-tracing pipeline made of libraries): the
    * pipeline's behaviour alone. */
   const uint32_t n = stage_count ? stage_count : 1;
   for (uint32_t i = 0; i < n; i++) {
      const VkPipelineRobustnessCreateInfoEXT *info =
          stage_count ? vkppu_find_in_chain(stages[i].pNext,
                                            VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT)
                      : NULL;
      if (!info)
         info = pipeline_info;
      uint32_t storage = info ? level_of(info->storageBuffers, device_level) : device_level;
      uint32_t uniform = info ? level_of(info->uniformBuffers, device_level) : device_level;
      level = storage > level ? storage : level;
      level = uniform > level ? uniform : level;
      /* Vertex input is fetched by the vertex program. */
      if (vertex_input && stage_count && stages[i].stage == VK_SHADER_STAGE_VERTEX_BIT) {
         uint32_t vertex = info ? level_of(info->vertexInputs, device_level) : device_level;
         level = vertex > level ? vertex : level;
      }
   }
   return level;
}
