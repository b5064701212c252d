/* Query commands (vkppu_query_pool.h): writing a timestamp, occlusion
 * and performance begin/end, resetting records, and copying results into a
 * buffer.
 *
 * A timestamp is two semaphore operations on the query's record: TIMESTAMP
 * writes the GPU timer into `value` once earlier work is done, then RELEASE
 * writes 1 into `available` (with AWAKEN, so a host thread blocked in
 * vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT wakes up).
 *
 * An occlusion query is the graphics engine's QUERY_BEGIN and QUERY_END
 * on its record, then the availability release.
 *
 * Performance and pipeline-statistics queries are two COUNTER_SNAPSHOTs,
 * at begin and at end, then the same availability release. */
#include <stddef.h>

#include "method_encoder.h"
#include "vkppu_cmd_buffer.h"
#include "vkppu_memory.h"
#include "vkppu_render_pass.h"
#include "vkppu_query_pool.h"

/* QUERY_ADDR, then QUERY_BEGIN or QUERY_END on the graphics subchannel
 * (docs/graphics-hw.md): the graphics engine counts the samples ZROP
 * passes in between. */
static void emit_occlusion(struct drv_pushbuf *pb, uint64_t record, uint32_t method)
{
   uint32_t *p = drv_pushbuf_reserve(pb, 5);
   if (!p)
      return;
   p[0] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, PPU_GFX_QUERY_ADDR_LO, 2);
   p[1] = drv_lo32(record);
   p[2] = drv_hi32(record);
   p[3] = PPU_MTHD_HDR(PPU_MTHD_INCR, PPU_SUBCH_GRAPHICS, method, 1);
   p[4] = 0;
   drv_pushbuf_commit(pb, p + 5);
}

/* Inside a multiview subpass an occlusion query or a timestamp uses one
 * query per view (Vulkan "Multiview" in "Queries"): the first gets the
 * whole result, the others 0 — a QUERY_BEGIN/QUERY_END pair with nothing
 * between writes {0, available} — and the release wakes host waiters. */
static void zero_other_views(VkCommandBuffer commandBuffer, const struct vkppu_query_pool *pool,
                             uint32_t query)
{
   const struct vkppu_command_buffer *cmd = vkppu_command_buffer_from_handle(commandBuffer);
   const struct vkppu_gfx_cmd_state *s = &cmd->gfx;
   uint32_t views = s->pass ? s->pass->subpasses[s->subpass].view_mask : 0;
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   for (uint32_t q = query + 1; views && q < query + (uint32_t)__builtin_popcount(views); q++) {
      uint64_t record = vkppu_query_record_va(pool, q);
      emit_occlusion(pb, record, PPU_GFX_QUERY_BEGIN);
      emit_occlusion(pb, record, PPU_GFX_QUERY_END);
      drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, available), 1, true);
   }
}

static void write_timestamp(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t record = vkppu_query_record_va(pool, query);
   drv_emit_timestamp(pb, record + offsetof(struct ppu_query_record, value));
   drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, available), 1, true);
   zero_other_views(commandBuffer, pool, query);
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
   /* The ZROP's sample counts are exact, so precise and non-precise
    * occlusion queries are the same thing. */
   (void)flags;
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   if (vkppu_query_pool_is_snapshot(pool))
      drv_emit_counter_snapshot(vkppu_cmd_pb(commandBuffer),
                                vkppu_query_record_va(pool, query) + VKPPU_PERF_QUERY_BEGIN_OFFSET);
   else if (pool->type == VK_QUERY_TYPE_OCCLUSION)
      emit_occlusion(vkppu_cmd_pb(commandBuffer), vkppu_query_record_va(pool, query),
                     PPU_GFX_QUERY_BEGIN);
}

VKAPI_ATTR void VKAPI_CALL vkppu_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                             uint32_t query)
{
   const struct vkppu_query_pool *pool = vkppu_query_pool_from_handle(queryPool);
   struct drv_pushbuf *pb = vkppu_cmd_pb(commandBuffer);
   uint64_t record = vkppu_query_record_va(pool, query);
   if (vkppu_query_pool_is_snapshot(pool)) {
      drv_emit_counter_snapshot(pb, record + VKPPU_PERF_QUERY_END_OFFSET);
      drv_emit_sem_release(pb, record + VKPPU_PERF_QUERY_AVAILABLE_OFFSET, 1, true);
      return;
   }
   /* QUERY_END writes {samples passed since QUERY_BEGIN, available = 1};
    * the release writes the same 1 again with AWAKEN, so that a host thread
    * waiting in vkGetQueryPoolResults wakes up. */
   emit_occlusion(pb, record, PPU_GFX_QUERY_END);
   drv_emit_sem_release(pb, record + offsetof(struct ppu_query_record, available), 1, true);
   zero_other_views(commandBuffer, pool, query);
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
   if (vkppu_query_pool_is_snapshot(pool)) {
      vkppu_cmd_copy_snapshot_results(vkppu_command_buffer_from_handle(commandBuffer), pool,
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
