/* VkDescriptorUpdateTemplate (VK_KHR_descriptor_update_template): a list of
 * (binding, element, count, offset, stride) entries that
 * vkUpdateDescriptorSetWithTemplate applies to application memory. Only the
 * DESCRIPTOR_SET template type exists here: push descriptors are not
 * reported. */
#include "vkppu_descriptor.h"

struct vkppu_descriptor_update_template {
   struct vkppu_object base;
   uint32_t entry_count;
   VkDescriptorUpdateTemplateEntry entries[];
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_descriptor_update_template, VkDescriptorUpdateTemplate)

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDescriptorUpdateTemplate(
    VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDescriptorUpdateTemplate *pDescriptorUpdateTemplate)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   size_t n = pCreateInfo->descriptorUpdateEntryCount;
   struct vkppu_descriptor_update_template *t = vkppu_device_zalloc(
       dev, pAllocator, sizeof(*t) + n * sizeof(t->entries[0]), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!t)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&t->base, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE, dev);
   t->entry_count = (uint32_t)n;
   if (n)
      memcpy(t->entries, pCreateInfo->pDescriptorUpdateEntries, n * sizeof(t->entries[0]));
   /* The set layout is only needed to check the entries, which the layout
    * of the set being updated does at update time. */
   *pDescriptorUpdateTemplate = vkppu_descriptor_update_template_to_handle(t);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyDescriptorUpdateTemplate(
    VkDevice device, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
    const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_update_template, t, descriptorUpdateTemplate);
   if (!t)
      return;
   vkppu_object_finish(&t->base);
   vkppu_device_free(dev, pAllocator, t);
}

VKAPI_ATTR void VKAPI_CALL vkppu_UpdateDescriptorSetWithTemplate(
    VkDevice device, VkDescriptorSet descriptorSet,
    VkDescriptorUpdateTemplate descriptorUpdateTemplate, const void *pData)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_set, set, descriptorSet);
   VKPPU_FROM_HANDLE(vkppu_descriptor_update_template, t, descriptorUpdateTemplate);
   if (!t || !pData)
      return;
   for (uint32_t i = 0; i < t->entry_count; i++) {
      const VkDescriptorUpdateTemplateEntry *e = &t->entries[i];
      if (e->descriptorType == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR) {
         /* Element j is a VkAccelerationStructureKHR at pData + offset +
          * j * stride (VkDescriptorUpdateTemplateEntry). */
         vkppu_descriptor_set_write_acceleration_structures(
             set, e->dstBinding, e->dstArrayElement, e->descriptorCount,
             (const uint8_t *)pData + e->offset, e->stride);
         continue;
      }
      const uint8_t *data = (const uint8_t *)pData + e->offset;
      switch (e->descriptorType) {
      case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
         /* descriptorCount bytes at data, dstArrayElement bytes into the
          * block (VkDescriptorUpdateTemplateEntry). */
         vkppu_descriptor_set_write_inline(set, e->dstBinding, e->dstArrayElement,
                                           e->descriptorCount, data);
         continue;
      case VK_DESCRIPTOR_TYPE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
      case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
         /* Element j is a VkDescriptorImageInfo at data + j * stride. */
         vkppu_descriptor_set_write_images(
             set, e->descriptorType, e->dstBinding, e->dstArrayElement, e->descriptorCount,
             (const VkDescriptorImageInfo *)(const void *)data, e->stride);
         continue;
      case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
         /* Element j is a VkBufferView at data + j * stride. */
         vkppu_descriptor_set_write_texel_buffers(set, e->dstBinding, e->dstArrayElement,
                                                  e->descriptorCount, data, e->stride);
         continue;
      default:
         break;
      }
      if (!vkppu_descriptor_type_is_buffer(e->descriptorType)) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                      "vkUpdateDescriptorSetWithTemplate: descriptor type %d is not supported; "
                      "entry ignored",
                      (int)e->descriptorType);
         continue;
      }
      /* Element j's VkDescriptorBufferInfo is at pData + offset + j * stride
       * (VkDescriptorUpdateTemplateEntry). */
      vkppu_descriptor_set_write_buffers(
          set, e->dstBinding, e->dstArrayElement, e->descriptorCount,
          (const VkDescriptorBufferInfo *)(const void *)((const uint8_t *)pData + e->offset),
          e->stride);
   }
}
