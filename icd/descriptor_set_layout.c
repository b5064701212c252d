/* VkDescriptorSetLayout: assigns every binding its byte offset in a set's
 * descriptor memory (driver/shader_abi.h) and numbers the dynamic buffer
 * descriptors, which the pipeline layout then places in the dynamic-offset
 * table of constant bank 0. */
#include <stdlib.h>

#include "vkppu_descriptor.h"

static int compare_bindings(const void *a, const void *b)
{
   const struct vkppu_set_binding *x = a, *y = b;
   return x->binding < y->binding ? -1 : x->binding > y->binding;
}

const struct vkppu_set_binding *
vkppu_set_layout_binding(const struct vkppu_descriptor_set_layout *layout, uint32_t binding)
{
   /* Sorted by binding number (see create), so a binary search. */
   uint32_t lo = 0, hi = layout->binding_count;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (layout->bindings[mid].binding == binding)
         return &layout->bindings[mid];
      if (layout->bindings[mid].binding < binding)
         lo = mid + 1;
      else
         hi = mid;
   }
   return NULL;
}

void vkppu_descriptor_set_layout_ref(struct vkppu_descriptor_set_layout *layout)
{
   atomic_fetch_add_explicit(&layout->refs, 1, memory_order_relaxed);
}

void vkppu_descriptor_set_layout_unref(struct vkppu_device *dev,
                                       struct vkppu_descriptor_set_layout *layout)
{
   (void)dev;
   if (atomic_fetch_sub_explicit(&layout->refs, 1, memory_order_acq_rel) != 1)
      return;
   VkAllocationCallbacks alloc = layout->alloc;
   vkppu_free(&alloc, layout->bindings);
   vkppu_object_finish(&layout->base);
   vkppu_free(&alloc, layout);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDescriptorSetLayout(
    VkDevice device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDescriptorSetLayout *pSetLayout)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   const VkAllocationCallbacks *alloc = vkppu_choose_alloc(pAllocator, &dev->alloc);
   struct vkppu_descriptor_set_layout *layout =
       vkppu_alloc(alloc, sizeof(*layout), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!layout)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memset(layout, 0, sizeof(*layout));
   vkppu_object_init(&layout->base, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, dev);
   atomic_init(&layout->refs, 1);
   layout->alloc = *alloc;
   uint32_t n = pCreateInfo->bindingCount;
   if (n) {
      layout->bindings =
          vkppu_alloc(alloc, sizeof(*layout->bindings) * n, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!layout->bindings) {
         vkppu_object_finish(&layout->base);
         vkppu_free(alloc, layout);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   for (uint32_t i = 0; i < n; i++) {
      const VkDescriptorSetLayoutBinding *b = &pCreateInfo->pBindings[i];
      layout->bindings[i] = (struct vkppu_set_binding){
          .binding = b->binding,
          .type = b->descriptorType,
          .count = b->descriptorCount,
          .stages = b->stageFlags,
          .dynamic_index = -1,
      };
   }
   layout->binding_count = n;
   /* Binding numbers need not be given in order nor be dense
    * (VkDescriptorSetLayoutCreateInfo); memory order is binding order. */
   if (n > 1)
      qsort(layout->bindings, n, sizeof(*layout->bindings), compare_bindings);
   uint64_t offset = 0;
   for (uint32_t i = 0; i < n; i++) {
      struct vkppu_set_binding *b = &layout->bindings[i];
      b->offset = (uint32_t)offset;
      offset += (uint64_t)b->count * DRV_DESCRIPTOR_SIZE;
      layout->descriptor_count += b->count;
      if (vkppu_descriptor_type_is_dynamic(b->type)) {
         b->dynamic_index = (int32_t)layout->dynamic_count;
         layout->dynamic_count += b->count;
      }
   }
   if (offset > UINT32_MAX / 2) {
      /* Far beyond maxPerSetDescriptors (1024); refuse rather than wrap. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateDescriptorSetLayout: %llu descriptors exceed maxPerSetDescriptors",
                   (unsigned long long)(offset / DRV_DESCRIPTOR_SIZE));
      layout->refs = 1;
      vkppu_descriptor_set_layout_unref(dev, layout);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   layout->size = (uint32_t)offset;
   *pSetLayout = vkppu_descriptor_set_layout_to_handle(layout);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
vkppu_DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout descriptorSetLayout,
                                 const VkAllocationCallbacks *pAllocator)
{
   (void)pAllocator; /* the layout keeps the callbacks it was created with */
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_set_layout, layout, descriptorSetLayout);
   if (layout)
      vkppu_descriptor_set_layout_unref(dev, layout);
}

VKAPI_ATTR void VKAPI_CALL vkppu_GetDescriptorSetLayoutSupport(
    VkDevice device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
    VkDescriptorSetLayoutSupport *pSupport)
{
   (void)device;
   uint64_t total = 0;
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++)
      total += pCreateInfo->pBindings[i].descriptorCount;
   /* maxPerSetDescriptors (VkPhysicalDeviceMaintenance3Properties) is 1024. */
   pSupport->supported = total <= 1024 ? VK_TRUE : VK_FALSE;
}
