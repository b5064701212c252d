/* Pipeline-statistics query pools (pipelineStatisticsQuery): each query
 * is two counter snapshots around the work and an availability word, as
 * for performance pools (vkppu_query_pool.h); each requested statistic is
 * end - begin of the chip counter that counts it (docs/counters.md,
 * "Pipeline statistics"). Statistics of stages the chip does not have
 * (geometry, tessellation) are 0: no invocation of them ever happens.
 *
 * The chip's counters count every channel's work. A statistic therefore
 * includes work of another queue that ran between the two snapshots; a
 * queue's own work is counted exactly. */
#include <string.h>

#include "vkppu_query_pool.h"

/* VkQueryPipelineStatisticFlagBits 0..10, in bit order (the order results
 * are written in). */
static const uint32_t statistic_counter[] = {
    PPU_COUNTER_GFX_INPUT_VERTICES,     /* INPUT_ASSEMBLY_VERTICES */
    PPU_COUNTER_GFX_PRIMITIVES,         /* INPUT_ASSEMBLY_PRIMITIVES: all reach clipping */
    PPU_COUNTER_GFX_VERTEX_LANES,       /* VERTEX_SHADER_INVOCATIONS */
    VKPPU_NO_COUNTER,                   /* GEOMETRY_SHADER_INVOCATIONS */
    VKPPU_NO_COUNTER,                   /* GEOMETRY_SHADER_PRIMITIVES */
    PPU_COUNTER_GFX_PRIMITIVES,         /* CLIPPING_INVOCATIONS */
    PPU_COUNTER_GFX_PRIMITIVES_CLIPPED, /* CLIPPING_PRIMITIVES */
    PPU_COUNTER_GFX_FRAGMENT_LANES,     /* FRAGMENT_SHADER_INVOCATIONS */
    VKPPU_NO_COUNTER,                   /* TESSELLATION_CONTROL_SHADER_PATCHES */
    VKPPU_NO_COUNTER,                   /* TESSELLATION_EVALUATION_SHADER_INVOCATIONS */
    PPU_COUNTER_COMPUTE_THREADS,        /* COMPUTE_SHADER_INVOCATIONS */
};
#define STATISTIC_COUNT (sizeof(statistic_counter) / sizeof(statistic_counter[0]))

VkResult vkppu_statistics_pool_init(struct vkppu_device *dev, struct vkppu_query_pool *pool,
                                    const VkQueryPoolCreateInfo *info,
                                    const VkAllocationCallbacks *alloc)
{
   VkQueryPipelineStatisticFlags wanted = info->pipelineStatistics;
   if (wanted == 0 || (wanted >> STATISTIC_COUNT) != 0) {
      /* Task/mesh/cluster statistics need extensions this device does not
       * have (VUID-VkQueryPoolCreateInfo-queryType-00792 wants valid bits). */
      vkppu_report(dev->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                   "vkCreateQueryPool: pipelineStatistics 0x%x: needs at least one of the "
                   "statistics 0x%x and no others",
                   (unsigned)wanted, (unsigned)((1u << STATISTIC_COUNT) - 1u));
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   uint32_t n = (uint32_t)__builtin_popcount(wanted);
   pool->counter_indices =
       vkppu_device_zalloc(dev, alloc, n * sizeof(uint32_t), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool->counter_indices)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t bit = 0; bit < STATISTIC_COUNT; bit++) {
      if (wanted & (1u << bit))
         pool->counter_indices[pool->counter_count++] = statistic_counter[bit];
   }
   pool->query_bytes = VKPPU_PERF_QUERY_BYTES;
   return VK_SUCCESS;
}

size_t vkppu_statistics_result_bytes(uint32_t counter_count, VkQueryResultFlags flags)
{
   size_t word = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
   return word * (counter_count + ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 1 : 0));
}

static void put_word(uint8_t *dst, uint64_t value, bool wide)
{
   if (wide) {
      memcpy(dst, &value, sizeof(value));
   } else {
      uint32_t v32 = (uint32_t)value; /* wraps, as the spec allows */
      memcpy(dst, &v32, sizeof(v32));
   }
}

bool vkppu_statistics_query_write(const uint8_t *query, bool available, const uint32_t *counters,
                                  uint32_t count, VkQueryResultFlags flags, uint8_t *out)
{
   bool wide = (flags & VK_QUERY_RESULT_64_BIT) != 0;
   size_t word = wide ? 8 : 4;
   /* Values of an unavailable query are written only with PARTIAL, and
    * then as 0, a value "between zero and the final result"
    * (VkQueryResultFlagBits): its end snapshot is not there yet. */
   if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT)) {
      for (uint32_t c = 0; c < count; c++)
         put_word(out + c * word, available ? vkppu_snapshot_query_delta(query, counters[c]) : 0,
                  wide);
   }
   if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
      put_word(out + count * word, available ? 1 : 0, wide);
   return available;
}
