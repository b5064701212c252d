/* Query commands (vkppu_query_pool.h): writing a timestamp, occlusion
 * and performance begin/end, resetting records, and copying results into a
 * buffer.
 *
 * A timestamp is two semaphore operations on the query's record: TIMESTAMP
 * writes the GPU timer into `value` once earlier work is done, then RELEASE
 * writes 1 into `available` (with AWAKEN, so a host thread blocked in
 * vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT wakes up).
 *
 * A performance query is two COUNTER_SNAPSHOTs, at begin and at end, then
 * the same availability release. */
#include <stddef.h>

#include "method_encoder.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_memory.h"
#include "vkppu_query_pool.h"

static void write_timestamp(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t record = vkppu_query_record_va(pool, query);
   drv_emit_timestamp(pb, record + offsetof(struct ppu_query_record, value));
   drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, available), 1, true);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdWriteTimestamp(VkCommandBuffer commandBuffer,
                                                   VkPipelineStageFlagBits pipelineStage,
                                                   VkQueryPool queryPool, uint32_t query)
{
   /* Every stage is "done" at the same point on an in-order channel. */
   (void)pipelineStage;
   write_timestamp(commandBuffer, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdWriteTimestamp2(VkCommandBuffer commandBuffer,
                                                    VkPipelineStageFlags2 stage,
                                                    VkQueryPool queryPool, uint32_t query)
{
   (void)stage;
   write_timestamp(commandBuffer, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                               uint32_t query, VkQueryControlFlags flags)
{
   /* Occlusion queries count samples between begin and end; everything is
    * decided at end. */
   (void)flags;
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
      drv_emit_counter_snapshot(vkppu_cmd_pb(commandBuffer),
                                vkppu_query_record_va(pool, query) + VKPPU_PERF_QUERY_BEGIN_OFFSET);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                             uint32_t query)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t record = vkppu_query_record_va(pool, query);
   if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
      drv_emit_counter_snapshot(pb, record + VKPPU_PERF_QUERY_END_OFFSET);
      drv_emit_sem_release(pb, record + VKPPU_PERF_QUERY_AVAILABLE_OFFSET, 1, true);
      return;
   }
   /* The device has no draw commands yet, so no sample can pass between
    * begin and end: the count is 0. When the graphics engine lands, this
    * release must take the ZROP's sample counter instead. */
   drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, value), 0, false);
   drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, available), 1, true);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdResetQueryPool(VkCommandBuffer commandBuffer,
                                                   VkQueryPool queryPool, uint32_t firstQuery,
                                                   uint32_t queryCount)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   if (queryCount == 0)
      return;
   drv_emit_fill(vkppu_cmd_pb(commandBuffer), vkppu_query_record_va(pool, firstQuery),
                 (uint64_t)queryCount * pool->query_bytes, 0);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdCopyQueryPoolResults(
    VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount,
    VkBuffer dstBuffer, VkDeviceSize dstOffset, VkDeviceSize stride, VkQueryResultFlags flags)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   if (queryCount == 0)
      return;
   if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
      vkppu_cmd_copy_performance_results(vkppu_command_buffer_from_handle(commandBuffer), pool,
                                         firstQuery, queryCount,
                                         vkppu_buffer_address(dstBuffer, dstOffset), stride, flags);
      return;
   }
   if (flags & VK_QUERY_RESULT_WAIT_BIT) {
      /* "wait for each query's status to be available before retrieving
       * the numerical results" (VkQueryResultFlagBits). */
      for (uint32_t q = 0; q < queryCount; q++) {
         drv_emit_sem_acquire_geq(pb,
                                  vkppu_query_record_va(pool, firstQuery + q) +
                                      offsetof(struct ppu_query_record, available),
                                  1);
      }
   }
   uint32_t hw_flags = 0;
   if (flags & VK_QUERY_RESULT_64_BIT)
      hw_flags |= PPU_QUERY_FLAG_64BIT;
   if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
      hw_flags |= PPU_QUERY_FLAG_WITH_AVAILABILITY;
   if (flags & VK_QUERY_RESULT_PARTIAL_BIT)
      hw_flags |= PPU_QUERY_FLAG_PARTIAL;
   drv_emit_query_copy(pb, vkppu_buffer_address(dstBuffer, dstOffset), stride,
                       vkppu_query_record_va(pool, firstQuery), queryCount, hw_flags);
}
