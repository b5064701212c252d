/* Performance query pools (VK_KHR_performance_query): each query is two
 * counter snapshots the chip writes in channel order (vkCmdBeginQuery and
 * vkCmdEndQuery, cmd_query.c) and an availability word released after the
 * second; a result is end - begin of each counter the pool was created
 * with (vkppu_query_pool.h has the layout). Pipeline-statistics pools
 * (query_pool_statistics.c) keep the same records and share the snapshot
 * helpers here. */
#include <string.h>

#include "drv_device.h"
#include "vkppu_image.h"
#include "vkppu_query_pool.h"
#include "wait.h"

VkResult vkppu_performance_pool_init(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                     const VkQueryPoolCreateInfo *info,
                                     const VkAllocationCallbacks *alloc)
{
   const VkQueryPoolPerformanceCreateInfoKHR *perf =
       vkppu_find_in_chain(info->pNext, VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR);
   if (!perf || perf->counterIndexCount == 0) {
      /* VUID-VkQueryPoolCreateInfo-queryType-03222 requires the struct. */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateQueryPool: a performance pool needs a "
                   "VkQueryPoolPerformanceCreateInfoKHR with at least one counter");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   for (uint32_t i = 0; i < perf->counterIndexCount; i++) {
      if (perf->pCounterIndices[i] >= PPU_COUNTER_COUNT) {
         vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                      "vkCreateQueryPool: counter index %u is not below the %u counters "
                      "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR reports",
                      perf->pCounterIndices[i], (unsigned)PPU_COUNTER_COUNT);
         return VK_ERROR_FEATURE_NOT_PRESENT;
      }
   }
   pool->counter_indices = vkppu_device_zalloc(
       dev, alloc, perf->counterIndexCount * sizeof(uint32_t), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool->counter_indices)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memcpy(pool->counter_indices, perf->pCounterIndices, perf->counterIndexCount * sizeof(uint32_t));
   pool->counter_count = perf->counterIndexCount;
   pool->query_bytes = VKPPU_PERF_QUERY_BYTES;
   return VK_SUCCESS;
}

void vkppu_snapshot_pool_finish(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                const VkAllocationCallbacks *alloc)
{
   if (pool->counter_indices)
      vkppu_device_free(dev, alloc, pool->counter_indices);
   pool->counter_indices = NULL;
}

const uint8_t *vkppu_snapshot_query_host(const struct vkppu_query_pool *pool, uint32_t query)
{
   return pool->bo->map + (uint64_t)query * pool->query_bytes;
}

static uint64_t *available_word(const struct vkppu_query_pool *pool, uint32_t query)
{
   return (uint64_t *)(void *)(vkppu_snapshot_query_host(pool, query) +
                               VKPPU_PERF_QUERY_AVAILABLE_OFFSET);
}

bool vkppu_snapshot_query_available(const struct vkppu_query_pool *pool, uint32_t query)
{
   return __atomic_load_n(available_word(pool, query), __ATOMIC_ACQUIRE) != 0;
}

struct perf_wait {
   const struct vkppu_query_pool *pool;
   uint32_t first, count;
};

static bool all_available(void *ctx)
{
   const struct perf_wait *w = ctx;
   for (uint32_t i = 0; i < w->count; i++) {
      if (!vkppu_snapshot_query_available(w->pool, w->first + i))
         return false;
   }
   return true;
}

/* Counter `id` of the snapshot at `snapshot`: 0 when the chip that wrote
 * it had fewer counters (ppu/counter_snapshot.h), or for
 * VKPPU_NO_COUNTER. */
static uint64_t snapshot_value(const uint8_t *snapshot, uint32_t id)
{
   struct ppu_counter_snapshot_header h;
   memcpy(&h, snapshot, sizeof(h));
   if (id >= h.count)
      return 0;
   uint64_t v;
   memcpy(&v, snapshot + sizeof(h) + 8u * id, sizeof(v));
   return v;
}

uint64_t vkppu_snapshot_query_delta(const uint8_t *query, uint32_t counter)
{
   return snapshot_value(query + VKPPU_PERF_QUERY_END_OFFSET, counter) -
          snapshot_value(query + VKPPU_PERF_QUERY_BEGIN_OFFSET, counter);
}

VkResult vkppu_snapshot_pool_wait(struct vkppu_device *dev, const struct vkppu_query_pool *pool,
                                  uint32_t first, uint32_t count)
{
   struct perf_wait w = {pool, first, count};
   return vkppu_device_result(dev, drv_wait(dev->drv, all_available, &w, DRV_DEADLINE_NEVER));
}

void vkppu_performance_query_values(const uint8_t *query, const uint32_t *counters, uint32_t count,
                                    uint8_t *out)
{
   for (uint32_t c = 0; c < count; c++) {
      VkPerformanceCounterResultKHR r = {.uint64 = vkppu_snapshot_query_delta(query, counters[c])};
      memcpy(out + c * sizeof(r), &r, sizeof(r));
   }
}

VkResult vkppu_snapshot_pool_results(struct vkppu_device *dev, const struct vkppu_query_pool *pool,
                                     uint32_t first, uint32_t count, size_t data_size, void *data,
                                     VkDeviceSize stride, VkQueryResultFlags flags)
{
   if (flags & VK_QUERY_RESULT_WAIT_BIT) {
      VkResult r = vkppu_snapshot_pool_wait(dev, pool, first, count);
      if (r != VK_SUCCESS)
         return r;
   }
   /* Performance pools allow neither partial results nor availability
    * words (VUID-vkGetQueryPoolResults-queryType-03230): an unavailable
    * query writes nothing. Statistics follow the flags. */
   const bool perf = pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR;
   size_t per_query = perf ? pool->counter_count * sizeof(VkPerformanceCounterResultKHR)
                           : vkppu_statistics_result_bytes(pool->counter_count, flags);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < count; i++) {
      uint64_t offset = (uint64_t)i * stride;
      if (offset > data_size || per_query > data_size - offset)
         break; /* the spec requires the array to be big enough; never write past it */
      bool available = vkppu_snapshot_query_available(pool, first + i);
      const uint8_t *query = vkppu_snapshot_query_host(pool, first + i);
      uint8_t *out = (uint8_t *)data + offset;
      if (perf && available)
         vkppu_performance_query_values(query, pool->counter_indices, pool->counter_count, out);
      else if (!perf)
         vkppu_statistics_query_write(query, available, pool->counter_indices, pool->counter_count,
                                      flags, out);
      if (!available)
         result = VK_NOT_READY;
   }
   return result;
}

void vkppu_snapshot_pool_reset(struct vkppu_query_pool *pool, uint32_t first, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++)
      __atomic_store_n(available_word(pool, first + i), 0, __ATOMIC_RELAXED);
   __atomic_thread_fence(__ATOMIC_RELEASE);
}
