/* Query pools. Timestamp, occlusion and acceleration-structure property
 * queries are an array of struct ppu_query_record (value, availability) in
 * driver-internal GPU memory. Performance queries (VK_KHR_performance_query,
 * query_pool_performance.c) and pipeline-statistics queries
 * (query_pool_statistics.c) hold two counter snapshots and an availability
 * word per query: "snapshot pools". */
#ifndef VKPPU_QUERY_POOL_H
#define VKPPU_QUERY_POOL_H

#include "gpu_memory.h"
#include "ppu/counter_snapshot.h"
#include "ppu/methods.h"
#include "vkppu_device.h"

struct vkppu_query_pool {
   struct vkppu_object base;
   VkQueryType type;
   uint32_t count;
   uint64_t query_bytes; /* bytes of one query in bo */
   struct drv_bo *bo;
   struct ppu_query_record *records; /* host view through the BAR (not performance pools) */
   /* Snapshot pools: the counters (enum ppu_counter, or VKPPU_NO_COUNTER
    * for a statistic that is always 0) each result holds, in result order. */
   uint32_t counter_count;
   uint32_t *counter_indices;
};

/* A result that no counter of this chip counts (a stage it does not have). */
#define VKPPU_NO_COUNTER UINT32_MAX

static inline bool vkppu_query_pool_is_snapshot(const struct vkppu_query_pool *pool)
{
   return pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR ||
          pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS;
}
VKPPU_DEFINE_HANDLE_CASTS(vkppu_query_pool, VkQueryPool)

/* One performance query in pool memory: the snapshots vkCmdBeginQuery and
 * vkCmdEndQuery have the chip write, then availability (released after the
 * end snapshot). */
#define VKPPU_PERF_QUERY_BEGIN_OFFSET 0u
#define VKPPU_PERF_QUERY_END_OFFSET PPU_COUNTER_SNAPSHOT_BYTES
#define VKPPU_PERF_QUERY_AVAILABLE_OFFSET (2u * PPU_COUNTER_SNAPSHOT_BYTES)
#define VKPPU_PERF_QUERY_BYTES (VKPPU_PERF_QUERY_AVAILABLE_OFFSET + 8u)

/* GPU address of a query: its struct ppu_query_record, or for snapshot
 * pools the layout above. */
static inline uint64_t vkppu_query_record_va(const struct vkppu_query_pool *pool, uint32_t query)
{
   return pool->bo->va + (uint64_t)query * pool->query_bytes;
}

/* Performance pools (query_pool_performance.c). */
VkResult vkppu_performance_pool_init(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                     const VkQueryPoolCreateInfo *info,
                                     const VkAllocationCallbacks *alloc);
void vkppu_snapshot_pool_finish(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                const VkAllocationCallbacks *alloc);
/* The results of one query (its bytes as laid out above) for the `count`
 * counters (enum ppu_counter), as VkPerformanceCounterResultKHR at out. */
void vkppu_performance_query_values(const uint8_t *query, const uint32_t *counters, uint32_t count,
                                    uint8_t *out);

/* Snapshot-pool helpers (query_pool_performance.c): a query's host view,
 * whether the chip released it, end - begin of one counter (0 for
 * VKPPU_NO_COUNTER), waiting for queries, and the host reset. */
const uint8_t *vkppu_snapshot_query_host(const struct vkppu_query_pool *pool, uint32_t query);
bool vkppu_snapshot_query_available(const struct vkppu_query_pool *pool, uint32_t query);
uint64_t vkppu_snapshot_query_delta(const uint8_t *query, uint32_t counter);
VkResult vkppu_snapshot_pool_wait(struct vkppu_device *dev, const struct vkppu_query_pool *pool,
                                  uint32_t first, uint32_t count);
void vkppu_snapshot_pool_reset(struct vkppu_query_pool *pool, uint32_t first, uint32_t count);
/* vkGetQueryPoolResults of a snapshot pool, in its type's layout. */
VkResult vkppu_snapshot_pool_results(struct vkppu_device *dev, const struct vkppu_query_pool *pool,
                                     uint32_t first, uint32_t count, size_t data_size, void *data,
                                     VkDeviceSize stride, VkQueryResultFlags flags);

/* Pipeline-statistics pools (query_pool_statistics.c). */
VkResult vkppu_statistics_pool_init(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                    const VkQueryPoolCreateInfo *info,
                                    const VkAllocationCallbacks *alloc);
/* Bytes one query's results take with `flags` (64-bit, availability). */
size_t vkppu_statistics_result_bytes(uint32_t counter_count, VkQueryResultFlags flags);
/* Writes one query's results as vkGetQueryPoolResults and
 * vkCmdCopyQueryPoolResults lay them out with `flags`; false when the
 * query is not available (values then written only with PARTIAL, as 0). */
bool vkppu_statistics_query_write(const uint8_t *query, bool available, const uint32_t *counters,
                                  uint32_t count, VkQueryResultFlags flags, uint8_t *out);

/* vkCmdCopyQueryPoolResults of a snapshot pool (cmd_query_snapshot.c). */
struct vkppu_command_buffer;
void vkppu_cmd_copy_snapshot_results(struct vkppu_command_buffer *cmd,
                                     const struct vkppu_query_pool *pool, uint32_t first,
                                     uint32_t count, uint64_t dst_va, uint64_t stride,
                                     VkQueryResultFlags flags);

#endif
