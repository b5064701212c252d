/* VkPipelineLayout: the sets and push-constant ranges a pipeline sees, and
 * the same as struct drv_pipeline_abi for the compiler (driver/shader_abi.h):
 * every binding with its set, kind, offset and, for dynamic buffers, its
 * slot in the dynamic-offset table of constant bank 0 — set 0's dynamic
 * bindings in binding order, then set 1's, and so on. */
#include "vkppu_descriptor.h"

static void destroy_layout(struct vkppu_device *dev, const VkAllocationCallbacks *pAllocator,
                           struct vkppu_pipeline_layout *layout)
{
   for (uint32_t i = 0; i < DRV_ABI_MAX_SETS; i++) {
      if (layout->sets[i])
         vkppu_descriptor_set_layout_unref(dev, layout->sets[i]);
   }
   vkppu_device_free(dev, pAllocator, layout->bindings);
   vkppu_object_finish(&layout->base);
   vkppu_device_free(dev, pAllocator, layout);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreatePipelineLayout(
    VkDevice device, const VkPipelineLayoutCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkPipelineLayout *pPipelineLayout)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   if (pCreateInfo->setLayoutCount > DRV_ABI_MAX_SETS) {
      /* VUID-VkPipelineLayoutCreateInfo-setLayoutCount-00286: at most
       * maxBoundDescriptorSets (8, the ABI's set-address table). */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreatePipelineLayout: %u set layouts exceed maxBoundDescriptorSets (%u)",
                   pCreateInfo->setLayoutCount, DRV_ABI_MAX_SETS);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct vkppu_pipeline_layout *layout =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*layout), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!layout)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&layout->base, VK_OBJECT_TYPE_PIPELINE_LAYOUT, dev);
   layout->set_count = pCreateInfo->setLayoutCount;

   uint32_t abi_bindings = 0;
   for (uint32_t s = 0; s < layout->set_count; s++) {
      /* A NULL set layout is allowed with graphicsPipelineLibrary; treat it
       * as an empty set. */
      struct vkppu_descriptor_set_layout *set =
          vkppu_descriptor_set_layout_from_handle(pCreateInfo->pSetLayouts[s]);
      layout->dynamic_base[s] = layout->dynamic_count;
      if (!set)
         continue;
      vkppu_descriptor_set_layout_ref(set);
      layout->sets[s] = set;
      layout->dynamic_count += set->dynamic_count;
      /* Every binding of a supported type (as the loop below counts). */
      for (uint32_t b = 0; b < set->binding_count; b++) {
         enum drv_binding_kind kind;
         abi_bindings += vkppu_descriptor_type_kind(set->bindings[b].type, &kind);
      }
   }
   if (layout->dynamic_count > DRV_ABI_MAX_DYNAMIC_BUFFERS) {
      /* maxDescriptorSetUniformBuffersDynamic + ...StorageBuffersDynamic is 16. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreatePipelineLayout: %u dynamic buffers exceed the %u the device supports",
                   layout->dynamic_count, DRV_ABI_MAX_DYNAMIC_BUFFERS);
      destroy_layout(dev, pAllocator, layout);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }

   if (abi_bindings) {
      layout->bindings =
          vkppu_device_zalloc(dev, pAllocator, sizeof(*layout->bindings) * abi_bindings,
                              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!layout->bindings) {
         destroy_layout(dev, pAllocator, layout);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   uint32_t n = 0;
   for (uint32_t s = 0; s < layout->set_count; s++) {
      const struct vkppu_descriptor_set_layout *set = layout->sets[s];
      for (uint32_t b = 0; set && b < set->binding_count; b++) {
         const struct vkppu_set_binding *sb = &set->bindings[b];
         enum drv_binding_kind kind;
         if (!vkppu_descriptor_type_kind(sb->type, &kind))
            continue;
         layout->bindings[n++] = (struct drv_binding_layout){
             .set = s,
             .binding = sb->binding,
             .kind = kind,
             .offset = sb->offset,
             /* An inline block is one uniform block in the shader. */
             .array_size =
                 sb->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? (sb->count != 0) : sb->count,
             .dynamic_index =
                 sb->dynamic_index < 0 ? -1 : (int32_t)layout->dynamic_base[s] + sb->dynamic_index,
         };
      }
   }

   for (uint32_t i = 0; i < pCreateInfo->pushConstantRangeCount; i++) {
      const VkPushConstantRange *r = &pCreateInfo->pPushConstantRanges[i];
      uint64_t end = (uint64_t)r->offset + r->size;
      if (end > layout->push_constant_size)
         layout->push_constant_size = (uint32_t)(end > UINT32_MAX ? UINT32_MAX : end);
   }
   if (layout->push_constant_size > DRV_ABI_PUSH_CONSTANTS_SIZE) {
      /* VUID-VkPushConstantRange-size-00298: within maxPushConstantsSize. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreatePipelineLayout: push constants end at byte %u, beyond "
                   "maxPushConstantsSize (%u)",
                   layout->push_constant_size, DRV_ABI_PUSH_CONSTANTS_SIZE);
      destroy_layout(dev, pAllocator, layout);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   layout->abi = (struct drv_pipeline_abi){
       .bindings = layout->bindings,
       .binding_count = n,
       .push_constant_size = layout->push_constant_size,
   };
   *pPipelineLayout = vkppu_pipeline_layout_to_handle(layout);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyPipelineLayout(VkDevice device,
                                                       VkPipelineLayout pipelineLayout,
                                                       const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_pipeline_layout, layout, pipelineLayout);
   if (layout)
      destroy_layout(dev, pAllocator, layout);
}
