/* VkDescriptorSetLayout: assigns every binding its byte offset in a set's
 * descriptor memory (driver/shader_abi.h) and numbers the dynamic buffer
 * descriptors, which the pipeline layout then places in the dynamic-offset
 * table of constant bank 0. */
#include <stdlib.h>

#include "vkppu_descriptor.h"
#include "vkppu_image.h"

bool vkppu_descriptor_type_kind(VkDescriptorType type, enum drv_binding_kind *kind)
{
   switch (type) {
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
   case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: /* a buffer descriptor naming its data */
      *kind = DRV_BINDING_UNIFORM_BUFFER;
      return true;
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      *kind = DRV_BINDING_STORAGE_BUFFER;
      return true;
   case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
      *kind = DRV_BINDING_ACCELERATION_STRUCTURE;
      return true;
   case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
   case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: /* a texture header, read only by fragment shaders */
      *kind = DRV_BINDING_SAMPLED_IMAGE;
      return true;
   case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      *kind = DRV_BINDING_STORAGE_IMAGE;
      return true;
   case VK_DESCRIPTOR_TYPE_SAMPLER:
      *kind = DRV_BINDING_SAMPLER;
      return true;
   case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      *kind = DRV_BINDING_COMBINED_IMAGE_SAMPLER;
      return true;
   case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      *kind = DRV_BINDING_UNIFORM_TEXEL_BUFFER;
      return true;
   case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      *kind = DRV_BINDING_STORAGE_TEXEL_BUFFER;
      return true;
   default:
      return false;
   }
}

/* Bytes per element of a binding of that type; 0 for unsupported types. */
static uint32_t type_stride(VkDescriptorType type)
{
   enum drv_binding_kind kind;
   return vkppu_descriptor_type_kind(type, &kind) ? drv_descriptor_stride(kind) : 0;
}

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
   for (uint32_t i = 0; layout->bindings && i < layout->binding_count; i++)
      vkppu_free(&alloc, layout->bindings[i].immutable_samplers);
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
          /* An inline block's elements are bytes, not descriptors. */
          .stride = b->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                        ? 0
                        : type_stride(b->descriptorType),
          .dynamic_index = -1,
      };
   }
   layout->binding_count = n;
   /* Descriptor indexing: per-binding flags, in pBindings order. Update
    * after bind, update unused while pending and partially bound need
    * nothing more: descriptors are written straight to the memory the GPU
    * reads when it executes, and unwritten ones are zeros (a fault if used,
    * never a stale read). */
   for (const VkBaseInStructure *ext = pCreateInfo->pNext; ext; ext = ext->pNext) {
      if (ext->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
         continue;
      const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = (const void *)ext;
      for (uint32_t i = 0; i < bf->bindingCount && i < n; i++)
         layout->bindings[i].flags = bf->pBindingFlags[i];
   }
   bool out_of_memory = false;
   for (uint32_t i = 0; i < n; i++) {
      /* Immutable samplers are copied now: the application may destroy
       * them once the layout exists (VkDescriptorSetLayoutBinding). */
      const VkDescriptorSetLayoutBinding *b = &pCreateInfo->pBindings[i];
      if (!b->pImmutableSamplers || !b->descriptorCount ||
          (b->descriptorType != VK_DESCRIPTOR_TYPE_SAMPLER &&
           b->descriptorType != VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER))
         continue;
      struct ppu_sampler_header *headers = vkppu_alloc(alloc, sizeof(*headers) * b->descriptorCount,
                                                       8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!headers) {
         out_of_memory = true;
         break;
      }
      for (uint32_t e = 0; e < b->descriptorCount; e++) {
         const struct vkppu_sampler *sampler = vkppu_sampler_from_handle(b->pImmutableSamplers[e]);
         headers[e] = sampler ? sampler->header : (struct ppu_sampler_header){0};
      }
      layout->bindings[i].immutable_samplers = headers;
   }
   if (out_of_memory) {
      vkppu_descriptor_set_layout_unref(dev, layout);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   /* Binding numbers need not be given in order nor be dense
    * (VkDescriptorSetLayoutCreateInfo); memory order is binding order. */
   if (n > 1)
      qsort(layout->bindings, n, sizeof(*layout->bindings), compare_bindings);
   uint64_t offset = 0;
   for (uint32_t i = 0; i < n; i++) {
      struct vkppu_set_binding *b = &layout->bindings[i];
      /* Headers are 64-byte aligned (hw/include/ppu/texture.h); buffer
       * descriptors pack at 16. */
      if (b->stride >= PPU_TEX_HEADER_ALIGN)
         offset = (offset + PPU_TEX_HEADER_ALIGN - 1) & ~(uint64_t)(PPU_TEX_HEADER_ALIGN - 1);
      b->offset = (uint32_t)offset;
      offset += vkppu_binding_bytes(b, b->count);
      /* An inline block is one descriptor whatever its size. */
      layout->descriptor_count +=
          b->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? (b->count != 0) : b->count;
      if (vkppu_descriptor_type_is_dynamic(b->type)) {
         b->dynamic_index = (int32_t)layout->dynamic_count;
         layout->dynamic_count += b->count;
      }
   }
   if (offset > UINT32_MAX / 2) {
      /* Far beyond maxPerSetDescriptors (1024); refuse rather than wrap. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateDescriptorSetLayout: %llu descriptors exceed maxPerSetDescriptors",
                   (unsigned long long)layout->descriptor_count);
      vkppu_descriptor_set_layout_unref(dev, layout);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   layout->size = (uint32_t)offset;
   for (uint32_t i = 0; i < n; i++) {
      if (layout->bindings[i].flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)
         layout->variable = &layout->bindings[i];
   }
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
   int32_t variable = -1;
   const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags = NULL;
   for (const VkBaseInStructure *ext = pCreateInfo->pNext; ext; ext = ext->pNext) {
      if (ext->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
         flags = (const void *)ext;
   }
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++) {
      if (flags && i < flags->bindingCount &&
          (flags->pBindingFlags[i] & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT))
         variable = (int32_t)i;
      else
         total += pCreateInfo->pBindings[i].descriptorCount;
   }
   /* maxPerSetDescriptors (VkPhysicalDeviceMaintenance3Properties); a
    * variable binding may take what the others leave. */
   pSupport->supported = total <= VKPPU_MAX_PER_SET_DESCRIPTORS ? VK_TRUE : VK_FALSE;
   for (VkBaseOutStructure *ext = pSupport->pNext; ext; ext = ext->pNext) {
      if (ext->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT)
         continue;
      VkDescriptorSetVariableDescriptorCountLayoutSupport *v = (void *)ext;
      v->maxVariableDescriptorCount = variable >= 0 && pSupport->supported
                                          ? (uint32_t)(VKPPU_MAX_PER_SET_DESCRIPTORS - total)
                                          : 0;
   }
   if (variable >= 0 &&
       pCreateInfo->pBindings[variable].descriptorCount >
           VKPPU_MAX_PER_SET_DESCRIPTORS -
               (total < VKPPU_MAX_PER_SET_DESCRIPTORS ? total : VKPPU_MAX_PER_SET_DESCRIPTORS))
      pSupport->supported = VK_FALSE;
}
