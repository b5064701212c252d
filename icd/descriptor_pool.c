/* VkDescriptorPool: one block of host-mapped GPU memory holding the
 * descriptor memory of every set allocated from it, with a range allocator
 * over it, and the per-type descriptor counts the pool was created with.
 *
 * The block is sized so that a pool never runs out of memory while its
 * counts hold: every set takes its layout's size rounded up to the 64-byte
 * set alignment of driver/shader_abi.h, which is at most 64 bytes more than
 * its descriptors and their alignment padding. Freeing individual sets can still fragment it
 * (VK_ERROR_FRAGMENTED_POOL). */
#include "gpu_memory.h"
#include "vkppu_descriptor.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateDescriptorPool(
    VkDevice device, const VkDescriptorPoolCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDescriptorPool *pDescriptorPool)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   struct vkppu_descriptor_pool *pool =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&pool->base, VK_OBJECT_TYPE_DESCRIPTOR_POOL, dev);
   pool->flags = pCreateInfo->flags;
   pool->max_sets = pCreateInfo->maxSets;
   uint64_t bytes = (uint64_t)pool->max_sets * DRV_DESCRIPTOR_SET_ALIGN;
   /* Inline uniform blocks: their bytes (the pool size's count) plus, per
    * block, its descriptor, the padding of its data to 16 and at most 48
    * bytes of alignment before a header binding that follows. */
   for (const VkBaseInStructure *n = pCreateInfo->pNext; n; n = n->pNext) {
      if (n->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO)
         bytes += (uint64_t)((const VkDescriptorPoolInlineUniformBlockCreateInfo *)(const void *)n)
                      ->maxInlineUniformBlockBindings *
                  (VKPPU_INLINE_DATA_OFFSET + 16 + 48);
   }
   for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; i++) {
      const VkDescriptorPoolSize *ps = &pCreateInfo->pPoolSizes[i];
      if (ps->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
         bytes += ps->descriptorCount;
         continue;
      }
      /* The same type may appear more than once; the counts add up. */
      int t = vkppu_pool_type_index(ps->type);
      if (t >= 0) {
         uint64_t c = (uint64_t)pool->capacity[t] + ps->descriptorCount;
         pool->capacity[t] = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
      }
      /* A 16-byte buffer descriptor is counted as 64: a set layout pads
       * at most 48 bytes after a buffer binding to align the header binding
       * that follows (descriptor_set_layout.c), so the pool covers the
       * worst padding of any layout its counts admit. */
      enum drv_binding_kind kind;
      if (vkppu_descriptor_type_kind(ps->type, &kind)) {
         uint32_t stride = drv_descriptor_stride(kind);
         bytes += (uint64_t)ps->descriptorCount *
                  (stride < PPU_TEX_HEADER_ALIGN ? PPU_TEX_HEADER_ALIGN : stride);
      }
   }
   extent_allocator_init(&pool->space, DRV_DESCRIPTOR_SET_ALIGN);
   if (bytes) {
      enum drv_result r =
          drv_bo_create(dev->drv, bytes, DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &pool->bo);
      if (r == DRV_SUCCESS)
         r = extent_allocator_free(&pool->space, 0, pool->bo->size);
      if (r != DRV_SUCCESS) {
         if (pool->bo)
            drv_bo_destroy(dev->drv, pool->bo);
         extent_allocator_finish(&pool->space);
         vkppu_object_finish(&pool->base);
         vkppu_device_free(dev, pAllocator, pool);
         return vkppu_result_from_drv(r);
      }
   }
   *pDescriptorPool = vkppu_descriptor_pool_to_handle(pool);
   return VK_SUCCESS;
}

/* Set side, in descriptor_set.c. */
void vkppu_descriptor_set_release(struct vkppu_device *dev, struct vkppu_descriptor_set *set);

static void free_all_sets(struct vkppu_device *dev, struct vkppu_descriptor_pool *pool)
{
   while (pool->sets)
      vkppu_descriptor_set_release(dev, pool->sets);
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyDescriptorPool(VkDevice device,
                                                       VkDescriptorPool descriptorPool,
                                                       const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_pool, pool, descriptorPool);
   if (!pool)
      return;
   /* Destroying a pool frees its sets (vkDestroyDescriptorPool). */
   free_all_sets(dev, pool);
   if (pool->bo)
      drv_bo_destroy(dev->drv, pool->bo);
   extent_allocator_finish(&pool->space);
   vkppu_object_finish(&pool->base);
   vkppu_device_free(dev, pAllocator, pool);
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_ResetDescriptorPool(VkDevice device,
                                                         VkDescriptorPool descriptorPool,
                                                         VkDescriptorPoolResetFlags flags)
{
   (void)flags;
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_descriptor_pool, pool, descriptorPool);
   free_all_sets(dev, pool);
   return VK_SUCCESS;
}
