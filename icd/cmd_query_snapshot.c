/* vkCmdCopyQueryPoolResults of a snapshot pool (performance and pipeline
 * statistics). The copy engine's QUERY_COPY formats records but cannot
 * subtract two snapshots, so the copy is a host-assisted job
 * (driver/host_job.h): the channel stops at the copy's place in the
 * stream, a driver thread reads each query through the GPU's page tables,
 * writes end - begin of the pool's counters to the buffer in the pool
 * type's layout, and the channel goes on. Later commands of the queue see
 * the results, as they would after a copy-engine copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_job.h"
#include "method_encoder.h"
#include "va_access.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_query_pool.h"

struct snapshot_copy_job {
   struct drv_host_job base;
   VkQueryType type;
   VkQueryResultFlags flags;
   uint64_t first_query_va, query_bytes;
   uint64_t dst_va, stride;
   uint32_t query_count, counter_count;
   uint32_t counters[]; /* the pool's, copied at recording */
};

static bool run_copy(struct drv_host_job *base, struct drv_device *dev, char *why, size_t why_size)
{
   struct snapshot_copy_job *job = (struct snapshot_copy_job *)(void *)base;
   uint8_t *query = malloc(job->query_bytes);
   bool perf = job->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR;
   size_t result_bytes = perf ? job->counter_count * sizeof(VkPerformanceCounterResultKHR)
                              : vkppu_statistics_result_bytes(job->counter_count, job->flags);
   uint8_t *results = malloc(result_bytes);
   bool ok = query && results;
   if (!ok)
      snprintf(why, why_size, "out of host memory copying query results");
   for (uint32_t i = 0; ok && i < job->query_count; i++) {
      uint64_t bad = 0;
      uint64_t va = job->first_query_va + i * job->query_bytes;
      if (!drv_va_read(dev, va, query, job->query_bytes, &bad)) {
         snprintf(why, why_size, "query at VA 0x%llx cannot be read (0x%llx)",
                  (unsigned long long)va, (unsigned long long)bad);
         ok = false;
         break;
      }
      uint64_t available;
      memcpy(&available, query + VKPPU_PERF_QUERY_AVAILABLE_OFFSET, sizeof(available));
      /* The bytes [from, result_bytes) of the results are written. */
      size_t from = 0;
      if (perf) {
         /* No PARTIAL for performance pools
          * (VUID-vkCmdCopyQueryPoolResults-queryType-03233): an unavailable
          * query writes nothing. */
         if (!available)
            continue;
         vkppu_performance_query_values(query, job->counters, job->counter_count, results);
      } else if (!vkppu_statistics_query_write(query, available != 0, job->counters,
                                               job->counter_count, job->flags, results) &&
                 !(job->flags & VK_QUERY_RESULT_PARTIAL_BIT)) {
         /* Unavailable without PARTIAL: only the availability word, if asked. */
         if (!(job->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT))
            continue;
         from = result_bytes - ((job->flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4);
      }
      uint64_t dst = job->dst_va + i * job->stride + from;
      if (!drv_va_write(dev, dst, results + from, result_bytes - from, &bad)) {
         snprintf(why, why_size,
                  "vkCmdCopyQueryPoolResults: destination VA 0x%llx is not writable (0x%llx)",
                  (unsigned long long)dst, (unsigned long long)bad);
         ok = false;
      }
   }
   free(query);
   free(results);
   return ok;
}

static void destroy_copy(struct drv_host_job *base)
{
   free(base);
}

void vkppu_cmd_copy_snapshot_results(struct vkppu_command_buffer *cmd,
                                     const struct vkppu_query_pool *pool, uint32_t first,
                                     uint32_t count, uint64_t dst_va, uint64_t stride,
                                     VkQueryResultFlags flags)
{
   if (first > pool->count || count > pool->count - first)
      return; /* invalid usage; never read outside the pool */
   if (flags & VK_QUERY_RESULT_WAIT_BIT) {
      /* "wait for each query's status to be available" (VkQueryResultFlagBits):
       * the queries may end on another queue. */
      for (uint32_t q = 0; q < count; q++)
         drv_emit_sem_acquire_geq(
             &cmd->pb, vkppu_query_record_va(pool, first + q) + VKPPU_PERF_QUERY_AVAILABLE_OFFSET,
             1);
   }
   struct snapshot_copy_job *job = calloc(1, sizeof(*job) + pool->counter_count * sizeof(uint32_t));
   if (!job) {
      if (cmd->pb.error == DRV_SUCCESS)
         cmd->pb.error = DRV_ERROR_OUT_OF_HOST_MEMORY;
      return;
   }
   drv_host_job_init(&job->base, "query results copy", run_copy, destroy_copy);
   job->type = pool->type;
   job->flags = flags;
   job->first_query_va = vkppu_query_record_va(pool, first);
   job->query_bytes = pool->query_bytes;
   job->dst_va = dst_va;
   job->stride = stride;
   job->query_count = count;
   job->counter_count = pool->counter_count;
   memcpy(job->counters, pool->counter_indices, pool->counter_count * sizeof(uint32_t));
   vkppu_cmd_add_host_job(cmd, &job->base);
}
