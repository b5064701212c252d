/* VkQueryPool: timestamp and occlusion queries. Each query is a
 * struct ppu_query_record (value, availability) in driver-internal GPU
 * memory; the GPU writes it (cmd_query.c) and the host reads it through the
 * BAR here. Zero-filled records are the "reset" state. Performance and
 * pipeline-statistics pools keep counter snapshots instead
 * (query_pool_performance.c, query_pool_statistics.c). */
#include <stdio.h>

#include "drv_device.h"
#include "gpu_memory.h"
#include "vkppu_acceleration_structure.h"
#include "vkppu_query_pool.h"
#include "wait.h"

VKAPI_ATTR VkResult VKAPI_CALL vkppu_CreateQueryPool(VkDevice device,
                                                     const VkQueryPoolCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkQueryPool *pQueryPool)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   /* Acceleration-structure property queries are written by host jobs
    * (cmd_acceleration_structure.c) into the same records. */
   if (pCreateInfo->queryType != VK_QUERY_TYPE_TIMESTAMP &&
       pCreateInfo->queryType != VK_QUERY_TYPE_OCCLUSION &&
       pCreateInfo->queryType != VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR &&
       pCreateInfo->queryType != VK_QUERY_TYPE_PIPELINE_STATISTICS &&
       !vkppu_as_query_type_supported(pCreateInfo->queryType)) {
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateQueryPool: query type %d is not supported by this driver; only "
                   "timestamp, occlusion, pipeline-statistics, performance and "
                   "acceleration-structure pools exist",
                   (int)pCreateInfo->queryType);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   struct vkppu_query_pool *pool =
       vkppu_device_zalloc(dev, pAllocator, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   vkppu_object_init(&pool->base, VK_OBJECT_TYPE_QUERY_POOL, dev);
   pool->type = pCreateInfo->queryType;
   pool->count = pCreateInfo->queryCount;
   pool->query_bytes = sizeof(struct ppu_query_record);
   if (vkppu_query_pool_is_snapshot(pool)) {
      VkResult vr = pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR
                        ? vkppu_performance_pool_init(dev, pool, pCreateInfo, pAllocator)
                        : vkppu_statistics_pool_init(dev, pool, pCreateInfo, pAllocator);
      if (vr != VK_SUCCESS) {
         vkppu_snapshot_pool_finish(dev, pool, pAllocator);
         vkppu_object_finish(&pool->base);
         vkppu_device_free(dev, pAllocator, pool);
         return vr;
      }
   }
   uint64_t bytes = (uint64_t)(pool->count ? pool->count : 1) * pool->query_bytes;
   enum drv_result r =
       drv_bo_create(dev->drv, bytes, DRV_BO_HOST_MAPPED | DRV_BO_INTERNAL, 0, &pool->bo);
   if (r != DRV_SUCCESS) {
      vkppu_snapshot_pool_finish(dev, pool, pAllocator);
      vkppu_object_finish(&pool->base);
      vkppu_device_free(dev, pAllocator, pool);
      return vkppu_result_from_drv(r);
   }
   pool->records = (struct ppu_query_record *)(void *)pool->bo->map;
   *pQueryPool = vkppu_query_pool_to_handle(pool);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkppu_DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
                                                  const VkAllocationCallbacks *pAllocator)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_query_pool, pool, queryPool);
   if (!pool)
      return;
   drv_bo_destroy(dev->drv, pool->bo);
   vkppu_snapshot_pool_finish(dev, pool, pAllocator);
   vkppu_object_finish(&pool->base);
   vkppu_device_free(dev, pAllocator, pool);
}

static uint64_t record_available(const struct ppu_query_record *rec)
{
   return __atomic_load_n(&rec->available, __ATOMIC_ACQUIRE);
}

struct availability_wait {
   const struct ppu_query_record *records;
   uint32_t count;
};

static bool all_available(void *ctx)
{
   const struct availability_wait *w = ctx;
   for (uint32_t i = 0; i < w->count; i++) {
      if (!record_available(&w->records[i]))
         return false;
   }
   return true;
}

static void put_value(uint8_t *dst, uint64_t value, bool wide)
{
   if (wide) {
      memcpy(dst, &value, sizeof(value));
   } else {
      uint32_t v32 = (uint32_t)value; /* wraps, as the spec allows */
      memcpy(dst, &v32, sizeof(v32));
   }
}

VKAPI_ATTR VkResult VKAPI_CALL vkppu_GetQueryPoolResults(VkDevice device, VkQueryPool queryPool,
                                                         uint32_t firstQuery, uint32_t queryCount,
                                                         size_t dataSize, void *pData,
                                                         VkDeviceSize stride,
                                                         VkQueryResultFlags flags)
{
   VKPPU_FROM_HANDLE(vkppu_device, dev, device);
   VKPPU_FROM_HANDLE(vkppu_query_pool, pool, queryPool);
   VkResult r = vkppu_device_check_lost(dev);
   if (r != VK_SUCCESS)
      return r;
   if (firstQuery > pool->count || queryCount > pool->count - firstQuery) {
      /* VUID-vkGetQueryPoolResults-firstQuery-00813/00816: refuse rather than
       * read past the pool. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkGetQueryPoolResults: queries [%u, %u) lie outside the pool of %u", firstQuery,
                   firstQuery + queryCount, pool->count);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (vkppu_query_pool_is_snapshot(pool))
      return vkppu_snapshot_pool_results(dev, pool, firstQuery, queryCount, dataSize, pData, stride,
                                         flags);
   const struct ppu_query_record *records = pool->records + firstQuery;
   if (flags & VK_QUERY_RESULT_WAIT_BIT) {
      struct availability_wait w = {records, queryCount};
      r = vkppu_device_result(dev, drv_wait(dev->drv, all_available, &w, DRV_DEADLINE_NEVER));
      if (r != VK_SUCCESS)
         return r;
   }

   bool wide = (flags & VK_QUERY_RESULT_64_BIT) != 0;
   size_t word = wide ? 8 : 4;
   size_t per_query = word * ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 2 : 1);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < queryCount; i++) {
      uint64_t offset = (uint64_t)i * stride;
      if (offset > dataSize || per_query > dataSize - offset)
         break; /* the spec requires the array to be big enough; never write past it */
      uint8_t *dst = (uint8_t *)pData + offset;
      bool available = record_available(&records[i]) != 0;
      /* Values of unavailable queries are written only with PARTIAL
       * (VkQueryResultFlagBits); then the result is VK_NOT_READY. */
      if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
         put_value(dst, available ? records[i].value : 0, wide);
      if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
         put_value(dst + word, available ? 1 : 0, wide);
      if (!available)
         result = VK_NOT_READY;
   }
   return result;
}

VKAPI_ATTR void VKAPI_CALL vkppu_ResetQueryPool(VkDevice device, VkQueryPool queryPool,
                                                uint32_t firstQuery, uint32_t queryCount)
{
   (void)device;
   VKPPU_FROM_HANDLE(vkppu_query_pool, pool, queryPool);
   if (firstQuery > pool->count || queryCount > pool->count - firstQuery)
      return;
   if (vkppu_query_pool_is_snapshot(pool)) {
      vkppu_snapshot_pool_reset(pool, firstQuery, queryCount);
      return;
   }
   for (uint32_t i = 0; i < queryCount; i++) {
      struct ppu_query_record *rec = &pool->records[firstQuery + i];
      __atomic_store_n(&rec->available, 0, __ATOMIC_RELAXED);
      __atomic_store_n(&rec->value, 0, __ATOMIC_RELAXED);
   }
   __atomic_thread_fence(__ATOMIC_RELEASE);
}
