/* VkDescriptorSet: allocation from a pool, and vkUpdateDescriptorSets
 * (writes and copies). A set is a range of its pool's descriptor memory,
 * written through the BAR in the format of driver/shader_abi.h. */
#include "gpu_memory.h"
#include "vkppu_acceleration_structure.h"
#include "vkppu_descriptor.h"
#include "vkppu_image.h"
#include "vkppu_memory.h"

void vkppu_descriptor_set_release(struct vkppu_device *dev, struct vkppu_descriptor_set *set);

static void link_set(struct vkppu_descriptor_pool *pool, struct vkppu_descriptor_set *set)
{
   set->prev = NULL;
   set->next = pool->sets;
   if (pool->sets)
      pool->sets->prev = set;
   pool->sets = set;
}

static void unlink_set(struct vkppu_descriptor_pool *pool, struct vkppu_descriptor_set *set)
{
   if (set->prev)
      set->prev->next = set->next;
   else
      pool->sets = set->next;
   if (set->next)
      set->next->prev = set->prev;
}

/* Adds (sign 1) or removes (sign -1) a layout's descriptors to the pool's
 * per-type counts. */
/* Descriptors a set of the layout holds in binding b: its count, or for
 * the variable-count binding the count the set was allocated with. */
static uint32_t binding_count(const struct vkppu_descriptor_set_layout *layout,
                              const struct vkppu_set_binding *b, uint32_t variable_count)
{
   return b == layout->variable ? variable_count : b->count;
}

static void account(struct vkppu_descriptor_pool *pool,
                    const struct vkppu_descriptor_set_layout *layout, uint32_t variable_count,
                    int sign)
{
   for (uint32_t i = 0; i < layout->binding_count; i++) {
      const struct vkppu_set_binding *b = &layout->bindings[i];
      int t = vkppu_pool_type_index(b->type);
      uint32_t n = binding_count(layout, b, variable_count);
      if (t >= 0)
         pool->used[t] += sign > 0 ? n : -n;
   }
}

static bool fits(const struct vkppu_descriptor_pool *pool,
                 const struct vkppu_descriptor_set_layout *layout, uint32_t variable_count)
{
   uint64_t need[VKPPU_POOL_DESCRIPTOR_TYPES] = {0};
   for (uint32_t i = 0; i < layout->binding_count; i++) {
      const struct vkppu_set_binding *b = &layout->bindings[i];
      int t = vkppu_pool_type_index(b->type);
      if (t >= 0)
         need[t] += binding_count(layout, b, variable_count);
   }
   for (uint32_t t = 0; t < VKPPU_POOL_DESCRIPTOR_TYPES; t++) {
      if (pool->used[t] + need[t] > pool->capacity[t])
         return false;
   }
   return true;
}

/* Offset of a binding's sampler header within one element: SAMPLER
 * descriptors are the header, COMBINED ones hold it after the image's. */
static uint32_t sampler_offset(VkDescriptorType type)
{
   return type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ? DRV_COMBINED_SAMPLER_OFFSET : 0;
}

static void write_immutable_samplers(struct vkppu_descriptor_set *set)
{
   const struct vkppu_descriptor_set_layout *layout = set->layout;
   for (uint32_t i = 0; i < layout->binding_count; i++) {
      const struct vkppu_set_binding *b = &layout->bindings[i];
      uint32_t n = binding_count(layout, b, set->variable_count);
      for (uint32_t e = 0; b->immutable_samplers && e < n; e++)
         memcpy(set->map + b->offset + (size_t)e * b->stride + sampler_offset(b->type),
                &b->immutable_samplers[e], sizeof(b->immutable_samplers[e]));
   }
}

/* Each inline uniform block's descriptor names the data after it. */
static void write_inline_descriptors(struct vkppu_descriptor_set *set)
{
   const struct vkppu_descriptor_set_layout *layout = set->layout;
   for (uint32_t i = 0; i < layout->binding_count; i++) {
      const struct vkppu_set_binding *b = &layout->bindings[i];
      uint32_t n = binding_count(layout, b, set->variable_count);
      if (b->type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK || n == 0)
         continue;
      struct drv_buffer_descriptor d = {.address = set->va + b->offset + VKPPU_INLINE_DATA_OFFSET,
                                        .range = n};
      memcpy(set->map + b->offset, &d, sizeof(d));
   }
}

static VkResult allocate_set(struct vkppu_device *dev, struct vkppu_descriptor_pool *pool,
                             struct vkppu_descriptor_set_layout *layout, uint32_t variable_count,
                             struct vkppu_descriptor_set **out)
{
   /* The variable binding is the last in memory, so a smaller count only
    * shortens the set. */
   uint32_t bytes = layout->size;
   if (layout->variable) {
      if (variable_count > layout->variable->count)
         variable_count = layout->variable->count; /* invalid usage; keep in bounds */
      bytes = layout->variable->offset +
              (uint32_t)vkppu_binding_bytes(layout->variable, variable_count);
   }
   /* Past maxSets or the pool's descriptor counts the allocation fails with
    * VK_ERROR_OUT_OF_POOL_MEMORY (vkAllocateDescriptorSets, since
    * VK_KHR_maintenance1); this driver keeps to the counts exactly so an
    * application sees the same failure it would on a stricter device. */
   if (pool->set_count >= pool->max_sets || !fits(pool, layout, variable_count))
      return VK_ERROR_OUT_OF_POOL_MEMORY;
   uint32_t size = (bytes + DRV_DESCRIPTOR_SET_ALIGN - 1) & ~(DRV_DESCRIPTOR_SET_ALIGN - 1);
   if (size == 0)
      size = DRV_DESCRIPTOR_SET_ALIGN; /* every set gets a nonzero address */
   uint64_t offset = 0;
   if (!pool->bo || extent_allocator_alloc(&pool->space, size, DRV_DESCRIPTOR_SET_ALIGN, &offset) !=
                        DRV_SUCCESS) {
      /* The counts fit, so only fragmentation can be in the way (see
       * descriptor_pool.c), which is what VK_ERROR_FRAGMENTED_POOL means. */
      return pool->bo ? VK_ERROR_FRAGMENTED_POOL : VK_ERROR_OUT_OF_POOL_MEMORY;
   }
   struct vkppu_descriptor_set *set =
       vkppu_alloc(&dev->alloc, sizeof(*set), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!set) {
      extent_allocator_free(&pool->space, offset, size);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memset(set, 0, sizeof(*set));
   vkppu_object_init(&set->base, VK_OBJECT_TYPE_DESCRIPTOR_SET, dev);
   set->pool = pool;
   set->layout = layout;
   vkppu_descriptor_set_layout_ref(layout);
   set->offset = offset;
   set->size = size;
   set->bytes = bytes;
   set->variable_count = variable_count;
   set->va = pool->bo->va + offset;
   set->map = pool->bo->map + offset;
   /* Freed ranges keep old descriptors; a fresh set starts zeroed so an
    * unwritten descriptor is a null buffer of range 0. */
   memset(set->map, 0, size);
   write_immutable_samplers(set);
   write_inline_descriptors(set);
   account(pool, layout, variable_count, 1);
   pool->set_count++;
   link_set(pool, set);
   *out = set;
   return VK_SUCCESS;
}

void vkppu_descriptor_set_release(struct vkppu_device *dev, struct vkppu_descriptor_set *set)
{
   struct vkppu_descriptor_pool *pool = set->pool;
   unlink_set(pool, set);
   account(pool, set->layout, set->variable_count, -1);
   pool->set_count--;
   extent_allocator_free(&pool->space, set->offset, set->size);
   vkppu_descriptor_set_layout_unref(dev, set->layout);
   vkppu_object_finish(&set->base);
   vkppu_free(&dev->alloc, set);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkppu_AllocateDescriptorSets(VkDevice device, const VkDescriptorSetAllocateInfo *pAllocateInfo,
                             VkDescriptorSet *pDescriptorSets)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_pool, pool, pAllocateInfo->descriptorPool);
   VkResult r = VK_SUCCESS;
   const VkDescriptorSetVariableDescriptorCountAllocateInfo *variable = NULL;
   for (const VkBaseInStructure *ext = pAllocateInfo->pNext; ext; ext = ext->pNext) {
      if (ext->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO)
         variable = (const void *)ext;
   }
   uint32_t i;
   for (i = 0; i < pAllocateInfo->descriptorSetCount; i++) {
      struct vkppu_descriptor_set *set = NULL;
      /* Without a count for it, a variable binding gets 0 descriptors
       * (VkDescriptorSetVariableDescriptorCountAllocateInfo). */
      uint32_t count =
          variable && i < variable->descriptorSetCount ? variable->pDescriptorCounts[i] : 0;
      r = allocate_set(dev, pool,
                       vkppu_descriptor_set_layout_from_handle(pAllocateInfo->pSetLayouts[i]),
                       count, &set);
      if (r != VK_SUCCESS)
         break;
      pDescriptorSets[i] = vkppu_descriptor_set_to_handle(set);
   }
   if (r != VK_SUCCESS) {
      /* All or nothing, every handle VK_NULL_HANDLE on failure
       * (vkAllocateDescriptorSets). */
      for (uint32_t j = 0; j < i; j++)
         vkppu_descriptor_set_release(dev, vkppu_descriptor_set_from_handle(pDescriptorSets[j]));
      for (uint32_t j = 0; j < pAllocateInfo->descriptorSetCount; j++)
         pDescriptorSets[j] = VK_NULL_HANDLE;
   }
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_FreeDescriptorSets(VkDevice device,
                                                        VkDescriptorPool descriptorPool,
                                                        uint32_t descriptorSetCount,
                                                        const VkDescriptorSet *pDescriptorSets)
{
   (void)descriptorPool;
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   for (uint32_t i = 0; i < descriptorSetCount; i++) {
      /* VK_NULL_HANDLE entries are ignored (vkFreeDescriptorSets). */
      if (pDescriptorSets[i])
         vkppu_descriptor_set_release(dev, vkppu_descriptor_set_from_handle(pDescriptorSets[i]));
   }
   return VK_SUCCESS;
}

/* Where a write of *count descriptors at (binding, element) starts, with
 * *count clamped to the set (0 when the binding does not exist) and the
 * binding in *out. Bindings are contiguous in binding order, and the
 * bindings an update may run into have the same type and so the same
 * stride, so running past the end of a binding continues with the next
 * (VkWriteDescriptorSet) at off + i * stride. */
static uint32_t write_range(const struct vkppu_descriptor_set *set, uint32_t binding,
                            uint32_t element, uint32_t *count, const struct vkppu_set_binding **out)
{
   const struct vkppu_set_binding *b = set ? vkppu_set_layout_binding(set->layout, binding) : NULL;
   uint64_t off = b ? (uint64_t)b->offset + (uint64_t)element * b->stride : UINT64_MAX;
   if (!b || !b->stride || off >= set->bytes) {
      *count = 0;
      *out = NULL;
      return 0;
   }
   uint32_t room = (uint32_t)((set->bytes - off) / b->stride);
   if (*count > room)
      *count = room;
   *out = b;
   return (uint32_t)off;
}

void vkppu_descriptor_set_write_buffers(struct vkppu_descriptor_set *set, uint32_t binding,
                                        uint32_t array_element, uint32_t count,
                                        const VkDescriptorBufferInfo *infos, size_t info_stride)
{
   if (!set || !infos)
      return; /* invalid usage the validation layer reports; never a crash */
   const struct vkppu_set_binding *b;
   uint32_t off = write_range(set, binding, array_element, &count, &b);
   if (b && b->stride != DRV_DESCRIPTOR_SIZE)
      return; /* not a buffer binding: invalid usage */
   for (uint32_t i = 0; i < count; i++) {
      const VkDescriptorBufferInfo *info =
          (const VkDescriptorBufferInfo *)(const void *)((const uint8_t *)infos + i * info_stride);
      struct drv_buffer_descriptor d = {0};
      const struct vkppu_buffer *buf = vkppu_buffer_from_handle(info->buffer);
      /* A null buffer (nullDescriptor, not reported) or an unbound one reads
       * as a descriptor of range 0. */
      if (buf && buf->va) {
         VkDeviceSize range = info->range;
         if (range == VK_WHOLE_SIZE)
            range = info->offset < buf->size ? buf->size - info->offset : 0;
         d.address = buf->va + info->offset;
         d.range = range > UINT32_MAX ? UINT32_MAX : (uint32_t)range;
      }
      memcpy(set->map + off + (size_t)i * DRV_DESCRIPTOR_SIZE, &d, sizeof(d));
   }
}

void vkppu_descriptor_set_write_acceleration_structures(struct vkppu_descriptor_set *set,
                                                        uint32_t binding, uint32_t array_element,
                                                        uint32_t count, const void *handles,
                                                        size_t stride)
{
   if (!set || !handles)
      return;
   const struct vkppu_set_binding *b;
   uint32_t off = write_range(set, binding, array_element, &count, &b);
   if (b && b->stride != DRV_DESCRIPTOR_SIZE)
      return; /* not an acceleration-structure binding: invalid usage */
   for (uint32_t i = 0; i < count; i++) {
      VkAccelerationStructureKHR handle;
      memcpy(&handle, (const uint8_t *)handles + i * stride, sizeof(handle));
      const struct vkppu_acceleration_structure *as =
          vkppu_acceleration_structure_from_handle(handle);
      /* A null descriptor (VK_NULL_HANDLE) is address 0: the TTU treats a
       * query against it as a miss (driver/shader_abi.h). */
      struct drv_acceleration_structure_descriptor d = {.address = vkppu_as_address(as)};
      memcpy(set->map + off + (size_t)i * DRV_DESCRIPTOR_SIZE, &d, sizeof(d));
   }
}

void vkppu_descriptor_set_write_images(struct vkppu_descriptor_set *set, VkDescriptorType type,
                                       uint32_t binding, uint32_t array_element, uint32_t count,
                                       const VkDescriptorImageInfo *infos, size_t info_stride)
{
   if (!set || !infos)
      return;
   const struct vkppu_set_binding *b;
   uint32_t off = write_range(set, binding, array_element, &count, &b);
   if (b && b->type != type)
      return; /* a write must name its binding's type: invalid usage */
   bool has_view = type != VK_DESCRIPTOR_TYPE_SAMPLER;
   bool has_sampler =
       type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
   for (uint32_t i = 0; i < count; i++) {
      const VkDescriptorImageInfo *info =
          (const VkDescriptorImageInfo *)(const void *)((const uint8_t *)infos + i * info_stride);
      uint8_t *dst = set->map + off + (size_t)i * b->stride;
      if (has_view) {
         const struct vkppu_image_view *view = vkppu_image_view_from_handle(info->imageView);
         struct ppu_texture_header h = view ? view->header : (struct ppu_texture_header){0};
         /* subpassLoad reads layer gl_ViewIndex (0 without multiview) of an
          * arrayed view (translate_image.c), so a 2D view is described as a
          * one-layer array. */
         if (view && type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT && h.dim == PPU_TEX_DIM_2D)
            h.flags |= PPU_TEX_FLAG_ARRAY;
         memcpy(dst, &h, sizeof(h));
      }
      /* A binding with immutable samplers ignores pImageInfo's sampler and
       * keeps the one written at allocation. (A write that runs into the
       * next binding goes by the first binding's immutability; bindings an
       * update may cross must agree on it.) */
      if (has_sampler && !b->immutable_samplers) {
         const struct vkppu_sampler *sampler = vkppu_sampler_from_handle(info->sampler);
         struct ppu_sampler_header h = sampler ? sampler->header : (struct ppu_sampler_header){0};
         memcpy(dst + sampler_offset(type), &h, sizeof(h));
      }
   }
}

void vkppu_descriptor_set_write_texel_buffers(struct vkppu_descriptor_set *set, uint32_t binding,
                                              uint32_t array_element, uint32_t count,
                                              const void *views, size_t stride)
{
   if (!set || !views)
      return;
   const struct vkppu_set_binding *b;
   uint32_t off = write_range(set, binding, array_element, &count, &b);
   if (b && b->type != VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER &&
       b->type != VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
      return;
   for (uint32_t i = 0; i < count; i++) {
      VkBufferView handle;
      memcpy(&handle, (const uint8_t *)views + i * stride, sizeof(handle));
      const struct vkppu_buffer_view *view = vkppu_buffer_view_from_handle(handle);
      struct ppu_texture_header h = view ? view->header : (struct ppu_texture_header){0};
      memcpy(set->map + off + (size_t)i * b->stride, &h, sizeof(h));
   }
}

void vkppu_descriptor_set_write_inline(struct vkppu_descriptor_set *set, uint32_t binding,
                                       uint32_t offset, uint32_t bytes, const void *data)
{
   const struct vkppu_set_binding *b = vkppu_set_layout_binding(set->layout, binding);
   if (!b || b->type != VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      return;
   /* Kept inside the block (the set's own count for a variable one). */
   uint32_t n = binding_count(set->layout, b, set->variable_count);
   if (offset >= n)
      return;
   if (bytes > n - offset)
      bytes = n - offset;
   memcpy(set->map + b->offset + VKPPU_INLINE_DATA_OFFSET + offset, data, bytes);
}

static void write_set(struct vkppu_device *dev, const VkWriteDescriptorSet *w)
{
   VKPPU_FROM_HANDLE(vkppu_descriptor_set, set, w->dstSet);
   if (w->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
      /* dstArrayElement and descriptorCount are bytes; the data comes in
       * VkWriteDescriptorSetInlineUniformBlock. */
      for (const VkBaseInStructure *n = w->pNext; n; n = n->pNext) {
         if (n->sType != VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK)
            continue;
         const VkWriteDescriptorSetInlineUniformBlock *ib = (const void *)n;
         uint32_t bytes = ib->dataSize < w->descriptorCount ? ib->dataSize : w->descriptorCount;
         vkppu_descriptor_set_write_inline(set, w->dstBinding, w->dstArrayElement, bytes,
                                           ib->pData);
      }
      return;
   }
   if (vkppu_descriptor_type_is_buffer(w->descriptorType)) {
      vkppu_descriptor_set_write_buffers(set, w->dstBinding, w->dstArrayElement, w->descriptorCount,
                                         w->pBufferInfo, sizeof(VkDescriptorBufferInfo));
      return;
   }
   if (w->descriptorType == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR) {
      /* The structures come in the pNext chain
       * (VkWriteDescriptorSetAccelerationStructureKHR), whose count equals
       * descriptorCount. */
      for (const VkBaseInStructure *n = w->pNext; n; n = n->pNext) {
         if (n->sType != VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR)
            continue;
         const VkWriteDescriptorSetAccelerationStructureKHR *as =
             (const VkWriteDescriptorSetAccelerationStructureKHR *)(const void *)n;
         vkppu_descriptor_set_write_acceleration_structures(
             set, w->dstBinding, w->dstArrayElement, as->accelerationStructureCount,
             as->pAccelerationStructures, sizeof(VkAccelerationStructureKHR));
      }
      return;
   }
   switch (w->descriptorType) {
   case VK_DESCRIPTOR_TYPE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
   case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
   case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      vkppu_descriptor_set_write_images(set, w->descriptorType, w->dstBinding, w->dstArrayElement,
                                        w->descriptorCount, w->pImageInfo,
                                        sizeof(VkDescriptorImageInfo));
      return;
   case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      vkppu_descriptor_set_write_texel_buffers(set, w->dstBinding, w->dstArrayElement,
                                               w->descriptorCount, w->pTexelBufferView,
                                               sizeof(VkBufferView));
      return;
   default:
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                   "vkUpdateDescriptorSets: descriptor type %d is not supported; write ignored",
                   (int)w->descriptorType);
   }
}

static void copy_set(const VkCopyDescriptorSet *c)
{
   VKPPU_FROM_HANDLE(vkppu_descriptor_set, src, c->srcSet);
   VKPPU_FROM_HANDLE(vkppu_descriptor_set, dst, c->dstSet);
   const struct vkppu_set_binding *isb = vkppu_set_layout_binding(src->layout, c->srcBinding);
   if (isb && isb->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
      /* Bytes from one block to another: the source clamped to its block,
       * the destination by the write. */
      uint32_t n = binding_count(src->layout, isb, src->variable_count);
      if (c->srcArrayElement >= n)
         return;
      uint32_t bytes =
          n - c->srcArrayElement < c->descriptorCount ? n - c->srcArrayElement : c->descriptorCount;
      uint8_t tmp[VKPPU_MAX_INLINE_UNIFORM_BLOCK_SIZE];
      if (bytes > sizeof(tmp))
         bytes = sizeof(tmp);
      memcpy(tmp, src->map + isb->offset + VKPPU_INLINE_DATA_OFFSET + c->srcArrayElement, bytes);
      vkppu_descriptor_set_write_inline(dst, c->dstBinding, c->dstArrayElement, bytes, tmp);
      return;
   }
   uint32_t src_count = c->descriptorCount, dst_count = c->descriptorCount;
   const struct vkppu_set_binding *sb, *db;
   uint32_t so = write_range(src, c->srcBinding, c->srcArrayElement, &src_count, &sb);
   uint32_t d_o = write_range(dst, c->dstBinding, c->dstArrayElement, &dst_count, &db);
   if (!sb || !db || sb->type != db->type)
      return; /* copies are between bindings of one type (VkCopyDescriptorSet) */
   /* Copies cross into consecutive bindings like writes do; both ends are
    * clamped to their sets. Immutable samplers travel with the copy, which
    * is what they are when both bindings have the same ones (required). */
   uint64_t bytes = (uint64_t)(src_count < dst_count ? src_count : dst_count) * sb->stride;
   /* Source and destination may be the same set (overlap is invalid usage,
    * memmove keeps it harmless). */
   memmove(dst->map + d_o, src->map + so, (size_t)bytes);
}

VKAPI_ATTR void VKAPI_CALL vkppu_UpdateDescriptorSets(VkDevice device,
                                                      uint32_t descriptorWriteCount,
                                                      const VkWriteDescriptorSet *pDescriptorWrites,
                                                      uint32_t descriptorCopyCount,
                                                      const VkCopyDescriptorSet *pDescriptorCopies)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* Writes first, then copies, each in array order (vkUpdateDescriptorSets). */
   for (uint32_t i = 0; i < descriptorWriteCount; i++)
      write_set(dev, &pDescriptorWrites[i]);
   for (uint32_t i = 0; i < descriptorCopyCount; i++)
      copy_set(&pDescriptorCopies[i]);
}
