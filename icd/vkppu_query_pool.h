/* Query pools: an array of struct ppu_query_record (value, availability) in
 * driver-internal GPU memory. Timestamp and occlusion queries exist so far. */
#ifndef VKPPU_QUERY_POOL_H
#define VKPPU_QUERY_POOL_H

#include "gpu_memory.h"
#include "ppu/methods.h"
#include "vkppu_device.h"

struct vkppu_query_pool {
   struct vkppu_object base;
   VkQueryType type;
   uint32_t count;
   struct drv_bo *bo;
   struct ppu_query_record *records; /* host view through the BAR */
};
VKPPU_DEFINE_HANDLE_CASTS(vkppu_query_pool, VkQueryPool)

/* GPU address of a query's record; its `available` word is 8 bytes on. */
static inline uint64_t vkppu_query_record_va(const struct vkppu_query_pool *pool, uint32_t query)
{
   return pool->bo->va + (uint64_t)query * sizeof(struct ppu_query_record);
}

#endif
